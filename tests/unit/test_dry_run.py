"""`distlbm run ... --dry-run`: what the run checks before its first step, on a login node before the job
waits in the queue; nothing allocated, nothing written; the run's own one-line errors and exit statuses."""

from __future__ import annotations

import json
import os
import re

import h5py
import numpy as np
import pytest

from distlbm.cases import CASES

from helpers import tree


def test_a_new_run_is_checked_and_described_and_nothing_is_written(cli, tmp_path):
    out = tmp_path / "run"
    rc, stdout, err = cli("run", "box", "--set", "lattice=D3Q19", "--set", "n=400", "--mesh", "2x2x2", "--steps", 1000,
                          "--checkpoint-every", 200, "--output-every", 500, "--dry-run", "--out", out)
    assert rc == 0, err
    assert not out.exists()  # not even the folder
    lines = stdout.splitlines()
    assert lines[0].startswith("distlbm: box (")  # the run's own start-up lines
    assert "  steps: 0..1000 (1,000 steps of 64,000,000 cells)" in lines
    mem = next(x for x in lines if x.startswith("  memory per device"))
    # 200^3 D3Q19 float32 populations: 580 MiB per device; held once in place on either kind
    assert "(mesh 2x2x2, 8 devices, block 200x200x200)" in mem
    assert re.search(r"(6\d\d) MiB on a GPU \(fused kernel in place\); (6\d\d) MiB on a CPU \(XLA step in place\)", mem), mem
    ck = next(x for x in lines if x.startswith("  checkpoints:"))
    assert ck.startswith("  checkpoints: 4.53 GiB each (4.58 GiB of free space asked per write), every 200 steps (5 in "
                         "this run, the last at its end); at most 4 on disk at once: 18.12 GiB; "), ck
    assert "  field outputs: every 500 steps (3 in this run) of rho, u: 976.56 MiB each, 2.86 GiB in all" in lines
    assert lines[-1].startswith("dry run: ready; nothing was allocated or written")


@pytest.mark.parametrize("name", list(CASES))
def test_every_built_in_case_at_its_defaults_dry_runs_without_a_warning(cli, tmp_path, name):
    """`distlbm run channel_flow` at its defaults began with "warning: u_lattice = 0.05 (peak lattice velocity
    0.075) gives Mach number 0.130 > 0.1": the first line a new user saw. A built-in case's defaults are settings
    the project chose, so their dry run says no warning of any kind (Mach number, tau near 1/2, an idle setting)."""
    rc, out, err = cli("run", name, "--dry-run", "--out", tmp_path / "run")
    assert rc == 0, err
    said = [ln for ln in (out + err).splitlines() if "warning" in ln.lower()]
    assert not said, said
    assert out.splitlines()[-1].startswith("dry run: ready"), out


def test_what_the_run_would_refuse_the_dry_run_refuses(cli, tmp_path):
    rc, out, err = cli("run", "box", "--set", "n=30", "--mesh", "4x1x1", "--dry-run", "--out", tmp_path / "a")
    assert rc == 2 and err.strip().splitlines() == [
        "distlbm: configuration error: --mesh = '4x1x1': lattice size 30 along x does not divide over 4 devices "
        "(mesh 4x1x1); sizes that would work: 28 or 32, or a mesh size along x of 1, 2, 3, 5, 6, 10, 15 or 30, "
        "or the mesh 2x2x1 of 4 devices"], err
    mask = np.zeros((221, 43), bool)
    mask[100, 1:42] = True
    np.save(tmp_path / "wall.npy", mask)
    rc, out, err = cli("run", "channel_flow", "--set", "n=10", "--set", "obstacles=", "--set",
                       f"mask={tmp_path / 'wall.npy'}", "--dry-run", "--out", tmp_path / "b")
    assert rc == 2 and "blocks the whole channel" in err and len(err.strip().splitlines()) == 1, err
    (tmp_path / "file").write_text("x")
    rc, out, err = cli("run", "box", "--set", "n=8", "--dry-run", "--out", tmp_path / "file")
    assert rc == 2 and "--out = " in err and "exists and is not a folder; expected a writable folder" in err, err
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
    # a folder on /proc (writable to root, no storage): it said "0 B free", a full disk (exit 74)
    if os.path.isdir("/proc") and os.statvfs("/proc").f_blocks == 0:
        rc, out, err = cli("run", "box", "--set", "n=8", "--dry-run", "--out", "/proc/distlbm_test_out")
        assert rc == 2 and "/proc is on a file system without storage" in err, err
    # step = 'pallas' where the fused kernel does not cover the model (float64): the dry run said ready
    rc, out, err = cli("run", "taylor_green2d", "--set", "n=16", "--set", "dtype=float64", "--set", "step=pallas",
                       "--dry-run", "--out", tmp_path / "c")
    assert rc == 2 and err.strip().splitlines() == [
        "distlbm: configuration error: step = 'pallas': the fused kernel does not cover this configuration: "
        "compute_dtype float64 (the kernel computes in float32); storage dtype float64 (the kernel stores "
        "float32/float16/bfloat16); expected step = 'auto' or 'xla'"], err
    # and bench: one line (a traceback, exit 1)
    rc, out, err = cli("bench", "--size", 8, "--steps", 2, "--step", "pallas", "--dtype", "float64",
                       "--bandwidth-mib", 0)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and err.startswith(
        "distlbm: configuration error: --step = 'pallas': the fused kernel does not cover this configuration"), err


def test_a_mesh_that_does_not_split_the_lattice_names_the_case_sizes_that_do(cli, tmp_path):
    # the error names lattice sizes, but the user sets n: a cavity's walls add 2 cells, a channel's n is cells per
    # reference length (22 n + 1 along its 2.2 m: odd, so no n splits x in 2; the mesh 1x4 does)
    rc, out, err = cli("run", "cavity2d", "--mesh", "3x1", "--dry-run", "--out", tmp_path / "a")
    assert rc == 2 and err.strip().endswith(
        "or a mesh size along x of 1, 2, 5, 10, 13, 26, 65 or 130; cavity2d's n = 128 makes the 130x130 lattice, "
        "and n = 127 or n = 130 makes one that splits"), err
    rc, out, err = cli("run", "cavity2d", "--set", "n=127", "--mesh", "3x1", "--dry-run", "--out", tmp_path / "a")
    assert rc == 0, err  # 129 cells: the value said works
    rc, out, err = cli("run", "channel_flow", "--set", "n=21", "--mesh", "7x1", "--dry-run", "--out", tmp_path / "a")
    assert rc == 2 and "; channel_flow's n = 21 makes the 463x88 lattice, and n = 20 or n = 27 makes one that " \
        "splits" in err, err
    rc, out, err = cli("run", "channel_flow", "--set", "n=21", "--mesh", "4x1", "--dry-run", "--out", tmp_path / "a")
    assert rc == 2 and err.strip().endswith(
        "or a mesh size along x of 1 or 463, or the mesh 1x4 of 4 devices; channel_flow's n = 21 makes the 463x88 "
        "lattice, and no n within 64 of it makes one that splits so: choose the mesh along other axes"), err


