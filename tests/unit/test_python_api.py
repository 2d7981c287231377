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


def _ctrl_c_after_each_advance(sim):
    """A SIGINT to this process after each chunk of steps `sim` advances (a Ctrl-C while its run() goes)."""
    import signal

    advance = sim.advance

    def ctrl_c(n):
        advance(n)
        if n > 0:
            os.kill(os.getpid(), signal.SIGINT)

    sim.advance = ctrl_c


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


def test_run_to_a_step_before_the_current_one_or_steps_of_no_count_are_refused_in_one_line():
    """run(steps) runs to step `steps` (absolute, README "From Python"). After advance(40), run(30), read as 30 more
    steps, returned status 'complete' at step 40 having run nothing, unsaid; run('10') was a TypeError from the
    schedules (str // int), advance(-1) did nothing and advance(2.5) two steps, both unsaid. Each is one
    ConfigError naming the call, the value and what was expected, and the state is left as it was."""
    sim = _sim(n=16, steady_tol=0)
    sim.advance(40)
    with pytest.raises(ConfigError, match=r"run\(30\): steps = 30: .*before step 40.*expected 40 or more "
                                          r"\(to run 30 more steps: run\(70\)\)"):
        sim.run(30)
    for bad in ("10", 2.5, True, None.__class__, 2**31):
        with pytest.raises(ConfigError, match=r"run\(.*\): steps = .*: expected"):
            sim.run(bad)
    for bad in (-1, 2.5, "3", None, False):
        with pytest.raises(ConfigError, match=r"advance\(.*\): n = .*: expected"):
            sim.advance(bad)
    assert sim.step == 40
    sim.advance(np.int64(2))  # a NumPy integer is an integer
    assert sim.run(50.0)["step"] == 50 and sim.step == 50  # as is a float of a whole number
    # and a NumPy float of one (np.float32, read from an array: refused, "expected an integer"; np.float64 is a float)
    sim.advance(np.float32(3.0))
    assert sim.run(np.float32(60.0))["step"] == 60 and sim.step == 60
    for bad in (np.float32(2.5), np.float32("nan"), np.float32("inf")):
        with pytest.raises(ConfigError, match=r"advance\(.*\): n = .*: expected"):
            sim.advance(bad)
    assert sim.step == 60


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


def test_an_out_dir_that_is_a_file_or_no_path_is_one_line(tmp_path):
    """`distlbm run --out FILE` says `--out = 'FILE': exists and is not a folder`; Simulation(cfg, out_dir=FILE) was
    FileExistsError from pathlib's mkdir, out_dir=FILE/sub NotADirectoryError, out_dir=5 a TypeError from pathlib:
    tracebacks from inside the folder's lock. One ConfigError naming out_dir, and nothing made."""
    from distlbm.driver import Simulation

    cfg = resolve("cavity2d", {"n": 16})
    afile = tmp_path / "afile"
    afile.write_text("x")
    with pytest.raises(ConfigError, match=r"^out_dir = '.*afile': exists and is not a folder; expected"):
        Simulation(cfg, out_dir=afile, log=quiet)
    with pytest.raises(ConfigError, match=r"^out_dir = '.*afile/sub': cannot create or write the folder "
                                          r"\(Not a directory\); expected"):
        Simulation(cfg, out_dir=str(afile / "sub"), log=quiet)
    with pytest.raises(ConfigError, match=r"^out_dir = 5: expected a folder's path"):
        Simulation(cfg, out_dir=5, log=quiet)
    assert afile.read_text() == "x" and sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_probe_of_a_cell_outside_the_lattice_or_not_a_cell_is_refused():
    """sim.probe([[i, j]]) reads cells by their lattice indices. A cell outside the lattice (100, 100 of an 18 x 18
    cavity) gave rho 1, u 0, unsaid (the gather clamps), a point [1.5, 2] the cell (1, 2), [1, 2, 3] a ValueError of
    reshape. One ConfigError naming the point and the lattice's shape."""
    sim = _sim(n=16)
    sim.advance(20)
    assert sim.probe([[17, 17], [0, 0]])["rho"].shape == (2,)
    assert sim.probe([1, 2])["u"].shape == (2, 1)  # one point alone
    assert np.array_equal(sim.probe(np.array([[9, 17]]))["u"], sim.fields()[1][:, 9:10, 17])
    for bad, said in (([[100, 100]], r"\(100, 100\)"), ([[18, 0]], r"\(18, 0\)"), ([[-1, 3]], r"\(-1, 3\)"),
                      ([[1.5, 2]], r"\(1\.5, 2\)"), ([1, 2, 3], r"\[1, 2, 3\]")):
        with pytest.raises(ConfigError, match=r"^probe: point " + said + r".*18 x 18.*expected"):
            sim.probe(bad)


