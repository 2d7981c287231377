"""The static per-cell data are built slab by slab (stepper.assemble_cells, Domain.make_fields): a case's
geometry runs on slabs of at most SETUP_SLAB_CELLS cells (its float64 and Q-array temporaries stay slab-sized;
over whole blocks they were the peak of obstacle runs: sphere 315 B/cell), once per slab for all the fields,
and the fields are those of whole blocks, on one device and on a mesh. Runs on 8 forced CPU devices."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from distlbm import stepper
from distlbm.config import resolve
from distlbm.driver.loop import build_model
from distlbm.parallel.domain import LocalDomain
from distlbm.parallel.mesh import MeshDomain


def _cells(cfg, domain, slab_cells, monkeypatch):
    monkeypatch.setattr(stepper, "SETUP_SLAB_CELLS", slab_cells)
    calls = []

    def geometry(index):
        calls.append(tuple((sl.start, sl.stop) for sl in index))
        return cfg.setup.geometry(index)

    cells, _ = stepper.assemble_cells(build_model(cfg), geometry, domain)
    return {k: None if v is None else np.asarray(jax.device_get(v)) for k, v in cells._asdict().items()}, calls


@pytest.mark.parametrize("case,params", [
    # Bouzidi links, inlet, outlet, a body, the absorbing layer
    ("channel_flow", dict(n=4, length=2.75, height=2, width=1, ref_length=1, re=10, lattice="D3Q19",
                          obstacles="sphere(1.1, 0.9, 0.5, 0.3)", sponge=1.0)),
    ("cavity3d", dict(n=8)),  # moving walls: the velocities of the adjacent walls
])
def test_fields_built_slab_by_slab_equal_whole_blocks(case, params, monkeypatch):
    cfg = resolve(case, params)
    shape = cfg.setup.shape
    whole, calls = _cells(cfg, LocalDomain(shape), 1 << 40, monkeypatch)
    assert calls == [tuple((0, n) for n in shape)]  # one call for the whole lattice
    plane = int(np.prod(shape[1:]))
    slabbed, calls = _cells(cfg, LocalDomain(shape), 2 * plane, monkeypatch)
    assert len(calls) == -(-shape[0] // 2)  # each slab once, for every field together
    assert all(stop - start <= 2 for (start, stop), *_ in calls), calls
    mesh = MeshDomain(shape, (2, 2, 1))
    meshed, calls = _cells(cfg, mesh, plane // 4, monkeypatch)  # one plane of a block per call
    assert all(stop - start == 1 for (start, stop), *_ in calls), calls
    for name, ref in whole.items():
        for other in (slabbed, meshed):
            if ref is None:
                assert other[name] is None, name
            else:
                assert np.array_equal(other[name], ref), name


def test_only_the_fields_a_boundary_reads_are_built(monkeypatch):
    # walls alone (the duct): kinds and link bits; no velocities or densities (12 + 4 B/cell before)
    duct = resolve("duct", {"n": 6})
    cells, _ = _cells(duct, LocalDomain(duct.setup.shape), 1 << 20, monkeypatch)
    assert cells["kind"] is not None and cells["links"] is not None
    assert all(cells[k] is None for k in ("moving", "velocity", "rho", "qlink", "body", "sponge")), cells.keys()
    # a pressure outlet reads densities, an inlet velocities
    cfg = resolve("channel_flow", dict(n=4, length=2.75, height=2, ref_length=1, re=10, obstacles=""))
    cells, _ = _cells(cfg, LocalDomain(cfg.setup.shape), 1 << 20, monkeypatch)
    assert cells["velocity"] is not None and cells["rho"] is not None
