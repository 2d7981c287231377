#!/usr/bin/env python3
"""Every step variant side by side in one run: MLUPS, XLA's bytes per cell update, peak memory, kernels per
step; the fused kernel's populations against the XLA step's; on GPUs the largest lattice that fits.

Variants (each calls its factory directly, independent of how the driver wires them):
  xla          distlbm.stepper.make_step, the A-B step (two population arrays)
  xla-inplace  the same with in-place streaming (one population array; on CPU the slab form streams slab by
               slab into it; where the whole-array form runs, i.e. small lattices and GPUs, it equals xla)
  pallas  distlbm.physics.fused.make_fused_step: one fused Pallas kernel per step (Triton on GPUs; on
          CPUs Pallas' interpreter, a correctness path timed only at a small size)
  pallas-inplace  distlbm.physics.fused_inplace: the fused kernel streaming in place (AA pattern, one
          population array; stepper.make_inplace_advance, what the driver runs on GPUs); its "one step"
          module (cost analysis, kernels) is a (push, local) pair, reported per step

  python scripts/step_variants.py                    # CPU plan: xla and xla-inplace at 128^3, 400^3
                                                     # (float32, float16; --sizes, --dtypes, --steps), xla at 32^3,
                                                     # pallas, pallas-inplace (interpret) at 32^3,
                                                     # max |df| after 100 steps
  python scripts/step_variants.py --plan gpu --out DIR/gpu_check.json --budget 420   # scripts/gpu_check.sh

Every group of measurements runs in a fresh process (its peak memory is its own; a crash or a missing API
becomes a failure entry in the JSON, never the end of the run); a task silent for TASK_S seconds (START_S more for a
worker's first) has its worker ended, a fresh one taking the tasks after it, and its path's later tasks are skipped
(the gpu plan's `distlbm run` takes the driver's own path, or the XLA step, said, where that was found stuck);
the JSON is rewritten after each group.
Only jax, numpy and this tree are needed (no network, no mpi4jax, no h5py), but for the gpu plan's `distlbm run`
task: its checkpoints and field output need h5py (without it the run says so at its start, exit 2: a failure entry).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

NOMINAL_BW = 4.8e12  # H200 SXM HBM3e: the nominal bandwidth of a device of a kind not in HBM
# nominal HBM bandwidth of the lent GPUs' kinds (jax's device_kind), first match; GPU_CHECK_NOMINAL_BW overrides
HBM = ((r"\bH100 PCIe\b", 2.0e12), (r"\bH100 NVL\b", 3.9e12), (r"\bH100\b", 3.35e12), (r"\bH200\b", 4.8e12))


def nominal_bandwidth(device_kind) -> tuple:
    """(bytes/s, where it comes from) of the roofline's nominal bandwidth for a device of kind `device_kind`."""
    if os.environ.get("GPU_CHECK_NOMINAL_BW"):
        return float(os.environ["GPU_CHECK_NOMINAL_BW"]), "GPU_CHECK_NOMINAL_BW"
    for pattern, bw in HBM:
        if re.search(pattern, str(device_kind or "")):
            return bw, f"nominal HBM bandwidth of {device_kind}"
    return NOMINAL_BW, f"default (H200 SXM; device kind {device_kind!r} not known)"
TRIVIAL = {"parameter", "constant", "tuple", "get-tuple-element", "bitcast", "after-all", "partition-id",
           "replica-id", "opt-barrier"}


# ---------------------------------------------------------------------------------------------------
# worker side: one process runs a list of tasks and prints "RESULT {json}" after each
# ---------------------------------------------------------------------------------------------------
def _model(lattice, dtype, collision="bgk"):
    from distlbm.lattice import get_lattice
    from distlbm.physics.collision import Collision
    from distlbm.stepper import Model

    return Model(get_lattice(lattice), Collision(collision, 0.8), dtype=dtype, compute_dtype="float32")


def _step(path, model, block=None, num_warps=None):
    from distlbm.physics.streaming import periodic_exchange

    if path in ("xla", "xla-inplace"):  # the XLA step: A-B (two population arrays) or streaming in place
        from distlbm.stepper import make_step

        return make_step(model, periodic_exchange, path="xla", inplace=path == "xla-inplace")
    if path == "pallas":
        from distlbm.physics.fused import make_fused_step

        return make_fused_step(model, periodic_exchange, block=tuple(block) if block else None, num_warps=num_warps)
    raise ValueError(f"unknown step variant {path!r}")


def _init(model, n):
    """A shear wave u_x = 0.01 sin(2 pi y / n) plus a density wave along z, built on the device."""
    import jax
    import jax.numpy as jnp

    from distlbm.physics.equilibrium import equilibrium_deviation

    lat = model.lattice
    shape = (n,) * lat.d

    @jax.jit
    def init():
        x = jnp.arange(n, dtype=jnp.float32) * (2 * math.pi / n)
        ux = jnp.broadcast_to((0.01 * jnp.sin(x)).reshape((1, n) + (1,) * (lat.d - 2)), shape)
        drho = jnp.broadcast_to((0.001 * jnp.cos(x)).reshape((1,) * (lat.d - 1) + (n,)), shape)
        u = (ux,) + tuple(jnp.zeros(shape, jnp.float32) for _ in range(lat.d - 1))
        return equilibrium_deviation(drho, u, lat).astype(model.dtype)

    return init()


def _advance(step):
    import jax
    from distlbm.stepper import Cells

    def adv(f, n):
        return jax.lax.fori_loop(0, n, lambda i, g: step(g, Cells()), f)

    return jax.jit(adv, donate_argnums=0)


