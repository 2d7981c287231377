"""Everything that knows about devices, meshes, processes and MPI lives here."""
