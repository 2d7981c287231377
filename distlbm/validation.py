"""The validation suite: run built-in cases against their references and write docs/validation.md.

Each entry runs a case in this process (one device), collects the `checks` that the case's `observe()`
returns (`summary["observables"]["checks"]`, records built with `distlbm.cases.base.check`), and
reports every check as one row of the table (case, resolution, quantity, value, reference, error,
pass), with PNG plots and the wall time of every entry and of the whole suite.

Command line: `scripts/validate.py` (`--reduced`, `--case NAME`, `--out FILE`, `--plots DIR`, `--merge JSON`,
`--list`), or
`python -m distlbm.validation` with the same options.

Adding an entry
---------------
`ENTRIES` is the registry; an entry is one line. Two kinds:

    Entry(name, case, overrides, reduced={}, plots=(), note="", judge_reduced=True, long=False)
    ConvergenceEntry(name, case, param, values, reduced_values, quantity, overrides={}, reduced={},
                     vary=None, order=2.0, order_tol=0.3, plots=(), note="", judge_runs=True, long=False)

- `overrides`: the case's and the common parameters, exactly as `--set key=value` takes them (the full
  suite); `reduced`: applied on top of `overrides` with `--reduced` (small resolutions for CI, a couple
  of minutes in all); `reduced=None` leaves the entry out of the reduced suite (expensive 3D cases).
  `judge_reduced=False` makes the reduced run a smoke run: its checks are reported, not judged.
  `long=True`: hours on a CPU, run only when named (`--case NAME`), not by the full suite.
- `ConvergenceEntry` runs the case once per value of `param` (`values`; `reduced_values` with
  `--reduced`; none: the entry is left out of the reduced suite), takes `quantity` from each run (the first check whose `quantity` contains this text,
  or a callable `summary -> float`), fits the slope of log(quantity) against log(param) and adds a
  check "observed order" (pass: |slope - order| <= order_tol) and a convergence plot. `vary(value)`
  returns the overrides of one run when more than `param` changes with the resolution (default
  `{param: value}`), e.g. `vary=lambda n: {"n": n, "u0": 0.64 / n}` for diffusive scaling.
  `judge_runs=False`: the runs' own checks are reported, not judged (coarse levels of a study).
- `plots`: callables `plot(result: EntryResult, out_dir: Path) -> list[Path]` that write PNGs; a result
  holds its runs (`result.runs[i].summary`, `.params`) with each run's full summary.

For example, among the obstacle entries below (notes left out):

    Entry("schaefer_turek_2d2", "schaefer_turek_2d2", {"n": 40}, reduced=None),
    ConvergenceEntry("schaefer_turek_2d1_convergence", "schaefer_turek_2d1", "n", (20, 40, 80), (10, 20),
                     quantity=_st_cd_error, vary=lambda n: {"n": n, "u_lattice": min(0.05, 1.0 / n)},
                     reduced={"t_end": 6.0, "ramp": 4.0}, order=2.0, order_tol=1.0, judge_runs=False),
    Entry("sphere_re20", "sphere", {"re": 20.0, "n": 12}, reduced=None),

A case with no reference for some quantity returns a check with `reference=None` and no bounds: it is
shown with pass '-' (reported, not judged).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Union

import numpy as np

from distlbm.cases.base import check

# ---- the registry ----------------------------------------------------------------------------------


@dataclass
class Entry:
    """One run of `case` with `overrides` (the reduced suite adds `reduced`; None: not in it)."""

    name: str
    case: str
    overrides: dict = field(default_factory=dict)
    reduced: Optional[dict] = field(default_factory=dict)
    plots: tuple = ()
    note: str = ""
    # False: the reduced run is a smoke run (too coarse for the reference): its checks are reported, not judged
    judge_reduced: bool = True
    # True: hours on a CPU; run when named (--case), not by the full suite (its report, docs/validation.md, and
    # its time would not be the full suite's)
    long: bool = False

    def runs(self, reduced: bool) -> list[dict]:
        return [{**self.overrides, **(self.reduced or {})} if reduced else dict(self.overrides)]

    def finish(self, result: "EntryResult", reduced: bool) -> None:
        """Entry-level checks and plots after the runs (none for a single run)."""


@dataclass(init=False)
class ConvergenceEntry(Entry):
    """The case at several resolutions: `quantity` against `param`, its fitted order and a plot."""

    param: str = "n"
    values: tuple = ()
    reduced_values: tuple = ()
    quantity: Union[str, Callable] = ""
    vary: Optional[Callable] = None
    order: float = 2.0
    order_tol: float = 0.3

    def __init__(self, name, case, param, values, reduced_values, quantity, overrides=None, reduced=None,
                 vary=None, order=2.0, order_tol=0.3, plots=(), note="", judge_runs=True, long=False):
        # no reduced_values: the entry is not in the reduced suite (like Entry's reduced=None)
        super().__init__(name, case, dict(overrides or {}), dict(reduced or {}) if reduced_values else None,
                         tuple(plots), note)
        # judge_runs=False: the runs' own checks are reported, not judged (coarse levels of a study
        # whose target resolution has its own entry)
        self.judge_runs = judge_runs
        self.long = long
        self.param, self.values, self.reduced_values = param, tuple(values), tuple(reduced_values)
        self.quantity, self.vary, self.order, self.order_tol = quantity, vary, order, order_tol

    def runs(self, reduced: bool) -> list[dict]:
        base = {**self.overrides, **(self.reduced if reduced else {})}
        vals = self.reduced_values if reduced else self.values
        return [{**base, **(self.vary(v) if self.vary else {self.param: v})} for v in vals]

    def measure(self, summary: dict) -> tuple[float, str]:
        if callable(self.quantity):
            # its label: the function's `label` (a report row read '_st_cd_error', the function's name)
            return float(self.quantity(summary)), getattr(self.quantity, "label", getattr(self.quantity, "__name__",
                                                                                            "quantity"))
        for c in summary["observables"].get("checks", []):
            if self.quantity in c["quantity"]:
                return float(c["value"]), c["quantity"]
        raise KeyError(f"{self.name}: no check whose quantity contains {self.quantity!r}")

    def finish(self, result: "EntryResult", reduced: bool) -> None:
        ok = [r for r in result.runs if r.summary is not None]
        if len(ok) < 2:
            return
        xs = np.array([float(r.params[self.param]) for r in ok])
        ys, label = [], ""
        for r in ok:
            y, label = self.measure(r.summary)
            ys.append(y)
        ys = np.array(ys)
        good = ys > 0
        slope = float(-np.polyfit(np.log(xs[good]), np.log(ys[good]), 1)[0]) if good.sum() >= 2 else math.nan
        result.convergence = {"param": self.param, "values": xs.tolist(), "quantity": label, "errors": ys.tolist(),
                              "order": slope}
        result.checks.append(dict(check(
            f"observed order of '{label}' over {self.param} = {', '.join(f'{x:g}' for x in xs)}", slope, self.order,
            tolerance=self.order_tol, relative=False, source="least-squares slope of log(error) vs log(resolution)"),
            resolution=f"{self.param} = {xs[0]:g}..{xs[-1]:g}"))
        result.plot_fns = (plot_convergence,) + tuple(result.plot_fns)


# ---- plots ----------------------------------------------------------------------------------------


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_convergence(result: "EntryResult", out_dir: Path) -> list[Path]:
    conv = result.convergence
    if not conv:
        return []
    plt = _plt()
    x, y = np.array(conv["values"]), np.array(conv["errors"])
    fig, ax = plt.subplots(figsize=(5, 4))
    ax.loglog(x, y, "o-", label=f"measured (slope {conv['order']:.2f})")
    ref = y[0] * (x / x[0]) ** -2.0
    ax.loglog(x, ref, "k--", lw=0.8, label="slope 2")
    from matplotlib.ticker import NullFormatter

    ax.set_xticks(x)
    ax.set_xticklabels([f"{v:g}" for v in x])
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel(conv["param"])
    ax.set_ylabel(conv["quantity"], fontsize=8)
    ax.set_title(f"{result.name}: convergence", fontsize=10)
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=8)
    path = out_dir / f"{result.name}_convergence.png"
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return [path]


def plot_cavity_centrelines(result: "EntryResult", out_dir: Path) -> list[Path]:
    """u(y) on the vertical and v(x) on the horizontal centre line, with the Ghia points where tabulated."""
    from distlbm.cases.references import GHIA_U, GHIA_V, read_table

    run = result.runs[-1]
    if run.summary is None:
        return []
    obs = run.summary["observables"]
    line = obs["centreline"]
    re = float(run.summary["parameters"]["case"]["re"])
    key = {100.0: "Re100", 400.0: "Re400"}.get(re)
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(9, 4))
    pos = np.array(line["pos"])
    n = run.summary["parameters"]["case"]["n"]
    for ax, comp, table, coord, wall in ((axes[0], "u_of_y", GHIA_U, "y", 1.0), (axes[1], "v_of_x", GHIA_V, "x", 0.0)):
        vals = np.concatenate([[0.0], line[comp], [wall]])
        ax.plot(np.concatenate([[0.0], pos, [1.0]]), vals, "-", label=f"distlbm n = {n}")
        if key:
            rows = read_table(table)
            c = np.array([float(r[coord]) for r in rows])
            v = np.array([float(r[f"{comp[0]}_{key}"]) for r in rows])
            flag = np.array([bool(r.get("flag")) and r["flag"].split("_")[0] == key for r in rows])
            ax.plot(c[~flag], v[~flag], "ko", ms=4, mfc="none", label="Ghia et al. 1982")
            if flag.any():
                ax.plot(c[flag], v[flag], "rx", ms=6, label="Ghia (flagged, excluded)")
        ax.set_xlabel(f"{coord} / L")
        ax.set_ylabel(f"{comp[0]} / U_lid")
        ax.grid(True, lw=0.3)
        ax.legend(fontsize=8)
    axes[0].set_title(f"u on x = L/2, Re = {re:g}", fontsize=10)
    axes[1].set_title(f"v on y = L/2, Re = {re:g}", fontsize=10)
    fig.tight_layout()
    path = out_dir / f"{result.name}_centrelines.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return [path]


def plot_duct_profile(result: "EntryResult", out_dir: Path) -> list[Path]:
    """u_x(y) on the duct's mid-plane z = 0 against the series solution, for every run."""
    runs = [r for r in result.runs if r.summary is not None]
    if not runs:
        return []
    from distlbm.cases.duct import duct_series

    plt = _plt()
    fig, ax = plt.subplots(figsize=(5, 4))
    for r in runs:  # the case sets the force so that the series gives u(0, 0) = umax
        prof = r.summary["observables"]["profile_y"]
        umax = r.summary["parameters"]["case"]["umax"]
        ax.plot(prof["y"], np.array(prof["measured"]) / umax, "o", ms=3,
                label=f"distlbm n = {r.summary['observables']['section'][0]}")
    ny, nz = runs[-1].summary["observables"]["section"]
    y = np.linspace(0, 1, 201)
    u = duct_series((y - 0.5) * ny, 0.0, ny / 2, nz / 2)
    ax.plot(y, u / float(duct_series(0.0, 0.0, ny / 2, nz / 2)), "k-", lw=1, label="series solution")
    ax.set_xlabel("y / (2a)  (mid-plane z = 0)")
    ax.set_ylabel("u_x / u(0, 0) of the series")
    ax.set_title(f"{result.name}: duct {ny}x{nz} mid-plane profile", fontsize=10)
    ax.grid(True, lw=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out_dir / f"{result.name}_profile.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return [path]


def plot_tgv_dissipation(result: "EntryResult", out_dir: Path) -> list[Path]:
    """-dE/dt(t) of every run of a Taylor-Green Re 1600 entry against the spectral DNS."""
    runs = [r for r in result.runs if r.summary is not None
            and "dissipation_history" in r.summary["observables"]]
    if not runs:
        return []
    from distlbm.cases.references import tgv_spectral
    from distlbm.cases.taylor_green import T_COMPARE

    ref = tgv_spectral()
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4))
    keep = ref["t"] <= T_COMPARE
    ax.plot(ref["t"][keep], ref["dissipation"][keep], "k-", lw=2, label="spectral DNS 512³ (van Rees et al. 2011)")
    for r in runs:
        hist = r.summary["observables"]["dissipation_history"]
        s = r.summary
        ax.plot(hist["t"], hist["rate"], "-", lw=1.3,
                label=f"distlbm {resolution_of(s)} {s['collision']}"
                      + (f" + Smagorinsky {s['parameters']['config']['smagorinsky']:g}"
                         if s["parameters"]["config"].get("smagorinsky") else ""))
    ax.set_xlim(0, T_COMPARE)
    ax.set_xlabel("t  (L / V0)")
    ax.set_ylabel("-dE/dt  (V0³ / L)")
    ax.set_title(f"{result.name}: kinetic energy dissipation rate", fontsize=10)
    ax.grid(True, lw=0.3)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    path = out_dir / f"{result.name}_dissipation.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return [path]


