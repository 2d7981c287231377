"""Taylor-Green vortices: 2D (analytic decay, viscosity and second-order convergence) and 3D (Re 1600 onset)."""

from __future__ import annotations

import math

import numpy as np

from distlbm import units as un
from distlbm.cases.base import Case, Param, Setup, check, grid_coords, physical_units
from distlbm.cases.references import ANALYTIC, cite
from distlbm.physics import boundaries as bc

REF = cite(ANALYTIC)


class TaylorGreen2D(Case):
    name = "taylor_green2d"
    title = "2D Taylor-Green vortex in a periodic box"
    validates = "viscosity from the energy decay vs cs2(tau-1/2); velocity field vs the analytic solution (2nd order)"
    reference = f"analytic: TGV2D in {REF}"
    dims = (2,)
    default_lattice = "D2Q9"
    params = (
        Param("n", 64, int, "cells per side of the periodic box", positive=True),
        Param("re", 100.0, float, "Reynolds number U n / nu (box side as length)", positive=True),
        Param("u0", 0.04, float, "velocity amplitude", unit="lattice", positive=True),
        Param("decay_times", 1.0, float, "run length in velocity decay times 1/(2 nu k^2)", positive=True),
    )

    def build(self, p, lattice):
        n, u0 = p["n"], p["u0"]
        nu = un.viscosity_for_reynolds(u0, n, p["re"])
        tau = un.relaxation_time(nu)
        k = 2 * math.pi / n
        steps = max(1, int(round(p["decay_times"] / (2 * nu * k * k))))
        shape = (n, n)

        def initial(index):
            x, y = grid_coords(index, shape, offset=0.0)
            ux = u0 * np.sin(k * x) * np.cos(k * y)
            uy = -u0 * np.cos(k * x) * np.sin(k * y)
            p_ = (u0 * u0 / 4.0) * (np.cos(2 * k * x) + np.cos(2 * k * y))
            rho = un.density(p_)
            grad = np.stack([
                np.stack([u0 * k * np.cos(k * x) * np.cos(k * y), -u0 * k * np.sin(k * x) * np.sin(k * y)]),
                np.stack([u0 * k * np.sin(k * x) * np.sin(k * y), -u0 * k * np.cos(k * x) * np.cos(k * y)]),
            ])  # grad[a, b] = d u_b / d x_a
            return rho, np.stack(np.broadcast_arrays(ux, uy)), grad

        units = physical_units(2 * math.pi, 1.0, n, u0, 2 * math.pi / p["re"], tau)
        return Setup(lattice, shape, tau, initial, steps, u0, features=bc.Features(), units=units)

    def observe(self, view, p):
        n, u0 = p["n"], p["u0"]
        nu = view.setup.units["nu_lattice"]
        k = 2 * math.pi / n
        t = view.step
        rho, u = view.fields(dtype="float64")
        x = np.arange(n)[:, None]
        y = np.arange(n)[None, :]
        decay = math.exp(-2 * nu * k * k * t)
        ua = np.stack(np.broadcast_arrays(u0 * decay * np.sin(k * x) * np.cos(k * y),
                                          -u0 * decay * np.cos(k * x) * np.sin(k * y)))
        err = float(np.sqrt(np.sum((u - ua) ** 2) / np.sum(ua ** 2)))
        out = {"velocity_rel_l2_error": err, "analytic_decay_factor": decay}
        checks = [check("u(x, y, t_end): relative L2 error vs the analytic field", err, 0.0, relative=False,
                        source=f"analytic: TGV2D ({REF}); reported (second order: see the convergence study)")]
        hist = [h for h in view.history if h["step"] > 0]
        if len(hist) >= 2:
            h0, h1 = hist[0], hist[-1]
            nu_m = math.log(h0["kinetic_energy"] / h1["kinetic_energy"]) / (4 * k * k * (h1["step"] - h0["step"]))
            out["viscosity"] = {"measured": nu_m, "reference": nu, "rel_error": nu_m / nu - 1.0,
                                "what": "nu from E(t) ~ exp(-4 nu k^2 t) vs cs2 (tau - 1/2)"}
            checks.insert(0, check("viscosity from the energy decay E ~ exp(-4 nu k^2 t) vs cs2 (tau - 1/2)",
                                   nu_m, nu, tolerance=0.01, source=f"analytic: TGV2D ({REF})"))
        out["checks"] = checks
        return out


