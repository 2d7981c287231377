"""Where the lattice lives: builds global arrays from per-block callbacks, runs a local step function
over them and reduces across cells. `Domain` is what every domain offers; the single-device
LocalDomain here is the reference, MeshDomain (shard_map + ppermute, parallel/mesh.py) and MPIDomain
(mpi4jax, parallel/mpi.py) offer the same methods.
"""

from __future__ import annotations

import gc
import math
from functools import partial
from typing import Callable, Iterator, Protocol, Sequence

import jax
import numpy as np

from distlbm.parallel.halo import local_exchange


SLAB_BYTES = 64 << 20  # host slabs of written fields and checkpoints (with h5py's copy of a vector slab: 2x)
FILL_BYTES = 32 << 20  # host slabs of the fields built on the devices (fill_fields_on_device)


class Domain(Protocol):
    """The lattice of global spatial `shape` split into blocks over devices and processes.

    Arrays are global: [*leading, *shape], laid out by the domain; functions of local blocks take
    their halo through an `exchange(planes, axis, sign)` (parallel/halo.py) that the domain supplies."""

    shape: tuple
    mesh_shape: tuple
    process_index: int
    process_count: int

    @property
    def n_devices(self) -> int: ...

    def describe(self) -> str: ...

    def make_field(self, fn: Callable, leading: tuple, dtype, *, by_slabs: bool = False) -> jax.Array:
        """Global array [*leading, *shape] from fn(spatial index) -> block, called for this process's blocks.
        by_slabs: fn is called per slab along x and each block is filled on its device (`fill_fields_on_device`),
        so a block is never whole on the host (the populations: a host block and its device copy held
        them twice)."""

    def make_fields(self, fn: Callable, specs: Sequence, limit: int) -> list:
        """Global arrays [*leading, *shape], one per spec (leading, dtype), from fn(spatial index) -> one
        block per spec, called once per slab along x of this process's blocks (slabs of at most `limit`
        bytes of all the fields), each block filled on its device (`fill_fields_on_device`)."""

    def make_planes(self, fn: Callable, specs: Sequence) -> list:
        """Global arrays [*leading, mesh size along x, *shape[1:]]: one plane along x per block, from fn(spatial
        index of the plane x = 0 with the block's ranges along the other axes) -> one plane [*leading, 1, ...]
        per spec (leading, dtype); for values that are the same in every plane along x (Features.x_invariant)."""

    def commit(self, x: jax.Array) -> jax.Array: ...

    def replicate(self, value) -> jax.Array: ...

    def map(self, factory: Callable) -> Callable:
        """The global-array function of factory(exchange) -> fn written for local blocks."""

    def allreduce(self, values: dict, op: str = "sum") -> dict:
        """Per-process partial results combined across processes: op 'sum' or 'max'."""

    def gather(self, x) -> np.ndarray: ...

    def gather_plane(self, x, axis: int, index: int) -> np.ndarray:
        """The plane `index` (global) along spatial `axis` of x [..., *shape]: [..., *shape without axis]
        NumPy on every process (images; small planes)."""

    def reduce_blocks(self, x, op: str = "sum") -> np.ndarray:
        """Per-block partial results [..., *blocks] (a size-1 axis per spatial axis in the local function,
        stacked over the blocks by `map`) combined over every block of every process (op 'sum': in
        float64; 'max'): [...], the same on every process."""

    def reduce_peak(self, key, at, values: Sequence = ()) -> tuple:
        """The block whose per-block partial `key` [*blocks] is the largest (of equal ones, the one whose cell comes
        first in C order): (key, its cell as global indices (at [D, *blocks]: the cell in the block's indices),
        the other partials `values` [*blocks] of that block), the same on every process and every mesh."""

    def sample(self, x, points) -> np.ndarray: ...

    def layout(self, x) -> list: ...

    def any_process(self, flag: bool) -> bool: ...

    def allgather_obj(self, obj) -> list: ...

    def barrier(self) -> None: ...

    def blocks(self, x: jax.Array) -> Iterator: ...


