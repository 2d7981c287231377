"""What the run refuses at its start, its dry run refuses too, read-only: the folder's run lock file that the run
cannot use (a symbolic link, a folder, a FIFO), DISTLBM_LOCK_WAIT that is not seconds; and a file system refusing file
locks (where HDF5 refuses its own) is said. Each test runs the dry run, then the run, on the same folder: the dry run's
exit status and line are the run's, and the folder's files and their times are left as they were."""

from __future__ import annotations

import errno
import fcntl
import os
import stat

import pytest

from helpers import tree

CAVITY = ("cavity2d", "--set", "n=16", "--steps", 10)


def _error(text):
    return [ln for ln in text.splitlines() if ln.startswith("distlbm: ")][-1]


@pytest.mark.parametrize("what", ["link", "folder"])
def test_a_run_lock_file_the_run_cannot_use_is_refused_by_the_dry_run_in_the_runs_words(cli, tmp_path, what):
    """A run lock file that is a symbolic link or a folder: the run refused it (exit 2: 'is a symbolic link', 'cannot
    open the run lock file (Is a directory)'), its dry run said 'ready'."""
    out = tmp_path / "out"
    out.mkdir()
    lock = out / ".distlbm.lock"
    if what == "link":
        lock.symlink_to(tmp_path / "elsewhere")
    else:
        lock.mkdir()
    before = tree(tmp_path)
    rc, dry_out, dry_err = cli("run", *CAVITY, "--out", out, "--dry-run")
    assert tree(tmp_path) == before
    rc_run, _, err = cli("run", *CAVITY, "--out", out)
    assert rc_run == 2, err
    assert rc == 2 and "dry run: ready" not in dry_out, dry_out + dry_err
    assert _error(dry_err) == _error(err), (dry_err, err)


def test_a_fifo_for_run_lock_file_is_refused_by_the_dry_run_not_waited_on(module_cli, tmp_path):
    """A FIFO at the run lock file's name: the dry run (and `distlbm status`) opened it to read its record and waited
    for ever for a writer; the run refuses it ('is not a regular file', exit 2)."""
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / ".distlbm.lock")
    before = tree(tmp_path)
    dry = module_cli("run", *CAVITY, "--out", out, "--dry-run", timeout=120)
    assert tree(tmp_path) == before
    assert dry.returncode == 2, dry.stdout + dry.stderr
    assert _error(dry.stderr) == (f"distlbm: configuration error: {out / '.distlbm.lock'}: is not a regular file; "
                                  f"expected the run lock file (move it away)"), dry.stderr
    status = module_cli("status", out, timeout=120)  # read, never waited on
    assert status.returncode in (0, 1, 2), status.stderr


def test_a_lock_wait_that_is_not_seconds_is_refused_by_the_dry_run(cli, tmp_path, monkeypatch):
    out = tmp_path / "out"
    monkeypatch.setenv("DISTLBM_LOCK_WAIT", "soon")
    rc, dry_out, dry_err = cli("run", *CAVITY, "--out", out, "--dry-run")
    assert not out.exists()
    rc_run, _, err = cli("run", *CAVITY, "--out", out)
    assert rc_run == 2 and _error(err) == "distlbm: configuration error: DISTLBM_LOCK_WAIT = 'soon': expected " \
                                          "seconds (a number >= 0 in plain decimals, e.g. 360; no '_', nan or inf)", err
    assert rc == 2 and _error(dry_err) == _error(err), dry_out + dry_err


def test_a_file_system_without_file_locks_is_said_by_the_dry_run_without_writing(cli, tmp_path, monkeypatch):
    """Where the file system refuses file locks, HDF5 refuses its own: the run finds it by writing a small HDF5 file
    (turns HDF5's locking off and says so, or refuses with exit 2 where HDF5 cannot write even without it); its dry
    run said nothing. The dry run tries a shared lock on the folder itself (nothing written) and says it."""
    out = tmp_path / "out"
    out.mkdir()
    real = fcntl.flock

    def refusing(fd, op):
        raise OSError(errno.ENOSYS, os.strerror(errno.ENOSYS))

    monkeypatch.setattr(fcntl, "flock", refusing)
    before = tree(tmp_path)
    rc, dry_out, dry_err = cli("run", *CAVITY, "--out", out, "--dry-run")
    assert tree(tmp_path) == before
    assert rc == 0, dry_out + dry_err
    warned = [ln for ln in dry_err.splitlines() if "file locks" in ln]
    assert len(warned) == 1 and warned[0].startswith(f"warning: the file system of {out} refuses file locks (errno 38, "
                                                     f"Function not implemented)"), dry_err
    assert "HDF5_USE_FILE_LOCKING=FALSE" in warned[0] and "(exit status 2)" in warned[0]
    monkeypatch.setattr(fcntl, "flock", real)
    rc, dry_out, dry_err = cli("run", *CAVITY, "--out", out, "--dry-run")
    assert rc == 0 and "file locks" not in dry_out + dry_err


