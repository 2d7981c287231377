"""Process start-up: join the processes of one run into one JAX runtime when launched by srun,
mpirun/mpiexec (Open MPI, MPICH/Hydra); a single process needs nothing."""

from __future__ import annotations

import contextlib
import math
import os
import re
import sys
import time

from distlbm.errors import ConfigError, env_whole

_STARTED = False


def _srun_task() -> bool:
    """Whether this process is a task of an srun job step: it has the step's id. A batch script (and what it starts
    without srun) has SLURM_NTASKS, the allocation's task count, and SLURM_PROCID = 0 but no step id, or one of
    Slurm's special steps (batch, extern, interactive: 0xFFFFFFF0 and up) in salloc's interactive step."""
    step = os.environ.get("SLURM_STEP_ID", os.environ.get("SLURM_STEPID", ""))
    return step.isdigit() and int(step) < 0xFFFFFFF0


def launcher() -> tuple[str, int]:
    """(launcher name, number of processes) from the environment the launcher sets."""
    for var, name in (("OMPI_COMM_WORLD_SIZE", "openmpi"), ("PMI_SIZE", "mpich"), ("PMIX_SIZE", "pmix"),
                      ("SLURM_NTASKS", "slurm")):
        val = os.environ.get(var)
        if val and val.isdigit() and int(val) > 1:
            if name == "slurm" and not _srun_task():
                # inside an allocation but not a task of srun: `distlbm run a & distlbm run b & wait` in a job of
                # --ntasks=4 took each run for one of 4 processes (a traceback: "coordinator_address should be
                # defined"), as its SLURM_PROCID = 0 passed for a task's
                continue
            if name in ("mpich", "pmix") and _srun_pmi_task(var, val):
                return "slurm", int(val)
            return name, int(val)
    return "none", 1


def _srun_pmi_task(size_var: str, size: str) -> bool:
    """Whether the PMI variables are srun's own (`srun --mpi=pmi2`, `--mpi=pmix`, or a site's MpiDefault in
    slurm.conf): a task of an srun step whose task count and rank are the PMI ones. Such a run was taken as started
    by mpiexec and found its coordinator with mpi4py: without mpi4py a plain `srun distlbm run` was refused, and
    with it the start depended on mpi4py's MPI speaking the site's PMI; JAX's own Slurm start needs neither. Hydra's
    mpiexec inside an allocation starts one proxy per node by srun: its ranks have the proxy's step, and their PMI
    size (all ranks) differs from the step's task count (nodes) except with one rank per node, where both say the
    same processes."""
    rank = os.environ.get("PMI_RANK" if size_var == "PMI_SIZE" else "PMIX_RANK", "")
    return _srun_task() and os.environ.get("SLURM_STEP_NUM_TASKS", os.environ.get("SLURM_NTASKS")) == size and \
        rank.isdigit() and rank == os.environ.get("SLURM_PROCID")


CPU_DEVICES_MAX = 8


def use_cpu_cores(comm: str = "jax", mesh: str = "") -> int:
    """Give a single process one CPU device per core (at most CPU_DEVICES_MAX), so that a run on CPUs
    splits its lattice over the cores as a mesh: XLA:CPU runs one device's step on about one core
    (Schaefer-Turek 3D-1Z D = 20 on 2 cores: 13.8 MLUPS on one device, 21-27 on a 1x2x1 mesh, the same
    bits), or as many as an explicit `mesh` ('2x2x2') needs. Call before JAX starts its backends; it
    changes nothing on GPUs (their devices are the default) nor where the count is already chosen:
    XLA_FLAGS with --xla_force_host_platform_device_count, JAX_NUM_CPU_DEVICES, DISTLBM_CPU_DEVICES (a
    number; 1: one device), several processes or comm='mpi' (one device per rank). Returns the number of
    CPU devices asked for (0: left as it was)."""
    n = cpu_devices()  # read where it does not apply too (start_variables)
    if comm == "mpi" or launcher()[1] > 1:
        return 0
    if "xla_force_host_platform_device_count" in os.environ.get("XLA_FLAGS", "") or \
            os.environ.get("JAX_NUM_CPU_DEVICES"):
        return 0
    if n is None and mesh and all(p.strip().isdigit() and int(p) > 0 for p in mesh.lower().split("x")):
        n = math.prod(int(p) for p in mesh.lower().split("x"))
    elif n is None:  # no mesh, or one that does not parse (the decomposition's own check says so)
        try:
            cores = len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            cores = os.cpu_count() or 1
        n = max(1, min(cores, CPU_DEVICES_MAX))
    if n == 1:
        return 0
    import jax

    try:
        jax.config.update("jax_num_cpu_devices", n)
    except Exception:  # the backends have started, or a JAX without the option: keep its default
        return 0
    return n


def cpu_devices() -> int | None:
    """The CPU device count DISTLBM_CPU_DEVICES asks of a single process (None where unset or empty); anything but a
    whole number from 1 to 2**31 - 1 is one line naming it."""
    # JAX's CPU client takes a C int: 2**63 passed as "a whole number >= 1" and was a TypeError traceback
    return env_whole("DISTLBM_CPU_DEVICES", None, "CPU devices", 1, 2 ** 31 - 1)


