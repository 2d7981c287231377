"""What the run loop does between compiled chunks, each a callback with a schedule: sampling forces and
probes, the instability check, the progress line, field output and checkpoints. A callback receives
the run's read-only view (driver.view.RunView), never the driver; its schedule's counters go into
checkpoints. Stop conditions (signals, the wall-time limit) are asked after every chunk."""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

import jax
import jax.numpy as jnp
import numpy as np

from distlbm.config import TAU_CLOSE, TAU_LARGE, tau_far_above, tau_remedy, velocity_key, velocity_remedy
from distlbm.driver.schedules import Schedule
from distlbm.driver.records import SampleRecords
from distlbm.driver.view import RunView
from distlbm.io import checkpoint as ckpt
from distlbm.io.files import (FILE_MODE, WriteError, check_target, fmt_time, free_bytes, make_folder, reason, size_text,
                              space_needed)
from distlbm.physics.boundaries import is_wall
from distlbm.physics.diagnostics import RHO_RANGE
from distlbm import units


class InstabilityError(FloatingPointError):
    """The populations left the sane range; the message names the step and the likely cause."""


@dataclass
class Callback:
    """func(view) run when `schedule` is due. name: the key of its counters in a checkpoint."""

    name: str
    schedule: Schedule
    func: Callable[[RunView], None]

    def __call__(self, view: RunView):
        return self.func(view)


def json_default(o):
    if isinstance(o, (np.floating, np.integer)):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    return str(o)


class JsonLog:
    """An append-only JSON-lines file in the output folder (process 0; None folder: nothing). WriteError (one
    line, on every process) where it cannot be opened: a folder or a FIFO in its place (a traceback before), a
    symbolic link (appending wrote through it into its target), no permission.

    A record that cannot be written (a full disk, a quota, a file system's hiccup) is said once and the run goes
    on: the records are a log, not the state (a full disk stopped the run with a traceback from a progress
    record, exit 1, with no checkpoint). A record cut short (by such a failure, or a kill midway before) is ended
    with a newline before the next one, so that it never swallows it."""

    def __init__(self, view: RunView, name: str):
        self._fd = None
        self._say = view.log
        self._torn = False  # the file does not end with a newline: the next record begins with one
        self._failing = False  # a record could not be written (said once until one is written again)
        self._unsynced = False  # the file could not be synced (said once)
        error = None
        if view.out_dir is not None and view.domain.process_index == 0:
            path = self._path = Path(view.out_dir) / name
            try:
                make_folder(view.out_dir, getattr(view, "held", None))  # (the run's folder is never made again)
                check_target(path)
                if path.is_symlink():
                    raise WriteError(path, "it is a symbolic link; expected a regular file (appending would write "
                                           "through the link into its target; move it away)")
                self._fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), FILE_MODE)
                size = os.fstat(self._fd).st_size
                self._torn = size > 0 and os.pread(self._fd, 1, size - 1) != b"\n"
            except WriteError as e:
                error = e
            except OSError as e:
                error = WriteError(path, reason(e, None, path.parent))
        try:
            if view.domain.process_count > 1 and view.domain.any_process(error is not None):
                raise error or WriteError(Path(str(view.out_dir)) / name, "it could not be opened on process 0")
            if error is not None:
                raise error
        finally:  # (this frame holding the error its traceback holds: a cycle that kept the run's arrays alive)
            error = None

    def write(self, rec: dict):
        if self._fd is None:
            return
        data = (("\n" if self._torn else "") + json.dumps(rec, default=json_default) + "\n").encode()
        try:
            done = os.write(self._fd, data)  # one append: a record is never interleaved
        except OSError as e:
            done, why = 0, e.strerror or e.__class__.__name__
        else:
            why = "written in part" if done < len(data) else None
        if why is None:
            self._torn = False
            if self._failing:
                self._failing = False
                self._say(f"note: {self._path} is written again (records of step {rec.get('step')} on)")
            return
        self._torn = True  # whatever part of it went in ends before the next record
        if not self._failing:
            self._failing = True
            self._say(f"warning: a record of {self._path} could not be written ({why}); the run goes on, and its "
                      f"records are written again once the file system takes them")

    def sync(self):
        """The records written so far onto the disk (os.fsync): a checkpoint's, before it becomes visible. A restart
        goes on from its checkpoint and never records the steps before it again, so records still in the page cache
        when the node lost power or crashed were a hole in the series for ever. A failure is said once (as a write's)
        and the run goes on."""
        if self._fd is None:
            return
        try:
            os.fsync(self._fd)
        except OSError as e:
            if not self._unsynced:
                self._unsynced = True
                self._say(f"warning: {self._path} could not be synced to the disk "
                          f"({e.strerror or e.__class__.__name__}); the run goes on, and its records may not "
                          f"outlive a crash of this node")

    def close(self):
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None


# ---- checkpoints ------------------------------------------------------------------------------------

def _free(directory) -> Optional[int]:
    try:
        return free_bytes(directory)
    except OSError:
        return None


