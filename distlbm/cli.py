"""The `distlbm` command: run, bench, info, cases."""

from __future__ import annotations

import argparse
import json
import os
import sys


class _Parser(argparse.ArgumentParser):
    """argparse with its errors in one line (argparse printed its usage, five lines, before the error), and options
    given whole: argparse took a prefix (`--rest latest` for --restart, `--check 1000` for --checkpoint-every), which
    a job script then keeps, until an option added later makes it ambiguous and the resubmitted job is refused (and
    the Slurm templates, which look for --restart, did not see `--rest`)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message):
        import re

        m = re.fullmatch(r"argument (--[\w-]+)(?:/[^:]*)?: expected one argument", message)
        if m:  # --mesh -1x1: a value that starts with '-' reads as an option
            message += f" (a value that starts with '-' is given as {m.group(1)}=VALUE)"
        if message.startswith("unrecognized arguments: "):  # a prefix of options (no longer taken): the whole ones
            whole = sorted({o for w in message.split()[2:] if w.startswith("--") and len(w) > 2
                            for o in self._options() if o.startswith(w.split("=")[0])})
            if whole:
                message += f" (options are given whole: {' or '.join(whole)})"
        self.exit(2, f"{self.prog}: error: {message}; see {self.prog} --help\n")

    def _options(self) -> set:
        """The option strings of this parser and of the subcommand given (parse_known_args's `_command`)."""
        found = set()
        for action in self._actions:
            found.update(action.option_strings)
            if isinstance(action, argparse._SubParsersAction):
                sub = action.choices.get(getattr(self, "_command", None))
                found |= sub._options() if isinstance(sub, _Parser) else set()
        return found

    def parse_known_args(self, args=None, namespace=None):
        # argparse drops a value '--' (--out=--, --steps=--) and stores [] unconverted: a traceback (a list for a
        # path), or a setting read as [] (--mesh=-- ran on every device); one line instead
        ns, rest = super().parse_known_args(args, namespace)
        self._command = getattr(ns, "command", None)  # (the options an error's prefixes are looked up in)
        for action in self._actions:
            if action.option_strings and action.nargs is None and getattr(ns, action.dest, None) == [] \
                    and not isinstance(action, argparse._AppendAction):
                self.error(f"argument {action.option_strings[0]}: expected one argument, not '--' (argparse reads it "
                           f"as the end of the options)")
        return ns, rest

    def _get_values(self, action, arg_strings):
        # an option with an optional value given '--' (--restart=--): argparse drops it and takes the option alone
        # (--restart=-- continued the latest checkpoint); '--' as a word of its own ends the options, as before
        if action.option_strings and action.nargs == argparse.OPTIONAL and arg_strings == ["--"]:
            self.error(f"argument {action.option_strings[0]}: expected one argument, not '--' (argparse reads it "
                       f"as the end of the options)")
        return super()._get_values(action, arg_strings)


def _integer(text: str) -> int:
    """An integer option's value: decimal digits (int() also took '1_000' and any Unicode digits; a sign is left to
    the setting's own check, which says what it takes)."""
    import re

    if not re.fullmatch(r"\s*[+-]?[0-9]+\s*", text):
        raise argparse.ArgumentTypeError(f"{text!r}: expected an integer (decimal digits)")
    return _digits(text)


def _digits(text: str) -> int:
    """int(text) of decimal digits; beyond the digits Python reads (argparse said "invalid _integer value" and the
    whole text), one line with the text cut."""
    from distlbm.errors import int_digits_read, said_digits

    limit = int_digits_read()
    if limit and len(text.strip().lstrip("+-")) > limit:
        raise argparse.ArgumentTypeError(f"{said_digits(text)}: expected an integer of at most {limit} "
                                         f"digits (Python's limit for reading one)")
    return int(text)


def _size(text: str):
    """A lattice size: one integer N (N per side) or NXxNY[xNZ] (a tuple), decimal digits; the count of the sides
    against the lattice and their sign are left to the command, which says what it takes."""
    import re

    if re.fullmatch(r"\s*[+-]?[0-9]+\s*", text):
        return _digits(text)
    if not re.fullmatch(r"\s*[0-9]+(\s*[xX]\s*[0-9]+){1,2}\s*", text):
        raise argparse.ArgumentTypeError(f"{text!r}: expected an integer N (N per side) or the sides NXxNY[xNZ] "
                                         f"(decimal digits)")
    return tuple(_digits(v) for v in re.split(r"[xX]", text))


def _number(text: str) -> float:
    """A number option's value: a decimal number, e.g. 1e-5 (float() also took '1_0' and any Unicode digits; nan, inf
    and a sign are left to the setting's own check, which says what it takes)."""
    import re

    if not re.fullmatch(r"\s*[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|nan|inf|infinity)\s*",
                        text, flags=re.IGNORECASE):
        raise argparse.ArgumentTypeError(f"{text!r}: expected a number, e.g. 1e-5")
    return float(text)


# each command's line in `distlbm --help`, and what its own --help says below its usage: that line, then more
COMMANDS = {
    "run": ("run a built-in case or a TOML configuration",
            "On one process or under srun/mpirun (one lattice over every process's devices): progress on stdout; "
            "summary.json, log.jsonl, samples.jsonl (the forces, probes or energies of the cases that sample "
            "them) and, where asked, checkpoints and field outputs in --out. --dry-run checks what the run checks "
            "before its first step and writes nothing."),
    "bench": ("MLUPS and memory of a periodic box",
              "The median of --repeat timings of --steps steps on a lattice of --size cells per side, the bytes per "
              "cell update, the peak memory and the fraction of the memory-bandwidth roofline; on one device, the "
              "devices of --mesh, or under srun/mpirun every process's devices."),
    "info": ("versions, devices, MPI/HDF5 support, memory estimate",
             "distlbm's and its packages' versions, the processes and devices, the MPI library, parallel HDF5 and the "
             "backends found; with --lattice and --size, the memory that lattice needs and whether it fits here."),
    "status": ("where run folders stand: running or not, progress, start, restarts, warnings, checkpoints (reads "
               "only)",
               "For each run folder (--out of a run): whether a run holds it, its progress, how it started (an "
               "--init-from source), its restarts, its warnings and the checkpoint --restart latest continues from. "
               "It writes nothing."),
    "cases": ("list the built-in cases, their parameters and what they validate",
              "Each case's parameters with their defaults and its reference, then the common settings any case "
              "takes: the keys of --set and of a TOML file."),
}


def _command(sub, name: str):
    """The parser of a command, with its line in `distlbm --help` and the same line, then more, in its own --help."""
    line, more = COMMANDS[name]
    return sub.add_parser(name, help=line, description=f"{line[0].upper()}{line[1:]}. {more}")


def _add_run(sub):
    p = _command(sub, "run")
    p.add_argument("target", nargs="?", default=None,
                   help="case name, module:Class of your own case, or FILE.toml (default: cavity2d)")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="KEY=VALUE",
                   help="override a parameter, e.g. --set re=400 --set n=128 (repeatable; each key once; "
                   "every case's parameters and the common settings: distlbm cases)")
    p.add_argument("--steps", type=_integer, default=None, help="number of time steps (left out or 0: the case's); on "
                   "a restart, the step to run to (left out: the end step of the run it continues)")
    p.add_argument("--out", default=None, help="output folder (default: out/CASE)")
    p.add_argument("--progress-every", type=_integer, default=None, help="steps between progress lines (0: about 20 "
                   "lines per run, and one at least every 10 min)")
    p.add_argument("--mesh", default=None, help="devices per axis, e.g. 2x2x2 (default: all devices, factorised for "
                   "the smallest halo; on CPUs one per core, at most 8, or DISTLBM_CPU_DEVICES; under srun/mpirun "
                   "every process's)")
    p.add_argument("--restart", nargs="?", const="latest", default=None, metavar="PATH|latest",
                   help="continue from a checkpoint (a file, or a folder: its checkpoints, or a run folder's; "
                        "default: the latest good one in OUT/checkpoints)")
    p.add_argument("--init-from", default=None, metavar="PATH",
                   help="start a new run from the populations of a checkpoint of another run (a file, or a run "
                   "folder: its newest good checkpoint), with this run's settings (e.g. Re 400 from the flow at Re "
                   "100); same lattice and size (populations of another dtype are taken in this run's); ignored with "
                   "--restart")
    p.add_argument("--output-every", type=_integer, default=None, help="steps between field outputs (HDF5 + XDMF under "
                   "OUT/fields, or with output_region / output_slices in folders of their own; 0: none)")
    p.add_argument("--checkpoint-every", type=_integer, default=None,
                   help="steps between checkpoints (OUT/checkpoints; the end step too; 0: none)")
    p.add_argument("--wall-time", default=None, metavar="SECONDS|HH:MM:SS|D-HH:MM:SS",
                   help="stop with a checkpoint before this wall time, counted from the process's start (exit "
                   "status 75: resubmit): seconds, MM:SS, HH:MM:SS or Slurm's --time forms D-HH[:MM[:SS]] (the "
                   "wall_time setting; 0: no limit)")
    p.add_argument("--until-steady", dest="until_steady", type=_number, default=None, metavar="TOL",
                   help="stop when max |du| / U between two steadiness checks (every steady_every steps) falls "
                   "below TOL (the steady_tol setting; 0: run to the end step)")
    p.add_argument("--comm", default=None, choices=("jax", "mpi"),
                   help="halo exchange: jax (one device mesh, default) or mpi (mpi4jax, one rank per device)")
    p.add_argument("--dry-run", dest="dry_run", action="store_true",
                   help="check everything the run checks before its first step (configuration, geometry and input "
                   "files, output folder, a restart's checkpoint, memory per device for --mesh, disk space) and "
                   "say what it would do; nothing is allocated or written (on a login node, before queueing)")


