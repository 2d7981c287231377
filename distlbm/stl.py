"""Triangle-mesh obstacles (STL files) as a geometry Shape: read with numpy-stl, placed by scale, rotation
and translation, and voxelised per block by exact line-triangle tests in NumPy (no JAX).

Only what a block asks for is computed: `inside` casts one ray along +z per column of the block (each
column meets only the triangles whose projection holds it), `crossing` intersects the block's
fluid->solid links with the triangles near them. Nothing the size of the lattice is ever built.

Robustness: whether a line meets a triangle is decided by the 2D orientation of its projection along
the line, evaluated exactly (a floating-point filter with Shewchuk's error bound, exact rational
arithmetic for the few cases the filter cannot decide), and a line through an edge or a vertex is
decided as if it were moved by an infinitesimal (e, e^2) in the projection plane (simulation of
simplicity). The shared vertices of neighbouring triangles are merged to one set of coordinates
first, so two triangles that share an edge decide a line on it with opposite signs: a closed mesh is
crossed an odd number of times by every ray from an inside point and an even number from an outside
point, whatever edges and vertices the ray passes through. Where every triangle turns the same way
(`TriangleMesh.oriented`), a point is inside where the crossings' signed sum (the winding number) is not 0:
overlapping closed shells are then their union (by parity their overlap was a hollow). A point exactly on the
surface is decided
the same way, as if moved by (e, e^2, e^3): an axis-aligned box holds lo <= x < hi (the primitives
count their whole surface as inside; the two differ only for cell centres exactly on a face).
"""

from __future__ import annotations

import math
import os
import stat
from fractions import Fraction
from pathlib import Path

import numpy as np

from distlbm.geometry import Shape, _file_kind, _looked_in

__all__ = ["TriangleMesh", "read_stl", "STL_EXTRA"]

STL_EXTRA = "reading STL files needs numpy-stl: pip install 'distlbm[stl]' (or: pip install numpy-stl)"
_EPS = 2.0 ** -53
_ORIENT_BOUND = (3.0 + 16.0 * _EPS) * _EPS  # Shewchuk's ccwerrboundA
_CHUNK = 1 << 18  # triangles per chunk (their projected corners and boxes; their candidate pairs in batches of _PAIRS)
# candidate (line, triangle) pairs per batch (about 150 B each while a batch is tested): a triangle's candidates are
# the lines in its projected bounding box, so a long sliver across a large face (a CAD exporter's fan over a flat cap)
# has as many as the face has cells; 2^20 triangles of one batch asked GBs (8,188 triangles of a cylinder whose caps
# are fans: 855 MiB for a 128^3 lattice). A batch holds at least one triangle (at most as many pairs as lines).
_PAIRS = 1 << 20
_BOM = b"\xef\xbb\xbf"
_SPACE = b" \t\r\n\f\v\x00\x1a"  # what may follow an ASCII file's last 'endsolid' (NUL and Ctrl-Z padding too)


def read_stl(path) -> np.ndarray:
    """The triangles of a binary or ASCII STL file: float64 [N, 3, 3] (triangle, vertex, xyz).
    ValueError naming the file for a missing, non-regular, damaged, truncated or empty file, one with
    non-finite coordinates, and for a missing numpy-stl (naming the extra to install)."""
    path = Path(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ValueError(f"STL file {path}: no such file{_looked_in(path)}") from None
    except OSError as e:  # a name too long, a folder that may not be searched: it was a traceback
        raise ValueError(f"STL file {path}: cannot be read ({e.strerror or e})") from None
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"STL file {path}: is {_file_kind(st.st_mode)}, not a regular file")
    try:
        from stl import mesh as stl_mesh
    except ImportError:
        raise ValueError(f"STL file {path}: {STL_EXTRA}") from None
    from stl import Mode

    if st.st_size == 0:
        raise ValueError(f"STL file {path}: is empty (0 bytes); expected a binary or ASCII STL file")
    # binary: an 80-byte header, a triangle count, 50 bytes per triangle; ASCII: starts with 'solid'
    # (many binary files' headers start with 'solid' too: NUL bytes, as in their triangle count, are not ASCII STL)
    try:
        with open(path, "rb") as fh:
            head = fh.read(84)
            # (NUL padding after the text, which _ascii_solids accepts, is not binary data: a small file so padded was
            # refused where a larger one was read)
            binary_bytes = b"\0" in (head + fh.read(428)).rstrip(_SPACE)
    except OSError as e:  # a file that may not be read (chmod 000, another user's)
        raise ValueError(f"STL file {path}: cannot be read ({e.strerror or e})") from None
    count = int(np.frombuffer(head[80:84], "<u4")[0]) if len(head) == 84 else -1
    # a text editor's UTF-8 byte-order mark before the 'solid' (Windows tools write one): the file was refused as
    # having "no 'solid' at the start"
    start = len(_BOM) if head.startswith(_BOM) else 0
    solid = head[start:].lstrip().lower().startswith(b"solid")
    if count >= 0 and st.st_size == 84 + 50 * count:
        mode, what = Mode.BINARY, "binary"
    elif solid and not binary_bytes:
        mode, what = Mode.ASCII, "ASCII"
    else:
        why = "binary data after the 'solid' at the start" if solid else "no 'solid' at the start"
        raise ValueError(
            f"STL file {path}: damaged or truncated: not ASCII STL ({why}) and not binary STL "
            f"(its header says {max(count, 0)} triangles, {84 + 50 * max(count, 0)} bytes; the file has {st.st_size})")
    try:
        # speedups=False: numpy-stl's pure-Python/NumPy reader, the same on every install
        if mode is Mode.BINARY:
            m = stl_mesh.Mesh.from_file(str(path), calculate_normals=False, speedups=False, mode=mode)
            tri = np.asarray(m.vectors, dtype=np.float64).reshape(-1, 3, 3)
        else:
            tri = _ascii_solids(path, stl_mesh.Mesh, Mode.ASCII, start)
    except Exception as e:  # numpy-stl raises AssertionError, RuntimeError, ValueError, struct.error ...
        problem = _ascii_problem(path, start) if mode is Mode.ASCII and not isinstance(e, _AfterEnd) else None
        if problem:  # numpy-stl's words were "(RuntimeError: (False, 'Unable to find more lines'))" for a cut file
            raise ValueError(f"STL file {path}: damaged: not ASCII STL: {problem}") from None
        raise ValueError(f"STL file {path}: damaged: cannot be read as {what} STL ({type(e).__name__}: {e})") from None
    if tri.shape[0] == 0:
        raise ValueError(f"STL file {path}: holds no triangles; expected a closed surface")
    if not np.isfinite(tri).all():
        bad = int(np.argmax(~np.isfinite(tri).reshape(len(tri), -1).all(axis=1)))
        raise ValueError(f"STL file {path}: triangle {bad} has a non-finite coordinate {tri[bad].tolist()}")
    return tri