def _inplace(model, block=None, num_warps=None):
    """(pair(f) -> f, advance(f, n) -> f) of the fused kernel streaming in place (physics/fused_inplace.py)."""
    import jax
    import jax.numpy as jnp

    from distlbm.physics.fused_inplace import make_fused_inplace
    from distlbm.physics.streaming import periodic_exchange
    from distlbm.stepper import Cells, State, make_inplace_advance

    ip = make_fused_inplace(model, periodic_exchange, block=tuple(block) if block else None, num_warps=num_warps)
    inner = make_inplace_advance(*ip, jit=False)

    def adv(f, n):
        return inner(State(f, jnp.int32(0)), Cells(), n).f

    return (lambda f, cells: ip.local(ip.push(f, cells), cells)), jax.jit(adv, donate_argnums=0)


def _variant(path, model, block=None, num_warps=None):
    """(one-step module function, steps in it, advance(f, n) -> f) of a step variant."""
    if path == "pallas-inplace":
        pair, adv = _inplace(model, block, num_warps)
        return pair, 2, adv
    step = _step(path, model, block, num_warps)
    return step, 1, _advance(step)


def count_kernels(hlo_text: str) -> dict:
    """Kernels launched per step from an optimized HLO module (what --xla_dump_to writes): the non-trivial
    instructions of the entry computation (fusions, custom calls such as the Triton kernel, copies ...)."""
    ops, entry, loops = {}, False, 0
    for line in hlo_text.splitlines():
        if line.startswith("ENTRY"):
            entry = True
            continue
        if entry and line.startswith("}"):
            break
        if not entry:
            continue
        m = re.match(r"\s*(?:ROOT\s+)?%\S+\s*=\s*.*?\s([a-z][\w-]*)\(", line)
        if m and m.group(1) not in TRIVIAL:
            ops[m.group(1)] = ops.get(m.group(1), 0) + 1
            loops += m.group(1) == "while"
    return {"kernels": sum(ops.values()), "by_opcode": ops, "while_loops": loops,
            "triton_calls": hlo_text.count("__gpu$xla.gpu.triton") + hlo_text.count("triton_kernel_call")}


def _device_peak(dev):
    try:
        st = dev.memory_stats() or {}
        return st.get("peak_bytes_in_use"), st.get("bytes_limit")
    except Exception:  # noqa: BLE001 - CPU devices may not report
        return None, None


def task_bandwidth(t, out_dir):
    import jax
    import jax.numpy as jnp

    dev = jax.devices()[0]
    nbytes = int(t.get("bytes") or ((256 << 20) if dev.platform == "cpu" else (4 << 30)))
    n = nbytes // 4
    scale = jax.jit(lambda x, s: x * s, donate_argnums=0)
    x = jax.jit(lambda: jnp.ones((n,), jnp.float32))()
    s = jnp.float32(1.0)
    x = scale(x, s)
    x.block_until_ready()
    times = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(4):
            x = scale(x, s)
        x.block_until_ready()
        times.append((time.perf_counter() - t0) / 4)
    del x
    return {"bandwidth_bytes_per_s": 2 * n * 4 / statistics.median(times), "array_bytes": n * 4}


def task_time(t, out_dir):
    """MLUPS (median of `repeat` runs of `steps` steps), XLA's bytes per cell of one step, the step's
    memory analysis, the process's peak memory, kernels per step."""
    import jax
    import jax.numpy as jnp
    from distlbm.stepper import Cells

    model = _model(t.get("lattice", "D3Q19"), t["dtype"], t.get("collision", "bgk"))
    n = int(t["size"])
    cells = n ** model.lattice.d
    step, per, adv = _variant(t["path"], model, t.get("block"), t.get("num_warps"))
    res = {"population_bytes": model.lattice.q * cells * jnp.dtype(model.dtype).itemsize,
           "min_bytes_per_cell": 2 * model.lattice.q * jnp.dtype(model.dtype).itemsize}
    f_spec = jax.ShapeDtypeStruct((model.lattice.q,) + (n,) * model.lattice.d, jnp.dtype(model.dtype))
    # one step, compiled alone: XLA's cost analysis and the kernels it launches
    try:
        comp1 = jax.jit(step).lower(f_spec, Cells()).compile()
        try:
            ca = comp1.cost_analysis()
            ca = ca[0] if isinstance(ca, (list, tuple)) else ca
            res["xla_bytes_per_cell"] = float(ca.get("bytes accessed", float("nan"))) / cells / per
        except Exception as e:  # noqa: BLE001
            res["xla_bytes_per_cell_error"] = f"{type(e).__name__}: {e}"[:300]
        text = comp1.as_text()
        res.update(count_kernels(text))
        if per > 1:  # a (push, local) pair: per step
            res["steps_in_module"] = per
            res["kernels"] = res["kernels"] / per
            res["triton_calls"] = res["triton_calls"] / per
        if out_dir and t.get("save_hlo"):
            p = Path(out_dir) / "hlo" / f"{t['path']}_{model.lattice.name}_{n}_{model.dtype}.txt"
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text[:4_000_000])
        del comp1
    except Exception as e:  # noqa: BLE001
        res["single_step_error"] = f"{type(e).__name__}: {e}"[:1000]
    t0 = time.perf_counter()
    comp = adv.lower(f_spec, jnp.int32(1)).compile()
    try:
        ma = comp.memory_analysis()
        res["xla_memory"] = {k: int(getattr(ma, k)) for k in ("argument_size_in_bytes", "output_size_in_bytes",
                                                               "alias_size_in_bytes", "temp_size_in_bytes")}
        m = res["xla_memory"]
        res["xla_peak_bytes"] = m["argument_size_in_bytes"] + m["output_size_in_bytes"] - m["alias_size_in_bytes"] \
            + m["temp_size_in_bytes"]
    except Exception as e:  # noqa: BLE001
        res["xla_memory_error"] = f"{type(e).__name__}: {e}"[:300]
    f = _init(model, n)
    f = comp(f, jnp.int32(1))
    f.block_until_ready()
    res["compile_s"] = time.perf_counter() - t0
    steps, repeat = int(t.get("steps", 20)), int(t.get("repeat", 3))
    times = []
    for _ in range(repeat):
        t1 = time.perf_counter()
        f = comp(f, jnp.int32(steps))
        f.block_until_ready()
        times.append(time.perf_counter() - t1)
    mlups = [cells * steps / x / 1e6 for x in times]
    res.update(mlups=statistics.median(mlups), mlups_all=mlups, steps=steps, cells=cells)
    dev = jax.devices()[0]
    peak, limit = _device_peak(dev)
    from distlbm.bench import peak_rss_bytes

    rss = peak_rss_bytes()  # this process's own peak (VmHWM)
    res["finite"] = bool(jax.jit(lambda g: jnp.all(jnp.isfinite(g)))(f))  # fused: no float32 copy
    res.update(device_peak_bytes=peak, device_bytes_limit=limit, peak_rss_bytes=rss)
    peak_used = peak if peak else rss
    res["peak_bytes"] = peak_used
    res["peak_bytes_per_cell"] = peak_used / cells
    res["peak_over_population"] = peak_used / res["population_bytes"]
    del f, comp
    return res


