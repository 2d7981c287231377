"""`distlbm status [OUT ...]`: where a run folder stands, read without touching it.

- whether a run is using it now (its lock record, io.lock: read, never taken, so a status in a watch loop
  cannot make a starting run find its folder busy), or ended, or was killed;
- how far it got: the last progress record of `log.jsonl`'s newest run (step, end step, MLUPS, ETA, mass drift);
- its checkpoints: how many, and the newest whose metadata verifies (what `--restart latest` continues
  from; the populations are checked when a restart reads them), with the ones that do not verify named;
- how the last run ended (`summary.json`), where it started (and from which checkpoint of another run, with
  --init-from) and each restart (the `start` records of `log.jsonl`), what it warned about or stopped on (a local Mach number past the limit, an instability, a
  failed write: the events of `log.jsonl`; and, once it ended, the other warnings its `summary.json` kept: a
  setting that nothing read, ...; while it goes or after it was killed, those its `start` record in `log.jsonl`
  kept: the settings' and those said before its first step), and the earlier run whose results it set aside in
  `previous/`.

Without a folder, every run folder under out/ (the default --out is out/CASE). Exit status 0, or 2 with one
line for a folder that does not exist."""

from __future__ import annotations

import json
import math
import os
import shlex
import sys
import time
from pathlib import Path

from distlbm.errors import ConfigError


