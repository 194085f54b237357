"""Interpolate-11: resizing by sizes or scales, in nearest, linear, linear_onnx and cubic modes,
with every coordinate transformation and nearest rounding mode of the specification.

Each resized axis is done on its own (all four modes are separable): for every output index
the coordinate transformation gives a position in the input, the mode turns it into a few taps
(input indices and weights: one for nearest, two for linear and linear_onnx, four for cubic),
and the axis is replaced by the weighted sum of the gathered slices. As on the CPU plugin,
"linear" is computed as "linear_onnx" and ``antialias`` has no effect (measured).
The Pillow modes (bilinear_pillow, bicubic_pillow) follow Pillow's resampling, which OpenVINO's
reference copies: a triangle or a cubic (a = -0.5) filter, widened by the downscaling factor, over
the input pixels around each output pixel's centre, its weights normalised to sum 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import (
    F32,
    Ctx,
    NodeInput,
    const_input,
    int_const,
    int_list,
    make_node,
    need,
    norm_axis,
    real_type,
    register,
)
from .types import Type, shape_str

__all__ = ["interpolate"]

_MODES = ("nearest", "linear", "linear_onnx", "cubic", "bilinear_pillow", "bicubic_pillow")
_COORDS = ("half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn",
           "align_corners")
_NEAREST = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple")


def _value_and_axes(node: Node) -> tuple[int, int]:
    """The inputs that hold the sizes or scales, and the axes: Interpolate-11 has one input for
    either (1) and the axes at 2; Interpolate-4 (``ovlab/sim/graph/opset_versions.py``) has the sizes
    (1), the scales (2) and the axes (3), and its ``shape_calculation_mode`` picks one."""
    if node._op.version == "opset4":
        return (1 if node._attrs["shape_calculation_mode"] == "sizes" else 2), 3
    return 1, 2


def _plan(node: Node) -> tuple[list[int], list[int], list[int], list[float]]:
    """(resized axes, padded input shape, output shape, scale per resized axis)."""
    value, axes_at = _value_and_axes(node)
    src = node._in_shape(0)
    rank = len(src)
    a = node._attrs
    pb = list(a["pads_begin"]) or [0] * rank
    pe = list(a["pads_end"]) or [0] * rank
    need(len(pb) == rank and len(pe) == rank, f"pads_begin {pb} and pads_end {pe} must have one "
         f"value per data dim ({shape_str(src)})")
    a["pads_begin"], a["pads_end"] = pb, pe  # stored full-length, as OpenVINO's IR shows them
    padded = [d + b + e for d, b, e in zip(src, pb, pe, strict=True)]
    if len(node._inputs) > axes_at:
        axes = [norm_axis(x, rank) for x in int_list(node, axes_at, "axes")]
    else:
        axes = list(range(rank))
    need(len(set(axes)) == len(axes), f"axes {axes} must not repeat")
    out = list(padded)
    if a["shape_calculation_mode"] == "sizes":
        sizes = int_list(node, value, "sizes")
        need(len(sizes) == len(axes), f"sizes {sizes} must have one value per axis {axes}")
        need(all(s > 0 for s in sizes), f"sizes {sizes} must be positive")
        scales = []
        for ax, s in zip(axes, sizes, strict=True):
            out[ax] = s
            scales.append(s / padded[ax])
    else:
        v = const_input(node, value, "scales")
        need(v.dtype.kind == "f", f"scales must be a float tensor, got {v.dtype}")
        scales = [float(x) for x in np.atleast_1d(v)]
        need(len(scales) == len(axes), f"scales {scales} must have one value per axis {axes}")
        need(all(s > 0 for s in scales), f"scales {scales} must be positive")
        for ax, s in zip(axes, scales, strict=True):
            out[ax] = int(math.floor(padded[ax] * np.float32(s) + 1e-5))
            need(out[ax] > 0, f"scale {s} leaves no output on axis {ax}")
    return axes, padded, out, scales


_INT_TYPES = (Type.u8, Type.i8, Type.i32, Type.i64)


def _infer(node: Node) -> list[ShapeType]:
    # floating point, or u8/i8 (the types the Interpolate spec lists besides the float ones;
    # PrePostProcessor resizes a u8 image tensor this way)
    # (and i32/i64, which the op's type check accepts too)
    # (Interpolate-1, which ovlab builds as this op, takes any element type: ``_any_type``)
    t = node._in_type(0) if node._in_type(0) in _INT_TYPES or (
        node._attrs.get("_any_type") and node._in_type(0).is_integral_number()) \
        else real_type(node, 0)
    if node._attrs["shape_calculation_mode"] == "sizes":
        need(node._in_type(_value_and_axes(node)[0]) in (Type.i32, Type.i64),
             "sizes must be an integer tensor")
    _, _, out, _ = _plan(node)
    return [(tuple(out), t)]


def _source_coords(node: Node, n_out: int, n_in: int, scale: float) -> np.ndarray:
    """Input coordinates of the output indices, in float32 arithmetic as the CPU plugin does
    (a position like 2.5 must stay exactly 2.5 for the nearest rounding modes)."""
    i = np.arange(n_out, dtype=F32)
    mode = node._attrs["coordinate_transformation_mode"]
    s, half = F32(scale), F32(0.5)
    if mode == "half_pixel":
        return (i + half) / s - half
    if mode == "pytorch_half_pixel":
        return (i + half) / s - half if n_out > 1 else np.zeros(n_out, F32)
    if mode == "asymmetric":
        return i / s
    if mode == "tf_half_pixel_for_nn":
        return (i + half) / s
    if n_out == 1:  # align_corners
        return np.zeros(1, F32)
    return i * F32(n_in - 1) / F32(n_out - 1)


def _nearest(node: Node, x: np.ndarray, n_in: int, scale: float) -> np.ndarray:
    mode = node._attrs["nearest_mode"]
    if mode == "round_prefer_floor":
        idx = np.where(x == np.floor(x) + F32(0.5), np.floor(x), np.round(x))
    elif mode == "round_prefer_ceil":  # std::round: halves away from zero
        idx = np.trunc(x + np.copysign(F32(0.5), x))
    elif mode == "floor":
        idx = np.floor(x)
    elif mode == "ceil":
        idx = np.ceil(x)
    else:  # simple
        idx = np.ceil(x) if scale < 1 else np.trunc(x)
    return np.clip(idx, 0, n_in - 1).astype(np.int64)[:, None]


def _pillow_taps(mode: str, n_out: int, n_in: int) -> tuple[np.ndarray, np.ndarray]:
    """Pillow's ``precompute_coeffs``: the filter over the input around each output centre."""
    if mode == "bilinear_pillow":
        support, a = 1.0, 0.0

        def kernel(d: np.ndarray) -> np.ndarray:
            return np.maximum(1.0 - np.abs(d), 0.0)
    else:
        support, a = 2.0, -0.5

        def kernel(d: np.ndarray) -> np.ndarray:
            d = np.abs(d)
            near = ((a + 2.0) * d - (a + 3.0)) * d * d + 1.0
            far = ((a * d - 5.0 * a) * d + 8.0 * a) * d - 4.0 * a
            return np.where(d < 1.0, near, np.where(d < 2.0, far, 0.0))
    scale = n_in / n_out
    filterscale = max(scale, 1.0)
    support *= filterscale
    width = int(math.ceil(support)) * 2 + 1
    idx = np.zeros((n_out, width), np.int64)
    w = np.zeros((n_out, width))
    for i in range(n_out):
        center = (i + 0.5) * scale
        lo = max(int(center - support + 0.5), 0)
        hi = min(int(center + support + 0.5), n_in)
        taps = kernel((np.arange(lo, hi) - center + 0.5) / filterscale)
        total = taps.sum()
        idx[i, :hi - lo] = np.arange(lo, hi)
        w[i, :hi - lo] = taps / total if total != 0 else taps
    return idx, w


