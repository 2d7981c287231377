"""io.output: light output (a sub-box, every k-th cell, planes) checked up front, cut block by block to
exactly the cells asked for, written with the values of the whole field, and opened by VTK's own XDMF
reader at the right coordinates."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import h5py
import numpy as np
import pytest

from distlbm.config import Cut, OutputSpec, resolve
from distlbm.errors import ConfigError
from distlbm.io.output import _cut_axis

from helpers import compiles, make_sim


# ---- the settings, checked up front -------------------------------------------------------------------

@pytest.mark.parametrize("sets,message", [
    ({"output_slices": "x=1.5"}, "output_slices = 'x=1.5': x = 1.5 is outside the lattice; expected a position "
                                 "inside x = 0 .. 1 with dx = 0.0625"),
    ({"output_slices": "w=0.5"}, "output_slices = 'w=0.5': 'w=0.5' is not AXIS=...; expected items AXIS=POSITION"),
    ({"output_slices": "i=16"}, "output_slices = 'i=16': i = 16 is outside the lattice; expected 0 <= i < 16"),
    ({"output_slices": "i=2.5"}, "output_slices = 'i=2.5': 'i=2.5' has '2.5' where an integer lattice index is "
                                 "expected"),
    ({"output_slices": "x=0.5; i=8"}, "'x=0.5' and i=8 are the same plane (x index 8); expected each plane once"),
    ({"output_slices": ";"}, "output_slices = ';': no plane given"),
    # ';' alone wrote the whole lattice, ';;' skipped an item left out: both unsaid (one ';' at the end is fine)
    ({"output_region": ";"}, "output_region = ';': no range given; expected items AXIS=LO:HI"),
    ({"output_region": "x=0.25:0.75;;k=3:9"}, "output_region = 'x=0.25:0.75;;k=3:9': item 2 of 3 is empty; "
                                              "expected items AXIS=LO:HI"),
    ({"output_slices": "x=0.5,,z=0.5"}, "output_slices = 'x=0.5,,z=0.5': item 2 of 3 is empty; expected items "
                                        "AXIS=POSITION"),
    ({"output_slices": "z=0.5", "lattice": "D2Q9"}, "output_slices = 'z=0.5': axis 'z' on a 2D lattice; expected "
                                                    "one of x, y or i, j"),
    ({"output_region": "x=0.5"}, "output_region = 'x=0.5': 'x=0.5' is not a range LO:HI; expected items AXIS=LO:HI"),
    ({"output_region": "x=0.6:0.2"}, "output_region = 'x=0.6:0.2': 'x=0.6:0.2' is empty; expected LO < HI"),
    ({"output_region": "x=0.1:0.2; i=3:5"}, "axis 'i' is given twice"),
    ({"output_region": "i=0:17"}, "output_region = 'i=0:17': i = 0:17 is outside the lattice; expected 0 <= LO < HI "
                                  "<= 16"),
    ({"output_region": "y=-1:0.5"}, "output_region = 'y=-1:0.5': y = -1 is outside the lattice"),
    ({"output_region": "x=0.5:0.51"}, "output_region = 'x=0.5:0.51': x = 0.5:0.51 holds no cell centre"),
    ({"output_region": "k=a:3"}, "output_region = 'k=a:3': 'k=a:3' has 'a' where an integer lattice index"),
    ({"output_slices": "i=\u0663"}, "output_slices = 'i=\u0663': 'i=\u0663' has '\u0663' where an integer lattice "
                                      "index is expected"),  # (int() read an Arabic-Indic 3)
    ({"output_stride": 0}, "output_stride = 0: expected a positive value"),
    ({"output_stride": 1.5}, "output_stride = 1.5: expected an integer"),
])
def test_light_output_settings_are_checked_up_front(sets, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        resolve("box", {"n": 16, **sets})


def test_one_separator_after_the_last_item_is_harmless():
    out = resolve("box", {"n": 16, "output_every": 5, "output_region": "x=0.25:0.75;", "output_slices": "i=3; j=4,"}).output
    assert out.output_region == "x=0.25:0.75;" and out.output_slices == "i=3; j=4,"


def test_the_settings_are_documented_by_distlbm_cases(cli):
    rc, out, _ = cli("cases")
    assert rc == 0
    for key in ("output_region", "output_stride", "output_slices"):
        assert key in out
    assert "every k-th cell" in out and "x=0.5; z=0.2" in out


def test_cuts_in_physical_and_lattice_coordinates():
    # box n=16: dx = 1/16, cell k's centre at (k + 1/2)/16
    spec = OutputSpec(output_region="x=0.25:0.75; k=3:9", output_stride=2, output_slices="x=0.5; j=3; z=1")
    region, sx, sy, sz = spec.cuts((16, 16, 16), 1 / 16)
    # centres (k + 1/2)/16 in [0.25, 0.75]: k = 4..11; every 2nd from the start
    assert region == Cut("region", (4, 0, 3), (12, 16, 9), (2, 2, 2))
    assert region.shape == (4, 8, 3)
    # x = 0.5 lies on the face between cells 7 and 8 (a decimal a rounding error away): the upper cell
    assert sx == Cut("slice_x8", (8, 0, 0), (9, 16, 16), (1, 1, 1), 0)
    assert sy.name == "slice_y3" and sy.start[1] == 3 and sy.shape == (16, 1, 16)
    assert sz.name == "slice_z15"  # the lattice's upper face belongs to its last cell
    # dx that does not divide 1 exactly, a case origin, whole lattice with a stride only
    assert OutputSpec(output_slices="x=0.3").cuts((10,), 0.1)[0].start == (3,)
    assert OutputSpec(output_slices="x=0.05").cuts((10, 4), 0.1, (-0.05, 0.0))[0].start == (1, 0)
    assert OutputSpec(output_stride=3).cuts((10, 4), 0.1)[0].shape == (4, 2)
    assert OutputSpec().cuts((10, 4)) == ()  # nothing light: the whole fields


@pytest.mark.parametrize("n,blocks,start,stop,step", [
    (n, b, a, e, k) for n, b in ((12, 1), (12, 2), (12, 3), (12, 4), (12, 6))
    for a, e in ((0, 12), (1, 11), (5, 6), (3, 9), (11, 12)) for k in (1, 2, 3, 5)
])
def test_cut_axis_takes_exactly_the_cells_each_block_holds(n, blocks, start, stop, step):
    """Every block's part of the cut, put together, is range(start, stop, step), each cell once."""
    want = list(range(start, stop, step))
    got = [None] * len(want)
    size = n // blocks
    for b in range(blocks):
        lo, hi = b * size, (b + 1) * size
        cut = _cut_axis(lo, hi, start, stop, step)
        cells = [c for c in want if lo <= c < hi]
        if cut is None:
            assert not cells
            continue
        local, out = cut
        assert list(range(lo, hi)[local]) == cells
        for i, c in zip(range(out.start, out.stop), cells):
            assert got[i] is None
            got[i] = c
    assert got == want


# ---- written values and the files ---------------------------------------------------------------------

LIGHT = dict(output_region="x=0.25:0.8; j=2:13", output_stride=3, output_slices="x=0.5; j=3; z=0.2",
             output_fields="rho,u,vorticity")


def _cell_sel(cut):
    return tuple(slice(a, b, k) for a, b, k in zip(cut.start, cut.stop, cut.step))


def _run(tmp_path, case="box", steps=20, domain=None, **params):
    sim = make_sim(case, domain=domain, **params, output_every=10)
    sim.out_dir = tmp_path
    summary = sim.run(steps)
    return sim, summary


@pytest.mark.parametrize("names,planes", [("rho,u,vorticity", None), ("rho,u,vorticity", 1), ("rho,u,vorticity", 5),
                                          ("rho,u", None)])
def test_light_outputs_are_the_whole_fields_cut(tmp_path, monkeypatch, names, planes):
    """A run with light output writes only the cuts, whose values are those of the whole field of a run
    that writes the whole field (bit for bit), and no whole field. With rho and u only, they are the
    moments of the cut populations (the whole lattice's moments are never computed): the same bits. The
    vorticity of a cut is formed from the planes that hold its cells, `planes` at a time (None: the whole
    block at once; io.output.CutVorticity): pieces of 1 and 5 planes over the region's every third plane."""
    from distlbm.io import output

    if planes:
        monkeypatch.setattr(output, "PIECE_BYTES", planes * 19 * 16 * 16 * 4)  # box n = 16, D3Q19, float32
    light, summary = _run(tmp_path / "light", n=16, **{**LIGHT, "output_fields": names})
    assert light.model.lattice.q == 19
    whole, _ = _run(tmp_path / "whole", n=16, output_fields="rho,u,vorticity")
    assert not (tmp_path / "light" / "fields").exists() and not (tmp_path / "light" / "fields.xdmf").exists()
    assert summary["output"]["writes"] == 3 and summary["output"]["seconds"] > 0
    cuts = light.cfg.output.cuts(light.setup.shape, light.setup.units["dx"])
    assert [c.name for c in cuts] == ["region", "slice_x8", "slice_y3", "slice_z3"]
    for cut in cuts:
        with h5py.File(tmp_path / "whole" / "fields" / "fields_000000020.h5", "r") as h5:
            ref = {k: h5[k][_cell_sel(cut)] for k in names.split(",")}
        files = sorted((tmp_path / "light" / cut.name).glob(f"{cut.name}_*.h5"))
        assert [f.name for f in files] == [f"{cut.name}_{s:09d}.h5" for s in (0, 10, 20)]
        with h5py.File(files[-1], "r") as h5:
            assert h5.attrs["step"] == 20 and list(h5.attrs["start"]) == list(cut.start)
            for k, v in ref.items():
                assert h5[k].shape == v.shape == cut.shape + v.shape[3:]
                assert np.array_equal(h5[k][...], v), (cut.name, k)


