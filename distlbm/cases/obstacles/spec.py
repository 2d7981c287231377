"""The obstacle grammar of the channel cases: spec strings such as 'circle(0.2, 0.2, 0.05); box(1, 0.1,
1.2, 0.2) + circle(1.1, 0.3, 0.05)' or 'stl(body.stl, 0.001, 0.5, 0.2, 0.2)' read into geometry shapes
(physical coordinates, m), and the rules of where obstacles may lie in the channel, checked before
anything runs."""

from __future__ import annotations

import copy
import math
import os
import re as _re
import weakref

import numpy as np

from distlbm import geometry as geo
from distlbm.cases.base import ConfigError
from distlbm.cases.obstacles.layout import Layout

_SHAPES = {  # name -> (numbers needed in 2D, in 3D, what the numbers are)
    "circle": (3, None, "cx, cy, r"),
    "cylinder": (None, 3, "cx, cy, r (axis along z)"),
    "sphere": (None, 4, "cx, cy, cz, r"),
    "box": (4, 6, "x0, y0[, z0], x1, y1[, z1]"),
}
STL_FORM = "stl(path[, scale[, tx, ty, tz[, rx, ry, rz]]])"
STL_ARGS = "a path, then optionally the scale, the translation (3 numbers) and the rotation (3 angles, degrees)"
# the characters that separate an obstacle string's parts: a path of stl(...) cannot hold them, quoted or not
STL_PATH_ADVICE = ("a path in stl(...) cannot hold ',', ';', '(' or ')', quoted or not; expected such a file given by "
                   "the stl key (stl = PATH with stl_scale, stl_translate, stl_rotate), which takes any path, or a link "
                   "to it under another name")


# a number in a spec string: a plain decimal or scientific literal (no '_' digit separators, no nan/inf,
# no hex): Python's float() would read '0_5' as 5.0 and 'nan' as a coordinate
_NUMBER = _re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", _re.ASCII)  # (\d: 0-9 alone)
_MAX_SHOWN = 80


def show(text: str) -> str:
    """The value of a key as a message shows it (a long spec string is cut)."""
    if len(text) <= _MAX_SHOWN:
        return repr(text)
    return repr(text[:_MAX_SHOWN - 20] + " ... " + text[-12:]) + f" ({len(text)} characters)"


def number(v: str) -> float:
    """A strictly parsed finite number; ValueError saying why not."""
    v = v.strip()
    if not _NUMBER.fullmatch(v):
        low = v.lower().lstrip("+-")
        if low in ("nan", "inf", "infinity"):
            raise ValueError(f"{v!r} is not a finite number")
        raise ValueError(f"{v!r} is not a number")
    x = float(v)
    if not math.isfinite(x):
        raise ValueError(f"{v!r} is not a finite number")
    return x


NUMBERS_EXPECTED = "finite numbers written as plain decimals (0.05, -1, 5e-2; no '_', nan or inf)"


def canonical(text: str) -> str:
    """The form in which a restart compares a spec string with its run's (obstacles, stl_translate): the spaces
    around its separators, a ';' after the last item and the spelling of its numbers (0.50, 5e-1) do not count
    (a restart given 'circle(0.5, 0.2, 0.05)' for the run's 'circle(0.5,0.2,0.05)' was refused as other
    obstacles). Never raises: what is no spec compares as it is written."""
    def arg(a: str, path: bool = False) -> str:
        a = a.strip()
        try:
            if not path:  # an STL file named '1e2' is not the one named '100'
                return repr(number(a) + 0.0)  # -0 is 0
        except ValueError:
            pass
        return a.strip("'\"")  # an STL path, quoted or not (as _parse_stl reads it)

    def member(m: str) -> str:
        g = _re.fullmatch(r"([a-z]+)\s*\((.*)\)", m.strip(), _re.S)
        if g:
            args = g.group(2).split(",")
            return f"{g.group(1)}({','.join(arg(a, g.group(1) == 'stl' and not k) for k, a in enumerate(args))})"
        return ",".join(map(arg, m.split(",")))

    # '+' joins the shapes of a body; in a list of numbers (stl_translate '1e+2,0,0', '+1,0,0') it is a sign
    items = [i for i in str(text).split(";") if i.strip()]
    return ";".join("+".join(map(member, _re.split(r"\+(?![^()]*\))", i) if "(" in i else [i])) for i in items)


def split_items(text: str, key: str, shown: str, what: str) -> list:
    """The items of a ';'-separated list setting (obstacles, probes): one ';' after the last is harmless, an empty
    item anywhere else a ConfigError (';' alone meant none, ';;' skipped the item left out, both unsaid); shown:
    the value as messages show it."""
    items = text.split(";")
    if len(items) > 1 and not items[-1].strip():
        items.pop()
    for k, item in enumerate(items, start=1):
        if not item.strip():
            raise ConfigError(f"{key} = {shown}: item {k} of {len(items)} between ';' is empty; expected {what} "
                              f"separated by ';' ({key} = '' for none)")
    return items


def parse_obstacles(text: str, d: int, key: str = "obstacles") -> list:
    """'circle(0.2, 0.2, 0.05); box(1, 0.1, 1.2, 0.2) + circle(1.1, 0.3, 0.05)' -> bodies: ';' separates
    bodies, '+' joins shapes into one body (a union). No eval: a small grammar; numbers are plain
    decimal or scientific literals, finite. Each shape keeps its text in `.spec` (for messages); where
    the shapes lie is checked against the channel by `check_obstacles`."""
    bodies = []
    text = (text or "").strip()
    if not text:
        return bodies
    for body in split_items(text, key, show(text), "shapes"):
        # '+' outside parentheses joins shapes; inside them it is a sign (1e+2)
        members = [_parse_shape(part.strip(), text, d, key) for part in _re.split(r"\+(?![^()]*\))", body)]
        if len(members) == 1:
            bodies.append(members[0])
        else:
            u = geo.Union(*members)
            u.spec = body.strip()
            bodies.append(u)
    return bodies