def test_a_dry_run_under_mpiexec_with_comm_mpi_splits_the_lattice_one_block_per_rank(cli, tmp_path, monkeypatch):
    """Under mpiexec -n 2, --comm mpi --mesh 4x1x1 was said "ready" (mesh 4x1x1, 4 devices) where the run refuses
    it, and without --mesh it was said on one device where the run splits it over the ranks."""
    monkeypatch.setenv("OMPI_COMM_WORLD_SIZE", "2")
    monkeypatch.setenv("OMPI_COMM_WORLD_RANK", "0")
    args = ["run", "box", "--set", "n=8", "--steps", 4, "--comm", "mpi", "--dry-run", "--out", tmp_path / "a"]
    rc, out, err = cli(*args, "--mesh", "4x1x1")
    assert rc == 2 and err.strip().splitlines() == [
        "distlbm: configuration error: --mesh = 4x1x1 has 4 blocks; expected one per MPI rank (2 ranks)"], out + err
    rc, out, err = cli(*args)
    assert rc == 0 and "  memory per device (mesh 2x1x1, 2 devices, block 4x8x8)" in out, out + err
    monkeypatch.setenv("OMPI_COMM_WORLD_SIZE", "3")  # no mesh of 3 blocks splits 8^3: the run's line
    rc, out, err = cli(*args)
    assert rc == 2 and "lattice 8x8x8 cannot be split evenly over 3 devices" in err, out + err


def test_an_initial_state_from_a_checkpoint_of_another_case_is_warned_about_as_the_run_does(cli, tmp_path):
    """--init-from a checkpoint of another case: the run warns that its flow is taken as it is; the dry run said
    nothing of it."""
    rc, _, err = cli("run", "box", "--set", "lattice=D2Q9", "--set", "n=16", "--steps", 2, "--checkpoint-every", 2,
                     "--out", tmp_path / "box")
    assert rc == 0, err
    ck = tmp_path / "box" / "checkpoints" / "ckpt_000000002.h5"
    args = ["run", "taylor_green2d", "--set", "n=16", "--steps", 2, "--init-from", ck]
    warning = f"warning: {ck} is a checkpoint of case 'box', this run is 'taylor_green2d': its flow is taken as it is"
    rc, out, err = cli(*args, "--dry-run", "--out", tmp_path / "dry")
    assert rc == 0 and warning in (out + err).splitlines(), out + err
    rc, out, err = cli(*args, "--out", tmp_path / "run")
    assert rc == 0 and warning in (out + err).splitlines(), out + err
    assert not (tmp_path / "dry").exists()


def test_size_hint_finds_the_nearest_values_on_each_side():
    from distlbm.config import resolve, size_hint

    cfg = resolve("cavity2d", {"n": 64})  # 66 cells
    assert size_hint(cfg, lambda s: all(n % 4 == 0 for n in s)) == (
        "; cavity2d's n = 64 makes the 66x66 lattice, and n = 62 or n = 66 makes one that splits")
    assert size_hint(cfg, lambda s: s[0] >= 80) == (
        "; cavity2d's n = 64 makes the 66x66 lattice, and n = 78 makes one that splits")
    # no n makes one (a channel's x size 22 n + 1 is odd, yet the error named 220 or 222): said, not left out
    assert size_hint(cfg, lambda s: False) == (
        "; cavity2d's n = 64 makes the 66x66 lattice, and no n within 64 of it makes one that splits so: choose the "
        "mesh along other axes")
    assert size_hint(cfg, None) == ""
    assert size_hint(resolve("box", {"n": 30}), lambda s: True) == ""  # n is the lattice size: nothing to add


def test_a_restart_is_checked_against_its_checkpoint_without_touching_it(cli, tmp_path):
    out = tmp_path / "run"
    rc, _, err = cli("run", "box", "--set", "n=16", "--steps", 40, "--checkpoint-every", 20, "--out", out)
    assert rc == 0, err
    before = tree(out)
    # a new run into it is refused as the run refuses it
    rc, stdout, err = cli("run", "box", "--set", "n=16", "--dry-run", "--out", out)
    assert rc == 2 and "holds 2 checkpoint(s) of another run (steps 20..40); continue that run with --restart " \
                       "latest" in err, err
    rc, stdout, err = cli("run", "box", "--set", "n=16", "--restart", "--steps", 110, "--dry-run", "--out", out)
    assert rc == 0, err
    assert f"  restart: from {out / 'checkpoints' / 'ckpt_000000040.h5'} at step 40 (its metadata verified" in stdout
    assert "  steps: 40..110 (70 steps of 4,096 cells)" in stdout
    # the restart keeps the run's checkpoint schedule: said as the run would keep it (60, 80, 100 and its end)
    assert "  checkpoints: 304.00 KiB each (1.30 MiB of free space asked per write), every 20 steps (4 in this run, " \
           "the last at its end)" in stdout, stdout
    rc, stdout, err = cli("run", "box", "--set", "n=20", "--restart", "--dry-run", "--out", out)
    assert rc == 2 and err.strip().startswith(
        f"distlbm: restart failed: --restart latest: no usable checkpoint: "
        f"{out / 'checkpoints' / 'ckpt_000000040.h5'}: "
        f"incompatible with this configuration (n: checkpoint 16, now 20;"), err
    assert err.strip().endswith("(the 1 older checkpoint(s) here, of the same run, are not tried: a setting that "
                                "differs from its newest differs from them)"), err
    # --steps before the checkpoint's step (a count given for the step to run to): the run refuses it after its
    # queue wait; the dry run said "steps: none to run" and "ready"
    rc, stdout, err = cli("run", "box", "--set", "n=16", "--restart", "--steps", 30, "--dry-run", "--out", out)
    assert rc == 2 and "steps = 30 (--steps / steps): the step to run to, not a count, is before step 40" in err, \
        (stdout, err)
    assert tree(out) == before
    rc, _, err2 = cli("run", "box", "--set", "n=16", "--restart", "--steps", 30, "--out", out)
    assert rc == 2 and err2.strip().splitlines()[-1] == err.strip().splitlines()[-1], err2


def test_a_run_that_stops_when_steady_is_said_to_count_at_most(cli, tmp_path):
    """The cavity stops once steady: its dry run gave 0..128000 steps and 257 outputs as if all would run (the run
    stopped at 9600 with 21). It says the counts are the most; a checkpoint's size is its data, beside the free
    space a write asks (it gave 1.04 MiB for a 41 KiB checkpoint)."""
    rc, out, err = cli("run", "cavity2d", "--set", "n=32", "--output-every", 500, "--dry-run", "--out", tmp_path)
    assert rc == 0, err
    assert "  steps: 0..128000 (128,000 steps of 1,156 cells); it stops earlier once steady (steady_tol = 0.0001): " \
           "the counts below are the most" in out, out
    # the populations, 40.64 KiB, and the velocity of the last steadiness check, 9.03 KiB
    assert "  checkpoints: 49.67 KiB each (1.05 MiB of free space asked per write)" in out, out
    rc, out, err = cli("run", "box", "--set", "n=8", "--steps", 10, "--dry-run", "--out", tmp_path / "b")
    assert rc == 0 and "  steps: 0..10 (10 steps of 512 cells)\n" in out, out


