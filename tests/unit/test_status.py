"""`distlbm status`: what it says of a run folder while the run goes, after it was killed, and once it ended."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

UNREAD = "output_fields = 'rho' has no effect: it applies with output_every or output_interval > 0 (--output-every)"


def test_status_shows_the_start_up_warnings_of_a_run_still_going_and_of_one_killed(cli, tmp_path, monkeypatch):
    """status showed the warnings a run kept in summary.json, written at its end: while a run went on (a week) or
    after it was SIGKILLed (the OOM killer), its start-up warnings (output_fields without --output-every, so no
    field was being written) were not shown. The run's start record in log.jsonl keeps them now; status says them as
    it says a finished run's, `--json` too."""
    from distlbm import status
    from distlbm.driver.loop import Simulation

    out = tmp_path / "tg"
    seen = {}
    make = Simulation._make_callbacks

    def going(self, *a, **k):  # the run has written its start record and holds its folder: another process's
        # status sees it running (this one's sees its own process as gone)
        r = subprocess.run([sys.executable, "-m", "distlbm", "status", "--json", str(out)], cwd=REPO,
                           capture_output=True, text=True, timeout=120)
        seen["st"] = json.loads(r.stdout)
        return make(self, *a, **k)

    monkeypatch.setattr(Simulation, "_make_callbacks", going)
    rc, _, err = cli("run", "taylor_green2d", "--set", "n=16", "--steps", "4", "--set", "output_fields=rho",
                     "--out", out)
    assert rc == 0, err
    st = seen["st"]
    assert st["state"] == "running" and st["warnings"] == [UNREAD], st
    assert f"  warning: {UNREAD} (log.jsonl)" in status.describe(st), status.describe(st)

    # finished: the summary's (as before), said once
    rc, text, err = cli("status", out)
    assert rc == 0, err
    assert text.count(UNREAD) == 1 and f"  warning: {UNREAD} (summary.json)" in text, text

    # killed (SIGKILL leaves no end record and no summary.json)
    log = out / "log.jsonl"
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(x for x in lines if '"event": "end"' not in x))
    (out / "summary.json").unlink()
    rc, text, err = cli("status", out)
    assert rc == 0, err
    assert f"  warning: {UNREAD} (log.jsonl)" in text and text.count(UNREAD) == 1, text
    rc, text, err = cli("status", "--json", out)
    assert rc == 0, err
    assert json.loads(text)["warnings"] == [UNREAD], text


def test_status_of_a_killed_restart_does_not_give_the_part_before_it_as_the_last_run(cli, tmp_path):
    """A --restart killed (SIGKILL, the OOM killer) left the summary.json of the part before it: status said 'the
    last run never ended (killed ...)' and then 'last run: stopped at step 520 (summary.json)', that part's. It now
    says whose summary it is."""
    import os

    records = [{"event": "start", "step": 0, "end": 600, "run_id": "r", "started": "2026-12-07 04:00:00 UTC"},
               {"event": "end", "step": 520, "status": "stopped", "stopped_on": "SIGTERM"},
               {"event": "start", "step": 520, "end": 600, "run_id": "r", "restarted_from": "ckpt_000000520.h5",
                "started": "2026-12-07 05:00:00 UTC", "warnings": []}]
    (tmp_path / "log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (tmp_path / "summary.json").write_text(json.dumps({"status": "stopped", "step": 520, "warnings": []}))
    t = 1796617200  # 2026-12-07 04:20:00 UTC: written when the first part stopped, before the restart
    os.utime(tmp_path / "summary.json", (t, t))
    rc, text, err = cli("status", tmp_path)
    assert rc == 0, err
    assert "  last run: " not in text, text
    assert "  the part before the restart at step 520: stopped at step 520 (summary.json)" in text, text
    rc, text, err = cli("status", "--json", tmp_path)
    assert json.loads(text)["summary"]["before_last_start"] is True, text


def test_the_lock_holder_s_last_seen_is_said_in_the_unit_status_says_durations_in(cli, tmp_path):
    """`distlbm status` said of a run that never ended "last seen 86404 s ago" where its other ages read "4s ago"
    (the progress line's form, io.files.fmt_time): a day is "24h00m..s" as the rest of it says."""
    import os
    import time

    from distlbm.io import lock

    rc, _, err = cli("run", "box", "--set", "n=8", "--steps", 2, "--out", tmp_path)
    assert rc == 0, err
    rec = {"format": lock.FORMAT, "host": "node17", "pid": 4242, "started": "2026-12-06 10:00:00 UTC",
           "command": "distlbm run box", "stale_after_s": lock.STALE_AFTER_S, "ended": False}
    path = tmp_path / lock.NAME
    path.write_text(json.dumps(rec))
    t = time.time() - 86400 - 30
    os.utime(path, (t, t))
    rc, out, err = cli("status", tmp_path)
    first = out.splitlines()[0]
    assert rc == 0 and "never ended" in first and "last seen 24h00m3" in first and " s ago" not in first, out + err


def test_status_takes_a_quoted_tilde_as_the_home_folder_as_run_out_does(cli, tmp_path, monkeypatch):
    """`distlbm run --out '~/x'` (quoted: the shell leaves '~') writes into the home folder's x; `distlbm status
    '~/x'` looked for a folder '~' in the working directory and did not find the run. It reads the same folder."""
    home = tmp_path / "home"
    run = home / "x"
    run.mkdir(parents=True)
    records = [{"event": "start", "step": 0, "end": 600, "run_id": "r", "started": "2026-12-07 04:00:00 UTC"},
               {"event": "end", "step": 600, "status": "complete"}]
    (run / "log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (run / "summary.json").write_text(json.dumps({"status": "complete", "step": 600, "warnings": []}))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    rc, text, err = cli("status", "--json", "~/x")
    assert rc == 0, err
    assert json.loads(text)["summary"]["status"] == "complete", text
    assert not (tmp_path / "~").exists()


def test_status_finds_the_last_progress_line_behind_many_steadiness_checks(tmp_path, monkeypatch):
    """log.jsonl holds a steady_check record per check: a run checked every few hundred steps writes ~1000 of them
    (~90 KB) between two progress lines (~20 per run, or one per 10 minutes of wall time), and status read the
    log's last 64 KB only: it showed no progress at all. It reads further back now, as far as the newest progress
    line (or the newest run's start), and no further: the bytes it reads are counted."""
    from distlbm.io import results
    from distlbm.status import folder_status

    path = tmp_path / "log.jsonl"
    with open(path, "w") as fh:
        fh.write(json.dumps({"event": "start", "step": 0, "end": 10_000_000, "run_id": "r"}) + "\n")
        for s in range(0, 3_000_000, 500_000):  # a long history before the newest progress line
            fh.write(json.dumps({"step": s + 500_000, "end": 10_000_000, "time": 1.0, "mlups": 10.0, "eta_s": 100.0,
                                 "mass_drift": 0.0}) + "\n")
            for c in range(s + 500_640, s + 500_640 + 640 * 1000, 640):
                fh.write(json.dumps({"event": "steady_check", "step": c, "max_du_over_U": 0.0123456789,
                                     "tol": 1e-4}) + "\n")
    size = path.stat().st_size
    read = []
    tail = results.tail
    monkeypatch.setattr(results, "tail", lambda p, nbytes=65536: read.append(nbytes) or tail(p, nbytes))
    st = folder_status(tmp_path)
    assert st["progress"]["step"] == 3_000_000 and st["progress"]["end"] == 10_000_000
    assert read and max(read) < size / 3, (read, size)  # the newest progress line's ~90 KB, not the whole log
