"""Every halo exchange `exchange(planes, axis, sign)` that streaming can be given: it sends `planes`
to the neighbour at +sign along `axis` and returns what the -sign neighbour sent.

- `local_exchange`: one block that is its own neighbour on every face (the periodic wrap);
- `ppermute_exchange(axes, mesh_shape)`: shards of a device mesh, inside shard_map (lax.ppermute);
- `sendrecv_exchange(comm, neighbours, mesh_shape)`: one block per MPI rank (mpi4jax.sendrecv);
- `own_planes(exchange)`: `exchange`'s step without its communication (each block its own neighbour).
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


def own_planes(exchange, permute_over: tuple | None = None) -> Callable:
    """The exchange that sends nothing: every block gets back its own planes (the periodic wrap onto itself) where
    `exchange`, a domain's, sends them to its neighbours. Its `wraps` is `exchange`'s, so that a step built with it has
    the same form as one built with `exchange` (a step takes the planes of the axes that wrap onto the block from the
    block inside its loop, and those of exchanged axes from one exchange before it) and the two steps differ by the
    communication alone (scripts/scaling.py's halo timing).

    permute_over: (mesh axis names, mesh shape), inside shard_map: each exchanged axis's planes then go through a
    ppermute of every block to itself, so that the program holds the real one's collectives (the same count, sizes and
    order) and differs from it by where the planes go alone. XLA's CPU runtime ran a program of forced devices without
    them about twice as slowly (2 forced devices, 64^3 D3Q19: 7.5 ms a step with the exchange, 13.1 without; one scalar
    sum per exchange in their place still 29 against 18 ms on a 2x2x1 mesh), and the 'halo time' came out negative."""
    axes, mesh_shape = permute_over or ((), ())

    def exchange_nothing(planes, axis: int, sign: int):
        if not axes or mesh_shape[axis] == 1:
            return planes
        try:
            return lax.ppermute(planes, axes[axis], [(i, i) for i in range(mesh_shape[axis])])
        except NameError:  # unbound axis names: outside shard_map (MeshDomain.map's shape probe): nothing to send
            return planes

    exchange_nothing.wraps = getattr(exchange, "wraps", None) or (lambda axis: False)
    return exchange_nothing


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
