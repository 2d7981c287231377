"""Obstacle geometry, built per block in pure NumPy (no JAX): primitives placed in physical
coordinates (Circle, Cylinder, Sphere, Box and unions of them) and voxel mask files (.npy, HDF5).

`Obstacles(shapes, dx, origin, lattice).block(index, shape)` returns, for the block `index` (a tuple
of slices of the global spatial axes, as `Setup.geometry(index)` gets), the solid cells, the body id
of each solid cell and, for every fluid cell x and direction i whose upwind neighbour x - c_i is
solid, the fraction q of the link from the centre of x toward the centre of x - c_i at which the
wall is crossed (the distance that the pull form of Bouzidi's interpolated bounce-back uses; 1/2 is
halfway bounce-back). Only the block extended by one cell on every side is ever evaluated or read,
with the global indices wrapped periodically (streaming is periodic); the whole lattice is never
assembled on one host.

Conventions: the centre of global cell k along axis a lies at `origin[a] + (k + 0.5) * dx`. A point
on the surface of a primitive counts as inside (within SURFACE_TOL: round-off decides nothing). Closed
triangle surfaces (STL files) are one more Shape, `distlbm.stl.TriangleMesh`; `Obstacles.block` passes the
links of all directions to each shape's `crossing` in one call, so that a mesh intersects a direction and
its opposite in one pass.
"""

from __future__ import annotations

import math
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from distlbm.lattice import Lattice

__all__ = [
    "Shape",
    "Circle",
    "Sphere",
    "Cylinder",
    "Box",
    "Union",
    "MaskFile",
    "Obstacles",
    "ObstacleBlock",
    "surface_links",
    "Q_MIN",
    "MAX_BODIES",
]

MAX_BODIES = 255  # body ids are uint8, 0 is fluid
Q_MIN = 1e-6  # q is clipped to [Q_MIN, 1]: a wall exactly at a fluid cell centre is not a zero distance
_TOL = 1e-9  # tolerance (in units of the segment parameter t) for segments that end on a surface
# A cell centre on a surface counts as inside; "on" within this relative tolerance (of r^2 for the round
# shapes, of the box's size and position for boxes), so that round-off in the cell coordinates cannot put
# one of two mirror-image centres inside and the other outside: at D = 15 the top and bottom points of a
# Schaefer-Turek cylinder are cell centres, and the one that round-off left outside gave a lift error of
# 40 % (docs/validation.md).
SURFACE_TOL = 1e-9


# --------------------------------------------------------------------------------------------------
# primitives


def _bcast(*arrays):
    return np.broadcast_arrays(*[np.asarray(a, dtype=np.float64) for a in arrays])


class Shape:
    """A solid in physical coordinates.

    inside(points) -> bool array: points is a list of D broadcastable coordinate arrays.
    crossing(p, v) -> t: the smallest t in [0, 1] with p + t v in the shape (np.inf where the
    segment misses it); p and v are lists of D broadcastable arrays. For p outside and p + v inside,
    t in (0, 1] is where the segment enters the shape.
    """

    dim: int = 0

    def inside(self, points):
        raise NotImplementedError

    def crossing(self, p, v):
        tin, tout = self.interval(p, v)
        hit = (tin <= tout) & (tin <= 1.0 + _TOL) & (tout >= -_TOL)
        return np.where(hit, np.clip(tin, 0.0, 1.0), np.inf)

    def interval(self, p, v):
        """(t_in, t_out): the parameters where the whole line p + t v enters and leaves this convex
        shape (t_in > t_out where it misses it)."""
        raise NotImplementedError

    def _check_dim(self, points):
        if len(points) != self.dim:
            raise ValueError(f"{self!r} is {self.dim}D but got {len(points)} coordinates")