def test_an_absurd_lattice_is_refused_before_it_is_built(cli, tmp_path):
    """A units slip (ref_length 1e-9: 3.6e20 cells) made the dry run ("nothing is allocated") allocate 15 GB for
    the channel's build and be killed by the kernel; the shape, known without the build, is refused first."""
    import resource
    import time

    t0 = time.perf_counter()
    rc, out, err = cli("run", "channel_flow", "--set", "ref_length=1e-9", "--dry-run", "--out", tmp_path / "a")
    assert rc == 2 and err.strip().splitlines()[-1] == (
        "distlbm: configuration error: lattice shape 44000000001x8200000002 (from ref_length=1e-09 (other parameters "
        "at their defaults)) has 3.61e+20 cells: expected fewer than 2**53 = 9.01e+15"), err
    assert time.perf_counter() - t0 < 60
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < 8 << 20  # KiB: far from the 15 GB


def test_a_stop_signal_ends_a_long_dry_run_at_once(tmp_path, cli, monkeypatch, capsys):
    """A dry run of a large channel (its geometry checks: minutes) went on after SIGTERM and a second one, said "the
    run stops with a checkpoint", and exited 2 minutes later. It saves nothing: it stops at once, where it is, with
    exit 75. (The fluid-path scan now comes after the memory and disk lines, so a lattice too large for them is said
    in a second: ref_length=1e-4, 3.6e10 cells, exits 74 for its checkpoint's 1.2 TiB; here a scan that would take
    a minute stands in for a large one's.)"""
    import os
    import signal
    import time

    import distlbm.cases.obstacles.channel as channel

    def slow_scan(*a, **k):  # the SIGTERM arrives during the scan
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(60)

    monkeypatch.setattr(channel, "check_fluid_path", slow_scan)
    t0 = time.perf_counter()
    rc, out, err = cli("run", "channel_flow", "--set", "n=5", "--dry-run", "--out", tmp_path / "a")
    assert rc == 75, (rc, out, err)
    assert time.perf_counter() - t0 < 50, (out, err)  # before the stub scan's 60 s end
    assert err.strip().splitlines()[-1] == "distlbm: dry run stopped on SIGTERM" and "Traceback" not in err, err
    assert "memory per device" in out and not (tmp_path / "a").exists()


@pytest.mark.parametrize("every, steps, count, at_once", [(500, 1000, 2, 2), (100, 1000, 10, 4), (300, 1000, 4, 4),
                                                          (0, 1000, 0, 1)])
def test_the_checkpoints_on_disk_at_once_are_those_the_run_writes(cli, tmp_path, every, steps, count, at_once):
    """A run that writes 2 checkpoints was said to hold "at most 4 on disk at once" (checkpoint_keep + 1)."""
    rc, out, err = cli("run", "box", "--set", "n=16", "--steps", steps, "--checkpoint-every", every, "--dry-run",
                       "--out", tmp_path / "a")
    assert rc == 0, err
    ck = next(x for x in out.splitlines() if x.startswith("  checkpoints:"))
    if every:
        assert f"every {every} steps ({count} in this run, the last at its end)" in ck, ck
    assert f"; at most {at_once} on disk at once: " in ck, ck


def test_a_restart_that_keeps_the_runs_steadiness_test_is_said_as_the_run_runs_it(cli, tmp_path):
    """A restart without --until-steady keeps the run's test: the dry run said 190 steps, "4 checkpoints" of 38 KiB
    without the reference field, where the run, which had stopped steady, had nothing to run."""
    out = tmp_path / "run"
    rc, _, err = cli("run", "box", "--set", "n=8", "--steps", 100, "--checkpoint-every", 50, "--until-steady", 0.5,
                     "--set", "steady_every=5", "--out", out)
    assert rc == 0, err
    rc, stdout, err = cli("run", "box", "--set", "n=8", "--restart", "--steps", 200, "--dry-run", "--out", out)
    assert rc == 0, err
    assert "  steps: nothing to run: the run this restart continues stopped at step 10, steady" in stdout, stdout
    assert "  checkpoints: 44.00 KiB each" in stdout, stdout  # the populations and the velocity of the last check
    rc, run_out, err = cli("run", "box", "--set", "n=8", "--restart", "--steps", 200, "--out", out)
    assert rc == 0 and "nothing to run: the run this restart continues stopped at step 10, steady" in run_out, run_out
    # a run not yet steady: its test goes on, said as the run's count at most
    rc, _, err = cli("run", "box", "--set", "n=8", "--steps", 20, "--checkpoint-every", 20, "--until-steady", 1e-9,
                     "--set", "steady_every=5", "--out", tmp_path / "b")
    assert rc == 0, err
    rc, stdout, err = cli("run", "box", "--set", "n=8", "--restart", "--steps", 40, "--dry-run", "--out", tmp_path / "b")
    assert rc == 0 and "  steps: 20..40 (20 steps of 512 cells); it stops earlier once steady (steady_tol = 1e-09)" \
        in stdout, stdout
    assert "  checkpoints: 44.00 KiB each" in stdout, stdout


def test_a_restart_that_keeps_the_runs_field_output_is_not_warned_about_its_output_settings(cli, tmp_path):
    """A restart given output_fields alone keeps the run's schedule and writes them: the run drops the warning
    "output_fields has no effect"; the dry run said it. Its other warnings stay."""
    out = tmp_path / "run"
    rc, _, err = cli("run", "box", "--set", "n=8", "--steps", 4, "--checkpoint-every", 2, "--output-every", 2,
                     "--out", out)
    assert rc == 0, err
    args = ["run", "box", "--set", "n=8", "--steps", 8, "--restart", "--set", "output_fields=rho", "--set",
            "trt_lambda=0.25", "--out", out]
    rc, stdout, err = cli(*args, "--dry-run")
    assert rc == 0 and "  field outputs: every 2 steps (2 in this run) of rho: " in stdout, stdout + err
    assert "output_fields" not in err and "warning: trt_lambda = 0.25 has no effect" in err, err
    rc, stdout, run_err = cli(*args)
    assert rc == 0 and "output_fields" not in run_err and "warning: trt_lambda = 0.25 has no effect" in run_err, \
        stdout + run_err


