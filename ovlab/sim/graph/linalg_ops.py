"""Inverse-14 (the inverse of square matrices) and GroupedMatMul-17 (a matrix product per group).

Inverse is batched over the leading axes as OpenVINO's is; computed with NumPy's LU solver in
float64 and returned in the input's type, so an f16 input gives f16 values as the CPU plugin
does (it computes in higher precision and rounds once).
"""

from __future__ import annotations

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import NodeInput, make_node, need, numel, register

__all__ = ["grouped_matmul", "inverse"]


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


# --- GroupedMatMul-17: one matrix product per group (Mixture of Experts) -----------------------
def _grouped_infer(node: Node) -> list[ShapeType]:
    n_in = len(node._inputs)
    need(n_in in (2, 3), "Check 'num_inputs == 2 || num_inputs == 3' failed")
    ta, tb = node._in_type(0), node._in_type(1)
    need(ta == tb, "Arguments do not have the same element type (mat_a element type: "
         f"{ta.get_type_name()}, mat_b element type: {tb.get_type_name()}).")
    a, b = node._in_shape(0), node._in_shape(1)
    if len(a) == 3 and len(b) == 3:
        need(a[0] == b[0], f"GroupedMatMul 3Dx3D: batch dimension mismatch mat_a: {a[0]}, "
             f"mat_b: {b[0]}")
        need(a[2] == b[2], f"GroupedMatMul 3Dx3D: inner dimension mismatch mat_a: {a[2]}, "
             f"mat_b: {b[2]}")
        return [((a[0], a[1], b[1]), ta)]
    if len(a) == 2 and len(b) == 3:
        need(n_in == 3, "GroupedMatMul 2Dx3D case requires offsets input.")
        need(len(node._in_shape(2)) == 1, "GroupedMatMul offsets must be 1D tensor.")
        need(a[1] == b[2], f"GroupedMatMul 2Dx3D: inner dimension mismatch mat_a: {a[1]}, "
             f"mat_b: {b[2]}")
        return [((a[0], b[1]), ta)]
    # (OpenVINO's later sources add a 2Dx2D case, a weight gradient; 2026.4.1 has none)
    need(False, f"GroupedMatMul unsupported combination: mat_a {len(a)}D x mat_b {len(b)}D. "
         "Supported: 2Dx3D, 3Dx3D.")
    return []


def _grouped(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    a, b = xs[0], xs[1]
    if a.ndim == 3:  # (G, M, K) x (G, N, K) -> (G, M, N)
        return [np.matmul(a, np.swapaxes(b, -1, -2)).astype(a.dtype)]
    ends = [int(e) for e in np.asarray(xs[2]).ravel()]
    starts = [0, *ends[:-1]]
    out = np.zeros((a.shape[0], b.shape[1]), a.dtype)
    for g, (s, e) in enumerate(zip(starts, ends, strict=True)):  # rows s:e: group g's weights
        out[s:e] = a[s:e] @ b[g].T
    return [out]


def _grouped_flops(node: Node) -> float:
    return 2.0 * numel(node._out_shapes[0]) * node._in_shape(0)[-1]


register("GroupedMatMul", "opset17", _grouped_infer, _grouped, _grouped_flops)


def grouped_matmul(mat_a: NodeInput, mat_b: NodeInput, offsets: NodeInput | None = None,
                   name: str | None = None) -> Node:
    """GroupedMatMul-17: ``mat_a[g] @ mat_b[g].T`` per group (3D x 3D), or the rows of ``mat_a``
    that ``offsets`` (cumulative group ends) give to each group's weights (2D x 3D, an MoE
    layer's forward pass). OpenVINO 2026.4's CPU plugin has no kernel for it (compiling for the
    CPU fails, on ovlab as on the wheel); the NumPy kernel folds constant inputs."""
    inputs = [mat_a, mat_b] if offsets is None else [mat_a, mat_b, offsets]
    return make_node("GroupedMatMul", inputs, name=name)
