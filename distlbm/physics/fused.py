"""One fused stream-collide kernel per step in Pallas (Triton lowering on GPUs, interpret mode elsewhere).

`make_fused_step(model, exchange)` returns `step(f, cells, t=None) -> f` with the signature and the
results of `distlbm.stepper.make_step`, computed by one `pallas_call`: every program takes a tile of
cells, pulls each population once from its upstream neighbour (f_k(x) <- f*_k(x - c_k)), applies
bounce-back, forms the moments, collides and writes each population once. Moments, equilibrium and
collision stay in registers, so one update moves 2 Q itemsize bytes plus the wall reads of cells next
to a wall, whatever XLA would fuse.

Halo: axes that the injected `exchange(planes, axis, sign)` wraps onto the block itself (one device,
or a mesh of size 1 along that axis: the exchange hands back its argument) are read with wrapped
indices; along every other axis the kernel reads the planes the exchange delivered, built one axis
after the other exactly as `physics.streaming` does (the plane sent along a later axis carries what
arrived along the earlier ones, so edges and corners need no diagonal messages). Nothing here knows
about devices.

Arithmetic: the per-cell operations are those of the XLA step, population by population, in the same
order and grouping (the moment sums are `physics.moments`' own functions), so on XLA:CPU (Pallas
interpret mode) the populations agree bit for bit with `make_step`'s; on a GPU, Triton may contract
multiply-adds differently from XLA, so the two agree to round-off there.

`fused_supports(model)` says whether a configuration is covered: BGK/TRT/regularized (with Smagorinsky),
body force, standard and incompressible equilibrium, walls and moving walls, Bouzidi links (the cell's wall
fractions read only where it has a link), velocity inlets, pressure outlets and zero-gradient/convective
outflow (a small call per open face, over its plane, recomputes its cells into the result: a face cell
pulls its inner neighbour's populations too and applies that neighbour's walls),
fixed-velocity/pressure cells, the absorbing layer and start-up ramps, float32/float16/bfloat16 storage with
float32 compute; the rest (other compute dtypes, open faces on more than one axis) stays with the XLA step.

This kernel is A-B (it reads f and writes a new array); physics/fused_inplace.py is the same arithmetic
streaming in place (AA pattern, one population array), which `parallel.make_advance` runs by default where
it covers the model (periodic, walls and moving walls, every collision; the rest of the above runs this kernel).
"""

from __future__ import annotations

import math
from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl

from distlbm.physics import boundaries as bc
from distlbm.physics.collision import second_moment
from distlbm.physics.moments import deviation_moments

STORAGE = ("float32", "float16", "bfloat16")


# what the A-B kernel covers beyond the in-place (AA) pair (physics/fused_inplace.py), which falls back to it
AB_ONLY = (("bouzidi", "Bouzidi (interpolated) wall links"), ("velocity", "fixed-velocity cells"),
           ("pressure", "fixed-pressure cells"), ("outflow", "outflow faces"), ("inlets", "velocity inlets"),
           ("outlets", "pressure outlets"), ("sponge", "absorbing (sponge) layers"))


def open_faces(features) -> list:
    """[(kind base, axis, sign)] of the open faces in the order the XLA step treats them (outflow, inlets,
    outlets; physics.boundaries.outflow / extrapolated)."""
    return ([(bc.OUTFLOW, a, s) for a, s in features.outflow] + [(bc.INLET, a, s) for a, s in features.inlets]
            + [(bc.OUTLET, a, s) for a, s in features.outlets])


def fused_supports(model, features=None, inplace: bool = False) -> tuple:
    """(True, 'covered') when the fused kernel computes `model`'s step, else (False, reasons).

    features: the boundary features to judge (default: model.features). inplace: judge the in-place (AA)
    kernels of physics/fused_inplace.py, which cover less (AB_ONLY: where they do not, the A-B kernel runs).
    """
    feat = model.features if features is None else features
    why = []
    if str(model.compute_dtype) != "float32":
        why.append(f"compute_dtype {model.compute_dtype} (the kernel computes in float32)")
    if str(model.dtype) not in STORAGE:
        why.append(f"storage dtype {model.dtype} (the kernel stores {'/'.join(STORAGE)})")
    if getattr(model, "force_field", False):  # the kernels read one uniform force, compiled in
        why.append("per-cell force fields")
    if inplace:
        why += [text for name, text in AB_ONLY if getattr(feat, name)]
    # a face cell takes its inner neighbour's populations after the walls alone: where faces meet at an edge
    # of the lattice, the XLA step hands one face's result to the other
    axes = {a for _, a, _ in open_faces(feat)}
    if len(axes) > 1:
        why.append(f"open faces normal to more than one axis ({', '.join('xyz'[a] for a in sorted(axes))})")
    if model.lattice.d not in (2, 3):
        why.append(f"{model.lattice.d}D lattice")
    try:  # deprecated in jax 0.11 ("will be removed in a future version")
        from jax.experimental.pallas import triton as _  # noqa: F401
    except ImportError as e:
        why.append(f"Pallas' Triton backend is missing from jax {jax.__version__} ({e})")
    return (not why, "; ".join(why) if why else "covered")


