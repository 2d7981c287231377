"""Writing files safely: temporaries created exclusively (a link planted at a temporary name is
never followed), the free space checked before a large write, failures reported as one line
(WriteError) with the temporary removed and the previous file intact."""

from __future__ import annotations

import errno
import math
import os
import re
import socket
import stat
import time
from pathlib import Path


class WriteError(RuntimeError):
    """A file could not be written (disk full, not writable, a folder in the way): the message is one
    line naming the path and the reason; the temporary file is gone and the previous files are intact."""

    def __init__(self, path, reason: str):
        super().__init__(f"writing {path} failed: {reason}")
        self.path = Path(path)
        self.reason = reason


def size_text(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(n) < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.2f} {unit}"
        n /= 1024.0
    return f"{n:.2f} PiB"


def fmt_time(seconds: float) -> str:
    """A duration as the progress line, `distlbm status` and a folder's lock holder say it: 45s, 2m49s, 26h00m04s."""
    if not math.isfinite(seconds):
        return "?"
    seconds = int(round(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else (f"{m}m{s:02d}s" if m else f"{s}s")


def space_needed(nbytes: float) -> int:
    """The free space a write of `nbytes` of data asks for: 1 % and 1 MiB more (HDF5's metadata and chunk index)."""
    return int(nbytes * 1.01) + (1 << 20)


def existing_folder(path) -> Path:
    """`path`, or its nearest ancestor that exists (a run's folders are made when first written): where its free
    space and permissions are read."""
    path = Path(path)
    while not path.exists() and path.parent != path:
        path = path.parent
    return path


def free_bytes(directory) -> int:
    """Bytes available to this user in the file system that holds `directory` (statvfs)."""
    st = os.statvfs(directory)
    return int(st.f_bavail) * int(st.f_frsize)


# the mode a file is created with, as a plain open() does: the umask decides (0644 under umask 022, 0664 under 002: a
# group-shared project folder, where a colleague continues the run: opens its lock file and appends to its logs)
FILE_MODE = 0o666

QUOTA_HINT = ("statvfs's free space does not see user or group quotas; `quota -s` shows yours, on Lustre "
              "`lfs quota -h -u $USER <mount>` (and -g for the group's)")


def reason(e: BaseException, needed: int | None, directory) -> str:
    """A one-line reason for a failed write: the errno's words, with the space needed and free. A quota exceeded
    (EDQUOT: a cluster's user or group quota, which binds long before the file system is full and which the
    free-space checks cannot see) says so, with the size needed and how to see the quota."""
    err = getattr(e, "errno", None)
    if err is None and isinstance(e, OSError) and e.args and isinstance(e.args[0], int):
        err = e.args[0]
    if err == errno.EDQUOT or "Disk quota exceeded" in str(e):  # (HDF5's OSError carries its errno in its words)
        return ("the disk quota is exceeded (" + (f"needs about {size_text(needed)}; " if needed else "")
                + QUOTA_HINT + ")")
    if err == errno.ENOSPC or "No space left" in str(e):
        free = None
        try:
            free = free_bytes(directory)
        except OSError:
            pass
        said = ([f"needs about {size_text(needed)}"] if needed else []) + (
            [f"{size_text(free)} free"] if free is not None else [])
        return "no space left on the device" + (f" ({', '.join(said)})" if said else "")
    if err is not None:
        return f"{os.strerror(err)} (errno {err})"
    text = str(e).splitlines()[0] if str(e) else e.__class__.__name__
    return f"{e.__class__.__name__}: {text[:200]}"


def _mode(path: Path, follow: bool):
    """The st_mode of what lies at `path` (None: nothing); WriteError where it cannot be looked at."""
    try:
        return (os.stat if follow else os.lstat)(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as e:
        raise WriteError(path, reason(e, None, path.parent)) from None


def check_target(path: Path):
    """Refuse a target that exists and is not a regular file (a folder, a FIFO, a device); a link is replaced."""
    mode = _mode(path, follow=False)
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        what = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise WriteError(path, f"it exists and is {what}; expected a file to replace (move it away)")


def check_folder_target(path: Path):
    """Refuse a folder the run writes into where something else lies (a file named `fields`: every field output
    then failed with "File exists (errno 17)" until the run stopped with exit 74); a link to a folder is one."""
    mode = _mode(path, follow=True)
    if mode is not None and not stat.S_ISDIR(mode):
        raise WriteError(path, "it exists and is not a folder; expected the folder the run writes into (move it "
                               "away)")


MOVED = "the run's folder was moved or removed while the run wrote to it"


def moved_error(folder, where: str, then: str | None = None, real: str | None = None) -> WriteError:
    """The WriteError of a run's folder moved or removed while the run held it (`where`: where it is now, '' where
    it was removed; io.lock.FolderLock.moved). `then`: what becomes of the write (default: the run goes on once
    the folder is moved back). `real`: the folder's real path when it was held (FolderLock.real): a folder still
    there whose path leads elsewhere now (a relative --out after the process's working folder changed) is said as
    that, not as a folder moved to where it always was."""
    if where and real and where == real:
        then = then or (f"go back to it, and the run goes on at its next write, or continue it later with --restart "
                        f"latest --out {where}")
        return WriteError(folder, f"the path of the run's folder leads elsewhere now ({os.path.abspath(folder)}: the "
                                  f"working folder changed, or a link on the way), the run's folder is still {where}; "
                                  f"expected the working folder the run started in: {then}")
    now = f"it is now {where}" if where else "removed"
    if then is None:
        then = "move it back, and the run goes on at its next write" + (
            f", or continue it later with --restart latest --out {where}" if where else "")
    return WriteError(folder, f"{MOVED} ({now}); expected it where the run started: {then}")


def make_folder(folder, held=None, then: str | None = None) -> None:
    """Make the folder a write goes into (OSError as mkdir's). `held`: the run's hold on its folder
    (io.lock.FolderLock; None where it holds none): the run's folder, made at its start, is never made again, only
    the folders below it (fields/, checkpoints/), with the run's folder required to exist: where it is gone,
    moved_error (`then`: as there). A write that passed the run's check on its folder just before the folder was
    moved or removed (a checkpoint of a large lattice gathers its arrays for seconds before its file is opened)
    made it again at its path with its parents and wrote there: a folder without the run's lock, another run could
    start in it. A folder not below the run's (a path the user chose), or without `held`, is made with its
    parents."""
    folder = Path(folder)
    root = held.path.parent if held is not None else None
    try:
        below = folder.relative_to(root).parts if root is not None else None
    except ValueError:
        below = None
    if below is None:
        folder.mkdir(parents=True, exist_ok=True)
        return
    at = root
    try:
        if not below and not root.is_dir():
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(root))
        for name in below:
            at = at / name
            at.mkdir(exist_ok=True)  # never with its parents: the run's folder gone fails here, not made again
    except FileNotFoundError:
        if os.path.isdir(root):  # (a folder below it removed meanwhile: said as the write's failure)
            raise
        raise moved_error(root, held.moved() or "", then, getattr(held, "real", None)) from None


def remove_stale(tmp: Path):
    """Remove what lies at a temporary name (a leftover or a planted link: the link, never its target)."""
    try:
        st = os.lstat(tmp)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        raise WriteError(tmp, "a folder lies at this temporary name; move it away")
    os.unlink(tmp)


# the temporaries of numbered writes (checkpoints, field and cut outputs, their part files): a write killed midway
# (SIGKILL after a scheduler's grace, a node failure) leaves one, as large as the file, under a name that the next
# writes need not reuse, so they piled up in a Slurm chain until the quota was full
INTERRUPTED = re.compile(r"^[a-z][a-z0-9_]*_\d{9,10}(\.p\d+)?\.h5\.tmp$")
# a part file of a one-file-per-process write (io.hdf5 'split'): each process renames its part into place, then
# process 0 writes the master file that maps them; a run killed in between (process 0 lost while it wrote the master,
# or after another renamed its part) left parts without a master, a whole checkpoint's size, never read (a restart
# sees no checkpoint there), never pruned (pruning goes by the masters), for ever
PART = re.compile(r"^([a-z][a-z0-9_]*_\d{9,10})\.p\d+\.h5$")


def interrupted_writes(folders) -> list[tuple[Path, int]]:
    """The temporaries of interrupted numbered writes in `folders` (regular files or links at such names; a link
    counts its own size, never its target's), and the part files of split writes whose master file is missing
    (PART: the write was interrupted before its master was renamed into place), with their sizes."""
    found = []
    for d in folders:
        try:
            entries = sorted(Path(d).iterdir())
        except OSError:
            continue
        for p in entries:
            part = PART.match(p.name)
            if part and os.path.lexists(p.with_name(part.group(1) + ".h5")):
                continue  # a part of a complete write (or one whose master is there to be judged by its reader)
            if not (part or INTERRUPTED.match(p.name)):
                continue
            try:
                st = os.lstat(p)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode):
                found.append((p, int(st.st_blocks) * 512 if stat.S_ISREG(st.st_mode) else 0))
    return found


def remove_interrupted_writes(folders) -> tuple[list[Path], int, list[str]]:
    """Remove the temporaries of interrupted writes and the part files left without their master (only while this
    run holds its folder, before it writes: nobody else writes there): the paths removed, the bytes freed, and one
    line per file that could not be removed."""
    removed, freed, failed = [], 0, []
    for p, size in interrupted_writes(folders):
        try:
            os.unlink(p)
        except FileNotFoundError:
            continue
        except OSError as e:
            failed.append(f"{p}: {os.strerror(e.errno) if e.errno else e}")
            continue
        removed.append(p)
        freed += size
    return removed, freed, failed


def write_text(path, text: str) -> Path:
    """Replace the text file `path` atomically: written to an exclusive temporary, flushed, renamed."""
    data = text.encode("utf-8")
    return write_chunks(path, (data,), len(data))


def write_chunks(path, chunks, size: int | None = None) -> Path:
    """write_text's atomic replacement of `path`, from an iterable of bytes written one after the other as it yields
    them (a long file streamed: never held at once). `size`: the bytes expected, for the message of a failed write
    (a full disk: what it needed). An exception other than OSError that the iterable raises (a reader's own: an
    OSError is the write's) removes the temporary and passes on as it is: the file is left as it was."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        check_target(path)
        remove_stale(tmp)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), FILE_MODE)
        try:
            with os.fdopen(fd, "wb") as fh:
                for chunk in chunks:
                    fh.write(chunk)
                fh.flush()
                os.fsync(fh.fileno())
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        os.replace(tmp, path)
    except WriteError:
        raise
    except OSError as e:
        try:
            if os.path.lexists(tmp) and not os.path.isdir(tmp):
                os.unlink(tmp)
        except OSError:
            pass
        raise WriteError(path, reason(e, size, path.parent)) from None
    return path


def check_path(key: str, path, expected: str, failed: str = "cannot be looked at") -> None:
    """ConfigError for a path given on the command line that cannot even be looked at: a name in it longer than the
    file system allows (ENAMETOOLONG), a folder on the way that may not be searched (EACCES), a NUL byte; a path that
    is not there is left to the caller, which says what it wanted there. pathlib's exists() and is_dir() raise these
    (a traceback, exit 1: --out, --restart, --init-from, distlbm status with a 300-character name). `failed`: what
    the line says went wrong."""
    from distlbm.errors import ConfigError

    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return
    except ValueError:  # an embedded NUL byte
        raise ConfigError(f"{key} = {str(path)!r}: holds a NUL byte; expected {expected}") from None
    except OSError as e:
        raise ConfigError(f"{key} = {str(path)!r}: {failed} ({e.strerror or e}); expected {expected}") \
            from None


def run_folder(out) -> Path:
    """The path of run folder `out` as the run says it: Path(out), made absolute where its first part starts with '~'
    (a folder of that name here, given as ./~: Path drops the './', and the run said 'summary: ~/summary.json',
    which reads as the home folder's)."""
    path = Path(out)
    return Path(os.path.abspath(path)) if path.parts and path.parts[0].startswith("~") else path


def check_out_name(out: str) -> None:
    """ConfigError for an --out that names no folder (' ' was a folder ' ', '' the working directory) or one whose
    first part still starts with '~' once cli expanded it (~NOUSER/x): it wrote into a folder of that name in the
    working directory and said 'summary: ~NOUSER/x/summary.json', which reads as a home folder."""
    from distlbm.errors import ConfigError

    if not out.strip():
        raise ConfigError(f"--out = {out!r}: expected a folder name (default: out/CASE)")
    check_no_user_tilde("--out", out)
    # (the run's own words for a folder it cannot make: "cannot create or write the folder (File name too long)")
    check_path("--out", out, "a writable folder", failed="cannot create or write the folder")


def check_no_user_tilde(key: str, out: str) -> None:
    """ConfigError for a folder `out` (--out, or Simulation's out_dir: `key`) whose first part still starts with '~'
    once '~' and '~USER' were expanded: a '~NOUSER' is no user's home folder, and it would be a folder of that name in
    the working directory."""
    from distlbm.errors import ConfigError

    first = out.split(os.sep)[0]
    if first.startswith("~"):  # (cli expands '~' and '~USER': one left is no user's)
        raise ConfigError(f"{key} = {out!r}: {first!r} names no user's home folder here, and it would be a folder "
                          f"named {first!r} in the working directory {os.getcwd()}; expected a home folder ('~/x', "
                          f"'~USER/x') or the path written out, or {'.' + os.sep + out!r} for a folder of that name "
                          f"here")


SHARED_WAIT_S = 10.0  # how long a process looks for the probe file (a network file system's caches)


def check_shared(folder, domain, wait: float = SHARED_WAIT_S) -> None:
    """ConfigError (on every process) unless every process of the run sees the files process 0 writes in `folder`.
    Under a job on several nodes, an --out on a node-local file system (/tmp, $TMPDIR, a local scratch disk) is a
    folder per node: the run computed up to its first checkpoint, which then failed with "the write failed on
    another process" (exit 74; with one process per node in its own folder, measured with a mount namespace),
    whatever had been computed lost and the cause unsaid. Process 0 writes a probe file with a random name, every
    other process looks for it (up to `wait` seconds: a network file system's caches), and process 0 removes it."""
    import uuid

    from distlbm.errors import ConfigError

    if domain.process_count <= 1:
        return
    folder = Path(folder)
    name = domain.allgather_obj(f".distlbm.shared-{uuid.uuid4().hex}")[0]
    probe = folder / name
    made = None
    if domain.process_index == 0:
        try:
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), FILE_MODE))
            made = True
        except OSError as e:
            made = str(e)
    made = domain.allgather_obj(made)[0]
    seen = True
    if made is True and domain.process_index != 0:
        deadline = time.monotonic() + wait
        while not (seen := probe.exists()) and time.monotonic() < deadline:
            time.sleep(0.2)
    report = domain.allgather_obj((seen, socket.gethostname()))
    if domain.process_index == 0 and made is True:
        try:
            probe.unlink()
        except OSError:
            pass
    if made is not True:  # process 0 could not write there: the writes will say why, with their own line
        return
    blind = [(k, host) for k, (ok, host) in enumerate(report) if not ok]
    if blind:
        shown = ", ".join(f"process {k} on {host}" for k, host in blind[:4]) + (
            f" and {len(blind) - 4} more" if len(blind) > 4 else "")
        raise ConfigError(f"--out = {str(folder)!r}: not one folder for every process of the run: {shown} does not "
                          f"see the files that process 0 (on {report[0][1]}) writes there: a node-local file system "
                          f"(/tmp, $TMPDIR, a local scratch disk) under a job on several nodes, where the first "
                          f"checkpoint would fail; expected a folder on a file system that every node sees (a "
                          f"parallel or network file system)")
