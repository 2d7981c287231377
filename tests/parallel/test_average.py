"""The time average of rho and u (output `average_every`, `average_from`): a running mean on the devices, written
beside the fields of every output (rho_mean, u_mean: the whole fields and the light outputs), kept in checkpoints
(dataset 'mean', checksummed and verified like the populations), so that a restart, on any mesh, goes on averaging
with the same bits; counted by the memory pre-flight, the dry run and the disk-space checks."""

from __future__ import annotations

import json

import os
import shutil
import subprocess
import sys
from pathlib import Path

import h5py
import numpy as np
import pytest

from helpers import make_sim

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _cli(*args, devices=1):
    env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={devices}", PYTHONPATH=str(REPO))
    return subprocess.run([str(BIN / "distlbm"), *map(str, args)], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=300)


def _in_process(cli, *args):
    """_cli's answer from the `cli` fixture (distlbm.cli.main in this process): for the tests of what a run and its
    restart say and write, where a fresh interpreter (and JAX's import, ~3 s a run) is not what they check."""
    rc, out, err = cli(*args)
    return subprocess.CompletedProcess(args, rc, out, err)


def _fields(path):
    with h5py.File(path, "r") as h5:
        return {k: h5[k][...] for k in h5}, dict(h5.attrs)


def test_the_average_is_the_mean_of_the_moments_at_its_samples(tmp_path):
    """The mean of rho and u over the steps average_from <= k * average_every <= step, against the moments of the
    same run read at those steps (float64 mean); in the whole fields' output and in a slice of the light output."""
    every, start, end = 3, 5, 30
    sim = make_sim("cavity2d", n=16, output_every=end, average_every=every, average_from=start)
    sim.out_dir = tmp_path / "run"
    sim.run(end)
    ref = make_sim("cavity2d", n=16)
    samples = []
    while ref.step < end:
        ref.advance(every)
        if ref.step >= start:
            rho, u = ref.fields()
            samples.append(np.concatenate([np.asarray(rho, np.float64)[None], np.asarray(u, np.float64)]))
    mean = np.mean(samples, axis=0)
    got, attrs = _fields(tmp_path / "run" / "fields" / f"fields_{end:09d}.h5")
    assert attrs["average_samples"] == len(samples) == 9 and attrs["average_from"] == start
    np.testing.assert_allclose(got["rho_mean"], mean[0], rtol=2e-6)
    np.testing.assert_allclose(np.moveaxis(got["u_mean"], -1, 0), mean[1:], rtol=1e-4, atol=1e-7)
    assert not np.allclose(got["u_mean"], got["u"], atol=1e-4)  # an average, not the last state
    assert "rho_mean" not in _fields(tmp_path / "run" / "fields" / f"fields_{0:09d}.h5")[0]  # none before start
    # a light output cuts the same average
    light = make_sim("cavity2d", n=16, output_every=end, average_every=every, average_from=start,
                     output_slices="i=7")
    light.out_dir = tmp_path / "light"
    light.run(end)
    cut, _ = _fields(tmp_path / "light" / "slice_x7" / f"slice_x7_{end:09d}.h5")
    assert np.array_equal(cut["rho_mean"].reshape(-1), got["rho_mean"][7].reshape(-1))
    assert np.array_equal(cut["u_mean"].reshape(-1, 2), got["u_mean"][7].reshape(-1, 2))
    # in physical units u_mean is scaled like u (dx/dt), rho_mean is not: the whole fields and a slice
    phys = make_sim("cavity2d", n=16, output_every=end, average_every=every, average_from=start,
                    output_units="physical")
    phys.out_dir = tmp_path / "phys"
    phys.run(end)
    units = phys.setup.units
    got_p, _ = _fields(tmp_path / "phys" / "fields" / f"fields_{end:09d}.h5")
    assert np.array_equal(got_p["rho_mean"], got["rho_mean"])
    np.testing.assert_allclose(got_p["u_mean"], got["u_mean"] * units["dx"] / units["dt"], rtol=1e-6)
    light_p = make_sim("cavity2d", n=16, output_every=end, average_every=every, average_from=start,
                       output_units="physical", output_slices="i=7")
    light_p.out_dir = tmp_path / "light_phys"
    light_p.run(end)
    cut_p, _ = _fields(tmp_path / "light_phys" / "slice_x7" / f"slice_x7_{end:09d}.h5")
    assert np.array_equal(cut_p["u_mean"].reshape(-1, 2), got_p["u_mean"][7].reshape(-1, 2))


