"""The run loop: advance with one compiled `advance(state, n)` to the next step at which something
is due, then do what is due (progress line, diagnostics), and write the run's summary."""

from __future__ import annotations

import json
import math
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
from distlbm import signals
from distlbm.io import checkpoint as ckpt
from distlbm.io import files
from distlbm.io.files import WriteError
from distlbm.io.output import FieldOutput
from distlbm.schedules import IterationInterval, TimeInterval, WallTimeInterval, next_due
from distlbm.physics.moments import deviation_moments
from distlbm.cases.base import ConfigError, Geometry
from distlbm.stepper import Cells, Model, State, macroscopic, make_advance, make_cells, make_forces, make_step


def build_model(cfg: RunConfig) -> Model:
    s = cfg.setup
    c = cfg.common
    col = Collision(c["collision"], s.tau, c["trt_lambda"], c["smagorinsky"])
    return Model(s.lattice, col, s.force, s.features or bc.Features(), c["dtype"], c["compute_dtype"],
                 c["equilibrium"] == "incompressible")


def init_populations(rho, u, model: Model, grad=None) -> np.ndarray:
    """Stored post-collision populations g = f* - w: [Q, ...] (NumPy, float64) for a block with density
    rho: [...], velocity u: [D, ...] and, if given, the velocity gradient grad: [D, D, ...]
    (grad[a, b] = d u_b / d x_a), which adds the Chapman-Enskog part
    f* - feq = -(tau - 1) w_i rho / cs2 (c_ia c_ib - cs2 delta_ab) d_a u_b.

    Computed on the host with element-wise float64 NumPy, so the result of a cell does not depend on
    the block it is computed in (the start of every decomposition is bitwise the same).
    """
    lat = model.lattice
    rho = np.asarray(rho, np.float64)
    u = np.asarray(u, np.float64)
    # the velocity terms carry rho (standard equilibrium) or rho0 = 1 (incompressible)
    rho_u = np.ones_like(rho) if model.incompressible else rho
    if model.force is not None:  # f* carries the momentum rho u + F/2
        u = np.stack([u[a] + 0.5 * model.force[a] / rho_u for a in range(lat.d)])
    drho = rho - 1.0
    usq = sum(u[a] * u[a] for a in range(lat.d))
    out = np.empty((lat.q,) + rho.shape, np.float64)
    tau = model.collision.tau
    for i in range(lat.q):
        c = lat.c[i]
        cu = sum(float(c[a]) * u[a] for a in range(lat.d))
        w = float(lat.w[i])
        g = w * drho + (w * rho_u) * (cu / lat.cs2 + cu * cu / (2 * lat.cs2 ** 2) - usq / (2 * lat.cs2))
        if grad is not None:
            grad = np.asarray(grad, np.float64)
            qd = sum((float(c[a] * c[b]) - (lat.cs2 if a == b else 0.0)) * grad[a, b]
                     for a in range(lat.d) for b in range(lat.d))
            g = g - (w * (tau - 1.0) / lat.cs2) * rho_u * qd
        out[i] = g
    return out


