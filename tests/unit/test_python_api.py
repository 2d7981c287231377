"""distlbm driven from Python (README "From Python"): `resolve` and `Simulation` called as a notebook or a script of
its own calls them, several runs in one process one after another, and what one run leaves to the next."""

from __future__ import annotations

import os

import jax
import numpy as np
import pytest

from distlbm.config import resolve
from distlbm.errors import ConfigError


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


STOPS = ("SIGINT", "SIGTERM", "SIGUSR1", "SIGHUP")


def test_a_run_stopped_by_ctrl_c_checkpoints_and_gives_the_process_its_signal_handlers_back(tmp_path):
    """Ctrl-C in a notebook or script that called run(): the run stops with a checkpoint, as `distlbm run` does on
    SIGINT, and returns. It left its own handlers installed for the rest of the process: a later SIGTERM (or SIGHUP,
    SIGUSR1) was taken as a stop request of a run no longer there, and the process no longer ended on it; a later
    Ctrl-C outside any run was caught by them. The handlers the process had before the run are back after it, and a
    second run in the process runs to its end."""
    import signal

    from distlbm.driver import Simulation

    before = {n: signal.getsignal(getattr(signal, n)) for n in STOPS}
    said = []
    sim = Simulation(resolve("cavity2d", {"n": 16, "steady_tol": 0}), out_dir=tmp_path / "a", log=said.append)
    advance = sim.advance

    def ctrl_c_once_running(n):  # Ctrl-C while the run goes
        advance(n)
        if n > 0 and sim.step >= 16 and not getattr(sim, "_pressed", False):
            sim._pressed = True
            os.kill(os.getpid(), signal.SIGINT)

    sim.advance = ctrl_c_once_running
    summary = sim.run(100000)
    sim.close()
    assert summary["status"] == "stopped" and summary["stopped_on"] == "SIGINT", summary["status"]
    assert summary["step"] < 100000
    assert (tmp_path / "a" / "checkpoints" / f"ckpt_{summary['step']:09d}.h5").is_file()
    # how to go on, in a Python user's words (it said `resubmit with --restart latest`, the command's option)
    assert f"Simulation(cfg, out_dir='{tmp_path / 'a'}', restart='latest').run(100000) goes on to continue" in said[-1]
    after = {n: signal.getsignal(getattr(signal, n)) for n in STOPS}
    assert after == before
    # which it does, to the end step run() was given (a run(steps) call's own: not kept in the checkpoint)
    more = Simulation(resolve("cavity2d", {"n": 16, "steady_tol": 0}), out_dir=tmp_path / "a", log=quiet,
                      restart="latest")
    assert more.step == summary["step"]
    assert more.run(summary["step"] + 8)["status"] == "complete" and more.step == summary["step"] + 8
    more.close()
    again = Simulation(resolve("cavity2d", {"n": 16, "steady_tol": 0}), out_dir=tmp_path / "b", log=quiet)
    assert again.run(40)["status"] == "complete"
    again.close()
    assert {n: signal.getsignal(getattr(signal, n)) for n in STOPS} == before


def test_numpy_numbers_are_settings_as_python_ones():
    """A loop over parameters from NumPy (`for n in np.arange(16, 64, 16)`, `np.float32` values read from an array)
    was refused: `n = np.int64(32): expected an integer`, which it is. A NumPy scalar is taken as the Python value it
    holds, kept as that (summary.json writes it), and checked as that."""
    cfg = resolve("cavity2d", {"n": np.int64(32), "re": np.float32(100.0), "steady_tol": np.float64(0),
                               "average_stresses": np.bool_(False)})
    assert cfg.params["n"] == 32 and type(cfg.params["n"]) is int
    assert cfg.params["re"] == 100.0 and type(cfg.params["re"]) is float
    assert cfg.setup.shape == (34, 34)
    with pytest.raises(ConfigError, match=r"^n = 2\.5: expected an integer"):
        resolve("cavity2d", {"n": np.float64(2.5)})
    with pytest.raises(ConfigError, match=r"^n = -16: expected"):
        resolve("cavity2d", {"n": np.int32(-16)})

