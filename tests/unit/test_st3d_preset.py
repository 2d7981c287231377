"""The Schaefer-Turek 3D-1Z preset (distlbm/cases/obstacles/benchmarks.py): diffusive scaling by default (tau
held fixed as n changes, u_lattice = Re (tau - 1/2) / (3 n)), TRT, tau or u_lattice but not both; its checks
carry the FEATFLOW values; its convergence entry is left out of the reduced validation suite."""

from __future__ import annotations

import math

import pytest

from distlbm import validation as V
from distlbm.cases.base import ConfigError
from distlbm.cases.obstacles.benchmarks import ST_3D1Z_N, ST_3D1Z_TAU, SchaeferTurek3D1Z
from distlbm.config import resolve
from distlbm.lattice import get_lattice

CASE = "schaefer_turek_3d1z"


@pytest.mark.parametrize("n", [10, 15, 20, 30])
def test_tau_is_held_fixed_as_the_resolution_changes(n):
    cfg = resolve(CASE, {"n": n})
    u = 20.0 * (ST_3D1Z_TAU - 0.5) / (3 * n)  # Re (tau - 1/2) / (3 n)
    assert cfg.setup.tau == pytest.approx(ST_3D1Z_TAU, abs=1e-12)
    assert cfg.setup.units["u_mean_lattice"] == pytest.approx(u, rel=1e-12)
    dt = (0.1 / n) * u / 0.2  # dx u_lattice / U
    assert cfg.setup.steps == round(8.0 / dt)  # steps grow as n^2
    across = math.ceil(4.1 * n - 0.5 - 1e-9)  # H/dx = 4.1 n: 61.5 at n = 15 (61 fluid rows, the 62nd on the wall)
    assert cfg.setup.shape == (25 * n + 1, across + 2, across + 2)
    assert cfg.model.collision == "trt" and cfg.model.equilibrium == "incompressible"


def test_defaults():
    cfg = resolve(CASE, {})
    assert cfg.params["n"] == ST_3D1Z_N and cfg.setup.tau == pytest.approx(0.575, abs=1e-12)
    assert cfg.model.trt_lambda == pytest.approx(3 / 16)
    assert resolve(CASE, {"collision": "bgk"}).model.collision == "bgk"  # a given setting wins


def test_mach_warning_names_the_derived_velocity():
    """u_lattice = 0 means 'from tau': the Mach warning at D = 10 says the velocity that runs, not 0, and the
    settings it comes from (it named "u_lattice = 0.0", a key the user had not set, and not tau or n)."""
    (warning,) = resolve(CASE, {"n": 10}).warnings
    assert warning.startswith("u_lattice = 0.05 (from tau = 0.575, n = 10: u_lattice = Re (tau - 1/2) / (3 n); peak "
                              "lattice velocity 0.1125) gives Mach number 0.195 > 0.1"), warning
    with pytest.raises(ConfigError) as e:
        resolve(CASE, {"tau": 2.0})
    assert str(e.value) == (
        "u_lattice = 0.7692 (from tau = 2.0, n = 13: u_lattice = Re (tau - 1/2) / (3 n); peak lattice velocity "
        "1.731): gives Mach number 2.998 > 0.3; expected a smaller tau or a larger n, for a peak lattice velocity "
        "below 0.173 (compressibility errors and instability)")


def test_u_lattice_or_tau_but_not_both():
    cfg = resolve(CASE, {"n": 20, "u_lattice": 0.05})  # the lattice velocity fixed: tau follows
    assert cfg.setup.units["u_mean_lattice"] == 0.05 and cfg.setup.tau == pytest.approx(0.65, abs=1e-12)
    cfg = resolve(CASE, {"n": 20, "tau": 0.6})
    assert cfg.setup.units["u_mean_lattice"] == pytest.approx(20 * 0.1 / 60) and cfg.setup.tau == pytest.approx(0.6)
    with pytest.raises(ConfigError) as e:
        resolve(CASE, {"tau": 0.6, "u_lattice": 0.05})
    msg = str(e.value)
    assert "tau = 0.6" in msg and "u_lattice = 0.05" in msg and "expected one of tau, u_lattice" in msg
    with pytest.raises(ConfigError, match=r"tau = 0.5: expected tau > 0.5"):
        resolve(CASE, {"tau": 0.5})
    with pytest.raises(ConfigError, match="u_lattice"):
        resolve(CASE, {"u_lattice": -0.01})


def test_checks_carry_the_featflow_values():
    class View:
        samples = [{"time": 8.0, "step": 3200, "cD": 6.2, "cL": 0.0097, "dP": 0.166}]

        class setup:
            units = {"mach": 0.1}
            shape = (251, 43, 43)
            lattice = get_lattice("D3Q19")

    case = SchaeferTurek3D1Z()
    params = {q.name: q.default for q in case.params}
    view = View()
    view.params = params
    out = case.observe(view, params)
    checks = {c["quantity"]: c for c in out["checks"]}
    assert checks["cD (3D-1Z)"]["reference"] == 6.18533 and checks["cL (3D-1Z)"]["reference"] == 0.009401
    assert checks["cD (3D-1Z)"]["error"] == pytest.approx((6.2 - 6.18533) / 6.18533)
    assert checks["dP (3D-1Z)"]["reference"] is None  # judged against the bounds only
    assert [checks[k]["pass"] for k in ("cD (3D-1Z)", "cL (3D-1Z)", "dP (3D-1Z)")] == [True, True, True]
    view.samples = [dict(view.samples[0], cL=0.0102)]
    out = case.observe(view, params)
    assert [c["pass"] for c in out["checks"]] == [True, False, True]
    assert all(math.isfinite(c["value"]) for c in out["checks"])