def test_light_series_survive_a_restart(tmp_path):
    """The light outputs' index travels in checkpoints: the series after a restart lists every step."""
    sim = make_sim("box", n=8, output_every=10, checkpoint_every=10, output_slices="i=2")
    sim.out_dir = tmp_path
    sim.run(20)
    (tmp_path / "checkpoints" / "ckpt_000000020.h5").unlink()
    again = make_sim("box", n=8, output_every=10, checkpoint_every=10, output_slices="i=2")
    again.out_dir = tmp_path
    again._restore("latest")
    again.run(30)
    text = (tmp_path / "slice_x2.xdmf").read_text()
    for s in (0, 10, 20, 30):
        assert f"slice_x2/slice_x2_{s:09d}.h5:/rho" in text



def test_a_restarted_series_lists_the_quantities_as_the_uninterrupted_run(tmp_path):
    """The XDMF series after a restart is the uninterrupted run's text: the quantities of each output in the same
    order (the checkpoint keeps the index as sorted JSON: a restart listed rho, rho_mean, u, u_mean, vorticity where
    the run that was not stopped listed rho, u, vorticity, rho_mean, u_mean)."""
    from distlbm.io import xdmf

    sets = dict(n=8, output_every=2, checkpoint_every=4, output_fields="rho,u,vorticity", average_every=1,
                steady_tol=0.0)
    for name in ("whole", "restarted"):
        sim = make_sim("cavity2d", **sets)
        sim.out_dir = tmp_path / name
        sim.run(8 if name == "whole" else 4)
    xdmf._WRITTEN.clear()  # the restart is another process: it has not written the series (else appended to)
    again = make_sim("cavity2d", **sets)
    again.out_dir = tmp_path / "restarted"
    again._restore("latest")
    again.run(8)
    whole, restarted = ((tmp_path / name / "fields.xdmf").read_text() for name in ("whole", "restarted"))
    assert restarted.count("<Time ") == 5 and restarted == whole

def test_an_output_does_not_go_through_the_whole_index_of_earlier_outputs(tmp_path, monkeypatch):
    """Each output went through every earlier output's index entry several times (taken out where of its step,
    the grid of the latest before it, the XDMF series sorted and converted), and each light output's cut through
    every cut's entries: 67 ms of bookkeeping per output at 30,000 outputs (7 ms at 2,000), growing with the
    run. The index is gone through once (the first output of a restart, here from 30 outputs of two slices);
    each later output reads none of its earlier entries."""
    from distlbm.io import output

    sets = dict(n=8, output_every=1, checkpoint_every=30, output_slices="i=2; j=3", steady_tol=0.0)
    sim = make_sim("cavity2d", **sets)
    sim.out_dir = tmp_path
    sim.run(30)

    reads = [0]

    class Counting(dict):  # an index entry from the checkpoint that counts the reads of its keys
        def __getitem__(self, k):
            reads[0] += 1
            return dict.__getitem__(self, k)

        def get(self, k, default=None):
            reads[0] += 1
            return dict.get(self, k, default)

    again = make_sim("cavity2d", **sets)
    again.out_dir = tmp_path
    again._restore("latest")
    assert len(again._light_state) == 62  # (steps 0..30 of two slices)
    again._light_state = [Counting(e) for e in again._light_state]
    per_output = []
    real = output.FieldOutput.write

    def write(self, view):
        before = reads[0]
        real(self, view)
        per_output.append(reads[0] - before)

    monkeypatch.setattr(output.FieldOutput, "write", write)
    again.run(40)
    assert len(per_output) == 10
    assert max(per_output[1:]) < 31, f"reads of earlier index entries per output: {per_output}"
    text = (tmp_path / "slice_y3.xdmf").read_text()  # (the series still lists every output, in order)
    steps = [int(m) for m in re.findall(r"slice_y3_(\d{9})\.h5:/rho", text)]
    assert steps == list(range(41))


def test_an_index_set_from_outside_is_the_one_the_next_output_lists(tmp_path, monkeypatch):
    """FieldOutput keeps each series' entries between outputs (_book): an index a library user sets from outside
    (`index`, `light_index`: public) is gone through again, also where it is as long as the one it replaces (the
    books were made again only where the lengths differed: the next fields.xdmf listed the old entries, and the
    index went on without the new ones' changes)."""
    from types import SimpleNamespace as NS

    from distlbm.io import output

    series = []
    monkeypatch.setattr(output.hdf5, "write", lambda *a, **k: None)
    monkeypatch.setattr(output.xdmf, "write_grid", lambda *a, **k: None)
    monkeypatch.setattr(output.xdmf, "write_xdmf", lambda path, shape, grid, outs, center="Cell": series.append(outs))
    dom = NS(shape=(4, 4), process_index=0, process_count=1)
    view = NS(domain=dom, out_dir=tmp_path, setup=NS(units={}))
    fo = output.FieldOutput(NS(fields=["rho"], output_units="lattice", output_images=False), "c")
    meta = {"rho": ((), "float32", "Scalar")}
    for step in (0, 1, 2):
        fo._write_whole(view, [], meta, {"dx": 1.0}, step, float(step))
    moved = [dict(e, file=e["file"].replace("fields/", "elsewhere/")) for e in fo.index]  # as long as before
    fo.index = list(moved)
    fo._write_whole(view, [], meta, {"dx": 1.0}, 3, 3.0)
    assert [e["file"] for e in series[-1]] == [f"elsewhere/fields_{s:09d}.h5" for s in (0, 1, 2)] + [
        "fields/fields_000000003.h5"]
    assert fo.index[:3] == moved and len(fo.index) == 4


# ---- VTK's own XDMF reader ------------------------------------------------------------------------------

def _vtk_read(path, time_value):
    vtk = pytest.importorskip("vtk")
    from vtk.util.numpy_support import vtk_to_numpy

    reader = vtk.vtkXdmfReader()
    reader.SetFileName(str(path))
    reader.UpdateInformation()
    reader.UpdateTimeStep(time_value)
    grid = reader.GetOutputDataObject(0)
    assert grid.IsA("vtkStructuredGrid"), grid.GetClassName()
    points = vtk_to_numpy(grid.GetPoints().GetData())
    data = {}
    for name in ("rho", "u", "kind"):
        for where in (grid.GetPointData(), grid.GetCellData()):
            arr = where.GetArray(name)
            if arr is not None:
                data[name] = (vtk_to_numpy(arr), where is grid.GetPointData())
    return grid, points, data


@pytest.mark.parametrize("units", ["lattice", "physical"])
@pytest.mark.parametrize("case,params", [("box", dict(n=16)), ("cavity2d", dict(n=12))])
def test_vtk_opens_every_light_output_at_the_right_coordinates(tmp_path, units, case, params):
    """vtkXdmfReader opens the region, strided and slice series; each point lies at its cell's centre
    (lattice units: i + 1/2; physical: (i + 1/2) dx) and carries that cell's values of the whole field."""
    pytest.importorskip("vtk")
    d = 3 if case == "box" else 2
    light = dict(output_region="x=0.25:0.8; j=2:11", output_stride=2, output_slices="x=0.5; j=3"
                 + ("; z=0.2" if d == 3 else ""))
    sim, _ = _run(tmp_path, case, output_units=units, output_fields="rho,u", **params, **light)
    rho, u = sim.fields()
    dx = sim.setup.units["dx"]
    scale = dx if units == "physical" else 1.0
    if units == "physical":
        u = u * (dx / sim.setup.units["dt"])
    t_end = 20 * sim.setup.units["dt"]
    origin = np.asarray(sim.setup.units.get("origin") or (0.0,) * d) if units == "physical" else np.zeros(d)
    cuts = sim.cfg.output.cuts(sim.setup.shape, dx, sim.setup.units.get("origin"))
    assert len(cuts) == 1 + d
    for cut in cuts:
        grid, points, data = _vtk_read(tmp_path / f"{cut.name}.xdmf", t_end)
        sel = _cell_sel(cut)
        idx = np.meshgrid(*[np.arange(a, b, k) for a, b, k in zip(cut.start, cut.stop, cut.step)], indexing="ij")
        # VTK's point order: x fastest; ours (C order, [X, Y(, Z)]): the last axis fastest. Compare by position.
        want = np.stack([origin[a] + (i.ravel() + 0.5) * scale for a, i in enumerate(idx)], axis=-1)
        assert points.shape == (int(np.prod(cut.shape)), 3)
        assert np.allclose(points[:, :d], want, rtol=0, atol=1e-6 * scale), cut.name
        if d == 2:
            assert np.all(points[:, 2] == 0)
        assert data["rho"][1]  # point data
        assert np.array_equal(data["rho"][0], rho[sel].ravel())
        if d == 3:  # (vtkXdmfReader, XDMF 2, cannot read any 2-component vector on a 2D grid, whole fields too)
            assert data["u"][1]
            assert np.array_equal(data["u"][0], np.moveaxis(u[(slice(None),) + sel], 0, -1).reshape(-1, d))
        if cut.normal is not None:  # a plane through the cells' centres, one node across
            dims = [0, 0, 0]
            grid.GetDimensions(dims)
            assert sorted(dims) == sorted(cut.shape + (1,) * (3 - d)) and cut.shape[cut.normal] == 1
            assert np.allclose(points[:, cut.normal], origin[cut.normal] + (cut.start[cut.normal] + 0.5) * scale,
                               rtol=0, atol=1e-6 * scale)


