"""Everything that knows about devices, meshes, processes and MPI lives here: the domains (local,
device mesh, MPI ranks), the halo exchanges, process start-up and the one way to distribute a step."""

from distlbm.parallel.distribute import distribute, make_advance
from distlbm.parallel.domain import Domain

__all__ = ["Domain", "distribute", "make_advance", "make_domain", "plan_mesh"]


def plan_mesh(shape, mesh: str = "", comm: str = "jax") -> dict:
    """How `make_domain` splits a lattice of `shape`, found without allocating anything:
    {'kind': 'local' | 'mesh' | 'mpi', 'mesh_shape', 'devices' (the devices of all processes used;
    None under MPI, where each rank takes one device of its node)}.

    comm='jax': the given mesh ('2x2x2') over all devices of all processes, or every device with the
    halo-minimising mesh (falling back to fewer devices if the lattice does not divide), or one device.
    comm='mpi': one block per MPI rank."""
    import math

    import jax

    from distlbm.parallel.mesh import DecompositionError, factorize, mesh_devices, parse_mesh

    d = len(shape)
    if comm == "mpi":
        from distlbm.parallel.processes import launcher

        return {"kind": "mpi", "mesh_shape": tuple(parse_mesh(mesh, d) if mesh else factorize(launcher()[1], shape)),
                "devices": None}
    devices = jax.devices()
    if mesh:
        ms = tuple(parse_mesh(mesh, d))
        return {"kind": "mesh", "mesh_shape": ms, "devices": mesh_devices(devices, ms)
                if math.prod(ms) <= len(devices) else devices}
    if len(devices) == 1:
        return {"kind": "local", "mesh_shape": (1,) * d, "devices": devices[:1]}
    if jax.process_count() > 1:  # every process must take part: no falling back to fewer devices
        return {"kind": "mesh", "mesh_shape": tuple(factorize(len(devices), shape)), "devices": devices}
    for n in range(len(devices), 0, -1):  # the most devices the lattice splits over (6 devices, 32^3: 4 on 2x2x1;
        try:                                # only the divisors of 6 were tried: 2)
            return {"kind": "mesh", "mesh_shape": tuple(factorize(n, shape)), "devices": devices[:n]}
        except DecompositionError:
            continue
    return {"kind": "local", "mesh_shape": (1,) * d, "devices": devices[:1]}


def fewer_devices_note(shape, plan) -> str | None:
    """Why a run without --mesh uses fewer devices than this process has (plan_mesh fell back: the lattice does not
    split evenly over all of them), or None. Unsaid, 7 of 8 GPUs sat idle."""
    import jax

    have = len(jax.devices())
    used = len(plan["devices"] or ())
    if plan["kind"] == "mpi" or not used or used >= have:
        return None
    return (f"{used} of the {have} devices: the lattice {'x'.join(map(str, shape))} does not split evenly over "
            f"more; sizes divisible by a factorisation of {have}, or --mesh, use them all")


def make_domain(shape, mesh: str = "", comm: str = "jax") -> Domain:
    """The domain a run uses (see `plan_mesh` for the choice); `fewer_devices` on it says why it uses fewer
    devices than there are (None: it uses them all, or the --mesh given)."""
    plan = plan_mesh(shape, mesh, comm)
    domain = _make_domain(shape, mesh, plan)
    domain.fewer_devices = None if mesh else fewer_devices_note(shape, plan)
    return domain


def _make_domain(shape, mesh: str, plan: dict) -> Domain:
    if plan["kind"] == "mpi":
        from distlbm.parallel.mpi import MPIDomain

        from distlbm.parallel.mesh import parse_mesh

        return MPIDomain(shape, parse_mesh(mesh, len(shape)) if mesh else None)
    if plan["kind"] == "local":
        from distlbm.parallel.domain import LocalDomain

        return LocalDomain(shape)
    from distlbm.parallel.mesh import MeshDomain

    if mesh:
        return MeshDomain(shape, plan["mesh_shape"])
    return MeshDomain(shape, plan["mesh_shape"], plan["devices"])
