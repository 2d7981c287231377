"""What a built-in case is: its parameters, how it builds a lattice problem, and what it measures."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Optional

import numpy as np

from distlbm import units
from distlbm.errors import ConfigError  # noqa: F401 (re-exported: the cases raise it)
from distlbm.lattice import Lattice


@dataclass(frozen=True)
class Param:
    """One case parameter: name, default, type (int/float/str/bool), doc, optional unit and check."""

    name: str
    default: Any
    type: type
    doc: str
    unit: str = ""
    positive: bool = False
    choices: tuple = ()
    minimum: Optional[float] = None
    canonical: Optional[Callable[[str], Any]] = None  # the form a restart compares (spaces and spellings aside)


class Geometry(NamedTuple):
    """What `Setup.geometry(index)` returns for a block: kind uint8 [block]; velocity [D, block] or None;
    rho [block] or None; qlink uint8 [Q, block] wall fractions q * 254 of the links into curved
    obstacles (0: halfway) or None; body uint8 [block] obstacle id of solid cells or None; sponge
    [block] strength in [0, 1) of an absorbing layer (its target velocity: `velocity`) or None."""

    kind: np.ndarray
    velocity: Optional[np.ndarray] = None
    rho: Optional[np.ndarray] = None
    qlink: Optional[np.ndarray] = None
    body: Optional[np.ndarray] = None
    sponge: Optional[np.ndarray] = None


@dataclass
class Setup:
    """A case, resolved into a lattice problem (lattice units unless stated).

    shape: global spatial shape; tau: relaxation time; force: D-tuple or None (uniform); force_field: per cell;
    geometry(index) -> (kind uint8 [block], velocity float [D, block] or None, rho float [block] or None)
    for the block `index` (a tuple of slices), so that each process builds only its own shards;
    initial(index) -> (rho [block], u [D, block], grad_u [D, D, block] or None) where grad_u[a, b] =
    d u_b / d x_a adds the Chapman-Enskog non-equilibrium part; steps: default number of steps;
    units: parameters in lattice and physical units (for summary.json).
    """

    lattice: Lattice
    shape: tuple
    tau: float
    initial: Callable
    steps: int
    u_max: float  # the characteristic lattice velocity (Mach number check)
    force: Optional[tuple] = None
    geometry: Optional[Callable] = None
    features: Any = None
    # force_field(index) -> [D, block] float: the body force of each cell of the block `index` (lattice units),
    # called slab by slab like geometry; kept per cell in the compute dtype (stepper.Cells.force, D values per
    # cell) and rebuilt at every start and restart. A uniform `force` beside it is added to it. The fused Pallas
    # kernel does not cover it: the XLA step runs. Wall and body cells keep their populations whatever force they
    # are given (measured: a 1000-fold force on a channel's wall cells left its fluid's u as it was, to 2e-12)
    force_field: Optional[Callable] = None
    units: dict = field(default_factory=dict)
    progress_every: int = 0
    probes: dict = field(default_factory=dict)  # name -> [N, D] global cell indices sampled for rho and u
    probe_weights: dict = field(default_factory=dict)  # name -> [N] weights that interpolate a probe's cells
    # name -> [N] weights of a probe's pressure where some of its cells are solid: the fluid cells' alone (a solid
    # cell holds rest, p = 0, which is no pressure of the flow); a name not here takes probe_weights
    probe_p_weights: dict = field(default_factory=dict)
    sample_every: int = 0  # steps between samples of forces and probes (0: the progress interval)
    sample_energy: bool = False  # add the total kinetic energy (lattice units) to every sample
    steady_every: int = 0  # steps between steadiness checks (0: the progress interval), e.g. a transit time
    # (first, last) global x planes that can hold a curved obstacle's interpolated wall link (None: any): the
    # memory estimate's box of Bouzidi fractions (memory.memory_estimate's fraction_planes)
    fraction_planes: Optional[tuple] = None
    # what the build rounded the user would not expect (a sample interval below one time step: every step), said
    # as warnings at start-up
    notes: tuple = ()
    # checks of the geometry that scan the whole lattice (a channel's fluid path from inlet to outlet), each
    # check(stop) -> bool: True when done (ConfigError if the geometry fails it), False where stop() said a stop
    # signal came first. `config.run_checks` runs them: `distlbm run` after the memory pre-flight (an oversize
    # lattice was scanned for minutes before it was refused), before the populations are allocated
    checks: tuple = ()
    # what those checks found that a user checks the geometry by (a channel's solid cells per body, an STL body's
    # place and volume), one line each: filled as they pass, said by the dry run and at the run's start
    report: list = field(default_factory=list)

    def cell_force(self) -> Optional[Callable]:
        """The per-cell body force the run applies, index -> [D, block]: force_field with the uniform `force` added
        (float64, as stepper.assemble_force reads it) where the case gives both; force_field itself where it gives
        no uniform force; None where it gives no field. The step's field and the initial populations' F/2
        (config.initial_block) both take it from here."""
        fn, uniform = self.force_field, self.force
        if fn is None or uniform is None:
            return fn
        lift = np.asarray(uniform, np.float64).reshape((-1,) + (1,) * len(self.shape))

        def field(index):
            return np.asarray(fn(index), np.float64) + lift

        return field


class Case:
    """Base class of built-in cases. Subclasses set the class attributes and implement build/observe."""

    name: str = ""
    title: str = ""
    validates: str = ""
    reference: str = ""  # file in shared/reference (or 'analytic')
    dims: tuple = (2, 3)
    default_lattice: str = "D2Q9"
    params: tuple = ()
    # common settings whose default differs for this case (e.g. {"equilibrium": "incompressible"})
    common_defaults: dict = {}
    # groups of parameters that set the same thing (e.g. tau and u_lattice both fix the time step): giving
    # more than one of a group is an error
    exclusive: tuple = ()
    # parameters that only say where and how often the flow is sampled (probes, their interval): a restart may
    # change them, as it may the output settings
    sampling: tuple = ()
    # parameters that only say where the run ends (t_end: the simulated time to run): a restart that gives one
    # runs to its end instead of the run's (one that leaves it out must match the run's, as parameters do)
    stops: tuple = ("t_end",)
    # the steady_tol default where the populations or the arithmetic are float64 (0: common_defaults'): a
    # case exact to round-off converges to ~1e-13 there, while float32 stalls near 1e-5
    steady_tol_float64: float = 0.0
    # the peak Mach number this case's validation ran at and passed (docs/validation.md): a Mach number above
    # config.MACH_WARN but within it is not warned about (a preset warned about its own validated default, the
    # first line a new user saw); 0: none (the warning above MACH_WARN stands)
    validated_mach: float = 0.0

    def common_defaults_for(self, p: dict) -> dict:
        """Common settings whose default depends on this case's parameters p (e.g. the collision operator at
        a benchmark's Reynolds number), on top of `common_defaults`; a setting the user gives wins."""
        return {}

    def build(self, p: dict, lattice: Lattice) -> Setup:
        raise NotImplementedError

    def lattice_shape(self, p: dict, lattice: Lattice) -> tuple:
        """The lattice shape of parameters p (what `build` gives; a case whose build does more work than
        its shape needs says it faster)."""
        return tuple(self.build(p, lattice).shape)

    def observe(self, view, p: dict) -> dict:
        """Case observables from the final state of the run's read-only view (distlbm.driver.view.RunView)
        and the reference where one exists."""
        return {}

    def overridden(self, p: dict, d: int) -> dict:
        """The parameters that others override at p on a d-dimensional lattice (key -> what overrides it): given,
        they have no effect, which the configuration says (box: n beside nx, ny and nz)."""
        return {}

    def peak_remedy(self, p: dict, shape: tuple, limit: float) -> str:
        """A clause for the Mach refusal where other settings than the velocity make the peak (the box's u0 ny / nx:
        the least nx that keeps the Mach number within `limit`); '' where the velocity's bound says it all."""
        return ""

    def input_files(self, p: dict) -> list:
        """The files whose contents are part of the physics at parameters p, as (key, path): a mask or an STL
        body. A checkpoint records their digests, and a restart whose file at the same path differs is refused
        (the parameters name only the path: an edited mask continued the run around another body, unsaid)."""
        return []

    def resampled(self, old: dict, new: dict, lattice: Lattice) -> list:
        """The sample keys whose meaning a restart with parameters `new` changes from the run's `old` (a probe
        point moved: p_pt1 and ux_pt1 name another point): the earlier samples' values of them are not of the
        same series. A case's parameters that may change at a restart are its `sampling` ones."""
        return []

    def unsampled(self, old: dict, new: dict, given, lattice: Lattice) -> list:
        """The run's sampling settings of points (probes, a probe line) that a restart neither gives (`given`: the
        keys set) nor has: [(key, the run's value, the sample keys whose series end there)]. A restart keeps no case
        parameter it does not give, so their series end at its step: said, not silent."""
        return []

    def quantities(self, raw: dict, view) -> dict:
        """A sample of forces and probes (raw: {'force': [bodies][D], 'probes': {name: {'rho', 'u'}}, and with
        Setup.sample_energy 'kinetic_energy': the lattice's total; lattice units) turned into the case's named
        quantities (e.g. drag and lift coefficients); view: the run's read-only view. A case keeps no state
        between calls: what a run needs is in view.setup."""
        return {}


