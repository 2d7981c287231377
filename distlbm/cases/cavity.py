"""Lid-driven cavities: 2D against Ghia, Ghia & Shin (1982), and 3D (cubic cavity, lid moving in x)."""

from __future__ import annotations

import numpy as np

from distlbm import units as un
from distlbm.cases.base import Case, Param, Setup, block_shape, check, physical_units, rest_state, steps_for
from distlbm.cases.references import GHIA_U, GHIA_V, cite, read_table
from distlbm.physics import boundaries as bc

def _cavity_geometry(shape, d, u_lid):
    """Walls around the box; the top y layer (without its x/z edges) is the lid moving in +x."""

    def geometry(index):
        bs = block_shape(index, shape)
        coords = np.meshgrid(*[np.arange(*sl.indices(shape[a])) for a, sl in enumerate(index)], indexing="ij")
        border = np.zeros(bs, bool)
        for a in range(d):
            border |= (coords[a] == 0) | (coords[a] == shape[a] - 1)
        kind = np.where(border, bc.WALL, bc.FLUID).astype(np.uint8)
        lid = coords[1] == shape[1] - 1
        for a in range(d):
            if a != 1:
                lid &= (coords[a] > 0) & (coords[a] < shape[a] - 1)
        kind[lid] = bc.MOVING_WALL
        vel = np.zeros((d,) + bs)
        vel[0][lid] = u_lid
        return kind, vel, None

    return geometry


class _Cavity(Case):
    """A lid-driven cavity runs until steady: the velocity field is compared every lid transit time
    n / U_lid, and the run stops when it changed by less than 1e-4 U_lid anywhere (measured here: Re 100
    at n = 128 reaches that after 15 transits, Ghia within 0.009 U_lid; the float32 noise floor is ~7e-6);
    t_end is the longest run."""

    params = (
        Param("n", 128, int, "fluid cells per side (walls add one layer on each side)", positive=True),
        Param("re", 100.0, float, "Reynolds number U_lid n / nu", positive=True),
        Param("u_lid", 0.05, float, "lid velocity", unit="lattice", positive=True),
        Param("t_end", 200.0, float, "longest run in lid transit times n / U_lid (it stops when steady: steady_tol)",
              positive=True),
    )
    common_defaults = {"steady_tol": 1e-4}

    def build(self, p, lattice):
        n, u = p["n"], p["u_lid"]
        nu = un.viscosity_for_reynolds(u, n, p["re"])
        tau = un.relaxation_time(nu)
        d = lattice.d
        shape = (n + 2,) * d

        initial = rest_state(shape)

        units = physical_units(1.0, 1.0, n, u, 1.0 / p["re"], tau)
        units["origin"] = [-units["dx"]] * d  # a wall layer outside the unit cavity on every side
        units.update(reynolds=p["re"], mach=un.mach(u), u_lid_lattice=u)
        notes = []  # (a t_end below half a step ran one step, unsaid)
        steps = steps_for("t_end", p["t_end"] * n / u, notes)
        return Setup(lattice, shape, tau, initial, steps, u, geometry=_cavity_geometry(shape, d, u),
                     features=bc.Features(walls=True, moving=True), units=units,
                     steady_every=max(1, int(round(n / u))), notes=tuple(notes))  # one lid transit


def _centre(a, axis):
    """Values on the mid-plane of the fluid cells along `axis` (average of the two middle cells if n even)."""
    n = a.shape[axis] - 2
    lo, hi = (n + 1) // 2, n // 2 + 1  # fluid cells are 1..n
    return 0.5 * (np.take(a, lo, axis=axis) + np.take(a, hi, axis=axis))


