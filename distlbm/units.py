"""Lattice units and their conversion to physical units: the speed of sound, viscosity <-> relaxation
time, the Mach and Reynolds numbers, pressure <-> density, and dx/dt scalings. Lattice units have
dx = dt = 1 and rho0 = 1.

Every function keeps one arithmetic form (written in its docstring where it matters), so that a number
computed through this module has the same bits wherever it is computed: (tau - 1/2) / 3, not
cs^2 (tau - 1/2), which rounds differently.
"""

from __future__ import annotations

import math

CS2 = 1.0 / 3.0  # squared lattice speed of sound (D2Q9, D3Q19, D3Q27)
CS = math.sqrt(CS2)
INV_CS = math.sqrt(3.0)  # 1 / cs, written sqrt(3) (not 1 / CS: a different last bit)


def viscosity(tau: float) -> float:
    """Lattice kinematic viscosity nu = cs^2 (tau - 1/2) (written (tau - 1/2) / 3: the same bits everywhere)."""
    return (tau - 0.5) / 3.0


def relaxation_time(nu: float) -> float:
    """tau = nu / cs^2 + 1/2 = 3 nu + 1/2 for a lattice viscosity nu."""
    return 3.0 * nu + 0.5


def relaxation_time_for_reynolds(u: float, length: float, re: float) -> float:
    """tau of the lattice viscosity u length / Re (u, length in lattice units), written
    1/2 + 3 u length / Re, evaluated left to right (not relaxation_time(u length / Re): other bits)."""
    return 0.5 + 3.0 * u * length / re


def viscosity_for_reynolds(u: float, length: float, re: float) -> float:
    """The kinematic viscosity u length / Re that gives Reynolds number re (in the units of u and length)."""
    return u * length / re


def reynolds(u: float, length: float, nu: float) -> float:
    """Reynolds number u length / nu (any consistent units)."""
    return u * length / nu


def mach(u: float) -> float:
    """Mach number of a lattice velocity: u / cs."""
    return u / CS


def pressure(rho):
    """Lattice pressure deviation p = cs^2 (rho - 1) of a lattice density (scalar or array)."""
    return CS2 * (rho - 1.0)


def density(p):
    """Lattice density 1 + p / cs^2 of a lattice pressure deviation p (written 1 + 3 p)."""
    return 1.0 + 3.0 * p


def time_step(dx: float, u_lattice: float, velocity: float) -> float:
    """dt (s) that maps the physical velocity (m/s) onto the lattice velocity u_lattice with cell size dx (m):
    dt = dx u_lattice / velocity."""
    return dx * u_lattice / velocity


def velocity_to_lattice(u: float, dx: float, dt: float) -> float:
    """A physical velocity (m/s) in lattice units: u dt / dx."""
    return u * dt / dx


def viscosity_to_lattice(nu: float, dx: float, dt: float) -> float:
    """A physical viscosity (m^2/s) in lattice units: nu dt / dx^2 (written dx ** 2, as the channel cases
    always have)."""
    return nu * dt / dx ** 2
