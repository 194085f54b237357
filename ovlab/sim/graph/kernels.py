"""Vectorised NumPy kernels for the ops ovlab runs for real.

Every kernel takes and returns float32 arrays (or integer arrays for integer tensors): ovlab
does the arithmetic in float32 and models lower precisions by *rounding the stored tensors*
(``round_to``), which is what an f16 GPU does and is far faster than NumPy's float16 maths.
Convolutions are an im2col copy per kernel tap followed by one matrix product per group, so the
time goes to BLAS; there are no Python loops over pixels, only over kernel taps.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence

import numpy as np

__all__ = [
    "convolution", "max_pool", "avg_pool", "lrn", "softmax", "sigmoid", "matmul",
    "fake_quantize", "round_to", "pad", "erf", "float_to_int", "exp_nan_inf", "conv_transpose",
]

F32 = np.float32
# im2col buffers above this many bytes are built a few images at a time to stay in cache.
_COLS_BYTES = 24 << 20
# Below this many output pixels per image, images are folded into one wider matrix product.
_FOLD_PIXELS = 1024
# Memory-bound kernels (pooling, LRN) take batches this many bytes at a time (cache-sized).
_CHUNK_BYTES = 1 << 20


def round_to(a: np.ndarray, type_name: str, inplace: bool = False) -> np.ndarray:
    """Round float32 data to f16 or bf16 and back, i.e. model f16/bf16 *storage*."""
    if type_name == "f16":
        if inplace and a.flags.writeable:
            np.copyto(a, a.astype(np.float16))
            return a
        return a.astype(np.float16).astype(F32)
    if type_name == "bf16":
        bits = np.ascontiguousarray(a, dtype=F32).view(np.uint32)
        rounded = (bits + (np.uint32(0x7FFF) + ((bits >> 16) & 1))) & np.uint32(0xFFFF0000)
        return rounded.view(F32)
    return a


_local = threading.local()


def scratch(slot: str, shape: Sequence[int], dtype: type = F32) -> np.ndarray:
    """A reusable per-thread work buffer (im2col columns, padded copies).

    Allocating a fresh 20 MB array per convolution makes the kernel zero new pages every time;
    reusing one buffer per thread removes that cost (about a fifth of the time at batch 16).
    """
    n = math.prod(shape)
    bufs = _local.__dict__.setdefault("bufs", {})
    buf = bufs.get((slot, np.dtype(dtype)))
    if buf is None or buf.size < n:
        buf = np.empty(max(n, 1), dtype=dtype)
        bufs[(slot, np.dtype(dtype))] = buf
    return buf[:n].reshape(shape)


def pad(x: np.ndarray, pads_begin: Sequence[int], pads_end: Sequence[int],
        value: float = 0.0, slot: str | None = None) -> np.ndarray:
    """Pad the spatial axes (2..) of an N,C,... array; faster than ``np.pad`` for this case.
    With ``slot`` the result lives in a scratch buffer (valid until the next use of it)."""
    if not any(pads_begin) and not any(pads_end):
        return x
    shape = x.shape[:2] + tuple(d + b + e for d, b, e in zip(x.shape[2:], pads_begin, pads_end, strict=False))
    if slot is None:
        out = np.full(shape, value, dtype=x.dtype)
    else:
        out = scratch(slot, shape, x.dtype.type)
        out.fill(value)
    inner = tuple(slice(b, b + d) for b, d in zip(pads_begin, x.shape[2:], strict=False))
    out[(slice(None), slice(None)) + inner] = x
    return out


def _tap_slices(tap: Sequence[int], strides: Sequence[int], dilations: Sequence[int],
                out_sp: Sequence[int]) -> tuple[slice, ...]:
    """Spatial slices of the padded input that one kernel tap reads for every output pixel."""
    return tuple(slice(t * d, t * d + s * (o - 1) + 1, s)
                 for t, s, d, o in zip(tap, strides, dilations, out_sp, strict=False))


def convolution(x: np.ndarray, w: np.ndarray, strides: Sequence[int], pads_begin: Sequence[int],
                pads_end: Sequence[int], dilations: Sequence[int], groups: int = 0) -> np.ndarray:
    """N-D (grouped) convolution; ``w`` is O,C,k... or, when ``groups`` > 0, G,O/G,C/G,k...

    The layout of the im2col buffer depends on the image size: large images are multiplied one
    image at a time (long rows suit BLAS), small late-layer images are folded together so the
    matrix product stays wide (a 7x7 map alone would give BLAS 49-column matrices).
    """
    wg = w if groups else w[None]
    g, og, cg = wg.shape[:3]
    k = wg.shape[3:]
    n, c = x.shape[:2]
    if c != g * cg:
        raise ValueError(f"convolution: input has {c} channels, weights expect {g * cg}")
    out_sp = [(x.shape[2 + i] + pads_begin[i] + pads_end[i] - dilations[i] * (k[i] - 1) - 1)
              // strides[i] + 1 for i in range(len(k))]
    taps, pix = math.prod(k), math.prod(out_sp)
    wmat = np.ascontiguousarray(wg).reshape(g, og, cg * taps)
    out = np.empty((n, g * og, *out_sp), dtype=F32)
    fold = pix < _FOLD_PIXELS and n > 1
    per_image = c * taps * pix * 4
    step = max(1, min(n, _COLS_BYTES // max(per_image, 1)))
    for b0 in range(0, n, step):
        b1 = min(n, b0 + step)
        nb = b1 - b0
        xp = pad(x[b0:b1], pads_begin, pads_end, slot="pad")
        if fold:
            cols = scratch("cols", (c, taps, nb, *out_sp))
            for t, tap in enumerate(np.ndindex(*k)):
                src = xp[(slice(None), slice(None)) + _tap_slices(tap, strides, dilations, out_sp)]
                cols[:, t] = src.swapaxes(0, 1)
            res = np.matmul(wmat, cols.reshape(g, cg * taps, nb * pix))
            out[b0:b1] = res.reshape(g * og, nb, *out_sp).swapaxes(0, 1)
            continue
        if taps == 1:
            src = xp[(slice(None), slice(None)) + _tap_slices((0,) * len(k), strides, dilations, out_sp)]
            cols = np.ascontiguousarray(src).reshape(nb, g, cg, pix)
        else:
            cols = scratch("cols", (nb, c, taps, *out_sp))
            for t, tap in enumerate(np.ndindex(*k)):
                cols[:, :, t] = xp[(slice(None), slice(None))
                                   + _tap_slices(tap, strides, dilations, out_sp)]
            cols = cols.reshape(nb, g, cg * taps, pix)
        np.matmul(wmat, cols, out=out[b0:b1].reshape(nb, g, og, pix))
    return out


def _pool_extent(x: np.ndarray, kernel: Sequence[int], strides: Sequence[int],
                 dilations: Sequence[int], pads_begin: Sequence[int], pads_end: Sequence[int],
                 out_sp: Sequence[int]) -> list[int]:
    """End padding that also covers windows added by ``rounding_type='ceil'``."""
    return [max(pe, (o - 1) * s + (k - 1) * d + 1 - h - pb)
            for h, k, s, d, pb, pe, o in zip(x.shape[2:], kernel, strides, dilations, pads_begin,
                                             pads_end, out_sp, strict=False)]


def _tap_range(h: int, s: int, pb: int, off: int, o: int) -> tuple[int, int]:
    """Output positions [i0, i1) whose window tap at offset ``off`` reads inside [0, h)."""
    i0 = max(0, -(-(pb - off) // s))
    i1 = min(o, (h - 1 + pb - off) // s + 1) if h - 1 + pb - off >= 0 else 0
    return i0, max(i0, i1)


def _separable(x: np.ndarray, kernel: Sequence[int], strides: Sequence[int],
               dilations: Sequence[int], pads_begin: Sequence[int], out_sp: Sequence[int],
               ufunc: np.ufunc, empty: float) -> np.ndarray:
    """Reduce each window with ``ufunc`` one spatial axis at a time (last axis first).

    A 3x3 window costs 2 + 2 passes instead of 8, the second on shrunk data, and padding is
    never materialised: each tap only updates the outputs whose window it falls inside, so
    padded (or ceil-extended) positions never contribute. Windows with no pixel get ``empty``.
    Large batches go a few images at a time so the intermediate passes stay in cache.
    """
    n = x.shape[0]
    step = max(1, _CHUNK_BYTES // max(x[:1].nbytes, 1))
    if n <= step:
        return _separable_chunk(x, kernel, strides, dilations, pads_begin, out_sp, ufunc, empty)
    out = np.empty(x.shape[:2] + tuple(out_sp), dtype=x.dtype)
    for b0 in range(0, n, step):
        out[b0:b0 + step] = _separable_chunk(x[b0:b0 + step], kernel, strides, dilations,
                                             pads_begin, out_sp, ufunc, empty)
    return out


def _separable_chunk(x: np.ndarray, kernel: Sequence[int], strides: Sequence[int],
                     dilations: Sequence[int], pads_begin: Sequence[int], out_sp: Sequence[int],
                     ufunc: np.ufunc, empty: float) -> np.ndarray:
    y = x
    for ax in reversed(range(len(kernel))):
        k, s, d, pb, o = kernel[ax], strides[ax], dilations[ax], pads_begin[ax], out_sp[ax]
        h = y.shape[2 + ax]
        lead = (slice(None),) * (2 + ax)
        ranges = [_tap_range(h, s, pb, t * d, o) for t in range(k)]
        full = next((t for t, r in enumerate(ranges) if r == (0, o)), None)
        shape = y.shape[:2 + ax] + (o,) + y.shape[3 + ax:]
        if full is None:
            acc = np.full(shape, empty, dtype=y.dtype)
        else:
            src = full * d - pb
            acc = np.array(y[lead + (slice(src, src + s * (o - 1) + 1, s),)])
        for t, (i0, i1) in enumerate(ranges):
            if t == full or i1 <= i0:
                continue
            src = i0 * s - pb + t * d
            target = acc[lead + (slice(i0, i1),)]
            ufunc(target, y[lead + (slice(src, src + s * (i1 - i0 - 1) + 1, s),)], out=target)
        y = acc
    return y


def max_pool(x: np.ndarray, kernel: Sequence[int], strides: Sequence[int],
             dilations: Sequence[int], pads_begin: Sequence[int], pads_end: Sequence[int],
             out_sp: Sequence[int], indices_axis: int | None = None,
             index_dtype: type = np.int64) -> tuple[np.ndarray, np.ndarray | None]:
    """MaxPool-8: values and, if ``indices_axis`` is given, flat argmax indices (first wins).

    Padding reads as the lowest finite float, so a window lying wholly in padding gives
    -3.4e38 and index 0, as OpenVINO's CPU plugin does.
    """
    low = np.finfo(x.dtype).min if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    # fmax: a window's maximum skips NaN, as on the CPU plugin
    if indices_axis is None:
        return _separable(x, kernel, strides, dilations, pads_begin, out_sp, np.fmax, low), None
    xp = pad(x, pads_begin, _pool_extent(x, kernel, strides, dilations, pads_begin, pads_end,
                                         out_sp), low, slot="pad")
    best: np.ndarray | None = None
    arg: np.ndarray | None = None
    for t, tap in enumerate(np.ndindex(*kernel)):
        v = xp[(slice(None), slice(None)) + _tap_slices(tap, strides, dilations, out_sp)]
        if best is None:
            best = v.copy()
            arg = np.zeros(best.shape, dtype=np.int32)
            continue
        assert arg is not None
        arg[(v > best) | (np.isnan(best) & ~np.isnan(v))] = t
        np.fmax(best, v, out=best)
    assert best is not None and arg is not None
    return best, _flat_indices(x.shape, arg, best == low, kernel, strides, dilations, pads_begin,
                               out_sp, indices_axis, index_dtype)


def _flat_indices(shape: tuple[int, ...], arg: np.ndarray, empty: np.ndarray,
                  kernel: Sequence[int], strides: Sequence[int], dilations: Sequence[int],
                  pads_begin: Sequence[int], out_sp: Sequence[int], axis: int,
                  dtype: np.dtype) -> np.ndarray:
    """Turn the winning tap of each window into MaxPool-8's flat input index."""
    taps = np.unravel_index(arg, kernel)
    nsp = len(kernel)
    flat = np.zeros(arg.shape, dtype=np.int64)
    for i in range(nsp):
        pos = np.arange(out_sp[i]).reshape((-1,) + (1,) * (nsp - 1 - i)) * strides[i] - pads_begin[i]
        coord = pos + taps[i] * dilations[i]
        flat = flat * shape[2 + i] + coord
    flat[empty] = 0  # a window wholly in padding points at the first element of its plane
    lead = shape[:2]
    if axis < 2:
        nc = np.arange(math.prod(lead)).reshape(lead + (1,) * nsp)
        if axis == 1:
            nc = nc % lead[1]
        flat = flat + nc * math.prod(shape[2:])
    return flat.astype(dtype)


