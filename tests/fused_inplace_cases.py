"""The configurations on which tests/unit/test_fused_inplace.py compares the fused kernel streaming in place
(physics/fused_inplace.py, the AA pattern) with the A-B fused kernel and the XLA step.

Also a worker: `python tests/fused_inplace_cases.py NAME...` (all: every case) runs the named cases in a
fresh interpreter (8 forced CPU devices for the meshes) and prints one JSON line
{name: {"steps": {n: {reference: {"equal": ..., "max_abs": ...}}}, "finite": ...}}.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

# name: (fused_cases-style spec, mesh or None, tile or None, references: 'xla' (stepper.make_step), 'ab' (the
# A-B fused kernel); test_fused.py holds those two bit for bit equal)
# spec: lattice, collision, force, walls, storage, incompressible, shape
CASES = {
    # D2Q9, regularized, force, moving walls, float16; a 2x2 mesh (edges and corners) and 2x2 tiles of 8x4 blocks
    "d2q9-reg-force-moving-f16-mesh2x2": (("D2Q9", "regularized", (1e-5, -2e-5), "moving", "float16", False, (16, 8)),
                                          (2, 2), (1, 2, 2), ("xla",)),
    # D3Q19, TRT, force, moving walls, incompressible, float32, one device, 8 tiles
    "d3q19-trt-force-moving-inc": (("D3Q19", "trt", (1e-5, 2e-5, -1e-5), "moving", "float32", True, (8, 8, 8)),
                                   None, (2, 4, 4), ("xla",)),
    # D3Q27, BGK, force, walls, bfloat16; a 2x2x1 mesh (two split axes, one wrapping)
    "d3q27-bgk-force-walls-bf16-mesh2x2x1": (("D3Q27", "bgk", (0.0, 1e-5, 0.0), "walls", "bfloat16", False, (8, 8, 4)),
                                             (2, 2, 1), (2, 2, 4), ("ab",)),
    # D3Q19, TRT with Smagorinsky, force, walls, float32; x split (2 x 1 x 1)
    "d3q19-trt-smagorinsky-walls-mesh2x1x1": (("D3Q19", "trt+smagorinsky", (1e-5, 0.0, 0.0), "walls", "float32",
                                               False, (8, 8, 8)), (2, 1, 1), (2, 4, 4), ("xla",)),
    # slow (not in the unit test): every axis split, D3Q27 (3D corners through three exchanges)
    "d3q27-bgk-force-moving-mesh2x2x2": (("D3Q27", "bgk", (1e-5, 2e-5, -1e-5), "moving", "float32", False, (8, 8, 8)),
                                         (2, 2, 2), (2, 2, 2), ("ab",)),
    "d3q19-bgk-periodic-mesh2x2x2": (("D3Q19", "bgk", None, "", "float32", False, (8, 8, 8)), (2, 2, 2), None, ("xla", "ab")),
}
STEPS = (2, 3)  # an even and an odd number: pairs only, and pairs + the odd step's canonical layout


def build(name):
    """(model, f0, kind, vel) of a case: random deviations of size 1e-2, ~12 % wall cells, a third moving."""
    import fused_cases

    spec = CASES[name][0]
    fused_cases.CASES[name] = spec + (None,)
    try:
        return fused_cases.build(name)[:4]
    finally:
        del fused_cases.CASES[name]


def run(name, steps=STEPS):
    """{n: {path: populations (NumPy float32)}} after n steps of case `name`, for 'aa' (in place) and the
    case's references."""
    import jax
    import jax.numpy as jnp

    import fused_cases
    from distlbm.parallel.domain import LocalDomain
    from distlbm.physics.fused import make_fused_step
    from distlbm.physics.fused_inplace import make_fused_inplace
    from distlbm.stepper import Cells, State, make_advance, make_inplace_advance, make_step

    _, mesh, tile, refs = CASES[name]
    model, f0, kind, vel = build(name)
    if mesh:
        from distlbm.parallel.mesh import MeshDomain

        dom = MeshDomain(kind.shape, mesh)
    else:
        dom = LocalDomain(kind.shape)
    hc = fused_cases.host_cells(model, kind, vel)
    cells = Cells() if hc is None else Cells(*(None if x is None else dom.commit(jnp.asarray(x)) for x in hc))
    aa = make_inplace_advance(*(dom.map(lambda ex, i=i: make_fused_inplace(model, ex, block=tile, interpret=True)[i])
                                for i in range(3)))
    makers = {"aa": lambda: aa,
              "ab": lambda: make_advance(dom.map(lambda ex: make_fused_step(model, ex, interpret=True))),
              "xla": lambda: make_advance(dom.map(lambda ex: make_step(model, ex, path="xla")))}
    advances = {p: makers[p]() for p in ("aa",) + tuple(refs)}
    out = {}
    for n in steps:
        out[n] = {}
        for p, adv in advances.items():
            st = adv(State(dom.commit(jnp.array(f0, copy=True)), jnp.int32(0)), cells, jnp.int32(n))
            out[n][p] = np.asarray(st.f).astype(np.float32)
    return out


def main(names):
    res = {}
    for name in names:
        got = run(name)
        steps = {}
        for n, pops in got.items():
            aa = pops["aa"]
            steps[n] = {p: {"equal": bool(np.array_equal(aa, v)), "max_abs": float(np.abs(aa - v).max())}
                        for p, v in pops.items() if p != "aa"}
        res[name] = {"steps": steps, "finite": all(bool(np.isfinite(v["aa"]).all()) for v in got.values())}
    print(json.dumps(res))


if __name__ == "__main__":
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    main(sys.argv[1:] if sys.argv[1:] != ["all"] else list(CASES))
