"""DeformableConvolution-1 and -8: a 2-D convolution whose taps sample the input at learned
offsets (bilinearly), and, in version 8, are weighted by a mask.

Layouts as OpenVINO's reference (``reference/deformable_convolution.hpp``): ``offsets`` is
``[N, deformable_group * 2 * KH * KW, OH, OW]`` with the y then x offset of each tap, ``mask``
``[N, deformable_group * KH * KW, OH, OW]``; input channel ``c`` belongs to deformable group
``c // (C / deformable_group)``. A tap whose sampling point lies outside the input adds
nothing; inside, the four neighbours are blended, clamped to the input's edge
(``bilinear_interpolation_pad`` false) or read as zeros past it (true, with points down to -1
kept).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .attrs import Attr
from .nn_ops import AUTO_PAD, window
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, make_node, make_op_node, need, numel, register
from .types import shape_str

__all__ = ["deformable_convolution", "deformable_convolution_v1"]

_ATTRS = [Attr("strides", "ints"), Attr("dilations", "ints"), Attr("pads_begin", "ints"),
          Attr("pads_end", "ints"), AUTO_PAD, Attr("group", "int", 1),
          Attr("deformable_group", "int", 1)]


def _infer(node: Node) -> list[ShapeType]:
    x, off, w = node._in_shape(0), node._in_shape(1), node._in_shape(2)
    a = node._attrs
    need(len(x) == 4 and len(w) == 4 and len(off) == 4, "ovlab's DeformableConvolution is 2-D: "
         f"data {shape_str(x)}, offsets {shape_str(off)} and filters {shape_str(w)} must be 4-D")
    g, dg = a["group"], a["deformable_group"]
    need(g > 0 and dg > 0, f"group ({g}) and deformable_group ({dg}) must be positive")
    need(x[1] % g == 0 and w[0] % g == 0 and x[1] // g == w[1], f"data channels {x[1]} and "
         f"filters {shape_str(w)} do not fit group {g}")
    need(x[1] % dg == 0, f"data channels {x[1]} must divide into deformable_group {dg}")
    _, _, out = window(node, x[2:], w[2:])
    taps = w[2] * w[3]
    need(tuple(off) == (x[0], dg * 2 * taps, *out), f"offsets {shape_str(off)} must be "
         f"[{x[0]},{dg * 2 * taps},{out[0]},{out[1]}]")
    if len(node._inputs) > 3:
        m = node._in_shape(3)
        need(tuple(m) == (x[0], dg * taps, *out), f"mask {shape_str(m)} must be "
             f"[{x[0]},{dg * taps},{out[0]},{out[1]}]")
    return [((x[0], w[0], *out), node._in_type(0))]


def _sample(img: np.ndarray, ys: np.ndarray, xs: np.ndarray, pad: bool) -> np.ndarray:
    """Bilinear samples of ``img [C, H, W]`` at points ``ys, xs`` (same shape), as the
    reference's ``bilinear_interpolation``; points it skips give 0."""
    _, h, w = img.shape
    if pad:
        inside = (ys.astype(np.int64) > -1) & (ys.astype(np.int64) < h) & \
            (xs.astype(np.int64) > -1) & (xs.astype(np.int64) < w)
        y1, x1 = np.floor(ys).astype(np.int64), np.floor(xs).astype(np.int64)
        y2, x2 = y1 + 1, x1 + 1
    else:
        inside = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
        y1 = np.maximum(np.floor(ys), 0).astype(np.int64)
        x1 = np.maximum(np.floor(xs), 0).astype(np.int64)
        y2 = np.minimum(np.ceil(ys), h - 1).astype(np.int64)
        x2 = np.minimum(np.ceil(xs), w - 1).astype(np.int64)
    dx, dy = (xs - x1).astype(np.float32), (ys - y1).astype(np.float32)

    def at(yy: np.ndarray, xx: np.ndarray) -> np.ndarray:
        ok = (yy >= 0) & (xx >= 0) & (yy < h) & (xx < w)
        v = img[:, np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)]
        return np.where(ok, v, 0)

    v = ((1 - dx) * (1 - dy) * at(y1, x1) + (1 - dx) * dy * at(y2, x1)
         + dx * (1 - dy) * at(y1, x2) + dx * dy * at(y2, x2))
    return np.where(inside, v, 0).astype(np.float32)