def task_compare(t, out_dir):
    """max |f_b - f_a| after `steps` steps from the same start (storage dtype values as float32), for the
    task's paths [a, b] (default xla, pallas)."""
    import jax.numpy as jnp

    model = _model(t.get("lattice", "D3Q19"), t["dtype"], t.get("collision", "bgk"))
    n, steps = int(t["size"]), int(t.get("steps", 100))
    pa, pb = t.get("paths", ("xla", "pallas"))
    a = _variant(pa, model, t.get("block"))[2](_init(model, n), jnp.int32(steps))
    a.block_until_ready()
    b = _variant(pb, model, t.get("block"))[2](_init(model, n), jnp.int32(steps))
    b.block_until_ready()
    return {"steps": steps, **_difference(a, b)}


def _difference(a, b) -> dict:
    """max |b - a| (storage dtype values as float32), relative to max |a|, the values that differ, whether b
    is finite."""
    import jax
    import jax.numpy as jnp

    f32 = jnp.float32

    @jax.jit
    def stats(a, b):  # fused reductions: no float32 copies of the lattices
        d = jnp.abs(a.astype(f32) - b.astype(f32))
        return jnp.max(d), jnp.max(jnp.abs(a.astype(f32))), jnp.sum(a != b, dtype=jnp.int64 if jax.config.jax_enable_x64
                                                                     else jnp.int32), jnp.all(jnp.isfinite(b))

    diff, scale, neq, finite = (x.item() for x in stats(a, b))
    return {"max_abs_diff": float(diff), "max_abs_f": float(scale),
            "max_rel_diff": float(diff) / float(scale) if scale else None, "cells_x_q_differing": int(neq),
            "bitwise_equal": int(neq) == 0, "finite": bool(finite)}


CASE_PATHS = ("xla", "pallas")  # the steps a case task runs and compares (the in-place kernels do not cover cases)


def task_case(t, out_dir):
    """A built-in case's own step (its cells: walls, Bouzidi links, inlet, outlet, absorbing layer, ...), as
    `distlbm run` advances it (driver.Simulation on one device), on the XLA path and on the Pallas path:
    MLUPS of each (median of `repeat` runs of `steps` steps), the form each ran in, peak device memory, and
    max |df| between the two after `compare` steps from the case's initial state."""
    import jax
    import jax.numpy as jnp

    from distlbm.config import resolve
    from distlbm.driver import Simulation
    from distlbm.parallel.domain import LocalDomain

    res, finals = {}, {}
    steps, repeat, compare = int(t.get("steps", 50)), int(t.get("repeat", 3)), int(t.get("compare", 100))
    for path in CASE_PATHS:
        cfg = resolve(t["case"], dict(t.get("sets", {}), step=path))
        sim = Simulation(cfg, domain=LocalDomain(cfg.setup.shape), log=lambda msg: None)
        cells = int(math.prod(cfg.setup.shape))
        state0 = sim.state
        t0 = time.perf_counter()
        st = sim._advance(state0, sim.cells, jnp.int32(compare))
        st.f.block_until_ready()
        finals[path] = jnp.copy(st.f)  # the advance donates its state
        first = time.perf_counter() - t0
        times = []
        for _ in range(repeat):
            t1 = time.perf_counter()
            st = sim._advance(st, sim.cells, jnp.int32(steps))
            st.f.block_until_ready()
            times.append(time.perf_counter() - t1)
        peak, _ = _device_peak(jax.devices()[0])
        res[path] = {"mlups": statistics.median(cells * steps / x / 1e6 for x in times), "form": sim.step_path[1],
                     "first_call_s": first, "device_peak_bytes": peak,
                     "peak_bytes_per_cell": peak / cells if peak else None}
        res.update(shape=list(cfg.setup.shape), cells=cells, lattice=cfg.setup.lattice.name,
                   features=str(sim.model.features))
        del sim, st

    res.update(compare_steps=compare, **_difference(finals["xla"], finals["pallas"]),
               pallas_over_xla=res["pallas"]["mlups"] / res["xla"]["mlups"])
    return res