def avg_pool(x: np.ndarray, kernel: Sequence[int], strides: Sequence[int],
             pads_begin: Sequence[int], pads_end: Sequence[int], out_sp: Sequence[int],
             exclude_pad: bool, dilations: Sequence[int] | None = None) -> np.ndarray:
    """AvgPool-1 (and AvgPool-16's ``dilations``: the taps ``d`` apart). The divisor is the
    whole kernel unless ``exclude_pad``, then only the input pixels the window's taps cover
    (a window wholly in padding gives 0), matching OpenVINO's CPU."""
    dil = tuple(dilations) if dilations is not None else (1,) * len(kernel)
    if not any(pads_begin) and all(o == 1 for o in out_sp) and \
            list(kernel) == list(x.shape[2:]) and all(d == 1 for d in dil):
        return x.mean(axis=tuple(range(2, x.ndim)), keepdims=True, dtype=F32)
    acc = _separable(x, kernel, strides, dil, pads_begin, out_sp, np.add, 0.0)
    if not exclude_pad:
        acc *= F32(1.0 / math.prod(kernel))
        return acc
    count = np.ones((1,) * len(out_sp), dtype=F32)
    for i, (h, k, s, pb, o, d) in enumerate(zip(x.shape[2:], kernel, strides, pads_begin,
                                                out_sp, dil, strict=False)):
        taps = (np.arange(o) * s - pb)[:, None] + np.arange(k)[None, :] * d
        n = ((taps >= 0) & (taps < h)).sum(axis=1)
        count = count * n.reshape((-1,) + (1,) * (len(out_sp) - 1 - i)).astype(F32)
    with np.errstate(divide="ignore", invalid="ignore"):
        acc /= count
    acc[..., count == 0] = 0.0
    return acc


