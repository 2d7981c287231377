"""A run folder on a shared parallel file system (Lustre, GPFS, NFS home and project folders): HDF5's file locking
refused (errno 38/37/11), user and group quotas (EDQUOT, which statvfs does not see), and group-shared folders (the
files a run writes follow the umask, as a plain open() would, so that a colleague can continue the run)."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from distlbm.config import resolve
from distlbm.io import files


def quiet(msg):
    pass


@pytest.fixture
def umask():
    """Set the process's umask for a test (restored after it)."""
    old = os.umask(0o022)
    os.umask(old)
    yield os.umask
    os.umask(old)


def _modes(folder: Path) -> dict:
    return {str(p.relative_to(folder)): stat.S_IMODE(p.stat().st_mode) for p in folder.rglob("*") if p.is_file()}


# ---- quotas (EDQUOT) ----------------------------------------------------------------------------------------------

def test_a_quota_exceeded_is_said_as_the_quota_with_what_was_needed_and_how_to_see_it(tmp_path):
    """A write failing with EDQUOT was "Disk quota exceeded (errno 122)": nothing said of the size needed (as ENOSPC
    says it) nor that statvfs's free space does not see the quota, nor how to see the quota."""
    e = OSError(errno.EDQUOT, os.strerror(errno.EDQUOT))
    text = files.reason(e, 3 << 30, tmp_path)
    assert text.startswith("the disk quota is exceeded (needs about 3.00 GiB")
    assert "quota -s" in text and "lfs quota" in text
    # HDF5's own words (h5py's OSError carries no errno: the message says it)
    h5 = OSError("Can't write data (file write failed: time = Mon Dec  7, filename = 'x.h5.tmp', file descriptor = 5, "
                 "errno = 122, error message = 'Disk quota exceeded', buf = 0x1, total write size = 8, bytes this "
                 "sub-write = 8, bytes actually written = 18446744073709551615, offset = 0)")
    assert files.reason(h5, None, tmp_path).startswith("the disk quota is exceeded")


def test_a_text_write_over_quota_keeps_the_old_file_and_says_the_quota(tmp_path, monkeypatch):
    target = tmp_path / "summary.json"
    target.write_text("old")
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *a):
            self.fh.close()

        def write(self, b):
            raise OSError(errno.EDQUOT, os.strerror(errno.EDQUOT))

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    with pytest.raises(files.WriteError) as info:
        files.write_text(target, "x" * 5000)
    assert "the disk quota is exceeded" in str(info.value) and "quota -s" in str(info.value)
    assert target.read_text() == "old" and not (tmp_path / "summary.json.tmp").exists()


def test_a_checkpoint_over_quota_is_a_failed_write_the_run_goes_on_from(tmp_path, monkeypatch):
    """The run goes on after a checkpoint failing on the quota, the previous checkpoint kept, the line saying the
    quota and the size."""
    from distlbm.driver import Simulation
    from distlbm.io import hdf5

    said = []
    sim = Simulation(resolve("cavity2d", {"n": 16, "steady_tol": 0, "checkpoint_every": 10}), out_dir=tmp_path / "a",
                     log=said.append)
    real = hdf5.create_exclusive
    calls = []

    def over_quota(tmp, **kw):
        calls.append(tmp)
        if len(calls) == 2:  # the second checkpoint
            raise OSError(errno.EDQUOT, os.strerror(errno.EDQUOT))
        return real(tmp, **kw)

    monkeypatch.setattr(hdf5, "create_exclusive", over_quota)
    summary = sim.run(30)
    assert summary["status"] == "complete"
    lines = [m for m in said if "not written" in m]
    assert len(lines) == 1 and "the disk quota is exceeded" in lines[0] and "needs about" in lines[0], lines
    assert sorted(p.name for p in (tmp_path / "a" / "checkpoints").glob("*.h5")) == [
        "ckpt_000000010.h5", "ckpt_000000030.h5"]


# ---- group-shared folders (the umask) -------------------------------------------------------------------------------

