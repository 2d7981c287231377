"""A case of your own (README "From Python"): a 2D channel with a square obstacle, a parabolic inflow at x = 0 and a
zero-gradient outflow at the far end, reporting the drag and lift on the square (lattice units).

    PYTHONPATH=examples distlbm run square_channel:SquareChannel --set nx=96 --set steady_tol=0
"""

from __future__ import annotations

import numpy as np

from distlbm.cases.base import Case, Geometry, Param, Setup, block_shape, grid_coords
from distlbm.physics import boundaries as bc


class SquareChannel(Case):
    name = "square_channel"
    title = "2D channel with a square obstacle: parabolic inflow, outflow; drag and lift on the square"
    dims = (2,)
    default_lattice = "D2Q9"
    params = (
        Param("ny", 20, int, "fluid rows between the walls", positive=True),
        Param("nx", 60, int, "cells along the channel", positive=True),
        Param("side", 4, int, "the square's side (cells)", positive=True),
        Param("umax", 0.05, float, "the inflow's peak velocity", unit="lattice", positive=True),
        Param("tau", 0.8, float, "relaxation time"),
    )

    def build(self, p, lattice):
        nx, ny, side, umax = p["nx"], p["ny"], p["side"], p["umax"]
        shape = (nx, ny + 2)  # rows 0 and ny + 1 are the walls (halfway bounce-back: the walls lie at y = 1, ny + 1)
        x0, y0 = nx // 4, (ny + 2) // 2 - side // 2

        def inflow(y):  # y: cell index; the parabola is 0 on the halfway walls
            h = (y + 0.5 - 1.0) / ny
            return np.where((y > 0) & (y < ny + 1), 4.0 * umax * h * (1.0 - h), 0.0)

        def geometry(index):
            bs = block_shape(index, shape)
            x, y = (np.broadcast_to(c, bs) for c in grid_coords(index, shape, offset=0.0))  # integer cell indices
            kind = np.zeros(bs, np.uint8)
            kind[(y == 0) | (y == ny + 1)] = bc.WALL
            square = (x >= x0) & (x < x0 + side) & (y >= y0) & (y < y0 + side)
            kind[square] = bc.WALL
            fluid_rows = (y > 0) & (y < ny + 1)
            kind[(x == 0) & fluid_rows] = bc.inlet_kind(0, -1)  # outward normal -x
            kind[(x == nx - 1) & fluid_rows] = bc.outflow_kind(0, +1)
            velocity = np.zeros((2,) + bs)
            velocity[0] = np.where(x == 0, inflow(y), 0.0)
            return Geometry(kind, velocity=velocity, body=square.astype(np.uint8))  # body 1: the square

        def initial(index):  # the inflow's profile everywhere (the square's cells are reset by the walls)
            bs = block_shape(index, shape)
            _, y = grid_coords(index, shape, offset=0.0)
            u = np.zeros((2,) + bs)
            u[0] = np.broadcast_to(inflow(y), bs)
            return np.ones(bs), u, None

        features = bc.Features(walls=True, inlets=((0, -1),), outflow=((0, 1),), bodies=1)
        return Setup(lattice, shape, p["tau"], initial, 2000, umax, geometry=geometry, features=features)

    def quantities(self, raw, view):
        fx, fy = raw["force"][0]  # body 1's force, lattice units
        return {"drag": float(fx), "lift": float(fy)}

    def observe(self, view, p):
        fx, fy = np.asarray(view.forces(), dtype=float)[0]
        return {"drag": float(fx), "lift": float(fy)}
