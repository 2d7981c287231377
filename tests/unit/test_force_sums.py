"""The forces' fixed-point sums (physics.boundaries.fixed_point_sums, force_totals): exact integer sums,
so that a body's force is the same bits whatever the blocks, slabs or order that add its cells."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from distlbm.physics.boundaries import fixed_point_sums as _fixed_point_sums, force_totals

jax.config.update("jax_enable_x64", True)  # as a float64 run does
# as a step computes them: one compiled program per shape (eager, each of its many small operations was compiled
# for every block size: a minute of the test)
fixed_point_sums = jax.jit(_fixed_point_sums, static_argnames="lead")


@pytest.mark.parametrize("dtype,tol", [(np.float32, 2.0 ** -40), (np.float64, 2.0 ** -72)])
def test_any_split_and_order_gives_the_same_bits(dtype, tol):
    rng = np.random.default_rng(7)
    v = (rng.normal(size=4000) * 10.0 ** rng.uniform(-6, 2, size=4000)).astype(dtype)
    v[::7] = 0.0
    whole = force_totals(np.asarray(fixed_point_sums(jnp.asarray(v))))
    # every cell's truncation is below 2^-E: the total is the exact sum of the values within n 2^-E
    assert abs(whole - np.sum(v.astype(np.float64))) <= len(v) * tol + 1e-15 * np.abs(v).sum()
    for seed in range(3):  # blocks of other sizes, in another order: integer partial sums added
        p = np.random.default_rng(seed).permutation(len(v))
        cuts = np.sort(np.random.default_rng(seed + 10).choice(np.arange(1, len(v)), size=5, replace=False))
        parts = [np.asarray(fixed_point_sums(jnp.asarray(c)), np.float64) for c in np.split(v[p], cuts)]
        assert force_totals(np.sum(parts[::-1], axis=0)) == whole  # bit for bit
        # what a float sum in that order gives differs in the last bits (why the sums are integers)
    floats = {float(np.sum(np.split(v[np.random.default_rng(s).permutation(len(v))], 4)[::-1], dtype=dtype))
              for s in range(8)}
    assert dtype is np.float64 or len(floats) > 1


def test_not_finite_or_out_of_range_is_nan():
    for bad in (np.nan, np.inf, 300.0, -257.0):
        v = jnp.asarray([1.0, bad, 2.0], jnp.float32)
        assert np.isnan(force_totals(np.asarray(fixed_point_sums(v))))
    assert force_totals(np.asarray(fixed_point_sums(jnp.asarray([255.5, -255.5, 1.25], jnp.float32)))) == 1.25


@pytest.mark.parametrize("value", [0.75, -2.0 ** -40])
def test_more_cells_than_an_int32_digit_sum_holds(value):
    """An int32 sum of 8-bit digits over a block wraps beyond ~2^23 nonzero cells (a porous mask next to its
    walls): 9e6 cells of 0.75 summed to garbage, not NaN. The sums carry after each axis."""
    v = jnp.full((3000, 3000), value, jnp.float32)
    assert force_totals(np.asarray(fixed_point_sums(v))) == 9_000_000 * value
