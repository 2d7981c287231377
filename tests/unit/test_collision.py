"""physics/collision: every operator conserves mass and momentum (no force) and relaxes to equilibrium."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

jax.config.update("jax_enable_x64", True)

from distlbm.lattice import get_lattice  # noqa: E402
from distlbm.physics.collision import Collision, collide  # noqa: E402
from distlbm.physics.equilibrium import equilibrium  # noqa: E402
from distlbm.physics.moments import density, momentum  # noqa: E402


def _state(lat, seed=0):
    shape = (3,) * lat.d
    k = jax.random.PRNGKey(seed)
    rho = 1.0 + 0.02 * jax.random.normal(k, shape, jnp.float64)
    u = tuple(0.03 * jax.random.normal(jax.random.fold_in(k, a + 1), shape, jnp.float64) for a in range(lat.d))
    f = equilibrium(rho, u, lat) + 1e-3 * jax.random.normal(jax.random.fold_in(k, 9), (lat.q,) + shape, jnp.float64)
    fl = [f[i] for i in range(lat.q)]
    rho = density(fl, lat)
    u = tuple(j / rho for j in momentum(fl, lat))
    return f, rho, u


@pytest.mark.parametrize("name", ["D2Q9", "D3Q19", "D3Q27"])
@pytest.mark.parametrize("op", [Collision("bgk", 0.7), Collision("trt", 0.7), Collision("regularized", 0.7),
                                Collision("bgk", 0.55, smagorinsky=0.15), Collision("trt", 0.6, smagorinsky=0.1)],
                         ids=["bgk", "trt", "regularized", "bgk-smagorinsky", "trt-smagorinsky"])
def test_collision_conserves_mass_and_momentum(name, op):
    lat = get_lattice(name)
    f, rho, u = _state(lat)
    out = collide(f, rho, u, equilibrium(rho, u, lat), op, lat)
    ol = [out[i] for i in range(lat.q)]
    np.testing.assert_allclose(density(ol, lat), rho, rtol=0, atol=1e-13)
    for a, ja in enumerate(momentum(ol, lat)):
        np.testing.assert_allclose(ja, rho * u[a], rtol=0, atol=1e-13)
    assert not np.allclose(out, f)  # it did relax


def test_bgk_with_tau_one_lands_on_the_equilibrium():
    lat = get_lattice("D2Q9")
    f, rho, u = _state(lat, 3)
    feq = equilibrium(rho, u, lat)
    np.testing.assert_allclose(collide(f, rho, u, feq, Collision("bgk", 1.0), lat), feq, atol=1e-15)


@pytest.mark.parametrize("kind", ["bgk", "trt"])  # regularized drops the first-order non-equilibrium moment
def test_body_force_adds_f_to_the_momentum(kind):
    """Guo forcing with the half-force-shifted velocity u = (j + F/2) / rho: the collision takes the
    momentum j to j + F (rho u + F/2), and keeps the mass."""
    lat = get_lattice("D2Q9")
    f, rho, u0 = _state(lat, 4)
    force = (1e-4, -2e-4)
    j = momentum([f[i] for i in range(lat.q)], lat)
    u = tuple((j[a] + 0.5 * force[a]) / rho for a in range(lat.d))
    out = collide(f, rho, u, equilibrium(rho, u, lat), Collision(kind, 0.8), lat, force)
    ol = [out[i] for i in range(lat.q)]
    np.testing.assert_allclose(density(ol, lat), rho, rtol=0, atol=1e-13)
    for a, ja in enumerate(momentum(ol, lat)):
        np.testing.assert_allclose(ja, j[a] + force[a], rtol=0, atol=1e-13)


@pytest.mark.parametrize("name", ["D2Q9", "D3Q19"])
@pytest.mark.parametrize("op", [Collision("bgk", 0.8), Collision("trt", 0.7), Collision("regularized", 0.7),
                                Collision("bgk", 0.6, smagorinsky=0.15)],
                         ids=["bgk", "trt", "regularized", "bgk-smagorinsky"])
def test_a_force_field_of_one_value_is_the_uniform_force(name, op):
    """A per-cell force field [D, ...] (Setup.force_field: the kolmogorov case) gives what the uniform D-tuple gives
    where every cell holds the same force (to rounding: the field's arithmetic is per cell, the tuple's folded into
    constants), with every operator; and a field that differs per cell changes each cell by its own force."""
    lat = get_lattice(name)
    f, rho, u0 = _state(lat, 5)
    force = (1e-4, -2e-4, 3e-5)[:lat.d]
    field = jnp.stack([jnp.full(rho.shape, x, jnp.float64) for x in force])
    j = momentum([f[i] for i in range(lat.q)], lat)
    u = tuple((j[a] + 0.5 * force[a]) / rho for a in range(lat.d))
    feq = equilibrium(rho, u, lat)
    uniform = collide(f, rho, u, feq, op, lat, force)
    per_cell = collide(f, rho, u, feq, op, lat, field)
    np.testing.assert_allclose(per_cell, uniform, rtol=0, atol=1e-15)
    # twice the force in one cell: only that cell's populations change
    field2 = field.at[(slice(None),) + (1,) * lat.d].multiply(2.0)
    other = collide(f, rho, u, feq, op, lat, field2)
    changed = np.any(np.abs(np.asarray(other - per_cell)) > 1e-12, axis=0)
    assert changed[(1,) * lat.d] and changed.sum() == 1
