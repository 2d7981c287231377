"""STL obstacles (distlbm/stl.py, the stl() obstacle of cases/obstacles): the voxelised STL sphere and
cylinder equal the analytic primitives cell for cell with q within 1e-5, ties on edges and vertices,
per-block construction, damaged and open files, the obstacle grammar, and the drag of the STL sphere."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from distlbm import geometry as geo
from distlbm.cases.base import ConfigError
from distlbm.cases.obstacles import parse_obstacles
from distlbm.lattice import get_lattice

pytest.importorskip("stl", reason="numpy-stl (the 'stl' extra) is not installed")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from make_stl import icosphere, write_stl  # noqa: E402

from distlbm.stl import TriangleMesh, read_stl  # noqa: E402

D3Q19 = get_lattice("D3Q19")


# ---- meshes whose voxelisation equals the primitive's exactly ----------------------------------------
# Every lattice line (through a cell centre along a lattice direction) meets the sphere where the
# polyhedron has a vertex: the convex hull of those points lies inside the ball and holds every chord
# between them, so a cell centre is inside the hull iff it is inside the ball, and a link enters the
# hull where it enters the ball. The meshes are therefore exact for the voxelisation, and rays through
# the test lattice pass through their vertices and edges all the time (ties).


def _families():
    fam = []
    for c in get_lattice("D3Q27").c:
        c = np.asarray(c)
        if c.any():
            c = c * c[np.nonzero(c)[0][0]]
            if not any((c == f).all() for f in fam):
                fam.append(c)
    return fam


def _line_points(shape, center, radius, axes):
    """Lattice units: the points where the lattice lines meet the ball (axes (0, 1, 2)) or the infinite
    cylinder (axes (0, 1)) of `radius` about `center`."""
    idx = np.stack(np.meshgrid(*[np.arange(n) for n in shape], indexing="ij"), -1).reshape(-1, 3)
    pts = []
    for c in _families():
        if len(axes) == 2 and c[2] != 0:
            continue  # their projections onto the cross-section are lines of the other families
        m = np.nonzero(c)[0][0]
        lines = np.unique(idx - idx[:, [m]] * c, axis=0).astype(float)  # exact: the line's point at u_m = 0
        d = (lines - center)[:, list(axes)]
        cc = c[list(axes)]
        a, b, q = cc @ cc, d @ cc, (d * d).sum(1) - radius ** 2
        disc = b * b - a * q
        ok = disc > 0
        for sgn in (-1.0, 1.0):
            t = (-b[ok] + sgn * np.sqrt(disc[ok])) / a
            pts.append(lines[ok] + t[:, None] * c)
    return np.unique(np.concatenate(pts), axis=0)


def hull_sphere(shape, dx, origin, center, radius):
    from scipy.spatial import ConvexHull

    c = (np.asarray(center) - origin) / dx - 0.5
    p = np.asarray(origin) + (_line_points(shape, c, radius / dx, (0, 1, 2)) + 0.5) * dx
    return p[ConvexHull(p).simplices]


def hull_cylinder(shape, dx, origin, center, radius, z0, z1):
    """A prism along z over the polygon of the lattice lines' crossings with the circle, capped at z0, z1."""
    c = (np.asarray(list(center) + [0.0]) - origin) / dx - 0.5
    p = _line_points(shape, c, radius / dx, (0, 1))[:, :2]
    p = np.unique(np.asarray(origin[:2]) + (p + 0.5) * dx, axis=0)
    p = p[np.argsort(np.arctan2(p[:, 1] - center[1], p[:, 0] - center[0]))]
    n = len(p)
    lo = np.column_stack([p, np.full(n, z0)])
    hi = np.column_stack([p, np.full(n, z1)])
    nxt = np.roll(np.arange(n), -1)
    cl, ch = np.array([*center, z0]), np.array([*center, z1])
    tri = [np.stack([lo, lo[nxt], hi[nxt]], 1), np.stack([lo, hi[nxt], hi], 1),
           np.stack([np.broadcast_to(cl, lo.shape), lo[nxt], lo], 1),
           np.stack([np.broadcast_to(ch, hi.shape), hi, hi[nxt]], 1)]
    return np.concatenate(tri)


def _block(shape_obj, shape, dx, origin, index=None):
    index = index or tuple(slice(0, n) for n in shape)
    return geo.Obstacles([shape_obj], dx=dx, origin=origin, lattice=D3Q19).block(index, shape)


def _compare(a, b, tol=1e-5):
    np.testing.assert_array_equal(a.solid, b.solid)
    np.testing.assert_array_equal(a.q > 0, b.q > 0)
    np.testing.assert_array_equal(a.link_body, b.link_body)
    assert np.abs(a.q - b.q).max() <= tol


SPHERES = [  # lattice shape, dx, centre, radius: a few resolutions (radius 2.7 to 6.3 cells); the centre
    # near the coordinate origin, where the float32 coordinates of an STL file are finest
    ((12, 11, 10), 0.1, (0.01, 0.03, -0.01), 0.27),
    ((18, 16, 17), 0.1, (0.07, 0.03, 0.01), 0.513),
    ((24, 20, 20), 0.05, (0.01, 0.0, 0.02), 0.315),
]


@pytest.mark.parametrize("fmt", ["binary", "ascii"])
@pytest.mark.parametrize("shape,dx,center,radius", SPHERES)
def test_stl_sphere_equals_the_sphere(tmp_path, fmt, shape, dx, center, radius):
    origin = tuple(-n * dx / 2 + o for n, o in zip(shape, (-0.03, 0.01, 0.0)))
    path = tmp_path / f"sphere_{fmt}.stl"
    write_stl(path, hull_sphere(shape, dx, origin, center, radius), ascii=fmt == "ascii")
    mesh = TriangleMesh.from_file(path)
    ref = _block(geo.Sphere(center, radius), shape, dx, origin)
    got = _block(mesh, shape, dx, origin)
    assert ref.solid.sum() > 50 and (ref.q > 0).sum() > 100
    _compare(got, ref)  # STL stores float32: q within 1e-5 of the exact sphere's


@pytest.mark.parametrize("fmt", ["binary", "ascii"])
@pytest.mark.parametrize("shape,dx,center,radius", [((14, 12, 6), 0.1, (0.03, -0.02), 0.31),
                                                    ((22, 20, 4), 0.05, (0.02, -0.01), 0.333)])
def test_stl_cylinder_equals_the_cylinder(tmp_path, fmt, shape, dx, center, radius):
    origin = (-0.6, -0.5, 0.0)
    path = tmp_path / "cyl.stl"
    tri = hull_cylinder(shape, dx, origin, center, radius, -1.0, shape[2] * dx + 1.0)  # caps off the lattice
    write_stl(path, tri, ascii=fmt == "ascii")
    got = _block(TriangleMesh.from_file(path), shape, dx, origin)
    ref = _block(geo.Cylinder(center, radius, axis=2), shape, dx, origin)
    _compare(got, ref)


