"""What a user who post-processes a run's files reads: samples.jsonl, the summary, the field files and their XDMF
series, checked the way one reads them (json, h5py, the XML)."""

from __future__ import annotations

import json


def test_a_restart_that_leaves_out_the_runs_probes_says_their_series_end(cli, tmp_path):
    """A restart that does not give the run's `probes` (a job resubmitted with `--restart latest` alone) samples
    none of them: samples.jsonl's p_pt1, ux_pt1, ... ended at the restart's step and the summary's final values had
    none of them, unsaid (the output settings it does not give are kept, and said). It is said, with the --set that
    keeps them."""
    args = ("run", "channel_flow", "--set", "n=8", "--out", tmp_path)
    rc, out, err = cli(*args, "--steps", 100, "--checkpoint-every", 50, "--set", "probes=0.5,0.2; 1.0,0.1")
    assert rc == 0, err
    rc, out, err = cli(*args, "--steps", 150, "--restart")
    assert rc == 0, out + err
    recs = [json.loads(x) for x in (tmp_path / "samples.jsonl").read_text().splitlines()]
    assert "p_pt2" in recs[0] and "p_pt2" not in recs[-1]  # what the note is about: the series end
    assert ("note: this restart does not give the run's probes = '0.5,0.2; 1.0,0.1': their series in samples.jsonl "
            "(p_pt1, p_pt2, ux_pt1, ux_pt2, uy_pt1, uy_pt2) end at step 100") in out, out
    assert "--set 'probes=0.5,0.2; 1.0,0.1'" in out, out
    # given again: nothing to say
    rc, out, err = cli(*args, "--steps", 200, "--restart", "--set", "probes=0.5,0.2; 1.0,0.1")
    assert rc == 0 and "does not give the run's" not in out, out + err


def test_a_restart_that_gives_the_runs_averaging_cadence_goes_on_with_its_mean(cli, tmp_path):
    """A restart given --output-every and the run's own average_every, but not its average_stresses (kept from
    the run, said), judged the checkpoint's mean (6 values per cell) against its own settings before the kept ones
    (3): "average_stresses or compute_dtype changed: it starts again here", and then averaged the stresses from the
    restart's step: u_mean at step 40 was the mean of 4 samples from step 25, not of the run's 8 from step 5. The
    mean goes on with the uninterrupted run's bits (its files, set aside by the restart, are the reference)."""
    import h5py
    import numpy as np

    args = ("run", "cavity2d", "--set", "n=16", "--out", tmp_path, "--steps", 40, "--output-every", 20)
    rc, out, err = cli(*args, "--checkpoint-every", 20, "--set", "average_every=5", "--set", "average_stresses=true")
    assert rc == 0, err
    rc, out, err = cli(*args, "--set", "average_every=5", "--restart", tmp_path / "checkpoints" / "ckpt_000000020.h5")
    assert rc == 0, out + err
    assert "starts again" not in out, out
    ref = tmp_path / "fields" / "abandoned_after_000000020" / "fields_000000040.h5"  # the uninterrupted run's
    with h5py.File(ref) as a, h5py.File(tmp_path / "fields" / "fields_000000040.h5") as b:
        assert np.array_equal(a["u"][...], b["u"][...])  # the same flow: only the mean can differ
        for key in ("average_samples", "average_first_step"):
            assert a.attrs[key] == b.attrs[key], (key, a.attrs[key], b.attrs[key])
        for name in ("rho_mean", "u_mean", "uu_mean"):
            assert np.array_equal(a[name][...], b[name][...]), name


def test_a_restart_with_another_averaging_cadence_says_why_its_mean_starts_again(cli, tmp_path):
    """A restart given another average_every (and --output-every) of a run that averaged the stresses said that
    its mean started again because "average_stresses or compute_dtype changed" (6 values, "this run averages 3"),
    and then kept average_stresses: the cadence is what changed, and it says so."""
    args = ("run", "cavity2d", "--set", "n=16", "--out", tmp_path, "--steps", 40, "--output-every", 20)
    rc, out, err = cli(*args, "--checkpoint-every", 20, "--set", "average_every=5", "--set", "average_stresses=true")
    assert rc == 0, err
    rc, out, err = cli(*args, "--set", "average_every=10", "--steps", 60, "--restart")
    assert rc == 0, out + err
    assert "average_stresses or compute_dtype changed" not in out, out
    assert "was taken with other settings (average_every = 5 -> 10): it starts again, from step 40 on" in out, out
