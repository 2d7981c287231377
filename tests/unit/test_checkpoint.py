"""io/checkpoint: a round trip keeps every bit and the metadata; the digest covers the metadata."""

import json
import os
from pathlib import Path

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


def test_a_file_written_again_leaves_no_part_files_of_its_earlier_write(tmp_path):
    """A step written again by a restart on fewer processes (or on one) left the part files PATH.pK.h5 of its
    earlier, split, write beside it: nothing read them, and they filled the folder unsaid. The parts a write does
    not make are removed once it is in place; other files are left."""
    shape = (8, 6)
    dom = LocalDomain(shape)
    f = jax.device_put(np.random.default_rng(0).standard_normal((9,) + shape).astype(np.float32))
    stale = [tmp_path / f"ckpt_000000012.p{k}.h5" for k in (0, 1, 11)]
    other = [tmp_path / "ckpt_000000013.p0.h5", tmp_path / "ckpt_000000012.p1.h5.tmp", tmp_path / "ckpt_000000012.px.h5"]
    for p in stale + other:
        p.write_bytes(b"x" * 100)
    path = ckpt.save(tmp_path, f, dom, _meta(12, shape), keep=5, run_id="r1")
    assert not any(p.exists() for p in stale) and all(p.exists() for p in other)
    back, _ = ckpt.load(path, dom, "float32")
    assert np.array_equal(np.asarray(back), np.asarray(f))


def test_a_new_file_does_not_list_its_folder_for_part_files(tmp_path, monkeypatch):
    """Every write listed its folder for part files of an earlier write of its path (glob NAME.p*.h5): in a folder of
    30,000 field outputs 26 ms per output, growing with the run. A path written before (its file or its part 0 there)
    is still cleaned of the parts it no longer has."""
    from distlbm.io import hdf5

    shape = (8, 6)
    dom = LocalDomain(shape)
    f = jax.device_put(np.zeros((9,) + shape, np.float32))
    listed = []
    real = hdf5.part_files
    monkeypatch.setattr(hdf5, "part_files", lambda p: listed.append(Path(p).name) or real(p))
    for step in (1, 2, 3):
        hdf5.write(tmp_path / f"fields_{step:09d}.h5", [hdf5.Field("f", f, "leading")], dom)
    assert listed == []
    hdf5.write(tmp_path / "fields_000000002.h5", [hdf5.Field("f", f, "leading")], dom)  # written again: looked at
    stale = tmp_path / "fields_000000004.p0.h5"  # a part 0 of an earlier split write, no file: looked at
    stale.write_bytes(b"x")
    hdf5.write(tmp_path / "fields_000000004.h5", [hdf5.Field("f", f, "leading")], dom)
    assert listed == ["fields_000000002.h5", "fields_000000004.h5"] and not stale.exists()


def test_init_from_takes_populations_of_a_floating_point_dtype_only(tmp_path):
    """--init-from converts populations stored in another dtype (check_against(convert=True)): one stored as
    integers (a foreign or crafted file) was read, then the run ended on a traceback (ValueError: data type int32
    not inexact) where the dtype check had refused it in one line."""
    shape = (8, 6)
    dom = LocalDomain(shape)
    import ml_dtypes

    for dtype in ("float16", "bfloat16"):  # another float dtype (bfloat16: kept as raw bits): taken
        f = jax.device_put(np.zeros((9,) + shape, getattr(ml_dtypes, dtype, dtype)))
        path = ckpt.save(tmp_path / dtype, f, dom, _meta(1, shape), keep=2, run_id="r1")
        ckpt.check_against(ckpt.read_meta(path), path, 9, shape, "float32", convert=True)
        assert "taken as float32" in ckpt.converted(ckpt.read_meta(path), "float32")
    f = jax.device_put(np.ones((9,) + shape, np.int32))
    path = ckpt.save(tmp_path / "int", f, dom, _meta(1, shape), keep=2, run_id="r1")
    with pytest.raises(ckpt.CheckpointError, match="populations stored as int32, not a floating-point dtype"):
        ckpt.check_against(ckpt.read_meta(path), path, 9, shape, "float32", convert=True)


