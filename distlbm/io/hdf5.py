"""Write and read lattice fields in the global layout, each process writing only its own blocks.

Three paths, chosen by `write_mode`:
- 'single': one process writes its blocks (slabs) one by one into one file;
- 'mpio': h5py built with MPI and launched under MPI: every process writes one file collectively;
- 'split': one file per process plus a process-0 master whose datasets are HDF5 virtual datasets
  mapping the pieces (relative file names, so the folder can be moved).
A file is written under a temporary name and renamed into place when complete.
"""

from __future__ import annotations

import errno
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from distlbm.errors import ConfigError
from distlbm.io.files import (WriteError, check_folder_target, check_target, free_bytes, make_folder, reason,
                              remove_stale, size_text, space_needed)
from distlbm.parallel.processes import mpi_world


class _LazyH5py:
    """h5py, imported where it is first used: the driver builds and steps a case without it (scripts/gpu_check.sh
    times cases on a GPU image that may ship jax alone: every case failed on this module's import); a run that
    writes a checkpoint or a field output still needs it (a declared dependency)."""

    def __getattr__(self, name):
        import h5py as module

        return getattr(module, name)


h5py = _LazyH5py()


def require_h5py(what: str) -> None:
    """One line (a ConfigError) if h5py cannot be imported here, said where `what` starts, before any step: without it
    the lazy import failed at the first checkpoint or field output, hours in, in a traceback (the lock left held);
    a run's stop signal or wall time writes a checkpoint even without checkpoint_every."""
    import importlib

    try:
        importlib.import_module("h5py")
    except ImportError as e:
        raise ConfigError(f"h5py: cannot be imported here ({e}), and {what} with it; expected pip install "
                          f"'h5py>=3.10' (a dependency of distlbm: pip install distlbm installs it)") from None


@dataclass(frozen=True)
class Field:
    """A global array to write: layout 'scalar' [X, Y(, Z)], 'vector' [D, ...] stored as [..., D],
    or 'leading' [K, ...] stored as is (populations)."""

    name: str
    array: object
    layout: str = "scalar"
    dtype: str | None = None


# dtypes that HDF5 has no type for, stored as their raw bits with a `dtype` attribute on the dataset
# (bfloat16: h5py would write an opaque type that no reader understands); read back bit for bit
RAW_BITS = {"bfloat16": np.uint16}


def _mem_dtype(field: Field) -> np.dtype:
    return np.dtype(field.dtype or field.array.dtype)


def _file_dtype(field: Field) -> np.dtype:
    dt = _mem_dtype(field)
    return np.dtype(RAW_BITS.get(dt.name, dt))


def _mark_bits(ds, field: Field):
    if _mem_dtype(field).name in RAW_BITS:
        ds.attrs["dtype"] = _mem_dtype(field).name


def from_file(ds, data):
    """Data read from dataset `ds` in its stored dtype (raw bits viewed back as e.g. bfloat16)."""
    name = ds.attrs.get("dtype")
    if isinstance(name, bytes):
        name = name.decode()
    if name in RAW_BITS:
        import ml_dtypes  # noqa: F401  (registers bfloat16 with NumPy)

        return np.asarray(data).view(np.dtype(name))
    return data


def stored_dtype(ds) -> np.dtype:
    """The dtype the data of `ds` stands for (not the raw-bit dtype it is kept in)."""
    name = ds.attrs.get("dtype")
    if isinstance(name, bytes):
        name = name.decode()
    if name in RAW_BITS:
        import ml_dtypes  # noqa: F401

        return np.dtype(name)
    return ds.dtype


def split_asked() -> bool:
    """DISTLBM_HDF5_MODE: 'split' (one file per process and a master even where h5py has MPI) or unset/empty (the
    collective file where it can be written). Anything else is one line (ConfigError): a misspelt 'splt' wrote the
    collective file, unsaid."""
    text = os.environ.get("DISTLBM_HDF5_MODE", "").strip()
    if text not in ("", "split"):
        raise ConfigError(f"DISTLBM_HDF5_MODE = {text!r}: expected split (one file per process), or unset (one file "
                          f"written collectively where h5py has MPI)")
    return text == "split"


