"""Inverse-14: the inverse (or, with ``adjoint``, its transpose) of square matrices.

Batched over the leading axes as OpenVINO's Inverse is; computed with NumPy's LU solver in
float64 and returned in the input's type, so an f16 input gives f16 values as the CPU plugin
does (it computes in higher precision and rounds once).
"""

from __future__ import annotations

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import NodeInput, make_node, need, numel, register

__all__ = ["inverse"]


def _inverse_infer(node: Node) -> list[ShapeType]:
    shape, t = node._in_shape(0), node._in_type(0)
    need(t.is_real(), "Expected floating point type as element type for the 'data' input.")
    need(len(shape) >= 2, "Input must be at least a 2D matrix.")
    need(shape[-1] == shape[-2], "Input must contain square matrices of the same shape.")
    return [(shape, t)]


def _inverse(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    x = xs[0]
    inv = np.linalg.inv(x.astype(np.float64))  # a singular matrix raises LinAlgError, as the
    if node._attrs["adjoint"]:                    # CPU plugin's LU fails on a zero pivot
        inv = np.swapaxes(inv, -1, -2)
    return [inv.astype(x.dtype)]


def _inverse_flops(node: Node) -> float:
    shape = node._in_shape(0)
    return 2.0 * numel(shape) * shape[-1]  # LU and the two triangular solves: ~2 n^3 per matrix


register("Inverse", "opset14", _inverse_infer, _inverse, _inverse_flops,
         attrs=[Attr("adjoint", "bool", False)])


def inverse(data: NodeInput, adjoint: bool = False, name: str | None = None) -> Node:
    """Inverse-14: ``inv(data)`` per matrix of the last two axes (``adjoint``: transposed)."""
    return make_node("Inverse", [data], {"adjoint": bool(adjoint)}, name)
