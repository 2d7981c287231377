"""Run configuration: a case name or a TOML file, plus `--set key=value` overrides, checked up front.

Every mistake raises ConfigError naming the key, the value and what was expected.
"""

from __future__ import annotations

import difflib
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from distlbm.cases import CASES
from distlbm.cases.base import Case, ConfigError, Param, Setup
from distlbm.lattice import LATTICES, get_lattice
from distlbm.physics.collision import KINDS

DTYPES = ("float32", "float64", "float16", "bfloat16")  # storage
COMPUTE_DTYPES = ("float32", "float64")  # arithmetic: 16-bit storage computes in float32
HALF_DTYPES = ("float16", "bfloat16")


def default_compute_dtype(dtype: str) -> str:
    """The compute dtype when none is given: the storage dtype, float32 for 16-bit storage."""
    return "float32" if dtype in HALF_DTYPES else dtype


def check_compute_dtype(value, key: str = "compute_dtype", where: str = "") -> None:
    """Refuse 16-bit (or unknown) arithmetic with a message naming the key, the value and what is expected."""
    if value in HALF_DTYPES:
        raise ConfigError(f"{where}{key} = {value!r}: expected one of {', '.join(map(repr, COMPUTE_DTYPES))}; "
                          f"16-bit types are storage only (set dtype = {value!r}, which computes in float32)")
    if value not in COMPUTE_DTYPES:
        raise ConfigError(f"{where}{key} = {value!r}: expected one of {', '.join(map(repr, COMPUTE_DTYPES))}")

COMMON_PARAMS = (
    Param("case", "", str, "built-in case to run (see `distlbm cases`)"),
    Param("lattice", "", str, "velocity set; default: the case's", choices=tuple(LATTICES)),
    Param("collision", "bgk", str, "collision operator", choices=KINDS),
    Param("trt_lambda", 3.0 / 16.0, float, "TRT magic parameter Lambda", positive=True),
    Param("equilibrium", "standard", str, "equilibrium: standard, or incompressible (He & Luo 1997: u = sum c f, "
          "no O(Ma^2) compressibility error in steady flows)", choices=("standard", "incompressible")),
    Param("smagorinsky", 0.0, float, "Smagorinsky constant C_s (0: no subgrid model)", minimum=0.0),
    Param("dtype", "float32", str, "storage dtype of the populations", choices=DTYPES),
    Param("compute_dtype", "", str, "dtype of the arithmetic; default: the storage dtype (float32 for 16-bit "
          "storage)", choices=DTYPES + ("",)),
    Param("steps", 0, int, "time steps to run; 0: the case's default", minimum=0),
    Param("progress_every", 0, int, "steps between progress lines; 0: about 20 lines per run", minimum=0),
    Param("output_every", 0, int, "steps between field outputs (HDF5 + XDMF under DIR/fields); 0: none", minimum=0),
    Param("output_interval", 0.0, float, "simulated time between field outputs (physical units); 0: none",
          minimum=0.0),
    Param("output_fields", "rho,u", str, "fields to write: rho, u, vorticity, populations, kind"),
    Param("output_units", "lattice", str, "units of the written fields", choices=("lattice", "physical")),
    Param("output_images", False, bool, "also write a PNG of |u| (mid-plane) at every output (matplotlib)"),
    Param("checkpoint_every", 0, int, "steps between checkpoints (DIR/checkpoints); 0: none", minimum=0),
    Param("checkpoint_wall", 0.0, float, "seconds of wall time between checkpoints; 0: none", minimum=0.0),
    Param("checkpoint_keep", 3, int, "how many checkpoints to keep", positive=True),
    Param("wall_time", 0.0, float, "stop with a checkpoint before this many seconds of wall time; 0: no limit",
          minimum=0.0),
    Param("check_every", 0, int, "steps between instability checks (besides every progress line); 0: none",
          minimum=0),
    Param("sample_every", 0, int, "steps between samples of forces and probes (DIR/samples.jsonl); 0: the case's",
          minimum=0),
    Param("comm", "jax", str, "halo exchange: 'jax' (one device mesh) or 'mpi' (mpi4jax, one rank per device)",
          choices=("jax", "mpi")),
    Param("mesh", "", str, "devices per axis, e.g. '2x2x2'; empty: all devices, factorised for the smallest halo"),
)

MACH_WARN = 0.1
MACH_MAX = 0.3
CS = math.sqrt(1.0 / 3.0)


