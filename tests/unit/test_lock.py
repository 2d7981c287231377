"""distlbm.io.lock: one run per output folder at a time. The kernel lock across processes is tested with a
real second process in tests/parallel/test_reliability.py; here the record that stands in where locks are
per node or absent: who counts as live, what is taken over, the one-line refusal, the wait, the heartbeat."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from distlbm.errors import ConfigError
from distlbm.io import lock


def _record(folder, age=0.0, **fields):
    rec = {"format": lock.FORMAT, "host": "node17", "pid": 4242, "job": "5678", "started": "2026-12-02 10:00:00 UTC",
           "command": "distlbm run box", "stale_after_s": lock.STALE_AFTER_S, "ended": False, **fields}
    path = folder / lock.NAME
    path.write_text(json.dumps(rec))
    t = time.time() - age
    os.utime(path, (t, t))
    return path


def _read(folder):
    return json.loads((folder / lock.NAME).read_text())


def test_a_run_holds_the_folder_and_says_who_when_it_ends(tmp_path):
    held = lock.acquire(tmp_path, wait=0)
    rec = _read(tmp_path)
    assert rec["pid"] == os.getpid() and rec["host"] == socket.gethostname() and rec["ended"] is False
    assert held.warning is None
    again = lock.acquire(tmp_path, wait=0)  # a second Simulation in this process shares it
    again.release()
    assert _read(tmp_path)["ended"] is False  # still held by the first
    assert lock.holder(tmp_path) is None  # this process's own hold is not "another run"
    held.release()
    assert _read(tmp_path)["ended"] is True
    held.release()  # twice is harmless
    assert lock.holder(tmp_path) is None


def test_a_held_folder_is_moved_when_it_is_no_longer_at_its_path_not_when_its_lock_file_alone_is_gone(tmp_path):
    """FolderLock.moved: the lock file removed from a folder left in place (a user who took the run for dead, as a
    refused run's line says to remove it) was said 'moved or removed (removed)': every write of the run failed,
    exit 74 with no checkpoint, its folder where it was. The folder moved or removed is still said."""
    run, other = tmp_path / "run", tmp_path / "other"
    held = lock.acquire(run, wait=0)
    assert held.moved() is None
    (run / lock.NAME).unlink()
    assert held.moved() is None
    (run / lock.NAME).write_text("{}")  # another file at its name: the folder is still this run's
    assert held.moved() is None
    held.release()
    held = lock.acquire(other, wait=0)
    other.rename(tmp_path / "old")
    assert held.moved() == str(tmp_path / "old")
    other.mkdir()  # another folder at its path
    assert held.moved() == str(tmp_path / "old")
    shutil.rmtree(tmp_path / "old")
    assert held.moved() == ""
    held.release()


def test_a_live_run_on_another_node_is_refused_with_one_line(tmp_path):
    _record(tmp_path, age=20)
    with pytest.raises(lock.FolderInUse) as e:
        lock.acquire(tmp_path, wait=0)
    msg = str(e.value)
    assert "\n" not in msg
    for part in ("--out", "another distlbm run is using this folder", "pid 4242 on host node17", "Slurm job 5678",
                 "last seen 20s ago", "another --out", str(tmp_path / lock.NAME),
                 f"taken over once unseen for {lock.STALE_AFTER_S:.0f} s, in {lock.STALE_AFTER_S - 20:.0f} s"):
        assert part in msg, part
    assert isinstance(e.value, ConfigError)  # exit status 2: nothing ran
    assert "node17" in lock.holder(tmp_path)
    assert _read(tmp_path)["pid"] == 4242  # the refused run wrote nothing


@pytest.mark.parametrize("how", ["stale", "ended", "dead pid here", "not a record"])
def test_records_of_runs_that_no_longer_run_are_taken_over(tmp_path, how):
    if how == "stale":
        _record(tmp_path, age=lock.STALE_AFTER_S + 5)
    elif how == "ended":
        _record(tmp_path, ended=True)
    elif how == "dead pid here":
        p = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
        _record(tmp_path, host=socket.gethostname(), pid=int(p.stdout))
    else:
        (tmp_path / lock.NAME).write_text("garbage {")
    held = lock.acquire(tmp_path, wait=0)
    assert _read(tmp_path)["pid"] == os.getpid()
    held.release()


def test_a_longer_quiet_time_is_announced_in_the_record(tmp_path):
    held = lock.acquire(tmp_path, wait=0)
    held.keep_for(10.0)
    assert _read(tmp_path)["stale_after_s"] == lock.STALE_AFTER_S  # 3 x 10 s is inside the default
    held.keep_for(400.0)
    assert _read(tmp_path)["stale_after_s"] == 1200.0  # a 400 s checkpoint write: quiet up to 3x that
    held.release()
    _record(tmp_path, age=lock.STALE_AFTER_S + 60, stale_after_s=1200.0)  # such a run, quiet for 6 min: live
    with pytest.raises(lock.FolderInUse):
        lock.acquire(tmp_path, wait=0)


def test_the_heartbeat_renews_the_record(tmp_path):
    held = lock.acquire(tmp_path, wait=0)
    old = time.time() - 200
    os.utime(tmp_path / lock.NAME, (old, old))
    lock.renew()
    assert time.time() - os.stat(tmp_path / lock.NAME).st_mtime < 5
    assert any(t.name == "distlbm-lock-heartbeat" and t.daemon for t in threading.enumerate())
    held.release()


def test_waiting_for_the_folder_says_so_then_refuses_or_takes_it(tmp_path):
    _record(tmp_path, age=0)
    said = []
    t0 = time.monotonic()
    with pytest.raises(lock.FolderInUse):
        lock.acquire(tmp_path, wait=1.0, say=lambda msg, **k: said.append(msg))
    assert time.monotonic() - t0 >= 1.0
    assert len(said) == 1 and "waiting up to 1 s" in said[0] and "DISTLBM_LOCK_WAIT" in said[0]

    # the holder ends while we wait: taken (its record replaced whole, as a rename: a record half written
    # would read as no record)
    def end():
        _record(tmp_path / "staged", ended=True)
        os.replace(tmp_path / "staged" / lock.NAME, tmp_path / lock.NAME)

    (tmp_path / "staged").mkdir()
    timer = threading.Timer(0.5, end)
    timer.start()
    held = lock.acquire(tmp_path, wait=10.0, say=lambda msg, **k: None)
    timer.join()
    assert _read(tmp_path)["pid"] == os.getpid()
    held.release()


@pytest.mark.parametrize("value", ["soon", "-1", "nan", "", "inf", "1e400", "1_0", "\u0661", "1,5", "0x10"])
def test_a_bad_wait_setting_is_one_line(tmp_path, monkeypatch, value):
    """Seconds in plain decimals, as the other seconds of the environment: float() read '\u0661' (an Arabic-Indic 1)
    as 1 s, '1_0' as 10 and 'inf' as a wait with no end, while '' was refused."""
    monkeypatch.setenv("DISTLBM_LOCK_WAIT", value)
    with pytest.raises(ConfigError, match=f"DISTLBM_LOCK_WAIT = '{value}': expected seconds"):
        lock.acquire(tmp_path)


@pytest.mark.parametrize("value, seconds", [("0", 0.0), ("360", 360.0), (" 1.5 ", 1.5), ("2e1", 20.0), (".5", 0.5)])
def test_a_wait_setting_in_plain_decimals_is_read(monkeypatch, value, seconds):
    monkeypatch.setenv("DISTLBM_LOCK_WAIT", value)
    assert lock.lock_wait() == seconds


def test_a_link_or_folder_at_the_lock_name_is_refused(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_text("keep me")
    (tmp_path / lock.NAME).symlink_to(target)
    with pytest.raises(ConfigError, match="symbolic link"):
        lock.acquire(tmp_path, wait=0)
    assert target.read_text() == "keep me"
    (tmp_path / lock.NAME).unlink()
    (tmp_path / lock.NAME).mkdir()
    with pytest.raises(ConfigError, match="lock file"):
        lock.acquire(tmp_path, wait=0)


def test_without_file_locks_the_record_still_guards_and_a_warning_says_what_is_lost(tmp_path, monkeypatch):
    def no_locks(fd, op):
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(fcntl, "flock", no_locks)
    _record(tmp_path, host=socket.gethostname(), pid=os.getppid())  # a live process on this host
    with pytest.raises(lock.FolderInUse):
        lock.acquire(tmp_path, wait=0)
    _record(tmp_path, ended=True)
    held = lock.acquire(tmp_path, wait=0)
    assert "has no file locks" in held.warning and "could not be detected" in held.warning
    held.release()


def test_a_stop_signal_ends_the_wait(tmp_path):
    _record(tmp_path, age=0)
    t0 = time.monotonic()
    with pytest.raises(lock.FolderInUse, match="stopped by a signal while waiting"):
        lock.acquire(tmp_path, wait=60.0, say=lambda msg, **k: None, stopped=lambda: time.monotonic() - t0 > 0.3)
    assert time.monotonic() - t0 < 5


def test_status_reads_the_record_without_taking_the_lock(tmp_path, monkeypatch, cli):
    """`distlbm status` in a watch loop must never make a starting run find its folder busy: it reads."""
    def no_locking(fd, op):
        raise AssertionError("status took the lock")

    _record(tmp_path, age=10)
    monkeypatch.setattr(fcntl, "flock", no_locking)
    assert lock.read_holder(tmp_path)[0] == "running"
    _record(tmp_path, age=lock.STALE_AFTER_S + 1)
    assert lock.read_holder(tmp_path)[0] == "gone"
    _record(tmp_path, ended=True)
    assert lock.read_holder(tmp_path)[0] == "ended"
    (tmp_path / "checkpoints").mkdir()
    (tmp_path / "checkpoints" / "ckpt_000000010.h5").write_bytes(b"not hdf5")
    rc, out, err = cli("status", tmp_path)
    assert rc == 0, err
    assert "not running (the last run ended)" in out and "checkpoints: none" in out
    assert "checkpoint ckpt_000000010.h5 does not verify" in out
    rc, out, err = cli("status", tmp_path / "nothere")
    assert rc == 2 and "no such run folder" in err and len(err.strip().splitlines()) == 1


def test_status_skips_a_checkpoint_pruned_while_it_reads(tmp_path, monkeypatch, cli):
    """A run prunes its checkpoints while `distlbm status` lists them: one read and then pruned is skipped (a
    FileNotFoundError traceback before, seen with a run checkpointing every few milliseconds)."""
    from distlbm.io import checkpoint as ckpt

    _record(tmp_path, ended=True)
    (tmp_path / "checkpoints").mkdir()
    for s in (10, 20):
        (tmp_path / "checkpoints" / f"ckpt_{s:09d}.h5").write_bytes(b"")

    def read_then_pruned(p):
        step = int(p.name[5:14])
        if step == 10:
            p.unlink()
        return {"step": step, "run_id": "r"}

    monkeypatch.setattr(ckpt, "read_meta", read_then_pruned)
    rc, out, err = cli("status", tmp_path, "--json")
    assert rc == 0 and "Traceback" not in err, err
    assert [c["step"] for c in json.loads(out)["checkpoints"]] == [20]


def test_status_of_a_log_whose_progress_line_holds_no_numbers_shows_what_it_can(tmp_path, cli):
    """A progress line of log.jsonl with a value that is not a number (hand-edited, or written by another tool):
    `distlbm status` was a ValueError traceback; it leaves that value out."""
    _record(tmp_path, ended=True)
    (tmp_path / "log.jsonl").write_text(json.dumps({"step": 3, "end": "x", "mlups": "fast", "eta_s": None,
                                                    "mass_drift": [1]}) + "\n" + json.dumps({"step": True}) + "\n")
    rc, out, err = cli("status", tmp_path)
    assert rc == 0 and "Traceback" not in err, err
    assert "  progress: step 3 (log.jsonl" in out, out
    rc, out, err = cli("status", tmp_path, "--json")
    assert rc == 0 and json.loads(out)["progress"]["end"] is None, out
    # integers too long for a float (JSON holds any length): an OverflowError traceback
    huge = "9" * 400
    (tmp_path / "log.jsonl").write_text('{"step": 3, "end": 10}\n{"step": 5, "end": %s, "mlups": %s}\n'
                                        '{"step": %s, "end": 10}\n' % (huge, huge, huge))
    rc, out, err = cli("status", tmp_path)
    assert rc == 0 and "Traceback" not in err, err
    assert "  progress: step 5 (log.jsonl" in out, out


def test_status_of_several_folders_says_a_missing_one_and_shows_the_others(tmp_path, cli):
    """`distlbm status run1 typo run3` stopped at the typo and showed nothing of the others."""
    for name in ("a", "c"):
        (tmp_path / name).mkdir()
        _record(tmp_path / name, ended=True)
    rc, out, err = cli("status", tmp_path / "a", tmp_path / "b", tmp_path / "c")
    assert rc == 2 and f"{tmp_path / 'a'}: not running" in out and f"{tmp_path / 'c'}: not running" in out, out
    assert err.strip() == f"distlbm: configuration error: {str(tmp_path / 'b')!r}: no such run folder; expected " \
                          f"the --out folder of a run", err
    rc, out, err = cli("status", tmp_path / "a", tmp_path / "b", "--json")
    assert rc == 2 and [st["folder"] for st in json.loads(out)] == [str(tmp_path / "a")], out


def test_status_without_h5py_names_the_folders_whose_checkpoints_it_cannot_read(tmp_path, cli, monkeypatch):
    """Without h5py a folder with checkpoints cannot be shown (said once, however many); `distlbm status out/` showed
    the others and said "h5py: ... distlbm status reads the run's checkpoints" without naming the runs left out."""
    for name in ("a", "b", "c"):
        (tmp_path / name).mkdir()
        _record(tmp_path / name, ended=True)
        (tmp_path / name / "log.jsonl").write_text("")
    for name in ("a", "c"):
        (tmp_path / name / "checkpoints").mkdir()
        (tmp_path / name / "checkpoints" / "ckpt_000000010.h5").write_bytes(b"")
    monkeypatch.setitem(sys.modules, "h5py", None)  # (import h5py: an ImportError)
    rc, out, err = cli("status", tmp_path)
    assert rc == 2 and f"{tmp_path / 'b'}: not running" in out and "/a:" not in out and "/c:" not in out, out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "h5py: cannot be imported here" in lines[0], err
    named = f"{str(tmp_path / 'a')!r}, {str(tmp_path / 'c')!r}"
    assert lines[0].startswith(f"distlbm: configuration error: {named}: h5py: cannot be imported here"), err
    rc, out, err = cli("status", tmp_path / "a")  # the folder named alone: the line as it was
    assert rc == 2 and err.startswith("distlbm: configuration error: h5py: cannot be imported here"), err


def test_status_json_of_a_folder_of_runs_is_a_list_however_many_it_holds(tmp_path, cli):
    """`distlbm status sweep --json` gave a list for a sweep of two runs but the one object for a sweep of one (its
    first member started, the others queued): a script reading the list broke on it. A folder of run folders (and
    out/ by default) gives a list; one run folder named gives its object."""
    sweep = tmp_path / "sweep"
    for name in ("re50", "re100"):
        (sweep / name).mkdir(parents=True)
        _record(sweep / name, ended=True)
        (sweep / name / "log.jsonl").write_text(json.dumps({"event": "start", "step": 0}) + "\n")
        rc, out, err = cli("status", sweep, "--json")
        assert rc == 0, err
        assert isinstance(json.loads(out), list) and len(json.loads(out)) == len(list(sweep.iterdir())), out
    rc, out, err = cli("status", sweep / "re50", "--json")
    assert rc == 0 and json.loads(out)["folder"] == str(sweep / "re50"), out
    # a run named and also found in the folder of runs named with it is shown once (it was listed twice)
    rc, out, err = cli("status", sweep / "re50", sweep, "--json")
    assert rc == 0 and sorted(Path(x["folder"]).name for x in json.loads(out)) == ["re100", "re50"], out


def test_status_says_the_temporaries_of_interrupted_writes_of_a_run_not_running(tmp_path, cli):
    """A write killed midway leaves a temporary as large as the checkpoint: a user whose quota is full sees it in
    `distlbm status`; a running run's temporaries are its writes in progress, not said."""
    (tmp_path / "checkpoints").mkdir()
    (tmp_path / "checkpoints" / "ckpt_000000045.h5.tmp").write_bytes(b"x" * 8192)
    _record(tmp_path, age=lock.STALE_AFTER_S + 1)  # killed: its record was never marked ended
    rc, out, err = cli("status", tmp_path)
    assert rc == 0, err
    assert "  1 temporary file(s) of writes that were interrupted (killed while writing), 8.00 KiB: " \
           "checkpoints/ckpt_000000045.h5.tmp; the next run in this folder removes them" in out, out
    _record(tmp_path, age=1)  # running
    rc, out, err = cli("status", tmp_path, "--json")
    assert rc == 0 and json.loads(out)["interrupted"] == [], out


def test_status_says_the_kept_results_of_earlier_long_runs(tmp_path, cli):
    """A long run's results set aside twice are kept in previous_<its start>/ (never removed): `distlbm status`
    names those folders, so that a user looking for a week's results finds them (and knows to remove them)."""
    from distlbm.io import results

    _record(tmp_path, ended=True)
    for stamp in ("20261201-080000", "20261203-120000"):
        (tmp_path / f"{results.PREVIOUS}_{stamp}").mkdir()
    (tmp_path / f"{results.PREVIOUS}_notes.txt").write_text("a file, not a run's folder")
    rc, out, err = cli("status", tmp_path)
    assert rc == 0, err
    assert ("  previous_20261201-080000/, previous_20261203-120000/: the results of earlier runs of an hour or more, "
            "kept") in out, out
    rc, out, err = cli("status", tmp_path, "--json")
    assert json.loads(out)["kept_runs"] == ["previous_20261201-080000", "previous_20261203-120000"], out


def test_a_record_rewritten_shorter_still_reads_whole(tmp_path):
    (tmp_path / lock.NAME).write_text(json.dumps({"format": lock.FORMAT, "command": "x" * 2000, "ended": True}))
    held = lock.acquire(tmp_path, wait=0)
    assert _read(tmp_path)["pid"] == os.getpid()  # the shorter record, padded: valid JSON
    held.release()
    assert _read(tmp_path)["ended"] is True


def test_status_says_a_run_that_wrote_no_end_record_did_not_end(tmp_path, cli):
    """One process of a run under mpiexec killed (the OOM killer): another left and marked the folder's record
    ended, and `distlbm status` said "the last run ended". Each part of a run now ends its log.jsonl with an
    `end` record; a start without one did not end, and one that ended on an error says it."""
    rc, out, err = cli("run", "box", "--set", "n=8", "--steps", 20, "--out", tmp_path)
    assert rc == 0, err
    ends = [json.loads(x) for x in (tmp_path / "log.jsonl").read_text().splitlines() if '"end"' in x]
    assert [e for e in ends if e.get("event") == "end"] == [{"event": "end", "step": 20, "status": "complete"}]
    rc, out, err = cli("status", tmp_path)
    assert rc == 0 and "not running (the last run ended)" in out, out
    # a restart that was killed: its start record, no end
    with open(tmp_path / "log.jsonl", "a") as f:
        started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(time.time() + 2))  # after the summary
        f.write(json.dumps({"event": "start", "step": 20, "end": 40, "started": started}) + "\n")
        f.write(json.dumps({"step": 30, "end": 40, "mlups": 1.0}) + "\n")
    rc, out, err = cli("status", tmp_path)
    assert rc == 0 and "not running: the last run did not end (no end record after its start" in out, out
    with open(tmp_path / "log.jsonl", "a") as f:
        f.write(json.dumps({"event": "end", "step": 30, "status": "error", "message": "RuntimeError: gone"}) + "\n")
    rc, out, err = cli("status", tmp_path)
    assert rc == 0 and "not running: the last run ended on an error at step 30 (RuntimeError: gone)" in out, out


