"""Force-driven Poiseuille flow in a 3D rectangular duct against the Fourier series solution."""

from __future__ import annotations

import math

import numpy as np

from distlbm import units as un
from distlbm.cases.base import (Case, ConfigError, Param, Setup, block_shape, cells_along, check, finite_steps,
                                 lattice_viscosity, physical_units, rest_state, steps_for)
from distlbm.cases.channel import Poiseuille
from distlbm.cases.references import ANALYTIC, cite
from distlbm.physics import boundaries as bc

REF = cite(ANALYTIC)
SQUARE_UMAX = 0.2946854  # u_max / (G a^2 / (rho nu)) of the square duct (same file)


def duct_series(y, z, a: float, b: float, g_over_nu: float = 1.0, terms: int = 4000):
    """u(y, z) = 16 G a^2/(rho nu pi^3) sum_{n odd} (-1)^((n-1)/2) [1 - cosh(n pi z/2a)/cosh(n pi b/2a)]
    cos(n pi y/2a) / n^3 on |y| <= a, |z| <= b (analytic_reference_solutions.csv, Poiseuille_square_duct),
    with G/(rho nu) = g_over_nu. y and z broadcast; the cosh ratio is evaluated without overflow.
    The alternating tail after `terms` odd n is below (2 terms + 1)^-3 of the prefactor."""
    y = np.asarray(y, np.float64)
    z = np.abs(np.asarray(z, np.float64))
    y, z = np.broadcast_arrays(y, z)
    total = np.zeros(y.shape)
    for start in range(0, terms, 500):  # chunks of odd n keep the temporary arrays small
        k = np.arange(start, min(start + 500, terms))
        n = (2 * k + 1).astype(np.float64).reshape((-1,) + (1,) * y.ndim)
        s = n * math.pi / (2 * a)
        ratio = np.exp(s * (z - b)) * (1 + np.exp(-2 * s * z)) / (1 + np.exp(-2 * s * b))
        sign = np.where(k % 2 == 0, 1.0, -1.0).reshape(n.shape)
        total += np.sum(sign * (1 - ratio) * np.cos(s * y) / n ** 3, axis=0)
    return 16 * g_over_nu * a * a / math.pi ** 3 * total


LOOSEST = 0.1  # a relative tolerance looser than this judges nothing: the checks are reported instead


