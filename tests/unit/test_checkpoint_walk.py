"""The walk over a restart's or an --init-from's candidate checkpoints (newest first) says the same, run or dry run:
the damaged ones it passes over, and where none fits, each reason once."""

from __future__ import annotations

import os

import h5py
import pytest

BOX = ("box", "--set", "n=8", "--set", "lattice=D2Q9")


def _run(cli, tmp_path):
    """A run with checkpoints at steps 10, 20, 30: their paths, newest first."""
    out = tmp_path / "run"
    rc, _, err = cli("run", *BOX, "--steps", 30, "--checkpoint-every", 10, "--out", out)
    assert rc == 0, err
    return out, [out / "checkpoints" / f"ckpt_0000000{s}.h5" for s in (30, 20, 10)]


def _truncate(p):
    os.truncate(p, os.path.getsize(p) // 2)


def _edit_meta(p):  # its metadata no longer matches its digest
    with h5py.File(p, "r+") as h5:
        h5.attrs["meta"] = h5.attrs["meta"].replace('"time"', '"time" ')


def _lines(out, err):
    return [line for line in (out + err).splitlines() if line.strip()]


@pytest.mark.parametrize("how", ["restart", "init-from"])
def test_the_dry_run_says_the_damaged_checkpoints_the_run_passes_over(cli, tmp_path, how):
    """The dry run took the older checkpoint saying nothing of the newest, damaged one; the run said it."""
    out, paths = _run(cli, tmp_path)
    _truncate(paths[0])
    args = ("--out", out, "--restart", "--steps", 40) if how == "restart" else \
        ("--out", tmp_path / "new", "--init-from", out, "--steps", 10)
    said = f"warning: {paths[0]}: not a readable HDF5 file"
    rc, dout, derr = cli("run", *BOX, *args, "--dry-run")
    assert rc == 0, derr
    dry = [line for line in _lines(dout, derr) if line.startswith(said)]
    rc, rout, rerr = cli("run", *BOX, *args)
    assert rc == 0, rerr
    run = [line for line in _lines(rout, rerr) if line.startswith(said)]
    assert len(run) == 1 and run[0].endswith("; trying an older checkpoint"), (rout, rerr)
    assert dry == run, (dout, derr)
    assert str(paths[1]) in dout and str(paths[1]) in rout


@pytest.mark.parametrize("how", ["restart", "init-from"])
def test_none_fits_each_reason_said_once_in_one_line_run_or_dry_run(cli, tmp_path, how):
    """Newest cut short, the older two edited: --init-from said "NEWEST and 2 older: not a readable HDF5 file" (the
    older ones' reason left out, after warnings that named it); a restart said each reason as a warning, then all
    of them again in its error. One line now, each reason once, the run as its dry run."""
    out, paths = _run(cli, tmp_path)
    _truncate(paths[0])
    for p in paths[1:]:
        _edit_meta(p)
    args = ("--out", out, "--restart", "--steps", 40) if how == "restart" else \
        ("--out", tmp_path / "new", "--init-from", out, "--steps", 10)
    said = []
    for dry in (("--dry-run",), ()):
        rc, sout, serr = cli("run", *BOX, *args, *dry)
        assert rc == 2, serr
        lines = [line for line in _lines(sout, serr) if str(paths[0]) in line or str(paths[1]) in line]
        assert len(lines) == 1, (sout, serr)
        said.append(lines[0])
    option = "--restart latest" if how == "restart" else f"--init-from {out}"
    assert said[0] == said[1] == (
        f"distlbm: {'restart' if how == 'restart' else 'initial state'} failed: {option}: no usable checkpoint: "
        f"{paths[0]}: not a readable HDF5 file" + said[0].split("not a readable HDF5 file")[1].split("; ")[0] +
        f"; expected a checkpoint file that distlbm run wrote (checkpoints/ckpt_NNNNNNNNN.h5 of its --out); "
        f"{paths[1]} and 1 older: metadata does not match its SHA-256 digest (edited or damaged)"), said
