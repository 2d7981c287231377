"""The run's summary (summary.json): what ran, how fast, the parameters in lattice and physical units,
and the case's observables against their references."""

from __future__ import annotations

from distlbm import units as un
from distlbm.cases.base import check
from distlbm.driver.view import RunView


def reynolds(units: dict) -> float | None:
    """The run's Reynolds number: the case's own, else U L / nu of its physical units (None without a viscosity)."""
    re = units.get("reynolds")
    if re is None and units.get("viscosity"):
        re = units.get("velocity", 1.0) * units.get("length", 1.0) / units["viscosity"]
    return re


def parameters(setup, units: dict) -> dict:
    """The run's parameters in lattice units (dx = dt = 1) and in the case's physical units."""
    tau = setup.tau
    u = setup.u_max
    lattice = {"tau": tau, "viscosity": un.viscosity(tau), "velocity": u, "mach": un.mach(u),
               "force": list(setup.force) if setup.force else None,
               # a per-cell body force (Setup.force_field: kolmogorov) beside or instead of the uniform `force`: the
               # record said force None alone, as for an unforced run
               "force_field": setup.force_field is not None}
    phys = {k: units[k] for k in ("length", "velocity", "viscosity", "dx", "dt") if k in units}
    lattice["reynolds"] = phys["reynolds"] = reynolds(units)
    if all(k in phys for k in ("velocity", "dx", "dt")):
        # lattice `velocity` is the case's peak (the Mach check), physical `velocity` its reference (a channel's
        # mean inflow): each side also states the other's, converted, so that they compare (1.5x apart in 2D)
        lattice["reference_velocity"] = phys["velocity"] * phys["dt"] / phys["dx"]
        phys["peak_velocity"] = u * phys["dx"] / phys["dt"]
    extra = {k: v for k, v in units.items() if k not in phys and k not in ("nu_lattice", "tau")}
    return {"lattice_units": lattice, "physical_units": phys, "case_units": extra}


def observed(cfg, view) -> tuple:
    """(observables, warnings) of the case's observe at the run's end. One that raises (a user's case: a reference
    file not found, a slip in its analysis) is said in one warning naming the error and its line, and the
    observables hold the error: the run's summary is still written (it was lost, with a traceback, after the run
    had run its steps)."""
    try:
        return cfg.case.observe(view, cfg.params), []
    except Exception as e:
        import traceback

        frame = traceback.extract_tb(e.__traceback__)[-1]
        said = f"{type(e).__name__}: {e}"
        # one failed check in place of the case's own: a check's reader (scripts/validate.py, a script that counts
        # the FAILs) saw no checks at all, an open verdict, not a failure; the exit status stays the run's
        failed = dict(check("the case's observe completes", None, source=f"{frame.filename}:{frame.lineno}",
                            note=f"observe raised {said}"), **{"pass": False})
        return {"error": said, "checks": [failed]}, [
            f"the case {cfg.case.name}'s observe raised {said} (at {frame.filename}:{frame.lineno}); the "
            f"observables are left out, the rest of the summary is kept"]


def summary(view: RunView, cfg, *, status: str, steps_run: int, wall_time: float, compile_s: float,
            restored_from, run_warnings=(), extra: dict | None = None, steps: int | None = None) -> dict:
    """summary.json of a run: cfg is the run's config.RunConfig, view its final state; run_warnings: the
    warnings the run printed as it ran; extra: what the driver adds (the step path; the steadiness checks).
    steps_run: the steps timed in wall_time (MLUPS); steps: every step the run took (`steps`; default steps_run),
    more where a Simulation stepped with advance() before its run()."""
    model, setup, domain = view.model, view.setup, view.domain
    cells = view.cells_count
    last = view.history[-1]
    units = dict(setup.units)
    units["tau"] = setup.tau
    observables, failed = observed(cfg, view)
    out = {
        "case": cfg.case.name,
        "title": cfg.case.title,
        "validates": cfg.case.validates,
        "reference": cfg.case.reference,
        "lattice": model.lattice.name,
        "shape": list(setup.shape),
        "cells": cells,
        "dtype": model.dtype,
        "compute_dtype": model.compute_dtype,
        "collision": model.collision.kind,
        "equilibrium": "incompressible" if model.incompressible else "standard",
        "devices": domain.n_devices,
        "mesh": list(domain.mesh_shape) or [1] * len(setup.shape),  # one device: one block per axis (not [])
        "processes": domain.process_count,
        "steps": steps_run if steps is None else steps,
        "step": view.step,
        "status": status,
        "restarted_from": restored_from,
        "wall_time_s": wall_time,
        "compile_time_s": compile_s,
        "mlups": cells * steps_run / max(wall_time, 1e-12) / 1e6,
        "relative_mass_drift": (last["mass"] - view.mass0) / view.mass0 if view.mass0 else 0.0,
        "kinetic_energy": last["kinetic_energy"],
        "parameters": {**parameters(setup, units), "case": cfg.params, "config": cfg.common},
        # the settings' warnings, then those the run printed (a time average that takes no sample, a checkpoint
        # that could not be read, a folder's lock, ...)
        "warnings": list(cfg.warnings) + [w for w in run_warnings if w not in cfg.warnings] + failed,
        "observables": observables,
    }
    out.update(extra or {})
    return out