def test_a_simulation_without_out_dir_writes_no_checkpoint_into_a_folder_it_does_not_hold(tmp_path, monkeypatch):
    """A Simulation without out_dir holds no folder and writes no field output, but its checkpoints (checkpoint_every,
    and the one of a Ctrl-C stop) went to out/CASE/checkpoints under the working folder: the folder `distlbm run CASE`
    writes into by default, without its lock (a command run going on there had another run's checkpoints put beside
    its own), and output_every was dropped unsaid. It writes nothing: the settings that would are said in one warning,
    and a stop says how to go on in the process (its state is in memory)."""
    from distlbm.driver import Simulation

    monkeypatch.chdir(tmp_path)
    said = []
    sim = Simulation(resolve("cavity2d", {"n": 16, "steady_tol": 0, "checkpoint_every": 20, "output_every": 10}),
                     log=said.append)
    assert sim.run(40)["status"] == "complete"
    assert list(tmp_path.iterdir()) == []
    assert ("warning: checkpoint_every = 20, output_every = 10 have no effect: this Simulation has no out_dir "
            "(it writes no files); expected an out_dir for them") in said
    _ctrl_c_after_each_advance(sim)
    summary = sim.run(400)
    assert summary["status"] == "stopped" and list(tmp_path.iterdir()) == []
    assert said[-1] == (f"stopped at step {sim.step} on SIGINT; no checkpoint (this Simulation has no out_dir): its "
                        f"run(400) goes on from here")


def test_the_first_ctrl_c_of_a_simulation_without_out_dir_promises_no_checkpoint(capfd):
    """The first Ctrl-C during run() is said at once (a86a502); without out_dir the line said "the run stops with a
    checkpoint after the steps under way", and the run then wrote none ("no checkpoint (this Simulation has no
    out_dir)"). It says what happens: the run stops after the steps under way, without a checkpoint."""
    sim = _sim(n=16, steady_tol=0)
    _ctrl_c_after_each_advance(sim)
    assert sim.run(400)["status"] == "stopped"
    err = capfd.readouterr().err
    line = next(x for x in err.splitlines() if "SIGINT received" in x)
    assert "with a checkpoint" not in line, line
    assert "no checkpoint" in line and "no out_dir" in line, line
    assert "Ctrl-C again quits at once" in line, line


def test_advance_reads_nothing_back_from_the_devices(monkeypatch):
    """advance(n) checks n against the int32 step counter (8b28268); it read the state's step back from the device
    for it at every call (int(state.step)), so a loop of advance() in Python waited for each call's steps before it
    could queue the next (cavity2d n=64, 1000 x advance(1): 0.18 s, 0.10 s before; n=256, 300 x advance(1): 0.194 s,
    0.175 s, on 2 CPU cores). The step is known on the host after each call: nothing is read back."""
    sim = _sim(n=16, steady_tol=0)
    sim.advance(3)  # the first notes the step-0 diagnostics (a read, once)
    assert sim.step == 3
    array = type(sim.state.step)

    def read(self):
        raise AssertionError("advance() read the step back from the device")

    with monkeypatch.context() as m:  # (a transfer guard does not see a read of the CPU backend's arrays)
        m.setattr(array, "__int__", read)
        sim.advance(5)
        sim.advance(0)
    assert sim.step == 8
    sim.state = sim.state  # a state set from outside: its step is read again
    assert sim.step == 8
    with pytest.raises(ConfigError, match=r"^advance\(-1\)"):
        sim.advance(-1)


