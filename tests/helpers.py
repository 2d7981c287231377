"""Shared helpers for the tests: run a configured case in-process and return its summary."""

from __future__ import annotations

import csv
from pathlib import Path

import jax

REFERENCE = Path(__file__).resolve().parents[1] / "distlbm" / "cases" / "data"


def make_sim(case: str, domain=None, **params):
    """A Simulation of `case` with `params` (as --set would), on one device unless a domain is given."""
    from distlbm.config import resolve
    from distlbm.parallel.domain import LocalDomain
    from distlbm.simulation import Simulation

    if "float64" in (params.get("dtype"), params.get("compute_dtype")):
        jax.config.update("jax_enable_x64", True)
    cfg = resolve(case, params)
    return Simulation(cfg, domain=domain or LocalDomain(cfg.setup.shape), log=lambda msg: None)


def run_case(case: str, steps=None, domain=None, **params) -> tuple:
    """Run `case` with `params` and return (summary, simulation)."""
    sim = make_sim(case, domain=domain, **params)
    return sim.run(steps), sim


def read_reference(name: str) -> list[dict]:
    """Rows of a reference CSV (copies of shared/reference/ in distlbm/cases/data)."""
    with open(REFERENCE / name, newline="") as fh:
        return list(csv.DictReader(line for line in fh if not line.startswith("#")))
