"""XDMF index of the field output, so that ParaView opens the run as a time series.

The datasets are stored in the global C-order layout [X, Y(, Z)], whose fastest index is the last
axis. ParaView maps the fastest index to its own x, so a rectilinear XDMF mesh would show the
lattice with x and z swapped. The mesh is therefore a structured grid (3DSMesh / 2DSMesh) whose node
coordinates are written once to grid.h5: every cell sits at its true (x, y, z) and the velocity
components keep their meaning.

The whole fields are cell data: the grid's nodes are the cell corners ([X+1, Y+1(, Z+1)] nodes, cell
(i, j, k) between nodes i and i+1 ...). The light outputs (a sub-box, every k-th cell, a plane) are point
data instead: the grid's nodes are the written cells' centres, so that each value sits exactly where its
cell is, a slice is a plane (one node thick) and a strided sample does not pretend to fill a k-cell box.
"""

from __future__ import annotations

import os
from pathlib import Path
from xml.sax.saxutils import quoteattr

import numpy as np

from distlbm.io import files, hdf5


def write_grid(path, shape, spacing: float = 1.0, origin=None) -> Path:
    """Node coordinates [X+1, Y+1(, Z+1), D] (float32) of the lattice cells' corners, written slab by slab
    (origin: the coordinates of cell 0's corner)."""
    d = len(shape)
    origin = origin if origin is not None else (0.0,) * d
    return write_nodes(path, [origin[a] + spacing * np.arange(shape[a] + 1, dtype=np.float64) for a in range(d)],
                       spacing)


