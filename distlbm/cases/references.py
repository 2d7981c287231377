"""The reference tables of the built-in cases: their files (copies of the project's shared/reference/ in
distlbm/cases/data/), how results cite them, and the one reader that every case and the validation
suite use."""

from __future__ import annotations

import csv
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"

GHIA_U = "ghia1982_cavity2d_u_vertical_centerline.csv"  # u / U_lid on the vertical centre line (Re 100, 400)
GHIA_V = "ghia1982_cavity2d_v_horizontal_centerline.csv"  # v / U_lid on the horizontal centre line
ANALYTIC = "analytic_reference_solutions.csv"  # closed-form solutions (Taylor-Green, Poiseuille, duct, ...)
POISEUILLE_SELFCHECK = "lbm_selfcheck_poiseuille_bounceback.csv"  # the bounce-back slip law, computed here
COUETTE_SELFCHECK = "lbm_selfcheck_couette_shearwave.csv"
SCHAEFER_TUREK = "schaefer_turek_2d1.csv"  # 2D-1 bounds of Schaefer & Turek 1996, high-accuracy values
SPHERE_DRAG = "sphere_drag_reference.csv"  # sphere drag correlations and digitised data vs Re
# Taylor-Green vortex at Re 1600: the 512^3 pseudo-spectral DNS of the high-order CFD workshops (case C3.5),
# the workshop's own file (not in shared/reference; provenance in data/README.md)
TGV_SPECTRAL = "spectral_Re1600_512.gdiag"
TGV_SPECTRAL_CITATION = ("van Rees, Leonard, Pullin & Koumoutsakos 2011, J. Comput. Phys. 230:2794 (512^3 "
                         "pseudo-spectral DNS; HiOCFD workshop case C3.5)")
# Schaefer-Turek 3D-1Z: shared/reference/schaefer_turek_2d1.csv names the high-accuracy 3D-1Z source but holds
# no 3D rows; the FEATFLOW values (finest level, as published by Bayraktar, Mierka & Turek 2012 and on
# featflow.de) of cD and cL, as quoted in public benchmark code. The pressure difference has no verified
# high-accuracy value here: it is judged against the 1996 bounds only.
ST_3D1Z_HIGH_ACCURACY = {"cD": 6.18533, "cL": 0.009401}
ST_3D1Z_HIGH_ACCURACY_SOURCE = ("FEATFLOW 3D-1Z finest level (Bayraktar, Mierka & Turek 2012, Int. J. Comput. Sci. "
                                "Eng. 7:253; featflow.de)")


def cite(name: str) -> str:
    """How a result names the table `name`: its file in this repository, distlbm/cases/data/ (a copy of the project's
    shared/reference/, which a user's checkout does not hold: `distlbm cases` and the checks named a path that was not
    there), with its paper for a file copied from elsewhere."""
    if name == TGV_SPECTRAL:
        return f"distlbm/cases/data/{name} ({TGV_SPECTRAL_CITATION})"
    return f"distlbm/cases/data/{name}"


def read_table(name: str) -> list[dict]:
    """Rows of the reference CSV `name` as dicts of strings (comment lines starting with # skipped)."""
    with open(DATA / name, newline="") as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))


def schaefer_turek_bounds() -> dict:
    """(case id, quantity) -> row of the Schaefer-Turek table, e.g. ("2D-1", "cD") -> {"lower_bound_1996":
    ..., "upper_bound_1996": ..., "high_accuracy_reference": ...} (strings; '' where the table has none)."""
    return {(r["case"], r["quantity"]): r for r in read_table(SCHAEFER_TUREK)}


def sphere_drag_row(re_number: float) -> dict | None:
    """The sphere table's row at Reynolds number re_number (floats; None where blank), or None."""
    for r in read_table(SPHERE_DRAG):
        if abs(float(r["Re"]) - re_number) < 1e-9:
            return {k: (float(v) if v else None) for k, v in r.items()}
    return None


def tgv_spectral() -> dict:
    """The Taylor-Green Re 1600 spectral reference as float64 arrays [2000] (t = 0 ... 19.99 every 0.01):
    t in L/V0, energy E_k in V0^2, dissipation -dE_k/dt in V0^3/L, enstrophy in (V0/L)^2."""
    import numpy as np

    rows = np.loadtxt(DATA / TGV_SPECTRAL, comments="#", dtype=np.float64)
    return dict(zip(("t", "energy", "dissipation", "enstrophy"), rows.T))
