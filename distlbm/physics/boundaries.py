"""Boundaries as cell kinds: halfway bounce-back walls (optionally moving), and fixed-velocity,
fixed-pressure and outflow cells. All operations are local to a shard once the populations have
been streamed; the per-link wall bits are precomputed with the same shift used for streaming.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import jax.numpy as jnp
import numpy as np
from jax import lax

from distlbm.lattice import Lattice
from distlbm.physics.equilibrium import cdotu, equilibrium_deviation, qconst
from distlbm.physics.moments import deviation_moments
from distlbm.physics.streaming import stream, stream_parts

# cell kinds (uint8 per cell)
FLUID = 0
WALL = 1  # solid, halfway bounce-back
MOVING_WALL = 2  # solid moving with a prescribed velocity (Ladd's correction)
VELOCITY = 3  # fixed velocity (equilibrium with the local density)
PRESSURE = 4  # fixed density (equilibrium with the local velocity)
OUTFLOW = 8  # 8 + 2*axis + (0 for an outward normal +e_axis, 1 for -e_axis): zero-gradient copy
INLET = 16  # 16 + 2*axis + (0 / 1 as above): velocity inlet, non-equilibrium extrapolation (2nd order)
OUTLET = 24  # 24 + 2*axis + (0 / 1 as above): pressure outlet, non-equilibrium extrapolation (2nd order)

KIND_NAMES = {FLUID: "fluid", WALL: "wall", MOVING_WALL: "moving_wall", VELOCITY: "velocity", PRESSURE: "pressure"}
for _a, _n in enumerate("xyz"):
    KIND_NAMES[OUTFLOW + 2 * _a] = f"outflow+{_n}"
    KIND_NAMES[OUTFLOW + 2 * _a + 1] = f"outflow-{_n}"
    KIND_NAMES[INLET + 2 * _a] = f"inlet+{_n}"
    KIND_NAMES[INLET + 2 * _a + 1] = f"inlet-{_n}"
    KIND_NAMES[OUTLET + 2 * _a] = f"outlet+{_n}"
    KIND_NAMES[OUTLET + 2 * _a + 1] = f"outlet-{_n}"


def outflow_kind(axis: int, sign: int) -> int:
    """Kind code of an outflow cell whose outward normal is sign * e_axis."""
    return OUTFLOW + 2 * axis + (0 if sign > 0 else 1)


def inlet_kind(axis: int, sign: int) -> int:
    """Kind code of a (non-equilibrium extrapolation) velocity inlet cell with outward normal sign * e_axis."""
    return INLET + 2 * axis + (0 if sign > 0 else 1)


def outlet_kind(axis: int, sign: int) -> int:
    """Kind code of a (non-equilibrium extrapolation) pressure outlet cell with outward normal sign * e_axis."""
    return OUTLET + 2 * axis + (0 if sign > 0 else 1)


@dataclass(frozen=True)
class Features:
    """Which boundary kinds a case uses (static: decides what the step traces)."""

    walls: bool = False
    moving: bool = False
    velocity: bool = False
    pressure: bool = False
    outflow: tuple = ()  # tuple of (axis, sign)
    convective: float = 0.0  # > 0: the outflow cells are convective with this normal velocity
    inlets: tuple = ()  # (axis, sign) of velocity inlets (non-equilibrium extrapolation)
    outlets: tuple = ()  # (axis, sign) of pressure outlets (non-equilibrium extrapolation)
    bouzidi: bool = False  # walls carry a per-link wall distance q: interpolated bounce-back
    ramp_steps: int = 0  # inlet and fixed velocities rise as sin^2(pi t / (2 T)) over T steps
    bodies: int = 0  # obstacles whose force is measured (cells carry a body id)
    sponge: bool = False  # an absorbing layer: cells carry a strength and a target velocity (`sponge`)
    # the prescribed velocities and densities are the same in every plane along x wherever a boundary reads
    # them (a channel's inflow profile, at the inlet and as the absorbing layer's target, and its outlet
    # density): they are kept as one plane per block, [D, 1, Y(, Z)] and [1, Y(, Z)], not per cell (16 B/cell)
    x_invariant: bool = False

    def __post_init__(self):
        if self.sponge and not (self.outflow or self.inlets or self.outlets):
            # the layer lies before an open boundary; such cases take the step's whole-array form
            raise ValueError("an absorbing (sponge) layer needs an inlet, outlet or outflow face")
        if self.x_invariant and (self.moving or self.velocity or self.pressure):
            raise ValueError("moving walls and fixed-velocity/pressure cells carry values per cell; "
                             "x_invariant is for inlets, outlets and the absorbing layer alone")

    def __str__(self) -> str:
        """The fields given (the default ones left out): Features(walls=True, inlets=((0, -1),))."""
        given = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if getattr(self, f.name) != f.default]
        return f"Features({', '.join(given)})"

    @property
    def any(self) -> bool:
        return self.walls or self.velocity or self.pressure or bool(self.outflow or self.inlets or self.outlets)

    @property
    def neighbours(self) -> bool:
        """Whether a boundary reads populations of a neighbouring cell after streaming."""
        return bool(self.outflow or self.inlets or self.outlets)

    @property
    def uses_velocity(self) -> bool:
        return self.moving or self.velocity or bool(self.inlets) or self.sponge

    @property
    def uses_rho(self) -> bool:
        return self.pressure or bool(self.outlets)


def off_face(kind: np.ndarray, index, shape) -> str | None:
    """Host check of a block's kinds: outflow, inlet and outlet cells must lie on the lattice face their
    normal points out of. Returns a message naming the first offending kind, or None."""
    kind = np.asarray(kind)
    for base, what in ((OUTFLOW, "outflow"), (INLET, "inlet"), (OUTLET, "outlet")):
        for axis in range(kind.ndim):
            for s_, sign in ((0, 1), (1, -1)):
                code = base + 2 * axis + s_
                cells = kind == code
                if not cells.any():
                    continue
                pos = np.nonzero(cells)[axis] + (index[axis].start or 0)
                face = shape[axis] - 1 if sign > 0 else 0
                if np.any(pos != face):
                    return (f"{what} cells with outward normal {'+' if sign > 0 else '-'}{'xyz'[axis]} found at "
                            f"{'xyz'[axis]} = {int(pos[pos != face][0])}; expected them on the lattice face "
                            f"{'xyz'[axis]} = {face}")
    return None


def allowed_kinds(features: Features) -> set:
    """The kind codes a geometry may use with these features: the step handles no other (a cell of a kind the
    features leave out was stepped as fluid, or its boundary not applied, unsaid)."""
    ok = {FLUID}
    if features.walls or features.moving:
        ok.add(WALL)
    if features.moving:
        ok.add(MOVING_WALL)
    if features.velocity:
        ok.add(VELOCITY)
    if features.pressure:
        ok.add(PRESSURE)
    for faces, base in ((features.outflow, OUTFLOW), (features.inlets, INLET), (features.outlets, OUTLET)):
        ok.update(base + 2 * axis + (0 if sign > 0 else 1) for axis, sign in faces)
    return ok


def block_span(index, shape) -> str:
    """The block `index` (a tuple of slices) of a lattice of `shape` as the errors about a case's blocks name it:
    '(0:8, 4:8)'."""
    return "(" + ", ".join(f"{a}:{b}" for a, b, _ in (sl.indices(n) for sl, n in zip(index, shape))) + ")"


def geometry_problem(g: tuple, index, shape, features: Features, d: int, q: int) -> str | None:
    """Host check of what a case's geometry(index) returned for a block (kind, velocity, rho, qlink, body,
    sponge; see cases.base.Geometry): the arrays' shapes, an integer kind array, and kinds that the features
    name. Returns a message naming the first problem, or None. (A kind of the wrong shape failed as a bare
    AssertionError of tuples; an inlet kind without Features.inlets ran without its inlet, unsaid.)"""
    bs = tuple(len(range(*sl.indices(n))) for sl, n in zip(index, shape))
    at = f"for the block {block_span(index, shape)} of shape {bs}"
    kind = np.asarray(g[0])
    if kind.shape != bs:
        return f"geometry(index) returned kind of shape {kind.shape} {at}; expected an array of the block's shape"
    if not (np.issubdtype(kind.dtype, np.integer) or kind.dtype == bool):
        return (f"geometry(index) returned kind of dtype {kind.dtype} {at}; expected uint8 kind codes "
                f"(distlbm.physics.boundaries: FLUID, WALL, inlet_kind(axis, sign), ...)")
    for k, name, lead in ((1, "velocity", (d,)), (2, "rho", ()), (3, "qlink", (q,)), (4, "body", ()),
                          (5, "sponge", ())):
        if k < len(g) and g[k] is not None and np.shape(g[k]) != lead + bs:
            return f"geometry(index) returned {name} of shape {np.shape(g[k])} {at}; expected {lead + bs} or None"
    ok = allowed_kinds(features)
    bad = [int(v) for v in np.unique(kind) if int(v) not in ok]
    if bad:
        names = ", ".join(f"{v} ({KIND_NAMES.get(v, 'no kind')})" for v in bad)
        return (f"geometry(index) returned kind {names} {at}, which Setup.features = {features} does not name; "
                f"expected only {', '.join(KIND_NAMES[v] for v in sorted(ok))} (or features naming the kind: "
                f"walls=True, inlets=((axis, sign),), ...)")
    return None


def is_wall(kind):
    return (kind == WALL) | (kind == MOVING_WALL)


def link_data(kind, velocity, lattice: Lattice, exchange, features: Features):
    """Per-cell link bits from the kinds: bit i of `links` is set when the cell x - c_i is a wall,
    bit i of `moving` when it is a moving wall; `wall_u` carries the velocity of an adjacent moving
    wall (elsewhere the given velocity). kind: [X, Y(, Z)] uint8; velocity: [D, ...] or None.
    """
    # The masks are streamed as bytes, one direction at a time, and folded into the bits as they come:
    # no [Q, ...] array of 4-byte masks or velocities is formed (cavity3d at 98^3: 1047 B/cell at this
    # set-up's peak with stacked masks).
    q = lattice.q

    def streamed(x):
        return stream_parts(jnp.broadcast_to(x[None], (q,) + x.shape), lattice.c, exchange)

    def bits_of(parts):
        acc = None
        for i, p in enumerate(parts):
            term = p.astype(jnp.uint32) << jnp.uint32(i)
            acc = term if acc is None else acc | term
        return acc

    links = bits_of(streamed(is_wall(kind).astype(jnp.uint8)))
    if not features.moving:
        return links, None, velocity
    mov_s = streamed((kind == MOVING_WALL).astype(jnp.uint8))
    moving = bits_of(mov_s)
    fluid_side = ~is_wall(kind)
    wall_u = []
    for a in range(lattice.d):  # each component from the given velocity, stacked at the end (updating the
        ua_s = streamed(velocity[a])  # [D, ...] array in place, component by component, cost 465 B/cell)
        pick = velocity[a]
        for i in range(1, q):  # the velocity of the cell x - c_i where that is a moving wall
            pick = jnp.where((mov_s[i] != 0) & fluid_side, ua_s[i], pick)
        wall_u.append(pick)
    return links, moving, jnp.stack(wall_u)


def bounce_back(fs, fc, links, moving, wall_u, lattice: Lattice, rho_wall: float = 1.0):
    """Halfway bounce-back in pull form: where x - c_i is a wall, f_i(x) = f*_opp(i)(x) + 2 w_i rho_w (c_i.u_w)/cs2.

    fs: streamed populations [Q, ...]; fc: post-collision populations before streaming [Q, ...].
    """
    q = lattice.q
    nd = links.ndim
    bits = jnp.asarray(1 << np.arange(q, dtype=np.uint32), jnp.uint32).reshape((q,) + (1,) * nd)
    hit = (links[None] & bits) != 0
    val = fc[lattice.opposite]
    if moving is not None:
        m = ((moving[None] & bits) != 0).astype(fs.dtype)
        u = tuple(wall_u[a].astype(fs.dtype) for a in range(lattice.d))
        corr = qconst(2.0 * lattice.w * rho_wall / lattice.cs2, nd, fs.dtype) * cdotu(u, lattice)
        val = val + m * corr
    return jnp.where(hit, val, fs)


def encode_q(q) -> np.ndarray:
    """Wall fractions q in (0, 1] (0: no wall link) as the uint8 codes `bouzidi` reads: q * 254, at least 1."""
    q = np.asarray(q)
    return np.where(q > 0, np.clip(np.rint(q * 254.0), 1, 254), 0).astype(np.uint8)


def bouzidi(fs, fc, links, qlink, lattice: Lattice):
    """Interpolated bounce-back (Bouzidi, Firdaouss & Lallemand 2001, linear) in pull form.

    For a fluid cell x whose neighbour x - c_i is solid (bit i of `links`), the wall crosses the link
    at the fraction q of its length from x (q = qlink[i] / 254; 127 is halfway). With j = opposite(i):
      q < 1/2:  f_i(x) = 2q f*_j(x) + (1 - 2q) f*_j(x + c_i)      (f*_j(x + c_i) is the streamed fs_j(x))
      q >= 1/2: f_i(x) = f*_j(x) / (2q) + (2q - 1)/(2q) f*_i(x)
    The coefficients sum to one and w_i = w_j, so the formulas hold as they are for the stored
    deviations f - w. Where x + c_i is solid too (a gap one cell wide), halfway bounce-back is used.
    fs: streamed populations [Q, ...]; fc: populations before streaming; qlink: uint8 [Q, ...].
    Returns only the values of the hit links (elsewhere: fc[opposite], to be selected by the caller).
    """
    q = lattice.q
    nd = links.ndim
    bits = jnp.asarray(1 << np.arange(q, dtype=np.uint32), jnp.uint32).reshape((q,) + (1,) * nd)
    opp = lattice.opposite
    qq = qlink.astype(fs.dtype) * (1.0 / 254.0)
    lo = qq < 0.5
    # the second fluid node x + c_i must be fluid: bit opposite(i) clear
    far_wall = (links[None] & bits[opp]) != 0
    two_q = 2.0 * qq
    inv = 1.0 / jnp.maximum(two_q, 1e-3)
    a = jnp.where(lo, two_q, inv)
    b = jnp.where(lo, 1.0 - two_q, 1.0 - inv)
    other = jnp.where(lo, fs[opp], fc)
    val = a * fc[opp] + b * other
    return jnp.where(lo & far_wall, fc[opp], val)


# The Bouzidi fractions are kept for a box of planes along x of each block: those between its first and its last
# plane that differ from the block's `plane` (a curved obstacle fills a few planes of a channel; Q bytes per cell
# over the whole block were the largest static item: 19 of the sphere's 41 B/cell). `plane` [Q, 1, ...] holds the
# fractions of every plane outside the box: the links of a channel's far walls off the grid, the same in every
# plane along x (Features.x_invariant); None where no plane outside the box holds one (0: halfway). Every block's
# box has the same number of planes (the most any block needs: the blocks stack into one global array), and its
# first plane along x is kept beside it (`first`, int32 with a size-1 axis per spatial axis, stacked like the
# blocks).

def _held(qlink, plane):
    """Which planes along x of the block's fractions qlink [Q, X, ...] differ from `plane` (None: 0)."""
    other = qlink != 0 if plane is None else qlink != plane
    return jnp.any(other, axis=tuple(a for a in range(qlink.ndim) if a != 1))