def write_mode(domain) -> str:
    if domain.process_count == 1:
        return "single"
    if h5py.get_config().mpi and not split_asked():
        world = mpi_world()
        if world is not None and world.Get_size() == domain.process_count:
            return "mpio"
    return "split"


def _file_shape(field: Field, spatial):
    arr = field.array
    lead = tuple(arr.shape[: arr.ndim - len(spatial)])
    if field.layout == "vector":
        return tuple(spatial) + lead
    return lead + tuple(spatial)


def _to_file(field: Field, block):
    if field.layout == "vector":
        block = np.moveaxis(block, 0, -1)
    block = block.astype(field.dtype or block.dtype, copy=False)
    if block.dtype.name in RAW_BITS:
        block = block.view(RAW_BITS[block.dtype.name])
    return block


def _file_index(field: Field, index, arr_ndim, d):
    if field.layout == "vector":
        return tuple(index) + (slice(None),)
    return (slice(None),) * (arr_ndim - d) + tuple(index)


CHUNK_ROW_BYTES = 16 << 20  # at most this many bytes in the chunks of one range of x-planes (every leading index)
# HDF5's chunk cache of a checksummed dataset: two rows of chunks, with slots enough that they never collide,
# evicting fully written or read chunks first (w0 = 1). A slab along x that ends inside a row leaves that
# row's chunks in the cache until the next slab completes them, so every chunk is written once and read
# (and checksummed) once: 300^3 D3Q19 (9-plane slabs over 2-plane rows) puts 1.000x the file's bytes and
# reads 0.0004x; 1.11x and 0.11x with HDF5's default cache (1 MiB, 521 slots, w0 0.75).
CHUNK_CACHE = dict(rdcc_nbytes=2 * CHUNK_ROW_BYTES + (1 << 20), rdcc_nslots=100_003, rdcc_w0=1.0)


