"""Every halo exchange `exchange(planes, axis, sign)` that streaming can be given: it sends `planes`
to the neighbour at +sign along `axis` and returns what the -sign neighbour sent.

- `local_exchange`: one block that is its own neighbour on every face (the periodic wrap);
- `ppermute_exchange(axes, mesh_shape)`: shards of a device mesh, inside shard_map (lax.ppermute);
- `sendrecv_exchange(comm, neighbours, mesh_shape)`: one block per MPI rank (mpi4jax.sendrecv).
An axis with one block along it wraps locally in every case.
"""

from __future__ import annotations

from typing import Callable

import jax.numpy as jnp
from jax import lax

from distlbm.physics.streaming import periodic_exchange as local_exchange  # noqa: F401 (the periodic wrap)


def ppermute_exchange(axes, mesh_shape) -> Callable:
    """The exchange between the shards of a mesh with named `axes` and `mesh_shape` (inside shard_map)."""

    def exchange(planes, axis: int, sign: int):
        p = mesh_shape[axis]
        if p == 1:
            return planes  # periodic wrap onto this shard itself
        perm = [(i, (i + sign) % p) for i in range(p)]
        return lax.ppermute(planes, axes[axis], perm)

    exchange.wraps = lambda axis: mesh_shape[axis] == 1
    return exchange


def sendrecv_exchange(comm, neighbours: dict, mesh_shape) -> Callable:
    """The exchange between MPI ranks of a Cartesian communicator; neighbours[(axis, sign)] = (source, dest)."""

    def exchange(planes, axis: int, sign: int):
        if mesh_shape[axis] == 1:
            return planes
        import mpi4jax

        source, dest = neighbours[(axis, sign)]
        dtype = planes.dtype
        if dtype in (jnp.float16, jnp.bfloat16):  # no MPI type (mpi4jax: "Unknown MPI type"): their bits as uint16
            planes = lax.bitcast_convert_type(planes, jnp.uint16)
        got = mpi4jax.sendrecv(planes, planes, source=source, dest=dest, sendtag=2 * axis + (sign > 0),
                               recvtag=2 * axis + (sign > 0), comm=comm)
        return lax.bitcast_convert_type(got, dtype) if got.dtype != dtype else got

    exchange.wraps = lambda axis: mesh_shape[axis] == 1
    return exchange
