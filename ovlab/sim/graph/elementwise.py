"""Elementwise ops: activations, unary maths, arithmetic, comparisons, logic, Select, Convert.

Where the real CPU plugin gives a defined answer for NaN and infinities, the kernels give the
same one (measured with openvino 2026.4.1, f32; see ``docs/supported-ops.md``): Relu, Clamp and
HSigmoid map NaN to their lower bound (the plugin's max/min return the second operand when one
is NaN), ``Maximum(a, b)`` is ``a > b ? a : b`` and ``Minimum(a, b)`` ``a < b ? a : b`` (so a NaN
in ``a`` gives ``b``), ``Greater`` and ``GreaterEqual`` are true for NaN (they test "not less
or equal" / "not less"), ``Exp(NaN)`` is +inf, Gelu(erf) of +inf is NaN, Convert of NaN, of
infinities and of floats outside int32 to an integer gives int32's minimum (then wrapped to the
target width) and NaN converts to ``False``, integer division truncates and an integer divided
by zero gives the type's minimum. NumPy's warnings for these cases are kept inside
(``evaluate`` runs under ``np.errstate(all="ignore")``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from . import kernels as K
from .attrs import Attr
from .node import Node, ShapeType
from .ops import (
    AUTO_BROADCAST,
    F32,
    Ctx,
    NodeInput,
    cost_per_elem,
    keeps_batch,
    make_node,
    need,
    out0_elems,
    register,
    same_type,
)
from .types import Type, as_type, shape_str

__all__ = [
    "abs", "absolute", "acos", "acosh", "add", "asin", "asinh", "atan", "atanh",
    "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "ceil", "ceiling", "clamp",
    "convert", "convert_like", "cos", "cosh", "divide", "elu", "equal", "erf", "exp", "floor",
    "floor_mod", "gelu", "greater", "greater_equal", "hard_sigmoid", "hsigmoid", "hswish",
    "is_finite", "is_inf", "is_nan", "less", "less_equal", "log", "logical_and", "logical_not",
    "logical_or", "logical_xor", "maximum", "minimum", "mish", "mod", "multiply", "negative",
    "not_equal", "power", "prelu", "relu", "round", "select", "selu", "sigmoid", "sign", "sin",
    "sinh", "softplus", "softsign", "sqrt", "squared_difference", "subtract", "swish", "tan",
    "tanh",
]

Kernel = Callable[[Node, list[np.ndarray], Ctx], list[np.ndarray]]
# FLOPs per output element: simple ops 1, ops with a transcendental function 4, composite
# activations (Gelu, Mish, Swish ...) 8 (see costs.py).
SIMPLE, TRANSCENDENTAL, COMPOSITE = 1.0, 4.0, 8.0


def _out(ctx: Ctx, x: np.ndarray) -> np.ndarray | None:
    return x if ctx.donate and x.flags.writeable else None


# --- unary ops --------------------------------------------------------------------------------
def _same_infer(node: Node) -> list[ShapeType]:
    return [(node._in_shape(0), node._in_type(0))]


def _real_infer(node: Node) -> list[ShapeType]:
    t = node._in_type(0)
    need(t.is_real(), f"Input element type must be a floating-point type, got "
         f"{t.get_type_name()} (ovlab computes {node.get_type_name()} on float tensors only)")
    return [(node._in_shape(0), t)]


def _numeric_infer(node: Node) -> list[ShapeType]:
    t = node._in_type(0)
    need(t != Type.boolean, "Input element type must be numeric, got boolean")
    return [(node._in_shape(0), t)]


def _ufunc(fn: np.ufunc) -> Kernel:
    """A kernel from one NumPy ufunc, writing in place when the evaluator allows it."""
    def compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
        return [fn(xs[0], out=_out(ctx, xs[0]))]
    return compute


def _fn(fn: Callable[[np.ndarray], np.ndarray]) -> Kernel:
    def compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
        return [np.asarray(fn(xs[0]), dtype=xs[0].dtype)]
    return compute


def _unary(type_name: str, version: str, kernel: Kernel, cost: float, ints: bool = False,
           attrs: Sequence[Attr] = (), infer: Callable[[Node], list[ShapeType]] | None = None,
           inplace: bool = True) -> None:
    register(type_name, version, infer or (_numeric_infer if ints else _real_infer), kernel,
             cost_per_elem(cost), inplace=inplace, attrs=attrs, batch=keeps_batch)


def _relu(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    # fmax, not maximum: Relu(NaN) is 0 on the CPU plugin
    return np.fmax(x, x.dtype.type(0), out=out)


def _sign(x: np.ndarray) -> np.ndarray:
    return np.sign(x)


def _round_half_to_even(x: np.ndarray) -> np.ndarray:
    return np.rint(x)


def _round_half_away(x: np.ndarray) -> np.ndarray:
    return np.trunc(x + np.copysign(x.dtype.type(0.5), x)) if x.dtype.kind == "f" else x


def _hsigmoid(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    r = np.add(x, F32(3.0), out=out)
    np.fmax(r, F32(0.0), out=r)  # NaN -> 0, as on the CPU
    np.fmin(r, F32(6.0), out=r)
    r *= F32(1.0 / 6.0)
    return r


def _hswish(x: np.ndarray) -> np.ndarray:
    return x * _hsigmoid(x)


def _softplus(x: np.ndarray) -> np.ndarray:
    # log(1 + exp(x)) without overflow: x + log1p(exp(-x)) for large x
    return np.where(x > 20, x, np.log1p(np.exp(np.minimum(x, 20))))


def _mish(x: np.ndarray) -> np.ndarray:
    return x * np.tanh(_softplus(x))


def _softsign(x: np.ndarray) -> np.ndarray:
    return x / (F32(1.0) + np.abs(x))


register("Relu", "opset1", _same_infer, _ufunc(_relu), cost_per_elem(SIMPLE), inplace=True,
         batch=keeps_batch)
register("Sigmoid", "opset1", _real_infer,
         lambda n, xs, ctx: [K.sigmoid(xs[0], out=_out(ctx, xs[0]))], cost_per_elem(4),
         inplace=True, batch=keeps_batch)
for _name, _version, _kernel, _cost, _ints in [
    ("Abs", "opset1", _ufunc(np.absolute), SIMPLE, True),
    ("Negative", "opset1", _ufunc(np.negative), SIMPLE, True),
    ("Sign", "opset1", _fn(_sign), SIMPLE, True),
    ("Floor", "opset1", _ufunc(np.floor), SIMPLE, False),
    ("Ceiling", "opset1", _ufunc(np.ceil), SIMPLE, False),
    ("Exp", "opset1", _ufunc(K.exp_nan_inf), TRANSCENDENTAL, False),
    ("Log", "opset1", _ufunc(np.log), TRANSCENDENTAL, False),
    ("Sqrt", "opset1", _ufunc(np.sqrt), TRANSCENDENTAL, False),
    ("Tanh", "opset1", _ufunc(np.tanh), TRANSCENDENTAL, False),
    ("Erf", "opset1", _fn(K.erf), TRANSCENDENTAL, False),
    ("Sin", "opset1", _ufunc(np.sin), TRANSCENDENTAL, False),
    ("Cos", "opset1", _ufunc(np.cos), TRANSCENDENTAL, False),
    ("Tan", "opset1", _ufunc(np.tan), TRANSCENDENTAL, False),
    ("Asin", "opset1", _ufunc(np.arcsin), TRANSCENDENTAL, False),
    ("Acos", "opset1", _ufunc(np.arccos), TRANSCENDENTAL, False),
    ("Atan", "opset1", _ufunc(np.arctan), TRANSCENDENTAL, False),
    ("Sinh", "opset1", _ufunc(np.sinh), TRANSCENDENTAL, False),
    ("Cosh", "opset1", _ufunc(np.cosh), TRANSCENDENTAL, False),
    ("Asinh", "opset4", _ufunc(np.arcsinh), TRANSCENDENTAL, False),
    ("Acosh", "opset4", _ufunc(np.arccosh), TRANSCENDENTAL, False),
    ("Atanh", "opset4", _ufunc(np.arctanh), TRANSCENDENTAL, False),
    ("SoftPlus", "opset4", _fn(_softplus), TRANSCENDENTAL, False),
    ("SoftSign", "opset9", _fn(_softsign), SIMPLE, False),
    ("Mish", "opset4", _fn(_mish), COMPOSITE, False),
    ("HSigmoid", "opset5", _ufunc(_hsigmoid), SIMPLE, False),
    ("HSwish", "opset4", _fn(_hswish), SIMPLE, False),
]:
    _unary(_name, _version, _kernel, _cost, _ints)


def _round(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    if x.dtype.kind != "f":
        return [x.copy()]
    fn = _round_half_to_even if node._attrs["mode"] == "half_to_even" else _round_half_away
    return [fn(x)]


_unary("Round", "opset5", _round, SIMPLE, ints=True,
       attrs=[Attr("mode", "str", "half_to_even", ("half_to_even", "half_away_from_zero"))])


def _clamp_infer(node: Node) -> list[ShapeType]:
    lo, hi = node._attrs["min"], node._attrs["max"]
    need(lo <= hi, f"min_value ({lo}) must not be greater than max_value ({hi})")
    return _numeric_infer(node)


def _clamp(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    lo, hi = node._attrs["min"], node._attrs["max"]
    if x.dtype.kind != "f":
        lo, hi = math.ceil(lo), math.floor(hi)
        return [np.clip(x, x.dtype.type(lo), x.dtype.type(hi), out=_out(ctx, x))]
    # fmax then fmin: NaN becomes the lower bound, as on the CPU plugin
    r = np.fmax(x, x.dtype.type(lo), out=_out(ctx, x))
    return [np.fmin(r, x.dtype.type(hi), out=r)]


_unary("Clamp", "opset1", _clamp, SIMPLE, ints=True, infer=_clamp_infer,
       attrs=[Attr("min", "float"), Attr("max", "float")])


def _gelu(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    if node._attrs["approximation_mode"] == "ERF":
        # (x * (1 + erf(x / sqrt 2))) / 2 in that order: 3.4e38 overflows to inf as on the CPU,
        # whose Gelu(erf) of +inf is NaN
        r = x * (F32(1.0) + K.erf(x * F32(1.0 / math.sqrt(2.0))))
        r *= F32(0.5)
        r[np.isposinf(x)] = np.nan
        return [r]
    inner = F32(math.sqrt(2.0 / math.pi)) * (x + F32(0.044715) * x * x * x)
    return [(F32(0.5) * x) * (F32(1.0) + np.tanh(inner))]


_unary("Gelu", "opset7", _gelu, COMPOSITE, inplace=False,
       attrs=[Attr("approximation_mode", "str", "ERF", ("ERF", "TANH"))])


def _param_infer(node: Node, n_params: int) -> list[ShapeType]:
    """Float data plus ``n_params`` parameter inputs (alpha, beta, slope ...) of its type."""
    out = _real_infer(node)
    t = node._in_type(0)
    for i in range(1, 1 + n_params):
        if i < len(node._inputs):
            need(node._in_type(i) == t, f"input {i} must have the data's element type "
                 f"{t.get_type_name()}, got {node._in_type(i).get_type_name()}")
    return out


def _swish(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    beta = xs[1] if len(xs) > 1 else F32(1.0)
    return [x * K.sigmoid(x * beta)]


def _swish_infer(node: Node) -> list[ShapeType]:
    out = _param_infer(node, 1)
    if len(node._inputs) > 1:
        need(len(node._in_shape(1)) == 0 or node._in_shape(1) == (1,),
             f"beta must be a scalar, got shape {shape_str(node._in_shape(1))}")
    return out


def _elu(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    alpha = F32(node._attrs["alpha"])
    return [np.where(x > 0, x, alpha * (np.exp(np.minimum(x, 0)) - F32(1.0))).astype(x.dtype)]


def _selu(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x, alpha, lam = xs
    neg = alpha * (np.exp(np.minimum(x, 0)) - F32(1.0))
    return [(lam * np.where(x > 0, x, neg)).astype(x.dtype)]


def _prelu_infer(node: Node) -> list[ShapeType]:
    """The slope is a scalar, one value per channel (axis 1), or broadcasts to the data."""
    out = _param_infer(node, 1)
    x, s = tuple(node._in_shape(0)), tuple(node._in_shape(1))
    per_channel = len(s) == 1 and len(x) >= 2 and s[0] == x[1]
    try:
        broadcasts = np.broadcast_shapes(s, x) == x
    except ValueError:
        broadcasts = False
    need(per_channel or broadcasts, f"slope shape {shape_str(s)} must be a scalar, one value "
         f"per channel of {shape_str(x)}, or broadcast to it")
    return out


def _prelu(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x, slope = xs
    if slope.ndim == 1 and x.ndim >= 2 and slope.shape[0] == x.shape[1] and slope.shape[0] != 1:
        slope = slope.reshape((1, -1) + (1,) * (x.ndim - 2))  # per channel
    return [np.where(x < 0, x * slope, x).astype(x.dtype)]


def _hard_sigmoid(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x, alpha, beta = xs
    r = np.fmin(alpha * x + beta, F32(1.0))  # min first: NaN gives 1, as on the CPU plugin
    return [np.fmax(r, F32(0.0)).astype(x.dtype)]


_unary("Swish", "opset4", _swish, COMPOSITE, infer=_swish_infer, inplace=False)
_unary("Elu", "opset1", _elu, TRANSCENDENTAL, attrs=[Attr("alpha", "float")], inplace=False)
_unary("Selu", "opset1", _selu, TRANSCENDENTAL, infer=lambda n: _param_infer(n, 2),
       inplace=False)
_unary("PRelu", "opset1", _prelu, SIMPLE, infer=_prelu_infer, inplace=False)
_unary("HardSigmoid", "opset1", _hard_sigmoid, SIMPLE, infer=lambda n: _param_infer(n, 2),
       inplace=False)


def _bool_out_infer(node: Node) -> list[ShapeType]:
    _real_infer(node)
    return [(node._in_shape(0), Type.boolean)]


def _is_inf(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x, a = xs[0], node._attrs
    if a["detect_positive"] and a["detect_negative"]:
        return [np.isinf(x)]
    if a["detect_positive"]:
        return [np.isposinf(x)]
    if a["detect_negative"]:
        return [np.isneginf(x)]
    return [np.zeros(x.shape, np.bool_)]


_unary("IsNaN", "opset10", lambda n, xs, c: [np.isnan(xs[0])], SIMPLE, infer=_bool_out_infer,
       inplace=False)
_unary("IsFinite", "opset10", lambda n, xs, c: [np.isfinite(xs[0])], SIMPLE,
       infer=_bool_out_infer, inplace=False)
_unary("IsInf", "opset10", _is_inf, SIMPLE, infer=_bool_out_infer, inplace=False,
       attrs=[Attr("detect_negative", "bool", True), Attr("detect_positive", "bool", True)])


def _logical_not_infer(node: Node) -> list[ShapeType]:
    need(node._in_type(0) == Type.boolean, f"Input element type must be boolean, got "
         f"{node._in_type(0).get_type_name()}")
    return [(node._in_shape(0), Type.boolean)]


def _bitwise_infer(node: Node) -> list[ShapeType]:
    t = node._in_type(0)
    need(not t.is_real(), f"Bitwise ops need integer or boolean inputs, got {t.get_type_name()}")
    return [(node._in_shape(0), t)]


register("LogicalNot", "opset1", _logical_not_infer, lambda n, xs, c: [np.logical_not(xs[0])],
         cost_per_elem(SIMPLE), batch=keeps_batch)
register("BitwiseNot", "opset13", _bitwise_infer, lambda n, xs, c: [np.invert(xs[0])],
         cost_per_elem(SIMPLE), batch=keeps_batch)


# --- binary ops -------------------------------------------------------------------------------
def _binary_infer(node: Node, out_type: Type | None = None,
                  check: Callable[[Type], str | None] | None = None) -> list[ShapeType]:
    from .ops import broadcast
    # OpenVINO's order: the element types agree, the shapes broadcast, then the op's own
    # type rule (validate_and_infer_elementwise_args, then the arithmetic/logical check)
    t = same_type(node, [0, 1])
    shape = broadcast(node._in_shape(0), node._in_shape(1), node._attrs["auto_broadcast"])
    if check is not None:
        problem = check(t)
        need(problem is None, str(problem))
    return [(shape, out_type or t)]


def _binary(fn: Callable[..., np.ndarray]) -> Kernel:
    def compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
        a, b = xs
        if str(node._attrs.get("auto_broadcast", "")).upper() == "PDPD":
            from .ops import pdpd_align
            b = pdpd_align(np.asarray(b), np.ndim(a))
        out = a if ctx.donate and a.flags.writeable and a.shape == tuple(node._out_shapes[0]) \
            and a.dtype == np.result_type(a, b) else None
        return [fn(a, b, out=out)]
    return compute


def _int_min(dtype: np.dtype) -> int:
    return int(np.iinfo(dtype).min) if dtype.kind in "iu" else 0


def _divide(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    if a.dtype.kind not in "iu":
        return np.divide(a, b, out=out)
    # the CPU plugin truncates integer division (-7 / 2 = -3) and gives the type's minimum
    # for a division by zero
    zero = b == 0
    safe = np.where(zero, 1, b)
    q = np.floor_divide(a, safe)
    q += ((q * safe != a) & ((a < 0) != (safe < 0))).astype(q.dtype)
    return np.where(zero, _int_min(q.dtype), q).astype(np.result_type(a, b))


def _int_mod(a: np.ndarray, b: np.ndarray, fn: np.ufunc) -> np.ndarray:
    zero = b == 0
    r = fn(a, np.where(zero, 1, b))
    return np.where(zero, _int_min(r.dtype), r).astype(np.result_type(a, b))


def _floor_mod(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    # a - floor(a / b) * b in float32, as the CPU plugin computes it (measured: 1e30 mod 3 is
    # 0, x mod inf is NaN, 3e38 mod -0.74 is -inf)
    if a.dtype.kind in "iu":
        return _int_mod(a, b, np.mod)
    return a - np.floor(a / b) * b


def _mod(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    if a.dtype.kind in "iu":
        return _int_mod(a, b, np.fmod)
    return a - np.trunc(a / b) * b


def _power(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    if a.dtype.kind not in "iu":
        return np.power(a, b, out=out)
    r = np.trunc(np.power(a.astype(np.float64), b.astype(np.float64)))
    return K.float_to_int(r, np.result_type(a, b))


def _maximum(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    return np.where(a > b, a, b)  # a NaN in either gives b, as the CPU plugin's max does


def _minimum(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    return np.where(a < b, a, b)


def _squared_difference(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    d = np.asarray(np.subtract(a, b, out=out))  # a 0-d result is an array too
    return np.multiply(d, d, out=d)


def _greater(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    return ~np.less_equal(a, b)  # NaN compares greater on the CPU plugin ("not less-equal")


def _greater_equal(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    return ~np.less(a, b)


def _numeric_check(t: Type) -> str | None:
    return ("This operation does not support inputs with element type: boolean"
            if t == Type.boolean else None)


def _bool_check(t: Type) -> str | None:
    return None if t == Type.boolean else ("Operands for logical operators must have boolean "
                                           f"element type but have element type "
                                           f"{t.get_type_name()}.")


def _bitwise_check(t: Type) -> str | None:
    return None if not t.is_real() else ("The element type of the input tensor must be integer "
                                         "or boolean.")


def _shift_check(t: Type) -> str | None:
    return None if t.is_integral_number() else ("The element type of the input tensor must be "
                                                "integer number.")


def _reg_binary(type_name: str, version: str, fn: Callable[..., np.ndarray],
                out_type: Type | None = None, check: Callable[[Type], str | None] | None = None,
                inplace: bool = True, extra: Sequence[Attr] = ()) -> None:
    register(type_name, version, lambda n: _binary_infer(n, out_type, check), _binary(fn),
             cost_per_elem(SIMPLE), inplace=inplace and out_type is None,
             attrs=[AUTO_BROADCAST, *extra], batch=keeps_batch)


_reg_binary("Add", "opset1", np.add, check=_numeric_check)
_reg_binary("Subtract", "opset1", np.subtract, check=_numeric_check)
_reg_binary("Multiply", "opset1", np.multiply, check=_numeric_check)
_reg_binary("Divide", "opset1", _divide, check=_numeric_check,
            extra=[Attr("m_pythondiv", "bool", True)])
_reg_binary("Power", "opset1", _power, check=_numeric_check, inplace=False)
_reg_binary("Maximum", "opset1", _maximum, check=_numeric_check, inplace=False)
_reg_binary("Minimum", "opset1", _minimum, check=_numeric_check, inplace=False)
_reg_binary("SquaredDifference", "opset1", _squared_difference, check=_numeric_check)
_reg_binary("FloorMod", "opset1", _floor_mod, check=_numeric_check, inplace=False)
_reg_binary("Mod", "opset1", _mod, check=_numeric_check, inplace=False)
_reg_binary("Equal", "opset1", np.equal, Type.boolean)
_reg_binary("NotEqual", "opset1", np.not_equal, Type.boolean)
_reg_binary("Less", "opset1", np.less, Type.boolean)
_reg_binary("LessEqual", "opset1", np.less_equal, Type.boolean)
_reg_binary("Greater", "opset1", _greater, Type.boolean)
_reg_binary("GreaterEqual", "opset1", _greater_equal, Type.boolean)
_reg_binary("LogicalAnd", "opset1", np.logical_and, Type.boolean, _bool_check)
_reg_binary("LogicalOr", "opset1", np.logical_or, Type.boolean, _bool_check)
_reg_binary("LogicalXor", "opset2", np.logical_xor, Type.boolean, _bool_check)
_reg_binary("BitwiseAnd", "opset13", np.bitwise_and, check=_bitwise_check, inplace=False)
_reg_binary("BitwiseOr", "opset13", np.bitwise_or, check=_bitwise_check, inplace=False)
_reg_binary("BitwiseXor", "opset13", np.bitwise_xor, check=_bitwise_check, inplace=False)
_reg_binary("BitwiseLeftShift", "opset15", np.left_shift, check=_shift_check, inplace=False)
_reg_binary("BitwiseRightShift", "opset15", np.right_shift, check=_shift_check, inplace=False)


def _select_infer(node: Node) -> list[ShapeType]:
    from .ops import broadcast
    need(node._in_type(0) == Type.boolean, f"Argument 0 must have boolean element type, got "
         f"{node._in_type(0).get_type_name()}")
    t = same_type(node, [1, 2])
    mode = node._attrs["auto_broadcast"]
    shape = broadcast(node._in_shape(1), node._in_shape(2), mode)
    shape = broadcast(node._in_shape(0), shape, mode)
    return [(shape, t)]


register("Select", "opset1", _select_infer, lambda n, xs, c: [np.where(xs[0], xs[1], xs[2])],
         cost_per_elem(SIMPLE), attrs=[AUTO_BROADCAST], batch=keeps_batch)


# --- Convert ------------------------------------------------------------------------------------
def _convert_infer(node: Node) -> list[ShapeType]:
    return [(node._in_shape(0), node._attrs["destination_type"])]


def _convert_to(x: np.ndarray, t: Type) -> np.ndarray:
    if t.is_real():
        return x.astype(F32, copy=True)
    dt = t.to_dtype()
    if dt == np.bool_:
        return (x != 0) & ~np.isnan(x) if x.dtype.kind == "f" else x != 0  # NaN -> False
    if x.dtype.kind == "f":
        return K.float_to_int(x, dt)
    return x.astype(dt, copy=True)


def _convert(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    return [_convert_to(xs[0], node._attrs["destination_type"])]


register("Convert", "opset1", _convert_infer, _convert, out0_elems,
         attrs=[Attr("destination_type", "type")], batch=keeps_batch)


def _convert_like_infer(node: Node) -> list[ShapeType]:
    return [(node._in_shape(0), node._in_type(1))]


def _convert_like(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    return [_convert_to(xs[0], node._in_type(1))]


register("ConvertLike", "opset1", _convert_like_infer, _convert_like, out0_elems,
         batch=lambda n, live: keeps_batch(n, live[:1]))


# --- builders (openvino.opset13's names, argument order and defaults) ---------------------------
def relu(node: NodeInput, name: str | None = None) -> Node:
    """Relu-1: max(x, 0); NaN gives 0 as on the CPU plugin."""
    return make_node("Relu", [node], name=name)


def sigmoid(data: NodeInput, name: str | None = None) -> Node:
    return make_node("Sigmoid", [data], name=name)


def clamp(data: NodeInput, min_value: float, max_value: float, name: str | None = None) -> Node:
    """Clamp-1: values into [min_value, max_value]; NaN gives min_value, as on the CPU."""
    return make_node("Clamp", [data], {"min": min_value, "max": max_value}, name)


def abs(node: NodeInput, name: str | None = None) -> Node:  # noqa: A001 - OpenVINO's name
    return make_node("Abs", [node], name=name)


def absolute(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Abs", [node], name=name)


def negative(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Negative", [node], name=name)


def sign(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Sign", [node], name=name)


def floor(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Floor", [node], name=name)


def ceiling(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Ceiling", [node], name=name)


def ceil(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Ceiling", [node], name=name)


def exp(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Exp", [node], name=name)


def log(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Log", [node], name=name)


def sqrt(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Sqrt", [node], name=name)


def tanh(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Tanh", [node], name=name)


def erf(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Erf", [node], name=name)


def sin(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Sin", [node], name=name)


def cos(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Cos", [node], name=name)


def tan(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Tan", [node], name=name)


def asin(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Asin", [node], name=name)


def acos(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Acos", [node], name=name)


def atan(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Atan", [node], name=name)


def sinh(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Sinh", [node], name=name)


def cosh(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Cosh", [node], name=name)


def asinh(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Asinh", [node], name=name)


def acosh(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Acosh", [node], name=name)


def atanh(node: NodeInput, name: str | None = None) -> Node:
    return make_node("Atanh", [node], name=name)


def softplus(data: NodeInput, name: str | None = None) -> Node:
    return make_node("SoftPlus", [data], name=name)


def softsign(node: NodeInput, name: str | None = None) -> Node:
    return make_node("SoftSign", [node], name=name)


def mish(data: NodeInput, name: str | None = None) -> Node:
    return make_node("Mish", [data], name=name)


def hsigmoid(data: NodeInput, name: str | None = None) -> Node:
    return make_node("HSigmoid", [data], name=name)


def hswish(data: NodeInput, name: str | None = None) -> Node:
    return make_node("HSwish", [data], name=name)


def round(data: NodeInput, mode: str = "half_to_even", name: str | None = None) -> Node:  # noqa: A001
    return make_node("Round", [data], {"mode": mode}, name)


def gelu(data: NodeInput, approximation_mode: str, name: str | None = None) -> Node:
    """Gelu-7: ``approximation_mode`` "erf" (exact) or "tanh"."""
    return make_node("Gelu", [data], {"approximation_mode": approximation_mode}, name)


def swish(data: NodeInput, beta: NodeInput | None = None, name: str | None = None) -> Node:
    """Swish-4: x * sigmoid(beta * x) (beta 1 if not given)."""
    if beta is None:  # OpenVINO's builder always passes beta, a Constant 1.0 by default
        beta = np.array(1.0, F32)
    return make_node("Swish", [data, beta], name=name)


def elu(data: NodeInput, alpha: float, name: str | None = None) -> Node:
    return make_node("Elu", [data], {"alpha": alpha}, name)


def selu(data: NodeInput, alpha: NodeInput, lambda_value: NodeInput,
         name: str | None = None) -> Node:
    return make_node("Selu", [data, alpha, lambda_value], name=name)


def prelu(data: NodeInput, slope: NodeInput, name: str | None = None) -> Node:
    """PRelu-1: x for x >= 0, slope * x below (slope a scalar or one value per channel)."""
    return make_node("PRelu", [data, slope], name=name)


def hard_sigmoid(data: NodeInput, alpha: NodeInput, beta: NodeInput,
                 name: str | None = None) -> Node:
    return make_node("HardSigmoid", [data, alpha, beta], name=name)


def is_nan(data: NodeInput, name: str | None = None) -> Node:
    return make_node("IsNaN", [data], name=name)


def is_finite(data: NodeInput, name: str | None = None) -> Node:
    return make_node("IsFinite", [data], name=name)


def is_inf(data: NodeInput, attributes: dict | None = None, name: str | None = None) -> Node:
    """IsInf-10; ``attributes`` may hold ``detect_negative`` / ``detect_positive``."""
    return make_node("IsInf", [data], dict(attributes or {}), name)


def logical_not(node: NodeInput, name: str | None = None) -> Node:
    return make_node("LogicalNot", [node], name=name)


def bitwise_not(node: NodeInput, name: str | None = None) -> Node:
    return make_node("BitwiseNot", [node], name=name)


def _bin(type_name: str, a: NodeInput, b: NodeInput, auto_broadcast: str,
         name: str | None) -> Node:
    return make_node(type_name, [a, b], {"auto_broadcast": auto_broadcast}, name)


def add(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
        name: str | None = None) -> Node:
    return _bin("Add", left_node, right_node, auto_broadcast, name)


def subtract(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
             name: str | None = None) -> Node:
    return _bin("Subtract", left_node, right_node, auto_broadcast, name)


def multiply(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
             name: str | None = None) -> Node:
    return _bin("Multiply", left_node, right_node, auto_broadcast, name)


def divide(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
           name: str | None = None) -> Node:
    """Divide-1; integers divide with truncation as on the CPU plugin."""
    return _bin("Divide", left_node, right_node, auto_broadcast, name)


def power(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
          name: str | None = None) -> Node:
    return _bin("Power", left_node, right_node, auto_broadcast, name)


def maximum(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
            name: str | None = None) -> Node:
    return _bin("Maximum", left_node, right_node, auto_broadcast, name)


def minimum(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
            name: str | None = None) -> Node:
    return _bin("Minimum", left_node, right_node, auto_broadcast, name)


def squared_difference(x1: NodeInput, x2: NodeInput, auto_broadcast: str = "NUMPY",
                       name: str | None = None) -> Node:
    return _bin("SquaredDifference", x1, x2, auto_broadcast, name)


def floor_mod(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
              name: str | None = None) -> Node:
    return _bin("FloorMod", left_node, right_node, auto_broadcast, name)


def mod(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
        name: str | None = None) -> Node:
    return _bin("Mod", left_node, right_node, auto_broadcast, name)


def equal(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
          name: str | None = None) -> Node:
    return _bin("Equal", left_node, right_node, auto_broadcast, name)


def not_equal(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
              name: str | None = None) -> Node:
    return _bin("NotEqual", left_node, right_node, auto_broadcast, name)


def less(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
         name: str | None = None) -> Node:
    return _bin("Less", left_node, right_node, auto_broadcast, name)


def less_equal(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
               name: str | None = None) -> Node:
    return _bin("LessEqual", left_node, right_node, auto_broadcast, name)


def greater(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
            name: str | None = None) -> Node:
    return _bin("Greater", left_node, right_node, auto_broadcast, name)


def greater_equal(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
                  name: str | None = None) -> Node:
    return _bin("GreaterEqual", left_node, right_node, auto_broadcast, name)


def logical_and(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
                name: str | None = None) -> Node:
    return _bin("LogicalAnd", left_node, right_node, auto_broadcast, name)


def logical_or(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
               name: str | None = None) -> Node:
    return _bin("LogicalOr", left_node, right_node, auto_broadcast, name)


def logical_xor(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
                name: str | None = None) -> Node:
    return _bin("LogicalXor", left_node, right_node, auto_broadcast, name)


def bitwise_and(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
                name: str | None = None) -> Node:
    return _bin("BitwiseAnd", left_node, right_node, auto_broadcast, name)


def bitwise_or(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
               name: str | None = None) -> Node:
    return _bin("BitwiseOr", left_node, right_node, auto_broadcast, name)


def bitwise_xor(left_node: NodeInput, right_node: NodeInput, auto_broadcast: str = "NUMPY",
                name: str | None = None) -> Node:
    return _bin("BitwiseXor", left_node, right_node, auto_broadcast, name)


def bitwise_left_shift(arg0: NodeInput, arg1: NodeInput, auto_broadcast: str = "NUMPY",
                       name: str | None = None) -> Node:
    """BitwiseLeftShift-15: ``arg0 << arg1``, elementwise on integers (served in opset15+:
    ``opset_versions.BUILDERS``; ``ovlab.opset`` keeps opset13's names)."""
    return _bin("BitwiseLeftShift", arg0, arg1, auto_broadcast, name)


def bitwise_right_shift(arg0: NodeInput, arg1: NodeInput, auto_broadcast: str = "NUMPY",
                        name: str | None = None) -> Node:
    """BitwiseRightShift-15: ``arg0 >> arg1`` (arithmetic for signed types)."""
    return _bin("BitwiseRightShift", arg0, arg1, auto_broadcast, name)


def select(cond: NodeInput, then_node: NodeInput, else_node: NodeInput,
           auto_broadcast: str = "numpy", name: str | None = None) -> Node:
    return make_node("Select", [cond, then_node, else_node], {"auto_broadcast": auto_broadcast},
                     name)


def convert(data: NodeInput, destination_type: object, name: str | None = None) -> Node:
    """Convert-1. Floats to integers truncate; NaN, infinities and values outside int32 give
    int32's minimum (wrapped to narrower types), as the CPU plugin's conversion does."""
    return make_node("Convert", [data], {"destination_type": as_type(destination_type)}, name)


def convert_like(data: NodeInput, like: NodeInput, name: str | None = None) -> Node:
    return make_node("ConvertLike", [data, like], name=name)
