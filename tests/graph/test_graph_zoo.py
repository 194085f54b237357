"""The model zoo: real topologies, deterministic weights, precision variants, f16 safety."""

from __future__ import annotations

import time

import numpy as np
import pytest

from ovlab import zoo
from ovlab.sim.graph import Model, Type, model_precision

IMAGENET = ["googlenet-v1", "alexnet", "squeezenet1.1", "resnet-50"]
NEW = ["mobilenet-v1", "mobilenet-v2", "yolo-v3-tiny", "bert-tiny"]


def _types(m):
    out: dict[str, int] = {}
    for o in m.get_ops():
        out[o.get_type_name()] = out.get(o.get_type_name(), 0) + 1
    return out


def _macs(m):
    return sum(c.flops for c in m._cost(1)
               if c.type_name in ("Convolution", "GroupConvolution", "MatMul")) / 2


def test_names_and_errors():
    assert zoo.names() == IMAGENET + ["small-cnn", "mlp"] + NEW
    with pytest.raises(KeyError, match="googlenet-v1"):
        zoo.load("googlenet")
    with pytest.raises(ValueError, match="FP16"):
        zoo.load("mlp", "FP64")


def test_googlenet_structure():
    m = zoo.load("googlenet-v1")
    assert m.friendly_name == "googlenet-v1"
    assert m.inputs[0].get_any_name() == "data" and m.inputs[0].shape == [1, 3, 224, 224]
    assert m.outputs[0].get_any_name() == "prob" and m.outputs[0].shape == [1, 1000]
    ops = {o.get_friendly_name(): o for o in m.get_ops()}
    for name, type_name in [("conv1/7x7_s2", "Convolution"), ("conv1/relu_7x7", "Relu"),
                            ("pool1/3x3_s2", "MaxPool"), ("pool1/norm1", "LRN"),
                            ("conv2/norm2", "LRN"), ("inception_3a/1x1", "Convolution"),
                            ("inception_3a/output", "Concat"), ("inception_5b/pool_proj",
                                                                 "Convolution"),
                            ("pool5/7x7_s1", "AvgPool"), ("loss3/classifier", "MatMul"),
                            ("prob", "Softmax")]:
        assert ops[name].get_type_name() == type_name, name
    blocks = [n for n in ops if n.startswith("inception_") and n.endswith("/output")]
    assert len(blocks) == 9
    assert ops["inception_3a/output"].get_output_shape(0) == [1, 256, 28, 28]
    assert ops["inception_4e/output"].get_output_shape(0) == [1, 832, 14, 14]
    assert ops["inception_5b/output"].get_output_shape(0) == [1, 1024, 7, 7]
    assert ops["pool1/3x3_s2"].get_output_shape(0) == [1, 64, 56, 56]


def test_other_topologies():
    alex = zoo.load("alexnet")
    assert alex.inputs[0].shape == [1, 3, 227, 227]
    types = [o.get_type_name() for o in alex.get_ops()]
    assert types.count("GroupConvolution") == 3 and types.count("LRN") == 2
    squeeze = zoo.load("squeezenet1.1")
    assert sum(o.get_friendly_name().endswith("/concat") for o in squeeze.get_ops()) == 8
    resnet = zoo.load("resnet-50")
    adds = [o for o in resnet.get_ops() if o.get_friendly_name().startswith("res")
            and o.get_type_name() == "Add" and "/" not in o.get_friendly_name()]
    assert len(adds) == 16
    macs = sum(c.flops for c in resnet._cost(1) if c.type_name in ("Convolution", "MatMul")) / 2
    assert 3.7e9 < macs < 4.2e9


def test_load_returns_independent_clones_and_same_weights():
    a, b = zoo.load("small-cnn"), zoo.load("small-cnn")
    assert a is not b and a.get_ops()[0] is not b.get_ops()[0]
    a.get_ops()[2].get_rt_info()["affinity"] = "GPU"
    assert "affinity" not in b.get_ops()[2].get_rt_info()
    fresh = zoo.build("small-cnn")
    for x, y in zip(a.get_ops(), fresh.get_ops(), strict=True):
        if x.get_type_name() == "Constant":
            np.testing.assert_array_equal(x.get_data(), y.get_data())


def test_weights_are_the_same_in_every_process():
    w = next(o for o in zoo.load("googlenet-v1").get_ops()
             if o.get_friendly_name() == "conv1/7x7_s2/weights").get_data()
    assert w.shape == (64, 3, 7, 7)
    # seeded from the model name with crc32 (not Python's randomised hash())
    assert float(np.abs(w).sum(dtype=np.float64)) == pytest.approx(949.39, abs=0.05)


