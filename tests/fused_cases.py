"""The configurations on which tests/test_fused.py compares the fused Pallas step with the XLA step.

CASES: random deviations and cell kinds on small periodic lattices; SIM_CASES: the cells of built-in cases
(obstacle channels with Bouzidi links, inlets, outlets, outflow, the absorbing layer and a start-up ramp;
a Smagorinsky Taylor-Green vortex), a few steps into their run.

Also a worker: `python tests/fused_cases.py NAME...` runs the named cases (all: every case; NAME@mesh: a
SIM_CASES case split over its mesh, which needs 8 forced CPU devices) in a fresh interpreter and prints one
JSON line {name: {"max_abs": ..., "equal": ...}} (the bitwise run uses it with XLA:CPU's FMA contraction
off, see test_fused.py).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

STEPS = 4

# name: lattice, collision, force, walls ('' | 'walls' | 'moving'), storage, incompressible, shape, block
CASES = {
    "d2q9-bgk-force-moving": ("D2Q9", "bgk", (1e-5, -2e-5), "moving", "float32", False, (16, 8), None),
    "d2q9-trt-force-moving": ("D2Q9", "trt", (1e-5, -2e-5), "moving", "float32", False, (16, 8), None),
    "d2q9-reg-force-moving": ("D2Q9", "regularized", (1e-5, -2e-5), "moving", "float32", False, (16, 8), None),
    "d3q19-bgk-force-moving": ("D3Q19", "bgk", (1e-5, 2e-5, -1e-5), "moving", "float32", False, (8, 8, 8), None),
    "d3q19-trt-force-moving": ("D3Q19", "trt", (1e-5, 2e-5, -1e-5), "moving", "float32", False, (8, 8, 8), None),
    "d3q19-reg-force-moving": ("D3Q19", "regularized", (1e-5, 2e-5, -1e-5), "moving", "float32", False, (8, 8, 8),
                               None),
    "d3q27-bgk-force-moving": ("D3Q27", "bgk", (1e-5, 2e-5, -1e-5), "moving", "float32", False, (8, 8, 8), None),
    "d3q27-trt-force-moving": ("D3Q27", "trt", (1e-5, 2e-5, -1e-5), "moving", "float32", False, (8, 8, 8), None),
    "d3q27-reg-force-moving": ("D3Q27", "regularized", (1e-5, 2e-5, -1e-5), "moving", "float32", False, (8, 8, 8),
                               None),
    "d3q19-bgk-periodic": ("D3Q19", "bgk", None, "", "float32", False, (8, 8, 8), None),
    "d3q19-trt-walls-f16": ("D3Q19", "trt", None, "walls", "float16", False, (8, 8, 8), None),
    "d3q19-bgk-force-moving-bf16": ("D3Q19", "bgk", (1e-5, 0.0, 0.0), "moving", "bfloat16", False, (8, 8, 8), None),
    "d2q9-reg-walls-f16": ("D2Q9", "regularized", (0.0, 1e-5), "walls", "float16", False, (16, 8), None),
    "d3q19-trt-force-moving-inc": ("D3Q19", "trt", (1e-5, 2e-5, -1e-5), "moving", "float32", True, (8, 8, 8), None),
    "d2q9-bgk-moving-inc": ("D2Q9", "bgk", None, "moving", "float32", True, (16, 8), None),
    "d3q27-bgk-force-moving-bf16": ("D3Q27", "bgk", (0.0, 1e-5, 0.0), "moving", "bfloat16", False, (8, 8, 8), None),
    # lattices that the tiles do not divide (masked stores), several programs per axis
    "d3q19-trt-moving-tiles": ("D3Q19", "trt", (1e-5, 0.0, 0.0), "moving", "float32", True, (6, 10, 12), (2, 4, 8)),
    "d2q9-bgk-force-tiles": ("D2Q9", "bgk", (1e-5, 1e-5), "walls", "float16", False, (12, 10), (1, 4, 4)),
    # Smagorinsky with TRT: its omega_- reads 1 / omega (a barrier keeps XLA from simplifying it to tau)
    "d3q19-trt-smagorinsky-force-walls": ("D3Q19", "trt+smagorinsky", (1e-5, 0.0, 0.0), "walls", "float32", False,
                                          (8, 8, 8), None),
    # fixed-velocity and fixed-pressure cells among walls, inflow ramped over the first steps
    "d2q9-trt-dirichlet-ramp": ("D2Q9", "trt", None, "dirichlet", "float32", False, (16, 8), None),
    "d3q19-bgk-dirichlet-f16": ("D3Q19", "bgk", (1e-5, 0.0, 0.0), "dirichlet", "float16", False, (8, 8, 8), None),
}

MESH = "@mesh"  # a SIM_CASES name + MESH: the fused kernel on that case's mesh against the XLA step on one device
_CHANNEL_2D = dict(n=10, length=0.59, height=0.3, obstacles="circle(0.29, 0.15, 0.05)", t_end=0.1)  # 60 x 32
_CHANNEL_3D = dict(lattice="D3Q19", n=6, length=0.55, height=0.205, width=0.195, ref_length=0.1,
                   obstacles="cylinder(0.12, 0.1, 0.04); sphere(0.3, 0.1, 0.1, 0.05)", t_end=0.05)
# name: (case, parameters, mesh for the within-Pallas comparison): the cells of built-in cases
SIM_CASES = {
    # Bouzidi links, velocity inlet, pressure outlet, absorbing layer, start-up ramp (BGK, float32)
    "channel2d-bouzidi-sponge-ramp": ("channel_flow", dict(_CHANNEL_2D, sponge=0.15, ramp=0.2), (2, 2)),
    # convective outflow (TRT)
    "channel2d-convective-trt": ("channel_flow", dict(_CHANNEL_2D, outlet="convective", collision="trt"), (2, 1)),
    # zero-gradient outflow, Smagorinsky, float16 storage
    "channel2d-outflow-smagorinsky-f16": ("channel_flow", dict(_CHANNEL_2D, outlet="zero_gradient", smagorinsky=0.1,
                                                               dtype="float16"), (1, 2)),
    # D3Q19 cylinder wall to wall and a sphere, off-grid walls, pressure outlet, layer (regularized)
    "channel3d-bouzidi-sponge-reg": ("channel_flow", dict(_CHANNEL_3D, sponge=0.07, collision="regularized"),
                                     (2, 1, 2)),
    # periodic, Smagorinsky with TRT
    "tgv3d-smagorinsky-trt": ("taylor_green3d", dict(n=12, smagorinsky=0.1, collision="trt"), (1, 2, 2)),
}


def build(name, dtype_override=None):
    """(model, f0 [Q, ...] storage dtype, kind, velocity, block) of a case: random deviations of size 1e-2,
    ~12 % wall cells of which a third move."""
    import jax.numpy as jnp

    from distlbm.lattice import get_lattice
    from distlbm.physics import boundaries as bc
    from distlbm.physics.collision import Collision
    from distlbm.stepper import Model

    lat_name, coll, force, walls, dtype, inc, shape, block = CASES[name]
    lat = get_lattice(lat_name)
    dirichlet = walls == "dirichlet"
    feat = bc.Features(walls=bool(walls), moving=walls == "moving", velocity=dirichlet, pressure=dirichlet,
                       ramp_steps=3 if dirichlet else 0)
    kind_, _, smag = coll.partition("+")  # "trt+smagorinsky": with the subgrid model
    model = Model(lat, Collision(kind_, 0.8, smagorinsky=0.1 if smag else 0.0), force=force, features=feat,
                  dtype=dtype_override or dtype, incompressible=inc)
    rng = np.random.default_rng(sum(map(ord, name)))
    f0 = jnp.asarray(rng.normal(scale=1e-2, size=(lat.q,) + shape).astype(np.float32)).astype(model.dtype)
    r = rng.random(shape)
    kind = np.where(r < 0.08, bc.WALL, bc.FLUID)
    if walls == "moving":
        kind = np.where(r > 0.96, bc.MOVING_WALL, kind)
    kind = kind.astype(np.uint8)
    vel = np.zeros((lat.d,) + shape, np.float32)
    vel[0] = np.where(kind == bc.MOVING_WALL, 0.05, 0.0)
    vel[-1] = np.where(kind == bc.MOVING_WALL, -0.02, 0.0)
    if dirichlet:
        kind = np.where(r > 0.95, bc.VELOCITY, np.where((r > 0.90) & (r <= 0.95), bc.PRESSURE, kind)).astype(np.uint8)
        vel = np.where(kind == bc.VELOCITY, rng.normal(scale=0.03, size=vel.shape), 0.0).astype(np.float32)
        rho = np.where(kind == bc.PRESSURE, 1.0 + rng.normal(scale=0.01, size=shape), 1.0).astype(np.float32)
        return model, f0, kind, (vel, rho), block
    return model, f0, kind, vel, block


def host_cells(model, kind, vel):
    """stepper.Cells of a periodic lattice computed on the host (NumPy), as physics.boundaries.link_data
    computes them: bit i of links (moving) where x - c_i is a wall (moving wall); velocity: the wall's."""
    from distlbm.physics import boundaries as bc
    from distlbm.stepper import Cells

    lat = model.lattice
    if not model.features.walls:
        return None
    rho = None
    if isinstance(vel, tuple):  # fixed-velocity and fixed-pressure cells: (velocity, density)
        vel, rho = vel
    axes = tuple(range(lat.d))

    def pulled(a, i):  # a(x - c_i), periodic
        return np.roll(a, tuple(int(x) for x in lat.c[i]), axis=axes)

    wall = (kind == bc.WALL) | (kind == bc.MOVING_WALL)
    mov = kind == bc.MOVING_WALL
    links = np.zeros(kind.shape, np.uint32)
    moving = np.zeros(kind.shape, np.uint32)
    for i in range(lat.q):
        links |= np.where(pulled(wall, i), np.uint32(1 << i), np.uint32(0))
        moving |= np.where(pulled(mov, i), np.uint32(1 << i), np.uint32(0))
    wall_u = vel.copy()
    for a in range(lat.d):
        pick = wall_u[a]
        for i in range(1, lat.q):
            pick = np.where(pulled(mov, i) & ~wall, pulled(vel[a], i), pick)
        wall_u[a] = pick
    if rho is not None:
        return Cells(kind=kind, links=links, velocity=vel, rho=rho)
    if not model.features.moving:
        return Cells(kind=kind, links=links)
    return Cells(kind=kind, links=links, moving=moving, velocity=wall_u)


