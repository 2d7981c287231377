"""Checkpoints: the populations in the global layout plus step, time, configuration and schedule
counters. Because the layout is global, a checkpoint restarts on any number of devices or processes.

What a checkpoint guarantees (docs/reliability.md lists how each point is tested):
- it is written under a temporary name created exclusively (a planted link is never followed),
  flushed and renamed, so a crash mid-write leaves the previous checkpoint intact; the free space is
  checked first and a failed write removes the temporary and raises `hdf5.WriteError`;
- its chunks carry HDF5 Fletcher-32 checksums that every read verifies, and its metadata (JSON)
  is covered by a SHA-256 digest stored beside it, together with the dataset's shape and dtype;
- it belongs to one run (`run_id`): pruning removes only the run's own files;
- a split (one file per process) checkpoint records a `checkpoint_id` in every part: a missing part,
  or a part from another write, makes the whole checkpoint unusable;
- reading it checks every field of the metadata (step, time, shape, Q, dtype, finite scalars) and
  that the populations are finite; the driver writes only verified-sane states.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
import uuid
from pathlib import Path

import numpy as np

from distlbm.io import hdf5
from distlbm.io.hdf5 import h5py  # imported at its first use (hdf5._LazyH5py)

FORMAT = "distlbm-checkpoint-2"
LEGACY_FORMAT = "distlbm-checkpoint-1"  # written before the metadata digest and run ids: read with a warning
# steps are written with 9 digits at least (ckpt_000001000.h5), 10 from step 10^9 on (the int32 step counter goes
# to 2147483647): a name of 9 only, and an order by name, lost a long run's checkpoints past step 999999999 to
# --restart latest, the pruning and the Slurm templates (a run of 10^9 steps: two days of a 128^2 lattice)
NAME = re.compile(r"^ckpt_(\d{9,10})\.h5$")
PART = re.compile(r"^ckpt_(\d{9,10})\.p(\d+)\.h5$")
MAX_STEP = 2 ** 31 - 1  # the step counter is int32
LEGACY_RUN = "legacy"  # the run id of checkpoints written before run ids existed


class CheckpointError(RuntimeError):
    """A checkpoint that cannot be used: missing, incomplete, corrupted or incompatible."""


def new_run_id() -> str:
    return uuid.uuid4().hex[:16]


def path_for(directory, step: int) -> Path:
    return Path(directory) / f"ckpt_{step:09d}.h5"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# the lattice fields a checkpoint may hold beside the populations f, each [K, X, Y(, Z)], by name: what they are
EXTRA_FIELDS = {"mean": "time average",  # of rho and u (output average_every)
                "steady_ref": "steadiness reference"}  # u of the last steadiness check (steady_tol)


def save(directory, f, domain, meta: dict, keep: int = 3, run_id: str = LEGACY_RUN, extra: dict | None = None,
         held=None) -> Path:
    """Write f: [Q, X, Y(, Z)] (global array; with --comm mpi this rank's block) and `meta` (JSON-able) as checkpoint of meta['step'],
    then remove this run's checkpoints beyond the newest `keep`. Every process must call this.
    extra: more lattice fields {name: [K, X, Y(, Z)]} stored beside f the same way (checksummed; their shape and
    dtype in the metadata as NAME_shape, NAME_dtype): those of EXTRA_FIELDS. held: the run's hold on its folder
    (io.hdf5.write's: `directory` is made below it, the run's folder never again).
    Raises hdf5.WriteError (on every process) if the file could not be written."""
    step = int(meta["step"])
    path = path_for(directory, step)
    # one id for this write, the same on every process: each part file carries it
    checkpoint_id = domain.allgather_obj(uuid.uuid4().hex)[0] if domain.process_count > 1 else uuid.uuid4().hex
    extra = dict(extra or {})
    meta = dict(meta, run_id=run_id, checkpoint_id=checkpoint_id, format=FORMAT,
                f_shape=[int(f.shape[0])] + [int(n) for n in domain.shape], f_dtype=str(np.dtype(f.dtype)))
    for name, arr in extra.items():
        meta[f"{name}_shape"] = [int(arr.shape[0])] + [int(n) for n in domain.shape]
        meta[f"{name}_dtype"] = str(np.dtype(arr.dtype))
    text = json.dumps(meta, sort_keys=True, allow_nan=False, default=_json_default)
    attrs = {"format": FORMAT, "meta": text, "meta_sha256": digest(text)}
    part_attrs = {"checkpoint_id": checkpoint_id, "run_id": run_id, "step": step}
    fields = [hdf5.Field("f", f, "leading")] + [hdf5.Field(name, arr, "leading") for name, arr in extra.items()]
    hdf5.write(path, fields, domain, attrs=attrs, checksum=True, part_attrs=part_attrs, held=held)
    if domain.process_index == 0:
        _known_owner(path, run_id)
    if domain.process_index == 0 and keep > 0:
        prune(directory, run_id, keep, keep_path=path)
    domain.barrier()
    return path


def _json_default(o):
    if isinstance(o, (np.floating, np.integer)):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(f"not JSON-able: {o!r}")


def prune(directory, run_id: str, keep: int, keep_path: Path | None = None) -> list[Path]:
    """Remove the checkpoints of run `run_id` beyond its newest `keep` (never another run's, never an
    unreadable one, never `keep_path`). Returns what was removed."""
    own = [p for p, rid in owners(directory) if rid == run_id]
    removed = []
    for old in own[:-keep]:
        if keep_path is not None and Path(old) == Path(keep_path):
            continue
        remove(old)
        removed.append(old)
    return removed


def reclaimable(directory, run_id: str, keep_path=None, upto: int | None = None) -> int:
    """The disk space held by run `run_id`'s checkpoints in `directory` (with their part files) other than
    `keep_path` (None: its newest) and those after step `upto` (a restart sets them aside, never removed): what its
    oldest checkpoints free for the next one where the file system is full (driver.callbacks.Checkpointer._make_room),
    counted as free space by the check before the run's first step."""
    own = [p for p, rid in owners(directory) if rid == run_id]
    keep = Path(keep_path) if keep_path is not None else (own[-1] if own else None)
    total = 0
    for p in own:
        if keep is not None and os.path.abspath(p) == os.path.abspath(keep):
            continue
        if upto is not None and _by_step(p)[0] > upto:
            continue
        for q in [p, *hdf5.part_files(p)]:
            try:
                st = os.lstat(q)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                total += min(st.st_size, st.st_blocks * 512) if hasattr(st, "st_blocks") else st.st_size
    return total


def newer(directory, run_id: str, step: int) -> list[tuple[int, Path]]:
    """(step, path) of the checkpoints of run `run_id` in `directory` after `step`, in step order: a restart from an
    older checkpoint abandons them (io.abandoned sets them aside), and a later `--restart latest` went back to them,
    past the samples this restart had dropped (a hole in samples.jsonl, unsaid)."""
    found = []
    for p, rid in owners(directory):
        m = NAME.match(p.name)
        if rid == run_id and m and int(m.group(1)) > step:
            found.append((int(m.group(1)), p))
    return found


def remove(path):
    path = Path(path)
    for p in [path, *hdf5.part_files(path)]:
        try:
            if os.path.lexists(p) and not os.path.isdir(p):
                p.unlink()
        except OSError:
            pass


def _is_regular(p: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(p).st_mode)
    except OSError:
        return False


def _by_step(p: Path) -> tuple:
    """The order of checkpoint files: by step (ckpt_999999999.h5 before ckpt_1000000000.h5), then name."""
    m = NAME.match(p.name)
    return (int(m.group(1)) if m else -1, p.name)


def list_checkpoints(directory) -> list[Path]:
    """Checkpoint files (by name, regular files only) in step order; temporaries are ignored."""
    d = Path(directory)
    if not d.is_dir():
        return []
    return sorted((p for p in d.iterdir() if NAME.match(p.name) and _is_regular(p)), key=_by_step)


def odd_entries(directory) -> list[Path]:
    """Things at checkpoint names that are not regular files (a folder, a FIFO): never read."""
    d = Path(directory)
    if not d.is_dir():
        return []
    return sorted((p for p in d.iterdir() if NAME.match(p.name) and not _is_regular(p)), key=_by_step)


def _text(v):
    return v.decode() if isinstance(v, bytes) else v


def _open(path: Path):
    if not path.exists():
        raise CheckpointError(f"{path}: no such checkpoint file")
    if not _is_regular(path):
        raise CheckpointError(f"{path}: not a regular file (a folder, a FIFO or a device); expected a checkpoint file")
    try:
        return hdf5.open_file(path, "r")
    except (OSError, ValueError) as e:
        raise CheckpointError(f"{path}: not a readable HDF5 file ({_short(e)}); {EXPECTED}") from None


# what a checkpoint given to --restart or --init-from should be, said by the refusal of a file that is none
EXPECTED = "expected a checkpoint file that distlbm run wrote (checkpoints/ckpt_NNNNNNNNN.h5 of its --out)"


def _short(e) -> str:
    text = str(e).splitlines()[0] if str(e) else ""
    return f"{e.__class__.__name__}: {text[:160]}"


def read_meta(path, quick: bool = False) -> dict:
    """The verified metadata of a checkpoint: a complete distlbm checkpoint whose metadata matches its
    digest, with every field of the expected type and range, and (split files) every part present and
    from the same write. `quick` reads the metadata only (for pruning). Raises CheckpointError."""
    path = Path(path)
    h5 = _open(path)
    try:
        with h5:
            fmt = _text(h5.attrs.get("format"))
            if fmt not in (FORMAT, LEGACY_FORMAT) or int(h5.attrs.get("complete", 0)) != 1:
                raise CheckpointError(f"{path}: not a complete {FORMAT} file; {EXPECTED}")
            text = _text(h5.attrs.get("meta"))
            if not isinstance(text, str):
                raise CheckpointError(f"{path}: metadata missing")
            if fmt == FORMAT:
                if _text(h5.attrs.get("meta_sha256")) != digest(text):
                    raise CheckpointError(f"{path}: metadata does not match its SHA-256 digest (edited or damaged)")
            try:
                meta = json.loads(text, parse_constant=_no_constant)
            except ValueError as e:
                raise CheckpointError(f"{path}: metadata is not valid JSON ({e})") from None
            if not isinstance(meta, dict):
                raise CheckpointError(f"{path}: metadata is not a JSON object")
            meta.setdefault("run_id", LEGACY_RUN)
            if quick:
                return meta
            _check_meta(meta, path, fmt)
            shape, dtype = _check_dataset(h5, "f", "populations", path, meta, fmt)
            for name, what in EXTRA_FIELDS.items():  # the lattice fields beside the populations that it holds
                if fmt == FORMAT and f"{name}_shape" in meta:
                    meta[f"_{name}"] = _check_dataset(h5, name, what, path, meta, fmt)
            meta["_shape"] = shape
            meta["_dtype"] = dtype
            meta["_format"] = fmt
            return meta
    except CheckpointError:
        raise
    except (OSError, KeyError, ValueError, TypeError, AttributeError, RuntimeError) as e:
        raise CheckpointError(f"{path}: unreadable ({_short(e)})") from None


def _check_dataset(h5, name: str, what: str, path: Path, meta: dict, fmt: str) -> tuple:
    """(shape, dtype) of the checkpoint's lattice dataset `name` (f: the populations; mean: the time average):
    stored in the file itself (or, in a split checkpoint, a virtual dataset over its own part files), with
    Fletcher-32 checksums, of the shape and dtype its metadata says (NAME_shape, NAME_dtype). CheckpointError."""
    elsewhere = hdf5.stored_elsewhere(h5, name, allow_virtual=True)
    if elsewhere:
        raise CheckpointError(f"{path}: {what} {elsewhere}; expected them stored in the checkpoint file itself")
    ds = h5.get(name)
    if not isinstance(ds, h5py.Dataset):
        raise CheckpointError(f"{path}: no {what} dataset '{name}'" + (" (it is a group)" if ds is not None else ""))
    shape = [int(n) for n in ds.shape]
    dtype = str(hdf5.stored_dtype(ds))
    if fmt == FORMAT and (shape != meta.get(f"{name}_shape") or dtype != meta.get(f"{name}_dtype")):
        raise CheckpointError(f"{path}: dataset '{name}' is {shape} {dtype} but the metadata says "
                              f"{meta.get(f'{name}_shape')} {meta.get(f'{name}_dtype')}")
    if ds.is_virtual:
        _check_parts(h5, ds, path, meta, name)
    elif not ds.fletcher32:
        raise CheckpointError(f"{path}: dataset '{name}' has no Fletcher-32 checksums; expected the checksummed "
                              f"{what} that distlbm writes")
    return shape, dtype


def _no_constant(name):
    raise ValueError(f"{name} is not allowed in checkpoint metadata")


def _check_meta(meta: dict, path, fmt: str):
    def bad(key, expected):
        return CheckpointError(f"{path}: metadata {key} = {meta.get(key)!r}: expected {expected}")

    step = meta.get("step")
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= MAX_STEP:
        raise bad("step", f"an integer in 0..{MAX_STEP}")
    m = NAME.match(path.name)
    if m and int(m.group(1)) != step:
        raise bad("step", f"{int(m.group(1))}, the step in the file name")
    t = meta.get("time")
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t) or t < 0:
        raise bad("time", "a finite number >= 0")
    m0 = meta.get("mass0")
    if m0 is not None and (isinstance(m0, bool) or not isinstance(m0, (int, float)) or not math.isfinite(m0)
                           or m0 <= 0):
        raise bad("mass0", "a finite positive number (or null)")
    end = meta.get("end_step")
    if end is not None and (isinstance(end, bool) or not isinstance(end, int) or not 0 <= end <= MAX_STEP):
        raise bad("end_step", f"an integer in 0..{MAX_STEP} (or null)")
    initial = meta.get("initial")
    if initial is not None and not _diagnostics_record(initial):
        raise bad("initial", "the diagnostics of step 0: a table of at most 32 numbers, flags and short lists of "
                             "finite numbers, with step 0 (or null)")
    shape = meta.get("shape")
    if (not isinstance(shape, list) or not 1 <= len(shape) <= 3
            or not all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in shape)):
        raise bad("shape", "a list of 1 to 3 positive integers")
    if not isinstance(meta.get("config"), dict):
        raise bad("config", "a table of settings")
    for key in ("lattice", "dtype"):
        if not isinstance(meta.get(key), str):
            raise bad(key, "a string")
    sched = meta.get("schedules", {})
    if sched is None:
        sched = {}
    if not isinstance(sched, dict) or not all(
            isinstance(v, dict) and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v.values())
            for v in sched.values()):
        raise bad("schedules", "a table of schedule counters (integers >= 0)")
    series = meta.get("series_after")
    if series is not None and (not isinstance(series, dict) or len(series) > 10_000 or not all(
            isinstance(k, str) and len(k) <= 200 and isinstance(v, int) and not isinstance(v, bool)
            and 0 <= v <= MAX_STEP for k, v in series.items())):
        raise bad("series_after", f"a table of sample keys and steps in 0..{MAX_STEP} (or null)")
    outputs = meta.get("outputs") or []
    if not isinstance(outputs, list) or not all(
            isinstance(e, dict) and isinstance(e.get("step"), int) and isinstance(e.get("file"), str)
            and re.fullmatch(r"fields/fields_\d{9,10}\.h5", e["file"]) for e in outputs):
        raise bad("outputs", "a list of field outputs {step, time, file: 'fields/fields_NNNNNNNNN.h5', fields}")
    inputs = meta.get("inputs")
    if inputs is not None and not (isinstance(inputs, list) and len(inputs) <= 1000 and all(
            isinstance(e, dict) and isinstance(e.get("key"), str) and len(e["key"]) <= 64
            and isinstance(e.get("file"), str) and len(e["file"]) <= 4096
            and isinstance(e.get("sha256"), str) and re.fullmatch(r"[0-9a-f]{64}", e["sha256"])
            and isinstance(e.get("bytes"), int) and not isinstance(e.get("bytes"), bool) and e["bytes"] >= 0
            for e in inputs)):
        raise bad("inputs", "a list of the run's input files {key, file, sha256: 64 hex digits, bytes} (or null)")
    average = meta.get("average")
    if average is not None and not (isinstance(average, dict) and isinstance(average.get("samples"), int)
                                    and not isinstance(average.get("samples"), bool)
                                    and 1 <= average["samples"] <= MAX_STEP and "mean_shape" in meta):
        raise bad("average", f"the time average's record {{samples: an integer in 1..{MAX_STEP}}} with its dataset "
                             f"'mean' (or null)")
    if fmt == FORMAT:
        for key in ("run_id", "checkpoint_id"):
            if not isinstance(meta.get(key), str) or not re.fullmatch(r"[0-9a-zA-Z_-]{1,64}", meta[key]):
                raise bad(key, "an identifier")


