"""Probes of the channel cases: probe points and lines read from their spec strings, the stencils that
interpolate a cell-centred field at a physical point (or extrapolate it to a body's surface), and the
analysis of sampled series (Strouhal number, steadiness)."""

from __future__ import annotations

import itertools
import math
import re as _re

import numpy as np

from distlbm import units
from distlbm.cases.base import ConfigError
from distlbm.cases.obstacles.layout import Layout
from distlbm.cases.obstacles.spec import NUMBERS_EXPECTED, number, split_items

def parse_points(text: str, d: int, key: str, shown: str | None = None) -> list:
    """'x,y[,z]; x,y[,z]' -> list of D-tuples (physical coordinates; finite, strictly parsed numbers).
    Messages show the value `shown` (default: text)."""
    shown = text if shown is None else shown
    pts = []
    if not (text or "").strip():
        return pts
    for part in split_items(text, key, repr(shown), f"points 'x,y{',z' if d == 3 else ''}'"):
        try:
            pt = tuple(number(v) for v in part.split(","))
        except ValueError as e:
            what = ("" if part.strip() == shown.strip() else
                    f"{part.strip()!r} is not a point 'x,y{',z' if d == 3 else ''}': ")
            raise ConfigError(f"{key} = {shown!r}: {what}{e}; expected {NUMBERS_EXPECTED}") from None
        if len(pt) != d:
            raise ConfigError(f"{key} = {shown!r}: {part.strip()!r} has {len(pt)} coordinates; expected {d}")
        pts.append(pt)
    return pts


MAX_LINE_POINTS = 100_000


def parse_line(text: str, d: int, key: str = "probe_line"):
    """'x0,y0[,z0]; x1,y1[,z1]; npoints' -> (point a, point b, npoints)."""
    form = f"'x0,y0{',z0' if d == 3 else ''}; x1,y1{',z1' if d == 3 else ''}; npoints'"
    parts = [x.strip() for x in text.split(";")]
    if len(parts) != 3:
        raise ConfigError(f"{key} = {text!r}: {len(parts)} part(s) separated by ';'; expected {form} with npoints "
                          f"a positive integer")
    pts = [parse_points(q, d, key, shown=text) for q in parts[:2]]
    if any(len(q) != 1 for q in pts):
        raise ConfigError(f"{key} = {text!r}: expected {form}: two points, then npoints a positive integer")
    pts = [q[0] for q in pts]
    n = parts[2]
    if not _re.fullmatch(r"\+?[0-9]+", n) or not 0 < int(n) <= MAX_LINE_POINTS:
        raise ConfigError(f"{key} = {text!r}: npoints = {n!r}; expected {form} with npoints a positive integer "
                          f"(at most {MAX_LINE_POINTS})")
    if pts[0] == pts[1] and int(n) > 1:  # npoints samples of one point, unsaid
        raise ConfigError(f"{key} = {text!r}: both ends are ({', '.join(f'{x:g}' for x in pts[0])}); expected two "
                          f"different points (or npoints = 1 for one point)")
    return pts[0], pts[1], int(n)


def probe_range(lay: Layout) -> list:
    """Per axis, the physical interval in which a probe can be interpolated: inside the channel and between
    the first and last cell centres (the interpolation does not wrap around periodic sides)."""
    out = []
    extents = [(lay.shape[0] - 1) * lay.dx] + list(lay.cross)
    for a, ext in enumerate(extents):
        first = lay.origin[a] + 0.5 * lay.dx
        last = lay.origin[a] + (lay.shape[a] - 0.5) * lay.dx
        out.append((max(0.0, first), min(ext, last)))
    return out


def _fmt_point(pt) -> str:
    return "(" + ", ".join(f"{float(x):g}" for x in pt) + ")"


def check_distinct(pts, key: str, text: str) -> None:
    """ConfigError for a point given twice in `key` (its samples pt1, pt2, ... are keyed by position: the second was
    a second, identical series, unsaid)."""
    first = {}
    for k, pt in enumerate(pts, start=1):
        if pt in first:
            raise ConfigError(f"{key} = {text!r}: point {_fmt_point(pt)} is given twice (items {first[pt]} and {k} of "
                              f"{len(pts)}); expected each point once (each is sampled on its own: a second would be "
                              f"the same series)")
        first[pt] = k


def same_reads(cells: dict, weights: dict, names) -> list:
    """Pairs (a, b) of the probe points `names` that read the same cells with the same weights (distinct points
    within round-off of one cell centre, snapped to it): their series are the same."""
    def read(name):
        w = np.asarray(weights[name], float)
        used = np.abs(w) > 1e-12
        c = np.asarray(cells[name]).reshape(len(w), -1)[used]
        order = np.lexsort(c.T[::-1]) if len(c) else np.arange(0)
        return c[order].tobytes(), w[used][order].tobytes()

    seen, pairs = {}, []
    for name in names:
        r = read(name)
        if r in seen:
            pairs.append((seen[r], name))
        else:
            seen[r] = name
    return pairs


