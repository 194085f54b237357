"""ReorgYolo-2: YOLOv2's reorganisation of a feature map, ``[N, C, H, W]`` to
``[N, C*s*s, H/s, W/s]`` for stride ``s``, as OpenVINO's reference (``reorg_yolo.cpp``) moves
the elements (the darknet ``reorg`` layer)."""

from __future__ import annotations

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, make_node, need, register
from .types import shape_str

__all__ = ["reorg_yolo"]


def _infer(node: Node) -> list[ShapeType]:
    x = node._in_shape(0)
    stride = list(node._attrs["stride"])
    need(len(stride) == 1 and stride[0] > 0, f"stride must be one positive value, got {stride}")
    s = stride[0]
    need(len(x) == 4, f"[N, C, H, W] input shape is required, got {shape_str(x)}")
    need(x[1] >= s * s, f"stride^2 ({s * s}) must not exceed the channels ({x[1]})")
    need(x[2] % s == 0 and x[3] % s == 0, f"H and W of {shape_str(x)} must divide by the "
         f"stride {s}")
    return [((x[0], x[1] * s * s, x[2] // s, x[3] // s), node._in_type(0))]


def _reorg(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    s = int(node._attrs["stride"][0])
    n, c, h, w = x.shape
    oc = c // (s * s)
    src = x.reshape(-1)
    nn, cc, hh, ww = np.meshgrid(np.arange(n), np.arange(c), np.arange(h), np.arange(w),
                                 indexing="ij")
    offset = cc // oc
    index = ((nn * oc + cc % oc) * (h * s) + hh * s + offset // s) * (w * s) + ww * s + offset % s
    return [src[index.reshape(-1)].reshape(node._out_shapes[0])]


register("ReorgYolo", "opset2", _infer, _reorg, attrs=[Attr("stride", "ints")])


def reorg_yolo(input: NodeInput, stride: list[int], name: str | None = None) -> Node:  # noqa: A002
    """ReorgYolo-2 with ``stride`` ``[s]``."""
    return make_node("ReorgYolo", [as_output(input, name)],
                     {"stride": [int(v) for v in stride]}, name)
