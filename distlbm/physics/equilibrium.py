"""Second-order (Hermite) equilibrium, vectorised over the Q directions.

Two forms: the standard one, feq = w rho (1 + cu/cs2 + ...), and the incompressible one of He & Luo
(1997), feq = w (rho + cu/cs2 + ...) with u = sum c f (rho0 = 1): its steady solutions satisfy the
incompressible Navier-Stokes equations without the O(Ma^2) compressibility error of the standard form
(the pressure is p = cs2 rho; density and momentum are decoupled).
"""

from __future__ import annotations

import jax.numpy as jnp

from distlbm.lattice import Lattice


def qconst(values, ndim: int, dtype):
    """A per-direction constant shaped [Q, 1, ..., 1] to broadcast against [Q, X, Y(, Z)]."""
    return jnp.asarray(values, dtype).reshape((-1,) + (1,) * ndim)


def cdotu(u, lattice: Lattice):
    """c_i . u: [Q, X, ...] for u a tuple of D arrays, summed over a in a fixed order."""
    nd = u[0].ndim
    acc = None
    for a in range(lattice.d):
        t = qconst(lattice.c[:, a], nd, u[a].dtype) * u[a][None]
        acc = t if acc is None else acc + t
    return acc


def usq(u):
    acc = u[0] * u[0]
    for ua in u[1:]:
        acc = acc + ua * ua
    return acc


def equilibrium(rho, u, lattice: Lattice, incompressible: bool = False):
    """feq: [Q, X, Y(, Z)], feq_i = w_i rho (1 + cu/cs2 + cu^2/(2 cs2^2) - u^2/(2 cs2)), or with
    `incompressible` feq_i = w_i (rho + cu/cs2 + cu^2/(2 cs2^2) - u^2/(2 cs2)) (He & Luo 1997).

    rho: [X, Y(, Z)]; u: tuple of D arrays of the same shape (lattice units).
    """
    inv_cs2 = 1.0 / lattice.cs2
    cu = cdotu(u, lattice)
    w = qconst(lattice.w, rho.ndim, rho.dtype)
    if incompressible:
        return w * ((rho - (0.5 * inv_cs2) * usq(u))[None] + cu * (inv_cs2 + (0.5 * inv_cs2 * inv_cs2) * cu))
    base = 1.0 - (0.5 * inv_cs2) * usq(u)
    return (w * rho[None]) * (base[None] + cu * (inv_cs2 + (0.5 * inv_cs2 * inv_cs2) * cu))


def equilibrium_deviation(drho, u, lattice: Lattice, incompressible: bool = False):
    """geq = feq - w: [Q, ...], the equilibrium as a deviation from the rest state (rho = 1, u = 0):
    geq_i = w_i [drho + rho (cu/cs2 + cu^2/(2 cs2^2) - u^2/(2 cs2))] with rho = 1 + drho (with
    `incompressible`: rho replaced by rho0 = 1 in the velocity terms).

    Populations are stored as such deviations: their values are small, so float32 keeps the mass to
    round-off of the deviation instead of round-off of 1.
    """
    inv_cs2 = 1.0 / lattice.cs2
    cu = cdotu(u, lattice)
    w = qconst(lattice.w, drho.ndim, drho.dtype)
    if incompressible:
        return w * ((drho - (0.5 * inv_cs2) * usq(u))[None] + cu * (inv_cs2 + (0.5 * inv_cs2 * inv_cs2) * cu))
    rho = 1.0 + drho
    # base = -u^2/(2 cs2) as a subtraction, not a product: every addition below then has at most one product
    # operand, so that XLA:CPU contracts the same multiply-add into an FMA in the vectorised and the remainder
    # loops, and every block shape gives the same bits (an addition of two products, as in
    # w drho + w rho (...), came out with last-bit differences between decompositions). The form used before,
    # w rho (1 + ...) - w, cancelled at the size of w: 3e-8 of error in every float32 equilibrium, which left a
    # float32 plane Couette flow 3e-4 off its exact steady profile (8.8e-6 now; 3.5e-6 with float64 arithmetic).
    base = 0.0 - (0.5 * inv_cs2) * usq(u)
    return w * (drho[None] + rho[None] * (cu * (inv_cs2 + (0.5 * inv_cs2 * inv_cs2) * cu) + base[None]))
