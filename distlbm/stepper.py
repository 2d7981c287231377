"""Composes physics and a halo exchange into `step(f, cells) -> f` and a jitted `advance(state, cells, n)`.

Order of one step (the state holds post-collision populations f*):
stream (pull, with the halo shift) -> wall bounce-back -> outflow / fixed-velocity / fixed-pressure
cells -> moments -> collision. Macroscopic fields are recovered from f* by `macroscopic`.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Optional

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from distlbm.lattice import Lattice
from distlbm.physics import boundaries as bc
from distlbm.physics.collision import Collision, collide
from distlbm.physics.equilibrium import equilibrium_deviation
from distlbm.physics.moments import density, deviation_moments, momentum
from distlbm.physics.streaming import stream


@dataclass(frozen=True)
class Model:
    """Static description of what a step computes (hashable; closed over by the step function).

    force: None or a D-tuple of floats (uniform body force per volume, lattice units).
    force_field: a per-cell body force (Cells.force, [D, X, Y(, Z)] in the compute dtype, built from the case's
    Setup.force_field); force is then None (a uniform force of the case is added into the field).
    dtype: storage dtype of the populations; compute_dtype: dtype of the arithmetic.
    incompressible: He & Luo's incompressible equilibrium (u = sum c f) instead of the standard one.
    """

    lattice: Lattice
    collision: Collision
    force: Optional[tuple] = None
    features: bc.Features = field(default_factory=bc.Features)
    dtype: str = "float32"
    compute_dtype: str = "float32"
    incompressible: bool = False
    force_field: bool = False


class State(NamedTuple):
    """f: [Q, X, Y(, Z)] post-collision populations stored as deviations f*_i - w_i from the rest
    state (storage dtype; small values keep float32 and float16 precise); step: int32 scalar."""

    f: jax.Array
    step: jax.Array


class Cells(NamedTuple):
    """Static per-cell data, sharded like the populations. Absent pieces are None.

    kind: [X, Y(, Z)] uint8; links, moving: [X, Y(, Z)] uint32 link bits;
    velocity: [D, X, Y(, Z)] prescribed / adjacent-wall velocity; rho: [X, Y(, Z)] prescribed density (one plane
    along x per block, [D, 1, ...] and [1, ...] in a block, where Features.x_invariant).
    The per-link wall fractions (Bouzidi) cost Q bytes per cell of a box of planes along x (the planes that hold
    a curved obstacle's links), plus one plane per block for the links of far walls off the grid, and exist only
    for curved obstacles and such walls.
    """

    kind: Optional[jax.Array] = None
    links: Optional[jax.Array] = None
    moving: Optional[jax.Array] = None
    velocity: Optional[jax.Array] = None
    rho: Optional[jax.Array] = None
    # uint8 [Q, B, Y(, Z)]: wall fraction q * 254 of each wall link (0: halfway) on the planes qbox .. qbox+B-1
    # along x of each block, the box that holds its interpolated links (physics.boundaries.wall_fraction_box)
    qlink: Optional[jax.Array] = None
    body: Optional[jax.Array] = None  # uint8 [X, Y(, Z)]: body id of solid cells (0: none), for forces
    sponge: Optional[jax.Array] = None  # [X, Y(, Z)] strength of an absorbing layer (target velocity: velocity)
    qbox: Optional[jax.Array] = None  # int32, one per block (size 1 along each spatial axis): qlink's first plane
    # uint8 [Q, 1, Y(, Z)] per block: the fractions of every plane outside the box (a channel's far walls off the
    # grid, the same in every plane along x: Features.x_invariant); None: 0 there
    qplane: Optional[jax.Array] = None
    # [D, X, Y(, Z)] compute dtype: the body force of each cell (Model.force_field), from the case's Setup.force_field
    force: Optional[jax.Array] = None


def force_field_problem(value, index, shape, d: int) -> Optional[str]:
    """What is wrong with what a Setup's force_field(index) returned for the block `index`, in one line, or None:
    a finite float array [D, block] (lattice units)."""
    from distlbm.cases.base import block_shape

    want = (d,) + block_shape(index, shape)
    arr = np.asarray(value) if value is not None else None
    span = bc.block_span(index, shape)
    if arr is None or arr.shape != want or not np.issubdtype(arr.dtype, np.number):
        got = "None" if arr is None else f"shape {arr.shape} of {arr.dtype}"
        return (f"force_field(index) returned {got} for the block {span}; expected a float array of shape {want} "
                f"(the body force of each cell, lattice units)")
    if not np.all(np.isfinite(arr)):
        return f"force_field(index) returned non-finite forces for the block {span}; expected finite numbers"
    return None


def assemble_force(model: Model, force_field: Callable, domain):
    """The per-cell force field [D, X, Y(, Z)] (compute dtype, sharded like the populations) from
    force_field(index) -> [D, block] float (lattice units), built slab by slab like the geometry, each process
    building only its own blocks: the same numbers on any mesh. Raises ValueError with what is wrong."""
    d = model.lattice.d
    cdt = np.dtype(model.compute_dtype)

    def slab(index):
        value = force_field(index)
        bad = force_field_problem(value, index, domain.shape, d)
        if bad:
            raise ValueError(bad)
        return [np.asarray(value, np.float64)]

    (field,) = _agreed(domain, lambda: domain.make_fields(slab, [((d,), cdt)], SETUP_SLAB_CELLS * d * cdt.itemsize))
    return field


def _agreed(domain, build: Callable):
    """build()'s result, or the same error on every process: each process builds its own blocks, so a mistake in one
    block was found by its process alone, which left while the others waited in the next collective (the link bits'
    exchange) until the job was aborted, nothing said. All agree here and raise the same error (a ValueError of the
    case; an OSError, MemoryError of one node's read alike), which process 0 then says."""
    try:
        built, failed = build(), None
    except Exception as e:
        built, failed = None, e
    if domain.process_count > 1:
        said = [m for m in domain.allgather_obj(None if failed is None else (str(failed) or type(failed).__name__))
                if m]
        if said and failed is None:
            raise ValueError(said[0])
    if failed is not None:
        raise failed
    return built


def assemble_cells(model: Model, geometry: Optional[Callable], domain, force_field: Optional[Callable] = None) -> tuple:
    """(Cells, kind) as `assemble_cells_of_geometry`, with the per-cell force field where model.force_field
    (`assemble_force`, from force_field(index) -> [D, block])."""
    cells, kind = assemble_cells_of_geometry(model, geometry, domain)
    if model.force_field:
        if force_field is None:
            raise ValueError("the model has a per-cell force field but the case gives no force_field")
        cells = cells._replace(force=assemble_force(model, force_field, domain))
    return cells, kind


def assemble_cells_of_geometry(model: Model, geometry: Optional[Callable], domain) -> tuple:
    """(Cells, kind) for `model` on `domain`: the static per-cell data built slab by slab from
    geometry(index) -> Geometry (kind, velocity, rho, qlink, body; see cases.base.Geometry), each
    process building only its own blocks, then the link bits computed with the halo exchange.
    kind is the global uint8 [X, Y(, Z)] array (None when the model has no boundary cells). Raises
    ValueError if the geometry puts a boundary cell where it cannot be."""
    lat = model.lattice
    d = lat.d
    feat = model.features
    if not feat.any:
        return Cells(), None
    cdt = model.compute_dtype
    # the fields the step keeps (velocities and densities only where a boundary reads them), each with its
    # default where the geometry gives none
    fields = [(0, (), np.uint8, None)]
    # velocities and densities the same in every plane along x (Features.x_invariant): one plane per block
    values = []
    if feat.uses_velocity:
        values.append((1, (d,), cdt, lambda s: np.zeros((d,) + s)))
    if feat.uses_rho:
        values.append((2, (), cdt, np.ones))
    if not feat.x_invariant:
        fields += values
    if feat.bouzidi:
        fields.append((3, (lat.q,), np.uint8, lambda s: np.zeros((lat.q,) + s, np.uint8)))
    if feat.bodies:
        fields.append((4, (), np.uint8, lambda s: np.zeros(s, np.uint8)))
    if feat.sponge:
        fields.append((5, (), cdt, np.zeros))

    def slab(index):
        g = tuple(geometry(index))
        g = g + (None,) * (6 - len(g))  # (kind, velocity, rho, qlink, body, sponge), trailing ones optional
        bad = bc.geometry_problem(g, index, domain.shape, feat, d, lat.q) or bc.off_face(g[0], index, domain.shape)
        if bad:
            raise ValueError(bad)
        return [g[k] if g[k] is not None else empty(g[0].shape) for k, _, _, empty in fields]

    # The geometry runs once per slab of SETUP_SLAB_CELLS cells (a case's geometry works in float64 and
    # Q-arrays: the Bouzidi fractions of a whole block held 3 Q-arrays of float64 temporaries on the host)
    specs = [(leading, dt) for _, leading, dt, _ in fields]
    per_cell = sum(math.prod(leading) * np.dtype(dt).itemsize for leading, dt in specs)
    built = dict(zip((k for k, _, _, _ in fields),
                     _agreed(domain, lambda: domain.make_fields(slab, specs, SETUP_SLAB_CELLS * per_cell))))
    # the geometry's plane x = 0 of each block: the values of every plane along x, and the wall fractions of the
    # planes that hold no obstacle's link (a channel's far walls off the grid: Q B/cell along the whole channel)
    planar = values + [fd for fd in fields if fd[0] == 3] if feat.x_invariant else []
    if planar:
        def plane(index):
            g = tuple(geometry(index)) + (None,) * 3
            return [g[k] if g[k] is not None else empty(g[0].shape) for k, _, _, empty in planar]

        planes = dict(zip((k for k, _, _, _ in planar),
                          domain.make_planes(plane, [(leading, dt) for _, leading, dt, _ in planar])))
        qplane = planes.pop(3, None)
        built.update(planes)
    kind, vel = built[0], built.get(1)
    links = moving = None
    if feat.walls:  # the link bits (and the velocities of adjacent moving walls) with the halo exchange
        def factory(exchange):
            def fn(kind, *velocity):
                return bc.link_data(kind, velocity[0] if velocity else None, lat, exchange, feat)
            return fn

        # only what is computed goes through the jit: its results are new arrays, and the fields passed
        # through it were held twice (sphere: 41 B/cell more at the set-up's peak)
        links, moving, wall_u = jax.jit(domain.map(factory))(kind, *((vel,) if feat.moving else ()))
        if feat.moving:
            vel = wall_u
    qlink = built.pop(3, None)
    qbox = None
    if qlink is None or not planar:
        qplane = None
    elif not int(domain.reduce_blocks(jax.jit(domain.map(lambda exchange: lambda a: jnp.any(a != 0).astype(
            jnp.int32).reshape((1,) * (a.ndim - 1))))(qplane), "max")):
        qplane = None  # no plane outside the boxes holds an interpolated link: nothing to keep but the boxes
    if qlink is not None:  # the fractions kept for each block's box of planes that differ from qplane (or hold one)
        ref = () if qplane is None else (qplane,)
        extent = jax.jit(domain.map(lambda exchange: bc.wall_fraction_extent))(qlink, *ref)
        n_box = int(domain.reduce_blocks(extent, "max"))
        qlink, qbox = jax.jit(domain.map(lambda exchange: lambda a, *p: bc.wall_fraction_box(a, n_box, *p)))(
            qlink, *ref)
    cells = Cells(kind=kind, links=links, moving=moving, velocity=vel, rho=built.get(2), qlink=qlink,
                  body=built.get(4), sponge=built.get(5), qbox=qbox, qplane=qplane)
    return cells, kind


def step_path(model: Model, requested: str = "auto", key: str = "step", backend: Optional[str] = None) -> tuple:
    """Which step runs: ('pallas' | 'xla', why). 'auto' takes the fused Pallas kernel
    (physics/fused.py) on GPU backends when it covers the model, else the XLA step; 'xla' and
    'pallas' force one (on CPU the Pallas kernel runs in its interpreter: for tests, slow).
    backend: the one it runs on (default: jax's, which starts it; scripts/step_variants.py's parent, which must
    hold no device, passes its workers' platform)."""
    if requested == "xla":
        return "xla", "requested"
    from distlbm.physics.fused import fused_supports

    ok, why = fused_supports(model)
    backend = backend or jax.default_backend()
    gpu = backend in ("gpu", "cuda", "rocm")
    if requested == "pallas":
        if not ok:
            raise ValueError(f"{key} = 'pallas': the fused kernel does not cover this configuration: {why}; "
                             f"expected {key} = 'auto' or 'xla'")
        return "pallas", "requested" + ("" if gpu else " (Pallas interpreter on CPU: slow)")
    if not gpu:
        return "xla", f"{backend} backend"
    return ("pallas", "fused Triton kernel") if ok else ("xla", f"the fused kernel does not cover {why}")


SETUP_SLAB_CELLS = 1 << 18  # cells per call of a case's geometry while the static per-cell data are built
WHOLE_BYTES = 64 << 20  # populations up to this size run the whole-array form (they fit the CPU's caches)
SLAB_BYTES = 6 << 20  # the slab form's slabs (measured on a 2-core CPU with 32 MiB L3)


def _whole_bytes(whole_bytes: Optional[int]) -> int:
    if whole_bytes is not None:
        return whole_bytes
    from distlbm.errors import env_whole

    return env_whole("DISTLBM_WHOLE_BYTES", WHOLE_BYTES, "bytes")


def switch(var: str, default: Optional[bool]) -> Optional[bool]:
    """An on/off environment variable (DISTLBM_SLABS, DISTLBM_INPLACE, DISTLBM_MEMORY_CHECK): '1' or '0', `default`
    where unset or empty. Anything else is one line: DISTLBM_INPLACE=false ran the in-place step, unsaid (only '0'
    turned it off), and DISTLBM_MEMORY_CHECK=off ran the memory check."""
    text = os.environ.get(var, "").strip()
    if not text:
        return default
    if text not in ("0", "1"):
        from distlbm.errors import ConfigError

        raise ConfigError(f"{var} = {text!r}: expected 1 (on) or 0 (off)")
    return text == "1"


def check_switches():
    """The step's environment variables checked at once (ConfigError): a small lattice never reads some of them."""
    _whole_bytes(None)
    switch("DISTLBM_SLABS", True)
    switch("DISTLBM_INPLACE", True)
    switch("DISTLBM_MEMORY_CHECK", True)  # (read by the memory pre-flight, which a dry run leaves to the run)


def slab_form(block_bytes: int, backend: Optional[str] = None, *,
              whole_bytes: Optional[int] = None, inplace: Optional[bool] = None, planes: int = 3) -> str:
    """Which form of the XLA step runs on a block of `block_bytes` populations (in the larger of the
    storage and compute dtypes) and `planes` planes along x: 'whole' (small blocks, GPUs, blocks of one
    plane), 'in_place' (CPU: slab by slab into the one population array; needs 3 or more planes) or 'ab'
    (the slab form with a streamed copy; DISTLBM_INPLACE=0). Inlets, outlets and outflow cells, which read
    their inner neighbour after streaming, run in every form: a slab holds at least two planes along x,
    so a face cell and its inner neighbour are in the same slab.
    DISTLBM_SLABS=0/1 turns the slab forms off/on whatever the backend; DISTLBM_WHOLE_BYTES sets the
    size up to which blocks keep the whole-array form (default WHOLE_BYTES; 0: the slab forms at any size,
    as the tests use them on small lattices)."""
    whole_bytes = _whole_bytes(whole_bytes)
    slabs = switch("DISTLBM_SLABS", None)
    if slabs is None:  # (the backend asked only then: as before, not where the variable decides)
        slabs = (backend or jax.default_backend()) == "cpu"
    if not slabs or planes < 2 or block_bytes <= whole_bytes:
        return "whole"
    if inplace is None:
        inplace = switch("DISTLBM_INPLACE", True)
    return "in_place" if inplace and planes >= 3 else "ab"


READER_SLAB_BYTES_GPU = 64 << 20  # the readers' slabs on GPUs (no cache to fit: fewer, larger slabs)


def runs_in_slabs(f, compute_dtype, whole_bytes: Optional[int] = None) -> bool:
    """Whether the readers that visit every cell of this block f [Q, X, ...] (forces, diagnostics) go slab
    by slab: where the XLA step runs in slabs (`slab_form` is not 'whole'), and on GPUs for blocks above
    whole_bytes, where the step is one fused kernel or the whole-array XLA step but a whole-array reader
    would hold a streamed copy and the wall treatment's temporaries (5 arrays of Q values per cell) beside
    the populations (DISTLBM_SLABS=0 keeps them whole)."""
    nbytes = f.size * max(f.dtype.itemsize, jnp.dtype(compute_dtype).itemsize)
    if slab_form(nbytes, whole_bytes=whole_bytes, planes=f.shape[1]) != "whole":
        return True
    return (jax.default_backend() != "cpu" and switch("DISTLBM_SLABS", True) and f.shape[1] >= 2
            and nbytes > _whole_bytes(whole_bytes))


def reader_slab_bytes() -> int:
    """The size of the readers' slabs: the step's slabs on CPUs (SLAB_BYTES), READER_SLAB_BYTES_GPU elsewhere."""
    return SLAB_BYTES if jax.default_backend() == "cpu" else READER_SLAB_BYTES_GPU


def xla_form(model: Model, shape, mesh_shape=None) -> str:
    """How the XLA step runs on one device's block of a `shape` lattice split over `mesh_shape`:
    'whole array', 'A-B slabs' or 'in place' (slab_form)."""
    block = tuple(s // m for s, m in zip(shape, mesh_shape or (1,) * len(shape)))
    size = model.lattice.q * int(np.prod(block, dtype=np.int64))
    nbytes = size * max(jnp.dtype(model.dtype).itemsize, jnp.dtype(model.compute_dtype).itemsize)
    form = slab_form(nbytes, planes=block[0])
    return {"whole": "whole array", "ab": "A-B slabs", "in_place": "in place"}[form]


def fused_form(inplace: Optional[bool] = None, model: Optional[Model] = None) -> str:
    """How the fused Pallas kernel advances: 'in place (AA)' (physics/fused_inplace.py: one population
    array; the default) or 'A-B' (a new array per step: DISTLBM_INPLACE=0, or inplace=False; and, with the
    reason, where the in-place kernels do not cover `model`: Bouzidi links, open faces, ...)."""
    if inplace is None:
        inplace = switch("DISTLBM_INPLACE", True)
    if not inplace:
        return "A-B"
    if model is not None:
        from distlbm.physics.fused import fused_supports

        ok, why = fused_supports(model, inplace=True)
        if not ok:
            return f"A-B (the in-place kernels do not cover {why})"
    return "in place (AA)"


def step_form(model: Model, path: str, shape, mesh_shape=None) -> str:
    """The form of the step `path` ('xla' | 'pallas', from `step_path`) on one device's block of a `shape`
    lattice split over `mesh_shape`: `xla_form` or `fused_form`."""
    return fused_form(model=model) if path == "pallas" else xla_form(model, shape, mesh_shape)


def make_step(model: Model, exchange: Callable, path: str = "auto", *, inplace: Optional[bool] = None,
              whole_bytes: Optional[int] = None, slab_bytes: Optional[int] = None) -> Callable:
    """Returns step(f, cells) -> f for one LBM time step on local arrays.

    `exchange(planes, axis, sign)` is the halo exchange (distlbm.parallel); f: [Q, X, Y(, Z)].
    path: 'auto' | 'xla' | 'pallas' (see `step_path`); the fused kernel keeps the same layout and
    results, so nothing else needs to know which step runs. inplace: stream in place in the slab form
    (default: yes unless DISTLBM_INPLACE=0); whole_bytes / slab_bytes: the size up to which the whole-array
    form runs and the size of a slab (tests lower them to reach the slab forms on small lattices).

    The streamed populations are kept as Q separate arrays (no stacked copy), and everything after
    streaming (bounce-back, moments, fixed-velocity/pressure cells, collision) runs slab by slab along
    x in a loop, each slab small enough to stay in cache while the moments are formed and read back
    by every population; each slab's result is written in place into the output. All of it is per
    cell, so the numbers do not depend on the slab size or on the decomposition. Populations small
    enough to stay in the last-level cache keep the whole-array form; both forms give the same bits.
    Inlets, outlets and outflow cells (which read their inner neighbour after streaming) run in every
    form: a slab holds two planes or more, so a face normal to x and its inner neighbour share the first
    or the last slab. In the slab forms, what only some slabs hold (those open faces, Bouzidi links,
    the absorbing layer) runs under a `lax.cond` in those slabs alone: the others would compute it per
    cell to select the value they had (3D-1Z at D = 20 on 2 CPU cores: 16 MLUPS against 6.2 whole-array).
    """
    if step_path(model, path)[0] == "pallas":
        from distlbm.physics.fused import make_fused_step

        return make_fused_step(model, exchange)
    from distlbm.physics.streaming import entering_planes, stream_parts, stream_slab

    whole_bytes = WHOLE_BYTES if whole_bytes is None else whole_bytes
    slab_bytes = SLAB_BYTES if slab_bytes is None else slab_bytes
    lat = model.lattice
    feat = model.features
    cdt = jnp.dtype(model.compute_dtype)
    sdt = jnp.dtype(model.dtype)
    inc = model.incompressible
    # Populations that (nearly) fit the last-level cache run faster as whole arrays; larger ones in
    # slabs of at most `slab_bytes` (measured on a 2-core CPU with 32 MiB L3: slabs win from ~96^3 D3Q19).
    # On GPUs the whole-array form is one fused kernel per population; a loop over thin slabs would
    # launch kernels per slab. The slab form is for CPU caches (see `slab_form`).

    def finish(fs, fc, kind, velocity, rho_bc, scale=None, sponge=None, keep_walls=True, field=None):
        """Moments, fixed-velocity/pressure cells, collision and the absorbing layer of the streamed,
        bounced-back fs; wall cells keep their populations fc (unless keep_walls is False: the caller
        puts them back). field: the cells' per-cell force [D, ...] (Model.force_field), else None."""
        if model.force_field:
            if field is None:
                raise ValueError("the per-cell force field is missing")
            force = field.astype(cdt)
        else:
            force = model.force
        drho, u = deviation_moments(fs, lat, force, inc)
        # materialise the moments once instead of recomputing them for every population's output
        m = lax.optimization_barrier(jnp.stack((drho,) + u))
        drho, u = m[0], tuple(m[1:])
        fs, drho, u = bc.dirichlet(fs, drho, u, kind, velocity, rho_bc, lat, feat, scale, inc)
        geq_opp = None
        if model.collision.kind == "trt":  # geq of the opposite directions without a gather over Q
            geq_opp = equilibrium_deviation(drho, tuple(-ua for ua in u), lat, inc)
        # the collisions are linear in (f, feq): on deviations g = f - w they give g* = f* - w
        out = collide(fs, 1.0 + drho, u, equilibrium_deviation(drho, u, lat, inc), model.collision, lat, force,
                      geq_opp)
        if feat.sponge:
            if sponge is None:
                raise ValueError("the absorbing layer's strength is missing")
            # under a lax.cond in every form: a slab (or a block of a mesh) without the layer skips it, and where
            # it runs it reads the collision's stored output in every form. Fused with the collision in the
            # whole-array form, XLA:CPU contracted its arithmetic into FMAs otherwise than in the slab forms
            # (last-bit differences in the layer between the two forms); see bc.sponge for the meshes. It costs the
            # whole-array form (lattices below whole_bytes) a pass: schaefer_turek_2d1's default 441 x 84 on 2 cores
            # 66 -> 60 MLUPS; the slab forms ran it so before
            out = lax.cond(jnp.any(sponge != 0), lambda g: bc.sponge(g, sponge, velocity, lat, scale, inc),
                           lambda g: g, out)
        if feat.walls and keep_walls:
            out = jnp.where(bc.is_wall(kind)[None], fc, out)
        return out.astype(sdt)

    def whole(f, cells: Cells, scale=None):
        fs, fc = boundary_populations(f, cells, scale)
        return finish(fs, fc, cells.kind, cells.velocity, cells.rho, scale, cells.sponge, field=cells.force)

    def boundary_populations(f, cells: Cells, scale=None):
        """Streamed populations after walls, outflow, inlets and outlets (compute dtype), and f itself."""
        fs = lax.optimization_barrier(stream(f, lat.c, exchange)).astype(cdt)
        fc = f.astype(cdt)
        if feat.walls:
            fs = lax.optimization_barrier(box_walls(fs, fc, cells))
        return open_faces(fs, fc, cells.kind, cells.velocity, cells.rho, scale), fc

    faces_x = all(axis == 0 for axis, _ in feat.outflow + feat.inlets + feat.outlets)

    def slab_open_faces(fs, fc, x0, b, nx, kind, velocity, rho, scale):
        """open_faces on the slab x0 .. x0+b-1 of a block of nx planes. Where every open face is normal to
        x only the first and the last slab can hold face cells: the others skip them (lax.cond)."""
        if not faces_x:
            return open_faces(fs, fc, kind, velocity, rho, scale)
        if isinstance(x0, int):
            return open_faces(fs, fc, kind, velocity, rho, scale) if x0 == 0 or x0 + b == nx else fs
        return lax.cond((x0 == 0) | (x0 + b == nx), lambda g: open_faces(g, fc, kind, velocity, rho, scale),
                        lambda g: g, fs)

    def open_faces(fs, fc, kind, velocity, rho, scale):
        """Outflow, inlet and outlet cells (on the lattice faces; each reads its inner neighbour, which is
        in the same block or slab along the face's axis). Elsewhere fs is returned unchanged."""
        fs = bc.outflow(fs, kind, feat, exchange, fc, lat)
        if feat.inlets or feat.outlets:
            fs = bc.extrapolated(fs, kind, velocity, rho, lat, feat, scale, inc)
        return fs

    def walls(fs, fc, links, moving, velocity, qlink):
        out = bc.bounce_back(fs, fc, links, moving, velocity, lat)
        if qlink is None:
            return out
        return jnp.where(qlink == 0, out, bc.bouzidi(fs, fc, links, qlink, lat))

    def box_walls(fs, fc, cells: Cells):
        """`walls` on the whole block: halfway bounce-back everywhere, the interpolated links on qlink's box
        of planes alone (on every plane where the planes outside the box hold links: qplane)."""
        if cells.qplane is not None:
            qlink = bc.wall_fraction_window(cells.qlink, cells.qbox, 0, fs.shape[1], cells.qplane)
            return walls(fs, fc, cells.links, cells.moving, cells.velocity, qlink)
        out = bc.bounce_back(fs, fc, cells.links, cells.moving, cells.velocity, lat)
        if cells.qlink is None:
            return out
        x0, b = jnp.reshape(cells.qbox, ()), cells.qlink.shape[1]

        def box(a, axis=1):
            return lax.dynamic_slice_in_dim(a, x0, b, axis=axis)

        interpolated = bc.bouzidi(box(fs), box(fc), box(cells.links, 0), cells.qlink, lat)
        inner = jnp.where(cells.qlink == 0, box(out), interpolated)
        return lax.dynamic_update_slice_in_dim(out, inner, x0, axis=1)

    def slab_walls(fs, fc, links, moving, velocity, qlink):
        """`walls` on a slab: the interpolated links only in slabs that hold one (curved obstacles fill a
        few slabs of a channel; the others take halfway bounce-back alone, as they would per cell)."""
        if qlink is None:
            return walls(fs, fc, links, moving, velocity, None)
        return lax.cond(jnp.any(qlink != 0), lambda g: walls(g, fc, links, moving, velocity, qlink),
                        lambda g: walls(g, fc, links, moving, velocity, None), fs)

    def slab_plan(shape, itemsize, least=1):
        """(planes per slab b, planes of a last slab r or 0), each at least `least`: the largest
        divisor of the block's x size within slab_bytes; where none fits (a prime size, as channel lengths
        give: 751 planes ran as one slab), the most planes that fit with the rest r >= least in a last
        slab; else slabs of the most planes that fit and a last one of them plus the rest (less than
        twice a slab; never one whole-block slab where two fit). (Larger slabs are not faster here: 3D-1Z at D = 20
        on 2 CPU devices ran 21 MLUPS in 3-plane slabs, 15.5 in 22-plane ones.)"""
        nx = shape[1]
        per_x = shape[0] * int(np.prod(shape[2:], dtype=np.int64)) * max(itemsize, cdt.itemsize)
        divisors = [b for b in range(1, nx + 1) if nx % b == 0]
        fits = [b for b in divisors if b * per_x <= slab_bytes and b >= least]
        if fits:
            return max(fits), 0
        most = min(nx, max(least, slab_bytes // per_x))
        for b in range(most, least - 1, -1):
            if nx % b >= least:
                return b, nx % b
        if nx < 2 * most:
            return nx, 0
        # slabs of `most` planes and a last one of most + (nx % most) < 2 most: one whole-block slab instead (a
        # prime nx with 3-plane slabs: 97, 173, 241) held the whole-array form's 2 arrays of temporaries
        return most, (most + nx % most if nx % most else 0)

    def slab_boundary(out, fs, x0, b, cells: Cells, scale, need_fc=False):
        """The slab x0 .. x0+b-1's streamed populations fs [Q, b, ...] (storage dtype) after walls,
        outflow, inlets and outlets (compute dtype), and its pre-streaming populations fc (where walls,
        convective outflow or need_fc want them; else None); `out` still holds those in the slab."""
        take = slab_taker(x0, b)
        fs = lax.optimization_barrier(fs).astype(cdt)
        fc = None
        velocity, rho = slab_values(cells, x0, b)
        if feat.walls or feat.convective > 0 or need_fc:  # the pre-streaming populations: untouched in `out`
            fc = take(out, 1).astype(cdt)
        if feat.walls:
            qlink = None if cells.qlink is None else bc.wall_fraction_window(
                cells.qlink, cells.qbox, x0, b, cells.qplane)
            fs = slab_walls(fs, fc, take(cells.links), take(cells.moving), velocity, qlink)
            # materialised once, or every output population would redo the gathers over Q
            fs = lax.optimization_barrier(fs)
        if feat.neighbours:
            fs = slab_open_faces(fs, fc, x0, b, out.shape[1], take(cells.kind), velocity, rho, scale)
        return fs, fc

    def slab_taker(x0, b):
        def take(a, axis=0):
            return None if a is None else lax.dynamic_slice_in_dim(a, x0, b, axis=axis)

        return take

    def slab_values(cells: Cells, x0, b):
        """(velocity, rho) of the slab x0 .. x0+b-1: the block's one plane of each where they are the same in
        every plane along x (Features.x_invariant; they broadcast along x)."""
        if feat.x_invariant:
            return cells.velocity, cells.rho
        take = slab_taker(x0, b)
        return take(cells.velocity, 1), take(cells.rho)

    def slab_finish(out, fs, x0, b, cells: Cells, scale, keep_walls=True):
        """The slab x0 .. x0+b-1 of the step's result from its streamed populations fs [Q, b, ...]
        (storage dtype); `out` still holds the slab's pre-streaming populations."""
        take = slab_taker(x0, b)
        fs, fc = slab_boundary(out, fs, x0, b, cells, scale)
        velocity, rho = slab_values(cells, x0, b)
        return finish(fs, fc, take(cells.kind), velocity, rho, scale, take(cells.sponge), keep_walls,
                      take(cells.force, 1))

    def slab_forces(f, cells: Cells, scale=None):
        """The momentum-exchange force on each body ([bodies, D, K + 1, 1, ...] fixed-point partial sums, as
        bc.momentum_exchange) slab by slab along x: each slab's populations are pulled from f and the
        exchanged faces, bounced back and summed over its wall links, so that the forces need the
        populations once plus a few slabs (the whole-array form holds a streamed copy and the wall
        treatment's temporaries: 5 arrays of Q values per cell). The same per-link values as the
        whole-array form, and integer sums: the same bits."""
        c = lat.c
        wraps = getattr(exchange, "wraps", None)
        local = tuple(bool(wraps(a)) if wraps is not None else False for a in range(lat.d))
        body_q = [cells.body] * lat.q  # a list, not a broadcast [Q, ...] array: XLA formed that (Q B/cell)
        recv, body_recv = entering_planes(f, c, exchange), entering_planes(body_q, c, exchange)
        nx = f.shape[1]
        b, tail = slab_plan(f.shape, f.dtype.itemsize, least=2 if feat.neighbours else 1)
        n_slabs = (nx - tail) // b + (1 if tail else 0)

        def window(src, enter, s, x0, size):
            """Planes x0 - s .. x0 + size - 1 - s of src [nx, ...] (s = c_k[0]), with the entering plane
            where they leave the block (x0 is a Python int for the first and the last slab)."""
            if s > 0 and isinstance(x0, int) and x0 == 0:
                return jnp.concatenate([enter, src[: size - 1]], axis=0)
            if s < 0 and isinstance(x0, int) and x0 + size == nx:
                return jnp.concatenate([src[x0 + 1:], enter], axis=0)
            return lax.dynamic_slice_in_dim(src, x0 - s, size, axis=0)

        def streamed(src, rec, x0, size):
            return jnp.stack([stream_slab(window(src[k], rec[k].get(0), int(c[k][0]), x0, size), c[k], rec[k], x0,
                                          size, local) for k in range(lat.q)])

        def one(x0, size):
            fs, fc = slab_boundary(f, streamed(f, recv, x0, size), x0, size, cells, scale, need_fc=True)
            take = slab_taker(x0, size)
            return bc.link_forces(fs, fc, take(cells.kind), take(cells.links), streamed(body_q, body_recv, x0, size),
                                  feat.bodies, lat)

        total = one(0, b if n_slabs > 1 or not tail else tail)
        if n_slabs > 2:
            total = lax.fori_loop(1, n_slabs - 1, lambda i, acc: acc + one(i * b, b), total)
        if n_slabs > 1:
            total = total + one((n_slabs - 1) * b, tail or b)
        return total

    def in_place(f, cells: Cells, scale):
        """The slab form with streaming done slab by slab inside the loop, into the one population
        array (the A-B slab form streams into a second one). Slab i (cells x0 .. x0+b-1) pulls from
        the pre-streaming planes x0-1 .. x0+b; its result is written one plane late: iteration i
        writes planes x0-1 .. x0+b-2 (the last plane of slab i-1, carried, then slab i's first b-1)
        and carries slab i's last plane, and the first slab's plane 0 is written after the loop (the
        last slab pulls from it when x wraps onto this block). So no plane is overwritten before
        every slab that pulls from it has read it, every read of the array feeds the next write, and
        XLA updates the array in place. Along axes that wrap onto this block the entering planes are
        taken inside the loop from the slab itself; along exchanged axes they come from one exchange
        before the loop, and the first write's offset is computed from what arrived, so that the
        planes sent are read before anything is written. Memory: the populations once plus a few
        slabs and faces. Needs 3 or more planes along x (else the A-B slab form runs)."""
        c = lat.c
        d = lat.d
        wraps = getattr(exchange, "wraps", None)  # wraps(axis): the axis has this block alone (periodic wrap)
        local = tuple(bool(wraps(a)) if wraps is not None else False for a in range(d))
        recv = entering_planes(f, c, exchange)
        nx = f.shape[1]
        b, tail = slab_plan(f.shape, f.dtype.itemsize, least=3)
        n_full = (nx - tail) // b
        n_slabs = n_full + (1 if tail else 0)
        rest = tuple(f.shape[2:])

        def old(out, k, x, size):
            """Planes x .. x+size-1 of population k, as they are in `out` now."""
            return lax.dynamic_slice(out, (k, x) + (0,) * len(rest), (1, size) + rest)[0]

        def streamed(out, k, i, x0, size):
            ck = c[k]
            first = isinstance(i, int) and i == 0
            if ck[0] > 0:  # pulls plane x0-1: for the first slab the block's last plane, or exchanged
                if first:
                    enter = old(out, k, nx - 1, 1) if local[0] else recv[k][0]
                    window = jnp.concatenate([enter, old(out, k, 0, size - 1)], axis=0)
                else:
                    window = old(out, k, x0 - 1, size)
            elif ck[0] < 0:  # pulls plane x0+size: for the last slab plane 0 (not yet written), or exchanged
                wrap = old(out, k, 0, 1) if local[0] else recv[k][0]
                nxt = jnp.where(jnp.asarray(i) == n_slabs - 1, wrap,
                                old(out, k, jnp.minimum(x0 + size, nx - 1), 1))
                window = jnp.concatenate([old(out, k, x0 + 1, size - 1), nxt], axis=0)
            else:
                window = old(out, k, x0, size)
            return stream_slab(window, ck, recv[k], x0, size, local)

        def slab(out, i, x0, size=b):
            """Slab i's result [Q, size, ...] (i a Python int for the first and the last, smaller slab,
            traced in the loop)."""
            fs = jnp.stack([streamed(out, k, i, x0, size) for k in range(lat.q)])
            # wall cells keep their populations: put back where they are written (`write`), so that the
            # carried last plane needs nothing more from `out` (XLA would read it there after the write)
            return slab_finish(out, fs, x0, size, cells, scale, keep_walls=False)

        def write(out, values, x):
            """Planes x .. of the result into `out`; wall cells keep what `out` holds there."""
            if feat.walls:
                size = values.shape[1]
                wall = bc.is_wall(lax.dynamic_slice_in_dim(cells.kind, x, size, axis=0))[None]
                values = jnp.where(wall, lax.dynamic_slice_in_dim(out, x, size, axis=1), values)
            return lax.dynamic_update_slice_in_dim(out, values, x, axis=1)

        o = slab(f, 0, 0)
        start = jnp.asarray(1, jnp.int32)
        arrived = [recv[k][a] for k in range(lat.q) for a in recv[k] if not local[a]]
        if arrived:  # always 1: m > m is false for every m, NaN included
            m = jnp.max(jnp.stack([jnp.max(p) for p in arrived]))
            start = start + (m > m).astype(jnp.int32)
        out = write(f, o[:, 1: b - 1], start)

        def body(i, carry):
            out, last = carry
            x0 = i * b
            o = slab(out, i, x0)
            return write(out, jnp.concatenate([last, o[:, : b - 1]], axis=1), x0 - 1), o[:, b - 1:]

        out, last = lax.fori_loop(1, n_full, body, (out, o[:, b - 1:]))
        if tail:  # the last, smaller slab, written one plane late like the others
            x0 = n_full * b
            ot = slab(out, n_full, x0, tail)
            out, last = write(out, jnp.concatenate([last, ot[:, : tail - 1]], axis=1), x0 - 1), ot[:, tail - 1:]
        return write(write(out, last, nx - 1), o[:, :1], 0)

    def step(f, cells: Cells, t=None):
        scale = bc.ramp_factor(t, feat.ramp_steps).astype(cdt) if (feat.ramp_steps and t is not None) else None
        form = slab_form(f.size * max(f.dtype.itemsize, cdt.itemsize), whole_bytes=whole_bytes,
                         inplace=inplace, planes=f.shape[1])
        if form == "whole":
            return whole(f, cells, scale)
        if form == "in_place":
            return in_place(f, cells, scale)
        pops = lax.optimization_barrier(stream_parts(f, lat.c, exchange))
        nx = f.shape[1]
        b, tail = slab_plan(f.shape, f.dtype.itemsize, least=2 if feat.neighbours else 1)
        n_full = (nx - tail) // b

        def one(out, x0, size):
            fs = jnp.stack([lax.dynamic_slice_in_dim(p, x0, size, axis=0) for p in pops])
            return lax.dynamic_update_slice_in_dim(out, slab_finish(out, fs, x0, size, cells, scale), x0, axis=1)

        out = lax.fori_loop(0, n_full, lambda i, out: one(out, i * b, b), f)
        return one(out, n_full * b, tail) if tail else out

    step.boundary_populations = boundary_populations
    step.slab_forces = slab_forces
    return step


def make_forces(model: Model, exchange: Callable, *, whole_bytes: Optional[int] = None,
                slab_bytes: Optional[int] = None) -> Callable:
    """forces(f, cells) -> [bodies, D, K + 1, 1, ...]: this block's momentum-exchange force on each body for
    the step that starts from the stored populations f (see physics.boundaries.momentum_exchange), in
    the form of the XLA step on this block: whole array, or slab by slab (`slab_forces`) where the step
    runs in slabs. whole_bytes / slab_bytes: as for make_step (tests reach the slabs on small lattices)."""
    # the forces read the XLA step's boundary populations
    step = make_step(model, exchange, path="xla", whole_bytes=whole_bytes,
                     slab_bytes=reader_slab_bytes() if slab_bytes is None else slab_bytes)
    feat = model.features

    def forces(f, cells: Cells, t=None):
        scale = bc.ramp_factor(t, feat.ramp_steps) if (feat.ramp_steps and t is not None) else None
        if runs_in_slabs(f, model.compute_dtype, whole_bytes):
            return step.slab_forces(f, cells, scale)  # the step's slab forms: the populations once, plus slabs
        fnew, fc = step.boundary_populations(f, cells, scale)
        return bc.momentum_exchange(fnew, fc, cells.kind, cells.links, cells.body, feat.bodies, model.lattice, exchange)

    return forces


def make_advance(step: Callable, jit: bool = True) -> Callable:
    """advance(state, cells, n) -> state: n steps in one lax.fori_loop (n is traced: one compile)."""

    def advance(state: State, cells: Cells, n):
        f = lax.fori_loop(0, n, lambda i, f: step(f, cells, state.step + i), state.f)
        return State(f, state.step + jnp.asarray(n, state.step.dtype))

    return jax.jit(advance, donate_argnums=0) if jit else advance


def make_inplace_advance(push: Callable, local: Callable, unpush: Callable, jit: bool = True) -> Callable:
    """advance(state, cells, n) -> state from steps that update the populations in place in the fused
    kernel's AA pattern (physics/fused_inplace.py): push(f, cells) one step from the canonical layout to
    the pushed one, local(f, cells) one step back, unpush(f, cells) the pushed layout back without a step.
    n // 2 (push, local) pairs in a loop whose carry is the one population array, then, for an odd n, a
    push and an unpush (n is traced: one compile). (Alternating push and local with a `lax.cond` in one
    loop compiles each kernel once, but XLA:CPU then copies the population array.)"""

    def advance(state: State, cells: Cells, n):
        n = jnp.asarray(n, jnp.int32)
        f = lax.fori_loop(0, n // 2, lambda i, f: local(push(f, cells), cells), state.f)
        f = lax.fori_loop(0, n % 2, lambda i, f: unpush(push(f, cells), cells), f)
        return State(f, state.step + n.astype(state.step.dtype))

    return jax.jit(advance, donate_argnums=0) if jit else advance


def macroscopic(f, model: Model, field=None):
    """rho: [X, Y(, Z)] and u: [D, X, Y(, Z)] from the stored post-collision populations (compute dtype).

    The state stores deviations g_i = f*_i - w_i, so rho = 1 + sum g. With a body force F the
    post-collision momentum is rho u + F/2, so u = (sum c g - F/2) / rho (incompressible
    equilibrium: u = sum c g - F/2). field: the per-cell force [D, ...] of the same cells where
    model.force_field (None there: u without the half-force term, the momentum the populations carry).
    """
    lat = model.lattice
    cdt = jnp.dtype(model.compute_dtype)
    fl = [f[i].astype(cdt) for i in range(lat.q)]  # per population: a whole cast is materialised (2x 16-bit f)
    rho = 1.0 + density(fl, lat)
    j = momentum(fl, lat)
    if model.force is not None:
        j = tuple(ja - 0.5 * fa for ja, fa in zip(j, model.force))
    elif model.force_field and field is not None:
        j = tuple(ja - 0.5 * field[a].astype(cdt) for a, ja in enumerate(j))
    if model.incompressible:
        return rho, jnp.stack(j)
    return rho, jnp.stack([ja / rho for ja in j])


def predicted_bytes_per_cell(model: Model) -> int:
    """Minimum memory traffic of one cell update: read and write every population once."""
    return 2 * model.lattice.q * np.dtype(model.dtype).itemsize