@pytest.mark.parametrize("mask", [0o022, 0o002])
def test_the_files_a_run_writes_follow_the_umask(tmp_path, umask, mask):
    """A group-shared project folder (umask 002): a colleague continuing the run must open the lock file and the
    logs for writing; they were made 0644 whatever the umask (os.open(..., 0o644)), so a restart by another member
    of the group was refused ("cannot open the run lock file (Permission denied)"). Each file is made as a plain
    open() makes it: 0666 less the umask."""
    from distlbm.driver import Simulation

    umask(mask)
    out = tmp_path / "a"
    sim = Simulation(resolve("cavity2d", {"n": 16, "steady_tol": 0, "checkpoint_every": 10, "output_every": 10}),
                     out_dir=out, log=quiet)
    sim.run(20)
    sim.write_summary(sim.summary())
    sim.close()
    modes = _modes(out)
    for name in (".distlbm.lock", "log.jsonl", "summary.json", "checkpoints/ckpt_000000020.h5"):
        assert name in modes, sorted(modes)
    want = 0o666 & ~mask
    assert {k: v for k, v in modes.items() if v != want} == {}
    files.write_text(tmp_path / "t.txt", "x")
    assert stat.S_IMODE((tmp_path / "t.txt").stat().st_mode) == want


# ---- HDF5's file locking refused (Lustre without flock, NFS without its lock daemon) --------------------------------

def _refusing_h5py(monkeypatch, n=errno.ENOSYS, always=False):
    """h5py.File failing as HDF5 >= 1.10 fails on a file system without flock: every create or open raises h5py's
    OSError "unable to lock file, errno = N" unless locking=False or HDF5_USE_FILE_LOCKING=FALSE (`always`: even
    then: a folder where HDF5 cannot write at all). A refused create leaves the empty file HDF5 made before it tried
    to lock it. The MPI-IO driver takes no lock. Returns the list of (name, mode, locking) of each call."""
    import h5py

    from distlbm.io import hdf5

    real = h5py.File
    calls = []

    class File(real):
        def __init__(self, name, mode="r", *a, locking=None, driver=None, **kw):
            calls.append((str(name), mode, locking))
            create = mode in ("x", "w", "w-")
            unlocked = locking in (False, "false") or os.environ.get("HDF5_USE_FILE_LOCKING", "").upper() == "FALSE"
            if (always or not unlocked) and driver != "mpio" and not (mode in ("x", "w-") and os.path.exists(name)):
                if create:
                    open(name, "wb").close()
                raise OSError(f"Unable to synchronously {'create' if create else 'open'} file (unable to lock file, "
                              f"errno = {n}, error message = '{os.strerror(n)}')")
            super().__init__(name, mode, *a, **({"locking": locking} if locking is not None else {}),
                             **({"driver": driver} if driver is not None else {}), **kw)

    monkeypatch.setattr(h5py, "File", File)
    monkeypatch.setattr(hdf5, "_unlocked", {}, raising=False)
    monkeypatch.delenv("HDF5_USE_FILE_LOCKING", raising=False)
    return calls


@pytest.mark.parametrize("n", [errno.ENOSYS, errno.ENOLCK, errno.EAGAIN])
def test_hdf5_files_are_written_and_read_without_locks_once_the_file_system_refused_them(tmp_path, monkeypatch, n):
    import numpy as np

    from distlbm.io import hdf5

    calls = _refusing_h5py(monkeypatch, n)
    with hdf5.create_exclusive(tmp_path / "a.h5.tmp") as h5:  # the empty file of the refused create removed first
        h5["x"] = np.arange(3)
    assert hdf5.unlocked() == f"errno {n}, {os.strerror(n)}"
    with hdf5.open_file(tmp_path / "a.h5.tmp") as h5:
        assert list(h5["x"][:]) == [0, 1, 2]
    assert [c[2] for c in calls] == [None, False, False]  # refused once, then never tried with locks again
    warning = hdf5.check_locking(tmp_path)
    assert warning.startswith(f"HDF5 cannot lock its files in {tmp_path} (errno {n}, {os.strerror(n)}: a file system "
                              f"without flock") and "HDF5_USE_FILE_LOCKING=FALSE" in warning
    assert hdf5.check_locking(tmp_path) is None  # said once
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.h5.tmp"]  # the probe removed


def test_the_mpio_driver_is_never_retried(tmp_path, monkeypatch):
    """A collective create refused on some processes alone must not be retried there (the others would wait in the
    collective): the refusal passes as it is (the MPI-IO driver takes no lock anyway)."""
    import h5py

    from distlbm.io import hdf5

    monkeypatch.setattr(hdf5, "_unlocked", {}, raising=False)

    def refused(*a, **kw):
        raise OSError("Unable to synchronously create file (unable to lock file, errno = 38, error message = 'x')")

    monkeypatch.setattr(h5py, "File", refused)
    with pytest.raises(OSError, match="unable to lock file"):
        hdf5.open_file(tmp_path / "m.h5", "x", driver="mpio")
    assert hdf5.unlocked() is None


