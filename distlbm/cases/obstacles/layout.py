"""The grid of a channel case: its cell size, time step, lattice shape, origin and relaxation time,
computed from the physical parameters; one frozen record per run, recomputed from the parameters
wherever it is needed (never stored on a case)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from distlbm import units
from distlbm.cases.base import ConfigError, OutOfRange, cells_along


@dataclass(frozen=True)
class Layout:
    """The channel 0 <= x <= L, 0 <= y <= H (0 <= z <= W) on its lattice.

    d: 2 or 3; dx: cell size (m); dt: time step (s); nu: kinematic viscosity (m^2/s); nu_lat, tau: the
    lattice viscosity and relaxation time; shape: (nx, ny(, nz)) cells, walls included; origin: physical
    coordinates (m) of cell (0, 0(, 0))'s corner, so that cell k's centre is origin + (k + 1/2) dx;
    walls: no-slip walls at the sides (else periodic); ncross: fluid rows across H (and W); u_lat: the mean
    inflow velocity in lattice units; cross: the cross-section (H(, W)) in m; far_q: per cross axis, the
    fraction of a link from the last fluid row at which it crosses the far wall (y = H, z = W): 1/2
    (halfway) where H/dx is whole; () for periodic sides.

    The cells do not move with H: their centres lie at (k - 1/2) dx from the near wall (y = 0, z = 0;
    halfway bounce-back there) whatever H is, so an obstacle sits on the lattice the same way at every H,
    and a body placed symmetrically on the lattice stays so (a Schaefer-Turek cylinder: its centre, 2 D
    from the wall, falls midway between two rows at every n). Where H/dx is not whole the far wall cuts
    the links of the last of ceil(H/dx - 1/2) fluid rows at q = H/dx - (rows - 1/2) in (0, 1]: those
    links are interpolated (Bouzidi). Rows centred between the walls instead moved the cylinder off the
    lattice's symmetry and put lift errors of 100 % and more into cL (docs/validation.md).
    """

    d: int
    dx: float
    dt: float
    nu: float
    nu_lat: float
    tau: float
    shape: tuple
    origin: tuple
    walls: bool
    ncross: tuple
    u_lat: float
    cross: tuple
    far_q: tuple = ()

    @property
    def off_grid(self) -> bool:
        """Whether a far wall lies off the halfway position (H/dx or W/dx not whole): its links are interpolated."""
        return any(q != 0.5 for q in self.far_q)

    def across(self, axis: int):
        """The channel's extent across cross axis `axis` (1: H, 2: W) in cells: ncross where it is whole,
        else H/dx itself (ncross - 1/2 + far_q)."""
        a = axis - 1
        if not self.far_q or self.far_q[a] == 0.5:
            return self.ncross[a]
        return self.ncross[a] - 0.5 + self.far_q[a]


def channel_layout(p: dict, d: int) -> Layout:
    """The layout of the full channel parameters p (physical units: n, length, height, width, ref_length,
    u_mean, nu or re, u_lattice, sides) in d dimensions; ConfigError unless the length is whole cells (and,
    with periodic sides, the cross-section: between walls it need not be, see `Layout`)."""
    dx = p["ref_length"] / p["n"]
    u_mean = p["u_mean"]
    nu = units.viscosity_for_reynolds(u_mean, p["ref_length"], p["re"]) if p["re"] > 0 else p["nu"]
    if not 0.0 < dx * dx < math.inf:  # ref_length = 1e300 or 1e-300: nu dt / dx^2 was Python's OverflowError or 1/0
        raise OutOfRange("the cell size dx = ref_length / n", dx, "a dx whose square (in the lattice viscosity "
                                                                  "nu dt / dx^2) is a positive, finite float64: from "
                                                                  "about 1.6e-162 to 1.3e+154 m")
    dt = units.time_step(dx, p["u_lattice"], u_mean)
    if not 0.0 < dt < math.inf:  # u_lattice = 5e-324: 0, and t_end / dt was a division by zero
        raise OutOfRange("the time step dt = dx u_lattice / u_mean", dt, "a positive, finite time step [s]")
    nu_lat = units.viscosity_to_lattice(nu, dx, dt)
    tau = units.relaxation_time(nu_lat)
    walls = p["sides"] == "walls"
    cross = (p["height"],) + ((p["width"],) if d == 3 else ())
    ncross, far_q = [], []
    for name, extent in zip(("height", "width"), cross):
        cells = cells_along(f"the cells across the {name}, {name} / dx", extent / dx)  # (1.7e308: inf)
        if abs(cells - round(cells)) <= 1e-6 * max(1.0, cells):
            if round(cells) < 1:  # height = 1e-30: "whole" 0 cells, the two wall rows and no fluid ran unsaid
                raise ConfigError(f"n = {p['n']}: {name} {extent:g} is {cells:.4g} cells of dx = ref_length/n = "
                                  f"{dx:.4g}; expected at least one cell across")
            ncross.append(int(round(cells)))
            far_q.append(0.5)
            continue
        if not walls:
            raise ConfigError(f"n = {p['n']}: {name} {extent:g} is {cells:.4g} cells of dx = ref_length/n = "
                              f"{dx:.4g}; expected n such that {name}/dx is a whole number (periodic sides; "
                              f"between walls it need not be)")
        if cells < 2.0:
            raise ConfigError(f"n = {p['n']}: {name} {extent:g} is {cells:.4g} cells of dx = ref_length/n = "
                              f"{dx:.4g}; expected at least 2 cells across")
        m = int(math.ceil(cells - 0.5))  # rows whose centre (k - 1/2) dx lies below the far wall (or on it: q 1)
        ncross.append(m)
        far_q.append(cells - (m - 0.5))
    nl = cells_along("the cells along the length, length / dx", p["length"] / dx)
    if abs(nl - round(nl)) > 1e-6 * max(1.0, nl):
        raise ConfigError(f"n = {p['n']}: length {p['length']:g} is {nl:.4g} cells of dx = {dx:.4g}; "
                          f"expected n such that length/dx is a whole number")
    if round(nl) < 1:  # length = 1e-9 (within 1e-6 cells of 0: "whole"): inlet and outlet on one node, a 1-cell channel
        raise ConfigError(f"n = {p['n']}: length {p['length']:g} is {nl:.4g} cells of dx = {dx:.4g}; expected a length "
                          f"of at least one cell (the inlet at x = 0 and the outlet at x = length are nodes of their own)")
    nx = int(round(nl)) + 1  # nodes on x = 0 and x = L
    pad = 1 if walls else 0
    shape = (nx,) + tuple(m + 2 * pad for m in ncross)
    # centre of cell k: origin + (k + 1/2) dx; inlet node at x = 0, the near walls half a cell outside row 1
    origin = (-0.5 * dx,) + tuple(-(pad + 0.0) * dx for _ in ncross) if walls else \
        (-0.5 * dx,) + (0.0,) * len(ncross)
    return Layout(d=d, dx=dx, dt=dt, nu=nu, nu_lat=nu_lat, tau=tau, shape=shape, origin=origin, walls=walls,
                  ncross=tuple(ncross), u_lat=p["u_lattice"], cross=cross, far_q=tuple(far_q) if walls else ())
