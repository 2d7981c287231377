"""Run configuration: a case name or a TOML file, plus `--set key=value` overrides, checked up front.

Every mistake raises ConfigError naming the key, the value and what was expected.
"""

from __future__ import annotations

import datetime
import difflib
import json
import math
import os
import re
import stat
import tomllib
from dataclasses import dataclass, field, fields, replace
from functools import partial
from pathlib import Path
from typing import Any, Callable, NamedTuple, Optional

import numpy as np

from distlbm.cases import CASES
from distlbm.cases.base import Case, OutOfRange, Param, Setup, StepsUncountable
from distlbm.errors import INT_DIGITS_SHOWN, ConfigError, cut_digits, int_digits_read, said_digits, said_int
from distlbm.lattice import LATTICES, get_lattice
from distlbm.physics.collision import KINDS
from distlbm import units
from distlbm.units import CS

DTYPES = ("float32", "float64", "float16", "bfloat16")  # storage
COMPUTE_DTYPES = ("float32", "float64")  # arithmetic: 16-bit storage computes in float32
HALF_DTYPES = ("float16", "bfloat16")


def default_compute_dtype(dtype: str) -> str:
    """The compute dtype when none is given: the storage dtype, float32 for 16-bit storage."""
    return "float32" if dtype in HALF_DTYPES else dtype


def check_compute_dtype(value, key: str = "compute_dtype") -> None:
    """Refuse 16-bit (or unknown) arithmetic with a message naming the key, the value and what is expected."""
    if value in HALF_DTYPES:
        storage = f"--dtype {value}" if key.startswith("--") else f"dtype = {value!r}"  # as the key was given
        raise ConfigError(f"{key} = {value!r}: expected one of {', '.join(map(repr, COMPUTE_DTYPES))}; "
                          f"16-bit types are storage only (set {storage}, which computes in float32)")
    if value not in COMPUTE_DTYPES:
        raise ConfigError(f"{key} = {value!r}: expected one of {', '.join(map(repr, COMPUTE_DTYPES))}")

OUTPUT_FIELDS = ("rho", "u", "vorticity", "populations", "kind")


def setting(default, doc: str, *, choices: tuple = (), minimum=None, positive: bool = False):
    """A field of a run spec: its default (whose type is the setting's type), what it means and its check."""
    return field(default=default, metadata={"doc": doc, "choices": choices, "minimum": minimum, "positive": positive})


def _params(spec) -> tuple:
    """The spec's settings as Params (key, default, type, doc, check): one definition serves both."""
    return tuple(Param(f.name, f.default, type(f.default), f.metadata["doc"], choices=f.metadata["choices"],
                       minimum=f.metadata["minimum"], positive=f.metadata["positive"]) for f in fields(spec))


