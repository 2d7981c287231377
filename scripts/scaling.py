#!/usr/bin/env python3
"""Weak and strong scaling of distlbm over device counts, meshes and launchers, and a model of the
halo traffic that predicts parallel efficiency on large GPU systems.

Measure (one worker run per point; the same command on a laptop, a GPU node or a Slurm allocation):

  scripts/scaling.py --mode both --devices 1,2,4,8 --launcher local --out out/scaling
  scripts/scaling.py --mode weak --devices 1,2,4 --launcher mpiexec --out out/scaling-mpi
  scripts/scaling.py --mode both --devices 1,2,4,8 --launcher local,mpiexec --out out/scaling  # both series
  srun -n 1 ... / inside an allocation:  scripts/scaling.py --launcher srun --devices 1,4,16,64 \
        --launcher-args=--ntasks-per-node=4 --cells-per-device 256 --size 512 --steps 50
  (a task that sees the node's GPUs takes the one of its local rank; one shown a single GPU, with --gpus-per-task=1
  or --gpu-bind=single:1, takes that one; README)

  local:    one process over N local devices (jax.devices(); on a CPU, N forced host devices through
            XLA_FLAGS=--xla_force_host_platform_device_count=N).
  mpiexec:  N processes with --devices-per-process devices each (default 1); `--comm jax` joins them
            with jax.distributed, `--comm mpi` runs one JAX program per rank with the mpi4jax exchange.
  srun:     the same under Slurm's srun (inside an allocation).

Weak scaling keeps --cells-per-device C (a C^3 block per device, C^2 in 2D) and grows the lattice with
the mesh; strong scaling keeps the --size S lattice (S^3) and splits it over more devices. Meshes are
chosen by distlbm's factorisation (the fewest exchanged planes) unless given, e.g. --meshes 8:8x1x1.

Writes DIR/scaling.csv, DIR/scaling.json and DIR/scaling.png. Per point: devices, processes, mesh,
lattice shape, MLUPS, MLUPS per device, parallel efficiency (weak: per-device MLUPS over the smallest
run's; strong: speedup over the smallest run divided by the device ratio; the table names the baseline where it is
not one device), the time per step spent in the halo exchange (`halo_s_per_step`: the same step timed with every
block its own neighbour, no communication, subtracted; not measured on one device, where there is no exchange), its
noise (`halo_noise_s_per_step`: half the spread of the repetitions' paired step-minus-wrap times) and `halo_status`
('measured' where the difference exceeds the noise; else 'below noise', or 'wrap slower' beyond it, and
halo_s_per_step and halo_fraction are null: a difference within the noise is no time, and never a negative one; 'no
noise figure' of --repeat 1), the halo bytes per step per device, and the
fraction of the memory-bandwidth roofline (bytes per cell 2*Q*itemsize over a measured copy bandwidth;
the bandwidth of all the devices taking part: per device on GPUs, per host on CPUs, where forced
devices and processes share one memory system; `--bandwidth-gbps` sets it instead of measuring).
MLUPS (`mlups`) is the median of the --repeat timed repetitions (of an even count the slower of the two middle
ones: a repetition measured, not a mean of two), each repetition timed by its slowest process, as `distlbm bench`
takes it; `mlups_all` (JSON) holds every repetition's rate, so that `mlups` is always one of `mlups_all`.

Model:  scripts/scaling.py --model [--out DIR]   prints (and writes DIR/model.csv, model.json) the predicted
parallel efficiency of 400^3 and 1600^3 D3Q19 lattices on 8, 64 and 512 GPUs with 1-D, 2-D and 3-D
meshes; see `halo_model` for the assumptions (every one is an option).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

MARK = "SCALING_RESULT "
ERROR_MARK = "SCALING_ERROR "  # a worker's one-line error (a lattice that does not split over its mesh)
COLUMNS = ["mode", "launcher", "comm", "devices", "processes", "mesh", "shape", "cells", "cells_per_device",
           "steps", "repeat", "mlups", "mlups_min", "mlups_max", "mlups_per_device", "efficiency", "speedup",
           "baseline_devices", "step_s", "step_local_wrap_s", "halo_s_per_step", "halo_fraction",
           "halo_noise_s_per_step", "halo_status",
           "halo_bytes_per_step_per_device", "bytes_per_cell",
           "bandwidth_gbps", "roofline_mlups", "roofline_fraction", "platform", "device_kind", "dtype", "compute_dtype",
           "lattice",
           "distlbm", "commit", "error"]


# ---------------------------------------------------------------------------------------------------
# shapes and meshes
# ---------------------------------------------------------------------------------------------------
def _primes(n: int) -> list[int]:
    out, p = [], 2
    while n > 1:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out


def balanced_mesh(n: int, d: int) -> tuple:
    """n devices as a d-axis mesh as close to a cube as possible, larger sizes first (8 -> 2x2x2, 4 -> 2x2x1)."""
    mesh = [1] * d
    for p in sorted(_primes(n), reverse=True):
        a = min(range(d), key=lambda i: (mesh[i], i))
        mesh[a] *= p
    return tuple(sorted(mesh, reverse=True))


def fmt(t) -> str:
    return "x".join(str(int(v)) for v in t)


def point_geometry(mode: str, n: int, d: int, cells_per_device: int, size: int, meshes: dict) -> tuple:
    """(global shape, mesh) of one point."""
    from distlbm.parallel.mesh import factorize, parse_mesh

    given = meshes.get(n)
    if mode == "weak":
        mesh = parse_mesh(given, d) if given else balanced_mesh(n, d)
        return tuple(cells_per_device * m for m in mesh), mesh
    shape = (size,) * d
    mesh = parse_mesh(given, d) if given else factorize(n, shape)
    return shape, mesh


# ---------------------------------------------------------------------------------------------------
# worker: one point, run inside the launched process(es)
# ---------------------------------------------------------------------------------------------------
def copy_bandwidth(device, nbytes: int = 256 << 20) -> float:
    """Bytes per second of a STREAM-like pass on `device` (distlbm.bench.measure_bandwidth)."""
    from distlbm.bench import measure_bandwidth

    return float(measure_bandwidth(device=device, nbytes=nbytes))


def check_worker_settings(args) -> None:
    """The settings a worker reads before its start, each process its own (ConfigError or ValueError): the step's
    DISTLBM_* variables and, of several processes, the start-up's timeouts (a variable set for one rank, a node's
    profile), then what every process finds alike (the lattice, dtype, collision, the mesh against the lattice)."""
    import numpy as np

    from distlbm.lattice import get_lattice
    from distlbm.parallel.mesh import check_divisible, parse_mesh
    from distlbm.parallel.processes import start_variables
    from distlbm.physics.collision import Collision
    from distlbm.stepper import check_switches

    check_switches()
    start_variables()  # (as distlbm run reads them, on one process or several)
    lat = get_lattice(args.lattice)
    np.dtype(args.dtype)
    Collision(args.collision, 0.8)
    check_divisible(tuple(int(s) for s in args.shape.split("x")), parse_mesh(args.mesh, lat.d))


def meet_at_start(args) -> int | None:
    """The worker processes of a point meet before they start, as `distlbm run`'s do, through the same functions
    (cli.met_and_refused, and cli._refused_at_start for one that found an error): a setting that one process alone
    finds wrong ended that process alone, and the others waited for it in the start (under mpiexec for ever: the
    point's --timeout, then 'timed out'; under srun the start-up timeout). Now that process says its error
    ('distlbm: configuration error (process 1): ...'), the others that the point stops, and every one exits 2 (1 where
    one failed with a traceback) within seconds. The exit status where the point stops here, else None."""
    from distlbm.cli import _refused_at_start, met_and_refused
    from distlbm.parallel.mesh import DecompositionError
    from distlbm.parallel.processes import Unexpected, launcher

    what = "the scaling point"
    try:
        check_worker_settings(args)
        return met_and_refused("scaling") or None
    except (DecompositionError, ValueError) as e:  # (ConfigError is a ValueError)
        if _refused_at_start(str(e), what=what):  # several processes met: each said its part
            return 2
        print(f"{ERROR_MARK}{e}", file=sys.stderr, flush=True)  # one process, or processes that cannot meet
        return 2
    except Exception as e:
        if launcher()[1] > 1:
            import traceback

            traceback.print_exc()
            if _refused_at_start(Unexpected(f"{type(e).__name__} (its traceback above)"), "failure", quiet=True,
                                 what=what):
                return 1
        raise


def worker(args) -> int:
    from distlbm.parallel.processes import abort, initialize, lost_process

    refused = meet_at_start(args)
    if refused is not None:
        return refused
    procs = initialize(args.comm)
    try:
        result = _worker(args, procs)
    except Exception as e:  # noqa: BLE001 - report, and do not leave the other processes waiting
        if procs["processes"] > 1:
            why = lost_process(e)  # a survivor of another's failure: that one's line is the point's
            print(f"scaling worker (process {procs['process_index']}): lost another process of the point ({why})"
                  if why else f"{ERROR_MARK}process {procs['process_index']}: {e.__class__.__name__}: {e}",
                  file=sys.stderr, flush=True)
            abort(1)
        raise
    if result is not None:
        print(MARK + json.dumps(result), flush=True)
    return 0


def _worker(args, procs) -> dict | None:
    from functools import partial

    import jax
    import jax.numpy as jnp
    import numpy as np

    from distlbm.lattice import get_lattice
    from distlbm.parallel.domain import LocalDomain
    from distlbm.parallel.mesh import MeshDomain, halo_bytes_per_step, parse_mesh
    from distlbm.physics.collision import Collision
    from distlbm.physics.equilibrium import equilibrium_deviation
    from distlbm.parallel import make_domain
    from distlbm.stepper import Cells, Model, State

    if "float64" in (args.dtype,):
        jax.config.update("jax_enable_x64", True)
    lat = get_lattice(args.lattice)
    shape = tuple(int(s) for s in args.shape.split("x"))
    mesh = parse_mesh(args.mesh, lat.d)
    n = math.prod(mesh)
    if n == 1 and jax.process_count() == 1 and args.comm != "mpi":
        dom = LocalDomain(shape)  # the one-device reference, whatever devices this process sees
    else:
        dom = make_domain(shape, args.mesh, args.comm)
    from distlbm.config import default_compute_dtype

    # 16-bit storage computes in float32, as distlbm run and bench do (float16 arithmetic is no run's default, and on
    # GPUs the fused kernel does not cover it)
    compute_dtype = default_compute_dtype(args.dtype)
    model = Model(lat, Collision(args.collision, 0.8), dtype=args.dtype, compute_dtype=compute_dtype)
    cdt = jnp.dtype(compute_dtype)

    def shear(local_shape, x0):
        x = (jnp.arange(local_shape[0], dtype=cdt) + x0) * (2 * math.pi / shape[0])
        ux = 0.01 * jnp.sin(x).reshape((local_shape[0],) + (1,) * (lat.d - 1))
        ux = jnp.broadcast_to(ux, local_shape)
        u = (ux,) + tuple(jnp.zeros(local_shape, cdt) for _ in range(lat.d - 1))
        return equilibrium_deviation(jnp.zeros(local_shape, cdt), u, lat).astype(args.dtype)

    if args.comm == "mpi":
        block = dom.block

        def init():
            return jax.device_put(jax.jit(partial(shear, block, dom.index[0].start))(), dom.device)
    else:
        init = jax.jit(partial(shear, shape, 0), out_shardings=dom.sharding(lat.d + 1))

    cells = Cells()
    runs = timed_runs(model, dom, halo_timing=n > 1 and not args.no_halo_timing)
    states = {k: State(init(), dom.replicate(np.zeros((), np.int32))) for k in runs}
    t0 = time.perf_counter()
    for k, adv in runs.items():  # compile and warm up
        states[k] = adv(states[k], cells, jnp.int32(1))
        jax.block_until_ready(states[k].f)
    compile_s = time.perf_counter() - t0
    times = {k: [] for k in runs}
    for _ in range(max(1, args.repeat)):  # interleaved, so that slow phases of a noisy machine hit both
        for k, adv in runs.items():
            _barrier(dom)
            t = time.perf_counter()
            states[k] = adv(states[k], cells, jnp.int32(args.steps))
            jax.block_until_ready(states[k].f)
            times[k].append(time.perf_counter() - t)

    # bandwidth: measured in every process at once, so that processes sharing a host share its memory
    if isinstance(dom, MeshDomain):
        local = [dv for dv in dom.mesh.devices.flat if dv.process_index == jax.process_index()]
    else:
        local = [dom.device]
    platform = local[0].platform
    bw = None
    if not args.bandwidth_gbps:
        _barrier(dom)
        # GPUs: every process measures its own device at once; CPUs: processes on one host share its
        # memory, so only process 0 measures (the others wait) and the hosts are taken to be alike
        bw = copy_bandwidth(local[0]) if platform != "cpu" or dom.process_index == 0 else None

    # a repetition lasts until its slowest process is done (the barrier starts them together): each repetition's
    # time is the longest of the processes', then the median of those, as `distlbm bench` takes it (each process's
    # median and then the slowest of those could pair one process's slow repetition with another's fast one)
    host = zlib.crc32(os.uname().nodename.encode())
    reps = len(times["real"])
    mine = [bw if bw is not None else math.nan, float(host), float(len(local))] + times["real"] + times.get("wrap", [])
    rows = _allgather(dom, mine)
    if dom.process_index != 0:
        return None
    real = repetition_times(rows, 3, reps)
    halo = halo_figures(real, repetition_times(rows, 3 + reps, reps) if "wrap" in times else None, args.steps)
    step_s = halo["step_s"]
    bw_total = total_bandwidth(platform, rows, args.bandwidth_gbps * 1e9 if args.bandwidth_gbps else None)
    cells_count = math.prod(shape)
    mlups = cells_count / step_s / 1e6
    bpc = 2 * lat.q * np.dtype(args.dtype).itemsize
    roof = bw_total / bpc / 1e6
    return {
        "devices": n, "processes": procs["processes"], "mesh": fmt(mesh), "shape": fmt(shape),
        "cells": cells_count, "cells_per_device": cells_count // n, "steps": args.steps, "repeat": args.repeat,
        "mlups": mlups, "mlups_per_device": mlups / n,
        # every repetition's rate, of its slowest process (mlups is one of them: the median repetition's)
        "mlups_all": [cells_count * args.steps / t / 1e6 for t in real],
        **halo,
        "halo_bytes_per_step_per_device": halo_bytes_per_step(lat.c, shape, mesh, np.dtype(args.dtype).itemsize),
        "bytes_per_cell": bpc, "bandwidth_gbps": bw_total / 1e9, "roofline_mlups": roof,
        "roofline_fraction": mlups / roof, "platform": platform, "device_kind": local[0].device_kind,
        "dtype": args.dtype, "compute_dtype": compute_dtype, "lattice": lat.name,
        "comm": args.comm, "compile_s": compile_s,
    }


def timed_runs(model, dom, halo_timing: bool) -> dict:
    """advance functions of the point: 'real', and with halo_timing 'wrap', the same step without communication:
    halo.own_planes of the domain's exchange, every block its own neighbour, the axes that wrap onto a block the real
    step's (halo.local_exchange wrapped every axis: another step form). On forced CPU devices of one process
    (`wrap_permute`) the wrap's planes go through the real step's collectives, each block to itself: without any
    collective XLA's CPU runtime ran the program about twice as slowly (2 forced devices, 64^3: 13.1 ms a step against
    the real 7.5), and the halo time came out negative."""
    from distlbm.parallel import make_advance
    from distlbm.parallel.halo import own_planes

    runs = {"real": make_advance(model, dom)}
    if halo_timing:  # (a step_factory of its own took the A-B kernel where the real step ran in place: GPUs)
        runs["wrap"] = make_advance(model, dom, exchange=own_planes(dom.exchange, wrap_permute(dom)))
    return runs


def wrap_permute(dom) -> tuple | None:
    """(mesh axes, mesh shape) over which the wrap step sends each block's planes to itself (halo.own_planes): forced
    CPU devices in one process; None elsewhere (a GPU's program runs alike without a collective, and one across
    processes would be a network transfer of its own)."""
    import jax

    from distlbm.parallel.mesh import MeshDomain

    if not isinstance(dom, MeshDomain) or jax.process_count() > 1:
        return None
    if {dv.platform for dv in dom.mesh.devices.flat} != {"cpu"}:
        return None
    return tuple(dom.axes), tuple(dom.mesh_shape)


HALO_STATES = {"measured": "the exchange's time stood out of the noise",
               "below noise": "the step and the wrap step differ by less than the noise",
               "wrap slower": "the wrap step ran slower than the real one by more than the noise: no exchange time",
               "no noise figure": "--repeat 1 (or a study written before scaling.py gave one): a difference of two "
                                  "timings, perhaps noise"}


def halo_figures(real: list, wrap: list | None, steps: int) -> dict:
    """The point's step figures from its repetitions' times (each its slowest process's; real and wrap timed in turn
    in every repetition): step_s and step_local_wrap_s, the median repetitions' per step; halo_s_per_step, their
    difference, and halo_fraction, its share of the step, where that difference stands out of the noise, else None;
    halo_noise_s_per_step, the noise: half the spread (max - min) of the repetitions' paired differences (the real
    repetition's time minus the wrap's of the same round) per step, None of one repetition; halo_status, one of
    HALO_STATES (None where no wrap was timed: one device, --no-halo-timing). The difference was reported whatever it
    was: on a shared machine -0.3 ms, -4 % of the step, read as a negative communication cost."""
    step_s = median_time(real) / steps
    out = {"step_s": step_s, "step_local_wrap_s": None, "halo_s_per_step": None, "halo_fraction": None,
           "halo_noise_s_per_step": None, "halo_status": None}
    if not wrap:
        return out
    wrap_s = median_time(wrap) / steps
    diff = step_s - wrap_s
    paired = [(a - b) / steps for a, b in zip(real, wrap)]
    noise = (max(paired) - min(paired)) / 2 if len(paired) > 1 else None
    if noise is None:
        status = "no noise figure"
    elif diff > noise:
        status = "measured"
    elif diff >= -noise:
        status = "below noise"
    else:
        status = "wrap slower"
    shown = status == "measured" or (status == "no noise figure" and diff > 0)
    out.update(step_local_wrap_s=wrap_s, halo_noise_s_per_step=noise, halo_status=status,
               halo_s_per_step=diff if shown else None, halo_fraction=diff / step_s if shown else None)
    return out


def halo_state(r: dict) -> str | None:
    """A point's halo_status; of a point written before it was (an earlier study's JSON, whose halo_s_per_step was the
    difference whatever it was, negative too): 'no noise figure'."""
    if r.get("halo_status") or r.get("halo_s_per_step") is None:
        return r.get("halo_status")
    return "no noise figure"


def median_time(times: list) -> float:
    """The time of the median repetition; of an even count, the slower of the two middle ones (a time measured).
    The mean of the two middle times (statistics.median) gave an `mlups` that was no entry of `mlups_all` nor
    their median (cells over the mean of two times is not the mean of the two rates): --repeat 2 gave 1.2 MLUPS
    beside mlups_all [1.0, 1.5], whose median a reader takes to be 1.25."""
    return statistics.median_high(times)


def repetition_times(rows: list, start: int, reps: int) -> list:
    """Each repetition's time, its slowest process's: from every process's row (`_worker`'s rows), the `reps` times
    from column `start`."""
    return [max(r[start + i] for r in rows) for i in range(reps)]


def total_bandwidth(platform: str, rows: list, given: float | None = None) -> float:
    """The memory bandwidth of the devices taking part, from every process's [bandwidth, host, local devices, ..]
    (`_worker`'s rows): on CPUs process 0's host's times the hosts (forced devices and processes on one host share
    its memory), on GPUs the sum over the devices. `given` (--bandwidth-gbps, per host on CPUs, per device on GPUs)
    replaces the measured figure; it was taken for one host however many hosts a CPU run spanned."""
    if platform == "cpu":
        return (given if given else rows[0][0]) * len({r[1] for r in rows})
    return sum((given if given else r[0]) * r[2] for r in rows)


def _barrier(dom):
    dom.barrier()  # every domain has one (a no-op on one process)


def _allgather(dom, values: list) -> list:
    """values (a list of floats, NaN allowed) from every process, in process order."""
    enc = [None if isinstance(v, float) and math.isnan(v) else v for v in values]
    return [[math.nan if v is None else v for v in r] for r in dom.allgather_obj(enc)]


# ---------------------------------------------------------------------------------------------------
# driver
# ---------------------------------------------------------------------------------------------------
def _forced_xla_flags(n: int) -> str:
    flags = [f for f in os.environ.get("XLA_FLAGS", "").split()
             if not f.startswith("--xla_force_host_platform_device_count")]
    return " ".join(flags + [f"--xla_force_host_platform_device_count={n}"])


def _mpiexec(args) -> str:
    if args.mpiexec:
        return args.mpiexec
    venv = Path(sys.executable).parent / "mpiexec"
    return str(venv) if venv.exists() else (shutil.which("mpiexec") or shutil.which("mpirun") or "mpiexec")


def worker_env(args, dpp: int) -> dict:
    """The environment of a worker process of `dpp` devices."""
    env = dict(os.environ)
    if not args.no_force_cpu:  # only the CPU platform reads this; GPUs are unaffected
        env["XLA_FLAGS"] = _forced_xla_flags(dpp)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def local_device_count(args, n: int) -> tuple[int, str] | None:
    """(devices, what they are) that the local worker of an n-device point sees: a JAX started in a process of that
    worker's environment (not in this one: JAX would hold the node's GPUs, and their memory, for the whole study).
    None where that process cannot tell (the point then says its own error)."""
    env = {**worker_env(args, n), "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
    code = ("import jax; d = jax.local_devices(); k = d[0].device_kind; "
            "print(len(d), d[0].platform if d[0].platform == 'cpu' else f'{d[0].platform}: {k}')")
    try:
        p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           timeout=min(args.timeout, 300))
    except (subprocess.TimeoutExpired, OSError):
        return None
    count, _, what = (p.stdout.strip().splitlines() or [""])[-1].partition(" ")
    return (int(count), what) if p.returncode == 0 and count.isdigit() else None


def check_local_devices(ap, args) -> None:
    """--launcher local runs each point in one process over the node's devices: a device count beyond them (--devices
    1,2,4,8 on a node of 4 GPUs) ran every point before it and ended as that point's error row at the end. Refused
    before any point runs. Forced CPU devices (the CPU platform without --no-force-cpu) are as many as a point asks
    for: nothing to ask there."""
    from distlbm.parallel.processes import platform_before_start

    devices = [int(v) for v in args.devices.split(",") if v.strip()]
    if not args.no_force_cpu and platform_before_start() == "cpu":
        return
    seen = local_device_count(args, max(devices))
    if seen is None or seen[0] >= max(devices):
        return
    count, what = seen
    ap.error(f"--devices = {args.devices!r}: --launcher local runs a point's devices in one process, and this node "
             f"shows it {count} ({what}); expected device counts of at most {count} under --launcher local (more "
             f"across processes: --launcher mpiexec or srun)")


def launch_point(args, launcher: str, mode: str, n: int, shape, mesh) -> dict:
    dpp = 1 if launcher != "local" else n
    if launcher != "local":
        dpp = args.devices_per_process
        if n % dpp:
            return {"error": f"{n} devices do not split into processes of {dpp} devices"}
    nproc = n // dpp
    worker_cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--shape", fmt(shape),
                  "--mesh", fmt(mesh), "--lattice", args.lattice, "--steps", str(args.steps), "--repeat",
                  str(args.repeat), "--dtype", args.dtype, "--collision", args.collision,
                  "--comm", args.comm if launcher != "local" else "jax"]
    if args.bandwidth_gbps:
        worker_cmd += ["--bandwidth-gbps", str(args.bandwidth_gbps)]
    if args.no_halo_timing:
        worker_cmd += ["--no-halo-timing"]
    extra = shlex.split(args.launcher_args or "")
    if launcher == "local":
        cmd = worker_cmd
    elif launcher == "mpiexec":
        cmd = [_mpiexec(args), "-n", str(nproc), *extra, *worker_cmd]
    elif launcher == "srun":
        cmd = [args.srun, "-n", str(nproc), *extra, *worker_cmd]
    else:  # (check_args refuses it before any point runs)
        return {"error": f"--launcher {launcher!r}: expected local, mpiexec or srun"}
    env = worker_env(args, dpp)
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {args.timeout} s: {shlex.join(cmd)}"}
    except OSError as e:  # the launcher went away, or cannot be run: this point's error row, the others kept
        return {"error": f"{cmd[0]}: {e.strerror or e}", "command": shlex.join(cmd)}
    lines = [ln[len(MARK):] for ln in p.stdout.splitlines() if ln.startswith(MARK)]
    if p.returncode != 0 or not lines:
        return {"error": point_error(p.returncode, p.stdout, p.stderr), "command": shlex.join(cmd)}
    r = json.loads(lines[-1])
    r["wall_s"] = time.monotonic() - t0
    r["command"] = shlex.join(cmd)
    return r


def point_error(returncode: int, stdout: str, stderr: str) -> str:
    """A failed point's one line, from its workers' output: a worker's own error (ERROR_MARK), else the error that
    the processes said where they met at the start (meet_at_start: 'configuration error (process 1): ...', not the
    others' 'the scaling point stops'), else the last three lines."""
    lines = stderr.splitlines()
    said = ([ln[len(ERROR_MARK):] for ln in lines if ln.startswith(ERROR_MARK)]
            or [ln[len("distlbm: "):] for ln in lines if ln.startswith(("distlbm: configuration error",
                                                                        "distlbm: failure"))]
            or [ln[len("distlbm: "):] for ln in lines if ln.startswith("distlbm: process ") and "stops at its" in ln])
    tail = said[:1] or (stderr or stdout).strip().splitlines()[-3:]
    return f"exit {returncode}: {' | '.join(tail)}"


def _key(r: dict) -> tuple:
    """What a point of --append replaces: the earlier point of the same mode, launcher and device count."""
    return r["mode"], r["launcher"], r["devices"]


def add_efficiency(rows: list[dict]):
    """Efficiency against the smallest device count of the same series (mode, launcher):
    (MLUPS_n / n) / (MLUPS_n0 / n0); for weak scaling that is the per-device rate ratio, for strong
    scaling the speedup over the n0 run divided by n / n0."""
    series = {}
    for r in rows:
        if r.get("mlups"):
            series.setdefault((r["mode"], r["launcher"]), []).append(r)
    for pts in series.values():
        base = min(pts, key=lambda r: r["devices"])
        for r in pts:
            r["efficiency"] = r["mlups_per_device"] / base["mlups_per_device"]
            r["baseline_devices"] = base["devices"]
            r["speedup"] = r["mlups"] / base["mlups"]  # weak scaling: the scaled speedup


def add_spread(rows: list[dict]):
    """mlups_min and mlups_max: the spread of a point's repetitions (its mlups_all), so that the CSV alone shows how
    far a point can be trusted (it had the median only; the repetitions were in the JSON alone)."""
    for r in rows:
        if r.get("mlups_all"):
            r["mlups_min"], r["mlups_max"] = min(r["mlups_all"]), max(r["mlups_all"])


def mixed_series(rows: list[dict], out) -> list[str]:
    """A warning per series (mode, launcher) whose points ran on more than one kind of device: --append merged a run
    on other hardware (an H100 node's points beside an H200 node's), whose efficiencies are then taken against the
    other's baseline. The kind is known only once the points ran, so it cannot be refused before."""
    kinds = {}
    for r in rows:
        if r.get("mlups") and r.get("device_kind"):
            kinds.setdefault((r["mode"], r["launcher"]), set()).add(r["device_kind"])
    return [f"warning: the {mode} series of --launcher {launcher} in {Path(out) / 'scaling.json'} ran on "
            f"{' and '.join(sorted(k))}: its efficiencies are taken across those devices; expected one kind (another "
            f"--out for the other)"
            for (mode, launcher), k in sorted(kinds.items()) if len(k) > 1]


def write_outputs(rows: list[dict], out: Path, meta: dict, plots: bool = True) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    add_spread(rows)
    # each file written beside and renamed over the old one: a study killed while it writes (they are written after
    # every point) leaves the last whole file, not half of one
    # (and a Ctrl-C while it writes removes its temporary: it was left as a hidden .scaling.*.PID file)
    tmp = out / f".scaling.csv.{os.getpid()}"
    try:
        with open(tmp, "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=COLUMNS, extrasaction="ignore")
            w.writeheader()
            for r in rows:
                w.writerow({k: ("" if r.get(k) is None else _round(r.get(k))) for k in COLUMNS})
        os.replace(tmp, out / "scaling.csv")
        tmp = out / f".scaling.json.{os.getpid()}"
        tmp.write_text(json.dumps({"meta": meta, "points": rows}, indent=1) + "\n")
        os.replace(tmp, out / "scaling.json")
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    files = {"csv": str(out / "scaling.csv"), "json": str(out / "scaling.json")}
    if plots:
        png = plot(rows, out / "scaling.png", meta)
        if png:
            files["png"] = png
    return files


def _round(v):
    return float(f"{v:.6g}") if isinstance(v, float) else v


def plot(rows: list[dict], path: Path, meta: dict) -> str | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # one line; a plot of an earlier run there is said to be that (it read as this run's)
        old = f"; {path} there is an earlier run's, not this one's" if path.exists() else ""
        print(f"matplotlib not installed: no plot{old} (pip install matplotlib, then scripts/scaling.py --replot "
              f"--out {path.parent})", file=sys.stderr)
        return None
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    series = {}
    for r in rows:
        if r.get("mlups"):
            series.setdefault((r["mode"], r["launcher"]), []).append(r)
    for (mode, launcher), pts in sorted(series.items()):
        pts.sort(key=lambda r: r["devices"])
        x = [r["devices"] for r in pts]
        label = f"{mode}, {launcher}"
        style = "-o" if mode == "weak" else "--s"
        # the bars: the spread of the repetitions (min to max of mlups_all) around the median
        spread = [[r["mlups"] - r.get("mlups_min", r["mlups"]) for r in pts],
                  [r.get("mlups_max", r["mlups"]) - r["mlups"] for r in pts]]
        ax1.errorbar(x, [r["mlups"] for r in pts], yerr=spread, fmt=style, capsize=3, label=label)
        ax2.plot(x, [r["efficiency"] for r in pts], style, label=label)
        base = pts[0]
        ax1.plot(x, [base["mlups"] / base["devices"] * n if mode == "weak" else base["mlups"] * n / base["devices"]
                     for n in x], ":", color="grey", lw=0.8)
    ticks = sorted({r["devices"] for r in rows if r.get("mlups")})
    if meta.get("platform") == "cpu" and ticks:  # forced devices share one CPU: 1/n is all one can expect
        ax2.plot(ticks, [ticks[0] / n for n in ticks], ":", color="black", lw=1, label="1/n (one shared CPU)")
    for ax in (ax1, ax2):
        ax.set_xscale("log", base=2)
        ax.set_xticks(ticks, [str(t) for t in ticks])
        ax.minorticks_off()
        ax.set_xlabel("devices")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    ax1.set_yscale("log")
    ax1.set_ylabel("MLUPS (all devices; bars: min-max of the repetitions); dotted: ideal", fontsize=8)
    ax2.set_ylabel("parallel efficiency")
    ax2.set_ylim(0, max(1.2, max((r.get("efficiency") or 0) for r in rows) * 1.1))
    ax2.axhline(1.0, color="grey", lw=0.8, ls=":")
    kinds = ", ".join(sorted({str(r.get("device_kind") or r.get("platform")) for r in rows if r.get("mlups")}))
    fig.suptitle(f"distlbm scaling: {meta.get('lattice')} {meta.get('dtype')}, {kinds or meta.get('platform', '')} "
                 f"(weak: {meta.get('cells_per_device')}^d cells/device, strong: {meta.get('size')}^d)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return str(path)


def halo_cells(r: dict) -> tuple[str, str]:
    """The table's 'halo ms' and 'halo %' of a point: the exchange's time and share of the step where it stood out of
    the noise; '<N' (N the noise, ms and % of the step) where the step and the wrap step differ by less; '?' where the
    wrap step ran slower beyond it, or as slow with no noise figure; '-' where not timed; a '*' after a figure with no
    noise figure (--repeat 1, an earlier study's)."""
    state, halo, noise = halo_state(r), r.get("halo_s_per_step"), r.get("halo_noise_s_per_step")
    if state == "below noise":
        return f"<{noise * 1e3:.2f}", f"<{100 * noise / r['step_s']:.1f}"
    if halo is None or state == "wrap slower" or halo <= 0:
        return ("?", "?") if state in ("wrap slower", "no noise figure") else ("-", "-")
    mark = "*" if state == "no noise figure" else ""
    return f"{halo * 1e3:.2f}{mark}", f"{100 * r['halo_fraction']:.1f}{mark}"


def print_table(rows: list[dict]):
    head = (f"{'mode':6} {'launcher':8} {'dev':>3} {'proc':>4} {'mesh':7} {'lattice':12} {'MLUPS':>8} "
            f"{'MLUPS/dev':>9} {'eff':>5} {'speedup':>7} {'halo ms':>8} {'halo %':>6} {'roofline':>8}")
    print(head)
    for r in rows:
        if r.get("error"):
            print(f"{r['mode']:6} {r['launcher']:8} {r['devices']:>3}  error: {r['error']}")
            continue
        ms, share = halo_cells(r)
        print(f"{r['mode']:6} {r['launcher']:8} {r['devices']:>3} {r['processes']:>4} {r['mesh']:7} {r['shape']:12} "
              f"{r['mlups']:8.2f} {r['mlups_per_device']:9.2f} {r['efficiency']:5.2f} {r['speedup']:7.2f} "
              f"{ms:>8} {share:>6} {100 * r['roofline_fraction']:7.1f}%")
    for line in table_notes(rows):
        print(line)


def halo_said(r: dict) -> str:
    """The halo part of a point's line (after its MLUPS)."""
    state, noise = halo_state(r), r.get("halo_noise_s_per_step")
    if state == "below noise":
        return f", halo below the timing noise ({1e3 * noise:.2f} ms/step)"
    if state == "wrap slower":
        return ", halo not measured (the step without the exchange ran slower)"
    if r.get("halo_s_per_step") is None:
        return ""
    return f", halo {1e3 * r['halo_s_per_step']:.2f} ms/step" + (
        f" (noise {1e3 * noise:.2f})" if noise is not None else " (no noise figure: --repeat 1)")


def table_notes(rows: list[dict]) -> list[str]:
    """The lines under the table that say what its marks are, each where a point has that mark."""
    cells = " ".join(c for r in rows if not r.get("error") for c in halo_cells(r))
    notes = []
    if "<" in cells:
        notes.append("halo '<N': the step and the same step without the exchange differ by less than the timing noise N "
                     "(half the spread of the repetitions' differences): no exchange time resolved")
    if "?" in cells:
        notes.append("halo '?': the step without the exchange ran slower than the real one (beyond the noise, or with "
                     "no noise figure): no exchange time measured (a machine whose load changed between the two, or a "
                     "study written before the wrap step had the real one's form and collectives)")
    if "*" in cells:
        notes.append("halo '*': no noise figure (--repeat 1, or a study written before scaling.py gave one): a "
                     "difference of two timings, perhaps noise")
    for mode, launcher in dict.fromkeys((r["mode"], r["launcher"]) for r in rows):
        series = [r for r in rows if (r["mode"], r["launcher"]) == (mode, launcher)]
        base = min((r["devices"] for r in series if r.get("mlups")), default=None)
        failed = sorted(r["devices"] for r in series if not r.get("mlups") and base and r["devices"] < base)
        if base and base > 1:  # a series of 1 device and more reads as against one device; say where it is not
            why = (f" (its {', '.join(map(str, failed))}-device point{'s' if len(failed) > 1 else ''} failed)"
                   if failed else "")
            notes.append(f"{mode} {launcher}: efficiency and speedup against its {base}-device point{why}, not against "
                         "one device")
    return notes


def replot(args) -> int:
    """Recompute the efficiencies and rewrite DIR/scaling.csv and the plot from DIR/scaling.json."""
    data = json.loads((Path(args.out) / "scaling.json").read_text())
    add_efficiency(data["points"])
    files = write_outputs(data["points"], Path(args.out), data["meta"], plots=not args.no_plots)
    print_table(data["points"])
    print("\nwrote " + ", ".join(files.values()))
    if data["meta"].get("complete") is False:  # a study cut short (its time limit): the table and plot lack points
        print(f"note: {Path(args.out) / 'scaling.json'} is a study cut short (meta complete false): its last run "
              f"measured only the points above of {data['meta'].get('devices')} devices", file=sys.stderr)
    return 0


def measure(args) -> int:
    from distlbm.lattice import get_lattice

    d = get_lattice(args.lattice).d
    devices = sorted({int(v) for v in args.devices.split(",") if v.strip()})  # (as check_args reads them)
    meshes = {}
    for item in filter(None, (args.meshes or "").split(",")):
        k, _, v = item.partition(":")
        meshes[int(k)] = v
    modes = ["weak", "strong"] if args.mode == "both" else [args.mode]
    launchers = [s.strip() for s in args.launcher.split(",") if s.strip()]
    from distlbm.info import provenance

    made_by = provenance()  # the same code for every point of this run
    # --append: the earlier points, read once before this run's first point rewrites the files
    earlier = json.loads((Path(args.out) / "scaling.json").read_text())["points"] \
        if args.append and (Path(args.out) / "scaling.json").exists() else []
    measured_earlier = {_key(r) for r in earlier if r.get("mlups")}

    def save(rows: list, complete: bool) -> tuple[list, dict]:
        """The points so far (with the earlier ones of --append) written to DIR: after every point, so that a study
        cut short (the allocation's time limit, scancel, a node lost) keeps the points it measured (it wrote them
        all at the end: an hour of points on 64 GPUs was lost with the last one); the plot at the end only
        (`--replot` draws a study cut short). `complete` (meta) says whether every point of the run was taken."""
        # a point of this run replaces --append's earlier one of the same mode, launcher and devices; one that failed
        # (an error row) does not replace a measured one (it did: a re-run whose launch failed lost the point)
        rows = [r for r in rows if r.get("mlups") or _key(r) not in measured_earlier]
        keep = {_key(r) for r in rows}
        rows = [r for r in earlier if _key(r) not in keep] + rows
        rows.sort(key=lambda r: (r["launcher"] != "local", r["launcher"], r["mode"] != "weak", r["devices"]))
        add_efficiency(rows)
        ok = [r for r in rows if r.get("mlups")]
        meta = {"lattice": args.lattice, "dtype": args.dtype, "collision": args.collision, "steps": args.steps,
                "repeat": args.repeat, "cells_per_device": args.cells_per_device, "size": args.size,
                "devices": sorted({r["devices"] for r in rows} | set(devices)),
                "launchers": sorted({r["launcher"] for r in rows} | set(launchers), key=lambda s: (s != "local", s)),
                "comm": args.comm, "platform": ok[0]["platform"] if ok else None,
                "device_kinds": sorted({r["device_kind"] for r in ok if r.get("device_kind")}),
                **made_by, "host": os.uname().nodename,
                "date": time.strftime("%Y-%m-%d %H:%M:%S"), "command": shlex.join(sys.argv), "complete": complete}
        return rows, write_outputs(rows, Path(args.out), meta, plots=complete and not args.no_plots)

    if "srun" in launchers and not os.environ.get("SLURM_JOB_ID"):  # (not refused: interactive srun is some sites' way)
        print("warning: --launcher srun outside a Slurm allocation (SLURM_JOB_ID unset): each point is a job of its "
              "own, queued within its --timeout and perhaps on other nodes than the others; expected the study inside "
              "one (salloc, or sbatch slurm/scaling.sbatch)", file=sys.stderr, flush=True)
    rows = []
    for launcher in launchers:
        for mode in modes:
            for n in devices:
                try:
                    shape, mesh = point_geometry(mode, n, d, args.cells_per_device, args.size, meshes)
                except ValueError as e:  # a point's devices are its own: distlbm's mesh of fewer is no way out
                    # refused for its mesh: its line and the files at once, as a failed point's (it said nothing,
                    # and was written only with the next point: a study cut short then lost it)
                    shape = mesh = None
                    r = {"error": str(e).split(", or give the mesh ")[0]}
                else:
                    r = launch_point(args, launcher, mode, n, shape, mesh)
                r.update(mode=mode, launcher=launcher, devices=n, comm=args.comm if launcher != "local" else "jax",
                         distlbm=made_by["distlbm"], commit=made_by["commit"], dirty=made_by["dirty"])
                if mesh is not None:
                    r.setdefault("mesh", fmt(mesh))
                    r.setdefault("shape", fmt(shape))
                rows.append(r)
                # the files first, then the line: a study killed once it printed a point (a time limit's SIGKILL)
                # has that point in scaling.json
                save(rows, complete=False)
                msg = r.get("error") or (f"{r['mlups']:.2f} MLUPS, {r['mlups_per_device']:.2f} per device"
                                         + halo_said(r))
                if r.get("error") and _key(r) in measured_earlier:
                    msg += f" (the earlier measured point in {Path(args.out) / 'scaling.json'} is kept)"
                where = "" if mesh is None else f", mesh {fmt(mesh)}, lattice {fmt(shape)}"
                print(f"[{launcher} {mode} {n} device(s){where}] {msg}", flush=True)
    new = rows
    rows, files = save(rows, complete=True)
    for line in mixed_series(rows, args.out):
        print(line, file=sys.stderr)
    print()
    print_table(rows)
    print("\nwrote " + ", ".join(files.values()))
    return 0 if all(r.get("mlups") for r in new) else 1


# ---------------------------------------------------------------------------------------------------
# the halo-traffic model
# ---------------------------------------------------------------------------------------------------
MODEL_DEFAULTS = dict(
    hbm_gbps=4800.0,          # H200 HBM3e
    roofline_fraction=0.8,    # fraction of the HBM roofline a tuned single-GPU step reaches
    nvlink_gbps=450.0,        # per GPU and direction inside a node (NVLink 4 through NVSwitch)
    ib_gbps=25.0,             # per GPU and direction between nodes (one 200 Gb/s HCA per GPU; 50 for NDR 400)
    latency_intra_us=10.0,    # per exchange stage (one ppermute/NCCL send-recv pair) inside a node
    latency_inter_us=15.0,    # the same across nodes
    gpus_per_node=8,
)

MODEL_MESHES = {
    8: {"1-D": (8, 1, 1), "2-D": (4, 2, 1), "3-D": (2, 2, 2)},
    64: {"1-D": (64, 1, 1), "2-D": (8, 8, 1), "3-D": (4, 4, 4)},
    512: {"1-D": (512, 1, 1), "2-D": (32, 16, 1), "3-D": (8, 8, 8)},
}


def _node_layouts(mesh, gpus_per_node):
    """Sub-meshes of one node (products of gpus_per_node that divide the mesh)."""
    d = len(mesh)
    g = min(gpus_per_node, math.prod(mesh))
    out = []

    def rec(i, left, acc):
        if i == d:
            if left == 1:
                out.append(tuple(acc))
            return
        for k in range(1, left + 1):
            if left % k == 0 and mesh[i] % k == 0:
                rec(i + 1, left // k, acc + [k])

    rec(0, g, [])
    return out


def halo_model(n: int, mesh, lattice: str = "D3Q19", dtype: str = "float32", overlap: bool = False, **kw) -> dict:
    """Predicted time per step and parallel efficiency of an n^3 lattice on a GPU mesh.

    Assumptions (each a keyword, defaults in MODEL_DEFAULTS):
    - compute: a step streams 2*Q*itemsize bytes per cell through HBM at roofline_fraction of hbm_gbps;
      t_comp = cells per GPU * bytes per cell / (roofline_fraction * hbm).
    - halo: per split axis and direction, the boundary planes of the populations crossing that face
      (5 of 19 for D3Q19), as distlbm sends them (`halo_bytes_per_step`); both directions of an axis
      leave the GPU at once and share its outgoing link bandwidth; the axes go in sequence (x, y, z).
    - links: an axis whose neighbours stay in the node uses NVLink (nvlink_gbps per GPU and direction),
      one with any neighbour in another node runs at InfiniBand speed (ib_gbps per GPU and direction)
      since every GPU waits for the slowest; the node's GPUs are placed as the sub-mesh that minimises
      the time. Each axis stage costs a latency (latency_intra_us / latency_inter_us).
    - no overlap (what distlbm does today: the exchange is on the step's critical path):
      efficiency = t_comp / (t_comp + t_comm). With overlap (interior computed while the halo travels):
      t_comp / max(t_comp, t_comm).
    """
    import numpy as np

    from distlbm.lattice import get_lattice

    p = {**MODEL_DEFAULTS, **kw}
    lat = get_lattice(lattice)
    item = np.dtype(dtype).itemsize
    c = np.asarray(lat.c)
    block = [n / m for m in mesh]
    cells = math.prod(block)
    bpc = 2 * lat.q * item
    t_comp = cells * bpc / (p["roofline_fraction"] * p["hbm_gbps"] * 1e9)
    per_axis = []
    for a, m in enumerate(mesh):
        if m == 1:
            per_axis.append(0.0)
            continue
        face = cells / block[a]
        per_axis.append(sum(int(np.sum(c[:, a] == s)) for s in (1, -1)) * face * item)
    best = None
    for node in _node_layouts(mesh, p["gpus_per_node"]):
        t = 0.0
        links = []
        for a, m in enumerate(mesh):
            if m == 1:
                continue
            intra = node[a] == m  # the whole axis inside the node: every neighbour is local
            bw = (p["nvlink_gbps"] if intra else p["ib_gbps"]) * 1e9
            lat_s = (p["latency_intra_us"] if intra else p["latency_inter_us"]) * 1e-6
            t += lat_s + per_axis[a] / bw
            links.append("NVLink" if intra else "IB")
        if best is None or t < best[0]:
            best = (t, node, links)
    t_comm, node, links = best
    eff = t_comp / (t_comp + t_comm) if not overlap else t_comp / max(t_comp, t_comm)
    return {"lattice": lattice, "n": n, "dtype": dtype, "gpus": math.prod(mesh), "mesh": fmt(mesh),
            "block": "x".join(f"{b:g}" for b in block), "feasible": all(b >= 1 for b in block),
            "divisible": all(n % m == 0 for m in mesh), "node_submesh": fmt(node), "links": "+".join(links) or "-",
            "halo_bytes_per_step_per_gpu": sum(per_axis), "halo_fraction_of_populations":
            sum(per_axis) / (cells * lat.q * item), "t_comp_us": t_comp * 1e6, "t_comm_us": t_comm * 1e6,
            "efficiency": eff, "mlups_per_gpu": cells / (t_comp + t_comm if not overlap else max(t_comp, t_comm)) / 1e6}


def model_table(sizes=(400, 1600), gpus=(8, 64, 512), dtypes=("float32", "float16"), **kw) -> list[dict]:
    rows = []
    for n in sizes:
        for g in gpus:
            for kind, mesh in MODEL_MESHES[g].items():
                for dt in dtypes:
                    r = halo_model(n, mesh, dtype=dt, **kw)
                    r["overlap_efficiency"] = halo_model(n, mesh, dtype=dt, overlap=True, **kw)["efficiency"]
                    r["ib50_efficiency"] = halo_model(n, mesh, dtype=dt, **{**kw, "ib_gbps": 50.0})["efficiency"]
                    r["decomposition"] = kind
                    rows.append(r)
    return rows


def print_model(rows: list[dict], params: dict):
    print("Predicted parallel efficiency (a model, not a measurement):")
    print("  " + ", ".join(f"{k}={v:g}" for k, v in params.items()))
    print(f"{'lattice':>7} {'GPUs':>4} {'mesh':>8} {'dtype':>7} {'block':>14} {'links':>13} {'halo MB':>8} "
          f"{'t_comp us':>9} {'t_comm us':>9} {'eff':>5} {'eff IB50':>8} {'eff ovl':>7}")
    for r in rows:
        note = "" if r["feasible"] and r["divisible"] else ("  (block < 1 cell)" if not r["feasible"]
                                                             else "  (not divisible)")
        print(f"{r['n']:>5}^3 {r['gpus']:>4} {r['mesh']:>8} {r['dtype']:>7} {r['block']:>14} {r['links']:>13} "
              f"{r['halo_bytes_per_step_per_gpu'] / 1e6:8.2f} {r['t_comp_us']:9.1f} {r['t_comm_us']:9.1f} "
              f"{r['efficiency']:5.2f} {r['ib50_efficiency']:8.2f} {r['overlap_efficiency']:7.2f}{note}")


def check_model_args(ap, args) -> None:
    """The model's assumptions, one line each (a zero bandwidth or gpus_per_node was a ZeroDivisionError or TypeError
    traceback, a negative fraction negative times in the table)."""
    for k in MODEL_DEFAULTS:  # (nan passed every comparison: a table of nan; not `v < 0` but `not v >= 0`)
        v, opt = getattr(args, k), "--" + k.replace("_", "-")
        if k == "roofline_fraction" and not 0 < v <= 1:
            ap.error(f"{opt} = {v}: expected a fraction > 0 and <= 1")
        if k.startswith("latency") and not 0 <= v < math.inf:
            ap.error(f"{opt} = {v}: expected a number >= 0")
        if not k.startswith("latency") and not 0 < v < math.inf:
            ap.error(f"{opt} = {v}: expected a number > 0")


def model_main(args) -> int:
    params = {k: getattr(args, k) for k in MODEL_DEFAULTS}
    rows = model_table(**params)
    print_model(rows, params)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        keys = ["lattice", "n", "gpus", "decomposition", "mesh", "dtype", "block", "feasible", "divisible",
                "node_submesh", "links", "halo_bytes_per_step_per_gpu", "halo_fraction_of_populations", "t_comp_us",
                "t_comm_us", "efficiency", "ib50_efficiency", "overlap_efficiency", "mlups_per_gpu"]
        with open(out / "model.csv", "w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=keys, extrasaction="ignore")
            w.writeheader()
            for r in rows:
                w.writerow({k: _round(r[k]) for k in keys})
        (out / "model.json").write_text(json.dumps({"assumptions": params, "rows": rows}, indent=1) + "\n")
        print(f"wrote {out / 'model.csv'}, {out / 'model.json'}")
    return 0


# ---------------------------------------------------------------------------------------------------
def build_parser():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "),
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--mode", default="both", choices=("weak", "strong", "both"),
                    help="weak (--cells-per-device per device), strong (one --size lattice) or both (default: both)")
    ap.add_argument("--devices", default="1,2,4,8", help="device counts (default: 1,2,4,8)")
    ap.add_argument("--meshes", default="", help="meshes per device count, e.g. 8:8x1x1,4:4x1x1 (default: chosen)")
    ap.add_argument("--lattice", default="D3Q19", help="velocity set: D2Q9, D3Q19 or D3Q27 (default: D3Q19)")
    ap.add_argument("--cells-per-device", type=int, default=64,
                    help="weak scaling: cells per side of each device's block (default: 64)")
    ap.add_argument("--size", type=int, default=128,
                    help="strong scaling: cells per side of the lattice (default: 128)")
    ap.add_argument("--steps", type=int, default=10, help="timed steps per repetition (default: 10)")
    ap.add_argument("--repeat", type=int, default=3, help="timed repetitions: mlups is the median one's (of an "
                    "even count the slower middle one), mlups_all every one's; 2 or more give the halo time's noise figure "
                    "(default: 3)")
    ap.add_argument("--dtype", default="float32", help="storage: float32, float64, float16 or bfloat16 (16-bit "
                    "storage computes in float32) (default: float32)")
    ap.add_argument("--collision", default="bgk", help="collision operator: bgk, trt or regularized (default: bgk)")
    ap.add_argument("--launcher", default="local",
                    help="local, mpiexec, srun, or a comma-separated list (default: local)")
    ap.add_argument("--comm", default="jax", choices=("jax", "mpi"),
                    help="exchange backend across processes (default: jax)")
    ap.add_argument("--devices-per-process", type=int, default=1, help="mpiexec/srun: devices per process (default: 1)")
    ap.add_argument("--launcher-args", default="",
                    help="extra arguments for mpiexec/srun, one word with '=' (argparse takes a separate value that "
                    "starts with '-' for an option): e.g. --launcher-args=--ntasks-per-node=4 or "
                    "--launcher-args='--gpus-per-task=1 --mpi=pmix' (a task shown one GPU takes it; one shown the "
                    "node's takes its local rank's, README)")
    ap.add_argument("--mpiexec", default="", help="mpiexec to use (default: the venv's, else PATH)")
    ap.add_argument("--srun", default="srun", help="srun to use (default: srun)")
    ap.add_argument("--bandwidth-gbps", type=float, default=0.0,
                    help="memory bandwidth per device (GPU) or per host (CPU) in GB/s instead of measuring it")
    ap.add_argument("--no-halo-timing", action="store_true", help="skip the wrap run (the same step without its "
                    "communication) that times the exchange")
    ap.add_argument("--no-force-cpu", action="store_true", help="do not set XLA_FLAGS forced host devices")
    ap.add_argument("--no-plots", action="store_true", help="write the CSV and JSON only, no scaling.png")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per point (default: 900)")
    ap.add_argument("--out", default="out/scaling", help="folder of scaling.csv, .json and .png (default: "
                    "out/scaling; --model writes model.csv and .json there only where --out is given)")
    ap.add_argument("--append", action="store_true",
                    help="merge with the points already in DIR/scaling.json (e.g. another launcher's run; of the same "
                    "lattice, dtype, collision, --size, --cells-per-device, --comm and --devices-per-process)")
    ap.add_argument("--replot", action="store_true", help="only rewrite DIR's CSV and plot from DIR/scaling.json")
    ap.add_argument("--model", action="store_true", help="print (and with --out write) the halo-traffic model")
    for k, v in MODEL_DEFAULTS.items():
        ap.add_argument("--" + k.replace("_", "-"), dest=k, type=type(v), default=v, help=f"model: default {v}")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--shape", default="", help=argparse.SUPPRESS)
    ap.add_argument("--mesh", default="", help=argparse.SUPPRESS)
    return ap


def check_python(ap) -> None:
    """A Python without JAX (`scripts/scaling.py` as docs/scaling.md writes it runs the first python3 on PATH, not
    the project's environment): one line with the way to run it (a ModuleNotFoundError traceback from
    distlbm.parallel before). The model and --replot need no JAX."""
    import importlib

    try:
        importlib.import_module("jax")
    except ImportError as e:
        venv = REPO / ".venv" / "bin" / "python"
        how = f"{venv} {Path(__file__).resolve()}" if venv.exists() else "the Python of distlbm's environment"
        ap.error(f"this Python ({sys.executable}) cannot import JAX ({e}); expected the environment distlbm is "
                 f"installed in: run {how} ..., or activate it first")


def check_args(ap, args) -> None:
    """One clear line (argparse's error, exit 2) for a bad option, before any point runs (a traceback, or a point
    that failed with ZeroDivisionError while the script exited 0, before)."""
    from distlbm.lattice import get_lattice

    from distlbm.config import DTYPES
    from distlbm.physics.collision import KINDS

    try:
        get_lattice(args.lattice)
    except (ValueError, KeyError):
        ap.error(f"--lattice = {args.lattice!r}: expected D2Q9, D3Q19 or D3Q27")
    # (every point failed in its worker, one after another, and the study ended with no figure)
    for key, value, allowed in (("--collision", args.collision, KINDS), ("--dtype", args.dtype, DTYPES)):
        if value not in allowed:
            ap.error(f"{key} = {value!r}: expected {', '.join(allowed[:-1])} or {allowed[-1]}")
    if not args.replot:  # what every worker reads of the study's environment, which each inherits (each point an
        # error row of the same line, one after another, and exit 1): the start-up's variables, the step's switches
        from distlbm.parallel.processes import start_variables
        from distlbm.stepper import check_switches

        try:
            start_variables()
            check_switches()
        except ValueError as e:  # (ConfigError is a ValueError)
            ap.error(str(e))
    if not 0 <= args.bandwidth_gbps < math.inf:  # (taken as given: negative or nan roofline figures)
        ap.error(f"--bandwidth-gbps = {args.bandwidth_gbps}: expected GB/s > 0 (or 0: measure it)")
    try:
        devices = [int(v) for v in args.devices.split(",") if v.strip()]
    except ValueError:
        devices = []
    if not devices or min(devices) < 1:
        ap.error(f"--devices = {args.devices!r}: expected device counts >= 1, e.g. 1,2,4,8")
    twice = next((n for i, n in enumerate(devices) if n in devices[:i]), None)
    if twice:  # (measured once, unsaid: a typo of another count, 1,2,2 for 1,2,4)
        ap.error(f"--devices = {args.devices!r}: {twice} is given twice; expected each device count once")
    given = {}  # device count -> its mesh
    for item in filter(None, (args.meshes or "").split(",")):
        k, _, v = item.partition(":")
        try:
            n, sizes = int(k), [int(m) for m in v.lower().split("x")]
        except ValueError:
            n, sizes = 0, []
        if not sizes or min(sizes) < 1 or math.prod(sizes) != n:
            ap.error(f"--meshes = {args.meshes!r}: {item!r} is not COUNT:MESH with the mesh's devices making COUNT; "
                     f"expected e.g. 8:8x1x1,4:2x2x1")
        if n in given and given[n].lower() != v.lower():  # (the last taken, the first unsaid)
            ap.error(f"--meshes = {args.meshes!r}: {n} devices are given two meshes ({given[n]} and {v}); expected "
                     f"one mesh per device count")
        given[n] = v
        if n not in devices:  # (ignored unsaid: a typo, 6:... for 8 devices, ran the 8 on distlbm's own mesh)
            ap.error(f"--meshes = {args.meshes!r}: {n} devices is no count of --devices {args.devices}; expected "
                     f"meshes for counts of --devices")
    try:  # (a ValueError traceback from shlex once the launcher's first point was to start)
        shlex.split(args.launcher_args or "")
    except ValueError as e:
        ap.error(f"--launcher-args = {args.launcher_args!r}: {e}; expected the launcher's options as a shell would "
                 f"split them")
    for key in ("cells_per_device", "size", "steps", "repeat", "devices_per_process"):
        if getattr(args, key) < 1:
            ap.error(f"--{key.replace('_', '-')} = {getattr(args, key)}: expected at least 1")
    if not args.timeout > 0:  # (nan passed `<= 0`: the point's subprocess.run(timeout=nan))
        ap.error(f"--timeout = {args.timeout}: expected seconds > 0")
    spread = [s.strip() for s in args.launcher.split(",") if s.strip() not in ("", "local")]
    if spread and args.comm == "mpi" and args.devices_per_process != 1 and not args.replot:
        # (each point failed in its worker: 'mesh = 2x1x1 has 2 blocks; expected one per MPI rank')
        ap.error(f"--devices-per-process = {args.devices_per_process}: --comm mpi runs one device per process; "
                 f"expected 1 (or --comm jax)")
    uneven = [n for n in devices if n % args.devices_per_process]
    if spread and uneven and not args.replot:  # (the point's error row at the end, the others' efficiency off it)
        ap.error(f"--devices-per-process = {args.devices_per_process}: {uneven[0]} devices (--devices {args.devices}) "
                 f"do not split into processes of {args.devices_per_process} devices under --launcher {spread[0]}; "
                 f"expected device counts that are multiples of it")
    if args.mode in ("strong", "both") and not args.replot:
        check_strong_size(ap, args, devices)
    named = [s.strip() for s in args.launcher.split(",") if s.strip()]
    twice = next((x for i, x in enumerate(named) if x in named[:i]), None)
    if twice:  # (each of its points ran twice, the second replacing the first)
        ap.error(f"--launcher = {args.launcher!r}: {twice!r} is given twice; expected each launcher once")
    for launcher in named:
        if launcher not in ("local", "mpiexec", "srun"):
            ap.error(f"--launcher = {args.launcher!r}: {launcher!r} is not a launcher; expected local, mpiexec or "
                     f"srun, or a comma-separated list of them")
        # a launcher that is not there: said before any point runs (a traceback after the local points, which
        # were lost with it)
        prog, opt = (_mpiexec(args), "--mpiexec") if launcher == "mpiexec" else (args.srun, "--srun")
        if launcher != "local" and not args.replot and shutil.which(prog) is None:
            ap.error(f"--launcher {launcher}: {prog!r} is not an executable found here (PATH or a path); expected "
                     f"{launcher} installed, or {opt} PATH")
    if "local" in (s.strip() for s in args.launcher.split(",")) and not args.replot:
        check_local_devices(ap, args)
    if args.replot and not (Path(args.out) / "scaling.json").is_file():
        ap.error(f"--replot: no {Path(args.out) / 'scaling.json'} (--out is the folder of an earlier measurement)")
    if args.replot:
        read_study(ap, "--replot", Path(args.out) / "scaling.json")
    if args.append and not args.replot and (Path(args.out) / "scaling.json").is_file():
        check_append(ap, args, read_study(ap, "--append", Path(args.out) / "scaling.json"))
    if not args.append and not args.replot and (Path(args.out) / "scaling.json").is_file():
        check_earlier_study(ap, args)
    check_out(ap, args)


def read_study(ap, opt: str, path: Path) -> dict:
    """An earlier study's scaling.json (--append, --replot), or one line where it is none (a file cut off, another
    program's JSON): a JSONDecodeError, AttributeError or TypeError traceback before."""
    try:
        data = json.loads(path.read_text())
        ok = (isinstance(data, dict) and isinstance(data.get("meta"), dict) and isinstance(data.get("points"), list)
              and all(isinstance(r, dict) for r in data["points"]))
        why = "" if ok else "no 'meta' object and 'points' list of points"
    except (OSError, ValueError) as e:  # (UnicodeDecodeError and JSONDecodeError are ValueErrors)
        why = str(e)
    if why:
        ap.error(f"{opt}: {path} is not a scaling study's file ({why}); expected the scaling.json a study wrote, or "
                 f"another --out")
    return data


def check_out(ap, args) -> None:
    """--out is written after every point and by --replot: a folder that cannot be made or written (a file of that
    name, no permission, a read-only file system) is one line before any point runs (a NotADirectoryError or
    PermissionError traceback once the first point was measured, which was lost with it)."""
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):  # (unnamed where the file system can: a kill leaves nothing)
            pass
    except OSError as e:
        ap.error(f"--out = {args.out!r}: {e.strerror or e}{f' ({e.filename})' if e.filename else ''}; expected a "
                 f"folder this study can write its files in")


def check_earlier_study(ap, args) -> None:
    """A study into the folder of an earlier one (the default out/scaling: a weak study, then a strong one) rewrote
    scaling.json with its own points alone at its first point: the earlier points were lost unsaid. Refused before any
    point runs where the earlier file holds points; --append merges them."""
    path = Path(args.out) / "scaling.json"
    try:
        old = json.loads(path.read_text())
        points, when = len(old.get("points") or []), (old.get("meta") or {}).get("date")
    except (OSError, ValueError, AttributeError):  # not a study's file: it is rewritten, as before
        return
    if points:
        ap.error(f"--out = {args.out!r}: {path} holds an earlier study's {points} point{'s' if points > 1 else ''}"
                 + (f" ({when})" if when else "") + "; expected --append to add this run's points to them, another "
                 "--out, or that file removed first (to measure the study anew)")


def _strong_splits(size: int, d: int, devices: list, meshes: dict):
    """The first device count whose mesh (given in --meshes, else distlbm's) does not split the size^d lattice of
    strong scaling, and that mesh ('' where none of that count splits it); None where every one splits it."""
    from distlbm.parallel.mesh import _best_mesh, parse_mesh

    for n in devices:
        try:
            mesh = parse_mesh(meshes[n], d) if n in meshes else _best_mesh(n, (size,) * d)
        except ValueError:  # a mesh of other axes than the lattice's: the point's own line says so
            continue
        if mesh is None or any(size % m for m in mesh):
            return n, "" if mesh is None else fmt(mesh)
    return None


def check_strong_size(ap, args, devices: list) -> None:
    """A --size that some device count's mesh does not split, refused before any point runs: the points before it
    ran (minutes each on an allocation) and that one ended as an error row of the table at the end."""
    from distlbm.lattice import get_lattice

    d = get_lattice(args.lattice).d
    meshes = {int(k): v for k, _, v in (m.partition(":") for m in filter(None, (args.meshes or "").split(",")))}
    bad = _strong_splits(args.size, d, devices, meshes)
    if bad is None:
        return
    n, mesh = bad
    fits = next((s for s in range(args.size + 1, 64 * args.size + 1) if _strong_splits(s, d, devices, meshes) is None),
                None)
    how = f"over the mesh {mesh} (--meshes)" if n in meshes else f"evenly over {n} devices"
    ap.error(f"--size = {args.size}: strong scaling's {fmt((args.size,) * d)} lattice does not split {how}; expected a "
             f"size that every device count of --devices {args.devices} splits"
             + (f", e.g. {fits}" if fits else "") + " (or --mode weak)")


def check_append(ap, args, old: dict) -> None:
    """--append merges points into one series per (mode, launcher), each point's efficiency taken against the
    series' smallest run: points of another lattice, dtype, collision, block (weak), size (strong) or exchange
    (--comm) were merged unsaid (a strong series of --size 64 over a 1-device run of --size 32) and replaced points
    of the same devices; and of another --devices-per-process under the same launcher. Refused before any point
    runs."""
    from distlbm.lattice import get_lattice

    d = get_lattice(args.lattice).d
    meta, points = old.get("meta", {}), [r for r in old.get("points", []) if r.get("mlups")]
    modes = {"weak", "strong"} if args.mode == "both" else {args.mode}
    launchers = {s.strip() for s in args.launcher.split(",") if s.strip()}
    said = {("--lattice", meta.get("lattice"), args.lattice), ("--dtype", meta.get("dtype"), args.dtype),
            ("--collision", meta.get("collision"), args.collision)}
    for r in points:
        said |= {("--lattice", r.get("lattice"), args.lattice), ("--dtype", r.get("dtype"), args.dtype)}
        if r.get("mode") == "weak" and "weak" in modes and r.get("cells_per_device") != args.cells_per_device ** d:
            side = round(r["cells_per_device"] ** (1 / d))
            said.add(("--cells-per-device", side if side ** d == r["cells_per_device"] else r["cells_per_device"],
                      args.cells_per_device))
        if r.get("mode") == "strong" and "strong" in modes and r.get("shape") != fmt((args.size,) * d):
            sides = set(str(r.get("shape")).split("x"))
            cube = len(sides) == 1 and r["shape"].count("x") == d - 1
            said.add(("--size", int(sides.pop()) if cube else r.get("shape"), args.size))
        if r.get("launcher") in launchers - {"local"} and r.get("comm", args.comm) != args.comm:
            said.add(("--comm", r.get("comm"), args.comm))
        # processes of other sizes in one series (its baseline perhaps of the other's)
        if r.get("launcher") in launchers - {"local"} and r.get("processes") and r.get("devices"):
            per = r["devices"] // r["processes"]
            if per != args.devices_per_process:
                said.add(("--devices-per-process", per, args.devices_per_process))
    for opt, was, val in sorted(said, key=str):
        if was is not None and was != val:
            ap.error(f"--append: {Path(args.out) / 'scaling.json'} holds points of {opt} {was}, this run's is {val}: "
                     f"their efficiencies would be taken against each other's; expected the same {opt}, or another "
                     f"--out")


def main(argv=None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if args.worker:
        from distlbm.errors import ConfigError
        from distlbm.parallel.mesh import DecompositionError

        try:
            return worker(args)
        except (DecompositionError, ConfigError, ValueError) as e:  # the point's one line, not a traceback's tail
            print(f"{ERROR_MARK}{e}", file=sys.stderr, flush=True)
            return 2
    if not args.model and not args.replot:
        check_python(ap)
    if not args.model:
        check_args(ap, args)
    if args.model:
        check_model_args(ap, args)
        if args.out == "out/scaling" and "--out" not in (argv or sys.argv):
            args.out = ""
        return model_main(args)
    if args.replot:
        return replot(args)
    try:
        return measure(args)
    except KeyboardInterrupt:  # Ctrl-C (a KeyboardInterrupt traceback from subprocess's wait; the points were kept)
        return interrupted(args)


def interrupted(args) -> int:
    """Ctrl-C in the middle of a series: one line that says what was kept (the files are written after every point,
    meta complete false) and how to go on, exit 130 as a shell's Ctrl-C; the point under way is dropped (its
    worker is killed by subprocess.run)."""
    path = Path(args.out) / "scaling.json"
    try:
        data = json.loads(path.read_text())
        n = len([r for r in data["points"] if r.get("mlups")])
        cut = " (meta complete false)" if data["meta"].get("complete") is False else ""  # (--append's earlier file,
        # before this run's first point was written, is as the earlier study left it)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        n = 0
    kept = (f"{n} measured point{'s are' if n != 1 else ' is'} kept in {path}{cut}: --replot "
            f"--out {args.out} draws them, --append adds points to them" if n else "no point was measured")
    print(f"scaling.py: interrupted (SIGINT) during the study; {kept}", file=sys.stderr, flush=True)
    return 130


if __name__ == "__main__":
    sys.exit(main())
