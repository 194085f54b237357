"""NonMaxSuppression-9: the boxes each class keeps, greedily by score, dropping those that
overlap a kept one too much (or, with ``soft_nms_sigma``, lowering their scores).

Its outputs are as long as what it keeps, so their first dimension is dynamic at build time:
``[0..bound, 3]`` with ``bound = min(max_output_boxes_per_class, num_boxes) * batches *
classes`` when the maximum is a constant (``[?,3]`` otherwise), as OpenVINO infers it. A model
with it therefore builds but does not compile on ovlab (its devices run static shapes); the
kernel below (used when its inputs fold to constants) follows OpenVINO's reference
(``reference/non_max_suppression.cpp``): candidates above ``score_threshold`` by descending
score (ties: lower box index first), hard suppression when IoU exceeds ``iou_threshold``,
Gaussian soft suppression ``exp(-0.5 * iou^2 / sigma)`` otherwise, and with
``sort_result_descending`` the kept boxes of all batches and classes sorted by score.
"""

from __future__ import annotations

import heapq
import math
from typing import Any

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, constant_value, make_node, need, register
from .types import Dimension, PartialShape, Type, as_type, shape_str

__all__ = ["non_max_suppression"]


def _infer(node: Node) -> list[ShapeType]:
    boxes, scores = node._in_shape(0), node._in_shape(1)
    need(len(boxes) == 3 and boxes[2] == 4, f"Expected a 3D tensor [num_batches, num_boxes, 4] "
         f"for the 'boxes' input, got {shape_str(boxes)}")
    need(len(scores) == 3, "Expected a 3D tensor [num_batches, num_classes, num_boxes] for the "
         f"'scores' input, got {shape_str(scores)}")
    need(boxes[0] == scores[0] and boxes[1] == scores[2], f"'boxes' {shape_str(boxes)} and "
         f"'scores' {shape_str(scores)} must agree on batches and boxes")
    need(node._attrs["box_encoding"] in ("corner", "center"),
         f"box_encoding must be corner or center, got {node._attrs['box_encoding']!r}")
    t = node._attrs["output_type"]
    need(t in (Type.i32, Type.i64), f"Output type must be i32 or i64, got {t.get_type_name()}")
    limit = constant_value(node._inputs[2])
    if limit is None:
        first: Any = Dimension()
    else:
        bound = min(int(np.ravel(limit)[0]), boxes[1]) * boxes[0] * scores[1]
        first = Dimension(0, bound) if bound > 0 else Dimension(0)
    rows = PartialShape([first, 3])
    return [(rows, t), (rows, node._in_type(0)), ((1,), t)]


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    area_a = (a[2] - a[0]) * (a[3] - a[1])
    area_b = (b[2] - b[0]) * (b[3] - b[1])
    if area_a <= 0 or area_b <= 0:
        return 0.0
    inter = max(min(a[2], b[2]) - max(a[0], b[0]), 0) * max(min(a[3], b[3]) - max(a[1], b[1]), 0)
    return float(np.float32(inter) / np.float32(area_a + area_b - inter))


def _corners(boxes: np.ndarray, center: bool) -> np.ndarray:
    """Boxes as (y1, x1, y2, x2) with y1 <= y2 and x1 <= x2."""
    b = boxes.astype(np.float32)
    if center:  # (x_center, y_center, width, height)
        xc, yc, w, h = b[..., 0], b[..., 1], b[..., 2], b[..., 3]
        b = np.stack([yc - h / 2, xc - w / 2, yc + h / 2, xc + w / 2], axis=-1)
    return np.stack([np.minimum(b[..., 0], b[..., 2]), np.minimum(b[..., 1], b[..., 3]),
                     np.maximum(b[..., 0], b[..., 2]), np.maximum(b[..., 1], b[..., 3])], -1)


def _compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    a = node._attrs
    boxes = _corners(xs[0], a["box_encoding"] == "center")
    scores = xs[1].astype(np.float32)
    limit = int(np.ravel(xs[2])[0])
    iou_t, score_t, sigma = (float(np.ravel(v)[0]) for v in xs[3:6])
    scale = -0.5 / sigma if sigma > 0 else 0.0
    kept: list[tuple[float, int, int, int]] = []  # (score, batch, class, box)
    for b in range(scores.shape[0]):
        for c in range(scores.shape[1]):
            heap = [(-float(s), i, 0) for i, s in enumerate(scores[b, c]) if s > score_t]
            heapq.heapify(heap)
            selected: list[tuple[int, float]] = []
            while heap and len(selected) < limit:
                neg, i, begin = heapq.heappop(heap)
                score = original = -neg
                hard = False
                for j in range(len(selected) - 1, begin - 1, -1):
                    iou = _iou(boxes[b, i], boxes[b, selected[j][0]])
                    if sigma > 0:
                        score *= math.exp(scale * iou * iou)
                    elif iou > iou_t:
                        hard = True
                        break
                    if score <= score_t:
                        break
                if hard:
                    continue
                if score == original:
                    selected.append((i, score))
                elif score > score_t:
                    heapq.heappush(heap, (-score, i, len(selected)))
            kept += [(s, b, c, i) for i, s in selected]
    if a["sort_result_descending"]:
        kept.sort(key=lambda k: (-k[0], k[1], k[2], k[3]))
    t = a["output_type"].to_dtype()
    indices = np.array([[b, c, i] for _, b, c, i in kept], t).reshape(-1, 3)
    chosen = np.array([[b, c, s] for s, b, c, _ in kept], np.float32).reshape(-1, 3)
    return [indices, chosen.astype(xs[1].dtype), np.array([len(kept)], t)]


register("NonMaxSuppression", "opset9", _infer, _compute,
         attrs=[Attr("box_encoding", "str", "corner"),
                Attr("sort_result_descending", "bool", True),
                Attr("output_type", "type", Type.i64)])


def non_max_suppression(boxes: NodeInput, scores: NodeInput,
                        max_output_boxes_per_class: NodeInput | None = None,
                        iou_threshold: NodeInput | None = None,
                        score_threshold: NodeInput | None = None,
                        soft_nms_sigma: NodeInput | None = None, box_encoding: str = "corner",
                        sort_result_descending: bool = True, output_type: str = "i64",
                        name: str | None = None) -> Node:
    """NonMaxSuppression-9 (``openvino.opset9``+); omitted inputs are 0 (so no box is kept
    without a ``max_output_boxes_per_class``)."""
    defaults = (np.array(0, np.int64), np.array(0, np.float32), np.array(0, np.float32),
                np.array(0, np.float32))
    given = (max_output_boxes_per_class, iou_threshold, score_threshold, soft_nms_sigma)
    inputs = [as_output(boxes, name), as_output(scores, name)] + [
        as_output(d if v is None else v, name) for v, d in zip(given, defaults, strict=True)]
    return make_node("NonMaxSuppression", inputs,
                     {"box_encoding": str(box_encoding).lower(),
                      "sort_result_descending": bool(sort_result_descending),
                      "output_type": as_type(output_type)}, name)