def _add_bench(sub):
    p = _command(sub, "bench")
    p.add_argument("--lattice", default="D3Q19", help="velocity set: D2Q9, D3Q19 (default) or D3Q27")
    p.add_argument("--size", type=_integer, default=128, help="cells per side (default: 128)")
    p.add_argument("--steps", type=_integer, default=20, help="timed steps per repetition (default: 20)")
    p.add_argument("--repeat", type=_integer, default=3, help="timed repetitions (default: 3; the median is "
                   "reported)")
    p.add_argument("--dtype", default="float32", help="storage: float32 (default), float64, float16 or "
                   "bfloat16")
    p.add_argument("--compute-dtype", default=None, help="arithmetic: float32 or float64 (default: the "
                   "storage dtype; float32 for 16-bit storage)")
    p.add_argument("--collision", default="bgk", help="collision operator: bgk (default), trt or regularized")
    p.add_argument("--mesh", default=None, help="devices per axis, e.g. 2x2x2 (default: one device; under several "
                   "processes every process's devices, as distlbm run splits a lattice)")
    p.add_argument("--bandwidth-mib", type=_number, default=None, metavar="MIB",
                   help="array size of the memory-bandwidth copy for the roofline (default: 256 on CPU, "
                   "2048 on accelerators; 0: skip)")
    p.add_argument("--step", default="auto", choices=("auto", "xla", "pallas"),
                   help="the step: auto (default: the fused Pallas kernel on GPUs where it applies), xla or pallas")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")


def _add_info(sub):
    p = _command(sub, "info")
    p.add_argument("--lattice", default=None, help="lattice of the memory estimate, e.g. D3Q19 (with --size)")
    p.add_argument("--size", type=_size, default=None,
                   help="cells per side (N), or the sides NXxNY[xNZ], for the memory estimate (with --lattice)")
    p.add_argument("--dtype", default=None, help="storage dtype of the memory estimate: float32 (default), "
                   "float64, float16 or bfloat16")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")


def build_parser() -> argparse.ArgumentParser:
    from distlbm import __version__

    ap = _Parser(prog="distlbm", description="Lattice Boltzmann on JAX, across devices and processes")
    ap.add_argument("--version", action="version", version=f"distlbm {__version__}",
                    help="print the version of distlbm and exit (`distlbm info`: the other packages' too)")
    sub = ap.add_subparsers(dest="command", required=True)
    _add_run(sub)
    _add_bench(sub)
    _add_info(sub)
    p = _command(sub, "status")
    p.add_argument("folders", nargs="*", metavar="OUT", help="run folders (--out of a run; default: those under out/)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object for one run folder named, else a list (a folder of run folders: a list)")
    p = _command(sub, "cases")
    p.add_argument("names", nargs="*", metavar="CASE", help="only these cases (default: every one)")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout: each case by its name, and "
                   "common: the settings every case takes")
    return ap


