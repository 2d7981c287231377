"""The fused Pallas kernel streaming in place: the AA pattern (Bailey et al. 2009), one population array.

`make_fused_inplace(model, exchange)` returns `push(f, cells)` and `local(f, cells)`, one LBM step each,
from the canonical layout of `stepper.State` (f*_k(x), post-collision, in slot k of cell x) to the
"pushed" one and back, and `unpush(f, cells)`, the pushed layout back to the canonical one without a
step (after an odd number of steps); each updates f in place: every `pallas_call` aliases the
population array to its output (`input_output_aliases={0: 0}`) and reads it through that output, so
no second population array exists. Their results are those of `physics.fused.make_fused_step`, bit
for bit (the same per-cell arithmetic; only where values are stored differs).

The two kernels of a pair (slots: k of cell x is "(x, k)"; hit_k(x): x - c_k is a wall):

- push (odd step): cell x pulls f_k(x - c_k) from (x - c_k, k) (across split faces from the halo
  planes, as the A-B kernel), or bounces back its own (x, opp k) where hit_k, collides, and writes
  f*_j to (x + c_j, opp j) ("pushed", opposite slot) or, where x + c_j is a wall, to its own (x, j).
  Cell x reads and writes the slots {(x - c_k, k)} = {(x + c_j, opp j)} plus, next to walls, the own
  slots that the (inert) wall cells would own: every slot belongs to one cell, so the kernel is
  race-free in place whatever order its programs run in.
- local (even step): cell x reads its own (x, opp k), which now hold the streamed f_k(x) (pushed
  there by x - c_k), or, where hit_k, its own f*_opp(k) put there by the push kernel (plus the moving
  wall's term now), collides and writes f*_k to (x, k): the canonical layout again. No halo.
Wall cells are never written: they keep their populations, as in the A-B step.

Across split faces the push kernel writes what leaves the block into small "ghost" planes (one per
split axis and direction, extended along the earlier split axes like the halo planes, plus one trash
row per tile for masked lanes), and `exchange` carries them to the neighbour, in the reverse axis
order (z, y, x: an edge or corner value travels along the later axis first, then is merged into the
earlier axis' planes), where they are placed into the slots they were pushed to. The sequence per
pair: halo exchange, push kernel, ghost exchange and placement, local kernel: the same two exchanges
per two steps as the A-B kernel.

An odd number of steps: the last step is a push kernel, whose result (f*_j pushed to (x + c_j, opp j))
is turned back into the canonical layout by `unpush`, a pure data movement (no arithmetic, so the bits
do not depend on it) row pair by row pair, through a copy of two rows.

Tiles must divide the block (`inplace_block`): a lane past the lattice's end would alias a real
cell's slots.
"""

from __future__ import annotations

import math
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import pallas as pl

from distlbm.physics import boundaries as bc
from distlbm.physics.fused import _Physics, entering_halos, fused_supports, puller, tile_index, view_c
from distlbm.physics.moments import deviation_moments


def _p2_divisor(n: int, cap: int) -> int:
    """The largest power of two that divides n and is at most cap (at least 1)."""
    b = 1
    while b * 2 <= cap and n % (b * 2) == 0:
        b *= 2
    return b


