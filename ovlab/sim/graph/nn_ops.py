"""The neural-network ops: convolutions (and their transposes), pooling, LRN, Softmax and
LogSoftmax, MatMul, Einsum, ScaledDotProductAttention and FakeQuantize. Attribute names and
semantics follow the OpenVINO opset specification; the heavy kernels are in ``kernels.py``.

NaN, as measured on the CPU plugin: MaxPool skips NaN (a window's maximum ignores it, so its
index points at the maximum of the rest); Softmax takes its maximum ignoring NaN and maps
exp(NaN) to +inf, so a row with a NaN gives NaN there and 0 elsewhere; LogSoftmax takes the
maximum as ReduceMax does (the values after the last NaN).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import kernels as K
from .attrs import Attr
from .node import Node, ShapeError, ShapeType
from .ops import (
    AUTO_BROADCAST,
    F32,
    Ctx,
    NodeInput,
    as_output,
    axis_rule,
    broadcast,
    int_const,
    int_list,
    keeps_batch,
    make_node,
    need,
    norm_axis,
    numel,
    out0_elems,
    real_type,
    register,
    same_type,
)
from .reduce_ops import seq_extreme
from .types import Type, shape_str

__all__ = [
    "adaptive_avg_pool", "adaptive_max_pool", "avg_pool", "convolution",
    "convolution_backprop_data", "einsum", "fake_quantize", "group_convolution",
    "group_convolution_backprop_data", "log_softmax", "lrn", "matmul", "max_pool",
    "scaled_dot_product_attention", "softmax",
]

_AUTO_PADS = ("explicit", "valid", "same_upper", "same_lower", "notset")
AUTO_PAD = Attr("auto_pad", "str", "explicit", _AUTO_PADS)
_WINDOW = [Attr("strides", "ints"), Attr("dilations", "ints"), Attr("pads_begin", "ints"),
           Attr("pads_end", "ints"), AUTO_PAD]


def window(node: Node, in_sp: Sequence[int], kernel: Sequence[int], ceil: bool = False,
           dilations: Sequence[int] | None = None,
           torch: bool = False) -> tuple[list[int], list[int], list[int]]:
    """Resolve ``auto_pad`` and return (pads_begin, pads_end, output spatial dims). ``torch``
    (rounding "ceil_torch", pooling-14): ceil, but a last window that would start past the
    input and its begin padding is dropped, as PyTorch's ceil_mode does."""
    a = node._attrs
    nsp = len(in_sp)
    strides = list(a["strides"])
    dil = list(dilations if dilations is not None else a.get("dilations") or [1] * nsp)
    pb, pe = list(a["pads_begin"]), list(a["pads_end"])
    for what, v in (("strides", strides), ("dilations", dil), ("pads_begin", pb),
                    ("pads_end", pe), ("kernel", kernel)):
        need(len(v) == nsp, f"{what} {list(v)} must have {nsp} values, one per spatial axis of "
             f"the input")
    need(all(s > 0 for s in strides), f"strides must be positive, got {strides}")
    need(all(d > 0 for d in dil), f"dilations must be positive, got {dil}")
    need(all(p >= 0 for p in pb + pe), f"pads must not be negative, got {pb} / {pe}")
    need(all(k > 0 for k in kernel), f"kernel sizes must be positive, got {list(kernel)}")
    mode = (a.get("auto_pad") or "explicit").lower()
    if mode == "valid":
        pb, pe = [0] * nsp, [0] * nsp
    elif mode in ("same_upper", "same_lower"):
        for i in range(nsp):
            o = -(-in_sp[i] // strides[i])
            total = max(0, (o - 1) * strides[i] + (kernel[i] - 1) * dil[i] + 1 - in_sp[i])
            small, big = total // 2, total - total // 2
            pb[i], pe[i] = (small, big) if mode == "same_upper" else (big, small)
    out = []
    for i in range(nsp):
        eff = (kernel[i] - 1) * dil[i] + 1
        span = in_sp[i] + pb[i] + pe[i] - eff
        need(span >= 0, f"kernel (size {eff} after dilation) is larger than the padded input "
             f"(size {in_sp[i] + pb[i] + pe[i]}) on spatial axis {i}")
        n = -(-span // strides[i]) + 1 if ceil else span // strides[i] + 1
        if torch and (n - 1) * strides[i] >= in_sp[i] + pb[i]:
            n -= 1
        out.append(n)
    return pb, pe, out


def _spatial_batch(node: Node, live: Sequence[bool]) -> str | None:
    """N, C, spatial... ops keep samples apart, unless the weights are a live tensor."""
    if len(live) > 1 and live[1]:
        return "its weights come from a model input"
    return None


# --- convolution ------------------------------------------------------------------------------
def _conv_infer(node: Node, grouped: bool) -> list[ShapeType]:
    x, w = node._in_shape(0), node._in_shape(1)
    need(len(x) >= 3, f"data must have rank 3 or more (N, C, spatial...), got {shape_str(x)}")
    want = len(x) + (1 if grouped else 0)
    need(len(w) == want, f"Data batch and filters rank do not match (data batch shape: "
         f"{shape_str(x)}, filters shape: {shape_str(w)}; filters need rank {want}"
         f"{': G, O/G, C/G, k...' if grouped else ': O, C, k...'})")
    t = real_type(node, 0)
    need(node._in_type(1) == t, f"Element types for data batch and filters do not match "
         f"(data batch element type: {t.get_type_name()}, filters element type: "
         f"{node._in_type(1).get_type_name()})")
    groups, cg = (w[0], w[2]) if grouped else (1, w[1])
    out_ch = w[0] * w[1] if grouped else w[0]
    need(x[1] == groups * cg, f"Data batch channel count ({x[1]}) does not equal filter input "
         f"channel count ({cg}{f' x {groups} groups' if grouped else ''})")
    k = w[3:] if grouped else w[2:]
    _, _, out = window(node, x[2:], k)
    return [((x[0], out_ch, *out), t)]


def _conv(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x, w = xs
    grouped = node._op.type_name == "GroupConvolution"
    k = w.shape[3:] if grouped else w.shape[2:]
    pb, pe, _ = window(node, x.shape[2:], k)
    return [K.convolution(x, w, node._attrs["strides"], pb, pe, node._attrs["dilations"],
                          groups=w.shape[0] if grouped else 0)]


def _conv_flops(node: Node) -> float:
    w = node._in_shape(1)
    per_out = numel(w[2:]) if node._op.type_name == "GroupConvolution" else numel(w[1:])
    return 2.0 * out0_elems(node) * per_out


register("Convolution", "opset1", lambda n: _conv_infer(n, False), _conv, _conv_flops,
         attrs=_WINDOW, batch=_spatial_batch)
register("GroupConvolution", "opset1", lambda n: _conv_infer(n, True), _conv, _conv_flops,
         attrs=[Attr("strides", "ints"), Attr("pads_begin", "ints"), Attr("pads_end", "ints"),
                Attr("dilations", "ints"), AUTO_PAD],  # (IR order differs from Convolution's)
         batch=_spatial_batch)


# --- pooling ----------------------------------------------------------------------------------
def _pool_common(node: Node) -> tuple[tuple[int, ...], list[int], list[int], list[int]]:
    x = node._in_shape(0)
    need(len(x) >= 3, f"data must have rank 3 or more (N, C, spatial...), got {shape_str(x)}")
    real_type(node, 0)
    rounding = node._attrs["rounding_type"]
    pb, pe, out = window(node, x[2:], node._attrs["kernel"],
                         ceil=rounding in ("ceil", "ceil_torch"), torch=rounding == "ceil_torch")
    return x, pb, pe, out


def _max_pool_infer(node: Node) -> list[ShapeType]:
    x, _, _, out = _pool_common(node)
    it = node._attrs["index_element_type"]
    need(it in (Type.i32, Type.i64), f"index_element_type must be i32 or i64, got "
         f"{it.get_type_name()}")
    norm_axis(node._attrs["axis"], len(x), "axis")
    shape = (x[0], x[1], *out)
    return [(shape, node._in_type(0)), (shape, it)]


def _max_pool(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    _, pb, pe, out = _pool_common(node)
    a = node._attrs
    axis = norm_axis(a["axis"], x.ndim) if len(ctx.needed) > 1 and ctx.needed[1] else None
    vals, idx = K.max_pool(x, a["kernel"], a["strides"], a["dilations"], pb, pe, out, axis,
                           a["index_element_type"].to_dtype())
    if idx is None:  # nobody reads the indices: return a cheap placeholder of the right shape
        idx = np.broadcast_to(np.zeros((), np.int64), vals.shape)
    return [vals, idx]


def _avg_pool_infer(node: Node) -> list[ShapeType]:
    x, pb, pe, out = _pool_common(node)
    if node._attrs["exclude-pad"]:
        for i, (k, b, e) in enumerate(zip(node._attrs["kernel"], pb, pe, strict=True)):
            need(k > b and k > e, f"Kernel after dilation is sometimes entirely in the padding "
                 f"area for axis {i} (kernel {k}, pads {b}/{e}): not allowed with exclude_pad")
    return [((x[0], x[1], *out), node._in_type(0))]


def _avg_pool(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    _, pb, pe, out = _pool_common(node)
    a = node._attrs
    # OpenVINO's CPU plugin counts padding only if there is explicit padding: without it,
    # windows that ceil rounding pushes past the edge are averaged over the pixels they cover.
    exclude = bool(a["exclude-pad"]) or not any(pb + pe)
    return [K.avg_pool(xs[0], a["kernel"], a["strides"], pb, pe, out, exclude)]


def _pool_flops(node: Node) -> float:
    return out0_elems(node) * numel(node._attrs["kernel"])


_ROUNDING = Attr("rounding_type", "str", "floor", ("floor", "ceil"))
#: pooling-14 and later also round "ceil_torch"
ROUNDING_14 = Attr("rounding_type", "str", "floor", ("floor", "ceil", "ceil_torch"))
register("MaxPool", "opset8", _max_pool_infer, _max_pool, _pool_flops,
         attrs=[Attr("strides", "ints"), Attr("dilations", "ints"), Attr("pads_begin", "ints"),
                Attr("pads_end", "ints"), Attr("kernel", "ints"), _ROUNDING, AUTO_PAD,
                Attr("index_element_type", "type", Type.i64), Attr("axis", "int", 0)],
         batch=lambda n, live: ("its indices count across the batch" if n._attrs["axis"] == 0
                                and live[0] and _indices_read(n) else None))
register("AvgPool", "opset1", _avg_pool_infer, _avg_pool, _pool_flops,
         attrs=[Attr("kernel", "ints"), Attr("strides", "ints"), Attr("pads_begin", "ints"),
                Attr("pads_end", "ints"), Attr("exclude-pad", "bool"), AUTO_PAD, _ROUNDING])


def _indices_read(node: Node) -> bool:
    return bool(node.output(1).get_target_inputs()) if node.get_output_size() > 1 else False


# --- LRN, Softmax -----------------------------------------------------------------------------
def _lrn_axes(node: Node) -> list[int]:
    rank = len(node._in_shape(0))
    axes = int_list(node, 1, "axes")
    need(len(axes) > 0, "axes must not be empty")
    return sorted({norm_axis(a, rank, "LRN axis") for a in axes})


def _lrn_infer(node: Node) -> list[ShapeType]:
    t = real_type(node, 0)
    _lrn_axes(node)
    need(node._attrs["size"] > 0, f"size must be positive, got {node._attrs['size']}")
    return [(node._in_shape(0), t)]


def _lrn(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    a = node._attrs
    return [K.lrn(xs[0], _lrn_axes(node), a["alpha"], a["beta"], a["bias"], a["size"])]


register("LRN", "opset1", _lrn_infer, _lrn,
         lambda n: out0_elems(n) * (n._attrs["size"] * len(_lrn_axes(n)) + 5),
         attrs=[Attr("alpha", "float"), Attr("beta", "float"), Attr("bias", "float"),
                Attr("size", "int")], batch=axis_rule(_lrn_axes, "normalises"))


def _softmax_infer(node: Node) -> list[ShapeType]:
    t = real_type(node, 0)
    norm_axis(node._attrs["axis"], len(node._in_shape(0)))
    return [(node._in_shape(0), t)]


def _softmax(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    return [K.softmax(xs[0], norm_axis(node._attrs["axis"], xs[0].ndim))]


def _log_softmax(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    axis = norm_axis(node._attrs["axis"], x.ndim)
    m = np.expand_dims(seq_extreme(x, [axis], True), axis)
    z = x - m
    s = np.sum(K.exp_nan_inf(z), axis=axis, keepdims=True)
    return [(z - np.log(s)).astype(F32, copy=False)]


def _softmax_axis(node: Node) -> list[int]:
    return [norm_axis(node._attrs["axis"], len(node._in_shape(0)))]


register("Softmax", "opset8", _softmax_infer, _softmax, lambda n: 5 * out0_elems(n),
         attrs=[Attr("axis", "int", 1)], batch=axis_rule(_softmax_axis, "normalises"))
register("LogSoftmax", "opset5", _softmax_infer, _log_softmax, lambda n: 5 * out0_elems(n),
         attrs=[Attr("axis", "int", 1)], batch=axis_rule(_softmax_axis, "normalises"))


# --- MatMul -----------------------------------------------------------------------------------
def _matmul_infer(node: Node) -> list[ShapeType]:
    a, b = node._in_shape(0), node._in_shape(1)
    t = same_type(node, [0, 1])
    need(len(a) >= 1 and len(b) >= 1, f"MatMul needs inputs of rank 1 or more, got "
         f"{shape_str(a)} and {shape_str(b)}")
    a2 = list(a) if len(a) > 1 else [1, a[0]]
    b2 = list(b) if len(b) > 1 else [b[0], 1]
    if node._attrs["transpose_a"] and len(a) > 1:
        a2[-1], a2[-2] = a2[-2], a2[-1]
    if node._attrs["transpose_b"] and len(b) > 1:
        b2[-1], b2[-2] = b2[-2], b2[-1]
    need(a2[-1] == b2[-2], f"Incompatible MatMul matrix dimension: {a2[-1]} (columns of A "
         f"{shape_str(a)}{', transposed' if node._attrs['transpose_a'] else ''}) vs {b2[-2]} "
         f"(rows of B {shape_str(b)}{', transposed' if node._attrs['transpose_b'] else ''})")
    batch = broadcast(a2[:-2], b2[:-2], "numpy")
    out = list(batch) + ([a2[-2]] if len(a) > 1 else []) + ([b2[-1]] if len(b) > 1 else [])
    return [(tuple(out), t)]


def _matmul(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    r = K.matmul(xs[0], xs[1], node._attrs["transpose_a"], node._attrs["transpose_b"])
    return [np.ascontiguousarray(r)]


def _matmul_flops(node: Node) -> float:
    a = node._in_shape(0)
    k = a[-2] if node._attrs["transpose_a"] and len(a) > 1 else a[-1]
    return 2.0 * max(out0_elems(node), 1) * k


def _matmul_batch(node: Node, live: Sequence[bool]) -> str | None:
    """Batch on axis 0 survives when every live operand has rank >= 3 (a batch of matrices),
    or is the left operand of rank 2 without transpose (rows are samples)."""
    for i, is_live in enumerate(live):
        rank = len(node._in_shape(i))
        if not is_live or rank >= 3:
            continue
        if i == 0 and rank == 2 and not node._attrs["transpose_a"]:
            continue
        return f"operand {'AB'[i]} (rank {rank}) has the batch on a matrix axis"
    if live[0] != live[1] and len(node._out_shapes[0]) > max(
            len(node._in_shape(i)) for i in (0, 1) if live[i]):
        return "a constant operand broadcasts the batch"
    return None


register("MatMul", "opset1", _matmul_infer, _matmul, _matmul_flops,
         attrs=[Attr("transpose_a", "bool", False), Attr("transpose_b", "bool", False)],
         batch=_matmul_batch)


# --- FakeQuantize -----------------------------------------------------------------------------
def _fq_infer(node: Node) -> list[ShapeType]:
    t = real_type(node, 0)
    same_type(node, [0, 1, 2, 3, 4])
    need(int(node._attrs["levels"]) >= 2, f"levels must be at least 2, got "
         f"{node._attrs['levels']}")
    x = node._in_shape(0)
    for i, what in enumerate(("input_low", "input_high", "output_low", "output_high"), 1):
        r = node._in_shape(i)
        try:
            ok = broadcast(x, r, node._attrs["auto_broadcast"]) == tuple(x)
        except ShapeError:
            ok = False
        need(ok, f"{what} shape {shape_str(r)} does not broadcast to the data shape "
             f"{shape_str(x)}")
    return [(x, t)]


def _fq(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    return [K.fake_quantize(*xs, int(node._attrs["levels"]))]


register("FakeQuantize", "opset1", _fq_infer, _fq, lambda n: 6 * out0_elems(n),
         attrs=[Attr("levels", "int"), AUTO_BROADCAST],
         batch=lambda n, live: keeps_batch(n, live[:1]) or (
             "its ranges come from a model input" if any(live[1:]) else None))


# --- ConvolutionBackpropData, GroupConvolutionBackpropData ---------------------------------------
def _deconv_geometry(node: Node) -> tuple[list[int], list[int], list[int], list[int]]:
    """(kernel, pads_begin, pads_end, output spatial dims) of a transposed convolution."""
    grouped = node.get_type_name() == "GroupConvolutionBackpropData"
    x, w = node._in_shape(0), node._in_shape(1)
    nsp = len(x) - 2
    k = list(w[3:] if grouped else w[2:])
    a = node._attrs
    strides, dil = list(a["strides"]), list(a["dilations"] or [1] * nsp)
    op = list(a["output_padding"] or [0] * nsp)
    pb, pe = list(a["pads_begin"] or [0] * nsp), list(a["pads_end"] or [0] * nsp)
    for what, v in (("strides", strides), ("dilations", dil), ("output_padding", op),
                    ("pads_begin", pb), ("pads_end", pe)):
        need(len(v) == nsp, f"{what} {v} must have {nsp} values, one per spatial axis")
    need(all(s > 0 for s in strides) and all(d > 0 for d in dil),
         f"strides {strides} and dilations {dil} must be positive")
    full = [(i - 1) * s + (kk - 1) * d + 1 + o
            for i, s, kk, d, o in zip(x[2:], strides, k, dil, op, strict=True)]
    mode = a["auto_pad"]
    if len(node._inputs) > 2:  # output_shape given: pads follow from it
        out = int_list(node, 2, "output_shape")
        need(len(out) == nsp, f"output_shape {out} must have {nsp} values")
        total = [f - o for f, o in zip(full, out, strict=True)]
        need(all(t >= 0 for t in total), f"output_shape {out} is larger than the full "
             f"transposed convolution {full}")
        if mode == "same_lower":
            pb = [t - t // 2 for t in total]
        elif mode == "same_upper":
            pb = [t // 2 for t in total]
        elif mode == "valid":
            pb = [0] * nsp
        # explicit: pads_begin as given (measured: the output starts there, the end is cut)
        pe = [t - b for t, b in zip(total, pb, strict=True)]
        return k, pb, pe, out
    if mode != "explicit":  # without output_shape, OpenVINO pads nothing for these (measured)
        pb, pe = [0] * nsp, [0] * nsp
    out = [f - b - e for f, b, e in zip(full, pb, pe, strict=True)]
    need(all(o > 0 for o in out), f"pads {pb} / {pe} leave no output (full size {full})")
    return k, pb, pe, out


def _deconv_infer(node: Node) -> list[ShapeType]:
    grouped = node.get_type_name() == "GroupConvolutionBackpropData"
    x, w = node._in_shape(0), node._in_shape(1)
    need(len(x) >= 3, f"data must have rank 3 or more (N, C, spatial...), got {shape_str(x)}")
    need(len(w) == len(x) + (1 if grouped else 0), f"Data batch and filters rank do not match "
         f"(data batch shape: {shape_str(x)}, filters shape: {shape_str(w)})")
    t = real_type(node, 0)
    need(node._in_type(1) == t, f"Element types for data batch and filters do not match "
         f"(data batch element type: {t.get_type_name()}, filters element type: "
         f"{node._in_type(1).get_type_name()})")
    cin = w[0] * w[1] if grouped else w[0]
    need(x[1] == cin, f"Input channels dimension of data ({x[1]}) does not match filter input "
         f"channels ({cin})")
    cout = w[0] * w[2] if grouped else w[1]
    *_, out = _deconv_geometry(node)
    return [((x[0], cout, *out), t)]


def _deconv(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x, w = xs[0], xs[1]
    grouped = node.get_type_name() == "GroupConvolutionBackpropData"
    k, pb, pe, out = _deconv_geometry(node)
    wg = w if grouped else w[None]
    a = node._attrs
    strides = list(a["strides"])
    dil = list(a["dilations"] or [1] * len(k))
    return [K.conv_transpose(x, wg, strides, dil, pb, out)]


def _deconv_flops(node: Node) -> float:
    x, w = node._in_shape(0), node._in_shape(1)
    grouped = node.get_type_name() == "GroupConvolutionBackpropData"
    per_in = numel(w[2:]) if grouped else numel(w[1:])  # outputs each input value feeds
    return 2.0 * numel(x) * per_in


_DECONV = [Attr("strides", "ints"), Attr("dilations", "ints", ()), Attr("pads_begin", "ints", ()),
           Attr("pads_end", "ints", ()), AUTO_PAD, Attr("output_padding", "ints", ())]
register("ConvolutionBackpropData", "opset1", _deconv_infer, _deconv, _deconv_flops,
         attrs=_DECONV, batch=_spatial_batch)
register("GroupConvolutionBackpropData", "opset1", _deconv_infer, _deconv, _deconv_flops,
         attrs=[_DECONV[0], _DECONV[2], _DECONV[3], _DECONV[1], *_DECONV[4:]],
         batch=_spatial_batch)


# --- AdaptiveAvgPool, AdaptiveMaxPool -------------------------------------------------------------
def _adaptive_out(node: Node) -> list[int]:
    x = node._in_shape(0)
    need(len(x) >= 3, f"data must have rank 3 or more (N, C, spatial...), got {shape_str(x)}")
    out = int_list(node, 1, "output_shape")
    need(len(out) == len(x) - 2 and all(o > 0 for o in out), f"output_shape {out} must give a "
         f"positive size for each of the {len(x) - 2} spatial axes")
    return out


def _adaptive_infer(node: Node) -> list[ShapeType]:
    x = node._in_shape(0)
    t = real_type(node, 0)
    shape = (x[0], x[1], *_adaptive_out(node))
    if node.get_type_name() == "AdaptiveMaxPool":
        it = node._attrs["index_element_type"]
        need(it in (Type.i32, Type.i64), f"index_element_type must be i32 or i64, got "
             f"{it.get_type_name()}")
        return [(shape, t), (shape, it)]
    return [(shape, t)]


def _bins(length: int, n: int) -> list[tuple[int, int]]:
    return [(i * length // n, -(-(i + 1) * length // n)) for i in range(n)]


def _adaptive(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    out = _adaptive_out(node)
    if node.get_type_name() == "AdaptiveAvgPool":
        y = x
        for ax, n in enumerate(out, start=2):  # an average of averages of equal bins: separable
            parts = [np.take(y, np.arange(a, b), axis=ax).mean(axis=ax, keepdims=True, dtype=F32)
                     for a, b in _bins(y.shape[ax], n)]
            y = np.concatenate(parts, axis=ax)
        return [y]
    sp = x.shape[2:]
    vals = np.empty(x.shape[:2] + tuple(out), F32)
    idx = np.empty(vals.shape, node._attrs["index_element_type"].to_dtype())
    axes_bins = [_bins(L, n) for L, n in zip(sp, out, strict=True)]
    for cell in np.ndindex(*out):
        box = tuple(slice(*axes_bins[i][c]) for i, c in enumerate(cell))
        win = x[(slice(None), slice(None)) + box]
        flat = win.reshape(win.shape[:2] + (-1,))
        arg = np.argmax(np.where(np.isnan(flat), -np.inf, flat), axis=-1)
        local = np.unravel_index(arg, win.shape[2:])
        glob = [loc + b.start for loc, b in zip(local, box, strict=True)]
        vals[(slice(None), slice(None)) + cell] = np.take_along_axis(flat, arg[..., None], -1)[..., 0]
        idx[(slice(None), slice(None)) + cell] = np.ravel_multi_index(glob, sp)
    return [vals, idx]


register("AdaptiveAvgPool", "opset8", _adaptive_infer, _adaptive,
         lambda n: float(numel(n._in_shape(0))))
register("AdaptiveMaxPool", "opset8", _adaptive_infer, _adaptive,
         lambda n: float(numel(n._in_shape(0))),
         attrs=[Attr("index_element_type", "type", Type.i64)])


# --- Einsum -----------------------------------------------------------------------------------
def _einsum_terms(node: Node) -> tuple[list[str], str]:
    eq = node._attrs["equation"].replace(" ", "")
    need(re.fullmatch(r"[A-Za-z.,]*(->[A-Za-z.]*)?", eq) is not None,
         f"equation {eq!r} must be letters, '...', ',' and '->'")
    lhs, _, rhs = eq.partition("->")
    terms = lhs.split(",")
    need(len(terms) == len(node._inputs), f"equation {eq!r} has {len(terms)} input subscripts "
         f"for {len(node._inputs)} inputs")
    if "->" not in eq:
        letters = "".join(terms).replace(".", "")
        rhs = ("..." if any("..." in t for t in terms) else "") + "".join(
            sorted(c for c in set(letters) if letters.count(c) == 1))
    return terms, rhs


def _labels(term: str, rank: int) -> list[str]:
    """One label per dim; the ellipsis becomes '.0', '.1' ... counted from the right."""
    if "..." not in term:
        return list(term)
    head, tail = term.split("...")
    n = rank - len(head) - len(tail)
    return list(head) + [f".{n - 1 - i}" for i in range(n)] + list(tail)


def _einsum_infer(node: Node) -> list[ShapeType]:
    terms, rhs = _einsum_terms(node)
    t = same_type(node, list(range(len(node._inputs))))
    sizes: dict[str, int] = {}
    n_ell = 0
    for i, term in enumerate(terms):
        shape = node._in_shape(i)
        labels = _labels(term, len(shape))
        need(len(labels) == len(shape), f"subscript {term!r} does not match input {i} of rank "
             f"{len(shape)}")
        for lab, d in zip(labels, shape, strict=True):
            if lab.startswith("."):
                n_ell = max(n_ell, int(lab[1:]) + 1)
            old = sizes.get(lab)
            if old is None or old == 1:
                sizes[lab] = d
            else:
                need(d in (1, old), f"label {lab!r} has sizes {old} and {d}")
    out = [sizes[lab] for lab in _labels(rhs, len(rhs.replace("...", "")) + n_ell)]
    return [(tuple(out), t)]


def _einsum(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    terms, rhs = _einsum_terms(node)
    r = np.einsum(",".join(terms) + "->" + rhs, *xs, optimize=True)
    return [np.ascontiguousarray(r, dtype=xs[0].dtype)]


def _einsum_flops(node: Node) -> float:
    terms, _ = _einsum_terms(node)
    sizes: dict[str, int] = {}
    for i, term in enumerate(terms):
        for lab, d in zip(_labels(term, len(node._in_shape(i))), node._in_shape(i), strict=True):
            sizes[lab] = max(sizes.get(lab, 1), d)
    return 2.0 * float(numel(sizes.values()))


def _einsum_batch(node: Node, live: Sequence[bool]) -> str | None:
    terms, rhs = _einsum_terms(node)
    out0 = _labels(rhs, len(node._out_shapes[0]))[:1]
    for i, (term, is_live) in enumerate(zip(terms, live, strict=True)):
        if is_live and _labels(term, len(node._in_shape(i)))[:1] != out0:
            return f"input {i}'s first axis ({term!r}) is not the output's first axis"
    return None


register("Einsum", "opset7", _einsum_infer, _einsum, _einsum_flops,
         attrs=[Attr("equation", "str")], batch=_einsum_batch)


# --- ScaledDotProductAttention --------------------------------------------------------------------
def _sdpa_infer(node: Node) -> list[ShapeType]:
    q, k, v = (node._in_shape(i) for i in range(3))
    t = real_type(node, 0)
    same_type(node, [0, 1, 2])
    need(len(q) >= 3 and len(k) >= 3 and len(v) >= 3, f"query {shape_str(q)}, key "
         f"{shape_str(k)} and value {shape_str(v)} must have rank 3 or more")
    need(q[-1] == k[-1], f"query {shape_str(q)} and key {shape_str(k)} must have the same last "
         "dim (the embedding size)")
    need(k[-2] == v[-2], f"key {shape_str(k)} and value {shape_str(v)} must have the same "
         "sequence length")
    lead = broadcast(broadcast(q[:-2], k[:-2], "numpy"), v[:-2], "numpy")
    if len(node._inputs) > 3 and not node._attrs["causal"]:
        m = node._in_shape(3)
        mt = node._in_type(3)
        need(mt == Type.boolean or mt == t, f"attention_mask must be boolean or "
             f"{t.get_type_name()}, got {mt.get_type_name()}")
        broadcast(lead + (q[-2], k[-2]), m, "numpy")
    if len(node._inputs) > 4:
        need(numel(node._in_shape(4)) == 1, "scale must be a scalar")
    return [(lead + (q[-2], v[-1]), t)]


def _sdpa(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    q, k, v = xs[:3]
    scale = xs[4].reshape(()) if len(xs) > 4 else F32(1.0 / math.sqrt(q.shape[-1]))
    att = np.matmul(q, np.swapaxes(k, -1, -2)) * scale
    L, S = q.shape[-2], k.shape[-2]
    if node._attrs["causal"]:
        att = np.where(np.tril(np.ones((L, S), np.bool_)), att, F32(-np.inf))
    elif len(xs) > 3:
        m = xs[3]
        att = np.where(m, att, F32(-np.inf)) if m.dtype == np.bool_ else att + m
    return [np.ascontiguousarray(np.matmul(K.softmax(att, -1), v), dtype=F32)]


def _sdpa_flops(node: Node) -> float:
    q, k, v = (node._in_shape(i) for i in range(3))
    lead = numel(node._out_shapes[0][:-2])
    return lead * (2.0 * q[-2] * k[-2] * q[-1] + 5.0 * q[-2] * k[-2] + 2.0 * q[-2] * k[-2] * v[-1])


register("ScaledDotProductAttention", "opset13", _sdpa_infer, _sdpa, _sdpa_flops,
         attrs=[Attr("causal", "bool", False)],
         batch=lambda n, live: None if all(len(n._in_shape(i)) == len(n._out_shapes[0])
                                            for i in range(3) if live[i])
         else "an input of lower rank broadcasts across the batch")


# --- builders -----------------------------------------------------------------------------------
def convolution(data: NodeInput, filters: NodeInput, strides: list[int], pads_begin: list[int],
                pads_end: list[int], dilations: list[int], auto_pad: str = "EXPLICIT",
                name: str | None = None) -> Node:
    """Convolution-1: data N,C,spatial...; filters O,C,k..."""
    return make_node("Convolution", [data, filters],
                     {"strides": strides, "pads_begin": pads_begin, "pads_end": pads_end,
                      "dilations": dilations, "auto_pad": auto_pad}, name)


def group_convolution(data: NodeInput, filters: NodeInput, strides: list[int],
                      pads_begin: list[int], pads_end: list[int], dilations: list[int],
                      auto_pad: str = "EXPLICIT", name: str | None = None) -> Node:
    """GroupConvolution-1: filters G,O/G,C/G,k... (G = C: depthwise)."""
    return make_node("GroupConvolution", [data, filters],
                     {"strides": strides, "pads_begin": pads_begin, "pads_end": pads_end,
                      "dilations": dilations, "auto_pad": auto_pad}, name)


def convolution_backprop_data(data: NodeInput, filters: NodeInput, strides: list[int],
                              output_shape: NodeInput | None = None,
                              pads_begin: list[int] | None = None,
                              pads_end: list[int] | None = None,
                              dilations: list[int] | None = None, auto_pad: str | None = None,
                              output_padding: list[int] | None = None,
                              name: str | None = None) -> Node:
    """ConvolutionBackpropData-1 (a transposed convolution): filters C_in, C_out, k..."""
    n = len(strides)
    inputs = [data, filters] + ([int_const(output_shape)] if output_shape is not None else [])
    return make_node("ConvolutionBackpropData", inputs,
                     {"strides": strides, "pads_begin": pads_begin or [0] * n,
                      "pads_end": pads_end or [0] * n, "dilations": dilations or [1] * n,
                      "auto_pad": auto_pad or "explicit",
                      "output_padding": output_padding or [0] * n}, name)


def group_convolution_backprop_data(data: NodeInput, filters: NodeInput, strides: list[int],
                                    output_shape: NodeInput | None = None,
                                    pads_begin: list[int] | None = None,
                                    pads_end: list[int] | None = None,
                                    dilations: list[int] | None = None,
                                    auto_pad: str = "EXPLICIT",
                                    output_padding: list[int] | None = None,
                                    name: str | None = None) -> Node:
    """GroupConvolutionBackpropData-1: filters G, C_in/G, C_out/G, k..."""
    n = len(strides)
    attrs: dict[str, Any] = {"strides": strides, "dilations": dilations or [1] * n,
                             "auto_pad": auto_pad, "output_padding": output_padding or [0] * n}
    inputs = [data, filters]
    if output_shape is not None:
        inputs.append(int_const(output_shape))
    else:
        attrs.update(pads_begin=pads_begin or [0] * n, pads_end=pads_end or [0] * n)
    return make_node("GroupConvolutionBackpropData", inputs, attrs, name)


def max_pool(data: NodeInput, strides: list[int], dilations: list[int], pads_begin: list[int],
             pads_end: list[int], kernel_shape: list[int], rounding_type: str = "floor",
             auto_pad: str | None = None, index_element_type: str | None = "i64",
             axis: int | None = 0, name: str | None = None) -> Node:
    """MaxPool-8: two outputs, values (``output(0)``) and flat argmax indices (``output(1)``)."""
    return make_node("MaxPool", [data],
                     {"strides": strides, "dilations": dilations, "pads_begin": pads_begin,
                      "pads_end": pads_end, "kernel": kernel_shape,
                      "rounding_type": rounding_type, "auto_pad": auto_pad,
                      "index_element_type": index_element_type, "axis": axis}, name)


def avg_pool(data_batch: NodeInput, strides: list[int], pads_begin: list[int],
             pads_end: list[int], kernel_shape: list[int], exclude_pad: bool,
             rounding_type: str = "floor", auto_pad: str | None = None,
             name: str | None = None) -> Node:
    """AvgPool-1."""
    return make_node("AvgPool", [data_batch],
                     {"strides": strides, "pads_begin": pads_begin, "pads_end": pads_end,
                      "kernel": kernel_shape, "exclude-pad": exclude_pad,
                      "rounding_type": rounding_type, "auto_pad": auto_pad}, name)


def adaptive_avg_pool(data: NodeInput, output_shape: NodeInput, name: str | None = None) -> Node:
    return make_node("AdaptiveAvgPool", [data, int_const(output_shape)], name=name)


def adaptive_max_pool(data: NodeInput, output_shape: NodeInput, index_element_type: str = "i64",
                      name: str | None = None) -> Node:
    return make_node("AdaptiveMaxPool", [data, int_const(output_shape)],
                     {"index_element_type": index_element_type}, name)


def lrn(data: NodeInput, axes: NodeInput, alpha: float = 1, beta: float = 0.5, bias: float = 1,
        size: int = 5, name: str | None = None) -> Node:
    """LRN-1 (local response normalisation over ``axes``, e.g. ``[1]`` = across channels)."""
    return make_node("LRN", [data, axes], {"alpha": alpha, "beta": beta, "bias": bias,
                                           "size": size}, name)


def softmax(data: NodeInput, axis: int, name: str | None = None) -> Node:
    """Softmax-8 (negative ``axis`` counts from the end)."""
    return make_node("Softmax", [data], {"axis": axis}, name)


def log_softmax(data: NodeInput, axis: int, name: str | None = None) -> Node:
    return make_node("LogSoftmax", [data], {"axis": axis}, name)


def matmul(data_a: NodeInput, data_b: NodeInput, transpose_a: bool, transpose_b: bool,
           name: str | None = None) -> Node:
    return make_node("MatMul", [data_a, data_b], {"transpose_a": transpose_a,
                                                   "transpose_b": transpose_b}, name)


def einsum(inputs: list[Node], equation: str, name: str | None = None) -> Node:
    """Einsum-7, e.g. ``einsum([a, b], "bij,bjk->bik")``."""
    return make_node("Einsum", list(inputs), {"equation": equation}, name)


def scaled_dot_product_attention(query: NodeInput, key: NodeInput, value: NodeInput,
                                 attention_mask: NodeInput | None = None,
                                 scale: NodeInput | None = None, causal: bool = False,
                                 name: str | None = None) -> Node:
    """ScaledDotProductAttention-13: softmax(Q K^T * scale + mask) V."""
    inputs: list[Any] = [query, key, value]
    if attention_mask is not None:
        inputs.append(attention_mask)
    elif scale is not None:  # as OpenVINO's builder: a zero mask so scale lands on input 4
        from .elementwise import convert_like
        inputs.append(convert_like(np.array(0, np.int32), as_output(query, name)))
    if scale is not None:
        inputs.append(scale)
    return make_node("ScaledDotProductAttention", inputs, {"causal": causal}, name)


def fake_quantize(data: NodeInput, input_low: NodeInput, input_high: NodeInput,
                  output_low: NodeInput, output_high: NodeInput, levels: int,
                  auto_broadcast: str = "NUMPY", name: str | None = None) -> Node:
    """FakeQuantize-0: what POT/NNCF put before convolutions to mark INT8 execution."""
    return make_node("FakeQuantize", [data, input_low, input_high, output_low, output_high],
                     {"levels": levels, "auto_broadcast": auto_broadcast}, name)