def lrn(x: np.ndarray, axes: Sequence[int], alpha: float, beta: float, bias: float,
        size: int) -> np.ndarray:
    """LRN-1: ``x / (bias + alpha / size**len(axes) * sum(x**2 over the window)) ** beta``,
    the window spanning ``(size - 1) // 2`` neighbours on each side along every axis.

    The window is a box over ``axes``, summed one axis at a time with shifted adds, a few
    images at a time in scratch buffers so the passes stay in cache.
    """
    out = np.empty(x.shape, dtype=F32)
    n = x.shape[0] if x.ndim else 1
    step = n if 0 in axes else max(1, min(n, _CHUNK_BYTES // max(x[:1].nbytes, 1)))
    lo = hi = (size - 1) // 2  # an even size uses size - 1 neighbours, as OpenVINO does
    scale, beta_f = F32(alpha / size ** len(axes)), F32(beta)
    for b0 in range(0, n, step):
        xc = x[b0:b0 + step]
        cur = np.multiply(xc, xc, out=scratch("lrn_a", xc.shape))
        spare = scratch("lrn_b", xc.shape)
        for ax in axes:
            acc = spare
            np.copyto(acc, cur)
            m = cur.shape[ax]
            for off in range(1, lo + 1):
                if off < m:
                    _axis_slice(acc, ax, off, m)[...] += _axis_slice(cur, ax, 0, m - off)
            for off in range(1, hi + 1):
                if off < m:
                    _axis_slice(acc, ax, 0, m - off)[...] += _axis_slice(cur, ax, off, m)
            cur, spare = acc, cur
        cur *= scale
        cur += F32(bias)
        if beta == 0.75:  # x ** 0.75 = sqrt(x * sqrt(x)): much faster than np.power
            np.sqrt(cur, out=spare)
            cur *= spare
            np.sqrt(cur, out=cur)
        else:
            np.power(cur, beta_f, out=cur)
        np.divide(xc, cur, out=out[b0:b0 + step])
    return out


def _axis_slice(a: np.ndarray, axis: int, start: int, stop: int) -> np.ndarray:
    idx = [slice(None)] * a.ndim
    idx[axis] = slice(start, stop)
    return a[tuple(idx)]


def exp_nan_inf(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """exp, with the CPU plugin's exp(NaN) = +inf."""
    nan = np.isnan(x)
    r = np.exp(x, out=out)
    if nan.any():
        r[nan] = np.inf
    return r


def softmax(x: np.ndarray, axis: int) -> np.ndarray:
    """Softmax as the CPU plugin computes it: the maximum ignores NaN, exp(NaN) is +inf, so a
    NaN gives NaN at its place and 0 elsewhere in its row, and a row with +inf gives NaN there."""
    m = np.fmax.reduce(x, axis=axis, keepdims=True)
    e = exp_nan_inf(np.subtract(x, m))
    e /= e.sum(axis=axis, keepdims=True)
    return e


def sigmoid(x: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    r = np.negative(x, out=out)
    with np.errstate(over="ignore"):
        np.exp(r, out=r)
    r += F32(1.0)
    return np.reciprocal(r, out=r)


def matmul(a: np.ndarray, b: np.ndarray, transpose_a: bool, transpose_b: bool) -> np.ndarray:
    """MatMul-0: the transposes swap the last two axes; 1-D operands are vectors."""
    if transpose_a and a.ndim > 1:
        a = a.swapaxes(-1, -2)
    if transpose_b and b.ndim > 1:
        b = b.swapaxes(-1, -2)
    return np.matmul(a, b)


def fake_quantize(x: np.ndarray, il: np.ndarray, ih: np.ndarray, ol: np.ndarray, oh: np.ndarray,
                  levels: int) -> np.ndarray:
    """FakeQuantize-0: clamp to [il, ih], snap to ``levels`` steps, map onto [ol, oh]
    (NaN gives output_low, as on the CPU plugin)."""
    q = np.round((x - il) / (ih - il) * F32(levels - 1)) / F32(levels - 1) * (oh - ol) + ol
    q = np.where(x > np.maximum(il, ih), oh, q)
    q = np.where(~(x > np.minimum(il, ih)), ol, q)  # (NaN > anything is False)
    return q.astype(F32, copy=False)


# erf: NumPy has none (SciPy's is not a dependency). Below |x| = 0.5 the Maclaurin series, above
# it 1 - erfc(|x|) with the Chebyshev fit of Numerical Recipes (erfcc, fractional error below
# 1.2e-7), both in float64, so the float32 result is within an ulp or two.
_ERFC = (-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807,
         -1.13520398, 1.48851587, -0.82215223, 0.17087277)


def erf(x: np.ndarray) -> np.ndarray:
    """The error function, elementwise, float32 in and out (erf(+-inf) = +-1, NaN stays)."""
    z = np.asarray(x, dtype=np.float64)
    a = np.abs(z)
    t = 1.0 / (1.0 + 0.5 * a)
    poly = np.full_like(t, _ERFC[-1])
    for c in _ERFC[-2::-1]:
        poly = poly * t + c
    big = 1.0 - t * np.exp(-a * a + poly)
    z2 = z * z
    term = z.copy()
    small = z.copy()
    for n in range(1, 12):  # x^(2n+1) / (n! (2n+1)), alternating
        term = term * -z2 / n
        small = small + term / (2 * n + 1)
    small *= 2.0 / math.sqrt(math.pi)
    out = np.where(a < 0.5, small, np.copysign(big, z))
    return out.astype(F32)


def float_to_int(x: np.ndarray, dtype: np.dtype | type) -> np.ndarray:
    """Float -> integer as the CPU plugin converts (measured): truncate to int32, with NaN,
    infinities and values outside int32 giving int32's minimum, then wrap to ``dtype``."""
    lo, hi = np.iinfo(np.int32).min, np.iinfo(np.int32).max
    bad = ~((x >= lo) & (x < hi + 1.0))  # NaN fails both tests
    i32 = np.trunc(np.where(bad, 0, x)).astype(np.int64)
    i32[bad] = lo
    return i32.astype(dtype)


def conv_transpose(x: np.ndarray, w: np.ndarray, strides: Sequence[int],
                   dilations: Sequence[int], pads_begin: Sequence[int],
                   out_sp: Sequence[int]) -> np.ndarray:
    """(Group)ConvolutionBackpropData: ``w`` is G, C_in/G, C_out/G, k...

    One matrix product per group gives every (output channel, tap) contribution of every input
    pixel; each tap's block is then added at its strided, dilated place in the full output,
    which is cropped by the pads at the end (output_padding only lengthens the full output).
    """
    g, cg, og = w.shape[:3]
    k = w.shape[3:]
    n = x.shape[0]
    in_sp = x.shape[2:]
    taps, pix = math.prod(k), math.prod(in_sp)
    full_sp = [max((i - 1) * s + (kk - 1) * d + 1, b + o)
               for i, s, kk, d, b, o in zip(in_sp, strides, k, dilations, pads_begin, out_sp,
                                            strict=True)]
    full = np.zeros((n, g * og, *full_sp), dtype=F32)
    xg = x.reshape(n, g, cg, pix)
    for gi in range(g):
        wt = np.ascontiguousarray(w[gi].reshape(cg, og * taps).T)  # (og * taps, cg)
        contrib = np.matmul(wt, xg[:, gi]).reshape(n, og, taps, *in_sp)
        target = full[:, gi * og:(gi + 1) * og]
        for t, tap in enumerate(np.ndindex(*k)):
            sl = tuple(slice(tp * d, tp * d + s * (i - 1) + 1, s)
                       for tp, d, s, i in zip(tap, dilations, strides, in_sp, strict=True))
            target[(slice(None), slice(None)) + sl] += contrib[:, :, t]
    crop = tuple(slice(b, b + o) for b, o in zip(pads_begin, out_sp, strict=True))
    return np.ascontiguousarray(full[(slice(None), slice(None)) + crop])