def prepare_out(out: str) -> str:
    """Create the output folder and check that files can be created in it: one line if not."""
    import os
    from pathlib import Path

    from distlbm.cases.base import ConfigError
    from distlbm.io.files import check_out_name, run_folder
    from distlbm.parallel.processes import env_rank

    check_out_name(out)
    path = Path(out)
    probe = path / f".distlbm-write-test-{os.getpid()}-{env_rank()}"
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
        os.close(fd)
        os.unlink(probe)
    except FileExistsError:
        raise ConfigError(f"--out = {out!r}: exists and is not a folder; expected a writable folder") from None
    except OSError as e:
        why = e.strerror or e.__class__.__name__
        raise ConfigError(f"--out = {out!r}: cannot create or write the folder ({why}); expected a writable "
                          f"folder") from None
    return str(run_folder(out))  # ./~ said as its full path, not as ~ (the home folder)


def _remove_if_empty(out: str, made: bool, here: bool = False):
    """Remove the output folder this run made (`made`) where it is still empty: a run refused before it wrote
    anything leaves no folder behind. rmdir removes an empty folder alone (another run's files keep it, and a lock
    file: a refused run's own is withdrawn first, by its Simulation); a folder that was there before the run is
    never removed, nor anything in one.

    Under several processes, process 0 alone removes it (`here`: this process, one that refuses alone and ends every
    process, cli._dispatch's abort), and only once the others are done with it: every process made the folder
    (prepare_out) before they agreed on `made` after they met (cmd_run), and none makes anything in it while it
    is refused (the lock is process 0's), so that no process makes it again once it is gone."""
    import os

    from distlbm.parallel.processes import env_rank

    if made and (here or env_rank() == 0):
        try:
            os.rmdir(out)
        except OSError:
            pass


def _hard_exit(status: int):
    """Leave at once after a failed HDF5 write (the HDF5 library may still hold the failed file and
    crash while tearing down at interpreter exit): flush what was printed, leave the processes' runtime as a
    normal exit would (the other processes of the run wait for this one there), then _exit."""
    import os

    from distlbm.parallel.processes import leave_runtime

    sys.stdout.flush()
    sys.stderr.flush()
    leave_runtime()
    os._exit(status)


def expand_home(args, keys) -> None:
    """'~' is the home folder, quoted too (--out '~/x', --out=~/x, status '~/x': the shell expands it at the start of
    a word alone), as Simulation(out_dir="~/x") takes it from Python; './~' is a folder of that name here. Each of
    `keys` of args: a path or a list of paths."""
    for key in keys:
        value = getattr(args, key, None)
        if isinstance(value, list):
            setattr(args, key, [os.path.expanduser(v) for v in value])
        elif value is not None:
            setattr(args, key, os.path.expanduser(value))


