"""The Slurm templates in slurm/, run through a fake sbatch/srun/mpirun (tests/fake_slurm/) that start
local processes with the SLURM_* variables set: each template starts the program correctly, forwards
the time-limit signal (--signal=B:USR1@...) to the run, which checkpoints and exits 75, and then
resubmits itself; the resubmitted job continues from the checkpoint with --restart latest."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
FAKE = REPO / "tests" / "fake_slurm"
SLURM = REPO / "slurm"

pytestmark = pytest.mark.skipif(not (BIN / "mpiexec").exists(), reason="mpiexec from the mpich wheel not installed")


def _env(devices: int, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "FAKE_SBATCH", "OMPI_", "PMI_"))}
    env.update(PATH=f"{FAKE}{os.pathsep}{BIN}{os.pathsep}{env.get('PATH', '')}",
               XLA_FLAGS=f"--xla_force_host_platform_device_count={devices}", DISTLBM=str(BIN / "distlbm"),
               DISTLBM_HEARTBEAT_TIMEOUT="10", PYTHONPATH=str(REPO))
    env.pop("OUT", None)
    env.pop("CASE", None)
    env.update(extra)
    return env


def _sbatch(tmp_path, env, *args, timeout=120):
    p = subprocess.run([str(FAKE / "sbatch"), *map(str, args)], cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=timeout)
    assert p.returncode == 0, p.stdout + p.stderr
    state = tmp_path / ".fake_sbatch"
    subs = [json.loads(ln) for ln in (state / "submissions.jsonl").read_text().splitlines()]
    jobs = [json.loads(ln) for ln in (state / "jobs.jsonl").read_text().splitlines()]
    logs = {j["job_id"]: (tmp_path / f"distlbm-{j['job_id']}.out").read_text() for j in jobs}
    return subs, jobs, logs


def _check_chain(tmp_path, subs, jobs, logs):
    """Job 1 got the signal, stopped with a checkpoint (75) and resubmitted itself; job 2 continued
    from that checkpoint with --restart latest, got the signal in turn (the run is long, so that the
    signal always finds it running, however fast the machine), stopped (75) and resubmitted itself
    again (recorded, not run)."""
    everything = "\n".join(logs.values())
    assert [j["exit"] for j in jobs] == [75, 75], everything
    assert len(subs) == 3, everything
    first, second = logs[jobs[0]["job_id"]], logs[jobs[1]["job_id"]]
    for log in (first, second):
        assert "sending SIGUSR1 to the batch shell" in log and "asking the run to checkpoint" in log, log
        assert "stopped at step" in log and "on SIGUSR1" in log and "run exited with status 75" in log, log
    assert "--restart" not in first.split("\n")[0]  # no checkpoint yet: the first job starts fresh
    # the resubmissions: same script and arguments, the first job's output folder, restart from latest
    out = f"out/taylor_green2d-{jobs[0]['job_id']}"
    for k, sub in enumerate(subs[1:], 1):
        assert sub["from_job"] == str(jobs[k - 1]["job_id"]) and sub["args"] == subs[0]["args"]
        assert sub["env"]["OUT"] == out and sub["env"]["DISTLBM_RESUBMIT_COUNT"] == str(k)
    assert "--restart latest" in second.split("\n")[0] and "restarted from" in second, second
    stop1 = int(first.split("stopped at step ")[1].split()[0])
    stop2 = int(second.split("stopped at step ")[1].split()[0])
    assert 0 < stop1 < stop2 < STEPS
    assert f"running steps {stop1}..{STEPS}" in second, second
    summary = json.loads((tmp_path / out / "summary.json").read_text())
    assert summary["step"] == stop2 and summary["status"] == "stopped" and summary["restarted_from"], summary
    return first, second


STEPS = 10 ** 7
TG = ["taylor_green2d", "--set", "n=32", "--progress-every", "50", "--steps", STEPS]
SIGNAL = dict(FAKE_SBATCH_MAX_JOBS="2", FAKE_SBATCH_SIGNAL_JOBS="2", FAKE_SBATCH_SIGNAL_WHEN="out/*/log.jsonl",
              FAKE_SBATCH_SIGNAL_LINES="2")  # the start record and one progress record: the run loop is going


def test_single_node_template_resubmits_after_signal(tmp_path):
    env = _env(2, **SIGNAL)
    subs, jobs, logs = _sbatch(tmp_path, env, "--output=distlbm-%j.out", SLURM / "single_node.sbatch", *TG)
    first, second = _check_chain(tmp_path, subs, jobs, logs)
    assert "on 2 cpu devices, mesh 2x1 (1 process)" in first, first


def test_multi_node_srun_template(tmp_path):
    # the template asks for 2 nodes x 4 tasks; here 2 tasks on one machine, also for the resubmissions
    size = "--nodes=1 --ntasks-per-node=2 --output=distlbm-%j.out"
    env = _env(1, **SIGNAL, DISTLBM_SBATCH_ARGS=size)
    subs, jobs, logs = _sbatch(tmp_path, env, *size.split(), SLURM / "multi_node_srun.sbatch", *TG)
    first, second = _check_chain(tmp_path, subs, jobs, logs)
    assert "mesh 2x1 (2 processes), launched by slurm" in first, first
    assert subs[1]["argv"][:3] == size.split()


def test_multi_node_mpirun_template(tmp_path):
    size = "--nodes=1 --ntasks-per-node=2 --output=distlbm-%j.out"
    env = _env(1, **SIGNAL, DISTLBM_SBATCH_ARGS=size)
    subs, jobs, logs = _sbatch(tmp_path, env, *size.split(), SLURM / "multi_node_mpirun.sbatch", *TG,
                               "--comm", "mpi")
    first, second = _check_chain(tmp_path, subs, jobs, logs)
    assert "2 MPI ranks x 1 cpu device, mesh 2x1 (mpi4jax)" in first, first


def test_wall_time_stop_resubmits(tmp_path):
    """--wall-time ends the run with a checkpoint and 75 without any signal: the template resubmits
    (the resubmission is only recorded here)."""
    env = _env(1, FAKE_SBATCH_MAX_JOBS="1")
    subs, jobs, logs = _sbatch(tmp_path, env, "--output=distlbm-%j.out", SLURM / "single_node.sbatch",
                               "taylor_green2d", "--set", "n=64", "--steps", 10 ** 7, "--wall-time", 1)
    log = logs[jobs[0]["job_id"]]
    assert [j["exit"] for j in jobs] == [75], log
    assert "on the wall-time limit" in log, log
    assert len(subs) == 2 and subs[1]["env"]["OUT"] == f"out/taylor_green2d-{jobs[0]['job_id']}"
    assert list((tmp_path / subs[1]["env"]["OUT"] / "checkpoints").glob("ckpt_*.h5"))


def test_cancelled_job_is_not_resubmitted(tmp_path):
    """scancel (SIGTERM to the shell and the run): the run still stops with a checkpoint (75), but a
    cancelled job is not resubmitted."""
    env = _env(1, FAKE_SBATCH_MAX_JOBS="2", FAKE_SBATCH_SIGNAL_WHEN="out/*/log.jsonl",
               FAKE_SBATCH_SIGNAL_LINES="2", FAKE_SBATCH_CANCEL="1")
    subs, jobs, logs = _sbatch(tmp_path, env, "--output=distlbm-%j.out", SLURM / "single_node.sbatch", *TG)
    log = logs[jobs[0]["job_id"]]
    assert "sending SIGTERM to the whole job" in log and "SIGTERM" in log.split("sending")[1], log
    assert [j["exit"] for j in jobs] == [75] and len(subs) == 1, log
    assert list((tmp_path / f"out/taylor_green2d-{jobs[0]['job_id']}" / "checkpoints").glob("ckpt_*.h5"))


def test_out_among_the_options_is_the_chains_folder(tmp_path):
    """`--out DIR` among the run's options: the later jobs looked for checkpoints in OUT's default, restarted
    nothing and were refused by DIR's checkpoints of "another run" (exit 2, the chain ended). It is the chain's
    folder now (OUT, inherited by the resubmissions); --out and another OUT are refused."""
    env = _env(1, **dict(SIGNAL, FAKE_SBATCH_SIGNAL_WHEN="results/*/log.jsonl"))
    subs, jobs, logs = _sbatch(tmp_path, env, "--output=distlbm-%j.out", SLURM / "single_node.sbatch", *TG,
                               "--out", "results/tg")
    everything = "\n".join(logs.values())
    assert [j["exit"] for j in jobs] == [75, 75], everything
    assert all(sub["env"]["OUT"] == "results/tg" for sub in subs[1:]) and len(subs) == 3, subs
    second = logs[jobs[1]["job_id"]]
    assert "-> results/tg --restart latest" in second.split("\n")[0] and "restarted from" in second, second
    assert not (tmp_path / "out").exists()
    env = _env(1, FAKE_SBATCH_MAX_JOBS="1", OUT="elsewhere")
    p = subprocess.run([str(FAKE / "sbatch"), "--output=x-%j.out", str(SLURM / "multi_node_srun.sbatch"), *map(str, TG),
                        "--out=results/tg"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    log = "".join(f.read_text() for f in tmp_path.glob("x-*.out"))
    assert "--out results/tg and OUT=elsewhere name two folders; give one" in log + p.stdout + p.stderr, log


@pytest.mark.parametrize("template", ["single_node.sbatch", "multi_node_srun.sbatch", "multi_node_mpirun.sbatch"])
def test_a_chain_of_jobs_that_make_no_progress_ends(tmp_path, template):
    """A job signalled during its start-up stops at step 0 without a checkpoint (exit 75) and was resubmitted,
    every time where --time is shorter than the start-up plus the signal's margin: 20 jobs that ran no step.
    Two such jobs in a row end the chain. (The program here stops as such a run does, at once: the chain's
    logic is the template's.)"""
    prog = tmp_path / "stops_in_start_up"
    prog.write_text("#!/bin/bash\necho 'stopped at step 0 during start-up on SIGUSR1 (a stand-in)'\nexit 75\n")
    prog.chmod(0o755)
    env = _env(1, FAKE_SBATCH_MAX_JOBS="3", DISTLBM=str(prog))
    size = ["--nodes=1", "--ntasks=1"] if template.startswith("multi") else []
    subs, jobs, logs = _sbatch(tmp_path, env, "--output=distlbm-%j.out", *size, SLURM / template, *TG)
    everything = "\n".join(logs.values())
    assert [j["exit"] for j in jobs] == [75, 75], everything
    assert len(subs) == 2 and subs[1]["env"]["DISTLBM_STALLED"] == "1", everything  # one resubmission, then none
    last = logs[jobs[-1]["job_id"]]
    assert "not resubmitting: 2 jobs in a row stopped without a new checkpoint" in last, last


@pytest.mark.parametrize("template", ["single_node.sbatch", "multi_node_srun.sbatch", "multi_node_mpirun.sbatch"])
def test_a_job_restarts_from_the_newest_checkpoint_by_step_and_never_from_part_files_alone(tmp_path, template):
    """The templates asked for --restart latest where any ckpt_*.h5 was found: the part files of a split write
    killed before its file was renamed (no checkpoint) were refused by --restart latest, exit 2, and the chain
    stopped instead of starting fresh. And the newest checkpoint (whether a job made progress) was the last by
    name: ckpt_999999999.h5 after ckpt_1000000000.h5, so a job that wrote the latter counted as stalled."""
    prog = tmp_path / "prints_its_arguments"
    prog.write_text("#!/bin/bash\necho \"the run's arguments: $*\"\nexit 0\n")
    prog.chmod(0o755)
    out = tmp_path / "run"
    (out / "checkpoints").mkdir(parents=True)
    (out / "checkpoints" / "ckpt_000000100.p0.h5").write_bytes(b"part")  # a split write's part alone
    size = ["--nodes=1", "--ntasks=1"] if template.startswith("multi") else []
    env = _env(1, FAKE_SBATCH_MAX_JOBS="1", DISTLBM=str(prog), OUT=str(out))
    subs, jobs, logs = _sbatch(tmp_path, env, "--output=distlbm-%j.out", *size, SLURM / template, *TG)
    log = logs[jobs[0]["job_id"]]
    assert jobs[0]["exit"] == 0 and "the run's arguments: run" in log and "--restart" not in log, log
    # the newest by step: the job below writes ckpt_1000000000.h5 beside ckpt_999999999.h5 and stops (75): progress,
    # resubmitted (the stall count stays 0; by name it was the older one, unchanged: stalled)
    (out / "checkpoints" / "ckpt_999999999.h5").write_bytes(b"x")
    prog.write_text("#!/bin/bash\necho \"the run's arguments: $*\"\ntouch \"$OUT/checkpoints/ckpt_1000000000.h5\"\n"
                    "exit 75\n")
    (tmp_path / ".fake_sbatch").rename(tmp_path / ".fake_sbatch_1")
    env = _env(1, FAKE_SBATCH_MAX_JOBS="1", DISTLBM=str(prog), OUT=str(out))
    subs, jobs, logs = _sbatch(tmp_path, env, "--output=distlbm-%j.out", *size, SLURM / template, *TG)
    log = logs[jobs[0]["job_id"]]
    assert jobs[0]["exit"] == 75 and "--restart latest" in log, log
    assert len(subs) == 2 and subs[1]["env"]["DISTLBM_STALLED"] == "0", log


def test_a_signal_as_the_run_starts_waits_for_its_handlers(tmp_path):
    """SIGUSR1 at the job's start reached the run before it had installed its handlers: SIGUSR1's default ended it
    (exit 138, no word, not resubmitted). The template holds it DISTLBM_SIGNAL_GRACE seconds from the launch."""
    env = _env(1, FAKE_SBATCH_MAX_JOBS="1", FAKE_SBATCH_SIGNAL_WHEN="distlbm-*.out", FAKE_SBATCH_SIGNAL_LINES="1",
               DISTLBM_SIGNAL_GRACE="2")  # the job's first line: the run is being launched
    subs, jobs, logs = _sbatch(tmp_path, env, "--output=distlbm-%j.out", SLURM / "single_node.sbatch", *TG)
    log = logs[jobs[0]["job_id"]]
    # the signal finds the run in its set-up (a slow start: it stops before its first step, nothing written) or
    # running (it stops with a checkpoint): either way the run's own handler, exit 75 and SIGUSR1 named
    in_set_up = "SIGUSR1 received during set-up: the run stops before its first step" in log
    running = "stopped at step" in log and "on SIGUSR1" in log
    assert jobs[0]["exit"] == 75 and (in_set_up or running), log
    assert len(subs) == 2, log  # resubmitted


@pytest.mark.parametrize("template", ["single_node.sbatch", "multi_node_srun.sbatch", "multi_node_mpirun.sbatch"])
def test_a_chain_begun_with_restart_path_continues_its_own_checkpoints(tmp_path, template):
    """`--restart PATH` among the options (a run continued in a new folder, or taken back to an older checkpoint)
    stayed among them for every resubmission and won over the template's --restart latest: every job went back to
    PATH, moved the checkpoints of the job before it aside (abandoned_after_STEP/) and redid its steps; a chain of
    20 jobs got no further than its first. The first job starts from PATH; a later one continues the chain's newest
    checkpoint, and one that finds none (the first stopped in its start-up) starts from PATH again."""
    prog = tmp_path / "writes_a_checkpoint"  # each job adds a checkpoint, 100 steps on, and stops (75)
    prog.write_text("#!/bin/bash\necho \"the run's arguments: $*\"\nmkdir -p \"$OUT/checkpoints\"\n"
                    "n=$(ls \"$OUT/checkpoints\" | wc -l)\n"
                    "touch \"$OUT/checkpoints/$(printf 'ckpt_%09d.h5' $(( (n + 1) * 100 )))\"\nexit 75\n")
    prog.chmod(0o755)
    size = ["--nodes=1", "--ntasks=1"] if template.startswith("multi") else []
    env = _env(1, FAKE_SBATCH_MAX_JOBS="3", DISTLBM=str(prog), DISTLBM_SBATCH_ARGS=" ".join(size))
    subs, jobs, logs = _sbatch(tmp_path, env, "--output=distlbm-%j.out", *size, SLURM / template, *TG,
                               "--restart", "old/checkpoints/ckpt_000000050.h5", "--out", "new")
    runs = [next(x for x in logs[j["job_id"]].splitlines() if x.startswith("the run's arguments: "))
            for j in jobs]
    assert [j["exit"] for j in jobs] == [75, 75, 75] and len(subs) == 4, "\n".join(logs.values())
    assert "--restart old/checkpoints/ckpt_000000050.h5" in runs[0] and "latest" not in runs[0], runs[0]
    for run in runs[1:]:
        assert "--restart latest" in run and "old/checkpoints" not in run, run
    assert all(s["env"]["DISTLBM_STALLED"] == "0" for s in subs[1:]), subs
    # a first job that wrote no checkpoint: the next one starts from PATH, not fresh
    prog.write_text("#!/bin/bash\necho \"the run's arguments: $*\"\nexit 75\n")
    (tmp_path / ".fake_sbatch").rename(tmp_path / ".fake_sbatch_1")
    for f in tmp_path.glob("distlbm-*.out"):  # (the job ids begin again)
        f.unlink()
    env = _env(1, FAKE_SBATCH_MAX_JOBS="2", DISTLBM=str(prog), DISTLBM_SBATCH_ARGS=" ".join(size))
    subs, jobs, logs = _sbatch(tmp_path, env, "--output=distlbm-%j.out", *size, SLURM / template, *TG,
                               "--restart=old/checkpoints/ckpt_000000050.h5", "--out", "other")
    runs = [next(x for x in logs[j["job_id"]].splitlines() if x.startswith("the run's arguments: "))
            for j in jobs]
    assert len(runs) == 2 and all("--restart old/checkpoints/ckpt_000000050.h5" in r for r in runs), runs


@pytest.mark.parametrize("template", ["single_node.sbatch", "multi_node_srun.sbatch", "multi_node_mpirun.sbatch"])
def test_a_mistyped_resubmission_limit_is_said_and_the_default_kept(tmp_path, template):
    """DISTLBM_MAX_RESUBMITS=abc made the template's `[ COUNT -ge abc ]` a shell error, taken as false: a chain past
    any limit was resubmitted again (until it stalled or ended). The job says so and keeps the default, 20."""
    prog = tmp_path / "stops"
    prog.write_text("#!/bin/bash\nmkdir -p \"$OUT/checkpoints\"; touch \"$OUT/checkpoints/ckpt_$RANDOM$RANDOM.h5\"\n"
                    "echo 'stopped at step 9 on SIGUSR1 (a stand-in)'\nexit 75\n")  # a new checkpoint: no stall
    prog.chmod(0o755)
    env = _env(1, FAKE_SBATCH_MAX_JOBS="1", DISTLBM=str(prog), DISTLBM_MAX_RESUBMITS="abc", DISTLBM_RESUBMIT_COUNT="25")
    size = ["--nodes=1", "--ntasks=1"] if template.startswith("multi") else []
    subs, jobs, logs = _sbatch(tmp_path, env, "--output=distlbm-%j.out", *size, SLURM / template, *TG)
    log = logs[jobs[0]["job_id"]]
    assert [j["exit"] for j in jobs] == [75], log
    assert "DISTLBM_MAX_RESUBMITS=abc: expected a whole number of resubmissions; taking 20" in log, log
    assert "not resubmitting, 25 resubmissions already (DISTLBM_MAX_RESUBMITS)" in log and len(subs) == 1, log


SWEEP_JOB = """#!/bin/bash
#SBATCH --ntasks=2
#SBATCH --output=distlbm-%j.out
pids=()
for re in 50 100; do
    "$DISTLBM" run taylor_green2d --set n=16 --set re=$re --steps 20 --out sweep/re$re &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; echo "run exited with status $?"; done
"""


def test_runs_started_in_a_batch_script_without_srun_are_single_processes(tmp_path):
    """A job of --ntasks=2 filled with single-process runs started by its script (`distlbm run a & distlbm run b &
    wait`, no srun): the script's SLURM_NTASKS is the allocation's, and its SLURM_PROCID = 0 made each run take
    itself for one of 2 processes of an srun step; both failed at start-up with a traceback ("coordinator_address
    should be defined"). A process without an srun step id is one run's only process."""
    script = tmp_path / "sweep.sbatch"
    script.write_text(SWEEP_JOB)
    subs, jobs, logs = _sbatch(tmp_path, _env(1), script)
    log = logs[jobs[0]["job_id"]]
    assert log.count("run exited with status 0") == 2 and "Traceback" not in log, log
    for re in (50, 100):
        summary = json.loads((tmp_path / "sweep" / f"re{re}" / "summary.json").read_text())
        assert summary["processes"] == 1 and summary["step"] == 20, summary


@pytest.mark.parametrize("template", ["single_node.sbatch", "multi_node_srun.sbatch", "multi_node_mpirun.sbatch"])
def test_a_site_installed_distlbm_on_path_is_the_default_program(tmp_path, template):
    """A centre that installs distlbm as a module (pip install, no ./.venv in the submit folder): with DISTLBM unset
    the templates ran .venv/bin/distlbm, which is not there (srun: "No such file or directory", the job lost).
    Without ./.venv the program is the distlbm on PATH."""
    bin_dir = tmp_path / "site" / "bin"
    bin_dir.mkdir(parents=True)
    prog = bin_dir / "distlbm"
    prog.write_text("#!/bin/bash\necho \"site distlbm ran: $*\"\nexit 0\n")
    prog.chmod(0o755)
    env = _env(1, FAKE_SBATCH_MAX_JOBS="1")
    env.pop("DISTLBM")
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    size = ["--nodes=1", "--ntasks=1"] if template.startswith("multi") else []
    subs, jobs, logs = _sbatch(tmp_path, env, "--output=distlbm-%j.out", *size, SLURM / template, *TG)
    log = logs[jobs[0]["job_id"]]
    assert jobs[0]["exit"] == 0 and "site distlbm ran: run taylor_green2d" in log, log


@pytest.mark.parametrize("template", ["single_node.sbatch", "multi_node_srun.sbatch", "multi_node_mpirun.sbatch"])
def test_the_default_program_is_dot_venv_s_before_the_one_on_path_and_said_when_neither(tmp_path, template):
    """The templates' program without DISTLBM: ./.venv/bin/distlbm of the submit folder (make) before a distlbm on
    PATH; with neither, one line that says where it looked and what to set, not srun's "No such file or directory"
    (which named only .venv/bin/distlbm: a site's user did not learn that PATH was looked in too)."""
    size = ["--nodes=1", "--ntasks=1"] if template.startswith("multi") else []
    for name, where in (("venv", tmp_path / ".venv" / "bin"), ("site", tmp_path / "site" / "bin")):
        where.mkdir(parents=True)
        (where / "distlbm").write_text(f"#!/bin/bash\necho \"{name} distlbm ran: $*\"\nexit 0\n")
        (where / "distlbm").chmod(0o755)
    env = _env(1, FAKE_SBATCH_MAX_JOBS="1")
    env.pop("DISTLBM")
    env["PATH"] = f"{tmp_path / 'site' / 'bin'}{os.pathsep}{env['PATH']}"
    subs, jobs, logs = _sbatch(tmp_path, env, "--output=distlbm-%j.out", *size, SLURM / template, *TG)
    log = logs[jobs[0]["job_id"]]
    assert jobs[0]["exit"] == 0 and "venv distlbm ran: run taylor_green2d" in log and "site" not in log, log
    # neither: no ./.venv, no distlbm on PATH (the fake Slurm's commands and the system's alone)
    other = tmp_path / "other"
    other.mkdir()
    env["PATH"] = os.pathsep.join([str(FAKE), "/usr/bin", "/bin"])
    subs, jobs, logs = _sbatch(other, env, "--output=distlbm-%j.out", *size, SLURM / template, *TG)
    log = logs[jobs[0]["job_id"]]
    assert jobs[0]["exit"] != 0 and "DISTLBM" in log and "PATH" in log and "No such file" not in log, log


def test_the_fake_sbatch_signals_a_listed_process_only_while_its_pid_is_still_that_process():
    """The fake sbatch lists a job's processes from /proc, then signals them: one that ended in between left its pid
    to the next process the machine made, perhaps another test's (its ranks and launchers are started all the time,
    and pids wrap within minutes here), which got the job's SIGTERM or SIGUSR1. A pid is signalled only while its
    start time is the one listed, through a pidfd, which no later process of that pid can take."""
    import importlib.machinery
    import importlib.util
    import signal

    loader = importlib.machinery.SourceFileLoader("fake_sbatch", str(FAKE / "sbatch"))
    sbatch = importlib.util.module_from_spec(importlib.util.spec_from_loader("fake_sbatch", loader))
    loader.exec_module(sbatch)
    p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        started = sbatch.start_time(p.pid)
        assert started is not None and (p.pid, started) in sbatch.descendants(os.getpid())
        # the same pid, another start: a process that took the pid of one listed before
        assert sbatch.send(p.pid, started + 1, signal.SIGTERM) is False
        assert p.poll() is None
        assert sbatch.send(p.pid, started, signal.SIGTERM) is True
        assert p.wait(timeout=60) == -signal.SIGTERM
        assert sbatch.send(p.pid, started, signal.SIGTERM) is False  # gone (reaped): nothing is sent
    finally:
        p.kill()
        p.wait()


def test_scaling_template_runs_a_point_per_power_of_two_up_to_the_jobs_tasks(tmp_path):
    """slurm/scaling.sbatch: scripts/scaling.py --launcher srun over 1, 2, ... the job's tasks (here 1 node x 2
    tasks), its files in scaling-<job id>/ of the submit folder; the job's own options after the defaults win."""
    env = _env(1, DISTLBM_REPO=str(REPO))
    subs, jobs, logs = _sbatch(tmp_path, env, "--nodes=1", "--ntasks-per-node=2", "--output=distlbm-%j.out",
                               SLURM / "scaling.sbatch", "--mode", "weak", "--cells-per-device", "8", "--steps", "2",
                               "--repeat", "1", "--no-plots", "--no-halo-timing", timeout=240)
    job = jobs[0]["job_id"]
    log = logs[job]
    assert jobs[0]["exit"] == 0 and len(subs) == 1, log
    assert "distlbm scaling job" in log and "2 tasks on 1 node(s)" in log, log
    data = json.loads((tmp_path / f"scaling-{job}" / "scaling.json").read_text())
    assert data["meta"]["complete"] is True
    assert [(r["launcher"], r["devices"], r["processes"]) for r in data["points"]] == [("srun", 1, 1), ("srun", 2, 2)]
    # a job submitted from elsewhere, without DISTLBM_REPO: one line, not Python's "can't open file"
    env.pop("DISTLBM_REPO")
    p = subprocess.run([str(FAKE / "sbatch"), "--output=other-%j.out", str(SLURM / "scaling.sbatch")], cwd=tmp_path,
                       env=env, capture_output=True, text=True, timeout=60)
    out = next(tmp_path.glob("other-*.out")).read_text()
    assert p.returncode == 0 and "scripts/scaling.py is not there; expected the job submitted from the distlbm " \
        "checkout, or DISTLBM_REPO=/path/to/distlbm" in out, out


def test_scaling_template_adds_a_jobs_points_to_those_of_an_earlier_job_in_its_folder(tmp_path):
    """A job given the --out of an earlier job (or requeued after its node failed: the same job id, so the same
    scaling-<job id>/) rewrote scaling.json with its own points alone: the earlier ones were lost. scaling.py now
    refuses a study into an earlier one's folder without --append, and the template runs with --append: the second
    job's points are added to the first's."""
    env = _env(1, DISTLBM_REPO=str(REPO))
    common = ["--nodes=1", "--ntasks-per-node=1", "--output=distlbm-%j.out", SLURM / "scaling.sbatch", "--mode", "weak",
              "--cells-per-device", "8", "--steps", "2", "--repeat", "1", "--no-plots", "--out", "study"]
    _sbatch(tmp_path, env, *common, "--devices", "1", timeout=240)
    subs, jobs, logs = _sbatch(tmp_path, env, *common, "--devices", "2", "--launcher", "local", timeout=240)
    assert [j["exit"] for j in jobs] == [0, 0], "\n".join(logs.values())
    data = json.loads((tmp_path / "study" / "scaling.json").read_text())
    assert sorted((r["launcher"], r["devices"]) for r in data["points"]) == [("local", 2), ("srun", 1)], data["points"]


@pytest.mark.parametrize("spelling", [["--devices-per-process", "2"], ["--devices-per-process=2"]])
def test_scaling_template_counts_devices_of_processes_of_several_devices(tmp_path, spelling):
    """--devices-per-process N (a process per node over its GPUs): the template's default --devices counted tasks
    (1, 2, ... the job's tasks), which are not multiples of N: scaling.py refused the job at once ('1 devices ... do not
    split into processes of 2 devices'). The default is N, 2N, ... N times the job's tasks now."""
    env = _env(1, DISTLBM_REPO=str(REPO))
    subs, jobs, logs = _sbatch(tmp_path, env, "--nodes=1", "--ntasks-per-node=2", "--output=distlbm-%j.out",
                               SLURM / "scaling.sbatch", "--mode", "weak", "--cells-per-device", "8", "--steps", "2",
                               "--repeat", "1", "--no-plots", "--no-halo-timing", *spelling, timeout=240)
    job = jobs[0]["job_id"]
    assert jobs[0]["exit"] == 0, logs[job]
    data = json.loads((tmp_path / f"scaling-{job}" / "scaling.json").read_text())
    assert [(r["devices"], r["processes"]) for r in data["points"]] == [(2, 1), (4, 2)], data["points"]


def test_scaling_template_passes_srun_args_that_start_with_dashes(tmp_path):
    """SRUN_ARGS (site options: "--mpi=pmix", "--gpus-per-task=1") always start with "--": passed to scaling.py as
    `--launcher-args "$SRUN_ARGS"`, two words, argparse took the value for an option and the job ended at once
    ("argument --launcher-args: expected one argument"), no point measured."""
    env = _env(1, DISTLBM_REPO=str(REPO), SRUN_ARGS="--mpi=pmi2")
    subs, jobs, logs = _sbatch(tmp_path, env, "--nodes=1", "--ntasks-per-node=1", "--output=distlbm-%j.out",
                               SLURM / "scaling.sbatch", "--mode", "weak", "--cells-per-device", "8", "--steps", "2",
                               "--repeat", "1", "--no-plots", timeout=240)
    job = jobs[0]["job_id"]
    log = logs[job]
    assert jobs[0]["exit"] == 0 and "expected one argument" not in log, log
    data = json.loads((tmp_path / f"scaling-{job}" / "scaling.json").read_text())
    assert [(r["launcher"], r["devices"], bool(r.get("mlups"))) for r in data["points"]] == [("srun", 1, True)]
    assert "--launcher-args=--mpi=pmi2" in data["meta"]["command"], data["meta"]["command"]