def wall_fraction_extent(qlink, plane=None):
    """The number of planes along x between the block's first and last plane that differ from `plane` (hold a
    nonzero fraction where plane is None; 1 where none does), with a size-1 axis per spatial axis. qlink: uint8
    [Q, X, ...] of the whole block."""
    held = _held(qlink, plane)
    nx = held.shape[0]
    first = jnp.argmax(held)
    last = nx - 1 - jnp.argmax(held[::-1])
    planes = jnp.where(jnp.any(held), last - first + 1, 1).astype(jnp.int32)
    return planes.reshape((1,) * (qlink.ndim - 1))


def wall_fraction_box(qlink, planes: int, plane=None):
    """(box [Q, planes, ...], first): the `planes` planes of the block's fractions from `first` (as early as
    the block's planes that differ from `plane` allow: they all lie in the box)."""
    first = jnp.clip(jnp.argmax(_held(qlink, plane)), 0, qlink.shape[1] - planes).astype(jnp.int32)
    box = lax.dynamic_slice_in_dim(qlink, first, planes, axis=1)
    return box, first.reshape((1,) * (qlink.ndim - 1))


def wall_fraction_window(box, first, x0, size: int, plane=None):
    """The fractions [Q, size, ...] of the block's planes x0 .. x0+size-1 from its box (`plane` [Q, 1, ...]
    outside it; None: 0). box: [Q, B, ...]; first: the box's first plane (any shape of one element)."""
    p = x0 + jnp.arange(size, dtype=jnp.int32) - jnp.reshape(first, ())
    inside = (p >= 0) & (p < box.shape[1])
    planes = jnp.take(box, jnp.clip(p, 0, box.shape[1] - 1), axis=1)
    outside = jnp.zeros((), box.dtype) if plane is None else plane
    return jnp.where(inside.reshape((1, size) + (1,) * (box.ndim - 2)), planes, outside)


