"""ConvertPromoteTypes-14: both inputs converted to one common element type.

The rules are OpenVINO's (``src/core/src/op/convert_promote_types.cpp``, 2024): booleans take
the other type; an integer meets a float as the float (safe mode: only a float at least twice
as wide); same kinds of different widths take the wider; signed meets unsigned as a signed
integer twice the unsigned width (u64: ``u64_integer_promotion_target``, unsafe only);
f16/bf16 and f8e4m3/f8e5m2 pairs become f32 and f16 (unsafe only); with
``pytorch_scalar_promotion`` a scalar of the same kind takes the tensor's type. Anything
else fails with OpenVINO's message.
"""

from __future__ import annotations

import numpy as np

from .attrs import Attr
from .elementwise import _convert_to
from .node import Node, ShapeType
from .ops import NodeInput, make_node, need, out0_elems, register
from .types import Type, as_type

__all__ = ["convert_promote_types"]

_SUPPORTED = {"boolean", "f16", "f32", "f64", "i4", "i8", "i16", "i32", "i64", "u1", "u4", "u8",
              "u16", "u32", "u64", "f8e4m3", "f8e5m2", "bf16"}
_UNSUPPORTED = "Unsupported input element types for ConvertPromoteTypes with given attributes."


def common_type(a: Type, b: Type, a_scalar: bool, b_scalar: bool, promote_unsafe: bool,
                pytorch_scalar_promotion: bool, u64_target: Type) -> Type:
    """The type both inputs of a ConvertPromoteTypes are converted to (OpenVINO's rules)."""
    need(a.get_type_name() in _SUPPORTED and b.get_type_name() in _SUPPORTED,
         "Check 'is_type_supported(input_0_type) && is_type_supported(input_1_type)' failed")
    if a == b or b.get_type_name() == "boolean":
        return a
    if a.get_type_name() == "boolean":
        return b
    if a.is_real() != b.is_real():
        real, integer = (a, b) if a.is_real() else (b, a)
        if not promote_unsafe:
            need(real.bitwidth >= 2 * integer.bitwidth,
                 "Integer input cannot be safely promoted to floating-point.")
        return real
    if pytorch_scalar_promotion and a_scalar != b_scalar:
        target, scalar = (b, a) if a_scalar else (a, b)
        if not promote_unsafe:
            need((target.is_signed() == scalar.is_signed() and target.bitwidth >= scalar.bitwidth)
                 or (target.is_signed() and not scalar.is_signed()
                     and 2 * target.bitwidth >= scalar.bitwidth),
                 "Scalar input cannot be PyTorch-like promoted using safe promotion rules.")
        return target
    if a.is_signed() != b.is_signed():
        ubits, ibits = (b.bitwidth, a.bitwidth) if a.is_signed() else (a.bitwidth, b.bitwidth)
        if ubits <= 32 and (promote_unsafe or 2 * ubits <= ibits):
            return as_type(f"i{max(2 * ubits, ibits)}")
        need(promote_unsafe,
             "Unsigned integer input cannot be safely promoted into any supported signed integer.")
        return u64_target
    if a.bitwidth != b.bitwidth:
        return a if a.bitwidth > b.bitwidth else b
    names = {a.get_type_name(), b.get_type_name()}
    if promote_unsafe and names == {"f8e4m3", "f8e5m2"}:
        return Type.f16
    if promote_unsafe and names == {"f16", "bf16"}:
        return Type.f32
    need(False, _UNSUPPORTED)
    raise AssertionError  # (need raised)


def _infer(node: Node) -> list[ShapeType]:
    a = node._attrs
    t = common_type(node._in_type(0), node._in_type(1), node._in_shape(0) == (),
                    node._in_shape(1) == (), a["promote_unsafe"], a["pytorch_scalar_promotion"],
                    a["u64_integer_promotion_target"])
    return [(node._in_shape(0), t), (node._in_shape(1), t)]


def _compute(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    t = node._out_types[0]
    return [_convert_to(x, t) for x in xs]


register("ConvertPromoteTypes", "opset14", _infer, _compute, out0_elems,
         attrs=[Attr("promote_unsafe", "bool", False),
                Attr("pytorch_scalar_promotion", "bool", False),
                Attr("u64_integer_promotion_target", "type", Type.f32)])


def convert_promote_types(left_node: NodeInput, right_node: NodeInput,
                          promote_unsafe: bool = False, pytorch_scalar_promotion: bool = False,
                          u64_integer_promotion_target: Type | str = "f32",
                          name: str | None = None) -> Node:
    """ConvertPromoteTypes-14: both inputs in their common type (two outputs)."""
    return make_node("ConvertPromoteTypes", [left_node, right_node],
                     {"promote_unsafe": bool(promote_unsafe),
                      "pytorch_scalar_promotion": bool(pytorch_scalar_promotion),
                      "u64_integer_promotion_target": as_type(u64_integer_promotion_target)},
                     name)
