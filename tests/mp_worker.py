"""Run one case for a few steps as one of several processes (launched by mpiexec or the fake srun)
and save the gathered populations from process 0. Used by test_processes.py.

usage: mp_worker.py OUT.npy CASE STEPS [--mesh AxBxC] [--comm jax|mpi] [--set k=v ...] [--fail-rank R]
"""

from __future__ import annotations

import argparse
import sys

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("case")
    ap.add_argument("steps", type=int)
    ap.add_argument("--mesh", default="")
    ap.add_argument("--comm", default="jax")
    ap.add_argument("--set", dest="sets", action="append", default=[])
    ap.add_argument("--fail-rank", type=int, default=-1, help="this rank raises after start-up")
    args = ap.parse_args()

    from distlbm.config import parse_sets, resolve
    from distlbm.parallel.processes import abort, initialize

    cfg = resolve(args.case, parse_sets(args.sets), mesh=args.mesh or None, comm=args.comm)
    procs = initialize(cfg.decomposition.comm)
    try:
        from distlbm.driver import Simulation

        sim = Simulation(cfg, log=lambda m: None)
        if sim.domain.process_index == args.fail_rank:
            raise RuntimeError(f"deliberate failure on rank {args.fail_rank}")
        sim.advance(args.steps)
        f = sim.domain.gather(sim.state.f)
        diag = sim.diagnostics()
        if sim.domain.process_index == 0:
            np.save(args.out, f.view(np.uint16) if f.dtype.itemsize == 2 else f)  # 16-bit: its bits
            from distlbm.stepper import xla_form

            form = xla_form(sim.model, cfg.setup.shape, sim.domain.mesh_shape).replace(" ", "_")
            print(f"processes={procs['processes']} devices={sim.domain.n_devices} "
                  f"mesh={'x'.join(map(str, sim.domain.mesh_shape))} mass={diag['mass']!r} form={form} "
                  f"path={sim.step_path[0]}", flush=True)
    except Exception as e:
        print(f"rank failed: {e}", file=sys.stderr, flush=True)
        abort(1)


if __name__ == "__main__":
    main()