def _parse_shape(part: str, text: str, d: int, key: str):
    """One primitive of an obstacle spec, e.g. circle(0.2, 0.2, 0.05)."""
    m = _re.fullmatch(r"([a-z]+)\s*\(([^()]*)\)", part)
    if m and m.group(1) == "stl":
        return _parse_stl(m.group(2), part, text, d, key)
    if not m and _re.match(r"stl\s*\(", part) and (part.count("(") + part.count(")") > 2 or
                                                   (")" not in part and ";" in text)):  # a path with (, ) or ;
        raise ConfigError(f"{key} = {show(text)}: cannot read {part!r}: {STL_PATH_ADVICE}")
    if not m or m.group(1) not in _SHAPES:
        raise ConfigError(f"{key} = {show(text)}: cannot read {part!r}; expected shapes like "
                          f"circle(cx, cy, r), cylinder(cx, cy, r), sphere(cx, cy, cz, r), box(x0, y0, x1, y1), "
                          f"{STL_FORM} separated by ';' (bodies) or '+' (one body)")
    name = m.group(1)
    head = f"{key} = {show(text)}: " + ("" if part == text else f"{part!r}: ")
    try:
        nums = [number(v) for v in m.group(2).split(",")]
    except ValueError as e:
        raise ConfigError(f"{head}{e}; expected {NUMBERS_EXPECTED}") from None
    need = _SHAPES[name][0] if d == 2 else _SHAPES[name][1]
    if need is None or len(nums) != need:
        here = ", ".join(f"{n}({what})" for n, (two, three, what) in _SHAPES.items() if (two, three)[d == 3])
        expected = (f"{need} numbers ({_SHAPES[name][2]})" if need else
                    f"a shape available in {d}D: {here}" + (f" or {STL_FORM}" if d == 3 else ""))
        raise ConfigError(f"{key} = {show(text)}: {part!r} in {d}D; expected {expected}")
    if name in ("circle", "cylinder", "sphere") and nums[-1] <= 0:
        raise ConfigError(f"{head}radius {nums[-1]:g}; expected a positive radius")
    if name == "circle":
        s = geo.Circle(nums[:2], nums[2])
    elif name == "cylinder":
        s = geo.Cylinder(nums[:2], nums[2], axis=2)
    elif name == "sphere":
        s = geo.Sphere(nums[:3], nums[3])
    else:
        lo, hi = nums[:d], nums[d:]
        if any(h <= lo_ for lo_, h in zip(lo, hi)):
            raise ConfigError(f"{head}expected x0 < x1, y0 < y1{', z0 < z1' if d == 3 else ''}")
        s = geo.Box(lo, hi)
    s.spec = part
    return s


def _parse_stl(args: str, part: str, text: str, d: int, key: str):
    """stl(path[, scale[, tx, ty, tz[, rx, ry, rz]]]): a closed triangle surface from an STL file (3D)."""
    head = f"{key} = {show(text)}: " + ("" if part == text else f"{part!r}: ")
    items = [a.strip() for a in args.split(",")]
    path = items[0].strip("'\"")
    if d != 3:
        raise ConfigError(f"{head}STL obstacles are 3D only; expected a 3D lattice (D3Q19, D3Q27)")
    try:
        if not path or len(items) not in (1, 2, 5, 8):
            raise ValueError(f"expected {STL_FORM}: {STL_ARGS}")
        nums = [number(v) for v in items[1:]]
    except ValueError as e:
        # a file whose path holds a ',' (split into arguments): said as such, not as a wrong count or number
        joined = [",".join(args.split(",")[:k]).strip().strip("'\"") for k in range(2, len(items) + 1)]
        held = next((j for j in joined if os.path.isfile(j)), None)
        if held is not None:
            raise ConfigError(f"{head}the file {held!r} holds ',': {STL_PATH_ADVICE}") from None
        raise ConfigError(f"{head}{e}" + ("" if str(e).startswith("expected") else f"; expected {NUMBERS_EXPECTED}")
                          ) from None
    return load_stl(path, *(nums[:1] or [1.0]), tuple(nums[1:4]) or (0.0, 0.0, 0.0),
                    tuple(nums[4:7]) or (0.0, 0.0, 0.0), head=head, spec=part)


# the meshes read, while something holds them, by file (path, device, inode, size, modification and change times:
# a copy over it in place that keeps the time, cp -p or shutil.copy2, sets the change time) and placement: resolve()
# built a channel's bodies twice (the set-up's, the probes' solid test), and a 1.3 M-triangle file was read twice
_MESHES = weakref.WeakValueDictionary()


