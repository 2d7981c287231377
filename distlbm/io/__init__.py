"""Output and checkpoints: HDF5 in the global layout (parallel where the machine allows), XDMF."""