# ---- the suite ------------------------------------------------------------------------------------

def _st_cd_error(summary: dict) -> float:
    """The relative cD error of a Schaefer-Turek run's cD check (2D-1: against 5.57953523384; 3D-1Z: 6.18533)."""
    return next(c["error"] for c in summary["observables"]["checks"] if c["quantity"].startswith("cD"))


_st_cd_error.label = "relative cD error vs the reference value"


ENTRIES: list[Entry] = [
    Entry("cavity2d_re100", "cavity2d", {"re": 100.0, "n": 128, "t_end": 30.0}, reduced={"n": 64, "t_end": 20.0},
          plots=(plot_cavity_centrelines,), note="Ghia et al. 1982, Re 100"),
    Entry("cavity2d_re400", "cavity2d", {"re": 400.0, "n": 128, "t_end": 40.0}, reduced={"n": 64, "t_end": 30.0},
          plots=(plot_cavity_centrelines,), note="Ghia et al. 1982, Re 400"),
    Entry("cavity2d_re1000", "cavity2d", {"re": 1000.0, "n": 256, "u_lid": 0.05, "collision": "trt", "t_end": 60.0},
          reduced=None, plots=(plot_cavity_centrelines,),
          note="no Ghia table for Re 1000 in distlbm/cases/data: reported, not judged"),
    ConvergenceEntry("duct", "duct", "n", (16, 32, 64), (8, 12, 16), quantity="relative L2 error",
                     overrides={"dtype": "float64"}, plots=(plot_duct_profile,),
                     note="square duct, BGK tau = 0.8, series solution"),
    Entry("duct_rect_trt", "duct", {"n": 32, "aspect": 2.0, "collision": "trt", "dtype": "float64"},
          reduced={"n": 12}, plots=(plot_duct_profile,), note="rectangular duct b = 2a, TRT"),
    ConvergenceEntry("taylor_green2d_convergence", "taylor_green2d", "n", (16, 32, 64), (16, 32),
                     quantity="relative L2 error", overrides={"re": 10.0, "dtype": "float64"},
                     vary=lambda n: {"n": n, "u0": 0.64 / n}, note="diffusive scaling: Re and tau fixed, u0 ~ 1/n"),
    Entry("taylor_green2d_viscosity", "taylor_green2d", {"n": 64, "dtype": "float64"}, reduced={"n": 32}),
    ConvergenceEntry("kolmogorov_convergence", "kolmogorov", "n", (16, 32, 64), (16, 32),
                     quantity="relative L2 error", overrides={"dtype": "float64"},
                     vary=lambda n: {"n": n, "u_amp": 0.32 / n},
                     note="laminar Kolmogorov flow (a per-cell force field), re = 1, diffusive scaling: tau = 0.653 "
                          "fixed, u_amp ~ 1/n; BGK, the steady profile vs F0 / (nu k^2) sin(k y)"),
    Entry("kolmogorov_3d_trt", "kolmogorov", {"n": 32, "lattice": "D3Q19", "collision": "trt"}, reduced={"n": 16}),
    Entry("taylor_green3d", "taylor_green3d", {"n": 64}, reduced={"t_end": 0.2}),
    Entry("taylor_green3d_re1600", "taylor_green3d", {"re": 1600.0, "n": 128, "t_end": 12.0},
          reduced={"n": 32, "t_end": 1.0}, plots=(plot_tgv_dissipation,), judge_reduced=False,
          note="Re 1600 against the 512^3 spectral DNS (van Rees et al. 2011), -dE/dt over 0 <= t <= 12 L/V0 "
               "with the case's default collision there (BGK at 128^3; see the study below); 6 to 14 min here (2 CPU cores). "
               "Reduced: 32^3 to t = 1, a smoke run whose checks are reported, not judged (32 cells do not "
               "resolve Re 1600)"),
    Entry("poiseuille_bgk", "poiseuille", {"n": 32, "tau": 0.8, "dtype": "float64"}, reduced={"n": 16}),
    Entry("poiseuille_trt", "poiseuille", {"n": 32, "tau": 0.8, "collision": "trt", "lattice": "D3Q19",
                                           "dtype": "float64"}, reduced={"n": 12}),
    Entry("couette", "couette", {"n": 32, "tau": 0.8, "dtype": "float64"}, reduced={"n": 16}),
    # flow past obstacles (shared/reference/schaefer_turek_2d1.csv, sphere_drag_reference.csv)
    Entry("schaefer_turek_2d1", "schaefer_turek_2d1", {"n": 40}, reduced=None,
          note="Re 20, D = n cells, u_lattice = 0.025 (tau = 0.65), BGK with the incompressible equilibrium "
               "(the preset's default); bounds of the 1996 paper"),
    ConvergenceEntry("schaefer_turek_2d1_convergence", "schaefer_turek_2d1", "n", (20, 40, 80), (10, 20),
                     quantity=_st_cd_error, vary=lambda n: {"n": n, "u_lattice": min(0.05, 1.0 / n)},
                     reduced={"t_end": 6.0, "ramp": 4.0}, order=2.0, order_tol=1.0, judge_runs=False,
                     note="relative cD error vs the FEATFLOW value 5.5795; tau = 0.65 fixed (diffusive scaling: "
                          "u_lattice = 1/n, at most 0.05 for the Mach number, so the reduced level n = 10 runs at "
                          "tau = 0.575 and the reduced order mixes two relaxation times), incompressible equilibrium"),
    Entry("schaefer_turek_2d2", "schaefer_turek_2d2", {"n": 40}, reduced=None,
          note="Re 100 vortex shedding: cD_max, cL_max, Strouhal against the paper's bounds"),
    Entry("schaefer_turek_3d1z", "schaefer_turek_3d1z", {}, reduced=None,
          note="Re 20 in a square duct: the preset's default (D = 13, the far walls interpolated; TRT with "
               "Lambda = 3/16, tau = 0.575 held fixed, the incompressible equilibrium, an absorbing layer before "
               "the outlet); ~10 min here"),
    ConvergenceEntry("schaefer_turek_3d1z_convergence", "schaefer_turek_3d1z", "n", (10, 20, 30), (),
                     quantity=_st_cd_error, order=2.0, order_tol=1.0, judge_runs=False, long=True,
                     note="relative cD error vs FEATFLOW's 6.18533; tau = 0.575 fixed (diffusive scaling: "
                          "u_lattice = 0.5/n, the steps grow as n^2); the levels where H = 4.1 D is whole cells "
                          "(halfway walls): D = 30 is 751x125x125 cells for 28800 steps, hours on a CPU (not in "
                          "--reduced); docs/validation.md has the study at D = 10..20 (scripts/st3d_study.py)"),
    Entry("sphere_re20", "sphere", {"re": 20.0, "n": 12}, reduced=None, note="periodic sides 6 D apart"),
    Entry("sphere_re50", "sphere", {"re": 50.0, "n": 12}, reduced=None, note="periodic sides 6 D apart"),
    Entry("sphere_re100", "sphere", {"re": 100.0, "n": 12, "u_lattice": 0.08, "collision": "trt"}, reduced=None,
          note="periodic sides 6 D apart, TRT (tau close to 1/2)"),
]


