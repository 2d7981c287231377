"""Configuration checks: each mistake is one ConfigError naming the key, the value and what was expected."""

from __future__ import annotations

import math

import pytest

from distlbm.cases import CASES
from distlbm.cases.base import ConfigError
from distlbm.config import COMMON_PARAMS, parse_sets, resolve

CS = math.sqrt(1.0 / 3.0)


def error(case_or_file, sets=None, **overrides) -> str:
    with pytest.raises(ConfigError) as exc:
        resolve(case_or_file, sets or {}, **overrides)
    return str(exc.value)


# --- defaults --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(CASES))
def test_every_case_resolves_with_its_defaults(name):
    cfg = resolve(name, {})
    case = CASES[name]
    assert cfg.case is case
    assert cfg.lattice.name == case.default_lattice
    assert cfg.lattice.d in case.dims
    assert cfg.setup.tau > 0.5
    assert all(s > 0 for s in cfg.setup.shape) and len(cfg.setup.shape) == cfg.lattice.d
    assert cfg.setup.u_max / CS <= 0.3
    assert cfg.params == {p.name: p.default for p in case.params}
    assert cfg.common["dtype"] == "float32" and cfg.common["compute_dtype"] == "float32"


# --- unknown keys and names --------------------------------------------------------------------------

@pytest.mark.parametrize("key,value,near", [("rey", 100, "re"), ("colision", "trt", "collision"),
                                            ("u_lidd", 0.05, "u_lid"), ("latice", "D2Q9", "lattice")])
def test_unknown_key_suggests_nearest(key, value, near):
    msg = error("cavity2d", {key: value})
    assert f"unknown key {key!r}" in msg
    assert repr(value) in msg
    assert f"did you mean {near!r}" in msg
    assert "expected" in msg and "valid keys" in msg


@pytest.mark.parametrize("case,key,hint", [("cavity2d", "stepz", "did you mean 'steps' or 'step'?"),
                                           ("cavity2d", "outptu_every", "did you mean 'output_every'?"),
                                           ("cavity2d", "chekpoint_every", "did you mean 'checkpoint_every'?"),
                                           ("box", "tua", "did you mean 'tau'?"),
                                           ("cavity2d", "ree", "did you mean 're'?")])
def test_a_misspelt_key_is_offered_the_settings_one_typing_slip_away(case, key, hint):
    """'stepz' got "did you mean 'step'?" alone (the step kernel, difflib's higher ratio for the shorter name), where
    'steps' (the number of steps) is as near: one typing slip (a letter changed, added, dropped or two swapped) away;
    'tua' got nothing where the box has 'tau'. The settings at the fewest slips are named, those of the same length
    first."""
    msg = error(case, {key: 1})
    assert f"unknown key {key!r} (= 1); {hint};" in msg, msg


def test_no_far_fetched_suggestion():
    # a key of other cases: 're' on the box got "did you mean 'probes'?" (ratio 0.5), 'obstacles' "'steps'?"
    for key in ("re", "obstacles"):
        msg = error("box", {key: 1})
        assert f"unknown key {key!r}" in msg and "did you mean" not in msg, msg


@pytest.mark.parametrize("key,hint", [("x", None), ("q", None), ("u", None), ("N", "n"), ("r", "re")])
def test_a_one_letter_key_is_not_offered_every_other_one_letter_key(key, hint):
    """A one-letter key is one slip (a letter changed) from every other one-letter key: 'x', 'q' and 'u' on the cavity
    got "did you mean 'n'?" (the lattice size), which they share no letter with; difflib's nearest as before (none
    for them; 'n' for 'N', 're' for 'r')."""
    msg = error("cavity2d", {key: 1})
    if hint is None:
        assert "did you mean" not in msg, msg
    else:
        assert f"unknown key {key!r} (= 1); did you mean {hint!r}?;" in msg, msg


def test_unknown_key_without_a_near_name_lists_the_valid_keys():
    msg = error("cavity2d", {"zzzzzz": 1})
    assert "'zzzzzz'" in msg and "did you mean" not in msg
    for p in CASES["cavity2d"].params + COMMON_PARAMS:
        assert p.name in msg


def test_key_of_another_case_is_unknown():
    # umax belongs to poiseuille, not to the cavity
    msg = error("cavity2d", {"umax": 0.05})
    assert "unknown key 'umax'" in msg


def test_unknown_case_suggests_nearest():
    msg = error("cavty2d")
    assert "case = 'cavty2d'" in msg
    assert "did you mean 'cavity2d'" in msg
    for name in CASES:
        assert name in msg


@pytest.mark.parametrize("name, near", [("CAVITY2D", "cavity2d"), ("BOX", "box"), ("KOLMOGOROV", "kolmogorov")])
def test_unknown_case_in_other_letter_case_suggests_it(name, near):
    """A case name in capitals got no 'did you mean' (difflib compares the letters as they are)."""
    assert f"case = {name!r}: expected one of" in error(name) and f"did you mean {near!r}" in error(name)


def test_no_case_at_all():
    msg = error(None)
    assert "case = " in msg and "expected one of" in msg


# --- types -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("key,value,expected", [
    ("n", "abc", "an integer"),
    ("n", 1.5, "an integer"),
    ("n", True, "an integer"),
    ("re", True, "a number"),
    ("re", "fast", "a number"),
    ("u_lid", float("nan"), "a finite number"),
    ("lattice", 3, "a string"),
    ("steps", 2.5, "an integer"),
])
def test_wrong_type(key, value, expected):
    msg = error("cavity2d", {key: value})
    assert f"{key} = {str(value).lower() if isinstance(value, bool) else repr(value)}" in msg  # true: TOML's
    assert f"expected {expected}" in msg


