"""A restart from an older checkpoint of its run abandons the steps after that checkpoint: the run's checkpoints of
those steps and its per-step outputs of them (the field outputs, each light output's files, the images; with their
part files, and the grids first written by them) are moved, never removed, into an `abandoned_after_STEP` folder of
the folder each lies in, before the run writes any; the records of samples.jsonl after that step go into
OUT/abandoned_after_STEP/samples.jsonl (samples.jsonl drops them: they were deleted before, the forces and probes of
the abandoned steps lost beside their kept checkpoints). Before, only the checkpoints were: fields/ kept the abandoned
continuation's later outputs beside the restart's own (a glob of fields/*.h5, ParaView opening the folder, mixed in
steps of another history), and the restart wrote its own over the others (their data lost, their checkpoint kept).

Every folder gets the same name, `abandoned_after_STEP`, then `_2`, `_3`, ... where a restart from the same step did
this before in any of them. Each XDMF series (fields.xdmf, a light output's NAME.xdmf) is rewritten without the moved
outputs, and a series of the moved ones alone is written beside them, so that it still opens: its grid is the moved
grid file, or a hard link to the one the run goes on using (a link keeps it as it was where the run writes another
grid there; where no link can be made the series names the run's grid file by its relative path)."""

from __future__ import annotations

import os
import re
import stat
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import NamedTuple

from distlbm.io import checkpoint as ckpt
from distlbm.io import hdf5, results, xdmf
from distlbm.io.files import WriteError, reason, write_chunks, write_text

# the numbered files of a run's output folders: NAME_STEP.h5 (its part files NAME_STEP.pK.h5) and speed_STEP.png
NUMBERED = re.compile(r"^([a-z][a-z0-9_]*)_(\d{9,10})(\.p\d+)?\.(h5|png)$")
PREFIX = "abandoned_after_"
SAMPLES = "sample record"  # (of samples.jsonl, set aside into OUT/abandoned_after_STEP/)


class Plan(NamedTuple):
    """What a restart from step `step` sets aside: the run's checkpoints after it ((step, path), in step order), and
    per output folder the files of its steps after it (parts before their master file), and the records of its
    samples.jsonl after it ((line, step): into OUT/NAME/samples.jsonl); `name` the folder they go to in each."""

    step: int
    name: str
    checkpoints: list
    outputs: dict
    samples: tuple = ()


def _regular(p: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(p).st_mode)
    except OSError:
        return False


def _step(p: Path) -> int | None:
    m = NUMBERED.match(p.name)
    return int(m.group(2)) if m else None


def output_folders(out) -> list[Path]:
    """The folders of the run's per-step outputs in `out`: fields/, each light output's, images/."""
    out = Path(out)
    return [p for p in results.numbered_folders(out) if p.name != "checkpoints"] + [out / "images"]


def outputs_after(out, step: int) -> dict:
    """{folder: its files of steps after `step`} of the run's output folders in `out` (regular files only; a link
    at such a name is not the run's file), each master file after its part files; the whole fields' grids written
    from a step after it (OUT/grid_STEP.h5) go with fields/."""
    out, found = Path(out), {}
    for folder in output_folders(out):
        try:
            entries = sorted(folder.iterdir())
        except OSError:
            continue
        later = [p for p in entries if (s := _step(p)) is not None and s > step and _regular(p)]
        if folder.name == "fields":
            later += [p for p in sorted(out.glob("grid_*.h5")) if (s := _step(p)) is not None and s > step
                      and _regular(p)]
        if later:  # the parts (NAME.pK.h5) first: a master is never left without them
            found[folder] = sorted(later, key=lambda p: (NUMBERED.match(p.name).group(3) is None, p.name))
    return found


