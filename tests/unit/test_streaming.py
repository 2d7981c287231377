"""physics/streaming: pull streaming by whole-array shifts equals jnp.roll on a periodic lattice."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from distlbm.lattice import get_lattice
from distlbm.physics.streaming import periodic_exchange, stream, stream_parts


@pytest.mark.parametrize("name,shape", [("D2Q9", (5, 7)), ("D3Q19", (4, 5, 6)), ("D3Q27", (3, 4, 5))])
def test_stream_equals_roll_on_a_periodic_lattice(name, shape):
    lat = get_lattice(name)
    f = jax.random.normal(jax.random.PRNGKey(0), (lat.q,) + shape, jnp.float32)
    out = stream(f, lat.c, periodic_exchange)
    for k in range(lat.q):
        ref = jnp.roll(f[k], shift=tuple(int(v) for v in lat.c[k]), axis=tuple(range(lat.d)))
        assert np.array_equal(np.asarray(out[k]), np.asarray(ref)), k


def test_stream_parts_are_the_stacked_result():
    lat = get_lattice("D3Q19")
    f = jax.random.normal(jax.random.PRNGKey(1), (lat.q, 4, 4, 4), jnp.float32)
    parts = stream_parts(f, lat.c, periodic_exchange)
    assert np.array_equal(np.asarray(jnp.stack(parts)), np.asarray(stream(f, lat.c, periodic_exchange)))


def test_exchange_carries_what_crosses_a_face():
    """An exchange that zeroes what it receives removes exactly the populations entering across faces."""
    lat = get_lattice("D2Q9")
    f = jnp.ones((lat.q, 4, 4), jnp.float32)
    out = np.asarray(stream(f, lat.c, lambda planes, axis, sign: jnp.zeros_like(planes)))
    for k in range(lat.q):
        cx, cy = (int(v) for v in lat.c[k])
        inner = out[k][(slice(1, None) if cx > 0 else slice(None, -1) if cx < 0 else slice(None)),
                       (slice(1, None) if cy > 0 else slice(None, -1) if cy < 0 else slice(None))]
        assert np.all(inner == 1.0)
        assert out[k].sum() == inner.size
