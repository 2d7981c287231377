"""The validation suite (distlbm/validation.py, scripts/validate.py): check records, the registry, and a
reduced run of two cheap entries that writes the markdown table and the PNG plots."""

from __future__ import annotations

import json
import math

import pytest

from distlbm.cases.base import check
from distlbm import validation as V
from helpers import run_case


def test_check_records():
    c = check("x", 1.01, 1.0, tolerance=0.02)
    assert c["error"] == pytest.approx(0.01) and c["error_kind"] == "relative" and c["pass"] is True
    assert set(c) >= {"quantity", "value", "reference", "lower", "upper", "error", "tolerance", "pass", "source"}
    assert check("x", 1.05, 1.0, tolerance=0.02)["pass"] is False
    assert check("x", 0.3, 0.0, tolerance=0.2, relative=False)["pass"] is False
    assert check("cD", 5.58, 5.5795, lower=5.57, upper=5.59)["pass"] is True  # bounds decide, error reported
    assert check("cD", 5.60, 5.5795, lower=5.57, upper=5.59)["pass"] is False
    assert check("psi_min", -0.118)["pass"] is None  # no reference: reported, not judged
    assert check("x", math.nan, 1.0, tolerance=0.1)["pass"] is False
    assert check("x", 1.0, at={"y": 0.5})["at"] == {"y": 0.5}


