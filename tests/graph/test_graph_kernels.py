"""Every kernel against a direct loop implementation (graph_reference.py) on small random
cases, through the public builders and ``Model._evaluate``, in f32 and f16 storage."""

from __future__ import annotations

import graph_reference as ref
import numpy as np
import pytest

import ovlab.opset13 as ops
from ovlab.sim.graph import Model, NodeValidationError


def run(outputs, params, *inputs, precision="f32"):
    m = Model(outputs if isinstance(outputs, list) else [outputs], params)
    return m._evaluate(dict(enumerate(inputs)), precision)


def f16(a):
    return np.asarray(a, np.float32).astype(np.float16).astype(np.float32)


CONV_CASES = [
    # n, c, h, w, o, k, stride, pads_begin, pads_end, dilation, groups
    (2, 3, 7, 7, 4, (3, 3), (1, 1), (1, 1), (1, 1), (1, 1), 1),
    (1, 4, 9, 8, 6, (3, 2), (2, 1), (0, 1), (2, 0), (1, 1), 1),
    (2, 2, 11, 11, 3, (3, 3), (2, 2), (2, 2), (2, 2), (2, 2), 1),
    (1, 3, 8, 8, 5, (1, 1), (2, 2), (0, 0), (0, 0), (1, 1), 1),
    (3, 6, 6, 6, 4, (3, 3), (1, 1), (1, 1), (1, 1), (1, 1), 2),
    (2, 4, 7, 7, 4, (3, 3), (2, 2), (1, 1), (1, 1), (1, 1), 4),
    (2, 6, 5, 5, 6, (1, 1), (1, 1), (0, 0), (0, 0), (1, 1), 3),
    (40, 8, 6, 6, 4, (3, 3), (1, 1), (1, 1), (1, 1), (1, 1), 1),  # folded small-image path
]