def test_building_googlenet_is_fast():
    """~40 ms to build and ~5 ms to load on a quiet 2-core machine; the bounds leave room for
    a busy one."""
    zoo.build("googlenet-v1")
    start = time.perf_counter()
    zoo.build("googlenet-v1")
    assert time.perf_counter() - start < 0.8
    start = time.perf_counter()
    zoo.load("googlenet-v1")
    assert time.perf_counter() - start < 0.25


@pytest.mark.parametrize("precision,label", [("FP32", "FP32"), ("FP16", "FP16"),
                                             ("INT8", "INT8")])
def test_precision_variants(precision, label):
    m = zoo.load("googlenet-v1", precision)
    assert model_precision(m) == label
    consts = [o for o in m.get_ops() if o.get_type_name() == "Constant"]
    floats = {o.get_element_type() for o in consts if o.get_element_type().is_real()}
    if precision == "FP16":
        assert floats == {Type.f16}
        assert m.inputs[0].get_element_type() == Type.f16 == m.outputs[0].get_element_type()
    else:
        assert floats == {Type.f32}
    fqs = [o for o in m.get_ops() if o.get_type_name() == "FakeQuantize"]
    convs = [o for o in m.get_ops() if o.get_type_name() in ("Convolution", "MatMul")]
    assert len(fqs) == (2 * len(convs) if precision == "INT8" else 0)


def test_model_precision_rules():
    """As AUTO's get_model_precision: FakeQuantize -> INT8, else the weights of the first
    (Group)Convolution(BackpropData); MatMul does not count."""
    import ovlab.opset13 as ops
    x = ops.parameter([1, 4], np.float32)
    assert model_precision(Model([ops.relu(x)], [x])) == "FP32"
    h = ops.parameter([1, 4, 3, 3], np.float16)
    w = np.ones((4, 2, 3, 3), np.float16)
    assert model_precision(Model([ops.convolution_backprop_data(h, w, [1, 1])], [h])) == "FP16"
    assert model_precision(zoo.load("bert-tiny", "FP16")) == "FP32"


def test_mobilenet_v1_structure_and_flops():
    """MobileNet-v1 1.0 at 224: 13 depthwise-separable blocks (a depthwise 3x3, then a 1x1);
    published: 569 M multiply-adds and 4.2 M parameters (Howard et al. 2017, table 8)."""
    m = zoo.load("mobilenet-v1")
    assert m.inputs[0].get_any_name() == "data" and m.inputs[0].shape == [1, 3, 224, 224]
    assert m.outputs[0].get_any_name() == "prob" and m.outputs[0].shape == [1, 1000]
    types = _types(m)
    assert types["GroupConvolution"] == 13 and types["Convolution"] == 14
    for o in m.get_ops():
        if o.get_type_name() == "GroupConvolution":
            w = o.input_value(1).get_shape()
            assert w[1:] == [1, 1, 3, 3] and w[0] == o.get_input_shape(0)[1]  # depthwise
    assert 0.56e9 < _macs(m) < 0.58e9
    params = sum(int(np.prod(o.get_output_shape(0))) for o in m.get_ops()
                 if o.get_type_name() == "Constant")
    assert 4.1e6 < params < 4.3e6


def test_mobilenet_v2_structure_and_flops():
    """MobileNet-v2 1.0 at 224: 17 inverted residual blocks, one depthwise 3x3 each, ReLU6 as
    Clamp(0, 6); published: 300 M multiply-adds (~0.6 GFLOPs) and 3.4-3.5 M parameters."""
    m = zoo.load("mobilenet-v2")
    assert m.inputs[0].get_any_name() == "data" and m.inputs[0].shape == [1, 3, 224, 224]
    assert m.outputs[0].get_any_name() == "prob" and m.outputs[0].shape == [1, 1000]
    types = _types(m)
    assert types["GroupConvolution"] == 17 and types["Clamp"] == 35 and types["Convolution"] == 35
    for o in m.get_ops():
        if o.get_type_name() == "GroupConvolution":
            w = o.input_value(1).get_shape()
            assert w[1:] == [1, 1, 3, 3] and w[0] == o.get_input_shape(0)[1]  # depthwise
        if o.get_type_name() == "Clamp":
            assert (o.get_attributes()["min"], o.get_attributes()["max"]) == (0.0, 6.0)
    blocks = [o.get_friendly_name() for o in m.get_ops() if o.get_type_name() == "Add"
              and o.get_friendly_name().startswith("block_")]
    assert len(blocks) == 10 and "block_3_1" in blocks and "block_6_2" in blocks
    assert 0.29e9 < _macs(m) < 0.31e9
    assert 0.58e9 < 2 * _macs(m) < 0.62e9
    params = sum(int(np.prod(o.get_output_shape(0))) for o in m.get_ops()
                 if o.get_type_name() == "Constant")
    assert 3.4e6 < params < 3.6e6