class _AfterEnd(ValueError):
    """Something other than a 'solid' after an ASCII file's 'endsolid' (said by _ascii_solids)."""


def _ascii_problem(path, start: int = 0):
    """The first line of an ASCII STL file (from byte `start`) that its grammar does not allow, said with what was
    expected there, or where the text ends before its 'endsolid'; None if none is found (asked once reading failed)."""
    expect = ["solid"]  # the keywords allowed next, in order of the grammar
    facet = ["outer loop", "vertex", "vertex", "vertex", "endloop", "endfacet"]
    said = {"solid": "'solid NAME'", "facet": "'facet normal nx ny nz' or 'endsolid'", "outer loop": "'outer loop'",
            "vertex": "'vertex x y z' (3 numbers)", "endloop": "'endloop'", "endfacet": "'endfacet'"}
    n = 0
    with open(path, "rb") as fh:
        fh.seek(start)
        for n, raw in enumerate(fh, start=1):
            words = raw.decode("latin-1").split()
            if not words:
                continue
            head = " ".join(w.lower() for w in words[:2])
            want = expect[0]
            if want == "solid":
                ok = words[0].lower() == "solid"
                nxt = ["facet"]
            elif want == "facet":
                if words[0].lower() == "endsolid":
                    expect = ["solid"]
                    continue
                ok, nxt = head == "facet normal" and _numbers(words[2:]), facet
            elif want == "vertex":
                ok, nxt = words[0].lower() == "vertex" and _numbers(words[1:]), expect[1:]
            else:
                ok, nxt = (head if " " in want else words[0].lower()) == want and len(words) == len(want.split()), \
                    expect[1:] or ["facet"]
            if not ok:
                text = " ".join(words)
                text = text if len(text) <= 60 else text[:57] + "..."
                if not raw.endswith(b"\n"):  # the last line, cut short
                    return f"the text ends at line {n} ({text!r}, cut short) before its 'endsolid' (a truncated file?)"
                return f"line {n} is {text!r}; expected {said[want]}"
            expect = nxt
    if expect != ["solid"]:
        return f"the text ends at line {n} before its 'endsolid' (a truncated file?)"
    return None


def _numbers(words) -> bool:
    if len(words) != 3:
        return False
    try:
        [float(w) for w in words]
    except ValueError:
        return False
    return True


