"""Nodes and their ports: the pieces an ``openvino.Model`` is made of.

A ``Node`` is one operation instance; its behaviour (shape inference, NumPy kernel, FLOP count)
lives in an ``OpDef`` shared by every node of that type, so adding an op means writing one
``OpDef`` in ``ops.py`` rather than a class. Ports (``Output``/``Input``) are small handles
created on demand, as in OpenVINO, and compare equal when they name the same port.
"""

from __future__ import annotations

import itertools
import weakref
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from . import dynamic
from .attrs import Attr, choice
from .rt_map import RTMap
from .types import PartialShape, Shape, Type, shape_str

__all__ = ["Node", "Output", "ConstOutput", "Input", "OpDef", "NodeValidationError", "ShapeError",
           "TensorDescriptor"]

_ids = itertools.count(1)

# Builds a node of a registered op by name, for ``a + b`` and friends. ``ops.py``, which
# subclasses Node for Parameter and Constant, plugs its ``make_node`` in when it loads (as the
# Core gets its plugins), so this module does not import it back.
_builder: Callable[[str, list[Any]], Node] | None = None


def set_builder(make_node: Callable[[str, list[Any]], Node]) -> None:
    """Called once by ``ops.py``: the function ``Node``'s arithmetic builds its ops with."""
    global _builder
    _builder = make_node

ShapeType = tuple[tuple[int, ...], Type]


#: how many edits of the graph's edges there have been (any model): a Model re-sorts its ops
#: when the count has moved since it last did (replace_node, Output.replace, set_argument)
EDITS = [0]

def _static_shape(shape: Any) -> Shape:
    """A port's static shape; a dynamic one raises as ``descriptor::Tensor::get_shape`` does."""
    if isinstance(shape, PartialShape):
        return shape.to_shape()  # raises OpenVINO's "to_shape was called on a dynamic shape."
    return Shape(shape)


class NodeValidationError(RuntimeError, ValueError):
    """A node (or model) is malformed: wrong rank, bad attribute, broken graph.

    It is a ``RuntimeError`` like every error OpenVINO raises from C++, and also a
    ``ValueError`` because the cause is always a bad argument; the message names the op.
    """


class ShapeError(Exception):
    """Raised by shape-inference code; ``Node`` wraps it into ``NodeValidationError``."""


@dataclass(frozen=True)
class OpDef:
    """What every node of one OpenVINO op type shares.

    ``infer(node)`` returns ``[(shape, Type), ...]`` per output from the node's inputs and
    attributes. ``compute(node, arrays)`` runs the NumPy kernel on float32 (or integer) arrays.
    ``flops(node)`` counts floating-point operations at the node's current shapes. ``view`` ops
    (Reshape, Transpose ...) only relabel data, so they cost no time and never change values.
    ``inplace`` ops may write their result into input 0's buffer when nothing else reads it.
    ``attrs`` describes the attributes under their IR names (see ``attrs.py``). ``batch(node)``
    says why the op mixes the samples of axis 0 (a Softmax over axis 0, a reduction over it),
    or None when sample i of the output depends only on sample i of the inputs, which is what
    BATCH and HETERO need to run a model at another batch size (``live[i]``: input i depends
    on a model input). ``shape_only`` ops (ShapeOf) compute from input shapes alone, so they
    fold to constants.
    """

    type_name: str
    version: str
    infer: Callable[[Node], list[ShapeType]]
    compute: Callable[[Node, list[np.ndarray]], list[np.ndarray]] | None = None
    flops: Callable[[Node], float] = lambda node: 0.0
    view: bool = False
    inplace: bool = False
    attrs: tuple[Attr, ...] = ()
    batch: Callable[[Node, Sequence[bool]], str | None] | None = None
    shape_only: bool = False

    def attr(self, name: str) -> Attr:
        """The description of attribute ``name`` (``KeyError`` if the op has none such)."""
        for a in self.attrs:
            if a.name == name:
                return a
        raise KeyError(f"{self.type_name} has no attribute {name!r}")


