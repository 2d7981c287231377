"""One run per output folder at a time.

Two runs writing into one folder at the same time replace each other's checkpoints: both write
`ckpt_000001000.h5` and the later rename wins, so one run's checkpoints are silently gone (measured: two
`distlbm run cavity2d` started together at Re 100 and 400 both ended with exit 0, and the folder held only
the Re 400 run's files). A run therefore holds the folder's lock file `OUT/.distlbm.lock` from its
set-up to its exit (process 0 only; the other processes agree on the outcome):

- an advisory `flock` on it, which the kernel (or the network file system) drops when the process dies,
  however it dies: a killed run never blocks the next one on its own host;
- a record in it (host, process id, Slurm job, start, command) whose modification time a background
  thread renews every HEARTBEAT_S seconds, and `"ended": true` once the run has left. Where the file
  system keeps locks per node (Lustre `localflock`, BeeGFS without global locks) or has none, a run on
  another node is still seen: a record that has not ended and was renewed within its `stale_after_s`
  belongs to a live run. A record older than that (its node died), a run that ended, or a dead process
  on this host are taken over.

A run refused before it wrote anything (its checks, its restart's checkpoint) withdraws instead of ending its
record: the folder's lock file is left as the run found it, removed where the run created it (then a folder the
run made is empty, and the command removes that too), its earlier record, bytes and times, put back otherwise.

A folder in use is one line (FolderInUse, a configuration error: exit 2, nothing ran) naming the run
that holds it. `DISTLBM_LOCK_WAIT` (seconds, default 0) waits that long for the folder first; the Slurm
templates wait 360 s, so that a job requeued after its node failed outlives the dead run's record.
Several Simulations in one Python process share the folder's lock (the library's own business)."""

from __future__ import annotations

import atexit
import errno
import fcntl
import itertools
import json
import math
import os
import re
import shlex
import socket
import stat
import struct
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Optional

from distlbm.errors import ConfigError
from distlbm.io.files import FILE_MODE, fmt_time

NAME = ".distlbm.lock"
FORMAT = "distlbm-lock-1"
HEARTBEAT_S = 15.0
STALE_AFTER_S = 300.0  # a record renewed longer ago than this belongs to a run that no longer runs
_UNSUPPORTED = {errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL, errno.EBADF}


class FolderInUse(ConfigError):
    """Another run holds the output folder: the message names it and what to do."""


def _now() -> float:
    return time.time()


def _read_record(fd: int) -> Optional[dict]:
    try:
        data = os.pread(fd, 65536, 0)
        rec = json.loads(data.decode("utf-8"))
    except (OSError, ValueError):
        return None
    return rec if isinstance(rec, dict) and rec.get("format") == FORMAT else None


def _pid_alive(pid) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, owned by someone else
        return True
    return True


def _describe(rec: Optional[dict], age: Optional[float]) -> str:
    if not rec:
        return "another process holds its lock"
    parts = [f"pid {rec.get('pid')} on host {rec.get('host')}"]
    if rec.get("job"):
        parts.append(f"Slurm job {rec.get('job')}")
    if rec.get("started"):
        parts.append(f"started {rec.get('started')}")
    if age is not None:
        parts.append(f"last seen {fmt_time(max(age, 0))} ago")
    cmd = str(rec.get("command") or "")
    cmd = cmd if len(cmd) <= 200 else cmd[:200] + " ..."  # cut, and said to be
    return ", ".join(parts) + (f": {cmd}" if cmd else "")


def _state(rec: Optional[dict], age: float, locked: bool = False) -> str:
    """What a record says of its run: 'free' (no record), 'ended', 'running' or 'gone' (never ended: killed, or
    its node failed). Running: renewed recently on another host (locks there may be per node), or a live process
    on this host where the lock was not taken (where it was, a live run on this host would hold it: a dead run's
    process id may have been reused)."""
    if not rec:
        return "free"
    if rec.get("ended"):
        return "ended"
    if rec.get("host") == socket.gethostname():
        live = not locked and rec.get("pid") != os.getpid() and _pid_alive(rec.get("pid"))
    else:
        live = age < _stale_after(rec)
    return "running" if live else "gone"


def _stale_after(rec: dict) -> float:
    try:
        stale = float(rec.get("stale_after_s", STALE_AFTER_S))
    except (TypeError, ValueError):
        return STALE_AFTER_S
    return stale if math.isfinite(stale) and stale > 0 else STALE_AFTER_S


