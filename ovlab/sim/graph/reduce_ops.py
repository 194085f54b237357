"""Reductions (ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2,
ReduceLogicalAnd, ReduceLogicalOr), TopK and CumSum.

ReduceMax and ReduceMin follow the CPU plugin on NaN (measured): it folds the reduced values
in memory order with ``acc = x > acc ? x : acc``, so a NaN is forgotten as soon as a later value
comes, and the result is the maximum of the values after the last NaN (NaN if the last value is
NaN). TopK's order among NaNs depends on the plugin's sorting network and is not reproduced.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import (
    F32,
    Ctx,
    NodeInput,
    axis_rule,
    const_input,
    int_const,
    int_list,
    make_node,
    need,
    norm_axis,
    numel,
    register,
)
from .types import Type, shape_str

__all__ = ["cum_sum", "cumsum", "reduce_l1", "reduce_l2", "reduce_logical_and",
           "reduce_logical_or", "reduce_max", "reduce_mean", "reduce_min", "reduce_prod",
           "reduce_sum", "topk"]


def reduce_axes(node: Node) -> list[int]:
    rank = len(node._in_shape(0))
    return sorted({norm_axis(a, rank, "reduction axis") for a in int_list(node, 1,
                                                                         "reduction_axes")})


def _reduce_infer(node: Node) -> list[ShapeType]:
    src, axes = node._in_shape(0), reduce_axes(node)
    keep = node._attrs["keep_dims"]
    t = node._in_type(0)
    if node.get_type_name().startswith("ReduceLogical"):
        need(t == Type.boolean, f"Element type of data input must be boolean, got "
             f"{t.get_type_name()}")
    else:
        need(t != Type.boolean, "Element type of data input must be numeric, got boolean")
    dims = [1 if i in axes else d for i, d in enumerate(src) if keep or i not in axes]
    return [(tuple(dims), t)]


def _last_axis(x: np.ndarray, axes: Sequence[int]) -> np.ndarray:
    """``x`` with the reduced axes moved to the end and merged (memory order kept)."""
    rest = [i for i in range(x.ndim) if i not in axes]
    y = np.transpose(x, rest + list(axes))
    return y.reshape([x.shape[i] for i in rest] + [-1])


def seq_extreme(x: np.ndarray, axes: Sequence[int], largest: bool) -> np.ndarray:
    """Max/min as the CPU plugin folds it: NaN survives only when nothing follows it."""
    y = _last_axis(x, axes)
    fn = np.max if largest else np.min
    if y.dtype.kind != "f" or y.shape[-1] == 0:
        return fn(y, axis=-1)
    nan = np.isnan(y)
    if not nan.any():
        return fn(y, axis=-1)
    after_last = np.flip(np.cumsum(np.flip(nan, -1), -1), -1) == 0
    fill = -np.inf if largest else np.inf
    r = fn(np.where(after_last, y, y.dtype.type(fill)), axis=-1)
    r[nan[..., -1]] = np.nan
    return r


def _reducer(fn: Callable[[np.ndarray, tuple[int, ...]], np.ndarray]):  # noqa: ANN202
    def compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
        x = xs[0]
        axes = tuple(reduce_axes(node))
        if not axes:
            return [x.copy()]
        r = np.asarray(fn(x, axes))
        return [r.reshape(node._out_shapes[0]).astype(x.dtype, copy=False)]
    return compute


def _mean(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    r = np.mean(x, axis=axes, dtype=F32 if x.dtype.kind == "f" else np.float64)
    return r if x.dtype.kind == "f" else np.trunc(r)


_REDUCERS: dict[str, tuple[str, Callable[[np.ndarray, tuple[int, ...]], np.ndarray], float]] = {
    "ReduceSum": ("opset1", lambda x, a: np.sum(x, axis=a), 1),
    "ReduceMean": ("opset1", _mean, 1),
    "ReduceProd": ("opset1", lambda x, a: np.prod(x, axis=a), 1),
    "ReduceMax": ("opset1", lambda x, a: seq_extreme(x, a, True), 1),
    "ReduceMin": ("opset1", lambda x, a: seq_extreme(x, a, False), 1),
    "ReduceL1": ("opset4", lambda x, a: np.sum(np.abs(x), axis=a), 2),
    "ReduceL2": ("opset4", lambda x, a: np.sqrt(np.sum(np.square(x), axis=a)), 2),
    "ReduceLogicalAnd": ("opset1", lambda x, a: np.all(x, axis=a), 1),
    "ReduceLogicalOr": ("opset1", lambda x, a: np.any(x, axis=a), 1),
}
for _type, (_version, _fn, _per) in _REDUCERS.items():
    register(_type, _version, _reduce_infer, _reducer(_fn),
             (lambda k: lambda n: k * float(numel(n._in_shape(0))))(_per),
             attrs=[Attr("keep_dims", "bool", False)], batch=axis_rule(reduce_axes, "reduces"))


# --- TopK -------------------------------------------------------------------------------------
def _topk_args(node: Node) -> tuple[int, int]:
    src = node._in_shape(0)
    axis = norm_axis(node._attrs["axis"], len(src))
    k = const_input(node, 1, "k")
    need(k.size == 1 and k.dtype.kind in "iu", f"k must be an integer scalar, got {k.dtype} of "
         f"shape {shape_str(k.shape)}")
    kv = int(k.reshape(()))
    need(0 <= kv <= src[axis], f"k ({kv}) must be between 0 and the size of axis {axis} "
         f"({src[axis]})")
    return axis, kv


def _topk_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    axis, k = _topk_args(node)
    need(node._in_type(0) != Type.boolean, "TopK needs a numeric input")
    it = node._attrs["index_element_type"]
    need(it in (Type.i32, Type.i64), f"index_element_type must be i32 or i64, got "
         f"{it.get_type_name()}")
    shape = src[:axis] + (k,) + src[axis + 1:]
    return [(shape, node._in_type(0)), (shape, it)]


def _topk(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    axis, k = _topk_args(node)
    xm = np.moveaxis(x, axis, -1)
    key = xm if x.dtype.kind == "f" else xm.astype(np.float64)
    if node._attrs["mode"] == "max":
        key = -key
    order = np.argsort(key, axis=-1, kind="stable")[..., :k]  # ties: lower index first
    if node._attrs["sort"] == "index":
        order = np.sort(order, axis=-1)
    vals = np.take_along_axis(xm, order, -1)
    idx = order.astype(node._attrs["index_element_type"].to_dtype())
    return [np.moveaxis(vals, -1, axis).copy(), np.moveaxis(idx, -1, axis).copy()]


def _topk_flops(node: Node) -> float:
    axis, k = _topk_args(node)
    return float(numel(node._in_shape(0))) * max(1.0, np.log2(max(k, 1) + 1))


register("TopK", "opset11", _topk_infer, _topk, _topk_flops,
         attrs=[Attr("axis", "int"), Attr("mode", "str", choices=("max", "min")),
                Attr("sort", "str", choices=("none", "index", "value")),
                Attr("index_element_type", "type", Type.i32), Attr("stable", "bool", False)],
         batch=axis_rule(lambda n: [norm_axis(n._attrs["axis"], len(n._in_shape(0)))],
                         "selects"))


# --- CumSum -------------------------------------------------------------------------------------
def _cumsum_axis(node: Node) -> int:
    rank = len(node._in_shape(0))
    if len(node._inputs) < 2:
        return 0
    v = const_input(node, 1, "axis")
    need(v.size == 1 and v.dtype.kind in "iu", "axis must be an integer scalar")
    return norm_axis(int(v.reshape(())), rank)


def _cumsum_infer(node: Node) -> list[ShapeType]:
    _cumsum_axis(node)
    return [(node._in_shape(0), node._in_type(0))]


def _cumsum(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    axis = _cumsum_axis(node)
    rev, exc = node._attrs["reverse"], node._attrs["exclusive"]
    y = np.flip(x, axis) if rev else x
    c = np.cumsum(y, axis=axis, dtype=x.dtype)
    if exc:
        c = np.concatenate([np.zeros_like(np.take(c, [0], axis)),
                            np.take(c, np.arange(c.shape[axis] - 1), axis)], axis=axis)
    return [np.ascontiguousarray(np.flip(c, axis) if rev else c)]


register("CumSum", "opset3", _cumsum_infer, _cumsum, lambda n: float(numel(n._in_shape(0))),
         attrs=[Attr("exclusive", "bool", False), Attr("reverse", "bool", False)],
         batch=axis_rule(lambda n: [_cumsum_axis(n)], "accumulates"))


# --- builders -----------------------------------------------------------------------------------
def _reduce(type_name: str, node: NodeInput, reduction_axes: NodeInput, keep_dims: bool,
            name: str | None) -> Node:
    return make_node(type_name, [node, int_const(reduction_axes)], {"keep_dims": keep_dims}, name)


def reduce_sum(node: NodeInput, reduction_axes: NodeInput, keep_dims: bool = False,
               name: str | None = None) -> Node:
    return _reduce("ReduceSum", node, reduction_axes, keep_dims, name)


def reduce_mean(node: NodeInput, reduction_axes: NodeInput, keep_dims: bool = False,
                name: str | None = None) -> Node:
    return _reduce("ReduceMean", node, reduction_axes, keep_dims, name)


def reduce_max(node: NodeInput, reduction_axes: NodeInput, keep_dims: bool = False,
               name: str | None = None) -> Node:
    return _reduce("ReduceMax", node, reduction_axes, keep_dims, name)


def reduce_min(node: NodeInput, reduction_axes: NodeInput, keep_dims: bool = False,
               name: str | None = None) -> Node:
    return _reduce("ReduceMin", node, reduction_axes, keep_dims, name)


def reduce_prod(node: NodeInput, reduction_axes: NodeInput, keep_dims: bool = False,
                name: str | None = None) -> Node:
    return _reduce("ReduceProd", node, reduction_axes, keep_dims, name)


def reduce_l1(node: NodeInput, reduction_axes: NodeInput, keep_dims: bool = False,
              name: str | None = None) -> Node:
    return _reduce("ReduceL1", node, reduction_axes, keep_dims, name)


def reduce_l2(node: NodeInput, reduction_axes: NodeInput, keep_dims: bool = False,
              name: str | None = None) -> Node:
    return _reduce("ReduceL2", node, reduction_axes, keep_dims, name)


def reduce_logical_and(node: NodeInput, reduction_axes: NodeInput, keep_dims: bool = False,
                       name: str | None = None) -> Node:
    return _reduce("ReduceLogicalAnd", node, reduction_axes, keep_dims, name)


def reduce_logical_or(node: NodeInput, reduction_axes: NodeInput, keep_dims: bool = False,
                      name: str | None = None) -> Node:
    return _reduce("ReduceLogicalOr", node, reduction_axes, keep_dims, name)


def topk(data: NodeInput, k: NodeInput, axis: int, mode: str, sort: str,
         index_element_type: str = "i32", stable: bool = False, name: str | None = None) -> Node:
    """TopK-11: the ``k`` largest (``mode="max"``) or smallest values along ``axis`` and their
    indices (two outputs)."""
    return make_node("TopK", [data, int_const(k)],
                     {"axis": axis, "mode": mode, "sort": sort,
                      "index_element_type": index_element_type, "stable": stable}, name)


def cum_sum(arg: NodeInput, axis: NodeInput, exclusive: bool = False, reverse: bool = False,
            name: str | None = None) -> Node:
    return make_node("CumSum", [arg, int_const(axis)], {"exclusive": exclusive,
                                                         "reverse": reverse}, name)


def cumsum(arg: NodeInput, axis: NodeInput, exclusive: bool = False, reverse: bool = False,
           name: str | None = None) -> Node:
    return cum_sum(arg, axis, exclusive, reverse, name)