def branch(restored_from, checkpoint_dir, step: int) -> int:
    """The step after which the run's files in its folder are of another history than a restart's from the checkpoint
    `restored_from` at `step`: `step`, or X where that checkpoint is one a restart from step X set aside
    (CHECKPOINTS/abandoned_after_X/, which `distlbm status` offers to go back to): the folder's checkpoints, outputs
    and sample records after X are then those of the restart that abandoned it, set aside in their turn (they were
    taken for this history's: its fields.xdmf listed the other's fields_STEP.h5 of the steps up to `step`)."""
    if restored_from is None:
        return step
    parent = Path(restored_from).resolve().parent
    m = re.fullmatch(rf"{PREFIX}(\d{{9,10}})(_\d+)?", parent.name)
    if m and int(m.group(1)) < step and parent.parent == Path(checkpoint_dir).resolve():
        return int(m.group(1))
    return step


def set_aside_as(restored_from) -> str:
    """The name of the folder holding the checkpoint a restart read: for one set aside by an earlier restart,
    `abandoned_after_STEP`, the name its outputs' and sample records' folders have too."""
    return Path(restored_from).resolve().parent.name


def taken_back(restored_from, out, at: int, step: int) -> list[tuple[bytes, int]]:
    """The sample records of the steps after `at` up to `step` of the history that a restart from a checkpoint set
    aside continues (`at`: branch's step, below `step`): the restart from `at` that set it aside put them into
    OUT/abandoned_after_AT/samples.jsonl (the name of the checkpoint's folder); (line, step), each step once and in
    order, for samples.jsonl to hold every step of the history that goes on (it had a gap from `at` to `step`)."""
    if restored_from is None or at >= step:
        return []
    path = Path(out) / set_aside_as(restored_from) / "samples.jsonl"
    if not _regular(path):
        return []
    try:  # (line by line: the whole file's bytes and their lines were held at once)
        with open(path, "rb") as fh:
            return [(line, rec["step"]) for line, rec in results.iter_records_upto(fh, step) if rec["step"] > at]
    except OSError:
        return []


def linked_back(restored_from, out, at: int, step: int, make: bool = True, freed=()) -> list[Path]:
    """The output files of the steps after `at` up to `step` of the history that a restart from a checkpoint set
    aside continues (`at`: branch's step, below `step`), set aside in FOLDER/abandoned_after_AT/ (the name of the
    checkpoint's folder) by the restart from `at`, hard-linked back into each output folder (the whole fields'
    grids of those steps into OUT/), so that the run's series lists them again (it left them out: 'not in OUT'); a
    link leaves the set-aside series as it was. A name taken, or a link that cannot be made (a file system without
    hard links), is left: the series then leaves that output out, as before. The links made (to be made, for the dry
    run: `make` false; `freed`: the files its plan moves away first)."""
    if restored_from is None or at >= step:
        return []
    name, out, made = set_aside_as(restored_from), Path(out), []
    for folder in output_folders(out):
        try:
            entries = sorted((folder / name).iterdir())
        except OSError:
            continue
        for p in entries:
            s = _step(p)
            if s is None or not at < s <= step or not _regular(p):
                continue
            dest = (out if NUMBERED.match(p.name).group(1) == "grid" and folder.name == "fields" else folder) / p.name
            try:
                if dest in freed or not os.path.lexists(dest):
                    if make:
                        os.link(p, dest)
                    made.append(dest)
            except OSError:
                pass
    return made


def free_name(folders, step: int) -> str:
    """abandoned_after_STEP, or with _2, _3, ...: the first name free in every one of `folders`."""
    name, k = f"{PREFIX}{step:09d}", 1
    while any(os.path.lexists(Path(f) / name) for f in folders):
        k += 1
        name = f"{PREFIX}{step:09d}_{k}"
    return name


def plan(out, checkpoint_dir, run_id: str, step: int) -> Plan | None:
    """What a restart from `step` of run `run_id` in its own folder `out` sets aside: None where the run has no
    checkpoint after it there (a restart from its newest: a crash's steps are redone the same, nothing abandoned)."""
    newer = ckpt.newer(checkpoint_dir, run_id, step)
    if not newer:
        return None
    outputs, samples = outputs_after(out, step), results.samples_after(out, step)
    return Plan(step, free_name([checkpoint_dir, *outputs, *([out] if samples else [])], step), newer, outputs,
                samples)


def _kind(folder: Path) -> str:
    return {"fields": "field output", "images": "image"}.get(folder.name, f"{folder.name} output")


