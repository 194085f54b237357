"""NMSRotated-13: non-maximum suppression of rotated boxes, shape inference only.

``boxes [batches, boxes, 5]`` (centre x, centre y, width, height, angle in radians), ``scores
[batches, classes, boxes]``, and scalar-like inputs ``max_output_boxes_per_class``,
``iou_threshold`` and ``score_threshold``. The outputs are ``selected_indices [n, 3]`` (batch,
class, box) and ``selected_scores [n, 3]`` (batch, class, score), where ``n``, the number of
boxes NMS keeps, is known only when it runs: OpenVINO gives it the interval
``0..batches * classes * min(boxes, max_output_boxes_per_class)`` when that maximum is a
Constant (``?`` otherwise), and ``valid_outputs [1]``. The shape inference and its checks follow
OpenVINO's (NMS-9's, which NMSRotated shares). ovlab compiles static models only, so a model
that uses NMSRotated builds and can be inspected, and compiling it is refused (its outputs are
dynamic); it has no kernel for that reason.
"""

from __future__ import annotations

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import NodeInput, constant_value, make_node, need, register
from .types import Dimension, PartialShape, Type

__all__ = ["nms_rotated"]


def _max_selected(node: Node) -> int | None:
    """The most boxes NMSRotated can keep, or None when ``max_output_boxes_per_class`` is not
    a Constant."""
    boxes, scores = node._in_shape(0), node._in_shape(1)
    limit = constant_value(node._inputs[2])
    if limit is None:
        return None
    per_class = min(boxes[1], max(int(np.ravel(limit)[0]), 0))
    return scores[0] * scores[1] * per_class


def _nms_infer(node: Node) -> list[ShapeType]:
    boxes, scores = node._in_shape(0), node._in_shape(1)
    for i in (0, 1, 3, 4):  # the element types first, as NMS-9's validate does
        need(node._in_type(i).is_real(), "Expected floating point type as element type for the "
             f"input at: {i}")
    need(node._in_type(2).get_type_name() in ("i32", "i64"), "Expected integer type as element "
         "type for the input at: 2")
    need(len(boxes) == 3, "Expected a 3D tensor for the 'boxes' input")
    need(len(scores) == 3, "Expected a 3D tensor for the 'scores' input")
    for i, what in ((2, "max_output_boxes_per_class"), (3, "iou_threshold"),
                    (4, "score_threshold")):
        shape = node._in_shape(i)
        need(len(shape) == 0 or shape == (1,), f"Expected 0D or 1D tensor for the '{what}' input")
    need(boxes[0] == scores[0], "The first dimension of both 'boxes' and 'scores' must match.")
    need(boxes[1] == scores[2], "'boxes' and 'scores' input shapes must match at the second and "
         "third dimension respectively. Boxes: ")
    need(boxes[2] == 5, "The last dimension of the 'boxes' input must be equal to 5")
    out_t = node._attrs["output_type"]
    need(out_t.get_type_name() in ("i32", "i64"), "Output type must be i32 or i64")
    top = _max_selected(node)
    kept = PartialShape([Dimension() if top is None else Dimension(0, top), 3])
    return [(kept, out_t), (kept, Type.f32), ((1,), out_t)]  # type: ignore[list-item]


register("NMSRotated", "opset13", _nms_infer,
         attrs=[Attr("sort_result_descending", "bool", True),
                Attr("output_type", "type", Type.i64), Attr("clockwise", "bool", True)])


def nms_rotated(boxes: NodeInput, scores: NodeInput, max_output_boxes_per_class: NodeInput,
                iou_threshold: NodeInput, score_threshold: NodeInput,
                sort_result_descending: bool = True, output_type: str = "i64",
                clockwise: bool = True, name: str | None = None) -> Node:
    """NMSRotated-13 (``openvino.opset13``+): the kept boxes' indices and scores, and how many
    were kept (outputs of a length known at run time only)."""
    return make_node("NMSRotated", [boxes, scores, max_output_boxes_per_class, iou_threshold,
                                    score_threshold],
                     {"sort_result_descending": sort_result_descending,
                      "output_type": output_type, "clockwise": clockwise}, name)