def test_a_second_ctrl_c_is_said_as_that_not_as_an_error(tmp_path, cli):
    """A run quit at once by a second Ctrl-C wrote the end record {"status": "error", "message": "KeyboardInterrupt: "},
    and `distlbm status` said "the last run ended on an error at step N (KeyboardInterrupt: )": the user's own
    interrupt, said as a failure with an empty reason. It is now said as what it was."""
    from distlbm.config import resolve
    from distlbm.driver import Simulation

    sim = Simulation(resolve("box", {"n": 8}), out_dir=str(tmp_path), log=lambda msg: None)
    advance = sim.advance

    def interrupted(n):  # the compile's advance(0) runs; the first steps meet the second Ctrl-C
        if n:
            raise KeyboardInterrupt
        return advance(n)

    sim.advance = interrupted
    with pytest.raises(KeyboardInterrupt):
        sim.run(20)
    sim._release_folder()  # (the process ends there under `distlbm run`)
    ends = [json.loads(x) for x in (tmp_path / "log.jsonl").read_text().splitlines() if '"end"' in x]
    assert ends[-1] == {"event": "end", "step": 0, "status": "interrupted"}, ends
    rc, out, err = cli("status", tmp_path)
    assert rc == 0 and ("not running: the last run was interrupted at step 0 by a second Ctrl-C, without a "
                        "checkpoint (no checkpoint here for --restart latest to continue from: run it again without "
                        "--restart)") in out, out  # (it wrote none: 'continues from the last one' before)
    assert "error" not in out.splitlines()[0], out