def _outputs(files) -> list[int]:
    """The steps of the outputs among `files` (a master file or an image each; not the parts, not the grids)."""
    return sorted(s for p in files if (m := NUMBERED.match(p.name)) and not m.group(3) and m.group(1) != "grid"
                  for s in [int(m.group(2))])


def steps_text(steps) -> str:
    """'step 400', 'steps 400, 500', or 'steps 400 .. 9,000' for many."""
    steps = list(steps)
    if len(steps) > 6:
        return f"steps {steps[0]:,} .. {steps[-1]:,}"
    return f"step{'s' if len(steps) > 1 else ''} {', '.join(f'{s:,}' for s in steps)}"


def describe(p: Plan, out, checkpoint_dir=None, series=()) -> list[str]:
    """One phrase per folder of what `p` moves there: '2 field output(s) (steps 400, 500) to OUT/fields/NAME/'; the
    checkpoints' first where `checkpoint_dir` is given; `series`: the XDMF files written beside the moved outputs."""
    said = []
    if checkpoint_dir is not None:
        said.append(f"{len(p.checkpoints)} checkpoint(s) ({steps_text(s for s, _ in p.checkpoints)}) to "
                    f"{Path(checkpoint_dir) / p.name}/")
    for folder, moved in p.outputs.items():
        steps = _outputs(moved)
        if steps:
            xml = [f.name for f in series if f.parent == folder / p.name]
            said.append(f"{len(steps)} {_kind(folder)}(s) ({steps_text(steps)}) to {folder / p.name}/"
                        + (f" (with {xml[0]}, their series)" if xml else ""))
    if p.samples:
        said.append(f"{len(p.samples)} {SAMPLES}(s) ({steps_text(s for _, s in p.samples)}) to "
                    f"{Path(out) / p.name / 'samples.jsonl'}")
    return said


def check(p: Plan, out, checkpoint_dir):
    """WriteError, as set_aside raises it, where a folder of `p` is not writable (the dry run's check)."""
    for folder in [*p.outputs, Path(checkpoint_dir), *([Path(out)] if p.samples else [])]:
        if not os.access(folder, os.W_OK | os.X_OK):
            raise _unwritable(folder / p.name, PermissionError(13, os.strerror(13)), p.step)


def _unwritable(dest: Path, e: OSError, step: int) -> WriteError:
    return WriteError(dest, f"{reason(e, None, dest.parent)}; expected a writable folder to move the run's files of "
                            f"the steps after {step} into (a restart from an older checkpoint abandons them)")


def _series_of(out: Path, folder: Path) -> Path | None:
    """The XDMF series of an output folder (OUT/fields.xdmf, OUT/NAME.xdmf of a light output; images have none)."""
    if folder.name == "images":
        return None
    return out / f"{folder.name}.xdmf"


def _entries(path: Path):
    """The output entries (<Grid> elements of the temporal collection) of an XDMF series this package wrote, or None
    where it is not one (missing, not a regular file, not XML of that form)."""
    if not _regular(path):
        return None
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    series = root.find("Domain/Grid")
    if series is None or series.get("CollectionType") != "Temporal":
        return None
    return list(series.findall("Grid"))


def _refs(entry):
    """The DataItems of an entry with their file and dataset ('fields/fields_000000400.h5', '/rho')."""
    for item in entry.iter("DataItem"):
        f, sep, ds = (item.text or "").strip().partition(":")
        if sep:
            yield item, f, ds


def _xml(entries) -> str:
    return xdmf.HEAD + "".join("   " + ET.tostring(e, encoding="unicode").strip() + "\n" for e in entries) + xdmf.TAIL


