"""Builder functions with ``openvino.opset13``'s names, argument order and defaults.

A script written as ``import openvino.opset13 as ops`` runs unchanged with
``import ovlab.opset13 as ops``. Inputs may be nodes (meaning their output 0), ``Output`` ports,
or, where OpenVINO accepts them, numpy arrays and Python scalars, which become Constants with
numpy's dtype (so ``1.0`` is f64, as in OpenVINO, and mixing it with f32 is an error).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .node import Node, Output
from .ops import REGISTRY, Constant, Parameter, Result
from .types import as_type

__all__ = [
    "parameter", "constant", "result", "convolution", "group_convolution", "relu", "clamp",
    "sigmoid", "max_pool", "avg_pool", "lrn", "concat", "add", "subtract", "multiply", "divide",
    "matmul", "reshape", "transpose", "squeeze", "unsqueeze", "softmax", "convert",
    "fake_quantize", "reduce_mean",
]

NodeInput = Node | Output | np.ndarray | int | float | Sequence[Any]


def as_output(value: Any, owner: str | None = None) -> Output:
    """A node means its output 0; arrays and scalars become Constants (named
    ``<owner>/Constant_<n>`` inside a named op, as OpenVINO does)."""
    if isinstance(value, Output):
        return value
    if isinstance(value, Node):
        return value.output(0)
    arr = value if isinstance(value, np.ndarray) else np.array(value)
    const = Constant(arr, as_type(arr.dtype))
    if owner:
        const.set_friendly_name(f"{owner}/{const.get_name()}")
    return const.output(0)


def _make(type_name: str, inputs: Sequence[Any], attrs: dict[str, Any], name: str | None) -> Node:
    return Node(REGISTRY[type_name], [as_output(i, name) for i in inputs], attrs, name)


def _ints(value: Any, what: str, op: str) -> list[int]:
    try:
        return [int(v) for v in value]
    except (TypeError, ValueError):
        raise TypeError(f"{op}: {what} must be a list of integers, got {value!r}") from None


def _window_attrs(op: str, strides: Any, pads_begin: Any, pads_end: Any, dilations: Any,
                  auto_pad: str | None) -> dict[str, Any]:
    attrs = {"strides": _ints(strides, "strides", op), "pads_begin": _ints(pads_begin, "pads_begin", op),
             "pads_end": _ints(pads_end, "pads_end", op), "auto_pad": auto_pad}
    if dilations is not None:
        attrs["dilations"] = _ints(dilations, "dilations", op)
    return attrs


# --- inputs, constants, outputs ----------------------------------------------------------------
def parameter(shape: Sequence[int], dtype: Any = np.float32, name: str | None = None) -> Parameter:
    """A model input of a static ``shape`` and element type ``dtype``."""
    return Parameter(shape, as_type(dtype), name)


def constant(value: Any, dtype: Any = None, name: str | None = None, *,
             shared_memory: bool = False) -> Constant:
    """A Constant from an array or scalar (converted to ``dtype`` if given). The value is
    copied unless ``shared_memory=True`` and no conversion is needed; ovlab treats a shared
    array as read-only (results are cached per precision), so do not change it afterwards."""
    arr = value if isinstance(value, np.ndarray) else np.array(value)
    t = as_type(dtype) if dtype is not None else as_type(arr.dtype)
    return Constant(arr, t, name, shared=bool(shared_memory))


def result(data: NodeInput, name: str | None = None) -> Result:
    """A model output. As in OpenVINO, an output tensor without a name is named after its
    Result's friendly name when the Model is built."""
    return Result(REGISTRY["Result"], [as_output(data)], name=name)


# --- convolution and pooling ---------------------------------------------------------------------
def convolution(data: NodeInput, filters: NodeInput, strides: list[int], pads_begin: list[int],
                pads_end: list[int], dilations: list[int], auto_pad: str = "EXPLICIT",
                name: str | None = None) -> Node:
    """Convolution-1: data N,C,spatial...; filters O,C,k..."""
    return _make("Convolution", [data, filters],
                 _window_attrs("convolution", strides, pads_begin, pads_end, dilations, auto_pad), name)


def group_convolution(data: NodeInput, filters: NodeInput, strides: list[int],
                      pads_begin: list[int], pads_end: list[int], dilations: list[int],
                      auto_pad: str = "EXPLICIT", name: str | None = None) -> Node:
    """GroupConvolution-1: filters G,O/G,C/G,k..."""
    return _make("GroupConvolution", [data, filters],
                 _window_attrs("group_convolution", strides, pads_begin, pads_end, dilations,
                               auto_pad), name)


def max_pool(data: NodeInput, strides: list[int], dilations: list[int], pads_begin: list[int],
             pads_end: list[int], kernel_shape: list[int], rounding_type: str = "floor",
             auto_pad: str | None = None, index_element_type: str | None = "i64",
             axis: int | None = 0, name: str | None = None) -> Node:
    """MaxPool-8: two outputs, values (``output(0)``) and flat argmax indices (``output(1)``)."""
    attrs = _window_attrs("max_pool", strides, pads_begin, pads_end, dilations, auto_pad)
    attrs.update(kernel=_ints(kernel_shape, "kernel_shape", "max_pool"),
                 rounding_type=rounding_type,
                 index_element_type=as_type(index_element_type or "i64").get_type_name(),
                 axis=int(axis or 0))
    return _make("MaxPool", [data], attrs, name)


