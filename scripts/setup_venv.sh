#!/usr/bin/env bash
# Create ./.venv with the full stack (jax, numpy, h5py, mpi4py + MPICH wheel, mpi4jax) and distlbm itself.
# Safe to re-run. On a cluster with its own MPI/CUDA, see README "Installing on a cluster".
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3.11}
command -v "$PYTHON" >/dev/null || PYTHON=python3
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
export PATH="$PWD/.venv/bin:$PATH"  # the mpich wheel puts mpicc here; mpi4jax builds with it
PIP=".venv/bin/python -m pip --disable-pip-version-check -q"
$PIP install -U pip
$PIP install "jax>=0.10,<0.13" "numpy>=1.26" "h5py>=3.10" "mpi4py>=4.0" mpich pytest "matplotlib>=3.8" \
    nanobind "setuptools>=82.0.1" wheel
# mpi4jax is source-only; without CUDA_PATH pointing at an empty folder it tries to build its CUDA
# extension against the image's partial toolkit and fails (../shared/ENVIRONMENT.md).
if ! .venv/bin/python -c "import mpi4jax" 2>/dev/null; then
    if command -v nvidia-smi >/dev/null 2>&1 && [ -n "${CUDA_PATH:-}" ]; then
        $PIP install --no-build-isolation "mpi4jax>=0.9"
    else
        tmp=$(mktemp -d)
        CUDA_PATH="$tmp" $PIP install --no-build-isolation "mpi4jax>=0.9"
        rmdir "$tmp" 2>/dev/null || true
    fi
fi
$PIP install --no-build-isolation -e ".[mpi,test,plots,stl]"