def test_a_restart_that_keeps_the_runs_steadiness_test_is_not_warned_that_its_steady_every_is_idle(cli, tmp_path):
    """A restart given steady_every alone keeps the run's --until-steady and checks every steady_every steps: the run
    and the dry run said "steady_every = 10 has no effect: it applies with steady_tol > 0"."""
    out = tmp_path / "run"
    rc, _, err = cli("run", "box", "--set", "n=8", "--steps", 20, "--checkpoint-every", 20, "--until-steady", 1e-9,
                     "--set", "steady_every=5", "--out", out)
    assert rc == 0, err
    args = ["run", "box", "--set", "n=8", "--steps", 40, "--restart", "--set", "steady_every=10", "--out", out]
    rc, stdout, err = cli(*args, "--dry-run")
    assert rc == 0 and "it stops earlier once steady (steady_tol = 1e-09)" in stdout, stdout + err
    assert "steady_every" not in err, err
    rc, stdout, err = cli(*args)
    assert rc == 0 and "stops once steady (steady_tol = 1e-09" in stdout and "steady_every" not in stdout + err, \
        stdout + err
    # a fresh run given steady_every without a test is still told
    rc, stdout, err = cli("run", "box", "--set", "n=8", "--set", "steady_every=10", "--dry-run", "--out",
                          tmp_path / "c")
    assert rc == 0 and "warning: steady_every = 10 has no effect" in err, err


def test_a_restart_of_another_folders_checkpoint_into_a_folder_of_another_run_is_refused(cli, tmp_path):
    """The run refuses it (pruning and --restart latest would mix two runs); the dry run said "ready"."""
    for name, steps in (("m1", 40), ("m2", 20)):
        rc, _, err = cli("run", "box", "--set", "n=8", "--steps", steps, "--checkpoint-every", 20, "--out",
                         tmp_path / name)
        assert rc == 0, err
    args = ["run", "box", "--set", "n=8", "--steps", 60, "--restart",
            tmp_path / "m2" / "checkpoints" / "ckpt_000000020.h5", "--out", tmp_path / "m1"]
    rc, out, err = cli(*args, "--dry-run")
    assert rc == 2 and ("checkpoints holds 2 checkpoint(s) of another run (ckpt_000000020.h5, ckpt_000000040.h5, "
                        "run '") in err and "move those files out of" in err, out + err
    rc, out, run_err = cli(*args)
    assert rc == 2 and err.split("holds", 1)[1] == run_err.split("holds", 1)[1], (err, run_err)


@pytest.mark.parametrize("what", ["log_folder", "fields_file"])
def test_what_lies_where_the_run_writes_is_seen_by_the_dry_run(cli, tmp_path, what):
    """A folder named log.jsonl stops the run before its first step, a file named fields at its first output
    (exit 74 both); the dry run said "ready"."""
    out = tmp_path / "run"
    out.mkdir()
    if what == "log_folder":
        (out / "log.jsonl").mkdir()
        said = f"writing {out / 'log.jsonl'} failed: it exists and is a folder"
    else:
        (out / "fields").write_text("")
        said = f"writing {out / 'fields'} failed: it exists and is not a folder"
    rc, stdout, err = cli("run", "box", "--set", "n=8", "--steps", 4, "--output-every", 2, "--out", out, "--dry-run")
    assert rc == 74 and said in err and "the run would stop (exit status 74)" in err, stdout + err
    rc, stdout, err = cli("run", "box", "--set", "n=8", "--steps", 4, "--output-every", 2, "--out", out)
    assert rc == 74 and said in stdout + err, stdout + err  # the run's own line names it the same way


def test_a_checkpoints_file_refuses_only_a_run_that_writes_periodic_checkpoints(cli, tmp_path):
    """A file named checkpoints stops a run with --checkpoint-every (exit 74); one without periodic checkpoints
    writes none and ends with exit 0, where the dry run refused it with exit 74. It is said as a warning."""
    out = tmp_path / "run"
    out.mkdir()
    (out / "checkpoints").write_text("")
    args = ["run", "box", "--set", "n=8", "--steps", 4, "--out", out]
    rc, stdout, err = cli(*args, "--dry-run")
    assert rc == 0 and f"warning: writing {out / 'checkpoints'} failed: it exists and is not a folder" in stdout, \
        stdout + err
    assert "a checkpoint on a stop signal or at --wall-time would fail" in stdout, stdout
    rc, stdout, err = cli(*args)
    assert rc == 0, stdout + err
    rc, stdout, err = cli(*args, "--checkpoint-every", 2, "--dry-run")
    assert rc == 74 and "the run would stop (exit status 74)" in err, stdout + err
    rc, stdout, err = cli(*args, "--checkpoint-every", 2)
    assert rc == 74, stdout + err


def test_a_checkpoints_file_refuses_a_restart_that_keeps_the_runs_periodic_checkpoints(cli, tmp_path):
    """A restart of another folder's checkpoint, without --checkpoint-every, keeps the run's schedule and stopped on
    a file named checkpoints with exit 74 at its first checkpoint; the dry run, which looked at the restart's own
    settings (no periodic checkpoints), said it ready."""
    rc, _, err = cli("run", "box", "--set", "n=8", "--steps", 4, "--checkpoint-every", 2, "--out", tmp_path / "a")
    assert rc == 0, err
    out = tmp_path / "b"
    out.mkdir()
    (out / "checkpoints").write_text("")
    args = ["run", "box", "--set", "n=8", "--steps", 8, "--restart", tmp_path / "a" / "checkpoints" /
            "ckpt_000000004.h5", "--out", out]
    rc, stdout, err = cli(*args, "--dry-run")
    assert rc == 74 and f"writing {out / 'checkpoints'} failed: it exists and is not a folder" in err, stdout + err
    assert "the run would stop (exit status 74)" in err, err
    rc, stdout, err = cli(*args)
    assert rc == 74, stdout + err


def test_both_output_schedules_are_described(cli, tmp_path):
    """output_every and output_interval together run both (their union); the dry run named the first alone."""
    rc, out, err = cli("run", "channel_flow", "--set", "n=10", "--set", "t_end=1", "--set", "output_interval=0.3",
                       "--output-every", 50, "--out", tmp_path / "a", "--dry-run")
    assert rc == 0, err
    assert "  field outputs: every 50 steps and every 0.3 of simulated time (20 in this run) of rho, u" in out, out


def test_the_field_outputs_name_the_time_average_they_hold(cli, tmp_path):
    """With a time average the files hold rho_mean, u_mean (and uu_mean): the size counted them, the label did not."""
    rc, out, err = cli("run", "box", "--set", "n=8", "--steps", 4, "--output-every", 2, "--set", "average_every=1",
                       "--set", "average_stresses=true", "--out", tmp_path / "a", "--dry-run")
    assert rc == 0, err
    assert "  field outputs: every 2 steps (3 in this run) of rho, u, rho_mean, u_mean, uu_mean: 28.00 KiB each" in out, out
    rc, out, err = cli("run", "box", "--set", "n=8", "--steps", 4, "--output-every", 2, "--set", "average_every=1",
                       "--set", "average_stresses=true", "--out", tmp_path / "a")
    assert rc == 0, err
    with h5py.File(tmp_path / "a" / "fields" / "fields_000000004.h5", "r") as f:
        assert {"rho", "u", "rho_mean", "u_mean", "uu_mean"} <= set(f), list(f)