def test_integral_float_is_accepted_for_an_int_key():
    cfg = resolve("cavity2d", {"n": 32.0})
    assert cfg.params["n"] == 32 and isinstance(cfg.params["n"], int)


def test_int_is_accepted_for_a_float_key():
    cfg = resolve("cavity2d", {"re": 400})
    assert cfg.params["re"] == 400.0 and isinstance(cfg.params["re"], float)


@pytest.mark.parametrize("key,value,choices", [
    ("dtype", "float8", ("float32", "float64", "float16", "bfloat16")),
    ("compute_dtype", "int8", ("float32", "float64")),
    ("collision", "mrt", ("bgk", "trt")),
    ("lattice", "D3Q15", ("D2Q9", "D3Q19", "D3Q27")),
])
def test_invalid_choice(key, value, choices):
    msg = error("cavity2d", {key: value})
    assert f"{key} = {str(value).lower() if isinstance(value, bool) else repr(value)}" in msg  # true: TOML's
    assert "expected one of" in msg
    for c in choices:
        assert repr(c) in msg


def test_choices_are_case_insensitive():
    cfg = resolve("cavity3d", {"lattice": "d3q27", "collision": "TRT", "n": 8})
    assert cfg.lattice.name == "D3Q27" and cfg.common["collision"] == "trt"


# --- sizes and lattice dimension -------------------------------------------------------------------

@pytest.mark.parametrize("case", ["cavity2d", "cavity3d", "taylor_green2d", "poiseuille", "box"])
@pytest.mark.parametrize("n", [0, -4])
def test_non_positive_size(case, n):
    msg = error(case, {"n": n})
    assert f"n = {n}" in msg
    assert "expected a positive value" in msg


@pytest.mark.parametrize("case", ["taylor_green2d", "taylor_green3d"])
def test_taylor_green_box_of_fewer_than_three_cells_refused(case):
    """At n = 1 or 2 the vortex is zero at every cell: taylor_green2d n = 2 ran a fluid at rest and reported a
    viscosity of -0.0002 (FAIL) and an L2 error of 1.5e9, exit 0. One line now; n = 3 resolves."""
    for n in (1, 2):
        msg = error(case, {"n": n})
        assert msg.startswith(f"n = {n}: the Taylor-Green field") and "is zero at every cell" in msg, msg
        assert "expected n >= 3" in msg, msg
    assert resolve(case, {"n": 3}).setup.shape == (3,) * (2 if case.endswith("2d") else 3)


@pytest.mark.parametrize("sets,key", [({"nx": 1}, "nx"), ({"nx": 2}, "nx"), ({"ny": 1}, "ny"), ({"ny": 2}, "ny"),
                                      ({"n": 2}, "n"), ({"n": 1, "lattice": "D2Q9"}, "n")])
def test_box_of_fewer_than_three_cells_along_x_or_y_refused(sets, key):
    """The box's vortex is sin(2 pi x / nx) cos(2 pi y / ny) (u_x) and its y twin: at 1 or 2 cells along x (y) u_x
    (u_y) is zero at every cell. nx = 1 was refused by the Mach check as "u0 = 0.02 (peak lattice velocity 1.28)",
    naming u0, and n = 2 ran a fluid at rest."""
    msg = error("box", sets)
    assert msg.startswith(f"{key} = {sets[key]}: the box's vortex field") and "is zero at every cell" in msg, msg
    assert f"expected {key} >= 3" in msg, msg
    assert resolve("box", {"n": 3}).setup.shape == (3, 3, 3)
    assert resolve("box", {"n": 8, "nz": 1}).setup.shape == (8, 8, 1)  # z: cos(2 pi z / nz), 1 at nz = 1


@pytest.mark.parametrize("sets,key,least", [({"nx": 3}, "nx", 8), ({"nx": 7}, "nx", 8), ({"n": 3, "ny": 64}, "n", 8),
                                            ({"lattice": "D2Q9", "nx": 16, "ny": 64, "u0": 0.05}, "nx", 19)])
def test_box_mach_refusal_names_the_side_that_is_short(sets, key, least):
    """nx = 3 (of ny = 64) was refused naming u0 alone, the default: the peak is u0 ny / nx, and the least nx that
    keeps it within Mach 0.3 is named beside u0's bound; that nx passes."""
    msg = error("box", sets)
    assert f", or {key} >= {least} (nx = " in msg and "gives Mach number" in msg, msg
    resolve("box", {**sets, key: least})
    assert "gives Mach number" in error("box", {**sets, key: least - 1})


def test_negative_box_side():
    msg = error("box", {"nx": -1})
    assert "nx = -1" in msg and "expected a value >= 0" in msg


def test_box_sides():
    cfg = resolve("box", {"lattice": "D2Q9", "n": 8, "ny": 4})
    assert cfg.setup.shape == (8, 4)


@pytest.mark.parametrize("case,lattice,case_dim,ok", [
    ("cavity2d", "D3Q19", "2D", ["D2Q9"]),
    ("taylor_green2d", "D3Q27", "2D", ["D2Q9"]),
    ("taylor_green3d", "D2Q9", "3D", ["D3Q19", "D3Q27"]),
    ("cavity3d", "D2Q9", "3D", ["D3Q19", "D3Q27"]),
])
def test_lattice_dimension_mismatch(case, lattice, case_dim, ok):
    msg = error(case, {"lattice": lattice})
    assert f"lattice = {lattice!r}" in msg
    assert f"case {case!r} is {case_dim}" in msg
    assert "expected one of " + ", ".join(ok) in msg


