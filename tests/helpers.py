"""Shared helpers for the tests: run a configured case in-process and return its summary."""

from __future__ import annotations

import os

import jax


def tree(folder) -> dict:
    """Every entry under `folder` (files, links, FIFOs, folders, not followed) with its mode, size and modification
    time: what a dry run must leave as it was (compare before and after)."""
    out = {}
    for root, dirs, names in os.walk(folder):
        for n in names + dirs:
            p = os.path.join(root, n)
            st = os.lstat(p)
            out[p] = (st.st_mode, st.st_size, st.st_mtime_ns)
    return out


def make_sim(case: str, domain=None, **params):
    """A Simulation of `case` with `params` (as --set would), on one device unless a domain is given."""
    from distlbm.config import resolve
    from distlbm.parallel.domain import LocalDomain
    from distlbm.driver import Simulation

    if "float64" in (params.get("dtype"), params.get("compute_dtype")):
        jax.config.update("jax_enable_x64", True)
    cfg = resolve(case, params)
    return Simulation(cfg, domain=domain or LocalDomain(cfg.setup.shape), log=lambda msg: None)


def run_case(case: str, steps=None, domain=None, **params) -> tuple:
    """Run `case` with `params` and return (summary, simulation)."""
    sim = make_sim(case, domain=domain, **params)
    return sim.run(steps), sim


class compiles:
    """`with compiles() as c:` records each XLA program JAX lowers and compiles inside the block (jax.log_compiles'
    "Compiling ..." lines, which come before the persistent cache is read, so a cache hit counts too): c.sites are
    the distlbm file:line that called each one, c.count(where) those whose call site names `where`."""

    def __init__(self):
        self.sites = []

    def __enter__(self):
        import logging
        import traceback

        outer = self

        class _Handler(logging.Handler):
            def emit(self, record):
                if record.getMessage().startswith("Compiling "):
                    outer.sites.append(" <- ".join(f"{f.filename.rsplit('/distlbm/', 1)[-1]}:{f.lineno}"
                                                   for f in reversed(traceback.extract_stack())
                                                   if "/distlbm/" in f.filename))

        self._handler = _Handler(logging.DEBUG)
        self._logger = logging.getLogger("jax._src.interpreters.pxla")
        self._logger.addHandler(self._handler)
        self._log = jax.log_compiles()
        self._log.__enter__()
        return self

    def __exit__(self, *exc):
        self._log.__exit__(*exc)
        self._logger.removeHandler(self._handler)
        return False

    def count(self, where: str) -> int:
        return sum(where in s for s in self.sites)