def _diagnostics_record(rec) -> bool:
    def number(x):
        return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

    if not isinstance(rec, dict) or len(rec) > 32 or rec.get("step") != 0 or isinstance(rec.get("step"), bool):
        return False
    return all(isinstance(k, str) and (isinstance(v, bool) or number(v) or (
        isinstance(v, list) and len(v) <= 3 and all(number(x) for x in v))) for k, v in rec.items())


def _check_parts(h5, ds, path: Path, meta: dict, name: str = "f"):
    """A virtual dataset is allowed only as the master of a split checkpoint: its sources must be this
    checkpoint's own part files, every one present, complete and written by the same write."""
    parts = h5.attrs.get("parts")
    if _text(h5.attrs.get("write_mode")) != "split" or parts is None or int(parts) < 1:
        raise CheckpointError(f"{path}: dataset '{name}' is virtual but the file is not a split checkpoint")
    parts = int(parts)
    expected = {f"{path.stem}.p{r}{path.suffix}" for r in range(parts)}
    mapped = {}  # part file -> the datasets in it that the virtual dataset reads
    for vs in ds.virtual_sources():
        mapped.setdefault(vs.file_name, set()).add(vs.dset_name)
    sources = set(mapped)
    if not sources <= expected:
        raise CheckpointError(f"{path}: dataset '{name}' maps files {sorted(sources - expected)} that are not its "
                              f"part files")
    for r in range(parts):
        part = path.with_name(f"{path.stem}.p{r}{path.suffix}")
        if not part.exists():
            raise CheckpointError(f"{path}: part file {part.name} (process {r} of {parts}) is missing")
        if not _is_regular(part):
            raise CheckpointError(f"{path}: part file {part.name} is not a regular file")
        try:
            with hdf5.open_file(part, "r") as p5:
                ok = int(p5.attrs.get("complete", 0)) == 1
                cid = _text(p5.attrs.get("checkpoint_id"))
                pstep = p5.attrs.get("step")
                for name in sorted(mapped.get(part.name, ())):
                    elsewhere = hdf5.stored_elsewhere(p5, name)
                    pds = p5.get(name) if not elsewhere else None
                    if not elsewhere and (not isinstance(pds, h5py.Dataset) or not pds.fletcher32):
                        elsewhere = f"'{name}' is not a dataset with Fletcher-32 checksums"
                    if elsewhere:
                        raise CheckpointError(f"{path}: part file {part.name}: {elsewhere}; expected the "
                                              f"checksummed populations stored in the part file itself")
        except (OSError, ValueError) as e:
            raise CheckpointError(f"{path}: part file {part.name} unreadable ({_short(e)})") from None
        if not ok:
            raise CheckpointError(f"{path}: part file {part.name} is incomplete")
        if "checkpoint_id" in meta and cid != meta["checkpoint_id"]:
            step_note = f" (it holds step {int(pstep)})" if pstep is not None else ""
            raise CheckpointError(f"{path}: part file {part.name} belongs to another write{step_note}; expected "
                                  f"the parts written with step {meta.get('step')}")


FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")  # the storage dtypes --init-from converts between


def check_against(meta: dict, path, q: int, shape, dtype, convert: bool = False) -> None:
    """Refuse a checkpoint whose populations do not fit this run: Q, the lattice shape, the dtype (unless
    `convert`: --init-from takes them in the new run's storage dtype)."""
    want = [int(q)] + [int(n) for n in shape]
    if meta["_shape"] != want:
        raise CheckpointError(f"{path}: populations are {meta['_shape']} but this run needs {want} "
                              f"(Q = {q}, lattice {'x'.join(map(str, shape))})")
    if list(meta.get("shape", [])) != [int(n) for n in shape]:
        raise CheckpointError(f"{path}: metadata shape {meta.get('shape')} but this run's lattice is {list(shape)}")
    if not convert and meta["_dtype"] != str(np.dtype(dtype)):
        raise CheckpointError(f"{path}: populations stored as {meta['_dtype']} but this run uses {np.dtype(dtype)} "
                              f"(set dtype = {meta['_dtype']!r} to use it)")
    if convert and meta["_dtype"] not in FLOAT_DTYPES:  # (a foreign or crafted file: the run read it, then crashed)
        raise CheckpointError(f"{path}: populations stored as {meta['_dtype']}, not a floating-point dtype "
                              f"({', '.join(FLOAT_DTYPES)}): not populations this run can take")


