#!/usr/bin/env python
"""Schaefer-Turek 3D-1Z: a table and a convergence plot from finished runs of `distlbm run schaefer_turek_3d1z`.

    .venv/bin/distlbm run schaefer_turek_3d1z --set n=10 --out out/st3d/n10        # tau 0.575 fixed, TRT
    .venv/bin/distlbm run schaefer_turek_3d1z --set n=20 --out out/st3d/n20        # ~4x the cells, 4x the steps
    .venv/bin/distlbm run schaefer_turek_3d1z --set n=10 --set collision=bgk --out out/st3d/n10_bgk
    .venv/bin/python scripts/st3d_study.py out/st3d/* --png docs/validation/schaefer_turek_3d1z_study.png

Each argument is a run's output folder (its summary.json; a run stopped early, e.g. by a signal, is read from
its samples.jsonl instead and marked so). The table gives per run: lattice, collision (and Lambda for TRT),
tau, Mach number, simulated time, cD, cL and dP with their errors against the FEATFLOW values (cD 6.18533,
cL 0.009401; dP against the 1996 bounds only), the walls (halfway where H/dx = 4.1 D is whole, else the far
walls interpolated at q) and the wall time. Runs of one collision and tau at two or more resolutions get the observed
order of each error, log(e1/e2)/log(n2/n1) between neighbours, and the least-squares slope of log|error|
against log n over all of them; at three or more resolutions, each of cD, cL and dP is also fitted as
f(n) = f_inf + C n^-p (no reference needed: dP has none here), which gives the extrapolated value f_inf and
the observed order p. The plot shows each quantity against 1/D^2 with the bounds, FEATFLOW's value and the
fits (open markers: the far walls interpolated, where H/dx is not whole).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from distlbm.cases.obstacles.benchmarks import ST_3D1Z_PAPER  # noqa: E402
from distlbm.cases.references import ST_3D1Z_HIGH_ACCURACY  # noqa: E402

QUANTITIES = ("cD", "cL", "dP")


def read_run(folder: Path) -> dict:
    """One run's settings and final values: summary.json when the run finished, else its last sample."""
    summ = folder / "summary.json"
    samples = folder / "samples.jsonl"
    rows = [json.loads(x) for x in samples.read_text().splitlines() if x.strip()] if samples.exists() else []
    if summ.exists():
        s = json.loads(summ.read_text())
        case = s["parameters"]["case"]
        cfg = s["parameters"]["config"]
        lat = s["parameters"]["lattice_units"]
        final = s["observables"]["final"]
        rec = {"folder": str(folder), "n": case["n"], "shape": s["shape"], "collision": cfg["collision"],
               "lambda": cfg.get("trt_lambda") if cfg["collision"] == "trt" else None, "tau": lat["tau"],
               "mach": lat["mach"], "steps": s["steps"], "wall_s": s["wall_time_s"], "mlups": s["mlups"],
               "t": rows[-1]["time"] if rows else math.nan, "complete": True,
               "steady": (s.get("steady") or {}).get("reached"), "bouzidi": case.get("bouzidi"),
               "equilibrium": cfg.get("equilibrium")}
    else:  # still running or stopped: the settings of its newest checkpoint, the values of its last sample
        meta = latest_meta(folder)
        cfg = meta.get("config", {})
        n, u = cfg.get("n"), cfg.get("u_lattice") or 0.0
        # tau = 1/2 + 3 nu dt / dx^2 with dx = D / n, dt = dx u_lattice / U (D 0.1 m, U 0.2 m/s, nu 1e-3 m^2/s)
        tau = 0.5 + 3e-3 * u / (0.2 * 0.1 / n) if u > 0 and n else cfg.get("tau")
        rec = {"folder": str(folder), "n": n, "shape": meta.get("shape"),
               "collision": cfg.get("collision"), "lambda": cfg.get("trt_lambda") if cfg.get("collision") == "trt"
               else None, "tau": tau, "mach": None, "steps": rows[-1]["step"] if rows else 0,
               "wall_s": None, "mlups": None, "t": rows[-1]["time"] if rows else math.nan, "complete": False,
               "steady": None, "bouzidi": cfg.get("bouzidi"), "equilibrium": cfg.get("equilibrium")}
        final = rows[-1] if rows else {}
    rec["wall_q"] = wall_q(rec["n"]) if rec["n"] else None
    for q in QUANTITIES:
        rec[q] = final.get(q)
    if rows:  # how much the last second of samples still moves (max - min over the last 1 s, relative)
        tail = [r for r in rows if r["time"] >= rows[-1]["time"] - 1.0]
        rec["drift"] = {q: (max(r[q] for r in tail) - min(r[q] for r in tail)) / abs(rec[q])
                        for q in QUANTITIES if rec.get(q)}
    return rec


