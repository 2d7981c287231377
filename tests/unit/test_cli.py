"""The `distlbm` command line: run, cases, bench, info, and clean configuration errors."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from distlbm.cases import CASES
from distlbm.config import COMMON_PARAMS

ERR_PREFIX = "distlbm: configuration error:"
REPO = Path(__file__).resolve().parents[2]


def assert_clean_error(rc, out, err, *parts):
    assert rc == 2, (rc, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(ERR_PREFIX), err
    assert "Traceback" not in err and "Traceback" not in out
    for p in parts:
        assert p in lines[0], (p, lines[0])


# --- configuration errors ----------------------------------------------------------------------------

@pytest.mark.parametrize("args,parts", [
    (["run", "cavity2d", "--set", "rey=100"], ["'rey'", "'re'"]),
    (["run", "cavity2d", "--set", "u_lid=0.2"], ["u_lid = 0.2", "Mach"]),
    (["bench", "--lattice", "D2Q9", "--size", "32", "--dtype", "float8"], ["--dtype", "'float8'", "float16"]),
])
def test_config_error_subprocess_exits_2_with_one_line(module_cli, args, parts):
    r = module_cli(*args)
    assert_clean_error(r.returncode, r.stdout, r.stderr, *parts)


@pytest.mark.parametrize("args,parts", [
    (["run", "cavty2d"], ["'cavty2d'", "did you mean 'cavity2d'"]),
    (["run", "cavity2d", "--set", "n=0"], ["n = 0", "positive"]),
    (["run", "cavity2d", "--set", "lattice=D3Q19"], ["lattice = 'D3Q19'", "D2Q9"]),
    (["run", "cavity2d", "--set", "x"], ["'x'", "key=value"]),
    (["run", "poiseuille", "--set", "tau=0.5"], ["tau = 0.5", "expected tau > 0.5"]),
    (["run", "cavity2d", "--steps", "-3"], ["steps = -3", ">= 0"]),
    (["run", "nope.toml"], ["nope.toml", "not found"]),
    (["bench", "--lattice", "D2Q9", "--size", "0"], ["--size = 0", "positive"]),
    (["bench", "--lattice", "D2Q9", "--size", "8", "--steps", "0"], ["--steps = 0", "positive"]),
    (["bench", "--lattice", "D3Q15", "--size", "8"], ["--lattice = 'D3Q15'", "D3Q19"]),
    (["bench", "--lattice", "D2Q9", "--size", "8", "--collision", "mrt"], ["--collision = 'mrt'", "bgk"]),
    (["info", "--lattice", "D3Q19"], ["--lattice", "--size"]),
    (["info", "--size", "64"], ["--lattice", "--size"]),
    (["info", "--lattice", "D3Q19", "--size", "-1"], ["--size = -1", "positive"]),
    (["info", "--lattice", "D4Q9", "--size", "8"], ["--lattice = 'D4Q9'"]),
    (["info", "--lattice", "D3Q19", "--size", "8x8"], ["--size = 8x8: 2 sides for the 3D lattice D3Q19; expected 3 "
                                                       "(NXxNYxNZ) or one N per side"]),
    (["info", "--lattice", "D2Q9", "--size", "8x0"], ["--size = 8x0: expected positive integers"]),
    (["info", "--lattice", "D2Q9", "--size", "8", "--dtype", "foo"], ["--dtype = 'foo'", "float32"]),
    (["info", "--lattice", "D2Q9", "--size", "8", "--dtype", ""], ["--dtype = ''", "float32"]),  # was float32, unsaid
    (["info", "--dtype", "float16"], ["--dtype = 'float16' applies to the memory estimate", "--size"]),  # ignored
    (["bench", "--lattice", "D2Q9", "--size", "8", "--compute-dtype", "foo"], ["--compute-dtype = 'foo'", "float64"]),
    (["bench", "--lattice", "D2Q9", "--size", "8", "--compute-dtype", "float16"],  # the option, not the setting
     ["--compute-dtype = 'float16'", "storage only (set --dtype float16, which computes in float32)"]),
    (["run", "box", "--set", "n=8", "--set", "compute_dtype=float16", "--dry-run"],
     ["compute_dtype = 'float16'", "storage only (set dtype = 'float16', which computes in float32)"]),
    (["run", "couette", "--progress-every", "-1"], ["progress_every = -1", ">= 0"]),
])
def test_config_error_in_process(cli, args, parts):
    rc, out, err = cli(*args)
    assert_clean_error(rc, out, err, *parts)


def test_toml_error_names_file(cli, tmp_path):
    f = tmp_path / "case.toml"
    f.write_text('case = "couette"\nu_wal = 0.01\n')
    rc, out, err = cli("run", f)
    assert_clean_error(rc, out, err, str(f), "'u_wal'", "did you mean 'u_wall'")


# --- run ---------------------------------------------------------------------------------------------

SUMMARY_KEYS = {"case", "lattice", "shape", "dtype", "steps", "wall_time_s", "mlups", "relative_mass_drift",
                "parameters", "observables"}


def test_run_couette_writes_summary(cli, tmp_path):
    out_dir = tmp_path / "out"
    rc, out, err = cli("run", "couette", "--steps", 200, "--out", out_dir)
    assert rc == 0, err
    assert "Traceback" not in err
    progress = [ln for ln in out.splitlines() if "MLUPS" in ln and "ETA" in ln]
    assert progress, out
    assert any(ln.lstrip().startswith("step") and "200" in ln for ln in progress)
    summary = json.loads((out_dir / "summary.json").read_text())
    assert SUMMARY_KEYS <= set(summary), SUMMARY_KEYS - set(summary)
    defaults = {p.name: p.default for p in CASES["couette"].params}
    assert summary["case"] == "couette"
    assert summary["lattice"] == CASES["couette"].default_lattice
    assert list(summary["shape"]) == [defaults["nx"], defaults["n"] + 2]
    assert summary["dtype"] == "float32"
    assert summary["steps"] == 200
    assert summary["wall_time_s"] > 0 and summary["mlups"] > 0
    assert abs(summary["relative_mass_drift"]) < 1e-5  # float32, 200 steps, closed channel
    params = json.dumps(summary["parameters"])
    assert "tau" in params and "u_wall" in params
    assert isinstance(summary["observables"], dict) and summary["observables"]
    # the largest local Mach number of the checks: the fluid moves slower than the moving wall
    mach = summary["mach_local"]
    wall = summary["parameters"]["lattice_units"]["mach"]
    assert 0.5 * wall < mach["max"] <= wall * (1 + 1e-6) and mach["step"] == 200, (mach, wall)
    assert mach["since_step"] == 0 and mach["limit"] == 0.3 and mach["warned_at_step"] is None


def test_run_toml_file_with_set_override(cli, tmp_path):
    f = tmp_path / "c.toml"
    f.write_text('case = "couette"\nn = 8\nnx = 4\n')
    rc, out, err = cli("run", f, "--set", "nx=3", "--steps", 20, "--out", tmp_path / "o")
    assert rc == 0, err
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["case"] == "couette" and list(summary["shape"]) == [3, 10] and summary["steps"] == 20


# --- cases -------------------------------------------------------------------------------------------

def test_cases_lists_every_case_and_parameter(cli):
    rc, out, err = cli("cases")
    assert rc == 0, err
    # split the listing into one block per case (a block starts with "NAME: title")
    starts = {name: out.find(f"{name}: ") for name in CASES}
    assert all(i >= 0 for i in starts.values()), starts
    order = sorted(starts.items(), key=lambda kv: kv[1])
    for k, (name, i) in enumerate(order):
        end = order[k + 1][1] if k + 1 < len(order) else len(out)
        block = out[i:end]
        case = CASES[name]
        assert case.title in block and case.validates in block
        for p in case.params:
            assert f" {p.name} " in block, (name, p.name)
    for p in COMMON_PARAMS:
        if p.name != "case":
            assert p.name in out


def test_cases_names_the_values_a_setting_takes(cli):
    """`distlbm cases` listed `collision = 'bgk'  collision operator`, `dtype` 'storage dtype of the populations',
    `output_units` 'units of the written fields' and `lattice` 'velocity set': a reader could not tell which
    values --set takes (trt? physical? D3Q27?) until a run refused one. Every setting with a fixed set of values
    names them on its line."""
    rc, out, err = cli("cases")
    assert rc == 0, err
    lines = {}
    for line in out.splitlines():
        if line.startswith("    ") and " = " in line:
            lines.setdefault(line.split()[0], []).append(line)
    params = [p for p in COMMON_PARAMS if p.name != "case"] + [p for c in CASES.values() for p in c.params]
    takes = {"compute_dtype": ("float32", "float64")}  # (16-bit types are storage only: refused as arithmetic)
    for p in params:
        if p.choices:
            values = takes.get(p.name, [v for v in p.choices if v])
            assert any(all(v in line for v in values) for line in lines[p.name]), (p.name, lines[p.name])
    assert not any("float16" in line.split("dtype of the arithmetic")[-1].split("(float32 for")[0]
                   for line in lines["compute_dtype"]), lines["compute_dtype"]

def test_cases_json(cli):
    """Each case by its name, and under `common` the settings every case takes (as `distlbm cases` lists them below
    the cases; --json had the cases' own alone)."""
    from distlbm.config import COMMON_PARAMS

    rc, out, err = cli("cases", "--json")
    assert rc == 0, err
    data = json.loads(out)
    assert "common" not in CASES and set(data) == set(CASES) | {"common"}
    for name, c in CASES.items():
        assert set(data[name]["params"]) == {p.name for p in c.params}
        assert data[name]["validates"] == c.validates
        for p in c.params:
            assert data[name]["params"][p.name]["default"] == p.default
    common = [p for p in COMMON_PARAMS if p.name != "case"]
    assert list(data["common"]) == [p.name for p in common]
    for p in common:
        assert data["common"][p.name] == {"default": p.default, "doc": p.doc, "unit": p.unit}, p.name


def test_cases_lines_up_every_setting_s_name_default_and_doc(cli):
    """`distlbm cases` padded names to 14 characters and defaults to 8: sponge_strength, schaefer_turek's
    u_lattice_ref, 'circle(0.2, 0.2, 0.05)' pushed their line's default or doc out of the column. Every setting's
    line now has its '=' and its doc in the same columns as every other."""
    rc, out, err = cli("cases")
    assert rc == 0, err
    shown = ({repr(p.default) for c in CASES.values() for p in c.params} | {repr(p.default) for p in COMMON_PARAMS}
             | {repr(v) for c in CASES.values() for v in c.common_defaults.values()})
    lines = [x for x in out.splitlines() if x.startswith("    ") and " = " in x]
    assert len(lines) > 100, out
    eq = {x.index(" = ") for x in lines}
    assert len(eq) == 1, sorted((x.index(" = "), x[:40]) for x in lines)[-3:]
    col = eq.pop() + 3
    docs = set()
    for x in lines:
        rest = x[col:]
        default = max((d for d in shown if rest.startswith(d + " ")), key=len)
        docs.add(col + len(rest) - len(rest[len(default):].lstrip()))
    assert len(docs) == 1, docs


def test_cases_lists_the_cases_named(cli):
    """`distlbm cases cavity2d` (a user looking up one case's settings) was 'unrecognized arguments: cavity2d'."""
    rc, out, err = cli("cases", "cavity2d", "poiseuille")
    assert rc == 0, err
    assert out.startswith("cavity2d: ") and "\npoiseuille: " in out and "taylor_green2d" not in out, out
    assert "common settings (any case):" in out
    rc, out, err = cli("cases", "--json", "cavity2d")
    assert rc == 0, err
    assert list(json.loads(out)) == ["cavity2d", "common"]
    rc, out, err = cli("cases", "cavty2d")
    assert_clean_error(rc, out, err, "CASE = 'cavty2d'", "did you mean 'cavity2d'")


def test_python_m_distlbm_cases(module_cli):
    r = module_cli("cases")
    assert r.returncode == 0, r.stderr
    for name in CASES:
        assert f"{name}: " in r.stdout
    assert "Traceback" not in r.stderr


def test_closed_stdout_is_not_a_traceback():
    # like `distlbm cases | head -1`: the reader leaves before the listing is written
    p = subprocess.Popen([sys.executable, "-m", "distlbm", "cases"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdout.close()
    err = p.stderr.read().decode()
    p.stderr.close()
    p.wait(timeout=60)
    assert "Traceback" not in err, err



@pytest.mark.parametrize("args,line", [
    (["run", "box", "--steps", "1.5"],
     "distlbm run: error: argument --steps: '1.5': expected an integer (decimal digits); see distlbm run --help"),
    (["run", "box", "--steps", "1_000"],  # int() took it: 1000 steps
     "distlbm run: error: argument --steps: '1_000': expected an integer (decimal digits); see distlbm run --help"),
    (["run", "box", "--output-every", "\u0661\u0660"],  # int() took Arabic-Indic digits: 10
     "distlbm run: error: argument --output-every: '\u0661\u0660': expected an integer (decimal digits); see "
     "distlbm run --help"),
    (["run", "box", "--until-steady", "abc"],
     "distlbm run: error: argument --until-steady: 'abc': expected a number, e.g. 1e-5; see distlbm run --help"),
    (["run", "box", "--comm", "foo"],
     "distlbm run: error: argument --comm: invalid choice: 'foo' (choose from 'jax', 'mpi'); see distlbm run --help"),
    (["run", "box", "--mesh", "-1x1x1"],
     "distlbm run: error: argument --mesh: expected one argument (a value that starts with '-' is given as "
     "--mesh=VALUE); see distlbm run --help"),
    (["run", "box", "extra"], "distlbm: error: unrecognized arguments: extra; see distlbm --help"),
    # a value '--' (argparse drops it and stores []): --out=-- a TypeError traceback, --mesh=-- ran on every device
    (["run", "box", "--out=--"], "distlbm run: error: argument --out: expected one argument, not '--' (argparse reads "
                                 "it as the end of the options); see distlbm run --help"),
    (["run", "box", "--mesh=--"], "distlbm run: error: argument --mesh: expected one argument, not '--' (argparse "
                                  "reads it as the end of the options); see distlbm run --help"),
    # --restart takes its value or none: --restart=-- was read as --restart alone (the latest checkpoint)
    (["run", "box", "--restart=--"], "distlbm run: error: argument --restart: expected one argument, not '--' "
                                     "(argparse reads it as the end of the options); see distlbm run --help"),
    (["bench", "--size=--"], "distlbm bench: error: argument --size: expected one argument, not '--' (argparse reads "
                             "it as the end of the options); see distlbm bench --help"),
    (["bench", "--size", "1.5"],
     "distlbm bench: error: argument --size: '1.5': expected an integer (decimal digits); see distlbm bench --help"),
    (["info", "--size", "x"], "distlbm info: error: argument --size: 'x': expected an integer N (N per side) or the "
                              "sides NXxNY[xNZ] (decimal digits); see distlbm info --help"),
    (["info", "--size", "8x-2x2"], "distlbm info: error: argument --size: '8x-2x2': expected an integer N (N per side) "
                                   "or the sides NXxNY[xNZ] (decimal digits); see distlbm info --help"),
])
def test_an_option_argparse_refuses_is_one_line(module_cli, args, line):
    """argparse printed its usage (five lines) before the error; int() and float() took '1_000' and Unicode digits."""
    r = module_cli(*args, "--dry-run") if args[0] == "run" else module_cli(*args)
    assert r.returncode == 2 and r.stderr.strip().splitlines() == [line], r.stderr
    assert "Traceback" not in r.stderr and "usage:" not in r.stderr


@pytest.mark.parametrize("size,said", [("1" + "0" * 400, "^3 cells"), ("300000", "300000^3 cells"),
                                       ("300000x300000x300000", "300000x300000x300000 cells")])
def test_info_of_a_lattice_beyond_2_53_cells_is_one_line(cli, size, said):
    """distlbm info --size 1e400's digits: an OverflowError traceback in the memory check."""
    rc, out, err = cli("info", "--lattice", "D3Q19", "--size", size)
    assert_clean_error(rc, out, err, f"--size = {size[:12]}", said, "expected fewer than 2**53")


def test_options_still_take_signs_and_the_settings_say_what_they_take(cli):
    from distlbm.cli import _integer, _number

    assert _integer(" 12 ") == 12 and _integer("-3") == -3 and _number("1e-5") == 1e-5 and _number(".5") == 0.5
    rc, out, err = cli("run", "box", "--steps", "-3", "--dry-run")  # the setting's own message, as before
    assert_clean_error(rc, out, err, "steps = -3", ">= 0")
    rc, out, err = cli("run", "box", "--until-steady", "nan", "--dry-run")
    assert_clean_error(rc, out, err, "steady_tol = nan", "finite")


# --- bench -------------------------------------------------------------------------------------------

def test_bench_json(module_cli):
    r = module_cli("bench", "--lattice", "D2Q9", "--size", 32, "--steps", 5, "--repeat", 1, "--json")
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)  # raises if stdout holds anything besides one JSON document
    assert isinstance(obj, dict)
    assert r.stdout.strip().count("\n") == 0, "one JSON object on one line"
    for k in ("mlups", "population_bytes", "peak_memory_bytes", "bytes_per_cell"):
        assert obj[k] > 0, k
    assert obj["population_bytes"] == 9 * 32 * 32 * 4
    assert obj["bytes_per_cell"] >= 2 * 9 * 4  # read + write every population at least once
    # XLA's own count of the step's traffic (its cost analysis of one block's compiled step)
    assert obj["xla_bytes_per_cell"] >= 2 * 9 * 4
    assert obj["peak_memory_bytes"] >= obj["population_bytes"]
    # the process before the lattice (Python, JAX, XLA): most of a small bench's peak, said beside it
    assert 0 < obj["baseline_rss_bytes"] <= obj["peak_rss_bytes"]
    assert obj["lattice"] == "D2Q9" and list(obj["shape"]) == [32, 32]


def _provenance_of_a_checkout(tmp_path, commit=True):
    """distlbm.info.provenance() of a copy of distlbm (its __init__ and info modules) in a git checkout at tmp_path,
    committed or not, run in a fresh interpreter: (its dict, the checkout's .git/index)."""
    pkg = tmp_path / "distlbm"
    pkg.mkdir()
    for name in ("__init__.py", "info.py"):
        (pkg / name).write_text((REPO / "distlbm" / name).read_text())
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(tmp_path)]
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"])[:3 if commit else 2]:
        subprocess.run(git + cmd, check=True, capture_output=True)
    index = tmp_path / ".git" / "index"
    before = index.stat().st_mtime_ns
    t = (pkg / "info.py").stat().st_mtime_ns + 2_000_000_000
    os.utime(pkg / "info.py", ns=(t, t))  # same content, newer stat: the index is stale, not the tree dirty
    r = subprocess.run([sys.executable, "-c", "import json, distlbm.info as i; print(json.dumps(i.provenance()))"],
                       cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(tmp_path)), capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout), index, before