def _ball_interval(p, v, axes, center, radius):
    """Line p + t v against the ball |x[axes] - center| <= radius (in the sub-space `axes`)."""
    d = [np.asarray(p[ax], np.float64) - c for ax, c in zip(axes, center)]
    vv = [np.asarray(v[ax], np.float64) for ax in axes]
    a = sum(x * x for x in vv)
    b = sum(x * y for x, y in zip(vv, d))  # half of the linear coefficient
    cc = sum(x * x for x in d) - radius * radius
    a, b, cc = _bcast(a, b, cc)
    disc = b * b - a * cc
    with np.errstate(divide="ignore", invalid="ignore"):
        sq = np.sqrt(np.maximum(disc, 0.0))
        qq = -(b + np.copysign(sq, b))  # numerically stable roots qq/a and cc/qq
        t1 = qq / a
        t2 = cc / qq
        tang = -b / a
    lo = np.where(qq == 0, tang, np.minimum(t1, t2))
    hi = np.where(qq == 0, tang, np.maximum(t1, t2))
    miss = disc < 0
    lo = np.where(miss, np.inf, lo)
    hi = np.where(miss, -np.inf, hi)
    # a line parallel to the axis of a cylinder: inside for every t or for none
    par = a == 0
    lo = np.where(par, np.where(cc <= 0, -np.inf, np.inf), lo)
    hi = np.where(par, np.where(cc <= 0, np.inf, -np.inf), hi)
    return lo, hi


def _in_ball(r2, radius: float):
    """Whether squared distances r2 from a centre lie within `radius` (on the surface: within SURFACE_TOL)."""
    return r2 <= radius**2 * (1 + SURFACE_TOL)


def _box_tol(lo: float, hi: float) -> float:
    """How far outside [lo, hi] a point still counts as on its face (SURFACE_TOL of its size and position)."""
    return SURFACE_TOL * max(abs(lo), abs(hi), hi - lo)


def _slab_interval(p, v, axis, lo, hi):
    pa, va = _bcast(p[axis], v[axis])
    with np.errstate(divide="ignore", invalid="ignore"):
        t_lo = (lo - pa) / va
        t_hi = (hi - pa) / va
    inslab = (pa >= lo) & (pa <= hi)
    zero = va == 0
    enter = np.where(zero, np.where(inslab, -np.inf, np.inf), np.minimum(t_lo, t_hi))
    leave = np.where(zero, np.where(inslab, np.inf, -np.inf), np.maximum(t_lo, t_hi))
    return enter, leave


class Circle(Shape):
    """A disc (2D) of `radius` around `center` (x, y)."""

    dim = 2

    def __init__(self, center, radius):
        self.center = tuple(float(x) for x in center)
        self.radius = float(radius)
        if len(self.center) != 2:
            raise ValueError(f"Circle center needs 2 coordinates, got {center!r}")
        if not self.radius > 0:
            raise ValueError(f"Circle radius must be positive, got {radius!r}")

    def __repr__(self):
        return f"Circle(center={self.center}, radius={self.radius})"

    def inside(self, points):
        self._check_dim(points)
        return _in_ball(sum((np.asarray(x) - c) ** 2 for x, c in zip(points, self.center)), self.radius)

    def interval(self, p, v):
        return _ball_interval(p, v, (0, 1), self.center, self.radius)


class Sphere(Shape):
    """A ball (3D) of `radius` around `center` (x, y, z)."""

    dim = 3

    def __init__(self, center, radius):
        self.center = tuple(float(x) for x in center)
        self.radius = float(radius)
        if len(self.center) != 3:
            raise ValueError(f"Sphere center needs 3 coordinates, got {center!r}")
        if not self.radius > 0:
            raise ValueError(f"Sphere radius must be positive, got {radius!r}")

    def __repr__(self):
        return f"Sphere(center={self.center}, radius={self.radius})"

    def inside(self, points):
        self._check_dim(points)
        return _in_ball(sum((np.asarray(x) - c) ** 2 for x, c in zip(points, self.center)), self.radius)

    def interval(self, p, v):
        return _ball_interval(p, v, (0, 1, 2), self.center, self.radius)


