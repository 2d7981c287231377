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