def _taps(node: Node, n_out: int, n_in: int, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Input indices [n_out, T] and weights [n_out, T] for one axis."""
    mode = node._attrs["mode"]
    if "pillow" in mode:
        return _pillow_taps(mode, n_out, n_in)
    x = _source_coords(node, n_out, n_in, scale)
    if mode == "nearest":
        idx = _nearest(node, x, n_in, scale)
        return idx, np.ones(idx.shape)
    if mode in ("linear_onnx", "linear"):
        # The CPU plugin runs "linear" as linear_onnx and ignores antialias (measured: the same
        # values, and the same NaN from 0 * inf at a zero-weight neighbour), so ovlab does too.
        xc = np.clip(x, 0, n_in - 1)
        i0 = np.floor(xc).astype(np.int64)
        i1 = np.minimum(i0 + 1, n_in - 1)
        w1 = xc - i0
        return np.stack([i0, i1], 1), np.stack([1 - w1, w1], 1)
    if mode == "cubic":
        a = node._attrs["cube_coeff"]
        i0 = np.floor(x).astype(np.int64)
        t = x - i0
        d = np.stack([t + 1, t, 1 - t, 2 - t], 1)
        near = ((a + 2) * d - (a + 3)) * d * d + 1
        far = ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
        w = np.where(d <= 1, near, far)
        idx = np.clip(i0[:, None] + np.arange(-1, 3), 0, n_in - 1)
        return idx, w
    raise AssertionError(mode)  # (linear is handled as linear_onnx above)


def _compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    axes, padded, out, scales = _plan(node)
    pb, pe = node._attrs["pads_begin"], node._attrs["pads_end"]
    if any(pb) or any(pe):
        x = np.pad(x, list(zip(pb, pe, strict=True)))
    y = x
    for ax, scale in zip(axes, scales, strict=True):
        n_in, n_out = y.shape[ax], out[ax]
        mode = node._attrs["mode"]
        if n_in == n_out and scale == 1.0 and mode in ("nearest", "linear", "linear_onnx"):
            continue  # the CPU plugin leaves such an axis as it is (no 0 * inf from a neighbour)
        idx, w = _taps(node, n_out, n_in, scale)
        shape = [1] * y.ndim
        shape[ax] = n_out
        acc = None
        for t in range(idx.shape[1]):
            wt = w[:, t]
            part = np.take(y, idx[:, t], axis=ax)
            if not np.all(wt == 1.0):
                part = part * wt.astype(F32).reshape(shape)
            acc = part if acc is None else acc + part
        y = acc
    t = node._out_types[0]
    if t in _INT_TYPES:  # computed in f32, rounded and saturated to the integer type
        info = np.iinfo(t.to_dtype())
        y = np.clip(np.rint(y), info.min, info.max)
        return [np.ascontiguousarray(y, dtype=t.to_dtype())]
    return [np.ascontiguousarray(y, dtype=F32)]


def _flops(node: Node) -> float:
    taps = {"nearest": 0, "linear": 2, "linear_onnx": 2, "cubic": 4,
            "bilinear_pillow": 2}.get(node._attrs["mode"], 4)
    return 2.0 * taps * float(np.prod(node._out_shapes[0]))


def _batch(node: Node, live: Sequence[bool]) -> str | None:
    axes, padded, out, _ = _plan(node)
    if live[0] and (0 in axes and out[0] != node._in_shape(0)[0] or padded[0] !=
                    node._in_shape(0)[0]):
        return "it resizes the batch axis"
    return None


register("Interpolate", "opset11", _infer, _compute, _flops,
         attrs=[Attr("mode", "str", choices=_MODES),
                Attr("shape_calculation_mode", "str", choices=("sizes", "scales")),
                Attr("coordinate_transformation_mode", "str", "half_pixel", _COORDS),
                Attr("nearest_mode", "str", "round_prefer_floor", _NEAREST),
                Attr("antialias", "bool", False), Attr("pads_begin", "ints", ()),
                Attr("pads_end", "ints", ()), Attr("cube_coeff", "float", -0.75)],
         batch=_batch)


def interpolate(image: NodeInput, scales_or_sizes: NodeInput, mode: str,
                shape_calculation_mode: str, pads_begin: list[int] | None = None,
                pads_end: list[int] | None = None,
                coordinate_transformation_mode: str = "half_pixel",
                nearest_mode: str = "round_prefer_floor", antialias: bool = False,
                cube_coeff: float = -0.75, axes: NodeInput | None = None,
                name: str | None = None) -> Node:
    """Interpolate-11: resize ``axes`` (all axes if omitted) to ``sizes`` or by ``scales``."""
    inputs = [image, scales_or_sizes if not isinstance(scales_or_sizes, list)
              else np.array(scales_or_sizes)]
    if axes is not None:
        inputs.append(int_const(axes))
    return make_node("Interpolate", inputs,
                     interpolate_attrs(mode, shape_calculation_mode, pads_begin, pads_end,
                                       coordinate_transformation_mode, nearest_mode, antialias,
                                       cube_coeff), name)


def interpolate_node(image: NodeInput, scales_or_sizes: NodeInput, mode: str,
                     shape_calculation_mode: str, pads_begin: list[int] | None,
                     pads_end: list[int] | None, coordinate_transformation_mode: str,
                     nearest_mode: str, antialias: bool, cube_coeff: float,
                     axes: NodeInput | None, name: str | None, any_type: bool = False) -> Node:
    """:func:`interpolate`; ``any_type``: also integer types other than u8/i8/i32/i64, which
    Interpolate-1 (built as this op) takes."""
    inputs = [image, scales_or_sizes if not isinstance(scales_or_sizes, list)
              else np.array(scales_or_sizes)]
    if axes is not None:
        inputs.append(int_const(axes))
    attrs = interpolate_attrs(mode, shape_calculation_mode, pads_begin, pads_end,
                              coordinate_transformation_mode, nearest_mode, antialias,
                              cube_coeff)
    if any_type:
        attrs["_any_type"] = True
    return make_node("Interpolate", inputs, attrs, name)


def interpolate_attrs(mode: str, shape_calculation_mode: str, pads_begin: list[int] | None,
                      pads_end: list[int] | None, coordinate_transformation_mode: str,
                      nearest_mode: str, antialias: bool, cube_coeff: float) -> dict[str, Any]:
    """The attributes of an Interpolate node (versions 4 and 11 share them)."""
    return {"mode": mode, "shape_calculation_mode": shape_calculation_mode,
            "coordinate_transformation_mode": coordinate_transformation_mode,
            "nearest_mode": nearest_mode, "antialias": antialias, "cube_coeff": cube_coeff,
            "pads_begin": pads_begin or [], "pads_end": pads_end or []}
