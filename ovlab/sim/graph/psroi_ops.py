"""PSROIPooling-1: position-sensitive ROI pooling (R-FCN), as OpenVINO's reference
(``reference/psroi_pooling.hpp``).

Each ROI ``[batch, x1, y1, x2, y2]`` (scaled by ``spatial_scale``) is split into
``group_size x group_size`` bins; output channel ``c`` of bin ``(i, j)`` reads its own input
channel (``(c * group_size + i) * group_size + j`` in ``average`` mode, where the ROI's corners
are rounded and the bin's pixels averaged) or, in ``bilinear`` mode, the mean of
``spatial_bins_x * spatial_bins_y`` bilinear samples from their own channels. Output
``[num_rois, output_dim, group_size, group_size]``.
"""

from __future__ import annotations

import math

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, make_node, need, register
from .types import shape_str

__all__ = ["deformable_psroi_pooling", "psroi_pooling"]


def _infer(node: Node) -> list[ShapeType]:
    x, rois = node._in_shape(0), node._in_shape(1)
    a = node._attrs
    need(len(x) == 4, f"Expected a 4D tensor for the feature maps input, got {shape_str(x)}")
    need(len(rois) == 2 and rois[1] == 5, f"Expected a 2D tensor [num_rois, 5] for the box "
         f"coordinates input, got {shape_str(rois)}")
    need(a["mode"] in ("average", "bilinear"), f"Expected 'average' or 'bilinear' mode, got "
         f"{a['mode']!r}")
    need(a["output_dim"] > 0 and a["group_size"] > 0, "output_dim and group_size must be "
         "positive")
    if a["mode"] == "average":
        need(x[1] == a["output_dim"] * a["group_size"] ** 2, "Number of input's channels must "
             "be a multiply of output_dim * group_size * group_size")
    else:
        need(a["spatial_bins_x"] > 0 and a["spatial_bins_y"] > 0, "spatial_bins_x and "
             "spatial_bins_y must be greater than 0")
        need(x[1] == a["output_dim"] * a["spatial_bins_x"] * a["spatial_bins_y"],
             "Number of input's channels must be a multiply of output_dim * spatial_bins_x * "
             "spatial_bins_y")
    g = a["group_size"]
    return [((rois[0], a["output_dim"], g, g), node._in_type(0))]


def _compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    data, rois = xs[0].astype(np.float32), xs[1].astype(np.float32)
    a = node._attrs
    f = np.float32
    scale, c_out, g = f(a["spatial_scale"]), a["output_dim"], a["group_size"]
    _, _, height, width = data.shape
    out = np.zeros((rois.shape[0], c_out, g, g), np.float32)
    for r, box in enumerate(rois):
        b = int(box[0])
        if a["mode"] == "average":
            sw, sh = f(round(float(box[1]))) * scale, f(round(float(box[2]))) * scale
            ew = (f(round(float(box[3]))) + f(1)) * scale
            eh = (f(round(float(box[4]))) + f(1)) * scale
            bw, bh = (ew - sw) / f(g), (eh - sh) / f(g)
            c_in = 0
            for c in range(c_out):
                for ph in range(g):
                    for pw in range(g):
                        x0 = min(int(math.floor(sw + f(pw) * bw)), width - 1)
                        y0 = min(int(math.floor(sh + f(ph) * bh)), height - 1)
                        x1 = min(int(math.ceil(sw + f(pw + 1) * bw)), width)
                        y1 = min(int(math.ceil(sh + f(ph + 1) * bh)), height)
                        patch = data[b, c_in, y0:y1, x0:x1]
                        out[r, c, ph, pw] = patch.sum(dtype=np.float32) / f(max(patch.size, 1))
                        c_in += 1
            continue
        nx, ny = a["spatial_bins_x"], a["spatial_bins_y"]
        sw, sh, ew, eh = (box[k] * scale for k in range(1, 5))
        bw, bh = (ew - sw) / f(nx), (eh - sh) / f(ny)
        ws = bw * f(width - 1) / f(g - 1) if g > 1 else f(0)
        hs = bh * f(height - 1) / f(g - 1) if g > 1 else f(0)
        for c in range(c_out):
            for ph in range(g):
                for pw in range(g):
                    total, c_in = f(0), 0
                    for sby in range(ny):
                        for sbx in range(nx):
                            bx, by = sw + f(sbx) * bw, sh + f(sby) * bh
                            img = data[b, c_in * c_out + c]
                            px = f(pw) * ws + bx * f(width - 1) if g > 1 else \
                                (bx + bx + bw) * f(width - 1) / f(2)
                            py = f(ph) * hs + by * f(height - 1) if g > 1 else \
                                (by + by + bh) * f(height - 1) / f(2)
                            if px < width and py < height:
                                left, top = int(math.floor(px)), int(math.floor(py))
                                right = min(int(math.ceil(px)), width - 1)
                                bottom = min(int(math.ceil(py)), height - 1)
                                t = img[top, left] + (img[top, right] - img[top, left]) * f(px - left)
                                d = img[bottom, left] + (img[bottom, right]
                                                         - img[bottom, left]) * f(px - left)
                                total += t + (d - t) * f(py - top)
                            c_in += 1
                    out[r, c, ph, pw] = total / f(nx * ny)
    return [out.astype(xs[0].dtype)]