def start_variables() -> None:
    """Read the variables of the processes' start (DISTLBM_CPU_DEVICES, DISTLBM_HEARTBEAT_TIMEOUT,
    DISTLBM_STARTUP_TIMEOUT) where they apply and where they do not: run, its dry run, bench and info, on one process
    or several, whatever XLA_FLAGS says, refuse a mistyped one alike (DISTLBM_CPU_DEVICES = 'abc' was refused by a
    run on one process only: its dry run, bench without --mesh and every process of several ran with it, exit 0, and
    a job script's mistake was found where it first applied). ConfigError naming the variable and the value."""
    cpu_devices()
    heartbeat_timeout()
    startup_timeout()


def platform_before_start() -> str | None:
    """The platform of this process's JAX devices where it can be told without starting them (a process of several
    may not start them before jax.distributed does): the first of JAX_PLATFORMS (jax_platforms) where it is set,
    else 'cpu' where no accelerator's PJRT plugin is installed (the jax_plugins packages and entry points, the
    PJRT_NAMES_AND_LIBRARY_PATHS variable, libtpu), which JAX would prefer; None where it cannot be told."""
    import jax

    named = str(jax.config.jax_platforms or "").split(",")[0].strip().lower()
    if named:
        return named
    if os.environ.get("PJRT_NAMES_AND_LIBRARY_PATHS") or not missing_modules("libtpu"):
        return None
    import importlib.metadata
    import pkgutil

    try:
        import jax_plugins

        if any(True for _ in pkgutil.iter_modules(jax_plugins.__path__)):
            return None
    except ImportError:  # no plugin package at all
        pass
    if list(importlib.metadata.entry_points(group="jax_plugins")):
        return None
    return "cpu"


def env_rank() -> int:
    """This process's rank as the launcher set it (0 when launched alone); valid before start-up."""
    for var in ("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"):
        val = os.environ.get(var)
        if val and val.isdigit():
            return int(val)
    return 0


def _seconds(var: str, default: int, least: int) -> int:
    """A whole number of seconds from the environment variable `var` (`default` where unset or empty); anything else
    is one line naming it (a mistyped value was taken as the default, unsaid)."""
    # JAX's C++ takes an int: a larger one (99999999999 for "no limit") was a TypeError traceback
    return env_whole(var, default, "seconds", least, 2 ** 31 - 1, f" (default {default})")


def heartbeat_timeout() -> int:
    """Seconds after which the others give up on a silent process (DISTLBM_HEARTBEAT_TIMEOUT, default 20)."""
    return _seconds("DISTLBM_HEARTBEAT_TIMEOUT", 20, 2)


def startup_timeout() -> int:
    """Seconds the processes wait for each other to start (DISTLBM_STARTUP_TIMEOUT, default 300, JAX's own): the
    slowest process of a large job may reach its start minutes after the first (Python and JAX imported from a
    parallel file system by hundreds of processes at once); 120 s ended such a job at its start, after its wait in
    the queue. A process that died before they met is waited for that long (srun -K and mpirun end the job at once)."""
    return _seconds("DISTLBM_STARTUP_TIMEOUT", 300, 10)


@contextlib.contextmanager
def kept_signal_handlers(names=("SIGTERM", "SIGINT", "SIGUSR1", "SIGHUP")):
    """Put back the Python signal handlers of a block that replaces them below Python: jax.distributed.initialize
    installs XLA's preemption notifier as the SIGTERM handler, and a scancel or a preemption while a
    multi-process run started (its build, the first compile: minutes) was swallowed, the run going on to its end
    with exit 0 (and `distlbm bench` ran on). Python's own table still names the old handler, so each is set
    again, on the main thread."""
    import signal
    import threading

    main = threading.current_thread() is threading.main_thread()
    saved = {}
    if main:
        for n in names:
            sig = getattr(signal, n, None)
            if sig is not None:
                saved[sig] = signal.getsignal(sig)
    try:
        yield
    finally:
        for sig, h in saved.items():
            if h is not None:  # distlbm run's stop flag, or the default (a scancel ends `distlbm bench` too)
                signal.signal(sig, h)


def _flush_c_stdout():
    """Flush the C library's stdout buffer, where Gloo's lines (C++ std::cout) wait when stdout is a file or a pipe."""
    try:
        import ctypes

        ctypes.CDLL(None).fflush(None)
    except Exception:  # no C library to reach: nothing buffered there that we could flush
        pass


@contextlib.contextmanager
def quiet_stdout():
    """The standard output (the file descriptor, where C++ code writes) silenced for a block: Gloo connects the
    processes of a CPU run at the first collective over each set of devices and prints "[Gloo] Rank N is connected
    to 1 peer ranks ..." from every process, on stdout, lines of two processes garbled into one. The C library's
    buffer is flushed before stdout is given back: where stdout is a file or a pipe, Gloo's lines waited there and
    came out later (`distlbm bench --json > r.json` wrote them before its JSON object, which then did not parse)."""
    sys.stdout.flush()
    _flush_c_stdout()
    saved = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        yield
        _flush_c_stdout()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


def _connect_quietly():
    """The CPU collectives' first use, with the standard output silenced (quiet_stdout); the collectives of a
    mesh's axes connect when the mesh is made (MeshDomain). With several devices per process the gather connects
    one set per local device and returns once the first is done: the barrier over every device waits for the
    others (their lines came out after the silence, at a time that varied)."""
    import jax.numpy as jnp
    from jax.experimental import multihost_utils

    with quiet_stdout():
        multihost_utils.process_allgather(jnp.zeros(1, jnp.int32))
        multihost_utils.sync_global_devices("distlbm connect")