@pytest.mark.parametrize("lattice", ["D2Q9", "D3Q19", "D3Q27"])
def test_lattice_of_either_dimension_for_2d_3d_cases(lattice):
    cfg = resolve("box", {"lattice": lattice, "n": 4})
    assert cfg.lattice.name == lattice and len(cfg.setup.shape) == cfg.lattice.d


# --- stability: tau and Mach -----------------------------------------------------------------------

@pytest.mark.parametrize("case", ["poiseuille", "couette", "box"])
@pytest.mark.parametrize("tau", [0.5, 0.3, -1.0])
def test_tau_at_or_below_one_half_refused(case, tau):
    msg = error(case, {"tau": tau})
    assert f"tau = {tau!r}" in msg or f"tau = {tau:g}" in msg
    assert "expected tau > 0.5" in msg


def test_tau_close_to_one_half_warns():
    cfg = resolve("poiseuille", {"tau": 0.505})
    assert any("tau = 0.505" in w and "close to 1/2" in w for w in cfg.warnings)
    assert not resolve("poiseuille", {"tau": 0.6}).warnings
    # a subgrid model is the remedy the warning names: with it there is no warning
    assert not resolve("poiseuille", {"tau": 0.505, "smagorinsky": 0.1}).warnings


def test_tau_from_reynolds_close_to_one_half_warns():
    # cavity: tau = 1/2 + 3 u_lid n / re
    cfg = resolve("cavity2d", {"re": 1e4, "n": 16})
    tau = 0.5 + 3 * 0.05 * 16 / 1e4
    assert cfg.setup.tau == pytest.approx(tau)
    assert any("close to 1/2" in w and f"{tau:.8g}" in w for w in cfg.warnings)


def test_tau_close_to_one_half_names_the_settings_that_move_it():
    """The warning said "raise n, lower re" whatever the case: a box at tau = 0.5001 has no re, and its n leaves tau
    as it is (tau = 0.51 ran where 0.5001 blew up at step 300); a tau from re and n names those with their values."""
    box = next(w for w in resolve("box", {"tau": 0.5001, "n": 24}).warnings if "close to 1/2" in w)
    assert box.endswith("(raise tau (now 0.5001) to 0.51 or more, or set smagorinsky=0.1)"), box
    cavity = next(w for w in resolve("cavity2d", {"re": 1000, "n": 32}).warnings if "close to 1/2" in w)
    assert cavity.endswith("(raise n (now 32) or lower re (now 1000) until tau - 1/2 >= 0.01, or set "
                           "smagorinsky=0.1)"), cavity


def test_tau_close_to_one_half_names_a_channels_viscosity_and_lattice_velocity():
    """A channel's tau without re comes from nu, u_lattice and n: a Schaefer-Turek preset at u_lattice = 0.001
    (tau 0.5015) was told "raise n (now 10)" alone (n = 67 would do; its default u_lattice 0.025 too), a channel
    given nu the same (raising nu does it)."""
    st = next(w for w in resolve("schaefer_turek_2d1", {"n": 10, "u_lattice": 0.001}).warnings if "close to 1/2" in w)
    assert "(raise n (now 10) or raise u_lattice (now 0.001) until tau - 1/2 >= 0.01, or set smagorinsky=0.1)" in st, st
    ch = next(w for w in resolve("channel_flow", {"n": 10, "nu": 1e-5}).warnings if "close to 1/2" in w)
    assert "(raise n (now 10) or raise nu (now 1e-05) or raise u_lattice (now 0.025) until" in ch, ch
    by_re = next(w for w in resolve("channel_flow", {"n": 10, "re": 2000}).warnings if "close to 1/2" in w)
    assert "(raise n (now 10) or lower re (now 2000) until" in by_re, by_re


def test_a_blow_up_with_tau_far_from_one_half_names_no_target_below_tau_nor_the_velocity_twice():
    """A blow-up at tau >= 0.51 names the Mach number first and tau second: a box at tau = 0.8 was told "raise tau
    (now 0.8) to 0.51 or more", and a channel "lower u_lattice" for the Mach number and "raise u_lattice" for tau."""
    from types import SimpleNamespace

    from distlbm.driver.callbacks import _causes

    def causes(case, sets):
        cfg = resolve(case, sets)
        return _causes(SimpleNamespace(params=cfg.params, setup=cfg.setup,
                                       model=SimpleNamespace(collision=SimpleNamespace(smagorinsky=0.0))))

    box = causes("box", {"n": 16})
    assert box == ("Mach number too high (lower u0 (now 0.02; e.g. --set u0=0.01)) or tau = 0.8 too close to 1/2 "
                   "(raise tau (now 0.8), or set smagorinsky=0.1)"), box
    channel = causes("channel_flow", {"n": 10})
    assert channel == ("Mach number too high (lower u_lattice (now 0.025; e.g. --set u_lattice=0.0125)) or tau = "
                       "0.5375 too close to 1/2 (raise n (now 10) or raise nu (now 0.001), or set smagorinsky=0.1)"), \
        channel
    # tau far above 1 (named first by the guard): not "too close to 1/2" beside it, whose remedy raises tau further (a
    # cavity at re = 1e-7, tau 1.9e8, was told "tau = 1.92e+08 too close to 1/2 (raise n (now 128) or lower re)")
    far = causes("box", {"n": 16, "tau": 50.0})
    assert far == "Mach number too high (lower u0 (now 0.02; e.g. --set u0=0.01))", far


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_blow_ups_advice_to_lower_the_velocity_is_a_setting_the_case_takes(case, cli, tmp_path):
    """Every case's blow-up message names the settings that lower its velocity, with values, and each example it
    gives runs (a dry run of the case with it) at a lower velocity: schaefer_turek_3d1z given tau (its u_lattice 0,
    derived from tau and n) was told "lower the velocity", naming no key, and takes no u_lattice beside tau."""
    from types import SimpleNamespace

    from distlbm.config import velocity_remedy
    from distlbm.driver.callbacks import _causes

    given = {"tau": 0.6} if case == "schaefer_turek_3d1z" else {}
    cfg = resolve(case, given)
    msg = _causes(SimpleNamespace(params=cfg.params, setup=cfg.setup, case=cfg.case,
                                  model=SimpleNamespace(collision=SimpleNamespace(smagorinsky=0.0))))
    text, examples = velocity_remedy(cfg.case, cfg.params)
    assert f"Mach number too high ({text})" in msg and examples, msg
    assert "lower the velocity" not in msg, msg
    for sets, drop in examples:
        assert all(f"--set {x}" in msg for x in sets), (sets, msg)
        kept = [f"{k}={v}" for k, v in given.items() if k not in drop] + sets
        rc, out, err = cli("run", case, *[a for x in kept for a in ("--set", x)], "--dry-run", "--out",
                           tmp_path / "dry")
        assert rc == 0, (kept, out + err)
        assert resolve(case, parse_sets(kept)).setup.u_max < cfg.setup.u_max, kept
    if case == "schaefer_turek_3d1z":
        assert "raise n (now 13; e.g. --set n=26" in msg and "give u_lattice in place of tau" in msg, msg