def load(path, domain, dtype):
    """The populations of checkpoint `path` as a global array laid out for `domain` in `dtype` (each process
    reads only its own blocks; HDF5 verifies the checksums; every value must be finite, as stored and in `dtype`).
    Raises CheckpointError on any failure, on every process if it failed on one."""
    path = Path(path)
    meta = read_meta(path)
    return _load_dataset(path, "f", "populations", meta["_shape"][0], domain, dtype), meta


def load_mean(path, domain, meta: dict):
    """The time average 'mean' [1 + D, X, Y(, Z)] of checkpoint `path` (meta: its read_meta, which checked the
    dataset) as a global array for `domain`, read and verified like the populations; None without one."""
    return load_extra(path, "mean", domain, meta)


def load_extra(path, name: str, domain, meta: dict):
    """The lattice field `name` of EXTRA_FIELDS that checkpoint `path` holds beside its populations (meta: its
    read_meta, which checked the dataset) as a global array for `domain`, read and verified like the
    populations; None without one."""
    if f"_{name}" not in meta:
        return None
    shape, dtype = meta[f"_{name}"]
    return _load_dataset(Path(path), name, EXTRA_FIELDS[name], shape[0], domain, dtype)


def _block_reader(ds, dtype, nonfinite: list):
    """The reader of the blocks `index` of dataset `ds` in `dtype`, counting into `nonfinite` the values not finite
    as stored, and those finite as stored but not in `dtype` (beyond its range: --init-from into float16)."""
    def block(index):
        data = hdf5.from_file(ds, ds[(slice(None),) + tuple(index)])
        bad = int(np.size(data) - np.count_nonzero(np.isfinite(data)))
        nonfinite[0] += bad
        if data.dtype != np.dtype(dtype):  # (--init-from into another storage dtype: rounded once here)
            with np.errstate(over="ignore", invalid="ignore"):
                data = data.astype(np.dtype(dtype))
            nonfinite[1] += int(np.size(data) - np.count_nonzero(np.isfinite(data))) - bad
        return data

    return block