class Cavity2D(_Cavity):
    name = "cavity2d"
    title = "2D lid-driven square cavity"
    validates = ("centre-line u(y) and v(x) vs Ghia et al. 1982 (Re 100, 400) within 0.02 U_lid (a bound for n >= "
                 "32 at Re 100, where the error is 0.010, and n >= 48 at Re 400; at n = 128 it is 0.005-0.009 and the bound also accepts Re 85 to "
                 "110 as Re 100); other Re (e.g. 1000, no table here): primary vortex centre and centre-line "
                 "extrema reported")
    reference = f"{cite(GHIA_U)}, {GHIA_V}"
    dims = (2,)
    default_lattice = "D2Q9"

    def observe(self, view, p):
        n, u_lid = p["n"], p["u_lid"]
        _, u = view.fields(dtype="float64")
        pos = (np.arange(n) + 0.5) / n  # fluid cell centres, walls at 0 and 1
        u_line = _centre(u[0], 0)[1:-1] / u_lid  # u along the vertical centre line, as a function of y
        v_line = _centre(u[1], 1)[1:-1] / u_lid  # v along the horizontal centre line, as a function of x
        out = {"centreline_u_min": float(u_line.min()), "centreline_v_min": float(v_line.min()),
               "centreline_v_max": float(v_line.max()),
               "centreline": {"pos": [float(v) for v in pos], "u_of_y": [float(v) for v in u_line],
                              "v_of_x": [float(v) for v in v_line]},
               "primary_vortex": _primary_vortex(u[0][1:-1, 1:-1] / u_lid, n),
               # (named "steady" before: printed as a bare "steady: 0.00048" below the steady stop's own line)
               "energy_rate_per_transit": _steadiness(view, n / u_lid)}
        re_key = {100.0: "Re100", 400.0: "Re400"}.get(float(p["re"]))
        if re_key is None:
            none = (f"no Ghia table for Re = {p['re']:g} in distlbm/cases/data (only Re 100 and 400); "
                    "reported, not judged")
            out["ghia"] = f"no tabulated reference for Re = {p['re']:g} (tables: 100, 400)"
            pv = out["primary_vortex"]
            (umin, yu), (vmin, xv), (vmax, xV) = _extremum(pos, u_line, -1), _extremum(pos, v_line, -1), \
                _extremum(pos, v_line, 1)
            out["checks"] = [
                check("centreline u_min / U_lid (vertical centre line)", umin, source=none, at={"y": yu}),
                check("centreline v_min / U_lid (horizontal centre line)", vmin, source=none, at={"x": xv}),
                check("centreline v_max / U_lid (horizontal centre line)", vmax, source=none, at={"x": xV}),
                check("primary vortex: stream function min / (U_lid L)", pv["psi_min"], source=none),
                check("primary vortex centre x / L", pv["x"], source=none),
                check("primary vortex centre y / L", pv["y"], source=none),
                _steady_check(out["energy_rate_per_transit"]),
            ]
            return out
        ext = np.concatenate([[0.0], pos, [1.0]])
        res = {}
        for name, table, coord, line, col, wall_end in (
            ("u", GHIA_U, "y", u_line, f"u_{re_key}", 1.0),
            ("v", GHIA_V, "x", v_line, f"v_{re_key}", 0.0),
        ):
            rows = read_table(table)
            vals = np.concatenate([[0.0], line, [wall_end if name == "u" else 0.0]])
            devs = []
            for r in rows:
                c = float(r[coord])
                if c in (0.0, 1.0):
                    continue  # wall points: imposed, not computed
                ours = float(np.interp(c, ext, vals))
                ref = float(r[col])
                # the flag names one Re (e.g. 'Re10000_sign_typo_suspected'): match it exactly, not as a
                # substring ('Re100' is a prefix of 'Re10000')
                flagged = bool(r.get("flag")) and r["flag"].split("_")[0] == re_key
                devs.append({coord: c, "measured": ours, "reference": ref, "error": abs(ours - ref), "flagged": flagged})
            ok = [d_ for d_ in devs if not d_["flagged"]]
            res[name] = {"points": devs, "max_error": max(d_["error"] for d_ in ok), "tolerance": 0.02}
        res["max_error"] = max(res["u"]["max_error"], res["v"]["max_error"])
        res["pass"] = res["max_error"] <= 0.02
        res["what"] = "max |value - Ghia| / U_lid over the tabulated points (flagged typos excluded)"
        out["ghia"] = res
        checks = []
        for name, table, what in (("u", GHIA_U, "u(y) / U_lid on the vertical centre line"),
                                  ("v", GHIA_V, "v(x) / U_lid on the horizontal centre line")):
            pts = res[name]["points"]
            worst = max((d_ for d_ in pts if not d_["flagged"]), key=lambda d_: d_["error"])
            coord = "y" if name == "u" else "x"
            skipped = [d_[coord] for d_ in pts if d_["flagged"]]
            checks.append(check(f"{what}: max |value - Ghia| ({re_key})", res[name]["max_error"], 0.0,
                                tolerance=0.02, relative=False, source=cite(table),
                                points=len(pts) - len(skipped), excluded_flagged=skipped,
                                at={coord: worst[coord], "measured": worst["measured"], "ghia": worst["reference"]}))
        checks.append(_steady_check(out["energy_rate_per_transit"]))
        out["checks"] = checks
        return out


