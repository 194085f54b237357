"""Indexing ops: Gather, GatherElements, GatherND, ScatterUpdate, ScatterElementsUpdate,
ScatterNDUpdate, OneHot, Range and Eye.

Indices may be negative (counted from the end, as the opset specification allows). An index
outside the dimension gathers 0 (Gather-8's rule) and is skipped by the scatters, instead of
reading or writing memory it does not own; shapes must be known when the model is built, so the
sizes of Range and Eye and the axes come from Constants (or shapes folded to constants).
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import (
    Ctx,
    NodeInput,
    const_input,
    int_const,
    make_node,
    need,
    norm_axis,
    numel,
    register,
    same_type,
)
from .types import Type, as_type, shape_str

# the builder below takes the builtin's name (OpenVINO's), so the module uses this alias
py_range = builtins.range

__all__ = ["eye", "gather", "gather_elements", "gather_nd", "one_hot", "range",
           "scatter_elements_update", "scatter_nd_update", "scatter_update"]


def _index_type(node: Node, i: int, what: str = "indices", any_integer: str | None = None,
                strict: str | None = None, boolean: bool = False) -> None:
    """Input ``i`` holds indices: i32 or i64 (refused with OpenVINO's message ``strict`` when
    given), or, for the ops OpenVINO lets take any integer type (Gather, GatherND,
    ScatterUpdate, ScatterElementsUpdate: i8 and u8 indices too; the last one even boolean),
    an integer type, refused with OpenVINO's message ``any_integer`` (``{}``: the type)."""
    t = node._in_type(i)
    if any_integer is not None:
        ok = t.is_integral() if boolean else t.is_integral_number()
        need(ok, any_integer.format(t.get_type_name()))
        return
    need(t in (Type.i32, Type.i64), (strict or f"{what} must be an i32 or i64 tensor, got {{}}")
         .format(t.get_type_name()))


def _scalar(node: Node, i: int, what: str) -> int:
    v = const_input(node, i, what)
    need(v.size == 1 and v.dtype.kind in "iu", f"{what} must be an integer scalar, got "
         f"{v.dtype} of shape {shape_str(v.shape)}")
    return int(v.reshape(()))


