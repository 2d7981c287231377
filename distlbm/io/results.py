"""A run's own files in its output folder, besides its checkpoints: summary.json, log.jsonl, samples.jsonl,
the field outputs (fields.xdmf, grid.h5, fields/), the light outputs (region.xdmf, slice_x200.xdmf and their
folders) and images/. What a run does with the ones it finds there (process 0, holding the folder):

- those of another run (a fresh run in a folder an earlier run finished in without checkpoints, a re-run with
  other parameters into the default out/CASE) are moved into OUT/previous/, whose own earlier contents of this
  kind are removed: before, the new run appended its samples and log records after the earlier run's, so a
  plot of samples.jsonl ran through both, and fields/ held outputs of both runs side by side;
- those of the run it continues (a restart in its own folder) stay, and samples.jsonl keeps only the records
  up to the checkpoint's step: the records written after it (before a crash or a kill) are recorded again by
  the restart, so the file held each of them twice, out of order.

Only the names above are touched, and only regular files and folders (a link at one of them is left for the
writer to refuse); anything else in the folder stays where it is."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import time
from pathlib import Path
from typing import Optional

from distlbm.io.files import WriteError, reason, write_chunks

PREVIOUS = "previous"
_FILES = ("summary.json", "log.jsonl", "samples.jsonl", "fields.xdmf", "grid.h5")
_FOLDERS = ("fields", "images")
_CUT = re.compile(r"(region|slice_[xyz]\d+)(\.xdmf)?$")  # the light outputs' series (config.output_cuts)
_GRID = re.compile(r"grid_\d{9,10}\.h5$")  # the whole fields' grid from a restart that changed output_units on
# the sample records of the steps a restart from an older checkpoint abandoned (io.abandoned)
_ABANDONED = re.compile(r"abandoned_after_\d{9,10}(_\d+)?$")


def products(folder) -> list[Path]:
    """The run files in `folder` (its own names only; regular files and folders, not links)."""
    folder = Path(folder)
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return []
    found = []
    for p in entries:
        if p.is_symlink():
            continue
        cut = _CUT.match(p.name)
        if ((p.name in _FILES or (cut and cut.group(2)) or _GRID.match(p.name)) and p.is_file()
                or (p.name in _FOLDERS or (cut and not cut.group(2)) or _ABANDONED.match(p.name)) and p.is_dir()):
            found.append(p)
    return found


def numbered_folders(folder) -> list[Path]:
    """The folders of a run's numbered files (NAME_N.h5: checkpoints, field outputs, the light outputs' folders),
    where a write killed midway leaves its temporary (files.interrupted_writes)."""
    folder = Path(folder)
    found = [folder / "checkpoints", folder / "fields"]
    try:
        found += [p for p in sorted(folder.iterdir())
                  if (m := _CUT.match(p.name)) and not m.group(2) and p.is_dir() and not p.is_symlink()]
    except OSError:
        pass
    return found


def events(folder, names=("start",)) -> list[dict]:
    """The records of the folder's log.jsonl whose `event` is one of `names`, in order (read in one pass)."""
    found, path = [], Path(folder) / "log.jsonl"
    if not path.is_file():  # a FIFO there would block the read (the log's writer refuses it)
        return found
    keys = [f'"{n}"'.encode() for n in names]
    try:
        with open(path, "rb") as fh:
            for line in fh:
                if not any(k in line for k in keys):
                    continue
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                if isinstance(rec, dict) and rec.get("event") in names:
                    found.append(rec)
    except OSError:
        pass
    return found


def starts(folder) -> list[dict]:
    """The `start` records of the folder's log.jsonl, one per part of its run (the run, then each restart)."""
    return events(folder, ("start",))


def read_object(path) -> Optional[dict]:
    """A JSON object from a regular file (summary.json), or None (missing, not a regular file: a FIFO would block
    the read, not JSON, not an object)."""
    path = Path(path)
    if not path.is_file():
        return None
    try:
        obj = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return obj if isinstance(obj, dict) else None


