"""The forces on bodies slab by slab (stepper.make_forces where the step runs in slabs: the populations
once plus a few slabs, instead of the whole-array form's streamed copy and wall temporaries) against the
whole-array momentum exchange, on one device and on meshes of several (8 forced CPU devices).

The per-link values are the same and the sums are in fixed point (physics.boundaries.fixed_point_sums), so
the two are the same bits although they add in another order (in floating point they differed in the last
bits). Bodies sit at the inlet, across the x split of a mesh, and at the outlet, so that the
first and the last slab (whose pulls cross the block's faces) and the slabs at a block's faces carry
wall links."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from distlbm.parallel.mesh import MeshDomain
from distlbm.physics.boundaries import force_totals
from distlbm.stepper import make_forces
from helpers import make_sim

BODIES = "circle(0.065, 0.2, 0.05); circle(0.40, 0.21, 0.05); circle(0.72, 0.19, 0.04)"


def forces(sim, **kw):
    fn = jax.jit(sim.domain.map(lambda exchange: make_forces(sim.model, exchange, **kw)))
    return force_totals(sim.domain.reduce_blocks(fn(sim.state.f, sim.cells, sim.state.step)))


def plane_bytes(sim):
    shape = sim.state.f.shape
    block = [s // m for s, m in zip(shape[1:], sim.domain.mesh_shape or (1,) * (len(shape) - 1))]
    return shape[0] * int(np.prod(block[1:])) * sim.state.f.dtype.itemsize


@pytest.mark.parametrize("length,mesh,planes", [
    (0.78, None, 7),  # 79 planes (prime): slabs of 7 and a last one of 2
    (0.78, (1, 2), 3),  # split across y
    (0.79, (2, 2), 3),  # 80 planes, split along x through the middle body: 2-plane slabs
    (0.79, (2, 1), 1),  # one plane per slab where the faces allow (inlet / outlet slabs need 2)
])
def test_slab_forces_equal_the_whole_array_forces_2d(length, mesh, planes):
    kw = dict(n=10, length=length, height=0.40, obstacles=BODIES, t_end=0.1, dtype="float64",
              ramp=0.2)
    sim = make_sim("channel_flow", **kw)
    if mesh:
        sim = make_sim("channel_flow", domain=MeshDomain(sim.setup.shape, mesh), **kw)
    sim.run(30)
    whole = forces(sim, whole_bytes=1 << 40)
    slabs = forces(sim, whole_bytes=0, slab_bytes=planes * plane_bytes(sim))
    assert whole.shape == (3, 2) and np.all(np.abs(whole[:, 0]) > 1e-4), whole
    np.testing.assert_array_equal(slabs, whole)
    # and what the run's own reader gives (the whole-array form at this size)
    np.testing.assert_array_equal(sim.forces(), whole)


def test_slab_forces_equal_the_whole_array_forces_3d():
    # a cylinder from z wall to z wall and a sphere, far walls off the grid (Bouzidi on their links),
    # inlet, outlet, layer; 2 x 1 x 2 mesh, 3-plane slabs
    kw = dict(lattice="D3Q19", n=6, length=0.55, height=0.205, width=0.195, ref_length=0.1,
              obstacles="cylinder(0.12, 0.1, 0.04); sphere(0.3, 0.1, 0.1, 0.05)", t_end=0.05, dtype="float64",
              sponge=0.07)
    one = make_sim("channel_flow", **kw)
    sim = make_sim("channel_flow", domain=MeshDomain(one.setup.shape, (2, 1, 2)), **kw)
    sim.advance(12)
    whole = forces(sim, whole_bytes=1 << 40)
    slabs = forces(sim, whole_bytes=0, slab_bytes=3 * plane_bytes(sim))
    assert whole.shape == (2, 3) and np.all(np.abs(whole[:, 0]) > 1e-5), whole
    np.testing.assert_array_equal(slabs, whole)
    one.advance(12)  # and one device: the same bits (float sums per block differed in the last ones)
    np.testing.assert_array_equal(one.forces(), whole)