def _fmt_time(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "?"
    seconds = int(round(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else (f"{m}m{s:02d}s" if m else f"{s}s")


EXIT_OK = 0
EXIT_CONFIG = 2  # a configuration, input or restart error: nothing ran
EXIT_INSTABILITY = 4  # the run blew up; the last good checkpoint is kept
EXIT_WRITE_FAILED = 74  # a checkpoint or output could not be written (disk full ...); older files intact (EX_IOERR)
EXIT_RESUBMIT = 75  # stopped on a signal or the wall-time limit after writing a checkpoint (EX_TEMPFAIL)

STOP_SIGNALS = signals.STOP_SIGNALS
RHO_RANGE = (0.2, 5.0)  # a density outside this range (lattice units, rho0 = 1) means the run blew up


class InstabilityError(FloatingPointError):
    """The populations left the sane range; the message names the step and the likely cause."""


class Simulation:
    """One run of a configured case on a domain (one device by default).

    restart: None, 'latest' or a checkpoint path; the run then continues from that checkpoint.
    """

    def __init__(self, cfg: RunConfig, domain=None, out_dir: Optional[str] = None, log: Callable = print,
                 restart: Optional[str] = None):
        self._t_created = time.perf_counter()  # the wall-time limit counts from here
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
        self.kind = None
        if self.model.features.any:
            geo_cache = {}

            def geo(index, part):
                key = tuple((sl.start, sl.stop) for sl in index)
                if key not in geo_cache:
                    geo_cache.clear()
                    geo_cache[key] = Geometry(*s.geometry(index))
                    bad = bc.off_face(geo_cache[key].kind, index, s.shape)
                    if bad:
                        raise ConfigError(f"case {cfg.case.name}: {bad}")
                g = geo_cache[key]
                if part == 0:
                    return g.kind
                if part == 1:
                    return g.velocity if g.velocity is not None else np.zeros((d,) + g.kind.shape)
                if part == 2:
                    return g.rho if g.rho is not None else np.ones(g.kind.shape)
                if part == 3:
                    return g.qlink if g.qlink is not None else np.zeros((lat.q,) + g.kind.shape, np.uint8)
                return g.body if g.body is not None else np.zeros(g.kind.shape, np.uint8)

            feat = self.model.features
            kind = dom.make_field(lambda ix: geo(ix, 0), (), np.uint8)
            vel = dom.make_field(lambda ix: geo(ix, 1), (d,), self.model.compute_dtype)
            rhob = dom.make_field(lambda ix: geo(ix, 2), (), self.model.compute_dtype)
            extra = []
            if feat.bouzidi:
                extra.append(dom.make_field(lambda ix: geo(ix, 3), (lat.q,), np.uint8))
            if feat.bodies:
                extra.append(dom.make_field(lambda ix: geo(ix, 4), (), np.uint8))
            cells_fn = make_cells(self.model, dom.exchange)

            def build_cells(kind, vel, rho, *rest):
                it = iter(rest)
                qlink = next(it) if feat.bouzidi else None
                body = next(it) if feat.bodies else None
                return cells_fn(kind, vel, rho, qlink, body)

            self.cells = jax.jit(dom.map(build_cells))(kind, vel, rhob, *extra)
            self.kind = kind
        else:
            self.cells = Cells()

        self._advance = make_advance(dom.map(make_step(self.model, dom.exchange)))
        self._diag = jax.jit(self._diagnostics)
        self._forces = None
        if self.model.features.bodies:
            self._forces = jax.jit(dom.map(make_forces(self.model, dom.exchange)))
        self._macro = jax.jit(lambda f: macroscopic(f, self.model))
        self.samples: list[dict] = []
        self._samples_log = None
        self.mass0 = None
        self.wall_time = 0.0
        self.steps_run = 0
        self.compile_s = 0.0
        self.status = "new"
        self.restored_from = None
        self._sched_state = {}
        self._last_ckpt_step = None
        self._last_ckpt_path = None
        # the run's identity: checkpoints belong to one run; a restart continues the checkpoint's run
        self.run_id = ckpt.new_run_id()
        if dom.process_count > 1:
            self.run_id = dom.allgather_obj(self.run_id)[0]
        if restart:
            self._restore(restart)
        else:
            self.state = State(self._initial_populations(), dom.replicate(np.zeros((), np.int32)))

    def _initial_populations(self):
        s, model = self.setup, self.model

        def block(index):
            rho, u, grad = s.initial(index)
            return init_populations(rho, u, model, grad)

        return self.domain.make_field(block, (model.lattice.q,), np.dtype(model.dtype))

    # ---- checkpoints -------------------------------------------------------------------------
    @property
    def checkpoint_dir(self) -> Path:
        return (self.out_dir or Path("out") / self.cfg.case.name) / "checkpoints"

    def _meta(self) -> dict:
        return {"step": self.step, "time": self.step * self.setup.units.get("dt", 1.0),
                "config": self.cfg.as_dict(), "lattice": self.model.lattice.name,
                "shape": list(self.setup.shape), "dtype": self.model.dtype, "mass0": self.mass0,
                "schedules": {k: v.state() for k, v in getattr(self, "_schedules", {}).items()},
                "outputs": getattr(self, "_output", None) and self._output.index}

    def verify_state(self) -> dict:
        """Diagnostics of the current state; raises InstabilityError (naming the last good checkpoint)
        if any population is non-finite or a density is outside the sane range."""
        diag = self.diagnostics()
        if not diag["sane"]:
            self._unstable(self.step, diag)
        return diag

    def save_checkpoint(self) -> Path:
        """Write a checkpoint of the current state, verified sane first (a blown-up state is never
        written), and prune this run's older ones. Raises InstabilityError or WriteError."""
        self.verify_state()
        keep = self.cfg.common.get("checkpoint_keep", 3)
        try:
            path = ckpt.save(self.checkpoint_dir, self.state.f, self.domain, self._meta(), keep=keep,
                             run_id=self.run_id)
        except WriteError as e:
            self._write_failed(e, f"checkpoint at step {self.step} not written")
            raise
        self.log(f"checkpoint: {path} (step {self.step})")
        self._last_ckpt_step = self.step
        self._last_ckpt_path = path
        return path

    def _write_failed(self, e: WriteError, what: str):
        """Note a failed write on the error (the CLI prints it as one line) and in log.jsonl."""
        kept = (f"the last good checkpoint is {self._last_ckpt_path} (step {self._last_ckpt_step})"
                if self._last_ckpt_path else "no checkpoint of this run was written")
        e.context = f"{what}: {e}; {kept}"
        self.status = "write_failed"
        if getattr(self, "_jsonl", None):
            self._jsonl.write(json.dumps({"event": "write_failed", "step": self.step, "message": e.context}) + "\n")
            self._jsonl.flush()

    def check_folder(self):
        """Refuse to start a run in a checkpoint folder that holds another run's checkpoints: pruning
        and `--restart latest` would mix the two runs."""
        other = ckpt.foreign(self.checkpoint_dir, self.run_id) if self.domain.process_index == 0 else []
        if not self.domain.any_process(bool(other)):
            return
        if not other:
            raise ckpt.CheckpointError(f"{self.checkpoint_dir} holds another run's checkpoints (seen by process 0)")
        steps = sorted(int(ckpt.NAME.match(p.name).group(1)) for p, _ in other)
        raise ckpt.CheckpointError(
            f"{self.checkpoint_dir} already holds {len(other)} checkpoint(s) of another run (steps {steps[0]}.."
            f"{steps[-1]}, run {other[-1][1]!r}); continue that run with --restart latest, or give this run "
            f"its own folder with --out DIR (or move those files away)")

    def _restore(self, spec: str):
        from distlbm.config import check_restart_compatible

        candidates = ckpt.resolve_restart(spec, self.checkpoint_dir)
        if spec == "latest":
            for odd in ckpt.odd_entries(self.checkpoint_dir):
                self.log(f"warning: {odd} is not a regular file (a folder or a FIFO): ignored")
        errors = []
        lat = self.model.lattice
        for path in candidates:
            try:
                meta = ckpt.read_meta(path)
                check_restart_compatible(self.cfg, meta, path)
                ckpt.check_against(meta, path, lat.q, self.setup.shape, self.model.dtype)
                if meta.get("_format") == ckpt.LEGACY_FORMAT:
                    self.log(f"warning: {path} was written by an older distlbm (no metadata digest): its "
                             f"metadata is not verified")
                f, meta = ckpt.load(path, self.domain, self.model.dtype)
            except ckpt.CheckpointError as e:
                errors.append(str(e))
                self.log(f"warning: {e}; trying an older checkpoint" if len(candidates) > 1 else f"error: {e}")
                if len(candidates) == 1:
                    raise
                continue
            self.state = State(f, self.domain.replicate(np.asarray(meta["step"], np.int32)))
            self.mass0 = meta.get("mass0")
            self._sched_state = meta.get("schedules") or {}
            self._outputs_state = meta.get("outputs") or []
            self.run_id = meta.get("run_id") or ckpt.LEGACY_RUN
            self.restored_from = str(path)
            self._last_ckpt_step = int(meta["step"])
            self._last_ckpt_path = Path(path)
            self.log(f"restarted from {path} at step {meta['step']}")
            return
        raise ckpt.CheckpointError("no usable checkpoint: " + "; ".join(errors))

    # ---- diagnostics -------------------------------------------------------------------------
    def _diagnostics(self, f, cells: Cells):
        # rho - 1 kept precise; cast per population (a whole cast of 16-bit f would be materialised)
        force = None if self.model.force is None else tuple(-x for x in self.model.force)  # u = (j - F/2) / rho
        drho, u = deviation_moments([g.astype(self.model.compute_dtype) for g in f], self.model.lattice, force,
                                    self.model.incompressible)
        rho, u = 1.0 + drho, jnp.stack(u)
        if cells.kind is not None:
            fluid = ~bc.is_wall(cells.kind)
            rho = jnp.where(fluid, rho, 1.0)
            u = jnp.where(fluid[None], u, 0.0)
            rho_sum = jnp.where(fluid, rho, 0.0)
            drho = jnp.where(fluid, drho, 0.0)
            n_fluid = jnp.sum(fluid, dtype=jnp.int32)
        else:
            rho_sum = rho
            n_fluid = jnp.asarray(math.prod(f.shape[1:]), jnp.int32)
        acc = jnp.float64 if jax.config.jax_enable_x64 else jnp.float32
        mass_dev = jnp.sum(drho, dtype=acc)  # total mass = fluid cells + sum of (rho - 1)
        mom = jnp.stack([jnp.sum(rho_sum * u[a], dtype=acc) for a in range(u.shape[0])])
        ke = 0.5 * jnp.sum(rho_sum * jnp.sum(u * u, axis=0), dtype=acc)
        bad = jnp.sum(~jnp.isfinite(rho), dtype=jnp.int32)
        lo, hi = RHO_RANGE
        out_of_range = jnp.sum((rho < lo) | (rho > hi), dtype=jnp.int32)
        umax = jnp.max(jnp.sqrt(jnp.sum(u * u, axis=0)))
        return {"mass_dev": mass_dev, "n_fluid": n_fluid, "momentum": mom, "kinetic_energy": ke, "nonfinite": bad,
                "out_of_range": out_of_range, "u_max": umax}

    def diagnostics(self) -> dict:
        """Total mass, momentum and kinetic energy over the fluid cells (lattice units), all processes."""
        raw = jax.device_get(self._diag(self.state.f, self.cells))
        umax = float(raw.pop("u_max"))
        d = self.domain.allreduce(raw)
        mass = float(np.asarray(d["n_fluid"], np.float64)) + float(np.asarray(d["mass_dev"], np.float64))
        return {"mass": mass, "momentum": [float(x) for x in np.ravel(d["momentum"])],
                "kinetic_energy": float(d["kinetic_energy"]), "finite": int(d["nonfinite"]) == 0,
                "sane": int(d["nonfinite"]) == 0 and int(d["out_of_range"]) == 0, "u_max_local": umax}

    def mass_drift(self) -> float:
        m = self.diagnostics()["mass"]
        return (m - self.mass0) / self.mass0 if self.mass0 else 0.0

    @property
    def step(self) -> int:
        return int(self.state.step)

    # ---- forces and probes -------------------------------------------------------------------
    def forces(self) -> np.ndarray:
        """[bodies, D]: momentum-exchange force of the fluid on each body (lattice units), summed over
        every shard and process, for the step that starts from the current state."""
        if self._forces is None:
            return np.zeros((0, self.model.lattice.d))
        part = np.asarray(jax.device_get(self._forces(self.state.f, self.cells, self.state.step)), np.float64)
        total = part.reshape(part.shape[:2] + (-1,)).sum(axis=-1)
        return np.asarray(self.domain.allreduce({"f": total})["f"], np.float64).reshape(total.shape)

    def probe(self, points) -> dict:
        """rho [N] and u [D, N] (lattice units) at the cells `points` ([N, D] global cell indices)."""
        pts = np.asarray(points, np.int64).reshape(-1, len(self.setup.shape))
        rho, u = self._macro(self.state.f)
        return {"rho": self.domain.sample(rho, pts), "u": self.domain.sample(u, pts)}

    def sample(self) -> dict:
        """One record of the forces and probes the case defines (the case turns it into its quantities)."""
        s = self.setup
        raw = {"step": self.step, "time": self.step * s.units.get("dt", 1.0)}
        if self._forces is not None:
            raw["force"] = self.forces().tolist()
        if s.probes:
            names = list(s.probes)
            pts = np.concatenate([np.asarray(s.probes[n], np.int64).reshape(-1, len(s.shape)) for n in names])
            vals = self.probe(pts)
            k = 0
            raw["probes"] = {}
            for n in names:
                m = np.asarray(s.probes[n]).reshape(-1, len(s.shape)).shape[0]
                raw["probes"][n] = {"rho": vals["rho"][k:k + m].tolist(), "u": vals["u"][:, k:k + m].tolist()}
                k += m
        rec = {"step": raw["step"], "time": raw["time"]}
        rec.update(self.cfg.case.quantities(raw, self) or {})
        self.samples.append(rec)
        if self._samples_log is not None:
            self._samples_log.write(json.dumps(rec, default=_json_default) + "\n")
            self._samples_log.flush()
        return rec

    @property
    def samples_enabled(self) -> bool:
        return bool(self._forces is not None or self.setup.probes)

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

    def _make_schedules(self) -> dict:
        c = self.cfg.common
        dt = self.setup.units.get("dt", 1.0)
        sch = {"progress": IterationInterval(self._progress_every)}
        if c.get("output_every", 0):
            sch["output"] = IterationInterval(c["output_every"])
        if c.get("output_interval", 0.0):
            sch["output_time"] = TimeInterval(c["output_interval"], dt)
        if c.get("checkpoint_every", 0):
            sch["checkpoint"] = IterationInterval(c["checkpoint_every"])
        if c.get("checkpoint_wall", 0.0):
            sch["checkpoint_wall"] = WallTimeInterval(c["checkpoint_wall"])
        if c.get("check_every", 0):
            sch["check"] = IterationInterval(c["check_every"])
        if self.samples_enabled:
            sch["sample"] = IterationInterval(c.get("sample_every", 0) or self.setup.sample_every
                                              or self._progress_every)
        for k, v in sch.items():
            v.load(self._sched_state.get(k, {}))
        return sch

    def run(self, steps: Optional[int] = None) -> dict:
        """Run to step `steps` (absolute; default: the configured or the case's number of steps)."""
        cfg = self.cfg
        end = steps if steps is not None else (cfg.common["steps"] or self.setup.steps)
        start_step = self.step
        stop = signals.process_flag() or signals.StopFlag()
        self.check_folder()
        self._progress_every = cfg.common["progress_every"] or max(1, (end or 1) // 20)
        self._schedules = sch = self._make_schedules()
        self._output = None
        if self.out_dir is not None and ("output" in sch or "output_time" in sch):
            self._output = FieldOutput(self, getattr(self, "_outputs_state", []))
        cells_count = math.prod(self.setup.shape)
        d0 = self.diagnostics()
        if self.mass0 is None:
            self.mass0 = d0["mass"]
        self.history.append({"step": start_step, **d0, "wall": 0.0})
        self._jsonl = self._open_log()
        self._samples_log = self._open_log("samples.jsonl") if self.samples_enabled else None
        if self.samples_enabled and not self.samples:
            self._load_samples(start_step)
        t_c = time.perf_counter()
        self.advance(0)  # compile outside the timed loop (a 0-step call compiles the same executable)
        jax.block_until_ready(self.state.f)
        self.compile_s = time.perf_counter() - t_c
        self.log(f"compiled in {self.compile_s:.1f} s; running steps {start_step}..{end} of {cells_count:,} cells")
        if self._output is not None and start_step == 0 and not self._output.index:
            self._output.write()
        wall_limit = float(cfg.common.get("wall_time", 0.0) or 0.0)
        t0 = time.perf_counter()
        step = start_step
        chunk_wall = 0.0
        max_chunk = 8  # a short first chunk measures the speed; later chunks last up to ~10 s
        margin = min(60.0, 0.05 * wall_limit) if wall_limit else 0.0  # time to write the checkpoint
        self.status = "running"
        try:
            with stop.installed():
                if self.domain.any_process(stop.requested):  # a stop during start-up or the compile
                    self.log(f"stopped at step {step} during start-up on {stop.name or 'a signal on another process'}"
                             f", before any step ran (nothing new to checkpoint); resubmit to continue"
                             + (" with --restart latest" if self.restored_from else ""))
                    self.status = "stopped"
                    end = step
                while step < end:
                    nxt = next_due(sch.values(), step, end)
                    nxt = min(nxt, step + max_chunk)
                    tc = time.perf_counter()
                    self.advance(nxt - step)
                    jax.block_until_ready(self.state.f)
                    chunk_wall = time.perf_counter() - tc
                    # keep chunks short enough (~10 s) to answer signals and wall-time limits promptly
                    rate = (nxt - step) / max(chunk_wall, 1e-9)
                    max_chunk = max(1, int(10.0 * rate))
                    if self.domain.process_count > 1:  # every process must advance the same steps
                        max_chunk = min(self.domain.allgather_obj(max_chunk))
                    step = nxt
                    wall = time.perf_counter() - t0
                    elapsed = time.perf_counter() - self._t_created
                    out_of_time = wall_limit > 0 and elapsed + 1.5 * chunk_wall + margin > wall_limit
                    halt = self.domain.any_process(stop.requested or out_of_time)
                    self._fire(step, end, start_step, wall, t0, force_progress=halt or step == end)
                    if halt:
                        why = stop.name or ("the wall-time limit" if out_of_time else "a signal on another process")
                        if self._last_ckpt_step != step:
                            self.save_checkpoint()
                        self.log(f"stopped at step {step} on {why}; resubmit with --restart latest to continue")
                        self.status = "stopped"
                        break
                else:
                    if self.status != "stopped":
                        self.status = "complete"
        except InstabilityError:
            self.status = "unstable"
            raise
        except WriteError:
            self.status = "write_failed"
            raise
        finally:
            self.wall_time = time.perf_counter() - t0
            self.steps_run = step - start_step
            if self._jsonl:
                self._jsonl.close()
                self._jsonl = None
            if self._samples_log:
                self._samples_log.close()
                self._samples_log = None
            if self.domain.process_index == 0 and sys.stdout.isatty():
                sys.stdout.write("\n")
        return self.summary(self.compile_s)

    def _open_log(self, name="log.jsonl"):
        if self.out_dir is None or self.domain.process_index != 0:
            return None
        self.out_dir.mkdir(parents=True, exist_ok=True)
        return open(self.out_dir / name, "a")

    def _load_samples(self, upto: int):
        """After a restart: the samples recorded up to the restart step (for signals such as the lift)."""
        path = self.out_dir / "samples.jsonl" if self.out_dir else None
        if not self.restored_from or path is None or not path.exists():
            return
        keep = []
        for line in path.read_text().splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if rec.get("step", upto + 1) <= upto and (not keep or rec["step"] > keep[-1]["step"]):
                keep.append(rec)
        self.samples = keep

    def _fire(self, step, end, start_step, wall, t0, force_progress=False):
        sch = self._schedules
        due = {k for k, v in sch.items() if v.due(step, wall)}
        if force_progress:
            due.add("progress")
        if "sample" in due or (force_progress and self.samples_enabled and
                                (not self.samples or self.samples[-1]["step"] != step)):
            self.sample()
        if due & {"progress", "check"}:
            diag = self.diagnostics()
            self.history.append({"step": step, **diag, "wall": wall})
            if not diag["sane"]:
                self._unstable(step, diag)
            if "progress" in due:
                self._progress(step, end, start_step, wall, diag)
        if due & {"output", "output_time"} and self._output is not None:
            try:
                self._output.write()
            except WriteError as e:
                self._write_failed(e, f"field output at step {step} not written")
                raise
        if due & {"checkpoint", "checkpoint_wall"}:
            self.save_checkpoint()
        for k in due:
            if k in sch:
                sch[k].fired(step, wall)

    def _unstable(self, step, diag):
        s = self.setup
        ma = diag.get("u_max_local", float("nan")) / math.sqrt(1.0 / 3.0)
        kept = (f"; the last good checkpoint is step {self._last_ckpt_step} ({self._last_ckpt_path}, verified finite)"
                if self._last_ckpt_path is not None else "; no checkpoint of this run was written")
        msg = (f"instability at step {step}: density non-finite or outside {list(RHO_RANGE)} "
               f"(tau = {s.tau:.4g}, local Mach up to {ma:.3g}); likely causes: Mach number too high "
               f"(lower the velocity) or tau too close to 1/2 (raise the resolution, lower Re, or set smagorinsky)"
               f"{kept}")
        self.log(f"error: {msg}")
        if getattr(self, "_jsonl", None):
            self._jsonl.write(json.dumps({"event": "instability", "step": step, "message": msg}) + "\n")
            self._jsonl.flush()
        raise InstabilityError(msg)

    def _progress(self, step, end, start_step, wall, diag):
        cells_count = math.prod(self.setup.shape)
        done = step - start_step
        mlups = cells_count * done / max(wall, 1e-12) / 1e6
        eta = wall / max(done, 1) * (end - step)
        drift = (diag["mass"] - self.mass0) / self.mass0 if self.mass0 else 0.0
        t = step * self.setup.units.get("dt", 1.0)
        rec = {"step": step, "end": end, "time": t, "mlups": mlups, "eta_s": eta, "mass_drift": drift,
               "kinetic_energy": diag["kinetic_energy"], "wall_s": wall}
        line = (f"step {step:>8d}/{end}  t={t:.4g}  MLUPS {mlups:7.1f}  ETA {_fmt_time(eta):>8s}  "
                f"mass drift {drift:+.2e}  E_kin {diag['kinetic_energy']:.4e}")
        if self.samples and self.samples[-1]["step"] == step:
            shown = {k: v for k, v in self.samples[-1].items() if isinstance(v, float) and k != "time"}
            if shown:
                line += "  " + "  ".join(f"{k} {v:.5g}" for k, v in list(shown.items())[:4])
                rec["quantities"] = shown
        if self._jsonl:
            self._jsonl.write(json.dumps(rec) + "\n")
            self._jsonl.flush()
        if self.domain.process_index == 0 and sys.stdout.isatty() and self._log is print:
            frac = step / max(end, 1)
            bar = "#" * int(30 * frac)
            sys.stdout.write(f"\r[{bar:<30s}] {100 * frac:5.1f}% {line}")
            sys.stdout.flush()
        else:
            self.log(line)

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
            "equilibrium": "incompressible" if self.model.incompressible else "standard",
            "devices": self.domain.n_devices,
            "mesh": list(self.domain.mesh_shape),
            "processes": self.domain.process_count,
            "steps": self.steps_run,
            "step": self.step,
            "status": self.status,
            "restarted_from": self.restored_from,
            "wall_time_s": self.wall_time,
            "compile_time_s": compile_s,
            "mlups": cells_count * self.steps_run / max(self.wall_time, 1e-12) / 1e6,
            "relative_mass_drift": (last["mass"] - self.mass0) / self.mass0 if self.mass0 else 0.0,
            "kinetic_energy": last["kinetic_energy"],
            "parameters": {**_parameters(self.setup, units), "case": cfg.params,
                           "config": {k: v for k, v in cfg.common.items()}},
            "warnings": cfg.warnings,
            "observables": cfg.case.observe(self, cfg.params),
        }
        return out

    def write_summary(self, summary: dict) -> Optional[Path]:
        if self.out_dir is None or self.domain.process_index != 0:
            return None
        self.out_dir.mkdir(parents=True, exist_ok=True)
        return files.write_text(self.out_dir / "summary.json",
                                json.dumps(summary, indent=2, default=_json_default) + "\n")


def _parameters(setup, units: dict) -> dict:
    """The run's parameters in lattice units (dx = dt = 1) and in the case's physical units."""
    tau = setup.tau
    nu = (tau - 0.5) / 3.0
    u = setup.u_max
    lattice = {"tau": tau, "viscosity": nu, "velocity": u, "mach": u / math.sqrt(1.0 / 3.0),
               "force": list(setup.force) if setup.force else None}
    phys = {k: units[k] for k in ("length", "velocity", "viscosity", "dx", "dt") if k in units}
    re = units.get("reynolds")
    if re is None and units.get("viscosity"):
        re = units.get("velocity", 1.0) * units.get("length", 1.0) / units["viscosity"]
    lattice["reynolds"] = phys["reynolds"] = re
    extra = {k: v for k, v in units.items() if k not in phys and k not in ("nu_lattice", "tau")}
    return {"lattice_units": lattice, "physical_units": phys, "case_units": extra}


def _json_default(o):
    if isinstance(o, (np.floating, np.integer)):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    return str(o)
