"""``openvino.utils.node_factory``: ``NodeFactory``, ops built by type name from arguments and
attributes (by their IR names), over ovlab's op registry.

As in OpenVINO, ``create(type_name)`` alone gives an empty node to complete with
``set_arguments`` and ``set_attribute`` before ``constructor_validate_and_infer_types()``; the
arguments may be Nodes (all their outputs, in order) or Outputs. ``add_extension`` takes
Python ``Extension`` objects (which add no op on ovlab: its kernels are NumPy's) and refuses
extension libraries, which ovlab cannot load.
"""

from __future__ import annotations

from functools import singledispatchmethod
from pathlib import Path
from typing import Any

from ..exceptions import UserInputError
from ..extension import Extension

DEFAULT_OPSET = "opset13"


class NodeFactory:
    """Factory front-end to create node objects (``NodeFactory("opset13").create("Add",
    [a, b], {"auto_broadcast": "numpy"})``)."""

    def __init__(self, opset_version: str = DEFAULT_OPSET) -> None:
        text = str(opset_version)
        number = text[len("opset"):] if text.startswith("opset") else ""
        if not number.isdigit() or not 1 <= int(number) <= 16:
            raise RuntimeError("Exception from src/bindings/python/src/pyopenvino/graph/"
                               "node_factory.cpp:49:\nUnsupported opset version requested.\n")
        self.opset = text
        self._extensions: list[Extension] = []

    def create(self, op_type_name: str, arguments: list[Any] | None = None,
               attributes: dict[str, Any] | None = None) -> Any:
        """The node of type ``op_type_name`` reading ``arguments`` (nodes or outputs), with
        ``attributes`` (IR names; those the op does not have are ignored, as in OpenVINO).
        Without arguments and attributes: an empty node, completed by the caller."""
        from ..sim.graph.node import Node
        from ..sim.graph.ops import REGISTRY, make_op_node

        if arguments is None and attributes is not None:
            raise UserInputError(f'Error: cannot create "{op_type_name}" op without arguments.')
        op = REGISTRY.get(op_type_name)
        if op is None:
            raise RuntimeError("Exception from src/bindings/python/src/pyopenvino/graph/"
                               f"node_factory.cpp:36:\nCouldn't create operation: "
                               f"{op_type_name}\n")
        known = {a.name: a for a in op.attrs}
        if arguments is None:
            defaults = {n: a.default for n, a in known.items() if _has_default(a)}
            return Node._empty(op, defaults)
        attrs = {k: v for k, v in (attributes or {}).items() if k in known}
        outputs = self._arguments_as_outputs(arguments)
        if op_type_name in ("Parameter", "Constant"):  # their classes take no inputs
            return _source_node(op_type_name, outputs)
        return make_op_node(op, outputs, attrs)

    @singledispatchmethod
    def add_extension(self, extension: Any) -> None:
        """Add operations from an extension: Python ``Extension`` objects (one or a list) are
        kept (they add no op on ovlab); a library path is refused (not simulated)."""
        raise TypeError(f"Unknown argument type: {type(extension)}")

    @add_extension.register(Path)
    @add_extension.register(str)
    def _(self, lib_path: Path | str) -> None:
        raise NotImplementedError(f"NodeFactory.add_extension({str(lib_path)!r}): ovlab cannot "
                                  "load custom-op extension libraries (its ops are NumPy "
                                  "kernels)")

    @add_extension.register(Extension)
    @add_extension.register(list)
    def _(self, extension: Extension | list[Extension]) -> None:
        given = extension if isinstance(extension, list) else [extension]
        for ext in given:
            if not isinstance(ext, Extension):
                raise TypeError(f"add_extension(): expected Extension objects, got {ext!r}")
        self._extensions.extend(given)

    @staticmethod
    def _arguments_as_outputs(arguments: list[Any]) -> list[Any]:
        """Outputs as given; a Node stands for all its outputs, in order."""
        from ..sim.graph.node import Output

        outputs = []
        for argument in arguments:
            if isinstance(argument, Output):
                outputs.append(argument)
            else:
                outputs.extend(argument.outputs())
        return outputs


def _has_default(attr: Any) -> bool:
    from ..sim.graph.attrs import REQUIRED

    return attr.default is not REQUIRED


def _source_node(type_name: str, outputs: list[Any]) -> Any:
    """A Parameter (or Constant) made by name: OpenVINO's factory builds it from the
    attributes and leaves it unconnected; ovlab gives it the first argument's type and shape."""
    from ..sim.graph.ops import Constant, Parameter

    if not outputs:
        raise RuntimeError(f"NodeFactory.create({type_name!r}): ovlab needs an argument to take "
                           "the element type and shape from")
    first = outputs[0]
    if type_name == "Parameter":
        return Parameter(list(first.get_shape()), first.get_element_type())
    import numpy as np

    return Constant(np.zeros(tuple(first.get_shape()), first.get_element_type().to_dtype()))


def _get_node_factory(opset_version: str | None = None) -> NodeFactory:
    """NodeFactory of ``opset_version`` (the default opset when None)."""
    return NodeFactory(opset_version) if opset_version else NodeFactory()
