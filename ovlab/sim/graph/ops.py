"""The op registry, the helpers every op definition shares, and the graph plumbing ops
(Parameter, Constant, Result).

Each op is one ``OpDef`` (shape inference + NumPy kernel + FLOP count + attribute description +
batch rule) registered under its OpenVINO type name, together with its ``openvino.opset13``
builder, in a module per family: ``elementwise.py``, ``shape_ops.py``, ``index_ops.py``,
``reduce_ops.py``, ``nn_ops.py``, ``norm_ops.py``, ``resize_ops.py``. Shape-inference messages
say what is wrong in the learner's terms (ranks, shapes, attribute values); ``Node`` adds which
op it was. ``make_node`` builds any registered op from attribute values (IR readers use it too).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, overload

import numpy as np

from . import dynamic
from .attrs import REQUIRED, Attr, normalize
from .node import Node, OpDef, Output, ShapeError, ShapeType, set_builder
from .types import PartialShape, Type, as_type, shape_str

__all__ = ["REGISTRY", "Parameter", "Constant", "Result", "Ctx", "constant_value", "internal",
           "make_node", "register", "as_output"]

REGISTRY: dict[str, OpDef] = {}
F32 = np.float32


class Ctx(NamedTuple):
    """How the evaluator calls a kernel: may it overwrite input 0, which outputs are read."""

    donate: bool = False
    needed: tuple[bool, ...] = (True, True)


NodeInput = Node | Output | np.ndarray | int | float | Sequence[Any]
Compute = Callable[[Node, list[np.ndarray], Ctx], list[np.ndarray]]
BatchRule = Callable[[Node, Sequence[bool]], "str | None"]


def register(type_name: str, version: str, infer: Callable[[Node], list[ShapeType]],
             compute: Compute | None = None, flops: Callable[[Node], float] | None = None,
             view: bool = False, inplace: bool = False, *, attrs: Sequence[Attr] = (),
             batch: BatchRule | None = None, shape_only: bool = False) -> OpDef:
    """Add an op to the registry. ``batch(node, live)`` (``live[i]``: input i depends on a
    model input) returns why the op mixes the samples of axis 0, or None; ``shape_only`` ops
    (ShapeOf) compute their output from input shapes alone, so they fold to constants."""
    op = OpDef(type_name, version, infer, compute, flops or (lambda n: 0.0), view, inplace,
               tuple(attrs), batch, shape_only)
    REGISTRY[type_name] = op
    return op


def snake(type_name: str) -> str:
    """``GroupConvolution`` -> ``group_convolution`` (the builder's name in messages)."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", type_name).lower()


def make_node(type_name: str, inputs: Sequence[Any], attrs: dict[str, Any] | None = None,
              name: str | None = None) -> Node:
    """Build a node of a registered op: inputs as nodes, ports, arrays or scalars; ``attrs``
    by IR name, converted to their kinds, with the op's defaults for those not given."""
    return make_op_node(REGISTRY[type_name], inputs, attrs, name)


def make_op_node(op: OpDef, inputs: Sequence[Any], attrs: dict[str, Any] | None = None,
                 name: str | None = None) -> Node:
    """``make_node`` for an op definition that is not the registry's: another version of a
    registered op type (``ovlab/sim/graph/opset_versions.py``: MaxPool-1, Squeeze-15...)."""
    return Node(op, [as_output(i, name) for i in inputs], op_attrs(op, attrs), name)


def op_attrs(op: OpDef, attrs: dict[str, Any] | None) -> dict[str, Any]:
    """``attrs`` by IR name, converted to their kinds, with the op's defaults for those not
    given (a node class's constructor builds its node with them: ``state_ops.Assign``)."""
    given = dict(attrs or {})
    values: dict[str, Any] = {}
    who = snake(op.type_name)
    for a in op.attrs:
        v = given.pop(a.name, None)
        if v is None:  # not given (or None, which OpenVINO's builders read as the default)
            if a.default is REQUIRED:
                raise TypeError(f"{who}: missing attribute {a.name!r}")
            v = a.default
        values[a.name] = normalize(a, v, who) if v is not None else None
    # ovlab's own markers (``_name``): not OpenVINO attributes, never listed by get_attributes
    values.update({k: given.pop(k) for k in [k for k in given if k.startswith("_")]})
    if given:
        raise TypeError(f"{who}: unknown attribute(s) {', '.join(map(repr, given))} (it has "
                        f"{', '.join(a.name for a in op.attrs) or 'none'})")
    return values


set_builder(make_node)


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


def int_const(value: Any) -> Any:
    """Shape-like builder arguments: Python lists become i64 Constants (as OpenVINO's
    builders make them), nodes and arrays pass through."""
    if isinstance(value, (Node, Output, np.ndarray)):
        return value
    return np.array(value, dtype=np.int64)


# --- helpers shared by the op definitions ----------------------------------------------------
def need(cond: bool, msg: str) -> None:
    if not cond:
        raise ShapeError(msg)


def numel(shape: Sequence[int]) -> int:
    return math.prod(shape)


def internal(a: np.ndarray) -> np.ndarray:
    """The evaluator's representation: float tensors as float32, integers as they are."""
    return a.astype(F32) if a.dtype.kind == "f" and a.dtype != F32 else a


def same_type(node: Node, idx: Sequence[int]) -> Type:
    t = node._in_type(idx[0])
    for i in idx[1:]:
        need(node._in_type(i) == t, "Arguments do not have the same element type "
             f"(arg{idx[0]} element type: {t.get_type_name()}, "
             f"arg{i} element type: {node._in_type(i).get_type_name()}).")
    return t


def real_type(node: Node, i: int = 0) -> Type:
    t = node._in_type(i)
    need(t.is_real(), f"input {i} must be a floating-point tensor, got {t.get_type_name()}")
    return t


def norm_axis(axis: int, rank: int, what: str = "axis") -> int:
    need(-rank <= axis < rank, f"{what} {axis} is out of range for rank {rank} "
         f"(allowed: {-rank}..{rank - 1})")
    return axis + rank if axis < 0 else axis


def constant_value(out: Output) -> np.ndarray | None:
    """The value of ``out`` if it depends on Constants and static shapes only (folded with the
    kernels, as OpenVINO folds ShapeOf -> Gather -> Concat -> Reshape)."""
    node = out.node
    if isinstance(node, Constant):
        return node._attrs["value"]
    if node._op.compute is None or node._op.type_name in ("ReadValue", "Assign"):
        return None
    if node._op.shape_only:
        if any(dynamic.is_dynamic(i._node._out_shapes[i._index]) for i in node._inputs):
            return None  # a dynamic shape is known only at run time
        vals: list[np.ndarray | None] = []
    else:
        if not node._inputs:
            return None
        vals = [constant_value(i) for i in node._inputs]
        if any(v is None for v in vals):
            return None
    with np.errstate(all="ignore"):
        res = node._op.compute(node, [internal(v) for v in vals if v is not None],
                               Ctx(False, (True,) * 8))
    return res[out.index]


def const_input(node: Node, i: int, what: str) -> np.ndarray:
    v = constant_value(node._inputs[i])
    need(v is not None, f"{what} (input {i}) must be a Constant (or computed from Constants only)")
    assert v is not None
    return v


def int_list(node: Node, i: int, what: str) -> list[int]:
    v = const_input(node, i, what)
    need(v.dtype.kind in "iu", f"{what} must be an integer tensor, got {v.dtype}")
    need(v.ndim <= 1, f"{what} must be a scalar or 1-D, got shape {shape_str(v.shape)}")
    return [int(a) for a in np.atleast_1d(v)]


def pdpd_broadcastable(a: Sequence[int], b: Sequence[int], axis: int = 0) -> bool:
    """``PartialShape::broadcast_merge_into`` for PDPD: ``b`` (not longer than ``a``) lines
    up with ``a`` from ``axis`` on (0, the builders' default; -1 means right-aligned), its
    trailing 1s dropped; each remaining length is 1 or ``a``'s. The output has ``a``'s shape."""
    a, b = tuple(a), tuple(b)
    if len(b) > len(a):
        return False
    if axis < -1:
        return False
    if axis == -1:
        axis = len(a) - len(b)
    n = len(b)
    while n > 0 and b[n - 1] == 1:
        n -= 1
    if axis + n > len(a):
        return False
    return all(b[i] == 1 or a[axis + i] == b[i] for i in range(n))  # 1 broadcasts


def pdpd_align(b: np.ndarray, rank: int, axis: int = 0) -> np.ndarray:
    """``b`` reshaped so that NumPy broadcasts it as PDPD lines it up (see above)."""
    if axis == -1:
        axis = rank - b.ndim
    return b.reshape((1,) * axis + b.shape + (1,) * (rank - axis - b.ndim))


def broadcast(a: Sequence[int], b: Sequence[int], mode: str) -> tuple[int, ...]:
    """The output shape of two inputs under ``auto_broadcast`` (NONE, NUMPY or PDPD), with
    OpenVINO's message when they do not fit."""
    mode = str(mode).upper()
    if mode == "NONE":
        need(tuple(a) == tuple(b), "Argument shapes are inconsistent.")
        return tuple(a)
    if mode == "PDPD":
        need(pdpd_broadcastable(a, b), "Argument shapes are inconsistent.")
        return tuple(a)
    need(mode == "NUMPY", f"auto_broadcast={mode!r} is not supported (use 'numpy' or 'none')")
    try:
        return tuple(np.broadcast_shapes(tuple(a), tuple(b)))
    except ValueError:
        raise ShapeError("Argument shapes are inconsistent.") from None


def out0_elems(node: Node) -> float:
    return float(numel(node._out_shapes[0]))


# --- Parameter, Constant, Result ------------------------------------------------------------
def _param_infer(node: Node) -> list[ShapeType]:
    return [(node._attrs["shape"], node._attrs["element_type"])]


def _const_infer(node: Node) -> list[ShapeType]:
    return [(node._attrs["value"].shape, node._attrs["element_type"])]


def _result_infer(node: Node) -> list[ShapeType]:
    return [(node._in_shape(0), node._in_type(0))]


PARAMETER = register("Parameter", "opset1", _param_infer,
                     attrs=[Attr("shape", "shape"), Attr("element_type", "type")])
CONSTANT = register("Constant", "opset1", _const_infer,
                    attrs=[Attr("element_type", "type"), Attr("shape", "shape")])
RESULT = register("Result", "opset1", _result_infer)

_REPR_TYPE = {"f32": "float", "f16": "half", "f64": "double"}


class Parameter(Node):
    """A model input (``openvino.op.Parameter``)."""

    def __init__(self, shape: Any, element_type: Any = Type.f32,
                 name: str | None = None) -> None:
        if isinstance(shape, Type):  # openvino.op.Parameter(element_type, shape)
            shape, element_type = element_type, shape
        super().__init__(PARAMETER, [], {"shape": _static(shape),
                                         "element_type": as_type(element_type)}, name)

    def get_partial_shape(self) -> Any:
        return self.output(0).get_partial_shape()

    def get_attributes(self) -> dict[str, Any]:
        """``{'shape': [2, 2], 'element_type': 'f32'}``: the shape as a list, ``-1`` for a
        dynamic dimension and ``[]`` for a dynamic rank (as the wheel's binding hands it out)."""
        attrs = super().get_attributes()
        shape = self._attrs["shape"]
        if isinstance(shape, PartialShape):
            attrs["shape"] = [] if shape.rank.is_dynamic else [
                d.get_length() if d.is_static else -1 for d in shape]
        else:
            attrs["shape"] = list(shape)
        return attrs

    def set_partial_shape(self, partial_shape: Sequence[int]) -> None:
        """Change the declared shape (consumers re-infer on ``Model.reshape``/validation)."""
        self._attrs["shape"] = _static(partial_shape)
        self._validate()

    def get_element_type(self) -> Type:
        return self._attrs["element_type"]

    def set_element_type(self, element_type: Any) -> None:
        self._attrs["element_type"] = as_type(element_type)
        self._validate()

    @property
    def element_type(self) -> Type:
        return self.get_element_type()

    @element_type.setter
    def element_type(self, element_type: Any) -> None:
        self.set_element_type(element_type)

    @property
    def partial_shape(self) -> Any:
        return self.get_partial_shape()

    @partial_shape.setter
    def partial_shape(self, partial_shape: Any) -> None:
        self.set_partial_shape(partial_shape)

    def get_layout(self) -> Any:
        """The layout of this input (kept in its output's rt_info, as ``set_layout`` puts it)."""
        from .layout import layout_of  # the Layout type lives beside the API, above the graph

        return layout_of(self.output(0))

    def set_layout(self, layout: Any) -> None:
        from .layout import Layout

        self.output(0).get_rt_info()["layout"] = Layout(layout).to_string()

    layout = property(get_layout, set_layout)

    def __repr__(self) -> str:
        t = self._attrs["element_type"].get_type_name()
        return (f"<Parameter: '{self.get_friendly_name()}' "
                f"({shape_str(self._attrs['shape'])}, {_REPR_TYPE.get(t, t)})>")


def _static(shape: Any) -> Any:
    """A Parameter's declared shape as nodes store it: a tuple of ints, or the PartialShape of
    a dynamic one (``[?,3]``, ``[1..10]``, a dynamic rank), which builds but does not compile."""
    if isinstance(shape, (PartialShape, str)):
        return dynamic.as_stored(PartialShape(shape))
    dims = list(shape)
    if any(getattr(d, "is_dynamic", False) or (not hasattr(d, "is_dynamic") and int(d) < 0)
           for d in dims):
        return dynamic.as_stored(PartialShape(dims))
    return tuple(int(d) for d in dims)


# The Tensor class, which ``ovlab.sim.runtime.tensor`` registers when it loads (every ``import
# ovlab`` loads it). OpenVINO keeps ov::Tensor in its core library, beside the graph; ovlab's
# Tensor lives in the runtime layer, above the graph, with the runtime's copy and sharing rules
# (ovlab/sim/runtime/tensor.py). A lazy import of it here would be an import up the layers; the
# hook keeps the graph free of runtime modules, as ``node.set_builder`` does for the op builder.
_tensor_class: list[type] = []


def set_tensor_class(cls: type) -> None:
    """Called once by ``ovlab.sim.runtime.tensor``: the class ``Constant.get_tensor_view`` makes."""
    _tensor_class[:] = [cls]


class Constant(Node):
    """A constant tensor (weights, shapes, ranges); its value is read-only and shared by clones."""

    # The wheel's overloads (typing.get_overloads lists them; the surface test compares them
    # with the wheel's): an array is copied unless shared, a tensor is shared unless copied.
    @overload
    def __init__(self, array: np.ndarray, shared_memory: bool = False) -> None: ...

    @overload
    def __init__(self, tensor: Any, shared_memory: bool = True) -> None: ...

    @overload
    def __init__(self, element_type: Type, shape: Any, values: Any, /) -> None: ...

    def __init__(self, *args: Any, array: Any = None, tensor: Any = None,
                 shared_memory: bool | None = None, shared: bool = False,
                 name: str | None = None) -> None:
        """``openvino.op.Constant(array, shared_memory=False)``, ``(tensor, shared_memory=True)``
        and ``(element_type, shape, values)``; ovlab's own builders call
        ``Constant(value, element_type, name, shared=...)``."""
        value, element_type, name, shared = _constant_args(args, array, tensor, shared_memory,
                                                           shared, name)
        if element_type == Type.bf16:  # numpy has no bfloat16: keep bf16-exact float32
            from .kernels import round_to
            value = round_to(np.array(value, dtype=F32), "bf16")
        elif shared and value.dtype == element_type.to_dtype() and value.flags.c_contiguous:
            value = value.view()  # the caller's memory, as OpenVINO's shared_memory=True
        else:
            value = np.array(value, dtype=element_type.to_dtype(), copy=True)
        value.flags.writeable = False
        super().__init__(CONSTANT, [], {"value": value, "element_type": element_type,
                                        "_cache": {}}, name)

    def get_data(self, *, dtype: Any = None, copy: bool = False) -> np.ndarray:
        """The value: a read-only view of the constant's memory (``OWNDATA`` False, as the
        wheel's view of its C++ buffer), a new array with ``copy=True``, or converted to
        ``dtype`` (a new array unless it is the value's own dtype)."""
        value = self._attrs["value"]
        stored_as_is = value.dtype == self._attrs["element_type"].to_dtype()  # (bf16: f32 here)
        if dtype is not None and (np.dtype(dtype) != value.dtype or not stored_as_is):
            return value.astype(dtype)
        return value.copy() if copy else value.view()

    @property
    def data(self) -> np.ndarray:
        return self._attrs["value"]

    def get_tensor_view(self) -> Any:
        """The value as a Tensor sharing the constant's memory (``openvino.Tensor``). The
        wheel's view is writable; ovlab's constant values are read-only (clones share them and
        devices cache their rounded copies), so writing into this view raises."""
        if not _tensor_class:
            raise RuntimeError("Constant.get_tensor_view needs ovlab's runtime (import ovlab)")
        value = self._attrs["value"]
        if value.dtype != self._attrs["element_type"].to_dtype():
            raise NotImplementedError(
                f"Constant.get_tensor_view of a {self._attrs['element_type'].get_type_name()} "
                "constant: ovlab keeps its value unpacked as "
                f"{value.dtype}, so there is no {self._attrs['element_type'].get_type_name()} "
                "memory to view (read get_data())")
        return _tensor_class[0](value, shared_memory=True)

    @property
    def tensor_view(self) -> Any:
        return self.get_tensor_view()

    def get_strides(self) -> list[int]:
        """Byte strides of the value, as the wheel lists them."""
        return list(self._attrs["value"].strides)

    @property
    def strides(self) -> list[int]:
        return self.get_strides()

    def get_value_strings(self) -> list[str]:
        """Each element as text (the wheel's ``get_value_strings``)."""
        value = self._attrs["value"]
        if value.dtype.kind in "SU":
            return [v.decode() if isinstance(v, bytes) else str(v) for v in value.ravel()]
        return [f"{v.item():.6g}" if value.dtype.kind == "f" else str(v.item())
                for v in value.ravel()]

    def get_vector(self) -> np.ndarray:
        return self._attrs["value"].ravel()

    def get_byte_size(self) -> int:
        return int(self._attrs["value"].nbytes)

    def _internal(self, precision: str) -> np.ndarray:
        """Float32 (or integer) value rounded to the storage precision; cached across clones."""
        cache = self._attrs["_cache"]
        if precision not in cache:
            from .kernels import round_to
            v = internal(self._attrs["value"])
            if v.dtype == F32 and precision != "f32":
                v = round_to(v, precision)
            cache[precision] = v
        return cache[precision]

    def get_attributes(self) -> dict[str, Any]:
        return {"element_type": self._attrs["element_type"].get_type_name(),
                "shape": list(self._attrs["value"].shape)}


class Result(Node):
    """A model output (``openvino.op.Result``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) == 1 and not kwargs:  # openvino.op.Result(output)
            args = (RESULT, [as_output(args[0])])
        super().__init__(*args, **kwargs)

    def get_layout(self) -> Any:
        """The layout of this output (kept in its input's rt_info, where ``set_layout`` puts it)."""
        from .layout import layout_of

        return layout_of(self.input_value(0))

    def set_layout(self, layout: Any) -> None:
        from .layout import Layout

        self.input_value(0).get_rt_info()["layout"] = Layout(layout).to_string()

    layout = property(get_layout, set_layout)


def _constant_args(args: tuple, array: Any, tensor: Any, shared_memory: bool | None,
                   shared: bool, name: str | None) -> tuple[np.ndarray, Type, str | None, bool]:
    """``(value, element_type, name, shared)`` from the constructor forms of ``Constant``."""
    if len(args) >= 2 and isinstance(args[1], Type):  # ovlab's (value, type[, name])
        value = np.asarray(args[0])
        return value, args[1], args[2] if len(args) > 2 else name, shared
    if args and isinstance(args[0], Type):  # (element_type, shape, values)
        if len(args) != 3:
            raise TypeError("Constant(element_type, shape, values) takes 3 arguments")
        t, dims = args[0], tuple(int(d) for d in args[1])
        values = np.asarray(list(args[2]), dtype=t.to_dtype() if t != Type.bf16 else F32)
        n = int(np.prod(dims, dtype=np.int64))
        if values.size == 1 and n != 1:
            values = np.full(dims, values.reshape(()), dtype=values.dtype)
        elif values.size != n:
            raise RuntimeError(
                "Exception from src/core/src/op/constant.cpp:\nConstant: the number of "
                f"elements ({values.size}) does not match the shape {list(dims)}")
        return values.reshape(dims), t, name, False
    if args:
        if len(args) > 2:
            raise TypeError(f"Constant() takes (array, shared_memory), got {len(args)} arguments")
        first = args[0]
        if shared_memory is None and len(args) == 2:
            shared_memory = bool(args[1])
        if isinstance(first, np.ndarray) or not hasattr(first, "get_element_type"):
            array = first
        else:
            tensor = first
    if tensor is not None:  # shares the tensor's memory unless told not to
        data = tensor.data
        share = True if shared_memory is None else bool(shared_memory)
        return data, tensor.get_element_type(), name, share
    arr = np.asarray(array)
    share = bool(shared_memory)
    if share and not arr.flags.c_contiguous:
        raise RuntimeError("Exception from src/bindings/python/src/pyopenvino/core/common.cpp:439:\n"
                           "SHARED MEMORY MODE FOR THIS CONSTANT IS NOT APPLICABLE! Passed numpy "
                           "array must be C contiguous.\n")
    return arr, as_type(arr.dtype), name, share




# --- batch rules shared by the op families -----------------------------------------------------
def keeps_batch(node: Node, live: Sequence[bool]) -> str | None:
    """Elementwise rule: fine unless a live input of lower rank is broadcast across axis 0."""
    rank = len(node._out_shapes[0]) if node._out_shapes else 0
    for i, is_live in enumerate(live):
        if is_live and len(node._in_shape(i)) < rank:
            return (f"input {i} (rank {len(node._in_shape(i))}) is broadcast across the batch "
                    f"axis of a rank-{rank} output")
    return None


def axis_rule(axes_of: Callable[[Node], Sequence[int]], what: str) -> BatchRule:
    """A rule for ops that mix values along some axes of input 0: batch 0 must not be one."""
    def rule(node: Node, live: Sequence[bool]) -> str | None:
        if live and live[0] and 0 in axes_of(node):
            return f"it {what} along axis 0, the batch axis"
        return None
    return rule


def mixes_batch(reason: str) -> BatchRule:
    def rule(node: Node, live: Sequence[bool]) -> str | None:
        return reason if any(live) else None
    return rule


def cost_per_elem(k: float) -> Callable[[Node], float]:
    return lambda node: k * out0_elems(node)


AUTO_BROADCAST = Attr("auto_broadcast", "str", "numpy", ("none", "numpy", "pdpd"))
