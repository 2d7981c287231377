"""What a run needs in memory, and whether that fits on the devices it will use: checked before anything
is allocated, so that a lattice too large for the machine is one clear error instead of an
out-of-memory traceback from deep inside JAX or NumPy.

`memory_estimate` is the one model of a run's memory (`distlbm info` prints it, `distlbm bench` reports
it next to the measured peak, tests/validation/test_memory.py holds the measurement to it): the populations twice
(a step reads one copy and writes the other; once where the CPU step streams in place), the moments a
step materialises, the static per-cell data
of the boundaries, and the measured temporaries of walls and open boundaries. `preflight` splits it over
the device mesh the run will use and compares each device's (accelerators) or each host's (CPU devices
share the host memory) share with what is available. DISTLBM_MEMORY_CHECK=0 skips the check.
"""

from __future__ import annotations

import math
import os
from typing import Callable, Optional, Sequence

from distlbm.cases.base import ConfigError

# Kept free on top of the estimate: XLA's workspace, the host slabs of the initial state, the
# diagnostics. The estimate already covers the measured peaks (bench, 400^3 D3Q19 float32: 9.37 GiB
# peak resident memory, 10.01 GiB estimated), so the margin is small.
MARGIN_FRACTION = 0.05
MARGIN_MIN_BYTES = 512 << 20
SKIP_ENV = "DISTLBM_MEMORY_CHECK"  # "0": skip the pre-flight check (e.g. unified memory, swap)


class InsufficientMemoryError(ConfigError):
    """The lattice does not fit in the memory available to the devices of the run."""


def itemsize(dtype: str) -> int:
    """Bytes per value of a dtype name (float32, float16, bfloat16, ...)."""
    import ml_dtypes  # noqa: F401  (registers bfloat16 with NumPy)
    import numpy as np

    return np.dtype(dtype).itemsize


def fmt_bytes(n: float) -> str:
    """1.5 GiB, 4.42 TiB, 512 MiB (binary units, three significant digits)."""
    n = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if abs(n) < 1024 or unit == "EiB":
            break
        n /= 1024
    if unit == "B":
        return f"{int(n)} B"
    return f"{n:.3g} {unit}" if n < 1000 else f"{n:.0f} {unit}"


def flags_bytes_per_cell(lattice, features=None, compute_dtype: str = "float32") -> int:
    """Static per-cell data of a run with these boundary features (stepper.Cells): the cell kind and
    link bits with walls, the moving-wall bits, the prescribed velocity and density, the Bouzidi wall
    fractions (Q bytes), the body ids and an absorbing layer's strength. A periodic lattice has none.
    The fractions are counted on every cell: the set-up builds them so; the run then keeps them for each
    block's box of planes along x that holds a curved obstacle's links (stepper.Cells.qlink; sphere n = 40:
    42 of 401 planes), which `memory_estimate` counts where the case bounds it (its fraction_planes)."""
    if features is None or not features.any:
        return 0
    c = itemsize(compute_dtype)
    b = 1  # kind
    if features.walls:
        b += 4
        if features.moving:
            b += 4
    if features.uses_velocity and not features.x_invariant:  # else one plane per block
        b += lattice.d * c
    if features.uses_rho and not features.x_invariant:
        b += c
    if features.bouzidi:
        b += lattice.q
    if features.bodies:
        b += 1
    if features.sponge:  # the absorbing layer's strength per cell
        b += c
    return b


