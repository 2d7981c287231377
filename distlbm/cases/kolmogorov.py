"""Laminar Kolmogorov flow: a periodic box driven by the per-cell body force F_x = F0 sin(k y) (Setup.force_field),
whose steady state is the exact solution u_x = F0 / (nu k^2) sin(k y) of nu u'' + F = 0."""

from __future__ import annotations

import math

import numpy as np

from distlbm import units as un
from distlbm.cases.base import Case, ConfigError, Param, Setup, block_shape, check, grid_coords, \
    lattice_viscosity, physical_units, rest_state, steps_for
from distlbm.cases.references import ANALYTIC, cite
from distlbm.physics import boundaries as bc

REF = cite(ANALYTIC)
# The steady profile's relative L2 error against the analytic one is second order in the forcing's wavenumber
# k = 2 pi modes / n. Measured at a fixed tau = 0.6528 (u_amp = 0.32 / n, re = 1; n = 16, 32, 64): BGK 2.32e-2,
# 5.81e-3, 1.47e-3 (order 2.00, 1.98; err / k^2 = 0.150), TRT 6.33e-3, 1.59e-3, 3.98e-4 (order 2.0; 0.041),
# regularized 1.77e-2, 4.44e-3, 1.11e-3 (order 2.0; 0.115); D3Q19 and D3Q27 the same to 3 digits. BGK's constant
# follows 1/6 - (2/3) (tau - 1/2)^2 (measured 0.161 at tau 0.531, 0.101 at 0.806, -0.2225 at 1.264: the profile
# then overshoots). The check accepts ERROR_MARGIN (1/6 + (2/3) (tau - 1/2)^2) k^2, which bounds all three
# operators' errors with a margin of 1.5 at every tau; a force off by a factor 2, 1/2 or of the wrong sign is
# 100 %, 50 % or 200 % off, above every judged tolerance (LOOSEST: a looser one is reported, not judged)
ERROR_MARGIN = 1.5
# a tolerance looser than this judges nothing (as the duct's): the check is reported instead. At a few cells or a large
# tau the rule's envelope grew past 1: n = 8, re = 0.03 (tau 1.77) accepted 115 %, so a run with no force at all
# (u = 0: 100 % off) passed. 0.2 still judges n = 8 up to tau 0.77 and n = 16 up to tau 1.52
LOOSEST = 0.2
RE_STABLE = math.sqrt(2.0)  # the laminar flow loses stability above Re = U / (nu k) = sqrt(2) (Meshalkin & Sinai 1961)


def error_tolerance(tau: float, k: float) -> float:
    """The largest accepted relative L2 error of the steady profile at relaxation time tau and wavenumber k."""
    return ERROR_MARGIN * (1.0 / 6.0 + (2.0 / 3.0) * (tau - 0.5) ** 2) * k * k


