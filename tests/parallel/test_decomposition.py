"""Distributed equals serial, bit for bit: every case on every mesh gives the single-device populations
(nothing in a step reduces across cells). Runs on 8 forced CPU devices (see conftest.py)."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from helpers import make_sim

MESHES_3D = [(1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 2, 1), (2, 2, 2), (8, 1, 1), (1, 2, 4)]
MESHES_2D = [(1, 1), (2, 1), (1, 2), (2, 2), (4, 2), (8, 1), (1, 8)]
# every case x collision runs on a slab, a pencil and a block; the full mesh list runs for a few
SHORT_3D = [(2, 1, 1), (2, 2, 1), (1, 2, 4)]
SHORT_2D = [(2, 1), (2, 2), (1, 8)]
FULL = {("box", "D3Q19", "bgk"), ("cavity3d", None, "trt"), ("cavity2d", None, "bgk"), ("box", "D3Q27", "trt"),
        ("kolmogorov", None, "bgk")}

# small lattices whose sizes divide over every mesh above
CASES = [
    ("taylor_green2d", dict(n=16)),
    ("taylor_green3d", dict(n=16)),
    ("poiseuille", dict(n=6, nx=8)),
    ("poiseuille", dict(n=6, nx=8, lattice="D3Q19")),
    ("couette", dict(n=6, nx=8)),
    ("couette", dict(n=6, nx=8, lattice="D3Q19")),
    ("cavity2d", dict(n=14, u_lid=0.08)),
    ("cavity3d", dict(n=14, u_lid=0.08)),
    ("box", dict(n=16, lattice="D2Q9")),
    ("box", dict(n=16, lattice="D3Q19")),
    ("box", dict(n=8, lattice="D3Q27")),
    # a per-cell force field (Setup.force_field, stepper.Cells.force)
    ("kolmogorov", dict(n=16, nx=8)),
    ("kolmogorov", dict(n=16, nx=4, lattice="D3Q19")),
]
STEPS = 20


def _populations(sim):
    return np.asarray(jax.device_get(sim.state.f))


@pytest.mark.parametrize("collision", ["bgk", "trt"])
@pytest.mark.parametrize("case,params", CASES, ids=lambda x: x if isinstance(x, str) else
                         "-".join(f"{k}{v}" for k, v in x.items()))
def test_every_mesh_is_bitwise_identical(case, params, collision):
    from distlbm.parallel.mesh import MeshDomain

    ref = make_sim(case, collision=collision, **params)
    ref.advance(STEPS)
    f_ref = _populations(ref)
    assert np.all(np.isfinite(f_ref))
    d = ref.model.lattice.d
    full = (case, params.get("lattice"), collision) in FULL
    meshes = (MESHES_3D if full else SHORT_3D) if d == 3 else (MESHES_2D if full else SHORT_2D)
    shape = ref.setup.shape
    for mesh in meshes:
        if any(s % m for s, m in zip(shape, mesh)):
            pytest.fail(f"test lattice {shape} does not divide over mesh {mesh}")
        sim = make_sim(case, domain=MeshDomain(shape, mesh), collision=collision, **params)
        sim.advance(STEPS)
        f = _populations(sim)
        assert f.dtype == f_ref.dtype
        assert np.array_equal(f, f_ref), f"{case} {collision} mesh {mesh}: max diff {np.abs(f - f_ref).max()}"
        # global diagnostics reduce with a collective and agree to round-off
        dr, dm = ref.diagnostics(), sim.diagnostics()
        assert dm["mass"] == pytest.approx(dr["mass"], rel=1e-5)
        assert dm["kinetic_energy"] == pytest.approx(dr["kinetic_energy"], rel=1e-5)
        # where the flow is most extreme (a blow-up names them): the same cells on every mesh, or cells of the same
        # extreme to rounding: the populations are the same bits, but the speed and density derived from them are
        # computed by each mesh's own compiled program, and a symmetric flow's mirror cells (the box's vortices:
        # (0, 3) and (4, 0) on D2Q9 with TRT, mesh 1x8) tie within an ulp either way (exhaustive tier, stop 51)
        if [dm[k] for k in ("u_max_at", "rho_extreme_at")] != [dr[k] for k in ("u_max_at", "rho_extreme_at")]:
            rho, u = ref.fields()
            speed, dev = np.sqrt(np.sum(np.square(u, dtype=np.float64), axis=0)), np.abs(rho - 1.0)
            for field, k in ((speed, "u_max_at"), (dev, "rho_extreme_at")):
                a, b = field[tuple(dm[k])], field[tuple(dr[k])]
                assert abs(a - b) <= 1e-5 * np.max(field) + 1e-12, (mesh, k, dm[k], dr[k], a, b)
        assert dm["rho_extreme"] == pytest.approx(dr["rho_extreme"], abs=1e-6), (mesh, dm, dr)


def test_the_peaks_cells_are_the_whole_blocks_on_any_slabs():
    """The cells of the largest speed and of the density farthest from 1 (the first in C order of equal ones), and
    a non-finite density taken as the farthest, whether the block is read whole or slab by slab along x."""
    import jax.numpy as jnp

    from distlbm.lattice import get_lattice
    from distlbm.physics import diagnostics

    lat = get_lattice("D2Q9")

    compiled = {}

    def block_diagnostics(f, kind, lat, dtype, slab_planes):
        # compiled, as a run's diagnostics are (inside its program); op by op, each operation and slab loop compiled
        # and dispatched on its own, the test took twice the CPU time
        if slab_planes not in compiled:
            compiled[slab_planes] = jax.jit(lambda f, kind: diagnostics.block_diagnostics(
                f, kind, lat, dtype, slab_planes=slab_planes))
        return compiled[slab_planes](f, kind)

    f = np.zeros((9, 10, 4), np.float32)
    f[1, 7, 2] = 0.05  # u_x > 0 and rho 1.05 at (7, 2)
    f[1, 8, 1] = 0.05  # the same at (8, 1): a tie, later in C order
    f[0, 2, 3] = -0.1  # rho 0.9 at (2, 3): the farthest from 1
    kind = np.zeros((10, 4), np.uint8)
    for planes in (None, 3, 4, 10):
        d = block_diagnostics(jnp.asarray(f), jnp.asarray(kind), lat, jnp.float32, slab_planes=planes)
        got = {k: np.asarray(v).ravel().tolist() for k, v in d.items()}
        assert got["u_peak_at"] == [7, 2] and got["rho_ext_at"] == [2, 3], (planes, got)
        assert got["rho_ext"] == [pytest.approx(0.9)], (planes, got)
    f[0, 5, 0] = np.nan
    for planes in (None, 3):
        d = block_diagnostics(jnp.asarray(f), jnp.asarray(kind), lat, jnp.float32, slab_planes=planes)
        assert np.asarray(d["rho_ext_at"]).ravel().tolist() == [5, 0], planes
        assert np.asarray(d["u_peak_at"]).ravel().tolist() == [7, 2], planes  # the largest finite speed


def test_population_array_is_sharded_over_the_mesh():
    from distlbm.parallel.mesh import MeshDomain

    dom = MeshDomain((16, 16, 16), (2, 2, 2))
    sim = make_sim("box", domain=dom, n=16)
    f = sim.state.f
    assert len(f.sharding.device_set) == 8
    shard_shapes = {s.data.shape for s in f.addressable_shards}
    assert shard_shapes == {(19, 8, 8, 8)}
    kinds = {s.data.shape for s in make_sim("cavity3d", domain=MeshDomain((16,) * 3, (2, 2, 2)), n=14)
             .cells.kind.addressable_shards}
    assert kinds == {(8, 8, 8)}


def test_halo_exchange_sends_only_crossing_populations():
    """Per axis and direction, one ppermute carrying the 5 (of 19) populations that cross the face."""
    from distlbm.parallel.mesh import MeshDomain
    from distlbm.stepper import make_step

    dom = MeshDomain((16, 16, 16), (2, 2, 2))
    sim = make_sim("box", domain=dom, n=16)
    step = dom.map(lambda exchange: make_step(sim.model, exchange))
    text = jax.jit(step).lower(sim.state.f, sim.cells).as_text()
    permutes = [line for line in text.splitlines() if "collective_permute" in line and "=" in line]
    assert len(permutes) == 6, permutes  # 3 axes x 2 directions
    for line in permutes:
        assert "5," in line.split("collective_permute")[0] or "[5," in line, line


def test_indivisible_lattice_names_sizes_that_work():
    from distlbm.parallel.mesh import DecompositionError, MeshDomain

    with pytest.raises(DecompositionError, match=r"66 along x .* 4 devices.*64 or 68"):
        MeshDomain((66, 66), (4, 1))


@pytest.mark.parametrize("case,params,meshes", [
    ("box", dict(nx=8, ny=8, nz=32, lattice="D3Q19", smagorinsky=0.15, tau=0.51, u0=0.05),
     [(1, 1, 4), (1, 1, 2), (1, 1, 8)]),
    ("taylor_green3d", dict(n=16, smagorinsky=0.1, collision="trt"), [(1, 1, 2), (2, 1, 2)]),
    ("poiseuille", dict(n=6, nx=16, lattice="D3Q19", smagorinsky=0.1, collision="regularized"), [(1, 1, 2)]),
], ids=["box-bgk", "tgv-trt", "poiseuille-regularized-force"])
def test_smagorinsky_is_bitwise_on_blocks_eight_cells_deep(case, params, meshes):
    """|Pi|^2 was a sum of products: XLA:CPU contracted them into FMAs differently where a block is 8 cells along
    z (its vectorised loop without a remainder), and such meshes gave other bits than one device (1e-8 in 60
    steps; the 3rd digit of a Re 1600 Taylor-Green's peak-dissipation time)."""
    from distlbm.parallel.mesh import MeshDomain

    ref = make_sim(case, **params)
    ref.advance(60)
    f_ref = _populations(ref)
    for mesh in meshes:
        sim = make_sim(case, domain=MeshDomain(ref.setup.shape, mesh), **params)
        sim.advance(60)
        f = _populations(sim)
        assert np.array_equal(f, f_ref), f"mesh {mesh}: max diff {np.abs(f - f_ref).max()}"


def test_an_absorbing_layer_during_a_ramp_is_bitwise_on_meshes_that_split_y():
    """schaefer_turek_2d1's defaults (an absorbing layer, a start-up ramp): the layer's target equilibrium is the
    same along x, and XLA:CPU computed it before its loop over x on 42-wide blocks and in it on 84-wide ones; as
    g - s (g - geq), g - geq was contracted into an FMA only in the loop, and a 1x2 mesh differed from one device
    in the last bit of thousands of populations from step 3 on (physics.boundaries.sponge)."""
    from distlbm.parallel.mesh import MeshDomain

    params = dict(n=16, ramp=0.5)
    ref = make_sim("schaefer_turek_2d1", **params)
    ref.advance(6)
    f_ref = _populations(ref)
    assert ref.model.features.sponge and np.all(np.isfinite(f_ref))
    for mesh in [(1, 2), (1, 4)]:
        sim = make_sim("schaefer_turek_2d1", domain=MeshDomain(ref.setup.shape, mesh), **params)
        sim.advance(6)
        f = _populations(sim)
        assert np.array_equal(f, f_ref), f"mesh {mesh}: {(f != f_ref).sum()} differ, at most {np.abs(f - f_ref).max()}"


@pytest.mark.parametrize("params", [dict(collision="regularized"), dict(collision="bgk", smagorinsky=0.1),
                                    dict(collision="trt", dtype="float16")], ids=["regularized", "smagorinsky", "f16"])
def test_a_per_cell_force_field_is_bitwise_on_every_mesh_and_slab_form(params, monkeypatch):
    """The force field's own arithmetic in the regularized and Smagorinsky collisions (the products u_a F_b of each
    cell) and with 16-bit storage: one device, meshes 2x1 and 4x2, and the in-place and A-B slab forms (lowered
    DISTLBM_WHOLE_BYTES) give the same bits."""
    from distlbm.parallel.mesh import MeshDomain

    case = dict(n=16, nx=8, **params)
    ref = make_sim("kolmogorov", **case)
    assert ref.model.force_field and ref.cells.force is not None
    ref.advance(STEPS)
    f_ref = _populations(ref)
    assert np.all(np.isfinite(f_ref)) and np.any(f_ref != 0)
    for mesh in [(2, 1), (4, 2)]:
        sim = make_sim("kolmogorov", domain=MeshDomain(ref.setup.shape, mesh), **case)
        sim.advance(STEPS)
        assert np.array_equal(_populations(sim), f_ref), mesh
    for inplace in ("1", "0"):
        monkeypatch.setenv("DISTLBM_WHOLE_BYTES", "0")
        monkeypatch.setenv("DISTLBM_INPLACE", inplace)
        sim = make_sim("kolmogorov", **case)
        sim.advance(STEPS)
        assert np.array_equal(_populations(sim), f_ref), f"DISTLBM_INPLACE={inplace}"


def test_the_speeds_cell_from_two_blocks_is_the_whole_lattices_where_the_speeds_round_alike():
    """Two cells whose squared speeds differ by an ulp and whose speeds (the square roots) are the same float32, in
    two blocks: the cell named is the whole lattice's (its argmax of the squared speed), not the first in C order of
    the two: the blocks' key was the rounded speed, so that cavity3d at n = 14 named (9, 14, 4) on 2x2x2 and
    (9, 14, 11) on 4x2x1 (a chain of restarts on other meshes, same populations)."""
    import jax.numpy as jnp

    from distlbm.lattice import get_lattice
    from distlbm.parallel.domain import pick_peak
    from distlbm.physics import diagnostics
    from distlbm.physics.moments import deviation_moments

    lat = get_lattice("D2Q9")
    diag = jax.jit(lambda f: diagnostics.block_diagnostics(f, None, lat, jnp.float32))
    # cells of speeds u = (a, b) / (1 + a + b) from f_1 = a, f_3 = b (c = (1, 0), (0, 1)): their squared speeds as the run computes them
    # (its moments, then u_x^2 + u_y^2 in float32), and two that differ while their square roots agree
    ulps = np.arange(64, dtype=np.int32)  # a and b a few ulps apart: squared speeds an ulp or two apart
    a, b = np.meshgrid(np.array([0.025], np.float32).view(np.int32) + ulps,
                       np.array([0.02], np.float32).view(np.int32) + ulps)
    ab = np.stack([a.ravel(), b.ravel()]).view(np.float32)

    @jax.jit
    def squared_speeds(f):
        _, u = deviation_moments(list(f), lat)
        return u[0] * u[0] + u[1] * u[1]

    g = np.zeros((9, ab.shape[1], 1), np.float32)
    g[1, :, 0], g[3, :, 0] = ab
    sq = np.asarray(squared_speeds(jnp.asarray(g))).ravel()
    order = np.argsort(sq)
    pairs = [(order[k], order[k + 1]) for k in range(len(order) - 1)
             if sq[order[k]] < sq[order[k + 1]] and np.sqrt(sq[order[k]]) == np.sqrt(sq[order[k + 1]])]
    assert pairs, "no pair of squared speeds that round to one speed"
    lo, hi = pairs[0]
    f = np.zeros((9, 8, 1), np.float32)
    f[[1, 3], 1, 0] = ab[:, lo]  # the smaller squared speed, first in C order
    f[[1, 3], 6, 0] = ab[:, hi]  # the larger, in the second block
    whole = diag(jnp.asarray(f))
    cell = np.asarray(whole["u_peak_at"]).ravel().tolist()
    halves = [diag(jnp.asarray(f[:, :4])), diag(jnp.asarray(f[:, 4:]))]
    keys = [np.asarray(h["u_peak"]).ravel()[0] for h in halves]
    cells = [np.asarray(h["u_peak_at"]).ravel() + np.array([x0, 0]) for h, x0 in zip(halves, (0, 4))]
    _, picked, _ = pick_peak(keys, cells, np.zeros((2, 0)))
    assert cell == [6, 0], cell  # the whole block's argmax: the larger squared speed
    assert list(picked) == cell, (picked, cell, keys)