@dataclass
class RunConfig:
    """A checked configuration: the case, its parameters and the common settings, resolved."""

    case: Case
    params: dict  # case parameters
    common: dict  # COMMON_PARAMS values
    setup: Setup
    warnings: list = field(default_factory=list)
    source: str = ""

    @property
    def lattice(self):
        return self.setup.lattice

    def as_dict(self) -> dict:
        d = {"case": self.case.name}
        d.update({k: v for k, v in self.common.items() if k != "case"})
        d["lattice"] = self.setup.lattice.name
        d.update(self.params)
        return d


def parse_value(text: str) -> Any:
    """A --set value as TOML (numbers, booleans, quoted strings); a bare word is a string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def parse_sets(items) -> dict:
    out = {}
    for item in items or ():
        if "=" not in item:
            raise ConfigError(f"--set {item!r}: expected key=value, e.g. --set re=400")
        k, v = item.split("=", 1)
        k = k.strip()
        if not k:
            raise ConfigError(f"--set {item!r}: the key is empty; expected key=value")
        out[k] = parse_value(v.strip())
    return out


def _check_value(p: Param, value: Any, where: str) -> Any:
    def bad(expected):
        return ConfigError(f"{where}{p.name} = {value!r}: expected {expected}")

    if p.type is bool:
        if not isinstance(value, bool):
            raise bad("true or false")
    elif p.type is int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                raise bad("an integer")
    elif p.type is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad("a number")
        value = float(value)
        if not math.isfinite(value):
            raise bad("a finite number")
    elif p.type is str:
        if not isinstance(value, str):
            raise bad("a string")
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


def _unknown(key: str, value: Any, known, where: str) -> ConfigError:
    near = difflib.get_close_matches(key, list(known), n=1, cutoff=0.5)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    return ConfigError(f"{where}unknown key {key!r} (= {value!r}){hint}; expected one of the valid keys: "
                       f"{', '.join(sorted(known))}")


def load_file(path: Path) -> dict:
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"configuration file {str(path)!r} not found") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    for k, v in data.items():
        if isinstance(v, dict):
            raise ConfigError(f"{path}: key {k!r} is a table; expected flat key = value pairs (see `distlbm cases`)")
    return data


def resolve(case_or_file: str | None, sets: dict | None = None, **overrides) -> RunConfig:
    """Build a checked RunConfig from a case name or TOML file, --set values and CLI overrides."""
    values: dict = {}
    where = ""
    source = "default"
    if case_or_file and (case_or_file.endswith(".toml") or Path(case_or_file).is_file()):
        values.update(load_file(Path(case_or_file)))
        where = f"{case_or_file}: "
        source = case_or_file
        if "case" not in values:
            raise ConfigError(f"{where}key 'case' is missing: expected one of {', '.join(CASES)}")
    elif case_or_file:
        values["case"] = case_or_file
        source = "command line"
    for k, v in (sets or {}).items():
        values[k] = v
    for k, v in overrides.items():
        if v is not None:
            values[k] = v
    case_name = values.get("case") or ""
    if not isinstance(case_name, str) or case_name not in CASES:
        near = difflib.get_close_matches(str(case_name), list(CASES), n=1, cutoff=0.5)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise ConfigError(f"{where}case = {case_name!r}: expected one of {', '.join(CASES)}{hint}")
    case = CASES[case_name]
    common_spec = {p.name: p for p in COMMON_PARAMS}
    case_spec = {p.name: p for p in case.params}
    known = set(common_spec) | set(case_spec)
    common = {p.name: p.default for p in COMMON_PARAMS}
    common.update(case.common_defaults)  # e.g. a benchmark preset's collision or equilibrium
    params = {p.name: p.default for p in case.params}
    for k, v in values.items():
        if k in case_spec:
            params[k] = _check_value(case_spec[k], v, where)
        elif k in common_spec:
            common[k] = _check_value(common_spec[k], v, where)
        else:
            raise _unknown(k, v, known, where)
    common["case"] = case_name

    lat = get_lattice(common["lattice"] or case.default_lattice)
    if lat.d not in case.dims:
        ok = [n for n, l_ in LATTICES.items() if l_.d in case.dims]
        raise ConfigError(
            f"{where}lattice = {lat.name!r} is {lat.d}D but case {case_name!r} is "
            f"{'/'.join(f'{d}D' for d in case.dims)}: expected one of {', '.join(ok)}"
        )
    common["lattice"] = lat.name
    if not common["compute_dtype"]:
        common["compute_dtype"] = default_compute_dtype(common["dtype"])
    check_compute_dtype(common["compute_dtype"], where=where)
    fields = [x.strip() for x in common["output_fields"].split(",") if x.strip()]
    allowed = ("rho", "u", "vorticity", "populations", "kind")
    bad_fields = [x for x in fields if x not in allowed]
    if bad_fields or not fields:
        raise ConfigError(f"{where}output_fields = {common['output_fields']!r}: expected a comma-separated list "
                          f"of {', '.join(allowed)}")
    if common["mesh"]:
        from distlbm.parallel.mesh import DecompositionError, parse_mesh

        try:
            parse_mesh(common["mesh"], lat.d)
        except DecompositionError as e:
            raise ConfigError(f"{where}{e}") from None

    if "tau" in params and not params["tau"] > 0.5:  # checked before build: the case divides by tau - 1/2
        raise ConfigError(
            f"{where}tau = {params['tau']!r}: expected tau > 0.5; the lattice viscosity cs2*(tau - 1/2) "
            f"must be positive"
        )
    setup = case.build(params, lat)
    warnings = []
    given = ", ".join(f"{k}={params[k]}" for k in params)
    # the collision applies omega = 1/tau in the compute dtype: a tau that rounds to 1/2 there is zero viscosity
    omega_c = float(np.asarray(1.0 / setup.tau if setup.tau > 0 else math.inf, dtype=common["compute_dtype"]))
    if not setup.tau > 0.5 or not omega_c < 2.0:
        raise ConfigError(
            f"{where}tau = {setup.tau:.10g} (from {given}): expected tau > 0.5 (distinguishable from 1/2 in "
            f"{common['compute_dtype']}); the lattice viscosity cs2*(tau - 1/2) = {(setup.tau - 0.5) / 3:.3g} "
            f"must be positive"
        )
    if setup.tau < 0.51 and common["smagorinsky"] == 0:
        warnings.append(
            f"tau = {setup.tau:.8g} (tau - 1/2 = {setup.tau - 0.5:.3g}) is close to 1/2: the run may be unstable "
            f"at this resolution (raise n, lower re, or set smagorinsky=0.1)"
        )
    ma = setup.u_max / CS
    vkey = next((k for k in ("u_lid", "u0", "umax", "u_wall") if k in params), "velocity")
    if ma > MACH_MAX:
        raise ConfigError(
            f"{where}{vkey} = {params.get(vkey)}: gives Mach number {ma:.3f} > {MACH_MAX}; "
            f"expected a lattice velocity below {MACH_MAX * CS:.3f} (compressibility errors and instability)"
        )
    if ma > MACH_WARN:
        warnings.append(
            f"{vkey} = {params.get(vkey)} gives Mach number {ma:.3f} > {MACH_WARN}: compressibility errors "
            f"of order Ma^2 = {ma * ma:.3f}"
        )
    n_cells = math.prod(setup.shape)
    if n_cells <= 0:
        raise ConfigError(f"{where}lattice shape {setup.shape}: expected positive sizes")
    return RunConfig(case, params, common, setup, warnings, source)


# settings that only say how a run is executed, written or stopped: they may change on restart
RUN_KEYS = {"steps", "progress_every", "mesh", "comm", "output_every", "output_interval", "output_fields",
            "output_units", "output_images", "checkpoint_every", "checkpoint_wall", "checkpoint_keep",
            "wall_time", "check_every", "sample_every"}


def check_restart_compatible(cfg: RunConfig, meta: dict, path) -> None:
    """Refuse a restart whose physics differs from the checkpoint's (other case, lattice, size,
    parameters); output and stop settings may change."""
    from distlbm.io.checkpoint import CheckpointError

    old = dict(meta.get("config") or {})
    new = cfg.as_dict()
    # settings added after a checkpoint was written count as their default value
    defaults = {p.name: p.default for p in COMMON_PARAMS}
    for k, v in defaults.items():
        if k not in old and k in new:
            old[k] = v
    diffs = [f"{k}: checkpoint {old.get(k)!r}, now {new.get(k)!r}"
             for k in sorted(set(old) | set(new)) if k not in RUN_KEYS and old.get(k) != new.get(k)]
    if list(meta.get("shape", [])) != list(cfg.setup.shape):
        diffs.append(f"lattice shape: checkpoint {meta.get('shape')}, now {list(cfg.setup.shape)}")
    if diffs:
        raise CheckpointError(f"{path}: incompatible with this configuration ({'; '.join(diffs)}); "
                              f"expected the same case, lattice and parameters (only output and stop "
                              f"settings may change)")
