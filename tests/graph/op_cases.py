"""One small graph per opset13 builder (often several), written once against the OpenVINO API
and built with either ``openvino.opset13`` or ``ovlab.opset13`` (``test_ops_vs_openvino.py``).

A case's ``build(ops, params)`` returns the outputs; ``inputs`` describes the parameters
(shape, kind): ``f`` standard normal f32, ``pos`` positive f32, ``unit`` f32 in (-0.9, 0.9),
``i`` int32 in [-9, 9] without 0, ``idx:N`` int32 in [0, N), ``b`` boolean. ``special`` says
how NaN/inf are injected into float inputs: "full" (NaN, +-inf and huge values), "inf" (no
NaN: ops whose NaN result depends on the plugin's evaluation order), "none".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

I64 = np.int64
F32 = np.float32


@dataclass
class Case:
    id: str
    build: Callable[[Any, list[Any]], Any]
    inputs: list[tuple[tuple[int, ...], str]]
    builders: tuple[str, ...] = ()
    special: str = "full"
    rtol: float = 1e-4

    def __post_init__(self) -> None:
        if not self.builders:
            self.builders = (self.id.split("[")[0],)


def make_inputs(case: Case, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for shape, kind in case.inputs:
        if kind == "f":
            out.append(rng.standard_normal(shape).astype(F32))
        elif kind == "pos":
            out.append(rng.uniform(0.1, 3.0, shape).astype(F32))
        elif kind == "unit":
            out.append(rng.uniform(-0.9, 0.9, shape).astype(F32))
        elif kind == "i":
            v = rng.integers(-9, 10, shape).astype(np.int32)
            out.append(np.where(v == 0, 3, v).astype(np.int32))
        elif kind.startswith("idx:"):
            out.append(rng.integers(0, int(kind[4:]), shape).astype(np.int32))
        elif kind == "b":
            out.append(rng.random(shape) < 0.5)
        else:
            raise ValueError(kind)
    return out


def c(shape: tuple[int, ...], seed: int, scale: float = 1.0) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(F32)


def _i(*v: int) -> np.ndarray:
    return np.array(v, I64)


F4 = ((1, 3, 4, 5), "f")
CASES: list[Case] = []


def case(id: str, inputs: list[tuple[tuple[int, ...], str]], special: str = "full",  # noqa: A002
         builders: tuple[str, ...] = (), rtol: float = 1e-4):
    def deco(fn: Callable[[Any, list[Any]], Any]) -> Callable[[Any, list[Any]], Any]:
        CASES.append(Case(id, fn, inputs, builders, special, rtol))
        return fn
    return deco


# --- unary elementwise ------------------------------------------------------------------------
_UNARY = {
    "abs": "f", "absolute": "f", "exp": "f", "log": "pos", "sqrt": "pos", "tanh": "f",
    "erf": "f", "negative": "f", "floor": "f", "ceiling": "f", "ceil": "f", "sign": "f",
    "sin": "f", "cos": "f", "tan": "unit", "asin": "unit", "acos": "unit", "atan": "f",
    "sinh": "f", "cosh": "f", "asinh": "f", "atanh": "unit", "softplus": "f",
    "softsign": "f", "mish": "f", "hsigmoid": "f", "hswish": "f", "relu": "f", "sigmoid": "f",
    "is_nan": "f", "is_finite": "f",
}
for _name, _kind in _UNARY.items():
    CASES.append(Case(_name, (lambda n: lambda ops, p: getattr(ops, n)(p[0]))(_name),
                      [((2, 3, 4, 5), _kind)]))
CASES.append(Case("acosh", lambda ops, p: ops.acosh(ops.add(p[0], np.float32(1.0))),
                  [((2, 3, 4), "pos")], builders=("acosh", "add")))


@case("abs[i32]", [((2, 6), "i")])
def _abs_int(ops, p):
    return ops.abs(p[0])


@case("negative[i32]", [((2, 6), "i")])
def _neg_int(ops, p):
    return ops.negative(p[0])


@case("round[half_to_even]", [((2, 3, 4), "f")])
def _round_even(ops, p):
    return ops.round(ops.multiply(p[0], np.float32(2.0)), "half_to_even")


@case("round[half_away]", [((2, 3, 4), "f")])
def _round_away(ops, p):
    return ops.round(ops.multiply(p[0], np.float32(2.0)), "half_away_from_zero")


@case("gelu[erf]", [F4])
def _gelu_erf(ops, p):
    return ops.gelu(p[0], "erf")


@case("gelu[tanh]", [F4])
def _gelu_tanh(ops, p):
    return ops.gelu(p[0], "tanh")


@case("swish[default]", [F4])
def _swish(ops, p):
    return ops.swish(p[0])


@case("swish[beta]", [F4])
def _swish_beta(ops, p):
    return ops.swish(p[0], np.float32(0.7))


@case("elu", [F4])
def _elu(ops, p):
    return ops.elu(p[0], 0.5)


@case("selu", [F4])
def _selu(ops, p):
    return ops.selu(p[0], np.array([1.67], F32), np.array([1.05], F32))


@case("prelu[scalar]", [F4])
def _prelu(ops, p):
    return ops.prelu(p[0], np.array([0.1], F32))


@case("prelu[channel]", [F4])
def _prelu_c(ops, p):
    return ops.prelu(p[0], np.array([0.1, -0.2, 0.3], F32))


@case("hard_sigmoid", [F4])
def _hard_sigmoid(ops, p):
    return ops.hard_sigmoid(p[0], np.array(0.2, F32), np.array(0.5, F32))


@case("clamp", [F4])
def _clamp(ops, p):
    return ops.clamp(p[0], -0.5, 0.75)


@case("clamp[relu6]", [F4])
def _relu6(ops, p):
    return ops.clamp(p[0], 0.0, 6.0)


@case("is_inf", [F4])
def _is_inf(ops, p):
    return ops.is_inf(p[0])


@case("is_inf[positive]", [F4])
def _is_inf_pos(ops, p):
    return ops.is_inf(p[0], {"detect_negative": False})


@case("logical_not", [((3, 4), "b")])
def _lnot(ops, p):
    return ops.logical_not(p[0])


@case("bitwise_not", [((3, 4), "i")])
def _bnot(ops, p):
    return ops.bitwise_not(p[0])


# --- binary elementwise -------------------------------------------------------------------------
_BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "squared_difference",
           "floor_mod", "mod", "equal", "not_equal", "greater", "greater_equal", "less",
           "less_equal"]
for _name in _BINARY:
    CASES.append(Case(_name, (lambda n: lambda ops, p: getattr(ops, n)(p[0], p[1]))(_name),
                      [((2, 3, 4), "f"), ((3, 1), "f")]))
CASES.append(Case("power", lambda ops, p: ops.power(p[0], p[1]),
                  [((2, 3, 4), "pos"), ((3, 1), "f")]))
CASES.append(Case("equal[exact]", lambda ops, p: ops.equal(p[0], ops.floor(p[0])),
                  [((2, 3, 4), "f")], builders=("equal", "floor")))
for _name in ["add", "subtract", "multiply", "divide", "floor_mod", "mod", "maximum", "minimum",
              "squared_difference", "greater"]:
    CASES.append(Case(f"{_name}[i32]", (lambda n: lambda ops, p: getattr(ops, n)(p[0], p[1]))(
        _name), [((2, 5), "i"), ((2, 5), "i")]))
CASES.append(Case("power[i32]", lambda ops, p: ops.power(p[0], ops.abs(p[1])),
                  [((2, 5), "i"), ((2, 5), "idx:3")], builders=("power", "abs")))
for _name in ["logical_and", "logical_or", "logical_xor"]:
    CASES.append(Case(_name, (lambda n: lambda ops, p: getattr(ops, n)(p[0], p[1]))(_name),
                      [((3, 4), "b"), ((1, 4), "b")]))
for _name in ["bitwise_and", "bitwise_or", "bitwise_xor"]:
    CASES.append(Case(_name, (lambda n: lambda ops, p: getattr(ops, n)(p[0], p[1]))(_name),
                      [((3, 4), "i"), ((3, 4), "i")]))


@case("select", [((2, 3, 4), "f"), ((2, 3, 4), "f")], builders=("select", "less"))
def _select(ops, p):
    return ops.select(ops.less(p[0], p[1]), p[0], p[1])


@case("select[broadcast]", [((2, 3, 4), "b"), ((3, 4), "f")])
def _select_b(ops, p):
    return ops.select(p[0], p[1], np.float32(-1.0))


@case("node_operators", [((2, 3), "f"), ((2, 3), "f")], builders=())
def _node_ops(ops, p):
    a, b = p
    return [a + b, a - b, a * b, a / b]


# --- Convert --------------------------------------------------------------------------------
for _t in ["i32", "u8", "i8", "f16", "boolean"]:
    CASES.append(Case(f"convert[f32->{_t}]", (lambda t: lambda ops, p: ops.convert(
        ops.multiply(p[0], np.float32(100.0)), t))(_t), [((2, 3, 5), "f")],
        builders=("convert", "multiply")))
CASES.append(Case("convert[i32->f32]", lambda ops, p: ops.convert(p[0], "f32"),
                  [((2, 5), "i")], builders=("convert",)))


@case("convert_like", [((2, 5), "f"), ((2, 5), "i")])
def _convert_like(ops, p):
    return ops.convert_like(ops.multiply(p[0], np.float32(7.0)), p[1])


# --- shapes and data movement ---------------------------------------------------------------
@case("reshape", [F4])
def _reshape(ops, p):
    return ops.reshape(p[0], _i(0, -1, 5), True)


@case("transpose", [F4])
def _transpose(ops, p):
    return ops.transpose(p[0], _i(0, 2, 3, 1))


@case("squeeze", [((1, 3, 1, 5), "f")])
def _squeeze(ops, p):
    return ops.squeeze(p[0], _i(2))


@case("unsqueeze", [((3, 5), "f")])
def _unsqueeze(ops, p):
    return ops.unsqueeze(p[0], _i(0, 3))


@case("concat", [F4, ((1, 2, 4, 5), "f")])
def _concat(ops, p):
    return ops.concat([p[0], p[1]], 1)


@case("split", [((1, 6, 4), "f")])
def _split(ops, p):
    s = ops.split(p[0], 1, 3)
    return [s.output(i) for i in range(3)]


@case("variadic_split", [((1, 6, 4), "f")])
def _vsplit(ops, p):
    s = ops.variadic_split(p[0], -1, _i(1, -1, 2))
    return [s.output(i) for i in range(3)]


@case("shape_of", [F4])
def _shape_of(ops, p):
    return ops.shape_of(p[0])


@case("shape_of[i32]", [F4])
def _shape_of32(ops, p):
    return ops.shape_of(p[0], "i32")


@case("shape_subgraph", [F4], builders=("shape_of", "gather", "concat", "reshape"))
def _shape_subgraph(ops, p):
    """ShapeOf -> Gather -> Concat -> Reshape, as converted models flatten: folds to [1, 60]."""
    batch = ops.gather(ops.shape_of(p[0]), _i(0), np.int64(0))
    target = ops.concat([batch, ops.constant(_i(-1))], 0)
    return ops.reshape(p[0], target, False)


@case("broadcast[numpy]", [((3, 1), "f")])
def _broadcast(ops, p):
    return ops.broadcast(p[0], _i(2, 3, 4))


@case("broadcast[bidirectional]", [((3, 1), "f")])
def _broadcast_bi(ops, p):
    return ops.broadcast(p[0], _i(2, 1, 4), broadcast_spec="BIDIRECTIONAL")


@case("broadcast[explicit]", [((3,), "f")])
def _broadcast_ex(ops, p):
    return ops.broadcast(p[0], _i(2, 3, 4), _i(1), "EXPLICIT")


@case("tile", [((2, 3), "f")])
def _tile(ops, p):
    return ops.tile(p[0], _i(2, 1, 3))


@case("pad[constant]", [F4])
def _pad(ops, p):
    return ops.pad(p[0], _i(0, 1, 2, 0), _i(0, 0, 1, 3), "constant", np.float32(0.5))


@case("pad[edge]", [F4])
def _pad_edge(ops, p):
    return ops.pad(p[0], _i(0, 0, 1, 2), _i(0, 0, 2, 1), "edge")


@case("pad[reflect]", [F4])
def _pad_reflect(ops, p):
    return ops.pad(p[0], _i(0, 0, 2, 1), _i(0, 0, 1, 3), "reflect")


@case("pad[symmetric,negative]", [F4])
def _pad_sym(ops, p):
    return ops.pad(p[0], _i(0, 0, -1, 2), _i(0, 0, 2, -2), "symmetric")


@case("strided_slice", [((2, 5, 6), "f")])
def _ss(ops, p):
    return ops.strided_slice(p[0], _i(0, 1, -1), _i(0, 4, 0), _i(1, 2, -2), [1, 0, 0], [1, 0, 1])


@case("strided_slice[masks]", [((2, 5, 6), "f")])
def _ss_masks(ops, p):
    return ops.strided_slice(p[0], _i(0, 0, 2, 1), _i(0, 0, 3, 5), _i(1, 1, 1, 2),
                             [0, 0, 0, 0], [0, 0, 0, 0], new_axis_mask=[0, 1, 0, 0],
                             shrink_axis_mask=[1, 0, 1, 0], ellipsis_mask=[0, 0, 0, 0])


@case("strided_slice[ellipsis]", [((2, 5, 6), "f")])
def _ss_ell(ops, p):
    return ops.strided_slice(p[0], _i(0, 1), _i(0, 4), _i(1, 1), [0, 0], [0, 0],
                             ellipsis_mask=[1, 0])


@case("slice", [((2, 5, 6), "f")])
def _slice(ops, p):
    return ops.slice(p[0], _i(4, 1), _i(0, 100), _i(-2, 2), _i(1, 2))


@case("slice[default_axes]", [((2, 5, 6), "f")])
def _slice2(ops, p):
    return ops.slice(p[0], _i(0, -3), _i(1, 5), _i(1, 1))


@case("depth_to_space[blocks_first]", [((1, 8, 2, 3), "f")])
def _d2s_b(ops, p):
    return ops.depth_to_space(p[0], "blocks_first", 2)


@case("depth_to_space[depth_first]", [((1, 8, 2, 3), "f")])
def _d2s_d(ops, p):
    return ops.depth_to_space(p[0], "depth_first", 2)


@case("space_to_depth[blocks_first]", [((1, 2, 4, 6), "f")])
def _s2d_b(ops, p):
    return ops.space_to_depth(p[0], "blocks_first", 2)


@case("space_to_depth[depth_first]", [((1, 2, 4, 6), "f")])
def _s2d_d(ops, p):
    return ops.space_to_depth(p[0], "depth_first", 2)


@case("shuffle_channels", [((1, 6, 2, 3), "f")])
def _shuffle(ops, p):
    return ops.shuffle_channels(p[0], 1, 3)


@case("batch_to_space", [((8, 1, 2, 3), "f")])
def _b2s(ops, p):
    return ops.batch_to_space(p[0], _i(1, 1, 2, 4), _i(0, 0, 1, 0), _i(0, 0, 0, 2))


@case("space_to_batch", [((2, 1, 3, 6), "f")])
def _s2b(ops, p):
    return ops.space_to_batch(p[0], _i(1, 1, 2, 4), _i(0, 0, 1, 0), _i(0, 0, 0, 2))


@case("roll", [((2, 3, 5), "f")])
def _roll(ops, p):
    return ops.roll(p[0], _i(2, -1), _i(2, 1))


@case("reverse_sequence", [((3, 5, 2), "f")])
def _reverse(ops, p):
    return ops.reverse_sequence(p[0], _i(5, 2, 0), 0, 1)


# --- indexing -------------------------------------------------------------------------------
@case("gather", [((2, 5, 3), "f")])
def _gather(ops, p):
    return ops.gather(p[0], np.array([[4, 0], [-1, 2]], np.int32), np.int64(1))


@case("gather[embedding]", [((1, 6), "idx:10")])
def _gather_emb(ops, p):
    return ops.gather(c((10, 4), 3), p[0], np.int64(0))


@case("gather[batch_dims]", [((2, 5, 3), "f")])
def _gather_bd(ops, p):
    return ops.gather(p[0], np.array([[1, 4], [0, 0]], np.int32), np.int64(1), 1)


@case("gather_elements", [((2, 4, 3), "f")])
def _gather_el(ops, p):
    idx = np.random.default_rng(5).integers(0, 4, (2, 2, 3)).astype(np.int32)
    return ops.gather_elements(p[0], idx, 1)


@case("gather_nd", [((2, 4, 3), "f")])
def _gather_nd(ops, p):
    return ops.gather_nd(p[0], np.array([[0, 1], [1, 3], [1, -1]], np.int32))


@case("gather_nd[batch_dims]", [((2, 4, 3), "f")])
def _gather_nd_b(ops, p):
    return ops.gather_nd(p[0], np.array([[[1], [3]], [[0], [2]]], np.int32), 1)


@case("scatter_update", [((4, 3, 2), "f"), ((2, 3, 2), "f")])
def _scatter(ops, p):
    return ops.scatter_update(p[0], np.array([3, 1], np.int32), p[1], np.int64(0))


@case("scatter_elements_update", [((3, 4), "f"), ((3, 2), "f")])
def _scatter_el(ops, p):
    return ops.scatter_elements_update(p[0], np.array([[0, 3], [1, 2], [3, 0]], np.int32), p[1],
                                       np.int64(1))


@case("scatter_elements_update[sum]", [((3, 4), "f"), ((3, 2), "f")])
def _scatter_el_sum(ops, p):
    return ops.scatter_elements_update(p[0], np.array([[0, 0], [1, 2], [3, 3]], np.int32), p[1],
                                       np.int64(1), "sum")


@case("scatter_nd_update", [((4, 3), "f"), ((2, 3), "f")])
def _scatter_nd(ops, p):
    return ops.scatter_nd_update(p[0], np.array([[2], [0]], np.int32), p[1])


@case("one_hot", [((2, 3), "idx:5")])
def _one_hot(ops, p):
    return ops.one_hot(p[0], np.int64(4), np.float32(2.0), np.float32(-1.0), -1)


@case("range[f32]", [((2, 4), "f")], builders=("range", "add"))
def _range(ops, p):
    r = ops.range(ops.constant(np.float32(0.5)), np.float32(3.0), np.float32(0.75), "f32")
    return ops.add(p[0], r)


@case("range[i32]", [((2, 4), "i")], builders=("range", "add"))
def _range_i(ops, p):
    return ops.add(p[0], ops.range(ops.constant(np.int32(7)), np.int32(-1), np.int32(-2), "i32"))


@case("eye", [((2, 3, 4), "f")], builders=("eye", "add"))
def _eye(ops, p):
    return ops.add(p[0], ops.eye(np.int64(3), np.int64(4), np.int64(1), "f32", _i(2)))


# --- reductions, TopK, CumSum ---------------------------------------------------------------
for _name in ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
              "reduce_l1", "reduce_l2"]:
    CASES.append(Case(_name, (lambda n: lambda ops, p: getattr(ops, n)(p[0], _i(1, -1)))(_name),
                      [((2, 3, 4, 5), "f")]))
    CASES.append(Case(f"{_name}[keep_dims]", (lambda n: lambda ops, p: getattr(ops, n)(
        p[0], _i(2), True))(_name), [((2, 3, 4, 5), "f")]))
CASES.append(Case("reduce_sum[i32]", lambda ops, p: ops.reduce_sum(p[0], _i(1)),
                  [((3, 5), "i")]))
for _name in ["reduce_logical_and", "reduce_logical_or"]:
    CASES.append(Case(_name, (lambda n: lambda ops, p: getattr(ops, n)(p[0], _i(1), True))(
        _name), [((3, 4, 2), "b")]))


@case("topk[max]", [((2, 7, 3), "f")], special="inf")
def _topk(ops, p):
    t = ops.topk(p[0], 3, 1, "max", "value")
    return [t.output(0), t.output(1)]


@case("topk[min,index,i64]", [((2, 7, 3), "f")], special="inf")
def _topk_min(ops, p):
    t = ops.topk(p[0], np.int64(2), -1, "min", "index", "i64")
    return [t.output(0), t.output(1)]


@case("cum_sum", [((2, 5, 3), "f")])
def _cum_sum(ops, p):
    return ops.cum_sum(p[0], np.int64(1))


@case("cumsum[exclusive,reverse]", [((2, 5, 3), "f")])
def _cumsum(ops, p):
    return ops.cumsum(p[0], np.int64(-2), True, True)


# --- neural-network ops ----------------------------------------------------------------------
@case("convolution", [F4])
def _conv(ops, p):
    return ops.convolution(p[0], c((6, 3, 3, 3), 1, 0.3), [1, 2], [1, 0], [1, 2], [1, 1])


@case("group_convolution[depthwise]", [((1, 4, 7, 7), "f")])
def _dwconv(ops, p):
    return ops.group_convolution(p[0], c((4, 1, 1, 3, 3), 2, 0.3), [2, 2], [1, 1], [1, 1], [1, 1])


@case("convolution_backprop_data", [((1, 4, 5, 6), "f")])
def _deconv(ops, p):
    return ops.convolution_backprop_data(p[0], c((4, 3, 3, 3), 3, 0.3), [2, 2],
                                         pads_begin=[1, 0], pads_end=[0, 1],
                                         output_padding=[1, 0])


@case("convolution_backprop_data[output_shape]", [((1, 4, 5, 6), "f")])
def _deconv_os(ops, p):
    return ops.convolution_backprop_data(p[0], c((4, 2, 3, 3), 3, 0.3), [2, 2],
                                         output_shape=_i(9, 12))


@case("convolution_backprop_data[same_upper,dilated]", [((1, 4, 5, 6), "f")])
def _deconv_same(ops, p):
    return ops.convolution_backprop_data(p[0], c((4, 2, 3, 3), 4, 0.3), [2, 1],
                                         dilations=[1, 2], auto_pad="same_upper")


@case("group_convolution_backprop_data", [((1, 4, 5, 6), "f")])
def _gdeconv(ops, p):
    return ops.group_convolution_backprop_data(p[0], c((2, 2, 3, 3, 3), 5, 0.3), [2, 2],
                                               pads_begin=[1, 1], pads_end=[1, 1])


@case("max_pool", [((1, 3, 7, 6), "f")], special="inf")
def _max_pool(ops, p):
    m = ops.max_pool(p[0], [2, 2], [1, 1], [1, 0], [0, 1], [3, 3], "ceil")
    return [m.output(0), m.output(1)]


@case("avg_pool", [((1, 3, 7, 6), "f")])
def _avg_pool(ops, p):
    return ops.avg_pool(p[0], [2, 2], [1, 1], [1, 1], [3, 3], True)


@case("adaptive_avg_pool", [((1, 3, 7, 10), "f")])
def _aap(ops, p):
    return ops.adaptive_avg_pool(p[0], _i(3, 4))


@case("adaptive_max_pool", [((1, 3, 7, 10), "f")], special="inf")
def _amp(ops, p):
    m = ops.adaptive_max_pool(p[0], _i(3, 4), "i32")
    return [m.output(0), m.output(1)]


@case("lrn", [((1, 6, 4, 4), "f")])
def _lrn(ops, p):
    return ops.lrn(p[0], _i(1), 1e-2, 0.75, 2.0, 3)


@case("softmax", [((2, 3, 5), "f")])
def _softmax(ops, p):
    return ops.softmax(p[0], -1)


@case("log_softmax", [((2, 3, 5), "f")])
def _log_softmax(ops, p):
    return ops.log_softmax(p[0], 1)


@case("matmul", [((2, 3, 4), "f")])
def _matmul(ops, p):
    return ops.matmul(p[0], c((5, 4), 6), False, True)


@case("einsum[batched matmul]", [((2, 3, 4), "f"), ((2, 4, 5), "f")])
def _einsum(ops, p):
    return ops.einsum([p[0], p[1]], "bij,bjk->bik")


@case("einsum[ellipsis,implicit]", [((2, 3, 4), "f"), ((4, 5), "f")])
def _einsum2(ops, p):
    return ops.einsum([p[0], p[1]], "...ij,jk")


@case("scaled_dot_product_attention", [((1, 2, 5, 4), "f"), ((1, 2, 6, 4), "f"),
                                       ((1, 2, 6, 3), "f")])
def _sdpa(ops, p):
    return ops.scaled_dot_product_attention(p[0], p[1], p[2])


@case("scaled_dot_product_attention[causal,scale]", [((1, 2, 5, 4), "f"), ((1, 2, 5, 4), "f"),
                                                     ((1, 2, 5, 3), "f")])
def _sdpa_causal(ops, p):
    return ops.scaled_dot_product_attention(p[0], p[1], p[2], scale=np.array(0.3, F32),
                                            causal=True)


@case("scaled_dot_product_attention[masks]", [((1, 2, 5, 4), "f"), ((1, 2, 6, 4), "f"),
                                              ((1, 2, 6, 3), "f"), ((1, 1, 5, 6), "f")])
def _sdpa_mask(ops, p):
    keep = np.triu(np.ones((5, 6), bool), -1)
    bool_out = ops.scaled_dot_product_attention(p[0], p[1], p[2], keep)
    return [bool_out, ops.scaled_dot_product_attention(p[0], p[1], p[2], p[3])]


@case("fake_quantize", [((1, 3, 4, 4), "f")])
def _fq(ops, p):
    lo, hi = np.float32(-1.28), np.float32(1.27)
    return ops.fake_quantize(p[0], lo, hi, lo, hi, 256)


# --- normalisations -------------------------------------------------------------------------
@case("mvn", [((2, 3, 8), "f")])
def _mvn(ops, p):
    return ops.mvn(p[0], _i(-1), True, 1e-5, "inside_sqrt")


@case("mvn[outside_sqrt,2axes]", [((2, 3, 4, 5), "f")])
def _mvn2(ops, p):
    return ops.mvn(p[0], _i(2, 3), True, 1e-3, "outside_sqrt")


@case("mvn[mean_only]", [((2, 3, 8), "f")])
def _mvn3(ops, p):
    return ops.mvn(p[0], _i(1, 2), False, 1e-5, "inside_sqrt")


@case("normalize_l2", [((2, 3, 4), "f")])
def _nl2(ops, p):
    return ops.normalize_l2(p[0], _i(1), 1e-6, "add")


@case("normalize_l2[max]", [((2, 3, 4), "f")])
def _nl2m(ops, p):
    return ops.normalize_l2(p[0], _i(1, 2), 1e-2, "max")


@case("batch_norm_inference", [F4])
def _bn(ops, p):
    return ops.batch_norm_inference(p[0], c((3,), 7), c((3,), 8), c((3,), 9),
                                    np.abs(c((3,), 10)) + 0.5, 1e-3)


@case("group_normalization", [((2, 4, 3, 3), "f")])
def _gn(ops, p):
    return ops.group_normalization(p[0], c((4,), 11), c((4,), 12), 2, 1e-5)


@case("grn", [((2, 4, 3), "f")])
def _grn(ops, p):
    return ops.grn(p[0], 1e-3)


# --- Interpolate ----------------------------------------------------------------------------
def _interp(**kw: Any) -> Callable[[Any, list[Any]], Any]:
    def build(ops, p):
        args = dict(kw)
        sizes = args.pop("sizes", None)
        if sizes is not None:
            return ops.interpolate(p[0], _i(*sizes), shape_calculation_mode="sizes",
                                   axes=_i(2, 3), **args)
        return ops.interpolate(p[0], np.array(args.pop("scales"), F32),
                               shape_calculation_mode="scales", axes=_i(2, 3), **args)
    return build


for _id, _kw in {
    "nearest[sizes]": {"mode": "nearest", "sizes": (9, 5)},
    "nearest[x2,asymmetric,floor]": {"mode": "nearest", "scales": [2.0, 2.0],
                                     "coordinate_transformation_mode": "asymmetric",
                                     "nearest_mode": "floor"},
    "nearest[round_prefer_ceil,align_corners]": {"mode": "nearest", "sizes": (7, 11),
                                                 "nearest_mode": "round_prefer_ceil",
                                                 "coordinate_transformation_mode":
                                                     "align_corners"},
    "nearest[tf_half_pixel,ceil]": {"mode": "nearest", "sizes": (3, 7),
                                    "coordinate_transformation_mode": "tf_half_pixel_for_nn",
                                    "nearest_mode": "ceil"},
    "nearest[simple,shrink]": {"mode": "nearest", "scales": [0.5, 0.75], "nearest_mode": "simple"},
    "linear_onnx[half_pixel]": {"mode": "linear_onnx", "sizes": (9, 7)},
    "linear_onnx[align_corners]": {"mode": "linear_onnx", "scales": [1.5, 2.5],
                                   "coordinate_transformation_mode": "align_corners"},
    "linear_onnx[pytorch_half_pixel,shrink]": {"mode": "linear_onnx", "sizes": (3, 1),
                                               "coordinate_transformation_mode":
                                                   "pytorch_half_pixel"},
    "linear[upsample]": {"mode": "linear", "sizes": (9, 7)},
    "linear[antialias,shrink]": {"mode": "linear", "sizes": (2, 3), "antialias": True},
    "cubic": {"mode": "cubic", "sizes": (9, 7)},
    "cubic[asymmetric,shrink]": {"mode": "cubic", "scales": [0.6, 0.8],
                                 "coordinate_transformation_mode": "asymmetric"},
}.items():
    CASES.append(Case(f"interpolate[{_id}]", _interp(**_kw), [((1, 2, 5, 6), "f")],
                      special="warn" if "linear" in _id or "cubic" in _id else "full"))


@case("interpolate[pads]", [((1, 2, 5, 6), "f")], special="warn")
def _interp_pads(ops, p):
    return ops.interpolate(p[0], _i(1, 2, 14, 8), "linear_onnx", "sizes", pads_begin=[0, 0, 1, 0],
                           pads_end=[0, 0, 0, 2])


CASE_IDS = [k.id for k in CASES]
assert len(set(CASE_IDS)) == len(CASE_IDS), "case ids must be unique"