def test_yolo_v3_tiny_structure_and_flops():
    """yolo-v3-tiny-tf at 416x416 up to its two output convolutions; published: 5.56 BFLOPs
    (darknet's count, 2 per multiply-add) and 8.8 M parameters."""
    m = zoo.load("yolo-v3-tiny")
    assert m.inputs[0].get_any_name() == "image_input" and m.inputs[0].shape == [1, 3, 416, 416]
    assert [o.get_shape() for o in m.outputs] == [[1, 255, 13, 13], [1, 255, 26, 26]]
    assert [o.get_node().input_value(0).get_node().get_friendly_name() for o in m.outputs] == \
        ["conv2d_9/add_bias", "conv2d_12/add_bias"]
    types = _types(m)
    assert (types["Convolution"], types["PRelu"], types["MaxPool"], types["Interpolate"],
            types["Concat"]) == (13, 11, 6, 1, 1)
    ops = {o.get_friendly_name(): o for o in m.get_ops()}
    assert ops["max_pooling2d_5"].get_output_shape(0) == [1, 512, 13, 13]  # stride 1, SAME
    assert ops["up_sampling2d"].get_output_shape(0) == [1, 128, 26, 26]
    assert ops["concatenate"].get_output_shape(0) == [1, 384, 26, 26]
    assert 5.4e9 < 2 * _macs(m) < 5.7e9
    params = sum(int(np.prod(o.get_output_shape(0))) for o in m.get_ops()
                 if o.get_type_name() == "Constant")
    assert 8.6e6 < params < 9.0e6


def test_bert_tiny_structure():
    """google/bert_uncased_L-2_H-128_A-2 (4.4 M parameters): Gather embeddings, 2 encoder
    layers of 2-head MatMul attention with MVN layer norms and Gelu, a pooler, 2 classes."""
    m = zoo.load("bert-tiny")
    port = m.inputs[0]
    assert port.get_any_name() == "input_ids" and port.shape == [1, 128]
    assert port.get_element_type() == Type.i64
    assert m.outputs[0].shape == [1, 2]
    types = _types(m)
    assert (types["Gather"], types["MVN"], types["Gelu"], types["Softmax"]) == (4, 5, 2, 3)
    assert types["MatMul"] == 2 * (4 + 2 + 2) + 2
    params = sum(int(np.prod(o.get_output_shape(0))) for o in m.get_ops()
                 if o.get_type_name() == "Constant" and o.get_element_type().is_real())
    assert 4.3e6 < params < 4.5e6
    costs = {c.name: c for c in m._cost(1)}
    assert costs["bert/embeddings/position_embeddings/Gather"].flops == 0  # folded
    assert costs["bert/embeddings/position_embeddings/Gather"].bytes_read == 0
    assert costs["bert/embeddings/word_embeddings/Gather"].bytes_written > 0
    assert zoo.sample_input("bert-tiny", 2).dtype == np.int64
    assert zoo.sample_input("bert-tiny", 2).shape == (2, 128)
    assert model_precision(zoo.load("bert-tiny", "INT8")) == "INT8"
    assert zoo.load("bert-tiny", "FP16").inputs[0].get_element_type() == Type.i64


def _classifier(m):
    return len(m.outputs) == 1 and len(m.outputs[0].get_shape()) == 2


@pytest.mark.parametrize("name", zoo.names())
def test_f16_and_f32_agree_on_the_top_class(name):
    """Classifiers: the same top class in f32, f16 storage, FP16 and INT8, with a clear margin.
    The detector (YOLO): the same outputs within f16's and INT8's error."""
    x = zoo.sample_input(name)
    fp32 = zoo.load(name)
    y32 = fp32._evaluate({0: x})
    y16 = fp32._evaluate({0: x}, "f16")
    xh = x.astype(np.float16) if x.dtype == np.float32 else x
    yh = zoo.load(name, "FP16")._evaluate({0: xh})
    yq = zoo.load(name, "INT8")._evaluate({0: x})
    assert all(np.isfinite(a).all() for a in y16 + yh + yq)
    assert all(a.dtype == np.float16 for a in yh)
    if not _classifier(fp32):
        for a, b, c, d in zip(y32, y16, yh, yq, strict=True):
            scale = float(np.abs(a).max())
            assert np.abs(b - a).max() < 1e-2 * scale
            assert np.abs(c.astype(np.float32) - a).max() < 2e-2 * scale
            assert np.corrcoef(a.ravel(), d.ravel())[0, 1] > 0.99
        return
    top2 = np.sort(y32[0][0])[-2:]
    assert top2[1] > 1.1 * top2[0]  # a clear margin, not a coin flip
    assert y16[0][0].argmax() == y32[0][0].argmax()
    assert yh[0][0].argmax() == y32[0][0].argmax()
    assert yq[0][0].argmax() == y32[0][0].argmax()
