"""The configurations on which tests/test_fused.py compares the fused Pallas step with the XLA step.

Also a worker: `python tests/fused_cases.py NAME...` runs the named cases (all: every case) in a fresh
interpreter and prints one JSON line {name: {"max_abs": ..., "equal": ...}} (the bitwise run uses it
with XLA:CPU's FMA contraction off, see test_fused.py).
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
    feat = bc.Features(walls=bool(walls), moving=walls == "moving")
    model = Model(lat, Collision(coll, 0.8), force=force, features=feat, dtype=dtype_override or dtype,
                  incompressible=inc)
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
    return model, f0, kind, vel, block


def host_cells(model, kind, vel):
    """stepper.Cells of a periodic lattice computed on the host (NumPy), as physics.boundaries.link_data
    computes them: bit i of links (moving) where x - c_i is a wall (moving wall); velocity: the wall's."""
    from distlbm.physics import boundaries as bc
    from distlbm.stepper import Cells

    lat = model.lattice
    if not model.features.walls:
        return None
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
            return lambda f, c: jax.lax.fori_loop(0, steps, lambda i, g: step(g, c), f)

        adv = jax.jit(dom.map(factory))
        out.append(np.asarray(adv(dom.commit(f0), cells)).astype(np.float32))
    return out


def main(names):
    res = {}
    for name in names:
        a, b = run_pair(name)
        res[name] = {"max_abs": float(np.abs(a - b).max()), "equal": bool(np.array_equal(a, b)),
                     "finite": bool(np.isfinite(a).all())}
    print(json.dumps(res))


if __name__ == "__main__":
    main(sys.argv[1:] if sys.argv[1:] != ["all"] else list(CASES))