class Cylinder(Shape):
    """A circular cylinder (3D) along `axis`: `center` gives its two coordinates on the other axes
    (in increasing axis order), infinite along `axis` unless `extent=(lo, hi)` bounds it there."""

    dim = 3

    def __init__(self, center, radius, axis: int = 2, extent: Optional[Sequence[float]] = None):
        if axis not in (0, 1, 2):
            raise ValueError(f"Cylinder axis must be 0, 1 or 2, got {axis!r}")
        self.axis = int(axis)
        self.others = tuple(a for a in range(3) if a != self.axis)
        self.center = tuple(float(x) for x in center)
        if len(self.center) != 2:
            raise ValueError(f"Cylinder center needs the 2 coordinates on axes {self.others}, got {center!r}")
        self.radius = float(radius)
        if not self.radius > 0:
            raise ValueError(f"Cylinder radius must be positive, got {radius!r}")
        self.extent = None if extent is None else (float(extent[0]), float(extent[1]))
        if self.extent is not None and not self.extent[0] < self.extent[1]:
            raise ValueError(f"Cylinder extent must be (lo, hi) with lo < hi, got {extent!r}")

    def __repr__(self):
        return f"Cylinder(center={self.center}, radius={self.radius}, axis={self.axis}, extent={self.extent})"

    def inside(self, points):
        self._check_dim(points)
        r2 = sum((np.asarray(points[a]) - c) ** 2 for a, c in zip(self.others, self.center))
        ins = _in_ball(r2, self.radius)
        if self.extent is not None:
            z = np.asarray(points[self.axis])
            tol = _box_tol(*self.extent)
            ins = ins & (z >= self.extent[0] - tol) & (z <= self.extent[1] + tol)
        return ins

    def interval(self, p, v):
        lo, hi = _ball_interval(p, v, self.others, self.center, self.radius)
        if self.extent is not None:
            e, l_ = _slab_interval(p, v, self.axis, *self.extent)
            lo, hi = np.maximum(lo, e), np.minimum(hi, l_)
        return lo, hi


class Box(Shape):
    """An axis-aligned box lo <= x <= hi (2D or 3D)."""

    def __init__(self, lo, hi):
        self.lo = tuple(float(x) for x in lo)
        self.hi = tuple(float(x) for x in hi)
        if len(self.lo) != len(self.hi) or len(self.lo) not in (2, 3):
            raise ValueError(f"Box needs lo and hi of 2 or 3 coordinates each, got {lo!r}, {hi!r}")
        if not all(a <= b for a, b in zip(self.lo, self.hi)):
            raise ValueError(f"Box needs lo <= hi on every axis, got {lo!r}, {hi!r}")
        self.dim = len(self.lo)

    def __repr__(self):
        return f"Box(lo={self.lo}, hi={self.hi})"

    def inside(self, points):
        self._check_dim(points)
        ins = True
        for x, lo, hi in zip(points, self.lo, self.hi):
            x = np.asarray(x)
            tol = _box_tol(lo, hi)
            ins = ins & (x >= lo - tol) & (x <= hi + tol)
        return ins

    def interval(self, p, v):
        lo = hi = None
        for a in range(self.dim):
            e, l_ = _slab_interval(p, v, a, self.lo[a], self.hi[a])
            lo = e if lo is None else np.maximum(lo, e)
            hi = l_ if hi is None else np.minimum(hi, l_)
        return lo, hi


class Union(Shape):
    """The union of shapes (one body): inside any member; crossing = the first member entered."""

    def __init__(self, *shapes):
        if len(shapes) == 1 and isinstance(shapes[0], (list, tuple)):
            shapes = tuple(shapes[0])
        shapes = tuple(Union(*s) if isinstance(s, (list, tuple)) else s for s in shapes)
        if not shapes:
            raise ValueError("Union needs at least one shape")
        for s in shapes:
            if not isinstance(s, Shape):
                raise TypeError(f"Union members must be shapes, got {s!r}")
        dims = {s.dim for s in shapes}
        if len(dims) != 1:
            raise ValueError(f"Union members must have one dimension, got {sorted(dims)}: {shapes!r}")
        self.shapes = shapes
        self.dim = dims.pop()

    def __repr__(self):
        return f"Union({', '.join(map(repr, self.shapes))})"

    def inside(self, points):
        self._check_dim(points)
        ins = False
        for s in self.shapes:
            ins = ins | s.inside(points)
        return ins

    def crossing(self, p, v):
        t = None
        for s in self.shapes:
            ts = s.crossing(p, v)
            t = ts if t is None else np.minimum(t, ts)
        return t