def _plane(x, axis: int, index: int):
    """The plane `index` (negative: from the end) of x along `axis`, kept with size 1."""
    n = x.shape[axis]
    i = index % n
    return lax.slice_in_dim(x, i, i + 1, axis=axis)


def _set_plane(x, plane, axis: int, index: int):
    return lax.dynamic_update_slice_in_dim(x, plane, index % x.shape[axis], axis=axis)


def outflow(fs, kind, features: Features, exchange=None, fc=None, lattice: Lattice | None = None):
    """Zero-gradient outflow: an outflow cell takes the populations that would enter from outside
    (c_i . n < 0, unknown after streaming) from its inner neighbour; the others stream in as usual.

    With features.convective = U > 0 the cell follows the convective condition df/dt + U df/dn = 0
    instead, discretised as f(x_b) = (f*(x_b) + U f(x_b - n)) / (1 + U), with the cell's own
    post-collision populations f* of the previous step standing in for its old value.

    Outflow cells lie on a face of the lattice (outward normal n = sign e_axis: the first plane for
    sign -1, the last for sign +1); only that plane and the one inside it are touched, on every shard
    (on shards away from that face no cell has the kind and nothing changes).
    """
    for axis, sign in features.outflow:
        b = 0 if sign < 0 else -1
        i = 1 if sign < 0 else -2
        fb, fi = _plane(fs, axis + 1, b), _plane(fs, axis + 1, i)
        new = fi
        if features.convective > 0 and fc is not None:
            u = features.convective
            new = (_plane(fc, axis + 1, b) + u * fi) * (1.0 / (1.0 + u))
        kb = _plane(kind, axis, b)
        sel = (kb == outflow_kind(axis, sign))[None]
        if lattice is not None:
            unknown = np.asarray(lattice.c[:, axis]) * sign < 0
            sel = sel & qconst(unknown, kind.ndim, bool)
        fs = _set_plane(fs, jnp.where(sel, new, fb), axis + 1, b)
    return fs


