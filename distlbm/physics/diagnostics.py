"""Whole-lattice diagnostics of the stored populations: mass, momentum, kinetic energy and the checks
that say whether a state is sane (finite, density in range). Sums over the array it is given (a
global array under jit, or one process's block that the domain then sums across processes)."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp

from distlbm.lattice import Lattice
from distlbm.physics import boundaries as bc
from distlbm.physics.moments import deviation_moments

RHO_RANGE = (0.2, 5.0)  # a density outside this range (lattice units, rho0 = 1) means the run blew up


def diagnostics(f, kind, lattice: Lattice, compute_dtype, force=None, incompressible: bool = False) -> dict:
    """f: [Q, X, Y(, Z)] stored deviations g = f* - w; kind: [X, Y(, Z)] uint8 or None (all fluid).

    Returns sums over the fluid cells (lattice units): mass_dev (sum of rho - 1), n_fluid, momentum [D],
    kinetic_energy, nonfinite (cells whose density is not finite), out_of_range (density outside
    RHO_RANGE) and u_max (the largest speed)."""
    # u = (j - F/2) / rho: the moments take minus the force
    neg = None if force is None else tuple(-x for x in force)
    # rho - 1 kept precise; cast per population (a whole cast of 16-bit f would be materialised)
    drho, u = deviation_moments([g.astype(compute_dtype) for g in f], lattice, neg, incompressible)
    rho, u = 1.0 + drho, jnp.stack(u)
    if kind is not None:
        fluid = ~bc.is_wall(kind)
        rho = jnp.where(fluid, rho, 1.0)
        u = jnp.where(fluid[None], u, 0.0)
        rho_sum = jnp.where(fluid, rho, 0.0)
        drho = jnp.where(fluid, drho, 0.0)
        n_fluid = jnp.sum(fluid, dtype=jnp.int32)
    else:
        rho_sum = rho
        n_fluid = jnp.asarray(math.prod(f.shape[1:]), jnp.int32)
    acc = jnp.float64 if jax.config.jax_enable_x64 else jnp.float32
    mass_dev = jnp.sum(drho, dtype=acc)  # total mass = fluid cells + sum of (rho - 1)
    mom = jnp.stack([jnp.sum(rho_sum * u[a], dtype=acc) for a in range(u.shape[0])])
    ke = 0.5 * jnp.sum(rho_sum * jnp.sum(u * u, axis=0), dtype=acc)
    bad = jnp.sum(~jnp.isfinite(rho), dtype=jnp.int32)
    lo, hi = RHO_RANGE
    out_of_range = jnp.sum((rho < lo) | (rho > hi), dtype=jnp.int32)
    umax = jnp.max(jnp.sqrt(jnp.sum(u * u, axis=0)))
    return {"mass_dev": mass_dev, "n_fluid": n_fluid, "momentum": mom, "kinetic_energy": ke, "nonfinite": bad,
            "out_of_range": out_of_range, "u_max": umax}