def check_points(pts, lay: Layout, key: str, text: str) -> None:
    """ConfigError for a probe point outside the channel (or too close to a periodic side to interpolate)."""
    rng = probe_range(lay)
    for pt in pts:
        if any(not lo - 1e-12 <= x <= hi + 1e-12 for x, (lo, hi) in zip(pt, rng)):
            allowed = ", ".join(f"{'xyz'[a]} in [{lo:g}, {hi:g}]" for a, (lo, hi) in enumerate(rng))
            raise ConfigError(f"{key} = {text!r}: point {_fmt_point(pt)} lies outside the channel; expected "
                              f"{allowed}")


def stencil(pt, direction, lay: Layout, solid=None) -> tuple:
    """Cells and weights that interpolate (or extrapolate to a surface) a field at physical point pt.

    Multilinear interpolation between the neighbouring cell centres. For a point on a surface (a
    direction: -1 upstream of the point, +1 downstream): the interpolation if every cell it weighs is
    fluid (`solid(cells)` says which are not; a Schaefer-Turek point on the cylinder's surface is a cell
    centre, inside the cylinder, at some n and midway between two fluid centres at others), otherwise a
    linear extrapolation
    along x from the first two whole cells on that side beyond the point (their centres at least half a
    cell away from it).
    """
    d, dx, origin = lay.d, lay.dx, lay.origin
    shape = lay.shape

    def frac(a):  # fractional cell index of pt along axis a (snapped to a node within round-off)
        s = (pt[a] - origin[a]) / dx - 0.5
        return float(round(s)) if abs(s - round(s)) < 1e-6 else s

    def linear(s, n):
        k0 = int(math.floor(s))
        if k0 == s and k0 == n - 1:  # on the last cell centre: weigh it 1 and the one before 0 (not a cell past it)
            k0 -= 1
        return [(k0, 1.0 - (s - k0)), (k0 + 1, s - k0)]

    axes_w = [linear(frac(a), shape[a]) for a in range(1, d)]
    s = frac(0)
    xw = linear(s, shape[0])
    if direction is not None:
        cells, weights = _combine([xw] + axes_w, shape, pt)
        used = [c for c, w in zip(cells, weights) if abs(w) > 1e-12]
        if solid is not None and not np.any(solid(np.asarray(used))):
            return cells, weights
        k1 = int(math.floor(s - 0.5)) if direction < 0 else int(math.ceil(s + 0.5))
        k2 = k1 + direction
        w1 = (s - k2) / (k1 - k2)  # the line through (k1, v1), (k2, v2), evaluated at s
        xw = [(k1, w1), (k2, 1.0 - w1)]
    return _combine([xw] + axes_w, shape, pt)


def _combine(axes_w, shape, pt):
    """Tensor product of per-axis (index, weight) lists -> (cells, weights)."""
    cells, weights = [], []
    for combo in itertools.product(*axes_w):
        idx = [c for c, _ in combo]
        if any(not 0 <= c < n for c, n in zip(idx, shape)):
            raise ConfigError(f"probe point {_fmt_point(pt)}: its interpolation reads cell {tuple(idx)} outside the "
                              f"lattice {tuple(shape)}; expected a point further inside the channel")
        cells.append(idx)
        weights.append(math.prod(w for _, w in combo))
    return cells, weights


def stencils(points: dict, lay: Layout, solid) -> tuple:
    """(cells, weights) of named probe points (name -> (physical point, direction or None)): cells[name] the
    [N, D] global cell indices a sample reads, weights[name] their N weights (`stencil`). For a point on a
    surface whose neighbours are not all fluid (`solid(cells)`), the 2^(D-1) cross-stream neighbours of the
    two cell columns nearest the point on the side `direction` (extrapolated to it)."""
    cells, weights = {}, {}
    for name, (pt, direction) in points.items():
        cells[name], weights[name] = stencil(pt, direction, lay, solid)
    return cells, weights


def fluid_weights(weights, fluid):
    """The interpolation weights of the fluid cells alone, renormalised to sum to 1 (None where no cell the
    point is read from is fluid): the pressure of a point next to a wall or body, whose solid cells hold rest
    (p = 0), not a pressure of the flow. (The velocity keeps the solid cells at rest: the walls' velocity.)"""
    w = np.asarray(weights, float) * np.asarray(fluid, bool)
    total = w.sum()
    return None if abs(total) < 1e-12 else w / total


def probe_quantities(raw: dict, weights: dict, lay: Layout, p_weights: dict | None = None) -> dict:
    """One sample's probe values in physical units: p_<name> (pressure over the density, m^2/s^2) of every
    probe, u<x|y|z>_<name> (m/s) of the user's points (pt1, pt2, ...), and dP = p_front - p_back where both
    exist. raw: name -> {'rho': [N], 'u': [D][N]} (lattice units) at the cells of `weights[name]` ([N]);
    p_weights[name]: the pressure's weights where they differ (`fluid_weights`: a point next to a solid cell)."""
    out = {}
    conv = (lay.dx / lay.dt) ** 2
    vals = {}
    p_weights = p_weights or {}
    for name, rec in raw.items():
        w = np.asarray(p_weights.get(name, weights[name]))
        vals[name] = float(np.dot(w, units.pressure(np.asarray(rec["rho"]))) * conv)
    out.update({f"p_{k}": v for k, v in vals.items()})
    vel = lay.dx / lay.dt
    for name, rec in raw.items():
        if name.startswith("pt"):
            w = np.asarray(weights[name])
            for a, comp in enumerate("xyz"[:lay.d]):
                out[f"u{comp}_{name}"] = float(np.dot(w, np.asarray(rec["u"][a]))) * vel
    if "front" in vals and "back" in vals:
        out["dP"] = vals["front"] - vals["back"]
    return out


