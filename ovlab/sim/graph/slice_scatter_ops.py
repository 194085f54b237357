"""SliceScatter-15: ``data`` with the elements a Slice-8 would read (``start``, ``stop``,
``step``, optional ``axes``) replaced by ``updates``, whose shape is that slice's."""

from __future__ import annotations

import numpy as np

from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, make_node, need, register
from .shape_ops import _slice_index
from .types import shape_str

__all__ = ["slice_scatter"]


def _index(node: Node) -> tuple:
    return _slice_index(node, first=2)  # Slice-8's rule; the updates are input 1


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
