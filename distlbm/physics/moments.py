"""Macroscopic moments of the populations, as explicit sums in a fixed order.

Explicit sums (not a GEMM) keep the per-cell arithmetic independent of the array shape, so a step
gives bit-for-bit the same numbers on any decomposition of the lattice.
"""

from __future__ import annotations

from distlbm.lattice import Lattice


def _signed_sum(f, plus, minus):
    acc = None
    for i in plus:
        acc = f[i] if acc is None else acc + f[i]
    for i in minus:
        acc = -f[i] if acc is None else acc - f[i]
    return acc


def density(f, lattice: Lattice):
    """rho: [X, Y(, Z)] = sum_i f_i for f: [Q, X, Y(, Z)] (lattice units)."""
    return _signed_sum(f, range(lattice.q), ())


def momentum(f, lattice: Lattice):
    """j: tuple of D arrays [X, Y(, Z)], j_a = sum_i c_ia f_i."""
    c = lattice.c
    q = range(lattice.q)
    return tuple(
        _signed_sum(f, [i for i in q if c[i, a] == 1], [i for i in q if c[i, a] == -1]) for a in range(lattice.d)
    )


def deviation_moments(g, lattice: Lattice, force=None, incompressible: bool = False):
    """(drho, u) of stored deviations g_i = f_i - w_i: rho = 1 + drho, u = (sum c g + F/2) / rho
    (sum_i w_i c_i = 0, so the momentum of g is that of f); `incompressible` (He & Luo): u = sum c g + F/2."""
    drho = density(g, lattice)
    j = momentum(g, lattice)
    if force is not None:  # a D-tuple of floats (its zero components left out) or a per-cell field [D, ...]
        uniform = isinstance(force, (tuple, list))
        j = tuple(ja + 0.5 * fa if (not uniform or fa) else ja for ja, fa in zip(j, force))
    if incompressible:
        return drho, tuple(j)
    inv = 1.0 / (1.0 + drho)
    return drho, tuple(ja * inv for ja in j)