# Temporaries beyond the contract, measured as the peak resident memory of `distlbm run` on CPU (XLA CPU, 5 to
# 23 M cells, float32), and where noted XLA's memory analysis:
#  - the set-up of the static per-cell data: a case's geometry runs slab by slab on the host (SETUP_SLAB_CELLS
#    cells at a time: its float64 and Q-array temporaries stay slab-sized), each field is filled on its device,
#    then the link bits are folded from byte masks one direction at a time (boundaries.link_data): with walls
#    1 B/cell of XLA temporaries, with moving walls 60 B/cell (and the wall velocities beside the given ones).
#    Measured set-up peaks above the runtime: sphere n = 40, 47 B/cell (flags 41); cavity3d 252^3, 104 B/cell
#    (flags 21); duct 250 x 252^2, 10 B/cell (flags 5). (Before 2026-12-02 the geometry ran on whole blocks:
#    sphere 308 B/cell, cavity3d 250 B/cell.)
#  - the whole-array step with inlets, outlets or outflow (small blocks), and there the force on bodies
#    (the momentum exchange reads the whole-array step's boundary populations at the sample steps): 5
#    arrays of Q values and 4 of the D + 1 moments in the compute dtype, besides the populations twice and
#    the flags (sphere, D3Q19: 538 B/cell measured, 637 estimated; channel_flow, D2Q9: 329 measured, 327
#    estimated). Where the step runs in slabs the forces are summed slab by slab (stepper.make_forces): a
#    few slabs (3D-1Z at D = 20 on 2 CPU devices: peak RSS 2.41 GB with the whole-array forces, 1.41 GB).
IN_PLACE_SLABS = 8  # slab-sized temporaries of the in-place step (streamed, moments, collided, written)
SETUP_BYTES_WALLS = 1  # XLA's temporaries while the link bits are folded (per cell; test_boundaries.py)
SETUP_BYTES_MOVING = 60  # and with moving walls (the moving-wall bits and the adjacent walls' velocities)
STEP_Q_ARRAYS_WHOLE = 5
STEP_MOMENT_SETS_WHOLE = 4


