"""Stop requests: SIGTERM, SIGINT, SIGUSR1 (what Slurm sends before a job's time limit) and SIGHUP (the terminal
or ssh session went away) set a flag that the run loop reads between compiled chunks; the run then stops with a
checkpoint. A standard output or error whose reader left does not stop it either (guarded_streams).

`distlbm run` installs the handlers on its first line (`process_scope`), so that a stop that
arrives during start-up (imports, process start-up, building the lattice, the first compile) is
answered too: the run stops before its first step with exit status 75 instead of dying with 143/138.
The first stop signal is said at once on process 0 (what the run will do, and for SIGINT that a second one
quits at once, without a checkpoint): nothing was said before, and a user who pressed Ctrl-C and saw nothing
for the chunk's ~10 s pressed it again and lost the checkpoint. A second SIGINT interrupts at once.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time

# SIGHUP: the terminal or ssh session that started the run went away (it killed the run, exit 129, no checkpoint)
STOP_SIGNALS = ("SIGTERM", "SIGINT", "SIGUSR1", "SIGHUP")


class StopRequested(BaseException):
    """Raised by a stop signal where there is nothing to save (`distlbm run --dry-run`): the command ends at once
    with exit 75. A BaseException, as KeyboardInterrupt, so that no `except Exception` takes it."""


SECOND_CTRL_C = "distlbm: interrupted (a second Ctrl-C): quit at once, without a checkpoint"  # (during start-up)


class StopFlag:
    """Set by a stop signal; the run loop asks `requested` between chunks."""

    def __init__(self, announce: bool = False, checkpoint: bool = True):
        self.started = None  # process_scope's: perf_counter() at the process's start
        self.dry_run = False  # `distlbm run --dry-run`: nothing to save
        self.requested = False
        self.name = None
        self.announce = announce  # say the first stop signal at once (process 0 of `distlbm run`)
        self.importing = False  # process_scope's imports (JAX): a second Ctrl-C leaves with os._exit
        self.checkpoint = checkpoint  # False: a stop writes none (a Simulation without out_dir), and the line says so

    def _handler(self, signum, frame):
        name = signal.Signals(signum).name
        if self.requested and name == "SIGINT":
            if self.importing:  # in the start-up's imports: an exception raised inside a native module's initialisation
                # (jaxlib) aborted the process (signal 6, under mpiexec 'BAD TERMINATION'); nothing to save yet
                _say(SECOND_CTRL_C)
                os._exit(130)
            raise KeyboardInterrupt
        first = not self.requested
        self.requested = True
        self.name = name
        if self.dry_run:  # nothing to save: stop at once, wherever it is (a large channel's build: minutes)
            if self.announce:
                _say(f"distlbm: {name} received: the dry run stops (it writes nothing)")
            raise StopRequested(name)
        if first and self.announce:
            if self.checkpoint:
                again = "; Ctrl-C again quits at once, without a checkpoint" if name == "SIGINT" else ""
                _say(f"distlbm: {name} received: the run stops with a checkpoint after the steps under way (or "
                     f"before its first step){again}")
            else:
                again = "; Ctrl-C again quits at once" if name == "SIGINT" else ""
                _say(f"distlbm: {name} received: the run stops after the steps under way (or before its first "
                     f"step), with no checkpoint (this Simulation has no out_dir){again}")

    def install(self) -> dict:
        """Install the handlers (main thread only); returns the previous ones."""
        old = {}
        if threading.current_thread() is threading.main_thread():
            for n in STOP_SIGNALS:
                sig = getattr(signal, n)
                if n == "SIGHUP" and signal.getsignal(sig) == signal.SIG_IGN:
                    continue  # `nohup distlbm run ... &`: a hangup is to be ignored, and the run goes on
                old[sig] = signal.signal(sig, self._handler)
        return old

    @contextlib.contextmanager
    def installed(self, keep_after_stop: bool = True):
        """The handlers for the duration of a block. Once a stop was asked for, they stay (keep_after_stop): a
        repeated stop signal must not kill the process while it ends the run (under Slurm the tasks get SIGTERM both
        from Slurm and through srun). keep_after_stop=False: the handlers before it are back after the block in any
        case (a run() called from Python, whose process goes on: left installed, a later SIGTERM was taken as the
        stop of a run no longer there, and the process no longer ended on it)."""
        old = self.install()
        try:
            yield self
        finally:
            if not self.requested or not keep_after_stop:
                for sig, h in old.items():
                    signal.signal(sig, h)


def after_the_run(rc: int, leave) -> None:
    """The process of `distlbm run` once its run has ended (what it wrote is written; the interpreter tears down JAX
    and MPI): a Ctrl-C quits at once with the run's exit status `rc` and one line, through `leave(rc)`. Before, a
    KeyboardInterrupt rose inside JAX's exit handler: a traceback after the run's last line, exit 1 or -2 instead
    of the stop's 75, and under mpiexec the other processes left to wait for this one."""

    def _quit(signum, frame):
        _say(f"distlbm: interrupted as the process ended, after its run: it quits at once with the run's exit "
             f"status {rc}")
        leave(rc)

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _quit)


