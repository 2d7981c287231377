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
    _cache = tempfile.mkdtemp(prefix="distlbm-tests-jax-cache-")
    os.environ["JAX_COMPILATION_CACHE_DIR"] = _cache
    os.environ["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] = "0"
    os.environ["JAX_COMPILATION_CACHE_MAX_SIZE"] = str(8 << 30)
    _owner = os.getpid()
    atexit.register(lambda: os.getpid() == _owner and shutil.rmtree(_cache, ignore_errors=True))

# tests/unit, tests/parallel and tests/validation import the shared helpers from this folder
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest

REPO = Path(__file__).resolve().parents[1]


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