def _chunks(field: Field, shape, domain, d):
    """The chunks of a checksummed dataset: within one block of the decomposition, c planes along x over the
    block's other extents, one chunk per leading index (population); c is the largest divisor of the
    block's x extent whose row of chunks (all leading indices) holds at most CHUNK_ROW_BYTES (a plane
    larger than that: one plane, its other extents halved until the row fits). The writers and readers go
    slab by slab along x over every leading index (parallel.domain.slabs, fill_fields_on_device), so a
    slab covers whole rows but at its ends, which the chunk cache completes (CHUNK_CACHE). Chunks a whole
    block deep in x (before) beside HDF5's default cache made every slab re-read, re-checksum and re-write
    each 16 MiB chunk it touched in part: 256^3 D3Q19 wrote in 25 s and read in 10 s, 300^3 in 64 s and
    28 s; 1.9 s and 1.4 s, 2.7 s and 2.5 s with rows of chunks (a disk that writes 1.5 GB/s)."""
    spatial = shape[:d] if field.layout == "vector" else shape[-d:]
    block = [s // max(m, 1) for s, m in zip(spatial, getattr(domain, "mesh_shape", ()) or (1,) * d)]
    itemsize = _file_dtype(field).itemsize
    lead = [1] * (len(shape) - d)
    across = int(np.prod(shape[: len(shape) - d])) if field.layout != "vector" else shape[-1]  # per cell

    def row(planes, rest):  # bytes of a row of chunks `planes` deep with the other extents `rest`
        return planes * int(np.prod(rest)) * itemsize * across

    rest = block[1:]
    while row(1, rest) > CHUNK_ROW_BYTES and rest and max(rest) > 1:
        i = int(np.argmax(rest))
        rest[i] = (rest[i] + 1) // 2
    c = max([k for k in range(1, block[0] + 1) if block[0] % k == 0 and row(k, rest) <= CHUNK_ROW_BYTES] or [1])
    chunk = [c] + rest
    if field.layout == "vector":
        return tuple(chunk) + (shape[-1],)
    return tuple(lead) + tuple(chunk)


def _create(h5, field: Field, d, domain, checksum: bool):
    spatial = domain.shape
    shape = _file_shape(field, spatial)
    kw = {}
    if checksum:
        kw = dict(chunks=_chunks(field, shape, domain, d), fletcher32=True)
    ds = h5.create_dataset(field.name, shape=shape, dtype=_file_dtype(field), **kw)
    _mark_bits(ds, field)
    return ds


def _set_attrs(obj, attrs: dict):
    for k, v in attrs.items():
        obj.attrs[k] = json.dumps(v) if isinstance(v, (dict, list, tuple)) else v


def _bytes_of(fields, domain, mine: bool) -> int:
    """Bytes the fields take in a file: the whole global arrays, or only this process's blocks."""
    total = 0
    for fld in fields:
        item = _file_dtype(fld).itemsize
        if mine:
            total += sum(int(np.prod(b.shape)) for _, b in _block_shapes(fld.array)) * item
        else:
            total += int(np.prod(fld.array.shape)) * item
    return total


def _block_shapes(arr):
    """(index, shape) of this process's distinct blocks of a global array, without copying them."""
    seen = set()
    for sh in getattr(arr, "addressable_shards", []):
        key = tuple((sl.start, sl.stop) for sl in sh.index)
        if key in seen:
            continue
        seen.add(key)
        yield sh.index, sh.data
    if not hasattr(arr, "addressable_shards"):
        yield (), np.asarray(arr)


def create_exclusive(tmp: Path, **kw) -> h5py.File:
    """A new HDF5 file at `tmp`, created exclusively (O_EXCL: a link placed there is never followed)."""
    remove_stale(tmp)
    return open_file(tmp, "x", **kw)


# HDF5's file locking. HDF5 >= 1.10 locks every file it creates or opens (flock, else fcntl) and refuses the file where
# the file system has no such locks: Lustre mounted without flock, NFS without its lock daemon, some GPFS set-ups, with
# "unable to lock file, errno = 38 (Function not implemented)", 37 (No locks available) or 11 (Resource temporarily
# unavailable). Every checkpoint and field output of a run there failed, the run stepping on until max_failed_writes
# stopped it (exit 74, nothing kept: with checkpoint_every of hours, hours computed for nothing), and a restart found no
# readable checkpoint. distlbm needs none of HDF5's locks: one run per folder is its run lock's (io.lock, which copes
# with such a file system), it writes every file under a temporary name no reader opens and renames it whole, and its
# readers check the `complete` attribute and the checksums. So the first refusal turns HDF5's locking off for the rest
# of the process, as HDF5_USE_FILE_LOCKING=FALSE does (said once: check_locking, at the run's start), and the file is
# created or opened again without it. The MPI-IO driver ('mpio' writes) takes no lock (its VFD has no lock callback):
# it is never retried (a retry on some processes alone would leave the others in a collective). errno 11 (EAGAIN) is
# also flock's "the file is locked" where locks work: on a file that the refused call did not create (a checkpoint, a
# mask file) it is another program holding that file for writing, and is refused as such, locks left on.
LOCK_REFUSED = re.compile(r"unable to lock file(?:, errno = (\d+))?", re.IGNORECASE)
_unlocked: dict = {}  # the first refusal: its words ("why") and the file's folder; "said" once check_locking said it


def lock_refused(e: BaseException) -> str | None:
    """The words of HDF5's refusal to lock a file in an exception of h5py (None: another error)."""
    m = LOCK_REFUSED.search(str(e)) if isinstance(e, OSError) else None
    if m is None:
        return None
    n = int(m.group(1)) if m.group(1) else None
    return f"errno {n}, {os.strerror(n)}" if n is not None else "unable to lock file"


def _locking_arg() -> bool:
    """Whether h5py.File takes locking=False here (h5py >= 3.5 with HDF5 >= 1.12.1 or 1.10.7); else the environment
    variable HDF5_USE_FILE_LOCKING=FALSE turns it off (read by HDF5 at every open since 1.10.1)."""
    try:
        hv = tuple(h5py.version.hdf5_version_tuple[:3])
        pv = tuple(int(x) for x in re.findall(r"\d+", h5py.version.version)[:2])
    except (AttributeError, ValueError):
        return False
    return pv >= (3, 5) and (hv >= (1, 12, 1) or (1, 10, 7) <= hv < (1, 11))


def _without_lock(kw: dict) -> dict:
    if _locking_arg():
        return {**kw, "locking": False}
    os.environ["HDF5_USE_FILE_LOCKING"] = "FALSE"
    return kw


def open_file(path, mode: str = "r", **kw) -> h5py.File:
    """h5py.File(path, mode, **kw), without HDF5's file locking once a file system refused it (see LOCK_REFUSED): the
    first refusal turns it off for the process and the file is created or opened again. A file that the refused
    create left behind (HDF5 creates it, then fails to lock it) is removed first."""
    if _unlocked:
        return h5py.File(path, mode, **_without_lock(kw))
    existed = os.path.lexists(path)
    try:
        return h5py.File(path, mode, **kw)
    except OSError as e:
        why = lock_refused(e)
        if why is None or kw.get("driver") == "mpio":
            raise
        if why.startswith(f"errno {errno.EAGAIN},") and not (mode in ("x", "w-", "w") and not existed):
            # flock's "the file is locked", on a file this call did not create: another program holds this very file
            # (for writing, or this is a write), where locks work; read unlocked, it may be half written
            raise OSError(errno.EAGAIN, f"another program holds this file open for writing (HDF5's file lock: "
                                        f"{why}); let it finish or close it there") from None
        if not _unlocked:
            _unlocked.update(why=why, folder=str(Path(path).parent))
    if mode in ("x", "w-", "w") and not existed and os.path.isfile(path) and not os.path.islink(path):
        try:
            os.unlink(path)  # the empty file of the refused create ("x" would find it and fail: file exists)
        except OSError:
            pass
    return h5py.File(path, mode, **_without_lock(kw))


def unlocked() -> str | None:
    """Why HDF5's file locking is off in this process (the first refusal's words), None while it is on."""
    return _unlocked.get("why")


PROBE = ".distlbm-h5probe"


def check_locking(folder) -> str | None:
    """At a run's start, before any step: create (and remove) a small HDF5 file in the run's `folder`, so that a file
    system refusing HDF5's file locks is found now, not at the first checkpoint. Returns the warning to say once (None
    where nothing is to be said): HDF5's locking turned off for this process, by this probe or by a read before it (a
    restart's checkpoint). ConfigError (one line naming the folder and the remedy) where HDF5 cannot create a file
    there even without its locking; another failure (no permission, a full disk) is left to the run's own checks and
    writes, which say it in their words."""
    import importlib.util

    if importlib.util.find_spec("h5py") is None:  # (a run without h5py is refused elsewhere: require_h5py)
        return None
    folder = Path(folder)
    probe = folder / f"{PROBE}-{_probe_host()}-{os.getpid()}.h5"
    _remove_stale_probes(folder)
    try:
        try:
            open_file(probe, "x").close()
        finally:
            if os.path.isfile(probe) and not os.path.islink(probe):
                os.unlink(probe)
    except OSError as e:
        why = lock_refused(e)
        if why is not None:
            raise ConfigError(f"--out = {str(folder)!r}: HDF5 cannot create a file here: its file system refuses "
                              f"HDF5's file lock ({why}), and the file failed without the lock too ({_first(e)}); "
                              f"expected a folder where HDF5 files can be written (try HDF5_USE_FILE_LOCKING=FALSE, "
                              f"or an --out on another file system)") from None
    if _unlocked and not _unlocked.get("said"):
        _unlocked["said"] = True
        return (f"HDF5 cannot lock its files in {_unlocked['folder']} ({_unlocked['why']}: a file system without "
                f"flock, e.g. Lustre mounted without flock or NFS without its lock daemon): this process writes and "
                f"reads its HDF5 files without HDF5's locks, as HDF5_USE_FILE_LOCKING=FALSE does (set it, and this is "
                f"not said); distlbm's own run lock keeps one run per folder, and its files are written under "
                f"temporary names and renamed whole")
    return None


def _probe_host() -> str:
    """This host's name as a probe's name carries it (letters, digits, '.', '_' and '-' only)."""
    import socket

    return re.sub(r"[^A-Za-z0-9._-]", "_", socket.gethostname()) or "host"


_PROBE_NAME = re.compile(re.escape(PROBE) + r"-(?:(?P<host>[A-Za-z0-9._-]+)-)?(?P<pid>\d+)\.h5")


def _remove_stale_probes(folder: Path, older_s: float = 60.0) -> None:
    """The probes of runs killed (kill -9, the OOM killer) in the milliseconds a probe lives, left in `folder`: those
    of a process of this host that is gone, whatever their age (a Slurm chain's next job, or a restart typed at once,
    starts within the minute: the probe of a run killed in its start stayed past the run's end), and any other older
    than `older_s` (another host's run, probing this moment, is younger: kept; as is a live process's here)."""
    import time

    from distlbm.io.lock import _pid_alive

    host = _probe_host()
    try:
        for p in folder.glob(f"{PROBE}-*.h5"):
            m = _PROBE_NAME.fullmatch(p.name)
            if p.is_symlink() or not p.is_file():
                continue
            if not (m and m["host"] == host and not _pid_alive(int(m["pid"]))) \
                    and time.time() - p.stat().st_mtime <= older_s:
                continue
            try:
                p.unlink()
            except OSError:  # (gone meanwhile, or not ours to remove: left)
                pass
    except OSError:
        pass


def _first(e: BaseException) -> str:
    text = str(e).splitlines()[0] if str(e) else e.__class__.__name__
    return text[:200]


_FAILED: list = []  # HDF5 objects of failed writes, kept alive for the rest of the process (see failed_write)


def failed_before() -> bool:
    """Whether a write of this process failed: its HDF5 objects are kept alive, and the process must leave with
    os._exit (the command line does), as HDF5 may crash tearing them down at interpreter exit."""
    return bool(_FAILED)


def failed_write(e: BaseException, tmp: Path, h5, target: Path, needed) -> WriteError:
    """After a failed write of `tmp` (for `target`): clean up, and the WriteError to report. The failed
    writer's frames (and so its HDF5 objects) are kept alive: h5py's finalisers crash the process on a
    file whose writes failed. Later writes to other files work (the run goes on: driver.loop._attempt);
    the process leaves with os._exit (failed_before)."""
    _FAILED.append(sys.exc_info()[2])
    discard(tmp, h5)
    return e if isinstance(e, WriteError) else WriteError(target, reason(e, needed, target.parent))


def discard(tmp: Path, h5=None):
    """After a failed write: free the space of the temporary file (truncate it: a full disk gets its
    blocks back even while HDF5 still holds it open), close it if possible, and remove it."""
    try:
        if os.path.lexists(tmp) and not os.path.islink(tmp):
            os.truncate(tmp, 0)
    except OSError:
        pass
    if h5 is not None:
        try:
            h5.close()
        except Exception:  # noqa: BLE001 (HDF5 may refuse to close a file whose writes failed)
            _FAILED.append(h5)
    try:
        os.unlink(tmp)
    except OSError:
        pass


def write(path, fields, domain, attrs: dict | None = None, checksum: bool = False,
          part_attrs: dict | None = None, keep_free: int = 0, held=None) -> Path:
    """Write `fields` (list of Field) into `path` (global layout) and return the path.

    Every process must call this. checksum=True stores chunked datasets with HDF5's Fletcher-32
    checksum, which HDF5 verifies on every read. `part_attrs` are written into each part file of a
    split write (so that a reader can check that every part belongs to the same write).

    Temporary files are created exclusively, the free space is checked first, and on any failure the
    temporary files are removed and WriteError is raised on every process (the target is untouched).
    keep_free: bytes the file system must still have after the write (per process where each writes its own
    part): the field outputs keep one checkpoint's room.
    held: the run's hold on its folder (io.lock.FolderLock, process 0's): the folders below it are made, never the
    run's folder again (io.files.make_folder: a WriteError where it was moved or removed).
    """
    path = Path(path)
    d = len(domain.shape)
    attrs = dict(attrs or {})
    mode = write_mode(domain)
    rank = domain.process_index
    tmp = path.with_name(path.name + ".tmp")
    error = None
    # part files of an earlier write of this path (the only ones _drop_parts_beyond removes) lie beside its file or its
    # part 0: a new file's write does not list the folder for them (26 ms per output in a folder of 30,000 outputs)
    earlier = rank == 0 and (os.path.lexists(path) or os.path.lexists(_part_name(path, 0)))
    if rank == 0:
        try:
            check_folder_target(path.parent)  # a file where the folder goes: said as such, not "File exists"
            make_folder(path.parent, held)
            check_target(path)
        except WriteError as e:
            error = e
        except OSError as e:
            error = WriteError(path, reason(e, None, path.parent))
    if domain.process_count > 1:
        domain.barrier()  # the folder exists
    # the space this process will need, checked before anything is written
    mine = _bytes_of(fields, domain, mine=(mode == "split"))
    # a checkpoint's room kept free (field outputs): every process writes into one file system (one folder for all,
    # io.files.check_shared), so where each writes its own part that room is kept beside all the parts (each part
    # against it let P processes leave 1/P of a checkpoint)
    together = (sum(domain.allgather_obj(mine)) if keep_free and mode == "split" and domain.process_count > 1
                else mine)
    if error is None:
        needed = mine
        if mode == "split" or rank == 0:
            needed_all = space_needed(needed)
            asked = space_needed(together) + keep_free  # (needed_all where nothing is kept free)
            try:
                free = free_bytes(path.parent)
            except OSError:
                free = None
            if free is not None and free < asked:
                kept = (f" and {size_text(keep_free)} kept free for a checkpoint"
                        + (f" (with the other processes' parts: {size_text(space_needed(together))} in all)"
                           if together != mine else "") if keep_free else "")
                error = WriteError(path, f"not enough space: needs about {size_text(needed_all)}{kept}, "
                                         f"{size_text(free)} free in {path.parent}")
    else:
        needed = None
    _agree(domain, error, path)
    if mode == "single":
        h5 = None
        try:
            h5 = create_exclusive(tmp, **(CHUNK_CACHE if checksum else {}))
            for fld in fields:
                ds = _create(h5, fld, d, domain, checksum)
                for idx, block in domain.blocks(fld.array):
                    ds[_file_index(fld, idx, fld.array.ndim, d)] = _to_file(fld, block)
            _set_attrs(h5, {**attrs, "write_mode": mode, "complete": 1})
            h5.flush()
            h5.close()
            h5 = None
            _fsync(tmp)
            os.replace(tmp, path)
            _fsync_folder(path)
        except (WriteError, OSError, RuntimeError, ValueError) as e:
            raise failed_write(e, tmp, h5, path, needed) from None
        if earlier:
            _drop_parts_beyond(path, 0)
        return path
    if mode == "mpio":
        h5 = None
        try:
            if rank == 0:
                remove_stale(tmp)
        except (OSError, WriteError) as e:
            error = e if isinstance(e, WriteError) else WriteError(path, reason(e, needed, path.parent))
        _agree(domain, error, path)
        try:
            h5 = h5py.File(tmp, "x", driver="mpio", comm=mpi_world(), **(CHUNK_CACHE if checksum else {}))
            for fld in fields:
                ds = _create(h5, fld, d, domain, checksum)
                # collective writes (required with the checksum filter); every process holds the same
                # number of equally sized blocks, so every process makes the same number of calls. A
                # domain whose processes hold uneven parts (a slice that misses some processes' blocks:
                # io.output.CutDomain) writes independently, which needs no filter.
                if getattr(domain, "uneven", False):
                    if checksum:
                        raise ValueError("checksummed MPI-IO writes need the same blocks on every process")
                    for idx, block in domain.blocks(fld.array):
                        ds[_file_index(fld, idx, fld.array.ndim, d)] = _to_file(fld, block)
                    continue
                with ds.collective:
                    for idx, block in domain.blocks(fld.array):
                        ds[_file_index(fld, idx, fld.array.ndim, d)] = _to_file(fld, block)
            _set_attrs(h5, {**attrs, "write_mode": mode, "complete": 1})
            h5.close()
            h5 = None
        except (OSError, RuntimeError, ValueError) as e:
            _FAILED.append(sys.exc_info()[2])
            error = WriteError(path, reason(e, needed, path.parent))
        _agree(domain, error, path, cleanup=lambda: discard(tmp, h5) if rank == 0 else
               (discard_handle(h5) if h5 is not None else None))
        if rank == 0:
            try:
                os.replace(tmp, path)
            except OSError as e:
                discard(tmp)
                error = WriteError(path, reason(e, needed, path.parent))
            else:
                _fsync_folder(path)
                if earlier:
                    _drop_parts_beyond(path, 0)
        _agree(domain, error, path)
        return path
    # split: one part file per process, then a virtual master
    part = _part_name(path, rank)
    part_tmp = part.with_name(part.name + ".tmp")
    pieces = []
    h5 = None
    try:
        check_target(part)
        h5 = create_exclusive(part_tmp)
        for fld in fields:
            for k, (idx, block) in enumerate(domain.blocks(fld.array)):
                data = _to_file(fld, block)
                kw = dict(chunks=True, fletcher32=True) if checksum else {}
                name = f"{fld.name}/b{k}"
                _mark_bits(h5.create_dataset(name, data=data, **kw), fld)
                pieces.append({"field": fld.name, "dataset": name, "file": part.name,
                               "index": [[sl.start, sl.stop] for sl in idx], "shape": list(data.shape)})
        _set_attrs(h5, {**(part_attrs or {}), "part": rank, "parts": domain.process_count, "complete": 1})
        h5.close()
        h5 = None
        _fsync(part_tmp)
    except (WriteError, OSError, RuntimeError, ValueError) as e:
        error = failed_write(e, part_tmp, h5, part, needed)
    _agree(domain, error, path, cleanup=lambda: discard(part_tmp))
    os.replace(part_tmp, part)
    _fsync_folder(part)
    everything = [p for lst in domain.allgather_obj(pieces) for p in lst]
    if rank == 0:
        h5 = None
        try:
            h5 = create_exclusive(tmp)
            for fld in fields:
                shape = _file_shape(fld, domain.shape)
                fdt = _file_dtype(fld)
                layout = h5py.VirtualLayout(shape=shape, dtype=fdt)
                for p in everything:
                    if p["field"] != fld.name:
                        continue
                    src = h5py.VirtualSource(p["file"], p["dataset"], shape=tuple(p["shape"]))
                    index = tuple(slice(a, b) for a, b in p["index"])
                    layout[_file_index(fld, index, fld.array.ndim, d)] = src
                # where a part is missing a reader gets the fill: NaN, or an integer's largest value (255 for
                # the uint8 kind: no code; 0xFFFF, a NaN, for raw bfloat16 bits), not 0, which is fluid
                fill = np.nan if fdt.kind == "f" else np.iinfo(fdt).max if fdt.kind in "iu" else 0
                vds = h5.create_virtual_dataset(fld.name, layout, fillvalue=fill)
                _mark_bits(vds, fld)
            _set_attrs(h5, {**attrs, "write_mode": mode, "parts": domain.process_count, "complete": 1})
            h5.close()
            h5 = None
            _fsync(tmp)
            os.replace(tmp, path)
            _fsync_folder(path)
        except (WriteError, OSError, RuntimeError, ValueError) as e:
            error = failed_write(e, tmp, h5, path, needed)
        else:
            if earlier:
                _drop_parts_beyond(path, domain.process_count)
    _agree(domain, error, path)
    return path


def _part_name(path: Path, k: int) -> Path:
    """The part file of process k of a split write of `path`: PATH.pK.h5."""
    return path.with_name(f"{path.stem}.p{k}{path.suffix}")


def _drop_parts_beyond(path, count: int):
    """Remove the part files PATH.pK.h5 with K >= count that an earlier write of `path` left (a step written again by a
    restart on fewer processes, or on one): nothing reads them, and they filled the folder unsaid. Best effort."""
    for p in part_files(path):
        k = p.name[len(path.stem) + 2: -len(path.suffix) or None]
        if k.isascii() and k.isdigit() and str(int(k)) == k and int(k) >= count:  # this module's names alone
            try:
                p.unlink()
            except OSError:
                pass


def discard_handle(h5):
    try:
        h5.close()
    except Exception:  # noqa: BLE001
        pass


def _agree(domain, error, path, cleanup=None):
    """Raise the write error on every process if it happened on any (nobody waits in a collective)."""
    if domain.process_count > 1:
        failed = domain.any_process(error is not None)
    else:
        failed = error is not None
    if failed:
        if cleanup is not None:
            cleanup()
        # every process's error, gathered: one whose own part went through names the first that failed
        seen = domain.allgather_obj(None if error is None else str(error)) if domain.process_count > 1 else []
        raise error or WriteError(path, next((f"the write failed on process {r}: {m}" for r, m in enumerate(seen)
                                              if m is not None), "the write failed on another process"))


def part_files(path) -> list[Path]:
    """The per-process part files of a 'split' file (empty for the other modes)."""
    path = Path(path)
    return sorted(path.parent.glob(f"{path.stem}.p*{path.suffix}"))


def _fsync(path):
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_folder(path):
    """The rename that made `path` visible, onto the disk: its folder fsynced. The file's data were synced before
    the rename, but a node that lost power after it could come back with the folder's entry as before: the newest
    checkpoint gone, the restart one checkpoint earlier. A file system that cannot sync a folder (some network and
    parallel ones refuse: EINVAL, EBADF) keeps its own guarantee; the write stands."""
    try:
        fd = os.open(Path(path).parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def stored_elsewhere(h5, name: str, allow_virtual: bool = False) -> str | None:
    """Why the dataset `name` of the open file `h5` is not data kept in that file (None if it is): a soft
    or external link on its path, external raw storage, or (unless `allow_virtual`) a virtual dataset.
    Decided from the links and the dataset's creation properties, never by opening what they point to
    (a link or an external file to a FIFO would block the read forever, one to /dev/zero or another
    file would read data that no checksum of this file covers)."""
    group = h5
    path = ""
    for part in [p for p in name.split("/") if p]:
        path = f"{path}/{part}"
        link = group.get(part, getlink=True)
        if link is None:
            return None  # missing: the caller says so
        if isinstance(link, h5py.ExternalLink):
            return f"'{path}' is an external link (to {link.filename}:{link.path})"
        if isinstance(link, h5py.SoftLink):
            return f"'{path}' is a soft link (to {link.path})"
        group = group[part]
    if isinstance(group, h5py.Dataset):
        if group.is_virtual and not allow_virtual:
            return f"'{path}' is a virtual dataset (its data lie in other files)"
        if not group.is_virtual and group.id.get_create_plist().get_external_count() > 0:
            return f"'{path}' is stored in an external raw data file"
    return None


