"""An STL obstacle on a 2x2x2 mesh gives the single-device populations and forces bit for bit (every
block voxelises only its own cells; 8 forced CPU devices, see conftest.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import numpy as np
import pytest

from helpers import make_sim, run_case

pytest.importorskip("stl", reason="numpy-stl (the 'stl' extra) is not installed")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from make_stl import icosphere, write_stl  # noqa: E402


def test_stl_obstacle_on_a_mesh_matches_one_device(tmp_path):
    from distlbm.parallel.mesh import MeshDomain

    path = tmp_path / "ico.stl"
    write_stl(path, icosphere(3, 0.5))
    kw = dict(lattice="D3Q19", length=1.875, height=1.5, width=1.5, ref_length=1.0, u_mean=1.0, re=20.0, n=8,
              profile="uniform", sides="periodic", t_end=0.15, sample_dt=0.05,
              obstacles=f"stl({path}, 1, 0.81, 0.77, 0.73)")
    _, one = run_case("channel_flow", **kw)
    assert one.setup.shape == (16, 12, 12)
    sim = make_sim("channel_flow", domain=MeshDomain(one.setup.shape, (2, 2, 2)), **kw)
    sim.run()
    np.testing.assert_array_equal(np.asarray(jax.device_get(sim.state.f)), np.asarray(jax.device_get(one.state.f)))
    assert sim.samples[-1]["cD"] == pytest.approx(one.samples[-1]["cD"], rel=1e-5)
    assert one.samples[-1]["cD"] > 0.5