@dataclass
class Checkpointer:
    """Writes verified-sane checkpoints of this run into `directory` and keeps its newest `keep`.

    meta(view) -> the metadata to store (the driver supplies the configuration and the schedules'
    counters); last_step/last_path: the last good checkpoint (written or restarted from)."""

    directory: Path
    run_id: str
    keep: int
    meta: Callable[[RunView], dict]
    last_step: Optional[int] = None
    last_path: Optional[Path] = None
    log: Optional[JsonLog] = None
    # the longest checkpoint write of this run (s; restored from the checkpoint a run restarts from): the
    # wall-time limit keeps that much time for the last one
    write_s: float = 0.0
    # the bytes of one checkpoint (None: not known): where the next does not fit, older ones make room for it
    size: Optional[Callable[[], int]] = None
    # extra(view) -> the lattice fields stored beside the populations {name: [K, X, Y(, Z)]} or None (the
    # driver's: the time average, the steadiness reference; ckpt.EXTRA_FIELDS)
    extra: Optional[Callable[[RunView], Optional[dict]]] = None
    # the run's records (samples.jsonl, log.jsonl: JsonLog) synced to the disk before each checkpoint is written: a
    # restart from it never records the steps before it again
    records: tuple = ()
    SLOW_WRITE_S = 20.0  # a write this long is noted once: a scheduler's stop signal must come that much earlier

    def last_good(self) -> str:
        if self.last_path is None:
            return "no checkpoint of this run was written"
        return f"the last good checkpoint is {self.last_path} (step {self.last_step})"

    def __call__(self, view: RunView) -> Path:
        t0 = time.perf_counter()
        guard(view, self)  # a blown-up state is never written
        self._make_room(view)
        for rec in self.records:
            if rec is not None:
                rec.sync()
        try:
            path = ckpt.save(self.directory, view.state.f, view.domain, self.meta(view), keep=self.keep,
                             run_id=self.run_id, extra=self.extra(view) if self.extra is not None else None,
                             held=getattr(view, "held", None))
        except WriteError as e:
            self.failed(view, e, f"checkpoint at step {view.step} not written")
            raise
        took = time.perf_counter() - t0
        view.log(f"checkpoint: {path} (step {view.step})")
        if took > max(self.write_s, self.SLOW_WRITE_S):
            lead = int(math.ceil(1.5 * took + 60))
            view.log(f"note: this checkpoint took {took:.0f} s to write; a stop signal must leave the run that long "
                     f"before it is killed: ask for it at least {lead} s before the time limit (Slurm: "
                     f"--signal=B:USR1@{lead}; the grace after a plain SIGTERM, KillWait, is often only 30 s)")
        self.write_s = max(self.write_s, took)
        self.last_step, self.last_path = view.step, Path(path)
        return path

    def _make_room(self, view: RunView):
        """Where the checkpoint folder's file system cannot hold the next checkpoint, this run's oldest checkpoints
        make room for it, never the last good one (process 0, before anyone checks the space): fewer than
        checkpoint_keep are kept, and the run goes on checkpointing. A quota filled with the run's own older
        checkpoints made every later checkpoint fail."""
        dom, removed = view.domain, []
        if dom.process_index == 0 and self.size is not None and self.directory.is_dir():
            need = space_needed(self.size())
            free = _free(self.directory)
            if free is not None and free < need:
                own = [p for p, rid in ckpt.owners(self.directory) if rid == self.run_id]
                keep = Path(self.last_path) if self.last_path is not None else (own[-1] if own else None)
                for p in own:
                    if free >= need:
                        break
                    if keep is not None and os.path.abspath(p) == os.path.abspath(keep):
                        continue
                    ckpt.remove(p)
                    removed.append(p)
                    free = _free(self.directory) or 0
                if removed:
                    view.log(f"note: {len(removed)} older checkpoint(s) of this run removed to make room for the "
                             f"checkpoint of step {view.step} ({size_text(need)} needed, {size_text(free)} free now): "
                             f"{', '.join(p.name for p in removed)}; fewer than checkpoint_keep = {self.keep} are "
                             f"kept while the file system is this full")
        if dom.process_count > 1:
            dom.barrier()  # the others check their space after the removal

    def failed(self, view: RunView, e: WriteError, what: str):
        """Name the failed write and the last good checkpoint on the error (the line the command line prints and
        log.jsonl records: the driver decides whether the run goes on)."""
        e.what = what
        e.context = f"{what}: {e}; {self.last_good()}"

    def refuse_foreign(self, view: RunView, restart: bool = False):
        """Refuse to run in a checkpoint folder that holds another run's checkpoints: pruning and
        `--restart latest` would mix the two runs."""
        other = ckpt.foreign(self.directory, self.run_id) if view.domain.process_index == 0 else []
        if not view.domain.any_process(bool(other)):
            return
        if not other:
            raise ckpt.CheckpointError(f"{self.directory} holds another run's checkpoints (seen by process 0)")
        raise ckpt.CheckpointError(ckpt.occupied(self.directory, [p for p, _ in other], other[-1][1], restart))


# ---- the instability guard ----------------------------------------------------------------------------

FORCE_LARGE = 0.01  # a body force per cell and step (lattice units) that the guard names as a likely cause


