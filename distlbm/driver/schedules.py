"""Schedules: small objects that say when something is due. They are asked between compiled chunks,
never inside jit, and their counters are plain data saved in checkpoints."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional, Protocol


class Schedule(Protocol):
    """When something is due: next_due(step) is the next step-based due step (None: not step-based);
    due(step, wall) asks now; fired(step, wall) records a firing; state()/load() are its counters."""

    def next_due(self, step: int) -> Optional[int]: ...

    def due(self, step: int, wall: float) -> bool: ...

    def fired(self, step: int, wall: float) -> None: ...

    def state(self) -> dict: ...

    def load(self, state: dict) -> None: ...


@dataclass
class IterationInterval:
    """Due every `every` steps (never if every <= 0)."""

    every: int

    def next_due(self, step: int):
        return None if self.every <= 0 else (step // self.every + 1) * self.every

    def due(self, step: int, wall: float) -> bool:
        return self.every > 0 and step % self.every == 0

    def fired(self, step: int, wall: float):
        pass

    def state(self) -> dict:
        # (no counter: the interval itself, so that a restart can keep a default cadence that depends on the end
        # step, the samples' (a t_end extended: samples every 16 steps after every 10))
        return {"every": max(0, int(self.every))}

    def load(self, state: dict):
        pass


@dataclass
class TimeInterval:
    """Due every `interval` of simulated time (dt per step): at the first step at or after k*interval."""

    interval: float
    dt: float
    count: int = 0  # how many times it has fired

    def _step_of(self, k: int) -> int:
        return math.ceil(k * self.interval / self.dt - 1e-9)

    def next_due(self, step: int):
        if self.interval <= 0:
            return None
        k = self.count + 1
        while self._step_of(k) <= step:
            k += 1
        return self._step_of(k)

    def due(self, step: int, wall: float) -> bool:
        return self.interval > 0 and step >= self._step_of(self.count + 1)

    def fired(self, step: int, wall: float):
        while self._step_of(self.count + 1) <= step:
            self.count += 1

    def state(self) -> dict:
        return {"count": self.count}

    def load(self, state: dict):
        self.count = int(state.get("count", 0))


@dataclass
class WallTimeInterval:
    """Due when `seconds` of wall-clock time have passed since it last fired (never if <= 0)."""

    seconds: float
    last: float = field(default=0.0)

    def next_due(self, step: int):
        return None

    def due(self, step: int, wall: float) -> bool:
        return self.seconds > 0 and wall - self.last >= self.seconds

    def fired(self, step: int, wall: float):
        self.last = wall

    def state(self) -> dict:
        return {}  # wall time restarts with the process

    def load(self, state: dict):
        pass


@dataclass
class StepsOrWall:
    """Due every `every` steps (IterationInterval), and also when `seconds` of wall-clock time have passed since it
    last fired (WallTimeInterval): a long run's default progress (every 1/20 of its steps was hours apart on a big
    lattice, and `distlbm status` showed no progress for them)."""

    every: int
    seconds: float

    def __post_init__(self):
        self._steps, self._wall = IterationInterval(self.every), WallTimeInterval(self.seconds)

    def next_due(self, step: int):
        return self._steps.next_due(step)

    def due(self, step: int, wall: float) -> bool:
        return self._steps.due(step, wall) or self._wall.due(step, wall)

    def fired(self, step: int, wall: float):
        self._wall.fired(step, wall)

    def state(self) -> dict:
        return {}  # wall time restarts with the process

    def load(self, state: dict):
        pass


def next_due(schedules, step: int, end: int) -> int:
    """The first step after `step` at which a step-based schedule is due (or `end`)."""
    cands = [s.next_due(step) for s in schedules]
    return min([c for c in cands if c is not None and c > step] + [end])


def periodic_checkpoints(chk, start: int, end: int) -> int:
    """How many checkpoints `chk` (config.CheckpointSpec) writes at multiples of checkpoint_every in steps
    start .. end, the end step's among them (a run that checkpoints keeps its end too)."""
    every = chk.checkpoint_every
    if not every or end <= start:
        return 0
    return end // every - start // every + (1 if end % every else 0)


def checkpoints_at_once(chk, start: int, end: int) -> int:
    """The most checkpoints a run from `start` to `end` has on disk at once: checkpoint_keep kept and one being
    written beside them, or all it writes where that is fewer (the dry run said "at most 4" of a run that wrote 2),
    at least one (a stop signal's). Unknown counts (checkpoint_wall: by the wall clock) take the most."""
    if chk.checkpoint_wall:
        return chk.checkpoint_keep + 1
    return max(1, min(periodic_checkpoints(chk, start, end), chk.checkpoint_keep + 1))


def average_warning(output, start_step: int, end: int, continuing: bool = False) -> Optional[str]:
    """Why a run with field output and a time average (`output`: config.OutputSpec) takes no sample of it in its
    steps start_step .. end, or None: average_from after the end, or a first sample (the multiples of
    average_every from average_from on, after the run's first step) after it. continuing: a restart that carries
    on an average (it has its samples). Said by the run's start and by the dry run."""
    k = output.average_every
    if not k or continuing:
        return None
    if output.average_from > end:
        return (f"average_from = {output.average_from} is after this run's end step {end}: it takes no time "
                f"average (rho_mean, u_mean) before a restart runs past step {output.average_from}")
    if end > start_step:
        first = -(-max(output.average_from, start_step + 1) // k) * k
        if first > end:
            return (f"average_every = {k}: the first sample of the time average (the multiples of average_every "
                    f"from average_from = {output.average_from} on) would be step {first}, after this run's end "
                    f"step {end}: no rho_mean or u_mean is written")
    return None
