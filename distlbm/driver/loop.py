"""The run loop: advance with one compiled `advance(state, cells, n)` to the next step at which a callback
is due, then fire the callbacks that are due (driver.callbacks), and stop at the end step, on a signal
or at the wall-time limit with a checkpoint. The driver owns the state; callbacks and cases see the
run's read-only view (driver.view.RunView)."""

from __future__ import annotations

import gc
import math
import numbers
import os
import sys
import time
import weakref
from pathlib import Path
from typing import Callable, Optional

import jax
import jax.numpy as jnp
import numpy as np

from distlbm.driver import signals, space
from distlbm.driver import callbacks as cb
from distlbm.driver.callbacks import Callback, Checkpointer, InstabilityError, JsonLog, WallTimeStop
from distlbm.driver.restart import (blown_up_warning, continued, earlier_results, end_before_start, init_from_line,
                                    legacy_warning, mean_starts_again, nothing_to_run, other_case, outputs_gone_line,
                                    outputs_here, samples_missing, samples_missing_line, samples_upto,
                                    steady_done)
from distlbm.driver.schedules import (IterationInterval, StepsOrWall, TimeInterval, WallTimeInterval,
                                      average_warning, next_due)
from distlbm.driver.summary import summary as make_summary
from distlbm.driver.view import RunView, compile_readers, past_mach
from distlbm.errors import ConfigError
from distlbm.io import checkpoint as ckpt
from distlbm.io import files
from distlbm.io import lock as folder_lock
from distlbm.io import results
from distlbm.io.files import WriteError
from distlbm.io.output import FieldOutput
from distlbm.memory import average_values
from distlbm.parallel import make_advance, make_domain
from distlbm.parallel.processes import lost_process
from distlbm.physics.collision import Collision
from distlbm.stepper import Model, State, assemble_cells, macroscopic, step_form, step_path

EXIT_OK = 0
EXIT_CONFIG = 2  # a configuration, input or restart error: nothing ran
EXIT_INSTABILITY = 4  # the run blew up; the last good checkpoint is kept
EXIT_WRITE_FAILED = 74  # a checkpoint or output could not be written (disk full ...); older files intact (EX_IOERR)
EXIT_RESUBMIT = 75  # stopped on a signal or the wall-time limit after writing a checkpoint (EX_TEMPFAIL)
KEPT_WARNINGS = 50  # run-time warnings kept in summary.json (the rest are counted there)
PROGRESS_WALL = 600.0  # seconds: the default progress comes at least this often (and every 1/20 of the run)


def build_model(cfg) -> Model:
    """The step's static description from a run's model spec and the case's setup."""
    s, m = cfg.setup, cfg.model
    col = Collision(m.collision, s.tau, m.trt_lambda, m.smagorinsky)
    from distlbm.physics import boundaries as bc

    field = s.force_field is not None  # the uniform force, if any, is added into the per-cell field
    return Model(s.lattice, col, None if field else s.force, s.features or bc.Features(), m.dtype, m.compute_dtype,
                 m.equilibrium == "incompressible", force_field=field)


def samples_on(model, setup) -> bool:
    """Whether a run samples (samples.jsonl): forces on bodies, probes or the kinetic energy."""
    return bool(model.features.bodies or setup.probes or setup.sample_energy)


def step_argument(call: str, name: str, value, expected: str, most: int) -> int:
    """A step or a number of steps given to run() or advance() from Python, as an int: an integer (a NumPy one too)
    or a float of a whole number (a NumPy one too: np.float32), from 0 to `most`; else one ConfigError naming the
    call, the value and `expected` (run('10') was a TypeError from the schedules, advance(2.5) ran two steps and
    advance(-1) none, unsaid)."""
    whole = ((isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)))
             or (isinstance(value, (float, np.floating)) and float(value).is_integer()))
    if whole and 0 <= int(value) <= most:
        return int(value)
    raise ConfigError(f"{call}({value!r}): {name} = {value!r}: expected {expected}")


def weakly(method: Callable) -> Callable:
    """`method` (a bound method) called through a weak reference to its object: what the Simulation hands to the
    objects it owns (its checkpointer, its callbacks, its view's log) keeps no reference back to it, so that a dropped
    Simulation (`del sim`, `sim = Simulation(...)` again in a sweep) and its arrays on the devices are freed at once,
    not at Python's next cyclic collection. Called after the object is gone: None. Anything else (a method a caller
    replaced on the instance, `sim._checkpoint = mine`: a function, WeakMethod's TypeError) is held as it is, as before.
    """
    if getattr(method, "__self__", None) is None or getattr(method, "__func__", None) is None:
        return method
    ref = weakref.WeakMethod(method)

    def call(*args, **kwargs):
        bound = ref()
        return None if bound is None else bound(*args, **kwargs)

    return call


COLLECT_BYTES = 64 << 20  # the device arrays alive at a Simulation's construction above which it runs gc.collect()