def cmd_run(args) -> int:
    from distlbm.config import parse_sets, resolve
    from distlbm.parallel.processes import StartupStopped, env_rank, initialize, launcher, use_cpu_cores

    if args.target is not None and not str(args.target).strip():  # `distlbm run "$CONFIG"` with CONFIG unset
        from distlbm.cases.base import ConfigError  # ran the default case, cavity2d, unsaid

        raise ConfigError(f"run target = {args.target!r}: expected a case name (see `distlbm cases`) or a TOML file; "
                          f"leave it out for the default case, cavity2d")
    expand_home(args, ("out", "restart", "init_from"))
    if args.restart is not None and not str(args.restart).strip():
        from distlbm.cases.base import ConfigError

        raise ConfigError(f"--restart = {args.restart!r}: expected a checkpoint file, a folder of checkpoints or "
                          f"'latest' (the default when --restart is given alone)")
    # the geometry's scans of the whole lattice (a channel's fluid path) wait for the memory pre-flight (run_checks)
    cfg = resolve(args.target, parse_sets(args.sets), default_case="cavity2d", defer_checks=True,
                  steps=args.steps, progress_every=args.progress_every,
                  mesh=args.mesh, comm=args.comm, output_every=args.output_every,
                  checkpoint_every=args.checkpoint_every, wall_time=parse_wall_time(args.wall_time),
                  steady_tol=args.until_steady)
    init_from = getattr(args, "init_from", None)
    if init_from is not None and not str(init_from).strip():
        from distlbm.cases.base import ConfigError

        raise ConfigError(f"--init-from = {init_from!r}: expected a checkpoint file or a run folder")
    from distlbm.io.files import check_path

    if args.restart not in (None, "latest"):
        check_path("--restart", args.restart, "a checkpoint file, a folder of checkpoints or 'latest'")
    if init_from is not None:
        check_path("--init-from", init_from, "a checkpoint file or a run folder")
    ignored = None  # said after the run's banner, before what the restart did
    if init_from is not None and args.restart is not None:  # a resubmitted job of a chain begun --init-from
        ignored = f"note: --init-from {init_from} ignored: --restart continues the run's own checkpoint"
        init_from = None
    from distlbm.io.hdf5 import require_h5py

    # said at the start, the run's and its dry run's, not at the first checkpoint hours in: every run may write one
    require_h5py("distlbm run writes its checkpoints (a stop signal's and --wall-time's too) and field outputs, and "
                 "reads --restart's and --init-from's,")
    target = args.out if args.out is not None else f"out/{cfg.case.name}"  # the run's folder
    if args.restart == "latest" and not os.path.lexists(target):
        # said before the folder is made (it was left), and by the dry run in the same words (it said "restart
        # failed: --restart latest: no checkpoint in DIR/checkpoints")
        from distlbm.cases.base import ConfigError

        raise ConfigError(f"--restart latest: no run folder {str(target)!r} to continue (--out); expected the --out "
                          f"of the run that wrote the checkpoints")
    if getattr(args, "dry_run", False):
        from distlbm.dryrun import dry_run

        from distlbm.driver import EXIT_CONFIG, EXIT_WRITE_FAILED
        from distlbm.io.checkpoint import CheckpointError
        from distlbm.io.files import WriteError

        say = print if env_rank() == 0 else (lambda *a, **k: None)
        from distlbm.driver import signals

        flag = signals.process_flag()
        if flag is not None and flag.requested:  # (a caller that set the flag itself)
            say(f"distlbm: dry run stopped on {flag.name}")
            return 75
        # it saves nothing: a stop signal ends it at once, wherever it is (signals.StopRequested; it went on for
        # minutes, and a second SIGTERM too)
        # a restart's warnings are said once its settings kept from the run are known (dry_run), as the run says them
        _describe(cfg, say, warnings=args.restart is None)
        if ignored:
            say(ignored)
        try:
            return dry_run(cfg, target, args.restart, say, init_from=init_from)
        except CheckpointError as e:  # as the run says it
            say(f"distlbm: {'initial state' if init_from else 'restart'} failed: {_option_named(e, args, init_from)}",
                file=sys.stderr)
            return EXIT_CONFIG
        except WriteError as e:  # no room for one checkpoint: as the run says it, with its status
            say(f"distlbm: error: {e}; the run would stop (exit status {EXIT_WRITE_FAILED})", file=sys.stderr)
            return EXIT_WRITE_FAILED
    from distlbm.parallel.processes import require_backends

    # the MPI pieces the start needs, said before the folder is made: a refusal of several processes before they
    # met leaves it (_remove_if_empty), an empty folder in the place of a run
    require_backends(cfg.decomposition.comm)
    made = not os.path.lexists(target)  # this run makes the folder: a refusal below removes it again, if empty
    out = prepare_out(target)
    global _MADE_OUT
    _MADE_OUT = out if made else None
    if args.restart is None:  # a new run: refuse a folder that holds another run's checkpoints, before any work
        from pathlib import Path

        from distlbm.io import checkpoint as ckpt

        found = ckpt.list_checkpoints(Path(out) / "checkpoints")
        if found:
            from distlbm.io.lock import holder

            busy = holder(out)  # the run that wrote them may still be running: say so, not "continue it"
            why = (ckpt.occupied(Path(out) / 'checkpoints', found) if busy is None else
                   f"--out = {out!r}: another distlbm run is using this folder ({busy}); wait for it to end, or "
                   f"give this run another --out")
            if not _refused_at_start(why, "error") and env_rank() == 0:
                print(f"distlbm: error: {why}", file=sys.stderr)
            return 2
    from distlbm.driver import EXIT_RESUBMIT, signals

    several = launcher()[1] > 1
    if several and (args.restart is not None or init_from is not None):
        # a checkpoint on one node's disk alone: looked up by each process before they meet (the Simulation's own
        # lookup, after they met, ended the process that found none, saying nothing, and the others aborted in
        # JAX's shutdown barrier: exit 6, a wall of coordination-service errors)
        from pathlib import Path

        from distlbm.io import checkpoint as ckpt
        from distlbm.io.checkpoint import CheckpointError

        try:
            candidates = (ckpt.resolve_restart(args.restart, Path(out) / "checkpoints") if args.restart is not None
                          else ckpt.init_candidates(init_from))
            # and read: one process's copy alone cut short or damaged (a node-local disk) was found in the
            # Simulation too, after they met (exit 6, as above); the first readable one is the Simulation's to judge
            ckpt.walk(candidates, lambda path: ckpt.read_meta(path, quick=True))
        except CheckpointError as e:  # where they cannot meet, the Simulation says it as before
            if _refused_at_start(_option_named(e, args, init_from),
                                 "restart failed" if args.restart is not None else "initial state failed"):
                _remove_if_empty(out, made, here=True)
                return 2
    if cfg.decomposition.mesh:
        # on CPUs use_cpu_cores makes as many devices as the mesh names, before the Simulation splits the lattice: a
        # mesh that cannot split it (a mistyped 100000x1x1) aborted in JAX's CPU client (no thread left; 2**32: a
        # TypeError traceback) where its dry run refused it in one line
        from distlbm.config import mesh_split_named
        from distlbm.parallel.mesh import DecompositionError, check_divisible, parse_mesh

        shape = tuple(int(n) for n in cfg.setup.shape)
        try:
            check_divisible(shape, parse_mesh(cfg.decomposition.mesh, len(shape)))
        except DecompositionError as e:
            _remove_if_empty(out, made and launcher()[1] == 1)
            raise DecompositionError(mesh_split_named(cfg, e)) from None
    flag = signals.process_flag()
    try:
        refused = met_and_refused("run", stop=lambda: bool(flag is not None and flag.requested))
        if refused:
            _remove_if_empty(out, made, here=True)  # (none makes anything in it now: the others have stopped)
            return refused
        use_cpu_cores(cfg.decomposition.comm, cfg.decomposition.mesh)  # before anything starts JAX's backends
        procs = initialize(cfg.decomposition.comm, stop=lambda: bool(flag is not None and flag.requested))
    except BaseException as e:  # (DISTLBM_CPU_DEVICES = 'x'): one process removes the folder it made; of several,
        # none (before they met, another may still be making it: removed under it, its own check of it would fail)
        _remove_if_empty(out, made and launcher()[1] == 1)
        if not isinstance(e, StartupStopped):
            raise
        if env_rank() == 0:
            print(f"distlbm: {flag.name} received while the run's processes met at its start: the run stops before "
                  f"its first step; nothing ran, nothing was written", file=sys.stderr)
        return EXIT_RESUBMIT
    from distlbm.parallel.processes import any_process

    # the run made the folder if any of its processes found none (the others may have looked after it was made);
    # and once they all agree here, each has made it (prepare_out): process 0 may remove it on a refusal below
    if procs["processes"] > 1:
        made = any_process(made, procs, cfg.decomposition.comm)
    from distlbm.memory import preflight

    from distlbm.config import mesh_split_named
    from distlbm.driver import EXIT_CONFIG, Simulation
    from distlbm.io.checkpoint import CheckpointError
    from distlbm.parallel.mesh import DecompositionError

    try:
        from distlbm.config import run_checks

        try:
            preflight(cfg)  # before anything is allocated: what the run needs per device and host vs what they have
            # then the scans of the lattice (minutes for a large one, refused in seconds above if it cannot fit); a
            # stop signal during them ends the run at once: nothing ran, nothing is saved
            done = run_checks(cfg, stop=lambda: bool(flag is not None and flag.requested))
        except BaseException as e:
            from distlbm.memory import InsufficientMemoryError

            # a refused run leaves no empty folder of its own behind; memory may be short on one host alone, whose
            # process then ends them all (cli._dispatch): that one removes it
            _remove_if_empty(out, made, here=isinstance(e, InsufficientMemoryError) and procs["processes"] > 1)
            raise

        # a stop on any process stops them all; also one that came before the checks or after their last part
        # (a case without scans went on to allocate the lattice, compile and write its step-0 output first)
        stopped = not done or bool(flag is not None and flag.requested)
        if any_process(stopped, procs, cfg.decomposition.comm):
            _remove_if_empty(out, made)
            if env_rank() == 0:
                name = flag.name if flag is not None and flag.name else "a stop signal"
                print(f"distlbm: {name} received during set-up: the run stops before its first step; nothing ran, "
                      f"nothing was written", file=sys.stderr)
            return EXIT_RESUBMIT
        try:
            # its banner (which case, lattice, mesh) before its state is made: a restart's notes then follow it
            sim = Simulation(cfg, out_dir=out, restart=args.restart, init_from=init_from,
                             announce=lambda s: _banner(s, procs, warnings=args.restart is None, then=ignored))
        except BaseException:  # refused (a mesh that does not split the lattice, an --init-from or a restart's
            # checkpoint that cannot be used, the folder in use): the Simulation withdrew its lock file, the folder
            # this run made is empty again
            _remove_if_empty(out, made)
            raise
    except DecompositionError as e:  # it names lattice sizes: add the values of the case's n that make one, and the
        # mesh as the user gave it (the parallel layer knows neither the option nor the file)
        raise DecompositionError(mesh_split_named(cfg, e)) from None
    except CheckpointError as e:
        if env_rank() == 0:
            print(f"distlbm: {'initial state' if init_from else 'restart'} failed: {_option_named(e, args, init_from)}",
                  file=sys.stderr)
        return EXIT_CONFIG
    try:
        return _run_simulation(sim, cfg, procs)
    finally:
        # the output folder is free for the next run; a run refused in its checks before it wrote anything (an end
        # step before a restart's, no room for one checkpoint, another run's checkpoints) leaves it as it found it
        refused = not sim.began_writing
        sim.close(refused=refused)
        if refused:
            _remove_if_empty(out, made)


