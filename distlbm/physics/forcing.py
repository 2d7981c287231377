"""Guo forcing: the source term S_i of a body force F (lattice units, force per volume)."""

from __future__ import annotations

from distlbm.lattice import Lattice
from distlbm.physics.equilibrium import cdotu, qconst


def guo_source(u, force, lattice: Lattice):
    """S: [Q, ...], S_i = w_i [ (c_i - u)/cs2 + (c_i . u) c_i / cs2^2 ] . F.

    u: tuple of D arrays (the half-force-shifted velocity); force: D-tuple of floats (uniform).
    The collision multiplies S by (1 - omega/2).
    """
    inv_cs2 = 1.0 / lattice.cs2
    nd = u[0].ndim
    dt = u[0].dtype
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
