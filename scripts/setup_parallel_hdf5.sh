#!/usr/bin/env bash
# Optional: a second environment ./.venv-phdf5 whose h5py is built with MPI (collective parallel HDF5,
# driver="mpio"), against Debian's MPICH. It is separate from ./.venv on purpose: one MPI per
# environment (./.venv uses the mpich wheel). Needs root for apt-get; ~6 min on 2 cores.
# Recipe and traps: shared/ENVIRONMENT.md (build without isolation: an isolated build pins and compiles
# its own mpi4py and was OOM-killed).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-phdf5
PYTHON=${PYTHON:-python3.11}
command -v "$PYTHON" >/dev/null || PYTHON=python3
if [ -f "$VENV/.installed" ] && [ "$VENV/.installed" -nt pyproject.toml ] && [ "$VENV/.installed" -nt "$0" ]; then
    exit 0
fi
if ! command -v mpicc.mpich >/dev/null 2>&1 || ! pkg-config --exists hdf5-mpich 2>/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq libhdf5-mpich-dev libmpich-dev mpich pkg-config >/dev/null
fi
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
PIP="$VENV/bin/python -m pip --disable-pip-version-check -q"
$PIP install -U pip
$PIP install "jax>=0.10,<0.13" "numpy>=1.26" "Cython<4" pkgconfig "setuptools>=82.0.1" wheel nanobind pytest
export CC=mpicc.mpich MPICC=mpicc.mpich
$VENV/bin/python -c "import mpi4py" 2>/dev/null || $PIP install --no-binary=mpi4py --no-build-isolation mpi4py
$VENV/bin/python -c "import h5py, sys; sys.exit(0 if h5py.get_config().mpi else 1)" 2>/dev/null || \
    HDF5_MPI=ON HDF5_PKGCONFIG_NAME=hdf5-mpich $PIP install --no-build-isolation --no-binary=h5py h5py
if ! $VENV/bin/python -c "import mpi4jax" 2>/dev/null; then
    tmp=$(mktemp -d)
    CUDA_PATH="$tmp" MPI4JAX_BUILD_MPICC=mpicc.mpich $PIP install --no-build-isolation "mpi4jax>=0.9"
    rmdir "$tmp" 2>/dev/null || true
fi
$PIP install --no-build-isolation --no-deps -e .
$VENV/bin/python -c "import h5py; assert h5py.get_config().mpi, 'h5py without MPI'"
touch "$VENV/.installed"