def _extremum(pos, line, sign):
    """(value, position) of the minimum (sign -1) or maximum (+1) of `line`, refined by a parabola."""
    line = np.asarray(line)
    i = int(np.argmax(sign * line))
    if 0 < i < line.size - 1:
        m1, m0, p1 = line[i - 1], line[i], line[i + 1]
        den = m1 - 2 * m0 + p1
        if den != 0:
            t = 0.5 * (m1 - p1) / den
            h = pos[1] - pos[0]
            return float(m0 - 0.25 * (m1 - p1) * t), float(pos[i] + t * h)
    return float(line[i]), float(pos[i])


def _primary_vortex(ux, n):
    """Minimum of the stream function psi(x, y) = int_0^y u dy' / (U_lid L) and where it is (x/L, y/L),
    refined by a parabola through the neighbouring cells. ux: [n, n] fluid cells, u / U_lid."""
    psi = (np.cumsum(ux, axis=1) - 0.5 * ux) / n  # at the cell centres (midpoint rule from the bottom wall)
    i, j = np.unravel_index(int(np.argmin(psi)), psi.shape)

    def refine(m1, m0, p1):
        den = m1 - 2 * m0 + p1
        return 0.5 * (m1 - p1) / den if den > 0 else 0.0

    dx = refine(psi[i - 1, j], psi[i, j], psi[i + 1, j]) if 0 < i < n - 1 else 0.0
    dy = refine(psi[i, j - 1], psi[i, j], psi[i, j + 1]) if 0 < j < n - 1 else 0.0
    return {"psi_min": float(psi[i, j]), "x": float((i + 0.5 + dx) / n), "y": float((j + 0.5 + dy) / n)}


def _steadiness(view, transit):
    """Relative change of the kinetic energy per lid transit time n/U_lid over the last report interval (of the
    run's checks: a restart's own first step or a stop's check between two of them is not one, unless it is the
    last)."""
    hist = [h for h in view.history if "kinetic_energy" in h]
    hist = [h for h in hist[:-1] if not h.get("off_schedule")] + hist[-1:]
    if len(hist) < 2 or hist[-1]["step"] <= hist[-2]["step"]:
        return None
    h0, h1 = hist[-2], hist[-1]
    rel = abs(h1["kinetic_energy"] - h0["kinetic_energy"]) / max(abs(h1["kinetic_energy"]), 1e-300)
    return float(rel * transit / (h1["step"] - h0["step"]))


STEADY_TOL = 1e-3  # relative change of the kinetic energy per lid transit time at the end of the run


def _steady_check(rate):
    return check("steady state: |dE_kin/dt| / E_kin per lid transit time (end of the run)", rate,
                 upper=None if rate is None else STEADY_TOL, source="run history (not a reference)")


class Cavity3D(_Cavity):
    name = "cavity3d"
    title = "3D lid-driven cubic cavity (lid at the top y face moving in +x)"
    validates = "runs to a steady vortex; reports the centre-line profile u(y) (no tabulated reference here)"
    reference = "none (qualitative)"
    dims = (3,)
    default_lattice = "D3Q19"
    params = (
        Param("n", 32, int, "fluid cells per side", positive=True),
        Param("re", 100.0, float, "Reynolds number U_lid n / nu", positive=True),
        Param("u_lid", 0.05, float, "lid velocity", unit="lattice", positive=True),
        Param("t_end", 50.0, float, "longest run in lid transit times n / U_lid (it stops when steady: steady_tol)",
              positive=True),
    )

    def observe(self, view, p):
        u_lid = p["u_lid"]
        _, u = view.fields(dtype="float64")
        line = _centre(_centre(u[0], 2), 0)[1:-1] / u_lid
        n = p["n"]
        y = (np.arange(n) + 0.5) / n
        i = int(np.argmin(line))
        return {"centreline_u_min": float(line[i]), "y_of_u_min": float(y[i]),
                "centreline_u": [round(float(v), 5) for v in line]}
