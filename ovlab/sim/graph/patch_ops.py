"""ExtractImagePatches-3: the ``sizes`` patches of an NCHW image, sampled every ``strides``
with dilation ``rates``, each laid out along the channels (``[N, C*kh*kw, OH, OW]``, depth
ordered by patch row, patch column, then channel, as TensorFlow's ``extract_image_patches``
which the op follows); ``auto_pad`` ``valid`` keeps whole patches, ``same_upper``/``same_lower``
pad with zeros so that ``OH = ceil(H / stride)``."""

from __future__ import annotations

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, make_node, need, register
from .types import shape_str

__all__ = ["extract_image_patches"]


def _plan(node: Node) -> tuple[list[int], list[int]]:
    """(pads before, output spatial size) per axis."""
    x = node._in_shape(0)
    a = node._attrs
    pads, out = [], []
    for i in range(2):
        k, s, r = a["sizes"][i], a["strides"][i], a["rates"][i]
        eff = (k - 1) * r + 1
        if a["auto_pad"] == "valid":
            o = (x[2 + i] - eff) // s + 1 if x[2 + i] >= eff else 0
            pads.append(0)
        else:
            o = -(-x[2 + i] // s)
            total = max((o - 1) * s + eff - x[2 + i], 0)
            pads.append(total // 2 if a["auto_pad"] == "same_upper" else total - total // 2)
        out.append(o)
    return pads, out


def _infer(node: Node) -> list[ShapeType]:
    x = node._in_shape(0)
    a = node._attrs
    need(len(x) == 4, f"input tensor must be 4D tensor, got {shape_str(x)}")
    for key in ("sizes", "strides", "rates"):
        need(len(a[key]) == 2 and all(v > 0 for v in a[key]), f"attribute {key} must have two "
             f"positive values, got {a[key]}")
    need(a["auto_pad"] in ("valid", "same_upper", "same_lower"), "auto_pad must be valid, "
         f"same_upper or same_lower, got {a['auto_pad']!r}")
    _, out = _plan(node)
    kh, kw = a["sizes"]
    return [((x[0], x[1] * kh * kw, out[0], out[1]), node._in_type(0))]


def _compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    a = node._attrs
    (ph, pw), (oh, ow) = _plan(node)
    kh, kw = a["sizes"]
    sh, sw = a["strides"]
    rh, rw = a["rates"]
    n, c, h, w = x.shape
    out = np.zeros((n, kh, kw, c, oh, ow), x.dtype)
    for i in range(kh):
        for j in range(kw):
            ys = np.arange(oh) * sh + i * rh - ph
            xs_ = np.arange(ow) * sw + j * rw - pw
            oky, okx = (ys >= 0) & (ys < h), (xs_ >= 0) & (xs_ < w)
            patch = x[:, :, np.clip(ys, 0, h - 1)][:, :, :, np.clip(xs_, 0, w - 1)]
            out[:, i, j] = np.where(oky[:, None] & okx[None, :], patch, 0)
    return [out.reshape(n, kh * kw * c, oh, ow)]


register("ExtractImagePatches", "opset3", _infer, _compute,
         attrs=[Attr("sizes", "ints"), Attr("strides", "ints"), Attr("rates", "ints"),
                Attr("auto_pad", "str", "valid")])


def extract_image_patches(image: NodeInput, sizes: list[int], strides: list[int],
                          rates: list[int], auto_pad: str, name: str | None = None) -> Node:
    """ExtractImagePatches-3."""
    return make_node("ExtractImagePatches", [as_output(image, name)],
                     {"sizes": [int(v) for v in sizes], "strides": [int(v) for v in strides],
                      "rates": [int(v) for v in rates], "auto_pad": str(auto_pad).lower()}, name)