@pytest.mark.parametrize("tau", [0.6, 0.505])
def test_3d1z_given_tau_is_told_to_raise_tau_with_n_not_to_raise_its_velocity(tau, cli, tmp_path):
    """3D-1Z given tau (u_lattice = Re (tau - 1/2) / (3 n)) was told "raise tau (now 0.6)" beside the Mach number's
    "lower the lattice velocity": at a fixed n a larger tau is a larger velocity. Its tau advice (the blow-up's, and
    the set-up warning's at tau near 1/2) raises tau with n in proportion: the example runs (a dry run) at a larger
    tau and the same velocity."""
    import re
    from types import SimpleNamespace

    from distlbm.driver.callbacks import _causes

    cfg = resolve("schaefer_turek_3d1z", {"tau": tau})
    msg = _causes(SimpleNamespace(params=cfg.params, setup=cfg.setup, case=cfg.case,
                                  model=SimpleNamespace(collision=SimpleNamespace(smagorinsky=0.0))))
    texts = [msg] + [w for w in cfg.warnings if "close to 1/2" in w]
    assert len(texts) == (2 if tau < 0.51 else 1), cfg.warnings
    for text in texts:
        assert f"raise tau (now {tau:g})" not in text, text
        found = re.search(r"--set tau=([0-9.]+) --set n=([0-9]+)", text)
        assert found, text
        kept = [f"tau={found[1]}", f"n={found[2]}"]
        rc, out, err = cli("run", "schaefer_turek_3d1z", *[a for x in kept for a in ("--set", x)], "--dry-run",
                           "--out", tmp_path / "dry")
        assert rc == 0, (kept, out + err)
        new = resolve("schaefer_turek_3d1z", parse_sets(kept)).setup
        assert new.tau > cfg.setup.tau and new.u_max <= cfg.setup.u_max * (1 + 1e-6), (kept, new)
        if tau < 0.51 and "likely causes" not in text:  # the warning's target: tau - 1/2 >= 0.01
            assert new.tau >= 0.51 - 1e-9, (kept, new.tau)


def test_the_mach_warning_of_a_velocity_derived_from_tau_names_n_not_a_key_it_refuses():
    """3D-1Z given tau (u_lattice 0: derived from tau and n) was told "lower u_lattice" when its flow passed Mach 0.3
    somewhere, a setting it refuses beside tau; a case's own velocity setting is named as before."""
    from types import SimpleNamespace

    from distlbm.driver.callbacks import MachWatch

    said = []
    for case, sets in (("schaefer_turek_3d1z", {"tau": 0.6}), ("channel_flow", {"n": 10})):
        cfg = resolve(case, sets)
        view = SimpleNamespace(step=100, setup=cfg.setup, log=said.append)
        MachWatch.of(cfg.case, cfg.params, 0)(view, {"finite": True, "u_max_local": 0.2})
    assert said[0].endswith("the run may blow up; lower the lattice velocity u_lattice = Re (tau - 1/2) / (3 n) "
                            "(now 0.05128, from tau = 0.6): raise n (now 13) or give u_lattice in place of tau or "
                            "raise the resolution"), said[0]
    assert said[1].endswith("lower u_lattice (the flow's lattice velocity) or raise the resolution"), said[1]


def test_huge_reynolds_refused_where_tau_rounds_to_one_half():
    # tau - 1/2 = 1.9e-11: omega = 1/tau is exactly 2 in float32, i.e. zero viscosity
    msg = error("cavity2d", {"re": 1e12})
    assert "tau = 0.5" in msg and "expected tau > 0.5" in msg and "float32" in msg
    assert "re=1000000000000.0" in msg  # the value it came from
    # float64 still resolves it (and warns)
    cfg = resolve("cavity2d", {"re": 1e12, "dtype": "float64"})
    assert cfg.setup.tau > 0.5 and any("close to 1/2" in w for w in cfg.warnings)


def test_mach_above_limit_refused():
    msg = error("cavity2d", {"u_lid": 0.2})
    ma = 0.2 / CS
    assert ma > 0.3
    assert "u_lid = 0.2" in msg
    assert f"Mach number {ma:.3f}" in msg and "0.3" in msg
    assert "expected a lattice velocity below" in msg


def test_mach_above_limit_refused_for_other_velocity_keys():
    assert "u_wall = 0.5" in error("couette", {"u_wall": 0.5})
    assert "u0 = 0.3" in error("taylor_green2d", {"u0": 0.3})


