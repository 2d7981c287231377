"""The sample records of a run (forces, probes, energies: one flat {key: number} dict per sample) kept in columns of
float64 rather than as Python dicts.

A record of seven numbers took 456 bytes as a dict (its hash table, a float object per value) and a run kept every
one in memory for its summary (the Strouhal number over the last half of the lift, the dissipation rate over the
whole energy series): a 2D channel sampled every step at ~300 steps/s held ~12 GB after a day, and a restart read
them all back. Here a record costs its values at 8 bytes each, an offset and a layout index (~70 bytes for seven).
Records read back as equal dicts (the same keys in the same order, ints as ints); a record holding anything but
ints and floats (a bool, None, a string, an int beyond 2**53) is kept as it is."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Iterable, Iterator

_EXACT = 1 << 53  # ints within it are exact in float64


class SampleRecords(Sequence):
    """A list of sample records (`append`, `extend`, indexing, slices, iteration, `len`, `==` with a list) whose
    flat number records are stored in columns; reading one makes a new dict (changing it changes nothing stored)."""

    def __init__(self, records: Iterable[dict] = ()):
        self._layouts: list[tuple] = []  # per layout: ((key, is_int), ...) in the record's key order
        self._layout_id: dict[tuple, int] = {}
        self._layout_of = array("I")  # per record: its layout, or the largest value for one kept as it is
        self._start = array("Q")  # per record: its first value in _values
        self._values = array("d")
        self._kept: dict[int, dict] = {}  # the records kept as they are, by index
        self.extend(records)

    _AS_IS = 0xFFFFFFFF

    def append(self, rec: dict) -> None:
        layout, values = [], []
        for k, v in rec.items():
            t = type(v)
            if t is float:
                layout.append((k, False))
            elif t is int and -_EXACT <= v <= _EXACT:
                layout.append((k, True))
            else:  # (bool is no int here: True would read back as 1)
                self._kept[len(self._layout_of)] = dict(rec)
                self._layout_of.append(self._AS_IS)
                self._start.append(len(self._values))
                return
            values.append(v)
        key = tuple(layout)
        lid = self._layout_id.get(key)
        if lid is None:
            lid = self._layout_id[key] = len(self._layouts)
            self._layouts.append(key)
        self._layout_of.append(lid)
        self._start.append(len(self._values))
        self._values.extend(values)

    def extend(self, records: Iterable[dict]) -> None:
        for rec in records:
            self.append(rec)

    def _record(self, i: int) -> dict:
        lid = self._layout_of[i]
        if lid == self._AS_IS:
            return dict(self._kept[i])
        at = self._start[i]
        return {k: (int(v) if is_int else v)
                for (k, is_int), v in zip(self._layouts[lid], self._values[at:at + len(self._layouts[lid])])}

    def __len__(self) -> int:
        return len(self._layout_of)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._record(i) for i in range(*index.indices(len(self)))]
        n = len(self)
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError("sample record index out of range")
        return self._record(i)

    def __iter__(self) -> Iterator[dict]:
        for i in range(len(self)):
            yield self._record(i)

    def __eq__(self, other) -> bool:
        if isinstance(other, (SampleRecords, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return f"SampleRecords({len(self)} records)"

    def nbytes(self) -> int:
        """The bytes its columns hold (the records kept as they are not counted)."""
        return (self._layout_of.itemsize * len(self._layout_of) + self._start.itemsize * len(self._start)
                + self._values.itemsize * len(self._values))
