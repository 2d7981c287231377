"""Plane channel flows between halfway bounce-back walls: force-driven Poiseuille and wall-driven Couette."""

from __future__ import annotations

import math

import numpy as np

from distlbm import units as un
from distlbm.cases.base import (Case, Param, Setup, block_shape, check, finite_steps, lattice_viscosity,
                                 physical_units, rest_state)
from distlbm.cases.references import COUETTE_SELFCHECK, POISEUILLE_SELFCHECK, cite
from distlbm.physics import boundaries as bc

POIS_REF = cite(POISEUILLE_SELFCHECK)
COUETTE_REF = cite(COUETTE_SELFCHECK)


def _channel_shape(p, d):
    n, nx = p["n"], p["nx"]
    return (nx, n + 2) if d == 2 else (nx, n + 2, nx)


def _origin(dx: float, d: int) -> list:
    """The corner of cell 0 (physical units): the wall row lies below y = 0, the walls being at y = 0 and H."""
    return [0.0, -dx] + [0.0] * (d - 2)


def _efold_steps(n, tau) -> float:
    """E-fold time (steps) of the slowest transient mode of a plane channel of n cells: H^2 / (nu pi^2), and no
    less than the collision's own relaxation time, tau steps (a large tau)."""
    return max(n * n / (un.viscosity(tau) * math.pi ** 2), tau)


def _settle_steps(n, tau, efolds=35.0):
    """Steps for the slowest channel mode to decay by exp(-efolds): the longest run."""
    return int(math.ceil(finite_steps(f"the time to steady ({efolds:g} e-folds of the slowest mode)",
                                      efolds * _efold_steps(n, tau))))


class _SteadyChannel(Case):
    """The plane channels run until steady: the velocity field is compared every e-fold time of the slowest
    transient mode, H^2 / (nu pi^2), and the run stops when it changed by less than 1e-6 U anywhere (float32:
    measured at n = 16, tau = 0.8, the change stalls at 1e-7 (BGK) to 5e-7 (TRT), where the float32 answer
    stops improving; 6e-6 to 2.4e-5 before the equilibrium's float32 cancellation was removed, when the
    tolerance was 1e-4 and the default runs stopped 6 % off the slip law), or 1e-11 U in float64 (then exact to
    round-off: the checks' 1e-10 needs the transient gone to ~1e-11, ~27 e-fold times); the old 35 e-fold
    times is the longest run."""

    common_defaults = {"steady_tol": 1e-6}
    steady_tol_float64 = 1e-11


# the error of an exact answer per storage dtype at n = 16, tau = 0.8 (float32: Couette 8.8e-6, TRT Poiseuille
# 1.5e-5; float64 ~1e-12; 16-bit: ten storage steps, 1e-2 in float16, 8e-2 in bfloat16, which a 16-bit steady run
# exceeds where rounding froze it: Couette in bfloat16 0.18, Poiseuille in float16 0.04)
ROUNDOFF = {"float64": 1e-10, "float32": 3e-5, "float16": 1e-2, "bfloat16": 8e-2}


def _roundoff(view, n: int) -> float:
    """Largest relative L2 error accepted as 'exact to round-off' for the run's storage dtype (ROUNDOFF) at n cells
    across: in float32 and float64 it grows with the settling run's length, n^2 / nu, from n = 16 at tau = 0.8
    (float32 Poiseuille ended 1.0e-4 and 4.9e-4 off the slip law at n = 48 and 64, Couette 1.4e-4 off at tau =
    0.55); a frozen 16-bit state does not, its floor stays ten storage steps."""
    storage = str(view.model.dtype)
    base = ROUNDOFF.get(storage, ROUNDOFF["float32"])
    if storage in ("float16", "bfloat16"):
        return base
    return base * max(1.0, n * n / un.viscosity(view.setup.tau) / (16 * 16 / un.viscosity(0.8)))


def _profile(view):
    """Mean streamwise velocity u_x(y) of the fluid rows 1..n (averaged over x and z)."""
    _, u = view.fields(dtype="float64")
    ux = u[0]
    axes = (0,) if ux.ndim == 2 else (0, 2)
    return ux.mean(axis=axes)[1:-1]