class Kolmogorov(Case):
    name = "kolmogorov"
    title = "laminar Kolmogorov flow: a periodic box driven by the body force F0 sin(k y) (a per-cell force field)"
    validates = ("the per-cell body force (Guo forcing): the steady profile u_x(y) vs the analytic "
                 "F0 / (nu k^2) sin(k y), second order in k")
    reference = f"analytic: Kolmogorov_forced in {REF}"
    dims = (2, 3)
    default_lattice = "D2Q9"
    velocity_key = "u_amp"  # what a Mach number message names
    params = (
        Param("n", 32, int, "cells along y (the forcing's direction of variation; 8 or more a period)",
              positive=True),
        Param("nx", 4, int, "cells along x (and z in 3D): the flow does not vary along them", positive=True),
        Param("modes", 1, int, "periods of the forcing along y: k = 2 pi modes / n", positive=True),
        Param("re", 1.0, float, f"Reynolds number u_amp / (nu k); the laminar flow is stable below "
              f"sqrt(2) = {RE_STABLE:.4g}", positive=True),
        Param("u_amp", 0.01, float, "amplitude of the steady velocity; the force is F0 = u_amp nu k^2",
              unit="lattice", positive=True),
        Param("decay_times", 12.0, float, "run length in viscous times 1 / (nu k^2) from rest (the transient decays "
              "as exp(-nu k^2 t): 12 leaves 6e-6 of it)", positive=True),
    )

    def build(self, p, lattice):
        d = lattice.d
        n, modes = p["n"], p["modes"]
        if n < 8 * modes:  # fewer: the second-order error (k^2 / 6 and more) nears the profile itself
            raise ConfigError(f"n = {n}, modes = {modes}: {modes} period(s) of the forcing need {8 * modes} cells "
                              f"along y (8 per period); expected n >= {8 * modes}"
                              + (f", or modes <= {n // 8}" if n >= 8 else ""))
        if p["re"] >= RE_STABLE:
            raise ConfigError(f"re = {p['re']:g}: the laminar Kolmogorov flow is unstable from Re = sqrt(2) = "
                              f"{RE_STABLE:.4g} on; expected re < {RE_STABLE:.4g}")
        k = 2 * math.pi * modes / n
        u_amp = p["u_amp"]
        # (re = 5e-324: re k is 0, the viscosity infinite; u_amp = 5e-324: it is 0)
        nu = lattice_viscosity("the lattice viscosity u_amp / (re k)", u_amp / (p["re"] * k) if p["re"] * k > 0
                               else math.inf)
        tau = un.relaxation_time(nu)
        f0 = u_amp * nu * k * k
        notes = []
        rate = nu * k * k  # (0 where nu is a subnormal, u_amp = 5e-324: no finite number of steps)
        steps = steps_for("decay_times", p["decay_times"] / rate if rate > 0 else math.inf, notes)
        shape = (p["nx"], n) + ((p["nx"],) if d == 3 else ())

        def force_field(index):
            y = grid_coords(index, shape)[1]
            fx = np.broadcast_to(f0 * np.sin(k * y), block_shape(index, shape))
            return np.stack([fx] + [np.zeros_like(fx)] * (d - 1))

        # the forcing's period 2 pi (k = 1), velocity 1 = u_amp; the reference length is 1 / k = 1 (Re = re)
        units = physical_units(2 * math.pi / modes, 1.0, n // modes, u_amp, 1.0 / p["re"], tau)
        units.update(length=1.0, F0_lattice=f0, k_lattice=k, mach=un.mach(u_amp))
        return Setup(lattice, shape, tau, rest_state(shape), steps, u_amp, force_field=force_field,
                     features=bc.Features(), units=units, notes=tuple(notes))

    def observe(self, view, p):
        n = p["n"]
        k = view.setup.units["k_lattice"]
        f0 = view.setup.units["F0_lattice"]
        nu = view.setup.units["nu_lattice"]
        _, u = view.fields(dtype="float64")
        d = u.shape[0]
        y = (np.arange(n) + 0.5).reshape((1, n) + (1,) * (d - 2))
        ua = np.zeros_like(u)
        ua[0] = f0 / (nu * k * k) * np.sin(k * y)
        err = float(np.sqrt(np.sum((u - ua) ** 2) / np.sum(ua ** 2)))
        amp = float(np.sum(u[0] * np.sin(k * y)) / np.sum(np.sin(k * y) ** 2 * np.ones_like(u[0])))
        tol = error_tolerance(view.setup.tau, k)
        note = {}
        storage = str(view.model.dtype)
        if storage in ("float16", "bfloat16"):
            # the force per step, F0 = u_amp nu k^2 (2e-5 by default), is far below a 16-bit population's step
            # (w_i 2^-11 or 2^-8): measured 4.1 % (n = 16), 4.3 % (n = 32) off in float16, 16 % and 27 % in bfloat16,
            # failing at every resolution: the rounding's, not the forcing's error (float32 and float64 judge it)
            note = {"note": f"{storage} storage rounds the force per step ({f0:.2g}) away: reported, not judged "
                            f"(dtype = 'float32' or 'float64' for a judged run)"}
            tol = None
        elif tol > LOOSEST:
            note = {"note": f"the tolerance rule {ERROR_MARGIN:g} (1/6 + (2/3) (tau - 1/2)^2) k^2 gives {tol:.3g} here "
                            f"(n = {n}, {p['modes']} period(s), tau = {view.setup.tau:.4g}), looser than {LOOSEST:g}: "
                            f"reported, not judged (more cells a period or tau nearer 1/2 make it judged)"}
            tol = None
        return {"velocity_rel_l2_error": err, "amplitude": amp, "amplitude_analytic": f0 / (nu * k * k),
                "checks": [check("steady u(y): relative L2 error vs the analytic F0 / (nu k^2) sin(k y)", err, 0.0,
                                 tolerance=tol, relative=False,
                                 source=f"analytic: Kolmogorov_forced ({REF}); tolerance {ERROR_MARGIN:g} (1/6 + "
                                        f"(2/3) (tau - 1/2)^2) k^2 (second order: measured 0.04 k^2 (TRT) to "
                                        f"0.15 k^2 (BGK) at tau 0.65)", **note)]}