PORTS = (61440, 4096)  # JAX's own range for a coordinator port derived from the Slurm job: [61440, 65535]
# the step's factor in slurm_port: odd (steps 0..4095 of a job all differ) and near 4096 / golden ratio, so that jobs
# whose ids are close (a job array's tasks sharing a node) take other ports at steps close to each other: with 1031
# (1024 + 7), jobs 28 apart collided 4 steps apart (4 * 1031 = 4096 + 28); with 2531, none up to 96 apart and 32 steps
STEP_FACTOR = 2531


class StartupError(ConfigError):
    """A process cannot join its run's start (the coordinator port, process 0): said by the process that finds it."""


def missing_modules(*names: str) -> list[str]:
    """Those of `names` that cannot be imported here, found without importing them (importing mpi4py.MPI initialises
    MPI, a collective: a dry run, or a process that then stops on a configuration error, must not)."""
    import importlib.util

    missing = []
    for name in names:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a parent package absent, or a module without a spec
            found = False
        if not found:
            missing.append(name)
    return missing


def require_mpi_backend() -> None:
    """--comm mpi needs mpi4py and mpi4jax, the [mpi] extra: one line naming the setting and the packages, before
    anything is built (without them the run ended in a traceback, exit 1, and its dry run said "ready")."""
    missing = missing_modules("mpi4py", "mpi4jax")
    if missing:
        raise ConfigError(f"comm = 'mpi': needs mpi4py and mpi4jax, and {' and '.join(missing)} "
                          f"{'is' if len(missing) == 1 else 'are'} not installed here; expected comm = 'jax', or "
                          f"pip install 'distlbm[mpi]' (on a cluster: README, Installing on a cluster)")


def require_mpi_world(size: int) -> None:
    """--comm mpi: MPI's world (`size` processes) is the launcher's processes. Where the MPI that mpi4py uses cannot
    reach the launcher's process manager (`srun` without the --mpi plugin that MPI speaks, or another MPI's mpirun),
    each process's MPI_Init makes a world of its own, unsaid: each took itself for rank 0 of one, ran the whole
    lattice alone into the same folder (one of them said only that another run used it), 'launched by slurm' on
    '1 MPI rank'. One line (StartupError) from each process instead."""
    name, n = launcher()
    if n > 1 and size != n:
        way = ("srun --mpi=pmi2 or --mpi=pmix, the one this MPI speaks (srun --mpi=list; a site's MpiDefault may be "
               "none)" if name == "slurm" else "the mpiexec or mpirun of the MPI that mpi4py was built with")
        raise StartupError(f"comm = 'mpi': {'srun' if name == 'slurm' else name} started {n} processes, and MPI's "
                           f"world holds {size} of them: the MPI that mpi4py uses does not reach this launcher's "
                           f"processes; expected {way}")


def require_launcher_backend(comm: str = "jax") -> None:
    """Several processes of comm='jax' started by mpirun/mpiexec (not srun) find their coordinator with mpi4py: one
    line (StartupError) where it is missing (every process ended in JAX's traceback), said by the run before it makes
    its folder (an empty one was left) and by its dry run (it said "ready")."""
    name, n = launcher()
    if n > 1 and comm != "mpi" and name != "slurm" and missing_modules("mpi4py"):
        raise StartupError(f"{name} started {n} processes, and finding their coordinator under it needs mpi4py, "
                           f"which is not installed here; expected pip install mpi4py (or 'distlbm[mpi]'), or the "
                           f"processes started by srun")


def require_backends(comm: str = "jax") -> None:
    """What the run's start needs of MPI for `comm` under this launcher (require_mpi_backend, require_launcher_backend),
    said by the run before it makes its folder and by its dry run."""
    if comm == "mpi":
        require_mpi_backend()
    require_launcher_backend(comm)


class StartupStopped(Exception):
    """A stop signal while this process waited for the others at the run's start (initialize's `stop`): nothing ran.
    It waited out the start-up timeout (300 s by default) before, a Ctrl-C or scancel answered by nothing."""


def _listener(port: int):
    """A socket listening on `port` on every address of this host, or None where another holds it (a coordinator of
    another run holds it with SO_REUSEPORT, beside which a socket without it is refused)."""
    import socket

    for family, host in ((socket.AF_INET6, "::"), (socket.AF_INET, "0.0.0.0")):
        s = None
        try:
            # made inside the try: a host booted with ipv6.disable=1 has no IPv6 sockets at all (EAFNOSUPPORT)
            s = socket.socket(family, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # an earlier run's closed connections
            if family == socket.AF_INET6:  # IPv4 too, as gRPC's coordinator listens: where net.ipv6.bindv6only = 1
                s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)  # made it IPv6 alone
            s.bind((host, port))  # (TIME_WAIT) leave it free; a listener does not
            s.listen(1024)
            return s
        except OSError as e:
            if s is not None:
                s.close()
            if family == socket.AF_INET6 and e.errno in (97, 99):  # no IPv6 on this host: try IPv4
                continue
            return None
    return None


def _port_free(port: int) -> bool:
    """Whether a listening socket can take `port` on this host now."""
    s = _listener(port)
    if s is None:
        return False
    s.close()
    return True


