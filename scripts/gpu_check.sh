#!/usr/bin/env bash
# One prepared GPU check, meant to finish in under 8 minutes on a fresh GPU machine that has a copy of
# this working tree. It writes one JSON ($OUT/gpu_check.json if $OUT is set, else ./gpu_check.json):
#   MLUPS of the D3Q19 periodic box at 256^3 and 400^3 in float32 and float16 storage (float32 compute),
#   peak device memory, the measured copy bandwidth and the fraction of the roofline (measured, and
#   nominal: H200 4.8 TB/s), jax and device information, and what failed if anything did.
# It uses the machine's python3 when that already has jax with CUDA (this tree on PYTHONPATH), else
# sets up ./.venv itself (pip install of jax[cuda12] in the version range that pyproject.toml pins,
# with a timeout) and exits with a JSON that says what failed otherwise.
#
# Settings (environment):
#   GPU_CHECK_SIZES=256,400         cells per side
#   GPU_CHECK_DTYPES=float32,float16
#   GPU_CHECK_STEPS=50              timed steps per repetition (3 repetitions, median)
#   GPU_CHECK_BUDGET_S=450          wall-time budget of the whole script; runs that do not fit are skipped
#   GPU_CHECK_NOMINAL_BW=4.8e12     nominal memory bandwidth in bytes/s (H200: 4.8 TB/s)
#   GPU_CHECK_ALLOW_CPU=1           run on CPU when no GPU is visible (to check this script)
#   GPU_CHECK_JAX='jax[cuda12]...'  what pip installs when jax with CUDA is missing
# Exit status: 0 all measurements done, 1 something failed (the JSON says what).
set -u
cd "$(dirname "$0")/.."
START=$(date +%s)
JSON_PATH="${OUT:+$OUT/gpu_check.json}"
JSON_PATH="${JSON_PATH:-$PWD/gpu_check.json}"
mkdir -p "$(dirname "$JSON_PATH")"
LOG="$(mktemp -d)/gpu_check.log"
BUDGET=${GPU_CHECK_BUDGET_S:-450}
export GPU_CHECK_START=$START GPU_CHECK_JSON=$JSON_PATH GPU_CHECK_LOG=$LOG GPU_CHECK_BUDGET_S=$BUDGET

fail_json() {  # fail_json STAGE MESSAGE: a JSON written without the venv (only python3's stdlib)
    python3 - "$1" "$2" <<'EOF' || printf '{"ok": false, "failed": [{"stage": "%s", "error": "see log"}]}\n' "$1" >"$GPU_CHECK_JSON"
import json, os, sys, time
log = open(os.environ["GPU_CHECK_LOG"], errors="replace").read()[-4000:] if os.path.exists(os.environ["GPU_CHECK_LOG"]) else ""
out = {"ok": False, "failed": [{"stage": sys.argv[1], "error": sys.argv[2]}], "log_tail": log,
       "elapsed_s": time.time() - float(os.environ["GPU_CHECK_START"]), "results": []}
json.dump(out, open(os.environ["GPU_CHECK_JSON"], "w"), indent=2)
EOF
    echo "gpu_check: FAILED at $1: $2 (see $JSON_PATH)" >&2
    exit 1
}

left() { echo $((BUDGET - ($(date +%s) - START))); }

# ---- the virtual environment ----------------------------------------------------------------------
PY=.venv/bin/python
JAX_RANGE=$(grep -o '"jax[<>=!~][^"]*"' pyproject.toml | head -1 | tr -d '"' | sed 's/^jax//')
JAX_REQ=${GPU_CHECK_JAX:-"jax[cuda12]${JAX_RANGE}"}
PIP="$PY -m pip --disable-pip-version-check -q"
want_gpu() { [ "${GPU_CHECK_ALLOW_CPU:-0}" != 1 ]; }
has_gpu_jax() { "$PY" -c "import jax, sys; sys.exit(0 if jax.default_backend() in ('gpu', 'cuda', 'rocm') else 1)" >>"$LOG" 2>&1; }