def ignore_ctrl_c_at_the_end() -> None:
    """The last exit callback of `distlbm run`'s process (registered first): a Ctrl-C from here on is ignored. After
    the exit callbacks, Python's finalisation puts SIGINT back to the system's default before it ends (a handler
    of its own, after_the_run's, is no longer called): a Ctrl-C in that last ~0.1 s killed the process, exit -2
    (130 in a shell) after a complete run, unsaid. Nothing is left to stop: what the run wrote is written, its
    folder released, MPI finalised."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _say(text: str, fd: int = 2):
    """A line on stderr (or `fd`) from a signal handler: one unbuffered write (a print could find its stream's buffer
    in use by the interrupted code, and fail)."""
    try:
        os.write(fd, ("\n" + text + "\n").encode())
    except OSError:
        pass


class _GuardedStream:
    """The standard output or error of `distlbm run`, which a closed reader cannot end: a write or flush that finds it
    gone (a broken pipe: `distlbm run ... | head`, `2>&1 | head`, a `| tee` killed; EIO: the terminal closed) points
    the stream at /dev/null, says so once on the other stream, and the run goes on (its progress is in log.jsonl, its
    warnings in summary.json). Before, the next progress line raised out of the loop: exit 141, no checkpoint; and
    a start-up warning on a standard error whose reader had left (`2>&1 | head -1` after the first warning) ended
    the run before it began, exit 141, unsaid."""

    def __init__(self, stream, name: str = "output", fd_said: int = 2):
        self._stream = stream
        self._name = name  # "output" or "error"
        self._fd_said = fd_said  # where its loss is said: the other stream's descriptor
        self.lost = False

    def _gone(self, error: OSError):
        if not self.lost:
            self.lost = True
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), self._stream.fileno())
            except (OSError, ValueError):
                pass
            why = ("its reader left" if isinstance(error, BrokenPipeError) else
                   f"{error.strerror or error}")
            where = "its progress is in log.jsonl" if self._name == "output" else "its warnings are in summary.json"
            _say(f"distlbm: the standard {self._name} failed ({why}): the run goes on without it; {where}",
                 self._fd_said)

    def write(self, text):
        try:
            return self._stream.write(text)
        except OSError as e:
            self._gone(e)
            return len(text)

    def flush(self):
        try:
            self._stream.flush()
        except OSError as e:
            self._gone(e)
            try:
                self._stream.flush()  # what it held goes to /dev/null
            except (OSError, ValueError):
                pass

    def __getattr__(self, name):
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_streams():
    """sys.stdout and sys.stderr as _GuardedStreams for the duration of a block."""
    import sys

    old = sys.stdout, sys.stderr
    guarded = [s is not None and not isinstance(s, _GuardedStream) for s in old]
    if guarded[0]:
        sys.stdout = _GuardedStream(old[0], "output", 2)
    if guarded[1]:
        sys.stderr = _GuardedStream(old[1], "error", 1)
    try:
        yield
    finally:
        for name, was, put in zip(("stdout", "stderr"), old, guarded):
            if put:
                getattr(sys, name).flush()
                setattr(sys, name, was)


_PROCESS_FLAG: StopFlag | None = None


@contextlib.contextmanager
def process_scope(dry_run: bool = False, from_process_start: bool = False):
    """A fresh process-wide stop flag with its handlers for the duration of a command (`distlbm run`
    from its first line): the run loop finds it with `process_flag()`."""
    global _PROCESS_FLAG
    flag = StopFlag()
    # where `--wall-time` counts from: the process's start where the command is the program (its start-up is the
    # job's time), else here (a caller in a notebook or a test process, which may have run for hours)
    flag.started = time.perf_counter() - (process_age() if from_process_start else 0.0)
    flag.dry_run = dry_run
    prev = _PROCESS_FLAG
    _PROCESS_FLAG = flag
    try:
        with flag.installed():
            flag.importing = True
            try:
                from distlbm.parallel.processes import env_rank  # after the handlers: it imports jax
            finally:
                flag.importing = False

            flag.announce = env_rank() == 0
            yield flag
    finally:
        _PROCESS_FLAG = prev


def process_age() -> float:
    """Seconds since this process started (Linux /proc; 0 where it cannot be read): its start-up (Python, the
    imports, JAX, MPI) is part of the job's time that --wall-time budgets."""
    try:
        with open("/proc/self/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime") as fh:
            uptime = float(fh.read().split()[0])
        return max(0.0, uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK"))  # field 22: starttime in ticks
    except (OSError, ValueError, IndexError):
        return 0.0


def process_flag() -> StopFlag | None:
    """The flag of the enclosing `process_scope`, if any."""
    return _PROCESS_FLAG
