"""The builders that OpenVINO's ``openvino.opsetN`` modules name differently.

``ovlab.opset`` serves one version of each op. Some older opset modules of the wheel keep an
older builder under the same name, with other arguments: ``range`` (opset1-11: no
``output_type``, the output takes the inputs' type), ``gelu`` (opset2-6: exact, erf-based Gelu),
``mvn`` (opset2-5: MVN-1, mean over the channels or not), ``broadcast`` (opset1-2: ``mode``),
``interpolate`` (opset1-9: Interpolate-1, attributes in a dict; opset10: Interpolate-4, sizes
and scales both inputs), ``max_pool`` (opset1-7: MaxPool-1, one output). Each is built here from
the current op with the old op's meaning. The newest opsets add arguments: ``squeeze``
(opset15+: Squeeze-15, ``allow_axis_skip``), ``scatter_nd_update`` (opset15+: ScatterNDUpdate-15,
``reduction``), ``one_hot`` (opset16+: OneHot-16, ``negative_indices_mode``), ``avg_pool``
(opset16+: AvgPool-16, ``dilations``); ``assign`` is the Assign node class in opset6+.
Where the old or new version's node differs from ovlab's (other attributes, other outputs), it
is its own op definition (``_version``: the same type name, another version, its own attributes
and kernel), built without entering the registry, which keeps one version per type name for the
IR reader. The runner serves each builder in the opsets that have it (``BUILDERS``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ...opset import broadcast, gelu, mvn
from ...opset import range as range_v4
from . import kernels as K
from .attrs import Attr
from .beam_ops import gather_tree
from .color_ops import i420_to_bgr, i420_to_rgb, nv12_to_bgr, nv12_to_rgb
from .ctc_decoder_ops import ctc_greedy_decoder, ctc_greedy_decoder_seq_len
from .ctc_ops import ctc_loss
from .deformable_ops import deformable_convolution, deformable_convolution_v1
from .detection_ops import (
    DETECTION_OUTPUT_1,
    PROPOSAL_1,
    detection_output,
    detection_output_v1,
    proposal,
    proposal_v1,
)
from .elementwise import bitwise_left_shift, bitwise_right_shift
from .embedding_ops import embedding_bag_offsets, embedding_bag_packed
from .embedding_sum_ops import (
    embedding_bag_offsets_sum,
    embedding_bag_packed_sum,
    embedding_segments_sum,
)
from .f8_ops import fake_convert
from .fft_ops import dft, idft, irdft, rdft
from .fold_ops import col2im
from .grid_sample_ops import grid_sample
from .linalg_ops import grouped_matmul, inverse
from .nms_ops import non_max_suppression
from .nms_rotated_ops import nms_rotated
from .nn_ops import ROUNDING_14, _pool_common
from .node import Node, OpDef, ShapeType
from .ops import (
    REGISTRY,
    Ctx,
    NodeInput,
    as_output,
    int_const,
    int_list,
    make_op_node,
    norm_axis,
)
from .patch_ops import extract_image_patches
from .prior_box_ops import prior_box, prior_box_clustered
from .promote_ops import convert_promote_types
from .psroi_ops import deformable_psroi_pooling, psroi_pooling
from .random_ops import multinomial, random_uniform
from .resize_ops import interpolate_attrs, interpolate_node
from .rnn_ops import gru_cell, gru_sequence, lstm_cell, lstm_sequence, rnn_sequence
from .roi_align_ops import roi_align, roi_align_rotated
from .search_ops import bucketize, search_sorted
from .segment_ops import segment_max, sparse_fill_empty_rows
from .shape_ops import identity
from .slice_scatter_ops import slice_scatter
from .state_ops import Assign
from .stft_ops import istft, stft
from .string_ops import string_tensor_pack, string_tensor_unpack
from .yolo_ops import region_yolo, reorg_yolo


def range_v1(start: NodeInput, stop: NodeInput, step: NodeInput, name: str | None = None) -> Node:
    """Range-1: the output has the inputs' element type (Range-4 with that ``output_type``)."""
    first = as_output(start)
    return range_v4(first, stop, step, first.get_element_type().get_type_name(), name=name)