def guard(view: RunView, checkpointer: Optional[Checkpointer] = None, log: Optional[JsonLog] = None) -> dict:
    """Diagnostics of the current state, appended to the view's history; raises InstabilityError
    (naming the step, the likely cause and the last good checkpoint) if any density is non-finite or
    outside the sane range."""
    diag = view.diagnostics()
    if diag["sane"]:
        return diag
    s = view.setup
    if checkpointer is not None and checkpointer.last_path is not None:
        kept = f"the last good checkpoint is step {checkpointer.last_step} ({checkpointer.last_path}, verified finite)"
    else:
        kept = "no checkpoint of this run was written"
    causes = _causes(view)
    force = _peak_force(view)
    if s.tau > TAU_LARGE:  # a duct at tau = 1000 blew up whatever its velocity (at umax = 1e-4: u 0.35 by step 150)
        causes = f"{tau_far_above(s.tau)}: lower tau; or " + causes
    if force > FORCE_LARGE:  # a duct at tau = 1000 blew up on a force of 0.42 per step, at Mach 0.017
        causes = (f"a body force of {force:.3g} per cell and step, far above {FORCE_LARGE:g} (the force that "
                  f"drives a flow grows with its viscosity: tau = {s.tau:.6g}): lower the velocity or tau; or "
                  + causes)
    # the same settings blow up again from any of its checkpoints, and a restart refuses other physics: say how a
    # changed setting goes on from the last good state (a restart's message said nothing of it, and ran into the
    # same blow-up at the same step)
    again = (f"; with the same settings a --restart blows up again: to go on from it with a changed setting, "
             f"--init-from {checkpointer.last_path} --out NEWDIR (a restart refuses other physics)"
             if checkpointer is not None and checkpointer.last_path is not None else "")
    where, record = blowup_where(view, diag)
    msg = (f"instability at step {view.step}: density non-finite or outside {list(RHO_RANGE)} "
           f"(tau = {s.tau:.6g}, {_mach_seen(view, diag)}); {where}; likely causes: {causes}; {kept}{again}")
    view.log(f"error: {msg}")
    for lg in (log, checkpointer.log if checkpointer is not None else None):
        if lg is not None:
            lg.write({"event": "instability", "step": view.step, "message": msg, "where": record})
            break
    raise InstabilityError(msg)


def _peak_force(view: RunView) -> float:
    """The largest body force |F| of a cell per step (lattice units): the uniform Setup.force's, or a per-cell
    force field's largest (its uniform force added in; the guard read the uniform force alone, so a field's large
    force went unnamed). Every process takes part (a reduction of the global field)."""
    s = view.setup
    field = view.force_field
    if field is not None:
        jnp = jax.numpy
        return float(jnp.sqrt(jnp.max(jnp.sum(jnp.square(field.astype(jnp.float32)), axis=0))))
    return math.sqrt(sum(float(x) ** 2 for x in s.force)) if s.force is not None else 0.0


def blowup_where(view: RunView, diag: dict) -> tuple:
    """Where a blow-up began, as its message says it and log.jsonl records it: by the check that finds it most of
    the lattice may be NaN (the first bad cells gone), so the cells that every check keeps (the largest local speed
    and the density farthest from 1: view.diagnostics, one reduction per block) of the last sane check before it
    and of the first check past the Mach limit, with what is there (the case's flags at and around the cell: a
    wall, a body, an inlet or outlet, a periodic side) and its position in physical units. (text, record)."""
    record = {"nonfinite": diag.get("nonfinite"), "out_of_range": diag.get("out_of_range")}
    now = []
    if diag.get("nonfinite"):
        now.append(f"{diag['nonfinite']} cell(s) non-finite")
    if diag.get("out_of_range"):
        now.append(f"{diag['out_of_range']}{'' if now else ' cell(s)'} out of range")
    text = f"{' and '.join(now) or 'cells out of range'} at step {view.step}"
    if diag.get("finite") and diag.get("rho_extreme_at") is not None and diag.get("rho_extreme") is not None:
        cell = diag["rho_extreme_at"]  # every density finite: the worst cell now is where it is going wrong
        text += f", the worst rho = {diag['rho_extreme']:.4g} at {describe_cell(view, cell)}"
        record["worst"] = {"step": view.step, "rho": diag["rho_extreme"], "cell": list(cell)}
    past = [h for h in view.history if h.get("step", view.step) < view.step and "u_max_at" in h]
    last = next((h for h in reversed(past) if h.get("sane")), None)
    if last is None:
        return text + " (no sane check before it kept where the flow was fastest)", record
    text += (f"; the last sane check (step {last['step']}) had its largest local Mach "
             f"({units.mach(last['u_max_local']):.3g}) at {describe_cell(view, last['u_max_at'])}")
    record["last_sane"] = {"step": last["step"], "mach": units.mach(last["u_max_local"]),
                           "mach_cell": list(last["u_max_at"]), "rho": last.get("rho_extreme"),
                           "rho_cell": list(last.get("rho_extreme_at") or [])}
    if last.get("rho_extreme") is not None and list(last["rho_extreme_at"]) != list(last["u_max_at"]):
        text += (f" and its density farthest from 1 (rho = {last['rho_extreme']:.4g}) at "
                 f"{describe_cell(view, last['rho_extreme_at'])}")
    elif last.get("rho_extreme") is not None:
        text += f" (rho = {last['rho_extreme']:.4g} there, the farthest from 1)"
    from distlbm.config import MACH_MAX

    first = view.first_past_mach(view.step)
    if first is not None and first["step"] != last["step"]:  # (a restart's, from its checkpoint: another dict)
        text += (f"; the first check past Mach {MACH_MAX:g} (step {first['step']}: "
                 f"{units.mach(first['u_max_local']):.3g}) at {describe_cell(view, first['u_max_at'])}")
        record["first_past_mach"] = {"step": first["step"], "mach": units.mach(first["u_max_local"]),
                                     "cell": list(first["u_max_at"])}
    return text, record


