"""Model-building scripts written once against the OpenVINO API and run with either library.

``ov`` is ``openvino`` or a namespace with ovlab's ``Model``/``Type``; ``ops`` is
``openvino.opset13`` or ``ovlab.opset13``. The first two are the probe's models
(reference/ov_probe/models.py); ``zoo_block`` exercises the rest of the opset in one graph.
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np


def ovlab_api() -> tuple[Any, Any]:
    import ovlab.opset13 as ops
    from ovlab.sim.graph import Model, Type

    return types.SimpleNamespace(Model=Model, Type=Type), ops


def openvino_api() -> tuple[Any, Any]:
    import openvino as ov
    import openvino.opset13 as ops

    return ov, ops


def conv_net(ov: Any, ops: Any, batch: int = 1, name: str = "tiny_convnet") -> Any:
    """Parameter -> Convolution -> Relu -> MaxPool -> Reshape -> MatMul -> Softmax."""
    rng = np.random.default_rng(0)
    x = ops.parameter([batch, 3, 32, 32], ov.Type.f32, name="input")
    w = ops.constant(rng.standard_normal((8, 3, 3, 3)).astype(np.float32) * 0.1, name="conv_w")
    conv = ops.convolution(x, w, strides=[1, 1], pads_begin=[1, 1], pads_end=[1, 1],
                           dilations=[1, 1], name="conv1")
    relu = ops.relu(conv, name="relu1")
    pool = ops.max_pool(relu, strides=[2, 2], dilations=[1, 1], pads_begin=[0, 0],
                        pads_end=[0, 0], kernel_shape=[2, 2], name="pool1")
    shape = ops.constant(np.array([batch, 8 * 16 * 16], dtype=np.int64), name="flat_shape")
    flat = ops.reshape(pool.output(0), shape, special_zero=False, name="flatten")
    fc_w = ops.constant(rng.standard_normal((8 * 16 * 16, 10)).astype(np.float32) * 0.01,
                        name="fc_w")
    mm = ops.matmul(flat, fc_w, transpose_a=False, transpose_b=False, name="fc")
    sm = ops.softmax(mm, axis=1, name="prob")
    res = ops.result(sm, name="output")
    return ov.Model([res], [x], name)


def mlp(ov: Any, ops: Any, batch: int = 1, name: str = "tiny_mlp") -> Any:
    rng = np.random.default_rng(1)
    x = ops.parameter([batch, 16], ov.Type.f32, name="x")
    w1 = ops.constant(rng.standard_normal((16, 32)).astype(np.float32), name="w1")
    b1 = ops.constant(rng.standard_normal((1, 32)).astype(np.float32), name="b1")
    h = ops.relu(ops.add(ops.matmul(x, w1, False, False, name="mm1"), b1, name="add1"), name="relu")
    w2 = ops.constant(rng.standard_normal((32, 4)).astype(np.float32), name="w2")
    out = ops.matmul(h, w2, False, False, name="mm2")
    sm = ops.softmax(out, axis=1, name="softmax")
    return ov.Model([sm], [x], name)


def zoo_block(ov: Any, ops: Any, batch: int = 1) -> Any:
    """An inception-like block using concat, lrn, avg_pool, group_convolution, transpose,
    clamp, sigmoid, fake_quantize, max_pool (both outputs), subtract/multiply/divide,
    squeeze/unsqueeze and reduce_mean, with two inputs and three outputs."""
    rng = np.random.default_rng(2)

    def c(shape: tuple[int, ...], scale: float = 0.3) -> Any:
        return ops.constant((rng.standard_normal(shape) * scale).astype(np.float32))

    x = ops.parameter([batch, 8, 15, 15], np.float32, name="x")
    y = ops.parameter([batch, 4, 15, 15], np.float32, name="y")
    # an integer zero point (128), so the CPU's real int8 path computes exactly what FQ says
    lo, hi = np.full((1, 1, 1, 1), -1.28, np.float32), np.full((1, 1, 1, 1), 1.27, np.float32)
    xq = ops.fake_quantize(x, lo, hi, lo, hi, 256, name="x/fq")
    wq = ops.fake_quantize(c((12, 8, 3, 3)), np.float32(-0.5), np.float32(0.5),
                           np.float32(-0.5), np.float32(0.5), 255, name="w/fq")
    a = ops.convolution(xq, wq, [1, 1], [1, 1], [1, 1], [1, 1], name="a/3x3")
    a = ops.relu(ops.add(a, c((1, 12, 1, 1)), name="a/bias"), name="a/relu")
    b = ops.group_convolution(x, c((4, 2, 2, 3, 3)), [2, 2], [0, 0], [0, 0], [1, 1],
                              auto_pad="SAME_UPPER", name="b/group")
    b = ops.sigmoid(b, name="b/sigmoid")
    b_up = ops.max_pool(b, [1, 1], [1, 1], [1, 1], [1, 1], [3, 3], name="b/pool")
    d = ops.convolution(ops.concat([x, y], 1, name="xy"), c((6, 12, 1, 1)), [1, 1], [0, 0],
                        [0, 0], [1, 1], name="d/1x1")
    d = ops.clamp(d, -0.5, 0.75, name="d/clamp")
    e = ops.avg_pool(y, [1, 1], [1, 1], [1, 1], [3, 3], True, name="e/avg")
    e = ops.convolution(e, c((4, 4, 3, 3)), [1, 1], [2, 2], [2, 2], [2, 2], name="e/dilated")
    cat = ops.concat([a, d, e], 1, name="cat")
    n = ops.lrn(cat, np.array([1], np.int64), 1e-2, 0.75, 1.0, 5, name="norm")
    p = ops.max_pool(n, [2, 2], [1, 1], [0, 0], [0, 0], [3, 3], "ceil", name="pool")
    q = ops.avg_pool(p.output(0), [2, 2], [0, 0], [0, 0], [2, 2], False, "ceil", name="avg")
    t = ops.transpose(q, np.array([0, 2, 3, 1], np.int64), name="nhwc")
    m = ops.reduce_mean(t, np.array([1, 2], np.int64), True, name="gap")
    m = ops.squeeze(m, np.array([1], np.int64), name="squeeze")
    m = ops.subtract(ops.multiply(m, c((1, 1, 22)), name="mul"), c((1, 1, 22)), name="sub")
    m = ops.divide(m, np.full((1, 1, 22), 2.0, np.float32), name="div")
    flat = ops.reshape(ops.unsqueeze(m, np.array([1], np.int64)),  # (openvino drops its name)
                       np.array([0, -1], np.int64), True, name="flatten")
    fc = ops.matmul(flat, c((10, 22)), False, True, name="fc")
    prob = ops.softmax(fc, -1, name="prob")
    out1 = ops.result(prob, name="prob_out")
    out2 = ops.result(p.output(1), name="pool_indices")
    out3 = ops.result(ops.convert(b_up.output(0), np.float32, name="b/convert"), name="b_out")
    return ov.Model([out1, out2, out3], [x, y], "zoo_block")