def test_keep_prunes_only_this_runs_files(tmp_path):
    shape = (4, 4)
    dom = LocalDomain(shape)
    f = jax.device_put(np.zeros((9,) + shape, np.float32))
    for step, run in ((1, "a"), (2, "b"), (3, "a"), (4, "a")):
        ckpt.save(tmp_path, f, dom, _meta(step, shape), keep=2, run_id=run)
    assert [p.name for p in ckpt.list_checkpoints(tmp_path)] == ["ckpt_000000002.h5", "ckpt_000000003.h5",
                                                                  "ckpt_000000004.h5"]
    assert [r for _, r in ckpt.owners(tmp_path)] == ["b", "a", "a"]


def test_pruning_does_not_read_the_kept_checkpoints_again(tmp_path, monkeypatch):
    """Each checkpoint's pruning read the metadata of every kept checkpoint (owners), and the metadata holds the
    run's output index: a cavity writing an output every 10 steps took 26 ms per checkpoint at the first and 308 ms
    at the 400th (2,000 outputs), growing with the run. A file is read once, while it is the same file: another
    one put at its name (or a damaged one) is read again."""
    shape = (4, 4)
    dom = LocalDomain(shape)
    f = jax.device_put(np.zeros((9,) + shape, np.float32))
    reads = []
    real = ckpt.read_meta
    monkeypatch.setattr(ckpt, "read_meta", lambda p, quick=False: reads.append(Path(p).name) or real(p, quick))
    index = [{"step": s, "time": 1.0, "file": f"fields/fields_{s:09d}.h5", "fields": ["rho"]} for s in range(200)]
    for step in range(1, 9):
        ckpt.save(tmp_path, f, dom, dict(_meta(step, shape), outputs=index), keep=3, run_id="a")
    assert [p.name for p in ckpt.list_checkpoints(tmp_path)] == [f"ckpt_00000000{s}.h5" for s in (6, 7, 8)]
    assert reads == [], f"pruning read {len(reads)} checkpoints' metadata again: {reads}"
    # another run's file put at a kept name (same step, another inode) is read, and is that run's
    other = ckpt.save(tmp_path / "other", f, dom, _meta(7, shape), keep=3, run_id="b")
    os.replace(other, tmp_path / "ckpt_000000007.h5")
    assert [r for _, r in ckpt.owners(tmp_path)] == ["a", "b", "a"] and reads == ["ckpt_000000007.h5"]
    # a file damaged in place (another size and time) is read again: nobody's
    with open(tmp_path / "ckpt_000000008.h5", "r+b") as fh:
        fh.truncate(100)
    assert [r for _, r in ckpt.owners(tmp_path)] == ["a", "b"]
    assert [r for _, r in ckpt.owners(tmp_path)] == ["a", "b"]  # (and read each time: no memo of a damaged one)
    assert reads == ["ckpt_000000007.h5", "ckpt_000000008.h5", "ckpt_000000008.h5"]


def test_checkpoints_past_step_999999999_are_found_in_step_order(tmp_path):
    """Names have 9 digits at least, 10 from step 10^9 on (the int32 step counter goes to 2147483647): they were
    matched with 9 only and ordered by name, so past step 999999999 (two days of a 128^2 lattice) a checkpoint was
    no checkpoint: --restart latest went back to step 999999999 (or found none), and the pruning never removed
    the newer ones. A field output's name there made the checkpoint's metadata invalid."""
    shape = (4, 4)
    dom = LocalDomain(shape)
    f = jax.device_put(np.zeros((9,) + shape, np.float32))
    steps = (999_999_998, 999_999_999, 1_000_000_000, 1_000_000_001)
    for step in steps:
        meta = dict(_meta(step, shape), outputs=[{"step": step, "time": 1.0, "file": f"fields/fields_{step:09d}.h5",
                                                  "fields": ["rho"]}])
        ckpt.save(tmp_path, f, dom, meta, keep=3, run_id="a")
    names = [p.name for p in ckpt.list_checkpoints(tmp_path)]
    assert names == ["ckpt_999999999.h5", "ckpt_1000000000.h5", "ckpt_1000000001.h5"], names  # the oldest pruned
    latest = ckpt.resolve_restart("latest", tmp_path)[0]
    assert latest.name == "ckpt_1000000001.h5"
    _, meta = ckpt.load(latest, dom, "float32")
    assert meta["step"] == 1_000_000_001 and meta["outputs"][0]["file"] == "fields/fields_1000000001.h5"