class OutOfRange(ConfigError):
    """A quantity a case derives from its parameters (a lattice size, the lattice viscosity, the time step) that
    float64 or the lattice cannot hold: re = 1e300 makes the viscosity 0, aspect = 1.7e308 an infinite number of
    cells. Python's arithmetic said it in its own words ("ZeroDivisionError: float division by zero", "OverflowError:
    (34, 'Numerical result out of range')"); the configuration says `quantity` = `value` with the parameters it came
    from and what was `expected`."""

    def __init__(self, quantity: str, value: float, expected: str):
        super().__init__(f"{quantity} = {value:.4g}: expected {expected}")
        self.quantity, self.value, self.expected = quantity, value, expected


class StepsUncountable(OutOfRange):
    """A time that the parameter `key` gives as no finite number of steps (`steps`: inf, from ramp = 1.7e308 s; nan):
    int() of it was "OverflowError: cannot convert float infinity to integer" in the refusal. Said as a step count
    beyond the int32 step counter is, and the fix named is `key` where the user gave it."""

    def __init__(self, key: str, steps: float):
        super().__init__(f"the number of steps of {key}", steps,
                         f"an integer in 0..{2 ** 31 - 1} (the step counter is int32)")
        self.key, self.steps = key, steps


def cells_along(quantity: str, cells: float) -> float:
    """`cells`, a count of cells a case derives from its parameters (length / dx), where it is finite; else
    OutOfRange (round() of inf was "OverflowError: cannot convert float infinity to integer"). A finite count too
    large is the lattice shape's check (fewer than 2**53 cells in all), with the shape said cut."""
    if not math.isfinite(cells):
        raise OutOfRange(quantity, cells, "a finite number of cells (fewer than 2**53 = 9.01e+15 in the lattice)")
    return cells