def test_status_of_a_run_without_end_records_that_wrote_its_summary(tmp_path, cli):
    """A folder of a version without end records: a start followed by its summary.json ended."""
    _record(tmp_path, ended=True)
    (tmp_path / "log.jsonl").write_text(json.dumps({"event": "start", "step": 0, "started": "2026-01-01 00:00:00 UTC"})
                                        + "\n")
    rc, out, err = cli("status", tmp_path)
    assert "did not end" in out, out
    (tmp_path / "summary.json").write_text(json.dumps({"status": "complete", "step": 10}))
    rc, out, err = cli("status", tmp_path)
    assert rc == 0 and "not running (the last run ended)" in out, out


def test_status_of_a_folder_of_runs_shows_them_and_of_an_empty_one_says_so(tmp_path, cli):
    """`distlbm status out` (a parent of run folders) said "not running, checkpoints: none", exit 0."""
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        _record(tmp_path / name, ended=True)
        (tmp_path / name / "log.jsonl").write_text("")
    rc, out, err = cli("status", tmp_path)
    assert rc == 0 and f"{tmp_path / 'a'}: not running" in out and f"{tmp_path / 'b'}: not running" in out, out
    (tmp_path / "empty").mkdir()
    rc, out, err = cli("status", tmp_path / "empty")
    assert rc == 2 and "holds no run (no log.jsonl, summary.json, checkpoints/ or lock)" in err, err


