"""scripts/step_variants.py (what scripts/gpu_check.sh runs on a lent GPU): a failed task is a line and an entry
of the JSON's failed list, never the end of the check. A failed case task (no `shape`: its set-up was refused)
raised KeyError in the line printer, which ended the plan and lost the entries after it (the driver's run and
restart, Schaefer-Turek 3D-1Z, the tile sweep), found in a CPU dry run on 2026-12-03."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "step_variants.py"


@pytest.fixture(scope="module")
def sv():
    spec = importlib.util.spec_from_file_location("step_variants", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("task", ["time", "compare", "case", "run", "bandwidth", "fit", "other"])
def test_a_failed_task_of_any_kind_is_one_line(sv, task):
    r = {"task": task, "case": "schaefer_turek_3d1z", "sets": {"n": 5}, "ok": False,
         "error": "ConfigError: u_lattice = 0.0 (derived from the other settings: 0.1333 ...)"}
    line = sv._line(r, {})
    assert line.startswith(f"step_variants: FAILED {task} schaefer_turek_3d1z {{'n': 5}}: ConfigError: u_lattice")
    assert "\n" not in line


def test_a_result_missing_its_figures_never_raises(sv):
    for task in ("time", "compare", "case", "run", "bandwidth", "fit"):
        line = sv._line({"task": task, "ok": True, "path": "pallas"}, {})
        assert line.startswith("step_variants: (unformatted: KeyError") and task in line
    ok = {"task": "time", "ok": True, "path": "xla", "size": 16, "dtype": "float32", "mlups": 11.7,
          "min_bytes_per_cell": 152, "peak_bytes": 2**30, "peak_over_population": 1.1, "kernels": 3,
          "xla_bytes_per_cell": 664.2, "speed_over_xla": 1.0}
    table = sv.table({"results": [ok, {"task": "time", "ok": True, "path": "pallas", "size": 16,
                                       "peak_bytes": None}]})
    rows = table.splitlines()
    assert rows[2] == "| xla | D3Q19 | 16³ | float32 | 11.7 | 1.000 | 664 (152) | 1.00 GiB | 1.10 | 3 |"
    assert rows[3].startswith("| time pallas 16 (unformatted: KeyError")


def test_the_gpu_check_runs_to_its_end_on_cpu_through_a_failing_case(tmp_path):
    """scripts/gpu_check.sh as a lent GPU would run it, on CPU at tiny sizes (GPU_CHECK_ALLOW_CPU, ~2 min: the
    exhaustive tier), with a Schaefer-Turek case whose set-up is refused (D = 5 at tau 0.6: Mach 0.52): one JSON
    with every path's figures, the sphere case bit for bit between the paths, the driver's run and restart, the
    refused case as a failure entry, and the tile sweep after it (the plan went on)."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, GPU_CHECK_ALLOW_CPU="1", GPU_CHECK_PYTHON=sys.executable, GPU_CHECK_SIZES="16",
               GPU_CHECK_DTYPES="float32", GPU_CHECK_STEPS="2", GPU_CHECK_CASE_N="6", GPU_CHECK_ST_N="5",
               GPU_CHECK_ST_TAU="0.6", GPU_CHECK_BUDGET_S="400", OUT=str(tmp_path))
    env.pop("XLA_FLAGS", None)
    p = subprocess.run(["bash", str(SCRIPT.parent / "gpu_check.sh")], env=env, capture_output=True, text=True,
                       timeout=560)
    assert "Traceback" not in p.stderr, p.stderr[-3000:]
    out = json.loads((tmp_path / "gpu_check.json").read_text())
    assert p.returncode == 1 and out["ok"] is False  # CPU devices report no memory limit: "fit" fails
    failed = sorted(_key(f) for f in out["failed"])
    assert failed == ["case schaefer_turek_3d1z", "fit pallas", "fit pallas-inplace", "fit xla"], out["failed"]
    assert "Mach number" in next(f["error"] for f in out["failed"] if f["task"] == "case")
    done = {_key(r) for r in out["results"]}
    assert {"time xla", "time pallas", "time pallas-inplace", "compare pallas", "compare pallas-inplace",
            "case sphere", "run sphere", "bandwidth"} <= done, done
    assert [r["max_abs_diff"] for r in out["results"] if r["task"] in ("compare", "case")] == [0.0, 0.0, 0.0]
    run = next(r for r in out["results"] if r["task"] == "run")
    assert (run["run"]["exit_status"], run["restart"]["exit_status"]) == (0, 0)
    # the path the run task named is the one the driver took (on CPU: the XLA step)
    assert (run["path"], run["default_path"], run["step_path_as_named"]) == ("xla", "xla", True), run
    assert any(r.get("tuning") for r in out["results"]), "the tile sweep after the failed case did not run"