def test_provenance_reads_the_checkout_without_writing_its_git_index(tmp_path):
    """bench and scripts/scaling.py ask git for the commit: `git status` refreshed a stale index and wrote .git/index
    (taking .git/index.lock), so that a `git commit` or `git add` of the user's at that moment failed on the lock."""
    got, index, before = _provenance_of_a_checkout(tmp_path)
    assert len(got["commit"] or "") == 40 and got["dirty"] is False, got
    assert index.stat().st_mtime_ns == before and not (tmp_path / ".git" / "index.lock").exists()


def test_provenance_of_a_checkout_with_no_commit_says_none(tmp_path):
    """`git rev-parse HEAD` of a checkout with no commit yet prints 'HEAD' (and exits 128): that was the commit."""
    got, _, _ = _provenance_of_a_checkout(tmp_path, commit=False)
    assert got["commit"] is None and got["distlbm"], got


@pytest.mark.parametrize("args,said", [
    (["--mesh", "3x1x1", "--size", "16"], "--mesh = '3x1x1', --size = 16: lattice size 16 along x does not divide over "
     "3 devices (mesh 3x1x1); sizes that would work: 15 or 18"),
    (["--mesh", "16x1x1", "--size", "16"], "--mesh = 16x1x1 needs 16 devices; expected at most the 8 available"),
])
def test_a_bench_mesh_that_does_not_split_or_fit_names_its_options(module_cli, args, said):
    """A scaling study's bench changes --mesh and --size: the errors said 'lattice size 16 along x does not divide'
    and 'mesh = 16x1x1 needs 16 devices', naming neither option (a run's name --mesh)."""
    r = module_cli("bench", "--steps", 1, "--repeat", 1, *args)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith("distlbm: configuration error: " + said), r.stderr


def test_bench_on_a_mesh_says_the_mlups_per_device_beside_the_total(module_cli):
    """What a scaling study compares across device counts: the text said the total alone (--json had both)."""
    r = module_cli("bench", "--lattice", "D2Q9", "--size", 16, "--steps", 2, "--repeat", 2, "--mesh", "2x1",
                   "--bandwidth-mib", 0)
    assert r.returncode == 0, r.stderr
    m = re.search(r"MLUPS \(median of 2 x 2 steps\): ([\d.]+) \(([\d.]+) per device\)  \[([\d.]+), ([\d.]+)\]",
                  r.stdout)
    assert m and float(m[2]) == pytest.approx(float(m[1]) / 2, abs=0.08), r.stdout
    # of an even count the slower middle repetition's (as scripts/scaling.py's): one of those listed (the mean of the
    # two middle ones was neither, and scaling.py's figure for the same timings differed)
    assert m[1] == min(m[3], m[4], key=float), r.stdout



@pytest.mark.parametrize("args,parts", [
    (["--bandwidth-mib", "nan"], ["--bandwidth-mib = nan", "expected a size in MiB >= 0"]),  # ValueError traceback
    (["--bandwidth-mib", "inf"], ["--bandwidth-mib = inf", "expected a size in MiB >= 0"]),  # OverflowError
    (["--steps", "99999999999"], ["--steps = 99999999999", "at most 2147483647", "int32"]),  # OverflowError
    (["--bandwidth-mib", "1e308"], ["--bandwidth-mib = 1e+308", "expected a size in MiB >= 0 and below"]),  # inf bytes
    (["--size", "3000000000"], ["--size = 3000000000: 3000000000^2 cells", "fewer than 2**53"]),  # memory check's
    (["--size", "1" + "0" * 400], ["--size = 1000", "fewer than 2**53"]),  # OverflowError
])
def test_bench_values_that_were_tracebacks_are_one_line(cli, args, parts):
    rc, out, err = cli("bench", "--lattice", "D2Q9", "--size", 8, "--repeat", 1, *args)
    assert_clean_error(rc, out, err, *parts)


_D300, _D5000 = "9" * 300, "9" * 5000  # beyond every setting's range; beyond the digits Python reads (4300)


