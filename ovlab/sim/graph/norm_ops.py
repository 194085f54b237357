"""Normalisations: MVN (the layer norm of transformer IRs), NormalizeL2, BatchNormInference,
GroupNormalization and GRN.

Means and variances are computed in float32 with NumPy's pairwise sums; a NaN or an infinity in
a normalised slice makes the whole slice NaN, as on the CPU plugin.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import (
    F32,
    Ctx,
    NodeInput,
    axis_rule,
    int_const,
    int_list,
    make_node,
    need,
    norm_axis,
    out0_elems,
    real_type,
    register,
    same_type,
)
from .types import shape_str

__all__ = ["batch_norm_inference", "group_normalization", "grn", "mvn", "normalize_l2"]


def _axes(node: Node) -> list[int]:
    rank = len(node._in_shape(0))
    return sorted({norm_axis(a, rank) for a in int_list(node, 1, "axes")})


def _same_shape_infer(node: Node) -> list[ShapeType]:
    t = real_type(node, 0)
    if node.get_type_name() in ("MVN", "NormalizeL2"):
        _axes(node)
    return [(node._in_shape(0), t)]


# --- MVN --------------------------------------------------------------------------------------
def _mvn(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    axes = tuple(_axes(node))
    a = node._attrs
    y = x - x.mean(axis=axes, keepdims=True, dtype=F32)
    if not a["normalize_variance"]:
        return [y]
    var = np.mean(np.square(y), axis=axes, keepdims=True, dtype=F32)
    eps = F32(a["eps"])
    if a["eps_mode"] == "INSIDE_SQRT":
        y /= np.sqrt(var + eps)
    else:
        y /= np.sqrt(var) + eps
    return [y]


register("MVN", "opset6", _same_shape_infer, _mvn, lambda n: 6 * out0_elems(n),
         attrs=[Attr("eps", "float", f32=True), Attr("normalize_variance", "bool"),
                Attr("eps_mode", "str", choices=("INSIDE_SQRT", "OUTSIDE_SQRT"))],
         batch=axis_rule(_axes, "normalises"))


# --- NormalizeL2 --------------------------------------------------------------------------------
def _normalize_l2(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    axes = tuple(_axes(node))
    eps = F32(node._attrs["eps"])
    if not axes:  # OpenVINO: with no axes every element is normalised by itself
        sq = np.square(x)
    else:
        sq = np.sum(np.square(x), axis=axes, keepdims=True, dtype=F32)
    sq = sq + eps if node._attrs["eps_mode"] == "add" else np.maximum(sq, eps)
    return [(x / np.sqrt(sq)).astype(F32, copy=False)]


register("NormalizeL2", "opset1", _same_shape_infer, _normalize_l2,
         lambda n: 4 * out0_elems(n),
         attrs=[Attr("eps", "float", f32=True), Attr("eps_mode", "str", choices=("add", "max"))],
         batch=axis_rule(_axes, "normalises"))


# --- BatchNormInference -----------------------------------------------------------------------
def _bn_infer(node: Node) -> list[ShapeType]:
    x = node._in_shape(0)
    t = real_type(node, 0)
    same_type(node, [0, 1, 2, 3, 4])
    need(len(x) >= 2, f"data must have rank 2 or more (N, C, ...), got {shape_str(x)}")
    for i, what in enumerate(("gamma", "beta", "mean", "variance"), 1):
        need(tuple(node._in_shape(i)) == (x[1],), f"{what} must have shape [{x[1]}] (one value "
             f"per channel), got {shape_str(node._in_shape(i))}")
    need(node._attrs["epsilon"] >= 0, f"epsilon must not be negative, got "
         f"{node._attrs['epsilon']}")
    return [(x, t)]


def _channel(v: np.ndarray, rank: int) -> np.ndarray:
    return v.reshape((1, -1) + (1,) * (rank - 2))


def _bn(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x, gamma, beta, mean, var = xs
    r = x.ndim
    scale = gamma / np.sqrt(var + F32(node._attrs["epsilon"]))
    return [((x - _channel(mean, r)) * _channel(scale, r) + _channel(beta, r)).astype(F32)]


def _weights_live(node: Node, live: Sequence[bool]) -> str | None:
    return "its statistics come from a model input" if any(live[1:]) else None


register("BatchNormInference", "opset5", _bn_infer, _bn, lambda n: 2 * out0_elems(n),
         attrs=[Attr("epsilon", "float")], batch=_weights_live)


# --- GroupNormalization -------------------------------------------------------------------------
def _gn_infer(node: Node) -> list[ShapeType]:
    x = node._in_shape(0)
    t = real_type(node, 0)
    same_type(node, [0, 1, 2])
    need(len(x) >= 2, f"data must have rank 2 or more (N, C, ...), got {shape_str(x)}")
    g = node._attrs["num_groups"]
    need(g > 0 and x[1] % g == 0, f"The number of channels ({x[1]}) must be evenly divisible "
         f"by the number of groups ({g})")
    for i, what in ((1, "scale"), (2, "bias")):
        need(tuple(node._in_shape(i)) == (x[1],), f"{what} must have shape [{x[1]}], got "
             f"{shape_str(node._in_shape(i))}")
    return [(x, t)]


def _gn(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x, scale, bias = xs
    g = node._attrs["num_groups"]
    n = x.shape[0]
    y = x.reshape(n, g, -1)
    y = y - y.mean(axis=-1, keepdims=True, dtype=F32)
    var = np.mean(np.square(y), axis=-1, keepdims=True, dtype=F32)
    y = (y / np.sqrt(var + F32(node._attrs["epsilon"]))).reshape(x.shape)
    return [(y * _channel(scale, x.ndim) + _channel(bias, x.ndim)).astype(F32)]


register("GroupNormalization", "opset12", _gn_infer, _gn, lambda n: 8 * out0_elems(n),
         attrs=[Attr("num_groups", "int"), Attr("epsilon", "float")], batch=_weights_live)


# --- GRN ----------------------------------------------------------------------------------------
def _grn_infer(node: Node) -> list[ShapeType]:
    x = node._in_shape(0)
    need(2 <= len(x) <= 4, f"data must have rank 2 to 4, got {shape_str(x)}")
    return [(x, real_type(node, 0))]


def _grn(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    norm = np.sqrt(np.sum(np.square(x), axis=1, keepdims=True, dtype=F32)
                   + F32(node._attrs["bias"]))
    return [(x / norm).astype(F32, copy=False)]


register("GRN", "opset1", _grn_infer, _grn, lambda n: 4 * out0_elems(n),
         attrs=[Attr("bias", "float", f32=True)])


# --- builders -----------------------------------------------------------------------------------
def mvn(data: NodeInput, axes: NodeInput, normalize_variance: bool, eps: float, eps_mode: str,
        name: str | None = None) -> Node:
    """MVN-6: (x - mean) / sqrt(var + eps) over ``axes`` (a transformer's layer norm without
    its scale and shift)."""
    return make_node("MVN", [data, int_const(axes)],
                     {"normalize_variance": normalize_variance, "eps": eps, "eps_mode": eps_mode},
                     name)


def normalize_l2(data: NodeInput, axes: NodeInput, eps: float, eps_mode: str,
                 name: str | None = None) -> Node:
    """NormalizeL2-1: x / sqrt(sum(x^2 over axes) + eps).

    As with openvino 2026.4's builder, ``eps_mode`` has no effect: that builder passes it under
    the name ``mode``, which the op does not know, so the op keeps its default ``"add"``
    (measured: ``get_attributes()`` says add and the CPU adds eps even for ``"max"``). A
    NormalizeL2 read from an IR file with ``eps_mode="max"`` does use max(sum, eps).
    """
    del eps_mode  # ignored, as by OpenVINO's builder (see above)
    return make_node("NormalizeL2", [data, int_const(axes)], {"eps": eps, "eps_mode": "add"},
                     name)


def batch_norm_inference(data: NodeInput, gamma: NodeInput, beta: NodeInput, mean: NodeInput,
                         variance: NodeInput, epsilon: float, name: str | None = None) -> Node:
    return make_node("BatchNormInference", [data, gamma, beta, mean, variance],
                     {"epsilon": epsilon}, name)


def group_normalization(data: NodeInput, scale: NodeInput, bias: NodeInput, num_groups: int,
                        epsilon: float, name: str | None = None) -> Node:
    return make_node("GroupNormalization", [data, scale, bias],
                     {"num_groups": num_groups, "epsilon": epsilon}, name)


def grn(data: NodeInput, bias: float, name: str | None = None) -> Node:
    return make_node("GRN", [data], {"bias": bias}, name)