# A machine image that already holds jax with CUDA (GPU machines that cannot reach the network: the
# project's device machines ship python3 with jax + jax-cuda plug-ins, numpy and h5py): use it with
# this tree on PYTHONPATH instead of building a venv.
if [ ! -x "$PY" ] && want_gpu; then
    for cand in python3 /opt/torch/.venv/bin/python3; do
        if command -v "$cand" >/dev/null 2>&1 && PYTHONPATH="$PWD" "$cand" -c "import jax, numpy, h5py, distlbm, sys; sys.exit(0 if jax.default_backend() in ('gpu', 'cuda', 'rocm') else 1)" >>"$LOG" 2>&1; then
            PY=$(command -v "$cand"); PIP="$PY -m pip --disable-pip-version-check -q"
            export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
            echo "gpu_check: using $PY (jax with CUDA already installed)" >&2
            break
        fi
    done
fi
if ! "$PY" -c "import jax, numpy, h5py, distlbm" >>"$LOG" 2>&1; then
    echo "gpu_check: setting up .venv ($JAX_REQ)" >&2
    PYTHON=$(command -v python3.11 || command -v python3) || fail_json venv "no python3 on this machine"
    [ -x "$PY" ] || "$PYTHON" -m venv .venv >>"$LOG" 2>&1 || fail_json venv "python3 -m venv .venv failed"
    T=$(( $(left) - 240 )); [ "$T" -gt 30 ] || fail_json venv "no time left to install"
    if want_gpu; then REQ="$JAX_REQ"; else REQ="jax${JAX_RANGE}"; fi
    timeout "$T" $PIP install "$REQ" "numpy>=1.26" "h5py>=3.10" >>"$LOG" 2>&1 \
        || fail_json venv "pip install $REQ numpy h5py failed or timed out (no network?)"
    timeout 120 $PIP install --no-deps --no-build-isolation -e . >>"$LOG" 2>&1 \
        || timeout 120 $PIP install --no-deps -e . >>"$LOG" 2>&1 || fail_json venv "pip install -e . failed"
fi
if want_gpu && ! has_gpu_jax; then
    # a venv without the CUDA plug-in (e.g. copied from a CPU machine): add it, same jax version
    V=$("$PY" -c "import jax; print(jax.__version__)" 2>>"$LOG")
    echo "gpu_check: jax $V sees no GPU; installing jax[cuda12]==$V" >&2
    T=$(( $(left) - 240 )); [ "$T" -gt 30 ] || fail_json venv "no time left to install jax[cuda12]"
    timeout "$T" $PIP install "jax[cuda12]==$V" >>"$LOG" 2>&1 || fail_json venv "pip install jax[cuda12]==$V failed or timed out"
    has_gpu_jax || fail_json device "jax $V with jax[cuda12] still sees no GPU (driver? CUDA_VISIBLE_DEVICES?)"
fi

# ---- the measurements -----------------------------------------------------------------------------
"$PY" - <<'EOF'
import json, os, shutil, statistics, subprocess, sys, time

start = float(os.environ["GPU_CHECK_START"])
budget = float(os.environ["GPU_CHECK_BUDGET_S"])
path = os.environ["GPU_CHECK_JSON"]
sizes = [int(s) for s in os.environ.get("GPU_CHECK_SIZES", "256,400").split(",") if s.strip()]
dtypes = [s.strip() for s in os.environ.get("GPU_CHECK_DTYPES", "float32,float16").split(",") if s.strip()]
steps = int(os.environ.get("GPU_CHECK_STEPS", "50"))
nominal = float(os.environ.get("GPU_CHECK_NOMINAL_BW", "4.8e12"))
allow_cpu = os.environ.get("GPU_CHECK_ALLOW_CPU", "0") == "1"
out = {"ok": False, "failed": [], "results": [], "nominal_bandwidth_bytes_per_s": nominal,
       "nominal_bandwidth_note": "H200 SXM: 4.8 TB/s (GPU_CHECK_NOMINAL_BW)", "settings":
       {"sizes": sizes, "dtypes": dtypes, "steps": steps, "repeat": 3, "lattice": "D3Q19", "collision": "bgk"}}


def save():
    out["elapsed_s"] = time.time() - start
    with open(path + ".tmp", "w") as fh:
        json.dump(out, fh, indent=2)
    os.replace(path + ".tmp", path)


