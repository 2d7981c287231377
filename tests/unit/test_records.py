"""driver.records.SampleRecords: a run's sample records in float64 columns, read back as the dicts they were."""

from __future__ import annotations

import json
import math
import tracemalloc

import pytest

from distlbm.driver.records import SampleRecords


def _recs():
    return [
        {"step": 1, "time": 0.0015625, "cD": 0.0, "cL": -0.0, "dP": 1e-300},
        {"step": 2, "time": 0.003125, "cD": float("nan"), "cL": float("inf"), "dP": -2.5},
        {"step": 3, "time": 0.0046875, "energy": 0.125},  # another layout
        {"step": 4, "time": 0.00625, "cD": 5.5, "cL": 0.1, "dP": 3.0},  # the first layout again
        {"step": 5, "time": 0.5, "steady": True},  # a bool is no number here: kept as it is
        {"step": 6, "time": 0.5, "p_pt1": None, "note": "inside a body"},
        {"step": 2 ** 60, "time": 1.0},  # beyond 2**53: not exact in float64, kept as it is
        {"step": -7, "time": 2.0, "n": 2 ** 53},
        {},
    ]


def _same(a, b):
    """Equal dicts, key order and types included, NaN equal to NaN."""
    assert list(a) == list(b), (a, b)
    for k in a:
        x, y = a[k], b[k]
        assert type(x) is type(y), (k, x, y)
        if isinstance(x, float) and math.isnan(x):
            assert math.isnan(y)
        else:
            assert x == y and (not isinstance(x, float) or math.copysign(1, x) == math.copysign(1, y)), (k, x, y)


def test_records_read_back_as_they_were():
    recs = _recs()
    s = SampleRecords(recs[:3])
    s.extend(recs[3:5])
    for r in recs[5:]:
        s.append(r)
    assert len(s) == len(recs) and bool(s) and not SampleRecords()
    for i, r in enumerate(recs):
        _same(s[i], r)
        _same(s[i - len(recs)], r)
    for got, r in zip(s, recs):
        _same(got, r)
    for sl in (slice(None), slice(-3, None), slice(2, 7, 2), slice(None, None, -1), slice(50, 60)):
        got = s[sl]
        assert isinstance(got, list) and len(got) == len(recs[sl])
        for a, b in zip(got, recs[sl]):
            _same(a, b)
    clean = [r for r in recs if not any(isinstance(v, float) and math.isnan(v) for v in r.values())]
    assert SampleRecords(clean) == clean and clean == SampleRecords(clean) and SampleRecords(clean) != clean[:-1]
    assert json.dumps(list(SampleRecords(clean))) == json.dumps(clean)
    with pytest.raises(IndexError):
        s[len(recs)]
    with pytest.raises(IndexError):
        s[-len(recs) - 1]


def test_a_record_read_is_a_copy():
    s = SampleRecords([{"step": 1, "cD": 2.0}, {"step": 2, "ok": True}])
    a, b = s[0], s[1]
    a["cD"] = 9.0
    b["ok"] = False
    a.pop("step")
    assert s[0] == {"step": 1, "cD": 2.0} and s[1] == {"step": 2, "ok": True}


def test_a_long_series_takes_its_values_bytes_not_a_dict_per_record():
    """200,000 records of seven numbers (a 2D channel sampled every step for ~10 minutes): a list of dicts took ~600
    bytes per record; the columns take 8 per value and 12 per record."""
    n = 200_000

    def rec(i):
        return {"step": i, "time": i * 1e-3, "cD": 3.2 + i * 1e-9, "cL": 1e-3 * (i % 7), "p_front": 0.1 * i,
                "p_back": 0.05 * i, "dP": 0.05 * i}

    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        s = SampleRecords(rec(i) for i in range(n))
        held = tracemalloc.get_traced_memory()[0] - base
        as_dicts = [rec(i) for i in range(20_000)]
        dict_bytes = (tracemalloc.get_traced_memory()[0] - base - held) / 20_000
    finally:
        tracemalloc.stop()
    per = held / n
    assert per < 100, per  # 7 x 8 + 12, and the arrays' spare capacity
    assert dict_bytes > 4 * per, (dict_bytes, per)
    assert s.nbytes() == n * (7 * 8 + 12)
    assert s[-1] == rec(n - 1) and s[12345] == rec(12345) and len(as_dicts) == 20_000


def test_the_summary_reads_a_long_series_one_record_at_a_time():
    """The readers of a long series at the summary (Schaefer-Turek 2D-2's Strouhal number and extremes over the second
    half, the Taylor-Green initial dissipation fit) made a dict of every record they read at once (a slice, a list
    comprehension): ~470 B per record at the end of the run, what the columns save. Their values are the same
    as over a list of the records."""
    from distlbm.cases.obstacles.benchmarks import SchaeferTurek2D2
    from distlbm.cases.taylor_green import initial_fit
    from distlbm.lattice import get_lattice

    n = 60_000

    def rec(i):
        return {"step": i, "time": i * 1e-3, "cD": 3.2 + i * 1e-9, "cL": math.sin(i * 0.01), "p_front": 0.1 * i,
                "p_back": 0.05 * i, "dP": 0.05 * i}

    class View:
        class setup:
            units = {"mach": 0.1}
            shape = (441, 82)
            lattice = get_lattice("D2Q9")

    case = SchaeferTurek2D2()
    params = {q.name: q.default for q in case.params}
    view = View()
    view.params = params
    view.samples = SampleRecords(rec(i) for i in range(n))
    energy = SampleRecords({"step": i, "time": i * 1e-3, "energy": 1.0 - i * 1e-6} for i in range(n))
    tracemalloc.start()
    try:
        out = case.observe(view, params)
        peak_observe = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        fit = initial_fit(energy, True)
        peak_fit = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak_observe / n < 60, peak_observe / n
    assert peak_fit / n < 10, peak_fit / n
    view.samples = [rec(i) for i in range(n)]
    assert out["shedding"] == case.observe(view, params)["shedding"] and out["shedding"]["periods_measured"] > 10
    assert fit == initial_fit(list(energy), True) and fit[:2] == (1, 21)


def test_a_restart_reads_its_samples_line_by_line(tmp_path):
    """callbacks.load_samples read samples.jsonl whole and split it into lines (twice the file at once); it now reads
    line by line into the columns: the records up to the restart's step, each step once, a line cut short by a kill
    left out, as iter_records_upto reads them."""
    from distlbm.driver.callbacks import load_samples
    from distlbm.io.results import iter_records_upto

    lines = [json.dumps({"step": s, "time": s * 0.5, "cD": 1.0 + s}) + "\n" for s in (1, 2, 3, 3, 4, 6)]
    data = "".join(lines).encode() + b'{"step": 7, "time": 3.'  # (cut short by a kill)
    path = tmp_path / "samples.jsonl"
    path.write_bytes(data)
    got = load_samples(path, 4)
    assert isinstance(got, SampleRecords) and [r["step"] for r in got] == [1, 2, 3, 4]
    assert list(got) == [rec for _, rec in iter_records_upto(data, 4)]
    assert [r["step"] for r in load_samples(path, 100)] == [1, 2, 3, 4, 6]
    assert len(load_samples(tmp_path / "none.jsonl", 4)) == 0
