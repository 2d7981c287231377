"""One lattice over a mesh of devices: a global jax.Array sharded as P(None, 'x', 'y'[, 'z']), a
local step per shard under shard_map, and a one-cell halo exchange with lax.ppermute."""

from __future__ import annotations

import gc
import itertools
import math
from typing import Callable, Sequence

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from distlbm.errors import ConfigError, said_int
from distlbm.parallel.domain import FILL_BYTES, combine_blocks, fill_fields_on_device, origins, pick_peak, slabs
from distlbm.parallel.halo import local_exchange, ppermute_exchange

AXES = ("x", "y", "z")


class DecompositionError(ConfigError):
    """The lattice cannot be split over the requested mesh (message names sizes that would work). A ConfigError (so
    a ValueError): `except ConfigError` around a Simulation takes it, as it takes every other mistake of the settings.

    fits: where the lattice's shape was the trouble, a test `fits(shape) -> bool` of the shapes that would
    split (the configuration turns it into the case's parameter values that make one: config.size_hint)."""

    def __init__(self, message: str, fits: Callable | None = None):
        super().__init__(message)
        self.fits = fits


def parse_mesh(text: str, d: int, key: str = "mesh") -> tuple:
    """'2x2x1' -> (2, 2, 1); a 2D lattice accepts 'AxB' (or 'AxBx1'). key: the setting as the user gave it, named in
    the error ('--mesh' on the command line: 'mesh =' was no option there)."""
    try:
        parts = tuple(int(p) for p in str(text).lower().split("x"))
    except ValueError:
        raise DecompositionError(f"{key} = {text!r}: expected sizes separated by 'x', e.g. 2x2x2") from None
    if len(parts) == 3 and d == 2 and parts[2] == 1:
        parts = parts[:2]
    if len(parts) != d or any(p <= 0 for p in parts):
        example = "x".join(["2"] * d)
        raise DecompositionError(f"{key} = {text!r}: expected {d} positive sizes for a {d}D lattice, e.g. {example}")
    return parts