@pytest.mark.parametrize("lattice", ["D3Q19", "D3Q27"])
def test_exact_mesh_in_float64_gives_q_to_round_off(lattice):
    """In float64 (no STL file) the sphere's q to the float32 round-off of q, on every link of D3Q27 too."""
    shape, dx, origin, center, radius = (16, 15, 14), 0.1, (0.0, 0.0, 0.0), (0.77, 0.74, 0.71), 0.43
    lat = get_lattice(lattice)
    index = tuple(slice(0, n) for n in shape)
    mesh = TriangleMesh(hull_sphere(shape, dx, origin, center, radius))
    got = geo.Obstacles([mesh], dx=dx, origin=origin, lattice=lat).block(index, shape)
    ref = geo.Obstacles([geo.Sphere(center, radius)], dx=dx, origin=origin, lattice=lat).block(index, shape)
    assert got.q.shape[0] == lat.q
    _compare(got, ref, tol=1e-6)  # float32 q


def test_blocks_equal_the_slices_of_the_whole_lattice():
    """Per-block construction (with the periodic wrap of the extended block) equals the whole lattice."""
    shape, dx, origin = (12, 10, 8), 0.1, (0.0, 0.0, 0.0)
    center, radius = (0.05, 0.52, 0.41), 0.33  # across the periodic x boundary
    tri = hull_sphere(shape, dx, origin, center, radius)
    tri = np.concatenate([tri, hull_sphere(shape, dx, origin, (1.25, 0.52, 0.41), radius)])  # its image
    mesh = TriangleMesh(tri)
    whole = _block(mesh, shape, dx, origin)
    assert whole.solid[0].any() and whole.solid[-1].any()
    for index in [(slice(0, 6), slice(0, 5), slice(0, 4)), (slice(6, 12), slice(5, 10), slice(4, 8)),
                  (slice(0, 3), slice(0, 10), slice(0, 8)), (slice(9, 12), slice(2, 7), slice(3, 5))]:
        b = _block(mesh, shape, dx, origin, index)
        np.testing.assert_array_equal(b.solid, whole.solid[index])
        np.testing.assert_array_equal(b.q, whole.q[(slice(None),) + index])


def _box_tri(lo, hi):
    x = [lo[0], hi[0]]
    y = [lo[1], hi[1]]
    z = [lo[2], hi[2]]
    v = np.array([[x[i], y[j], z[k]] for i in (0, 1) for j in (0, 1) for k in (0, 1)])
    f = [(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1), (2, 3, 7), (2, 7, 6), (0, 2, 6),
         (0, 6, 4), (1, 5, 7), (1, 7, 3)]
    return v[np.array(f)]


@pytest.mark.parametrize("lo,hi", [((0.25, 0.375, 0.125), (0.75, 0.625, 0.5)),  # every face through cell centres
                                   ((0.25, 0.25, 0.1875), (0.625, 0.625, 0.4375)),  # xy edges on centres
                                   ((0.3, 0.29, 0.2), (0.61, 0.53, 0.41))])  # nowhere near
def test_box_mesh_with_rays_through_edges_and_vertices(lo, hi):
    """Rays along the faces' diagonals and through the vertices (cell centres at multiples of 1/8, exact in
    binary): the cells and q of the box lo <= x < hi (a centre on a face is decided as if moved by
    (e, e^2, e^3)); the same with half of the triangles turned over (parity needs no orientation)."""
    shape, dx, origin = (10, 9, 7), 0.125, (-0.0625, -0.0625, -0.0625)
    ref = _block(geo.Box(lo, np.asarray(hi) - 1e-9), shape, dx, origin)
    tri = _box_tri(lo, hi)
    _compare(_block(TriangleMesh(tri), shape, dx, origin), ref, tol=1e-6)
    flipped = tri.copy()
    flipped[::2] = flipped[::2, ::-1]
    _compare(_block(TriangleMesh(flipped), shape, dx, origin), ref, tol=1e-6)


def test_inside_of_scattered_points_and_transform(tmp_path):
    """Points off the grid (one ray each) agree with the sphere away from the facets; scale, rotation and
    translation move the vertices as documented."""
    tri = icosphere(3, 1.0)
    path = tmp_path / "ico.stl"
    write_stl(path, tri)
    m = TriangleMesh.from_file(path, scale=0.5, translate=(1.0, 2.0, 3.0), rotate=(0.0, 0.0, 90.0))
    rot = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    want = (read_stl(path) * 0.5) @ rot.T + (1.0, 2.0, 3.0)
    np.testing.assert_allclose(np.sort(m.vertices, axis=0), np.sort(np.unique(want.reshape(-1, 3), axis=0), axis=0),
                               atol=1e-12)
    rng = np.random.default_rng(0)
    p = rng.uniform(-0.6, 0.6, (4000, 3))
    r = np.linalg.norm(p, axis=1)
    ins = m.inside([p[:, 0] + 1.0, p[:, 1] + 2.0, p[:, 2] + 3.0])
    clear = np.abs(r - 0.5) > 0.01  # level 3: the facets lie within 0.0045 of the sphere
    np.testing.assert_array_equal(ins[clear], (r < 0.5)[clear])


@pytest.mark.parametrize("turned", [False, True])
def test_overlapping_shells_are_their_union(turned):
    """Two closed spheres that overlap (an assembly of parts in one file): by the parity of the crossings the
    overlap was a hollow of fluid inside the body, unsaid. The crossings' signed sum (the winding number) makes it
    the union, whichever way the triangles turn (all inward: the same)."""
    a, b = icosphere(3, 0.5), icosphere(3, 0.5) + (0.3, 0.3, 0.3)
    tri = np.concatenate([a, b])
    if turned:
        tri = tri[:, ::-1]
    mesh = TriangleMesh(tri)
    assert mesh.oriented
    rng = np.random.default_rng(1)
    p = rng.uniform(-0.6, 0.9, (6000, 3))
    ra, rb = np.linalg.norm(p, axis=1), np.linalg.norm(p - 0.3, axis=1)
    clear = (np.abs(ra - 0.5) > 0.01) & (np.abs(rb - 0.5) > 0.01)
    union = (ra < 0.5) | (rb < 0.5)
    assert np.count_nonzero(clear & (ra < 0.5) & (rb < 0.5)) > 100  # the overlap is sampled
    np.testing.assert_array_equal(mesh.inside([p[:, 0], p[:, 1], p[:, 2]])[clear], union[clear])
    # the grid of a block (one ray per column)
    shape, dx, origin = (24, 24, 24), 0.0625, (-0.7, -0.7, -0.7)
    solid = _block(mesh, shape, dx, origin).solid
    c = [origin[k] + (np.arange(shape[k]) + 0.5) * dx for k in range(3)]
    x, y, z = np.meshgrid(*c, indexing="ij")
    ra, rb = np.sqrt(x * x + y * y + z * z), np.sqrt((x - 0.3) ** 2 + (y - 0.3) ** 2 + (z - 0.3) ** 2)
    clear = (np.abs(ra - 0.5) > 0.01) & (np.abs(rb - 0.5) > 0.01)
    np.testing.assert_array_equal(solid[clear], ((ra < 0.5) | (rb < 0.5))[clear])