def tail(path, nbytes: int = 65536) -> Optional[bytes]:
    """The last `nbytes` of a regular file (a JSON-lines log read from its end), or None."""
    path = Path(path)
    if not path.is_file():
        return None
    try:
        with open(path, "rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            fh.seek(max(0, size - nbytes))
            return fh.read()
    except OSError:
        return None


def iter_records_upto(data, upto: int):
    """The records of a samples.jsonl up to step `upto`, each step once and in order: (line, record) pairs one by
    one; lines after `upto`, repeats and lines that are not a record (one cut short by a kill) are left out. Of bytes
    or of an open file's lines (a restart reads a long series into columns line by line, without holding the file or
    every record as a dict at once)."""
    last = None
    for line, rec in _records(data):
        if rec["step"] <= upto and (last is None or rec["step"] > last):
            last = rec["step"]
            yield line, rec


def _records(data):
    """(line, record) of each line of a samples.jsonl (its bytes, or its lines: an open file, read line by line)
    that is a record of a step, in file order."""
    for line in data.splitlines(keepends=True) if isinstance(data, bytes) else data:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and isinstance(rec.get("step"), int):
            yield (line if line.endswith(b"\n") else line + b"\n"), rec


def samples_after(folder, step: int, name: str = "samples.jsonl") -> list[tuple[bytes, int]]:
    """(line, step) of the records of the folder's samples.jsonl after `step`, in file order: those a restart from
    an older checkpoint abandons (io.abandoned sets them aside; trim_samples drops them). Read from its end only where
    nothing follows `step` (as trim_samples), else line by line (the whole file's bytes and their lines were held at
    once: twice a long series' file)."""
    path = Path(folder) / name
    if path.is_symlink() or not path.is_file() or _ends_by(path, step):
        return []
    try:
        with open(path, "rb") as fh:
            return [(line, rec["step"]) for line, rec in _records(fh) if rec["step"] > step]
    except OSError:
        return []


def run_of(folder) -> Optional[str]:
    """The run id of the results in `folder`: the last `start` record of its log.jsonl, else its summary.json's
    `run_id`; None if neither says (results of a version before they did, or none)."""
    folder = Path(folder)
    for rec in reversed(starts(folder)):
        if isinstance(rec.get("run_id"), str):
            return rec["run_id"]
    rid = (read_object(folder / "summary.json") or {}).get("run_id")
    return rid if isinstance(rid, str) else None


def continues(folder, run_id: str, restored_from, checkpoint_dir) -> bool:
    """Whether the results in `folder` are those of run `run_id`, which a run restored from the checkpoint
    `restored_from` (None: a new run) continues: its log or summary names the run, or (a version before they did)
    names none and the checkpoint lies in the folder's `checkpoint_dir`."""
    earlier = run_of(folder)
    return earlier == run_id or (earlier is None and restored_from is not None
                                 and Path(restored_from).resolve().parent == Path(checkpoint_dir).resolve())


def _describe(found: list[Path]) -> str:
    parts = []
    for p in found:
        if p.name == "fields":
            n = sum(1 for q in p.glob("fields_*.h5") if ".p" not in q.name)  # not the parts of a split write
            parts.append(f"fields/ ({n} output{'s' if n != 1 else ''})")
        elif p.is_dir():
            parts.append(f"{p.name}/")
        elif not (p.name.endswith(".xdmf") or p.name == "grid.h5" or _GRID.match(p.name)):
            parts.append(p.name)
    return ", ".join(parts)


# the results of an earlier run that took at least this much wall time (one segment: its summary.json's or its
# log's last record) are never removed to make room in previous/: they are kept in a folder of their own
KEEP_WALL_S = 3600.0


_WALL = re.compile(rb'"wall_s": *(-?[0-9][0-9.eE+-]*)')


def run_wall_s(folder) -> float:
    """The wall time in seconds of the run whose results lie in `folder`: the sum over the parts of its log.jsonl
    (one per start: a Slurm chain's jobs, each restarted from the last one's checkpoint) of each part's last
    `wall_s` (a part killed before its end counts as far as it got), or its summary.json's `wall_time_s` (the last
    part's alone), the larger; 0 where neither says. The last part alone judged a week's chain by its last job (often
    minutes: the steps left), and its results were removed to make room in previous/."""
    folder, best = Path(folder), 0.0
    try:
        w = json.loads((folder / "summary.json").read_text()).get("wall_time_s")
        if isinstance(w, (int, float)) and not isinstance(w, bool) and w == w:
            best = float(w)
    except (OSError, ValueError, AttributeError):
        pass
    total, part = 0.0, 0.0
    try:
        with open(folder / "log.jsonl", "rb") as fh:
            for line in fh:  # (streamed: a log of progress_every = 1 is large; most lines are not parsed)
                if b'"event": "start"' in line:
                    total, part = total + part, 0.0
                    continue
                m = _WALL.search(line)
                if m is None:
                    continue
                try:
                    w = float(m.group(1))
                except ValueError:  # (a line cut by a kill)
                    continue
                if math.isfinite(w) and w > part:
                    part = w
    except OSError:
        pass
    return max(best, total + part)


def _kept_name(prev: Path) -> Path:
    """A free folder name beside `prev` for the older run's results: previous_<its start, from the first record of
    its log.jsonl, or its summary's time>, then _2, _3, ... where taken."""
    stamp = None
    try:
        with open(prev / "log.jsonl", "rb") as fh:
            first = json.loads(fh.readline() or b"{}")
        m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) UTC", str(first.get("started", "")))
        if m:
            stamp = "{}{}{}-{}{}{}".format(*m.groups())
    except (OSError, ValueError, AttributeError):
        pass
    if stamp is None:
        try:
            stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime((prev / "summary.json").stat().st_mtime))
        except OSError:
            stamp = "run"
    name, k = prev.parent / f"{PREVIOUS}_{stamp}", 2
    while name.exists() or name.is_symlink():
        name, k = prev.parent / f"{PREVIOUS}_{stamp}_{k}", k + 1
    return name