def test_an_images_file_is_no_obstacle_where_no_image_is_written(cli, tmp_path):
    """output_images without field output writes nothing (warned): a file named images is not in the way."""
    out = tmp_path / "run"
    out.mkdir()
    (out / "images").write_text("")
    rc, stdout, err = cli("run", "box", "--set", "n=8", "--steps", 4, "--set", "output_images=true", "--out", out,
                          "--dry-run")
    assert rc == 0, stdout + err


SLOW_SCAN = """
import sys, time
import distlbm.cases.obstacles.channel as channel
channel.check_fluid_path = lambda *a, **k: time.sleep(120)  # a large lattice's scan
import distlbm.cli as cli
sys.argv = ["distlbm", "run", "channel_flow", "--set", "n=5", "--dry-run", "--out", sys.argv[1]]
sys.exit(cli.main())
"""


def test_a_stop_signal_during_a_dry_runs_scan_is_said_and_obeyed(tmp_path):
    """The program (handlers from its first line): SIGTERM during the dry run's fluid-path scan is said at once and
    ends it with exit 75 before the scan would have ended."""
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "slow.py"
    script.write_text(SLOW_SCAN)
    p = subprocess.Popen([sys.executable, str(script), str(tmp_path / "a")], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    seen = []
    for line in p.stdout:  # the checkpoints line comes just before the scan
        seen.append(line)
        if line.startswith("  checkpoints:"):
            break
    time.sleep(0.5)
    t0 = time.perf_counter()
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=100)
    # obeyed during the scan: well before the stub's 120 s scan ends (a bound of 10 s failed on a loaded 2-core
    # machine, where the exit after the signal alone can take that long)
    assert p.returncode == 75 and time.perf_counter() - t0 < 100, (p.returncode, seen, out, err)
    assert "distlbm: SIGTERM received: the dry run stops (it writes nothing)" in err
    assert err.strip().splitlines()[-1] == "distlbm: dry run stopped on SIGTERM" and "Traceback" not in err, err


def test_the_dry_runs_fluid_path_scan_is_bounded(cli, monkeypatch, tmp_path):
    """The dry run scanned the whole lattice for its fluid path (minutes to hours for a large channel: the report
    waited for it). It scans for SCAN_LIMIT_S at most, then says the path is left to the run, which scans it
    whole before its first step; a scan within the bound is said as before."""
    import distlbm.cases.obstacles.channel as channel
    import distlbm.dryrun as dryrun

    slabs = []
    real = channel.check_fluid_path

    def scan(*a, stop=None, **k):  # a slab of a few planes at a time; each asks stop()
        def asked():
            slabs.append(1)
            return stop is not None and stop()

        return real(*a, **k, stop=asked, max_bytes=64)

    monkeypatch.setattr(channel, "check_fluid_path", scan)
    rc, out, err = cli("run", "channel_flow", "--set", "n=5", "--dry-run", "--out", tmp_path / "a")
    assert rc == 0 and "  geometry: a fluid path from the inlet to the outlet (" in out, (rc, out, err)
    whole = len(slabs)
    assert whole > 2, whole
    slabs.clear()
    monkeypatch.setattr(dryrun, "SCAN_LIMIT_S", 0.0)  # a lattice whose scan outlasts the bound
    rc, out, err = cli("run", "channel_flow", "--set", "n=5", "--dry-run", "--out", tmp_path / "a")
    assert rc == 0 and len(slabs) == 1, (rc, len(slabs), out, err)
    assert ("  geometry: the fluid path from the inlet to the outlet not checked in full: the dry run stopped its "
            "scan of the lattice after 0 s (") in out and "the run scans it whole before its first step" in out, out
    assert out.strip().splitlines()[-1].startswith("dry run: ready") and not (tmp_path / "a").exists()


@pytest.mark.parametrize("out", ["", " "])
def test_an_empty_out_is_refused_by_the_dry_run_as_by_the_run(cli, tmp_path, monkeypatch, out):
    """--out ' ' (a job script's unset $OUT with a space): the run refuses it, the dry run said ready."""
    monkeypatch.chdir(tmp_path)
    expected = [f"distlbm: configuration error: --out = {out!r}: expected a folder name (default: out/CASE)"]
    rc, out_, err = cli("run", "box", "--set", "n=8", "--steps", 2, "--out", out)
    assert rc == 2 and err.strip().splitlines() == expected, err
    rc, out_, err = cli("run", "box", "--set", "n=8", "--steps", 2, "--out", out, "--dry-run")
    assert rc == 2 and err.strip().splitlines() == expected, err
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("option", ["--out", "--restart", "--init-from", "status"])
def test_a_path_with_a_name_too_long_is_one_line_not_a_traceback(cli, tmp_path, monkeypatch, option):
    """A name longer than the file system allows (255 bytes) made pathlib's exists() / is_dir() raise OSError
    (ENAMETOOLONG): a traceback, exit 1, from the dry run's --out, --restart, --init-from and distlbm status."""
    monkeypatch.chdir(tmp_path)
    long = str(tmp_path / ("a" * 300) / "x")
    expected = {"--out": "a writable folder", "--restart": "a checkpoint file, a folder of checkpoints or 'latest'",
                "--init-from": "a checkpoint file or a run folder", "status": "the --out folder of a run"}[option]
    runs = ([("status", long)] if option == "status" else
            [("run", "box", "--set", "n=8", "--steps", 2, *(("--out", long) if option == "--out" else
                                                           ("--out", tmp_path / "o", option, long)), *dry)
             for dry in ([], ["--dry-run"])])
    for args in runs:
        rc, out_, err = cli(*args)
        lines = err.strip().splitlines()
        assert rc == 2 and len(lines) == 1, (args, err)
        key = "OUT" if option == "status" else option
        assert lines[0].startswith(f"distlbm: configuration error: {key} = '{str(tmp_path)}/aaa"), err
        failed = "cannot create or write the folder" if option == "--out" else "cannot be looked at"
        assert lines[0].endswith(f"(305 characters): {failed} (File name too long); expected {expected}") \
            or lines[0].endswith(f": {failed} (File name too long); expected {expected}"), err
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("option,said", [("--restart", "no such checkpoint file"),
                                         ("--init-from", "no such checkpoint file or run folder")])
def test_a_checkpoint_path_with_a_line_break_is_said_on_one_line(cli, tmp_path, option, said):
    """--restart 'a<newline>b' printed the path as it is: the error split over two lines."""
    for dry in ([], ["--dry-run"]):
        rc, out_, err = cli("run", "box", "--set", "n=8", "--steps", 2, "--out", tmp_path / "o", option, "a\nb", *dry)
        what = "restart" if option == "--restart" else "initial state"
        assert rc == 2 and err.strip().splitlines() == [f"distlbm: {what} failed: {option} 'a\\nb': {said}"], err