def describe_cell(view: RunView, cell) -> str:
    """'cell (i, j) (x = .., y = ..; fluid next to a wall and inlet-x)': the cell, its centre in physical units (the
    case's dx and origin, as the written fields' grid) and what is at and around it by the case's flags: the
    boundaries among its neighbours (across faces, edges and corners), else those 2 cells away (the gap of 2.5
    cells between a cylinder and a channel's wall, where a too fast channel first passed Mach 0.3), and across a
    lattice face that no boundary closes, the periodic side. The flags of those cells alone are read."""
    from distlbm.physics import boundaries as bc

    shape = tuple(view.setup.shape)
    d = len(shape)
    cell = tuple(int(c) for c in cell)
    u = view.setup.units or {}
    dx, origin = u.get("dx"), u.get("origin") or [0.0] * d
    where = f"cell ({', '.join(map(str, cell))})"
    at = ", ".join(f"{'xyz'[a]} = {origin[a] + (cell[a] + 0.5) * dx:.4g}" for a in range(d)) + "; " if dx else ""
    offsets = [tuple(o - 2 for o in off) for off in np.ndindex(*(5,) * d) if any(x != 2 for x in off)]
    pts = [cell] + [tuple((c + o) % n for c, o, n in zip(cell, off, shape)) for off in offsets]
    kind, body = view.flags_at(pts)

    def name(i):
        k = 0 if kind is None else int(kind[i])
        if k == bc.WALL and body is not None and body[i] > 0:
            return f"body {body[i]}"
        return {bc.WALL: "a wall", bc.MOVING_WALL: "a moving wall"}.get(k, bc.KIND_NAMES.get(k, f"kind {k}"))

    def listed(names):
        return ", ".join(names[:-2] + [" and ".join(names[-2:])])

    own = name(0)
    own = own if own == "fluid" else f"in {own}" if own.startswith(("a ", "body")) else f"{own} cell"
    near = {1: [], 2: []}
    for i, off in enumerate(offsets, 1):
        n, dist = name(i), max(abs(o) for o in off)
        if n != "fluid" and n not in near[dist] and (dist == 1 or n not in near[1]):
            near[dist].append(n)
    if near[1]:
        what = f"{own} next to {listed(near[1])}"
    elif near[2]:
        what = f"{own}, 2 cells from {listed(near[2])}"
    else:
        what = f"{own}, no boundary within 2 cells"
    across = {a: offsets.index(tuple(0 if b != a else (-1 if cell[a] == 0 else 1) for b in range(d))) + 1
              for a in range(d) if shape[a] > 1 and cell[a] in (0, shape[a] - 1)}
    sides = [f"{'xyz'[a]} = {cell[a]}" for a, i in across.items() if name(i) == "fluid" and name(0) == "fluid"]
    if sides:
        what += f", on the periodic side {', '.join(sides)}"
    return f"{where} ({at}{what})"


def _causes(view: RunView) -> str:
    """The usual causes of a blow-up, with the settings of this case that change them (the message said "lower the
    velocity" and "set smagorinsky", naming neither the key nor a value). Where tau is close to 1/2 (as the start-up
    warns, below 0.51) that comes first, with the remedy that worked: a 32^2 cavity blew up by step 600 at Re 1000
    (tau 0.5048) and at Re 1e5 (tau 0.50005), also at half its lid velocity (which at a fixed Re brings tau closer
    to 1/2), and ran 4000 steps with smagorinsky = 0.1; elsewhere the Mach number comes first, with half the case's
    lattice velocity to try."""
    p, s = view.params, view.setup
    # the case where the driver gave the view one (a velocity derived from other settings is named by them)
    case = getattr(view, "case", None)
    smag = "set smagorinsky=0.1" if not view.model.collision.smagorinsky else "raise smagorinsky"
    if s.tau < TAU_CLOSE:
        velocity, _ = velocity_remedy(case, p, example=False)
        return (f"tau = {s.tau:.6g} too close to 1/2 ({smag}, or {tau_remedy(p, s.tau, case=case)}) or Mach number "
                f"too high ({velocity})")
    velocity, _ = velocity_remedy(case, p)
    if s.tau > TAU_LARGE:  # named first by the guard (far above 1): "too close to 1/2 (raise tau)" contradicted it
        return f"Mach number too high ({velocity})"
    return (f"Mach number too high ({velocity}) or tau = {s.tau:.6g} too close to 1/2 "
            f"({tau_remedy(p, s.tau, False, case)}, or {smag})")


def _mach_seen(view: RunView, diag: dict) -> str:
    """The local Mach number an instability message names: of this state where every density is finite (else
    the largest speed means nothing: a blown-up state gave 0), and of the last sane check before it."""
    now = diag.get("u_max_local", float("nan"))
    now = f"{units.mach(now):.3g}" if diag.get("finite") and math.isfinite(now) else None
    last = next((h for h in reversed(view.history) if h.get("sane") and h.get("step", view.step) < view.step
                 and math.isfinite(h.get("u_max_local", float("nan")))), None)
    if last is not None:
        at = units.mach(last["u_max_local"])
        before = (f"{at:.3g} at step {last['step']} (the last sane check)" if at > 0 else
                  f"0 at step {last['step']} (the last sane check: the flow at rest)")
        return f"local Mach up to {now} now and {before}" if now else f"local Mach up to {before}"
    return f"local Mach up to {now}" if now else "local Mach not known: no finite state was checked"


OUTRUN = 10.0  # a local speed this many times the case's velocity: the Mach warning does not advise lowering it


