"""Stop requests: SIGTERM, SIGINT and SIGUSR1 (what Slurm sends before a job's time limit) set a flag
that the run loop reads between compiled chunks; the run then stops with a checkpoint.

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

STOP_SIGNALS = ("SIGTERM", "SIGINT", "SIGUSR1")


class StopFlag:
    """Set by a stop signal; the run loop asks `requested` between chunks."""

    def __init__(self, announce: bool = False):
        self.requested = False
        self.name = None
        self.announce = announce  # say the first stop signal at once (process 0 of `distlbm run`)

    def _handler(self, signum, frame):
        name = signal.Signals(signum).name
        if self.requested and name == "SIGINT":
            raise KeyboardInterrupt
        first = not self.requested
        self.requested = True
        self.name = name
        if first and self.announce:
            again = "; Ctrl-C again quits at once, without a checkpoint" if name == "SIGINT" else ""
            _say(f"distlbm: {name} received: the run stops with a checkpoint after the steps under way (or "
                 f"before its first step){again}")

    def install(self) -> dict:
        """Install the handlers (main thread only); returns the previous ones."""
        old = {}
        if threading.current_thread() is threading.main_thread():
            for n in STOP_SIGNALS:
                sig = getattr(signal, n)
                old[sig] = signal.signal(sig, self._handler)
        return old

    @contextlib.contextmanager
    def installed(self):
        """The handlers for the duration of a block. Once a stop was asked for, they stay: a repeated
        stop signal must not kill the run while it writes its checkpoint (under Slurm the tasks get
        SIGTERM both from Slurm and through srun)."""
        old = self.install()
        try:
            yield self
        finally:
            if not self.requested:
                for sig, h in old.items():
                    signal.signal(sig, h)


def _say(text: str):
    """A line on stderr from a signal handler: one unbuffered write (a print could find its stream's buffer in
    use by the interrupted code, and fail)."""
    try:
        os.write(2, ("\n" + text + "\n").encode())
    except OSError:
        pass


_PROCESS_FLAG: StopFlag | None = None


@contextlib.contextmanager
def process_scope():
    """A fresh process-wide stop flag with its handlers for the duration of a command (`distlbm run`
    from its first line): the run loop finds it with `process_flag()`."""
    global _PROCESS_FLAG
    flag = StopFlag()
    prev = _PROCESS_FLAG
    _PROCESS_FLAG = flag
    try:
        with flag.installed():
            from distlbm.parallel.processes import env_rank  # after the handlers: it imports jax

            flag.announce = env_rank() == 0
            yield flag
    finally:
        _PROCESS_FLAG = prev


def process_flag() -> StopFlag | None:
    """The flag of the enclosing `process_scope`, if any."""
    return _PROCESS_FLAG