def slabs(block, index, limit: int = SLAB_BYTES):
    """Split one device block [..., X, ...] (spatial index `index`) into host slabs along x."""
    d = len(index)
    nx = block.shape[block.ndim - d]
    per_x = max(1, block.size // max(nx, 1)) * block.dtype.itemsize
    step = max(1, min(nx, limit // per_x))
    x0 = index[0].start or 0
    for i in range(0, nx, step):
        j = min(nx, i + step)
        part = block[(Ellipsis, slice(i, j)) + (slice(None),) * (d - 1)]
        yield (slice(x0 + i, x0 + j),) + tuple(index[1:]), np.asarray(part)


def combine_blocks(host: np.ndarray, d: int, op: str = "sum") -> np.ndarray:
    """The blocks' partials host [..., *blocks] (d block axes) summed in float64, or their maximum."""
    flat = host.reshape(host.shape[: host.ndim - d] + (-1,))
    if op == "max":
        return flat.max(axis=-1)
    if op != "sum":
        raise ValueError(f"op = {op!r}: expected 'sum' or 'max'")
    return flat.astype(np.float64).sum(axis=-1)


def pick_peak(keys, cells, values) -> tuple:
    """keys [N], cells [N, D] (global indices), values [N, K] of N blocks: (key, cell, values) of the largest key,
    of equal keys the smallest cell in C order (so that the cell named is the whole lattice's first in C order of
    the largest, whatever the blocks: the same on every mesh and process count)."""
    keys = np.asarray(keys, np.float64).ravel()
    cells = np.asarray(cells, np.int64).reshape(keys.size, -1)
    values = np.asarray(values, np.float64).reshape(keys.size, -1)
    best = None
    for i in range(keys.size):
        k = (keys[i], tuple(-c for c in cells[i]))
        if best is None or k > best[0]:
            best = (k, i)
    i = best[1]
    return float(keys[i]), tuple(int(c) for c in cells[i]), [float(v) for v in values[i]]


def origins(mesh_shape: tuple, block: tuple) -> np.ndarray:
    """[D, *mesh_shape]: the first cell of each block of equal blocks `block` laid out `mesh_shape`."""
    return np.stack([i * b for i, b in zip(np.indices(mesh_shape), block)])


def fill_fields_on_device(fn: Callable, index, specs: Sequence, device, limit: int = FILL_BYTES) -> list:
    """Several fields of one block at once: fn(slab index) -> one array per spec (leading, dtype), each
    [*leading, *slab], called once per slab along x; the slabs hold at most `limit` bytes of all the fields
    together (at least one plane). Returns the fields on `device`, each filled there slab by slab. For
    fields that come from one computation (a case's geometry: kinds, velocities, wall fractions), so that
    it runs once per slab and its temporaries stay slab-sized. fn may work in float64, and no host copy of
    a whole block is made (initial populations, restarts: 2x the populations at 400^3 before)."""
    shape = tuple(sl.stop - sl.start for sl in index)
    fulls = [tuple(leading) + shape for leading, _ in specs]
    dtypes = [np.dtype(dt) for _, dt in specs]
    nx = shape[0]
    per_x = sum(math.prod(full) // max(nx, 1) * dt.itemsize for full, dt in zip(fulls, dtypes))
    step = max(1, min(nx, limit // max(1, per_x)))

    def part(x0, x1):
        blocks = fn((slice(index[0].start + x0, index[0].start + x1),) + tuple(index[1:]))
        if len(blocks) != len(specs):
            raise ValueError(f"fill_fields_on_device: {len(blocks)} fields for {len(specs)} specs")
        out = []
        for block, (leading, _), dt in zip(blocks, specs, dtypes):
            block = np.asarray(block, dtype=dt)
            assert block.shape == tuple(leading) + (x1 - x0,) + shape[1:], (block.shape, leading, index, x0, x1)
            out.append(block)
        return out

    if step >= nx:  # one slab: the block as it is
        return [jax.device_put(b, device) for b in part(0, nx)]
    sharding = jax.sharding.SingleDeviceSharding(device)
    xs = [jax.jit(lambda full=full, dt=dt: jax.numpy.zeros(full, dt), out_shardings=sharding)()
          for full, dt in zip(fulls, dtypes)]
    for x0 in range(0, nx, step):
        blocks = part(x0, min(nx, x0 + step))
        for k, (leading, _) in enumerate(specs):
            xs[k] = _put_slab(xs[k], jax.device_put(blocks[k], device), x0, len(leading))
        del blocks
        # jaxlib drops its reference to a finished copy's host source only at a garbage collection (a gc
        # callback): without one, the host slabs of a float16 400^3 lattice outlived their copies (2.4 GB)
        gc.collect(0)
    return xs


@partial(jax.jit, donate_argnums=0, static_argnums=3)
def _put_slab(x, block, x0, axis: int):
    """x with `block` written from x0 along `axis` (in place: x is donated)."""
    return jax.lax.dynamic_update_slice_in_dim(x, block, x0, axis=axis)


class LocalDomain:
    """The whole lattice on one device. shape: the global spatial shape (X, Y(, Z))."""

    mesh_shape: tuple = ()
    process_index = 0
    process_count = 1

    def __init__(self, shape: Sequence[int], device=None):
        self.shape = tuple(int(s) for s in shape)
        self.device = device or jax.devices()[0]
        self.exchange = local_exchange

    @property
    def n_devices(self) -> int:
        return 1

    def describe(self) -> str:
        return f"1 device ({self.device.platform})"

    def make_field(self, fn: Callable, leading: tuple, dtype, *, by_slabs: bool = True) -> jax.Array:
        """Global array [*leading, *shape] from fn(index) -> np.ndarray, index a tuple of slices of the
        spatial axes, called slab by slab along x whatever by_slabs says: fn may work in float64
        (init_populations does), and a whole float64 lattice would be 2-4x the stored populations (400^3
        D3Q19: 9.7 GB); the slabs are written into the array on the device (`fill_fields_on_device`)."""
        return self.make_fields(lambda index: (fn(index),), ((leading, dtype),), FILL_BYTES)[0]

    def make_fields(self, fn: Callable, specs: Sequence, limit: int) -> list:
        return fill_fields_on_device(fn, tuple(slice(0, s) for s in self.shape), specs, self.device, limit)

    def make_planes(self, fn: Callable, specs: Sequence) -> list:
        index = (slice(0, 1),) + tuple(slice(0, s) for s in self.shape[1:])
        return fill_fields_on_device(fn, index, specs, self.device)

    def sharding(self, ndim: int):
        return jax.sharding.SingleDeviceSharding(self.device)

    def commit(self, x: jax.Array) -> jax.Array:
        """Place a lattice-shaped array [..., *shape] with the domain's layout."""
        return jax.device_put(x, self.device)

    def replicate(self, value) -> jax.Array:
        """A small array (scalar, table) placed identically on every device of the domain."""
        return jax.device_put(np.asarray(value), self.device)

    def map(self, factory: Callable) -> Callable:
        """factory(exchange) -> fn on local blocks; on one device the block is the whole lattice."""
        return factory(self.exchange)

    def allreduce(self, values: dict, op: str = "sum") -> dict:
        """Combine per-process partial results across processes (one process: nothing to do)."""
        return values

    def gather(self, x) -> np.ndarray:
        """The whole field as a NumPy array (small lattices: observables only)."""
        return np.asarray(x)

    def gather_plane(self, x, axis: int, index: int) -> np.ndarray:
        return np.asarray(jax.lax.index_in_dim(x, index, axis=x.ndim - len(self.shape) + axis, keepdims=False))

    def reduce_blocks(self, x, op: str = "sum") -> np.ndarray:
        return combine_blocks(np.asarray(x), len(self.shape), op)

    def reduce_peak(self, key, at, values: Sequence = ()) -> tuple:
        return pick_peak(np.asarray(key), np.asarray(at).reshape(len(self.shape), 1).T,
                         np.stack([np.asarray(v, np.float64).ravel() for v in values], -1) if values else
                         np.zeros((1, 0)))

    def sample(self, x, points) -> np.ndarray:
        """x [..., *shape] at the cells `points` ([N, D] global indices): [..., N] NumPy, every process."""
        idx = tuple(np.asarray(points, np.int64).T)
        return np.array(x[(Ellipsis,) + idx])  # (a copy: a view kept the gathered array alive until a collection)

    def layout(self, x) -> list:
        """(process index, spatial index) of every block of x over all processes."""
        return [(0, tuple(slice(0, n) for n in self.shape))]

    def any_process(self, flag: bool) -> bool:
        return bool(flag)

    def allgather_obj(self, obj) -> list:
        return [obj]

    def barrier(self):
        pass

    def blocks(self, x: jax.Array):
        """(spatial index, block [..., *block shape]) for the parts of x this process holds, in slabs
        along x of bounded size, so that no host copy of the whole lattice is ever made."""
        yield from slabs(x, tuple(slice(0, n) for n in self.shape))