def load_stl(path: str, scale: float = 1.0, translate=(0.0, 0.0, 0.0), rotate=(0.0, 0.0, 0.0), head: str = "",
             spec: str = "", names: dict | None = None):
    """The TriangleMesh of an STL file placed by scale, rotation (degrees about x, y, z) and translation;
    ConfigError (prefixed by `head`) for a missing library, an unreadable, empty or open mesh. A placement the body
    cannot take is said of its setting: `names` maps 'scale', 'translate', 'rotate' to the head that names it (the
    stl key's: "stl_scale = 1e-320: "), else `head` and the placement's value."""
    from distlbm.stl import PlacementError, TriangleMesh

    if not scale > 0:
        raise ConfigError(f"{head}scale {scale:g}; expected a positive scale")
    try:
        st = os.stat(path)
        key = (os.path.abspath(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, float(scale),
               tuple(float(t) for t in translate), tuple(float(a) for a in rotate))
    except (OSError, TypeError, ValueError):  # (from_file says what is wrong)
        key = None
    try:
        held = _MESHES.get(key) if key is not None else None
        s = copy.copy(held) if held is not None else TriangleMesh.from_file(path, scale, translate, rotate)
    except PlacementError as e:
        # a body too small for where it is moved: said of the scale or of the translation, whichever is the farther
        # from 1 in magnitude (scale 1e-300 at 0.5, 0.2, 0.2; scale 0.1 at 1e308, 1e308, 1e308)
        far = max((abs(float(t)) for t in translate), default=0.0)
        key = ("translate" if e.key == "scale" and far > 0 and math.log10(far) > abs(math.log10(scale))
               else e.key)
        value = {"scale": repr(float(scale)), "translate": ", ".join(repr(float(t)) for t in translate),
                 "rotate": ", ".join(repr(float(a)) for a in rotate)}[key]
        said = (names or {}).get(key) or f"{head}{'rotation' if key == 'rotate' else key} {value}: "
        raise ConfigError(f"{said}{e}") from None
    except ValueError as e:
        raise ConfigError(f"{head}{e}") from None
    if key is not None and held is None:
        _MESHES[key] = s  # (held by the caller; a later one gets a copy, with its own spec, the arrays shared)
    s.spec = spec or f"stl({path})"
    return s


# ---- where obstacles may lie ----------------------------------------------------------------------
# The rules, in physical coordinates (the channel is 0 <= x <= L, 0 <= y <= H, 0 <= z <= W; dx the cell):
#  1. every shape (each member of a '+' union too) has a part inside the channel;
#  2. no shape reaches the inlet or the outlet: within the channel's cross-section a shape lies in
#     dx < x < L - dx, clear of the inlet/outlet nodes (x = 0, L) and of the nodes next to them, which
#     their non-equilibrium extrapolation reads;
#  3. the obstacles leave a fluid path from the inlet to the outlet:
#     a. (2D) no connected group of shapes (of any bodies) reaches from y <= 0 to y >= H: a shape may
#        touch or cross one wall (a box attached to the bottom wall), not both together;
#     b. (2D, 3D) at no plane x = const through a shape (a round shape's centre, a box's faces and middle,
#        the ends and middle of a mesh's x extent)
#        do the shapes cover every fluid node of the cross-section (its cell centres): this catches a
#        sphere, a box or a cylinder across a 3D duct, and gaps narrower than the cells.
# A triangle mesh (stl) counts by the bounding boxes of its triangles that meet the cross-section (rules
# 1 and 2) and by its own inside test at the planes (3b). A voxel mask is checked for its shape and values
# only (it is the user's lattice).


def _members(s) -> list:
    if isinstance(s, geo.Union):
        return [m for x in s.shapes for m in _members(x)]
    return [s]


def _label(s, text: str = "") -> str:
    spec = getattr(s, "spec", None) or repr(s)
    return "the obstacle" if spec == text.strip() else repr(spec)


def _dist_to_box(c, lo, hi) -> float:
    """Distance from point c to the closed box lo <= x <= hi."""
    return math.sqrt(sum(max(lo_ - x, 0.0, x - hi_) ** 2 for x, lo_, hi_ in zip(c, lo, hi)))


def _round(s):
    """(centre x, centre in the cross-section, radius, cross axes it is round in) of a round primitive, or None."""
    if isinstance(s, (geo.Circle, geo.Sphere)):
        return s.center[0], s.center[1:], s.radius, len(s.center) - 1
    if isinstance(s, geo.Cylinder) and s.axis == 2 and s.extent is None:
        return s.center[0], s.center[1:], s.radius, 1  # infinite along z: round in (x, y) only
    return None


def _is_mesh(s) -> bool:
    from distlbm.stl import TriangleMesh

    return isinstance(s, TriangleMesh)


def _x_range(s, cross_lo, cross_hi):
    """(x_min, x_max) of the part of primitive s inside the open channel cross-section, None where it has
    no part there; 'skip' for a shape this check does not know. A triangle mesh: the x range of its
    triangles whose bounding boxes meet the cross-section."""
    if _is_mesh(s):
        lo, hi = s.lo, s.hi
        meet = np.all((lo[:, 1:] < np.asarray(cross_hi)) & (hi[:, 1:] > np.asarray(cross_lo)), axis=1)
        if not meet.any():
            return None
        return float(lo[meet, 0].min()), float(hi[meet, 0].max())
    if isinstance(s, geo.Box):
        if all(lo < hi2 and hi > lo2 for lo, hi, lo2, hi2 in zip(s.lo[1:], s.hi[1:], cross_lo, cross_hi)):
            return s.lo[0], s.hi[0]
        return None
    rnd = _round(s)
    if rnd is None:
        return "skip"
    cx, c, r, k = rnd
    delta = _dist_to_box(c, cross_lo[:k], cross_hi[:k])
    if delta >= r:
        return None
    h = math.sqrt(r * r - delta * delta)
    return cx - h, cx + h


def _y_range(s):
    if isinstance(s, geo.Box):
        return s.lo[1], s.hi[1]
    return s.center[1] - s.radius, s.center[1] + s.radius


def _touch(a, b) -> bool:
    """Whether two 2D primitives (circles, boxes) share a point."""
    if isinstance(a, geo.Box) and isinstance(b, geo.Box):
        return all(a.lo[i] <= b.hi[i] and b.lo[i] <= a.hi[i] for i in range(2))
    if isinstance(a, geo.Box):
        a, b = b, a
    if isinstance(b, geo.Box):
        return _dist_to_box(a.center, b.lo, b.hi) <= a.radius
    return math.dist(a.center, b.center) <= a.radius + b.radius


def _node_bound(s, xp, ynodes, znodes, dx) -> float:
    """An upper bound of the number of cross-section nodes that primitive s covers in the plane x = xp
    (each covered node owns a dx x dx cell inside the section grown by half a cell)."""
    def clipped(lo, hi, nodes):
        lo, hi = max(lo, nodes[0]), min(hi, nodes[-1])
        return (hi - lo) / dx + 1.0 + 1e-6 if hi >= lo else 0.0  # + round-off: an upper bound

    if _is_mesh(s):
        return math.inf  # no cheap bound: the covered nodes are counted
    if isinstance(s, geo.Box):
        if not s.lo[0] <= xp <= s.hi[0]:
            return 0.0
        n = clipped(s.lo[1], s.hi[1], ynodes)
        return n * clipped(s.lo[2], s.hi[2], znodes) if znodes is not None else n
    cx, c, r, k = _round(s)
    h2 = r * r - (xp - cx) ** 2
    if h2 < 0:
        return 0.0
    h = math.sqrt(h2)
    if znodes is None:
        return clipped(c[0] - h, c[0] + h, ynodes)
    if k == 1:  # a cylinder along z: a band across every z
        return clipped(c[0] - h, c[0] + h, ynodes) * len(znodes)
    return math.pi * (h / dx) ** 2 + 4.0 * h / dx + 1.0 + 1e-6


SCALE_HINT_RATIO = 10.0  # a mesh this many times the channel's largest side: its file's units are likely not metres


def _scale_hint(s, sides) -> str:
    """For a triangle mesh (an STL file) far larger than the channel, what its size suggests: a file in millimetres
    placed without its scale (a 100 mm part was said to reach the inlet, spanning x = -49.5 .. 50.5, with nothing
    said of the scale); '' otherwise."""
    if not _is_mesh(s):
        return ""
    across = float(np.max(s.bounds[1] - s.bounds[0]))
    big = max(sides)
    if not across > SCALE_HINT_RATIO * big:
        return ""
    ratio = across / big
    times = f"{ratio:.0f}" if ratio < 1e6 else f"{ratio:.3g}"  # (a scale of 1e300 gave a ratio of 300 digits)
    return (f" (the body is {across:.4g} across, {times} times the channel's largest side {big:g}: an STL "
            f"file's coordinates are scaled to metres by the scale, stl(path, scale, ...) or stl_scale: 0.001 for a "
            f"file in millimetres)")


def check_obstacles(bodies, lay: Layout, key: str = "obstacles", text: str = "") -> None:
    """ConfigError unless the parsed bodies obey the rules above on the channel of layout `lay`."""
    d, dx = lay.d, lay.dx
    length = (lay.shape[0] - 1) * dx
    cross = list(lay.cross)
    names = "xyz"
    extent = ", ".join(f"0 < {names[a]} < {v:g}" for a, v in enumerate([length] + cross))
    head = f"{key} = {show(text)}: "
    cross_lo, cross_hi = [0.0] * len(cross), cross
    prims = []  # (primitive, x range inside the channel)
    for body in bodies:
        for s in _members(body):
            xr = _x_range(s, cross_lo, cross_hi)
            if isinstance(xr, str):
                continue
            if xr is None or xr[1] <= 0.0 or xr[0] >= length:
                raise ConfigError(f"{head}{_label(s, text)} has no part inside the channel; expected obstacles that "
                                  f"overlap the domain {extent}{_scale_hint(s, [length] + cross)}")
            for end, where, bad in ((0.0, "inlet", xr[0] <= dx), (length, "outlet", xr[1] >= length - dx)):
                if bad:
                    raise ConfigError(
                        f"{head}{_label(s, text)} reaches the {where} at x = {end:g} (inside the channel it spans x = "
                        f"{xr[0]:.4g} .. {xr[1]:.4g}); expected obstacles clear of the inlet and outlet cells "
                        f"and their neighbours: dx < x < L - dx, here {dx:g} < x < {length - dx:g}"
                        f"{_scale_hint(s, [length] + cross)}")
            prims.append((s, xr))
    check_bodies_hold_cells(bodies, lay, key, text)  # meshes too: an STL body smaller than a cell made none
    if not prims:
        return
    span = f"y from 0 to H = {cross[0]:g}" + (f", z from 0 to W = {cross[1]:g}" if d == 3 else "")
    gap = ("expected a fluid path from the inlet to the outlet: an obstacle may touch or cross one wall, "
           "the obstacles together must leave a gap")

    def named(group):
        shown = [_label(s, text) for s in group[:3]]
        more = f" and {len(group) - 3} more" if len(group) > 3 else ""
        return (" + ".join(shown) + more), len(group) == 1

    # 3a: a connected group of 2D shapes from one wall to the other (also with periodic sides, whose
    # y = 0 and y = H are one line)
    if d == 2:
        shapes2 = [s for s, _ in prims]
        parent = list(range(len(shapes2)))

        def find(i):
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        order = sorted(range(len(shapes2)), key=lambda i: _bbox_x(shapes2[i])[0])
        for a_pos, i in enumerate(order):  # sweep in x: only shapes whose x ranges overlap can touch
            for j in order[a_pos + 1:]:
                if _bbox_x(shapes2[j])[0] > _bbox_x(shapes2[i])[1]:
                    break
                if _touch(shapes2[i], shapes2[j]):
                    parent[find(i)] = find(j)
        groups = {}
        for i in range(len(shapes2)):
            groups.setdefault(find(i), []).append(i)
        for idx in groups.values():
            ys = [_y_range(shapes2[i]) for i in idx]
            if min(y[0] for y in ys) <= 0.0 and max(y[1] for y in ys) >= cross[0]:
                what, single = named([shapes2[i] for i in sorted(idx)])
                raise ConfigError(f"{head}{what} {'blocks' if single else 'block'} the whole channel: "
                                  f"{'it reaches' if single else 'together they reach'} from wall to wall "
                                  f"({span}); {gap}")

    # 3b: every fluid node of a cross-section covered
    pad = 1 if lay.walls else 0
    nodes = []
    for a in range(1, d):
        k = np.arange(pad, lay.shape[a] - pad)
        nodes.append(lay.origin[a] + (k + 0.5) * dx)
    ynodes, znodes = nodes[0], (nodes[1] if d == 3 else None)
    total = len(ynodes) * (len(znodes) if znodes is not None else 1)
    grid = np.meshgrid(*nodes, indexing="ij")
    planes = set()
    for s, (x0, x1) in prims:
        rnd = _round(s)
        planes.update([rnd[0]] if rnd else [x0, x1, 0.5 * (x0 + x1)])
    for xp in sorted(planes):
        active = [s for s, (x0, x1) in prims if x0 <= xp <= x1]
        if sum(_node_bound(s, xp, ynodes, znodes, dx) for s in active) < total:
            continue
        covered = np.zeros(grid[0].shape, bool)
        pts = [np.full(grid[0].shape, xp)] + list(grid)
        used = []
        for s in active:
            ins = np.broadcast_to(s.inside(pts), covered.shape)
            if np.any(ins & ~covered):
                used.append(s)
                covered |= ins
        if covered.all():
            what, single = named(used)
            raise ConfigError(f"{head}{what} {'covers' if single else 'cover'} every fluid cell of the channel's "
                              f"cross-section at x = {xp:.4g} ({span}); {gap}"
                              f"{''.join(_scale_hint(s, [length] + cross) for s in used[:1])}")


def _bbox(s, d: int):
    """(lo, hi) physical bounding box of a primitive, None for a shape without a cheap one (a mesh)."""
    if isinstance(s, geo.Box):
        return list(s.lo), list(s.hi)
    if isinstance(s, (geo.Circle, geo.Sphere)):
        return [c - s.radius for c in s.center], [c + s.radius for c in s.center]
    if isinstance(s, geo.Cylinder):
        lo, hi = [-math.inf] * d, [math.inf] * d
        for a, c in zip(s.others, s.center):
            lo[a], hi[a] = c - s.radius, c + s.radius
        if s.extent is not None:
            lo[s.axis], hi[s.axis] = s.extent
        return lo, hi
    return None


def fraction_planes(bodies, lay: Layout) -> tuple | None:
    """(first, last) global x indices of the planes that can hold an interpolated link of the bodies, from
    their bounding boxes: the fluid cells of such links lie within a cell of a solid one, and a solid cell's
    centre inside its body (one cell more on each side for the surface tolerance). None where a body has no
    bounded x extent (a mask file, a cylinder along x). The memory estimate's box of wall fractions
    (stepper.Cells.qlink): the set-up keeps each block's planes that hold one, never more than these."""
    d, nx = lay.d, lay.shape[0]
    lo, hi = math.inf, -math.inf
    for body in bodies:
        for s in _members(body):
            if _is_mesh(s):
                box = [list(s.bounds[0]), list(s.bounds[1])]
            else:
                box = _bbox(s, d)
            if box is None or not (math.isfinite(box[0][0]) and math.isfinite(box[1][0])):
                return None
            lo, hi = min(lo, box[0][0]), max(hi, box[1][0])
    if lo > hi:
        return (0, -1)  # no body: no interpolated link of one
    # cell i's centre is origin + (i + 1/2) dx
    first = math.floor((lo - lay.origin[0]) / lay.dx - 0.5) - 2
    last = math.ceil((hi - lay.origin[0]) / lay.dx - 0.5) + 2
    return max(0, first), min(nx - 1, last)


def check_bodies_hold_cells(bodies, lay: Layout, key: str = "obstacles", text: str = "") -> None:
    """ConfigError unless every body (primitives, STL meshes) holds the centre of at least one fluid cell
    (inlet, outlet and wall cells excluded) that no earlier body holds (a cell belongs to the first
    body holding it). A body smaller than a cell, or inside an earlier one, made no solid cell: the run
    went on with no body there and reported its drag and lift as 0. The cells of the body's bounding box
    are tested plane by plane in x, from its middle outward, until one is found."""
    d, dx = lay.d, lay.dx
    head = f"{key} = {show(text)}: "
    pad = 1 if lay.walls else 0
    first = [1] + [pad] * (d - 1)  # the fluid cells' index range on each axis
    last = [lay.shape[0] - 2] + [lay.shape[a] - 1 - pad for a in range(1, d)]

    def box(s):  # a mesh's box is its vertices'
        return _bbox(s, d) or ((list(s.bounds[0]), list(s.bounds[1])) if _is_mesh(s) else None)

    for k, body in enumerate(bodies):
        members = _members(body)
        boxes = [box(s) for s in members]
        if not members or any(b is None for b in boxes):
            continue
        lo = [min(b[0][a] for b in boxes) for a in range(d)]
        hi = [max(b[1][a] for b in boxes) for a in range(d)]
        # cell i's centre is origin + (i + 1/2) dx
        ranges = []
        for a in range(d):
            i0 = first[a] if lo[a] == -math.inf else max(first[a], math.ceil((lo[a] - lay.origin[a]) / dx - 0.5))
            i1 = last[a] if hi[a] == math.inf else min(last[a], math.floor((hi[a] - lay.origin[a]) / dx - 0.5))
            ranges.append((i0, i1))
        label = " + ".join(_label(s, text) for s in members) if len(members) > 1 else _label(members[0], text)
        earlier = [b for b in bodies[:k] if all(box(s) is not None for s in _members(b))]
        found = own = False  # a cell of its own / a cell inside it at all
        if all(i0 <= i1 for i0, i1 in ranges):
            cross = np.meshgrid(*[lay.origin[a] + (np.arange(ranges[a][0], ranges[a][1] + 1) + 0.5) * dx
                                  for a in range(1, d)], indexing="ij")
            i0, i1 = ranges[0]
            mid = (i0 + i1) // 2
            for i in sorted(range(i0, i1 + 1), key=lambda i: abs(i - mid)):
                pts = [np.full(cross[0].shape, lay.origin[0] + (i + 0.5) * dx)] + list(cross)
                ins = np.zeros(cross[0].shape, bool)
                for s in members:
                    ins |= np.broadcast_to(s.inside(pts), ins.shape)
                own = own or bool(ins.any())
                for b in earlier:
                    if not ins.any():
                        break
                    for s in _members(b):
                        ins &= ~np.broadcast_to(s.inside(pts), ins.shape)
                if ins.any():
                    found = True
                    break
        if found:
            continue
        if own:
            why = "lies inside an earlier body (a cell belongs to the first body that holds it)"
            fix = "expected each body to hold cells of its own: join overlapping shapes with '+' into one body"
        else:
            why = f"holds no cell centre of the lattice (dx = {dx:g}): it would make no solid cell and report a force of 0"
            fix = "expected each body to cover at least one fluid cell: make it larger or the lattice finer (raise n)"
        raise ConfigError(f"{head}{label} {why}; {fix}")


def mask_cross_section(lay: Layout) -> tuple:
    """The slices of the cross axes holding the channel's fluid rows (the side walls' rows left out)."""
    pad = 1 if lay.walls else 0
    return tuple(slice(pad, n - pad) for n in lay.shape[1:])


def check_mask_cells(mask: geo.MaskFile, lay: Layout, x_layer: float | None = None, layer: str = "",
                     name: str | None = None) -> None:
    """ConfigError unless a scanned mask (`check_values` with `mask_cross_section(lay)`: its solid cells per plane
    along x, the side walls' rows left out) obeys the rules the obstacle strings obey: no solid cell on the inlet
    or outlet cells or their neighbours, a fluid gap in every cross-section, and, given a layer from x_layer to the
    outlet (the absorbing layer), every solid cell more than a cell ahead of it. `name`: the mask as the
    configuration gave it. Every process reads the same file and decides the same."""
    counts = mask.plane_solid
    if counts is None:
        raise ValueError(f"{mask!r}: check_values(cross=...) must scan the mask first")
    nx, dx = lay.shape[0], lay.dx
    head = f"mask = {str(mask.path) if name is None else name!r}: "
    cells = math.prod(len(range(*sl.indices(n))) for sl, n in zip(mask_cross_section(lay), lay.shape[1:]))

    def x(k):
        return lay.origin[0] + (k + 0.5) * dx

    solid = np.flatnonzero(counts)
    if not solid.size:  # it ran with no body there and reported a force of 0 on the body 'mask'
        walls = " (the side walls' rows aside)" if lay.walls else ""
        raise ConfigError(f"{head}no solid cell in the channel{walls}: every value there is 0; expected a body: "
                          f"nonzero mask cells are solid (for a channel without one: mask = '')")
    blocked = np.flatnonzero(counts >= cells) if cells else np.array([], int)
    inner = blocked[(blocked >= 2) & (blocked <= nx - 3)]
    if inner.size:
        k = int(inner[0])
        share = float(counts.sum()) / (cells * nx)
        more = f" ({inner.size} planes in all, x index {int(inner[0])} .. {int(inner[-1])})" if inner.size > 1 else ""
        hint = (f"; {share:.0%} of the channel's fluid cells are solid: nonzero mask cells are solid (an inverted "
                f"mask, 0 = solid, fills the channel)" if share > 0.5 else "")
        walls = ", inside the side walls," if lay.walls else ""
        raise ConfigError(f"{head}blocks the whole channel: every cell of the cross-section at x index {k} "
                          f"(x = {x(k):.4g}){walls} is solid{more}; expected a fluid path from the inlet to the outlet: "
                          f"a gap in every cross-section{hint}")
    for ks, what, why in (((0, 1), "inlet", " (the inlet imposes its profile on its whole plane)"),
                          ((nx - 1, nx - 2), "outlet", "")):
        for k in ks:
            if 0 <= k < nx and counts[k]:
                plane = "plane" if k in (0, nx - 1) else "cells' neighbours"
                raise ConfigError(f"{head}{int(counts[k])} solid cells at x index {k} (x = {x(k):.4g}), on the "
                                  f"{what} {plane}; expected obstacles clear of the inlet and outlet cells and their "
                                  f"neighbours: solid cells at x index 2 .. {nx - 3} only{why}")
    if x_layer is not None:
        into = solid[x(solid) >= x_layer - dx]
        if into.size:
            k = int(into[-1])
            raise ConfigError(f"{layer}: {head}solid cells up to x index {k} (x = {x(k):.4g}), into the layer from "
                              f"x = {x_layer:.4g} to the outlet; expected obstacles ahead of it, x < "
                              f"{x_layer - dx:.4g} (one cell dx = {dx:g} before it)")


class _Components:
    """Union-find over the fluid components of a channel labelled slab by slab: ids are global (each slab's
    labels offset past the earlier slabs'), `reach[i]` the last x index component i holds."""

    def __init__(self):
        self.parent = np.zeros(1, np.int64)  # id 0: solid
        self.reach = np.full(1, -1, np.int64)

    def add(self, count: int, reach: np.ndarray) -> int:
        """Append `count` new components whose last x indices are `reach`; the offset of their ids."""
        offset = len(self.parent)
        self.parent = np.concatenate([self.parent, np.arange(offset, offset + count)])
        self.reach = np.concatenate([self.reach, reach])
        return offset - 1

    def find(self, i: int) -> int:
        root = i
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[i] != root:
            self.parent[i], i = root, self.parent[i]
        return int(root)

    def union(self, a: np.ndarray, b: np.ndarray) -> None:
        """Join the components of each pair a[k], b[k] (ids, both nonzero)."""
        if not a.size:
            return
        a, b = a.astype(np.int64), b.astype(np.int64)
        m = len(self.parent)
        if m < 1 << 31:  # one key per pair: a 1-D unique (sorting pairs as rows is ~50x slower)
            keys = np.unique(a * m + b)
            pairs = zip(keys // m, keys % m)
        else:
            pairs = np.unique(np.stack([a, b], axis=1), axis=0)
        for x, y in pairs:
            rx, ry = self.find(int(x)), self.find(int(y))
            if rx != ry:
                self.parent[ry] = rx
                self.reach[rx] = max(self.reach[rx], self.reach[ry])


def _neighbour_pairs(a: np.ndarray, b: np.ndarray, offset, periodic) -> tuple:
    """The id pairs (a[p], b[p + offset]) where both are nonzero: `a`, `b` arrays of one shape, `offset` one
    integer per axis (-1, 0, 1), wrapped on the axes where `periodic` is true, else cut at the ends."""
    src, dst = [], []
    for n, o, wrap in zip(a.shape, offset, periodic):
        if o == 0:
            src.append(slice(None))
            dst.append(slice(None))
        elif wrap:
            b = np.roll(b, -o, axis=len(src))
            src.append(slice(None))
            dst.append(slice(None))
        elif o > 0:
            src.append(slice(0, n - o))
            dst.append(slice(o, n))
        else:
            src.append(slice(-o, n))
            dst.append(slice(0, n + o))
    x, y = a[tuple(src)], b[tuple(dst)]
    both = (x != 0) & (y != 0)
    return x[both], y[both]


FLUID_PATH_SLAB_BYTES = 1 << 24


def _cell_ranges(s, centres) -> list:
    """[(first, stop)] per axis: the cells whose centres (`centres`, per axis, increasing) lie in the bounding box
    of shape s (a primitive's or a mesh's; the whole axis for a shape without one)."""
    d = len(centres)
    bb = _bbox(s, d) or (s.bounds if _is_mesh(s) else None)
    if bb is None:
        return [(0, len(c)) for c in centres]
    tol = [1e-9 * (c[1] - c[0]) if len(c) > 1 else 0.0 for c in centres]
    return [(int(np.searchsorted(c, float(bb[0][a]) - tol[a])),
             int(np.searchsorted(c, float(bb[1][a]) + tol[a], side="right"))) for a, c in enumerate(centres)]


def check_fluid_path(bodies, lay: Layout, velocities, key: str = "obstacles", text: str = "",
                     mask: geo.MaskFile | None = None, mask_name: str | None = None,
                     max_bytes: int = FLUID_PATH_SLAB_BYTES, stop=None, cells: list | None = None) -> bool:
    """ConfigError unless the fluid cells of the channel (inside the side walls; the cells of the `bodies` and of
    the `mask` solid) hold a path from the inlet plane to the outlet plane along the lattice's links `velocities`
    ([Q, d] integers; periodic sides wrap). The rules above (`check_obstacles`, `check_mask_cells`) find bodies
    that touch from wall to wall and a plane whose every cell is solid; this finds every other closure of the
    lattice: a slanted wall or staggered plates in a mask, a mask and obstacle strings together, bodies whose gap
    is narrower than a cell and holds no cell centre (each ran to its end with exit 0, the mass growing by the
    inflow: +23 % to +40 %).

    The cells are taken in slabs of whole x-planes (about max_bytes of mask each; the mask is read once more),
    the fluid components of each slab labelled (scipy.ndimage.label, the lattice's links as the structure) and
    joined to the previous slab's last plane and, with periodic sides, across the sides, by a union-find.
    stop() (if given) is asked between slabs: True ends the scan at once, returning False (a stop signal came: a
    large lattice's scan takes minutes); returns True when the scan found the path. `cells` (a list, if given) gets
    the number of solid cells of each body of `bodies` inside the side walls (a cell belongs to the first body that
    holds it, before the mask, as in geo.Obstacles) once the whole lattice is scanned."""
    from scipy import ndimage

    d, nx, dx = lay.d, lay.shape[0], lay.dx
    cross = mask_cross_section(lay)
    periodic = (False,) + (not lay.walls,) * (d - 1)
    vel = np.asarray(velocities, int).reshape(-1, d)
    structure = np.zeros((3,) * d, bool)
    structure[tuple((vel + 1).T)] = True
    comps = _Components()
    prev = None  # the last plane's global ids of the previous slab
    inlet = None
    rows = [np.arange(*sl.indices(n)) for sl, n in zip(cross, lay.shape[1:])]
    centres = [lay.origin[a] + (np.arange(lay.shape[a]) + 0.5) * dx for a in range(d)]
    # each member shape with the index range of the cells its bounding box holds: inside() is asked only there
    boxes = [(m, _cell_ranges(m, centres), k) for k, body in enumerate(bodies) for m in _members(body)]
    counts = [0] * len(bodies)
    cross_shape = tuple(len(r) for r in rows)
    if mask is not None:
        slabs = ((start, values[(slice(None),) + cross] != 0) for start, values in mask.slabs(max_bytes))
    else:  # a slab no body's box reaches is fluid alone, and is not formed (a 3.6e10-cell channel took minutes)
        step = max(1, max_bytes // max(1, math.prod(cross_shape)))
        slabs = ((start, np.zeros((n,) + cross_shape, bool) if any(lo < start + n and hi > start
                                                                    for _, ((lo, hi), *_), _ in boxes)
                  else (n,) + cross_shape) for start in range(0, nx, step) for n in (min(step, nx - start),))
    offs = [0] + [int(r[0]) if len(r) else 0 for r in rows]  # the global index of a slab's first cell, per axis
    for start, solid in slabs:
        if stop is not None and stop():
            return False
        offs[0] = start
        if isinstance(solid, tuple):  # its shape: fluid alone
            labels, count = np.broadcast_to(np.int32(1), solid), 1
            reach = np.array([start + solid[0] - 1], np.int64)
        else:
            # the cells the bodies took: a cell is the first body's that holds it, the mask's after them (as
            # geo.Obstacles gives them): a body's cells inside the mask were counted as the mask's
            taken = solid if mask is None else np.zeros(solid.shape, bool)
            for m, rng, k in boxes:
                sub = tuple(slice(max(lo, o) - o, max(min(hi, o + n) - o, 0))
                            for (lo, hi), o, n in zip(rng, offs, solid.shape))
                if any(sl.start >= sl.stop for sl in sub):
                    continue
                pts = np.meshgrid(*[centres[a][offs[a] + sl.start:offs[a] + sl.stop] for a, sl in enumerate(sub)],
                                  indexing="ij", sparse=True)
                part = solid[sub]  # a view: the bodies' cells are marked in the slab itself
                ins = np.broadcast_to(m.inside(pts), part.shape)
                mine = taken[sub]
                counts[k] += int(np.count_nonzero(ins & ~mine))
                if mask is not None:
                    mine |= ins
                part |= ins
            np.logical_not(solid, out=solid)
            if solid.all():  # a slab of fluid alone (most, away from the bodies): one component
                labels, count = np.broadcast_to(np.int32(1), solid.shape), 1
                reach = np.array([start + solid.shape[0] - 1], np.int64)
            else:
                labels, count = ndimage.label(solid, structure=structure)
                reach = np.array([start + sl[0].stop - 1 if sl is not None else -1
                                  for sl in ndimage.find_objects(labels)], np.int64).reshape(-1)
            del solid
        offset = comps.add(count, np.concatenate([reach, np.full(count - len(reach), -1, np.int64)]))

        def ids(part):  # the global ids of a part of the slab's labels (the slab's own are 1..count)
            return np.where(part != 0, part.astype(np.int64) + offset, 0)

        for a in range(1, d):  # links across the periodic sides (ndimage does not wrap)
            if periodic[a]:
                last, first = ids(labels.take(-1, axis=a)), ids(labels.take(0, axis=a))
                for c in vel[vel[:, a] == 1]:
                    comps.union(*_neighbour_pairs(last, first, tuple(np.delete(c, a)), np.delete(periodic, a)))
        head = ids(labels[0])
        if prev is not None:  # links from the previous slab's last plane into this slab's first
            for c in vel[vel[:, 0] == 1]:
                comps.union(*_neighbour_pairs(prev, head, tuple(c[1:]), periodic[1:]))
        if inlet is None:
            first = head[head != 0]
            inlet = int(first[0]) if first.size else 0
        prev = ids(labels[-1])
        del labels
    outlet = prev[prev != 0] if prev is not None else np.zeros(0, np.int64)
    if cells is not None:
        cells[:] = counts
    if not inlet or not outlet.size:
        return True  # an inlet or outlet plane without fluid is check_mask_cells' to say
    root = comps.find(inlet)
    if any(comps.find(int(o)) == root for o in np.unique(outlet)):
        return True
    k = int(comps.reach[root])
    shown = f"{key} = {show(text)}"
    if mask is not None:
        shown = f"mask = {str(mask.path) if mask_name is None else mask_name!r}"
        what = f"{shown}: leaves" if not bodies else f"{shown} and {key} = {show(text)}: together leave"
    else:
        what = f"{shown}: {'leaves' if len(bodies) == 1 else 'leave'}"
    raise ConfigError(
        f"{what} no fluid path from the inlet to the outlet on the lattice (dx = {dx:g}): the fluid connected to the "
        f"inlet ends at x index {k} (x = {lay.origin[0] + (k + 0.5) * dx:.4g}), with no plane wholly solid (a slanted "
        f"or staggered wall, or bodies whose gaps hold no cell centre); expected a fluid path from the inlet to the "
        f"outlet along the lattice's links{'' if mask is not None else ': widen the gaps or raise the resolution n'}")


def periodic_cuts(bodies, lay: Layout, key: str = "obstacles", text: str = "") -> list:
    """Warnings for the shapes that cross a periodic side (sides = 'periodic'): a body is voxelised where it lies,
    not continued across the period, so its part beyond y = H (or below 0, or z likewise) is cut off, and nothing
    of it appears at the other side (a sphere at y = 0.39 of a 0.4 period made 346 cells of its 522, unsaid). A
    shape whose cut part holds no cell centre, or that is unbounded along the axis, is not said."""
    if lay.walls:
        return []
    out, dx = [], lay.dx
    centres = [lay.origin[a] + (np.arange(lay.shape[a]) + 0.5) * dx for a in range(lay.d)]
    for body in bodies:
        for s in _members(body):
            box = _bbox(s, lay.d) or ((list(s.bounds[0]), list(s.bounds[1])) if _is_mesh(s) else None)
            if box is None:
                continue
            for a in range(1, lay.d):
                lo, hi, period = box[0][a], box[1][a], lay.shape[a] * dx
                top = lay.origin[a] + period
                if not (math.isfinite(lo) and math.isfinite(hi)):  # (a cylinder along z: across the period)
                    continue
                # the images of the cells beyond each side (their centres a period away), within the shape's box:
                # a cut part that holds none of them (a sphere's cap thinner than the cells' spacing) lost no cell
                for side, image in ((lay.origin[a], centres[a] - period), (top, centres[a] + period)):
                    pick = [(c >= b[0][i]) & (c <= b[1][i]) for i, c, b in
                            ((i, image if i == a else centres[i], box) for i in range(lay.d))]
                    if not all(k.any() for k in pick):
                        continue
                    axes = [(image if i == a else centres[i])[k] for i, k in enumerate(pick)]
                    # in slabs along x of about 2^20 points (this runs before the memory pre-flight: a large body
                    # across the side of a large lattice asked inside() of 1e8 points at once), the first hit ends it
                    step = max(1, (1 << 20) // math.prod(len(x) for x in axes[1:]))
                    if any(np.any(s.inside(np.meshgrid(axes[0][i:i + step], *axes[1:], indexing="ij", sparse=True)))
                           for i in range(0, len(axes[0]), step)):
                        break
                else:
                    continue
                out.append(f"{key} = {show(text)}: {_label(s, text)} crosses the periodic side {'xyz'[a]} = "
                           f"{side:g} (it spans {'xyz'[a]} = {lo:.4g} .. {hi:.4g}): a body is cut there, not continued "
                           f"across the period (its part beyond is not at the other side); move it inside the period, "
                           f"or give its other part as a shape of its own")
                break
    return out


def body_report(bodies, cells, lay: Layout) -> list:
    """One line per body of what the voxelisation made of it, by which a user checks the geometry: its solid cells
    (`cells`, check_fluid_path's counts) and their volume; an STL body's place (its box once scaled, rotated and
    moved, in metres and in cell indices) and the volume its surface encloses, which the cells' should be near."""
    dx, lines = lay.dx, []
    for k, (body, n) in enumerate(zip(bodies, cells)):
        members = _members(body)
        spec = getattr(body, "spec", None) or " + ".join(getattr(m, "spec", None) or repr(m) for m in members)
        line = f"body {k + 1} {spec}: {n:,} solid cells ({n * dx ** lay.d:.4g} m^{lay.d})"
        meshes = [m for m in members if _is_mesh(m)]
        if len(meshes) == len(members):
            lo = np.min([m.bounds[0] for m in meshes], axis=0)
            hi = np.max([m.bounds[1] for m in meshes], axis=0)
            # cell i's centre is origin + (i + 1/2) dx: the cells whose centres the box holds
            i0 = [math.ceil((lo[a] - lay.origin[a]) / dx - 0.5) for a in range(lay.d)]
            i1 = [math.floor((hi[a] - lay.origin[a]) / dx - 0.5) for a in range(lay.d)]
            box = ", ".join(f"{'xyz'[a]} {lo[a]:.4g} .. {hi[a]:.4g}" for a in range(lay.d))
            idx = ", ".join(f"{'ijk'[a]} {i0[a]} .. {i1[a]}" for a in range(lay.d))
            vol = [m.volume for m in meshes]
            line += f"; its surface {box} m (cells {idx}), {sum(len(m.faces) for m in meshes):,} triangles"
            if len(meshes) == 1 and vol[0] is not None:
                # the divergence theorem counts a region once per shell around it: overlapping parts of an assembly
                # (whose cells are their union) were said as the sum of the parts
                shells = meshes[0].shells  # TriangleMesh: its pieces that share no vertex
                line += (f", enclosing {vol[0]:.4g} m^3 ({vol[0] / dx ** 3:,.0f} cells of dx^3)" if shells == 1 else
                         f", {shells} closed shells enclosing {vol[0]:.4g} m^3 in all ({vol[0] / dx ** 3:,.0f} cells "
                         f"of dx^3; where they overlap, counted in each)")
                if meshes[0].turned:  # a cavity, or a part turned over (mirrored): its volume taken off the sum
                    m = meshes[0]
                    line += (f", {m.turned} of them turned inward: a cavity, or a part turned over, as mirroring "
                             f"does, which is solid all the same (then {m.parts_volume:.4g} m^3, "
                             f"{m.parts_volume / dx ** 3:,.0f} cells of dx^3)")
            dup = sum(getattr(m, "duplicates", 0) for m in meshes)
            if dup:
                line += (f"; {dup:,} duplicated triangles left out (a triangle written again with the same corners: "
                         f"counted once)")
            # (a body across a side wall is allowed, as a primitive: the wall's cells stay wall, part of no body)
            top = [(lay.shape[0] - 1) * dx] + list(lay.cross)
            # both sides of an axis where it crosses both (a fin across the channel was said as 'z < 0' alone)
            out = [f"{'xyz'[a]} {side}" for a in range(lay.d)
                   for side, beyond in (("< 0", lo[a] < 0), (f"> {top[a]:g}", hi[a] > top[a])) if beyond]
            if out:
                line += f"; partly outside the channel ({', '.join(out)}): its cells are those of the part inside"
        lines.append(line)
    return lines


def check_clear_of_layer(bodies, lay: Layout, x0: float, key: str, text: str, layer: str) -> None:
    """ConfigError unless every body lies ahead of x = x0 by more than a cell (a layer from x0 to the
    outlet, e.g. the absorbing layer: forces and the flow around the bodies are measured ahead of it).
    Mask files are checked from their solid cells per plane (`check_mask_cells`)."""
    for body in bodies:
        for s in _members(body):
            xr = _x_range(s, [0.0] * len(lay.cross), list(lay.cross))
            if isinstance(xr, str) or xr is None:
                continue
            if xr[1] >= x0 - lay.dx:
                raise ConfigError(f"{layer}: {key} = {show(text)}: {_label(s, text)} reaches x = {xr[1]:.4g}, into the layer "
                                  f"from x = {x0:.4g} to the outlet; expected obstacles ahead of it, x < "
                                  f"{x0 - lay.dx:.4g} (one cell dx = {lay.dx:g} before it)")


def _bbox_x(s):
    if isinstance(s, geo.Box):
        return s.lo[0], s.hi[0]
    return s.center[0] - s.radius, s.center[0] + s.radius