def _ascii_solids(path, reader, ascii_mode, start: int = 0) -> np.ndarray:
    """The triangles [N, 3, 3] of every 'solid ... endsolid' block of an ASCII STL file, one after another (a CAD
    assembly exported as one file: numpy-stl's Mesh.from_file reads the first alone, and the other parts were
    dropped, unsaid). Whitespace (NUL and Ctrl-Z too) may follow the last block, anything else is an error. The
    text starts at byte `start` (after a byte-order mark); a block may begin with one too."""
    parts = []
    with open(path, "rb") as fh:
        fh.seek(start)
        while True:
            _, data = reader.load(fh, mode=ascii_mode, speedups=False)
            parts.append(np.asarray(data["vectors"], dtype=np.float64).reshape(-1, 3, 3))
            # numpy-stl leaves the file after the 'endsolid' line, or, where that line is longer than its read
            # (4 KiB: a long solid name), inside it: its rest is skipped, not taken for text after the block
            at = fh.tell()
            if at > 0 and fh.seek(at - 1) >= 0 and fh.read(1) != b"\n":
                while (line := fh.readline(1 << 16)) and not line.endswith(b"\n"):
                    pass
            while True:  # past the whitespace after 'endsolid': the end of the file, or the next block
                pos = fh.tell()
                chunk = fh.read(1 << 16)
                rest = chunk.lstrip(_SPACE)
                if rest or not chunk:
                    break
            if not rest:
                return np.concatenate(parts)
            at = pos + len(chunk) - len(rest)
            if rest.startswith(_BOM):  # (`cat` of exports that each begin with one: refused as damaged)
                at += len(_BOM)
            fh.seek(at)
            if fh.read(5).lower() != b"solid":
                raise _AfterEnd(f"after 'endsolid' of solid {len(parts)}, byte {at} starts {rest[:20]!r}; expected "
                                 f"the end of the file or the next 'solid'")
            fh.seek(at)


MAX_DEGREES = 360  # the largest angle of a placement's rotation (a turn; beyond, its rounding turned it anyhow)


class PlacementError(ValueError):
    """A placement (scale, translation, rotation: `key`) that the body of a sound STL file cannot take; its message
    says why, without the file's or the setting's name before it."""

    def __init__(self, key: str, message: str):
        super().__init__(message)
        self.key = key


def rotation_matrix(angles_deg) -> np.ndarray:
    """Rotation by angles (degrees) about x, then y, then z (fixed axes, right-handed)."""
    rx, ry, rz = (math.radians(float(a)) for a in angles_deg)
    cx, sx, cy, sy, cz, sz = math.cos(rx), math.sin(rx), math.cos(ry), math.sin(ry), math.cos(rz), math.sin(rz)
    mx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    my = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    mz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return mz @ my @ mx


# --------------------------------------------------------------------------------------------------
# exact predicates


def _orient_exact(ax, ay, bx, by, px, py) -> int:
    ax, ay, bx, by, px, py = (Fraction(float(v)) for v in (ax, ay, bx, by, px, py))
    det = (ax - px) * (by - py) - (ay - py) * (bx - px)
    return (det > 0) - (det < 0)


def _orient(ax, ay, bx, by, px, py, perturb: bool = True) -> np.ndarray:
    """int8 sign of orient2d(a, b, p) = (a - p) x (b - p), exact; where it is 0 and `perturb`, that of p
    moved by (e, e^2): the sign of ay - by, or of bx - ax where ay == by. Antisymmetric in a, b."""
    left = (ax - px) * (by - py)
    right = (ay - py) * (bx - px)
    det = left - right
    s = np.sign(det).astype(np.int8)
    unsure = np.nonzero(np.abs(det) <= _ORIENT_BOUND * (np.abs(left) + np.abs(right)))[0]
    for k in unsure:  # rare: p within round-off of the line through a and b
        s[k] = _orient_exact(ax[k], ay[k], bx[k], by[k], px[k], py[k])
    if perturb:
        zero = s == 0
        if zero.any():
            tie = np.sign(ay[zero] - by[zero])
            tie = np.where(tie == 0, np.sign(bx[zero] - ax[zero]), tie)
            s[zero] = tie.astype(np.int8)
    return s


def _min3(w):
    return np.minimum(np.minimum(w[:, 0], w[:, 1]), w[:, 2])


def _max3(w):
    return np.maximum(np.maximum(w[:, 0], w[:, 1]), w[:, 2])


