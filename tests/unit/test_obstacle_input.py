"""Bad obstacle, mask and probe input of the channel cases: one configuration error line naming the key,
the value and what was expected (exit status 2), never a traceback, never silent acceptance
(issue 11). Nothing here runs more than one step: refusals happen before the lattice is built."""

from __future__ import annotations

import os
import re
import signal

import numpy as np
import pytest

from distlbm import geometry as geo
from distlbm.cases import CASES
from distlbm.cases.base import ConfigError
from distlbm.cases.obstacles import parse_obstacles
from distlbm.config import resolve

N = 10  # channel_flow at n = 10: dx = 0.01, lattice 221 x 43 (2D)
SHAPE2 = (221, 43)


def refused(cli, tmp_path, *sets):
    """Run channel_flow with the --set values; assert one configuration error line and return it."""
    args = ["run", "channel_flow", "--set", f"n={N}"]
    for s in sets:
        args += ["--set", s]
    rc, out, err = cli(*args, "--steps", 1, "--out", tmp_path / "out")
    lines = [x for x in err.splitlines() if x.strip() and not x.startswith("warning")]
    assert rc == 2, (rc, out, err)
    assert len(lines) == 1 and lines[0].startswith("distlbm: configuration error: "), err
    assert "Traceback" not in err
    return lines[0]


# ---- obstacle spec strings --------------------------------------------------------------------------
@pytest.mark.parametrize("spec, expected", [
    ("circle(nan,0.2,0.05)", r"'nan' is not a finite number; expected finite numbers"),
    ("circle(0.5,0.2,inf)", r"'inf' is not a finite number; expected finite numbers"),
    ("circle(1e999,0.2,0.05)", r"'1e999' is not a finite number"),
    ("circle(0_5,0.2,0.05)", r"'0_5' is not a number; expected finite numbers written as plain decimals"),
    ("circle(0x1,0.2,0.05)", r"'0x1' is not a number"),
    ("circle(50,50,0.05)", r"has no part inside the channel; expected obstacles that overlap the domain "
                           r"0 < x < 2.2, 0 < y < 0.41"),
    ("box(-1,-1,5,5)", r"reaches the inlet at x = 0 .*expected obstacles clear of the inlet and outlet cells"),
    ("circle(0.03,0.2,0.05)", r"reaches the inlet at x = 0"),
    ("circle(2.18,0.2,0.05)", r"reaches the outlet at x = 2.2"),
    ("circle(1,0.2,0.3)", r"blocks the whole channel: it reaches from wall to wall \(y from 0 to H = 0.41\); "
                          r"expected a fluid path from the inlet to the outlet"),
    ("circle(1,0.205,0.205)", r"blocks the whole channel"),  # touches both walls
    ("circle(1,0.205,0.2045)", r"covers every fluid cell of the channel's cross-section at x = 1"),  # sub-cell gaps
    ("box(1,-0.1,1.2,0.2) + box(1.1,0.2,1.3,0.5)", r"'box\(1,-0.1,1.2,0.2\)' \+ 'box\(1.1,0.2,1.3,0.5\)' block the "
                                                  r"whole channel: together they reach from wall to wall"),
    ("box(1,-0.1,1.2,0.2); circle(1.25,0.3,0.12)", r"block the whole channel"),  # two bodies together
    ("circle(0.5,0.2,0.05) + circle(-1,0.2,0.05)", r"'circle\(-1,0.2,0.05\)' has no part inside the channel"),
    # smaller than a cell: no solid cell, and the run reported cD 0 (exit 0)
    ("circle(0.5,0.2,0.0001)", r"the obstacle holds no cell centre of the lattice \(dx = 0.01\): it would make no "
                               r"solid cell and report a force of 0; expected each body to cover at least one fluid "
                               r"cell: make it larger or the lattice finer \(raise n\)"),
    ("circle(0.5,0.2,0.004)", r"holds no cell centre"),  # the nearest centres are 0.005 away
    ("circle(0.5,0.2,0.05); box(1.001,0.2,1.004,0.25)", r"'box\(1.001,0.2,1.004,0.25\)' holds no cell centre"),
    ("circle(0.5,0.2,0.05); circle(0.5,0.2,0.02)", r"'circle\(0.5,0.2,0.02\)' lies inside an earlier body \(a cell "
                                                   r"belongs to the first body that holds it\); expected each body to "
                                                   r"hold cells of its own: join overlapping shapes with '\+'"),
])
def test_bad_obstacles_are_one_line(cli, tmp_path, spec, expected):
    line = refused(cli, tmp_path, f"obstacles={spec}")
    assert re.search(r"obstacles = '" + re.escape(spec) + "': " + r".*" + expected, line), line


def test_numbers_are_parsed_strictly():
    # (digits of other scripts, \u0660-\u0669 or fullwidth ones, matched \d and float() read them: 0.2 as '\u0660.\u0662')
    for bad in ("0_5", "nan", "-inf", "Infinity", "1e", "1.2.3", "", "5 5", "0b1", "½", "\u0660.\u0662", "\uff10.2"):
        with pytest.raises(ConfigError, match=r"obstacles = .*not a (finite )?number"):
            parse_obstacles(f"circle({bad}, 0.2, 0.05)", 2)
    (c,) = parse_obstacles("circle(+5e-1, .2, 5.E-2)", 2)
    assert c.center == (0.5, 0.2) and c.radius == 0.05
    (u,) = parse_obstacles("circle(1e+0, 0.2, 0.05) + box(1, 0.1, 1.2e+0, 0.3)", 2)  # '+' in a number is a sign
    assert isinstance(u, geo.Union) and u.shapes[0].center == (1.0, 0.2) and u.shapes[1].hi == (1.2, 0.3)


@pytest.mark.parametrize("spec", [
    "circle(0.2, 0.2, 0.05)",  # the default
    "circle(0.5,0.2,0.05); box(1,0.1,1.2,0.3)",  # the README's example
    "box(1,-0.1,1.2,0.1)",  # attached to (and crossing) the bottom wall
    "box(1,0.3,1.2,0.5); circle(1.5,0,0.2)",  # one touching each wall, apart
    "box(1,-0.1,1.2,0.15) + box(1.1,0.1,1.3,0.2)",  # a union on one wall
    "circle(1,0.205,0.19)",  # a big circle with a gap of 1.5 cells at each wall
    "circle(0.06,0.2,0.04)",  # clear of the inlet cells by more than one cell
    "circle(0.5,0.2,0.05) + circle(0.5,0.2,0.02)",  # one body: overlapping members are fine
    "circle(0.5,0.2,0.006)",  # a body of two cells (their centres at x = 0.5, y = 0.195 and 0.205)
    "box(0.5,0.1,0.5001,0.3)",  # one column of cells (the centres at x = 0.5)
])
def test_legitimate_obstacles_pass(spec):
    resolve("channel_flow", {"n": N, "obstacles": spec})