def test_status_of_a_path_inside_a_run_folder_names_the_run_folder(tmp_path, cli):
    """`distlbm status RUN/checkpoints` (or a checkpoint, or RUN/summary.json) said "holds no run" or "not a folder"
    alone: the run folder that holds it is named now, as the one to give."""
    run = tmp_path / "my run"
    (run / "checkpoints").mkdir(parents=True)
    _record(run, ended=True)
    (run / "log.jsonl").write_text("")
    (run / "checkpoints" / "ckpt_000000010.h5").write_bytes(b"")
    said = f"(it is inside the run folder {str(run)!r}: distlbm status '{run}')"
    for inner in (run / "checkpoints", run / "checkpoints" / "ckpt_000000010.h5", run / "log.jsonl"):
        rc, out, err = cli("status", inner)
        assert rc == 2 and said in err and "expected the --out folder of a run" in err, err
    rc, out, err = cli("status", run / "fields")  # a path that is not there: no such run folder, nothing more
    assert rc == 2 and "no such run folder" in err and "inside the run folder" not in err, err


def test_a_relative_folder_is_let_go_and_held_again(tmp_path, monkeypatch):
    """A folder given by a relative path (a relative --out) was held under its real path but let go by the path it
    was given: it stayed held, closed, and the next run in this process in that folder joined that hold: it held no
    lock, its record said "ended", and the heartbeat and the exit's release wrote to whatever file took the fd."""
    monkeypatch.chdir(tmp_path)
    key = str(tmp_path.resolve() / "run" / lock.NAME)
    first = lock.acquire("run", wait=0)
    first.release()
    assert key not in lock._held and _read(tmp_path / "run")["ended"] is True
    second = lock.acquire("run", wait=0)
    assert _read(tmp_path / "run")["ended"] is False  # held again, its own record
    with pytest.raises(BlockingIOError):  # the kernel lock is held again too
        fd = os.open(tmp_path / "run" / lock.NAME, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)
    second.release()
    assert key not in lock._held


