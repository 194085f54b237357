"""The model zoo: real topologies, deterministic weights, precision variants, f16 safety."""

from __future__ import annotations

import time

import numpy as np
import pytest

from ovlab import zoo
from ovlab.graph import Model, Type, model_precision

IMAGENET = ["googlenet-v1", "alexnet", "squeezenet1.1", "resnet-50"]


def test_names_and_errors():
    assert zoo.names() == IMAGENET + ["small-cnn", "mlp"]
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
    import ovlab.opset13 as ops
    x = ops.parameter([1, 4], np.float32)
    assert model_precision(Model([ops.relu(x)], [x])) == "FP32"


@pytest.mark.parametrize("name", zoo.names())
def test_f16_and_f32_agree_on_the_top_class(name):
    x = zoo.sample_input(name)
    fp32 = zoo.load(name)
    y32 = fp32._evaluate({0: x})[0][0]
    y16 = fp32._evaluate({0: x}, "f16")[0][0]
    top2 = np.sort(y32)[-2:]
    assert np.isfinite(y16).all() and y16.argmax() == y32.argmax()
    assert top2[1] > 1.1 * top2[0]  # a clear margin, not a coin flip
    yh = zoo.load(name, "FP16")._evaluate({0: x.astype(np.float16)})[0][0]
    assert yh.dtype == np.float16 and yh.argmax() == y32.argmax()
    yq = zoo.load(name, "INT8")._evaluate({0: x})[0][0]
    assert yq.argmax() == y32.argmax()
