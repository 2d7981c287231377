"""The --help of the study scripts that docs/validation.md and docs/performance.md tell a reader to run: every
option says what it takes (tgv_re1600_study.py run listed --n, --collision, --smagorinsky, --u0, --t-end, --label
and --out with no text and no default; step_variants.py --plan, --budget and --python; bench_mesh_ratio.py, named
in the README's Performance table, all but --no-force-cpu; make_stl.py its path, --shape and --ascii)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _options_without_text(help_text: str) -> list:
    """The options of an argparse help whose entry has no text (on its line or the next, indented further)."""
    lines = help_text.splitlines()
    bare = []
    for i, line in enumerate(lines):
        m = re.match(r"^  (-[-\w]+(?: [A-Z_]+| \{[^}]*\})?(?:, -[-\w]+(?: [A-Z_]+)?)*)(\s{2,}\S.*)?$", line)
        if not m or m.group(1) in ("-h, --help",):
            continue
        follows = i + 1 < len(lines) and re.match(r"^ {6,}\S", lines[i + 1])
        if not m.group(2) and not follows:
            bare.append(m.group(1).split()[0])
    return bare


@pytest.mark.parametrize("argv", [["tgv_re1600_study.py", "run"], ["tgv_re1600_study.py", "report"],
                                  ["step_variants.py"], ["bench_mesh_ratio.py"], ["make_stl.py"]])
def test_every_option_of_the_study_scripts_says_what_it_takes(argv):
    out = subprocess.run([sys.executable, str(SCRIPTS / argv[0]), *argv[1:], "--help"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "--help" in out.stdout and _options_without_text(out.stdout) == [], out.stdout


def test_the_check_sees_an_option_without_text():
    text = "options:\n  -h, --help  show this help message and exit\n  --n N\n  --out OUT   where\n"
    assert _options_without_text(text) == ["--n"]
