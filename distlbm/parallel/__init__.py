"""Everything that knows about devices, meshes, processes and MPI lives here."""


def make_domain(shape, mesh: str = "", comm: str = "jax"):
    """The domain a run uses. comm='jax': the given mesh ('2x2x2') over all devices of all processes,
    or every device with the halo-minimising mesh (falling back to fewer devices if the lattice does
    not divide), or one device. comm='mpi': one block per MPI rank, exchanged with mpi4jax."""
    import jax

    from distlbm.parallel.domain import LocalDomain
    from distlbm.parallel.mesh import DecompositionError, MeshDomain, factorize, parse_mesh

    d = len(shape)
    if comm == "mpi":
        from distlbm.parallel.mpi import MPIDomain

        return MPIDomain(shape, parse_mesh(mesh, d) if mesh else None)
    if mesh:
        return MeshDomain(shape, parse_mesh(mesh, d))
    devices = jax.devices()
    if len(devices) == 1:
        return LocalDomain(shape)
    if jax.process_count() > 1:  # every process must take part: no falling back to fewer devices
        return MeshDomain(shape, factorize(len(devices), shape))
    for n in range(len(devices), 0, -1):
        if len(devices) % n:
            continue
        try:
            return MeshDomain(shape, factorize(n, shape), devices[:n])
        except DecompositionError:
            continue
    return LocalDomain(shape)