def task_run(t, out_dir, python, env, timeout):
    """`distlbm run` end to end, as a user runs it (run by the parent, which holds no device: the CLI gets
    the whole device): the case for `steps` steps with checkpoints and field output every `every` steps, then
    a restart from its last checkpoint to `restart_to` steps. Exit statuses, wall times, each summary's
    status, MLUPS, step path and form, the restart's origin, and the files written."""
    import shutil
    import tempfile

    base = Path(out_dir) / "run" if out_dir else Path(tempfile.mkdtemp(prefix="gpu_check_run_"))
    shutil.rmtree(base, ignore_errors=True)
    sets = [x for k, v in t.get("sets", {}).items() for x in ("--set", f"{k}={v}")]
    first = [python, "-m", "distlbm", "run", t["case"], *sets, "--steps", str(t["steps"]), "--checkpoint-every",
             str(t["every"]), "--output-every", str(t["every"]), "--out", str(base)]
    again = [python, "-m", "distlbm", "run", t["case"], *sets, "--steps", str(t["restart_to"]), "--restart", "latest",
             "--out", str(base)]
    res, t_start = {}, time.time()
    for name, cmd in (("run", first), ("restart", again)):
        t0 = time.time()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=REPO,
                               timeout=max(10.0, timeout - (t0 - t_start)))
            rc, tail = r.returncode, (r.stdout + r.stderr)[-3000:]
        except subprocess.TimeoutExpired as e:
            rc, tail = "timeout", str(e.stderr)[-3000:] if e.stderr else ""
        entry = {"exit_status": rc, "wall_s": time.time() - t0}
        try:
            sm = json.loads((base / "summary.json").read_text())
            entry.update({k: sm.get(k) for k in ("status", "steps", "mlups", "step_path", "step_reason", "mesh",
                                                 "restarted_from", "relative_mass_drift")})
        except (OSError, ValueError) as e:
            entry["summary_error"] = f"{type(e).__name__}: {e}"[:300]
        if rc != 0:
            entry["output_tail"] = tail
        res[name] = entry
        if rc != 0:
            break
    files = sorted(str(p.relative_to(base)) for p in base.rglob("*") if p.is_file()) if base.exists() else []
    res["files"] = files[:50]
    ok = all(res.get(k, {}).get("exit_status") == 0 for k in ("run", "restart"))
    if not ok:
        res["error"] = "distlbm run or its restart failed: " + "; ".join(
            f"{k}: exit {res[k].get('exit_status')}" for k in ("run", "restart") if k in res)
    return res


def run_path(t, platform) -> tuple:
    """(path, why) of the step `distlbm run` takes for a run task's case and settings on `platform` (the workers' jax
    platform): the driver's own choice (stepper.step_path, as driver.loop takes it) named as this plan names its paths:
    'pallas-inplace' where the fused kernel streams in place (stepper.fused_form), 'pallas' (A-B), or 'xla' (on GPUs
    its whole-array form). No jax backend is started: this process holds no device (the CLI gets it to itself)."""
    from distlbm.config import resolve
    from distlbm.driver.loop import build_model
    from distlbm.stepper import fused_form, step_path

    cfg = resolve(t["case"], dict(t.get("sets", {})))
    model = build_model(cfg)
    path, why = step_path(model, cfg.decomposition.step, backend=platform)
    if path == "pallas" and fused_form(model=model) == "in place (AA)":
        return "pallas-inplace", why
    return path, why


def plan_run(t, hung, platform) -> tuple:
    """(task, None) to run, or (None, its skipped entry): a run task given the path the driver takes (`run_path`) where
    it was not found stuck; where it was (a fused kernel's Triton compile that an earlier task's timeout found), with
    the XLA step forced (step=xla: the run's purpose is `distlbm run` end to end on the GPU, checkpoints, field output
    and restart, which the XLA step checks as well; the default path where possible), said in its entry; skipped
    where the XLA step was found stuck too. A path that cannot be told (the case refused) is left to the run to say."""
    t = dict(t)
    try:
        path, why = run_path(t, platform or "gpu")
    except Exception as e:  # noqa: BLE001 - the run itself says why (its own exit status and line)
        t["path_error"] = f"{type(e).__name__}: {e}"[:500]
        return t, None
    t.update(path=path, default_path=path, default_path_reason=why)
    if platform is None:
        t["platform_note"] = "no worker reported its platform: the path is the one on a GPU"
    if path not in hung:
        return t, None
    if "xla" in hung:
        return None, dict(t, ok=False, stage="skipped", error=f"skipped: its path {path} (the driver's choice: {why}) "
                          f"and the XLA step it would be forced to (step=xla) timed out in earlier tasks")
    t.update(path="xla", sets=dict(t.get("sets", {}), step="xla"),
             note=f"ran with step=xla: the fused kernel was stuck (path {path} timed out in an earlier task)")
    return t, None


def task_fit(t, out_dir):
    """The largest cubic lattice (multiple of 16) whose step runs: predicted from the step's memory analysis
    per cell and the device's memory, then tried (2 steps), stepping down on an allocation failure."""
    import jax
    import jax.numpy as jnp

    model = _model(t.get("lattice", "D3Q19"), t["dtype"])
    adv = _variant(t["path"], model, t.get("block"))[2]
    dev = jax.devices()[0]
    _, limit = _device_peak(dev)
    if not limit:
        return {"error": "the device reports no bytes_limit (memory_stats)"}
    probe = 128
    spec = jax.ShapeDtypeStruct((model.lattice.q,) + (probe,) * model.lattice.d, jnp.dtype(model.dtype))
    ma = adv.lower(spec, jnp.int32(1)).compile().memory_analysis()
    per_cell = (ma.argument_size_in_bytes + ma.output_size_in_bytes - ma.alias_size_in_bytes
                + ma.temp_size_in_bytes) / probe ** model.lattice.d
    n = int((0.97 * limit / per_cell) ** (1.0 / model.lattice.d)) // 16 * 16
    tried = []
    for _ in range(int(t.get("tries", 4))):
        try:
            f = adv(_init(model, n), jnp.int32(3))  # odd: the in-place variant's data movement too
            ok = bool(jnp.all(jnp.isfinite(f[:, :2])))
            del f
            tried.append({"n": n, "ok": ok})
            return {"largest_n": n, "cells": n ** model.lattice.d, "predicted_bytes_per_cell": per_cell,
                    "bytes_limit": limit, "tried": tried,
                    "population_bytes": model.lattice.q * n ** model.lattice.d * jnp.dtype(model.dtype).itemsize}
        except Exception as e:  # noqa: BLE001 - RESOURCE_EXHAUSTED: one size smaller
            tried.append({"n": n, "ok": False, "error": f"{type(e).__name__}: {e}"[:300]})
            n -= 16
    return {"error": "no size fitted", "tried": tried, "predicted_bytes_per_cell": per_cell}


TASKS = {"bandwidth": task_bandwidth, "time": task_time, "compare": task_compare, "case": task_case, "fit": task_fit}


