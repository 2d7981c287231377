"""Guo forcing: the source term S_i of a body force F (lattice units, force per volume)."""

from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from distlbm.lattice import Lattice
from distlbm.physics.equilibrium import cdotu, qconst


def is_field(force) -> bool:
    """Whether `force` is a per-cell force field (an array [D, ...]) rather than the uniform D-tuple of floats."""
    return force is not None and not isinstance(force, (tuple, list))


def field_dot_c(force, lattice: Lattice):
    """c_i . F: [Q, ...] of a per-cell force field F [D, ...], as signed sums (c_ia is -1, 0 or 1: no products,
    the same bits in any loop XLA forms)."""
    c = lattice.c
    out = []
    for i in range(lattice.q):
        acc = None
        for a in range(lattice.d):
            if c[i, a]:
                t = force[a] if c[i, a] > 0 else -force[a]
                acc = t if acc is None else acc + t
        out.append(jnp.zeros_like(force[0]) if acc is None else acc)
    return jnp.stack(out)


def field_u_dot_f(u, force):
    """u . F per cell of a force field: the products materialised before they are summed (a sum of two products
    leaves XLA:CPU the choice of which to contract into an FMA, made otherwise in its vectorised and remainder
    loops: other bits on another mesh; see collision._sym_uf)."""
    prods = lax.optimization_barrier(jnp.stack([u[a] * force[a] for a in range(len(u))]))
    acc = prods[0]
    for a in range(1, prods.shape[0]):
        acc = acc + prods[a]
    return acc


def guo_source(u, force, lattice: Lattice):
    """S: [Q, ...], S_i = w_i [ (c_i - u)/cs2 + (c_i . u) c_i / cs2^2 ] . F.

    u: tuple of D arrays (the half-force-shifted velocity); force: D-tuple of floats (uniform), or a per-cell
    force field [D, ...] (`is_field`). The collision multiplies S by (1 - omega/2).
    """
    inv_cs2 = 1.0 / lattice.cs2
    nd = u[0].ndim
    dt = u[0].dtype
    if is_field(force):
        cf = field_dot_c(force, lattice)
        # c.F (1/cs2 + c.u/cs2^2) - u.F/cs2, the second product's operand materialised (see field_u_dot_f)
        uf = lax.optimization_barrier(field_u_dot_f(u, force) * inv_cs2)
        term = cf * (qconst(inv_cs2 * inv_cs2, nd, dt) * cdotu(u, lattice) + inv_cs2) - uf[None]
        return qconst(lattice.w, nd, dt) * term
    uf = None  # u . F
    for a in range(lattice.d):
        if force[a]:
            t = u[a] * force[a]
            uf = t if uf is None else uf + t
    cf = lattice.c @ [float(x) for x in force]  # c_i . F, static
    w = qconst(lattice.w, nd, dt)
    term = qconst(cf * inv_cs2, nd, dt) + cdotu(u, lattice) * qconst(cf * inv_cs2 * inv_cs2, nd, dt)
    if uf is not None:
        term = term - (uf * inv_cs2)[None]
    return w * term