def test_convergence_entry_runs_outside_the_reduced_suite(tmp_path, capsys):
    conv = next(e for e in V.ENTRIES if e.name == "schaefer_turek_3d1z_convergence")
    assert conv.reduced is None and conv.values == (10, 20, 30)
    assert [r["n"] for r in conv.runs(reduced=False)] == [10, 20, 30]
    assert V.run_suite([conv.name], reduced=True, out=tmp_path / "v.md", log=lambda m: None) == []
    assert V.main(["--list"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith(conv.name))
    assert "[not in --reduced]" in line


@pytest.mark.parametrize("n,q", [(10, 0.5), (15, 1.0), (20, 0.5), (25, 1.0), (12, 0.7), (16, 0.1)])
def test_walls_lie_at_their_exact_position(n, q):
    """H = W = 4.1 D is 4.1 n cells: whole at n = 10, 20, 30 (halfway walls, as before); else the rows keep
    their places (centres (k - 1/2) dx from y = 0 and z = 0, the cylinder's centre midway between two rows)
    and the far walls (y = H, z = W) cross the last row's links at q = 4.1 n - (rows - 1/2). The reference
    area D H is n * 4.1 n either way, and the cylinder's links keep their own q where it meets the z walls."""
    import numpy as np

    from distlbm.physics import boundaries as bc

    case = SchaeferTurek3D1Z()
    lat = get_lattice("D3Q19")
    p = case.full(resolve(CASE, {"n": n}).params)
    lay = case.layout(p, lat)
    dx = 0.1 / n
    assert lay.far_q == pytest.approx((q, q), abs=1e-9) and lay.off_grid == (q != 0.5)
    assert lay.origin[1] == -dx and lay.origin[2] == -dx  # as with whole H/dx: row 1 half a cell from y = 0
    assert lay.origin[1] + (lay.shape[1] - 1.5 + q) * dx == pytest.approx(0.41, rel=1e-12)  # the far wall
    assert (0.2 - lay.origin[1]) / dx - 0.5 == pytest.approx(2 * n + 0.5, abs=1e-9)  # midway between rows
    assert case.reference_area(p, lay)[0] == pytest.approx(n * 4.1 * n, rel=1e-12)
    if q == 0.5:
        assert lay.across(1) == lay.ncross[0] and isinstance(lay.across(1), int)
    setup = resolve(CASE, {"n": n}).setup
    assert setup.features.bouzidi  # the cylinder's links at every n
    # a block across the cylinder and both z walls
    nz = lay.shape[2]
    index = (slice(5 * n - 2, 5 * n + 2), slice(0, lay.shape[1]), slice(0, nz))
    g = setup.geometry(index)
    qlink, kind, body = np.asarray(g.qlink), np.asarray(g.kind), np.asarray(g.body)
    c = np.asarray(lat.c)
    z = np.arange(nz)[None, None, None, :]
    ny = lay.shape[1]
    # away from the y walls (a link across a y wall and a z wall takes the nearer wall's q)
    fluid = ((kind == bc.FLUID) & (np.arange(ny)[None, :, None] >= 2) & (np.arange(ny)[None, :, None] <= ny - 3))[None]
    # the body of x - c_i (the block lies inside the cylinder's x range, so the wrap of roll along x reads
    # cylinder cells as the true neighbours would)
    cyl = np.stack([np.roll(body, tuple(int(v) for v in c[i]), axis=(0, 1, 2)) for i in range(19)])
    near = (c[:, 2] == 1)[:, None, None, None] & fluid & (z == 1) & (cyl == 0)  # into the z = 0 wall
    far = (c[:, 2] == -1)[:, None, None, None] & fluid & (z == nz - 2) & (cyl == 0)  # into the z = W wall
    assert near.any() and far.any()
    assert np.all(qlink[near] == 0)  # halfway
    expect = 0 if q == 0.5 else bc.encode_q(q)
    assert np.all(qlink[far] == expect), np.unique(qlink[far])
    assert np.any(qlink[fluid & (cyl != 0)] != 0)  # the cylinder's links keep its q


def _study():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "st3d_study.py"
    spec = importlib.util.spec_from_file_location("st3d_study", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_study_fits_the_limit_and_the_order():
    """scripts/st3d_study.py: f(n) = f_inf + C n^-p through levels at unequal ratios (10, 12, 15, 20) gives
    f_inf and p back; values that do not approach a limit monotonically give no fit; the walls' q per n."""
    study = _study()
    ns = [10, 12, 15, 20]
    f_inf, c, p = study.richardson(ns, [0.1678 + 0.3 * n ** -2.2 for n in ns])
    assert f_inf == pytest.approx(0.1678, abs=2e-5) and p == pytest.approx(2.2, abs=0.01)
    f_inf, _, p = study.richardson(ns[:3], [6.18 - 2.0 * n ** -1.5 for n in ns[:3]])  # from below, 3 levels
    assert f_inf == pytest.approx(6.18, abs=1e-3) and p == pytest.approx(1.5, abs=0.01)
    assert study.richardson(ns, [1.0, 2.0, 1.0, 2.0]) is None
    assert study.richardson(ns[:2], [1.0, 2.0]) is None
    assert [study.wall_q(n) for n in (10, 12, 15, 16, 20, 30)] == pytest.approx([0.5, 0.7, 1.0, 0.1, 0.5, 0.5])
