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
