"""ReadValue and Assign: the ops of stateful models (a variable read, then written back).

A variable's value lives with the inference request, not the model: the runtime binds the
request's ``{variable_id: array}`` around each evaluation (:func:`bound`), ReadValue reads the
bound value (its init input until the variable is first written or after a reset), and Assign
writes its input there. Outside a request (constant folding, plain ``Model._evaluate``) nothing
is bound: ReadValue gives its init value and Assign writes nowhere.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from typing import Any

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import REGISTRY, Ctx, NodeInput, as_output, op_attrs, register
from .types import Type, as_type
from .variables import Variable

__all__ = ["assign", "read_value"]

STATEFUL_OPS = frozenset({"ReadValue", "Assign"})
_VARIABLES: ContextVar[dict[str, np.ndarray] | None] = ContextVar("ovlab_variables",
                                                                   default=None)


@contextlib.contextmanager
def bound(variables: dict[str, np.ndarray] | None) -> Iterator[None]:
    """Evaluate with ``variables`` as the request's variable values."""
    token = _VARIABLES.set(variables)
    try:
        yield
    finally:
        _VARIABLES.reset(token)


def _read_infer(node: Node) -> list[ShapeType]:
    t = node._attrs["variable_type"]
    shape = node._attrs["variable_shape"]
    if node._inputs:
        in_shape, in_type = node._in_shape(0), node._in_type(0)
        t = in_type if t in (None, Type.dynamic) else t
        shape = tuple(in_shape) if not shape else tuple(shape)
    return [(tuple(int(d) for d in shape), t)]


def _read_compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    values = _VARIABLES.get()
    vid = node._attrs["variable_id"]
    if values is not None and vid in values:
        return [values[vid].copy()]  # a copy: later ops may write into their input
    if xs:
        return [np.array(xs[0], copy=True)]
    return [np.zeros(node._out_shapes[0], dtype=np.float32)]


def _assign_infer(node: Node) -> list[ShapeType]:
    if not node._inputs:  # assign(): an Assign not connected yet, as the wheel can make
        return []
    return [(node._in_shape(0), node._in_type(0))]


def _assign_compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    values = _VARIABLES.get()
    if values is not None:
        values[node._attrs["variable_id"]] = np.array(xs[0], copy=True)
    return [xs[0]]


register("ReadValue", "opset6", _read_infer, _read_compute,
         attrs=[Attr("variable_id", "str"), Attr("variable_type", "type", Type.dynamic),
                Attr("variable_shape", "ints", ())])
register("Assign", "opset6", _assign_infer, _assign_compute, attrs=[Attr("variable_id", "str")])


def read_value(init_value: NodeInput | str | None = None, variable_id: str | None = None,
               variable_type: Any = None, variable_shape: Sequence[int] | None = None,
               name: str | None = None, *, ov_variable: Variable | None = None) -> Node:
    """ReadValue-6: the variable's value, ``init_value`` until it is first assigned or reset.
    ``read_value(variable_id, variable_type, variable_shape)`` makes one without an init;
    ``read_value(init_value=..., ov_variable=variable)`` and ``read_value(variable)`` read a
    Variable (the wheel's overloads; other argument types match none of them)."""
    if ov_variable is not None:
        if init_value is None:
            init_value, variable_id = ov_variable, name
            name = None
        else:
            variable_id = ov_variable
    inputs: list[Any] = [init_value]
    if isinstance(init_value, Variable):  # read_value(variable[, name])
        init_value, variable_id, name = None, init_value, variable_id
        inputs = []
    if isinstance(variable_id, Variable):  # read_value(init_value, variable[, name])
        info = variable_id.info
        variable_id, variable_type, variable_shape = (
            info.variable_id, info.data_type, None if info.data_shape.is_dynamic
            else list(info.data_shape.to_shape()))
    if isinstance(init_value, str):  # read_value(variable_id, type, shape[, name])
        inputs, variable_id, variable_type, variable_shape, name = (
            [], init_value, variable_id, variable_type, variable_shape)
    # checked once the string overload has put its arguments in place: its shape is the third
    # positional argument, where the other overloads take the type
    if variable_type is not None and not isinstance(variable_type, (str, Type, type, np.dtype)):
        raise TypeError("The necessary overload for read_value was not found")
    attrs = {"variable_id": variable_id,
             "variable_type": as_type(variable_type) if variable_type is not None else None,
             "variable_shape": list(variable_shape) if variable_shape is not None else None}
    return ReadValue._build(inputs, attrs, name)


class ReadValue(Node):
    """A ReadValue-6 node: the variable's value, ``new_value`` until it is first assigned or
    reset. The class is the wheel's ``openvino.op.read_value``: ``read_value(new_value,
    variable)``, ``read_value(variable)`` or ``read_value()``, a ReadValue with no input and no
    variable yet (the opsets' ``read_value`` builder takes variable ids, types and shapes)."""

    def __init__(self, new_value: NodeInput | Variable | None = None,
                 variable: Variable | None = None) -> None:
        if isinstance(new_value, Variable) and variable is None:  # read_value(variable)
            new_value, variable = None, new_value
        attrs: dict[str, Any] = {"variable_id": ""}
        if variable is not None:
            info = variable.info
            attrs = {"variable_id": info.variable_id, "variable_type": info.data_type,
                     "variable_shape": None if info.data_shape.is_dynamic
                     else list(info.data_shape.to_shape())}
        op = REGISTRY["ReadValue"]
        super().__init__(op, [] if new_value is None else [as_output(new_value)],
                         op_attrs(op, attrs))

    @classmethod
    def _build(cls, inputs: list[Any], attrs: dict[str, Any], name: str | None) -> ReadValue:
        node = cls.__new__(cls)
        op = REGISTRY["ReadValue"]
        Node.__init__(node, op, [as_output(i, name) for i in inputs], op_attrs(op, attrs), name)
        return node

    def get_variable_id(self) -> str:
        return self._attrs["variable_id"]


class Assign(Node):
    """An Assign-6 node: writes ``new_value`` into the variable (a sink of the model). The
    class is the wheel's ``openvino.op.assign``, which ``openvino.opset6``-``opset16`` serve as
    ``assign``: ``assign(new_value, variable_id)``, ``assign(new_value, variable)`` or
    ``assign()``, an Assign with no input and no variable yet."""

    def __init__(self, new_value: NodeInput | None = None,
                 variable_id: str | Variable | None = None, name: str | None = "", *,
                 variable: Variable | None = None) -> None:
        if variable is not None:
            variable_id = variable
        if isinstance(variable_id, Variable):
            variable_id = variable_id.info.variable_id
        op = REGISTRY["Assign"]
        attrs = op_attrs(op, {"variable_id": "" if new_value is None and variable_id is None
                              else variable_id})
        super().__init__(op, [] if new_value is None else [as_output(new_value, name)], attrs,
                         name or None)

    def get_variable_id(self) -> str:
        return self._attrs["variable_id"]


def assign(new_value: NodeInput | None = None, variable_id: str | Variable | None = None,
           name: str | None = None) -> Node:
    """Assign-6: write ``new_value`` into the variable (a sink of the model). ``assign()``
    makes one with no input and no variable yet, as the wheel does."""
    return Assign(new_value, variable_id, name)
