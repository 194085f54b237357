"""DetectionOutput (opset1 and opset8): SSD's last layer, boxes decoded and kept by NMS.

The inputs are box offsets (``box_logits``, ``[N, priors * loc_classes * 4]``), class scores
(``class_preds``, ``[N, priors * classes]``), the prior boxes with their variances
(``proposals``, ``[1 or N, 1 or 2, priors * 4 or 5]``) and, for RefineDet's two-stage form,
objectness scores and first-stage offsets (``aux_class_preds``, ``aux_box_preds``). The output is
``[1, 1, rows, 7]``: per kept box its image, label, score and corners; after the last box a row
starting with -1 ends the list. DetectionOutput-1 is told ``num_classes``; DetectionOutput-8
reads it off the input shapes. Shape inference follows OpenVINO's
``detection_output_shape_inference.hpp`` (the same checks and messages) and the kernel its
``reference/detection_output.hpp`` (Caffe-style NMS per class, or MXNet-style with
``decrease_label_id``), so a learner's SSD post-processing gives the CPU plugin's boxes.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .attrs import Attr
from .node import Node, OpDef, ShapeType
from .ops import NodeInput, make_node, make_op_node, need, register

__all__ = ["detection_output", "proposal"]

_BASE_ATTRS = (
    Attr("background_label_id", "int", 0), Attr("top_k", "int", -1),
    Attr("variance_encoded_in_target", "bool", False), Attr("keep_top_k", "ints"),
    Attr("code_type", "str", "caffe.PriorBoxParameter.CORNER"),
    Attr("share_location", "bool", True), Attr("nms_threshold", "float", f32=True),
    Attr("confidence_threshold", "float", 0.0, f32=True), Attr("clip_after_nms", "bool", False),
    Attr("clip_before_nms", "bool", False), Attr("decrease_label_id", "bool", False),
    Attr("normalized", "bool", False), Attr("input_height", "int", 1),
    Attr("input_width", "int", 1), Attr("objectness_score", "float", 0.0, f32=True))


def _counts(node: Node) -> tuple[int, int]:
    """(num_classes, num_prior_boxes) as ``compute_num_classes`` and ``shape_infer_base``
    deduce them (DetectionOutput-1 is given the classes)."""
    a = node._attrs
    shapes = [node._in_shape(i) for i in range(len(node._inputs))]
    box, cls, props = shapes[0], shapes[1], shapes[2]
    need(len(box) == 2, f"Box logits rank must be 2. Got {len(box)}")
    need(len(cls) == 2, f"Class predictions rank must be 2. Got {len(cls)}")
    need(len(props) == 3, f"Proposals rank must be 3. Got {len(props)}")
    five = len(shapes) == 5
    if five:
        need(len(shapes[3]) == 2, f"Additional class predictions rank must be 2. Got {len(shapes[3])}")
        need(len(shapes[4]) == 2, f"Additional box predictions rank must be 2. Got {len(shapes[4])}")
    prior_size = 4 if a["normalized"] else 5
    if "num_classes" in a:
        return int(a["num_classes"]), 0
    need(props[2] % prior_size == 0, "Proposals' third dimension must be a multiply of "
         f"prior_box_size ({prior_size}). Current value is: {props[2]}.")
    priors = props[2] // prior_size
    need(priors > 0, f"A number of prior boxes must be greater zero. Got: {priors}")
    need(cls[1] % priors == 0, "Class predictions second dimension must be a multiply of "
         f"num_prior_boxes ({priors}). Current value is: {cls[1]}.")
    return cls[1] // priors, priors


def _detection_infer(node: Node) -> list[ShapeType]:
    a = node._attrs
    need(len(node._inputs) in (3, 5), "Check '(input_shapes.size() == 3 || "
         "input_shapes.size() == 5)' failed")
    t = node._in_type(0)
    need(t.is_real(), "Box logits' data type must be floating point. Got "
         f"{t.get_type_name()}")
    for i, what in ((1, "Class predictions"), (2, "Proposals")):
        need(node._in_type(i) == t, f"{what}' data type must be the same as box logits type. "
             f"Got {node._in_type(i).get_type_name()}")
    classes, priors = _counts(node)
    shapes = [node._in_shape(i) for i in range(len(node._inputs))]
    box, cls, props = shapes[0], shapes[1], shapes[2]
    loc_classes = 1 if a["share_location"] else classes
    prior_size = 4 if a["normalized"] else 5
    images = box[0]
    if not priors:
        need(loc_classes != 0 and box[1] % (loc_classes * 4) == 0,
             "Box logits' second dimension must be a multiply of num_loc_classes * 4 "
             f"({loc_classes * 4}). Current value is: {box[1]}.")
        priors = box[1] // (loc_classes * 4)
    need(box[1] == priors * loc_classes * 4, "The second dimension of the first input (box "
         f"logits) is not compatible. Current value: {box[1]}, expected value: "
         f"{priors * loc_classes * 4}")
    need(cls[0] == images, "Class predictions' first dimension is not compatible with batch "
         f"size.  Current value is: {cls[0]}, expected: {images}.")
    if classes:
        need(cls[1] == priors * classes, "Class predictions' second dimension must be equal to "
             f"num_prior_boxes * num_classes ({priors * classes}). Current value is: {cls[1]}.")
    need(props[0] in (1, images), "Proposals' first dimension is must be equal to either batch "
         f"size ({images}) or 1. Got: {props[0]}.")
    second = 1 if a["variance_encoded_in_target"] else 2
    need(props[1] == second, "Proposals' second dimension is mismatched. Current value is: "
         f"{props[1]}, expected: {second}.")
    need(props[2] == priors * prior_size, "Proposals' third dimension must be equal to "
         f"num_prior_boxes * prior_box_size ({priors * prior_size}). Current value is: "
         f"{props[2]}.")
    if len(shapes) == 5:
        aux_cls, aux_box = shapes[3], shapes[4]
        need(aux_cls[0] == images, "Additional class predictions' first dimension must be "
             f"compatible with batch size. Current value is: {aux_cls[0]}, expected: {images}.")
        need(aux_cls[1] == priors * 2, "Additional class predictions' second dimension must be "
             f"compatible with num_prior_boxes * 2. Current value is: {aux_cls[1]}, expected: "
             f"{priors * 2}.")
        need(aux_box == box, "Additional box predictions' shape must be compatible with box "
             f"logits shape. Current value is: {list(aux_box)}, expected: {list(box)}.")
    keep = a["keep_top_k"]
    need(len(keep) > 0, "keep_top_k attribute must be provided")
    if keep[0] > 0:
        rows = images * keep[0]
    elif keep[0] == -1 and a["top_k"] > 0:
        rows = images * a["top_k"] * classes
    else:
        rows = images * priors * classes
    return [((1, 1, rows, 7), t)]


# --- the reference kernel ----------------------------------------------------------------------
def _decode(prior: np.ndarray, var: np.ndarray | None, loc: np.ndarray, a: dict) -> np.ndarray:
    """``DecodeBBox`` for all priors at once: ``prior``/``loc`` ``[P, 4]`` (x0, y0, x1, y1)."""
    p = prior.astype(np.float32).copy()
    if not a["normalized"]:
        p /= np.array([a["input_width"], a["input_height"]] * 2, np.float32)
    v = np.ones_like(loc) if var is None else var
    if a["code_type"] == "caffe.PriorBoxParameter.CORNER":
        out = p + v * loc
    else:  # CENTER_SIZE
        w, h = p[:, 2] - p[:, 0], p[:, 3] - p[:, 1]
        cx, cy = (p[:, 0] + p[:, 2]) / 2, (p[:, 1] + p[:, 3]) / 2
        dcx = v[:, 0] * loc[:, 0] * w + cx
        dcy = v[:, 1] * loc[:, 1] * h + cy
        dw = np.exp(v[:, 2] * loc[:, 2]).astype(np.float32) * w
        dh = np.exp(v[:, 3] * loc[:, 3]).astype(np.float32) * h
        out = np.stack([dcx - dw / 2, dcy - dh / 2, dcx + dw / 2, dcy + dh / 2], axis=1)
    if a["clip_before_nms"]:
        out = np.clip(out, 0, 1)
    return out.astype(np.float32)


def _size(b: np.ndarray) -> np.float32:
    if b[2] < b[0] or b[3] < b[1]:
        return np.float32(0)
    return (b[2] - b[0]) * (b[3] - b[1])


def _jaccard(b1: np.ndarray, b2: np.ndarray) -> np.float32:
    if b2[0] > b1[2] or b2[2] < b1[0] or b2[1] > b1[3] or b2[3] < b1[1]:
        return np.float32(0)
    w = min(b1[2], b2[2]) - max(b1[0], b2[0])
    h = min(b1[3], b2[3]) - max(b1[1], b2[1])
    if w > 0 and h > 0:
        inter = w * h
        return inter / (_size(b1) + _size(b2) - inter)
    return np.float32(0)


def _caffe_nms(boxes: np.ndarray, scores: np.ndarray, a: dict) -> list[int]:
    """Scores above the confidence threshold, best first (ties: lower index first), the
    first ``top_k``, each kept unless it overlaps a kept one by more than the NMS threshold."""
    cand = [i for i in range(len(scores)) if scores[i] > np.float32(a["confidence_threshold"])]
    cand.sort(key=lambda i: (-scores[i], i))
    if a["top_k"] > -1:
        cand = cand[:a["top_k"]]
    kept: list[int] = []
    for i in cand:
        if all(_jaccard(boxes[i], boxes[k]) <= a["nms_threshold"] for k in kept):
            kept.append(i)
    return kept


def _mxnet_nms(boxes: dict[int, np.ndarray], conf: np.ndarray, a: dict,
               classes: int) -> dict[int, list[int]]:
    """One best class per prior (class 0 never), then NMS per class in one pass over all."""
    bg = a["background_label_id"]
    pairs = []
    for p in range(conf.shape[0]):
        best, label = np.float32(-1), 0
        for c in range(1, classes):
            if bg > -1 and c == bg:
                continue
            if conf[p, c] > best:
                best, label = conf[p, c], c
        if label > 0 and best >= np.float32(a["confidence_threshold"]):
            pairs.append((best, label, p))
    pairs.sort(key=lambda t: (-t[0], t[2]))
    if a["top_k"] != -1:
        pairs = pairs[:a["top_k"]]
    indices: dict[int, list[int]] = {}
    for _, label, p in pairs:
        kept = indices.setdefault(label, [])
        b = boxes[-1] if a["share_location"] else boxes[label]
        if all(_jaccard(b[p], b[k]) <= a["nms_threshold"] for k in kept):
            kept.append(p)
    return indices


def _detection(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    a = node._attrs
    loc, conf, priors_in = (x.astype(np.float32) for x in xs[:3])
    two_stage = len(xs) == 5
    images = loc.shape[0]
    prior_size = 4 if a["normalized"] else 5
    n_priors = priors_in.shape[2] // prior_size
    classes = int(a.get("num_classes") or conf.shape[1] // n_priors)
    loc_classes = 1 if a["share_location"] else classes
    bg = a["background_label_id"]
    rows = node._out_shapes[0][2]
    # the CPU plugin sizes what it writes by its own rule (keep_top_k > 0, else top_k > 0,
    # else every prior), which can exceed the shape inference's rows when keep_top_k is 0
    keep, top = a["keep_top_k"][0], a["top_k"]
    wanted = images * (keep if keep > 0 else top * classes if top > 0 else n_priors * classes)
    if wanted > rows:
        raise RuntimeError(f"DetectionOutput node with name '{node.get_friendly_name()}' has "
                           "insufficient output buffer size.")
    out = np.zeros((rows, 7), np.float32)
    # priors [B, P, 4] (the 5-wide form skips its leading batch index) and variances
    pri = priors_in[:, 0, :].reshape(priors_in.shape[0], n_priors, prior_size)[..., prior_size - 4:]
    var = None if a["variance_encoded_in_target"] else priors_in[:, 1, :n_priors * 4].reshape(
        priors_in.shape[0], n_priors, 4)
    locs = loc.reshape(images, n_priors, loc_classes, 4)
    arm_locs = xs[4].astype(np.float32).reshape(images, n_priors, loc_classes, 4) if two_stage else None
    scores = conf.reshape(images, n_priors, classes).copy()
    if two_stage:  # objectness below the threshold: the prior is background
        arm = xs[3].astype(np.float32).reshape(images, n_priors, 2)
        low = arm[:, :, 1] < np.float32(a["objectness_score"])
        scores[low] = 0
        if 0 <= bg < classes:
            scores[..., bg][low] = 1
    count = 0
    for i in range(images):
        b = 0 if pri.shape[0] == 1 else i
        v = None if var is None else var[b]
        decoded: dict[int, np.ndarray] = {}
        for c in range(loc_classes):
            label = -1 if a["share_location"] else c
            if bg > -1 and label == bg:
                continue
            prior_boxes = pri[b]
            if two_stage:  # RefineDet: the first stage moves the priors, the second the boxes
                assert arm_locs is not None
                prior_boxes = _decode(pri[b], v, arm_locs[i, :, c], {**a, "normalized": True}) \
                    if a["normalized"] else _decode(pri[b], v, arm_locs[i, :, c], a)
            decoded[label] = _decode(prior_boxes, v, locs[i, :, c], a)
        conf_i = scores[i]
        indices: dict[int, list[int]] = {}
        if not a["decrease_label_id"]:
            for c in range(classes):
                if c == bg:
                    continue
                label = -1 if a["share_location"] else c
                if label not in decoded:
                    continue
                indices[c] = _caffe_nms(decoded[label], conf_i[:, c], a)
        else:
            indices = _mxnet_nms(decoded, conf_i, a, classes)
        total = sum(len(v_) for v_ in indices.values())
        keep = a["keep_top_k"][0]
        if keep > -1 and total > keep:
            pairs = sorted(((conf_i[p, c], c, p) for c in sorted(indices) for p in indices[c]),
                           key=lambda t: (-t[0], t[2]))[:keep]
            indices = {}
            for _, c, p in pairs:
                indices.setdefault(c, []).append(p)
        for c in sorted(indices):
            boxes = decoded.get(-1 if a["share_location"] else c)
            if boxes is None:
                continue
            for p in indices[c]:
                box = boxes[p]
                if a["clip_after_nms"]:
                    box = np.clip(box, 0, 1)
                out[count] = (i, c - 1 if a["decrease_label_id"] else c, conf_i[p, c], *box)
                count += 1
    if count < rows:
        out[count, 0] = -1
    return [out.reshape(1, 1, rows, 7)]


def _detection_flops(node: Node) -> float:
    return 10.0 * float(np.prod(node._in_shape(1)))  # decode + score sort, per class and prior


DETECTION_OUTPUT_8 = register("DetectionOutput", "opset8", _detection_infer, _detection,
                              _detection_flops, attrs=_BASE_ATTRS)
DETECTION_OUTPUT_1: OpDef = dataclasses.replace(
    DETECTION_OUTPUT_8, version="opset1", attrs=(Attr("num_classes", "int"), *_BASE_ATTRS))


def _attrs_of(attrs: dict[str, Any]) -> dict[str, Any]:
    """The builder's dict as the node stores it: numpy scalars as Python values."""
    out = {}
    for k, v in attrs.items():
        if isinstance(v, np.ndarray):
            v = v.tolist()
        elif isinstance(v, np.generic):
            v = v.item()
        out[k] = v
    return out