def test_a_run_on_a_file_system_without_flock_writes_its_checkpoints_and_outputs_and_restarts(tmp_path, monkeypatch):
    """Every checkpoint and field output failed ("unable to lock file, errno = 38"), the run stepping on until its
    third failed write stopped it (exit 74, no checkpoint: with checkpoint_every of hours, hours lost), and a restart
    found no readable checkpoint. The run finds it at its start (said once, before any step) and writes without HDF5's
    locks; a restart reads them back, and `distlbm status` lists them."""
    from distlbm.driver import Simulation
    from distlbm.io import hdf5
    from distlbm.status import folder_status

    _refusing_h5py(monkeypatch)
    said = []
    out = tmp_path / "a"
    params = {"n": 16, "steady_tol": 0, "checkpoint_every": 10, "output_every": 10}
    sim = Simulation(resolve("cavity2d", params), out_dir=out, log=said.append)
    warned = [m for m in said if "HDF5 cannot lock its files" in m]
    assert len(warned) == 1 and warned[0].startswith(f"warning: HDF5 cannot lock its files in {out} (errno 38")
    assert sim.run(20)["status"] == "complete" and not sim.failed_writes
    sim.close()
    assert sorted(p.name for p in (out / "checkpoints").glob("*.h5")) == ["ckpt_000000010.h5", "ckpt_000000020.h5"]
    assert len(list((out / "fields").glob("*.h5"))) == 3
    assert [c["step"] for c in folder_status(out)["checkpoints"]] == [10, 20]
    # a new process, which has not turned the locks off yet: its restart's read finds it, and says it once
    monkeypatch.setattr(hdf5, "_unlocked", {}, raising=False)
    said.clear()
    again = Simulation(resolve("cavity2d", params), out_dir=out, restart="latest", log=said.append)
    assert again.step == 20 and again.run(30)["status"] == "complete"
    assert len([m for m in said if "HDF5 cannot lock its files" in m]) == 1
    again.close()


def test_a_folder_where_hdf5_cannot_write_even_without_locks_is_refused_at_the_start(tmp_path, monkeypatch):
    from distlbm.driver import Simulation
    from distlbm.errors import ConfigError

    _refusing_h5py(monkeypatch, always=True)
    out = tmp_path / "a"
    with pytest.raises(ConfigError) as info:
        Simulation(resolve("cavity2d", {"n": 16, "steady_tol": 0, "checkpoint_every": 10}), out_dir=out, log=quiet)
    text = str(info.value)
    assert text.startswith(f"--out = {str(out)!r}: HDF5 cannot create a file here: its file system refuses HDF5's "
                           f"file lock (errno 38, Function not implemented)") and "HDF5_USE_FILE_LOCKING=FALSE" in text
    assert "\n" not in text and not any(p.name.startswith(".distlbm-h5probe") for p in out.iterdir())


def test_a_folder_where_hdf5_cannot_write_is_an_unusable_folder_not_a_folder_in_use(cli, tmp_path, monkeypatch):
    """The refusal of a folder where HDF5 cannot write even without its locks was raised as FolderInUse ("another run
    holds the output folder"), the class of a lock held by another run: it is an unusable output folder, a plain
    configuration error as "cannot create or write the folder" is, exit 2 with nothing run (README, Exit statuses)."""
    from distlbm.driver import Simulation
    from distlbm.errors import ConfigError
    from distlbm.io.lock import FolderInUse

    _refusing_h5py(monkeypatch, always=True)
    out = tmp_path / "a"
    with pytest.raises(ConfigError) as info:
        Simulation(resolve("cavity2d", {"n": 16, "steady_tol": 0, "checkpoint_every": 10}), out_dir=out, log=quiet)
    assert not isinstance(info.value, FolderInUse), type(info.value)
    rc, stdout, err = cli("run", "cavity2d", "--set", "n=16", "--steps", 20, "--out", tmp_path / "b")
    assert rc == 2 and err.startswith(f"distlbm: configuration error: --out = {str(tmp_path / 'b')!r}: HDF5 cannot "
                                      f"create a file here"), (rc, err)


