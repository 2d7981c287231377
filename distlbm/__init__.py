"""distlbm: a lattice Boltzmann solver on JAX that runs one lattice across many devices and processes."""

__version__ = "0.1.0"