@pytest.mark.parametrize("out", ["~nosuchuser_distlbm/a", "~nosuchuser_distlbm"])
def test_an_out_that_starts_with_a_tilde_of_no_user_is_refused_by_the_run_and_the_dry_run(cli, tmp_path, monkeypatch,
                                                                                        out):
    """`--out=~/runs/a` (the shell expands '~' at the start of a word alone): the run wrote into a folder named '~' in
    the working directory, exit 0, and said 'summary: ~/runs/a/summary.json', which reads as the home folder. '~' and
    '~USER' are expanded now (test_a_quoted_tilde_is_the_home_folder_...); a '~NAME' of no user is refused."""
    monkeypatch.chdir(tmp_path)
    for dry in ([], ["--dry-run"]):
        rc, out_, err = cli("run", "box", "--set", "n=8", "--steps", 2, "--out", out, *dry)
        lines = err.strip().splitlines()
        assert rc == 2 and len(lines) == 1, err
        assert lines[0] == (f"distlbm: configuration error: --out = {out!r}: '~nosuchuser_distlbm' names no user's "
                            f"home folder here, and it would be a folder named '~nosuchuser_distlbm' in the working "
                            f"directory {tmp_path}; expected a home folder ('~/x', '~USER/x') or the path written out, "
                            f"or './{out}' for a folder of that name here"), err
    assert os.listdir(tmp_path) == []
    rc, out_, err = cli("run", "box", "--set", "n=8", "--steps", 2, "--out", f"./{out}")  # a folder of that name
    assert rc == 0 and (tmp_path / out / "summary.json").is_file(), err


@pytest.mark.parametrize("out", ["./~", "./~other/a"])
def test_a_folder_named_like_a_tilde_is_said_by_its_full_path_not_as_the_home_folder(cli, tmp_path, monkeypatch, out):
    """--out ./~ (a folder named '~' here, as the refusal above advises): Path drops the './', and the run said
    'summary: ~/summary.json' (and its checkpoints, the dry run and status likewise), which reads as the home
    folder's."""
    monkeypatch.chdir(tmp_path)
    full = str(tmp_path / out[2:])
    rc, said, err = cli("run", "box", "--set", "n=8", "--steps", 2, "--checkpoint-every", 2, "--out", out)
    assert rc == 0 and (tmp_path / out / "summary.json").is_file(), err
    assert f"summary: {full}/summary.json" in said and f"checkpoint: {full}/checkpoints/" in said, said
    assert "summary: ~" not in said and "checkpoint: ~" not in said, said
    rc, said, err = cli("run", "box", "--set", "n=8", "--steps", 4, "--out", out, "--restart", "--dry-run")
    assert rc == 0 and f"free in {full}" in said and "free in ~" not in said, (said, err)
    rc, said, err = cli("status", out)
    assert rc == 0 and said.startswith(f"{full}: "), (said, err)


@pytest.mark.parametrize("size", ["1000000000", "9" * 23])
def test_a_mesh_size_far_above_the_lattice_is_one_line_at_once(module_cli, tmp_path, size):
    """--mesh 99999999999999999999999x1x1 (a size typed twice) never ended: the suggestion of another mesh tried every
    divisor of the device count, one by one (1e9: minutes); and it named a size of 0 as one that works."""
    r = module_cli("run", "cavity3d", "--mesh", f"{size}x1x1", "--dry-run", "--out", tmp_path / "o", timeout=60)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1, r.stderr
    assert lines[0].startswith(f"distlbm: configuration error: --mesh = '{size}x1x1': lattice size 34 along x does not "
                               f"divide over {size} devices"), lines
    assert f"sizes that would work: {size} or a multiple of it, or a mesh size along x of 1, 2, 17 or 34" in lines[0]
    assert not (tmp_path / "o").exists()


