"""What a restarted run produces besides its populations and time average (summary.json's observables and
watches, samples.jsonl, log.jsonl, outputs) against the uninterrupted run of the same settings."""

from __future__ import annotations

import json

from helpers import make_sim


def _straight_and_restarted(tmp_path, case, steps, half, **params):
    """The summaries of `case` run to `steps` in one go and run to `steps` again from its checkpoint at `half` (the
    same schedules: the check and progress cadences follow the end step)."""
    straight = make_sim(case, **params).run(steps)
    first = make_sim(case, **params, checkpoint_every=half)
    first.out_dir = tmp_path
    first.run(steps)
    second = make_sim(case, **params)
    second.out_dir = tmp_path
    second._restore(str(tmp_path / "checkpoints" / f"ckpt_{half:09d}.h5"))
    assert second.step == half
    return straight, second.run(steps)


def _run_into(folder, steps, case, **params):
    """The summary of `case` run to `steps` with its files in `folder`."""
    sim = make_sim(case, **params)
    sim.out_dir = folder
    return sim.run(steps)


def test_the_peak_mach_and_mass_drift_are_the_runs_not_the_restarts(tmp_path):
    """summary.json's mach_local and mass_drift_peak are 'the largest of the run's checks' (README): a restart's
    summary said those of its own checks alone (taylor_green2d n=16 restarted at step 100: mach_local 0.0557 at
    step 110 where the run's was 0.0679 at step 10), with no warning of the run's before its restart."""
    straight, restarted = _straight_and_restarted(tmp_path, "taylor_green2d", 200, 100, n=16, check_every=10)
    assert straight["mach_local"]["step"] < 100  # the peak is before the restart: a restart's own checks miss it
    for key in ("mach_local", "mass_drift_peak"):
        assert restarted[key] == straight[key], key


