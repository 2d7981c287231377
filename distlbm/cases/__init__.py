"""Built-in cases: geometry, initial state, boundaries, observables and, where one exists, the answer."""

from __future__ import annotations

from distlbm.cases.base import Case, ConfigError, Param, Setup  # noqa: F401
from distlbm.cases.box import PeriodicBox
from distlbm.cases.cavity import Cavity2D, Cavity3D
from distlbm.cases.channel import Couette, Poiseuille
from distlbm.cases.duct import Duct
from distlbm.cases.kolmogorov import Kolmogorov
from distlbm.cases.obstacles.benchmarks import SchaeferTurek2D1, SchaeferTurek2D2, SchaeferTurek3D1Z, SphereFlow
from distlbm.cases.obstacles.channel import ChannelFlow
from distlbm.cases.taylor_green import TaylorGreen2D, TaylorGreen3D

CASES: dict[str, Case] = {
    c.name: c
    for c in (TaylorGreen2D(), TaylorGreen3D(), Kolmogorov(), Poiseuille(), Couette(), Duct(), Cavity2D(), Cavity3D(),
              PeriodicBox(), ChannelFlow(), SchaeferTurek2D1(), SchaeferTurek2D2(), SchaeferTurek3D1Z(), SphereFlow())
}