def test_a_tuple_or_numpy_array_is_a_list_setting_as_a_list_is():
    """A list setting takes an array (README: `mesh = [2, 2, 1]` is "2x2x1"); from Python a tuple, the usual form of
    a fixed pair, was refused: `mesh = (1, 1): expected a string (or an array of its items, joined as 'x')`, and so
    was a NumPy array. Both are taken as the list of their items."""
    as_list = resolve("channel_flow", {"mesh": [1, 1], "output_fields": ["rho", "u"], "probes": [[0.3, 0.2], [0.7, 0.2]]})
    for given in ({"mesh": (1, 1), "output_fields": ("rho", "u"), "probes": ((0.3, 0.2), (0.7, 0.2))},
                  {"mesh": np.array([1, 1]), "output_fields": np.array(["rho", "u"]),
                   "probes": np.array([[0.3, 0.2], [0.7, 0.2]])}):
        cfg = resolve("channel_flow", given)
        assert cfg.decomposition.mesh == as_list.decomposition.mesh
        assert cfg.output.output_fields == as_list.output.output_fields
        assert cfg.params["probes"] == as_list.params["probes"]


def test_the_mass_drift_warning_of_a_case_of_ones_own_names_no_setting_it_lacks(tmp_path, monkeypatch):
    """examples/square_channel.py (README: a case of your own) drifts more than 10 % in mass with its outflow, and the
    warning said `prefer outlet = 'pressure'`: a setting of the built-in channels that this case does not have
    (`--set outlet=pressure`: unknown key 'outlet'). Its advice names the outflow without the built-ins' setting."""
    from pathlib import Path

    from distlbm.driver import Simulation

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2] / "examples"))
    sim = Simulation(resolve("square_channel:SquareChannel", {"steady_tol": 0}), log=quiet)
    warned = [w for w in sim.run(2000)["warnings"] if "the mass in the lattice has changed" in w]
    assert warned and "outlet =" not in warned[0], warned
    assert "the outflow fixes no pressure level" in warned[0] and "(bc.outlet_kind)" in warned[0], warned
    channel = Simulation(resolve("channel_flow", {"outlet": "zero_gradient", "n": 8}), log=quiet)
    assert "prefer outlet = 'pressure'" in channel._mass_hint()  # a case that has the setting: named


def test_resolve_takes_a_path_object_and_says_a_target_or_settings_of_another_type(tmp_path):
    """resolve(Path('my.toml')), the usual form of a file's path in Python, was AttributeError: 'PosixPath' object
    has no attribute 'endswith'; resolve(3) the same of an int, and settings given as pairs ([('n', 32)]) 'list'
    object has no attribute 'get'. A path is taken as its text; the others are one ConfigError naming what was
    given and what was expected."""
    from pathlib import Path

    toml = tmp_path / "my.toml"
    toml.write_text('case = "cavity2d"\nn = 16\n')
    assert resolve(Path(toml)).params["n"] == 16 and resolve(str(toml)).params["n"] == 16
    with pytest.raises(ConfigError, match=r"^case = 3: expected a case's name, 'module:Class' or a TOML file's path"):
        resolve(3)
    with pytest.raises(ConfigError, match=r"^settings = \[\('n', 32\)\]: expected a dict \{key: value\}"):
        resolve("cavity2d", [("n", 32)])
    from distlbm.driver import Simulation

    for cfg in ("cavity2d", {"case": "cavity2d"}):  # 'str' object has no attribute 'pending', from run_checks
        with pytest.raises(ConfigError, match=r"^cfg = .*: expected the configuration of distlbm\.config\.resolve"):
            Simulation(cfg, log=quiet)


def test_a_run_interrupted_at_once_says_so_and_the_simulation_runs_again(tmp_path):
    """A second Ctrl-C raises KeyboardInterrupt out of run() at once, without a checkpoint (log.jsonl's end record:
    'interrupted'); the Simulation's status still said 'running' afterwards, and the end record the step at which the
    chunk under way began (8, with the state at 50: a Ctrl-C mostly comes in the wait for a chunk). It says
    'interrupted' at the state's step, and a run() after it goes on from there."""
    import json

    sim = _sim(n=16, steady_tol=0, out_dir=tmp_path)
    advance = sim.advance

    def second_ctrl_c(n):
        advance(n)
        if sim.step >= 16:
            raise KeyboardInterrupt

    sim.advance = second_ctrl_c
    with pytest.raises(KeyboardInterrupt):
        sim.run(1000)
    assert sim.status == "interrupted"
    ends = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines() if '"end"' in line]
    assert ends[-1]["status"] == "interrupted" and ends[-1]["step"] == sim.step
    sim.advance = advance
    at = sim.step
    assert sim.run(at + 8)["status"] == "complete" and sim.step == at + 8
    sim.close()