def verify_data(path, dtype, planes: int = 16, name: str = "f") -> None:
    """The populations of checkpoint `path` (or its lattice field `name` of EXTRA_FIELDS) read whole as the run's
    load() (load_extra()) reads them (HDF5 verifies every chunk's checksum; every value finite, as stored and in
    `dtype`), `planes` planes of the first axis at a time, with NumPy alone (no device, nothing kept): the dry run's
    check of a restart's checkpoint. CheckpointError in load()'s words."""
    path = Path(path)
    error, nonfinite, stored = None, [0, 0], None
    try:
        with hdf5.open_file(path, "r", **hdf5.CHUNK_CACHE) as h5:
            ds = h5[name]
            stored = hdf5.stored_dtype(ds)
            block = _block_reader(ds, dtype, nonfinite)
            rest = (slice(None),) * (len(ds.shape) - 2)
            for x in range(0, int(ds.shape[1]), planes):
                block((slice(x, x + planes),) + rest)
    except (OSError, ValueError, KeyError, TypeError) as e:
        error = _short(e)
    _judge(path, EXTRA_FIELDS.get(name, "populations"), [(error, *nonfinite)], lambda k: "", stored, dtype)


def _load_dataset(path: Path, name: str, what: str, q: int, domain, dtype):
    error = None
    arr = None
    nonfinite = [0, 0]  # as stored; finite as stored but not in `dtype` (beyond its range: --init-from into float16)
    stored = None
    try:
        with hdf5.open_file(path, "r", **hdf5.CHUNK_CACHE) as h5:  # each chunk read and checksummed once
            ds = h5[name]
            stored = hdf5.stored_dtype(ds)
            arr = domain.make_field(_block_reader(ds, dtype, nonfinite), (q,), np.dtype(dtype), by_slabs=True)
    except (OSError, ValueError, KeyError, TypeError) as e:
        error = _short(e)
    # every process says the first failing process's reason (process 0 says it: "on another process" told nothing)
    mine = (error, *nonfinite)
    seen = domain.allgather_obj(mine) if domain.process_count > 1 else [mine]
    where = (lambda k: f" on process {k}") if domain.process_count > 1 else (lambda k: "")
    _judge(path, what, seen, where, stored, dtype)
    return arr