def _check(op_name: str, attrs: dict, requirements: list) -> None:
    from .attr_checks import check_valid_attributes
    check_valid_attributes(op_name, attrs, requirements)


def _requirements() -> list:
    from .attr_checks import is_non_negative_value, is_positive_value
    return [
        ("background_label_id", False, np.integer, None),
        ("top_k", False, np.integer, None),
        ("variance_encoded_in_target", False, np.bool_, None),
        ("keep_top_k", True, np.integer, None),
        ("code_type", False, np.str_, None),
        ("share_location", False, np.bool_, None),
        ("nms_threshold", True, np.floating, None),
        ("confidence_threshold", False, np.floating, None),
        ("clip_after_nms", False, np.bool_, None),
        ("clip_before_nms", False, np.bool_, None),
        ("decrease_label_id", False, np.bool_, None),
        ("normalized", False, np.bool_, None),
        ("input_height", False, np.integer, is_positive_value),
        ("input_width", False, np.integer, is_positive_value),
        ("objectness_score", False, np.floating, is_non_negative_value),
    ]


def _inputs(box_logits: NodeInput, class_preds: NodeInput, proposals: NodeInput,
            aux_class_preds: NodeInput | None, aux_box_preds: NodeInput | None) -> list:
    inputs = [box_logits, class_preds, proposals]
    if aux_class_preds is not None:
        inputs.append(aux_class_preds)
    if aux_box_preds is not None:
        inputs.append(aux_box_preds)
    return inputs


