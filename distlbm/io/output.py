"""Field output on a schedule: one HDF5 file per output step under DIR/fields/, an XDMF time series
in DIR, and optional PNG slices; or, when the output spec asks for light output, only a sub-box
(every k-th cell of it) and planes of the lattice, each its own series DIR/<name>.xdmf with its files
under DIR/<name>/.

A light output is cut on the devices: each process cuts its own blocks of the global field to the part
that falls in the sub-box or plane (a small strided slice of each device block, on its device) and
writes only that, through the same hdf5.write paths as the whole fields; a process whose blocks miss
the plane writes nothing. The lattice is never gathered, and the values are those of the whole field
(bit for bit, on any mesh and process count)."""

from __future__ import annotations

import math
import re
import os
import time
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from distlbm.io import hdf5, xdmf
from distlbm.io.files import WriteError, check_target, make_folder, reason, remove_stale
from distlbm.parallel.domain import slabs
from distlbm.stepper import macroscopic


def _device_blocks(domain, x):
    """(spatial index, block [..., *block shape] on its device) of the distinct blocks of the global
    array x that this process holds, not copied to the host."""
    d = len(domain.shape)
    if tuple(x.shape[x.ndim - d:]) != tuple(domain.shape):  # MPIDomain: x is this rank's block
        yield tuple(domain.index), x
        return
    if not hasattr(x, "addressable_shards"):
        yield tuple(slice(0, n) for n in domain.shape), x
        return
    seen = set()
    for shard in x.addressable_shards:
        sp = tuple(slice(*sl.indices(n)[:2]) for sl, n in zip(shard.index[x.ndim - d:], domain.shape))
        key = tuple((sl.start, sl.stop) for sl in sp)
        if key not in seen:
            seen.add(key)
            yield sp, shard.data


