"""physics/equilibrium and moments: the equilibrium has the density and momentum it is built from."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

jax.config.update("jax_enable_x64", True)

from distlbm.lattice import get_lattice  # noqa: E402
from distlbm.physics.equilibrium import equilibrium, equilibrium_deviation  # noqa: E402
from distlbm.physics.moments import density, deviation_moments, momentum  # noqa: E402


def _fields(d, seed=0):
    k = jax.random.split(jax.random.PRNGKey(seed), 2)
    shape = (4,) * d
    rho = 1.0 + 0.05 * jax.random.normal(k[0], shape, jnp.float64)
    u = tuple(0.05 * jax.random.normal(jax.random.fold_in(k[1], a), shape, jnp.float64) for a in range(d))
    return rho, u


@pytest.mark.parametrize("name", ["D2Q9", "D3Q19", "D3Q27"])
@pytest.mark.parametrize("incompressible", [False, True])
def test_equilibrium_moments(name, incompressible):
    """sum feq = rho; sum c feq = rho u (standard) or u (incompressible: rho0 = 1 in the velocity terms)."""
    lat = get_lattice(name)
    rho, u = _fields(lat.d)
    feq = equilibrium(rho, u, lat, incompressible)
    fl = [feq[i] for i in range(lat.q)]
    np.testing.assert_allclose(density(fl, lat), rho, rtol=0, atol=1e-13)
    j = momentum(fl, lat)
    for a in range(lat.d):
        want = u[a] if incompressible else rho * u[a]
        np.testing.assert_allclose(j[a], want, rtol=0, atol=1e-13)


@pytest.mark.parametrize("name", ["D2Q9", "D3Q19"])
def test_deviation_form_is_feq_minus_w(name):
    lat = get_lattice(name)
    rho, u = _fields(lat.d, 1)
    g = equilibrium_deviation(rho - 1.0, u, lat)
    feq = equilibrium(rho, u, lat)
    w = jnp.asarray(lat.w).reshape((lat.q,) + (1,) * lat.d)
    np.testing.assert_allclose(g, feq - w, rtol=0, atol=1e-15)
    drho, uu = deviation_moments([g[i] for i in range(lat.q)], lat)
    np.testing.assert_allclose(drho, rho - 1.0, atol=1e-13)
    for a in range(lat.d):
        np.testing.assert_allclose(uu[a], u[a], atol=1e-13)