def detection_output(box_logits: NodeInput, class_preds: NodeInput, proposals: NodeInput,
                     attrs: dict, aux_class_preds: NodeInput | None = None,
                     aux_box_preds: NodeInput | None = None, name: str | None = None) -> Node:
    """DetectionOutput-8 (``openvino.opset8``+): the number of classes is read off the shapes.
    ``attrs`` needs ``keep_top_k`` and ``nms_threshold``; the others have OpenVINO's
    defaults (checked as the wheel's builder checks them)."""
    _check("DetectionOutput", attrs, _requirements())
    return make_op_node(DETECTION_OUTPUT_8,
                        _inputs(box_logits, class_preds, proposals, aux_class_preds,
                                aux_box_preds), _attrs_of(attrs), name)


def detection_output_v1(box_logits: NodeInput, class_preds: NodeInput, proposals: NodeInput,
                        attrs: dict, aux_class_preds: NodeInput | None = None,
                        aux_box_preds: NodeInput | None = None, name: str | None = None) -> Node:
    """DetectionOutput-1 (``openvino.opset1``-``opset7``): as DetectionOutput-8, with the
    number of classes given (``num_classes``, required and positive)."""
    from .attr_checks import is_positive_value
    _check("DetectionOutput", attrs,
           [("num_classes", True, np.integer, is_positive_value), *_requirements()])
    return make_op_node(DETECTION_OUTPUT_1,
                        _inputs(box_logits, class_preds, proposals, aux_class_preds,
                                aux_box_preds), _attrs_of(attrs), name)


