"""ROIAlign-9 and ROIAlignRotated-15: features pooled over regions of interest, sampled
bilinearly (Mask R-CNN's ROIAlign, and its rotated-box form).

As OpenVINO's reference (``reference/roi_align.hpp``): each ROI's box (``[x1, y1, x2, y2]``
scaled by ``spatial_scale``, shifted by ``aligned_mode``; or, rotated, ``[cx, cy, w, h,
angle]``) is split into ``pooled_h x pooled_w`` bins, each sampled on a ``sampling_ratio``
grid (``ceil(bin size)`` when 0); a sample beyond the map by more than one pixel counts as 0,
the others are clamped and interpolated; a bin is the mean (``avg``) or the maximum, from 0,
(``max``) of its samples. Output ``[num_rois, C, pooled_h, pooled_w]``.
"""

from __future__ import annotations

import math

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, make_node, need, register
from .types import shape_str

__all__ = ["roi_align", "roi_align_rotated"]

_OFFSETS = {"asymmetric": (0.0, 0.0, False), "half_pixel_for_nn": (0.0, -0.5, True),
            "half_pixel": (0.5, -0.5, True)}


def _infer(node: Node) -> list[ShapeType]:
    x, rois, idx = node._in_shape(0), node._in_shape(1), node._in_shape(2)
    width = 5 if node._op.type_name == "ROIAlignRotated" else 4
    need(len(x) == 4, f"Expected a 4D tensor for the input data, got {shape_str(x)}")
    need(len(rois) == 2 and rois[1] == width, f"Expected a 2D tensor [num_rois, {width}] for "
         f"the ROIs input, got {shape_str(rois)}")
    need(tuple(idx) == (rois[0],), f"batch indices {shape_str(idx)} must be [{rois[0]}]")
    need(node._in_type(0).is_real() and node._in_type(1) == node._in_type(0),
         "The data and ROIs inputs must have the same floating-point type")
    need(node._in_type(2).get_type_name() in ("i32", "i64"),
         "The batch indices must be an integer tensor")
    a = node._attrs
    need(a["pooled_h"] > 0 and a["pooled_w"] > 0, "pooled_h and pooled_w must be positive")
    need(a["sampling_ratio"] >= 0, "sampling_ratio must not be negative")
    need(a["spatial_scale"] > 0, "spatial_scale must be positive")
    return [((rois[0], x[1], a["pooled_h"], a["pooled_w"]), node._in_type(0))]