def ramp_factor(t, steps: int):
    """sin^2(pi t / (2 T)) for t < T, then 1: a smooth start of the inflow (t: traced step number)."""
    s = jnp.clip(t.astype(jnp.float32) / float(steps), 0.0, 1.0)
    return jnp.sin(0.5 * jnp.pi * s) ** 2


def extrapolated(fs, kind, velocity, rho_bc, lattice: Lattice, features: Features, scale=None,
                 incompressible: bool = False):
    """Velocity inlets and pressure outlets by non-equilibrium extrapolation (Guo, Zheng & Shi 2002).

    A boundary cell x_b with outward normal n takes from its inner neighbour x_f = x_b - n the
    non-equilibrium part and, for an inlet, the density (an outlet: the velocity):
        f_i(x_b) = feq_i(rho_b, u_b) + f_i(x_f) - feq_i(rho_f, u_f)
    with u_b prescribed (inlet, times `scale` during a start-up ramp; rho_b = rho_f) or rho_b
    prescribed (outlet, u_b = u_f).
    Second-order accurate for straight boundaries. fs: streamed deviations [Q, ...]. Like outflow
    cells, inlet and outlet cells lie on a face of the lattice: only two planes are computed.
    """
    d = lattice.d
    for base, sides in ((INLET, features.inlets), (OUTLET, features.outlets)):
        for axis, sign in sides:
            b = 0 if sign < 0 else -1
            i = 1 if sign < 0 else -2
            fb, inner = _plane(fs, axis + 1, b), _plane(fs, axis + 1, i)
            drho_f, u_f = deviation_moments(inner, lattice, incompressible=incompressible)
            neq = inner - equilibrium_deviation(drho_f, u_f, lattice, incompressible)
            if base == INLET:
                vb = _plane(velocity, axis + 1, b)
                ub = tuple(vb[a].astype(fs.dtype) for a in range(d))
                if scale is not None:
                    ub = tuple(x * scale for x in ub)
                geq = equilibrium_deviation(drho_f, ub, lattice, incompressible)
            else:
                geq = equilibrium_deviation(_plane(rho_bc, axis, b).astype(fs.dtype) - 1.0, u_f, lattice,
                                            incompressible)
            code = base + 2 * axis + (0 if sign > 0 else 1)
            kb = _plane(kind, axis, b)
            fs = _set_plane(fs, jnp.where((kb == code)[None], geq + neq, fb), axis + 1, b)
    return fs