def _compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x, off, w = (np.asarray(v, np.float32) for v in xs[:3])
    a = node._attrs
    n_, c, _, _ = x.shape
    o, cg, kh, kw = w.shape
    g, dg = a["group"], a["deformable_group"]
    pb, _, (oh, ow) = window(node, x.shape[2:], w.shape[2:])
    sy, sx = a["strides"]
    dy, dx = a["dilations"]
    mask = np.asarray(xs[3], np.float32) if len(xs) > 3 else \
        np.ones((n_, dg * kh * kw, oh, ow), np.float32)
    base_y = (np.arange(oh) * sy - pb[0])[:, None]
    base_x = (np.arange(ow) * sx - pb[1])[None, :]
    pad = bool(a.get("bilinear_interpolation_pad"))
    per_dg = c // dg
    cols = np.zeros((n_, c, kh * kw, oh, ow), np.float32)
    for n in range(n_):
        for d in range(dg):
            chans = x[n, d * per_dg:(d + 1) * per_dg]
            for k in range(kh * kw):
                ky, kx = divmod(k, kw)
                ys = base_y + ky * dy + off[n, d * 2 * kh * kw + 2 * k]
                xs_ = base_x + kx * dx + off[n, d * 2 * kh * kw + 2 * k + 1]
                cols[n, d * per_dg:(d + 1) * per_dg, k] = \
                    _sample(chans, ys, xs_, pad) * mask[n, d * kh * kw + k]
    out = np.empty((n_, o, oh, ow), np.float32)
    og = o // g
    for gi in range(g):
        wg = w[gi * og:(gi + 1) * og].reshape(og, cg * kh * kw)
        cg_cols = cols[:, gi * cg:(gi + 1) * cg].reshape(n_, cg * kh * kw, oh * ow)
        out[:, gi * og:(gi + 1) * og] = (wg @ cg_cols).reshape(n_, og, oh, ow)
    return [out.astype(xs[0].dtype, copy=False)]


def _flops(node: Node) -> float:
    w = node._in_shape(2)
    return 2.0 * numel(node._out_shapes[0]) * w[1] * w[2] * w[3]


DEFORMABLE_8 = register("DeformableConvolution", "opset8", _infer, _compute, _flops,
                        attrs=[*_ATTRS, Attr("bilinear_interpolation_pad", "bool", False)])
# version 1: no mask input and no bilinear_interpolation_pad (the kernel reads it as false)
DEFORMABLE_1 = dataclasses.replace(DEFORMABLE_8, version="opset1", attrs=tuple(_ATTRS))


def _attrs(strides: Any, pads_begin: Any, pads_end: Any, dilations: Any, auto_pad: str,
           group: int, deformable_group: int, **more: Any) -> dict[str, Any]:
    return {"strides": [int(v) for v in strides], "pads_begin": [int(v) for v in pads_begin],
            "pads_end": [int(v) for v in pads_end], "dilations": [int(v) for v in dilations],
            "auto_pad": str(auto_pad).lower(), "group": int(group),
            "deformable_group": int(deformable_group), **more}


def deformable_convolution(data: NodeInput, offsets: NodeInput, filters: NodeInput,
                           strides: list[int], pads_begin: list[int], pads_end: list[int],
                           dilations: list[int], mask: NodeInput | None = None,
                           auto_pad: str = "EXPLICIT", group: int = 1,
                           deformable_group: int = 1, bilinear_interpolation_pad: bool = False,
                           name: str | None = None) -> Node:
    """DeformableConvolution-8 (``openvino.opset8``+): with an optional ``mask``."""
    inputs = [as_output(v, name) for v in (data, offsets, filters)]
    if mask is not None:
        inputs.append(as_output(mask, name))
    return make_node("DeformableConvolution", inputs,
                     _attrs(strides, pads_begin, pads_end, dilations, auto_pad, group,
                            deformable_group,
                            bilinear_interpolation_pad=bool(bilinear_interpolation_pad)), name)


def deformable_convolution_v1(data: NodeInput, deformable_values: NodeInput, filters: NodeInput,
                              strides: list[int], pads_begin: list[int], pads_end: list[int],
                              dilations: list[int], auto_pad: str = "EXPLICIT", group: int = 1,
                              deformable_group: int = 1, name: str | None = None) -> Node:
    """DeformableConvolution-1 (``openvino.opset1``-7): no mask (the same reference code)."""
    inputs = [as_output(v, name) for v in (data, deformable_values, filters)]
    return make_op_node(DEFORMABLE_1, inputs, _attrs(strides, pads_begin, pads_end, dilations,
                                                     auto_pad, group, deformable_group), name)