def _key(r):
    if r["task"] == "compare":
        return f"compare {r.get('paths', ('xla', 'pallas'))[1]}"
    return " ".join(str(x) for x in (r["task"], r.get("case") or r.get("path")) if x)  # (a run names both)


def test_the_cpu_plan_takes_the_sizes_dtypes_and_steps_it_is_given(sv):
    """--sizes, --dtypes and --steps were read on the GPU plan only: `--sizes 16 --steps 2` still planned the
    400^3 A-B step (10 GB) in float32 and float16."""
    plan = [t for g in sv.cpu_plan([16], ["float32"], 2) for t in g if t.get("task") == "time"]
    assert {(t["path"], t["size"], t["dtype"], t["steps"]) for t in plan} == {
        ("xla", 32, "float32", 2), ("xla", 16, "float32", 2), ("xla-inplace", 16, "float32", 2),
        ("pallas", 32, "float32", 2), ("pallas-inplace", 32, "float32", 2)}
    default = [(t["path"], t["size"], t["dtype"]) for g in sv.cpu_plan() for t in g if t.get("task") == "time"]
    assert ("xla-inplace", 400, "float16") in default and ("xla", 128, "float32") in default  # the README's run


@pytest.mark.parametrize("args,said", [(["--sizes", "0"], "--sizes = '0': expected a comma-separated list of "
                                                          "lattice sides >= 8"),
                                       (["--dtypes", "f32"], "--dtypes = 'f32': expected"),
                                       (["--steps", "0"], "--steps = 0: expected at least 1")])
def test_bad_options_are_one_line(sv, capsys, args, said):
    with pytest.raises(SystemExit) as e:
        sv.main(args)
    assert e.value.code == 2 and said in capsys.readouterr().err


def test_a_case_task_runs_on_an_image_without_h5py(tmp_path):
    """The GPU check's `case` task (the driver's Simulation, no files written) on a Python with jax and no h5py: the
    lent GPU's image ships jax and CUDA, maybe nothing else. Every case failed on io.checkpoint's `import h5py`
    (the sphere and Schaefer-Turek entries lost); a run that writes files still needs h5py."""
    import json
    import os
    import subprocess
    import sys

    fake = tmp_path / "h5py"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'h5py'\", name='h5py')\n")
    task = [dict(task="case", case="cavity2d", sets=dict(n=8), steps=2, repeat=1, compare=2)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SCRIPT.parents[1]), str(tmp_path)]))
    env.pop("XLA_FLAGS", None)
    p = subprocess.run([sys.executable, str(SCRIPT), "--worker", json.dumps(task)], env=env, capture_output=True,
                       text=True, timeout=300, cwd=tmp_path)
    got = [json.loads(x[7:]) for x in p.stdout.splitlines() if x.startswith("RESULT ")]
    assert len(got) == 1 and got[0]["ok"], (got, p.stderr[-2000:])
    assert got[0]["max_abs_diff"] == 0.0


@pytest.mark.parametrize("given,want", [({}, {"XLA_CLIENT_MEM_FRACTION": "0.95"}),
                                        ({"XLA_CLIENT_MEM_FRACTION": ".8"}, {"XLA_CLIENT_MEM_FRACTION": ".8"}),
                                        ({"XLA_PYTHON_CLIENT_MEM_FRACTION": ".7"},
                                         {"XLA_PYTHON_CLIENT_MEM_FRACTION": ".7"})])
