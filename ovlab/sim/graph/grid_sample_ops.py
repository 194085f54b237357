"""GridSample-9: ``data [N, C, H, W]`` sampled at the normalized points of ``grid
[N, H_out, W_out, 2]`` (x then y, -1..1), as OpenVINO's reference (``reference/
grid_sample.hpp``): bilinear, nearest (round half to even) or bicubic (A = -0.75)
interpolation; points past the edge read zeros, the border, or the reflected image;
``align_corners`` maps -1 and 1 to the corner pixels' centres instead of their outer edges.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, make_node, need, register
from .types import shape_str

__all__ = ["grid_sample"]


def _infer(node: Node) -> list[ShapeType]:
    x, grid = node._in_shape(0), node._in_shape(1)
    need(len(x) == 4, f"The supported shape of the input data tensor is 4D, got {shape_str(x)}")
    need(len(grid) == 4 and grid[3] == 2, "The supported shape of the grid tensor is 4D "
         f"[N, H, W, 2], got {shape_str(grid)}")
    need(x[0] == grid[0], f"The batch size of the input data tensor {shape_str(x)} and the "
         f"grid tensor {shape_str(grid)} must be equal")
    need(node._in_type(1).is_real(), "The element type of the grid tensor must be a floating "
         "point type")
    return [((x[0], x[1], grid[1], grid[2]), node._in_type(0))]


def _padded(img: np.ndarray, y: np.ndarray, x: np.ndarray, mode: str,
            align: bool) -> np.ndarray:
    """``img [C, H, W]`` at integer points ``y, x`` (any shape), padded as ``mode``."""
    _, h, w = img.shape
    if mode == "zeros":
        ok = (y >= 0) & (x >= 0) & (y < h) & (x < w)
        return np.where(ok, img[:, np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)], 0)
    if mode == "border":
        return img[:, np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)]
    if align:
        h2, w2 = (1 if h == 1 else 2 * (h - 1)), (1 if w == 1 else 2 * (w - 1))
        y, x = np.abs(y) % h2, np.abs(x) % w2
        y, x = np.where(y >= h, h2 - y, y), np.where(x >= w, w2 - x, x)
    else:
        y, x = (y % (2 * h) + 2 * h) % (2 * h), (x % (2 * w) + 2 * w) % (2 * w)
        y, x = np.where(y >= h, 2 * h - 1 - y, y), np.where(x >= w, 2 * w - 1 - x, x)
    return img[:, y, x]


def _cubic(r: np.ndarray, a: float = -0.75) -> list[np.ndarray]:
    return [((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
            ((a + 2) * r - (a + 3)) * r * r + 1,
            ((a + 2) * (1 - r) - (a + 3)) * (1 - r) * (1 - r) + 1,
            ((a * (2 - r) - 5 * a) * (2 - r) + 8 * a) * (2 - r) - 4 * a]


def _compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    data, grid = xs[0], xs[1].astype(np.float32)
    a = node._attrs
    align, mode, pad = a["align_corners"], a["mode"], a["padding_mode"]
    n_, c, h, w = data.shape
    out = np.empty((n_, c, grid.shape[1], grid.shape[2]), np.float32)
    for n in range(n_):
        img = data[n].astype(np.float32)
        gx, gy = grid[n, ..., 0], grid[n, ..., 1]
        if align:
            x, y = (gx + 1) * np.float32(w - 1) / 2, (gy + 1) * np.float32(h - 1) / 2
        else:
            x, y = ((gx + 1) * np.float32(w) - 1) / 2, ((gy + 1) * np.float32(h) - 1) / 2
        if mode == "nearest":
            out[n] = _padded(img, np.rint(y).astype(np.int64), np.rint(x).astype(np.int64),
                             pad, align)
            continue
        y0, x0 = np.floor(y), np.floor(x)
        dy, dx = y - y0, x - x0
        y0, x0 = y0.astype(np.int64), x0.astype(np.int64)
        if mode == "bilinear":
            q0 = (1 - dx) * _padded(img, y0, x0, pad, align) + dx * _padded(img, y0, x0 + 1,
                                                                            pad, align)
            q1 = (1 - dx) * _padded(img, y0 + 1, x0, pad, align) + dx * _padded(
                img, y0 + 1, x0 + 1, pad, align)
            out[n] = dy * q1 + (1 - dy) * q0
            continue
        cy, cx = _cubic(dy), _cubic(dx)
        total = 0
        for j in range(4):
            row = sum(cx[i] * _padded(img, y0 - 1 + j, x0 - 1 + i, pad, align) for i in range(4))
            total = total + cy[j] * row
        out[n] = total
    dtype = node._out_types[0].to_dtype()
    if np.issubdtype(dtype, np.integer):
        out = np.rint(out)
    return [out.astype(dtype)]


register("GridSample", "opset9", _infer, _compute,
         attrs=[Attr("align_corners", "bool", False),
                Attr("mode", "str", "bilinear", ("bilinear", "bicubic", "nearest")),
                Attr("padding_mode", "str", "zeros", ("zeros", "border", "reflection"))])


def grid_sample(data: NodeInput, grid: NodeInput, attributes: dict[str, Any],
                name: str | None = None) -> Node:
    """GridSample-9; ``attributes``: ``align_corners``, ``mode``, ``padding_mode``."""
    attrs = {k: (str(v).lower() if k != "align_corners" else bool(v))
             for k, v in dict(attributes).items()}
    return make_node("GridSample", [as_output(data, name), as_output(grid, name)], attrs, name)
