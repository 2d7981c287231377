"""`distlbm bench`: MLUPS, bytes per cell and peak memory of a periodic box after warm-up, and the
memory bandwidth of the device (a STREAM-like copy) with the roofline it implies for the lattice."""

from __future__ import annotations

import json
import math
import os
import resource
import statistics
from functools import partial
import sys
import time

import numpy as np

from distlbm.errors import said_int
from distlbm.lattice import get_lattice
from distlbm.memory import check_fits, itemsize, memory_estimate  # noqa: F401  (re-exported)


def default_copy_bytes(platform: str) -> int:
    """Array size of the bandwidth measurement: well beyond any cache (CPU L3, GPU L2)."""
    return (256 << 20) if platform == "cpu" else (2 << 30)


def measure_bandwidth(device=None, nbytes: int | None = None, repeat: int = 7, calls: int = 4) -> float:
    """Memory bandwidth of `device` (default: the first device) in bytes/s, STREAM-like.

    A jitted scale `y = s * x` of a float32 array of `nbytes` (s a runtime scalar, so nothing is folded;
    the input is donated, so the output reuses its buffer) reads and writes the array once: 2 * nbytes
    per call. The median of `repeat` timings of `calls` chained calls after a warm-up call. The array is
    freed before returning.
    """
    import jax
    import jax.numpy as jnp

    device = device or jax.devices()[0]
    nbytes = int(nbytes or default_copy_bytes(device.platform))
    n = max(1, nbytes // 4)

    @partial(jax.jit, donate_argnums=0)
    def scale(x, s):
        return x * s

    with jax.default_device(device):
        x = jax.jit(lambda: jnp.ones((n,), jnp.float32))()
        s = jnp.float32(1.0)  # exact: the values never change, so repeated calls stay finite
        x = scale(x, s)
        x.block_until_ready()
        times = []
        for _ in range(max(1, repeat)):
            t = time.perf_counter()
            for _ in range(max(1, calls)):
                x = scale(x, s)
            x.block_until_ready()
            times.append((time.perf_counter() - t) / max(1, calls))
        del x
    return 2 * n * 4 / statistics.median(times)


def roofline_mlups(bandwidth_bytes_per_s: float, lattice, dtype: str) -> float:
    """The memory-bound ceiling: every cell update reads and writes its Q populations once."""
    return bandwidth_bytes_per_s / (2 * lattice.q * itemsize(dtype)) / 1e6


def host_name() -> str:
    """This process's host (its processes share one memory bandwidth)."""
    return os.uname().nodename


def peak_rss_bytes() -> int:
    """High-water mark of this process's resident memory: VmHWM of /proc/self/status on Linux. (Not
    getrusage's ru_maxrss: Linux carries that over exec from the image that spawned the process, so a
    bench started by a large parent, e.g. a test runner, would report the parent's peak.)"""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux


def rss_bytes() -> int:
    """This process's resident memory now (VmRSS), 0 where /proc is not there."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run_bench(lattice_name="D3Q19", size=128, steps=20, repeat=3, dtype="float32", compute_dtype=None,
              collision="bgk", mesh: str | None = None, bandwidth_bytes: int | None = None,
              step: str = "auto") -> dict:
    """Time `steps` steps `repeat` times on a periodic box (median MLUPS), record the peak memory, then
    free the lattice and measure the memory bandwidth (`measure_bandwidth`, array of `bandwidth_bytes`;
    0: skip) for the roofline. Keys: see the returned dict."""
    import jax
    import jax.numpy as jnp

    from distlbm.parallel.domain import LocalDomain
    from distlbm.physics.collision import Collision
    from distlbm.physics.equilibrium import equilibrium_deviation
    from distlbm.parallel import make_advance
    from distlbm.stepper import Cells, Model, State, predicted_bytes_per_cell

    from distlbm.config import default_compute_dtype

    compute_dtype = compute_dtype or default_compute_dtype(dtype)
    if "float64" in (dtype, compute_dtype):
        jax.config.update("jax_enable_x64", True)
    lat = get_lattice(lattice_name)
    shape = (size,) * lat.d
    # before anything is allocated: a lattice too large for the devices is one clear error
    if mesh:
        from distlbm.parallel.mesh import parse_mesh

        mesh_shape = parse_mesh(mesh, lat.d, "--mesh")  # (bench takes its mesh from the option alone)
        devices = [dv for dv in jax.devices()[: math.prod(mesh_shape)] if dv.process_index == jax.process_index()]
    else:
        mesh_shape, devices = None, jax.devices()[:1]
    check_fits(lat, shape, dtype, compute_dtype, None, mesh_shape, devices, what="bench: ")
    model = Model(lat, Collision(collision, 0.8), dtype=dtype, compute_dtype=compute_dtype)
    if mesh:
        from distlbm.parallel.mesh import MeshDomain, halo_bytes_per_step, parse_mesh

        dom = MeshDomain(shape, parse_mesh(mesh, lat.d))
        halo = halo_bytes_per_step(lat.c, shape, dom.mesh_shape, itemsize(dtype))
    else:
        dom = LocalDomain(shape)
        halo = 0

    @partial(jax.jit, out_shardings=dom.sharding(lat.d + 1))
    def init_():  # a smooth shear field, built on the device without host copies
        cdt = jnp.dtype(compute_dtype)
        x = jnp.arange(size, dtype=cdt) * (2 * math.pi / size)
        ux = 0.01 * jnp.sin(x).reshape((1, size) + (1,) * (lat.d - 2))
        ux = jnp.broadcast_to(ux, shape)
        u = (ux,) + tuple(jnp.zeros(shape, cdt) for _ in range(lat.d - 1))
        return equilibrium_deviation(jnp.zeros(shape, cdt), u, lat).astype(dtype)

    from distlbm.stepper import step_path

    try:
        path, why = step_path(model, step, key="--step")
    except ValueError as e:  # step = 'pallas' where the kernel does not cover the model: one line, as the run
        from distlbm.cases.base import ConfigError

        raise ConfigError(str(e)) from None
    from distlbm.stepper import step_form

    why = f"{why}; {step_form(model, path, shape, dom.mesh_shape)}"
    advance = make_advance(model, dom, path=path)
    cells = Cells()
    # XLA's view of the traffic, compiled before the lattice exists so that the compiler's own memory
    # does not add to the measured peak of the run
    xla_bytes = None
    try:
        local_shape = (lat.q,) + tuple(n // m for n, m in zip(shape, dom.mesh_shape or (1,) * lat.d))
        from distlbm.physics.streaming import periodic_exchange
        from distlbm.stepper import make_step

        block_step = make_step(model, periodic_exchange, path=path)  # one device's block, its faces wrapped
        compiled = jax.jit(block_step).lower(jax.ShapeDtypeStruct(local_shape, jnp.dtype(dtype)), cells).compile()
        ca = compiled.cost_analysis()
        ca = ca[0] if isinstance(ca, (list, tuple)) else ca
        xla_bytes = float(ca.get("bytes accessed", float("nan"))) / math.prod(local_shape[1:])
    except Exception:  # cost analysis is informational; some backends do not provide it
        pass
    baseline = rss_bytes()  # the process before the lattice: Python, JAX, XLA (the peak RSS holds them too)
    state = State(init_(), dom.replicate(np.zeros((), np.int32)))
    t0 = time.perf_counter()
    state = advance(state, cells, jnp.int32(1))  # compile + warm-up
    jax.block_until_ready(state.f)
    compile_s = time.perf_counter() - t0
    times = []
    for _ in range(max(1, repeat)):
        dom.barrier()  # every process starts the repetition together (a no-op on one process)
        t = time.perf_counter()
        state = advance(state, cells, jnp.int32(steps))
        jax.block_until_ready(state.f)
        times.append(time.perf_counter() - t)
    # a repetition lasts until its slowest process is done: each one's time is the longest of the processes' (the
    # report was process 0's own, which a slower process did not move; scripts/scaling.py takes the slowest too)
    times = [max(ts) for ts in zip(*dom.allgather_obj(times))]
    cells_count = math.prod(shape)
    mlups = [cells_count * steps / t / 1e6 for t in times]
    # the median repetition's rate; of an even count the slower middle one's, a repetition measured (as
    # scripts/scaling.py takes it): the mean of the two middle rates was no entry of mlups_all, and the two tools
    # gave different figures for the same timings
    median = cells_count * steps / statistics.median_high(times) / 1e6
    est = memory_estimate(lat, shape, dtype, compute_dtype)
    # of one device's block: what a device's peak (peak_memory_bytes on a GPU) compares with
    block = tuple(n // m for n, m in zip(shape, dom.mesh_shape)) if mesh else shape  # (the mesh splits the lattice)
    est_device = memory_estimate(lat, block, dtype, compute_dtype) if mesh else est
    dev = jax.local_devices()[0]  # this process's (memory statistics and bandwidth are measured here)
    device_peak = None
    try:
        stats = dev.memory_stats() or {}
        device_peak = stats.get("peak_bytes_in_use")
    except Exception:
        pass
    peak = peak_rss_bytes()
    del state
    # after the peak is recorded and the lattice is freed: the copy's arrays do not count as the run's
    bandwidth = roof = fraction = None
    if bandwidth_bytes != 0 and dev.platform != "cpu":  # accelerators: each its own memory, their rooflines add up
        bandwidth = measure_bandwidth(dev, bandwidth_bytes)
        roof = roofline_mlups(bandwidth, lat, dtype) * dom.n_devices
        fraction = median / roof
    elif bandwidth_bytes != 0:
        # forced CPU devices and the processes on one host share its memory: process 0 measures alone (the others
        # wait; copies at once in every process halved its figure) and the roofline is its host's times the hosts
        # (one host's, the MLUPS of several hosts over it, made the fraction that many times too large)
        dom.barrier()
        bandwidth = measure_bandwidth(dev, bandwidth_bytes) if jax.process_index() == 0 else None
        hosts = len(set(dom.allgather_obj(host_name())))
        if bandwidth is not None:
            roof = roofline_mlups(bandwidth, lat, dtype) * hosts
            fraction = median / roof
    return {
        "lattice": lat.name,
        "size": size,
        "shape": list(shape),
        "cells": cells_count,
        "steps": steps,
        "repeat": len(times),
        "dtype": dtype,
        "compute_dtype": compute_dtype,
        "collision": collision,
        "devices": dom.n_devices,
        "processes": jax.process_count(),
        "mesh": list(dom.mesh_shape) if mesh else [1] * lat.d,
        "mlups_per_device": median / dom.n_devices,
        "halo_bytes_per_step_per_device": halo,
        "population_bytes_per_device": est["population_bytes"] // dom.n_devices,
        "platform": dev.platform,
        "mlups": median,
        "mlups_all": mlups,
        "compile_s": compile_s,
        "bytes_per_cell": predicted_bytes_per_cell(model),
        "xla_bytes_per_cell": xla_bytes,
        "population_bytes": est["population_bytes"],
        "peak_memory_bytes": int(device_peak) if device_peak else peak,
        "peak_rss_bytes": peak,
        "baseline_rss_bytes": baseline,
        # over the populations that memory held: one device's block (a device's peak), or this process's blocks
        # (its RSS); the whole lattice's made a 2x2x2 GPU mesh read 8x too small
        "peak_over_population": (int(device_peak) if device_peak else peak) / (
            est["population_bytes"] / dom.n_devices * (1 if device_peak else dom.n_devices / jax.process_count())),
        # distlbm.memory's prediction, which the pre-flight checks: of the whole lattice and of one device's block
        # (peak_memory_bytes is one device's on a GPU); estimated_bytes, the whole lattice's, kept for old readers
        "estimated_bytes": est["total_bytes"],
        "estimated_bytes_whole_lattice": est["total_bytes"],
        "estimated_bytes_per_device": est_device["total_bytes"],
        "bandwidth_bytes_per_s": bandwidth,
        "roofline_mlups": roof,
        "roofline_fraction": fraction,
        "device_kind": dev.device_kind,
        "step": path,
        "step_reason": why,
    }


def bench_split_named(error, size: int, mesh: str | None, d: int) -> str:
    """A mesh's error in bench's own options (as config.mesh_split_named says a run's): 'mesh = 4x1x1 needs 4
    devices' and 'lattice 15x15x15 cannot be split evenly over 2 devices' named neither --mesh nor --size, the two
    options a scaling study's bench changes; the nearest sizes that split where the size was the trouble."""
    text = str(error)
    if text.startswith("mesh = "):
        return f"--{text}"
    hint = ""
    fits = getattr(error, "fits", None)
    if fits is not None and "sizes that would work" not in text:  # (a given mesh's error names them)
        found = [n for k in range(1, 65) for n in (size - k, size + k) if n > 0 and fits((n,) * d)][:2]
        hint = f"; --size {' or '.join(map(str, sorted(found)))} splits" if found else ""
    return f"{f'--mesh = {mesh!r}, --size = {size}' if mesh else f'--size = {size}'}: {text}{hint}"


def _as_given(value: float) -> str:
    """A number option's value as the user gave it: %g where that is the same number (600, 1e+12), else its shortest
    exact form (99999999, not %g's 1e+08; 12345.678, not 12345.7)."""
    short = f"{value:g}"
    if float(short) == value:
        return short
    text = repr(value)
    return text[:-2] if text.endswith(".0") else text


def check_copy_fits(mib: float, nbytes: int, device=None, error=None) -> None:
    """--bandwidth-mib's copy (`nbytes`) against the memory it is made in: `device`'s (memory.available_memory), or
    this host's where None (CPU devices, read before they start); `error`: the ConfigError class it raises."""
    from distlbm import memory
    from distlbm.cases.base import ConfigError

    avail, source = (memory.host_available() if device is None else
                     memory._available(memory.available_memory, device))
    if avail is not None and nbytes > memory.usable(avail):
        raise (error or ConfigError)(
            f"--bandwidth-mib = {_as_given(mib)}: the copy's array of {memory.fmt_bytes(nbytes)} does not fit in the "
            f"{memory.fmt_bytes(memory.usable(avail))} usable on this device ({source}); expected at most "
            f"{memory.usable(avail) >> 20} MiB (0: skip)")


def copy_checked_before_start(mib: float, nbytes: int) -> bool:
    """Check --bandwidth-mib's copy before the processes meet at the start, as another setting (cmd_bench), where the
    memory it is made in can be read then: a single process's device (nothing waits on its start), and under several
    processes on CPU devices the host's, by process 0, which alone makes the copy there (run_bench). False where it
    cannot (a device of one of several processes, which starts after jax.distributed): checked after the start."""
    from distlbm.parallel.processes import env_rank, launcher, platform_before_start

    if launcher()[1] == 1:
        import jax

        check_copy_fits(mib, nbytes, jax.local_devices()[0])
        return True
    if platform_before_start() != "cpu":
        return False
    if env_rank() == 0:
        check_copy_fits(mib, nbytes)
    return True


REPEAT_MAX = 10 ** 6  # timed repetitions of bench (a median of a few is the figure; a benchmark takes far fewer)


def cmd_bench(args) -> int:
    from distlbm.cases.base import ConfigError
    from distlbm.config import DTYPES, check_compute_dtype
    from distlbm.physics.collision import KINDS

    for key, val, ok in (("--dtype", args.dtype, DTYPES), ("--collision", args.collision, KINDS)):
        if val is not None and val not in ok:
            raise ConfigError(f"{key} = {val!r}: expected one of {', '.join(ok)}")
    if args.compute_dtype is not None:
        check_compute_dtype(args.compute_dtype, "--compute-dtype")
    # nan, inf, and 1e308 MiB (inf bytes): a traceback
    if args.bandwidth_mib is not None and not 0 <= args.bandwidth_mib * (1 << 20) < math.inf:
        raise ConfigError(f"--bandwidth-mib = {args.bandwidth_mib}: expected a size in MiB >= 0 and below "
                          f"{sys.float_info.max / (1 << 20):.3g} (0: skip)")
    try:
        get_lattice(args.lattice)
    except ValueError as e:
        raise ConfigError(f"--lattice = {args.lattice!r}: {e}") from None
    for key, val in (("--size", args.size), ("--steps", args.steps), ("--repeat", args.repeat)):
        if val <= 0:
            raise ConfigError(f"{key} = {said_int(val)}: expected a positive integer")
    from distlbm.config import check_size_cells

    d = get_lattice(args.lattice).d
    check_size_cells(said_int(args.size), f"{said_int(args.size)}^{d}", args.size ** d)
    if args.steps > 2 ** 31 - 1:  # the steps go to the step as an int32: an OverflowError traceback
        raise ConfigError(f"--steps = {said_int(args.steps)}: expected a positive integer at most {2 ** 31 - 1} "
                          f"(the step counter is int32)")
    if args.repeat > REPEAT_MAX:  # each repetition is timed in turn: --repeat 2**63 ran (practically) forever
        raise ConfigError(f"--repeat = {said_int(args.repeat)}: expected a positive integer at most {REPEAT_MAX} "
                          f"(timed repetitions, of which the median is reported)")
    bw = None if args.bandwidth_mib is None else int(args.bandwidth_mib * (1 << 20))
    from distlbm.parallel.mesh import DecompositionError
    from distlbm.parallel.processes import initialize, use_cpu_cores

    mesh = args.mesh
    if mesh is not None and not mesh.strip():  # --mesh '' ran on one device, unsaid (as `distlbm run` refuses it)
        from distlbm.config import empty_mesh

        raise empty_mesh(mesh, "--mesh")
    if mesh:  # on CPUs, as many devices as the mesh names (as `distlbm run --mesh` gets)
        from distlbm.config import check_mesh_spelling

        check_mesh_spelling(mesh, "--mesh")
        # before the CPU devices are made, as many as the mesh names: one that cannot split the lattice (100000x1x1)
        # aborted in JAX's CPU client (no thread left; 2**32: a TypeError traceback)
        from distlbm.parallel.mesh import check_divisible, parse_mesh

        d = get_lattice(args.lattice).d
        try:
            check_divisible((args.size,) * d, parse_mesh(mesh, d))
        except DecompositionError as e:
            raise ConfigError(bench_split_named(e, args.size, args.mesh, d)) from None
        use_cpu_cores("jax", mesh)
    # the copy's array on one device, before the lattice's timings (too large: a JAX traceback at the end), with the
    # other settings before the processes meet where its memory can be read then (it was found after: one process
    # alone that found it left, and the others waited for it in the bench)
    checked = not bw or copy_checked_before_start(args.bandwidth_mib, bw)
    from distlbm.cli import met_and_refused

    refused = met_and_refused("bench")  # several processes: another found an error in its settings or failed
    if refused:  # (said); none starts
        return refused
    procs = initialize("jax")  # under srun / mpiexec: one program over every process's devices
    if not checked:  # a device of one of several processes, read once they have started: the process that finds
        import jax  # it too small ends them all (InsufficientMemoryError, as the run's memory found after the start)

        from distlbm.memory import InsufficientMemoryError

        check_copy_fits(args.bandwidth_mib, bw, jax.local_devices()[0], InsufficientMemoryError)
    if procs["processes"] > 1 and not mesh:  # every device of every process, as `distlbm run` splits a lattice
        import jax

        from distlbm.parallel.mesh import factorize

        try:
            mesh = "x".join(map(str, factorize(jax.device_count(), (args.size,) * get_lattice(args.lattice).d)))
        except DecompositionError as e:
            raise ConfigError(bench_split_named(e, args.size, None, get_lattice(args.lattice).d)) from None
    try:
        r = run_bench(args.lattice, args.size, args.steps, args.repeat, args.dtype, args.compute_dtype,
                      args.collision, mesh, bw, step=args.step)
    except DecompositionError as e:
        raise ConfigError(bench_split_named(e, args.size, args.mesh, get_lattice(args.lattice).d)) from None
    # how its processes were started: a scaling study's series under srun and under mpirun told apart ("none": one)
    r["launcher"] = procs["launcher"]
    if procs["process_index"] != 0:  # one report, from process 0
        return 0
    from distlbm.info import provenance

    r.update(provenance())  # distlbm's and JAX's versions, the git commit: figures of two code states told apart
    if args.json:
        print(json.dumps(r))
        return 0
    procs = f" in {r['processes']} processes" if r["processes"] > 1 else ""
    print(f"{r['lattice']} {'x'.join(map(str, r['shape']))} {r['dtype']} storage, {r['compute_dtype']} compute, "
          f"{r['collision']} on {r['devices']} {r['platform']} device(s){procs}, mesh {'x'.join(map(str, r['mesh']))}; "
          f"step: {r['step']} ({r['step_reason']})")
    from distlbm.memory import fmt_bytes  # 1.5 GiB, 512 KiB: a small lattice is not "0.000 GiB"

    if r["devices"] > 1:
        print(f"  halo exchange: {fmt_bytes(r['halo_bytes_per_step_per_device'])} per step per device "
              f"(populations per device {fmt_bytes(r['population_bytes_per_device'])})")
    # per device beside the total: what a scaling study compares across device counts (it was in --json alone)
    print(f"  MLUPS (median of {r['repeat']} x {r['steps']} steps): {r['mlups']:.1f}"
          + (f" ({r['mlups_per_device']:.1f} per device)" if r["devices"] > 1 else "")
          + f"  [{', '.join(f'{m:.1f}' for m in r['mlups_all'])}]")
    xb = r["xla_bytes_per_cell"]
    print(f"  bytes per cell update: {r['bytes_per_cell']} minimum (read + write Q populations)"
          + (f", {xb:.0f} accessed per XLA cost analysis" if xb else ""))
    base = ""
    whose = ("it held" if r["devices"] == 1 else "of one device" if r["peak_memory_bytes"] != r["peak_rss_bytes"]
             else "of this process's blocks")
    if r["peak_memory_bytes"] == r["peak_rss_bytes"] and r.get("baseline_rss_bytes"):  # host memory: the process's
        base = f", {fmt_bytes(r['baseline_rss_bytes'])} of it the process before the lattice was made: Python, JAX, XLA"
    print(f"  populations {fmt_bytes(r['population_bytes'])}, peak memory {fmt_bytes(r['peak_memory_bytes'])} "
          f"({r['peak_over_population']:.2f}x the populations {whose}{base}; estimated "
          f"{fmt_bytes(r['estimated_bytes_whole_lattice'])} for the lattice"
          + (f", {fmt_bytes(r['estimated_bytes_per_device'])} per device)" if r["devices"] > 1 else ")"))
    if r["bandwidth_bytes_per_s"]:
        print(f"  memory bandwidth (copy): {r['bandwidth_bytes_per_s'] / 1e9:.1f} GB/s; roofline "
              f"{r['roofline_mlups']:.1f} MLUPS ({r['bytes_per_cell']} B per cell update); "
              f"MLUPS = {100 * r['roofline_fraction']:.1f} % of the roofline")
    sys.stdout.flush()
    return 0
