"""``compress_to_fp16``: what ``openvino.save_model`` does to the weights before writing them.

OpenVINO's ``compress_model_to_f16`` (transformations/common_optimizations/
compress_float_constants.cpp), followed step by step:

* A model that is already optimized is left alone: one with a FakeQuantize (INT8 from POT or
  NNCF), or with compressed integer weights (i8/u8 Const -> Convert -> [Subtract] -> Multiply).
* Constants that feed a shape computation (the inputs OpenVINO marks precision-sensitive, such
  as Reshape's target shape, and what computes them, up to a ShapeOf)
  keep their precision.
* Every other f32/f64 Constant becomes an f16 Constant named ``<name>_compressed`` and a Convert
  back to its type named ``<name>``, marked with the ``decompression`` runtime attribute, unless
  75 % or more of its values lie outside f16's range, or it holds a single value f16 cannot
  represent exactly (0.1, but not 0.5: measured with openvino 2026.4.1); then it stays as it is.
  Values beyond f16's largest are clamped to it.

The result is a new model (the caller's is not changed), with the same outputs up to f16
rounding of the weights.
"""

from __future__ import annotations

import numpy as np

from ..graph.model import Model
from ..graph.node import Node, Output
from ..graph.ops import REGISTRY, Constant
from ..graph.types import Type
from .rt_info import decompression

__all__ = ["compress_to_fp16", "is_optimized"]

# Inputs OpenVINO's ops mark with mark_as_precision_sensitive (input indices). Interpolate-11's
# scales are not among them (measured: save_model compresses a [2.0, 2.0] scales Constant).
SENSITIVE: dict[str, tuple[int, ...]] = {
    "Reshape": (1,), "Tile": (1,), "Broadcast": (1,), "TopK": (1,), "OneHot": (1,),
    "Pad": (1, 2), "SpaceToBatch": (1, 2, 3), "BatchToSpace": (1, 2, 3),
    "ConvolutionBackpropData": (2,), "GroupConvolutionBackpropData": (2,),
}
_F16_MAX = float(np.finfo(np.float16).max)
_F16_TINY = float(np.float16(2.0 ** -24))  # the smallest positive (subnormal) f16
KEEP_THRESHOLD = 0.75


def is_optimized(model: Model) -> bool:
    """OpenVINO's ``is_model_optimized``: FakeQuantize anywhere, or integer weights that are
    decompressed by Convert [-> Subtract] -> Multiply by a Constant."""
    for n in model.get_ordered_ops():
        t = n.get_type_name()
        if t in ("FakeQuantize", "FakeConvert"):
            return True
        if t == "Multiply":
            for i, src in enumerate(n._inputs):
                other = n._inputs[1 - i]._node if len(n._inputs) == 2 else None
                if isinstance(other, Constant) and _dequantized_weights(src._node):
                    return True
    return False


def _dequantized_weights(node: Node) -> bool:
    if node.get_type_name() == "Subtract":
        node = node._inputs[0]._node
    if node.get_type_name() != "Convert":
        return False
    src = node._inputs[0]._node
    return isinstance(src, Constant) and src.get_element_type().get_type_name() in (
        "i4", "u4", "i8", "u8", "nf4", "f8e4m3", "f8e5m2")


def _precision_sensitive(model: Model) -> set[int]:
    """Ids of the Constants that feed a precision-sensitive input (up to a ShapeOf)."""
    keep: set[int] = set()
    seen: set[int] = set()
    stack: list[Node] = []
    for n in model.get_ordered_ops():
        for i in SENSITIVE.get(n.get_type_name(), ()):
            if i < len(n._inputs):
                stack.append(n._inputs[i]._node)
    while stack:
        n = stack.pop()
        if id(n) in seen or n.get_type_name() == "ShapeOf":
            continue
        seen.add(id(n))
        if isinstance(n, Constant):
            keep.add(id(n))
        stack.extend(s._node for s in n._inputs)
    return keep


def _compressed(value: np.ndarray) -> np.ndarray | None:
    """The f16 values, or None if 75 % or more are out of f16's range (keep the constant)."""
    if value.size == 0:
        return None
    mag = np.abs(value.astype(np.float64, copy=False))
    out_of_range = np.count_nonzero(((mag < _F16_TINY) & (mag != 0)) | (mag > _F16_MAX))
    if out_of_range / value.size >= KEEP_THRESHOLD:
        return None
    half = np.clip(value, -_F16_MAX, _F16_MAX).astype(np.float16)
    if value.size == 1 and float(half.reshape(())) != float(value.reshape(())):
        return None  # a single value f16 cannot hold exactly stays (measured: a PRelu slope 0.1)
    return half


def compress_to_fp16(model: Model) -> Model:
    """A copy of ``model`` with its floating-point weights stored as f16 (see module doc)."""
    if is_optimized(model):
        return model.clone()
    keep = _precision_sensitive(model)
    new: dict[int, Node] = {}
    for n in model.get_ordered_ops():
        inputs = [Output(new[id(s._node)], s._index) for s in n._inputs]
        if isinstance(n, Constant) and id(n) not in keep and \
                n.get_element_type().get_type_name() in ("f32", "f64"):
            half = _compressed(n.get_data())
            if half is not None:
                new[id(n)] = _decompressed(n, half)
                continue
        new[id(n)] = n._clone(inputs)
    out = Model.__new__(Model)
    out._init([new[id(r)] for r in model.get_results()],
              [new[id(p)] for p in model.get_parameters()], model.get_friendly_name(),
              strict=False)
    out._rt_info = dict(model._rt_info)
    return out


def _decompressed(const: Constant, half: np.ndarray) -> Node:
    name = const.get_friendly_name()
    small = Constant(half, Type.f16, f"{name}_compressed", shared=True)
    convert = Node(REGISTRY["Convert"], [small.output(0)],
                   {"destination_type": const.get_element_type()}, name)
    convert._out_names[0] = set(const._out_names[0])
    convert._rt_info.update(const._rt_info)
    attr = decompression()
    convert._rt_info[attr.key] = attr
    return convert