def test_mach_above_warning_threshold_warns():
    cfg = resolve("cavity2d", {"u_lid": 0.1})
    ma = 0.1 / CS
    assert 0.1 < ma < 0.3
    mach = [w for w in cfg.warnings if "Mach" in w]
    assert len(mach) == 1
    assert "u_lid = 0.1" in mach[0] and f"{ma:.3f}" in mach[0]


def test_box_mach_number_is_that_of_its_peak_speed():
    """The box's u_y has amplitude u0 ny / nx (its field is divergence-free on a box of other sides): a 16x64 box at
    u0 = 0.05 peaks at 0.2, Mach 0.35, and was said to run at Mach 0.087 and not refused (the run's first check found
    local Mach 0.33)."""
    cfg = resolve("box", {"lattice": "D2Q9", "nx": 64, "ny": 16, "u0": 0.05})  # u_y's amplitude 0.0125: u0 peaks
    assert cfg.setup.u_max == pytest.approx(0.05)
    cfg = resolve("box", {"lattice": "D2Q9", "nx": 16, "ny": 32, "u0": 0.02})
    assert cfg.setup.u_max == pytest.approx(0.04) and cfg.setup.units["mach"] == pytest.approx(0.04 / CS)
    msg = error("box", {"lattice": "D2Q9", "nx": 16, "ny": 64, "u0": 0.05})
    assert "u0 = 0.05 (peak lattice velocity 0.2): gives Mach number 0.346 > 0.3" in msg, msg
    # the refusal names the setting's own bound where the setting is not the peak, as the warning does ("expected a
    # lattice velocity below 0.173" was read as u0, which must stay below 0.0433 here)
    assert "expected u0 below 0.0433 (a peak lattice velocity below 0.173)" in msg, msg
    msg = error("channel_flow", {"u_lattice": 0.2})  # the mean inflow: its peak is 3/2 of it
    assert "expected u_lattice below 0.115 (a peak lattice velocity below 0.173)" in msg, msg
    resolve("channel_flow", {"u_lattice": 0.1154})  # the bound it names is the setting's: below it, no refusal
    assert "gives Mach number" in error("channel_flow", {"u_lattice": 0.1156})
    assert "expected a lattice velocity below 0.173" in error("cavity2d", {"u_lid": 0.2})  # the lid is the peak
    (w,) = _mach_warnings("box", {"lattice": "D3Q19", "nx": 8, "ny": 16, "nz": 8, "u0": 0.04})
    assert "Mach number 0.139 > 0.1" in w and "u0 below 0.0288" in w, w  # 0.02887, rounded down


@pytest.mark.parametrize("case, key, sets", [
    ("schaefer_turek_3d1z", "u_lattice", {}),  # peak 2.25 u_lattice: the bound 0.07698 was said 0.077
    ("box", "u0", {"lattice": "D2Q9", "nx": 16, "ny": 40}),  # peak 2.5 u0: 0.06928 was said 0.0693
    ("channel_flow", "u_lattice", {}),
    ("box", "u0", {"lattice": "D3Q19", "nx": 8, "ny": 16, "nz": 8}),
])
def test_a_mach_refusals_named_bound_is_one_every_value_below_passes(case, key, sets):
    """The bound a refusal names for the setting is rounded down: rounded to the nearest, schaefer_turek_3d1z was
    told "expected u_lattice below 0.077" and u_lattice = 0.0769 was refused."""
    import re

    msg = error(case, {**sets, key: 0.3})
    bound = float(re.search(rf"expected {key} below ([0-9.]+) ", msg).group(1))
    resolve(case, {**sets, key: bound * (1 - 1e-9)})  # no refusal
    step = 10.0 ** (math.floor(math.log10(bound)) - 2)  # the next value of 3 digits is refused: it is the bound
    assert "gives Mach number" in error(case, {**sets, key: bound + step})


def _mach_warnings(case, sets):
    return [w for w in resolve(case, sets).warnings if "Mach number" in w]


@pytest.mark.parametrize("case, key, sets", [
    ("cavity2d", "u_lid", {"u_lid": 0.1}),
    ("channel_flow", "u_lattice", {"u_lattice": 0.05}),  # the mean inflow: its peak is 3/2 of it
    ("box", "u0", {"u0": 0.09}),
])
def test_mach_warning_names_a_value_of_its_setting_that_keeps_the_mach_number_low(case, key, sets):
    """The warning said "expected a lattice velocity below 0.058", the peak's bound, where a channel's setting is the
    mean (3/2 of it at the peak): it names the setting's own value now, and that value warns no more."""
    (warning,) = _mach_warnings(case, sets)
    below = float(warning.split(f"; {key} below ")[1].split()[0])
    assert not _mach_warnings(case, {**sets, key: below * (1 - 1e-9)}), warning  # rounded down (0.0385 warned)
    assert _mach_warnings(case, {**sets, key: below * 1.02}), warning


