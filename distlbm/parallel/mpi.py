"""The mpi4jax backend (`--comm mpi`): one single-device JAX program per MPI rank on a Cartesian
communicator; the halo exchange is `mpi4jax.sendrecv`. Physics and streaming are shared with the
shard_map backend; only `exchange` differs."""

from __future__ import annotations

import math
from typing import Callable, Sequence

import jax
import numpy as np

from distlbm.parallel.domain import FILL_BYTES, combine_blocks, fill_fields_on_device, pick_peak, slabs
from distlbm.parallel.halo import sendrecv_exchange
from distlbm.parallel.mesh import DecompositionError, check_divisible, factorize


class MPIDomain:
    """This rank's block of the lattice. shape: global spatial shape; mesh_shape: ranks per axis."""

    def __init__(self, shape: Sequence[int], mesh_shape: Sequence[int] | None = None, comm=None):
        from distlbm.parallel.processes import require_mpi_backend

        require_mpi_backend()  # one line, not an import's traceback, if the backend is missing
        from mpi4py import MPI

        import mpi4jax  # noqa: F401

        self.shape = tuple(int(s) for s in shape)
        d = len(self.shape)
        world = comm or MPI.COMM_WORLD
        size = world.Get_size()
        if comm is None:
            from distlbm.parallel.processes import require_mpi_world

            require_mpi_world(size)
        if mesh_shape is None:
            mesh_shape = factorize(size, self.shape)
        mesh_shape = tuple(int(m) for m in mesh_shape)
        if math.prod(mesh_shape) != size:
            raise DecompositionError(
                f"mesh = {'x'.join(map(str, mesh_shape))} has {math.prod(mesh_shape)} blocks; expected one per "
                f"MPI rank ({size} rank{'s' if size > 1 else ''})"
            )
        check_divisible(self.shape, mesh_shape)
        self.mesh_shape = mesh_shape
        self.cart = world.Create_cart(dims=list(mesh_shape), periods=[True] * d, reorder=False)
        self.rank = self.cart.Get_rank()
        self.coords = tuple(self.cart.Get_coords(self.rank))
        self.block = tuple(s // m for s, m in zip(self.shape, mesh_shape))
        self.index = tuple(slice(c * b, (c + 1) * b) for c, b in zip(self.coords, self.block))
        self.neighbours = {(a, s): self.cart.Shift(a, s) for a in range(d) for s in (1, -1)}
        local = jax.local_devices()
        node_comm = world.Split_type(MPI.COMM_TYPE_SHARED)
        self.device = local[node_comm.Get_rank() % len(local)]
        node_comm.Free()
        self.process_index = self.rank
        self.process_count = size
        self.exchange = sendrecv_exchange(self.cart, self.neighbours, self.mesh_shape)

    @property
    def n_devices(self) -> int:
        return self.process_count

    def describe(self) -> str:
        return (f"{self.process_count} MPI rank{'s' if self.process_count > 1 else ''} x 1 {self.device.platform} "
                f"device, mesh "
                f"{'x'.join(map(str, self.mesh_shape))} (mpi4jax)")

    def make_field(self, fn: Callable, leading: tuple, dtype, *, by_slabs: bool = False) -> jax.Array:
        if by_slabs:  # see Domain.make_field
            return self.make_fields(lambda index: (fn(index),), ((leading, dtype),), FILL_BYTES)[0]
        block = np.asarray(fn(self.index), dtype=dtype)
        return jax.device_put(block, self.device)

    def make_fields(self, fn: Callable, specs, limit: int) -> list:
        return fill_fields_on_device(fn, self.index, specs, self.device, limit)

    def make_planes(self, fn: Callable, specs) -> list:
        return fill_fields_on_device(fn, (slice(0, 1),) + tuple(self.index[1:]), specs, self.device)

    def commit(self, x):
        return jax.device_put(x, self.device)

    def replicate(self, value):
        return jax.device_put(np.asarray(value), self.device)

    def map(self, factory: Callable) -> Callable:
        return factory(self.exchange)  # every rank runs the local function on its own block

    def allreduce(self, values: dict, op: str = "sum") -> dict:
        from mpi4py import MPI

        out = {}
        for k, v in values.items():
            arr = np.asarray(v, dtype=np.float64)
            if op == "max":
                # NumPy's max over every rank's values, in rank order: a NaN anywhere is NaN everywhere. MPI.MAX
                # compares pairwise, and a NaN is neither greater nor smaller: a rank's NaN came out as another
                # rank's finite value where it was the second operand (a blown-up block seen as finite by the
                # steady check, on one rank and not on another)
                out[k] = np.max(np.stack(self.cart.allgather(arr)), axis=0)
            else:
                out[k] = self.cart.allreduce(arr, op=MPI.SUM)
        return out

    def gather(self, x) -> np.ndarray:
        """The whole field [..., *shape] on every rank (small lattices: observables only)."""
        local = np.asarray(x)
        lead = local.shape[: local.ndim - len(self.shape)]
        pieces = self.cart.allgather((self.index, local))
        full = np.empty(lead + self.shape, local.dtype)
        for index, block in pieces:
            full[(Ellipsis,) + tuple(index)] = block
        return full

    def gather_plane(self, x, axis: int, index: int) -> np.ndarray:
        """The plane `index` along spatial `axis` on every rank, from the ranks whose blocks hold it."""
        lead = tuple(x.shape[: x.ndim - len(self.shape)])
        where = self.index[axis]
        local = None
        if where.start <= index < where.stop:
            local = np.asarray(jax.lax.index_in_dim(x, index - where.start, axis=len(lead) + axis, keepdims=False))
        rest = lambda t: tuple(t[:axis]) + tuple(t[axis + 1:])  # noqa: E731
        full = np.empty(lead + rest(self.shape), np.dtype(x.dtype))
        for index_, block in self.cart.allgather((rest(self.index), local)):
            if block is not None:
                full[(Ellipsis,) + index_] = block
        return full

    def reduce_blocks(self, x, op: str = "sum") -> np.ndarray:
        """This rank's block partial [..., 1, ...] combined with every other rank's (sum in float64, or max)."""
        local = np.asarray(combine_blocks(np.asarray(x), len(self.shape), op), np.float64)
        return np.asarray(self.allreduce({"s": local}, op=op)["s"], np.float64).reshape(local.shape)

    def reduce_peak(self, key, at, values=()) -> tuple:
        """Domain.reduce_peak: every rank's block partials, its cell offset by the block's first cell."""
        start = np.asarray([sl.start for sl in self.index], np.int64)
        mine = (float(np.asarray(key).ravel()[0]), (np.asarray(at).ravel().astype(np.int64) + start).tolist(),
                [float(np.asarray(v).ravel()[0]) for v in values])
        every = self.cart.allgather(mine)
        return pick_peak([k for k, _, _ in every], [c for _, c, _ in every],
                         np.asarray([v for _, _, v in every], np.float64).reshape(len(every), -1))

    def sample(self, x, points) -> np.ndarray:
        """x [..., *shape] at the cells `points` ([N, D] global indices): [..., N] on every rank (each
        point is read on the rank that holds it, then summed across ranks)."""
        pts = np.asarray(points, np.int64).reshape(-1, len(self.shape))
        lead = tuple(x.shape[: x.ndim - len(self.shape)])
        out = np.zeros(lead + (pts.shape[0],), np.float64)
        lo = np.asarray([sl.start for sl in self.index])
        hi = np.asarray([sl.stop for sl in self.index])
        mine = np.all((pts >= lo) & (pts < hi), axis=1)
        if mine.any():  # only the sampled cells leave the device
            rel = tuple((pts[mine] - lo).T)
            out[..., mine] = np.asarray(x[(Ellipsis,) + rel])
        return self.cart.allreduce(out)

    def layout(self, x) -> list:
        out = []
        for r in range(self.process_count):
            coords = self.cart.Get_coords(r)
            out.append((r, tuple(slice(c * b, (c + 1) * b) for c, b in zip(coords, self.block))))
        return out

    def any_process(self, flag: bool) -> bool:
        from mpi4py import MPI

        return bool(self.cart.allreduce(int(flag), op=MPI.MAX))

    def allgather_obj(self, obj) -> list:
        return self.cart.allgather(obj)

    def barrier(self):
        self.cart.Barrier()

    def blocks(self, x):
        yield from slabs(x, self.index)