def worker(tasks, out_dir):
    import jax

    dev = jax.devices()[0]
    info = {"jax": jax.__version__, "platform": dev.platform, "device_kind": dev.device_kind,
            "devices": len(jax.devices()), "python": platform.python_version()}
    try:
        import jaxlib

        info["jaxlib"] = jaxlib.__version__
    except Exception:  # noqa: BLE001
        pass
    print("INFO " + json.dumps(info), flush=True)
    for t in tasks:
        t0 = time.time()
        try:
            r = TASKS[t["task"]](t, out_dir)
            r["ok"] = "error" not in r
        except Exception as e:  # noqa: BLE001 - a missing API or a failed compile is a failure entry
            r = {"ok": False, "error": f"{type(e).__name__}: {e}"[:2000], "trace": traceback.format_exc()[-4000:]}
        r.update(t)
        r["wall_s"] = time.time() - t0
        print("RESULT " + json.dumps(r, default=str), flush=True)


# ---------------------------------------------------------------------------------------------------
# parent side: plans, subprocesses, the JSON and the table
# ---------------------------------------------------------------------------------------------------
def cpu_plan(sizes=(128, 400), dtypes=("float32", "float16"), steps=None):
    """The CPU plan: xla and xla-inplace at `sizes` in `dtypes` (each its own process: its own peak), xla at 32^3,
    the Pallas kernels in interpret mode at 32^3, and the comparisons after 100 steps. steps: timed steps per
    repetition at every size (None: 10, and 2 at sizes over 200)."""
    t = lambda path, size, dtype, steps, repeat=3: dict(task="time", path=path, size=size, dtype=dtype, steps=steps,
                                                         repeat=repeat)

    def big(path, dtype):
        return [t(path, n, dtype, steps or (2 if n > 200 else 10), 2 if n > 200 else 3) for n in sizes]

    groups = [[dict(task="bandwidth")]]
    for dt in dtypes:
        groups.append(([t("xla", 32, dt, steps or 20)] if dt == "float32" else []) + big("xla", dt))
        groups.append(big("xla-inplace", dt))
    small = [t("xla", 32, dt, steps or 20) for dt in dtypes if dt != "float32"]
    groups.append(small + [t("pallas", 32, dt, steps or 2) for dt in dtypes])
    groups.append([t("pallas-inplace", 32, dt, steps or 2) for dt in dtypes])
    groups.append([dict(task="compare", size=16, dtype=dt, steps=100, paths=p) for dt in dtypes
                   for p in (("xla", "pallas"), ("pallas", "pallas-inplace"))])
    return [g for g in groups if g]