@pytest.mark.parametrize("args,parts", [
    (["run", "cavity2d", "--steps", _D300], ["steps = 999999999999...999999 (300 digits): expected at most 2147483647"]),
    (["run", "cavity2d", "--steps", _D5000], ["--steps: '999999999999...999999' (5000 digits): expected an integer of "
                                              "at most 4300 digits"]),  # argparse's "invalid _integer value: '9..."
    (["run", "cavity2d", "--set", f"n={_D300}"], ["n = 999999999999...999999 (300 digits): expected an integer "
                                                  "between"]),
    (["run", "cavity2d", "--set", f"re=-{_D5000}"], ["re = '-999999999999...999999' (5000 digits): expected an "
                                                     "integer of at most 4300 digits"]),  # a traceback from tomllib
    (["run", "steps.toml"], ["steps.toml: line 2, steps = '999999999999...999999' (5000 digits): expected an "
                             "integer of at most 4300 digits"]),  # a traceback from tomllib
    (["bench", "--lattice", "D2Q9", "--size", _D300], ["--size = 999999999999...999999 (300 digits)"]),
    (["bench", "--lattice", "D2Q9", "--size", "8", "--steps", _D300], ["--steps = 999999999999...999999 (300 "
                                                                       "digits): expected a positive integer"]),
    (["bench", "--lattice", "D2Q9", "--size", _D5000], ["--size: '999999999999...999999' (5000 digits)"]),
    (["info", "--lattice", "D3Q19", "--size", f"{_D300}x2x2"], ["--size = 999999999999...999999 (300 digits)x2x2"]),
    # inside an array (it was said whole), and a mesh's size in the refusal of its split
    (["run", "cavity2d", "--set", f"n=[{_D300}, 1]"], ["n = [999999999999...999999 (300 digits), 1]: expected an "
                                                       "integer"]),
])
def test_an_integer_of_hundreds_or_thousands_of_digits_is_one_short_line(cli, capsys, tmp_path, monkeypatch, args,
                                                                         parts):
    """A value of 300 digits was echoed whole in its one line; one of 5000 digits (beyond the 4300 Python reads) was
    a traceback from tomllib in a TOML file or a --set, and argparse's "invalid _integer value" with the whole text
    on the command line. Each is now one line, the value cut to its first and last digits and its count."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "steps.toml").write_text(f'case = "cavity2d"\nsteps = {_D5000}\n')
    try:
        rc, out, err = cli(*args, *(["--dry-run"] if args[0] == "run" else []))
    except SystemExit as e:  # argparse's own line, for an option's text it cannot read
        out, err = capsys.readouterr()
        assert e.code == 2 and len(err.strip().splitlines()) == 1 and parts[0] in err and len(err) < 400, err
        assert "Traceback" not in err and args[-1] == _D5000
        return
    assert len(err) < 400, err
    assert_clean_error(rc, out, err, *parts)


@pytest.mark.parametrize("value", [str(2 ** 63), "1000001"])
def test_a_bench_repeat_beyond_its_limit_is_one_line_before_the_bench(cli, monkeypatch, value):
    """--repeat 2**63 timed one repetition after another, (practically) forever."""
    from distlbm import bench

    monkeypatch.setattr(bench, "run_bench", lambda *a, **k: pytest.fail("the bench ran"))
    rc, out, err = cli("bench", "--lattice", "D2Q9", "--size", 8, "--steps", 1, "--repeat", value)
    assert_clean_error(rc, out, err, f"--repeat = {value}: expected a positive integer at most 1000000")


def test_a_bandwidth_copy_larger_than_the_device_is_one_line_before_the_bench(cli, monkeypatch):
    """--bandwidth-mib 1e12: the bench ran, then the copy's allocation was a JAX RESOURCE_EXHAUSTED traceback."""
    from distlbm import bench, memory

    monkeypatch.setattr(memory, "available_memory", lambda d: (8 << 30, "MemAvailable"))
    monkeypatch.setattr(bench, "run_bench", lambda *a, **k: pytest.fail("the bench ran"))
    rc, out, err = cli("bench", "--lattice", "D2Q9", "--size", 8, "--repeat", 1, "--bandwidth-mib", 1e12)
    assert_clean_error(rc, out, err, "--bandwidth-mib = 1e+12: the copy's array of", "does not fit in the",
                       "usable on this device (MemAvailable); expected at most", "MiB (0: skip)")


def test_a_bandwidth_copy_too_large_is_named_by_the_value_given(cli, monkeypatch):
    """--bandwidth-mib 99999999 was said as '--bandwidth-mib = 1e+08', a value the user did not give (6 digits of
    %g); 1e12 stays 1e+12 (the test above), 99999999 and 12345.678 are said as given."""
    from distlbm import bench, memory

    monkeypatch.setattr(memory, "available_memory", lambda d: (8 << 30, "MemAvailable"))
    monkeypatch.setattr(bench, "run_bench", lambda *a, **k: pytest.fail("the bench ran"))
    for value in ("99999999", "12345.678"):
        rc, out, err = cli("bench", "--lattice", "D2Q9", "--size", 8, "--repeat", 1, "--bandwidth-mib", value)
        assert_clean_error(rc, out, err, f"--bandwidth-mib = {value}: the copy's array of", "does not fit in the")


def _bench_args(*args):
    from distlbm.cli import build_parser

    return build_parser().parse_args(["bench", "--lattice", "D2Q9", "--size", "8", "--repeat", "1", *map(str, args)])


@pytest.mark.parametrize("rank", [0, 1])
def test_a_bandwidth_copy_too_large_for_the_host_is_found_before_the_processes_meet(monkeypatch, rank):
    """--bandwidth-mib beyond the host's memory was found after the processes met at the start: one process alone
    that found it (a host with less memory free) ended saying nothing unless it was process 0, and the others went on
    into the bench and waited for it there. On CPU devices (the host's memory, read without starting them) it is
    found before they meet, with the other settings, by process 0, which alone makes the copy there."""
    from distlbm import bench, cli, memory
    from distlbm.cases.base import ConfigError
    from distlbm.memory import InsufficientMemoryError
    from distlbm.parallel import processes

    class Met(Exception):
        pass

    def met(command, stop=None):
        raise Met()

    monkeypatch.setattr(processes, "launcher", lambda: ("mpich", 2))
    monkeypatch.setattr(processes, "env_rank", lambda: rank)
    monkeypatch.setattr(processes, "platform_before_start", lambda: "cpu", raising=False)
    monkeypatch.setattr(memory, "host_available", lambda: (1 << 30, "MemAvailable"))
    monkeypatch.setattr(cli, "met_and_refused", met)
    monkeypatch.setattr(bench, "run_bench", lambda *a, **k: pytest.fail("the bench ran"))
    if rank:  # its copy is process 0's alone
        with pytest.raises(Met):
            bench.cmd_bench(_bench_args("--bandwidth-mib", 600))
        return
    with pytest.raises(ConfigError) as e:
        bench.cmd_bench(_bench_args("--bandwidth-mib", 600))
    assert not isinstance(e.value, InsufficientMemoryError)  # (that one ends every process at once: _dispatch)
    assert str(e.value).startswith("--bandwidth-mib = 600: the copy's array of 600 MiB does not fit in the 512 MiB "
                                   "usable on this device (MemAvailable); expected at most 512 MiB (0: skip)"), e.value


def test_a_bandwidth_copy_too_large_for_a_device_of_several_processes_ends_every_process(monkeypatch):
    """Where the devices cannot be read before the processes meet (a GPU of one of several processes: JAX's devices
    start after jax.distributed), the copy is checked on the device once they have started, as the run's memory is:
    the process that finds it says so and ends every process (InsufficientMemoryError, cli._dispatch). It was a
    plain ConfigError, which a process other than 0 left with, saying nothing, the others waiting for it."""
    from distlbm import bench, cli, memory
    from distlbm.memory import InsufficientMemoryError
    from distlbm.parallel import processes

    monkeypatch.setattr(processes, "launcher", lambda: ("mpich", 2))
    monkeypatch.setattr(processes, "env_rank", lambda: 1)
    monkeypatch.setattr(processes, "platform_before_start", lambda: None, raising=False)
    monkeypatch.setattr(processes, "initialize", lambda *a, **k: {"launcher": "mpich", "processes": 2,
                                                                   "process_index": 1})
    monkeypatch.setattr(memory, "available_memory", lambda d: (1 << 30, "bytes_limit - bytes_in_use"))
    monkeypatch.setattr(cli, "met_and_refused", lambda command, stop=None: 0)
    monkeypatch.setattr(bench, "run_bench", lambda *a, **k: pytest.fail("the bench ran"))
    with pytest.raises(InsufficientMemoryError, match=r"--bandwidth-mib = 600: the copy's array of 600 MiB does not "
                       r"fit in the 512 MiB usable on this device \(bytes_limit - bytes_in_use\)"):
        bench.cmd_bench(_bench_args("--bandwidth-mib", 600))


@pytest.mark.parametrize("var,value,expected", [("DISTLBM_INPLACE", "false", "expected 1 (on) or 0 (off)"),
                                                ("DISTLBM_SLABS", "yes", "expected 1 (on) or 0 (off)"),
                                                ("DISTLBM_WHOLE_BYTES", "64M", "expected a whole number of bytes"),
                                                ("DISTLBM_MEMORY_CHECK", "off", "expected 1 (on) or 0 (off)")])
@pytest.mark.parametrize("command", ["run", "dry-run", "bench", "info"])
def test_a_mistyped_step_switch_is_one_line(cli, monkeypatch, tmp_path, var, value, expected, command):
    """DISTLBM_INPLACE=false ran the in-place step (only '0' turned it off) and DISTLBM_SLABS=yes was the default,
    unsaid; DISTLBM_WHOLE_BYTES=64M was a ValueError traceback, and only where a lattice large enough read it;
    DISTLBM_MEMORY_CHECK=off ran the memory check (only '0' skipped it), and the dry run, which leaves that check to
    the run, said ready."""
    monkeypatch.setenv(var, value)
    args = {"run": ["run", "box", "--set", "n=8", "--steps", 2, "--out", tmp_path / "run"],
            "dry-run": ["run", "box", "--set", "n=8", "--steps", 2, "--out", tmp_path / "run", "--dry-run"],
            "bench": ["bench", "--lattice", "D2Q9", "--size", 8, "--repeat", 1], "info": ["info"]}[command]
    rc, out, err = cli(*args)
    assert_clean_error(rc, out, err, f"{var} = {value!r}: {expected}")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("command", ["run", "dry-run"])
def test_a_mistyped_hdf5_mode_is_one_line(cli, monkeypatch, tmp_path, command):
    """DISTLBM_HDF5_MODE=splt (split misspelt) wrote the collective file where h5py has MPI, unsaid, and was read only
    where several processes write: one line now, on one process as on many, before any work."""
    monkeypatch.setenv("DISTLBM_HDF5_MODE", "splt")
    args = ["run", "box", "--set", "n=8", "--steps", 2, "--out", tmp_path / "run"]
    rc, out, err = cli(*args, *(["--dry-run"] if command == "dry-run" else []))
    assert_clean_error(rc, out, err, "DISTLBM_HDF5_MODE = 'splt': expected split (one file per process), or unset "
                                     "(one file written collectively where h5py has MPI)")
    assert not (tmp_path / "run").exists()
    monkeypatch.setenv("DISTLBM_HDF5_MODE", " split ")
    rc, out, err = cli(*args, "--dry-run")
    assert rc == 0, err


# --- info --------------------------------------------------------------------------------------------

def test_info_json(cli):
    rc, out, err = cli("info", "--json")
    assert rc == 0, err
    info = json.loads(out)
    for k in ("versions", "devices", "mpi"):
        assert k in info
    assert info["versions"]["distlbm"] and info["versions"]["jax"]
    assert isinstance(info["devices"], list) and info["devices"]
    assert "available" in info["mpi"]
    assert "memory_estimate" not in info


def test_info_memory_estimate(cli, monkeypatch):
    rc, out, err = cli("info", "--lattice", "D3Q19", "--size", 400)
    assert rc == 0, err
    pop_gib = 19 * 400 ** 3 * 4 / 1024 ** 3  # 4.530 GiB of float32 populations
    assert "D3Q19" in out and "400" in out
    assert f"{pop_gib:.3f}" in out
    rc, out, err = cli("info", "--lattice", "D3Q19", "--size", 400, "--json")
    assert rc == 0, err
    m = json.loads(out)["memory_estimate"]
    assert m["population_bytes"] == 19 * 400 ** 3 * 4
    assert m["cells"] == 400 ** 3
    # on CPU the step streams in place: the populations once, plus slabs and faces
    assert m["step_form"] == "in_place"
    assert m["population_bytes"] < m["step_working_set_bytes"] < 1.1 * m["population_bytes"]
    monkeypatch.setenv("DISTLBM_INPLACE", "0")  # the A-B slab form: a streamed copy besides the populations
    rc, out, err = cli("info", "--lattice", "D3Q19", "--size", 400, "--json")
    m = json.loads(out)["memory_estimate"]
    assert m["step_form"] == "ab" and m["step_working_set_bytes"] > 2 * m["population_bytes"]