def test_periodic_sides_block_across_the_period():
    resolve("channel_flow", {"n": N, "sides": "periodic", "obstacles": "circle(1,0.2,0.2)"})  # a 1-cell gap
    with pytest.raises(ConfigError, match=r"obstacles = 'circle\(1,0.2,0.21\)': the obstacle blocks"):
        resolve("channel_flow", {"n": N, "sides": "periodic", "obstacles": "circle(1,0.2,0.21)"})


def test_a_body_across_a_periodic_side_is_warned_to_be_cut_there():
    """With periodic sides a body is voxelised where it lies, not continued across the period: a sphere at y = 0.39
    of a 0.4 period made 346 solid cells of its 522, none at y = 0, and nothing was said."""
    per = {"lattice": "D3Q19", "n": N, "length": 1.0, "height": 0.4, "width": 0.4, "sides": "periodic",
           "profile": "uniform"}
    cfg = resolve("channel_flow", dict(per, obstacles="sphere(0.5,0.39,0.2,0.05)"))
    said = [w for w in cfg.warnings if "periodic side" in w]
    assert said == ["obstacles = 'sphere(0.5,0.39,0.2,0.05)': the obstacle crosses the periodic side y = 0.4 (it spans "
                    "y = 0.34 .. 0.44): a body is cut there, not continued across the period (its part beyond is not "
                    "at the other side); move it inside the period, or give its other part as a shape of its own"], said
    cfg = resolve("channel_flow", dict(per, obstacles="sphere(0.5,0.2,0.2,0.05); box(0.7,0.1,-0.1,0.8,0.2,0.1)"))
    assert [w.split(": ", 1)[1][:67] for w in cfg.warnings if "periodic side" in w] == [
        "'box(0.7,0.1,-0.1,0.8,0.2,0.1)' crosses the periodic side z = 0 (it"]
    # inside the period, touching a side, a cylinder along z, or between walls: nothing said
    for extra in ({"obstacles": "sphere(0.5,0.2,0.2,0.05); box(0.7,0,0,0.8,0.1,0.4)"},
                  {"obstacles": "cylinder(0.5,0.2,0.05)"},
                  {"obstacles": "sphere(0.5,0.39,0.2,0.05)", "sides": "walls", "profile": "parabolic"}):
        cfg = resolve("channel_flow", dict(per, **extra))
        assert not [w for w in cfg.warnings if "periodic side" in w], (extra, cfg.warnings)


def test_a_body_whose_part_beyond_a_periodic_side_holds_no_cell_is_not_warned():
    """The warning went by the box alone (beyond the side by more than half a cell): a sphere whose cap beyond
    y = 0.4 holds no cell centre's image (it lost no cell) was said to be cut; the images are asked."""
    per = {"lattice": "D3Q19", "n": N, "length": 1.0, "height": 0.4, "width": 0.4, "sides": "periodic",
           "profile": "uniform"}
    # cells of dx = 0.01 at x = i dx, y and z = (j + 1/2) dx: the cap y > 0.405 of radius 0.0033 around (0.5, 0.2)
    # holds no image (0.5, 0.405, 0.195 or 0.205); a radius of 0.056 makes its cap 0.0105 wide, which holds two
    for r, warned in ((0.0551, False), (0.056, True)):
        for y in (0.35, 0.05):  # beyond y = 0.4, below y = 0
            cfg = resolve("channel_flow", dict(per, obstacles=f"sphere(0.5,{y},0.2,{r})"))
            assert bool([w for w in cfg.warnings if "periodic side" in w]) == warned, (r, y, cfg.warnings)


D3 = {"lattice": "D3Q19", "n": N, "length": 1.0, "height": 0.4, "width": 0.3}


@pytest.mark.parametrize("spec, ok", [
    ("sphere(0.5,0.2,0.15,0.26)", False),  # reaches past the duct's corners
    ("sphere(0.5,0.2,0.15,0.2)", True),  # leaves the corners open
    ("box(0.5,-0.1,-0.1,0.6,0.5,0.5)", False),
    ("box(0.5,0,0,0.6,0.4,0.3)", False),  # exactly the cross-section
    ("box(0.5,-0.1,-0.1,0.6,0.5,0.2)", True),  # open above z = 0.2
    ("cylinder(0.5,0.2,0.2)", False),  # along z, across the whole height
    ("cylinder(0.5,0.2,0.15)", True),
    ("box(0.5,-0.1,-0.1,0.6,0.5,0.2) + box(0.55,-0.1,0.15,0.7,0.5,0.4)", False),  # together, at x = 0.55
    ("box(0.5,-0.1,-0.1,0.6,0.5,0.2); box(0.65,-0.1,0.15,0.7,0.5,0.4)", True),  # staggered: a path between
])
def test_3d_cross_section_blocking(spec, ok):
    if ok:
        resolve("channel_flow", dict(D3, obstacles=spec))
    else:
        with pytest.raises(ConfigError, match=r"obstacles = .*cover.? every fluid cell of the channel's "
                                              r"cross-section at x = .*\(y from 0 to H = 0.4, z from 0 to W = 0.3\); "
                                              r"expected a fluid path"):
            resolve("channel_flow", dict(D3, obstacles=spec))


def test_3d_outside_and_presets():
    with pytest.raises(ConfigError, match=r"has no part inside the channel; .* 0 < z < 0.3"):
        resolve("channel_flow", dict(D3, obstacles="sphere(0.5,0.2,5,0.05)"))
    with pytest.raises(ConfigError, match=r"'sphere\(0.5,0.2,0.15,0.001\)': the obstacle holds no cell centre"):
        resolve("channel_flow", dict(D3, obstacles="sphere(0.5,0.2,0.15,0.001)"))
    for case in ("schaefer_turek_2d1", "schaefer_turek_2d2", "schaefer_turek_3d1z", "sphere"):
        resolve(case, {})
    with pytest.raises(ConfigError, match=r"upstream = 0.55 .*reaches the inlet or outlet cells; expected 0.5833"):
        resolve("sphere", {"upstream": 0.55})