def gpu_plan(sizes, dtypes, steps):
    groups = [[dict(task="bandwidth")]]
    for dtype in dtypes:
        for path in ("xla", "pallas", "pallas-inplace"):
            g = [dict(task="time", path=path, size=s, dtype=dtype, steps=steps, repeat=3, save_hlo=(s == sizes[0]))
                 for s in sizes]
            groups.append(g)
        groups.append([dict(task="compare", size=s, dtype=dtype, steps=100, paths=p) for s in sizes
                       for p in (("xla", "pallas"), ("xla", "pallas-inplace"))])
    # an obstacle channel as `distlbm run` advances it: the sphere benchmark's geometry (Bouzidi links, velocity
    # inlet, pressure outlet) at 241 x 144 x 144 cells, XLA step against the fused kernel (A-B: the in-place
    # kernels do not cover these features)
    groups.append([dict(task="case", case="sphere", sets=dict(n=int(os.environ.get("GPU_CHECK_CASE_N", "24"))),
                        steps=steps, repeat=3, compare=100)])
    # `distlbm run` itself on the device, with checkpoints, field output and a restart: the driver's GPU path
    run_n = max(3, int(os.environ.get("GPU_CHECK_CASE_N", "24")) // 2)
    groups.append([dict(task="run", case="sphere", sets=dict(n=run_n), steps=200, every=100, restart_to=300)])
    # a channel between walls off the grid: Schaefer-Turek 3D-1Z at its default D = 13 (326 x 55 x 55; the far
    # walls' Bouzidi fractions as one plane per block beside the cylinder's box, TRT, incompressible), XLA step
    # against the fused kernel
    st = dict(n=int(os.environ.get("GPU_CHECK_ST_N", "13")))
    if os.environ.get("GPU_CHECK_ST_TAU"):  # a small n keeps its Mach number with a smaller tau (CPU dry runs)
        st["tau"] = float(os.environ["GPU_CHECK_ST_TAU"])
    groups.append([dict(task="case", case="schaefer_turek_3d1z", sets=st, steps=steps, repeat=3, compare=100)])
    # the largest lattice each path fits (tens of GB allocated and written per try): after the cases and the
    # driver's run, which the fused kernels' review needs more
    for dtype in dtypes:
        for path in ("pallas-inplace", "pallas", "xla"):
            groups.append([dict(task="fit", path=path, dtype=dtype)])
    # a small sweep of the kernel's tile and warps at the first size (float32), last: only if time is left
    groups.append([dict(task="time", path="pallas", size=sizes[0], dtype=dtypes[0], steps=steps, repeat=3,
                        block=list(b), num_warps=w, tuning=True)
                   for b, w in (((1, 2, 128), 4), ((1, 4, 128), 8), ((1, 8, 64), 4), ((1, 16, 32), 4),
                                ((2, 4, 64), 4), ((1, 8, 128), 8))])
    return groups


TASK_S = 90.0  # seconds a task may take in the GPU plan before its worker is ended
START_S = 60.0  # more for a worker's first task: the process's start, jax's import, the device's set-up
EXIT_S = 30.0  # a worker's time to exit after its last result (or its kill) before its session is killed


def _paths(t) -> set:
    """The step variants a task runs (a comparison: both; a case: CASE_PATHS)."""
    return set(t.get("paths") or (CASE_PATHS if t.get("task") == "case" else ())) | (
        {t["path"]} if t.get("path") else set())


def _skipped(t, hung) -> dict:
    """The failure entry of a task not run because a path it runs timed out before it."""
    return dict(t, ok=False, stage="skipped", error="skipped: path " + ", ".join(sorted(hung & _paths(t)))
                + " timed out in an earlier task")


def run_group(tasks, python, env, out_dir, group_s, task_s=TASK_S, start_s=START_S, good=()) -> list:
    """Runs `tasks` in worker processes and returns their entries in order: each task's RESULT (ok or not), or
    a failure entry (stage "timeout": nothing within task_s seconds, start_s more for a worker's first task, or
    the group's group_s seconds spent; stage "process": the worker died in it). After a timeout or a death a
    fresh worker takes the tasks after it. A timeout's "stuck_paths": the task's paths less those that gave a result
    before (`good`, the plan's, and this group's), or all of them where each did; the group's later tasks of those
    paths are skipped. The first worker's INFO line comes first as {"info": True,
    "jax_info": {...}}."""
    import queue
    import signal
    import tempfile
    import threading

    got, end, info, ran = [], time.time() + group_s, None, set(good)
    while tasks:
        cmd = [python, str(Path(__file__).resolve()), "--worker", json.dumps(tasks)]
        if out_dir:
            cmd += ["--out-dir", str(out_dir)]
        lines = queue.Queue()
        with tempfile.TemporaryFile("w+") as err:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True, env=env, cwd=REPO,
                                    start_new_session=True)

            def read(pipe=proc.stdout, q=lines):
                for line in pipe:
                    q.put(line)
                q.put(None)

            threading.Thread(target=read, daemon=True).start()
            done, why, deadline = 0, None, time.time() + start_s + task_s
            while done < len(tasks):
                try:
                    line = lines.get(timeout=max(0.0, min(deadline, end) - time.time()))
                except queue.Empty:
                    why, stopped = "timeout", time.time()
                    break
                if line is None:
                    why = "process"
                    break
                if line.startswith("INFO ") and info is None:
                    info = json.loads(line[5:])
                    got.append({"info": True, "jax_info": info})
                elif line.startswith("RESULT "):
                    got.append(json.loads(line[7:]))
                    if got[-1].get("ok"):
                        ran |= _paths(got[-1])
                    done += 1
                    deadline = time.time() + task_s

            def end_session():
                try:
                    os.killpg(proc.pid, signal.SIGKILL)  # the worker's session: with any compiler it started
                except ProcessLookupError:
                    pass

            if why == "timeout":
                end_session()
            try:
                rc = proc.wait(timeout=EXIT_S)
            except subprocess.TimeoutExpired:  # not gone after its results (or its kill): never left holding the GPU
                end_session()
                try:
                    rc = proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    rc = None
            err.seek(0)
            stderr = err.read()[-3000:]
        if done == len(tasks):
            break
        t = tasks[done]
        spent = time.time() >= end - 10
        # the group's time, not the task's, ran out (where the two end together, a group of one task given its
        # allowance alone, the task's: it stalled)
        if why == "timeout" and stopped >= end and stopped < deadline - 1.0:
            why, error = "budget", f"timeout: the group's {group_s:.0f} s were spent in this task; worker ended"
        elif why == "timeout":
            error = f"timeout: no result within {task_s + (start_s if done == 0 else 0):.0f} s; worker ended"
        else:
            error = f"worker exited ({rc}) in this task"
        got.append(dict(t, ok=False, stage=why, error=error, stderr_tail=stderr))
        tasks = tasks[done + 1:]
        if why == "timeout":  # its path's later tasks here too (a group of one path's sizes): the same stall
            stuck = (_paths(t) - ran) or _paths(t)  # (a comparison's stall: not the XLA step that ran before it)
            got[-1]["stuck_paths"] = sorted(stuck)
            got += [_skipped(x, stuck) for x in tasks if stuck & _paths(x)]
            tasks = [x for x in tasks if not stuck & _paths(x)]
        if spent:  # no time for another worker: the rest fail as not run
            got += [dict(t, ok=False, stage="budget", error=f"not run: the group's {group_s:.0f} s were spent")
                    for t in tasks]
            break
    return got


