"""distlbm.io.results: an earlier run's files in an output folder are found by their own names only, moved
into OUT/previous/ (replacing an older run's there), and a restart's samples.jsonl keeps the records up to
its checkpoint's step, each once."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from distlbm.io import results
from distlbm.io.files import WriteError


def _run_files(folder, steps=(10, 20, 30)):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "summary.json").write_text(json.dumps({"run_id": "aaaa", "step": steps[-1]}))
    (folder / "log.jsonl").write_text("".join(json.dumps({"step": s}) + "\n" for s in steps))
    (folder / "samples.jsonl").write_text("".join(json.dumps({"step": s, "cD": s / 10}) + "\n" for s in steps))
    for name in ("fields", "region", "slice_x12", "images"):
        (folder / name).mkdir()
        (folder / name / f"{name}_000000010.h5").write_bytes(b"h5")
    for name in ("fields.xdmf", "region.xdmf", "slice_x12.xdmf", "grid.h5"):
        (folder / name).write_text(name)


def test_products_are_the_runs_own_names_and_never_links(tmp_path):
    _run_files(tmp_path)
    for other in ("notes.txt", "mesh.stl", "slice_q3.xdmf", "region2.xdmf", "fieldsX"):
        (tmp_path / other).write_text("mine")
    (tmp_path / "checkpoints").mkdir()
    (tmp_path / "fields.xdmf").unlink()
    (tmp_path / "fields.xdmf").symlink_to(tmp_path / "notes.txt")  # a link: the writer refuses it, not moved
    (tmp_path / "log.jsonl").unlink()
    (tmp_path / "log.jsonl").mkdir()  # a folder at a file's name: left for the writer to refuse
    (tmp_path / "abandoned_after_000000020_2").mkdir()  # the sample records a restart set aside (io.abandoned)
    (tmp_path / "abandoned_after_x").mkdir()
    names = [p.name for p in results.products(tmp_path)]
    assert names == sorted(["summary.json", "samples.jsonl", "fields", "region", "slice_x12", "images",
                            "region.xdmf", "slice_x12.xdmf", "grid.h5", "abandoned_after_000000020_2"])
    assert results.products(tmp_path / "missing") == []


def test_set_aside_moves_them_and_replaces_an_older_runs(tmp_path):
    _run_files(tmp_path, steps=(10, 20))
    (tmp_path / "notes.txt").write_text("mine")
    msg = results.set_aside(tmp_path)
    assert "held an earlier run's results" in msg and "fields/ (1 output)" in msg and "removed" not in msg
    prev = tmp_path / "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "previous"]
    assert (prev / "samples.jsonl").read_text().count("\n") == 2 and (prev / "fields" / "fields_000000010.h5").exists()
    assert results.set_aside(tmp_path) is None  # nothing left to move
    (tmp_path / "fields").mkdir()
    assert results.set_aside(tmp_path) is None and (tmp_path / "fields").is_dir()  # a folder alone is no run's
    (tmp_path / "fields").rmdir()

    _run_files(tmp_path, steps=(10, 20, 30))
    (prev / "fields" / "fields_000000020.h5").write_bytes(b"h5")  # the older run had more outputs
    (prev / "kept.txt").write_text("mine")
    msg = results.set_aside(tmp_path)
    assert "the older run's results that were there are removed" in msg
    assert (prev / "samples.jsonl").read_text().count("\n") == 3
    assert sorted(p.name for p in (prev / "fields").iterdir()) == ["fields_000000010.h5"]
    assert (prev / "kept.txt").read_text() == "mine"


def test_the_results_of_a_long_run_are_never_removed_to_make_room_in_previous(tmp_path):
    """previous/ keeps one earlier run: a week-long run without checkpoints was set aside by one re-run into its
    folder (the default out/CASE) and removed by the next. Results of a run of an hour or more (its summary's
    wall time, or its log's last for a run killed before its summary) are moved into a folder of their own beside
    previous/ (named by the run's start), never removed; a short run's are removed as before."""
    def long_run(folder, wall, started="2026-12-01 08:00:00 UTC", summary=True):
        _run_files(folder)
        (folder / "log.jsonl").write_text(json.dumps({"event": "start", "step": 0, "started": started}) + "\n"
                                          + json.dumps({"step": 30, "wall_s": wall}) + "\n")
        if summary:
            (folder / "summary.json").write_text(json.dumps({"run_id": "week", "wall_time_s": wall}))
        else:
            (folder / "summary.json").unlink()

    long_run(tmp_path, 7 * 86400.0)
    assert "removed" not in results.set_aside(tmp_path)  # the week's run into previous/
    _run_files(tmp_path)  # a quick re-run
    msg = results.set_aside(tmp_path)
    kept = tmp_path / "previous_20261201-080000"
    assert f"the older run's results that were there (a run of 168.0 h) are kept in {kept}/" in msg, msg
    assert "never removed" in msg and "are removed" not in msg, msg
    assert json.loads((kept / "summary.json").read_text())["run_id"] == "week" and (kept / "fields").is_dir()
    assert json.loads((tmp_path / "previous" / "summary.json").read_text())["run_id"] == "aaaa"
    # the next quick re-run removes the quick one's results from previous/, as before; the week's stay
    _run_files(tmp_path)
    assert "the older run's results that were there are removed" in results.set_aside(tmp_path)
    assert json.loads((kept / "summary.json").read_text())["run_id"] == "week"
    # a long run killed before its summary: its log's last wall time; one started at the same second: a free name
    shutil.rmtree(tmp_path / "previous")
    long_run(tmp_path / "previous", 2 * 3600.0, summary=False)
    (tmp_path / "previous" / "summary.json").write_text("{}")  # (an unreadable summary says nothing)
    _run_files(tmp_path)
    msg = results.set_aside(tmp_path)
    assert f"(a run of 2.0 h) are kept in {tmp_path / 'previous_20261201-080000_2'}/" in msg, msg
    assert results.run_wall_s(tmp_path / "missing") == 0.0


def test_the_results_of_a_long_chain_of_jobs_are_never_removed_to_make_room_in_previous(tmp_path):
    """A Slurm chain's results: one log.jsonl of several parts (each job a restart from the last one's checkpoint,
    its wall time counted from its own start), the summary the last job's. The last job alone (20 minutes: the
    steps left) judged the run: a week's chain, its checkpoints removed, was set aside by a quick re-run into its
    folder and removed by the next. Its parts' wall times add up."""
    _run_files(tmp_path)
    parts = [(0, 40 * 3600.0), (1000, 40 * 3600.0), (2000, 1200.0)]
    (tmp_path / "log.jsonl").write_text("".join(
        json.dumps({"event": "start", "step": step, "started": "2026-12-01 08:00:00 UTC"}) + "\n"
        + json.dumps({"step": step + 500, "wall_s": wall / 2}) + "\n" + json.dumps({"step": step + 1000, "wall_s": wall})
        + "\n" + json.dumps({"event": "end", "step": step + 1000, "status": "stopped"}) + "\n"
        for step, wall in parts) + '{"step": 3100, "wall_s": 99')  # (a last line cut by a kill)
    (tmp_path / "summary.json").write_text(json.dumps({"run_id": "chain", "wall_time_s": 1200.0}))
    assert results.run_wall_s(tmp_path) == 80 * 3600.0 + 1200.0
    results.set_aside(tmp_path)
    _run_files(tmp_path)  # a quick re-run
    msg = results.set_aside(tmp_path)
    assert "(a run of 80.3 h) are kept in" in msg and "are removed" not in msg, msg
    assert json.loads((tmp_path / "previous_20261201-080000" / "summary.json").read_text())["run_id"] == "chain"