def memory_estimate(lattice, shape, dtype="float32", compute_dtype=None, features=None,
                    form: Optional[str] = None, fraction_planes: Optional[int] = None, average_values: int = 0,
                    force_field: bool = False) -> dict:
    """Predicted memory of a run (or of one device's block: pass its shape), all in bytes.

    population_bytes: the populations; step_working_set_bytes: a step's working set, the populations
    twice (the read and the written copy) plus the stacked moments, or plus the step's temporaries where
    boundaries need the whole-array form (temporaries_bytes); flags_bytes: the static per-cell data of
    the boundaries (features: a physics.boundaries.Features, None for a periodic lattice);
    setup_bytes: the peak while those flags are built (before the populations exist);
    total_bytes: what the run needs at its peak, max(step working set + flags, setup).
    form: the step's form, 'whole' | 'ab' | 'in_place' (stepper.slab_form) or, on GPU backends where the
    fused Pallas kernel covers the features and dtypes, 'fused_in_place' | 'fused' (stepper.fused_form;
    default: the one that runs here on this block). In place (the CPU slab form), the step holds the
    populations once, plus a few slabs and the faces; the fused kernel in place (AA) the populations once
    plus two of their Q rows (an odd step's last data movement) and the halo and ghost faces; otherwise
    twice. The fused kernel covers the obstacle channels (Bouzidi links, open faces, the absorbing layer)
    in its A-B form: the in-place kernels do not.
    fraction_planes: the planes along x that can hold a curved obstacle's interpolated links (cases.base.Setup's
    fraction_planes; None: any): the run keeps the Bouzidi fractions for a box of at most that many planes of
    each block, plus one plane per block (far walls off the grid), instead of Q bytes on every cell.
    average_values: the values per cell of the time average the run keeps (output average_every; `average_values`
    of its output spec: rho and u, 1 + D, and with average_stresses the D (D + 1) / 2 means of u_i u_j), in the
    compute dtype, for the whole run (average_bytes).
    force_field: the case gives a per-cell body force (stepper.Cells.force): D values per cell in the compute dtype,
    counted with the flags (and in the set-up, built before the populations); the fused kernel does not cover it."""
    from distlbm.config import default_compute_dtype

    cdt = compute_dtype or default_compute_dtype(dtype)
    citem = itemsize(cdt)
    cells = math.prod(int(s) for s in shape)
    q = lattice.q
    pop = q * cells * itemsize(dtype)
    moments = (lattice.d + 1) * cells * citem
    field = lattice.d * citem * cells if force_field else 0
    flags = flags_bytes_per_cell(lattice, features, cdt) * cells + field
    if features is not None and features.bouzidi and fraction_planes is not None:
        # the box of fractions (stepper.Cells.qlink) and the plane outside it (qplane), not every plane
        nx = int(shape[0])
        box = max(1, min(nx, int(fraction_planes)))
        flags += q * (cells // nx) * (box + 1 - nx)
    temporaries = moments
    setup = field
    if form is None and not force_field:
        form = _fused_form(lattice, dtype, cdt, features)
    if form is None:
        from distlbm.stepper import slab_form

        form = slab_form(q * cells * max(itemsize(dtype), citem), planes=int(shape[0]))
    if features is not None and features.any:
        # the forces on bodies read the whole-array form's boundary populations (at the sample steps) where
        # the step runs as a whole array; in the slab forms they are summed slab by slab (a few slabs)
        if (features.bodies or features.neighbours) and form == "whole":
            temporaries = max(moments, STEP_Q_ARRAYS_WHOLE * q * citem * cells + STEP_MOMENT_SETS_WHOLE * moments)
        elif features.bodies and form == "ab":
            from distlbm.stepper import SLAB_BYTES

            temporaries = moments + IN_PLACE_SLABS * SLAB_BYTES
        # the flags, and while the link bits are folded their temporaries and (moving walls) the given
        # velocities beside the adjacent walls' ones; the geometry's host temporaries are slab-sized
        extra = 0
        if features.walls:
            extra = SETUP_BYTES_MOVING + lattice.d * citem if features.moving else SETUP_BYTES_WALLS
        setup = (flags_bytes_per_cell(lattice, features, cdt) + extra) * cells + field
    faces = 2 * q * itemsize(dtype) * sum(cells // int(s) for s in shape)
    work = 2 * pop + temporaries
    if form in ("fused_in_place", "fused"):
        # no moments or streamed copies: each cell's are in registers; the halo planes in, the ghost planes out
        temporaries = max(temporaries - moments, 0) + 2 * faces
        if features is not None and features.bodies:
            # the forces at the sample steps: slab by slab (stepper.runs_in_slabs), as a whole below WHOLE_BYTES
            from distlbm.stepper import READER_SLAB_BYTES_GPU, WHOLE_BYTES

            whole = STEP_Q_ARRAYS_WHOLE * q * citem * cells + STEP_MOMENT_SETS_WHOLE * moments
            temporaries += whole if pop <= WHOLE_BYTES else min(IN_PLACE_SLABS * READER_SLAB_BYTES_GPU, whole)
        if form == "fused_in_place":
            temporaries += 2 * (pop // q)  # the two rows an odd step's last data movement copies
        work = (pop if form == "fused_in_place" else 2 * pop) + temporaries
    if form == "in_place":
        from distlbm.stepper import SLAB_BYTES

        # measured: 400^3 D3Q19 float32 peaks at 1.11x the populations (with the runtime's ~0.4 GB)
        temporaries = max(temporaries - moments, 0) + IN_PLACE_SLABS * SLAB_BYTES + 3 * faces
        work = pop + temporaries
    average = int(average_values) * cells * citem
    return {"cells": cells, "population_bytes": pop, "moments_bytes": moments, "temporaries_bytes": temporaries,
            "flags_bytes": flags, "step_working_set_bytes": work, "setup_bytes": setup, "step_form": form,
            "average_bytes": average, "total_bytes": max(work + flags + average, setup),
            "flags_bytes_per_cell_with_walls": 1 + 4 + (4 + 4 * lattice.d)}


def _fused_form(lattice, dtype, compute_dtype, features) -> Optional[str]:
    """'fused_in_place' | 'fused' where the fused Pallas kernel runs here (a GPU backend, a configuration
    it covers; stepper.step_path with step = 'auto'), else None."""
    import jax

    if jax.default_backend() not in ("gpu", "cuda", "rocm"):
        return None
    from distlbm.physics import boundaries as bc
    from distlbm.physics.collision import Collision
    from distlbm.physics.fused import fused_supports
    from distlbm.stepper import Model, fused_form

    model = Model(lattice, Collision("bgk", 0.8), features=features or bc.Features(), dtype=dtype,
                  compute_dtype=compute_dtype)
    if not fused_supports(model)[0]:
        return None
    return "fused_in_place" if fused_form(model=model) == "in place (AA)" else "fused"


# ---- what is available ---------------------------------------------------------------------------

def _meminfo_available() -> Optional[int]:
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


def _read_int(path: str) -> Optional[int]:
    try:
        with open(path) as fh:
            text = fh.read().strip()
        return None if text == "max" else int(text)
    except (OSError, ValueError):
        return None


def _cgroup_available() -> Optional[int]:
    """What the memory limit of this process's control group leaves (None: no limit)."""
    for limit_f, usage_f, stat_f, inactive in (
            ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current", "/sys/fs/cgroup/memory.stat",
             "inactive_file"),
            ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes",
             "/sys/fs/cgroup/memory/memory.stat", "total_inactive_file")):
        limit = _read_int(limit_f)
        if limit is None or limit >= 1 << 60:
            continue
        usage = _read_int(usage_f) or 0
        reclaimable = 0
        try:
            with open(stat_f) as fh:
                for line in fh:
                    k, _, v = line.partition(" ")
                    if k == inactive:
                        reclaimable = int(v)
        except (OSError, ValueError):
            pass
        return max(0, limit - usage + reclaimable)
    return None


def host_available() -> tuple[Optional[int], str]:
    """Memory this host can still give (bytes, where the figure comes from): MemAvailable, or the
    control group's limit less its usage where that is lower."""
    avail = _meminfo_available()
    source = "MemAvailable"
    cg = _cgroup_available()
    if cg is not None and (avail is None or cg < avail):
        avail, source = cg, "the memory cgroup's limit"
    return avail, source


def device_available(device) -> tuple[Optional[int], str]:
    """Memory a device can still give (bytes or None when unknown, and where the figure comes from):
    the host's for CPU devices, else the allocator's bytes_limit less bytes_in_use."""
    if device.platform == "cpu":
        return host_available()
    try:
        stats = device.memory_stats() or {}
    except Exception:  # some backends have no statistics: the check is then skipped for this device
        return None, "unknown"
    limit = stats.get("bytes_limit")
    if not limit:
        return None, "unknown"
    return max(0, int(limit) - int(stats.get("bytes_in_use", 0))), "bytes_limit - bytes_in_use"


# monkeypatchable: tests replace it with a small figure
available_memory: Callable = device_available


def _available(fn, device) -> tuple[Optional[int], str]:
    r = fn(device)
    if isinstance(r, tuple):
        return (None if r[0] is None else int(r[0])), str(r[1])
    return (None if r is None else int(r)), "as given"


def usable(avail: int) -> int:
    """What of `avail` a run may plan to use: less a margin for XLA's workspace."""
    return max(0, int(avail - max(MARGIN_MIN_BYTES, MARGIN_FRACTION * avail)))


# ---- which devices a run uses -------------------------------------------------------------------

def _local_process_count() -> int:
    """Processes of this run on this node (they share its host memory), from the launcher's variables."""
    from distlbm.parallel.processes import launcher

    if launcher()[1] <= 1:
        return 1
    for var in ("OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "PMI_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE"):
        val = os.environ.get(var, "")
        digits = val.split("(")[0].split(",")[0]
        if digits.isdigit() and int(digits) > 0:
            return int(digits)
    return 1


def plan_mesh(shape: Sequence[int], mesh: str = "", comm: str = "jax") -> dict:
    """The mesh and this process's devices that `distlbm.parallel.make_domain(shape, mesh, comm)` will
    use, found without allocating anything: {'mesh_shape', 'n_devices', 'devices' (this process's)}."""
    import jax

    from distlbm.parallel import plan_mesh as plan_domain

    plan = plan_domain(shape, mesh, comm)
    mesh_shape = plan["mesh_shape"]
    if plan["kind"] == "mpi":  # each rank takes the device of its node-local rank
        local = jax.local_devices()
        rank = 0
        for var in ("OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMI_LOCAL_RANK", "SLURM_LOCALID"):
            if os.environ.get(var, "").isdigit():
                rank = int(os.environ[var])
                break
        return {"mesh_shape": mesh_shape, "n_devices": math.prod(mesh_shape), "devices": [local[rank % len(local)]]}
    me = jax.process_index()
    return {"mesh_shape": mesh_shape, "n_devices": math.prod(mesh_shape),
            "devices": [dv for dv in plan["devices"] if getattr(dv, "process_index", 0) == me]}


# ---- the check -------------------------------------------------------------------------------------

RUNTIME_BYTES = 300 << 20  # a process's Python, JAX and XLA runtime on the host (peak RSS 0.28-0.29 GB of a 32^3 run)


def _block(shape, mesh_shape):
    return tuple(-(-int(s) // int(m)) for s, m in zip(shape, mesh_shape))


def _needs(lattice, shape, mesh_shape, dtype, compute_dtype, features, devices, sharing, fraction_planes=None,
           average_values: int = 0, force_field: bool = False) -> list:
    """[(label, needed bytes, device to ask for the available figure, devices counted)] per unit."""
    per_dev = memory_estimate(lattice, _block(shape, mesh_shape), dtype, compute_dtype, features,
                              fraction_planes=fraction_planes, average_values=average_values,
                              force_field=force_field)["total_bytes"]
    units = []
    cpus = [dv for dv in devices if dv.platform == "cpu"]
    if cpus:  # CPU devices of a process (and the processes of a node) share the host's memory, with each process's
        # runtime (Python, JAX, XLA: 0.28 GB measured here, which the estimate left out: 32^3 D3Q19 "0.005 GiB")
        units.append(("host", (per_dev * len(cpus) + RUNTIME_BYTES) * sharing, cpus[0], len(cpus)))
    for dv in devices:  # an accelerator has its own memory
        if dv.platform != "cpu":
            units.append((f"{dv.platform}:{dv.id}", per_dev, dv, 1))
    return units


def _largest_fitting(lattice, shape, mesh_shape, dtype, compute_dtype, features, devices, sharing, limits,
                     fraction_planes=None, average_values: int = 0, force_field: bool = False):
    """The largest lattice of the same proportions (cubic if `shape` is) that fits every unit (the obstacles'
    planes, fraction_planes, scaled with it)."""
    def fits(sh):
        planes = None if fraction_planes is None else math.ceil(fraction_planes * sh[0] / shape[0])
        needs = _needs(lattice, sh, mesh_shape, dtype, compute_dtype, features, devices, sharing, planes,
                       average_values, force_field)
        return all(lim is None or need <= lim for (_, need, _, _), lim in zip(needs, limits))

    cubic = len(set(shape)) == 1
    needs = _needs(lattice, shape, mesh_shape, dtype, compute_dtype, features, devices, sharing, fraction_planes,
                   average_values)
    ratio = min((lim / need) for (_, need, _, _), lim in zip(needs, limits) if lim is not None and need > 0)
    scale = ratio ** (1.0 / len(shape))
    for _ in range(64):
        sh = tuple(max(1, int(s * scale)) for s in shape)
        if fits(sh) or all(s == 1 for s in sh):
            break
        scale *= 0.99
    if not fits(sh):
        return None
    if cubic:
        return f"{sh[0]}^{len(sh)} cells"
    return f"{'x'.join(map(str, sh))} cells (the same proportions)"


def check_fits(lattice, shape, dtype="float32", compute_dtype=None, features=None, mesh_shape=None,
               devices=None, available: Optional[Callable] = None, sharing: Optional[int] = None,
               what: str = "", fraction_planes: Optional[int] = None, average_values: int = 0,
               force_field: bool = False) -> dict:
    """Raise InsufficientMemoryError unless the lattice fits on `devices` (this process's devices of the
    mesh; default: the first device) split over `mesh_shape`. available(device) -> bytes or (bytes,
    source); default: `available_memory` (monkeypatchable). sharing: processes of the run on this node
    (default: from the launcher's environment). Returns a report: needed, available and usable bytes per
    unit (the host for CPU devices, else each accelerator) and whether it fits."""
    from distlbm.config import default_compute_dtype

    shape = tuple(int(s) for s in shape)
    cdt = compute_dtype or default_compute_dtype(dtype)
    d = len(shape)
    mesh_shape = tuple(int(m) for m in (mesh_shape or (1,) * d))
    if devices is None:
        import jax

        devices = jax.devices()[:1]
    devices = list(devices)
    sharing = sharing or _local_process_count()
    n_dev = math.prod(mesh_shape)
    est = memory_estimate(lattice, shape, dtype, cdt, features, fraction_planes=fraction_planes,
                          average_values=average_values, force_field=force_field)
    report = {"lattice": lattice.name, "shape": list(shape), "dtype": dtype, "compute_dtype": cdt,
              "mesh": list(mesh_shape), "n_devices": n_dev, "estimate": est,
              "per_device_bytes": memory_estimate(lattice, _block(shape, mesh_shape), dtype, cdt, features,
                                                  fraction_planes=fraction_planes, average_values=average_values,
                                                  force_field=force_field)["total_bytes"],
              "units": [], "fits": True, "checked": False}
    from distlbm.stepper import switch  # '0' or '1': DISTLBM_MEMORY_CHECK=off or false checked, unsaid

    if switch(SKIP_ENV, True) is False:
        return report
    fn = available or available_memory
    units = _needs(lattice, shape, mesh_shape, dtype, cdt, features, devices, sharing, fraction_planes,
                   average_values, force_field)
    limits, failed = [], []
    for label, need, dv, count in units:
        avail, source = _available(fn, dv)
        lim = None if avail is None else usable(avail)
        limits.append(lim)
        ok = lim is None or need <= lim
        report["units"].append({"unit": label, "devices": count, "needed_bytes": need, "available_bytes": avail,
                                "usable_bytes": lim, "source": source, "fits": ok})
        report["checked"] = report["checked"] or lim is not None
        if not ok:
            failed.append((label, need, avail, lim, source, count))
    if not failed:
        return report
    report["fits"] = False
    label, need, avail, lim, source, count = max(failed, key=lambda f: f[1] / max(f[3], 1))
    plat = devices[0].platform if devices else "?"
    if est["step_form"] in ("in_place", "fused_in_place"):
        parts = [f"populations {fmt_bytes(est['population_bytes'])} (streamed in place)",
                 f"step {'slabs' if est['step_form'] == 'in_place' else 'rows'} and faces "
                 f"{fmt_bytes(est['temporaries_bytes'])}"]
    else:
        parts = [f"populations {fmt_bytes(est['population_bytes'])} x 2 for a step's read and write copies",
                 (f"moments {fmt_bytes(est['moments_bytes'])}" if est["temporaries_bytes"] == est["moments_bytes"]
                  else f"step temporaries {fmt_bytes(est['temporaries_bytes'])}")]
    if est["flags_bytes"]:
        parts.append(f"cell flags {fmt_bytes(est['flags_bytes'])}")
    if est["average_bytes"]:
        parts.append(f"time average {fmt_bytes(est['average_bytes'])}")
    if est["setup_bytes"] > est["step_working_set_bytes"] + est["flags_bytes"]:
        parts = [f"{fmt_bytes(est['setup_bytes'])} while the wall link bits are built; then "
                 + " + ".join(parts)]
    split = ""
    if n_dev > 1:
        split = (f" over {n_dev} {plat} devices (mesh {'x'.join(map(str, mesh_shape))}, "
                 f"{fmt_bytes(report['per_device_bytes'])} per device)")
    if label == "host":
        where = (f"this host ({count} {plat} {'device' if count == 1 else 'devices'}"
                 + (f" of {sharing} processes" if sharing > 1 else "") + ")")
    else:
        where = label
    on = f"; {fmt_bytes(need)} on {where}" if need != est["total_bytes"] else f" on {where}"
    fit = _largest_fitting(lattice, shape, mesh_shape, dtype, cdt, features, devices, sharing, limits,
                           fraction_planes, average_values, force_field)
    half_helps = itemsize(dtype) > 2 and est["setup_bytes"] < est["total_bytes"]
    hint = ("use more devices" if plat != "cpu" else "use more nodes") + (
        ", or dtype=float16 storage" if half_helps else "")
    dt = dtype if cdt == default_compute_dtype(dtype) else f"{dtype} ({cdt} compute)"
    msg = (f"{what}lattice {lattice.name} {'x'.join(map(str, shape))} {dt} needs {fmt_bytes(est['total_bytes'])} "
           f"({' + '.join(parts)}){split}{on}, but {fmt_bytes(avail)} is available there ({source}; "
           f"{fmt_bytes(lim)} usable after a safety margin for XLA's workspace): "
           + (f"at most about {fit} fit (or {hint})" if fit else f"expected a smaller lattice (or {hint})")
           + f"; {SKIP_ENV}=0 skips this check")
    report["message"] = msg
    raise InsufficientMemoryError(msg)


def preflight(cfg, mesh=None, available: Optional[Callable] = None, devices=None, sharing: Optional[int] = None
              ) -> dict:
    """Check, before anything is allocated, that the run configured by `cfg` (a config.RunConfig) fits
    in the memory of the devices it will use; raise InsufficientMemoryError (a ConfigError) if not.

    mesh: None (the mesh `distlbm.parallel.make_domain` will choose from cfg.decomposition's mesh and
    comm over all devices), a mesh shape such as (2, 2, 2) or '2x2x2', a number of devices,
    or a domain (its mesh_shape). Call after process start-up (jax.distributed), before the Simulation.
    """
    from distlbm.parallel.mesh import factorize, parse_mesh

    s = cfg.setup
    shape = tuple(s.shape)
    d = len(shape)
    if mesh is None:
        plan = plan_mesh(shape, cfg.decomposition.mesh, cfg.decomposition.comm)
        mesh_shape, devs = plan["mesh_shape"], plan["devices"]
    else:
        if hasattr(mesh, "n_devices"):  # a domain
            mesh_shape = tuple(getattr(mesh, "mesh_shape", ()) or (1,) * d)
        elif isinstance(mesh, str):
            mesh_shape = parse_mesh(mesh, d)
        elif isinstance(mesh, int):
            mesh_shape = factorize(mesh, shape) if mesh > 1 else (1,) * d
        else:
            mesh_shape = tuple(mesh)
        devs = None
        if devices is None:
            import jax

            me = jax.process_index()
            devs = [dv for dv in jax.devices()[: math.prod(mesh_shape)] if getattr(dv, "process_index", 0) == me]
    planes = None if s.fraction_planes is None else s.fraction_planes[1] - s.fraction_planes[0] + 1
    return check_fits(s.lattice, shape, cfg.model.dtype, cfg.model.compute_dtype or None,
                      s.features, mesh_shape, devices if devices is not None else devs, available, sharing,
                      what=f"case {cfg.case.name}: ", fraction_planes=planes,
                      average_values=average_values(cfg.output, d), force_field=s.force_field is not None)


def checkpoint_bytes(lattice, shape, dtype, compute_dtype, average_values: int = 0) -> int:
    """The data of one checkpoint: the populations, and the time average and the steadiness reference where the run
    keeps them (`average_values` values per cell in the compute dtype)."""
    cells = math.prod(int(n) for n in shape)
    return lattice.q * cells * itemsize(dtype) + int(average_values) * cells * itemsize(compute_dtype)


def steady_values(control, d: int) -> int:
    """The values per cell of the steadiness reference a run with the control spec `control` keeps in its
    checkpoints (0: none; steady_tol > 0): the velocity of its last check, D."""
    return d if control.steady_tol > 0 else 0


def average_values(output, d: int) -> int:
    """The values per cell of the time average a run with the output spec `output` keeps (0: none; average_every
    with field output): rho and u, 1 + D, and with average_stresses the D (D + 1) / 2 means of u_i u_j."""
    if not (output.average_every and (output.output_every or output.output_interval)):
        return 0
    return 1 + d + (d * (d + 1) // 2 if output.average_stresses else 0)