@pytest.mark.parametrize("case,sets,height", [
    ("channel_flow", dict(n=10, obstacles="circle(0.2,0.2,0.05)"), 0.41),
    ("cavity2d", dict(n=16), 1.0),
    ("poiseuille", dict(n=8, nx=4), 1.0),
])
def test_physical_outputs_lie_where_the_case_puts_its_cells(tmp_path, case, sets, height):
    """In physical units the whole fields' grid (and the light outputs' points and planes) are the case's own
    coordinates: a channel's wall rows outside 0 < y < H, its inlet cell centred on x = 0, so that ParaView shows
    the body where the obstacle string put it. They counted from 0 (half a cell off along x, a cell along y), and a
    slice y = 0.2 took the plane below the one holding y = 0.2."""
    sim, _ = _run(tmp_path, case, output_units="physical", output_fields="rho,kind", **sets)
    u = sim.setup.units
    dx, origin = u["dx"], np.asarray(u["origin"])
    with h5py.File(tmp_path / "grid.h5") as g:
        nodes = g["XY"][...]
    assert np.allclose(nodes[0, 0], origin, rtol=0, atol=1e-6 * dx)
    with h5py.File(sorted((tmp_path / "fields").glob("fields_*.h5"))[-1]) as h:
        kind = h["kind"][...]
    centres = 0.25 * (nodes[:-1, :-1] + nodes[1:, :-1] + nodes[:-1, 1:] + nodes[1:, 1:])
    y = centres[..., 1]
    if case == "channel_flow":  # the body's cells are those whose centres lie in the circle
        inside = np.hypot(centres[..., 0] - 0.2, y - 0.2) < 0.05
        assert inside.sum() > 0 and np.array_equal(inside, (kind == 1) & (y > 0) & (y < height))
    mid = kind.shape[0] // 2  # a cross-section's wall rows lie outside 0 < y < H, its fluid rows inside
    assert np.array_equal(np.isin(kind[mid], (1, 2)), (y[mid] < 0) | (y[mid] > height)), (y[mid], kind[mid])
    cut = OutputSpec(output_slices="y=0.2").cuts(sim.setup.shape, dx, u["origin"])[0]
    j = int(cut.start[1])
    assert y[0, j] - dx / 2 <= 0.2 < y[0, j] + dx / 2  # the slice holds y = 0.2


@pytest.mark.parametrize("units", ["lattice", "physical"])
def test_each_grid_files_spacing_is_the_distance_between_its_nodes(tmp_path, units):
    """grid.h5's `spacing` attribute is the distance between neighbouring nodes along each axis: a strided light
    output's nodes are stride x dx apart (it said dx, the whole lattice's, beside nodes 2 dx apart), a slice's and
    the whole fields' dx (1 in lattice units)."""
    stride = 2
    sim, _ = _run(tmp_path, "box", steps=10, n=8, output_units=units, output_fields="rho", output_stride=stride,
                  output_slices="i=3")
    dx = sim.setup.units["dx"] if units == "physical" else 1.0
    for name, apart in (("region", stride * dx), ("slice_x3", dx)):
        with h5py.File(tmp_path / name / "grid.h5") as g:
            nodes, spacing = g["XYZ"][...], g.attrs["spacing"]
        assert np.isclose(spacing, apart, rtol=1e-12, atol=0), (name, spacing, apart)
        for a in range(3):  # the nodes are that far apart along every axis with more than one node
            steps = np.diff(np.moveaxis(nodes[..., a], a, 0), axis=0)
            assert steps.size == 0 or np.allclose(steps, apart, rtol=1e-6, atol=0), (name, a)
    sim, _ = _run(tmp_path / "whole", "box", steps=10, n=8, output_units=units, output_fields="rho")
    with h5py.File(tmp_path / "whole" / "grid.h5") as g:
        assert np.isclose(g.attrs["spacing"], dx, rtol=1e-12, atol=0)
        assert np.allclose(np.diff(g["XYZ"][:, 0, 0, 0]), dx, rtol=1e-6, atol=0)


def test_vtk_reads_the_whole_fields_as_before(tmp_path):
    """No light setting: the whole fields as cell data on the cell-corner grid, unchanged."""
    sim, _ = _run(tmp_path, "box", n=8, output_fields="rho")
    grid, points, data = _vtk_read(tmp_path / "fields.xdmf", 20 * sim.setup.units["dt"])
    rho, _ = sim.fields()
    assert grid.GetNumberOfCells() == 8 ** 3 and not data["rho"][1]
    assert np.array_equal(data["rho"][0], rho.ravel())


def test_the_one_byte_kind_is_read_as_one_byte(tmp_path):
    """The XDMF said NumberType="UInt" Precision="1" for the uint8 `kind`: XDMF's name for a 1-byte integer is
    UChar, and the readers take UInt as 32-bit whatever the Precision (XDMF 3, ParaView's default reader, ignores
    it; VTK's XDMF 2 reader gave kind as uint32, 4 bytes a cell). Whole fields and light outputs alike."""
    import xml.etree.ElementTree as ET

    sim, _ = _run(tmp_path, "cavity2d", n=8, output_fields="rho,kind")
    _run(tmp_path / "light", "cavity2d", n=8, output_fields="rho,kind", output_slices="j=3")
    for path in (tmp_path / "fields.xdmf", tmp_path / "light" / "slice_y3.xdmf"):
        items = [a.find("DataItem") for a in ET.parse(path).iter("Attribute") if a.get("Name") == "kind"]
        assert items and {(i.get("NumberType"), i.get("Precision")) for i in items} == {("UChar", "1")}, path
    grid, points, data = _vtk_read(tmp_path / "fields.xdmf", 20 * sim.setup.units["dt"])
    with h5py.File(tmp_path / "fields" / "fields_000000020.h5") as h:
        kind = h["kind"][...]
    assert kind.dtype == np.uint8 and data["kind"][0].dtype == np.uint8
    assert set(np.unique(data["kind"][0])) == set(np.unique(kind)) == {0, 1, 2}



@pytest.mark.parametrize("dtype, stored", [("float16", np.float16), ("bfloat16", np.float32)])
def test_the_whole_fields_dtypes_and_wall_cells_are_as_documented(tmp_path, dtype, stored):
    """README ("Fields"): rho and u in the compute dtype (float32 for 16-bit storage), the populations in the storage
    dtype with bfloat16 as float32, so that plain h5py and NumPy read all of them; the walls' cells (the cavity's
    lid too) hold the rest state, rho 1 and u 0, and the lid's speed shows in the fluid row below it. The README
    said neither: a user read the top row of a cavity's u as the lid and found 0, and found float16 populations
    beside float32 rho with nothing saying which dtype a bfloat16 run's would have."""
    sim, _ = _run(tmp_path, "cavity2d", n=8, dtype=dtype, output_fields="rho,u,populations,kind")
    with h5py.File(tmp_path / "fields" / "fields_000000020.h5") as h:
        rho, u, kind = h["rho"][...], h["u"][...], h["kind"][...]
        assert (rho.dtype, u.dtype, h["populations"].dtype) == (np.float32, np.float32, stored)
    wall = kind != 0
    assert wall[:, -1].all() and wall.sum() == 4 * 10 - 4  # the four sides of the 10 x 10 lattice
    assert np.all(rho[wall] == 1) and np.all(u[wall] == 0)
    lid = sim.setup.units.get("u_lid_lattice", 0.05)
    assert 0.3 * lid < u[4, -2, 0] < lid  # the fluid below the lid moves with it

