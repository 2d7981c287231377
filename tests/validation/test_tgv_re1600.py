"""taylor_green3d at Re 1600 end to end on tiny lattices: the energy samples, the dissipation history and its
comparison with the spectral DNS (distlbm/cases/data/spectral_Re1600_512.gdiag), the PASS/FAIL lines, and
the case's defaults at Re 1600. The accuracy itself needs 128^3 (the validation suite's entry)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from distlbm.cli import main as cli_main
from distlbm.cases.taylor_green import RE_BENCHMARK, TaylorGreen3D
from distlbm.config import resolve
from helpers import run_case


def test_samples_and_dissipation_history_before_the_peak():
    """16^3 to t = 1: E sampled every round(0.05 L/V0) steps from E(0) = 1/8; -dE/dt starts at the analytic
    3/(4 Re); the peak is not reached, so the peak checks are reported and not judged."""
    n, u0 = 16, 0.05
    summary, sim = run_case("taylor_green3d", n=n, re=RE_BENCHMARK, t_end=1.0)
    every = round(0.05 * n / (2 * math.pi) / u0)
    steps = [s["step"] for s in sim.view.samples]
    assert steps[:3] == [every, 2 * every, 3 * every] and steps[-1] == summary["step"]
    obs = summary["observables"]
    hist = obs["dissipation_history"]
    assert hist["t"][0] == 0.0 and hist["energy"][0] == pytest.approx(0.125, rel=2e-3)
    assert hist["t"][-1] == pytest.approx(1.0, abs=0.03) and np.all(np.diff(hist["t"]) > 0)
    assert 0.1 < hist["energy"][-1] < hist["energy"][0]  # decays (16^3's start-up acoustics ripple on it)
    assert len(hist["rate"]) == len(hist["t"])
    cmp = obs["dissipation_vs_spectral"]
    assert not cmp["covers_peak"] and cmp["reference_peak_time"] == pytest.approx(8.97, abs=0.01)
    peak_checks = [c for c in obs["checks"] if "peak" in c["quantity"] and "deviation" not in c["quantity"]]
    assert len(peak_checks) == 2 and all(c["pass"] is None for c in peak_checks)
    assert any("L2 error" in c["quantity"] for c in obs["checks"])


def test_no_spectral_comparison_at_another_reynolds_number():
    summary, _ = run_case("taylor_green3d", n=16, re=100.0, t_end=0.3)
    obs = summary["observables"]
    assert "dissipation_history" in obs and "dissipation_vs_spectral" not in obs
    assert [c["quantity"].split(" ")[0] for c in obs["checks"]] == ["initial"]


def test_initial_dissipation_is_measured_over_the_first_sample_whatever_the_report_interval():
    """-dE/dt at the start is measured over the first sample interval (sample_dt): a report interval of 10^4
    steps (a long run's) put it 75 % low, a FAIL of a run that was right. (At n = 64, the default, it is 0.49 %
    off the analytic rate: docs/validation.md.)"""
    rates = []
    for every in (1, 30):
        summary, _ = run_case("taylor_green3d", n=16, re=100.0, t_end=0.3, progress_every=every)
        rates.append(summary["observables"]["initial_dissipation"])
    assert rates[0] == rates[1] and "first sample interval" in rates[0]["what"]


@pytest.mark.parametrize("sample_dt", [0.05, 0.01, 0.5])
def test_initial_dissipation_is_fitted_over_twenty_steps_past_the_start_up_oscillation(sample_dt):
    """At n = 32 (tau 0.5076) the energy carries a period-2 oscillation of the start-up and its first step drops
    more than the later ones: the first 5-step sample interval from t = 0 measured the rate 6 % to 10 % high, a
    FAIL on every lattice and collision. A line through the samples of the first 20 steps or more (the initial
    state left out) is within 1.3 % whatever the sample interval below 20 steps; a first interval of 20 steps or
    more (sample_dt 0.5: 51 steps) is itself long enough (a line through three such samples was 6.5 % high)."""
    summary, sim = run_case("taylor_green3d", n=32, re=100.0, t_end=0.3 if sample_dt < 0.5 else 1.1,
                            sample_dt=sample_dt)
    rate = summary["observables"]["initial_dissipation"]
    assert abs(rate["rel_error"]) < 0.013, rate
    first = sim.samples[0]
    if first["step"] < 20:
        assert "least-squares line through the energy samples of steps" in rate["what"], rate
        naive = -(first["energy"] - 0.125) / first["time"] * 0.05 ** 3 / (32 / (2 * math.pi))
        assert naive / rate["reference"] - 1 > 0.04  # the first interval alone: the start-up's error
    else:
        assert rate["what"].endswith("over the first sample interval (20 steps or more)"), rate
    # the history's rate at t = 0 is this measured rate: the one-sided difference through E(0) and the next two
    # samples it was took the start-up's first step as the flow's (+6.4 % at sample_dt 0.05; +317 % at Re 1600)
    hist = summary["observables"]["dissipation_history"]
    L = 32 / (2 * math.pi)
    assert hist["t"][0] == 0.0 and hist["rate"][0] == pytest.approx(rate["measured"] * L / 0.05 ** 3, rel=1e-12)
    assert "at t = 0 the initial rate" in hist["what"], hist["what"]


def test_past_the_peak_the_comparison_is_judged_and_a_coarse_lattice_fails(tmp_path, capsys):
    """16^3 to t = 12 through the command line: the transition comes far too early on 16 cells (peak near
    t = 6.4), so the peak-time check runs and FAILs; summary.json carries the same checks."""
    out = tmp_path / "tgv"
    rc = cli_main(["run", "taylor_green3d", "--set", "re=1600", "--set", "n=16", "--set", "t_end=12",
                   "--set", "collision=regularized", "--out", str(out)])
    text = capsys.readouterr().out
    assert rc == 0
    line = next(ln for ln in text.splitlines() if "time of the peak dissipation rate" in ln)
    assert line.rstrip().endswith("FAIL") and "reference 8.97" in line
    summary = json.loads((out / "summary.json").read_text())
    cmp = summary["observables"]["dissipation_vs_spectral"]
    assert cmp["covers_peak"] and cmp["peak_time_error"] < -0.05
    checks = {c["quantity"].split(" (")[0]: c for c in summary["observables"]["checks"]}
    assert checks["time of the peak dissipation rate"]["pass"] is False
    samples = [json.loads(ln) for ln in (out / "samples.jsonl").read_text().splitlines()]
    assert len(samples) == len(summary["observables"]["dissipation_history"]["t"]) - 1  # and E(0)
    assert all("energy" in s for s in samples)


def test_the_collision_default_at_re_1600():
    """At Re 1600 the study's choice (docs/validation.md): BGK from 128^3 on (stable, within 5 %), regularized
    below (BGK and TRT blow up at 64^3); a setting the user gives wins; other Reynolds numbers keep bgk."""
    assert resolve("taylor_green3d", {"re": RE_BENCHMARK}).common["collision"] == "regularized"  # n = 64
    assert resolve("taylor_green3d", {"re": RE_BENCHMARK, "n": 96}).common["collision"] == "regularized"
    assert resolve("taylor_green3d", {"re": RE_BENCHMARK, "n": 128}).common["collision"] == "bgk"
    assert TaylorGreen3D().common_defaults_for({"re": RE_BENCHMARK, "n": 256}) == {"collision": "bgk"}
    assert resolve("taylor_green3d", {"re": RE_BENCHMARK, "n": 64, "collision": "trt"}).common["collision"] == "trt"
    plain = resolve("taylor_green3d", {"re": 100.0, "n": 16}).common
    assert plain["collision"] == "bgk" and plain["smagorinsky"] == 0.0
    assert resolve("taylor_green3d", {"re": 100.0, "n": 16, "collision": "trt"}).common["collision"] == "trt"


def test_validation_entry_128_in_the_full_suite_and_a_smoke_run_in_the_reduced(tmp_path):
    """The full suite runs 128^3 to t = 12; --reduced runs 32^3 to t = 1 in seconds, its checks reported (not
    judged: 32 cells cannot pass the peak's) and its plot written."""
    from distlbm import validation as V

    entry = V.select(["taylor_green3d_re1600"])[0]
    assert entry.runs(reduced=False) == [{"re": 1600.0, "n": 128, "t_end": 12.0}]
    (small,) = entry.runs(reduced=True)
    assert small["n"] <= 32 and small["t_end"] <= 1.0 and not entry.judge_reduced
    res = V.run_entry(entry, reduced=True, plot_dir=tmp_path, log=lambda m: None)
    assert res.runs[0].summary is not None and res.runs[0].wall_s < 60
    assert len(res.checks) == 5 and all(c["pass"] is None for c in res.checks) and res.passed
    assert [p.name for p in res.plots] == ["taylor_green3d_re1600_dissipation.png"]
    full = V.run_entry(V.Entry("x", "taylor_green3d", small, judge_reduced=True), reduced=True, plot_dir=None,
                       log=lambda m: None)
    # judged, the same run is judged by its initial dissipation alone (it ends before the peak): within 2 % since
    # the rate is fitted over 20 steps (from the first 5-step interval it was 170 % off, the start-up's
    # oscillation at tau 0.5005, and this run failed)
    judged = [c for c in full.checks if c["pass"] is not None]
    assert [c["quantity"].split(" ")[0] for c in judged] == ["initial"] and full.passed, judged


def test_a_restart_keeps_the_energy_history(tmp_path):
    """Stopped half way and restarted from the checkpoint, in its folder or into another: the samples before
    the restart come back from the run's samples.jsonl (into another folder they were lost) and equal the
    uninterrupted run's bit for bit, without the sample the stop itself took; E(0)
    comes back from the checkpoint (the diagnostics of step 0). Before, it was lost with the first process: the
    history started at the first sample, E(t_end)/E(0) was taken from the restart step, and the initial
    dissipation was measured at the restart (27 % off at n = 32, Re 100, a FAIL of a run that was right)."""
    from helpers import make_sim

    params = dict(n=16, re=RE_BENCHMARK, t_end=1.0)
    straight, sim = run_case("taylor_green3d", **params)
    end = sim.view.step
    first = make_sim("taylor_green3d", checkpoint_every=end // 2, **params)
    first.out_dir = tmp_path
    first.run(end // 2)
    h0 = straight["observables"]["dissipation_history"]
    e0 = dict(zip(h0["t"], h0["energy"]))
    # in the same folder, and into another one (whose samples.jsonl does not hold the run's first half)
    for out, spec in ((tmp_path, "latest"), (tmp_path / "other", tmp_path / "checkpoints" / f"ckpt_{end // 2:09d}.h5")):
        second = make_sim("taylor_green3d", **params)
        second.out_dir = out
        second._restore(str(spec))
        again = second.run(end)
        h1 = again["observables"]["dissipation_history"]
        e1 = dict(zip(h1["t"], h1["energy"]))
        # the first part's end took a sample of its own, off the grid: not in the series the restart continues
        assert first.view.samples[-1]["time"] not in e0
        assert set(e1) == set(e0), out
        assert all(e1[t] == e for t, e in e0.items())
        assert h1["t"][0] == 0.0 and again["observables"]["dissipation_vs_spectral"]["t_start"] == 0.0
        for key in ("initial_dissipation", "energy_ratio_final"):
            assert again["observables"][key] == straight["observables"][key], key
        assert [c["quantity"] for c in again["observables"]["checks"]] == [
            c["quantity"] for c in straight["observables"]["checks"]]
