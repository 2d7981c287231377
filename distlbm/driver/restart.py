"""What a restart continues: the settings, the end step, the sample series and the records of the run it continues,
read from its checkpoint's metadata (`meta`) against this run's configuration (`cfg`) and folder. The decisions are
pure functions, which the run (driver.loop.Simulation) and its dry run (dryrun) share; they return the lines to say.
earlier_results then acts on the folder (process 0, before the run's first write): the run's records kept up to the
step it continues from, an abandoned branch set aside, another run's results moved away."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from distlbm.errors import ConfigError
from distlbm.io import abandoned, files, results
from distlbm.io.checkpoint import CheckpointError
from distlbm.io.files import WriteError
from distlbm.memory import average_values


def _kept_spec(cfg, meta: dict, attr: str, names, active: Callable, switches=None):
    """A restart keeps the settings `names` of the run it continues (its config in the checkpoint's metadata
    `meta`) that it does not set itself (file, --set, command line), where the result makes `active(spec)` true:
    the spec kept, or None (its own). The `switches` among them (what turns it on: a step or time interval;
    default: all of `names`) are kept only where the restart sets none of them, so an explicit 0 still means
    none. Before, any one setting given dropped all the others: a restart given only output_fields wrote no
    field and lost the time average, one given only --output-every wrote the whole fields of a run of slices."""
    spec = getattr(cfg, attr)
    switches = set(names if switches is None else switches)
    given = set(names) & cfg.given
    old = meta.get("config") or {}
    take = {k: old[k] for k in names if k in old and k not in given and not (k in switches and switches & given)}
    if not take:
        return None
    try:
        kept = dataclasses.replace(spec, **take)
    except (ConfigError, TypeError, ValueError):  # settings this version cannot read: keep none
        return None
    return kept if active(kept) and kept != spec else None


def kept_changes(spec, kept) -> dict:
    """The settings a restart took from the run it continues: those of `kept` that differ from its own `spec`."""
    return {f.name: getattr(kept, f.name) for f in dataclasses.fields(kept)
            if getattr(kept, f.name) != getattr(spec, f.name)}


def kept_checkpoints(cfg, meta: dict):
    """The checkpoints a restart keeps from the run it continues (None: its own): the schedule, how many are kept
    and how many failed writes stop it (a restart went back to keeping 3 of a run that kept 1, on a quota)."""
    return _kept_spec(cfg, meta, "checkpoint", ("checkpoint_every", "checkpoint_wall", "checkpoint_keep",
                                                "max_failed_writes"),
                      lambda c: c.checkpoint_every or c.checkpoint_wall,
                      switches=("checkpoint_every", "checkpoint_wall"))


def kept_steady(cfg, meta: dict):
    """The steadiness test a restart keeps from the run it continues where it sets none (None: its own): a run
    given --until-steady 0.02, resubmitted without it, went back to the case's 1e-4 and ran to its end step."""
    kept = _kept_spec(cfg, meta, "control", ("steady_tol", "steady_every"), lambda c: True, switches=("steady_tol",))
    # a test turned off here needs nothing of the run's (a run that turned it off keeps it off)
    return None if kept is not None and "steady_tol" in cfg.given and not kept.steady_tol > 0 else kept


def kept_averaging(cfg, meta: dict):
    """The time average a restart keeps taking from the run it continues where it sets no average_* (None: its
    own): a restart that gave --output-every alone stopped averaging."""
    return _kept_spec(cfg, meta, "output", ("average_every", "average_from", "average_stresses"),
                      lambda o: o.average_every, switches=("average_every",))


def kept_outputs(cfg, meta: dict):
    """The field output a restart keeps from the run it continues (None: its own)."""
    from distlbm.config import OutputSpec

    fields = (meta.get("config") or {}).get("output_fields")
    if isinstance(fields, str) and any(not x.strip() for x in fields.split(",")[:-1]):
        # a run of 'rho,,u' (accepted before the empty name was refused): its fields, not no field output at all
        meta = {**meta, "config": {**meta["config"], "output_fields": ",".join(
            x.strip() for x in fields.split(",") if x.strip())}}
    return _kept_spec(cfg, meta, "output", [f.name for f in dataclasses.fields(OutputSpec)
                                            if not f.name.startswith("average_")],  # kept_averaging's
                      lambda o: o.output_every or o.output_interval, switches=("output_every", "output_interval"))