def test_a_restart_on_another_mesh_goes_on_averaging_with_the_same_bits(tmp_path, cli):
    """The average and its sample count are kept in every checkpoint: a restart (here on a 2x1x1 mesh of a run
    stopped at step 20 on one device) writes the uninterrupted run's bits. A restart that gives --output-every
    alone keeps averaging (it stopped before); one that sets average_every = 0 says that it ends there."""
    common = ["run", "box", "--set", "lattice=D3Q19", "--set", "n=12", "--set", "average_every=3",
              "--set", "average_from=5", "--output-every", 10]
    # in this process (the cli fixture) of 8 CPU devices: the runs on one device say so (--mesh 1x1x1)
    p = _in_process(cli, *common, "--mesh", "1x1x1", "--steps", 40, "--out", tmp_path / "whole")
    assert p.returncode == 0, p.stderr
    p = _in_process(cli, *common, "--mesh", "1x1x1", "--steps", 20, "--checkpoint-every", 20, "--out",
                    tmp_path / "parts")
    assert p.returncode == 0, p.stderr
    with h5py.File(tmp_path / "parts" / "checkpoints" / "ckpt_000000020.h5", "r") as h5:
        assert h5["mean"].shape == (4, 12, 12, 12) and h5["mean"].fletcher32
    p = _in_process(cli, "run", "box", "--set", "lattice=D3Q19", "--set", "n=12", "--output-every", 10, "--steps",
                    40, "--restart", "latest", "--mesh", "2x1x1", "--out", tmp_path / "parts")
    assert p.returncode == 0, p.stderr
    assert "time average of rho and u every 3 steps from step 5; kept from the run this restart continues: " \
           "average_every = 3, average_from = 5 (--set average_every=0 to stop it)" in p.stdout, p.stdout
    a, a_attrs = _fields(tmp_path / "whole" / "fields" / "fields_000000040.h5")
    b, b_attrs = _fields(tmp_path / "parts" / "fields" / "fields_000000040.h5")
    assert a_attrs["average_samples"] == b_attrs["average_samples"] == 12
    for k in ("rho_mean", "u_mean", "u"):
        assert np.array_equal(a[k], b[k]), k
    p = _in_process(cli, "run", "box", "--set", "lattice=D3Q19", "--set", "n=12", "--set", "average_every=0",
                    "--output-every", 10, "--steps", 50, "--restart", "latest", "--mesh", "1x1x1", "--out",
                    tmp_path / "parts")
    assert p.returncode == 0, p.stderr
    assert "the time average of the run this restart continues (12 samples) is not continued" in p.stdout
    assert "rho_mean" not in _fields(tmp_path / "parts" / "fields" / "fields_000000050.h5")[0]


def test_a_damaged_average_is_refused_and_latest_falls_back(tmp_path):
    """The 'mean' dataset is checked like the populations: missing where the metadata says it is there, or holding
    non-finite values, the checkpoint is refused with one line and `latest` takes the one before."""
    from distlbm.io import checkpoint as ckpt

    sim = make_sim("box", n=8, output_every=10, average_every=2, checkpoint_every=10)
    sim.out_dir = tmp_path
    sim.run(30)
    d = tmp_path / "checkpoints"
    with h5py.File(d / "ckpt_000000030.h5", "r+") as h5:
        del h5["mean"]
    with pytest.raises(ckpt.CheckpointError, match=r"ckpt_000000030.h5: no time average dataset 'mean'$"):
        ckpt.read_meta(d / "ckpt_000000030.h5")
    with h5py.File(d / "ckpt_000000020.h5", "r+") as h5:
        m = h5["mean"][...]
        m[1, 2, 3, 4] = np.nan
        h5["mean"][...] = m
    restarted = make_sim("box", n=8, output_every=10, average_every=2, checkpoint_every=10)
    restarted.out_dir = tmp_path
    restarted._restore("latest")
    assert restarted.step == 10 and restarted.view.mean_samples == 5
    with pytest.raises(ckpt.CheckpointError, match=r"time average hold non-finite values \(NaN or inf\) in 1 "):
        restarted._restore(str(d / "ckpt_000000020.h5"))


