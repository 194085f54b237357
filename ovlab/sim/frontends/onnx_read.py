"""Read ONNX models through the ``onnx`` package, for the ops that map onto ovlab's opset.

Each ONNX op has a small converter that builds the same ops OpenVINO's ONNX frontend builds
(Conv with a bias becomes Convolution + Add, Gemm becomes MatMul + Add, BatchNormalization
becomes Multiply + Add with folded constants, Flatten a Reshape...). Converters look ops up in
the graph registry when they run, so an ONNX op whose ovlab op is missing fails with an error
naming the ONNX op and node, and starts working when the op is added. Names follow OpenVINO's
frontend: tensor names are the ONNX value names; a Result is named ``<output>/sink_port_0``.

``onnx`` is optional: without it, reading a ``.onnx`` file says ``pip install onnx``. Models are
static in ovlab, so an input with a symbolic dimension (``batch``) is an error; export with fixed
shapes (``torch.onnx.export`` does unless given ``dynamic_axes``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..graph.model import Model
from ..graph.node import NodeValidationError, Output
from ..graph.ops import REGISTRY, Constant, Parameter, Result, constant_value, make_node
from ..graph.types import as_type
from . import errors as E

__all__ = ["read_onnx_file", "maybe_onnx", "maybe_onnx_bytes", "supported_onnx_ops", "convert"]

def _onnx() -> Any:
    try:
        import onnx
    except ImportError:
        raise E.FrontendError("Reading ONNX models needs the onnx package: pip install onnx "
                              "(ovlab's ONNX frontend converts ONNX graphs with it)") from None
    return onnx


def read_onnx_file(path: Path) -> Model:
    onnx = _onnx()
    try:
        proto = onnx.load(str(path))
    except Exception as e:  # not a protobuf, truncated, missing external data...
        raise E.FrontendError(f'Unable to read the model: "{path}" Please check that model '
                              f'format: "{path.suffix}" is supported and the model is correct. '
                              f"Available frontends: {E.FRONTENDS} \novlab: onnx.load failed: "
                              f"{e}", E.MODEL_READER) from None
    return convert(proto)


def maybe_onnx(path: Path) -> Model | None:
    """An ONNX model if the file is one (by content), else None."""
    try:
        return maybe_onnx_bytes(path.read_bytes())
    except OSError:
        return None


def maybe_onnx_bytes(data: bytes) -> Model | None:
    try:
        import onnx
    except ImportError:
        return None
    try:
        proto = onnx.load_from_string(data)
    except Exception:
        return None
    if not proto.graph.node and not proto.graph.output:
        return None
    return convert(proto)


# --- the conversion --------------------------------------------------------------------------
class _Graph:
    """Values by ONNX name while the graph is converted."""

    def __init__(self, onnx: Any, opset: int) -> None:
        self.onnx, self.opset = onnx, opset
        self.values: dict[str, Output] = {}

    def const(self, value: Any, dtype: Any = None, name: str | None = None) -> Output:
        arr = np.asarray(value, dtype=dtype)
        return Constant(arr, as_type(arr.dtype), name).output(0)

    def value(self, name: str) -> Output:
        return self.values[name]

    def array(self, name: str, what: str) -> np.ndarray:
        v = constant_value(self.values[name])
        if v is None:
            raise E.FrontendError(f"ovlab: the ONNX input '{name}' ({what}) must be a constant")
        return np.asarray(v)


def _op(type_name: str, onnx_op: str) -> Any:
    op = REGISTRY.get(type_name)
    if op is None:
        raise E.FrontendError(f"OpenVINO does not support the following ONNX operations: "
                              f"{onnx_op}\novlab: {onnx_op} needs ovlab's {type_name}, which it "
                              "does not implement yet")
    return op


def make(type_name: str, inputs: list[Output], attrs: dict[str, Any] | None = None,
         name: str | None = None, onnx_op: str = "") -> Output:
    _op(type_name, onnx_op or type_name)
    # (make_node fills the op's attribute defaults and converts values to their kinds)
    return make_node(type_name, inputs, attrs or {}, name).output(0)


Converter = Callable[[_Graph, Any, dict[str, Any], list[Output], str], list[Output]]
CONVERTERS: dict[str, Converter] = {}


def converter(*names: str) -> Callable[[Converter], Converter]:
    def register(fn: Converter) -> Converter:
        for n in names:
            CONVERTERS[n] = fn
        return fn
    return register


# ONNX op -> ovlab op for ops that take their inputs as they are and no attributes.
_UNARY = {"Relu": "Relu", "Sigmoid": "Sigmoid", "Tanh": "Tanh", "Exp": "Exp", "Log": "Log",
          "Sqrt": "Sqrt", "Abs": "Abs", "Erf": "Erf", "Neg": "Negative", "Floor": "Floor",
          "Ceil": "Ceiling", "Sin": "Sin", "Cos": "Cos", "Softplus": "SoftPlus",
          "Not": "LogicalNot", "Sign": "Sign", "Reciprocal": None}
_BINARY = {"Add": "Add", "Sub": "Subtract", "Mul": "Multiply", "Div": "Divide",
           "Pow": "Power", "Max": "Maximum", "Min": "Minimum", "Equal": "Equal",
           "Less": "Less", "Greater": "Greater", "And": "LogicalAnd", "Or": "LogicalOr"}


def _unary(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    if node.op_type == "Reciprocal":
        one = g.const(1, ins[0].get_element_type().to_dtype())
        return [make("Divide", [one, ins[0]], {"auto_broadcast": "numpy"}, name, "Reciprocal")]
    return [make(_UNARY[node.op_type], ins, {}, name, node.op_type)]


def _binary(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    t = _BINARY[node.op_type]
    attrs = {"auto_broadcast": "numpy"}
    if t == "Divide":
        attrs["m_pythondiv"] = True
    out = ins[0]
    for other in ins[1:]:  # Max/Min take any number of inputs
        out = make(t, [out, other], attrs, name, node.op_type)
    return [out]


for _n in _UNARY:
    CONVERTERS[_n] = _unary
for _n in _BINARY:
    CONVERTERS[_n] = _binary


@converter("Identity", "Dropout")
def _identity(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    return [ins[0]]


@converter("Constant")
def _constant(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    if "value" not in a:
        raise E.FrontendError(f"ovlab: Constant node '{name}' without a 'value' tensor")
    return [g.const(a["value"], name=name)]


@converter("Cast")
def _cast(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    dtype = g.onnx.helper.tensor_dtype_to_np_dtype(a["to"])
    return [make("Convert", ins, {"destination_type": as_type(dtype)}, name, "Cast")]


def _pads(a: dict[str, Any], nsp: int) -> tuple[list[int], list[int], str]:
    pads = list(a.get("pads", [0] * 2 * nsp))
    auto = a.get("auto_pad", "NOTSET")
    auto = auto.decode() if isinstance(auto, bytes) else auto
    mode = {"NOTSET": "explicit", "VALID": "valid", "SAME_UPPER": "same_upper",
            "SAME_LOWER": "same_lower"}[auto]
    return pads[:nsp], pads[nsp:], mode


@converter("Conv")
def _conv(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    w = ins[1]
    wshape = list(w.get_shape())
    nsp = len(wshape) - 2
    pb, pe, mode = _pads(a, nsp)
    attrs = {"strides": list(a.get("strides", [1] * nsp)), "pads_begin": pb, "pads_end": pe,
             "dilations": list(a.get("dilations", [1] * nsp)), "auto_pad": mode}
    group = int(a.get("group", 1))
    if group == 1:
        out = make("Convolution", [ins[0], w], attrs, _part(name, len(ins) == 3), "Conv")
    else:
        shape = g.const([group, wshape[0] // group, *wshape[1:]], np.int64)
        gw = make("Reshape", [w, shape], {"special_zero": False})
        out = make("GroupConvolution", [ins[0], gw], attrs, _part(name, len(ins) == 3), "Conv")
    if len(ins) == 3:
        bias = make("Reshape", [ins[2], g.const([1, -1] + [1] * nsp, np.int64)],
                    {"special_zero": False})
        out = make("Add", [out, bias], {"auto_broadcast": "numpy"}, name)
    return [out]


def _part(name: str, biased: bool) -> str:
    """OpenVINO names the op before a bias ``<node>/WithoutBiases`` (the Add gets the name)."""
    return f"{name}/WithoutBiases" if biased else name


def _pool_attrs(a: dict[str, Any]) -> dict[str, Any]:
    kernel = list(a["kernel_shape"])
    nsp = len(kernel)
    pb, pe, mode = _pads(a, nsp)
    return {"kernel": kernel, "strides": list(a.get("strides", [1] * nsp)), "pads_begin": pb,
            "pads_end": pe, "auto_pad": mode,
            "rounding_type": "ceil" if a.get("ceil_mode", 0) else "floor"}


@converter("MaxPool")
def _max_pool(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    attrs = _pool_attrs(a)
    attrs.update(dilations=list(a.get("dilations", [1] * len(attrs["kernel"]))),
                 index_element_type="i64", axis=0)
    return [make("MaxPool", ins, attrs, name)]


@converter("AveragePool")
def _avg_pool(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    attrs = _pool_attrs(a)
    attrs["exclude-pad"] = not a.get("count_include_pad", 0)
    return [make("AvgPool", ins, attrs, name, "AveragePool")]


@converter("GlobalAveragePool")
def _gap(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    rank = len(ins[0].get_shape())
    axes = g.const(list(range(2, rank)), np.int64)
    return [make("ReduceMean", [ins[0], axes], {"keep_dims": True}, name, node.op_type)]


@converter("LRN")
def _lrn(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    return [make("LRN", [ins[0], g.const([1], np.int64)],
                 {"alpha": float(a.get("alpha", 1e-4)), "beta": float(a.get("beta", 0.75)),
                  "bias": float(a.get("bias", 1.0)), "size": int(a["size"])}, name)]


@converter("Clip")
def _clip(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    lo, hi = float(a.get("min", -np.inf)), float(a.get("max", np.inf))
    if len(ins) > 1 and node.input[1]:
        lo = float(g.array(node.input[1], "Clip min"))
    if len(ins) > 2 and node.input[2]:
        hi = float(g.array(node.input[2], "Clip max"))
    big = float(np.finfo(np.float32).max)
    return [make("Clamp", [ins[0]], {"min": max(lo, -big), "max": min(hi, big)}, name, "Clip")]


@converter("Softmax")
def _softmax(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    rank = len(ins[0].get_shape())
    axis = int(a.get("axis", -1 if g.opset >= 13 else 1))
    if g.opset < 13 and axis % rank != rank - 1:
        raise E.FrontendError(f"ovlab: Softmax '{name}' of ONNX opset {g.opset} flattens the "
                              f"input at axis {axis}; ovlab converts it only for the last axis")
    return [make("Softmax", ins, {"axis": axis}, name)]


@converter("MatMul")
def _matmul(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    return [make("MatMul", ins, {"transpose_a": False, "transpose_b": False}, name)]


@converter("Gemm")
def _gemm(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    alpha, beta = float(a.get("alpha", 1.0)), float(a.get("beta", 1.0))
    dtype = ins[0].get_element_type().to_dtype()
    last = len(ins) < 3 and alpha == 1.0
    out = make("MatMul", ins[:2], {"transpose_a": bool(a.get("transA", 0)),
                                   "transpose_b": bool(a.get("transB", 0))},
               name if last else f"{name}/WithoutBiases", "Gemm")
    if alpha != 1.0:
        out = make("Multiply", [out, g.const(alpha, dtype)], {"auto_broadcast": "numpy"},
                   name if len(ins) < 3 else None)
    if len(ins) == 3:
        c = ins[2] if beta == 1.0 else make("Multiply", [ins[2], g.const(beta, dtype)],
                                             {"auto_broadcast": "numpy"})
        out = make("Add", [out, c], {"auto_broadcast": "numpy"}, name)
    return [out]


@converter("BatchNormalization")
def _batch_norm(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    scale, bias, mean, var = (g.array(n, "batch norm parameter") for n in node.input[1:5])
    eps = float(a.get("epsilon", 1e-5))
    dtype = ins[0].get_element_type().to_dtype()
    mul = (scale / np.sqrt(var + eps)).astype(dtype)
    add = (bias - mean * mul).astype(dtype)
    rank = len(ins[0].get_shape())
    shape = [1, -1] + [1] * (rank - 2)
    x = make("Multiply", [ins[0], g.const(mul.reshape(shape))], {"auto_broadcast": "numpy"})
    return [make("Add", [x, g.const(add.reshape(shape))], {"auto_broadcast": "numpy"}, name)]


@converter("Flatten")
def _flatten(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    shape = list(ins[0].get_shape())
    axis = int(a.get("axis", 1)) % (len(shape) or 1)
    lead = int(np.prod(shape[:axis], dtype=np.int64))
    return [make("Reshape", [ins[0], g.const([lead, -1], np.int64)], {"special_zero": False},
                 name)]


@converter("Reshape")
def _reshape(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    return [make("Reshape", ins[:2], {"special_zero": not a.get("allowzero", 0)}, name)]


def _axes(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output]) -> list[int] | None:
    if "axes" in a:
        return [int(x) for x in a["axes"]]
    if len(node.input) > 1 and node.input[1]:
        return [int(x) for x in np.atleast_1d(g.array(node.input[1], "axes"))]
    return None


@converter("Squeeze", "Unsqueeze")
def _squeeze(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    axes = _axes(g, node, a, ins)
    if axes is None:
        axes = [i for i, d in enumerate(ins[0].get_shape()) if d == 1]
    return [make(node.op_type, [ins[0], g.const(axes, np.int64)], {}, name)]


@converter("Transpose")
def _transpose(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    perm = list(a.get("perm", range(len(ins[0].get_shape()))[::-1]))
    return [make("Transpose", [ins[0], g.const(perm, np.int64)], {}, name)]


@converter("Concat")
def _concat(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    return [make("Concat", ins, {"axis": int(a["axis"])}, name)]


@converter("Slice")
def _slice(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    """ONNX Slice (starts, ends, axes, steps as inputs from opset 10, attributes before) as
    Slice-8 with its axes and steps made explicit, as OpenVINO's ONNX front end does."""
    if "starts" in a:  # Slice-1
        starts, ends = [int(x) for x in a["starts"]], [int(x) for x in a["ends"]]
        axes = [int(x) for x in a.get("axes", range(len(starts)))]
        steps = [1] * len(starts)
        return [make("Slice", [ins[0], g.const(starts, np.int64), g.const(ends, np.int64),
                               g.const(steps, np.int64), g.const(axes, np.int64)], {}, name)]
    given = dict(zip(("data", "starts", "ends", "axes", "steps"), node.input, strict=False))
    value = {k: g.value(v) for k, v in given.items() if v}  # "": an optional input left out
    count = int(np.prod(value["starts"].get_shape(), dtype=np.int64))
    axes = value["axes"] if "axes" in value else g.const(list(range(count)), np.int64)
    steps = value["steps"] if "steps" in value else g.const([1] * count, np.int64)
    return [make("Slice", [value["data"], value["starts"], value["ends"], steps, axes], {}, name)]