def test_a_preset_is_not_warned_about_at_the_mach_number_its_validation_passed_at():
    """schaefer_turek_2d2 and schaefer_turek_3d1z warned "Mach number 0.130 > 0.1" (0.150) at their defaults: the
    first line a new user saw, at the settings whose rows in docs/validation.md pass. Within the validated Mach
    number they say nothing; above it (3D-1Z's smaller n, 2D-2's faster inflow) the warning names the validated one."""
    for case in ("schaefer_turek_2d2", "schaefer_turek_3d1z"):
        assert CASES[case].validated_mach > 0.1
        assert not _mach_warnings(case, {}), case
    (w,) = _mach_warnings("schaefer_turek_3d1z", {"n": 10})
    assert "Mach number 0.195 > 0.1" in w and "schaefer_turek_3d1z's validation passed at Mach 0.150" in w, w
    assert "a smaller tau or a larger n (a peak lattice velocity below 0.0577) keeps Ma <= 0.1" in w, w
    (w,) = _mach_warnings("schaefer_turek_2d2", {"u_lattice": 0.06})
    assert "schaefer_turek_2d2's validation passed at Mach 0.130" in w, w
    # a case without a validated Mach number warns above 0.1 as before, and says no validation
    (w,) = _mach_warnings("channel_flow", {"u_lattice": 0.05})
    assert "Mach number 0.130 > 0.1" in w and "validation" not in w, w
    assert not [w for w in resolve("cavity2d", {"u_lid": 0.05}).warnings if "Mach" in w]


# --- overrides -------------------------------------------------------------------------------------

def test_keyword_overrides_and_none():
    cfg = resolve("cavity2d", {}, steps=None, progress_every=None)
    assert cfg.common["steps"] == 0
    cfg = resolve("cavity2d", {}, steps=7)
    assert cfg.common["steps"] == 7
    msg = error("cavity2d", steps=-1)
    assert "steps = -1" in msg and "expected a value >= 0" in msg


# --- TOML files --------------------------------------------------------------------------------------

def test_toml_file_valid(tmp_path):
    f = tmp_path / "run.toml"
    f.write_text('case = "cavity2d"\nn = 32\nre = 400.0\ncollision = "trt"\n')
    cfg = resolve(str(f), {})
    assert cfg.case.name == "cavity2d"
    assert cfg.params["n"] == 32 and cfg.params["re"] == 400.0
    assert cfg.common["collision"] == "trt"
    assert cfg.setup.shape == (34, 34)
    assert cfg.source == str(f)


def test_set_overrides_toml_file(tmp_path):
    f = tmp_path / "run.toml"
    f.write_text('case = "cavity2d"\nn = 32\n')
    cfg = resolve(str(f), parse_sets(["n=16"]))
    assert cfg.params["n"] == 16


def test_toml_typo_names_file_and_key(tmp_path):
    f = tmp_path / "typo.toml"
    f.write_text('case = "cavity2d"\nrey = 400\n')
    msg = error(str(f))
    assert str(f) in msg
    assert "unknown key 'rey'" in msg and "did you mean 're'" in msg and "400" in msg


