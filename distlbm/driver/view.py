"""The read-only view of a run that callbacks and cases receive: the state, step and time, the model,
the case's setup and parameters, and the domain's reductions (diagnostics, macroscopic fields, probes,
forces) — never the driver itself. The records the callbacks keep (diagnostics `history`, force and
probe `samples`) live here too, so that the cases' observables can read them."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Callable, NamedTuple, Optional

import jax
import numpy as np

from distlbm.driver.records import SampleRecords
from distlbm.parallel import Domain
from distlbm.physics.boundaries import force_totals
from distlbm.physics.diagnostics import block_diagnostics as diagnostics_fn
from distlbm.physics.diagnostics import (VorticityWalls, axis_links, block_vorticity, vorticity_halo,
                                         vorticity_planes)
from distlbm.stepper import Cells, Model, State, macroscopic


class Compiled(NamedTuple):
    """The compiled functions a view reads the state with: diag(f, cells) -> dict of partial sums,
    macro(f, field) -> (rho, u) (field: the per-cell force where Model.force_field, else None),
    forces(f, cells, step) -> [bodies, D, ...] partial forces, or None,
    vorticity(f, walls, field) -> |curl u| (compiled on first use: field output alone asks for it);
    vorticity_halo(f, field) -> the neighbours' face planes of u per block and
    vorticity_planes(f_block, (halo_block, walls_block, field_block), x0, b) -> |curl u| of b planes of one block
    (physics.diagnostics: the whole fields' output forms |curl u| piece by piece; walls: its VorticityWalls, the
    cell data read beside walls and open faces; field: the per-cell force where Model.force_field, else None:
    u is the written u's, with the half force)."""

    diag: Callable
    macro: Callable
    forces: Optional[Callable]
    vorticity: Optional[Callable] = None
    vorticity_halo: Optional[Callable] = None
    vorticity_planes: Optional[Callable] = None


def compile_readers(model: Model, domain: Domain) -> Compiled:
    """The view's compiled readers for `model` on `domain`."""
    from distlbm.parallel import distribute
    from distlbm.stepper import make_forces, reader_slab_bytes, runs_in_slabs

    def planes(f):
        """Planes per slab of a reader of the block f: slab by slab where the step runs in slabs (large blocks
        on CPUs) or on large blocks (GPUs), so that the moments' temporaries are a slab's (a whole 400^3
        block's: 1.5 GB, over the 1.15x budget); None: the whole block."""
        if not runs_in_slabs(f, model.compute_dtype):
            return None
        per_x = f.size // f.shape[1] * max(f.dtype.itemsize, np.dtype(model.compute_dtype).itemsize)
        return max(1, reader_slab_bytes() // per_x)

    def diag_factory(exchange):
        def diag(f, cells: Cells):
            force = cells.force if model.force_field else model.force
            return diagnostics_fn(f, cells.kind, model.lattice, model.compute_dtype, force,
                                  model.incompressible, slab_planes=planes(f))

        return diag

    def velocity(fs, field):  # the written u's arithmetic (macro), the half force of a per-cell field included
        return macroscopic(fs, model, field)[1]

    links_of_axes = axis_links(model.lattice)

    def vorticity_factory(exchange):
        def vorticity(f, walls, field):
            return block_vorticity(f, velocity, exchange, slab_planes=planes(f), walls=walls,
                                   links_of_axes=links_of_axes, field=field)

        return vorticity

    def halo_factory(exchange):
        return lambda f, field: vorticity_halo(f, velocity, exchange, field)

    forces = None
    if model.features.bodies:
        forces = jax.jit(distribute(domain, lambda exchange: make_forces(model, exchange)))
    return Compiled(jax.jit(distribute(domain, diag_factory)), jax.jit(lambda f, field: macroscopic(f, model, field)),
                    forces,
                    jax.jit(distribute(domain, vorticity_factory)), jax.jit(distribute(domain, halo_factory)),
                    jax.jit(lambda f, held, x0, b: vorticity_planes(f, velocity, held[0], x0, b, held[1],
                                                                    links_of_axes, held[2]), static_argnums=3))


def past_mach(record: dict) -> bool:
    """Whether a check's diagnostics `record` is of a finite state past the Mach limit that its cell is kept of
    (the first such check: the blow-up message's "first check past Mach")."""
    from distlbm.config import MACH_MAX  # (config imports the cases)
    from distlbm import units

    return bool(record.get("finite")) and "u_max_at" in record and units.mach(record.get("u_max_local", 0.0)) > MACH_MAX


class RunView:
    """What a callback or a case sees of a run (lattice units unless stated).

    state: State (f: [Q, X, Y(, Z)] stored deviations, step); step, time (physical units where the
    case has them); model, setup (the resolved case), params (the case's parameters), domain;
    kind: [X, Y(, Z)] uint8 cell kinds or None; history: diagnostics records (the first HISTORY_HEAD and the
    last HISTORY_TAIL: add_check); samples: force/probe records; mass0: the initial total mass."""

    # the check records history keeps: its first ones (step 0 and the first check after it: a decay's initial
    # rate) and its latest (the last two: a steadiness rate; the last sane check before a blow-up). It kept every
    # one: ~940 bytes per check (a dict of 13 entries), with check_every = 1 ~9 GB of host memory after 10^7 steps,
    # which no case reads; the diagnostics of each progress line stay in log.jsonl
    HISTORY_HEAD = 2
    HISTORY_TAIL = 1000

    def __init__(self, model: Model, setup, params: dict, domain: Domain, cells: Cells, kind, readers: Compiled,
                 out_dir: Optional[Path] = None, log: Callable = print):
        self.model = model
        self.setup = setup
        self.params = dict(params)
        self.domain = domain
        self.kind = kind
        self.out_dir = out_dir
        # the run's case (set by the driver; None: the parameters alone): what a blow-up's message reads the
        # settings of its velocity from (config.velocity_remedy)
        self.case = None
        # the run's hold on out_dir (io.lock.FolderLock, process 0's; None elsewhere or where none is held): the
        # writers make the folders below it, never the run's folder again (io.files.make_folder)
        self.held = None
        self._cells = cells
        self._readers = readers
        self._log = log
        self._state: Optional[State] = None
        self._diag: Optional[tuple] = None  # (state, diagnostics): computed once per state
        self.history: list[dict] = []
        self.checks_dropped = 0  # check records left out of the middle of history (add_check)
        self.first_fast: Optional[dict] = None  # the first record past the Mach limit that add_check left out
        self.samples = SampleRecords()  # (in columns: as dicts, a run sampled every step kept ~460 B per record)
        self.mass0: Optional[float] = None
        # the time average of the moments (output average_every): [1 + D, X, Y(, Z)] rho then u, in the compute
        # dtype, a running mean over `mean_samples` samples; None before the first sample
        self.mean = None
        self.mean_samples: int = 0
        self.mean_first: Optional[int] = None  # the step of its first sample (a restart that starts it again: later)

    def add_check(self, record: dict):
        """Append a check's diagnostics `record` to history, leaving out the oldest record after its first
        HISTORY_HEAD where it holds more than HISTORY_HEAD + HISTORY_TAIL (a week's run checked every step held
        one per step)."""
        self.history.append(record)
        if len(self.history) > self.HISTORY_HEAD + self.HISTORY_TAIL:
            gone = self.history.pop(self.HISTORY_HEAD)  # (a list of ~1000: the shift costs microseconds)
            self.checks_dropped += 1
            if self.first_fast is None and past_mach(gone):
                self.first_fast = gone  # a blow-up's message names the first check past the Mach limit (not the
                # first one kept: a flow past it for 1000 checks before it blew up named one 1000 checks late)

    def first_past_mach(self, before: int) -> Optional[dict]:
        """The run's first check past the Mach limit before step `before` (a blow-up's message names it), or None: the
        earliest of history's and first_fast, the one add_check left out of history's middle or, after a restart,
        the run's from its checkpoint (a first check past it among history's first records comes before every one
        left out)."""
        kept = next((h for h in self.history if h.get("step", before) < before and past_mach(h)), None)
        return min((h for h in (kept, self.first_fast) if h is not None and h.get("step", before) < before),
                   key=lambda h: h["step"], default=None)

    # ---- the state (set by the driver between chunks) ---------------------------------------
    @property
    def state(self) -> State:
        return self._state

    def set_state(self, state: State, step: Optional[int] = None):
        """The driver's new state (between chunks); `step`: its step where the host knows it (advance()'s), so that
        reading `step` waits for no device (None: read from the state once, when asked)."""
        self._state = state
        self._diag = None
        self._step = step

    @property
    def step(self) -> int:
        if getattr(self, "_step", None) is None:
            self._step = int(self._state.step)
        return self._step

    @property
    def time(self) -> float:
        return self.step * self.setup.units.get("dt", 1.0)

    @property
    def cells_count(self) -> int:
        return math.prod(self.setup.shape)

    def log(self, msg: str):
        """A line on process 0."""
        if self.domain.process_index == 0:
            self._log(msg)

    # ---- reductions ---------------------------------------------------------------------------
    def diagnostics(self) -> dict:
        """Total mass, momentum and kinetic energy over the fluid cells (lattice units), all processes;
        finite / sane say whether every density is finite and inside the sane range. Computed once per
        state: the check, the progress line and the checkpoint of one step share it."""
        if self._diag is not None and self._diag[0] is self._state:
            return dict(self._diag[1])
        raw = self._readers.diag(self._state.f, self._cells)  # per block: combined over every process here
        umax = float(self.domain.reduce_blocks(raw.pop("u_max"), "max"))
        # the cells of the largest speed and of the most extreme density (a blow-up names those of the last sane
        # check: where the flow went wrong); per block, then the block of the largest (small: one value per block)
        _, u_at, _ = self.domain.reduce_peak(raw.pop("u_peak"), raw.pop("u_peak_at"))
        dev, rho_at, (rho_ext,) = self.domain.reduce_peak(raw.pop("rho_dev"), raw.pop("rho_ext_at"),
                                                          (raw.pop("rho_ext"),))
        d = {k: self.domain.reduce_blocks(v) for k, v in raw.items()}
        mass = float(np.asarray(d["n_fluid"], np.float64)) + float(np.asarray(d["mass_dev"], np.float64))
        out = {"mass": mass, "momentum": [float(x) for x in np.ravel(d["momentum"])],
               "kinetic_energy": float(d["kinetic_energy"]), "finite": int(d["nonfinite"]) == 0,
               "sane": int(d["nonfinite"]) == 0 and int(d["out_of_range"]) == 0, "u_max_local": umax,
               "u_max_at": list(u_at), "rho_extreme": rho_ext if math.isfinite(dev) else None,
               "rho_extreme_at": list(rho_at), "nonfinite": int(d["nonfinite"]),
               "out_of_range": int(d["out_of_range"])}
        self._diag = (self._state, out)
        return dict(out)

    def mass_drift(self) -> float:
        m = self.diagnostics()["mass"]
        return (m - self.mass0) / self.mass0 if self.mass0 else 0.0

    @property
    def force_field(self):
        """The per-cell body force [D, X, Y(, Z)] (global array, compute dtype) where the case gives one
        (Setup.force_field), else None: u = (j - F/2) / rho takes it wherever u is formed (the u output, probes,
        the vorticity)."""
        return None if self._cells is None else self._cells.force

    def macroscopic(self):
        """rho: [X, Y(, Z)] and u: [D, X, Y(, Z)] as global arrays (compute dtype, lattice units)."""
        return self._readers.macro(self._state.f, self._cells.force)

    def vorticity(self):
        """|curl u| [X, Y(, Z)] as a global array (compute dtype; lattice units: central differences per cell,
        periodic across the lattice's faces, one-sided beside walls and open faces, 0 in walls), formed block by
        block and slab by slab (u is never whole)."""
        return self._readers.vorticity(self._state.f, self._vorticity_walls(), self.force_field)

    def _vorticity_walls(self) -> VorticityWalls:
        """The cell data |curl u| reads beside walls and open faces (global arrays, None where absent)."""
        c = self._cells
        if c is None:
            return VorticityWalls()
        return VorticityWalls(c.kind, c.links, c.moving, c.velocity if c.moving is not None else None)

    def vorticity_pieces(self) -> tuple:
        """(held, planes) to form |curl u| piece by piece: held = (the neighbours' face planes of u of every block
        (physics.diagnostics.vorticity_halo's per axis (lo, hi), as global arrays: planes, small), the cell data
        read beside walls (VorticityWalls of global arrays), the per-cell force (force_field: u with its half
        force, as the written u; None without one)) and planes(f_block, held_block, x0, b) -> |curl u|
        [b, ...] of the planes x0 .. x0 + b - 1 of one block, on its device (the same arithmetic as vorticity(),
        so the same bits)."""
        field = self.force_field
        return ((self._readers.vorticity_halo(self._state.f, field), self._vorticity_walls(), field),
                self._readers.vorticity_planes)

    def fields(self, dtype="float32"):
        """rho and u as NumPy arrays on this process (small lattices only: observables)."""
        rho, u = self.macroscopic()
        return self.domain.gather(rho).astype(dtype), self.domain.gather(u).astype(dtype)

    def probe(self, points) -> dict:
        """rho [N] and u [D, N] (lattice units) at the cells `points` ([N, D] global cell indices)."""
        pts = np.asarray(points, np.int64).reshape(-1, len(self.setup.shape))
        # the populations of those cells alone, then their moments (the same arithmetic per cell as
        # `macroscopic` on the whole lattice, without forming rho and u everywhere)
        f = self._state.f
        fp = jax.numpy.asarray(self.domain.sample(f, pts), dtype=f.dtype)
        field = self._cells.force
        if field is not None:  # the per-cell force of those cells (u = (j - F/2) / rho)
            field = jax.numpy.asarray(self.domain.sample(field, pts), dtype=field.dtype)
        rho, u = self._readers.macro(fp, field)
        return {"rho": np.asarray(rho), "u": np.asarray(u)}

    def flags_at(self, points) -> tuple:
        """(kind [N], body [N]) at the cells `points` ([N, D] global indices): the case's cell kinds (None: every
        cell is fluid) and body ids (None: no bodies), read at those cells alone."""
        pts = np.asarray(points, np.int64).reshape(-1, len(self.setup.shape))
        c = self._cells
        kind = None if self.kind is None else np.asarray(self.domain.sample(self.kind, pts)).astype(int)
        body = None if c is None or c.body is None else np.asarray(self.domain.sample(c.body, pts)).astype(int)
        return kind, body

    def forces(self) -> np.ndarray:
        """[bodies, D]: momentum-exchange force of the fluid on each body (lattice units), summed over
        every shard and process, for the step that starts from the current state."""
        if self._readers.forces is None:
            return np.zeros((0, self.model.lattice.d))
        sums = self.domain.reduce_blocks(self._readers.forces(self._state.f, self._cells, self._state.step))
        return force_totals(sums)  # fixed-point sums: the same bits on every mesh and process count

    @property
    def has_forces(self) -> bool:
        return self._readers.forces is not None