def _divisors(n: int):
    """The divisors of n, ascending, in sqrt(n) trials (a loop to n took minutes for --mesh 1000000000x1x1, and
    never ended for a mistyped 20-digit size)."""
    small = [k for k in range(1, math.isqrt(n) + 1) if n % k == 0]
    return small + [n // k for k in reversed(small) if k * k != n]


def factorize(n_devices: int, shape: Sequence[int]) -> tuple:
    """The mesh of n_devices that divides `shape` and has the smallest halo surface per shard."""
    best = _best_mesh(n_devices, shape)
    if best is None:
        raise DecompositionError(
            f"lattice {'x'.join(map(str, shape))} cannot be split evenly over {n_devices} devices; "
            f"choose sizes divisible by a factorisation of {n_devices}{_fewer_devices(n_devices, shape)}",
            fits=lambda s: _splits(n_devices, s))
    return best


def _best_mesh(n_devices: int, shape: Sequence[int]):
    """factorize's mesh, or None where none of n_devices splits `shape`."""
    d = len(shape)
    best = None
    # each axis's size divides both the lattice's along it and n_devices: the divisors of their gcd (those of
    # n_devices alone were minutes of trials for a mistyped mesh's 1e9 devices; those of the lattice's sizes, for
    # `distlbm info --size 1e21`)
    for combo in itertools.product(*(_divisors(math.gcd(int(s), int(n_devices))) for s in shape)):
        if math.prod(combo) != n_devices:
            continue
        block = [s // m for s, m in zip(shape, combo)]
        # planes exchanged per shard: one per split axis, each of size prod(block)/block[a]
        surface = sum(math.prod(block) / block[a] for a in range(d) if combo[a] > 1)
        key = (surface, tuple(-c for c in combo))
        if best is None or key < best[0]:
            best = (key, combo)
    return None if best is None else best[1]


def _fewer_devices(n_devices: int, shape) -> str:
    """', or the mesh AxBxC of M devices (--mesh AxBxC)': the largest mesh of fewer devices that splits `shape`, a
    multiple of the processes (each holds the same number of blocks); '' where there is none. 'give the mesh' under
    2 processes of one device each sent the user to a mesh that no lattice of odd sizes has."""
    from distlbm.parallel.processes import launcher

    procs = launcher()[1]
    for m in range(min(n_devices, 4097) - 1, 0, -1):  # (a mistyped count of 1e23 devices: no search to it)
        best = None if m % procs else _best_mesh(m, shape)
        if best is None:
            continue
        mesh = "x".join(map(str, best))
        return f", or give the mesh {mesh} of {m} device{'s' if m > 1 else ''} (--mesh {mesh} or mesh = '{mesh}')"
    return ""


def _splits(n_devices: int, shape) -> bool:
    return _best_mesh(n_devices, shape) is not None


def _one_of(values, most: int = 8) -> str:
    """'1, 2, 5 or 10' (the first `most`, then 'or ...'): a list that reads as the values, not a range ([1, 101]
    read as 1 to 101)."""
    shown = [str(v) for v in values[:most]]
    if len(values) > most:
        return ", ".join(shown) + ", ..."
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _cpu_count_source(devices) -> str:
    """Where a process's count of CPU devices was set, said beside a mesh that needs more: `--mesh 2x1x1` gets as many
    CPU devices as it names unless the count was chosen (DISTLBM_CPU_DEVICES=1: the mesh was refused with 'at most
    the 1 available', the setting unnamed)."""
    import os

    if not devices or any(getattr(dv, "platform", "") != "cpu" for dv in devices):
        return ""
    if jax.process_count() > 1:  # several processes take one CPU device each: DISTLBM_CPU_DEVICES is not applied
        # (processes.use_cpu_cores); `DISTLBM_CPU_DEVICES=2 mpiexec -n 2 ... --mesh 2x2` was refused with "at most
        # the 2 available", the setting ignored unsaid
        n = os.environ.get("DISTLBM_CPU_DEVICES")
        if not n or "xla_force_host_platform_device_count" in os.environ.get("XLA_FLAGS", "") \
                or os.environ.get("JAX_NUM_CPU_DEVICES"):
            return ""
        return (f" (DISTLBM_CPU_DEVICES={n} is not applied under several processes, which take one CPU device "
                f"each; XLA_FLAGS=--xla_force_host_platform_device_count={n} gives each process {n})")
    said = [f"{var}={os.environ[var]}" for var in ("JAX_NUM_CPU_DEVICES", "DISTLBM_CPU_DEVICES")
            if os.environ.get(var)]
    if "xla_force_host_platform_device_count" in os.environ.get("XLA_FLAGS", ""):
        said.insert(0, "XLA_FLAGS' --xla_force_host_platform_device_count")
    return f" (the CPU devices' count set by {' and '.join(said)}: unset it for the mesh's count)" if said else ""


def check_divisible(shape, mesh_shape):
    for a, (s, m) in enumerate(zip(shape, mesh_shape)):
        if s % m:
            lo = s - s % m
            n = math.prod(mesh_shape)
            try:
                other = f", or the mesh {'x'.join(map(str, factorize(n, shape)))} of {n} devices"
            except DecompositionError:
                other = ""
            # (a size of 0 does not work; a mesh size of 300 digits is cut: errors.said_int)
            sizes = f"{said_int(lo)} or {said_int(lo + m)}" if lo > 0 else f"{said_int(m)} or a multiple of it"
            raise DecompositionError(
                f"lattice size {s} along {AXES[a]} does not divide over {said_int(m)} devices "
                f"(mesh {'x'.join(map(said_int, mesh_shape))}); sizes that would work: {sizes}, "
                f"or a mesh size along {AXES[a]} of {_one_of(_divisors(s))}{other}",
                fits=lambda shp: all(n % k == 0 for n, k in zip(shp, mesh_shape)))


def halo_bytes_per_step(c, shape, mesh_shape, itemsize: int) -> int:
    """Bytes one device sends per step: for every split axis and direction, the planes of the
    populations that cross that face (5 of 19 for D3Q19). c: [Q, D] directions."""
    block = [s // m for s, m in zip(shape, mesh_shape)]
    cells = math.prod(block)
    total = 0
    for a, m in enumerate(mesh_shape):
        if m == 1:
            continue
        for sign in (1, -1):
            crossing = int(np.sum(np.asarray(c)[:, a] == sign))
            total += crossing * (cells // block[a]) * itemsize
    return total


def not_per_process(mesh_shape, processes: int, devices: int | None = None) -> DecompositionError:
    """The refusal of a mesh of k devices that is not a multiple of the processes (mesh_devices; the dry run, which
    knows the launcher's process count but not the devices, without `devices`)."""
    k = math.prod(mesh_shape)
    there = f", at most the {devices} devices there are" if devices is not None else ""
    return DecompositionError(
        f"mesh = {'x'.join(map(str, mesh_shape))} ({k} device{'s' if k > 1 else ''}): expected a multiple of the "
        f"{processes} processes (every process holds the same number of blocks){there}; leave the mesh out to use "
        f"them all")  # (--mesh, or a file's mesh: config.mesh_named)


def mesh_devices(devices, mesh_shape) -> list:
    """The k devices a mesh of k (the product of mesh_shape) takes from `devices` (k <= their number): the first
    k of one process; of several, k / P from each of the P processes, so that every process holds blocks (a mesh
    of the first k left the others without any: a traceback from JAX, or a hang until the coordination service
    aborted the job)."""
    devices, k = list(devices), math.prod(mesh_shape)
    procs = sorted({dv.process_index for dv in devices})
    if len(procs) <= 1 or k >= len(devices):
        return devices[:k]
    if k % len(procs):
        raise not_per_process(mesh_shape, len(procs), len(devices))
    per = k // len(procs)
    return [dv for p in procs for dv in [x for x in devices if x.process_index == p][:per]]


class MeshDomain:
    """The lattice sharded over a device mesh. shape: global spatial shape; mesh_shape: devices per axis."""

    def __init__(self, shape: Sequence[int], mesh_shape: Sequence[int] | None = None, devices=None):
        self.shape = tuple(int(s) for s in shape)
        d = len(self.shape)
        devices = list(devices if devices is not None else jax.devices())
        if mesh_shape is None:
            mesh_shape = factorize(len(devices), self.shape)
        mesh_shape = tuple(int(m) for m in mesh_shape)
        if len(mesh_shape) != d:
            raise DecompositionError(f"mesh {mesh_shape}: expected {d} sizes for a {d}D lattice")
        if math.prod(mesh_shape) != len(devices):
            if math.prod(mesh_shape) > len(devices):
                raise DecompositionError(
                    f"mesh = {'x'.join(map(str, mesh_shape))} needs {math.prod(mesh_shape)} devices; "
                    f"expected at most the {len(devices)} available{_cpu_count_source(devices)}"
                )
            devices = mesh_devices(devices, mesh_shape)
        check_divisible(self.shape, mesh_shape)
        self.mesh_shape = mesh_shape
        self.axes = AXES[:d]
        self.mesh = Mesh(np.asarray(devices, dtype=object).reshape(mesh_shape), self.axes)
        self.process_index = jax.process_index()
        self.process_count = jax.process_count()
        self.exchange = ppermute_exchange(self.axes, self.mesh_shape)
        self._samplers: dict = {}  # sample(): one compiled gather per set of points
        if self.process_count > 1 and self.mesh.devices.flat[0].platform == "cpu":
            self._connect_quietly()

    def _connect_quietly(self):
        """Under several processes on CPUs, the collectives of this mesh (the halo's ppermute and a sum along each
        split axis, a sum over all of them) run once with the standard output silenced: Gloo connects each set of
        devices at its first collective and prints a line per process on stdout ("[Gloo] Rank 0 is connected to
        1 peer ranks ..."): in a run's output and before `distlbm bench --json`'s object, which then did not parse
        (2 processes with 2 CPU devices each)."""
        from jax import lax

        from distlbm.parallel.processes import quiet_stdout

        d = len(self.shape)

        def touch(x):
            for axis in range(d):
                if self.mesh_shape[axis] > 1:
                    x = lax.psum(self.exchange(x, axis, 1) + self.exchange(x, axis, -1), self.axes[axis])
            return lax.psum(x, self.axes)

        spec = P(*self.axes)
        x = jax.make_array_from_callback(self.mesh_shape, NamedSharding(self.mesh, spec),
                                         lambda index: np.zeros((1,) * d, np.int32))
        with quiet_stdout():
            jax.jit(jax.shard_map(touch, mesh=self.mesh, in_specs=spec, out_specs=spec, check_vma=False))(
                x).block_until_ready()

    @property
    def n_devices(self) -> int:
        return math.prod(self.mesh_shape)

    def describe(self) -> str:
        plat = self.mesh.devices.flat[0].platform
        return (f"{self.n_devices} {plat} device{'s' if self.n_devices > 1 else ''}, mesh {'x'.join(map(str, self.mesh_shape))} "
                f"({self.process_count} process{'es' if self.process_count > 1 else ''})")

    def spec(self, ndim: int) -> P:
        d = len(self.shape)
        if ndim < d:
            return P()
        return P(*([None] * (ndim - d)), *self.axes)

    def sharding(self, ndim: int) -> NamedSharding:
        return NamedSharding(self.mesh, self.spec(ndim))

    # ---- building and mapping ------------------------------------------------------------------
    def make_field(self, fn: Callable, leading: tuple, dtype, *, by_slabs: bool = False) -> jax.Array:
        """Global array [*leading, *shape]; fn(spatial index) -> block, called only for local shards (per
        slab along x, each block filled on its device, where by_slabs: see Domain.make_field)."""
        nl = len(leading)
        gshape = tuple(leading) + self.shape
        if by_slabs:
            return self.make_fields(lambda index: (fn(index),), ((leading, dtype),), FILL_BYTES)[0]

        def cb(index):
            block = np.asarray(fn(tuple(index[nl:])), dtype=dtype)
            return block[tuple(index[:nl])]

        arr = jax.make_array_from_callback(gshape, self.sharding(len(gshape)), cb)
        # jaxlib drops its references to the host blocks of finished copies only at a garbage collection
        # (see distlbm.parallel.domain.fill_fields_on_device): free them before anything else runs
        jax.block_until_ready(arr)
        gc.collect(0)
        return arr

    def make_fields(self, fn: Callable, specs, limit: int) -> list:
        return self._fill(fn, specs, limit)

    def make_planes(self, fn: Callable, specs) -> list:
        return self._fill(fn, specs, FILL_BYTES, planes=True)

    def _fill(self, fn: Callable, specs, limit: int, planes: bool = False) -> list:
        """make_fields, or with planes one plane along x per block (fn sees x = 0:1 and the block's other
        ranges): each local block filled on its device (fill_fields_on_device), then the global arrays."""
        per_field = [[] for _ in specs]
        for dev, index in self.sharding(len(self.shape)).addressable_devices_indices_map(self.shape).items():
            spatial = tuple(slice(*sl.indices(n)[:2]) for sl, n in zip(index, self.shape))
            if planes:
                spatial = (slice(0, 1),) + spatial[1:]
            for k, x in enumerate(fill_fields_on_device(fn, spatial, specs, dev, limit)):
                per_field[k].append(x)
        shape = ((self.mesh_shape[0],) + self.shape[1:]) if planes else self.shape
        return [jax.make_array_from_single_device_arrays(tuple(leading) + shape,
                                                         self.sharding(len(leading) + len(shape)), blocks)
                for (leading, _), blocks in zip(specs, per_field)]

    def commit(self, x: jax.Array) -> jax.Array:
        return jax.device_put(x, self.sharding(x.ndim))

    def replicate(self, value) -> jax.Array:
        value = np.asarray(value)
        return jax.make_array_from_callback(value.shape, NamedSharding(self.mesh, P()), lambda idx: value[idx])

    def map(self, factory: Callable) -> Callable:
        """Run factory(exchange) -> fn (written for local blocks) on every shard with shard_map. The
        shapes of fn's results are probed on the local block shapes with the periodic wrap as the
        exchange (no collective outside shard_map)."""
        tree = jax.tree_util
        fn = factory(self.exchange)
        probe = factory(local_exchange)

        def spec_of(x):
            return self.spec(np.ndim(x))

        def wrapped(*args):
            in_specs = tree.tree_map(spec_of, args)
            local = tree.tree_map(
                lambda x: jax.ShapeDtypeStruct(self._local_shape(np.shape(x)), x.dtype), args)
            out_shape = jax.eval_shape(probe, *local)
            out_specs = tree.tree_map(spec_of, out_shape)
            return jax.shard_map(fn, mesh=self.mesh, in_specs=in_specs, out_specs=out_specs,
                                 check_vma=False)(*args)

        return wrapped

    def _local_shape(self, gshape):
        d = len(self.shape)
        if len(gshape) < d:
            return tuple(gshape)
        lead = tuple(gshape[: len(gshape) - d])
        return lead + tuple(s // m for s, m in zip(gshape[len(gshape) - d:], self.mesh_shape))

    def allreduce(self, values: dict, op: str = "sum") -> dict:
        """Reductions on global arrays already span every process: nothing to add."""
        return values

    def gather(self, x) -> np.ndarray:
        """The whole field as a NumPy array on every process (small lattices: observables only)."""
        if x.is_fully_addressable:
            return np.asarray(x)
        from jax.experimental import multihost_utils

        return np.asarray(multihost_utils.process_allgather(x, tiled=True))

    def reduce_blocks(self, x, op: str = "sum") -> np.ndarray:
        """Per-block partials [..., *mesh_shape] combined on every process (Domain.reduce_blocks; under
        several processes the blocks of the others are fetched first: a global array's values are not all
        addressable)."""
        return combine_blocks(np.asarray(self.gather(x)), len(self.shape), op)

    def reduce_peak(self, key, at, values=()) -> tuple:
        """Domain.reduce_peak: the blocks' partials fetched (every process's), their cells offset by the blocks'
        first cells."""
        d = len(self.shape)
        block = tuple(s // m for s, m in zip(self.shape, self.mesh_shape))
        cells = np.asarray(self.gather(at)).reshape((d,) + tuple(self.mesh_shape)) + origins(self.mesh_shape, block)
        vals = [np.asarray(self.gather(v), np.float64).ravel() for v in values]
        return pick_peak(np.asarray(self.gather(key)).ravel(), cells.reshape(d, -1).T,
                         np.stack(vals, -1) if vals else np.zeros((math.prod(self.mesh_shape), 0)))

    def gather_plane(self, x, axis: int, index: int) -> np.ndarray:
        """The plane `index` along spatial `axis` of x [..., *shape] as a NumPy array on every process."""
        return self.gather(jax.lax.index_in_dim(x, index, axis=x.ndim - len(self.shape) + axis, keepdims=False))

    def sample(self, x, points) -> np.ndarray:
        """x [..., *shape] at the cells `points` ([N, D] global indices): [..., N], replicated to every process."""
        pts = np.asarray(points, np.int64).reshape(-1, len(self.shape))
        # one compiled gather per set of points (the probes sample the same cells every time: a new
        # function per call would compile at every sample)
        key = (pts.shape, pts.tobytes())
        fn = self._samplers.get(key)
        if fn is None:
            if len(self._samplers) >= 16:
                self._samplers.clear()
            idx = tuple(pts.T)
            fn = self._samplers[key] = jax.jit(lambda a: a[(Ellipsis,) + idx], out_shardings=NamedSharding(self.mesh, P()))
        return np.array(fn(x))  # (a copy: a view kept the gathered device array alive until a collection)

    def layout(self, x) -> list:
        """(process index, spatial index) of every block of x over all processes (no duplicates)."""
        d = len(self.shape)
        seen = {}
        for dev, idx in x.sharding.devices_indices_map(x.shape).items():
            sp = tuple(slice(*sl.indices(n)[:2]) for sl, n in zip(idx[-d:], self.shape))
            key = tuple((sl.start, sl.stop) for sl in sp)
            if key not in seen or dev.process_index < seen[key][0]:
                seen[key] = (dev.process_index, sp)
        return sorted(seen.values(), key=lambda t: (t[0], [sl.start for sl in t[1]]))

    def any_process(self, flag: bool) -> bool:
        """True on every process if `flag` is true on any (a small collective)."""
        if self.process_count == 1:
            return bool(flag)
        from jax.experimental import multihost_utils

        return bool(np.any(multihost_utils.process_allgather(np.asarray([int(flag)], np.int32))))

    def allgather_obj(self, obj) -> list:
        """A small JSON-able object from every process, in process order."""
        if self.process_count == 1:
            return [obj]
        import json

        from jax.experimental import multihost_utils

        data = np.frombuffer(json.dumps(obj).encode(), np.uint8)
        sizes = multihost_utils.process_allgather(np.asarray([data.size], np.int64)).ravel()
        buf = np.zeros(int(sizes.max()), np.uint8)
        buf[: data.size] = data
        allb = np.asarray(multihost_utils.process_allgather(buf)).reshape(self.process_count, -1)
        return [json.loads(bytes(allb[i, : sizes[i]]).decode()) for i in range(self.process_count)]

    def barrier(self):
        if self.process_count > 1:
            from jax.experimental import multihost_utils

            multihost_utils.sync_global_devices("distlbm barrier")

    def blocks(self, x: jax.Array):
        """(spatial index, block [..., *block shape]) for the shards this process holds, each once."""
        d = len(self.shape)
        seen = set()
        for shard in x.addressable_shards:
            sp = tuple(slice(*sl.indices(n)[:2]) for sl, n in zip(shard.index[-d:], self.shape))
            key = tuple((sl.start, sl.stop) for sl in sp)
            if key in seen:
                continue
            seen.add(key)
            yield from slabs(shard.data, sp)