@dataclass
class Run:
    params: dict
    summary: Optional[dict] = None
    wall_s: float = 0.0
    error: str = ""


@dataclass
class EntryResult:
    name: str
    case: str
    note: str = ""
    runs: list = field(default_factory=list)
    checks: list = field(default_factory=list)
    plots: list = field(default_factory=list)
    plot_fns: tuple = ()
    convergence: Optional[dict] = None
    wall_s: float = 0.0

    @property
    def passed(self) -> bool:
        return all(c["pass"] is not False for c in self.checks)


def resolution_of(summary: dict) -> str:
    return "×".join(str(s) for s in summary["shape"])


def run_one(case: str, params: dict, log: Callable = lambda m: None) -> dict:
    """Run `case` with `params` (as --set would) on one device in this process; return its summary."""
    import jax

    from distlbm.config import resolve
    from distlbm.parallel.domain import LocalDomain
    from distlbm.driver import Simulation

    # float64 entries turn on 64-bit JAX for their run only: left on, the float32 entries after them ran with it
    # and gave other digits than `distlbm run` (7e-6 relative for taylor_green3d's check after couette)
    before = bool(jax.config.jax_enable_x64)
    try:
        if "float64" in (params.get("dtype"), params.get("compute_dtype")):
            jax.config.update("jax_enable_x64", True)
        cfg = resolve(case, dict(params))
        sim = Simulation(cfg, domain=LocalDomain(cfg.setup.shape), log=log)
        return sim.run()
    finally:
        jax.config.update("jax_enable_x64", before)


