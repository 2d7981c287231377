"""The initial populations of a block, from its density, velocity and (optionally) velocity gradient."""

from __future__ import annotations

import numpy as np

from distlbm.lattice import Lattice


def init_populations(rho, u, lattice: Lattice, tau: float, force=None, incompressible: bool = False,
                     grad=None) -> np.ndarray:
    """Stored post-collision populations g = f* - w: [Q, ...] (NumPy, float64) for a block with density
    rho: [...], velocity u: [D, ...] (lattice units) and, if given, the velocity gradient grad: [D, D, ...]
    (grad[a, b] = d u_b / d x_a), which adds the Chapman-Enskog part
    f* - feq = -(tau - 1) w_i rho / cs2 (c_ia c_ib - cs2 delta_ab) d_a u_b.
    force: None or the D-tuple body force (f* carries the momentum rho u + F/2).

    Computed on the host with element-wise float64 NumPy, so the result of a cell does not depend on
    the block it is computed in (the start of every decomposition is bitwise the same).
    """
    lat = lattice
    rho = np.asarray(rho, np.float64)
    u = np.asarray(u, np.float64)
    # the velocity terms carry rho (standard equilibrium) or rho0 = 1 (incompressible)
    rho_u = np.ones_like(rho) if incompressible else rho
    if force is not None:
        u = np.stack([u[a] + 0.5 * force[a] / rho_u for a in range(lat.d)])
    drho = rho - 1.0
    usq = sum(u[a] * u[a] for a in range(lat.d))
    out = np.empty((lat.q,) + rho.shape, np.float64)
    for i in range(lat.q):
        c = lat.c[i]
        cu = sum(float(c[a]) * u[a] for a in range(lat.d))
        w = float(lat.w[i])
        g = w * drho + (w * rho_u) * (cu / lat.cs2 + cu * cu / (2 * lat.cs2 ** 2) - usq / (2 * lat.cs2))
        if grad is not None:
            grad = np.asarray(grad, np.float64)
            qd = sum((float(c[a] * c[b]) - (lat.cs2 if a == b else 0.0)) * grad[a, b]
                     for a in range(lat.d) for b in range(lat.d))
            g = g - (w * (tau - 1.0) / lat.cs2) * rho_u * qd
        out[i] = g
    return out