def test_a_surface_with_turned_triangles_keeps_the_parity_rule():
    tri = icosphere(2, 0.5)
    tri[::3] = tri[::3, ::-1]  # a third of the triangles turned over: no winding number, parity decides
    mesh = TriangleMesh(tri)
    assert not mesh.oriented
    p = np.random.default_rng(2).uniform(-0.6, 0.6, (3000, 3))
    r = np.linalg.norm(p, axis=1)
    clear = np.abs(r - 0.5) > 0.02
    np.testing.assert_array_equal(mesh.inside([p[:, 0], p[:, 1], p[:, 2]])[clear], (r < 0.5)[clear])


# ---- errors ------------------------------------------------------------------------------------------


def test_damaged_empty_and_open_files_are_refused(tmp_path):
    tri = icosphere(1)
    good, ascii_ = tmp_path / "good.stl", tmp_path / "ascii.stl"
    write_stl(good, tri)
    write_stl(ascii_, tri, ascii=True)
    data = good.read_bytes()
    cases = {
        "truncated.stl": (data[: len(data) - 30], "damaged or truncated.*header says 80 triangles"),
        "ascii_cut.stl": (ascii_.read_bytes()[:1000], r"damaged: not ASCII STL: the text ends at line 37 \('face', cut "
                                                       r"short\) before its 'endsolid' \(a truncated file\?\)"),
        "garbage.stl": (b"\x00\x01 not an STL file " * 9, "damaged or truncated"),
        "empty.stl": (b"", "is empty"),
        # a binary file whose header starts with 'solid' (as many CAD tools write it), cut short: it was read as
        # ASCII and said "cannot be read as ASCII STL (RuntimeError: (False, 'No lines found, impossible to read'))"
        "solid_cut.stl": (b"solid part".ljust(80) + data[80: len(data) - 30],
                          r"damaged or truncated: not ASCII STL \(binary data after the 'solid' at the start\) and not "
                          r"binary STL \(its header says 80 triangles, 4084 bytes; the file has 4054\)"),
    }
    for name, (content, match) in cases.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(ValueError, match=match):
            TriangleMesh.from_file(tmp_path / name)
    write_stl(tmp_path / "open.stl", tri[:-1])
    with pytest.raises(ValueError, match="open.stl: the surface is not closed: 3 edges"):
        TriangleMesh.from_file(tmp_path / "open.stl")
    write_stl(tmp_path / "none.stl", tri[:0])
    with pytest.raises(ValueError, match="holds no triangles"):
        TriangleMesh.from_file(tmp_path / "none.stl")
    with pytest.raises(ValueError, match="no such file"):
        TriangleMesh.from_file(tmp_path / "missing.stl")
    with pytest.raises(ValueError, match="not a regular file"):
        TriangleMesh.from_file(tmp_path)
    # a name longer than the file system allows: an OSError traceback (ENAMETOOLONG) before
    with pytest.raises(ValueError, match=r"cannot be read \(File name too long\)"):
        TriangleMesh.from_file(tmp_path / ("a" * 300 + ".stl"))


def test_triangles_with_two_equal_corners_are_left_out(tmp_path):
    """A closed surface with zero-area slivers (two corners equal: an exporter's, or float32's) was refused as "not
    closed", its example edge running from a point to itself; such a triangle bounds nothing and no ray crosses it."""
    tri = icosphere(2, 0.5)
    sliver = tri[[0, 5]][:, [0, 0, 1]]
    sliver[1] = tri[5][[2, 2, 2]]  # all three corners one point
    write_stl(tmp_path / "s.stl", np.concatenate([tri, sliver]))
    mesh = TriangleMesh.from_file(tmp_path / "s.stl")
    assert len(mesh.faces) == len(tri) and mesh.oriented
    p = np.random.default_rng(3).uniform(-0.6, 0.6, (2000, 3))
    pts = [p[:, 0], p[:, 1], p[:, 2]]
    np.testing.assert_array_equal(mesh.inside(pts), TriangleMesh(tri.astype(np.float32)).inside(pts))
    with pytest.raises(ValueError, match="each of its 2 triangles has two equal corners"):
        TriangleMesh(sliver)


def test_every_solid_of_an_ascii_file_is_read(tmp_path):
    """An ASCII STL file may hold several 'solid ... endsolid' blocks (a CAD assembly exported as one file):
    numpy-stl's Mesh.from_file reads the first alone, and the other parts were dropped, unsaid (the body lost its
    second sphere, 320 of 640 triangles). Whitespace after the last block is fine, other text is refused."""
    a, b = icosphere(2, 1.0), icosphere(2, 1.0) + np.array([3.0, 0.0, 0.0])
    write_stl(tmp_path / "a.stl", a, ascii=True)
    write_stl(tmp_path / "b.stl", b, ascii=True)
    text = (tmp_path / "a.stl").read_text() + (tmp_path / "b.stl").read_text()
    (tmp_path / "two.stl").write_text(text + "\n  \n")
    tri = read_stl(tmp_path / "two.stl")
    assert tri.shape == (640, 3, 3)
    np.testing.assert_allclose(tri, np.concatenate([a, b]).astype(np.float32))
    mesh = TriangleMesh.from_file(tmp_path / "two.stl")
    assert mesh.inside([np.array([0.0, 3.0]), np.zeros(2), np.zeros(2)]).tolist() == [True, True]
    (tmp_path / "junk.stl").write_text(text + "not an STL block\n")
    with pytest.raises(ValueError, match=r"junk.stl: damaged: .*after 'endsolid' of solid 2, byte \d+ starts "
                                         r"b'not an STL"):
        read_stl(tmp_path / "junk.stl")