class _Spec:
    """A frozen run spec, checked when built: every setting against its type, choices and range (the
    error names the key, the value and what was expected), then the spec's own rules (`_check`)."""

    def __post_init__(self):
        for p in _params(type(self)):
            object.__setattr__(self, p.name, _check_value(p, getattr(self, p.name), ""))
        self._check()

    def _check(self):
        pass

    def values(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class ModelSpec(_Spec):
    """What a step computes: the velocity set, collision, equilibrium, subgrid model and dtypes. A
    restart must match it."""

    lattice: str = setting("", "velocity set; default: the case's", choices=tuple(LATTICES) + ("",))
    collision: str = setting("bgk", "collision operator", choices=KINDS)
    trt_lambda: float = setting(3.0 / 16.0, "TRT magic parameter Lambda", positive=True)
    equilibrium: str = setting("standard", "equilibrium: standard, or incompressible (He & Luo 1997: u = sum c f, "
                               "no O(Ma^2) compressibility error in steady flows)",
                               choices=("standard", "incompressible"))
    smagorinsky: float = setting(0.0, "Smagorinsky constant C_s (0: no subgrid model)", minimum=0.0)
    dtype: str = setting("float32", "storage dtype of the populations", choices=DTYPES)
    compute_dtype: str = setting("", "dtype of the arithmetic: float32 or float64; default: the storage dtype "
                                 "(float32 for 16-bit storage)", choices=DTYPES + ("",))

    def _check(self):
        if not self.compute_dtype:
            object.__setattr__(self, "compute_dtype", default_compute_dtype(self.dtype))
        check_compute_dtype(self.compute_dtype)
        big = float(np.finfo(self.compute_dtype).max)
        # the collision evaluates 18 sqrt(2) C_s^2 |Pi| and Lambda / (tau - 1/2) in the compute dtype
        for key, limit in (("smagorinsky", math.sqrt(big / (18 * math.sqrt(2)))), ("trt_lambda", big)):
            if getattr(self, key) > limit:
                raise ConfigError(f"{key} = {getattr(self, key)!r}: expected at most {limit:.3g} (it overflows "
                                  f"{self.compute_dtype} in the collision)")


@dataclass(frozen=True)
class DecompositionSpec(_Spec):
    """How the lattice is split and stepped: the device mesh, the halo exchange's backend and the step
    (the fused Pallas kernel or the XLA step: the same layout and results, so it may change on restart)."""

    step: str = setting("auto", "the step: 'auto' (the fused Pallas kernel on GPUs where it covers the case, "
                        "else the XLA step), 'xla' or 'pallas'", choices=("auto", "xla", "pallas"))

    comm: str = setting("jax", "halo exchange: 'jax' (one device mesh) or 'mpi' (mpi4jax, one rank per device)",
                        choices=("jax", "mpi"))
    mesh: str = setting("", "devices per axis, e.g. '2x2x2'; empty: all devices, factorised for the smallest halo")


@dataclass(frozen=True)
class RunControl(_Spec):
    """How long a run goes and what it reports: steps, progress lines, checks, samples, the wall-time limit."""

    steps: int = setting(0, "time steps to run; 0: the case's default (a restart that sets none: the end "
                         "step of the run it continues)", minimum=0)
    progress_every: int = setting(0, "steps between progress lines; 0: about 20 lines per run, and one at "
                                  "least every 10 min", minimum=0)
    check_every: int = setting(0, "steps between instability checks (besides every progress line); 0: none",
                               minimum=0)
    sample_every: int = setting(0, "steps between samples of forces and probes (DIR/samples.jsonl); 0: the "
                                "case's", minimum=0)
    wall_time: float = setting(0.0, "stop with a checkpoint before this many seconds of wall time; 0: no limit",
                               minimum=0.0)
    steady_tol: float = setting(0.0, "stop when the velocity changes by less than this between two steadiness "
                                "checks: max |du| / U over every fluid cell; 0: run to the end step", minimum=0.0)
    steady_every: int = setting(0, "steps between steadiness checks; 0: the case's, else the progress interval",
                                minimum=0)


@dataclass(frozen=True)
class OutputSpec(_Spec):
    """Field output: when (steps or simulated time), which fields, in which units, with PNG images."""

    output_every: int = setting(0, "steps between field outputs (HDF5 + XDMF under DIR/fields, or with "
                                "output_region / output_slices in folders of their own); 0: none", minimum=0)
    output_interval: float = setting(0.0, "simulated time between field outputs (physical units); 0: none",
                                     minimum=0.0)
    output_fields: str = setting("rho,u", "fields to write: " + ", ".join(OUTPUT_FIELDS))
    output_units: str = setting("lattice", "units of the written fields", choices=("lattice", "physical"))
    output_images: bool = setting(False, "also write a PNG of |u| (mid-plane) at every output (matplotlib)")
    output_region: str = setting("", "write only this sub-box instead of the whole lattice, e.g. 'x=0.2:0.8; "
                                 "z=0.4:0.6' (physical coordinates, cell k spanning [k, k+1) dx from the case's origin, else 0: the cells whose "
                                 "centres lie in the range) or "
                                 "'i=10:50; k=0:32' (lattice indices, LO included, HI not); axes not named are "
                                 "whole; DIR/region.xdmf")
    output_stride: int = setting(1, "write every k-th cell along each axis of the sub-box (output_region, else the "
                                 "whole lattice); 1: every cell", positive=True)
    average_every: int = setting(0, "steps between samples of the time average of rho and u (rho_mean, u_mean in "
                                 "every field output; kept in checkpoints, so a restart goes on averaging); 0: none",
                                 minimum=0)
    average_from: int = setting(0, "the step from which the time average is taken (the start-up left out)",
                                minimum=0)
    average_stresses: bool = setting(False, "also average u_i u_j (uu_mean: xx, xy, xz, yy, yz, zz; 2D: xx, xy, yy): "
                                     "the Reynolds stresses are uu_mean_ij - u_mean_i u_mean_j")
    output_slices: str = setting("", "write planes instead of the whole lattice, e.g. 'x=0.5; z=0.2' (the plane "
                                 "through the centres of the cells containing that physical coordinate) or "
                                 "'i=200' (a lattice index); DIR/slice_<axis><index>.xdmf each")

    def _check(self):
        _parse_selection("output_region", self.output_region, ranges=True)
        _parse_selection("output_slices", self.output_slices, ranges=False)
        items = self.output_fields.split(",")
        if len(items) > 1 and not items[-1].strip():  # one ',' after the last is harmless
            items.pop()
        empty = [k for k, x in enumerate(items, start=1) if not x.strip()]
        if empty and len(items) > 1:  # 'rho,,u' wrote rho and u, the name left out unsaid (the ';' lists' rule)
            raise ConfigError(f"output_fields = {self.output_fields!r}: item {empty[0]} of {len(items)} between ',' "
                              f"is empty; expected a comma-separated list of {', '.join(OUTPUT_FIELDS)}")
        names = [x.strip() for x in items if x.strip()]
        if [x for x in names if x not in OUTPUT_FIELDS] or not names:
            raise ConfigError(f"output_fields = {self.output_fields!r}: expected a comma-separated list of "
                              f"{', '.join(OUTPUT_FIELDS)}")
        twice = sorted({x for x in names if names.count(x) > 1}, key=names.index)
        if twice:
            raise ConfigError(f"output_fields = {self.output_fields!r}: {', '.join(map(repr, twice))} given more "
                              f"than once; expected each field at most once, e.g. {','.join(dict.fromkeys(names))!r}")

    @property
    def fields(self) -> tuple:
        """The fields to write, in the order given."""
        return tuple(x.strip() for x in self.output_fields.split(",") if x.strip())

    @property
    def light(self) -> bool:
        """Whether only parts of the lattice are written (a sub-box, a stride or slices), not the whole fields."""
        return bool(self.output_region.strip() or self.output_slices.strip() or self.output_stride > 1)

    def cuts(self, shape, dx: float = 1.0, origin=None) -> tuple:
        """The parts of a lattice of `shape` (cells, dx: cell size, origin: physical coordinates of cell 0's
        corner, default 0) this spec writes: Cut tuples, the sub-box first, then the slices; () when the
        whole fields are written. Raises ConfigError naming the key, the value and what was expected."""
        return output_cuts(self, tuple(int(n) for n in shape), float(dx), origin)


# axis names of output_region and output_slices: x, y, z physical coordinates, i, j, k lattice indices
PHYSICAL_AXES, LATTICE_AXES = "xyz", "ijk"
_SELECTION_FORM = {
    True: "items AXIS=LO:HI separated by ';', AXIS one of x, y, z (physical coordinates) or i, j, k (lattice "
          "indices), a bound left out meaning the lattice's edge, e.g. 'x=0.25:0.75; k=0:32'",
    False: "items AXIS=POSITION separated by ';', AXIS one of x, y, z (a physical coordinate) or i, j, k (a "
           "lattice index), e.g. 'x=0.5; z=0.2' or 'i=200'",
}


class Cut(NamedTuple):
    """A part of the lattice to write: the cells start, start + step, ... < stop along each axis (lattice
    indices); `normal`: the axis of a slice (one cell along it), else None; `name`: the output's name
    ('region', or 'slice_x200' for the plane of cells with x index 200)."""

    name: str
    start: tuple
    stop: tuple
    step: tuple
    normal: Optional[int] = None

    @property
    def shape(self) -> tuple:
        return tuple(len(range(a, b, s)) for a, b, s in zip(self.start, self.stop, self.step))


def _number(key: str, text: str, item: str, value: str, lattice: bool, form: str):
    """A coordinate of an output cut, parsed as strictly as the obstacle spec's numbers (no '1_0', nan, inf)."""
    from distlbm.cases.obstacles.spec import number

    try:
        if not lattice:
            return number(value)
        if not re.fullmatch(r"[+-]?[0-9]+", value.strip()):
            raise ValueError(value)
        return int(value)
    except ValueError:
        what = "an integer lattice index" if lattice else "a finite number"
        raise ConfigError(f"{key} = {text!r}: {item!r} has {value!r} where {what} is expected; expected {form}") \
            from None


def _parse_selection(key: str, text: str, ranges: bool) -> list:
    """[(axis letter, lo, hi)] (ranges, None for an edge) or [(axis letter, position)] from an
    output_region / output_slices value; ConfigError on anything else."""
    form = _SELECTION_FORM[ranges]
    out = []
    items = [x.strip() for x in text.replace(",", ";").split(";")]
    if ranges and text.strip() and not any(items):  # ';' alone: the whole lattice was written, unsaid
        raise ConfigError(f"{key} = {text!r}: no range given; expected {form} ({key} = '' for the whole lattice)")
    if len(items) > 1 and not items[-1] and any(items):  # one ';' after the last item: harmless
        items.pop()
    for k, item in enumerate(items, start=1):
        if not item:
            if any(items):  # ';;' skipped an item left out, unsaid (';' alone: "no plane given" below)
                raise ConfigError(f"{key} = {text!r}: item {k} of {len(items)} is empty; expected {form}")
            continue
        name, eq, value = (part.strip() for part in item.partition("="))
        if not eq or len(name) != 1 or name.lower() not in PHYSICAL_AXES + LATTICE_AXES:
            raise ConfigError(f"{key} = {text!r}: {item!r} is not AXIS=...; expected {form}")
        name = name.lower()
        lattice = name in LATTICE_AXES
        if ranges:
            lo, colon, hi = (part.strip() for part in value.partition(":"))
            if not colon:
                raise ConfigError(f"{key} = {text!r}: {item!r} is not a range LO:HI; expected {form}")
            lo = _number(key, text, item, lo, lattice, form) if lo else None
            hi = _number(key, text, item, hi, lattice, form) if hi else None
            if lo is not None and hi is not None and not lo < hi:
                raise ConfigError(f"{key} = {text!r}: {item!r} is empty; expected LO < HI")
            axes = [a for a, *_ in out]
            if "xyzijk".index(name) % 3 in [("xyzijk".index(a)) % 3 for a in axes]:
                raise ConfigError(f"{key} = {text!r}: axis {name!r} is given twice (x and i, y and j, z and k "
                                  f"name the same axis); expected each axis at most once")
            out.append((name, lo, hi))
        else:
            out.append((name, _number(key, text, item, value, lattice, form)))
    if not ranges and text.strip() and not out:
        raise ConfigError(f"{key} = {text!r}: no plane given; expected {form}")
    return out


def _extent(a: int, n: int, dx: float, origin) -> str:
    lo = origin[a]
    return f"{PHYSICAL_AXES[a]} = {lo:g} .. {lo + n * dx:g} with dx = {dx:g}, cells {LATTICE_AXES[a]} = 0 .. {n - 1}"


# positions within this many cells of a cell face count as on it (decimal positions such as 0.5 with
# dx = 1/400 land a rounding error away from the face)
_ON_FACE = 1e-9


def output_cuts(spec: "OutputSpec", shape: tuple, dx: float, origin=None) -> tuple:
    """See OutputSpec.cuts."""
    if not spec.light:
        return ()
    d = len(shape)
    origin = tuple(float(o) for o in (origin if origin is not None else (0.0,) * d))
    cuts = []

    def axis(key, text, name):
        a = (PHYSICAL_AXES + LATTICE_AXES).index(name) % 3
        if a >= d:
            ok = ", ".join(PHYSICAL_AXES[:d]) + " or " + ", ".join(LATTICE_AXES[:d])
            raise ConfigError(f"{key} = {text!r}: axis {name!r} on a {d}D lattice; expected one of {ok}")
        return a

    region = _parse_selection("output_region", spec.output_region, ranges=True)
    slices = _parse_selection("output_slices", spec.output_slices, ranges=False)
    if spec.output_region.strip() or spec.output_stride > 1:
        start, stop = [0] * d, list(shape)
        text = spec.output_region
        for name, lo, hi in region:
            a = axis("output_region", text, name)
            n = shape[a]
            if name in LATTICE_AXES:
                lo_i = 0 if lo is None else lo
                hi_i = n if hi is None else hi
                if not 0 <= lo_i < hi_i <= n:
                    raise ConfigError(f"output_region = {text!r}: {name} = {lo_i}:{hi_i} is outside the lattice; "
                                      f"expected 0 <= LO < HI <= {n} ({_extent(a, n, dx, origin)})")
            else:
                edge = (origin[a], origin[a] + n * dx)
                for b in (lo, hi):
                    if b is not None and not edge[0] - _ON_FACE * dx <= b <= edge[1] + _ON_FACE * dx:
                        raise ConfigError(f"output_region = {text!r}: {name} = {b:g} is outside the lattice; "
                                          f"expected bounds inside {_extent(a, n, dx, origin)}")
                # the cells whose centres origin + (k + 1/2) dx lie in [lo, hi]
                lo_i = 0 if lo is None else max(0, math.ceil((lo - origin[a]) / dx - 0.5 - _ON_FACE))
                hi_i = n if hi is None else min(n, math.floor((hi - origin[a]) / dx - 0.5 + _ON_FACE) + 1)
                if not lo_i < hi_i:
                    raise ConfigError(f"output_region = {text!r}: {name} = {'' if lo is None else f'{lo:g}'}:"
                                      f"{'' if hi is None else f'{hi:g}'} holds no cell centre "
                                      f"({_extent(a, n, dx, origin)}); expected a range that holds at least one")
            start[a], stop[a] = lo_i, hi_i
        cuts.append(Cut("region", tuple(start), tuple(stop), (spec.output_stride,) * d))
    seen = {}
    text = spec.output_slices
    for name, pos in slices:
        a = axis("output_slices", text, name)
        n = shape[a]
        if name in LATTICE_AXES:
            if not 0 <= pos < n:
                raise ConfigError(f"output_slices = {text!r}: {name} = {pos} is outside the lattice; expected "
                                  f"0 <= {name} < {n} ({_extent(a, n, dx, origin)})")
            k = int(pos)
        else:
            lo, hi = origin[a], origin[a] + n * dx
            if not lo - _ON_FACE * dx <= pos <= hi + _ON_FACE * dx:
                raise ConfigError(f"output_slices = {text!r}: {name} = {pos:g} is outside the lattice; expected "
                                  f"a position inside {_extent(a, n, dx, origin)}")
            # the cell that contains the position (on a face between two cells: the upper one)
            k = min(n - 1, max(0, math.floor((pos - lo) / dx + _ON_FACE)))
        label = f"slice_{PHYSICAL_AXES[a]}{k}"
        if label in seen:
            raise ConfigError(f"output_slices = {text!r}: {seen[label]!r} and {name}={pos:g} are the same plane "
                              f"({PHYSICAL_AXES[a]} index {k}); expected each plane once")
        seen[label] = f"{name}={pos:g}"
        start = [0] * d
        stop = list(shape)
        start[a], stop[a] = k, k + 1
        cuts.append(Cut(label, tuple(start), tuple(stop), (1,) * d, a))
    return tuple(cuts)


@dataclass(frozen=True)
class CheckpointSpec(_Spec):
    """Checkpoints: every N steps and/or W seconds of wall time; how many of this run's to keep; how many failed
    writes in a row end the run."""

    checkpoint_every: int = setting(0, "steps between checkpoints (DIR/checkpoints; the end step too); 0: none",
                                    minimum=0)
    checkpoint_wall: float = setting(0.0, "seconds of wall time between checkpoints (the end step too); 0: none",
                                     minimum=0.0)
    checkpoint_keep: int = setting(3, "how many checkpoints to keep", positive=True)
    max_failed_writes: int = setting(3, "failed writes in a row, of every write or of one kind's (checkpoints, or "
                                     "field outputs: a file system's hiccup, a full disk) after which the run stops "
                                     "with exit 74; before "
                                     "that a failed write is said and the run goes on with its state in memory, "
                                     "trying again at the next one; 1: stop at the first", positive=True)


SPECS = {"model": ModelSpec, "decomposition": DecompositionSpec, "control": RunControl, "output": OutputSpec,
         "checkpoint": CheckpointSpec}
COMMON_PARAMS = (Param("case", "", str, "built-in case to run (see `distlbm cases`), or 'module:Class' of your "
                                         "own"),) + tuple(
    p for spec in SPECS.values() for p in _params(spec))
# settings that only say how a run is executed, written or stopped: they may change on restart
RUN_KEYS = frozenset(f.name for name, spec in SPECS.items() if name != "model" for f in fields(spec))


INT64_MAX = 2 ** 63 - 1
INT32_MAX = 2 ** 31 - 1  # the step counter (stepper.State.step) is int32
MAX_CELLS = 2 ** 53  # cell counts and indices stay exact in float64


def said_cells(cells: int) -> str:
    """A count of cells as a refusal says it: 1.68e+304, or its digits cut beyond float64 (channel_flow ref_length =
    1e-156 gave a lattice of 9e+311 cells, and its :.3g was a traceback: "int too large to convert to float")."""
    return f"{cells:.3g}" if cells.bit_length() <= 1023 else said_int(cells)


def check_size_cells(shown: str, cells_text: str, cells: int) -> None:
    """ConfigError for a lattice size given on the command line (`distlbm bench`, `distlbm info`: --size = `shown`,
    `cells_text` cells) of MAX_CELLS cells or more (the memory check's arithmetic raised OverflowError)."""
    if cells >= MAX_CELLS:
        raise ConfigError(f"--size = {shown}: {cells_text} cells; expected fewer than 2**53 = {MAX_CELLS:.3g} cells")

# step counts and intervals in steps: bounded by the int32 step counter
STEP_KEYS = ("steps", "progress_every", "output_every", "checkpoint_every", "check_every", "sample_every",
             "steady_every", "average_every", "average_from")

MACH_WARN = 0.1
MACH_MAX = 0.3


@dataclass(frozen=True)
class RunConfig:
    """A checked configuration: the case, its parameters and resolved setup, and the typed run specs."""

    case: Case
    params: dict  # the case's parameters
    setup: Setup
    model: ModelSpec
    decomposition: DecompositionSpec
    control: RunControl
    output: OutputSpec
    checkpoint: CheckpointSpec
    warnings: tuple = ()
    # (key, its warning) of the given settings that nothing reads in this configuration (also in `warnings`): a
    # restart that takes the output settings it lacks from its run drops those they make read (settled_warnings)
    idle: tuple = ()
    source: str = ""
    given: frozenset = frozenset()  # the keys set in the file, by --set or on the command line
    mesh_option: bool = False  # the mesh came from --mesh: its errors after resolve (the split) name that option
    # the setup's checks not run yet (Setup.checks; resolve(defer_checks=True) leaves them): `run_checks` runs them
    pending: list = field(default_factory=list, compare=False, repr=False)

    @property
    def lattice(self):
        return self.setup.lattice

    @property
    def case_key(self) -> str:
        """The case as the run's configuration records it (checkpoints, summary.json): a built-in's name, or a case
        of your own's 'module:Class', which a restart imports again."""
        return getattr(self.case, "spec", self.case.name)

    @property
    def common(self) -> dict:
        """Every common setting by key (a copy: for display and summary.json)."""
        out = {"case": self.case_key}
        for name in SPECS:
            out.update(getattr(self, name).values())
        return out

    def as_dict(self) -> dict:
        """The flat key = value form (what a TOML file holds; stored in checkpoints)."""
        d = {"case": self.case_key}
        d.update({k: v for k, v in self.common.items() if k != "case"})
        d["lattice"] = self.setup.lattice.name
        d.update(self.params)
        return d

    def check_restart(self, meta: dict, path, inputs: Optional[list] = None) -> list:
        """Refuse a restart whose physics differs from the checkpoint's (other case, lattice, size,
        parameters, the contents of its input files: `inputs`, input_digests(self) when not given); output and
        stop settings may change, and an input file may move (the same contents at another path). Raises
        io.checkpoint.SettingsMismatch (a CheckpointError: the walk over a run's checkpoints ends there); returns a
        line for each moved file, to be said."""
        from distlbm.io.checkpoint import SettingsMismatch

        old = dict(meta.get("config") or {})
        new = self.as_dict()
        # settings added after a checkpoint was written count as their default value
        for p in COMMON_PARAMS:
            if p.name not in old and p.name in new:
                old[p.name] = p.default
        stops = [k for k in self.case.stops if k in self.params]
        # a parameter that others override in both runs (box n beside nx, ny, nz; duct aspect beside nz) is no
        # physics of either: a restart that drops it was refused ("n: checkpoint 12, now 64")
        d = self.setup.lattice.d
        try:
            unused = set(self.case.overridden({k: old.get(k, v) for k, v in self.params.items()}, d))
        except (TypeError, ValueError, KeyError):
            unused = set()
        unused &= set(self.case.overridden(self.params, d))
        # a mask or STL file moved (another path, the same contents: a run taken to another file system): not a change
        now, moved = None, set()
        if meta.get("inputs"):
            now = input_digests(self) if inputs is None else inputs
            moved = moved_inputs(meta["inputs"], now, old, new)
        canon = {p.name: p.canonical for p in self.case.params if p.canonical}

        def changed(k):  # a spec string written otherwise (spaces, 0.50 for 0.5) is the same setting
            a, b = old.get(k), new.get(k)
            if k in canon and isinstance(a, str) and isinstance(b, str):
                return canon[k](a) != canon[k](b)
            return a != b

        keys = [k for k in sorted(set(old) | set(new))
                if k not in RUN_KEYS and k not in self.case.sampling and changed(k)
                and k not in {key for key, _ in self.idle}  # said to have no effect: not a change of physics
                and k not in unused and k not in moved
                and not (k in stops and k in self.given)]  # a stop given: the run's end is this one
        diffs = [f"{k}: checkpoint {old.get(k)!r}, now {new.get(k)!r}"
                 + ((f" (not given: the case's default; give {k} = {old.get(k)!r} as the run did, or another {k} to "
                     f"run to another end)" if old.get(k) is not None else
                     f" (the run had none: its end came from another setting; give {k} to run to another end)")
                    if k in stops else "")
                 for k in keys]
        if list(meta.get("shape", [])) != list(self.setup.shape):
            diffs.append(f"lattice shape: checkpoint {meta.get('shape')}, now {list(self.setup.shape)}")
        if meta.get("inputs") and not diffs:  # (a checkpoint written before the digests: nothing to compare)
            diffs += changed_inputs(meta["inputs"], now)
        if old.get("case") not in (None, new.get("case")):  # one mistake, not a dozen parameters of two cases
            diffs = [f"case: checkpoint {old.get('case')!r}, now {new.get('case')!r} (the case is not taken from the "
                     f"checkpoint: give it, e.g. distlbm run {old.get('case')} --restart ...)"]
        if diffs:
            # other parameters or dtype on the same lattice: the flow can go on in a new run (said: the only way)
            same = (old.get("case") in (None, new.get("case")) and old.get("lattice") == new.get("lattice")
                    and list(meta.get("shape", [])) == list(self.setup.shape))
            # the run's own values to continue it as it ran (`distlbm run cavity2d --restart latest` after a run at
            # --set n=32 was refused, 'n: checkpoint 32, now 128', without saying how to give it)
            # (the lattice too: a --set key, which the suggestion left out, so that it did not let the restart pass;
            # not a key that the run's other key of an exclusive pair set aside, at its default: re = 20 beside
            # nu = 0.001 suggested both, refused as 'both given')
            defaults = {p.name: p.default for p in self.case.params}
            aside = {k for pair in self.case.exclusive if all(not _is_off(old.get(j)) for j in pair)
                     for k in pair if k in defaults and old.get(k) == defaults[k]}
            back = [_set_option(k, old[k]) for k in keys
                    if k != "case" and k not in stops and k not in aside and old.get(k) is not None]
            back = [b for b in back if b is not None]
            raise SettingsMismatch(f"{path}: incompatible with this configuration ({'; '.join(diffs)}); "
                                    f"expected the same case, lattice and parameters (only output, stop"
                                    f"{' (' + ', '.join(stops) + ')' if stops else ''} and sampling settings may "
                                    f"change)"
                                    + (f"; to continue it as it ran, give its values: {' '.join(back)}"
                                       if back and old.get("case") in (None, new.get("case")) else "")
                                    + (f"; to go on from its flow with these settings, start a new run from it: "
                                       f"--init-from {path} --out NEWDIR" if same else ""))
        return [f"{k}: {old.get(k)!r} in the checkpoint, now {new.get(k)!r}: the same contents (moved), continued"
                for k in sorted(moved) if old.get(k) != new.get(k)]


def _build(spec, values: dict, where: str):
    """A spec from the common values (those already checked), with the file name in front of an error."""
    try:
        return spec(**{f.name: values[f.name] for f in fields(spec)})
    except ConfigError as e:
        raise ConfigError(f"{where}{e}") from None


# the command-line options of `distlbm run` that set a setting (resolve's overrides), as the user typed them
OPTION_FLAGS = {"steps": "--steps", "progress_every": "--progress-every", "mesh": "--mesh", "comm": "--comm",
                "output_every": "--output-every", "checkpoint_every": "--checkpoint-every",
                "wall_time": "--wall-time", "steady_tol": "--until-steady"}


def _same_setting(key: str, given, option) -> bool:
    """Whether a --set value and an option's value of the same setting agree (a wall time as text or seconds)."""
    if key == "wall_time" and isinstance(given, (str, datetime.time)):  # 01:00:00 is a TOML time of day
        from distlbm.cli import parse_wall_time

        try:
            given = parse_wall_time(given.isoformat() if isinstance(given, datetime.time) else given)
        except (ConfigError, ValueError):
            return False
    if isinstance(given, list) and key in LIST_FORMS:  # mesh = [2, 1] is '2x1'
        given = _join_list(key, given)
    if isinstance(given, bool) or isinstance(option, bool):
        return given is option
    if isinstance(given, (int, float)) and isinstance(option, (int, float)):
        return float(given) == float(option)
    return str(given) == str(option)


def check_mesh_spelling(text: str, key: str = "mesh") -> None:
    """ConfigError unless a mesh is sizes of decimal digits separated by 'x' (the sizes' own check follows): int()
    read them, so 1_0x1x1 was a mesh of 10 devices, +2 was 2 and any Unicode digit a size."""
    if not re.fullmatch(r"\s*[0-9]+\s*(?:[xX]\s*[0-9]+\s*)*", str(text)):
        raise ConfigError(f"{key} = {text!r}: expected sizes of decimal digits separated by 'x', e.g. 2x2x2")


def empty_mesh(given: Any, key: str = "mesh") -> ConfigError:
    """The refusal of a mesh given empty ('' or []: it ran on the default mesh, unsaid; an empty mesh is no mesh),
    said in one place for resolve's `mesh` / --mesh and bench's --mesh (which does not go through resolve)."""
    shown = _shown(given) if isinstance(given, list) else repr(given)
    return ConfigError(f"{key} = {shown}: expected sizes separated by 'x', e.g. 2x2x2 (leave it out for the default "
                       f"mesh)")


class _Written(float):
    """A float that TOML reads as no finite number (nan, -nan, +inf, 1e400), with the text it was written as: the
    message that refuses it shows that text (--set re=-nan was said as 're = nan', re = 1e400 as 're = inf')."""

    def __new__(cls, x, text: Optional[str] = None):
        obj = super().__new__(cls, x)
        obj.text = repr(float(x)) if text is None else text
        return obj

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


def _toml_float(text: str) -> float:
    """tomllib's parse_float: a float as Python reads it, one that is not finite as its text (_Written)."""
    x = float(text)
    return x if math.isfinite(x) else _Written(x, text)


def parse_value(text: str, key: str = "") -> Any:
    """A --set value as TOML (numbers, booleans, quoted strings); a bare word is a string, and so is a TOML
    integer in hex, octal or binary (--set mesh=0x2 was the hex number 2: a mesh of 2 devices, not '0x2')."""
    if re.fullmatch(r"[+-]?0[xXoObB][0-9a-fA-F_]*", text.strip()):
        return text
    try:
        data = tomllib.loads(f"v = {text}", parse_float=_toml_float)
    except tomllib.TOMLDecodeError:
        return text
    except ValueError:  # an integer of more digits than Python reads (it was a traceback from tomllib)
        m = _long_integer(f"v = {text}")
        if m is None or text.strip() == m.group().strip():
            shown = said_digits(m.group().replace("_", "") if m else text)
        else:  # one in an array or a table ('[1, 99...9]' counted the brackets and commas as digits)
            shown = f"{_digit_runs_cut(text)!r} (an integer of {_digit_count(m)} digits)"
        raise ConfigError(f"{key or 'value'} = {shown}: expected an integer of at most "
                          f"{int_digits_read()} digits (Python's limit for reading one; every setting's range is far "
                          f"below)") from None
    # a value with a line break holds more TOML: --set 'tau=0.8<newline>n=4' was tau = 0.8, its n = 4 dropped unsaid
    return data["v"] if list(data) == ["v"] else text


def parse_sets(items) -> dict:
    """The --set KEY=VALUE items as {key: value}. A key given twice with two values is refused (--set n=8 ...
    --set n=16 ran n = 16, the 8 dropped unsaid: a job script's mistake, as --steps 10 --set steps=20 is); the
    same value twice is harmless."""
    out, typed = {}, {}
    for item in items or ():
        if "=" not in item:
            raise ConfigError(f"--set {item!r}: expected key=value, e.g. --set re=400")
        k, v = item.split("=", 1)
        k = k.strip()
        if not k:
            raise ConfigError(f"--set {item!r}: the key is empty; expected key=value")
        value = parse_value(v.strip(), k)
        if k in out and not (out[k] == value and isinstance(out[k], bool) == isinstance(value, bool)):
            raise ConfigError(f"{k}: --set {typed[k]!r} and --set {item!r} give two values; expected {k} once (or "
                              f"the same value in both)")
        out[k] = value
        typed.setdefault(k, item)
    return out


# string settings that hold a list, and how a TOML array of them is joined into that string: output_fields =
# ["rho", "u"] is 'rho,u', mesh = [2, 2, 1] is '2x2x1', probes = [[0.1, 0.2], [0.3, 0.2]] is '0.1,0.2; 0.3,0.2'
# (an inner array is a point: its numbers joined by ','; so is a flat array of numbers alone: probes = [0.3, 0.2]
# is one point, it was read as two points of one coordinate); an array was refused with "expected a string"
LIST_FORMS = {"output_fields": ",", "mesh": "x", "box": "x", "stl_translate": ",", "stl_rotate": ",",
              "obstacles": "; ", "output_region": "; ", "output_slices": "; ", "probes": "; ", "probe_dp": "; ",
              "probe_line": "; "}


def _join_list(name: str, value: list) -> Optional[str]:
    """The string form of a TOML array given for a list setting, or None where the array does not fit it."""
    sep = LIST_FORMS[name]

    def scalar(v):
        if isinstance(v, str):
            return v
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return repr(v) if isinstance(v, float) else str(v)
        return None

    if sep == "; " and value and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return ",".join(scalar(v) for v in value)  # a flat array of numbers is one point: probes = [0.3, 0.2]
    items = []
    for v in value:
        if isinstance(v, list) and sep == "; ":  # a point
            parts = [scalar(x) for x in v]
            if not parts or any(x is None or isinstance(x, list) for x in parts):
                return None
            items.append(",".join(parts))
        else:
            item = scalar(v)
            if item is None:
                return None
            items.append(item)
    return sep.join(items)


def _set_option(key: str, value: Any) -> Optional[str]:
    """`--set key=value` as a shell takes it, for a checkpoint's value (None for one --set cannot give)."""
    import shlex

    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        text = repr(value)
    elif isinstance(value, str):
        # a bare word is a string to --set; one it reads as another value (1e5, true) is given quoted; the first form
        # that --set reads back as the value (it strips the value: ' x' was given bare, read back as 'x'; a character
        # beyond U+FFFF quoted by json.dumps is a surrogate pair, which TOML refuses)
        for text in (value, json.dumps(value), json.dumps(value, ensure_ascii=False)):
            try:
                if "\n" not in text and parse_value(text.strip()) == value:
                    break
            except ConfigError:
                pass
        else:
            return None
    else:
        return None
    return "--set " + shlex.quote(f"{key}={text}")


def _shown(value: Any) -> str:
    """A value as a message shows it: a TOML date or time as TOML writes it (it was Python's repr,
    'datetime.datetime(1979, 5, 27, 7, 32, tzinfo=datetime.timezone.utc)'), a boolean as TOML writes it (`re = true`
    was said as `re = True`), an integer of hundreds of digits cut (errors.said_int), an array item by item (its
    booleans and long integers likewise: one of 300 digits in `mesh = [...]` was said whole), anything else as its
    repr."""
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return said_int(value)
    if isinstance(value, list):
        return "[" + ", ".join(map(_shown, value)) + "]"
    if isinstance(value, dict):  # an inline table as TOML writes it: {'a': True, 'd': datetime.date(...)} was said
        keys = [str(k) if re.fullmatch(r"[A-Za-z0-9_-]+", str(k)) else json.dumps(str(k)) for k in value]
        return "{" + ", ".join(f"{k} = {_shown(v)}" for k, v in zip(keys, value.values())) + "}"
    return repr(value)


# a decimal number in a form Python reads and TOML does not ('.8', '8.', '0008', '+.5e3'): TOML reads it as text
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _number_hint(text: str, line: int, column: int) -> str:
    """For a TOML error at a line `key = value` whose value is a number in a form TOML does not read ('.8', '8.',
    '0008'): how to write it, as --set says (tomllib said only 'Invalid value (at line 3, column 7)'). Only where the
    error's column falls in that value: `a = .8` inside an unclosed array is an error at `a`, which 0.8 leaves."""
    lines = text.split("\n")  # TOML's lines (splitlines also broke at a U+2028 in a comment or string)
    if not 1 <= line <= len(lines):
        return ""
    m = re.fullmatch(r"\s*[A-Za-z0-9_-]+\s*=\s*([^#\s]+)\s*(?:#.*)?", lines[line - 1])
    if not m or not m.start(1) < column <= m.end(1) + 1:  # (column counts from 1; an error may be just past it: 1.e5)
        return ""
    value = m.group(1)
    try:
        tomllib.loads(f"v = {value}")
        return ""  # TOML reads it: the trouble is elsewhere
    except tomllib.TOMLDecodeError:
        pass
    hint = _written(value, int if re.fullmatch(r"[+-]?[0-9]+", value) else float)
    return hint.replace("TOML reads", "TOML does not read", 1).replace("as text: ", "as a number: ", 1) if hint else ""


def _written(value: Any, kind: type) -> str:
    """For a number given in a form that TOML reads as text: how to write it, as a clause ('' otherwise). --set
    tau=.8 was "tau = '.8': expected a number", which .8 looked like."""
    if not isinstance(value, str) or not _DECIMAL.fullmatch(value.strip()):
        return ""
    x = float(value)
    if not math.isfinite(x) or (kind is int and not x.is_integer()):
        return ""
    if kind is int and re.fullmatch(r"[+-]?[0-9]+", value.strip()):  # its digits, not a float's ('09007199254740993'
        # said ...992); its leading zeros dropped: int() counts them against Python's 4300 digits (n = 00...01 crashed)
        sign, digits = re.fullmatch(r"([+-]?)0*([0-9]*)", value.strip()).groups()
        return f" (TOML reads {value!r} as text: write {said_int(int(sign + (digits or '0')))})"
    return f" (TOML reads {value!r} as text: write {int(x) if kind is int else repr(x)})"


def _plain(value: Any) -> Any:
    """A value given from Python as TOML would give it: a NumPy scalar as the Python value it holds (`for n in
    np.arange(16, 64, 16)`: `n = np.int64(32): expected an integer` refused it), a tuple or a NumPy array as the list
    of its items (`mesh = (1, 1): expected a string (or an array of its items ...)`)."""
    if type(value).__module__ == "numpy":
        if getattr(value, "ndim", None) == 0 and hasattr(value, "item"):
            return value.item()
        if hasattr(value, "tolist"):
            return value.tolist()
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def _check_value(p: Param, value: Any, where: str) -> Any:
    value = _plain(value)

    def bad(expected):
        return ConfigError(f"{where}{p.name} = {_shown(value)}: expected {expected}")

    if p.type is str and isinstance(value, list) and p.name in LIST_FORMS:
        joined = _join_list(p.name, value)
        if joined is None:
            sep = LIST_FORMS[p.name]
            what = "strings or numbers" + (" (a point: an array of numbers)" if sep == "; " else "")
            raise bad(f"a string, or an array of {what} joined as {sep.strip() or sep!r}")
        value = joined

    if p.type is bool:
        if not isinstance(value, bool):
            raise bad("true or false")
    elif p.type is int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                raise bad("an integer" + _written(value, int))
        if p.name in STEP_KEYS and value > INT32_MAX:
            raise bad(f"at most {INT32_MAX} (2**31 - 1: the step counter is int32)")
        if not -INT64_MAX - 1 <= value <= INT64_MAX:
            raise bad(f"an integer between {-INT64_MAX - 1} and {INT64_MAX} (int64)")
    elif p.type is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad("a number" + _written(value, float))
        try:
            x = float(value)
        except OverflowError:  # an integer beyond float64 (re = 1 followed by 400 zeros): it was a traceback
            raise bad("a finite number (at most about 1.8e308, float64's range)") from None
        if not math.isfinite(x):  # said as written: -nan, +inf (were 'nan', 'inf'); 1e400 (was 'inf') with the range
            beyond = isinstance(value, _Written) and not re.fullmatch(r"[+-]?(inf|nan)", value.text)
            raise bad("a finite number" + (" (at most about 1.8e308, float64's range)" if beyond else ""))
        value = x
    elif p.type is str:
        if not isinstance(value, str):
            form = f" (or an array of its items, joined as {LIST_FORMS[p.name].strip()!r})" if p.name in LIST_FORMS else ""
            raise bad(f"a string{form}")
    if p.choices:
        match = next((c for c in p.choices if isinstance(value, str) and c.lower() == value.lower()), None)
        if match is None:
            raise bad(f"one of {', '.join(repr(c) for c in p.choices if c)}")
        value = match
    if p.positive and not value > 0:
        raise bad("a positive value (> 0)")
    if p.minimum is not None and value < p.minimum:
        raise bad(f"a value >= {p.minimum:g}")
    return value


# settings read only when another one is on: (keys, on(common, params), what turns them on)
_OUTPUT_ON = "output_every or output_interval > 0 (--output-every)"
_DEPENDENT = (
    (("trt_lambda",), lambda c, p: c["collision"] == "trt", "collision = 'trt'"),
    (("steady_every",), lambda c, p: c["steady_tol"] > 0, "steady_tol > 0 (--until-steady)"),
    (("output_fields", "output_units", "output_images", "output_region", "output_stride", "output_slices",
      "average_every"),
     lambda c, p: c["output_every"] > 0 or c["output_interval"] > 0, _OUTPUT_ON),
    (("average_from", "average_stresses"), lambda c, p: c["average_every"] > 0,
     "average_every > 0 (a time average of rho and u)"),
    (("stl_scale", "stl_translate", "stl_rotate"), lambda c, p: bool(p.get("stl")),
     "stl = PATH (a body stl(path, scale, ...) in obstacles takes its own scale and placement)"),
    (("mask_dataset",), lambda c, p: bool(p.get("mask")), "mask = an HDF5 file"),
    (("sponge_strength",), lambda c, p: p.get("sponge", 0) > 0, "sponge > 0 (the absorbing layer's thickness)"),
    (("nz",), lambda c, p: get_lattice(c["lattice"]).d == 3, "a 3D lattice (D3Q19, D3Q27)"),  # the box's z size
)


def _is_off(value: Any) -> bool:
    """A 0 given for a number that acts only when > 0 (re = 0: from nu; u_lattice = 0: from tau)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0


def _asks_nothing(p: Param, value: Any) -> bool:
    """A value that is the setting's documented off or stand-in, its default (0: none, 'the case's'; false): given,
    it asks for nothing an unset key does not, so it is never said to "have no effect" (sample_every = 0 on a case
    that samples nothing, average_every = 0 without field output, were; a run without out_dir says only the nonzero
    checkpoint_every / output_every)."""
    if isinstance(value, bool) or isinstance(p.default, bool):
        return value is False and p.default is False
    return _is_off(value) and _is_off(p.default)


def _slips(a: str, b: str) -> int:
    """The typing slips from `a` to `b`: letters changed, added, dropped, or two neighbours swapped (the optimal
    string alignment distance)."""
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]


def _near_keys(key: str, known) -> list:
    """The keys `key` is likely a misspelling of: those the fewest typing slips away (at most one per 4 letters, 1 at
    least), those of its own length first ('stepz': 'steps', then 'step'; difflib's ratio named 'step' alone), else
    difflib's nearest, else the one of its letters in lower case (N for n). A one-letter key goes to difflib: every
    other one-letter key is one slip from it ('x', 'u' got "did you mean 'n'?")."""
    known = list(known)
    far = {k: _slips(key, k) for k in known}
    least = min(far.values(), default=0)
    if far and least <= max(1, len(key) // 4) and least < len(key):
        return sorted((k for k in known if far[k] == least), key=lambda k: (abs(len(k) - len(key)), k))[:2]
    return difflib.get_close_matches(key, known, n=1, cutoff=0.6) or [
        k for k in known if k.lower() == key.lower()][:1]  # keys are lower case: N for n


def _unknown(key: str, value: Any, known, where: str) -> ConfigError:
    near = _near_keys(key, known)
    hint = f"; did you mean {' or '.join(repr(k) for k in near)}?" if near else ""
    return ConfigError(f"{where}unknown key {key!r} (= {_shown(value)}){hint}; expected one of the valid keys: "
                       f"{', '.join(sorted(known))}")


def _stat(path) -> "os.stat_result | None":
    """os.stat of `path`, or None where it does not exist or cannot be a path at all."""
    try:
        return os.stat(path)
    except (OSError, ValueError):  # ValueError: an embedded NUL byte
        return None


def _not_regular(path, mode) -> ConfigError:
    what = ("a directory" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "not a regular file")
    return ConfigError(f"configuration file {str(path)!r} is {what}; expected a regular TOML file (or a case "
                       f"name: see `distlbm cases`)")


# a TOML key as written before its '=': bare or quoted parts, dotted
_TOML_KEY = re.compile(r"""\s*((?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'))*)\s*=""")


def _given_twice(text: str, end: int):
    """(line, key, that line) of the key-value statement that tomllib refused as 'Cannot overwrite a value' at line
    `end` (the line where its value ends: a value over several lines, an array, names its last line), or None. Its
    first line is the nearest one at or before `end` from which the lines up to `end` are one key = value; the key as
    written there (a quoted key may hold '=')."""
    lines = [line.removesuffix("\r") for line in text.split("\n")]  # (tomllib counts lines by '\n' alone)
    if not 0 < end <= len(lines):
        return None
    for start in range(end, max(0, end - 1000), -1):
        try:
            if len(tomllib.loads("\n".join(lines[start - 1:end]))) != 1:
                continue
        except tomllib.TOMLDecodeError:
            continue
        m = _TOML_KEY.match(lines[start - 1])
        return (start, m.group(1), lines[start - 1].strip()) if m else None
    return None


# TOML text a long integer is looked for in: strings and comments are skipped (their digits are no integer), and so
# are the digits of floats, dates, times, hex/octal/binary and keys (each a token of its own)
_TOML_SKIP = "|".join([r'"""[\s\S]*?"""(?:"{0,2})', r"'''[\s\S]*?'''(?:'{0,2})", r'"(?:[^"\\\n]|\\.)*"',
                       r"'[^'\n]*'", r"#[^\n]*"])
_TOML_INT = r"(?<![\w.+:-])(?P<int>[+-]?[0-9][0-9_]*)(?![\w.:])(?!\s*=)"
_TOML_TOKENS = re.compile(f"{_TOML_SKIP}|{_TOML_INT}")


def _digit_count(m) -> int:
    return sum(c.isdigit() for c in m.group("int"))


def _long_integer(text: str):
    """The match (group 'int', its sign with it) of the first TOML integer in `text` of more digits than Python
    reads (its underscores not counted, as Python counts them), or None."""
    limit = int_digits_read()
    return next((m for m in _TOML_TOKENS.finditer(text) if m.group("int") and _digit_count(m) > limit),
                None) if limit else None


def _digit_runs_cut(text: str) -> str:
    """`text` with each run of more than INT_DIGITS_SHOWN digits cut to its first and last digits."""
    return re.sub(r"[0-9][0-9_]{%d,}" % INT_DIGITS_SHOWN,
                  lambda m: cut_digits(m.group()) if len(m.group().replace("_", "")) >
                  INT_DIGITS_SHOWN else m.group(), text)


def _too_many_digits(path, text: str) -> ConfigError:
    """The ConfigError of a TOML file that holds an integer of more digits than Python reads (tomllib raised a
    ValueError: a traceback), naming its line and key."""
    m = _long_integer(text)
    if m is None:
        limit = int_digits_read()
        return ConfigError(f"{path}: an integer of more than {limit} digits; expected at most {limit} digits "
                           f"(Python's limit for reading one)")
    start = text.rfind("\n", 0, m.start()) + 1
    key = _TOML_KEY.match(text, start)
    where = f"line {text.count(chr(10), 0, m.start()) + 1}"
    shown = said_digits(m.group("int").replace("_", ""))
    # (the key where the line gives one; a line of a multi-line array has none: 'line 4 = ...' read as a key)
    said = f"{where}, {key.group(1).strip()} = {shown}" if key else f"{where}: an integer {shown}"
    return ConfigError(f"{path}: {said}: expected an integer of at most {int_digits_read()} digits (Python's limit "
                       f"for reading one; every setting's range is far below)")


def load_file(path: Path) -> dict:
    """The key = value pairs of a TOML file. Anything but a readable regular file of UTF-8 TOML is one
    ConfigError: a directory, a FIFO (which would block), a device, an unreadable or non-UTF-8 file."""
    name = str(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise ConfigError(f"configuration file {name!r} not found") from None
    except (OSError, ValueError) as e:
        raise ConfigError(f"configuration file {name!r} cannot be read: {getattr(e, 'strerror', None) or e}; "
                          f"expected a readable TOML file") from None
    if not stat.S_ISREG(st.st_mode):  # refused before opening: opening a FIFO would block
        raise _not_regular(path, st.st_mode)
    try:
        # O_NONBLOCK: should a FIFO appear between the stat and the open, it must not block
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise ConfigError(f"configuration file {name!r} cannot be opened: {e.strerror or e}; expected a readable "
                          f"TOML file") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(path, st.st_mode)
        with os.fdopen(fd, "rb") as fh:
            fd = None
            raw = fh.read()
    except OSError as e:
        raise ConfigError(f"configuration file {name!r} cannot be read: {e.strerror or e}; expected a readable "
                          f"TOML file") from None
    finally:
        if fd is not None:
            os.close(fd)
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")  # a byte-order mark (Windows editors write one)
    except UnicodeDecodeError as e:
        raise ConfigError(f"{name}: not UTF-8 text (byte {raw[e.start]:#04x} at offset {e.start}); expected a TOML "
                          f"file, which is UTF-8") from None
    try:
        data = tomllib.loads(text, parse_float=_toml_float)
    except ValueError as e:  # tomllib.TOMLDecodeError, or a ValueError alone for an integer beyond Python's digits
        if not isinstance(e, tomllib.TOMLDecodeError):
            raise _too_many_digits(path, text) from None
        # a key given twice is tomllib's "Cannot overwrite a value (at line 3, column 6)": the key named, and its line
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        twice = _given_twice(text, int(m.group(1))) if m and str(e).startswith("Cannot overwrite a value") else None
        if twice is not None:
            line, key, first = twice
            raise ConfigError(f"{path}: key {key!r} is given more than once (line {line}: {first!r}); "
                              f"expected each key once") from None
        hint = _number_hint(text, int(m.group(1)), int(m.group(2))) if m else ""
        raise ConfigError(f"{path}: not valid TOML: {e}{hint}") from None
    for k, v in data.items():
        if isinstance(v, dict):
            raise ConfigError(f"{path}: key {k!r} is a table; expected flat key = value pairs (see `distlbm cases`)")
    return data


def _is_file_target(text: str) -> bool:
    """Whether the run target names a configuration file rather than a built-in case: a *.toml name, or
    any existing path that is not a case name (a directory or a FIFO is then refused by load_file)."""
    if text.endswith(".toml"):
        return True
    st = _stat(text)
    if st is None:
        return False
    return stat.S_ISREG(st.st_mode) or text not in CASES


USER_CASE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")


def user_case(spec: str, where: str = "") -> Case:
    """The case of your own that `spec` = 'package.module:Name' names (README "From Python"): the module is
    imported by its dotted path from sys.path (an installed package, PYTHONPATH; `python -m distlbm` also the
    working folder) and Name is a Case subclass (or instance). Nothing is evaluated: one clear error for a path
    that is not such, a module that does not import, a missing name, or a case whose `name` is a built-in's."""
    import importlib

    want = "expected 'package.module:ClassName' naming a distlbm.cases.base.Case subclass"
    if not USER_CASE.fullmatch(spec):
        raise ConfigError(f"{where}case = {spec!r}: {want}")
    module, attr = spec.split(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        raise ConfigError(f"{where}case = {spec!r}: no module named {e.name!r} on the Python path; {want} of a "
                          f"module that imports (installed, or in a folder on PYTHONPATH)") from None
    except Exception as e:  # the user's module itself failed: its error in one line
        raise ConfigError(f"{where}case = {spec!r}: importing {module} failed: {type(e).__name__}: {e}") from None
    obj = getattr(mod, attr, None)
    case = obj() if isinstance(obj, type) and issubclass(obj, Case) else obj
    if not isinstance(case, Case):
        what = "not found" if obj is None else f"is {type(obj).__name__}"
        raise ConfigError(f"{where}case = {spec!r}: {attr} in {module} {what}; {want}")
    name = getattr(case, "name", "")
    if name in CASES and type(CASES[name]) is not type(case):
        raise ConfigError(f"{where}case = {spec!r}: its name {name!r} is a built-in case's; expected another name "
                          f"(the name labels its runs, summaries and restarts)")
    case.spec = spec  # what the run's configuration records, so that a restart imports it again
    return case


def named_by_file(cfg: RunConfig, error) -> str:
    """An error's message about cfg's settings, with the TOML file's name in front where they came from one (as
    resolve's errors have it): for the checks that come after resolve (the geometry's scans, the mesh's split)."""
    file = cfg.source not in ("", "default", "command line")
    return f"{cfg.source}: {error}" if file and not str(error).startswith(f"{cfg.source}: ") else str(error)


def mesh_named(cfg: RunConfig, error) -> str:
    """A mesh's error after resolve (its split, its devices, its blocks per MPI rank) naming the mesh as the user gave
    it: --mesh on the command line ('mesh = 4x1x1 has 4 blocks' named a key not written), else as named_by_file."""
    text = str(error)
    if cfg.mesh_option:  # (no file's name in front of an option)
        return f"--{text}" if text.startswith("mesh = ") else text
    return named_by_file(cfg, text)


def mesh_split_named(cfg: RunConfig, error) -> str:
    """A DecompositionError of the mesh's split after resolve (the dry run's, the run's) as mesh_named says it, with
    the mesh the user gave in front of a text that does not start with it (the run said 'lattice size 8 along x
    does not divide over 3 devices ... (mesh 3x1x1)', naming neither --mesh nor the file's key, where the dry run
    named them) and the case's sizes that would split (size_hint)."""
    text = str(error)
    if cfg.decomposition.mesh and not text.startswith("mesh"):  # (an automatic mesh: none given to name)
        text = f"mesh = {cfg.decomposition.mesh!r}: {text}"
    return mesh_named(cfg, f"{text}{size_hint(cfg, getattr(error, 'fits', None))}")


def run_checks(cfg: RunConfig, stop: Optional[Callable[[], bool]] = None) -> bool:
    """Run the checks of cfg's setup that resolve(defer_checks=True) left (a channel's fluid path: a scan of the
    lattice), once: ConfigError where the geometry fails one (the file's name in front, as resolve's). stop() is
    asked between parts of a scan: False where it said stop before they were done (they stay pending)."""
    while cfg.pending:
        try:
            done = cfg.pending[0](stop)
        except ConfigError as e:
            raise ConfigError(named_by_file(cfg, e)) from None
        if done is False:
            return False
        cfg.pending.pop(0)
    return True


def initial_block(cfg: RunConfig, index, tau: Optional[float] = None) -> np.ndarray:
    """The stored initial populations g = f* - w of the block `index` (a tuple of slices), float64, as a new run
    starts them (the Simulation fills its lattice with these, slab by slab); tau: another relaxation time's."""
    from distlbm.cases.base import initial_problem
    from distlbm.physics.initial import init_populations

    s = cfg.setup
    rho, u, grad = s.initial(index)
    bad = initial_problem(rho, u, grad, index, s.shape)
    if bad:  # a wrong shape failed in init_populations as a bare broadcasting error
        raise ConfigError(f"case {cfg.case.name}: {bad}")
    # the populations carry rho u + F/2 of each cell's own force (a per-cell field, its uniform force added:
    # float64 on the host, as the step's field is assembled from it, so every decomposition starts from the same bits)
    field = s.cell_force()
    force = s.force if field is None else np.asarray(field(index), np.float64)
    return init_populations(rho, u, s.lattice, s.tau if tau is None else tau, force,
                            cfg.model.equilibrium == "incompressible", grad)


def lowest_initial(cfg: RunConfig, index, g: Optional[np.ndarray] = None) -> Optional[tuple]:
    """Where the initial populations of the block `index` (g: its initial_block, computed if not given) go negative:
    (the lowest f* = g + w, its direction, its global cell, the largest tau at which every population of the block is
    >= 0), or None where none is negative. f* is linear in tau (the Chapman-Enskog part of an initial velocity
    gradient, -(tau - 1) w rho/cs2 Q:grad u): f*(tau) = A - (tau - 1) B, A = f*(1), so that limit is exact."""
    s = cfg.setup
    g = initial_block(cfg, index) if g is None else g
    w = np.asarray(s.lattice.w, np.float64).reshape((-1,) + (1,) * len(s.shape))
    # each direction's lowest first, without a copy of the block (adding w_i is monotone: min(g_i) + w_i is
    # min(g_i + w_i) to the bit); f = g + w only where one is negative
    if not (g.reshape(g.shape[0], -1).min(axis=1) + w.ravel()).min() < 0:
        return None
    f = g + w
    low = f.min()
    # of equal values (a symmetric flow's mirror cells), the first cell in C order, then the lowest direction: the
    # same whatever blocks the lattice is cut into (pick_lowest), the run's devices or the dry run's slabs
    hits = np.argwhere(f == low)
    cell, i = min((tuple(int(c) for c in h[1:]), int(h[0])) for h in hits)
    cell = tuple(c + (sl.start or 0) for c, sl in zip(cell, index))
    limit = math.inf
    if s.tau != 1.0:
        a = initial_block(cfg, index, tau=1.0) + w
        b = (a - f) / (s.tau - 1.0)
        grows = b > 0
        if grows.any():
            limit = float(np.min(1.0 + a[grows] / b[grows]))
    return float(low), i, cell, limit


def initial_has_gradient(cfg: RunConfig) -> bool:
    """Whether the case starts from a velocity gradient (its initial gives grad_u: the Taylor-Green vortices), whose
    non-equilibrium part can make an initial population negative at a large tau. Without one the populations are
    equilibria, positive at any speed below sqrt(1/3) (Mach 1; the Mach number above 0.3 is refused): not scanned."""
    return cfg.setup.initial(tuple(slice(0, 1) for _ in cfg.setup.shape))[2] is not None


def negative_initial_error(cfg: RunConfig, found: tuple) -> ConfigError:
    """The refusal of a run whose initial state has a negative population (found: lowest_initial's, the lattice's
    lowest): one line naming the settings that lower tau below the limit. taylor_green2d at re = 0.08 (tau 96.5)
    started from populations down to -0.13: the dry run said ready and the run gave garbage or blew up."""
    value, i, cell, limit = found
    s, params = cfg.setup, cfg.params
    tau = s.tau
    given = partial(_positive, params)
    vkey = velocity_key(cfg.case, params)
    if given("tau") and abs(given("tau") - tau) <= 1e-12 * tau:
        fix = f"lower tau (now {tau:.6g})"
    elif given("re") and math.isfinite(limit) and limit > 0.5:
        # tau - 1/2 is the viscosity, in proportion to 1/re at the same velocity and size
        need = params["re"] * (tau - 0.5) / (limit - 0.5)
        scale = 10.0 ** (math.floor(math.log10(need)) - 2)
        fix = f"raise re (now {params['re']:.4g}) to {math.ceil(need / scale * (1 - 1e-12)) * scale:.3g} or more"
    else:
        fix = "lower the viscosity"
    if given(vkey):  # the gradient's part grows as (tau - 1) u k, about u^2 / re: a lower velocity lowers it too
        fix += f", or lower {vkey} (now {params[vkey]:.4g})"
    bound = f"below {bound_below(limit)}" if math.isfinite(limit) else "lower"
    return ConfigError(
        f"{named_by_file(cfg, '')}the initial state has a negative population (f_{i} = {value:.3g} at cell "
        f"{cell}, tau = {tau:.6g}): the non-equilibrium part of the initial velocity gradient, -(tau - 1) w rho/cs2 "
        f"Q:grad u, outweighs the equilibrium, and such a run blows up or gives meaningless results; expected tau "
        f"{bound} here ({fix})")


def initial_state_check(cfg: RunConfig, stop: Optional[Callable[[], bool]] = None) -> bool:
    """Scan a new run's initial populations slab by slab along x (as the run computes them) where the case starts
    from a velocity gradient: ConfigError (negative_initial_error) where one is negative. stop() is asked between
    slabs: False where it said stop before the scan was done."""
    if not initial_has_gradient(cfg):
        return True
    shape = cfg.setup.shape
    per = max(1, (1 << 20) // max(1, math.prod(shape[1:])))  # about a million cells a slab
    worst = None
    for x in range(0, shape[0], per):
        if stop is not None and stop():
            return False
        found = lowest_initial(cfg, (slice(x, min(x + per, shape[0])),) + tuple(slice(0, n) for n in shape[1:]))
        worst = pick_lowest([worst, found])
    if worst is not None:
        raise negative_initial_error(cfg, worst)
    return True


def pick_lowest(found) -> Optional[tuple]:
    """Of lowest_initial's results of several blocks (None: none negative there), the lowest population, with the
    smallest limit of them all (the lattice's); of equal values, the first cell in C order, then the lowest direction
    (as lowest_initial picks within a block)."""
    found = [f for f in found if f is not None]
    if not found:
        return None
    low = min(found, key=lambda f: (f[0], tuple(f[2]), f[1]))  # (gathered from other processes: lists)
    return low[0], low[1], tuple(low[2]), min(f[3] for f in found)


def unknown_case(name, key: str, own: bool) -> ConfigError:
    """A case name that is no built-in's (`key`: how the input named it, `case` of a file or --set, `CASE` of
    `distlbm cases`), with the nearest name; own: a 'module:Class' of the user's is accepted there too."""
    from distlbm.cases import CASES

    # (the names are lower case: 'CAVITY2D' got no hint, difflib's ratio of its letters to 'cavity2d' being 0.25)
    near = difflib.get_close_matches(str(name).lower(), list(CASES), n=1, cutoff=0.5)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    return ConfigError(f"{key} = {name!r}: expected one of {', '.join(CASES)}{hint}"
                       + (", or 'module:Class' of a case of your own" if own else ""))


_DERIVED = "a quantity it derives from them (a lattice size, the viscosity, the time step, a number of steps)"


def build_failure(e: BaseException) -> str:
    """What a case's build raised, in the project's words: the arithmetic that no check of the case covers (a user's
    case, a site not named) failed in Python's ("ZeroDivisionError: float division by zero", "OverflowError: (34,
    'Numerical result out of range')", "MemoryError: Unable to allocate ..."); any other error's own text, unnamed."""
    text = str(e)
    if isinstance(e, ZeroDivisionError) or (isinstance(e, FloatingPointError) and "divide" in text):
        return f"{_DERIVED} divides by 0: a value below float64's range, or one so large that what it divides is 0"
    if isinstance(e, FloatingPointError) and "invalid value" in text:  # NumPy's sqrt(-1), inf - inf under 'raise'
        return f"{_DERIVED} is not a number (nan: the square root of a negative number, inf - inf, 0 * inf)"
    if isinstance(e, FloatingPointError) and "underflow" in text:  # (it was said "beyond float64's range")
        return f"{_DERIVED} is below float64's range (about 2.2e-308) and rounds to 0"
    if isinstance(e, ArithmeticError):  # OverflowError, FloatingPointError: beyond float64 or an int of it
        return f"{_DERIVED} is beyond float64's range (about 1.8e308) or too large for an integer"
    if isinstance(e, ValueError) and text == "math domain error":
        return f"{_DERIVED} is outside a function's domain (a square root or logarithm of a negative number)"
    if isinstance(e, ValueError) and "NaN" in text:  # int(nan)
        return f"{_DERIVED} is not a number (nan)"
    if isinstance(e, MemoryError):
        return f"not enough memory ({text})" if text else "not enough memory"
    return text or type(e).__name__


def resolve(case_or_file: str | None, sets: dict | None = None, *, default_case: str | None = None,
            defer_checks: bool = False, **overrides) -> RunConfig:
    """Build a checked RunConfig from a case name or TOML file, --set values and CLI overrides.

    The case comes from the target (a case name, or the TOML file's `case`); a `case` in `sets` or the
    overrides must agree with it. default_case: the case when none is given anywhere. defer_checks: leave the
    setup's scans of the whole lattice (Setup.checks) to `run_checks`, after the memory pre-flight."""
    if isinstance(case_or_file, os.PathLike):  # (from Python: a Path of a TOML file was an AttributeError)
        case_or_file = os.fspath(case_or_file)
    if case_or_file is not None and not isinstance(case_or_file, str):
        raise ConfigError(f"case = {case_or_file!r}: expected a case's name, 'module:Class' or a TOML file's path")
    if sets is not None and not isinstance(sets, dict):
        raise ConfigError(f"settings = {sets!r}: expected a dict {{key: value}} (as --set key=value)")
    values: dict = {}
    where = ""
    source = "default"
    base_case = base_from = None
    from_file: dict = {}
    if case_or_file and _is_file_target(case_or_file):
        from_file = load_file(Path(case_or_file))
        values.update(from_file)
        where = f"{case_or_file}: "
        source = case_or_file
        if "case" not in values:
            raise ConfigError(f"{where}key 'case' is missing: expected one of {', '.join(CASES)}")
        base_case, base_from = values["case"], f"in {case_or_file}"
    elif case_or_file:
        values["case"] = case_or_file
        source = "command line"
        base_case, base_from = case_or_file, "as the run target"
    # a second, different case (--set case=..., or a keyword override) is a conflict, not an override
    for origin, given in (("--set case=", sets or {}), ("case=", overrides)):
        other = given.get("case")
        if other is not None and base_case is not None and other != base_case:
            raise ConfigError(f"{where}case = {other!r} ({origin}{other}) conflicts with case {base_case!r} given "
                              f"{base_from}: expected one case (drop the {origin.rstrip('=')}, or give the same case)")
    for k, v in (sets or {}).items():
        values[k] = v
    for k, v in overrides.items():
        if v is None:
            continue
        if k in (sets or {}) and not _same_setting(k, sets[k], v):  # --steps 10 --set steps=20: one was dropped
            flag = OPTION_FLAGS.get(k, f"--{k.replace('_', '-')}")
            given = sets[k].isoformat() if isinstance(sets[k], datetime.time) else sets[k]
            option = f"{v:g} s" if k == "wall_time" and isinstance(v, (int, float)) else repr(v)
            raise ConfigError(f"{k}: {flag} {option} and --set {k}={given!r} give two values; expected one "
                              f"of them (or the same value in both)")
        values[k] = v
    if values.get("case") is None and default_case:  # none given: a case = "" is a mistake, not the default
        values["case"] = default_case
    wall = values.get("wall_time")
    if isinstance(wall, (str, datetime.time)):  # as --wall-time takes it: "01:00:00", Slurm's "1-12:00:00"
        from distlbm.cli import parse_wall_time  # (TOML reads an unquoted 01:00:00 as a time of day)

        values["wall_time"] = parse_wall_time(wall.isoformat() if isinstance(wall, datetime.time) else wall,
                                              key=f"{where}wall_time")
    case_name = values.get("case") or ""
    if isinstance(case_name, str) and ":" in case_name and case_name not in CASES:
        case = user_case(case_name, where)
    elif not isinstance(case_name, str) or case_name not in CASES:
        raise unknown_case(case_name, f"{where}case", own=True)
    else:
        case = CASES[case_name]
    common_spec = {p.name: p for p in COMMON_PARAMS}
    case_spec = {p.name: p for p in case.params}
    known = set(common_spec) | set(case_spec)
    common = {p.name: p.default for p in COMMON_PARAMS}
    common.update(case.common_defaults)  # e.g. a benchmark preset's collision or equilibrium
    params = {p.name: p.default for p in case.params}
    for p in case.params:  # a user's case: a default its own check refuses (4.5 for an int) ran as given, unsaid
        if p.name not in values:
            try:
                _check_value(p, p.default, "")
            except ConfigError as e:
                raise ConfigError(f"{where}case {case.name!r}: its Param default {e} (a default that the case's "
                                  f"own check refuses)") from None
    command_line = {k for k in (sets or {})} | {k for k, v in overrides.items() if v is not None}
    for k, v in values.items():
        # a key given on the command line is not the file's: its error names the command line, not the file
        said = "command line: " if where and k in command_line else where
        if k in case_spec:
            params[k] = _check_value(case_spec[k], v, said)
        elif k in common_spec:
            common[k] = _check_value(common_spec[k], v, said)
        else:
            raise _unknown(k, v, known, said)
    notes = []
    for pair in case.exclusive:  # keys that set the same thing: one of them (a 0 of an "if > 0" key is off)
        both = [k for k in pair if k in values and not _is_off(values[k])]
        if len(both) < 2:
            continue
        said = [k for k in both if k in command_line]
        if len(said) == 1 and all(k in from_file and k not in command_line for k in both if k != said[0]):
            # the command line overrides the file: its key replaces the file's keys that fix the same thing
            for k in both:
                if k != said[0]:
                    spec = case_spec if k in case_spec else common_spec
                    (params if k in case_spec else common)[k] = spec[k].default
                    del values[k]
                    notes.append(f"{k} = {from_file[k]!r} of {case_or_file} set aside: {said[0]} = "
                                 f"{values[said[0]]!r} given on the command line fixes the same thing")
            continue
        raise ConfigError(f"{where}{' and '.join(f'{k} = {values[k]!r}' for k in both)}: both given, but each "
                          f"fixes the same thing in case {case_name!r}; expected "
                          f"one of {', '.join(pair)}")
    for k, v in case.common_defaults_for(params).items():  # e.g. the collision at Re 1600
        if k not in values:
            common[k] = v
    common["case"] = case_name

    lat = get_lattice(common["lattice"] or case.default_lattice)
    if lat.d not in case.dims:
        ok = [n for n, l_ in LATTICES.items() if l_.d in case.dims]
        raise ConfigError(
            f"{where}lattice = {lat.name!r} is {lat.d}D but case {case_name!r} is "
            f"{'/'.join(f'{d}D' for d in case.dims)}: expected one of {', '.join(ok)}"
        )
    common["lattice"] = lat.name
    model_spec = _build(ModelSpec, common, where)
    exact = "float64" in (model_spec.dtype, model_spec.compute_dtype)
    if "steady_tol" not in values and exact and case.steady_tol_float64 > 0:
        # a case whose answer is exact to round-off converges further in float64 (and stalls earlier in float32)
        common["steady_tol"] = case.steady_tol_float64
    specs = {name: model_spec if spec is ModelSpec else _build(spec, common, where) for name, spec in SPECS.items()}
    common.update(specs["model"].values())  # the resolved compute dtype
    # the mesh named as the user gave it: --mesh 2x2x2 was said as 'mesh = ...', an option not on the command line
    mesh_option = overrides.get("mesh") is not None
    mesh_label = "--mesh" if mesh_option else f"{where}mesh"
    if "mesh" in values and not str(common["mesh"]).strip():  # mesh = [] or '' meant the default mesh
        raise empty_mesh(values["mesh"], mesh_label)
    if common["mesh"]:
        from distlbm.parallel.mesh import DecompositionError, parse_mesh

        check_mesh_spelling(common["mesh"], mesh_label)
        try:
            parse_mesh(common["mesh"], lat.d, "--mesh" if mesh_option else "mesh")
        except DecompositionError as e:
            raise ConfigError(str(e) if mesh_option else f"{where}{e}") from None

    if "tau" in params and not params["tau"] > 0.5:  # checked before build: the case divides by tau - 1/2
        raise ConfigError(
            f"{where}tau = {params['tau']!r}: expected tau > 0.5; the lattice viscosity cs2*(tau - 1/2) "
            f"must be positive"
        )
    given = ", ".join(f"{k}={params[k]}" for k in params)
    user = [k for k in params if k in values]
    shown = (", ".join(f"{k}={params[k]!r}" for k in user) + " (other parameters at their defaults)" if user
             else f"its default parameters ({given})")
    if type(case).lattice_shape is not Case.lattice_shape:  # a shape known without the build: an absurd lattice
        try:  # (a unit slip: ref_length 1e-9) is refused before the build allocates for it (15 GB, then killed)
            early = tuple(int(n) for n in case.lattice_shape(params, lat))
        except (ConfigError, ArithmeticError, ValueError, TypeError, MemoryError, OverflowError):
            early = None
        if early is not None and math.prod(early) >= MAX_CELLS:
            raise ConfigError(f"{where}lattice shape {'x'.join(map(said_int, early))} (from {shown}) has "
                              f"{said_cells(math.prod(early))} cells: expected fewer than 2**53 = {MAX_CELLS:.3g}")
    try:
        # (NumPy's overflow of an absurd value, u_lattice = 1e308, printed a RuntimeWarning and its source line before
        # the one line: the setup's own checks below say what is not finite)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            setup = case.build(params, lat)
    except OutOfRange as e:  # a lattice size, viscosity, time step or number of steps that float64 or the int32 step
        # counter cannot hold (re = 1e300: nu 0; ramp = 1.7e308 s: inf steps), with the parameters it came from (it
        # was Python's ZeroDivisionError / OverflowError text)
        key = e.key if isinstance(e, StepsUncountable) else None
        fix = (f"lower {key}" if key in user else f"change {', '.join(user)}" if user else
               f"give the case parameters that make {'fewer' if key else 'it'}")
        raise ConfigError(f"{where}{e.quantity} = {e.value:.4g} (from {shown}): expected {e.expected}; {fix}") from None
    except ConfigError as e:  # (a probe or an obstacle of a file's settings: the file named, as for the others)
        if where and type(e) is ConfigError and not str(e).startswith(where):
            raise ConfigError(f"{where}{e}") from None
        raise
    except (ArithmeticError, ValueError, MemoryError) as e:  # e.g. int(inf) steps, 1/0, a huge array
        raise ConfigError(
            f"{where}case {case_name!r} cannot be built from {shown} on {lat.name}: {build_failure(e)}; "
            f"expected parameters that give a lattice, relaxation time and number of steps of finite, "
            f"representable size"
        ) from None
    _check_setup(setup, common, where, shown)
    warnings = list(notes) + list(setup.notes)
    idle = []  # (key, warning) of the settings nothing reads
    for keys, active, needs in _DEPENDENT:  # a setting given where nothing reads it was silently accepted
        for k in keys:
            known_as = case_spec.get(k) or common_spec.get(k)
            if k in values and known_as is not None and not active(common, params) and \
                    not _asks_nothing(known_as, values[k]):
                idle.append((k, f"{k} = {values[k]!r} has no effect: it applies with {needs}"))
                warnings.append(idle[-1][1])
    # a channel's settings that depend on its lattice and sides (both silently ignored before)
    if "width" in values and "width" in case_spec and lat.d == 2:
        warnings.append(f"width = {values['width']!r} has no effect: it applies with a 3D lattice (D3Q19, D3Q27)")
    for k, by in case.overridden(params, lat.d).items():  # box n beside nx, ny, nz: silently unused
        if k in values:
            idle.append((k, f"{k} = {values[k]!r} has no effect: {by}"))
            warnings.append(idle[-1][1])
    feats = setup.features
    ramp = getattr(feats, "ramp_steps", 0) or 0
    warnings += end_step_warnings(params, setup, common["steps"] or setup.steps)
    if ramp and params.get("init") == "profile":  # the ramp starts the inflow from rest, the field at full speed
        warnings.append(f"ramp = {params.get('ramp')!r} with init = 'profile': the inflow rises from 0 over the ramp "
                        f"while the channel starts at its full speed, so the flow is first stopped at the inlet and "
                        f"the channel drains (at the channel_flow defaults its kinetic energy fell by 80 % before "
                        f"the ramp brought it back); give init = 'rest' with a ramp, or ramp = 0 with init = "
                        f"'profile'")
    if "kind" in common["output_fields"] and not getattr(feats, "any", False) and \
            (common["output_every"] or common["output_interval"]):
        # each output a file with no field in it; with a time average (average_every) each holds rho_mean and u_mean,
        # and 'kind' alone is how a case without boundary cells writes the average only
        if {x.strip() for x in common["output_fields"].split(",")} - {""} == {"kind"} and not common["average_every"]:
            raise ConfigError(f"{where}output_fields = {common['output_fields']!r}: case {case_name} has no "
                              f"kind (no boundary cells: every cell is fluid), so no field would be written; expected "
                              f"one or more of {', '.join(f for f in OUTPUT_FIELDS if f != 'kind')} (or a time "
                              f"average: average_every)")
        warnings.append(f"output_fields holds kind, which case {case_name} does not have (no boundary cells: every "
                        f"cell is fluid); it is not written")
    if "sample_every" in values and not (setup.probes or setup.sample_energy or getattr(feats, "bodies", 0)) and \
            not _asks_nothing(common_spec["sample_every"], values["sample_every"]):  # (0: the case's, which is none)
        idle.append(("sample_every", f"sample_every = {values['sample_every']!r} has no effect: case {case_name} "
                                     f"samples nothing (no forces, probes or energy; no samples.jsonl is written)"))
        warnings.append(idle[-1][1])
    if values.get("profile") == "parabolic" and "profile" in case_spec and params.get("sides") == "periodic":
        warnings.append("profile = 'parabolic' has no effect: it applies with sides = 'walls' (between periodic "
                        "sides the inflow is uniform)")
    # each case's run length (taylor_green2d's decay_times and the duct's efolds were set aside unsaid)
    length_key = next((k for k in ("t_end", "decay_times", "efolds") if k in values and k in case_spec), None)
    if common["steps"] and length_key and common["steps"] != setup.steps:
        # steps is the count to run and wins (a quick try of a file's case: --steps 10), but say it
        warnings.append(f"{length_key} = {values[length_key]!r} ({said_int(setup.steps)} steps) set aside: steps = "
                        f"{common['steps']} given runs {common['steps']} steps")
    # the collision applies omega = 1/tau in the compute dtype: a tau that rounds to 1/2 there is zero viscosity
    omega_c = float(np.asarray(1.0 / setup.tau if setup.tau > 0 else math.inf, dtype=common["compute_dtype"]))
    if not setup.tau > 0.5 or not omega_c < 2.0:
        raise ConfigError(
            f"{where}tau = {setup.tau:.10g} (from {given}): expected tau > 0.5 (distinguishable from 1/2 in "
            f"{common['compute_dtype']}); the lattice viscosity cs2*(tau - 1/2) = {units.viscosity(setup.tau):.3g} "
            f"must be positive"
        )
    tol = common["steady_tol"]
    if tol > 0 and common["dtype"] in HALF_DTYPES and setup.u_max > 0:
        # 16-bit storage rounds each population to eps of itself: the velocity of a check moves by about
        # eps * 0.05 / U of U from one to the next however steady the flow (measured, cavity3d at U = 0.05: the
        # checks level off near 8e-4 in float16 and 7e-3 in bfloat16), and a smaller tolerance is never reached
        import ml_dtypes  # noqa: F401  (registers bfloat16 with NumPy)

        floor = float(np.finfo(np.dtype(common["dtype"])).eps) * 0.05 / setup.u_max
        if tol < floor:
            warnings.append(f"steady_tol = {tol:g}{'' if 'steady_tol' in values else ' (the case default)'} is below "
                            f"what {common['dtype']} storage resolves here (the checks level off near {floor:.1g}): "
                            f"the run may never count as steady and go on to its end step, or its state may "
                            f"freeze before the flow is steady (a change below half a storage step per step is "
                            f"lost: couette in bfloat16 stopped 'steady' 18 % off); give steady_tol >= "
                            f"{floor:.1g} (--until-steady), or dtype = 'float32'")
    # a 1/tau below the compute dtype's resolution is lost when the collision adds it to the populations: no
    # relaxation at all (re = 1e-8, tau ~ 1e9: the dry run said ready, and the run blew up at its first check,
    # taylor_green2d at step 1, with exit 4 naming "tau far above 1")
    eps = float(np.finfo(np.dtype(common["compute_dtype"])).eps)
    if setup.tau > 1.0 / eps:
        raise ConfigError(
            f"{where}{tau_far_above(setup.tau)} (from {shown}): 1/tau = {1.0 / setup.tau:.3g} is below "
            f"{common['compute_dtype']}'s resolution {eps:.3g}, so the collision is lost in rounding (such a run "
            f"blows up or never relaxes); expected tau below {1.0 / eps:.3g} ({tau_lower_remedy(params, setup.tau)})")
    if setup.tau > TAU_LARGE:
        warnings.append(f"{tau_far_above(setup.tau)}: the run may be unstable (a blow-up names it as a likely "
                        f"cause; {tau_lower_remedy(params, setup.tau)})")
    if setup.tau < TAU_CLOSE and common["smagorinsky"] == 0:
        warnings.append(
            f"tau = {setup.tau:.8g} (tau - 1/2 = {setup.tau - 0.5:.3g}) is close to 1/2: the run may be unstable "
            f"at this resolution ({tau_remedy(params, setup.tau, case=case)}, or set smagorinsky=0.1)"
        )
    ma = units.mach(setup.u_max)
    vkey = velocity_key(case, params)
    vval = params.get(vkey, setup.u_max)
    derived, remedy, fix = "", "a lattice velocity below", ""
    if isinstance(vval, (int, float)) and not vval > 0 and hasattr(case, "full"):
        # a velocity derived from other settings (the 3D-1Z preset's u_lattice = 0: from tau and n): say its value,
        # and the settings it comes from (the message named "u_lattice = 0.0", a key the user had not set)
        value = case.full(dict(params)).get(vkey)
        if isinstance(value, (int, float)) and value > 0:
            keys, rule, fix = getattr(case, "derived", {}).get(vkey, ((), "", ""))
            if keys:
                given = ", ".join(f"{k} = {params[k]!r}" for k in keys if k in params)
                derived = f"{value:.4g} (from {given}: {vkey} = {rule}"
                remedy = f"{fix}, for a peak lattice velocity below"
            else:
                derived = f"{vval} (derived from the other settings: {value:.4g}"
            vval = value
    # what keeps the Mach number at or below MACH_WARN: the setting's own value where it is one (a channel's u_lattice
    # is the mean, its peak 3/2 of it: "a lattice velocity below 0.058" was read as u_lattice), else the settings a
    # derived velocity comes from
    if fix:
        lower = f"{fix} (a peak lattice velocity below {bound_below(MACH_WARN * CS)})"
    elif isinstance(vval, (int, float)) and vval > 0 and math.isfinite(ma) and ma > 0:
        lower = f"{vkey} below {bound_below(vval * MACH_WARN / ma)}"
    else:
        lower = f"a lattice velocity below {bound_below(MACH_WARN * CS)}"
    peak = (f"peak lattice velocity {setup.u_max:.4g}"
            if isinstance(vval, (int, float)) and abs(setup.u_max - vval) > 1e-12 else "")
    if derived:
        vval, peak = derived + (f"; {peak})" if peak else ")"), ""
    elif peak:
        peak = f" ({peak})"
    if not ma <= MACH_MAX:  # also NaN
        # where the setting is not the peak (a channel's mean inflow, a box of ny > nx): its own bound, as the warning
        # names it ("expected a lattice velocity below 0.173" was read as u_lattice, which must stay below 0.115)
        own = (f"{vkey} below {bound_below(float(vval) * MACH_MAX / ma)} (a peak lattice velocity below "
               f"{bound_below(MACH_MAX * CS)})"
               if peak and not derived and isinstance(vval, (int, float)) and vval > 0 and math.isfinite(ma) else "")
        # a case whose peak comes of other settings too (the box's u0 ny / nx) names them beside the velocity's
        also = case.peak_remedy(params, setup.shape, MACH_MAX) if not derived else ""
        raise ConfigError(
            f"{where}{vkey} = {vval}{peak}: gives Mach number {ma:{'.3f' if ma < 1e3 else '.3g'}} > {MACH_MAX}; "
            f"expected {own or f'{remedy} {MACH_MAX * CS:.3f}'}{also} (compressibility errors and instability)"
        )
    validated = float(case.validated_mach or 0.0)
    if ma > MACH_WARN and not ma <= validated * (1 + 1e-9):
        seen = (f"; {case.name}'s validation passed at Mach {validated:.3f} (docs/validation.md)"
                if validated > MACH_WARN else "")
        warnings.append(
            f"{vkey} = {vval}{peak} gives Mach number {ma:.3f} > {MACH_WARN}: compressibility errors "
            f"of order Ma^2 = {ma * ma:.3f}{seen}; {lower} keeps Ma <= {MACH_WARN}"
        )
    cfg = RunConfig(case, params, setup, warnings=tuple(warnings), idle=tuple(idle), source=source,
                    given=frozenset(values), mesh_option=mesh_option, pending=list(setup.checks), **specs)
    if not defer_checks:
        run_checks(cfg)
    return cfg


def end_step_warnings(params: dict, setup, end: int) -> list:
    """The warnings of a configuration that depend on the step it runs to (`end`): resolve judges them against its
    steps or the case's, a restart that runs to the end step of the run it continues against that (at_end)."""
    ramp = getattr(setup.features, "ramp_steps", 0) or 0
    if ramp and ramp >= end:  # a ramp given in steps for seconds: the flow never started, its forces were reported
        return [f"ramp = {params.get('ramp')!r} ({said_int(ramp)} steps) is as long as the run or longer ({end} "
                f"steps): the inflow does not reach its speed, and the forces are normalised with the full one; give "
                f"ramp in the case's time units (s), shorter than t_end"]
    return []


def at_end(cfg: "RunConfig", end: Optional[int]) -> "RunConfig":
    """`cfg` with its end-step warnings judged against `end` (None: as resolved), the end step a restart that sets
    none runs to (driver.restart.kept_end): they were judged against the case's default steps. The run's restart and its
    dry run both take it."""
    if end is None:
        return cfg
    was = end_step_warnings(cfg.params, cfg.setup, cfg.control.steps or cfg.setup.steps)
    now = end_step_warnings(cfg.params, cfg.setup, end)
    kept = tuple(w for w in cfg.warnings if w not in was)
    return replace(cfg, warnings=kept + tuple(w for w in now if w not in kept))


def size_hint(cfg: "RunConfig", fits, key: str = "n", reach: int = 64) -> str:
    """The values of the case's size parameter `key` nearest its own whose lattice shape `fits` (a
    DecompositionError's test of the shapes that split over the devices), as a clause to add to that error:
    a decomposition error names lattice sizes, while the user sets n (a cavity's n = 128 makes 130 cells with
    its walls, a channel's n is cells per reference length). '' where the case has no such integer parameter
    or no value within `reach` fits."""
    n0 = cfg.params.get(key)
    if (fits is None or not isinstance(n0, int) or isinstance(n0, bool)
            or all(s == n0 for s in cfg.setup.shape)):  # n is the lattice size: the error said it
        return ""
    found = {}
    for k in range(1, reach + 1):
        for n in (n0 - k, n0 + k):
            side = n > n0
            if n <= 0 or side in found:
                continue
            try:
                shape = cfg.case.lattice_shape({**cfg.params, key: n}, cfg.lattice)
            except (ConfigError, ValueError):
                continue
            if fits(tuple(shape)):
                found[side] = n
        if len(found) == 2:
            break
    shape = "x".join(map(str, cfg.setup.shape))
    if not found:  # the lattice sizes the error names are none a value of the case's n makes (a channel's x is odd)
        return (f"; {cfg.case.name}'s {key} = {n0} makes the {shape} lattice, and no {key} within {reach} of it makes "
                f"one that splits so: choose the mesh along other axes")
    values = " or ".join(f"{key} = {found[s]}" for s in (False, True) if s in found)
    return f"; {cfg.case.name}'s {key} = {n0} makes the {shape} lattice, and {values} makes one that splits"


def bound_below(x: float) -> str:
    """A velocity bound as a message names it: 3 significant digits, rounded down, so that every value below the
    number said is below the bound (rounded to the nearest, 0.07698 was said 0.077, and 0.07699 was refused)."""
    if not (math.isfinite(x) and x > 0):
        return f"{x:.3g}"
    scale = 10.0 ** (math.floor(math.log10(x)) - 2)
    return f"{math.floor(x / scale * (1 + 1e-12)) * scale:.3g}"  # (1 + 1e-12: a bound of 3 digits stays itself)


TAU_CLOSE = 0.51  # a relaxation time below this is warned about at the start, and named first by a blow-up
# a relaxation time above this is warned about at the start, and named by a blow-up as a likely cause (a duct at
# tau = 1000 blew up whatever its velocity, a 32^2 cavity at tau = 100 by step 6400; at tau = 20 it ran steady)
TAU_LARGE = 10.0


def tau_far_above(tau: float) -> str:
    """A tau above TAU_LARGE as the start's warning, its refusal and a blow-up's likely causes say it."""
    return (f"tau = {tau:.6g} far above 1 (the collision barely relaxes; the walls' slip grows as (tau - 1/2)^2 "
            f"too)")


def _positive(params: dict, key: str):
    """A case parameter's value where it is a positive number (one that set tau), else None."""
    v = params.get(key)
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 else None


def tau_lower_remedy(params: dict, tau: float) -> str:
    """The settings that lower a large tau in this case (tau_remedy's other way): tau itself where it is the
    parameter that set it, else the Reynolds number (raised), the resolution (lowered) or a channel's viscosity."""
    given = partial(_positive, params)
    if given("tau") and abs(given("tau") - tau) <= 1e-12 * tau:
        return f"lower tau (now {tau:.6g})"
    parts = [f"raise re (now {params['re']:.4g})"] if given("re") else []
    if given("nu") and not given("re"):
        parts.append(f"lower nu (now {params['nu']:.4g})")
    if isinstance(params.get("n"), int) and not isinstance(params.get("n"), bool):
        parts.append(f"lower n (now {params['n']})")
    return " or ".join(parts) or "lower the viscosity"


def tau_remedy(params: dict, tau: float, until: bool = True, case: Optional[Case] = None) -> str:
    """The settings that move tau away from 1/2 in this case: tau itself where it is a parameter that set it (a box
    at tau = 0.5001 was told "raise n, lower re": it has no re, and its n leaves tau as it is; at tau = 0.51 it
    ran), else the resolution and the Reynolds number (or a channel's viscosity and lattice velocity) it derives
    from. `until`: tau is below TAU_CLOSE and the target is named; without it (a blow-up whose Mach number comes
    first: tau = 0.8 was told "raise tau (now 0.8) to 0.51 or more") no target, and not the lattice velocity that the
    Mach number's remedy lowers. `case`: where its lattice velocity derives from tau and n (3D-1Z given tau:
    u_lattice = Re (tau - 1/2) / (3 n)), tau raised with n in proportion, the velocity kept: "raise tau" alone
    raised the velocity that the Mach number's remedy beside it lowers (tau 0.6 -> 0.7 at n = 13: Mach 0.089 ->
    0.18)."""
    given = partial(_positive, params)
    keys, rule, _ = getattr(case, "derived", {}).get(velocity_key(case, params), ((), "", ""))
    n = params.get("n")
    if ("tau" in keys and "n" in keys and given("tau") and abs(given("tau") - tau) <= 1e-12 and tau > 0.5
            and isinstance(n, int) and not isinstance(n, bool)):
        # tau - 1/2 in proportion to n at the same velocity: n up to the target (or doubled), tau with it
        n2 = max(n + 1, math.ceil(n * (TAU_CLOSE - 0.5) / (tau - 0.5) - 1e-9)) if until else 2 * n
        t2 = 0.5 + (tau - 0.5) * n2 / n
        return (f"raise tau with n in proportion (now tau = {tau:.6g}, n = {n}; e.g. --set tau={t2:.6g} --set n={n2}: "
                f"the velocity {velocity_key(case, params)} = {rule} kept)")
    if given("tau") and abs(given("tau") - tau) <= 1e-12:
        return f"raise tau (now {tau:.6g})" + (f" to {TAU_CLOSE:g} or more" if until else "")
    parts = [f"raise n (now {params['n']})"] if isinstance(params.get("n"), int) else []
    if given("re"):
        parts.append(f"lower re (now {params['re']:.4g})")
    else:  # no re: a channel's tau is 1/2 + 3 nu u_lattice n / (u_mean ref_length) (a Schaefer-Turek preset at
        # u_lattice = 0.001 was told "raise n" alone: n = 67 would do, its default u_lattice too)
        parts += [f"raise {k} (now {given(k):.4g})" for k in ("nu", "u_lattice") if given(k)
                  and (until or k != "u_lattice")]
    return (" or ".join(parts) or "raise the resolution") + (
        f" until tau - 1/2 >= {TAU_CLOSE - 0.5:g}" if until else "")


def velocity_key(case: Case, params: dict) -> str:
    """The setting that sets a case's lattice velocity (what a Mach number message names); case None: from the
    parameters alone."""
    return getattr(case, "velocity_key", None) or next((k for k in ("u_lattice", "u_lid", "u0", "umax", "u_wall")
                                                         if k in params), "velocity")


def velocity_remedy(case: Optional[Case], params: dict, example: bool = True) -> tuple:
    """How to lower this case's lattice velocity, as a blow-up's message says it: (text, examples), examples the
    settings of each way ("key=value" lists, with the keys to drop: (sets, drop)). The velocity's own setting halved
    where it is one; where the case derives it from others (3D-1Z's u_lattice = 0: Re (tau - 1/2) / (3 n), from
    its tau), a larger n (tau kept) or the velocity itself in their place. A 3D-1Z run given tau was told "lower the
    velocity", naming no setting: u_lattice = 0 there, and it takes no u_lattice beside tau. `example`: with the
    --set of each (else the settings and their values alone)."""
    vkey = velocity_key(case, params)
    vval = params.get(vkey)
    if positive_number(vval):
        eg = f"; e.g. --set {vkey}={vval / 2:.3g}" if example else ""
        return f"lower {vkey} (now {vval:.4g}{eg})", [([f"{vkey}={vval / 2:.3g}"], [])]
    value = case.full(dict(params)).get(vkey) if hasattr(case, "full") else None
    keys, rule, _ = getattr(case, "derived", {}).get(vkey, ((), "", ""))
    n = params.get("n")
    if positive_number(value) and "n" in keys and isinstance(n, int) and not isinstance(n, bool):
        others = [k for k in keys if k != "n" and k in params]
        given = ", ".join(f"{k} = {params[k]:.4g}" for k in others)
        text = (f"lower the lattice velocity {vkey} = {rule} (now {value:.4g}{f', from {given}' if given else ''}): "
                f"raise n (now {n}" + (f"; e.g. --set n={2 * n}, tau kept, half the velocity)" if example else ")"))
        examples = [([f"n={2 * n}"], [])]
        if others:
            text += f" or give {vkey} in place of {' and '.join(others)}" + (
                f" (e.g. --set {vkey}={value / 2:.3g})" if example else "")
            examples.append(([f"{vkey}={value / 2:.3g}"], others))
        return text, examples
    return "lower the velocity", []


def positive_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v > 0


def _check_setup(setup: Setup, common: dict, where: str, shown: str) -> None:
    """What a case derived from its parameters must satisfy before anything is allocated: a lattice of
    positive integer sizes and fewer than 2**53 cells, a finite relaxation time and velocity, step
    counts within the int32 step counter."""
    shape = tuple(setup.shape)
    dims = "x".join(map(said_int, shape))  # (a size of 300 digits, from length = 1e300, was said whole)
    if not shape or any(isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1 for n in shape):
        raise ConfigError(f"{where}lattice shape {dims} (from {shown}): expected positive integer sizes")
    cells = math.prod(int(n) for n in shape)
    if cells >= MAX_CELLS:
        raise ConfigError(f"{where}lattice shape {dims} (from {shown}) has {said_cells(cells)} cells: expected fewer "
                          f"than 2**53 = {MAX_CELLS:.3g}")
    d = setup.lattice.d
    if len(shape) != d:  # a user's case (README "From Python"): a 2D shape on D3Q19 failed deep in the step
        raise ConfigError(f"{where}lattice shape {dims} (from {shown}): {len(shape)} sizes on {setup.lattice.name}; "
                          f"expected {d} (Setup.shape is the lattice's spatial shape)")
    force = setup.force
    if force is not None and not (isinstance(force, (tuple, list)) and len(force) == d and all(
            isinstance(f, (int, float, np.integer, np.floating)) and not isinstance(f, bool) and math.isfinite(f)
            for f in force)):
        # an array of per-cell forces failed in the step as "truth value of an array ... is ambiguous"
        what = f"an array of shape {np.shape(force)}" if isinstance(force, np.ndarray) else repr(force)[:80]
        raise ConfigError(f"{where}Setup.force = {what} (from {shown}): expected None or a tuple of {d} finite "
                          f"numbers, the one body force of every fluid cell (lattice units; a force per cell is "
                          f"Setup.force_field, a function of the block)")
    if setup.force_field is not None and not callable(setup.force_field):
        what = f"an array of shape {np.shape(setup.force_field)}" if isinstance(
            setup.force_field, np.ndarray) else repr(setup.force_field)[:80]
        raise ConfigError(f"{where}Setup.force_field = {what} (from {shown}): expected None or a function "
                          f"force_field(index) -> [{d}, block] float array, the body force of each cell of the block "
                          f"`index` (lattice units)")
    feats = setup.features
    if setup.geometry is not None and not (feats is not None and feats.any):
        # with no boundary kind in the features the geometry is never called: its walls were silently a periodic box
        raise ConfigError(f"{where}Setup.geometry is given but Setup.features = {feats} names no boundary kind, "
                          f"so the geometry's cells would be ignored; expected features=boundaries.Features(walls="
                          f"True, ...) naming the kinds the geometry uses")
    for name, value in (("tau", setup.tau), ("velocity", setup.u_max)):
        if not math.isfinite(value):
            raise ConfigError(f"{where}{name} = {value} (from {shown}): expected a finite value; the parameters "
                              f"give a relaxation time or velocity that is not representable")
    tiny = float(np.finfo(common["compute_dtype"]).tiny)
    if 0 < abs(setup.u_max) < tiny:  # u_wall = 1e-320 is 0 in float32: a flow at rest, "steady" at once, error nan
        raise ConfigError(f"{where}velocity = {setup.u_max:.3g} (from {shown}): below {common['compute_dtype']}'s "
                          f"smallest normal number {tiny:.3g}, so 0 in the arithmetic (no flow at all); expected a "
                          f"lattice velocity of at least {tiny:.3g}")
    omega = float(np.asarray(1.0 / setup.tau, dtype=common["compute_dtype"])) if setup.tau > 0 else 1.0
    if omega == 0.0:
        raise ConfigError(f"{where}tau = {setup.tau:.6g} (from {shown}): 1/tau is 0 in {common['compute_dtype']} "
                          f"(no collision at all); expected a smaller relaxation time")
    if not common["steps"]:
        _check_steps("the case's number of steps", setup.steps, where, shown, "set steps, or lower t_end")
    for name, v in (("the case's progress interval", setup.progress_every),
                    ("the case's sampling interval", setup.sample_every)):
        _check_steps(name, v, where, shown, "set progress_every / sample_every")
    # the output's sub-box and slices must lie inside the lattice (physical coordinates: the case's dx and
    # origin, else 0)
    spec = OutputSpec(**{f.name: common[f.name] for f in fields(OutputSpec)})
    try:
        spec.cuts(shape, setup.units.get("dx", 1.0) or 1.0, setup.units.get("origin"))
    except ConfigError as e:
        raise ConfigError(f"{where}{e}") from None
    if common["output_interval"] > 0:
        dt = float(setup.units.get("dt", 1.0) or 1.0)
        n = common["output_interval"] / dt
        if not n <= INT32_MAX:
            raise ConfigError(f"{where}output_interval = {common['output_interval']!r}: is {n:.3g} steps of "
                              f"dt = {dt:.4g}; expected at most {INT32_MAX} steps (the step counter is int32)")
        if n < 1 - 1e-9:  # the time schedule counts the outputs due in each step: 1e-30 hung the run at its first one
            raise ConfigError(f"{where}output_interval = {common['output_interval']!r}: is {n:.3g} of a time step "
                              f"dt = {dt:.4g}; expected at least one step's time, {dt:.4g} (output_every = 1 writes "
                              f"every step)")


def _check_steps(name: str, value, where: str, shown: str, fix: str) -> None:
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= value <= INT32_MAX
    if not ok and value is not None:
        raise ConfigError(f"{where}{name} = {said_int(value)} (from {shown}): expected an integer in 0..{INT32_MAX} "
                          f"(the step counter is int32); {fix}")


def file_digest(path) -> Optional[dict]:
    """{sha256, bytes} of the contents of file `path` (read in 8 MiB pieces), None where it cannot be read (the
    set-up says why)."""
    import hashlib

    h, size = hashlib.sha256(), 0
    try:
        with open(path, "rb") as fh:
            while piece := fh.read(8 << 20):
                h.update(piece)
                size += len(piece)
    except OSError:
        return None
    return {"sha256": h.hexdigest(), "bytes": size}


def input_digests(cfg: RunConfig) -> list:
    """The digests of the run's input files (Case.input_files: a mask, STL bodies) as [{key, file, sha256, bytes}],
    taken at its set-up and kept in its checkpoints: a restart compares them with the files it reads
    (changed_inputs)."""
    out = []
    for key, path in cfg.case.input_files(cfg.params):
        if key == "mask" and Path(path).suffix.lower() in (".h5", ".hdf5", ".hdf"):
            d = mask_dataset_digest(path, cfg.params.get("mask_dataset") or None)
        else:
            d = file_digest(path)
        if d is not None:
            out.append({"key": key, "file": str(path), **d})
    return out


def mask_dataset_digest(path, dataset: Optional[str]) -> Optional[dict]:
    """{sha256, bytes} of the mask dataset an HDF5 mask file holds for the run (its shape, dtype and values, read in
    slabs): the whole file's digest refused a restart once another dataset was added to the file (a shared geometry
    file), exit 2, a Slurm chain stopped, though the run's mask was the same. None where it cannot be read."""
    import hashlib

    from distlbm.geometry import MaskFile

    try:
        mask = MaskFile(path, dataset)
        h, size = hashlib.sha256(f"{tuple(mask.shape)} {mask.dtype.str}".encode()), 0
        for _, values in mask.slabs():
            data = np.ascontiguousarray(values).tobytes()
            h.update(data)
            size += len(data)
    except (OSError, ValueError):
        return None
    return {"sha256": h.hexdigest(), "bytes": size}


def moved_inputs(old_inputs: list, new_inputs: list, old: dict, new: dict) -> set:
    """The settings that name input files at other paths than the checkpoint's (`old`, its settings) with the same
    contents (by the digests: `old_inputs`, the checkpoint's; `new_inputs`, input_digests of the restart): the run's
    files moved, to scratch or another file system. A restart was refused ("mask: checkpoint 'a.npy', now
    '/scratch/a.npy'"), its only way on a new run from --init-from. `mask_dataset` goes with the mask (its digest
    is of the dataset's values)."""
    def digests(entries):
        out = {}
        for e in entries or []:
            if isinstance(e, dict) and e.get("sha256"):
                out.setdefault(e.get("key"), {})[e.get("file")] = f"<sha256 {e['sha256']}, {e.get('bytes')} bytes>"
        return out

    def named(value, files: dict):
        """The setting with each path it names replaced by its file's digest (a path it cannot digest stays)."""
        if not isinstance(value, str):
            return value
        if value in files:
            return files[value]

        def one(m):
            path, sep, rest = m.group(1).partition(",")
            path = path.strip().strip("'\"")
            return f"stl({files.get(path, path)}{sep}{rest})" if path in files else m.group(0)

        return re.sub(r"\bstl\s*\(([^()]*)\)", one, value)

    was, now = digests(old_inputs), digests(new_inputs)
    moved = {k for k in set(was) & set(now)
             if old.get(k) != new.get(k) and named(old.get(k), was[k]) == named(new.get(k), now[k])}
    if "mask" in moved or ("mask" in was and "mask" in now and old.get("mask") == new.get("mask")
                           and set(was["mask"].values()) == set(now["mask"].values())):
        moved.add("mask_dataset")
    return moved


def changed_inputs(old: list, new: list) -> list:
    """The input files of a restart (`new`, input_digests) whose contents differ from those the run it continues
    read (`old`, its checkpoint's), one line each. The settings name only a path: a mask edited or replaced at the
    same path, or another file found there from another folder, continued the run around other bodies, unsaid."""
    now = {(e.get("key"), e.get("file")): e for e in new}
    out = []
    for e in old:
        n = now.get((e.get("key"), e.get("file")))
        if n is None or n.get("sha256") == e.get("sha256"):
            continue
        out.append(f"{e['key']} = {e['file']!r}: the file's contents differ from those the run read (sha256 "
                   f"{e['sha256'][:12]}..., {e['bytes']:,} bytes; now {n['sha256'][:12]}..., {n['bytes']:,} bytes: "
                   f"edited, replaced, or another file at that path from this folder); give the run's file, or "
                   f"start a new run from this state with --init-from CHECKPOINT --out NEWDIR")
    return out