def test_factorize_is_the_brute_force_search_over_the_device_counts_divisors():
    import itertools
    import math

    from distlbm.parallel.mesh import DecompositionError, _divisors, factorize

    assert [_divisors(n) for n in (1, 12, 16, 97)] == [[1], [1, 2, 3, 4, 6, 12], [1, 2, 4, 8, 16], [1, 97]]

    def brute(n, shape):  # the search as it was: every combination of the divisors of n
        best = None
        for combo in itertools.product([k for k in range(1, n + 1) if n % k == 0], repeat=len(shape)):
            if math.prod(combo) != n or any(s % m for s, m in zip(shape, combo)):
                continue
            block = [s // m for s, m in zip(shape, combo)]
            surface = sum(math.prod(block) / block[a] for a in range(len(shape)) if combo[a] > 1)
            key = (surface, tuple(-c for c in combo))
            best = min(best or (key, combo), (key, combo))
        return None if best is None else best[1]

    for n in (1, 2, 3, 4, 6, 8, 12, 16, 24, 64):
        for shape in ((30, 30, 30), (34, 34, 34), (12, 18), (441, 84), (7, 5, 3), (64, 64, 2)):
            try:
                got = factorize(n, shape)
            except DecompositionError:
                got = None
            assert got == brute(n, shape), (n, shape)


def test_a_lattice_no_mesh_of_all_devices_splits_is_offered_a_mesh_of_fewer_only_where_one_exists(monkeypatch):
    """`mpiexec -n 2 distlbm bench --size 33` said "give the mesh", but no mesh of 2 processes splits a lattice of odd
    sizes (a mesh of one device is refused under 2 processes): the advice names a mesh of fewer devices that does
    split it, a multiple of the processes, and only where there is one."""
    from distlbm.parallel import processes
    from distlbm.parallel.mesh import DecompositionError, factorize

    def message(n, shape, procs):
        monkeypatch.setattr(processes, "launcher", lambda: ("mpich" if procs > 1 else "none", procs))
        with pytest.raises(DecompositionError) as e:
            factorize(n, shape)
        return str(e.value)

    assert message(2, (33, 33, 33), 2).endswith("choose sizes divisible by a factorisation of 2")
    assert message(8, (33, 33, 33), 1).endswith(", or give the mesh 3x1x1 of 3 devices (--mesh 3x1x1 or mesh = "
                                                 "'3x1x1')")
    assert message(4, (34, 33, 33), 2).endswith(", or give the mesh 2x1x1 of 2 devices (--mesh 2x1x1 or mesh = "
                                                 "'2x1x1')")
    assert message(4, (35, 37, 37), 1).endswith(", or give the mesh 1x1x1 of 1 device (--mesh 1x1x1 or mesh = "
                                                 "'1x1x1')")


def test_factorize_is_quick_for_a_huge_lattice_or_device_count():
    """Neither a lattice size of 1e21 (`distlbm info --size 1e21`) nor a device count of 1e23 is a long search."""
    import time

    from distlbm.parallel.mesh import DecompositionError, factorize

    t = time.perf_counter()
    assert factorize(2, (10 ** 21,) * 3) == (2, 1, 1)
    with pytest.raises(DecompositionError):
        factorize(10 ** 23 + 7, (34, 34, 34))
    assert time.perf_counter() - t < 5


def test_the_dry_run_and_the_run_report_each_bodys_cells_and_an_stl_bodys_place(cli, tmp_path):
    """An STL body's voxels were said nowhere: neither the dry run nor the run's start told a user whether the body
    lay where, and was as large as, it should (a file in millimetres, a wrong translation or rotation). Each body's
    solid cells are said, and an STL body's box in metres and cells and the volume its surface encloses: a cube of
    10 cells a side is 1000 cells, a sphere's cells its volume within a few per cent, a body across a side wall
    counts the part inside."""
    pytest.importorskip("stl")
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    from make_stl import icosphere, write_stl

    cube = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], float)
    faces = [(0, 2, 1), (0, 3, 2), (4, 5, 6), (4, 6, 7), (0, 1, 5), (0, 5, 4), (1, 2, 6), (1, 6, 5), (2, 3, 7),
             (2, 7, 6), (3, 0, 4), (3, 4, 7)]
    write_stl(tmp_path / "cube.stl", cube[np.array(faces)])
    write_stl(tmp_path / "ball.stl", icosphere(4, 50.0))  # millimetres: 100 across
    base = ["run", "channel_flow", "--set", "lattice=D3Q19", "--set", "length=1.2", "--set", "n=10", "--set",
            "t_end=0.01", "--out", tmp_path / "out"]
    rc, out, err = cli(*base, "--dry-run", "--set",
                       f"obstacles=stl({tmp_path}/cube.stl, 0.1, 0.25, 0.15, 0.15); sphere(0.8, 0.2, 0.2, 0.05); "
                       f"stl({tmp_path}/ball.stl, 0.001, 0.5, 0.2, 0.41)")
    assert rc == 0, err
    lines = [x for x in out.splitlines() if x.startswith("  body ")]
    assert lines[0] == (f"  body 1 stl({tmp_path}/cube.stl, 0.1, 0.25, 0.15, 0.15): 1,000 solid cells (0.001 m^3); its "
                        f"surface x 0.25 .. 0.35, y 0.15 .. 0.25, z 0.15 .. 0.25 m (cells i 25 .. 35, j 16 .. 25, "
                        f"k 16 .. 25), 12 triangles, enclosing 0.001 m^3 (1,000 cells of dx^3)"), lines
    assert lines[1] == "  body 2 sphere(0.8, 0.2, 0.2, 0.05): 536 solid cells (0.000536 m^3)", lines
    # half the ball lies beyond the wall z = W = 0.41: 268 of its 522 cells' volume
    assert re.fullmatch(r"  body 3 stl\(.*ball.stl, 0.001, 0.5, 0.2, 0.41\): 268 solid cells \(0.000268 m\^3\); its "
                        r"surface x 0.45 .. 0.55, y 0.15 .. 0.25, z 0.36 .. 0.46 m \(cells i 45 .. 55, j 16 .. 25, "
                        r"k 37 .. 46\), 5,120 triangles, enclosing 0.0005225 m\^3 \(522 cells of dx\^3\); partly "
                        r"outside the channel \(z > 0.41\): its cells are those of the part inside", lines[2]), lines
    assert len(lines) == 3
    # two overlapping shells (an assembly): their cells are the union, the surfaces' volume count the overlap twice
    ball = icosphere(4, 0.5)
    write_stl(tmp_path / "two.stl", np.concatenate([ball, ball + [0.4, 0.013, 0.007]]))
    rc, out, err = cli(*base, "--dry-run", "--set", f"obstacles=stl({tmp_path}/two.stl, 0.1, 0.4, 0.2, 0.2)")
    line = next(x for x in out.splitlines() if x.startswith("  body 1 "))
    assert line.endswith("10,240 triangles, 2 closed shells enclosing 0.001045 m^3 in all (1,045 cells of dx^3; "
                         "where they overlap, counted in each)"), line
    assert 536 < int(re.search(r": ([\d,]+) solid cells", line)[1].replace(",", "")) < 1045, line
    rc, out, err = cli(*base, "--steps", 1, "--set", f"obstacles=stl({tmp_path}/ball.stl, 0.001, 0.5, 0.2, 0.2)")
    assert rc == 0, err
    body = [x for x in out.splitlines() if x.startswith("  body ")]
    assert len(body) == 1 and ": 536 solid cells (0.000536 m^3); its surface x 0.45 .. 0.55" in body[0], out


def test_a_dry_run_under_a_launcher_with_comm_jax_refuses_what_the_run_refuses(cli, tmp_path, monkeypatch):
    """Under mpiexec -n 2 with the default --comm jax, --mesh 1x1x1 and an automatic mesh of a lattice that splits over
    no multiple of the processes (n = 7) were said "ready"; the run refuses both (parallel.mesh.mesh_devices,
    factorize), and the memory line named one device for a run over every process's devices."""
    monkeypatch.setenv("OMPI_COMM_WORLD_SIZE", "2")
    monkeypatch.setenv("OMPI_COMM_WORLD_RANK", "0")
    args = ["run", "box", "--steps", 4, "--dry-run", "--out", tmp_path / "a"]
    rc, out, err = cli(*args, "--set", "n=8", "--mesh", "1x1x1")
    assert rc == 2 and err.strip().splitlines() == [
        "distlbm: configuration error: --mesh = 1x1x1 (1 device): expected a multiple of the 2 processes (every "
        "process holds the same number of blocks); leave the mesh out to use them all"], out + err
    rc, out, err = cli(*args, "--set", "n=7")
    assert rc == 2 and "lattice 7x7x7 cannot be split evenly over 2 devices" in err, out + err
    rc, out, err = cli(*args, "--set", "n=8")
    assert rc == 0 and ("  memory per device (mesh 2x1x1, 2 devices if each of the 2 processes has one; the run "
                        "splits the lattice over all their devices, block 4x8x8)") in out, out + err
    rc, out, err = cli(*args, "--set", "n=8", "--mesh", "2x2x1")
    assert rc == 0 and "  memory per device (mesh 2x2x1, 4 devices, block 4x4x8)" in out, out + err


@pytest.mark.parametrize("steady", [True, False])
def test_a_restart_with_nothing_to_run_says_that_alone(cli, tmp_path, steady):
    """A restart without --steps of a run that had stopped steady (or reached its end step) said "running to step 30,
    the end step of the run this restart continues" and on the next line "nothing to run: ... stopped at step 10,
    steady" (or "... already at its end step 30"). It says the second alone, as its dry run does."""
    out = tmp_path / "run"
    rc, _, err = cli("run", "box", "--set", "n=8", "--steps", 30, "--checkpoint-every", 10,
                     *(["--until-steady", 0.5, "--set", "steady_every=5"] if steady else []), "--out", out)
    assert rc == 0, err
    nothing = ("nothing to run: the run this restart continues stopped at step 10, steady" if steady else
               "nothing to run: the run is already at its end step 30 (--steps N to go further)")
    rc, said, err = cli("run", "box", "--set", "n=8", "--restart", "--out", out)
    assert rc == 0 and nothing in said and "running to step" not in said, said
    rc, dry, err = cli("run", "box", "--set", "n=8", "--restart", "--dry-run", "--out", out)
    assert rc == 0 and "  steps: " + nothing in dry and "running to step" not in dry, dry
    # a restart that runs (an older checkpoint) says where it runs to
    rc, said, err = cli("run", "box", "--set", "n=8", "--restart", out / "checkpoints" / "ckpt_000000010.h5",
                        "--until-steady", 0, "--out", out)
    assert rc == 0 and "running to step 30, the end step of the run this restart continues" in said, said


