"""distlbm.io.files: the temporaries of interrupted writes, found and removed by name (a run removes them
before it checks its space; the run-level behaviour is tested in tests/parallel/test_reliability.py)."""

from __future__ import annotations

import os

from distlbm.io import files


def test_only_the_temporaries_of_numbered_writes_are_found(tmp_path):
    ck, fields = tmp_path / "checkpoints", tmp_path / "fields"
    ck.mkdir()
    fields.mkdir()
    ours = [ck / "ckpt_000000025.h5.tmp", ck / "ckpt_000000025.p3.h5.tmp", fields / "fields_000000030.h5.tmp",
            fields / "slice_x12_000000030.h5.tmp"]
    for p in ours:
        p.write_bytes(b"x" * 10000)
    others = [ck / "notes.tmp", ck / "ckpt_25.h5.tmp", ck / "ckpt_000000025.h5", ck / "summary.json.tmp",
              ck / "ckpt_000000025.h5.tmp.bak", ck / "Ckpt_000000025.h5.tmp"]
    for p in others:
        p.write_bytes(b"keep")
    (ck / "ckpt_000000099.h5.tmp").mkdir()  # a folder at such a name is left (the write there says so)
    target = tmp_path / "precious"
    target.write_text("keep")
    os.symlink(target, ck / "ckpt_000000035.h5.tmp")  # a link: removed, never its target
    found = files.interrupted_writes([ck, fields, tmp_path / "missing"])
    assert sorted(p.name for p, _ in found) == sorted([p.name for p in ours] + ["ckpt_000000035.h5.tmp"])
    assert all(size >= 10000 for p, size in found if p.name != "ckpt_000000035.h5.tmp")
    removed, freed, failed = files.remove_interrupted_writes([ck, fields])
    assert len(removed) == 5 and freed >= 40000 and failed == []
    assert not any(os.path.lexists(p) for p in ours + [ck / "ckpt_000000035.h5.tmp"])
    assert all(p.read_bytes() == b"keep" for p in others) and target.read_text() == "keep"
    assert (ck / "ckpt_000000099.h5.tmp").is_dir()
    assert files.remove_interrupted_writes([ck, fields]) == ([], 0, [])


def test_a_temporary_that_cannot_be_removed_is_one_line(tmp_path, monkeypatch):
    (tmp_path / "ckpt_000000025.h5.tmp").write_bytes(b"x")

    def refuse(p):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "unlink", refuse)
    removed, freed, failed = files.remove_interrupted_writes([tmp_path])
    assert removed == [] and failed == [f"{tmp_path / 'ckpt_000000025.h5.tmp'}: Permission denied"]


def test_a_held_run_folder_is_never_made_again_only_the_folders_below_it(tmp_path):
    """make_folder with the run's hold: the folders below the run's folder are made (with their parents below it),
    a folder elsewhere (a path the user chose) with all its parents; the run's folder itself, removed, is one
    WriteError saying so, never made again at its path (a folder without the run's lock)."""
    import shutil

    import pytest

    from distlbm.io import lock

    run = tmp_path / "run"
    held = lock.acquire(run, wait=0)
    try:
        files.make_folder(run / "fields" / "slice_x3", held)
        files.make_folder(run, held)
        assert (run / "fields" / "slice_x3").is_dir()
        files.make_folder(tmp_path / "elsewhere" / "deep", held)
        assert (tmp_path / "elsewhere" / "deep").is_dir()
        shutil.rmtree(run)
        for folder in (run, run / "checkpoints", run / "images" / "deep"):
            with pytest.raises(files.WriteError) as e:
                files.make_folder(folder, held)
            assert str(e.value) == (f"writing {run} failed: the run's folder was moved or removed while the run wrote "
                                    f"to it (removed); expected it where the run started: move it back, and the run "
                                    f"goes on at its next write")
            assert not run.exists()
        files.make_folder(run / "checkpoints")  # no hold (a run that holds no folder): made with its parents
        assert (run / "checkpoints").is_dir()
    finally:
        held.release()
