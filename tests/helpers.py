"""Shared helpers for the tests: run a configured case in-process and return its summary."""

from __future__ import annotations

import jax


def make_sim(case: str, domain=None, **params):
    """A Simulation of `case` with `params` (as --set would), on one device unless a domain is given."""
    from distlbm.config import resolve
    from distlbm.parallel.domain import LocalDomain
    from distlbm.driver import Simulation

    if "float64" in (params.get("dtype"), params.get("compute_dtype")):
        jax.config.update("jax_enable_x64", True)
    cfg = resolve(case, params)
    return Simulation(cfg, domain=domain or LocalDomain(cfg.setup.shape), log=lambda msg: None)


def run_case(case: str, steps=None, domain=None, **params) -> tuple:
    """Run `case` with `params` and return (summary, simulation)."""
    sim = make_sim(case, domain=domain, **params)
    return sim.run(steps), sim