@pytest.mark.parametrize("size,shown", [("8", "2.250 KiB"), ("400", "4.530 GiB"), ("100000", "67.502 PiB")])
def test_info_memory_estimate_says_its_sizes_in_a_unit_that_fits_and_lines_them_up(cli, size, shown):
    """`distlbm info` said every size in GiB with 3 decimals: a D2Q9 8^2 lattice's 2304 B of populations was
    '0.000 GiB', a D3Q19 100000^3 one's '70780515.671 GiB' (beside '67.5 PiB' in its fits line), which pushed the
    populations' number out of line with the working set's below it."""
    rc, out, err = cli("info", "--lattice", "D2Q9" if size == "8" else "D3Q19", "--size", size)
    assert rc == 0, err
    pop = next(x for x in out.splitlines() if x.startswith("  populations "))
    step = next(x for x in out.splitlines() if x.startswith("  step working set "))
    assert f" {shown} (" in pop, pop
    assert " 0.000 " not in out, out
    unit = re.compile(r" ([KMGTPE]i)?B \(")
    assert unit.search(pop).start() == unit.search(step).start(), (pop, step)


def test_info_memory_estimate_of_a_lattice_of_other_sides(cli):
    """A channel's lattice is no cube: --size took N alone ('800x200x200': "expected an integer")."""
    rc, out, err = cli("info", "--lattice", "D3Q19", "--size", "800x200x200", "--json")
    assert rc == 0, err
    m = json.loads(out)["memory_estimate"]
    assert m["shape"] == [800, 200, 200] and m["cells"] == 800 * 200 * 200
    assert m["population_bytes"] == 19 * 800 * 200 * 200 * 4
    rc, out, err = cli("info", "--lattice", "D2Q9", "--size", "300X100")
    assert rc == 0 and "memory for D2Q9 300x100 (float32):" in out and "(30,000 cells)" in out, out + err


def test_info_memory_estimate_float64(cli):
    rc, out, err = cli("info", "--lattice", "D2Q9", "--size", 100, "--dtype", "float64", "--json")
    assert rc == 0, err
    assert json.loads(out)["memory_estimate"]["population_bytes"] == 9 * 100 ** 2 * 8


# --- one CPU device per core ---------------------------------------------------------------------------

def _run_without_device_count(tmp_path, extra_env, *args):
    """`python -m distlbm run ...` with the CPU device count left to distlbm (the tests' XLA_FLAGS removed)."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "JAX_NUM_CPU_DEVICES", "DISTLBM_CPU_DEVICES")}
    env.update(extra_env)
    return subprocess.run([sys.executable, "-m", "distlbm", "run", *args, "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, env=env)


@pytest.mark.parametrize("count,args,expect", [("3", (), "on 3 cpu devices, mesh 3x1"),
                                               ("1", (), "on 1 device (cpu)"),
                                               ("", ("--mesh", "2x2"), "on 4 cpu devices, mesh 2x2")])
def test_run_takes_the_cpu_device_count_and_the_same_bits(tmp_path, count, args, expect):
    """DISTLBM_CPU_DEVICES sets how many CPU devices a single process splits the lattice over (default:
    one per core, or as many as --mesh asks for); the populations are those of the one-device run, bit
    for bit."""
    import numpy as np

    from distlbm.io import checkpoint as ckpt

    env = {"DISTLBM_CPU_DEVICES": count} if count else {}
    r = _run_without_device_count(tmp_path, env, "cavity2d", "--set", "n=22", "--steps", "30",
                                  "--checkpoint-every", "30", *args)
    assert r.returncode == 0, r.stderr
    assert expect in r.stdout, r.stdout
    path = ckpt.list_checkpoints(tmp_path / "out" / "checkpoints")[-1]
    import h5py

    with h5py.File(path, "r") as h:
        f = np.asarray(h["f"])
    from helpers import make_sim

    sim = make_sim("cavity2d", n=22)
    sim.advance(30)
    assert np.array_equal(f, np.asarray(sim.state.f))


def test_a_run_that_uses_fewer_devices_than_it_has_says_why(tmp_path):
    """A lattice that does not split over all the devices fell back to fewer without a word ("on 1 cpu devices"
    with 3 there: on a GPU node, 7 of 8 GPUs idle). It is said, with what uses them all."""
    r = _run_without_device_count(tmp_path, {"DISTLBM_CPU_DEVICES": "3"}, "box", "--set", "n=8", "--steps", "2")
    assert r.returncode == 0, r.stderr
    assert "  on 2 cpu devices, mesh 2x1x1" in r.stdout and "note: 2 of the 3 devices: the lattice 8x8x8 does not split " \
        "evenly over more; sizes divisible by a factorisation of 3, or --mesh, use them all" in r.stdout, r.stdout
    # the most devices that split it, not only divisors of the count (6 devices: 2 were taken, 4 split 8^3)
    r = _run_without_device_count(tmp_path, {"DISTLBM_CPU_DEVICES": "6"}, "box", "--set", "n=8", "--steps", "2")
    assert r.returncode == 0 and "  on 4 cpu devices, mesh " in r.stdout and "note: 4 of the 6 devices" in \
        r.stdout, r.stdout
    r = _run_without_device_count(tmp_path, {"DISTLBM_CPU_DEVICES": "2"}, "box", "--set", "n=8", "--steps", "2")
    assert r.returncode == 0 and "on 2 cpu devices" in r.stdout and "of the 2 devices" not in r.stdout, r.stdout


def test_run_default_is_one_cpu_device_per_core(tmp_path):
    import os

    cores = min(len(os.sched_getaffinity(0)), 8)
    if 120 % cores:
        pytest.skip(f"{cores} cores: the 120-cell lattice does not split over them")
    r = _run_without_device_count(tmp_path, {}, "cavity2d", "--set", "n=118", "--steps", "2")  # 120 x 120
    assert r.returncode == 0, r.stderr
    assert (f"on {cores} cpu devices" if cores > 1 else "on 1 device (cpu)") in r.stdout, r.stdout


def test_bad_cpu_device_count_is_one_clear_error(tmp_path):
    r = _run_without_device_count(tmp_path, {"DISTLBM_CPU_DEVICES": "two"}, "cavity2d", "--steps", "2")
    assert_clean_error(r.returncode, r.stdout, r.stderr, "DISTLBM_CPU_DEVICES = 'two'", "whole number")


@pytest.mark.parametrize("text,seconds", [("3600", 3600.0), ("90.5", 90.5), ("10:00", 600.0), ("1:00:00", 3600.0),
                                          ("1-12:00:00", 129600.0), ("2-03", 183600.0), ("0-00:30", 1800.0)])
def test_wall_time_takes_seconds_clock_times_and_slurms_day_forms(text, seconds):
    from distlbm.cli import parse_wall_time

    assert parse_wall_time(text) == seconds


@pytest.mark.parametrize("text", ["25:00:99", "1-1:60", "nan", "inf", "-5", "-0", "1-", "x-1", "1:2:3:4", "1h",
                                  # ASCII digits only: '\u00b2-00' was a ValueError traceback; '1_000' and Arabic-Indic
                                  # digits ran as 1000 s and 123 s
                                  "\u00b2-00", "1_000", "\u0661\u0662\u0663", "1-\u0660\u0660", "1:0_0"])
def test_a_wall_time_that_is_not_a_duration_is_one_line(cli, text):
    """'nan' ran without a limit and '25:00:99' was taken as 25 h 1 min 39 s; Slurm's 1-12:00:00 was refused."""
    rc, out, err = cli("run", "box", "--set", "n=8", "--steps", 2, "--wall-time", text)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert f"--wall-time = {text!r}: expected a duration" in err and "D-HH[:MM[:SS]]" in err


def test_a_wall_time_of_0_is_no_limit_on_the_command_line_as_in_the_setting(cli, tmp_path):
    """`--wall-time 0` was refused ("expected a positive duration") where the setting it sets, wall_time = 0 (a file,
    --set), is "0: no limit", and wall_time = "00:00:00" in a file was refused too: one rule, 0 in any form is none."""
    from distlbm.cli import build_parser, parse_wall_time
    from distlbm.config import resolve

    for text in ("0", "0.0", "00:00", "00:00:00", "0-00", "0-00:00:00"):
        assert parse_wall_time(text) == 0.0, text
    assert resolve("cavity2d", {"wall_time": "00:00:00"}).control.wall_time == 0.0
    rc, out, err = cli("run", "box", "--set", "n=8", "--steps", 2, "--wall-time", 0, "--set", "wall_time=0",
                       "--out", tmp_path / "o")
    assert rc == 0 and "stopped" not in out, out + err
    run = build_parser()._subparsers._group_actions[0].choices["run"]
    said = " ".join(next(a.help for a in run._actions if "--wall-time" in a.option_strings).split())
    assert "0: no limit" in said, said


def test_a_very_long_value_is_cut_in_the_error_line(cli, tmp_path):
    """A 200 kB output_region gave a 200 kB "one line" error: a quoted value is cut to its start and its length."""
    value = "x=" + "1" * 5000
    rc, out, err = cli("run", "cavity2d", "--set", f"output_region={value}", "--output-every", 10, "--dry-run",
                       "--out", tmp_path)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and len(err) < 1500, err
    assert err.count(f"'{value[:120]}...' (5,002 characters)") == 2, err


def test_one_mpi_rank_is_said_in_the_singular(cli, tmp_path):
    rc, out, err = cli("run", "box", "--set", "n=8", "--steps", 2, "--comm", "mpi", "--out", tmp_path / "a")
    assert rc == 0 and "on 1 MPI rank x 1 cpu device, mesh 1x1x1 (mpi4jax)" in out, out + err
    rc, out, err = cli("run", "box", "--set", "n=8", "--steps", 2, "--comm", "mpi", "--mesh", "2x1x1", "--out",
                       tmp_path / "b")
    assert rc == 2 and err.strip().endswith(": --mesh = 2x1x1 has 2 blocks; expected one per MPI rank (1 rank)"), err


@pytest.mark.parametrize("target", ["", " "])
def test_an_empty_run_target_is_refused_not_the_default_case(cli, tmp_path, target):
    """`distlbm run "$CONFIG"` with CONFIG unset ran the default case, cavity2d, unsaid."""
    rc, out, err = cli("run", target, "--dry-run", "--out", tmp_path / "o")
    assert_clean_error(rc, out, err, f"run target = {target!r}", "expected a case name", "TOML file")
    assert "cavity2d (" not in out


