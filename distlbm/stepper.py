"""Composes physics and a halo exchange into `step(f, cells) -> f` and a jitted `advance(state, cells, n)`.

Order of one step (the state holds post-collision populations f*):
stream (pull, with the halo shift) -> wall bounce-back -> outflow / fixed-velocity / fixed-pressure
cells -> moments -> collision. Macroscopic fields are recovered from f* by `macroscopic`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Optional

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from distlbm.lattice import Lattice
from distlbm.physics import boundaries as bc
from distlbm.physics.collision import Collision, collide
from distlbm.physics.equilibrium import equilibrium
from distlbm.physics.moments import density, density_velocity, momentum
from distlbm.physics.streaming import stream


@dataclass(frozen=True)
class Model:
    """Static description of what a step computes (hashable; closed over by the step function).

    force: None or a D-tuple of floats (uniform body force per volume, lattice units).
    dtype: storage dtype of the populations; compute_dtype: dtype of the arithmetic.
    """

    lattice: Lattice
    collision: Collision
    force: Optional[tuple] = None
    features: bc.Features = field(default_factory=bc.Features)
    dtype: str = "float32"
    compute_dtype: str = "float32"


class State(NamedTuple):
    """f: [Q, X, Y(, Z)] post-collision populations (storage dtype); step: int32 scalar."""

    f: jax.Array
    step: jax.Array


class Cells(NamedTuple):
    """Static per-cell data, sharded like the populations. Absent pieces are None.

    kind: [X, Y(, Z)] uint8; links, moving: [X, Y(, Z)] uint32 link bits;
    velocity: [D, X, Y(, Z)] prescribed / adjacent-wall velocity; rho: [X, Y(, Z)] prescribed density.
    """

    kind: Optional[jax.Array] = None
    links: Optional[jax.Array] = None
    moving: Optional[jax.Array] = None
    velocity: Optional[jax.Array] = None
    rho: Optional[jax.Array] = None


def make_cells(model: Model, exchange: Callable) -> Callable:
    """Returns cells_fn(kind, velocity, rho) -> Cells, computing the link bits with the given exchange."""
    feat = model.features

    def cells_fn(kind, velocity, rho):
        if not feat.any:
            return Cells()
        links = moving = None
        vel = velocity
        if feat.walls:
            links, moving, vel = bc.link_data(kind, velocity, model.lattice, exchange, feat)
        return Cells(
            kind=kind,
            links=links,
            moving=moving,
            velocity=vel if (feat.moving or feat.velocity) else None,
            rho=rho if feat.pressure else None,
        )

    return cells_fn


def make_step(model: Model, exchange: Callable) -> Callable:
    """Returns step(f, cells) -> f for one LBM time step on local arrays.

    `exchange(planes, axis, sign)` is the halo exchange (distlbm.parallel); f: [Q, X, Y(, Z)].
    """
    lat = model.lattice
    feat = model.features
    cdt = jnp.dtype(model.compute_dtype)
    sdt = jnp.dtype(model.dtype)
    force = model.force

    def step(f, cells: Cells):
        fs = lax.optimization_barrier(stream(f, lat.c, exchange)).astype(cdt)
        if feat.walls:
            fs = bc.bounce_back(fs, f.astype(cdt), cells.links, cells.moving, cells.velocity, lat)
        fs = bc.outflow(fs, cells.kind, feat, exchange)
        rho, u = density_velocity(fs, lat, force)
        # materialise the moments once instead of recomputing them for every population's output
        m = lax.optimization_barrier(jnp.stack((rho,) + u))
        rho, u = m[0], tuple(m[1:])
        fs, rho, u = bc.dirichlet(fs, rho, u, cells.kind, cells.velocity, cells.rho, lat, feat)
        out = collide(fs, rho, u, equilibrium(rho, u, lat), model.collision, lat, force)
        if feat.walls:
            out = jnp.where(bc.is_wall(cells.kind)[None], f.astype(cdt), out)
        return out.astype(sdt)

    return step


def make_advance(step: Callable, jit: bool = True) -> Callable:
    """advance(state, cells, n) -> state: n steps in one lax.fori_loop (n is traced: one compile)."""

    def advance(state: State, cells: Cells, n):
        f = lax.fori_loop(0, n, lambda _, f: step(f, cells), state.f)
        return State(f, state.step + jnp.asarray(n, state.step.dtype))

    return jax.jit(advance, donate_argnums=0) if jit else advance


def macroscopic(f, model: Model):
    """rho: [X, Y(, Z)] and u: [D, X, Y(, Z)] from post-collision populations f* (compute dtype).

    With a body force F the post-collision momentum is rho u + F/2, so u = (sum c f* - F/2) / rho.
    """
    lat = model.lattice
    cdt = jnp.dtype(model.compute_dtype)
    fl = f.astype(cdt)
    rho = density(fl, lat)
    j = momentum(fl, lat)
    if model.force is not None:
        j = tuple(ja - 0.5 * fa for ja, fa in zip(j, model.force))
    return rho, jnp.stack([ja / rho for ja in j])


def init_populations(rho, u, model: Model):
    """Equilibrium populations f: [Q, ...] in storage dtype from rho: [...] and u: [D, ...]."""
    cdt = jnp.dtype(model.compute_dtype)
    rho = jnp.asarray(rho, cdt)
    u = jnp.asarray(u, cdt)
    if model.force is not None:  # f* carries momentum rho u + F/2
        u = u + 0.5 * jnp.asarray(model.force, cdt).reshape((-1,) + (1,) * rho.ndim) / rho[None]
    feq = equilibrium(rho, tuple(u[a] for a in range(model.lattice.d)), model.lattice)
    return feq.astype(jnp.dtype(model.dtype))


def predicted_bytes_per_cell(model: Model) -> int:
    """Minimum memory traffic of one cell update: read and write every population once."""
    return 2 * model.lattice.q * np.dtype(model.dtype).itemsize