def _option_named(e, args, init_from) -> str:
    """A restart's or --init-from's CheckpointError led by its option and value, as the command says it."""
    from distlbm.io.checkpoint import named

    if args.restart is not None:
        return named(str(e), "--restart", args.restart)
    return named(str(e), "--init-from", init_from) if init_from is not None else str(e)


def _describe(cfg, say, warnings: bool = True):
    """The start-up lines of a run: the configuration's warnings (`warnings`), the case, the lattice and the units."""
    from distlbm import units
    from distlbm.driver.summary import reynolds

    for w in cfg.warnings if warnings else ():
        say(f"warning: {w}", file=sys.stderr)
    s = cfg.setup
    u = s.units
    re = reynolds(u)
    say(f"distlbm: {cfg.case.name} ({cfg.case.title})")
    m = cfg.model
    eq = ", incompressible equilibrium" if m.equilibrium == "incompressible" else ""
    say(f"  lattice {s.lattice.name}, shape {'x'.join(map(str, s.shape))}, {m.collision}{eq}, "
        f"tau {s.tau:.5g}, Ma {units.mach(s.u_max):.3f}, dtype {m.dtype}"
        + (f", Re {re:.4g}" if re is not None else ""))
    if "dx" in u and "dt" in u and "velocity" in u and "viscosity" in u:
        say(f"  units: dx = {u['dx']:.4g}, dt = {u['dt']:.4g} (physical); velocity {u['velocity']:.4g} -> "
            f"{units.velocity_to_lattice(u['velocity'], u['dx'], u['dt']):.4g} lattice; viscosity "
            f"{u['viscosity']:.4g} -> {units.viscosity(s.tau):.4g} lattice (tau {s.tau:.5g}); Mach "
            f"{units.mach(s.u_max):.3f} at the peak velocity {s.u_max:.4g}")


def _banner(sim, procs, warnings: bool = True, then=None):
    """Which case, lattice, units, devices and step a run is (with the configuration's warnings: `warnings`), said on
    process 0 by the Simulation being built, before its state is made (Simulation's `announce`); `then`: a line
    after it (a restart's note that it ignores --init-from)."""
    say = print if sim.domain.process_index == 0 else (lambda *a, **k: None)
    _describe(sim.cfg, say, warnings=warnings)
    say(f"  on {sim.domain.describe()}" + (f", launched by {procs['launcher']}" if procs["processes"] > 1 else "")
        + f"; step: {sim.step_path[0]} ({sim.step_path[1]})")
    if getattr(sim.domain, "fewer_devices", None):
        say(f"note: {sim.domain.fewer_devices}")
    for line in sim.setup.report:  # what the geometry's checks found of each body: its solid cells, an STL's place
        say(f"  {line}")
    if then:
        say(then)


def _run_simulation(sim, cfg, procs) -> int:
    from distlbm.driver import EXIT_CONFIG, EXIT_INSTABILITY, EXIT_RESUBMIT, EXIT_WRITE_FAILED, InstabilityError
    from distlbm.io.checkpoint import CheckpointError
    from distlbm.io.files import WriteError

    say = print if sim.domain.process_index == 0 else (lambda *a, **k: None)
    if sim.restored_from:  # its settings' warnings, once those taken from the run it continues are known (as its
        # dry run says them: after the banner and what the restart did)
        for w in sim.cfg.warnings:
            say(f"warning: {w}", file=sys.stderr)
    try:
        summary = sim.run()
    except InstabilityError:
        return EXIT_INSTABILITY
    except CheckpointError as e:  # the folder holds another run's checkpoints
        if sim.domain.process_index == 0:
            print(f"distlbm: error: {e}", file=sys.stderr)
        return EXIT_CONFIG
    except WriteError as e:
        if sim.domain.process_index == 0:
            print(f"distlbm: error: {getattr(e, 'context', e)}; the run stopped (exit status "
                  f"{EXIT_WRITE_FAILED})", file=sys.stderr)
        return EXIT_WRITE_FAILED
    kept = sim.out_dir is not None and (sim.out_dir / "summary.json").is_file()
    try:  # the run's end is kept (its checkpoint, its outputs): a summary that cannot be written is said, and the
        # status stays the run's (75 resubmits a Slurm chain; 74 ended it). A restart that ran no step (the run was
        # at its end, or stopped during start-up) keeps the summary of the part that ran: it was rewritten with
        # 0 steps, 0 MLUPS and no peaks
        path = None if (sim.steps_run == 0 and sim.restored_from and kept) else sim.write_summary(summary)
        if path is None and kept and sim.domain.process_index == 0:
            print(f"note: {sim.out_dir / 'summary.json'} kept: this restart ran no step")
    except (WriteError, OSError) as e:
        path = None
        print(f"warning: {e}; the run's results are in its checkpoints and outputs, and the summary is the one "
              f"printed below", file=sys.stderr)
    if sim.domain.process_index == 0:
        if path is None and kept and sim.steps_run == 0 and sim.restored_from:
            try:  # its results are the kept summary's: recomputed from the state restored, without the run's
                # history, a cavity that had stopped steady printed "end step reached before max |du| / U fell below
                # 0.0001 (last 6.21e-05)" and its steady-state check FAIL
                before = json.loads((sim.out_dir / "summary.json").read_text())
                summary = dict(summary, **{k: before[k] for k in ("steady", "observables") if k in before})
            except (OSError, ValueError, TypeError):
                pass
        _print_result(summary)
        failed = summary.get("failed_writes") or []
        if failed:
            steps = ", ".join(str(r["step"]) for r in failed[-5:])
            print(f"warning: {summary['failed_writes_count']} write(s) failed during the run and were not repeated "
                  f"(at step(s) {'..., ' if len(failed) > 5 else ''}{steps}; the last: {failed[-1]['message']}); "
                  f"summary.json failed_writes, distlbm status")
        if path:
            print(f"summary: {path}")
    return EXIT_RESUBMIT if sim.status == "stopped" else 0