class _QueryBins:
    """Query points wq [Nq, 2] sorted into a grid of square bins (about four per query), to find the
    (query, triangle) pairs whose query lies in a projected triangle's bounding box."""

    def __init__(self, wq):
        nq = len(wq)
        ext = wq.max(axis=0) - wq.min(axis=0)
        h = 0.5 * max(math.sqrt(ext[0] * ext[1] / nq), max(ext) / nq)
        self.h = h if h > 0 else 1.0
        self.base = np.floor(wq.min(axis=0) / self.h)
        qb = (np.floor(wq / self.h) - self.base).astype(np.int64)
        self.nb = qb.max(axis=0) + 1
        key = qb[:, 0] * self.nb[1] + qb[:, 1]
        self.order = np.argsort(key, kind="stable")
        # a dense table of the bins (at most ~12 Nq by the choice of h): where each bin's queries start, how many
        self.count = np.bincount(key, minlength=int(self.nb[0] * self.nb[1]))
        self.start = np.cumsum(self.count) - self.count

    def _bin_ranges(self, lo0, lo1, hi0, hi1):
        h, base, nb = self.h, self.base, self.nb
        # monotone: a query inside a box falls in a bin inside the box's bins
        b0 = np.maximum(np.floor(lo0 / h) - base[0], 0).astype(np.int64)
        b1 = np.maximum(np.floor(lo1 / h) - base[1], 0).astype(np.int64)
        n0 = np.minimum(np.floor(hi0 / h) - base[0], nb[0] - 1).astype(np.int64) - b0 + 1
        n1 = np.minimum(np.floor(hi1 / h) - base[1], nb[1] - 1).astype(np.int64) - b1 + 1
        return b0, b1, n0, n1

    def counts(self, b0, b1, n0, n1):
        """What `pairs` forms for each box (its bins `_bin_ranges`), without forming it: the pairs (the queries in
        the bins its box covers, from a summed-area table of the bins) and the bins."""
        if not hasattr(self, "_sat"):
            sat = np.zeros((self.nb[0] + 1, self.nb[1] + 1), np.int64)
            sat[1:, 1:] = self.count.reshape(self.nb[0], self.nb[1]).cumsum(axis=0).cumsum(axis=1)
            self._sat = sat
        ok = (n0 > 0) & (n1 > 0)  # (else a box off the bins: none)
        b0, b1 = np.where(ok, b0, 0), np.where(ok, b1, 0)
        e0, e1 = np.where(ok, b0 + n0, 0), np.where(ok, b1 + n1, 0)
        sat = self._sat
        # and the bins themselves, which `pairs` forms first (empty ones too: about four per query where they hold any)
        return sat[e0, e1] - sat[b0, e1] - sat[e0, b1] + sat[b0, b1] + np.where(ok, n0 * n1, 0)

    def pairs(self, b0, b1, n0, n1):
        """(query, triangle) index pairs for the boxes whose bins `_bin_ranges` gave (arrays [Nt]); each pair once."""
        nb = self.nb
        cnt = np.where((n0 > 0) & (n1 > 0), n0 * n1, 0)
        tri = np.nonzero(cnt)[0]
        cnt = cnt[tri]
        one = cnt == 1  # most small triangles: one bin, no expansion
        tri_m = tri[~one]
        cnt_m = cnt[~one]
        rep = np.repeat(tri_m, cnt_m)
        off = np.arange(len(rep)) - np.repeat(np.cumsum(cnt_m) - cnt_m, cnt_m)
        n1r = n1[rep]
        tri_all = np.concatenate([tri[one], rep])
        bkey = np.concatenate([b0[tri[one]] * nb[1] + b1[tri[one]],
                               (b0[rep] + off // n1r) * nb[1] + b1[rep] + off % n1r])
        s = self.start[bkey]
        c = self.count[bkey]
        hit = c > 0
        tri_all, s, c = tri_all[hit], s[hit], c[hit]
        t2 = np.repeat(tri_all, c)
        q = self.order[np.repeat(s, c) + np.arange(len(t2)) - np.repeat(np.cumsum(c) - c, c)]
        return q, t2


# --------------------------------------------------------------------------------------------------
# the shape


class TriangleMesh(Shape):
    """A closed triangle surface in physical coordinates: `triangles` float [N, 3, 3]. Vertices equal
    bit for bit are merged, triangles with two equal corners and repeated triangles (`duplicates` of them: the same
    corners in the same turn) are left out; ValueError if there are no triangles or the surface is not closed (an edge
    shared by an odd number of triangles). `from_file` reads an STL file and places it."""

    dim = 3

    def __init__(self, triangles, name: str = "mesh"):
        tri = np.asarray(triangles, dtype=np.float64)
        self.name = str(name)
        if tri.ndim != 3 or tri.shape[1:] != (3, 3):
            raise ValueError(f"{self.name}: triangles must be an array [N, 3, 3], got shape {tri.shape}")
        if tri.shape[0] == 0:
            raise ValueError(f"{self.name}: holds no triangles; expected a closed surface")
        if not np.isfinite(tri).all():
            raise ValueError(f"{self.name}: has non-finite coordinates")
        # one set of coordinates per vertex (+ 0.0 makes -0.0 equal to 0.0)
        verts, inv = _merge(tri.reshape(-1, 3) + 0.0)
        faces = inv.reshape(-1, 3)
        # a triangle with two equal corners (an exporter's zero-area sliver, or corners made equal by STL's float32)
        # bounds nothing and no line crosses it; its edge from a corner to itself made a closed surface "not closed"
        keep = (faces[:, 0] != faces[:, 1]) & (faces[:, 1] != faces[:, 2]) & (faces[:, 2] != faces[:, 0])
        if not keep.any():
            raise ValueError(f"{self.name}: each of its {len(faces)} triangles has two equal corners (no area); "
                             f"expected a closed surface")
        faces = faces[keep]
        # a triangle written again with the same corners in the same turn (a face exported twice, a part twice in one
        # file): each copy was a crossing of its own, so that by parity a surface written twice held no cell and one
        # triangle written twice made the surface "not closed". Of the copies that turn one way, one is kept, and
        # of those that turn the other way (back to back: two parts' common face) one too; where the surface is
        # then not closed but is with every copy of the triangles turned both ways (one, and two turned over), those
        # are kept as they are. (A part written twice beside another, their common face back to back, kept its two
        # copies of that face: "not closed", 5 triangles at its edges)
        corners = np.sort(faces, axis=1)
        order = np.lexsort((corners[:, 2], corners[:, 1], corners[:, 0]))
        corners = corners[order]
        same = np.all(corners[1:] == corners[:-1], axis=1)  # as the triangle before it in order
        del corners
        again = np.zeros(len(faces), bool)
        kept = None  # the triangles turned both ways, all their copies kept (tried where the above is not closed)
        if same.any():  # (rare: the sorts above are all a sound file costs)
            first = np.argmin(faces, axis=1)[:, None]
            turn = np.take_along_axis(faces, (first + np.arange(3)) % 3, axis=1)[:, 1] < faces.max(axis=1)
            starts = np.concatenate([[0], np.nonzero(~same)[0] + 1])
            both = np.minimum.reduceat(turn[order], starts) != np.maximum.reduceat(turn[order], starts)
            group = np.cumsum(np.concatenate([[True], ~same]))  # of each triangle in order: its corners' group
            once = np.zeros(len(faces), bool)
            once[np.unique(group * 2 + turn[order], return_index=True)[1]] = True  # the first of each turn
            again[order] = ~once
            if both.any():
                kept = np.zeros(len(faces), bool)
                kept[order[1:]] = same & ~np.repeat(both, np.diff(np.append(starts, len(faces))))[1:]
        self.vertices = verts
        for k, out in enumerate((again, kept)):
            self.duplicates = int(np.count_nonzero(out))
            self.faces = faces[~out]
            try:
                self._check_closed()
                break
            except ValueError:
                if k == 1 or kept is None or np.array_equal(kept, again):
                    raise
        self.volume = self._enclosed_volume()
        t = verts[self.faces]
        self._coords = [np.ascontiguousarray(t[:, :, a]) for a in range(3)]  # x, y, z [N, 3] of the vertices
        self.lo = np.stack([_min3(x) for x in self._coords], axis=1)  # [N, 3] bounding box of each triangle
        self.hi = np.stack([_max3(x) for x in self._coords], axis=1)
        self.bounds = (self.lo.min(axis=0), self.hi.max(axis=0))

    @classmethod
    def from_file(cls, path, scale: float = 1.0, translate=(0.0, 0.0, 0.0), rotate=(0.0, 0.0, 0.0)):
        """The mesh of STL file `path` (binary or ASCII), scaled by `scale` about the file's origin, then
        rotated by `rotate` (degrees about x, then y, then z, through the origin), then moved by `translate`."""
        tri = read_stl(path)
        scale = float(scale)
        if not (math.isfinite(scale) and scale > 0):
            raise ValueError(f"STL file {path}: scale {scale!r}; expected a positive finite number")
        for a in rotate:  # 1e308 degrees turned the body by whatever the rounding of that angle left, unsaid
            if not (math.isfinite(float(a)) and abs(float(a)) <= MAX_DEGREES):
                raise PlacementError("rotate", f"the angle {float(a):g} degrees; expected angles within "
                                               f"-{MAX_DEGREES} .. {MAX_DEGREES} degrees")
        across = float(np.ptp(tri.reshape(-1, 3), axis=0).max())  # the body's extent in the file's units
        with np.errstate(over="ignore", invalid="ignore"):  # said below, in one line
            placed = tri * scale
            if any(float(a) != 0.0 for a in rotate):
                placed = placed @ rotation_matrix(rotate).T
        if not np.isfinite(placed).all():  # scale 1e308: "has non-finite coordinates", said of the file
            raise PlacementError("scale", f"the body of STL file {path}, {across:g} across in the file, is beyond "
                                          f"float64's range scaled by it; expected a smaller scale")
        with np.errstate(over="ignore"):
            placed = placed + np.asarray(translate, dtype=np.float64)
        if not np.isfinite(placed).all():
            raise PlacementError("translate", f"the body of STL file {path} moved by it is beyond float64's range; "
                                              f"expected a translation that places it in the domain")
        try:
            return cls(placed, name=f"STL file {path}")
        except ValueError as e:
            msg = str(e)
            try:  # the file's own surface is sound: the placement made its corners equal (scale 1e-320: a body
                cls(tri, name="")  # below float64's resolution where it is moved), said of the file
            except ValueError:
                raise ValueError(msg if msg.startswith("STL file") else f"STL file {path}: {msg}") from None
            why = msg.split(": ", 1)[-1].split("; expected")[0]  # each of its N triangles has two equal corners
            raise PlacementError("scale", f"the body of STL file {path}, {across * scale:.3g} across once scaled, "
                                          f"is below float64's resolution where it is placed (translation "
                                          f"{', '.join(f'{float(t):g}' for t in translate)}): {why}; "
                                          f"expected a larger scale or a translation nearer the origin (float64 "
                                          f"tells apart 2.2e-16 of a coordinate)") from None

    def __repr__(self):
        return f"TriangleMesh({self.name!r}, {len(self.faces)} triangles)"

    def _check_closed(self):
        """Every edge shared by an even number of triangles (else a ValueError naming one); sets `oriented`:
        whether every edge is run through as often in one direction as in the other by its triangles (a closed
        surface whose triangles all turn the same way, as an STL's outward normals make it). The crossings then
        have a sign, and a point is inside where their sum (the winding number) is not 0: of two overlapping
        closed shells (an assembly of parts) parity made the overlap a hollow of fluid, the winding number makes
        it the union. A surface with turned triangles keeps the parity rule."""
        f = self.faces
        nv = len(self.vertices)
        e = np.concatenate([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]])
        turn = np.where(e[:, 0] < e[:, 1], 1, -1)  # the direction each triangle runs through the edge
        e.sort(axis=1)
        keys, which, counts = np.unique(e[:, 0] * nv + e[:, 1], return_inverse=True, return_counts=True)
        self.oriented = not np.any(np.bincount(which.reshape(-1), weights=turn, minlength=len(keys)))
        odd = keys[counts % 2 == 1]
        if len(odd):
            a, b = self.vertices[odd[0] // nv], self.vertices[odd[0] % nv]
            raise ValueError(
                f"{self.name}: the surface is not closed: {len(odd)} edges belong to an odd number of triangles "
                f"(e.g. the edge from {tuple(float(x) for x in a)} to {tuple(float(x) for x in b)}); expected a "
                f"closed (watertight) triangle surface with the vertices of neighbouring triangles equal bit for "
                f"bit: close the holes or merge the vertices in a mesh tool (e.g. MeshLab, Blender, trimesh)")

    def _enclosed_volume(self):
        """The volume the surface encloses (the divergence theorem: the sum of the signed tetrahedra of its triangles
        with the centre of its box, positive for outward normals), where every triangle turns the same way
        (`oriented`); None where some are turned over (the sum then means nothing). Per closed shell (the pieces
        that share no vertex; `shells` of them): `turned` counts those that turn the other way than the largest (a
        cavity, whose volume the sum takes off; or a part turned over, as mirroring does, which the winding number
        makes solid all the same: `parts_volume` counts it, the sum of every shell's). ValueError for a surface
        that encloses none, each shell's sum within round-off of 0: triangles back to back (a flat sheet closed by
        its own other side) bound no solid, and the body was refused later as holding no cell centre, "make it
        larger or the lattice finer", which no scale or resolution mends; a part and its mirror image, whose sums
        cancel, are not refused."""
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        self.shells = self.turned = self.parts_volume = None
        if not self.oriented:
            return None
        f, n = self.faces, len(self.vertices)
        graph = coo_matrix((np.ones(2 * len(f), np.int8), (f[:, :2].reshape(-1), f[:, 1:].reshape(-1))), shape=(n, n))
        _, labels = connected_components(graph, directed=False)
        shell = np.unique(labels[f[:, 0]], return_inverse=True)[1].reshape(-1)  # each triangle's shell, 0 ..
        self.shells = int(shell.max()) + 1
        v = self.vertices - 0.5 * (self.vertices.min(axis=0) + self.vertices.max(axis=0))
        a, b, c = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
        terms = np.einsum("ij,ij->i", a, np.cross(b, c)) / 6.0
        vol = np.bincount(shell, weights=terms, minlength=self.shells)
        # round-off of each shell's sum: far below 1e-12 of its terms' magnitudes (a body's tetrahedra are all of
        # one sign: the sum is their magnitude; a sheet's cancel pairwise, to within round-off)
        empty = np.abs(vol) <= 1e-12 * np.bincount(shell, weights=np.abs(terms), minlength=self.shells)
        if np.all(empty):
            raise ValueError(f"{self.name}: encloses no volume (its {len(self.faces)} triangles lie back to back: "
                             f"a flat or folded surface, closed by its own other side); expected a closed surface "
                             f"around a solid body")
        vol = np.where(empty, 0.0, vol)
        self.turned = int(np.count_nonzero(vol * vol[np.argmax(np.abs(vol))] < 0))
        self.parts_volume = float(np.abs(vol).sum())
        return abs(float(vol.sum()))

    # ---- line-triangle intersections -----------------------------------------------------------------

    def _line_hits(self, p, v, box=None, signs: bool = False):
        """All crossings of the lines p + t v (p [Nq, 3], one direction v [3]) with the surface:
        (query index, t), the lines through edges and vertices decided as described in the module.
        box: (lo, hi) [3] if only triangles whose bounding box meets it are wanted. signs: also the side
        each crossing leaves through (+1 / -1: the exact orientation of the triangle's projection)."""
        v = np.asarray(v, dtype=np.float64)
        m = int(np.argmax(np.abs(v)))
        oth = [a for a in range(3) if a != m]
        r = v[oth] / v[m]
        wq = p[:, oth] - p[:, [m]] * r  # the projection along v onto the plane x_m = 0
        sel = np.ones(len(self.faces), bool)
        for a in range(3 if box is not None else 0):
            if np.isfinite(box[0][a]):
                sel &= self.hi[:, a] >= box[0][a]
            if np.isfinite(box[1][a]):
                sel &= self.lo[:, a] <= box[1][a]
        ids = None if sel.all() else np.nonzero(sel)[0]  # None: every triangle (read as slices, no copies)
        n = len(self.faces) if ids is None else len(ids)
        bins = _QueryBins(wq)
        qs, ts, ss = [], [], []
        for c0 in range(0, n, _CHUNK):  # bounded memory for the projected corners of one chunk
            part = slice(c0, min(c0 + _CHUNK, n)) if ids is None else ids[c0:c0 + _CHUNK]
            q, t, sg = self._chunk_hits(p, v, m, oth, r, wq, bins, part)
            qs.append(q)
            ts.append(t)
            ss.append(sg)
        if not qs:
            return (np.zeros(0, np.int64), np.zeros(0)) + ((np.zeros(0, np.int64),) if signs else ())
        return (np.concatenate(qs), np.concatenate(ts)) + ((np.concatenate(ss),) if signs else ())

    def _chunk_hits(self, p, v, m, oth, r, wq, bins, ids):
        X = self._coords
        # the projected vertices [n, 3] of each projected axis; the same float operations on every copy of
        # a vertex, so that neighbouring triangles see their shared vertices bit for bit alike
        W = []
        for j, a in enumerate(oth):
            xa, xm = X[a][ids], X[m][ids]
            W.append(xa if r[j] == 0 else (xa - xm if r[j] == 1 else (xa + xm if r[j] == -1 else xa - xm * r[j])))
        lo0, lo1, hi0, hi1 = _min3(W[0]), _min3(W[1]), _max3(W[0]), _max3(W[1])
        # the triangles in batches of about _PAIRS candidate pairs and bins (at least one triangle each)
        ranges = bins._bin_ranges(lo0, lo1, hi0, hi1)
        total = np.cumsum(bins.counts(*ranges))
        cuts, at = [0], 0
        while at < len(total):
            base = total[at - 1] if at else 0
            at = max(at + 1, int(np.searchsorted(total, base + _PAIRS, side="right")))
            cuts.append(min(at, len(total)))
        out = [self._batch_hits(p, v, W, (lo0, lo1, hi0, hi1), ranges, wq, bins, ids, slice(a, b))
               for a, b in zip(cuts[:-1], cuts[1:])]
        if len(out) == 1:
            return out[0]
        return tuple(np.concatenate(x) for x in zip(*out))

    def _batch_hits(self, p, v, W, box, ranges, wq, bins, ids, sub):
        X = self._coords
        W = [w[sub] for w in W]
        lo0, lo1, hi0, hi1 = (b[sub] for b in box)
        ids = ids[sub] if not isinstance(ids, slice) else slice(ids.start + sub.start, ids.start + sub.stop)
        q, k = bins.pairs(*(r[sub] for r in ranges))
        px, py = wq[q, 0], wq[q, 1]
        inbox = (px >= lo0[k]) & (px <= hi0[k]) & (py >= lo1[k]) & (py <= hi1[k])
        q, k, px, py = q[inbox], k[inbox], px[inbox], py[inbox]
        if not len(q):
            return np.zeros(0, np.int64), np.zeros(0), np.zeros(0, np.int64)
        w0, w1 = W[0][k], W[1][k]  # [pairs, 3]
        o = _orient(w0[:, 0], w1[:, 0], w0[:, 1], w1[:, 1], w0[:, 2], w1[:, 2], perturb=False)
        ok = o != 0  # a triangle seen edge-on: the moved line misses it
        for i in range(3):
            j = (i + 1) % 3
            ok &= _orient(w0[:, i], w1[:, i], w0[:, j], w1[:, j], px, py) == o
        q, k, sign = q[ok], k[ok], o[ok].astype(np.int64)
        tid = k + ids.start if isinstance(ids, slice) else ids[k]
        tv = np.stack([X[0][tid], X[1][tid], X[2][tid]], axis=-1)  # [hits, 3 vertices, 3]
        nrm = np.cross(tv[:, 1] - tv[:, 0], tv[:, 2] - tv[:, 0])
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.einsum("ij,ij->i", tv[:, 0] - p[q], nrm) / (nrm @ v)
        # the crossing lies within the triangle's own extent along the line (guards nearly edge-on ones)
        tvert = np.einsum("ijk,k->ij", tv - p[q][:, None, :], v) / (v @ v)
        t = np.clip(np.nan_to_num(t, nan=0.0), tvert.min(axis=1), tvert.max(axis=1))
        return q, t, sign

    # ---- Shape ------------------------------------------------------------------------------------------

    def inside(self, points):
        """bool: points inside, by the parity of the crossings of a ray along +z (ties as in the module doc).
        points: 3 broadcastable coordinate arrays; an axis-aligned grid (shapes (n,1,1), (1,m,1), (1,1,k),
        as `Obstacles.block` passes) casts one ray per (x, y) column."""
        self._check_dim(points)
        pts = [np.asarray(x, dtype=np.float64) for x in points]
        grid = _grid_axes(pts)
        if grid is not None:
            return self._inside_grid(*grid)
        shape = np.broadcast_shapes(*[x.shape for x in pts])
        flat = [np.broadcast_to(x, shape).reshape(-1) for x in pts]
        out = np.zeros(len(flat[0]), bool)
        if not len(out):
            return out.reshape(shape)
        p = np.stack([flat[0], flat[1], np.zeros_like(flat[0])], axis=1)
        box = (np.array([flat[0].min(), flat[1].min(), -np.inf]), np.array([flat[0].max(), flat[1].max(), np.inf]))
        q, z, sign = self._line_hits(p, (0.0, 0.0, 1.0), box=box, signs=True)
        up = z > flat[2][q]  # the point moved up by e^3
        if self.oriented:  # the winding number: the union of overlapping shells
            return (np.bincount(q[up], weights=sign[up], minlength=len(out)) != 0).reshape(shape)
        return (np.bincount(q[up], minlength=len(out)) % 2 == 1).reshape(shape)

    def _inside_grid(self, xs, ys, zs):
        nx, ny, nz = len(xs), len(ys), len(zs)
        out = np.zeros((nx, ny, nz), bool)
        if not out.size:
            return out
        gx, gy = np.meshgrid(xs, ys, indexing="ij")
        p = np.stack([gx.ravel(), gy.ravel(), np.zeros(nx * ny)], axis=1)
        box = (np.array([xs.min(), ys.min(), -np.inf]), np.array([xs.max(), ys.max(), np.inf]))
        col, z, sign = self._line_hits(p, (0.0, 0.0, 1.0), box=box, signs=True)
        zorder = np.argsort(zs, kind="stable")  # wrapped block indices are not sorted
        zsorted = zs[zorder]
        # a crossing at height z counts for every cell strictly below it (a cell centre moved up by e^3): mark
        # it, accumulate downwards: the parity of the crossings, or their signed sum (the winding number)
        kk = np.searchsorted(zsorted, z, side="left")
        if self.oriented:
            marks = np.zeros(nx * ny * (nz + 1), np.int64)
            np.add.at(marks, col * (nz + 1) + kk, sign)
            marks = marks.reshape(nx * ny, nz + 1)
            par = np.cumsum(marks[:, ::-1], axis=1)[:, ::-1][:, 1:] != 0
        else:
            keys, counts = np.unique(col * (nz + 1) + kk, return_counts=True)
            flips = np.zeros(nx * ny * (nz + 1), np.uint8)
            flips[keys[counts % 2 == 1]] = 1
            flips = flips.reshape(nx * ny, nz + 1)
            par = np.bitwise_xor.accumulate(flips[:, ::-1], axis=1)[:, ::-1][:, 1:].astype(bool)
        out = np.empty((nx * ny, nz), bool)
        out[:, zorder] = par
        return out.reshape(nx, ny, nz)

    def crossing(self, p, v):
        """The smallest t in [0, 1] with p + t v on the surface (np.inf where the segment misses it).
        p, v: 3 broadcastable coordinate arrays. Segments along one line direction (v and -v alike) are
        intersected in one pass over the triangles."""
        arr = np.broadcast_arrays(*[np.asarray(x, dtype=np.float64) for x in list(p) + list(v)])
        shape = arr[0].shape
        P = np.stack([a.reshape(-1) for a in arr[:3]], axis=1)
        V = np.stack([a.reshape(-1) for a in arr[3:]], axis=1)
        t = np.full(len(P), np.inf)
        if not len(P):
            return t.reshape(shape)
        # the direction of each line, signed so that its first nonzero component is positive
        first = np.take_along_axis(V, np.argmax(V != 0, axis=1)[:, None], axis=1)[:, 0]
        sign = np.where(first < 0, -1.0, 1.0)
        dirs, which = np.unique(V * sign[:, None] + 0.0, axis=0, return_inverse=True)
        which = which.reshape(-1)
        for j, d in enumerate(dirs):
            if not np.any(d != 0):
                continue
            idx = np.nonzero(which == j)[0]
            pj, sj = P[idx], sign[idx]
            ends = np.concatenate([pj, pj + V[idx]])
            q, tq = self._line_hits(pj, d, box=(ends.min(axis=0), ends.max(axis=0)))
            tq = tq * sj[q]  # along v = -d the parameter changes sign
            hit = (tq >= -1e-9) & (tq <= 1.0 + 1e-9)
            tj = np.full(len(idx), np.inf)
            np.minimum.at(tj, q[hit], np.clip(tq[hit], 0.0, 1.0))
            t[idx] = tj
        return t.reshape(shape)

    def interval(self, p, v):
        raise NotImplementedError("a triangle mesh is not convex: use crossing(p, v)")


def _merge(v):
    """(unique rows of v [M, 3], the index of each row among them): rows equal bit for bit are one."""
    bits = np.ascontiguousarray(v).view(np.int64)
    order = np.lexsort((bits[:, 2], bits[:, 1], bits[:, 0]))
    sb = bits[order]
    new = np.ones(len(v), bool)
    new[1:] = np.any(sb[1:] != sb[:-1], axis=1)
    ids = np.cumsum(new) - 1
    inv = np.empty(len(v), np.int64)
    inv[order] = ids
    return v[order[new]], inv


def _grid_axes(pts):
    """(x, y, z) 1D arrays if pts are 3 arrays each varying along its own axis only, else None."""
    if any(x.ndim != 3 for x in pts):
        return None
    out = []
    for a, x in enumerate(pts):
        if any(n != 1 for k, n in enumerate(x.shape) if k != a):
            return None
        out.append(x.reshape(-1))
    return out