def _p2(n: int) -> int:
    return 1 << max(0, int(n) - 1).bit_length()


def default_block(shape3, cells: int = 512) -> tuple:
    """Power-of-two tile (B0, B1, B2) of the 3D view, about `cells` cells, filled along the contiguous
    last axis first (at most 128). A tile need not divide the lattice: lanes past the end are clamped."""
    n0, n1, n2 = shape3
    b2 = min(_p2(n2), cells, 128)
    if n2 % b2:  # the fewest redundant lanes among 32..128 (ties: the longer tile), e.g. 400 -> 32
        b2 = min((b for b in (128, 64, 32) if b <= b2), key=lambda b: (pl.cdiv(n2, b) * b, -b), default=b2)
    b1 = min(_p2(n1), max(1, cells // b2))
    b0 = min(_p2(n0), max(1, cells // (b2 * b1)))
    return (b0, b1, b2)


class _Physics:
    """The XLA step's per-cell arithmetic written population by population (same order and grouping
    as physics.equilibrium / forcing / collision / boundaries).

    Per-population constants (c_ka, w_k, the Guo and regularization coefficients) come from `const`:
    literals on GPUs; in interpret mode, entries of a small table passed to the kernel, because XLA
    folds and factors scalar literals (c_k = 0 or 1, products of constants) where the XLA step has
    [Q]-vector constants it leaves alone, which changed last bits.
    """

    def __init__(self, model):
        self.model = model
        lat = self.lat = model.lattice
        self.inv_cs2 = 1.0 / lat.cs2
        inv = self.inv_cs2
        cs2 = lat.cs2
        cols = {}
        for a in range(lat.d):
            cols[("c", a)] = np.asarray(lat.c[:, a], np.float64)
        cols["w"] = np.asarray(lat.w, np.float64)
        cols["wall"] = 2.0 * lat.w * 1.0 / lat.cs2
        if model.force is not None:
            cf = lat.c @ [float(x) for x in model.force]
            cols["guo_a"] = cf * inv
            cols["guo_b"] = cf * inv * inv
        if model.collision.kind == "regularized":
            for a in range(lat.d):
                for b in range(a, lat.d):
                    qab = lat.c[:, a] * lat.c[:, b] - (cs2 if a == b else 0.0)
                    cols[("qab", a, b)] = qab * (1.0 if a == b else 2.0)
            cols["wr"] = lat.w / (2.0 * cs2 * cs2)
            if model.force is not None:  # physics.collision._first_moment_part
                cols["fm"] = 0.5 * lat.w * (lat.c @ [float(x) for x in model.force]) / cs2
        self.names = list(cols)
        self.table = np.stack([np.asarray(cols[n], np.float32) for n in self.names], axis=1)  # [Q, M]
        self.col = {n: i for i, n in enumerate(self.names)}
        self.tab = None  # the table's ref inside an interpret-mode kernel

    def const(self, name, k):
        if self.tab is None:
            return self.table[k, self.col[name]]  # np.float32 literal
        return self.tab[k, self.col[name]]

    def cdotu(self, k, u):
        acc = None
        for a in range(self.lat.d):
            t = self.const(("c", a), k) * u[a]
            acc = t if acc is None else acc + t
        return acc

    @staticmethod
    def usq(u):
        acc = u[0] * u[0]
        for ua in u[1:]:
            acc = acc + ua * ua
        return acc

    def equilibria(self, drho, u):
        """geq_k = feq_k - w_k for every k (physics.equilibrium.equilibrium_deviation)."""
        inv = self.inv_cs2
        k2 = 0.5 * inv * inv
        out = []
        if self.model.incompressible:
            head = drho - (0.5 * inv) * self.usq(u)
            for k in range(self.lat.q):
                cu = self.cdotu(k, u)
                out.append(self.const("w", k) * (head + cu * (inv + k2 * cu)))
            return out
        rho = 1.0 + drho
        base = 0.0 - (0.5 * inv) * self.usq(u)
        for k in range(self.lat.q):
            cu = self.cdotu(k, u)
            out.append(self.const("w", k) * (drho + rho * (cu * (inv + k2 * cu) + base)))
        return out

    def guo(self, u, force):
        """S_k (physics.forcing.guo_source)."""
        inv = self.inv_cs2
        uf = None
        for a in range(self.lat.d):
            if force[a]:
                t = u[a] * force[a]
                uf = t if uf is None else uf + t
        ufs = None if uf is None else uf * inv
        out = []
        for k in range(self.lat.q):
            term = self.const("guo_a", k) + self.cdotu(k, u) * self.const("guo_b", k)
            if ufs is not None:
                term = term - ufs
            out.append(self.const("w", k) * term)
        return out

    def collide(self, fs, drho, u):
        """Post-collision deviations (physics.collision.collide with the stepper's arguments)."""
        m, lat, op = self.model, self.lat, self.model.collision
        force = m.force
        geq = self.equilibria(drho, u)
        omega = 1.0 / op.tau
        pi = None
        if op.kind == "regularized" or op.smagorinsky > 0:
            pi = second_moment([fs[k] - geq[k] for k in range(lat.q)], lat)
            if force is not None:
                pi = {(a, b): v + 0.5 * (u[a] * force[b] + u[b] * force[a]) for (a, b), v in pi.items()}
        if op.smagorinsky > 0:  # physics.collision.collide: the local relaxation time from |Pi^(1)|
            norm = None
            for (a, b), v in pi.items():
                t = v * v if a == b else 2.0 * (v * v)
                norm = t if norm is None else norm + t
            cs, tau0 = op.smagorinsky, op.tau
            rho = 1.0 + drho
            tau = 0.5 * (tau0 + jnp.sqrt(tau0 * tau0 + 18.0 * math.sqrt(2.0) * cs * cs * jnp.sqrt(norm) / rho))
            omega = 1.0 / tau
            if self.tab is not None:  # interpret mode: as the XLA step's barrier, keep TRT's 1 / omega from
                omega = lax.optimization_barrier(omega)  # being simplified to tau (A / (B / C) -> A C / B)
        src = self.guo(u, force) if force is not None else None
        q = lat.q
        if op.kind == "bgk":
            out = [fs[k] - omega * (fs[k] - geq[k]) for k in range(q)]
            if src is not None:
                out = [out[k] + (1.0 - 0.5 * omega) * src[k] for k in range(q)]
            return out
        if op.kind == "regularized":
            out = []
            for k in range(q):
                acc = None
                for (a, b), v in pi.items():
                    t = self.const(("qab", a, b), k) * v
                    acc = t if acc is None else acc + t
                o = geq[k] + (1.0 - omega) * (self.const("wr", k) * acc)
                if src is not None:  # and the non-equilibrium first moment's term (physics.collision.collide)
                    o = o + (1.0 - 0.5 * omega) * src[k] - (1.0 - omega) * self.const("fm", k)
                out.append(o)
            return out
        # TRT, with geq of the opposite directions from -u as the stepper passes it
        if op.smagorinsky > 0:
            omega_m = 1.0 / (0.5 + op.trt_lambda / (1.0 / omega - 0.5))
        else:
            omega_m = 1.0 / (0.5 + op.trt_lambda / (op.tau - 0.5))
        geq_opp = self.equilibria(drho, tuple(-ua for ua in u))
        opp = lat.opposite
        out = []
        for k in range(q):
            neq = fs[k] - geq[k]
            neq_o = fs[opp[k]] - geq_opp[k]
            o = fs[k] - omega * (0.5 * (neq + neq_o)) - omega_m * (0.5 * (neq - neq_o))
            if src is not None:
                s, so = src[k], src[opp[k]]
                o = o + (1.0 - 0.5 * omega) * (0.5 * (s + so)) + (1.0 - 0.5 * omega_m) * (0.5 * (s - so))
            out.append(o)
        return out

    def bounce_back(self, fs, back, hit, mov, wall_u):
        """Halfway bounce-back (physics.boundaries.bounce_back): fs[k] <- back[k] (+ the moving-wall term
        where bit k of `mov` is set) where hit[k]; back[k] is the value bounced into direction k (the
        cell's own f*_opp(k)); mov/wall_u None without moving walls."""
        new = []
        for k in range(self.lat.q):
            val = back[k]
            if mov is not None:
                m = ((mov & np.uint32(1 << k)) != 0).astype(jnp.float32)
                val = val + m * self.wall_correction(k, wall_u)
            new.append(jnp.where(hit[k], val, fs[k]))
        return new

    def bouzidi(self, new, fs, fc, hit, qlink):
        """Interpolated bounce-back (physics.boundaries.bouzidi, then the selection of `stepper`'s walls):
        new[k] (halfway bounce-back) is replaced where qlink[k] (uint8, q * 254) is not 0. fs: the streamed
        populations before bounce-back; fc: the cell's own pre-streaming ones."""
        out = []
        for k in range(self.lat.q):
            j = int(self.lat.opposite[k])
            qq = qlink[k].astype(jnp.float32) * (1.0 / 254.0)
            lo = qq < 0.5
            two_q = 2.0 * qq
            inv = 1.0 / jnp.maximum(two_q, 1e-3)
            a = jnp.where(lo, two_q, inv)
            b = jnp.where(lo, 1.0 - two_q, 1.0 - inv)
            other = jnp.where(lo, fs[j], fc[k])
            val = a * fc[j] + b * other
            val = jnp.where(lo & hit[j], fc[j], val)  # x + c_k is solid too: halfway bounce-back
            out.append(jnp.where(qlink[k] == 0, new[k], val))
        return out

    def wall_correction(self, k, wall_u):
        """2 w_k rho_w (c_k . u_w) / cs2 of a moving wall (physics.boundaries.bounce_back)."""
        return self.const("wall", k) * self.cdotu(k, wall_u)


def view_c(lat) -> np.ndarray:
    """The lattice velocities in the 3D view [Q, 3] (2D lattices run as [Q, 1, X, Y]: a zero first column)."""
    c3 = np.zeros((lat.q, 3), np.int64)
    c3[:, 3 - lat.d:] = np.asarray(lat.c)
    return c3


def entering_halos(f3, exchange: Callable, c3, d: int) -> tuple:
    """The planes arriving along every axis the exchange does not wrap onto the block itself.

    f3: [Q, N0, N1, N2] the 3D view of the block; c3: view_c; d: the lattice's dimension. Returns
    split[3] (bool per view axis) and H[(b, sign)] = (populations, array [len, plane...]) where sign is
    +1 for the planes entering on the low face (populations with c_b = +1); the plane is extended by
    one cell on both sides along the earlier split axes (what arrived there: edges and corners).
    """
    q = f3.shape[0]
    lead = 3 - d
    n = f3.shape[1:]
    split = [False, False, False]
    got_h = {}
    for a in range(d):
        b = a + lead
        for sign in (1, -1):
            ks = [k for k in range(q) if c3[k, b] == sign]
            if not ks:
                continue
            planes = jnp.stack([_ext_edge(f3, k, b, sign, n, split, got_h, c3) for k in ks])
            got = exchange(planes, a, sign)
            if got is planes:  # the periodic wrap onto this block: read it with wrapped indices
                continue
            split[b] = True
            got_h[(b, sign)] = (ks, got)
    return split, got_h


def _ext_edge(f3, k, b, sign, n, split, got_h, c3):
    """Population k's plane that leaves along view axis b towards sign, extended along the earlier
    split axes by the planes that arrived there (zeros where population k needs none)."""
    idx = n[b] - 1 if sign > 0 else 0
    cur = lax.index_in_dim(f3[k], idx, axis=b, keepdims=False)  # dims != b
    for e in range(b):
        if not split[e]:
            continue
        ax = e  # e < b: its position among the dims != b is e
        parts = []
        for s in (1, -1):
            hk = got_h.get((e, s))
            if hk is not None and c3[k, e] == s:
                ks, arr = hk
                h = arr[ks.index(k)]  # dims != e
                piece = lax.index_in_dim(h, idx, axis=b - 1, keepdims=False)  # dims != e, b
                piece = jnp.expand_dims(piece, ax)
            else:
                shape = list(cur.shape)
                shape[ax] = 1
                piece = jnp.zeros(shape, cur.dtype)
            parts.append(piece)
        cur = jnp.concatenate([parts[0], cur, parts[1]], axis=ax)
    return cur


def tile_index(n, blk) -> list:
    """Per-axis cell indices of this program's tile, shaped to broadcast: [B0,1,1], [1,B1,1], [1,1,B2]
    (lanes past the lattice's end, where a tile does not divide it, clamped onto its last cell)."""
    idx = []
    for b in range(3):
        shp = [1, 1, 1]
        shp[b] = blk[b]
        i = pl.program_id(b) * blk[b] + lax.broadcasted_iota(jnp.int32, tuple(shp), b)
        idx.append(jnp.minimum(i, n[b] - 1) if n[b] % blk[b] else i)
    return idx


def masked_load(ref, row, at, mask=None):
    """ref[row, at] (row None: ref[at]); with a mask, on its lanes only, 0 on the others: a GPU reads memory
    only for those lanes (Triton's masked load)."""
    if mask is None:
        return ref[at] if row is None else ref[row, at]
    from jax.experimental.pallas import triton as pltriton

    shape = jnp.broadcast_shapes(jnp.shape(at), jnp.shape(mask))
    at = jnp.broadcast_to(at, shape)
    r = ref.at[at] if row is None else ref.at[row, at]
    return pltriton.load(r, mask=jnp.broadcast_to(mask, shape), other=0)


def puller(f_ref, h_refs, hpops, hdims, idx, n, split, c3, mask=None) -> Callable:
    """pull(k): population k of the tile's cells pulled from their upstream neighbours, f_k(x - c_k), in
    float32: from f_ref [Q, cells] inside the block (wrapped along the axes that are not split), from the
    arrived planes h_refs[(b, sign)] (`entering_halos`) across split faces. idx: the cells' indices (those
    of the tile, or of their neighbours); mask: read only these lanes (the others get 0)."""
    strides = (n[1] * n[2], n[2], 1)

    def shifted(b, cb):
        """(source index, clamped source index, out-of-block flag or None) along axis b."""
        i = idx[b]
        if cb == 0:
            return i, i, None
        s = i - int(cb)
        if not split[b]:
            w = jnp.where(s < 0, s + n[b], s) if cb > 0 else jnp.where(s >= n[b], s - n[b], s)
            return w, w, None
        out = (s < 0) if cb > 0 else (s >= n[b])
        cl = jnp.maximum(s, 0) if cb > 0 else jnp.minimum(s, n[b] - 1)
        return s, cl, out

    def pull(k):
        src = [shifted(b, int(c3[k, b])) for b in range(3)]
        off = src[0][1] * strides[0] + src[1][1] * strides[1] + src[2][1]
        v = masked_load(f_ref, k, off, mask)
        for b in range(3):  # the last axis the source lies outside along decides (corners)
            if src[b][2] is None:
                continue
            key = (b, int(c3[k, b]))
            dims = [e for e in range(3) if e != b]
            hidx = []
            for e in dims:
                s, cl, _ = src[e]
                hidx.append(s + 1 if (split[e] and e < b) else cl)
            hoff = hidx[0] * hdims[key][1] + hidx[1]
            hv = masked_load(h_refs[key], hpops[key].index(k), hoff, mask)
            v = jnp.where(src[b][2], hv, v)
        return v.astype(jnp.float32)

    return pull


def make_fused_step(model, exchange: Callable, *, block=None, num_warps=None, num_stages=None,
                    interpret=None) -> Callable:
    """Returns step(f, cells, t=None) -> f, one fused Pallas kernel per step (see the module docstring).

    f: [Q, X, Y(, Z)] stored deviations (storage dtype); cells: stepper.Cells; t: the step number (start-up
    ramps of inlets, fixed velocities and the absorbing layer's target). block: the tile of the 3D view (2D
    lattices are viewed as [Q, 1, X, Y]) as powers of two (default `default_block`); num_warps/num_stages:
    Triton's; interpret: run the kernel with Pallas' interpreter (default: on any backend that is not a
    GPU). Raises ValueError for a configuration `fused_supports` refuses.
    """
    ok, why = fused_supports(model)
    if not ok:
        raise ValueError(f"the fused kernel does not cover this configuration: {why}")
    from jax.experimental.pallas import triton as pltriton

    lat = model.lattice
    feat = model.features
    q, d = lat.q, lat.d
    lead = 3 - d  # 2D lattices run as the 3D view [Q, 1, X, Y]
    c3 = view_c(lat)
    sdt = jnp.dtype(model.dtype)
    phys = _Physics(model)
    opp = np.asarray(lat.opposite)
    walls = bool(feat.walls)
    moving = bool(feat.moving)
    bouzidi = bool(feat.bouzidi) and walls
    faces = open_faces(feat)
    dirichlet = bool(feat.velocity or feat.pressure)
    need_kind = walls or dirichlet or bool(faces)
    need_vel = bool(feat.uses_velocity)
    need_rho = bool(feat.uses_rho)
    sponge = bool(feat.sponge)

    def step(f, cells, t=None):
        shape = f.shape[1:]
        n = (1,) * lead + tuple(int(s) for s in shape)
        for _, axis, _ in faces:
            if n[axis + lead] < 2:
                raise ValueError(f"open faces normal to {'xyz'[axis]} need blocks of 2 or more planes along it; "
                                 f"this block has {n[axis + lead]}")
        f3 = f.reshape((q,) + n)
        split, got_h = entering_halos(f3, exchange, c3, d)
        blk = tuple(block) if block is not None else default_block(n, 4096 if _interpret() else 512)
        grid = tuple(pl.cdiv(n[i], blk[i]) for i in range(3))
        ncell = math.prod(n)

        hkeys = sorted(got_h)
        interp = _interpret()
        inputs = [f.reshape(q, ncell)]
        if interp:
            inputs.append(lax.optimization_barrier(jnp.asarray(phys.table)))  # not constant-folded
        hdims = {}
        for key in hkeys:
            ks, arr = got_h[key]
            hdims[key] = arr.shape[1:]
            inputs.append(arr.reshape(len(ks), -1))
        ramp = bool(feat.ramp_steps) and t is not None
        if ramp:  # the step's one scalar: the ramp factor, computed as the XLA step computes it
            inputs.append(bc.ramp_factor(t, feat.ramp_steps).astype(jnp.float32).reshape(1))
        if need_kind:
            inputs.append(cells.kind.reshape(ncell))
        if walls:
            inputs.append(cells.links.reshape(ncell))
            if moving:
                inputs.append(cells.moving.reshape(ncell))
        if need_vel:  # per cell, or one plane along x (Features.x_invariant)
            inputs.append(cells.velocity.reshape(d, -1))
        if need_rho:
            inputs.append(cells.rho.reshape(-1))
        qplanes = None
        qplane = bouzidi and cells.qplane is not None
        if bouzidi:  # the fractions of the block's box of planes along x (physics.boundaries.wall_fraction_box)
            qplanes = int(cells.qlink.shape[1])
            inputs.append(cells.qlink.reshape(q, -1))
            inputs.append(jnp.reshape(cells.qbox, (1,)).astype(jnp.int32))
            if qplane:  # and those of every plane outside the box
                inputs.append(cells.qplane.reshape(q, -1))
        if sponge:
            inputs.append(cells.sponge.reshape(ncell))

        hpops = {k: got_h[k][0] for k in hkeys}
        params = {}
        if not interp:
            params["compiler_params"] = pltriton.CompilerParams(num_warps=num_warps, num_stages=num_stages)
        # what XLA's cost analysis reports for the call: every input read once, the populations written once
        # (the masked reads of wall fractions and velocities touch only a few cells)
        nbytes = sum(int(x.size) * x.dtype.itemsize for x in inputs) + q * ncell * sdt.itemsize
        out = pl.pallas_call(
            _make_kernel(n, blk, split, hkeys, hpops, hdims, interp, ramp, qplanes=qplanes, qplane=qplane),
            out_shape=jax.ShapeDtypeStruct((q, ncell), sdt),
            grid=grid,
            interpret=interp,
            name=f"distlbm_fused_{lat.name.lower()}",
            cost_estimate=pl.CostEstimate(flops=20 * q * ncell, transcendentals=0, bytes_accessed=nbytes),
            **params,
        )(*inputs)
        # Each open face: a small call over its plane alone, written into the result (aliased), which computes
        # its cells again with the face's treatment (their inner neighbours' populations pulled too). The main
        # kernel stays free of that code (registers), and its face cells' values are replaced.
        for face in faces:
            b = face[1] + lead
            plane = 0 if face[2] < 0 else n[b] - 1
            fblk = tuple(1 if e == b else blk[e] for e in range(3))
            fgrid = tuple(1 if e == b else grid[e] for e in range(3))
            fcells = ncell // n[b]
            out = pl.pallas_call(
                _make_kernel(n, fblk, split, hkeys, hpops, hdims, interp, ramp, face=face, plane=plane,
                             qplanes=qplanes, qplane=qplane),
                out_shape=jax.ShapeDtypeStruct((q, ncell), sdt),
                grid=fgrid,
                interpret=interp,
                input_output_aliases={len(inputs): 0},
                name=f"distlbm_fused_face_{lat.name.lower()}",
                cost_estimate=pl.CostEstimate(flops=40 * q * fcells, transcendentals=0,
                                              bytes_accessed=4 * q * fcells * sdt.itemsize),
                **params,
            )(*inputs, out)
        return out.reshape(f.shape)

    def _interpret():
        if interpret is not None:
            return bool(interpret)
        return jax.default_backend() not in ("gpu", "cuda", "rocm")

    def _make_kernel(n, blk, split, hkeys, hpops, hdims, interp, ramp, face=None, plane=None, qplanes=None,
                     qplane=False):
        """The kernel over the whole block (face None: open-face cells computed as if they were fluid, then
        replaced), or over the plane `plane` of one open face (base, axis, sign) with its treatment."""
        strides = (n[1] * n[2], n[2], 1)
        here = [] if face is None else [face]

        def kernel(*refs):
            it = iter(refs)
            f_ref = next(it)
            phys.tab = next(it) if interp else None
            h_refs = {key: next(it) for key in hkeys}
            scale_ref = next(it) if ramp else None
            kind_ref = next(it) if need_kind else None
            links_ref = next(it) if walls else None
            moving_ref = next(it) if walls and moving else None
            vel_ref = next(it) if need_vel else None
            rho_ref = next(it) if need_rho else None
            qlink_ref = next(it) if bouzidi else None
            qbox_ref = next(it) if bouzidi else None
            qplane_ref = next(it) if qplane else None
            sponge_ref = next(it) if sponge else None
            if face is not None:
                next(it)  # the main kernel's result, aliased to the output: written, never read
            out_ref = next(it)

            read = masked_load

            def both(a, b):
                return b if a is None else a & b

            idx = tile_index(n, blk)
            if face is not None:  # the grid spans the face's plane: one cell thick along its axis
                b = face[1] + lead
                idx[b] = idx[b] + plane
            cell_off = idx[0] * strides[0] + idx[1] * strides[1] + idx[2]
            # where the prescribed velocities and densities are read: the cell's, or in the block's one plane
            # along x the cell's position in that plane (Features.x_invariant)
            value_off = cell_off - idx[lead] * strides[lead] if feat.x_invariant else cell_off
            scale = scale_ref[0] if ramp else None
            kind = kind_ref[cell_off] if need_kind else None
            wall = ((kind == bc.WALL) | (kind == bc.MOVING_WALL)) if walls else None
            at_face = [kind == base + 2 * axis + (0 if sign > 0 else 1) for base, axis, sign in here]
            convective = [base == bc.OUTFLOW and feat.convective > 0 for base, _, _ in here]

            def walled(idx_c, off, live, keep=None, extra=None):
                """(fs, fc) of the cells at idx_c: their populations pulled from upstream and bounced back
                (halfway, moving walls, Bouzidi: physics.boundaries.bounce_back / bouzidi), and fc[k], their
                own pre-streaming populations, read where a wall link, `keep` or extra[k] needs them (else
                None). live: the lanes to read (None: all)."""
                pull = puller(f_ref, h_refs, hpops, hdims, idx_c, n, split, c3, mask=live)
                fs = [pull(k) for k in range(q)]
                hit = None
                if walls:
                    links = read(links_ref, None, off, live)
                    hit = [(links & np.uint32(1 << k)) != 0 for k in range(q)]
                fc = []
                for k in range(q):  # the cell's own pre-streaming populations: read only where needed
                    need = None
                    if walls:
                        need = hit[opp[k]] | hit[k] if bouzidi else hit[opp[k]]
                        need = need if keep is None else keep | need
                    if extra is not None and extra[k] is not None:
                        need = extra[k] if need is None else need | extra[k]
                    fc.append(None if need is None else read(f_ref, k, off, both(live, need)).astype(jnp.float32))
                if not walls:
                    return fs, fc
                mov = wall_u = None
                if moving:
                    mov = read(moving_ref, None, off, live)
                    # the adjacent moving wall's velocity, read where a link to a moving wall needs it
                    wall_u = tuple(read(vel_ref, a, off, both(live, mov != 0)).astype(jnp.float32) for a in range(d))
                new = phys.bounce_back(fs, [fc[opp[k]] for k in range(q)], hit, mov, wall_u)
                if bouzidi:
                    # the box's planes qbox .. qbox+qplanes-1 along x hold the fractions; elsewhere the block's
                    # one plane does at the cell's position in it (qplane), or they are 0 (halfway)
                    x0 = qbox_ref[0]
                    rel = idx_c[lead] - x0
                    inside = (rel >= 0) & (rel < qplanes)
                    boff = jnp.clip(off - x0 * strides[lead], 0, qplanes * strides[lead] - 1)
                    qlink = [read(qlink_ref, k, boff, both(live, hit[k] & inside)) for k in range(q)]
                    if qplane:
                        poff = off - idx_c[lead] * strides[lead]
                        qlink = [jnp.where(inside, qlink[k], read(qplane_ref, k, poff, both(live, hit[k] & ~inside)))
                                 for k in range(q)]
                    new = phys.bouzidi(new, fs, fc, hit, qlink)
                return new, fc

            extra = None
            if any(convective):  # a convective outflow cell reads its own f* of its unknown populations
                extra = [None] * q
                for (base, axis, sign), sel, conv in zip(here, at_face, convective):
                    if conv:
                        for k in range(q):
                            if c3[k, axis + lead] * sign < 0:
                                extra[k] = sel if extra[k] is None else extra[k] | sel
            fs, fc = walled(idx, cell_off, None, keep=wall, extra=extra)
            for (base, axis, sign), sel, conv in zip(here, at_face, convective):
                # a face cell and its inner neighbour x - sign e_axis (physics.boundaries.outflow / extrapolated)
                b = axis + lead
                idx_f = list(idx)
                idx_f[b] = jnp.maximum(idx[b] - 1, 0) if sign > 0 else jnp.minimum(idx[b] + 1, n[b] - 1)
                off_f = idx_f[0] * strides[0] + idx_f[1] * strides[1] + idx_f[2]
                inner, _ = walled(idx_f, off_f, sel)
                if base == bc.OUTFLOW:
                    u_c = feat.convective
                    for k in range(q):
                        if c3[k, b] * sign < 0:  # unknown after streaming: from the inner neighbour
                            new = (fc[k] + u_c * inner[k]) * (1.0 / (1.0 + u_c)) if conv else inner[k]
                            fs[k] = jnp.where(sel, new, fs[k])
                    continue
                drho_f, u_f = deviation_moments(inner, lat, incompressible=model.incompressible)
                geq_f = phys.equilibria(drho_f, u_f)
                if base == bc.INLET:
                    ub = tuple(read(vel_ref, a, value_off, sel).astype(jnp.float32) for a in range(d))
                    if scale is not None:
                        ub = tuple(x * scale for x in ub)
                    geq = phys.equilibria(drho_f, ub)
                else:
                    geq = phys.equilibria(read(rho_ref, None, value_off, sel).astype(jnp.float32) - 1.0, u_f)
                fs = [jnp.where(sel, geq[k] + (inner[k] - geq_f[k]), fs[k]) for k in range(q)]
            drho, u = deviation_moments(fs, lat, model.force, model.incompressible)
            if dirichlet:  # physics.boundaries.dirichlet
                mask = None
                if feat.velocity:
                    vc = kind == bc.VELOCITY
                    ub = tuple(read(vel_ref, a, cell_off, vc).astype(jnp.float32) for a in range(d))
                    if scale is not None:
                        ub = tuple(x * scale for x in ub)
                    u = tuple(jnp.where(vc, ub[a], u[a]) for a in range(d))
                    mask = vc
                if feat.pressure:
                    pc = kind == bc.PRESSURE
                    drho = jnp.where(pc, read(rho_ref, None, cell_off, pc).astype(jnp.float32) - 1.0, drho)
                    mask = pc if mask is None else (mask | pc)
                geq = phys.equilibria(drho, u)
                fs = [jnp.where(mask, geq[k], fs[k]) for k in range(q)]
            out = phys.collide(fs, drho, u)
            if sponge:  # physics.boundaries.sponge, the target velocity read where the layer is
                s = sponge_ref[cell_off].astype(jnp.float32)
                ut = tuple(read(vel_ref, a, value_off, s != 0).astype(jnp.float32) for a in range(d))
                if scale is not None:
                    ut = tuple(x * scale for x in ut)
                geq = phys.equilibria(jnp.zeros_like(s), ut)
                out = [(out[k] - s * out[k]) + s * geq[k] for k in range(q)]
            # Lanes past the lattice's end (tiles that do not divide it) were clamped onto its last cell
            # and computed that cell's values, so they store the same bits there: no mask (a masked
            # scatter in interpret mode writes the old value back from the masked lanes).
            for k in range(q):
                o = jnp.where(wall, fc[k], out[k]) if walls else out[k]
                out_ref[k, cell_off] = o.astype(sdt)

        return kernel

    step.path = "pallas"
    return step
