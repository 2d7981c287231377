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
    across = math.floor(4.1 * n + 1e-9)  # H/dx = 4.1 n: 61.5 at n = 15 (then 61 fluid rows)
    assert cfg.setup.shape == (25 * n + 1, across + 2, across + 2)
    assert cfg.model.collision == "trt" and cfg.model.equilibrium == "incompressible"


def test_defaults():
    cfg = resolve(CASE, {})
    assert cfg.params["n"] == ST_3D1Z_N and cfg.setup.tau == pytest.approx(0.575, abs=1e-12)
    assert cfg.model.trt_lambda == pytest.approx(3 / 16)
    assert resolve(CASE, {"collision": "bgk"}).model.collision == "bgk"  # a given setting wins


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


@pytest.mark.parametrize("n,q", [(10, 0.5), (15, 0.75), (20, 0.5), (25, 0.75), (12, 0.6)])
def test_walls_lie_at_their_exact_position(n, q):
    """H = W = 4.1 D is 4.1 n cells: whole at n = 10, 20, 30 (halfway walls, as before), else floor(4.1 n)
    fluid rows centred between the walls, whose links carry q = (1 + frac(4.1 n)) / 2. The reference area
    D H is n * 4.1 n either way, and the cylinder's links keep their own q where it meets the z walls."""
    import numpy as np

    from distlbm.physics import boundaries as bc

    case = SchaeferTurek3D1Z()
    lat = get_lattice("D3Q19")
    p = case.full(resolve(CASE, {"n": n}).params)
    lay = case.layout(p, lat)
    dx = 0.1 / n
    assert lay.wall_q == pytest.approx((q, q), abs=1e-9) and lay.off_grid == (q != 0.5)
    assert lay.origin[1] == pytest.approx((q - 1.5) * dx, rel=1e-12)  # cell 1's centre q dx from the wall
    assert lay.origin[1] + (lay.shape[1] - 1.5) * dx == pytest.approx(0.41 - q * dx, rel=1e-12)
    assert case.reference_area(p, lay)[0] == pytest.approx(n * 4.1 * n, rel=1e-12)
    if q == 0.5:
        assert lay.across(1) == lay.ncross[0] and isinstance(lay.across(1), int)
    setup = resolve(CASE, {"n": n}).setup
    assert setup.features.bouzidi  # the cylinder's links at every n
    # a block across the cylinder: the links into the side walls (z = 0 and y = 0 here)
    nx = lay.shape[0]
    index = (slice(5 * n - 2, 5 * n + 2), slice(0, lay.shape[1]), slice(0, 3))
    g = setup.geometry(index)
    qlink, kind = np.asarray(g.qlink), np.asarray(g.kind)
    assert qlink.shape == (19, 4) + (lay.shape[1], 3) and nx > 5 * n + 2
    c = np.asarray(lat.c)
    fluid = kind == bc.FLUID
    into_z_wall = (c[:, 2] == 1)[:, None, None, None] & fluid[None] & (np.arange(3) == 1)[None, None, None, :]
    # the body of x - c_i (the block lies inside the cylinder's x range, so the wrap of roll along x reads
    # cylinder cells as the true neighbours would)
    cyl = np.stack([np.roll(np.asarray(g.body), tuple(int(v) for v in c[i]), axis=(0, 1, 2)) for i in range(19)])
    wall_links = into_z_wall & (cyl == 0)
    assert wall_links.any()
    expect = 0 if q == 0.5 else bc.encode_q(q)
    assert np.all(qlink[wall_links] == expect), np.unique(qlink[wall_links])
    assert np.any(qlink[into_z_wall & (cyl != 0)] != expect)  # the cylinder's links keep its q