def worker_env(environ) -> dict:
    """The workers' environment: this tree first on PYTHONPATH; XLA's GPU allocator at 95 % of the memory (its
    default, 75 %, would hide a quarter from the largest lattice), under the current name XLA_CLIENT_MEM_FRACTION
    and only where neither it nor the deprecated XLA_PYTHON_CLIENT_MEM_FRACTION is set: jaxlib (0.10 and 0.11)
    refuses to start the GPU backend when both are (ValueError), which would fail every worker."""
    env = dict(environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if not (env.get("XLA_CLIENT_MEM_FRACTION") or env.get("XLA_PYTHON_CLIENT_MEM_FRACTION")):
        env["XLA_CLIENT_MEM_FRACTION"] = "0.95"
    return env


def run_plan(groups, out_path, budget_s, python, start, header, task_s=TASK_S, start_s=START_S):
    """Runs the groups (each in fresh worker processes) within budget_s seconds from `start`; writes the JSON
    after each group. A task that reports nothing within task_s seconds (start_s more for a worker's first) is a
    "timeout" failure, its worker ended; later tasks of its path are skipped (a stuck Triton compile would stall
    them too)."""
    hung = set()
    out = dict(header)
    out.update(ok=False, results=[], failed=[], nominal_bandwidth_bytes_per_s=None)

    def save():
        out["elapsed_s"] = time.time() - start
        if out_path:
            tmp = str(out_path) + ".tmp"
            with open(tmp, "w") as fh:
                json.dump(out, fh, indent=2, default=str)
            os.replace(tmp, out_path)

    env = worker_env(os.environ)
    for group in groups:
        left = budget_s - (time.time() - start)
        if left < 20:
            for t in group:
                out["failed"].append(dict(t, stage="budget", error=f"skipped: {budget_s:.0f} s budget spent"))
            save()
            continue
        if group[0].get("task") == "run":  # here, in the parent: the CLI gets the device to itself
            for t in group:
                t, skipped = plan_run(t, hung, (out.get("jax") or {}).get("platform"))
                if skipped:
                    out["failed"].append(skipped)
                    print(_line(skipped, out), file=sys.stderr, flush=True)
                    continue
                t0 = time.time()
                try:
                    r_ = task_run(t, str(Path(out_path).parent) if out_path else "", python, env, min(left, 240))
                except Exception as e:  # noqa: BLE001
                    r_ = {"error": f"{type(e).__name__}: {e}"[:2000]}
                r_["ok"] = "error" not in r_
                r_.update(t, wall_s=time.time() - t0)
                took = (r_.get("run") or {}).get("step_path")
                if took and t.get("path"):  # the driver's own word on the step it ran, against the path named
                    r_["step_path_as_named"] = took == t["path"].replace("-inplace", "")
                (out["results"] if r_["ok"] else out["failed"]).append(r_)
                print(_line(r_, out), file=sys.stderr, flush=True)
            save()
            continue
        todo = []
        for t in group:  # a path that hung once is not given the rest of the budget again
            if hung.intersection(_paths(t)):
                out["failed"].append(_skipped(t, hung))
                print(_line(out["failed"][-1], out), file=sys.stderr, flush=True)
            else:
                todo.append(t)
        # one group never takes the whole budget (a slow group): at most 240 s; each task at most task_s (and
        # start_s more for the first of each worker) before its worker is ended and a fresh one takes the rest
        for r_ in run_group(todo, python, env, Path(out_path).parent if out_path else None,
                            min(left, 240, start_s + task_s * len(todo)), task_s, start_s,
                            good={p for r in out["results"] for p in _paths(r)}):
            if r_.pop("info", None):
                out.setdefault("jax", r_["jax_info"])
                continue
            if r_.get("stage") == "timeout":
                hung.update(r_["stuck_paths"])
            (out["results"] if r_.get("ok") else out["failed"]).append(r_)
            print(_line(r_, out), file=sys.stderr, flush=True)
        _derive(out)
        save()
    out["ok"] = not out["failed"]
    save()
    return out


def _derive(out):
    """Roofline fractions (measured copy bandwidth and nominal: the device kind's, `nominal_bandwidth`) and ratios
    to the XLA step."""
    nominal, out["nominal_bandwidth_source"] = nominal_bandwidth((out.get("jax") or {}).get("device_kind"))
    out["nominal_bandwidth_bytes_per_s"] = nominal
    bw = [r["bandwidth_bytes_per_s"] for r in out["results"] if r.get("task") == "bandwidth"]
    out["measured_bandwidth_bytes_per_s"] = bw[0] if bw else None
    xla = {(r["size"], r["dtype"]): r["mlups"] for r in out["results"]
           if r.get("task") == "time" and r.get("path") == "xla" and not r.get("tuning")}
    for r in out["results"]:
        if r.get("task") != "time":
            continue
        b = r["min_bytes_per_cell"]
        r["nominal_roofline_mlups"] = nominal / b / 1e6
        r["nominal_roofline_fraction"] = r["mlups"] / r["nominal_roofline_mlups"]
        if bw:
            r["roofline_mlups"] = bw[0] / b / 1e6
            r["roofline_fraction"] = r["mlups"] / r["roofline_mlups"]
        ref = xla.get((r["size"], r["dtype"]))
        r["speed_over_xla"] = r["mlups"] / ref if ref else None


def _line(r, out):
    """One line for a result; a failed one names its task and error (it lacks the figures). Never raises: a line
    that cannot be formed must not end the plan (a failed case task did, losing the rest of the GPU check)."""
    try:
        return _format_line(r, out)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        return f"step_variants: (unformatted: {type(e).__name__} {e}) " + json.dumps(r, default=str)[:300]


def _what(r) -> str:
    """What a task was: its kind, path or case, size, dtype, settings."""
    return " ".join(str(r[k]) for k in ("task", "path", "case", "size", "dtype", "sets") if r.get(k) is not None)


def _format_line(r, out):
    if not r.get("ok", True):
        return f"step_variants: FAILED {_what(r)}: {str(r.get('error'))[:500]}"
    if r.get("task") == "time":
        ratio = f", {r['speed_over_xla']:.2f}x xla" if r.get("speed_over_xla") else ""
        xb = r.get("xla_bytes_per_cell")
        return (f"step_variants: {r['path']:14s} {r.get('lattice', 'D3Q19')} {r['size']}^3 {r['dtype']}"
                f"{' block ' + str(r['block']) if r.get('block') else ''}: {r['mlups']:.1f} MLUPS{ratio}, "
                f"{xb if xb is None else round(xb)} B/cell (XLA), peak {r['peak_bytes'] / 2**30:.2f} GiB "
                f"({r['peak_over_population']:.2f}x populations), {r.get('kernels')} kernels/step")
    if r.get("task") == "compare":
        pa, pb = r.get("paths", ("xla", "pallas"))
        return (f"step_variants: {pb} vs {pa} {r['size']}^3 {r['dtype']} after {r['steps']} steps: "
                f"max |df| {r['max_abs_diff']:.3g} ({r['max_rel_diff']:.3g} of max |f|), "
                f"{r['cells_x_q_differing']} values differ")
    if r.get("task") == "case":
        return (f"step_variants: case {r['case']} {r.get('sets')} {'x'.join(map(str, r['shape']))}: xla "
                f"{r['xla']['mlups']:.1f} MLUPS ({r['xla']['form']}), pallas {r['pallas']['mlups']:.1f} MLUPS "
                f"({r['pallas']['form']}), {r['pallas_over_xla']:.2f}x; max |df| after {r['compare_steps']} steps "
                f"{r['max_abs_diff']:.3g} ({r['max_rel_diff']:.3g} of max |f|)")
    if r.get("task") == "run":
        parts = [f"{k}: exit {r[k].get('exit_status')}, {r[k].get('status')}, {r[k].get('steps')} steps, "
                 f"{r[k].get('mlups') or 0:.1f} MLUPS" for k in ("run", "restart") if k in r]
        return f"step_variants: distlbm run {r['case']} {r.get('sets')}: " + "; ".join(parts) + (
            f" [{r.get('run', {}).get('step_reason')}]" if r.get("run") else "") + (
            f" ({r['note']})" if r.get("note") else "")
    if r.get("task") == "bandwidth":
        return f"step_variants: copy bandwidth {r['bandwidth_bytes_per_s'] / 1e9:.1f} GB/s"
    if r.get("task") == "fit":
        return f"step_variants: {r['path']} {r['dtype']}: largest lattice {r.get('largest_n')}^3 ({r.get('tried')})"
    return "step_variants: " + json.dumps(r)[:300]


def table(out) -> str:
    rows = ["| variant | lattice | size | storage | MLUPS | vs xla | XLA B/cell (min) | peak memory | peak / populations"
            " | kernels/step |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in out["results"]:
        if r.get("task") != "time":
            continue
        try:
            rows.append(_table_row(r))
        except (KeyError, TypeError, ValueError) as e:  # a row that cannot be formed must not lose the JSON
            rows.append(f"| {_what(r)} (unformatted: {type(e).__name__} {e}) |")
    return "\n".join(rows)


def _table_row(r) -> str:
    xb = r.get("xla_bytes_per_cell")
    name = r["path"] + (" " + str(r["block"]) if r.get("block") else "")
    ratio = f"{r['speed_over_xla']:.3f}" if r.get("speed_over_xla") else "-"
    return (f"| {name} | {r.get('lattice', 'D3Q19')} | {r['size']}³ | {r['dtype']} | {r['mlups']:.1f} | {ratio} | "
            f"{'-' if xb is None else round(xb)} ({r['min_bytes_per_cell']}) | {r['peak_bytes'] / 2**30:.2f} GiB | "
            f"{r['peak_over_population']:.2f} | {r.get('kernels')} |")


def _listed(key, text, kind, ok, expected):
    """The comma-separated items of `text` as `kind`, each passing ok(); ValueError naming the key otherwise."""
    try:
        items = [kind(x.strip()) for x in str(text).split(",") if x.strip()]
    except ValueError:
        items = None
    if not items or not all(ok(x) for x in items):
        raise ValueError(f"{key} = {text!r}: expected a comma-separated list of {expected}")
    return items


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plan", choices=("cpu", "gpu"), default="cpu",
                    help="cpu: the XLA step's forms at --sizes, the Pallas kernels interpreted at 32^3; gpu: every "
                    "path, the largest lattice that fits, the driver's cases (scripts/gpu_check.sh) (default: cpu)")
    ap.add_argument("--out", default="", help="JSON path (default: print only)")
    ap.add_argument("--budget", type=float, default=float(os.environ.get("GPU_CHECK_BUDGET_S", "1800")),
                    help="seconds for the whole plan: a task left when they are spent is a failed entry, skipped "
                    "(default: $GPU_CHECK_BUDGET_S or 1800)")
    ap.add_argument("--sizes", default=None, help="lattice sides of the large timings, e.g. 128,400 (default: "
                    "128,400 on the CPU plan; $GPU_CHECK_SIZES or 256,512 on the GPU plan)")
    ap.add_argument("--dtypes", default=None, help="storage dtypes, e.g. float32 (default: float32,float16; "
                    "$GPU_CHECK_DTYPES on the GPU plan)")
    ap.add_argument("--steps", type=int, default=None, help="timed steps per repetition (default: 10 on the CPU "
                    "plan, 2 over 200^3; $GPU_CHECK_STEPS or 50 on the GPU plan)")
    ap.add_argument("--python", default=sys.executable,
                    help="the Python that runs each group of measurements (default: this one)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--out-dir", default="", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        worker(json.loads(a.worker), a.out_dir)
        return 0
    start = float(os.environ.get("GPU_CHECK_START", time.time()))
    gpu = a.plan == "gpu"
    try:
        sizes = _listed("--sizes", a.sizes or (os.environ.get("GPU_CHECK_SIZES", "256,512") if gpu else "128,400"),
                        int, lambda n: n >= 8, "lattice sides >= 8")
        dtypes = _listed("--dtypes", a.dtypes or (os.environ.get("GPU_CHECK_DTYPES", "float32,float16") if gpu
                                                  else "float32,float16"),
                         str, lambda d: d in ("float32", "float16", "bfloat16"), "float32, float16 or bfloat16")
        bw = os.environ.get("GPU_CHECK_NOMINAL_BW")
        if bw:
            try:
                good = math.isfinite(float(bw)) and float(bw) > 0
            except ValueError:
                good = False
            if not good:
                raise ValueError(f"GPU_CHECK_NOMINAL_BW = {bw!r}: expected one bandwidth in bytes/s > 0, e.g. 3.35e12")
        steps = a.steps if a.steps is not None else (int(os.environ.get("GPU_CHECK_STEPS", "50")) if gpu else None)
        if steps is not None and steps < 1:
            raise ValueError(f"--steps = {steps}: expected at least 1")
    except ValueError as e:
        ap.error(str(e))
    groups = gpu_plan(sizes, dtypes, steps) if gpu else cpu_plan(sizes, dtypes, steps)
    header = {"plan": a.plan, "host": platform.node(), "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              "notes": "xla: stepper.make_step (A-B); pallas: physics.fused.make_fused_step; pallas-inplace: "
                       "physics.fused_inplace (AA pattern, one population array); interpret mode on CPU"}
    out = run_plan(groups, a.out or None, a.budget, a.python, start, header)
    print(table(out))
    for r in out["results"]:
        if r.get("task") in ("compare", "fit", "bandwidth", "case", "run"):
            print(_line(r, out))
    if out["failed"]:
        print(f"{len(out['failed'])} failed: " + "; ".join(f"{_what(f)}: {str(f.get('error', ''))[:200]}"
                                                           for f in out["failed"]))
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