def parse_wall_time(text, key: str = "--wall-time"):
    """Seconds from '3600' or '90.5' (seconds), 'MM:SS', 'HH:MM:SS', or Slurm's 'D-HH', 'D-HH:MM', 'D-HH:MM:SS'
    (as `--time` takes it and `squeue -o %l` prints it); 0 in any of them is 0.0, no limit, as the wall_time
    setting's 0; None stays None."""
    if text is None:
        return None
    import math
    import re

    from distlbm.cases.base import ConfigError

    raw = str(text).strip()
    bad = ConfigError(f"{key} = {text!r}: expected a duration (0: no limit): seconds, MM:SS, HH:MM:SS or Slurm's "
                      f"D-HH[:MM[:SS]] (e.g. 1-12:00:00), with minutes and seconds below 60")

    def number(part):
        # ASCII decimals only: float() also read '1_000', Unicode digits ('١٢٣' ran 123 s) and, for the days,
        # str.isdigit() let '²' through to a ValueError traceback
        if not re.fullmatch(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", part):
            raise bad
        v = float(part)
        if not math.isfinite(v) or v < 0:
            raise bad
        return v

    days = 0.0
    if "-" in raw.lstrip("-"):
        d, _, raw = raw.partition("-")
        if not re.fullmatch(r"[0-9]+", d):
            raise bad
        days = float(d)
        parts = raw.split(":")
        if not 1 <= len(parts) <= 3:
            raise bad
        parts += ["0"] * (3 - len(parts))  # D-HH, D-HH:MM
    else:
        parts = raw.split(":")
        if len(parts) > 3:
            raise bad
    vals = [number(p) for p in parts]
    if any(v >= 60 for v in vals[1:]):
        raise bad
    secs = days * 86400.0
    scale = 1.0
    for v in reversed(vals):
        secs += v * scale
        scale *= 60.0
    if not secs >= 0 or not math.isfinite(secs):
        raise bad
    return secs


def _print_result(summary: dict):
    print(f"done: {summary['steps']} steps in {summary['wall_time_s']:.1f} s, {summary['mlups']:.1f} MLUPS, "
          f"mass drift {summary['relative_mass_drift']:+.2e}")
    if summary.get("steady"):
        print(f"  {summary['steady']['stopped']}")
    obs = summary.get("observables", {})
    for k, v in obs.items():
        if isinstance(v, dict):
            if "measured" in v and "reference" in v:
                print(f"  {k}: measured {v['measured']:.6g}, reference {v['reference']:.6g}, "
                      f"error {v.get('rel_error', float('nan')):+.3e}")
            elif "max_error" in v:
                verdict = "PASS" if v.get("pass") else "FAIL"
                print(f"  {k}: max error {v['max_error']:.4f} (tolerance 0.02 of U) {verdict}")
            elif k != "units" and v and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                            for x in v.values()):
                # a case's named numbers (a channel's final and last cD, cL, probes): they were in summary.json only
                print(f"  {k}: " + ", ".join(f"{name} {x:.6g}" for name, x in v.items()))
            elif isinstance(v.get("why"), str):  # how a value was formed (a channel's averaging window)
                print(f"  {k}: {v['why']}")
        elif isinstance(v, float):
            print(f"  {k}: {v:.6g}")
        elif isinstance(v, (str, int)):
            print(f"  {k}: {v}")
    noted = set()  # a note that says why a check is reported, not judged: said once
    for c in obs.get("checks", []) if isinstance(obs.get("checks"), list) else []:
        if c.get("value") is None:  # a quantity the run could not measure: said, with why (it was left out)
            verdict = {True: "PASS", False: "FAIL", None: "(reported)"}[c.get("pass")]
            print(f"  {c['quantity']}: {c.get('note') or 'not measured'} {verdict}")
            continue
        ref = [] if c.get("reference") is None else [f"reference {c['reference']:.6g}"]
        if c.get("lower") is not None or c.get("upper") is not None:
            lo, hi = c.get("lower"), c.get("upper")
            ref.append(f"bounds [{'-inf' if lo is None else f'{lo:g}'}, {'inf' if hi is None else f'{hi:g}'}]")
        if c.get("tolerance") is not None:
            rel = ">" if c["error"] > c["tolerance"] else "<="  # (a check may fail its bounds instead)
            ref.append(f"{c.get('error_kind') or ''} error {c['error']:.3g} {rel} {c['tolerance']:g}".strip())
        verdict = {True: "PASS", False: "FAIL", None: "(reported)"}[c.get("pass")]
        note = c.get("note")
        if c.get("pass") is None and isinstance(note, str) and note:
            verdict = "(reported: as above)" if note in noted else f"(reported: {note})"
            noted.add(note)
        print(f"  {c['quantity']}: {c['value']:.6g}" + (f" ({', '.join(ref)})" if ref else "") + f" {verdict}")


def _with_choices(p) -> str:
    """A setting's text in `distlbm cases`, with the values it takes where it has a fixed set and its text names none
    of them (`collision operator`: bgk, trt or regularized?)."""
    values = [str(v) for v in p.choices if v != ""]
    if not values or any(v in p.doc for v in values):
        return p.doc
    return f"{p.doc} (one of: {', '.join(values)})"