def test_registry_selection_and_list(capsys):
    names = [e.name for e in V.ENTRIES]
    assert len(names) == len(set(names))
    assert [e.name for e in V.select(["duct"])] == ["duct"]  # an entry name wins over the case name
    assert {e.name for e in V.select(["cavity2d"])} == {"cavity2d_re100", "cavity2d_re400", "cavity2d_re1000"}
    with pytest.raises(SystemExit):
        V.select(["no_such_case"])
    conv = V.select(["duct"])[0]
    assert [r["n"] for r in conv.runs(reduced=True)] == list(conv.reduced_values)
    assert V.main(["--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert "cavity2d_re1000" in "\n".join(listed)
    # one line per entry in columns that line up: each entry's case starts where every other's does
    assert [line.split()[0] for line in listed] == names
    starts = {line.index(" " + e.case + " ", len(e.name)) for line, e in zip(listed, V.ENTRIES)}
    assert len(starts) == 1, starts


def test_cavity_checks_and_flags():
    """Re 100: every interior Ghia point is compared (the Re10000 flag at y = 0.5 is not Re 100's);
    Re 400: the flagged x = 0.9063 point is excluded; another Re: reported without pass/fail."""
    s100, _ = run_case("cavity2d", n=32, re=100.0, t_end=1.0)
    ghia = s100["observables"]["ghia"]
    assert not any(p["flagged"] for p in ghia["u"]["points"] + ghia["v"]["points"])
    checks = s100["observables"]["checks"]
    assert [c["pass"] for c in checks[:2]] == [False, False]  # far from steady: fails the 0.02 criterion
    s400, _ = run_case("cavity2d", n=32, re=400.0, t_end=0.5)
    flagged = [p["x"] for p in s400["observables"]["ghia"]["v"]["points"] if p["flagged"]]
    assert flagged == [0.9063]
    assert s400["observables"]["checks"][1]["excluded_flagged"] == [0.9063]
    s250, _ = run_case("cavity2d", n=32, re=250.0, t_end=0.5)
    rows = s250["observables"]["checks"]
    assert any("primary vortex centre x" in c["quantity"] for c in rows)
    assert all(c["pass"] is None for c in rows if not c["quantity"].startswith("steady"))
    assert all("no Ghia table" in c["source"] for c in rows if not c["quantity"].startswith("steady"))


def test_reduced_suite_writes_table_and_plots(tmp_path):
    out = tmp_path / "validation.md"
    results = V.run_suite(["couette", "duct"], reduced=True, out=out, log=lambda m: None)
    assert [r.name for r in results] == ["couette", "duct"]
    for r in results:
        assert r.checks and all(c["pass"] is not False for c in r.checks), r.checks
    duct = results[1]
    assert duct.convergence["order"] == pytest.approx(2.0, abs=0.3)
    text = out.read_text()
    assert "| case | resolution | quantity | value | reference | error | pass |" in text
    assert "Written by `scripts/validate.py` on " in text and "(entries couette, duct only, reduced resolutions; " in text
    rows = [ln for ln in text.splitlines() if ln.startswith("| couette |") or ln.startswith("| duct |")]
    assert len(rows) >= 2 + 3 * 3 and not any("FAIL" in ln for ln in rows)
    assert "observed order" in text and "total wall time" in text
    pngs = sorted(p.name for p in (tmp_path / "validation").glob("*.png"))
    assert pngs == ["duct_convergence.png", "duct_profile.png"]
    for p in pngs:
        assert (tmp_path / "validation" / p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"(validation/{p})" in text
    data = json.loads(out.with_suffix(".json").read_text())
    assert data["reduced"] and [e["name"] for e in data["entries"]] == ["couette", "duct"]
    # the suite's other entries are listed as not run (with why), in the report and its JSON
    others = [e.name for e in V.ENTRIES if e.name not in ("couette", "duct")]
    assert [x["name"] for x in data["not_run"]] == others and {x["why"] for x in data["not_run"]} == {"not selected"}
    assert f"Not in this report ({len(others)} of the suite's {len(others) + 2} entries): " in text


def test_a_reduced_run_that_runs_nothing_says_so_and_fails(tmp_path, capsys):
    """`--reduced --case sphere` ran nothing (no sphere entry is in the reduced suite), wrote "0 of 0 judged
    checks pass" and exited 0; the reduced suite's report did not name the 8 entries it leaves out."""
    out = tmp_path / "v.md"
    assert V.main(["--reduced", "--case", "sphere", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "validate: nothing was run: sphere is not in the reduced suite" in err
    text = out.read_text()
    assert "nothing was run" in text
    spheres = [e.name for e in V.ENTRIES if e.case == "sphere" and not e.long]
    assert spheres and all(f"{name} (not in the reduced suite)" in text for name in spheres)


def test_a_selection_leaves_the_full_reports_alone(tmp_path, monkeypatch):
    """`scripts/validate.py --case couette`, as the README shows it, replaced docs/validation.md (63 rows of the
    78-minute full suite) by its one entry's rows, headed "full suite". A selection without --out writes
    out/validation/validation.md, and its header names the entries."""
    monkeypatch.chdir(tmp_path)
    docs = tmp_path / "docs" / "validation.md"
    docs.parent.mkdir()
    docs.write_text("# Validation\n\nthe full suite's rows\n")
    assert V.main(["--case", "couette"]) == 0
    assert docs.read_text() == "# Validation\n\nthe full suite's rows\n"
    assert not (tmp_path / "docs" / "validation.json").exists()
    text = (tmp_path / "out" / "validation" / "validation.md").read_text()
    assert "\nWritten by `scripts/validate.py --case couette` on " in text and "full suite" not in text
    assert "(entries couette only, full resolutions; " in text and " CPU cores, JAX " in text
    assert [e["name"] for e in json.loads((tmp_path / "out" / "validation" / "validation.json").read_text())["entries"]] \
        == ["couette"]


def test_the_hand_written_part_survives_a_new_report(tmp_path):
    out = tmp_path / "validation.md"
    out.write_text("# Validation\n\nold table\n\n" + V.KEEP_MARKER + "\n\n## Measured by hand\n\nnumbers\n")
    for _ in range(2):
        V.write_markdown([], out, reduced=True, total_s=0.0)
    text = out.read_text()
    assert "old table" not in text and text.count(V.KEEP_MARKER) == 1
    assert text.endswith(V.KEEP_MARKER + "\n\n## Measured by hand\n\nnumbers\n")


def test_the_duct_on_d3q27_reports_what_its_rule_was_not_calibrated_for(cli, tmp_path):
    """The duct's tolerance rule is calibrated on D3Q19 (and TRT at Lambda = 3/16): D3Q27 with BGK, second order
    but 1.0-2.9 times the rule, failed at every resolution. It is reported, not judged; TRT is judged and passes."""
    from helpers import run_case

    s, _ = run_case("duct", lattice="D3Q27", n=8)
    checks = {c["quantity"]: c for c in s["observables"]["checks"]}
    err = checks["u_x(y,z): relative L2 error vs the series"]
    assert err["pass"] is None and err["tolerance"] is None and "reported, not judged" in err["note"]
    assert 0 < err["value"] < 3.5 / 64  # second order, near 1.6 / n^2 at tau = 0.8
    s, _ = run_case("duct", lattice="D3Q27", n=8, collision="trt")
    assert all(c["pass"] for c in s["observables"]["checks"])
    # the run's lines say why it is not judged, once (a reported check said "(reported)" alone: taylor_green3d's
    # "time of the peak 2.00277 (reference 8.97) (reported)" of a run that ended before the peak)
    rc, out, err = cli("run", "duct", "--set", "lattice=D3Q27", "--set", "n=8", "--out", tmp_path)
    assert rc == 0, err
    assert out.count("(reported: the tolerance rule (2 |16 Lambda - 3| / 3 + 1/2) / n^2 is calibrated on D3Q19") == 1
    assert "(reported: as above)" in out, out


def test_the_duct_on_d3q27_regularized_names_its_own_rule():
    """The regularized collision has no Lambda: its rule is 4 / n^2. On D3Q27 its note said "the tolerance rule
    (2 |16 Lambda - 3| / 3 + 1/2) / n^2 ... D3Q27 with this collision measured 1.0-2.9 times it", BGK's figures;
    measured 0.0099 = 0.16 x 4 / n^2 at n = 8, tau = 0.8 (0.92 and 0.96 x at tau = 1.5, 0.55). Reported, not judged,
    with the rule it was measured against."""
    from helpers import run_case

    s, _ = run_case("duct", lattice="D3Q27", n=8, collision="regularized")
    err = {c["quantity"]: c for c in s["observables"]["checks"]}["u_x(y,z): relative L2 error vs the series"]
    assert err["pass"] is None and "reported, not judged" in err["note"]
    assert "4 / n^2 of the regularized collision" in err["note"] and "Lambda" not in err["note"], err["note"]
    # the taus measured (0.16 at 0.8, 0.92 at 1.5, 0.96 at 0.55), not a range "0.8-0.55" that leaves 1.5 out
    assert "0.16-0.96 times it at n = 8 (tau 0.8, 1.5, 0.55)" in err["note"], err["note"]
    assert 0 < err["value"] < 0.5 * 4 / 64, err["value"]


@pytest.mark.parametrize("sets,loose", [({"tau": 10.0}, 3.75), ({"n": 2}, 0.385)])
def test_the_duct_does_not_judge_with_a_tolerance_that_cannot_fail(sets, loose):
    """The duct's rule (2 |16 Lambda - 3| / 3 + 1/2) / n^2 grows as (tau - 1/2)^2 with BGK and as 1/n^2: at tau = 10
    it passed a field 157 % off the series (tolerance 375 %), at n = 2 one 23 % off (38 %). Looser than 10 %, the
    checks are reported with the rule's value, not judged. At tau = 10 the run was also cut at step 74 (18 e-fold
    times of 4 steps, shorter than the collision's own relaxation), far from steady: it now runs 18 x tau steps.
    (analytic: Poiseuille_square_duct in shared/reference/analytic_reference_solutions.csv)"""
    from helpers import run_case

    s, sim = run_case("duct", **sets)
    checks = {c["quantity"]: c for c in s["observables"]["checks"]}
    for q in ("u_x(y,z): relative L2 error vs the series", "max u_x over the cell centres vs the series at the same "
              "points"):
        c = checks[q]
        assert c["pass"] is None and c["tolerance"] is None, c
        assert f"gives {loose:.3g} here" in c["note"] and "looser than 0.1: reported, not judged" in c["note"]
    assert checks["u_x(y,z): relative L2 error vs the series"]["value"] > 0.1  # what it would have passed
    if "tau" in sets:
        assert s["steps"] == 180 and sim.setup.steady_every == 10
    s, _ = run_case("duct", n=4)  # 6 % off, within 9.6 %: judged
    assert all(c["pass"] for c in s["observables"]["checks"])


def test_a_failed_check_reads_over_its_tolerance(capsys):
    """The run's line of a failed check read "absolute error 0.374 <= 0.02 FAIL": true as written, but false."""
    from distlbm.cases.base import check
    from distlbm.cli import _print_result

    checks = [check("u(y)", 0.374, 0.0, tolerance=0.02, relative=False, source="s"),
              check("v(x)", 0.01, 0.0, tolerance=0.02, relative=False, source="s")]
    _print_result({"steps": 1, "wall_time_s": 1.0, "mlups": 1.0, "relative_mass_drift": 0.0,
                   "observables": {"checks": checks}})
    out = capsys.readouterr().out
    assert "  u(y): 0.374 (reference 0, absolute error 0.374 > 0.02) FAIL\n" in out, out
    assert "  v(x): 0.01 (reference 0, absolute error 0.01 <= 0.02) PASS\n" in out, out


def test_a_float64_entry_leaves_the_next_float32_entry_as_distlbm_run_gives_it():
    """run_one turned on 64-bit JAX for a float64 entry and left it on: a float32 entry after it gave other digits
    than `distlbm run` (taylor_green3d: 9.249258e-08 after couette, 9.249197e-08 alone). The flag is restored."""
    import jax

    before = bool(jax.config.jax_enable_x64)  # (an earlier test in this process may have turned it on)
    jax.config.update("jax_enable_x64", False)
    try:
        V.run_one("couette", {"n": 4, "dtype": "float64"})
        assert not jax.config.jax_enable_x64
    finally:
        jax.config.update("jax_enable_x64", before)


def test_the_long_entries_run_only_when_named():
    """The full suite held schaefer_turek_3d1z_convergence (D = 30: about 6 h on a CPU), which the published
    report never ran: the README's "full suite (82 min)" was not what it ran. Long entries run only when named."""
    full = [e.name for e in V.select([])]
    assert "schaefer_turek_3d1z_convergence" not in full and "taylor_green3d_re1600" in full
    assert [e.name for e in V.select(["schaefer_turek_3d1z"])] == ["schaefer_turek_3d1z"]
    assert [e.name for e in V.select(["schaefer_turek_3d1z_convergence"])] == ["schaefer_turek_3d1z_convergence"]


def _result(name):
    """An entry's result made here, without a run: one passing check."""
    c = dict(check(f"{name}: a quantity", 1.0, 1.0, tolerance=0.1), resolution="2×4")
    return V.EntryResult(name, name, checks=[c], runs=[V.Run({"n": 4}, error="not run: a test")], wall_s=1.0)


def _couette_report(tmp_path):
    """(markdown, JSON) of a report of couette alone, as scripts/validate.py writes them."""
    md, js = tmp_path / "validation.md", tmp_path / "validation.json"
    V.write_markdown([_result("couette")], md, reduced=True, total_s=1.0)
    js.write_text(json.dumps(V._jsonable([_result("couette")], 1.0, True)))
    return md, js


def test_merge_adds_the_named_entries_to_a_report_and_leaves_the_rest_alone(tmp_path, capsys):
    """Entries added to the suite after its last full run (78 min) had no way into docs/validation.md but by hand:
    `--case NAME` wrote a separate report. `--case NAME --merge JSON` runs them and puts their rows, wall times and
    sections into JSON and the report beside it, in the suite's order; every other line stays as it was."""
    md, js = tmp_path / "validation.md", tmp_path / "validation.json"
    V.run_suite(["couette"], reduced=True, out=md, log=lambda m: None)
    hand_row = "| couette | 2×18 | a row edited by hand | 1 | 0 | — | PASS |"
    text = md.read_text()
    old_row = next(ln for ln in text.splitlines() if ln.startswith("| couette |"))
    text = text.replace(old_row, hand_row).replace("\n\n**", "\n\nA sentence written by hand.\n\n**", 1)
    text = text.replace(" min).\n", " min). Prose by hand after the counts.\n", 1)  # docs/validation.md has some
    md.write_text(text + "\n" + V.KEEP_MARKER + "\n\n## Measured by hand\n\nnumbers\n")
    before = md.read_text().splitlines()
    for _ in range(2):  # merging the same entry again replaces its rows, it does not add them twice
        assert V.main(["--reduced", "--case", "poiseuille_bgk", "--merge", str(js)]) == 0
    after = md.read_text()
    lines = after.splitlines()
    rows = [ln for ln in lines if ln.startswith("| poiseuille_bgk |") or ln.startswith("| couette |")]
    assert len(rows) == 4 and rows[0].startswith("| poiseuille_bgk | 2×18 | ") and rows[0].endswith(" | PASS |")
    assert rows[1] == hand_row and rows[2].startswith("| poiseuille_bgk | poiseuille | 1 | ")
    assert rows[3] == next(ln for ln in before if ln.startswith("| couette | couette | 1 | "))
    assert "A sentence written by hand." in after and after.endswith(V.KEEP_MARKER + "\n\n## Measured by hand\n\nnumbers\n")
    assert "**2 of 2 judged checks pass** (2 rows)" in after and " min). Prose by hand after the counts.\n" in after
    assert after.count("### poiseuille_bgk") == 1 and after.index("### poiseuille_bgk") < after.index("### couette")
    assert after.count("Merged on ") == 1 and "`scripts/validate.py --reduced --case poiseuille_bgk --merge " in after
    assert "(entries poiseuille_bgk, reduced resolutions; " in after
    # the lines that were not the merged entry's, the counts and the suite's absences are as they were
    gone = [ln for ln in before if ln not in lines]
    assert all(ln.startswith("**") or ln.startswith("Not in this report") or ln.startswith("| **total**")
               for ln in gone), gone
    others = [e.name for e in V.ENTRIES if e.name not in ("couette", "poiseuille_bgk")]
    assert f"Not in this report ({len(others)} of the suite's {len(others) + 2} entries): cavity2d_re100 " in after
    assert "poiseuille_bgk (not selected)" not in after
    data = json.loads(js.read_text())
    assert [e["name"] for e in data["entries"]] == ["poiseuille_bgk", "couette"]
    assert "merged" in data["entries"][0]["rerun"] and "rerun" not in data["entries"][1]
    assert [x["name"] for x in data["not_run"]] == others


def test_merge_needs_a_named_entry_and_a_report_to_merge_into(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        V.main(["--merge", str(tmp_path / "validation.json")])
    assert "--merge needs --case NAME" in str(e.value)
    with pytest.raises(SystemExit) as e:
        V.main(["--reduced", "--case", "couette", "--merge", str(tmp_path / "validation.json")])
    assert "--merge" in str(e.value) and "validation.json" in str(e.value) and "no such file" in str(e.value)


def test_merging_the_same_entries_again_in_another_order_replaces_the_paragraph(tmp_path):
    """`--case a --case b --merge` after `--case b --case a --merge` added a second "Merged on" paragraph naming
    the same entries (results made here, no run)."""
    md, _ = _couette_report(tmp_path)
    for names in (["couette", "poiseuille_bgk"], ["poiseuille_bgk", "couette"]):
        V.merge_report([_result(n) for n in names], md.with_suffix(".json"), md, reduced=True)
    text = md.read_text()
    assert text.count("Merged on ") == 1 and "(entries poiseuille_bgk, couette, reduced resolutions; " in text
    assert "**2 of 2 judged checks pass** (2 rows)" in text


@pytest.mark.parametrize("edit", ["counts", "wall_row", "json"])
def test_merge_refuses_a_report_it_cannot_merge_into_before_it_runs_anything(tmp_path, monkeypatch, edit):
    """A report whose counts line, a wall-time row or JSON was edited by hand so that --merge cannot read it was
    found only after the named entries had run (taylor_green3d_re1600: ~15 min) and their results were lost: the
    counts line's SystemExit, or a ValueError / JSONDecodeError traceback. It is refused before any run."""
    md, js = _couette_report(tmp_path)
    text = md.read_text()
    if edit == "counts":
        text = text.replace("judged checks pass** (1 rows)", "judged checks pass** (one row)")
    elif edit == "wall_row":
        text = text.replace("| couette | couette | 1 | 1.0 |", "| couette | couette | 1 | 1.0 (by hand) |")
    else:
        js.write_text(js.read_text()[:-3])
    assert text != md.read_text() or edit == "json"
    md.write_text(text)
    ran = []
    monkeypatch.setattr(V, "run_entry", lambda e, *a, **k: ran.append(e.name) or _result(e.name))
    with pytest.raises(SystemExit) as e:
        V.main(["--reduced", "--case", "poiseuille_bgk", "--merge", str(js)])
    assert ran == [] and str(e.value).startswith("validate: --merge: ")
    assert {"counts": "counts line", "wall_row": "1.0 (by hand)", "json": str(js)}[edit] in str(e.value)


def test_merge_leaves_the_lines_written_by_hand_after_the_table_as_they_were(tmp_path):
    """Text written by hand between the checks' table and '## Wall time' came back with a blank line after each of
    its lines: a paragraph of two lines became two paragraphs and a table there three lines that are no table."""
    md, js = _couette_report(tmp_path)
    text = md.read_text()
    hand = "A note by hand on two lines,\nthe second one here.\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n"
    md.write_text(text.replace("## Wall time", hand + "## Wall time", 1))
    for names in (["poiseuille_bgk"], ["couette"]):  # a Not-in-this-report line made, then one replaced
        V.merge_report([_result(n) for n in names], js, md, reduced=True)
        after = md.read_text()
        assert after.count("\n" + hand + "## Wall time\n") == 1, after
        assert after.count("Not in this report (") == 1
        line = next(ln for ln in after.splitlines() if ln.startswith("Not in this report ("))
        assert f"\n\n{line}\n\n{hand}## Wall time" in after and "poiseuille_bgk (" not in line


def test_merge_keeps_a_paragraph_written_by_hand_at_the_top_of_the_entries(tmp_path):
    """A paragraph written by hand between '## Entries' and the first entry's section was taken for an entry of no
    known place, after every other, so each merged section went before it, at the top of the entries."""
    md, js = _couette_report(tmp_path)
    md.write_text(md.read_text().replace("## Entries\n\n", "## Entries\n\nThe runs, by hand.\n\n", 1))
    V.merge_report([_result("poiseuille_bgk")], js, md, reduced=True)
    after = md.read_text()
    assert "## Entries\n\nThe runs, by hand.\n\n### poiseuille_bgk\n" in after, after
    assert after.index("### poiseuille_bgk") < after.index("### couette")



def test_an_entry_s_references_name_each_source_once_with_what_its_checks_add(tmp_path):
    """The "References:" line listed each check's source string: a source with a suffix added by a check (the
    formula it computes, "(reported)", "; reported (...)") was listed again in full for each (taylor_green3d_re1600
    named the spectral DNS file three times, the sphere entries their CSV twice). Each distinct source once, with the
    suffixes its checks add after it; a source that starts another's name alone (TGV2Dx) is another."""
    spec = "distlbm/cases/data/spectral_Re1600_512.gdiag (van Rees 2011 (512^3 DNS))"
    sources = ["analytic: TGV3D_Re1600 (r.csv)", spec, spec, f"{spec}: sqrt(int (eps - eps_ref)^2 dt / int eps_ref^2 dt)",
               f"{spec}: max |eps - eps_ref| / max eps_ref (reported)", "sphere.csv", "sphere.csv (reported)",
               "analytic: TGV2D (r.csv)", "analytic: TGV2D (r.csv); reported (second order: see the convergence study)",
               "analytic: TGV2Dx"]
    summary = {"observables": {"checks": [check("q", 1.0, source=x) for x in sources]}, "shape": [8, 8],
               "parameters": {"lattice_units": {"tau": 0.6, "mach": 0.05}}, "lattice": "D2Q9", "collision": "bgk",
               "dtype": "float32", "steps": 10}
    r = V.EntryResult("e", "taylor_green3d", runs=[V.Run({}, summary=summary)])
    refs = next(x for x in V._entry_lines(r, tmp_path / "v.md") if x.startswith("References:"))
    assert refs == ("References: analytic: TGV2D (r.csv) [also: reported (second order: see the convergence study)]; "
                    "analytic: TGV2Dx; analytic: TGV3D_Re1600 (r.csv); "
                    f"{spec} [also: max \\|eps - eps_ref\\| / max eps_ref (reported); "
                    "sqrt(int (eps - eps_ref)^2 dt / int eps_ref^2 dt)]; sphere.csv [also: reported]."), refs