class _Held:
    def __init__(self, path: Path, fd: int, locked: bool, created: bool = False, prior: Optional[tuple] = None):
        self.path, self.fd, self.locked, self.users = path, fd, locked, 0
        self.key: Optional[str] = None  # its entry in _held: the lock file by the folder's real path (acquire)
        # what withdraw() puts back: the lock file this run created (removed), or the bytes and times of the one it
        # found (a record of the run before, written again); `kept` once a holder let go after it may have written
        self.created, self.prior, self.kept = created, prior, False
        self.folder = _identity(path.parent)  # the folder held, by its inode (FolderLock.moved)
        self.record = {"format": FORMAT, "host": socket.gethostname(), "pid": os.getpid(),
                       "job": os.environ.get("SLURM_JOB_ID") or None,
                       "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
                       "command": shlex.join([Path(sys.argv[0]).name, *sys.argv[1:]])[:300] if sys.argv else "",
                       "stale_after_s": STALE_AFTER_S, "heartbeat_s": HEARTBEAT_S, "ended": False}

    def write(self):
        # over the old record, padded with spaces (JSON whitespace) to its length, never truncated first: a
        # reader on a file system without locks never sees an empty record, which would read as a free folder
        data = (json.dumps(self.record) + "\n").encode()
        size = os.fstat(self.fd).st_size
        os.pwrite(self.fd, data.ljust(size, b" "), 0)

    def touch(self):
        os.utime(self.fd)

    def end(self):
        try:
            self.record["ended"] = True
            self.write()
        except OSError:
            pass
        try:
            os.close(self.fd)  # drops the flock
        except OSError:
            pass

    def withdraw(self):
        """Leave the lock file as this run found it, for a run refused before it wrote anything (its folder then
        holds what it held before, and a folder the run made is empty again: the command removes it). Done under
        the flock still held, then let go: the file this run created is removed (never a file put at its name
        since: another run's, checked by its inode), or the bytes and times of the one it found are put back
        (the record of the run before, which ended or was killed: `distlbm status` says that run, not one that
        never ran). Where that fails, the record is ended as by end()."""
        try:
            if self.created:
                if _same_file(self.path, self.fd):
                    os.unlink(self.path)
            elif self.prior is not None:
                data, atime_ns, mtime_ns = self.prior
                # as write(): padded over this run's record first, never an empty or cut record for a reader
                # without locks; then cut to its length
                os.pwrite(self.fd, data.ljust(os.fstat(self.fd).st_size, b" "), 0)
                os.ftruncate(self.fd, len(data))
                os.utime(self.fd, ns=(atime_ns, mtime_ns))
            else:  # (a lock file too large to have kept its bytes: not one of distlbm's)
                self.end()
                return
        except OSError:
            self.end()
            return
        try:
            os.close(self.fd)  # drops the flock
        except OSError:
            pass


_held: dict[str, _Held] = {}
_mutex = threading.Lock()
_beat: Optional[threading.Thread] = None


def renew():
    """Renew the record of every folder this process holds (the heartbeat thread's work)."""
    with _mutex:
        for h in list(_held.values()):
            try:
                h.touch()
            except OSError:  # the folder went away (a test's temporary folder): nothing to renew
                pass


def _heartbeat():
    while True:
        time.sleep(HEARTBEAT_S)
        renew()


def _release_all():
    with _mutex:
        for h in _held.values():
            h.end()
        _held.clear()


atexit.register(_release_all)


