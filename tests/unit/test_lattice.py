"""Velocity sets: weights, isotropy up to fourth order, the opposite table, Q/D and the rest direction."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from distlbm.lattice import D2Q9, D3Q19, D3Q27, LATTICES, get_lattice

TOL = 1e-15
ALL = [D2Q9, D3Q19, D3Q27]
IDS = [lat.name for lat in ALL]


def moment(c, w, order):
    """sum_i w_i c_{i a1} ... c_{i a_order} as an array of shape (D,) * order."""
    c = np.asarray(c, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    if order == 0:
        return np.array(w.sum())
    letters = "abcdefgh"[:order]
    spec = "i," + ",".join(f"i{a}" for a in letters) + "->" + letters
    return np.einsum(spec, w, *([c] * order))


def expected_moment(d, order, cs2):
    """The isotropic lattice-gas moments: 1, 0, cs2 d_ab, 0, cs2^2 (d_ab d_cd + d_ac d_bd + d_ad d_bc)."""
    delta = np.eye(d)
    if order == 0:
        return np.array(1.0)
    if order in (1, 3):
        return np.zeros((d,) * order)
    if order == 2:
        return cs2 * delta
    if order == 4:
        return cs2 ** 2 * (np.einsum("ab,cd->abcd", delta, delta) + np.einsum("ac,bd->abcd", delta, delta)
                           + np.einsum("ad,bc->abcd", delta, delta))
    raise ValueError(order)


def isotropic(c, w, cs2, order, tol=TOL) -> bool:
    """True when the moment of this order matches the isotropic tensor to within tol (absolute)."""
    got = moment(c, w, order)
    return bool(np.max(np.abs(got - expected_moment(np.asarray(c).shape[1], order, cs2))) <= tol)


@pytest.mark.parametrize("lat", ALL, ids=IDS)
@pytest.mark.parametrize("order", [0, 1, 2, 3, 4])
def test_isotropy_moments(lat, order):
    got = moment(lat.c, lat.w, order)
    want = expected_moment(lat.d, order, lat.cs2)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=0, atol=TOL)
    assert isotropic(lat.c, lat.w, lat.cs2, order)


@pytest.mark.parametrize("lat", ALL, ids=IDS)
def test_weights_sum_to_one_and_positive(lat):
    assert abs(float(np.sum(lat.w)) - 1.0) <= TOL
    assert np.all(lat.w > 0)
    assert lat.cs2 == pytest.approx(1.0 / 3.0, abs=TOL)


@pytest.mark.parametrize("lat,q,d", [(D2Q9, 9, 2), (D3Q19, 19, 3), (D3Q27, 27, 3)], ids=IDS)
def test_q_d_and_directions(lat, q, d):
    assert lat.q == q and lat.d == d
    assert lat.c.shape == (q, d) and lat.w.shape == (q,) and lat.opposite.shape == (q,)
    assert np.issubdtype(lat.c.dtype, np.integer)
    assert set(np.unique(lat.c)) <= {-1, 0, 1}
    assert len({tuple(v) for v in lat.c.tolist()}) == q, "directions must be distinct"
    assert np.all(lat.c[0] == 0), "c[0] must be the rest direction"
    assert np.all(np.any(lat.c[1:] != 0, axis=1)), "only c[0] may be the rest direction"
    # the speeds each set contains: D3Q19 has no (±1, ±1, ±1) corners, D3Q27 does
    norms = sorted(set((lat.c ** 2).sum(axis=1).tolist()))
    assert norms == {9: [0, 1, 2], 19: [0, 1, 2], 27: [0, 1, 2, 3]}[q]


@pytest.mark.parametrize("lat", ALL, ids=IDS)
def test_weights_depend_only_on_speed(lat):
    norm2 = (lat.c ** 2).sum(axis=1)
    for s in np.unique(norm2):
        ws = lat.w[norm2 == s]
        assert np.all(ws == ws[0])


@pytest.mark.parametrize("lat", ALL, ids=IDS)
def test_opposite_table(lat):
    opp = lat.opposite
    assert np.array_equal(lat.c[opp], -lat.c)
    assert np.array_equal(opp[opp], np.arange(lat.q))
    assert opp[0] == 0
    assert np.all(opp[1:] != np.arange(1, lat.q)), "no moving direction is its own opposite"
    assert np.array_equal(lat.w[opp], lat.w)


def test_fourth_order_check_rejects_wrong_weights():
    """D2Q9 with rest 5/9, axis 1/18, diagonal 1/18: weights sum to 1 and moments up to order 3 hold,
    but sum w cx^2 cy^2 = 2/9 != cs2^2 = 1/9, so the fourth-order check must fail."""
    c = D2Q9.c
    norm2 = (c ** 2).sum(axis=1)
    by_norm = {0: Fraction(5, 9), 1: Fraction(1, 18), 2: Fraction(1, 18)}
    w = np.array([float(by_norm[int(s)]) for s in norm2])
    assert abs(w.sum() - 1.0) <= TOL
    for order in (0, 1, 2, 3):
        assert isotropic(c, w, 1.0 / 3.0, order)
    assert not isotropic(c, w, 1.0 / 3.0, 4)
    # and a tiny perturbation of one true weight breaks the sum and the second-order moment
    w2 = np.array(D2Q9.w, dtype=np.float64)
    w2[5] += 1e-12
    assert not isotropic(c, w2, D2Q9.cs2, 0)
    assert not isotropic(c, w2, D2Q9.cs2, 2)


def test_get_lattice():
    for name, lat in LATTICES.items():
        assert get_lattice(name) is lat
        assert get_lattice(name.lower()) is lat
    with pytest.raises(ValueError, match="D3Q15"):
        get_lattice("D3Q15")


def test_lattice_constants_are_read_only():
    for lat in ALL:
        for arr in (lat.c, lat.w, lat.opposite):
            with pytest.raises(ValueError):
                arr[0] = arr[0]


def test_brute_force_independent_d3q27():
    """D3Q27 is the tensor product of D1Q3 (2/3, 1/6, 1/6): compare weights direction by direction."""
    w1 = {0: 2 / 3, 1: 1 / 6, -1: 1 / 6}
    for v, w in zip(D3Q27.c.tolist(), D3Q27.w):
        assert abs(w - np.prod([w1[x] for x in v])) <= TOL
    assert {tuple(v) for v in D3Q27.c.tolist()} == set(itertools.product((-1, 0, 1), repeat=3))