@pytest.mark.parametrize("box, expected", [
    ("1_0x6x6", r"'1_0' is not a number"),  # ran as a 10x6x6 box
    ("10xnanx6", r"'nan' is not a finite number"),  # "cannot convert float NaN to integer"
    ("10x6xinf", r"'inf' is not a finite number"),
    ("10x6", r"2 sizes"),
])
def test_the_sphere_box_is_parsed_strictly(box, expected):
    with pytest.raises(ConfigError, match=rf"^box = '{box}': {expected}; expected three sizes in diameters, e.g. "
                                          rf"10x6x6 \(finite numbers written as plain decimals"):
        resolve("sphere", {"box": box})
    resolve("sphere", {"box": "1e1x6X6"})


# ---- the number of bodies ----------------------------------------------------------------------------
def test_too_many_bodies_is_one_line(cli, tmp_path):
    spec = "; ".join(f"circle({0.1 + 0.0004 * i:.4f},0.2,0.0001)" for i in range(5000))
    f = tmp_path / "many.toml"
    f.write_text(f'case = "channel_flow"\nn = {N}\nobstacles = "{spec}"\n')
    rc, out, err = cli("run", f, "--steps", 1, "--out", tmp_path / "out")
    assert rc == 2 and "Traceback" not in err
    line = err.strip().splitlines()[-1]
    assert line.startswith(f"distlbm: configuration error: {f}: obstacles = 'circle(0.1000,0.2,0.0001); ")
    assert "(134998 characters): 5000 bodies; expected at most 255 bodies" in line and len(line) < 400
    # 255 bodies are fine; the mask counts as one more
    # (each holds one cell centre of its own: x = 0.2, 0.21, ...; y = 0.105 or 0.305)
    spec = "; ".join(f"circle({0.2 + 0.01 * (i % 128):.2f},{0.105 if i < 128 else 0.305},0.004)" for i in range(255))
    resolve("channel_flow", {"n": N, "obstacles": spec})
    np.save(tmp_path / "m.npy", np.zeros(SHAPE2, np.uint8))
    with pytest.raises(ConfigError, match=r"255 bodies and the mask; expected at most 255 bodies"):
        resolve("channel_flow", {"n": N, "obstacles": spec, "mask": str(tmp_path / "m.npy")})