def cmd_cases(args) -> int:
    from distlbm.cases import CASES
    from distlbm.config import COMMON_PARAMS, unknown_case

    for name in args.names or ():  # (`distlbm cases cavity2d`: 'unrecognized arguments')
        if name not in CASES:
            raise unknown_case(name, "CASE", own=False)
    shown = {n: CASES[n] for n in dict.fromkeys(args.names)} if args.names else dict(CASES)  # (in the order named)
    common = [p for p in COMMON_PARAMS if p.name != "case"]  # the settings every case takes
    if args.json:  # each case by its name, and `common` (no case is named so): what the text lists below the cases
        def entries(params):
            return {p.name: {"default": p.default, "doc": p.doc, "unit": p.unit} for p in params}

        print(json.dumps({**{n: {"title": c.title, "validates": c.validates, "reference": c.reference,
                                 "dims": list(c.dims), "default_lattice": c.default_lattice,
                                 "common_defaults": dict(c.common_defaults),
                                 "steady_tol_float64": c.steady_tol_float64 or None,
                                 "params": entries(c.params)} for n, c in shown.items()},
                          "common": entries(common)}, indent=2))
        return 0
    # one column for every setting's name and one for its default, as wide as the longest (a name of 15 or more
    # characters, sponge_strength, and a default of 9 or more, 'pressure', pushed their line out of the columns)
    rows = ([(p.name, p.default) for c in CASES.values() for p in c.params]
            + [kv for c in CASES.values() for kv in c.common_defaults.items()] + [(p.name, p.default) for p in common])
    wn = max(len(k) for k, _ in rows)
    wd = max(len(repr(v)) for _, v in rows)
    for name, c in shown.items():
        print(f"{name}: {c.title}")
        print(f"  validates: {c.validates}")
        print(f"  reference: {c.reference}")
        print(f"  lattice:   {c.default_lattice} (dims {'/'.join(f'{d}D' for d in c.dims)})")
        for p in c.params:
            unit = f" [{p.unit}]" if p.unit else ""
            print(f"    {p.name:<{wn}} = {p.default!r:<{wd}} {_with_choices(p)}{unit}")
        for k, v in c.common_defaults.items():
            f64 = (f"; {c.steady_tol_float64!r} in float64" if k == "steady_tol" and c.steady_tol_float64 > 0
                   else "")
            print(f"    {k:<{wn}} = {v!r:<{wd}} (common setting; this case's default{f64})")
        print()
    print("common settings (any case):")
    for p in common:
        print(f"    {p.name:<{wn}} = {p.default!r:<{wd}} {_with_choices(p)}")
    print("\nexample: distlbm run cavity2d --set re=400 --set n=128")
    return 0


def _standard_streams():
    """/dev/null on each standard descriptor (0, 1, 2) the process started without (`distlbm run ... >&- 2>&-`, a
    job started by a daemon), and on sys.stdout / sys.stderr, which Python then leaves as None. Before, a closed
    stdout was a traceback (exit 1) before the first step, and a closed stderr gave its descriptor to the first
    file the run opened, the folder's lock: a stop signal's line was written over the lock's record."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            os.set_inheritable(fd, True)
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")


def main(argv=None) -> int:
    _standard_streams()
    args = build_parser().parse_args(argv)
    if args.command != "run":
        return _dispatch(args)
    if argv is None:  # first of the exit callbacks, so the last to run (after JAX's, MPI's, the folder lock's)
        import atexit

        from distlbm.driver.signals import ignore_ctrl_c_at_the_end

        atexit.register(ignore_ctrl_c_at_the_end)
    from distlbm.driver.signals import SECOND_CTRL_C, StopRequested, guarded_streams, process_scope

    # stop signals handled from the first line: a stop during start-up exits 75; a closed stdout or stderr goes on
    try:
        with process_scope(dry_run=bool(getattr(args, "dry_run", False)), from_process_start=argv is None), \
                guarded_streams():
            try:
                rc = _dispatch(args)
            except StopRequested as e:  # a dry run stopped by a signal: nothing was written
                print(f"distlbm: dry run stopped on {e}", file=sys.stderr)
                rc = 75
    except KeyboardInterrupt:
        # a second Ctrl-C outside _dispatch's own handling (the start-up's imports, before any step): it quits at
        # once, as the first one said, with one line; the program leaves without tearing down what it was
        # importing (a traceback, exit -2, and under mpiexec a crash in the half-imported JAX: signal 11)
        print(SECOND_CTRL_C, file=sys.stderr)
        if argv is None:
            import os

            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(130)
        return 130
    if argv is None:  # the program: a stop signal once the run has ended leaves its status as it is (a SIGTERM in
        import signal  # the last moments of a complete run exited 143, a killed job to the scheduler)

        from distlbm.driver.signals import after_the_run
        from distlbm.parallel.processes import abort

        for name in ("SIGTERM", "SIGUSR1", "SIGHUP"):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
        after_the_run(rc, abort)  # a Ctrl-C while JAX and MPI tear down: at once, with rc (every process of a job)
    hdf5 = sys.modules.get("distlbm.io.hdf5")
    if argv is None and (rc == 74 or (hdf5 is not None and hdf5.failed_before())):
        _hard_exit(rc)  # the program (not a caller in-process) after a failed HDF5 write, even one the run survived
    return rc


def _shortened(error, limit: int = 300) -> str:
    """An error's line with every quoted value (`key = '...'`, `: '...'`) longer than `limit` cut to its start and its
    length: a 200 kB output_region made a 200 kB "one line"."""
    import re

    return re.sub("(?<=[=:] )'([^']{%d,})'" % limit,
                  lambda m: f"'{m.group(1)[:120]}...' ({len(m.group(1)):,} characters)", str(error))


_MADE_OUT = None  # the run's folder where this process made it (cmd_run), for a refusal before the processes met


def _refused_at_start(error: str, kind: str = "configuration error", quiet: bool = False,
                      what: str = "the run") -> bool:
    """A run (or bench, info) of several processes refused by this one before they met at its start
    (met_and_refused): it meets the others there with its error (processes.meet_at_start), and each says its part
    (stopped_at_start); this one's own line is left out where `quiet` (said already). False where they do not meet
    that way (a single process, srun, already met): the caller says the error as before."""
    from distlbm.driver import signals
    from distlbm.parallel.processes import (NotStarted, StartupError, StartupStopped, Unexpected, env_rank, launcher,
                                            meet_at_start, stopped_at_start)

    n = launcher()[1]
    if kind != "configuration error" and not isinstance(error, Unexpected):
        # a restart's checkpoint, an occupied --out: the others say it could not start, not "an error in its settings"
        error = NotStarted(error)
    flag = signals.process_flag()
    try:
        failed = meet_at_start(error, stop=lambda: bool(flag is not None and flag.requested)) if n > 1 else None
    except (StartupError, StartupStopped):  # they did not meet (a stop signal, the others gone): said as before
        failed = None
    if failed is None:
        return False
    if _MADE_OUT is not None:  # this process made the run's folder (the others may have found it made): none
        _remove_if_empty(_MADE_OUT, True, here=True)  # makes anything in it now, they all stop
    _say_at_start(line for line in stopped_at_start(failed, env_rank(), n, kind, what)
                  if not (quiet and line.startswith(f"distlbm: {kind}")))
    return True


def met_and_refused(command: str, stop=None) -> int:
    """The processes of `command`, one that starts them (run, bench, info), meet before they start (initialize),
    once this one found no error in its settings (one that did meets them in _refused_at_start): the exit status
    where another found one, each process having said its part (stopped_at_start), which the caller returns: 2, or 1
    where one failed with an unexpected error (a traceback: that process exits 1, and the job's status, the highest
    of its processes' under srun, said 2, a settings error); 0 where none did, and for a single process. The
    processes' own settings are read first, a mistyped one said before they meet (JAX's start read them: the others
    waited for that process there). `stop` as processes.meet_at_start's. bench and info met
    nowhere: a setting one process alone found wrong (a DISTLBM_* variable set for one rank) ended it, saying nothing
    but on process 0, and the others waited for it in MPI's start for ever (mpiexec), or out the start-up timeout
    (srun)."""
    from distlbm.parallel.processes import (Unexpected, env_rank, launcher, meet_at_start, start_variables,
                                            stopped_at_start)

    n = launcher()[1]
    # read on one process and several alike (each applies to one of them only): a job script tried on one process
    # with a mistyped one ran, and the mistake was found on the cluster, or the other way round
    start_variables()
    # the processes agree that none found an error in its settings before they start (one that did told them)
    failed = meet_at_start(stop=stop)  # (None: a single process)
    if not failed:
        return 0
    _say_at_start(stopped_at_start(failed, env_rank(), n, what=_work(command)))
    return 1 if any(isinstance(e, Unexpected) for _, e in failed) else 2


def _say_at_start(lines) -> None:
    """The lines of a run refused at its start, each one write, whole: every process says its own at the same moment
    into one stream (srun's, a job's output file), and print's two writes, its text and then its newline, let
    another process's line in between where stderr is unbuffered (PYTHONUNBUFFERED, as job scripts set)."""
    for line in lines:
        sys.stderr.write(f"{line}\n")
    sys.stderr.flush()


