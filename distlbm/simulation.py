"""The run loop: advance with one compiled `advance(state, n)` to the next step at which something
is due, then do what is due (progress line, diagnostics), and write the run's summary."""

from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Callable, Optional

import jax
import jax.numpy as jnp
import numpy as np

from distlbm.config import RunConfig
from distlbm.parallel import make_domain
from distlbm.physics import boundaries as bc
from distlbm.physics.collision import Collision
from distlbm.physics.equilibrium import qconst
from distlbm.schedules import IterationInterval
from distlbm.stepper import Cells, Model, State, macroscopic, make_advance, make_cells, make_step


def build_model(cfg: RunConfig) -> Model:
    s = cfg.setup
    c = cfg.common
    col = Collision(c["collision"], s.tau, c["trt_lambda"], c["smagorinsky"])
    return Model(s.lattice, col, s.force, s.features or bc.Features(), c["dtype"], c["compute_dtype"])


def init_populations(rho, u, model: Model, grad=None):
    """Post-collision populations f*: [Q, ...] for density rho, velocity u: [D, ...] and, if given,
    the velocity gradient grad: [D, D, ...] (grad[a, b] = d u_b / d x_a) for the Chapman-Enskog
    non-equilibrium part f* - feq = -(tau - 1) w_i rho / cs2 (c_ia c_ib - cs2 delta_ab) d_a u_b."""
    from distlbm.physics.equilibrium import equilibrium

    lat = model.lattice
    cdt = jnp.dtype(model.compute_dtype)
    rho = jnp.asarray(rho, cdt)
    u = jnp.asarray(u, cdt)
    if model.force is not None:  # f* carries the momentum rho u + F/2
        u = u + 0.5 * jnp.asarray(model.force, cdt).reshape((-1,) + (1,) * rho.ndim) / rho[None]
    f = equilibrium(rho, tuple(u[a] for a in range(lat.d)), lat)
    if grad is not None:
        grad = jnp.asarray(grad, cdt)
        acc = 0.0
        for a in range(lat.d):
            for b in range(lat.d):
                q = lat.c[:, a] * lat.c[:, b] - (lat.cs2 if a == b else 0.0)
                acc = acc + qconst(q, rho.ndim, cdt) * grad[a, b][None]
        tau = model.collision.tau
        f = f - qconst(lat.w * (tau - 1.0) / lat.cs2, rho.ndim, cdt) * rho[None] * acc
    return f.astype(jnp.dtype(model.dtype))