class Poiseuille(_SteadyChannel):
    name = "poiseuille"
    title = "force-driven plane Poiseuille channel (walls at y, periodic in x and z)"
    validates = ("u(y) - F/(2 nu) y (H - y) is the bounce-back slip law's constant (16 Lambda - 3)/24 F/nu at every "
                 "row (within 1 % of the slip and round-off); Lambda = 3/16 (TRT) exact to round-off")
    reference = f"analytic + {POIS_REF}"
    dims = (2, 3)
    default_lattice = "D2Q9"
    exclusive = (("re", "tau"),)  # re > 0 sets tau: a tau given beside it was silently ignored
    params = (
        Param("n", 16, int, "fluid cells across the channel (H = n)", positive=True),
        Param("nx", 2, int, "cells along the periodic directions", positive=True),
        Param("tau", 0.8, float, "relaxation time (nu = (tau - 1/2)/3)"),
        Param("umax", 0.01, float, "centre-line velocity of the analytic profile", unit="lattice", positive=True),
        Param("re", 0.0, float, "if > 0: Reynolds number umax H / nu, which sets tau instead (then no tau)", minimum=0.0),
    )

    def build(self, p, lattice):
        n = p["n"]
        tau = p["tau"] if p["re"] <= 0 else un.relaxation_time_for_reynolds(p["umax"], n, p["re"])
        nu = lattice_viscosity("the lattice viscosity (tau - 1/2)/3", un.viscosity(tau))  # re = 1e300: tau 1/2, nu 0
        fx = 8.0 * nu * p["umax"] / n ** 2
        d = lattice.d
        shape = _channel_shape(p, d)

        def geometry(index):
            kind = np.zeros(block_shape(index, shape), np.uint8)
            ys = np.arange(*index[1].indices(shape[1]))
            sl = [slice(None)] * d
            sl[1] = (ys == 0) | (ys == n + 1)
            kind[tuple(sl)] = bc.WALL
            return kind, None, None

        initial = rest_state(shape)

        re = un.reynolds(p["umax"], n, nu)
        units = physical_units(1.0, 1.0, n, p["umax"], 1.0 / re, tau)
        units.update(force_lattice=fx, reynolds=re, mach=un.mach(p["umax"]), umax_lattice=p["umax"],
                     origin=_origin(units["dx"], d))
        return Setup(lattice, shape, tau, initial, _settle_steps(n, tau), p["umax"],
                     force=(fx,) + (0.0,) * (d - 1), geometry=geometry, features=bc.Features(walls=True), units=units,
                     steady_every=max(1, int(round(_efold_steps(n, tau)))))

    @staticmethod
    def magic(view) -> float | None:
        col = view.model.collision
        if col.kind == "bgk":
            return (col.tau - 0.5) ** 2
        if col.kind == "trt":
            return col.trt_lambda
        return None

    def observe(self, view, p):
        n = p["n"]
        nu = un.viscosity(view.setup.tau)
        fx = view.setup.force[0]
        y = np.arange(n) + 0.5
        exact = fx / (2 * nu) * y * (n - y)
        num = _profile(view)
        err = float(np.linalg.norm(num - exact) / np.linalg.norm(exact))
        out = {"u_max_measured": float(num.max()), "u_max_analytic": float(exact.max()), "rel_l2_error": err}
        lam = self.magic(view)
        floor = _roundoff(view, n)
        if lam is not None:
            # the error is the slip law's: u - parabola is the constant (16 Lambda - 3)/24 F/nu at every row (zero
            # at Lambda = 3/16), judged row by row (the norms alone passed a slip of the wrong sign, or a parabola
            # 0.28 % off without slip): |u - parabola - slip| relative L2 within 1 % of the slip's and round-off
            slip = (16 * lam - 3) / 24 * fx / nu
            pred = float(np.linalg.norm(np.full(n, slip)) / np.linalg.norm(exact))
            off = float(np.linalg.norm(num - exact - slip) / np.linalg.norm(exact))
            out["slip_law"] = {"Lambda": lam, "predicted_rel_l2": pred, "measured_rel_l2": err,
                               "off_slip_law_rel_l2": off,
                               "what": f"(16 Lambda - 3)/24 F/nu constant slip ({POIS_REF})"}
            exact_wall = abs(16 * lam - 3) < 1e-9
            what = ("u(y): relative L2 error vs the parabola F/(2 nu) y (H - y) (Lambda = 3/16: exact)" if exact_wall
                    else f"u(y) - parabola F/(2 nu) y (H - y) vs the slip law's constant (Lambda = {lam:.4g}, "
                         f"predicted relative L2 {pred:.4g}): relative L2 of the difference")
            if exact_wall or floor <= pred / 3:
                tol = floor if exact_wall else 0.01 * pred + floor
                chk = check(what, off, 0.0, tolerance=tol, relative=False, source=POIS_REF)
            else:  # the storage's round-off is as large as the slip: it cannot tell the slip law from no slip
                chk = check(f"{what} (reported, not judged: the {view.model.dtype} round-off of this run, {floor:.2g}, "
                            f"is more than a third of the slip's {pred:.2g}; a float64 run judges it)", off, 0.0,
                            relative=False, source=POIS_REF)
        else:
            chk = check("u(y): relative L2 error vs the parabola F/(2 nu) y (H - y)", err, 0.0, relative=False,
                        source="analytic (no slip law for this collision)")
        out["checks"] = [chk]
        return out