def lattice_viscosity(quantity: str, nu: float) -> float:
    """`nu`, a lattice viscosity a case derives from its parameters, where it is positive and finite; else
    OutOfRange: 0 (re = 1e300: tau = 1/2 + 3 nu rounds to 1/2) or inf (re = 5e-324) was a division by zero later.
    (One so small that the run's length in viscous times is no finite number of steps is StepsUncountable.)"""
    if not 0.0 < nu < math.inf:
        raise OutOfRange(quantity, nu, "a positive, finite lattice viscosity (and tau = 1/2 + 3 nu above 1/2)")
    return nu


def finite_steps(key: str, steps: float) -> float:
    """`steps`, a time that the parameter `key` gives in time steps, where it is a finite number; else
    StepsUncountable (every count of steps a case derives from its parameters goes through here or steps_for)."""
    if not math.isfinite(steps):
        raise StepsUncountable(key, steps)
    return steps


def steps_for(key: str, steps: float, notes: list) -> int:
    """The whole number of steps (at least one) nearest a time the parameter `key` gave as `steps` time steps;
    one that rounds to none is said in `notes` (a sample_dt below half a step sampled every step, unsaid); one that
    is no finite number is StepsUncountable."""
    finite_steps(key, steps)
    if 0 < steps < 0.5:
        notes.append(f"{key} asks for {steps:.3g} of a time step: taken as 1 step, the shortest there is")
    return max(1, int(round(steps)))