def _number(v) -> bool:
    """Whether a value of a log.jsonl line is a number status can show: finite, an int within 64 bits (JSON holds
    integers of any length: one of 400 digits made math.isfinite and the percentage an OverflowError traceback)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    return -2 ** 63 < v < 2 ** 63 if isinstance(v, int) else math.isfinite(v)


def _last_progress(path: Path, running: bool = True):
    """The last progress record of a log.jsonl's newest run (read from its end, up to that run's start record), and
    its age in seconds. A restart that has not written its first progress line yet (1/20 of the way in) showed the
    run before it's last one: 'step 22 of 22 (100.0 %), ETA 0s' while it ran from step 20 to 2,000,000.
    A newest run that is not `running` and wrote none took no step it said (a restart at its end step already, one
    stopped before its first step): the last line before it where that is at the step it started from, which is
    where the run stands, with that run's end step (a restart that ran no step left the finished run's 'step 40 of
    40' and drift unsaid); a line of another step is not where it stands (a restart from an older checkpoint).
    The end read is 64 KB, then twice as much until it holds the answer (or the whole file): a run checked for
    steadiness every few hundred steps writes ~1000 steady_check records (~90 KB) between two progress lines, and
    status showed no progress at all where it read the last 64 KB alone."""
    from distlbm.io import results

    try:
        st = path.stat()
    except OSError:
        return None, None
    age = time.time() - st.st_mtime
    nbytes = 65536
    while True:
        end = results.tail(path, nbytes)
        found = _progress_in(end or b"", running, whole=end is None or nbytes >= st.st_size)
        if found is not None:
            return (found, age) if found else (None, None)
        nbytes *= 2


def _progress_in(end: bytes, running: bool, whole: bool):
    """_last_progress' answer from the log's last bytes `end` (the whole file where `whole`): the record, {} for none,
    or None where the answer lies further back."""
    start = None  # the newest run's start record, once passed (not running: a line before it may say its step)
    for line in reversed(end.decode("utf-8", "replace").splitlines()):
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and rec.get("event") == "start":  # the newest run's start: it wrote none yet
            if running:
                return {}
            start = start or rec  # (and on past the starts of others that wrote none: restarts at the end step)
            continue
        if isinstance(rec, dict) and "event" not in rec and type(rec.get("step")) is int and _number(rec["step"]):
            if start is None:
                return rec
            if rec["step"] != start.get("step"):
                return {}
            if "end" not in start or start["end"] == rec.get("end"):
                return rec
            return {**rec, "end": start["end"], "eta_s": None}  # (the ETA of the run before is not its own)
    return {} if whole else None


def _written_since(path: Path, started) -> bool:
    """Whether `path` was written at or after `started` (a start record's 'YYYY-mm-dd HH:MM:SS UTC')."""
    import calendar

    try:
        t = calendar.timegm(time.strptime(str(started), "%Y-%m-%d %H:%M:%S UTC"))
        return path.stat().st_mtime >= t
    except (OSError, ValueError):
        return False


def folder_status(out) -> dict:
    from distlbm.io import abandoned
    from distlbm.io import checkpoint as ckpt
    from distlbm.io import results
    from distlbm.io.lock import read_holder

    from distlbm.io.files import run_folder

    out = run_folder(out)  # ./~ said as its full path, not as ~ (the home folder)
    # a path inside a run folder (its checkpoints/ or a checkpoint, its summary.json): the run folder named, to give;
    # by the path as given, then by its real one ('.' in RUN/checkpoints, '..', a link to it: none named as given)
    run = next((up for base in (out, out.resolve()) for up in (base.parent, base.parent.parent)
                if up != base and up.is_dir() and _is_run(up)), None) if out.exists() else None
    inside = f" (it is inside the run folder {str(run)!r}: distlbm status {shlex.quote(str(run))})" if run else ""
    if not out.is_dir():
        what = "not a folder" if out.exists() else "no such run folder"
        raise ConfigError(f"{str(out)!r}: {what}; expected the --out folder of a run{inside}")
    if not _is_run(out):
        raise ConfigError(f"{str(out)!r}: holds no run (no log.jsonl, summary.json, checkpoints/ or lock); expected "
                          f"the --out folder of a run{inside}")
    state, who = read_holder(out)
    result = {"folder": str(out), "state": state, "holder": who}
    rec, age = _last_progress(out / "log.jsonl", running=state == "running")
    if rec is not None:
        # a value that is not a number (a hand-edited or foreign line: "end": "x") is left out, not a traceback
        result["progress"] = {k: v if _number(v) and (k != "end" or v > 0) else None
                              for k in ("step", "end", "time", "mlups", "eta_s", "mass_drift") for v in [rec.get(k)]}
        result["progress"]["age_s"] = age
    found, damaged = [], []
    listed = ckpt.list_checkpoints(out / "checkpoints")
    if listed:
        from distlbm.io.hdf5 import require_h5py

        require_h5py("distlbm status reads the run's checkpoints")  # (their steps and run ids: a traceback)
    for p in reversed(listed):
        try:
            meta = ckpt.read_meta(p)
        except ckpt.CheckpointError as e:
            if not p.exists():  # pruned by the run meanwhile
                continue
            damaged.append({"file": p.name, "reason": str(e).replace(f"{p}: ", "", 1)})
            continue
        try:
            age = time.time() - p.stat().st_mtime
        except OSError:  # read, then pruned by the run meanwhile
            continue
        found.append({"file": p.name, "step": meta["step"], "run_id": meta.get("run_id"),
                      "end_step": meta.get("end_step"), "age_s": age})
    result["checkpoints"] = found[::-1]
    result["damaged"] = damaged[::-1]
    # the checkpoints a restart from an older one moved aside (io.abandoned): never removed, and said nowhere
    # after that restart's own note
    aside = []
    for d in sorted((out / "checkpoints").glob("abandoned_after_*")):
        if d.is_dir() and not d.is_symlink():
            named = sorted((int(m.group(1)), q.name) for q in d.iterdir() if (m := ckpt.NAME.match(q.name)))
            if named:
                aside.append({"folder": f"checkpoints/{d.name}", "steps": [x for x, _ in named],
                              "newest": named[-1][1]})
    result["set_aside"] = aside
    result["outputs_set_aside"] = abandoned.found(out)  # and the outputs of the steps that restart abandoned
    # a write killed midway leaves its temporary (as large as the file); a running run's are its writes
    from distlbm.io.files import interrupted_writes

    result["interrupted"] = [] if state == "running" else [
        {"file": str(p.relative_to(out)), "bytes": size}
        for p, size in interrupted_writes(results.numbered_folders(out))]
    said = results.events(out, ("start", "end") + WARNED)
    result["parts"] = [{k: r.get(k) for k in ("step", "end", "started", "restarted_from", "processes")
                        + (("initialized_from",) if r.get("initialized_from") else ())}
                       for r in said if r.get("event") == "start"]
    # how the last part of the run ended: its `end` record (None: it has none, killed or its node failed)
    last = max((i for i, r in enumerate(said) if r.get("event") == "start"), default=None)
    if last is not None:
        ends = [r for r in said[last:] if r.get("event") == "end"]
        result["ended"] = {k: ends[0].get(k) for k in ("step", "status", "message", "stopped_on")} if ends else None
        if not ends and _written_since(out / "summary.json", said[last].get("started")):
            result["ended"] = {}  # a run of a version without end records that wrote its summary: it ended
    # the newest part's start-up warnings (its start record's: the settings' and those said before its first step),
    # for a run still going or killed, which has no summary.json of its own to keep them
    warned = said[last].get("warnings") if last is not None else None
    result["warnings"] = [w for w in warned if isinstance(w, str)] if isinstance(warned, list) else []
    # what the run warned about or stopped on: a local Mach number past the limit, an instability, a failed write
    result["events"] = [{k: r.get(k) for k in ("event", "step", "message", "went_on") if k in r}
                        for r in said if r.get("event") in WARNED]
    summary = results.read_object(out / "summary.json")
    if summary:
        result["summary"] = {k: summary.get(k) for k in ("status", "step", "steps", "mlups", "wall_time_s")}
        # a restart that has not ended (killed; or going) with the summary.json of the part before it, written before
        # its start: said as that part's (a killed restart's status gave it as 'last run: stopped at step 520')
        newest = said[last] if last is not None else None
        result["summary"]["before_last_start"] = bool(
            newest is not None and result.get("ended") is None and newest.get("restarted_from")
            and not _written_since(out / "summary.json", newest.get("started")))
        # what the run warned about (a setting that nothing read: `output_fields` without --output-every, ...): the
        # user who comes back to it days later sees why it wrote no fields
        warned = summary.get("warnings")
        result["summary"]["warnings"] = [w for w in warned if isinstance(w, str)] if isinstance(warned, list) else []
    earlier = results.read_object(out / results.PREVIOUS / "summary.json")
    if earlier:
        result["previous"] = {k: earlier.get(k) for k in ("case", "status", "step")}
    kept = sorted(p.name for p in out.glob(results.PREVIOUS + "_*") if p.is_dir() and not p.is_symlink())
    if kept:  # the results of earlier long runs, never removed (io.results.set_aside)
        result["kept_runs"] = kept
    return result


SHOWN_WARNINGS = 5  # summary.json's warnings that the text shows (then their count; --json: all of them)
WARNED = ("mach", "mass", "space", "no_checkpoints", "instability", "write_failed")  # the log.jsonl events status shows


def _ago(s) -> str:
    from distlbm.io.files import fmt_time  # the progress line's form

    return "?" if s is None else f"{fmt_time(max(0.0, float(s)))} ago"


def describe(st: dict) -> list[str]:
    from distlbm.io.files import fmt_time

    what = {"running": "running", "ended": "not running (the last run ended)",
            "gone": "not running: the last run never ended (killed, or its node failed)",
            "free": "not running"}[st["state"]]
    ended = st.get("ended", {})
    # a run stopped before its first checkpoint (a SIGTERM during its start-up): --restart latest finds none
    again = "no checkpoint here for --restart latest to continue from: run it again without --restart"
    if st["state"] in ("ended", "free") and "parts" in st and st.get("parts") and ended is None:
        # the folder's record ended (another process of the run left), but the run wrote no end record
        what = ("not running: the last run did not end (no end record after its start: a process was killed, as "
                "by the OOM killer, or the job was; see the job's output)")
    elif st["state"] in ("ended", "free") and ended and ended.get("status") == "error":
        what = (f"not running: the last run ended on an error at step {ended.get('step')}"
                + (f" ({ended['message']})" if ended.get("message") else ""))
    elif st["state"] in ("ended", "free") and ended and ended.get("status") == "interrupted":
        # a second Ctrl-C (said "ended on an error at step N (KeyboardInterrupt: )" before)
        what = (f"not running: the last run was interrupted at step {ended.get('step')} by a second Ctrl-C, without "
                f"a checkpoint " + ("(--restart latest continues from the last one)" if st["checkpoints"] else
                                    f"({again})"))
    elif st["state"] in ("ended", "free") and ended and ended.get("status") == "stopped":
        # why a chain stopped: SIGUSR1 (the job's time limit near), SIGTERM (scancel, a preemption), the wall time
        what = (f"not running: the last run stopped at step {ended.get('step')}"
                + (f" on {ended['stopped_on']}" if ended.get("stopped_on") else "")
                + (" (--restart latest continues it)" if st["checkpoints"] else f" ({again})"))
    lines = [f"{st['folder']}: {what}" + (f": {st['holder']}" if st["holder"] else "")]
    p = st.get("progress")
    if p:
        end = p.get("end")
        part = f"step {p['step']:,}" + (f" of {end:,} ({100.0 * p['step'] / end:.1f} %)" if end else "")
        if p.get("mlups") is not None:
            part += f", {p['mlups']:.4g} MLUPS"
        if st["state"] == "running" and p.get("eta_s") is not None:
            part += f", ETA {fmt_time(p['eta_s'])}"
        if p.get("mass_drift") is not None:
            part += f", mass drift {p['mass_drift']:+.2e}"
        lines.append(f"  progress: {part} (log.jsonl, {_ago(p['age_s'])})")
    elif st["state"] == "running":  # (it said nothing of progress: a run of hours shows its first line 1/20 in)
        lines.append("  progress: no progress line yet (the first comes 1/20 of the way in or 10 minutes into the "
                     "steps, or at --progress-every)")
    parts = st.get("parts") or []
    if parts:
        first, rest = parts[0], parts[1:]
        line = f"  started at step {first.get('step')} on {first.get('started')}"
        if first.get("initialized_from"):  # --init-from: the populations another run's checkpoint held
            line += f" from the populations of {first['initialized_from']}"
        # a restart at its end step ('nothing to run': its end is its start) wrote a start record too, and ran nothing
        ran = [r for r in rest if not (isinstance(r.get("end"), int) and isinstance(r.get("step"), int)
                                       and r["end"] <= r["step"])]
        idle = len(rest) - len(ran)
        idle_text = (f"{idle} {'more ' if ran else ''}restart{'s' if idle > 1 else ''} had nothing to run"
                     if idle else "")
        if ran:
            src = Path(str(ran[-1].get("restarted_from") or "?")).name
            line += (f"; restarted {len(ran)} time{'s' if len(ran) > 1 else ''} (at step"
                     f"{'s' if len(ran) > 1 else ''} {', '.join(str(r.get('step')) for r in ran)}; the last from "
                     f"{src} on {ran[-1].get('started')}{'; ' + idle_text if idle else ''})")
        elif idle:
            line += f"; {idle_text}"
        lines.append(line + " (log.jsonl)")
    cks = st["checkpoints"]
    if cks:
        last = cks[-1]
        lines.append(f"  checkpoints: {len(cks)} (steps {cks[0]['step']:,}..{last['step']:,}); --restart latest "
                     f"continues from {last['file']} (step {last['step']:,}, written {_ago(last['age_s'])}; its "
                     f"metadata verified, its populations when the restart reads them: an older one if they fail)")
        ended = st.get("ended") or {}
        if ended.get("status") == "unstable" and isinstance(ended.get("step"), int) and ended["step"] > last["step"]:
            # the restart reruns the same steps with the same physics (it refuses other physics): the same blow-up
            lines.append(f"  the run was found blown up at step {ended['step']:,}, after that checkpoint: a restart "
                         f"with the same settings blows up again; --init-from "
                         f"{st['folder']}/checkpoints/{last['file']} --out NEWDIR goes on from it with a changed "
                         f"setting (the instability message names them)")
    else:
        lines.append("  checkpoints: none")
    for d in st["damaged"]:
        lines.append(f"  checkpoint {d['file']} does not verify: {d['reason']}")
    for a in st.get("set_aside") or []:
        steps = a["steps"]
        lines.append(f"  {a['folder']}/: {len(steps)} checkpoint(s) (step{'s' if len(steps) > 1 else ''} "
                     f"{', '.join(f'{x:,}' for x in steps)}) that a restart from an older one set aside (never removed; "
                     f"--restart {st['folder']}/{a['folder']}/{a['newest']} goes back to them)")
    from distlbm.io.abandoned import steps_text

    for a in st.get("outputs_set_aside") or []:
        lines.append(f"  {a['folder']}/: {len(a['steps'])} {a['kind']}(s) ({steps_text(a['steps'])}) of the steps "
                     f"that a restart from an older checkpoint abandoned (never removed"
                     + (f"; its {a['series']} opens them)" if a["series"] else ")"))
    left = st.get("interrupted") or []
    if left:
        from distlbm.io.files import size_text

        lines.append(f"  {len(left)} temporary file(s) of writes that were interrupted (killed while writing), "
                     f"{size_text(sum(x['bytes'] for x in left))}: {left[0]['file']}"
                     f"{f' and {len(left) - 1} more' if len(left) > 1 else ''}; the next run in this folder removes "
                     f"them")
    events = st.get("events") or []
    went_on = [e for e in events if e.get("event") == "write_failed" and e.get("went_on")]
    earlier = {id(e) for e in went_on[:-1]}  # failed writes the run survived: their number, and the last one
    for e in events:
        if id(e) in earlier:
            continue
        msg = str(e.get("message") or "")
        at = "" if "step" in msg else f"step {e.get('step')}: "
        survived = bool(went_on) and e is went_on[-1]
        if survived and len(went_on) > 1:
            at = f"{len(went_on)} failed writes the run went on after (steps {went_on[0].get('step')} .. " \
                 f"{e.get('step')}); the last: {at}"
        warn = e.get("event") in ("mach", "mass", "space", "no_checkpoints") or survived
        lines.append(f"  {'warning' if warn else 'error'}: {at}{msg} (log.jsonl)")
    s = st.get("summary")
    said = {str(e.get("message")) for e in events}  # (those of log.jsonl's events are said above)

    def warnings(warned, where):
        warned = [w for w in warned if w not in said]
        said.update(warned)
        lines.extend(f"  warning: {w} ({where})" for w in warned[:SHOWN_WARNINGS])
        if len(warned) > SHOWN_WARNINGS:
            more = len(warned) - SHOWN_WARNINGS
            lines.append(f"  and {more} more warning{'s' if more > 1 else ''} in {where}")

    if s and st["state"] != "running":
        whose = "last run" if not s.get("before_last_start") else \
            f"the part before the restart at step {(st.get('parts') or [{}])[-1].get('step')}"
        lines.append(f"  {whose}: {s.get('status')} at step {s.get('step')} (summary.json)")
        warnings(s.get("warnings") or (), "summary.json")
    if st["state"] == "running" or not s or st.get("ended") is None:
        # a run going, or killed (no end record after its start): no summary.json of its own says its warnings yet
        # (the one there is an earlier part's), its start record does
        warnings(st.get("warnings") or (), "log.jsonl")
    prev = st.get("previous")
    if prev:
        lines.append(f"  previous/: an earlier run's results ({prev.get('case')}, {prev.get('status')} at step "
                     f"{prev.get('step')}), set aside when this run started")
    kept = st.get("kept_runs")
    if kept:
        lines.append(f"  {', '.join(k + '/' for k in kept)}: the results of earlier runs of an hour or more, kept "
                     f"(never removed; remove them yourself when done)")
    return lines


def run_folders(parent="out") -> list[Path]:
    """The run folders under `parent` (the default --out is out/CASE): those with a log or checkpoints."""
    base = Path(parent)
    if not base.is_dir():
        return []
    return sorted(d for d in base.iterdir() if d.is_dir() and ((d / "log.jsonl").exists() or (d / "checkpoints").is_dir()))


def _is_run(folder: Path) -> bool:
    return any((folder / n).exists() for n in ("log.jsonl", "checkpoints", "summary.json", ".distlbm.lock"))


def cmd_status(args) -> int:
    for f in args.folders or ():  # `distlbm status "$OUT"` with OUT unset: it read the working folder, "'.'"
        if not str(f).strip():
            raise ConfigError(f"OUT = {f!r}: expected the --out folder of a run (leave it out for those under out/)")
        from distlbm.io.files import check_path

        check_path("OUT", f, "the --out folder of a run")
    folders = []
    many = not args.folders  # the folders under out/: a list, however many there are
    for f in args.folders or run_folders():  # a folder of run folders (out/) stands for them: it said "not running"
        if Path(f).is_dir() and not _is_run(Path(f)) and run_folders(f):
            folders += run_folders(f)
            many = True  # a sweep's folder holding one run so far gave an object, with two a list
        else:
            folders.append(f)
    unique: dict = {}  # a folder named and also found in a folder of runs named with it (`status sweep/re50 sweep`): once
    for f in folders:
        unique.setdefault(os.path.realpath(f), f)
    folders = list(unique.values())
    if not folders:
        raise ConfigError("no run folders under out/ (the default --out is out/CASE); expected the --out folder "
                          "of a run: distlbm status OUT")
    states, refused = [], {}  # each refusal's text: the folders it refused
    for f in folders:  # a mistyped folder among several is said; the others are still shown
        try:
            states.append(folder_status(f))
        except ConfigError as e:
            refused.setdefault(str(e), []).append(f)
    # a refusal said once however many folders it left out (h5py missing), naming those it does not name itself
    # among several (`distlbm status out/` said "h5py: ... reads the run's checkpoints": which runs were not shown?)
    from distlbm.io.files import run_folder

    unnamed = {text: [x for x in (repr(str(run_folder(f))) for f in fs) if x not in text]  # (as folder_status names)
               for text, fs in refused.items()}
    missing = [ConfigError(f"{', '.join(unnamed[text])}: {text}" if len(folders) > 1 and unnamed[text] else text)
               for text in refused]
    if not states:
        raise missing[0] if len(missing) == 1 else ConfigError("; ".join(map(str, missing)))
    if args.json:
        print(json.dumps(states if many or len(folders) > 1 else states[0], indent=2))
    else:
        for st in states:
            print("\n".join(describe(st)))
    sys.stdout.flush()
    for e in missing:
        print(f"distlbm: configuration error: {e}", file=sys.stderr)
    return 2 if missing else 0

