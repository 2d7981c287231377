"""Shared fixtures of the suite: run the `distlbm` command in this process or as `python -m distlbm`.

The suite mirrors the package: tests/unit/ (one file per module), tests/parallel/ (bitwise identity on
every mesh and process count, restarts, signals, Slurm, reliability) and tests/validation/ (the physics
against analytic and published references, the memory budget, precision)."""

from __future__ import annotations

import os

# Eight CPU devices in this process for the decomposition tests; must be set before JAX starts.
# Tests that want one device pass an explicit single-device domain (helpers.run_case does).
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8").strip()

import atexit  # noqa: E402
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# One JAX compilation cache for this test session, fresh each session and removed at its end: the
# suite compiles the same small programs again and again (a run, its restart, the same case in a
# subprocess, under mpiexec, on every rank), and XLA's compile is most of the suite's time here. The
# variables reach every subprocess the tests start. A size limit turns on JAX's file lock, so that
# ranks and processes reading and writing one entry at once never see half a file (it needs
# `filelock`, in the test extra). DISTLBM_TEST_JAX_CACHE=0 compiles everything afresh.
if os.environ.get("DISTLBM_TEST_JAX_CACHE", "1") != "0" and "JAX_COMPILATION_CACHE_DIR" not in os.environ:
    # a session killed by a signal (a CI timeout, Ctrl-C twice) never ran its atexit: its folder, named by its pid,
    # goes once that process is gone
    for _old in Path(tempfile.gettempdir()).glob("distlbm-tests-jax-cache-*-*"):
        _pid = _old.name.split("-")[-2]
        try:
            if _pid.isdigit():
                os.kill(int(_pid), 0)
        except ProcessLookupError:
            shutil.rmtree(_old, ignore_errors=True)
        except OSError:  # alive (another user's) or not to be told
            pass
    _cache = tempfile.mkdtemp(prefix=f"distlbm-tests-jax-cache-{os.getpid()}-")
    os.environ["JAX_COMPILATION_CACHE_DIR"] = _cache
    os.environ["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] = "0"
    os.environ["JAX_COMPILATION_CACHE_MAX_SIZE"] = str(8 << 30)
    _owner = os.getpid()
    atexit.register(lambda: os.getpid() == _owner and shutil.rmtree(_cache, ignore_errors=True))

# tests/unit, tests/parallel and tests/validation import the shared helpers from this folder
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _a_working_folder_of_its_own(tmp_path_factory, monkeypatch):
    """Every test runs in an empty folder of its own: a run without --out uses out/CASE there (a Simulation without
    out_dir writes no file). In the checkout, a user's own `distlbm run box --checkpoint-every 50` left out/box/checkpoints,
    and five tests were refused for "another run's checkpoints" in it (and tests made their folders there).
    A test that needs the checkout (examples/) goes there itself (monkeypatch.chdir), or names REPO."""
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))


@pytest.fixture
def cli(capsys):
    """cli(*args) -> (exit status, stdout, stderr) of distlbm.cli.main in this process."""
    from distlbm.cli import main

    def _run(*args):
        capsys.readouterr()  # drop anything printed before
        rc = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return rc, out, err

    return _run


@pytest.fixture
def module_cli():
    """module_cli(*args) -> CompletedProcess of `python -m distlbm ARGS` in a fresh interpreter."""

    def _run(*args, timeout=120):
        return subprocess.run([sys.executable, "-m", "distlbm", *map(str, args)], cwd=REPO,
                              capture_output=True, text=True, timeout=timeout)

    return _run


