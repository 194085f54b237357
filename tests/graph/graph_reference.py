"""Direct (loop) reference implementations of the ops, in float64, for kernel tests.

They follow the OpenVINO opset specification (and, where the spec leaves a choice, what the
real CPU plugin measured: full-kernel divisor for AvgPool with exclude_pad=False, lowest float
for MaxPool windows wholly in padding).
"""

from __future__ import annotations

import itertools

import numpy as np


def conv(x: np.ndarray, w: np.ndarray, strides, pb, pe, dil, groups: int = 1) -> np.ndarray:
    """w: O, C/groups, kh, kw."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    og = o // groups
    xp = np.pad(x, ((0, 0), (0, 0), (pb[0], pe[0]), (pb[1], pe[1])))
    oh = (h + pb[0] + pe[0] - dil[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (wd + pb[1] + pe[1] - dil[1] * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros((n, o, oh, ow))
    for b, oc, i, j in itertools.product(range(n), range(o), range(oh), range(ow)):
        g = oc // og
        patch = xp[b, g * cg:(g + 1) * cg,
                   i * strides[0]: i * strides[0] + dil[0] * (kh - 1) + 1: dil[0],
                   j * strides[1]: j * strides[1] + dil[1] * (kw - 1) + 1: dil[1]]
        out[b, oc, i, j] = np.sum(patch * w[oc])
    return out


def _windows(h: int, k: int, s: int, d: int, pb: int, o: int):
    for i in range(o):
        yield i, [i * s - pb + t * d for t in range(k)]


def max_pool(x: np.ndarray, k, s, d, pb, out_hw, axis: int = 0):
    n, c, h, w = x.shape
    low = np.finfo(np.float32).min
    vals = np.zeros((n, c, *out_hw))
    idx = np.zeros((n, c, *out_hw), dtype=np.int64)
    for b, ch in itertools.product(range(n), range(c)):
        for (i, rows), (j, cols) in itertools.product(_windows(h, k[0], s[0], d[0], pb[0], out_hw[0]),
                                                      _windows(w, k[1], s[1], d[1], pb[1], out_hw[1])):
            best, where = low, None
            for r, cc in itertools.product(rows, cols):
                if 0 <= r < h and 0 <= cc < w and (where is None or x[b, ch, r, cc] > best):
                    best, where = x[b, ch, r, cc], (r, cc)
            vals[b, ch, i, j] = best
            flat = where[0] * w + where[1] if where is not None else 0
            lead = (b * c + ch) if axis == 0 else ch if axis == 1 else 0
            idx[b, ch, i, j] = lead * h * w + flat
    return vals, idx


def avg_pool(x: np.ndarray, k, s, pb, out_hw, exclude_pad: bool, pe=None) -> np.ndarray:
    """With exclude_pad=False the divisor is the whole kernel, but only when there is explicit
    padding (OpenVINO's CPU plugin); without padding, ceil windows count covered pixels."""
    n, c, h, w = x.shape
    if not any(pb) and not any(pe if pe is not None else (0,)):
        exclude_pad = True
    out = np.zeros((n, c, *out_hw))
    for b, ch in itertools.product(range(n), range(c)):
        for (i, rows), (j, cols) in itertools.product(_windows(h, k[0], s[0], 1, pb[0], out_hw[0]),
                                                      _windows(w, k[1], s[1], 1, pb[1], out_hw[1])):
            inside = [(r, cc) for r, cc in itertools.product(rows, cols) if 0 <= r < h and 0 <= cc < w]
            total = sum(float(x[b, ch, r, cc]) for r, cc in inside)
            count = len(inside) if exclude_pad else k[0] * k[1]
            out[b, ch, i, j] = total / count if count else 0.0
    return out


def lrn(x: np.ndarray, axes, alpha, beta, bias, size) -> np.ndarray:
    x = x.astype(np.float64)
    lo = hi = (size - 1) // 2  # OpenVINO: an even size uses size - 1 neighbours
    out = np.zeros_like(x)
    for pos in itertools.product(*(range(d) for d in x.shape)):
        sl = tuple(slice(max(0, p - lo), p + hi + 1) if a in axes else slice(p, p + 1)
                   for a, p in enumerate(pos))
        s = np.sum(x[sl] ** 2)
        out[pos] = x[pos] / (bias + alpha / size ** len(axes) * s) ** beta
    return out


def fake_quantize(x, il, ih, ol, oh, levels):
    x = x.astype(np.float64)
    out = np.empty_like(x)
    il, ih, ol, oh = (np.broadcast_to(np.asarray(v, np.float64), x.shape) for v in (il, ih, ol, oh))
    for pos in itertools.product(*(range(d) for d in x.shape)):
        v = x[pos]
        if v <= min(il[pos], ih[pos]):
            out[pos] = ol[pos]
        elif v > max(il[pos], ih[pos]):
            out[pos] = oh[pos]
        else:
            q = np.round((v - il[pos]) / (ih[pos] - il[pos]) * (levels - 1))
            out[pos] = q / (levels - 1) * (oh[pos] - ol[pos]) + ol[pos]
    return out


def softmax(x, axis):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)