try:
    import jax

    devs = jax.devices()
    out["jax"] = {"jax": jax.__version__, "jaxlib": getattr(__import__("jaxlib"), "__version__", None),
                  "backend": jax.default_backend(), "python": sys.version.split()[0]}
    out["devices"] = [{"id": d.id, "platform": d.platform, "kind": d.device_kind} for d in devs]
    if shutil.which("nvidia-smi"):
        q = subprocess.run(["nvidia-smi", "--query-gpu=name,memory.total,driver_version,clocks.max.memory",
                            "--format=csv,noheader"], capture_output=True, text=True, timeout=30)
        out["nvidia_smi"] = q.stdout.strip().splitlines()
    if jax.default_backend() == "cpu" and not allow_cpu:
        out["failed"].append({"stage": "device", "error": "jax sees no GPU (set GPU_CHECK_ALLOW_CPU=1 to run on CPU)"})
        save()
        sys.exit(1)
except SystemExit:
    raise
except Exception as e:
    out["failed"].append({"stage": "jax", "error": f"{e.__class__.__name__}: {e}"})
    save()
    sys.exit(1)
save()

# one fresh process per configuration: its peak device memory is its own
for size in sizes:
    for dtype in dtypes:
        left = budget - (time.time() - start) - 10
        if left < 30:
            out["failed"].append({"stage": f"bench {size} {dtype}", "error": "skipped: wall-time budget spent"})
            continue
        cmd = [sys.executable, "-m", "distlbm", "bench", "--lattice", "D3Q19", "--size", str(size), "--dtype", dtype,
               "--steps", str(steps), "--repeat", "3", "--json"]
        t = time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=min(left, 240))
            if p.returncode != 0:
                raise RuntimeError(f"exit status {p.returncode}: {p.stderr[-1500:]}")
            r = json.loads(p.stdout.strip().splitlines()[-1])
        except Exception as e:
            out["failed"].append({"stage": f"bench {size} {dtype}", "error": f"{e.__class__.__name__}: {e}"[-2000:]})
            save()
            continue
        nominal_roof = nominal / r["bytes_per_cell"] / 1e6
        out["results"].append({
            "size": size, "dtype": dtype, "compute_dtype": r["compute_dtype"], "cells": r["cells"],
            "mlups": r["mlups"], "mlups_all": r["mlups_all"], "bytes_per_cell": r["bytes_per_cell"],
            "xla_bytes_per_cell": r["xla_bytes_per_cell"], "population_bytes": r["population_bytes"],
            "peak_memory_bytes": r["peak_memory_bytes"], "peak_over_population": r["peak_over_population"],
            "bandwidth_bytes_per_s": r["bandwidth_bytes_per_s"], "roofline_mlups": r["roofline_mlups"],
            "roofline_fraction": r["roofline_fraction"], "nominal_roofline_mlups": nominal_roof,
            "nominal_roofline_fraction": r["mlups"] / nominal_roof, "platform": r["platform"],
            "device_kind": r.get("device_kind"), "compile_s": r["compile_s"], "wall_s": time.time() - t})
        print(f"gpu_check: D3Q19 {size}^3 {dtype}: {r['mlups']:.0f} MLUPS, peak {r['peak_memory_bytes'] / 2**30:.2f} GiB, "
              f"{100 * r['roofline_fraction']:.1f} % of measured / {100 * r['mlups'] / nominal_roof:.1f} % of nominal roofline",
              file=sys.stderr)
        save()
bws = [r["bandwidth_bytes_per_s"] for r in out["results"] if r["bandwidth_bytes_per_s"]]
out["measured_bandwidth_bytes_per_s"] = statistics.median(bws) if bws else None
out["ok"] = not out["failed"] and len(out["results"]) == len(sizes) * len(dtypes)
save()
sys.exit(0 if out["ok"] else 1)
EOF
rc=$?
if [ ! -s "$JSON_PATH" ]; then fail_json measure "the measuring script wrote no JSON (exit status $rc)"; fi
echo "gpu_check: wrote $JSON_PATH (exit status $rc, $(( $(date +%s) - START )) s)" >&2
exit $rc