def _judge(path: Path, what: str, seen: list, where, stored, dtype) -> None:
    """CheckpointError where a process's read of a lattice dataset failed: (error, non-finite as stored, beyond
    `dtype`'s range) of each process, as _load_dataset and verify_data read them."""
    failed = [(k, e) for k, (e, _, _) in enumerate(seen) if e is not None]
    if failed:
        k, e = failed[0]
        raise CheckpointError(f"{path}: {what} unreadable or failing their checksum{where(k)} ({e})")
    bad = [(k, n) for k, (_, n, _) in enumerate(seen) if n > 0]
    if bad:
        raise CheckpointError(f"{path}: {what} hold non-finite values (NaN or inf) in "
                              f"{sum(n for _, n in bad):,} entries{where(bad[0][0]) if len(bad) == 1 else ''}; "
                              f"not a good checkpoint")
    over = [(k, n) for k, (_, _, n) in enumerate(seen) if n > 0]
    if over:  # a good checkpoint, whose values this run's storage cannot hold: not "non-finite values"
        import ml_dtypes

        now, at = np.dtype(dtype), where(over[0][0]) if len(over) == 1 else ""
        raise CheckpointError(f"{path}: {what} stored as {stored} hold {sum(n for _, n in over):,} value(s) beyond the "
                              f"range of {now} (largest {float(ml_dtypes.finfo(now).max):g}){at}: "
                              f"they cannot be taken as {now} (they would be inf); take them in a wider dtype "
                              f"(dtype = {str(stored)!r})")