register("PSROIPooling", "opset1", _infer, _compute,
         attrs=[Attr("output_dim", "int"), Attr("group_size", "int", 1),
                Attr("spatial_scale", "float"), Attr("mode", "str", "average"),
                Attr("spatial_bins_x", "int", 1), Attr("spatial_bins_y", "int", 1)])


def psroi_pooling(input: NodeInput, coords: NodeInput, output_dim: int,  # noqa: A002
                  group_size: int, spatial_scale: float, spatial_bins_x: int,
                  spatial_bins_y: int, mode: str, name: str | None = None) -> Node:
    """PSROIPooling-1."""
    return make_node("PSROIPooling", [as_output(input, name), as_output(coords, name)],
                     {"output_dim": int(output_dim), "group_size": int(group_size),
                      "spatial_scale": float(spatial_scale), "mode": str(mode).lower(),
                      "spatial_bins_x": int(spatial_bins_x),
                      "spatial_bins_y": int(spatial_bins_y)}, name)


# --- DeformablePSROIPooling-1 -------------------------------------------------------------
def _deformable_infer(node: Node) -> list[ShapeType]:
    x, rois = node._in_shape(0), node._in_shape(1)
    a = node._attrs
    need(len(x) == 4, f"Feature maps' input shape must be a 4D tensor, got {shape_str(x)}")
    need(len(rois) == 2 and rois[1] == 5, f"Box coordinates' input shape must be [num_rois, 5], "
         f"got {shape_str(rois)}")
    need(a["output_dim"] > 0 and a["group_size"] > 0, "output_dim and group_size must be "
         "positive")
    need(a["spatial_bins_x"] > 0 and a["spatial_bins_y"] > 0 and a["part_size"] > 0,
         "spatial_bins_x, spatial_bins_y and part_size must be positive")
    if len(node._inputs) > 2:
        need(len(node._in_shape(2)) == 4, "Offsets' input shape must be a 4D tensor, got "
             f"{shape_str(node._in_shape(2))}")
    g = a["group_size"]
    return [((rois[0], a["output_dim"], g, g), node._in_type(0))]


