"""``openvino.op.util``: the variable objects of stateful models.

``VariableInfo`` (shape, element type, id) and ``Variable`` name the state a ReadValue reads and
an Assign writes; ``ovlab.opset.read_value``/``assign`` take a Variable where they take an id,
and ``Model.add_variables`` records them. The rest of the real module (the base classes of C++
ops) is served as stand-ins by the runner.
"""

from __future__ import annotations

from typing import Any

from ..graph.types import PartialShape, Type, as_type


class VariableInfo:
    """What a variable holds: ``data_shape``, ``data_type``, ``variable_id``."""

    def __init__(self) -> None:
        self._shape = PartialShape([])
        self._type = Type.dynamic
        self.variable_id = ""

    @property
    def data_shape(self) -> PartialShape:
        return self._shape

    @data_shape.setter
    def data_shape(self, shape: Any) -> None:
        self._shape = PartialShape(shape)

    @property
    def data_type(self) -> Type:
        return self._type

    @data_type.setter
    def data_type(self, element_type: Any) -> None:
        self._type = as_type(element_type)

    def __repr__(self) -> str:
        return (f"<VariableInfo: '{self.variable_id}' {self._shape} "
                f"{self._type.get_type_name()}>")


class Variable:
    """A model's variable, made from a VariableInfo (``get_info``, ``update``)."""

    def __init__(self, info: VariableInfo) -> None:
        self._info = _copy(info)

    def get_info(self) -> VariableInfo:
        return _copy(self._info)

    @property
    def info(self) -> VariableInfo:
        return self.get_info()

    def update(self, variable_info: VariableInfo) -> None:
        self._info = _copy(variable_info)

    def __repr__(self) -> str:
        return f"<Variable: '{self._info.variable_id}'>"


def _copy(info: VariableInfo) -> VariableInfo:
    out = VariableInfo()
    out.data_shape, out.data_type, out.variable_id = info.data_shape, info.data_type, \
        info.variable_id
    return out


__all__ = ["Variable", "VariableInfo"]