def test_nothing_is_said_where_hdf5_locks_or_the_user_turned_them_off(tmp_path, monkeypatch):
    from distlbm.io import hdf5

    monkeypatch.setattr(hdf5, "_unlocked", {}, raising=False)
    assert hdf5.check_locking(tmp_path) is None and hdf5.unlocked() is None
    _refusing_h5py(monkeypatch)
    monkeypatch.setenv("HDF5_USE_FILE_LOCKING", "FALSE")
    assert hdf5.check_locking(tmp_path) is None and hdf5.unlocked() is None
    assert list(tmp_path.iterdir()) == []


def test_a_probe_file_left_by_a_killed_run_is_removed_by_the_next_start(tmp_path, monkeypatch):
    """The start-of-run HDF5 probe lives a few milliseconds; a run killed (kill -9, the OOM killer) in them left
    .distlbm-h5probe-PID.h5 in its folder for good. The next start removes such a file older than a minute (another
    run's, probing this moment, is younger: kept)."""
    from distlbm.io import hdf5

    monkeypatch.setattr(hdf5, "_unlocked", {}, raising=False)
    old, young = tmp_path / f"{hdf5.PROBE}-999999.h5", tmp_path / f"{hdf5.PROBE}-999998.h5"
    for f in (old, young):
        f.write_bytes(b"")
    os.utime(old, (os.stat(old).st_atime - 120, os.stat(old).st_mtime - 120))
    assert hdf5.check_locking(tmp_path) is None
    assert sorted(p.name for p in tmp_path.iterdir()) == [young.name]


def test_a_probe_left_by_a_run_of_this_host_killed_a_moment_ago_is_removed_by_the_next_start(tmp_path, monkeypatch):
    """A run SIGKILLed in its HDF5 probe and continued at once (a restart typed within the minute, a Slurm chain's next
    job) kept the probe: younger than a minute, it was taken for another run's probing that moment, and stayed in the
    folder past the end of the run (chaos trials: `kill -9` at random moments, `--restart latest` at once). A probe
    names its host and process: one of a process of this host that is gone is removed whatever its age; a live
    process's, another host's and a name without a host (before) are kept while younger than a minute."""
    import re
    import socket
    import subprocess
    import sys

    from distlbm.io import hdf5

    host = socket.gethostname()
    if not re.fullmatch(r"[A-Za-z0-9._-]+", host):
        pytest.skip(f"a host name a probe's name does not carry as it is: {host!r}")
    monkeypatch.setattr(hdf5, "_unlocked", {}, raising=False)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    dead = tmp_path / f"{hdf5.PROBE}-{host}-{gone.pid}.h5"
    live = tmp_path / f"{hdf5.PROBE}-{host}-{os.getppid()}.h5"
    other = tmp_path / f"{hdf5.PROBE}-elsewhere-{gone.pid}.h5"
    bare = tmp_path / f"{hdf5.PROBE}-{gone.pid}.h5"
    for f in (dead, live, other, bare):
        f.write_bytes(b"")
    assert hdf5.check_locking(tmp_path) is None
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in (live, other, bare))


def test_a_file_another_program_holds_for_writing_is_not_read_and_locking_stays_on(tmp_path, monkeypatch):
    """errno 11 (EAGAIN) on opening an existing file is flock's 'the file is locked': another program (a notebook
    writing a mask file, h5py in 'a' mode on a checkpoint) holds it for writing, on a file system whose locks work.
    It was taken for a file system without locks: HDF5's locking turned off for the whole process, the file read as
    it was being written, and the warning blamed the file system. It is refused, naming the holder, locks kept on
    (errno 11 on a file this call creates, which no one else can hold, is still a file system's refusal)."""
    import fcntl

    import h5py
    import numpy as np

    from distlbm.io import hdf5

    monkeypatch.setattr(hdf5, "_unlocked", {}, raising=False)
    path = tmp_path / "mask.h5"
    with h5py.File(path, "w") as h5:
        h5["x"] = np.arange(3)
    fd = os.open(path, os.O_RDWR)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as HDF5 does for a program holding it open for writing
        except OSError:
            pytest.skip("this file system has no flock")
        try:
            h5py.File(path, "r").close()
            pytest.skip("HDF5's file locking is off in this environment")
        except OSError:
            pass
        with pytest.raises(OSError) as info:
            hdf5.open_file(path, "r")
        assert info.value.errno == errno.EAGAIN and "another program holds this file" in str(info.value)
        assert hdf5.unlocked() is None
        assert hdf5.check_locking(tmp_path) is None and hdf5.unlocked() is None
    finally:
        os.close(fd)
    with hdf5.open_file(path) as h5:  # released: read as ever
        assert list(h5["x"][:]) == [0, 1, 2]
