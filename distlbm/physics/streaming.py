"""Pull streaming by whole-array shifts, one axis at a time.

`stream(f, c, exchange)` moves every population k of `f: [K, X, Y(, Z)]` so that
f_k(x) <- f_k(x - c_k). The cells that enter a shard across a face come from `exchange(planes, axis,
sign)`, supplied by the caller (distlbm.parallel): given the stacked edge planes that this shard
sends towards `sign` along `axis`, it returns the planes that arrive from the opposite neighbour
(on one device: the periodic wrap, i.e. the planes themselves). Axes go in sequence and the plane
sent along a later axis already carries what arrived along the earlier ones, so edges and corners
need no diagonal messages. Each shifted population is then assembled as one sum of zero-padded
blocks, which XLA fuses into a single pass.
"""

from __future__ import annotations

import jax.numpy as jnp
from jax import lax


def _edge(x, axis: int, sign: int):
    """The plane that leaves along `axis` towards `sign` (last plane for +1, first for -1), kept as size 1."""
    n = x.shape[axis]
    return lax.slice_in_dim(x, n - 1, n, axis=axis) if sign > 0 else lax.slice_in_dim(x, 0, 1, axis=axis)


def _place(block, axis_cfg, shape):
    cfg = [(0, 0, 0)] * len(shape)
    for a, (lo, hi) in axis_cfg.items():
        cfg[a] = (lo, hi, 0)
    return lax.pad(block, jnp.zeros((), block.dtype), cfg)


def assemble(x, disp, recv, axes):
    """x shifted by `disp` along `axes` (in order), with recv[a] the plane entering along axis a.

    x: spatial array; disp: per-axis -1/0/+1; recv[a]: x's shape with size 1 along a.
    """
    axes = [a for a in axes if disp[a] != 0]
    if not axes:
        return x
    shape = x.shape
    terms = []
    for m in range(len(axes) + 1):
        src = x if m == len(axes) else recv[axes[m]]
        later = axes[m + 1:] if m < len(axes) else axes
        cfg = {}
        for b in later:  # drop the plane that leaves along b, open one cell on the entering side
            n = src.shape[b]
            src = lax.slice_in_dim(src, 0, n - 1, axis=b) if disp[b] > 0 else lax.slice_in_dim(src, 1, n, axis=b)
            cfg[b] = (1, 0) if disp[b] > 0 else (0, 1)
        if m < len(axes):  # the received plane sits on the entering face of its own axis
            a = axes[m]
            cfg[a] = (0, shape[a] - 1) if disp[a] > 0 else (shape[a] - 1, 0)
        terms.append(_place(src, cfg, shape))
    out = terms[-1]
    for t in terms[:-1]:
        out = out + t  # disjoint supports: adding zeros is exact
    return out


def stream_parts(f, c, exchange):
    """The K streamed populations of `stream` as a list of spatial arrays, not stacked.

    Each is one sum of zero-padded blocks (one fused pass per population). Keeping them apart lets a
    caller consume them without first copying them into one [K, ...] array (XLA:CPU does not fuse a
    concatenate of more than 8 operands, so `jnp.stack` of the 19 results is a separate full copy).
    """
    k_count, d = c.shape
    recv = entering_planes(f, c, exchange)
    return [assemble(f[k], c[k], recv[k], range(d)) for k in range(k_count)]


def entering_planes(f, c, exchange):
    """recv[k][a]: the plane that enters population k's shard along axis a when it streams (for every a
    with c[k, a] != 0), from the halo exchange. A plane along a later axis already carries what
    arrived along the earlier ones (edges and corners), so `assemble(f[k], c[k], recv[k], axes)` is
    the streamed population. Face-sized: this is all the exchange a step needs."""
    k_count, d = c.shape
    pops = [f[k] for k in range(k_count)]
    recv = [dict() for _ in range(k_count)]
    for a in range(d):
        for sign in (1, -1):
            ks = [k for k in range(k_count) if c[k, a] == sign]
            if not ks:
                continue
            planes = []
            for k in ks:
                earlier = [b for b in range(a) if c[k, b] != 0]
                x_edge = _edge(pops[k], a, sign)
                r_edge = {b: _edge(recv[k][b], a, sign) for b in earlier}
                planes.append(assemble(x_edge, c[k], r_edge, earlier))
            got = exchange(jnp.stack(planes), a, sign)
            for n, k in enumerate(ks):
                recv[k][a] = got[n]
    return recv


def stream_slab(window, ck, recv_k, x0, b: int, wraps):
    """Population k streamed on the slab of output cells x0 .. x0+b-1 (x = the first spatial axis).

    window: its pre-streaming values on x0 - c_k[0] .. x0 + b - 1 - c_k[0] (b planes, with the entering
    plane substituted where that range leaves the block); wraps[a]: axis a wraps onto this block, and
    the plane entering along it is the slab's own far face (after the earlier axes' shifts, as
    `entering_planes` builds it); along the other axes recv_k[a] (of `entering_planes`) is sliced to
    the slab. Gives the same values as `stream` on those cells.
    """
    d = len(ck)
    disp = (0,) + tuple(int(v) for v in ck[1:])
    entering = {}
    for a in range(1, d):
        if ck[a] == 0:
            continue
        if wraps[a]:
            earlier = [e for e in range(1, a) if ck[e] != 0]
            entering[a] = assemble(_edge(window, a, int(ck[a])), disp,
                                   {e: _edge(entering[e], a, int(ck[a])) for e in earlier}, earlier)
        else:
            entering[a] = lax.dynamic_slice_in_dim(recv_k[a], x0, b, axis=0)
    return assemble(window, disp, entering, range(1, d))


def stream(f, c, exchange):
    """f_k(x) <- f_k(x - c_k) for every k. f: [K, *S]; c: [K, D] integer array (-1/0/+1)."""
    return jnp.stack(stream_parts(f, c, exchange))


def periodic_exchange(planes, axis: int, sign: int):
    """The exchange of a lattice that is its own neighbour on every face: the periodic wrap."""
    return planes


# An exchange may say which axes wrap onto the block itself (`exchange.wraps(axis)`: it then returns
# the planes it is given), so that a step can take those planes from the block instead of exchanging.
periodic_exchange.wraps = lambda axis: True