def _damage(path):
    """Flip bytes inside the first chunk of a checkpoint's populations (its metadata intact)."""
    import h5py

    with h5py.File(path, "r") as h5:
        offset = h5["f"].id.get_chunk_info(0).byte_offset
    with open(path, "r+b") as fh:
        fh.seek(offset + 40)
        data = fh.read(8)
        fh.seek(offset + 40)
        fh.write(bytes(b ^ 0xFF for b in data))


def test_a_restart_whose_only_checkpoint_is_damaged_is_refused_by_the_dry_run(cli, tmp_path):
    """The populations of a restart's checkpoint damaged, its metadata intact: the run refused it (exit 2, 'restart
    failed: ... populations ...'), the dry run, which read its metadata alone, said ready. A small checkpoint is read
    whole by the dry run now, as the run reads it."""
    out = tmp_path / "out"
    rc, _, err = cli("run", *CAVITY, "--checkpoint-every", 10, "--out", out)
    assert rc == 0, err
    _damage(out / "checkpoints" / "ckpt_000000010.h5")
    before = tree(tmp_path)
    rc, dry_out, dry_err = cli("run", "cavity2d", "--set", "n=16", "--steps", 20, "--restart", "latest", "--out", out,
                               "--dry-run")
    assert tree(tmp_path) == before
    rc_run, _, err = cli("run", "cavity2d", "--set", "n=16", "--steps", 20, "--restart", "latest", "--out", out)
    assert rc_run == 2 and "populations" in _error(err), err
    assert rc == 2 and _error(dry_err) == _error(err), dry_out + dry_err


def test_a_damaged_newest_checkpoint_is_passed_over_by_the_dry_run_as_by_the_run(cli, tmp_path):
    out = tmp_path / "out"
    rc, _, err = cli("run", *CAVITY[:-1], 20, "--checkpoint-every", 10, "--out", out)
    assert rc == 0, err
    _damage(out / "checkpoints" / "ckpt_000000020.h5")
    before = tree(tmp_path)
    rc, dry_out, dry_err = cli("run", "cavity2d", "--set", "n=16", "--steps", 30, "--restart", "latest", "--out", out,
                               "--dry-run")
    assert tree(tmp_path) == before
    assert rc == 0, dry_out + dry_err
    assert "ckpt_000000020.h5" in dry_err and "populations" in dry_err, dry_err  # the warning the run says
    assert f"restart: from {out / 'checkpoints' / 'ckpt_000000010.h5'} at step 10" in dry_out
    assert "its populations read and verified, as the run reads them" in dry_out


@pytest.mark.parametrize("below", ["", "sub/run"])
def test_an_out_that_is_a_dangling_symbolic_link_is_refused_by_the_dry_run(cli, tmp_path, below):
    """--out a symbolic link to nothing, or a folder below one: the run refused it ('exists and is not a folder', exit
    2: its mkdir finds the link), the dry run said ready (a link to nothing does not 'exist')."""
    (tmp_path / "out").symlink_to(tmp_path / "gone")
    out = tmp_path / "out" / below if below else tmp_path / "out"
    before = tree(tmp_path)
    rc, dry_out, dry_err = cli("run", *CAVITY, "--out", out, "--dry-run")
    assert tree(tmp_path) == before
    rc_run, _, err = cli("run", *CAVITY, "--out", out)
    assert rc_run == 2 and "exists and is not a folder" in err, err
    assert rc == 2 and _error(dry_err) == _error(err), dry_out + dry_err