def gelu_v2(node: NodeInput, name: str | None = None) -> Node:
    """Gelu-2: the exact (erf) form."""
    return gelu(node, "erf", name=name)


def mvn_v2(data: NodeInput, across_channels: bool = False, normalize_variance: bool = False,
           eps: float = 1e-9, name: str | None = None) -> Node:
    """MVN-1: mean (and variance) over the spatial axes, and the channels with
    ``across_channels``; eps added to the variance (inside the square root), as the CPU
    plugin computes it (measured against the wheel)."""
    x = as_output(data)
    rank = len(x.get_shape())
    axes = np.arange(1 if across_channels else 2, rank, dtype=np.int64)
    return mvn(x, axes, normalize_variance, eps, "inside_sqrt", name=name)


def broadcast_v1(data: NodeInput, target_shape: NodeInput, axes_mapping: NodeInput | None = None,
                 mode: str = "NUMPY", name: str | None = None) -> Node:
    """Broadcast-1: ``mode`` is Broadcast-3's ``broadcast_spec``."""
    return broadcast(data, target_shape, axes_mapping, mode, name=name)


def interpolate_v1(image: NodeInput, output_shape: NodeInput, attrs: dict,
                   name: str | None = None) -> Node:
    """Interpolate-1 as OpenVINO's ConvertInterpolate1ToInterpolate4 rewrites it: sizes on
    ``axes``, corners aligned unless ``align_corners`` is False (then asymmetric), nearest
    rounding "simple"; the "area" mode has no Interpolate-4 form on the CPU plugin either."""
    if "axes" not in attrs or "mode" not in attrs:
        raise RuntimeError("interpolate: the attributes 'axes' and 'mode' are required")
    mode = str(attrs["mode"])
    modes = {"nearest": "nearest", "linear": "linear_onnx", "cubic": "cubic"}
    if mode not in modes:
        raise NotImplementedError(f"interpolate-1 mode '{mode}' is not available on ovlab "
                                  "(nearest, linear, cubic)")
    # pads are per spatial axis ("for each spatial dimension", the Interpolate-1 spec): one
    # value for every axis in ``axes`` (or one for all), placed on those axes; the sizes set
    # those axes' lengths, so as in OpenVINO's v0 shape inference the pads never change the
    # output shape (measured on the 2026.4.1 wheel: [1,3,8,8], axes [2,3], pads_begin [2,2]
    # gives [1,3,4,4])
    axes = [int(a) for a in np.atleast_1d(np.asarray(attrs["axes"]))]
    rank = len(as_output(image).get_shape())
    full = []
    for key in ("pads_begin", "pads_end"):
        p = [int(v) for v in np.atleast_1d(np.asarray(attrs.get(key, [0])))] or [0]
        if len(p) == rank:
            full.append(p)
            continue
        if len(p) == 1:
            p = p * len(axes)
        if len(p) != len(axes):
            raise RuntimeError(f"interpolate: {key} {p} must have one value per axis {axes}")
        pads = [0] * rank
        for a, v in zip(axes, p, strict=True):
            pads[a % rank] = v
        full.append(pads)
    coords = "align_corners" if attrs.get("align_corners", True) else "asymmetric"
    return interpolate_node(image, np.asarray(output_shape, np.int64), modes[mode], "sizes",
                            full[0], full[1], coords, "simple",
                            bool(attrs.get("antialias", False)), -0.75,
                            np.asarray(axes, np.int64), name, any_type=True)