class FolderLock:
    """This process's hold on one folder (release() once done; shared by the holders in this process)."""

    def __init__(self, held: _Held, warning: Optional[str], path: Optional[Path] = None):
        self._held = held
        self.warning = warning
        self.path = path or held.path  # the lock file as this holder named its folder (io.files.make_folder)
        # the folder's real path when it was held: a moved() answer equal to it is a folder in place whose path, as
        # given, leads elsewhere now (a relative path after the process's working folder changed; io.files.moved_error)
        self.real = str(Path(held.key).parent) if held.key else None

    def release(self):
        self._let_go(withdraw=False)

    def withdraw(self):
        """release(), for a run refused before it wrote anything: where this was the folder's last holder in the
        process and none before it let go (each may have written), the lock file is left as this run found it
        (_Held.withdraw: removed if this run created it, the earlier record put back otherwise); else as
        release()."""
        self._let_go(withdraw=True)

    def _let_go(self, withdraw: bool):
        with _mutex:
            h, self._held = self._held, None
            if h is None:
                return
            h.users -= 1
            if h.users <= 0:
                # by the key it was held under (the folder's real path): popped by its own path, a relative --out
                # stayed in _held, closed, and the next run in this process in that folder joined it (no lock, an
                # ended record), while the heartbeat and the exit's release wrote to whatever file took its fd
                _held.pop(h.key, None)
                h.withdraw() if withdraw and not h.kept else h.end()
            elif not withdraw:
                h.kept = True  # this holder may have written: the last one to go ends the record (no withdraw)

    def moved(self) -> Optional[str]:
        """None while the folder's lock file is still the one this process holds, or the folder itself is (its
        inode: a lock file alone removed or replaced is no moved folder); else the folder was moved or removed while
        the run held it: where it is now (the folder of the lock file this process holds, from /proc/self/fd), or ''
        where it was removed or that cannot be read."""
        h = self._held
        if h is None or _same_file(h.path, h.fd):
            return None
        if h.folder is not None and _identity(h.path.parent) == h.folder:
            return None  # the folder is where it was: its lock file alone was removed or replaced (a user who took
            # the run for dead, as FolderInUse says to): its writes go where they belong (they failed, exit 74)
        try:
            now = os.readlink(f"/proc/self/fd/{h.fd}")
        except OSError:
            return ""
        return "" if now.endswith(" (deleted)") or not os.path.isabs(now) else str(Path(now).parent)

    def keep_for(self, seconds: float):
        """A live run may go quiet this long (a long checkpoint write): records renewed within
        max(STALE_AFTER_S, 3 x seconds) still count as live."""
        with _mutex:
            h = self._held
            want = max(STALE_AFTER_S, 3.0 * float(seconds))
            if h is not None and want > h.record["stale_after_s"]:
                h.record["stale_after_s"] = round(want, 1)
                try:
                    h.write()
                except OSError:
                    pass


PRIOR_MAX = 1 << 20  # a lock file found at most this large is kept to be put back by withdraw() (a record: < 1 kB)


def _identity(path: Path) -> Optional[tuple]:
    """(st_dev, st_ino) of `path`, or None where it cannot be read."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _same_file(path: Path, fd: int) -> bool:
    """Whether `path` still names the file open as `fd` (not removed, nor another file put there since)."""
    try:
        st, own = os.stat(path, follow_symlinks=False), os.fstat(fd)
    except OSError:
        return False
    return (st.st_dev, st.st_ino) == (own.st_dev, own.st_ino)


def _open(path: Path) -> tuple[int, bool]:
    """The lock file open for reading and writing, and whether this call created it (withdraw() removes only a
    file its run created). OSError as os.open's."""
    flags = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        try:
            return os.open(path, flags | os.O_CREAT | os.O_EXCL, FILE_MODE), True
        except FileExistsError:
            pass
        except FileNotFoundError:
            # the folder is gone: a run refused before it wrote anything withdrew the lock file it created and
            # removed the folder it made (empty again), while this run waited for it; made again, as acquire()
            # made it (a waiting run was refused: "cannot open the run lock file", exit 2, the folder free)
            path.parent.mkdir(parents=True, exist_ok=True)
            continue
        try:
            return os.open(path, flags), False
        except FileNotFoundError:  # removed in between (a refused run withdrew the one it created): again
            continue
    return os.open(path, flags | os.O_CREAT, FILE_MODE), False


def _try(path: Path):
    """(held or None, the holder's description or None, warning or None) for one attempt."""
    for _ in range(100):
        got = _try_once(path)
        if got is not None:
            return got
    raise ConfigError(f"{path}: the run lock file was replaced at every attempt to lock it; expected the run lock "
                      f"file of one run at a time")