@pytest.mark.parametrize("name,what", [("mean", "time average"), ("steady_ref", "steadiness reference")])
def test_a_checkpoint_whose_other_fields_are_damaged_is_passed_over_by_the_dry_run_as_by_the_run(cli, tmp_path, name,
                                                                                                  what):
    """The run reads a restart's time average ('mean') and steadiness reference ('steady_ref') as it reads its
    populations (checksums, every value finite) and passes a checkpoint where one is damaged over for an older one,
    said; the dry run read the populations alone and said it would restart from the damaged one."""
    import h5py
    import numpy as np

    out = tmp_path / "out"
    sets = ("--set", "average_every=1", "--output-every", 10)
    rc, _, err = cli("run", *CAVITY[:-1], 20, "--checkpoint-every", 10, *sets, "--out", out)
    assert rc == 0, err
    newest = out / "checkpoints" / "ckpt_000000020.h5"
    with h5py.File(newest, "r+") as h5:  # (written through HDF5: its checksums right, a value not finite)
        assert name in h5
        h5[name][0, 0, 0] = np.nan
    before = tree(tmp_path)
    rc, dry_out, dry_err = cli("run", "cavity2d", "--set", "n=16", "--steps", 30, *sets, "--restart", "latest",
                               "--out", out, "--dry-run")
    assert tree(tmp_path) == before
    rc_run, run_out, run_err = cli("run", "cavity2d", "--set", "n=16", "--steps", 30, *sets, "--restart", "latest",
                                   "--out", out)
    said = f"ckpt_000000020.h5: {what} hold non-finite values (NaN or inf) in 1 entries"
    assert rc_run == 0 and said in run_out + run_err, run_out + run_err
    assert rc == 0, dry_out + dry_err
    assert said in dry_err, dry_err  # the warning the run says
    assert f"restart: from {out / 'checkpoints' / 'ckpt_000000010.h5'} at step 10" in dry_out


def test_a_file_system_refusing_file_locks_but_not_folder_locks_is_said_by_the_dry_run(cli, tmp_path, monkeypatch):
    """NFS and Lustre give their folders no lock operation of their own: a flock on a folder is the kernel's, local,
    and taken there even where the file system refuses the locks of files (NFS without its lock daemon, Lustre mounted
    noflock), which the run's flock and HDF5's are. The dry run's lock on the folder alone said nothing there; a lock
    tested (taken nowhere) on a file of the folder finds it."""
    out = tmp_path / "out"
    rc, _, err = cli("run", *CAVITY, "--out", out)
    assert rc == 0, err
    real_flock, real_fcntl = fcntl.flock, fcntl.fcntl

    def files_refused(fd, op):
        return stat.S_ISREG(os.fstat(fd).st_mode) and op in (fcntl.F_GETLK, fcntl.F_SETLK, fcntl.F_SETLKW)

    def flock(fd, op):  # (flock on NFS: the server's POSIX locks, as fcntl's)
        if stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))
        return real_flock(fd, op)

    def fcntl_(fd, op, *arg):
        if files_refused(fd, op):
            raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))
        return real_fcntl(fd, op, *arg)

    monkeypatch.setattr(fcntl, "flock", flock)
    monkeypatch.setattr(fcntl, "fcntl", fcntl_)
    before = tree(tmp_path)
    rc, dry_out, dry_err = cli("run", *CAVITY, "--out", out, "--dry-run")
    assert tree(tmp_path) == before
    assert rc == 0, dry_out + dry_err
    warned = [ln for ln in dry_err.splitlines() if "file locks" in ln]
    assert len(warned) == 1 and warned[0].startswith(f"warning: the file system of {out} refuses file locks (errno 37, "
                                                     f"No locks available)"), dry_err


def test_the_dry_runs_last_line_says_what_the_run_checks_when_it_starts(cli, tmp_path):
    """a66f2b1 cut 'the checkpoint's populations' out of the last line where the dry run read them (or there is no
    restart), and left its 'and': '(the run checks the devices' memory and when it starts)'."""
    rc, dry_out, dry_err = cli("run", *CAVITY, "--out", tmp_path / "out", "--dry-run")
    assert rc == 0, dry_out + dry_err
    assert dry_out.splitlines()[-1] == ("dry run: ready; nothing was allocated or written (the run checks the devices' "
                                        "memory when it starts)"), dry_out
