"""The generic channel with obstacles (`channel_flow`), set up in physical units: shapes from a spec
string or a voxel mask file, a velocity inlet, a pressure or outflow outlet, forces and probes.

Layout (x along the channel): a velocity inlet at x = 0 (non-equilibrium extrapolation, a prescribed
profile), an outlet at x = L (pressure by non-equilibrium extrapolation, or zero-gradient/convective
outflow), no-slip walls at y = 0, H (and z = 0, W in 3D) or periodic sides, obstacles with Bouzidi's
interpolated bounce-back using the exact wall distance of the primitives. Inlet and outlet nodes sit on
x = 0 and x = L; the near walls (y = 0, z = 0) lie half a cell outside the first fluid row. Where H/dx is
a whole number so does the far wall (halfway bounce-back); where it is not, the far wall crosses the last
row's links at their exact fraction q and those links are interpolated (`layout.Layout`): any resolution
n runs (the length L must still be whole cells).

An optional absorbing (sponge) layer of thickness `sponge` ends at the outlet: after each collision its
cells relax toward the equilibrium of rho = 1 and the inflow profile by a strength rising as sin^2 from 0
to `sponge_strength` (per-cell data, `physics.boundaries.sponge`), so that sound and vortices leave the
channel without reflecting from the outlet. Every obstacle must lie ahead of the layer (forces and the
flow around the bodies are measured there); the Schaefer-Turek presets use one.

Where obstacles may lie (`spec.check_obstacles`, checked before anything runs): every shape has a part
inside the channel, stays clear of the inlet and outlet cells (dx < x < L - dx), and the shapes leave a
fluid path from the inlet to the outlet (no group of them from wall to wall, no cross-section whose
fluid cells they all cover). At most 255 bodies (8-bit ids). A mask file must be a regular .npy/HDF5
file of the lattice shape holding bool or integer ids 0..255.

Units: a case is given lengths, the mean inflow velocity and the viscosity (or Re) in physical units
and a resolution n (cells per reference length) plus the lattice inflow velocity u_lattice; then
dx = ref_length / n, dt = dx u_lattice / U_mean, nu_lattice = nu dt / dx^2 and tau = 3 nu_lattice + 1/2
(`layout.channel_layout`, through `distlbm.units`). Forces come from momentum exchange and are reported
as coefficients c = F / (1/2 rho U_mean^2 A) with the reference area A stated in `summary.json`.
Pressure probes on a body's surface (the Schaefer-Turek front and back points) interpolate the
neighbouring nodes when they are all fluid, and extrapolate from the fluid side otherwise (`probes`).

The case keeps nothing between runs: the layout is recomputed from the parameters, and the probe
stencils travel in the Setup that `build` returns (`Setup.probes`, `Setup.probe_weights`).
"""

from __future__ import annotations

import re as _re

import numpy as np

from distlbm import geometry as geo
from distlbm import units as un
from distlbm.cases.base import Case, ConfigError, Geometry, Param, Setup, block_shape, steps_for
from distlbm.cases.obstacles.layout import Layout, channel_layout
from distlbm.cases.obstacles.probes import (check_distinct, check_points, fluid_weights, line_profile, parse_line,
                                            parse_points, probe_quantities, quantity_units, same_reads, steadiness,
                                            stencils)
from distlbm.cases.obstacles.spec import (NUMBERS_EXPECTED, body_report, canonical, check_clear_of_layer,
                                          check_fluid_path, check_mask_cells, check_obstacles, fraction_planes,
                                          load_stl, mask_cross_section, number, parse_obstacles, periodic_cuts, show)
from distlbm.physics import boundaries as bc


def _placement(v) -> str:
    """A placement value of the stl key's body as its label says it: the number as given (the shortest text that
    reads back as it, 100 not 100.0; ':g' cut it to 6 digits, stl_scale = 0.0012345678 said as 0.00123457)."""
    try:
        text = repr(float(v))
    except (OverflowError, ValueError):
        return str(v)
    return text[:-2] if text.endswith(".0") else text