def _said(spec) -> str:
    """A path as a one-line message names it: as given, or quoted where it holds a line break or another control
    character (--restart 'a<newline>b' split the error over two lines)."""
    return str(spec) if str(spec).isprintable() else repr(str(spec))


def resolve_restart(spec: str, directory, option: str = "--restart") -> list[Path]:
    """Candidate files for --restart: 'latest' -> every checkpoint, newest first; else the given path (a file, or
    a folder: its checkpoints, or a run folder's, newest first). `option`: the command-line option the errors name."""
    if spec == "latest":
        found = list(reversed(list_checkpoints(directory)))
        if not found:
            odd = odd_entries(directory)
            extra = f" (ignored, not regular files: {', '.join(p.name for p in odd)})" if odd else ""
            if Path(directory).exists() and not Path(directory).is_dir():  # (said "no checkpoint in" it)
                extra = " (it is not a folder: the run's checkpoints are written in a folder of that name)"
            raise CheckpointError(f"{option} latest: no checkpoint in {directory}{extra}")
        return found
    p = Path(spec)
    if p.is_dir() and not list_checkpoints(p) and (p / "checkpoints").is_dir():
        p = p / "checkpoints"  # a run folder, as --init-from takes it ("no checkpoint in that folder" was said)
    if p.is_dir():
        found = list(reversed(list_checkpoints(p)))
        if not found:  # (a run folder: its checkpoints/ named, where it was looked in too)
            inner = " or its checkpoints/" if p != Path(spec) else ""
            raise CheckpointError(f"{option} {_said(spec)}: no checkpoint in that folder{inner}")
        return found
    if not p.exists():
        raise CheckpointError(f"{option} {_said(spec)}: no such checkpoint file")
    return [p]


def init_candidates(spec: str) -> list[Path]:
    """Candidate files for --init-from, newest first: the given file, or the checkpoints of a run folder (its
    checkpoints/) or of a checkpoint folder."""
    p = Path(spec)
    if (p / "checkpoints").is_dir():
        p = p / "checkpoints"
    if not p.exists():
        raise CheckpointError(f"--init-from {_said(spec)}: no such checkpoint file or run folder")
    return resolve_restart(str(p), p, option="--init-from")


def converted(meta: dict, dtype) -> str:
    """What --init-from says where the checkpoint's populations are stored in another dtype than the new run's
    (a flow spun up in float16 storage continued in float32, or a float32 state checked in float64): '' if the
    same."""
    import ml_dtypes  # noqa: F401  (bfloat16 by name)

    was, now = str(meta.get("_dtype")), np.dtype(dtype)
    if was == str(now):
        return ""
    try:
        exact = np.finfo(np.dtype(was)).precision <= np.finfo(now).precision and \
            np.finfo(np.dtype(was)).max <= np.finfo(now).max
    except TypeError:
        exact = False
    return f"; stored as {was}, taken as {now} ({'exactly' if exact else 'rounded once'})"


def no_usable(errors: dict, last: str = "") -> CheckpointError:
    """The refusal of a restart or an --init-from none of whose checkpoints could be used (walk): errors maps each
    reason to the checkpoints it ruled out (newest first), said once each; `last` ends it (a setting: the rest)."""
    said = [f"{paths[0]}{f' and {len(paths) - 1} older' if len(paths) > 1 else ''}: {reason}"
            for reason, paths in errors.items()]
    return CheckpointError("no usable checkpoint: " + "; ".join(said + ([last] if last else [])))


def named(text: str, option: str, spec) -> str:
    """A refusal of --restart's or --init-from's checkpoint as the command says it: led by the option and its value
    (an error of one file named the file alone: "restart failed: /etc/passwd: not a readable HDF5 file"); the path
    said once where the file is the value given."""
    spec = str(spec)
    if text.startswith(f"{option} "):
        return text
    for given in {spec, str(Path(spec))}:
        if text.startswith(f"{given}: "):
            return f"{option} {_said(given)}{text[len(given):]}"
    return f"{option} {_said(spec)}: {text}"


def reason_of(e: CheckpointError, path) -> str:
    """A CheckpointError's text without its leading path."""
    text = str(e)
    return text[len(f"{path}: "):] if text.startswith(f"{path}: ") else text


class SettingsMismatch(CheckpointError):
    """A restart's checkpoint written with other settings (config.check_restart): the run's older checkpoints were
    written with the same, the walk ends there."""


