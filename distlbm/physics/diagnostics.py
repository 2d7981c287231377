"""Whole-lattice diagnostics of the stored populations: mass, momentum, kinetic energy and the checks
that say whether a state is sane (finite, density in range). Sums over the array it is given (a
global array under jit, or one process's block that the domain then sums across processes)."""

from __future__ import annotations

import functools
import math
from typing import NamedTuple, Optional

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from distlbm.lattice import Lattice
from distlbm.physics import boundaries as bc
from distlbm.physics.forcing import is_field
from distlbm.physics.moments import deviation_moments

RHO_RANGE = (0.2, 5.0)  # a density outside this range (lattice units, rho0 = 1) means the run blew up


def diagnostics(f, kind, lattice: Lattice, compute_dtype, force=None, incompressible: bool = False) -> dict:
    """f: [Q, X, Y(, Z)] stored deviations g = f* - w; kind: [X, Y(, Z)] uint8 or None (all fluid).

    Returns sums over the fluid cells (lattice units): mass_dev (sum of rho - 1), n_fluid, momentum [D],
    kinetic_energy, nonfinite (cells whose density is not finite), out_of_range (density outside
    RHO_RANGE) and u_max (the largest speed); the peaks (PEAKS): u_peak (the largest finite squared speed: the
    argmax's own key; its square root rounds squares an ulp apart alike, and a mesh whose two blocks held them named
    the first in C order, not the larger, another cell than one block's) and its cell u_peak_at [D], rho_dev (the
    largest |rho - 1|, inf where a density is not finite), the density there rho_ext and its cell rho_ext_at [D]
    (cells in this array's indices)."""
    # u = (j - F/2) / rho: the moments take minus the force
    neg = None if force is None else (-force if is_field(force) else tuple(-x for x in force))
    # rho - 1 kept precise; cast per population (a whole cast of 16-bit f would be materialised)
    drho, u = deviation_moments([g.astype(compute_dtype) for g in f], lattice, neg, incompressible)
    # the moments once (the sums below would each redo them over Q), as separate fields: stacking and
    # masking them as one [D, ...] array doubled the temporaries (56 B/cell at 100^3 D3Q19 with walls)
    m = lax.optimization_barrier((drho,) + tuple(u))
    drho, u = m[0], m[1:]
    rho = 1.0 + drho
    if kind is not None:
        fluid = ~bc.is_wall(kind)
        rho = jnp.where(fluid, rho, 1.0)
        u = tuple(jnp.where(fluid, ua, 0.0) for ua in u)
        rho_sum = jnp.where(fluid, rho, 0.0)
        drho = jnp.where(fluid, drho, 0.0)
        n_fluid = jnp.sum(fluid, dtype=jnp.int32)
    else:
        rho_sum = rho
        n_fluid = jnp.asarray(math.prod(f.shape[1:]), jnp.int32)
    # the sums in float64 for a float64 run alone: by JAX's 64-bit mode, a float32 run after a float64 one in the same
    # process (which turns the mode on) summed in float64, other digits than the same run alone (mass drift 4.663e-10
    # for 4.766e-10)
    acc = jnp.float64 if jnp.dtype(jnp.float64) in (jnp.dtype(compute_dtype), f.dtype) else jnp.float32
    mass_dev = jnp.sum(drho, dtype=acc)  # total mass = fluid cells + sum of (rho - 1)
    mom = jnp.stack([jnp.sum(rho_sum * ua, dtype=acc) for ua in u])
    usq = u[0] * u[0]
    for ua in u[1:]:
        usq = usq + ua * ua
    ke = 0.5 * jnp.sum(rho_sum * usq, dtype=acc)
    bad = jnp.sum(~jnp.isfinite(rho), dtype=jnp.int32)
    lo, hi = RHO_RANGE
    out_of_range = jnp.sum((rho < lo) | (rho > hi), dtype=jnp.int32)
    umax = jnp.max(jnp.sqrt(usq))
    # where the flow is most extreme, so that a blow-up can name where it began (by the check that finds it most
    # of the lattice may be NaN): the cell of the largest finite speed and the cell of the density farthest from
    # 1 (a non-finite density the farthest), the first in C order of equal ones; one argmax each (values, cells)
    # (each value by its own max, not read at the argmax: that read made XLA materialise the whole keyed array, 4 B
    # per cell; the reductions fuse with what they reduce. The density there: one element of the moments' barrier)
    fin_usq = jnp.where(jnp.isfinite(usq), usq, -1.0)
    i_u = jnp.argmax(fin_usq.ravel())
    dev = jnp.where(jnp.isfinite(rho), jnp.abs(drho), jnp.inf)
    i_rho = jnp.argmax(dev.ravel())
    rho_ext = 1.0 + m[0].ravel()[i_rho]
    if kind is not None:
        rho_ext = jnp.where(bc.is_wall(kind.ravel()[i_rho]), 1.0, rho_ext)
    return {"mass_dev": mass_dev, "n_fluid": n_fluid, "momentum": mom, "kinetic_energy": ke, "nonfinite": bad,
            "out_of_range": out_of_range, "u_max": umax,
            "u_peak": jnp.max(fin_usq), "u_peak_at": _cell(i_u, rho.shape),
            "rho_dev": jnp.max(dev), "rho_ext": rho_ext, "rho_ext_at": _cell(i_rho, rho.shape)}