def test_a_restart_to_the_runs_end_step_judges_the_ramp_against_that_end_step(cli, tmp_path):
    """A restart without --steps runs to the end step of the run it continues (30), but its warnings that depend on
    the end step were judged against the case's default steps (4800): the run given --steps 30 warned that its ramp
    of 80 steps is as long as the run, its restart from step 10 (which runs to 30 as well) and that restart's dry run
    said nothing of it."""
    run = ("run", "schaefer_turek_2d1", "--set", "n=5", "--set", "ramp=0.2", "--set", "steady_tol=0")
    said = "ramp = 0.2 (80 steps) is as long as the run or longer (30 steps)"
    rc, out, err = cli(*run, "--steps", 30, "--checkpoint-every", 10, "--out", tmp_path / "r")
    assert rc == 0 and said in err, out + err
    again = ("--restart", tmp_path / "r" / "checkpoints" / "ckpt_000000010.h5", "--out", tmp_path / "r")
    rc, dry, err = cli(*run, *again, "--dry-run")
    assert rc == 0 and "  steps: 10..30 " in dry and err.count(said) == 1, dry + err
    rc, out, err = cli(*run, *again)
    assert rc == 0 and "running to step 30" in out and err.count(said) == 1, out + err
    start = [json.loads(line) for line in (tmp_path / "r" / "log.jsonl").read_text().splitlines()
             if '"start"' in line][-1]
    assert [w for w in start["warnings"] if "ramp" in w] == [err.split("warning: ")[-1].strip()], start


def test_a_restart_s_dry_run_says_its_probe_notes_and_the_copy_of_the_run_s_samples(cli, tmp_path):
    """A restart that leaves out the run's probes says that their series end at its step (Case.unsampled), and one
    into another folder that the run's sample records up to its checkpoint are copied there; the dry run of the same
    restart said neither. It says both, in the run's words."""
    run = ("run", "schaefer_turek_2d2", "--set", "n=6", "--set", "sample_every=5")
    rc, out, err = cli(*run, "--set", "probes=0.3,0.2", "--steps", 20, "--checkpoint-every", 10, "--out",
                       tmp_path / "run")
    assert rc == 0, err
    ckpt = tmp_path / "run" / "checkpoints" / "ckpt_000000010.h5"
    probes = ("this restart does not give the run's probes = '0.3,0.2': their series in samples.jsonl (p_pt1, "
              "ux_pt1, uy_pt1) end at step 10")
    copied = ("2 sample record(s) of the run this restart continues (steps 5 to 10) {} from "
              f"{tmp_path / 'run' / 'samples.jsonl'} into {tmp_path / 'new' / 'samples.jsonl'}")
    rc, dry, err = cli(*run, "--restart", ckpt, "--out", tmp_path / "new", "--dry-run")
    assert rc == 0 and probes in dry and "  note: " + copied.format("are copied") in dry, dry + err
    assert not (tmp_path / "new").exists()
    rc, out, err = cli(*run, "--restart", ckpt, "--out", tmp_path / "new")
    assert rc == 0 and probes in out and "note: " + copied.format("copied") in out, out + err
    said = [line.strip() for line in dry.splitlines() if probes in line]
    assert len(said) == 1 and said == [line for line in out.splitlines() if probes in line], said
    # into the run's own folder: the probe note, no copy
    rc, dry, err = cli(*run, "--restart", ckpt, "--out", tmp_path / "run", "--dry-run")
    assert rc == 0 and probes in dry and "copied from" not in dry, dry + err
    # into a folder of another run's results: the run moves them aside first, then copies
    rc, out, err = cli(*run, "--steps", 5, "--out", tmp_path / "other")
    assert rc == 0 and (tmp_path / "other" / "samples.jsonl").is_file(), err
    rc, dry, err = cli(*run, "--restart", ckpt, "--out", tmp_path / "other", "--dry-run")
    assert rc == 0 and copied.format("are copied").replace("new", "other") in dry, dry + err


def test_a_dry_run_into_an_earlier_runs_folder_says_what_the_run_moves_aside_in_the_runs_words(cli, tmp_path):
    """`--dry-run --out DIR` where DIR holds an earlier run's results (no checkpoints): the run moves them into
    DIR/previous/ (the older ones there removed) and says so; the dry run said nothing of it. It says the run's
    own line now, and moves nothing."""
    out = tmp_path / "run"
    args = ("run", "cavity2d", "--set", "n=16", "--steps", 4, "--out", out)
    rc, _, err = cli(*args)
    assert rc == 0, err
    rc, _, err = cli(*args)  # a second run: the first's results are in previous/ now, its own in the folder
    assert rc == 0, err
    before = tree(out)
    rc, said, err = cli(*args, "--dry-run")
    assert rc == 0, err
    assert tree(out) == before  # nothing moved
    line = [ln for ln in said.splitlines() if "previous" in ln]
    assert len(line) == 1, said
    rc, out_run, err = cli(*args)
    assert rc == 0, err
    run_line = [ln for ln in (out_run + err).splitlines() if "previous" in ln]
    assert len(run_line) == 1, out_run + err
    assert line[0].endswith(run_line[0].removeprefix("note: ")), (line, run_line)
    assert "the older run's results that were there are removed" in line[0]


@pytest.mark.parametrize("option", ["--out", "--restart", "--init-from"])
def test_a_quoted_tilde_is_the_home_folder_on_the_command_line_as_from_python(cli, tmp_path, monkeypatch, option):
    """`--out '~/x'` quoted (or --out=~/x: the shell expands '~' at the start of a word alone) was refused, and
    --restart / --init-from '~/...' named no file, where Simulation(out_dir="~/x") from Python writes into the home
    folder's x: '~' is the home folder in both."""
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    rc, said, err = cli("run", "box", "--set", "n=8", "--steps", 2, "--checkpoint-every", 2, "--out", "~/runs/a")
    assert rc == 0 and (home / "runs" / "a" / "summary.json").is_file(), err
    assert os.listdir(work) == []
    if option == "--restart":
        args = ("--steps", 4, "--out", "~/runs/a", "--restart", "~/runs/a/checkpoints")
    elif option == "--init-from":
        args = ("--steps", 2, "--out", "~/runs/b", "--init-from", "~/runs/a")
    else:
        args = ("--steps", 2, "--out", "~/runs/b")
    for dry in (["--dry-run"], []):
        rc, said, err = cli("run", "box", "--set", "n=8", *args, *dry)
        assert rc == 0, err
    assert os.listdir(work) == []
    assert (home / "runs" / ("a" if option == "--restart" else "b") / "summary.json").is_file()
