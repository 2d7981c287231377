"""Schedules: small objects that say at which step something is due. Their counters are plain data."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class IterationInterval:
    """Due every `every` steps (and never if every <= 0)."""

    every: int

    def next_due(self, step: int) -> int | None:
        if self.every <= 0:
            return None
        return (step // self.every + 1) * self.every

    def due(self, step: int) -> bool:
        return self.every > 0 and step % self.every == 0