def _cell(flat, shape) -> jax.Array:
    """[D] int32: the cell of the C-order index `flat` in an array of `shape`."""
    return jnp.stack([c.astype(jnp.int32) for c in jnp.unravel_index(flat, shape)])


PEAKS = {"u_peak": ("u_peak_at",), "rho_dev": ("rho_ext_at", "rho_ext")}  # per block: the key, its cell and values


def _peak_combine(a: dict, b: dict, x0) -> dict:
    """The per-slab `diagnostics` a (planes before) and b (planes from x0 on, its cells relative to x0) combined:
    the sums added, u_max the larger, each peak (PEAKS) b's where strictly larger (the first in C order kept)."""
    out = {}
    for k in a:
        if k in PEAKS or any(k in v for v in PEAKS.values()):
            continue
        out[k] = jnp.maximum(a[k], b[k]) if k == "u_max" else a[k] + b[k]
    for key, (at, *vals) in PEAKS.items():
        take = b[key] > a[key]
        out[key] = jnp.where(take, b[key], a[key])
        out[at] = jnp.where(take, b[at].at[0].add(x0), a[at])
        for v in vals:
            out[v] = jnp.where(take, b[v], a[v])
    return out


def block_diagnostics(f, kind, lattice: Lattice, compute_dtype, force=None, incompressible: bool = False,
                      slab_planes: int | None = None) -> dict:
    """`diagnostics` of one block (force: the uniform D-tuple or the block's per-cell field [D, ...]), as partial
    results with a size-1 axis per spatial axis (so that a domain's `map` stacks the blocks' and `reduce_blocks`
    combines them). slab_planes: run them slab by slab along x (b planes at a time, a last smaller slab where b
    does not divide the block), so that their temporaries (the moments: 24-32 B/cell) are a slab's, not the
    block's; None: the whole block."""
    d = lattice.d
    nx = f.shape[1]

    def part(x0, size):
        fs = lax.dynamic_slice_in_dim(f, x0, size, axis=1)
        ks = None if kind is None else lax.dynamic_slice_in_dim(kind, x0, size, axis=0)
        fo = lax.dynamic_slice_in_dim(force, x0, size, axis=1) if is_field(force) else force
        return diagnostics(fs, ks, lattice, compute_dtype, fo, incompressible)

    b = nx if not slab_planes else max(1, min(nx, int(slab_planes)))
    n_full, tail = nx // b, nx % b
    out = part(0, b)
    if n_full > 1:
        out = lax.fori_loop(1, n_full, lambda i, acc: _peak_combine(acc, part(i * b, b), i * b), out)
    if tail:
        out = _peak_combine(out, part(n_full * b, tail), n_full * b)
    return {k: jnp.reshape(v, jnp.shape(v) + (1,) * d) for k, v in out.items()}


def _cut(x, fn):
    """fn(x) for the block's populations f [Q, ...] or its per-cell force [D, ...] (the same spatial cut: both keep
    the spatial axes after one leading axis); None stays None (no per-cell force)."""
    return None if x is None else fn(x)


def vorticity_halo(f, velocity, exchange, field=None) -> list:
    """The u of the neighbouring blocks' face planes that |curl u| of the block f [Q, X, Y(, Z)] needs, through
    `exchange` (the block itself where an axis has one block: the periodic wrap): per spatial axis a,
    (lo, hi) = u on the plane before the block's first along a (the -1 neighbour's last) and after its last
    (the +1 neighbour's first), each [D, ...] with axis a of size 1. u = velocity(populations [Q, ...], force)
    with force the same cells' per-cell force [D, ...] cut from `field` (the block's, or None): the u of the
    written `u` output, with the half force (u = (j - F/2) / rho)."""
    d = f.ndim - 1

    def u_plane(axis, index):  # u on the plane `index` along spatial `axis`, that axis kept (size 1)
        def cut(x):
            return lax.slice_in_dim(x, index, index + 1, axis=axis + 1)

        return velocity(cut(f), _cut(field, cut))

    return [(exchange(u_plane(a, f.shape[a + 1] - 1), a, 1), exchange(u_plane(a, 0), a, -1)) for a in range(d)]