def _free_port() -> int:
    """A port the kernel says is free now (its ephemeral range, which it hands to no other socket meanwhile)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


def slurm_port() -> int | None:
    """The coordinator port of a run under srun, the same on every process: from the job id and the step id.
    JAX derives it from the job id alone, so two runs started at once in one job (`srun -n 2 distlbm run a &
    srun -n 2 distlbm run b & wait`: a node filled with several runs) took the same port: their processes joined
    each other's coordinator and both runs crashed (SIGABRT, exit 134, a wall of coordination-service errors, some
    after the start-up timeout). Steps of one job get distinct ports (up to 4096 steps)."""
    job, step = os.environ.get("SLURM_JOB_ID", ""), os.environ.get("SLURM_STEP_ID", "")
    if not (job.isdigit() and step.isdigit()):
        return None
    return port_of(int(job), int(step))


def port_of(job: int, step: int) -> int:
    """The coordinator port of Slurm job `job`'s step `step` (slurm_port)."""
    return PORTS[0] + (job + STEP_FACTOR * step) % PORTS[1]


def _first_node(nodes: str) -> str:
    """The first host of a Slurm node list ('node[001-004,010],gpu2' -> 'node001'): process 0's, where JAX starts
    the coordinator (as jax._src.clusters.SlurmCluster reads it)."""
    head = re.match(r"[^,\[]*", nodes).group(0)
    rest = nodes[len(head):]
    if rest.startswith("["):
        head += re.match(r"[^,\-\]]*", rest[1:]).group(0)
    return head


ANSWER_WAIT = 10  # seconds a process other than 0 waits for process 0's answer to its greeting, then asks again
LINE_WAIT = 5  # seconds process 0 waits for a line of a connection to the run's port (a stranger's may send none)


def _greeting() -> str:
    return f"distlbm {os.environ.get('SLURM_JOB_ID')}.{os.environ.get('SLURM_STEP_ID')}"


def _read_line(conn, limit: int = 256) -> str:
    """A line of at most `limit` bytes, within the connection's timeout in all (one that sends a byte now and then
    does not hold process 0 longer: socket.timeout)."""
    import socket

    data = b""
    wait = conn.gettimeout()
    end = None if wait is None else time.monotonic() + wait
    while not data.endswith(b"\n") and len(data) < limit:
        if end is not None:
            left = end - time.monotonic()
            if left <= 0:
                raise socket.timeout("timed out")
            conn.settimeout(left)
        chunk = conn.recv(limit - len(data))
        if not chunk:
            break
        data += chunk
    return data.decode("utf-8", "replace").strip()


def _stopped(stop) -> None:
    if stop is not None and stop():
        raise StartupStopped()


WORD_LIMIT = 65536  # bytes of a process's error, and of the run's word (every error), on the run's port