def _deformable(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    """``reference::deformable_psroi_pooling``: each bin from the next input channel, moved by
    its part's offset (times ``trans_std`` and the ROI size), the mean of its sub-bins'
    bilinear samples (sub-bins starting outside the map are left out)."""
    data, rois = xs[0].astype(np.float32), xs[1].astype(np.float32)
    offsets = xs[2].astype(np.float32) if len(xs) > 2 else None
    a = node._attrs
    f = np.float32
    scale, c_out, g = f(a["spatial_scale"]), a["output_dim"], a["group_size"]
    nx, ny, part, trans = a["spatial_bins_x"], a["spatial_bins_y"], a["part_size"], \
        f(a["trans_std"])
    _, _, height, width = data.shape
    out = np.zeros((rois.shape[0], c_out, g, g), np.float32)
    for r, box in enumerate(rois):
        b = int(box[0])
        if b < 0:
            continue
        x1 = f(round(float(box[1]))) * scale - f(0.5)
        y1 = f(round(float(box[2]))) * scale - f(0.5)
        x2 = (f(round(float(box[3]))) + f(1)) * scale - f(0.5)
        y2 = (f(round(float(box[4]))) + f(1)) * scale - f(0.5)
        rw, rh = max(x2 - x1, f(0.1)), max(y2 - y1, f(0.1))
        bw, bh = rw / f(g), rh / f(g)
        c_in = 0
        for c in range(c_out):
            for ph in range(g):
                for pw in range(g):
                    bx, by = x1 + f(pw) * bw, y1 + f(ph) * bh
                    if offsets is not None:
                        coords = offsets.shape[1] // 2
                        cls = c // (c_out // coords)
                        oh, ow = ph * part // g, pw * part // g
                        bx += offsets[r, 2 * cls, oh, ow] * trans * rw
                        by += offsets[r, 2 * cls + 1, oh, ow] * trans * rh
                    sbw, sbh = bw / f(nx), bh / f(ny)
                    total, count = f(0), 0
                    img = data[b, c_in]
                    for sy in range(ny):
                        yy = by + f(sy) * sbh
                        if yy < -0.5 or yy > height - 0.5:
                            continue
                        for sx in range(nx):
                            xx = bx + f(sx) * sbw
                            if xx < -0.5 or xx > width - 0.5:
                                continue
                            xc = min(max(xx, f(0)), f(width - 1))
                            yc = min(max(yy, f(0)), f(height - 1))
                            left, right = int(np.floor(xc)), int(np.ceil(xc))
                            top, bottom = int(np.floor(yc)), int(np.ceil(yc))
                            dx, dy = f(abs(xc - left)), f(abs(yc - top))
                            t = img[top, left] + (img[top, right] - img[top, left]) * dx
                            d = img[bottom, left] + (img[bottom, right] - img[bottom, left]) * dx
                            total += t + (d - t) * dy
                            count += 1
                    if count:
                        out[r, c, ph, pw] = total / f(count)
                    c_in += 1
    return [out.astype(xs[0].dtype)]


register("DeformablePSROIPooling", "opset1", _deformable_infer, _deformable,
         attrs=[Attr("output_dim", "int"), Attr("spatial_scale", "float"),
                Attr("group_size", "int", 1), Attr("mode", "str", "bilinear_deformable"),
                Attr("spatial_bins_x", "int", 1), Attr("spatial_bins_y", "int", 1),
                Attr("trans_std", "float", 1.0), Attr("part_size", "int", 1)])


def deformable_psroi_pooling(feature_maps: NodeInput, coords: NodeInput, output_dim: int,
                             spatial_scale: float, group_size: int = 1,
                             mode: str = "bilinear_deformable", spatial_bins_x: int = 1,
                             spatial_bins_y: int = 1, trans_std: float = 1.0,
                             part_size: int = 1, offsets: NodeInput | None = None,
                             name: str | None = None) -> Node:
    """DeformablePSROIPooling-1 (Deformable ConvNets' position-sensitive ROI pooling)."""
    inputs = [feature_maps, coords] + ([offsets] if offsets is not None else [])
    return make_node("DeformablePSROIPooling", [as_output(v, name) for v in inputs],
                     {"output_dim": int(output_dim), "spatial_scale": float(spatial_scale),
                      "group_size": int(group_size), "mode": str(mode).lower(),
                      "spatial_bins_x": int(spatial_bins_x),
                      "spatial_bins_y": int(spatial_bins_y), "trans_std": float(trans_std),
                      "part_size": int(part_size)}, name)
