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


def own_planes(exchange, tie_axes: tuple = ()) -> Callable:
    """The exchange that sends nothing: every block gets back its own planes (the periodic wrap onto itself) where
    `exchange`, a domain's, sends them to its neighbours. Its `wraps` is `exchange`'s, so that a step built with it has
    the same form as one built with `exchange` (a step takes the planes of the axes that wrap onto the block from the
    block inside its loop, and those of exchanged axes from one exchange before it) and the two steps differ by the
    communication alone (scripts/scaling.py's halo timing).

    tie_axes: mesh axis names (inside shard_map); each call then also sums one number of the planes over them, times
    zero, so that the program holds a collective as the real one does. XLA's CPU runtime ran a program of forced
    devices without any collective about twice as slowly as the same program with one (2 forced devices, 64^3 D3Q19:
    7.3 ms a step with the exchange, 13.9 ms without, 7.0 ms with this tie), and the 'halo time' (the step minus
    this one) came out negative. The tie costs one scalar sum per exchange, counted in this step, not in the halo."""

    def exchange_nothing(planes, axis: int, sign: int):
        if not tie_axes:
            return planes
        try:
            tie = lax.psum(planes.reshape(-1)[0], tie_axes)
        except NameError:  # unbound axis names: outside shard_map (MeshDomain.map's shape probe), nothing to tie
            return planes
        return planes + jnp.zeros((), planes.dtype) * tie

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