class TypeInfo:
    """What ``node.get_type_info()`` returns: the op's name and opset (``openvino.
    DiscreteTypeInfo``; a custom op's class builds one from its own name and version)."""

    def __init__(self, name: str, version_id: str) -> None:
        if not isinstance(name, str) or not isinstance(version_id, str):
            raise TypeError(
                "__init__(): incompatible constructor arguments. The following argument types "
                "are supported:\n    1. openvino._pyopenvino.DiscreteTypeInfo(name: str, "
                f"version_id: str)\n\nInvoked with: {name!r}, {version_id!r}")
        self.name, self.version_id = name, version_id
        # the C++ base class (e.g. UnaryElementwiseArithmetic): ovlab's ops have no class tree
        self._parent: TypeInfo | None = None

    @property
    def parent(self) -> TypeInfo | None:
        return self._parent

    def hash(self) -> int:
        """A number that names the pair (name, version_id), the same in every process (the
        binding's hash of the C++ type info; ovlab's is its own, stable across runs)."""
        return zlib.crc32(f"{self.name}\0{self.version_id}".encode())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TypeInfo):
            return NotImplemented
        return (self.name, self.version_id) == (other.name, other.version_id)

    def __hash__(self) -> int:
        return hash((self.name, self.version_id))

    def _key(self, other: object) -> tuple[tuple[str, str], tuple[str, str]]:
        if not isinstance(other, TypeInfo):
            raise TypeError(f"'<' not supported between 'DiscreteTypeInfo' and "
                            f"'{type(other).__name__}'")
        return (self.name, self.version_id), (other.name, other.version_id)

    def __lt__(self, other: object) -> bool:
        a, b = self._key(other)
        return a < b

    def __le__(self, other: object) -> bool:
        a, b = self._key(other)
        return a <= b

    def __gt__(self, other: object) -> bool:
        a, b = self._key(other)
        return a > b

    def __ge__(self, other: object) -> bool:
        a, b = self._key(other)
        return a >= b

    def __repr__(self) -> str:
        return f"<DiscreteTypeInfo: {self.name} {self.version_id}>"


