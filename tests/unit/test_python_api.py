"""distlbm driven from Python (README "From Python"): `resolve` and `Simulation` called as a notebook or a script of
its own calls them, several runs in one process one after another, and what one run leaves to the next."""

from __future__ import annotations

import jax

from distlbm.config import resolve


def quiet(msg):
    pass


def _sim(case="cavity2d", out_dir=None, **params):
    from distlbm.driver import Simulation

    return Simulation(resolve(case, params), out_dir=out_dir, log=quiet)


def test_a_float32_run_after_a_float64_one_in_the_process_sums_as_a_run_alone():
    """A float64 Simulation turns on JAX's 64-bit mode for the process (its arrays need it) and the diagnostics then
    summed a float32 run's mass and energy in float64: the same float32 cavity run (n = 32, 300 steps) said
    relative_mass_drift 4.766e-10 in a process of its own and 4.663e-10 after a float64 run in the same process
    (kinetic_energy 0.04774148762 and ...8243). A float32 run's sums are float32 whatever the process ran before."""
    before = bool(jax.config.jax_enable_x64)
    try:
        jax.config.update("jax_enable_x64", False)
        alone = _sim(n=16, steady_tol=0)
        alone.advance(50)
        d_alone = alone.diagnostics()
        jax.config.update("jax_enable_x64", True)  # as a float64 Simulation before it leaves it
        after = _sim(n=16, steady_tol=0)
        after.advance(50)
        d_after = after.diagnostics()
    finally:
        jax.config.update("jax_enable_x64", before)
    assert d_after["mass"] == d_alone["mass"], (d_after["mass"], d_alone["mass"])
    assert d_after["kinetic_energy"] == d_alone["kinetic_energy"]
    assert d_after["momentum"] == d_alone["momentum"]