def test_a_growing_series_is_appended_to_its_xdmf_file_not_rewritten(tmp_path, monkeypatch):
    """fields.xdmf was rewritten whole (written, flushed, renamed) at every output: 27 MB and 0.4 s per output at
    30,000 outputs, hours over a 2D run's movie. An output added to the series is appended over the closing tags;
    the file is the same as one written whole, and it is written whole where anything else changed: an earlier
    output's entry (a restart), the file itself (edited, replaced), another grid."""
    from distlbm.io import files, xdmf

    def out(i, grid=None):
        return {"file": f"fields/fields_{i:09d}.h5", "time": 0.5 * i, "step": i, **({"grid": grid, "shape": (4, 6)}
                                                                                     if grid else {}),
                "fields": {"rho": ((4, 6), "float32", "Scalar"), "u": ((2, 4, 6), "float32", "Vector")}}

    whole = []
    monkeypatch.setattr(files, "write_text", lambda path, text, w=files.write_text: (whole.append(len(text)),
                                                                                     w(path, text))[1])
    path, ref = tmp_path / "fields.xdmf", tmp_path / "ref.xdmf"

    def written(series, shape=(4, 6), grid="grid.h5"):
        xdmf.write_xdmf(path, shape, grid, series)
        xdmf._WRITTEN.pop(str(ref.absolute()), None)
        xdmf.write_xdmf(ref, shape, grid, series)  # written whole
        return path.read_text() == ref.read_text()

    series = [out(0)]
    assert written(series) and len(whole) == 2
    for i in range(1, 5):  # appended: only the reference is written whole
        series.append(out(i))
        assert written(series) and len(whole) == 2 + i
    assert len(ET.parse(path).getroot().find("Domain").find("Grid").findall("Grid")) == 5
    series = series[:3] + [out(7)]  # a restart from step 2: the later entries gone
    assert written(series) and len(whole) == 8
    other = tmp_path / "other.xdmf"  # the file replaced (the same text, another file): written whole
    other.write_text(path.read_text())
    other.replace(path)
    series.append(out(8))
    assert written(series) and len(whole) == 10
    series.append(out(9))
    assert written(series, grid="grid_000000009.h5") and len(whole) == 12  # another grid for every entry
    series.append(out(10, grid="grid_000000010.h5"))  # its own grid: appended
    assert written(series, grid="grid_000000009.h5") and len(whole) == 13
    text = path.read_text()
    path.write_text(text[:-3])  # cut short (not as this process left it): written whole
    series.append(out(11))
    assert written(series, grid="grid_000000009.h5") and len(whole) == 15


def test_an_xdmf_file_moved_away_and_linked_back_is_replaced_not_written_through(tmp_path):
    """A link at fields.xdmf is replaced by the run's file (files.write_text), never written through; the append over
    the closing tags followed it where its target was the file this process had written (moved away and linked back:
    os.stat the same), and wrote the new outputs into the link's target."""
    from distlbm.io import xdmf

    def out(i):
        return {"file": f"fields/fields_{i:09d}.h5", "time": 0.5 * i, "step": i,
                "fields": {"rho": ((4, 6), "float32", "Scalar")}}

    path, away = tmp_path / "fields.xdmf", tmp_path / "kept" / "fields.xdmf"
    series = [out(0), out(1)]
    xdmf.write_xdmf(path, (4, 6), "grid.h5", series[:1])
    xdmf.write_xdmf(path, (4, 6), "grid.h5", series)
    away.parent.mkdir()
    path.rename(away)
    kept = away.read_text()
    path.symlink_to(away)
    xdmf.write_xdmf(path, (4, 6), "grid.h5", series + [out(2)])
    assert not path.is_symlink() and away.read_text() == kept
    assert len(ET.parse(path).getroot().find("Domain").find("Grid").findall("Grid")) == 3


XDMF_FULL_DISK = """
import resource, signal, sys
import xml.etree.ElementTree as ET
from pathlib import Path
from distlbm.io import xdmf

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing
path = Path(sys.argv[1])
out = lambda i: {"file": f"fields/fields_{i:09d}.h5", "time": 0.5 * i, "step": i,  # noqa: E731
                 "fields": {"rho": ((4, 6), "float32", "Scalar"), "u": ((2, 4, 6), "float32", "Vector")}}
series = [out(0), out(1), out(2)]
for n in (1, 2, 3):
    xdmf.write_xdmf(path, (4, 6), "grid.h5", series[:n])
size = path.stat().st_size
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
resource.setrlimit(resource.RLIMIT_FSIZE, (size + 100, hard))  # the disk full 100 bytes into the next grid
try:
    xdmf.write_xdmf(path, (4, 6), "grid.h5", series + [out(3)])
    print("written")
except Exception as e:  # the run's write error (WriteError)
    print("failed:", e)
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
grids = ET.parse(path).getroot().find("Domain").find("Grid").findall("Grid")
print("grids", len(grids), path.stat().st_size == size)
"""