# --- Proposal (opset1: the boxes; opset4: the boxes and their scores) --------------------------
_PROPOSAL_ATTRS = (
    Attr("base_size", "int"), Attr("pre_nms_topn", "int"), Attr("post_nms_topn", "int"),
    Attr("nms_thresh", "float", f32=True), Attr("feat_stride", "int"), Attr("min_size", "int"),
    Attr("ratio", "floats"), Attr("scale", "floats"), Attr("clip_before_nms", "bool", True),
    Attr("clip_after_nms", "bool", False), Attr("normalize", "bool", False),
    Attr("box_size_scale", "float", 1.0, f32=True),
    Attr("box_coordinate_scale", "float", 1.0, f32=True), Attr("framework", "str", ""))


def _proposal_infer(node: Node) -> list[ShapeType]:
    """``proposal_shape_inference.hpp``: ``[batch * post_nms_topn, 5]`` boxes (and, from
    Proposal-4 on, ``[batch * post_nms_topn]`` scores)."""
    probs, deltas, image = (node._in_shape(i) for i in range(3))
    t = node._in_type(0)
    need(t.is_real(), "Proposal layer input class_probs should have floating point type "
         f"({t.get_type_name()}).")
    for i, what in ((1, "bbox_deltas"), (2, "image_shape")):
        need(node._in_type(i) == t, f"Proposal layer input {what} should have the same type as "
             f"class_probs ({node._in_type(i).get_type_name()}).")
    need(len(probs) == 4, f"Proposal layer shape class_probs should be rank 4 compatible "
         f"([{','.join(map(str, probs))}]).")
    need(len(deltas) == 4, f"Proposal layer shape bbox_deltas should be rank 4 compatible "
         f"([{','.join(map(str, deltas))}]).")
    need(len(image) == 1, f"Proposal layer shape image_shape should be rank 1 compatible "
         f"([{','.join(map(str, image))}]).")
    need(deltas[1] == probs[1] * 2, f"Anchor number inconsistent between class_probs "
         f"({probs[1] * 2}), and bbox_deltas ({deltas[1]}).")
    need(probs[0] == deltas[0], f"Batch size inconsistent between class_probs ({probs[0]}) and "
         f"bbox deltas ({deltas[0]}).")
    need(3 <= image[0] <= 4, "Image_shape 1D tensor must have => 3 and <= 4 elements "
         f"(image_shape_shape[0]{image[0]}).")
    rows = probs[0] * int(node._attrs["post_nms_topn"])
    outs: list[ShapeType] = [((rows, 5), t)]
    if node._op.version == "opset4":
        outs.append(((rows,), t))
    return outs