def test_toml_bad_value_names_file(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('case = "cavity2d"\nn = "big"\n')
    msg = error(str(f))
    assert str(f) in msg and "n = 'big'" in msg and "expected an integer" in msg


def test_toml_nested_table_refused(tmp_path):
    f = tmp_path / "nested.toml"
    f.write_text('case = "cavity2d"\n[cavity]\nn = 32\n')
    msg = error(str(f))
    assert str(f) in msg and "'cavity'" in msg and "table" in msg and "expected" in msg


def test_toml_without_case(tmp_path):
    f = tmp_path / "nocase.toml"
    f.write_text("n = 32\n")
    msg = error(str(f))
    assert str(f) in msg and "'case'" in msg and "missing" in msg
    assert "cavity2d" in msg  # what was expected


def test_toml_syntax_error(tmp_path):
    f = tmp_path / "broken.toml"
    f.write_text('case = "cavity2d\n')
    msg = error(str(f))
    assert str(f) in msg and "not valid TOML" in msg


def test_toml_file_missing(tmp_path):
    f = tmp_path / "nope.toml"
    msg = error(str(f))
    assert str(f) in msg and "not found" in msg


# --- --set parsing ---------------------------------------------------------------------------------

def test_parse_sets_types():
    got = parse_sets(["re=400", "lattice=D3Q19", "u_lid=0.1", "flag=true", 'name="a b"', " n = 32 "])
    assert got == {"re": 400, "lattice": "D3Q19", "u_lid": 0.1, "flag": True, "name": "a b", "n": 32}
    assert type(got["re"]) is int and type(got["u_lid"]) is float and type(got["flag"]) is bool
    assert parse_sets(None) == {} and parse_sets([]) == {}


def test_parse_sets_same_key_twice_with_two_values_is_refused():
    """--set n=8 ... --set n=16 ran n = 16, the 8 dropped unsaid (a job script's slip): one line naming both."""
    with pytest.raises(ConfigError) as exc:
        parse_sets(["n=8", "re=100", "n=16"])
    msg = str(exc.value)
    assert msg.startswith("n: ") and "--set 'n=8' and --set 'n=16' give two values" in msg and "expected n once" in msg
    with pytest.raises(ConfigError, match="give two values"):
        parse_sets(["output_images=true", "output_images=1"])  # 1 == True, but not the same setting


def test_parse_sets_same_key_twice_with_the_same_value_is_fine():
    assert parse_sets(["n=8", " n = 8 ", "re=100"]) == {"n": 8, "re": 100}
    assert parse_sets(["re=100", "re=100.0"]) == {"re": 100.0}


def test_two_values_of_one_set_key_on_the_command_line_is_one_line(cli, tmp_path):
    rc, out, err = cli("run", "cavity2d", "--set", "n=8", "--set", "n=16", "--dry-run", "--out", tmp_path)
    assert rc == 2 and err.strip() == ("distlbm: configuration error: n: --set 'n=8' and --set 'n=16' give two "
                                       "values; expected n once (or the same value in both)"), err


@pytest.mark.parametrize("item", ["x", "re400"])
def test_parse_sets_without_equals(item):
    with pytest.raises(ConfigError) as exc:
        parse_sets([item])
    msg = str(exc.value)
    assert repr(item) in msg and "expected key=value" in msg


def test_parse_sets_empty_key():
    with pytest.raises(ConfigError, match="key is empty"):
        parse_sets(["=3"])


# --- a case of a user's own (README "From Python"): mistakes in what its build returns ------------------------------

def _user_case(monkeypatch, change):
    """A 3D periodic box case entered in CASES whose Setup `change(setup, shape)` edits; returns its name."""
    import numpy as np

    from distlbm.cases.base import Case, Param, Setup, rest_state
    from distlbm.physics import boundaries as bc

    class UserBox(Case):
        name = "test_user_box"
        dims = (3,)
        default_lattice = "D3Q19"
        params = (Param("n", 4, int, "cells per side", positive=True),)

        def build(self, p, lattice):
            shape = (p["n"],) * 3
            s = Setup(lattice, shape, 0.8, rest_state(shape), 10, 0.01, force=(1e-6, 0.0, 0.0), features=bc.Features())
            change(s, shape, np)
            return s

    monkeypatch.setitem(CASES, UserBox.name, UserBox())
    return UserBox.name


def _sim_error(name) -> str:
    from distlbm.driver import Simulation

    with pytest.raises(ConfigError) as exc:
        Simulation(resolve(name, {}), out_dir=None, log=lambda m: None)
    return str(exc.value)


def test_user_case_force_field_is_refused_in_one_line(monkeypatch):
    # an array of per-cell forces failed in the step: "The truth value of an array ... is ambiguous"
    def change(s, shape, np):
        s.force = np.zeros((3,) + shape)

    msg = error(_user_case(monkeypatch, change))
    assert "Setup.force = an array of shape (3, 4, 4, 4)" in msg and "a tuple of 3 finite numbers" in msg


def test_user_case_geometry_without_features_is_refused(monkeypatch):
    # with Features() the geometry was never called: its walls silently became a periodic box
    def change(s, shape, np):
        s.geometry = lambda index: (np.ones(shape, np.uint8), None, None)

    msg = error(_user_case(monkeypatch, change))
    assert "Setup.geometry is given but Setup.features = Features() names no boundary kind" in msg


@pytest.mark.parametrize("what,expected", [
    ("kind_shape", "geometry(index) returned kind of shape (2, 2) for the block (0:"),
    ("kind_float", "geometry(index) returned kind of dtype float64"),
    ("velocity_shape", "geometry(index) returned velocity of shape (2, "),
    ("inlet_unnamed", "returned kind 17 (inlet-x) for the block"),
    ("inlet_unnamed", "which Setup.features = Features(walls=True) does not name; expected only fluid, wall"),
    ("initial_shape", "initial(index) returned u shape (2, "),
    ("initial_shape", "expected a float array of shape (3, "),
])
def test_user_case_wrong_arrays_are_one_clear_error(monkeypatch, what, expected):
    # a kind of the wrong shape failed as a bare AssertionError of tuples, an initial u of the wrong shape as a
    # broadcasting error in init_populations, and an inlet kind the features did not name ran without its inlet
    from distlbm.cases.base import block_shape
    from distlbm.physics import boundaries as bc

    def change(s, shape, np):
        s.features = bc.Features(walls=True)
        kind = np.zeros(shape, np.uint8)
        kind[:, 0] = bc.WALL
        vel = None
        if what == "kind_shape":
            kind = np.zeros((2, 2), np.uint8)
        elif what == "kind_float":
            kind = kind.astype(float)
        elif what == "velocity_shape":
            s.features = bc.Features(walls=True, moving=True)
            vel = np.zeros((2,) + shape)  # D = 3: the leading size is wrong
        elif what == "inlet_unnamed":
            kind[0] = bc.inlet_kind(0, -1)
        elif what == "initial_shape":
            s.initial = lambda index: (np.ones(block_shape(index, shape)), np.zeros((2,) + block_shape(index, shape)),
                                       None)
        s.geometry = lambda index: (kind[index] if kind.ndim == 3 else kind,
                                    None if vel is None else vel[(slice(None),) + index], None)

    msg = _sim_error(_user_case(monkeypatch, change))
    assert msg.startswith("case test_user_box: ") and expected in msg, msg


# --- case = "module:Class": a user's case by its import path (a TOML file's or the command line's) ----------------

_USER_MODULE = '''
from distlbm.cases.base import Case, Param, Setup, rest_state
from distlbm.physics import boundaries as bc


class MyBox(Case):
    name = "{name}"
    dims = (3,)
    default_lattice = "D3Q19"
    params = (Param("n", 4, int, "cells per side", positive=True),)

    def build(self, p, lattice):
        shape = (p["n"],) * 3
        return Setup(lattice, shape, 0.8, rest_state(shape), 10, 0.01, features=bc.Features())
'''


def _module(tmp_path, monkeypatch, module, text):
    (tmp_path / f"{module}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))


def test_user_case_by_module_path_resolves_and_is_recorded(tmp_path, monkeypatch):
    _module(tmp_path, monkeypatch, "user_case_ok", _USER_MODULE.format(name="my_box"))
    cfg_file = tmp_path / "run.toml"
    cfg_file.write_text('case = "user_case_ok:MyBox"\nn = 6\n')
    for cfg in (resolve("user_case_ok:MyBox", {"n": 6}), resolve(str(cfg_file), {})):
        assert cfg.case.name == "my_box" and cfg.setup.shape == (6, 6, 6)
        # what checkpoints keep: a restart imports the case again by the same path
        assert cfg.as_dict()["case"] == "user_case_ok:MyBox" and cfg.common["case"] == "user_case_ok:MyBox"
    assert "my_box" not in CASES  # the built-in list is not changed


@pytest.mark.parametrize("spec,text,expected", [
    ("user-case:MyBox", None, "case = 'user-case:MyBox': expected 'package.module:ClassName' naming a "
                              "distlbm.cases.base.Case subclass"),
    ("user_case_absent:MyBox", None, "case = 'user_case_absent:MyBox': no module named 'user_case_absent' on the "
                                     "Python path"),
    ("user_case_noattr:Other", "x = 1\n", "case = 'user_case_noattr:Other': Other in user_case_noattr not found"),
    ("user_case_notcase:x", "x = 1\n", "case = 'user_case_notcase:x': x in user_case_notcase is int"),
    ("user_case_raises:MyBox", "raise RuntimeError('no data file')\n",
     "case = 'user_case_raises:MyBox': importing user_case_raises failed: RuntimeError: no data file"),
    ("user_case_clash:MyBox", _USER_MODULE.format(name="cavity2d"),
     "case = 'user_case_clash:MyBox': its name 'cavity2d' is a built-in case's; expected another name"),
])
def test_user_case_bad_module_path_is_one_clear_error(tmp_path, monkeypatch, spec, text, expected):
    if text is not None:
        _module(tmp_path, monkeypatch, spec.split(":")[0], text)
    assert expected in error(spec)


def test_user_case_observe_that_raises_keeps_the_summary(monkeypatch, tmp_path):
    # an observe that raised lost the whole summary (with a traceback) after the run had run its steps
    from distlbm.cases.base import Case, Param, Setup, rest_state
    from distlbm.driver import Simulation

    class Failing(Case):
        name = "test_user_failing"
        dims = (2,)
        default_lattice = "D2Q9"
        params = (Param("n", 4, int, "cells per side", positive=True),)

        def build(self, p, lattice):
            return Setup(lattice, (4, 4), 0.8, rest_state((4, 4)), 5, 0.01)

        def observe(self, view, p):
            raise RuntimeError("no reference file")

    monkeypatch.setitem(CASES, Failing.name, Failing())
    sim = Simulation(resolve(Failing.name, {"steady_tol": 0}), out_dir=tmp_path / "f", log=lambda m: None)
    summary = sim.run(5)
    sim.write_summary(summary)
    sim.close()
    assert summary["step"] == 5 and summary["observables"]["error"] == "RuntimeError: no reference file"
    assert [c["pass"] for c in summary["observables"]["checks"]] == [False]
    assert any(w.startswith("the case test_user_failing's observe raised RuntimeError: no reference file (at ")
               for w in summary["warnings"]), summary["warnings"]
    assert (tmp_path / "f" / "summary.json").is_file()


@pytest.mark.parametrize("param,expected", [
    (("n", 4.5, int), "case 'test_user_defaults': its Param default n = 4.5: expected an integer"),
    (("mode", "x", str), "case 'test_user_defaults': its Param default mode = 'x'"),
])
def test_user_case_param_default_its_own_check_refuses_is_said(monkeypatch, param, expected):
    # a default of the wrong type or outside its choices ran as given, unsaid (n = 4.5 as an int)
    from distlbm.cases.base import Case, Param, Setup, rest_state

    class Defaults(Case):
        name = "test_user_defaults"
        dims = (2,)
        default_lattice = "D2Q9"
        params = (Param(*param, "a parameter", choices=("a", "b") if param[2] is str else ()),)

        def build(self, p, lattice):
            return Setup(lattice, (4, 4), 0.8, rest_state((4, 4)), 5, 0.01)

    monkeypatch.setitem(CASES, Defaults.name, Defaults())
    assert expected in error(Defaults.name)
    resolve(Defaults.name, {param[0]: 4 if param[2] is int else "a"})  # a valid value given: no complaint


def test_user_case_observe_that_raises_is_a_failed_check_of_the_validation(monkeypatch):
    # the summary kept after a failed observe had no checks: scripts/validate.py reported "(the case returns no
    # checks)", an open verdict, and counted no failure for a case whose analysis had raised
    from distlbm import validation as V
    from distlbm.cases.base import Case, Param, Setup, rest_state

    class Failing(Case):
        name = "test_user_failing_validate"
        dims = (2,)
        default_lattice = "D2Q9"
        params = (Param("n", 4, int, "cells per side", positive=True),)

        def build(self, p, lattice):
            return Setup(lattice, (4, 4), 0.8, rest_state((4, 4)), 3, 0.01)

        def observe(self, view, p):
            raise RuntimeError("no reference file")

    monkeypatch.setitem(CASES, Failing.name, Failing())
    res = V.run_entry(V.Entry("x", Failing.name, {"steady_tol": 0}), reduced=False, plot_dir=None, log=lambda m: None)
    assert [c["pass"] for c in res.checks] == [False], res.checks
    assert "observe raised RuntimeError: no reference file" in res.checks[0]["note"]


def test_user_case_init_from_its_own_checkpoint_is_not_another_case(tmp_path, monkeypatch):
    # the checkpoint records 'module:Class', the run compared it with the case's name: "a checkpoint of case
    # 'user_case_init:MyBox', this run is 'my_init_box'", a warning for the same case
    from distlbm.driver import Simulation

    _module(tmp_path, monkeypatch, "user_case_init", _USER_MODULE.format(name="my_init_box"))
    sets = {"n": 4, "steady_tol": 0, "checkpoint_every": 5}
    sim = Simulation(resolve("user_case_init:MyBox", sets), out_dir=tmp_path / "a", log=lambda m: None)
    sim.run(5)
    sim.close()
    said = []
    sim = Simulation(resolve("user_case_init:MyBox", sets), out_dir=tmp_path / "b", log=said.append,
                     init_from=str(tmp_path / "a"))
    sim.close()
    assert any("initial state: the populations of" in m for m in said), said
    assert not [m for m in said if "warning" in m], said
