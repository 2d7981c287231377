"""Velocity sets (D2Q9, D3Q19, D3Q27) as NumPy constants: directions `c`, weights `w`, `opposite`, `cs2`."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np


@dataclass(frozen=True, eq=False)
class Lattice:
    """A DdQq velocity set.

    c: [Q, D] integer directions (c[0] is the rest direction); w: [Q] weights;
    opposite: [Q] index of -c[i]; cs2: lattice speed of sound squared (1/3).
    """

    name: str
    c: np.ndarray
    w: np.ndarray
    opposite: np.ndarray
    cs2: float = 1.0 / 3.0

    @property
    def d(self) -> int:
        return self.c.shape[1]

    @property
    def q(self) -> int:
        return self.c.shape[0]

    def __repr__(self) -> str:
        return f"Lattice({self.name})"

    def __hash__(self) -> int:  # usable as a static jit argument
        return hash(self.name)

    def __eq__(self, other) -> bool:
        return isinstance(other, Lattice) and other.name == self.name


def _build(name: str, d: int, weight_by_norm2: dict[int, Fraction]) -> Lattice:
    dirs = [v for v in itertools.product((0, 1, -1), repeat=d) if sum(x * x for x in v) in weight_by_norm2]
    # rest first, then by |c|^2, then a fixed lexicographic order; the order is part of the file format
    dirs.sort(key=lambda v: (sum(x * x for x in v), [(-x if x else 2) for x in v]))
    c = np.array(dirs, dtype=np.int32)
    w = np.array([float(weight_by_norm2[int((v * v).sum())]) for v in c])
    lookup = {tuple(v): i for i, v in enumerate(c.tolist())}
    opposite = np.array([lookup[tuple(-x for x in v)] for v in c.tolist()], dtype=np.int32)
    c.setflags(write=False)
    w.setflags(write=False)
    opposite.setflags(write=False)
    return Lattice(name, c, w, opposite)


D2Q9 = _build("D2Q9", 2, {0: Fraction(4, 9), 1: Fraction(1, 9), 2: Fraction(1, 36)})
D3Q19 = _build("D3Q19", 3, {0: Fraction(1, 3), 1: Fraction(1, 18), 2: Fraction(1, 36)})
D3Q27 = _build(
    "D3Q27", 3, {0: Fraction(8, 27), 1: Fraction(2, 27), 2: Fraction(1, 54), 3: Fraction(1, 216)}
)

LATTICES: dict[str, Lattice] = {lat.name: lat for lat in (D2Q9, D3Q19, D3Q27)}


def get_lattice(name: str) -> Lattice:
    try:
        return LATTICES[name.upper()]
    except KeyError:
        raise ValueError(f"unknown lattice {name!r}; expected one of {sorted(LATTICES)}") from None
