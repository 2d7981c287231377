"""io/checkpoint: a round trip keeps every bit and the metadata; the digest covers the metadata."""

import json

import h5py
import jax
import numpy as np
import pytest

from distlbm.io import checkpoint as ckpt
from distlbm.parallel.domain import LocalDomain


def _meta(step, shape):
    return {"step": step, "time": step * 0.5, "config": {"case": "box"}, "lattice": "D2Q9", "shape": list(shape),
            "dtype": "float32", "mass0": 64.0, "schedules": {"output_time": {"count": 2}}, "outputs": []}


def test_round_trip_is_bitwise_and_keeps_the_metadata(tmp_path):
    shape = (8, 6)
    dom = LocalDomain(shape)
    f = jax.device_put(np.random.default_rng(0).standard_normal((9,) + shape).astype(np.float32))
    path = ckpt.save(tmp_path, f, dom, _meta(12, shape), keep=2, run_id="r1")
    assert path.name == "ckpt_000000012.h5"
    back, meta = ckpt.load(path, dom, "float32")
    assert np.array_equal(np.asarray(back), np.asarray(f))
    assert meta["step"] == 12 and meta["run_id"] == "r1" and meta["schedules"] == {"output_time": {"count": 2}}
    ckpt.check_against(meta, path, 9, shape, "float32")
    with pytest.raises(ckpt.CheckpointError, match="this run needs"):
        ckpt.check_against(meta, path, 19, shape, "float32")


def test_keep_prunes_only_this_runs_files(tmp_path):
    shape = (4, 4)
    dom = LocalDomain(shape)
    f = jax.device_put(np.zeros((9,) + shape, np.float32))
    for step, run in ((1, "a"), (2, "b"), (3, "a"), (4, "a")):
        ckpt.save(tmp_path, f, dom, _meta(step, shape), keep=2, run_id=run)
    assert [p.name for p in ckpt.list_checkpoints(tmp_path)] == ["ckpt_000000002.h5", "ckpt_000000003.h5",
                                                                  "ckpt_000000004.h5"]
    assert [r for _, r in ckpt.owners(tmp_path)] == ["b", "a", "a"]


def test_an_edited_byte_of_metadata_is_refused(tmp_path):
    shape = (4, 4)
    dom = LocalDomain(shape)
    path = ckpt.save(tmp_path, jax.device_put(np.zeros((9,) + shape, np.float32)), dom, _meta(5, shape), run_id="x")
    with h5py.File(path, "r+") as h5:
        meta = json.loads(h5.attrs["meta"])
        meta["mass0"] = 65.0
        h5.attrs["meta"] = json.dumps(meta, sort_keys=True)
    with pytest.raises(ckpt.CheckpointError, match="SHA-256"):
        ckpt.read_meta(path)