def _space(node: Node, roi: np.ndarray) -> tuple:
    """(start x, start y, width, height, transform) of one ROI's sampling space."""
    a = node._attrs
    f = np.float32
    scale = f(a["spatial_scale"])
    if node._op.type_name == "ROIAlignRotated":
        cx, cy = roi[0] * scale - f(0.5), roi[1] * scale - f(0.5)
        w, h = roi[2] * scale, roi[3] * scale
        angle = -roi[4] if a["clockwise_mode"] else roi[4]
        c, s = f(math.cos(angle)), f(math.sin(angle))

        def rotate(px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            return py * s + px * c + cx, py * c - px * s + cy
        return -w / f(2), -h / f(2), w, h, rotate
    src, dst, aligned = _OFFSETS[a["aligned_mode"]]
    x1, y1, x2, y2 = ((roi[k] + f(src)) * scale + f(dst) for k in range(4))
    w, h = x2 - x1, y2 - y1
    if not aligned:
        w, h = max(w, f(1)), max(h, f(1))
    return x1, y1, w, h, lambda px, py: (px, py)


def _compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    data, rois, batch = xs[0].astype(np.float32), xs[1].astype(np.float32), xs[2]
    a = node._attrs
    ph, pw, ratio = a["pooled_h"], a["pooled_w"], a["sampling_ratio"]
    _, c, height, width = data.shape
    out = np.zeros((rois.shape[0], c, ph, pw), np.float32)
    for r in range(rois.shape[0]):
        x1, y1, w, h, transform = _space(node, rois[r])
        bw, bh = w / np.float32(pw), h / np.float32(ph)
        sx = ratio or int(math.ceil(bw))
        sy = ratio or int(math.ceil(bh))
        if sx * sy == 0:
            continue
        iy = (np.arange(ph)[:, None] * bh + (bh / np.float32(sy))
              * (np.arange(sy)[None, :] + np.float32(0.5)) + y1).astype(np.float32)
        ix = (np.arange(pw)[:, None] * bw + (bw / np.float32(sx))
              * (np.arange(sx)[None, :] + np.float32(0.5)) + x1).astype(np.float32)
        py = np.broadcast_to(iy[:, None, :, None], (ph, pw, sy, sx))
        px = np.broadcast_to(ix[None, :, None, :], (ph, pw, sy, sx))
        x, y = transform(px, py)
        x, y = np.asarray(x, np.float32), np.asarray(y, np.float32)
        outside = (x < -1) | (x > width) | (y < -1) | (y > height)
        x, y = np.maximum(x, 0), np.maximum(y, 0)
        ylo, xlo = y.astype(np.int64), x.astype(np.int64)
        top_y, top_x = ylo >= height - 1, xlo >= width - 1
        ylo = np.where(top_y, height - 1, ylo)
        xlo = np.where(top_x, width - 1, xlo)
        y = np.where(top_y, ylo, y).astype(np.float32)
        x = np.where(top_x, xlo, x).astype(np.float32)
        yhi = np.where(top_y, ylo, ylo + 1)
        xhi = np.where(top_x, xlo, xlo + 1)
        ly, lx = y - ylo, x - xlo
        hy, hx = 1 - ly, 1 - lx
        fm = data[int(batch[r])]
        v = (hy * hx * fm[:, ylo, xlo] + hy * lx * fm[:, ylo, xhi]
             + ly * hx * fm[:, yhi, xlo] + ly * lx * fm[:, yhi, xhi])
        v = np.where(outside, 0, v).reshape(c, ph, pw, sy * sx)
        if a.get("mode", "avg") == "max":
            out[r] = np.maximum(v.max(axis=-1), 0)
        else:
            out[r] = (v / np.float32(sy * sx)).sum(axis=-1)
    return [out.astype(xs[0].dtype)]


_COMMON = [Attr("pooled_h", "int"), Attr("pooled_w", "int"), Attr("sampling_ratio", "int"),
           Attr("spatial_scale", "float")]
register("ROIAlign", "opset9", _infer, _compute,
         attrs=[*_COMMON, Attr("mode", "str", "avg", ("avg", "max")),
                Attr("aligned_mode", "str", "asymmetric", tuple(_OFFSETS))])
register("ROIAlignRotated", "opset15", _infer, _compute,
         attrs=[*_COMMON, Attr("clockwise_mode", "bool", False)])


def roi_align(data: NodeInput, rois: NodeInput, batch_indices: NodeInput, pooled_h: int,
              pooled_w: int, sampling_ratio: int, spatial_scale: float, mode: str,
              aligned_mode: str | None = "asymmetric", name: str | None = None) -> Node:
    """ROIAlign-9."""
    return make_node("ROIAlign", [as_output(v, name) for v in (data, rois, batch_indices)],
                     {"pooled_h": int(pooled_h), "pooled_w": int(pooled_w),
                      "sampling_ratio": int(sampling_ratio),
                      "spatial_scale": float(spatial_scale), "mode": str(mode).lower(),
                      "aligned_mode": str(aligned_mode or "asymmetric").lower()}, name)


def roi_align_rotated(data: NodeInput, rois: NodeInput, batch_indices: NodeInput,
                      pooled_h: int, pooled_w: int, sampling_ratio: int, spatial_scale: float,
                      clockwise_mode: bool, name: str | None = None) -> Node:
    """ROIAlignRotated-15: ROIs ``[cx, cy, w, h, angle]`` (radians)."""
    return make_node("ROIAlignRotated",
                     [as_output(v, name) for v in (data, rois, batch_indices)],
                     {"pooled_h": int(pooled_h), "pooled_w": int(pooled_w),
                      "sampling_ratio": int(sampling_ratio),
                      "spatial_scale": float(spatial_scale),
                      "clockwise_mode": bool(clockwise_mode)}, name)