def _split_series(out: Path, series: Path, moved: dict, dest: Path) -> bool:
    """Rewrite `series` without the entries of moved outputs and write a series of those alone into `dest` (its
    files named from there: the moved ones by name, any other (the run's grid) by a hard link in `dest`, else by
    its relative path). moved: {path relative to OUT: its new path}. Whether a series was written into `dest`."""
    entries = _entries(series)
    if not entries:
        return False
    gone, kept = [], []
    for e in entries:
        attrs = [f for a in e.iter("Attribute") for _, f, _ in _refs(a)]  # the output's files (not its grid)
        (gone if attrs and all(os.path.normpath(f) in moved for f in attrs) else kept).append(e)
    if not gone:
        return False
    linked = {}
    for e in gone:
        for item, f, ds in _refs(e):
            rel = os.path.normpath(f)
            if rel in moved:
                new = moved[rel]
            elif rel in linked:
                new = linked[rel]
            elif os.path.isabs(rel) or rel.split(os.sep)[0] == os.pardir:  # not the run's: named as it was
                new = linked[rel] = out / rel
            else:
                new = linked[rel] = dest / Path(rel).name
                try:
                    if not os.path.lexists(new):
                        os.link(out / rel, new)
                except OSError:
                    new = linked[rel] = out / rel  # no hard link here: named where it is
            item.text = f"{os.path.relpath(new, dest)}:{ds}"
    write_text(dest / series.name, _xml(gone))
    write_text(series, _xml(kept))
    return True


def _move(paths, dest: Path):
    """Move each of `paths` (with its part files, before it) into `dest`."""
    for p in paths:
        for q in [*hdf5.part_files(p), p] if p.suffix == ".h5" else [p]:
            if os.path.lexists(q):
                os.replace(q, dest / q.name)


def set_aside(p: Plan, out, checkpoint_dir) -> list[Path]:
    """Move what `p` names into its folders (made first, all of them: one that cannot be made stops it before a file
    moved); the XDMF series split (the run's own, and one of the moved outputs beside them). The checkpoints last: a
    failure before them leaves the restart to find the same abandoned steps again. The XDMF series written beside
    the moved outputs. WriteError (one line) where a folder cannot be made or a file moved."""
    out, checkpoint_dir = Path(out), Path(checkpoint_dir)
    made = []
    for folder in [*p.outputs, checkpoint_dir, *([out] if p.samples else [])]:
        dest = folder / p.name
        try:
            dest.mkdir()
        except OSError as e:
            for d in made:
                try:
                    d.rmdir()
                except OSError:
                    pass
            raise _unwritable(dest, e, p.step) from None
        made.append(dest)
    series = []
    if p.samples:  # a copy first: samples.jsonl drops them after (results.trim_samples)
        # (line by line: they were joined, decoded and encoded again, 3 copies at once of what may be most of a series)
        write_chunks(out / p.name / "samples.jsonl", (line for line, _ in p.samples), sum(len(x) for x, _ in p.samples))
    where = checkpoint_dir / p.name
    try:
        for folder, moved in p.outputs.items():
            where = dest = folder / p.name
            _move(moved, dest)
            xml = _series_of(out, folder)
            if xml is not None and _split_series(
                    out, xml, {os.path.relpath(q, out): dest / q.name for q in moved}, dest):
                series.append(dest / xml.name)
        where = checkpoint_dir / p.name
        _move([q for _, q in p.checkpoints], where)
    except OSError as e:
        raise _unwritable(where, e, p.step) from None
    return series


def found(out) -> list[dict]:
    """The folders of outputs that restarts set aside in `out` (set_aside), for `distlbm status`: {'folder': relative
    name, 'kind', 'steps': the outputs' steps, 'series': its XDMF file's name or None}."""
    out, aside = Path(out), []
    for folder in output_folders(out):
        for d in sorted(folder.glob(PREFIX + "*")):
            if d.is_dir() and not d.is_symlink():
                steps = _outputs(d.iterdir())
                xml = _series_of(out, folder)
                if steps:
                    aside.append({"folder": f"{folder.name}/{d.name}", "kind": _kind(folder), "steps": steps,
                                  "series": xml.name if xml is not None and (d / xml.name).is_file() else None})
    for d in sorted(out.glob(PREFIX + "*")):
        steps = [s for _, s in results.samples_after(d, -1)] if d.is_dir() and not d.is_symlink() else []
        if steps:
            aside.append({"folder": d.name, "kind": SAMPLES, "steps": steps, "series": None})
    return aside
