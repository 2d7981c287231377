"""Bad configuration input is one ConfigError naming the key, the value and what was expected (issue 11):
files that are not regular UTF-8 TOML files, duplicate output fields, two different cases, and numbers
too large for the lattice, the int32 step counter or the compute dtype. Never a traceback, never a hang,
never silent acceptance."""

from __future__ import annotations

import os
import re
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from distlbm.cases import CASES
from distlbm.cases.base import ConfigError
from distlbm.config import COMMON_PARAMS, INT32_MAX, parse_sets, resolve

ERR_PREFIX = "distlbm: configuration error:"


def error(case_or_file, sets=None, **overrides) -> str:
    with pytest.raises(ConfigError) as exc:
        resolve(case_or_file, sets or {}, **overrides)
    return str(exc.value)


def assert_one_line(rc, out, err, *parts):
    assert rc == 2, (rc, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(ERR_PREFIX), err
    for p in parts:
        assert p in lines[0], (p, lines[0])


# --- A1: the configuration file ------------------------------------------------------------------------

def test_directory_named_toml(tmp_path, cli):
    d = tmp_path / "somedir.toml"
    d.mkdir()
    msg = error(str(d))
    assert repr(str(d)) in msg and "is a directory" in msg and "expected a regular TOML file" in msg
    rc, out, err = cli("run", d)
    assert_one_line(rc, out, err, str(d), "is a directory")


def test_plain_directory_as_target(tmp_path, cli):
    """`distlbm run /tmp`: an existing path that is no case name is a file target, refused clearly."""
    msg = error(str(tmp_path))
    assert repr(str(tmp_path)) in msg and "is a directory" in msg
    rc, out, err = cli("run", tmp_path)
    assert_one_line(rc, out, err, "is a directory")


def test_directory_named_like_a_case_does_not_shadow_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "box").mkdir()
    cfg = resolve("box", {"n": 8})
    assert cfg.case.name == "box" and cfg.setup.shape == (8, 8, 8)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "run.toml"
    os.mkfifo(fifo)
    result = {}

    def target():
        try:
            resolve(str(fifo), {})
        except ConfigError as e:
            result["msg"] = str(e)
        except BaseException as e:  # noqa: BLE001  (reported below)
            result["exc"] = e

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(20)
    if t.is_alive():  # unblock the reader so that the test process can end
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        pytest.fail("resolve() blocked on a FIFO")
    assert "msg" in result, result
    assert "FIFO" in result["msg"] and str(fifo) in result["msg"] and "expected a regular TOML file" in result["msg"]


def test_a_file_with_a_byte_order_mark_is_read(tmp_path):
    """Windows editors begin a UTF-8 file with a byte-order mark: it was 'not valid TOML: Invalid statement (at line
    1, column 1)'."""
    f = tmp_path / "bom.toml"
    f.write_bytes(b"\xef\xbb\xbf" + 'case = "box"\nn = 12\n'.encode())
    assert resolve(str(f)).params["n"] == 12


def test_a_key_in_capitals_gets_its_name(tmp_path):
    """Keys are lower case: --set N=32 got no 'did you mean' (the close-match ratio of 'N' and 'n' is 0)."""
    assert "unknown key 'N' (= 32); did you mean 'n'?" in error("box", {"N": 32})


def test_nz_on_a_2d_lattice_is_said_to_have_no_effect():
    from distlbm.config import resolve

    assert "nz = 5 has no effect: it applies with a 3D lattice (D3Q19, D3Q27)" in \
        resolve("box", {"lattice": "D2Q9", "nz": 5}).warnings
    assert not [w for w in resolve("box", {"lattice": "D3Q19", "n": 8, "nz": 5}).warnings if w.startswith("nz")]


def test_a_case_parameter_others_override_is_said_or_refused():
    """box n beside nx, ny and nz, and duct aspect beside nz, were silently unused; a duct aspect * n that rounded
    to no cell ran a duct of one cell across z (aspect 0.01 gave 1/16), and one not whole another aspect, unsaid."""
    said = resolve("box", {"n": 8, "nx": 8, "ny": 6, "nz": 4}).warnings
    assert "n = 8 has no effect: nx and ny and nz are all given (n is the side of those not given)" in said
    assert not [w for w in resolve("box", {"n": 8, "nx": 8, "ny": 6}).warnings if w.startswith("n = ")]
    assert ("n = 8 has no effect: nx and ny are all given" in
            " ".join(resolve("box", {"lattice": "D2Q9", "n": 8, "nx": 8, "ny": 6}).warnings))
    with pytest.raises(ConfigError, match="aspect = 2.0 and nz = 4: both given, but each fixes the same thing"):
        resolve("duct", {"aspect": 2.0, "nz": 4})
    with pytest.raises(ConfigError, match=r"aspect = 0.01: round\(aspect \* n\) = round\(0.16\) = 0 fluid cells "
                                          r"across z \(n = 16\); expected aspect \* n > 0.5 \(at least one "
                                          r"cell\), or nz"):
        resolve("duct", {"aspect": 0.01})
    cfg = resolve("duct", {"aspect": 0.3})
    assert cfg.setup.shape == (2, 18, 7)
    assert any(w.startswith("aspect = 0.3: the z extent is round(aspect * n) = round(4.8) = 5 fluid cells, aspect "
                            "0.3125") for w in cfg.warnings), cfg.warnings
    assert not [w for w in resolve("duct", {"aspect": 0.5}).warnings if w.startswith("aspect")]


def test_a_restart_may_drop_a_parameter_that_others_override_in_both_runs():
    """A box run given n beside nx, ny and nz (n unused, said), restarted without n, was refused ("n: checkpoint 12,
    now 64"); so was a duct checkpoint of a run that gave aspect beside nz (before they were refused together),
    either way. A parameter that others override in both runs is no physics of either."""
    from distlbm.io.checkpoint import CheckpointError

    for case, old, now in (("box", {"n": 12, "nx": 8, "ny": 6, "nz": 4}, {"nx": 8, "ny": 6, "nz": 4}),
                           ("duct", {"aspect": 2.0, "nz": 4}, {"nz": 4})):
        cfg = resolve(case, now)
        meta = {"config": {**cfg.as_dict(), **old}, "shape": list(cfg.setup.shape)}
        cfg.check_restart(meta, "ckpt_000000010.h5")  # no error
    cfg = resolve("box", {"nx": 8, "ny": 6})  # n is the side along z here: it is physics
    meta = {"config": {**cfg.as_dict(), "n": 12}, "shape": list(cfg.setup.shape)}
    with pytest.raises(CheckpointError, match="n: checkpoint 12, now 64"):
        cfg.check_restart(meta, "ckpt_000000010.h5")


def test_a_restart_compares_obstacles_by_what_they_say_not_how_they_are_spelled():
    """A restart given 'circle(0.5, 0.2, 0.05)' for the run's 'circle(0.5,0.2,0.05)' (spaces, a ';' after the last
    body, 0.50 or 5e-2 for the same numbers) was refused as other obstacles; another number still is."""
    from distlbm.io.checkpoint import CheckpointError

    run = {"n": 8, "obstacles": "circle(0.5,0.2,0.05); box(1,0.1,1.2,0.3)"}
    cfg = resolve("channel_flow", run)
    meta = {"config": cfg.as_dict(), "shape": list(cfg.setup.shape)}
    resolve("channel_flow", {**run, "obstacles": " circle( 0.50 , 0.2, 5e-2 );box(1, 0.1, 1.2, 0.3);"}).check_restart(
        meta, "ckpt_000000010.h5")  # no error
    for now in ({"obstacles": "circle(0.5,0.2,0.051); box(1,0.1,1.2,0.3)"},
                {"obstacles": "box(1,0.1,1.2,0.3); circle(0.5,0.2,0.05)"},  # bodies are numbered in order
                {"obstacles": "circle(0.5,0.2,0.05) + box(1,0.1,1.2,0.3)"}):  # one body, not two
        with pytest.raises(CheckpointError, match="obstacles: checkpoint"):
            resolve("channel_flow", {**run, **now}).check_restart(meta, "ckpt_000000010.h5")
    stl = Path(__file__).resolve().parents[2] / "examples" / "sphere.stl"
    run = {"n": 4, "lattice": "D3Q19", "obstacles": "", "stl": str(stl), "stl_scale": 0.1,
           "stl_translate": "0.5,0.2,0.2"}
    cfg = resolve("channel_flow", run)
    meta = {"config": cfg.as_dict(), "shape": list(cfg.setup.shape)}
    resolve("channel_flow", {**run, "stl_translate": "0.50, 2e-1,0.2"}).check_restart(meta, "ckpt_000000010.h5")
    with pytest.raises(CheckpointError, match="stl_translate: checkpoint"):
        resolve("channel_flow", {**run, "stl_translate": "0.5,0.21,0.2"}).check_restart(meta, "ckpt_000000010.h5")


def test_an_option_and_a_set_of_the_same_setting_must_agree(cli):
    """--steps 10 --set steps=20 dropped one of them, unsaid (the option won); the same value twice is fine."""
    with pytest.raises(ConfigError, match=r"^steps: --steps 10 and --set steps=20 give two values; expected one"):
        resolve("box", {"n": 8, "steps": 20}, steps=10)
    assert resolve("box", {"n": 8, "steps": 10}, steps=10).control.steps == 10
    assert resolve("box", {"n": 8, "wall_time": "01:00:00"}, wall_time=3600.0).control.wall_time == 3600.0
    # the same value spelled otherwise: a TOML time of day, an array for a list setting (the review's cases)
    assert resolve("box", parse_sets(["n=8", "wall_time=01:00:00"]), wall_time=3600.0).control.wall_time == 3600.0
    assert resolve("box", parse_sets(["lattice=D2Q9", "n=8", "mesh=[1,1]"]), mesh="1x1").decomposition.mesh == "1x1"
    with pytest.raises(ConfigError, match=r"wall_time: --wall-time 3600 s and --set wall_time='02:00:00' give two"):
        resolve("box", parse_sets(["n=8", "wall_time=02:00:00"]), wall_time=3600.0)
    rc, out, err = cli("run", "box", "--set", "n=8", "--mesh", "2x1x1", "--set", "mesh=1x2x1", "--dry-run")
    assert rc == 2 and "mesh: --mesh '2x1x1' and --set mesh='1x2x1' give two values" in err, err


