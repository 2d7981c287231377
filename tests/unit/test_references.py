"""The published references the cases judge against, read from distlbm/cases/data (copies of the project's
shared/reference/): the sphere's drag correlations between the table's rows follow the file's own piecewise
definitions (shared/reference/sphere_drag_reference.csv, header)."""

from __future__ import annotations

import pytest

from distlbm.cases.obstacles.benchmarks import sphere_reference


@pytest.mark.parametrize("re,cgw,sn", [
    # Clift-Grace-Weber 260 < Re <= 1500: 10^(1.6435 - 1.1242 w + 0.1558 w^2) (the 20..260 branch gave
    # 0.5675 at 400 and 0.3857 at 1000: 4 % and 18 % low); Schiller-Naumann 0.44 above Re 1000 (0.3455 at 2000)
    (400.0, 0.5931, 0.6119), (1000.0, 0.4711, 0.4383), (2000.0, None, 0.44),
    (0.005, 24 / 0.005 + 3 / 16, 24 / 0.005 * (1 + 0.15 * 0.005 ** 0.687)),  # CGW below Re 0.01: 24/Re + 3/16
    (30.0, 24 / 30 * (1 + 0.1935 * 30 ** 0.6305), 24 / 30 * (1 + 0.15 * 30 ** 0.687)),
])
def test_sphere_drag_between_rows_follows_the_files_formulas(re, cgw, sn):
    ref = sphere_reference(re)
    assert ref["Cd_SchillerNaumann"] == pytest.approx(sn, abs=5e-5)
    if cgw is None:
        assert ref["Cd_Clift_CGW"] is None  # the file defines CGW up to Re 1500: no reference, not judged
    else:
        assert ref["Cd_Clift_CGW"] == pytest.approx(cgw, abs=5e-5, rel=1e-6)


@pytest.mark.parametrize("re", [0.1, 1.0, 20.0, 100.0, 300.0])
def test_the_formulas_give_the_tables_rows(re):
    """The table's rows are the formulas rounded to 4 decimals: the formulas, slightly off a row, agree."""
    row, near = sphere_reference(re), sphere_reference(re * (1 - 1e-5))  # below: Re 20 ends a CGW branch
    assert "Cd_Stokes_24_over_Re" in row and "Cd_Stokes_24_over_Re" not in near  # a row, then the formulas
    for key in ("Cd_SchillerNaumann", "Cd_Clift_CGW"):
        assert near[key] == pytest.approx(row[key], abs=1e-4, rel=2e-5)


def test_every_cited_reference_is_a_file_of_this_repository():
    """`distlbm cases` and the checks of a summary named 'shared/reference/...csv': the project's shared folder, which a
    user's checkout does not hold. They now name the copy a checkout has (distlbm/cases/data/), and it exists."""
    import re
    from pathlib import Path

    from distlbm.cases import CASES

    repo = Path(__file__).resolve().parents[2]
    cited = set()
    for case in CASES.values():
        text = str(getattr(case, "reference", ""))
        assert "shared/reference/" not in text, (case.name, text)
        cited |= set(re.findall(r"distlbm/cases/data/[\w.]+", text))
    assert len(cited) >= 5, cited
    for path in cited:
        assert (repo / path).is_file(), path