def run_pair(name, steps=STEPS, domain=None, paths=("xla", "fused")):
    """Populations (NumPy float32) after `steps` steps of case `name`, one array per path in `paths`
    ('xla': stepper.make_step; 'fused': the Pallas kernel in interpret mode)."""
    import jax

    from distlbm.parallel.domain import LocalDomain
    from distlbm.physics.fused import make_fused_step
    from distlbm.stepper import Cells, make_step

    model, f0, kind, vel, block = build(name)
    dom = domain or LocalDomain(kind.shape)
    hc = host_cells(model, kind, vel)
    cells = Cells() if hc is None else Cells(*(None if x is None else dom.commit(jax.numpy.asarray(x)) for x in hc))
    makers = {"xla": make_step, "fused": lambda m, e: make_fused_step(m, e, block=block, interpret=True)}
    out = []
    for p in paths:
        mk = makers[p]
        def factory(exchange, mk=mk):
            step = mk(model, exchange)
            return lambda f, c: jax.lax.fori_loop(0, steps, lambda i, g: step(g, c, i), f)

        adv = jax.jit(dom.map(factory))
        out.append(np.asarray(adv(dom.commit(f0), cells)).astype(np.float32))
    return out


def run_sim_pair(name, steps=STEPS, mesh=None, paths=("xla", "fused"), warm=6):
    """As run_pair for SIM_CASES[name]: the case's own cells and state after `warm` XLA steps of its run (its
    flow set up, its ramp under way), then `steps` steps of each path; on a mesh of that shape if given."""
    import jax

    from distlbm.physics.fused import make_fused_step
    from distlbm.stepper import make_step
    from helpers import make_sim

    case, params, _ = SIM_CASES[name]
    domain = None
    if mesh is not None:  # the lattice's shape from its configuration (a Simulation built for it cost ~1 s)
        from distlbm.config import resolve
        from distlbm.parallel.mesh import MeshDomain

        domain = MeshDomain(resolve(case, params).setup.shape, mesh)
    sim = make_sim(case, domain=domain, **params)
    sim.advance(warm)  # the steps alone: run()'s checks and samples compiled programs that nothing here reads
    model = sim.model
    makers = {"xla": make_step, "fused": lambda m, e: make_fused_step(m, e, interpret=True)}
    out = []
    for p in paths:
        def factory(exchange, mk=makers[p]):
            step = mk(model, exchange)
            return lambda f, c, t: jax.lax.fori_loop(0, steps, lambda i, g: step(g, c, t + i), f)

        adv = jax.jit(sim.domain.map(factory))
        out.append(np.asarray(adv(sim.state.f, sim.cells, sim.state.step)).astype(np.float32))
    return out


def main(names):
    res = {}
    for name in names:
        if name.endswith(MESH):  # the XLA step on one device against the fused kernel on the case's mesh
            base = name[: -len(MESH)]
            (a,) = run_sim_pair(base, paths=("xla",))
            (b,) = run_sim_pair(base, mesh=SIM_CASES[base][2], paths=("fused",))
        else:
            a, b = run_sim_pair(name) if name in SIM_CASES else run_pair(name)
        res[name] = {"max_abs": float(np.abs(a - b).max()), "equal": bool(np.array_equal(a, b)),
                     "finite": bool(np.isfinite(a).all())}
    print(json.dumps(res))


if __name__ == "__main__":
    main(sys.argv[1:] if sys.argv[1:] != ["all"] else list(CASES) + list(SIM_CASES))
