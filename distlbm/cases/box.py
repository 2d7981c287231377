"""A fully periodic box of any size and lattice (the 400^3 D3Q19 box of the motivating report among them)."""

from __future__ import annotations

import math

import numpy as np

from distlbm import units as un
from distlbm.cases.base import Case, ConfigError, Param, Setup, grid_coords, physical_units
from distlbm.physics import boundaries as bc


class PeriodicBox(Case):
    name = "box"
    title = "periodic box with a smooth decaying vortex field (any lattice, any size)"
    validates = "mass conservation to round-off; memory and speed at scale (e.g. n=400 with D3Q19)"
    reference = "conservation (total mass constant)"
    dims = (2, 3)
    default_lattice = "D3Q19"
    params = (
        Param("n", 64, int, "cells per side", positive=True),
        Param("nx", 0, int, "cells along x if > 0 (else n)", minimum=0),
        Param("ny", 0, int, "cells along y if > 0 (else n)", minimum=0),
        Param("nz", 0, int, "cells along z if > 0 (else n; 3D only)", minimum=0),
        Param("tau", 0.8, float, "relaxation time"),
        Param("u0", 0.02, float, "amplitude of the initial vortex field (of u_x; u_y's is u0 ny / nx)", unit="lattice",
              minimum=0.0),
    )

    def overridden(self, p, d):
        keys = ("nx", "ny", "nz")[:d]
        return {"n": f"{' and '.join(keys)} are all given (n is the side of those not given)"} if all(
            p[k] > 0 for k in keys) else {}

    def build(self, p, lattice):
        d = lattice.d
        dims = [p["nx"] or p["n"], p["ny"] or p["n"], p["nz"] or p["n"]][:d]
        shape = tuple(dims)
        u0, tau = p["u0"], p["tau"]
        keys = [k if p[k] else "n" for k in ("nx", "ny")]
        for axis, (key, side) in enumerate(zip(keys, shape)):
            if side < 3:  # sin(2 pi x / side) is 0 at every cell: n = 2 ran a fluid at rest, nx = 1 one wave along y
                comp = "u_x" if axis == 0 else "u_y"
                raise ConfigError(f"{key} = {p[key]}: the box's vortex field {comp} is zero at every cell of a box of "
                                  f"{side} cell(s) along {'xy'[axis]}; expected {key} >= 3 (the sides along x and y)")

        def initial(index):
            xs = grid_coords(index, shape)
            ks = [2 * math.pi / s for s in shape]
            if d == 2:
                x, y = xs
                ux = u0 * np.sin(ks[0] * x) * np.cos(ks[1] * y)
                uy = -u0 * np.cos(ks[0] * x) * np.sin(ks[1] * y) * (ks[0] / ks[1])
                comps = [ux, uy]
            else:
                x, y, z = xs
                ux = u0 * np.sin(ks[0] * x) * np.cos(ks[1] * y) * np.cos(ks[2] * z)
                uy = -u0 * np.cos(ks[0] * x) * np.sin(ks[1] * y) * np.cos(ks[2] * z) * (ks[0] / ks[1])
                comps = [ux, uy, np.zeros_like(ux * uy * z)]
            u = np.stack(np.broadcast_arrays(*comps))
            return np.ones(u.shape[1:]), u, None

        # length 1 = the box along x, velocity 1 = u0: nu = nu_lattice dx^2 / dt = nu_lattice / (nx u0) (the lattice
        # viscosity was given as the physical one: "viscosity 0.1 -> 0.1 lattice" beside its own dx and dt)
        units = physical_units(1.0, 1.0, shape[0], max(u0, 1e-12), un.viscosity(tau) / (shape[0] * max(u0, 1e-12)),
                               tau)
        # the field's peak speed: u_y's amplitude is u0 ny / nx (divergence-free on a box of other sides), u0 where
        # ny <= nx; the Mach check read u0 alone, and a 16x64 box at u0 = 0.05 (peak 0.2, Mach 0.35) was said to run
        # at Mach 0.087 (the run's first check found 0.33)
        peak = u0 * max(1.0, shape[1] / shape[0])
        units.update(mach=un.mach(peak))
        return Setup(lattice, shape, tau, initial, 100, peak, features=bc.Features(), units=units)

    def peak_remedy(self, p, shape, limit: float) -> str:
        """Where ny > nx makes the peak (u_y's amplitude u0 ny / nx) and u0 alone is within `limit`: the least side
        along x that keeps the Mach number within it, as a clause to add to the Mach refusal (nx = 3 at ny = 64 was
        refused naming u0 alone); '' otherwise."""
        u0 = p["u0"]
        if not (shape[1] > shape[0] and un.mach(u0) <= limit):
            return ""
        least = max(3, math.ceil(u0 * shape[1] / (limit * un.CS)))
        while un.mach(u0 * shape[1] / least) > limit:  # the ceiling of a rounded quotient
            least += 1
        return (f", or {'nx' if p['nx'] else 'n'} >= {least} (nx = {shape[0]} is short for ny = {shape[1]}: the "
                f"peak is u_y's amplitude u0 ny / nx)")

    def observe(self, view, p):
        return {"relative_mass_drift": view.mass_drift()}
