"""Halo exchange functions `exchange(planes, axis, sign)` used by streaming.

On one device the lattice is its own neighbour on every face (periodic wrap); on a mesh the planes
come from the neighbouring shard through `lax.ppermute`.
"""

from __future__ import annotations

from distlbm.physics.streaming import periodic_exchange as local_exchange  # noqa: F401