def _cut_axis(lo: int, hi: int, start: int, stop: int, step: int):
    """For a block holding global cells lo..hi-1 along one axis: (slice of the block, slice of the
    output) of the cells start, start + step, ... < stop that it holds, or None if it holds none."""
    first = -(-max(lo - start, 0) // step)  # first output index at or after the block's start
    end = -(-(min(hi, stop) - start) // step)  # one past the last output index before the block's end
    if first >= end:
        return None
    g0 = start + first * step
    return slice(g0 - lo, g0 - lo + (end - first - 1) * step + 1, step), slice(first, end)


class _Shard(NamedTuple):
    index: tuple
    data: object


class CutArray:
    """The part `cut` (config.Cut) of a global lattice array source [*lead, *shape], as hdf5.write sees it:
    shape [*lead, *cut.shape]; each of this process's blocks that holds part of the cut is sliced to that
    part on its device when written. fn: a pointwise function applied to each sliced part on its device
    (e.g. the moments of the populations: the fields of the cut cells only), giving [*out_lead, ...] of
    `dtype`; or of_piece(block, slices) -> that part, for a field that is not pointwise (the vorticity)."""

    def __init__(self, source, cut, domain, fn=None, out_lead=None, dtype=None, of_piece=None):
        d = len(domain.shape)
        self.fn = fn
        self.of_piece = of_piece
        self.dtype = np.dtype(dtype or source.dtype)
        lead = tuple(source.shape[: source.ndim - d]) if out_lead is None else tuple(out_lead)
        self.shape = lead + tuple(cut.shape)
        self.ndim = len(self.shape)
        lead = (slice(None),) * (source.ndim - d)
        self.pieces = []  # (block on its device, its slices, the output index)
        for index, block in _device_blocks(domain, source):
            parts = [_cut_axis(sl.start, sl.stop, a, b, k) for sl, a, b, k in zip(index, cut.start, cut.stop, cut.step)]
            if all(p is not None for p in parts):
                self.pieces.append((block, lead + tuple(p[0] for p in parts), tuple(p[1] for p in parts)))

    @property
    def addressable_shards(self):
        """This process's pieces (index in the cut, shape): what hdf5.write counts the bytes of."""
        return [_Shard(out, jax.ShapeDtypeStruct(self.shape[: self.ndim - len(out)]
                                                 + tuple(sl.stop - sl.start for sl in out), self.dtype))
                for _, _, out in self.pieces]


def output_bytes(spec, shape, q: int, dtype: str, compute_dtype: str, dx: float = 1.0, origin=None,
                 kind: bool = True) -> int:
    """The data one field output of `spec` (config.OutputSpec) writes on a lattice of `shape`: its fields over the
    whole lattice or over its cuts (a sub-box, a stride, slices); rho, u and vorticity in `compute_dtype`, the `q`
    populations in their storage `dtype` (bfloat16 written as float32), the cell kinds one byte where the case has
    them (`kind`), and with a time average (average_every) rho_mean, u_mean (and uu_mean). HDF5's own few KB are
    left out; an output before the average's first sample (average_from) is that much smaller."""
    from distlbm.memory import average_values, itemsize

    d = len(shape)
    cdt = itemsize(compute_dtype)
    per_cell = {"rho": cdt, "u": d * cdt, "vorticity": cdt, "kind": 1 if kind else 0,
                "populations": q * (4 if str(dtype) == "bfloat16" else itemsize(dtype))}
    cuts = spec.cuts(shape, dx, origin)
    cells = sum(math.prod(c.shape) for c in cuts) if cuts else math.prod(shape)
    return cells * (sum(per_cell[name] for name in spec.fields) + average_values(spec, d) * cdt)


def outputs_between(spec, start: int, end: int, dt: float = 1.0) -> int:
    """The field outputs a run from step `start` to `end` writes on the schedules of `spec`: those of step 0 (a new
    run) and of the multiples of output_every / output_interval after `start` up to `end`, and of the end step
    (written whether or not a schedule falls there); a step due on both is written once (counted once; where the
    time schedule has more than 10^7 outputs, twice: at most this many)."""
    n = 0
    every = spec.output_every
    on_end = False  # a schedule falls on the end step
    if every:
        n += max(0, end // every - start // every)
        on_end = end % every == 0
    if spec.output_interval and dt > 0:
        k = spec.output_interval / dt  # steps per output, as schedules.TimeInterval places them
        first, last = math.floor(start / k + 1e-9) + 1, math.floor(end / k + 1e-9)
        n += max(0, last - first + 1)
        on_end = on_end or (last >= first and math.ceil(last * k - 1e-9) == end)
        if every and 0 < last - first + 1 <= 10 ** 7:  # the steps due on both schedules
            steps = np.ceil(np.arange(first, last + 1, dtype=np.float64) * k - 1e-9)
            n -= int(np.count_nonzero(steps % every == 0))
    if not (spec.output_every or spec.output_interval):
        return 0
    return n + (1 if start == 0 else 0) + (1 if end > start and not on_end else 0)


def space_warning(each: int, count: int, checkpoints: int, free: int, where) -> str | None:
    """The warning for a run whose `count` field outputs of `each` bytes and the checkpoints it keeps
    (`checkpoints` bytes) need more than the `free` bytes of the file system at `where`; None where they fit."""
    from distlbm.io.files import size_text, space_needed

    total = each * count
    # as each write checks it (io.hdf5.write): the output's allowance, and the checkpoints' room kept free
    margin = space_needed(each) - each
    if count == 0 or free >= total + margin + checkpoints:
        return None
    room = max(0, int((free - checkpoints - margin) // max(each, 1)))
    return (f"the field outputs of this run need about {size_text(total)} ({count} of {size_text(each)}) beside "
            f"the checkpoints kept, {size_text(checkpoints)}; {size_text(free)} free in {where}: room for about "
            f"{room} of the {count} outputs; then they fail, and max_failed_writes failed writes in a row stop the run "
            f"with exit 74; write less (output_region, output_stride, output_slices, fewer output_fields, a longer "
            f"output_every) or free space")


PIECE_BYTES = 16 << 20  # populations per computation of the whole fields' moments and vorticity (piece by piece)


class _PlanesBlock:
    """A field of one device block of the populations f [Q, *block] that is formed where it is read: as
    `parallel.domain.slabs` reads a block (shape, dtype and x-slabs by indexing), each slab is computed then,
    on the block's device, in pieces of at most PIECE_BYTES of populations: compute(x0, n) -> the field on
    the planes x0 .. x0 + n - 1 ([*lead, n, ...]; n is one length per block shape, compiled once: the last
    piece of a slab starts early, within the block, and keeps its own planes; before, each shorter last piece
    was one more program, on every process), times `scale` if given. Over the whole block rho and u were
    16 B/cell of float32 beside the populations (320^3 D3Q19 peaked 0.9 GB higher with field output than
    without) and |curl u| 4 B/cell."""

    def __init__(self, f, lead: tuple, compute, dtype, scale=None):
        self.f, self.compute, self.scale = f, compute, scale
        self.dtype = np.dtype(dtype)
        self.lead = tuple(lead)
        self.shape = self.lead + tuple(f.shape[1:])
        self.ndim = len(self.shape)
        self.size = int(np.prod(self.shape))

    def __getitem__(self, index):
        """index: (Ellipsis, slice(i, j), slice(None), ...): the planes i .. j-1 along x, as a NumPy array."""
        if not (isinstance(index, tuple) and index and index[0] is Ellipsis and isinstance(index[1], slice)):
            raise TypeError(f"{type(self).__name__}: expected (Ellipsis, slice along x, ...), got {index!r}")
        i, j, _ = index[1].indices(self.f.shape[1])
        nx = self.f.shape[1]
        per_x = self.f.size // nx * self.f.dtype.itemsize
        n = max(1, min(nx, PIECE_BYTES // max(per_x, 1)))
        rest = (slice(None),) * (self.f.ndim - 2)
        out = np.empty(self.lead + (j - i,) + tuple(self.f.shape[2:]), self.dtype)
        for a in range(i, j, n):
            b = min(j, a + n)
            x0 = min(a, nx - n)  # a whole piece of n planes that holds a .. b - 1 (the same values per plane)
            m = np.asarray(self.compute(np.int32(x0), n))[(Ellipsis, slice(a - x0, b - x0)) + rest]
            if self.scale is not None:  # on the host: on the device, each field's multiply was a program of its
                m = m * np.asarray(self.scale, m.dtype)  # own (the same rounding: the scale in the field's dtype)
            out[(Ellipsis, slice(a - i, b - i)) + rest] = m
        return out


class _PlanesField:
    """A field of the populations f as a global array for hdf5.write: shape, dtype and this process's blocks
    (`addressable_shards`) [*lead, *block], each a _PlanesBlock computed by compute_of(f_block)(x0, n)."""

    def __init__(self, f, domain, lead: tuple, compute_of, dtype, scale=None):
        d = len(domain.shape)
        self.dtype = np.dtype(dtype)
        self._blocks = [(index, _PlanesBlock(fb, lead, compute_of(fb), dtype, scale))
                        for index, fb in _device_blocks(domain, f)]
        self.shape = tuple(lead) + tuple(f.shape[1:])
        self.ndim = len(self.shape)
        self.size = int(np.prod(self.shape))
        lead = (slice(None),) * (self.ndim - d)
        self.addressable_shards = [_Shard(lead + tuple(index), b) for index, b in self._blocks]

    def __getitem__(self, index):  # the whole lattice in one block (one device, or this MPI rank's block)
        if len(self._blocks) != 1:
            raise TypeError(f"{type(self).__name__}: on a mesh, index its blocks (addressable_shards)")
        return self._blocks[0][1][index]


class MomentField(_PlanesField):
    """rho (k = 0) or u (k = 1, times `scale` if given) of the populations f as a global array for hdf5.write,
    formed piece by piece as it is written (moment(f_block, x0, n): that moment of those planes). The same
    pointwise arithmetic as `macroscopic` on the whole lattice, so the same bits."""

    def __init__(self, f, domain, k, moment, dtype, scale=None):
        d = len(domain.shape)
        super().__init__(f, domain, (d,) if k else (), lambda fb: lambda x0, n: moment(fb, x0, n), dtype, scale)


class VorticityField(_PlanesField):
    """|curl u| (times `scale` if given) of the populations f as a global array for hdf5.write, formed piece by
    piece as it is written: halo = the neighbours' face planes of u of every block (global arrays, from the
    halo exchange) and planes(f_block, halo_block, x0, n) (RunView.vorticity_pieces). Each block takes the
    halo planes held on its own device, so on any mesh and process count the values are those of the whole
    lattice's u differenced periodically (the same bits as RunView.vorticity)."""

    def __init__(self, f, domain, halo, planes, dtype, scale=None):
        def compute_of(fb):
            hb = _halo_of(halo, fb)
            return lambda x0, n: planes(fb, hb, x0, n)

        super().__init__(f, domain, (), compute_of, dtype, scale)


class CutVorticity:
    """|curl u| (times `scale` if given) of the cells of a cut (a light output), for CutArray's of_piece: each
    block's part of the cut from the planes along x that hold its cells, PIECE_BYTES of populations at a time
    (one compiled size), so that neither the block's nor the lattice's |curl u| is formed (before: the whole
    lattice's, 4 B/cell, for one plane). halo, planes: RunView.vorticity_pieces. The same bits as the whole
    field's, cut."""

    def __init__(self, halo, planes, scale=None):
        self.halo, self.planes, self.scale = halo, planes, scale

    def __call__(self, fb, local):
        """local: the block's slices of the cut [Q slice, x slice (strided), other spatial slices]."""
        hb = _halo_of(self.halo, fb)
        nx = fb.shape[1]
        sx, rest = local[1], tuple(local[2:])
        xs = range(*sx.indices(nx))
        n = max(1, min(nx, PIECE_BYTES // max(fb.size // nx * fb.dtype.itemsize, 1)))
        parts, i = [], 0
        while i < len(xs):
            x0 = min(xs[i], nx - n)  # a whole piece of n planes that starts at or before the first cell left
            j = i
            while j < len(xs) and xs[j] < x0 + n:
                j += 1
            w = self.planes(fb, hb, np.int32(x0), n)
            parts.append(w[(slice(xs[i] - x0, xs[j - 1] - x0 + 1, sx.step or 1),) + rest])
            i = j
        part = parts[0] if len(parts) == 1 else jnp.concatenate(parts, axis=0)
        return part if self.scale is None else part * self.scale


class MeanPart(NamedTuple):
    """One field of the time average view.mean [values, ...]: its rows lo .. hi - 1 (hi None: row lo alone, a
    scalar), written as `name` with XDMF type `kind`; in physical units times the velocity scale to `power`."""

    name: str
    lo: int
    hi: int | None
    power: int
    kind: str

    @property
    def lead(self) -> tuple:
        return () if self.hi is None else (self.hi - self.lo,)

    def scale(self, u_scale):
        return None if not self.power or u_scale is None else u_scale ** self.power

    def rows(self, m):
        return m[self.lo] if self.hi is None else m[self.lo:self.hi]

    def of(self, u_scale=None):
        """The part of a cut piece of the average (times the velocity scale where given)."""
        s = self.scale(u_scale)
        return self.rows if s is None else (lambda m: self.rows(m) * s)


def mean_parts(d: int, values: int) -> list:
    """The fields of a time average of `values` rows per cell: rho_mean, u_mean and, where it holds them
    (average_stresses), uu_mean, the means of u_i u_j (i <= j: xx, xy, xz, yy, yz, zz; 2D: xx, xy, yy; in 3D
    XDMF's Tensor6)."""
    parts = [MeanPart("rho_mean", 0, None, 0, "Scalar"), MeanPart("u_mean", 1, 1 + d, 1, "Vector")]
    if values > 1 + d:
        parts.append(MeanPart("uu_mean", 1 + d, values, 2, "Tensor6" if d == 3 else "Vector"))
    return parts


def _halo_of(halo, fb):
    """The halo planes (vorticity_halo's, global arrays) held on the device of the block fb."""
    (device,) = fb.devices()
    return jax.tree_util.tree_map(lambda h: _on_device(h, device), halo)


def _on_device(x, device):
    """The shard of the global array x held on `device` (x itself where it is that device's whole array)."""
    for shard in x.addressable_shards:
        if shard.device == device:
            return shard.data
    raise ValueError(f"no shard of an array of shape {x.shape} on {device}")


class CutDomain:
    """The domain of a cut for hdf5.write: the cut's shape, the run's processes, and blocks() yielding
    this process's pieces of a CutArray (host slabs of bounded size). Processes hold uneven numbers of
    pieces (none, where a plane misses all of a process's blocks): the MPI-IO path writes them
    independently."""

    mesh_shape: tuple = ()
    uneven = True

    def __init__(self, domain, cut):
        self.domain = domain
        self.shape = tuple(cut.shape)
        self.process_index = domain.process_index
        self.process_count = domain.process_count

    def barrier(self):
        self.domain.barrier()

    def any_process(self, flag: bool) -> bool:
        return self.domain.any_process(flag)

    def allgather_obj(self, obj) -> list:
        return self.domain.allgather_obj(obj)

    def blocks(self, x: CutArray):
        for block, local, out in x.pieces:
            if x.of_piece is not None:
                yield from slabs(x.of_piece(block, local), out)
                continue
            part = block[local]
            yield from slabs(part if x.fn is None else x.fn(part), out)



# the order of the quantities in an XDMF grid: one order for every output, whether its index entry is the run's own or
# one a restart read back from a checkpoint (sorted JSON: a restarted series listed rho, rho_mean, u, ... where the
# run that was not stopped listed rho, u, vorticity, rho_mean, ...)
XDMF_ORDER = ("rho", "u", "vorticity", "kind", "rho_mean", "u_mean", "uu_mean")


def _xdmf_entry(e) -> dict:
    """The XDMF entry (write_xdmf's) of an output index entry."""
    names = sorted(e["fields"], key=lambda k: (XDMF_ORDER.index(k) if k in XDMF_ORDER else len(XDMF_ORDER), k))
    x = {"file": e["file"], "time": e["time"], "step": e["step"],
         "fields": {k: (tuple(e["fields"][k][0]), e["fields"][k][1], e["fields"][k][2]) for k in names}}
    grid, shape = e.get("grid"), e.get("shape")
    if isinstance(grid, str) and GRID_NAME.fullmatch(grid) and isinstance(shape, list) \
            and all(isinstance(n, int) and n > 0 for n in shape):
        x["grid"], x["shape"] = grid, tuple(shape)
    return x


def _series(index, memo: dict | None = None) -> list:
    """XDMF entries (config dims as tuples) of an output index, in step order, each with its own grid where it
    records one (`_grid_of`). memo: kept by the caller, one per series, so that each entry is converted once (it was
    9 ms per output at 2,000 outputs, all converted again each time), and an index that only grew by outputs after
    its newest (a run's next output) is not gone through again: its entries and XDMF entries as last given
    ("entries", "out"; 46 ms per output at 30,000 outputs before); the index's entries are never changed in place
    (a rewritten output is a new entry)."""
    if memo is not None and memo.get("entries") is not None:
        prev, out = memo["entries"], memo["out"]
        n = len(prev)
        new = index[n:]
        if len(index) >= n and index[:n] == prev:
            steps = [e["step"] for e in new]
            last = prev[-1]["step"] if prev else None
            if all(a < b for a, b in zip(steps, steps[1:])) and (last is None or not steps or last <= steps[0]):
                out = out + [_xdmf_entry(e) for e in new]
                memo["entries"], memo["out"] = list(index), out
                return out
    known = memo.get("ids", {}) if memo is not None else {}
    out, seen = [], {}
    for e in sorted(index, key=lambda e: e["step"]):
        hit = known.get(id(e))
        x = hit[1] if hit is not None and hit[0] is e else _xdmf_entry(e)
        out.append(x)
        seen[id(e)] = (e, x)
    if memo is not None:  # (only the index's entries: one gone may not pass its id on)
        in_order = all(a["step"] <= b["step"] for a, b in zip(index, index[1:]))
        memo.clear()
        memo.update(ids=seen, entries=list(index) if in_order else None, out=out)
    return out


# the grid files of a series: grid.h5, or grid_<first step>.h5 once a restart changed what the grid is
GRID_NAME = re.compile(r"([A-Za-z0-9_]+/)?grid(_\d{9,10})?\.h5")


def _grid_of(index, step: int, key, folder: str = "") -> str:
    """The grid file of a series' output at `step` whose grid is `key` (the units, and a cut's cells): that of
    the series' latest earlier output when it was written on the same grid (or records none: a version before
    the key), else a new one named by this step. Before, a restart that changed output_units, output_region or
    output_stride rewrote the one grid file, and ParaView drew the earlier outputs on the new grid, their
    values at the wrong places."""
    earlier = [e for e in index if e["step"] < step]
    if not earlier:
        return f"{folder}grid.h5"
    return _grid_after(max(earlier, key=lambda e: e["step"]), step, key, folder)


def _grid_after(last: dict, step: int, key, folder: str = "") -> str:
    """_grid_of where `last` is the series' latest output before `step`."""
    default = f"{folder}grid.h5"
    grid = last.get("grid")
    if "grid_key" not in last or not (isinstance(grid, str) and GRID_NAME.fullmatch(grid)):
        return default
    return grid if last["grid_key"] == key else f"{folder}grid_{step:09d}.h5"


class FieldOutput:
    """Writes the fields an output spec (config.OutputSpec) asks for, from a run's view: the whole fields,
    or the spec's light outputs (its sub-box and slices). `index` lists the whole-field outputs written
    and `light_index` the light ones (for the XDMF time series; both kept in checkpoints)."""

    def __init__(self, spec, case_name: str, index=None, light_index=None):
        self.spec = spec
        self.names = list(spec.fields)
        self.units = spec.output_units
        self.images = bool(spec.output_images)
        self.case_name = case_name
        self.index = list(index or [])
        self.light_index = list(light_index or [])
        self._memo = {}  # _series' memo of each series: "" the whole fields', a cut's name its own
        self._books = None  # each series' entries, steps and newest entry (_book)
        self._books_of = (None, None)  # the index and light index lists the books were made of
        self._macro = None  # the moments of a cut's populations (compiled on first use)
        self._planes = None  # rho and u of some planes of a block (the whole fields, piece by piece)
        self._mean_planes = {}  # the same of the time average's fields (view.mean), by name
        self._speed = None  # |u| of populations (images)
        self._last = None
        self._grids = set()  # the grid files written by this run
        self.seconds = 0.0  # wall time spent writing (all outputs of this run)
        self.keep_free = 0  # bytes each write leaves free (one checkpoint's: the driver sets it)
        self.count = 0

    def written(self, step: int) -> bool:
        """Whether this output wrote `step` last (two schedules due at one step write once)."""
        return self._last == step

    def write(self, view):
        t0 = time.perf_counter()
        dom = view.domain
        step = view.step
        directory = view.out_dir
        units = view.setup.units
        dt, dx = units.get("dt", 1.0), units.get("dx", 1.0)
        time_ = step * dt
        phys = self.units == "physical"
        cuts = self.spec.cuts(dom.shape, dx or 1.0, units.get("origin"))
        rho = u = None  # the light outputs need the moments of their own cells only
        if not cuts:
            # the whole fields: each block's moments formed piece by piece as they are written
            if not self._planes:
                model = view.model
                field = view.force_field

                # one program gives both moments of a piece, and each field takes its own: a program per field
                # was one more compile on every process (minutes on a large lattice) for a sum over Q that u's
                # program forms anyway
                if field is None:
                    both = jax.jit(lambda f, x0, n: macroscopic(jax.lax.dynamic_slice_in_dim(f, x0, n, axis=1),
                                                                model), static_argnums=2)
                else:  # the block's per-cell force, from the shard on the block's device
                    fn = jax.jit(lambda f, F, x0, n: macroscopic(jax.lax.dynamic_slice_in_dim(f, x0, n, axis=1), model,
                                                                 jax.lax.dynamic_slice_in_dim(F, x0, n, axis=1)),
                                 static_argnums=3)

                    def both(fb, x0, n):
                        return fn(fb, _halo_of(field, fb), x0, n)
                self._planes = [lambda fb, x0, n: both(fb, x0, n)[0], lambda fb, x0, n: both(fb, x0, n)[1]]
            cdt = view.model.compute_dtype
            rho = MomentField(view.state.f, dom, 0, self._planes[0], cdt)
            u = MomentField(view.state.f, dom, 1, self._planes[1], cdt, (dx / dt) if phys else None)
        fields, meta = [], {}
        d = len(dom.shape)
        for name in self.names:
            if name == "rho":
                fields.append(hdf5.Field("rho", rho, "scalar"))
                meta["rho"] = ((), np.dtype(view.model.compute_dtype), "Scalar")
            elif name == "u":
                fields.append(hdf5.Field("u", u, "vector"))
                meta["u"] = ((d,), np.dtype(view.model.compute_dtype), "Vector")
            elif name == "vorticity":
                # per cell (lattice units); in physical units per second (1/dt), formed piece by piece as
                # it is written: the whole field's, or each light output's cells only
                scale = (1.0 / dt) if phys else None
                cdt = np.dtype(view.model.compute_dtype)
                halo, planes = view.vorticity_pieces()
                if cuts:  # each cut's cells from the planes that hold them (_write_cut)
                    w = CutVorticity(halo, planes, scale)
                else:
                    w = VorticityField(view.state.f, dom, halo, planes, cdt, scale)
                fields.append(hdf5.Field("vorticity", w, "scalar"))
                meta["vorticity"] = ((), cdt, "Scalar")
            elif name == "populations":
                # bfloat16 has no HDF5 type: written as float32 (exact) so that any reader can use it
                f = view.state.f
                fields.append(hdf5.Field("populations", f, "leading", "float32" if f.dtype == jnp.bfloat16 else None))
            elif name == "kind" and view.kind is not None:
                fields.append(hdf5.Field("kind", view.kind, "scalar"))
                meta["kind"] = ((), np.uint8, "Scalar")
        if view.mean is not None:  # the time average so far: rho_mean, u_mean(, uu_mean) (output average_every)
            cdt = np.dtype(view.model.compute_dtype)
            for part in mean_parts(d, view.mean.shape[0]):
                if cuts:  # each cut's cells of the average (_write_cut)
                    arr = part
                else:
                    arr = _PlanesField(view.mean, dom, part.lead, self._mean_planes_of(part), cdt,
                                       part.scale(dx / dt) if phys else None)
                fields.append(hdf5.Field(part.name, arr, "vector" if part.lead else "scalar"))
                meta[part.name] = (part.lead, cdt, part.kind)
        attrs = {"step": step, "time": time_, "units": self.units, "lattice": view.model.lattice.name,
                 "dx": dx, "dt": dt, "case": self.case_name,
                 # the time is step * dt in either units (the XDMF series' time too)
                 "time_units": "s (step * dt)" if "dt" in units else "steps (dt = 1)",
                 "velocity_units": "m/s (dx/dt)" if phys else "lattice (dx/dt = 1)",
                 "vorticity_units": "1/s (1/dt)" if phys else "lattice (1/dt = 1)",
                 # rho (rho_mean) is not scaled by the physical units: say so, rather than leave kg/m^3 to be guessed
                 "rho_units": "1 (density over the reference density)"}
        if "populations" in self.names:  # as stored: what to add to get f, and the order of the directions
            lat = view.model.lattice
            attrs.update(populations_stored="f_i - w_i: each population's deviation from its rest-state weight "
                                            "(f_i = populations[i] + lattice_w[i]; rho = 1 + sum_i populations[i]), "
                                            "post-collision, i along lattice_c",
                         lattice_c=np.asarray(lat.c, np.int64), lattice_w=np.asarray(lat.w, np.float64))
        if "kind" in self.names and view.kind is not None:  # what its codes mean (documented nowhere a user read)
            from distlbm.physics.boundaries import KIND_NAMES

            attrs.update(kind_codes="; ".join(f"{k} {v}" for k, v in sorted(KIND_NAMES.items())))
        if view.mean is not None:  # over how many samples, from which step, every how many steps
            attrs.update(average_samples=int(view.mean_samples), average_from=int(self.spec.average_from),
                         average_every=int(self.spec.average_every))
            if view.mean.shape[0] > 1 + d:  # uu_mean: the means of u_i u_j, the velocity's unit squared
                attrs.update(stress_units="m^2/s^2 ((dx/dt)^2)" if phys else "lattice ((dx/dt)^2 = 1)")
            if view.mean_first is not None:  # where the mean begins: after average_from where a restart started it
                attrs.update(average_first_step=int(view.mean_first))  # again (another cadence)
        if cuts:
            written = [self._write_cut(view, cut, fields, meta, attrs, step, time_, dx / dt if phys else None)
                       for cut in cuts]
        else:
            written = [self._write_whole(view, fields, meta, attrs, step, time_)]
        self._last = step
        if self.images:
            self._image(view, step, dx / dt if phys else None)
        self.seconds += time.perf_counter() - t0
        self.count += 1
        view.log(f"output: {', '.join(str(directory / rel) for rel in written)} ({time.perf_counter() - t0:.2f} s)")

    def _mean_planes_of(self, part: MeanPart):
        """compute_of(block) -> (x0, n) -> the rows of `part` of the planes x0 .. x0 + n - 1 of a block of the
        time average (compiled once per part)."""
        if part.name not in self._mean_planes:
            def of(m, x0, n):
                return part.rows(jax.lax.dynamic_slice_in_dim(m, x0, n, axis=1))

            self._mean_planes[part.name] = jax.jit(of, static_argnums=2)
        fn = self._mean_planes[part.name]
        return lambda fb: lambda x0, n: fn(fb, x0, n)

    def _write_whole(self, view, fields, meta, attrs, step, time_) -> str:
        dom, directory = view.domain, view.out_dir
        dx = attrs["dx"]
        rel = f"fields/fields_{step:09d}.h5"
        hdf5.write(directory / rel, fields, dom, attrs=attrs, keep_free=self.keep_free,
                   held=getattr(view, "held", None))  # (fields/ below the run's folder, never that folder again)
        book = self._book("", step)
        key = [self.units]
        grid = _grid_after(book["newest"], step, key) if book["after"] else _grid_of(book["entries"], step, key)
        self._add(book, {"step": step, "time": time_, "file": rel,
                         "fields": {k: [list(dom.shape + v[0]), str(np.dtype(v[1])), v[2]] for k, v in meta.items()},
                         "grid": grid, "grid_key": key, "shape": list(dom.shape)})
        if dom.process_index == 0:
            if grid not in self._grids:  # written once per run and grid
                phys = self.units == "physical"  # the grid's nodes where the case places its cells (its origin)
                xdmf.write_grid(directory / grid, dom.shape, spacing=dx if phys else 1.0,
                                origin=view.setup.units.get("origin") if phys else None)
                self._grids.add(grid)
            xdmf.write_xdmf(directory / "fields.xdmf", dom.shape, grid,
                            _series(book["entries"], self._memo.setdefault("", {})))
        return rel

    def _book(self, series: str, step: int) -> dict:
        """The outputs of `series` ("": the whole fields', else a cut's name) before one at `step` is added, with
        any earlier output of that step taken out of the index: {"entries": in index order, "steps", "newest" (the
        entry of the latest step), "after": whether `step` comes after every one}. Kept between outputs, so that
        an output after the series' newest costs the same at the 30,000th output as at the first (going through
        the whole index for each output took 67 ms per output at 30,000 outputs, every light output's cut
        going through all the cuts' entries)."""
        books = self._books
        if books is None or self._books_of[0] is not self.index or self._books_of[1] is not self.light_index \
                or sum(len(b["entries"]) for b in books.values()) != len(self.index) + len(self.light_index):
            # (first use, or an index set from outside, even one as long as the last: gone through once)
            books = self._books = {}
            for e in self.index:
                books.setdefault("", self._new_book())["entries"].append(e)
            for e in self.light_index:
                books.setdefault(e["series"], self._new_book())["entries"].append(e)
            for b in books.values():
                b["steps"] = {e["step"] for e in b["entries"]}
                b["newest"] = max(b["entries"], key=lambda e: e["step"])
            self._books_of = (self.index, self.light_index)
        book = books.setdefault(series, self._new_book())
        if step in book["steps"]:  # written again (a restart's first output at a step the index holds)
            if series:
                self.light_index = [e for e in self.light_index if (e["series"], e["step"]) != (series, step)]
            else:
                self.index = [e for e in self.index if e["step"] != step]
            book["entries"] = [e for e in book["entries"] if e["step"] != step]
            book["steps"].discard(step)
            book["newest"] = max(book["entries"], key=lambda e: e["step"]) if book["entries"] else None
            self._books_of = (self.index, self.light_index)
        book["after"] = book["newest"] is not None and step > book["newest"]["step"]
        return book

    @staticmethod
    def _new_book() -> dict:
        return {"entries": [], "steps": set(), "newest": None}

    def _add(self, book: dict, entry: dict):
        """Add a new output's `entry` to the index (whole or light, by its "series") and to its book."""
        (self.light_index if "series" in entry else self.index).append(entry)
        book["entries"].append(entry)
        book["steps"].add(entry["step"])
        if book["newest"] is None or entry["step"] > book["newest"]["step"]:
            book["newest"] = entry

    def _write_cut(self, view, cut, fields, meta, attrs, step, time_, u_scale) -> str:
        """Write the part `cut` (config.Cut) of the fields into DIR/<name>/<name>_<step>.h5, and the
        series DIR/<name>.xdmf whose grid points are the written cells' centres. rho and u (None in
        `fields`: not computed on the whole lattice) are the moments of the cut populations (the same
        pointwise arithmetic, so the same bits); u_scale: dx/dt for physical units, else None."""
        dom, directory = view.domain, view.out_dir
        part = CutDomain(dom, cut)
        rel = f"{cut.name}/{cut.name}_{step:09d}.h5"
        f = view.state.f
        field = view.force_field
        if self._macro is None:
            model = view.model
            self._macro = jax.jit(lambda fc, F=None: macroscopic(fc, model, F))
        cdt = np.dtype(view.model.compute_dtype)
        d = len(dom.shape)

        def moment(k):
            def fn(fc, F=None):
                m = self._macro(fc, F)[k]
                return m * u_scale if k == 1 and u_scale is not None else m
            return fn

        def forced(k, fb, local):
            return moment(k)(fb[local], _halo_of(field, fb)[(slice(None),) + tuple(local[1:])])

        cut_fields = []
        for fld in fields:
            if fld.array is None:
                k = 0 if fld.name == "rho" else 1
                if field is None:
                    arr = CutArray(f, cut, dom, moment(k), () if k == 0 else (d,), cdt)
                else:  # each piece's cells of the per-cell force beside its populations (u = (j - F/2) / rho)
                    arr = CutArray(f, cut, dom, out_lead=() if k == 0 else (d,), dtype=cdt,
                                   of_piece=lambda fb, local, k=k: forced(k, fb, local))
            elif isinstance(fld.array, CutVorticity):
                arr = CutArray(f, cut, dom, out_lead=(), dtype=cdt, of_piece=fld.array)
            elif isinstance(fld.array, MeanPart):  # the time average's cells of the cut
                arr = CutArray(view.mean, cut, dom, fld.array.of(u_scale), fld.array.lead, cdt)
            else:
                arr = CutArray(fld.array, cut, dom)
            cut_fields.append(hdf5.Field(fld.name, arr, fld.layout, fld.dtype))
        hdf5.write(directory / rel, cut_fields, part,
                   attrs={**attrs, "output": cut.name, "start": np.asarray(cut.start, np.int64),
                          "stop": np.asarray(cut.stop, np.int64), "stride": np.asarray(cut.step, np.int64)},
                   keep_free=self.keep_free, held=getattr(view, "held", None))
        book = self._book(cut.name, step)
        key = [self.units, list(cut.start), list(cut.stop), list(cut.step)]
        grid = (_grid_after(book["newest"], step, key, f"{cut.name}/") if book["after"]
                else _grid_of(book["entries"], step, key, f"{cut.name}/"))
        self._add(book, {"series": cut.name, "step": step, "time": time_, "file": rel,
                         "fields": {k: [list(cut.shape + v[0]), str(np.dtype(v[1])), v[2]] for k, v in meta.items()},
                         "grid": grid, "grid_key": key, "shape": list(cut.shape)})
        if dom.process_index == 0:
            if grid not in self._grids:  # written once per run and grid (a version before grid keys: rewritten)
                # `spacing`: the distance between neighbouring nodes, the stride's k cells (the cuts' strides are
                # the same along every axis: output_stride, or 1 for a slice); it said dx for a strided sample
                unit = attrs["dx"] if self.units == "physical" else 1.0
                steps = set(cut.step)
                spacing = unit * steps.pop() if len(steps) == 1 else np.asarray(cut.step, np.float64) * unit
                xdmf.write_nodes(directory / grid, self._centres(view, cut), spacing)
                self._grids.add(grid)
            xdmf.write_xdmf(directory / f"{cut.name}.xdmf", cut.shape, grid,
                            _series(book["entries"], self._memo.setdefault(cut.name, {})), center="Node")
        return rel

    def _centres(self, view, cut) -> list:
        """Coordinates of the written cells' centres along each axis: i + 1/2 (lattice units), or
        origin + (i + 1/2) dx in physical units (origin: the case's, else 0)."""
        idx = [np.arange(a, b, k, dtype=np.float64) + 0.5 for a, b, k in zip(cut.start, cut.stop, cut.step)]
        if self.units != "physical":
            return idx
        units = view.setup.units
        dx = units.get("dx", 1.0)
        origin = units.get("origin") or (0.0,) * len(idx)
        return [o + dx * x for o, x in zip(origin, idx)]

    def _image(self, view, step, scale=None):
        """A PNG of |u| (times `scale` if given) on the mid-plane z = Z/2 (3D: from that plane's populations
        alone) or the whole plane (2D), from process 0."""
        dom = view.domain
        if self._speed is None:
            model = view.model
            self._speed = jax.jit(lambda f, F=None: jnp.sqrt(jnp.sum(jnp.square(macroscopic(f, model, F)[1]),
                                                                     axis=0)))
        f, field = view.state.f, view.force_field
        # every process takes part in the gather; process 0 draws
        plane = dom.gather_plane(f, 2, dom.shape[2] // 2) if f.ndim == 4 else dom.gather(self._speed(f, field))
        plane_force = dom.gather_plane(field, 2, dom.shape[2] // 2) if f.ndim == 4 and field is not None else None
        if dom.process_index != 0:
            return
        if f.ndim == 4:
            plane = np.asarray(self._speed(plane, plane_force))
        if scale is not None:
            plane = plane * scale
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            view.log("warning: output_images needs matplotlib (pip install matplotlib); no PNG written")
            return
        path = view.out_dir / "images" / f"speed_{step:09d}.png"
        fig, ax = plt.subplots(figsize=(6, 6 * plane.shape[1] / max(plane.shape[0], 1) if plane.shape[0] else 6))
        # the axes in the fields' units (they were cell indices whatever output_units said): cell k spans
        # [k, k + 1) in lattice units, origin + [k, k + 1) dx in physical ones, as the cells' centres in the XDMF
        nx, ny = plane.shape[:2]
        if self.units == "physical":
            dx = view.setup.units.get("dx", 1.0)
            ox, oy = (view.setup.units.get("origin") or (0.0, 0.0))[:2]
            extent, unit = (ox, ox + nx * dx, oy, oy + ny * dx), " (m)"  # the files' units: m, m/s
        else:
            extent, unit = (0, nx, 0, ny), " (cells)"
        im = ax.imshow(np.asarray(plane).T, origin="lower", cmap="viridis", extent=extent)
        fig.colorbar(im, ax=ax, label="|u|" + (" (m/s)" if scale is not None else " (lattice units)"))
        ax.set_title(f"{self.case_name} step {step}"
                     + (f", plane k = {dom.shape[2] // 2} of {dom.shape[2]} along z" if f.ndim == 4 else ""))
        ax.set_xlabel("x" + unit)
        ax.set_ylabel("y" + unit)
        tmp = path.with_name(path.name + ".tmp")
        try:  # a full disk is a failed write (one line; the run goes on), not a traceback
            make_folder(path.parent, getattr(view, "held", None))  # images/ below the run's folder, never it again
            check_target(path)
            remove_stale(tmp)
            fig.savefig(tmp, dpi=100, format="png")
            os.replace(tmp, path)
        except OSError as e:
            hdf5.discard(tmp)
            raise WriteError(path, reason(e, None, path.parent)) from None
        finally:
            plt.close(fig)