def run_entry(entry: Entry, reduced: bool, plot_dir: Optional[Path], log: Callable = print) -> EntryResult:
    res = EntryResult(entry.name, entry.case, entry.note, plot_fns=tuple(entry.plots))
    t0 = time.perf_counter()
    for params in entry.runs(reduced):
        run = Run(params)
        t = time.perf_counter()
        try:
            run.summary = run_one(entry.case, params)
        except Exception as e:  # noqa: BLE001 - a failed run is a failed check, the suite goes on
            run.error = f"{type(e).__name__}: {e}"
        run.wall_s = time.perf_counter() - t
        res.runs.append(run)
        sets = " ".join(f"{k}={v}" for k, v in params.items())
        if run.summary is None:
            res.checks.append(dict(check("the run completes", None, source=run.error), resolution=sets,
                                   **{"pass": False}))
            log(f"  {entry.name}: {sets}: FAILED ({run.error})")
            continue
        checks = run.summary["observables"].get("checks", [])
        if not getattr(entry, "judge_runs", True):
            checks = [dict(c, **{"pass": None}, note="level of a convergence study: reported") for c in checks]
        elif reduced and not entry.judge_reduced:
            checks = [dict(c, **{"pass": None}, note="smoke run of the reduced suite: reported") for c in checks]
        for c in checks:
            res.checks.append(dict(c, resolution=resolution_of(run.summary)))
        if not checks:
            res.checks.append(dict(check("(the case returns no checks)", None), resolution=resolution_of(run.summary)))
        bad = sum(c["pass"] is False for c in checks)
        log(f"  {entry.name}: {sets}: {len(checks)} checks, {bad} failed ({run.wall_s:.1f} s)")
    entry.finish(res, reduced)
    if plot_dir is not None:
        plot_dir.mkdir(parents=True, exist_ok=True)
        for fn in res.plot_fns:
            try:
                res.plots.extend(fn(res, plot_dir))
            except Exception as e:  # noqa: BLE001 - a plot that fails is reported, not fatal
                log(f"  {entry.name}: plot {getattr(fn, '__name__', fn)} failed: {type(e).__name__}: {e}")
    res.wall_s = time.perf_counter() - t0
    return res


