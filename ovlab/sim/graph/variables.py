"""``VariableInfo`` and ``Variable``: the state a stateful model's ReadValue and Assign share
(``openvino.op.util``). A ReadValue or Assign can be built from a Variable instead of an id,
type and shape, and a Model lists its variables (``get_variables``)."""

from __future__ import annotations

from typing import Any

from .types import PartialShape, Type, as_type

__all__ = ["Variable", "VariableInfo"]


class VariableInfo:
    """A variable's id, element type and shape (empty, dynamic and '' until set)."""

    __slots__ = ("_shape", "_type", "variable_id")

    def __init__(self) -> None:
        self._shape = PartialShape([])
        self._type = Type.dynamic
        self.variable_id = ""

    @property
    def data_shape(self) -> PartialShape:
        return self._shape

    @data_shape.setter
    def data_shape(self, shape: Any) -> None:
        self._shape = shape if isinstance(shape, PartialShape) else PartialShape(shape)

    @property
    def data_type(self) -> Type:
        return self._type

    @data_type.setter
    def data_type(self, t: Any) -> None:
        self._type = as_type(t)


class Variable:
    """A variable of a stateful model, described by a :class:`VariableInfo`."""

    __slots__ = ("_info",)

    def __init__(self, info: VariableInfo) -> None:
        self._info = info

    @property
    def info(self) -> VariableInfo:
        return self._info

    def get_info(self) -> VariableInfo:
        return self._info

    def update(self, variable_info: VariableInfo) -> None:
        self._info = variable_info

    def __repr__(self) -> str:
        return "<Variable>"


def variable_of(variable_id: str, variable_type: Any, variable_shape: Any) -> Variable:
    """A Variable describing what a ReadValue or Assign was built with."""
    info = VariableInfo()
    info.variable_id = variable_id or ""
    if variable_type is not None:
        info.data_type = variable_type
    if variable_shape is not None:
        info.data_shape = PartialShape(list(variable_shape))
    return Variable(info)