def to_set_aside(folder) -> list[Path]:
    """The run files that set_aside moves out of `folder`: none where none is a file (a run leaves a log.jsonl at
    least: folders alone are no run's results)."""
    found = products(folder)
    return found if any(p.is_file() for p in found) else []


def set_aside(folder, make: bool = True) -> Optional[str]:
    """Move the run files of an earlier run in `folder` into folder/previous/ (the run files already there removed,
    or, those of a run of KEEP_WALL_S or more, moved into a folder of their own beside it: a week's results were
    lost to two quick re-runs into the default out/CASE); a line saying what moved, or None if there were none
    (or folders only, no file of a run: a `fields/` made by hand is not an earlier run). WriteError (one line) if
    it cannot. `make` False (the dry run): nothing is moved; the same checks and the same line, what the run
    would move."""
    folder = Path(folder)
    found = to_set_aside(folder)
    if not found:
        return None
    prev, what = folder / PREVIOUS, _describe(found)
    if prev.is_symlink() or (prev.exists() and not prev.is_dir()):
        raise WriteError(prev, f"it is not a folder; expected a folder (or nothing) to move the earlier run's "
                               f"results of {folder} into ({what}); move it away or use another --out")
    older = products(prev) if prev.is_dir() else []
    wall = run_wall_s(prev) if older else 0.0
    kept = _kept_name(prev) if wall >= KEEP_WALL_S else None
    if make:
        try:
            prev.mkdir(exist_ok=True)
            if kept is not None:
                kept.mkdir()
                for old in older:
                    os.replace(old, kept / old.name)
            else:
                for old in older:
                    shutil.rmtree(old) if old.is_dir() else old.unlink()
            for p in found:
                os.replace(p, prev / p.name)
        except OSError as e:
            raise WriteError(prev, reason(e, None, folder)) from None
    then = ""
    if kept is not None:
        then = (f"; the older run's results that were there (a run of {wall / 3600:.1f} h) are kept in {kept}/ (those "
                f"of a run of {KEEP_WALL_S / 3600:g} h or more are never removed)")
    elif older:
        then = "; the older run's results that were there are removed"
    return f"{folder} held an earlier run's results ({what}): moved to {prev}/ so that the two runs do not mix{then}"


