"""ReorgYolo-2: YOLOv2's reorganisation of a feature map, ``[N, C, H, W]`` to
``[N, C*s*s, H/s, W/s]`` for stride ``s``, as OpenVINO's reference (``reorg_yolo.cpp``) moves
the elements (the darknet ``reorg`` layer)."""

from __future__ import annotations

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, make_node, need, register
from .types import shape_str

__all__ = ["region_yolo", "reorg_yolo"]


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


# --- RegionYolo-0 -------------------------------------------------------------------------
def _region_infer(node: Node) -> list[ShapeType]:
    x = node._in_shape(0)
    a = node._attrs
    need(len(x) == 4, f"Input must be a tensor of rank 4, but got {shape_str(x)}")
    need(node._in_type(0).is_real(), "Type of input is expected to be a floating point type")
    if a["do_softmax"]:
        axis, end = a["axis"] % 4, a["end_axis"] % 4
        need(axis <= end, f"axis {a['axis']} must not come after end_axis {a['end_axis']}")
        flat = 1
        for d in x[axis:end + 1]:
            flat *= d
        return [((*x[:axis], flat, *x[end + 1:]), node._in_type(0))]
    per = a["classes"] + a["coords"] + 1
    return [((x[0], per * len(a["mask"]), x[2], x[3]), node._in_type(0))]


def _region(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    """``reference::region_yolo``: logistic on x, y and the objectness (and, for YOLOv3, the
    classes); YOLOv2 (``do_softmax``) takes a softmax over each region's classes."""
    a = node._attrs
    x = xs[0].astype(np.float32)
    n, _, h, w = x.shape
    coords, classes = a["coords"], a["classes"]
    regions = a["num"] if a["do_softmax"] else len(a["mask"])
    per = coords + classes + 1
    out = x[:, :regions * per].reshape(n, regions, per, h, w).copy()
    sig = lambda v: (1 / (1 + np.exp(-v))).astype(np.float32)  # noqa: E731
    out[:, :, :2] = sig(out[:, :, :2])
    if a["do_softmax"]:
        out[:, :, coords] = sig(out[:, :, coords])
        cls = out[:, :, coords + 1:]
        e = np.exp(cls - cls.max(axis=2, keepdims=True))
        out[:, :, coords + 1:] = e / e.sum(axis=2, keepdims=True)
        result = x.reshape(-1).copy()
        result[:out.size] = out.reshape(-1)
        return [result.reshape(node._out_shapes[0]).astype(xs[0].dtype)]
    out[:, :, coords:] = sig(out[:, :, coords:])
    return [out.reshape(node._out_shapes[0]).astype(xs[0].dtype)]


register("RegionYolo", "opset1", _region_infer, _region,
         attrs=[Attr("anchors", "floats", ()), Attr("axis", "int"), Attr("coords", "int"),
                Attr("classes", "int"), Attr("end_axis", "int"), Attr("num", "int"),
                Attr("do_softmax", "bool", True), Attr("mask", "ints", ())])


def region_yolo(input: NodeInput, coords: int, classes: int, num: int,  # noqa: A002
                do_softmax: bool, mask: list[int], axis: int, end_axis: int,
                anchors: list[float] | None = None, name: str | None = None) -> Node:
    """RegionYolo-0 (YOLOv2's region layer, or YOLOv3's yolo layer when not ``do_softmax``)."""
    return make_node("RegionYolo", [as_output(input, name)],
                     {"anchors": [float(v) for v in anchors or []], "axis": int(axis),
                      "coords": int(coords), "classes": int(classes),
                      "end_axis": int(end_axis), "num": int(num),
                      "do_softmax": bool(do_softmax), "mask": [int(v) for v in mask]}, name)
