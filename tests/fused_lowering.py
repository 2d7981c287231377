"""Lower the fused Pallas step for CUDA on a machine without a GPU (run in ./.venv-cuda, which has
jax-cuda13-plugin; see scripts/setup_cuda_lowering.sh): `JAX_PLATFORMS=cpu python tests/fused_lowering.py`.

For every covered configuration in LOWER, `jax.jit(step).trace(f, cells, t).lower(lowering_platforms=("cuda",))`
must succeed and its text must hold the Triton custom call (with the obstacle channels' features: Bouzidi
links, inlets, outlets, outflow, the absorbing layer, a ramp, Smagorinsky, fixed-velocity/pressure cells;
one more call per open face, aliased to the result); and
as NAME + INPLACE, for the configurations the in-place kernels cover (not AB_ONLY), the in-place advance
(physics/fused_inplace.py: stepper.make_inplace_advance over the push, local and unpush kernels, tiles
from `inplace_block`) must lower with Q/2 + 3 Triton calls (two push, one local, Q/2 unpush), each with
its population array aliased to its output (`output_operand_aliases`). Prints one JSON line
{name: {"ok": bool, "triton_calls": int, "error": str}}; exit status 0 when all passed.
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TRITON = "__gpu$xla.gpu.triton"
# the population array (operand 0) aliased to the first (or only) result
ALIAS = re.compile(r"output_operand_aliases = \[#stablehlo\.output_operand_alias<output_tuple_indices = \[0?\], "
                   r"operand_index = 0,")
INPLACE = "/in-place"

# name: lattice, collision, force, walls, storage, incompressible, local shape, block, split mesh axes
LOWER = {}
for _lat, _shape in (("D2Q9", (32, 16)), ("D3Q19", (16, 16, 16)), ("D3Q27", (16, 16, 16))):
    for _coll in ("bgk", "trt", "regularized"):
        _d = len(_shape)
        _force = tuple([1e-5] + [0.0] * (_d - 1))
        LOWER[f"{_lat}-{_coll}-force-moving-float32"] = (_lat, _coll, _force, "moving", "float32", False, _shape, None, ())
    for _dt in ("float16", "bfloat16"):
        LOWER[f"{_lat}-bgk-periodic-{_dt}"] = (_lat, "bgk", None, "", _dt, False, _shape, None, ())
LOWER["D3Q19-trt-walls-incompressible"] = ("D3Q19", "trt", None, "walls", "float32", True, (16, 16, 16), None, ())
LOWER["D3Q19-bgk-400-masked"] = ("D3Q19", "bgk", None, "", "float16", False, (40, 24, 20), (1, 4, 64), ())
LOWER["D3Q19-bgk-512-float32"] = ("D3Q19", "bgk", None, "", "float32", False, (512, 512, 512), None, ())  # > 4 GB: 64-bit offsets
LOWER["D3Q19-trt-moving-halo-xyz"] = ("D3Q19", "trt", (1e-5, 0.0, 0.0), "moving", "float32", False, (16, 16, 16), None,
                                      (0, 1, 2))
LOWER["D2Q9-bgk-halo-y"] = ("D2Q9", "bgk", None, "walls", "float16", False, (32, 16), None, (1,))

# the obstacle channels' features, which the A-B kernel covers and the in-place kernels leave to it:
# walls value -> Features keywords (and the cells they carry)
FEATURES = {
    "obstacle": dict(walls=True, bouzidi=True, inlets=((0, -1),), outlets=((0, 1),), sponge=True, ramp_steps=100,
                     bodies=1),
    # the inflow velocity and the far walls' fractions as one plane along x per block (Features.x_invariant), as
    # the channel cases keep them
    "outflow": dict(walls=True, bouzidi=True, inlets=((0, -1),), outflow=((0, 1),), convective=0.05,
                    x_invariant=True),
    "dirichlet": dict(walls=True, moving=True, velocity=True, pressure=True),
}
LOWER["D3Q19-trt-obstacle-smagorinsky-float32"] = ("D3Q19", "trt+smagorinsky", None, "obstacle", "float32", False,
                                                   (32, 16, 16), None, ())
LOWER["D3Q19-bgk-obstacle-halo-xy-float16"] = ("D3Q19", "bgk", None, "obstacle", "float16", False, (32, 16, 16), None,
                                               (0, 1))
LOWER["D2Q9-regularized-outflow-halo-x"] = ("D2Q9", "regularized", None, "outflow", "float32", False, (64, 32), None,
                                            (0,))
LOWER["D3Q27-bgk-dirichlet"] = ("D3Q27", "bgk", (1e-5, 0.0, 0.0), "dirichlet", "float32", False, (16, 16, 16), None, ())
LOWER["D3Q19-regularized-smagorinsky-walls"] = ("D3Q19", "regularized+smagorinsky", None, "walls", "float32", False,
                                                (16, 16, 16), None, (0,))
AB_ONLY = [name for name, spec in LOWER.items() if spec[3] in FEATURES]

ALL = list(LOWER) + [name + INPLACE for name in LOWER if name not in AB_ONLY]


def cuda_target():
    """The GPU the lowering targets, an H200 (sm_90), as an abstract device: jax 0.11 takes the Triton arch from the
    abstract mesh's abstract device, else from the default device's kind (jax/_src/pallas/triton/gpu_info.py), and
    with neither a GPU refuses ("No supported GPU devices found, please specify an abstract GPU device using
    AbstractDevice"); jax 0.10 fell back to sm_90 and lowers the same text under it. A jax without these classes:
    no context."""
    import contextlib

    import jax

    sh = jax.sharding
    if not all(hasattr(sh, k) for k in ("AbstractDevice", "AbstractMesh", "use_abstract_mesh")):
        return contextlib.nullcontext()
    dev = sh.AbstractDevice(device_kind="NVIDIA H200", num_cores=None, platform="cuda")
    return sh.use_abstract_mesh(sh.AbstractMesh((1,), ("gpu",), abstract_device=dev))


def lower_one(spec, inplace=False):
    with cuda_target():
        return _lower_one(spec, inplace)


def _lower_one(spec, inplace=False):
    import jax
    import jax.numpy as jnp

    from distlbm.lattice import get_lattice
    from distlbm.physics import boundaries as bc
    from distlbm.physics.collision import Collision
    from distlbm.physics.fused import make_fused_step
    from distlbm.stepper import Cells, Model

    lat_name, coll, force, walls, dtype, inc, shape, block, split = spec
    lat = get_lattice(lat_name)
    feat = bc.Features(**FEATURES[walls]) if walls in FEATURES else bc.Features(walls=bool(walls),
                                                                                 moving=walls == "moving")
    kind, _, smag = coll.partition("+")
    model = Model(lat, Collision(kind, 0.8, smagorinsky=0.1 if smag else 0.0), force=force, features=feat, dtype=dtype,
                  incompressible=inc)

    def exchange(planes, axis, sign):  # a stand-in for a neighbour: any new array makes the axis "split"
        return -planes if axis in split else planes

    f = jax.ShapeDtypeStruct((lat.q,) + shape, jnp.dtype(dtype))
    cells = Cells()
    if walls:
        u32 = jax.ShapeDtypeStruct(shape, jnp.uint32)
        f32 = jax.ShapeDtypeStruct(shape, jnp.float32)
        cells = Cells(kind=jax.ShapeDtypeStruct(shape, jnp.uint8), links=u32)
        if feat.moving:
            cells = cells._replace(moving=u32)
        values = (1,) + tuple(shape[1:]) if feat.x_invariant else shape  # one plane along x, or every cell
        if feat.uses_velocity:
            cells = cells._replace(velocity=jax.ShapeDtypeStruct((lat.d,) + values, jnp.float32))
        if feat.uses_rho:
            cells = cells._replace(rho=jax.ShapeDtypeStruct(values, jnp.float32))
        if feat.bouzidi:
            # the fractions of a box of planes along x (a third of the block's) and its first plane
            box = (lat.q, max(1, shape[0] // 3)) + tuple(shape[1:])
            cells = cells._replace(qlink=jax.ShapeDtypeStruct(box, jnp.uint8),
                                   qbox=jax.ShapeDtypeStruct((1,) * len(shape), jnp.int32))
            if feat.x_invariant:  # and one plane for the planes outside the box (far walls off the grid)
                cells = cells._replace(qplane=jax.ShapeDtypeStruct((lat.q, 1) + tuple(shape[1:]), jnp.uint8))
        if feat.sponge:
            cells = cells._replace(sponge=f32)
    if inplace:
        from distlbm.physics.fused_inplace import make_fused_inplace
        from distlbm.stepper import State, make_inplace_advance

        advance = make_inplace_advance(*make_fused_inplace(model, exchange, interpret=False), jit=False)
        n = jax.ShapeDtypeStruct((), jnp.int32)
        lowered = jax.jit(advance).trace(State(f, n), cells, n).lower(lowering_platforms=("cuda",))
        return lowered.as_text()
    step = make_fused_step(model, exchange, block=block, interpret=False)
    lowered = jax.jit(step).trace(f, cells, jax.ShapeDtypeStruct((), jnp.int32)).lower(lowering_platforms=("cuda",))
    return lowered.as_text()


def check(name) -> dict:
    """{"ok", "triton_calls", "error"} of lowering `name` (a LOWER key, + INPLACE for the in-place advance)."""
    from distlbm.lattice import get_lattice

    inplace = name.endswith(INPLACE)
    spec = LOWER[name[: -len(INPLACE)] if inplace else name]
    text = lower_one(spec, inplace)
    n = text.count(TRITON)
    if not inplace:  # one call, and one more per open face (over its plane, aliased to the result)
        from distlbm.physics import boundaries as bc
        from distlbm.physics.fused import open_faces

        nf = len(open_faces(bc.Features(**FEATURES[spec[3]]))) if spec[3] in FEATURES else 0
        aliased = sum(1 for line in text.splitlines() if TRITON in line and "output_operand_aliases" in line)
        err = "" if (n, aliased) == (1 + nf, nf) else (f"{n} Triton calls, {aliased} aliased; expected {1 + nf}, {nf} "
                                                      f"(one per open face)")
        return {"ok": not err, "triton_calls": n, "aliased": aliased, "error": err}
    want = get_lattice(spec[0]).q // 2 + 3
    aliased = sum(1 for line in text.splitlines() if TRITON in line and ALIAS.search(line))
    err = "" if n == want == aliased else f"{n} Triton calls, {aliased} with the populations aliased; expected {want}"
    return {"ok": not err, "triton_calls": n, "aliased": aliased, "error": err}


def main(names):
    res, ok = {}, True
    for name in names:
        try:
            res[name] = check(name)
        except Exception as e:  # noqa: BLE001 - reported per configuration
            res[name] = {"ok": False, "triton_calls": 0, "error": f"{type(e).__name__}: {e}"[:2000],
                         "trace": traceback.format_exc()[-3000:]}
        ok &= res[name]["ok"]
    print(json.dumps(res))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ALL))