class TaylorGreen3D(Case):
    name = "taylor_green3d"
    title = "3D Taylor-Green vortex (Re 1600: the transition-to-turbulence benchmark)"
    validates = "initial kinetic energy dissipation rate vs the analytic 3 V0^3 / (4 Re L); energy decay"
    reference = f"analytic: TGV3D_Re1600 in {REF}"
    dims = (3,)
    default_lattice = "D3Q19"
    params = (
        Param("n", 64, int, "cells per side of the periodic box (2 pi L)", positive=True),
        Param("re", 100.0, float, "Reynolds number V0 L / nu (1600: the transition benchmark; needs n >= 256 "
              "or smagorinsky > 0)", positive=True),
        Param("u0", 0.05, float, "velocity amplitude V0", unit="lattice", positive=True),
        Param("t_end", 1.0, float, "run length in convective times L / V0", positive=True),
    )

    def build(self, p, lattice):
        n, u0 = p["n"], p["u0"]
        L = n / (2 * math.pi)
        nu = un.viscosity_for_reynolds(u0, L, p["re"])
        tau = un.relaxation_time(nu)
        steps = max(1, int(round(p["t_end"] * L / u0)))
        shape = (n, n, n)

        def initial(index):
            x, y, z = (c / L - math.pi for c in grid_coords(index, shape))
            ux = u0 * np.sin(x) * np.cos(y) * np.cos(z)
            uy = -u0 * np.cos(x) * np.sin(y) * np.cos(z)
            uz = np.zeros_like(ux * uy)
            p_ = (u0 * u0 / 16.0) * (np.cos(2 * x) + np.cos(2 * y)) * (np.cos(2 * z) + 2.0)
            sx, cx, sy, cy, sz, cz = np.sin(x), np.cos(x), np.sin(y), np.cos(y), np.sin(z), np.cos(z)
            g = u0 / L
            zero = np.zeros_like(ux * uy)
            grad = np.stack([np.stack(np.broadcast_arrays(*row)) for row in (
                (g * cx * cy * cz, g * sx * sy * cz, zero),    # d/dx of (u, v, w)
                (-g * sx * sy * cz, -g * cx * cy * cz, zero),  # d/dy
                (-g * sx * cy * sz, g * cx * sy * sz, zero),   # d/dz
            )])
            return un.density(p_), np.stack(np.broadcast_arrays(ux, uy, uz)), grad

        units = physical_units(2 * math.pi, 1.0, n, u0, 1.0 / p["re"], tau)
        units["L_lattice"] = L
        return Setup(lattice, shape, tau, initial, steps, u0, features=bc.Features(), units=units)

    def observe(self, view, p):
        n, u0 = p["n"], p["u0"]
        L = n / (2 * math.pi)
        hist = view.history
        out = {}
        if hist:
            e0 = hist[0]["kinetic_energy"]
            out["energy_ratio_final"] = hist[-1]["kinetic_energy"] / e0
        if len(hist) >= 2 and hist[1]["step"] > hist[0]["step"]:
            vol = n ** 3
            de = -(hist[1]["kinetic_energy"] - hist[0]["kinetic_energy"]) / vol / (hist[1]["step"] - hist[0]["step"])
            ref = 3 * u0 ** 3 / (4 * p["re"] * L)
            out["initial_dissipation"] = {"measured": de, "reference": ref, "rel_error": de / ref - 1.0,
                                          "what": "-dE/dt (per volume, lattice units) over the first report interval"}
            out["checks"] = [check("initial dissipation rate -dE/dt vs 3 V0^3 / (4 Re L) (first report interval)",
                                   de, ref, tolerance=0.02, source=f"analytic: TGV3D_Re1600 ({REF})")]
        return out