def test_a_run_stopped_in_its_compile_or_its_first_output_ends_its_log_record(tmp_path, monkeypatch):
    """A Ctrl-C in the compile (minutes for a large lattice; from Python, KeyboardInterrupt at once) or a failed step-0
    field output that stops the run (max_failed_writes = 1) came after log.jsonl's start record and before the loop's
    try: no end record (`distlbm status` then counts a start with no end: killed), the logs left open, and the
    Simulation's status 'new'. Each ends as the loop's own do: 'interrupted' / 'write_failed' at the start step."""
    import errno
    import json

    from distlbm.io import hdf5
    from distlbm.io.files import WriteError

    def ends(folder):
        records = [json.loads(line) for line in (folder / "log.jsonl").read_text().splitlines()]
        return [r for r in records if r.get("event") == "end"]

    sim = _sim(n=16, steady_tol=0, out_dir=tmp_path / "a")
    advance = sim.advance

    def ctrl_c_in_the_compile(n):
        if n == 0:
            raise KeyboardInterrupt
        advance(n)

    sim.advance = ctrl_c_in_the_compile
    with pytest.raises(KeyboardInterrupt):
        sim.run(16)
    assert sim.status == "interrupted"
    assert [(e["step"], e["status"]) for e in ends(tmp_path / "a")] == [(0, "interrupted")]
    sim.advance = advance
    assert sim.run(16)["status"] == "complete" and sim.step == 16
    sim.close()

    sim = _sim(n=16, steady_tol=0, output_every=8, max_failed_writes=1, out_dir=tmp_path / "b")

    def full(tmp, **kw):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(hdf5, "create_exclusive", full)
    with pytest.raises(WriteError):
        sim.run(16)
    assert sim.status == "write_failed"
    assert [(e["step"], e["status"]) for e in ends(tmp_path / "b")] == [(0, "write_failed")]
    sim.close()


def test_a_simulation_without_out_dir_runs_beside_another_runs_checkpoints_in_out_case(tmp_path, monkeypatch):
    """A Simulation without out_dir looked at out/CASE/checkpoints under the working folder before it ran and refused
    to run where `distlbm run CASE` had left a checkpoint there (a Ctrl-C of `make run`): `CheckpointError:
    out/cavity2d/checkpoints already holds 1 checkpoint(s) of another run ...`, though it writes nothing there
    (scripts/validate.py's runs have no out_dir). It runs, and leaves that folder as it was."""
    monkeypatch.chdir(tmp_path)
    other = _sim(n=16, steady_tol=0, out_dir="out/cavity2d", checkpoint_every=10)
    other.run(10)
    other.close()
    before = sorted(p.name for p in (tmp_path / "out" / "cavity2d" / "checkpoints").iterdir())
    assert before == ["ckpt_000000010.h5"]
    assert _sim(n=16, steady_tol=0).run(20)["status"] == "complete"
    assert sorted(p.name for p in (tmp_path / "out" / "cavity2d" / "checkpoints").iterdir()) == before


def test_a_tilde_in_out_dir_restart_and_init_from_is_the_home_folder(tmp_path, monkeypatch):
    """Simulation(cfg, out_dir="~/x") made a folder literally named '~' in the working folder (no shell expands '~'
    from Python); restart="~/x/checkpoints/..." and init_from="~/x" named no file. '~' is the home folder, as on
    the command line (`--out ~/x`, and `--out '~/x'` quoted: cli)."""
    import glob

    from distlbm.driver import Simulation

    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    sim = Simulation(resolve("cavity2d", {"n": 16, "steady_tol": 0, "checkpoint_every": 4}), out_dir="~/x",
                     log=quiet)
    sim.run(4)
    sim.close()
    assert os.listdir(work) == [] and (home / "x" / "log.jsonl").is_file()
    ck = os.path.basename(sorted(glob.glob(str(home / "x" / "checkpoints" / "*.h5")))[-1])
    again = Simulation(resolve("cavity2d", {"n": 16, "steady_tol": 0}), out_dir="~/x",
                       restart=f"~/x/checkpoints/{ck}", log=quiet)
    assert again.step == 4
    again.close()
    other = Simulation(resolve("cavity2d", {"n": 16, "steady_tol": 0}), out_dir="~/y", init_from="~/x", log=quiet)
    other.close()
    assert os.listdir(work) == [] and (home / "y").is_dir()