# ---- two tiers --------------------------------------------------------------------------------------
# `make test` (the README's command) runs the default tier: every module, every boundary kind, every
# guarantee at least once. The `exhaustive` tier holds the cross products whose every corner is already
# represented there: more collision operators per case on more meshes, more mesh shapes, process counts
# and signals, the same bits checked once more at a larger size. `make test-exhaustive` runs it alone,
# `make test-all` both; CI runs both. Each entry: the test (file::function) and a regex on its
# parameter id; an entry that matches no test is an error, so that the table cannot go stale.
EXHAUSTIVE = [
    # the default keeps one collision per case on a slab, a pencil and a block (SHORT meshes), and
    # every lattice (D2Q9, D3Q19 with edges, D3Q27 with corners), moving walls in 2D and 3D, forces
    ("parallel/test_decomposition.py::test_every_mesh_is_bitwise_identical",
     r"^(taylor_green2d-n16-bgk|taylor_green3d-n16-bgk|poiseuille-n6-nx8-bgk|poiseuille-n6-nx8-latticeD3Q19-bgk"
     r"|couette-n6-nx8-(bgk|trt)|couette-n6-nx8-latticeD3Q19-bgk|cavity2d-n14-u_lid0.08-bgk|cavity3d-.*"
     r"|box-n16-latticeD2Q9-trt|box-n16-latticeD3Q19-bgk|box-n8-latticeD3Q27-trt"
     r"|taylor_green3d-n16-trt|poiseuille-n6-nx8-latticeD3Q19-trt)$"),
    # one signal, one restart on one device and one on a mesh stay in the default tier
    ("parallel/test_driver.py::test_signal_stops_with_checkpoint_and_restart_is_bitwise", r"^SIG(USR1|INT)$"),
    ("parallel/test_driver.py::test_restart_is_bitwise_identical", r"^(poiseuille|couette|box)-|^cavity2d-one$"),
    ("parallel/test_driver.py::test_fields_and_xdmf_series", r"^cavity3d"),
    ("parallel/test_driver.py::test_collective_mpio_output_and_checkpoint", r""),
    # in place against the two-array forms: box D3Q19 and the channel with Bouzidi links, inlet, outlet
    # and the absorbing layer stay; the other cases and D3Q27 go
    # and the first 3D channel (cylinder wall to wall, 90 s): the second, with its far walls off the grid, stays;
    # the 11-plane 2D channels with the layer (~22 s each under load): the 13-plane one with the layer, the convective
    # outflow and the ramp stays, and the pressure outlet with the layer and the ramp is the 3D off-grid channel's
    ("parallel/test_inplace.py::test_in_place_equals_whole_array_and_ab_slabs",
     r"^(box-n6-latticeD3Q27|cavity3d|cavity2d|couette|poiseuille|taylor_green2d)|^channel_flow.*\)$"
     r"|^channel_flow-.*-width1-.*ramp0\.5$|^channel_flow-n4-length2\.75-height2-.*-(sponge1\.0|ramp0\.5)$"),
    ("parallel/test_inplace.py::test_in_place_step_holds_one_population_array", r"^cavity3d"),
    # one jax.distributed run under srun, one mpi4jax run under mpiexec and the command line under mpiexec stay
    ("parallel/test_processes.py::test_processes_bitwise_equal_single_process",
     r"^(couette3d-|cavity2d-mpiexec2-2x2-|box3d-mpiexec4-|box3d-mpiexec2-2x1x1-1-)"),
    ("parallel/test_light_output.py::test_light_output_on_a_mesh_is_bitwise_the_one_device_output",
     r"^(box-params|cavity2d)"),  # the run under two processes stays
    ("parallel/test_stl_decomposition.py::test_stl_obstacle_on_a_mesh_matches_one_device", r""),
    ("parallel/test_slurm.py::test_multi_node_srun_template", r""),
    ("validation/test_memory.py::test_float16_run_peak_memory_within_budget", r""),
    # 80 s (320^3 with output and a checkpoint); the sphere's obstacle run stays
    ("validation/test_memory.py::test_run_with_field_output_and_checkpoints_within_the_in_place_budget", r""),
    ("validation/test_precision.py::test_cavity_16bit_against_float32_and_ghia", r"^float16"),  # bfloat16 stays
    ("validation/test_precision.py::test_restart_is_bitwise_in_16bit_storage", r"^bfloat16$"),
    ("validation/test_obstacles.py::test_channel_flow_on_a_mesh_matches_one_device", r"^incompressible$"),
    ("unit/test_fused.py::test_mesh_is_bitwise_identical_within_the_pallas_path", r"^d3q19"),
    ("unit/test_streaming.py::test_stream_equals_roll_on_a_periodic_lattice", r"^D3Q27"),
    ("unit/test_fused.py::test_bitwise_equal_to_the_xla_step_without_fma", r"^d3q19"),  # D2Q9 x2, D3Q27 stay
    # the cells of obstacle channels: Bouzidi + inlet + outlet + layer + ramp (2D, 3D), convective outflow,
    # fixed-velocity/pressure cells, TRT with Smagorinsky stay; zero-gradient outflow in float16, the TGV and
    # the 3D fixed-velocity/pressure cells go; the 2D channel on a 2x2 mesh stays, the 3D one on 2x1x2 goes
    # the 3D channel (Bouzidi links of a cylinder and a sphere, off-grid walls, layer: 234 s of the default tier's ~27
    # min on 2 cores) goes too: its 2D channel stays, and its mesh form is in this tier as well. The 2D channel with
    # Bouzidi links, inlet, outlet, layer and ramp on one device goes too (~24 s under load): the same channel on its
    # 2x2 mesh stays (test_obstacle_channel_on_a_mesh_equals_the_xla_step_on_one_device: every one of its cells
    # through the kernel, bit for bit against the XLA step on one device), and so does the kernel on one device
    # for the Bouzidi links and inlet (channel2d-convective-trt) and the fixed-velocity/pressure cells and ramp
    # (d2q9-trt-dirichlet-ramp)
    ("unit/test_fused.py::test_bitwise_equal_on_the_cells_of_obstacle_channels",
     r"^(channel2d-outflow-smagorinsky-f16|tgv3d-smagorinsky-trt|d3q19-bgk-dirichlet-f16"
     r"|channel3d-bouzidi-sponge-reg|channel2d-bouzidi-sponge-ramp)$"),
    # the lowering for CUDA through ./.venv-cuda (~100 s; skipped where it is absent): CI builds it and runs this tier
    ("unit/test_fused.py::test_lowers_for_cuda_to_the_triton_custom_call", r""),
    ("unit/test_fused.py::test_obstacle_channel_on_a_mesh_equals_the_xla_step_on_one_device", r"^channel3d"),
    ("parallel/test_processes.py::test_fused_kernel_under_two_processes_equals_the_xla_step", r"^mpi$"),
    # the restart onto 1 and 2 processes, the wall-time stop: the Slurm tests stop on wall time too, and
    # test_inplace restarts onto another mesh
    ("parallel/test_driver.py::test_elastic_restart_8_devices_to_1_and_to_2_processes", r""),
    ("parallel/test_driver.py::test_wall_time_limit_stops_with_checkpoint", r""),
    ("parallel/test_steady.py::test_steady_cases_stop_steady_by_default", r"^schaefer_turek_2d1"),
    ("validation/test_obstacles.py::test_sponge_on_a_mesh_is_bitwise_one_device", r""),
    # the compact static data against every cell's values: the 2x2x1 mesh with off-grid far walls (boxes across the
    # blocks' faces, and the far walls' plane) stays
    ("unit/test_setup_slabs.py::test_steps_with_compact_static_data_equal_those_with_every_cells",
     r"^(one-device|mesh2x2x1-walls-on-grid)$"),
    ("validation/test_memory.py::test_bench_peak_memory_within_budget", r"^D3Q27"),
    # the analytic tables: one resolution (N = 16) per tau stays, one dtype per lattice for mass
    ("validation/test_validation.py::test_poiseuille_bgk_follows_slip_law", r"-N(8|32)$"),
    ("validation/test_validation.py::test_couette_moving_wall_exact", r"-N(8|32)$"),
    ("validation/test_validation.py::test_poiseuille_trt_magic_is_exact", r"^D3Q19-(0.6|1.5)$"),
    ("validation/test_validation.py::test_mass_conserved_in_periodic_box", r"^float32-1e-06-D3Q19|^float64-1e-12-D3Q"),
    # the vorticity on a mesh and in slabs (~65 s a case): the 2D cavity goes, its 2D curl beside walls is the
    # channel's and its moving wall the 3D cavity's, which stay with the periodic box
    ("unit/test_output.py::test_vorticity_on_a_mesh_and_in_slabs_is_the_whole_lattice_curl", r"^cavity2d-"),
    # the GPU check's dry run on CPU (~2 min); its line printer's and table's failures stay
    ("unit/test_step_variants.py::test_the_gpu_check_runs_to_its_end_on_cpu_through_a_failing_case", r""),
    # the GPU check's stuck tasks wait out real allowances (40-47 s each): the first (a stuck task ends its worker,
    # costs its own allowance, skips its path's later tasks in the groups after it) stays; its own group's later
    # tasks, a group of one, a case task and a comparison's blame go (~170 s)
    ("unit/test_step_variants.py::test_a_stuck_task_skips_the_later_tasks_of_its_path_in_its_own_group_too", r""),
    ("unit/test_step_variants.py::test_a_stuck_task_alone_in_its_group_is_a_timeout_and_skips_its_path", r""),
    ("unit/test_step_variants.py::test_a_case_task_is_skipped_after_a_path_it_runs_timed_out", r""),
    ("unit/test_step_variants.py::test_a_stuck_comparison_blames_its_path_not_the_xla_step_that_ran", r""),
]