def test_a_refused_run_withdraws_the_lock_file_it_created(tmp_path):
    """A run refused before it wrote anything (a missing --init-from, a mesh that does not split the lattice) left
    the lock file of a run that never ran, and so a folder it made that was no longer empty. Withdrawn, the file it
    created is gone; a folder in use by a second holder in this process, or once a holder let go after it may have
    written, keeps an ended record as before."""
    held = lock.acquire(tmp_path, wait=0)
    assert (tmp_path / lock.NAME).exists()
    held.withdraw()
    assert list(tmp_path.iterdir()) == []
    held.withdraw()  # twice is harmless
    held.release()
    assert list(tmp_path.iterdir()) == []
    first, second = lock.acquire(tmp_path, wait=0), lock.acquire(tmp_path, wait=0)
    second.withdraw()  # the first still holds it
    assert _read(tmp_path)["ended"] is False
    first.withdraw()
    assert list(tmp_path.iterdir()) == []
    first, second = lock.acquire(tmp_path, wait=0), lock.acquire(tmp_path, wait=0)
    first.release()  # a holder that ran
    second.withdraw()
    assert _read(tmp_path)["ended"] is True


@pytest.mark.parametrize("found", ["ended", "killed", "not a record"])
def test_a_refused_run_puts_back_the_lock_file_it_found(tmp_path, found):
    """In a folder that holds the lock file of an earlier run, a refused run left its own record in it ("ended"): a
    run killed before was then shown as one that ended, by a command that never ran. The file is put back as it
    was: its bytes and modification time."""
    if found == "not a record":
        path = tmp_path / lock.NAME
        path.write_bytes(b"x")
        os.utime(path, (1_000_000_000, 1_000_000_000))
    else:
        path = _record(tmp_path, age=3600, host=socket.gethostname(), pid=2 ** 22 + 1, ended=found == "ended")
    before, st = path.read_bytes(), path.stat()
    held = lock.acquire(tmp_path, wait=0)
    assert _read(tmp_path)["pid"] == os.getpid()
    held.withdraw()
    after = path.stat()
    assert path.read_bytes() == before and after.st_mtime_ns == st.st_mtime_ns
    assert after.st_ino == st.st_ino and sorted(p.name for p in tmp_path.iterdir()) == [lock.NAME]