def select(names, entries=None) -> list[Entry]:
    """The entries named in `names` (all but the long ones if empty): an entry's name selects that entry, otherwise
    a case name selects every entry of that case but the long ones; an unknown name is an error."""
    entries = ENTRIES if entries is None else entries
    if not names:  # the full suite: the long entries (hours on a CPU) only when named
        return [e for e in entries if not e.long]
    out = []
    for nm in names:
        hit = [e for e in entries if e.name == nm] or [e for e in entries if e.case == nm and not e.long]
        if not hit:
            known = ", ".join(e.name for e in entries)
            raise SystemExit(f"validate: unknown entry or case {nm!r}; expected one of: {known}")
        out.extend(e for e in hit if e not in out)
    return out


# ---- the report -----------------------------------------------------------------------------------


def _num(v) -> str:
    if v is None:
        return "—"
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if v == 0:
        return "0"
    a = abs(v)
    return f"{v:.4g}" if 1e-3 <= a < 1e5 else f"{v:.3e}"


def _ref(c: dict) -> str:
    parts = []
    if c.get("reference") is not None:
        parts.append(_num(c["reference"]))
    if c.get("lower") is not None or c.get("upper") is not None:
        lo = _num(c["lower"]) if c.get("lower") is not None else "−∞"
        hi = _num(c["upper"]) if c.get("upper") is not None else "∞"
        parts.append(f"[{lo}, {hi}]")
    return " ".join(parts) if parts else "—"


def _err(c: dict) -> str:
    if c.get("error") is None:
        return "—"
    e = _num(c["error"]) + (" rel" if c.get("error_kind") == "relative" else " abs")
    if c.get("tolerance") is not None:
        e += f" (tol {_num(c['tolerance'])})"
    return e


def _pass(c: dict) -> str:
    return {True: "PASS", False: "**FAIL**", None: "—"}[c["pass"]]


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


TABLE_HEAD = "| case | resolution | quantity | value | reference | error | pass |"
WALL_HEAD = "| entry | case | runs | wall time (s) |"


def _counts(n_judged: int, n_fail: int, n_rows: int, total_s: float) -> str:
    """The report's counts line (a merge recounts it and keeps what was written by hand after it)."""
    return (f"**{n_judged - n_fail} of {n_judged} judged checks pass** ({n_rows} rows); "
            f"total wall time **{total_s:.0f} s** ({total_s / 60:.1f} min).")


def _row(name: str, c: dict) -> str:
    return (f"| {_cell(name)} | {_cell(c.get('resolution', ''))} | {_cell(c['quantity'])} | "
            f"{_num(c['value'])} | {_ref(c)} | {_err(c)} | {_pass(c)} |")


def _wall_row(r: EntryResult) -> str:
    return f"| {r.name} | {r.case} | {len(r.runs)} | {r.wall_s:.1f} |"


def _sources_once(sources) -> list[str]:
    """The checks' sources, each once, sorted: a source that another check's extends with a suffix (': FORMULA',
    ' (reported)', '; reported (...)') is named once, with those suffixes after it ('SRC [also: FORMULA; reported]');
    the References line named the source again in full for each (taylor_green3d_re1600: the spectral DNS file three
    times)."""
    def bare(x: str) -> str:  # '(reported)' -> 'reported': one pair of brackets round it all dropped
        depth = 0
        for i, ch in enumerate(x):
            depth += (ch == "(") - (ch == ")")
            if depth == 0 and i < len(x) - 1:
                return x
        return x[1:-1] if x.startswith("(") and depth == 0 else x

    groups: dict[str, list[str]] = {}
    for s in sorted(set(sources)):  # (a source sorts before those that extend it)
        base = next((b for b in groups if s.startswith(b) and s[len(b)] in ":; "), None)
        if base is None:
            groups[s] = []
        else:
            groups[base].append(bare(s[len(base):].lstrip(":; ")))
    return [b + (f" [also: {'; '.join(more)}]" if more else "") for b, more in groups.items()]


def _entry_lines(r: EntryResult, path: Path) -> list[str]:
    """The report's section of one entry (`### name`: its case, references, runs, convergence table, plots)."""
    lines = [f"### {r.name}", "", f"Case `{r.case}`" + (f": {r.note}." if r.note else "."), ""]
    srcs = _sources_once({c["source"] for run in r.runs if run.summary
                          for c in run.summary["observables"].get("checks", []) if c.get("source")})
    if srcs:
        lines += ["References: " + "; ".join(_cell(x) for x in srcs) + ".", ""]
    for run in r.runs:
        sets = " ".join(f"--set {k}={v}" for k, v in run.params.items())
        if run.summary is None:
            lines.append(f"- `distlbm run {r.case} {sets}`: **failed**: {_cell(run.error)}")
            continue
        s = run.summary
        lu = s["parameters"]["lattice_units"]
        eq = ", incompressible equilibrium" if s.get("equilibrium") == "incompressible" else ""
        lines.append(f"- `distlbm run {r.case} {sets}`: lattice {resolution_of(s)} {s['lattice']}, "
                     f"{s['collision']}{eq}, {s['dtype']}, tau = {lu['tau']:.4g}, Ma = {lu['mach']:.3g}, "
                     f"{s['steps']} steps, {run.wall_s:.1f} s")
    if r.convergence:
        conv = r.convergence
        lines += ["", f"| {conv['param']} | {_cell(conv['quantity'])} | local order |", "| --- | --- | --- |"]
        prev = None
        for x, y in zip(conv["values"], conv["errors"]):
            local = f"{math.log(prev[1] / y) / math.log(x / prev[0]):.3f}" if prev and y > 0 else "—"
            lines.append(f"| {x:g} | {_num(y)} | {local} |")
            prev = (x, y)
        lines += ["", f"Observed order (least-squares slope): **{conv['order']:.3f}**."]
    for p in r.plots:
        rel = os.path.relpath(p, path.parent)
        lines += ["", f"![{r.name}]({Path(rel).as_posix()})"]
    lines.append("")
    return lines