def test_a_set_value_in_hex_octal_or_binary_is_text_not_a_number():
    """--set mesh=0x2 was TOML's hex integer 2 (a mesh of two devices), n=0b11 the number 3."""
    assert parse_sets(["mesh=0x2", "n=0b11", "steps=0o7", "re=100", "x=1_000"]) == {
        "mesh": "0x2", "n": "0b11", "steps": "0o7", "re": 100, "x": 1000}
    with pytest.raises(ConfigError, match=r"mesh = '0x2': expected 3 positive sizes"):
        resolve("box", parse_sets(["mesh=0x2"]))
    with pytest.raises(ConfigError, match=r"n = '0b11': expected an integer"):
        resolve("box", parse_sets(["n=0b11"]))


@pytest.mark.parametrize("item, said", [
    ("tau=.8", "tau = '.8': expected a number (TOML reads '.8' as text: write 0.8)"),
    ("tau=8.", "tau = '8.': expected a number (TOML reads '8.' as text: write 8.0)"),
    ("n=0008", "n = '0008': expected an integer (TOML reads '0008' as text: write 8)"),
    # an integer's own digits, not a float's (it said 'write 9007199254740992')
    ("n=09007199254740993", "n = '09007199254740993': expected an integer (TOML reads '09007199254740993' as "
                            "text: write 9007199254740993)"),
])
def test_a_number_in_a_form_toml_reads_as_text_says_how_to_write_it(item, said):
    """--set tau=.8 was "tau = '.8': expected a number", which .8 looked like: TOML has no '.8', '8.' or '0008', so
    --set took them as text. The line says how to write the number; text that is no number gets no such clause."""
    assert error("box", parse_sets([item])).endswith(said)
    assert error("box", parse_sets(["tau=abc"])).endswith("tau = 'abc': expected a number")
    assert error("box", parse_sets(["n=.5"])).endswith("n = '.5': expected an integer")


def test_a_set_value_with_a_line_break_is_not_more_toml():
    """--set 'tau=0.8<newline>n=4' read 'v = 0.8<newline>n=4' as TOML: tau = 0.8, the n = 4 dropped unsaid."""
    assert parse_sets(["tau=0.8\nn=4", "n=8 # a comment", "s='a'"]) == {"tau": "0.8\nn=4", "n": 8, "s": "a"}
    with pytest.raises(ConfigError, match=r"tau = '0.8\\nn=4': expected a number"):
        resolve("box", parse_sets(["tau=0.8\nn=4"]))


@pytest.mark.parametrize("mesh", ["1_0x1x1", "+2x1x1", "2x1x\u0661", "0x10x1", "0b1x1x1"])
def test_a_mesh_is_decimal_sizes_only(mesh, cli):
    """int() read a mesh's sizes: 1_0x1x1 was a mesh of 10 devices, +2 was 2, an Arabic-Indic digit one; the sizes
    of a mesh are decimal digits (0x10x1 and 0b1x1x1 are no hex or binary numbers either)."""
    with pytest.raises(ConfigError, match=r"^--mesh = .*: expected (sizes of decimal digits separated by 'x'|"
                                          r"3 positive sizes)"):
        resolve("box", {"n": 8}, mesh=mesh)
    assert resolve("box", {"n": 8, "mesh": " 1X1x1 "}).decomposition.mesh == " 1X1x1 "  # (as before)
    rc, out, err = cli("bench", "--size", 8, "--steps", 1, "--repeat", 1, "--mesh", "1_0x1x1")
    assert rc == 2 and "--mesh = '1_0x1x1': expected sizes of decimal digits separated by 'x'" in err, err


def test_a_mesh_of_the_wrong_rank_names_the_option_or_key_given(tmp_path, cli):
    """--mesh 2x2x2 for a 2D lattice was refused as 'mesh = ...', a key the user had not written."""
    rc, out, err = cli("run", "cavity2d", "--set", "n=8", "--mesh", "2x2x2", "--dry-run", "--out", tmp_path / "a")
    assert_one_line(rc, out, err, "--mesh = '2x2x2': expected 2 positive sizes for a 2D lattice, e.g. 2x2")
    rc, out, err = cli("bench", "--lattice", "D2Q9", "--size", 8, "--steps", 1, "--repeat", 1, "--mesh", "2x2x2")
    assert_one_line(rc, out, err, "--mesh = '2x2x2': expected 2 positive sizes")
    path = tmp_path / "run.toml"
    path.write_text('case = "cavity2d"\nn = 8\nmesh = "2x2x2"\n')
    assert error(str(path)) == f"{path}: mesh = '2x2x2': expected 2 positive sizes for a 2D lattice, e.g. 2x2"
    assert error("cavity2d", {"mesh": "2x2x2"}).startswith("mesh = '2x2x2': ")  # --set mesh=: the key


@pytest.mark.parametrize("given, shown", [("[]", "[]"), ('""', "''"), ('" "', "' '")])
def test_an_empty_mesh_is_refused(tmp_path, given, shown):
    """mesh = [] in a file ran on the default mesh, unsaid: an empty mesh is no mesh."""
    path = tmp_path / "run.toml"
    path.write_text(f'case = "box"\nn = 8\nmesh = {given}\n')
    assert error(str(path)) == (f"{path}: mesh = {shown}: expected sizes separated by 'x', e.g. 2x2x2 (leave it out "
                                f"for the default mesh)")
    assert error("box", {"n": 8}, mesh="").startswith("--mesh = '': expected sizes separated by 'x'")


def test_bench_refuses_an_empty_mesh(cli):
    """bench --mesh '' ran on one device, unsaid, where `distlbm run --mesh ''` is refused."""
    rc, out, err = cli("bench", "--size", 8, "--steps", 1, "--repeat", 1, "--mesh", "")
    assert_one_line(rc, out, err, "--mesh = '': expected sizes separated by 'x', e.g. 2x2x2 (leave it out for the "
                                  "default mesh)")


def test_one_place_says_the_empty_mesh_refusal(cli, monkeypatch):
    """The empty mesh's refusal was written twice, in config.resolve and in bench (which does not go through
    resolve): both now say config.empty_mesh's, so that a change to its text reaches both."""
    from distlbm import config

    said = []

    def empty_mesh(given, key="mesh"):
        said.append((given, key))
        return ConfigError(f"{key}: the one text")

    monkeypatch.setattr(config, "empty_mesh", empty_mesh)
    rc, out, err = cli("bench", "--size", 8, "--steps", 1, "--repeat", 1, "--mesh", "")
    assert_one_line(rc, out, err, "--mesh: the one text")
    assert error("box", {"n": 8}, mesh="") == "--mesh: the one text"
    assert error("box", {"n": 8, "mesh": []}) == "mesh: the one text"
    assert said == [("", "--mesh"), ("", "--mesh"), ([], "mesh")]


@pytest.mark.parametrize("text, item", [(";", "1 of 1"), ("circle(0.2,0.2,0.05);;circle(1,0.2,0.05)", "2 of 3"),
                                        ("; circle(0.2,0.2,0.05)", "1 of 2")])
def test_an_empty_obstacle_between_semicolons_is_refused(text, item):
    """obstacles = ';' ran with no body, and ';;' skipped the shape left out, unsaid; one ';' at the end is fine."""
    with pytest.raises(ConfigError, match=f"item {item} between ';' is empty; expected shapes separated by ';'"):
        resolve("channel_flow", {"n": 5, "obstacles": text})
    assert resolve("channel_flow", {"n": 5, "obstacles": "circle(0.2,0.2,0.05);"}).setup.features.bodies == 1


def test_a_geometry_error_of_a_file_names_the_file(tmp_path):
    """Errors raised while the case is built (a probe outside the channel, an obstacle) did not name the TOML file
    whose setting it was, as the other errors do."""
    path = tmp_path / "run.toml"
    path.write_text('case = "channel_flow"\nn = 5\nprobes = "9,9"\n')
    with pytest.raises(ConfigError, match=rf"^{path}: probes = '9,9': point \(9, 9\) lies outside the channel"):
        resolve(str(path))
    path.write_text('case = "channel_flow"\nn = 10\nobstacles = "box(1,0,1.021,0.2035);box(1.029,0.1935,1.05,0.41)"\n')
    with pytest.raises(ConfigError, match=rf"^{path}: obstacles = .*leave no fluid path"):
        resolve(str(path))


def test_a_mesh_of_a_file_that_does_not_split_its_lattice_names_the_file(tmp_path, cli):
    """The mesh's test against the lattice comes after resolve (the dry run's, the run's): its error did not name
    the TOML file whose settings they were, as resolve's errors and the geometry's scans do. The run's named
    neither the file's `mesh` key nor --mesh where the dry run's did (config.mesh_split_named, both)."""
    path = tmp_path / "run.toml"
    path.write_text('case = "box"\nn = 8\nmesh = "3x1x1"\n')
    rc, out, err = cli("run", path, "--dry-run", "--out", tmp_path / "a")
    assert rc == 2 and err.startswith(f"{ERR_PREFIX} {path}: mesh = '3x1x1': lattice size 8 along x does not "
                                      f"divide over 3 devices"), err
    rc, out, err = cli("run", path, "--out", tmp_path / "b")  # the run, in this process: the same line (8 devices)
    assert rc == 2 and err.strip().splitlines() == [
        f"{ERR_PREFIX} {path}: mesh = '3x1x1': lattice size 8 along x does not divide over 3 devices (mesh 3x1x1); "
        f"sizes that would work: 6 or 9, or a mesh size along x of 1, 2, 4 or 8"], err
    rc, out, err = cli("run", path, "--mesh", "3x1x1", "--out", tmp_path / "e")  # the option, as the dry run says it
    assert rc == 2 and err.strip().splitlines() == [
        f"{ERR_PREFIX} --mesh = '3x1x1': lattice size 8 along x does not divide over 3 devices (mesh 3x1x1); "
        f"sizes that would work: 6 or 9, or a mesh size along x of 1, 2, 4 or 8"], err
    rc, out, err = cli("run", "box", "--set", "n=8", "--mesh", "3x1x1", "--dry-run", "--out", tmp_path / "c")
    assert rc == 2 and err.startswith(f"{ERR_PREFIX} --mesh = '3x1x1': lattice size 8"), err  # the option given
    # the file's name is not put in front of an option of the command line (its mesh said too)
    rc, out, err = cli("run", path, "--mesh", "3x1x1", "--dry-run", "--out", tmp_path / "d")
    assert rc == 2 and err.startswith(f"{ERR_PREFIX} --mesh = '3x1x1': lattice size 8"), err