def momentum_exchange(fnew, fc, kind, links, body, n_bodies: int, lattice: Lattice, exchange):
    """Force of the fluid on each body by momentum exchange (Ladd 1994), for one step.

    For a fluid cell x whose neighbour x - c_i is solid, the population f*_j (j = opposite(i)) left
    x towards the wall and came back as f_i: the body receives c_j (f*_j(x) + f_i(x)).
    fnew: populations after streaming and the wall treatment; fc: post-collision populations before
    streaming; body: uint8 [...] body id of each solid cell (0: none). Returns [n_bodies, D, K + 1, 1, ...]:
    this block's partial sums in fixed point (`link_forces`; a size-1 axis per spatial axis, so that blocks
    stack along them; `force_totals` of their sum gives the forces).
    """
    body_s = stream(jnp.broadcast_to(body[None], (lattice.q,) + body.shape), lattice.c, exchange)  # body of x - c_i
    return link_forces(fnew, fc, kind, links, body_s, n_bodies, lattice)


def link_forces(fnew, fc, kind, links, body_s, n_bodies: int, lattice: Lattice):
    """`momentum_exchange` with the streamed body ids given: body_s [Q, ...] is the body id of x - c_i
    (so that a caller can stream them slab by slab). Returns [n_bodies, D, K + 1, 1, ...] partial sums in
    fixed point (`fixed_point_sums`; `force_totals` turns the sums over every block into forces), so that
    the forces are the same bits on every mesh, process count and slab plan: a float sum's last bits
    follow the order of its terms, an integer sum's do not."""
    q, d = lattice.q, lattice.d
    nd = links.ndim
    bits = jnp.asarray(1 << np.arange(q, dtype=np.uint32), jnp.uint32).reshape((q,) + (1,) * nd)
    hit = ((links[None] & bits) != 0) & ~is_wall(kind)[None]  # links from fluid cells only
    # f*_j + f_i as deviations from the rest state: the weights' share, 2 w_i c_j summed over the links,
    # is the force of the uniform rest pressure, which vanishes on a body surrounded by fluid (every
    # lattice line enters and leaves it equally often): the result is the force of the gauge pressure
    # and stays precise in float32.
    acc_dtype = jnp.float64 if fnew.dtype == jnp.float64 else jnp.float32
    mom = (fc[lattice.opposite] + fnew).astype(acc_dtype)
    cells = []
    for k in range(1, n_bodies + 1):
        sel = jnp.where(hit & (body_s == k), mom, 0.0)
        for a in range(d):
            # each cell's c_j (f*_j + f_i) summed over its links one by one in a fixed order (c_j = -c_i is
            # -1, 0 or 1: no products), so a cell's value is the same bits whatever block holds it
            cell = jnp.zeros(sel.shape[1:], acc_dtype)
            for i in range(q):
                ci = int(lattice.c[i, a])
                if ci:
                    cell = cell - sel[i] if ci > 0 else cell + sel[i]
            cells.append(cell)
    sums = fixed_point_sums(jnp.stack(cells), lead=1)  # every body and component in one pass
    return sums.reshape((n_bodies, d, -1) + (1,) * nd)


