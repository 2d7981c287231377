#!/usr/bin/env python
"""Run the validation suite (or one entry/case) and write docs/validation.md with PNG plots.

    .venv/bin/python scripts/validate.py                 # full suite -> docs/validation.md, docs/validation/*.png
    .venv/bin/python scripts/validate.py --reduced       # small resolutions (CI) -> out/validation/validation.md
    .venv/bin/python scripts/validate.py --case duct --case cavity2d_re100   # -> out/validation/validation.md
    .venv/bin/python scripts/validate.py --case duct --out /tmp/v/validation.md
    .venv/bin/python scripts/validate.py --case kolmogorov_3d_trt --merge docs/validation.json   # its rows -> docs/validation.{json,md}
    .venv/bin/python scripts/validate.py --list

Exit status 1 if any check fails. The entries are the registry in distlbm/validation.py (ENTRIES).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from distlbm.validation import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
