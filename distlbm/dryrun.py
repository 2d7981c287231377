"""`distlbm run ... --dry-run`: everything a run checks before its first step, on the login node, before
the job waits in the queue: the configuration, the geometry and its input files (a mask is scanned, an STL
surface read and checked), the output folder and its run lock file, a restart's checkpoint (its metadata
against this configuration; its populations read whole where at most VERIFY_LIMIT_BYTES), the memory per
device for the mesh and the space for checkpoints and field outputs. Nothing is allocated on a device and
nothing is written; the same one-line errors and exit statuses as the run itself. A run that passes may
still stop where only the run can tell: a larger checkpoint's populations are verified when they are read,
the memory available is that of the machine it runs on, whether HDF5 can create a file in a folder that
refuses file locks is found by the run's probe (a write; the dry run says a folder that refuses them), and
whether a job's nodes share the folder by the run's processes."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import Callable


def _where_writable(out: Path) -> tuple[Path, str | None]:
    """The folder the run would create or write, and why it could not (None: it can)."""
    if os.path.lexists(out) and not out.is_dir():  # (a symbolic link to nothing too: the run's mkdir finds it)
        return out, "exists and is not a folder"
    for above in out.parents:  # a folder below a link to nothing: the run's mkdir finds the link, as above
        if above.is_dir():
            break
        if os.path.lexists(above) and not above.exists():
            return out, "exists and is not a folder"
    from distlbm.io.files import existing_folder

    probe = existing_folder(out)
    if not probe.is_dir():
        return probe, f"{probe} is not a folder"
    if not os.access(probe, os.W_OK | os.X_OK):
        return probe, f"{probe} is not writable"
    try:  # /proc, /sys: writable to root, but no storage ("0 B free": taken for a full disk, exit 74)
        if os.statvfs(probe).f_blocks == 0:
            return probe, f"{probe} is on a file system without storage (such as /proc or /sys)"
    except OSError:
        pass
    return probe, None


def _forms(model, block) -> dict:
    """The step's form on a block on CPU devices and on a GPU (the fused kernel where it covers the case)."""
    from distlbm.memory import itemsize
    from distlbm.physics.fused import fused_supports
    from distlbm.stepper import fused_form, slab_form

    q = model.lattice.q
    cells = math.prod(block)
    nbytes = q * cells * max(itemsize(model.dtype), itemsize(model.compute_dtype))
    cpu = slab_form(nbytes, backend="cpu", planes=int(block[0]))
    if fused_supports(model)[0]:
        gpu = "fused_in_place" if fused_form(model=model) == "in place (AA)" else "fused"
    else:
        gpu = slab_form(nbytes, backend="gpu", planes=int(block[0]))
    return {"GPU": gpu, "CPU": cpu}


# the dry run's time for the geometry's scans of the lattice (a channel's fluid path: minutes to hours for a large
# one, which left the dry run's report waiting); a scan not done by then is said and left to the run
SCAN_LIMIT_S = 60.0
# and for the scan of a new run's initial populations (the Taylor-Green vortices': ~1.5 s per million cells here), which
# the run repeats on the populations it makes: a 512^3 vortex's dry run is not held a minute for it
INITIAL_SCAN_LIMIT_S = 10.0

# a restart's checkpoint whose populations are at most this large is read whole by the dry run, as the run reads it
# (its populations, and the time average and steadiness reference the run reads beside them: fewer values per cell;
# HDF5's checksums, every value finite: 0.3 s for 256 MiB here from the page cache, a disk's read time from a cold
# one); a larger one is left to the run (reading it costs its size, on a login node, for a check the run makes anyway:
# a damaged one there falls back to an older one, said)
VERIFY_LIMIT_BYTES = 256 << 20


def _stored_bytes(meta: dict) -> int:
    """The bytes of a checkpoint's populations as stored (read_meta's _shape and _dtype)."""
    from distlbm.memory import itemsize

    return int(math.prod(int(n) for n in meta["_shape"])) * itemsize(str(meta["_dtype"]))


FORM_TEXT = {"in_place": "XLA step in place", "ab": "XLA step A-B", "whole": "XLA step, whole array",
             "fused_in_place": "fused kernel in place", "fused": "fused kernel A-B"}


