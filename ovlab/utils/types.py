"""``openvino.utils.types``: NumPy <-> element type maps and small node helpers.

Samples call ``get_dtype(port.get_element_type())`` to allocate input arrays. The maps list
the same pairs as the real module (``bf16`` is stored in ``uint16``; strings map to ``str`` and
``bytes``), and a type that has no NumPy counterpart raises ``OVTypeError``.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from ..exceptions import OVTypeError
from ..sim.graph import Node, Output, Shape, Type
from ..sim.graph.ops import Constant

log = logging.getLogger(__name__)

TensorShape = list[int]

openvino_to_numpy_types_map = [
    (Type.boolean, bool), (Type.boolean, np.bool_),
    (Type.f16, np.float16), (Type.f32, np.float32), (Type.f64, np.float64),
    (Type.i8, np.int8), (Type.i16, np.int16), (Type.i32, np.int32), (Type.i64, np.int64),
    (Type.u8, np.uint8), (Type.u16, np.uint16), (Type.u32, np.uint32), (Type.u64, np.uint64),
    (Type.bf16, np.uint16),
    (Type.string, str), (Type.string, np.str_), (Type.string, bytes), (Type.string, np.bytes_),
]
openvino_to_numpy_types_str_map = [
    (t.get_type_name(), np_type) for t, np_type in openvino_to_numpy_types_map if t != Type.bf16]


def _python_number(data_type: Any, what: str) -> Any:
    if data_type is int:
        log.warning("Converting int type of undefined bitwidth to 32-bit ngraph integer.")
        return Type.i32 if what == "type" else "i32"
    if data_type is float:
        log.warning("Converting float type of undefined bitwidth to 32-bit ngraph float.")
        return Type.f32 if what == "type" else "f32"
    return None


def _element_type(data_type: Any, what: str, table: list) -> Any:
    found = _python_number(data_type, what)
    if found is None:
        found = next((t for t, np_type in table if np_type == data_type), None)
    if found is None:
        raise OVTypeError("Unidentified data type %s", data_type)
    return found


def get_element_type(data_type: Any) -> Type:
    """The element type of a Python type or NumPy dtype (``int`` -> i32, ``float`` -> f32)."""
    return _element_type(data_type, "type", openvino_to_numpy_types_map)


def get_element_type_str(data_type: Any) -> str:
    """The element type name (``"f32"``...) of a Python type or NumPy dtype."""
    return _element_type(data_type, "str", openvino_to_numpy_types_str_map)


def get_numpy_ctype(openvino_type: Type) -> type:
    """The NumPy scalar type of an element type."""
    found = next((np_type for t, np_type in openvino_to_numpy_types_map if t == openvino_type),
                 None)
    if found is None:
        raise OVTypeError("Unidentified data type %s", openvino_type)
    return found


def get_dtype(openvino_type: Type) -> np.dtype:
    """The NumPy dtype of an element type (what samples allocate their inputs with)."""
    return np.dtype(get_numpy_ctype(openvino_type))


def get_ndarray(data: Any) -> np.ndarray:
    """``data`` as an ndarray (an ndarray is returned as is)."""
    return data if isinstance(data, np.ndarray) else np.array(data)


def get_shape(data: Any) -> Any:
    """The shape of an array, ``[len]`` of a list, ``[]`` of a scalar."""
    if isinstance(data, np.ndarray):
        return data.shape
    if isinstance(data, list):
        return [len(data)]
    return []


def make_constant_node(value: Any, dtype: Any = None, *, name: str | None = None) -> Constant:
    """A Constant node holding ``value`` (converted to ``dtype`` if given)."""
    array = get_ndarray(value)
    if dtype is None:
        element_type = get_element_type(array.dtype)
    elif isinstance(dtype, (type, np.dtype)):
        element_type = get_element_type(dtype)
    else:
        element_type = dtype
    const = Constant(element_type, Shape(list(array.shape)), array.flatten().tolist())
    if name:
        const.friendly_name = name + "/" + const.friendly_name
    return const


def as_node(input_value: Any, name: str | None = None) -> Node | Output:
    """Nodes and outputs as they are; anything else as a Constant node."""
    if isinstance(input_value, (Node, Output)):
        return input_value
    return make_constant_node(input_value, name=name)


def as_nodes(*input_values: Any, name: str | None = None) -> list:
    """:func:`as_node` of each value."""
    return [as_node(v, name=name) for v in input_values]


__all__ = ["Constant", "Node", "OVTypeError", "Output", "Shape", "TensorShape", "Type",
           "as_node", "as_nodes", "get_dtype", "get_element_type", "get_element_type_str",
           "get_ndarray", "get_numpy_ctype", "get_shape", "log", "make_constant_node",
           "openvino_to_numpy_types_map", "openvino_to_numpy_types_str_map"]