class Output:
    """An output port of a node (what builders take as inputs and what ``model.outputs`` lists)."""

    __slots__ = ("_node", "_index", "__dict__")  # __dict__: scripts may tag a port

    def __init__(self, node: Node, index: int) -> None:
        self._node, self._index = node, index

    @classmethod
    def _from_node(cls, node: Node) -> Output:
        """The node's first output (``Output._from_node(node)``)."""
        return cls(node, 0)

    def get_node(self) -> Node:
        return self._node

    @property
    def node(self) -> Node:
        return self._node

    def get_index(self) -> int:
        return self._index

    @property
    def index(self) -> int:
        return self._index

    def get_shape(self) -> Shape:
        return _static_shape(self._node._out_shapes[self._index])

    @property
    def shape(self) -> Shape:
        return self.get_shape()

    def get_partial_shape(self) -> PartialShape:
        return PartialShape(self._node._out_shapes[self._index])

    @property
    def partial_shape(self) -> PartialShape:
        return self.get_partial_shape()

    def get_element_type(self) -> Type:
        return self._node._out_types[self._index]

    @property
    def element_type(self) -> Type:
        return self.get_element_type()

    def get_names(self) -> set[str]:
        return set(self._node._out_names[self._index])

    @property
    def names(self) -> set[str]:
        return self.get_names()

    def get_any_name(self) -> str:
        """One tensor name (the smallest, so it is the same on every run)."""
        names = self._node._out_names[self._index]
        if not names:
            raise RuntimeError("Attempt to get a name for a Tensor without names "
                               f"(output {self._index} of {self._node._describe()})")
        return min(names)

    @property
    def any_name(self) -> str:
        return self.get_any_name()

    def set_names(self, names: set[str]) -> None:
        self._node._out_names[self._index] = set(names)

    def add_names(self, names: set[str]) -> None:
        self._node._out_names[self._index] |= set(names)

    def get_tensor(self) -> TensorDescriptor:
        """The tensor this port produces: its names (``get_tensor().set_names({...})``)."""
        return TensorDescriptor(self)

    @property
    def tensor(self) -> TensorDescriptor:
        return self.get_tensor()

    def get_target_inputs(self) -> set[Input]:
        """The input ports (of live nodes) that read this output."""
        out = set()
        for ref, i in self._node._targets[self._index]:
            consumer = ref()
            if consumer is not None:
                out.add(Input(consumer, i))
        return out

    def remove_target_input(self, target_input: Input) -> None:
        """Forget that ``target_input`` reads this output (the input itself is not changed)."""
        self._node._targets[self._index] = [
            (ref, i) for ref, i in self._node._targets[self._index]
            if not (ref() is target_input._node and i == target_input._index)]

    def get_rt_info(self) -> RTMap:
        return RTMap(self._node._out_rt_info.setdefault(self._index, {}))

    @property
    def rt_info(self) -> RTMap:
        return self.get_rt_info()

    def replace(self, replacement: Output) -> None:
        """Make every input that reads this output read ``replacement`` instead; the tensor
        names move with them (``Output::replace``)."""
        EDITS[0] += 1
        new = replacement
        for ref, i in list(self._node._targets[self._index]):
            consumer = ref()
            if consumer is None or consumer is new._node:
                continue
            consumer._inputs[i] = Output(new._node, new._index)
            new._node._targets[new._index].append((ref, i))
        self._node._targets[self._index] = [
            (ref, i) for ref, i in self._node._targets[self._index]
            if ref() is not None and ref() is new._node]
        new.add_names(self.get_names())

    def set_rt_info(self, value: Any, key: str) -> None:
        self.get_rt_info()[key] = value

    @property
    def target_inputs(self) -> set[Input]:
        return self.get_target_inputs()

    def _key(self) -> tuple[int, int]:
        return (id(self._node), self._index)

    # ordered by node, then index, as OpenVINO orders ports (so outputs can key sorted maps)
    def __lt__(self, other: Output) -> bool:
        return self._key() < other._key()

    def __le__(self, other: Output) -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: Output) -> bool:
        return self._key() > other._key()

    def __ge__(self, other: Output) -> bool:
        return self._key() >= other._key()

    def __copy__(self) -> Output:
        return type(self)(self._node, self._index)

    def __deepcopy__(self, memo: dict) -> Output:
        raise TypeError(f"Cannot deepcopy 'openvino.{type(self).__name__}' object.")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Output) and other._node is self._node and other._index == self._index

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        names = ", ".join(sorted(self._node._out_names[self._index]))
        return (f"<{type(self).__name__}: names[{names}] "
                f"shape{shape_str(self._node._out_shapes[self._index])} "
                f"type: {self.get_element_type().get_type_name()}>")


class ConstOutput(Output):
    """openvino.ConstOutput represents port/node output."""

    __slots__ = ()


