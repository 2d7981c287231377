"""Collision operators on local arrays: BGK, TRT (magic parameter Lambda) and regularized BGK,
with optional Guo forcing and an optional Smagorinsky subgrid viscosity. Vectorised over Q.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import jax.numpy as jnp
from jax import lax

from distlbm.lattice import Lattice
from distlbm.physics.equilibrium import qconst
from distlbm.physics.forcing import field_dot_c, guo_source, is_field

KINDS = ("bgk", "trt", "regularized")


@dataclass(frozen=True)
class Collision:
    """Static description of a collision operator (lattice units).

    kind: 'bgk' | 'trt' | 'regularized'; tau: relaxation time of the shear modes, nu = cs2 (tau - 1/2);
    trt_lambda: TRT magic parameter Lambda = (tau+ - 1/2)(tau- - 1/2), 3/16 by default;
    smagorinsky: Smagorinsky constant C_s (0 disables the subgrid model).
    """

    kind: str = "bgk"
    tau: float = 0.8
    trt_lambda: float = 3.0 / 16.0
    smagorinsky: float = 0.0

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"collision: got {self.kind!r}, expected one of {KINDS}")
        if not self.tau > 0.5:
            raise ValueError(f"tau: got {self.tau}, expected > 0.5 (viscosity cs2*(tau-1/2) must be positive)")
        if not self.trt_lambda > 0:
            raise ValueError(f"trt_lambda: got {self.trt_lambda}, expected > 0")
        if self.smagorinsky < 0:
            raise ValueError(f"smagorinsky: got {self.smagorinsky}, expected >= 0")


def second_moment(x, lattice: Lattice):
    """Pi_ab = sum_i c_ia c_ib x_i as {(a, b): array} for a <= b (explicit sums, fixed order)."""
    c = lattice.c
    out = {}
    for a in range(lattice.d):
        for b in range(a, lattice.d):
            acc = None
            for i in range(lattice.q):
                cc = int(c[i, a] * c[i, b])
                if cc == 0:
                    continue
                acc = (x[i] if cc > 0 else -x[i]) if acc is None else (acc + x[i] if cc > 0 else acc - x[i])
            out[(a, b)] = acc
    return out


def _sym_uf(u, force, a: int, b: int):
    """(u_a F_b + u_b F_a) / 2 with no sum of two products (XLA:CPU may contract either into an FMA, differently
    in its vectorised and remainder loops: other bits on another mesh): u_a F_a on the diagonal (exactly the
    same number), the zero components of F left out (None: both are), and of two products the first
    materialised. A per-cell force field (`is_field`) has no zero components to leave out."""
    if is_field(force):
        force = tuple(force[i] for i in range(force.shape[0]))
        if a == b:
            return u[a] * force[a]
        return 0.5 * (lax.optimization_barrier(u[a] * force[b]) + u[b] * force[a])
    if a == b:
        return u[a] * force[a] if force[a] != 0 else None
    terms = [u[i] * force[j] for i, j in ((a, b), (b, a)) if force[j] != 0]
    if not terms:
        return None
    if len(terms) == 1:
        return 0.5 * terms[0]
    return 0.5 * (lax.optimization_barrier(terms[0]) + terms[1])


def _regular_part(pi, lattice: Lattice, dtype):
    """f1_i = w_i / (2 cs2^2) (c_i c_i - cs2 I) : Pi, as [Q, ...]."""
    cs2 = lattice.cs2
    nd = pi[(0, 0)].ndim
    acc = None
    for (a, b), v in pi.items():
        qab = lattice.c[:, a] * lattice.c[:, b] - (cs2 if a == b else 0.0)
        t = qconst(qab * (1.0 if a == b else 2.0), nd, dtype) * v[None]
        acc = t if acc is None else acc + t
    return qconst(lattice.w / (2.0 * cs2 * cs2), nd, dtype) * acc


def _first_moment_part(force, lattice: Lattice, nd: int, dtype):
    """w_i c_i . (F/2) / cs2 as [Q, 1, ...] ([Q, ...] for a per-cell force field): minus the Hermite term of the
    non-equilibrium first moment -F/2."""
    if is_field(force):
        return qconst(0.5 * lattice.w / lattice.cs2, nd, dtype) * field_dot_c(force, lattice)
    cf = lattice.c @ [float(x) for x in force]
    return qconst(0.5 * lattice.w * cf / lattice.cs2, nd, dtype)


def collide(f, rho, u, feq, op: Collision, lattice: Lattice, force=None, feq_opp=None):
    """Relax f: [Q, ...] towards feq: [Q, ...]. rho, u are the moments of f (u half-force shifted).

    feq_opp (TRT only, optional): feq[lattice.opposite], when the caller can form it without a
    gather, e.g. equilibrium(rho, -u) (the same numbers: c_opp . u = c . (-u) exactly).
    """
    dt = f.dtype
    need_pi = op.kind == "regularized" or op.smagorinsky > 0
    pi = None
    if need_pi:
        pi = second_moment(f - feq, lattice)
        if force is not None:  # Guo-forced first-order moment: Pi^(1) + (u F + F u)/2
            for k in list(pi):
                extra = _sym_uf(u, force, *k)
                if extra is not None:
                    pi[k] = pi[k] + extra
        # per-cell fields read by every population's output: materialise them once
        keys = list(pi)
        vals = lax.optimization_barrier(jnp.stack([pi[k] for k in keys]))
        pi = {k: vals[n] for n, k in enumerate(keys)}
    if op.smagorinsky > 0:
        # |Pi|^2 = sum of squares, each square materialised first: a sum of two products leaves XLA:CPU the choice
        # of which to contract into an FMA, and it chose differently in the vectorised and the remainder loops (a
        # block 8 cells deep along z gave other bits than one device: 1e-8 in 60 steps, the 3rd digit of a
        # Re 1600 Taylor-Green's peak-dissipation time)
        squares = lax.optimization_barrier(jnp.stack([v * v if a == b else 2.0 * (v * v) for (a, b), v in pi.items()]))
        norm = squares[0]
        for k in range(1, squares.shape[0]):
            norm = norm + squares[k]
        cs, tau0 = op.smagorinsky, op.tau
        tau = 0.5 * (tau0 + jnp.sqrt(tau0 * tau0 + 18.0 * math.sqrt(2.0) * cs * cs * jnp.sqrt(norm) / rho))
        omega = lax.optimization_barrier(1.0 / tau)[None]
    else:
        omega = 1.0 / op.tau
    src = guo_source(u, force, lattice) if force is not None else None

    if op.kind == "bgk":
        out = f - omega * (f - feq)
        if src is not None:
            out = out + (1.0 - 0.5 * omega) * src
        return out

    if op.kind == "regularized":
        out = feq + (1.0 - omega) * _regular_part(pi, lattice, dt)
        if src is not None:
            # with the half-force-shifted u the non-equilibrium part has the first moment sum c (f - feq) = -F/2;
            # its Hermite term, w c.(-F/2)/cs2, is kept: without it the regularized step lost that momentum and a
            # force-driven channel came out 12.6 % off (0.107 % with it; BGK's slip-law error is 0.278 %)
            first = _first_moment_part(force, lattice, f.ndim - 1, dt)
            out = out + (1.0 - 0.5 * omega) * src - (1.0 - omega) * first
        return out

    # TRT: symmetric part relaxes with omega+, antisymmetric part with omega-, Lambda fixed
    if op.smagorinsky > 0:
        omega_m = 1.0 / (0.5 + op.trt_lambda / (1.0 / omega - 0.5))
    else:
        omega_m = 1.0 / (0.5 + op.trt_lambda / (op.tau - 0.5))
    opp = lattice.opposite
    neq = f - feq
    neq_o = neq[opp] if feq_opp is None else f[opp] - feq_opp
    out = f - omega * (0.5 * (neq + neq_o)) - omega_m * (0.5 * (neq - neq_o))
    if src is not None:
        src_o = src[opp]
        out = out + (1.0 - 0.5 * omega) * (0.5 * (src + src_o)) + (1.0 - 0.5 * omega_m) * (0.5 * (src - src_o))
    return out