def test_the_average_is_counted_by_the_memory_estimate_and_the_dry_run(cli, tmp_path):
    from distlbm.lattice import get_lattice
    from distlbm.memory import checkpoint_bytes, memory_estimate

    lat = get_lattice("D3Q19")
    plain = memory_estimate(lat, (100, 100, 100), "float32")
    avg = memory_estimate(lat, (100, 100, 100), "float32", average_values=4)
    assert avg["total_bytes"] - plain["total_bytes"] == avg["average_bytes"] == 4 * 4 * 10**6
    assert checkpoint_bytes(lat, (100,) * 3, "float32", "float32", 4) == (19 + 4) * 4 * 10**6
    rc, out, err = cli("run", "box", "--set", "lattice=D3Q19", "--set", "n=100", "--set", "average_every=5",
                       "--output-every", 50, "--steps", 100, "--dry-run", "--out", tmp_path / "dry")
    assert rc == 0, err
    # rho, u and their averages: 32 B a cell; a checkpoint: 76 + 16 B a cell, and HDF5's allowance
    assert "  field outputs: every 50 steps (3 in this run) of rho, u, rho_mean, u_mean: 30.52 MiB each, 91.55 MiB in all" in out, out
    assert "  checkpoints: 87.74 MiB each (89.62 MiB of free space asked per write)" in out, out
    rc, out, err = cli("run", "box", "--set", "lattice=D3Q19", "--set", "n=100", "--set", "average_every=5",
                       "--set", "average_stresses=true", "--output-every", 50, "--steps", 100, "--dry-run", "--out",
                       tmp_path / "dry")
    assert rc == 0 and "rho, u, rho_mean, u_mean, uu_mean: 53.41 MiB each" in out, out  # and the six means of u_i u_j: 56 B a cell


def test_the_mean_of_u_i_u_j_gives_the_reynolds_stresses(tmp_path):
    """average_stresses: uu_mean holds the means of u_i u_j (xx, xy, xz, yy, yz, zz), against the same run's
    velocities at the sampled steps (float64); its XDMF type is Tensor6, which VTK's own reader opens as the full
    symmetric matrix of those values; a restart that turns it off starts the average again, said once."""
    every, end = 4, 24
    sim = make_sim("box", lattice="D3Q19", n=8, output_every=end, average_every=every, average_stresses=True,
                   checkpoint_every=12)
    sim.out_dir = tmp_path / "run"
    sim.run(end)
    ref = make_sim("box", lattice="D3Q19", n=8)
    uu = []
    while ref.step < end:
        ref.advance(every)
        u = np.asarray(ref.fields()[1], np.float64)
        uu.append(np.stack([u[i] * u[j] for i in range(3) for j in range(i, 3)]))
    got, attrs = _fields(tmp_path / "run" / "fields" / f"fields_{end:09d}.h5")
    assert attrs["average_samples"] == 6 and got["uu_mean"].shape == (8, 8, 8, 6)
    np.testing.assert_allclose(np.moveaxis(got["uu_mean"], -1, 0), np.mean(uu, axis=0), rtol=1e-4, atol=1e-10)
    stress = got["uu_mean"][..., 0] - got["u_mean"][..., 0] ** 2  # <u'u'>: a decaying field's, positive
    assert np.all(stress >= -1e-9) and stress.max() > 0
    vtk = pytest.importorskip("vtk")
    reader = vtk.vtkXdmfReader()
    reader.SetFileName(str(tmp_path / "run" / "fields.xdmf"))
    reader.UpdateInformation()
    reader.UpdateTimeStep(end * sim.setup.units["dt"])
    from vtk.util.numpy_support import vtk_to_numpy

    arr = reader.GetOutputDataObject(0).GetCellData().GetArray("uu_mean")
    assert arr is not None and arr.GetNumberOfComponents() == 9  # VTK expands Tensor6 to the full matrix
    full = got["uu_mean"].reshape(-1, 6)[:, [0, 1, 2, 1, 3, 4, 2, 4, 5]]  # xx xy xz / yx yy yz / zx zy zz
    assert np.array_equal(vtk_to_numpy(arr), full)
    # (turned off: given false; a restart that leaves it out keeps the run's, and its mean, test_postprocess.py)
    again = make_sim("box", lattice="D3Q19", n=8, output_every=end, average_every=every, checkpoint_every=12,
                     average_stresses=False)
    again.out_dir = tmp_path / "run"
    said = []
    again._log = said.append
    again.view._log = said.append
    again._restore("latest")
    assert again.view.mean is None and any("it starts again here" in x for x in said), said