@pytest.mark.parametrize("folder", ["", " "])
def test_status_of_an_empty_folder_name_is_refused(cli, tmp_path, monkeypatch, folder):
    """`distlbm status "$OUT"` with OUT unset read the working folder (a run there was reported as OUT's)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "log.jsonl").write_text("")  # a run folder here: '' was taken for it
    rc, out, err = cli("status", folder)
    assert_clean_error(rc, out, err, f"OUT = {folder!r}: expected the --out folder of a run")


def test_init_from_help_says_another_dtype_is_taken():
    """`distlbm run --help` said --init-from needs the same dtype ("same lattice, size and dtype") after --init-from
    began to take populations stored in another dtype in the new run's (README: a float16 spin-up continued in
    float32); the help says what the command does."""
    from distlbm.cli import build_parser

    run = next(a for a in build_parser()._subparsers._group_actions[0].choices.values()
               if any("--init-from" in o.option_strings for o in a._actions))
    text = next(o.help for o in run._actions if "--init-from" in o.option_strings)
    assert "same lattice and size" in text and "dtype" in text and "size and dtype" not in text, text


def test_every_option_of_every_command_has_help():
    """`distlbm bench --help` listed --lattice and --collision with no text (which values?), and `info --json`,
    `cases --json` none either; and `distlbm run CASE --help` named no place for the case's parameters that --set
    takes. Every option now says what it takes."""
    from distlbm.cli import build_parser

    commands = build_parser()._subparsers._group_actions[0].choices
    for name, parser in commands.items():
        for action in parser._actions:
            assert action.help, (name, action.option_strings or action.dest)
    bench = {o: a.help for a in commands["bench"]._actions for o in a.option_strings}
    assert "D3Q27" in bench["--lattice"] and "regularized" in bench["--collision"], bench
    run = {o: a.help for a in commands["run"]._actions for o in a.option_strings}
    assert "distlbm cases" in run["--set"], run["--set"]


def test_abort_under_a_launcher_does_not_initialise_mpi(monkeypatch):
    """processes.abort (a Ctrl-C as the run ended, a failing process) under mpiexec uses MPI only where the process
    imported it: importing mpi4py.MPI initialises MPI, a collective that waited for ever for a process of the job
    that had already left (a run ended on a configuration error, before MPI was used)."""
    import importlib.abc
    import sys

    from distlbm.parallel import processes

    asked = []

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "mpi4py.MPI":
                asked.append(name)
                raise ImportError("not here")
            return None

    class Left(Exception):
        pass

    def _exit(code):
        raise Left(code)

    monkeypatch.delitem(sys.modules, "mpi4py.MPI", raising=False)
    monkeypatch.delitem(sys.modules, "mpi4py", raising=False)
    monkeypatch.setattr(sys, "meta_path", [Finder()] + sys.meta_path)
    monkeypatch.setenv("PMI_SIZE", "2")
    monkeypatch.setattr(processes.time, "sleep", lambda s: None)
    monkeypatch.setattr(processes.os, "_exit", _exit)
    with pytest.raises(Left) as e:
        processes.abort(75)
    assert e.value.args == (75,)
    assert asked == []


def test_abort_of_a_comm_mpi_run_under_srun_with_pmi2_aborts_mpi(monkeypatch):
    """`srun --mpi=pmi2 distlbm run ... --comm mpi` is an srun start (processes.launcher) whose ranks use MPI: a
    failed process must MPI_Abort (the others wait in an MPI collective, and srun without --kill-on-bad-exit leaves
    them there), as under mpiexec; a single process's MPI is left alone."""
    import types

    from distlbm.parallel import processes

    asked = []

    class Comm:
        def Abort(self, code):
            asked.append(code)

    fake = types.SimpleNamespace(Is_initialized=lambda: True, Is_finalized=lambda: False, COMM_WORLD=Comm())

    class Left(Exception):
        pass

    def _exit(code):
        raise Left(code)

    for var in ("OMPI_COMM_WORLD_SIZE", "PMIX_SIZE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setitem(sys.modules, "mpi4py.MPI", fake)
    monkeypatch.setattr(processes.time, "sleep", lambda s: None)
    monkeypatch.setattr(processes.os, "_exit", _exit)
    env = dict(SLURM_STEP_ID="3", SLURM_NTASKS="2", SLURM_STEP_NUM_TASKS="2", SLURM_PROCID="1", PMI_SIZE="2",
               PMI_RANK="1")
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert processes.launcher() == ("slurm", 2)
    with pytest.raises(Left):
        processes.abort(4)
    assert asked == [4]
    for k in env:
        monkeypatch.delenv(k)
    with pytest.raises(Left):
        processes.abort(4)
    assert asked == [4]


def test_abort_leaves_even_where_a_flush_fails(monkeypatch):
    """abort runs from a signal handler (a Ctrl-C as the run ended): a flush that fails (a stream interrupted
    mid-write: 'reentrant call') must not keep it from leaving with its code."""
    from distlbm.parallel import processes

    class Stream:
        def flush(self):
            raise RuntimeError("reentrant call inside <_io.BufferedWriter name='<stdout>'>")

    class Left(Exception):
        pass

    def _exit(code):
        raise Left(code)

    monkeypatch.delenv("OMPI_COMM_WORLD_SIZE", raising=False)
    monkeypatch.delenv("PMI_SIZE", raising=False)
    monkeypatch.delenv("PMIX_SIZE", raising=False)
    monkeypatch.setattr(sys, "stdout", Stream())
    monkeypatch.setattr(processes.os, "_exit", _exit)
    with pytest.raises(Left) as e:
        processes.abort(75)
    assert e.value.args == (75,)


@pytest.fixture
def int_digits_1000():
    """Python's limit for reading an integer lowered to 1000 digits (PYTHONINTMAXSTRDIGITS=1000)."""
    was = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(1000)
    yield
    sys.set_int_max_str_digits(was)


@pytest.mark.parametrize("how", ["option", "set", "file"])
def test_an_integer_beyond_a_lowered_digit_limit_is_said_against_that_limit(cli, capsys, tmp_path, int_digits_1000,
                                                                            how):
    """The limit was taken as 4300 whatever Python's was: PYTHONINTMAXSTRDIGITS=1000 and --steps of 2000 digits was
    argparse's 'invalid _integer value' with the whole text, a --set or a TOML file '(2000 digits): expected an
    integer of at most 4300 digits' (or no line and key at all)."""
    d2000 = "9" * 2000
    f = tmp_path / "n.toml"
    f.write_text(f'case = "cavity2d"\nn = {d2000}\n')
    args = {"option": ["run", "cavity2d", "--steps", d2000], "set": ["run", "cavity2d", "--set", f"n={d2000}"],
            "file": ["run", f]}[how]
    try:
        rc, _, err = cli(*args, "--dry-run")
    except SystemExit as e:  # argparse's own line, for an option's text it cannot read
        rc, (_, err) = e.code, capsys.readouterr()
    said = {"option": "--steps: '999999999999...999999' (2000 digits)", "set": "n = '999999999999...999999' (2000 "
            "digits)", "file": f"{f}: line 2, n = '999999999999...999999' (2000 digits)"}[how]
    assert rc == 2 and said in err and "expected an integer of at most 1000 digits" in err, err[:400]
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and len(err) < 400, err[:400]
    from distlbm.errors import said_int

    assert said_int(-(10 ** 1500)) == "a negative integer of about 1501 digits"  # (str() of it raises ValueError)


def test_a_mesh_beyond_a_set_cpu_device_count_names_the_setting(tmp_path):
    """`DISTLBM_CPU_DEVICES=1 distlbm run box --mesh 2x1x1` said "mesh = 2x1x1 needs 2 devices; expected at most the 1
    available": the README says --mesh gets as many CPU devices as it names, and the setting that kept it from doing
    so went unnamed."""
    import os
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if k not in ("XLA_FLAGS", "JAX_NUM_CPU_DEVICES")}
    env.update(DISTLBM_CPU_DEVICES="1", PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    p = subprocess.run([sys.executable, "-m", "distlbm", "run", "box", "--set", "n=8", "--mesh", "2x1x1", "--steps",
                        "1", "--out", str(tmp_path / "run")], env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 2, p.stdout + p.stderr
    assert (": --mesh = 2x1x1 needs 2 devices; expected at most the 1 available (the CPU devices' count set by "
            "DISTLBM_CPU_DEVICES=1: unset it for the mesh's count)") in p.stderr, p.stderr


def test_a_mesh_beyond_one_cpu_device_per_process_says_distlbm_cpu_devices_is_not_applied(monkeypatch):
    """`DISTLBM_CPU_DEVICES=2 mpiexec -n 2 distlbm run cavity2d --mesh 2x2` was refused with "mesh = 2x2 needs 4
    devices; expected at most the 2 available": several processes take one CPU device each and the setting was
    ignored, unsaid. The line says so, and what gives each process more (XLA_FLAGS, which is applied)."""
    import types

    import jax

    from distlbm.parallel import mesh

    cpus = [types.SimpleNamespace(platform="cpu")] * 2
    monkeypatch.delenv("XLA_FLAGS", raising=False)
    monkeypatch.delenv("JAX_NUM_CPU_DEVICES", raising=False)
    monkeypatch.setenv("DISTLBM_CPU_DEVICES", "2")
    monkeypatch.setattr(jax, "process_count", lambda: 2)
    assert mesh._cpu_count_source(cpus) == (
        " (DISTLBM_CPU_DEVICES=2 is not applied under several processes, which take one CPU device each; "
        "XLA_FLAGS=--xla_force_host_platform_device_count=2 gives each process 2)")
    monkeypatch.setenv("XLA_FLAGS", "--xla_force_host_platform_device_count=1")  # applied: nothing ignored to say
    assert mesh._cpu_count_source(cpus) == ""
    monkeypatch.delenv("XLA_FLAGS")
    monkeypatch.delenv("DISTLBM_CPU_DEVICES")
    assert mesh._cpu_count_source(cpus) == ""


def test_a_steady_cavity_says_steady_once_and_its_energy_rate_by_name(cli, tmp_path):
    """`distlbm run cavity2d` printed two lines that began with "steady:": the steady stop's and a bare
    "steady: 0.0004791", the cavity's |dE/dt| / E per lid transit (an observable named 'steady'). The observable is
    now energy_rate_per_transit, in the summary and on its line."""
    rc, out, err = cli("run", "cavity2d", "--set", "n=16", "--out", tmp_path / "run")
    assert rc == 0, err
    lines = [ln.strip() for ln in out.splitlines()]
    assert [ln for ln in lines if ln.startswith("steady:")] == [next(ln for ln in lines if ln.startswith(
        "steady: max |du| / U"))], out
    rate = json.loads((tmp_path / "run" / "summary.json").read_text())["observables"]["energy_rate_per_transit"]
    assert 0 <= rate < 1e-3 and f"energy_rate_per_transit: {rate:g}" in lines, (rate, out)
    # its ETA is at most the time to the end step (the default cavity2d said 'ETA 2m49s' and ended 13 s later)
    progress = [ln for ln in lines if ln.startswith("step ") and "MLUPS" in ln]
    assert progress and all(re.search(r"ETA +<= \S+s  ", ln) for ln in progress), out
    rc, out, err = cli("run", "cavity2d", "--set", "n=16", "--set", "steady_tol=0", "--steps", 40, "--out",
                       tmp_path / "no_steady_stop")
    progress = [ln for ln in out.splitlines() if ln.startswith("step ") and "MLUPS" in ln]
    assert rc == 0 and progress and not any("<=" in ln for ln in progress), out


def test_a_ctrl_c_of_a_command_other_than_run_is_not_said_to_be_a_second_one(monkeypatch, capsys):
    """A Ctrl-C of `distlbm bench` (info, status, cases: the first, Python's own KeyboardInterrupt) said "distlbm:
    interrupted (a second Ctrl-C): quit at once, without a checkpoint": those commands stop on the first and keep
    no checkpoints. A run's (its first Ctrl-C is a stop) is still said as the second."""
    from distlbm import cli as cli_module
    from distlbm.driver.signals import SECOND_CTRL_C

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_module, "cmd_cases", interrupted)
    assert cli_module.main(["cases"]) == 130
    assert capsys.readouterr().err == "distlbm: interrupted\n"
    monkeypatch.setattr(cli_module, "cmd_run", interrupted)
    assert cli_module.main(["run", "couette", "--steps", "10"]) == 130
    assert SECOND_CTRL_C in capsys.readouterr().err


@pytest.mark.parametrize("sets,said", [("re=true", "re = true: expected a number"),
                                       ("u_lid=[false, 0.1]", "u_lid = [false, 0.1]: expected a number"),
                                       # an inline table likewise (it was "{'a': True, 'b c': datetime.date(...)}")
                                       ('re={a=true, "b c"=1979-05-27}',
                                        're = {a = true, "b c" = 1979-05-27}: expected a number')])
def test_a_boolean_is_said_as_toml_writes_it(cli, sets, said):
    """`--set re=true` was said as `re = True: expected a number`: Python's spelling of what the user wrote."""
    rc, out, err = cli("run", "cavity2d", "--set", sets, "--dry-run")
    assert_clean_error(rc, out, err, said)


def test_a_mesh_size_of_hundreds_of_digits_is_cut_in_the_refusal_of_its_split(cli):
    """The refusal of a mesh that does not split the lattice said its 300-digit size whole, three times."""
    rc, out, err = cli("run", "cavity2d", "--set", f"mesh=[{_D300}, 1]", "--dry-run")
    assert_clean_error(rc, out, err, "does not divide over 999999999999...999999 (300 digits) devices (mesh "
                                     "999999999999...999999 (300 digits)x1)")
    assert _D300[:50] not in err.split("does not divide")[1] and len(err) < 700, err


@pytest.mark.parametrize("args,said", [
    (["run", "box", "--rest", "latest"], "unrecognized arguments: --rest latest (options are given whole: --restart)"),
    (["run", "box", "--check", "1000"], "unrecognized arguments: --check 1000 (options are given whole: "
                                        "--checkpoint-every)"),
    (["run", "box", "--progress=3"], "unrecognized arguments: --progress=3 (options are given whole: "
                                     "--progress-every)"),
    (["bench", "--lat", "D2Q9"], "unrecognized arguments: --lat D2Q9 (options are given whole: --lattice)"),
    (["run", "box", "--js"], "unrecognized arguments: --js; see"),  # --json is another command's: not offered
])
def test_an_option_given_by_a_prefix_is_refused_with_the_whole_one(cli, capsys, args, said):
    """argparse took a prefix of an option (`--rest latest` ran as --restart): a job script keeps it until an option
    added later makes it ambiguous, and the resubmitted job is refused; the Slurm templates look for --restart and
    did not see `--rest`. Options are given whole; the line names the one meant."""
    with pytest.raises(SystemExit) as e:
        cli(*args)
    out, err = capsys.readouterr()
    assert e.value.code == 2 and said in err and len(err.strip().splitlines()) == 1, err


# --- packaging -----------------------------------------------------------------------------------------

def _pyproject() -> dict:
    import tomllib
    from pathlib import Path

    return tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())