class VorticityWalls(NamedTuple):
    """A block's cell data that |curl u| reads next to boundaries (stepper.Cells' pieces; None where absent):
    kind [X, Y(, Z)] uint8, links and moving [X, Y(, Z)] uint32 link bits (bit i: the cell x - c_i is a wall,
    a moving one), wall_u [D, X, Y(, Z)] the velocity of an adjacent moving wall; axis_links: per spatial axis
    the indices (i+, i-) of the velocities +e_a and -e_a (static)."""

    kind: Optional[jax.Array] = None
    links: Optional[jax.Array] = None
    moving: Optional[jax.Array] = None
    wall_u: Optional[jax.Array] = None

    def planes(self, x0, b: int) -> "VorticityWalls":
        """The planes x0 .. x0 + b - 1 along x."""
        def cut(x, axis=0):
            return None if x is None else lax.dynamic_slice_in_dim(x, x0, b, axis=axis)

        return VorticityWalls(cut(self.kind), cut(self.links), cut(self.moving), cut(self.wall_u, 1))


def axis_links(lattice: Lattice) -> tuple:
    """Per spatial axis a the indices (i+, i-) of the lattice velocities +e_a and -e_a."""
    c = np.asarray(lattice.c)
    out = []
    for a in range(lattice.d):
        e = np.zeros(lattice.d, c.dtype)
        e[a] = 1
        out.append((int(np.flatnonzero((c == e).all(axis=1))[0]), int(np.flatnonzero((c == -e).all(axis=1))[0])))
    return tuple(out)


def _one_sided(d, comp, axis, u0, lo, hi, walls: VorticityWalls, links_of_axis):
    """d u_comp / d x_axis beside boundaries, where the central difference d would read across one: next to a
    wall (halfway bounce-back: the wall's velocity, 0 or a moving wall's, lies half a cell away) the
    second-order difference through the wall, this cell and the fluid neighbour (-4/3 u_w + u_0 + 1/3 u_+1,
    exact for a quadratic profile; between two walls (u_w+ - u_w-) / 1); on an open face (inflow, outflow or
    outlet cells, whose neighbour across the face is the lattice's other end) the one-sided first-order
    difference inward."""
    if walls.links is not None:
        i_plus, i_minus = links_of_axis
        lo_wall = (walls.links & jnp.uint32(1 << i_plus)) != 0  # x - e_a is a wall
        hi_wall = (walls.links & jnp.uint32(1 << i_minus)) != 0  # x + e_a is a wall
        if walls.moving is not None:
            uw = walls.wall_u[comp].astype(u0.dtype)
            uw_lo = jnp.where((walls.moving & jnp.uint32(1 << i_plus)) != 0, uw, 0.0)
            uw_hi = jnp.where((walls.moving & jnp.uint32(1 << i_minus)) != 0, uw, 0.0)
        else:
            uw_lo = uw_hi = 0.0
        # sums and exact products (4 u_w) only, then one division: no multiply-add for the compiler to contract
        # in one program and not another (the same bits on any mesh)
        beside_lo = ((u0 + u0) + (u0 + hi) - 4.0 * uw_lo) / 3.0
        beside_hi = (4.0 * uw_hi - (u0 + u0) - (u0 + lo)) / 3.0
        d = jnp.where(lo_wall & hi_wall, uw_hi - uw_lo,
                      jnp.where(lo_wall, beside_lo, jnp.where(hi_wall, beside_hi, d)))
    if walls.kind is not None:
        k = walls.kind
        faces = (bc.OUTFLOW, bc.INLET, bc.OUTLET)
        out_plus = functools.reduce(jnp.logical_or, [k == base + 2 * axis for base in faces])
        out_minus = functools.reduce(jnp.logical_or, [k == base + 2 * axis + 1 for base in faces])
        d = jnp.where(out_plus, u0 - lo, jnp.where(out_minus, hi - u0, d))
    return d


