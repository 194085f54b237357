"""SliceScatter-15: ``data`` with the elements a Slice-8 would read (``start``, ``stop``,
``step``, optional ``axes``) replaced by ``updates``, whose shape is that slice's."""

from __future__ import annotations

from builtins import slice as py_slice

import numpy as np

from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, int_list, make_node, need, norm_axis, register
from .types import shape_str

__all__ = ["slice_scatter"]


def _index(node: Node) -> tuple:
    src = node._in_shape(0)
    start, stop = int_list(node, 2, "start"), int_list(node, 3, "stop")
    step = int_list(node, 4, "step")
    axes = int_list(node, 5, "axes") if len(node._inputs) > 5 else list(range(len(start)))
    need(len(start) == len(stop) == len(step) == len(axes), f"start {start}, stop {stop}, step "
         f"{step} and axes {axes} must have the same length")
    need(all(s != 0 for s in step), f"Step value must not be zero, got {step}")
    idx = [py_slice(None)] * len(src)
    for b, e, s, a in zip(start, stop, step, axes, strict=True):
        idx[norm_axis(a, len(src))] = py_slice(b, e, s)
    return tuple(idx)


def _infer(node: Node) -> list[ShapeType]:
    data, updates = node._in_shape(0), node._in_shape(1)
    need(node._in_type(0) == node._in_type(1), "data and updates must have the same type")
    want = np.empty(data, np.bool_)[_index(node)].shape
    need(tuple(updates) == tuple(want), f"updates {shape_str(updates)} must have the shape of "
         f"the slice {shape_str(want)}")
    return [(data, node._in_type(0))]


def _scatter(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    out = np.array(xs[0], copy=True)
    out[_index(node)] = xs[1]
    return [out]


register("SliceScatter", "opset15", _infer, _scatter)


def slice_scatter(data: NodeInput, updates: NodeInput, start: NodeInput, stop: NodeInput,
                  step: NodeInput, axes: NodeInput | None = None,
                  name: str | None = None) -> Node:
    """SliceScatter-15."""
    inputs = [data, updates, start, stop, step] + ([axes] if axes is not None else [])
    return make_node("SliceScatter", [as_output(v, name) for v in inputs], {}, name)