def walk(candidates: list, read) -> tuple:
    """The newest of `candidates` (newest first) that this run can take, as the run, its dry run and the processes'
    look before they meet (cli) take it: read(path) reads and checks one, raising CheckpointError where it is damaged
    or does not fit this lattice (the next older one is tried) or SettingsMismatch (none older is: they share its
    settings). Returns (path, what read returned, the warnings to say: one per candidate passed over, each reason
    said once, said once one fits). Raises one CheckpointError with every candidate's reason where none fits (a
    single candidate: its own error)."""
    errors, said = {}, []  # reason -> the candidates it rules out; the warnings
    for path in candidates:
        try:
            return path, read(path), said
        except SettingsMismatch as e:
            if len(candidates) == 1:
                raise
            older = len(candidates) - 1 - candidates.index(path)
            note = (f" (the {older} older checkpoint(s) here, of the same run, are not tried: a setting that differs "
                    f"from its newest differs from them)" if older else "")
            raise no_usable(errors, f"{e}{note}") from None
        except CheckpointError as e:
            if len(candidates) == 1:  # the command says it, once
                raise
            reason = reason_of(e, path)
            said.append(f"{path}: {'the same' if reason in errors else reason}; trying an older checkpoint")
            errors.setdefault(reason, []).append(str(path))
    raise no_usable(errors)


def occupied(directory, paths, run: str | None = None, restart: bool = False) -> str:
    """Why a new run may not write into `directory`, which holds the checkpoints `paths` of another run. A
    `restart` is told to move those files away (naming them), not to continue "that run" with the --restart
    latest it has just been given (a checkpoint of another run copied into the run's folder)."""
    steps = sorted(int(NAME.match(Path(p).name).group(1)) for p in paths)
    who = f", run {run!r}" if run else ""
    if restart:
        names = sorted((Path(p).name for p in paths), key=lambda n: int(NAME.match(n).group(1)))
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        return (f"{directory} holds {len(names)} checkpoint(s) of another run ({shown}{who}): "
                f"a folder holds one run's checkpoints; move those files out of {directory} and run the restart "
                f"again, or continue this run into its own folder with --out DIR")
    return (f"{directory} already holds {len(steps)} checkpoint(s) of another run (steps {steps[0]}..{steps[-1]}"
            f"{who}); continue that run with --restart latest, or give this run its own folder with --out DIR "
            f"(or move those files away)")


def foreign(directory, run_id: str | None) -> list[tuple[Path, str]]:
    """Readable checkpoints in `directory` that belong to another run than `run_id`: (path, run id)."""
    return [(p, rid) for p, rid in owners(directory) if rid != run_id]


# the run id of each checkpoint file owners() read (absolute path -> (its _identity, run id)): a file once read is
# not read again while it is the same file. Every checkpoint's pruning read the metadata of each kept one, which
# holds the run's output index: 300 ms per checkpoint at 2,000 field outputs (26 ms at the first), growing with them
_OWNERS: dict = {}


def _identity(p) -> tuple | None:
    """What tells a file at `p` from another there or a changed one: (inode, size, mtime, ctime); None if none is."""
    try:
        st = os.stat(p)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def _known_owner(path, run_id: str):
    """Record the run id of the checkpoint just written at `path` (save: the next pruning need not read it)."""
    ident = _identity(path)
    if ident is not None:
        _OWNERS[os.path.abspath(path)] = (ident, run_id)


def owners(directory) -> list[tuple[Path, str]]:
    """(path, run id) of the readable checkpoints in `directory`, in step order (damaged files are
    nobody's: a restart skips them, pruning never removes them). A file read before is not read again while its
    inode, size and times are the same (_OWNERS)."""
    out, seen = [], set()
    for p in list_checkpoints(directory):
        key, ident = os.path.abspath(p), _identity(p)
        seen.add(key)
        known = _OWNERS.get(key)
        if ident is not None and known is not None and known[0] == ident:
            out.append((p, known[1]))
            continue
        try:
            rid = read_meta(p, quick=True).get("run_id", LEGACY_RUN)
        except CheckpointError:
            _OWNERS.pop(key, None)
            continue
        if ident is not None and ident == _identity(p):  # (not one replaced while it was read)
            _OWNERS[key] = (ident, rid)
        out.append((p, rid))
    folder = os.path.abspath(directory)
    for key in [k for k in _OWNERS if os.path.dirname(k) == folder and k not in seen]:
        del _OWNERS[key]  # files gone from the folder (pruned, moved aside): the memo stays as small as the folder
    return out
