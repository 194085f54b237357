"""PriorBox-8 and PriorBoxClustered-1: the anchor boxes of SSD-style detectors.

Each op reads two small integer inputs, the feature map's (height, width) and the image's, and
writes a ``[2, 4 * H * W * num_priors]`` f32 tensor: row 0 the boxes (xmin, ymin, xmax, ymax,
normalized to the image), row 1 their variances. The boxes depend only on those two shapes and
the attributes, so a model folds them to a constant. Shape inference and the kernels follow
OpenVINO's (``op::v8::PriorBox::number_of_priors``, ``reference/prior_box.hpp`` and
``reference/prior_box_clustered.hpp``), in float32 arithmetic as the reference computes; a
layer shape known only at run time gives ``[2,?]``, as the wheel's shape inference does.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, constant_value, make_node, need, register
from .types import PartialShape, Type

__all__ = ["prior_box", "prior_box_clustered"]

F32 = np.float32


def _aspect_ratios(ratios: list[float], flip: bool) -> list[float]:
    """1, then each ratio not yet there (within 1e-6), and its inverse when ``flip``."""
    out = [1.0]
    for ar in ratios:
        if any(abs(ar - e) < 1e-6 for e in out):
            continue
        out.append(ar)
        if flip:
            out.append(1.0 / ar)
    return out


def number_of_priors(a: dict[str, Any]) -> int:
    """``op::v8::PriorBox::number_of_priors``: boxes per feature-map cell."""
    total = len(_aspect_ratios(list(a["aspect_ratio"]), a["flip"]))
    if a["scale_all_sizes"]:
        n = total * len(a["min_size"]) + len(a["max_size"])
    else:
        n = total + len(a["min_size"]) - 1
    if a["fixed_size"]:
        n = total * len(a["fixed_size"])
    for density in a["density"]:
        d2 = int(density) * int(density) - 1
        n += (len(a["fixed_ratio"]) if a["fixed_ratio"] else total) * d2
    return n


def _layer_hw(node: Node) -> tuple[int, int] | None:
    v = constant_value(node._inputs[0])
    if v is None:
        return None
    need(v.dtype.kind in "iu" and v.size == 2,
         f"output_size (input 0) must be 2 integers (height, width), got {v.tolist()}")
    return int(v.reshape(-1)[0]), int(v.reshape(-1)[1])


def _infer(node: Node, per_cell: int) -> list[ShapeType]:
    for i, what in ((0, "output_size"), (1, "image_size")):
        need(node._in_type(i).is_integral_number(), f"{what} (input {i}) must be an integer "
             f"tensor, got {node._in_type(i).get_type_name()}")
    hw = _layer_hw(node)
    if hw is None:
        return [(PartialShape([2, -1]), Type.f32)]  # known at run time only
    return [((2, 4 * hw[0] * hw[1] * per_cell), Type.f32)]


def _prior_box_infer(node: Node) -> list[ShapeType]:
    return _infer(node, number_of_priors(node._attrs))


def _prior_box(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    """``reference::prior_box`` (PriorBox-8)."""
    a = node._attrs
    H, W = (int(v) for v in xs[0].reshape(-1)[:2])  # noqa: N806 - the reference's names
    IH, IW = (int(v) for v in xs[1].reshape(-1)[:2])  # noqa: N806
    ratios = [F32(r) for r in _aspect_ratios([float(F32(r)) for r in a["aspect_ratio"]],
                                             a["flip"])]
    variance = [F32(v) for v in a["variance"]] or [F32(0.1)]
    need(len(variance) in (1, 4), f"variance must have 1 or 4 values, got {len(variance)}")
    step = F32(a["step"])
    min_size = [F32(s) for s in a["min_size"]]
    if not a["scale_all_sizes"]:  # mxnet-like PriorBox
        step = F32(IH) / F32(H) if step == -1 else step * F32(IH)
        min_size = [s * F32(IH) for s in min_size]
    iwi, ihi = F32(1) / F32(IW), F32(1) / F32(IH)
    step_x, step_y = (F32(IW) / F32(W), F32(IH) / F32(H)) if step == 0 else (step, step)
    boxes: list[float] = []

    def put(cx: Any, cy: Any, bw: Any, bh: Any, clip: bool) -> None:
        b = [(cx - bw) * iwi, (cy - bh) * ihi, (cx + bw) * iwi, (cy + bh) * ihi]
        if clip:
            b = [max(b[0], F32(0)), max(b[1], F32(0)), min(b[2], F32(1)), min(b[3], F32(1))]
        boxes.extend(b)

    def dense(cx: Any, cy: Any, s: int, bw: Any, bh: Any) -> None:
        size = a["fixed_size"][s]
        d = int(a["density"][s])
        shift = int(size / d)
        for r in range(d):
            for c in range(d):
                put(cx - int(size) // 2 + F32(shift / 2) + c * shift,
                    cy - int(size) // 2 + F32(shift / 2) + r * shift, bw, bh, True)

    offset = F32(a["offset"])
    for h in range(H):
        for w in range(W):
            if step == 0:
                cx, cy = (F32(w) + F32(0.5)) * step_x, (F32(h) + F32(0.5)) * step_y
            else:
                cx, cy = (offset + F32(w)) * step, (offset + F32(h)) * step
            for s, fixed in enumerate(a["fixed_size"]):
                half = F32(int(fixed) * F32(0.5))
                if a["fixed_ratio"]:
                    for ar in a["fixed_ratio"]:
                        q = F32(math.sqrt(F32(ar)))
                        dense(cx, cy, s, F32(fixed) * F32(0.5) * q, F32(fixed) * F32(0.5) / q)
                    continue
                if a["density"]:
                    dense(cx, cy, s, half, half)
                for ar in ratios:
                    if abs(ar - 1) < 1e-6:
                        continue
                    q = F32(math.sqrt(ar))
                    dense(cx, cy, s, F32(fixed) * F32(0.5) * q, F32(fixed) * F32(0.5) / q)
            for i, ms in enumerate(min_size):
                put(cx, cy, ms * F32(0.5), ms * F32(0.5), False)
                with_max = i < len(a["max_size"])
                mx = F32(math.sqrt(ms * F32(a["max_size"][i]))) * F32(0.5) if with_max else 0
                if a["min_max_aspect_ratios_order"] and with_max:
                    put(cx, cy, mx, mx, False)
                if a["scale_all_sizes"] or i == len(min_size) - 1:
                    base = min_size[i if a["scale_all_sizes"] else 0]
                    for ar in ratios:
                        if abs(ar - 1) < 1e-6:
                            continue
                        q = F32(math.sqrt(ar))
                        put(cx, cy, base * F32(0.5) * q, base * F32(0.5) / q, False)
                if not a["min_max_aspect_ratios_order"] and with_max:
                    put(cx, cy, mx, mx, False)
    out = np.zeros(node._out_shapes[0], F32)
    # fixed_ratio with a density writes more boxes per cell than number_of_priors counts; the
    # reference writes them on, into row 1, which the variances then overwrite: row 0 keeps
    # the first ones
    n = min(len(boxes), out.shape[1])
    out[0, :n] = np.asarray(boxes[:n], F32)
    if a["clip"]:
        out[0] = np.clip(out[0], 0, 1)
    out[1] = variance[0] if len(variance) == 1 else np.tile(np.asarray(variance, F32),
                                                            out.shape[1] // 4)
    return [out]


_BOX_ATTRS = [Attr("min_size", "floats", ()), Attr("max_size", "floats", ()),
              Attr("aspect_ratio", "floats", ()), Attr("density", "floats", ()),
              Attr("fixed_ratio", "floats", ()), Attr("fixed_size", "floats", ()),
              Attr("clip", "bool", False), Attr("flip", "bool", False),
              Attr("step", "float", 0.0), Attr("offset", "float", 0.0),
              Attr("variance", "floats", ()), Attr("scale_all_sizes", "bool", True),
              Attr("min_max_aspect_ratios_order", "bool", True)]
PRIOR_BOX = register("PriorBox", "opset8", _prior_box_infer, _prior_box, attrs=_BOX_ATTRS)


def _clustered_infer(node: Node) -> list[ShapeType]:
    need(len(node._attrs["width"]) == len(node._attrs["height"]),
         f"Size of heights vector: {len(node._attrs['height'])} doesn't match size of widths "
         f"vector: {len(node._attrs['width'])}")
    return _infer(node, len(node._attrs["width"]))


def _prior_box_clustered(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    """``reference::prior_box_clustered`` (PriorBoxClustered-1)."""
    a = node._attrs
    H, W = (int(v) for v in xs[0].reshape(-1)[:2])  # noqa: N806
    IH, IW = (int(v) for v in xs[1].reshape(-1)[:2])  # noqa: N806
    variance = [F32(v) for v in a["variance"]] or [F32(0.1)]
    need(len(variance) in (1, 4), f"variance must have 1 or 4 values, got {len(variance)}")
    step_w = F32(a["step_w"] or a["step"])
    step_h = F32(a["step_h"] or a["step"])
    if step_w == 0 and step_h == 0:
        step_w, step_h = F32(IW) / F32(W), F32(IH) / F32(H)
    widths, heights = [F32(v) for v in a["width"]], [F32(v) for v in a["height"]]
    out = np.zeros(node._out_shapes[0], F32)
    offset = F32(a["offset"])
    k = 0
    for h in range(H):
        for w in range(W):
            cx, cy = (F32(w) + offset) * step_w, (F32(h) + offset) * step_h
            for bw, bh in zip(widths, heights, strict=True):
                b = [(cx - bw / F32(2)) / F32(IW), (cy - bh / F32(2)) / F32(IH),
                     (cx + bw / F32(2)) / F32(IW), (cy + bh / F32(2)) / F32(IH)]
                if a["clip"]:
                    b = [min(max(v, F32(0)), F32(1)) for v in b]
                out[0, k:k + 4] = b
                out[1, k:k + 4] = variance if len(variance) == 4 else variance * 4
                k += 4
    return [out]


PRIOR_BOX_CLUSTERED = register(
    "PriorBoxClustered", "opset1", _clustered_infer, _prior_box_clustered,
    attrs=[Attr("step", "float", 0.0), Attr("step_w", "float", 0.0), Attr("step_h", "float", 0.0),
           Attr("width", "floats", ()), Attr("height", "floats", ()), Attr("clip", "bool", True),
           Attr("offset", "float", 0.0), Attr("variance", "floats", ())])


def _attrs(op: str, attrs: dict[str, Any], names: set[str]) -> dict[str, Any]:
    """``attrs`` with the op's attribute names, values as lists or scalars. OpenVINO's Python
    builders pass the dict to the node factory, which skips names the op does not have (its
    own test gives PriorBoxClustered ``step_widths``, which the op spells ``step_w``: the
    wheel leaves ``step_w`` at 0), so ovlab skips them too."""
    if not isinstance(attrs, dict):
        raise TypeError(f"{op}: attrs must be a dict, got {type(attrs).__name__}")
    if "offset" not in attrs:
        raise RuntimeError(f"{op}: the attribute 'offset' is required")
    out = {}
    for key, value in attrs.items():
        if key not in names:
            continue  # a name the op does not have: the wheel's node factory ignores it too
        v = np.asarray(value)
        out[key] = v.tolist() if v.ndim else v.item()
    return out


def prior_box(layer_shape: NodeInput, image_shape: NodeInput, attrs: dict,
              name: str | None = None) -> Node:
    """PriorBox-8: the prior boxes of a ``layer_shape`` (H, W) feature map over an
    ``image_shape`` (H, W) image; ``attrs`` as OpenVINO's (``offset`` required, ``min_size``,
    ``max_size``, ``aspect_ratio``, ``flip``, ``clip``, ``step``, ``variance``,
    ``scale_all_sizes``, ``min_max_aspect_ratios_order``, ``fixed_size``, ``fixed_ratio``,
    ``density``)."""
    return make_node("PriorBox", [as_output(layer_shape, name), as_output(image_shape, name)],
                     _attrs("prior_box", attrs, {a.name for a in PRIOR_BOX.attrs}), name)


def prior_box_clustered(output_size: NodeInput, image_size: NodeInput, attrs: dict,
                        name: str | None = None) -> Node:
    """PriorBoxClustered-1: boxes of the given ``width``/``height`` lists centred on every
    cell of an ``output_size`` (H, W) feature map over an ``image_size`` image; ``attrs``:
    ``offset`` (required), ``width``, ``height``, ``clip``, ``step_w``, ``step_h``, ``step``,
    ``variance``."""
    return make_node("PriorBoxClustered",
                     [as_output(output_size, name), as_output(image_size, name)],
                     _attrs("prior_box_clustered", attrs,
                            {a.name for a in PRIOR_BOX_CLUSTERED.attrs}), name)

