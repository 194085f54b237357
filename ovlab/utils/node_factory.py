"""``openvino.utils.node_factory``: ``NodeFactory``, ops built by type name from arguments and
attributes (by their IR names), over ovlab's op registry."""

from __future__ import annotations

from typing import Any

from ..exceptions import UserInputError

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

    def create(self, op_type_name: str, arguments: list[Any] | None = None,
               attributes: dict[str, Any] | None = None) -> Any:
        """The node of type ``op_type_name`` reading ``arguments`` (nodes or outputs), with
        ``attributes`` (IR names; those the op does not have are ignored, as in OpenVINO)."""
        from ..sim.graph.ops import REGISTRY, make_op_node

        if arguments is None and attributes is not None:
            raise UserInputError(f'Error: cannot create "{op_type_name}" op without arguments.')
        op = REGISTRY.get(op_type_name)
        if op is None:
            raise RuntimeError("Exception from src/bindings/python/src/pyopenvino/graph/"
                               f"node_factory.cpp:36:\nCouldn't create operation: "
                               f"{op_type_name}\n")
        if arguments is None:
            raise NotImplementedError(
                f'NodeFactory.create("{op_type_name}") without arguments: ovlab builds a node '
                "from its inputs (pass the arguments)")
        known = {a.name for a in op.attrs}
        attrs = {k: v for k, v in (attributes or {}).items() if k in known}
        return make_op_node(op, list(arguments), attrs)

    def add_extension(self, extension: Any) -> None:
        raise NotImplementedError("NodeFactory.add_extension: ovlab cannot load custom-op "
                                  "extensions")