def latest_meta(folder: Path) -> dict:
    """The metadata of the run's newest checkpoint ({} without one)."""
    from distlbm.io import checkpoint

    paths = checkpoint.list_checkpoints(folder / "checkpoints")
    if not paths:
        return {}
    meta = checkpoint.read_meta(paths[-1])
    if isinstance(meta.get("config"), str):  # stored as the text of a Python dict of plain values
        import ast

        meta["config"] = ast.literal_eval(meta["config"])
    return meta


def wall_q(n: int) -> float:
    """Where the far walls (y = H, z = W) cross the last fluid row's links, as a fraction q of a link: 1/2
    (halfway) where H/dx = 4.1 n is whole (`distlbm.cases.obstacles.layout.Layout`)."""
    from distlbm.cases.obstacles.benchmarks import SchaeferTurek3D1Z
    from distlbm.cases.obstacles.layout import channel_layout

    case = SchaeferTurek3D1Z()
    params = {q.name: q.default for q in case.params}
    params["n"] = n
    return channel_layout(case.full(params), 3).far_q[0]


def richardson(ns, fs):
    """(f_inf, C, p) of f(n) = f_inf + C n^-p fitted to three or more (n, f) by least squares (p scanned over
    0.25..6, then f_inf and C linear); None where the values do not approach a limit monotonically."""
    ns, fs = np.asarray(ns, float), np.asarray(fs, float)
    if len(ns) < 3 or len(set(ns)) < 3:
        return None
    best = None
    for p in np.linspace(0.25, 6.0, 2301):
        a = np.stack([np.ones_like(ns), ns ** -p], axis=1)
        coef, *_ = np.linalg.lstsq(a, fs, rcond=None)
        res = float(np.sum((a @ coef - fs) ** 2))
        if best is None or res < best[0]:
            best = (res, float(coef[0]), float(coef[1]), float(p))
    res, f_inf, c, p = best
    if p <= 0.25 + 1e-9 or p >= 6.0 - 1e-9:  # at the edge of the scan: no monotone approach
        return None
    return f_inf, c, p


def error(rec: dict, q: str):
    ref = ST_3D1Z_HIGH_ACCURACY.get(q)
    if ref is None or rec.get(q) is None:
        return None
    return (rec[q] - ref) / ref


def inside(rec: dict, q: str) -> bool:
    lo, hi = ST_3D1Z_PAPER[q]
    return rec.get(q) is not None and lo <= rec[q] <= hi


SPLIT_PARITY = False  # --split-parity: even and odd D are two families


def family(rec: dict) -> tuple:
    """The settings other than the resolution: runs of one family at several n give observed orders. With
    SPLIT_PARITY, even and odd n are separate families: the cylinder, centred on a cell centre in x and midway
    between two in y, has cell centres on its surface at its front and back for even D and at its top and
    bottom for odd D, and the two sets approach the limit along two branches (docs/validation.md)."""
    fam = (rec["collision"], rec["lambda"], round(rec["tau"], 6) if rec["tau"] else None, rec["bouzidi"],
           rec["equilibrium"])
    if SPLIT_PARITY and rec.get("n"):
        fam += ("odd D" if rec["n"] % 2 else "even D",)
    return fam


def fam_name(fam: tuple) -> str:
    """A family's legend: collision (Lambda), tau, halfway cylinder."""
    return (str(fam[0]) + (f" Λ={fam[1]:.3g}" if fam[1] is not None else "") +
            (f", τ={fam[2]:g}" if fam[2] is not None else "") + (", halfway cylinder" if fam[3] is False else "") +
            "".join(f", {x}" for x in fam[5:]))


def orders(recs: list) -> dict:
    """(family) -> [(n1, n2, {q: observed order})] between neighbouring resolutions of one family."""
    out = {}
    fams = {}
    for r in recs:
        fams.setdefault(family(r), []).append(r)
    for fam, rs in fams.items():
        rs = sorted(rs, key=lambda r: r["n"])
        pairs = []
        for a, b in zip(rs, rs[1:]):
            if a["n"] == b["n"]:
                continue
            od = {}
            for q in ("cD", "cL"):
                ea, eb = error(a, q), error(b, q)
                if ea and eb and ea * eb > 0:
                    od[q] = math.log(abs(ea) / abs(eb)) / math.log(b["n"] / a["n"])
            pairs.append((a["n"], b["n"], od))
        if pairs:
            out[fam] = pairs
    return out


