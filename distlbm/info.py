"""`distlbm info`: versions, devices, MPI and parallel-HDF5 support, and the memory a run will need."""

from __future__ import annotations

import importlib.metadata
import json
import platform


def _version(dist: str):
    """The installed version of a distribution, read from its metadata (nothing is imported: MPI
    libraries are imported only by distlbm.parallel, where a run needs them)."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def provenance() -> dict:
    """What produced a measurement, for comparing figures across runs, machines and code changes: distlbm's and
    JAX's versions and, in a git checkout, the commit (`dirty` where tracked files differ from it; None outside a
    checkout or without git). A scaling study's points and a bench's JSON carried no version: figures of two
    code states could not be told apart."""
    import os
    import subprocess
    from pathlib import Path

    from distlbm import __version__

    repo = Path(__file__).resolve().parents[1]
    commit = dirty = None
    try:
        git = ["git", "-C", str(repo)]
        # no optional locks: `git status` refreshing a stale index wrote .git/index under .git/index.lock, and a
        # `git commit` of the user's at that moment failed on the lock (the variable, not --no-optional-locks: a
        # git older than 2.15, as on some clusters, ignores it where it refused the option)
        env = dict(os.environ, GIT_OPTIONAL_LOCKS="0")
        top = subprocess.run(git + ["rev-parse", "--show-toplevel"], capture_output=True, text=True, timeout=10,
                             env=env)
        if top.returncode == 0 and Path(top.stdout.strip()).resolve() == repo:  # distlbm's own checkout, no other
            head = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, env=env)
            # (of a checkout with no commit yet it printed 'HEAD' and exited 128: that was the commit said)
            commit = (head.stdout.strip() or None) if head.returncode == 0 else None
            status = subprocess.run(git + ["status", "--porcelain", "--untracked-files=no"], capture_output=True,
                                    text=True, timeout=10, env=env)
            dirty = bool(status.stdout.strip()) if status.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):  # no git here, or a hung file system: the version alone
        pass
    return {"distlbm": __version__, "jax": _version("jax"), "commit": commit, "dirty": dirty}


def gather_info(lattice=None, size=None, dtype="float32") -> dict:
    import jax

    info = {
        "python": platform.python_version(),
        "versions": {m: _version(m) for m in ("distlbm", "jax", "jaxlib", "numpy", "h5py", "mpi4py", "mpi4jax")},
        "process_count": jax.process_count(),
        "process_index": jax.process_index(),
        "devices": [f"{d.platform}:{d.id} {d.device_kind}" for d in jax.devices()],
        "local_device_count": jax.local_device_count(),
    }
    from distlbm.parallel.processes import mpi_info

    info["mpi"] = mpi_info()
    try:
        import h5py

        info["h5py_mpi"] = bool(h5py.get_config().mpi)
    except Exception:
        info["h5py_mpi"] = False
    backends = [f"jax (device mesh over {jax.device_count()} device(s), --comm jax)"]
    info["comm_backends"] = backends
    if info["versions"]["mpi4jax"] and not str(info["versions"]["mpi4jax"]).startswith("error"):
        backends.append("mpi4jax (one rank per device, --comm mpi)")
    if lattice and size:
        from distlbm.lattice import get_lattice
        from distlbm.memory import InsufficientMemoryError, check_fits, memory_estimate, plan_mesh

        lat = get_lattice(lattice)
        shape = tuple(size) if isinstance(size, (tuple, list)) else (size,) * lat.d
        info["memory_estimate"] = {"lattice": lat.name, "size": size, "shape": list(shape), "dtype": dtype,
                                   **memory_estimate(lat, shape, dtype)}
        # on this machine: the devices `distlbm run` would use for a periodic lattice of this shape
        plan = plan_mesh(shape)
        try:
            rep = check_fits(lat, shape, dtype, None, None, plan["mesh_shape"], plan["devices"])
            fits = {"fits": True if rep["checked"] else None, "units": rep["units"]}
        except InsufficientMemoryError as e:
            fits = {"fits": False, "why": str(e)}
        info["memory_estimate"].update(mesh=list(plan["mesh_shape"]), devices=plan["n_devices"], **fits)
    return info


def _bytes_text(n: float) -> str:
    """A size in the largest binary unit in which it is at least 1, with 3 decimals: '4.530 GiB', '2.250 KiB'."""
    n = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(n) < 1024 or unit == "PiB":
            return f"{n:.0f} B" if unit == "B" else f"{n:.3f} {unit}"
        n /= 1024


def cmd_info(args) -> int:
    from distlbm.cases.base import ConfigError

    if (args.lattice is None) != (args.size is None):
        raise ConfigError("--lattice and --size go together: give both for a memory estimate")
    if args.dtype is not None and args.size is None:  # it was ignored, unsaid
        raise ConfigError(f"--dtype = {args.dtype!r} applies to the memory estimate: give --lattice and --size too")
    args.dtype = "float32" if args.dtype is None else args.dtype  # --dtype '' was float32, unsaid (bench refuses it)
    from distlbm.config import DTYPES

    if args.dtype not in DTYPES:
        raise ConfigError(f"--dtype = {args.dtype!r}: expected one of {', '.join(DTYPES)}")
    sides = args.size if isinstance(args.size, tuple) else (args.size,)
    from distlbm.errors import said_int

    shown = "x".join(map(said_int, sides))
    if args.size is not None and min(sides) <= 0:
        raise ConfigError(f"--size = {shown}: expected " + ("positive integers" if len(sides) > 1 else
                                                           "a positive integer"))
    if args.lattice is not None:
        from distlbm.lattice import get_lattice

        try:
            d = get_lattice(args.lattice).d
        except ValueError as e:
            raise ConfigError(f"--lattice = {args.lattice!r}: {e}") from None
        if len(sides) > 1 and len(sides) != d:
            raise ConfigError(f"--size = {shown}: {len(sides)} sides for the {d}D lattice {args.lattice}; expected "
                              f"{d} (NX{'xNY' if d > 1 else ''}{'xNZ' if d == 3 else ''}) or one N per side")
        import math

        from distlbm.config import check_size_cells

        check_size_cells(shown, shown if len(sides) > 1 else f"{shown}^{d}",
                         math.prod(sides) if len(sides) > 1 else sides[0] ** d)
    from distlbm.cli import met_and_refused
    from distlbm.parallel.processes import initialize, use_cpu_cores

    refused = met_and_refused("info")  # several processes: another found an error in its settings or failed
    if refused:  # (said); none starts
        return refused
    use_cpu_cores("jax")  # on CPUs the devices `distlbm run` gets (one per core; it said 1 where a run used 2)
    # under srun / mpiexec: join the other processes, so that the report shows whether they found each other
    procs = initialize("jax")
    info = gather_info(args.lattice, args.size, args.dtype)
    info["launcher"] = procs["launcher"]
    if procs["process_index"] != 0:  # one report, from process 0
        return 0
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    print(f"distlbm {info['versions']['distlbm']} on Python {info['python']}")
    for k, v in info["versions"].items():
        if k != "distlbm":
            print(f"  {k:<8} {v or 'not installed'}")
    print(f"processes: {info['process_count']} (launcher: {info['launcher']})")
    print(f"devices:   {', '.join(info['devices'])}")
    mpi = info["mpi"]
    print(f"MPI:       {mpi['library'] if mpi['available'] else 'not available (' + mpi['why'] + ')'}")
    print(f"h5py MPI:  {'yes (collective parallel HDF5)' if info['h5py_mpi'] else 'no (one file per process)'}")
    print(f"backends:  {', '.join(info['comm_backends'])}")
    if "memory_estimate" in info:
        m = info["memory_estimate"]
        gib = 1024 ** 3
        size = (f"{m['size']}^{m['lattice'][1]}" if isinstance(m["size"], int) else "x".join(map(str, m["shape"])))
        print(f"memory for {m['lattice']} {size} ({m['dtype']}):")
        # each in a unit that fits it, the two numbers in one column (in GiB alone, a D2Q9 8^2 lattice's populations
        # were '0.000 GiB', a 100000^3 one's '70780515.671 GiB', out of line with the working set's below)
        pop, work = _bytes_text(m["population_bytes"]), _bytes_text(m["step_working_set_bytes"])
        wide = max(len(pop), len(work))
        print(f"  populations      {pop:>{wide}} ({m['cells']:,} cells)")
        how = {"in_place": "in place: populations once + slabs and faces",
               "ab": "A-B slabs: populations twice + slabs",
               "fused_in_place": "fused kernel in place (AA): populations once + two rows and faces",
               "fused": "fused kernel A-B: populations twice + faces"}.get(m.get("step_form"), "populations twice + moments")
        per_cell = m["step_working_set_bytes"] / m["cells"]
        print(f"  step working set {work:>{wide}} ({per_cell:.0f} B/cell; {how})")
        where = f"{m['devices']} device(s), mesh {'x'.join(map(str, m['mesh']))}"
        if m["fits"] is None:
            print(f"  fits: unknown (the devices report no memory limit; {where})")
        elif m["fits"]:
            u = min(m["units"], key=lambda x: (x["usable_bytes"] or 0) - x["needed_bytes"])
            runtime = " (with 0.29 GiB per process for Python, JAX and XLA)" if u["unit"] == "host" else ""
            print(f"  fits: yes on this machine ({where}): {u['needed_bytes'] / gib:.3f} GiB needed on "
                  f"{u['unit']}{runtime}, {u['usable_bytes'] / gib:.3f} GiB usable ({u['source']})")
        else:
            print(f"  fits: no on this machine ({where}): {m['why']}")
    return 0