FORCE_RANGE_BITS = 8  # a cell's force beyond 2^8 = 256 (lattice units) counts as unusable (a blown-up state)
# (digit bits, digits, integer type) of the fixed point: float32 values in 6 8-bit digits summed in int32 (40 fraction
# bits), float64 values (x64 on) in 4 24-bit digits summed in int64 (88 fraction bits); force_totals tells them
# apart by their count
FIXED_POINT = {"float32": (8, 6, jnp.int32), "float64": (24, 4, jnp.int64)}
_BY_COUNT = {k + 1: (bits, k) for bits, k, _ in FIXED_POINT.values()}


def _carry(d, bits: int):
    """Digits d [K, ...] (each digit's sum, the top one signed) with the carries moved up: digits below the top in
    [0, 2^bits), the same integer sum_j d_j 2^(bits j)."""
    out, carry = [], None
    for j in range(d.shape[0]):
        t = d[j] if carry is None else d[j] + carry
        if j == d.shape[0] - 1:
            out.append(t)
        else:
            carry = lax.shift_right_arithmetic(t, jnp.asarray(bits, t.dtype))  # floor(t / 2^bits)
            out.append(t - lax.shift_left(carry, jnp.asarray(bits, t.dtype)))
    return jnp.stack(out)


def fixed_point_sums(v, lead: int = 0):
    """The sum of v's values (float32, or float64 with x64 on; any shape) in fixed point: [K + 1] integers, where
    element j < K holds the j-th digit of floor(v 2^E) summed (FIXED_POINT: E = bits K - 8 fraction bits; the top
    digit is signed) and element K counts the values that are not finite or beyond +-256. The sums run one axis at
    a time with the carries moved up after each, so that no digit sum outgrows its integer type (an int32 sum of
    8-bit digits over a whole block wrapped beyond 2^23 cells: a porous mask's drag was garbage); integer sums are
    exact and do not depend on the order of their terms, and each digit is exact in floating point (floors and
    differences of integers). lead: leading axes of v kept (one sum each): [*lead, K + 1]."""
    bits, k, itype = FIXED_POINT["float64" if v.dtype == jnp.float64 else "float32"]
    e = bits * k - FORCE_RANGE_BITS
    bad = ~(jnp.abs(v) < 2.0 ** FORCE_RANGE_BITS)  # NaN too
    x = jnp.where(bad, 0.0, v) * (2.0 ** e)
    floors = [jnp.floor(x * (2.0 ** (-bits * j))) for j in range(k)]
    digits = jnp.stack([(floors[j] - (2.0 ** bits) * floors[j + 1]) if j < k - 1 else floors[j]
                        for j in range(k)]).astype(itype)
    while digits.ndim > 1 + lead:  # the last axis summed, carries moved up, then the next
        digits = _carry(jnp.sum(digits, axis=-1, dtype=itype), bits)
    count = jnp.sum(bad.astype(itype), axis=tuple(range(lead, v.ndim)), dtype=itype)
    return jnp.concatenate([jnp.moveaxis(digits, 0, -1), count[..., None]], axis=-1)