def test_the_workers_memory_fraction_is_set_under_one_name_only(sv, given, want):
    """jaxlib (0.10 and 0.11 alike: jaxlib/xla_client.py generate_pjrt_gpu_plugin_options) raises ValueError at
    the GPU backend's start when both XLA_CLIENT_MEM_FRACTION and the deprecated XLA_PYTHON_CLIENT_MEM_FRACTION are
    set: the plan set the deprecated name beside whatever the machine's environment held, so an image that sets
    the current name would have lost every worker. Now the current name, and only where neither is set."""
    env = sv.worker_env(dict(given, PATH="/bin"))
    assert {k: v for k, v in env.items() if "MEM_FRACTION" in k} == want
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(SCRIPT.parents[1])


def test_a_stuck_task_costs_its_own_allowance_and_its_path_only(sv, tmp_path):
    """A task that reports nothing in its allowance (here the interpreted in-place kernel for a million steps
    against 20 s: on a GPU a stuck Triton compile) has its worker ended and is a "timeout" entry; a fresh worker
    runs the tasks after it, and later tasks of its path are skipped. The plan gave a whole group up to 240 s and lost the tasks after
    the stuck one (the 420 s budget of the GPU check: two stuck Pallas groups and nothing else ran)."""
    import json
    import sys

    t = lambda path, n, steps=2: dict(task="time", path=path, size=n, dtype="float32", steps=steps, repeat=1)
    groups = [[t("xla", 16), t("pallas-inplace", 16, 10 ** 6), t("xla-inplace", 16)],
              [dict(task="compare", size=8, dtype="float32", steps=2, paths=["xla", "pallas-inplace"])],
              [t("xla", 8)]]
    out_path = tmp_path / "plan.json"
    out = sv.run_plan(groups, out_path, 400, sys.executable, __import__("time").time(), {}, task_s=20, start_s=40)
    assert [(r.get("path"), r["size"]) for r in out["results"]] == [("xla", 16), ("xla-inplace", 16), ("xla", 8)], \
        out["failed"]
    assert [(f["task"], f["stage"]) for f in out["failed"]] == [("time", "timeout"), ("compare", "skipped")]
    assert out["failed"][0]["error"] == "timeout: no result within 20 s; worker ended"
    assert "pallas-inplace timed out in an earlier task" in out["failed"][1]["error"]
    assert json.loads(out_path.read_text())["jax"]["platform"] == "cpu"


def test_the_gpu_plan_runs_the_cases_and_the_driver_before_the_largest_lattices(sv):
    """The six "fit" groups (each allocates and writes up to the device's whole memory, a few tries) came before the
    sphere and Schaefer-Turek cases and `distlbm run`: in 420 s they were the first to squeeze those out."""
    kinds = [g[0]["task"] + (":" + g[0].get("case", "") if g[0]["task"] == "case" else "")
             for g in sv.gpu_plan([256, 512], ["float32", "float16"], 50)]
    first_fit = kinds.index("fit")
    assert {"case:sphere", "run", "case:schaefer_turek_3d1z"} <= set(kinds[:first_fit]), kinds
    assert kinds.count("fit") == 6 and kinds[-1] == "time"  # the tile sweep stays last


