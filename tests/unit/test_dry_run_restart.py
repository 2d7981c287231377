"""A restart's dry run says the restart's own decisions, in the run's words: the settings it keeps from the run it
continues, where it runs to, a blow-up after its checkpoint, a time average that starts again, nothing to run, the
earlier outputs missing from a new folder. Each test runs the dry run and then the real restart on the same folder and
finds the restart's line in the dry run's output; the dry run writes, moves and trims nothing."""

from __future__ import annotations

from helpers import tree

CAVITY = ("cavity2d", "--set", "n=16")


def _dry_then_real(cli, *args):
    """(the dry run's stdout + stderr, the restart's), the folder unchanged by the dry run."""
    out = args[args.index("--out") + 1]
    before = tree(out)
    rc, dry, err = cli("run", *args, "--dry-run")
    assert rc == 0, dry + err
    assert tree(out) == before  # read-only: nothing written, moved or trimmed
    rc, real, rerr = cli("run", *args)
    return dry + err, real + rerr, rc


def _lines(text, *starts):
    return [ln.strip() for ln in text.splitlines() if ln.strip().startswith(starts)]


def test_the_dry_run_says_the_settings_and_end_step_a_restart_keeps(cli, tmp_path):
    """A restart from an older checkpoint without --steps, --checkpoint-every or --output-every keeps the run's: the
    run said "checkpoints every 100 steps ... kept from the run this restart continues", "field output every 100
    steps ..." and "running to step 400, ..."; its dry run said none of it."""
    run = tmp_path / "run"
    rc, _, err = cli("run", *CAVITY, "--steps", 40, "--checkpoint-every", 10, "--output-every", 10, "--out", run)
    assert rc == 0, err
    dry, real, rc = _dry_then_real(cli, *CAVITY, "--restart", run / "checkpoints" / "ckpt_000000020.h5",
                                   "--out", run)
    assert rc == 0, real
    said = _lines(real, "checkpoints every", "field output every", "running to step")
    assert len(said) == 3, real
    for line in said:
        assert line in dry, (line, dry)


def test_the_dry_run_warns_of_a_blow_up_after_the_checkpoint(cli, tmp_path):
    """A run that blew up after its checkpoint: its restart warns that it reruns the same steps to the same blow-up
    (and names --init-from); the dry run, the check before a week's queue, said "ready" alone."""
    run = tmp_path / "run"
    unstable = ("cavity2d", "--set", "n=32", "--set", "re=100000", "--set", "u_lid=0.17", "--set", "check_every=10")
    rc, _, err = cli("run", *unstable, "--steps", 400, "--checkpoint-every", 20, "--out", run)
    assert rc == 4, err  # (blew up at step 110)
    dry, real, rc = _dry_then_real(cli, *unstable, "--restart", "--out", run)
    assert rc == 4, real
    said = _lines(real, "warning: this run was found blown up")
    assert said and said[0] in dry, (said, dry)


def test_the_dry_run_says_a_time_average_starts_again(cli, tmp_path):
    """A restart given another average_every starts the time average again (said by the run); its dry run said the
    field outputs hold rho_mean, u_mean and nothing of the average so far being dropped."""
    run = tmp_path / "run"
    rc, _, err = cli("run", *CAVITY, "--steps", 40, "--checkpoint-every", 20, "--output-every", 20,
                     "--set", "average_every=5", "--out", run)
    assert rc == 0, err
    dry, real, rc = _dry_then_real(cli, *CAVITY, "--restart", "--steps", 60, "--set", "average_every=10",
                                   "--out", run)
    assert rc == 0, real
    said = _lines(real, "note: the time average in")
    assert said and said[0] in dry, (said, dry)


def test_the_dry_run_of_a_restart_with_nothing_to_run_says_the_runs_line(cli, tmp_path):
    """At its end step already: the run said "nothing to run: the run is already at its end step 40 (--steps N to go
    further)", the dry run "steps: none to run (the run is at step 40, its end step 40)"."""
    run = tmp_path / "run"
    rc, _, err = cli("run", *CAVITY, "--steps", 40, "--checkpoint-every", 20, "--out", run)
    assert rc == 0, err
    dry, real, rc = _dry_then_real(cli, *CAVITY, "--restart", "--out", run)
    assert rc == 0, real
    said = _lines(real, "nothing to run")
    assert said == ["nothing to run: the run is already at its end step 40 (--steps N to go further)"], real
    assert said[0] in dry, dry


def test_the_dry_run_of_a_restart_into_a_new_folder_says_the_earlier_outputs_are_not_there(cli, tmp_path):
    """Into another folder: the run said that the earlier field outputs of the run are not in it (its XDMF series
    lists the outputs found there); the dry run said nothing of it."""
    run, new = tmp_path / "run", tmp_path / "new"
    rc, _, err = cli("run", *CAVITY, "--steps", 40, "--checkpoint-every", 20, "--output-every", 20, "--out", run)
    assert rc == 0, err
    dry, real, rc = _dry_then_real(cli, *CAVITY, "--restart", run, "--steps", 60, "--out", new)
    assert rc == 0, real
    said = _lines(real, "note: 3 earlier field output(s)")
    assert said and said[0] in dry, (said, dry)


def test_the_dry_run_says_the_sample_records_a_restart_drops(cli, tmp_path):
    """A restart of a run that died after its last good checkpoint (here: the later ones removed) drops the sample
    records after it ("note: 14 record(s) of samples.jsonl after step 19 dropped: this restart records them again
    ..."); the dry run said nothing of the records it trims."""
    run = tmp_path / "run"
    tgv = ("taylor_green3d", "--set", "n=16")
    rc, _, err = cli("run", *tgv, "--steps", 60, "--checkpoint-every", 20, "--out", run)
    assert rc == 0, err
    for step in (40, 60):
        (run / "checkpoints" / f"ckpt_{step:09d}.h5").unlink()
    dry, real, rc = _dry_then_real(cli, *tgv, "--restart", "--out", run)
    assert rc == 0, real
    said = _lines(real, "note: 14 record(s) of samples.jsonl after step 19 dropped")
    assert said and said[0] in dry, (said, dry)