def restart_output(cfg, meta: dict):
    """The output spec a restart runs with (continue_outputs says it): its own, with the run's field output
    settings and then its average_* settings that it does not give itself."""
    kept = kept_outputs(cfg, meta)
    if kept is not None:
        cfg = dataclasses.replace(cfg, output=kept)
    out = cfg.output
    avg = kept_averaging(cfg, meta) if out.output_every or out.output_interval else None  # none without
    return avg if avg is not None else out


def settled_warnings(cfg) -> tuple:
    """The configuration's warnings that still hold once a restart has taken output settings from the run it
    continues: "output_fields has no effect: it applies with output_every" is not said of a restart that keeps
    the run's field output (it said so, then wrote them), nor "steady_every has no effect" of one that keeps the
    run's steadiness test and checks it every steady_every steps."""
    out = cfg.output
    on = {"output": bool(out.output_every or out.output_interval), "average": bool(out.average_every)}

    def settled(key: str) -> bool:
        if key == "steady_every":
            return cfg.control.steady_tol > 0
        if key in ("average_from", "average_stresses"):
            return on["average"]
        return (key.startswith("output_") or key == "average_every") and on["output"]

    gone = {w for key, w in cfg.idle if settled(key)}
    return tuple(w for w in cfg.warnings if w not in gone)


def kept_end(cfg, meta: dict) -> Optional[int]:
    """The end step a restart takes from the run it continues (its checkpoint's `end_step`), or None: where it sets
    none itself (no --steps, no `steps`, no stop such as t_end given) and the run's was not the case's default."""
    end = meta.get("end_step")
    if (cfg.control.steps or "steps" in cfg.given or not isinstance(end, int) or end == cfg.setup.steps
            or any(k in cfg.given for k in cfg.case.stops)):
        return None  # (a t_end given: its end)
    return end


def restart_sampling(cfg, meta: dict) -> tuple:
    """The sample series a restart's probes end: where it moves a probe point, the run's earlier samples of it
    (p_pt1, ux_pt1, dP) are of another point. They stay in samples.jsonl, said; the summary's final values and
    steadiness use the new point's alone (its `final` averaged both points under one name). (series_after: sample key
    -> the step after which its series is of the point named now, the notes to say): the run's and its dry run's."""
    from distlbm.config import _set_option

    old = meta.get("config") or {}
    kept = meta.get("series_after")
    after = {k: int(v) for k, v in kept.items() if isinstance(k, str) and isinstance(v, int)
             and not isinstance(v, bool)} if isinstance(kept, dict) else {}
    notes = []
    lattice = cfg.setup.lattice
    try:
        keys = cfg.case.resampled(old, cfg.params, lattice)
    except ConfigError:
        keys = []
    for k in keys:
        after[k] = int(meta["step"])
    if keys:
        notes.append(f"this restart moves probe points: {', '.join(keys)} in the samples up to step {meta['step']} "
                     f"are the run's earlier points, from there on the new ones (the summary's final values use the "
                     f"new ones alone)")
    for key, value, ended in cfg.case.unsampled(old, cfg.params, cfg.given, lattice):
        what = (f"their series in samples.jsonl ({', '.join(ended)}) end at step {meta['step']}, and the "
                f"summary's final values have none of them" if ended else "the summary has no probe line")
        keep = _set_option(key, value)
        notes.append(f"this restart does not give the run's {key} = {value!r}: {what} (a restart keeps no case "
                     f"parameter it does not give)" + (f"; give {keep} to go on sampling them" if keep else ""))
    near = cfg.setup.probe_p_weights
    older = (meta.get("probe_pressure") != "fluid"
             and "every" not in ((meta.get("schedules") or {}).get("sample") or {}))
    if near and older:
        # a run of before stop 39 read a near-wall probe's pressure with the solid cells' p = 0 in it (half of it
        # beside a wall); this restart reads the fluid cells alone: two series under one key, unsaid before
        cut = sorted({f"p_{name}" for name in near} | ({"dP"} if {"front", "back"} & set(near) else set()))
        cut = [k for k in cut if k not in keys]
        for k in cut:
            after[k] = int(meta["step"])
        if cut:
            notes.append(f"{', '.join(cut)}: the pressure of a probe within a cell of a wall or body is read from the "
                         f"fluid cells alone from this restart on (the run's checkpoint is of an older version, whose "
                         f"samples up to step {meta['step']} counted the solid cells as p = 0); the summary's final "
                         f"values use the samples from here on")
    return after, notes


