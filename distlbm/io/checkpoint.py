"""Checkpoints: the populations in the global layout plus step, time, configuration and schedule
counters. Written under a temporary name, flushed and renamed (a crash mid-write leaves the previous
checkpoint intact); chunks carry HDF5 Fletcher-32 checksums that every read verifies. Because the
layout is global, a checkpoint restarts on any number of devices or processes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import h5py
import numpy as np

from distlbm.io import hdf5

FORMAT = "distlbm-checkpoint-1"
NAME = re.compile(r"^ckpt_(\d{9})\.h5$")


class CheckpointError(RuntimeError):
    """A checkpoint that cannot be used: missing, incomplete, corrupted or incompatible."""


def path_for(directory, step: int) -> Path:
    return Path(directory) / f"ckpt_{step:09d}.h5"


def save(directory, f, domain, meta: dict, keep: int = 3) -> Path:
    """Write f: [Q, X, Y(, Z)] (global array) and `meta` (JSON-able) as checkpoint of meta['step']."""
    path = path_for(directory, int(meta["step"]))
    attrs = {"format": FORMAT, "meta": json.dumps(meta)}
    hdf5.write(path, [hdf5.Field("f", f, "leading")], domain, attrs=attrs, checksum=True)
    if domain.process_index == 0 and keep > 0:
        for old in list_checkpoints(directory)[:-keep]:
            remove(old)
    domain.barrier()
    return path


def remove(path):
    path = Path(path)
    for p in [path, *hdf5.part_files(path)]:
        p.unlink(missing_ok=True)


def list_checkpoints(directory) -> list[Path]:
    """Complete checkpoint files (by name) in step order; temporaries are ignored."""
    d = Path(directory)
    if not d.is_dir():
        return []
    return sorted(p for p in d.iterdir() if NAME.match(p.name))


def read_meta(path) -> dict:
    """The metadata of a checkpoint, checking that the file is a complete distlbm checkpoint."""
    path = Path(path)
    try:
        with h5py.File(path, "r") as h5:
            if h5.attrs.get("format") != FORMAT or int(h5.attrs.get("complete", 0)) != 1:
                raise CheckpointError(f"{path}: not a complete {FORMAT} file")
            meta = json.loads(h5.attrs["meta"])
            if "f" not in h5:
                raise CheckpointError(f"{path}: no populations dataset")
            meta["_shape"] = list(h5["f"].shape)
            meta["_dtype"] = str(hdf5.stored_dtype(h5["f"]))
            return meta
    except CheckpointError:
        raise
    except (OSError, KeyError, ValueError) as e:
        raise CheckpointError(f"{path}: unreadable ({e.__class__.__name__}: {e})") from None


def load(path, domain, dtype):
    """The populations of checkpoint `path` as a global array laid out for `domain` (each process
    reads only its own blocks; HDF5 verifies the checksums). Raises CheckpointError on any failure,
    on every process if it failed on one."""
    path = Path(path)
    meta = read_meta(path)
    q = meta["_shape"][0]
    error = None
    arr = None
    try:
        with h5py.File(path, "r") as h5:
            ds = h5["f"]

            def block(index):
                return hdf5.from_file(ds, ds[(slice(None),) + tuple(index)])

            arr = domain.make_field(block, (q,), np.dtype(dtype))
    except (OSError, ValueError, KeyError) as e:
        error = f"{e.__class__.__name__}: {e}"
    if domain.any_process(error is not None):
        raise CheckpointError(f"{path}: populations unreadable or failing their checksum"
                              + (f" ({error})" if error else " on another process"))
    return arr, meta


def resolve_restart(spec: str, directory) -> list[Path]:
    """Candidate files for --restart: 'latest' -> every checkpoint, newest first; else the given path."""
    if spec == "latest":
        found = list(reversed(list_checkpoints(directory)))
        if not found:
            raise CheckpointError(f"--restart latest: no checkpoint in {directory}")
        return found
    p = Path(spec)
    if p.is_dir():
        found = list(reversed(list_checkpoints(p)))
        if not found:
            raise CheckpointError(f"--restart {spec}: no checkpoint in that folder")
        return found
    if not p.exists():
        raise CheckpointError(f"--restart {spec}: no such checkpoint file")
    return [p]
