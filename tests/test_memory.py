"""The memory contract: a step costs the populations twice plus the moments, nothing per node.
Measured with `distlbm bench` in a fresh process (peak resident memory), at a size that runs quickly;
the same ratio holds the 400^3 D3Q19 box (README)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("lattice,size", [("D3Q19", 192), ("D3Q27", 160)])
def test_bench_peak_memory_within_budget(lattice, size):
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=1")
    p = subprocess.run([sys.executable, "-m", "distlbm", "bench", "--lattice", lattice, "--size", str(size),
                        "--steps", "2", "--repeat", "1", "--json"], cwd=REPO, env=env, capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    q = {"D3Q19": 19, "D3Q27": 27}[lattice]
    assert r["population_bytes"] == q * size ** 3 * 4
    budget = 2.3 * r["population_bytes"] + 0.5e9
    assert r["peak_memory_bytes"] <= budget, (r["peak_memory_bytes"] / 1e9, budget / 1e9)
    # and it is a real measurement: at least the populations were resident
    assert r["peak_memory_bytes"] >= r["population_bytes"]
