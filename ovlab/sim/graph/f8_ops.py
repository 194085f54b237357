"""FakeConvert-13: what a value becomes after a round trip through an 8-bit float.

``(to_f8(data * scale - shift) + shift) / scale`` in the input's type, with f8e4m3 (3 mantissa
bits, largest 448) or f8e5m2 (2 bits, largest 57344): values are rounded to the nearest f8
value (ties to even, subnormals kept) and saturated at the largest one, as OpenVINO's
reference and CPU kernels do (measured on the 2026.4.1 wheel: 1999.5 in f8e4m3 gives 448).
"""

from __future__ import annotations

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import REGISTRY, NodeInput, as_output, broadcast, need, numel, op_attrs, register

__all__ = ["FakeConvert", "fake_convert", "round_to_f8"]

#: destination type -> (mantissa bits, smallest normal exponent, largest finite value)
F8 = {"f8e4m3": (3, -6, 448.0), "f8e5m2": (2, -14, 57344.0)}


def round_to_f8(x: np.ndarray, destination_type: str) -> np.ndarray:
    """``x`` rounded to the values of an 8-bit float type, saturated, in float32."""
    bits, min_exp, largest = F8[destination_type]
    x = np.asarray(x, dtype=np.float32)
    mag = np.abs(x)
    with np.errstate(divide="ignore"):
        exp = np.floor(np.log2(np.where(mag > 0, mag, 1.0)))
    step = np.exp2(np.maximum(exp, min_exp) - bits).astype(np.float32)
    r = np.round(x / step) * step  # np.round: half to even, as the hardware conversion
    return np.where(np.isnan(x), x, np.clip(r, -largest, largest)).astype(np.float32)


def _fc_infer(node: Node) -> list[ShapeType]:
    t = node._in_type(0)
    need(t.get_type_name() in ("bf16", "f16", "f32"),
         f"The element type of the input tensor must be a bf16, f16, f32 but got: {t.get_type_name()}")
    need(all(node._in_type(i) == t for i in range(1, len(node._inputs))),
         "Mixed input types are not supported.")
    dest = node._attrs["destination_type"]
    need(dest in F8, f"Bad format for f8 conversion type: {dest}")
    data, scale = node._in_shape(0), node._in_shape(1)
    if len(node._inputs) > 2:
        need(node._in_shape(2) == scale, "FakeConvert scale shape is not compatible with shift "
             "shape.")
    broadcast(data, scale, "NUMPY")
    return [(data, t)]


def _fc(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    data = xs[0].astype(np.float32)
    scale = xs[1].astype(np.float32)
    shift = xs[2].astype(np.float32) if len(xs) > 2 else np.float32(0)
    f8 = round_to_f8(data * scale - shift, node._attrs["destination_type"])
    return [((f8 + shift) / scale).astype(xs[0].dtype)]


register("FakeConvert", "opset13", _fc_infer, _fc, lambda n: 4.0 * numel(n._in_shape(0)),
         attrs=[Attr("destination_type", "str", "f8e4m3")])


def fake_convert(data: NodeInput, scale: NodeInput, shift: NodeInput | None = None,
                 destination_type: str = "f8e4m3", name: str | None = None) -> Node:
    """FakeConvert-13: ``data`` as it reads after conversion to ``destination_type`` (an f8
    type) under ``scale`` and ``shift``."""
    inputs = [data, scale] + ([shift] if shift is not None else [])
    node = FakeConvert.__new__(FakeConvert)
    op = REGISTRY["FakeConvert"]
    Node.__init__(node, op, [as_output(i, name) for i in inputs],
                  op_attrs(op, {"destination_type": destination_type}), name)
    return node


class FakeConvert(Node):
    """A FakeConvert-13 node: the wheel's node of this type also answers
    ``get_destination_type()``."""

    def get_destination_type(self) -> str:
        return self._attrs["destination_type"]
