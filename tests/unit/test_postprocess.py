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