def _norm_index(idx: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices made non-negative, and where they fall outside ``[0, size)``."""
    ix = idx.astype(np.int64)
    ix = np.where(ix < 0, ix + size, ix)
    bad = (ix < 0) | (ix >= size)
    return np.where(bad, 0, ix), bad


# --- Gather ---------------------------------------------------------------------------------
def _gather_dims(node: Node) -> tuple[int, int]:
    data, idx = node._in_shape(0), node._in_shape(1)
    axis = norm_axis(_scalar(node, 2, "axis"), len(data))
    b = node._attrs["batch_dims"]
    b = b + len(idx) if b < 0 else b
    need(0 <= b <= len(idx) and b <= axis, f"batch_dims {node._attrs['batch_dims']} must be "
         f"within the indices' rank ({len(idx)}) and not greater than axis ({axis})")
    need(tuple(data[:b]) == tuple(idx[:b]), f"data {shape_str(data)} and indices "
         f"{shape_str(idx)} must share their first {b} (batch_dims) dims")
    return axis, b


def _gather_infer(node: Node) -> list[ShapeType]:
    _index_type(node, 1, any_integer='Indices element type must be of an integral number type.')
    data, idx = node._in_shape(0), node._in_shape(1)
    axis, b = _gather_dims(node)
    return [(data[:axis] + idx[b:] + data[axis + 1:], node._in_type(0))]


def _gather(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    data, idx = xs[0], xs[1]
    axis, b = _gather_dims(node)
    nb, npre = numel(data.shape[:b]), numel(data.shape[b:axis])
    size, npost = data.shape[axis], numel(data.shape[axis + 1:])
    d = data.reshape(nb, npre, size, npost)
    ix, bad = _norm_index(idx.reshape(nb, -1), size)
    res = d[np.arange(nb)[:, None, None], np.arange(npre)[None, :, None], ix[:, None, :]]
    if bad.any():
        res[np.broadcast_to(bad[:, None, :], res.shape[:3])] = 0
    return [res.reshape(node._out_shapes[0])]


def _gather_batch(node: Node, live: Sequence[bool]) -> str | None:
    axis, b = _gather_dims(node)
    if b >= 1:
        return None
    if live[0] and (axis == 0 or live[1]):
        return "it gathers across the batch axis"
    if live[1] and not live[0] and axis > 0:
        return f"the batch comes from the indices but lands on axis {axis}"
    return None


register("Gather", "opset8", _gather_infer, _gather, attrs=[Attr("batch_dims", "int", 0)],
         batch=_gather_batch)


def _gather_elements_infer(node: Node) -> list[ShapeType]:
    _index_type(node, 1, strict='indices must be of int32 or int64 type. But instead got: {}')
    data, idx = node._in_shape(0), node._in_shape(1)
    need(len(data) == len(idx), f"data {shape_str(data)} and indices {shape_str(idx)} must have "
         "the same rank")
    axis = norm_axis(node._attrs["axis"], len(data))
    for i, (d, k) in enumerate(zip(data, idx, strict=True)):
        need(i == axis or d == k, f"Shapes {shape_str(data)} and {shape_str(idx)} are not "
             "consistent, `data` and `indices` must have equal or intersecting dimensions, "
             f"except for the dimension at axis index.{axis}")  # OpenVINO's words
    return [(idx, node._in_type(0))]


def _gather_elements(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    data, idx = xs
    axis = norm_axis(node._attrs["axis"], data.ndim)
    ix, bad = _norm_index(idx, data.shape[axis])
    res = np.take_along_axis(data, ix, axis)
    res[bad] = 0
    return [res]


register("GatherElements", "opset6", _gather_elements_infer, _gather_elements,
         attrs=[Attr("axis", "int")],
         batch=lambda n, live: ("it gathers along the batch axis" if any(live) and norm_axis(
             n._attrs["axis"], len(n._in_shape(0))) == 0 else None))


def _gather_nd_dims(node: Node) -> tuple[int, int]:
    data, idx = node._in_shape(0), node._in_shape(1)
    b = node._attrs["batch_dims"]
    need(len(idx) >= 1, "indices must have rank 1 or more")
    k = idx[-1]
    need(0 <= b < min(len(data), len(idx)) and tuple(data[:b]) == tuple(idx[:b]),
         f"batch_dims {b} must be below both ranks and data {shape_str(data)} and indices "
         f"{shape_str(idx)} must share their first {b} dims")
    need(b + k <= len(data), f"the last dim of indices ({k}) plus batch_dims ({b}) exceeds the "
         f"data rank {len(data)}")
    return b, k


def _gather_nd_infer(node: Node) -> list[ShapeType]:
    _index_type(node, 1, any_integer='The indices type is expected to be an integer type. Got: {}')
    b, k = _gather_nd_dims(node)
    data, idx = node._in_shape(0), node._in_shape(1)
    return [(idx[:-1] + data[b + k:], node._in_type(0))]


def _gather_nd(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    data, idx = xs
    b, k = _gather_nd_dims(node)
    nb = numel(data.shape[:b])
    d = data.reshape((nb,) + data.shape[b:])
    ix = idx.reshape(nb, -1, k).astype(np.int64)
    bad = np.zeros(ix.shape[:2], np.bool_)
    cols = []
    for j in py_range(k):
        c, out = _norm_index(ix[..., j], d.shape[1 + j])
        bad |= out
        cols.append(c)
    res = d[(np.arange(nb)[:, None], *cols)]
    res[bad] = 0
    return [res.reshape(node._out_shapes[0])]


register("GatherND", "opset8", _gather_nd_infer, _gather_nd, attrs=[Attr("batch_dims", "int", 0)],
         batch=lambda n, live: ("its indices address the batch axis" if live[0]
                                and n._attrs["batch_dims"] == 0 else None))


# --- scatters -------------------------------------------------------------------------------
def _scatter_update_infer(node: Node) -> list[ShapeType]:
    _index_type(node, 1, any_integer='Indices element type must be of an integral number type.')
    data, idx, upd = node._in_shape(0), node._in_shape(1), node._in_shape(2)
    axis = norm_axis(_scalar(node, 3, "axis"), len(data))
    want = data[:axis] + idx + data[axis + 1:]
    need(tuple(upd) == tuple(want), f"updates must have shape {shape_str(want)} (data's shape "
         f"with the indices' shape at axis {axis}), got {shape_str(upd)}")
    same_type(node, [0, 2])
    return [(data, node._in_type(0))]


def _scatter_update(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    data, idx, upd = xs[0], xs[1], xs[2]
    axis = norm_axis(_scalar(node, 3, "axis"), data.ndim)
    out = np.array(data)
    size = data.shape[axis]
    ix, bad = _norm_index(idx.reshape(-1), size)
    pre, post = numel(data.shape[:axis]), numel(data.shape[axis + 1:])
    u = upd.reshape(pre, -1, post)[:, ~bad]
    out.reshape(pre, size, post)[:, ix[~bad]] = u
    return [out]


def _axis0_rule(what: str):  # noqa: ANN202
    def rule(node: Node, live: Sequence[bool]) -> str | None:
        axis = _scalar(node, 3, "axis")
        if any(live) and norm_axis(axis, len(node._in_shape(0))) == 0:
            return f"it {what} along the batch axis"
        return None
    return rule


register("ScatterUpdate", "opset3", _scatter_update_infer, _scatter_update,
         batch=_axis0_rule("updates rows"))

_REDUCTIONS = ("none", "sum", "prod", "min", "max", "mean")


def _scatter_elements_infer(node: Node) -> list[ShapeType]:
    _index_type(node, 1, any_integer="Indices element type must be integral_number, but is: {}",
                boolean=True)
    data, idx, upd = node._in_shape(0), node._in_shape(1), node._in_shape(2)
    need(len(idx) == len(data) and tuple(idx) == tuple(upd), f"indices {shape_str(idx)} and "
         f"updates {shape_str(upd)} must have the same shape and data's rank ({len(data)})")
    norm_axis(_scalar(node, 3, "axis"), len(data))
    same_type(node, [0, 2])
    return [(data, node._in_type(0))]


def _scatter_elements(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    data, idx, upd = xs[0], xs[1], xs[2]
    axis = norm_axis(_scalar(node, 3, "axis"), data.ndim)
    out = np.array(data)
    ix, bad = _norm_index(idx, data.shape[axis])
    grid = list(np.indices(idx.shape, sparse=True))
    grid[axis] = ix
    keep = ~bad
    where = tuple(np.broadcast_to(g, idx.shape)[keep] for g in grid)
    vals = upd[keep]
    mode = node._attrs["reduction"]
    if mode == "none":
        out[where] = vals
        return [out]
    if not node._attrs["use_init_val"]:
        out[where] = {"sum": 0, "mean": 0, "prod": 1}.get(mode, 0)
        if mode in ("min", "max"):
            out[where] = vals  # the first update of each element starts the reduction
    ufunc = {"sum": np.add, "mean": np.add, "prod": np.multiply, "min": np.minimum,
             "max": np.maximum}[mode]
    ufunc.at(out, where, vals)
    if mode == "mean":
        count = np.zeros(out.shape, np.int64)
        np.add.at(count, where, 1)
        count += 1 if node._attrs["use_init_val"] else 0
        touched = count > 0
        if out.dtype.kind == "f":
            out[touched] = out[touched] / count[touched]
        else:
            out[touched] = np.floor_divide(out[touched], count[touched])
    return [out]


register("ScatterElementsUpdate", "opset12", _scatter_elements_infer, _scatter_elements,
         attrs=[Attr("reduction", "str", "none", _REDUCTIONS), Attr("use_init_val", "bool", True)],
         batch=_axis0_rule("scatters"))


def _scatter_nd_infer(node: Node) -> list[ShapeType]:
    _index_type(node, 1, strict='Indices element type must be i64 or i32')
    data, idx, upd = node._in_shape(0), node._in_shape(1), node._in_shape(2)
    need(len(idx) >= 1 and idx[-1] <= len(data), f"the last dim of indices {shape_str(idx)} "
         f"must not exceed the data rank {len(data)}")
    want = idx[:-1] + data[idx[-1]:]
    need(tuple(upd) == tuple(want), f"updates must have shape {shape_str(want)}, got "
         f"{shape_str(upd)}")
    same_type(node, [0, 2])
    return [(data, node._in_type(0))]


def _scatter_nd(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    data, idx, upd = xs[0], xs[1], xs[2]
    k = idx.shape[-1]
    out = np.array(data)
    ix = idx.reshape(-1, k)
    bad = np.zeros(len(ix), np.bool_)
    cols = []
    for j in py_range(k):
        c, out_of = _norm_index(ix[:, j], data.shape[j])
        bad |= out_of
        cols.append(c)
    keep = ~bad
    u = upd.reshape((len(ix),) + data.shape[k:])
    out[tuple(c[keep] for c in cols)] = u[keep]
    return [out]


register("ScatterNDUpdate", "opset4", _scatter_nd_infer, _scatter_nd,
         batch=lambda n, live: ("its indices address the batch axis" if live[0] or live[1]
                                else None))


# --- OneHot, Range, Eye ---------------------------------------------------------------------
def _one_hot_infer(node: Node) -> list[ShapeType]:
    _index_type(node, 0)
    idx = node._in_shape(0)
    depth = _scalar(node, 1, "depth")
    need(depth >= 0, f"depth must not be negative, got {depth}")
    same_type(node, [2, 3])
    need(numel(node._in_shape(2)) == 1 and numel(node._in_shape(3)) == 1,
         "on_value and off_value must be scalars")
    axis = norm_axis(node._attrs["axis"], len(idx) + 1)
    node._attrs["axis"] = axis  # stored non-negative, as OpenVINO's IR shows it
    return [(idx[:axis] + (depth,) + idx[axis:], node._in_type(2))]


def _one_hot(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    idx, on, off = xs[0], xs[2].reshape(()), xs[3].reshape(())
    depth = _scalar(node, 1, "depth")
    axis = norm_axis(node._attrs["axis"], idx.ndim + 1)
    hot = idx.astype(np.int64)[..., None] == np.arange(depth)
    return [np.moveaxis(np.where(hot, on, off), -1, axis)]


register("OneHot", "opset1", _one_hot_infer, _one_hot, attrs=[Attr("axis", "int")],
         batch=lambda n, live: ("its one-hot axis is the batch axis" if live[0] and norm_axis(
             n._attrs["axis"], len(n._in_shape(0)) + 1) == 0 else None))


def _range_values(node: Node) -> np.ndarray:
    t = node._attrs["output_type"]
    vals = []
    for i, what in enumerate(("start", "stop", "step")):
        v = const_input(node, i, what)
        need(v.size == 1, f"{what} must be a scalar, got shape {shape_str(v.shape)}")
        vals.append(v.reshape(()).item())
    start, stop, step = vals
    need(step != 0, "'step' cannot be zero")
    if not t.is_real():
        start, stop, step = (int(np.trunc(v)) for v in (start, stop, step))
        need(step != 0, "'step' cannot be zero")
    n = max(int(np.ceil((stop - start) / step)), 0)
    return (start + np.arange(n, dtype=np.float64 if t.is_real() else np.int64) * step).astype(
        t.to_dtype() if not t.is_real() else np.float32)


def _range_infer(node: Node) -> list[ShapeType]:
    return [(_range_values(node).shape, node._attrs["output_type"])]


register("Range", "opset4", _range_infer, lambda n, xs, c: [_range_values(n)],
         attrs=[Attr("output_type", "type")])


def _eye_values(node: Node) -> np.ndarray:
    rows, cols = _scalar(node, 0, "num_rows"), _scalar(node, 1, "num_columns")
    k = _scalar(node, 2, "diagonal_index")
    need(rows >= 0 and cols >= 0, f"num_rows ({rows}) and num_columns ({cols}) must not be "
         "negative")
    t = node._attrs["output_type"]
    m = np.eye(rows, cols, k, dtype=np.float32 if t.is_real() else t.to_dtype())
    if len(node._inputs) > 3:
        batch = [int(v) for v in np.atleast_1d(const_input(node, 3, "batch_shape"))]
        m = np.broadcast_to(m, batch + [rows, cols]).copy()
    return m


def _eye_infer(node: Node) -> list[ShapeType]:
    return [(_eye_values(node).shape, node._attrs["output_type"])]


register("Eye", "opset9", _eye_infer, lambda n, xs, c: [_eye_values(n)],
         attrs=[Attr("output_type", "type")])


# --- builders -------------------------------------------------------------------------------
def gather(data: NodeInput, indices: NodeInput, axis: NodeInput, batch_dims: int | None = 0,
           name: str | None = None) -> Node:
    """Gather-8: slices of ``data`` along ``axis`` picked by ``indices`` (negative from the end,
    out of range gives 0)."""
    return make_node("Gather", [data, int_const(indices), int_const(axis)],
                     {"batch_dims": batch_dims or 0}, name)


def gather_elements(data: NodeInput, indices: NodeInput, axis: int | None = 0,
                    name: str | None = None) -> Node:
    return make_node("GatherElements", [data, int_const(indices)], {"axis": axis or 0}, name)


def gather_nd(data: NodeInput, indices: NodeInput, batch_dims: int | None = 0,
              name: str | None = None) -> Node:
    return make_node("GatherND", [data, int_const(indices)], {"batch_dims": batch_dims or 0},
                     name)


def scatter_update(data: NodeInput, indices: NodeInput, updates: NodeInput, axis: NodeInput,
                   name: str | None = None) -> Node:
    return make_node("ScatterUpdate", [data, int_const(indices), updates, int_const(axis)],
                     name=name)


def scatter_elements_update(data: NodeInput, indices: NodeInput, updates: NodeInput,
                            axis: NodeInput, reduction: str | None = "None",
                            use_init_val: bool | None = True, name: str | None = None) -> Node:
    return make_node("ScatterElementsUpdate", [data, int_const(indices), updates, int_const(axis)],
                     {"reduction": reduction or "none",
                      "use_init_val": True if use_init_val is None else use_init_val}, name)


def scatter_nd_update(data: NodeInput, indices: NodeInput, updates: NodeInput,
                      name: str | None = None) -> Node:
    return make_node("ScatterNDUpdate", [data, int_const(indices), updates], name=name)


def one_hot(indices: NodeInput, depth: NodeInput, on_value: NodeInput, off_value: NodeInput,
            axis: int, name: str | None = None) -> Node:
    return make_node("OneHot", [int_const(indices), int_const(depth), on_value, off_value],
                     {"axis": axis}, name)


def range(start: NodeInput, stop: NodeInput, step: NodeInput, output_type: str,  # noqa: A001
          name: str | None = None) -> Node:
    """Range-4: ``start, start + step, ...`` below ``stop``, in ``output_type``."""
    return make_node("Range", [start, stop, step], {"output_type": as_type(output_type)}, name)


def eye(num_rows: NodeInput, num_columns: NodeInput, diagonal_index: NodeInput,
        output_type: str, batch_shape: NodeInput | None = None, name: str | None = None) -> Node:
    inputs = [int_const(num_rows), int_const(num_columns), int_const(diagonal_index)]
    if batch_shape is not None:
        inputs.append(int_const(batch_shape))
    return make_node("Eye", inputs, {"output_type": as_type(output_type)}, name)