class TensorDescriptor:
    """The tensor behind an output port (``openvino.descriptor.Tensor``): its names."""

    __slots__ = ("_port",)

    def __init__(self, port: Output) -> None:
        self._port = port

    def get_names(self) -> set[str]:
        return self._port.get_names()

    @property
    def names(self) -> set[str]:
        return self.get_names()

    @names.setter
    def names(self, names: set[str]) -> None:
        self.set_names(names)

    def set_names(self, names: set[str]) -> None:
        self._port.set_names(names)

    def add_names(self, names: set[str]) -> None:
        self._port.add_names(names)

    def get_any_name(self) -> str:
        return self._port.get_any_name()

    # value bounds and value symbols: recorded on the port (ovlab models are static, so shape
    # inference does not read them)
    def _meta(self) -> dict[str, Any]:
        return self._port._node._out_rt_info.setdefault(("tensor", self._port._index), {})

    def set_lower_value(self, value: Any) -> None:
        self._meta()["lower"] = value

    def get_lower_value(self) -> Any:
        return self._meta().get("lower")

    def set_upper_value(self, value: Any) -> None:
        self._meta()["upper"] = value

    def get_upper_value(self) -> Any:
        return self._meta().get("upper")

    def set_value_symbol(self, value: list) -> None:
        self._meta()["symbols"] = list(value)

    def get_value_symbol(self) -> list:
        return list(self._meta().get("symbols", []))

    def get_rt_info(self) -> RTMap:
        return self._port.get_rt_info()

    @property
    def rt_info(self) -> RTMap:
        return self._port.get_rt_info()

    @property
    def any_name(self) -> str:
        return self.get_any_name()

    def get_shape(self) -> Shape:
        return self._port.get_shape()

    def get_element_type(self) -> Type:
        return self._port.get_element_type()

    def get_partial_shape(self) -> PartialShape:
        return self._port.get_partial_shape()

    def get_size(self) -> int:
        """Bytes the tensor takes (``descriptor::Tensor::size``)."""
        dims = [int(d) for d in self.get_shape()]
        count = 1
        for d in dims:
            count *= d
        return (count * self.get_element_type().bitwidth + 7) // 8

    element_type = property(get_element_type)
    partial_shape = property(get_partial_shape)
    shape = property(get_shape)
    size = property(get_size)

    def __repr__(self) -> str:
        return f"<Tensor: names[{', '.join(sorted(self.get_names()))}]>"


class Input:
    """openvino.Input wraps ov::Input<Node>"""  # the wheel's text: an input port of a node

    __slots__ = ("_node", "_index")

    def __init__(self, node: Node, index: int) -> None:
        self._node, self._index = node, index

    def get_node(self) -> Node:
        return self._node

    def get_index(self) -> int:
        return self._index

    def get_source_output(self) -> Output:
        return self._node._inputs[self._index]

    def get_shape(self) -> Shape:
        return self.get_source_output().get_shape()

    def get_partial_shape(self) -> PartialShape:
        return self.get_source_output().get_partial_shape()

    def get_element_type(self) -> Type:
        return self.get_source_output().get_element_type()

    def get_tensor(self) -> TensorDescriptor:
        """The tensor this input reads (its source output's)."""
        return self.get_source_output().get_tensor()

    def get_rt_info(self) -> RTMap:
        return RTMap(self._node._in_rt_info.setdefault(self._index, {}))

    @property
    def rt_info(self) -> RTMap:
        return self.get_rt_info()

    def set_rt_info(self, value: Any, key: str) -> None:
        self.get_rt_info()[key] = value

    def replace_source_output(self, new_source_output: Output) -> None:
        """Read ``new_source_output`` instead (the node re-infers its outputs)."""
        self._node.set_argument(self._index, new_source_output)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Input) and other._node is self._node and other._index == self._index

    def __hash__(self) -> int:
        return hash((id(self._node), self._index))

    def __repr__(self) -> str:
        src = self.get_source_output()
        return f"<Input: shape{shape_str(src.get_shape())} type: {src.get_element_type().get_type_name()}>"


class Named:
    """A unique ``_name`` and a friendly name defaulting to it (nodes and models alike)."""

    _name: str
    _friendly_name: str | None

    def get_friendly_name(self) -> str:
        return self._friendly_name or self._name

    def set_friendly_name(self, name: str) -> None:
        self._friendly_name = str(name)

    @property
    def friendly_name(self) -> str:
        return self.get_friendly_name()

    @friendly_name.setter
    def friendly_name(self, name: str) -> None:
        self.set_friendly_name(name)