@dataclass
class MachWatch:
    """The largest local Mach number of the run's checks (summary.json), and one warning, on the line and in
    log.jsonl, the first time it passes `limit`. The set-up checks the case's characteristic velocity only
    (a channel's inflow peak): a gap beside a body or a constriction speeds the flow up past it, and a
    channel whose inflow was at Mach 0.13 reached 0.44 by step 1000, 0.81 by step 2000, and blew up at
    2500, with nothing said before. `velocity_key`: the setting that lowers the velocity; `remedy`: what lowers it
    where no setting of its own does (config.velocity_remedy: 3D-1Z given tau, whose u_lattice it takes no value of
    beside tau, was told "lower u_lattice")."""

    limit: float
    start_step: int
    log: Optional[JsonLog] = None
    velocity_key: Optional[str] = None
    remedy: Optional[str] = None
    peak: float = 0.0
    peak_step: Optional[int] = None
    warned_step: Optional[int] = None

    @classmethod
    def of(cls, case, params: dict, start_step: int, log: Optional[JsonLog] = None) -> "MachWatch":
        """The run's watch at MACH_MAX, naming the case's velocity setting, or what lowers a velocity derived from
        other settings."""
        from distlbm.config import MACH_MAX, positive_number

        vkey = velocity_key(case, params)
        own = positive_number(params.get(vkey))
        return cls(MACH_MAX, start_step, log, vkey, None if own else velocity_remedy(case, params, example=False)[0])

    def __call__(self, view: RunView, diag: dict):
        u = diag.get("u_max_local", float("nan"))
        if not (diag.get("finite") and math.isfinite(u)):
            return
        ma = units.mach(u)
        if ma > self.peak or self.peak_step is None:
            self.peak, self.peak_step = ma, view.step
        if ma > self.limit and self.warned_step is None:
            self.warned_step = view.step
            lower = (self.remedy or f"lower {self.velocity_key} (the flow's lattice velocity)"
                     if self.velocity_key and self.velocity_key != "velocity" else "lower the lattice velocity")
            ratio = u / view.setup.u_max if view.setup.u_max > 0 else math.inf
            advice = (f"{lower} or raise the resolution" if ratio <= OUTRUN else
                      f"a flow {ratio:.3g} times the case's velocity is an instability building up more likely than "
                      f"the velocity set (tau = {view.setup.tau:.4g}; see the causes an instability names)")
            at = f" at {describe_cell(view, diag['u_max_at'])}" if diag.get("u_max_at") is not None else ""
            msg = (f"step {view.step}: the flow reaches local Mach {ma:.3g} (speed {u:.3g} in lattice units) > "
                   f"{self.limit:g}{at}, beyond what the set-up accepts (the case's velocity: Mach "
                   f"{units.mach(view.setup.u_max):.3g}): compressibility errors of order Ma^2 = {ma * ma:.2g} "
                   f"there, and the run may blow up; {advice}")
            view.log(f"warning: {msg}")
            if self.log is not None:
                self.log.write({"event": "mach", "step": view.step, "mach": ma, "message": msg})

    def report(self) -> dict:
        """summary.json's `mach_local`: the largest local Mach number of the checks since `start_step`."""
        return {"max": self.peak if self.peak_step is not None else None, "step": self.peak_step,
                "since_step": self.start_step, "limit": self.limit, "warned_at_step": self.warned_step}

    def restore(self, state) -> None:
        """Go on from a checkpoint's report() (watch_state)."""
        restore_watch(self, state, "max")


MASS_DRIFT_MAX = 0.1  # a relative change of the lattice's mass past this is warned about, once


@dataclass
class MassWatch:
    """The largest relative change of the lattice's mass over the run's checks (summary.json), and one warning,
    on the line and in log.jsonl, the first time it passes `limit`. The progress lines show the drift, but
    nothing said when it grew: a channel whose outflow fixes no pressure level drifted 16 % in 32,000 steps, an
    inflow started from rest at u_lattice = 0.1 swung the mass by +20 % (densities that far from 1 carry
    compressibility errors of that order), and a channel closed by its bodies gained 40 % with exit 0.
    `hint`: what in this configuration moves the mass, and what to change."""

    limit: float
    start_step: int
    log: Optional[JsonLog] = None
    hint: str = ""
    peak: float = 0.0
    peak_step: Optional[int] = None
    warned_step: Optional[int] = None

    def __call__(self, view: RunView, diag: dict):
        mass = diag.get("mass", float("nan"))
        if not (view.mass0 and math.isfinite(mass)):
            return
        drift = (mass - view.mass0) / view.mass0
        if abs(drift) > abs(self.peak) or self.peak_step is None:
            self.peak, self.peak_step = drift, view.step
        if abs(drift) > self.limit and self.warned_step is None:
            self.warned_step = view.step
            msg = (f"step {view.step}: the mass in the lattice has changed by {drift:+.1%} since step 0, more than "
                   f"{self.limit:.0%}: densities that far from 1 carry compressibility errors of that order"
                   + (f"; {self.hint}" if self.hint else ""))
            view.log(f"warning: {msg}")
            if self.log is not None:
                self.log.write({"event": "mass", "step": view.step, "mass_drift": drift, "message": msg})

    def report(self) -> dict:
        """summary.json's `mass_drift_peak`: the largest relative change of the mass at the checks since
        `start_step` (signed), its step, the limit and the step of the warning."""
        return {"value": self.peak if self.peak_step is not None else None, "step": self.peak_step,
                "since_step": self.start_step, "limit": self.limit, "warned_at_step": self.warned_step}

    def restore(self, state) -> None:
        """Go on from a checkpoint's report() (watch_state)."""
        restore_watch(self, state, "value")