def _room_for_connections(n: int) -> None:
    """Let process 0 hold a connection of each other process at once (_hold_port keeps them open until all have
    come): the soft limit of open files, often 1024, raised towards the hard one for a step of a thousand tasks."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = n + 256  # (and the files and sockets of the process itself)
        if soft != resource.RLIM_INFINITY and soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want if hard == resource.RLIM_INFINITY else min(want, hard),
                                                        hard))
    except (ImportError, ValueError, OSError):  # not on this system, or not allowed: the limit as it is
        pass


def _hold_port(sock, port: int, n: int, timeout: int, stop=None, error: str | None = None) -> list:
    """Process 0 under srun: on the run's port, held since it was found free, greet every other process of this run
    (the same job, step and number of processes), then let the port go to JAX's coordinator. Another run's process
    that comes to it is told so (and says so itself) instead of joining this run. Each process tells whether it found
    an error in its settings (`error`: this one's); once all have come, each is told the run's word: the errors found,
    [rank, error] each (returned here), empty where the run starts. A process that stopped on its settings said
    nothing to the others, which waited out the start-up timeout (300 s) and then said it had not come."""
    import json
    import socket

    mine = _greeting()
    _room_for_connections(n)
    seen: dict = {}  # rank: the connection that waits for the run's word
    failed = {} if error is None else {0: str(error)}
    deadline = time.monotonic() + timeout
    with sock:
        try:
            sock.settimeout(0.5)
            while len(seen) < n - 1:
                _stopped(stop)
                if time.monotonic() > deadline:
                    missing = sorted(set(range(1, n)) - set(seen))
                    shown = ", ".join(map(str, missing[:8])) + (f" and {len(missing) - 8} more" if len(missing) > 8
                                                                else "")
                    raise StartupError(f"process{'es' if len(missing) > 1 else ''} {shown} of {n} did not reach the "
                                       f"run's start within {timeout} s (DISTLBM_STARTUP_TIMEOUT): they did not "
                                       f"start, ended, or cannot reach {socket.gethostname()}:{port}")
                try:
                    conn, _ = sock.accept()
                except (socket.timeout, InterruptedError):
                    continue
                kept = False
                try:
                    conn.settimeout(LINE_WAIT)
                    words = _read_line(conn).split()
                    ours = (len(words) == 4 and " ".join(words[:2]) == mine and words[3] == str(n)
                            and words[2].isdigit() and 0 < int(words[2]) < n)
                    conn.sendall(f"{mine} {'ok' if ours else 'other'}\n".encode())
                    if not ours:
                        continue
                    # counted once it says it read the answer: a process that asked again after waiting
                    # ANSWER_WAIT for it left this connection closed, and was counted by it, the port let go
                    # under the connection it asked again on (reset: "held by another program or run")
                    conn.settimeout(ANSWER_WAIT)
                    said = _read_line(conn, WORD_LIMIT)
                    rank = int(words[2])
                    if said.startswith("failed "):
                        failed[rank] = said[len("failed "):]
                    elif said == "joining":
                        failed.pop(rank, None)
                    else:
                        continue
                    if rank in seen:  # (it asked again: its first connection is gone)
                        seen.pop(rank).close()
                    seen[rank] = conn
                    kept = True
                except OSError:  # gone meanwhile: it comes again, or the deadline says so
                    continue
                finally:
                    if not kept:
                        conn.close()
            word = f"{mine} start {json.dumps(sorted(failed.items()))}\n".encode()
            for conn in seen.values():
                try:
                    conn.sendall(word)
                except OSError:  # gone since: the start says so
                    pass
            for conn in seen.values():
                try:
                    conn.settimeout(ANSWER_WAIT)
                    conn.recv(1)  # the process closes first: its side keeps the closed connection, not the port
                except OSError:
                    pass
        finally:
            for conn in seen.values():
                conn.close()
    return [tuple(x) for x in sorted(failed.items())]


def _greet(host: str, port: int, rank: int, n: int, timeout: int, stop=None, error: str | None = None) -> list:
    """A process other than 0 under srun: make sure the port is held by process 0 of this run before JAX joins it. A
    run refused because its port was taken (process 0 says so) had its other processes join the coordinator found
    there, another run's, and end that run (exit 134): a week's run lost to a job that never started. It tells
    process 0 whether it found an error in its settings (`error`) and returns the run's word (_hold_port): the
    errors every process found, (rank, error) each."""
    import socket

    mine = _greeting()
    deadline = time.monotonic() + timeout
    pause = 0.1  # between tries, growing to 1 s: hundreds of processes wait for process 0 to import JAX
    said = "joining" if error is None else f"failed {' '.join(str(error).split())}"[:WORD_LIMIT - 1]
    while True:
        _stopped(stop)
        if pause > 0.1:
            time.sleep(pause)
        pause = min(1.0, pause * 1.5)
        try:
            conn = socket.create_connection((host, port), timeout=ANSWER_WAIT)
        except socket.gaierror as e:
            if e.errno == socket.EAI_AGAIN and time.monotonic() <= deadline:  # the name service, for a moment
                continue
            raise StartupError(f"process 0's host {host!r} (the first of SLURM_STEP_NODELIST) cannot be found: "
                               f"{e}") from None
        except OSError as e:
            # refused: process 0 not there yet; timed out, or no route to its node (a firewall that rejects the port:
            # firewalld's EHOSTUNREACH; a network not up yet): nothing said of the port's holder, tried again
            if time.monotonic() > deadline:
                raise _no_answer(host, port, timeout, "it did not start, ended, or cannot be reached from this node",
                                 e) from None
            continue
        with conn:
            try:
                conn.sendall(f"{mine} {rank} {n}\n".encode())
                answer = _read_line(conn)
                if answer == f"{mine} ok":
                    try:
                        conn.sendall(f"{said}\n".encode())  # process 0 counts this process once it reads this
                    except OSError:  # process 0 did not wait for it (this process was held up): ask again
                        answer = None
            except socket.timeout as e:  # process 0 busy with other connections: ask again
                if time.monotonic() > deadline:
                    raise _no_answer(host, port, timeout, "it did not start, or ended", e) from None
                answer = None
            except OSError as e:  # the connection reset or closed by what holds the port: not a distlbm process 0
                answer = f"({e})"
            if answer == f"{mine} ok":
                return _the_word(conn, mine, host, port, timeout, stop, n)
        if answer is None:
            continue
        raise StartupError(f"the port {port} on {host} that the run's processes start on (from {_step_named()}) is "
                           f"held by another program or run, not by this run's process 0; {PORT_ADVICE}")


def _the_word(conn, mine: str, host: str, port: int, timeout: int, stop=None, n: int = 1) -> list:
    """The run's word from process 0 once every process has come (_hold_port): the errors they found, (rank, error)
    each; a stop signal ends the wait (StartupStopped). It is read to its end, up to an error of each of the `n`
    processes (a cap of 128 KiB cut the word of a large step whose processes all found one error of a few hundred
    characters: each said that the start did not read, not the error)."""
    import json
    import socket

    data = b""
    deadline = time.monotonic() + timeout
    conn.settimeout(0.5)
    while not data.endswith(b"\n") and len(data) < WORD_LIMIT * (n + 1):
        _stopped(stop)
        if time.monotonic() > deadline:
            raise _no_answer(host, port, timeout, "it waited for other processes, which did not come", "timed out")
        try:
            chunk = conn.recv(WORD_LIMIT)
        except socket.timeout:
            continue
        except OSError:
            chunk = b""
        if not chunk:
            break
        data += chunk
    text = data.decode("utf-8", "replace").strip()
    if not text.startswith(f"{mine} start "):  # process 0 ended before the start: its own line says why
        raise StartupError(f"process 0 of the run on {host}:{port} ended before the run's start (its own line says "
                           f"why)")
    try:
        return [(int(r), str(e)) for r, e in json.loads(text[len(f"{mine} start "):])]
    except (ValueError, TypeError):
        raise StartupError(f"process 0 of the run on {host}:{port} sent a start that does not read: "
                           f"{text[:80]!r}") from None


def _no_answer(host: str, port: int, timeout: int, why: str, error) -> StartupError:
    return StartupError(f"process 0 of the run did not answer on {host}:{port} within {timeout} s "
                        f"(DISTLBM_STARTUP_TIMEOUT): {why} ({error})")


def _step_named() -> str:
    return f"the Slurm job {os.environ.get('SLURM_JOB_ID')} and step {os.environ.get('SLURM_STEP_ID')}"


PORT_ADVICE = ("set JAX_COORDINATOR_PORT to a free port for this run (the same for each of its processes, another for "
               "each run started at once)")


@contextlib.contextmanager
def coordinator_port(name: str, n: int = 1, stop=None):
    """The port process 0 coordinates the processes' start-up on (JAX_COORDINATOR_PORT while JAX starts), unless
    the user set JAX_COORDINATOR_ADDRESS or JAX_COORDINATOR_PORT. Under mpirun/mpiexec JAX takes
    hash(hostname) % 4096 + 61440 on rank 0: one in 4096 for two runs on one node, every time where
    PYTHONHASHSEED is fixed (a reproducibility recipe), and the two runs crash each other. Rank 0 takes a port the
    kernel says is free instead (JAX sends it to the other ranks). Under srun every process computes it
    (slurm_port); process 0 takes it on its node (one line where it is not free), and the n - 1 others make sure
    it is this run's process 0 that holds it before they join (_hold_port, _greet); `stop() is True` (a stop signal)
    ends their wait: StartupStopped."""
    if name == "none" or os.environ.get("JAX_COORDINATOR_ADDRESS") or os.environ.get("JAX_COORDINATOR_PORT"):
        yield
        return
    port = None
    if name == "slurm":
        port = slurm_port()
        if port is not None and n > 1 and not _MET:  # (met at the start already: meet_at_start)
            _meet_on_port(port, n, stop)
    elif env_rank() == 0:  # mpirun/mpiexec: only rank 0's value is used, and sent to the others
        port = _free_port()
    if port is None:
        yield
        return
    os.environ["JAX_COORDINATOR_PORT"] = str(port)
    try:
        yield
    finally:
        os.environ.pop("JAX_COORDINATOR_PORT", None)


def _meet_on_port(port: int, n: int, stop=None, error: str | None = None, timeout: int | None = None) -> list:
    """The processes of an srun step meet on the run's port (_hold_port on process 0, _greet on the others): the
    errors they found in their settings, (rank, error) each."""
    timeout = startup_timeout() if timeout is None else timeout
    if env_rank() == 0:
        sock = _listener(port)
        if sock is None:
            import socket

            raise StartupError(
                f"the port {port} that process 0 starts the run's processes on (from {_step_named()}) is in "
                f"use on {socket.gethostname()}: another program, or another run, holds it; {PORT_ADVICE}")
        return _hold_port(sock, port, n, timeout, stop, error)
    return _greet(_first_node(os.environ.get("SLURM_STEP_NODELIST", "")), port, env_rank(), n, timeout, stop, error)


def one_visible_gpu() -> str | None:
    """The variable that shows this process exactly one GPU (CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES or
    HIP_VISIBLE_DEVICES with one entry), else None. jax.distributed gives each process the GPU numbered its node-local
    rank among those it sees, which is right where every process sees all GPUs of its node; a process shown one GPU
    (`srun --gpus-per-task=1`, `--gpu-bind=single:1`, a site's wrapper that sets CUDA_VISIBLE_DEVICES per rank) must
    take that one, number 0: the others asked for number 1, 2, ... and failed ("invalid device ordinal")."""
    for var in ("CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES"):
        # each one set narrows what the process sees (on AMD GPUs ROCR_VISIBLE_DEVICES first, then HIP's or
        # CUDA's numbers among those): Slurm's ROCR_VISIBLE_DEVICES=0,...,7 and a wrapper's HIP_VISIBLE_DEVICES=3
        # show one GPU, which the first variable set alone did not say
        text = os.environ.get(var)
        if text is not None and len([x for x in text.split(",") if x.strip()]) == 1:
            return var
    return None


def initialize(comm: str = "jax", stop=None) -> dict:
    """Start jax.distributed when this process is one of several. comm='mpi' (the mpi4jax backend)
    runs one independent single-device JAX program per rank and starts nothing here. `stop`: a callable, true once a
    stop was asked for, that ends the wait for the other processes under srun (StartupStopped; JAX's own wait for
    them, under mpirun and after that, cannot be ended early).

    Returns {'launcher', 'processes', 'process_index'}.
    """
    global _STARTED
    name, n = launcher()
    if n == 1 or comm == "mpi":
        return {"launcher": name, "processes": n, "process_index": 0}
    import jax

    if not _STARTED:
        kwargs = dict(heartbeat_timeout_seconds=heartbeat_timeout(), initialization_timeout=startup_timeout(),
                      shutdown_timeout_seconds=30)
        if not os.environ.get("JAX_LOCAL_DEVICE_IDS") and one_visible_gpu():
            kwargs["local_device_ids"] = [0]  # the one GPU this process sees (JAX_LOCAL_DEVICE_IDS: the user's)
        try:  # distlbm answers SIGTERM itself (a checkpoint, exit 75); JAX's preemption service, which it does not
            # use, makes XLA's notifier the SIGTERM handler in initialize (kept_signal_handlers puts the Python ones
            # back after it: a scancel in between was swallowed)
            jax.config.update("jax_enable_preemption_service", False)
        except (AttributeError, KeyError, ValueError):  # a JAX without the option: kept_signal_handlers alone
            pass
        with kept_signal_handlers(), coordinator_port(name, n, stop):
            if name == "slurm":
                jax.distributed.initialize(**kwargs)
            else:
                # Open MPI / MPICH set no coordinator address; mpi4py tells every rank rank 0's host
                require_launcher_backend(comm)
                jax.distributed.initialize(cluster_detection_method="mpi4py", **kwargs)
        _STARTED = True
        if jax.default_backend() == "cpu":
            _connect_quietly()
    return {"launcher": name, "processes": jax.process_count(), "process_index": jax.process_index()}


_GLOO_FAILED = re.compile(r"Gloo ([\w ]{1,40}?) failed: (?:\[[^\]]*\] )?([^\n]*)")


def lost_process(error) -> str | None:
    """What an error raised in a collective says where another process of the run is gone (it died, was killed, its
    node failed, or it hung past XLA's CPU collective timeout): "AllGather: Connection closed by peer ..."; None for
    any other error. The surviving process then says so in one line (cli._dispatch), not with a traceback of the
    collective it waited in, printed by every process that survived."""
    m = _GLOO_FAILED.search(str(error))
    return f"{m.group(1)}: {m.group(2).strip()}" if m else None


def lost_process_line(rank: int, why: str) -> str:
    return (f"distlbm: process {rank}: lost another process of the run ({why}): it died, was killed or its node "
            f"failed (its own lines above, or the scheduler's log, say why); stopping all processes. The checkpoints "
            f"written before are intact: `distlbm status` names the newest, --restart latest continues from it")


def leave_runtime():
    """Take this process out of the processes' runtime as a normal exit does, before an os._exit: JAX shuts
    jax.distributed down at interpreter exit (a barrier of every process), which os._exit skips. A process of
    several that left with os._exit after a failed HDF5 write its run survived (cli._hard_exit) left the others
    waiting in that barrier until the heartbeat timeout, then aborting (SIGABRT, exit 134, a wall of coordination
    service errors): a complete run reported as a crash, a stopped one (75) not resubmitted. Bounded by the
    shutdown timeout (30 s) where another process is gone; nothing to do for a single process or --comm mpi."""
    if not _STARTED:
        return
    try:
        import jax

        jax.distributed.shutdown()
    except Exception:  # leaving anyway
        pass


def abort(code: int = 1):
    """Leave at once with `code`: on a failure in one process, do not wait in a collective that
    will never complete (the others see this process vanish and stop within the heartbeat timeout)."""
    for stream in (sys.stdout, sys.stderr):
        try:  # from a signal handler (signals.after_the_run) a flush may find the stream mid-write: reentrant call
            stream.flush()
        except Exception:
            pass
    # only where this process imported MPI already: importing mpi4py.MPI initialises MPI, a collective that
    # hangs where another process of the job has left (a Ctrl-C as a run ended before MPI was used, e.g.
    # on a configuration error: MPICH's MPI_Init waited for ever)
    MPI = sys.modules.get("mpi4py.MPI")
    name, n = launcher()
    if name in ("openmpi", "mpich", "pmix") or (n > 1 and MPI is not None):  # (--comm mpi under `srun --mpi=pmi2`)
        # MPI_Abort makes the launcher kill every process, its own output forwarders included: give them
        # a moment to pass on this process's last lines (why it failed), which Hydra otherwise drops
        time.sleep(0.5)
        try:
            if MPI is not None and MPI.Is_initialized() and not MPI.Is_finalized():
                MPI.COMM_WORLD.Abort(code)
        except Exception:  # already failing: nothing better to do than exit
            pass
    os._exit(code)


_MET = False


class Unexpected(str):
    """The words of a process that failed at the start with an unexpected error (a traceback, not a settings error),
    as the processes' meeting carries them (meet_at_start): the others say that it failed with an unexpected error,
    not that it "found an error in its settings" (what they said of a traceback before)."""


class NotStarted(str):
    """The words of a process that could not start for its files (a restart's or --init-from's checkpoint it cannot
    find or read, an --out holding another run's checkpoints: one node's disk), as the meeting carries them: the
    others say that it could not start, not that it "found an error in its settings" (what they said of it before)."""


# the marks of an Unexpected and a NotStarted error on the meeting's wire (a line on the run's port, the word's JSON,
# MPI's allgather): a NUL, which no settings error starts with (their values are quoted with repr)
_MARKS = {Unexpected: "\x00unexpected\x00", NotStarted: "\x00not started\x00"}


def _on_the_wire(error) -> str | None:
    if error is None:
        return None
    return _MARKS.get(type(error), "") + str(error)


def _off_the_wire(failed: list) -> list[tuple[int, str]]:
    def read(e):
        for kind, mark in _MARKS.items():
            if e.startswith(mark):
                return kind(e[len(mark):])
        return e

    return [(r, read(e)) for r, e in failed]


def meet_at_start(error: str | None = None, stop=None) -> list[tuple[int, str]] | None:
    """The processes of a run meet once before they start (initialize), each with the configuration error it found
    reading its settings (None: none; an Unexpected one: a process that failed with a traceback): (rank, error) of
    each process that found one, the same list on every process, an Unexpected error still one there.
    A setting that one process alone sees wrong (a case module, a TOML, STL or mask file, or a checkpoint on one
    node's disk; a DISTLBM_* variable or PYTHONPATH set for one rank) ended that process alone, saying nothing: under
    mpiexec the others waited in MPI's start for ever (MPICH's MPI_Init waits for every rank, and a rank that exits
    before it is no failure to Hydra, which ends the job only on one that exits after), under srun out the start-up
    timeout (300 s), then said that process had not come. Called once: by every process that reached its start
    (cli.met_and_refused: run, bench, info) and by one that failed before it (cli._dispatch). Under srun they meet
    on the run's port (_hold_port, _greet: JAX's start then needs no greeting of its own; `stop` as there), under
    mpirun/mpiexec in one allgather of MPI's world, whichever the halo exchange. None where they cannot meet: a
    single process, a coordinator set by the user (JAX_COORDINATOR_ADDRESS or _PORT) under srun, or under mpiexec an
    MPI that mpi4py does not have or that does not reach the launcher's processes (each then says its own error as
    before)."""
    global _MET
    name, n = launcher()
    if _MET or n == 1:
        return None
    if name == "slurm":
        port = slurm_port()
        if port is None or os.environ.get("JAX_COORDINATOR_ADDRESS") or os.environ.get("JAX_COORDINATOR_PORT"):
            return None
        try:
            timeout = startup_timeout()
        except ConfigError:  # this process's own mistake, said by it: it waits for the others as long as JAX would
            timeout = 300
        failed = _meet_on_port(port, n, stop, _on_the_wire(error), timeout)
        _MET = True
        return _off_the_wire(failed)
    if missing_modules("mpi4py"):
        return None
    _MET = True
    try:
        from mpi4py import MPI

        world = MPI.COMM_WORLD
        if world.Get_size() != n:  # an MPI that does not reach this launcher's processes (require_mpi_world)
            return None
        said = world.allgather(_on_the_wire(error))
    except Exception:  # MPI itself fails here: each process says its own error, as before
        return None
    return _off_the_wire([(rank, e) for rank, e in enumerate(said) if e is not None])


def stopped_at_start(failed: list[tuple[int, str]], rank: int, n: int, kind: str = "configuration error",
                     what: str = "the run") -> list[str]:
    """The lines this process (`rank` of `n`) says where the processes met at the start and `failed` (meet_at_start)
    is not empty: each error once, by the first process that found it, naming the processes that found it unless
    every process did (then it is said once by process 0, as a mistake every process finds always was); and a
    line from the first process that found none, naming those that did, as the reason `what` (the command's work:
    the run, the benchmark) stops: those that found an error in their settings, and apart from them those that
    could not start for their files (NotStarted: a checkpoint, an occupied --out) and those that failed with an
    unexpected error (Unexpected: a traceback, which is not a mistake in the settings)."""
    lines = []
    errors: dict[str, list[int]] = {}
    for r, e in failed:
        errors.setdefault(e, []).append(r)
    for e, ranks in errors.items():
        if ranks[0] == rank:
            if len(ranks) == n:
                lines.append(f"distlbm: {kind}: {e}")
            else:
                lines.append(f"distlbm: {kind} ({_processes(ranks)}): {e}")
    ok = sorted(set(range(n)) - {r for r, _ in failed})
    if ok and ok[0] == rank:
        settings = sorted(r for r, e in failed if not isinstance(e, (Unexpected, NotStarted)))
        files = sorted(r for r, e in failed if isinstance(e, NotStarted))
        unexpected = sorted(r for r, e in failed if isinstance(e, Unexpected))
        why = []
        if settings:
            one = len(settings) == 1
            why.append(f"{_processes(settings)} of {n} found {'an error' if one else 'errors'} in "
                       f"{'its' if one else 'their'} settings ({'its own line says' if one else 'their own lines say'} "
                       f"which)")
        if files:
            one = len(files) == 1
            why.append(f"{_processes(files)} of {n} could not start "
                       f"({'its own line says' if one else 'their own lines say'} why)")
        if unexpected:
            one = len(unexpected) == 1
            why.append(f"{_processes(unexpected)} of {n} failed with "
                       f"{'an unexpected error' if one else 'unexpected errors'} "
                       f"({'its traceback says' if one else 'their tracebacks say'} which)")
        lines.append(f"distlbm: process {rank}: {what} stops at its start: {' and '.join(why)}; nothing ran")
    return lines


def _processes(ranks: list[int]) -> str:
    shown = ", ".join(map(str, ranks[:8])) + (f" and {len(ranks) - 8} more" if len(ranks) > 8 else "")
    return f"process{'es' if len(ranks) > 1 else ''} {shown}"


def any_process(flag: bool, procs: dict, comm: str = "jax") -> bool:
    """True on every process if `flag` is true on any, before a domain exists (after `initialize`, whose `procs`
    says how many there are): a stop signal that reached some processes during the set-up ends them all alike
    (the others went on into the run and waited for the one that left, then died: exit 6, not 75)."""
    n = int(procs.get("processes", 1) or 1)
    if comm == "mpi":
        world = mpi_world()
        if world is None or world.Get_size() == 1:
            return bool(flag)
        from mpi4py import MPI

        return bool(world.allreduce(int(bool(flag)), op=MPI.MAX))
    if n == 1:
        return bool(flag)
    import numpy as np
    from jax.experimental import multihost_utils

    return bool(np.any(multihost_utils.process_allgather(np.asarray([int(bool(flag))], np.int32))))


def mpi_world():
    """MPI.COMM_WORLD if mpi4py is importable (initialising MPI), else None."""
    try:
        from mpi4py import MPI
    except Exception:  # no MPI in this environment
        return None
    return MPI.COMM_WORLD


def mpi_info() -> dict:
    """Which MPI library this environment has (for `distlbm info`)."""
    try:
        from mpi4py import MPI

        return {"available": True, "library": MPI.Get_library_version().splitlines()[0].strip(),
                "world_size": MPI.COMM_WORLD.Get_size()}
    except Exception as e:
        return {"available": False, "why": str(e)}
