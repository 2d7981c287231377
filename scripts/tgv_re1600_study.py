#!/usr/bin/env python
"""The Taylor-Green vortex at Re 1600 against the 512^3 spectral DNS: one run per call, then a plot and a table.

    .venv/bin/python scripts/tgv_re1600_study.py run --n 64 --collision trt --out out/tgv_study
    .venv/bin/python scripts/tgv_re1600_study.py run --n 128 --collision bgk --smagorinsky 0.1 --out out/tgv_study
    .venv/bin/python scripts/tgv_re1600_study.py report out/tgv_study/*.json --png docs/validation/tgv_re1600_study.png

`run` runs `taylor_green3d` with re=1600, t_end=12 (and the given settings) on one device and writes
LABEL.json: the settings, the status (complete or the instability), wall time, the sampled E(t) and -dE/dt(t)
and the comparison with the reference (distlbm.cases.taylor_green.compare_dissipation). An unstable run keeps
its samples up to the blow-up. `report` plots -dE/dt(t) of the runs against the reference and prints a
markdown table (peak value and time, whole-curve errors, wall time). Run one simulation at a time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from distlbm.cases.references import tgv_spectral  # noqa: E402
from distlbm.cases.taylor_green import (RE_BENCHMARK, T_COMPARE, TaylorGreen3D, compare_dissipation,  # noqa: E402
                                        dissipation_rate)


def label_of(a) -> str:
    smag = f"_smag{a.smagorinsky:g}" if a.smagorinsky else ""
    u0 = f"_u{a.u0:g}" if a.u0 is not None else ""
    return f"n{a.n}_{a.collision}{smag}{u0}"


def cmd_run(a) -> int:
    from distlbm.config import resolve
    from distlbm.driver import Simulation
    from distlbm.parallel.domain import LocalDomain

    params = {"re": RE_BENCHMARK, "n": a.n, "t_end": a.t_end, "collision": a.collision, "smagorinsky": a.smagorinsky}
    if a.u0 is not None:
        params["u0"] = a.u0
    cfg = resolve("taylor_green3d", params)
    sim = Simulation(cfg, domain=LocalDomain(cfg.setup.shape), log=lambda m: print(m, flush=True))
    t0 = time.perf_counter()
    status, summary = "complete", None
    try:
        summary = sim.run()
    except FloatingPointError as e:  # an instability: keep the samples up to it
        status = f"unstable: {e}".split(";")[0]
    wall = time.perf_counter() - t0
    t, e = TaylorGreen3D.energy_history(sim.view)
    rec = {"label": a.label or label_of(a), "params": params, "tau": cfg.setup.tau, "status": status,
           "wall_s": wall, "steps": sim.view.step, "mlups": summary["mlups"] if summary else None,
           "t": t.tolist(), "energy": e.tolist()}
    if summary is not None:
        rec["comparison"] = summary["observables"].get("dissipation_vs_spectral")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{rec['label']}.json"
    path.write_text(json.dumps(rec) + "\n")
    c = rec.get("comparison")
    print(f"{rec['label']}: {status}, {wall:.0f} s" + (f"; peak {c['peak']:.5f} ({c['peak_error']:+.2%}) at "
          f"t = {c['peak_time']:.3f} ({c['peak_time_error']:+.2%}), L2 {c['l2']:.4f}, max {c['max_dev']:.4f}"
          if c else ""))
    return 0


def stable_part(t, e):
    """The samples before an instability: up to the last one before the energy starts to grow."""
    grow = np.nonzero(~(np.diff(e) <= 0))[0]  # growing, or not finite
    end = grow[0] + 1 if grow.size else len(e)
    return t[:end], e[:end]


def cmd_report(a) -> int:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ref = tgv_spectral()
    runs = [json.loads(Path(p).read_text()) for p in a.files]
    runs.sort(key=lambda r: (r["params"]["n"], r["label"]))
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6), sharey=True)
    keep = ref["t"] <= T_COMPARE
    rows = ["| lattice | collision | tau | status | peak -dE/dt (error) | peak time (error) | L2 error | "
            "max deviation | wall time |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for ax, n in zip(axes, sorted({r["params"]["n"] for r in runs})[:2]):
        ax.plot(ref["t"][keep], ref["dissipation"][keep], "k-", lw=2.2, label="spectral DNS 512³ (van Rees et al.)")
        for r in (r for r in runs if r["params"]["n"] == n):
            t, e = np.asarray(r["t"]), np.asarray(r["energy"])
            ok = r["status"] == "complete"
            if not ok:
                t, e = stable_part(t, e)
            if t.size >= 3:
                ax.plot(t, dissipation_rate(t, e), "-" if ok else ":", lw=1.3,
                        label=r["label"].split("_", 1)[1] + ("" if ok else f" (unstable at t = {t[-1]:.1f})"))
        ax.set_title(f"{n}³, Re 1600", fontsize=10)
        ax.set_xlabel("t  (L / V0)")
        ax.set_xlim(0, T_COMPARE)
        ax.set_ylim(0, 0.016)
        ax.grid(True, lw=0.3)
        ax.legend(fontsize=7, loc="upper left")
    axes[0].set_ylabel("-dE/dt  (V0³ / L)")
    fig.tight_layout()
    if a.png:
        Path(a.png).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(a.png, dpi=100)
        print(f"wrote {a.png}")
    for r in runs:
        p = r["params"]
        col = p["collision"] + (f" + Smagorinsky C_s = {p['smagorinsky']:g}" if p["smagorinsky"] else "")
        col += f", u0 = {p['u0']:g}" if "u0" in p else ""
        wall = f"{r['wall_s'] / 60:.1f} min"
        c = r.get("comparison")
        if r["status"] != "complete" or not c:
            t, _ = stable_part(np.asarray(r["t"]), np.asarray(r["energy"]))
            tt = t[-1] if t.size else 0.0
            rows.append(f"| {p['n']}³ | {col} | {r['tau']:.5f} | unstable at t ≈ {tt:.1f} | — | — | — | — | "
                        f"{wall} |")
            continue
        ok_p = abs(c["peak_error"]) <= 0.05
        ok_t = abs(c["peak_time_error"]) <= 0.05
        rows.append(f"| {p['n']}³ | {col} | {r['tau']:.5f} | stable | {c['peak']:.5f} ({c['peak_error']:+.1%}"
                    f"{'' if ok_p else ', outside 5 %'}) | {c['peak_time']:.2f} ({c['peak_time_error']:+.1%}"
                    f"{'' if ok_t else ', outside 5 %'}) | {c['l2']:.3f} | {c['max_dev']:.3f} | {wall} |")
    r0 = compare_dissipation(ref["t"], ref["dissipation"], ref["t"], ref["dissipation"])
    print(f"reference: peak {r0['reference_peak']:.5f} at t = {r0['reference_peak_time']:.3f}")
    print("\n".join(rows))
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="tgv_re1600_study.py", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="one run of taylor_green3d at Re 1600 -> OUT/LABEL.json")
    r.add_argument("--n", type=int, default=64, help="cells per side of the box (default: 64)")
    r.add_argument("--collision", default="bgk", help="collision operator: bgk, trt or regularized (default: bgk)")
    r.add_argument("--smagorinsky", type=float, default=0.0,
                   help="Smagorinsky constant C_s, e.g. 0.1 (default: 0, no subgrid model)")
    r.add_argument("--u0", type=float, default=None, help="velocity amplitude V0 [lattice] (default: the case's)")
    r.add_argument("--t-end", type=float, default=T_COMPARE,
                   help=f"run length in convective times L / V0 (default: {T_COMPARE:g})")
    r.add_argument("--label", default="", help="the JSON file's name, OUT/LABEL.json (default: from n, collision, "
                   "smagorinsky and u0, e.g. n128_bgk_smag0.1)")
    r.add_argument("--out", default="out/tgv_study", help="folder of the runs' JSON files (default: out/tgv_study)")
    p = sub.add_parser("report", help="plot and table of the runs' JSON files")
    p.add_argument("files", nargs="+", help="the runs' JSON files (OUT/*.json)")
    p.add_argument("--png", default="", help="write the plot of -dE/dt(t) here (default: the table only)")
    a = ap.parse_args(argv)
    return cmd_run(a) if a.cmd == "run" else cmd_report(a)


if __name__ == "__main__":
    sys.exit(main())