@pytest.hookimpl(tryfirst=True)  # before -m deselects by the marks added here
def pytest_collection_modifyitems(config, items):
    import re

    used = [0] * len(EXHAUSTIVE)
    for item in items:
        path = Path(str(item.fspath)).resolve()
        try:
            rel = path.relative_to(REPO / "tests").as_posix()
        except ValueError:
            continue
        name = f"{rel}::{item.originalname or item.name}"
        cid = item.callspec.id if hasattr(item, "callspec") else ""
        for i, (test, pattern) in enumerate(EXHAUSTIVE):
            if test == name and re.search(pattern, cid):
                item.add_marker(pytest.mark.exhaustive)
                used[i] += 1
    # the bitwise mesh, process and validation runs first, the many short unit tests last: the test
    # processes then finish together instead of one waiting on a long test begun at the end
    items.sort(key=lambda item: "/tests/unit/" in Path(str(item.fspath)).as_posix())
    # only when the whole suite was collected (a run of one file selects nothing of the others)
    if {Path(str(i.fspath)).resolve() for i in items} >= {REPO / "tests" / t.split("::")[0] for t, _ in EXHAUSTIVE}:
        stale = [EXHAUSTIVE[i][0] for i, n in enumerate(used) if n == 0]
        if stale:
            raise pytest.UsageError(f"tests/conftest.py EXHAUSTIVE: no test matches {stale}")