def test_a_refused_run_never_removes_a_lock_file_put_at_the_name_since(tmp_path):
    """The file a run created and locked, removed and replaced meanwhile (by hand: the refusal's hint to remove the
    file of a run that no longer runs): the withdrawal leaves the new one alone."""
    held = lock.acquire(tmp_path, wait=0)
    (tmp_path / lock.NAME).unlink()
    _record(tmp_path, ended=True)
    theirs = (tmp_path / lock.NAME).read_bytes()
    held.withdraw()
    assert (tmp_path / lock.NAME).read_bytes() == theirs


def test_a_lock_on_a_file_removed_before_it_was_taken_is_taken_again(tmp_path, monkeypatch):
    """Between a run's open of the lock file and its lock, a refused run withdrew the file (it created it): a lock on
    the removed file guards nothing (a third run creates and locks a new one). The run locks the file at the name."""
    real = fcntl.flock
    calls = []

    def flock(fd, op):
        if not calls:  # the file this attempt opened is withdrawn before its lock
            os.unlink(tmp_path / lock.NAME)
        calls.append(op)
        return real(fd, op)

    monkeypatch.setattr(fcntl, "flock", flock)
    held = lock.acquire(tmp_path, wait=0)
    assert len(calls) == 2 and _read(tmp_path)["pid"] == os.getpid()
    assert lock.holder(tmp_path) is None  # held here, at the name
    monkeypatch.setattr(fcntl, "flock", real)
    fd = os.open(tmp_path / lock.NAME, os.O_RDONLY)
    try:
        with pytest.raises(BlockingIOError):
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(fd)
    held.release()


def test_a_lock_file_that_cannot_be_locked_is_not_left_where_it_was_made(tmp_path, monkeypatch):
    def broken(fd, op):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(fcntl, "flock", broken)
    with pytest.raises(ConfigError, match="cannot lock the run lock file"):
        lock.acquire(tmp_path, wait=0)
    assert list(tmp_path.iterdir()) == []


