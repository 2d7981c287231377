"""16-bit storage (float16, bfloat16) with float32 compute: accuracy against float32 and the analytic
or published answers, bitwise restarts through checkpoints, configuration and memory.

The bounds are a few times the errors measured on this machine (docs/performance.md), well below what
a broken storage path gives: e.g. storing full populations f instead of deviations g = f - w in
bfloat16 loses the flow altogether, and float16 without the deviation form errs by ~1e-3 U on u."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import h5py
import numpy as np
import pytest

from helpers import make_sim, run_case

REPO = Path(__file__).resolve().parents[1]
HALF = ("float16", "bfloat16")


@pytest.fixture(scope="module")
def taylor_green():
    """taylor_green2d at n = 32 (one velocity decay time) in each storage dtype: summary and u."""
    out = {}
    for dt in ("float32",) + HALF:
        summary, sim = run_case("taylor_green2d", n=32, dtype=dt)
        assert str(sim.state.f.dtype) == dt and sim.model.compute_dtype == "float32"
        out[dt] = summary, sim.fields("float64")[1], sim.setup.u_max
    return out


# measured at n = 32 (docs/performance.md): viscosity error -0.25 % (float32), -1.4 % (float16),
# -9 % (bfloat16); velocity L2 error vs analytic 0.0024 / 0.012 / 0.093
TG_BOUNDS = {"float32": (0.005, 0.005), "float16": (0.03, 0.03), "bfloat16": (0.2, 0.2)}


@pytest.mark.parametrize("dtype", ("float32",) + HALF)
def test_taylor_green_viscosity_and_velocity_vs_analytic(taylor_green, dtype):
    summary, _, _ = taylor_green[dtype]
    obs = summary["observables"]
    visc_bound, l2_bound = TG_BOUNDS[dtype]
    assert abs(obs["viscosity"]["rel_error"]) < visc_bound, obs["viscosity"]
    assert obs["velocity_rel_l2_error"] < l2_bound, obs["velocity_rel_l2_error"]
    assert abs(summary["relative_mass_drift"]) < {"float32": 1e-6, "float16": 1e-4, "bfloat16": 1e-3}[dtype]


@pytest.mark.parametrize("dtype,bound", [("float16", 0.02), ("bfloat16", 0.15)])
def test_taylor_green_16bit_against_float32(taylor_green, dtype, bound):
    _, u32, umax = taylor_green["float32"]
    _, u16, _ = taylor_green[dtype]
    diff = np.max(np.abs(u16 - u32)) / umax
    assert 0 < diff < bound, diff  # > 0: the run really stored 16-bit values


@pytest.fixture(scope="module")
def cavity():
    """cavity2d at n = 32, Re 100, in each storage dtype: summary and u."""
    out = {}
    for dt in ("float32",) + HALF:
        summary, sim = run_case("cavity2d", n=32, dtype=dt)
        out[dt] = summary, sim.fields("float64")[1], sim.setup.u_max
    return out


@pytest.mark.parametrize("dtype,bound", [("float16", 0.005), ("bfloat16", 0.03)])
def test_cavity_16bit_against_float32_and_ghia(cavity, dtype, bound):
    s32, u32, ulid = cavity["float32"]
    s16, u16, _ = cavity[dtype]
    diff = np.max(np.abs(u16 - u32)) / ulid
    assert 0 < diff < bound, diff
    # the centre lines are as close to Ghia et al. as float32's (at n = 32 the resolution error dominates)
    e32 = s32["observables"]["ghia"]["max_error"]
    e16 = s16["observables"]["ghia"]["max_error"]
    assert abs(e16 - e32) < bound, (e16, e32)
    assert e16 < 0.06, e16


# ---- checkpoints, output, configuration ----------------------------------------------------------

@pytest.mark.parametrize("dtype", HALF)
def test_restart_is_bitwise_in_16bit_storage(tmp_path, dtype):
    params = dict(n=14, collision="trt", dtype=dtype)
    straight = make_sim("cavity2d", **params)
    straight.run(40)
    first = make_sim("cavity2d", **params, checkpoint_every=20)
    first.out_dir = tmp_path
    first.run(20)
    with h5py.File(tmp_path / "checkpoints" / "ckpt_000000020.h5", "r") as h5:
        ds = h5["f"]
        if dtype == "bfloat16":  # HDF5 has no bfloat16: raw bits, named by an attribute
            assert ds.dtype == np.uint16 and ds.attrs["dtype"] == "bfloat16"
        else:
            assert ds.dtype == np.float16
        raw = ds[...]
    assert np.array_equal(raw.view(np.uint16), np.asarray(first.state.f).view(np.uint16))
    second = make_sim("cavity2d", **params)
    second.out_dir = tmp_path
    second._restore("latest")
    assert str(second.state.f.dtype) == dtype
    second.run(40)
    assert np.array_equal(np.asarray(second.state.f).view(np.uint16), np.asarray(straight.state.f).view(np.uint16))


def test_restart_with_other_storage_dtype_is_refused(tmp_path):
    from distlbm.io.checkpoint import CheckpointError

    first = make_sim("box", n=8, lattice="D2Q9", dtype="float16", checkpoint_every=5)
    first.out_dir = tmp_path
    first.run(5)
    other = make_sim("box", n=8, lattice="D2Q9", dtype="float32")
    other.out_dir = tmp_path
    with pytest.raises(CheckpointError, match="dtype"):
        other._restore("latest")


def test_bfloat16_populations_output_is_readable_float32(tmp_path):
    sim = make_sim("box", n=8, lattice="D2Q9", dtype="bfloat16", output_every=5, output_fields="rho,u,populations")
    sim.out_dir = tmp_path
    sim.run(5)
    with h5py.File(tmp_path / "fields" / "fields_000000005.h5", "r") as h5:
        assert h5["populations"].dtype == np.float32 and h5["rho"].dtype == np.float32
        assert np.array_equal(h5["populations"][...], np.asarray(sim.state.f).astype(np.float32))


def test_compute_dtype_defaults_and_16bit_compute_is_refused():
    from distlbm.cases.base import ConfigError
    from distlbm.config import resolve

    for dt in HALF:
        cfg = resolve("box", {"dtype": dt, "n": 8})
        assert cfg.common["dtype"] == dt and cfg.common["compute_dtype"] == "float32"
        with pytest.raises(ConfigError) as e:
            resolve("box", {"dtype": dt, "compute_dtype": dt, "n": 8})
        msg = str(e.value)
        assert f"compute_dtype = {dt!r}" in msg and "'float32'" in msg and "'float64'" in msg


def test_info_and_bench_in_16bit(cli):
    rc, out, err = cli("info", "--lattice", "D3Q19", "--size", 400, "--dtype", "bfloat16", "--json")
    assert rc == 0, err
    m = json.loads(out)["memory_estimate"]
    assert m["population_bytes"] == 19 * 400 ** 3 * 2
    rc, out, err = cli("bench", "--lattice", "D2Q9", "--size", 32, "--steps", 2, "--repeat", 1, "--dtype", "float16",
                       "--bandwidth-mib", 8, "--json")
    assert rc == 0, err
    r = json.loads(out)
    assert r["dtype"] == "float16" and r["compute_dtype"] == "float32" and r["bytes_per_cell"] == 2 * 9 * 2
    assert r["population_bytes"] == 9 * 32 * 32 * 2
    assert r["bandwidth_bytes_per_s"] > 1e8
    assert r["roofline_mlups"] == pytest.approx(r["bandwidth_bytes_per_s"] / 36 / 1e6)
    assert r["roofline_fraction"] == pytest.approx(r["mlups"] / r["roofline_mlups"])
    rc, out, err = cli("bench", "--dtype", "float16", "--compute-dtype", "float16")
    assert rc == 2 and "--compute-dtype = 'float16'" in err and "float32" in err


# ---- memory: 16-bit storage keeps the budget (the 400^3 D3Q19 box: docs/performance.md) ------------

def test_float16_bench_peak_memory_within_budget():
    size = 224
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=1")
    p = subprocess.run([sys.executable, "-m", "distlbm", "bench", "--lattice", "D3Q19", "--size", str(size),
                        "--steps", "2", "--repeat", "1", "--dtype", "float16", "--bandwidth-mib", "0", "--json"],
                       cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["population_bytes"] == 19 * size ** 3 * 2
    budget = 2.3 * r["population_bytes"] + 0.5e9
    assert r["population_bytes"] <= r["peak_memory_bytes"] <= budget, (r["peak_memory_bytes"] / 1e9, budget / 1e9)
