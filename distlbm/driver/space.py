"""The disk space a run will need, foreseen before its first step (driver.loop.Simulation's start-up checks): one
checkpoint's room, or the run is refused before it computes for nothing; the kept checkpoints' and the field outputs'
room, or a warning at the start rather than exit 74 days in; and the room the field outputs leave free for a
checkpoint on a stop signal. The sizes are memory.checkpoint_bytes and io.output.output_bytes; each write checks its
own room again (io.hdf5.write). The dry run (dryrun.py) says the same figures in its own words."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Optional

from distlbm.driver import schedules
from distlbm.errors import ConfigError
from distlbm.io import checkpoint as ckpt
from distlbm.io import files
from distlbm.io.files import WriteError
from distlbm.io.output import output_bytes, outputs_between, space_warning
from distlbm.memory import average_values, checkpoint_bytes, steady_values


def checkpoint_size(cfg, model, shape) -> int:
    """The data of one of a run's checkpoints: the populations, and the time average and the steadiness reference
    where it keeps them."""
    d = len(shape)
    return checkpoint_bytes(model.lattice, shape, model.dtype, model.compute_dtype,
                            average_values(cfg.output, d) + steady_values(cfg.control, d))


def check_checkpoint_space(chk, size: int, domain, checkpointer, checkpoint_dir: Path, where: Path, start: int,
                           end: int, say: Callable[[str], None]):
    """Before any step: WriteError if the file system of the checkpoint folder (`where`: its nearest existing folder)
    cannot hold one checkpoint of `size` bytes (every run may write one: on a stop signal or at the wall-time limit; a
    run that found out at its first checkpoint had computed for nothing), a warning (`say`) if it cannot hold the kept
    ones and the one being written (checkpoint_keep + 1, with periodic checkpoints). As the write checks it: the whole
    file on process 0, or each process's part where each writes its own file (io.hdf5.write_mode 'split')."""
    from distlbm.io.hdf5 import write_mode

    pc = domain.process_count
    split = pc > 1 and write_mode(domain) == "split"
    need = files.space_needed(size / pc if split else size)  # as io.hdf5.write asks for it
    free = None
    if split or domain.process_index == 0:
        try:
            free = files.free_bytes(where)
        except OSError:
            pass
    # the run's own older checkpoints (a restart's: all but the one it continues from) make room for its next
    # where the disk is full (Checkpointer._make_room): a restart in a folder whose quota the run had filled
    # with them was refused here (exit 74), a Slurm chain stopped at its first resubmission
    reclaim = 0
    if domain.process_index == 0 and checkpointer.size is not None and checkpoint_dir.is_dir():
        reclaim = ckpt.reclaimable(checkpoint_dir, checkpointer.run_id, checkpointer.last_path, upto=start)
    seen = domain.allgather_obj((free, reclaim)) if pc > 1 else [(free, reclaim)]
    reclaim = max(r for _, r in seen) // (pc if split else 1)
    free = min((x for x, _ in seen if x is not None), default=None)
    if free is None:
        return
    free += reclaim
    part = " (this process's part)" if split else ""
    if free < need:
        held = f" (with {files.size_text(reclaim)} of this run's older checkpoints)" if reclaim else ""
        raise WriteError(checkpoint_dir, f"not enough space for one checkpoint before the run starts: "
                                         f"needs about {files.size_text(need)}{part}, "
                                         f"{files.size_text(free)} free{held} in {where} (a run writes one on "
                                         f"a stop signal or at the wall-time limit); free space there or "
                                         f"choose another --out")
    keep = schedules.checkpoints_at_once(chk, start, end)
    if keep > 1 and free < keep * need:
        held = (f"{chk.checkpoint_keep} kept (checkpoint_keep) and one being written" if keep > chk.checkpoint_keep
                else f"the {keep} this run writes")
        say(f"warning: checkpoints of about {files.size_text(need)}{part} each, {held}, need about "
            f"{files.size_text(keep * need)}; "
            f"{files.size_text(free)} free in {where}: older checkpoints of the run will make room for later "
            f"ones (fewer kept)")


def output_keep_free(checkpoint_where: Optional[Path], out_dir: Optional[Path], size: int) -> int:
    """The space the field outputs leave free: one checkpoint's of `size` bytes (check_checkpoint_space's; the whole
    checkpoint, split writes: all its parts), where the outputs and the checkpoints share a file system. Every run may
    write one on a stop signal; outputs that filled the disk left none, and a SIGTERM then ended the run with exit 74
    and no checkpoint."""
    if checkpoint_where is None or out_dir is None:
        return 0
    need = files.space_needed(size)
    try:
        same = os.stat(checkpoint_where).st_dev == os.stat(files.existing_folder(out_dir)).st_dev
    except OSError:
        same = True
    return need if same else 0


def output_space_warning(cfg, model, setup, kind: bool, out_dir: Path, size: int, start: int,
                         end: int) -> Optional[str]:
    """The warning (None where they fit) when the field outputs a run writes from `start` to `end`
    (`io.output.outputs_between`, `output_bytes`) and the checkpoints it keeps (of `size` bytes) need more than the free
    space of the output folder's file system. A run that filled its disk with outputs midway stopped there with exit
    74, days in; said at the start, the outputs can be thinned or moved before the disk is full. `kind`: the run has a
    geometry (its outputs hold the cell kinds)."""
    out, chk = cfg.output, cfg.checkpoint
    units = setup.units
    try:
        each = output_bytes(out, setup.shape, model.lattice.q, model.dtype, model.compute_dtype,
                            units.get("dx") or 1.0, units.get("origin"), kind=kind)
    except ConfigError:
        return None  # a cut the output itself will name when it writes
    count = outputs_between(out, start, end, units.get("dt", 1.0))
    kept = schedules.checkpoints_at_once(chk, start, end)
    where = files.existing_folder(out_dir)
    try:
        free = files.free_bytes(where)
    except OSError:
        return None
    return space_warning(each, count, kept * files.space_needed(size), free, where)