def test_a_jax_without_pallas_triton_fails_the_pallas_tasks_only(sv, tmp_path, monkeypatch):
    """Pallas' Triton backend is deprecated in jax 0.11 ("will be removed in a future version": docs/pallas/
    CHANGELOG.md, jax-v0.11.0): simulated by a sitecustomize that refuses `jax.experimental.pallas.triton` in the
    workers, the Pallas tasks are failure entries naming the missing backend and jax's version, and the XLA
    tasks after them run."""
    import sys

    (tmp_path / "sitecustomize.py").write_text(
        "import importlib.abc, sys\n"
        "class _Gone(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'jax.experimental.pallas.triton':\n"
        "            raise ModuleNotFoundError(f'No module named {name!r} (simulated)', name=name)\n"
        "sys.meta_path.insert(0, _Gone())\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.delenv("XLA_FLAGS", raising=False)
    t = lambda path: dict(task="time", path=path, size=8, dtype="float32", steps=2, repeat=1)
    out = sv.run_plan([[t("pallas"), t("pallas-inplace"), t("xla")],
                       [dict(task="compare", size=8, dtype="float32", steps=2, paths=["xla", "pallas"])]],
                      None, 300, sys.executable, __import__("time").time(), {})
    assert [r["path"] for r in out["results"]] == ["xla"], out["failed"]
    assert [(f["task"], f.get("path")) for f in out["failed"]] == [("time", "pallas"), ("time", "pallas-inplace"),
                                                                   ("compare", None)]
    for f in out["failed"]:
        assert "Pallas' Triton backend is missing from jax " in f["error"], f["error"]
        assert "cannot import name 'triton'" in f["error"]


@pytest.mark.parametrize("kind,bw", [("NVIDIA H100 80GB HBM3", 3.35e12), ("NVIDIA H100 PCIe", 2.0e12),
                                     ("NVIDIA H100 NVL", 3.9e12), ("NVIDIA H200", 4.8e12),
                                     ("NVIDIA GH200 480GB", 4.8e12), ("cpu", 4.8e12)])
def test_the_nominal_roofline_is_the_devices_own(sv, monkeypatch, kind, bw):
    """The roofline fractions took the H200's 4.8 TB/s on whatever GPU the check ran: a lent machine may be an
    H100 (3.35 TB/s), whose fractions came out 30 % low. The device's kind (the workers' INFO) picks its HBM's
    nominal bandwidth; GPU_CHECK_NOMINAL_BW overrides; unknown kinds keep 4.8e12, said as a default."""
    monkeypatch.delenv("GPU_CHECK_NOMINAL_BW", raising=False)
    r = {"task": "time", "ok": True, "path": "xla", "size": 16, "dtype": "float32", "mlups": 1000.0,
         "min_bytes_per_cell": 152}
    out = {"results": [r], "jax": {"device_kind": kind}}
    sv._derive(out)
    assert out["nominal_bandwidth_bytes_per_s"] == bw
    assert r["nominal_roofline_mlups"] == pytest.approx(bw / 152 / 1e6)
    assert ("default" in out["nominal_bandwidth_source"]) == (kind in ("cpu", "NVIDIA GH200 480GB"))
    monkeypatch.setenv("GPU_CHECK_NOMINAL_BW", "1e12")
    sv._derive(out)
    assert out["nominal_bandwidth_bytes_per_s"] == 1e12 and "GPU_CHECK_NOMINAL_BW" in out["nominal_bandwidth_source"]


def test_a_bad_nominal_bandwidth_is_one_line(sv, capsys, monkeypatch):
    monkeypatch.setenv("GPU_CHECK_NOMINAL_BW", "fast")
    with pytest.raises(SystemExit) as e:
        sv.main(["--plan", "gpu"])
    assert e.value.code == 2 and "GPU_CHECK_NOMINAL_BW = 'fast': expected one bandwidth in bytes/s > 0" in \
        capsys.readouterr().err


def test_a_worker_that_does_not_exit_after_its_results_is_ended(sv, tmp_path, monkeypatch):
    """A worker that gave every result but did not exit within its grace (a jax process stuck at its exit, a
    compiler it left behind) was left running after `proc.wait(timeout=30)` timed out, holding its 95 % of the GPU's
    memory: the next group's fresh worker (or `distlbm run`, given "the device to itself") could not allocate. It is
    ended with its session, as a timed-out worker is."""
    import json
    import signal

    pidfile = tmp_path / "pid"
    fake = tmp_path / "fake_python"
    fake.write_text("#!/bin/sh\n"
                    f"echo $$ > {pidfile}\n"
                    "echo 'INFO {\"platform\": \"cpu\"}'\n"
                    "echo 'RESULT " + json.dumps({"task": "bandwidth", "ok": True}) + "'\n"
                    "trap '' TERM\n"
                    "exec sleep 600\n")
    fake.chmod(0o755)
    monkeypatch.setattr(sv, "EXIT_S", 1.0)
    got = sv.run_group([dict(task="bandwidth")], str(fake), dict(os.environ), None, 60)
    assert [r.get("ok") for r in got if not r.get("info")] == [True]
    pid = int(pidfile.read_text())
    try:
        os.kill(pid, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    if alive:
        os.kill(pid, signal.SIGKILL)
    assert not alive, "the worker was left running"


def test_a_stuck_task_skips_the_later_tasks_of_its_path_in_its_own_group_too(sv, tmp_path):
    """The GPU plan's timings are one group per path ([256, 512] of pallas, say): a Triton compile stuck at 256 gave
    its worker's 150 s, then a fresh worker ran 512 of the same path into the same stall, the rest of the group's
    240 s (two stuck paths: 480 s, more than the 420 s budget, nothing else ran). The later tasks of the stuck path
    are skipped in its group as in the groups after it; the other paths' tasks still run in a fresh worker."""
    import sys

    t = lambda path, n, steps=2: dict(task="time", path=path, size=n, dtype="float32", steps=steps, repeat=1)
    got = sv.run_group([t("pallas-inplace", 16, 10 ** 6), t("pallas-inplace", 8), t("xla", 8)], sys.executable,
                       sv.worker_env(os.environ), None, 300, task_s=15, start_s=30)
    assert [(r["path"], r["size"], r["ok"], r.get("stage")) for r in got if not r.get("info")] == [
        ("pallas-inplace", 16, False, "timeout"), ("pallas-inplace", 8, False, "skipped"), ("xla", 8, True, None)]
    assert "pallas-inplace timed out in an earlier task" in got[-2]["error"]


def test_a_stuck_task_alone_in_its_group_is_a_timeout_and_skips_its_path(sv, tmp_path):
    """A group of one task (the GPU plan's bandwidth, cases and "fit" groups) is given its task's allowance alone
    (start_s + task_s): the task's deadline and the group's end fell together, and a stuck task was said as the group's
    time spent ("budget"), not a timeout, so its path was not marked stuck and the next group of that path (the other
    dtype's "fit") was given its whole allowance to stall in again."""
    import sys

    t = lambda path, n, steps=2: dict(task="time", path=path, size=n, dtype="float32", steps=steps, repeat=1)
    out = sv.run_plan([[t("pallas-inplace", 16, 10 ** 6)], [t("pallas-inplace", 8)], [t("xla", 8)]], None, 400,
                      sys.executable, __import__("time").time(), {}, task_s=10, start_s=30)
    assert [(f["path"], f["size"], f["stage"]) for f in out["failed"]] == [("pallas-inplace", 16, "timeout"),
                                                                          ("pallas-inplace", 8, "skipped")], out["failed"]
    assert out["failed"][0]["error"] == "timeout: no result within 40 s; worker ended"
    assert [(r["path"], r["size"]) for r in out["results"]] == [("xla", 8)]


def test_a_case_task_is_skipped_after_a_path_it_runs_timed_out(sv):
    """A case task runs the case on the XLA step and on the fused kernel (task_case: xla and pallas) but named no path,
    so a stuck Triton compile of the fused kernel stalled each case again: the sphere and Schaefer-Turek cases 150 s
    each of the 420 s, `distlbm run` squeezed out. It is skipped as the other tasks of a stuck path are."""
    import sys

    t = lambda path, n, steps=2: dict(task="time", path=path, size=n, dtype="float32", steps=steps, repeat=1)
    case = dict(task="case", case="cavity2d", sets=dict(n=8), steps=2, repeat=1, compare=2)
    out = sv.run_plan([[t("pallas", 16, 10 ** 6)], [case], [t("xla", 8)]], None, 400, sys.executable,
                      __import__("time").time(), {}, task_s=10, start_s=30)
    assert [(f["task"], f["stage"]) for f in out["failed"]] == [("time", "timeout"), ("case", "skipped")], \
        out["failed"]
    assert "path pallas timed out in an earlier task" in out["failed"][1]["error"]
    assert [(r["path"], r["size"]) for r in out["results"]] == [("xla", 8)]


def test_a_stuck_comparison_blames_its_path_not_the_xla_step_that_ran(sv):
    """A comparison runs two paths (xla and a Pallas one): its timeout marked both stuck, so the XLA step, which had
    run in every timing before it, was skipped for the rest of the check (the float16 timings, the cases, its "fit")
    for a stall of the fused kernel. A path with a result before the stall is not blamed for it (a task whose paths
    all ran before blames them all)."""
    import sys

    t = lambda path, n, steps=2: dict(task="time", path=path, size=n, dtype="float32", steps=steps, repeat=1)
    stuck = dict(task="compare", size=16, dtype="float32", steps=10 ** 6, paths=["xla", "pallas-inplace"])
    out = sv.run_plan([[t("xla", 8)], [stuck], [t("xla", 16), t("pallas-inplace", 8)]], None, 400, sys.executable,
                      __import__("time").time(), {}, task_s=10, start_s=30)
    assert [(f["task"], f["stage"]) for f in out["failed"]] == [("compare", "timeout"), ("time", "skipped")], \
        out["failed"]
    assert "path pallas-inplace timed out" in out["failed"][1]["error"]
    assert [(r["path"], r["size"]) for r in out["results"]] == [("xla", 8), ("xla", 16)]


def _stalling_gpu_python(tmp_path):
    """A fake worker Python that says it is on a GPU (its INFO) and then reports nothing: a stuck Triton compile."""
    fake = tmp_path / "fake_gpu_python"
    fake.write_text("#!/bin/sh\necho 'INFO {\"platform\": \"gpu\", \"device_kind\": \"fake GPU\"}'\nexec sleep 600\n")
    fake.chmod(0o755)
    return str(fake)


@pytest.mark.parametrize("stuck,given", [
    ("pallas", ("xla", {"n": 3, "step": "xla"}, "ran with step=xla: the fused kernel was stuck")),
    ("pallas-inplace", ("pallas", {"n": 3}, None)),
    ("xla+pallas", None)])
def test_the_driver_run_is_not_given_a_stuck_path(sv, tmp_path, monkeypatch, stuck, given):
    """`distlbm run` (the GPU plan's run task) named no path: where the fused kernel's Triton compile was found stuck
    by an earlier task, the run (step = auto: the fused kernel on a GPU, A-B for the sphere's Bouzidi links) stalled
    on it again for its whole allowance (240 s of the 420 s). It names the path the driver takes (stepper.step_path
    for the workers' platform, here a GPU); where that path was stuck it runs with step=xla, said in its entry, and
    where the XLA step was stuck too it is skipped. A stuck in-place kernel is not the sphere's path: it runs as is."""
    calls = []
    monkeypatch.setattr(sv, "task_run", lambda t, *a: calls.append(t) or {"run": {"exit_status": 0}})
    monkeypatch.setattr(sv, "EXIT_S", 1.0)
    task = (dict(task="compare", size=8, dtype="float32", steps=2, paths=["xla", "pallas"]) if stuck == "xla+pallas"
            else dict(task="time", path=stuck, size=8, dtype="float32", steps=2, repeat=1))
    run = dict(task="run", case="sphere", sets=dict(n=3), steps=2, every=1, restart_to=3)
    out = sv.run_plan([[task], [run]], None, 400, _stalling_gpu_python(tmp_path), __import__("time").time(), {},
                      task_s=1, start_s=1)
    assert out["failed"][0]["stage"] == "timeout"
    if given is None:
        assert calls == [], calls
        entry = out["failed"][-1]
        assert (entry["task"], entry["stage"], entry["path"]) == ("run", "skipped", "pallas"), entry
        assert "pallas" in entry["error"] and "xla" in entry["error"] and "timed out" in entry["error"]
        return
    path, sets, note = given
    assert [(t["path"], t["sets"]) for t in calls] == [(path, sets)]
    assert (calls[0].get("note") or "").startswith(note or "") and bool(calls[0].get("note")) == bool(note), calls
    entry = out["results"][-1]
    assert (entry["task"], entry["path"], entry["default_path"]) == ("run", path, "pallas"), entry
    assert entry["default_path_reason"] == "fused Triton kernel"


def test_the_run_tasks_path_is_chosen_without_starting_a_backend(sv):
    """The parent holds no device (the CLI gets the GPU to itself): naming the run's path starts no jax backend."""
    import subprocess
    import sys

    code = ("import importlib.util, sys; from jax._src import xla_bridge\n"
            f"spec = importlib.util.spec_from_file_location('sv', {str(SCRIPT)!r})\n"
            "sv = importlib.util.module_from_spec(spec); spec.loader.exec_module(sv)\n"
            "print(sv.run_path(dict(task='run', case='sphere', sets=dict(n=3)), 'gpu'), sorted(xla_bridge._backends))")
    env = dict(os.environ, PYTHONPATH=str(SCRIPT.parents[1]))
    env.pop("XLA_FLAGS", None)
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert p.stdout.strip() == "('pallas', 'fused Triton kernel') []", p.stdout + p.stderr[-2000:]
