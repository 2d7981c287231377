"""Field output on a schedule: one HDF5 file per output step under DIR/fields/, an XDMF time series
in DIR, and optional PNG slices."""

from __future__ import annotations


import jax
import jax.numpy as jnp
import numpy as np

from distlbm.io import hdf5, xdmf



def vorticity_magnitude(u):
    """|curl u| by central differences on the periodic global array u: [D, X, Y(, Z)] (lattice units)."""
    def d(a, axis):
        return 0.5 * (jnp.roll(u[a], -1, axis=axis) - jnp.roll(u[a], 1, axis=axis))

    if u.shape[0] == 2:
        return jnp.abs(d(1, 0) - d(0, 1))
    wx = d(2, 1) - d(1, 2)
    wy = d(0, 2) - d(2, 0)
    wz = d(1, 0) - d(0, 1)
    return jnp.sqrt(wx * wx + wy * wy + wz * wz)


class FieldOutput:
    """Writes the fields an output spec (config.OutputSpec) asks for, from a run's view; `index` lists
    what was written (for the XDMF time series, and kept in checkpoints)."""

    def __init__(self, spec, case_name: str, index=None):
        self.names = list(spec.fields)
        self.units = spec.output_units
        self.images = bool(spec.output_images)
        self.case_name = case_name
        self.index = list(index or [])
        self._vort = jax.jit(vorticity_magnitude)
        self._last = None
        self.grid = "grid.h5"

    def written(self, step: int) -> bool:
        """Whether this output wrote `step` last (two schedules due at one step write once)."""
        return self._last == step

    def write(self, view):
        dom = view.domain
        step = view.step
        directory = view.out_dir
        units = view.setup.units
        dt, dx = units.get("dt", 1.0), units.get("dx", 1.0)
        time_ = step * dt
        rho, u = view.macroscopic()
        phys = self.units == "physical"
        if phys:
            u = u * (dx / dt)
        fields, meta = [], {}
        d = len(dom.shape)
        for name in self.names:
            if name == "rho":
                fields.append(hdf5.Field("rho", rho, "scalar"))
                meta["rho"] = (dom.shape, rho.dtype, "Scalar")
            elif name == "u":
                fields.append(hdf5.Field("u", u, "vector"))
                meta["u"] = (dom.shape + (d,), u.dtype, "Vector")
            elif name == "vorticity":
                w = self._vort(u)
                fields.append(hdf5.Field("vorticity", w, "scalar"))
                meta["vorticity"] = (dom.shape, w.dtype, "Scalar")
            elif name == "populations":
                # bfloat16 has no HDF5 type: written as float32 (exact) so that any reader can use it
                f = view.state.f
                fields.append(hdf5.Field("populations", f, "leading", "float32" if f.dtype == jnp.bfloat16 else None))
            elif name == "kind" and view.kind is not None:
                fields.append(hdf5.Field("kind", view.kind, "scalar"))
                meta["kind"] = (dom.shape, np.uint8, "Scalar")
        rel = f"fields/fields_{step:09d}.h5"
        attrs = {"step": step, "time": time_, "units": self.units, "lattice": view.model.lattice.name,
                 "dx": dx, "dt": dt, "case": self.case_name,
                 "velocity_units": "m/s (dx/dt)" if phys else "lattice (dx/dt = 1)"}
        hdf5.write(directory / rel, fields, dom, attrs=attrs)
        self._last = step
        self.index = [e for e in self.index if e["step"] != step]
        self.index.append({"step": step, "time": time_, "file": rel,
                           "fields": {k: [list(v[0]), str(np.dtype(v[1])), v[2]] for k, v in meta.items()}})
        if dom.process_index == 0:
            if not (directory / self.grid).exists():
                xdmf.write_grid(directory / self.grid, dom.shape, spacing=dx if phys else 1.0)
            xdmf.write_xdmf(directory / "fields.xdmf", dom.shape, self.grid,
                            [{"file": e["file"], "time": e["time"], "step": e["step"],
                              "fields": {k: (tuple(v[0]), v[1], v[2]) for k, v in e["fields"].items()}}
                             for e in sorted(self.index, key=lambda e: e["step"])])
        if self.images:
            self._image(view, rho, u, step)
        view.log(f"output: {directory / rel}")

    def _image(self, view, rho, u, step):
        """A PNG of |u| on the mid-plane z = Z/2 (3D) or the whole plane (2D), from process 0."""
        dom = view.domain
        speed = jnp.sqrt(jnp.sum(u * u, axis=0))
        if speed.ndim == 3:
            speed = speed[:, :, speed.shape[2] // 2]
        plane = dom.gather(speed)
        if dom.process_index != 0:
            return
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            view.log("warning: output_images needs matplotlib (pip install matplotlib); no PNG written")
            return
        path = view.out_dir / "images" / f"speed_{step:09d}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        fig, ax = plt.subplots(figsize=(6, 6 * plane.shape[1] / max(plane.shape[0], 1) if plane.shape[0] else 6))
        im = ax.imshow(np.asarray(plane).T, origin="lower", cmap="viridis")
        fig.colorbar(im, ax=ax, label="|u|")
        ax.set_title(f"{self.case_name} step {step}")
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        fig.savefig(path, dpi=100)
        plt.close(fig)