def interpolate_v4(image: NodeInput, output_shape: NodeInput, scales: NodeInput, mode: str,
                   shape_calculation_mode: str, pads_begin: list[int] | None = None,
                   pads_end: list[int] | None = None,
                   coordinate_transformation_mode: str = "half_pixel",
                   nearest_mode: str = "round_prefer_floor", antialias: bool = False,
                   cube_coeff: float = -0.75, axes: NodeInput | None = None,
                   name: str | None = None) -> Node:
    """Interpolate-4: both the sizes and the scales are inputs, and ``shape_calculation_mode``
    says which one sets the output (Interpolate-11's kernel, reading that input)."""
    inputs = [image, output_shape if isinstance(output_shape, Node) else
              np.asarray(output_shape, np.int64),
              scales if isinstance(scales, Node) else np.asarray(scales, np.float32)]
    if axes is not None:
        inputs.append(int_const(axes))
    return make_op_node(INTERPOLATE_4, inputs,
                        interpolate_attrs(mode, shape_calculation_mode, pads_begin, pads_end,
                                          coordinate_transformation_mode, nearest_mode,
                                          antialias, cube_coeff), name)


def _version(type_name: str, version: str, **changes: Any) -> OpDef:
    """Another version of a registered op: its definition with ``changes``."""
    return dataclasses.replace(REGISTRY[type_name], version=version, **changes)


INTERPOLATE_4 = _version("Interpolate", "opset4")  # inputs: see resize_ops._value_and_axes


# --- MaxPool-1: MaxPool-8 without dilations and without the indices output ------------------
def _max_pool1_shape(node: Node) -> ShapeType:
    x, _, _, out = _pool_common(node)
    return (x[0], x[1], *out), node._in_type(0)


