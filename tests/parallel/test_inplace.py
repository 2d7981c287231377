"""In-place streaming (stepper.make_step's slab form with one population array): the same bits as the
whole-array step and as the A-B slab form, for every boundary kind, on meshes of several devices
(each shard streams slab by slab; the planes entering across its faces come from the exchange).

The slab forms run only on lattices larger than `whole_bytes` (64 MiB); these tests lower that limit
and the slab size so that small lattices run as 1- and 2-plane slabs. Runs on 8 forced CPU devices."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from distlbm import stepper
from distlbm.parallel import make_advance
from helpers import make_sim

STEPS = 7
CASES = [
    ("box", dict(n=8, lattice="D3Q19", collision="trt")),
    ("box", dict(n=6, lattice="D3Q27")),
    ("taylor_green2d", dict(n=12)),
    ("cavity2d", dict(n=10, u_lid=0.08)),  # walls and a moving lid
    ("cavity3d", dict(n=6, u_lid=0.08, collision="trt")),
    ("poiseuille", dict(n=6, nx=8, lattice="D3Q19")),  # body force, walls
    ("couette", dict(n=6, nx=8)),
    # Bouzidi links, velocity inlet, pressure outlet (12 x 10 cells: slabs of 2 and 3 planes, some with the
    # cylinder's links or the layer and some without, the first and last with the open faces)
    ("channel_flow", dict(n=4, length=2.75, height=2, ref_length=1, re=10, obstacles="circle(1.1, 0.9, 0.3)")),
    ("channel_flow", dict(n=4, length=2.75, height=2, ref_length=1, re=10, obstacles="circle(1.1, 0.9, 0.3)",
                          sponge=1.0)),  # with the absorbing layer (per-cell strength)
    # convective outflow (it reads the outlet cells' own old populations) with a ramp and the layer
    ("channel_flow", dict(n=4, length=2.75, height=2, ref_length=1, re=10, obstacles="circle(1.1, 0.9, 0.3)",
                          outlet="convective", sponge=1.0, ramp=0.5)),
    ("channel_flow", dict(n=4, length=2.75, height=2, ref_length=1, re=10, obstacles="circle(1.1, 0.9, 0.3)",
                          outlet="zero_gradient")),
    # 13 planes: with 5-plane slabs a last slab of 3 (prime sizes along x are common in channels); the convective
    # outflow with the layer and the ramp (the 11-plane channel above with the three is in the exhaustive tier)
    ("channel_flow", dict(n=4, length=3, height=2, ref_length=1, re=10, obstacles="circle(1.1, 0.9, 0.3)",
                          sponge=1.0, outlet="convective", ramp=0.5)),
    # 3D: a cylinder from z wall to z wall (its Bouzidi links meet the walls), inlet, outlet, layer, ramp
    ("channel_flow", dict(n=4, length=2.75, height=2, width=1, ref_length=1, re=10, lattice="D3Q19",
                          collision="trt", obstacles="cylinder(1.1, 0.9, 0.3)", sponge=1.0, ramp=0.5)),
    # 3D with the far walls off the grid (H/dx = 8.4, W/dx = 4.6: q = 0.9 and 0.1 on their links, in every
    # slab; q < 1/2 reads the second fluid row), the cylinder's links where it meets the z walls
    ("channel_flow", dict(n=4, length=2.75, height=2.1, width=1.15, ref_length=1, re=10, lattice="D3Q19",
                          collision="trt", obstacles="cylinder(1.1, 0.9, 0.3)", sponge=1.0, ramp=0.5)),
]


def _form(inplace, slab_bytes):
    """The slab form (in place or A-B) on every lattice: slab_bytes 1 gives 1-plane slabs, a large
    value one slab of the whole block."""
    def factory(model, exchange):
        return stepper.make_step(model, exchange, path="xla", inplace=inplace, whole_bytes=0,
                                 slab_bytes=slab_bytes)
    return factory


def _run(sim, factory):
    if factory is None:
        sim.advance(STEPS)
        return np.asarray(jax.device_get(sim.state.f))
    advance = make_advance(sim.model, sim.domain, step_factory=factory)
    state = advance(sim.state, sim.cells, STEPS)
    return np.asarray(jax.device_get(state.f))


@pytest.mark.parametrize("case,params", CASES, ids=lambda x: x if isinstance(x, str) else
                         "-".join(f"{k}{v}" for k, v in x.items()))
def test_in_place_equals_whole_array_and_ab_slabs(case, params):
    from distlbm.parallel.mesh import MeshDomain

    try:
        ref_sim = make_sim(case, **params)
    except Exception as e:  # a case that cannot take these parameters is a test error, not a skip
        raise AssertionError(f"{case} {params}: {e}")
    ref = _run(ref_sim, None)  # small lattice: the whole-array form
    assert np.all(np.isfinite(ref))
    d = ref_sim.model.lattice.d
    fs = ref_sim.state.f
    five = 5 * fs.shape[0] * (fs.size // (fs.shape[0] * fs.shape[1])) * 4  # 5 planes (float32 compute)
    # thinnest slabs; slabs of 5 planes (a smaller last one where 5 does not divide); one slab
    for inplace, slab_bytes in ((False, 1), (True, 1), (False, five), (True, five), (True, 1 << 30)):
        f = _run(make_sim(case, **params), _form(inplace, slab_bytes))
        assert np.array_equal(f, ref), (inplace, slab_bytes, np.argwhere(f != ref)[:5])
    shape = ref_sim.setup.shape
    meshes = [(2, 2, 1), (1, 2, 2)] if d == 3 else [(2, 2), (1, 2)]
    mesh = next((m for m in meshes if not any(s % k for s, k in zip(shape, m))), None)
    if mesh is None:
        pytest.fail(f"{shape} divides over none of {meshes}")
    sim = make_sim(case, domain=MeshDomain(shape, mesh), **params)
    f = _run(sim, _form(True, 1))
    assert np.array_equal(f, ref), ("in place on mesh", mesh, np.argwhere(f != ref)[:5])


@pytest.mark.parametrize("case,params,planes", [("box", dict(n=48, lattice="D3Q19"), 1),
                                                ("box", dict(n=47, lattice="D3Q19"), 4),  # slabs 4, ..., 4, 3
                                                # 3 planes fit and 47 % 3 < 3: slabs 3, ..., 3, 5 (a prime nx
                                                # ran as one whole-block slab: 2 arrays of temporaries)
                                                ("box", dict(n=47, lattice="D3Q19"), 3),
                                                ("cavity3d", dict(n=46, u_lid=0.08), 1)])
def test_in_place_step_holds_one_population_array(case, params, planes):
    """XLA's own memory analysis of the compiled steps: the A-B slab form needs a second population
    array, the in-place form only slabs and faces (a copy that XLA inserts would show here)."""
    sim = make_sim(case, **params)
    pop = sim.state.f.size * sim.state.f.dtype.itemsize
    per_x = pop // sim.state.f.shape[1]
    temp = {}
    for inplace in (False, True):
        advance = make_advance(sim.model, sim.domain, step_factory=_form(inplace, planes * per_x))
        compiled = advance.lower(sim.state, sim.cells, 2).compile()
        temp[inplace] = compiled.memory_analysis().temp_size_in_bytes
    assert temp[False] > 0.9 * pop, temp
    assert temp[True] < 0.4 * pop, (temp, pop)


def test_driver_restarts_across_forms_and_meshes(tmp_path, monkeypatch):
    """A checkpoint written by the whole-array step continues under the in-place step (the driver's own
    step, with the size limits lowered) on a mesh, to the bits of an uninterrupted run: one layout."""
    from distlbm.parallel.mesh import MeshDomain

    params = dict(n=14, collision="trt")
    n = 30
    straight = make_sim("cavity2d", **params)
    straight.run(n)
    first = make_sim("cavity2d", **params, checkpoint_every=n // 2)
    first.out_dir = tmp_path
    first.run(n // 2)
    monkeypatch.setattr(stepper, "WHOLE_BYTES", 0)
    monkeypatch.setattr(stepper, "SLAB_BYTES", 1)
    second = make_sim("cavity2d", domain=MeshDomain(first.setup.shape, (2, 2)), **params)
    assert stepper.slab_form(1, backend="cpu") == "in_place"
    second.out_dir = tmp_path
    second._restore("latest")
    second.run(n)
    assert np.array_equal(np.asarray(second.domain.gather(second.state.f)), np.asarray(straight.state.f))
