#!/usr/bin/env bash
# Optional: a second environment ./.venv-cuda with jax, jaxlib and jax-cuda13-plugin of the same version as
# ./.venv's jax, used only to *lower* the fused Pallas kernel for CUDA on a machine without a GPU
# (JAX_PLATFORMS=cpu; tests/test_fused.py runs the check when this environment exists). No nvidia-*
# libraries are needed for lowering (../shared/ENVIRONMENT.md, "GPU facts"). ~1.1 GB download.
# distlbm itself is not installed here: the lowering script puts the tree on PYTHONPATH.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-cuda
PYTHON=${PYTHON:-python3.11}
command -v "$PYTHON" >/dev/null || PYTHON=python3
if [ -x .venv/bin/python ]; then
    V=$(.venv/bin/python -c 'import jax; print(jax.__version__)')
else
    V=${JAX_VERSION:?"no ./.venv to take the jax version from; set JAX_VERSION"}
fi
if [ -f "$VENV/.installed" ] && [ "$(cat "$VENV/.installed")" = "$V" ] && [ "$VENV/.installed" -nt "$0" ]; then
    exit 0
fi
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
PIP="$VENV/bin/python -m pip --disable-pip-version-check -q"
$PIP install -U pip
$PIP install "jax==$V" "jaxlib==$V" "jax-cuda13-plugin==$V" "numpy>=1.26"
JAX_PLATFORMS=cpu "$VENV/bin/python" -c "import jax, jax_plugins.xla_cuda13; from jax.experimental.pallas import triton" \
    2>/dev/null || { echo "setup_cuda_lowering: the CUDA plug-in does not import" >&2; exit 1; }
echo "$V" >"$VENV/.installed"