def _max_pool1(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    _, pb, pe, out = _pool_common(node)
    a = node._attrs
    ones = [1] * len(a["kernel"])
    return [K.max_pool(xs[0], a["kernel"], a["strides"], ones, pb, pe, out)[0]]


_POOL1_ATTRS = tuple(a for a in REGISTRY["MaxPool"].attrs
                     if a.name not in ("dilations", "index_element_type", "axis"))
MAX_POOL_1 = _version("MaxPool", "opset1", infer=lambda n: [_max_pool1_shape(n)],
                      compute=_max_pool1, attrs=_POOL1_ATTRS, batch=None)


def max_pool_v1(data: NodeInput, strides: list[int], pads_begin: list[int],
                pads_end: list[int], kernel_shape: list[int], rounding_type: str = "floor",
                auto_pad: str | None = None, name: str | None = None) -> Node:
    """MaxPool-1: the maxima only (one output)."""
    return make_op_node(MAX_POOL_1, [data],
                        {"strides": strides, "pads_begin": pads_begin, "pads_end": pads_end,
                         "kernel": kernel_shape, "rounding_type": rounding_type,
                         "auto_pad": auto_pad}, name)


# --- AvgPool-16: AvgPool-1 with dilations ------------------------------------------------------
def _avg_pool16(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    _, pb, pe, out = _pool_common(node)
    a = node._attrs
    exclude = bool(a["exclude-pad"]) or not any(pb + pe)  # as AvgPool-1 on the CPU plugin
    return [K.avg_pool(xs[0], a["kernel"], a["strides"], pb, pe, out, exclude,
                       a["dilations"] or None)]


_AVG1 = REGISTRY["AvgPool"]


def _rounding14(attrs: tuple[Attr, ...]) -> tuple[Attr, ...]:
    """The attributes with rounding_type's "ceil_torch" (pooling-14 and later)."""
    return tuple(ROUNDING_14 if a.name == "rounding_type" else a for a in attrs)


AVG_POOL_16 = _version("AvgPool", "opset16", compute=_avg_pool16,
                       attrs=_rounding14((*_AVG1.attrs, Attr("dilations", "ints", ()))))  # IR order
# --- AvgPool-14 and MaxPool-14: AvgPool-1 and MaxPool-8 with the "ceil_torch" rounding ---------
AVG_POOL_14 = _version("AvgPool", "opset14", attrs=_rounding14(_AVG1.attrs))
MAX_POOL_14 = _version("MaxPool", "opset14", attrs=_rounding14(REGISTRY["MaxPool"].attrs))


def avg_pool_v14(data_batch: NodeInput, strides: list[int], pads_begin: list[int],
                 pads_end: list[int], kernel_shape: list[int], exclude_pad: bool,
                 rounding_type: str = "floor", auto_pad: str | None = None,
                 name: str | None = None) -> Node:
    """AvgPool-14: AvgPool-1 that also rounds "ceil_torch"."""
    return make_op_node(AVG_POOL_14, [data_batch],
                        {"strides": strides, "pads_begin": pads_begin, "pads_end": pads_end,
                         "kernel": kernel_shape, "exclude-pad": exclude_pad,
                         "rounding_type": rounding_type, "auto_pad": auto_pad}, name)


def max_pool_v14(data: NodeInput, strides: list[int], dilations: list[int],
                 pads_begin: list[int], pads_end: list[int], kernel_shape: list[int],
                 rounding_type: str = "floor", auto_pad: str | None = None,
                 index_element_type: str | None = "i64", axis: int | None = 0,
                 name: str | None = None) -> Node:
    """MaxPool-14: MaxPool-8 that also rounds "ceil_torch"."""
    return make_op_node(MAX_POOL_14, [data],
                        {"strides": strides, "dilations": dilations, "pads_begin": pads_begin,
                         "pads_end": pads_end, "kernel": kernel_shape,
                         "rounding_type": rounding_type, "auto_pad": auto_pad,
                         "index_element_type": index_element_type or "i64",
                         "axis": axis or 0}, name)


def avg_pool_v16(data_batch: NodeInput, strides: list[int], pads_begin: list[int],
                 pads_end: list[int], kernel_shape: list[int], exclude_pad: bool,
                 rounding_type: str = "floor", auto_pad: str | None = None,
                 dilations: list[int] | None = None, name: str | None = None) -> Node:
    """AvgPool-16: the taps of each window ``dilations`` apart (all 1 when not given)."""
    return make_op_node(AVG_POOL_16, [data_batch],
                        {"strides": strides, "pads_begin": pads_begin, "pads_end": pads_end,
                         "kernel": kernel_shape, "exclude-pad": exclude_pad,
                         "rounding_type": rounding_type, "auto_pad": auto_pad,
                         "dilations": dilations or [1] * len(kernel_shape)}, name)


# --- Squeeze-15: axes optional, and axes of a size other than 1 skipped on request ------------
def _squeeze15_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    if len(node._inputs) < 2:
        return [(tuple(d for d in src if d != 1), node._in_type(0))]
    # allow_axis_skip matters for dynamic dimensions only: a static axis whose size is not 1
    # stays either way (measured on the 2026.4.1 wheel), and ovlab's shapes are static
    ax = {norm_axis(a, len(src)) for a in int_list(node, 1, "axes")}
    return [(tuple(d for i, d in enumerate(src) if not (i in ax and d == 1)),
             node._in_type(0))]


SQUEEZE_15 = _version("Squeeze", "opset15", infer=_squeeze15_infer,
                      attrs=(Attr("allow_axis_skip", "bool", False),))


def squeeze_v15(data: NodeInput, axes: NodeInput | None = None, allow_axis_skip: bool = False,
                name: str | None = None) -> Node:
    """Squeeze-15: every axis of size 1 without ``axes``; with ``allow_axis_skip`` an axis
    whose size is not 1 stays instead of failing (measured on the wheel: ``[2,1,3]`` squeezed
    on ``[0, 1]`` gives ``[2,3]``)."""
    inputs = [data] if axes is None else [data, int_const(axes)]
    return make_op_node(SQUEEZE_15, inputs, {"allow_axis_skip": allow_axis_skip}, name)


# --- ScatterNDUpdate-15: updates combined with the data by a reduction ------------------------
_REDUCE = {"sum": np.add, "sub": np.subtract, "prod": np.multiply, "min": np.minimum,
           "max": np.maximum}


def _scatter_nd15(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    reduction = node._attrs["reduction"]
    if reduction == "none":
        return REGISTRY["ScatterNDUpdate"].compute(node, xs, ctx)
    data, idx, upd = xs[0], xs[1], xs[2]
    k = idx.shape[-1]
    out = np.array(data)
    ix = idx.reshape(-1, k).astype(np.int64)
    ix = np.where(ix < 0, ix + np.asarray(data.shape[:k]), ix)
    keep = np.all((ix >= 0) & (ix < np.asarray(data.shape[:k])), axis=1)
    u = upd.reshape((len(ix),) + data.shape[k:])
    # ufunc.at applies repeated indices one after another, as the reference does
    _REDUCE[reduction].at(out, tuple(ix[keep].T), u[keep])
    return [out]


SCATTER_ND_UPDATE_15 = _version(
    "ScatterNDUpdate", "opset15", compute=_scatter_nd15,
    attrs=(Attr("reduction", "str", "none", ("none", "sum", "sub", "prod", "min", "max")),))


def scatter_nd_update_v15(data: NodeInput, indices: NodeInput, updates: NodeInput,
                          reduction: str | None = None, name: str | None = None) -> Node:
    """ScatterNDUpdate-15: ``reduction`` ("sum", "sub", "prod", "min", "max") combines each
    update with the value it lands on; "none" (the default) replaces it."""
    return make_op_node(SCATTER_ND_UPDATE_15, [data, int_const(indices), updates],
                        {"reduction": reduction or "none"}, name)


# --- OneHot-16: negative indices counted from the end on request --------------------------------
def _one_hot16(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    idx = xs[0].astype(np.int64)
    if node._attrs["negative_indices_mode"] == "normalize":
        depth = int(np.asarray(xs[1]).reshape(()))
        idx = np.where(idx < 0, idx + depth, idx)
    return REGISTRY["OneHot"].compute(node, [idx, *xs[1:]], ctx)


ONE_HOT_16 = _version("OneHot", "opset16", compute=_one_hot16,
                      attrs=(*REGISTRY["OneHot"].attrs,
                             Attr("negative_indices_mode", "str", "ignore_negative",
                                  ("ignore_negative", "normalize"))))


def one_hot_v16(indices: NodeInput, depth: NodeInput, on_value: NodeInput, off_value: NodeInput,
                axis: int, negative_indices_mode: str | None = None,
                name: str | None = None) -> Node:
    """OneHot-16: with ``negative_indices_mode="normalize"`` an index ``-i`` means
    ``depth - i``; by default ("ignore_negative") a negative index gives a row of off_value."""
    return make_op_node(ONE_HOT_16, [int_const(indices), int_const(depth), on_value, off_value],
                        {"axis": axis,
                         "negative_indices_mode": negative_indices_mode or "ignore_negative"},
                        name)


#: (type name, version) -> the op definition of a version the registry does not hold (the IR
#: reader builds a layer of that version with it)
VERSIONS: dict[tuple[str, str], OpDef] = {
    (op.type_name, op.version): op
    for op in (INTERPOLATE_4, MAX_POOL_1, AVG_POOL_14, MAX_POOL_14, AVG_POOL_16, SQUEEZE_15,
               SCATTER_ND_UPDATE_15,
               ONE_HOT_16, DETECTION_OUTPUT_1, PROPOSAL_1)}

#: name -> ((first opset, last opset, builder), ...): the opsets whose module has that builder
BUILDERS: dict[str, tuple[tuple[int, int, Any], ...]] = {
    "range": ((1, 11, range_v1),),
    "gelu": ((1, 6, gelu_v2),),
    "mvn": ((1, 5, mvn_v2),),
    "broadcast": ((1, 2, broadcast_v1),),
    "interpolate": ((1, 9, interpolate_v1), (10, 10, interpolate_v4)),
    "max_pool": ((1, 7, max_pool_v1), (14, 99, max_pool_v14)),
    "assign": ((6, 99, Assign),),
    "squeeze": ((15, 99, squeeze_v15),),
    "scatter_nd_update": ((15, 99, scatter_nd_update_v15),),
    "one_hot": ((16, 99, one_hot_v16),),
    "avg_pool": ((14, 15, avg_pool_v14), (16, 99, avg_pool_v16)),
    "bitwise_left_shift": ((15, 99, bitwise_left_shift),),
    "bitwise_right_shift": ((15, 99, bitwise_right_shift),),
    # ops newer than opset13 (ovlab.opset's names), served from the opset that brought them
    "dft": ((7, 99, dft),),
    "idft": ((7, 99, idft),),
    "rdft": ((9, 99, rdft),),
    "irdft": ((9, 99, irdft),),
    "fake_convert": ((13, 99, fake_convert),),
    "inverse": ((14, 99, inverse),),
    "convert_promote_types": ((14, 99, convert_promote_types),),
    "col2im": ((15, 99, col2im),),
    "prior_box": ((8, 99, prior_box),),
    "ctc_greedy_decoder": ((1, 99, ctc_greedy_decoder),),
    "gru_cell": ((3, 99, gru_cell),),
    "gather_tree": ((1, 99, gather_tree),),
    "psroi_pooling": ((1, 99, psroi_pooling),),
    "deformable_psroi_pooling": ((1, 99, deformable_psroi_pooling),),
    "roi_align": ((9, 99, roi_align),),
    "roi_align_rotated": ((15, 99, roi_align_rotated),),
    "embedding_bag_offsets_sum": ((3, 99, embedding_bag_offsets_sum),),
    "embedding_bag_packed_sum": ((3, 99, embedding_bag_packed_sum),),
    "embedding_segments_sum": ((3, 99, embedding_segments_sum),),
    "bucketize": ((3, 99, bucketize),),
    "search_sorted": ((15, 99, search_sorted),),
    "reorg_yolo": ((2, 99, reorg_yolo),),
    "grid_sample": ((9, 99, grid_sample),),
    "stft": ((15, 99, stft),),
    "istft": ((16, 99, istft),),
    "region_yolo": ((1, 99, region_yolo),),
    "extract_image_patches": ((3, 99, extract_image_patches),),
    "slice_scatter": ((15, 99, slice_scatter),),
    "nv12_to_rgb": ((8, 99, nv12_to_rgb),),
    "nv12_to_bgr": ((8, 99, nv12_to_bgr),),
    "i420_to_rgb": ((8, 99, i420_to_rgb),),
    "i420_to_bgr": ((8, 99, i420_to_bgr),),
    "non_max_suppression": ((9, 99, non_max_suppression),),
    "deformable_convolution": ((1, 7, deformable_convolution_v1), (8, 99, deformable_convolution)),
    "lstm_cell": ((4, 99, lstm_cell),),
    "rnn_sequence": ((5, 99, rnn_sequence),),
    "gru_sequence": ((5, 99, gru_sequence),),
    "lstm_sequence": ((5, 99, lstm_sequence),),
    "ctc_greedy_decoder_seq_len": ((6, 99, ctc_greedy_decoder_seq_len),),
    "prior_box_clustered": ((1, 99, prior_box_clustered),),
    "embedding_bag_offsets": ((15, 99, embedding_bag_offsets),),
    "embedding_bag_packed": ((15, 99, embedding_bag_packed),),
    "string_tensor_pack": ((15, 99, string_tensor_pack),),
    "string_tensor_unpack": ((15, 99, string_tensor_unpack),),
    "identity": ((16, 99, identity),),
    "detection_output": ((1, 7, detection_output_v1), (8, 99, detection_output)),
    "grouped_matmul": ((17, 99, grouped_matmul),),
    "proposal": ((1, 3, proposal_v1), (4, 99, proposal)),
    "ctc_loss": ((4, 99, ctc_loss),),
    "random_uniform": ((8, 99, random_uniform),),
    "multinomial": ((13, 99, multinomial),),
    "segment_max": ((16, 99, segment_max),),
    "nms_rotated": ((13, 99, nms_rotated),),
    "sparse_fill_empty_rows": ((16, 99, sparse_fill_empty_rows),),
}


def builder(opset: str, name: str) -> Any | None:
    """The builder that ``openvino.<opset>.<name>`` is, when it is not ovlab.opset's, or None."""
    n = int(opset[len("opset"):])
    return next((build for first, last, build in BUILDERS.get(name, ())
                 if first <= n <= last), None)