class Node(Named):
    """One operation in a graph (``openvino.Node``).

    Shapes and element types are inferred when the node is built, so a bad argument fails at
    the line that made it, with a message naming the op. ``attrs`` holds the op's attributes
    (strides, axis, the value of a Constant ...) under OpenVINO's attribute names.
    """

    #: True for a node made without its inputs (``NodeFactory().create("TopK")``): its
    #: arguments and attributes are set one by one, and nothing is inferred until
    #: ``constructor_validate_and_infer_types()``
    _unvalidated = False

    @classmethod
    def _empty(cls, op: OpDef, attrs: dict[str, Any]) -> Node:
        """A node of ``op`` with no inputs and no outputs yet, to be completed with
        ``set_arguments`` / ``set_attribute`` and validated afterwards, as OpenVINO's
        ``NodeFactory.create(type_name)`` leaves it."""
        node = cls.__new__(cls)
        node._op = op
        node._name = f"{op.type_name}_{next(_ids)}"
        node._friendly_name = None
        node._inputs, node._attrs = [], dict(attrs)
        node._rt_info, node._out_rt_info, node._in_rt_info = {}, {}, {}
        node._out_shapes, node._out_types, node._out_names, node._targets = [], [], [], []
        node._unvalidated = True
        return node

    def __init__(self, op: OpDef, inputs: Sequence[Output], attrs: dict[str, Any] | None = None,
                 name: str | None = None) -> None:
        self._op = op
        self._name = f"{op.type_name}_{next(_ids)}"
        self._friendly_name = name if name else None
        self._inputs: list[Output] = list(inputs)
        self._attrs: dict[str, Any] = dict(attrs or {})
        self._rt_info: dict[str, Any] = {}
        self._out_rt_info: dict[int, dict[str, Any]] = {}
        self._in_rt_info: dict[int, dict[str, Any]] = {}
        self._out_shapes: list[tuple[int, ...]] = []
        self._out_types: list[Type] = []
        self._validate()
        self._out_names: list[set[str]] = [set() for _ in self._out_shapes]
        self._targets: list[list[tuple[weakref.ref[Node], int]]] = [[] for _ in self._out_shapes]
        for i, src in enumerate(self._inputs):
            src._node._targets[src._index].append((weakref.ref(self), i))

    # --- shape inference -------------------------------------------------------------------
    #: True for a node of a pattern (``openvino.passes``): a pattern op, or an op built over
    #: one (``ops.relu(AnyInput())``), which stands for any value and is not inferred
    _pattern = False

    def _validate(self) -> None:
        """(Re)infer output shapes and types; called on build and on ``Model.reshape``."""
        if any(src._node._pattern for src in self._inputs):
            self._pattern = True
            self._out_shapes, self._out_types = [()], [Type.dynamic]
            return
        try:
            for a in self._op.attrs:
                if a.choices and a.name in self._attrs:
                    try:
                        self._attrs[a.name] = choice(a, self._attrs[a.name])
                    except ValueError as e:
                        raise ShapeError(str(e)) from None
            if not self._pattern and (self._op.type_name in dynamic.RULES or any(
                    isinstance(src._node._out_shapes[src._index], PartialShape)
                    for src in self._inputs)):
                outs = dynamic.infer(self, ShapeError)  # over dynamic dimensions
            else:
                outs = self._op.infer(self)
        except ShapeError as e:
            raise NodeValidationError(f"While validating node {self._describe()}:\n{e}") from None
        self._out_shapes = [dynamic.as_stored(s) for s, _ in outs]
        self._out_types = [t for _, t in outs]

    def validate_and_infer_types(self) -> None:
        """Infer the output shapes and element types again (after editing the node)."""
        self._validate()
        self._resize_ports()
        self._unvalidated = False

    def constructor_validate_and_infer_types(self) -> None:
        self.validate_and_infer_types()

    def _resize_ports(self) -> None:
        n = len(self._out_shapes)
        self._out_names = (self._out_names + [set() for _ in range(n)])[:n]
        self._targets = (self._targets + [[] for _ in range(n)])[:n]

    # --- graph editing (OpenVINO's Node API; a Model built before the edit is not re-planned:
    # build the Model after editing its nodes) ---------------------------------------------
    def set_argument(self, index: int, argument: Output) -> None:
        """Make input ``index`` read ``argument`` and re-infer this node."""
        EDITS[0] += 1
        new = _as_port(argument)
        if not 0 <= index < len(self._inputs):
            raise RuntimeError(f"{self._describe()}: no input {index} "
                               f"({len(self._inputs)} inputs)")
        old = self._inputs[index]
        old._node._targets[old._index] = [(ref, i) for ref, i in old._node._targets[old._index]
                                          if not (ref() is self and i == index)]
        self._inputs[index] = new
        new._node._targets[new._index].append((weakref.ref(self), index))
        self._revalidate()

    def set_arguments(self, arguments: Sequence[Any]) -> None:
        """Replace every input (Outputs, or Nodes for their output 0)."""
        EDITS[0] += 1
        outs = [_as_port(a) for a in arguments]
        for i, src in enumerate(self._inputs):
            src._node._targets[src._index] = [(ref, j) for ref, j in src._node._targets[src._index]
                                              if not (ref() is self and j == i)]
        self._inputs = outs
        for i, src in enumerate(outs):
            src._node._targets[src._index].append((weakref.ref(self), i))
        self._revalidate()

    def _revalidate(self) -> None:
        """Re-infer after an edit; an edit that leaves the node invalid for now (one input of
        two changed) keeps the old outputs until the next edit or ``validate_and_infer_types``,
        as OpenVINO validates on demand."""
        if self._unvalidated:
            return
        try:
            self.validate_and_infer_types()
        except NodeValidationError:
            pass

    def set_attribute(self, name: str, value: Any) -> None:
        """Set one of the op's attributes (by its OpenVINO name) and re-infer."""
        known = {a.name for a in self._op.attrs}
        if name not in known:
            raise RuntimeError(f"{self._op.type_name} has no attribute '{name}' "
                               f"(it has: {', '.join(sorted(known)) or 'none'})")
        old = self._attrs.get(name)
        self._attrs[name] = value
        if self._unvalidated:
            return
        try:
            self.validate_and_infer_types()
        except NodeValidationError:
            self._attrs[name] = old
            raise

    def set_output_size(self, size: int) -> None:
        """Declare the number of outputs (OpenVINO's op authors call it; ovlab's ops know it)."""
        if int(size) != len(self._out_shapes):
            raise NotImplementedError(
                f"set_output_size({size}) on {self._op.type_name}: ovlab's ops have the outputs "
                f"their shape inference gives ({len(self._out_shapes)}); custom ops written in "
                "Python are not simulated")

    def set_output_type(self, index: int, element_type: Any, shape: Any) -> None:
        """Set output ``index``'s element type and shape (until the node is validated again)."""
        from .types import as_type

        self._out_types[index] = as_type(element_type)
        self._out_shapes[index] = tuple(int(d) for d in shape)

    def get_input_tensor(self, index: int) -> TensorDescriptor:
        """The tensor input ``index`` reads."""
        return self._inputs[index].get_tensor()

    def get_instance_id(self) -> int:
        """The number in the node's unique name (``Relu_2`` -> 2), as the wheel gives."""
        return int(self._name.rsplit("_", 1)[1])

    @property
    def name(self) -> str:
        return self.get_name()

    def set_rt_info(self, value: Any, key: str) -> None:
        self._rt_info[key] = value

    def evaluate(self, output_values: list[Any], input_values: list[Any],
                 evaluationContext: Any = None) -> bool:  # noqa: N803 - the real name
        """Run the op's kernel on ``input_values`` (Tensors) and write ``output_values``."""
        compute = self._op.compute
        if compute is None:
            return False
        xs = [t.bytes_data if _is_string(t) else np.asarray(t.data) for t in input_values]
        for i, x in enumerate(xs):
            if i < len(self._inputs) and tuple(x.shape) != self._in_shape(i):
                raise RuntimeError(f"evaluate: input {i} has shape {list(x.shape)}, the node "
                                   f"reads {list(self._in_shape(i))}")
        ys = compute(self, xs, _EvalCtx(False, tuple(True for _ in self._out_shapes)))
        for tensor, y in zip(output_values, ys, strict=False):
            y = np.asarray(y)
            if tuple(tensor.get_shape()) != y.shape:  # OpenVINO sets the output's shape
                tensor.set_shape(list(y.shape))
            if _is_string(tensor):
                tensor.bytes_data = y
            else:
                tensor.data[...] = y
        return True

    def visit_attributes(self, visitor: Any) -> bool:
        """Hand each attribute to ``visitor.on_attribute(name, value)`` when it has one."""
        on = getattr(visitor, "on_attribute", None)
        for name, value in self.get_attributes().items():
            if on is not None:
                on(name, value)
        return True

    def _describe(self) -> str:
        ins = ", ".join(f"{shape_str(s.node._out_shapes[s.index])}:{s.get_element_type().get_type_name()}"
                        for s in self._inputs)
        return (f"'{self._op.type_name} {self._name}' with friendly_name "
                f"'{self.get_friendly_name()}' (inputs: {ins or 'none'})")

    def _in_shape(self, i: int) -> tuple[int, ...]:
        src = self._inputs[i]
        return src._node._out_shapes[src._index]

    def _in_type(self, i: int) -> Type:
        src = self._inputs[i]
        return src._node._out_types[src._index]

    # --- OpenVINO Node API -----------------------------------------------------------------
    def get_type_name(self) -> str:
        return self._op.type_name

    def get_type_info(self) -> TypeInfo:
        return TypeInfo(self._op.type_name, self._op.version)

    type_info = property(get_type_info)

    def get_name(self) -> str:
        """Unique name ``<Type>_<n>`` (process-wide counter, like OpenVINO)."""
        return self._name


    def get_rt_info(self) -> dict[str, Any]:
        """Runtime info: a plain dict kept on the node (HETERO reads ``"affinity"``)."""
        return self._rt_info

    @property
    def rt_info(self) -> dict[str, Any]:
        return self._rt_info

    def __getattr__(self, name: str) -> Any:
        """``get_<attribute>()`` and ``set_<attribute>(value)`` for each attribute of the node
        (``softmax.get_axis()``), as the binding adds them to every node it builds; others
        raise AttributeError in the binding's words."""
        attrs = self.__dict__.get("_attrs")
        key = name[4:]
        if attrs is not None and name[:4] in ("get_", "set_") and key in attrs \
                and key != "value" and not key.startswith("_"):
            if name.startswith("get_"):
                return lambda: self.get_attributes()[key]
            return lambda value: self.set_attribute(key, value)
        raise AttributeError(f"'openvino.Node' object has no attribute '{name}'")

    def get_attributes(self) -> dict[str, Any]:
        """The attributes by IR name; element types as their short names ('i32'), as the
        wheel's binding hands them out."""
        return {k: v.get_type_name() if isinstance(v, Type) else v
                for k, v in self._attrs.items() if k != "value" and not k.startswith("_")}

    def get_input_size(self) -> int:
        return len(self._inputs)

    def get_output_size(self) -> int:
        return len(self._out_shapes)

    def input(self, input_index: int) -> Input:
        return Input(self, input_index)

    def inputs(self) -> list[Input]:
        return [Input(self, i) for i in range(len(self._inputs))]

    def input_value(self, index: int) -> Output:
        return self._inputs[index]

    def input_values(self) -> list[Output]:
        return list(self._inputs)

    def output(self, output_index: int) -> Output:
        i = output_index
        if not 0 <= i < len(self._out_shapes):
            raise IndexError(f"{self._describe()} has {len(self._out_shapes)} output(s), not {i + 1}")
        return Output(self, i)

    def outputs(self) -> list[Output]:
        return [Output(self, i) for i in range(len(self._out_shapes))]

    def get_output_tensor(self, index: int) -> TensorDescriptor:
        return self.output(index).get_tensor()

    def get_output_shape(self, index: int) -> Shape:
        return _static_shape(self._out_shapes[index])

    def get_output_partial_shape(self, index: int) -> PartialShape:
        return PartialShape(self._out_shapes[index])

    def get_output_element_type(self, index: int) -> Type:
        return self._out_types[index]

    def get_input_shape(self, index: int) -> Shape:
        return Shape(self._in_shape(index))

    def get_input_partial_shape(self, index: int) -> PartialShape:
        return PartialShape(self._in_shape(index))

    def get_input_element_type(self, index: int) -> Type:
        return self._in_type(index)

    def get_element_type(self) -> Type:
        if len(self._out_types) != 1:
            raise RuntimeError(f"get_element_type() needs a single output; {self._describe()} "
                               f"has {len(self._out_types)}")
        return self._out_types[0]

    @property
    def shape(self) -> Shape:
        return self.get_output_shape(0)

    # --- arithmetic, as openvino.Node has it (``a + b`` builds an Add) ------------------------
    def _binary(self, type_name: str, left: Any, right: Any) -> Node:
        assert _builder is not None, "ovlab.sim.graph.ops registers the node builder on import"
        return _builder(type_name, [left, right])

    def __add__(self, other: Any) -> Node:
        return self._binary("Add", self, other)

    def __radd__(self, other: Any) -> Node:
        return self._binary("Add", other, self)

    def __sub__(self, other: Any) -> Node:
        return self._binary("Subtract", self, other)

    def __rsub__(self, other: Any) -> Node:
        return self._binary("Subtract", other, self)

    def __mul__(self, other: Any) -> Node:
        return self._binary("Multiply", self, other)

    def __rmul__(self, other: Any) -> Node:
        return self._binary("Multiply", other, self)

    def __truediv__(self, other: Any) -> Node:
        return self._binary("Divide", self, other)

    def __rtruediv__(self, other: Any) -> Node:
        return self._binary("Divide", other, self)

    def __repr__(self) -> str:
        shapes = ", ".join(shape_str(s) for s in self._out_shapes)
        return f"<{self._op.type_name}: '{self.get_friendly_name()}' ({shapes})>"

    # --- cloning ---------------------------------------------------------------------------
    def _clone(self, inputs: Sequence[Output], validate: bool = True) -> Node:
        """Same op, attributes, names and rt_info, new inputs (used by ``Model.clone``).

        ``validate=False`` keeps the source's output shapes and types as they are, for a caller
        that re-infers every node right after (``Model._with_batch``'s reshape)."""
        new = object.__new__(type(self))
        new._op = self._op
        new._name = f"{self._op.type_name}_{next(_ids)}"
        new._friendly_name = self.get_friendly_name()
        new._inputs = list(inputs)
        new._attrs = dict(self._attrs)
        new._rt_info = dict(self._rt_info)
        new._out_rt_info = {k: dict(v) for k, v in self._out_rt_info.items()}
        new._out_shapes = list(self._out_shapes)
        new._out_types = list(self._out_types)
        if validate:
            new._validate()
        new._out_names = [set(n) for n in self._out_names]
        new._targets = [[] for _ in new._out_shapes]
        for i, src in enumerate(new._inputs):
            src._node._targets[src._index].append((weakref.ref(new), i))
        return new


class _EvalCtx(NamedTuple):
    """What a kernel reads of how it is called (``ops.Ctx``): ``Node.evaluate`` lends nothing
    and reads every output."""

    donate: bool
    needed: tuple[bool, ...]


def _is_string(tensor: Any) -> bool:
    """A Tensor of element type string (its elements are read and written as bytes)."""
    return tensor.get_element_type().get_type_name() == "string"


def _as_port(value: Any) -> Output:
    """An Output, or a Node's output 0 (what ``set_argument(s)`` take)."""
    if isinstance(value, Output):
        return value
    if isinstance(value, Node):
        return value.output(0)
    raise TypeError(f"expected a Node or an Output, got {value!r}")
