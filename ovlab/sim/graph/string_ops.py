"""StringTensorPack-15 and StringTensorUnpack-15: strings to and from one symbols buffer.

``begins`` and ``ends`` (i32 or i64, same shape) give, per output element, the bytes
``symbols[begins[i]:ends[i]]`` of the 1-D u8 ``symbols`` input; the output is a string tensor
of ``begins``' shape. StringTensorUnpack is its inverse: the strings' bytes one after the other
in ``symbols`` and each string's ``[begin, end)`` range. This is how OpenVINO's tokenizers hand
strings between ops. The symbols' length is known when the strings are a Constant; otherwise it
is a dynamic dimension, as in OpenVINO.
"""

from __future__ import annotations

import numpy as np

from .node import Node, ShapeType
from .ops import NodeInput, constant_value, make_node, need, register
from .types import PartialShape, Type

__all__ = ["string_tensor_pack", "string_tensor_unpack"]


def _pack_infer(node: Node) -> list[ShapeType]:
    tb, te = node._in_type(0), node._in_type(1)
    need(tb == te and tb.get_type_name() in ("i32", "i64"),
         "The element types of the begins and ends input tensors must match and be of i32 or "
         f"i64 type. Got: {tb.get_type_name()} and {te.get_type_name()}")
    need(node._in_shape(0) == node._in_shape(1),
         "The shapes of begins and ends have to be compatible.")
    ts = node._in_type(2)
    need(ts.get_type_name() == "u8",
         f"StringTensorPack expects a tensor with ov::element::u8 elements. Got: {ts.get_type_name()}")
    need(len(node._in_shape(2)) == 1, "Symbols input must be 1D.")
    return [(node._in_shape(0), Type.string)]


def _pack(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    begins, ends, symbols = (np.asarray(x) for x in xs)
    raw = symbols.astype(np.uint8).tobytes()
    n = len(raw)
    out = []
    for i, (b, e) in enumerate(zip(begins.ravel(), ends.ravel(), strict=True)):
        need(0 <= b <= e <= n, f"StringTensorPack: the range [{b}, {e}) of element {i} is not "
             f"within the {n} symbols")
        out.append(raw[int(b):int(e)])
    return [np.array(out, dtype=np.bytes_).reshape(begins.shape)]


register("StringTensorPack", "opset15", _pack_infer, _pack)


def string_tensor_pack(begins: NodeInput, ends: NodeInput, symbols: NodeInput,
                       name: str | None = None) -> Node:
    """StringTensorPack-15: ``symbols[begins[i]:ends[i]]`` as the i-th string."""
    return make_node("StringTensorPack", [begins, ends, symbols], name=name)


def _unpack_infer(node: Node) -> list[ShapeType]:
    t = node._in_type(0)
    need(t == Type.string, "StringTensorUnpack expects a tensor with string elements. Got: "
         f"{t.get_type_name()}")
    shape = node._in_shape(0)
    value = constant_value(node._inputs[0])
    symbols: object = PartialShape([-1]) if value is None else (
        sum(len(_bytes(v)) for v in np.ravel(value)),)
    return [(shape, Type.i32), (shape, Type.i32), (symbols, Type.u8)]  # type: ignore[list-item]


def _bytes(v: object) -> bytes:
    return v.encode() if isinstance(v, str) else bytes(v)  # type: ignore[call-overload]


def _unpack(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    strings = [_bytes(v) for v in np.ravel(xs[0])]
    ends = np.cumsum([len(b) for b in strings], dtype=np.int64)
    begins = ends - np.array([len(b) for b in strings], np.int64)
    shape = np.shape(xs[0])
    symbols = np.frombuffer(b"".join(strings), np.uint8).copy()
    return [begins.astype(np.int32).reshape(shape), ends.astype(np.int32).reshape(shape), symbols]


register("StringTensorUnpack", "opset15", _unpack_infer, _unpack)


def string_tensor_unpack(data: NodeInput, name: str | None = None) -> Node:
    """StringTensorUnpack-15: the strings' ``begins``, ``ends`` and the ``symbols`` bytes."""
    return make_node("StringTensorUnpack", [data], name=name)
