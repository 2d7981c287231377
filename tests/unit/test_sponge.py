"""The absorbing (sponge) layer before a channel's outlet (issue 13, point 4): the per-cell relaxation,
its settings checked up front, and what it is for: the channel's acoustic mode no longer rings."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest

from distlbm.config import resolve
from distlbm.errors import ConfigError
from distlbm.lattice import get_lattice
from distlbm.physics import boundaries as bc
from distlbm.physics.equilibrium import equilibrium_deviation

from helpers import run_case

LAT = get_lattice("D2Q9")


def test_relaxation_toward_the_target_state():
    rng = np.random.default_rng(0)
    g = jnp.asarray(rng.normal(0, 1e-3, (9, 4, 3)))
    u_t = jnp.asarray(rng.normal(0, 0.05, (2, 4, 3)))
    geq = equilibrium_deviation(jnp.zeros((4, 3)), (u_t[0], u_t[1]), LAT)
    strength = jnp.asarray([0.0, 0.25, 1.0, 0.0])[:, None] * jnp.ones((4, 3))
    out = np.asarray(bc.sponge(g, strength, u_t, LAT))
    assert np.array_equal(out[:, [0, 3]], np.asarray(g)[:, [0, 3]])  # strength 0: the same bits
    np.testing.assert_allclose(out[:, 2], np.asarray(geq)[:, 2], atol=1e-9)  # 1: the target equilibrium
    np.testing.assert_allclose(out[:, 1], 0.75 * np.asarray(g)[:, 1] + 0.25 * np.asarray(geq)[:, 1], atol=1e-9)
    half = np.asarray(bc.sponge(g, strength, u_t, LAT, scale=jnp.asarray(0.5)))  # a ramp scales the target
    geq_half = equilibrium_deviation(jnp.zeros((4, 3)), (0.5 * u_t[0], 0.5 * u_t[1]), LAT)
    np.testing.assert_allclose(half[:, 2], np.asarray(geq_half)[:, 2], atol=1e-9)


def test_strength_rises_smoothly_from_zero():
    xi = np.linspace(-0.5, 1.5, 41)
    s = bc.sponge_profile(xi, 0.2)
    assert s[xi <= 0].max() == 0.0 and s[xi >= 1].min() == pytest.approx(0.2)
    assert np.all(np.diff(s) >= 0)
    assert bc.sponge_profile(0.05, 0.2) < 0.002  # no step at the layer's start


def test_cells_carry_the_strength_and_the_inflow_profile():
    cfg = resolve("channel_flow", dict(n=10, length=1.0, height=0.2, obstacles="", sponge=0.3))
    g = cfg.setup.geometry((slice(0, 101), slice(0, 22)))
    assert cfg.setup.features.sponge and g.sponge.shape == (101, 22)
    x = np.arange(101) * 0.01
    assert np.all(g.sponge[x < 0.7 - 1e-9] == 0) and np.all(g.sponge[x < 0.7 + 1e-9] < 1e-12)
    assert np.all(g.sponge[x > 0.705, 1:-1] > 0)
    assert np.all(g.sponge[:, [0, -1]] == 0)  # not on the walls
    assert g.sponge[-1, 11] == pytest.approx(0.1)  # sponge_strength at the outlet
    np.testing.assert_allclose(g.velocity[0, 80, 1:-1], g.velocity[0, 0, 1:-1])  # the inflow profile
    assert "absorbing layer x = 0.7 .. 1 m (30 cells)" in cfg.setup.units["sponge"]
    assert not resolve("channel_flow", dict(n=10, length=1.0, height=0.2, obstacles="")).setup.features.sponge


@pytest.mark.parametrize("case, sets, message", [
    ("channel_flow", dict(sponge=0.01), r"sponge = 0.01: 2 cells of dx = 0.005; expected 0 \(none\) or a thickness "
                                        r"from 4 cells \(0.02\) to less than the channel length L = 2.2"),
    ("channel_flow", dict(sponge=3.0), r"sponge = 3: 600 cells .* less than the channel length L = 2.2"),
    ("channel_flow", dict(sponge=-0.1), r"sponge = -0.1: expected a value >= 0"),
    ("channel_flow", dict(sponge=0.3, sponge_strength=1.5), r"sponge_strength = 1.5: expected 0 < sponge_strength "
                                                            r"<= 1"),
    ("channel_flow", dict(sponge_strength=1.5), r"sponge_strength = 1.5: expected 0 < sponge_strength <= 1"),
    ("channel_flow", dict(sponge_strength=0.0), r"sponge_strength = 0.0: expected a positive value \(> 0\)"),
    ("channel_flow", dict(sponge=2.0), r"sponge = 2: obstacles = 'circle\(0.2, 0.2, 0.05\)': the obstacle reaches "
                                       r"x = 0.25, into the layer from x = 0.2 to the outlet; expected obstacles "
                                       r"ahead of it, x < 0.195"),
    ("channel_flow", dict(sponge=0.5, obstacles="circle(0.2, 0.2, 0.05); box(1.6, 0.1, 1.8, 0.2)"),
     r"sponge = 0.5: obstacles = .*: 'box\(1.6, 0.1, 1.8, 0.2\)' reaches x = 1.8, into the layer from x = 1.7"),
    ("schaefer_turek_2d1", dict(n=10, sponge=2.1), r"sponge = 2.1: obstacles = .* reaches x = 0.25, into the layer"),
    ("sphere", dict(sponge=7.0), r"sponge = 7: obstacles = 'sphere\(3.0, 3.0, 3.0, 0.5\)': the obstacle reaches "
                                 r"x = 3.5"),
])
def test_bad_sponges_are_refused_up_front(case, sets, message):
    with pytest.raises(ConfigError, match=message):
        resolve(case, sets)


def test_the_fused_kernel_covers_it_and_the_in_place_kernels_do_not():
    # the fused A-B kernel's layer equals the XLA step's bit for bit (tests/unit/test_fused.py, SIM_CASES)
    from distlbm.physics.fused import fused_supports
    from distlbm.stepper import Model
    from distlbm.physics.collision import Collision

    feat = bc.Features(walls=True, inlets=((0, -1),), outlets=((0, 1),), sponge=True)
    assert fused_supports(Model(LAT, Collision("bgk", 0.8)), feat) == (True, "covered")
    ok, why = fused_supports(Model(LAT, Collision("bgk", 0.8)), feat, inplace=True)
    assert not ok and "absorbing (sponge) layers" in why
    with pytest.raises(ValueError, match="needs an inlet, outlet or outflow face"):
        bc.Features(walls=True, sponge=True)


def test_the_channel_acoustic_mode_is_absorbed():
    """An empty channel started impulsively (no ramp) rings in its quarter-wave acoustic mode between the
    velocity inlet and the pressure outlet (period 4 L / c_s = 0.87 s here); with the layer it does not."""
    kw = dict(n=10, length=0.5, height=0.2, obstacles="", re=10.0, u_lattice=0.05, init="rest", ramp=0.0,
              t_end=5.0, probes="0.25,0.1", sample_dt=0.1)
    amp = {}
    for sponge in (0.0, 0.15):
        _, sim = run_case("channel_flow", sponge=sponge, **kw)
        p = np.array([r["p_pt1"] for r in sim.samples if r["time"] >= 2.5])
        amp[sponge] = p.std()
    assert amp[0.0] > 1e-4 and amp[0.15] < 1e-2 * amp[0.0], amp


def test_final_values_are_the_last_sample_with_the_layer():
    """With the layer nothing rings, so the reported values are the last sample's, not a mean over the
    acoustic period 4 L / c_s (which would reach back into the start-up)."""
    s, sim = run_case("channel_flow", n=10, length=0.5, height=0.2, obstacles="circle(0.15, 0.1, 0.03)", re=10.0,
                      t_end=0.5, sponge=0.15)
    obs = s["observables"]
    assert obs["averaging"]["samples"] == 1 and obs["final"]["cD"] == sim.samples[-1]["cD"]