# ---- mask files --------------------------------------------------------------------------------------
def _masks(tmp_path):
    import h5py

    p = tmp_path
    np.save(p / "zero_d.npy", np.array(1, np.uint8))
    np.save(p / "three_d.npy", np.zeros((3, 3, 3), np.uint8))
    np.save(p / "neg.npy", -np.ones(SHAPE2, np.int16))
    big = np.zeros(SHAPE2, np.int32)
    big[100, 20] = 256
    np.save(p / "big.npy", big)
    np.save(p / "obj.npy", np.array([None] * 4, dtype=object), allow_pickle=True)
    (p / "text.npy").write_text("hello, not a mask\n")
    ok = np.zeros(SHAPE2, np.uint8)
    ok[50:55, 10:15] = 1
    np.save(p / "ok.npy", ok)
    raw = (p / "ok.npy").read_bytes()
    (p / "trunc.npy").write_bytes(raw[:len(raw) // 2])
    with h5py.File(p / "zero_d.h5", "w") as f:
        f["m"] = np.uint8(1)
    with h5py.File(p / "neg.h5", "w") as f:
        f["m"] = -np.ones(SHAPE2, np.int16)
    (p / "text.h5").write_text("not hdf5")
    os.mkdir(p / "dir.npy")
    os.mkfifo(p / "fifo.npy")
    os.symlink("/dev/zero", p / "devzero.npy")
    _outside_masks(p, str(p / "zeros.bin"))
    with h5py.File(p / "empty.h5", "w") as f:
        f.create_group("g")
    with h5py.File(p / "two.h5", "w") as f:
        f["a"] = np.zeros(SHAPE2, np.uint8)
        f["b"] = np.zeros(SHAPE2, np.uint8)


def _outside_masks(p, target):
    """HDF5 masks whose data lie outside the file, in `target`: external raw storage, a virtual dataset
    and an external link (to a FIFO, opening any of them blocked forever)."""
    import h5py

    if not os.path.exists(target):
        with open(target, "wb") as f:
            f.write(bytes(SHAPE2[0] * SHAPE2[1]))
    with h5py.File(p / "external.h5", "w") as f:
        f.create_dataset("m", shape=SHAPE2, dtype=np.uint8, external=[(target, 0, h5py.h5f.UNLIMITED)])
    with h5py.File(p / "virtual.h5", "w") as f:
        layout = h5py.VirtualLayout(shape=SHAPE2, dtype=np.uint8)
        layout[...] = h5py.VirtualSource(target, "m", shape=SHAPE2)
        f.create_virtual_dataset("m", layout, fillvalue=0)
    with h5py.File(p / "link.h5", "w") as f:
        f["m"] = h5py.ExternalLink(target, "/m")


MASK_CASES = [
    ("zero_d.npy", r"holds a 0-D array \(shape \(\)\); expected a 2-D array of the lattice spatial shape \(221, 43\)"),
    ("three_d.npy", r"holds a 3-D array \(shape \(3, 3, 3\)\); expected a 2-D array"),
    ("zero_d.h5", r"holds a 0-D array"),
    ("neg.npy", r"negative value -1 at cell \(0, 0\) is not a body id; expected body ids 0..255"),
    ("neg.h5", r"negative value -1 at cell \(0, 0\) is not a body id"),
    ("big.npy", r"value 256 at cell \(100, 20\) is not a body id; expected body ids 0..255"),
    ("obj.npy", r"holds Python objects \(dtype object\); expected bool or integers"),
    ("text.npy", r"not a NumPy .npy file \(bad header\)$"),
    ("trunc.npy", r"truncated: header says 9503 bytes of data, file has \d+$"),
    ("text.h5", r"not an HDF5 file"),
    ("dir.npy", r"is a directory, not a regular file"),
    ("fifo.npy", r"is a FIFO \(named pipe\), not a regular file"),
    ("devzero.npy", r"is a character device, not a regular file"),
    ("missing.npy", r"no such file"),
    ("external.h5", r"'/m' is stored in an external raw data file; expected the mask stored in the file itself$"),
    ("virtual.h5", r"'/m' is a virtual dataset \(its data lie in other files\); expected the mask stored in the "
                   r"file itself$"),
    ("empty.h5", r"holds no dataset; expected an HDF5 file with the mask as a dataset$"),
    ("two.h5", r"holds 2 datasets \(a, b\); expected one, or the one to use named with mask_dataset = NAME$"),
]


@pytest.mark.parametrize("name, expected", MASK_CASES)
def test_bad_mask_files_are_one_line(cli, tmp_path, name, expected):
    _masks(tmp_path)
    path = tmp_path / name

    def hung(*_):
        raise TimeoutError(f"mask {name}: still opening after 30 s")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(30)  # a FIFO opened for reading blocks until a writer comes: never
    try:
        line = refused(cli, tmp_path, "obstacles=", f"mask={path}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert re.search(r"mask = '" + re.escape(str(path)) + "': " + expected, line), line


def test_mask_dataset_naming_an_external_link_is_refused(cli, tmp_path):
    _masks(tmp_path)
    path = tmp_path / "link.h5"
    line = refused(cli, tmp_path, "obstacles=", f"mask={path}", "mask_dataset=m")
    assert re.search(r"mask = '" + re.escape(str(path)) + r"': '/m' is an external link \(to .*zeros.bin:/m\); "
                     r"expected the mask stored in the file itself$", line), line


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name", ["external.h5", "virtual.h5", "link.h5"])
def test_hdf5_mask_reaching_a_fifo_never_blocks(module_cli, tmp_path, name):
    """In a fresh interpreter with a time limit: HDF5 waits on a FIFO where no signal reaches it."""
    import subprocess

    os.mkfifo(tmp_path / "fifo")
    _outside_masks(tmp_path, str(tmp_path / "fifo"))
    try:
        r = module_cli("run", "channel_flow", "--set", f"n={N}", "--set", "obstacles=", "--set",
                       f"mask={tmp_path / name}", "--set", "mask_dataset=m", "--steps", 1, "--out", tmp_path / "out",
                       timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"a mask {name} reaching a FIFO blocked")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "expected the mask stored in the file itself" in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_good_masks_still_load(tmp_path):
    _masks(tmp_path)
    resolve("channel_flow", {"n": N, "obstacles": "", "mask": str(tmp_path / "ok.npy")})
    ids = np.zeros(SHAPE2, np.int32)
    ids[50:55, 10:15] = 255
    np.save(tmp_path / "ids.npy", ids)
    resolve("channel_flow", {"n": N, "obstacles": "", "mask": str(tmp_path / "ids.npy")})


def test_integer_mask_ids_are_bodies_after_the_obstacles(tmp_path):
    """Each distinct id of an integer mask is a body after the obstacles' (summary.json's units name them): a mask
    with ids 1 and 3 beside a circle used to make the circle and id 1 one body and drop id 3's force."""
    ids = np.zeros(SHAPE2, np.int32)
    ids[50:60, 15:25] = 1
    ids[120:130, 15:25] = 3
    np.save(tmp_path / "ids.npy", ids)
    cfg = resolve("channel_flow", {"n": N, "obstacles": "circle(0.3,0.2,0.03)", "mask": str(tmp_path / "ids.npy")})
    assert cfg.setup.features.bodies == 3
    assert cfg.setup.units["bodies"] == ["circle(0.3,0.2,0.03)", "mask id 1", "mask id 3"]
    body = np.asarray(cfg.setup.geometry(tuple(slice(0, n) for n in SHAPE2))[4])
    assert set(np.unique(body[50:60, 15:25])) == {2} and set(np.unique(body[120:130, 15:25])) == {3}
    assert set(np.unique(body)) == {0, 1, 2, 3}
    many = (np.arange(np.prod(SHAPE2)).reshape(SHAPE2) % 255 + 1).astype(np.uint8)
    many[:, :2] = many[:, -2:] = 0
    np.save(tmp_path / "many.npy", many)
    with pytest.raises(ConfigError, match=r"its 255 body ids after the 1 bodies of obstacles/stl make 256; expected "
                                          r"at most 255 bodies"):
        resolve("channel_flow", {"n": N, "obstacles": "circle(0.3,0.2,0.03)", "mask": str(tmp_path / "many.npy")})


def test_the_body_line_counts_a_bodys_cells_inside_the_mask_as_the_bodys(tmp_path):
    """A cell of a body and of the mask is the body's (its id, its force): the start-up line counted it as the mask's:
    50 solid cells said of a box whose 110 the geometry holds."""
    m = np.zeros(SHAPE2, np.uint8)
    m[35:45, 5:25] = 1  # across the box's right half
    np.save(tmp_path / "m.npy", m)
    cfg = resolve("channel_flow", {"n": N, "obstacles": "box(0.3,0.1,0.4,0.2)", "mask": str(tmp_path / "m.npy")})
    body = np.asarray(cfg.setup.geometry(tuple(slice(0, n) for n in SHAPE2))[4])
    n = np.count_nonzero(body == 1)
    assert np.count_nonzero((body == 1) & (m != 0)) > 40 and np.count_nonzero(body == 2) > 0  # they overlap
    assert cfg.setup.report == [f"body 1 box(0.3,0.1,0.4,0.2): {n} solid cells ({n * 1e-4:.4g} m^2)"]


def test_side_walls_drawn_in_a_mask_are_walls_not_the_body(tmp_path):
    """A mask may draw the side walls (their rows are not checked as a body's), but their cells took the body's id:
    its drag held the walls' friction (+79 % cD on a square). The wall rows carry no body id."""
    m = np.zeros(SHAPE2, np.uint8)
    m[50:60, 15:25] = 1
    np.save(tmp_path / "body.npy", m)
    m[:, 0] = m[:, -1] = 1
    np.save(tmp_path / "walls.npy", m)
    full = tuple(slice(0, n) for n in SHAPE2)
    bodies = [np.asarray(resolve("channel_flow", {"n": N, "obstacles": "", "mask": str(tmp_path / name)})
                         .setup.geometry(full)[4]) for name in ("body.npy", "walls.npy")]
    assert np.array_equal(bodies[0], bodies[1]) and bodies[1][:, 0].max() == 0 and bodies[1][55, 20] == 1
    # walls drawn with an id of their own are no body (it was listed, 'mask id 2', with a force of 0)
    m[:, 0] = m[:, -1] = 2
    np.save(tmp_path / "own.npy", m)
    cfg = resolve("channel_flow", {"n": N, "obstacles": "", "mask": str(tmp_path / "own.npy")})
    own = np.asarray(cfg.setup.geometry(full)[4])
    assert np.array_equal(own, bodies[0]) and cfg.setup.features.bodies == 1, cfg.setup.features.bodies
    assert cfg.setup.units["bodies"] == ["mask id 1"], cfg.setup.units["bodies"]
    # the probes' solid test counts the ids the same way (it counted the walls' id: 255 + 1 bodies refused there)
    m[:, 0] = m[:, -1] = 255
    np.save(tmp_path / "own255.npy", m)
    cfg = resolve("channel_flow", {"n": N, "obstacles": "", "mask": str(tmp_path / "own255.npy"), "probes": "1.5,0.2"})
    assert cfg.setup.units["bodies"] == ["mask id 1"]


def test_mask_values_are_scanned_in_slabs(tmp_path):
    a = np.zeros((40, 7, 5), np.int16)
    a[33, 6, 2] = 300
    np.save(tmp_path / "a.npy", a)
    m = geo.MaskFile(tmp_path / "a.npy")
    with pytest.raises(ValueError, match=r"value 300 at cell \(33, 6, 2\) is not a body id"):
        m.check_values(max_bytes=100)  # slabs of one plane
    assert m.bytes_read <= 34 * 7 * 5 * 2  # stopped at the slab with the bad value
    a[33, 6, 2] = 255
    np.save(tmp_path / "a.npy", a)
    geo.MaskFile(tmp_path / "a.npy").check_values(max_bytes=100)
    fortran = np.asfortranarray(np.arange(12, dtype=np.uint8).reshape(3, 4))
    np.save(tmp_path / "f.npy", fortran)
    m = geo.MaskFile(tmp_path / "f.npy")
    np.testing.assert_array_equal(m.read([np.arange(3), np.arange(1, 3)]), fortran[:, 1:3])


def _mask_with(cells, dtype=bool, shape=SHAPE2):
    m = np.zeros(shape, dtype)
    for sel, v in cells:
        m[sel] = v
    return m


# A mask was checked for its values only: one that blocked the channel (mass drift +77 %, cD 1913), filled it
# (an inverted mask, 0 = solid) or covered the inlet (a step from x = 0: the inlet pushed its profile into the
# wall) ran to the end with exit status 0.
BLOCKING_MASKS = [
    ("wall", [((100, slice(1, 42)), 1)], r"blocks the whole channel: every cell of the cross-section at x index 100 "
                                         r"\(x = 1\), inside the side walls, is solid; expected a fluid path from the "
                                         r"inlet to the outlet: a gap in every cross-section$"),
    ("wall_and_walls", [((100, slice(None)), 1)], r"blocks the whole channel: .*cross-section at x index 100 \(x = 1\)"),
    ("inverted", [((slice(None), slice(None)), 1), ((slice(50, 60), slice(10, 20)), 0)],
     r"blocks the whole channel: .* at x index 2 \(x = 0.02\), inside the side walls, is solid \(207 planes in all, "
     r"x index 2 .. 218\); .*; 99% of the channel's fluid cells are solid: nonzero mask cells are solid \(an "
     r"inverted mask, 0 = solid, fills the channel\)$"),
    ("step", [((slice(0, 30), slice(1, 15)), 1)], r"14 solid cells at x index 0 \(x = 0\), on the inlet plane; "
                                                  r"expected obstacles clear of the inlet and outlet cells and their "
                                                  r"neighbours: solid cells at x index 2 .. 218 only \(the inlet "
                                                  r"imposes its profile on its whole plane\)$"),
    ("near_inlet", [((1, slice(5, 9)), 3)], r"4 solid cells at x index 1 \(x = 0.01\), on the inlet cells' neighbours"),
    ("near_outlet", [((219, slice(5, 9)), 1)], r"4 solid cells at x index 219 \(x = 2.19\), on the outlet cells' "
                                               r"neighbours; .* x index 2 .. 218 only$"),
    ("outlet", [((220, 20), 1)], r"1 solid cells at x index 220 \(x = 2.2\), on the outlet plane"),
    # no body at all (it ran, and reported cD 0 for the body 'mask'); solid in the side walls' rows only, likewise
    ("empty", [], r"no solid cell in the channel \(the side walls' rows aside\): every value there is 0; expected a "
                  r"body: nonzero mask cells are solid \(for a channel without one: mask = ''\)$"),
    ("walls_only", [((slice(None), 0), 1)], r"no solid cell in the channel"),
]


@pytest.mark.parametrize("name, cells, expected", BLOCKING_MASKS, ids=[c[0] for c in BLOCKING_MASKS])
@pytest.mark.parametrize("dtype", [bool, np.uint8])
def test_masks_that_block_the_channel_or_touch_its_ends_are_one_line(cli, tmp_path, name, cells, expected, dtype):
    path = tmp_path / f"{name}.npy"
    np.save(path, _mask_with(cells, dtype))
    line = refused(cli, tmp_path, "obstacles=", f"mask={path}")
    assert re.search(r"mask = '" + re.escape(str(path)) + "': " + expected, line), line


def test_masks_with_a_gap_or_solid_walls_at_the_ends_still_run(tmp_path):
    """The rules leave alone what is fine: one open row is a gap; solid side-wall rows at the inlet and outlet
    (a mask that draws the walls too) are walls anyway; solid cells from x index 2 to nx - 3."""
    import h5py

    ok = {
        "gap": [((100, slice(2, 42)), 1)],
        "walls_drawn": [((slice(None), 0), 1), ((slice(None), 42), 1), ((slice(60, 70), slice(10, 20)), 2)],
        "ends": [((2, slice(5, 9)), 1), ((218, slice(5, 9)), 1)],
    }
    for name, cells in ok.items():
        np.save(tmp_path / f"{name}.npy", _mask_with(cells, np.uint8))
        resolve("channel_flow", {"n": N, "obstacles": "", "mask": str(tmp_path / f"{name}.npy")})
    with h5py.File(tmp_path / "wall.h5", "w") as f:  # HDF5, read in slabs like the .npy
        f["m"] = _mask_with([((100, slice(1, 42)), 1)])
    with pytest.raises(ConfigError, match=r"blocks the whole channel"):
        resolve("channel_flow", {"n": N, "obstacles": "", "mask": str(tmp_path / "wall.h5")})


def test_mask_solid_cells_in_the_absorbing_layer_and_in_3d(tmp_path):
    np.save(tmp_path / "late.npy", _mask_with([((205, slice(5, 9)), 1)]))
    with pytest.raises(ConfigError, match=r"^sponge = 0.2: mask = '.*late.npy': solid cells up to x index 205 "
                                          r"\(x = 2.05\), into the layer from x = 2 to the outlet; expected obstacles "
                                          r"ahead of it, x < 1.99 \(one cell dx = 0.01 before it\)$"):
        resolve("channel_flow", {"n": N, "obstacles": "", "sponge": 0.2, "mask": str(tmp_path / "late.npy")})
    np.save(tmp_path / "early.npy", _mask_with([((198, slice(5, 9)), 1)]))
    resolve("channel_flow", {"n": N, "obstacles": "", "sponge": 0.2, "mask": str(tmp_path / "early.npy")})
    three = {"lattice": "D3Q19", "n": 4, "length": 1.1, "height": 0.41, "width": 0.41, "obstacles": ""}
    shape3 = (45, 18, 18)
    np.save(tmp_path / "plug.npy", _mask_with([((20, slice(1, 17), slice(1, 17)), 1)], np.uint8, shape3))
    with pytest.raises(ConfigError, match=r"cross-section at x index 20 \(x = 0.5\), inside the side walls, is solid"):
        resolve("channel_flow", dict(three, mask=str(tmp_path / "plug.npy")))
    np.save(tmp_path / "holed.npy", _mask_with([((20, slice(1, 17), slice(1, 16)), 1)], np.uint8, shape3))
    resolve("channel_flow", dict(three, mask=str(tmp_path / "holed.npy")))


def test_mask_planes_are_counted_in_slabs(tmp_path):
    rng = np.random.default_rng(7)
    for dtype in (bool, np.uint8, np.int32):
        a = (rng.random((30, 6, 5)) < 0.4).astype(dtype)
        np.save(tmp_path / "a.npy", a)
        cross = (slice(1, 5), slice(0, 5))
        m = geo.MaskFile(tmp_path / "a.npy")
        m.check_values(max_bytes=1, cross=cross)  # one plane per slab
        np.testing.assert_array_equal(m.plane_solid, np.count_nonzero(a[:, 1:5, 0:5], axis=(1, 2)))
        assert m.bytes_read == a.nbytes  # read once, whole
        assert m.ids == (None if dtype is bool else [1])


# ---- probes --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("key, value, expected", [
    ("probe_line", "0.1,0.1;0.5,0.1;-5", r"npoints = '-5'; expected 'x0,y0; x1,y1; npoints' with npoints a positive "
                                         r"integer"),
    ("probe_line", "0.1,0.1;0.5,0.1;0", r"npoints = '0'; .*npoints a positive integer"),
    ("probe_line", "0.1,0.1;0.5,0.1;2.5", r"npoints = '2.5'; .*npoints a positive integer"),
    ("probe_line", "0.1,0.1;0.5,0.1;\u0665", r"npoints = '\u0665'; .*npoints a positive integer"),  # (int() read 5)
    ("probe_line", "0.1,0.1;0.5,0.1", r"2 part\(s\) separated by ';'; expected .*npoints a positive integer"),
    ("probe_line", "nan,0.1;0.5,0.1;5", r"'nan,0.1' is not a point 'x,y': 'nan' is not a finite number"),
    ("probe_line", "0.1,0.1;50,0.1;5", r"point \(50, 0.1\) lies outside the channel; expected x in \[0, 2.2\], "
                                       r"y in \[0, 0.41\]"),
    ("probes", "nan,0.1", r"'nan' is not a finite number"),
    ("probes", "0.1,inf", r"'inf' is not a finite number"),
    ("probes", "50,0.1", r"point \(50, 0.1\) lies outside the channel"),
    ("probes", "0.1,-0.2", r"point \(0.1, -0.2\) lies outside the channel"),
    ("probe_dp", "0.1,0.1; 9,0.1", r"point \(9, 0.1\) lies outside the channel"),
    # inside the default cylinder circle(0.2, 0.2, 0.05): it read rest (p 0, u 0) at every sample, unsaid
    ("probes", "0.5,0.2; 0.2,0.2", r"point \(0.2, 0.2\) lies inside a body or a wall \(every cell it is read from "
                                   r"is solid: it would read rest, 0\); expected a point in the fluid"),
    ("probe_dp", "0.21,0.19; 0.5,0.2", r"point \(0.21, 0.19\) lies inside a body or a wall"),
    # ';' alone sampled nothing, ';;' skipped the point left out, unsaid (as obstacles did)
    ("probes", ";", r"item 1 of 1 between ';' is empty; expected points 'x,y' separated by ';' \(probes = '' for "
                    r"none\)"),
    ("probes", "0.5,0.1;;0.6,0.1", r"item 2 of 3 between ';' is empty; expected points 'x,y' separated by ';'"),
    ("probe_dp", "0.5,0.1;;0.6,0.1", r"item 2 of 3 between ';' is empty"),
    ("probe_dp", ";0.5,0.1;0.6,0.1", r"item 1 of 3 between ';' is empty"),
    # one point twice: dP = 0 at every sample, a line of npoints samples of one point, unsaid
    ("probe_dp", "0.5,0.1; 0.5,0.1", r"both points are \(0.5, 0.1\); expected two different points"),
    # a probe point given twice: a second series pt3 identical to pt1, unsaid
    ("probes", "0.5,0.1; 0.6,0.1; 0.50,0.1", r"point \(0.5, 0.1\) is given twice \(items 1 and 3 of 3\); expected "
                                            r"each point once"),
    ("probe_line", "0.5,0.1; 0.5,0.1; 5", r"both ends are \(0.5, 0.1\); expected two different points \(or npoints = 1 "
                                         r"for one point\)"),
])
def test_bad_probes_are_one_line(cli, tmp_path, key, value, expected):
    line = refused(cli, tmp_path, f"{key}={value}")
    assert re.search(re.escape(f"{key} = {value!r}: ") + expected, line), line


def test_probe_points_that_read_the_same_cells_alike_are_said_and_others_in_one_cell_are_not():
    """A probe is interpolated, so two points in one cell read two series; two distinct points within round-off of
    one cell centre are snapped to it and read the same cells with the same weights: the same series twice. That is
    said (naming both and their items), not refused (a grid of points on a coarse run may do it)."""
    cfg = resolve("channel_flow", {"n": 10, "probes": "0.3,0.2; 0.300000001,0.2; 0.305,0.2"})
    said = [w for w in cfg.warnings if "same cells with the same weights" in w]
    assert len(said) == 1 and "points (0.3, 0.2) and (0.300000001, 0.2) (items 1 and 2)" in said[0], cfg.warnings
    assert "pt2 is the same series as pt1" in said[0]
    cfg = resolve("channel_flow", {"n": 10, "probes": [[0.3, 0.2], [0.305, 0.2], [0.3, 0.205]]})  # one cell, 3 reads
    assert list(cfg.setup.probes) == ["pt1", "pt2", "pt3"]
    assert not any("same cells" in w for w in cfg.warnings), cfg.warnings
    with pytest.raises(ConfigError, match=r"point \(0.3, 0.2\) is given twice \(items 1 and 2 of 2\)"):
        resolve("channel_flow", {"n": 10, "probes": [[0.3, 0.2], [0.3, 0.2]]})  # a TOML array alike


def test_a_probe_line_of_one_point_is_fine():
    assert resolve("channel_flow", {"n": 5, "probe_line": "0.5,0.1; 0.5,0.1; 1"}).params["probe_line"]


def test_one_semicolon_after_the_last_probe_is_harmless():
    cfg = resolve("channel_flow", {"n": 5, "probes": "0.5,0.1; 0.6,0.1;", "probe_dp": "0.5,0.1;0.6,0.1;"})
    assert list(cfg.setup.probes) == ["pt1", "pt2", "front", "back"]


def test_channel_names_its_velocity_key():
    """config.resolve's Mach number check names the case's velocity parameter (`velocity_key`)."""
    for name in ("channel_flow", "schaefer_turek_2d1", "schaefer_turek_3d1z", "sphere"):
        case = CASES[name]
        assert case.velocity_key == "u_lattice" and "u_lattice" in {p.name for p in case.params}


# ---- a fluid path from the inlet to the outlet -----------------------------------------------------------
# The per-plane rule above finds a plane whose every cell is solid. A slanted wall, staggered plates or a mask and
# obstacle strings that close the channel together passed it and ran to the end with exit 0: a 3-cell slanted wall
# across the n = 20 channel gained 40 % of its mass in 2400 steps, cD 1570 (2026-12-04).

def _reaches_outlet(solid, velocities, periodic):
    """Reference: breadth-first search from the inlet plane's fluid cells along the links (wrapping on the
    periodic axes); (whether the outlet plane is reached, the largest x index reached)."""
    from collections import deque

    fluid = ~solid
    seen = np.zeros_like(fluid)
    queue = deque()
    for cell in zip(*np.nonzero(fluid[0])):
        seen[(0,) + cell] = True
        queue.append((0,) + cell)
    reach = 0
    while queue:
        p = queue.popleft()
        reach = max(reach, p[0])
        for c in velocities:
            q = []
            for a, (x, o) in enumerate(zip(p, c)):
                x += int(o)
                if periodic[a]:
                    x %= solid.shape[a]
                elif not 0 <= x < solid.shape[a]:
                    break
                q.append(x)
            else:
                q = tuple(q)
                if fluid[q] and not seen[q]:
                    seen[q] = True
                    queue.append(q)
    return bool(seen[-1].any()), reach


@pytest.mark.parametrize("lattice, shape, walls", [
    ("D2Q9", (40, 12), True), ("D2Q9", (40, 12), False),
    ("D3Q19", (24, 7, 6), True), ("D3Q19", (24, 7, 6), False), ("D3Q27", (24, 6, 5), False),
])
def test_the_fluid_path_check_agrees_with_a_search_along_the_links(tmp_path, lattice, shape, walls):
    """Random masks near the percolation threshold, read in slabs of one to three planes: the check's verdict and
    the reach it names equal a breadth-first search's; with periodic sides some channels are open only across
    the period (a search that does not wrap finds them closed)."""
    from distlbm.cases.obstacles.layout import Layout
    from distlbm.cases.obstacles.spec import check_fluid_path, mask_cross_section
    from distlbm.lattice import get_lattice

    lat = get_lattice(lattice)
    d = lat.d
    lay = Layout(d=d, dx=1.0, dt=1.0, nu=0.1, nu_lat=0.1, tau=0.8, shape=shape, origin=(0.0,) * d, walls=walls,
                 ncross=tuple(n - 2 * walls for n in shape[1:]), u_lat=0.05, cross=tuple(float(n) for n in shape[1:]))
    cross = mask_cross_section(lay)
    periodic = (False,) + (not walls,) * (d - 1)
    rng = np.random.default_rng(11)
    verdicts, wrapped = set(), 0
    for trial in range(40):
        density = rng.uniform(0.45, 0.8) if d == 2 else rng.uniform(0.7, 0.9)
        m = (rng.random(shape) < density).astype(np.uint8)
        m[:2] = m[-2:] = 0  # the inlet and outlet cells and their neighbours: check_mask_cells' rule
        np.save(tmp_path / "m.npy", m)
        mask = geo.MaskFile(tmp_path / "m.npy")
        solid = m[(slice(None),) + cross] != 0
        opened, reach = _reaches_outlet(solid, lat.c, periodic)
        plane = m[0].nbytes
        try:
            check_fluid_path([], lay, lat.c, mask=mask, max_bytes=plane * (1 + trial % 3))
            said = True
        except ConfigError as e:
            said = False
            assert f"ends at x index {reach} " in str(e), (str(e), reach)
        assert said == opened, trial
        assert mask.bytes_read == m.nbytes  # read once, whole
        verdicts.add(said)
        if not walls and opened:
            wrapped += not _reaches_outlet(solid, lat.c, (False,) * d)[0]
    assert verdicts == {True, False}
    if not walls:
        assert wrapped, "no channel open only across the period was drawn"


def test_a_slanted_wall_or_a_mask_and_obstacles_closing_the_channel_are_one_line(cli, tmp_path):
    slant = _mask_with([((slice(100 + j, 103 + j), j), 1) for j in range(1, 42)], np.uint8)
    np.save(tmp_path / "slant.npy", slant)
    line = refused(cli, tmp_path, "obstacles=", f"mask={tmp_path / 'slant.npy'}")
    assert re.search(r"mask = '.*slant.npy': leaves no fluid path from the inlet to the outlet on the lattice \(dx = "
                     r"0.01\): the fluid connected to the inlet ends at x index 140 \(x = 1.4\), with no plane wholly "
                     r"solid .*; expected a fluid path from the inlet to the outlet along the lattice's links$", line), line
    # the mask closes the lower part of x = 1, a box the upper part: each alone leaves a gap
    lower = _mask_with([((slice(100, 102), slice(1, 25)), 1)], np.uint8)
    np.save(tmp_path / "lower.npy", lower)
    line = refused(cli, tmp_path, "obstacles=box(0.99,0.2,1.03,0.41)", f"mask={tmp_path / 'lower.npy'}")
    assert re.search(r"mask = '.*lower.npy' and obstacles = 'box\(0.99,0.2,1.03,0.41\)': together leave no fluid "
                     r"path from the inlet to the outlet on the lattice \(dx = 0.01\): the fluid connected to the inlet ends at x "
                     r"index 99 ", line), line
    resolve("channel_flow", {"n": N, "obstacles": "box(0.99,0.26,1.03,0.41)", "mask": str(tmp_path / "lower.npy")})
    resolve("channel_flow", {"n": N, "obstacles": "", "mask": str(tmp_path / "lower.npy")})
    open_slant = _mask_with([((slice(100 + j, 103 + j), j), 1) for j in range(1, 40)], np.uint8)  # two rows open
    np.save(tmp_path / "open.npy", open_slant)
    resolve("channel_flow", {"n": N, "obstacles": "", "mask": str(tmp_path / "open.npy")})


@pytest.mark.parametrize("spec, reach", [
    # two plates 0.8 cells apart in x, overlapping in y: they never touch, and no plane is covered, but no cell centre
    # lies between them: it ran 800 steps with +23 % of mass and exit 0
    ("box(1,0,1.021,0.2035);box(1.029,0.1935,1.05,0.41)", 102),
    # three plates, each gap narrower than a cell
    ("box(1,0,1.021,0.15);box(1.029,0.1435,1.05,0.3);box(1.058,0.2935,1.08,0.41)", 105),
])
def test_bodies_whose_gap_holds_no_cell_centre_are_one_line(cli, tmp_path, spec, reach):
    line = refused(cli, tmp_path, f"obstacles={spec}")
    assert re.search(r"obstacles = '" + re.escape(spec) + r"': leave no fluid path from the inlet to the outlet on the "
                     r"lattice \(dx = 0.01\): the fluid connected to the inlet ends at x index " + str(reach) + r" .*: "
                     r"widen the gaps or raise the resolution n$", line), line


def test_the_fluid_path_of_3d_primitives_and_periodic_sides(tmp_path):
    three = {"lattice": "D3Q19", "n": 4, "length": 1.1, "height": 0.41, "width": 0.41}
    # two plates 0.4 cells apart in x, overlapping in z: no cell centre between them, no plane covered
    closed = "box(0.5,0,0,0.55,0.41,0.2);box(0.56,0,0.17,0.65,0.41,0.41)"
    with pytest.raises(ConfigError, match=r"leave no fluid path from the inlet to the outlet on the lattice"):
        resolve("channel_flow", dict(three, obstacles=closed))
    resolve("channel_flow", dict(three, obstacles="box(0.5,0,0,0.55,0.41,0.2);box(0.65,0,0.19,0.75,0.41,0.41)"))
    # periodic sides: a plate through y = 0 (on both ends of the period) leaves a gap
    resolve("channel_flow", {"n": N, "sides": "periodic", "height": 0.4, "obstacles": "box(1,-0.1,1.05,0.3)"})


def test_the_default_2d_obstacle_on_a_3d_lattice_is_said_to_be_the_default():
    """channel_flow on D3Q19 without obstacles was refused for 'circle(0.2, 0.2, 0.05)' in 3D, a text the user
    never gave, with "expected a shape available in 3D" and no list of them."""
    with pytest.raises(ConfigError) as e:
        resolve("channel_flow", {"lattice": "D3Q19"})
    msg = str(e.value)
    assert "expected a shape available in 3D: cylinder(cx, cy, r (axis along z)), sphere(cx, cy, cz, r), box(" in msg
    assert msg.endswith("(the case's default obstacles; give obstacles = ... for this lattice, or obstacles = '' "
                        "for none)"), msg
    with pytest.raises(ConfigError) as e:  # a circle the user gave: no word about the default
        resolve("channel_flow", {"lattice": "D3Q19", "obstacles": "circle(0.2, 0.2, 0.06)"})
    assert "default" not in str(e.value)


def test_the_input_files_whose_contents_a_restart_compares_are_every_mask_and_stl_file(tmp_path):
    """A checkpoint keeps the digests of the files its run read (config.input_digests): the mask, the `stl` key's
    file and each stl(path, ...) of the obstacles, so that a restart whose file at the same path differs is refused
    (tests/parallel/test_reliability.py::test_a_restart_whose_input_file_changed_at_the_same_path_is_refused)."""
    from distlbm.config import changed_inputs, file_digest

    case = CASES["channel_flow"]
    p = {"mask": "m.npy", "stl": "a.stl", "obstacles": "sphere(0.5, 0.2, 0.2, 0.05); stl('b.stl', 0.001) + stl(c.stl)"}
    assert case.input_files(p) == [("mask", "m.npy"), ("stl", "a.stl"), ("obstacles", "b.stl"), ("obstacles", "c.stl")]
    assert case.input_files({"mask": "", "stl": "", "obstacles": "circle(0.2, 0.2, 0.05)"}) == []
    f = tmp_path / "m.npy"
    f.write_bytes(b"one")
    old = [{"key": "mask", "file": "m.npy", **file_digest(f)}]
    assert changed_inputs(old, [dict(old[0])]) == []
    f.write_bytes(b"two")
    (line,) = changed_inputs(old, [{"key": "mask", "file": "m.npy", **file_digest(f)}])
    assert line.startswith("mask = 'm.npy': the file's contents differ from those the run read (sha256 "), line
    assert changed_inputs(old, [{"key": "mask", "file": "other.npy", **file_digest(f)}]) == []  # a path change: a setting
    assert file_digest(tmp_path / "missing") is None


def test_an_stl_path_holding_a_separator_is_said_as_such(tmp_path, monkeypatch):
    """A file whose path holds ',', ';', '(' or ')' cannot be named in stl(...) (those characters separate the
    string's parts, quoted or not): it was refused as a wrong count of arguments or an unreadable shape, the cause
    unsaid. The line names it and the `stl` key, which takes any path."""
    monkeypatch.chdir(tmp_path)
    for folder in ("a,b", "p(1)"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "s.stl").write_bytes(b"")
    for spec, cannot in (("stl(a,b/s.stl, 0.1, 0.5, 0.2, 0.2)", "the file 'a,b/s.stl' holds ','"),
                         ("stl('a,b/s.stl')", "the file 'a,b/s.stl' holds ','"),
                         ("stl(p(1)/s.stl, 0.1)", "cannot read 'stl(p(1)/s.stl, 0.1)'"),
                         ("stl(x;y.stl, 0.1)", "cannot read 'stl(x'")):
        with pytest.raises(ConfigError) as e:
            resolve("channel_flow", {"lattice": "D3Q19", "obstacles": spec})
        assert cannot in str(e.value) and "a path in stl(...) cannot hold ',', ';', '(' or ')', quoted or not" in str(
            e.value) and "given by the stl key" in str(e.value), str(e.value)
    with pytest.raises(ConfigError) as e:  # a count of arguments that is wrong: said as before
        resolve("channel_flow", {"lattice": "D3Q19", "obstacles": "stl(a.stl, 0.1, 0.5)"})
    assert "expected stl(path[, scale[, tx, ty, tz[, rx, ry, rz]]])" in str(e.value) and "cannot hold" not in str(
        e.value), str(e.value)