def _fmt_time(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "?"
    seconds = int(round(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else (f"{m}m{s:02d}s" if m else f"{s}s")


class Simulation:
    """One run of a configured case on a domain (one device by default)."""

    def __init__(self, cfg: RunConfig, domain=None, out_dir: Optional[str] = None, log: Callable = print):
        self.cfg = cfg
        self.setup = cfg.setup
        self.model = build_model(cfg)
        if "float64" in (self.model.dtype, self.model.compute_dtype):
            jax.config.update("jax_enable_x64", True)
        self.domain = domain or make_domain(self.setup.shape, cfg.common.get("mesh", ""), cfg.common.get("comm", "jax"))
        self.out_dir = Path(out_dir) if out_dir else None
        self._log = log
        self.history: list[dict] = []
        lat = self.model.lattice
        d = lat.d
        dom = self.domain
        s = self.setup

        # static per-cell data, built block by block
        if self.model.features.any:
            geo_cache = {}

            def geo(index, part):
                key = tuple((sl.start, sl.stop) for sl in index)
                if key not in geo_cache:
                    geo_cache.clear()
                    geo_cache[key] = s.geometry(index)
                kind, vel, rho = geo_cache[key]
                if part == 0:
                    return kind
                if part == 1:
                    return vel if vel is not None else np.zeros((d,) + kind.shape)
                return rho if rho is not None else np.ones(kind.shape)

            kind = dom.make_field(lambda ix: geo(ix, 0), (), np.uint8)
            vel = dom.make_field(lambda ix: geo(ix, 1), (d,), self.model.compute_dtype)
            rhob = dom.make_field(lambda ix: geo(ix, 2), (), self.model.compute_dtype)
            self.cells = jax.jit(dom.map(make_cells(self.model, dom.exchange)))(kind, vel, rhob)
        else:
            self.cells = Cells()

        # initial populations, built block by block
        has_grad = s.initial((slice(0, 1),) * d)[2] is not None
        cdt = self.model.compute_dtype
        rho0 = dom.make_field(lambda ix: s.initial(ix)[0], (), cdt)
        u0 = dom.make_field(lambda ix: s.initial(ix)[1], (d,), cdt)
        grad0 = dom.make_field(lambda ix: s.initial(ix)[2], (d, d), cdt) if has_grad else None
        init = jax.jit(dom.map(lambda r, u, g: init_populations(r, u, self.model, g)))
        f0 = init(rho0, u0, grad0)
        del rho0, u0, grad0
        self.state = State(f0, dom.replicate(np.zeros((), np.int32)))
        self._advance = make_advance(dom.map(make_step(self.model, dom.exchange)))
        self._diag = jax.jit(self._diagnostics)
        self.mass0 = None
        self.wall_time = 0.0
        self.steps_run = 0

    # ---- diagnostics -------------------------------------------------------------------------
    def _diagnostics(self, f, cells: Cells):
        rho, u = macroscopic(f, self.model)
        if cells.kind is not None:
            fluid = ~bc.is_wall(cells.kind)
            rho = jnp.where(fluid, rho, 0.0)
            u = jnp.where(fluid[None], u, 0.0)
        acc = jnp.float64 if jax.config.jax_enable_x64 else jnp.float32
        mass = jnp.sum(rho, dtype=acc)
        mom = jnp.stack([jnp.sum(rho * u[a], dtype=acc) for a in range(u.shape[0])])
        ke = 0.5 * jnp.sum(rho * jnp.sum(u * u, axis=0), dtype=acc)
        bad = jnp.sum(~jnp.isfinite(rho), dtype=jnp.int32)
        return {"mass": mass, "momentum": mom, "kinetic_energy": ke, "nonfinite": bad}

    def diagnostics(self) -> dict:
        """Total mass, momentum and kinetic energy over the fluid cells (lattice units), all processes."""
        d = self.domain.allreduce(jax.device_get(self._diag(self.state.f, self.cells)))
        return {"mass": float(d["mass"]), "momentum": [float(x) for x in np.ravel(d["momentum"])],
                "kinetic_energy": float(d["kinetic_energy"]), "finite": int(d["nonfinite"]) == 0}

    def mass_drift(self) -> float:
        m = self.diagnostics()["mass"]
        return (m - self.mass0) / self.mass0 if self.mass0 else 0.0

    @property
    def step(self) -> int:
        return int(self.state.step)

    def fields(self, dtype="float32"):
        """rho: [X, Y(, Z)] and u: [D, X, Y(, Z)] as NumPy arrays on this process (small lattices only)."""
        rho, u = jax.jit(lambda f: macroscopic(f, self.model))(self.state.f)
        return self.domain.gather(rho).astype(dtype), self.domain.gather(u).astype(dtype)

    # ---- run loop ----------------------------------------------------------------------------
    def log(self, msg: str):
        if self.domain.process_index == 0:
            self._log(msg)

    def advance(self, n: int):
        self.state = self._advance(self.state, self.cells, jnp.int32(n))

    def run(self, steps: Optional[int] = None) -> dict:
        cfg = self.cfg
        total = steps if steps is not None else (cfg.common["steps"] or self.setup.steps)
        every = cfg.common["progress_every"] or max(1, total // 20)
        progress = IterationInterval(every)
        cells_count = math.prod(self.setup.shape)
        start_step = self.step
        end = start_step + total
        d0 = self.diagnostics()
        self.mass0 = d0["mass"]
        self.history.append({"step": start_step, **d0, "wall": 0.0})
        # compile outside the timed loop (a 0-step call compiles the same executable)
        t_c = time.perf_counter()
        self.advance(0)
        jax.block_until_ready(self.state.f)
        compile_s = time.perf_counter() - t_c
        self.log(f"compiled in {compile_s:.1f} s; running {total} steps of {cells_count:,} cells")
        t0 = time.perf_counter()
        step = start_step
        while step < end:
            nxt = min(progress.next_due(step) or end, end)
            self.advance(nxt - step)
            jax.block_until_ready(self.state.f)
            step = nxt
            diag = self.diagnostics()
            wall = time.perf_counter() - t0
            self.history.append({"step": step, **diag, "wall": wall})
            mlups = cells_count * (step - start_step) / max(wall, 1e-12) / 1e6
            eta = wall / (step - start_step) * (end - step)
            drift = (diag["mass"] - self.mass0) / self.mass0
            self.log(
                f"step {step:>8d}/{end}  t={step * self.setup.units.get('dt', 1.0):.4g}  "
                f"MLUPS {mlups:7.1f}  ETA {_fmt_time(eta):>8s}  mass drift {drift:+.2e}  "
                f"E_kin {diag['kinetic_energy']:.4e}"
            )
            if not diag["finite"]:
                self.log(f"error: non-finite density at step {step}; check Mach number and tau "
                         f"(tau = {self.setup.tau:.4g})")
                raise FloatingPointError(f"non-finite density at step {step}")
        self.wall_time = time.perf_counter() - t0
        self.steps_run = step - start_step
        return self.summary(compile_s)

    def summary(self, compile_s: float = 0.0) -> dict:
        cfg = self.cfg
        cells_count = math.prod(self.setup.shape)
        last = self.history[-1]
        units = dict(self.setup.units)
        units["tau"] = self.setup.tau
        out = {
            "case": cfg.case.name,
            "title": cfg.case.title,
            "validates": cfg.case.validates,
            "reference": cfg.case.reference,
            "lattice": self.model.lattice.name,
            "shape": list(self.setup.shape),
            "cells": cells_count,
            "dtype": self.model.dtype,
            "compute_dtype": self.model.compute_dtype,
            "collision": self.model.collision.kind,
            "devices": self.domain.n_devices,
            "mesh": list(self.domain.mesh_shape),
            "processes": self.domain.process_count,
            "steps": self.steps_run,
            "wall_time_s": self.wall_time,
            "compile_time_s": compile_s,
            "mlups": cells_count * self.steps_run / max(self.wall_time, 1e-12) / 1e6,
            "relative_mass_drift": (last["mass"] - self.mass0) / self.mass0 if self.mass0 else 0.0,
            "kinetic_energy": last["kinetic_energy"],
            "parameters": {"lattice_units": {k: v for k, v in units.items()}, "case": cfg.params,
                           "config": {k: v for k, v in cfg.common.items()}},
            "warnings": cfg.warnings,
            "observables": cfg.case.observe(self, cfg.params),
        }
        return out

    def write_summary(self, summary: dict) -> Optional[Path]:
        if self.out_dir is None or self.domain.process_index != 0:
            return None
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / "summary.json"
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(summary, indent=2, default=_json_default) + "\n")
        os.replace(tmp, path)
        return path


def _json_default(o):
    if isinstance(o, (np.floating, np.integer)):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    return str(o)