def force_totals(sums) -> np.ndarray:
    """[..., K + 1] fixed-point sums (`fixed_point_sums`) added over every block (exact integers, e.g. in
    float64) -> [...] float64 totals: sum_j S_j 2^(bits j - E) as one exact integer, divided once (correctly
    rounded); NaN where a value was not finite or out of range."""
    sums = np.asarray(sums, np.float64)
    bits, k = _BY_COUNT[sums.shape[-1]]
    e = bits * k - FORCE_RANGE_BITS
    flat = sums.reshape(-1, k + 1)
    out = np.empty(flat.shape[0], np.float64)
    for n, row in enumerate(flat):
        if row[k] != 0:
            out[n] = np.nan
            continue
        total = sum(int(row[j]) << (bits * j) for j in range(k))
        out[n] = total / (1 << e)
    return out.reshape(sums.shape[:-1])


def dirichlet(gs, drho, u, kind, velocity, rho_bc, lattice: Lattice, features: Features, scale=None,
              incompressible: bool = False):
    """Fixed-velocity cells get feq(local rho, u_bc); fixed-pressure cells feq(rho_bc, local u).

    gs: stored deviations f - w; drho = rho - 1. Returns (gs, drho, u) with the moments of the
    replaced populations.
    """
    if not (features.velocity or features.pressure):
        return gs, drho, u
    mask = None
    if features.velocity:
        vc = kind == VELOCITY
        ub = tuple(velocity[a].astype(drho.dtype) for a in range(lattice.d))
        if scale is not None:
            ub = tuple(x * scale for x in ub)
        u = tuple(jnp.where(vc, ub[a], u[a]) for a in range(lattice.d))
        mask = vc
    if features.pressure:
        pc = kind == PRESSURE
        drho = jnp.where(pc, rho_bc.astype(drho.dtype) - 1.0, drho)
        mask = pc if mask is None else (mask | pc)
    return jnp.where(mask[None], equilibrium_deviation(drho, u, lattice, incompressible), gs), drho, u


