"""The memory pre-flight (issue 11): before anything is allocated, a run or a benchmark that does not fit
in the memory of its devices is one ConfigError naming the lattice, shape, dtype, what is needed per
device or host, what is available, and the largest lattice that would fit. Figures of "available"
memory are injected, so these tests do not depend on what the machine has free."""

from __future__ import annotations

import inspect
import json
import math
import os
import re
import socket

import pytest

from distlbm import memory
from distlbm.cases.base import ConfigError
from distlbm.config import resolve
from distlbm.io import files, lock
from distlbm.lattice import get_lattice
from distlbm.memory import (RUNTIME_BYTES, InsufficientMemoryError, check_fits, memory_estimate, plan_mesh,
                            preflight,
                            usable)

GIB = 1 << 30
D3Q19 = get_lattice("D3Q19")
ERR_PREFIX = "distlbm: configuration error:"


class FakeDevice:
    """An accelerator as far as the pre-flight sees it."""

    def __init__(self, id, limit=None, in_use=0, platform="gpu"):
        self.id, self.platform, self.process_index = id, platform, 0
        self._stats = None if limit is None else {"bytes_limit": limit, "bytes_in_use": in_use}

    def memory_stats(self):
        return self._stats


def assert_one_line(rc, out, err, *parts):
    assert rc == 2, (rc, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(ERR_PREFIX), err
    assert "Traceback" not in err
    for p in parts:
        assert p in lines[0], (p, lines[0])


# --- the estimate: one model for info, bench and the pre-flight -------------------------------------------

def test_estimate_of_the_400_cubed_box():
    e = memory_estimate(D3Q19, (400,) * 3, "float32", form="ab")  # the A-B step (GPU; CPU with DISTLBM_INPLACE=0)
    pop = 19 * 400 ** 3 * 4
    assert e["population_bytes"] == pop and e["cells"] == 400 ** 3
    assert e["moments_bytes"] == 4 * 400 ** 3 * 4
    assert e["step_working_set_bytes"] == 2 * pop + e["moments_bytes"]
    assert e["flags_bytes"] == 0 and e["setup_bytes"] == 0
    assert e["total_bytes"] == e["step_working_set_bytes"]  # 10.0 GiB: 2.21x the populations
    assert 10.0 < e["total_bytes"] / GIB < 10.1
    # in place (the CPU slab form): the populations once, slabs and faces (measured peak: 1.11x with the runtime)
    e = memory_estimate(D3Q19, (400,) * 3, "float32", form="in_place")
    assert pop < e["total_bytes"] < 1.06 * pop
    assert memory_estimate(D3Q19, (400,) * 3, "float32")["step_form"] == "in_place"  # what runs on this CPU
    assert memory_estimate(D3Q19, (32,) * 3, "float32")["step_form"] == "whole"  # fits the caches


def test_bench_and_info_use_the_same_estimate():
    from distlbm import bench

    assert bench.memory_estimate is memory.memory_estimate


def test_float16_storage_halves_the_populations_not_the_moments():
    e32 = memory_estimate(D3Q19, (256,) * 3, "float32")
    e16 = memory_estimate(D3Q19, (256,) * 3, "float16")
    assert e16["population_bytes"] * 2 == e32["population_bytes"]
    assert e16["moments_bytes"] == e32["moments_bytes"]  # float32 compute


def test_walls_add_flags_and_the_link_bit_transient():
    cav = resolve("cavity3d", {"n": 64})
    e = memory_estimate(cav.lattice, cav.setup.shape, "float32", None, cav.setup.features)
    cells = math.prod(cav.setup.shape)
    assert e["flags_bytes"] == (1 + 4 + 4 + 3 * 4) * cells  # kind, link bits, moving bits, wall velocity
    # moving walls: measured 104 B/cell above the runtime while the link bits are built at 252^3 (distlbm.memory;
    # 250 B/cell before the geometry ran slab by slab)
    assert 90 * cells <= e["setup_bytes"] <= 110 * cells and e["total_bytes"] >= e["setup_bytes"]
    # Bouzidi links, inlet, outlet, a body: the inflow velocity and the outlet density are one plane along x per
    # block (Features.x_invariant; 16 B/cell before), the Bouzidi fractions counted on every cell (the set-up
    # builds them so; the run keeps a box of planes)
    sph = resolve("sphere", {"n": 40})
    e = memory_estimate(sph.lattice, sph.setup.shape, "float32", None, sph.setup.features)
    cells = math.prod(sph.setup.shape)
    assert e["flags_bytes"] == (1 + 4 + 19 + 1) * cells  # kind, links, q, body ids
    assert 25 * cells <= e["setup_bytes"] <= 30 * cells
    assert e["total_bytes"] == e["step_working_set_bytes"] + e["flags_bytes"]  # the step is the peak now


def test_forces_on_bodies_cost_a_few_slabs_where_the_step_runs_in_slabs():
    # 3D-1Z at D = 20, one of two devices' blocks: the forces' whole-array momentum exchange holds 5 arrays of
    # Q values besides the populations twice; summed slab by slab (stepper.make_forces) they need a few slabs.
    # Measured peak RSS of the run on 2 CPU devices: 2.41 GB before, 1.41 GB after
    st = resolve("schaefer_turek_3d1z", {"n": 20})
    block = (501, 42, 84)
    whole = memory_estimate(st.lattice, block, "float32", None, st.setup.features, form="whole")
    slabs = memory_estimate(st.lattice, block, "float32", None, st.setup.features, form="in_place")
    pop = whole["population_bytes"]
    assert whole["temporaries_bytes"] >= 5 * pop
    assert slabs["step_working_set_bytes"] < 2 * pop
    assert slabs["total_bytes"] == slabs["step_working_set_bytes"] + slabs["flags_bytes"] > slabs["setup_bytes"]
    ab = memory_estimate(st.lattice, block, "float32", None, st.setup.features, form="ab")
    assert 2 * pop < ab["step_working_set_bytes"] < 3 * pop
    # on a GPU the fused kernel (A-B: the in-place kernels do not cover Bouzidi links and open faces) holds the
    # populations twice, and the forces at the sample steps a few 64 MiB slabs (stepper.runs_in_slabs)
    from distlbm.stepper import READER_SLAB_BYTES_GPU

    fused = memory_estimate(st.lattice, block, "float32", None, st.setup.features, form="fused")
    periodic = memory_estimate(st.lattice, block, "float32", None, None, form="fused")
    extra = fused["step_working_set_bytes"] - periodic["step_working_set_bytes"]
    assert extra == 8 * READER_SLAB_BYTES_GPU and fused["step_working_set_bytes"] < 2.2 * pop + extra


def test_readers_of_large_blocks_go_slab_by_slab_on_gpus(monkeypatch):
    # forces and diagnostics: on GPUs the step is the fused kernel (or the whole-array XLA step), but a whole-array
    # reader would hold a streamed copy and 5 Q-arrays of temporaries beside the populations
    import jax
    import jax.numpy as jnp

    from distlbm import stepper

    f = jax.ShapeDtypeStruct((19, 64, 64, 64), jnp.float32)  # 19 MiB
    assert not stepper.runs_in_slabs(f, "float32", whole_bytes=1 << 30)
    assert stepper.runs_in_slabs(f, "float32", whole_bytes=1 << 20)  # CPU: the step's own slab form
    assert stepper.reader_slab_bytes() == stepper.SLAB_BYTES
    monkeypatch.setattr(jax, "default_backend", lambda: "gpu")
    assert stepper.slab_form(19 << 20, whole_bytes=1 << 20, planes=64) == "whole"  # the step: one kernel
    assert stepper.runs_in_slabs(f, "float32", whole_bytes=1 << 20)
    assert not stepper.runs_in_slabs(f, "float32", whole_bytes=1 << 30)
    assert stepper.reader_slab_bytes() == stepper.READER_SLAB_BYTES_GPU
    monkeypatch.setenv("DISTLBM_SLABS", "0")
    assert not stepper.runs_in_slabs(f, "float32", whole_bytes=1 << 20)


# --- what is available ----------------------------------------------------------------------------------

def test_host_available_reads_meminfo_and_falls_back(tmp_path, monkeypatch):
    f = tmp_path / "meminfo"
    f.write_text("MemTotal:       24684084 kB\nMemFree:  1 kB\nMemAvailable:   1000 kB\n")
    real_open = open

    def fake_open(path, *a, **k):
        if path == "/proc/meminfo":
            return real_open(f, *a, **k)
        return real_open(path, *a, **k)

    monkeypatch.setattr("builtins.open", fake_open)
    assert memory._meminfo_available() == 1000 * 1024

    def missing(path, *a, **k):
        if path == "/proc/meminfo":
            raise FileNotFoundError(path)
        return real_open(path, *a, **k)

    monkeypatch.setattr("builtins.open", missing)
    got = memory._meminfo_available()
    assert got is not None and got > 0  # os.sysconf


def test_device_available_from_memory_stats():
    assert memory.device_available(FakeDevice(0, 80 * GIB, 2 * GIB)) == (78 * GIB, "bytes_limit - bytes_in_use")
    assert memory.device_available(FakeDevice(0))[0] is None  # no statistics: unknown


def test_unknown_memory_skips_the_check():
    rep = check_fits(D3Q19, (4000,) * 3, devices=[FakeDevice(0)], available=lambda d: None)
    assert rep["fits"] and not rep["checked"]


# --- the check -------------------------------------------------------------------------------------------

def test_too_large_for_the_host_names_everything():
    with pytest.raises(InsufficientMemoryError) as exc:
        check_fits(D3Q19, (4000,) * 3, "float32", devices=[FakeDevice(0, platform="cpu")],
                   available=lambda d: (int(21.3 * GIB), "MemAvailable"))
    msg = str(exc.value)
    assert isinstance(exc.value, ConfigError)
    # a CPU host: the step streams in place (the populations once)
    for part in ("lattice D3Q19 4000x4000x4000 float32", "needs 4.44 TiB", "populations 4.42 TiB (streamed in place)",
                 "step slabs and faces", "this host", "21.3 GiB is available", "MemAvailable", "at most about",
                 "float16"):
        assert part in msg, (part, msg)
    n = int(re.search(r"at most about (\d+)\^3 cells fit", msg).group(1))
    # the suggestion fits, and is not far from the largest that does
    lim = usable(int(21.3 * GIB))
    assert memory_estimate(D3Q19, (n,) * 3)["total_bytes"] <= lim
    assert memory_estimate(D3Q19, (int(n * 1.02) + 1,) * 3)["total_bytes"] > lim


def test_runs_that_fit_are_not_refused():
    """The test suite's runs and the 400^3 box on this 24 GiB machine: allowed when memory is free."""
    free = lambda d: 23 * GIB  # noqa: E731
    cpu = [FakeDevice(0, platform="cpu")]
    assert check_fits(D3Q19, (400,) * 3, "float32", devices=cpu, available=free)["fits"]
    assert check_fits(D3Q19, (256,) * 3, "float16", devices=cpu, available=free)["fits"]
    assert check_fits(get_lattice("D3Q27"), (160,) * 3, "float32", devices=cpu, available=free)["fits"]
    # 400^3 float32 needs 10.0 GiB: allowed down to about 11 GiB free
    assert check_fits(D3Q19, (400,) * 3, "float32", devices=cpu, available=lambda d: 11 * GIB)["fits"]


def test_mesh_splits_over_accelerators():
    """A 2x2x2 mesh of accelerators: each holds an eighth; each device's own figure is checked."""
    per_dev = memory_estimate(D3Q19, (200,) * 3)["total_bytes"]
    devs = [FakeDevice(i, limit=int(per_dev * 1.2) + (1 << 30)) for i in range(8)]
    rep = check_fits(D3Q19, (400,) * 3, mesh_shape=(2, 2, 2), devices=devs)
    assert rep["fits"] and rep["per_device_bytes"] == per_dev and len(rep["units"]) == 8
    devs[5] = FakeDevice(5, limit=int(per_dev * 0.8))
    with pytest.raises(InsufficientMemoryError) as exc:
        check_fits(D3Q19, (400,) * 3, mesh_shape=(2, 2, 2), devices=devs)
    msg = str(exc.value)
    assert "on gpu:5" in msg and "mesh 2x2x2" in msg and "per device" in msg and "bytes_limit" in msg


def test_cpu_devices_share_the_host():
    """8 CPU devices of one process need the whole lattice from the one host memory."""
    total = 8 * memory_estimate(D3Q19, (200,) * 3)["total_bytes"]  # each block's step has its own slabs
    assert total >= memory_estimate(D3Q19, (400,) * 3)["total_bytes"]
    cpus = [FakeDevice(i, platform="cpu") for i in range(8)]
    rep = check_fits(D3Q19, (400,) * 3, mesh_shape=(2, 2, 2), devices=cpus, available=lambda d: 2 * total)
    # and the process's runtime (Python, JAX, XLA), which the estimate left out
    assert [u["unit"] for u in rep["units"]] == ["host"] and rep["units"][0]["needed_bytes"] == total + RUNTIME_BYTES
    with pytest.raises(InsufficientMemoryError) as exc:
        check_fits(D3Q19, (400,) * 3, mesh_shape=(2, 2, 2), devices=cpus, available=lambda d: total // 2)
    assert "this host (8 cpu devices)" in str(exc.value)
    # and processes sharing a node share it too
    with pytest.raises(InsufficientMemoryError):
        check_fits(D3Q19, (400,) * 3, mesh_shape=(2, 2, 2), devices=cpus[:4], sharing=2,
                   available=lambda d: int(0.9 * total))


def test_skip_variable(monkeypatch):
    monkeypatch.setenv("DISTLBM_MEMORY_CHECK", "0")
    assert check_fits(D3Q19, (4000,) * 3, available=lambda d: 1)["fits"]


# --- preflight(cfg): the run's mesh and devices, nothing allocated -----------------------------------------

def test_preflight_refuses_the_4000_cubed_box():
    """`run box --set lattice=D3Q19 --set n=4000` (today: _ArrayMemoryError 4.42 TiB): no machine here has
    9.8 TiB, so the real available figure refuses it."""
    cfg = resolve("box", {"lattice": "D3Q19", "n": 4000})
    with pytest.raises(InsufficientMemoryError) as exc:
        preflight(cfg)
    msg = str(exc.value)
    assert msg.startswith("case box: lattice D3Q19 4000x4000x4000 float32 needs 4.44 TiB")  # in place on CPU
    assert "is available" in msg and "at most about" in msg


def test_preflight_counts_a_per_cell_force_field():
    """A case's per-cell force field (kolmogorov: Setup.force_field) is D values per cell of the compute dtype beside
    the populations, built before them: the pre-flight's estimate holds it in the flags and the set-up."""
    cfg = resolve("kolmogorov", {"lattice": "D3Q19", "n": 64, "nx": 64})
    est = preflight(cfg, 1, available=lambda d: 23 * GIB)["estimate"]
    assert est["flags_bytes"] == est["setup_bytes"] == 3 * 4 * 64 ** 3
    plain = memory_estimate(D3Q19, (64,) * 3, "float32")
    assert est["total_bytes"] == plain["total_bytes"] + 3 * 4 * 64 ** 3


def test_preflight_uses_the_runs_mesh():
    import jax

    cfg = resolve("box", {"lattice": "D3Q19", "n": 400})
    rep = preflight(cfg, available=lambda d: 23 * GIB)
    plan = plan_mesh((400,) * 3)
    assert rep["fits"] and rep["mesh"] == list(plan["mesh_shape"])
    assert math.prod(plan["mesh_shape"]) == len(jax.devices())  # all devices, as make_domain does
    cfg = resolve("box", {"lattice": "D3Q19", "n": 400, "mesh": "2x2x1"})
    assert preflight(cfg, available=lambda d: 23 * GIB)["mesh"] == [2, 2, 1]
    # a given mesh, device count or domain
    assert preflight(cfg, (1, 1, 2), available=lambda d: 23 * GIB)["mesh"] == [1, 1, 2]
    assert preflight(cfg, "2x1x1", available=lambda d: 23 * GIB)["mesh"] == [2, 1, 1]
    assert math.prod(preflight(cfg, 4, available=lambda d: 23 * GIB)["mesh"]) == 4


def test_preflight_with_small_available_memory(monkeypatch):
    monkeypatch.setattr(memory, "available_memory", lambda d: (2 * GIB, "MemAvailable"))
    cfg = resolve("cavity3d", {"n": 254})
    with pytest.raises(InsufficientMemoryError) as exc:
        preflight(cfg)
    msg = str(exc.value)
    assert "case cavity3d: lattice D3Q19 256x256x256 float32" in msg and "cell flags" in msg
    assert "2 GiB is available" in msg and "at most about" in msg
    # with float16 storage the set-up of the moving walls' link bits is the peak (93 B/cell against 38 + 21)
    cfg = resolve("cavity3d", {"n": 300, "dtype": "float16"})
    with pytest.raises(InsufficientMemoryError) as exc:
        preflight(cfg)
    assert "while the wall link bits are built" in str(exc.value), str(exc.value)


def test_cmd_run_one_line(cli, monkeypatch):
    """Through `distlbm run`, once cmd_run calls the pre-flight (wired by the lead)."""
    import distlbm.cli

    if "preflight" not in inspect.getsource(distlbm.cli):
        pytest.skip("cmd_run does not call distlbm.memory.preflight yet")
    rc, out, err = cli("run", "box", "--set", "lattice=D3Q19", "--set", "n=4000", "--steps", 1)
    assert_one_line(rc, out, err, "lattice D3Q19 4000x4000x4000 float32", "needs 4.44 TiB", "is available")


# --- bench and info ----------------------------------------------------------------------------------------

def test_bench_too_large_is_one_line(cli):
    """`bench --size 3000` (today: JaxRuntimeError Out of memory) is refused before allocating."""
    rc, out, err = cli("bench", "--lattice", "D3Q19", "--size", 3000, "--steps", 1, "--repeat", 1)
    assert_one_line(rc, out, err, "bench: lattice D3Q19 3000x3000x3000 float32", "needs", "is available",
                    "at most about")


def test_bench_refused_with_small_available_memory(cli, monkeypatch):
    monkeypatch.setattr(memory, "available_memory", lambda d: (1 * GIB, "MemAvailable"))
    rc, out, err = cli("bench", "--lattice", "D3Q19", "--size", 200, "--steps", 1, "--repeat", 1,
                       "--bandwidth-mib", 0)  # needs 1.25 GiB
    assert_one_line(rc, out, err, "D3Q19 200x200x200", "1 GiB is available")


def test_bench_reports_the_estimate(cli):
    rc, out, err = cli("bench", "--lattice", "D2Q9", "--size", 32, "--steps", 1, "--repeat", 1,
                       "--bandwidth-mib", 0, "--json")
    assert rc == 0, err
    r = json.loads(out)
    assert r["estimated_bytes"] == memory_estimate(get_lattice("D2Q9"), (32, 32))["total_bytes"]


def test_bench_on_a_mesh_says_which_estimate_is_per_device(cli):
    """On a mesh, estimated_bytes (the whole lattice's) stood beside one device's peak memory, unsaid: the keys now
    say which is which; estimated_bytes keeps its meaning (the whole lattice)."""
    rc, out, err = cli("bench", "--lattice", "D2Q9", "--size", 32, "--steps", 1, "--repeat", 1, "--mesh", "2x1",
                       "--bandwidth-mib", 0, "--json")
    assert rc == 0, err
    r = json.loads(out)
    whole = memory_estimate(get_lattice("D2Q9"), (32, 32))["total_bytes"]
    assert r["estimated_bytes"] == r["estimated_bytes_whole_lattice"] == whole
    assert r["estimated_bytes_per_device"] == memory_estimate(get_lattice("D2Q9"), (16, 32))["total_bytes"] < whole


def test_info_says_whether_it_fits(cli, monkeypatch):
    rc, out, err = cli("info", "--lattice", "D3Q19", "--size", 8, "--json")
    assert rc == 0, err
    m = json.loads(out)["memory_estimate"]
    assert m["fits"] is True
    rc, out, err = cli("info", "--lattice", "D3Q19", "--size", 8)
    assert "fits: yes" in out
    monkeypatch.setattr(memory, "available_memory", lambda d: (1 * GIB, "MemAvailable"))
    rc, out, err = cli("info", "--lattice", "D3Q19", "--size", 400)
    assert rc == 0, err
    assert "fits: no" in out and "at most about" in out
    rc, out, err = cli("info", "--lattice", "D3Q19", "--size", 400, "--json")
    assert json.loads(out)["memory_estimate"]["fits"] is False


def test_an_oversize_channel_is_refused_before_its_fluid_path_is_scanned(cli, monkeypatch, tmp_path):
    """The fluid-path check scanned the whole lattice (minutes for a large one) inside the configuration, before
    the memory pre-flight refused a lattice that could never fit. The scan now waits for the pre-flight; a
    refused run leaves no folder behind; a run that fits scans once, before its populations exist."""
    import distlbm.cases.obstacles.channel as channel

    scanned = []
    real = channel.check_fluid_path
    monkeypatch.setattr(channel, "check_fluid_path", lambda *a, **k: scanned.append(1) or real(*a, **k))
    monkeypatch.setattr(memory, "available_memory", lambda d: (1 * GIB, "MemAvailable"))
    out = tmp_path / "big"
    rc, _, err = cli("run", "channel_flow", "--set", "lattice=D3Q19", "--set", "n=60", "--set",
                     "obstacles=sphere(0.5, 0.2, 0.2, 0.05)", "--steps", 1, "--out", out)
    assert rc == 2 and "is available" in err and not scanned, (rc, err, scanned)
    assert not out.exists()  # the folder this run made, still empty: removed
    rc, out_text, err = cli("run", "channel_flow", "--set", "n=5", "--steps", 2, "--out", tmp_path / "small")
    assert rc == 0 and scanned == [1], (err, scanned)


def test_a_stop_signal_during_the_fluid_path_scan_ends_the_run_at_once(cli, monkeypatch, tmp_path):
    """SIGTERM during the scan was announced ("the run stops ... before its first step") but the scan went on to
    its end, then the populations were allocated and compiled. The scan asks between slabs; the run ends there
    with exit 75 and nothing written."""
    import signal

    import distlbm.cases.obstacles.spec as spec
    from distlbm.driver import signals

    slabs = []
    real = spec._Components.add

    def add(self, *a, **k):  # each slab of the scan: a SIGTERM arrives during the first
        slabs.append(1)
        if len(slabs) == 1:
            flag = signals.process_flag()
            flag._handler(signal.SIGTERM, None)
        return real(self, *a, **k)

    import distlbm.cases.obstacles.channel as channel

    monkeypatch.setattr(spec._Components, "add", add)
    real_scan = channel.check_fluid_path  # in slabs of a few planes each (one slab for the whole lattice otherwise)
    monkeypatch.setattr(channel, "check_fluid_path", lambda *a, **k: real_scan(*a, **k, max_bytes=64))
    out = tmp_path / "run"
    rc, stdout, err = cli("run", "channel_flow", "--set", "n=5", "--steps", 2, "--out", out)
    assert rc == 75 and "received during set-up: the run stops before its first step" in err
    assert len(slabs) == 1 and "compiled" not in stdout and not out.exists(), (len(slabs), stdout, err)


def test_a_stop_signal_before_the_checks_ends_the_run_before_the_lattice_is_built(cli, monkeypatch, tmp_path):
    """SIGTERM during the pre-flight (or anywhere in set-up before the checks end) of a case with nothing to scan:
    the run went on to build the lattice, compile and write summary.json and log.jsonl, then stopped "before its
    first step". It now stops where the scan's stop does: exit 75, one line, no Simulation, no folder left."""
    import signal

    import distlbm.driver as driver
    from distlbm.driver import signals

    real = memory.preflight

    def preflight(cfg, *a, **k):
        signals.process_flag()._handler(signal.SIGTERM, None)
        return real(cfg, *a, **k)

    def simulation(*a, **k):
        pytest.fail("the lattice was built after the stop signal")

    monkeypatch.setattr(memory, "preflight", preflight)
    monkeypatch.setattr(driver, "Simulation", simulation)
    out = tmp_path / "run"
    rc, stdout, err = cli("run", "box", "--set", "n=8", "--steps", 4, "--out", out)
    assert rc == 75, (rc, stdout, err)
    assert "SIGTERM received during set-up: the run stops before its first step; nothing ran" in err, err
    assert not out.exists()


def test_a_stop_signal_during_the_lattices_build_is_obeyed_before_the_compile(cli, monkeypatch, tmp_path):
    """SIGTERM while the Simulation builds the lattice (its flags, the initial state: minutes for a large one) was
    obeyed only after the first compile and the step-0 field output. The run now stops before both: exit 75, the
    start-up stop's line, no field file."""
    import signal

    import distlbm.driver.loop as loop
    from distlbm.driver import signals

    real = loop.build_model

    def build_model(cfg):
        signals.process_flag()._handler(signal.SIGTERM, None)
        return real(cfg)

    monkeypatch.setattr(loop, "build_model", build_model)
    out = tmp_path / "run"
    rc, stdout, err = cli("run", "box", "--set", "n=8", "--steps", 4, "--output-every", 2, "--out", out)
    assert rc == 75, (rc, stdout, err)
    assert "stopped at step 0 during start-up on SIGTERM, before any step ran" in stdout, stdout
    assert "compiled" not in stdout and not list(out.glob("fields/*.h5")), (stdout, list(out.rglob("*")))


# ---- a refused run leaves the folder as it found it -----------------------------------------------------------

@pytest.fixture(scope="module")
def earlier_run(tmp_path_factory):
    """The folder of a run of box (n = 8) that ended at step 4 with its checkpoint there."""
    from distlbm.cli import main

    out = tmp_path_factory.mktemp("earlier") / "run"
    assert main(["run", "box", "--set", "n=8", "--steps", "4", "--checkpoint-every", "4", "--out", str(out)]) == 0
    return out


def _refused(which, out, earlier, monkeypatch):
    """(the command's arguments, its exit status, its one line on stderr) of a run refused after its folder is made:
    in the Simulation (a mesh that does not split the lattice, a missing --init-from or checkpoint), in its run's
    checks before it writes (an end step before the restart's, no room for one checkpoint), or before the processes
    meet (DISTLBM_CPU_DEVICES)."""
    run = ["run", "box", "--set", "n=8", "--out", out]
    if which == "mesh":
        return (["run", "box", "--set", "n=9", "--mesh", "2x1x1", "--out", out], 2,
                "distlbm: configuration error: --mesh = '2x1x1': lattice size 9 along x does not divide over 2 "
                "devices (mesh 2x1x1); sizes that would work: 8 or 10, or a mesh size along x of 1, 3 or 9")
    if which == "init_from":
        return ([*run, "--init-from", out.parent / "nonexistent"], 2,
                f"distlbm: initial state failed: --init-from {out.parent / 'nonexistent'}: no such checkpoint file or "
                f"run folder")
    if which == "restart_file":
        return ([*run, "--restart", out.parent / "none.h5"], 2,
                f"distlbm: restart failed: --restart {out.parent / 'none.h5'}: no such checkpoint file")
    if which == "end_before_start":
        return ([*run, "--restart", earlier / "checkpoints", "--steps", 2], 2,
                "distlbm: configuration error: steps = 2 (--steps / steps): the step to run to, not a count, is before "
                "step 4 of the checkpoint this run continues; expected 4 or more (to run 2 more steps: --steps 6)")
    if which == "no_room":
        monkeypatch.setattr(files, "free_bytes", lambda d: 1 << 16)
        return ([*run, "--steps", 4], 74,
                f"distlbm: error: writing {out / 'checkpoints'} failed: not enough space for one checkpoint before the "
                f"run starts: needs about 1.04 MiB, 64.00 KiB free in {out} (a run writes one on a stop signal or at "
                f"the wall-time limit); free space there or choose another --out; the run stopped (exit status 74)")
    assert which == "cpu_devices"
    monkeypatch.setenv("XLA_FLAGS", "")  # (the tests' device count, which the setting would not override)
    monkeypatch.setenv("DISTLBM_CPU_DEVICES", "x")
    return (run, 2, "distlbm: configuration error: DISTLBM_CPU_DEVICES = 'x': expected a whole number of CPU devices "
                    ">= 1 and <= 2147483647")


REFUSALS = ["mesh", "init_from", "restart_file", "end_before_start", "no_room", "cpu_devices"]


def _tree(folder) -> dict:
    """Every entry under `folder` (not the folder itself, whose time a run's write probe sets): its bytes (files),
    modification time and inode."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None, p.stat().st_mtime_ns,
                                         p.stat().st_ino)
            for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("which", REFUSALS)
def test_a_refused_run_removes_the_folder_it_made(cli, monkeypatch, tmp_path, earlier_run, which):
    """A run refused in its Simulation (`distlbm run box --set n=9 --mesh 2x1x1`, a missing --init-from) or in its
    run's checks left the empty folder it made, or the folder and the lock file of a run that never ran (the
    pre-flight's refusals removed it already). Its lock file is withdrawn and the folder it made removed; the status
    and the line are the same."""
    out = tmp_path / "run"
    args, status, line = _refused(which, out, earlier_run, monkeypatch)
    rc, stdout, err = cli(*args)
    assert (rc, err.strip().splitlines()) == (status, [line]), (rc, stdout, err)
    assert list(tmp_path.iterdir()) == [], list(tmp_path.rglob("*"))


@pytest.mark.parametrize("found", ["empty", "files"])
@pytest.mark.parametrize("which", REFUSALS)
def test_a_refused_run_leaves_a_folder_that_was_there_as_it_was(cli, monkeypatch, tmp_path, earlier_run, which,
                                                                 found):
    """A folder there before the run, empty or holding files (a killed run's lock record among them), is left as
    it was by a refused run: nothing removed, nothing added, no record of the refused run in the lock file."""
    out = tmp_path / "run"
    out.mkdir()
    if found == "files":
        (out / "notes.txt").write_text("keep me")
        (out / "sub").mkdir()
        (out / "sub" / "data.bin").write_bytes(b"\0" * 10)
        (out / lock.NAME).write_text(json.dumps({  # a run on this host that was killed (its process is gone)
            "format": lock.FORMAT, "host": socket.gethostname(), "pid": 2 ** 22 + 1, "job": None,
            "started": "2026-12-01 10:00:00 UTC", "command": "distlbm run box", "stale_after_s": 300.0,
            "heartbeat_s": 15.0, "ended": False}))
        for p in out.rglob("*"):
            os.utime(p, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    before = _tree(out)
    args, status, line = _refused(which, out, earlier_run, monkeypatch)
    rc, stdout, err = cli(*args)
    assert (rc, err.strip().splitlines()) == (status, [line]), (rc, stdout, err)
    assert out.is_dir() and _tree(out) == before


@pytest.mark.parametrize("how", ["steps", "settings"])
def test_a_refused_restart_leaves_the_runs_folder_as_it_was(cli, tmp_path, earlier_run, how):
    """--restart latest in the run's own folder, refused (an end step before the checkpoint's; settings the
    checkpoint does not have): the lock file said the refused command had ended, not the run that wrote the folder.
    Everything stays as it was, the lock file's record and times too."""
    import shutil

    out = tmp_path / "run"
    shutil.copytree(earlier_run, out)  # (times kept: copy2)
    before = _tree(out)
    if how == "steps":
        args, line = ["--set", "n=8", "--steps", 2], (
            "distlbm: configuration error: steps = 2 (--steps / steps): the step to run to, not a count, is before "
            "step 4 of the checkpoint this run continues; expected 4 or more (to run 2 more steps: --steps 6)")
    else:
        args, line = ["--set", "n=10"], (
            f"distlbm: restart failed: --restart latest: {out / 'checkpoints' / 'ckpt_000000004.h5'}: incompatible "
            f"with this "
            f"configuration (n: checkpoint 8, now 10; lattice shape: checkpoint [8, 8, 8], now [10, 10, 10]); "
            f"expected the same case, lattice and parameters (only output, stop and sampling settings may change); "
            f"to continue it as it ran, give its values: --set n=8")
    rc, stdout, err = cli("run", "box", *args, "--restart", "--out", out)
    assert (rc, err.strip().splitlines()) == (2, [line]), (rc, stdout, err)
    assert _tree(out) == before


@pytest.mark.parametrize("what,option", [(w, o) for w in ("not_hdf5", "truncated", "empty_folder", "missing",
                                                           "latest_none", "latest_no_out")
                                          for o in ("--restart", "--init-from")
                                          if not (w.startswith("latest") and o == "--init-from")])  # none for it
@pytest.mark.parametrize("dry", [False, True])
def test_a_checkpoint_that_cannot_be_used_is_refused_naming_the_option(what, option, dry, tmp_path, earlier_run,
                                                                       cli):
    """`--restart /etc/passwd` (a file that is no checkpoint) was refused as "restart failed: /etc/passwd: not a
    readable HDF5 file", naming neither the option nor what was expected; --init-from named itself ("--init-from:
    PATH: ..."). Both now say "OPTION VALUE: why; expected ...", the run and its dry run alike."""
    out = tmp_path / "o"
    if what == "not_hdf5":
        value = tmp_path / "passwd"
        value.write_text("root:x:0:0:root:/root:/bin/bash\n")
        why = f"{value}: not a readable HDF5 file ("
    elif what == "truncated":
        value = tmp_path / "ckpt_000000004.h5"
        value.write_bytes((earlier_run / "checkpoints" / "ckpt_000000004.h5").read_bytes()[:3000])
        why = f"{value}: not a readable HDF5 file ("
    elif what == "empty_folder":
        value = tmp_path / "empty"
        value.mkdir()
        why = f"{value}: no checkpoint in that folder"
    elif what == "missing":
        value = tmp_path / "none.h5"
        why = f"{value}: no such checkpoint file"
    elif what == "latest_none":
        out.mkdir()
        value = "latest"
        why = f"latest: no checkpoint in {out / 'checkpoints'}"
    else:  # (the dry run said "restart failed: --restart latest: no checkpoint in DIR", the run this)
        value = "latest"
        why = f"latest: no run folder {str(out)!r} to continue (--out)"
    args = ["run", "box", "--set", "n=8", "--out", out, option, value] + (["--dry-run"] if dry else [])
    rc, stdout, err = cli(*args)
    lines = err.strip().splitlines()
    kind = "restart failed" if option == "--restart" else "initial state failed"
    if what == "latest_no_out":
        kind = "configuration error"
    assert rc == 2 and len(lines) == 1 and lines[0].startswith(f"distlbm: {kind}: {option} {why}"), (stdout, err)
    if what in ("not_hdf5", "truncated"):
        assert "; expected a checkpoint file that distlbm run wrote" in lines[0], lines[0]