def samples_upto(schedules: dict, start_step: int) -> int:
    """The last step of the samples a restart at `start_step` continues (`schedules`: its checkpoint's): the step
    before it where the run sampled it off its schedule, the sample of a stop (a signal, the wall time) or of its end
    step that a restart then carries on from (the checkpoint's sample interval does not divide it); else `start_step`.
    A run extended with --restart latest --steps N, or a Slurm chain's next job, kept that record, one the
    uninterrupted run has not (schaefer_turek_2d2 run to step 105 then to 200 sampled every 10 steps: ..., 100, 105,
    110, ...)."""
    every = (schedules.get("sample") or {}).get("every")
    if isinstance(every, int) and not isinstance(every, bool) and every > 0 and start_step % every:
        return start_step - 1
    return start_step


def samples_missing(schedules: dict, last: Optional[int], upto: int) -> list[int]:
    """The steps of the sample schedule (`schedules`: the checkpoint's) after `last` (the last step of the records a
    restart read back, None: none) up to `upto` (samples_upto's): the run's records before its checkpoint that
    samples.jsonl no longer holds (a node that lost its page cache before they reached the disk, a file cut by
    hand). The restart never records them again: a hole in the series. [] where the checkpoint keeps no interval."""
    every = (schedules.get("sample") or {}).get("every")
    if not isinstance(every, int) or isinstance(every, bool) or every <= 0:
        return []
    first = every if last is None else (last // every + 1) * every
    return list(range(first, upto + 1, every))


def samples_missing_line(missing: list[int], path, upto: int) -> str:
    """The warning of a restart whose samples.jsonl lacks the records `missing` (samples_missing's)."""
    return (f"warning: {path} lacks the sample records of {abandoned.steps_text(missing)} ({len(missing)} of the "
            f"run's records up to its checkpoint's step {upto}): they were lost before they reached the disk (a "
            f"crash of the node) or cut from the file; this restart does not record them again, and its series keeps "
            f"that hole (the summary's values come from the records it holds)")


def samples_copy(restored_from, out_dir, upto: int, gone=(), write: bool = False) -> Optional[tuple]:
    """What a restart into another folder than its run's copies of the run's samples.jsonl (its records up to step
    `upto`, those its observables read back) to begin this folder's: (src, dst, (the number of records, the first's
    step, the last's), the OSError that kept it from reading src or None), or None where it copies nothing (not a run
    folder's checkpoint, no src, a dst there already, the same file). `write`: copy them (the run's; read line by
    line, io.results.copy_samples), else count them (its dry run's). `gone`: the paths that the run moves aside
    before (io.results.set_aside's; the dry run's, which moves nothing)."""
    ckpts = Path(restored_from).resolve().parent
    src, dst = ckpts.parent / "samples.jsonl", Path(out_dir) / "samples.jsonl"
    if (ckpts.name != "checkpoints" or not os.path.lexists(src) or (dst.exists() and dst not in gone)
            or src.resolve() == dst.resolve()):
        return None
    try:
        if not src.is_file():
            raise IsADirectoryError("not a regular file")
        counted = results.copy_samples(src, dst if write else None, upto)
    except OSError as e:
        return src, dst, (0, None, None), e
    return src, dst, counted, None


def samples_copy_line(copy: tuple, start_step: int, copied: str = "copied") -> str:
    """What a restart says of its samples_copy(): the records `copied` (the run's word; its dry run's "are copied"),
    or a warning that src could not be read; '' where there is no record to copy."""
    src, dst, (count, first, last), error = copy
    if error is not None:  # (said, not silent: the summary's Strouhal number or cD_max is then of the restart's alone)
        return (f"warning: the run's sample records in {src} could not be read ({error.strerror or error}): {dst} and "
                f"the summary's observables hold this restart's own samples alone, from step {start_step}")
    if not count:
        return ""
    return (f"note: {count} sample record(s) of the run this restart continues (steps {first} to "
            f"{last}) {copied} from {src} into {dst}")


def steady_done(state: dict, tol: float, step: int) -> Optional[str]:
    """Why a restart at `step` has nothing to run (None: it runs): the run it continues stopped there, steady, by the
    test (`tol`) this restart applies. `state`: the checkpoint's steadiness record (meta['steady']). Said by the run
    and by the dry run."""
    try:
        last_step, last = int(state["history"][-1][0]), float(state["history"][-1][1])
    except (TypeError, ValueError, IndexError, KeyError):
        return None
    if not (tol > 0 and state.get("reached") == step == last_step and last < tol):
        return None
    return (f"nothing to run: the run this restart continues stopped at step {step}, steady (max |du| / U = "
            f"{last:.3g} < steady_tol = {tol:g}); a smaller --until-steady TOL (0: none) goes further")


def case_of(meta: dict) -> Optional[str]:
    """The case of the run that wrote a checkpoint (its metadata's configuration), or None."""
    source = meta.get("config")
    return source.get("case") if isinstance(source, dict) else None


def init_from_line(path, meta: dict, dtype) -> str:
    """What a new run started from the populations of the checkpoint `path` (--init-from) says of them: whose run
    and which step, the dtype they are taken in where it differs. The run's line and its dry run's (which said
    "(step N; ...)" alone)."""
    from distlbm.io.checkpoint import converted

    case = case_of(meta)
    return (f"initial state: the populations of {path} (step {meta['step']}" + (f" of a {case} run" if case else "")
            + "), at step 0 of this run with its own settings" + converted(meta, dtype))


def other_case(path, meta: dict, case: str) -> Optional[str]:
    """The warning of an --init-from checkpoint of another case (None for one of `case`): said by the run and by the
    dry run (which said nothing of it)."""
    theirs = case_of(meta)
    if theirs and theirs != case:
        return f"{path} is a checkpoint of case {theirs!r}, this run is {case!r}: its flow is taken as it is"
    return None


def end_before_start(end: int, start: int, given: bool, kept: bool) -> ConfigError:
    """The refusal of a restart whose end step is before its checkpoint's (given: --steps / steps set it; kept:
    the end step of the run it continues did); the dry run says the same."""
    what = ("--steps / steps" if given else "the end step of the run it continues" if kept
            else "the case's number of steps")
    return ConfigError(f"steps = {end} ({what}): the step to run to, not a count, is before step {start} of the "
                       f"checkpoint this run continues; expected {start} or more (to run {end} more steps: "
                       f"--steps {start + end})")


def mean_starts_again(cfg, meta: dict, path, compute_dtype: str) -> Optional[str]:
    """Why a restart does not continue the time average its checkpoint `path` holds (meta['_mean']: its shape and
    dtype), the note to say; None where it continues it: 1 + D moments (and the stresses where asked) of this lattice
    in this run's compute dtype, averaged with the same cadence and first step. CheckpointError where the mean is not
    of this lattice."""
    shape, dtype = meta["_mean"]
    # judged against the settings the restart averages with, the run's it keeps among them: its own alone (a
    # restart given --output-every and the run's average_every, not its average_stresses, which it keeps) threw
    # the mean away, "average_stresses ... changed", and averaged the stresses again from its step
    values = average_values(restart_output(cfg, meta), len(cfg.setup.shape))
    want = [int(n) for n in cfg.setup.shape]
    cdt = str(np.dtype(compute_dtype))
    if shape[1:] != want:
        raise CheckpointError(f"{path}: time average 'mean' is {shape} but this run's lattice is {want}")
    if values and (shape[0] != values or dtype != cdt):  # other quantities (average_stresses) or precision
        return (f"the time average in {path} holds {shape[0]} values per cell in {dtype}, this run averages {values} "
                f"in {cdt} (average_stresses or compute_dtype changed): it starts again here")
    # another cadence or first step given: the mean so far is not the one asked for (it went on, mixing both
    # cadences, and the files labelled it with the new settings)
    old = meta.get("config") or {}
    changed = [f"{k} = {old[k]} -> {getattr(cfg.output, k)}" for k in ("average_every", "average_from")
               if k in cfg.given and k in old and old[k] != getattr(cfg.output, k)]
    if changed and (cfg.output.average_every != 0 or "average_every" not in cfg.given):
        # the first step the run will average from: its own average_from, or the run's it keeps (said after)
        start = (kept_averaging(cfg, meta) or cfg.output).average_from
        first = max(int(meta["step"]), start)
        label = (f" (the files' average_from = {start} is where it would have begun; "
                 f"average_first_step says where it does, average_samples counts its samples)"
                 if first > start else "")
        return (f"the time average in {path} was taken with other settings ({'; '.join(changed)}): it starts again, "
                f"from step {first} on{label}")
    return None


# ---- what a restart continues, with the lines it says (driver.loop.Simulation._continue) --------------------------
def continue_checkpoints(cfg, meta: dict) -> tuple:
    """The checkpoint schedule (cfg, [line]): a resubmitted week-long run must not run on without checkpoints because
    a flag was left out."""
    kept = kept_checkpoints(cfg, meta)
    if kept is None:
        return cfg, []
    taken = kept_changes(cfg.checkpoint, kept)
    what = " and ".join(x for x in (f"every {kept.checkpoint_every} steps" if kept.checkpoint_every else "",
                                    f"every {kept.checkpoint_wall:g} s" if kept.checkpoint_wall else "") if x)
    return dataclasses.replace(cfg, checkpoint=kept), [
        f"checkpoints {what}, keeping the newest {kept.checkpoint_keep}; kept from the run this restart continues: "
        f"{', '.join(f'{k} = {v!r}' for k, v in taken.items())} (a setting given here replaces its own; "
        f"--checkpoint-every 0 for none)"]


def continue_steady(cfg, meta: dict) -> tuple:
    """The steadiness test (steady_tol, steady_every) of the run a restart continues, where it gives none: (cfg,
    [line])."""
    kept = kept_steady(cfg, meta)
    if kept is None:
        return cfg, []
    taken = kept_changes(cfg.control, kept)
    every = f", checked every {kept.steady_every} steps" if "steady_every" in taken else ""
    what = (f"stops once steady (steady_tol = {kept.steady_tol:g}{every})" if kept.steady_tol > 0 else
            "runs to its end step without a steadiness test")
    return dataclasses.replace(cfg, control=kept), [
        f"the run {what}, as the run this restart continues (--until-steady TOL to change it, 0 for none)"]


def continue_outputs(cfg, meta: dict) -> tuple:
    """The field output (cfg, [line]): the run's output settings (slices too) that a restart does not give itself, and
    its time average while it writes fields (restart_output's spec, said): a restart resubmitted by hand without
    --output-every wrote no field for the rest of the run. The configuration's warnings then settled."""
    lines = []
    kept = kept_outputs(cfg, meta)
    old_units = (meta.get("config") or {}).get("output_units")
    will = kept or cfg.output  # the output this restart writes
    now = will.output_units
    if old_units and old_units != now and (will.output_every or will.output_interval):
        lines.append(f"note: output_units changes at this restart ({old_units} -> {now}): the field outputs' series "
                     f"goes on with its values in {now} units after step {meta['step']} (its output there, if any, is "
                     f"the run's; each file's `units` attribute says which)")
    if kept is not None:
        taken = kept_changes(cfg.output, kept)
        cfg = dataclasses.replace(cfg, output=kept)
        when = (f"every {kept.output_every} steps" if kept.output_every else
                f"every {kept.output_interval:g} of simulated time")
        lines.append(f"field output {when} ({kept.output_fields}); kept from the run this restart continues: "
                     f"{', '.join(f'{k} = {v!r}' for k, v in taken.items())} (a setting given here replaces its "
                     f"own; --output-every 0 for no output)")
    out = cfg.output
    avg = kept_averaging(cfg, meta) if out.output_every or out.output_interval else None  # none without
    if avg is not None and avg != cfg.output:
        taken = kept_changes(cfg.output, avg)
        cfg = dataclasses.replace(cfg, output=avg)
        lines.append(f"time average of rho and u every {avg.average_every} steps from step {avg.average_from}; kept "
                     f"from the run this restart continues: {', '.join(f'{k} = {v!r}' for k, v in taken.items())} "
                     f"(--set average_every=0 to stop it)")
    return dataclasses.replace(cfg, warnings=settled_warnings(cfg)), lines


def continue_end(cfg, meta: dict) -> tuple:
    """(cfg, the end step kept or None, [line]): a restart that sets no steps (no --steps, no `steps` in the file or
    --set) runs to the end step of the run it continues, not to the case's default: `--steps 200000` then a
    `--restart latest` without it ran to the default 100 steps, or, past it, ran nothing and said done."""
    from distlbm.config import at_end

    end = kept_end(cfg, meta)
    if end is None:
        return cfg, None, []
    cfg = at_end(cfg, end)  # its warnings that depend on the end step, judged against this one
    step = int(meta["step"])
    # said where the restart runs: one with nothing to run (the run stopped steady, or at that end step) says that
    # alone (the run's _run), as its dry run does; it said "running to step 8000" and then "nothing to run"
    runs = end > step and steady_done(meta.get("steady") or {}, cfg.control.steady_tol, step) is None
    return cfg, end, [f"running to step {end}, the end step of the run this restart continues (--steps N to change "
                      f"it)"] if runs else []


def continued(cfg, meta: dict) -> tuple:
    """What a restart takes from the run it continues (its checkpoint's metadata `meta`), in the order the run says
    it: (cfg with the settings kept, the lines to say, series_after (restart_sampling's), the end step kept or None)."""
    cfg, lines = continue_checkpoints(cfg, meta)
    cfg, said = continue_steady(cfg, meta)
    lines += said
    cfg, said = continue_outputs(cfg, meta)
    lines += said
    series_after, notes = restart_sampling(cfg, meta)
    lines += [f"note: {line}" for line in notes]
    cfg, end, said = continue_end(cfg, meta)
    return cfg, lines + said, series_after, end


# ---- what a restart does to its folder (process 0, which holds it: driver.loop.Simulation._earlier_results) ---------
def earlier_results(out_dir: Path, checkpoint_dir: Path, run_id: str, restored_from: Optional[str], schedules: dict,
                    samples: bool, start_step: int, end: Optional[int], say: Callable[[str], None]) -> None:
    """Before a run writes into its folder `out_dir`: results of another run there (summary, logs, field outputs;
    io.results) are moved into OUT/previous/, so that the two runs do not mix (a restart into another folder than its
    run's then begins samples.jsonl with the run's records, `samples`: the run samples); in the folder of the run it
    continues (run id `run_id`, from the checkpoint `restored_from`, whose `schedules` are its schedules' states),
    samples.jsonl keeps the records up to this step (the later ones are recorded again) and a restart from an older
    checkpoint than its newest sets the checkpoints and outputs of the later steps aside (io.abandoned), unless it has
    nothing to run (`end`: its end step is its start), which leaves the run's records, newer checkpoints and outputs as
    they are. Said with `say`; WriteError where it cannot be done."""
    ours = results.continues(out_dir, run_id, restored_from, checkpoint_dir)
    if ours and end is not None and end <= start_step:
        pass  # a restart with nothing to run: it kept summary.json, and --restart latest goes on as it did
    elif ours:
        aside = None  # (first: the records of the steps it abandons are set aside, not dropped)
        at = abandoned.branch(restored_from, checkpoint_dir, start_step)
        if restored_from is not None and Path(checkpoint_dir).is_dir():
            aside = set_aside_abandoned(out_dir, checkpoint_dir, run_id, restored_from, start_step, at, say)
        upto = samples_upto(schedules, start_step)
        back, _, dropped = samples_dropped(out_dir, restored_from, schedules, start_step, at, write=True)
        if back:
            say(f"note: {len(back)} sample record(s) of the history this restart continues "
                f"({abandoned.steps_text(s for _, s in back)}) copied back into samples.jsonl from "
                f"{out_dir / abandoned.set_aside_as(restored_from)}/samples.jsonl")
        linked = abandoned.linked_back(restored_from, out_dir, at, start_step)
        if linked:
            say(f"note: {len(linked)} output file(s) of the history this restart continues (of the "
                f"steps after {at} up to {start_step}) linked back from "
                f"{abandoned.set_aside_as(restored_from)}/ of their folders (hard links: "
                f"the set-aside series stays as it was)")
        if dropped and not (aside and aside.samples):
            say(samples_dropped_line(dropped, min(at, upto), upto, start_step, schedules))
    else:
        moved = results.set_aside(out_dir)
        if moved:
            say(f"note: {moved}")
        if restored_from and samples:
            samples_into_new_folder(out_dir, restored_from, samples_upto(schedules, start_step), start_step, say)


def samples_dropped(out_dir: Path, restored_from, schedules: dict, start_step: int, at: int,
                    write: bool = False) -> tuple:
    """The sample records a restart in its own folder keeps and drops (earlier_results; its dry run's, which writes
    nothing): (the records taken back from the history it continues [(line, step)], the step after which samples.jsonl
    is cut, the number of lines dropped). `write`: samples.jsonl rewritten (the run's)."""
    upto = samples_upto(schedules, start_step)
    back = [(line, s) for line, s in abandoned.taken_back(restored_from, out_dir, at, start_step) if s <= upto]
    cut = min(at, upto)
    return back, cut, results.trim_samples(out_dir, cut, [line for line, _ in back], write=write)


def samples_dropped_line(dropped: int, cut: int, upto: int, start_step: int, schedules: dict) -> str:
    """What a restart says of the `dropped` records of samples.jsonl after step `cut` (samples_dropped's)."""
    return (f"note: {dropped} record(s) of samples.jsonl after step {cut} dropped: this restart records them again" + (
        f" (but step {start_step}'s, the stop's or end's own sample between two of the run's every "
        f"{schedules['sample']['every']} steps: the series goes on as the uninterrupted run's)"
        if upto < start_step else ""))


def samples_into_new_folder(out_dir: Path, restored_from: str, upto: int, start_step: int,
                            say: Callable[[str], None]) -> None:
    """A restart into another folder than its run's: the run's sample records up to its checkpoint (`upto`: those its
    observables read back) begin this folder's samples.jsonl, which held the restart's own alone, half the series
    its summary's Strouhal number or cD_max was taken from (in earlier_results)."""
    copy = samples_copy(restored_from, out_dir, upto, write=True)
    if copy is None:
        return
    line = samples_copy_line(copy, start_step)
    if line:
        say(line)


def set_aside_abandoned(out_dir: Path, checkpoint_dir: Path, run_id: str, restored_from: str, start_step: int,
                        at: int, say: Callable[[str], None]):
    """A restart from an older checkpoint of its run (in earlier_results): the run's checkpoints and outputs of the
    steps after it (its sample records too) are moved aside (io.abandoned), said; the plan, or None where there was
    nothing to set aside."""
    try:
        plan = abandoned.plan(out_dir, checkpoint_dir, run_id, at)
    except OSError as e:
        raise WriteError(checkpoint_dir, files.reason(e, None, checkpoint_dir)) from None
    if plan is None:
        return None
    series = abandoned.set_aside(plan, out_dir, checkpoint_dir)
    steps = [s for s, _ in plan.checkpoints]
    back = (f" (written by the restart from step {at} that set aside the checkpoint this one continues; that "
            f"checkpoint's own outputs and sample records of the steps after {at} up to {start_step} come back "
            f"from {Path(restored_from).parent.name}/ of their folders)" if at < start_step else "")
    say(f"note: {len(steps)} {'newer ' if not back else ''}checkpoint(s) of this run (step"
        f"{'s' if len(steps) > 1 else ''} {', '.join(map(str, steps))}){back} moved to "
        f"{checkpoint_dir / plan.name}: this restart continues from step {start_step}, and --restart "
        f"latest would have gone back to them")
    moved = abandoned.describe(plan, out_dir, series=series)
    if moved:
        say(f"note: the outputs of the steps after {at} that this restart abandons moved aside (never "
            f"removed): {'; '.join(moved)}")
    return plan


def blew_up_after(out_dir: Path, run_id: str, step: int) -> Optional[int]:
    """The step at which the run `run_id` blew up after its checkpoint of `step` (the instability events of its
    log.jsonl in `out_dir` under its run id), or None. A restart of a blown-up run reran the same steps to the same
    blow-up, with nothing said before."""
    current, found = None, None
    for event in results.events(out_dir, ("start", "instability")):  # (in the log's order)
        if event["event"] == "start":
            current = event.get("run_id")
        elif current == run_id and isinstance(event.get("step"), int) and event["step"] > step:
            found = event["step"]
    return found


def blown_up_warning(out_dir, run_id, step: int, end: int, path) -> Optional[str]:
    """The warning of a restart from the checkpoint `path` (of `step`) of run `run_id` in `out_dir` that blew up after
    it (blew_up_after), where the restart runs to `end` at or past that step (one that ends before it does not reach
    it): None otherwise. Said by the run and by its dry run (which said "ready" alone)."""
    if out_dir is None or not run_id:
        return None
    blown = blew_up_after(out_dir, run_id, step)
    if blown is None or end < blown:
        return None
    return (f"this run was found blown up at step {blown}, after this checkpoint (log.jsonl), and a restart runs its "
            f"steps again with the same physics, bit for bit: it will blow up again; to go on from this state with a "
            f"changed setting (the instability message names them), --init-from {path} --out NEWDIR")


def nothing_to_run(end: int) -> str:
    """What a restart already at its end step says (the run, and its dry run, which said "none to run (the run is at
    step N, its end step N)" without the way further)."""
    return f"nothing to run: the run is already at its end step {end} (--steps N to go further)"


def outputs_here(out_dir, whole: list, light: list) -> tuple:
    """The field outputs of the run so far (the checkpoint's records `whole` and `light`) whose files lie in
    `out_dir`: (whole, light) kept, those of the others dropped (a restart into another folder listed them in its
    fields.xdmf, files that are not there). The run's (process 0) and its dry run's."""
    here = {}

    def found(e):
        f = e.get("file")
        if f not in here:
            here[f] = isinstance(f, str) and (Path(out_dir) / f).is_file()
        return here[f]

    return [e for e in whole if found(e)], [e for e in light if found(e)]


def outputs_gone_line(gone: int, out_dir) -> str:
    """What a restart says of the `gone` earlier field outputs of its run that are not in its folder `out_dir`."""
    return (f"note: {gone} earlier field output(s) of this run are not in {out_dir} (a restart into another folder, or "
            f"removed): the XDMF series here list the outputs found in it")


def legacy_warning(path, meta: dict) -> Optional[str]:
    """The warning of a checkpoint of an older distlbm, whose metadata has no digest (None for others): the run's and
    its dry run's."""
    from distlbm.io.checkpoint import LEGACY_FORMAT

    if meta.get("_format") != LEGACY_FORMAT:
        return None
    return f"{path} was written by an older distlbm (no metadata digest): its metadata is not verified"