def test_an_average_that_starts_after_the_runs_end_is_said(cli, tmp_path):
    """average_from past the run's end step took no average, without a word (the outputs had no rho_mean and the
    summary no average)."""
    rc, out, err = cli("run", "box", "--set", "n=8", "--steps", 20, "--output-every", 10, "--set", "average_every=5",
                       "--set", "average_from=500", "--out", tmp_path)
    assert rc == 0, err
    assert "warning: average_from = 500 is after this run's end step 20: it takes no time average (rho_mean, " \
           "u_mean) before a restart runs past step 500" in out, out
    # the dry run says it too (it said nothing: README's sphere example took no mean, unsaid before the run)
    rc, out, err = cli("run", "box", "--set", "n=8", "--steps", 20, "--output-every", 10, "--set", "average_every=5",
                       "--set", "average_from=500", "--out", tmp_path / "dry", "--dry-run")
    assert rc == 0 and "warning: average_from = 500 is after this run's end step 20" in out, out
    rc, out, err = cli("run", "box", "--set", "n=8", "--steps", 20, "--output-every", 10, "--set", "average_every=5",
                       "--set", "average_from=10", "--out", tmp_path / "b")
    assert rc == 0 and "warning: average_from" not in out, out


def test_an_average_whose_first_sample_is_after_the_end_is_said(cli, tmp_path):
    """average_every = 1000 over 50 steps wrote no rho_mean or u_mean, unsaid (average_from past the end was)."""
    rc, out, err = cli("run", "box", "--set", "lattice=D2Q9", "--set", "n=12", "--steps", 50, "--output-every", 10,
                       "--set", "average_every=1000", "--out", tmp_path)
    assert rc == 0, err
    assert "warning: average_every = 1000: the first sample of the time average (the multiples of average_every " \
           "from average_from = 0 on) would be step 1000, after this run's end step 50: no rho_mean or u_mean is " \
           "written" in out + err, out + err
    rc, dry, err = cli("run", "box", "--set", "lattice=D2Q9", "--set", "n=12", "--steps", 50, "--output-every", 10,
                       "--set", "average_every=1000", "--out", tmp_path / "dry", "--dry-run")
    assert rc == 0 and "warning: average_every = 1000: the first sample of the time average" in dry, dry
    # and in summary.json's warnings (which held the settings' warnings alone), once
    warned = json.loads((tmp_path / "summary.json").read_text())["warnings"]
    assert [w for w in warned if "first sample of the time average" in w] == [
        "average_every = 1000: the first sample of the time average (the multiples of average_every from "
        "average_from = 0 on) would be step 1000, after this run's end step 50: no rho_mean or u_mean is written"]
    rc, out, err = cli("run", "box", "--set", "lattice=D2Q9", "--set", "n=12", "--steps", 50, "--output-every", 10,
                       "--set", "average_every=20", "--set", "average_from=35", "--out", tmp_path / "b")
    assert rc == 0 and "first sample of the time average" not in out + err  # step 40
    assert json.loads((tmp_path / "b" / "summary.json").read_text())["warnings"] == []
    with h5py.File(tmp_path / "b" / "fields" / "fields_000000050.h5") as h:
        assert h.attrs["average_samples"] == 1