class ChannelFlow(Case):
    name = "channel_flow"
    title = "channel with obstacles (spec string or voxel mask), velocity inlet, pressure/outflow outlet"
    validates = "forces (drag/lift coefficients), probes; the benchmark cases below are presets of it"
    reference = "see schaefer_turek_2d1 / sphere"
    dims = (2, 3)
    default_lattice = "D2Q9"
    # the parameter that sets the lattice velocity (the Mach number check names it); the Mach number
    # itself is that of the peak inflow velocity, 3/2 u_lattice (2D) or 9/4 u_lattice (3D) for the
    # parabolic profile
    velocity_key = "u_lattice"
    # re > 0 sets nu: a nu given beside it was silently ignored; sample_every (steps) set aside sample_dt, unsaid
    exclusive = (("re", "nu"), ("sample_every", "sample_dt"))
    sampling = ("probes", "probe_dp", "probe_line", "sample_dt")
    params = (
        Param("n", 20, int, "cells per reference length (resolution)", positive=True),
        Param("length", 2.2, float, "channel length L (x)", unit="m", positive=True),
        Param("height", 0.41, float, "channel height H (y)", unit="m", positive=True),
        Param("width", 0.41, float, "channel width W (z, 3D only)", unit="m", positive=True),
        Param("ref_length", 0.1, float, "reference length (Re, coefficients, resolution): e.g. the diameter",
              unit="m", positive=True),
        Param("u_mean", 0.2, float, "mean inflow velocity U", unit="m/s", positive=True),
        Param("nu", 1e-3, float, "kinematic viscosity (or re instead: not both)", unit="m^2/s", positive=True),
        Param("re", 0.0, float, "if > 0: Reynolds number U ref_length / nu, which sets nu", minimum=0.0),
        # 0.025: the peak of the parabolic inflow, 3/2 of it in 2D and 9/4 in a 3D duct, stays at Mach 0.065 and
        # 0.097 (<= config.MACH_WARN): 0.05 warned "Mach number 0.130 > 0.1" (3D: 0.195), the first line of a
        # default run; tau 0.575 at n = 20, Re 20 (0.65 before), and twice the steps of the same t_end (16,000)
        Param("u_lattice", 0.025, float, "mean inflow velocity in lattice units (sets dt)", unit="lattice",
              positive=True),
        Param("profile", "parabolic", str, "inflow profile: parabolic (Poiseuille between the walls) or uniform",
              choices=("parabolic", "uniform")),
        Param("outlet", "pressure", str, "outlet at x = L: pressure (rho = 1) or zero_gradient / convective outflow "
              "(these fix no pressure level: with a pressure drop the mean density drifts)",
              choices=("pressure", "zero_gradient", "convective")),
        Param("sponge", 0.0, float, "thickness of an absorbing layer before the outlet (0: none): there the "
              "populations relax toward the equilibrium of rho = 1 and the inflow profile, with a strength rising "
              "as sin^2 from 0 to sponge_strength at the outlet, so that sound and vortices leave without "
              "reflecting; obstacles must lie ahead of it", unit="m", minimum=0.0),
        Param("sponge_strength", 0.1, float, "relaxation per step toward the target state at the outlet end of "
              "the absorbing layer (0 < value <= 1)", positive=True),
        Param("sides", "walls", str, "y (and z) boundaries: no-slip walls or periodic", choices=("walls", "periodic")),
        Param("obstacles", "circle(0.2, 0.2, 0.05)", str,
              "obstacles in physical coordinates: circle(cx,cy,r); cylinder(cx,cy,r); sphere(cx,cy,cz,r); "
              "box(x0,y0[,z0],x1,y1[,z1]); stl(path[,scale[,tx,ty,tz[,rx,ry,rz]]]) (3D) separated by ';'",
              canonical=canonical),
        Param("stl", "", str, "STL file (binary or ASCII, closed surface) of one more body (3D; needs numpy-stl)"),
        Param("stl_scale", 1.0, float, "scale of the STL file's coordinates (to metres)", positive=True),
        Param("stl_translate", "0,0,0", str, "translation 'tx,ty,tz' of the STL body after scale and rotation",
              unit="m", canonical=canonical),
        Param("stl_rotate", "0,0,0", str, "rotation 'rx,ry,rz' of the STL body about x, then y, then z (through "
              "the origin)", unit="degrees", canonical=canonical),
        Param("mask", "", str, "voxel mask file (.npy or .h5) of the lattice shape: nonzero = solid (body id)"),
        Param("mask_dataset", "", str, "dataset in an HDF5 mask file (default: its only dataset)"),
        Param("bouzidi", True, bool, "interpolated bounce-back on the primitives (false: halfway)"),
        Param("ramp", 0.0, float, "start-up time over which the inflow rises as sin^2 (0: none)", unit="s",
              minimum=0.0),
        Param("t_end", 10.0, float, "simulated time to run (the longest run where it stops when steady: steady_tol)",
              unit="s", positive=True),
        Param("init", "profile", str, "initial velocity: the inflow profile everywhere (outside obstacles) or rest",
              choices=("profile", "rest")),
        Param("sample_dt", 0.0, float, "simulated time between force/probe samples (0: ~200 per run)",
              unit="s", minimum=0.0),
        Param("probes", "", str, "points 'x,y[,z]; ...' whose pressure and velocity are sampled (p_pt1, ux_pt1, "
              "uy_pt1, ... in samples.jsonl)"),
        Param("probe_dp", "", str, "two points 'x0,y0[,z0]; x1,y1[,z1]': their pressures p_front, p_back and "
              "difference dP = p_front - p_back are sampled"),
        Param("probe_line", "", str, "a line 'x0,y0[,z0]; x1,y1[,z1]; npoints': velocity along it at the end"),
    )

    # ---- set-up ----------------------------------------------------------------------------------
    def full(self, p: dict) -> dict:
        """All generic parameters from the case's own (the presets fix most of them)."""
        return p

    def layout(self, p: dict, lattice) -> Layout:
        """Grid, units and tau of the full parameters p (`channel_layout`)."""
        return channel_layout(p, lattice.d)

    def input_files(self, p: dict) -> list:
        """The mask, the `stl` file and the STL files of the obstacles (stl(path, ...)), as (key, path)."""
        found = [("mask", p["mask"])] if p.get("mask") else []
        if p.get("stl"):
            found.append(("stl", p["stl"]))
        for m in _re.finditer(r"\bstl\s*\(([^()]*)\)", p.get("obstacles") or ""):
            path = m.group(1).split(",")[0].strip().strip("'\"")
            if path:
                found.append(("obstacles", path))
        return found

    def lattice_shape(self, p: dict, lattice) -> tuple:
        return tuple(self.layout(self.full(p), lattice).shape)

    def shapes(self, p, lattice, lay=None, deferred: list | None = None, report: list | None = None):
        """The bodies: the parsed obstacles, the `stl` file, then the mask file. Given the layout `lay`,
        checked against the channel (`check_obstacles`), the mask against the lattice shape and its values
        (0..255). `report` (a list, if given) gets body_report's lines once the fluid path is scanned."""
        try:
            shapes = parse_obstacles(p["obstacles"], lattice.d)
        except ConfigError as e:
            default = next((q.default for q in self.params if q.name == "obstacles"), None)
            if p["obstacles"] != default:
                raise
            # the case's default (a 2D circle) on a 3D lattice: say it is the default the user did not give
            raise ConfigError(f"{e} (the case's default obstacles; give obstacles = ... for this lattice, or "
                              f"obstacles = '' for none)") from None
        if p.get("stl"):
            shapes.append(self._stl_body(p, lattice.d))
            if lay is not None:
                self._check_stl_translate(p, shapes[-1], lay)
        count = len(shapes) + (1 if p["mask"] else 0)
        if count > geo.MAX_BODIES:
            raise ConfigError(f"obstacles = {show(p['obstacles'])}: {len(shapes)} bodies"
                              f"{' and the mask' if p['mask'] else ''}; expected at most {geo.MAX_BODIES} bodies "
                              f"(8-bit body ids{'; the mask counts as one' if p['mask'] else ''}): join shapes "
                              f"with '+' into one body")
        x0 = None
        key, text = "obstacles", p["obstacles"]
        if lay is not None:
            if p.get("stl"):  # the stl key's body is checked with the others (together they must leave a gap)
                key, text = ("stl", p["stl"]) if not text.strip() else ("obstacles, stl", f"{text}; {shapes[-1].spec}")
            check_obstacles(shapes, lay, key, text)
            x0 = self.sponge_start(p, lay)
            if x0 is not None:
                check_clear_of_layer(shapes, lay, x0, key, text, f"sponge = {p['sponge']:g}")
        if p["mask"]:
            try:
                mask = geo.MaskFile(p["mask"], p["mask_dataset"] or None)
                if lay is not None:
                    mask.check_shape(lay.shape)
                    # its distinct ids (the bodies after the others) and its solid cells per plane
                    mask.check_values(cross=mask_cross_section(lay))
            except (OSError, ValueError) as e:
                raise self._mask_error(p, e) from None
            if len(shapes) + mask.bodies > geo.MAX_BODIES:
                raise ConfigError(f"mask = {p['mask']!r}: its {mask.bodies} body ids after the {len(shapes)} bodies "
                                  f"of obstacles/stl make {len(shapes) + mask.bodies}; expected at most "
                                  f"{geo.MAX_BODIES} bodies (8-bit body ids): give the mask fewer ids, or join shapes "
                                  f"with '+' into one body")
            if lay is not None:
                check_mask_cells(mask, lay, x0, f"sponge = {p['sponge']:g}" if x0 is not None else "", p["mask"])
        # closed by bodies whose gaps hold no cell centre, a slanted wall, or the mask and the other bodies together
        if lay is not None and (p["mask"] or shapes):
            bodies, read = list(shapes), (mask if p["mask"] else None)

            def path(stop=None):
                cells = []
                try:
                    done = check_fluid_path(bodies, lay, lattice.c, key, text, mask=read, mask_name=p["mask"] or None,
                                            stop=stop, cells=cells)
                    if done and report is not None:
                        report.extend(body_report(bodies, cells, lay))
                    return done
                except ConfigError:
                    raise
                except (OSError, ValueError) as e:  # the mask read again
                    if read is None:
                        raise
                    raise self._mask_error(p, e) from None

            if deferred is None:
                path()
            else:
                deferred.append(path)
        if p["mask"]:
            shapes.append(mask)
        return shapes

    @staticmethod
    def _stl_body(p, d: int):
        """The body of the `stl` key (with stl_scale, stl_translate, stl_rotate)."""
        vec = {}
        for k in ("stl_translate", "stl_rotate"):
            items = str(p.get(k, "0,0,0")).split(",")
            try:
                if len(items) != 3:
                    raise ValueError(f"{len(items)} values")
                vec[k] = tuple(number(v) for v in items)
            except ValueError as e:
                raise ConfigError(f"{k} = {p.get(k)!r}: {e}; expected three numbers 'x,y,z' "
                                  f"({NUMBERS_EXPECTED})") from None
        if d != 3:
            raise ConfigError(f"stl = {p['stl']!r}: STL obstacles are 3D only; expected a 3D lattice (D3Q19, D3Q27)")
        # its label in messages has the obstacles form with the placement given (a scale of 100 that reached the
        # inlet was said as 'stl(sphere.stl)' reaches the inlet, naming neither the scale nor its value)
        scale, move, turn = p.get("stl_scale", 1.0), vec["stl_translate"], vec["stl_rotate"]
        given = [_placement(scale)] if isinstance(scale, (int, float)) else [str(scale)]
        if any(move) or any(turn):
            given += [_placement(v) for v in move] + ([_placement(v) for v in turn] if any(turn) else [])
        elif scale == 1.0:
            given = []
        return load_stl(p["stl"], scale, move, turn,
                        head=f"stl = {p['stl']!r}: ", spec=f"stl({', '.join([str(p['stl'])] + given)})",
                        names={k: f"stl_{k} = {p.get(f'stl_{k}', 1.0 if k == 'scale' else '0,0,0')!r}: "
                               for k in ("scale", "translate", "rotate")})

    @staticmethod
    def _check_stl_translate(p, body, lay) -> None:
        """ConfigError naming stl_translate where it moves the stl key's body wholly off the channel (1e308,0,0 was
        said of stl: "'stl(...)' has no part inside the channel")."""
        if not any(number(v) for v in str(p.get("stl_translate", "0,0,0")).split(",")):
            return  # the file's own place: said of stl by check_obstacles
        ext = [(lay.shape[0] - 1) * lay.dx] + list(lay.cross)
        lo, hi = body.bounds
        if all(h > 0.0 and l < e for l, h, e in zip(lo, hi, ext)):
            return
        at = ", ".join(f"{'xyz'[a]} = {lo[a]:.4g} .. {hi[a]:.4g}" for a in range(len(ext)))
        within = ", ".join(f"0 < {'xyz'[a]} < {e:g}" for a, e in enumerate(ext))
        raise ConfigError(f"stl_translate = {p['stl_translate']!r}: it moves the body of STL file {p['stl']} to "
                          f"{at}, with no part inside the channel; expected a translation that places it within "
                          f"{within}")

    @staticmethod
    def _mask_error(p, e) -> ConfigError:
        msg = str(e)
        prefix = f"mask file {p['mask']}: "
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
        return ConfigError(f"mask = {p['mask']!r}: {msg}")

    SPONGE_MIN_CELLS = 4  # a thinner layer is a step for the waves to reflect from

    def sponge_start(self, p, lay) -> float | None:
        """x (m) where the absorbing layer starts (it ends at the outlet x = L), None without one;
        ConfigError unless it is at least SPONGE_MIN_CELLS cells thick and shorter than the channel."""
        s = float(p.get("sponge", 0.0))
        if not p.get("sponge_strength", 0.1) <= 1.0:
            raise ConfigError(f"sponge_strength = {p['sponge_strength']!r}: expected 0 < sponge_strength <= 1 "
                              f"(the fraction of the way to the target state per step)")
        if s <= 0:
            return None
        length = (lay.shape[0] - 1) * lay.dx
        cells = s / lay.dx
        if not self.SPONGE_MIN_CELLS <= cells < lay.shape[0] - 2:
            raise ConfigError(f"sponge = {s:g}: {cells:.3g} cells of dx = {lay.dx:.4g}; expected 0 (none) or a "
                              f"thickness from {self.SPONGE_MIN_CELLS} cells ({self.SPONGE_MIN_CELLS * lay.dx:.4g}) "
                              f"to less than the channel length L = {length:g}")
        return length - s

    def sponge_strengths(self, p, lay, x0, ix):
        """Strength of the absorbing layer at the cells with x indices ix (cell i sits at x = i dx)."""
        length = (lay.shape[0] - 1) * lay.dx
        xi = (np.asarray(ix, np.float64) * lay.dx - x0) / (length - x0)
        return np.where(xi > 0, bc.sponge_profile(xi, p["sponge_strength"]), 0.0)

    def profile(self, p, lay, ys):
        """Inflow u_x (lattice units) at the physical cross-stream coordinates ys (list of arrays)."""
        u = lay.u_lat
        if p["profile"] == "uniform" or not lay.walls:
            return u * np.ones(np.broadcast_shapes(*[np.shape(y) for y in ys]))
        prof = 1.0
        for y, h in zip(ys, lay.cross):
            prof = prof * np.clip(y * (h - y) / h ** 2, 0.0, None)
        # mean of 4 y (H - y)/H^2 over [0, H] is 2/3: the peak is 3/2 U (2D), 9/4 U (3D)
        return u * prof * (6.0 if lay.d == 2 else 36.0)

    def build(self, p, lattice):
        p = self.full(p)
        lay = self.layout(p, lattice)
        d, shape, dx = lay.d, lay.shape, lay.dx
        checks = []  # the fluid path: scanned after the memory pre-flight (Setup.checks)
        report = []  # what the scan found of each body (Setup.report)
        shapes = self.shapes(p, lattice, lay, checks, report)
        obst = None
        if shapes:
            try:
                obst = geo.Obstacles(shapes, dx=dx, origin=lay.origin, lattice=lattice)
                obst.check(shape)
            except ValueError as e:  # the checks above should have said it: the key, as far as known
                if p["mask"]:
                    raise self._mask_error(p, e) from None
                raise ConfigError(f"obstacles = {show(p['obstacles'])}: {e}") from None
        if p.get("probe_line"):
            a, b, _ = parse_line(p["probe_line"], d)
            check_points([a, b], lay, "probe_line", p["probe_line"])
        nx = shape[0]
        walls = lay.walls
        outlet = p["outlet"]
        use_bz = bool(p["bouzidi"]) and bool(shapes)
        wall_bz = walls and lay.off_grid  # the far walls' links are interpolated too
        x_sponge = self.sponge_start(p, lay)
        # the first body id of the mask (appended after the obstacles and the STL), or None
        mask_first = sum(getattr(sh, "bodies", 1) for sh in shapes[:-1]) + 1 if p["mask"] and shapes else None

        def coords(index):
            return [lay.origin[a] + (np.arange(*sl.indices(shape[a])) + 0.5) * dx for a, sl in enumerate(index)]

        def geometry(index):
            bs = block_shape(index, shape)
            ix = [np.arange(*sl.indices(shape[a])) for a, sl in enumerate(index)]
            grids = np.meshgrid(*ix, indexing="ij")
            xs = coords(index)
            kind = np.zeros(bs, np.uint8)
            wall = np.zeros(bs, bool)
            if walls:
                for a in range(1, d):
                    wall |= (grids[a] == 0) | (grids[a] == shape[a] - 1)
            inlet = (grids[0] == 0) & ~wall
            outl = (grids[0] == nx - 1) & ~wall
            kind[inlet] = bc.inlet_kind(0, -1)
            if outlet == "pressure":
                kind[outl] = bc.outlet_kind(0, 1)
            else:
                kind[outl] = bc.outflow_kind(0, 1)
            vel = np.zeros((d,) + bs)
            cross = np.meshgrid(*xs[1:], indexing="ij")
            prof = self.profile(p, lay, cross)
            vel[0] = np.where(inlet, np.broadcast_to(prof[None], bs), 0.0)
            qlink = body = None
            if obst is not None:
                try:
                    ob = obst.block(index, shape)
                except ValueError as e:  # a mask value read here for the first time (checked at build)
                    raise self._mask_error(p, e) from None
                solid = ob.solid & ~inlet & ~outl
                if x_sponge is not None and np.any(solid & ~wall & (grids[0] * dx >= x_sponge - dx)):
                    raise ConfigError(f"sponge = {p['sponge']:g}: the mask {p['mask']!r} has solid cells in the "
                                      f"layer from x = {x_sponge:.4g} to the outlet; expected obstacles ahead of "
                                      f"it, x < {x_sponge - dx:.4g}")
                kind[solid] = bc.WALL
                body = np.where(solid, ob.body, 0).astype(np.uint8)
                if mask_first is not None:  # the side walls' rows are walls, not a mask body's, where a mask draws
                    # them too (their friction counted as the body's drag: +79 % cD); a primitive or STL body keeps
                    # its cells there (3D-1Z's cylinder spans the duct: its links into the walls are its own)
                    body = np.where(wall & (body >= mask_first), 0, body).astype(np.uint8)
                if use_bz:
                    qlink = bc.encode_q(ob.q)
            kind[wall] = bc.WALL
            if wall_bz:  # a far wall off the halfway position: its links carry q (the obstacles' win)
                wq = bc.encode_q(self.wall_links(lay, lattice, grids, kind))
                qlink = wq if qlink is None else np.where(qlink != 0, qlink, wq)
                if mask_first is not None and obst is not None:  # a mask that draws the walls: they stay walls,
                    # their links the far wall's fractions (the mask's halfway q moved the wall by up to half a cell)
                    qlink = np.where((wq != 0) & (ob.link_body >= mask_first), wq, qlink)
            sponge = None
            if x_sponge is not None:  # the layer's strength and, as its target, the inflow profile
                sponge = np.where(kind == bc.WALL, 0.0, self.sponge_strengths(p, lay, x_sponge, grids[0]))
                vel[0] = np.where(sponge > 0, np.broadcast_to(prof[None], bs), vel[0])
            return Geometry(kind, vel, np.ones(bs), qlink, body, sponge)

        def initial(index):
            bs = block_shape(index, shape)
            u = np.zeros((d,) + bs)
            if p["init"] == "profile":
                kind = geometry(index).kind
                cross = np.meshgrid(*coords(index)[1:], indexing="ij")
                moving = (kind != bc.WALL) & (kind != bc.MOVING_WALL)  # fluid, inlet, outlet cells
                u[0] = np.where(moving, np.broadcast_to(self.profile(p, lay, cross)[None], bs), 0.0)
            return np.ones(bs), u, None

        n_bodies = sum(getattr(s, "bodies", 1) for s in shapes)  # a mask with integer ids: its distinct ids
        notes = []
        # a ramp below half a step rounded to none, the inflow at full speed from step 0, unsaid: one step, said
        ramp_steps = steps_for("ramp", p["ramp"] / lay.dt, notes) if p["ramp"] > 0 else 0
        feats = bc.Features(walls=walls or bool(shapes), inlets=((0, -1),),
                            outlets=((0, 1),) if outlet == "pressure" else (),
                            outflow=((0, 1),) if outlet != "pressure" else (),
                            convective=lay.u_lat if outlet == "convective" else 0.0,
                            bouzidi=use_bz or wall_bz, ramp_steps=ramp_steps, bodies=n_bodies,
                            sponge=x_sponge is not None,
                            # the inflow profile (inlet, the layer's target) and the outlet density depend on the
                            # cross-section alone: one plane each per block, not per cell
                            x_invariant=True)
        bodies = [s for s in shapes if not isinstance(s, geo.MaskFile)]  # named as shapes() names them
        key, text = ("obstacles", p["obstacles"]) if not p.get("stl") else \
            ("obstacles, stl", f"{p['obstacles']}; {bodies[-1].spec}") if p["obstacles"].strip() else ("stl", p["stl"])
        notes += periodic_cuts(bodies, lay, key, text)
        steps = steps_for("t_end", p["t_end"] / lay.dt, notes)
        sample_every = (steps_for("sample_dt", p["sample_dt"] / lay.dt, notes) if p["sample_dt"] > 0
                        else max(5, steps // 200))
        u_peak = float(self.profile(p, lay, [np.asarray(h / 2) for h in lay.cross]))
        units = {"dx": dx, "dt": lay.dt, "origin": list(lay.origin), "length": p["ref_length"], "velocity": p["u_mean"], "viscosity": lay.nu,
                 "reynolds": un.reynolds(p["u_mean"], p["ref_length"], lay.nu), "mach": un.mach(u_peak),
                 "nu_lattice": lay.nu_lat, "u_mean_lattice": lay.u_lat, "u_peak_lattice": u_peak,
                 "cells_per_ref_length": p["n"], "ramp_steps": ramp_steps, "outlet": outlet,
                 "wall_treatment": self.wall_treatment(use_bz, lay),
                 "inlet": "velocity, non-equilibrium extrapolation (Guo et al. 2002)",
                 "sponge": ("none" if x_sponge is None else
                            f"absorbing layer x = {x_sponge:.4g} .. {(nx - 1) * dx:.4g} m ({p['sponge'] / dx:.3g} "
                            f"cells), strength sin^2 rising to {p['sponge_strength']:g}, target rho = 1 and the "
                            f"inflow profile"),
                 "units_note": "lattice -> physical: x = dx * cells, t = dt * steps, u = (dx/dt) u_lattice, "
                               "p = rho cs^2 (rho_lattice - 1) (dx/dt)^2",
                 # what body k (cD_k, cL_k) is: an obstacle's spec, the stl file, or a mask id
                 "bodies": self.body_names(shapes)}
        probes, weights, p_weights = self.probe_stencils(p, lay, notes)
        return Setup(lattice, shape, lay.tau, initial, steps, u_peak, geometry=geometry, features=feats,
                     units=units, probes=probes, probe_weights=weights, probe_p_weights=p_weights,
                     sample_every=sample_every,
                     steady_every=max(1, int(round(self.steady_time(p) / lay.dt))) if self.steady_time(p) else 0,
                     # the far walls' fractions are one plane per block (stepper.Cells.qplane): the box holds the
                     # obstacles' planes alone
                     fraction_planes=fraction_planes(shapes if use_bz else [], lay) if feats.bouzidi else None,
                     notes=tuple(notes), checks=tuple(checks), report=report)

    @staticmethod
    def body_names(shapes) -> list:
        """What each body is, in body order: an obstacle's spec text, or 'mask id v' for each distinct id of an
        integer mask file ('mask' for a boolean one)."""
        names = []
        for s in shapes:
            if isinstance(s, geo.MaskFile):
                names += [f"mask id {v}" for v in s.ids] if s.ids else ["mask"]
            else:
                names.append(getattr(s, "spec", None) or repr(s))
        return names

    @staticmethod
    def wall_treatment(use_bz: bool, lay: Layout) -> str:
        """What summary.json says of the wall treatment: the obstacles' and, between walls, the sides'."""
        text = "obstacles: " + ("Bouzidi linear interpolated bounce-back" if use_bz else "halfway bounce-back")
        if not lay.walls:
            return text + "; periodic sides"
        if not lay.off_grid:
            return text + "; side walls: halfway bounce-back"
        where = ", ".join(f"{name}/dx = {lay.across(a + 1):.6g}: q = {q:.6g}"
                          for a, (name, q) in enumerate(zip(("H", "W"), lay.far_q)) if q != 0.5)
        return text + (f"; side walls: halfway bounce-back, and where the far wall lies off the grid Bouzidi "
                       f"linear interpolated bounce-back at its exact position ({where})")

    @staticmethod
    def wall_links(lay: Layout, lattice, grids, kind) -> np.ndarray:
        """q [Q, block] of the links from non-wall cells across a far wall off the grid (lay.far_q; the
        component of a link across the wall is one cell), 0 elsewhere (the near walls and the far walls
        at the halfway position: halfway bounce-back). A link across two walls (an edge) takes the
        nearer. grids: the block's global indices per axis."""
        c = np.asarray(lattice.c)
        out = np.zeros((lattice.q,) + kind.shape, np.float64)
        inside = kind != bc.WALL
        for i in range(lattice.q):
            qi = np.full(kind.shape, np.inf)
            for a in range(1, lay.d):
                if c[i][a] == 0:
                    continue
                nb = grids[a] - int(c[i][a])
                qi = np.where(nb <= 0, np.minimum(qi, 0.5), qi)
                qi = np.where(nb >= lay.shape[a] - 1, np.minimum(qi, lay.far_q[a - 1]), qi)
            off = inside & np.isfinite(qi) & (qi != 0.5)
            out[i] = np.where(off, qi, 0.0)
        return out

    def steady_time(self, p) -> float:
        """Simulated time (s) between steadiness checks when the case runs until steady (0: the progress
        interval): the presets of steady benchmarks take the convective time ref_length / u_mean."""
        return 0.0

    # ---- probes and coefficients ---------------------------------------------------------------
    def probe_points(self, p, lay) -> dict:
        """name -> (physical point, direction of extrapolation or None): the user's probes and the two
        points of probe_dp (named front/back, so their difference is dP). The benchmarks add theirs."""
        d = lay.d
        out = {}
        pts = parse_points(p.get("probes", ""), d, "probes")
        check_points(pts, lay, "probes", p.get("probes", ""))
        check_distinct(pts, "probes", p.get("probes", ""))
        for k, pt in enumerate(pts, start=1):
            out[f"pt{k}"] = (pt, None)
        if p.get("probe_dp"):
            pts = parse_points(p["probe_dp"], d, "probe_dp")
            if len(pts) != 2:
                raise ConfigError(f"probe_dp = {p['probe_dp']!r}: expected two points 'x0,y0; x1,y1'")
            if pts[0] == pts[1]:  # dP = 0 at every sample, unsaid
                point = ", ".join(f"{x:g}" for x in pts[0])
                raise ConfigError(f"probe_dp = {p['probe_dp']!r}: both points are ({point}); expected two different "
                                  f"points (dP = p_front - p_back)")
            check_points(pts, lay, "probe_dp", p["probe_dp"])
            out["front"], out["back"] = (pts[0], None), (pts[1], None)
        return out

    def probe_stencils(self, p: dict, lay: Layout, notes: list | None = None) -> tuple:
        """(cells, weights, p_weights) of the probe points (`probes.stencils`): name -> [N, D] global cell
        indices a sample reads, name -> [N] their interpolation weights, and name -> [N] the pressure's weights
        of a user's point next to a wall or body (the fluid cells' alone, `probes.fluid_weights`; said in
        `notes`). Part of the run's Setup, never kept here."""
        points, solid = self.probe_points(p, lay), self._solid_test(p, lay)
        cells, weights = stencils(points, lay, solid)
        p_weights = {}
        for name, (pt, direction) in points.items():
            if direction is not None:  # a surface's point: `stencil` reads fluid cells alone where it must
                continue
            key = "probe_dp" if name in ("front", "back") and p.get("probe_dp") else "probes"
            where = f"{key} = {p.get(key)!r}: point ({', '.join(f'{x:g}' for x in pt)})"
            w = np.asarray(weights[name])
            used = np.abs(w) > 1e-12
            is_solid = np.asarray(solid(np.asarray(cells[name])), bool)
            if not used.any() or np.all(is_solid[used]):
                raise ConfigError(f"{where} lies inside a body or a wall (every cell it is read from is solid: it "
                                  f"would read rest, 0); expected a point in the fluid")
            if np.any(is_solid[used]):  # within a cell of a wall or body: the solid cells hold rest
                p_weights[name] = fluid_weights(w, ~is_solid).tolist()
                if notes is not None:
                    notes.append(f"{where} is read from {int(np.sum(is_solid[used]))} solid cell(s) of "
                                 f"{int(np.sum(used))} (it lies within a cell of a wall or body): its velocity "
                                 f"counts them at rest, its pressure is the fluid cells' alone")
        users = [name for name in points if _re.fullmatch(r"pt[0-9]+", name)]
        for a, b in same_reads(cells, weights, users) if notes is not None else ():
            # (a probe is interpolated, so two points in one cell read different series; two within round-off of one
            # cell centre are snapped to it: the same one twice, said, not refused: a grid of points on a coarse run)
            notes.append(f"probes = {p.get('probes')!r}: points ({', '.join(map(repr, points[a][0]))}) and "
                         f"({', '.join(map(repr, points[b][0]))}) (items {a[2:]} and {b[2:]}) are read from the "
                         f"same cells with the same weights (within round-off of one cell centre): {b} is the same "
                         f"series as {a}")
        return cells, weights, p_weights

    def _solid_test(self, p, lay):
        """solid(cells [N, D]) -> [N] bool: obstacle cells and the channel walls (a small block read)."""
        from distlbm.lattice import get_lattice

        lat = get_lattice("D2Q9" if lay.d == 2 else "D3Q19")  # any velocity set: only `solid` is read
        shapes = self.shapes(p, lat)
        for sh in shapes:  # a mask's ids as the set-up counts them: inside the cross-section (walls-only ids: none)
            if isinstance(sh, geo.MaskFile):
                sh.check_values(cross=mask_cross_section(lay))
        obst = geo.Obstacles(shapes, dx=lay.dx, origin=lay.origin, lattice=lat) if shapes else None
        shape = lay.shape

        def solid(cells):
            cells = np.asarray(cells, int).reshape(-1, lay.d)
            out = np.zeros(len(cells), bool)
            if lay.walls:
                for a in range(1, lay.d):
                    out |= (cells[:, a] <= 0) | (cells[:, a] >= shape[a] - 1)
            if obst is not None and len(cells):
                lo, hi = cells.min(0), cells.max(0) + 1
                blk = obst.block(tuple(slice(int(a), int(b)) for a, b in zip(lo, hi)), shape).solid
                out |= blk[tuple((cells - lo).T)]
            return out

        return solid

    def reference_area(self, p, lay) -> tuple:
        """(area in lattice units, description) normalising the force coefficients."""
        if lay.d == 2:
            return p["n"], "ref_length (per unit depth)"
        return p["n"] * lay.across(2), "ref_length * width"

    def resampled(self, old: dict, new: dict, lattice) -> list:
        """The probes' sample keys (p_pt1, ux_pt1, ..., dP) whose point a restart moved (`Case.resampled`)."""
        p_new = self.full(new)
        lay = self.layout(p_new, lattice)
        try:
            before = self.probe_points(self.full({**new, **{k: old[k] for k in self.sampling if k in old}}), lay)
        except ConfigError:  # the run's probes do not read here: none of its series goes on
            before = {}
        after = self.probe_points(p_new, lay)
        keys = []
        for name, (pt, _) in after.items():
            if name in before and tuple(before[name][0]) != tuple(pt):
                keys.append(f"p_{name}")
                if name.startswith("pt"):
                    keys += [f"u{c}_{name}" for c in "xyz"[:lay.d]]
                if name in ("front", "back"):
                    keys.append("dP")
        return sorted(set(keys))

    def unsampled(self, old: dict, new: dict, given, lattice) -> list:
        """The run's probes, probe_dp and probe_line that a restart leaves out (`Case.unsampled`)."""
        d = lattice.d
        out = []
        for key in ("probes", "probe_dp", "probe_line"):
            value = old.get(key)
            if not isinstance(value, str) or not value.strip() or key in given or str(new.get(key) or "").strip():
                continue
            keys = []
            try:
                if key == "probes":
                    for k in range(1, len(parse_points(value, d, key)) + 1):
                        keys += [f"p_pt{k}"] + [f"u{c}_pt{k}" for c in "xyz"[:d]]
                elif key == "probe_dp":
                    keys = ["p_front", "p_back", "dP"]
            except ConfigError:  # a value this version cannot read: said without its keys
                keys = []
            out.append((key, value, sorted(keys)))
        return out

    def quantities(self, raw: dict, view) -> dict:
        """cD, cL and in 3D cLz, the force along z (suffixed _k for body k when there are several) of the
        sampled forces and the probes' physical values (`probes.probe_quantities`), with the weights of the run's
        Setup."""
        p = self.full(view.params)
        lay = self.layout(p, view.setup.lattice)
        out = {}
        u = lay.u_lat
        area, _ = self.reference_area(p, lay)
        for k, f in enumerate(raw.get("force", [])):
            suffix = "" if len(raw["force"]) == 1 else f"_{k + 1}"
            out["cD" + suffix] = 2.0 * f[0] / (u * u * area)
            out["cL" + suffix] = 2.0 * f[1] / (u * u * area)
            if len(f) > 2:  # 3D: the force along z (a body near a z wall, or off the mid-plane, has one)
                out["cLz" + suffix] = 2.0 * f[2] / (u * u * area)
        probes = raw.get("probes") or {}
        if probes:
            out.update(probe_quantities(probes, view.setup.probe_weights, lay, view.setup.probe_p_weights))
        return out

    def observe(self, view, p):
        p = self.full(p)
        lay = self.layout(p, view.setup.lattice)
        area, what = self.reference_area(p, lay)
        out = {"normalisation": f"c = 2 F / (rho U_mean^2 A), A = {what}; F = momentum-exchange force of the "
                                f"fluid on the body (x: drag cD, y: lift cL"
                                f"{', z: cLz' if lay.d == 3 else ''}); U_mean = {p['u_mean']:g} m/s",
               "units": {"dx": lay.dx, "dt": lay.dt, "tau": lay.tau, "nu_lattice": lay.nu_lat,
                         "mach_peak": view.setup.units.get("mach")}}
        if view.samples:
            last = view.samples[-1]
            out["last_sample"] = {k: v for k, v in last.items() if k not in ("step", "time")}
            # without an absorbing layer the inlet and outlet reflect sound: a start-up leaves a slowly
            # decaying acoustic mode of the channel (period 4 L / c_s, quarter-wave). Steady values are
            # averaged over one period; with the layer the mode is gone and they are the last sample's.
            period = 4.0 * view.setup.shape[0] * un.INV_CS * lay.dt
            t_end = last["time"]
            keys = [k for k, v in last.items() if isinstance(v, float) and k not in ("time",)]
            if p.get("sponge", 0.0) > 0:  # nothing rings: a mean over 4 L / c_s would reach back into the start-up
                window = [last]
                out["averaging"] = {"window_s": 0.0, "samples": 1,
                                    "why": "the last sample: the absorbing layer leaves no acoustic mode to average"}
            else:
                window = [r for r in view.samples if r["time"] >= t_end - period]
                out["averaging"] = {"window_s": period, "samples": len(window),
                                    "why": "mean over the last acoustic period 4 L / c_s of the channel"}
                first = view.samples[0]["time"]
                if t_end - period < first:  # the whole run, its start-up with it: said, not hidden
                    out["averaging"]["why"] += (
                        f"; the run sampled only {t_end - first:.4g} s of it: the mean of every sample, the start-up "
                        f"included (run at least {period:.4g} s, or give sponge > 0, for a mean of the settled flow)")
            out["final"] = {k: float(np.mean([r[k] for r in window if k in r])) for k in keys}
            out["quantity_units"] = quantity_units(["step", "time"] + keys)  # of samples.jsonl's keys, `final`
            out.update(steadiness(view.samples))
        if p.get("probe_line"):
            out["line"] = line_profile(view, p["probe_line"], lay, self._solid_test(p, lay))
        return out
