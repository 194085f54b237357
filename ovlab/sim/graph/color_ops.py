"""NV12toRGB/BGR and I420toRGB/BGR (opset8): camera and video-decoder YUV 4:2:0 images to
RGB or BGR, ``[N, H, W, 3]``.

NV12 comes as one plane ``[N, H*3/2, W, 1]`` (Y, then interleaved U,V rows) or two (Y
``[N, H, W, 1]`` and UV ``[N, H/2, W/2, 2]``); I420 as one plane or three (Y, U, V). Each pixel
converts as OpenVINO's reference (``reference/convert_color_nv12.hpp``, BT.601 limited range):
``r = 1.164 (y-16) + 1.596 (v-128)``, ``g = 1.164 (y-16) - 0.391 (u-128) - 0.813 (v-128)``,
``b = 1.164 (y-16) + 2.018 (u-128)``, clamped to [0, 255] (and rounded for u8).
"""

from __future__ import annotations

import numpy as np

from ...exceptions import UserInputError
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, make_node, need, register
from .types import Type, shape_str

__all__ = ["i420_to_bgr", "i420_to_rgb", "nv12_to_bgr", "nv12_to_rgb"]


def _image_hw(node: Node) -> tuple[int, int, int]:
    """(N, H, W) of the image, checking the planes' shapes."""
    y = node._in_shape(0)
    t = node._in_type(0)
    need(t == Type.u8 or t.is_real(), f"Y input shall have u8 or floating-point element type, "
         f"got {t.get_type_name()}")
    need(len(y) == 4 and y[3] == 1, f"Y input with layout NHWC and 1 channel is expected, "
         f"got {shape_str(y)}")
    n, h, w = y[0], y[1], y[2]
    if len(node._inputs) == 1:
        need(h % 3 == 0, f"Y input's height {h} shall be a multiple of 3 (one plane: H * 3/2)")
        h = h * 2 // 3
    need(h % 2 == 0 and w % 2 == 0, f"Image height {h} and width {w} shall be even")
    for i in range(1, len(node._inputs)):
        need(node._in_type(i) == t, "All inputs shall have the same element type")
        want = (n, h // 2, w // 2, 2 if node._op.type_name.startswith("NV12") else 1)
        need(tuple(node._in_shape(i)) == want, f"input {i} {shape_str(node._in_shape(i))} "
             f"shall be {shape_str(want)}")
    return n, h, w


def _infer(node: Node) -> list[ShapeType]:
    n, h, w = _image_hw(node)
    return [((n, h, w, 3), node._in_type(0))]


def _planes(node: Node, xs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Y ``[N, H, W]`` and U, V ``[N, H/2, W/2]`` as float32."""
    n, h, w = _image_hw(node)
    nv12 = node._op.type_name.startswith("NV12")
    if len(xs) == 1:
        flat = xs[0].reshape(n, -1).astype(np.float32)
        y = flat[:, :h * w].reshape(n, h, w)
        if nv12:
            uv = flat[:, h * w:].reshape(n, h // 2, w // 2, 2)
            u, v = uv[..., 0], uv[..., 1]
        else:
            q = h * w // 4
            u = flat[:, h * w:h * w + q].reshape(n, h // 2, w // 2)
            v = flat[:, h * w + q:].reshape(n, h // 2, w // 2)
    else:
        y = xs[0][..., 0].astype(np.float32)
        if nv12:
            u, v = xs[1][..., 0].astype(np.float32), xs[1][..., 1].astype(np.float32)
        else:
            u, v = xs[1][..., 0].astype(np.float32), xs[2][..., 0].astype(np.float32)
    return y, u, v


def _convert(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    y, u, v = _planes(node, xs)
    up = (slice(None), np.arange(y.shape[1]) // 2)
    d = u[up][:, :, np.arange(y.shape[2]) // 2] - np.float32(128)
    e = v[up][:, :, np.arange(y.shape[2]) // 2] - np.float32(128)
    c = y - np.float32(16)
    r = np.float32(1.164) * c + np.float32(1.596) * e
    g = np.float32(1.164) * c - np.float32(0.391) * d - np.float32(0.813) * e
    b = np.float32(1.164) * c + np.float32(2.018) * d
    rgb = [r, g, b] if node._op.type_name.endswith("RGB") else [b, g, r]
    out = np.stack(rgb, axis=-1)
    dtype = node._out_types[0].to_dtype()
    if np.issubdtype(dtype, np.integer):
        out = np.round(out)
    return [np.clip(out, 0, 255).astype(dtype)]


for _name in ("NV12toRGB", "NV12toBGR", "I420toRGB", "I420toBGR"):
    register(_name, "opset8", _infer, _convert)


def _nv12(op: str, arg: NodeInput, arg_uv: NodeInput | None, name: str | None) -> Node:
    inputs = [arg] if arg_uv is None else [arg, arg_uv]
    return make_node(op, [as_output(i, name) for i in inputs], {}, name)


def _i420(op: str, arg: NodeInput, arg_u: NodeInput | None, arg_v: NodeInput | None,
          name: str | None) -> Node:
    if (arg_u is None) != (arg_v is None):
        raise UserInputError(f"Operation {op} must have one (single plane) or three (separate "
                             "planes) inputs provided.")
    inputs = [arg] if arg_u is None else [arg, arg_u, arg_v]
    return make_node(op, [as_output(i, name) for i in inputs], {}, name)


def nv12_to_rgb(arg: NodeInput, arg_uv: NodeInput | None = None,
                name: str | None = None) -> Node:
    """NV12toRGB-8: one plane, or Y and UV."""
    return _nv12("NV12toRGB", arg, arg_uv, name)


def nv12_to_bgr(arg: NodeInput, arg_uv: NodeInput | None = None,
                name: str | None = None) -> Node:
    """NV12toBGR-8: one plane, or Y and UV."""
    return _nv12("NV12toBGR", arg, arg_uv, name)


def i420_to_rgb(arg: NodeInput, arg_u: NodeInput | None = None, arg_v: NodeInput | None = None,
                name: str | None = None) -> Node:
    """I420toRGB-8: one plane, or Y, U and V."""
    return _i420("I420toRGB", arg, arg_u, arg_v, name)


def i420_to_bgr(arg: NodeInput, arg_u: NodeInput | None = None, arg_v: NodeInput | None = None,
                name: str | None = None) -> Node:
    """I420toBGR-8: one plane, or Y, U and V."""
    return _i420("I420toBGR", arg, arg_u, arg_v, name)