def test_an_ascii_file_with_a_byte_order_mark_is_read(tmp_path):
    """A text editor's UTF-8 byte-order mark before 'solid' (Windows tools write one) was refused: "damaged or
    truncated: not ASCII STL (no 'solid' at the start)". Every block is read after it."""
    a, b = icosphere(1, 1.0), icosphere(1, 1.0) + np.array([3.0, 0.0, 0.0])
    write_stl(tmp_path / "a.stl", a, ascii=True)
    write_stl(tmp_path / "b.stl", b, ascii=True)
    text = (tmp_path / "a.stl").read_text() + (tmp_path / "b.stl").read_text()
    (tmp_path / "bom.stl").write_bytes(b"\xef\xbb\xbf" + text.encode())
    np.testing.assert_array_equal(read_stl(tmp_path / "bom.stl"), np.concatenate([a, b]).astype(np.float32))
    # `cat a.stl b.stl` of two such exports: the second block's mark was refused ("after 'endsolid' of solid 1 ...")
    (tmp_path / "cat.stl").write_bytes(b"".join(b"\xef\xbb\xbf" + (tmp_path / n).read_bytes() for n in ("a.stl", "b.stl")))
    np.testing.assert_array_equal(read_stl(tmp_path / "cat.stl"), np.concatenate([a, b]).astype(np.float32))


def test_a_long_endsolid_line_is_read_whole(tmp_path):
    """numpy-stl's reader stops inside an 'endsolid' line longer than its 4 KiB reads (a long solid name): the rest
    of that line was taken for text after the last block, and a valid file was refused as damaged."""
    a, b = icosphere(1, 1.0), icosphere(1, 1.0) + np.array([3.0, 0.0, 0.0])
    write_stl(tmp_path / "a.stl", a, ascii=True)
    write_stl(tmp_path / "b.stl", b, ascii=True)
    texts = [(tmp_path / n).read_text() for n in ("a.stl", "b.stl")]
    long = [t.rstrip().rsplit("\n", 1)[0] + "\nendsolid " + "x" * 9000 + "\n" for t in texts]
    for name, text, n in (("one.stl", long[0], 80), ("one_crlf.stl", long[0].replace("\n", "\r\n"), 80),
                          ("two.stl", long[0] + long[1], 160), ("end.stl", long[0].rstrip("\n"), 80)):
        (tmp_path / name).write_text(text, newline="")
        assert read_stl(tmp_path / name).shape == (n, 3, 3), name
    (tmp_path / "junk.stl").write_text(long[0] + "junk\n")
    with pytest.raises(ValueError, match=r"after 'endsolid' of solid 1, byte \d+ starts b'junk"):
        read_stl(tmp_path / "junk.stl")


def test_a_small_ascii_file_padded_with_nul_bytes_is_read(tmp_path):
    """NUL padding after the last 'endsolid' is accepted, but within the first 512 bytes (a small file: a
    tetrahedron) it was taken for binary data and the file refused as 'damaged or truncated'."""
    t = np.array([[[0, 0, 0], [0, 1, 0], [1, 0, 0]], [[0, 0, 0], [1, 0, 0], [0, 0, 1]],
                  [[0, 0, 0], [0, 0, 1], [0, 1, 0]], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]], float)
    text = "solid t\n" + "".join("facet normal 0 0 0\nouter loop\n" + "".join(f"vertex {x:g} {y:g} {z:g}\n"
                                                                            for x, y, z in tr)
                                 + "endloop\nendfacet\n" for tr in t) + "endsolid t\n"
    assert len(text) < 512
    for pad in (b"\0" * 10, b"\0" * 2000, b"\n\0\x1a"):
        (tmp_path / "t.stl").write_bytes(text.encode() + pad)
        np.testing.assert_array_equal(read_stl(tmp_path / "t.stl"), t)
    (tmp_path / "t.stl").write_bytes(text.encode() + b"\0\0x")  # binary data, not padding
    with pytest.raises(ValueError, match=r"not ASCII STL \(binary data after the 'solid' at the start\)"):
        read_stl(tmp_path / "t.stl")


def test_missing_library_names_the_extra(tmp_path, monkeypatch):
    write_stl(tmp_path / "s.stl", icosphere(1))
    monkeypatch.setitem(sys.modules, "stl", None)
    with pytest.raises(ValueError, match=r"needs numpy-stl: pip install 'distlbm\[stl\]'"):
        TriangleMesh.from_file(tmp_path / "s.stl")


def test_obstacle_grammar(tmp_path):
    path = tmp_path / "s.stl"
    write_stl(path, icosphere(2, 1.0))
    (s,) = parse_obstacles(f"stl({path}, 0.05, 0.5, 0.2, 0.2, 0, 0, 45)", 3)
    assert isinstance(s, TriangleMesh) and s.spec.startswith("stl(")
    np.testing.assert_allclose(s.bounds[0], (0.45, 0.15, 0.15), atol=0.005)  # radius 0.05, facets
    two = f"sphere(1, 0.2, 0.2, 0.05); stl({path}, 0.05, 0.5, 0.2, 0.2) + box(1, 0, 0, 1.1, 0.1, 0.1)"
    bodies = parse_obstacles(two, 3)
    assert len(bodies) == 2 and isinstance(bodies[1], geo.Union)
    with pytest.raises(ConfigError, match="3D only"):
        parse_obstacles(f"stl({path})", 2)
    for spec, match in [(f"stl({path}, 1, 2)", r"expected stl\(path"), (f"stl({path}, nan)", "not a finite number"),
                        (f"stl({path}, 0)", "expected a positive scale"), ("stl()", r"expected stl\(path"),
                        (f"stl({tmp_path / 'no.stl'})", "no such file")]:
        with pytest.raises(ConfigError, match=match):
            parse_obstacles(spec, 3)