class Simulation:
    """One run of a configured case (config.RunConfig: typed specs plus the case's setup) on a domain
    (from the decomposition spec unless given).

    restart: None, 'latest' or a checkpoint path; the run then continues from that checkpoint.
    init_from: a checkpoint file or a run folder (its newest good checkpoint) whose populations are the initial
    state of this new run (step 0, its own physics: e.g. Re 400 started from the steady flow at Re 100); the
    lattice and its size must be the same; populations stored in another dtype are taken in this run's. Ignored
    with `restart`."""

    def __init__(self, cfg, domain=None, out_dir: Optional[str] = None, log: Callable = print,
                 restart: Optional[str] = None, init_from: Optional[str] = None,
                 announce: Optional[Callable] = None):
        # announce(self): called once the domain, the step and the folder are set, before the state is made (a
        # restart's or --init-from's checkpoint read): `distlbm run` says there which case, lattice and mesh this is,
        # so that what a restart does (the checkpoint, the settings kept from the run) is said after it
        # the wall-time limit counts from the process's start under `distlbm run` (its start-up is the job's time
        # too: a 10 s limit took 11.6 s), else from here
        flag = signals.process_flag()
        self._t_created = flag.started if flag is not None and flag.started is not None else time.perf_counter()
        from distlbm.config import run_checks

        if not all(hasattr(cfg, k) for k in ("setup", "case", "params", "pending")):  # (AttributeError: 'pending')
            raise ConfigError(f"cfg = {cfg!r}: expected the configuration of distlbm.config.resolve(case, "
                              f"{{key: value}})")
        for key, value in (("out_dir", out_dir), ("restart", restart), ("init_from", init_from)):
            if value is not None and not isinstance(value, (str, os.PathLike)):  # (pathlib's TypeError, from the lock)
                what = {"out_dir": "a folder's path (str or os.PathLike), or None for no files",
                        "restart": "'latest' or a checkpoint's path (str or os.PathLike), or None",
                        "init_from": "a checkpoint's or a run folder's path (str or os.PathLike), or None"}[key]
                raise ConfigError(f"{key} = {value!r}: expected {what}")
        # '~' is the home folder, as on the command line (the shell's, or cli's for a quoted one): from Python it
        # made a folder literally named '~' in the working folder
        out_dir, restart, init_from = (None if v is None else os.path.expanduser(v)
                                       for v in (out_dir, restart, init_from))
        if out_dir:  # a '~NOUSER' left (no user's): refused, as the command's --out ~NOUSER/x is
            files.check_no_user_tilde("out_dir", str(out_dir))
        if out_dir and os.path.exists(out_dir) and not os.path.isdir(out_dir):  # (FileExistsError from its mkdir)
            raise ConfigError(f"out_dir = {str(out_dir)!r}: exists and is not a folder; expected a folder to write the "
                              f"run into (or a path where one can be made)")
        if out_dir or restart or init_from:  # (a Simulation without files, scripts/step_variants.py's, needs no h5py)
            from distlbm.io.hdf5 import require_h5py

            require_h5py("a Simulation with an out_dir writes its checkpoints and field outputs, and reads a restart's "
                         "or init_from's checkpoint,")
        # a Simulation dropped in a sweep (`sim = Simulation(...)` again, `del sim`) is freed at once: what it owns
        # calls it through weak references (weakly). A cycle that a caller's code makes (a `log` or a replaced method
        # that refers back to the Simulation), or a write failed inside io.hdf5.write (its frames keep the error they
        # raise: clearing them crashed HDF5), still keeps one, and its arrays on the devices, until Python's own
        # collection: collected here, before this one allocates (~0.08 s), where the live arrays hold COLLECT_BYTES or
        # more (small lattices, a test suite's thousands of Simulations, do not pay it)
        if sum(a.nbytes for a in jax.live_arrays()) >= COLLECT_BYTES:
            gc.collect()
        run_checks(cfg)  # the geometry's scans a caller left (resolve(defer_checks=True)), before any allocation
        self.cfg = cfg
        self.setup = cfg.setup
        self.model = build_model(cfg)
        if "float64" in (self.model.dtype, self.model.compute_dtype):
            jax.config.update("jax_enable_x64", True)
        dec = cfg.decomposition
        self.domain = domain or make_domain(self.setup.shape, dec.mesh, dec.comm)
        # the warnings this run printed (summary.json's `warnings`, beside the settings'), the first KEPT_WARNINGS
        # (a week on a failing disk warns at every write), then how many more
        self.run_warnings, self._more_warnings = [], 0
        self._log = weakly(self._log_and_keep)
        self._user_log = log
        self._lock, self._lock_dir = None, None
        self._held_real: Optional[str] = None  # the folder's real path when it was held (_moved)
        # run() sets it before its first write (close(refused=True) withdraws the folder's lock until then)
        self.began_writing = False
        self._hold_folder(Path(out_dir) if out_dir else None)  # before any work: one run per folder at a time
        try:
            self._build(cfg, out_dir, restart, init_from, announce)
        except BaseException:
            # refused before anything was written (the geometry, the step, a restart's checkpoint): the folder's lock
            # file is left as it was found (a folder the command made is then empty again: it removes it), not an
            # ended record of a run that never ran, held until the object was collected
            self._release_folder(withdraw=True)
            raise

    def _log_and_keep(self, msg: str):
        """The run's log (the view's, the callbacks'): the caller's `log`, and a warning kept for the summary."""
        if msg.startswith("warning: ") and msg[9:] not in self.run_warnings:
            if len(self.run_warnings) < KEPT_WARNINGS:
                self.run_warnings.append(msg[9:])
            else:
                self._more_warnings += 1
        self._user_log(msg)

    def _build(self, cfg, out_dir, restart, init_from, announce=None):
        """The rest of __init__, once the folder is held: the lattice, the step, the state (new, a restart's or
        an --init-from's)."""
        dec = cfg.decomposition
        try:
            self.cells, self.kind = assemble_cells(self.model, self.setup.geometry, self.domain,
                                                   self.setup.cell_force())
        except ValueError as e:  # a case's geometry puts a boundary cell where it cannot be
            raise ConfigError(f"case {cfg.case.name}: {e}") from None
        try:
            self.step_path = step_path(self.model, dec.step)  # ('pallas' | 'xla', why)
        except ValueError as e:
            raise ConfigError(str(e)) from None
        # and its form on this block: whole array, A-B slabs or in place (xla); in place (AA) or A-B (pallas)
        form = step_form(self.model, self.step_path[0], self.domain.shape, self.domain.mesh_shape)
        self.step_path = (self.step_path[0], f"{self.step_path[1]}; {form}")
        self._advance = make_advance(self.model, self.domain, path=self.step_path[0])
        self.view = RunView(self.model, self.setup, cfg.params, self.domain, self.cells, self.kind,
                            compile_readers(self.model, self.domain), Path(out_dir) if out_dir else None,
                            self._log)
        self.view.case = cfg.case
        self._show_held()
        self.wall_time = 0.0
        self.steps_run = 0  # those of the last run() (timed: MLUPS)
        # every step this Simulation took, advance()'s and run()'s: summary.json's `steps` (it counted run()'s alone,
        # after an advance(k) whose steps the history, the drift and the observables count)
        self.steps_advanced = 0
        self.compile_s = 0.0
        self.status = "new"
        self.stopped_on = None  # what stopped the run ("SIGUSR1", "the wall-time limit ..."): summary, log.jsonl
        self.restored_from = None
        self.initialized_from: Optional[str] = None  # the checkpoint whose populations began this run
        self._initial: Optional[dict] = None  # the diagnostics at step 0 when this run started earlier
        self._last_check: Optional[dict] = None  # a checkpoint's latest check of the run (_last_check_record)
        self._end_step: Optional[int] = None  # the step this run goes to (kept in checkpoints)
        self._kept_end: Optional[int] = None  # a restart that sets no steps: the end of the run it continues
        self._sched_state: dict = {}
        # sample key -> the step after which its series is of the point the probes name now (a restart moved it):
        # the earlier records' values of it are left out of the summary's final values; kept in checkpoints
        self._series_after: dict = {}
        self._outputs_state: list = []
        self._light_state: list = []  # the light outputs' index (sub-box, slices), kept in checkpoints
        self._output: Optional[FieldOutput] = None
        self._callbacks: list[Callback] = []
        self._steady: Optional[cb.SteadyCheck] = None
        self._mach: Optional[cb.MachWatch] = None  # the local Mach numbers of the checks (set by run)
        self._mass: Optional[cb.MassWatch] = None  # the mass drift of the checks (set by run)
        self._mean_update = None  # the time average's compiled update (compiled at its first sample)
        self._advice: Optional[cb.CheckpointAdvice] = None  # said for a long run without periodic checkpoints
        self._failures: dict = {}  # failed writes in a row, of each kind (a checkpoint, a field output) and of all
        self.failed_writes: list = []  # the run's failed writes (step, what, message, whether it went on)
        self._steady_state: dict = {}
        self._watch_state: dict = {}  # a checkpoint's Mach and mass watches (the run's peaks before a restart)
        # the digests of the input files (a mask, STL bodies) as the set-up read them: kept in the checkpoints, a
        # restart whose file at the same path differs is refused (an edited mask was continued around other bodies)
        from distlbm.config import input_digests

        self._inputs = input_digests(cfg) if self.domain.process_index == 0 else None
        if self.domain.process_count > 1:  # process 0's, on every process: they all decide a restart alike
            self._inputs = self.domain.allgather_obj(self._inputs)[0]
        run_id = ckpt.new_run_id()  # checkpoints belong to one run; a restart continues the checkpoint's run
        if self.domain.process_count > 1:
            run_id = self.domain.allgather_obj(run_id)[0]
        self._steady_ref = None  # the steadiness reference field a restart's checkpoint holds
        self.checkpointer = Checkpointer(self.checkpoint_dir, run_id, cfg.checkpoint.checkpoint_keep,
                                         weakly(self._meta), size=weakly(self._checkpoint_bytes),
                                         extra=weakly(self._checkpoint_fields))
        if announce is not None:
            announce(self)
        if restart or init_from:
            self._restore(restart) if restart else self._init_from(init_from)
        else:
            self.state = State(self._initial_populations(), self.domain.replicate(np.zeros((), np.int32)))

    # ---- the state and its view ---------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The current state: f, the populations [Q, X, Y(, Z)] as deviations from the rest state, and step (JAX arrays
        on the devices). The step takes its input's buffers for its output (donated: one copy of the populations on the
        devices, not two), so an array read from `sim.state` before advance() or run() is deleted after it (JAX's "Array
        has been deleted"): copy what you keep first, `np.asarray(sim.state.f)` or `sim.fields()` (NumPy copies), or
        read `sim.state` again afterwards."""
        return self.view._state

    @state.setter
    def state(self, value: State):
        self.view.set_state(value)

    @property
    def step(self) -> int:
        return self.view.step

    @property
    def out_dir(self) -> Optional[Path]:
        return self.view.out_dir

    @out_dir.setter
    def out_dir(self, value):
        self.view.out_dir = Path(value) if value else None
        self.checkpointer.directory = self.checkpoint_dir
        if self._lock_dir != self.view.out_dir:  # held again by run()
            self._release_folder()

    def _hold_folder(self, folder: Optional[Path]):
        """Process 0 holds the output folder (io.lock: two runs in one folder replace each other's
        checkpoints), until this Simulation is gone or the process ends; every process agrees on the outcome:
        FolderInUse (one line, a configuration error) on all of them if another run holds it; a ConfigError where the
        folder cannot be used (not made, HDF5 cannot write there, its lock file unusable)."""
        if folder is None or self._lock_dir == folder:  # (_lock_dir on every process: they all agree here)
            return
        self._release_folder()
        error = warning = None
        in_use = False  # FolderInUse: another run holds it; any other refusal is a ConfigError of an unusable folder
        if self.domain.process_index == 0:
            try:
                flag = signals.process_flag()  # a stop signal ends a wait for the folder
                self._lock = folder_lock.acquire(folder, say=lambda msg, **_: self._log(msg),
                                                 stopped=lambda: bool(flag is not None and flag.requested))
                warning = self._lock.warning
            except ConfigError as e:  # (HDF5 cannot write there, the lock file unusable: not another run's hold,
                # which they were all said as, FolderInUse)
                error, in_use = str(e), isinstance(e, folder_lock.FolderInUse)
            except OSError as e:  # the folder cannot be made (a path through a file: NotADirectoryError from mkdir)
                error = (f"out_dir = {str(folder)!r}: cannot create or write the folder "
                         f"({e.strerror or type(e).__name__}); expected a writable folder")
        if self.domain.process_count > 1:
            error, in_use = next((x for x in self.domain.allgather_obj((error, in_use)) if x[0]), (None, False))
        if error is not None:
            self._release_folder()
            raise (folder_lock.FolderInUse if in_use else ConfigError)(error)
        try:  # one folder for every process: not a node-local /tmp under a job on several nodes
            files.check_shared(folder, self.domain)
        except ConfigError:
            self._release_folder(withdraw=True)  # refused before anything was written: the lock file as it was
            raise
        self._lock_dir = folder
        self._held_real = os.path.realpath(folder)  # (on every process: the line of a path that leads elsewhere now)
        self._show_held()
        if self._lock is not None:
            self._lock_finalizer = weakref.finalize(self, self._lock.release)
        if warning:
            self._log(f"warning: {warning}")

    def close(self, refused: bool = False):
        """Let go of the output folder (held from construction with `out_dir` until then, or the process's end;
        a run() on a folder set afterwards holds it while it runs). refused: the run was refused before it wrote
        anything (run() raised in its checks: an end step before the start, another run's checkpoints, no room
        for one checkpoint): its lock file is left as it was found (io.lock.FolderLock.withdraw), as a refused
        construction leaves it; ignored once run() began writing (`began_writing`)."""
        self._release_folder(withdraw=refused and not self.began_writing)

    def _release_folder(self, withdraw: bool = False):
        if self._lock is not None:
            self._lock.withdraw() if withdraw else self._lock.release()
        self._lock, self._lock_dir = None, None
        self._show_held()

    def _show_held(self):
        """The view's hold on the run's folder (process 0's lock, None elsewhere or where none is held): the writers
        make the folders below it, never the run's folder again (io.files.make_folder)."""
        if getattr(self, "view", None) is not None:  # (none yet while __init__ holds the folder)
            self.view.held = self._lock

    @property
    def run_id(self) -> str:
        return self.checkpointer.run_id

    @property
    def samples(self):
        return self.view.samples

    @property
    def history(self) -> list:
        return self.view.history

    @property
    def mass0(self):
        return self.view.mass0

    @mass0.setter
    def mass0(self, value):
        self.view.mass0 = value

    @property
    def checkpoint_dir(self) -> Path:
        return (self.out_dir or Path("out") / self.cfg.case.name) / "checkpoints"

    def log(self, msg: str):
        self.view.log(msg)

    def diagnostics(self) -> dict:
        """The current state's mass, momentum [D] and kinetic energy over the fluid cells (lattice units, every
        process's), with `finite` and `sane` (every density finite and in range) and the largest speed."""
        return self.view.diagnostics()

    def mass_drift(self) -> float:
        """The relative change of the mass since step 0 of this run (0.0 before its first step)."""
        return self.view.mass_drift()

    def fields(self, dtype="float32"):
        """(rho [X, Y(, Z)], u [D, X, Y(, Z)]) of the current state, lattice units, as NumPy arrays of `dtype`: the
        whole lattice gathered into this process (every process under mpiexec; small lattices). dtype: 'float32',
        'float64' or 'float16' (or the NumPy dtype); another is one ConfigError ('float7' was NumPy's TypeError from
        inside the gather, 'int32' cut the fields to whole numbers, unsaid)."""
        takes = ("float32", "float64", "float16")
        try:
            ok = not isinstance(dtype, (type(None), int, float)) and np.dtype(dtype).name in takes
        except (TypeError, ValueError, SyntaxError):  # (NumPy's, for a string it cannot read)
            ok = False
        if not ok:
            raise ConfigError(f"fields: dtype = {dtype!r}: expected one of 'float32' (the default), 'float64', "
                              f"'float16' (or the NumPy dtype)")
        return self.view.fields(dtype)

    def probe(self, points) -> dict:
        """rho [N] and u [D, N] (lattice units) at the cells `points`: [N, D] lattice indices, or one point [D].
        A point outside the lattice or not of whole indices is one ConfigError (the gather clamps: a cell outside
        gave another cell's values, unsaid; [1.5, 2] the cell (1, 2))."""
        shape = tuple(self.setup.shape)
        d = len(shape)
        try:
            arr = np.asarray(points, dtype=float)
        except (TypeError, ValueError):
            arr = None
        if arr is None or not (arr.ndim == 2 and arr.shape[1] == d or arr.shape == (d,)):
            raise ConfigError(f"probe: point {points!r}: not cells of the lattice of {' x '.join(map(str, shape))} "
                              f"cells; expected [N, {d}] lattice indices (or one point [{d}])")
        arr = arr.reshape(-1, d)
        for row in arr:
            if not all(math.isfinite(v) and v.is_integer() and 0 <= v < n for v, n in zip(row, shape)):
                pt = tuple(int(v) if math.isfinite(v) and v.is_integer() else float(v) for v in row)
                top = ", ".join(str(n - 1) for n in shape)
                raise ConfigError(f"probe: point {pt} is not a cell of the lattice of {' x '.join(map(str, shape))} "
                                  f"cells; expected whole lattice indices from 0 to {top}")
        return self.view.probe(arr.astype(np.int64))

    def forces(self) -> np.ndarray:
        """[bodies, D]: the force of the fluid on each body (ids 1, 2, ... of the case's geometry; lattice units),
        momentum exchange over every process; [0, D] for a case without bodies."""
        return self.view.forces()

    def advance(self, n: int):
        """n steps and nothing else (no output, checks or records: README "From Python"). The first from a new run's
        step 0 notes its diagnostics, as run() does, so that mass_drift() and a later run()'s drift and observables
        count from step 0 (mass_drift() said 0.0 after it). advance(0) steps nothing and notes nothing: run() notes step
        0 itself (it listed step 0 twice in its history after one). n: an integer, 0 or more (ConfigError otherwise).
        An array read from `sim.state` before it is deleted after it (the step's input is donated: `state`)."""
        from distlbm.config import INT32_MAX

        known = self.view.step  # (on the host after an advance(): no wait for the steps under way)
        most = INT32_MAX - known
        n = step_argument("advance", "n", n, f"a number of steps, an integer from 0 to {most} (the step counter is "
                          f"int32, at step {self.view.step})", most)
        if self.mass0 is None and n > 0:
            d0 = self.view.diagnostics()
            self.mass0 = d0["mass"]
            if not self.history and self.view.step == 0:
                self.view.add_check({"step": 0, **d0, "wall": 0.0})
        # n as a NumPy scalar: jnp.int32(n) was a device conversion, one more program compiled in every process
        self.view.set_state(self._advance(self.state, self.cells, np.int32(n)), step=known + n)
        self.steps_advanced += max(int(n), 0)

    def _initial_populations(self):
        from distlbm.config import (initial_block, initial_has_gradient, lowest_initial, negative_initial_error,
                                    pick_lowest)

        model = self.model
        # a case that starts from a velocity gradient (Taylor-Green) may start from negative populations at a large
        # tau (taylor_green2d at re = 0.08, tau 96.5: garbage, or a blow-up at the first check): refused, exit 2
        scan = initial_has_gradient(self.cfg)
        worst = []

        def block(index):
            g = initial_block(self.cfg, index)
            if scan:
                worst.append(lowest_initial(self.cfg, index, g))
            return g

        f = self.domain.make_field(block, (model.lattice.q,), np.dtype(model.dtype), by_slabs=True)
        if scan:  # (every process's blocks: all refuse together)
            found = pick_lowest(self.domain.allgather_obj(pick_lowest(worst)))
            if found is not None:
                raise negative_initial_error(self.cfg, found)
        return f

    # ---- checkpoints -----------------------------------------------------------------------------------
    def _meta(self, view: RunView) -> dict:
        return {"step": view.step, "time": view.time, "config": self.cfg.as_dict(),
                "lattice": self.model.lattice.name, "shape": list(self.setup.shape), "dtype": self.model.dtype,
                "mass0": view.mass0, "initial": self._initial_record(), "end_step": self._end_step,
                "last_check": self._last_check_record(view.step),
                "schedules": {c.name: c.schedule.state() for c in self._callbacks},
                "steady": self._steady.state() if self._steady is not None else None,
                "outputs": self._output.index if self._output is not None else None,
                "light_outputs": self._output.light_index if self._output is not None else None,
                "checkpoint_write_s": self.checkpointer.write_s,
                # the peaks of the local Mach number and the mass drift so far (summary.json's, the run's)
                "watches": {"mach": self._mach.report() if self._mach is not None else None,
                            "mass": self._mass.report() if self._mass is not None else None,
                            # the first check past the Mach limit, which a blow-up's message names (RunView)
                            "first_past_mach": self._first_past_mach(view)},
                "inputs": self._inputs or None,  # the input files' digests (a restart compares them)
                # sample key -> the step after which its series is of the point the probes name now (a restart
                # moved it): the samples up to that step are another point's, left out of the final values
                "series_after": dict(self._series_after) or None,
                # a probe within a cell of a wall or body reads its pressure from the fluid cells alone (stop 39; the
                # solid cells' p = 0 halved it before): a restart of an older run cuts those series (restart_sampling)
                "probe_pressure": "fluid",
                # the time average (dataset 'mean' beside f): how many samples it holds
                "average": {"samples": view.mean_samples, "first_step": view.mean_first}
                if view.mean is not None else None}

    @staticmethod
    def _first_past_mach(view: RunView) -> Optional[dict]:
        """The run's first check past the Mach limit up to this step, for a checkpoint (the keys its message reads)."""
        first = view.first_past_mach(view.step + 1)
        return None if first is None else {k: first[k] for k in ("step", "finite", "u_max_local", "u_max_at")}

    def _initial_record(self) -> Optional[dict]:
        """The diagnostics of step 0 (kept in checkpoints: a restart's observables, such as a decay's
        E(t)/E(0) or its initial dissipation, still see the run's start)."""
        if self._initial is not None:
            return {k: v for k, v in self._initial.items() if k != "restored"}
        h0 = self.history[0] if self.history else None
        if h0 is None or h0.get("step") != 0:
            return None
        return {k: v for k, v in h0.items() if k != "wall"}

    def _last_check_record(self, step: int) -> Optional[dict]:
        """The run's latest check at or before `step` after step 0 (kept in checkpoints: a restart between two checks
        goes on from it, as the run did, not from its own first step: the cavity's steadiness rate over the last two
        checks), without those the uninterrupted run has not (off_schedule: a restart's own first step, a stop's)."""
        for h in reversed(self.history):
            if 0 < h.get("step", 0) <= step and not h.get("off_schedule"):
                return {k: v for k, v in h.items() if k != "wall"}
        return None

    def save_checkpoint(self) -> Path:
        """Write a verified-sane checkpoint of the current state (InstabilityError or WriteError if not)."""
        try:
            self._check_held()
            return self.checkpointer(self.view)
        except WriteError:
            self.status = "write_failed"
            raise

    def _check_held(self):
        """WriteError (on every process) where the output folder is no longer the one this run holds: moved or
        removed while the run wrote to it. Before, the next write made the folder again at its path and the run
        went on there: its checkpoints and outputs in a new folder without its lock (another run could start in it)
        or its log, its XDMF series naming outputs left in the old one, its old checkpoints never pruned."""
        where = self._lock.moved() if self._lock is not None else None
        if self.domain.process_count > 1:
            where = self.domain.allgather_obj(where)[0]
        if where is not None:
            raise self._moved(where)

    def _moved(self, where: str, then: Optional[str] = None) -> WriteError:
        """The WriteError of a folder moved (`where`: where it is now) or removed ('') while the run held it (the
        writers' own, io.files.make_folder: a write that passed this check just before the folder went)."""
        return files.moved_error(self.out_dir, where, then, self._held_real)

    def check_folder(self):
        self.checkpointer.refuse_foreign(self.view, restart=self.restored_from is not None)

    def remove_interrupted_writes(self):
        """Before the space is checked (process 0, which holds the folder: no other run writes there): the
        temporaries that a write killed midway left (SIGKILL after a scheduler's grace, a node failure), each as
        large as its file, are removed and said. They were left for ever: in a Slurm chain whose jobs were killed
        while writing, one more per job, until the quota was full and the chain stopped with exit 74."""
        if self.out_dir is None or self._lock_dir != self.out_dir:  # only in a folder this run holds
            return
        if self.domain.process_index == 0:
            removed, freed, failed = files.remove_interrupted_writes(results.numbered_folders(self.out_dir))
            if removed:
                names = ", ".join(str(p) for p in removed[:3]) + (f" and {len(removed) - 3} more" if len(removed) > 3
                                                                   else "")
                self.log(f"note: removed {len(removed)} temporary file(s) of writes that were interrupted (the run "
                         f"was killed while writing), {files.size_text(freed)}: {names}")
            for line in failed:
                self.log(f"warning: a temporary file of an interrupted write could not be removed: {line}")
        if self.domain.process_count > 1:
            self.domain.barrier()  # the space is checked after the removal, on every process

    def check_checkpoint_space(self, start: int, end: int):
        """Before any step: WriteError if the file system of the checkpoint folder cannot hold one checkpoint, a
        warning if it cannot hold those kept at once (driver.space.check_checkpoint_space)."""
        self._checkpoint_where = files.existing_folder(self.checkpoint_dir)  # (made at the first checkpoint)
        space.check_checkpoint_space(self.cfg.checkpoint, self._checkpoint_bytes(), self.domain, self.checkpointer,
                                     self.checkpoint_dir, self._checkpoint_where, start, end, self.log)

    def _checkpoint_bytes(self) -> int:
        """The data of one of this run's checkpoints (driver.space.checkpoint_size)."""
        return space.checkpoint_size(self.cfg, self.model, self.setup.shape)

    def _checkpoint_fields(self, view) -> Optional[dict]:
        """The lattice fields a checkpoint stores beside the populations (ckpt.EXTRA_FIELDS)."""
        extra = {}
        if view.mean is not None:
            extra["mean"] = view.mean
        if self._steady is not None and self._steady.reference() is not None:
            extra["steady_ref"] = self._steady.reference()
        return extra or None

    def check_output_space(self, start: int, end: int) -> Optional[str]:
        """Before any step, on process 0: a warning (returned too) when the field outputs this run will write and the
        checkpoints it keeps need more than the free space of the output folder's file system
        (driver.space.output_space_warning)."""
        out = self.cfg.output
        if self.out_dir is None or not (out.output_every or out.output_interval) or self.domain.process_index != 0:
            return None
        msg = space.output_space_warning(self.cfg, self.model, self.setup, self.view.kind is not None, self.out_dir,
                                         self._checkpoint_bytes(), start, end)
        if msg:
            self.log(f"warning: {msg}")
        return msg

    def _restore(self, spec: str):
        candidates = ckpt.resolve_restart(spec, self.checkpoint_dir)
        if spec == "latest":
            for odd in ckpt.odd_entries(self.checkpoint_dir):
                self.log(f"warning: {odd} is not a regular file (a folder or a FIFO): ignored")
        lat = self.model.lattice

        def read(path):  # its settings, then its own data against its metadata and this lattice (a damaged file)
            meta = ckpt.read_meta(path)
            moved = self.cfg.check_restart(meta, path, inputs=self._inputs)
            ckpt.check_against(meta, path, lat.q, self.setup.shape, self.model.dtype)
            f, meta = ckpt.load(path, self.domain, self.model.dtype)
            return f, meta, moved, self._load_mean(path, meta), self._load_steady_ref(path, meta)

        path, (f, meta, moved, mean, steady_ref), skipped = ckpt.walk(candidates, read)
        for line in skipped:
            self.log(f"warning: {line}")
        unverified = legacy_warning(path, meta)
        if unverified:
            self.log(f"warning: {unverified}")
        self.state = State(f, self.domain.replicate(np.asarray(meta["step"], np.int32)))
        self.view.mean = mean
        self.view.mean_samples = int(meta["average"]["samples"]) if mean is not None else 0
        first = (meta.get("average") or {}).get("first_step") if mean is not None else None
        self.view.mean_first = int(first) if isinstance(first, int) else None  # (older checkpoints: unknown)
        self.mass0 = meta.get("mass0")
        initial = meta.get("initial")  # the run's diagnostics at step 0 (E(0) of a decay): history goes on
        self._initial = dict(initial, restored=True) if isinstance(initial, dict) else None
        last = meta.get("last_check")  # the run's latest check (a restart between two: the one before it)
        self._last_check = dict(last) if isinstance(last, dict) and isinstance(last.get("step"), int) else None
        self._sched_state = meta.get("schedules") or {}
        self._outputs_state = meta.get("outputs") or []
        self._light_state = [e for e in (meta.get("light_outputs") or []) if isinstance(e, dict)]
        self._steady_state = meta.get("steady") or {}
        self._watch_state = meta.get("watches") or {}
        first = self._watch_state.get("first_past_mach")  # (None in an older checkpoint: the restart's own checks)
        self.view.first_fast = dict(first) if isinstance(first, dict) and isinstance(first.get("step"), int) \
            and past_mach(first) else None
        self._steady_ref = steady_ref
        self.checkpointer.run_id = meta.get("run_id") or ckpt.LEGACY_RUN
        self.checkpointer.last_step, self.checkpointer.last_path = int(meta["step"]), Path(path)
        write_s = meta.get("checkpoint_write_s")
        if isinstance(write_s, (int, float)) and math.isfinite(write_s) and write_s > 0:
            self.checkpointer.write_s = float(write_s)
        self.restored_from = str(path)
        self.log(f"restarted from {path} at step {meta['step']}")
        for line in moved:
            self.log(f"input file {line}")
        self._continue(meta)
        # (a restart that ends before that step, --steps N, does not reach it: nothing to say)
        blown = self._blown_up_warning(int(meta["step"]), meta.get("run_id"), path)
        if blown:
            self.log(f"warning: {blown}")

    def _blown_up_warning(self, step: int, run_id, path) -> Optional[str]:
        """driver.restart.blown_up_warning of this run's folder, read on process 0 (the others say nothing)."""
        if self.domain.process_index != 0:
            return None
        end = self.cfg.control.steps or self._kept_end or self.setup.steps
        return blown_up_warning(self.view.out_dir, run_id, step, end, path)

    def _load_mean(self, path, meta: dict):
        """The time average a checkpoint holds (None without one, or where this restart starts it again, said:
        driver.restart.mean_starts_again). CheckpointError where it is not of this lattice."""
        if "_mean" not in meta or not isinstance(meta.get("average"), dict):
            return None
        why = mean_starts_again(self.cfg, meta, path, self.model.compute_dtype)
        if why:
            self.log(f"note: {why}")
            return None
        return ckpt.load_mean(path, self.domain, meta)

    def _steady_done(self, step: int) -> bool:
        """Whether the run a restart continues stopped at `step` because it was steady, by a test this run still
        applies (said): a restart of a finished steady run ran one more interval and stopped "steady" again."""
        why = steady_done(self._steady_state, self.cfg.control.steady_tol, step)
        if why:
            self.log(why)
        return why is not None

    def _load_steady_ref(self, path, meta: dict):
        """The velocity field of the last steadiness check a checkpoint holds (None without one, or where it is not
        this run's D components on its lattice: the restart then takes its own state as the reference)."""
        if "_steady_ref" not in meta:
            return None
        shape, dtype = meta["_steady_ref"]
        if shape != [len(self.setup.shape)] + [int(n) for n in self.setup.shape]:
            return None
        return ckpt.load_extra(path, "steady_ref", self.domain, meta)

    def _init_from(self, spec: str):
        """The initial populations from a checkpoint of another run (a file, or a run folder or checkpoint folder:
        its newest good checkpoint), at step 0 of this new run with this run's physics. Only the populations are
        taken: not the step, schedules, outputs or run id. CheckpointError (one line) if none fits."""
        lat = self.model.lattice

        def read(path):
            ckpt.check_against(ckpt.read_meta(path), path, lat.q, self.setup.shape, self.model.dtype, convert=True)
            return ckpt.load(path, self.domain, self.model.dtype)

        try:
            path, (f, meta), skipped = ckpt.walk(ckpt.init_candidates(spec), read)
        except ckpt.CheckpointError as e:
            raise ckpt.CheckpointError(ckpt.named(str(e), "--init-from", spec)) from None
        for line in skipped:
            self.log(f"warning: {line}")
        self.state = State(f, self.domain.replicate(np.zeros((), np.int32)))
        self.initialized_from = str(path)
        self.log(init_from_line(path, meta, self.model.dtype))
        other = other_case(path, meta, self.cfg.case_key)
        if other:
            self.log(f"warning: {other}")

    def _continue(self, meta: dict):
        """What this restart takes from the run it continues (driver.restart.continued): the settings it does not give
        itself, the sample series its probes end or move, the end step where it sets none; said."""
        self.cfg, lines, self._series_after, end = continued(self.cfg, meta)
        if end is not None:
            self._kept_end = end
        self.checkpointer.keep = self.cfg.checkpoint.checkpoint_keep  # (a kept checkpoint_keep)
        for line in lines:
            self.log(line)

    def _earlier_results(self, start_step: int, end: Optional[int] = None):
        """Before the run writes into its folder: process 0, which holds it, sets the results of another run there
        aside, or keeps those of the run this restart continues up to its step (driver.restart.earlier_results).
        Every process agrees: WriteError on all of them if it cannot be done."""
        if self.out_dir is None:
            return
        error = None
        if self.domain.process_index == 0:
            try:
                earlier_results(self.out_dir, self.checkpoint_dir, self.run_id, self.restored_from, self._sched_state,
                                self.samples_enabled, start_step, end, self.log)
            except WriteError as e:
                error = e
        try:
            if self.domain.process_count > 1 and self.domain.any_process(error is not None):
                raise error or WriteError(self.out_dir, "its earlier results could not be set aside on process 0")
            if error is not None:
                raise error
        finally:  # (this frame holding the error its traceback holds: a cycle that kept the Simulation alive)
            error = None

    def _keep_outputs_here(self):
        """The field outputs of the run so far (from the checkpoint) that lie in this output folder: a restart
        into another folder listed the earlier ones in its fields.xdmf, files that are not there (ParaView then
        fails to open the series). Decided on process 0, which writes the XDMF."""
        whole, light = self._outputs_state, self._light_state
        if not (whole or light):
            return
        if self.domain.process_index == 0:
            whole, light = outputs_here(self.out_dir, whole, light)
        if self.domain.process_count > 1:
            whole, light = self.domain.allgather_obj((whole, light))[0]
        gone = len(self._outputs_state) + len(self._light_state) - len(whole) - len(light)
        if gone:
            self.log(outputs_gone_line(gone, self.out_dir))
        self._outputs_state, self._light_state = whole, light

    # ---- samples -------------------------------------------------------------------------------------
    @property
    def samples_enabled(self) -> bool:
        return samples_on(self.model, self.setup)

    def _moved_series_dropped(self, rec: dict) -> dict:
        """A record read back at a restart without the series of a moved probe point up to its restart (they
        begin after it; said there)."""
        for key, after in self._series_after.items():
            if rec.get("step", 0) <= after:
                rec.pop(key, None)
        return rec

    def sample(self) -> dict:
        """One record of the forces and probes the case defines (the case turns it into its quantities)."""
        return cb.Sampler(self.cfg.case.quantities)(self.view)

    # ---- the loop --------------------------------------------------------------------------------------
    def _make_callbacks(self, end: int, start_step: int, logs: dict) -> list[Callback]:
        """The callbacks of this run in firing order; their counters restored from a checkpoint."""
        ctl, out, chk = self.cfg.control, self.cfg.output, self.cfg.checkpoint
        dt = self.setup.units.get("dt", 1.0)
        progress_every = ctl.progress_every or max(1, (end or 1) // 20)
        progress = self._progress = cb.Progress(start_step, end, logs["log"], steady_stop=ctl.steady_tol > 0)
        guard = self.checkpointer
        cbs = []
        if self.samples_enabled:
            every = ctl.sample_every or self.setup.sample_every or progress_every
            kept, read = (self._sched_state.get("sample") or {}).get("every"), ""
            if kept is None and self.restored_from:
                # a checkpoint written before the interval was kept in it: the interval of the run's samples
                kept, read = cb.sample_interval(self.samples), " (read from its samples.jsonl)"
            if (self.restored_from and isinstance(kept, int) and kept > 0 and kept != every
                    and not {"sample_every", "sample_dt"} & self.cfg.given):
                # a default cadence follows the end step (~200 samples per run): a restart that ran to a later
                # end sampled at another interval from there on, an uneven series (steps 1990, 2000, 2004, 2016)
                self.log(f"samples every {kept} steps, as the run this restart continues{read} (its default here "
                         f"would be every {every}; give sample_every or sample_dt to change it)")
                every = kept
            cbs.append(Callback("sample", IterationInterval(every), cb.Sampler(self.cfg.case.quantities,
                                                                                logs["samples"])))

        self._mach = cb.MachWatch.of(self.cfg.case, self.cfg.params, start_step, logs["log"])

        self._mass = cb.MassWatch(cb.MASS_DRIFT_MAX, start_step, logs["log"], self._mass_hint())
        if self.restored_from:
            self._mach.restore(self._watch_state.get("mach"))
            self._mass.restore(self._watch_state.get("mass"))

        check = weakly(self._check)
        cbs.append(Callback("check", IterationInterval(ctl.check_every), lambda view: check(view, guard, logs["log"])))
        # the default progress: every 1/20 of the run, and at least every PROGRESS_WALL seconds (a week's run on a
        # big lattice went hours between lines, and `distlbm status` showed none for them)
        every = (IterationInterval(progress_every) if ctl.progress_every
                 else StepsOrWall(progress_every, PROGRESS_WALL))
        cbs.append(Callback("progress", every, lambda view: progress(view, view.history[-1])))
        self._advice = None
        # (a Simulation without out_dir writes no checkpoint: they went to out/CASE/checkpoints, a folder it does not
        # hold; run() said so)
        files_here = self.out_dir is not None
        self._periodic_checkpoints = bool(chk.checkpoint_every or chk.checkpoint_wall) and files_here
        if not self._periodic_checkpoints and files_here:
            self._advice = cb.CheckpointAdvice(start_step, end, logs["log"])
        if self._output is not None and out.average_every:  # before the output of the same step
            cbs.append(Callback("average", IterationInterval(out.average_every), weakly(self._average)))
        if self._output is not None:
            if out.output_every:
                cbs.append(Callback("output", IterationInterval(out.output_every), weakly(self._write_output)))
            if out.output_interval:
                cbs.append(Callback("output_time", TimeInterval(out.output_interval, dt), weakly(self._write_output)))
        if chk.checkpoint_every and files_here:
            cbs.append(Callback("checkpoint", IterationInterval(chk.checkpoint_every), weakly(self._checkpoint)))
        if chk.checkpoint_wall and files_here:
            cbs.append(Callback("checkpoint_wall", WallTimeInterval(chk.checkpoint_wall), weakly(self._checkpoint)))
        self._steady = None
        if ctl.steady_tol > 0:  # first: a steady stop makes the reports of the same step final
            every = ctl.steady_every or self.setup.steady_every or progress_every
            self._steady = cb.SteadyCheck(ctl.steady_tol, float(self.setup.u_max), every, logs["log"],
                                          blowup=lambda view: cb.guard(view, guard, logs["log"]))
            self._steady.load(self._steady_state, self._steady_ref)
            cbs.insert(0, Callback("steady", IterationInterval(every), self._steady))
        for c in cbs:
            c.schedule.load(self._sched_state.get(c.name, {}))
        return cbs

    def _check(self, view, guard: Checkpointer, log: JsonLog):
        """The check callback: the diagnostics (a blow-up raised by cb.guard), the history's record, the watches."""
        diag = cb.guard(view, guard, log)
        view.add_check({"step": view.step, **diag, "wall": time.perf_counter() - self._t0})
        # the watches as before this check: a check off the schedule (a stop's) gives them back (fire())
        self._watches_before = (view.step, [dict(vars(w)) for w in (self._mach, self._mass)])
        self._mach(view, diag)
        self._mass(view, diag)

    def _mass_hint(self) -> str:
        """What moves the mass of this configuration, for the warning of a large mass drift (cb.MassWatch)."""
        feats, params = self.setup.features, self.cfg.params
        hints = []
        if feats is not None and feats.outflow:
            if any(p.name == "outlet" for p in self.cfg.case.params):  # the built-in channels' setting
                hints.append("the outflow fixes no pressure level (outlet = 'zero_gradient' or 'convective'): with "
                             "a pressure drop the mean density drifts; prefer outlet = 'pressure'")
            else:  # a case of one's own (examples/square_channel.py) has no such setting: it was named all the same
                hints.append("the outflow fixes no pressure level (a zero-gradient or convective outflow): with a "
                             "pressure drop the mean density drifts; prefer an outlet of fixed pressure "
                             "(bc.outlet_kind)")
        if feats is not None and feats.inlets and params.get("init") == "rest" and not params.get("ramp"):
            hints.append("the inflow starts at full speed from rest and sends a pressure wave through the channel; "
                         "set a start-up ramp (ramp = seconds) or init = 'profile'")
        if not hints:
            open_faces = feats is not None and (feats.inlets or feats.outlets or feats.outflow)
            hints.append("the pressure drop along the channel is that large a share of the density: lower the "
                         "lattice velocity or raise the resolution" if open_faces else
                         "a closed or periodic lattice keeps its mass to round-off: this points at a boundary that "
                         "loses mass or an instability starting")
        return "; ".join(hints)

    def _average(self, view):
        """One sample of the time average of rho and u (from average_from on): a running mean on the devices,
        mean += (m - mean) / n, pointwise (the same bits on any mesh and process count)."""
        if view.step < self.cfg.output.average_from:
            return
        cdt = np.dtype(self.model.compute_dtype)
        d = len(self.setup.shape)
        if view.mean is None:
            lead = (average_values(self.cfg.output, d),)
            view.mean = self.domain.make_field(
                lambda index: np.zeros(lead + tuple(sl.stop - sl.start for sl in index), cdt), lead, cdt,
                by_slabs=True)
            view.mean_samples = 0
            view.mean_first = view.step
        if self._mean_update is None:
            model = self.model

            stresses = self.cfg.output.average_stresses

            def update(mean, f, w, field):
                rho, u = macroscopic(f, model, field)
                parts = [rho[None], u]
                if stresses:  # u_i u_j, i <= j: xx, xy(, xz), yy(, yz, zz)
                    parts += [(u[i] * u[j])[None] for i in range(d) for j in range(i, d)]
                return mean + (jnp.concatenate(parts) - mean) * w

            self._mean_update = jax.jit(update, donate_argnums=0)
        n = view.mean_samples + 1
        view.mean = self._mean_update(view.mean, view.state.f, np.asarray(1.0 / n, cdt), view.force_field)
        view.mean_samples = n

    def _checkpoint(self, view):
        if self.checkpointer.last_step != view.step:
            if self._attempt(view, "checkpoint", lambda v: self.save_checkpoint()) and self._lock is not None:
                self._lock.keep_for(self.checkpointer.write_s)  # a write of minutes is quiet that long

    def _write_output(self, view):
        if not self._output.written(view.step):
            # the state verified first, as a checkpoint's: a blown-up run wrote outputs of NaN for up to 1/20 of
            # its steps (until the next progress line's check) and listed them in the series
            cb.guard(view, self.checkpointer)
            self._attempt(view, "field output", lambda v: (self._check_held(), self._output.write(v)))

    def _attempt(self, view, what: str, write: Callable) -> bool:
        """A write during the run (`what`: a periodic checkpoint or a field output) whose failure need not end
        it: a failure on any process (agreed by all) is said on one line, recorded (log.jsonl `write_failed`,
        summary.json `failed_writes`), and the run goes on with its state in memory, trying again at its next
        write. `max_failed_writes` failures in a row, of every write or of one kind's (`what`), end the run
        (WriteError, exit 74), after a checkpoint of its state where one can still be written: a write of the other
        kind that goes through does not reset one kind's count (it did: field outputs failing on a full disk between
        checkpoints that went through, or checkpoints failing beside outputs, never stopped the run), and where both
        kinds fail (a folder moved away) the run stops at the third failure, as before. Before, the first failed
        write ended the
        run, and a file system's hiccup at a periodic checkpoint lost everything computed since the last one.
        Returns whether it was written."""
        error = None
        try:
            write(view)
        except WriteError as e:
            if not hasattr(e, "context"):
                self.checkpointer.failed(view, e, f"{what} at step {view.step} not written")
            error = e
        if not self.domain.any_process(error is not None):
            self._failures[what] = self._failures[None] = 0
            return True
        if error is None:  # this process's part went through; the line is process 0's
            error = WriteError(view.out_dir or ".", "the write failed on another process")
            self.checkpointer.failed(view, error, f"{what} at step {view.step} not written")
        self._failures[what] = self._failures.get(what, 0) + 1
        self._failures[None] = self._failures.get(None, 0) + 1  # every write's in a row, whatever its kind
        failures = max(self._failures[what], self._failures[None])
        limit = self.cfg.checkpoint.max_failed_writes
        self.failed_writes.append({"step": view.step, "what": what, "message": error.context,
                                   "went_on": failures < limit})
        if failures >= limit:
            saved = ""
            if what != "checkpoint" and self.checkpointer.last_step != view.step:
                try:  # the state in memory is worth more than the outputs that failed: keep it if possible
                    self.save_checkpoint()
                    saved = f"; the state of step {view.step} is kept in {self.checkpointer.last_path}"
                except WriteError:
                    pass
            count = (f"{failures} failed writes in a row (max_failed_writes = {limit})" if limit > 1 else
                     "max_failed_writes = 1: the first failed write stops the run")
            error.context = f"{error.what}: {error}; {count}{saved or '; ' + self.checkpointer.last_good()}"
            self.status = "write_failed"
            try:
                raise error
            finally:  # (this frame's `error` and the traceback through this frame: a cycle, see below)
                error = None
        self.status = "running"
        then = (f"the run goes on with its state in memory and tries again at its next {what} ({failures} of "
                f"the {limit} failed writes in a row that stop it: max_failed_writes)")
        self.log(f"warning: {error.context}; {then}")
        self._log_failure(view, error, then, went_on=True)
        # the caught error's traceback holds this frame, which holds the error: a reference cycle through the frames
        # of the write (the view, the Simulation) that kept a dropped Simulation's arrays until Python's collection
        error = None
        return False

    def _log_failure(self, view, error: WriteError, then: str, went_on: bool = False):
        """A failed write's record in log.jsonl (`distlbm status` shows it): what failed and what the run did."""
        log = self.checkpointer.log
        if log is not None:
            log.write({"event": "write_failed", "step": view.step,
                       "message": f"{getattr(error, 'context', error)}; {then}", "went_on": went_on})

    def _stop_reason(self, why: str | None) -> str | None:
        """The reason to stop that every process agrees on (a small collective): this process's, else the first
        process's that has one, named with it. Agreeing on a flag alone left process 0, which says it, with "a
        signal on another process" where mpirun had passed SIGUSR1 to another rank first."""
        if self.domain.process_count == 1:
            return why
        seen = self.domain.allgather_obj(why)
        if why is None:
            k = next((k for k, w in enumerate(seen) if w is not None), None)
            why = None if k is None else f"{seen[k]} (received by process {k})"
        return why

    def _fire(self, step: int, wall: float, final: bool = False, end: bool = False,
              only_final: bool = False) -> Optional[str]:
        """Fire the callbacks due at `step`, in order (all the reports at the last step or a stop). A
        callback that returns a reason asks the run to stop here: the later ones then fire as final.
        At the run's `end` step the field output is written whether or not its schedule falls there (before
        the checkpoint, whose index then holds it): `--steps 20 --output-every 7` wrote 0, 7 and 14, not
        the final state. `only_final`: the reports of a stop alone, at a step whose callbacks have fired (the
        time average's sample, say, must not be taken twice). Returns that reason, or None."""
        due = set() if only_final else {c.name for c in self._callbacks if c.schedule.due(step, wall)}
        if end:
            due.update(c.name for c in self._callbacks if c.name in ("output", "output_time"))

        def make_final():
            due.add("progress")
            if self.samples_enabled and (not self.samples or self.samples[-1]["step"] != step):
                due.add("sample")

        scheduled = bool({"check", "progress"} & due)  # (a stop's or an end's check alone: off the schedule)
        if final:
            make_final()
        fired_step, fired = getattr(self, "_fired", (None, set()))
        done = fired if only_final and fired_step == step else set()
        due -= done  # (a progress line already written at this step is not written twice)
        stop = None
        for c in self._callbacks:
            if "progress" in due and "check" not in done:
                # the progress line reports the diagnostics the check computes; a check that ran at this step is not
                # run again for a stop's progress line (its history record, Mach and mass watches were doubled)
                due.add("check")
            if c.name in due:
                reason = c(self.view)
                if isinstance(reason, str) and stop is None:
                    stop = reason
                    make_final()
        for c in self._callbacks:
            if c.name in due:
                c.schedule.fired(step, wall)
        if "check" in due and not scheduled and self.history and self.history[-1]["step"] == step:
            # the check of a stop's or an end's progress line (a signal, the wall time, a steady stop) between two of
            # the run's: the uninterrupted run has none there (a restart goes on from the one before:
            # _last_check_record)
            self.history[-1]["off_schedule"] = True
            # and its Mach and mass peaks likewise: the watches go on as the uninterrupted run's, in the stop's
            # checkpoint and summary (they kept it: a Slurm chain's mach_local was that of a wall-time stop's step)
            before_step, before = getattr(self, "_watches_before", (None, None))
            if before_step == step:
                for w, saved in zip((self._mach, self._mass), before):
                    vars(w).update(saved)
        self._fired = (step, due | (fired if fired_step == step else set()))
        return stop

    def _go_on_from_python(self, end: int, restart: bool = True) -> str:
        """How a stopped run() called from Python goes on, in a Python user's words (`distlbm run` says
        'resubmit with --restart latest'): a new Simulation on the same out_dir, from its latest checkpoint."""
        again = ", restart='latest'" if restart else ""
        return f"Simulation(cfg, out_dir={str(self.out_dir)!r}{again}).run({end}) goes on"

    def run(self, steps: Optional[int] = None) -> dict:
        """Run to step `steps` (absolute; default: the configured or the case's number of steps). The output folder is
        held while it runs (io.lock: FolderInUse if another run holds it). A `steps` before the current step is refused
        (ConfigError): it is not a count of steps to run. An array read from `sim.state` before it is deleted after it
        (the step's input is donated: `state`)."""
        if steps is not None:
            from distlbm.config import INT32_MAX

            steps = step_argument("run", "steps", steps, f"the step to run to (absolute), an integer from 0 to "
                                  f"{INT32_MAX} (the step counter is int32), or None for the configured end", INT32_MAX)
            start = self.view.step
            if steps < start:  # run(300) after advance(500) returned 'complete' at step 500, having run nothing
                raise ConfigError(f"run({steps}): steps = {steps}: the step to run to (absolute), not a count, is "
                                  f"before step {start}, where this run is; expected {start} or more (to run {steps} "
                                  f"more steps: run({start + steps}))")
        took = self.out_dir is not None and self._lock_dir != self.out_dir  # released again at the end
        self._hold_folder(self.out_dir)
        try:
            return self._run(steps)
        finally:
            if took:
                self._release_folder()

    def _run(self, steps: Optional[int]) -> dict:
        """run()'s body: the end step, the checks before anything is written, the records opened, the callbacks and
        the history's start, the compile; then the loop to the end step or a stop; then the end record."""
        view = self.view
        start_step = view.step
        end = self._end_of_run(steps, start_step)
        # the flag of `distlbm run`'s process, whose handlers stay until it ends; else (a call from Python: a notebook,
        # a script) the run's own, which says a first Ctrl-C at once (as `distlbm run` does) and gives the process its
        # handlers back when the run returns
        own = signals.process_flag() is None
        stop = (signals.StopFlag(announce=self.domain.process_index == 0, checkpoint=self.out_dir is not None) if own
                else signals.process_flag())
        low_space = self._start_checks(start_step, end)
        # the checks are passed: from here on the run writes (the earlier results set aside, its log), and a refusal
        # above left the folder as it found it (close(refused=True); the temporaries of interrupted writes removed)
        self.began_writing = True
        self._earlier_results(start_step, end)
        logs = self._open_records(start_step, end, low_space)
        t0 = self._t0 = time.perf_counter()
        step = start_step
        # from its start record on, log.jsonl gets its end record however the run ends (the finally): a Ctrl-C in the
        # compile or a failed step-0 output that stops the run too (they left a start with no end, status 'new')
        self.status = "running"
        try:
            self._callbacks = self._make_callbacks(end, start_step, logs)
            self._start_history(start_step)
            # a stop during start-up (the lattice's build, the initial state) is obeyed below, before the first step:
            # neither the compile (minutes for a large lattice) nor the step-0 field output comes first
            early = self._stop_reason(stop.name if stop.requested else None)
            if end > start_step and not early:  # nothing to run (said above): no compile, no "running steps N..N"
                self._compile(start_step, end)
            self._failures = {}  # failed writes in a row of each kind and of all (max_failed_writes ends the run)
            self.failed_writes = []
            if (self._output is not None and start_step == 0 and not early
                    and not (self._output.index or self._output.light_index)):
                self._write_output(view)
            wall_stop = WallTimeStop(float(self.cfg.control.wall_time or 0.0), self._t_created)
            # the run's speed and ETA count from here, as summary.json's: not the compile, nor the step-0 output
            t0 = self._t0 = self._progress.t0 = time.perf_counter()
            max_chunk = 8  # a short first chunk measures the speed; later chunks last up to ~10 s
            with stop.installed(keep_after_stop=not own):
                early = self._stop_reason(stop.name if stop.requested else None)
                if early:  # a stop during start-up or the compile
                    again = ("resubmit to continue" + (" with --restart latest" if self.restored_from else "")
                             if not own else f"its run({end}) goes on from here" if self.out_dir is None else
                             self._go_on_from_python(end, restart=bool(self.restored_from)) + " to continue")
                    self.log(f"stopped at step {step} during start-up on {early}"
                             f", before any step ran (nothing new to checkpoint); {again}")
                    self.status, self.stopped_on = "stopped", early
                    end = step
                if self._steady is not None:
                    self._steady.start(view)  # the reference field of the first comparison, unless restored
                while step < end:
                    nxt = min(next_due([c.schedule for c in self._callbacks], step, end), step + max_chunk)
                    tc = time.perf_counter()
                    self.advance(nxt - step)
                    jax.block_until_ready(self.state.f)
                    chunk_wall = time.perf_counter() - tc
                    # keep chunks short enough (~10 s) to answer signals and wall-time limits promptly
                    max_chunk = max(1, int(10.0 * (nxt - step) / max(chunk_wall, 1e-9)))
                    wall = time.perf_counter() - t0
                    if self.domain.process_count > 1:
                        # every process must advance the same steps and fire the same callbacks: a wall-clock
                        # schedule (checkpoint_wall, a collective write) reads process 0's clock, or processes
                        # whose clocks differ by a hair would disagree on it and wait on each other for ever
                        seen = self.domain.allgather_obj((max_chunk, wall))
                        max_chunk, wall = min(m for m, _ in seen), seen[0][1]
                    step = nxt
                    if self._advice is not None:  # no periodic checkpoint: said once the speed is known
                        self._advice(view, step, wall)
                    # a stop that comes in the chunk that reached the end step finds the run done: it ends complete
                    # (it said 'stopped ... resubmit', exit 75; the resubmitted job ran no step and kept that summary)
                    why = None if step >= end else \
                        self._stop_reason(stop.name or wall_stop(chunk_wall, self.checkpointer.write_s))
                    halt = why is not None
                    steady = self._fire(step, wall, final=halt or step == end, end=step == end and not halt)
                    if steady and not halt:
                        if self._output is not None and not self._output.written(step):
                            self._write_output(view)  # the steady state is the result: always written
                        self.status = "steady"
                        break
                    if (not halt and step < end and self.checkpointer.last_step == step
                            and (why := self._stop_reason(stop.name if stop.requested else None))):
                        # a stop signal that came while the checkpoint of this step was written (seconds to minutes
                        # for a large lattice): that checkpoint is the stop's. The run went on for one more chunk
                        # (up to ~10 s) and wrote another, which a scheduler's grace after SIGTERM (often 30 s) may
                        # not leave time for: killed midway, exit 137, the last chunk lost
                        halt = True
                        self._fire(step, wall, final=True, only_final=True)  # the stop's progress line and sample
                    if halt and self.out_dir is None:  # (from Python: its state is still in memory)
                        self.log(f"stopped at step {step} on {why}; no checkpoint (this Simulation has no out_dir): "
                                 f"its run({end}) goes on from here")
                        self.status, self.stopped_on = "stopped", why
                        break
                    if halt:
                        if self.checkpointer.last_step != step:
                            self.save_checkpoint()
                        again = ("resubmit with --restart latest" if not own else  # (from Python: its own words)
                                 self._go_on_from_python(end))
                        self.log(f"stopped at step {step} on {why}; {again} to continue")
                        short = wall_stop.short(t0, step - start_step) if why.startswith("the wall-time") else None
                        if short:
                            self.log(f"warning: {short}")
                        self.status, self.stopped_on = "stopped", why
                        break
                else:
                    if self.status != "stopped":
                        self.status = "complete"
                if self.status in ("complete", "steady") and self._periodic_checkpoints \
                        and self.checkpointer.last_step != step:
                    # the run checkpoints: its end is kept too, so that it can be continued (--restart latest
                    # --steps N) from where it ended, not from its last periodic checkpoint
                    self.save_checkpoint()
            self._end = end
        except InstabilityError:
            self.status = "unstable"
            raise
        except WriteError as e:
            self.status = "write_failed"
            self._log_failure(view, e, "the run stopped (exit 74)")
            raise
        finally:
            self._record_end(logs, step, start_step, t0, sys.exc_info()[1])
        return self.summary(self.compile_s)

    def _end_of_run(self, steps: Optional[int], start_step: int) -> int:
        """The step this run() goes to (`steps`, or the configured end, or the end of the run a restart continues),
        refused before its start, and its start where there is nothing to run (said); the end a later restart keeps."""
        end = steps if steps is not None else (self.cfg.control.steps or self._kept_end or self.setup.steps)
        if steps is None and end < start_step:  # a count taken for the end step: nothing would run
            raise end_before_start(end, start_step, bool(self.cfg.control.steps), bool(self._kept_end))
        if start_step > 0 and end == start_step:
            self.log(nothing_to_run(end))
        elif steps is None and end > start_step and self._steady_done(start_step):
            end = start_step  # it would stop again at its next check, an interval on: it is done
        # the end a later restart without steps keeps: the configured one (a run(steps) call's own is its own)
        self._end_step = (self.cfg.control.steps or self._kept_end) if steps is None else None
        return end

    def _start_checks(self, start_step: int, end: int) -> Optional[str]:
        """The checks before the run writes anything (a refusal leaves the folder as it found it): the settings that
        need an out_dir said without one; the folder's checkpoints, the temporaries of interrupted writes, the room for
        the checkpoints; the output space's warning, returned (the start record keeps it)."""
        if self.out_dir is None:  # its field outputs were dropped unsaid, its checkpoints written into out/CASE
            chk, out = self.cfg.checkpoint, self.cfg.output
            unwritten = [f"{k} = {v:g}" for k, v in (("checkpoint_every", chk.checkpoint_every),
                                                     ("checkpoint_wall", chk.checkpoint_wall),
                                                     ("output_every", out.output_every),
                                                     ("output_interval", out.output_interval)) if v]
            if unwritten:
                self.log(f"warning: {', '.join(unwritten)} {'has' if len(unwritten) == 1 else 'have'} no effect: "
                         f"this Simulation has no out_dir (it writes no files); expected an out_dir for them")
        if self.out_dir is not None:  # (without one it writes no checkpoint: out/CASE/checkpoints is not its folder)
            self.check_folder()
            self.remove_interrupted_writes()
            self.check_checkpoint_space(start_step, end)
        return self.check_output_space(start_step, end)

    def _open_records(self, start_step: int, end: int, low_space: Optional[str]) -> dict:
        """What the run writes into, opened once the folder is ready: log.jsonl with its start record (and `low_space`,
        the output space's warning), samples.jsonl, the field output; a restart's samples read back. Returns the
        logs."""
        view = self.view
        # (before the start record, which keeps the warnings said so far: `distlbm status` shows them while the run
        # goes or after it was killed, when there is no summary.json yet)
        writes = self.out_dir is not None and bool(self.cfg.output.output_every or self.cfg.output.output_interval)
        if view.mean is not None and not (self.cfg.output.average_every and writes):
            self.log(f"note: the time average of the run this restart continues ({view.mean_samples} samples) is not "
                     f"continued: this run takes none (average_every = 0 or no field output)")
            view.mean, view.mean_samples, view.mean_first = None, 0, None
        unsampled = writes and average_warning(self.cfg.output, start_step, end, view.mean is not None)
        if unsampled:
            self.log(f"warning: {unsampled}")
        logs = {"log": JsonLog(view, "log.jsonl"), "samples": None}
        self.checkpointer.log = logs["log"]
        logs["log"].write({"event": "start", "step": start_step, "end": end, "run_id": self.run_id,
                           "restarted_from": self.restored_from, "case": self.cfg.case.name,
                           "processes": self.domain.process_count,
                           "mesh": list(self.domain.mesh_shape) or [1] * len(self.setup.shape),  # one device: not []
                           "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
                           **({"initialized_from": self.initialized_from} if self.initialized_from else {}),
                           # its start-up warnings, as summary.json will keep them (the settings', then those said)
                           "warnings": list(self.cfg.warnings) + [w for w in self.run_warnings
                                                                  if w not in self.cfg.warnings]})
        if low_space:
            logs["log"].write({"event": "space", "step": start_step, "message": low_space})
        if self.samples_enabled:
            logs["samples"] = JsonLog(view, "samples.jsonl")
        # (on the disk before each checkpoint: a restart from it never records the steps before it again; the log's
        # start and blow-up records are read by a restart too)
        self.checkpointer.records = (logs["samples"], logs["log"])
        self._output = None
        if writes:
            self._keep_outputs_here()
            self._output = FieldOutput(self.cfg.output, self.cfg.case.name, self._outputs_state, self._light_state)
            # one checkpoint's room left free where the outputs share its file system
            self._output.keep_free = space.output_keep_free(getattr(self, "_checkpoint_where", None), self.out_dir,
                                                            self._checkpoint_bytes())
        # (before the callbacks: a checkpoint that does not record the samples' interval has it read from them)
        if self.samples_enabled and not self.samples and self.restored_from and self.out_dir is not None:
            # (a stop's or end's own sample: not the series' of a restart that goes on; one with nothing to run (killed
            # between its end checkpoint and summary.json) writes the run's summary: the end's sample is its series')
            upto = start_step if end == start_step else samples_upto(self._sched_state, start_step)
            src = self.out_dir / "samples.jsonl"
            read = cb.load_samples(src, upto)
            ckpts = Path(self.restored_from).resolve().parent
            if not read and ckpts.name == "checkpoints":  # a restart into another folder: the run's own
                src = ckpts.parent / "samples.jsonl"
                read = cb.load_samples(src, upto)
            # records missing before the checkpoint, said once (a run's file that could not be read at all is said by
            # the copy into another folder: samples_copy_line)
            if not os.path.lexists(src) or (src.is_file() and os.access(src, os.R_OK)):
                missing = samples_missing(self._sched_state, read[-1].get("step") if read else None, upto)
                if missing:
                    self.log(samples_missing_line(missing, src, upto))
            self.samples.extend(self._moved_series_dropped(rec) for rec in read)
            del read
        return logs

    def _start_history(self, start_step: int):
        """The history's first records: the diagnostics of the start (step 0's mass, a restart's run's step 0 and its
        last check before the restart)."""
        view = self.view
        d0 = view.diagnostics()
        if self.mass0 is None:
            self.mass0 = d0["mass"]
        if self._initial is not None and not self.history and start_step > 0:
            view.add_check(dict(self._initial))  # a restart's history begins at the run's step 0
        last, self._last_check = self._last_check, None
        # (a history without the run's step 0: a checkpoint of a restart of an older checkpoint, which kept none)
        off = (last is not None and 0 < last["step"] < start_step
               and (not self.history or self.history[-1]["step"] < last["step"]))
        if off:  # a restart between two checks: the run's last one before it, and its own first step marked
            view.add_check(last)
        view.add_check({"step": start_step, **d0, "wall": 0.0, **({"off_schedule": True} if off else {})})

    def _compile(self, start_step: int, end: int):
        """Compile the step outside the timed loop (a 0-step call compiles the same executable), said."""
        t_c = time.perf_counter()
        self.advance(0)
        jax.block_until_ready(self.state.f)
        self.compile_s = time.perf_counter() - t_c
        self.log(f"compiled in {self.compile_s:.1f} s; running steps {start_step}..{end} of "
                 f"{self.view.cells_count:,} cells")

    def _record_end(self, logs: dict, step: int, start_step: int, t0: float, error: Optional[BaseException]):
        """How this part of the run ended (`error`: what it raised, None where it returns): the wall time and the
        steps run, the status, log.jsonl's end record; the logs closed."""
        view = self.view
        if isinstance(error, KeyboardInterrupt):  # (a Ctrl-C mostly comes in the wait for a chunk already begun)
            try:  # the step of the state it left, not of the chunk's start: its end record said step 8 at 50
                step = view.step
            except Exception:  # (its buffers given to a chunk that never came back)
                pass
        self.wall_time = time.perf_counter() - t0
        self.steps_run = step - start_step
        # how this part of the run ended (`distlbm status`: a start with no end was killed, as a process of
        # several killed by the OOM killer; the others still left and marked the folder's record ended)
        status = self.status if self.status != "running" else "error"
        if status == "error" and isinstance(error, KeyboardInterrupt):  # a second Ctrl-C: the user's, no error
            status = "interrupted"
        if self.status == "running":  # (from Python the object lives on: it said 'running' after it)
            self.status = status
        lost = lost_process(error) if error is not None and self.domain.process_count > 1 else None
        logs["log"].write({"event": "end", "step": step, "status": status,
                           **({"message": (f"lost another process of the run ({lost})" if lost else
                                           f"{type(error).__name__}: {error}")[:300]}
                              if status == "error" and error is not None else {}),
                           **({"stopped_on": self.stopped_on} if status == "stopped" and self.stopped_on else {})})
        for lg in logs.values():
            if lg is not None:
                lg.close()
        self.checkpointer.log, self.checkpointer.records = None, ()

    # ---- the summary -----------------------------------------------------------------------------------
    def summary(self, compile_s: float = 0.0) -> dict:
        """The summary of this Simulation as it stands (what run() returns at its end: summary.json's content)."""
        extra = {}
        if self._steady is not None:
            extra["steady"] = self._steady.report(getattr(self, "_end", self.step), self.step)
        if self._output is not None:
            extra["output"] = {"writes": self._output.count, "seconds": round(self._output.seconds, 4)}
        if self._mach is not None:
            extra["mach_local"] = self._mach.report()
        if self._mass is not None:
            extra["mass_drift_peak"] = self._mass.report()
        if self.failed_writes:
            extra["failed_writes"] = self.failed_writes[-20:]  # the last ones (a run may try for long)
            extra["failed_writes_count"] = len(self.failed_writes)
        if self.view.mean is not None:
            out = self.cfg.output
            extra["average"] = {"samples": self.view.mean_samples, "every": out.average_every,
                                "from_step": out.average_from, "first_sample_step": self.view.mean_first,
                                "stresses": out.average_stresses}
        more = self._more_warnings
        warned = self.run_warnings + ([f"{more} more warning lines: in the run's output and log.jsonl"] if more else [])
        out = make_summary(self.view, self.cfg, status=self.status, steps_run=self.steps_run,
                           steps=self.steps_advanced, wall_time=self.wall_time, compile_s=compile_s,
                           restored_from=self.restored_from, run_warnings=warned,
                           extra={"run_id": self.run_id, "step_path": self.step_path[0],
                                  **({"stopped_on": self.stopped_on} if self.status == "stopped" else {}),
                                  "step_reason": self.step_path[1], **extra,
                                  **({"initialized_from": self.initialized_from} if self.initialized_from else {})})
        if self._kept_end is not None:
            # the end step a restart without --steps ran to, the run's: its settings said steps = 0 (the case's
            # default), unlike the uninterrupted run's (the other kept settings are in them)
            out["parameters"]["config"]["steps"] = self._kept_end
        return out

    def write_summary(self, summary: dict) -> Optional[Path]:
        """Write `summary` (run()'s) as OUT/summary.json on process 0, as `distlbm run` does; its path, or None
        without an out_dir and on the other processes."""
        if self.out_dir is None or self.domain.process_index != 0:
            return None
        import json

        where = self._lock.moved() if self._lock is not None else None  # (process 0's alone: no collective here)
        then = "summary.json is not written (it would make the folder again at its path)"
        if where is not None:  # it made the folder again at its path for summary.json alone, exit 0
            raise self._moved(where, then)
        files.make_folder(self.out_dir, self.view.held, then)  # (moved just now: the same line)
        return files.write_text(self.out_dir / "summary.json",
                                json.dumps(summary, indent=2, default=cb.json_default) + "\n")