def _ends_by(path: Path, upto: int) -> bool:
    """Whether the file's last line is a whole record of a step at or before `upto` (read from its end only)."""
    end = tail(path)
    if end is None or not end.endswith(b"\n"):
        return end == b""  # an empty file; otherwise a line cut short by a kill
    try:
        rec = json.loads(end.splitlines()[-1])
    except (ValueError, IndexError):
        return False
    return isinstance(rec, dict) and isinstance(rec.get("step"), int) and rec["step"] <= upto


class _Nothing(Exception):
    """Raised by the lines of an atomic write (write_chunks) that finds nothing to write: the file stays as it was."""


def trim_samples(folder, upto: int, then=(), write: bool = True) -> int:
    """A restart in its own folder: samples.jsonl keeps the records up to step `upto` (the checkpoint's; the
    restart records the later ones again), `then` (lines of records after `upto`) after them, rewritten under a
    temporary name and renamed. The number of lines dropped. A file whose last record is at or before `upto` is left
    as it is where `then` is empty, read from its end only: a restart after a stop at a checkpoint (a Slurm chain's)
    does not parse a long run's samples. Otherwise (a restart after a crash) the file is streamed, line by line, into
    the temporary: it was read whole and a (line, record) pair of every record held at once, ~10 times the file
    (226 MB: 2.2 GB of memory, measured; a week sampled every step, 3.6 GB: ~35 GB). `write` False: the lines it
    would drop counted, the file untouched (the dry run's)."""
    path = Path(folder) / "samples.jsonl"
    if path.is_symlink() or (not then and (not path.is_file() or _ends_by(path, upto))):
        return 0
    then = list(then)
    count = {"lines": 0, "kept": 0}

    def lines():
        if path.is_file():
            with open(path, "rb") as fh:
                def counted():
                    for line in fh:
                        count["lines"] += 1
                        yield line
                for line, _ in iter_records_upto(counted(), upto):
                    count["kept"] += 1
                    yield line
        if count["lines"] == count["kept"] and not then:
            raise _Nothing()  # nothing to drop: the file stays as it is (not rewritten)
        yield from then

    try:
        if not write:
            for _ in lines():
                pass
        else:
            size = path.stat().st_size if path.is_file() else 0
            write_chunks(path, _reading(lines()), size + sum(len(x) for x in then))
    except (_Nothing, _ReadFailed, OSError):  # (unreadable: left as it was)
        return 0
    return count["lines"] - count["kept"]


def copy_samples(src, dst, upto: int) -> tuple[int, Optional[int], Optional[int]]:
    """A restart into another folder: the records of `src` (the run's samples.jsonl) up to step `upto`, each step once
    and in order, written as `dst` (atomically), streamed line by line: (the number of records, the first's step, the
    last's), (0, None, None) and no `dst` where there is none. `dst` None: counted only (the dry run's). OSError
    where `src` cannot be read (`dst` is then left as it was), WriteError where `dst` cannot be written. (Holding a
    (line, record) pair of every record, as the restart did, took ~10 times the file.)"""
    seen = {"n": 0, "first": None, "last": None}

    def lines(fh):
        for line, rec in iter_records_upto(fh, upto):
            if seen["first"] is None:
                seen["first"] = rec["step"]
            seen["n"] += 1
            seen["last"] = rec["step"]
            yield line
        if not seen["n"]:
            raise _Nothing()

    with open(src, "rb") as fh:
        try:
            if dst is None:
                for _ in lines(fh):
                    pass
            else:
                write_chunks(dst, _reading(lines(fh)), os.fstat(fh.fileno()).st_size)
        except _Nothing:
            pass
        except _ReadFailed as e:
            raise e.error from None
    return seen["n"], seen["first"], seen["last"]


class _ReadFailed(Exception):
    def __init__(self, error: OSError):
        super().__init__(str(error))
        self.error = error


def _reading(chunks):
    """`chunks`, whose OSError (a read's) passes through write_chunks as _ReadFailed (write_chunks takes an OSError
    for the write's)."""
    try:
        yield from chunks
    except OSError as e:
        raise _ReadFailed(e) from None