@pytest.mark.parametrize("dtype", ["float7", "int32", None, 3])
def test_fields_of_a_dtype_that_is_no_float_is_one_line_naming_the_dtypes_it_takes(dtype):
    """sim.fields("float7") was NumPy's own TypeError ("data type 'float7' not understood") from inside the gather,
    and fields("int32") cut rho and u to whole numbers, unsaid (fields(None) was float64): one ConfigError naming the
    argument, the value and the dtypes fields takes."""
    sim = _sim(n=16)
    with pytest.raises(ConfigError) as e:
        sim.fields(dtype)
    assert str(e.value) == (f"fields: dtype = {dtype!r}: expected one of 'float32' (the default), 'float64', "
                            f"'float16' (or the NumPy dtype)")
    rho, u = sim.fields(np.float64)
    assert rho.dtype == np.float64 and u.dtype == np.float64
    sim.close()


def test_the_state_s_arrays_are_given_to_the_next_step_and_help_says_to_copy_them_first():
    """The step donates its input buffers (memory: one copy of the populations): `f = sim.state.f` read after
    sim.advance(n) is JAX's "Array has been deleted", which names no reason. help() of state, advance and run says it
    and what to do; a NumPy copy (np.asarray) or fields() taken before stays valid."""
    from distlbm.driver import Simulation

    doc = Simulation.state.__doc__
    assert doc and "np.asarray(sim.state.f)" in doc and "deleted" in doc, doc
    for doc in (Simulation.advance.__doc__, Simulation.run.__doc__):  # they say it, and name state's paragraph
        assert doc and "deleted" in doc and "donated: `state`" in doc, doc
    sim = _sim(n=16, steady_tol=0)
    kept, (rho, _) = np.array(sim.state.f), sim.fields()
    f = sim.state.f
    sim.advance(2)
    assert kept.shape == np.asarray(sim.state.f).shape and rho.shape == sim.fields()[0].shape
    if f.is_deleted():  # (where the backend takes the donation: CPUs and GPUs with this JAX)
        with pytest.raises(RuntimeError, match="deleted"):
            np.asarray(f)
    sim.close()


def test_a_stop_during_the_start_up_of_a_run_from_python_says_how_to_go_on_in_python_words(tmp_path):
    """A stop before the first step of run() called from Python said the command's words ("resubmit to continue
    with --restart latest"), while a later stop in the same run() says Python's: `Simulation(cfg, out_dir=...,
    restart='latest').run(END) goes on`, or without out_dir `its run(END) goes on from here`."""
    from distlbm.driver import Simulation

    said = []
    first = Simulation(resolve("cavity2d", {"n": 16, "steady_tol": 0, "checkpoint_every": 8}), out_dir=tmp_path / "a",
                       log=said.append)
    first.run(8)
    first.close()
    said = []
    sim = Simulation(resolve("cavity2d", {"n": 16, "steady_tol": 0}), out_dir=tmp_path / "a", restart="latest",
                     log=said.append)
    sim._stop_reason = lambda why: "SIGTERM"  # a stop that came during the start-up
    assert sim.run(40)["status"] == "stopped" and sim.step == 8
    sim.close()
    line = next(x for x in said if "during start-up" in x)
    assert "resubmit" not in line and "--restart" not in line, line
    assert line.endswith(f"; Simulation(cfg, out_dir='{tmp_path / 'a'}', restart='latest').run(40) goes on to "
                         f"continue"), line
    said = []
    sim = Simulation(resolve("cavity2d", {"n": 16, "steady_tol": 0}), log=said.append)
    sim._stop_reason = lambda why: "SIGTERM"
    assert sim.run(40)["status"] == "stopped" and sim.step == 0
    line = next(x for x in said if "during start-up" in x)
    assert line.endswith("; its run(40) goes on from here"), line