def test_channel_checks_the_stl_body(tmp_path):
    from helpers import make_sim

    path = tmp_path / "s.stl"
    write_stl(path, icosphere(2, 1.0))
    kw = dict(lattice="D3Q19", length=1.0, height=0.4, width=0.4, n=10, t_end=0.01)
    with pytest.raises(ConfigError, match="has no part inside the channel"):
        make_sim("channel_flow", obstacles=f"stl({path}, 0.05, 3, 0.2, 0.2)", **kw)
    with pytest.raises(ConfigError, match="reaches the inlet"):
        make_sim("channel_flow", obstacles=f"stl({path}, 0.05, 0.04, 0.2, 0.2)", **kw)
    with pytest.raises(ConfigError, match="covers every fluid cell"):
        make_sim("channel_flow", obstacles=f"stl({path}, 0.4, 0.5, 0.2, 0.2)", **kw)
    # a body that holds no cell centre, or lies inside an earlier one, made no solid cell: it ran and reported cD 0
    with pytest.raises(ConfigError, match=r"holds no cell centre of the lattice \(dx = 0.01\)"):
        make_sim("channel_flow", obstacles=f"stl({path}, 0.003, 0.5, 0.2, 0.2)", **kw)
    # the stl key's body is said with its placement, in the obstacles form (a scale of 100 that reached the inlet
    # was said as 'stl(s.stl)' reaches the inlet: neither the scale nor its value)
    with pytest.raises(ConfigError, match=r"stl = '.*': 'stl\(.*s.stl, 0.003, 0.5, 0.2, 0.2\)' holds no cell centre"):
        make_sim("channel_flow", obstacles="", stl=str(path), stl_scale=0.003, stl_translate="0.5,0.2,0.2", **kw)
    with pytest.raises(ConfigError, match=r"^stl = '.*': 'stl\(.*s.stl, 100\)' reaches the inlet at x = 0 \(inside "
                                          r"the channel it spans x = -100 .. 100\)"):
        make_sim("channel_flow", obstacles="", stl=str(path), stl_scale=100, **kw)
    with pytest.raises(ConfigError, match=r"^stl = '.*': 'stl\(.*s.stl, 1, 0.5, 0.2, 0.2, 0, 0, 90\)' reaches the"):
        make_sim("channel_flow", obstacles="", stl=str(path), stl_translate="0.5,0.2,0.2", stl_rotate="0,0,90", **kw)
    with pytest.raises(ConfigError, match=r"^obstacles, stl = 'sphere\(0.2, 0.2, 0.2, 0.05\); stl\(.*s.stl, 100\)'.*: "
                                          r"'stl\(.*s.stl, 100\)' reaches the inlet"):
        make_sim("channel_flow", obstacles="sphere(0.2, 0.2, 0.2, 0.05)", stl=str(path), stl_scale=100, **kw)
    # the placement as given, not cut to 6 digits (0.0012345678 was said as 0.00123457: another body than the one
    # its obstacles form would place)
    with pytest.raises(ConfigError, match=r"^stl = '.*': 'stl\(.*s.stl, 0.0012345678, 0.1234567, 0.2, 0.2\)' holds no"):
        make_sim("channel_flow", obstacles="", stl=str(path), stl_scale=0.0012345678, stl_translate="0.1234567,0.2,0.2",
                 **kw)
    with pytest.raises(ConfigError, match=r"'stl\(.*\)' lies inside an earlier body"):
        make_sim("channel_flow", obstacles=f"sphere(0.5, 0.2, 0.2, 0.12); stl({path}, 0.06, 0.5, 0.2, 0.2)", **kw)
    with pytest.raises(ConfigError, match="stl_translate = '1,2'"):
        make_sim("channel_flow", obstacles="", stl=str(path), stl_translate="1,2", **kw)
    sim = make_sim("channel_flow", obstacles="", stl=str(path), stl_scale=0.05, stl_translate="0.5,0.2,0.2", **kw)
    assert sim.setup.shape == (101, 42, 42)


def test_a_surface_that_encloses_no_volume_is_refused_as_such(tmp_path):
    """Triangles back to back (a flat sheet closed by its own other side) bound no solid: refused as enclosing no
    volume. Before, the channel said the body "holds no cell centre ... make it larger or the lattice finer (raise
    n)", which no scale or resolution mends."""
    from helpers import make_sim

    sheet = np.array([[[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 0, 0], [0, 1, 0], [1, 0, 0]]], float)
    with pytest.raises(ValueError, match=r"^flat: encloses no volume \(its 2 triangles lie back to back"):
        TriangleMesh(sheet, name="flat")
    tri = icosphere(2, 0.5)
    write_stl(tmp_path / "twice.stl", np.concatenate([tri, tri[:, [0, 2, 1]]]))  # a shell and its turned copy
    with pytest.raises(ValueError, match="twice.stl: encloses no volume"):
        TriangleMesh.from_file(tmp_path / "twice.stl")
    write_stl(tmp_path / "flat.stl", sheet)
    with pytest.raises(ConfigError, match=r"^obstacles = .*: STL file .*flat.stl: encloses no volume"):
        make_sim("channel_flow", obstacles=f"stl({tmp_path / 'flat.stl'}, 0.1, 0.5, 0.2, 0.2)", lattice="D3Q19",
                 length=1.0, height=0.4, width=0.4, n=10, t_end=0.01)
    # a closed body keeps its volume, whichever way its triangles turn (inward normals: the same body)
    for t in (tri, tri[:, [0, 2, 1]]):
        assert TriangleMesh(t).volume == pytest.approx(TriangleMesh(tri).volume, rel=1e-12)
    assert 0.99 * np.pi / 6 < TriangleMesh(icosphere(4, 0.5)).volume < np.pi / 6


def test_a_part_and_its_mirror_image_are_not_refused_as_enclosing_no_volume(tmp_path):
    """Mirroring a part (an assembly's left and right halves) turns its triangles over; the winding number makes both
    solid, but the signed volumes of the two summed to nothing: the pair was refused as enclosing no volume (or said
    to enclose 4e-09 m^3 where the mirror was not exact). Each closed shell is asked on its own, and the body line
    says a shell turned inward, with the volume of the parts; a cavity (an inner shell turned inward) is taken off."""
    from distlbm.config import resolve

    ball = icosphere(3, 0.5)
    ball[..., 0] += 1.5
    image = ball * [-1, 1, 1]  # x -> -x: the same ball at x = -1.5, its triangles turned over
    pair = TriangleMesh(np.concatenate([ball, image]), name="pair")
    one = TriangleMesh(ball).volume
    assert (pair.shells, pair.turned) == (2, 1) and pair.parts_volume == pytest.approx(2 * one, rel=1e-12)
    assert TriangleMesh(ball).shells == 1 and TriangleMesh(ball).turned == 0
    inner = icosphere(3, 0.25)[:, [0, 2, 1]] + [1.5, 0, 0]  # a cavity: its normals point into it, out of the solid
    hollow = TriangleMesh(np.concatenate([ball, inner]))
    assert hollow.volume == pytest.approx(one - TriangleMesh(inner).volume, rel=1e-12) and hollow.turned == 1
    write_stl(tmp_path / "pair.stl", np.concatenate([ball, image + [3.1e-3, 0, 0]]))
    cfg = resolve("channel_flow", {"obstacles": f"stl({tmp_path / 'pair.stl'}, 0.1, 0.5, 0.2, 0.2)", "n": 10,
                                   "lattice": "D3Q19", "length": 1.0, "height": 0.4, "width": 0.4, "t_end": 0.01})
    line = cfg.setup.report[0]
    assert line.endswith("1 of them turned inward: a cavity, or a part turned over, as mirroring does, which is solid "
                         "all the same (then 0.001038 m^3, 1,038 cells of dx^3)"), line
    assert 1000 < int(re.search(r": ([\d,]+) solid cells", line)[1].replace(",", "")) < 1100, line  # both solid


