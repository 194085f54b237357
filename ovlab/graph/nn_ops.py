"""Op definitions, part 2: the neural-network ops (convolution, pooling, LRN, softmax, MatMul,
FakeQuantize). Attribute names and semantics follow the OpenVINO opset specification; the
kernels are in ``kernels.py``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import kernels as K
from .node import Node, ShapeError, ShapeType
from .ops import (
    Ctx,
    broadcast,
    int_list,
    need,
    norm_axis,
    numel,
    out0_elems,
    real_type,
    register,
    same_type,
)
from .types import Type, shape_str

__all__: list[str] = []

_AUTO_PADS = ("explicit", "valid", "same_upper", "same_lower", "notset")


def window(node: Node, in_sp: Sequence[int], kernel: Sequence[int], ceil: bool = False,
           dilations: Sequence[int] | None = None) -> tuple[list[int], list[int], list[int]]:
    """Resolve ``auto_pad`` and return (pads_begin, pads_end, output spatial dims)."""
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
    need(mode in _AUTO_PADS, f"unknown auto_pad {a.get('auto_pad')!r} (use one of "
         f"{', '.join(m.upper() for m in _AUTO_PADS[:4])})")
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
        out.append(-(-span // strides[i]) + 1 if ceil else span // strides[i] + 1)
    return pb, pe, out


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


register("Convolution", "opset1", lambda n: _conv_infer(n, False), _conv, _conv_flops)
register("GroupConvolution", "opset1", lambda n: _conv_infer(n, True), _conv, _conv_flops)


# --- pooling ----------------------------------------------------------------------------------
def _pool_common(node: Node) -> tuple[tuple[int, ...], list[int], list[int], list[int]]:
    x = node._in_shape(0)
    need(len(x) >= 3, f"data must have rank 3 or more (N, C, spatial...), got {shape_str(x)}")
    real_type(node, 0)
    rounding = str(node._attrs["rounding_type"]).lower()
    need(rounding in ("floor", "ceil"), f"rounding_type must be 'floor' or 'ceil', got "
         f"{node._attrs['rounding_type']!r}")
    pb, pe, out = window(node, x[2:], node._attrs["kernel"], ceil=rounding == "ceil")
    return x, pb, pe, out


def _max_pool_infer(node: Node) -> list[ShapeType]:
    x, _, _, out = _pool_common(node)
    it = str(node._attrs["index_element_type"])
    need(it in ("i32", "i64"), f"index_element_type must be 'i32' or 'i64', got {it!r}")
    norm_axis(node._attrs["axis"], len(x), "axis")
    shape = (x[0], x[1], *out)
    return [(shape, node._in_type(0)), (shape, Type.i64 if it == "i64" else Type.i32)]


def _max_pool(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    _, pb, pe, out = _pool_common(node)
    a = node._attrs
    axis = norm_axis(a["axis"], x.ndim) if len(ctx.needed) > 1 and ctx.needed[1] else None
    vals, idx = K.max_pool(x, a["kernel"], a["strides"], a["dilations"], pb, pe, out, axis,
                           np.dtype(np.int64 if a["index_element_type"] == "i64" else np.int32))
    if idx is None:  # nobody reads the indices: return a cheap placeholder of the right shape
        idx = np.broadcast_to(np.zeros((), np.int64), vals.shape)
    return [vals, idx]


def _avg_pool_infer(node: Node) -> list[ShapeType]:
    x, pb, pe, out = _pool_common(node)
    if node._attrs["exclude_pad"]:
        for i, (k, b, e) in enumerate(zip(node._attrs["kernel"], pb, pe, strict=True)):
            need(k > b and k > e, f"Kernel after dilation is sometimes entirely in the padding "
                 f"area for axis {i} (kernel {k}, pads {b}/{e}): not allowed with exclude_pad")
    return [((x[0], x[1], *out), node._in_type(0))]


def _avg_pool(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    _, pb, pe, out = _pool_common(node)
    a = node._attrs
    # OpenVINO's CPU plugin counts padding only if there is explicit padding: without it,
    # windows that ceil rounding pushes past the edge are averaged over the pixels they cover.
    exclude = bool(a["exclude_pad"]) or not any(pb + pe)
    return [K.avg_pool(xs[0], a["kernel"], a["strides"], pb, pe, out, exclude)]


def _pool_flops(node: Node) -> float:
    return out0_elems(node) * numel(node._attrs["kernel"])


register("MaxPool", "opset8", _max_pool_infer, _max_pool, _pool_flops)
register("AvgPool", "opset1", _avg_pool_infer, _avg_pool, _pool_flops)


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
         lambda n: out0_elems(n) * (n._attrs["size"] * len(_lrn_axes(n)) + 5))


def _softmax_infer(node: Node) -> list[ShapeType]:
    t = real_type(node, 0)
    norm_axis(node._attrs["axis"], len(node._in_shape(0)))
    return [(node._in_shape(0), t)]


def _softmax(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    return [K.softmax(xs[0], norm_axis(node._attrs["axis"], xs[0].ndim))]


register("Softmax", "opset8", _softmax_infer, _softmax, lambda n: 5 * out0_elems(n))


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


register("MatMul", "opset1", _matmul_infer, _matmul, _matmul_flops)


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


register("FakeQuantize", "opset1", _fq_infer, _fq, lambda n: 6 * out0_elems(n))