@pytest.mark.parametrize("case", CONV_CASES)
def test_convolution_matches_reference(case, rng):
    n, c, h, w, o, k, s, pb, pe, d, g = case
    x = rng.standard_normal((n, c, h, w)).astype(np.float32)
    wt = rng.standard_normal((o, c // g, *k)).astype(np.float32)
    p = ops.parameter(x.shape, np.float32)
    if g == 1:
        y = ops.convolution(p, wt, list(s), list(pb), list(pe), list(d))
    else:
        y = ops.group_convolution(p, wt.reshape(g, o // g, c // g, *k), list(s), list(pb),
                                  list(pe), list(d))
    want = ref.conv(x, wt, s, pb, pe, d, g)
    (got,) = run(y, [p], x)
    assert got.shape == want.shape == tuple(y.get_output_shape(0))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    (got16,) = run(y, [p], x, precision="f16")
    want16 = f16(ref.conv(f16(x), f16(wt), s, pb, pe, d, g))
    np.testing.assert_allclose(got16, want16, rtol=2e-3, atol=2e-3)
    assert np.array_equal(got16, f16(got16)), "f16 storage: outputs are f16 values"


@pytest.mark.parametrize("auto_pad,want_pads", [("SAME_UPPER", (0, 1)), ("SAME_LOWER", (1, 0)),
                                                ("VALID", (0, 0))])
def test_convolution_auto_pad(auto_pad, want_pads, rng):
    x = rng.standard_normal((1, 2, 8, 8)).astype(np.float32)
    wt = rng.standard_normal((3, 2, 2, 2)).astype(np.float32)
    p = ops.parameter(x.shape, np.float32)
    y = ops.convolution(p, wt, [1, 1], [5, 5], [5, 5], [1, 1], auto_pad=auto_pad)
    pb, pe = [want_pads[0]] * 2, [want_pads[1]] * 2
    np.testing.assert_allclose(run(y, [p], x)[0], ref.conv(x, wt, (1, 1), pb, pe, (1, 1)),
                               rtol=1e-5, atol=1e-5)


POOL_CASES = [
    # h, w, kernel, strides, dilations, pads_begin, pads_end, rounding
    (7, 7, (3, 3), (2, 2), (1, 1), (0, 0), (0, 0), "floor"),
    (8, 8, (3, 3), (2, 2), (1, 1), (0, 0), (0, 0), "ceil"),
    (6, 5, (3, 2), (1, 1), (1, 1), (1, 0), (1, 1), "floor"),
    (9, 9, (3, 3), (2, 2), (2, 2), (1, 1), (1, 1), "ceil"),
    (4, 4, (2, 2), (2, 2), (1, 1), (0, 0), (2, 2), "ceil"),  # last windows wholly in padding
]


@pytest.mark.parametrize("case", POOL_CASES)
@pytest.mark.parametrize("axis", [0, 1, 2])
def test_max_pool_values_and_indices(case, axis, rng):
    h, w, k, s, d, pb, pe, rounding = case
    x = rng.standard_normal((2, 3, h, w)).astype(np.float32)
    p = ops.parameter(x.shape, np.float32)
    pool = ops.max_pool(p, list(s), list(d), list(pb), list(pe), list(k), rounding, axis=axis)
    assert pool.get_output_size() == 2
    out_hw = tuple(pool.get_output_shape(0))[2:]
    vals, idx = run([pool.output(0), pool.output(1)], [p], x)
    want_v, want_i = ref.max_pool(x, k, s, d, pb, out_hw, axis)
    np.testing.assert_array_equal(vals, want_v.astype(np.float32))
    np.testing.assert_array_equal(idx, want_i)
    assert idx.dtype == np.int64
    (only_vals,) = run(pool.output(0), [p], x)  # indices skipped when nobody reads them
    np.testing.assert_array_equal(only_vals, vals)


@pytest.mark.parametrize("case", [c for c in POOL_CASES if c[4] == (1, 1)])
@pytest.mark.parametrize("exclude_pad", [False, True])
def test_avg_pool(case, exclude_pad, rng):
    h, w, k, s, _, pb, pe, rounding = case
    x = rng.standard_normal((2, 3, h, w)).astype(np.float32)
    p = ops.parameter(x.shape, np.float32)
    if exclude_pad and any(kk <= e for kk, e in zip(k, pe, strict=True)):
        with pytest.raises(NodeValidationError, match="entirely in the padding"):
            ops.avg_pool(p, list(s), list(pb), list(pe), list(k), exclude_pad, rounding)
        return
    pool = ops.avg_pool(p, list(s), list(pb), list(pe), list(k), exclude_pad, rounding)
    out_hw = tuple(pool.get_output_shape(0))[2:]
    np.testing.assert_allclose(run(pool, [p], x)[0],
                               ref.avg_pool(x, k, s, pb, out_hw, exclude_pad, pe), rtol=1e-5,
                               atol=1e-6)


def test_global_avg_pool_fast_path(rng):
    x = rng.standard_normal((2, 5, 7, 7)).astype(np.float32)
    p = ops.parameter(x.shape, np.float32)
    pool = ops.avg_pool(p, [1, 1], [0, 0], [0, 0], [7, 7], False)
    np.testing.assert_allclose(run(pool, [p], x)[0], x.mean(axis=(2, 3), keepdims=True), rtol=1e-5)


@pytest.mark.parametrize("axes,size,beta", [([1], 5, 0.75), ([1], 4, 0.5), ([2, 3], 3, 0.75),
                                            ([1], 1, 1.0)])
def test_lrn(axes, size, beta, rng):
    x = rng.standard_normal((2, 6, 4, 5)).astype(np.float32) * 3
    p = ops.parameter(x.shape, np.float32)
    y = ops.lrn(p, np.array(axes, np.int64), 0.5, beta, 2.0, size)
    np.testing.assert_allclose(run(y, [p], x)[0], ref.lrn(x, axes, 0.5, beta, 2.0, size),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("levels", [2, 16, 256])
def test_fake_quantize(levels, rng):
    x = rng.standard_normal((2, 3, 4, 4)).astype(np.float32) * 2
    il = rng.uniform(-1.5, -0.5, (1, 3, 1, 1)).astype(np.float32)
    ih = rng.uniform(0.5, 1.5, (1, 3, 1, 1)).astype(np.float32)
    ol, oh = np.float32(-1.0), np.float32(3.0)
    p = ops.parameter(x.shape, np.float32)
    y = ops.fake_quantize(p, il, ih, ol, oh, levels)
    np.testing.assert_allclose(run(y, [p], x)[0], ref.fake_quantize(x, il, ih, ol, oh, levels),
                               rtol=1e-5, atol=1e-5)


def test_elementwise_ops(rng):
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    b = rng.standard_normal((3, 1)).astype(np.float32)
    p = ops.parameter(x.shape, np.float32)
    outs = [ops.relu(p), ops.sigmoid(p), ops.clamp(p, -0.3, 0.4), ops.add(p, b),
            ops.subtract(p, b), ops.multiply(p, b), ops.divide(p, b + 3),
            ops.softmax(p, -1), ops.softmax(p, 0), ops.convert(p, "f16"), ops.convert(p, "i32")]
    got = run(outs, [p], x)
    want = [np.maximum(x, 0), 1 / (1 + np.exp(-x.astype(np.float64))), np.clip(x, -0.3, 0.4),
            x + b, x - b, x * b, x / (b + 3), ref.softmax(x, -1), ref.softmax(x, 0), f16(x),
            np.trunc(x).astype(np.int32)]
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-7)
    assert got[9].dtype == np.float16 and got[10].dtype == np.int32


def test_inplace_elementwise_does_not_clobber_shared_tensors(rng):
    """Relu may reuse its input's buffer only when nothing else reads that tensor."""
    x = rng.standard_normal((1, 4, 5, 5)).astype(np.float32)
    p = ops.parameter(x.shape, np.float32)
    conv = ops.convolution(p, rng.standard_normal((4, 4, 1, 1)).astype(np.float32),
                           [1, 1], [0, 0], [0, 0], [1, 1])
    r1 = ops.relu(conv)  # conv output is read twice: must not be overwritten
    neg = ops.multiply(conv, np.float32(-1))
    flat = ops.reshape(neg, np.array([0, -1], np.int64), True)
    r2 = ops.relu(flat)  # its input is a view of neg, which is also a result
    got = run([r1, neg, r2, conv], [p], x)
    c = got[3]
    np.testing.assert_allclose(got[0], np.maximum(c, 0))
    np.testing.assert_allclose(got[1], -c)
    np.testing.assert_allclose(got[2], np.maximum(-c, 0).reshape(1, -1))
    np.testing.assert_array_equal(x, x.copy())


@pytest.mark.parametrize("sa,sb,ta,tb", [((2, 3), (3, 4), False, False),
                                         ((3, 2), (3, 4), True, False),
                                         ((2, 3), (4, 3), False, True),
                                         ((5, 2, 3), (3, 4), False, False),
                                         ((5, 2, 3), (1, 4, 3), False, True),
                                         ((3,), (3, 4), False, False),
                                         ((2, 3), (3,), False, False)])
def test_matmul(sa, sb, ta, tb, rng):
    a = rng.standard_normal(sa).astype(np.float32)
    b = rng.standard_normal(sb).astype(np.float32)
    p = ops.parameter(a.shape, np.float32)
    y = ops.matmul(p, b, ta, tb)
    aa = np.swapaxes(a, -1, -2) if ta and a.ndim > 1 else a
    bb = np.swapaxes(b, -1, -2) if tb and b.ndim > 1 else b
    want = np.matmul(aa.astype(np.float64), bb)
    (got,) = run(y, [p], a)
    assert got.shape == want.shape == tuple(y.get_output_shape(0))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_data_movement(rng):
    x = rng.standard_normal((2, 3, 1, 4)).astype(np.float32)
    p = ops.parameter(x.shape, np.float32)
    outs = [ops.reshape(p, [0, -1], True), ops.reshape(p, [4, 0, 2], True),
            ops.transpose(p, [0, 3, 1, 2]), ops.transpose(p, np.array([], np.int64)),
            ops.squeeze(p, [2]), ops.unsqueeze(p, [0, -1]), ops.concat([p, p], -1),
            ops.reduce_mean(p, [1, 3], False), ops.reduce_mean(p, [-1], True)]
    got = run(outs, [p], x)
    want = [x.reshape(2, -1), x.reshape(4, 3, 2), x.transpose(0, 3, 1, 2), x.transpose(),
            x[:, :, 0], x[None, ..., None], np.concatenate([x, x], -1), x.mean(axis=(1, 3)),
            x.mean(axis=-1, keepdims=True)]
    for g, w, o in zip(got, want, outs, strict=True):
        assert g.shape == tuple(o.get_output_shape(0))
        np.testing.assert_allclose(g, w, rtol=1e-6)


def test_f16_storage_rounds_every_tensor(rng):
    x = (rng.standard_normal((1, 8)) * 10).astype(np.float32)
    w = rng.standard_normal((8, 8)).astype(np.float32)
    p = ops.parameter(x.shape, np.float32)
    y = ops.relu(ops.matmul(p, w, False, False))
    (got,) = run(y, [p], x, precision="f16")
    want = f16(np.maximum(f16(f16(x).astype(np.float64) @ f16(w)), 0))
    np.testing.assert_array_equal(got, want)
    assert got.dtype == np.float32
    with pytest.raises(ValueError, match="precision"):
        run(y, [p], x, precision="int4")


def test_f16_model_types_round_without_f16_precision(rng):
    x = rng.standard_normal((1, 8)).astype(np.float16)
    p = ops.parameter(x.shape, np.float16)
    w = ops.constant(rng.standard_normal((8, 3)).astype(np.float16))
    (got,) = run(ops.matmul(p, w, False, False), [p], x)
    assert got.dtype == np.float16
    np.testing.assert_allclose(got, f16(x.astype(np.float64) @ w.get_data()), rtol=1e-3)


def test_large_batches_are_chunked_consistently(rng):
    """Pooling, LRN and convolution work a few images at a time on big batches; the result
    must equal running every image on its own."""
    x = rng.standard_normal((3, 64, 96, 96)).astype(np.float32)  # 2.4 MB per image
    p = ops.parameter(x.shape, np.float32)
    one = ops.parameter([1, *x.shape[1:]], np.float32)
    w = rng.standard_normal((8, 64, 3, 3)).astype(np.float32) * 0.1

    def heads(src):
        return [ops.max_pool(src, [2, 2], [1, 1], [1, 1], [1, 1], [3, 3], "ceil").output(0),
                ops.avg_pool(src, [1, 1], [1, 1], [1, 1], [3, 3], False),
                ops.lrn(src, np.array([1], np.int64), 1e-2, 0.75, 1.0, 5),
                ops.convolution(src, w, [1, 1], [1, 1], [1, 1], [1, 1])]

    big = Model(heads(p), [p])._evaluate({0: x})
    small = Model(heads(one), [one])
    singles = [small._evaluate({0: x[i:i + 1]}) for i in range(len(x))]
    for k, got in enumerate(big):
        np.testing.assert_allclose(got, np.concatenate([s[k] for s in singles]), rtol=1e-5,
                                   atol=1e-5)