def test_a_body_across_both_side_walls_is_said_to_be_outside_on_both(tmp_path):
    """A fin from wall to wall (z = -0.1 .. 0.5 of a channel 0.4 wide) was said to be 'partly outside the channel
    (z < 0)', the far side unsaid."""
    from distlbm.config import resolve

    cube = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], float)
    faces = [(0, 2, 1), (0, 3, 2), (4, 5, 6), (4, 6, 7), (0, 1, 5), (0, 5, 4), (1, 2, 6), (1, 6, 5), (2, 3, 7),
             (2, 7, 6), (3, 0, 4), (3, 4, 7)]
    write_stl(tmp_path / "fin.stl", (cube * [0.1, 0.1, 0.6] + [0.5, 0.05, -0.1])[np.array(faces)])
    cfg = resolve("channel_flow", {"obstacles": f"stl({tmp_path / 'fin.stl'})", "n": 10, "lattice": "D3Q19",
                                   "length": 1.0, "height": 0.4, "width": 0.4, "t_end": 0.01})
    assert cfg.setup.report[0].endswith("; partly outside the channel (z < 0, z > 0.4): its cells are those of the "
                                        "part inside"), cfg.setup.report


def test_a_body_far_larger_than_the_channel_is_said_to_need_a_scale(tmp_path):
    """A part drawn in millimetres placed without its scale 0.001 was said to reach the inlet ("it spans x = -50 ..
    50"), nothing said of the scale or the file's units."""
    from helpers import make_sim

    path = tmp_path / "mm.stl"
    write_stl(path, icosphere(2, 50.0))  # 100 mm across
    kw = dict(lattice="D3Q19", length=1.0, height=0.4, width=0.4, n=10, t_end=0.01)
    hint = (r" \(the body is 100 across, 100 times the channel's largest side 1: an STL file's coordinates are scaled "
            r"to metres by the scale, stl\(path, scale, ...\) or stl_scale: 0.001 for a file in millimetres\)$")
    with pytest.raises(ConfigError, match=r"reaches the inlet at x = 0 .*" + hint):
        make_sim("channel_flow", obstacles=f"stl({path}, 1, 0.5, 0.2, 0.2)", **kw)
    with pytest.raises(ConfigError, match=r"has no part inside the channel; .*" + hint):
        make_sim("channel_flow", obstacles=f"stl({path}, 1, 500, 0.2, 0.2)", **kw)
    with pytest.raises(ConfigError, match=r"reaches the inlet at x = 0 .*" + hint):
        make_sim("channel_flow", obstacles="", stl=str(path), **kw)
    # a body of the channel's size is not said to need one
    with pytest.raises(ConfigError, match=r"reaches the inlet at x = 0 .*L - dx, here 0.01 < x < 0.99$"):
        make_sim("channel_flow", obstacles=f"stl({path}, 0.01, 0.3, 0.2, 0.2)", **kw)
    sim = make_sim("channel_flow", obstacles=f"stl({path}, 0.001, 0.5, 0.2, 0.2)", **kw)
    assert sim.setup.shape == (101, 42, 42)


@pytest.mark.parametrize("key,value,said", [
    # the body below float64's resolution at its place: "stl = ...: each of its triangles has two equal corners"
    ("stl_scale", 1e-320, "stl_scale = 1e-320: the body of STL file"),
    ("stl_scale", 1e-300, "stl_scale = 1e-300: the body of STL file"),
    # off the channel: "stl = ...: 'stl(...)' has no part inside the channel"
    ("stl_translate", "1e308,0,0", "stl_translate = '1e308,0,0': it moves the body of STL file"),
    ("stl_translate", "1e308,1e308,1e308", "stl_translate = '1e308,1e308,1e308': the body of STL file"),
    # taken, unsaid: the body turned by whatever the rounding of 1e308 degrees left
    ("stl_rotate", "1e308,0,0", "stl_rotate = '1e308,0,0': the angle 1e+308 degrees; expected angles within -360 "
                                ".. 360 degrees"),
    ("stl_rotate", "0,0,360.5", "stl_rotate = '0,0,360.5': the angle 360.5 degrees; expected angles within"),
])
def test_an_stl_placement_the_body_cannot_take_names_its_key(tmp_path, key, value, said):
    from helpers import make_sim

    path = tmp_path / "s.stl"
    write_stl(path, icosphere(2, 1.0))
    kw = dict(lattice="D3Q19", length=1.0, height=0.4, width=0.4, n=10, t_end=0.01, obstacles="", stl=str(path),
              stl_scale=0.1, stl_translate="0.5,0.2,0.2")
    with pytest.raises(ConfigError) as e:
        make_sim("channel_flow", **{**kw, key: value})
    msg = str(e.value)
    assert msg.startswith(said) and "expected" in msg and msg.count("expected") == 1 and "\n" not in msg, msg
    make_sim("channel_flow", **{**kw, "stl_rotate": "-360,360,90"})  # a turn either way is taken
    with pytest.raises(ConfigError, match=r"^obstacles = .*: rotation 0.0, 1e\+308, 0.0: the angle 1e\+308 degrees"):
        parse_obstacles(f"stl({path}, 0.1, 0.5, 0.2, 0.2, 0, 1e308, 0)", 3)
    with pytest.raises(ConfigError, match=r"^obstacles = .*: scale 1e-320: the body of STL file"):
        parse_obstacles(f"stl({path}, 1e-320, 0.5, 0.2, 0.2)", 3)


def test_drag_of_the_stl_sphere_equals_the_sphere(tmp_path):
    """Flow past an icosphere (5120 triangles, facets within 0.0012 D of the sphere) gives the drag of the
    sphere primitive within 0.5 % (the same small run twice, D = 8 cells, 80 steps: the mean of the sampled
    drag coefficients, start-up transient included, which both runs share; measured: 0.2 %)."""
    from helpers import run_case

    path = tmp_path / "ico.stl"
    write_stl(path, icosphere(4, 0.5))
    kw = dict(lattice="D3Q19", length=2.5, height=1.5, width=1.5, ref_length=1.0, u_mean=1.0, re=20.0, n=8,
              profile="uniform", sides="periodic", t_end=0.5, sample_dt=0.1)
    _, ref = run_case("channel_flow", obstacles="sphere(1, 0.75, 0.75, 0.5)", **kw)
    _, got = run_case("channel_flow", obstacles=f"stl({path}, 1, 1, 0.75, 0.75)", **kw)
    cd_ref = np.mean([s["cD"] for s in ref.samples])
    cd = np.mean([s["cD"] for s in got.samples])
    assert len(ref.samples) == len(got.samples) == 5 and cd_ref > 1.0
    assert abs(cd / cd_ref - 1) < 0.005, (cd, cd_ref)
    assert got.setup.shape == ref.setup.shape


