"""`distlbm bench`: MLUPS, bytes per cell and peak memory of a periodic box after warm-up."""

from __future__ import annotations

import json
import math
import resource
import statistics
from functools import partial
import sys
import time

import numpy as np

from distlbm.lattice import get_lattice


def peak_rss_bytes() -> int:
    """High-water mark of this process's resident memory (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def memory_estimate(lattice, shape, dtype="float32", compute_dtype=None) -> dict:
    """Predicted memory of a run: the populations, and a step's working set (populations twice plus
    the stacked moments)."""
    cells = math.prod(shape)
    item = np.dtype(dtype).itemsize
    citem = np.dtype(compute_dtype or dtype).itemsize
    pop = lattice.q * cells * item
    moments = (lattice.d + 1) * cells * citem
    return {"cells": cells, "population_bytes": pop, "step_working_set_bytes": 2 * pop + moments,
            "flags_bytes_per_cell_with_walls": 1 + 4 + (4 + 4 * lattice.d)}


def run_bench(lattice_name="D3Q19", size=128, steps=20, repeat=3, dtype="float32", compute_dtype=None,
              collision="bgk", mesh: str | None = None) -> dict:
    import jax
    import jax.numpy as jnp

    from distlbm.parallel.domain import LocalDomain
    from distlbm.physics.collision import Collision
    from distlbm.physics.equilibrium import equilibrium_deviation
    from distlbm.stepper import Cells, Model, State, make_advance, make_step, predicted_bytes_per_cell

    compute_dtype = compute_dtype or dtype
    if "float64" in (dtype, compute_dtype):
        jax.config.update("jax_enable_x64", True)
    lat = get_lattice(lattice_name)
    shape = (size,) * lat.d
    model = Model(lat, Collision(collision, 0.8), dtype=dtype, compute_dtype=compute_dtype)
    if mesh:
        from distlbm.parallel.mesh import MeshDomain, halo_bytes_per_step, parse_mesh

        dom = MeshDomain(shape, parse_mesh(mesh, lat.d))
        halo = halo_bytes_per_step(lat.c, shape, dom.mesh_shape, np.dtype(dtype).itemsize)
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

    step = make_step(model, dom.exchange)
    advance = make_advance(dom.map(step))
    cells = Cells()
    # XLA's view of the traffic, compiled before the lattice exists so that the compiler's own memory
    # does not add to the measured peak of the run
    xla_bytes = None
    try:
        local_shape = (lat.q,) + tuple(n // m for n, m in zip(shape, dom.mesh_shape or (1,) * lat.d))
        compiled = jax.jit(step).lower(jax.ShapeDtypeStruct(local_shape, jnp.dtype(dtype)), cells).compile()
        ca = compiled.cost_analysis()
        ca = ca[0] if isinstance(ca, (list, tuple)) else ca
        xla_bytes = float(ca.get("bytes accessed", float("nan"))) / math.prod(local_shape[1:])
    except Exception:  # cost analysis is informational; some backends do not provide it
        pass
    state = State(init_(), dom.replicate(np.zeros((), np.int32)))
    t0 = time.perf_counter()
    state = advance(state, cells, jnp.int32(1))  # compile + warm-up
    jax.block_until_ready(state.f)
    compile_s = time.perf_counter() - t0
    times = []
    for _ in range(max(1, repeat)):
        t = time.perf_counter()
        state = advance(state, cells, jnp.int32(steps))
        jax.block_until_ready(state.f)
        times.append(time.perf_counter() - t)
    cells_count = math.prod(shape)
    mlups = [cells_count * steps / t / 1e6 for t in times]
    est = memory_estimate(lat, shape, dtype, compute_dtype)
    dev = jax.devices()[0]
    device_peak = None
    try:
        stats = dev.memory_stats() or {}
        device_peak = stats.get("peak_bytes_in_use")
    except Exception:
        pass
    peak = peak_rss_bytes()
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
        "mesh": list(dom.mesh_shape) if mesh else [1] * lat.d,
        "mlups_per_device": statistics.median(mlups) / dom.n_devices,
        "halo_bytes_per_step_per_device": halo,
        "population_bytes_per_device": est["population_bytes"] // dom.n_devices,
        "platform": dev.platform,
        "mlups": statistics.median(mlups),
        "mlups_all": mlups,
        "compile_s": compile_s,
        "bytes_per_cell": predicted_bytes_per_cell(model),
        "xla_bytes_per_cell": xla_bytes,
        "population_bytes": est["population_bytes"],
        "peak_memory_bytes": int(device_peak) if device_peak else peak,
        "peak_rss_bytes": peak,
        "peak_over_population": (int(device_peak) if device_peak else peak) / est["population_bytes"],
    }


def cmd_bench(args) -> int:
    from distlbm.cases.base import ConfigError
    from distlbm.config import DTYPES
    from distlbm.physics.collision import KINDS

    for key, val, ok in (("--dtype", args.dtype, DTYPES), ("--compute-dtype", args.compute_dtype, DTYPES),
                         ("--collision", args.collision, KINDS)):
        if val is not None and val not in ok:
            raise ConfigError(f"{key} = {val!r}: expected one of {', '.join(ok)}")
    try:
        get_lattice(args.lattice)
    except ValueError as e:
        raise ConfigError(f"--lattice = {args.lattice!r}: {e}") from None
    for key, val in (("--size", args.size), ("--steps", args.steps), ("--repeat", args.repeat)):
        if val <= 0:
            raise ConfigError(f"{key} = {val}: expected a positive integer")
    r = run_bench(args.lattice, args.size, args.steps, args.repeat, args.dtype, args.compute_dtype, args.collision,
                  args.mesh)
    if args.json:
        print(json.dumps(r))
        return 0
    gib = 1024 ** 3
    print(f"{r['lattice']} {'x'.join(map(str, r['shape']))} {r['dtype']} {r['collision']} on {r['devices']} "
          f"{r['platform']} device(s), mesh {'x'.join(map(str, r['mesh']))}")
    if r["devices"] > 1:
        print(f"  halo exchange: {r['halo_bytes_per_step_per_device'] / 1e6:.3f} MB per step per device "
              f"(populations per device {r['population_bytes_per_device'] / 1e6:.1f} MB)")
    print(f"  MLUPS (median of {r['repeat']} x {r['steps']} steps): {r['mlups']:.1f}  "
          f"[{', '.join(f'{m:.1f}' for m in r['mlups_all'])}]")
    xb = r["xla_bytes_per_cell"]
    print(f"  bytes per cell update: {r['bytes_per_cell']} minimum (read + write Q populations)"
          + (f", {xb:.0f} accessed per XLA cost analysis" if xb else ""))
    print(f"  populations {r['population_bytes'] / gib:.3f} GiB, peak memory {r['peak_memory_bytes'] / gib:.3f} GiB "
          f"({r['peak_over_population']:.2f}x the populations)")
    sys.stdout.flush()
    return 0
