"""physics/streaming: pull streaming by whole-array shifts equals np.roll on a periodic lattice.

Streamed under jax.jit, as a step streams: one compiled program per test (eager, each of its many small slices
and pads was compiled on its own: 300 programs, a minute of the suite)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from distlbm.lattice import get_lattice
from distlbm.physics.streaming import periodic_exchange, stream, stream_parts


@pytest.mark.parametrize("name,shape", [("D2Q9", (5, 7)), ("D3Q19", (4, 5, 6)), ("D3Q27", (3, 4, 5))])
def test_stream_equals_roll_on_a_periodic_lattice(name, shape):
    lat = get_lattice(name)
    f = np.random.default_rng(0).normal(size=(lat.q,) + shape).astype(np.float32)
    out = np.asarray(jax.jit(lambda f: stream(f, lat.c, periodic_exchange))(f))
    for k in range(lat.q):
        ref = np.roll(f[k], shift=tuple(int(v) for v in lat.c[k]), axis=tuple(range(lat.d)))
        assert np.array_equal(out[k], ref), k


def test_stream_parts_are_the_stacked_result():
    lat = get_lattice("D3Q19")
    f = np.random.default_rng(1).normal(size=(lat.q, 4, 4, 4)).astype(np.float32)
    parts, whole = jax.jit(lambda f: (stream_parts(f, lat.c, periodic_exchange),
                                      stream(f, lat.c, periodic_exchange)))(f)
    assert np.array_equal(np.stack([np.asarray(p) for p in parts]), np.asarray(whole))


def test_exchange_carries_what_crosses_a_face():
    """An exchange that zeroes what it receives removes exactly the populations entering across faces."""
    lat = get_lattice("D2Q9")
    f = jnp.ones((lat.q, 4, 4), jnp.float32)
    out = np.asarray(jax.jit(lambda f: stream(f, lat.c, lambda planes, axis, sign: jnp.zeros_like(planes)))(f))
    for k in range(lat.q):
        cx, cy = (int(v) for v in lat.c[k])
        inner = out[k][(slice(1, None) if cx > 0 else slice(None, -1) if cx < 0 else slice(None)),
                       (slice(1, None) if cy > 0 else slice(None, -1) if cy < 0 else slice(None))]
        assert np.all(inner == 1.0)
        assert out[k].sum() == inner.size