def _meets(args) -> bool:
    """Whether the processes of this command meet at its start (met_and_refused): those that start them, run (not its
    dry run, which starts none), bench and info."""
    return args.command in ("bench", "info") or (args.command == "run" and not getattr(args, "dry_run", False))


def _work(command: str) -> str:
    """What a command that meets at its start does, as the line of a process that stops there names it (`bench` and
    `info` said "the run stops at its start", though nothing was to run)."""
    return {"bench": "the benchmark", "info": "distlbm info", "scaling": "the scaling point"}.get(command, "the run")


def _dispatch(args) -> int:
    from distlbm.cases.base import ConfigError
    from distlbm.parallel.processes import abort, env_rank, launcher

    global _MADE_OUT
    _MADE_OUT = None  # (a refusal removes the folder this run made, never one an earlier run of this process made)
    try:
        if args.command in ("run", "bench", "info"):
            from distlbm.stepper import check_switches

            check_switches()  # before any work: a small lattice never reads some of them
        if args.command == "run":
            from distlbm.io.hdf5 import split_asked

            split_asked()  # (read where several processes write: a misspelt value found on one process alone)
            return cmd_run(args)
        if args.command == "bench":
            from distlbm.bench import cmd_bench

            return cmd_bench(args)
        if args.command == "info":
            from distlbm.info import cmd_info

            return cmd_info(args)
        if args.command == "cases":
            return cmd_cases(args)
        if args.command == "status":
            from distlbm.status import cmd_status

            expand_home(args, ("folders",))  # as run's --out: `status '~/x'` reads the folder `run --out '~/x'` wrote
            return cmd_status(args)
    except ConfigError as e:  # (a DecompositionError is one)
        from distlbm.memory import InsufficientMemoryError
        from distlbm.parallel.processes import StartupError

        if isinstance(e, (InsufficientMemoryError, StartupError)) and launcher()[1] > 1:
            # memory differs between hosts, a process finds its start alone: the process that found it says so and
            # ends every process (one write: where each finds it, each says it at once into one stream)
            _say_at_start([f"distlbm: configuration error (process {env_rank()}): {_shortened(e)}"])
            abort(2)
        if _meets(args) and _refused_at_start(_shortened(e), what=_work(args.command)):
            return 2
        if env_rank() == 0:  # every process finds the same mistake; say it once
            print(f"distlbm: configuration error: {_shortened(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        from distlbm.driver.signals import SECOND_CTRL_C

        # a run's first Ctrl-C is a stop (a checkpoint): this is its second; bench, info, status and cases stop on the
        # first, with no checkpoint to speak of (a Ctrl-C of distlbm bench said "a second Ctrl-C ... without a
        # checkpoint")
        print(SECOND_CTRL_C if args.command == "run" else "distlbm: interrupted", file=sys.stderr)
        if launcher()[1] > 1:
            # one of several processes quits at once: end them all, as a failed one does (another, whose second
            # Ctrl-C never came or was swallowed, went on into its stop's checkpoint and waited there for this one;
            # with --comm mpi forever, MPI having no timeout and Hydra no end for a job whose process exited 130)
            abort(130)
        return 130
    except BrokenPipeError:  # e.g. `distlbm cases | head`: the reader left; no traceback
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception:
        if launcher()[1] > 1:  # one of several processes: report, then leave at once so no one hangs
            import traceback

            from distlbm.parallel.processes import lost_process, lost_process_line

            why = lost_process(sys.exc_info()[1])
            if why is not None:  # another process is gone: one line, not the traceback of the collective waited in
                print(lost_process_line(env_rank(), why), file=sys.stderr)
                abort(1)
            traceback.print_exc()
            print(f"distlbm: process {env_rank()} failed; stopping all processes", file=sys.stderr)
            if _meets(args):
                # before the processes met at the start, the others wait there for this one: they learn it and stop,
                # saying that it failed with an unexpected error (Unexpected), not that its settings were wrong
                from distlbm.parallel.processes import Unexpected

                _refused_at_start(Unexpected(f"{type(sys.exc_info()[1]).__name__} (its traceback above)"), "failure",
                                  quiet=True, what=_work(args.command))
            abort(1)
        raise
    return 1


if __name__ == "__main__":
    sys.exit(main())