PRESSURE_UNITS = "m^2/s^2 (pressure over the density: Pa per kg/m^3)"


def quantity_units(keys) -> dict:
    """The unit of each sampled quantity of a channel (samples.jsonl's keys and summary.json's `final`): the
    force coefficients (cD, cL, cLz, suffixed _k) are numbers, probes' p_* and dP pressures over the density,
    u*_* velocities."""
    out = {}
    for k in keys:
        if k == "step":
            out[k] = "steps"
        elif k == "time":
            out[k] = "s"
        elif k.split("_")[0] in ("cD", "cL", "cLz"):
            out[k] = "1 (c = 2 F / (rho U_mean^2 A): normalisation)"
        elif k == "dP" or k.startswith("p_"):
            out[k] = PRESSURE_UNITS
        elif k[:3] in ("ux_", "uy_", "uz_"):
            out[k] = "m/s"
    return out


def line_profile(view, text: str, lay: Layout, solid=None) -> dict:
    """Velocity (m/s) and pressure (Pa per unit density) at the npoints of the probe line `text` ('x0,y0[,z0];
    x1,y1[,z1]; npoints'), interpolated from the run's current state (view.probe). solid(cells [N, D]) -> [N]
    bool: the pressure of a point next to a solid cell is the fluid cells' (`fluid_weights`; None inside a
    body), its velocity counts the solid cells at rest."""
    a, b, npts = parse_line(text, lay.d)
    pts = [tuple(a[i] + (b[i] - a[i]) * t for i in range(lay.d)) for t in np.linspace(0.0, 1.0, npts)]
    sts = [stencil(pt, None, lay) for pt in pts]
    cells = np.concatenate([np.asarray(c) for c, _ in sts])
    vals = view.probe(cells)
    fluid = np.ones(len(cells), bool) if solid is None else ~np.asarray(solid(cells), bool)
    vel = lay.dx / lay.dt
    us, ps, k = [], [], 0
    for c, w in sts:
        m = len(c)
        w = np.asarray(w)
        us.append([float(np.dot(w, vals["u"][i][k:k + m])) * vel for i in range(lay.d)])
        wp = fluid_weights(w, fluid[k:k + m])
        ps.append(None if wp is None else float(np.dot(wp, units.pressure(vals["rho"][k:k + m]))) * vel * vel)
        k += m
    return {"points": [list(x) for x in pts], "u": us, "p": ps,
            "units": {"points": "m", "u": "m/s", "p": PRESSURE_UNITS},
            "note": "multilinear interpolation of the cell-centre values; next to a wall or body the velocity counts "
                    "the solid cells at rest, the pressure is the fluid cells' alone (null inside a body)"}


def steadiness(samples) -> dict:
    """Relative change of each coefficient over the last 10 % of the samples (steady-state check)."""
    if len(samples) < 5:
        return {}
    k = max(1, len(samples) // 10)
    a, b = samples[-1 - k], samples[-1]
    ch = {}
    for key in b:
        if key in ("step", "time") or not isinstance(b[key], float) or key not in a:
            continue
        ch[key] = abs(b[key] - a[key]) / max(abs(b[key]), 1e-12)
    return {"relative_change_last_10pct": ch}


def strouhal(samples, key="cL", ref_length=1.0, u_mean=1.0, tail=0.5):
    """Shedding frequency from the zero crossings (upward, linearly interpolated) of key - mean over the
    last `tail` of the samples: returns (St = f L / U, f, number of periods) or (None, None, 0)."""
    if len(samples) < 10:
        return None, None, 0
    # (one record at a time: a slice of driver.records.SampleRecords makes a dict of each record at once, ~500 B
    # apiece, half a long series sampled every step)
    first = int(len(samples) * (1 - tail))
    t, y = np.empty(len(samples) - first), np.empty(len(samples) - first)
    for j in range(t.size):
        r = samples[first + j]
        t[j], y[j] = r["time"], r.get(key, np.nan)
    if not np.all(np.isfinite(y)) or np.ptp(y) < 1e-9:
        return None, None, 0
    y = y - 0.5 * (y.max() + y.min())
    ups = [t[i] - y[i] * (t[i + 1] - t[i]) / (y[i + 1] - y[i]) for i in range(len(y) - 1) if y[i] < 0 <= y[i + 1]]
    if len(ups) < 3:
        return None, None, 0
    period = (ups[-1] - ups[0]) / (len(ups) - 1)
    f = 1.0 / period
    return f * ref_length / u_mean, f, len(ups) - 1

