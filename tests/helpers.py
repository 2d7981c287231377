"""Shared helpers for the tests: run a configured case in-process and return its summary."""

from __future__ import annotations

import csv
from pathlib import Path

import jax

REFERENCE = Path(__file__).resolve().parents[1] / "distlbm" / "cases" / "data"


def run_case(case: str, steps=None, **params) -> tuple:
    """Run `case` with `params` (as --set would) and return (summary, simulation)."""
    from distlbm.config import resolve
    from distlbm.simulation import Simulation

    if "float64" in (params.get("dtype"), params.get("compute_dtype")):
        jax.config.update("jax_enable_x64", True)
    cfg = resolve(case, params)
    sim = Simulation(cfg, log=lambda msg: None)
    return sim.run(steps), sim


def read_reference(name: str) -> list[dict]:
    """Rows of a reference CSV (copies of shared/reference/ in distlbm/cases/data)."""
    with open(REFERENCE / name, newline="") as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))
