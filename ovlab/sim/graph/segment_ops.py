"""SegmentMax-16 and SparseFillEmptyRows-16: ops whose output length depends on input values.

SegmentMax takes the maximum of ``data``'s rows per segment (``segment_ids``: one sorted id
per row); the output has ``num_segments`` rows, or ``max(segment_ids) + 1`` without it, and an
empty segment is filled with 0 or the type's lowest value (``fill_mode``). SparseFillEmptyRows
gives each empty row of a 2-D sparse tensor (``indices``, ``values``, ``dense_shape``) one
entry ``default_value`` at column 0, and says which rows were empty.

Shape inference follows OpenVINO's (``segment_max_shape_inference.hpp``,
``sparse_fill_empty_rows_shape_inference.hpp``): the lengths are known when the inputs that
decide them are Constants. When they are not, the length is a dynamic dimension (``?``, the
``-1`` of ``PartialShape``) as in OpenVINO; ovlab runs static models only, so compiling such a
model is refused with a message naming the op, while building and inspecting it works.
"""

from __future__ import annotations

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import NodeInput, constant_value, make_node, need, register
from .types import PartialShape, Type

__all__ = ["segment_max", "sparse_fill_empty_rows"]


def _shape_text(shape: tuple[int, ...]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


# --- SegmentMax-16 -----------------------------------------------------------------------------
def _segment_infer(node: Node) -> list[ShapeType]:
    data, ids = node._in_shape(0), node._in_shape(1)
    need(len(node._inputs) in (2, 3), "Check 'input_shapes.size() == 2 || "
         "input_shapes.size() == 3' failed")
    ti = node._in_type(1).get_type_name()
    need(ti in ("i32", "i64"), "The element type of the segment_ids input be i32 or i64. Got: "
         f"{ti}")
    need(len(data) > 0, "The data input cannot be a scalar.")
    need(len(ids) == 1, f"segment_ids must be a 1D input. Got: {_shape_text(ids)}")
    need(data[0] == ids[0], "The number of elements in segment_ids must match the first "
         "dimension of data.")
    id_values = constant_value(node._inputs[1])
    if id_values is not None:
        need(bool(np.all(np.diff(id_values.astype(np.int64)) >= 0)), "segment_ids must be sorted.")
    if len(node._inputs) == 3:
        tn = node._in_type(2).get_type_name()
        need(tn in ("i32", "i64"), "The element type of the num_segments input be i32 or i64. "
             f"Got: {tn}")
        need(len(node._in_shape(2)) == 0, "num_segments must be a scalar input. Got: "
             f"{_shape_text(node._in_shape(2))}")
        n = constant_value(node._inputs[2])
        if n is not None:
            return [((int(np.ravel(n)[0]), *data[1:]), node._in_type(0))]
    if id_values is not None:
        first = int(id_values.max()) + 1 if id_values.size else 0
        return [((first, *data[1:]), node._in_type(0))]
    return [(PartialShape([-1, *data[1:]]), node._in_type(0))]  # type: ignore[list-item]


def _segment_max(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    """``reference/segment_max.hpp``: ids at or past the segment count end the scan."""
    data, ids = xs[0], xs[1].astype(np.int64)
    if len(xs) == 3:
        count = int(np.ravel(xs[2])[0])
    else:
        count = int(ids.max()) + 1 if ids.size else 0
    if data.dtype.kind == "f":
        lowest = np.finfo(data.dtype).min
    else:
        lowest = np.iinfo(data.dtype).min
    empty = 0 if node._attrs["fill_mode"] == "zero" else lowest
    out = np.full((count, *data.shape[1:]), lowest, data.dtype)
    seen = np.zeros(count, bool)
    for i, s in enumerate(ids):
        if s >= count:
            break
        out[s] = np.maximum(out[s], data[i])
        seen[s] = True
    out[~seen] = empty
    return [out]


register("SegmentMax", "opset16", _segment_infer, _segment_max,
         attrs=[Attr("fill_mode", "str", choices=("zero", "lowest"))])


def segment_max(data: NodeInput, segment_ids: NodeInput, num_segments: NodeInput | None = None,
                fill_mode: str | None = None, name: str | None = None) -> Node:
    """SegmentMax-16 (``openvino.opset16``+): the maximum of ``data``'s rows per segment;
    ``fill_mode`` ("ZERO" or "LOWEST") fills the empty segments and must be given."""
    if fill_mode not in ("ZERO", "LOWEST"):
        raise ValueError("fill_mode must be provided and can be either 'ZERO' or 'LOWEST'")
    inputs = [data, segment_ids] if num_segments is None else [data, segment_ids, num_segments]
    return make_node("SegmentMax", inputs, {"fill_mode": fill_mode.lower()}, name)


# --- SparseFillEmptyRows-16 --------------------------------------------------------------------
def _sfer_infer(node: Node) -> list[ShapeType]:
    values, dense, indices, default = (node._in_shape(i) for i in range(4))
    t_idx, t_dense = node._in_type(2), node._in_type(1)
    need(t_idx.get_type_name() in ("i32", "i64"), "The element type of the indices input must "
         f"be i32 or i64. Got: {t_idx.get_type_name()}")
    need(t_dense == t_idx, "The element types of the dense_shape and indices inputs must match. "
         f"Got: {t_dense.get_type_name()} and {t_idx.get_type_name()}")
    need(node._in_type(3) == node._in_type(0), "The element types of the default_value and "
         f"values inputs must match. Got: {node._in_type(3).get_type_name()} and "
         f"{node._in_type(0).get_type_name()}")
    need(len(values) == 1, f"The values input must be a 1D tensor.{_shape_text(values)}")
    need(len(dense) == 1 and dense[0] == 2, "The dense_shape input must be 1D and have exactly 2 "
         "elements, meaning only 2D sparse tensors are supported.")
    need(len(indices) == 2 and indices[1] == 2 and indices[0] == values[0],
         "The indices input must be a 2D tensor with the first dimension matching the size of "
         f"values and the second dimension having 2 elements.{_shape_text(indices)}")
    need(len(default) == 0, f"The default_value input must be a scalar.{_shape_text(default)}")
    out_idx: object = PartialShape([-1, 2])  # the lengths are known only from the values
    out_val: object = PartialShape([-1])
    rows: object = PartialShape([-1])
    dense_v = constant_value(node._inputs[1])
    if dense_v is not None:
        n_rows, n_cols = (int(d) for d in dense_v)
        rows = (n_rows,)
        idx_v = constant_value(node._inputs[2])
        if idx_v is not None:
            for r, c in idx_v.reshape(-1, 2):
                need(0 <= r < n_rows, f"Sparse tensor index out of bounds: row {r} is outside "
                     f"the valid range [0, {n_rows - 1}]")
                need(0 <= c < n_cols, f"Sparse tensor index out of bounds: column {c} is "
                     f"outside the valid range [0, {n_cols - 1}]")
            empty = n_rows - len(set(int(r) for r in idx_v.reshape(-1, 2)[:, 0]))
            out_idx, out_val = (indices[0] + empty, 2), (values[0] + empty,)
    return [(out_idx, t_idx), (out_val, node._in_type(0)),  # type: ignore[list-item]
            (rows, Type.boolean)]


def _sfer(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    """``reference/sparse_fill_empty_rows.hpp``: the entries and one per empty row, sorted by
    row, then column (stable: equal positions keep their order)."""
    values, dense, indices, default = xs
    n_rows = int(dense[0])
    idx = indices.reshape(-1, 2).astype(np.int64)
    present = np.zeros(n_rows, bool)
    present[idx[:, 0]] = True
    empty_rows = np.nonzero(~present)[0]
    all_idx = np.concatenate([idx, np.stack([empty_rows, np.zeros_like(empty_rows)], 1)])
    all_val = np.concatenate([values, np.full(len(empty_rows), default, values.dtype)])
    order = np.lexsort((all_idx[:, 1], all_idx[:, 0]))
    return [all_idx[order].astype(indices.dtype), all_val[order], ~present]


register("SparseFillEmptyRows", "opset16", _sfer_infer, _sfer)


def sparse_fill_empty_rows(values: NodeInput, dense_shape: NodeInput, indices: NodeInput,
                           default_value: NodeInput, name: str | None = None) -> Node:
    """SparseFillEmptyRows-16 (``openvino.opset16``+): the sparse tensor with ``default_value``
    at column 0 of each empty row; outputs the indices, the values and the empty-row flags."""
    return make_node("SparseFillEmptyRows", [values, dense_shape, indices, default_value],
                     name=name)