def restore_watch(watch, state, key: str) -> None:
    """A restart's watch goes on from the run's (its checkpoint's report(): the peak, its step, the step it warned
    at, and since when): a restart's summary said the peak of its own checks alone (taylor_green2d restarted at step
    100: mach_local 0.0557 at step 110 where the run's was 0.0679 at step 10) and warned again of what the run had
    warned of. A state that is not such a record (a checkpoint older than it) is left: the watch starts here."""
    if not isinstance(state, dict) or not isinstance(state.get("since_step"), int):
        return
    peak, step, warned = state.get(key), state.get("step"), state.get("warned_at_step")
    if isinstance(step, int) and isinstance(peak, (int, float)) and math.isfinite(peak):
        watch.peak, watch.peak_step = float(peak), step
    if isinstance(warned, int):
        watch.warned_step = warned
    watch.start_step = state["since_step"]


# ---- progress -------------------------------------------------------------------------------------

@dataclass
class Progress:
    """The progress line on process 0 (a plain line, in a terminal too: warnings come between them, and a line of
    ~130 columns wraps, which a bar redrawn with '\\r' cannot overwrite) and one record in log.jsonl: step,
    simulated time, MLUPS, ETA, mass drift, kinetic energy and the latest sampled quantities."""

    start_step: int
    end: int
    log: Optional[JsonLog] = None
    t0: float = field(default_factory=time.perf_counter)
    # a run that stops once steady (steady_tol) may end before `end`: its ETA is at most that ('ETA <= 2m49s'; the
    # default cavity2d said 'ETA 2m49s' and ended 13 s later)
    steady_stop: bool = False

    def __call__(self, view: RunView, diag: dict):
        wall = time.perf_counter() - self.t0
        done = view.step - self.start_step
        mlups = view.cells_count * done / max(wall, 1e-12) / 1e6
        eta = wall / max(done, 1) * (self.end - view.step)
        drift = (diag["mass"] - view.mass0) / view.mass0 if view.mass0 else 0.0
        t = view.time
        rec = {"step": view.step, "end": self.end, "time": t, "mlups": mlups, "eta_s": eta, "mass_drift": drift,
               "kinetic_energy": diag["kinetic_energy"], "wall_s": wall}
        left = ("<= " if self.steady_stop else "") + fmt_time(eta)
        line = (f"step {view.step:>8d}/{self.end}  t={t:.4g}  MLUPS {mlups:7.1f}  ETA {left:>8s}  "
                f"mass drift {drift:+.2e}  E_kin {diag['kinetic_energy']:.4e}")
        if view.samples and view.samples[-1]["step"] == view.step:
            shown = {k: v for k, v in view.samples[-1].items() if isinstance(v, float) and k != "time"}
            if shown:
                line += "  " + "  ".join(f"{k} {v:.5g}" for k, v in list(shown.items())[:4])
                rec["quantities"] = shown
        if self.log is not None:
            self.log.write(rec)
        view.log(line)


NO_CHECKPOINT_WARN_S = 3600.0  # a run foreseen to last longer than this without periodic checkpoints is warned
SPEED_AFTER_S = 10.0  # the run's speed is taken after this much of its wall time (the first chunks are short)


def _nice(n: float) -> int:
    """n rounded down to 1, 2 or 5 times a power of ten (at least 1): a checkpoint interval to type."""
    if n < 1:
        return 1
    p = 10 ** math.floor(math.log10(n))
    return int(max(m * p for m in (1, 2, 5) if m * p <= n))


@dataclass
class CheckpointAdvice:
    """One warning, as soon as the run's speed is known (SPEED_AFTER_S of its wall time), for a run with no
    periodic checkpoint (no checkpoint_every, no checkpoint_wall) that has more than NO_CHECKPOINT_WARN_S to
    go: a stop signal or the wall-time limit still writes one, but a node failure or a job killed outright
    loses the whole run. It names an interval of about an hour at the measured speed. Called after every
    chunk (nothing collective: process 0 says it)."""

    start_step: int
    end: int
    log: Optional[JsonLog] = None
    said: bool = False

    def __call__(self, view: RunView, step: int, wall: float):
        done = step - self.start_step
        if self.said or wall < SPEED_AFTER_S or done <= 0 or step >= self.end:
            return
        self.said = True  # decided once, on the first speed measured
        rate = done / wall
        eta = (self.end - step) / rate
        if eta <= NO_CHECKPOINT_WARN_S:
            return
        every = _nice(rate * 3600.0)
        msg = (f"step {step}: about {fmt_time(eta)} to go and no periodic checkpoint: a node failure or a job "
               f"killed outright loses the whole run (a stop signal or --wall-time still writes one); give "
               f"--checkpoint-every {every} (about one an hour at this speed) or checkpoint_wall = 3600")
        view.log(f"warning: {msg}")
        if self.log is not None:
            self.log.write({"event": "no_checkpoints", "step": step, "message": msg})


# ---- forces and probes ---------------------------------------------------------------------------