@pytest.mark.parametrize("make", [lambda p, t: p.write_text("a file"), lambda p, t: p.symlink_to(t)])
def test_set_aside_refuses_a_previous_that_is_not_a_folder(tmp_path, make):
    _run_files(tmp_path)
    target = tmp_path.parent / f"{tmp_path.name}_target"
    target.mkdir()
    make(tmp_path / "previous", target)
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(WriteError, match="previous failed: it is not a folder; expected a folder"):
        results.set_aside(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == before and list(target.iterdir()) == []


def test_trim_samples_keeps_each_record_up_to_the_checkpoint_once(tmp_path):
    path = tmp_path / "samples.jsonl"
    recs = [{"step": s, "cD": s} for s in (10, 20, 30, 40)]
    text = "".join(json.dumps(r) + "\n" for r in recs)
    path.write_text(text + json.dumps({"step": 20, "cD": -1}) + "\n" + '{"step": 30, "cD"')  # a repeat; a cut line
    assert results.trim_samples(tmp_path, 20) == 4
    assert [json.loads(x) for x in path.read_text().splitlines()] == recs[:2]
    assert results.trim_samples(tmp_path, 20) == 0 and results.trim_samples(tmp_path / "none", 5) == 0
    assert results.trim_samples(tmp_path, 0) == 2 and path.read_text() == ""
    assert results.trim_samples(tmp_path, 0) == 0  # empty


def test_trim_samples_reads_only_the_end_when_nothing_follows_the_checkpoint(tmp_path):
    """A restart after a stop at a checkpoint (every Slurm resubmission) leaves a long run's samples.jsonl as it
    is: the same file (not rewritten), whatever lies before its last record."""
    import os

    path = tmp_path / "samples.jsonl"
    path.write_text("".join(json.dumps({"step": s, "cD": 1.0}) + "\n" for s in range(10, 200001, 10)))
    inode = os.stat(path).st_ino
    assert results.trim_samples(tmp_path, 200000) == 0 and os.stat(path).st_ino == inode
    assert results.trim_samples(tmp_path, 199990) == 1 and os.stat(path).st_ino != inode
    assert path.read_text().count("\n") == 19999


def test_run_of_reads_the_last_start_record_then_the_summary(tmp_path):
    assert results.run_of(tmp_path) is None
    (tmp_path / "summary.json").write_text(json.dumps({"run_id": "fromsummary"}))
    assert results.run_of(tmp_path) == "fromsummary"
    (tmp_path / "log.jsonl").write_text("\n".join([
        json.dumps({"event": "start", "run_id": "one"}), json.dumps({"step": 10}), "not json \"start\"",
        json.dumps({"event": "start", "run_id": "two"}), json.dumps({"step": 20, "note": "start"})]) + "\n")
    assert results.run_of(tmp_path) == "two"
    (tmp_path / "summary.json").write_text("[1, 2]")
    (tmp_path / "log.jsonl").write_text("")
    assert results.run_of(tmp_path) is None


def test_a_fifo_at_a_log_or_summary_name_never_blocks(tmp_path):
    """Reading the run id of a folder with a FIFO at log.jsonl or summary.json returned nothing, at once (an open
    for reading blocks until a writer comes); the FIFO is no run file either (the log's writer refuses it)."""
    import os

    os.mkfifo(tmp_path / "log.jsonl")
    os.mkfifo(tmp_path / "summary.json")
    assert results.starts(tmp_path) == [] and results.run_of(tmp_path) is None
    assert results.products(tmp_path) == [] and results.set_aside(tmp_path) is None
    from distlbm.status import folder_status

    st = folder_status(tmp_path)  # `distlbm status` reads both (it blocked on the log's FIFO before)
    assert "progress" not in st and "summary" not in st and st["parts"] == []



def test_the_folders_of_numbered_files(tmp_path):
    """Where a write killed midway leaves its temporary: checkpoints/, fields/ and the light outputs' folders."""
    for d in ("region", "slice_x3", "images", "slice_q3"):
        (tmp_path / d).mkdir()
    (tmp_path / "slice_y7.xdmf").write_text("")
    os.symlink(tmp_path / "images", tmp_path / "slice_z1")  # a link at such a name is not a run's folder
    assert results.numbered_folders(tmp_path) == [tmp_path / "checkpoints", tmp_path / "fields", tmp_path / "region",
                                                  tmp_path / "slice_x3"]


def _long_samples(path, n):
    """n records of thirteen numbers (~360 bytes each, a channel's forces and two probes), steps 1 .. n."""
    rec = {f"q{k}": 0.123456789012345 + k for k in range(11)}
    with open(path, "w") as fh:
        for s in range(1, n + 1):
            fh.write(json.dumps({"step": s, "time": s * 1e-3, **rec}) + "\n")
    return os.path.getsize(path)


def test_trim_samples_after_a_crash_holds_no_more_than_a_line_of_a_long_series(tmp_path):
    """A restart after a crash (records after its checkpoint's step) rewrote samples.jsonl from the whole file's bytes
    and a (line, dict) pair of every record, all held at once: ~10 times the file (226 MB: 2.2 GB RSS, measured; a
    week sampled every step, 3.6 GB: ~35 GB, an out-of-memory kill on the restart that follows a node failure). It
    streams now: the Python memory it takes at its peak is bounded, whatever the file's length."""
    import tracemalloc

    path = tmp_path / "samples.jsonl"
    size = _long_samples(path, 20000)  # ~7 MB
    tracemalloc.start()
    try:
        dropped = results.trim_samples(tmp_path, 19990, [b'{"step": 19995, "cD": 1.0}\n'])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert dropped == 10
    assert peak < 1 << 20, f"peak {peak} bytes for a {size}-byte samples.jsonl"
    lines = path.read_bytes().splitlines()
    assert len(lines) == 19991 and json.loads(lines[-2])["step"] == 19990 and lines[-1] == b'{"step": 19995, "cD": 1.0}'
    assert [json.loads(x)["step"] for x in lines[:3]] == [1, 2, 3]


def test_samples_after_holds_only_the_records_after_the_step(tmp_path):
    """A restart from an older checkpoint sets aside the records after its step: those alone are kept, the file is
    read line by line (it read the whole file's bytes and split them: twice the file at once)."""
    import tracemalloc

    size = _long_samples(tmp_path / "samples.jsonl", 20000)
    tracemalloc.start()
    try:
        after = results.samples_after(tmp_path, 19997)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [s for _, s in after] == [19998, 19999, 20000] and after[0][0].endswith(b"\n")
    assert peak < 1 << 20, f"peak {peak} bytes for a {size}-byte samples.jsonl"


def test_copy_samples_streams_a_long_series_into_another_folder(tmp_path):
    """A restart into another folder copies the run's records up to its checkpoint: line by line (the driver's
    samples_copy held a (line, record) pair of every record, ~10 times the file)."""
    import tracemalloc

    src, dst = tmp_path / "run" / "samples.jsonl", tmp_path / "new" / "samples.jsonl"
    src.parent.mkdir()
    dst.parent.mkdir()
    size = _long_samples(src, 20000)
    with open(src, "a") as fh:
        fh.write(json.dumps({"step": 5, "cD": 0.0}) + "\n")  # a repeat, left out
    tracemalloc.start()
    try:
        got = results.copy_samples(src, dst, 19990)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == (19990, 1, 19990)
    assert peak < 1 << 20, f"peak {peak} bytes for a {size}-byte samples.jsonl"
    assert dst.read_bytes() == b"".join(src.read_bytes().splitlines(keepends=True)[:19990])
    assert results.copy_samples(src, tmp_path / "new" / "none.jsonl", 0) == (0, None, None)
    assert not (tmp_path / "new" / "none.jsonl").exists()
    with pytest.raises(OSError):
        results.copy_samples(tmp_path / "missing.jsonl", dst, 10)


def test_the_dry_runs_count_of_a_series_without_records_up_to_the_checkpoint_is_none(tmp_path):
    """The dry run's count (copy_samples(src, None, upto)) of a samples.jsonl with no record up to the checkpoint (an
    empty file; records of later steps only) was copy_samples' own internal _Empty exception, a traceback out of
    `distlbm run ... --restart CKPT --out OTHER --dry-run`; the run's copy said nothing and wrote nothing."""
    src = tmp_path / "samples.jsonl"
    src.write_text("")
    assert results.copy_samples(src, None, 10) == (0, None, None)
    src.write_text(json.dumps({"step": 50, "cD": 0.0}) + "\n")
    assert results.copy_samples(src, None, 10) == (0, None, None)
    assert results.copy_samples(src, tmp_path / "dst.jsonl", 10) == (0, None, None)
    assert not (tmp_path / "dst.jsonl").exists()
    assert results.copy_samples(src, None, 50) == (1, 50, 50)


def test_a_restart_into_another_folder_copies_and_its_dry_run_counts_the_samples_line_by_line(tmp_path):
    """The driver's copy (driver.restart.samples_into_new_folder) and the dry run's count (samples_copy) read the
    run's samples.jsonl line by line: they held a (line, record) pair of every record (~10 times the file: 1.31 GB
    for a 226 MB series)."""
    import tracemalloc

    from distlbm.driver import restart

    run, new = tmp_path / "run", tmp_path / "new"
    (run / "checkpoints").mkdir(parents=True)
    new.mkdir()
    ckpt = run / "checkpoints" / "ckpt_00019990.h5"
    size = _long_samples(run / "samples.jsonl", 20000)
    said = []
    for write in (False, True):
        tracemalloc.start()
        try:
            if write:
                restart.samples_into_new_folder(new, str(ckpt), 19990, 19990, said.append)
            else:
                copy = restart.samples_copy(str(ckpt), new, 19990)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 1 << 20, f"peak {peak} bytes for a {size}-byte samples.jsonl (write={write})"
    assert copy[2:] == ((19990, 1, 19990), None)
    assert restart.samples_copy_line(copy, 19990, "are copied").startswith(
        "note: 19990 sample record(s) of the run this restart continues (steps 1 to 19990) are copied")
    assert said == [restart.samples_copy_line(copy, 19990)]
    src = (run / "samples.jsonl").read_bytes()
    assert (new / "samples.jsonl").read_bytes() == b"".join(src.splitlines(keepends=True)[:19990])
    (tmp_path / "odd" / "checkpoints").mkdir(parents=True)
    (tmp_path / "odd" / "samples.jsonl").mkdir()  # not a file: said, and the copy begins none
    said.clear()
    restart.samples_into_new_folder(tmp_path / "odd2", str(tmp_path / "odd" / "checkpoints" / "c.h5"), 5, 5,
                                    said.append)
    assert len(said) == 1 and said[0].startswith("warning: the run's sample records in ") and "not a regular file" in \
        said[0] and not (tmp_path / "odd2").exists()


def test_samples_set_aside_by_a_restart_from_an_older_checkpoint_are_written_line_by_line(tmp_path):
    """A restart from an older checkpoint writes the records after its step into OUT/abandoned_after_STEP/: they were
    joined into one bytes object, decoded to a str and encoded again by write_text: three more copies at once of what
    may be most of a long series (a restart from a checkpoint half way through a week's 3.6 GB: ~5 GB more). They
    are written line by line now."""
    import tracemalloc

    from distlbm.io import abandoned

    size = _long_samples(tmp_path / "samples.jsonl", 20000)
    after = results.samples_after(tmp_path, 10)
    assert len(after) == 19990
    (tmp_path / "checkpoints").mkdir()
    plan = abandoned.Plan(10, "abandoned_after_000000010", [], {}, tuple(after))
    tracemalloc.start()
    try:
        abandoned.set_aside(plan, tmp_path, tmp_path / "checkpoints")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, f"peak {peak} bytes for a {size}-byte samples.jsonl"
    assert (tmp_path / plan.name / "samples.jsonl").read_bytes() == b"".join(line for line, _ in after)


def test_samples_taken_back_from_a_set_aside_history_are_read_line_by_line(tmp_path):
    """A restart from a checkpoint that an earlier restart set aside takes back the records of the steps it continues
    from OUT/abandoned_after_AT/samples.jsonl: that file was read whole and split, a (line, record) pair of each of
    its records held at once (the set-aside continuation may be most of a long series). It is read line by line."""
    import tracemalloc

    from distlbm.io import abandoned

    name = "abandoned_after_000000010"
    (tmp_path / name).mkdir()
    size = _long_samples(tmp_path / name / "samples.jsonl", 20000)
    restored = tmp_path / "checkpoints" / name / "checkpoint_000000015.h5"
    tracemalloc.start()
    try:
        back = abandoned.taken_back(restored, tmp_path, 10, 15)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [s for _, s in back] == [11, 12, 13, 14, 15] and back[0][0].endswith(b"\n")
    assert peak < 1 << 20, f"peak {peak} bytes for a {size}-byte samples.jsonl"
