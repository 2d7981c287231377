"""The grid of a channel case: its cell size, time step, lattice shape, origin and relaxation time,
computed from the physical parameters; one frozen record per run, recomputed from the parameters
wherever it is needed (never stored on a case)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from distlbm import units
from distlbm.cases.base import ConfigError


@dataclass(frozen=True)
class Layout:
    """The channel 0 <= x <= L, 0 <= y <= H (0 <= z <= W) on its lattice.

    d: 2 or 3; dx: cell size (m); dt: time step (s); nu: kinematic viscosity (m^2/s); nu_lat, tau: the
    lattice viscosity and relaxation time; shape: (nx, ny(, nz)) cells, walls included; origin: physical
    coordinates (m) of cell (0, 0(, 0))'s corner, so that cell k's centre is origin + (k + 1/2) dx;
    walls: no-slip walls at the sides (else periodic); ncross: fluid cells across H (and W); u_lat:
    the mean inflow velocity in lattice units; cross: the cross-section (H(, W)) in m; wall_q: per cross
    axis, the fraction of a link from the first (or last) fluid cell at which it crosses the wall (1/2:
    halfway, where H/dx is whole; () for periodic sides).

    Walls where H/dx is not whole: floor(H/dx) fluid cells, placed symmetrically, so that each wall lies
    s = (1 + frac(H/dx))/2 cells from the nearest fluid centre (1/2 <= s < 1); the links into the wall cells
    then carry q = s (interpolated bounce-back, `bc.bouzidi`), which is the halfway rule where s = 1/2.
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
    wall_q: tuple = ()

    @property
    def off_grid(self) -> bool:
        """Whether a wall lies off the halfway position (H/dx or W/dx not whole): its links are interpolated."""
        return any(q != 0.5 for q in self.wall_q)

    def across(self, axis: int):
        """The channel's extent across cross axis `axis` (1: H, 2: W) in cells: ncross where it is whole,
        else H/dx itself (ncross + 2 wall_q - 1)."""
        a = axis - 1
        if not self.wall_q or self.wall_q[a] == 0.5:
            return self.ncross[a]
        return self.ncross[a] + 2.0 * self.wall_q[a] - 1.0


def channel_layout(p: dict, d: int) -> Layout:
    """The layout of the full channel parameters p (physical units: n, length, height, width, ref_length,
    u_mean, nu or re, u_lattice, sides) in d dimensions; ConfigError unless the length is whole cells (and,
    with periodic sides, the cross-section: between walls it need not be, see `Layout`)."""
    dx = p["ref_length"] / p["n"]
    u_mean = p["u_mean"]
    nu = units.viscosity_for_reynolds(u_mean, p["ref_length"], p["re"]) if p["re"] > 0 else p["nu"]
    dt = units.time_step(dx, p["u_lattice"], u_mean)
    nu_lat = units.viscosity_to_lattice(nu, dx, dt)
    tau = units.relaxation_time(nu_lat)
    walls = p["sides"] == "walls"
    cross = (p["height"],) + ((p["width"],) if d == 3 else ())
    ncross, wall_q = [], []
    for name, extent in zip(("height", "width"), cross):
        cells = extent / dx
        if abs(cells - round(cells)) <= 1e-6 * max(1.0, cells):
            ncross.append(int(round(cells)))
            wall_q.append(0.5)
            continue
        if not walls:
            raise ConfigError(f"n = {p['n']}: {name} {extent:g} is {cells:.4g} cells of dx = ref_length/n = "
                              f"{dx:.4g}; expected n such that {name}/dx is a whole number (periodic sides; "
                              f"between walls it need not be)")
        if cells < 2.0:
            raise ConfigError(f"n = {p['n']}: {name} {extent:g} is {cells:.4g} cells of dx = ref_length/n = "
                              f"{dx:.4g}; expected at least 2 cells across")
        m = int(math.floor(cells))
        ncross.append(m)
        wall_q.append(0.5 * (1.0 + cells - m))
    nl = p["length"] / dx
    if abs(nl - round(nl)) > 1e-6 * max(1.0, nl):
        raise ConfigError(f"n = {p['n']}: length {p['length']:g} is {nl:.4g} cells of dx = {dx:.4g}; "
                          f"expected n such that length/dx is a whole number")
    nx = int(round(nl)) + 1  # nodes on x = 0 and x = L
    pad = 1 if walls else 0
    shape = (nx,) + tuple(m + 2 * pad for m in ncross)
    # centre of cell k: origin + (k + 1/2) dx; inlet node at x = 0, walls wall_q cells outside row 1 (half a
    # cell where the cross-section is whole cells: origin -dx)
    origin = (-0.5 * dx,) + tuple((q - 1.5) * dx for q in wall_q) if walls else \
        (-0.5 * dx,) + (0.0,) * len(ncross)
    return Layout(d=d, dx=dx, dt=dt, nu=nu, nu_lat=nu_lat, tau=tau, shape=shape, origin=origin, walls=walls,
                  ncross=tuple(ncross), u_lat=p["u_lattice"], cross=cross,
                  wall_q=tuple(wall_q) if walls else ())