@dataclass
class Sampler:
    """One record of the forces, probes and (Setup.sample_energy) kinetic energy the case defines, turned
    into the case's quantities, appended to the view's samples and to DIR/samples.jsonl."""

    quantities: Callable[[dict, RunView], dict]
    log: Optional[JsonLog] = None

    def __call__(self, view: RunView) -> dict:
        s = view.setup
        raw = {"step": view.step, "time": view.time}
        if view.has_forces:
            raw["force"] = view.forces().tolist()
        if s.sample_energy:  # the diagnostics of this state (shared with the check and progress line)
            raw["kinetic_energy"] = view.diagnostics()["kinetic_energy"]
        if s.probes:
            names = list(s.probes)
            d = len(s.shape)
            pts = np.concatenate([np.asarray(s.probes[n], np.int64).reshape(-1, d) for n in names])
            vals = view.probe(pts)
            k = 0
            raw["probes"] = {}
            for n in names:
                m = np.asarray(s.probes[n]).reshape(-1, d).shape[0]
                raw["probes"][n] = {"rho": vals["rho"][k:k + m].tolist(), "u": vals["u"][:, k:k + m].tolist()}
                k += m
        rec = {"step": raw["step"], "time": raw["time"]}
        rec.update(self.quantities(raw, view) or {})
        view.samples.append(rec)
        if self.log is not None:
            self.log.write(rec)
        return rec


def load_samples(path: Path, upto: int) -> SampleRecords:
    """After a restart: the samples recorded up to the restart step (for signals such as the lift), in columns."""
    from distlbm.io.results import iter_records_upto

    if path is None or not path.is_file():
        return SampleRecords()
    try:  # line by line (the whole file's bytes and their lines held twice its size at once)
        with open(path, "rb") as fh:
            return SampleRecords(rec for _, rec in iter_records_upto(fh, upto))
    except OSError:
        return SampleRecords()


def sample_interval(samples: list) -> Optional[int]:
    """The interval in steps of a run's samples (`load_samples`' records), for a restart from a checkpoint that
    does not record it: the most common step between the last (up to 10) records, where it is seen at least twice
    and those records lie on multiples of it (the schedule's steps), all but two at most: a stop's own sample (a
    Slurm chain's job ended between two of the schedule's steps) and the run's end step are sampled off it; else
    None (too few samples, or an uneven series: the restart's own default then). A stop's sample among the last
    records gave None: the restart sampled at its own default, unlike the run it continued."""
    steps = [r.get("step") for r in samples[-10:]]
    if len(steps) < 3 or not all(isinstance(s, int) and not isinstance(s, bool) for s in steps):
        return None
    gaps = [b - a for a, b in zip(steps, steps[1:])]
    best = max(set(gaps), key=lambda g: (gaps.count(g), g))
    if best <= 0 or gaps.count(best) < 2:
        return None
    off = sum(1 for s in steps if s % best)
    if off > 2 or len(steps) - off < 3:
        return None
    return best


# ---- run until steady ---------------------------------------------------------------------------------

def _max_change(u, prev, kind):
    """max |u - prev| over the fluid cells of this block (u, prev: [D, X, Y(, Z)])."""
    diff = jnp.max(jnp.abs(u - prev), axis=0)
    if kind is not None:
        diff = jnp.where(is_wall(kind), 0.0, diff)
    return jnp.max(diff)


