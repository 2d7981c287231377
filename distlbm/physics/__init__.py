"""Pure LBM physics on local arrays: moments, equilibrium, collision, forcing, streaming, boundaries.

Nothing here knows about devices, meshes, MPI or files. Populations are `f: [Q, X, Y(, Z)]`.
"""
