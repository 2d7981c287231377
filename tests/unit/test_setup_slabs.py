"""The static per-cell data are built slab by slab (stepper.assemble_cells, Domain.make_fields): a case's
geometry runs on slabs of at most SETUP_SLAB_CELLS cells (its float64 and Q-array temporaries stay slab-sized;
over whole blocks they were the peak of obstacle runs: sphere 315 B/cell), once per slab for all the fields,
and the fields are those of whole blocks, on one device and on a mesh. Runs on 8 forced CPU devices."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import jax
import numpy as np
import pytest

from distlbm import stepper
from distlbm.config import resolve
from distlbm.driver.loop import build_model
from distlbm.parallel.domain import LocalDomain
from distlbm.parallel.mesh import MeshDomain
from distlbm.physics import boundaries as bc


def _cells(cfg, domain, slab_cells, monkeypatch):
    monkeypatch.setattr(stepper, "SETUP_SLAB_CELLS", slab_cells)
    calls = []

    def geometry(index):
        calls.append(tuple((sl.start, sl.stop) for sl in index))
        return cfg.setup.geometry(index)

    cells, _ = stepper.assemble_cells(build_model(cfg), geometry, domain)
    out = {k: None if v is None else np.asarray(jax.device_get(v)) for k, v in cells._asdict().items()}
    if cells.qlink is not None:  # each block's box of planes (and its plane outside the box), put back in its
        # block: the fractions of every cell
        mx = domain.mesh_shape[0] if domain.mesh_shape else 1
        nx = domain.shape[0] // mx
        out["box_planes"] = cells.qlink.shape[1] // mx
        plane = () if cells.qplane is None else (cells.qplane,)
        out["qlink"] = np.asarray(jax.jit(domain.map(lambda exchange: lambda box, first, *p: bc.wall_fraction_window(
            box, first, 0, nx, *p)))(cells.qlink, cells.qbox, *plane))
        out["qbox"] = out["qplane"] = None
        out["planar_q"] = cells.qplane is not None
    if cells.velocity is not None and build_model(cfg).features.x_invariant:  # one plane along x per block
        mx = domain.mesh_shape[0] if domain.mesh_shape else 1
        for k in ("velocity", "rho"):
            v = out[k]
            assert v.shape[v.ndim - len(domain.shape)] == mx, (k, v.shape)
            first = np.take(v, [0], axis=v.ndim - len(domain.shape))
            assert all(np.array_equal(np.take(v, [i], axis=v.ndim - len(domain.shape)), first) for i in range(mx))
            out[k] = first
    return out, calls


@pytest.mark.parametrize("case,params", [
    # Bouzidi links (a sphere's, and those of the far walls off the grid: 8.4 and 4.6 cells), inlet, outlet, a
    # body, the absorbing layer
    ("channel_flow", dict(n=4, length=2.75, height=2.1, width=1.15, ref_length=1, re=10, lattice="D3Q19",
                          obstacles="sphere(1.1, 0.9, 0.5, 0.3)", sponge=1.0)),
    ("cavity3d", dict(n=8)),  # moving walls: the velocities of the adjacent walls
])
def test_fields_built_slab_by_slab_equal_whole_blocks(case, params, monkeypatch):
    cfg = resolve(case, params)
    shape = cfg.setup.shape
    planar = build_model(cfg).features.x_invariant  # the velocities and densities: one more call, for a plane
    whole, calls = _cells(cfg, LocalDomain(shape), 1 << 40, monkeypatch)
    assert calls == [tuple((0, n) for n in shape)] + planar * [((0, 1),) + tuple((0, n) for n in shape[1:])]
    plane = int(np.prod(shape[1:]))
    slabbed, calls = _cells(cfg, LocalDomain(shape), 2 * plane, monkeypatch)
    assert len(calls) == -(-shape[0] // 2) + planar  # each slab once, for every field together
    assert all(stop - start <= 2 for (start, stop), *_ in calls), calls
    mesh = MeshDomain(shape, (2, 2, 1))
    meshed, calls = _cells(cfg, mesh, plane // 4, monkeypatch)  # one plane of a block per call
    assert all(stop - start == 1 for (start, stop), *_ in calls), calls
    for name, ref in whole.items():
        for other in (slabbed, meshed):
            if ref is None:
                assert other[name] is None, name
            elif name not in ("box_planes", "planar_q"):
                assert np.array_equal(other[name], ref), name
    if planar:
        # the planes hold the geometry's inflow profile, which it gives at the inlet and as the layer's target
        g = cfg.setup.geometry(tuple(slice(0, n) for n in shape))
        vel, sponge = np.asarray(g[1], np.float32), np.asarray(g[5])
        assert np.any(vel != 0) and np.any(sponge > 0)
        assert np.array_equal(whole["velocity"][:, 0], vel[:, 0])
        layer = np.broadcast_to(sponge > 0, vel.shape[1:])
        assert np.array_equal(np.broadcast_to(whole["velocity"], vel.shape)[:, layer], vel[:, layer])
    if whole["qlink"] is not None:
        # the Bouzidi fractions are kept for a box of planes along x and the far walls' plane: every fraction of
        # the geometry's, the box in fewer planes than the lattice's (those that differ from the far walls')
        full = np.asarray(cfg.setup.geometry(tuple(slice(0, n) for n in shape))[3])
        assert np.any(full != 0) and np.array_equal(whole["qlink"], full)
        assert all(other["planar_q"] for other in (whole, slabbed, meshed))
        held = np.flatnonzero(np.any(full != full[:, :1], axis=(0, 2, 3)))
        assert whole["box_planes"] == held[-1] - held[0] + 1 < shape[0], (whole["box_planes"], shape)


def test_only_the_fields_a_boundary_reads_are_built(monkeypatch):
    # walls alone (the duct): kinds and link bits; no velocities or densities (12 + 4 B/cell before)
    duct = resolve("duct", {"n": 6})
    cells, _ = _cells(duct, LocalDomain(duct.setup.shape), 1 << 20, monkeypatch)
    assert cells["kind"] is not None and cells["links"] is not None
    assert all(cells[k] is None for k in ("moving", "velocity", "rho", "qlink", "body", "sponge")), cells.keys()
    # a pressure outlet reads densities, an inlet velocities
    cfg = resolve("channel_flow", dict(n=4, length=2.75, height=2, ref_length=1, re=10, obstacles=""))
    cells, _ = _cells(cfg, LocalDomain(cfg.setup.shape), 1 << 20, monkeypatch)
    assert cells["velocity"] is not None and cells["rho"] is not None


@pytest.mark.parametrize("mesh,off_grid", [
    pytest.param((2, 2, 1), True, id="mesh2x2x1-far-walls-off-grid"),
    pytest.param((2, 2, 1), False, id="mesh2x2x1-walls-on-grid"),
    pytest.param(None, False, id="one-device"),
])
def test_steps_with_compact_static_data_equal_those_with_every_cells(mesh, off_grid):
    """The Bouzidi fractions kept for each block's box of planes (stepper.Cells.qlink, qbox) and, where the
    channel's far walls lie off the grid, one plane per block for those of every plane outside the box (qplane),
    and the inflow velocity and outlet density kept as one plane per block (Features.x_invariant) step as the
    values of every cell do (a box that is the whole block; the planes broadcast to every cell, with a model that
    reads them per cell): the whole-array form (the box alone is interpolated where no qplane), the A-B and
    in-place slab forms (each slab's window of the box, 3-plane slabs), and the forces (whole and in slabs). A box
    one plane off, a slab's window misplaced or a plane read at the wrong cells changes the result."""
    import dataclasses

    from distlbm.driver.loop import build_model

    # 24 x 16 x 8 cells (off the grid: 24 x 18 x 11, the far walls at 16.4 and 8.8 cells); on the mesh the sphere
    # (x = 9.2 .. 14 cells) crosses the faces between the blocks; an absorbing layer over the last 4 planes (its
    # target: the inflow profile)
    cfg = resolve("channel_flow", dict(n=8, length=2.875, height=2.05 if off_grid else 2, width=1.1 if off_grid else 1,
                                       ref_length=1, re=10, lattice="D3Q19", obstacles="sphere(1.45, 0.9, 0.5, 0.3)",
                                       sponge=0.5, sponge_strength=0.5))
    shape = cfg.setup.shape
    domain = MeshDomain(shape, mesh) if mesh else LocalDomain(shape)
    model = build_model(cfg)
    assert model.features.x_invariant and model.features.sponge
    cells, _ = stepper.assemble_cells(model, cfg.setup.geometry, domain)
    nx = shape[0] // (mesh[0] if mesh else 1)
    assert cells.qlink.shape[1] // (mesh[0] if mesh else 1) < nx  # a box smaller than the blocks
    assert cells.velocity.shape[1] == cells.rho.shape[0] == (mesh[0] if mesh else 1)  # one plane per block
    assert (cells.qplane is not None) == off_grid
    planes = () if cells.qplane is None else (cells.qplane,)
    full = jax.jit(domain.map(lambda exchange: lambda box, first, vel, rho, *plane: (
        bc.wall_fraction_window(box, first, 0, nx, *plane), jax.numpy.zeros_like(first),
        jax.numpy.broadcast_to(vel, vel.shape[:1] + (nx,) + vel.shape[2:]),
        jax.numpy.broadcast_to(rho, (nx,) + rho.shape[1:]))))(
        cells.qlink, cells.qbox, cells.velocity, cells.rho, *planes)
    assert np.array_equal(np.asarray(full[0]), np.asarray(cfg.setup.geometry(tuple(slice(0, n) for n in shape))[3]))
    every = cells._replace(qlink=full[0], qbox=full[1], velocity=full[2], rho=full[3], qplane=None)
    per_cell = dataclasses.replace(model, features=dataclasses.replace(model.features, x_invariant=False))
    rng = np.random.default_rng(3)
    f0 = domain.commit(jax.numpy.asarray(rng.normal(scale=1e-2, size=(model.lattice.q,) + shape), jax.numpy.float32))
    per_x = model.lattice.q * int(np.prod(shape[1:])) * 4 // (int(np.prod(mesh)) // mesh[0] if mesh else 1)
    whole = dict(whole_bytes=1 << 40)

    def steps(m, c, kw):
        def factory(exchange):
            step = stepper.make_step(m, exchange, path="xla", slab_bytes=3 * per_x, **kw)
            return lambda f, c: jax.lax.fori_loop(0, 3, lambda i, g: step(g, c, i), f)
        return np.asarray(jax.jit(domain.map(factory))(f0, c))

    def forces(m, c, kw):
        return bc.force_totals(domain.reduce_blocks(jax.jit(domain.map(lambda exchange: stepper.make_forces(
            m, exchange, whole_bytes=kw["whole_bytes"], slab_bytes=3 * per_x)))(f0, c, None)))

    # every cell's values through the whole-array form once: the forms are the same bits (tests/parallel/
    # test_inplace.py, test_slab_forces.py), so each form of the compact data is held to that one reference (before,
    # each form of it against the same form of every cell's values: 10 compiled programs, now 7)
    ref, ref_forces = steps(per_cell, every, whole), forces(per_cell, every, whole)
    assert np.isfinite(ref).all() and np.abs(ref_forces).max() > 0
    for form, kw in (("whole", whole), ("ab", dict(whole_bytes=0, inplace=False)),
                     ("in place", dict(whole_bytes=0, inplace=True))):
        assert np.array_equal(steps(model, cells, kw), ref), form
        if form != "in place":  # the slab forces do not stream in place (stepper.slab_forces): the A-B form's again
            assert np.array_equal(forces(model, cells, kw), ref_forces), form


@pytest.mark.parametrize("case,params,mesh", [
    ("sphere", dict(n=8), None),
    # off-grid far walls (45.1 cells): their fractions are the plane outside the box
    ("schaefer_turek_3d1z", dict(n=11), (2, 1, 1)),
    ("schaefer_turek_2d1", dict(n=20), (3, 2)),
    # a circle and a box (2D); an STL body (its bounding box)
    ("channel_flow", dict(obstacles="circle(0.5,0.2,0.05); box(1,0.1,1.2,0.3)", length=2.2, height=0.41, u_mean=0.2,
                          nu=1e-3, n=20), None),
    pytest.param("channel_flow", dict(lattice="D3Q19", obstacles="stl(examples/sphere.stl, 0.1, 0.5, 0.2, 0.2)",
                                      length=1.2, n=10), None,
                 marks=pytest.mark.skipif(importlib.util.find_spec("stl") is None, reason="numpy-stl absent")),
])
def test_the_memory_estimate_bounds_the_static_data_kept(case, params, mesh, monkeypatch):
    """The case bounds the planes along x that can hold an obstacle's interpolated link (Setup.fraction_planes,
    from the bodies' bounding boxes), and `memory_estimate` counts the Bouzidi fractions for that box and the
    plane outside it instead of on every cell: the box the set-up keeps lies within those planes, and the
    estimated static data hold what the run keeps (stepper.Cells), within a few planes of fractions."""
    from distlbm.memory import memory_estimate

    monkeypatch.chdir(Path(__file__).resolve().parents[2])  # examples/sphere.stl
    cfg = resolve(case, params)
    s = cfg.setup
    model = build_model(cfg)
    assert model.features.bouzidi and s.fraction_planes is not None
    first, last = s.fraction_planes
    domain = MeshDomain(s.shape, mesh) if mesh else LocalDomain(s.shape)
    cells, _ = stepper.assemble_cells(model, s.geometry, domain)
    full = np.asarray(s.geometry(tuple(slice(0, n) for n in s.shape))[3])
    outside = 0 if cells.qplane is None else full[:, :1]
    assert (cells.qplane is not None) == (case == "schaefer_turek_3d1z")
    held = np.flatnonzero(np.any(full != outside, axis=tuple(a for a in range(full.ndim) if a != 1)))
    assert held.size and first <= held[0] and held[-1] <= last, (held[0], held[-1], first, last)
    kept = sum(int(x.nbytes) for x in cells if x is not None)
    blocks = int(np.prod(mesh)) if mesh else 1
    block = tuple(n // m for n, m in zip(s.shape, mesh or (1,) * len(s.shape)))
    est = blocks * memory_estimate(model.lattice, block, model.dtype, None, model.features,
                                   fraction_planes=last - first + 1)["flags_bytes"]
    # one plane of fractions in every block (each block's box has as many planes)
    plane = model.lattice.q * int(np.prod(s.shape[1:])) * (mesh[0] if mesh else 1)
    every = blocks * memory_estimate(model.lattice, block, model.dtype, None, model.features)["flags_bytes"]
    assert kept <= est <= kept + 8 * plane < every, (kept, est, every)