def inplace_block(shape3, cells: int = 512) -> tuple:
    """Power-of-two tile (B0, B1, B2) of the 3D view that divides it, about `cells` cells, filled along
    the contiguous last axis first (at most 128): 256^3 -> 1x4x128, 400^3 -> 2x16x16."""
    n0, n1, n2 = shape3
    b2 = _p2_divisor(n2, min(cells, 128))
    b1 = _p2_divisor(n1, max(1, cells // b2))
    b0 = _p2_divisor(n0, max(1, cells // (b2 * b1)))
    return (b0, b1, b2)


class InPlace(NamedTuple):
    """The in-place functions on local blocks f: [Q, X, Y(, Z)] (see the module docstring). Two steps are
    push then local; one step is push then unpush."""

    push: Callable  # push(f, cells) -> f: one step, canonical layout -> pushed layout
    local: Callable  # local(f, cells) -> f: one step, pushed layout -> canonical layout
    unpush: Callable  # unpush(f, cells) -> f: no step, pushed layout -> canonical layout (a data movement)


def make_fused_inplace(model, exchange: Callable, *, block=None, num_warps=None, num_stages=None,
                       interpret=None) -> InPlace:
    """The AA-pattern pair of kernels for `model` (see the module docstring).

    f: [Q, X, Y(, Z)] stored deviations (storage dtype), updated in place; cells: stepper.Cells.
    block: the tile of the 3D view (2D lattices: [Q, 1, X, Y]), powers of two that divide the block
    (default `inplace_block`); num_warps/num_stages: Triton's; interpret: Pallas' interpreter (default:
    on any backend that is not a GPU). Raises ValueError for a configuration `fused_supports` refuses
    or a tile that does not divide the block.
    """
    ok, why = fused_supports(model, inplace=True)
    if not ok:
        raise ValueError(f"the in-place fused kernels do not cover this configuration: {why}")
    from jax.experimental.pallas import triton as pltriton

    lat = model.lattice
    feat = model.features
    q, d = lat.q, lat.d
    lead = 3 - d
    c3 = view_c(lat)
    sdt = jnp.dtype(model.dtype)
    phys = _Physics(model)
    opp = np.asarray(lat.opposite)
    walls = bool(feat.walls)
    moving = bool(feat.moving)

    def interp():
        if interpret is not None:
            return bool(interpret)
        return jax.default_backend() not in ("gpu", "cuda", "rocm")

    def tile(n):
        if block is None:
            return inplace_block(n, 4096 if interp() else 512)
        blk = tuple(int(b) for b in block)
        if len(blk) != 3 or any(b < 1 or b & (b - 1) or nb % b for b, nb in zip(blk, n)):
            raise ValueError(f"block = {tuple(block)}: expected three powers of two that divide the block's 3D view "
                             f"{tuple(n)} (in place, a tile past the block's end would alias real cells)")
        return blk

    def store(ref, row, addr, val, mask):
        if mask is None:
            ref[row, addr] = val
        else:
            pltriton.store(ref.at[row, addr], val, mask=jnp.broadcast_to(mask, val.shape))

    def cell_refs(it):
        kind_ref = links_ref = moving_ref = vel_ref = None
        if walls:
            kind_ref, links_ref = next(it), next(it)
            if moving:
                moving_ref, vel_ref = next(it), next(it)
        return kind_ref, links_ref, moving_ref, vel_ref

    def wall_data(refs, cell_off):
        kind_ref, links_ref, moving_ref, vel_ref = refs
        kind = kind_ref[cell_off]
        links = links_ref[cell_off]
        wall = (kind == bc.WALL) | (kind == bc.MOVING_WALL)
        hit = [(links & np.uint32(1 << k)) != 0 for k in range(q)]
        mov = moving_ref[cell_off] if moving else None
        wall_u = tuple(vel_ref[a, cell_off].astype(jnp.float32) for a in range(d)) if moving else None
        return wall, hit, mov, wall_u

    def cell_inputs(cells, ncell):
        if not walls:
            return []
        out = [cells.kind.reshape(ncell), cells.links.reshape(ncell)]
        if moving:
            out += [cells.moving.reshape(ncell), cells.velocity.reshape(d, ncell)]
        return out

    def call(kernel, inputs, ghost_shapes, name, grid):
        """One pallas_call with the populations (first input, [Q, cells]) aliased to the first output."""
        ncell = inputs[0].shape[1]
        params = {}
        if not interp():
            params["compiler_params"] = pltriton.CompilerParams(num_warps=num_warps, num_stages=num_stages)
        nbytes = sum(int(x.size) * x.dtype.itemsize for x in inputs) + q * ncell * sdt.itemsize
        outs = [jax.ShapeDtypeStruct((q, ncell), sdt)] + [jax.ShapeDtypeStruct(s, sdt) for s in ghost_shapes]
        return pl.pallas_call(
            kernel,
            out_shape=outs,
            grid=grid,
            interpret=interp(),
            input_output_aliases={0: 0},
            name=name,
            cost_estimate=pl.CostEstimate(flops=20 * q * ncell, transcendentals=0, bytes_accessed=nbytes),
            **params,
        )(*inputs)

    # ---- the push kernel (odd step) ------------------------------------------------------------------
    def push(f, cells):
        """One step from the canonical layout to the pushed one (module docstring). Returns the pushed
        populations (3D view [Q, N0, N1, N2]) with every value from across a split face in place."""
        n = (1,) * lead + tuple(int(s) for s in f.shape[1:])
        f3 = f.reshape((q,) + n)
        split, got_h = entering_halos(f3, exchange, c3, d)
        blk = tile(n)
        grid = tuple(n[i] // blk[i] for i in range(3))
        ncell = math.prod(n)
        hkeys = sorted(got_h)
        hpops = {k: got_h[k][0] for k in hkeys}
        hdims = {k: tuple(got_h[k][1].shape[1:]) for k in hkeys}
        tcells = math.prod(blk)
        inputs = [f.reshape(q, ncell)]
        if interp():
            inputs.append(lax.optimization_barrier(jnp.asarray(phys.table)))
        for key in hkeys:
            inputs.append(got_h[key][1].reshape(len(hpops[key]), -1))
        inputs += cell_inputs(cells, ncell)
        ghost_shapes = [(len(hpops[k]), math.prod(hdims[k]) + tcells) for k in hkeys]
        kernel = _push_kernel(n, blk, split, hkeys, hpops, hdims)
        out = call(kernel, inputs, ghost_shapes, f"distlbm_fused_aa_push_{lat.name.lower()}", grid)
        g3 = out[0].reshape((q,) + n)
        ghosts = {k: out[1 + i][:, : math.prod(hdims[k])].reshape((len(hpops[k]),) + hdims[k])
                  for i, k in enumerate(hkeys)}
        return place(g3, ghosts, split, hpops, n, cells)

    def _push_kernel(n, blk, split, hkeys, hpops, hdims):
        strides = (n[1] * n[2], n[2], 1)
        interp_mode = interp()

        def kernel(*refs):
            it = iter(refs)
            next(it)  # the aliased input: read through the output, which is the same buffer
            phys.tab = next(it) if interp_mode else None
            h_refs = {key: next(it) for key in hkeys}
            crefs = cell_refs(it)
            f_ref = next(it)
            g_refs = {key: next(it) for key in hkeys}

            idx = tile_index(n, blk)
            cell_off = idx[0] * strides[0] + idx[1] * strides[1] + idx[2]
            pull = puller(f_ref, h_refs, hpops, hdims, idx, n, split, c3)
            fs = [pull(k) for k in range(q)]
            fluid = None
            hit = None
            if walls:
                wall, hit, mov, wall_u = wall_data(crefs, cell_off)
                fluid = ~wall
                # bounced back: the cell's own f*_opp(k), in its own slot (x, opp k)
                back = [pltriton.load(f_ref.at[opp[k], cell_off], mask=hit[k]).astype(jnp.float32) for k in range(q)]
                fs = phys.bounce_back(fs, back, hit, mov, wall_u)
            drho, u = deviation_moments(fs, lat, model.force, model.incompressible)
            out = phys.collide(fs, drho, u)

            lid = None
            for b in range(3):  # the lane's index within the tile (trash rows of the ghost planes)
                shp = [1, 1, 1]
                shp[b] = blk[b]
                t = lax.broadcasted_iota(jnp.int32, tuple(shp), b) * int(math.prod(blk[b + 1:]))
                lid = t if lid is None else lid + t
            for j in range(q):
                val = out[j].astype(sdt)
                push_ok = None if not walls else fluid & ~hit[opp[j]]
                tgt, wrapped, outside = [], [], {}
                for b in range(3):
                    cb = int(c3[j, b])
                    t = idx[b] + cb
                    tgt.append(t)
                    if cb > 0:
                        wrapped.append(jnp.where(t >= n[b], t - n[b], t))
                    elif cb < 0:
                        wrapped.append(jnp.where(t < 0, t + n[b], t))
                    else:
                        wrapped.append(t)
                    if cb and split[b]:
                        outside[b] = (t >= n[b]) if cb > 0 else (t < 0)
                mask = push_ok
                for o in outside.values():
                    mask = ~o if mask is None else mask & ~o
                addr = wrapped[0] * strides[0] + wrapped[1] * strides[1] + wrapped[2]
                store(f_ref, int(opp[j]), addr, val, mask)
                for b, o in outside.items():  # across a split face: the ghost plane of the last such axis
                    mb = o
                    for e, oe in outside.items():
                        if e > b:
                            mb = mb & ~oe
                    if push_ok is not None:
                        mb = mb & push_ok
                    key = (b, int(c3[j, b]))
                    dims = [e for e in range(3) if e != b]
                    hi = [tgt[e] + 1 if (split[e] and e < b) else wrapped[e] for e in dims]
                    hoff = hi[0] * hdims[key][1] + hi[1]
                    gaddr = jnp.where(mb, hoff, math.prod(hdims[key]) + lid)  # masked lanes: their own trash cell
                    store(g_refs[key], hpops[key].index(j), gaddr, val, mb)
                if walls:  # x + c_j is a wall: into the cell's own slot (x, j), where the local step finds it
                    store(f_ref, j, cell_off, val, fluid & hit[opp[j]])

        return kernel

    def place(g3, ghosts, split, hpops, n, cells):
        """Carry the ghost planes to the neighbours (axes in reverse order) and store what arrives into
        the slots it was pushed to. g3: the pushed populations [Q, N0, N1, N2]."""
        if not ghosts:
            return g3
        kind3 = links3 = None
        if walls:
            kind3 = cells.kind.reshape(n)
            links3 = cells.links.reshape(n)
        ghosts = dict(ghosts)
        arrived = {}
        for b in (2, 1, 0):
            if not split[b]:
                continue
            for s in (1, -1):
                key = (b, s)
                r = exchange(ghosts[key], b - lead, s)
                arrived[key] = r
                face = 0 if s > 0 else n[b] - 1
                for e in range(b):  # what goes on across an earlier split axis: into that axis' ghost plane
                    if not split[e]:
                        continue
                    for se in (1, -1):
                        pops = [j for j in hpops[key] if c3[j, e] == se]
                        if not pops:
                            continue
                        src = jnp.stack([r[hpops[key].index(j)] for j in pops])  # [len, dims != b]
                        src = lax.index_in_dim(src, 0 if se < 0 else n[e] + 1, axis=1 + e, keepdims=False)
                        for e2 in range(e + 1, b):  # dims != b, e: e2 sits at 1 + e2 - 1
                            if split[e2]:
                                src = lax.slice_in_dim(src, 1, n[e2] + 1, axis=e2)
                        src = jnp.expand_dims(src, b)  # dims != e: b at 1 + b - 1
                        rows = [hpops[(e, se)].index(j) for j in pops]
                        dst = ghosts[(e, se)]
                        for row, j in zip(rows, pops):
                            start = [row] + [0] * (dst.ndim - 1)
                            start[b] = face
                            dst = lax.dynamic_update_slice(dst, src[pops.index(j)][None].astype(dst.dtype), start)
                        ghosts[(e, se)] = dst
        for (b, s), r in arrived.items():
            face = 0 if s > 0 else n[b] - 1
            for row, j in enumerate(hpops[(b, s)]):
                v = r[row]  # dims != b, extended along the earlier split axes
                lo = [0, 0, 0]
                for e in range(3):
                    if e == b:
                        continue
                    ax = e if e < b else e - 1
                    a0, a1 = (1, n[e] + 1) if (split[e] and e < b) else (0, n[e])
                    # its owner is beyond the face of e too: what was sent here is not its value, which
                    # arrives along e (placed after this, so skipping is for clarity, not order)
                    if split[e] and e < b:
                        if c3[j, e] > 0:
                            a0 += 1
                        elif c3[j, e] < 0:
                            a1 -= 1
                    v = lax.slice_in_dim(v, a0, a1, axis=ax)
                    lo[e] = a0 - (1 if (split[e] and e < b) else 0)
                v = jnp.expand_dims(v, b)
                lo[b] = face
                if 0 in v.shape:
                    continue
                slab = tuple(slice(lo[e], lo[e] + v.shape[e]) for e in range(3))
                cur = g3[(int(opp[j]),) + slab]
                if walls:  # wall cells keep theirs; where x - c_j is a wall the cell pushed nothing
                    keep = bc.is_wall(kind3[slab]) | ((links3[slab] & np.uint32(1 << j)) != 0)
                    v = jnp.where(keep, cur, v)
                g3 = g3.at[(int(opp[j]),) + slab].set(v)
        return g3

    # ---- the local kernel (even step) ----------------------------------------------------------------
    def local(f3, cells):
        n = tuple(f3.shape[1:])
        blk = tile(n)
        grid = tuple(n[i] // blk[i] for i in range(3))
        ncell = math.prod(n)
        inputs = [f3.reshape(q, ncell)]
        if interp():
            inputs.append(lax.optimization_barrier(jnp.asarray(phys.table)))
        inputs += cell_inputs(cells, ncell)
        kernel = _local_kernel(n, blk)
        out = call(kernel, inputs, [], f"distlbm_fused_aa_local_{lat.name.lower()}", grid)
        return out[0]

    def _local_kernel(n, blk):
        strides = (n[1] * n[2], n[2], 1)
        interp_mode = interp()

        def kernel(*refs):
            it = iter(refs)
            next(it)
            phys.tab = next(it) if interp_mode else None
            crefs = cell_refs(it)
            f_ref = next(it)
            idx = tile_index(n, blk)
            cell_off = idx[0] * strides[0] + idx[1] * strides[1] + idx[2]
            fs = [f_ref[int(opp[k]), cell_off].astype(jnp.float32) for k in range(q)]  # streamed f_k in (x, opp k)
            fluid = None
            if walls:
                wall, hit, mov, wall_u = wall_data(crefs, cell_off)
                fluid = ~wall
                if moving:  # (x, opp k) already holds f*_opp(k) where hit_k: add the moving wall's term
                    fs = phys.bounce_back(fs, fs, hit, mov, wall_u)
            drho, u = deviation_moments(fs, lat, model.force, model.incompressible)
            out = phys.collide(fs, drho, u)
            for k in range(q):
                store(f_ref, k, cell_off, out[k].astype(sdt), fluid)

        return kernel

    # ---- the canonical layout after an odd step ------------------------------------------------------
    def unpush(g3, cells):
        """Canonical f*_k(x) from the pushed layout: (x + c_k, opp k), or (x, k) where x + c_k is a wall
        (and wall cells' own values). Row pair by row pair: the pair (k, opp k) is copied out (2 rows) and a
        small kernel, aliased to the population array, pulls from that copy into rows k and opp k, so that
        no second population array exists (XLA copies the whole array where it shifts rows of the array
        it updates)."""
        n = tuple(g3.shape[1:])
        blk = tile(n)
        grid = tuple(n[i] // blk[i] for i in range(3))
        ncell = math.prod(n)
        extra = []
        if walls:
            extra = [cells.kind.reshape(ncell), cells.links.reshape(ncell)]
        for k in range(q):
            o = int(opp[k])
            if o <= k:
                continue  # each pair once; the rest population stays where it is
            rows = jnp.stack([g3[k], g3[o]])
            pc3 = c3[[k, o]]
            split, got_h = entering_halos(rows, exchange, pc3, d)
            hkeys = sorted(got_h)
            hpops = {key: got_h[key][0] for key in hkeys}
            hdims = {key: tuple(got_h[key][1].shape[1:]) for key in hkeys}
            inputs = [g3.reshape(q, ncell), rows.reshape(2, ncell)]
            inputs += [got_h[key][1].reshape(len(hpops[key]), -1) for key in hkeys] + extra
            kernel = _unpush_kernel(n, blk, split, hkeys, hpops, hdims, pc3, k, o)
            g3 = call(kernel, inputs, [], f"distlbm_fused_aa_unpush_{lat.name.lower()}", grid)[0].reshape(g3.shape)
        return g3

    def _unpush_kernel(n, blk, split, hkeys, hpops, hdims, pc3, k, o):
        strides = (n[1] * n[2], n[2], 1)

        def kernel(*refs):
            it = iter(refs)
            next(it)  # the population array, aliased to the output: only rows k and opp k are written
            r_ref = next(it)  # [2, cells]: a copy of rows k and opp k of the pushed layout
            h_refs = {key: next(it) for key in hkeys}
            kind_ref = links_ref = None
            if walls:
                kind_ref, links_ref = next(it), next(it)
            f_ref = next(it)
            idx = tile_index(n, blk)
            cell_off = idx[0] * strides[0] + idx[1] * strides[1] + idx[2]
            pull = puller(r_ref, h_refs, hpops, hdims, idx, n, split, pc3)
            new_k = pull(1).astype(sdt)  # (x + c_k, opp k): row opp k pulled by c_opp(k)
            new_o = pull(0).astype(sdt)
            if walls:
                kind = kind_ref[cell_off]
                links = links_ref[cell_off]
                wall = (kind == bc.WALL) | (kind == bc.MOVING_WALL)
                new_k = jnp.where(wall | ((links & np.uint32(1 << o)) != 0), r_ref[0, cell_off], new_k)
                new_o = jnp.where(wall | ((links & np.uint32(1 << k)) != 0), r_ref[1, cell_off], new_o)
            f_ref[k, cell_off] = new_k
            f_ref[o, cell_off] = new_o

        return kernel

    def push_step(f, cells):
        return push(f, cells).reshape(f.shape)

    def local_step(f, cells):
        n = (1,) * lead + tuple(int(s) for s in f.shape[1:])
        return local(f.reshape((q,) + n), cells).reshape(f.shape)

    def unpush_step(f, cells):
        n = (1,) * lead + tuple(int(s) for s in f.shape[1:])
        return unpush(f.reshape((q,) + n), cells).reshape(f.shape)

    return InPlace(push_step, local_step, unpush_step)
