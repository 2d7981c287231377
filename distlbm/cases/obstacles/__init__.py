"""Flow past obstacles in a channel, set up in physical units: the obstacle grammar and its checks
(`spec`), the channel's grid (`layout`), probes and the analysis of sampled series (`probes`), the generic
case `channel_flow` (`channel`) and the benchmark presets built on it (`benchmarks`: Schaefer & Turek
2D-1, 2D-2, 3D-1Z, the sphere). `channel` does not know the presets; this package and the case registry
import both."""

from __future__ import annotations

from distlbm.cases.obstacles.benchmarks import (SchaeferTurek2D1, SchaeferTurek2D2, SchaeferTurek3D1Z, SphereFlow,
                                                sphere_reference)
from distlbm.cases.obstacles.channel import ChannelFlow
from distlbm.cases.obstacles.layout import Layout, channel_layout
from distlbm.cases.obstacles.probes import stencil, strouhal
from distlbm.cases.obstacles.spec import check_obstacles, parse_obstacles

__all__ = ["ChannelFlow", "Layout", "SchaeferTurek2D1", "SchaeferTurek2D2", "SchaeferTurek3D1Z", "SphereFlow",
           "channel_layout", "check_obstacles", "parse_obstacles", "sphere_reference", "stencil", "strouhal"]