def write_nodes(path, axes, spacing: float = 1.0) -> Path:
    """Node coordinates [len(axes[0]), ..., D] (float32) of the structured grid whose nodes along axis a
    are at axes[a] (1D arrays), written slab by slab; `spacing` (the distance between neighbouring nodes along
    each axis: dx for the whole fields, stride x dx for a strided light output) is kept as an attribute."""
    path = Path(path)
    d = len(axes)
    nodes = tuple(len(ax) for ax in axes)
    tmp = path.with_name(path.name + ".tmp")
    files.check_target(path)
    h5 = None
    try:
        h5 = hdf5.create_exclusive(tmp)
        ds = h5.create_dataset("XYZ" if d == 3 else "XY", shape=nodes + (d,), dtype="float32")
        axes = [np.asarray(ax, np.float64) for ax in axes]
        # 8 MiB of float32 nodes per slab: the float64 grids and their stack hold 6x that (32 MiB slabs: 0.2 GB)
        step = max(1, (8 << 20) // (int(np.prod(nodes[1:])) * d * 4))
        for i0 in range(0, nodes[0], step):
            i1 = min(nodes[0], i0 + step)
            grids = np.meshgrid(axes[0][i0:i1], *axes[1:], indexing="ij")
            ds[i0:i1] = np.stack(grids, axis=-1).astype(np.float32)
        h5.attrs["spacing"] = spacing
        h5.close()
        h5 = None
        os.replace(tmp, path)
    except (OSError, RuntimeError, ValueError) as e:
        raise hdf5.failed_write(e, tmp, h5, path, int(np.prod(nodes)) * d * 4) from None
    return path


def _item(dims, h5ref, dtype) -> str:
    """A DataItem of the HDF5 dataset h5ref: its NumberType and Precision are the dataset's. A 1-byte integer is
    Char / UChar (XDMF's names for them): the readers take Int / UInt as 32-bit whatever the Precision (XDMF 3,
    ParaView's default reader, ignores it; VTK's XDMF 2 reader gave the uint8 `kind` as uint32)."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        kind = "Float"
    elif dt.itemsize == 1:
        kind = "UChar" if dt.kind in "ub" else "Char"
    else:
        kind = "UInt" if dt.kind == "u" else "Int"
    return (f'<DataItem Dimensions="{" ".join(map(str, dims))}" NumberType="{kind}" '
            f'Precision="{dt.itemsize}" Format="HDF">{h5ref}</DataItem>')


HEAD = ('<?xml version="1.0" ?>\n<Xdmf Version="3.0">\n <Domain>\n'
        '  <Grid Name="fields" GridType="Collection" CollectionType="Temporal">\n')
TAIL = "  </Grid>\n </Domain>\n</Xdmf>\n"
# what write_xdmf last wrote to each file (absolute path): the entries its grids were made of and the file's (size,
# mtime, inode) after the write, so that an output appended to the series is appended to the file
_WRITTEN: dict = {}


def _grid_xml(out: dict, shape, grid_file: str, center: str) -> str:
    """One output's <Grid> of the series."""
    d = len(shape)
    topo = "3DSMesh" if d == 3 else "2DSMesh"
    geo = "XYZ" if d == 3 else "XY"
    cells = tuple(out.get("shape") or shape)
    nodes = tuple(n + 1 for n in cells) if center == "Cell" else cells
    grid = out.get("grid") or grid_file
    lines = [f'   <Grid Name="step_{out["step"]:08d}" GridType="Uniform">',
             f'    <Time Value="{out["time"]!r}"/>',
             f'    <Topology TopologyType="{topo}" Dimensions="{" ".join(map(str, nodes))}"/>',
             f'    <Geometry GeometryType="{geo}">',
             "     " + _item(nodes + (d,), f"{grid}:/{geo}", "float32"),
             "    </Geometry>"]
    for name, (dims, dtype, kind) in out["fields"].items():
        lines.append(f'    <Attribute Name={quoteattr(name)} AttributeType="{kind}" Center="{center}">')
        lines.append("     " + _item(dims, f'{out["file"]}:/{name}', dtype))
        lines.append("    </Attribute>")
    lines.append("   </Grid>\n")
    return "\n".join(lines)


def _stat(path):
    """(size, mtime, inode) of the file at `path` itself (a link there is not the file written: it is replaced)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ino


def _append(path, pos: int, text: bytes) -> bool:
    """Write `text` (the new grids and the closing tags) over the closing tags at `pos`; False (nothing written) where
    they are not there. A write cut short (a full disk, a quota: the whole rewrite after it fails too) puts the closing
    tags back at `pos`: the file as it was, where it was left without them (ParaView opened none of the outputs)."""
    tail = TAIL.encode()
    fd = os.open(path, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0))
    try:
        if os.pread(fd, len(tail), pos) != tail:
            return False
        try:
            done = 0
            while done < len(text):
                n = os.pwrite(fd, text[done:], pos + done)
                if n <= 0:
                    raise OSError(f"{path}: nothing written")
                done += n
            os.fsync(fd)
        except OSError:
            try:  # (the space the cut-short grids took is freed first)
                os.ftruncate(fd, pos)
                os.pwrite(fd, tail, pos)
            except OSError:
                pass
            raise
        return True
    finally:
        os.close(fd)


def write_xdmf(path, shape, grid_file: str, outputs: list[dict], center: str = "Cell") -> Path:
    """outputs: [{'file': relative path, 'time': t, 'step': n, 'fields': {name: (file dims, dtype, kind)}, and
    optionally 'grid': its own grid file and 'shape': its own written cells (an output written before a restart
    changed the cut or the units keeps the grid it was written on)}];
    shape, grid_file: the written cells and grid of the outputs that give none; center 'Cell' (grid nodes at the
    cells' corners: shape + 1 of them) or 'Node' (grid nodes at the cells' centres: shape of them). An entry once
    given is not to be changed in place (a new dict for a changed output).

    The file is replaced atomically, except where the series only grew since this process last wrote it and the file
    is as it left it: the new outputs' grids are then written over the closing tags, and the tags after them. It was
    rewritten whole for every output: 27 MB and 0.4 s per output at 30,000 outputs (a 2D run's movie), hours over
    such a run."""
    path = Path(path)
    key = str(path.absolute())
    # what the grids' XML is made of (compared, not the XML: only the new outputs' is made); an entry is equal to
    # itself at once (the caller's entries are not changed once given: a changed output is a new entry)
    made = [(tuple(shape), grid_file, center)] + list(outputs)
    before = _WRITTEN.pop(key, None)
    if before is not None and len(made) > len(before[0]) and made[:len(before[0])] == before[0] \
            and _stat(path) == before[1]:
        try:
            new = outputs[len(before[0]) - 1:]
            text = ("".join(_grid_xml(out, shape, grid_file, center) for out in new) + TAIL).encode()
            if _append(path, before[1][0] - len(TAIL), text):
                _WRITTEN[key] = (made, _stat(path))
                return path
        except OSError:
            pass  # rewritten whole below (a failure there is the run's write error)
    files.write_text(path, HEAD + "".join(_grid_xml(out, shape, grid_file, center) for out in outputs) + TAIL)
    _WRITTEN[key] = (made, _stat(path))
    return path