def _try_once(path: Path):
    """_try's attempt, or None where the file locked was removed or replaced at its name meanwhile (a refused run
    withdrew the file it created, between this open and this lock: a lock on a file no longer at the name would
    guard nothing, and a third run would create and lock a new one)."""
    try:
        fd, created = _open(path)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise _link_refused(path) from None
        raise _open_refused(path, e.strerror) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise _not_regular_refused(path)
    warning = None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        locked = True
        if not _same_file(path, fd):
            os.close(fd)
            return None
    except BlockingIOError:
        rec = _read_record(fd)
        age = _now() - os.fstat(fd).st_mtime
        os.close(fd)
        return None, _describe(rec, age), None
    except OSError as e:
        if e.errno not in _UNSUPPORTED:
            if created and _same_file(path, fd):  # refused: the empty file this attempt made is not left
                os.unlink(path)
            os.close(fd)
            raise ConfigError(f"{path}: cannot lock the run lock file ({e.strerror})") from None
        locked = False
        warning = (f"the file system of {path.parent} has no file locks ({e.strerror}): a second run started "
                   f"in this folder on another node at the same moment could not be detected")
    rec = _read_record(fd)
    age = _now() - os.fstat(fd).st_mtime
    if _state(rec, age, locked) == "running":
        os.close(fd)
        desc = _describe(rec, age)
        if rec.get("host") != socket.gethostname():  # known by its record only: say when it counts as gone
            stale = _stale_after(rec)
            desc += f"; its record is taken over once unseen for {stale:.0f} s, in {max(stale - age, 0):.0f} s"
        return None, desc, None
    prior = None
    if not created:  # the file found, as it is (withdraw() puts it back)
        st = os.fstat(fd)
        if st.st_size <= PRIOR_MAX:
            data = os.pread(fd, st.st_size, 0)
            prior = (data, st.st_atime_ns, st.st_mtime_ns) if len(data) == st.st_size else None
    return _Held(path, fd, locked, created, prior), None, warning


def acquire(folder, wait: Optional[float] = None, say: Callable = print,
            stopped: Callable[[], bool] = lambda: False) -> FolderLock:
    """Hold `folder` for this run (FolderInUse if another run holds it for longer than `wait` seconds,
    default DISTLBM_LOCK_WAIT or 0, or if `stopped()` turns true while waiting: a stop signal)."""
    global _beat
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / NAME
    key = str(Path(os.path.realpath(folder)) / NAME)
    with _mutex:
        if key in _held:
            _held[key].users += 1
            return FolderLock(_held[key], None, path)
    # a file system refusing HDF5's file locks is found here, before any step, not at the first checkpoint (where every
    # write failed): HDF5's locking turned off and said once, or one line where HDF5 cannot write there at all
    from distlbm.io.hdf5 import check_locking

    h5_warning = check_locking(folder)
    if wait is None:
        wait = lock_wait()
    deadline = time.monotonic() + wait
    said = False
    while True:
        held, holder, warning = _try(path)
        if held is not None:
            break
        left = deadline - time.monotonic()
        if left <= 0 or stopped():
            raise FolderInUse(
                f"--out = {str(folder)!r}: another distlbm run is using this folder ({holder})"
                f"{'; stopped by a signal while waiting for it' if stopped() else ''}; two runs in one "
                f"folder replace each other's checkpoints: wait for it to end, or give this run another --out "
                f"(if that run no longer runs, e.g. its node failed, remove {path})")
        if not said:
            say(f"distlbm: {folder} is in use by another run ({holder}); waiting up to {left:.0f} s "
                f"(DISTLBM_LOCK_WAIT)", file=sys.stderr)
            said = True
        time.sleep(min(0.5, max(left, 0.05)))
    held.write()
    with _mutex:
        held.users, held.key = 1, key
        _held[key] = held
        if _beat is None:
            _beat = threading.Thread(target=_heartbeat, name="distlbm-lock-heartbeat", daemon=True)
            _beat.start()
    return FolderLock(held, "; ".join(w for w in (warning, h5_warning) if w) or None)


def lock_wait() -> float:
    """DISTLBM_LOCK_WAIT: the seconds a run waits for a folder another run holds (default 0). ConfigError otherwise
    (the run's start and its dry run)."""
    text = os.environ.get("DISTLBM_LOCK_WAIT", "0")
    # ASCII decimals only, as the other seconds of the environment and --wall-time: float() also read Unicode digits
    # ('١' waited 1 s), '1_0' and 'inf'
    plain = re.fullmatch(r"\s*(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*", text)
    wait = float(text) if plain else float("nan")
    if not math.isfinite(wait):  # (1e400)
        raise ConfigError(f"DISTLBM_LOCK_WAIT = {text!r}: expected seconds (a number >= 0 in plain decimals, e.g. 360; "
                          f"no '_', nan or inf)")
    return wait


def check_lock_file(folder) -> None:
    """The refusal of acquire() for the lock file found in `folder`, found without opening it for writing nor taking
    its lock (the dry run's: nothing written): a symbolic link, something not a regular file (a folder, a FIFO), a
    file that cannot be opened for reading and writing. ConfigError in the run's own words; None where acquire() can
    open it, or where there is none (acquire() creates it: the folder's writability is checked apart)."""
    path = Path(folder) / NAME
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as e:
        raise _open_refused(path, e.strerror) from None
    if stat.S_ISLNK(st.st_mode):
        raise _link_refused(path)
    if stat.S_ISDIR(st.st_mode):  # (acquire's os.open fails on it: EISDIR)
        raise _open_refused(path, os.strerror(errno.EISDIR))
    if not stat.S_ISREG(st.st_mode):
        raise _not_regular_refused(path)
    if not os.access(path, os.R_OK | os.W_OK):
        raise _open_refused(path, os.strerror(errno.EACCES))