def test_version_option_says_the_packages_version(module_cli):
    """`distlbm --version` (and `python -m distlbm --version`) exits 0 with the version the package is installed
    as: pyproject takes it from distlbm.__version__, one place (a site's install had no way to say which it ran
    but `distlbm info`, and the two numbers could drift apart)."""
    import distlbm

    r = module_cli("--version")
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert r.stdout.strip() == f"distlbm {distlbm.__version__}", r.stdout
    project = _pyproject()["project"]
    assert "version" in project.get("dynamic", []) and "version" not in project, project
    assert _pyproject()["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "distlbm.__version__"}


def test_requires_python_admits_no_interpreter_that_cannot_import_distlbm():
    """config.py imports tomllib (Python 3.11) and jax >= 0.10 needs 3.11: `>=3.10` let pip install on 3.10
    a package whose every command then failed on its first import (or pip's resolver named jax, not Python)."""
    spec = _pyproject()["project"]["requires-python"]
    assert spec.replace(" ", "") in (">=3.11", ">=3.12"), spec


def test_license_is_an_spdx_string_that_setuptools_keeps_building():
    """`license = { text = "MIT" }` makes setuptools warn on every install that such a table stops building on
    2027-02-18: the site's install would then fail. An SPDX string needs setuptools >= 77 to build."""
    data = _pyproject()
    assert data["project"]["license"] == "MIT", data["project"]["license"]
    requires = data["build-system"]["requires"]
    assert any(r.replace(" ", "").startswith("setuptools>=") and
               tuple(int(x) for x in r.split(">=")[1].split(".")[:1]) >= (77,) for r in requires), requires


@pytest.fixture
def without_mpi(monkeypatch):
    """An installation without the [mpi] extra: mpi4py and mpi4jax cannot be imported (nor found)."""
    import importlib.abc

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("mpi4py", "mpi4jax"):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    for name in [m for m in sys.modules if m.split(".")[0] in ("mpi4py", "mpi4jax")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [Finder()] + sys.meta_path)


@pytest.mark.parametrize("dry", [False, True])
def test_comm_mpi_without_the_mpi_packages_is_one_line(cli, tmp_path, without_mpi, dry):
    """`pip install distlbm` (no [mpi] extra) then `--comm mpi`: the run ended in a traceback (ModuleNotFoundError:
    mpi4py, exit 1) and its dry run said "ready"."""
    rc, out, err = cli("run", "cavity2d", "--set", "n=16", "--steps", "2", "--comm", "mpi", "--out",
                       tmp_path / "o", *(["--dry-run"] if dry else []))
    assert_clean_error(rc, out, err, "comm = 'mpi'", "mpi4py", "mpi4jax", "distlbm[mpi]")


def test_mpirun_without_mpi4py_is_one_line_not_a_traceback(cli, monkeypatch, without_mpi):
    """Under mpirun/mpiexec (no Slurm) jax.distributed finds the coordinator with mpi4py: without it every process
    ended in a traceback. Each process now says so (and ends the others, as a start-up error does)."""
    from distlbm.parallel import processes

    monkeypatch.setenv("PMI_SIZE", "2")
    monkeypatch.setenv("PMI_RANK", "0")
    monkeypatch.setattr(processes, "_STARTED", False)
    with pytest.raises(processes.StartupError) as e:
        processes.initialize("jax")
    said = str(e.value)
    assert "mpich" in said and "mpi4py" in said and "srun" in said and "\n" not in said, said


@pytest.mark.parametrize("dry", [False, True])
def test_mpirun_without_mpi4py_is_said_before_the_folder_is_made_and_by_the_dry_run(tmp_path, dry):
    """mpirun/mpiexec without mpi4py: the dry run said "ready", and the run said so only in processes.initialize,
    after its folder was made (an empty folder left: several processes do not remove it before they met)."""
    import os
    from pathlib import Path

    code = ("import importlib.abc, sys\n"
            "class Finder(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] in ('mpi4py', 'mpi4jax'):\n"
            "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
            "sys.meta_path.insert(0, Finder())\n"
            "from distlbm.cli import main\n"
            f"sys.exit(main({['run', 'cavity2d', '--set', 'n=8', '--steps', '2', '--out', 'o'] + ['--dry-run'] * dry}))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "OMPI_", "PMI", "XLA_FLAGS"))}
    env.update(PMI_SIZE="2", PMI_RANK="0", PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2 and "ready" not in r.stdout, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "mpich started 2 processes" in lines[0] and "mpi4py" in lines[0], r.stderr
    assert not (tmp_path / "o").exists()


def test_every_third_party_module_distlbm_imports_is_a_declared_dependency():
    """A module imported by distlbm (at the top or where it is used) belongs to a distribution pyproject names, in
    `dependencies` or an extra: ml_dtypes (bfloat16 storage) came only through jax's own requirements. scripts/ too:
    they are run from the checkout in the environment `make setup` builds from pyproject (its extras), the README's
    studies and the GPU check; a module no extra names was found missing there only when the script was run."""
    import ast
    import re
    from pathlib import Path

    dist = {"numpy": "numpy", "jax": "jax", "jaxlib": "jax", "h5py": "h5py", "scipy": "scipy", "mpi4py": "mpi4py",
            "mpi4jax": "mpi4jax", "matplotlib": "matplotlib", "stl": "numpy-stl", "ml_dtypes": "ml_dtypes",
            # the namespace of JAX's PJRT plugins (jax[cuda13] installs them), looked for under `except ImportError`
            # by processes.platform_before_start: no package of its own
            "jax_plugins": "jax"}
    project = _pyproject()["project"]
    declared = {re.split(r"[<>=!~\[; ]", r)[0].lower()
                for r in project["dependencies"] + sum(project["optional-dependencies"].values(), [])}
    imported = set()
    root = Path(__file__).resolve().parents[2]
    for p in [*(root / "distlbm").rglob("*.py"), *(root / "scripts").rglob("*.py")]:
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.split(".")[0])
    third = {m for m in imported if m not in sys.stdlib_module_names and m not in ("distlbm", "__future__")}
    assert third <= set(dist), f"a module with no entry here: {sorted(third - set(dist))}"
    assert {dist[m] for m in third} <= declared, sorted({dist[m] for m in third} - declared)


@pytest.mark.parametrize("args", [
    ["run", "cavity2d", "--set", "n=8", "--steps", "4", "--checkpoint-every", "2", "--out", "new"],
    ["run", "cavity2d", "--set", "n=8", "--steps", "4", "--out", "new"],  # a stop signal would write a checkpoint
    ["run", "cavity2d", "--set", "n=8", "--steps", "4", "--output-every", "2", "--out", "new", "--dry-run"],
    ["run", "cavity2d", "--set", "n=8", "--steps", "6", "--restart", "--out", "good"],
    ["run", "cavity2d", "--set", "n=8", "--steps", "4", "--init-from", "good", "--out", "new", "--dry-run"],
    ["status", "good"],
])
def test_a_command_that_needs_h5py_says_so_at_its_start_in_one_line(cli, tmp_path, args):
    """h5py is imported at its first use (a case steps without it): a run without it went its steps and ended at
    its first checkpoint or field output in a traceback (hours in; the folder's lock left), its dry run said ready,
    a restart and `distlbm status` ended in a traceback. Each says so at its start, in one line, nothing written."""
    import os
    from pathlib import Path

    assert cli("run", "cavity2d", "--set", "n=8", "--steps", "2", "--checkpoint-every", "2", "--out",
               tmp_path / "good")[0] == 0  # (with h5py)
    fake = tmp_path / "no_h5py" / "h5py"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'h5py'\", name='h5py')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parents[2]), str(fake.parent)]))
    r = subprocess.run([sys.executable, "-m", "distlbm", *args], cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=120)
    assert_clean_error(r.returncode, r.stdout, r.stderr, "h5py", "No module named 'h5py'", "pip install 'h5py")
    assert "step " not in r.stdout and not (tmp_path / "new").exists(), r.stdout
    assert sorted(p.name for p in (tmp_path / "good" / "checkpoints").iterdir()) == ["ckpt_000000002.h5"]


# --- the documentation against the program ---------------------------------------------------------------------

def _documents():
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def test_every_option_and_common_setting_is_named_in_the_readme():
    """Every option of every subcommand and every common setting is named in README.md, so that a new one cannot go
    undocumented (bench's --repeat, --dtype, --compute-dtype, --collision, --step and --bandwidth-mib, info's --dtype
    and the settings compute_dtype, output_every, progress_every, check_every ... were named nowhere in it)."""
    import argparse

    from distlbm.cli import build_parser

    readme = (REPO / "README.md").read_text()
    parser = build_parser()
    commands = {"distlbm": parser}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            commands.update(action.choices)
    missing = []
    for name, command in commands.items():
        for action in command._actions:
            for option in action.option_strings:
                if option.startswith("--") and option != "--help" \
                        and not re.search(re.escape(option) + r"(?![\w-])", readme):
                    missing.append(f"{name} {option}")
    missing += [f"setting {p.name}" for p in COMMON_PARAMS if not re.search(rf"\b{p.name}\b", readme)]
    assert not missing, missing


def test_the_run_options_the_readme_says_are_settings_are_the_others():
    """README pairs each option of `run` with its setting (`--steps` is `steps`, ...) and names those that are none:
    it said "each option of run is also a setting", --out, --restart and --init-from among them. Every option of run is
    in one list or the other, and every setting paired exists."""
    import argparse

    from distlbm.cli import build_parser

    readme = " ".join((REPO / "README.md").read_text().split())
    said = re.search(r"The options of `run` but (.*?) are also settings: (.*?); `distlbm cases`", readme)
    assert said, "the sentence is gone"
    others = set(re.findall(r"`(--[\w-]+)`", said.group(1)))
    pairs = dict(re.findall(r"`(--[\w-]+)`(?: is)? `(\w+)`", said.group(2)))
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices["run"]
    options = {o for a in sub._actions for o in a.option_strings if o.startswith("--") and o != "--help"}
    names = {p.name for p in COMMON_PARAMS}
    assert options == others | set(pairs) and not others & set(pairs), (options, others, pairs)
    assert set(pairs.values()) <= names, set(pairs.values()) - names


def test_the_files_and_tests_the_docs_name_exist():
    """Every `tests/...py` (with its `::test_name`) and every path under scripts/, slurm/, examples/, docs/, distlbm/
    and tests/ that README.md and docs/*.md name exists, and every test docs/reliability.md names is a test of the
    suite (docs/performance.md named `tests/test_fused.py`, which is tests/unit/test_fused.py)."""
    defined = set()
    for path in (REPO / "tests").rglob("test_*.py"):
        defined.update(re.findall(r"^\s*def (test_\w+)", path.read_text(), re.M))
    wrong = []
    for doc in _documents():
        text = doc.read_text()
        for m in re.finditer(r"(tests/[\w/]+\.py)(?:::(test_\w+))?", text):
            path = REPO / m.group(1)
            if not path.is_file():
                wrong.append(f"{doc.name}: {m.group(0)}: no such file")
            elif m.group(2) and not re.search(rf"^\s*def {m.group(2)}\b", path.read_text(), re.M):
                wrong.append(f"{doc.name}: {m.group(0)}: no such test in the file")
        for m in re.finditer(r"`((?:scripts|slurm|examples|docs|distlbm|tests)/[\w./-]+)`", text):
            if not (REPO / m.group(1)).exists():
                wrong.append(f"{doc.name}: {m.group(1)}: no such path")
    reliability = (REPO / "docs" / "reliability.md").read_text()
    for name in sorted(set(re.findall(r"`(?:[\w/]+\.py::)?(test_\w+)(?![\w.])", reliability))):
        if name not in defined:
            wrong.append(f"reliability.md: {name}: no such test")
    assert not wrong, wrong


def test_every_environment_variable_the_package_reads_is_documented():
    """Every DISTLBM_* variable that distlbm/ reads is named in README.md or docs/*.md (DISTLBM_SLABS and
    DISTLBM_WHOLE_BYTES, which choose the step's form, were named nowhere, DISTLBM_MEMORY_CHECK in reliability.md
    alone; DISTLBM_HDF5_MODE, with a digit, was not even looked for)."""
    docs = "".join(doc.read_text() for doc in _documents())
    read = set()
    for path in (REPO / "distlbm").rglob("*.py"):
        read.update(re.findall(r"[\"'](DISTLBM_[A-Z0-9_]+)[\"']", path.read_text()))
    missing = sorted(v for v in read if not re.search(rf"\b{v}\b", docs))
    assert read and not missing, missing


@pytest.mark.parametrize("lattice", ["D2Q9", "D3Q19"])
def test_kolmogorov_runs_end_to_end_and_its_dry_run_counts_the_force_field(cli, tmp_path, lattice):
    """The built-in case with a per-cell force field: the dry run counts the field (D floats of the compute dtype per
    cell) and says the XLA step on a GPU too (the fused kernel does not cover it); `distlbm run` reaches the steady
    profile and passes its analytic check."""
    from distlbm.config import resolve
    from distlbm.memory import memory_estimate

    rc, out, err = cli("run", "kolmogorov", "--set", "n=16", "--set", f"lattice={lattice}", "--dry-run", "--out",
                       tmp_path / "dry")
    assert rc == 0, err
    mem = next(x for x in out.splitlines() if x.startswith("  memory per device"))
    assert "on a GPU (XLA step" in mem, mem
    s = resolve("kolmogorov", {"n": 16, "lattice": lattice}).setup
    d = s.lattice.d
    with_field = memory_estimate(s.lattice, s.shape, "float32", form="whole", force_field=True)
    without = memory_estimate(s.lattice, s.shape, "float32", form="whole")
    assert with_field["flags_bytes"] - without["flags_bytes"] == d * 4 * with_field["cells"]
    rc, out, err = cli("run", "kolmogorov", "--set", "n=16", "--set", f"lattice={lattice}", "--out", tmp_path / "run")
    assert rc == 0, err
    assert "step: xla" in out
    line = next(x for x in out.splitlines() if "relative L2 error vs the analytic" in x)
    assert line.endswith("PASS"), line
    # the record says the run is forced per cell (its force None alone read as an unforced run)
    lat = json.loads((tmp_path / "run" / "summary.json").read_text())["parameters"]["lattice_units"]
    assert lat["force"] is None and lat["force_field"] is True, lat


class _Writes:
    """A stream that keeps each write apart (sys.stderr's stand-in): whether a line went out in one write, whole."""

    def __init__(self):
        self.writes = []

    def write(self, text):
        self.writes.append(text)
        return len(text)

    def flush(self):
        pass


def test_the_lines_said_at_a_refused_start_are_one_write_each(monkeypatch):
    """Every process of a run refused at its start says its lines at the same moment into one stream (srun's, a
    job's output file): each line is one write, whole (print wrote its text and then its newline, and with
    PYTHONUNBUFFERED, as job scripts set, another process's line came between them: "...nothing randistlbm: ...")."""
    from distlbm import cli
    from distlbm.parallel import processes

    stream = _Writes()
    monkeypatch.setattr(processes, "launcher", lambda: ("mpich", 2))
    monkeypatch.setattr(processes, "env_rank", lambda: 0)
    monkeypatch.setattr(processes, "meet_at_start", lambda error=None, stop=None: [(0, "a = 1: wrong"), (1, "b")])
    monkeypatch.setattr(cli, "_MADE_OUT", None)
    monkeypatch.setattr(sys, "stderr", stream)
    assert cli._refused_at_start("a = 1: wrong") is True
    assert stream.writes == ["distlbm: configuration error (process 0): a = 1: wrong\n"], stream.writes


def test_the_line_of_a_start_that_ends_every_process_is_one_write(monkeypatch):
    """A process of several that finds its start alone wrong (processes.StartupError, InsufficientMemoryError) says
    its line and ends every process; where each finds it (srun's MPI world of one, with --comm mpi), each says it at the
    same moment into one stream: print's two writes, the text and then its newline, let the other's line in between
    under PYTHONUNBUFFERED ("...may be none)distlbm: configuration error (process 1): ...", seen in the suite)."""
    from distlbm import cli, info
    from distlbm.parallel import processes

    def fails(args):
        raise processes.StartupError("comm = 'mpi': MPI's world holds 1 of them")

    def aborts(code=1):
        raise SystemExit(code)

    stream = _Writes()
    monkeypatch.setattr(processes, "launcher", lambda: ("slurm", 2))
    monkeypatch.setattr(processes, "env_rank", lambda: 1)
    monkeypatch.setattr(processes, "abort", aborts)
    monkeypatch.setattr(info, "cmd_info", fails)
    monkeypatch.setattr(sys, "stderr", stream)
    with pytest.raises(SystemExit) as e:
        cli.main(["info"])
    assert e.value.code == 2
    assert stream.writes == ["distlbm: configuration error (process 1): comm = 'mpi': MPI's world holds 1 of them\n"], \
        stream.writes


@pytest.mark.parametrize("error,status", [("a = 1: wrong", 2), ("unexpected", 1)])
def test_the_others_of_a_process_that_failed_at_the_start_exit_as_it_does(monkeypatch, error, status):
    """A process that failed at the start with a traceback exits 1, and the others, told of it at the start, exited 2,
    a settings error's status (under srun the job's, the highest of its tasks'); now 1 as it does, and 2 where another
    process's settings were wrong, as before."""
    from distlbm import cli
    from distlbm.parallel import processes

    found = processes.Unexpected("RuntimeError (its traceback above)") if error == "unexpected" else error
    monkeypatch.setattr(processes, "launcher", lambda: ("mpich", 2))
    monkeypatch.setattr(processes, "env_rank", lambda: 0)
    monkeypatch.setattr(processes, "meet_at_start", lambda error=None, stop=None: [(1, found)])
    assert cli.met_and_refused("bench") == status
    monkeypatch.setattr(processes, "meet_at_start", lambda error=None, stop=None: [])
    assert cli.met_and_refused("bench") == 0


def test_a_refused_start_removes_no_folder_an_earlier_run_of_the_process_made(monkeypatch, tmp_path):
    """The folder a refusal at the start removes is the one this run made: a run called in the same Python process
    after another (cli.main from a script, a test) that is refused before it makes its own left the earlier run's
    folder named to be removed (an empty one, made by the earlier run, in use by whoever has it now)."""
    from distlbm import cli
    from distlbm.parallel import processes

    earlier = tmp_path / "earlier"
    earlier.mkdir()
    monkeypatch.setattr(cli, "_MADE_OUT", str(earlier))  # as an earlier run of this process that made it left it
    monkeypatch.setattr(processes, "launcher", lambda: ("mpich", 2))
    monkeypatch.setattr(processes, "meet_at_start", lambda error=None, stop=None: [(0, error), (1, error)])
    monkeypatch.chdir(tmp_path)
    assert cli.main(["run", "box", "--set", "n=abc", "--out", str(tmp_path / "new")]) == 2
    assert earlier.is_dir()


def test_the_readme_toml_example_runs_without_a_warning(tmp_path):
    """The TOML configuration that README.md shows first (`distlbm run my_case.toml ...` in "Using it") resolves with
    no warning: it set output_fields without output_every, so a user who copied it was told at once that a setting
    of the example has no effect."""
    from distlbm.config import resolve

    readme = (REPO / "README.md").read_text()
    example = re.search(r"```toml\n(.*?)```", readme, re.S)
    assert example, "README.md shows no TOML configuration"
    path = tmp_path / "my_case.toml"
    path.write_text(example.group(1))
    cfg = resolve(str(path))
    assert "vorticity" in cfg.output.output_fields and not cfg.warnings, cfg.warnings


def test_status_counts_only_the_restarts_that_ran(cli, tmp_path):
    """A `--restart latest` of a run already at its end step ran nothing ('nothing to run'), but its `start` record
    made `distlbm status` say 'restarted 2 times (at steps 600, 600; the last from ckpt_000000600.h5 ...)' of a run
    restarted once, the last restart named by the one that ran nothing. Such a record (its end its start) is said
    apart."""
    import json

    def start(step, end, src, when):
        return {"event": "start", "step": step, "end": end, "run_id": "r", "case": "cavity2d", "processes": 1,
                "mesh": [1, 1], "restarted_from": src, "started": when}

    records = [start(0, 600, None, "2026-12-07 04:00:00 UTC"),
               start(600, 800, "out/cav/checkpoints/ckpt_000000600.h5", "2026-12-07 04:01:00 UTC"),
               start(800, 800, "out/cav/checkpoints/ckpt_000000800.h5", "2026-12-07 04:02:00 UTC")]
    (tmp_path / "log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    rc, out, err = cli("status", tmp_path)
    assert rc == 0, err
    assert "  started at step 0 on 2026-12-07 04:00:00 UTC; restarted 1 time (at step 600; the last from " \
           "ckpt_000000600.h5 on 2026-12-07 04:01:00 UTC; 1 more restart had nothing to run) (log.jsonl)" in out, out


@pytest.mark.parametrize("mesh", ["4294967296x1x1", "100000x1x1"])
def test_a_run_s_mesh_that_does_not_split_the_lattice_is_refused_before_any_cpu_device_is_made(tmp_path, mesh):
    """On CPUs a run makes as many devices as --mesh names before it splits the lattice: 2**32 was a TypeError
    traceback from JAX's CPU client (exit 1), 100000 a C++ abort (no thread left) or a hang; its dry run refused it
    in one line. The run now refuses it as its dry run does, before JAX starts."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISTLBM_CPU_DEVICES", "JAX_NUM_CPU_DEVICES", "XLA_FLAGS")}
    env["JAX_PLATFORMS"] = "cpu"  # (the tests' XLA_FLAGS fix the CPU devices' count: the run then makes none)
    r = subprocess.run([sys.executable, "-m", "distlbm", "run", "box", "--set", "n=8", "--steps", "1", "--mesh", mesh,
                        "--out", str(tmp_path / "o")], cwd=REPO, capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(ERR_PREFIX), r.stderr[-2000:]
    assert f"--mesh = '{mesh}'" in lines[0] and "does not divide" in lines[0], lines[0]
    assert not (tmp_path / "o").exists()


def test_distlbm_cpu_devices_beyond_int32_is_one_line(tmp_path):
    """DISTLBM_CPU_DEVICES = 2**63 passed its check (a whole number >= 1) and was a TypeError traceback from JAX's CPU
    client (it takes a C int)."""
    env = {k: v for k, v in os.environ.items() if k not in ("JAX_NUM_CPU_DEVICES", "XLA_FLAGS")}
    env.update(DISTLBM_CPU_DEVICES=str(2 ** 63), JAX_PLATFORMS="cpu")
    r = subprocess.run([sys.executable, "-m", "distlbm", "run", "box", "--set", "n=8", "--steps", "1",
                        "--out", str(tmp_path / "o")], cwd=REPO, capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(ERR_PREFIX), r.stderr[-2000:]
    assert f"DISTLBM_CPU_DEVICES = '{2 ** 63}'" in lines[0] and "<=" in lines[0], lines[0]


def test_bench_s_mesh_that_does_not_split_the_lattice_is_refused_before_any_cpu_device_is_made(tmp_path):
    """distlbm bench --mesh made as many CPU devices as it names before splitting the lattice: 2**32x1x1 was a
    TypeError traceback from JAX's CPU client (exit 1), 100000x1x1 a C++ abort or a hang."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISTLBM_CPU_DEVICES", "JAX_NUM_CPU_DEVICES", "XLA_FLAGS")}
    env["JAX_PLATFORMS"] = "cpu"
    r = subprocess.run([sys.executable, "-m", "distlbm", "bench", "--size", "8", "--steps", "1", "--repeat", "1",
                        "--bandwidth-mib", "0", "--mesh", "4294967296x1x1"], cwd=REPO, capture_output=True,
                       text=True, timeout=120, env=env)
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(ERR_PREFIX), r.stderr[-2000:]
    assert "--mesh = '4294967296x1x1', --size = 8" in lines[0] and "does not divide" in lines[0], lines[0]


@pytest.mark.parametrize("var,value,least", [("DISTLBM_HEARTBEAT_TIMEOUT", "abc", 2),
                                             ("DISTLBM_HEARTBEAT_TIMEOUT", "-1", 2),
                                             ("DISTLBM_STARTUP_TIMEOUT", "0", 10),
                                             ("DISTLBM_STARTUP_TIMEOUT", "nan", 10)])
@pytest.mark.parametrize("command", ["run", "dry-run", "info"])
def test_a_bad_start_up_variable_is_refused_on_one_process_too(var, value, least, command, tmp_path, cli,
                                                                monkeypatch):
    """DISTLBM_HEARTBEAT_TIMEOUT and DISTLBM_STARTUP_TIMEOUT were read (and a bad value refused) only under several
    processes: a job script tried on one process ran, and its mistake was found on the cluster. One line, exit 2,
    as DISTLBM_CPU_DEVICES is refused on one process; the run's folder is not left behind."""
    monkeypatch.setenv(var, value)
    out = tmp_path / "o"
    args = {"run": ["run", "box", "--set", "n=8", "--steps", "2", "--out", out],
            "dry-run": ["run", "box", "--set", "n=8", "--steps", "2", "--out", out, "--dry-run"],
            "info": ["info", "--lattice", "D2Q9", "--size", "8"]}[command]
    rc, stdout, err = cli(*args)
    assert_clean_error(rc, stdout, err, f"{var} = {value!r}: expected a whole number of seconds >= {least}")
    assert not out.exists()


@pytest.mark.parametrize("value", ["abc", "0", "-1", "2.5", str(2 ** 40)])
@pytest.mark.parametrize("command", ["run", "dry-run", "bench", "info"])
def test_a_bad_cpu_device_count_is_refused_by_every_command(value, command, tmp_path, cli, monkeypatch):
    """DISTLBM_CPU_DEVICES with a bad value was refused by a real `run` on one process only where it applied (no
    XLA_FLAGS device count, as here under the tests): `run --dry-run`, `bench` without --mesh ran with it, exit 0.
    Every command refuses it in the one line of the run's own check, exit 2, the run's folder not left behind."""
    monkeypatch.setenv("DISTLBM_CPU_DEVICES", value)
    out = tmp_path / "o"
    args = {"run": ["run", "box", "--set", "n=8", "--steps", "2", "--out", out],
            "dry-run": ["run", "box", "--set", "n=8", "--steps", "2", "--out", out, "--dry-run"],
            "bench": ["bench", "--lattice", "D2Q9", "--size", "8", "--steps", "1", "--repeat", "1",
                      "--bandwidth-mib", "0"],
            "info": ["info"]}[command]
    rc, stdout, err = cli(*args)
    assert_clean_error(rc, stdout, err, f"DISTLBM_CPU_DEVICES = {value!r}: expected a whole number of CPU devices "
                                        f">= 1 and <= 2147483647")
    assert not out.exists()


@pytest.mark.parametrize("command", ["run", "bench", "info", "status", "cases"])
def test_every_command_s_help_has_a_description(command, capsys):
    """`distlbm status --help` (and run's, bench's, info's, cases') went from its usage to its options with no line
    saying what the command does. Each says it, beginning with its line in `distlbm --help`, so the two agree."""
    from distlbm.cli import build_parser, main

    with pytest.raises(SystemExit) as e:
        main([command, "--help"])
    assert e.value.code == 0
    text = capsys.readouterr().out
    top = build_parser()._subparsers._group_actions[0]._choices_actions
    line = " ".join(next(a.help for a in top if a.dest == command).split())
    blocks = text.split("\n\n")  # usage, description, arguments, options
    assert blocks[0].startswith(f"usage: distlbm {command}") and not blocks[1].startswith(("positional", "options")), \
        text
    said = " ".join(blocks[1].split())
    assert said.lower().startswith(line.lower()) and said.endswith("."), (said, line)


def test_run_s_options_that_are_settings_say_what_0_does_as_their_setting_does():
    """`distlbm run --help` said `--progress-every` "steps between progress lines", `--until-steady` "stop when ...
    falls below TOL", `--output-every` nothing of 0, where the setting each one sets (README: the options of run are
    also settings; `distlbm cases` lists them) says what 0 does: about 20 lines, run to the end step, none (a
    restart's own line says `--until-steady TOL (0: none)`). Each option's help says it as
    its setting does; and the output folder is OUT in each (--out's name; --checkpoint-every said DIR)."""
    import re

    from distlbm.cli import build_parser
    from distlbm.config import COMMON_PARAMS, OPTION_FLAGS

    run = build_parser()._subparsers._group_actions[0].choices["run"]
    helps = {o: " ".join(a.help.split()) for a in run._actions for o in a.option_strings}
    docs = {p.name: p.doc for p in COMMON_PARAMS}
    said = [flag for key, flag in OPTION_FLAGS.items() if re.search(r"\b0: ", docs[key])]
    assert {"--steps", "--progress-every", "--output-every", "--checkpoint-every", "--until-steady",
            "--wall-time"} <= set(said), said
    for flag in said:
        assert re.search(r"\b0: ", helps[flag]), (flag, helps[flag])
    assert not [h for h in helps.values() if "DIR/" in h], helps


@pytest.mark.parametrize("command", ["bench", "info"])
def test_options_with_a_default_say_it(command):
    """`distlbm bench --help` said the default of --lattice and --collision ("D3Q19 (default)") but not of --size,
    --steps, --repeat or --dtype (128, 20, 3, float32: the README says --repeat's, 3); an option with a default says
    it."""
    from distlbm.cli import build_parser

    parser = build_parser()._subparsers._group_actions[0].choices[command]
    for a in parser._actions:
        if a.option_strings and a.default not in (None, False, "==SUPPRESS=="):
            text = " ".join(a.help.split())
            assert f"default: {a.default}" in text or f"{a.default} (default" in text, (a.option_strings, text)


def test_run_s_mesh_and_info_s_dtype_help_say_what_the_readme_says():
    """`distlbm run --help` said --mesh defaults to "all devices", where on CPUs the README's (and the run's) default
    is one device per core, at most 8 (DISTLBM_CPU_DEVICES sets it), factorised for the smallest halo (the mesh
    setting in distlbm cases); `distlbm info --help` named no value of --dtype, where bench's names all four."""
    from distlbm.cli import build_parser
    from distlbm.config import DTYPES
    from distlbm.parallel.processes import CPU_DEVICES_MAX

    commands = build_parser()._subparsers._group_actions[0].choices
    mesh = next(" ".join(a.help.split()) for a in commands["run"]._actions if "--mesh" in a.option_strings)
    assert f"one per core, at most {CPU_DEVICES_MAX}" in mesh and "DISTLBM_CPU_DEVICES" in mesh and \
        "smallest halo" in mesh, mesh
    dtype = next(" ".join(a.help.split()) for a in commands["info"]._actions if "--dtype" in a.option_strings)
    assert all(d in dtype for d in DTYPES) and "float32 (default)" in dtype, dtype


def test_run_s_help_says_a_restart_s_steps_the_progress_wall_and_where_cuts_go():
    """`distlbm run --help` (and `distlbm cases`' settings) said --steps left out is the case's, where a restart that
    sets none runs to the end step of the run it continues (README, "Restart"); --progress-every 0 "about 20 lines
    per run", where a line also comes at least every 10 minutes (a 20-hour run's progress); --output-every "under
    OUT/fields", where output_region and output_slices write into folders of their own (OUT/slice_x12/)."""
    from distlbm.cli import build_parser
    from distlbm.config import COMMON_PARAMS
    from distlbm.driver.loop import PROGRESS_WALL

    run = build_parser()._subparsers._group_actions[0].choices["run"]
    helps = {o: " ".join(a.help.split()) for a in run._actions for o in a.option_strings}
    settings = {p.name: " ".join(p.doc.split()) for p in COMMON_PARAMS}
    minutes = f"{PROGRESS_WALL / 60:g} min"
    for text in (helps["--steps"], settings["steps"]):
        assert "the end step of the run it continues" in text, text
    for text in (helps["--progress-every"], settings["progress_every"]):
        assert minutes in text, text
    for text in (helps["--output-every"], settings["output_every"]):
        assert "output_slices" in text and "output_region" in text, text


def test_run_s_help_names_the_samples_file_a_case_writes_unasked():
    """`distlbm run --help` named summary.json and log.jsonl as what every run writes, and "where asked" checkpoints
    and field outputs, but not samples.jsonl, which every case with forces or probes (channel_flow, the
    Schäfer–Turek presets, the sphere, the Taylor–Green vortices) writes without being asked."""
    from distlbm.cli import COMMANDS

    assert "samples.jsonl" in COMMANDS["run"][1], COMMANDS["run"][1]

def test_run_s_wall_time_help_names_every_form_it_takes():
    """`distlbm run --help` gave --wall-time as SECONDS|HH:MM:SS|D-HH:MM:SS and Slurm's D-HH[:MM[:SS]], where MM:SS
    (Slurm's --time=10:00, ten minutes) is taken too (its error line names it), and said nothing of the time the
    run's start-up takes from it (README: counted from the process's start)."""
    from distlbm.cli import build_parser, parse_wall_time

    run = build_parser()._subparsers._group_actions[0].choices["run"]
    text = next(" ".join(a.help.split()) for a in run._actions if "--wall-time" in a.option_strings)
    assert parse_wall_time("10:00") == 600.0
    assert "seconds, MM:SS, HH:MM:SS" in text and "D-HH[:MM[:SS]]" in text and "process's start" in text, text