def vorticity_planes(f, velocity, halo, x0, b: int, walls: Optional[VorticityWalls] = None,
                     links_of_axes: tuple = (), field=None):
    """|curl u| [b, Y(, Z)] of the planes x0 .. x0 + b - 1 (along x) of the block f, by central differences
    per cell (lattice units), with the neighbours' face planes `halo` (vorticity_halo): u is formed for
    those planes and the two beside them only. x0 may be traced; b is static.

    walls: the block's VorticityWalls (None: a periodic lattice with no boundary cells): beside a wall or an open
    face the differences are one-sided (_one_sided), and wall cells are 0; links_of_axes: axis_links(lattice);
    field: the block's per-cell force [D, X, Y(, Z)] or None (velocity(populations, force): vorticity_halo)."""
    d = f.ndim - 1
    nx = f.shape[1]

    def u_of(start, size):  # u of the planes start .. start + size - 1 along x (with their per-cell force)
        def cut(x):
            return lax.dynamic_slice_in_dim(x, start, size, axis=1)

        return velocity(cut(f), _cut(field, cut))

    us = u_of(x0, b)  # [D, b, ...]
    inner_lo = u_of(jnp.maximum(x0 - 1, 0), 1)
    inner_hi = u_of(jnp.minimum(x0 + b, nx - 1), 1)
    ext = [jnp.concatenate([jnp.where(x0 == 0, halo[0][0], inner_lo), us,
                            jnp.where(x0 + b == nx, halo[0][1], inner_hi)], axis=1)]
    for a in range(1, d):  # the other faces' halo planes, cut to the slab
        lo, hi = (lax.dynamic_slice_in_dim(h, x0, b, axis=1) for h in halo[a])
        ext.append(jnp.concatenate([lo, us, hi], axis=a + 1))
    w = None if walls is None or (walls.kind is None and walls.links is None) else walls.planes(x0, b)

    def diff(comp, axis):  # d u_comp / d x_axis = (u[i + 1] - u[i - 1]) / 2
        e = ext[axis][comp]
        n = e.shape[axis]
        hi = lax.slice_in_dim(e, 2, n, axis=axis)
        lo = lax.slice_in_dim(e, 0, n - 2, axis=axis)
        out = 0.5 * (hi - lo)
        return out if w is None else _one_sided(out, comp, axis, us[comp], lo, hi, w, links_of_axes[axis])

    if d == 2:
        curl = jnp.abs(diff(1, 0) - diff(0, 1))
    else:
        wx = diff(2, 1) - diff(1, 2)
        wy = diff(0, 2) - diff(2, 0)
        wz = diff(1, 0) - diff(0, 1)
        curl = jnp.sqrt(wx * wx + wy * wy + wz * wz)
    if w is not None and w.kind is not None:
        curl = jnp.where(bc.is_wall(w.kind), 0.0, curl).astype(curl.dtype)
    return curl


def block_vorticity(f, velocity, exchange, slab_planes: int | None = None, walls: Optional[VorticityWalls] = None,
                    links_of_axes: tuple = (), field=None):
    """|curl u| [X, Y(, Z)] of one block of populations f [Q, X, Y(, Z)] by central differences per cell
    (lattice units), u = velocity(populations [Q, ...], force [D, ...] or None) -> [D, ...] (pointwise, as the
    written u), force cut from `field`, the block's per-cell force [D, X, Y(, Z)] (None: none).

    The u of the neighbouring blocks' face planes come through `exchange` (vorticity_halo), so on any
    decomposition the result is that of the whole lattice's u differenced periodically, one-sided beside walls
    and open faces (walls, links_of_axes: vorticity_planes). Slab by slab along x
    (slab_planes at a time; None: the whole block), so that u is a slab's plus its halo planes, never the
    block's (the whole lattice's u and |curl u| were 20 B/cell of float32 beside the populations). The whole
    fields' output forms it piece by piece as it writes instead (io.output.VorticityField), so that not
    even |curl u| is whole."""
    nx = f.shape[1]
    halo = vorticity_halo(f, velocity, exchange, field)

    def slab(x0, b):
        return vorticity_planes(f, velocity, halo, x0, b, walls, links_of_axes, field)

    b = nx if not slab_planes else max(1, min(nx, int(slab_planes)))
    n_full, tail = nx // b, nx % b
    first = slab(0, b)
    if n_full == 1 and not tail:
        return first
    out = jnp.zeros((nx,) + first.shape[1:], first.dtype)
    out = lax.dynamic_update_slice_in_dim(out, first, 0, axis=0)
    if n_full > 1:
        out = lax.fori_loop(1, n_full, lambda i, o: lax.dynamic_update_slice_in_dim(o, slab(i * b, b), i * b, axis=0),
                            out)
    if tail:
        out = lax.dynamic_update_slice_in_dim(out, slab(n_full * b, tail), n_full * b, axis=0)
    return out