def _records(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_restart_from_a_step_off_the_sample_schedule_leaves_that_steps_sample_out(tmp_path):
    """A run's last step gets a sample of its own (the summary's final values; likewise a stop signal's or the wall
    time's step), off the sample schedule: a run extended by --restart latest --steps N, or a Slurm chain's next job,
    kept it, one record more than the uninterrupted run's (schaefer_turek_2d2 n=6 run to step 105, continued to 200
    with sample_every=10: a record at 105 between 100 and 110, in samples.jsonl and in the series the observables
    read: a mean over a window, a maximum, the zero crossings of the lift)."""
    params = dict(n=6, sample_every=10)
    straight = make_sim("schaefer_turek_2d2", **params)
    straight.out_dir = tmp_path / "straight"
    summary = straight.run(200)
    _run_into(tmp_path / "parts", 105, "schaefer_turek_2d2", **params, checkpoint_every=100)
    assert [r["step"] for r in _records(tmp_path / "parts" / "samples.jsonl")][-2:] == [100, 105]  # the end's own
    second = make_sim("schaefer_turek_2d2", **params, steps=200)
    second.out_dir = tmp_path / "parts"
    second._restore("latest")
    assert second.step == 105
    continued = second.run(200)
    want = _records(tmp_path / "straight" / "samples.jsonl")
    assert [r["step"] for r in want] == list(range(10, 201, 10))
    assert _records(tmp_path / "parts" / "samples.jsonl") == want
    assert [dict(r) for r in second.samples] == [dict(r) for r in straight.samples]
    assert continued["observables"] == summary["observables"]


# summary.json's counters of the part of the run since its start or restart (README: `steps`, wall time, MLUPS, the
# field outputs' `output`), the run id and the checkpoint a restart continues: the rest is the uninterrupted run's
PART_KEYS = {"steps", "wall_time_s", "compile_time_s", "mlups", "output", "restarted_from", "run_id"}


def test_a_restart_without_settings_says_the_uninterrupted_runs_summary(tmp_path, cli):
    """cavity2d n=16, 200 steps with a steadiness test every 40 and a field output every 100, restarted from its
    checkpoint at step 100 with --restart alone (the settings kept from the run): summary.json is the uninterrupted
    run's but for the part's counters. Its parameters said steps = 0 (the case's default) for the run's --steps 200
    that the restart ran to, and its mach_local / mass_drift_peak were its own checks'."""
    run = ("cavity2d", "--set", "n=16", "--set", "steady_every=40", "--set", "steady_tol=1e-9", "--output-every", 100,
           "--checkpoint-every", 100)
    for name in ("straight", "parts"):
        rc, out, err = cli("run", *run, "--steps", 200, "--out", tmp_path / name)
        assert rc == 0, out + err
    rc, out, err = cli("run", "cavity2d", "--set", "n=16", "--restart",
                       tmp_path / "parts" / "checkpoints" / "ckpt_000000100.h5", "--out", tmp_path / "parts")
    assert rc == 0, out + err
    straight, restarted = (json.loads((tmp_path / name / "summary.json").read_text()) for name in ("straight", "parts"))
    assert restarted["step"] == 200 and restarted["steps"] == 100
    assert {k: v for k, v in restarted.items() if k not in PART_KEYS} == \
        {k: v for k, v in straight.items() if k not in PART_KEYS}


def test_a_cavitys_steadiness_rate_after_a_restart_between_two_checks_is_the_runs(tmp_path):
    """The cavity's steadiness check reads the change of the kinetic energy between the run's last two checks: a
    restart between two checks (a checkpoint or stop off the check schedule) had its own first step as the second
    last, a rate over its few steps (cavity2d n=16 to step 1840 restarted at 1830: 0.0382 per transit over 10 steps
    for the run's 0.00881 over 40; here 400 steps restarted at 390, checks every 20), which passes or fails the
    check by where the run was restarted."""
    straight, restarted = _straight_and_restarted(tmp_path, "cavity2d", 400, 390, n=16)
    assert straight["observables"]["energy_rate_per_transit"] is not None
    assert restarted["observables"] == straight["observables"]


def test_a_restart_after_a_stop_between_two_checks_has_the_runs_steadiness_rate(tmp_path, monkeypatch):
    """A stop signal between two checks (at a step another schedule ended a chunk at: a field output every 7 steps)
    checks the state at its step for its progress line, a check the uninterrupted run has not: the checkpoint of the
    stop took it for the run's last, and the restart's steadiness rate was over the steps since the stop."""
    from distlbm.driver import signals

    params = dict(n=16, output_every=7)
    want = _run_into(tmp_path / "straight", 400, "cavity2d", **params)
    flag = signals.StopFlag()
    monkeypatch.setattr(signals, "process_flag", lambda: flag)
    first = make_sim("cavity2d", **params, checkpoint_every=1000)
    first.out_dir = tmp_path / "parts"
    advance = first.advance

    def stop_at_385(k):
        advance(k)
        if first.view.step >= 385:
            flag.requested, flag.name = True, "SIGUSR1"

    first.advance = stop_at_385
    assert first.run(400)["status"] == "stopped" and first.step == 385  # not a check's step (every 20)
    monkeypatch.setattr(signals, "process_flag", lambda: None)
    second = make_sim("cavity2d", **params)
    second.out_dir = tmp_path / "parts"
    second._restore("latest")
    assert second.step == 385
    assert second.run(400)["observables"] == want["observables"]


def test_a_restart_into_another_folder_holds_the_whole_series_its_summary_reads(tmp_path):
    """A restart into another folder (--restart RUN/checkpoints/ckpt_N.h5 --out NEW) reads the run's samples up to
    its checkpoint for its observables, but NEW/samples.jsonl held its own records alone (schaefer_turek_2d2 n=6
    restarted at 100 of 200: 10 records of the 20 its Strouhal number, cD_max and cL_max were taken from)."""
    params = dict(n=6, sample_every=10)
    want = _run_into(tmp_path / "straight", 200, "schaefer_turek_2d2", **params)
    _run_into(tmp_path / "run", 200, "schaefer_turek_2d2", **params, checkpoint_every=100)
    second = make_sim("schaefer_turek_2d2", **params)
    second.out_dir = tmp_path / "new"
    second._restore(str(tmp_path / "run" / "checkpoints" / "ckpt_000000100.h5"))
    assert second.run(200)["observables"] == want["observables"]
    assert _records(tmp_path / "new" / "samples.jsonl") == _records(tmp_path / "straight" / "samples.jsonl")
    assert len(_records(tmp_path / "run" / "samples.jsonl")) == 20  # the run's own folder: as it was


def _as_older(path, *keys):
    """Make the checkpoint at `path` one of an older distlbm: its metadata without `keys` (digest kept valid)."""
    import h5py

    from distlbm.io import checkpoint as ckpt

    with h5py.File(path, "r+") as h5:
        text = h5.attrs["meta"]
        meta = json.loads(text.decode() if isinstance(text, bytes) else text)
        for key in keys:
            assert key in meta, key
            del meta[key]
        text = json.dumps(meta, sort_keys=True)
        h5.attrs["meta"], h5.attrs["meta_sha256"] = text, ckpt.digest(text)


def test_a_restart_of_a_restart_from_an_older_checkpoint_between_two_checks_runs(tmp_path):
    """A run restarted from a checkpoint of an older distlbm (no step-0 diagnostics `initial`, no `last_check`, no
    watches) writes checkpoints with a last_check but no initial; a restart from one of those between two checks
    stopped at its start with IndexError (its history was empty where the run's last check was to go after it:
    cavity2d n=16, restarted at 100 from the older checkpoint, then at 135 with checks every 10). It runs, and its
    steadiness rate is that of the restart it continues."""
    _run_into(tmp_path, 200, "cavity2d", n=16, checkpoint_every=100)
    older = tmp_path / "checkpoints" / f"ckpt_{100:09d}.h5"
    _as_older(older, "initial", "last_check", "watches")
    (tmp_path / "checkpoints" / f"ckpt_{200:09d}.h5").unlink()
    second = make_sim("cavity2d", n=16, checkpoint_every=135)
    second.out_dir = tmp_path
    second._restore(str(older))
    whole = second.run(200)
    third = make_sim("cavity2d", n=16)
    third.out_dir = tmp_path
    third._restore(str(tmp_path / "checkpoints" / f"ckpt_{135:09d}.h5"))
    assert third.step == 135
    again = third.run(200)
    assert again["step"] == 200
    assert again["observables"] == whole["observables"]


def test_a_restart_into_another_folder_says_when_it_cannot_read_the_runs_samples(tmp_path):
    """A restart into another folder whose run's samples.jsonl cannot be read (here a folder in its place; likewise
    one without read permission) held its own records alone, as the series its Strouhal number or cD_max was taken
    from, and said nothing: it says so, naming the file."""
    params = dict(n=6, sample_every=10)
    _run_into(tmp_path / "run", 200, "schaefer_turek_2d2", **params, checkpoint_every=100)
    (tmp_path / "run" / "samples.jsonl").unlink()
    (tmp_path / "run" / "samples.jsonl").mkdir()
    from distlbm.config import resolve
    from distlbm.driver import Simulation
    from distlbm.parallel.domain import LocalDomain

    said, cfg = [], resolve("schaefer_turek_2d2", params)
    second = Simulation(cfg, domain=LocalDomain(cfg.setup.shape), log=said.append)
    second.out_dir = tmp_path / "new"
    second._restore(str(tmp_path / "run" / "checkpoints" / "ckpt_000000100.h5"))
    summary = second.run(200)
    told = [line for line in said if "samples.jsonl" in line and "warning" in line]
    assert len(told) == 1 and str(tmp_path / "run" / "samples.jsonl") in told[0], said
    assert any(str(tmp_path / "run" / "samples.jsonl") in w for w in summary["warnings"]), summary["warnings"]


def test_the_copy_into_another_folder_names_the_steps_of_the_records_it_copied(tmp_path):
    """A restart at step 105 (the run's end, off its sample schedule of every 10) into another folder copies the
    run's records of steps 10 to 100: its note said "up to step 104", a step of no record."""
    params = dict(n=6, sample_every=10)
    _run_into(tmp_path / "run", 105, "schaefer_turek_2d2", **params, checkpoint_every=100)
    said = []
    second = make_sim("schaefer_turek_2d2", **params, steps=200)
    second.out_dir, second.log = tmp_path / "new", said.append
    second._restore(str(tmp_path / "run" / "checkpoints" / "ckpt_000000105.h5"))
    second.run(120)
    notes = [m for m in said if "copied from" in m]
    assert len(notes) == 1, said
    assert "10 sample record(s) of the run this restart continues (steps 10 to 100)" in notes[0], notes
    assert [r["step"] for r in _records(tmp_path / "new" / "samples.jsonl")] == list(range(10, 121, 10))


def test_a_restart_s_blow_up_names_the_run_s_first_check_past_mach(tmp_path):
    """A blow-up names the first check past Mach 0.3 (view.first_fast where history left it out), but a restart knew
    its own checks alone: channel_flow n=10 at u_lattice 0.1 passes Mach 0.3 at step 141 and blows up at 578; restarted
    from its checkpoint at 500, its message named step 500 (0.554) as the first past the limit. The checkpoint carries
    it beside the Mach and mass watches; one of an older distlbm without it restarts and names what it saw."""
    import pytest

    from distlbm.driver.callbacks import InstabilityError

    params = dict(n=10, u_lattice=0.1, obstacles="circle(0.5,0.205,0.18)", check_every=1)

    def blow_up(folder, restart=None):
        sim = make_sim("channel_flow", **params, checkpoint_every=500)
        sim.out_dir = folder
        if restart is not None:
            sim._restore(str(restart))
        with pytest.raises(InstabilityError):
            sim.run(2000)
        return [e for e in _records(folder / "log.jsonl") if e.get("event") == "instability"][-1]

    want = blow_up(tmp_path / "run")
    first = want["where"]["first_past_mach"]
    assert first["step"] < 500 and f"the first check past Mach 0.3 (step {first['step']}: " in want["message"]
    ckpt = tmp_path / "run" / "checkpoints" / f"ckpt_{500:09d}.h5"
    again = blow_up(tmp_path / "again", ckpt)
    assert again["step"] == want["step"] and again["where"]["first_past_mach"] == first, again["message"]
    assert f"the first check past Mach 0.3 (step {first['step']}: " in again["message"]
    # an older checkpoint, whose watches hold no first check past the limit
    import h5py

    from distlbm.io import checkpoint as ckpt_io

    with h5py.File(ckpt, "r+") as h5:
        text = h5.attrs["meta"]
        meta = json.loads(text.decode() if isinstance(text, bytes) else text)
        del meta["watches"]["first_past_mach"]
        text = json.dumps(meta, sort_keys=True)
        h5.attrs["meta"], h5.attrs["meta_sha256"] = text, ckpt_io.digest(text)
    older = blow_up(tmp_path / "older", ckpt)
    assert older["step"] == want["step"] and older["where"]["first_past_mach"]["step"] >= 500, older["message"]


def test_the_peak_mach_of_a_run_stopped_between_two_checks_is_the_uninterrupted_runs(tmp_path):
    """A run that stops between two checks (a signal, the wall time, a Slurm job's --steps) checks its state there,
    off the check schedule: its history record was left out of the restart's, but its Mach and mass watches kept it,
    so that a chain's summary.json said another mach_local than the uninterrupted run's (channel_flow stopped by
    --wall-time at step 354: 0.10425 at step 354 for 0.09946 at step 1400). taylor_green2d decays: the check at
    step 5 is faster than any of the schedule's."""
    params = dict(n=16, check_every=10, progress_every=10)
    straight = make_sim("taylor_green2d", **params).run(200)
    _run_into(tmp_path, 5, "taylor_green2d", **params, checkpoint_every=100)
    second = make_sim("taylor_green2d", **params)
    second.out_dir = tmp_path
    second._restore("latest")
    assert second.step == 5
    restarted = second.run(200)
    assert straight["mach_local"]["step"] == 10, straight["mach_local"]
    for key in ("mach_local", "mass_drift_peak"):
        assert restarted[key] == straight[key], key