def test_a_restart_from_a_run_folder_takes_its_checkpoints(tmp_path):
    """--restart RUN_FOLDER was "no checkpoint in that folder" although its checkpoints/ held some (--init-from
    takes a run folder): a run folder's checkpoints are taken, newest first; a folder without any is still refused."""
    shape = (4, 4)
    dom = LocalDomain(shape)
    f = jax.device_put(np.zeros((9,) + shape, np.float32))
    for step in (10, 20):
        ckpt.save(tmp_path / "run" / "checkpoints", f, dom, _meta(step, shape), keep=3, run_id="a")
    for spec in (tmp_path / "run", tmp_path / "run" / "checkpoints"):
        assert [p.name for p in ckpt.resolve_restart(str(spec), tmp_path / "other")] == \
            ["ckpt_000000020.h5", "ckpt_000000010.h5"]
    (tmp_path / "empty" / "checkpoints").mkdir(parents=True)
    with pytest.raises(ckpt.CheckpointError, match="no checkpoint in that folder or its checkpoints/$"):
        ckpt.resolve_restart(str(tmp_path / "empty"), tmp_path / "other")  # (the checkpoints/ looked in is said)
    with pytest.raises(ckpt.CheckpointError, match="no checkpoint in that folder$"):
        ckpt.resolve_restart(str(tmp_path / "empty" / "checkpoints"), tmp_path / "other")


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


# ---- the chunk layout: each chunk written once and read once ---------------------------------------------

def _io() -> dict:
    with open("/proc/self/io") as fh:
        return {k: int(v) for k, v in (line.split(":") for line in fh)}


@pytest.mark.skipif(not os.path.exists("/proc/self/io"), reason="needs Linux's /proc/self/io")
def test_a_checkpoint_puts_each_chunk_on_the_file_once_and_a_restart_reads_it_once(tmp_path):
    """The populations' chunks are rows of a few planes along x (io.hdf5._chunks) and the file's chunk cache
    keeps a row that a slab ends inside until the next slab completes it (hdf5.CHUNK_CACHE), so the write, slab
    by slab along x, hands each chunk to the file once and the read of a restart reads each once. Counted with
    the process's bytes written and read (/proc/self/io). 120^3 D3Q19: rows of 15 planes, write slabs of 61
    (each ends inside a row). With the rows and HDF5's default cache: 1.12x written, 0.13x read back; with the
    chunks before (a block deep in x, 6.6 MiB each): 3x written. At 256^3 that was 25 s to write and 10 s to
    read, 1.9 s and 1.4 s now; 300^3 64 s and 28 s, now 2.7 s and 2.5 s (2 cores, a disk that writes 1.5 GB/s)."""
    n = 120
    shape = (n, n, n)
    dom = LocalDomain(shape)
    f = jax.device_put(np.random.default_rng(1).standard_normal((19,) + shape).astype(np.float32))
    meta = {**_meta(5, shape), "lattice": "D3Q19"}
    before = _io()
    path = ckpt.save(tmp_path, f, dom, meta, keep=2, run_id="r1")
    written = _io()
    back, _ = ckpt.load(path, dom, "float32")
    read = _io()
    size = path.stat().st_size
    assert size > f.size * 4
    with h5py.File(path) as h5:
        chunks = h5["f"].chunks
    assert chunks[:2] == (1, 15) and chunks[2:] == shape[1:], chunks  # 15 planes: 19 x 15 x 56 KiB <= 16 MiB
    assert written["wchar"] - before["wchar"] < 1.05 * size, (written["wchar"] - before["wchar"]) / size
    assert written["rchar"] - before["rchar"] < 0.05 * size, (written["rchar"] - before["rchar"]) / size
    assert read["rchar"] - written["rchar"] < 1.05 * size, (read["rchar"] - written["rchar"]) / size
    assert np.array_equal(np.asarray(back), np.asarray(f))


