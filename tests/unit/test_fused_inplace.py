"""The fused kernel streaming in place (physics/fused_inplace.py, the AA pattern) in Pallas interpret mode.

- Bit for bit against the XLA step after an even and an odd number of steps (XLA:CPU's FMA contraction off,
  as in test_fused.py, in a fresh interpreter with 8 forced CPU devices): D2Q9 regularized + force + moving
  walls in float16 on a 2x2 mesh of 8x4 blocks with 2x2 tiles (faces, edges, corners, the ghost planes),
  D3Q19 TRT + force + moving walls + incompressible equilibrium on one device with 8 tiles, D3Q19 TRT with
  Smagorinsky + force + walls on a 2x1x1 mesh. The kernel reads
  the populations through its aliased output, so in interpret mode every program sees what the programs
  before it wrote: a slot read after another cell wrote it would change the bits.
- One population array: XLA's memory analysis of the compiled advance (no second population array;
  the A-B kernel's advance has one).
- Behind the API: parallel.make_advance / the driver run it for step = 'pallas' (DISTLBM_INPLACE=0: the
  A-B kernel), the start-up form says so, and a run in odd chunks (3 + 4 steps: each ends with the odd
  step's data movement) equals one straight run of 7 bit for bit.
- tests/fused_inplace_cases.py all (by hand, minutes) adds D3Q27 BGK + walls in bfloat16 on a 2x2x1 mesh
  and D3Q27 / D3Q19 on 2x2x2 meshes (3D corners) against the A-B kernel.
- The CUDA lowering of the in-place kernels: tests/fused_lowering.py (test_fused.py runs it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
TESTS = Path(__file__).resolve().parents[1]
BITWISE = ["d2q9-reg-force-moving-f16-mesh2x2", "d3q19-trt-force-moving-inc", "d3q19-trt-smagorinsky-walls-mesh2x1x1"]


def _model(lat="D2Q9", walls=True, **kw):
    from distlbm.lattice import get_lattice
    from distlbm.physics import boundaries as bc
    from distlbm.physics.collision import Collision
    from distlbm.stepper import Model

    return Model(get_lattice(lat), Collision(kw.pop("collision", "bgk"), 0.8),
                 features=bc.Features(walls=walls, moving=walls), **kw)


@pytest.mark.parametrize("case", BITWISE)
def test_bitwise_equal_to_the_xla_step_after_even_and_odd_steps(case):
    env = dict(os.environ, JAX_PLATFORMS="cpu",
               XLA_FLAGS="--xla_cpu_max_isa=AVX --xla_force_host_platform_device_count=8")
    r = subprocess.run([sys.executable, str(TESTS / "fused_inplace_cases.py"), case], capture_output=True,
                       text=True, env=env, cwd=REPO, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert set(res) == {case}
    for name, v in res.items():
        assert v["finite"], name
        assert set(v["steps"]) == {"2", "3"}, name
        for n, refs in v["steps"].items():
            assert refs, name
            for ref, cmp in refs.items():
                assert cmp["equal"], f"{name}, {n} steps: max |in place - {ref}| = {cmp['max_abs']}"


def test_tiles_must_divide_the_block_and_uncovered_configurations_are_refused():
    from distlbm.physics import boundaries as bc
    from distlbm.physics.fused_inplace import inplace_block, make_fused_inplace
    from distlbm.physics.streaming import periodic_exchange

    assert inplace_block((1, 256, 256)) == (1, 4, 128)
    assert inplace_block((400, 400, 400)) == (2, 16, 16)
    assert inplace_block((7, 9, 5)) == (1, 1, 1)
    model = _model(walls=False)
    push = make_fused_inplace(model, periodic_exchange, block=(1, 4, 3), interpret=True).push
    with pytest.raises(ValueError, match=r"block = \(1, 4, 3\).*powers of two that divide"):
        push(jnp.zeros((9, 8, 8)), None)
    push = make_fused_inplace(model, periodic_exchange, block=(1, 16, 4), interpret=True).push
    with pytest.raises(ValueError, match=r"divide the block's 3D view \(1, 8, 8\)"):
        push(jnp.zeros((9, 8, 8)), None)
    from distlbm.lattice import get_lattice
    from distlbm.physics.collision import Collision
    from distlbm.stepper import Model

    refused = Model(get_lattice("D2Q9"), Collision("bgk", 0.8), features=bc.Features(walls=True, bouzidi=True))
    with pytest.raises(ValueError, match="Bouzidi"):
        make_fused_inplace(refused, periodic_exchange)


def _temp_over_populations(advance, model, shape):
    from distlbm.stepper import Cells, State

    lat = model.lattice
    f = jax.ShapeDtypeStruct((lat.q,) + shape, jnp.float32)
    u32 = jax.ShapeDtypeStruct(shape, jnp.uint32)
    cells = Cells(kind=jax.ShapeDtypeStruct(shape, jnp.uint8), links=u32, moving=u32,
                  velocity=jax.ShapeDtypeStruct((lat.d,) + shape, jnp.float32))
    st = State(f, jax.ShapeDtypeStruct((), jnp.int32))
    compiled = advance.lower(st, cells, jax.ShapeDtypeStruct((), jnp.int32)).compile()
    return compiled.memory_analysis().temp_size_in_bytes / (lat.q * np.prod(shape) * 4)


def test_the_advance_holds_one_population_array():
    """XLA's own memory analysis of the compiled advance (even and odd n, walls and moving walls): the
    temporaries are the two rows an odd step's data movement copies (2/9 of D2Q9's populations) plus the
    tiles', not a second population array as in the A-B kernel's advance."""
    from distlbm.physics.fused import make_fused_step
    from distlbm.physics.fused_inplace import make_fused_inplace
    from distlbm.physics.streaming import periodic_exchange
    from distlbm.stepper import make_advance, make_inplace_advance

    model = _model()
    shape = (256, 256)
    aa = _temp_over_populations(make_inplace_advance(*make_fused_inplace(model, periodic_exchange, block=(1, 4, 32),
                                                                         interpret=True)), model, shape)
    assert aa < 2 / 9 + 0.05, aa
    ab = _temp_over_populations(make_advance(make_fused_step(model, periodic_exchange, block=(1, 4, 32),
                                                             interpret=True)), model, shape)
    assert ab >= 0.95, ab


def test_driver_runs_it_for_the_pallas_path_and_chunks_do_not_change_the_bits(monkeypatch):
    from distlbm import stepper
    from distlbm.stepper import State
    from helpers import make_sim

    params = dict(n=10, u_lid=0.08, collision="trt", step="pallas")
    sim = make_sim("cavity2d", **params)
    assert sim.step_path[0] == "pallas" and sim.step_path[1].endswith("; in place (AA)"), sim.step_path
    monkeypatch.setenv("DISTLBM_INPLACE", "0")
    assert stepper.step_form(sim.model, "pallas", sim.setup.shape) == "A-B"
    assert stepper.step_form(sim.model, "xla", sim.setup.shape) == "whole array"
    monkeypatch.delenv("DISTLBM_INPLACE")
    f0 = np.asarray(sim.state.f)

    def fresh():
        return State(jnp.array(f0), jnp.int32(0))

    straight = sim._advance(fresh(), sim.cells, jnp.int32(7))
    chunked = sim._advance(sim._advance(fresh(), sim.cells, jnp.int32(3)), sim.cells, jnp.int32(4))
    assert int(chunked.step) == int(straight.step) == 7
    a, b = np.asarray(straight.f), np.asarray(chunked.f)
    assert np.isfinite(a).all() and not np.array_equal(a, f0)
    assert np.array_equal(a, b)