def _link_refused(path) -> ConfigError:
    """The refusal of a run lock file that is a symbolic link (acquire's and check_lock_file's)."""
    return ConfigError(f"{path}: is a symbolic link; expected the run lock file (a regular file); move it away")


def _open_refused(path, why) -> ConfigError:
    """The refusal of a run lock file that cannot be opened for reading and writing, `why` the system's words."""
    return ConfigError(f"{path}: cannot open the run lock file ({why}); expected a writable output folder")


def _not_regular_refused(path) -> ConfigError:
    """The refusal of a run lock file that is not a regular file (a FIFO, a device)."""
    return ConfigError(f"{path}: is not a regular file; expected the run lock file (move it away)")


def locks_refused(folder) -> Optional[str]:
    """Why the file system of `folder` refuses file locks, or None where it takes them, found without writing nor
    taking a lock (the dry run's check of what the run's HDF5 probe, io.hdf5.check_locking, finds by writing a small
    file). The run's own flock on its lock file and HDF5's on its files are refused alike there (Lustre mounted
    without flock, NFS without its lock daemon: there a flock is the server's POSIX lock). Asked of a regular file
    in the folder (its run lock file, else the first the folder lists): a lock tested (F_GETLK), taken nowhere (a
    run starting meanwhile never finds its lock file busy). A folder without one: a shared flock on the folder
    itself, dropped at once; NFS and Lustre give folders no lock operation (the kernel's local lock serves it), so
    there only the run's probe finds it."""
    target = _some_file(Path(folder))
    if target is not None:
        try:
            fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            fd = None
        if fd is not None:
            try:
                if stat.S_ISREG(os.fstat(fd).st_mode):
                    # struct flock: l_type, l_whence, l_start, l_len (0: the whole file), l_pid
                    fcntl.fcntl(fd, fcntl.F_GETLK, struct.pack("hhqqi", fcntl.F_RDLCK, os.SEEK_SET, 0, 0, 0))
                    return None
            except OSError as e:
                return f"errno {e.errno}, {e.strerror}" if e.errno in _UNSUPPORTED else None
            finally:
                os.close(fd)
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None  # (a folder not there yet: its parent's file system is the one the run makes it on)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
    except BlockingIOError:
        return None  # (held exclusively by someone: locks work)
    except OSError as e:
        return f"errno {e.errno}, {e.strerror}" if e.errno in _UNSUPPORTED else None
    finally:
        os.close(fd)
    return None


def _some_file(folder: Path, most: int = 1000) -> Optional[Path]:
    """A regular file directly in `folder` (its run lock file first; among the first `most` entries listed), or
    None."""
    candidates = [folder / NAME]
    try:
        with os.scandir(folder) as entries:
            candidates += [Path(e.path) for e in itertools.islice(entries, most) if e.name != NAME]
    except OSError:
        return None
    for p in candidates:
        try:
            if stat.S_ISREG(os.lstat(p).st_mode):
                return p
        except OSError:
            continue
    return None


def holder(folder) -> Optional[str]:
    """The description of another run holding `folder`, or None (read from its record: nothing is taken)."""
    with _mutex:
        if str(Path(os.path.realpath(folder)) / NAME) in _held:
            return None
    state, who = read_holder(folder)
    return who if state == "running" else None


def read_holder(folder) -> tuple[str, Optional[str]]:
    """What the folder's lock record says, without taking the lock (a `distlbm status` in a watch loop must
    never make a starting run find its folder busy): ('free', None) with no record; ('running', who) for a
    record that has not ended of a live process on this host or one renewed within its stale_after_s elsewhere;
    ('ended', who) for a run that left; ('gone', who) for one that never ended: killed, or its node failed."""
    path = Path(folder) / NAME
    try:
        # (O_NONBLOCK: a FIFO at its name is opened at once, not waited on for a writer for ever)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return "free", None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "free", None
        rec = _read_record(fd)
        age = _now() - os.fstat(fd).st_mtime
    finally:
        os.close(fd)
    return _state(rec, age), (_describe(rec, age) if rec else None)