@pytest.mark.parametrize("args,said", [
    (["--level", "-2"], "--level = -2: expected 0..7"),  # wrote 20 triangles
    (["--radius", "0"], "--radius = 0.0: expected a positive finite number"),  # accepted
    (["--radius", "nan"], "--radius = nan: expected a positive finite number"),
    (["--shape", "torus", "--radius", "2"], "--level and --radius apply to --shape sphere"),  # ignored, unsaid
])
def test_make_stl_refuses_bad_options_in_one_line(tmp_path, capsys, args, said):
    import make_stl

    with pytest.raises(SystemExit) as e:
        make_stl.main([str(tmp_path / "x.stl"), *args])
    assert e.value.code == 2 and said in capsys.readouterr().err
    assert not (tmp_path / "x.stl").exists()
    with pytest.raises(SystemExit) as e:  # a missing folder: a traceback from numpy-stl before
        make_stl.main([str(tmp_path / "nowhere" / "x.stl")])
    assert e.value.code == 2 and "the folder" in capsys.readouterr().err


def test_a_missing_relative_file_names_where_it_was_looked_for(tmp_path, monkeypatch):
    """Relative paths in a configuration are taken from the working directory, not the file's folder: the error
    said only "no such file"."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=rf"STL file nothere.stl: no such file \(looked for in the working "
                                         rf"directory {tmp_path}\)"):
        read_stl("nothere.stl")
    with pytest.raises(ValueError, match=r"no such file$"):
        read_stl(tmp_path / "nothere.stl")  # absolute: nothing to add


def test_duplicated_triangles_are_counted_once(tmp_path):
    """CAD exports repeat triangles (a face written twice, a whole part exported twice into one file). Each copy was a
    crossing of its own: with some triangles turned over (the parity rule) a surface written twice had every ray
    cross it an even number of times and held no cell (refused later as too small, "make it larger or the lattice
    finer"); one triangle written twice made a closed surface "not closed"; with every triangle turned alike the
    cells were right but the enclosed volume said was twice the body's. A copy with the same corners in the same
    turn is left out, counted in `duplicates` and said in the body line; a pair turned back to back is kept."""
    from distlbm.config import resolve

    tri = icosphere(3, 0.5)
    mixed = tri.copy()
    mixed[::2] = mixed[::2, ::-1]  # every other triangle turned over: the parity rule
    p = np.random.default_rng(5).uniform(-0.6, 0.6, (3000, 3))
    pts = [p[:, 0], p[:, 1], p[:, 2]]
    want = TriangleMesh(tri).inside(pts)
    assert want.sum() > 500
    twice = TriangleMesh(np.concatenate([mixed, mixed[::-1]]))
    assert not twice.oriented and twice.duplicates == len(tri) and len(twice.faces) == len(tri)
    np.testing.assert_array_equal(twice.inside(pts), want)
    one = TriangleMesh(np.concatenate([tri, tri[[7]], tri[[7, 7]][:, [1, 2, 0]]]))  # the same turn from another corner
    assert one.oriented and one.duplicates == 3 and one.volume == pytest.approx(TriangleMesh(tri).volume, rel=1e-12)
    np.testing.assert_array_equal(one.inside(pts), want)
    back = TriangleMesh(np.concatenate([tri, tri[[7, 7]][:, ::-1]]))  # turned back to back: kept (no duplicate)
    assert back.duplicates == 0 and len(back.faces) == len(tri) + 2
    write_stl(tmp_path / "twice.stl", np.concatenate([tri, tri]))
    cfg = resolve("channel_flow", {"obstacles": f"stl({tmp_path / 'twice.stl'}, 0.1, 0.5, 0.2, 0.2)", "n": 10,
                                   "lattice": "D3Q19", "length": 1.0, "height": 0.4, "width": 0.4, "t_end": 0.01})
    line = cfg.setup.report[0]
    assert "1,280 triangles, enclosing 0.0005191 m^3 (519 cells of dx^3)" in line, line
    assert line.endswith("; 1,280 duplicated triangles left out (a triangle written again with the same corners: "
                         "counted once)"), line


def _fan_cylinder(n, radius, height):
    """A closed cylinder along z of n sides whose caps are fans from one rim vertex (as CAD exporters triangulate a
    flat face): 2n - 4 slivers across the caps, each with a bounding box of up to the cap's size."""
    a = 2 * np.pi * np.arange(n) / n
    b = np.stack([radius * np.cos(a), radius * np.sin(a), np.full(n, -height / 2)], 1)
    t = b + [0, 0, height]
    k, k1, j = np.arange(n), (np.arange(n) + 1) % n, np.arange(1, n - 1)
    return np.concatenate([np.stack([b[k], b[k1], t[k1]], 1), np.stack([b[k], t[k1], t[k]], 1),
                           np.stack([np.broadcast_to(b[0], (n - 2, 3)), b[j + 1], b[j]], 1),
                           np.stack([np.broadcast_to(t[0], (n - 2, 3)), t[j], t[j + 1]], 1)])


def test_candidate_pairs_are_formed_in_bounded_batches(monkeypatch):
    """The (line, triangle) candidates of a triangle are the lines in its projected bounding box: a sliver across a
    cap (a fan) has about as many as the cap has cells, and all those of 2^18 triangles were formed at once (8,188
    triangles of such a cylinder asked 855 MiB for the inside of a 128^3 lattice, O(triangles x cells^(2/3))). They
    are formed in batches of about stl._PAIRS pairs and bins (a batch holds at least one triangle), and the cells and
    wall fractions are the same whatever the batch."""
    import distlbm.stl as stl

    mesh = TriangleMesh(_fan_cylinder(256, 0.35, 0.5))
    n = 40
    c = (np.arange(n) + 0.5) / n - 0.5
    x, y, z = np.meshgrid(c, c, c, indexing="ij", sparse=True)
    want = (x * x + y * y < 0.35 ** 2) & (np.abs(z) < 0.25)  # the polygon's 256 sides: within 5e-5 of the circle
    ring = np.abs(np.sqrt(x * x + y * y) - 0.35) < 1e-3
    whole = _block(mesh, (n,) * 3, 1.0 / n, (-0.5,) * 3)
    sizes = []
    pairs = stl._QueryBins.pairs

    def counted(self, *box):
        q, k = pairs(self, *box)
        sizes.append((len(q), len(self.order)))
        return q, k

    monkeypatch.setattr(stl._QueryBins, "pairs", counted)
    monkeypatch.setattr(stl, "_PAIRS", 2000, raising=False)
    inside = mesh.inside([x, y, z])
    assert sizes and all(s <= max(2000, lines) for s, lines in sizes), max(sizes)  # one batch formed 67,888
    ring = np.broadcast_to(ring, inside.shape)
    np.testing.assert_array_equal(inside[~ring], np.broadcast_to(want, inside.shape)[~ring])
    sizes.clear()
    small = _block(mesh, (n,) * 3, 1.0 / n, (-0.5,) * 3)
    _compare(small, whole, tol=0.0)
    assert sizes and all(s <= max(2000, lines) for s, lines in sizes), max(sizes)


def test_an_stl_file_is_read_once_per_configuration(tmp_path, monkeypatch):
    """resolve() built the channel's bodies twice (the set-up's, and the probes' solid test), so a 1.3 M-triangle
    file was read and checked twice: 2 x 10 s and 700 MB of the 42 s dry run of a 256^3 lattice. A mesh read for
    one file (its path, size and time) and placement is used again while it is held; a changed file is read again."""
    import os

    import distlbm.stl as stl
    from distlbm.config import resolve

    write_stl(tmp_path / "ball.stl", icosphere(2, 0.5))
    reads = []
    read = stl.read_stl
    monkeypatch.setattr(stl, "read_stl", lambda path: reads.append(path) or read(path))
    sets = {"n": 10, "lattice": "D3Q19", "length": 1.0, "height": 0.4, "width": 0.4, "t_end": 0.01,
            "probes": "0.8, 0.2, 0.2"}
    cfg = resolve("channel_flow", {**sets, "obstacles": f"stl({tmp_path / 'ball.stl'}, 0.1, 0.5, 0.2, 0.2)"})
    assert len(reads) == 1, reads
    cfg2 = resolve("channel_flow", {**sets, "obstacles": f"stl({tmp_path / 'ball.stl'}, 0.1, 0.5, 0.21, 0.2)"})
    assert len(reads) == 2  # another placement
    write_stl(tmp_path / "ball.stl", icosphere(2, 0.4))
    os.utime(tmp_path / "ball.stl", ns=(1, 1))  # (the same size: told apart by its time)
    cfg3 = resolve("channel_flow", {**sets, "obstacles": f"stl({tmp_path / 'ball.stl'}, 0.1, 0.5, 0.2, 0.2)"})
    assert len(reads) == 3
    n1, n3 = (int(re.search(r": ([\d,]+) solid cells", c.setup.report[0])[1].replace(",", "")) for c in (cfg, cfg3))
    assert n3 < n1, (n1, n3)
    assert cfg2.setup.report[0] != cfg.setup.report[0]


@pytest.mark.parametrize("cut,said", [
    (lambda s: s[: len(s) // 2], r"the text ends at line \d+ \('.*', cut short\) before its 'endsolid' \(a truncated "
                                 r"file\?\)"),
    (lambda s: s[: s.index("endsolid")], r"the text ends at line \d+ before its 'endsolid' \(a truncated file\?\)"),
    (lambda s: s.replace("outer loop", "outer lop", 1), r"line 3 is 'outer lop'; expected 'outer loop'"),
    (lambda s: s.replace("vertex", "vertex 1.0 abc", 1), r"line 4 is 'vertex 1.0 abc .*'; expected 'vertex x y z' "
                                                         r"\(3 numbers\)"),
    (lambda s: "solid x\n", r"the text ends at line 1 before its 'endsolid' \(a truncated file\?\)"),
])
def test_a_damaged_ascii_file_names_the_line(tmp_path, cut, said):
    """A damaged ASCII STL file was said in numpy-stl's words: "(RuntimeError: (False, 'Unable to find more lines'))"
    for a file cut short, "(RuntimeError: (False, AssertionError()))" for a misspelt keyword; it names the line and
    what was expected there."""
    write_stl(tmp_path / "a.stl", icosphere(1), ascii=True)
    (tmp_path / "b.stl").write_text(cut((tmp_path / "a.stl").read_text()))
    with pytest.raises(ValueError, match=f"STL file .*b.stl: damaged: not ASCII STL: {said}$") as e:
        read_stl(tmp_path / "b.stl")
    assert "RuntimeError" not in str(e.value)


def test_a_part_written_twice_beside_another_part_is_counted_once():
    """Two parts in one file whose common face is written back to back (the same triangles, turned both ways), one of
    them written twice (an exporter's repeat): its copies of the common face have the same corners in the same turn,
    as its other faces, and are counted once as those are (the README's promise). They were kept, with the other
    part's face, because the common face's triangles turned both ways: three copies of each, and the file was refused
    as "not closed" (5 triangles at the common face's edges). A triangle with copies turned both ways that close
    the surface only when all are kept (one and two turned over) is kept as it was."""
    a = _box_tri((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    b = a.copy()
    b[:, :, 0] = 2.0 - b[:, :, 0]  # its mirror image about x = 1, turned back to outward: the common face back to back
    b = b[:, ::-1]
    one = TriangleMesh(np.concatenate([a, b]))
    assert one.oriented and one.duplicates == 0 and one.volume == pytest.approx(2.0)
    p = np.random.default_rng(7).uniform(-0.5, 2.5, (3000, 3))
    want = np.all((p > 0) & (p < (2.0, 1.0, 1.0)), axis=1)  # the union: the box 0 < x < 2, 0 < y, z < 1
    assert want.sum() > 150
    np.testing.assert_array_equal(one.inside([p[:, 0], p[:, 1], p[:, 2]]), want)
    for tri, dup in ((np.concatenate([a, a, b]), 12), (np.concatenate([a, b, b]), 12),
                     (np.concatenate([a, b, a, b]), 24)):
        mesh = TriangleMesh(tri)
        assert mesh.oriented and mesh.duplicates == dup and len(mesh.faces) == 24
        assert mesh.volume == pytest.approx(2.0)
        np.testing.assert_array_equal(mesh.inside([p[:, 0], p[:, 1], p[:, 2]]), want)


def test_a_file_replaced_with_the_same_size_and_time_is_read_again(tmp_path):
    """The mesh read for a file is used again while held, the file told by its path, inode, size and modification
    time: a file copied over it in place with its time kept (cp -p, shutil.copy2, an archive's files unpacked: one
    body's variants of as many triangles, the same size) was the same file, and a notebook's Simulation built again
    (the old one held until the new one is made) got the old body, unsaid. The change time is asked too (no copy
    keeps it)."""
    import os
    import shutil

    from distlbm.cases.obstacles.spec import load_stl

    for name, r in (("a.stl", 0.5), ("b.stl", 0.4)):
        write_stl(tmp_path / name, icosphere(2, r))
        os.utime(tmp_path / name, ns=(10**18, 10**18))  # (unpacked from one archive: the same time)
    body = tmp_path / "body.stl"
    shutil.copy2(tmp_path / "a.stl", body)
    first = load_stl(str(body))
    shutil.copy2(tmp_path / "b.stl", body)  # in place: the same inode, size and time
    second = load_stl(str(body))
    assert first.bounds[1][0] == pytest.approx(0.5, rel=1e-6)
    assert second.bounds[1][0] == pytest.approx(0.4, rel=1e-6), "the mesh of the file before"