def dry_run(cfg, out: str, restart: str | None, say: Callable[[str], None], init_from: str | None = None) -> int:
    """Check what `distlbm run` would check before its first step and print what it would do. Raises
    ConfigError (exit 2) where the run would stop; returns 0."""
    from distlbm.cases.base import ConfigError
    from distlbm.config import mesh_named, mesh_split_named
    from distlbm.driver.loop import build_model, samples_on
    from distlbm.driver.restart import (blown_up_warning, end_before_start, init_from_line, legacy_warning,
                                        mean_starts_again, nothing_to_run, other_case, outputs_gone_line, outputs_here,
                                        samples_copy, samples_copy_line, samples_dropped, samples_dropped_line,
                                        samples_upto, steady_done)
    from distlbm.driver.restart import continued as restart_continues
    from distlbm.io import abandoned
    from distlbm.io import checkpoint as ckpt
    from distlbm.driver import schedules
    from distlbm.driver.schedules import average_warning
    from distlbm.io import files
    from distlbm.io import results
    from distlbm.io.lock import check_lock_file, holder, lock_wait, locks_refused
    from distlbm.io.output import mean_parts, output_bytes, outputs_between, space_warning
    from distlbm.memory import average_values, checkpoint_bytes, fmt_bytes, memory_estimate, steady_values
    from distlbm.parallel.mesh import DecompositionError, check_divisible, factorize, not_per_process, parse_mesh
    from distlbm.parallel.processes import launcher, require_backends, start_variables

    start_variables()  # the processes' start-up variables, as the run reads them on one process or several
    s = cfg.setup
    shape = tuple(int(n) for n in s.shape)
    model = build_model(cfg)
    try:  # step = 'pallas' where the fused kernel does not cover the model: the run refuses it
        from distlbm.stepper import step_path

        step_path(model, cfg.decomposition.step)
    except ValueError as e:
        raise ConfigError(str(e)) from None
    files.check_out_name(str(out))  # as the run refuses it (cli.prepare_out)
    out_path = files.run_folder(out)  # ./~ said as its full path, not as ~ (the home folder)
    # the folder
    probe, why = _where_writable(out_path)
    if why:
        raise ConfigError(f"--out = {out!r}: {why}; expected a writable folder")
    lock_wait()  # DISTLBM_LOCK_WAIT, as the run reads it when it takes the folder (exit 2 where not seconds)
    if out_path.is_dir():  # its run lock file, as the run refuses it (a link, a folder, a FIFO): the dry run said ready
        check_lock_file(out_path)
    busy = holder(out_path) if out_path.is_dir() else None
    no_locks = locks_refused(probe)  # (the run's HDF5 probe writes a small file to find it: a lock tried, none written)
    if no_locks:
        hdf5_off = os.environ.get("HDF5_USE_FILE_LOCKING", "").upper() == "FALSE"
        say(f"warning: the file system of {probe} refuses file locks ({no_locks}): "
            + ("" if hdf5_off else
               "the run writes and reads its HDF5 files without HDF5's locks, as HDF5_USE_FILE_LOCKING=FALSE does "
               "(found and said when it starts, by a small HDF5 file written and removed there; set it, and that is "
               "not said), and stops at its start (exit status 2) where HDF5 cannot create a file there even without "
               "them; ")
            + "its run lock cannot see a second run started in this folder on another node at the same moment",
            file=sys.stderr)
    # what lies where the run writes its logs and outputs (a folder named log.jsonl, a file named fields): the run
    # stops on it with exit 74, at once or at its first output; the dry run said "ready"
    if out_path.is_dir():
        for name in ("log.jsonl", "summary.json", "samples.jsonl", "fields.xdmf"):
            files.check_target(out_path / name)
    cdir = out_path / "checkpoints"
    found = ckpt.list_checkpoints(cdir) if cdir.is_dir() else []
    start, continuing, continued = 0, False, None  # continued: (the checkpoint, its run id) a restart continues
    done = None  # why a restart has nothing to run: the run it continues stopped there, steady
    end = cfg.control.steps or s.steps
    if restart is None:
        if found:
            raise ConfigError(ckpt.occupied(cdir, found))
        if init_from is not None:  # the newest checkpoint there whose populations fit, as the run takes it
            def read(path):
                meta = ckpt.read_meta(path)
                ckpt.check_against(meta, path, model.lattice.q, shape, model.dtype, convert=True)
                return meta

            path, meta, skipped = ckpt.walk(ckpt.init_candidates(init_from), read)
            for line in skipped:  # as the run says them
                say(f"warning: {line}", file=sys.stderr)
            say(f"  {init_from_line(path, meta, model.dtype)}; its metadata verified against this lattice; its "
                f"populations are verified when the run reads them")
            other = other_case(path, meta, cfg.case_key)
            if other:
                say(f"warning: {other}", file=sys.stderr)
    else:
        def read(path):  # its settings, then its own data against its metadata and this lattice, as the run
            meta = ckpt.read_meta(path)
            moved = cfg.check_restart(meta, path)
            ckpt.check_against(meta, path, model.lattice.q, shape, model.dtype)
            small = _stored_bytes(meta) <= VERIFY_LIMIT_BYTES
            if small:  # its populations read whole, as the run reads them (a damaged one is passed over for an
                # older one, or refused, as the run does it: the dry run said ready)
                ckpt.verify_data(path, model.dtype)
            # the time average it holds, judged as the run judges it when it reads it (one not of this lattice: a
            # CheckpointError, and the checkpoint is passed over as the run passes it over)
            averaged = "_mean" in meta and isinstance(meta.get("average"), dict)
            again = mean_starts_again(cfg, meta, path, model.compute_dtype) if averaged else None
            if small:  # the fields the run reads beside them, in its order (driver.loop's _load_mean and
                # _load_steady_ref): a damaged one passes the checkpoint over as a damaged population does
                if averaged and again is None:
                    ckpt.verify_data(path, meta["_mean"][1], name="mean")
                if "_steady_ref" in meta and meta["_steady_ref"][0] == [len(shape)] + [int(n) for n in shape]:
                    ckpt.verify_data(path, meta["_steady_ref"][1], name="steady_ref")
            return meta, moved, again

        if restart == "latest" and cdir.is_dir():  # as the run says them
            for odd in ckpt.odd_entries(cdir):
                say(f"warning: {odd} is not a regular file (a folder or a FIFO): ignored", file=sys.stderr)
        path, (meta, moved, again), skipped = ckpt.walk(ckpt.resolve_restart(restart, cdir), read)
        for line in skipped:
            say(f"warning: {line}", file=sys.stderr)
        # a checkpoint of another folder continued here, where another run's checkpoints are: the run refuses it
        other = ckpt.foreign(cdir, meta.get("run_id") or ckpt.LEGACY_RUN) if cdir.is_dir() else []
        if other:
            raise ConfigError(ckpt.occupied(cdir, [p for p, _ in other], other[-1][1], restart=True))
        unverified = legacy_warning(path, meta)
        if unverified:
            say(f"warning: {unverified}", file=sys.stderr)
        start = int(meta["step"])
        # the checkpoint carries a time average on (the run's view.mean): unless this restart starts it again
        continuing = "_mean" in meta and isinstance(meta.get("average"), dict) and again is None
        say(f"  restart: from {path} at step {start} (its metadata verified against this configuration; "
            + ("its populations read and verified, as the run reads them)" if _stored_bytes(meta) <= VERIFY_LIMIT_BYTES
               else f"its populations ({files.size_text(_stored_bytes(meta))}, more than the "
                    f"{files.size_text(VERIFY_LIMIT_BYTES)} the dry run reads) are verified when the run reads them)"))
        for line in moved:
            say(f"  input file {line}")
        if again:
            say(f"  note: {again}")
        # what the restart takes from the run it continues, decided and said by the run's own driver.restart.continued
        # (the schedules, the steadiness test, the field output and average, the series its probes end or move, the
        # end step): the dry run made these decisions itself, in another order, and said none of the settings kept
        cfg, lines, _, kept = restart_continues(cfg, meta)
        if kept is not None:
            end = kept
        for line in lines:
            say(f"  {line}")
        blown = blown_up_warning(out_path, meta.get("run_id"), start, end, path)
        if blown:  # the run's warning: it said "ready" for a run that blows up again at the same step
            say(f"warning: {blown}", file=sys.stderr)
        # the configuration's warnings, settled against the settings kept (as the run says them, after the restart's)
        for w in cfg.warnings:
            say(f"warning: {w}", file=sys.stderr)
        continued = (path, meta.get("run_id") or ckpt.LEGACY_RUN)
        done = steady_done(meta.get("steady") or {}, cfg.control.steady_tol, start)
        if cfg.output.output_every or cfg.output.output_interval:  # the run's earlier outputs not in this folder
            whole = meta.get("outputs") or []
            light = [e for e in (meta.get("light_outputs") or []) if isinstance(e, dict)]
            here = outputs_here(out_path, whole, light)
            gone = len(whole) + len(light) - len(here[0]) - len(here[1])
            if gone:  # (said by the run as it opens its field output; the dry run said nothing of it)
                say(f"  {outputs_gone_line(gone, out_path)}")
        if samples_on(model, s) and not results.continues(out_path, continued[1], path, cdir):
            # into another folder than its run's: the run's sample records up to its checkpoint begin samples.jsonl
            # there, once the run has moved an earlier run's results there aside (as the run copies them)
            copy = samples_copy(path, out_path, samples_upto(meta.get("schedules") or {}, start),
                                gone=results.to_set_aside(out_path))
            line = samples_copy_line(copy, start, "are copied") if copy is not None else ""
            if line.startswith("warning: "):
                say(line, file=sys.stderr)
            elif line:
                say(f"  {line}")
    # an earlier run's results in the folder (not those of the run a restart continues): the run moves them aside
    # into OUT/previous/ before its first step and says so (its _earlier_results); the dry run said nothing of it
    if continued is None or not results.continues(out_path, continued[1], continued[0], cdir):
        moved = results.set_aside(out_path, make=False)
        if moved:
            say(f"  earlier results, moved when the run starts: {moved}")
    # the folders the run writes into, with the schedules a restart keeps from the run it continues (a restart of
    # another folder's checkpoint that keeps its --checkpoint-every was said ready where a file named checkpoints
    # stopped the run with exit 74)
    if out_path.is_dir():
        fields_on = bool(cfg.output.output_every or cfg.output.output_interval)
        periodic = bool(cfg.checkpoint.checkpoint_every or cfg.checkpoint.checkpoint_wall)
        for name in (("checkpoints",) if periodic else ()) + (("fields",) if fields_on else ()) + \
                (("images",) if fields_on and cfg.output.output_images else ()):
            files.check_folder_target(out_path / name)
        if not periodic:  # the run writes none unless stopped (a signal, --wall-time): it ends with exit 0
            try:
                files.check_folder_target(out_path / "checkpoints")
            except files.WriteError as e:
                say(f"warning: {e}: a checkpoint on a stop signal or at --wall-time would fail (exit status 74)")
    if end < start:  # the run refuses it (a count given for the step to run to)
        raise end_before_start(end, start, bool(cfg.control.steps), restart is not None and bool(kept))
    if end > start and done:  # as the run stops it
        say(f"  steps: {done}")
        end = start
    elif end <= start:
        say(f"  steps: {nothing_to_run(end)}")
    else:
        steady = (f"; it stops earlier once steady (steady_tol = {cfg.control.steady_tol:g}): the counts below are "
                  f"the most" if cfg.control.steady_tol > 0 else "")
        say(f"  steps: {start}..{end} ({end - start:,} steps of {math.prod(shape):,} cells){steady}")
    if continued is not None and end > start and cdir.is_dir() \
            and results.continues(out_path, continued[1], continued[0], cdir):
        # a restart from an older checkpoint than the run's newest: what the run moves aside before its first step
        at = abandoned.branch(continued[0], cdir, start)
        aside = abandoned.plan(out_path, cdir, continued[1], at)
        if aside is not None:
            abandoned.check(aside, out_path, cdir)
            say(f"  abandoned steps: the run's files of the steps after {aside.step} are moved aside (never removed): "
                f"{'; '.join(abandoned.describe(aside, out_path, cdir))}")
        sched = meta.get("schedules") or {}
        # the records samples.jsonl keeps, takes back and drops, counted as the run decides them (it trims the file)
        back, cut, dropped = samples_dropped(out_path, continued[0], sched, start, at)
        if back:
            say(f"  sample records: {len(back)} of the history this restart continues "
                f"({abandoned.steps_text(s for _, s in back)}) are copied back into samples.jsonl from "
                f"{out_path / abandoned.set_aside_as(continued[0])}/samples.jsonl")
        linked = abandoned.linked_back(continued[0], out_path, at, start, make=False,
                                       freed={q for moved in (aside.outputs if aside else {}).values() for q in moved})
        if linked:
            say(f"  outputs: {len(linked)} file(s) of the history this restart continues (of the steps after {at} up "
                f"to {start}) are linked back from {abandoned.set_aside_as(continued[0])}/ of their folders")
        if dropped and not (aside and aside.samples):  # (the run's line; the dry run said nothing of it)
            say(f"  {samples_dropped_line(dropped, cut, samples_upto(sched, start), start, sched)}")
    # the memory per device, for the mesh given or one device
    d = len(shape)
    # --comm mpi under its launcher (mpiexec, srun): one block per rank, as the run splits it (parallel.plan_mesh)
    require_backends(cfg.decomposition.comm)  # as the run's start (MPIDomain, processes.initialize under mpirun)
    # --comm jax under a launcher: the processes' devices make one mesh, each process holding as many blocks (the
    # run's mesh_devices); the dry run starts no JAX and knows the processes, not their devices: it said "ready" for
    # a mesh the run refuses (1x1x1 under mpiexec -n 2) and for a lattice that splits over no multiple of them
    mpi, ranks = cfg.decomposition.comm == "mpi", launcher()[1]
    try:
        mesh = (tuple(parse_mesh(cfg.decomposition.mesh, d)) if cfg.decomposition.mesh else
                tuple(factorize(ranks, shape)) if ranks > 1 else (1,) * d)
        if mpi and ranks > 1 and math.prod(mesh) != ranks:  # the run's own line (parallel.mpi.MPIDomain)
            raise ConfigError(mesh_named(cfg, f"mesh = {'x'.join(map(str, mesh))} has {math.prod(mesh)} blocks; "
                                             f"expected one per MPI rank ({ranks} ranks)"))
        if not mpi and ranks > 1 and math.prod(mesh) % ranks:
            raise not_per_process(mesh, ranks)
        check_divisible(shape, mesh)
    except DecompositionError as e:
        raise ConfigError(mesh_split_named(cfg, e)) from None  # (--mesh, as given)
    block = tuple(n // m for n, m in zip(shape, mesh))
    planes = None if s.fraction_planes is None else s.fraction_planes[1] - s.fraction_planes[0] + 1
    ndev = math.prod(mesh)
    which = (f"mesh {'x'.join(map(str, mesh))}, {ndev} devices" if cfg.decomposition.mesh or (ranks > 1 and mpi) else
             f"mesh {'x'.join(map(str, mesh))}, {ndev} devices if each of the {ranks} processes has one; the run "
             f"splits the lattice over all their devices" if ranks > 1 else
             "one device (give --mesh for the job's devices)")
    parts = []
    for kind, form in _forms(model, block).items():
        est = memory_estimate(model.lattice, block, model.dtype, model.compute_dtype, s.features, form=form,
                              fraction_planes=planes, average_values=average_values(cfg.output, len(shape)),
                              force_field=model.force_field)
        parts.append(f"{fmt_bytes(est['total_bytes'])} on a {kind} ({FORM_TEXT.get(form, form)})")
    say(f"  memory per device ({which}, block {'x'.join(map(str, block))}): {'; '.join(parts)}")
    # the space for checkpoints and field outputs
    chk, output = cfg.checkpoint, cfg.output
    size = checkpoint_bytes(model.lattice, shape, model.dtype, model.compute_dtype,
                            average_values(output, len(shape)) + steady_values(cfg.control, len(shape)))
    one = files.space_needed(size)
    # periodic checkpoints at the multiples of checkpoint_every after the start
    count = schedules.periodic_checkpoints(chk, start, end)
    kept = schedules.checkpoints_at_once(chk, start, end)
    try:
        free = files.free_bytes(probe)
    except OSError:
        free = None
    # temporaries of writes that were interrupted (a run killed while writing): the run removes them first
    left = files.interrupted_writes(results.numbered_folders(out_path))
    if left:
        freed = sum(size for _, size in left)
        say(f"  {len(left)} temporary file(s) of interrupted writes ({files.size_text(freed)}, e.g. {left[0][0]}): "
            f"removed when the run starts")
        if free is not None:
            free += freed
    reclaim = 0  # a restart's older checkpoints make room for its next (the run's Checkpointer._make_room)
    if continued is not None and free is not None and cdir.is_dir():
        reclaim = ckpt.reclaimable(cdir, continued[1], continued[0], upto=start)
        free += reclaim
    held = f" (with {files.size_text(reclaim)} of the run's older checkpoints)" if reclaim else ""
    line = (f"  checkpoints: {files.size_text(size)} each ({files.size_text(one)} of free space asked per write)"
            + (f", every {chk.checkpoint_every} steps ({count} in this run{', the last at its end' if count else ''})"
               if chk.checkpoint_every else "")
            + (f", every {chk.checkpoint_wall:g} s of wall time" if chk.checkpoint_wall else "")
            + (", and one at the end" if chk.checkpoint_wall and not chk.checkpoint_every else "")
            + ("" if chk.checkpoint_every or chk.checkpoint_wall else
               ", none periodic (one on a stop signal or at --wall-time; a node failure loses the run: "
               "--checkpoint-every N)")
            + f"; at most {kept} on disk at once: {files.size_text(kept * size)}")
    if free is not None:
        line += f"; {files.size_text(free)} free{held} in {probe}"
    say(line)
    if free is not None and free < one:  # the run's own line and status (74): a write that cannot be made
        raise files.WriteError(cdir, f"not enough space for one checkpoint before the run starts: needs about "
                                     f"{files.size_text(one)}, {files.size_text(free)} free{held} in {probe} (a run "
                                     f"writes one on a stop signal or at the wall-time limit); free space there or "
                                     f"choose another --out")
    if free is not None and free < kept * one:
        say(f"warning: the checkpoints kept need about {files.size_text(kept * one)}, {files.size_text(free)} "
            f"free: older checkpoints of the run will make room for later ones (fewer kept)")
    if output.output_every or output.output_interval:  # at the multiples of the schedule: step 0 too in a new run
        units = s.units or {}
        n_out = outputs_between(output, start, end, units.get("dt", 1.0))
        each = output_bytes(output, shape, model.lattice.q, model.dtype, model.compute_dtype, units.get("dx") or 1.0,
                            units.get("origin"), kind=s.geometry is not None)
        when = " and ".join(([f"every {output.output_every} steps"] if output.output_every else []) +
                            ([f"every {output.output_interval:g} of simulated time"] if output.output_interval
                             else []))  # both given: both schedules run (it named the first alone)
        mean = average_values(output, len(shape))  # the time average's fields, as the files hold them
        names = list(output.fields) + ([part.name for part in mean_parts(len(shape), mean)] if mean else [])
        say(f"  field outputs: {when} ({n_out} in this run) of {', '.join(names)}: {files.size_text(each)} "
            f"each, {files.size_text(n_out * each)} in all")
        full = None if free is None else space_warning(each, n_out, kept * one, free, probe)
        if full:
            say(f"warning: {full}")
        unsampled = average_warning(output, start, end, continuing)  # as the run's start says it
        if unsampled:
            say(f"warning: {unsampled}")
    if busy is not None:
        say(f"warning: another distlbm run is using {out} now ({busy}): a run started now would be refused "
            f"(or wait for it with DISTLBM_LOCK_WAIT)")
    if cfg.pending:  # the geometry's scans of the lattice (a channel's fluid path), after the memory said above
        import time

        from distlbm.config import run_checks

        t0 = time.perf_counter()
        # (a stop signal ends the dry run at once: signals.StopRequested); a scan longer than SCAN_LIMIT_S is left
        # to the run, which makes it in full after its memory pre-flight, before its first step
        if run_checks(cfg, stop=lambda: time.perf_counter() - t0 > SCAN_LIMIT_S):
            say(f"  geometry: a fluid path from the inlet to the outlet ({time.perf_counter() - t0:.1f} s)")
            for line in s.report:  # each body's solid cells (an STL body's place and volume)
                say(f"  {line}")
        else:
            say(f"  geometry: the fluid path from the inlet to the outlet not checked in full: the dry run stopped "
                f"its scan of the lattice after {time.perf_counter() - t0:.0f} s ({math.prod(shape):,} cells; "
                f"at most {SCAN_LIMIT_S:g} s here); the run scans it whole before its first step (exit 2 where the "
                f"bodies close the channel)")
    if restart is None and init_from is None:  # a new run's initial populations (a negative one: refused, exit 2)
        import time

        from distlbm.config import initial_state_check

        t0 = time.perf_counter()
        if not initial_state_check(cfg, stop=lambda: time.perf_counter() - t0 > INITIAL_SCAN_LIMIT_S):
            say(f"  initial state: its populations not checked in full: the dry run stopped its scan after "
                f"{time.perf_counter() - t0:.0f} s (at most {INITIAL_SCAN_LIMIT_S:g} s here); the run checks them as "
                f"it makes them (exit 2 where one is negative)")
    say("dry run: ready; nothing was allocated or written (the run checks the devices' memory "
        + ("and the checkpoint's populations when it starts)" if continued is not None
           and _stored_bytes(meta) > VERIFY_LIMIT_BYTES else "when it starts)"))
    return 0