def test_a_run_waiting_for_a_folder_that_a_refused_run_removed_takes_it(tmp_path):
    """A run waiting for a folder (DISTLBM_LOCK_WAIT; the Slurm templates wait 360 s) whose holder was refused before
    it wrote anything: that run withdrew the lock file it created and removed the folder it made (empty again:
    cli._remove_if_empty). The waiting run's next attempt found no folder to create the lock file in and was refused
    itself ("cannot open the run lock file (No such file or directory)", exit 2), though the folder was free. It
    makes the folder again and holds it."""
    folder = tmp_path / "run"
    folder.mkdir()
    first = lock.acquire(folder, wait=0)
    code = ("import sys; from distlbm.io import lock\n"
            "try:\n"
            f"    lock.acquire({str(folder)!r}, wait=30, say=lambda m, **k: print('waiting', flush=True))\n"
            "    print('held', flush=True)\n"
            "except Exception as e:\n"
            "    print('refused', e, flush=True)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    waiter = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert waiter.stdout.readline().strip() == "waiting"
        first.withdraw()  # refused: the file it created withdrawn, then the folder it made removed
        folder.rmdir()
        out = waiter.stdout.read()
    finally:
        waiter.kill()
        waiter.wait()
    assert out.strip() == "held", out
    assert folder.is_dir()


def test_status_of_a_running_run_before_its_first_progress_line_says_when_it_comes(tmp_path, cli):
    """A run of hours shows its first progress line 1/20 of the way in: until then `distlbm status` said nothing of
    its progress (running, started at step 0, no checkpoints). It now says that none has come yet, and when one
    comes; once one has, that line alone."""
    _record(tmp_path, age=1)
    (tmp_path / "log.jsonl").write_text(json.dumps({"event": "start", "step": 0, "end": 10 ** 6, "run_id": "r",
                                                    "started": "2026-12-02 10:00:00 UTC"}) + "\n")
    rc, out, err = cli("status", tmp_path)
    assert rc == 0 and "running" in out.splitlines()[0], out + err
    assert "  progress: no progress line yet (the first comes 1/20 of the way in or 10 minutes into the steps, or at " \
           "--progress-every)" in out.splitlines(), out
    with open(tmp_path / "log.jsonl", "a") as fh:
        fh.write(json.dumps({"step": 50000, "end": 10 ** 6, "mlups": 50.0, "eta_s": 100.0, "mass_drift": 0.0}) + "\n")
    rc, out, err = cli("status", tmp_path)
    assert rc == 0 and "  progress: step 50,000 of 1,000,000 (5.0 %)" in out and "no progress line yet" not in out, out


def test_status_of_a_restart_before_its_first_progress_line_shows_none_of_the_run_before(tmp_path, cli):
    """A restart from an older checkpoint that has not written its first progress line yet: `distlbm status` showed
    the previous run's last line ('step 40 of 40 (100.0 %), ETA 0s' while the restart ran from step 20 on); the
    newest run's line alone, or that none has come yet."""
    _record(tmp_path, age=1)
    lines = [{"event": "start", "step": 0, "end": 40, "run_id": "r", "started": "2026-12-02 10:00:00 UTC"},
             {"step": 40, "end": 40, "mlups": 5.0, "eta_s": 0.0, "mass_drift": 0.0},
             {"event": "end", "step": 40, "status": "complete"},
             {"event": "start", "step": 20, "end": 10 ** 6, "run_id": "r", "restarted_from": "ckpt_000000020.h5",
              "started": "2026-12-02 11:00:00 UTC"}]
    (tmp_path / "log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    rc, out, err = cli("status", tmp_path)
    assert rc == 0 and "running" in out.splitlines()[0], out + err
    assert "step 40 of 40" not in out and "  progress: no progress line yet" in out, out
    rc, out, err = cli("status", tmp_path, "--json")
    assert rc == 0 and "progress" not in json.loads(out), out
    with open(tmp_path / "log.jsonl", "a") as fh:
        fh.write(json.dumps({"step": 50000, "end": 10 ** 6, "mlups": 50.0, "eta_s": 100.0, "mass_drift": 0.0}) + "\n")
    rc, out, err = cli("status", tmp_path)
    assert rc == 0 and "  progress: step 50,000 of 1,000,000 (5.0 %)" in out and "step 40 of 40" not in out, out


def test_status_after_a_restart_that_ran_no_step_shows_where_the_run_stands(tmp_path, cli):
    """A restart at the run's end step already (--restart latest of a finished run) writes a start and an end record
    and no progress line: `distlbm status` then showed no progress at all (the finished run's 'step 40 of 40' and its
    drift gone). The line before that restart is shown where it is at the step the restart started from; one of
    another step is not (a restart from an older checkpoint that stopped before its first step stands at that one)."""
    out = tmp_path / "run"
    rc, _, err = cli("run", "box", "--set", "n=8", "--steps", 8, "--checkpoint-every", 4, "--out", out)
    assert rc == 0, err
    rc, said, err = cli("run", "box", "--set", "n=8", "--steps", 8, "--restart", "latest", "--out", out)
    assert rc == 0 and "this restart ran no step" in said + err, said + err
    rc, text, err = cli("status", out)
    assert rc == 0 and "not running (the last run ended)" in text and "  progress: step 8 of 8 (100.0 %)" in text, text
    rc, text, err = cli("status", out, "--json")
    assert rc == 0 and json.loads(text)["progress"]["step"] == 8, text
    log = (out / "log.jsonl").read_text()

    def restarted(step, end):  # a restart from `step` to `end` stopped during its start-up, after those of the log
        parts = ({"event": "start", "step": step, "end": end, "run_id": "r", "started": "2026-12-02 11:00:00 UTC"},
                 {"event": "end", "step": step, "status": "stopped", "stopped_on": "SIGTERM"})
        (out / "log.jsonl").write_text(log + "".join(json.dumps(r) + "\n" for r in parts))
        rc, text, err = cli("status", out)
        assert rc == 0 and f"the last run stopped at step {step} on SIGTERM" in text, text
        return text

    # from step 8 to 16: where it stands is step 8 of its 16, not of the 8 before (its start's end step)
    assert "  progress: step 8 of 16 (50.0 %)" in restarted(8, 16)
    rc, text, err = cli("status", out, "--json")  # the ETA of the run before, 0 s at its end, is not this one's
    assert rc == 0 and json.loads(text)["progress"]["end"] == 16 and json.loads(text)["progress"]["eta_s"] is None, text
    assert "progress:" not in restarted(4, 16)  # from step 4: the line of step 8 is not where it stands


def test_status_of_dot_inside_a_run_folder_names_the_run_folder(tmp_path, cli, monkeypatch):
    """`distlbm status .` in RUN/checkpoints (or a link to it) named no run folder: Path('.') has no parent to look
    in. The run folder is found by the real path."""
    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    (run / "log.jsonl").write_text("")
    (tmp_path / "link").symlink_to(run / "checkpoints")
    monkeypatch.chdir(run / "checkpoints")
    for given in (".", str(tmp_path / "link")):
        rc, out, err = cli("status", given)
        assert rc == 2 and f"(it is inside the run folder {str(run.resolve())!r}" in err, err


def test_status_shows_the_warnings_the_last_run_kept_in_its_summary(tmp_path, cli):
    """A setting that nothing read (`output_fields` without `--output-every`) was warned about at the run's start and
    kept in summary.json's `warnings`, but `distlbm status` said nothing of it: a user coming back to the run days
    later saw 'last run: complete at step 4' and no fields, and not why. Status now shows them (text and --json),
    those it already shows from log.jsonl's events once, and a long list briefly."""
    out = tmp_path / "run"
    rc, _, err = cli("run", "box", "--set", "n=8", "--steps", 4, "--set", "output_fields=['u']", "--out", out)
    assert rc == 0, err
    said = ("output_fields = ['u'] has no effect: it applies with output_every or output_interval > 0 "
            "(--output-every)")
    assert json.loads((out / "summary.json").read_text())["warnings"] == [said]
    rc, text, err = cli("status", out)
    assert rc == 0, err
    assert f"  warning: {said} (summary.json)" in text.splitlines(), text
    rc, text, err = cli("status", out, "--json")
    assert rc == 0 and json.loads(text)["summary"]["warnings"] == [said], text
    # a warning log.jsonl's events show (a local Mach number) is said once; more than 5 others: 5, then their count
    mach = "step 2: the flow reaches local Mach 0.4"
    with open(out / "log.jsonl", "a") as fh:
        fh.write(json.dumps({"event": "mach", "step": 2, "mach": 0.4, "message": mach}) + "\n")
    summary = json.loads((out / "summary.json").read_text())
    summary["warnings"] = [mach] + [f"w{i} has no effect" for i in range(8)]
    (out / "summary.json").write_text(json.dumps(summary))
    rc, text, err = cli("status", out)
    assert rc == 0, err
    lines = text.splitlines()
    assert sum(mach in x for x in lines) == 1 and f"  warning: {mach} (log.jsonl)" in lines, text
    assert [x for x in lines if x.startswith("  warning: w")] == [
        f"  warning: w{i} has no effect (summary.json)" for i in range(5)], text
    assert "  and 3 more warnings in summary.json" in lines, text


@pytest.mark.parametrize("ended,said", [
    ({"status": "stopped", "stopped_on": "SIGTERM"}, "the last run stopped at step 0 on SIGTERM"),
    ({"status": "interrupted"}, "the last run was interrupted at step 0 by a second Ctrl-C, without a checkpoint")])
def test_status_of_a_run_stopped_before_its_first_checkpoint_offers_no_restart(tmp_path, cli, ended, said):
    """A run stopped by SIGTERM during its start-up (before any step: nothing to checkpoint) was shown as 'the last
    run stopped at step 0 on SIGTERM (--restart latest continues it)' beside 'checkpoints: none', and that
    --restart latest was refused ('no checkpoint in OUT/checkpoints'). Without a checkpoint status says so, and to
    run it again without --restart."""
    _record(tmp_path, ended=True)
    records = [{"event": "start", "step": 0, "end": 100, "run_id": "r", "started": "2026-12-02 10:00:00 UTC"},
               {"event": "end", "step": 0, **ended}]
    (tmp_path / "log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    rc, out, err = cli("status", tmp_path)
    assert rc == 0, err
    first = out.splitlines()[0]
    assert said in first and "--restart latest continues" not in first, out
    assert "(no checkpoint here for --restart latest to continue from: run it again without --restart)" in first, out
