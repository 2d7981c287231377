"""The fused Pallas stream-collide kernel (distlbm.physics.fused) against the XLA step.

- Bit for bit where the arithmetic is the same: the kernel performs the XLA step's operations in the
  same order, so with XLA:CPU's multiply-add contraction off (`--xla_cpu_max_isa=AVX`: no FMA
  instructions; run in a fresh interpreter because the flag is read once per process) the Pallas
  interpreter and `stepper.make_step` give identical populations after several steps, for every covered
  feature (D2Q9/D3Q19/D3Q27, BGK/TRT/regularized, Smagorinsky, body force, walls and moving walls,
  fixed-velocity/pressure cells, incompressible equilibrium, float32/float16/bfloat16 storage, tiles that
  do not divide the lattice) and on the cells of built-in obstacle channels (Bouzidi links, velocity
  inlet, pressure outlet, zero-gradient and convective outflow, absorbing layer, start-up ramp).
- With contraction on (the default here, and what GPUs do), XLA contracts a*b+c into FMAs differently
  in its fused whole-array step and in the kernel, so the two differ by rounding (bound below).
- Within the Pallas path, a lattice split over a mesh gives the one-device bits (8 forced CPU devices).
- The kernel, and the in-place advance (physics/fused_inplace.py) with its population array aliased in every
  Triton call, lower for CUDA when ./.venv-cuda exists (scripts/setup_cuda_lowering.sh).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import fused_cases as fc

REPO = Path(__file__).resolve().parents[2]
TESTS = Path(__file__).resolve().parents[1]
CUDA_PY = REPO / ".venv-cuda" / "bin" / "python"

# together: D2Q9/D3Q19/D3Q27, BGK/TRT/regularized, force, walls, moving walls, incompressible, 16-bit storage,
# tiles that do not divide the lattice (the other CASES run with `python tests/fused_cases.py all`)
BITWISE = ["d2q9-bgk-force-tiles", "d2q9-reg-force-moving", "d3q19-trt-moving-tiles", "d3q27-bgk-force-moving-bf16"]


# the cells of built-in cases: obstacle channels (Bouzidi, inlet, outlets, outflow, layer, ramp), Smagorinsky
SIM_BITWISE = list(fc.SIM_CASES) + ["d2q9-trt-dirichlet-ramp", "d3q19-bgk-dirichlet-f16",
                                    "d3q19-trt-smagorinsky-force-walls"]


def test_supports_names_what_falls_back():
    from distlbm.lattice import get_lattice
    from distlbm.physics import boundaries as bc
    from distlbm.physics.collision import Collision
    from distlbm.physics.fused import fused_supports, make_fused_step
    from distlbm.physics.streaming import periodic_exchange
    from distlbm.stepper import Model

    lat = get_lattice("D3Q19")
    ok = Model(lat, Collision("trt", 0.7), force=(1e-5, 0.0, 0.0), features=bc.Features(walls=True, moving=True),
               dtype="float16", incompressible=True)
    assert fused_supports(ok) == (True, "covered")
    # the A-B kernel covers the obstacle channels' features; the in-place (AA) kernels do not: they fall back to it
    obstacle = Model(lat, Collision("trt", 0.8, smagorinsky=0.1),
                     features=bc.Features(walls=True, bouzidi=True, inlets=((0, -1),), outlets=((0, 1),), sponge=True,
                                          ramp_steps=10, bodies=1))
    assert fused_supports(obstacle) == (True, "covered")
    assert fused_supports(ok, inplace=True) == (True, "covered")
    for words, feat in {
        ("Bouzidi",): bc.Features(walls=True, bouzidi=True),
        ("fixed-velocity", "fixed-pressure"): bc.Features(velocity=True, pressure=True),
        ("outflow",): bc.Features(outflow=((0, 1),)),
        ("inlets", "pressure outlets"): bc.Features(inlets=((0, -1),), outlets=((0, 1),)),
        ("sponge",): bc.Features(inlets=((0, -1),), sponge=True),
    }.items():
        model = Model(lat, Collision("bgk", 0.8), features=feat)
        assert fused_supports(model)[0], words
        good, why = fused_supports(model, inplace=True)
        assert not good and all(w in why for w in words), (words, why)
    # Smagorinsky is per cell: the in-place kernels share the collision (tests/unit/test_fused_inplace.py)
    assert fused_supports(Model(lat, Collision("bgk", 0.8, smagorinsky=0.1)), inplace=True) == (True, "covered")
    refused = {
        "open faces normal to more than one axis (x, y)": Model(
            lat, Collision("bgk", 0.8), features=bc.Features(inlets=((0, -1),), outflow=((1, 1),))),
        "compute_dtype float64": Model(lat, Collision("bgk", 0.8), dtype="float64", compute_dtype="float64"),
        "per-cell force fields": Model(lat, Collision("bgk", 0.8), force_field=True),
    }
    for word, model in refused.items():
        good, why = fused_supports(model)
        assert not good and word in why, (word, why)
        with pytest.raises(ValueError, match=word.replace("(", r"\(").replace(")", r"\)")):
            make_fused_step(model, periodic_exchange)
    # the features argument overrides the model's
    assert not fused_supports(ok, bc.Features(inlets=((0, -1),), outflow=((1, 1),)))[0]


@pytest.mark.parametrize("case", BITWISE)
def test_bitwise_equal_to_the_xla_step_without_fma(case):
    env = dict(os.environ)
    env["XLA_FLAGS"] = "--xla_cpu_max_isa=AVX --xla_force_host_platform_device_count=8"  # no FMA3: XLA:CPU
    # cannot contract a*b+c (8 devices for the cases on meshes)
    env["JAX_PLATFORMS"] = "cpu"
    r = subprocess.run([sys.executable, str(TESTS / "fused_cases.py"), case], capture_output=True, text=True,
                       env=env, cwd=REPO, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert set(res) == {case}
    for name, v in res.items():
        assert v["finite"], name
        assert v["equal"], f"{name}: max |fused - xla| = {v['max_abs']}"


@pytest.mark.parametrize("case", SIM_BITWISE)
def test_bitwise_equal_on_the_cells_of_obstacle_channels(case):
    test_bitwise_equal_to_the_xla_step_without_fma(case)


def test_within_rounding_of_the_xla_step_with_fma():
    # regularized + force + moving walls: the most multiply-adds per population. After 20 steps from random
    # deviations of size 1e-2 the differences measured here were 5.2e-7 of max |f| (this case), 1.4e-6
    # (D3Q19 regularized), 1.1e-6 (D3Q27 regularized), 0 (BGK and TRT with force and moving walls): rounding
    # of a few ulp per step. Bound: 4e-6 of max |f| (~30 ulp) after 20 steps; a wrong term is far larger.
    a, b = fc.run_pair("d2q9-reg-force-moving", steps=20)
    assert np.isfinite(b).all()
    scale = np.abs(a).max()
    assert np.abs(a - b).max() <= 4e-6 * scale, np.abs(a - b).max() / scale


@pytest.mark.parametrize("name,mesh", [("d3q19-trt-force-moving", (2, 2, 2)), ("d2q9-bgk-force-tiles", (1, 2))])
def test_mesh_is_bitwise_identical_within_the_pallas_path(name, mesh):
    from distlbm.parallel.mesh import MeshDomain

    (one,) = fc.run_pair(name, paths=("fused",))
    shape = fc.CASES[name][6]
    (split,) = fc.run_pair(name, domain=MeshDomain(shape, mesh), paths=("fused",))
    assert np.isfinite(one).all()
    assert np.array_equal(one, split), f"{name} mesh {mesh}: max diff {np.abs(one - split).max()}"


@pytest.mark.parametrize("name", ["channel2d-bouzidi-sponge-ramp", "channel3d-bouzidi-sponge-reg"])
def test_obstacle_channel_on_a_mesh_equals_the_xla_step_on_one_device(name):
    # meshes that split x through the obstacle and y (z): the kernel's halo reads for the faces' inner
    # neighbours, Bouzidi cells at block faces. Without FMA, as the bitwise tests (with it, XLA:CPU contracts
    # the interpreted kernel's multiply-adds differently for the tile shapes of different blocks: 7e-8 here)
    test_bitwise_equal_to_the_xla_step_without_fma(name + fc.MESH)


@pytest.mark.skipif(not CUDA_PY.exists(), reason="./.venv-cuda absent (scripts/setup_cuda_lowering.sh builds it)")
def test_lowers_for_cuda_to_the_triton_custom_call():
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    env.pop("XLA_FLAGS", None)
    r = subprocess.run([str(CUDA_PY), str(TESTS / "fused_lowering.py")], capture_output=True, text=True, env=env,
                       cwd=REPO, timeout=600)
    lines = r.stdout.strip().splitlines()
    assert lines, r.stderr[-3000:]
    res = json.loads(lines[-1])
    failed = {k: v["error"] for k, v in res.items() if not v["ok"]}
    assert not failed, failed
    assert r.returncode == 0
    import fused_lowering

    assert set(res) == set(fused_lowering.ALL)
    inplace = [k for k in res if k.endswith(fused_lowering.INPLACE)]
    assert len(inplace) == len(fused_lowering.LOWER) - len(fused_lowering.AB_ONLY) > 0
    assert all(res[k]["aliased"] >= 7 for k in inplace)


def test_a_per_cell_force_field_runs_the_xla_step_and_says_why():
    """The kernels compile one uniform force in: a case with Setup.force_field (kolmogorov) falls back to the XLA step,
    and step = 'pallas' is refused naming it."""
    from distlbm.config import resolve
    from distlbm.driver.loop import build_model
    from distlbm.stepper import step_path

    model = build_model(resolve("kolmogorov", {"n": 16}))
    assert model.force_field and model.force is None
    assert step_path(model, "auto")[0] == "xla"
    with pytest.raises(ValueError, match="does not cover this configuration: per-cell force fields"):
        step_path(model, "pallas")


def test_the_step_path_is_chosen_for_the_backend_it_is_given():
    """scripts/step_variants.py names the path `distlbm run` takes on its workers' GPU from a parent that holds no
    device: step_path takes the backend (default: jax's) and gives the choice it makes on that backend."""
    from distlbm.config import resolve
    from distlbm.driver.loop import build_model
    from distlbm.stepper import step_path

    sphere = build_model(resolve("sphere", {"n": 3}))
    assert step_path(sphere, "auto", backend="gpu") == ("pallas", "fused Triton kernel")
    assert step_path(sphere, "auto", backend="cpu") == ("xla", "cpu backend")
    assert step_path(sphere, "xla", backend="gpu") == ("xla", "requested")
    kolmogorov = build_model(resolve("kolmogorov", {"n": 16}))
    assert step_path(kolmogorov, "auto", backend="gpu")[0] == "xla"


@pytest.mark.skipif(not CUDA_PY.exists(), reason="./.venv-cuda absent (scripts/setup_cuda_lowering.sh builds it)")
def test_the_cuda_lowering_names_its_gpu_as_jax_0_11_requires():
    """jax 0.11's Triton lowering takes the arch from an abstract GPU device where no GPU is present and refuses
    without one (0.10 fell back to sm_90): simulated in ./.venv-cuda's jax by refusing, as 0.11 does, a lowering
    that sees no abstract GPU device. fused_lowering.py lowered with none, so under a jax 0.11 .venv-cuda every
    configuration would have failed."""
    snippet = (
        "import json, sys; sys.path[:0] = [sys.argv[1], sys.argv[2]]\n"
        "from jax._src import mesh\n"
        "from jax._src.pallas.triton import lowering\n"
        "import fused_lowering\n"
        "real = lowering.lower_jaxpr_to_triton_module\n"
        "def as_0_11(*a, **k):\n"
        "    dev = mesh.get_abstract_mesh().abstract_device\n"
        "    if dev is None or dev.platform not in ('cuda', 'gpu'):\n"
        "        raise RuntimeError('No supported GPU devices found (jax 0.11, simulated)')\n"
        "    return real(*a, **k)\n"
        "lowering.lower_jaxpr_to_triton_module = as_0_11\n"
        "names = ['D3Q27-bgk-dirichlet', next(n for n in fused_lowering.ALL if n.endswith(fused_lowering.INPLACE))]\n"
        "print(json.dumps({n: fused_lowering.check(n) for n in names}))\n")
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    env.pop("XLA_FLAGS", None)
    r = subprocess.run([str(CUDA_PY), "-c", snippet, str(REPO), str(TESTS)], capture_output=True, text=True, env=env,
                       cwd=REPO, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert all(v["ok"] for v in res.values()), res
