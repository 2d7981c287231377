"""Write small closed STL surfaces for examples and tests: an icosphere (a unit sphere, each face of an
icosahedron split `level` times and pushed onto the sphere) or a torus, binary or ASCII, with numpy-stl.

    python scripts/make_stl.py examples/sphere.stl                       # icosphere, level 3 (1280 triangles)
    python scripts/make_stl.py out.stl --shape torus --ascii
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np


def icosphere(level: int = 3, radius: float = 1.0) -> np.ndarray:
    """Triangles float64 [20 * 4**level, 3, 3] of a sphere of `radius` about the origin, outward normals."""
    g = (1.0 + math.sqrt(5.0)) / 2.0
    v = [(-1, g, 0), (1, g, 0), (-1, -g, 0), (1, -g, 0), (0, -1, g), (0, 1, g), (0, -1, -g), (0, 1, -g),
         (g, 0, -1), (g, 0, 1), (-g, 0, -1), (-g, 0, 1)]
    f = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
         (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11),
         (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    verts = [np.asarray(x, float) / np.linalg.norm(x) for x in v]
    faces = list(f)
    for _ in range(level):
        mid = {}

        def midpoint(i, j):
            key = (min(i, j), max(i, j))
            if key not in mid:  # one vertex per edge: the mesh stays closed, bit for bit
                m = verts[i] + verts[j]
                verts.append(m / np.linalg.norm(m))
                mid[key] = len(verts) - 1
            return mid[key]

        new = []
        for a, b, c in faces:
            ab, bc, ca = midpoint(a, b), midpoint(b, c), midpoint(c, a)
            new += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = new
    return radius * np.asarray(verts)[np.asarray(faces)]


def torus(major: float = 1.0, minor: float = 0.35, n_major: int = 48, n_minor: int = 24) -> np.ndarray:
    """Triangles [2 * n_major * n_minor, 3, 3] of a torus about the z axis."""
    u = 2 * math.pi * np.arange(n_major) / n_major
    w = 2 * math.pi * np.arange(n_minor) / n_minor
    uu, ww = np.meshgrid(u, w, indexing="ij")
    pts = np.stack([(major + minor * np.cos(ww)) * np.cos(uu), (major + minor * np.cos(ww)) * np.sin(uu),
                    minor * np.sin(ww)], axis=-1)
    i, j = np.meshgrid(np.arange(n_major), np.arange(n_minor), indexing="ij")
    i1, j1 = (i + 1) % n_major, (j + 1) % n_minor
    a, b, c, d = pts[i, j], pts[i1, j], pts[i1, j1], pts[i, j1]
    return np.concatenate([np.stack([a, b, c], axis=-2).reshape(-1, 3, 3),
                           np.stack([a, c, d], axis=-2).reshape(-1, 3, 3)])


def write_stl(path, triangles, ascii: bool = False, name: str = "distlbm") -> None:
    """Write triangles [N, 3, 3] as a binary (default) or ASCII STL file (float32, as STL stores them)."""
    from stl import Mode, mesh

    m = mesh.Mesh(np.zeros(len(triangles), dtype=mesh.Mesh.dtype))
    m.vectors[:] = np.asarray(triangles, dtype=np.float32)
    m.update_normals()
    m.save(str(path), mode=Mode.ASCII if ascii else Mode.BINARY, update_normals=False)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", help="the STL file to write (in an existing folder)")
    ap.add_argument("--shape", choices=("sphere", "torus"), default="sphere",
                    help="an icosphere, or a torus about the z axis of major radius 1, minor 0.35 (default: sphere)")
    ap.add_argument("--level", type=int, default=None, help="icosphere subdivisions, 0..7 (20 * 4**level triangles; "
                    "default 3)")
    ap.add_argument("--radius", type=float, default=None, help="sphere radius (file units; default 0.5)")
    ap.add_argument("--ascii", action="store_true", help="an ASCII STL file (default: binary)")
    a = ap.parse_args(argv)
    if a.shape == "torus" and (a.level is not None or a.radius is not None):  # they were ignored, unsaid
        ap.error("--level and --radius apply to --shape sphere; the torus has major radius 1, minor 0.35")
    level = 3 if a.level is None else a.level
    radius = 0.5 if a.radius is None else a.radius
    if not 0 <= level <= 7:
        ap.error(f"--level = {level}: expected 0..7 (20 * 4**level triangles)")
    if not (math.isfinite(radius) and radius > 0):
        ap.error(f"--radius = {radius}: expected a positive finite number")
    out = Path(a.path)
    if not out.parent.is_dir():
        ap.error(f"{a.path}: the folder {str(out.parent)!r} does not exist; expected a path in an existing folder")
    tri = icosphere(level, radius) if a.shape == "sphere" else torus()
    write_stl(a.path, tri, ascii=a.ascii, name=a.shape)
    print(f"{a.path}: {len(tri)} triangles ({'ASCII' if a.ascii else 'binary'})")


if __name__ == "__main__":
    main()
