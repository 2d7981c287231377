"""Everything that knows about devices, meshes, processes and MPI lives here."""


def make_domain(shape, mesh: str = ""):
    """The domain a run uses: the given mesh ('2x2x2'), or every device with the halo-minimising mesh
    (falling back to fewer devices if the lattice does not divide), or one device."""
    import jax

    from distlbm.parallel.domain import LocalDomain
    from distlbm.parallel.mesh import DecompositionError, MeshDomain, factorize, parse_mesh

    d = len(shape)
    if mesh:
        return MeshDomain(shape, parse_mesh(mesh, d))
    devices = jax.devices()
    if len(devices) == 1:
        return LocalDomain(shape)
    for n in range(len(devices), 0, -1):
        if len(devices) % n:
            continue
        try:
            return MeshDomain(shape, factorize(n, shape), devices[:n])
        except DecompositionError:
            continue
    return LocalDomain(shape)