class Couette(_SteadyChannel):
    name = "couette"
    title = "plane Couette flow: wall at rest at the bottom, moving wall at the top"
    validates = "u(y) = U y / H exactly (to round-off) with halfway bounce-back and the moving-wall term"
    reference = f"analytic + {COUETTE_REF}"
    dims = (2, 3)
    default_lattice = "D2Q9"
    params = (
        Param("n", 16, int, "fluid cells across the channel", positive=True),
        Param("nx", 2, int, "cells along the periodic directions", positive=True),
        Param("tau", 0.8, float, "relaxation time"),
        Param("u_wall", 0.01, float, "velocity of the top wall", unit="lattice", positive=True),
    )

    def build(self, p, lattice):
        n, uw = p["n"], p["u_wall"]
        tau = p["tau"]
        nu = un.viscosity(tau)
        d = lattice.d
        shape = _channel_shape(p, d)

        def geometry(index):
            bs = block_shape(index, shape)
            kind = np.zeros(bs, np.uint8)
            vel = np.zeros((d,) + bs)
            ys = np.arange(*index[1].indices(shape[1]))
            sl = [slice(None)] * d
            sl[1] = ys == 0
            kind[tuple(sl)] = bc.WALL
            sl[1] = ys == n + 1
            kind[tuple(sl)] = bc.MOVING_WALL
            vel[(0,) + tuple(sl)] = uw
            return kind, vel, None

        initial = rest_state(shape)

        units = physical_units(1.0, 1.0, n, uw, nu / (uw * n), tau)
        units.update(reynolds=un.reynolds(uw, n, nu), mach=un.mach(uw), u_wall_lattice=uw, origin=_origin(units["dx"], d))
        return Setup(lattice, shape, tau, initial, _settle_steps(n, tau), uw, geometry=geometry,
                     features=bc.Features(walls=True, moving=True), units=units,
                     steady_every=max(1, int(round(_efold_steps(n, tau)))))

    def observe(self, view, p):
        n, uw = p["n"], p["u_wall"]
        y = np.arange(n) + 0.5
        exact = uw * y / n
        num = _profile(view)
        err = float(np.linalg.norm(num - exact) / np.linalg.norm(exact))
        return {"rel_l2_error": err, "reference": "u(y) = U y / H, exact to round-off (" + COUETTE_REF + ")",
                "checks": [check("u(y): relative L2 error vs U y / H (exact to round-off)", err, 0.0,
                                 tolerance=_roundoff(view, n), relative=False, source=COUETTE_REF)]}