class Duct(Case):
    """Runs until steady: the velocity field is compared every e-fold time of the slowest transient mode and
    the run stops when it changed by less than 1e-5 U anywhere (float32; measured at n = 16 the change stalls
    near 1e-6 after ~14 e-fold times) or 1e-7 U (float64, where the convergence study compares errors down
    to ~2e-4 at n = 64: the remaining transient is then ~1e-3 of the error); `efolds` is the longest run."""

    name = "duct"
    title = "force-driven Poiseuille flow in a rectangular duct (walls at y and z, periodic in x)"
    validates = ("u(y, z) vs the Fourier series solution (relative L2 error, second order in the resolution); "
                 "centre velocity of a square duct 0.2946854 G a^2/(rho nu)")
    reference = f"analytic: Poiseuille_square_duct in {REF}"
    dims = (3,)
    default_lattice = "D3Q19"
    common_defaults = {"steady_tol": 1e-5}
    steady_tol_float64 = 1e-7
    # re > 0 sets tau: a tau given beside it was silently ignored; nz > 0 sets the z extent aspect gives otherwise
    # (an aspect beside it was ignored, unsaid)
    exclusive = (("re", "tau"), ("aspect", "nz"))
    params = (
        Param("n", 16, int, "fluid cells across y (duct width 2a = n; halfway bounce-back walls)", positive=True),
        Param("aspect", 1.0, float, "b/a: the z extent is round(aspect * n) fluid cells", positive=True),
        Param("nz", 0, int, "fluid cells across z if > 0 (overrides aspect)", minimum=0),
        Param("nx", 2, int, "cells along the periodic x direction", positive=True),
        Param("tau", 0.8, float, "relaxation time (nu = (tau - 1/2)/3)"),
        Param("umax", 0.01, float, "centre velocity of the series solution", unit="lattice", positive=True),
        Param("re", 0.0, float, "if > 0: Reynolds number umax 2a / nu, which sets tau instead (then no tau)", minimum=0.0),
        Param("efolds", 18.0, float, "longest run in e-folding times of the slowest transient mode (it stops when "
              "steady: steady_tol, checked every e-folding time)", positive=True),
    )

    def overridden(self, p, d):
        return {"aspect": "nz is given"} if p["nz"] > 0 else {}

    @staticmethod
    def section(p, notes: list | None = None) -> tuple:
        """(fluid cells across y, across z); `notes` gets what rounding aspect * n to whole cells changed."""
        n = p["n"]
        if p["nz"]:
            return n, p["nz"]
        want = cells_along("the fluid cells across z, aspect * n", p["aspect"] * n)  # aspect = 1.7e308: inf
        nz = int(round(want))
        if nz < 1:  # it was made 1 cell, unsaid (aspect 0.01: a duct of aspect 1/16)
            raise ConfigError(f"aspect = {p['aspect']!r}: round(aspect * n) = round({want:.4g}) = {nz} fluid cells "
                              f"across z (n = {n}); expected aspect * n > 0.5 (at least one cell), or nz")
        if notes is not None and abs(nz - want) > 1e-9 * want:
            notes.append(f"aspect = {p['aspect']!r}: the z extent is round(aspect * n) = round({want:.4g}) = {nz} "
                         f"fluid cells, aspect {nz / n:.6g} (the analytic solution is of that one); give nz, or an "
                         f"aspect * n that is whole, for another")
        return n, nz

    def lattice_shape(self, p, lattice):  # (aspect = 1e300: refused as a shape beyond 2**53 cells before the build,
        # whose 1/nz**2 of an int of 302 digits was "OverflowError: int too large to convert to float")
        ny, nz = self.section(p)
        return p["nx"], ny + 2, nz + 2

    def build(self, p, lattice):
        notes = []
        ny, nz = self.section(p, notes)
        a, b = ny / 2.0, nz / 2.0
        tau = p["tau"] if p["re"] <= 0 else un.relaxation_time_for_reynolds(p["umax"], ny, p["re"])
        nu = lattice_viscosity("the lattice viscosity (tau - 1/2)/3", un.viscosity(tau))  # re = 1e300: tau 1/2, nu 0
        centre = float(duct_series(0.0, 0.0, a, b))  # u(0, 0) for G/(rho nu) = 1
        fx = p["umax"] * nu / centre
        shape = (p["nx"], ny + 2, nz + 2)

        def geometry(index):
            kind = np.zeros(block_shape(index, shape), np.uint8)
            ys = np.arange(*index[1].indices(shape[1]))
            zs = np.arange(*index[2].indices(shape[2]))
            wall = ((ys == 0) | (ys == ny + 1))[:, None] | ((zs == 0) | (zs == nz + 1))[None, :]
            kind[:, wall] = bc.WALL
            return kind, None, None

        # slowest transient: the (1, 1) mode, decay rate nu pi^2 (1/ny^2 + 1/nz^2); no faster than the collision's
        # own relaxation, tau steps (at tau = 10 the mode's 4 steps ended the run at step 74, far from steady at 152)
        efold = max(1.0 / (nu * math.pi ** 2 * (1.0 / ny ** 2 + 1.0 / nz ** 2)), tau)
        steps = int(math.ceil(finite_steps("efolds", p["efolds"] * efold)))
        if p["efolds"] * efold < 0.5:  # (a run of one step, unsaid)
            steps_for("efolds", p["efolds"] * efold, notes)
        re = un.reynolds(p["umax"], ny, nu)
        units = physical_units(1.0, 1.0, ny, p["umax"], 1.0 / re, tau)
        units.update(force_lattice=fx, reynolds=re, mach=un.mach(p["umax"]), umax_lattice=p["umax"],
                     half_width_a=a, half_height_b=b, origin=[0.0, -units["dx"], -units["dx"]])
        return Setup(lattice, shape, tau, rest_state(shape), steps, p["umax"], force=(fx, 0.0, 0.0),
                     geometry=geometry, features=bc.Features(walls=True), units=units,
                     steady_every=max(1, int(round(efold))), notes=tuple(notes))

    def exact(self, p, fx, nu):
        """The series solution on the fluid cell centres: [ny, nz] (walls half a cell outside)."""
        ny, nz = self.section(p)
        a, b = ny / 2.0, nz / 2.0
        y = np.arange(ny) + 0.5 - a
        z = np.arange(nz) + 0.5 - b
        return duct_series(y[:, None], z[None, :], a, b, fx / nu)

    def observe(self, view, p):
        ny, nz = self.section(p)
        nu = un.viscosity(view.setup.tau)
        fx = view.setup.force[0]
        _, u = view.fields(dtype="float64")
        num = u[0].mean(axis=0)[1:-1, 1:-1]
        exact = self.exact(p, fx, nu)
        err = float(np.linalg.norm(num - exact) / np.linalg.norm(exact))
        a, b = ny / 2.0, nz / 2.0
        umax_num, umax_ex = float(num.max()), float(exact.max())
        coeff = float(duct_series(0.0, 0.0, a, b)) / (a * a)  # u(0,0) / (G a^2/(rho nu))
        # Second order with the bounce-back slip law: the plane-channel slip is (16 Lambda - 3)/24 F/nu, i.e.
        # |16 Lambda - 3|/(3 n^2) of u_max; measured here, the duct's relative L2 error is 1.5-1.9 times that
        # (BGK tau = 0.8: 0.95/n^2, tau = 1.5: 6.4/n^2) plus ~0.2/n^2 that remains with TRT Lambda = 3/16.
        lam = Poiseuille.magic(view)
        coef = 2.0 * abs(16 * lam - 3) / 3.0 + 0.5 if lam is not None else 4.0
        tol = coef / min(ny, nz) ** 2
        note = {}
        if view.setup.lattice.name == "D3Q27" and not (lam is not None and abs(lam - 3.0 / 16.0) < 1e-9):
            # The rule is calibrated on D3Q19. D3Q27 with BGK measured at n = 16 (second order, n = 8..32):
            # 1.0, 1.0, 1.1, 1.7, 2.9 times it at tau = 1.5, 0.8, 0.7, 0.6, 0.55 (D3Q19: 0.62-0.69 times it),
            # growing towards tau = 1/2 beyond what the slip law explains; with TRT at Lambda = 3/16 it is
            # below D3Q19's. Reported, not judged, rather than failed at every resolution or judged loosely.
            # The regularized collision's rule is 4 / n^2 (no Lambda): D3Q27 measured 0.16, 0.92, 0.96 times it at
            # n = 8, tau = 0.8, 1.5, 0.55 (the note said "1.0-2.9 times" the Lambda rule, BGK's figures).
            tol = None
            rule = ("the tolerance rule 4 / n^2 of the regularized collision is calibrated on D3Q19; D3Q27 measured "
                    "0.16-0.96 times it at n = 8 (tau 0.8, 1.5, 0.55)" if lam is None else
                    "the tolerance rule (2 |16 Lambda - 3| / 3 + 1/2) / n^2 is calibrated on D3Q19 and on TRT with "
                    "Lambda = 3/16; D3Q27 with BGK measured 1.0-2.9 times it (tau 1.5-0.55)")
            note = {"note": rule + ": reported, not judged; give collision = 'trt' (its default trt_lambda) for a "
                                   "judged run"}
        if tol is not None and tol > LOOSEST:
            # the rule's envelope at a few cells or a large tau (BGK's wall slip grows as (tau - 1/2)^2): tau = 10
            # passed 157 % off the series (tolerance 375 %), n = 1 80 % off (154 %): a check that cannot fail
            note = {"note": f"the tolerance rule (2 |16 Lambda - 3| / 3 + 1/2) / n^2 gives {tol:.3g} here (n = "
                            f"{min(ny, nz)}, Lambda = {lam:.4g}), looser than {LOOSEST:g}: reported, not judged (more "
                            f"cells, tau nearer 1, or collision = 'trt' make it judged)"}
            tol = None
        checks = [
            check("u_x(y,z): relative L2 error vs the series", err, 0.0, tolerance=tol, relative=False,
                  source=f"analytic: Poiseuille_square_duct ({REF})", what="||u - u_series||_2 / ||u_series||_2 "
                  "over the fluid cell centres", tolerance_rule="(2 |16 Lambda - 3| / 3 + 1/2) / n^2", **note),
            check("max u_x over the cell centres vs the series at the same points", umax_num, umax_ex,
                  tolerance=tol, relative=True, source=f"analytic: Poiseuille_square_duct ({REF})", **note),
        ]
        out = {"section": [ny, nz], "rel_l2_error": err, "u_max_measured": umax_num, "u_max_series": umax_ex,
               "centre_coefficient": coeff,
               "profile_y": {"y": [float(v) for v in (np.arange(ny) + 0.5) / ny],
                             "measured": [float(v) for v in _mid(num, 1)], "series": [float(v) for v in _mid(exact, 1)]}}
        if ny == nz:
            checks.append(check("u(0,0) / (G a^2 / (rho nu)) of the series (square duct)", coeff, SQUARE_UMAX,
                                tolerance=1e-6, source=f"analytic: Poiseuille_square_duct ({REF})"))
        out["checks"] = checks
        return out


def _mid(a, axis):
    """The mid-plane of the cell-centred array `a` along `axis` (mean of the two middle cells if even)."""
    m = a.shape[axis]
    return 0.5 * (np.take(a, (m - 1) // 2, axis=axis) + np.take(a, m // 2, axis=axis))
