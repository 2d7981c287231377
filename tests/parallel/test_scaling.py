"""scripts/scaling.py: a tiny weak-scaling run on 1 and 2 forced CPU devices writes a valid CSV, JSON and
plot; the halo-traffic model agrees with distlbm's own count of the exchanged bytes."""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "scaling.py"


def _module():
    spec = importlib.util.spec_from_file_location("scaling", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_scaling_script_writes_csv_json_and_plot(tmp_path):
    """The study's files, and (--repeat 2) its mlups of an even repeat: it came from the mean of the two times, no
    entry of mlups_all nor their median; now it is the slower middle repetition's (median_high of the times), on 1
    device and on a 2-device mesh. (One study for both: the same points; --repeat 1 is the other studies' here.)"""
    assert _module().median_time([3.0, 1.0, 2.0, 4.0]) == 3.0
    out = tmp_path / "sc"
    p = subprocess.run([sys.executable, SCRIPT, "--mode", "weak", "--devices", "1,2", "--cells-per-device", "8",
                        "--steps", "2", "--repeat", "2", "--launcher", "local", "--out", out],
                       cwd=REPO, capture_output=True, text=True, timeout=180)
    assert p.returncode == 0, p.stdout + p.stderr
    rows = list(csv.DictReader(open(out / "scaling.csv")))
    mod = _module()
    assert list(rows[0].keys()) == mod.COLUMNS
    assert [(r["mode"], r["launcher"], int(r["devices"]), r["mesh"], r["shape"]) for r in rows] == [
        ("weak", "local", 1, "1x1x1", "8x8x8"), ("weak", "local", 2, "2x1x1", "16x8x8")]
    for r in rows:
        assert not r["error"]
        assert float(r["mlups"]) > 0 and float(r["roofline_fraction"]) > 0 and float(r["bandwidth_gbps"]) > 0
        assert math.isclose(float(r["mlups_per_device"]), float(r["mlups"]) / int(r["devices"]), rel_tol=1e-4)
        assert int(r["bytes_per_cell"]) == 2 * 19 * 4 and int(r["cells_per_device"]) == 512
        # what a study compares across runs: the repetitions and their spread, the device kind, the code's version
        assert int(r["repeat"]) == 2 and float(r["mlups_min"]) <= float(r["mlups"]) <= float(r["mlups_max"])
        assert r["device_kind"] and r["distlbm"]
    head = subprocess.run(["git", "-C", REPO, "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode == 0:  # a git checkout: every point names its commit
        assert {r["commit"] for r in rows} == {head.stdout.strip()}
    assert [int(r["baseline_devices"]) for r in rows] == [1, 1]  # what the efficiency is against
    assert float(rows[0]["efficiency"]) == 1.0 and rows[0]["halo_s_per_step"] == ""  # one device: no exchange
    # the wrap step timed (--repeat 2: a noise figure); the halo time itself is given where it stands out of the noise
    assert rows[1]["step_local_wrap_s"] != "" and rows[1]["halo_noise_s_per_step"] != ""
    assert rows[1]["halo_status"] in ("measured", "below noise", "wrap slower"), rows[1]
    assert (rows[1]["halo_s_per_step"] != "") is (rows[1]["halo_status"] == "measured")
    assert int(rows[1]["halo_bytes_per_step_per_device"]) == 2 * 5 * 64 * 4
    data = json.loads((out / "scaling.json").read_text())
    assert data["meta"]["lattice"] == "D3Q19" and len(data["points"]) == 2 and data["meta"]["complete"] is True
    assert data["meta"]["device_kinds"] and data["meta"]["distlbm"] and data["meta"]["jax"] and "commit" in data["meta"]
    assert data["points"][1]["efficiency"] == pytest.approx(
        data["points"][1]["mlups_per_device"] / data["points"][0]["mlups_per_device"])
    for point in data["points"]:  # an even repeat: the slower middle repetition's
        rates = point["mlups_all"]
        assert len(rates) == 2 and point["mlups"] == pytest.approx(min(rates), rel=1e-9), point
    png = out / "scaling.png"
    if png.exists():  # matplotlib present
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_study_cut_short_keeps_the_points_it_measured(tmp_path):
    """The files were written once, after the last point: a study killed by its allocation's time limit (or scancel,
    a node lost) lost every point it had measured. They are written after every point now, with meta "complete"
    false until the last; --append's earlier points are kept in each."""
    import signal

    out = tmp_path / "sc"
    out.mkdir()
    earlier = {"meta": {}, "points": [{"mode": "strong", "launcher": "mpiexec", "devices": 4, "mlups": 9.0,
                                       "mlups_per_device": 2.25, "mlups_all": [9.0]}]}
    (out / "scaling.json").write_text(json.dumps(earlier))
    p = subprocess.Popen([sys.executable, SCRIPT, "--mode", "weak", "--devices", "1,2,4", "--cells-per-device", "8",
                          "--steps", "2", "--repeat", "1", "--launcher", "local", "--append", "--out", out],
                         cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    seen = []
    try:
        for line in p.stdout:
            seen.append(line)
            if line.startswith("[local weak 1 device(s)"):
                break
        # the second point is under way (or about to be): killed as a time limit's SIGKILL would
        os.killpg(p.pid, signal.SIGKILL)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        p.wait(timeout=60)
    assert seen and seen[-1].startswith("[local weak 1 device(s)"), "".join(seen)
    data = json.loads((out / "scaling.json").read_text())
    assert data["meta"]["complete"] is False
    points = {(r["mode"], r["launcher"], r["devices"]) for r in data["points"]}
    assert ("weak", "local", 1) in points and ("strong", "mpiexec", 4) in points, data["points"]
    assert ("weak", "local", 4) not in points
    rows = list(csv.DictReader(open(out / "scaling.csv")))
    assert {(r["mode"], r["launcher"], int(r["devices"])) for r in rows} == points
    assert not list(out.glob(".scaling.*"))


def test_without_matplotlib_the_plot_is_one_line_that_names_an_earlier_plot(tmp_path, monkeypatch, capsys):
    """No matplotlib: one line, and a scaling.png of an earlier run in DIR is said to be that (it was left unsaid,
    read as this run's plot); the way to the plot once matplotlib is there."""
    mod = _module()
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib: ImportError
    png = tmp_path / "scaling.png"
    assert mod.plot([], png, {}) is None
    assert capsys.readouterr().err.splitlines() == [
        "matplotlib not installed: no plot (pip install matplotlib, then scripts/scaling.py --replot --out "
        f"{tmp_path})"]
    png.write_bytes(b"an earlier plot")
    assert mod.plot([], png, {}) is None
    assert capsys.readouterr().err.splitlines() == [
        f"matplotlib not installed: no plot; {png} there is an earlier run's, not this one's (pip install matplotlib, "
        f"then scripts/scaling.py --replot --out {tmp_path})"]


def test_model_halo_bytes_match_the_solver_count():
    from distlbm.lattice import get_lattice
    from distlbm.parallel.mesh import halo_bytes_per_step

    mod = _module()
    lat = get_lattice("D3Q19")
    for n, mesh in ((400, (8, 1, 1)), (400, (4, 2, 1)), (400, (2, 2, 2)), (1600, (4, 4, 4))):
        for dt, item in (("float32", 4), ("float16", 2)):
            r = mod.halo_model(n, mesh, dtype=dt)
            assert r["halo_bytes_per_step_per_gpu"] == halo_bytes_per_step(lat.c, (n,) * 3, mesh, item)
            assert 0 < r["efficiency"] <= 1 and r["efficiency"] <= mod.halo_model(n, mesh, dtype=dt, overlap=True)[
                "efficiency"]
    # README's table: 8 devices, 400^3 float32: 6.4 MB (slabs), 4.8 MB (pencils, blocks)
    assert mod.halo_model(400, (8, 1, 1))["halo_bytes_per_step_per_gpu"] == 6_400_000
    one_node = mod.halo_model(400, (2, 2, 2))
    assert one_node["links"] == "NVLink+NVLink+NVLink"  # 8 GPUs: one node
    # more bandwidth or less latency never lowers the predicted efficiency
    base = mod.halo_model(1600, (8, 8, 8))["efficiency"]
    assert mod.halo_model(1600, (8, 8, 8), ib_gbps=50.0)["efficiency"] >= base
    assert mod.halo_model(1600, (8, 8, 8), latency_inter_us=1.0)["efficiency"] >= base
    rows = mod.model_table()
    assert {(r["n"], r["gpus"]) for r in rows} == {(n, g) for n in (400, 1600) for g in (8, 64, 512)}


def test_balanced_mesh_and_geometry():
    mod = _module()
    assert mod.balanced_mesh(8, 3) == (2, 2, 2) and mod.balanced_mesh(4, 3) == (2, 2, 1)
    assert mod.balanced_mesh(1, 3) == (1, 1, 1) and mod.balanced_mesh(12, 3) == (3, 2, 2)
    assert mod.point_geometry("weak", 4, 3, 32, 0, {}) == ((64, 64, 32), (2, 2, 1))
    assert mod.point_geometry("weak", 4, 3, 32, 0, {4: "4x1x1"}) == ((128, 32, 32), (4, 1, 1))
    shape, mesh = mod.point_geometry("strong", 8, 3, 0, 64, {})
    assert shape == (64, 64, 64) and np.prod(mesh) == 8


@pytest.mark.parametrize("args,said", [
    (["--devices", "0"], "--devices = '0': expected device counts >= 1"),  # ZeroDivisionError
    (["--cells-per-device", "0"], "--cells-per-device = 0: expected at least 1"),  # every point failed, exit 0
    (["--lattice", "D3Q15"], "--lattice = 'D3Q15': expected D2Q9, D3Q19 or D3Q27"),  # a ValueError traceback
    (["--meshes", "2:3x1x1"], "'2:3x1x1' is not COUNT:MESH"),  # a traceback in the point's row
    (["--replot", "--out", "nowhere"], "--replot: no nowhere/scaling.json"),  # FileNotFoundError
    # a launcher that is not there: a FileNotFoundError traceback after the local points ran, which were lost
    (["--launcher", "local,srun", "--srun", "/nonexistent/srun"],
     "--launcher srun: '/nonexistent/srun' is not an executable found here"),
    (["--launcher", "mpiexec", "--mpiexec", "/nonexistent/mpiexec"],
     "--launcher mpiexec: '/nonexistent/mpiexec' is not an executable found here"),
    (["--launcher", "foo"], "--launcher = 'foo': 'foo' is not a launcher; expected local, mpiexec or srun"),  # exit 1
    # the 1-device point an error row at the end, the efficiencies taken against the 8-device one
    (["--launcher", "srun", "--srun", "/bin/true", "--devices", "1,8,16", "--devices-per-process", "8"],
     "--devices-per-process = 8: 1 devices (--devices 1,8,16) do not split into processes of 8 devices under "
     "--launcher srun; expected device counts that are multiples of it"),
    # every point failed in its worker, one after another, and the study exited 1 with no figure
    (["--collision", "foo"], "--collision = 'foo': expected bgk, trt or regularized"),
    (["--dtype", "int8"], "--dtype = 'int8': expected float32, float64, float16 or bfloat16"),
    # --comm mpi runs one device per rank: every point of 2 devices per process failed ('expected one per MPI rank')
    (["--launcher", "mpiexec", "--comm", "mpi", "--devices-per-process", "2", "--devices", "2"],
     "--devices-per-process = 2: --comm mpi runs one device per process; expected 1 (or --comm jax)"),
    # a negative bandwidth was taken as given: negative roofline figures in every row
    (["--bandwidth-gbps", "-5"], "--bandwidth-gbps = -5.0: expected GB/s > 0 (or 0: measure it)"),
    # a ValueError traceback from shlex (No closing quotation) once the launcher's first point was to start
    (["--launcher", "mpiexec", "--launcher-args='-n 1"],
     "--launcher-args = \"'-n 1\": No closing quotation; expected the launcher's options as a shell would split them"),
    # a mesh for a count that is not measured was ignored unsaid (a typo, 6:... for 8 devices, ran 8 on its own mesh)
    (["--devices", "1,2", "--meshes", "4:4x1x1"],
     "--meshes = '4:4x1x1': 4 devices is no count of --devices 1,2; expected meshes for counts of --devices"),
    # the model's assumptions: a ZeroDivisionError or TypeError traceback, or negative times in the table
    (["--model", "--hbm-gbps", "0"], "--hbm-gbps = 0.0: expected a number > 0"),
    (["--model", "--gpus-per-node", "0"], "--gpus-per-node = 0: expected a number > 0"),
    (["--model", "--roofline-fraction", "-1"], "--roofline-fraction = -1.0: expected a fraction > 0 and <= 1"),
    (["--model", "--latency-inter-us", "-1"], "--latency-inter-us = -1.0: expected a number >= 0"),
    # nan passed every comparison above: a table of nan (the model) or nan roofline figures, a point's timeout nan
    (["--model", "--hbm-gbps", "nan"], "--hbm-gbps = nan: expected a number > 0"),
    (["--model", "--latency-intra-us", "inf"], "--latency-intra-us = inf: expected a number >= 0"),
    (["--bandwidth-gbps", "nan"], "--bandwidth-gbps = nan: expected GB/s > 0 (or 0: measure it)"),
    (["--timeout", "nan"], "--timeout = nan: expected seconds > 0"),
    # a count given twice was measured once, unsaid (a typo of another count: 1,2,2 for 1,2,4)
    (["--devices", "1,2,2"], "--devices = '1,2,2': 2 is given twice; expected each device count once"),
])
def test_bad_options_are_one_line_before_any_point(args, said, capsys):
    mod = _module()
    with pytest.raises(SystemExit) as e:
        mod.main(args)
    err = capsys.readouterr().err
    assert e.value.code == 2 and said in err and "Traceback" not in err, err


def test_a_python_without_jax_is_one_line_with_the_way_to_run_it(monkeypatch, capsys):
    """`scripts/scaling.py`, as docs/scaling.md writes it, runs the first python3 on PATH: without the project's
    environment a ModuleNotFoundError traceback. The model needs no JAX and still runs."""
    mod = _module()
    mod.launch_point = lambda *a, **k: pytest.fail("a point ran")
    monkeypatch.setitem(sys.modules, "jax", None)  # import jax: ImportError
    with pytest.raises(SystemExit) as e:
        mod.main(["--devices", "1", "--mode", "weak"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err, err
    assert f"error: this Python ({sys.executable}) cannot import JAX" in err and "activate it" in err, err
    assert mod.main(["--model"]) == 0


@pytest.mark.parametrize("args,said", [
    (["--mode", "strong", "--size", "64"], "holds points of --size 32, this run's is 64"),
    (["--mode", "weak", "--cells-per-device", "8"], "holds points of --cells-per-device 16, this run's is 8"),
    (["--dtype", "float16"], "holds points of --dtype float32, this run's is float16"),
    (["--launcher", "mpiexec", "--comm", "mpi"], "holds points of --comm jax, this run's is mpi"),
    # processes of 2 devices beside processes of 1: the series' efficiencies taken across the two unsaid
    (["--launcher", "mpiexec", "--devices-per-process", "2", "--devices", "2"],
     "holds points of --devices-per-process 1, this run's is 2"),
])
def test_append_of_other_points_is_refused_before_any_point(tmp_path, args, said, capsys):
    # --append merged a run of another size, block, dtype or exchange into the same series unsaid: a strong
    # series of --size 64 got its efficiency against the 1-device run of --size 32 (and replaced its points)
    pt = dict(lattice="D3Q19", dtype="float32", comm="jax", mlups=10.0)
    old = {"meta": {"lattice": "D3Q19", "dtype": "float32", "collision": "bgk", "cells_per_device": 16, "size": 32},
           "points": [dict(pt, mode="weak", launcher="local", devices=1, shape="16x16x16", cells_per_device=4096),
                      dict(pt, mode="strong", launcher="local", devices=1, shape="32x32x32", cells_per_device=32768),
                      dict(pt, mode="weak", launcher="mpiexec", devices=2, shape="32x16x16", cells_per_device=4096,
                           processes=2)]}
    (tmp_path / "scaling.json").write_text(json.dumps(old))
    mod = _module()
    mod.launch_point = lambda *a, **k: pytest.fail("a point ran")
    base = ["--out", str(tmp_path), "--append", "--devices", "1", "--size", "32", "--cells-per-device", "16"]
    with pytest.raises(SystemExit) as e:
        mod.main(base + args)
    err = capsys.readouterr().err
    assert e.value.code == 2 and said in err and "Traceback" not in err, err
    mod.check_append(None, mod.build_parser().parse_args(base + ["--mode", "weak", "--size", "64"]), old)  # unused


def test_appended_points_of_another_device_kind_are_warned_about(tmp_path, capsys):
    """--append of a run on other hardware (an H100 node's points beside an H200 node's) took the efficiencies across
    the two unsaid; the kind is known once the points ran: a warning per mixed series, in the run's output."""
    pt = dict(lattice="D3Q19", dtype="float32", comm="jax", mlups=10.0, mlups_per_device=10.0, mlups_all=[10.0],
              mode="weak", launcher="local", shape="8x8x8", cells_per_device=512, processes=1, mesh="1x1x1",
              roofline_fraction=0.1, platform="gpu")
    old = {"meta": {"lattice": "D3Q19", "dtype": "float32", "collision": "bgk", "cells_per_device": 8, "size": 16},
           "points": [dict(pt, devices=1, device_kind="NVIDIA H100 80GB HBM3")]}
    (tmp_path / "scaling.json").write_text(json.dumps(old))
    mod = _module()
    mod.launch_point = lambda *a, **k: dict(pt, devices=2, mesh="2x1x1", shape="16x8x8", mlups=16.0,
                                            mlups_per_device=8.0, mlups_all=[16.0], device_kind="NVIDIA H200")
    assert mod.main(["--out", str(tmp_path), "--append", "--mode", "weak", "--devices", "2", "--cells-per-device",
                     "8", "--no-plots"]) == 0
    err = capsys.readouterr().err
    assert (f"warning: the weak series of --launcher local in {tmp_path / 'scaling.json'} ran on NVIDIA H100 80GB HBM3 "
            "and NVIDIA H200: its efficiencies are taken across those devices") in err, err
    assert mod.mixed_series(old["points"], tmp_path) == []


def test_bandwidth_given_on_cpus_counts_every_host_as_the_measured_one():
    # rows: [measured bandwidth, host, local devices, times...] per process. --bandwidth-gbps (per host on CPUs) was
    # taken for one host on any number of them, the measured figure times the hosts: a 2-node CPU run's roofline
    # fraction twice the measured run's
    mod = _module()
    nan = math.nan
    two_hosts = [[20e9, 11.0, 1.0, 1.0], [nan, 22.0, 1.0, 1.0]]
    one_host = [[20e9, 11.0, 2.0, 1.0], [nan, 11.0, 2.0, 1.0]]
    assert mod.total_bandwidth("cpu", two_hosts) == 40e9
    assert mod.total_bandwidth("cpu", two_hosts, 30e9) == 60e9
    assert mod.total_bandwidth("cpu", one_host, 30e9) == 30e9
    gpus = [[3e12, 11.0, 2.0, 1.0], [4e12, 22.0, 2.0, 1.0]]
    assert mod.total_bandwidth("gpu", gpus) == 14e12 and mod.total_bandwidth("gpu", gpus, 4.8e12) == 4 * 4.8e12


def test_bench_mesh_ratio_says_what_ran_it(tmp_path):
    """The ratio's JSON said neither the device kind nor the code's version: ratios of two GPUs or two commits could
    not be told apart; the mesh's rate per device beside its total."""
    p = subprocess.run([sys.executable, REPO / "scripts" / "bench_mesh_ratio.py", "--mesh", "2x1x1", "--size", "8",
                        "--steps", "1", "--repeat", "1"], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "PYTHONPATH": str(REPO)})
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["device_kind"] and r["platform"] == "cpu" and r["distlbm"] and r["jax"] and "commit" in r, r
    assert (r["steps"], r["repeat"]) == (1, 1) and r["mesh"]["mlups_per_device"] == r["mesh"]["mlups"] / 2, r


def test_bench_mesh_ratio_says_distlbms_line_for_a_mesh_it_refuses(tmp_path):
    """scripts/bench_mesh_ratio.py --mesh 3x1x1 ran the single-device benchmark in full, then ended in a
    CalledProcessError traceback that hid distlbm's one line (its stderr was captured)."""
    p = subprocess.run([sys.executable, REPO / "scripts" / "bench_mesh_ratio.py", "--mesh", "3x1x1", "--size", "16"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "PYTHONPATH": str(REPO)})
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.strip().splitlines() == [
        "bench_mesh_ratio.py: the benchmark on mesh 3x1x1 failed (exit 2): distlbm: configuration error: --mesh = "
        "'3x1x1', --size = 16: lattice size 16 along x does not divide over 3 devices (mesh 3x1x1); sizes that would "
        "work: 15 or 18, or a mesh size along x of 1, 2, 4, 8 or 16"], p.stderr


def test_a_point_the_worker_refuses_is_its_one_line(tmp_path, monkeypatch, capsys):
    """A point that fails in its worker (here: a mesh of more devices than the process sees, as --devices 16 on a node
    of 8 GPUs, which check_local_devices now refuses before any point: left out of the way) is the worker's one line
    in its row, not a traceback's last three lines; the other points are kept."""
    out = tmp_path / "sc"
    monkeypatch.setenv("XLA_FLAGS", "--xla_force_host_platform_device_count=1")
    mod = _module()
    mod.check_local_devices = lambda *a: None
    assert mod.main(["--mode", "weak", "--devices", "1,2", "--cells-per-device", "4", "--no-force-cpu", "--no-plots",
                     "--steps", "1", "--repeat", "1", "--launcher", "local", "--out", str(out)]) == 1  # a point failed
    one, two = json.loads((out / "scaling.json").read_text())["points"]
    assert one["mlups"] > 0 and not one.get("error"), one
    assert two["error"].startswith("exit 2: mesh = 2x1x1 needs 2 devices; expected at most the 1 available"), two
    assert "Traceback" not in two["error"] and " | " not in two["error"], two["error"]


@pytest.mark.parametrize("args,said", [
    (["--size", "15", "--devices", "1,2"], "--size = 15: strong scaling's 15x15x15 lattice does not split evenly over "
     "2 devices; expected a size that every device count of --devices 1,2 splits, e.g. 16 (or --mode weak)"),
    (["--size", "1", "--devices", "2"], "--size = 1: strong scaling's 1x1x1 lattice does not split evenly over 2 "
     "devices; expected a size that every device count of --devices 2 splits, e.g. 2"),
    (["--size", "12", "--devices", "1,8", "--meshes", "8:8x1x1"], "--size = 12: strong scaling's 12x12x12 lattice does "
     "not split over the mesh 8x1x1 (--meshes); expected a size that every device count of --devices 1,8 splits, "
     "e.g. 16"),
])
def test_a_strong_size_that_a_device_count_does_not_split_is_refused_before_any_point(tmp_path, args, said, capsys):
    """A --size that one device count does not split ran every point before it (minutes each on an allocation) and
    ended as an error row at the end; now one line before any point runs. Weak scaling alone is not refused."""
    mod = _module()
    mod.launch_point = lambda *a, **k: pytest.fail("a point ran")
    for mode in ("strong", "both"):
        with pytest.raises(SystemExit) as e:
            mod.main(["--mode", mode, "--out", str(tmp_path)] + args)
        err = capsys.readouterr().err
        assert e.value.code == 2 and said in err and "Traceback" not in err, err
    mod.check_strong_size(None, mod.build_parser().parse_args(["--size", "16", "--devices", "1,2,4,8"]), [1, 2, 4, 8])


@pytest.mark.parametrize("args,said", [
    (["--launcher", "local,local"], "--launcher = 'local,local': 'local' is given twice; expected each launcher once"),
    (["--launcher", "local, local"], "--launcher = 'local, local': 'local' is given twice"),
    (["--devices", "1,2", "--meshes", "2:2x1x1,2:1x2x1"], "--meshes = '2:2x1x1,2:1x2x1': 2 devices are given two "
     "meshes (2x1x1 and 1x2x1); expected one mesh per device count"),
])
def test_a_launcher_or_a_mesh_given_twice_is_refused_before_any_point(tmp_path, args, said, capsys):
    """--launcher local,local ran every point twice (the second replacing the first in the table, twice the time on
    an allocation); --meshes with a device count twice ran the count on the last mesh alone, the first unsaid."""
    mod = _module()
    mod.launch_point = lambda *a, **k: pytest.fail("a point ran")
    with pytest.raises(SystemExit) as e:
        mod.main(["--mode", "weak", "--cells-per-device", "4", "--devices", "1", "--out", str(tmp_path)] + args)
    err = capsys.readouterr().err
    assert e.value.code == 2 and said in err and "Traceback" not in err, err


def test_a_repetition_lasts_as_long_as_its_slowest_process():
    """Each process's median, then the slowest of those, paired one process's slow repetition with another's fast one:
    processes timed [1, 3, 1] and [3, 1, 1] (each median 1) made 1 s of repetitions that each lasted 3 s. Each
    repetition is now its slowest process's time, then the median (as `distlbm bench` takes it): 3 s."""
    mod = _module()
    rows = [[1e9, 1.0, 1.0, 1.0, 3.0, 1.0, 0.5, 0.5, 0.5], [1e9, 1.0, 1.0, 3.0, 1.0, 1.0, 0.5, 0.7, 0.5]]
    assert mod.repetition_times(rows, 3, 3) == [3.0, 3.0, 1.0]
    assert mod.median_time(mod.repetition_times(rows, 3, 3)) == 3.0
    assert mod.repetition_times(rows, 6, 3) == [0.5, 0.7, 0.5]


def _study_with_written_points(capsys, shown_of):
    """scaling.py's module whose every point measures 10 MLUPS at once (launch_point) and whose write_outputs notes,
    at each write, the points already in scaling.json and shown_of(the output printed since the last write)."""
    pt = dict(lattice="D3Q19", dtype="float32", comm="jax", mlups=10.0, mlups_per_device=10.0, mlups_all=[10.0],
              shape="8x8x8", cells_per_device=512, processes=1, mesh="1x1x1", roofline_fraction=0.1, platform="cpu")
    mod = _module()
    mod.launch_point = lambda *a, **k: dict(pt)
    written = []
    write = mod.write_outputs

    def spy(rows, out, meta, plots=True):
        shown = shown_of(capsys.readouterr().out)
        written.append((len(json.loads((out / "scaling.json").read_text())["points"]) if written else 0, shown))
        return write(rows, out, meta, plots)

    mod.write_outputs = spy
    return mod, written


def test_a_points_line_is_printed_once_the_point_is_in_the_files(tmp_path, capsys):
    """The point's line was printed before the files were rewritten with it: a study killed on that line (a time
    limit's SIGKILL, or the cut-short test above reading it) could lose the point it showed as measured. Each
    write now comes before the point's line, so every line printed is a point in scaling.json."""
    mod, written = _study_with_written_points(capsys, lambda out: out.count(" device(s), mesh "))
    assert mod.main(["--out", str(tmp_path), "--mode", "weak", "--devices", "1,2", "--cells-per-device", "8",
                     "--launcher", "local", "--no-plots"]) == 0
    # at each write: the points already in the files, and the lines printed since the last write
    assert written == [(0, 0), (1, 1), (2, 1)], written


def test_a_point_refused_for_its_mesh_says_its_line_and_is_written_at_once(tmp_path, capsys):
    """A point refused for its mesh (here --meshes 2:2x1, a mesh of two axes for a 3D lattice) printed no line and
    was written only with the next point's files (a study cut short there lost it). It now says what point and why,
    once it is in the files, as a measured or failed point does; the points after it run."""
    mod, written = _study_with_written_points(
        capsys, lambda out: [ln for ln in out.splitlines() if ln.startswith("[")])
    assert mod.main(["--out", str(tmp_path), "--mode", "weak", "--devices", "1,2,4", "--meshes", "2:2x1",
                     "--cells-per-device", "8", "--launcher", "local", "--no-plots"]) == 1  # a point failed
    why = "mesh = '2x1': expected 3 positive sizes for a 3D lattice, e.g. 2x2x2"
    # at each write: the points already in the files, and the lines printed since the last write
    assert written == [(0, []), (1, ["[local weak 1 device(s), mesh 1x1x1, lattice 8x8x8] 10.00 MLUPS, 10.00 per "
                                     "device"]),
                       (2, [f"[local weak 2 device(s)] {why}"]),
                       (3, ["[local weak 4 device(s), mesh 2x2x1, lattice 16x16x8] 10.00 MLUPS, 10.00 per device"])], \
        written
    refused = json.loads((tmp_path / "scaling.json").read_text())["points"][1]
    assert (refused["devices"], refused["error"], refused["comm"]) == (2, why, "jax"), refused


def test_replot_of_a_study_cut_short_says_so(tmp_path, capsys):
    """--replot of a study cut short (meta complete false, its points written as each ended) drew the table and
    plot of the points it had with nothing to tell them from a whole study's: one line says so."""
    pt = dict(mode="weak", launcher="local", devices=1, mlups=10.0, mlups_per_device=10.0, mlups_all=[10.0],
              shape="8x8x8", processes=1, mesh="1x1x1", roofline_fraction=0.1, platform="cpu")
    mod = _module()
    for complete in (False, True):
        (tmp_path / "scaling.json").write_text(json.dumps({"meta": {"complete": complete, "devices": [1, 2, 4]},
                                                           "points": [dict(pt)]}))
        assert mod.main(["--replot", "--out", str(tmp_path), "--no-plots"]) == 0
        err = capsys.readouterr().err
        assert ("is a study cut short (meta complete false)" in err) is not complete, err


def test_append_keeps_an_earlier_measured_point_over_this_runs_failed_one(tmp_path):
    """--append replaced the earlier point of the same mode, launcher and devices with this run's whatever it was: a
    re-run whose launch failed (an error row) lost a measured point. It is kept, and the point's line says so; the
    run still exits 1 for its failed point."""
    out = tmp_path / "sc"
    common = [sys.executable, SCRIPT, "--mode", "weak", "--devices", "1", "--cells-per-device", "8", "--steps", "2",
              "--repeat", "1", "--launcher", "mpiexec", "--no-plots", "--no-halo-timing", "--out", out]
    p = subprocess.run(common, cwd=REPO, capture_output=True, text=True, timeout=180)
    assert p.returncode == 0, p.stdout + p.stderr
    (measured,) = json.loads((out / "scaling.json").read_text())["points"]
    p = subprocess.run(common + ["--append", "--mpiexec", "/bin/false"], cwd=REPO, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "the earlier measured point in" in p.stdout and "is kept" in p.stdout, p.stdout
    (kept,) = json.loads((out / "scaling.json").read_text())["points"]
    assert kept["mlups"] == measured["mlups"] and not kept.get("error"), kept


def test_local_devices_beyond_the_nodes_are_refused_before_any_point(tmp_path, monkeypatch, capsys):
    """--launcher local given more devices than the node has (here --no-force-cpu on a process shown 2 CPU devices, as
    --devices 1,2,4,8 on a node of 4 GPUs): the points before it ran, and it ended as an error row at the end (the
    test above). It is refused before any point runs: the option, the value and what the node has, one line, exit 2.
    Forced CPU devices (the default on a CPU) are as many as a point asks for: nothing refused."""
    monkeypatch.setenv("XLA_FLAGS", "--xla_force_host_platform_device_count=2")
    mod = _module()
    mod.launch_point = lambda *a, **k: pytest.fail("a point ran")
    with pytest.raises(SystemExit) as e:
        mod.main(["--mode", "weak", "--devices", "1,2,4", "--no-force-cpu", "--launcher", "local", "--out",
                  str(tmp_path)])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1].endswith(
        "error: --devices = '1,2,4': --launcher local runs a point's devices in one process, and this node shows it 2 "
        "(cpu); expected device counts of at most 2 under --launcher local (more across processes: --launcher "
        "mpiexec or srun)"), err
    mod.local_device_count = lambda *a: pytest.fail("forced CPU devices: no need to ask")
    mod.check_local_devices(mod.build_parser(), mod.build_parser().parse_args(["--devices", "1,16"]))


WORKER_WITH_RANK_1_SETTING = """
import os, sys
if os.environ.get("PMI_RANK", os.environ.get("SLURM_PROCID")) == "1":  # a setting of one process alone (its node's
    os.environ[sys.argv[1]] = sys.argv[2]                              # profile, a wrapper's variable)
sys.path.insert(0, sys.argv[3])
import scaling
sys.exit(scaling.main(["--worker", "--shape", "8x4x4", "--mesh", "2x1x1", "--steps", "1", "--repeat", "1",
                       "--no-halo-timing", "--bandwidth-gbps", "10"]))
"""


@pytest.mark.parametrize("launch", ["mpiexec", "srun"])
def test_a_setting_one_worker_alone_finds_wrong_stops_every_worker_at_the_start(tmp_path, launch):
    """The workers of a point of several processes did not meet as `distlbm run`'s do (cli.met_and_refused): one that
    found an error in its settings (here DISTLBM_STARTUP_TIMEOUT on process 1 alone) ended alone, and the other waited
    for it in the start (under mpiexec for ever: the point's --timeout, 900 s, then 'timed out'; srun: the start-up
    timeout). They meet through the same function now: the one says its error, the other that the point stops, both
    exit 2 within seconds, and the point's row is that error in one line."""
    mpiexec = Path(sys.executable).parent / "mpiexec"
    if not mpiexec.exists():
        pytest.skip("mpiexec from the mpich wheel not installed")
    cmd = [mpiexec, "-n", "2"] if launch == "mpiexec" else [REPO / "tests" / "fake_slurm" / "srun", "-n", "2"]
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=1", "DISTLBM_HEARTBEAT_TIMEOUT": "10",
           "PYTHONPATH": str(REPO)}
    p = subprocess.Popen([str(c) for c in cmd] + [sys.executable, "-c", WORKER_WITH_RANK_1_SETTING,
                                                  "DISTLBM_STARTUP_TIMEOUT", "abc", str(REPO / "scripts")],
                         cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        out, err = p.communicate()
        pytest.fail(f"the workers waited for each other: {err[-2000:]}")
    said = ("DISTLBM_STARTUP_TIMEOUT = 'abc': expected a whole number of seconds >= 10 and <= 2147483647 (default "
            "300)")
    assert p.returncode == 2, out + err
    assert sorted(ln for ln in err.splitlines() if ln.startswith("distlbm:")) == [
        f"distlbm: configuration error (process 1): {said}",
        "distlbm: process 0: the scaling point stops at its start: process 1 of 2 found an error in its settings (its "
        "own line says which); nothing ran"], err
    assert _module().point_error(p.returncode, out, err) == f"exit 2: configuration error (process 1): {said}", err


def test_half_storage_is_measured_with_float32_arithmetic_as_runs_use_it(tmp_path):
    """--dtype float16 measured float16 arithmetic (compute_dtype = the storage dtype): a configuration no run uses by
    default (distlbm run and bench compute 16-bit storage in float32), which on GPUs the fused kernel does not cover
    (the XLA step ran instead). The point now says the compute dtype it measured: float32."""
    out = tmp_path / "sc"
    p = subprocess.run([sys.executable, SCRIPT, "--mode", "weak", "--devices", "1", "--cells-per-device", "4",
                        "--dtype", "float16", "--steps", "1", "--repeat", "1", "--no-plots", "--out", out],
                       cwd=REPO, capture_output=True, text=True, timeout=180)
    assert p.returncode == 0, p.stdout + p.stderr
    (point,) = json.loads((out / "scaling.json").read_text())["points"]
    assert (point["dtype"], point.get("compute_dtype"), point["bytes_per_cell"]) == ("float16", "float32", 76), point
    assert "compute_dtype" in _module().COLUMNS


def test_the_halo_timings_wrap_run_is_the_same_step_form_as_the_real_one(monkeypatch):
    """The halo time is the step minus the same step with the exchange replaced by the local periodic wrap. Where the
    fused kernel streams in place (GPUs, the default), the real run took the in-place (AA) kernels and the wrap run the
    A-B kernel (make_step with a step_factory, which make_advance never runs in place): a difference of two kernels,
    not the exchange's time. Both are the in-place kernels now, the wrap's blocks given the local wrap."""
    from distlbm import stepper
    from distlbm.lattice import get_lattice
    from distlbm.parallel.halo import local_exchange
    from distlbm.parallel.mesh import MeshDomain
    from distlbm.physics import fused_inplace
    from distlbm.physics.collision import Collision

    made = []

    def spy(model, exchange, **kw):
        made.append(exchange)
        return (lambda *a: None,) * 3

    monkeypatch.setattr(stepper, "step_path", lambda model, requested="auto", key="step": ("pallas", "a GPU"))
    monkeypatch.setattr(fused_inplace, "make_fused_inplace", spy)
    model = stepper.Model(get_lattice("D3Q19"), Collision("bgk", 0.8), dtype="float32", compute_dtype="float32")
    dom = MeshDomain((8, 4, 4), (2, 1, 1))
    runs = _module().timed_runs(model, dom, halo_timing=True)
    assert set(runs) == {"real", "wrap"}
    real, wrap = made[:len(made) // 2], made[len(made) // 2:]
    assert wrap and all(e is not dom.exchange for e in wrap), made  # the wrap: the in-place kernels, no exchange
    assert any(e is dom.exchange for e in real), made  # the real run: the domain's exchange
    # the wrap's blocks get their own planes back, and wrap the axes that the real exchange wraps (y, z), not every
    # axis (local_exchange: the step took x's planes inside its loop, the real one before it: another program)
    for e in wrap:  # (its values: each block's own periodic evolution, the test below)
        assert e is not local_exchange
        assert [e.wraps(a) for a in range(3)] == [dom.exchange.wraps(a) for a in range(3)] == [False, True, True]


def test_a_study_into_the_folder_of_an_earlier_one_is_refused_without_append(tmp_path, capsys):
    """A second study into the same --out (the default out/scaling: a weak study, then a strong one) rewrote
    scaling.json with its own points alone at its first point: the earlier study's points (an hour of an allocation)
    were lost unsaid. Refused before any point runs unless --append (which merges them); --replot reads it."""
    pt = dict(mode="weak", launcher="local", devices=1, mlups=10.0, mlups_per_device=10.0, mlups_all=[10.0],
              shape="8x8x8", processes=1, mesh="1x1x1", roofline_fraction=0.1, platform="cpu", lattice="D3Q19",
              dtype="float32", cells_per_device=512)
    (tmp_path / "scaling.json").write_text(json.dumps({"meta": {"date": "2026-12-01 10:00:00", "lattice": "D3Q19",
                                                                 "dtype": "float32", "collision": "bgk"},
                                                        "points": [pt, dict(pt, devices=2)]}))
    mod = _module()
    mod.launch_point = lambda *a, **k: pytest.fail("a point ran")
    with pytest.raises(SystemExit) as e:
        mod.main(["--mode", "strong", "--devices", "1", "--size", "8", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.strip().splitlines()[-1].endswith(
        f"error: --out = '{tmp_path}': {tmp_path / 'scaling.json'} holds an earlier study's 2 points (2026-12-01 "
        "10:00:00); expected --append to add this run's points to them, another --out, or that file removed first (to "
        "measure the study anew)"), err
    assert len(json.loads((tmp_path / "scaling.json").read_text())["points"]) == 2


def test_srun_outside_an_allocation_is_warned_about_before_the_first_point(tmp_path, monkeypatch, capsys):
    """--launcher srun on a login node (no SLURM_JOB_ID) ran each point as a job of its own: queued within the point's
    --timeout, and perhaps on other nodes than the point before. Said once, before the first point (not refused:
    some sites run interactive srun on purpose)."""
    pt = dict(lattice="D3Q19", dtype="float32", comm="jax", mlups=10.0, mlups_per_device=10.0, mlups_all=[10.0],
              shape="8x8x8", cells_per_device=512, processes=1, mesh="1x1x1", roofline_fraction=0.1, platform="cpu")
    mod = _module()
    seen = []
    mod.launch_point = lambda *a, **k: seen.append(capsys.readouterr().err) or dict(pt)
    args = ["--mode", "weak", "--devices", "1", "--cells-per-device", "8", "--launcher", "srun", "--srun", "/bin/true",
            "--no-plots"]
    monkeypatch.delenv("SLURM_JOB_ID", raising=False)
    assert mod.main(args + ["--out", str(tmp_path / "a")]) == 0
    assert seen[0].splitlines() == [
        "warning: --launcher srun outside a Slurm allocation (SLURM_JOB_ID unset): each point is a job of its own, "
        "queued within its --timeout and perhaps on other nodes than the others; expected the study inside one "
        "(salloc, or sbatch slurm/scaling.sbatch)"], seen
    monkeypatch.setenv("SLURM_JOB_ID", "123")
    assert mod.main(args + ["--out", str(tmp_path / "b")]) == 0
    assert "outside a Slurm allocation" not in seen[1], seen


@pytest.mark.parametrize("var,value,said", [
    ("DISTLBM_STARTUP_TIMEOUT", "abc", "DISTLBM_STARTUP_TIMEOUT = 'abc': expected a whole number of seconds >= 10"),
    ("DISTLBM_HEARTBEAT_TIMEOUT", "0", "DISTLBM_HEARTBEAT_TIMEOUT = '0': expected a whole number of seconds >= 2"),
    ("DISTLBM_CPU_DEVICES", "two", "DISTLBM_CPU_DEVICES = 'two'"),
])
def test_a_bad_variable_every_worker_reads_is_one_line_before_any_point(var, value, said, monkeypatch, capsys):
    """A DISTLBM_* start-up variable set wrong for the study (every worker inherits the study's environment) made
    every point an error row of the same line, one after another, and the study exit 1: it is refused before any
    point runs, as the options that every point failed on are."""
    mod = _module()
    mod.launch_point = lambda *a, **k: pytest.fail("a point ran")
    monkeypatch.setenv(var, value)
    with pytest.raises(SystemExit) as e:
        mod.main(["--devices", "1,2", "--mode", "weak", "--out", "/nonexistent/never-written"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and said in err and "Traceback" not in err, err


def test_every_option_says_what_it_takes_and_its_default():
    """`scripts/scaling.py --help` listed --mode, --lattice, --dtype, --collision, --out and --no-plots with no text,
    and --steps, --repeat, --size, --cells-per-device, --devices, --launcher and --timeout without the default a study
    runs with (docs/scaling.md's commands give them all: a reader could not tell what one left out means)."""
    mod = _module()
    for action in mod.build_parser()._actions:
        if not action.option_strings or action.help == argparse.SUPPRESS or action.dest == "help":
            continue
        text = " ".join((action.help or "").split())
        assert text, action.option_strings
        if action.default not in (None, False, "", 0.0):
            shown = {str(action.default), f"{action.default:g}" if isinstance(action.default, float) else ""}
            assert any(f"default: {v}" in text or f"default {v}" in text for v in shown if v), \
                (action.option_strings, text)


def test_the_wrap_step_is_each_blocks_own_periodic_evolution_through_the_real_collectives_on_forced_cpu_devices():
    """The wrap step (the halo timing's step without communication) gives each block its own periodic evolution, the
    axes that wrap onto a block the real step's. On forced CPU devices of one process its planes go through the real
    step's collectives, each block to itself: without any collective XLA's CPU runtime ran the program about twice as
    slowly as the real one (2 forced devices, 64^3: 13.1 against 7.5 ms a step), and the halo time, the step minus the
    wrap, was negative."""
    import jax
    import jax.numpy as jnp

    from distlbm import stepper
    from distlbm.lattice import get_lattice
    from distlbm.parallel import make_advance
    from distlbm.parallel.domain import LocalDomain
    from distlbm.parallel.mesh import MeshDomain
    from distlbm.physics.collision import Collision

    mod = _module()
    lat = get_lattice("D3Q19")
    model = stepper.Model(lat, Collision("bgk", 0.8), dtype="float32", compute_dtype="float32")
    dom = MeshDomain((8, 4, 4), (2, 1, 1))
    assert mod.wrap_permute(dom) == (tuple(dom.axes), (2, 1, 1))  # forced CPU devices of this one process
    f = 1 / 19 + 0.001 * np.random.default_rng(0).standard_normal((19, 8, 4, 4)).astype(np.float32)
    zero = np.zeros((), np.int32)
    wrap = mod.timed_runs(model, dom, halo_timing=True)["wrap"]
    got = wrap(stepper.State(dom.commit(jnp.asarray(f)), dom.replicate(zero)), stepper.Cells(), jnp.int32(3))
    one = make_advance(model, LocalDomain((4, 4, 4)))
    for half in (slice(0, 4), slice(4, 8)):
        alone = one(stepper.State(jnp.asarray(f[:, half]), jnp.asarray(zero)), stepper.Cells(), jnp.int32(3))
        np.testing.assert_allclose(np.asarray(got.f)[:, half], np.asarray(alone.f), rtol=0, atol=1e-6)
    assert int(jax.device_get(got.step)) == 3


def test_a_halo_time_within_the_noise_is_said_so_never_a_negative_time(tmp_path, capsys):
    """halo_s_per_step, the step minus the wrap step, was reported whatever it was: on this 2-core machine -0.3 ms,
    -4 % of the step, read as a negative communication cost. It is now given where it stands out of the noise (half
    the spread of the repetitions' paired real - wrap times), else None with halo_status saying why, and the noise in
    halo_noise_s_per_step; the table prints '<noise' or '?' with a line saying what they are. Timings fed in."""
    mod = _module()
    # 10 steps a repetition; real and wrap timed in turn in each of 3 repetitions
    measured = mod.halo_figures([2.0, 2.1, 2.05], [1.0, 1.05, 1.1], 10)
    assert measured["halo_status"] == "measured"
    assert measured["halo_s_per_step"] == pytest.approx((2.05 - 1.05) / 10)
    assert measured["halo_fraction"] == pytest.approx(1.0 / 2.05)
    assert measured["halo_noise_s_per_step"] == pytest.approx((1.05 - 0.95) / 2 / 10)
    noisy = mod.halo_figures([1.0, 1.2, 1.1], [1.05, 1.0, 1.2], 10)  # differences -0.05, 0.2, -0.1: noise 0.15
    assert (noisy["halo_status"], noisy["halo_s_per_step"], noisy["halo_fraction"]) == ("below noise", None, None)
    assert noisy["halo_noise_s_per_step"] == pytest.approx(0.015)
    assert noisy["step_s"] == pytest.approx(0.11) and noisy["step_local_wrap_s"] == pytest.approx(0.105)
    slower = mod.halo_figures([1.0, 1.0, 1.0], [1.2, 1.3, 1.25], 10)
    assert (slower["halo_status"], slower["halo_s_per_step"]) == ("wrap slower", None)
    once = mod.halo_figures([1.1], [1.0], 10)
    assert once["halo_status"] == "no noise figure" and once["halo_noise_s_per_step"] is None
    assert once["halo_s_per_step"] == pytest.approx(0.01)
    assert mod.halo_figures([1.0], [1.2], 10)["halo_s_per_step"] is None
    assert mod.halo_figures([1.0, 1.1], None, 10)["halo_status"] is None  # one device: no wrap

    # a study whose 2-device point's wrap step is as fast as its step within the noise
    pt = dict(lattice="D3Q19", dtype="float32", comm="jax", mlups=10.0, mlups_per_device=10.0, mlups_all=[10.0],
              shape="8x8x8", cells_per_device=512, processes=1, mesh="1x1x1", roofline_fraction=0.1, platform="cpu")
    mod.launch_point = lambda args, launcher, mode, n, shape, mesh: dict(
        pt, devices=n, mesh=mod.fmt(mesh), mlups=10.0 * n, mlups_per_device=10.0,
        **mod.halo_figures([1.0, 1.2, 1.1], [1.05, 1.0, 1.2] if n > 1 else None, 10))
    assert mod.main(["--out", str(tmp_path), "--mode", "weak", "--devices", "1,2", "--cells-per-device", "8",
                     "--launcher", "local", "--no-plots"]) == 0
    out = capsys.readouterr().out
    assert "halo below the timing noise (15.00 ms/step)" in out, out
    row = [ln for ln in out.splitlines() if ln.startswith("weak   local      2")][0]
    assert row.split()[-3:] == ["<15.00", "<13.6", "10.0%"], row  # 15 ms of a 110 ms step
    assert "halo '<N': the step and the same step without the exchange differ by less than the timing noise" in out
    saved = list(csv.DictReader(open(tmp_path / "scaling.csv")))[1]
    assert (saved["halo_s_per_step"], saved["halo_fraction"], saved["halo_status"]) == ("", "", "below noise")
    assert float(saved["halo_noise_s_per_step"]) == pytest.approx(0.015)
    assert json.loads((tmp_path / "scaling.json").read_text())["points"][1]["halo_s_per_step"] is None


def test_an_earlier_studys_negative_halo_time_is_a_question_mark_in_the_table(capsys):
    """--replot of a study written before the noise figure (its negative halo_s_per_step, no halo_status) printed
    the negative time; it is '?', and its positive times are marked '*' (no noise figure), with the lines that say
    what they are."""
    mod = _module()
    pt = dict(mode="weak", launcher="local", devices=2, processes=1, mesh="2x1x1", shape="16x8x8", mlups=10.0,
              mlups_per_device=5.0, efficiency=1.0, speedup=1.0, roofline_fraction=0.1, step_s=0.01,
              step_local_wrap_s=0.0103, halo_s_per_step=-0.0003, halo_fraction=-0.03)
    mod.print_table([pt, dict(pt, devices=4, halo_s_per_step=0.003, halo_fraction=0.3)])
    out = capsys.readouterr().out
    assert out.splitlines()[1].split()[-3:] == ["?", "?", "10.0%"], out
    assert "halo '?': the step without the exchange ran slower than the real one" in out and "-0.30" not in out
    # its positive times had no noise figure either: marked
    assert out.splitlines()[2].split()[-3:] == ["3.00*", "30.0*", "10.0%"], out
    assert "halo '*': no noise figure (--repeat 1, or a study written before scaling.py gave one)" in out


def test_the_table_says_the_baseline_where_the_smallest_point_failed(tmp_path, capsys):
    """A series whose 1-device point failed (out of memory, a launch that failed) took its efficiency and speedup
    against the 2-device point: the table printed 1.00 and 1.00 there, read as perfect scaling from one device (the
    CSV's baseline_devices alone said otherwise). A line under the table now names the baseline and why."""
    pt = dict(lattice="D3Q19", dtype="float32", comm="jax", processes=1, roofline_fraction=0.1, platform="cpu",
              mlups_all=[1.0])
    mod = _module()

    def launch(args, launcher, mode, n, shape, mesh):
        if n == 1:
            return {"error": "exit 1: out of memory"}
        return dict(pt, shape=mod.fmt(shape), mesh=mod.fmt(mesh), mlups=8.0 * n, mlups_per_device=8.0)

    mod.launch_point = launch
    assert mod.main(["--out", str(tmp_path), "--mode", "weak", "--devices", "1,2,4", "--cells-per-device", "8",
                     "--launcher", "local", "--no-plots"]) == 1
    out = capsys.readouterr().out
    assert ("weak local: efficiency and speedup against its 2-device point (its 1-device point failed), not against "
            "one device") in out, out


def test_the_docstring_names_the_halo_states_the_study_writes():
    """scaling.py's docstring (its --help) named the status of --repeat 1 'one repetition', the name 74c3f58 changed to
    'no noise figure' in halo_status, the CSV and the JSON: a reader of --help searched the CSV for a status it never
    holds. Every state halo_status takes is the one the docstring names."""
    mod = _module()
    doc = " ".join(mod.__doc__.split())
    named = {s for s in mod.HALO_STATES if f"'{s}'" in doc}
    assert named == set(mod.HALO_STATES), sorted(set(mod.HALO_STATES) - named)
    assert "'one repetition'" not in doc


@pytest.mark.parametrize("text,opt,why", [
    ('{"meta": {"lattice": "D3Q19"', "--append", "Expecting ',' delimiter"),  # a file cut off
    ('{"meta": {"lattice": "D3Q19"', "--replot", "Expecting ',' delimiter"),
    ("[1, 2]", "--append", "no 'meta' object and 'points' list of points"),  # another program's JSON
    ('{"meta": {}, "points": [1]}', "--replot", "no 'meta' object and 'points' list of points"),
])
def test_append_or_replot_of_a_damaged_study_file_is_one_line(tmp_path, text, opt, why, capsys):
    """--append or --replot of a scaling.json cut off or not a study's: a JSONDecodeError, AttributeError or TypeError
    traceback (exit 1). Now one line that names the file and what is wrong, before any point runs."""
    (tmp_path / "scaling.json").write_text(text)
    mod = _module()
    mod.launch_point = lambda *a, **k: pytest.fail("a point ran")
    with pytest.raises(SystemExit) as e:
        mod.main([opt, "--out", str(tmp_path), "--mode", "weak", "--devices", "1", "--cells-per-device", "8"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err, err
    assert (f"error: {opt}: {tmp_path / 'scaling.json'} is not a scaling study's file ({why}" in err
            and "expected the scaling.json a study wrote, or another --out" in err), err


@pytest.mark.parametrize("sub", ["", "x"])
def test_an_out_folder_that_cannot_be_written_is_one_line_before_any_point(tmp_path, sub, capsys):
    """--out a file (or a folder under one; a folder without permission alike): a FileExistsError or
    NotADirectoryError traceback once the first point was measured, and that point lost. Now one line first."""
    (tmp_path / "f").write_text("")
    out = tmp_path / "f" / sub if sub else tmp_path / "f"
    mod = _module()
    mod.launch_point = lambda *a, **k: pytest.fail("a point ran")
    with pytest.raises(SystemExit) as e:
        mod.main(["--out", str(out), "--mode", "weak", "--devices", "1", "--cells-per-device", "8", "--no-plots"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err, err
    assert f"error: --out = '{out}': " in err and "expected a folder this study can write its files in" in err, err


def test_ctrl_c_in_a_series_keeps_its_points_and_says_so_in_one_line(tmp_path, capsys):
    """Ctrl-C during the second point: the first was kept in the files (meta complete false), but the study ended in a
    KeyboardInterrupt traceback from subprocess's wait. Now one line says what is kept and how to go on; exit 130."""
    mod = _module()
    pt = dict(lattice="D3Q19", dtype="float32", processes=1, roofline_fraction=0.1, platform="cpu", mlups_all=[8.0],
              mlups=8.0, mlups_per_device=8.0)

    def launch(args, launcher, mode, n, shape, mesh):
        if n > 1:
            raise KeyboardInterrupt
        return dict(pt, shape=mod.fmt(shape), mesh=mod.fmt(mesh))

    mod.launch_point = launch
    assert mod.main(["--out", str(tmp_path), "--mode", "weak", "--devices", "1,2,4", "--cells-per-device", "8",
                     "--no-plots"]) == 130
    err = capsys.readouterr().err
    assert err.strip() == (f"scaling.py: interrupted (SIGINT) during the study; 1 measured point is kept in "
                           f"{tmp_path / 'scaling.json'} (meta complete false): --replot --out {tmp_path} draws them, "
                           "--append adds points to them"), err
    data = json.loads((tmp_path / "scaling.json").read_text())
    assert data["meta"]["complete"] is False and [r["devices"] for r in data["points"]] == [1]


def test_an_empty_entry_of_devices_is_read_as_its_check_reads_it(tmp_path):
    """--devices 1,2, (a trailing comma) passed the option's check, which skips empty entries, and was then a
    ValueError traceback (int('')) where the study read the counts. Both read them alike now."""
    mod = _module()
    ran = []

    def launch(args, launcher, mode, n, shape, mesh):
        ran.append(n)
        return dict(mlups=8.0 * n, mlups_per_device=8.0, mlups_all=[8.0 * n], processes=1, roofline_fraction=0.1,
                    platform="cpu", shape=mod.fmt(shape), mesh=mod.fmt(mesh))

    mod.launch_point = launch
    assert mod.main(["--out", str(tmp_path), "--mode", "weak", "--devices", "1,,2,", "--cells-per-device", "8",
                     "--no-plots"]) == 0
    assert ran == [1, 2]


def test_ctrl_c_before_the_first_point_of_an_append_says_the_earlier_file_as_it_is(tmp_path, capsys):
    """--append, Ctrl-C during its first point: nothing of this run was written, scaling.json is the earlier study's
    (meta complete true), but the line said its points were kept '(meta complete false)'."""
    mod = _module()
    pt = dict(lattice="D3Q19", dtype="float32", processes=1, roofline_fraction=0.1, platform="cpu", mlups_all=[8.0],
              mlups=8.0, mlups_per_device=8.0)

    def launch(args, launcher, mode, n, shape, mesh):
        if ran:
            raise KeyboardInterrupt
        return dict(pt, shape=mod.fmt(shape), mesh=mod.fmt(mesh), cells_per_device=8 ** 3)

    ran = []
    mod.launch_point = launch
    argv = ["--out", str(tmp_path), "--mode", "weak", "--devices", "1", "--cells-per-device", "8", "--no-plots",
            "--append"]
    assert mod.main(argv) == 0
    ran.append(1)
    before = (tmp_path / "scaling.json").read_text()
    assert json.loads(before)["meta"]["complete"] is True
    capsys.readouterr()
    assert mod.main(argv) == 130
    err = capsys.readouterr().err
    assert (tmp_path / "scaling.json").read_text() == before
    assert "1 measured point is kept in" in err and "complete false" not in err, err


@pytest.mark.parametrize("stage", ["csv", "json"])
def test_a_ctrl_c_while_the_files_are_written_leaves_no_temporary(tmp_path, monkeypatch, stage):
    """Each file is written under a hidden temporary (.scaling.csv.PID, .scaling.json.PID) and renamed: a Ctrl-C
    while one was written left it in --out. The files already there stay whole; the temporary goes."""
    mod = _module()
    pt = dict(mode="weak", launcher="local", devices=1, mlups=10.0)
    mod.write_outputs([dict(pt)], tmp_path, {"lattice": "D3Q19"}, plots=False)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    if stage == "csv":
        monkeypatch.setattr(mod.csv.DictWriter, "writerow", interrupted)
    else:
        def cut(self, text, *a, **k):  # the JSON's temporary half written
            with open(self, "w") as fh:
                fh.write(text[: len(text) // 2])
            interrupted()

        monkeypatch.setattr(Path, "write_text", cut)
    with pytest.raises(KeyboardInterrupt):
        mod.write_outputs([dict(pt), dict(pt, devices=2)], tmp_path, {"lattice": "D3Q19"}, plots=False)
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert sorted(after) == sorted(before)  # (the CSV renamed before the JSON's cut is the new one, whole)
    assert after["scaling.json"] == before["scaling.json"]
    assert (after["scaling.csv"] == before["scaling.csv"]) == (stage == "csv")