def write_markdown(results: list[EntryResult], path: Path, reduced: bool, total_s: float, argv=(),
                   selected: bool = False, not_run=()) -> Path:
    """The report: the checks' table, wall times, each entry's runs; not_run: (entry, why) of the suite's
    entries this report does not hold, listed after the table."""
    import jax

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    n_checks = sum(len(r.checks) for r in results)
    n_fail = sum(c["pass"] is False for r in results for c in r.checks)
    n_judged = sum(c["pass"] is not None for r in results for c in r.checks)
    cmd = "scripts/validate.py" + ("".join(f" {a}" for a in argv) if argv else "")
    lines = [
        "# Validation",
        "",
        f"Written by `{cmd}` on {datetime.date.today().isoformat()} "
        + (f"({'reduced' if reduced else 'full'} suite" if not selected else
           f"(entries {', '.join(r.name for r in results)} only, {'reduced' if reduced else 'full'} resolutions")
        + f"; {platform.machine()}, "
        f"{os.cpu_count()} CPU cores, JAX {jax.__version__} on {jax.default_backend()}). "
        f"Every row is one check a case returned (`observables.checks` in its `summary.json`); "
        f"'—' in *pass* means reported without a criterion (no reference available).",
        "",
        _counts(n_judged, n_fail, n_checks, total_s),
        "",
        TABLE_HEAD,
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        lines += [_row(r.name, c) for c in r.checks]
    if not results:
        lines.append("| — | | nothing was run | | | | |")
    if not_run:
        lines += ["", f"Not in this report ({len(not_run)} of the suite's {len(not_run) + len(results)} entries): "
                  + "; ".join(f"{name} ({why})" for name, why in not_run) + "."]
    lines += ["", "## Wall time", "", WALL_HEAD, "| --- | --- | --- | --- |"]
    lines += [_wall_row(r) for r in results]
    lines.append(f"| **total** | | {sum(len(r.runs) for r in results)} | **{total_s:.1f}** |")
    lines += ["", "## Entries", ""]
    for r in results:
        lines += _entry_lines(r, path)
    text = "\n".join(lines) + "\n"
    try:  # hand-written measurements below the marker survive a new report
        old = path.read_text()
    except OSError:
        old = ""
    if KEEP_MARKER in old:
        text += "\n" + old[old.index(KEEP_MARKER):]
    path.write_text(text)
    return path


KEEP_MARKER = "<!-- written by hand: scripts/validate.py keeps everything from this line on -->"


def _entry_json(r: EntryResult) -> dict:
    return {"name": r.name, "case": r.case, "wall_s": r.wall_s, "passed": r.passed, "checks": r.checks,
            "convergence": r.convergence, "plots": [str(p) for p in r.plots],
            "runs": [{"params": run.params, "wall_s": run.wall_s, "error": run.error} for run in r.runs]}


def _jsonable(results: list[EntryResult], total_s: float, reduced: bool, not_run=()) -> dict:
    return {"reduced": reduced, "total_wall_s": total_s,
            "not_run": [{"name": name, "why": why} for name, why in not_run],
            "entries": [_entry_json(r) for r in results]}


def _splice(blocks: list, name: str, new: list) -> list:
    """`blocks`, (entry name, lines) in the report's order, with `name`'s replaced by `new`, or `new` put before
    the first block of an entry that comes after `name` in ENTRIES (at the end if none does)."""
    order = [e.name for e in ENTRIES]
    rank = {nm: i for i, nm in enumerate(order)}
    blocks = [b for b in blocks if b[0] != name]
    at = next((i for i, (nm, _) in enumerate(blocks) if rank.get(nm, len(order)) > rank.get(name, len(order))),
              len(blocks))
    return blocks[:at] + [(name, new)] + blocks[at:]


def _blocks(lines: list, name_of: Callable) -> list:
    """Consecutive lines grouped by the entry `name_of(line)` names."""
    out = []
    for ln in lines:
        nm = name_of(ln)
        if out and out[-1][0] == nm:
            out[-1][1].append(ln)
        else:
            out.append((nm, [ln]))
    return out


def _first_cell(line: str) -> str:
    return line[2:].split(" | ", 1)[0].strip()


def merge_report(results: list[EntryResult], json_path: Path, md_path: Path, reduced: bool, argv=(),
                 write: bool = True) -> Path:
    """Put `results` into the report `json_path` and its markdown `md_path` (both written by this script, the
    markdown perhaps edited by hand since): each entry's checks' rows, wall-time row and section replace that
    entry's, or go where the entry's place in ENTRIES puts them; the counts line is recounted from the table and
    the wall-time total from its rows; a paragraph before the counts says which entries were run, when and how.
    Every other line of the markdown is left as it was. SystemExit (one line) where the report cannot be read so;
    `write` False: that check alone, writing nothing (run_suite's, before it runs the entries)."""
    json_path, md_path = Path(json_path), Path(md_path)
    import jax

    names = [r.name for r in results]
    today = datetime.date.today().isoformat()
    cmd = "scripts/validate.py" + "".join(f" {a}" for a in argv)
    try:
        data = json.loads(json_path.read_text())
    except ValueError as e:
        raise SystemExit(f"validate: --merge: {json_path}: not JSON ({e}); expected the JSON of a report "
                         f"scripts/validate.py wrote") from None
    if not isinstance(data, dict) or not isinstance(data.get("entries", []), list):
        raise SystemExit(f"validate: --merge: {json_path}: no 'entries' list; expected the JSON of a report "
                         f"scripts/validate.py wrote")
    lines = md_path.read_text().split("\n")
    head, wt_head = TABLE_HEAD, WALL_HEAD
    if head not in lines or wt_head not in lines or "## Wall time" not in lines or "## Entries" not in lines:
        raise SystemExit(f"validate: --merge: {md_path} has no report to merge into (its table {head!r}, "
                         f"'## Wall time', {wt_head!r} or '## Entries' is missing); expected a report "
                         f"scripts/validate.py wrote")

    # the JSON: the entries replaced or inserted in the suite's order, marked with the run they come from
    entries = [(e["name"], e) for e in data.get("entries", [])]
    for r in results:
        entries = _splice(entries, r.name, dict(_entry_json(r), rerun=f"{today}, {cmd} (merged into this report; "
                                                f"{'reduced' if reduced else 'full'} resolutions)"))
    data["entries"] = [e for _, e in entries]
    held = {nm for nm, _ in entries}
    whys = {x["name"]: x["why"] for x in data.get("not_run", [])}
    not_run = [(e.name, whys.get(e.name, "long: only with --case NAME" if e.long else "not run"))
               for e in ENTRIES if e.name not in held]
    if "not_run" in data or not_run:
        data["not_run"] = [{"name": nm, "why": why} for nm, why in not_run]

    # the checks' table, and the line naming the suite's entries the report does not hold
    t0 = lines.index(head) + 2
    t1 = next(i for i in range(t0, len(lines)) if not lines[i].startswith("| "))
    blocks = _blocks(lines[t0:t1], _first_cell)
    for r in results:
        blocks = _splice(blocks, r.name, [_row(r.name, c) for c in r.checks])
    table = [ln for _, b in blocks for ln in b]
    w = lines.index("## Wall time")
    between = lines[t1:w]  # (the lines written by hand there as they are: a paragraph, a table)
    old = next((i for i, ln in enumerate(between) if ln.startswith("Not in this report (")), None)
    if old is not None:
        del between[old:old + 2 if between[old + 1:old + 2] == [""] else old + 1]
    if not between or between[0] != "":
        between.insert(0, "")
    if not_run:
        between[1:1] = [f"Not in this report ({len(not_run)} of the suite's {len(ENTRIES)} entries): "
                        + "; ".join(f"{nm} ({why})" for nm, why in not_run) + ".", ""]
    lines = lines[:t0] + table + between + lines[w:]

    # the wall-time table and its total
    w0 = lines.index(wt_head) + 2
    w1 = next(i for i in range(w0, len(lines)) if not lines[i].startswith("| ") or lines[i].startswith("| **total**"))
    rows = lines[w0:w1]
    wblocks = _blocks(rows, _first_cell)
    for r in results:
        wblocks = _splice(wblocks, r.name, [_wall_row(r)])
    rows = [ln for _, b in wblocks for ln in b]
    n_runs, wall = 0, 0.0
    for ln in rows:
        c = [x.strip() for x in ln.strip("|").split("|")]
        try:
            n_runs, wall = n_runs + int(c[2]), wall + float(c[3])
        except (IndexError, ValueError):
            raise SystemExit(f"validate: --merge: {md_path}: the wall-time row {ln!r}: expected '| entry | case | "
                             f"RUNS | SECONDS |' (numbers: the total is recounted from them)") from None
    total = [f"| **total** | | {n_runs} | **{wall:.1f}** |"] if w1 < len(lines) and lines[w1].startswith(
        "| **total**") else []
    lines = lines[:w0] + rows + total + lines[w1 + len(total):]

    # the entries' sections, up to the hand-written part
    e0 = lines.index("## Entries") + 2
    e1 = next((i for i in range(e0, len(lines)) if lines[i] == KEEP_MARKER or lines[i].startswith("## ")),
              len(lines))
    sblocks = []
    s0 = next((i for i in range(e0, e1) if lines[i].startswith("### ")), e1)  # (lines by hand before it: kept first)
    for ln in lines[s0:e1]:
        if ln.startswith("### ") or not sblocks:
            sblocks.append((ln[4:].strip(), [ln]))
        else:
            sblocks[-1][1].append(ln)
    for r in results:
        sblocks = _splice(sblocks, r.name, _entry_lines(r, md_path))
    lines = lines[:s0] + [ln for _, b in sblocks for ln in b] + lines[e1:]

    # the counts, recounted from the table; the paragraph saying what this merge ran
    t0 = lines.index(head) + 2
    t1 = next(i for i in range(t0, len(lines)) if not lines[i].startswith("| "))
    passes = [ln.rsplit("|", 2)[-2].strip() for ln in lines[t0:t1]]
    n_judged = sum(x != "—" for x in passes)
    n_fail = sum(x == "**FAIL**" for x in passes)
    c = next((i for i in range(t0) if "judged checks pass**" in lines[i]), None)
    said = (f"Merged on {today} by `{cmd}` (entries {', '.join(names)}, "
            f"{'reduced' if reduced else 'full'} resolutions; {platform.machine()}, {os.cpu_count()} CPU cores, "
            f"JAX {jax.__version__} on {jax.default_backend()}; {sum(r.wall_s for r in results):.0f} s): their rows, "
            f"wall times and sections replace or join the report's.")
    # the counts (the total: the wall-time table's); what follows them on the line,
    # written by hand, stays
    counts = _counts(n_judged, n_fail, t1 - t0, wall)
    m = re.match(r"\*\*\d+ of \d+ judged checks pass\*\* \(\d+ rows\); total wall time \*\*[\d.]+ s\*\* "
                 r"\([\d.]+ min\)\.", lines[c]) if c is not None else None
    if m is None:
        raise SystemExit(f"validate: --merge: {md_path} has no counts line ('**N of M judged checks pass** (R rows); "
                         f"total wall time **T s** (M min).') before its table; expected a report scripts/validate.py "
                         f"wrote")
    if not write:
        return md_path
    lines[c] = counts + lines[c][m.end():]

    # a paragraph of an earlier merge of the same entries is replaced, not repeated
    def merged(line):  # the entries an earlier merge's paragraph names, in any order
        m = line.startswith("Merged on ") and re.search(r"\(entries (.+?), (?:full|reduced) resolutions; ", line)
        return set(m.group(1).split(", ")) if m else set()
    earlier = [i for i in range(c) if merged(lines[i]) == set(names)]
    if earlier:
        lines[earlier[0]] = said
    else:
        lines[c:c] = [said, ""]
    md_path.write_text("\n".join(lines))
    json_path.write_text(json.dumps(data, indent=1, default=_default) + "\n")
    return md_path


def run_suite(names=(), reduced=False, out: Optional[Path] = None, plot_dir: Optional[Path] = None,
              log: Callable = print, argv=(), merge: Optional[Path] = None) -> list[EntryResult]:
    """Run the selected entries (all if `names` is empty), write the markdown (and a JSON next to it); with
    `merge` (a report's JSON), put them into that report and its markdown (`out`, default: beside it)."""
    entries = select(names)
    if merge is not None:
        if not names:
            raise SystemExit("validate: --merge needs --case NAME (the entries to run and merge); without it the "
                             "full suite writes the whole report")
        merge = Path(merge)
        md = Path(out) if out else merge.with_suffix(".md")
        for f in (merge, md):
            if not f.is_file():
                raise SystemExit(f"validate: --merge {merge}: {f}: no such file; expected the JSON and markdown of "
                                 f"a report scripts/validate.py wrote")
        merge_report([], merge, md, reduced, argv, write=False)  # a report it cannot read: said before any run
        out = md
    # the full suite's report is docs/validation.md; a reduced run's, or a selection's (it would replace the full
    # report by its few rows, as --case did), go to out/validation unless --out says where
    out = Path(out) if out else Path("out/validation/validation.md" if reduced or names else "docs/validation.md")
    plot_dir = Path(plot_dir) if plot_dir else out.parent / "validation"
    results = []
    # the suite's entries this report will not hold, and why (the report lists them: a reduced run's header
    # said "reduced suite" with 8 entries silently absent)
    not_run = [(e.name, "long: only with --case NAME" if e.long and not names else "not selected")
               for e in ENTRIES if e not in entries]
    t0 = time.perf_counter()
    for e in entries:
        log(f"{e.name} ({e.case}){' [reduced]' if reduced else ''} ...")
        if reduced and e.reduced is None:
            log(f"  {e.name}: not in the reduced suite")
            not_run.append((e.name, "not in the reduced suite"))
            continue
        r = run_entry(e, reduced, plot_dir, log)
        log(f"  {e.name}: {'PASS' if r.passed else 'FAIL'} in {r.wall_s:.1f} s")
        results.append(r)
    total = time.perf_counter() - t0
    order = [e.name for e in ENTRIES]
    not_run.sort(key=lambda x: order.index(x[0]))
    if merge is not None:
        if results:
            merge_report(results, merge, out, reduced, argv)
            log(f"merged {', '.join(r.name for r in results)} into {merge} and {out} ({total:.0f} s in all)")
        return results
    write_markdown(results, out, reduced, total, argv, selected=bool(names), not_run=not_run)
    out.with_suffix(".json").write_text(json.dumps(_jsonable(results, total, reduced, not_run), indent=1,
                                                   default=_default) + "\n")
    log(f"wrote {out} ({total:.0f} s in all)")
    return results


def _default(o: Any):
    if isinstance(o, (np.floating, np.integer)):
        return o.item()
    if isinstance(o, Path):
        return str(o)
    return str(o)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="validate.py", description="Run the validation suite and write the report.")
    ap.add_argument("--reduced", action="store_true", help="small resolutions (CI; about 30 s here)")
    ap.add_argument("--case", action="append", default=[], metavar="NAME",
                    help="run only this entry (or every entry of this case); repeatable; default: all")
    ap.add_argument("--out", default=None, help="markdown report (default docs/validation.md; with --reduced or "
                    "--case out/validation/validation.md); PNGs go to a 'validation' folder next to it")
    ap.add_argument("--plots", default=None, help="folder for the PNGs (default: OUT's folder/validation)")
    ap.add_argument("--merge", default=None, metavar="JSON",
                    help="with --case: put the named entries' rows, wall times and sections into this report's JSON "
                    "and its markdown (--out, default: JSON's .md beside it, e.g. docs/validation.json and "
                    ".md), replacing theirs or in the suite's order; the other rows stay as they are and a "
                    "paragraph in the header says what was run when; default: no merge")
    ap.add_argument("--list", action="store_true", help="list the entries and exit")
    args = ap.parse_args(argv)
    if args.list:
        wn, wc = max(len(e.name) for e in ENTRIES), max(len(e.case) for e in ENTRIES)  # columns that line up
        for e in ENTRIES:
            if isinstance(e, ConvergenceEntry):
                what = f"{e.param} = {', '.join(map(str, e.values))}" + (
                    f" (reduced {', '.join(map(str, e.reduced_values))})" if e.reduced is not None
                    else "  [not in --reduced]")
            else:
                what = " ".join(f"{k}={v}" for k, v in e.overrides.items()) or "(the case's defaults)"
                what += "" if e.reduced is not None else "  [not in --reduced]"
            what += "  [long: only with --case NAME]" if e.long else ""
            print(f"{e.name:{wn}s} {e.case:{wc}s} {what}")
        return 0
    from distlbm.parallel.processes import use_cpu_cores

    use_cpu_cores()  # as `distlbm run` does: on CPUs, one device per core (before JAX starts)
    shown = [a for a in (argv if argv is not None else sys.argv[1:])]
    results = run_suite(args.case, args.reduced, args.out, args.plots, argv=shown, merge=args.merge)
    if not results:  # "0 of 0 judged checks pass" and exit 0 read as a pass
        print(f"validate: nothing was run: {', '.join(args.case)} "
              f"{'is' if len(args.case) == 1 else 'are'} not in the reduced suite; expected an entry that "
              f"--list shows without '[not in --reduced]', or no --reduced", file=sys.stderr)
        return 2
    return 0 if all(r.passed for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