def test_an_out_dir_that_starts_with_a_tilde_of_no_user_is_refused_as_the_command_s_out_is(tmp_path, monkeypatch):
    """`distlbm run --out ~NOUSER/x` is refused (io.files.check_out_name: no user's home folder, and it would be a
    folder '~NOUSER' in the working directory); Simulation(cfg, out_dir="~NOUSER/x") made that folder. One ConfigError
    naming out_dir, the same rule, and nothing made; './~NOUSER/x' is a folder of that name here, as on the command
    line."""
    from distlbm.driver import Simulation

    monkeypatch.chdir(tmp_path)
    cfg = resolve("cavity2d", {"n": 16, "steady_tol": 0})
    with pytest.raises(ConfigError, match=r"^out_dir = '~nosuchuser_distlbm/x': '~nosuchuser_distlbm' names no "
                                          r"user's home folder here.*expected a home folder"):
        Simulation(cfg, out_dir="~nosuchuser_distlbm/x", log=quiet)
    assert list(tmp_path.iterdir()) == []
    sim = Simulation(cfg, out_dir="./~nosuchuser_distlbm/x", log=quiet)
    sim.close()
    assert (tmp_path / "~nosuchuser_distlbm" / "x").is_dir()


def test_forces_give_the_sampled_drag_coefficient_as_the_readme_says():
    """README ("From Python"): sim.forces() is [bodies, D] in lattice units, and samples.jsonl's cD is
    2 F[0, 0] / (U**2 A) with U the lattice's reference velocity and A the cylinder's diameter in cells. The README
    named neither the shape nor the normalisation's units, so a user could not match the two."""
    from distlbm.driver import Simulation

    sim = Simulation(resolve("schaefer_turek_2d1", {"n": 10, "t_end": 0.1, "ramp": 0.05, "steady_tol": 0,
                                                    "sample_every": 80}), log=quiet)
    summary = sim.run()
    F = sim.forces()
    u = summary["parameters"]["lattice_units"]["reference_velocity"]
    assert F.shape == (1, 2) and u == pytest.approx(0.025) and summary["step"] == 80
    assert summary["observables"]["last_sample"]["cD"] == pytest.approx(2 * F[0, 0] / (u ** 2 * 10), rel=1e-6)


def test_a_stopped_run_s_field_series_ends_at_its_last_scheduled_output_and_its_restart_goes_on_with_it(tmp_path):
    """README: a stop (a signal, --wall-time) writes a checkpoint and no field output at its step; the series holds
    the outputs of the schedule up to it, and the restart goes on with the schedule. The README said that the end
    step and a steady stop always have one, and nothing of a stop, so a user looked for the stop's step in
    fields.xdmf."""
    import signal

    from distlbm.driver import Simulation

    cfg = resolve("cavity2d", {"n": 16, "steady_tol": 0, "output_every": 100})
    sim = Simulation(cfg, out_dir=tmp_path, log=quiet)
    advance = sim.advance

    def ctrl_c_once_past_100(n):
        advance(n)
        if n > 0 and sim.step > 100 and not getattr(sim, "_pressed", False):
            sim._pressed = True
            os.kill(os.getpid(), signal.SIGINT)

    def written():
        return sorted(int(p.stem.split("_")[1]) for p in (tmp_path / "fields").glob("fields_*.h5"))

    sim.advance = ctrl_c_once_past_100
    summary = sim.run(300)
    sim.close()
    stop = summary["step"]
    assert summary["status"] == "stopped" and 100 < stop < 300 and stop % 100, stop
    assert written() == [s for s in (0, 100, 200) if s < stop]
    assert (tmp_path / "checkpoints" / f"ckpt_{stop:09d}.h5").is_file()
    more = Simulation(cfg, out_dir=tmp_path, log=quiet, restart="latest")
    assert more.run(300)["status"] == "complete"
    more.close()
    assert written() == [0, 100, 200, 300]
    assert (tmp_path / "fields.xdmf").read_text().count("<Time ") == 4