def test_info_reports_the_cpu_devices_a_run_gets():
    """`distlbm info` said 1 CPU device where `distlbm run` on the same machine split its lattice over 2 (one per
    core): its memory verdict was for another layout."""
    env = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "JAX_NUM_CPU_DEVICES")}
    env.update(DISTLBM_CPU_DEVICES="3", PYTHONPATH=str(REPO))
    p = subprocess.run([str(BIN / "distlbm"), "info", "--json"], cwd=REPO, env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    import json

    assert len(json.loads(p.stdout)["devices"]) == 3


def test_a_restart_that_changes_the_averages_cadence_starts_it_again(tmp_path, cli):
    """A restart given another average_every or average_from went on adding to the mean it found (13 samples of a
    mixed cadence, labelled "every 20 from 0"; a mean labelled "from 100" that held steps 10..50). The mean starts
    again at the restart, said; its files then hold the samples of the settings they name. (Both restarts continue
    copies of one run: the run of 50 steps is the same for both.)"""
    first = tmp_path / "first"
    p = _in_process(cli, "run", "box", "--set", "n=16", "--output-every", 50, "--out", first, "--steps", 50,
                    "--checkpoint-every", 50, "--set", "average_every=10")
    assert p.returncode == 0, p.stderr
    for given, samples in (("average_every=20", 8), ("average_from=100", 11)):
        run = shutil.copytree(first, tmp_path / given, symlinks=True)  # the files the run of 50 steps left
        common = ["run", "box", "--set", "n=16", "--output-every", 50, "--out", run]
        p = _in_process(cli, *common, "--steps", 200, "--restart", "latest", "--set", given)
        assert p.returncode == 0, p.stderr
        key, value = given.split("=")
        old = {"average_every": 10, "average_from": 0}[key]
        assert (f"note: the time average in {run / 'checkpoints' / 'ckpt_000000050.h5'} was taken with other "
                f"settings ({key} = {old} -> {value}): it starts again, from step "
                f"{50 if key == 'average_every' else 100} on") in p.stdout, p.stdout
        _, attrs = _fields(run / "fields" / "fields_000000200.h5")
        assert attrs[key] == int(value) and attrs["average_samples"] == samples  # 55..200 every 20: 8; 100..200: 11
        # where the mean begins: 60 (the first multiple of 20 after the restart at 50, where the files' average_from
        # still said 0), 100
        assert attrs["average_first_step"] == (60 if key == "average_every" else 100), attrs
        # and a restart that goes on with it keeps its first step (from the checkpoint)
        p = _in_process(cli, *common, "--steps", 300, "--restart", "latest", "--set", given, "--checkpoint-every", 100)
        assert p.returncode == 0, p.stderr
        _, attrs = _fields(run / "fields" / "fields_000000300.h5")
        assert attrs["average_first_step"] == (60 if key == "average_every" else 100), (given, attrs)


def test_a_restarted_averages_note_names_the_average_from_it_keeps(tmp_path, cli):
    """The note of a mean that starts again named the restart's own average_from (0, unset) as where the files'
    average would have begun, while the run kept the one of the run it continues (20), as the next line said."""
    common = ["run", "box", "--set", "n=16", "--output-every", 50, "--out", tmp_path]
    p = _in_process(cli, *common, "--steps", 50, "--checkpoint-every", 50, "--set", "average_every=10", "--set",
                    "average_from=20")
    assert p.returncode == 0, p.stderr
    p = _in_process(cli, *common, "--steps", 100, "--restart", "latest", "--set", "average_every=20")
    assert p.returncode == 0, p.stderr
    assert ("(average_every = 10 -> 20): it starts again, from step 50 on (the files' average_from = 20 is where it "
            "would have begun;") in p.stdout, p.stdout
    assert "every 20 steps from step 20; kept from the run this restart continues: average_from = 20" in p.stdout
    _, attrs = _fields(tmp_path / "fields" / "fields_000000100.h5")
    assert attrs["average_from"] == 20 and attrs["average_first_step"] == 60, attrs
