"""Bucketize-3 and SearchSorted-15: where values fall among sorted boundaries.

Bucketize gives each element of ``data`` the index of its bucket among the sorted 1-D
``buckets`` (``with_right_bound``: a bucket holds its right boundary, ``b[i-1] < x <= b[i]``;
otherwise its left one); SearchSorted gives, row by row, the insertion index of each value in
``sorted_sequence`` (``right_mode``: after equal entries), as NumPy's ``searchsorted`` with
side left/right, which is what OpenVINO's references compute.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, make_node, need, register
from .types import Type, as_type, shape_str

__all__ = ["bucketize", "search_sorted"]


def _bucketize_infer(node: Node) -> list[ShapeType]:
    need(len(node._in_shape(1)) == 1, f"buckets input must be a 1D tensor, got "
         f"{shape_str(node._in_shape(1))}")
    t = node._attrs["output_type"]
    need(t in (Type.i32, Type.i64), f"Output type must be i32 or i64, got {t.get_type_name()}")
    return [(node._in_shape(0), t)]


def _bucketize(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    side = "left" if node._attrs["with_right_bound"] else "right"
    out = np.searchsorted(xs[1], xs[0], side=side)
    return [out.astype(node._out_types[0].to_dtype())]


register("Bucketize", "opset3", _bucketize_infer, _bucketize,
         attrs=[Attr("output_type", "type", Type.i64), Attr("with_right_bound", "bool", True)])


def _search_infer(node: Node) -> list[ShapeType]:
    seq, values = node._in_shape(0), node._in_shape(1)
    need(len(seq) >= 1 and len(values) >= 1, "sorted_sequence and values must have a rank")
    need(len(seq) == 1 or (len(seq) == len(values) and tuple(seq[:-1]) == tuple(values[:-1])),
         f"sorted_sequence {shape_str(seq)} and values {shape_str(values)} must have the same "
         "leading dimensions (or sorted_sequence be 1-D)")
    need(node._in_type(0) == node._in_type(1), "Sorted sequence and values must have the same "
         "element type")
    t = node._attrs["output_type"]
    need(t in (Type.i32, Type.i64), f"Output type must be i32 or i64, got {t.get_type_name()}")
    return [(values, t)]


def _search(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    seq, values = xs
    side = "right" if node._attrs["right_mode"] else "left"
    if seq.ndim == 1:
        out = np.searchsorted(seq, values, side=side)
    else:
        rows_s = seq.reshape(-1, seq.shape[-1])
        rows_v = values.reshape(-1, values.shape[-1])
        out = np.stack([np.searchsorted(s, v, side=side) for s, v in zip(rows_s, rows_v,
                                                                         strict=True)])
        out = out.reshape(values.shape)
    return [out.astype(node._out_types[0].to_dtype())]


register("SearchSorted", "opset15", _search_infer, _search,
         attrs=[Attr("right_mode", "bool", False), Attr("output_type", "type", Type.i64)])


def bucketize(data: NodeInput, buckets: NodeInput, output_type: Any = "i64",
              with_right_bound: bool = True, name: str | None = None) -> Node:
    """Bucketize-3: the bucket index of each element of ``data``."""
    return make_node("Bucketize", [as_output(data, name), as_output(buckets, name)],
                     {"output_type": as_type(output_type),
                      "with_right_bound": bool(with_right_bound)}, name)


def search_sorted(sorted_sequence: NodeInput, values: NodeInput, right_mode: bool = False,
                  name: str | None = None) -> Node:
    """SearchSorted-15: insertion indices of ``values`` in ``sorted_sequence``."""
    return make_node("SearchSorted", [as_output(sorted_sequence, name), as_output(values, name)],
                     {"right_mode": bool(right_mode)}, name)