def physical_units(length: float, velocity: float, n: int, u_lat: float, nu_phys: float, tau: float) -> dict:
    """Conversion of a case set up with a reference length/velocity and a resolution n cells per length."""
    dx = length / n
    dt = units.time_step(dx, u_lat, velocity)
    return {
        "dx": dx,
        "dt": dt,
        "length": length,
        "velocity": velocity,
        "viscosity": nu_phys,
        "nu_lattice": units.viscosity(tau),
    }


def grid_coords(index, shape, offset=0.5):
    """Cell-centre coordinates (in cells, global) of the block `index`: list of broadcastable arrays."""
    out = []
    nd = len(shape)
    for a, sl in enumerate(index):
        start, stop, _ = sl.indices(shape[a])
        x = np.arange(start, stop, dtype=np.float64) + offset
        sh = [1] * nd
        sh[a] = x.size
        out.append(x.reshape(sh))
    return out


def block_shape(index, shape):
    return tuple(len(range(*sl.indices(shape[a]))) for a, sl in enumerate(index))


def initial_problem(rho, u, grad, index, shape) -> Optional[str]:
    """What is wrong with what a Setup's initial(index) returned for the block `index` (a wrong shape, a
    non-numeric array), in one line, or None: rho [block], u [D, block], grad_u None or [D, D, block]."""
    bs = block_shape(index, shape)
    d = len(shape)
    from distlbm.physics.boundaries import block_span

    span = block_span(index, shape)
    for name, value, want in (("rho", rho, bs), ("u", u, (d,) + bs), ("grad_u", grad, (d, d) + bs)):
        if value is None and name == "grad_u":
            continue
        arr = np.asarray(value) if value is not None else None
        if arr is None or arr.shape != want or not np.issubdtype(arr.dtype, np.number):
            got = "None" if arr is None else f"shape {arr.shape} of {arr.dtype}"
            return (f"initial(index) returned {name} {got} for the block {span}; expected a float array of shape "
                    f"{want}{' or None' if name == 'grad_u' else ''} (block_shape(index, shape) = {bs})")
    return None


def rest_state(shape):
    """An `initial(index)` for a fluid at rest: rho = 1, u = 0 on every block."""

    def initial(index):
        bs = block_shape(index, shape)
        return np.ones(bs), np.zeros((len(shape),) + bs), None

    return initial


def check(quantity: str, value, reference=None, lower=None, upper=None, tolerance=None, relative=True,
          source: str = "", **extra) -> dict:
    """One validation record for the `checks` list of a case's observables.

    quantity: what is compared (name the unit or normalisation); value: the measured number;
    reference: the published or analytic value (None if there is none); lower/upper: acceptance bounds
    on `value` (None: open); tolerance: the largest accepted `error`; relative: whether `error` is
    |value - reference| / |reference| (True) or |value - reference| (False); source: the reference file
    under shared/reference, 'analytic', or a sentence saying that no reference exists.

    `pass` is True/False when there is a criterion (bounds or a tolerance with a reference) and None
    for a number that is only reported. Extra keyword arguments (e.g. `at=...`, `note=...`) are kept.
    """
    value = None if value is None else float(value)
    ref = None if reference is None else float(reference)
    error = None
    if ref is not None and value is not None:
        error = abs(value - ref)
        if relative:
            error = error / abs(ref) if ref != 0 else math.inf
    ok = None
    if value is not None and (lower is not None or upper is not None):
        ok = math.isfinite(value) and (lower is None or value >= lower) and (upper is None or value <= upper)
    if tolerance is not None and error is not None:
        ok = (ok is not False) and math.isfinite(error) and error <= tolerance
    if value is not None and not math.isfinite(value) and (ok is not None or tolerance is not None):
        ok = False  # a NaN or infinite result fails any criterion
    rec = {"quantity": quantity, "value": value, "reference": ref,
           "lower": None if lower is None else float(lower), "upper": None if upper is None else float(upper),
           "error": error, "error_kind": ("relative" if relative else "absolute") if error is not None else None,
           "tolerance": None if tolerance is None else float(tolerance), "pass": ok, "source": source}
    rec.update(extra)
    return rec