def test_non_utf8_file(tmp_path, cli):
    f = tmp_path / "latin1.toml"
    f.write_bytes('case = "box"\n# caf\xe9\n'.encode("latin-1"))
    msg = error(str(f))
    assert str(f) in msg and "not UTF-8" in msg and "0xe9" in msg
    rc, out, err = cli("run", f)
    assert_one_line(rc, out, err, str(f), "UTF-8")


def test_unreadable_file_is_one_line(tmp_path, monkeypatch, cli):
    f = tmp_path / "secret.toml"
    f.write_text('case = "box"\n')
    real_open = os.open

    def deny(path, *a, **k):
        if str(path) == str(f):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *a, **k)

    monkeypatch.setattr(os, "open", deny)
    msg = error(str(f))
    assert str(f) in msg and "Permission denied" in msg and "expected a readable TOML file" in msg
    rc, out, err = cli("run", f)
    assert_one_line(rc, out, err, "Permission denied")


def test_file_name_too_long(tmp_path):
    name = str(tmp_path / ("x" * 5000 + ".toml"))
    msg = error(name)
    assert "cannot be read" in msg and "expected a readable TOML file" in msg


def test_regular_toml_still_loads(tmp_path):
    f = tmp_path / "ok.toml"
    f.write_text('case = "box"\nn = 8\n')
    assert resolve(str(f), {}).setup.shape == (8, 8, 8)


def test_toml_arrays_for_list_settings(tmp_path, cli):
    """A TOML user writes a list as an array: output_fields = ["rho", "u"] was refused with "expected a string".
    An array of a list setting is its string form, so a restart, summary.json and the checks see one value."""
    f = tmp_path / "lists.toml"
    f.write_text('case = "channel_flow"\nn = 10\nobstacles = ["circle(0.5,0.2,0.05)", "box(1,0.1,1.2,0.3)"]\n'
                 'probes = [[0.3, 0.2], [0.7, 0.2]]\nprobe_line = [[0.3, 0.1], [0.3, 0.3], 5]\nmesh = [1, 1]\n'
                 'output_fields = ["rho", "u", "vorticity"]\n')
    cfg = resolve(str(f), {})
    assert cfg.params["obstacles"] == "circle(0.5,0.2,0.05); box(1,0.1,1.2,0.3)"
    assert cfg.params["probes"] == "0.3,0.2; 0.7,0.2" and cfg.params["probe_line"] == "0.3,0.1; 0.3,0.3; 5"
    assert cfg.common["mesh"] == "1x1" and cfg.output.fields == ("rho", "u", "vorticity")
    assert cfg.setup.features.bodies == 2
    f.write_text('case = "channel_flow"\nn = 10\nprobes = [0.3, 0.2]\n')  # one point alone: not two of 1 coordinate
    cfg = resolve(str(f), {})
    assert cfg.params["probes"] == "0.3,0.2" and set(cfg.setup.probes) == {"pt1"}
    f.write_text('case = "box"\noutput_fields = ["rho", "u", "rho"]\n')  # then checked as the string is
    assert "output_fields = 'rho,u,rho': 'rho' given more than once" in error(str(f))
    f.write_text('case = "box"\noutput_fields = ["rho", true]\n')
    rc, out, err = cli("run", f)
    assert_one_line(rc, out, err, "output_fields = ['rho', true]: expected a string, or an array of strings or "
                                  "numbers joined as ','")
    f.write_text('case = "box"\nmesh = 2\n')
    assert "mesh = 2: expected a string (or an array of its items, joined as 'x')" in error(str(f))
    f.write_text('case = "box"\ncollision = ["bgk"]\n')  # not a list setting
    assert "collision = ['bgk']: expected a string" in error(str(f))


# --- A2: duplicate output fields ------------------------------------------------------------------------

@pytest.mark.parametrize("fields,twice", [("rho,rho,u", "'rho'"), ("u, rho, u", "'u'"), ("rho,u,rho,u", "'rho', 'u'")])
def test_duplicate_output_fields(fields, twice):
    msg = error("box", {"output_fields": fields})
    assert f"output_fields = {fields!r}" in msg and twice in msg and "more than once" in msg
    assert "expected each field at most once" in msg


def test_duplicate_output_fields_cli(cli):
    rc, out, err = cli("run", "box", "--set", "output_fields=rho,rho,u")
    assert_one_line(rc, out, err, "output_fields = 'rho,rho,u'", "'rho'", "more than once")


# --- A3: the case given twice ---------------------------------------------------------------------------

def test_target_and_set_case_differ(cli):
    msg = error("box", {"case": "cavity2d"})
    assert "case = 'cavity2d'" in msg and "'box'" in msg and "run target" in msg and "expected one case" in msg
    rc, out, err = cli("run", "box", "--set", "case=cavity2d")
    assert_one_line(rc, out, err, "'cavity2d'", "'box'")


