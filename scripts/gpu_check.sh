#!/usr/bin/env bash
# One prepared GPU check for a fresh GPU machine that has a copy of this working tree and a python3 with
# jax + a CUDA plug-in preinstalled (the project's lent H200: jax 0.11, CUDA 13, no network, no mpi4jax).
# It installs nothing. Within GPU_CHECK_BUDGET_S (default 420 s; the whole script stays under 8 minutes)
# it runs scripts/step_variants.py --plan gpu: for every step variant (xla: stepper.make_step, the A-B step;
# pallas: physics.fused.make_fused_step, one fused Triton kernel per step, A-B; pallas-inplace:
# physics.fused_inplace, the fused kernel streaming in place, AA pattern, one population array: what the
# driver runs on GPUs), D3Q19 BGK periodic box at 256^3 and 512^3, float32 and float16 storage (float32 compute):
#   MLUPS (median of 3 x GPU_CHECK_STEPS steps), fraction of the HBM roofline (measured copy bandwidth and the
#   device kind's nominal one: H200 4.8 TB/s, H100 3.35 TB/s), XLA's bytes per cell update, peak device memory
#   per cell and over the populations,
#   kernels per step (counted in the optimized HLO of one step; the 256^3 modules are saved under
#   $OUT/hlo/), max |df| of each Pallas path against the XLA path after 100 steps; then the sphere case at n = 24
#   (241 x 144 x 144: Bouzidi links, velocity inlet, pressure outlet) as `distlbm run` advances it, on the XLA
#   step and on the fused kernel (A-B), with max |df| after 100 steps; `distlbm run sphere --set n=12` itself for
#   200 steps with checkpoints and field output, then its restart to 300 steps (exit statuses, summaries, files:
#   the driver's GPU path); Schaefer-Turek 3D-1Z at D = 13 (far walls off the grid, TRT) on the XLA step and the
#   fused kernel, with max |df| after 100 steps; the largest cubic lattice each path fits (after the cases: the
#   first to go when time is short); and a small sweep of the kernel's tile and warps (last, if time is left). A
#   task that reports nothing within 90 s (150 s for a worker's first: jax's start) has its worker ended: a
#   "timeout" entry, the group's later tasks in a fresh worker, the later tasks of that path (a case's: xla and
#   pallas) skipped, in its group too (a stuck Triton compile costs its task's 90 or 150 s, not the budget).
#   `distlbm run` takes the path the driver picks (stepper.step_path on the workers' platform: the fused kernel on a
#   GPU); where that path was found stuck it runs with --set step=xla, said in its entry ("ran with step=xla: the
#   fused kernel was stuck ..."), and is skipped only where the XLA step was stuck too.
# Everything goes into one JSON: $OUT/gpu_check.json (else ./gpu_check.json). A failure (no GPU, a missing
# API in this jax, a Triton compile error, an out-of-memory, a timeout) is an entry of its "failed" list,
# never a crash; exit status 0 when everything ran, 1 otherwise.
#
# Settings (environment):
#   GPU_CHECK_SIZES=256,512   GPU_CHECK_DTYPES=float32,float16   GPU_CHECK_STEPS=50
#   GPU_CHECK_BUDGET_S=420    GPU_CHECK_NOMINAL_BW=(the device kind's)  GPU_CHECK_PYTHON=python3
#   GPU_CHECK_CASE_N=24       the sphere case's cells per diameter
#   GPU_CHECK_ST_N=13         Schaefer-Turek 3D-1Z's cells per diameter (GPU_CHECK_ST_TAU: its tau, for small n)
#   GPU_CHECK_ALLOW_CPU=1     run on a machine without a GPU (to check this script; use small sizes)
# Run on a device machine: `OUT=$OUT bash scripts/gpu_check.sh` with a timeout of ~480 s.
set -u
cd "$(dirname "$0")/.."
START=$(date +%s)
JSON_PATH="${OUT:+$OUT/gpu_check.json}"
JSON_PATH="${JSON_PATH:-$PWD/gpu_check.json}"
mkdir -p "$(dirname "$JSON_PATH")"
export GPU_CHECK_START=$START
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
BUDGET=${GPU_CHECK_BUDGET_S:-420}

fail_json() {  # fail_json STAGE MESSAGE: written with the standard library only
    python3 - "$1" "$2" "$JSON_PATH" <<'EOF' || printf '{"ok": false, "failed": [{"stage": "%s", "error": "%s"}]}\n' "$1" "$2" >"$JSON_PATH"
import json, os, sys, time
out = {"ok": False, "failed": [{"stage": sys.argv[1], "error": sys.argv[2]}], "results": [],
       "elapsed_s": time.time() - float(os.environ["GPU_CHECK_START"])}
json.dump(out, open(sys.argv[3], "w"), indent=2)
EOF
    echo "gpu_check: FAILED at $1: $2 (see $JSON_PATH)" >&2
    exit 1
}

# the interpreter: GPU_CHECK_PYTHON, else the first of python3 / ./.venv that has jax with a GPU
PY=""
for cand in ${GPU_CHECK_PYTHON:-} python3 ./.venv/bin/python /opt/torch/.venv/bin/python3; do
    command -v "$cand" >/dev/null 2>&1 || continue
    if [ "${GPU_CHECK_ALLOW_CPU:-0}" = 1 ]; then
        "$cand" -c "import jax, numpy" >/dev/null 2>&1 && { PY=$(command -v "$cand"); break; }
    elif timeout 120 "$cand" -c "import jax, numpy, sys; sys.exit(0 if jax.default_backend() in ('gpu', 'cuda', 'rocm') else 1)" >/dev/null 2>&1; then
        PY=$(command -v "$cand"); break
    fi
done
[ -n "$PY" ] || fail_json device "no python3 with jax sees a GPU here (tried: ${GPU_CHECK_PYTHON:-} python3 ./.venv/bin/python); nothing is installed by this script"
echo "gpu_check: using $PY" >&2
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader >&2

"$PY" scripts/step_variants.py --plan gpu --out "$JSON_PATH" --budget "$BUDGET" --python "$PY"
rc=$?
[ -s "$JSON_PATH" ] || fail_json measure "scripts/step_variants.py wrote no JSON (exit status $rc)"
if command -v nvidia-smi >/dev/null 2>&1; then
    "$PY" - "$JSON_PATH" <<'EOF' 2>/dev/null || true
import json, subprocess, sys
p = sys.argv[1]
out = json.load(open(p))
out["nvidia_smi"] = subprocess.run(["nvidia-smi", "--query-gpu=name,memory.total,driver_version,clocks.max.memory",
                                    "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
json.dump(out, open(p, "w"), indent=2, default=str)
EOF
fi
echo "gpu_check: wrote $JSON_PATH (exit status $rc, $(( $(date +%s) - START )) s)" >&2
exit $rc
