#!/usr/bin/env python3
"""MLUPS of one lattice on one device and on a device mesh, measured back to back in one run.

usage: scripts/bench_mesh_ratio.py [--size 128] [--mesh 2x2x2] [--lattice D3Q19] [--steps 20] [--repeat 5]
On a CPU machine the mesh's devices are forced host devices (XLA_FLAGS); on a GPU node they are the GPUs.
Prints one JSON object with both results and the ratio mesh/single.
"""

import argparse
import json
import math
import os
import subprocess
import sys


def bench(args, mesh=None):
    env = dict(os.environ)
    cmd = [sys.executable, "-m", "distlbm", "bench", "--lattice", args.lattice, "--size", str(args.size),
           "--steps", str(args.steps), "--repeat", str(args.repeat), "--json"]
    if mesh:
        n = math.prod(int(m) for m in mesh.split("x"))
        if args.force_cpu:
            env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={n}"
        cmd += ["--mesh", mesh]
    elif args.force_cpu:
        env["XLA_FLAGS"] = "--xla_force_host_platform_device_count=1"
    run = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if run.returncode != 0:  # distlbm's own line (a mesh that does not split the lattice, ...), not a traceback
        said = [ln for ln in run.stderr.strip().splitlines() if ln.strip()]
        print(f"bench_mesh_ratio.py: the benchmark {'on mesh ' + mesh if mesh else 'on one device'} failed "
              f"(exit {run.returncode}): {said[-1] if said else 'no message'}", file=sys.stderr)
        sys.exit(run.returncode or 1)
    return json.loads(run.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=128, help="cells per side of the lattice (default: 128)")
    ap.add_argument("--mesh", default="2x2x2", help="devices per axis of the mesh run (default: 2x2x2)")
    ap.add_argument("--lattice", default="D3Q19", help="velocity set: D2Q9, D3Q19 or D3Q27 (default: D3Q19)")
    ap.add_argument("--steps", type=int, default=20, help="timed steps per repetition (default: 20)")
    ap.add_argument("--repeat", type=int, default=5, help="timed repetitions of each run: distlbm bench's median "
                    "(default: 5)")
    ap.add_argument("--no-force-cpu", dest="force_cpu", action="store_false",
                    help="use the machine's real devices instead of forced CPU devices")
    args = ap.parse_args()
    try:
        mesh = [int(m) for m in args.mesh.lower().split("x")]
    except ValueError:
        mesh = []
    if len(mesh) not in (2, 3) or min(mesh) < 1:
        ap.error(f"--mesh = {args.mesh!r}: expected devices per axis, e.g. 2x2x2")
    for key in ("size", "steps", "repeat"):
        if getattr(args, key) < 1:
            ap.error(f"--{key} = {getattr(args, key)}: expected at least 1")
    many = bench(args, args.mesh)  # first: a mesh distlbm refuses is said before the single-device run's minutes
    one = bench(args)
    print(json.dumps({"single": {k: one[k] for k in ("mlups", "mlups_all", "xla_bytes_per_cell")},
                      "mesh": {k: many[k] for k in ("mesh", "devices", "mlups", "mlups_per_device", "mlups_all",
                                                    "halo_bytes_per_step_per_device",
                                                    "population_bytes_per_device")},
                      "ratio_mesh_over_single": many["mlups"] / one["mlups"],
                      # what ran it: a ratio of another device or code state is told apart (bench's --json keys)
                      **{k: many.get(k) for k in ("device_kind", "platform", "steps", "repeat", "distlbm", "jax",
                                                  "commit", "dirty")}}, indent=1))


if __name__ == "__main__":
    main()
