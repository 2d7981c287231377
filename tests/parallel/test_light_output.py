"""Light output (sub-box, every k-th cell, slices) is the same, bit for bit, on every mesh and process
count as on one device, including planes that miss some devices' and processes' blocks entirely."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import h5py
import numpy as np
import pytest

from helpers import make_sim

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _files(out: Path) -> dict:
    """{relative path: {dataset: array}} of every light output file under `out` (masters, not parts)."""
    got = {}
    for f in sorted(out.glob("*/*.h5")):
        if f.parent.name in ("fields", "checkpoints") or ".p" in f.stem or f.name == "grid.h5":
            continue
        with h5py.File(f, "r") as h5:
            got[str(f.relative_to(out))] = {k: h5[k][...] for k in h5.keys()}
    return got


def _same(a: dict, b: dict):
    assert a and sorted(a) == sorted(b)
    for name in a:
        assert sorted(a[name]) == sorted(b[name]), name
        for k in a[name]:
            assert a[name][k].dtype == b[name][k].dtype and a[name][k].shape == b[name][k].shape, (name, k)
            assert np.array_equal(a[name][k], b[name][k], equal_nan=False), (name, k)  # bit for bit (no NaN)


@pytest.mark.parametrize("case,params,mesh", [
    ("box", dict(n=16, lattice="D3Q19", output_fields="rho,u,vorticity,populations",
                 output_region="x=0.3:0.9; j=1:15", output_stride=3, output_slices="i=3; y=0.5; k=13"), (2, 2, 2)),
    ("box", dict(n=16, lattice="D3Q19", output_fields="rho,u", output_units="physical",
                 output_slices="x=0.2; z=0.9"), (1, 2, 4)),
    ("cavity2d", dict(n=14, output_fields="rho,u,kind", output_region="i=5:16", output_stride=2,
                      output_slices="i=0; y=0.4"), (2, 4)),
])
def test_light_output_on_a_mesh_is_bitwise_the_one_device_output(tmp_path, case, params, mesh):
    from distlbm.parallel.mesh import MeshDomain

    outs = {}
    for where in ("one", "mesh"):
        shape = make_sim(case, **params).setup.shape
        sim = make_sim(case, domain=MeshDomain(shape, mesh) if where == "mesh" else None, output_every=10,
                       **params)
        sim.out_dir = tmp_path / where
        sim.run(20)
        outs[where] = _files(tmp_path / where)
    # some planes lie in a few shards only (e.g. i=3 in the first x-half of a 2x2x2 mesh)
    n_cuts = len(sim.cfg.output.cuts(shape, sim.setup.units["dx"]))
    assert n_cuts == params["output_slices"].count(";") + 1 + ("output_region" in params)
    assert len(outs["one"]) == 3 * n_cuts  # steps 0, 10, 20
    _same(outs["one"], outs["mesh"])
    for where in ("one", "mesh"):  # the XDMF series name the same files
        assert sorted(p.name for p in (tmp_path / where).glob("*.xdmf")) == \
               sorted(p.name for p in (tmp_path / "one").glob("*.xdmf"))


def test_light_output_under_two_processes_one_holding_no_part_of_a_plane(tmp_path):
    """2 processes (serial h5py: a part file per process and a virtual master): the plane i=3 lies in
    process 0's half only, so process 1 writes no piece of it; every file equals the one-process one."""
    light = ["--set", "output_slices='i=3; k=12'", "--set", "output_region='i=2:14'", "--set", "output_stride=3"]
    args = ["run", "box", "--set", "n=16", *light, "--steps", 10, "--output-every", 10]
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=1", PYTHONPATH=str(REPO),
               DISTLBM_HDF5_MODE="split")
    cmd = [BIN / "mpiexec", "-n", 2, BIN / "distlbm", *args, "--mesh", "2x1x1", "--out", tmp_path / "two"]
    p = subprocess.run([str(c) for c in cmd], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    one = subprocess.run([str(c) for c in [BIN / "distlbm", *args, "--out", tmp_path / "one"]], cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=300)
    assert one.returncode == 0, one.stdout + one.stderr
    parts = sorted(p.name for p in (tmp_path / "two" / "slice_x3").glob("slice_x3_000000010.p*.h5"))
    assert parts == ["slice_x3_000000010.p0.h5", "slice_x3_000000010.p1.h5"]
    with h5py.File(tmp_path / "two" / "slice_x3" / "slice_x3_000000010.p1.h5", "r") as h5:
        assert list(h5.keys()) == []  # process 1 holds none of the plane i=3
    with h5py.File(tmp_path / "two" / "slice_x3" / "slice_x3_000000010.h5", "r") as h5:
        assert h5["rho"].is_virtual
    _same(_files(tmp_path / "one"), _files(tmp_path / "two"))