@converter("ReduceMean")
def _reduce_mean(g: _Graph, node: Any, a: dict[str, Any], ins: list[Output], name: str) -> list[Output]:
    axes = _axes(g, node, a, ins)
    if axes is None:
        axes = list(range(len(ins[0].get_shape())))
    return [make("ReduceMean", [ins[0], g.const(axes, np.int64)],
                 {"keep_dims": bool(a.get("keepdims", 1))}, name)]


def supported_onnx_ops() -> list[str]:
    """The ONNX ops ovlab converts now (those whose ovlab ops exist)."""
    need = {**{k: v for k, v in _UNARY.items() if v}, **_BINARY}
    return sorted(n for n in CONVERTERS if n not in need or need[n] in REGISTRY)


# --- the graph -----------------------------------------------------------------------------------
def _inputs(g: _Graph, graph: Any, initializers: set[str]) -> list[Parameter]:
    params = []
    for vi in graph.input:
        if vi.name in initializers:
            continue
        tt = vi.type.tensor_type
        dims = []
        for d in tt.shape.dim:
            if d.HasField("dim_value"):
                dims.append(int(d.dim_value))
            else:
                raise E.FrontendError(f"ovlab models are static: the ONNX input '{vi.name}' has "
                                      f"the dynamic dimension '{d.dim_param or '?'}'; export the "
                                      "model with fixed shapes")
        dtype = g.onnx.helper.tensor_dtype_to_np_dtype(tt.elem_type)
        p = Parameter(dims, as_type(dtype), vi.name)
        p._out_names[0] = {vi.name}
        g.values[vi.name] = p.output(0)
        params.append(p)
    return params