def avg_pool(data_batch: NodeInput, strides: list[int], pads_begin: list[int],
             pads_end: list[int], kernel_shape: list[int], exclude_pad: bool,
             rounding_type: str = "floor", auto_pad: str | None = None,
             name: str | None = None) -> Node:
    """AvgPool-1."""
    attrs = _window_attrs("avg_pool", strides, pads_begin, pads_end, None, auto_pad)
    attrs.update(kernel=_ints(kernel_shape, "kernel_shape", "avg_pool"),
                 exclude_pad=bool(exclude_pad), rounding_type=rounding_type)
    return _make("AvgPool", [data_batch], attrs, name)


def lrn(data: NodeInput, axes: NodeInput, alpha: float = 1, beta: float = 0.5, bias: float = 1,
        size: int = 5, name: str | None = None) -> Node:
    """LRN-1 (local response normalisation over ``axes``, e.g. ``[1]`` = across channels)."""
    return _make("LRN", [data, axes], {"alpha": float(alpha), "beta": float(beta),
                                       "bias": float(bias), "size": int(size)}, name)


# --- elementwise ---------------------------------------------------------------------------------
def relu(node: NodeInput, name: str | None = None) -> Node:
    return _make("Relu", [node], {}, name)


def sigmoid(data: NodeInput, name: str | None = None) -> Node:
    return _make("Sigmoid", [data], {}, name)


def clamp(data: NodeInput, min_value: float, max_value: float, name: str | None = None) -> Node:
    return _make("Clamp", [data], {"min": float(min_value), "max": float(max_value)}, name)


def add(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
        name: str | None = None) -> Node:
    return _make("Add", [left_node, right_node], {"auto_broadcast": auto_broadcast}, name)


def subtract(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
             name: str | None = None) -> Node:
    return _make("Subtract", [left_node, right_node], {"auto_broadcast": auto_broadcast}, name)


def multiply(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
             name: str | None = None) -> Node:
    return _make("Multiply", [left_node, right_node], {"auto_broadcast": auto_broadcast}, name)


def divide(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
           name: str | None = None) -> Node:
    return _make("Divide", [left_node, right_node], {"auto_broadcast": auto_broadcast}, name)


def convert(data: NodeInput, destination_type: Any, name: str | None = None) -> Node:
    return _make("Convert", [data], {"destination_type": as_type(destination_type)}, name)


def fake_quantize(data: NodeInput, input_low: NodeInput, input_high: NodeInput,
                  output_low: NodeInput, output_high: NodeInput, levels: int,
                  auto_broadcast: str = "NUMPY", name: str | None = None) -> Node:
    """FakeQuantize-0: what POT/NNCF put before convolutions to mark INT8 execution."""
    return _make("FakeQuantize", [data, input_low, input_high, output_low, output_high],
                 {"levels": int(levels), "auto_broadcast": auto_broadcast}, name)


# --- linear algebra, shapes, normalisation ------------------------------------------------------
def matmul(data_a: NodeInput, data_b: NodeInput, transpose_a: bool, transpose_b: bool,
           name: str | None = None) -> Node:
    return _make("MatMul", [data_a, data_b], {"transpose_a": bool(transpose_a),
                                              "transpose_b": bool(transpose_b)}, name)


def _shape_const(value: Any) -> Any:
    if isinstance(value, (Node, Output, np.ndarray)):
        return value
    return np.array(value, dtype=np.int64)


def reshape(node: NodeInput, output_shape: NodeInput, special_zero: bool,
            name: str | None = None) -> Node:
    """Reshape-1; with ``special_zero=True`` a 0 keeps the input's dim (``[0, -1]`` flattens
    while keeping the batch, which keeps a model batchable)."""
    return _make("Reshape", [node, _shape_const(output_shape)],
                 {"special_zero": bool(special_zero)}, name)


def transpose(data: NodeInput, input_order: NodeInput, name: str | None = None) -> Node:
    return _make("Transpose", [data, _shape_const(input_order)], {}, name)


def squeeze(data: NodeInput, axes: NodeInput, name: str | None = None) -> Node:
    return _make("Squeeze", [data, _shape_const(axes)], {}, name)


def unsqueeze(data: NodeInput, axes: NodeInput, name: str | None = None) -> Node:
    return _make("Unsqueeze", [data, _shape_const(axes)], {}, name)


def concat(nodes: list[NodeInput], axis: int, name: str | None = None) -> Node:
    return _make("Concat", list(nodes), {"axis": int(axis)}, name)


def softmax(data: NodeInput, axis: int, name: str | None = None) -> Node:
    """Softmax-8 (negative ``axis`` counts from the end)."""
    return _make("Softmax", [data], {"axis": int(axis)}, name)


def reduce_mean(node: NodeInput, reduction_axes: NodeInput, keep_dims: bool = False,
                name: str | None = None) -> Node:
    return _make("ReduceMean", [node, _shape_const(reduction_axes)],
                 {"keep_dims": bool(keep_dims)}, name)