def _anchors(a: dict, count: int) -> np.ndarray:
    """``generate_anchors``: ``[4, ratios * scales]`` rows x0, y0, x1, y1 around the base box."""
    tf = a["framework"] == "tensorflow"
    offset = np.float32(0.0 if tf else 1.0)
    base = np.float32(a["base_size"])
    center = np.float32(0.5) * (base - offset)
    out = np.zeros((4, count), np.float32)
    ratios, scales = np.float32(a["ratio"]), np.float32(a["scale"])
    for r, ratio in enumerate(ratios):
        rw = np.sqrt(base * base / ratio, dtype=np.float32)
        if not tf:
            rw = np.float32(np.floor(rw + np.float32(0.5)))  # std::roundf: halves away from 0
        rh = rw * ratio
        if not tf:
            rh = np.float32(np.floor(rh + np.float32(0.5)))
        for s, scale in enumerate(scales):
            k = r * len(scales) + s
            sw = np.float32(0.5) * (rw * scale - offset)
            sh = np.float32(0.5) * (rh * scale - offset)
            out[:, k] = (center - sw, center - sh, center + sw, center + sh)
            if tf:
                out[:, k] -= np.float32(0.5) * base
    return out


def _proposal(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    """The CPU plugin's ``proposal_imp.cpp`` (the reference's algorithm): anchors moved by the
    deltas, the best ``pre_nms_topn`` (ties: the earlier anchor first) thinned by NMS to at
    most ``post_nms_topn`` per image."""
    a = node._attrs
    probs, deltas, image = (x.astype(np.float32) for x in xs)
    batch, two_a, height, width = probs.shape
    count = two_a // 2
    tf = a["framework"] == "tensorflow"
    off = np.float32(0.0 if tf else 1.0)
    if not (np.isfinite(image[:2]).all() and (image[:2] > np.finfo(np.float32).tiny).all()):
        raise RuntimeError("Proposal operation image info input must have positive image height "
                           "and width.")
    scale_h = image[2]
    scale_w = image[3] if image.shape[0] > 3 else scale_h
    if not (np.isfinite([scale_h, scale_w]).all() and min(scale_h, scale_w) >= 0):
        raise RuntimeError("Proposal operation image info input must have non negative scales.")
    # the CPU plugin reads the image's height and width the other way round for "tensorflow"
    # (it swaps x and y there), for the clips and the normalization alike
    img_h, img_w = (image[1], image[0]) if tf else (image[0], image[1])
    min_h, min_w = np.float32(a["min_size"] * scale_h), np.float32(a["min_size"] * scale_w)
    anchors = _anchors(a, count)
    post, n_prop = int(a["post_nms_topn"]), count * height * width
    pre = min(n_prop, int(a["pre_nms_topn"]))
    rois = np.zeros((batch, post, 5), np.float32)
    scores_out = np.zeros((batch, post), np.float32)
    hh_, ww_ = np.meshgrid(np.arange(height), np.arange(width), indexing="ij")
    shift_x = ((hh_ if tf else ww_) * a["feat_stride"]).astype(np.float32)[..., None]
    shift_y = ((ww_ if tf else hh_) * a["feat_stride"]).astype(np.float32)[..., None]
    f32 = np.float32
    for b in range(batch):
        d = deltas[b].reshape(count, 4, height, width).transpose(2, 3, 0, 1)  # [H, W, A, 4]
        score = probs[b, count:].transpose(1, 2, 0)  # [H, W, A]: the "object" half
        x0, y0 = shift_x + anchors[0], shift_y + anchors[1]
        x1, y1 = shift_x + anchors[2], shift_y + anchors[3]
        if tf:  # initial clip to the image
            x0, x1 = np.clip(x0, 0, img_w), np.clip(x1, 0, img_w)
            y0, y1 = np.clip(y0, 0, img_h), np.clip(y1, 0, img_h)
        ww, hh = x1 - x0 + off, y1 - y0 + off
        cx, cy = x0 + f32(0.5) * ww, y0 + f32(0.5) * hh
        dx = d[..., 0] / f32(a["box_coordinate_scale"])
        dy = d[..., 1] / f32(a["box_coordinate_scale"])
        dw = d[..., 2] / f32(a["box_size_scale"])
        dh = d[..., 3] / f32(a["box_size_scale"])
        pcx, pcy = dx * ww + cx, dy * hh + cy
        pw, ph = np.exp(dw) * ww, np.exp(dh) * hh
        x0, y0 = pcx - f32(0.5) * pw, pcy - f32(0.5) * ph
        x1, y1 = pcx + f32(0.5) * pw, pcy + f32(0.5) * ph
        if a["clip_before_nms"]:
            x0, x1 = np.clip(x0, 0, img_w - off), np.clip(x1, 0, img_w - off)
            y0, y1 = np.clip(y0, 0, img_h - off), np.clip(y1, 0, img_h - off)
        bw, bh = x1 - x0 + off, y1 - y0 + off
        keep = ((min_w <= bw) & (min_h <= bh)).astype(np.float32)
        boxes = np.stack([x0, y0, x1, y1], -1).reshape(-1, 4).astype(np.float32)
        sc = (keep * score).reshape(-1).astype(np.float32)
        order = np.argsort(-sc, kind="stable")[:pre]
        boxes, sc = boxes[order], sc[order]
        kept: list[int] = []
        dead = np.zeros(pre, bool)
        for i in range(pre):
            if dead[i]:
                continue
            kept.append(i)
            if len(kept) == post:
                break
            j = np.arange(i + 1, pre)
            bi, bj = boxes[i], boxes[j]
            over = (bi[0] <= bj[:, 2]) & (bi[1] <= bj[:, 3]) & (bj[:, 0] <= bi[2]) & \
                (bj[:, 1] <= bi[3])
            iw = np.maximum(f32(0), np.minimum(bi[2], bj[:, 2]) - np.maximum(bi[0], bj[:, 0]) + off)
            ih = np.maximum(f32(0), np.minimum(bi[3], bj[:, 3]) - np.maximum(bi[1], bj[:, 1]) + off)
            inter = iw * ih
            area_i = (bi[2] - bi[0] + off) * (bi[3] - bi[1] + off)
            area_j = (bj[:, 2] - bj[:, 0] + off) * (bj[:, 3] - bj[:, 1] + off)
            iou = np.where(over, inter / (area_i + area_j - inter), f32(0))
            dead[j[iou > f32(a["nms_thresh"])]] = True
        sel = boxes[kept]
        if a["clip_after_nms"]:
            sel = np.stack([np.clip(sel[:, 0], 0, img_w), np.clip(sel[:, 1], 0, img_h),
                            np.clip(sel[:, 2], 0, img_w), np.clip(sel[:, 3], 0, img_h)], -1)
        if a["normalize"]:
            sel = sel / np.array([img_w, img_h, img_w, img_h], np.float32)
        rois[b, :len(kept), 0] = b
        rois[b, :len(kept), 1:] = sel
        scores_out[b, :len(kept)] = sc[kept]
        if len(kept) < post:
            rois[b, len(kept), 0] = -1
    outs = [rois.reshape(batch * post, 5)]
    if node._op.version == "opset4":
        outs.append(scores_out.reshape(batch * post))
    return outs


PROPOSAL_4 = register("Proposal", "opset4", _proposal_infer, _proposal, attrs=_PROPOSAL_ATTRS)
PROPOSAL_1: OpDef = dataclasses.replace(PROPOSAL_4, version="opset1")

_PROPOSAL_REQUIREMENTS = [
    ("base_size", True, np.unsignedinteger, "positive"),
    ("pre_nms_topn", True, np.unsignedinteger, "positive"),
    ("post_nms_topn", True, np.unsignedinteger, "positive"),
    ("nms_thresh", True, np.floating, "positive"),
    ("feat_stride", True, np.unsignedinteger, "positive"),
    ("min_size", True, np.unsignedinteger, "positive"),
    ("ratio", True, np.floating, None),
    ("scale", True, np.floating, None),
    ("clip_before_nms", False, np.bool_, None),
    ("clip_after_nms", False, np.bool_, None),
    ("normalize", False, np.bool_, None),
    ("box_size_scale", False, np.floating, "positive"),
    ("box_coordinate_scale", False, np.floating, "positive"),
    ("framework", False, np.str_, None),
]


def _proposal_attrs(attrs: dict) -> dict:
    """The builder's checks (the wheel's, word for word) and the attributes as the node keeps
    them."""
    from .attr_checks import check_valid_attributes, is_positive_value
    check_valid_attributes("Proposal", attrs, [
        (k, req, t, is_positive_value if cond else None)
        for k, req, t, cond in _PROPOSAL_REQUIREMENTS])
    values = _attrs_of(attrs)
    for k in ("ratio", "scale"):  # C++ floats, as the wheel hands them back
        values[k] = [float(np.float32(v)) for v in values[k]]
    return values


def proposal(class_probs: NodeInput, bbox_deltas: NodeInput, image_shape: NodeInput,
             attrs: dict, name: str | None = None) -> Node:
    """Proposal-4 (``openvino.opset4``+): Faster R-CNN's region proposals, ``[batch *
    post_nms_topn, 5]`` rows (image, x0, y0, x1, y1) and their scores; a row whose image is
    -1 ends an image's list when fewer boxes survive NMS."""
    return make_node("Proposal", [class_probs, bbox_deltas, image_shape], _proposal_attrs(attrs),
                     name)


def proposal_v1(class_probs: NodeInput, bbox_deltas: NodeInput, image_shape: NodeInput,
                attrs: dict, name: str | None = None) -> Node:
    """Proposal-1 (``openvino.opset1``-``opset3``): the boxes only."""
    return make_op_node(PROPOSAL_1, [class_probs, bbox_deltas, image_shape],
                        _proposal_attrs(attrs), name)