def test_an_append_to_the_xdmf_file_cut_short_leaves_the_file_as_it_was(tmp_path):
    """The append over the closing tags wrote in place: a write cut short (a full disk, a quota: the whole rewrite
    after it failed too) left fields.xdmf without its closing tags, and ParaView could open none of the run's
    outputs, where the atomic rewrite had kept the file as it was. A failed append puts the file back."""
    import subprocess
    import sys

    script = tmp_path / "full.py"
    script.write_text(XDMF_FULL_DISK)
    p = subprocess.run([sys.executable, str(script), str(tmp_path / "fields.xdmf")], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "failed:" in p.stdout and "grids 3 True" in p.stdout, p.stdout + p.stderr


@pytest.mark.parametrize("mesh", [None, (2, 2, 1)])
def test_whole_fields_formed_piece_by_piece_equal_the_whole_lattice_moments(tmp_path, monkeypatch, mesh):
    """io.output.MomentField (the whole fields' rho and u, formed as each block is written, one plane per piece
    here) writes the bits of `macroscopic` over the whole lattice, on one device and on a mesh."""
    import jax
    from jax import lax

    from distlbm.io import hdf5, output
    from distlbm.parallel.mesh import MeshDomain
    from distlbm.stepper import macroscopic

    monkeypatch.setattr(output, "PIECE_BYTES", 1)
    shape = resolve("cavity3d", {"n": 8}).setup.shape
    sim = make_sim("cavity3d", n=8, domain=MeshDomain(shape, mesh) if mesh else None)
    sim.advance(3)
    model = sim.model

    def moment(k):
        return jax.jit(lambda f, x0, n: macroscopic(lax.dynamic_slice_in_dim(f, x0, n, axis=1), model)[k],
                       static_argnums=2)

    rho = output.MomentField(sim.state.f, sim.domain, 0, moment(0), "float32")
    u = output.MomentField(sim.state.f, sim.domain, 1, moment(1), "float32", 0.5)
    hdf5.write(tmp_path / "f.h5", [hdf5.Field("rho", rho, "scalar"), hdf5.Field("u", u, "vector")], sim.domain)
    ref_rho, ref_u = (np.asarray(sim.domain.gather(x)) for x in macroscopic(sim.state.f, model))
    with h5py.File(tmp_path / "f.h5") as h5:
        assert np.array_equal(h5["rho"][...], ref_rho)
        assert np.array_equal(h5["u"][...], np.moveaxis(ref_u * np.float32(0.5), 0, -1))
    assert len(u.addressable_shards) == (4 if mesh else 1)
    if mesh is None:  # a slab that starts inside the block, as parallel.domain.slabs reads one
        part = u[(Ellipsis, slice(2, 5), slice(None), slice(None))]
        assert np.array_equal(part, ref_u[:, 2:5] * np.float32(0.5))


@pytest.mark.parametrize("mesh", [None, (2, 2)])
def test_rho_and_u_of_the_whole_fields_are_one_compiled_program(tmp_path, mesh):
    """The whole fields' rho and u come from one compiled program (both moments of a piece; each field takes its
    own): before, one program per field, each compiled on every process (minutes on a large lattice); the same
    bits as the whole lattice's moments."""
    from distlbm.driver import Simulation
    from distlbm.parallel.domain import LocalDomain
    from distlbm.parallel.mesh import MeshDomain
    from distlbm.stepper import macroscopic

    cfg = resolve("cavity2d", {"n": 8, "steady_tol": 0, "output_every": 2, "output_fields": "rho,u"})
    shape = cfg.setup.shape
    sim = Simulation(cfg, domain=MeshDomain(shape, mesh) if mesh else LocalDomain(shape), out_dir=tmp_path,
                     log=lambda msg: None)
    with compiles() as c:
        sim.run(2)
    assert c.count("io/output.py") == 1, c.sites
    ref_rho, ref_u = (np.asarray(sim.domain.gather(x)) for x in macroscopic(sim.state.f, sim.model))
    with h5py.File(tmp_path / "fields" / "fields_000000002.h5") as h5:
        assert np.array_equal(h5["rho"][...], ref_rho)
        assert np.array_equal(h5["u"][...], np.moveaxis(ref_u, 0, -1))


@pytest.mark.parametrize("mesh", [None, (1, 2)])
def test_the_whole_fields_pieces_are_of_one_compiled_length(tmp_path, monkeypatch, mesh):
    """The whole fields are formed in pieces of one length (the last one starts early, within the block), so rho
    and u are one compiled program and |curl u| another, whatever the block's length: before, a last piece
    shorter than the others (10 planes in pieces of 3: 3, 3, 3, 1) was one more program of each; the same bits."""
    from distlbm.driver import Simulation
    from distlbm.io import output
    from distlbm.parallel.domain import LocalDomain
    from distlbm.parallel.mesh import MeshDomain
    from distlbm.stepper import macroscopic

    cfg = resolve("cavity2d", {"n": 8, "steady_tol": 0, "output_every": 2, "output_fields": "rho,u,vorticity"})
    shape = cfg.setup.shape  # 10 x 10 cells
    monkeypatch.setattr(output, "PIECE_BYTES", 3 * 9 * (shape[1] // (mesh or (1, 1))[1]) * 4)  # 3 planes
    sim = Simulation(cfg, domain=MeshDomain(shape, mesh) if mesh else LocalDomain(shape), out_dir=tmp_path,
                     log=lambda msg: None)
    with compiles() as c:
        sim.run(2)
    assert c.count("io/output.py") == 3, c.sites  # the neighbours' face planes of u, rho and u, |curl u|
    ref_rho, ref_u = (np.asarray(sim.domain.gather(x)) for x in macroscopic(sim.state.f, sim.model))
    ref_w = np.asarray(sim.domain.gather(sim.view.vorticity()))
    with h5py.File(tmp_path / "fields" / "fields_000000002.h5") as h5:
        assert np.array_equal(h5["rho"][...], ref_rho)
        assert np.array_equal(h5["u"][...], np.moveaxis(ref_u, 0, -1))
        assert np.array_equal(h5["vorticity"][...], ref_w)


def test_physical_units_scale_the_whole_fields_without_a_program_of_their_own(tmp_path):
    """u (dx/dt) and |curl u| (1/dt) of the whole fields in physical units are scaled as each piece comes to the
    host: before, each field's multiply was one more compiled program (on every process); the same bits as the
    scale applied to the lattice units' values in the field's dtype."""
    from distlbm.driver import Simulation
    from distlbm.parallel.domain import LocalDomain
    from distlbm.stepper import macroscopic

    cfg = resolve("channel_flow", {"n": 5, "t_end": 0.01, "output_interval": 0.01, "output_units": "physical",
                                   "output_fields": "u,vorticity"})
    sim = Simulation(cfg, domain=LocalDomain(cfg.setup.shape), out_dir=tmp_path, log=lambda msg: None)
    with compiles() as c:
        sim.run()
    assert c.count("io/output.py") == 3, c.sites  # the neighbours' face planes of u, rho and u, |curl u|
    units = cfg.setup.units
    f32 = np.float32
    ref_u = np.asarray(macroscopic(sim.state.f, sim.model)[1]) * f32(units["dx"] / units["dt"])
    ref_w = np.asarray(sim.view.vorticity()) * f32(1.0 / units["dt"])
    last = sorted((tmp_path / "fields").glob("fields_*.h5"))[-1]
    with h5py.File(last) as h5:
        assert h5.attrs["step"] == sim.step
        assert np.array_equal(h5["u"][...], np.moveaxis(ref_u, 0, -1))
        assert np.array_equal(h5["vorticity"][...], ref_w)


# ---- vorticity -----------------------------------------------------------------------------------------

def _central_curl(u, kind=None, u_wall=None):
    """|curl u| (NumPy, float32) of u [X, Y(, Z), D] as written: periodic central differences per cell; with the
    cell kinds [X, Y(, Z)], one-sided beside walls (the wall's velocity, 0 or u_wall [D] of a moving wall, half a
    cell away: -4/3 u_w + u_0 + 1/3 u_1; between two walls u_w+ - u_w-) and on open faces (inlet, outlet and
    outflow cells: first order, inward), and 0 in walls."""
    f32 = np.float32

    def d(a, axis):
        up, um, u0 = np.roll(u[..., a], -1, axis=axis), np.roll(u[..., a], 1, axis=axis), u[..., a]
        out = f32(0.5) * (up - um)
        if kind is None:
            return out
        kp, km = np.roll(kind, -1, axis=axis), np.roll(kind, 1, axis=axis)
        uw = f32(0) if u_wall is None else f32(u_wall[a])
        wp, wm = np.where(kp == 2, uw, f32(0)), np.where(km == 2, uw, f32(0))
        hi, lo = np.isin(kp, (1, 2)), np.isin(km, (1, 2))
        out = np.where(hi & lo, wp - wm, np.where(lo, f32(-4 / 3) * wm + u0 + f32(1 / 3) * up,
                                                   np.where(hi, f32(4 / 3) * wp - u0 - f32(1 / 3) * um, out)))
        plus = np.isin(kind, (8 + 2 * axis, 16 + 2 * axis, 24 + 2 * axis))
        minus = np.isin(kind, (9 + 2 * axis, 17 + 2 * axis, 25 + 2 * axis))
        return np.where(plus, u0 - um, np.where(minus, up - u0, out))

    if u.shape[-1] == 2:
        w = np.abs(d(1, 0) - d(0, 1))
    else:
        wx, wy, wz = d(2, 1) - d(1, 2), d(0, 2) - d(2, 0), d(1, 0) - d(0, 1)
        w = np.sqrt(wx * wx + wy * wy + wz * wz)
    return w if kind is None else np.where(np.isin(kind, (1, 2)), f32(0), w)


@pytest.mark.parametrize("case,sets,mesh,u_wall", [
    ("cavity3d", {"n": 8}, (2, 2, 2), (0.05, 0, 0)), ("cavity2d", {"n": 10}, (2, 4), (0.05, 0)),
    ("box", {"lattice": "D3Q19", "n": 8}, (2, 2, 2), None),
    # a velocity inlet (-x), a pressure outlet (+x) and walls, a cylinder's curved links
    ("channel_flow", {"n": 5, "output_interval": 0.01, "t_end": 0.03}, (1, 2), None)])
def test_vorticity_on_a_mesh_and_in_slabs_is_the_whole_lattice_curl(tmp_path, monkeypatch, case, sets, mesh, u_wall):
    """The written vorticity is the central differences of the written u (periodic across the lattice's faces,
    one-sided beside walls and open faces, 0 in walls), formed block by block with the neighbours' face planes
    from the halo exchange and slab by slab (3-plane slabs and a shorter last one): the same bits on one device
    as on a mesh, in one slab or in several. (Before, a run under --comm mpi differenced each rank's block as if
    it were periodic by itself.) The whole fields' vorticity is formed piece by piece as it is written
    (io.output.VorticityField: each block with the halo planes held on its device); a light output cuts the
    whole-lattice one (RunView.vorticity): both are checked."""
    from distlbm import stepper
    from distlbm.io import output
    from distlbm.parallel.mesh import MeshDomain

    shape = resolve(case, sets).setup.shape
    walls = case != "box"
    steps = None if case == "channel_flow" else 20
    sets = dict(sets, output_fields="u,vorticity,kind" if walls else "u,vorticity")
    if steps:
        sets["output_every"] = steps
    got = {}
    for where, slabbed in (("one", False), ("mesh", False), ("mesh-slabs", True), ("one-slabs", True)):
        if slabbed:
            per_x = resolve(case, sets).setup.lattice.q * int(np.prod(shape[1:])) * 4
            monkeypatch.setattr(stepper, "runs_in_slabs", lambda *a, **k: True)
            monkeypatch.setattr(stepper, "reader_slab_bytes", lambda: 3 * per_x)
            monkeypatch.setattr(output, "PIECE_BYTES", 3 * per_x)  # the whole fields' pieces (VorticityField)
        sim = make_sim(case, **sets, domain=MeshDomain(shape, mesh) if where.startswith("mesh") else None)
        sim.out_dir = tmp_path / where
        sim.run(steps)
        last = sorted((tmp_path / where / "fields").glob("fields_*.h5"))[-1]
        with h5py.File(last, "r") as h5:
            got[where] = (h5["u"][...], h5["vorticity"][...])
            kind = h5["kind"][...] if walls else None
            assert h5.attrs["vorticity_units"] == "lattice (1/dt = 1)"
        got[where + " whole"] = (got[where][0], np.asarray(sim.domain.gather(sim.view.vorticity())))
    u, w = got["one"]
    assert w.shape == shape and w.dtype == np.float32 and w.max() > 1e-4  # the flow has vorticity
    ref = _central_curl(u, kind, u_wall)
    np.testing.assert_allclose(w, ref, rtol=1e-5, atol=1e-6 * w.max())
    if walls:  # beside the walls (and open faces) it is not the periodic central difference
        assert np.abs(ref - _central_curl(u)).max() > 0.1 * w.max()
    for where in ("one whole", "mesh", "mesh whole", "mesh-slabs", "mesh-slabs whole", "one-slabs", "one-slabs whole"):
        assert np.array_equal(got[where][0], u) and np.array_equal(got[where][1], w), where


@pytest.mark.parametrize("lattice,mesh", [("D2Q9", (2, 4)), ("D3Q19", (2, 2, 2))])
def test_vorticity_with_a_per_cell_force_is_the_curl_of_the_written_u(tmp_path, monkeypatch, lattice, mesh):
    """With a per-cell body force (the Kolmogorov flow's F_x = F0 sin(k y): curl F != 0) the written vorticity
    is the curl of the written u = (j - F/2) / rho, the half force included, on every path that forms it: the
    whole fields on one device, on a mesh of 8 devices in 2-plane slabs and pieces (VorticityField, and
    RunView.vorticity), and a light output's cuts on that mesh (CutVorticity), the same bits on all. Before, u
    was differenced without the half force (j / rho): the vorticity was off by the half force's curl, 1.4 % of
    its peak here in 2D and 3D alike (1.8e-4 of 1.3e-2; 0.30 % at the case's defaults, n = 32, step 200)."""
    from distlbm import stepper
    from distlbm.io import output
    from distlbm.parallel.mesh import MeshDomain

    sets = dict(lattice=lattice, n=16, nx=6, u_amp=0.05, output_every=60, output_fields="rho,u,vorticity")
    setup = resolve("kolmogorov", sets).setup
    shape = setup.shape
    slices = "j=5; i=4" if lattice == "D2Q9" else "j=5; i=4; k=2"
    got = {}
    for where in ("one", "mesh", "mesh-light"):
        if where != "one":  # a block's 3 planes along x in slabs and pieces of 2 (a last slab of 1)
            per_x = setup.lattice.q * int(np.prod(shape[1:])) // int(np.prod(mesh[1:])) * 4  # a block's plane
            monkeypatch.setattr(stepper, "runs_in_slabs", lambda *a, **k: True)
            monkeypatch.setattr(stepper, "reader_slab_bytes", lambda: 2 * per_x)
            monkeypatch.setattr(output, "PIECE_BYTES", 2 * per_x)
        extra = {"output_slices": slices} if where == "mesh-light" else {}
        sim = make_sim("kolmogorov", **sets, **extra, domain=MeshDomain(shape, mesh) if where != "one" else None)
        sim.out_dir = tmp_path / where
        with compiles() as c:
            sim.run(60)
        if where == "mesh-light":
            for cut in sim.cfg.output.cuts(shape, sim.setup.units["dx"]):
                with h5py.File(tmp_path / where / cut.name / f"{cut.name}_000000060.h5", "r") as h5:
                    got[cut.name] = (_cell_sel(cut), h5["u"][...], h5["vorticity"][...])
            continue
        # the force takes no program of its own: the neighbours' face planes of u, rho and u, |curl u| (as without)
        assert c.count("io/output.py") == 3, c.sites
        with h5py.File(tmp_path / where / "fields" / "fields_000000060.h5", "r") as h5:
            got[where] = (h5["rho"][...], h5["u"][...], h5["vorticity"][...])
        got[where + " whole"] = np.asarray(sim.domain.gather(sim.view.vorticity()))
        force = np.moveaxis(np.asarray(sim.domain.gather(sim.view.force_field)), 0, -1)
    rho, u, w = got["one"]
    ref = _central_curl(u)
    assert w.shape == shape and w.max() > 1e-3
    np.testing.assert_allclose(w, ref, rtol=1e-5, atol=1e-6 * w.max())
    # the case tells the two apart: the curl of j / rho (u without the half force) is off by ~1.4 % of the peak
    assert np.abs(_central_curl(u + 0.5 * force / rho[..., None]) - ref).max() > 3e-3 * w.max()
    for where in ("one whole", "mesh whole"):
        assert np.array_equal(got[where], w), where
    assert np.array_equal(got["mesh"][1], u) and np.array_equal(got["mesh"][2], w)
    cuts = [k for k in got if k.startswith("slice_")]
    assert len(cuts) == slices.count(";") + 1
    for name in cuts:
        sel, cu, cw = got[name]
        assert np.array_equal(cu, u[sel]) and np.array_equal(cw, w[sel]), name


@pytest.mark.parametrize("case,sets", [
    ("couette", {"n": 8}),  # u = U y / H: |curl u| = U / H in every fluid cell
    ("poiseuille", {"n": 8, "collision": "trt"}),  # u = 4 umax y (H - y) / H^2, exact with TRT (Lambda 3/16)
    ("couette", {"n": 6, "lattice": "D3Q19", "nx": 2})])
def test_vorticity_beside_walls_is_the_analytic_shear(tmp_path, case, sets):
    """Beside a wall the vorticity is the flow's shear, to round-off where the LBM profile is exact: the
    difference through the wall's velocity half a cell away is exact for a linear (Couette) and a quadratic
    (Poiseuille) profile. Before, it differenced across the wall cell, whose u is written 0: -25 % beside the
    Couette's resting wall and 7x beside its moving one (analytic: shared/reference/
    lbm_selfcheck_couette_shearwave.csv, lbm_selfcheck_poiseuille_bounceback.csv)."""
    sim = make_sim(case, **sets, output_every=10 ** 6, output_fields="vorticity,kind")
    sim.out_dir = tmp_path
    sim.run()
    last = sorted((tmp_path / "fields").glob("fields_*.h5"))[-1]
    with h5py.File(last, "r") as h5:
        w, kind = h5["vorticity"][...], h5["kind"][...]
    n = sets["n"]
    assert kind.shape[1] == n + 2 and (kind[:, 1:-1] == 0).all() and (kind[:, [0, -1]] > 0).all()
    y = np.arange(n) + 0.5  # the fluid cells' centres, the walls at y = 0 and n
    exact = np.full(n, 0.01 / n) if case == "couette" else 4 * 0.01 * np.abs(n - 2 * y) / n ** 2  # U, umax 0.01
    fluid = np.moveaxis(w[:, 1:-1], 1, 0).reshape(n, -1)  # [y, the other cells]
    assert (w[:, [0, -1]] == 0).all()  # none in the walls
    np.testing.assert_allclose(fluid, exact[:, None] * np.ones_like(fluid), rtol=2e-3)


def test_vorticity_in_physical_units_is_the_taylor_green_curl(tmp_path):
    """In physical units the vorticity is per second (the lattice value / dt). The 3D Taylor-Green vortex at
    t = 0 (V0 = L = 1) has |curl u| = V0 / L |(-cos x sin y sin z, -sin x cos y sin z, 2 sin x sin y cos z)|;
    central differences on 32 cells per 2 pi L are within (2 pi / 32)^2 / 6 = 0.64 % of it (2nd order)
    (analytic: TGV3D in shared/reference/analytic_reference_solutions.csv gives the velocity field)."""
    import math

    from distlbm.cases.base import grid_coords

    n = 32
    sim = make_sim("taylor_green3d", n=n, output_every=1, output_fields="vorticity", output_units="physical")
    sim.out_dir = tmp_path
    sim.run(0)
    with h5py.File(tmp_path / "fields" / "fields_000000000.h5", "r") as h5:
        w = h5["vorticity"][...]
        assert h5.attrs["vorticity_units"] == "1/s (1/dt)"
    x, y, z = (c * 2 * math.pi / n - math.pi for c in grid_coords((slice(None),) * 3, (n,) * 3))
    ref = np.sqrt((np.cos(x) * np.sin(y) * np.sin(z)) ** 2 + (np.sin(x) * np.cos(y) * np.sin(z)) ** 2
                  + (2 * np.sin(x) * np.sin(y) * np.cos(z)) ** 2)
    err = np.abs(w - ref).max() / ref.max()
    assert err < (2 * math.pi / n) ** 2 / 6 * 1.2, err
    assert err > 1e-4  # central differences, not the analytic field copied


@pytest.mark.parametrize("units", ["lattice", "physical"])
def test_every_written_quantity_names_its_units(tmp_path, units):
    """The files name the units of every quantity they hold: rho (and rho_mean) is the density over the reference
    density in either units (the physical outputs scale u but not rho: a user had to guess whether it was kg/m^3),
    uu_mean the square of the velocity's. The whole fields and a light output carry the same attributes."""
    phys = units == "physical"
    for name, sets in (("fields", {}), ("slice_x2", {"output_slices": "i=2"})):
        sim = make_sim("channel_flow", n=5, t_end=0.05, output_every=4, output_units=units, average_every=2,
                       average_stresses=True, **sets)
        sim.out_dir = tmp_path / name
        sim.run()
        last = sorted((tmp_path / name / name).glob(f"{name}_*.h5"))[-1]
        with h5py.File(last, "r") as h5:
            assert {"rho", "u", "rho_mean", "u_mean", "uu_mean"} <= set(h5)
            assert h5.attrs["rho_units"] == "1 (density over the reference density)"
            assert h5.attrs["velocity_units"] == ("m/s (dx/dt)" if phys else "lattice (dx/dt = 1)")
            assert h5.attrs["stress_units"] == ("m^2/s^2 ((dx/dt)^2)" if phys else "lattice ((dx/dt)^2 = 1)")


# ---- the space the outputs take, foreseen ------------------------------------------------------------------

@pytest.mark.parametrize("case, sets", [
    ("box", {"lattice": "D3Q19", "n": 12, "output_every": 7, "output_fields": "rho,u,vorticity,populations"}),
    ("box", {"lattice": "D3Q19", "n": 12, "output_every": 5, "dtype": "bfloat16", "output_fields": "populations"}),
    ("channel_flow", {"n": 5, "output_interval": 0.5, "t_end": 2.3, "output_fields": "rho,u,kind"}),
    # both schedules (every 40 steps and every 100 steps, dt = 0.0025 s): steps 200 and 400 are written once
    ("channel_flow", {"n": 5, "output_interval": 0.25, "output_every": 40, "t_end": 1.15, "output_fields": "rho"}),
    ("channel_flow", {"n": 5, "output_every": 40, "t_end": 2, "output_region": "x=0.3:1.7", "output_stride": 3,
                      "output_slices": "x=1; j=4", "output_fields": "u,vorticity,kind"}),
])
def test_the_size_and_number_of_field_outputs_are_foreseen(cli, tmp_path, case, sets):
    """io.output.output_bytes and outputs_between (the dry run's figures, and the run's check of the free space)
    against what a run writes: the number of outputs, and the bytes of every dataset of each (whole fields, a
    strided sub-box and slices; bfloat16 populations written as float32)."""
    from distlbm.io.output import output_bytes, outputs_between

    args = ["run", case, "--out", tmp_path]
    for k, v in sets.items():
        args += ["--set", f"{k}={v}"]
    rc, out, err = cli(*args)
    assert rc == 0, err
    cfg = resolve(case, sets)
    units = cfg.setup.units
    end = json.loads((tmp_path / "summary.json").read_text())["step"]
    count = outputs_between(cfg.output, 0, end, units.get("dt", 1.0))
    each = output_bytes(cfg.output, cfg.setup.shape, cfg.setup.lattice.q, cfg.model.dtype,
                        cfg.model.compute_dtype, units.get("dx") or 1.0, units.get("origin"),
                        kind=cfg.setup.geometry is not None)
    written = {}  # step -> data bytes, over the whole fields' file or every cut's
    for path in tmp_path.rglob("*_*.h5"):
        m = re.search(r"_(\d{9})\.h5$", path.name)
        if not m:
            continue
        with h5py.File(path, "r") as h5:
            size = sum(h5[k].nbytes for k in h5 if isinstance(h5[k], h5py.Dataset))
        written[int(m.group(1))] = written.get(int(m.group(1)), 0) + size
    assert len(written) == count and count > 2, (sorted(written), count)
    assert set(written.values()) == {each}, (written, each)
    assert f"({count} in this run) of {', '.join(cfg.output.fields)}" in cli(*args[:2], "--dry-run", "--out",
                                                                             tmp_path / "dry", *args[4:])[1]


def _xdmf_items(path):
    """(topology dims, grid file, [(field file, dataset, dims)]) of every step of an XDMF series."""
    import xml.etree.ElementTree as ET

    out = []
    for g in ET.parse(path).iter("Grid"):
        if g.get("GridType") != "Uniform":
            continue
        topo = tuple(int(n) for n in g.find("Topology").get("Dimensions").split())
        items = [(*di.text.strip().split(":/"), tuple(int(n) for n in di.get("Dimensions").split()))
                 for di in g.iter("DataItem")]
        out.append((topo, items[0][0], items[1:]))
    return out


def test_a_restart_that_changes_the_grid_keeps_the_earlier_outputs_on_theirs(cli, tmp_path):
    """A restart that changed output_stride (or output_region) rewrote the series' one grid file and every step's
    topology: ParaView drew the earlier outputs' 216 values on the new 64 nodes, at the wrong places, without an
    error; one that changed output_units kept the whole fields' grid in the old units under the new data. Each
    output keeps the grid it was written on (grid_<step>.h5 from the step the grid changed)."""
    args = ("run", "box", "--set", "n=12", "--output-every", 5, "--checkpoint-every", 5, "--out", tmp_path)
    assert cli(*args, "--steps", 10, "--set", "output_stride=2")[0] == 0
    rc, out, err = cli(*args, "--steps", 20, "--set", "output_stride=3", "--restart")
    assert rc == 0, err
    steps = _xdmf_items(tmp_path / "region.xdmf")
    assert [(topo, grid) for topo, grid, _ in steps] == [((6, 6, 6), "region/grid.h5")] * 3 + [
        ((4, 4, 4), "region/grid_000000015.h5")] * 2
    for topo, grid, fields in steps:
        with h5py.File(tmp_path / grid) as h:
            assert h["XYZ"].shape == topo + (3,)
        for file, name, dims in fields:
            with h5py.File(tmp_path / file) as h:
                assert h[name].shape == dims and dims[:3] == topo
    with h5py.File(tmp_path / "region" / "grid.h5") as h:  # the earlier outputs' nodes: every 2nd cell centre
        assert h["XYZ"][1, 0, 0, 0] == 2.5
    # the whole fields: lattice units, then physical
    args = ("run", "cavity2d", "--set", "n=16", "--output-every", 10, "--checkpoint-every", 10, "--out", tmp_path / "u")
    assert cli(*args, "--steps", 20)[0] == 0
    assert cli(*args, "--steps", 40, "--set", "output_units=physical", "--restart")[0] == 0
    grids = [grid for _, grid, _ in _xdmf_items(tmp_path / "u" / "fields.xdmf")]
    assert grids == ["grid.h5"] * 3 + ["grid_000000030.h5"] * 2
    with h5py.File(tmp_path / "u" / "grid.h5") as a, h5py.File(tmp_path / "u" / "grid_000000030.h5") as b:
        assert a["XY"][...].max() == 18.0 and b["XY"][...].max() == 1.0625  # cells, then metres (dx = 1/16)
    # a new run in the folder sets the earlier run's grids aside with its results
    from distlbm.io.results import products

    assert {"grid.h5", "grid_000000030.h5"} <= {p.name for p in products(tmp_path / "u")}


def test_the_populations_output_says_what_it_holds(cli, tmp_path):
    """`populations` is the stored deviation f_i - w_i (it summed to rho - 1, with negative entries): the file says
    so, with the directions and weights to add back."""
    rc, out, err = cli("run", "cavity2d", "--set", "n=16", "--steps", 10, "--output-every", 10, "--set",
                       "output_fields=rho,populations", "--out", tmp_path)
    assert rc == 0, err
    with h5py.File(tmp_path / "fields" / "fields_000000010.h5") as h:
        assert h.attrs["populations_stored"].startswith("f_i - w_i")
        c, w, p = h.attrs["lattice_c"], h.attrs["lattice_w"], h["populations"][...].astype(np.float64)
        f = p + w[:, None, None]
        np.testing.assert_allclose(f.sum(0), h["rho"][...], rtol=0, atol=2e-6)
        assert c.shape == (9, 2) and (c[0] == 0).all() and abs(w.sum() - 1) < 1e-12


def test_the_end_state_is_written_whether_or_not_the_schedule_falls_there(cli, tmp_path):
    """`--steps 20 --output-every 7` wrote steps 0, 7 and 14: never the final state. It is written at the end step
    (before the checkpoint there, whose index holds it, so a restart's series lists it), as the dry run counts."""
    args = ("run", "box", "--set", "lattice=D2Q9", "--set", "n=12", "--output-every", 7, "--checkpoint-every", 10,
            "--out", tmp_path)
    rc, out, err = cli(*args, "--steps", 20)
    assert rc == 0, err
    assert sorted(p.name for p in (tmp_path / "fields").glob("fields_*.h5")) == [
        f"fields_{s:09d}.h5" for s in (0, 7, 14, 20)]
    assert "(4 in this run)" in cli(*args[:-2], "--out", tmp_path / "dry", "--steps", 20, "--dry-run")[1]
    rc, out, err = cli(*args, "--steps", 30, "--restart")
    assert rc == 0, err
    assert [e["step"] for e in (_series_steps(tmp_path / "fields.xdmf"))] == [0, 7, 14, 20, 21, 28, 30]


def _series_steps(path):
    import xml.etree.ElementTree as ET

    return [{"step": int(g.get("Name")[5:])} for g in ET.parse(path).iter("Grid") if g.get("GridType") == "Uniform"]


@pytest.mark.parametrize("units", ["lattice", "physical"])
def test_an_image_has_its_axes_in_the_fields_units(tmp_path, cli, monkeypatch, units):
    """The PNG of |u| had cell indices on its axes whatever output_units said: a cavity of side 1 m read 0..18."""
    pytest.importorskip("matplotlib")
    import matplotlib.axes

    drawn = []
    imshow = matplotlib.axes.Axes.imshow

    def spy(ax, *a, **kw):
        drawn.append(kw.get("extent"))
        return imshow(ax, *a, **kw)

    monkeypatch.setattr(matplotlib.axes.Axes, "imshow", spy)
    rc, out, err = cli("run", "cavity2d", "--set", "n=16", "--steps", 10, "--output-every", 10, "--set",
                       "output_images=true", "--set", f"output_units={units}", "--out", tmp_path)
    assert rc == 0, out + err
    assert len(drawn) == 2 and (tmp_path / "images" / "speed_000000010.png").is_file()
    if units == "lattice":  # 18 cells with the wall layers
        assert drawn[0] == (0, 18, 0, 18)
    else:  # the unit cavity, its wall layers outside it: -dx .. 1 + dx
        assert drawn[0] == pytest.approx((-1 / 16, 1 + 1 / 16, -1 / 16, 1 + 1 / 16))


@pytest.mark.parametrize("case, n", [("taylor_green2d", 16), ("taylor_green3d", 8)])
def test_physical_output_places_the_taylor_green_vortex_at_its_coordinates(tmp_path, cli, case, n):
    """The written grid was half a cell off the 2D vortex (set at x = i dx) and on [0, 2 pi]^3 for the 3D one (set
    on [-pi, pi]^3: the velocity read -V0 sin x cos y cos z there). At step 0, u = (sin x cos y (cos z), ...)
    at the cells' centres of the written grid (the vortices' physical velocity 1, wave number 1)."""
    rc, out, err = cli("run", case, "--set", f"n={n}", "--steps", 1, "--output-every", 1, "--set",
                       "output_units=physical", "--out", tmp_path)
    assert rc == 0, out + err
    with h5py.File(tmp_path / "grid.h5", "r") as h:
        nodes = np.asarray(h["XY" if case.endswith("2d") else "XYZ"], np.float64)
    d = nodes.shape[-1]
    centres = nodes
    for a in range(d):  # the mean of each cell's corner nodes
        centres = 0.5 * (np.take(centres, range(centres.shape[a] - 1), axis=a)
                         + np.take(centres, range(1, centres.shape[a]), axis=a))
    x = [centres[..., a] for a in range(d)]
    with h5py.File(tmp_path / "fields" / "fields_000000000.h5", "r") as h:
        u = np.asarray(h["u"], np.float64)[..., 0]
    want = np.sin(x[0]) * np.cos(x[1]) * (np.cos(x[2]) if d == 3 else 1.0)
    assert np.abs(u - want).max() < 1e-5, np.abs(u - want).max()
    summary = json.loads((tmp_path / "summary.json").read_text())
    if case == "taylor_green3d":  # Re = V0 L / nu with L = 1 (the box side is 2 pi L): it said 2 pi Re
        assert summary["parameters"]["physical_units"]["reynolds"] == pytest.approx(100.0)


def test_the_boxs_physical_viscosity_is_its_lattice_one_in_its_units(tmp_path, cli):
    """nu = nu_lattice dx^2 / dt: the lattice viscosity was reported as the physical one (Re off too)."""
    rc, out, err = cli("run", "box", "--set", "n=16", "--steps", 1, "--out", tmp_path)
    assert rc == 0, out + err
    phys = json.loads((tmp_path / "summary.json").read_text())["parameters"]["physical_units"]
    assert phys["viscosity"] == pytest.approx(0.1 * phys["dx"] ** 2 / phys["dt"])
    assert phys["reynolds"] == pytest.approx(1.0 / phys["viscosity"])
    assert f", Re {phys['reynolds']:.4g}\n" in out  # the start-up line states it as the summary does (it did not)


def test_the_taylor_green_2d_start_up_line_states_its_reynolds_number(cli):
    """The case is set by its Reynolds number, which its start-up line left out (the 3D vortex's said it)."""
    rc, out, err = cli("run", "taylor_green2d", "--set", "n=16", "--set", "re=250", "--dry-run")
    assert rc == 0, out + err
    assert "dtype float32, Re 250\n" in out, out


def test_summary_states_both_velocities_in_both_units(tmp_path, cli):
    """The lattice `velocity` is a channel's peak inflow, the physical one its mean: side by side they looked
    like one velocity converted (0.075 lattice, 0.2 m/s at dx/dt = 4: 1.5x apart, unsaid)."""
    rc, out, err = cli("run", "channel_flow", "--set", "n=10", "--steps", 1, "--out", tmp_path)
    assert rc == 0, out + err
    par = json.loads((tmp_path / "summary.json").read_text())["parameters"]
    lat, phys = par["lattice_units"], par["physical_units"]
    scale = phys["dx"] / phys["dt"]
    assert lat["reference_velocity"] * scale == pytest.approx(phys["velocity"])
    assert phys["peak_velocity"] == pytest.approx(lat["velocity"] * scale)
    assert phys["peak_velocity"] == pytest.approx(1.5 * phys["velocity"])  # the 2D parabolic inflow


def test_kind_carries_its_codes_and_is_said_where_there_is_none(tmp_path, cli):
    """kind was written without what its codes mean, and silently not at all on a case without boundary cells."""
    rc, out, err = cli("run", "cavity2d", "--set", "n=16", "--steps", 2, "--output-every", 2, "--set",
                       "output_fields=rho,kind", "--out", tmp_path / "a")
    assert rc == 0, out + err
    with h5py.File(tmp_path / "a" / "fields" / "fields_000000002.h5", "r") as h:
        codes = h.attrs["kind_codes"]
        assert codes.startswith("0 fluid; 1 wall; 2 moving_wall;") and set(np.unique(h["kind"])) <= {0, 1, 2}
    rc, out, err = cli("run", "taylor_green2d", "--set", "n=16", "--steps", 2, "--output-every", 2, "--set",
                       "output_fields=rho,kind", "--out", tmp_path / "b")
    assert rc == 0 and "warning: output_fields holds kind, which case taylor_green2d does not have" in out + err, out
    rc, out, err = cli("run", "taylor_green2d", "--set", "n=16", "--steps", 2, "--output-every", 2, "--set",
                       "output_fields=kind", "--out", tmp_path / "c")  # each output was a file with no field
    assert rc == 2 and err.strip() == ("distlbm: configuration error: output_fields = 'kind': case taylor_green2d "
                                       "has no kind (no boundary cells: every cell is fluid), so no field would be "
                                       "written; expected one or more of rho, u, vorticity, populations (or a "
                                       "time average: average_every)"), err
    assert not (tmp_path / "c").exists()


def test_kind_alone_with_a_time_average_writes_the_average(tmp_path, cli):
    """output_fields = 'kind' on a case without boundary cells, with a time average: each output holds rho_mean and
    u_mean (the only way to write the average alone there); the check for outputs with no field refused the run."""
    rc, out, err = cli("run", "taylor_green2d", "--set", "n=16", "--steps", 2, "--output-every", 2, "--set",
                       "output_fields=kind", "--set", "average_every=1", "--out", tmp_path / "m")
    assert rc == 0, out + err
    assert "warning: output_fields holds kind, which case taylor_green2d does not have" in out + err, out + err
    with h5py.File(tmp_path / "m" / "fields" / "fields_000000002.h5", "r") as h:
        assert sorted(h) == ["rho_mean", "u_mean"]


def test_a_missing_part_of_a_split_output_reads_as_no_value_not_as_fluid(tmp_path):
    """A split write's master maps each process's part file; where a part is gone (a copy that left out a .pK.h5, a
    part lost) HDF5 reads the master's fill value. The floats' is NaN, but the integers' was 0: a `kind` read there
    said fluid, a valid code, where the lattice holds walls. Now the integers' is their largest value (255 for the
    uint8 `kind`: no code; 0xFFFF, a NaN, for raw bfloat16 bits)."""
    import jax

    from distlbm.io import hdf5
    from distlbm.parallel.domain import LocalDomain, slabs

    class FirstHalf(LocalDomain):  # process 0 of 2, holding the first half along x; process 1 wrote nothing
        process_count = 2

        def barrier(self):
            pass

        def any_process(self, flag):
            return flag

        def allgather_obj(self, obj):
            return [obj, []]

        def blocks(self, x):
            yield from slabs(x[..., :4, :], (slice(0, 4), slice(0, self.shape[1])))

    shape = (8, 6)
    kind = jax.device_put(np.ones(shape, np.uint8))
    rho = jax.device_put(np.ones(shape, np.float32))
    path = hdf5.write(tmp_path / "fields_000000001.h5", [hdf5.Field("rho", rho, "scalar"),
                                                        hdf5.Field("kind", kind, "scalar")], FirstHalf(shape))
    with h5py.File(path) as h5:
        assert h5.attrs["write_mode"] == "split" and h5["kind"].is_virtual
        k, r = h5["kind"][...], h5["rho"][...]
    assert (k[:4] == 1).all() and (r[:4] == 1).all()
    assert (k[4:] == 255).all() and np.isnan(r[4:]).all()


@pytest.mark.parametrize("mesh", [None, (2, 2)])
def test_the_written_u_of_a_per_cell_force_field_is_the_views(tmp_path, mesh):
    """With a per-cell force field (kolmogorov: Setup.force_field) u = (j - F/2) / rho takes each cell's own force in
    the whole fields (formed block by block), the light outputs (the cut cells' force beside their populations) and
    the time average, as the view's fields: the same bits, on one device and on a mesh."""
    from distlbm.parallel.mesh import MeshDomain
    from distlbm.stepper import macroscopic

    params = dict(n=16, nx=8)
    shape = resolve("kolmogorov", params).setup.shape

    def domain():
        return MeshDomain(shape, mesh) if mesh else None

    whole, _ = _run(tmp_path / "whole", "kolmogorov", domain=domain(), output_fields="rho,u", average_every=20,
                    **params)
    rho, u = whole.fields()
    # the populations' momentum alone is another u: the force's half is in them
    bare = np.asarray(whole.domain.gather(macroscopic(whole.state.f, whole.model)[1]))
    assert np.max(np.abs(bare - u)) > 1e-7
    with h5py.File(tmp_path / "whole" / "fields" / "fields_000000020.h5", "r") as h5:
        assert np.array_equal(h5["rho"][...], rho)
        assert np.array_equal(h5["u"][...], np.moveaxis(u, 0, -1))
        assert h5.attrs["average_samples"] == 1
        assert np.array_equal(h5["u_mean"][...], np.moveaxis(u, 0, -1))
    light, _ = _run(tmp_path / "light", "kolmogorov", domain=domain(), output_slices="j=3; i=5",
                    output_fields="rho,u", **params)
    for name, sel in (("slice_y3", (slice(None), slice(3, 4))), ("slice_x5", (slice(5, 6), slice(None)))):
        with h5py.File(tmp_path / "light" / name / f"{name}_000000020.h5", "r") as h5:
            assert np.array_equal(h5["u"][...], np.moveaxis(u[(slice(None),) + sel], 0, -1)), name
