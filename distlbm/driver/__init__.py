"""The driver: a loop that advances a run to the next due step and fires callbacks there (progress,
the instability check, samples, field output, checkpoints), stopping cleanly on signals and the
wall-time limit. Callbacks and cases see a read-only view of the run, never the driver."""

__all__ = ["Simulation", "InstabilityError", "build_model", "EXIT_OK", "EXIT_CONFIG", "EXIT_INSTABILITY",
           "EXIT_WRITE_FAILED", "EXIT_RESUBMIT"]


def __getattr__(name):  # imported on first use: `distlbm.driver.signals` must load without JAX
    if name == "InstabilityError":
        from distlbm.driver.callbacks import InstabilityError

        return InstabilityError
    if name in __all__:
        from distlbm.driver import loop

        return getattr(loop, name)
    raise AttributeError(name)