def sponge_profile(xi, strength: float):
    """Strength of an absorbing layer at the fraction xi of its thickness (0: its start, 1: the outlet):
    strength sin^2(pi xi / 2), rising smoothly from 0 (no step for a wave to reflect from); 0 outside."""
    xi = np.clip(np.asarray(xi, np.float64), 0.0, 1.0)
    return strength * np.sin(0.5 * np.pi * xi) ** 2


def sponge(g, strength, velocity, lattice: Lattice, scale=None, incompressible: bool = False):
    """Absorbing (sponge) layer, applied per cell after the collision: the post-collision deviations g
    relax toward the equilibrium of the layer's target state (rho = 1, the target velocity `velocity`,
    times `scale` during a start-up ramp) by the cell's strength s in [0, 1):
        g <- g - s (g - geq(1, u_target))
    Outgoing waves (sound, vortices) are damped before they reach the outlet and cannot reflect;
    a cell of strength 0 is left as it is. g: [Q, ...]; strength: [...]; velocity: [D, ...].

    Computed as (g - s g) + s geq: the target's equilibrium is the same along x (a channel's inflow profile),
    and XLA:CPU computed it before its loop over x on some block widths and in it on others; as
    g - s (g - geq), the subtraction g - geq was contracted with geq's last product into an FMA only where both
    were in the loop, and 1x1 and 1x2 meshes of schaefer_turek_2d1 (layer and ramp) differed in the last bit
    from step 3. Here geq only ever meets a product by s, each addition has one product operand, and every
    mesh gives the same bits (tests/parallel/test_decomposition.py).
    """
    ut = tuple(velocity[a].astype(g.dtype) for a in range(lattice.d))
    if scale is not None:
        ut = tuple(x * scale for x in ut)
    s = strength.astype(g.dtype)
    geq = equilibrium_deviation(jnp.zeros_like(s), ut, lattice, incompressible)
    s = s[None]
    return (g - s * g) + s * geq
