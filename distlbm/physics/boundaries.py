"""Boundaries as cell kinds: halfway bounce-back walls (optionally moving), and fixed-velocity,
fixed-pressure and outflow cells. All operations are local to a shard once the populations have
been streamed; the per-link wall bits are precomputed with the same shift used for streaming.
"""

from __future__ import annotations

from dataclasses import dataclass

import jax.numpy as jnp
import numpy as np

from distlbm.lattice import Lattice
from distlbm.physics.equilibrium import cdotu, equilibrium_deviation, qconst
from distlbm.physics.streaming import stream

# cell kinds (uint8 per cell)
FLUID = 0
WALL = 1  # solid, halfway bounce-back
MOVING_WALL = 2  # solid moving with a prescribed velocity (Ladd's correction)
VELOCITY = 3  # fixed velocity (equilibrium with the local density)
PRESSURE = 4  # fixed density (equilibrium with the local velocity)
OUTFLOW = 8  # 8 + 2*axis + (0 for an outward normal +e_axis, 1 for -e_axis): zero-gradient copy

KIND_NAMES = {FLUID: "fluid", WALL: "wall", MOVING_WALL: "moving_wall", VELOCITY: "velocity", PRESSURE: "pressure"}
for _a, _n in enumerate("xyz"):
    KIND_NAMES[OUTFLOW + 2 * _a] = f"outflow+{_n}"
    KIND_NAMES[OUTFLOW + 2 * _a + 1] = f"outflow-{_n}"


def outflow_kind(axis: int, sign: int) -> int:
    """Kind code of an outflow cell whose outward normal is sign * e_axis."""
    return OUTFLOW + 2 * axis + (0 if sign > 0 else 1)


@dataclass(frozen=True)
class Features:
    """Which boundary kinds a case uses (static: decides what the step traces)."""

    walls: bool = False
    moving: bool = False
    velocity: bool = False
    pressure: bool = False
    outflow: tuple = ()  # tuple of (axis, sign)

    @property
    def any(self) -> bool:
        return self.walls or self.velocity or self.pressure or bool(self.outflow)


def is_wall(kind):
    return (kind == WALL) | (kind == MOVING_WALL)


def link_data(kind, velocity, lattice: Lattice, exchange, features: Features):
    """Per-cell link bits from the kinds: bit i of `links` is set when the cell x - c_i is a wall,
    bit i of `moving` when it is a moving wall; `wall_u` carries the velocity of an adjacent moving
    wall (elsewhere the given velocity). kind: [X, Y(, Z)] uint8; velocity: [D, ...] or None.
    """
    q = lattice.q
    nd = kind.ndim
    bits = jnp.asarray(1 << np.arange(q, dtype=np.uint32), jnp.uint32).reshape((q,) + (1,) * nd)
    wall = jnp.broadcast_to(is_wall(kind).astype(jnp.uint32)[None], (q,) + kind.shape)
    links = _or_reduce(stream(wall, lattice.c, exchange) * bits)
    if not features.moving:
        return links, None, velocity
    mov = jnp.broadcast_to((kind == MOVING_WALL).astype(jnp.uint32)[None], (q,) + kind.shape)
    mov_s = stream(mov, lattice.c, exchange)
    moving = _or_reduce(mov_s * bits)
    wall_u = velocity
    fluid_side = ~is_wall(kind)
    for a in range(lattice.d):
        ua = jnp.broadcast_to(velocity[a][None], (q,) + kind.shape)
        ua_s = stream(ua, lattice.c, exchange)  # velocity of the cell x - c_i
        pick = None
        for i in range(1, q):
            sel = (mov_s[i] != 0) & fluid_side
            pick = jnp.where(sel, ua_s[i], wall_u[a] if pick is None else pick)
        wall_u = wall_u.at[a].set(pick)
    return links, moving, wall_u


def _or_reduce(x):
    acc = x[0]
    for i in range(1, x.shape[0]):
        acc = acc | x[i]
    return acc


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


def outflow(fs, kind, features: Features, exchange):
    """Zero-gradient outflow: an outflow cell copies the populations of its inner neighbour."""
    for axis, sign in features.outflow:
        normal = np.zeros((fs.shape[0], kind.ndim), np.int32)
        normal[:, axis] = sign
        inner = stream(fs, normal, exchange)  # value at x - sign*e_axis
        fs = jnp.where((kind == outflow_kind(axis, sign))[None], inner, fs)
    return fs


def dirichlet(gs, drho, u, kind, velocity, rho_bc, lattice: Lattice, features: Features):
    """Fixed-velocity cells get feq(local rho, u_bc); fixed-pressure cells feq(rho_bc, local u).

    gs: stored deviations f - w; drho = rho - 1. Returns (gs, drho, u) with the moments of the
    replaced populations.
    """
    if not (features.velocity or features.pressure):
        return gs, drho, u
    mask = None
    if features.velocity:
        vc = kind == VELOCITY
        u = tuple(jnp.where(vc, velocity[a].astype(drho.dtype), u[a]) for a in range(lattice.d))
        mask = vc
    if features.pressure:
        pc = kind == PRESSURE
        drho = jnp.where(pc, rho_bc.astype(drho.dtype) - 1.0, drho)
        mask = pc if mask is None else (mask | pc)
    return jnp.where(mask[None], equilibrium_deviation(drho, u, lattice), gs), drho, u