# --------------------------------------------------------------------------------------------------
# voxel masks


def _looked_in(path) -> str:
    """Where a relative path was looked for (the working directory, not the configuration file's folder)."""
    return "" if Path(path).is_absolute() else f" (looked for in the working directory {Path.cwd()})"


def _file_kind(mode: int) -> str:
    for test, what in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return "not a regular file"


def _runs(idx: np.ndarray):
    """Split an index array into maximal runs of consecutive indices: [(pos, start, stop)]."""
    out = []
    begin = 0
    for k in range(1, len(idx) + 1):
        if k == len(idx) or idx[k] != idx[k - 1] + 1:
            out.append((begin, int(idx[begin]), int(idx[k - 1]) + 1))
            begin = k
    return out


class MaskFile:
    """A voxel mask on the lattice: a `.npy` file or an HDF5 dataset (`dataset` names it; default: the
    only dataset in the file) whose shape equals the lattice's spatial shape. Nonzero cells are solid;
    an integer mask gives body ids (1..255): its distinct ids, in increasing order, are the bodies after those
    listed before it in the `Obstacles` list (a mask in position k with ids 3 and 7: bodies k and k + 1; the
    whole file is read once to find them); a boolean mask makes its cells the body of its position (body 1
    when it is the only entry). Links into the mask get q = 1/2
    (halfway bounce-back). Only the hyperslabs a block needs are read (the .npy is memory-mapped);
    `bytes_read` counts the bytes read so far.
    """

    dim: int = 0
    ids: Optional[list] = None  # the distinct nonzero ids of an integer mask (check_values), in increasing order
    plane_solid: Optional[np.ndarray] = None  # solid cells per plane along x in a cross-section (check_values)

    @property
    def bodies(self) -> int:
        """The bodies it holds: its distinct ids (at least one; a boolean mask: one)."""
        return max(1, len(self.ids)) if self.ids is not None else 1

    def __init__(self, path, dataset: Optional[str] = None):
        self.path = Path(path)
        self.dataset = dataset
        self.bytes_read = 0
        try:
            st = os.stat(self.path)  # follows links: a link to /dev/zero is a character device
        except FileNotFoundError:
            raise ValueError(f"mask file {self.path}: no such file{_looked_in(self.path)}") from None
        if not stat.S_ISREG(st.st_mode):
            # a FIFO would block the open forever, a device (/dev/zero) never ends: refuse before opening
            raise ValueError(f"mask file {self.path}: is {_file_kind(st.st_mode)}, not a regular file; expected a "
                             f".npy or an HDF5 (.h5, .hdf5) file")
        suffix = self.path.suffix.lower()
        if suffix == ".npy":
            if dataset is not None:
                raise ValueError(f"mask file {self.path}: a .npy file has no datasets (got dataset={dataset!r})")
            self.format = "npy"
            self.shape, self.dtype = self._npy_header(st.st_size)
        elif suffix in (".h5", ".hdf5", ".hdf"):
            self.format = "hdf5"
            with self._open_h5() as (_f, ds):
                self.shape, self.dtype = tuple(ds.shape), ds.dtype
        else:
            raise ValueError(f"mask file {self.path}: expected a .npy or an HDF5 (.h5, .hdf5) file")
        if self.dtype.kind not in "biu":
            raise ValueError(
                f"mask file {self.path}: dtype {self.dtype} is not a mask; expected bool or integers (body ids 0..255)"
            )
        self.dim = len(self.shape)

    def __repr__(self):
        ds = f", dataset={self.dataset!r}" if self.dataset else ""
        return f"MaskFile({str(self.path)!r}{ds})"

    def _npy_header(self, file_size: int):
        """(shape, dtype) from the .npy header, checked against the file: never
        unpickles (object arrays are refused) and never maps past the end of a truncated file."""
        from numpy.lib import format as npf

        bad = f"mask file {self.path}: not a NumPy .npy file (bad header)"
        try:
            with open(self.path, "rb") as fh:
                version = npf.read_magic(fh)
                if version == (1, 0):
                    shape, _fortran, dtype = npf.read_array_header_1_0(fh)
                else:  # 2.0 and 3.0 (a utf-8 header) share the layout: a 4-byte header length
                    shape, _fortran, dtype = npf.read_array_header_2_0(fh)
                offset = fh.tell()
        except (ValueError, TypeError, SyntaxError, EOFError, UnicodeDecodeError):
            raise ValueError(bad) from None
        if not isinstance(dtype, np.dtype):
            raise ValueError(bad)
        if dtype.hasobject:
            raise ValueError(f"mask file {self.path}: holds Python objects (dtype {dtype}); expected bool or "
                             f"integers (body ids 0..255)")
        shape = tuple(int(n) for n in shape)
        need = math.prod(shape) * dtype.itemsize
        have = file_size - offset
        if have < need:
            raise ValueError(f"mask file {self.path}: truncated: header says {need} bytes of data, file has {have}")
        return shape, dtype

    def _open_npy(self):
        if math.prod(self.shape) == 0:
            return np.empty(self.shape, self.dtype)
        # memory-mapped, never loaded whole; the header was checked by _npy_header (no pickles, not truncated)
        return np.load(self.path, mmap_mode="r", allow_pickle=False)

    class _H5:
        def __init__(self, owner):
            self.owner = owner

        def __enter__(self):
            from distlbm.io.hdf5 import open_file, require_h5py

            require_h5py(f"the mask file {str(self.owner.path)!r} is HDF5, read")
            import h5py

            o = self.owner
            if not h5py.is_hdf5(o.path):
                raise ValueError(f"mask file {o.path}: not an HDF5 file (no HDF5 signature)")
            self.f = open_file(o.path, "r")
            try:
                def datasets():  # (the file's whole tree: walked only to choose or to name, not at each read)
                    names = []
                    self.f.visititems(lambda n, obj: names.append(n) if isinstance(obj, h5py.Dataset) else None)
                    shown = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
                    return names, shown

                if o.dataset is None:
                    names, shown = datasets()
                    if not names:
                        raise ValueError(f"mask file {o.path}: holds no dataset; expected an HDF5 file with the "
                                         f"mask as a dataset")
                    if len(names) > 1:
                        raise ValueError(f"mask file {o.path}: holds {len(names)} datasets ({shown}); expected one, "
                                         f"or the one to use named with mask_dataset = NAME")
                    o.dataset = names[0]
                from distlbm.io.hdf5 import stored_elsewhere

                # checked before the dataset is opened: a link or external storage to a FIFO would block
                elsewhere = stored_elsewhere(self.f, o.dataset)
                if elsewhere:
                    raise ValueError(f"mask file {o.path}: {elsewhere}; expected the mask stored in the file itself")
                if o.dataset not in self.f or not isinstance(self.f[o.dataset], h5py.Dataset):
                    raise ValueError(f"mask file {o.path}: no dataset {o.dataset!r}; expected one of its datasets: "
                                     f"{datasets()[1] or 'none'}")
                return self.f, self.f[o.dataset]
            except BaseException:
                self.f.close()
                raise

        def __exit__(self, *exc):
            self.f.close()

    def _open_h5(self):
        return MaskFile._H5(self)

    def check_shape(self, shape):
        shape = tuple(int(n) for n in shape)
        if len(self.shape) != len(shape):
            raise ValueError(
                f"mask file {self.path}: holds a {len(self.shape)}-D array (shape {self.shape}); expected a "
                f"{len(shape)}-D array of the lattice spatial shape {shape}"
            )
        if self.shape != shape:
            raise ValueError(
                f"mask file {self.path}: mask shape {self.shape} does not match the lattice spatial shape {shape}"
            )

    def check_values(self, max_bytes: int = 1 << 24, cross: Optional[tuple] = None) -> list:
        """Read the whole mask once, in slabs along the first axis of at most ~max_bytes each: check that
        every value is a body id 0..255 (ValueError naming the first cell that is not), keep its distinct
        nonzero ids in increasing order (`ids`, returned; a boolean mask: []) and, given `cross` (slices of the
        other axes: the cross-section to look at), the number of solid cells inside it on each plane along the
        first axis (`plane_solid`, int64 [n0]); then `ids` are those found inside the cross-section. A boolean
        mask is read only when `cross` is given."""
        boolean = self.dtype.kind == "b"
        if cross is not None:
            cross = tuple(cross)
            if len(cross) != len(self.shape) - 1:
                raise ValueError(f"mask file {self.path}: cross-section {cross!r} needs {len(self.shape) - 1} slices")
            self.plane_solid = np.zeros(self.shape[0] if self.shape else 0, np.int64)
        if (boolean and cross is None) or not self.shape or 0 in self.shape:
            self.ids = None if boolean else []
            return []
        seen = np.zeros(256, bool)
        for start, values in self.slabs(max_bytes):
            stop = start + len(values)
            inside = values if cross is None else values[(slice(None),) + cross].reshape(stop - start, -1)
            if not boolean:
                self._check_range(values, start)
                # a count per value, not a sort: one pass over the slab; the ids inside the cross-section only (an
                # id that draws nothing but the side walls' rows is no body: it was listed with a force of 0)
                seen[:] |= np.bincount(inside.reshape(-1).astype(np.intp, copy=False), minlength=256) > 0
            if cross is not None:
                self.plane_solid[start:stop] = np.count_nonzero(inside, axis=1)
        if boolean:
            self.ids = None
            return []
        self.ids = [int(i) for i in np.flatnonzero(seen[1:]) + 1]
        return self.ids

    def slabs(self, max_bytes: int = 1 << 24):
        """(start, values) for consecutive slabs of whole planes along the first axis, in order, each of at most
        ~max_bytes (at least one plane): the whole mask read once, never held whole."""
        if not self.shape or 0 in self.shape:
            return
        plane = math.prod(self.shape[1:]) * self.dtype.itemsize
        step = max(1, max_bytes // max(plane, 1))
        rest = tuple(slice(0, n) for n in self.shape[1:])
        if self.format == "npy":
            src = self._open_npy()
            for start in range(0, self.shape[0], step):
                yield start, self._read(src, (slice(start, min(start + step, self.shape[0])),) + rest)
            del src
        else:
            with self._open_h5() as (_f, ds):
                for start in range(0, self.shape[0], step):
                    yield start, self._read(ds, (slice(start, min(start + step, self.shape[0])),) + rest)

    def _check_range(self, values, start=None):
        """ValueError naming the first value outside 0..255 (and its cell, given the slab's first index)."""
        if not values.size:
            return
        vmin, vmax = values.min(), values.max()
        if vmin >= 0 and vmax <= 255:
            return
        bad = vmin if vmin < 0 else vmax
        where = ""
        if start is not None:
            cell = np.unravel_index(int(np.argmax(values == bad)), values.shape)
            cell = (int(cell[0]) + start,) + tuple(int(c) for c in cell[1:])
            where = f" at cell {cell}"
        what = "negative value" if bad < 0 else "value"
        raise ValueError(f"mask file {self.path}: {what} {bad}{where} is not a body id; expected body ids 0..255 "
                         f"(0: fluid)")

    def _read(self, src, sel):
        """Read one hyperslab (a tuple of slices) from the opened source."""
        out = np.asarray(src[sel])
        self.bytes_read += out.nbytes
        return out

    def read(self, idx):
        """The raw mask values at the global indices idx[a] (1D int arrays, one per axis), read as
        the product of the runs of consecutive indices (at most 3 per axis for an extended block)."""
        shape = tuple(len(i) for i in idx)
        out = np.empty(shape, dtype=self.dtype)
        runs = [_runs(np.asarray(i)) for i in idx]

        def fill(src):
            for combo in np.ndindex(*[len(r) for r in runs]):
                parts = [runs[a][k] for a, k in enumerate(combo)]
                sel = tuple(slice(s, e) for _, s, e in parts)
                dst = tuple(slice(pos, pos + e - s) for pos, s, e in parts)
                out[dst] = self._read(src, sel)

        if self.format == "npy":
            src = self._open_npy()
            fill(src)
            del src
        else:
            with self._open_h5() as (_f, ds):
                fill(ds)
        return out

    def body_ids(self, values, k: int):
        """uint8 body ids from raw mask values of the entry in position k (a boolean mask becomes body k; the
        i-th distinct id of an integer mask body k + i - 1: the file is scanned for them on first use)."""
        if values.dtype.kind == "b":
            return values.astype(np.uint8) * np.uint8(k)
        if not values.size:
            return values.astype(np.uint8)
        self._check_range(values)
        if self.ids is None:
            self.check_values()
        if k - 1 + len(self.ids) > MAX_BODIES:
            raise ValueError(f"mask file {self.path}: its {len(self.ids)} body ids after the {k - 1} bodies listed "
                             f"before it make {k - 1 + len(self.ids)} bodies; expected at most {MAX_BODIES} "
                             f"(8-bit body ids)")
        table = np.zeros(256, np.uint8)
        table[self.ids] = np.arange(k, k + len(self.ids), dtype=np.int64).astype(np.uint8)
        return table[values.astype(np.int64)]


# --------------------------------------------------------------------------------------------------
# per-block obstacle data


@dataclass
class ObstacleBlock:
    """Obstacle data of one block.

    index: the block (tuple of slices); solid: bool [block]; body: uint8 [block] (0 = fluid, else
    the body id); q: float32 [Q, block], for a fluid cell x whose neighbour x - c_i is solid the
    fraction in (0, 1] of the link from x toward x - c_i at which the wall is crossed, 0 elsewhere;
    link_body: uint8 [Q, block], the body id of x - c_i on those links, 0 elsewhere.
    """

    index: tuple
    solid: np.ndarray
    body: np.ndarray
    q: np.ndarray
    link_body: np.ndarray

    @property
    def links(self) -> np.ndarray:
        """bool [Q, block]: the links from a fluid cell into a solid one."""
        return self.q > 0


def surface_links(ob: ObstacleBlock, body: Optional[int] = None) -> int:
    """Number of fluid-to-solid links in a block (of one body when `body` is given)."""
    if body is None:
        return int(np.count_nonzero(ob.q > 0))
    return int(np.count_nonzero((ob.q > 0) & (ob.link_body == body)))


class Obstacles:
    """Obstacles on a lattice: `shapes` is a list whose k-th entry (1-based) is body k; an entry is a
    Shape, a list of shapes (a union, one body) or a MaskFile. A cell whose centre is inside several
    entries belongs to the first. dx: cell size; origin: physical position of the lattice corner
    (the centre of cell k is origin + (k + 1/2) dx); lattice: the velocity set (for the links).
    """

    def __init__(self, shapes, dx: float = 1.0, origin=None, lattice: Optional[Lattice] = None,
                 q_min: float = Q_MIN):
        if lattice is None:
            raise ValueError("Obstacles needs the lattice (distlbm.lattice.get_lattice(...))")
        if isinstance(shapes, (Shape, MaskFile)):
            shapes = [shapes]
        entries = []
        for s in shapes:
            if isinstance(s, (list, tuple)):
                s = Union(*s)
            if not isinstance(s, (Shape, MaskFile)):
                raise TypeError(f"an obstacle must be a shape, a list of shapes or a MaskFile, got {s!r}")
            if s.dim != lattice.d:
                raise ValueError(f"obstacle {s!r} is {s.dim}D but the lattice {lattice.name} is {lattice.d}D")
            entries.append(s)
        if len(entries) > MAX_BODIES:
            raise ValueError(f"at most {MAX_BODIES} bodies (uint8 body ids), got {len(entries)}")
        self.shapes = entries
        self.dx = float(dx)
        if not self.dx > 0:
            raise ValueError(f"dx must be positive, got {dx!r}")
        self.origin = (0.0,) * lattice.d if origin is None else tuple(float(x) for x in origin)
        if len(self.origin) != lattice.d:
            raise ValueError(f"origin needs {lattice.d} coordinates, got {origin!r}")
        self.lattice = lattice
        self.q_min = float(q_min)

    def check(self, shape):
        """Check the entries against the lattice spatial shape (mask files must match it)."""
        shape = tuple(int(n) for n in shape)
        if len(shape) != self.lattice.d:
            raise ValueError(f"lattice shape {shape} is not {self.lattice.d}D ({self.lattice.name})")
        for s in self.shapes:
            if isinstance(s, MaskFile):
                s.check_shape(shape)

    def block(self, index, shape) -> ObstacleBlock:
        """The obstacle data of the block `index` (tuple of slices) of a lattice of spatial `shape`."""
        shape = tuple(int(n) for n in shape)
        self.check(shape)
        d = self.lattice.d
        if len(index) != d:
            raise ValueError(f"block index {index!r} needs {d} slices")
        starts, sizes, ext_idx, coords = [], [], [], []
        for a, sl in enumerate(index):
            start, stop, step = sl.indices(shape[a])
            if step != 1:
                raise ValueError(f"block index {index!r}: slices must have step 1")
            n = max(stop - start, 0)
            starts.append(start)
            sizes.append(n)
            k = np.arange(start - 1, start + n + 1) % shape[a]  # one cell more on each side, wrapped
            ext_idx.append(k)
            sh = [1] * d
            sh[a] = n + 2
            coords.append((self.origin[a] + (k + 0.5) * self.dx).reshape(sh))
        ext_shape = tuple(n + 2 for n in sizes)

        body_ext = np.zeros(ext_shape, np.uint8)
        masked_ext = None  # cells made solid by a mask file (links into them get q = 1/2)
        analytic = []
        for k, s in enumerate(self.shapes, start=1):
            if isinstance(s, MaskFile):
                ids = s.body_ids(s.read(ext_idx), k)
                ins = ids != 0
                masked_ext = ins if masked_ext is None else (masked_ext | ins)
                new = (body_ext == 0) & ins
                body_ext[new] = ids[new]
            else:
                analytic.append(s)
                ins = np.broadcast_to(s.inside(coords), ext_shape)
                body_ext[(body_ext == 0) & ins] = k

        inner = tuple(slice(1, 1 + n) for n in sizes)
        body = body_ext[inner].copy()
        solid = body != 0
        fluid = ~solid
        c = np.asarray(self.lattice.c)
        qq = np.zeros((self.lattice.q,) + tuple(sizes), np.float32)
        link_body = np.zeros((self.lattice.q,) + tuple(sizes), np.uint8)
        flat = [x.reshape(-1) for x in coords]
        # every link from a fluid cell into a solid one, all directions together (one crossing call per
        # shape: a triangle mesh intersects the links of a direction and of its opposite in one pass)
        links = []  # (i, positions in the block, neighbour slice)
        for i in range(self.lattice.q):
            ci = c[i]
            if not ci.any():
                continue
            nsl = tuple(slice(1 - int(ci[a]), 1 - int(ci[a]) + sizes[a]) for a in range(d))
            nb = body_ext[nsl]
            link = fluid & (nb != 0)
            if link.any():
                links.append((i, np.nonzero(link), nsl))
        if not links:
            return ObstacleBlock(index=tuple(index), solid=solid, body=body, q=qq, link_body=link_body)
        t = np.full(sum(len(pos[0]) for _, pos, _ in links), np.inf)
        if analytic:
            # the segment from (the image of) x to the centre of x - c_i, anchored at the wrapped
            # position of the solid neighbour so that its end is where `inside` saw a solid
            p = [np.concatenate([flat[a][pos[a] + 1 - int(c[i][a])] + c[i][a] * self.dx for i, pos, _ in links])
                 for a in range(d)]
            v = [np.concatenate([np.full(len(pos[0]), -float(c[i][a]) * self.dx) for i, pos, _ in links])
                 for a in range(d)]
            for s in analytic:
                t = np.minimum(t, s.crossing(p, v))
        start = 0
        for i, pos, nsl in links:
            ti = t[start:start + len(pos[0])]
            start += len(pos[0])
            if masked_ext is not None:
                ti = np.where(masked_ext[nsl][pos], np.minimum(ti, 0.5), ti)
            ti = np.where(np.isfinite(ti), ti, 1.0)  # round-off only: the neighbour centre is inside
            qq[i][pos] = np.clip(ti, self.q_min, 1.0)
            link_body[i][pos] = body_ext[nsl][pos]
        return ObstacleBlock(index=tuple(index), solid=solid, body=body, q=qq, link_body=link_body)