@dataclass
class SteadyCheck:
    """Says the run is steady when the velocity field changed by less than `tol` since the previous
    check: max |u - u_prev| / U over every fluid cell, reduced across shards and processes (U: the
    case's characteristic lattice velocity). Keeps the previous field on the devices (D values per
    cell) and the history of the checks, which a checkpoint carries (`state`/`load`, the field as its
    dataset 'steady_ref': a restart then judges its first check against the same field as the run that
    was not stopped, and stops at the same step). A comparison over fewer than `every` steps is never
    judged (it keeps the older field): a restart from a checkpoint without the field takes its own state
    as the reference and judges the first check a whole interval after it; before, it compared over the
    few steps since the restart and stopped as "steady" early. The history keeps the latest KEPT checks (`checks`
    counts them all; log.jsonl's steady_check events hold every one): kept whole, steady_every = 1 held ~136 bytes
    per step in memory and ~32 in each checkpoint's metadata, ~60 in summary.json (10^7 steps: 1.4 GB, 320 MB in
    every checkpoint, 600 MB)."""

    KEPT = 1000

    tol: float
    velocity: float
    every: int
    log: Optional[JsonLog] = None
    history: list = field(default_factory=list)  # [[step, max |du| / U], ...]: the latest KEPT
    checks: int = 0  # the checks judged (history's and the older ones left out of it), a restart's predecessor's too
    reached: Optional[int] = None
    blowup: Optional[Callable] = None  # blowup(view): the instability guard, called where a check is not finite
    _prev: object = None
    _prev_step: Optional[int] = None

    def __post_init__(self):
        self._change = jax.jit(_max_change)

    def start(self, view: RunView):
        """Take the state at the run's start as the reference of the first comparison, unless a checkpoint gave one."""
        if self._prev is None:
            self._prev, self._prev_step = view.macroscopic()[1], view.step

    def reference(self):
        """The field of the last check (the next comparison's reference), or None."""
        return self._prev

    def __call__(self, view: RunView):
        if self._prev_step is not None and view.step - self._prev_step < self.every:
            return None  # too few steps to judge: a small change means nothing yet
        _, u = view.macroscopic()
        delta = None
        if self._prev is not None and self._prev.shape == u.shape:
            local = float(jax.device_get(self._change(u, self._prev, view.kind)))
            delta = float(view.domain.allreduce({"d": local}, op="max")["d"]) / max(self.velocity, 1e-300)
            said = delta if math.isfinite(delta) and delta >= 0 else None  # (no -Infinity in the JSON records)
            self.history.append([view.step, delta])
            self.checks += 1
            if len(self.history) > self.KEPT:
                del self.history[0]
            if self.log is not None:
                self.log.write({"event": "steady_check", "step": view.step, "max_du_over_U": said,
                                "tol": self.tol})
        self._prev, self._prev_step = u, view.step
        if delta is not None and not (math.isfinite(delta) and delta >= 0):
            # a field that blew up (NaN: its max came back as -inf) is no steady state: a run at tau = 0.50024 said
            # "steady at step 640: max |du| / U = -inf < 0.0001" before its instability; the guard says what it is
            if self.blowup is not None:
                self.blowup(view)  # raises InstabilityError, naming this step
            return None
        if delta is not None and delta < self.tol and self.reached is None:
            self.reached = view.step
            view.log(f"steady at step {view.step}: max |du| / U = {delta:.3g} < {self.tol:g} over "
                     f"{self.every} steps")
            storage = str(view.model.dtype)
            if storage in ("float16", "bfloat16"):
                # rounding freezes a slowly changing 16-bit state before the flow is steady: a change below half a
                # storage step per step is lost (couette in bfloat16 stopped here with max |du| = 0, 18 % off U y/H)
                view.log(f"warning: steady in {storage} storage: 16-bit rounding also stops the populations from "
                         f"changing before the flow is steady (a change below half a storage step per step is "
                         f"lost), so this state can be far from the steady flow (couette in bfloat16 18 %, "
                         f"poiseuille in float16 4 % off); check the answer in float32 (a new run from this "
                         f"one's checkpoint goes on from its flow: --init-from with dtype = 'float32')")
            return "steady"  # the run stops here
        return None

    def state(self) -> dict:
        return {"history": self.history, "checks": self.checks, "ref_step": self._prev_step, "reached": self.reached}

    def load(self, state: dict, reference=None):
        """The history of a checkpoint's `state`, and its reference field (None: none kept)."""
        hist = state.get("history") if isinstance(state, dict) else None
        if isinstance(hist, list):
            self.history = [[int(h[0]), float(h[1])] for h in hist if isinstance(h, list) and len(h) == 2]
            checks = state.get("checks")  # (a checkpoint before it: its history was whole)
            self.checks = checks if isinstance(checks, int) and not isinstance(checks, bool) else len(self.history)
            del self.history[:-self.KEPT]
        ref_step = state.get("ref_step") if isinstance(state, dict) else None
        if reference is not None and isinstance(ref_step, int) and not isinstance(ref_step, bool):
            self._prev, self._prev_step = reference, ref_step

    def report(self, end: int, step: Optional[int] = None) -> dict:
        """For summary.json: the tolerance, the checks and why the run stopped (at `step`, its end step `end`: a
        stop before the end, a signal or the wall-time limit, said "end step reached" before)."""
        last = self.history[-1][1] if self.history else None
        stopped = step is not None and step < end
        why = (f"steady: max |du| / U = {last:.3g} < {self.tol:g} at step {self.reached}" if self.reached is not None
               else (f"stopped at step {step}, before its end step {end}, with max |du| / U not yet below "
                     f"{self.tol:g}" if stopped else f"end step {end} reached before max |du| / U fell below "
                     f"{self.tol:g}")
               + (f" (last {last:.3g})" if last is not None else ""))
        return {"tol": self.tol, "every": self.every, "velocity": self.velocity, "reached": self.reached,
                "stopped": why, "history": self.history, "checks": self.checks}


# ---- stop conditions --------------------------------------------------------------------------------

@dataclass
class WallTimeStop:
    """Stop before `limit` seconds of wall time since `t_created`, keeping time for the checkpoint: the next
    chunk, a margin (5 % of the limit, at most 60 s) and 1.5 times the longest checkpoint write seen
    (`write_s`: a lattice of hundreds of GB takes minutes to write, longer than the margin)."""

    limit: float
    t_created: float

    def __call__(self, chunk_wall: float, write_s: float = 0.0) -> Optional[str]:
        if self.limit <= 0:
            return None
        margin = min(60.0, 0.05 * self.limit) + 1.5 * write_s
        elapsed = time.perf_counter() - self.t_created
        return "the wall-time limit" if elapsed + 1.5 * chunk_wall + margin > self.limit else None

    def short(self, t_stepping: float, steps: int) -> Optional[str]:
        """Where this job stepped for less time than it took to start (`t_stepping`: when its first step began), the
        warning that a job resubmitted with the same limit advances as little again (`steps` steps): a wall_time of
        60 meant as Slurm's minutes (`--time=60`) stopped each job of a chain after its first chunk, with exit 75,
        unsaid. None otherwise."""
        now = time.perf_counter()
        start, stepping = t_stepping - self.t_created, now - t_stepping
        if self.limit <= 0 or stepping >= start:
            return None
        return (f"wall_time = {self.limit:g} s left this job {fmt_time(stepping)} of stepping ({steps:,} steps) after "
                f"{fmt_time(start)} of start-up: a job resubmitted with it advances as little again; wall_time is in "
                f"seconds or HH:MM:SS (Slurm's --time=60 is 60 minutes: --wall-time 1:00:00)")
