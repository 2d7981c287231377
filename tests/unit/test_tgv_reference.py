"""The Taylor-Green Re 1600 spectral reference (distlbm/cases/data/spectral_Re1600_512.gdiag) and the
comparison of a dissipation history with it (distlbm.cases.taylor_green)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from distlbm.cases.references import TGV_SPECTRAL, cite, tgv_spectral
from distlbm.cases.taylor_green import (PEAK_TOL, compare_dissipation, dissipation_checks, dissipation_rate,
                                        peak)

RE = 1600.0


@pytest.fixture(scope="module")
def ref():
    return tgv_spectral()


def test_reference_file_is_the_spectral_dns(ref):
    """2000 rows every 0.01 L/V0; the analytic initial values; the published peak 0.012858 at t = 8.97; and
    -dE/dt = 2 zeta / Re (a resolved incompressible flow), also equal to the energy's own derivative."""
    t, e, eps, zeta = ref["t"], ref["energy"], ref["dissipation"], ref["enstrophy"]
    assert t.shape == e.shape == eps.shape == zeta.shape == (2000,)
    assert t[0] == 0.0 and t[-1] == pytest.approx(19.99) and np.allclose(np.diff(t), 0.01)
    assert e[0] == 0.125 and zeta[0] == 0.375  # V0^2 / 8 and 3 V0^2 / (8 L^2)
    assert eps[0] == pytest.approx(3.0 / (4.0 * RE), rel=1e-4)
    i = int(np.argmax(eps))
    assert t[i] == pytest.approx(8.97) and eps[i] == pytest.approx(0.0128575, rel=1e-5)
    assert np.max(np.abs(eps / (2.0 * zeta / RE) - 1.0)) < 1e-4
    assert np.allclose(dissipation_rate(t, e)[1:-1], eps[1:-1], rtol=1e-4)
    assert "van Rees" in cite(TGV_SPECTRAL) and TGV_SPECTRAL in cite(TGV_SPECTRAL)


def test_dissipation_rate_is_second_order():
    """-dE/dt of E = exp(-a t) on a non-uniform grid: error falls 4x per halving of the spacing."""
    errs = []
    for n in (20, 40, 80):
        t = np.linspace(0.0, 2.0, n) ** 1.2
        errs.append(np.max(np.abs(dissipation_rate(t, np.exp(-1.5 * t)) - 1.5 * np.exp(-1.5 * t))))
    assert errs[0] / errs[1] > 3.0 and errs[1] / errs[2] > 3.0
    with pytest.raises(ValueError):
        dissipation_rate([0.0, 1.0], [1.0, 0.5])


def test_peak_is_refined_by_a_parabola():
    t = np.arange(0.0, 10.0, 0.5)
    y = 3.0 - 0.2 * (t - 4.3) ** 2
    assert peak(t, y) == pytest.approx((3.0, 4.3), abs=1e-12)  # exact for a parabola, between samples
    assert peak(t, 2.0 * t) == (19.0, 9.5) and peak(t, -t) == (0.0, 0.0)  # a largest value at an end: that sample


def test_comparison_of_the_reference_with_itself_is_exact(ref):
    c = compare_dissipation(ref["t"], ref["dissipation"], ref["t"], ref["dissipation"])
    assert c["peak_error"] == 0.0 and c["peak_time_error"] == 0.0 and c["l2"] == 0.0 and c["max_dev"] == 0.0
    assert c["reference_peak_time"] == pytest.approx(8.97, abs=0.01) and c["covers_peak"]
    assert c["t_end"] == pytest.approx(12.0) and c["t_start"] == 0.0  # the window 0 <= t <= 12


def test_comparison_measures_a_scaled_and_a_shifted_curve(ref):
    """On the run's own (coarser) sample times: 0.9 x the reference is -10 % in peak, 0.1 in both curve
    errors; the reference delayed by 0.6 L/V0 has its peak 0.6 later."""
    t = np.arange(0.0, 12.0 + 1e-9, 0.05)
    r = np.interp(t, ref["t"], ref["dissipation"])
    c = compare_dissipation(t, 0.9 * r, ref["t"], ref["dissipation"])
    assert c["peak_error"] == pytest.approx(-0.1, abs=2e-4)
    assert c["l2"] == pytest.approx(0.1, rel=1e-9) and c["max_dev"] == pytest.approx(0.1, rel=1e-3)
    shifted = np.interp(t - 0.6, ref["t"], ref["dissipation"])
    c = compare_dissipation(t, shifted, ref["t"], ref["dissipation"])
    assert c["peak_time"] - c["reference_peak_time"] == pytest.approx(0.6, abs=0.02)
    assert abs(c["peak_error"]) < 2e-3 and c["l2"] > 0.05


@pytest.mark.parametrize("scale, shift, ok_peak, ok_time", [
    (0.97, 0.0, True, True),
    (0.93, 0.0, False, True),   # the user's regularized 128^3 run: 7 % low
    (1.06, 0.0, False, True),
    (1.0, -0.6, True, False),   # 6.7 % early
    (1.0, 0.35, True, True),
])
def test_checks_pass_and_fail_at_five_percent(ref, scale, shift, ok_peak, ok_time):
    t = np.arange(0.0, 12.0 + 1e-9, 0.05)
    rate = scale * np.interp(t - shift, ref["t"], ref["dissipation"])
    checks = dissipation_checks(compare_dissipation(t, rate, ref["t"], ref["dissipation"]))
    by = {c["quantity"].split(" (")[0].split(" over")[0]: c for c in checks}
    assert by["peak dissipation rate max(-dE/dt)"]["pass"] is ok_peak
    assert by["time of the peak dissipation rate"]["pass"] is ok_time
    assert by["peak dissipation rate max(-dE/dt)"]["tolerance"] == PEAK_TOL
    curve = by["-dE/dt(t) relative L2 error"]
    assert curve["pass"] is None and curve["value"] >= 0.0  # reported unless a tolerance is given
    tight = dissipation_checks(compare_dissipation(t, rate, ref["t"], ref["dissipation"]), curve_tol=1e-6)
    assert tight[2]["pass"] is (scale == 1.0 and shift == 0.0)


def test_a_run_that_stops_before_the_peak_is_not_judged_on_it(ref):
    t = np.arange(0.0, 6.0 + 1e-9, 0.05)
    c = compare_dissipation(t, np.interp(t, ref["t"], ref["dissipation"]), ref["t"], ref["dissipation"])
    assert not c["covers_peak"] and c["t_end"] == pytest.approx(6.0)
    checks = dissipation_checks(c)
    assert checks[0]["pass"] is None and checks[1]["pass"] is None
    assert "before the reference's peak" in checks[0]["note"]
    with pytest.raises(ValueError):
        compare_dissipation([0.0, 0.1], [1.0, 1.0], ref["t"], ref["dissipation"])


def test_start_up_acoustics_are_not_a_peak(ref):
    """A spike at t < 1 (a coarse lattice's start-up) is ignored by the peak, not by the curve errors."""
    t = np.arange(0.0, 12.0 + 1e-9, 0.05)
    rate = np.interp(t, ref["t"], ref["dissipation"])
    rate[:3] += 0.05
    c = compare_dissipation(t, rate, ref["t"], ref["dissipation"])
    assert abs(c["peak_error"]) < 1e-3 and math.isclose(c["peak_time"], c["reference_peak_time"], abs_tol=0.02)
    assert c["max_dev"] > 3.0