@pytest.mark.parametrize("shape,q,mesh,dtype,expected", [
    ((256, 256, 256), 19, None, "float32", (1, 2, 256, 256)),  # 3 planes (14.25 MiB) do not divide 256
    ((256, 256, 256), 19, (2, 1, 1), "float16", (1, 4, 256, 256)),  # the block is 128 deep
    ((101, 32, 32), 19, None, "float32", (1, 101, 32, 32)),  # a prime depth: the whole block (7.5 MiB a row)
    ((4, 1024, 1024), 27, None, "float32", (1, 1, 256, 512)),  # a plane over 16 MiB: halved until one fits
    ((4096, 4096), 9, None, "float32", (1, 64, 4096)),  # 2D
    ((64, 64, 64), 19, (2, 2, 2), "bfloat16", (1, 32, 32, 32)),  # stored as raw 16-bit values
])
def test_the_chunks_are_rows_of_planes_within_a_block(shape, q, mesh, dtype, expected):
    """io.hdf5._chunks: c planes along x (a divisor of the block's depth, so no chunk spans two blocks) over the
    block's other extents, at most hdf5.CHUNK_ROW_BYTES for a row over every population."""
    from types import SimpleNamespace

    import ml_dtypes  # noqa: F401  (bfloat16)

    from distlbm.io import hdf5

    fld = hdf5.Field("f", jax.ShapeDtypeStruct((q,) + shape, np.dtype(dtype)), "leading")
    domain = SimpleNamespace(shape=shape, mesh_shape=mesh or ())
    chunks = hdf5._chunks(fld, (q,) + shape, domain, len(shape))
    assert chunks == expected
    block = [s // m for s, m in zip(shape, mesh or (1,) * len(shape))]
    assert block[0] % chunks[1] == 0 and all(b % c == 0 for b, c in zip(block[1:], chunks[2:]))
    assert q * np.prod(chunks) * np.dtype(dtype).itemsize <= hdf5.CHUNK_ROW_BYTES


def test_restart_latest_where_checkpoints_is_a_file_says_so(tmp_path):
    """`--restart latest` where OUT/checkpoints is a file said "no checkpoint in OUT/checkpoints" alone."""
    from distlbm.io.checkpoint import CheckpointError, resolve_restart

    (tmp_path / "checkpoints").write_text("not a folder")
    with pytest.raises(CheckpointError, match=r"no checkpoint in .*checkpoints \(it is not a folder"):
        resolve_restart("latest", tmp_path / "checkpoints")


@pytest.mark.parametrize("mode", ["single", "split"])
def test_a_checkpoints_rename_is_synced_with_its_folder(tmp_path, monkeypatch, mode):
    """The file's data were fsynced before its rename, the rename itself was not: a node that lost power just after
    could come back with the folder's entry as before (the newest checkpoint gone). The folder is fsynced after each
    rename that makes a file visible (the split form's part and master file alike)."""
    from distlbm.io import hdf5

    if mode == "split":
        monkeypatch.setattr(hdf5, "write_mode", lambda domain: "split")
    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        return real_fsync(fd)

    def replace(src, dst, *a, **k):
        events.append(("replace", os.fspath(dst)))
        return real_replace(src, dst, *a, **k)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    shape = (8, 6)
    dom = LocalDomain(shape)
    f = jax.device_put(np.zeros((9,) + shape, np.float32))
    path = ckpt.save(tmp_path, f, dom, _meta(12, shape), keep=2, run_id="r1")
    made = [i for i, e in enumerate(events) if e[0] == "replace" and Path(e[1]).parent == path.parent]
    assert made and (mode == "single") == (len(made) == 1), events
    for i in made:
        assert ("fsync", str(path.parent)) in events[i + 1:], (events[i], events)
    back, _ = ckpt.load(path, dom, "float32")
    assert np.array_equal(np.asarray(back), np.asarray(f))