def test_a_finished_simulation_dropped_in_a_sweep_leaves_the_devices_before_the_next_one_is_built(tmp_path,
                                                                                                   monkeypatch):
    """A sweep (`for re in ...: sim = Simulation(...); sim.run(200)`) rebinds `sim` or deletes it. A Simulation is
    freed at `del` (test_a_dropped_simulation_frees_its_device_arrays_at_del_with_the_collector_off); one that the
    caller's own code put in a reference cycle (a log or a replaced method that refers back to it) waits for Python's
    collector: cavity2d n=32, 20 runs rebinding `sim` in one process held up to 36 live JAX arrays (6 per run). A new
    Simulation collects the dropped ones before it allocates its own (above loop.COLLECT_BYTES of live arrays)."""
    import gc
    import weakref

    from distlbm.driver import loop

    monkeypatch.setattr(loop, "COLLECT_BYTES", 1)  # (collected above 64 MiB of live arrays: the test's are small)
    was = gc.isenabled()
    gc.disable()  # (the collector's own passes come when they come: the test is the Simulation's)
    try:
        first = _sim(n=16, steady_tol=0, out_dir=tmp_path / "a")
        first.itself = first  # (a cycle of the caller's: freed by a collection alone)
        first.run(20)
        first.fields()
        first.close()
        gone, arrays = weakref.ref(first), len(jax.live_arrays())
        del first
        assert gone() is not None  # (its own cycle keeps it)
        second = _sim(n=16, steady_tol=0, out_dir=tmp_path / "a")  # the same folder, as a sweep's rerun
        assert gone() is None
        assert len(jax.live_arrays()) <= arrays
        assert second.run(20)["status"] == "complete"
        second.close()
    finally:
        if was:
            gc.enable()


ENDINGS = ("built", "run", "probed", "blow-up", "ConfigError", "KeyboardInterrupt", "stopped", "failed writes",
           "refused construction")


@pytest.mark.parametrize("ending", ENDINGS)
def test_a_dropped_simulation_frees_its_device_arrays_at_del_with_the_collector_off(tmp_path, monkeypatch, ending):
    """`del sim` frees every array the Simulation held on the devices at once, with Python's cyclic collector off
    (gc.disable()) and without the collection at the next construction (loop.COLLECT_BYTES): after construction, a
    run, after a run that raised (a blow-up, a ConfigError, a second Ctrl-C's KeyboardInterrupt, failed checkpoint
    writes), after a stop. Its checkpointer and callbacks held bound methods and closures of it, its view's log a
    closure over it, and the frame of a failed write that the run went on after held its error (frame <-> traceback):
    reference cycles that kept every run's populations on the devices until the collector came by."""
    import errno
    import gc
    import signal
    import weakref

    from distlbm.driver import InstabilityError, Simulation, loop
    from distlbm.io import checkpoint as ckpt
    from distlbm.io.files import WriteError

    monkeypatch.setattr(loop, "COLLECT_BYTES", 1 << 62)  # (the construction's collection: not counted on here)
    params = {"n": 16, "steady_tol": 0}
    presses = {"KeyboardInterrupt": 2, "stopped": 1}.get(ending, 0)

    def log(msg):  # (a Ctrl-C, or two, in the middle of the run; a function that knows no Simulation)
        if msg.startswith("step       50/"):
            for _ in range(presses):
                os.kill(os.getpid(), signal.SIGINT)

    if ending == "probed":  # (one device: the domain of a run on one GPU, whose probe's gather outlived it on CPUs)
        params.update(mesh="1x1")
    if ending == "blow-up":
        params.update(n=8, re=1e6, check_every=50)
    if ending == "failed writes":  # every checkpoint fails, the run goes on (max_failed_writes), then stops
        params.update(checkpoint_every=10, max_failed_writes=100)

        def full(directory, *args, **kwargs):  # (refused by io.checkpoint.save: io.hdf5.write's own frames keep
            # the error they raise, a cycle left to Python's collection)
            raise WriteError(directory, f"no space left on the device ({os.strerror(errno.ENOSPC)})")

        monkeypatch.setattr(ckpt, "save", full)
    cfg = resolve("cavity2d", params)
    gc.collect()
    before = jax.live_arrays()  # (held: their ids are not reused)
    was = gc.isenabled()
    gc.disable()
    try:
        if ending == "refused construction":
            with pytest.raises(RuntimeError, match="no checkpoint"):
                Simulation(cfg, out_dir=tmp_path, log=log, restart="latest")
            gone = lambda: None  # noqa: E731
        else:
            sim = Simulation(cfg, out_dir=tmp_path, log=log)
            gone = weakref.ref(sim)
            if ending == "run":
                assert sim.run(20)["status"] == "complete"
            elif ending == "probed":
                sim.advance(5)
                sim.fields(), sim.diagnostics(), sim.forces()
                sim.probe([[1, 2]])  # (last: its gather of a point outlived it, on CPUs, until a collection)
            elif ending == "blow-up":
                with pytest.raises(InstabilityError):
                    sim.run(2000)
            elif ending == "ConfigError":
                with pytest.raises(ConfigError, match="run"):
                    sim.run("10")
            elif ending == "KeyboardInterrupt":
                with pytest.raises(KeyboardInterrupt):
                    sim.run(200)
            elif ending == "stopped":
                assert sim.run(200)["status"] == "stopped"
            elif ending == "failed writes":
                with pytest.raises(WriteError, match="no space left"):
                    sim.run(30)
                assert len(sim.failed_writes) == 3 and sim.failed_writes[0]["went_on"]
            assert len(jax.live_arrays()) > len(before)
            del sim
        assert gone() is None
        left = [a for a in jax.live_arrays() if not any(a is b for b in before)]
        assert not left, [(a.shape, a.dtype) for a in left]
    finally:
        if was:
            gc.enable()


