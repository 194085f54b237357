"""Op definitions, part 1: graph plumbing, elementwise and data-movement ops.

Each op is one ``OpDef`` (shape inference + NumPy kernel + FLOP count) registered under its
OpenVINO type name. Shape-inference messages say what is wrong in the learner's terms (ranks,
shapes, attribute values); ``Node`` adds which op it was. Convolution, pooling and the other
neural-network ops are in ``nn_ops.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from .node import Node, OpDef, Output, ShapeError, ShapeType
from .types import Type, as_type, shape_str

__all__ = ["REGISTRY", "Parameter", "Constant", "Result", "Ctx", "constant_value", "internal"]

REGISTRY: dict[str, OpDef] = {}
F32 = np.float32


class Ctx(NamedTuple):
    """How the evaluator calls a kernel: may it overwrite input 0, which outputs are read."""

    donate: bool = False
    needed: tuple[bool, ...] = (True, True)


def register(type_name: str, version: str, infer: Callable[[Node], list[ShapeType]],
             compute: Callable[[Node, list[np.ndarray], Ctx], list[np.ndarray]] | None = None,
             flops: Callable[[Node], float] | None = None, view: bool = False,
             inplace: bool = False) -> OpDef:
    op = OpDef(type_name, version, infer, compute, flops or (lambda n: 0.0), view, inplace)
    REGISTRY[type_name] = op
    return op


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
    """The value of ``out`` if it depends on Constants only (folded with the kernels)."""
    node = out.node
    if isinstance(node, Constant):
        return node._attrs["value"]
    if node._op.compute is None or not node._inputs:
        return None
    vals = [constant_value(i) for i in node._inputs]
    if any(v is None for v in vals):
        return None
    res = node._op.compute(node, [internal(v) for v in vals], Ctx(False, (True,) * 8))
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


def broadcast(a: Sequence[int], b: Sequence[int], mode: str) -> tuple[int, ...]:
    mode = mode.upper()
    if mode == "NONE":
        need(tuple(a) == tuple(b), f"Argument shapes are inconsistent: {shape_str(a)} and "
             f"{shape_str(b)} (auto_broadcast='none' needs equal shapes)")
        return tuple(a)
    need(mode == "NUMPY", f"auto_broadcast={mode!r} is not supported (use 'numpy' or 'none')")
    try:
        return tuple(np.broadcast_shapes(tuple(a), tuple(b)))
    except ValueError:
        raise ShapeError(f"Argument shapes are inconsistent: {shape_str(a)} and {shape_str(b)} "
                         "do not broadcast") from None


def out0_elems(node: Node) -> float:
    return float(numel(node._out_shapes[0]))


# --- Parameter, Constant, Result ------------------------------------------------------------
def _param_infer(node: Node) -> list[ShapeType]:
    return [(node._attrs["shape"], node._attrs["element_type"])]


def _const_infer(node: Node) -> list[ShapeType]:
    return [(node._attrs["value"].shape, node._attrs["element_type"])]


def _result_infer(node: Node) -> list[ShapeType]:
    return [(node._in_shape(0), node._in_type(0))]


PARAMETER = register("Parameter", "opset1", _param_infer)
CONSTANT = register("Constant", "opset1", _const_infer)
RESULT = register("Result", "opset1", _result_infer)

_REPR_TYPE = {"f32": "float", "f16": "half", "f64": "double"}


class Parameter(Node):
    """A model input (``openvino.op.Parameter``)."""

    def __init__(self, shape: Sequence[int], element_type: Any = Type.f32,
                 name: str | None = None) -> None:
        super().__init__(PARAMETER, [], {"shape": _static(shape),
                                         "element_type": as_type(element_type)}, name)

    def get_partial_shape(self) -> Any:
        return self.output(0).get_partial_shape()

    def set_partial_shape(self, shape: Sequence[int]) -> None:
        """Change the declared shape (consumers re-infer on ``Model.reshape``/validation)."""
        self._attrs["shape"] = _static(shape)
        self._validate()

    def get_element_type(self) -> Type:
        return self._attrs["element_type"]

    def set_element_type(self, element_type: Any) -> None:
        self._attrs["element_type"] = as_type(element_type)
        self._validate()

    def __repr__(self) -> str:
        t = self._attrs["element_type"].get_type_name()
        return (f"<Parameter: '{self.get_friendly_name()}' "
                f"({shape_str(self._attrs['shape'])}, {_REPR_TYPE.get(t, t)})>")


def _static(shape: Any) -> tuple[int, ...]:
    dims = list(shape)
    for d in dims:
        if getattr(d, "is_dynamic", False) or int(d) < 0:
            raise ValueError(f"ovlab models are static: dynamic dimension in shape {dims}")
    return tuple(int(d) for d in dims)


class Constant(Node):
    """A constant tensor (weights, shapes, ranges); its value is read-only and shared by clones."""

    def __init__(self, value: np.ndarray, element_type: Type, name: str | None = None,
                 shared: bool = False) -> None:
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

    def get_data(self) -> np.ndarray:
        return self._attrs["value"]

    @property
    def data(self) -> np.ndarray:
        return self._attrs["value"]

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


# --- elementwise ------------------------------------------------------------------------------
def _unary_infer(node: Node) -> list[ShapeType]:
    return [(node._in_shape(0), node._in_type(0))]


def _out(ctx: Ctx, x: np.ndarray) -> np.ndarray | None:
    return x if ctx.donate else None


def _relu(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    return [np.maximum(xs[0], xs[0].dtype.type(0), out=_out(ctx, xs[0]))]


def _sigmoid(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    from .kernels import sigmoid
    return [sigmoid(xs[0], out=_out(ctx, xs[0]))]


def _clamp_infer(node: Node) -> list[ShapeType]:
    lo, hi = node._attrs["min"], node._attrs["max"]
    need(lo <= hi, f"min_value ({lo}) must not be greater than max_value ({hi})")
    return _unary_infer(node)


def _clamp(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    lo, hi = node._attrs["min"], node._attrs["max"]
    if x.dtype.kind != "f":
        lo, hi = math.ceil(lo), math.floor(hi)
    return [np.clip(x, x.dtype.type(lo), x.dtype.type(hi), out=_out(ctx, x))]


register("Relu", "opset1", _unary_infer, _relu, out0_elems, inplace=True)
register("Sigmoid", "opset1", _unary_infer, _sigmoid, lambda n: 4 * out0_elems(n), inplace=True)
register("Clamp", "opset1", _clamp_infer, _clamp, out0_elems, inplace=True)


def _binary_infer(node: Node) -> list[ShapeType]:
    t = same_type(node, [0, 1])
    return [(broadcast(node._in_shape(0), node._in_shape(1), node._attrs["auto_broadcast"]), t)]


def _binary(fn: Callable[..., np.ndarray]) -> Callable[[Node, list[np.ndarray], Ctx], list[np.ndarray]]:
    def compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
        a, b = xs
        out = a if ctx.donate and a.shape == tuple(node._out_shapes[0]) else None
        return [fn(a, b, out=out)]
    return compute


def _divide(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    if a.dtype.kind in "iu":
        return np.floor_divide(a, b, out=out)
    return np.divide(a, b, out=out)


register("Add", "opset1", _binary_infer, _binary(np.add), out0_elems, inplace=True)
register("Subtract", "opset1", _binary_infer, _binary(np.subtract), out0_elems, inplace=True)
register("Multiply", "opset1", _binary_infer, _binary(np.multiply), out0_elems, inplace=True)
register("Divide", "opset1", _binary_infer, _binary(_divide), out0_elems, inplace=True)


def _convert_infer(node: Node) -> list[ShapeType]:
    return [(node._in_shape(0), node._attrs["destination_type"])]


def _convert(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x, t = xs[0], node._attrs["destination_type"]
    if t.is_real():
        return [x.astype(F32, copy=True)]
    dt = t.to_dtype()
    if dt == np.bool_:
        return [x != 0]
    if x.dtype.kind == "f":
        info = np.iinfo(dt)
        x = np.clip(np.trunc(x), info.min, info.max)
    return [x.astype(dt, copy=True)]


register("Convert", "opset1", _convert_infer, _convert, out0_elems)


# --- data movement ----------------------------------------------------------------------------
def _reshape_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    pattern = int_list(node, 1, "output_shape")
    need(sum(1 for p in pattern if p == -1) <= 1, f"at most one -1 is allowed in the target "
         f"shape, got {pattern}")
    dims = []
    for i, p in enumerate(pattern):
        if p == 0 and node._attrs["special_zero"]:
            need(i < len(src), f"special_zero copies dim {i}, but the input {shape_str(src)} "
                 f"has rank {len(src)}")
            dims.append(src[i])
        else:
            need(p >= -1, f"invalid dimension {p} in target shape {pattern}")
            dims.append(p)
    total = numel(src)
    if -1 in dims:
        known = numel(d for d in dims if d != -1)
        need(known > 0 and total % known == 0, f"Requested output shape {pattern} is "
             f"incompatible with input shape {shape_str(src)}")
        dims[dims.index(-1)] = total // known
    need(numel(dims) == total, f"Requested output shape {shape_str(dims)} is incompatible with "
         f"input shape {shape_str(src)} ({numel(dims)} vs {total} elements)")
    return [(tuple(dims), node._in_type(0))]


def _reshape(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    return [xs[0].reshape(node._out_shapes[0])]


register("Reshape", "opset1", _reshape_infer, _reshape, view=True)


def _squeeze_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    axes = int_list(node, 1, "axes") if len(node._inputs) > 1 else []
    if not axes:
        dims = [d for d in src if d != 1]
    else:
        ax = {norm_axis(a, len(src)) for a in axes}
        for a in ax:
            need(src[a] == 1, f"cannot squeeze axis {a} of {shape_str(src)}: its size is not 1")
        dims = [d for i, d in enumerate(src) if i not in ax]
    return [(tuple(dims), node._in_type(0))]


def _unsqueeze_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    axes = int_list(node, 1, "axes")
    rank = len(src) + len(axes)
    ax = sorted(norm_axis(a, rank) for a in axes)
    need(len(set(ax)) == len(ax), f"repeated axes in {axes}")
    dims = list(src)
    for a in ax:
        dims.insert(a, 1)
    return [(tuple(dims), node._in_type(0))]


register("Squeeze", "opset1", _squeeze_infer, _reshape, view=True)
register("Unsqueeze", "opset1", _unsqueeze_infer, _reshape, view=True)


def _transpose_order(node: Node) -> list[int]:
    rank = len(node._in_shape(0))
    order = int_list(node, 1, "input_order")
    if not order:
        return list(range(rank))[::-1]
    need(sorted(order) == list(range(rank)), f"input_order {order} is not a permutation of the "
         f"{rank} axes of {shape_str(node._in_shape(0))}")
    return order


def _transpose_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    return [(tuple(src[i] for i in _transpose_order(node)), node._in_type(0))]


def _transpose(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    return [np.transpose(xs[0], _transpose_order(node))]


# Transpose moves data on a real device, so it has a cost, but in NumPy it is a view.
register("Transpose", "opset1", _transpose_infer, _transpose, view=True)


def _concat_infer(node: Node) -> list[ShapeType]:
    need(len(node._inputs) > 0, "needs at least one input")
    shapes = [node._in_shape(i) for i in range(len(node._inputs))]
    t = same_type(node, list(range(len(shapes))))
    rank = len(shapes[0])
    need(rank > 0, "cannot concatenate scalars")
    axis = norm_axis(node._attrs["axis"], rank)
    for i, s in enumerate(shapes):
        need(len(s) == rank and all(a == b for j, (a, b) in enumerate(zip(s, shapes[0], strict=False))
                                    if j != axis),
             f"input {i} has shape {shape_str(s)}, which does not match {shape_str(shapes[0])} "
             f"outside axis {axis}")
    out = list(shapes[0])
    out[axis] = sum(s[axis] for s in shapes)
    return [(tuple(out), t)]


def _concat(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    return [np.concatenate(xs, axis=norm_axis(node._attrs["axis"], xs[0].ndim))]


register("Concat", "opset1", _concat_infer, _concat)


def _reduce_axes(node: Node) -> list[int]:
    rank = len(node._in_shape(0))
    return sorted({norm_axis(a, rank, "reduction axis") for a in int_list(node, 1,
                                                                         "reduction_axes")})


def _reduce_infer(node: Node) -> list[ShapeType]:
    src, axes = node._in_shape(0), _reduce_axes(node)
    keep = node._attrs["keep_dims"]
    dims = [1 if i in axes else d for i, d in enumerate(src) if keep or i not in axes]
    return [(tuple(dims), node._in_type(0))]


def _reduce_mean(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    axes = tuple(_reduce_axes(node))
    x = xs[0]
    r = np.mean(x, axis=axes, keepdims=node._attrs["keep_dims"], dtype=F32)
    return [np.asarray(r if x.dtype.kind == "f" else np.trunc(r).astype(x.dtype))]


register("ReduceMean", "opset1", _reduce_infer, _reduce_mean,
         lambda n: float(numel(n._in_shape(0))))