def test_toml_case_and_set_case_differ(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text('case = "couette"\n')
    msg = error(str(f), parse_sets(["case=box"]))
    assert "case = 'box'" in msg and "'couette'" in msg and str(f) in msg


@pytest.mark.parametrize("case, sets, fixed", [
    ("channel_flow", {"n": 10, "nu": 1e-3, "re": 50.0}, "re = 50.0 and nu = 0.001"),
    ("poiseuille", {"tau": 0.9, "re": 10.0}, "re = 10.0 and tau = 0.9"),
    ("duct", {"tau": 0.9, "re": 10.0}, "re = 10.0 and tau = 0.9"),
])
def test_two_settings_that_fix_the_same_thing_are_refused(case, sets, fixed, tmp_path, cli):
    """re > 0 sets nu (tau): a nu (tau) given beside it was silently ignored (nu = 1e-3 ran at 4e-4)."""
    msg = error(case, dict(sets))
    assert f"{fixed}: both given, but each fixes the same thing in case {case!r}; expected one of" in msg, msg
    off = dict(sets, re=0.0)  # re = 0: off, the other one acts
    resolve(case, off)
    # a file's value and the command line's: the command line wins, and says what it set aside
    f = tmp_path / "base.toml"
    other = "nu" if "nu" in sets else "tau"
    f.write_text(f'case = "{case}"\n{other} = {sets[other]}\n' + ("n = 10\n" if "n" in sets else ""))
    cfg = resolve(str(f), {"re": sets["re"]})
    assert cfg.params[other] == {q.name: q.default for q in CASES[case].params}[other]
    assert any(w.startswith(f"{other} = {sets[other]!r} of {f} set aside: re = {sets['re']!r} given on the command "
                            f"line fixes the same thing") for w in cfg.warnings), cfg.warnings
    if other == "nu":  # re sets nu = U ref_length / re
        assert cfg.setup.units["viscosity"] == pytest.approx(0.2 * 0.1 / sets["re"])
    else:  # re sets tau
        assert cfg.setup.tau != pytest.approx(sets["tau"])
    f.write_text(f'case = "{case}"\n{other} = {sets[other]}\nre = {sets["re"]}\n')  # both in one file
    assert "both given" in error(str(f))


@pytest.mark.parametrize("case, sets", [
    ("channel_flow", {"n": 10, "sample_every": 10, "sample_dt": 0.1}),
    ("schaefer_turek_3d1z", {"sample_every": 10, "sample_dt": 0.1}),
    ("taylor_green3d", {"n": 16, "sample_every": 10, "sample_dt": 0.1}),
])
def test_a_sample_interval_in_steps_and_in_time_are_refused_together(case, sets):
    """sample_every (steps) set the case's sample_dt aside without a word: a channel given both sampled every 10
    steps, not every 0.1 s (40 steps)."""
    msg = error(case, dict(sets))
    assert "sample_every = 10 and sample_dt = 0.1: both given, but each fixes the same thing in case " \
           f"{case!r}; expected one of sample_every, sample_dt" in msg, msg
    resolve(case, {k: v for k, v in sets.items() if k != "sample_dt"})  # either alone
    resolve(case, {k: v for k, v in sets.items() if k != "sample_every"})


@pytest.mark.parametrize("sets, warned", [
    ({"trt_lambda": 0.25}, "trt_lambda = 0.25 has no effect: it applies with collision = 'trt'"),
    ({"output_stride": 2, "output_fields": "rho"}, "output_stride = 2 has no effect: it applies with output_every or "
                                                   "output_interval > 0"),
    ({"stl_scale": 0.001}, "stl_scale = 0.001 has no effect: it applies with stl = PATH"),
    ({"mask_dataset": "m"}, "mask_dataset = 'm' has no effect: it applies with mask = an HDF5 file"),
    ({"sponge_strength": 0.2}, "sponge_strength = 0.2 has no effect: it applies with sponge > 0"),
    ({"steady_every": 50}, "steady_every = 50 has no effect: it applies with steady_tol > 0"),
    ({"width": 1.0}, "width = 1.0 has no effect: it applies with a 3D lattice (D3Q19, D3Q27)"),
    ({"profile": "parabolic", "sides": "periodic"}, "profile = 'parabolic' has no effect: it applies with sides = "
                                                    "'walls' (between periodic sides the inflow is uniform)"),
])
def test_a_setting_that_nothing_reads_is_said(sets, warned):
    """A setting read only when another is on was silently accepted: trt_lambda with the default BGK ran BGK."""
    cfg = resolve("channel_flow", {"n": 10, **sets})
    assert any(w.startswith(warned) for w in cfg.warnings), cfg.warnings
    on = {"trt_lambda": {"collision": "trt"}, "output_stride": {"output_every": 10}, "stl_scale": None,
          "mask_dataset": None, "sponge_strength": {"sponge": 0.2}, "steady_every": {"steady_tol": 1e-4},
          "width": {"lattice": "D3Q19", "obstacles": "", "width": 0.41}, "profile": {"sides": "walls"}}
    switch = on[next(iter(sets))]
    if switch is not None:  # with the setting that turns it on: nothing said
        cfg = resolve("channel_flow", {"n": 10, **sets, **switch})
        assert not any("has no effect" in w for w in cfg.warnings), cfg.warnings
    assert not any("has no effect" in w for w in resolve("channel_flow", {"n": 10}).warnings)


@pytest.mark.parametrize("case, sets", [
    ("cavity2d", {"sample_every": 0}),  # 0: the case's interval, and cavity2d samples nothing
    ("cavity2d", {"average_every": 0}),  # 0: none, without field output
    ("cavity2d", {"average_from": 0, "average_stresses": False}),  # their defaults, with no average
    ("channel_flow", {"steady_every": 0, "steady_tol": 0}),  # 0: the case's, not running until steady
])
def test_a_setting_given_as_its_documented_off_is_not_said_to_have_no_effect(case, sets):
    """sample_every = 0 (README/config: '0: the case's') on a case that samples nothing warned "sample_every = 0 has
    no effect", and so did average_every = 0 without output and steady_every = 0 without steady_tol: the value that
    means off asks nothing an unset key does not (a run without out_dir says only a nonzero checkpoint_every). The
    same keys given a value that does something are still said."""
    cfg = resolve(case, dict(sets))
    assert not any("has no effect" in w for w in cfg.warnings), cfg.warnings
    for k, v in sets.items():
        if isinstance(v, bool) or k == "steady_tol":
            continue
        cfg = resolve(case, {**sets, k: 5})
        assert any(w.startswith(f"{k} = 5 has no effect") for w in cfg.warnings), cfg.warnings


def test_same_case_twice_is_fine(tmp_path):
    assert resolve("box", {"case": "box", "n": 8}).case.name == "box"
    f = tmp_path / "c.toml"
    f.write_text('case = "couette"\n')
    assert resolve(str(f), {"case": "couette"}).case.name == "couette"


def test_default_case_only_when_none_is_given():
    assert resolve(None, {}, default_case="cavity2d").case.name == "cavity2d"
    assert resolve(None, {"case": "box", "n": 8}, default_case="cavity2d").case.name == "box"


# --- A4: numbers too large ------------------------------------------------------------------------------

BIG = 99999999999999999999999


@pytest.mark.parametrize("case,key", [("box", "n"), ("box", "nx"), ("cavity2d", "n"), ("channel_flow", "n"),
                                      ("schaefer_turek_2d1", "n"), ("poiseuille", "nx"), ("duct", "nz")])
def test_int_beyond_int64_names_the_key(case, key):
    msg = error(case, {key: BIG})
    assert f"{key} = {BIG}" in msg and "int64" in msg


@pytest.mark.parametrize("case,sets", [("box", {"n": 2 ** 20}), ("cavity2d", {"n": 2 ** 40}),
                                       ("box", {"nx": 2 ** 62})])
def test_lattice_beyond_2_53_cells(case, sets):
    msg = error(case, sets)
    k, v = next(iter(sets.items()))
    assert "lattice shape" in msg and f"{k}={v!r}" in msg and "expected fewer than 2**53" in msg


@pytest.mark.parametrize("n", [2 ** 40, 2 ** 62])
@pytest.mark.parametrize("case", ["channel_flow", "schaefer_turek_2d1", "schaefer_turek_3d1z", "sphere"])
def test_huge_n_of_obstacle_cases(case, n):
    """Whether the case's geometry code or the shape check finds it, one ConfigError naming n."""
    msg = error(case, {"n": n})
    assert f"n={n}" in msg and ("2**53" in msg or f"case {case!r} cannot be built" in msg)


def test_float_int_value_beyond_int64():
    msg = error("box", {"n": 1e300})
    assert "n = " in msg and "int64" in msg


@pytest.mark.parametrize("key", ["steps", "progress_every", "output_every", "checkpoint_every", "check_every",
                                 "sample_every"])
def test_step_counts_beyond_int32(key):
    msg = error("box", {key: INT32_MAX + 1})
    assert f"{key} = {INT32_MAX + 1}" in msg and "int32" in msg
    resolve("box", {key: INT32_MAX})  # the largest step count is fine


def test_steps_beyond_int32_cli(cli):
    rc, out, err = cli("run", "box", "--steps", 3000000000)
    assert_one_line(rc, out, err, "steps = 3000000000", "int32")
    rc, out, err = cli("run", "box", "--set", f"n={BIG}")
    assert_one_line(rc, out, err, f"n = {BIG}", "int64")


def test_case_default_steps_beyond_int32():
    msg = error("cavity2d", {"t_end": 1e9})
    assert "number of steps" in msg and "t_end=1000000000.0" in msg and "int32" in msg
    cfg = resolve("cavity2d", {"t_end": 1e9, "steps": 10})
    assert cfg.common["steps"] == 10  # steps given: fine, and the t_end it sets aside is said
    assert any(w.startswith("t_end = 1000000000.0 (") and w.endswith("set aside: steps = 10 given runs 10 steps")
               for w in cfg.warnings), cfg.warnings
    assert not any("t_end" in w for w in resolve("cavity2d", {"steps": 10}).warnings)


@pytest.mark.parametrize("case, sets, said", [
    ("cavity2d", {"n": 8, "t_end": 1e300, "steps": 2}, "t_end = 1e+300 ("),  # the warning of the steps set aside
    ("duct", {"n": 8, "efolds": 1e300, "steps": 2}, "efolds = 1e+300 ("),
    ("channel_flow", {"n": 10, "ramp": 1e300, "init": "rest", "steps": 2}, "ramp = 1e+300 ("),  # as long as the run
    ("channel_flow", {"n": 10, "length": 1e300}, "lattice shape "),  # errors: the shape, a step interval
    ("channel_flow", {"ref_length": 1e-156}, "lattice shape "),  # 9e+311 cells: its :.3g was OverflowError
    ("channel_flow", {"n": 10, "sample_dt": 1e300}, "the case's sampling interval = "),
    ("sphere", {"n": 8, "t_end": 1e300}, "the case's number of steps = "),
])
def test_a_derived_integer_of_hundreds_of_digits_is_said_cut(case, sets, said):
    """A number of steps or a lattice size derived from a time or length of 1e300 was said whole, 300 digits in the
    one line of a warning or an error; it is cut as a given integer is (errors.said_int)."""
    try:
        lines = [w for w in resolve(case, sets).warnings if w.startswith(said)]
    except ConfigError as e:
        lines = [str(e)]
    assert len(lines) == 1 and said in lines[0], lines
    assert not re.search(r"[0-9]{40}", lines[0]) and "digits)" in lines[0], lines[0]


def test_a_built_lattice_of_more_cells_than_float64_holds_is_said_cut(monkeypatch):
    """The check of the built shape (a user's case without a lattice_shape) said the cell count with :.3g, which
    for a count beyond float64 was a traceback: "OverflowError: int too large to convert to float"."""
    import dataclasses

    case = CASES["taylor_green2d"]
    build = case.build
    monkeypatch.setattr(case, "build", lambda p, lat: dataclasses.replace(build(p, lat), shape=(10 ** 200,) * 2))
    msg = error("taylor_green2d", {"n": 8})
    assert msg.startswith("lattice shape 100000000000...000000 (201 digits)x100000000000...000000 (201 digits) (from "
                          "n=8 (other parameters at their defaults)) has 100000000000...000000 (401 digits) cells: "
                          "expected fewer than 2**53"), msg


@pytest.mark.parametrize("case, sets, key, fix", [
    ("channel_flow", {"ramp": 1.7e308}, "ramp", "lower ramp"),
    ("channel_flow", {"t_end": 1.7e308}, "t_end", "lower t_end"),
    ("channel_flow", {"sample_dt": 1.7e308}, "sample_dt", "lower sample_dt"),
    ("schaefer_turek_2d1", {"ramp": 1.7e308}, "ramp", "lower ramp"),
    ("taylor_green3d", {"t_end": 1.7e308}, "t_end", "lower t_end"),
    ("taylor_green3d", {"sample_dt": 1.7e308}, "sample_dt", "lower sample_dt"),
    ("cavity2d", {"t_end": 1.7e308}, "t_end", "lower t_end"),
    ("kolmogorov", {"decay_times": 1.7e308}, "decay_times", "lower decay_times"),
    ("duct", {"efolds": 1.7e308}, "efolds", "lower efolds"),
    ("taylor_green2d", {"re": 1.7e308}, "decay_times", "change re"),  # derived: re's viscosity ~ 0
    ("poiseuille", {"tau": 1.7e308}, "the time to steady (35 e-folds of the slowest mode)", "change tau"),
    ("taylor_green2d", {"re": 1e308}, "decay_times", "change re"),  # (these three were int()'s OverflowError)
    ("duct", {"efolds": 1e308}, "efolds", "lower efolds"),
    ("cavity2d", {"t_end": 1e308}, "t_end", "lower t_end"),
])
def test_a_time_of_no_finite_number_of_steps_is_said_as_a_step_count(case, sets, key, fix):
    """ramp = 1.7e308 (and t_end, sample_dt, decay_times, efolds, or a tau that makes the run to steady endless) gave
    inf time steps, and the refusal carried int()'s "OverflowError: cannot convert float infinity to integer". It is
    said as a step count beyond the int32 counter is (t_end = 1e300: said_int), with the parameters it came from."""
    msg = error(case, dict(sets))
    given = ", ".join(f"{k}={v!r}" for k, v in sets.items())
    assert f"the number of steps of {key} = inf (from {given} (other parameters at their defaults)): expected an " \
           f"integer in 0..{INT32_MAX} (the step counter is int32); {fix}" in msg, msg
    assert "Error" not in msg and "cannot be built" not in msg, msg


def test_a_ramp_of_no_finite_number_of_steps_is_one_line_on_the_command_line(cli, tmp_path):
    rc, out, err = cli("run", "channel_flow", "--set", "ramp=1.7e308", "--dry-run", "--out", tmp_path / "o")
    assert_one_line(rc, out, err, "the number of steps of ramp = inf (from ramp=1.7e+308 ", "int32", "lower ramp")
    assert "OverflowError" not in err, err


def test_an_stl_body_far_larger_than_the_channel_says_the_ratio_short(tmp_path):
    """stl_scale = 1e300: the hint that the file's units are not metres said the ratio to the channel in 300 digits."""
    pytest.importorskip("stl", reason="numpy-stl (the 'stl' extra) is not installed")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    from make_stl import icosphere, write_stl

    path = tmp_path / "ball.stl"
    write_stl(path, np.asarray(icosphere(1)) * 0.05 + np.array([0.5, 0.2, 0.2]))
    msg = error("channel_flow", {"n": 4, "lattice": "D3Q19", "obstacles": "", "length": 1.0, "stl": str(path),
                                 "stl_scale": 1e300})
    assert "1e+299 across, 1e+299 times the channel's largest side" in msg and not re.search(r"[0-9]{40}", msg), msg


@pytest.mark.parametrize("case, key", [("taylor_green2d", "decay_times"), ("duct", "efolds")])
def test_a_run_length_other_than_t_end_set_aside_by_steps_is_said(case, key):
    """A case's run length in its own units beside steps ran the steps, the run length dropped unsaid (t_end's
    was said)."""
    cfg = resolve(case, {"n": 8, key: 2.0, "steps": 10})
    assert cfg.common["steps"] == 10
    assert any(w.startswith(f"{key} = 2.0 (") and w.endswith("set aside: steps = 10 given runs 10 steps")
               for w in cfg.warnings), cfg.warnings
    assert not any(key in w for w in resolve(case, {"n": 8, "steps": 10}).warnings)
    assert not any(key in w for w in resolve(case, {"n": 8, key: 2.0}).warnings)


# Python's own words for a failed arithmetic: an exception class, an errno tuple, its messages
RAW_TEXT = re.compile(r"[A-Za-z]+(Error|Exception)\b|\(\d+, '|division by zero|int too large|cannot convert|"
                      r"math domain|Numerical result")

VISCOSITY = "the lattice viscosity "
CELLS = "expected a finite number of cells"
CELL_SIZE = "the cell size dx = ref_length / n = "
TIME_STEP = "the time step dt = dx u_lattice / u_mean = "
INF_STEPS = "the number of steps of decay_times = inf"


@pytest.mark.parametrize("case, key, value, said", [
    ("poiseuille", "re", 1e300, VISCOSITY + "(tau - 1/2)/3 = 0 "),  # tau = 1/2 + 3 u n / re rounds to 1/2
    ("poiseuille", "re", 1.7e308, VISCOSITY + "(tau - 1/2)/3 = 0 "),
    ("poiseuille", "re", 1e308, VISCOSITY + "(tau - 1/2)/3 = 0 "),
    ("poiseuille", "re", 5e-324, VISCOSITY + "(tau - 1/2)/3 = inf "),
    ("duct", "re", 1e300, VISCOSITY + "(tau - 1/2)/3 = 0 "),
    ("duct", "re", 1.7e308, VISCOSITY + "(tau - 1/2)/3 = 0 "),
    ("kolmogorov", "re", 5e-324, VISCOSITY + "u_amp / (re k) = inf "),
    ("kolmogorov", "u_amp", 5e-324, INF_STEPS),  # nu a subnormal: nu k^2 is 0
    ("taylor_green2d", "u0", 5e-324, INF_STEPS),
    ("duct", "aspect", 1.7e308, "the fluid cells across z, aspect * n = inf "),
    ("duct", "aspect", 1e300, "lattice shape 2x18x160000000000...642562 (302 digits) "),  # an int of 302 digits
    ("channel_flow", "length", 1.7e308, "the cells along the length, length / dx = inf "),
    ("channel_flow", "height", 1.7e308, "the cells across the height, height / dx = inf "),
    ("channel_flow", "ref_length", 1e300, CELL_SIZE + "5e+298 "),  # (34, 'Numerical result out of range')
    ("channel_flow", "ref_length", 1.7e308, CELL_SIZE + "8.5e+306 "),
    ("channel_flow", "ref_length", 1e308, CELL_SIZE + "5e+306 "),
    ("channel_flow", "ref_length", 1e-300, CELL_SIZE + "5e-302 "),  # dx^2 is 0: a division by zero
    ("channel_flow", "ref_length", 5e-324, CELL_SIZE + "0 "),
    ("channel_flow", "u_lattice", 5e-324, TIME_STEP + "0 "),  # t_end / dt
    ("schaefer_turek_2d1", "u_lattice", 5e-324, TIME_STEP + "0 "),
    ("schaefer_turek_2d2", "u_lattice", 5e-324, TIME_STEP + "0 "),
    ("schaefer_turek_3d1z", "u_lattice", 5e-324, TIME_STEP + "0 "),
    ("sphere", "u_lattice", 5e-324, TIME_STEP + "0 "),
])
def test_a_quantity_out_of_float64_range_inside_the_build_is_said_in_words(case, key, value, said):
    """A lattice size, viscosity or time step of no float64 inside a case's build was refused with Python's words:
    "ZeroDivisionError: float division by zero" (re = 1e300), "OverflowError: (34, 'Numerical result out of range')"
    (ref_length = 1e300), "OverflowError: int too large to convert to float" (aspect = 1e300). It is said as the
    quantity and its value, with the parameter it came from and what was expected."""
    msg = error(case, {key: value})
    assert said in msg and f"(from {key}={value!r} (other parameters at their defaults))" in msg, msg
    assert "expected " in msg and not RAW_TEXT.search(msg), msg
    assert said.startswith("lattice shape") or msg.endswith(f"; change {key}"), msg


@pytest.mark.parametrize("case, key, value, said", [
    ("poiseuille", "re", 1e300, "the lattice viscosity (tau - 1/2)/3 = 0 (from re=1e+300 "),
    ("channel_flow", "ref_length", 1e-300, "the cell size dx = ref_length / n = 5e-302 (from ref_length=1e-300 "),
])
def test_a_quantity_out_of_range_is_one_line_on_the_command_line(case, key, value, said, cli, tmp_path):
    rc, out, err = cli("run", case, "--set", f"{key}={value}", "--dry-run", "--out", tmp_path / "o")
    assert_one_line(rc, out, err, said, "expected", f"change {key}")
    assert not RAW_TEXT.search(err), err


@pytest.mark.parametrize("raised, said", [
    (ZeroDivisionError("float division by zero"), "divides by 0"),
    (OverflowError("(34, 'Numerical result out of range')"), "is beyond float64's range"),
    (OverflowError("int too large to convert to float"), "is beyond float64's range"),
    (FloatingPointError("divide by zero encountered in divide"), "divides by 0"),
    (FloatingPointError("invalid value encountered in divide"), "divides by 0"),  # 0/0
    # NumPy's words under np.errstate(all="raise") in a user's case: they were said "beyond float64's range"
    (FloatingPointError("invalid value encountered in sqrt"), "is not a number (nan: the square root of a negative "
                                                              "number"),
    (FloatingPointError("underflow encountered in multiply"), "is below float64's range (about 2.2e-308)"),
    (FloatingPointError("overflow encountered in multiply"), "is beyond float64's range"),
    (ValueError("math domain error"), "is outside a function's domain"),
    (ValueError("cannot convert float NaN to integer"), "is not a number (nan)"),
])
def test_an_arithmetic_failure_no_check_covers_is_said_in_words(raised, said, monkeypatch):
    """Where no check of the case names the quantity (a user's case; a site not covered), the build's arithmetic
    error is said in words, not as Python's class name and message."""
    def boom(params, lat):
        raise raised

    monkeypatch.setattr(CASES["box"], "build", boom)
    msg = error("box", {"n": 4000})
    assert msg.startswith("case 'box' cannot be built from n=4000 (other parameters at their defaults) on D3Q19: a "
                          "quantity it derives from them (a lattice size, the viscosity, the time step, a number of "
                          f"steps) {said}"), msg
    assert "expected parameters that give" in msg and not RAW_TEXT.search(msg), msg


def test_any_build_failure_names_case_and_parameters(monkeypatch):
    case = CASES["box"]

    def boom(params, lat):
        raise MemoryError("Unable to allocate 4.42 TiB")

    monkeypatch.setattr(case, "build", boom)
    msg = error("box", {"n": 4000})
    assert "case 'box' cannot be built" in msg and "n=4000" in msg and "not enough memory (Unable to allocate 4.42 " \
        "TiB)" in msg and not RAW_TEXT.search(msg), msg


@pytest.mark.parametrize("case,sets,parts", [
    ("cavity2d", {"re": 1e-308}, ["tau = inf", "re=1e-308", "finite"]),
    ("channel_flow", {"nu": 1e308}, ["tau = inf", "nu=1e+308"]),
    ("box", {"tau": 1e308}, ["tau = 1e+308", "1/tau is 0 in float32"]),
    ("box", {"u0": 1e308}, ["u0 = 1e+308", "Mach number 1.73e+308"]),
    ("box", {"smagorinsky": 1e308}, ["smagorinsky = 1e+308", "overflows float32"]),
    ("box", {"trt_lambda": 1e308}, ["trt_lambda = 1e+308", "overflows float32"]),
    ("box", {"output_interval": 1e308}, ["output_interval = 1e+308", "int32"]),
    # NumPy's overflow in the build printed a RuntimeWarning (2 lines) before the error
    ("schaefer_turek_3d1z", {"u_lattice": 1e308}, ["tau = inf", "u_lattice=1e+308", "finite"]),
])
@pytest.mark.filterwarnings("error")
def test_floats_that_overflow_later(case, sets, parts):
    msg = error(case, sets)
    for p in parts:
        assert p in msg, (p, msg)


@pytest.mark.parametrize("case,sets,keys", [
    ("cavity2d", {"re": 1e-8}, ["re=1e-08", "raise re (now 1e-08)"]),
    ("taylor_green2d", {"re": 1e-8}, ["re=1e-08", "raise re (now 1e-08)"]),  # blew up at step 1, exit 4
    ("kolmogorov", {"re": 1e-8}, ["re=1e-08"]),
    ("duct", {"re": 1e-8}, ["re=1e-08"]),
    ("box", {"tau": 1e9}, ["tau=1000000000.0", "lower tau (now 1e+09)"]),
])
def test_a_tau_whose_collision_is_lost_in_rounding_is_refused(case, sets, keys, tmp_path, cli):
    """re = 1e-8 gives tau ~ 1e9: 1/tau is below float32's resolution of the populations, so the collision does
    nothing. The dry run said 'ready' and the run stopped at its first check with exit 4 ('tau = ... far above 1');
    now both refuse it before anything runs, naming the settings it comes from."""
    msg = error(case, sets)
    for p in ["far above 1", "expected tau below 8.39e+06", "float32", *keys]:
        assert p in msg, (p, msg)
    key, value = next(iter(sets.items()))
    rc, out, err = cli("run", case, "--set", f"{key}={value}", "--dry-run", "--out", tmp_path / "o")
    assert_one_line(rc, out, err, "far above 1", keys[0])
    assert "ready" not in out


@pytest.mark.parametrize("tau,warned", [(5.0, False), (20.0, True), (1e6, True)])
def test_a_large_tau_is_warned_about_at_the_start_and_still_runs(tau, warned):
    """A tau above TAU_LARGE, the one a blow-up names as a likely cause, is said at the start in the same words
    (the dry run and the run); moderate ones (5, 20) that run fine are not refused."""
    from distlbm.config import TAU_LARGE

    cfg = resolve("box", {"tau": tau, "n": 8})
    said = [w for w in cfg.warnings if "far above 1" in w]
    assert bool(said) == warned and (tau > TAU_LARGE) == warned, cfg.warnings
    if warned:
        assert f"tau = {tau:g}" in said[0] and "lower tau" in said[0], said


@pytest.mark.parametrize("case,key", [("couette", "u_wall"), ("box", "tau"), ("cavity2d", "wall_time"),
                                      ("channel_flow", "nu")])
def test_an_integer_beyond_float64_for_a_number_is_a_config_error(case, key, tmp_path, cli):
    """An integer too large for a float (TOML and --set read 1 followed by 400 zeros as an int) was an
    OverflowError traceback, exit 1."""
    huge = 10 ** 400
    msg = error(case, {key: huge})
    assert msg.startswith(f"{key} = 100000000000...000000 (401 digits): expected a finite number"), msg
    rc, out, err = cli("run", case, "--set", f"{key}={huge}", "--dry-run", "--out", tmp_path / "o")
    assert_one_line(rc, out, err, f"{key} = 1000", "expected a finite number")
    f = tmp_path / "huge.toml"
    f.write_text(f'case = "{case}"\n{key} = {huge}\n')
    rc, out, err = cli("run", f, "--dry-run", "--out", tmp_path / "o")
    assert_one_line(rc, out, err, f"{f}: {key} = 1000", "expected a finite number")


@pytest.mark.parametrize("case,sets,dtype", [
    ("couette", {"u_wall": 1e-320}, "float32"),
    ("box", {"u0": 1e-39, "n": 8}, "float32"),
    ("poiseuille", {"umax": 1e-320, "dtype": "float64"}, "float64"),
])
def test_a_velocity_that_is_zero_in_the_arithmetic_is_refused(case, sets, dtype):
    """couette at u_wall = 1e-320 (0 in float32) ran at rest: 'steady' at step 259, its error nan, FAIL."""
    key = next(iter(sets))
    msg = error(case, sets)
    assert msg.startswith("velocity = ") and f"{key}={sets[key]!r}" in msg and f"{dtype}'s smallest normal" in msg, msg
    assert "expected a lattice velocity of at least" in msg


def test_large_but_representable_values_are_fine():
    # (tau = 1e30 was fine in float64 too: its 1/tau is below float64's resolution, the collision lost in rounding)
    assert resolve("box", {"tau": 1e15, "compute_dtype": "float64", "dtype": "float64"}).setup.tau == 1e15
    assert "expected tau below 4.5e+15" in error("box", {"tau": 1e30, "compute_dtype": "float64", "dtype": "float64"})
    assert resolve("box", {"smagorinsky": 1e6}).common["smagorinsky"] == 1e6
    cfg = resolve("box", {"n": 200000})  # 8e15 cells: below 2**53; the memory pre-flight judges it
    assert cfg.setup.shape == (200000,) * 3


def test_an_empty_case_in_a_file_is_refused_not_the_default(tmp_path, cli):
    """case = "" in a TOML file ran the default case (cavity2d), unsaid."""
    f = tmp_path / "empty.toml"
    f.write_text('case = ""\nn = 8\n')
    assert "case = '': expected one of" in error(str(f), default_case="cavity2d")  # as `distlbm run` resolves it
    rc, out, err = cli("run", f, "--dry-run", "--out", tmp_path / "o")
    assert rc == 2 and "case = '': expected one of" in err, out + err
    rc, out, err = cli("status", f)  # and a file given as a run folder is named as such
    assert rc == 2 and f"{str(f)!r}: not a folder; expected the --out folder of a run" in err, err


@pytest.mark.parametrize("case, sets, key", [
    ("taylor_green3d", {"n": 16, "sample_dt": 0.001}, "sample_dt"),
    ("channel_flow", {"n": 10, "sample_dt": 1e-9}, "sample_dt"),
    ("sphere", {"n": 8, "sample_dt": 1e-7}, "sample_dt"),
    ("channel_flow", {"n": 10, "t_end": 1e-9}, "t_end"),
    # the run lengths in their own time units ran one step, unsaid (the cavities' lid transits, the decay times of the
    # 2D Taylor-Green vortex, the duct's e-fold times)
    ("cavity2d", {"n": 16, "t_end": 1e-320}, "t_end"),
    ("cavity3d", {"n": 8, "t_end": 1e-3}, "t_end"),
    ("taylor_green2d", {"n": 16, "decay_times": 1e-12}, "decay_times"),
    ("duct", {"n": 8, "efolds": 1e-320}, "efolds"),
])
def test_a_time_below_half_a_step_is_said(case, sets, key):
    """A sample interval below half a time step was rounded up to every step, unsaid."""
    cfg = resolve(case, sets)
    said = [w for w in cfg.warnings if w.startswith(f"{key} asks for ")]
    assert said and "taken as 1 step" in said[0], cfg.warnings
    assert cfg.setup.sample_every == 1 or key in ("t_end", "decay_times", "efolds")
    assert key == "sample_dt" or cfg.setup.steps == 1
    del sets[key]
    assert not [w for w in resolve(case, sets).warnings if "of a time step" in w]


def test_sample_every_on_a_case_that_samples_nothing_is_said():
    said = [w for w in resolve("box", {"n": 8, "sample_every": 10}).warnings if w.startswith("sample_every")]
    assert said == ["sample_every = 10 has no effect: case box samples nothing (no forces, probes or energy; no "
                    "samples.jsonl is written)"]
    for case, sets in (("channel_flow", {"n": 10}), ("taylor_green3d", {"n": 8})):  # forces; the kinetic energy
        assert not [w for w in resolve(case, {**sets, "sample_every": 10}).warnings if "sample_every" in w]


def test_a_ramp_as_long_as_the_run_is_said():
    """ramp in steps for seconds (400 for 0.4): the inflow never started, and its forces were reported as cD (n = 10 at
    the default u_lattice = 0.025: dt = 1.25e-3 s)."""
    said = [w for w in resolve("channel_flow", {"n": 10, "t_end": 2.0, "ramp": 400.0, "init": "rest"}).warnings
            if w.startswith("ramp")]
    assert len(said) == 1 and "(320000 steps) is as long as the run or longer (1600 steps)" in said[0], said
    assert not [w for w in resolve("channel_flow", {"n": 10, "t_end": 2.0, "ramp": 0.5, "init": "rest"}).warnings
                if "ramp" in w]


@pytest.mark.parametrize("ramp", [1e-4, 5e-324])
def test_a_ramp_below_half_a_step_is_one_step_and_said(ramp):
    """A ramp below half a time step rounded to no ramp at all (the inflow at full speed from step 0), unsaid, where
    sample_dt, t_end and the like below half a step are one step, said (n = 10: dt = 1.25e-3 s)."""
    cfg = resolve("channel_flow", {"n": 10, "ramp": ramp, "init": "rest"})
    assert cfg.setup.features.ramp_steps == 1
    said = [w for w in cfg.warnings if w.startswith("ramp")]
    assert len(said) == 1 and "of a time step: taken as 1 step, the shortest there is" in said[0], cfg.warnings
    assert resolve("channel_flow", {"n": 10, "ramp": 0.0, "init": "rest"}).setup.features.ramp_steps == 0
    assert resolve("channel_flow", {"n": 10, "ramp": 0.5, "init": "rest"}).setup.features.ramp_steps == 400


def test_a_ramp_under_a_flowing_start_is_said():
    """A ramp starts the inflow from 0, init = 'profile' (channel_flow's default) the whole channel at full speed: the
    inlet first stops the flow and the channel drains (kinetic energy 17.4 -> 3.1 in 0.55 s at n = 20, u_lattice
    0.03, cD -69 at the first sample), unsaid. Said now; a preset's ramp from rest is not."""
    said = [w for w in resolve("channel_flow", {"n": 10, "t_end": 2.0, "ramp": 0.5}).warnings if "ramp" in w]
    assert len(said) == 1 and said[0].startswith("ramp = 0.5 with init = 'profile': the inflow rises from 0"), said
    assert "give init = 'rest' with a ramp, or ramp = 0" in said[0], said
    said = [w for w in resolve("schaefer_turek_2d1", {"init": "profile"}).warnings if "ramp" in w]
    assert len(said) == 1 and said[0].startswith("ramp = 2.0 with init = 'profile'"), said
    for case, sets in (("schaefer_turek_2d1", {}), ("channel_flow", {"n": 10}), ("sphere", {})):
        assert not [w for w in resolve(case, sets).warnings if "ramp" in w], case


def test_the_wall_time_key_takes_what_the_option_takes(tmp_path):
    """--wall-time took HH:MM:SS, the key only seconds ("wall_time = datetime.time(1, 0): expected a number")."""
    for text in ('"01:00:00"', "01:00:00", '"0-1"'):  # quoted, a TOML time of day, Slurm's D-HH
        f = tmp_path / "w.toml"
        f.write_text(f'case = "cavity2d"\nn = 16\nwall_time = {text}\n')
        assert resolve(str(f), {}).control.wall_time == 3600.0, text
    assert resolve("cavity2d", parse_sets(["wall_time=01:30:00"])).control.wall_time == 5400.0
    assert resolve("cavity2d", {"wall_time": 90}).control.wall_time == 90.0
    with pytest.raises(ConfigError, match=r"wall_time = '1:x': expected a duration"):
        resolve("cavity2d", {"wall_time": "1:x"})


@pytest.mark.parametrize("case,sets,fraction", [
    ("cavity2d", {"n": 8, "output_interval": 1e-30}, "1.6e-28 of a time step dt = 0.00625"),
    ("box", {"n": 8, "output_interval": 0.001}, "0.4 of a time step dt = 0.0025"),
])
def test_an_output_interval_below_one_time_step_is_refused(case, sets, fraction):
    """output_interval = 1e-30 hung the run at its first output (the time schedule counted the outputs due in a step,
    one by one: the step counter never moved, and SIGTERM did not stop it); the dry run counted 1e32 outputs."""
    msg = error(case, sets)
    assert f"output_interval = {sets['output_interval']!r}: is {fraction}" in msg and "expected at least" in msg
    assert "output_every = 1" in msg


def test_an_output_interval_of_one_time_step_or_more_is_fine():
    assert resolve("box", {"n": 8, "output_interval": 0.0025}).output.output_interval == 0.0025  # dt: one step
    assert resolve("cavity2d", {"n": 8, "output_interval": 1}).output.output_interval == 1.0


def test_a_restart_reads_a_sign_in_the_stl_placement_as_a_sign_and_an_stl_path_as_a_path(tmp_path, monkeypatch):
    """canonical split stl_translate at each '+' as if it joined shapes ('+0.5,0.2,0.2', '5e+0,...': the same
    placement refused as another), and read an STL path that looks like a number as that number (the files '100' and
    '1e2' compared equal: another body taken for the run's where the checkpoint holds no digests of its inputs)."""
    from distlbm.io.checkpoint import CheckpointError

    stl = Path(__file__).resolve().parents[2] / "examples" / "sphere.stl"
    run = {"n": 4, "lattice": "D3Q19", "obstacles": "", "stl": str(stl), "stl_scale": 0.1,
           "stl_translate": "0.5,0.2,0.2"}
    meta = {"config": resolve("channel_flow", run).as_dict(), "shape": list(resolve("channel_flow", run).setup.shape)}
    for same in ("+0.5,0.2,+0.2", "5e-1,2e-1,+2e-1", "0.05e+1, 0.2, 0.2"):
        resolve("channel_flow", {**run, "stl_translate": same}).check_restart(meta, "ckpt_000000010.h5")  # no error
    monkeypatch.chdir(tmp_path)
    for name in ("100", "1e2"):
        (tmp_path / name).write_bytes(stl.read_bytes())
    run = {"n": 4, "lattice": "D3Q19", "obstacles": "stl(100, 0.1, 0.5, 0.2, 0.2)"}
    cfg = resolve("channel_flow", run)
    meta = {"config": cfg.as_dict(), "shape": list(cfg.setup.shape)}  # (a checkpoint without input digests)
    resolve("channel_flow", {**run, "obstacles": "stl('100', 1e-1, 0.5,0.2,0.2);"}).check_restart(meta, "c.h5")
    with pytest.raises(CheckpointError, match="obstacles: checkpoint 'stl.100, 0.1"):
        resolve("channel_flow", {**run, "obstacles": "stl(1e2, 0.1, 0.5, 0.2, 0.2)"}).check_restart(meta, "c.h5")


@pytest.mark.parametrize("length", [1e-9, 1e-320])
def test_a_channel_shorter_than_a_cell_is_refused(length):
    """length = 1e-9 is 2e-7 cells, within the whole-cells rounding of 0: a 1x84 lattice, inlet and outlet on one
    node, ran with exit 0."""
    msg = error("channel_flow", {"obstacles": "", "length": length})
    assert msg.startswith(f"n = 20: length {length:g} is ") and "expected a length of at least one cell" in msg, msg
    assert resolve("channel_flow", {"obstacles": "", "length": 0.005}).setup.shape == (2, 84)  # one cell: fine


def test_a_key_given_twice_in_a_file_is_named(tmp_path, cli):
    """tomllib said 'not valid TOML: Cannot overwrite a value (at line 3, column 6)', the key unsaid."""
    f = tmp_path / "twice.toml"
    f.write_text('case = "couette"\nn = 8\nn = 9\n')
    rc, out, err = cli("run", f, "--dry-run", "--out", tmp_path / "o")
    assert_one_line(rc, out, err, f"{f}: key 'n' is given more than once (line 3: 'n = 9'); expected each key once")
    f.write_text('case = "couette"\ncase = "box"\n')
    assert error(str(f)) == f"{f}: key 'case' is given more than once (line 2: 'case = \"box\"'); expected each key once"
    f.write_text('case = "couette"\nn = = 8\n')  # other mistakes: tomllib's words
    assert error(str(f)).startswith(f"{f}: not valid TOML: ")


def test_a_number_toml_does_not_read_in_a_file_is_said_with_how_to_write_it(tmp_path, cli):
    """tau = .8 in a file was tomllib's bare 'Invalid value (at line 3, column 7)'; --set tau=.8 said how to write
    it."""
    f = tmp_path / "dot.toml"
    for value, hint in ((".8", "write 0.8"), ("8.", "write 8.0"), ("0008", "write 8"), ("+.5e3", "write 500.0")):
        f.write_text(f'case = "couette"\nn = 8\ntau = {value}  # a comment\n')
        msg = error(str(f))
        assert msg.startswith(f"{f}: not valid TOML: ") and "(at line 3, column " in msg, msg
        assert msg.endswith(f"(TOML does not read {value!r} as a number: {hint})"), msg
    rc, out, err = cli("run", f, "--dry-run", "--out", tmp_path / "o")
    assert_one_line(rc, out, err, "(TOML does not read '+.5e3' as a number: write 500.0)")
    f.write_text('case = "couette"\nn = = 8\n')  # no number there: tomllib's words alone
    assert "TOML does not read" not in error(str(f))


@pytest.mark.parametrize("text", ['x = [\n  1,\na = .8\n', 'x = [\n  1,\nb = .8\n]\n'])
def test_a_number_hint_only_where_the_error_is_in_the_value(tmp_path, text):
    """`a = .8` inside an unclosed array is an error at `a` (0.8 there is refused as well): no hint to write 0.8."""
    f = tmp_path / "arr.toml"
    f.write_text(text)
    msg = error(str(f))
    assert msg.startswith(f"{f}: not valid TOML: Invalid value (at line 3, column 1)") and "does not read" not in msg


def test_a_number_hint_counts_lines_as_toml_does(tmp_path):
    """A U+2028 in a comment is no line break to TOML: splitlines' count put the hint's line off by one."""
    f = tmp_path / "ls.toml"
    f.write_text('# a\u2028comment\ntau = .8\n', encoding="utf-8")
    assert error(str(f)).endswith("(at line 2, column 7) (TOML does not read '.8' as a number: write 0.8)")


def test_a_number_of_thousands_of_leading_zeros_is_said_not_a_crash(tmp_path):
    """int() counts leading zeros against Python's 4300 digits: n = 000...01 (in a file or by --set) was a
    ValueError traceback from the hint that says how to write it."""
    value = "0" * 5000 + "1"
    f = tmp_path / "zeros.toml"
    f.write_text(f'case = "box"\nn = {value}\n')
    assert error(str(f)).endswith(f"(TOML does not read {value!r} as a number: write 1)")
    assert error("box", {"n": value}).endswith(f"(TOML reads {value!r} as text: write 1)")


def test_a_key_given_twice_with_a_value_over_several_lines_is_named_at_its_first_line(tmp_path):
    """tomllib places the error where the value ends: a value over several lines (an array, a multi-line string) was
    named by its last line ("key '2]' is given more than once"); a quoted key holding '=' was cut there, and a file
    with Windows line ends (CRLF) fell back to tomllib's words."""
    f = tmp_path / "twice.toml"
    f.write_text('case = "channel_flow"\nprobes = [[0.3, 0.2]]\nprobes = [[0.3, 0.2],\n  [0.7, 0.2]]\n')
    assert error(str(f)) == (f"{f}: key 'probes' is given more than once (line 3: 'probes = [[0.3, 0.2],'); "
                             f"expected each key once")
    f.write_text('case = "couette"\nn = 8\nn = """\nn = 3\n"""\n')
    assert "key 'n' is given more than once (line 3: 'n = \"\"\"')" in error(str(f))
    f.write_text('case = "couette"\n"a=b" = 1\n"a=b" = 2\n')
    assert "key '\"a=b\"' is given more than once (line 3: " in error(str(f))
    f.write_bytes(b'case = "couette"\r\nn = 8\r\nn = 9\r\n')
    assert error(str(f)) == f"{f}: key 'n' is given more than once (line 3: 'n = 9'); expected each key once"


def test_a_toml_date_or_time_is_shown_as_written(tmp_path):
    """A TOML date-time given for a number was shown as Python's repr: 'wall_time = datetime.datetime(1979, 5, 27, 7,
    32, tzinfo=datetime.timezone.utc): expected a number'."""
    f = tmp_path / "dt.toml"
    f.write_text('case = "cavity2d"\nre = 1979-05-27T07:32:00Z\nn = 1979-05-27\n')
    assert error(str(f)) == f"{f}: re = 1979-05-27T07:32:00+00:00: expected a number"
    f.write_text('case = "cavity2d"\nn = 1979-05-27\n')
    assert error(str(f)) == f"{f}: n = 1979-05-27: expected an integer"
    f.write_text('case = "cavity2d"\nrey = 07:32:00\n')
    assert error(str(f)).startswith(f"{f}: unknown key 'rey' (= 07:32:00); did you mean 're'?")


_D5000 = "9" * 5000  # beyond the 4300 digits Python reads


@pytest.mark.parametrize("body,said", [
    # digits in a string or a comment are no integer: the integer of the key after them was misreported as theirs
    (f'title = "{_D5000}"\nsteps = {_D5000}\n', "line 3, steps = '999999999999...999999' (5000 digits)"),
    (f'# {_D5000}\nsteps = -{_D5000}\n', "line 3, steps = '-999999999999...999999' (5000 digits)"),
    (f"tau = 0.{_D5000}\nsteps = {_D5000}\n", "line 3, steps = '999999999999...999999' (5000 digits)"),
    # an integer Python reads (4300 digits; its underscores are not counted) before the one it cannot
    ("re = " + "_".join(["9" * 10] * 430) + f"\nsteps = {_D5000}\n", "line 3, steps = '999999999999...999999'"),
    # a line of a multi-line array names no key ('line 4 = ...')
    (f"re = [\n  1,\n  {_D5000},\n]\n", "line 4: an integer '999999999999...999999' (5000 digits)"),
])
def test_a_toml_integer_beyond_python_s_digits_is_said_as_itself(tmp_path, body, said):
    f = tmp_path / "c.toml"
    f.write_text('case = "cavity2d"\n' + body)
    msg = error(str(f))
    assert msg.startswith(f"{f}: {said}"), msg[:300]
    assert "expected an integer of at most 4300 digits" in msg and len(msg) < 400, msg[:300]


@pytest.mark.parametrize("value,said", [
    (f"[1, {_D5000}]", "re = '[1, 999999999999...999999]' (an integer of 5000 digits)"),  # was '(5005 digits)'
    (f"{{a = {_D5000}}}", "re = '{a = 999999999999...999999}' (an integer of 5000 digits)"),
    ("1_" + _D5000, "re = '199999999999...999999' (5001 digits)"),  # (the underscore was counted as a digit)
])
def test_a_set_value_holding_an_integer_beyond_python_s_digits_says_its_digits(value, said):
    with pytest.raises(ConfigError) as e:
        parse_sets([f"re={value}"])
    assert str(e.value).startswith(said), str(e.value)[:300]


def test_a_command_line_key_s_error_names_the_command_line_not_the_file(tmp_path):
    """`distlbm run my.toml --set rey=400` said 'my.toml: unknown key 'rey'', a key the file does not hold; a bad
    --set value likewise named the file. The file's own keys are still named with the file."""
    f = tmp_path / "my.toml"
    f.write_text('case = "cavity2d"\nn = 16\n')
    assert error(str(f), {"rey": 400}).startswith("command line: unknown key 'rey' (= 400); did you mean 're'?")
    assert error(str(f), {"re": "abc"}) == "command line: re = 'abc': expected a number"
    assert error(str(f), {"n": 8, "steps": 20}, steps=10).startswith("steps: --steps 10 and --set steps=20 give two")
    f.write_text('case = "cavity2d"\nre = "abc"\n')
    assert error(str(f), {"n": 16}) == f"{f}: re = 'abc': expected a number"


def test_a_restart_refused_for_other_parameters_says_how_to_give_the_runs():
    """`distlbm run cavity2d --restart latest` after a run at --set n=32 was refused ('n: checkpoint 32, now 128')
    without saying how to continue it as it ran: the refusal now gives the run's values as --set options, each read
    back by --set as the checkpoint's value (a string that --set would read as a number or a boolean quoted)."""
    import shlex

    from distlbm.io.checkpoint import CheckpointError

    run = {"n": 16, "re": 100.0, "collision": "bgk", "obstacles": "circle(0.2, 0.2, 0.05)", "init": "rest"}
    run = {k: v for k, v in run.items() if k in {p.name for p in resolve("channel_flow", {}).case.params}
           or k in {p.name for p in COMMON_PARAMS}}
    cfg = resolve("channel_flow", run)
    meta = {"config": cfg.as_dict(), "shape": list(cfg.setup.shape)}
    now = {"n": 20, "re": 40.0, "collision": "trt", "obstacles": "circle(0.3, 0.2, 0.05)"}
    with pytest.raises(CheckpointError) as e:
        resolve("channel_flow", {**run, **now}).check_restart(meta, "c.h5")
    msg = str(e.value)
    m = re.search(r"; to continue it as it ran, give its values: (.*?)(;|$)", msg)
    assert m, msg
    words = shlex.split(m.group(1))
    assert words[0::2] == ["--set"] * (len(words) // 2), words
    given = parse_sets(words[1::2])
    assert given == {k: meta["config"][k] for k in now}, (given, msg)


def test_a_refused_restart_s_values_let_it_pass_with_the_lattice_and_an_exclusive_pair():
    """The values given to continue a refused restart as it ran let it pass: the lattice is one of them (a run at
    --set lattice=D3Q27 restarted without it was told only '--set tau=0.7', refused again; alone, nothing), and the
    default of an exclusive pair's key that the run's other key set aside is not (a run at re = 20, restarted at
    nu = 0.002, was told '--set nu=0.001 --set re=20.0': refused as 'both given')."""
    import shlex

    from distlbm.io.checkpoint import CheckpointError

    def suggested(case, run, now):
        cfg = resolve(case, run)
        meta = {"config": cfg.as_dict(), "shape": list(cfg.setup.shape)}
        with pytest.raises(CheckpointError) as e:
            resolve(case, now).check_restart(meta, "c.h5")
        m = re.search(r"; to continue it as it ran, give its values: (.*?)(;| \(|$)", str(e.value))
        assert m, str(e.value)
        words = shlex.split(m.group(1))
        given = parse_sets(words[1::2])
        again = resolve(case, {**{k: v for k, v in now.items() if k not in ("re", "nu")}, **given})
        assert again.check_restart(meta, "c.h5") == [], given  # passes
        return given

    assert suggested("box", {"n": 8, "lattice": "D3Q27", "tau": 0.7}, {"n": 8}) == {"lattice": "D3Q27", "tau": 0.7}
    assert suggested("box", {"n": 8, "lattice": "D3Q27"}, {"n": 8}) == {"lattice": "D3Q27"}
    assert suggested("channel_flow", {"n": 5, "re": 20.0}, {"n": 5, "nu": 0.002}) == {"re": 20.0}


@pytest.mark.parametrize("value", [" circle(0.2, 0.2, 0.05)", "box(0,0,1,1) ", '["x", "\U0001F600"]', "1e5", "true",
                                   "it's", "a\nb", "", "01:00:00"])
def test_a_refused_restart_s_string_value_is_read_back_by_set_as_it_was(value):
    """Each string value the refusal gives as --set is read back as the checkpoint's: one with a space at an end was
    given bare, and --set strips its value; one that needs quoting and holds a character beyond U+FFFF was quoted as
    a surrogate pair, which TOML refuses (the --set value was then the quoted text itself)."""
    import shlex

    from distlbm.config import _set_option

    words = shlex.split(_set_option("obstacles", value))
    assert words[0] == "--set" and parse_sets(words[1:]) == {"obstacles": value}, words


def test_a_table_with_keys_other_than_text_is_said_not_a_type_error():
    """A table given from Python (make_sim(tau={1: True})) has keys other than text: the error is said, as TOML
    would write the table, not a TypeError from matching its key."""
    with pytest.raises(ConfigError, match=r"tau = \{1 = true, \"a b\" = \[1, \{x = false\}\]\}: expected a number"):
        resolve("box", {"tau": {1: True, "a b": [1, {"x": False}]}})


# --- found by a sweep of bad values through every setting (--set and TOML) --------------------------------

@pytest.mark.parametrize("sets, key", [
    ({"n": 10, "height": 1e-30, "obstacles": ""}, "height"),  # 1e-28 cells: "whole", 0 rows between the walls
    ({"n": 10, "height": 1e-9, "obstacles": ""}, "height"),
    ({"n": 10, "lattice": "D3Q19", "width": 1e-30, "obstacles": ""}, "width"),
    ({"n": 10, "height": 1e-30, "obstacles": "", "sides": "periodic"}, "height"),  # was 'lattice shape 221x0'
])
def test_a_channel_narrower_than_one_cell_is_refused_naming_it(cli, sets, key):
    """height (or width) below half a cell rounded to 0 whole cells: between walls a lattice of the two wall rows and
    no fluid, which the dry run called ready and the run ran with no flow at all (E_kin 0, exit 0)."""
    msg = error("channel_flow", sets)
    assert f"{key} {sets[key]:g}" in msg and "expected at least one cell across" in msg, msg
    rc, out, err = cli("run", "channel_flow", *[a for k, v in sets.items() for a in ("--set", f"{k}={v}")],
                       "--dry-run", "--out", "unused")
    assert_one_line(rc, out, err, key, "at least one cell across")


@pytest.mark.parametrize("height", [0.01, 0.02])  # one and two whole cells between the walls still run
def test_a_channel_of_one_or_two_cells_across_still_resolves(height):
    cfg = resolve("channel_flow", {"n": 10, "height": height, "obstacles": ""})
    assert cfg.setup.shape[1] == round(height / 0.01) + 2


@pytest.mark.parametrize("modes", [2, 2 ** 63 - 1])
def test_kolmogorov_modes_too_many_for_n_names_modes(modes):
    """`--set modes=...` too many for n was said as 'n = 8: 2 period(s) of the forcing need n >= 16 ...': the key given,
    modes, was not named, nor the other remedy (fewer modes)."""
    msg = error("kolmogorov", {"n": 8, "modes": modes})
    assert f"n = 8, modes = {modes}:" in msg and "expected n >=" in msg and "modes <= 1" in msg, msg


@pytest.mark.parametrize("written, expected", [
    ("nan", "a finite number"), ("-nan", "a finite number"), ("+nan", "a finite number"),
    ("inf", "a finite number"), ("-inf", "a finite number"), ("+inf", "a finite number"),
    ("1e400", "a finite number (at most about 1.8e308, float64's range)"),
    ("-1_0e400", "a finite number (at most about 1.8e308, float64's range)"),
])
@pytest.mark.parametrize("key", ["re", "steady_tol"])
def test_a_float_that_is_not_finite_is_refused_as_written(tmp_path, key, written, expected):
    """TOML reads nan, inf and an overflowing 1e400 as floats: --set re=-nan and --set re=+inf were refused as 're =
    nan' and 're = inf', and re = 1e400 (the range of float64 passed) as 're = inf', a value the user never wrote. Each
    is said as written, through --set and through a file, for a case's float and a common one."""
    msg = error("cavity2d", parse_sets([f"{key}={written}"]))
    assert f"{key} = {written}: expected {expected}" in msg, msg
    f = tmp_path / "c.toml"
    f.write_text(f'case = "cavity2d"\n{key} = {written}\n')
    msg = error(str(f))
    assert f"{f}: {key} = {written}: expected {expected}" in msg, msg


def test_a_nan_given_to_a_setting_of_another_type_is_said_as_written():
    """The text of a non-finite float shows in every refusal of its value, not just a float's (n = -nan: 'n = nan')."""
    assert "n = -nan: expected an integer" in error("cavity2d", parse_sets(["n=-nan"]))
    assert "collision = +inf: expected a string" in error("cavity2d", parse_sets(["collision=+inf"]))
    assert resolve("cavity2d", parse_sets(["re=1e2"])).params["re"] == 100.0  # a finite float is a plain float
    assert type(parse_sets(["re=1e2"])["re"]) is float