def test_a_blow_up_in_a_sweep_raises_instability_and_leaves_the_process_as_it_was(tmp_path):
    """README "From Python" (a sweep): a blow-up is InstabilityError out of run(); the process's signal handlers,
    NumPy's error state, the working folder and the environment are as they were, and the next Simulation, in the
    same folder, runs."""
    import signal

    from distlbm.driver import InstabilityError

    def state():
        return ({n: signal.getsignal(getattr(signal, n)) for n in STOPS}, np.geterr(), os.getcwd(), dict(os.environ))

    before = state()
    sim = _sim(n=8, re=1e6, steady_tol=0, check_every=50, out_dir=tmp_path)
    with pytest.raises(InstabilityError, match=r"^instability at step \d+"):
        sim.run(2000)
    assert sim.status != "running" and state() == before
    nxt = _sim(n=8, steady_tol=0, out_dir=tmp_path)
    assert nxt.run(20)["status"] == "complete"
    nxt.close()
    sim.close()


def test_a_mesh_that_does_not_split_the_lattice_is_a_config_error_from_python():
    """README "From Python": a sweep's `except ConfigError` took every bad setting but a mesh that does not split the
    lattice (a DecompositionError, a ValueError beside ConfigError): that one point's mistake ended the sweep. It is a
    ConfigError now (and still a ValueError), its message naming the mesh and sizes that would work."""
    from distlbm.parallel.mesh import DecompositionError

    cfg = resolve("cavity2d", {"n": 16, "mesh": "5x1"})
    with pytest.raises(ConfigError) as e:
        _sim_of(cfg)
    assert isinstance(e.value, DecompositionError) and isinstance(e.value, ValueError)
    assert "mesh 5x1" in str(e.value) and "sizes that would work" in str(e.value)


def _sim_of(cfg):
    from distlbm.driver import Simulation

    return Simulation(cfg, log=quiet)


def test_a_callback_method_replaced_on_the_instance_is_called_by_the_run(tmp_path):
    """The run's callbacks call the Simulation's methods through weak references (loop.weakly), which take bound
    methods alone: one a caller replaced on the instance (`sim._checkpoint = mine`, a function wrapping the original,
    which the run called before) made run() raise "TypeError: argument should be a bound method". It is held as it
    is, and called at each of its steps."""
    sim = _sim(n=16, steady_tol=0, checkpoint_every=10, output_every=10, out_dir=tmp_path)
    seen = []
    checkpoint, write_output = sim._checkpoint, sim._write_output

    def mine(view):
        seen.append(("checkpoint", view.step))
        return checkpoint(view)

    def output(view):
        seen.append(("output", view.step))
        return write_output(view)

    sim._checkpoint, sim._write_output = mine, output
    assert sim.run(20)["status"] == "complete"
    sim.close()
    assert seen == [("output", 0), ("output", 10), ("checkpoint", 10), ("output", 20), ("checkpoint", 20)], seen