def _attributes(onnx: Any, node: Any) -> dict[str, Any]:
    out = {}
    for attr in node.attribute:
        v = onnx.helper.get_attribute_value(attr)
        if attr.type == onnx.AttributeProto.TENSOR:
            v = onnx.numpy_helper.to_array(v)
        out[attr.name] = v.decode() if isinstance(v, bytes) else v
    return out


def convert(proto: Any) -> Model:
    """An ``ovlab.Model`` from an ``onnx.ModelProto``; FrontendError for what ovlab lacks."""
    onnx = _onnx()
    opset = next((o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")), 13)
    g = _Graph(onnx, opset)
    graph = proto.graph
    unsupported = sorted({n.op_type for n in graph.node if n.op_type not in CONVERTERS})
    if unsupported:
        raise E.FrontendError("OpenVINO does not support the following ONNX operations: "
                              f"{', '.join(unsupported)}\novlab converts these ONNX ops: "
                              f"{', '.join(supported_onnx_ops())}")
    for init in graph.initializer:
        arr = onnx.numpy_helper.to_array(init)
        g.values[init.name] = Constant(arr, as_type(arr.dtype), init.name).output(0)
    params = _inputs(g, graph, {i.name for i in graph.initializer})
    graph_outputs = {vi.name for vi in graph.output}
    for node in graph.node:
        # OpenVINO names an op after its ONNX node, or after the output it produces for a
        # graph output (measured: Softmax "softmax" -> "prob")
        out0 = node.output[0] if node.output else ""
        name = out0 if out0 in graph_outputs else (node.name or out0 or node.op_type)
        try:
            ins = [g.value(n) for n in node.input if n]
            outs = CONVERTERS[node.op_type](g, node, _attributes(onnx, node), ins, name)
        except E.FrontendError:
            raise
        except KeyError as e:
            raise E.FrontendError(f"ovlab: ONNX node '{name}' ({node.op_type}) reads {e}, which "
                                  "no earlier node or input produces") from None
        except NodeValidationError as e:
            raise E.FrontendError(f"{e}\novlab: while converting ONNX node '{name}' "
                                  f"({node.op_type})") from None
        except Exception as e:
            raise E.FrontendError(f"ovlab: cannot convert ONNX node '{name}' ({node.op_type}): "
                                  f"{type(e).__name__}: {e}") from None
        for value_name, out in zip(node.output, outs, strict=False):
            if value_name:
                out.get_node()._out_names[out.get_index()].add(value_name)
                g.values[value_name] = out
    results = []
    for vi in graph.output:
        src = g.values[vi.name]
        r = Result(REGISTRY["Result"], [src], name=f"{vi.name}/sink_port_0")
        r._out_names[0] = {vi.name}
        results.append(r)
    model = Model.__new__(Model)
    try:
        model._init(results, params, graph.name or None, strict=False)
    except NodeValidationError as e:
        raise E.FrontendError(str(e)) from None
    return model

