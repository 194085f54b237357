"""Small ONNX models built with ``onnx.helper`` (seeded weights) for the ONNX frontend tests."""

from __future__ import annotations

import numpy as np


def _init(helper, numpy_helper, name, arr):
    return numpy_helper.from_array(np.asarray(arr), name)


def small_cnn(opset: int = 17):
    """Conv(+bias) -> BatchNorm -> Relu -> MaxPool -> grouped Conv -> Clip -> AveragePool ->
    GlobalAveragePool -> Flatten -> Gemm -> Softmax, on a 1x3x16x16 input."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(7)
    f32 = np.float32
    inits = [
        _init(helper, numpy_helper, "w1", (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(f32)),
        _init(helper, numpy_helper, "b1", rng.standard_normal(8).astype(f32)),
        _init(helper, numpy_helper, "bn_s", (1 + 0.1 * rng.standard_normal(8)).astype(f32)),
        _init(helper, numpy_helper, "bn_b", (0.1 * rng.standard_normal(8)).astype(f32)),
        _init(helper, numpy_helper, "bn_m", (0.1 * rng.standard_normal(8)).astype(f32)),
        _init(helper, numpy_helper, "bn_v", (1 + 0.1 * rng.random(8)).astype(f32)),
        _init(helper, numpy_helper, "w2", (rng.standard_normal((8, 2, 3, 3)) * 0.3).astype(f32)),
        _init(helper, numpy_helper, "lo", np.array(0, f32)),
        _init(helper, numpy_helper, "hi", np.array(6, f32)),
        _init(helper, numpy_helper, "fc_w", (rng.standard_normal((5, 8)) * 0.3).astype(f32)),
        _init(helper, numpy_helper, "fc_b", rng.standard_normal(5).astype(f32)),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c1", "bn_s", "bn_b", "bn_m", "bn_v"], ["bn1"],
                         name="bn1", epsilon=1e-5),
        helper.make_node("Relu", ["bn1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2],
                         strides=[2, 2]),
        helper.make_node("Conv", ["p1", "w2"], ["c2"], name="conv2", group=4, pads=[1, 1, 1, 1]),
        helper.make_node("Clip", ["c2", "lo", "hi"], ["r2"], name="clip2"),
        helper.make_node("AveragePool", ["r2"], ["p2"], name="pool2", kernel_shape=[2, 2],
                         strides=[2, 2]),
        helper.make_node("GlobalAveragePool", ["p2"], ["gap"], name="gap"),
        helper.make_node("Flatten", ["gap"], ["flat"], name="flatten"),
        helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], name="fc", transB=1),
        helper.make_node("Softmax", ["logits"], ["prob"], name="softmax", axis=-1),
    ]
    graph = helper.make_graph(
        nodes, "onnx_small_cnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("prob", TensorProto.FLOAT, [1, 5])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(model)
    return model