def fits(recs: list) -> dict:
    """(family) -> {"slope": {q: least-squares slope of log|error| vs log n}, "fit": {q: (f_inf, C, p)}} for
    the families with runs at two (slope) or three (fit) resolutions or more."""
    out = {}
    fams = {}
    for r in recs:
        if r["complete"]:
            fams.setdefault(family(r), []).append(r)
    for fam, rs in fams.items():
        rs = sorted(rs, key=lambda r: r["n"])
        ns = [r["n"] for r in rs]
        if len(set(ns)) < 2:
            continue
        slope, fit = {}, {}
        for q in ("cD", "cL"):
            es = [error(r, q) for r in rs]
            if all(e is not None and e != 0 for e in es):
                slope[q] = float(-np.polyfit(np.log(ns), np.log(np.abs(es)), 1)[0])
        for q in QUANTITIES:
            fq = [r.get(q) for r in rs]
            if all(v is not None for v in fq):
                got = richardson(ns, fq)
                if got is not None:
                    fit[q] = got
        out[fam] = {"ns": ns, "slope": slope, "fit": fit}
    return out


def table(recs: list) -> str:
    head = ("| run | lattice | collision | walls | τ | Ma | t (s) | cD (error) | cL (error) | dP | all three inside | "
            "wall time |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    lines = [head]
    for r in sorted(recs, key=lambda r: (r["n"] or 0, str(r["collision"]), r["lambda"] or 0, r["folder"])):
        coll = str(r["collision"]) + (f" (Λ = {r['lambda']:.4g})" if r["lambda"] is not None else "")
        coll += "" if r["bouzidi"] is not False else ", halfway cylinder"
        shape = "×".join(str(x) for x in r["shape"]) if r["shape"] else "?"

        def cell(q):
            v = r.get(q)
            if v is None:
                return "—"
            e = error(r, q)
            mark = "" if inside(r, q) else " ✗"
            return f"{v:.5g}{mark}" + (f" ({e:+.2%})" if e is not None else "")

        ok = all(inside(r, q) for q in QUANTITIES)
        wall = f"{r['wall_s'] / 60:.1f} min" if r.get("wall_s") else "—"
        t = f"{r['t']:.2f}" + ("" if r["complete"] else " (not finished)")
        tau = f"{r['tau']:.4g}" if r["tau"] else "—"
        mach = f"{r['mach']:.3f}" if r["mach"] is not None else "—"
        walls = "—" if r.get("wall_q") is None else ("halfway" if r["wall_q"] == 0.5 else
                                                     f"far q = {r['wall_q']:.3g}")
        name = r.get("name") or Path(r["folder"]).name
        lines.append(f"| {name} | {shape} (D = {r['n']}) | {coll} | {walls} | {tau} | {mach} | {t} | "
                     f"{cell('cD')} | {cell('cL')} | {cell('dP')} | {'yes' if ok else 'no'} | {wall} |")
    return "\n".join(lines)


def plot(recs: list, png: Path) -> None:
    """cD, cL and dP against 1/D^2 (second-order convergence is a straight line into the axis at D = inf):
    the 1996 bounds as a band, FEATFLOW's value as a line, each family's f_inf + C D^-p fit as a curve;
    filled markers where H/dx is whole (halfway walls), open ones where the far walls are interpolated."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fams = {}
    for r in recs:
        fams.setdefault(family(r), []).append(r)
    fitted = fits(recs)
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    for ax, q in zip(axes, QUANTITIES):
        lo, hi = ST_3D1Z_PAPER[q]
        ax.axhspan(lo, hi, color="0.92", label="1996 bounds")
        if q in ST_3D1Z_HIGH_ACCURACY:
            ax.axhline(ST_3D1Z_HIGH_ACCURACY[q], color="k", lw=0.8, label=f"FEATFLOW {ST_3D1Z_HIGH_ACCURACY[q]:g}")
        xmax = 0.0
        for k, (fam, rs) in enumerate(sorted(fams.items(), key=lambda kv: str(kv[0]))):
            rs = sorted((r for r in rs if r.get(q) is not None and r.get("n")), key=lambda r: r["n"])
            if not rs:
                continue
            color = f"C{k}"
            name = fam_name(fam)
            xs = [r["n"] ** -2.0 for r in rs]
            xmax = max(xmax, max(xs))
            ax.plot(xs, [r[q] for r in rs], "-", color=color, lw=0.6)
            for r, x in zip(rs, xs):
                whole = r.get("wall_q") in (None, 0.5)
                ax.plot([x], [r[q]], "o", color=color, mfc=color if whole else "white")
                ax.annotate(f"{r['n']}", (x, r[q]), fontsize=7, textcoords="offset points", xytext=(4, 3))
            fit = fitted.get(fam, {}).get("fit", {}).get(q)
            if fit is not None:
                f_inf, c, pw = fit
                ns = np.linspace(min(r["n"] for r in rs), 200.0, 200)
                ax.plot(ns ** -2.0, f_inf + c * ns ** -pw, "--", color=color, lw=0.8,
                        label=f"{name}: fit {f_inf:.5g} + C D^-{pw:.2f}")
            else:
                ax.plot([], [], "-", color=color, label=name)
        ax.plot([], [], "o", color="0.4", mfc="white", label="far walls interpolated (H/dx not whole)")
        ax.set_xlim(0.0, 1.1 * xmax if xmax else 0.011)
        ax.set_xlabel("1 / D²  (D: cells per diameter)")
        ax.set_ylabel(q)
        ax.set_title(f"3D-1Z {q} against 1/D² (τ fixed)", fontsize=10)
        ax.grid(True, lw=0.3)
        ax.legend(fontsize=6)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", type=Path, help="output folders of schaefer_turek_3d1z runs")
    ap.add_argument("--png", type=Path, help="write the convergence plot here")
    ap.add_argument("--json", type=Path, help="write the table's records here")
    ap.add_argument("--recorded", type=Path, action="append", default=[],
                    help="a JSON list of records (as --json writes them) of runs whose folders are not here; "
                         "each needs a 'source' saying where its numbers were measured")
    ap.add_argument("--split-parity", action="store_true", help="fit even and odd D as two families")
    a = ap.parse_args(argv)
    global SPLIT_PARITY
    SPLIT_PARITY = a.split_parity
    recs = []
    for path in a.recorded:
        try:
            rows = json.loads(path.read_text())
        except (OSError, ValueError) as e:
            print(f"--recorded {path}: {e}; expected a JSON list of records", file=sys.stderr)
            return 2
        if not isinstance(rows, list) or not all(isinstance(r, dict) and r.get("source") and r.get("n") for r in rows):
            print(f"--recorded {path}: expected a JSON list of records, each with 'n' and 'source'", file=sys.stderr)
            return 2
        for r in rows:
            rec = {k: None for k in ("shape", "collision", "lambda", "tau", "mach", "steps", "wall_s", "mlups",
                                     "steady", "bouzidi", "equilibrium")}
            rec.update({"folder": str(path), "name": f"d{r['n']} (recorded)", "t": math.nan, "complete": True,
                        "wall_q": wall_q(r["n"])})
            rec.update(r)
            recs.append(rec)
    for f in a.runs:
        if not (f / "summary.json").exists() and not (f / "samples.jsonl").exists():
            print(f"{f}: no summary.json or samples.jsonl: not a run's output folder", file=sys.stderr)
            return 2
        recs.append(read_run(f))
    print(table(recs))
    for fam, pairs in orders(recs).items():
        for n1, n2, od in pairs:
            print(f"observed order {fam_name(fam)}: D {n1} -> {n2}: " +
                  ", ".join(f"{q} {v:.2f}" for q, v in od.items()))
    for fam, got in fits(recs).items():
        ns = ", ".join(str(n) for n in got["ns"])
        if got["slope"]:
            print(f"{fam_name(fam)}: least-squares slope of log|error| over D = {ns}: " +
                  ", ".join(f"{q} {v:.2f}" for q, v in got["slope"].items()))
        for q, (f_inf, c, p) in got["fit"].items():
            print(f"{fam_name(fam)}: fit {q}(D) = {f_inf:.6g} + {c:.4g} D^-{p:.2f} over D = {ns}")
    if a.png:
        plot(recs, a.png)
        print(f"plot: {a.png}")
    if a.json:
        a.json.write_text(json.dumps(recs, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
