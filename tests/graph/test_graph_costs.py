"""FLOP/byte counts (``_cost``) and the batching helpers BATCH relies on."""

from __future__ import annotations

import graph_builders as gb
import numpy as np
import pytest

import ovlab.opset13 as ops
from ovlab import zoo
from ovlab.sim.graph import Model, OpCost


def test_googlenet_costs_about_3_gflops():
    m = zoo.load("googlenet-v1")
    costs = m._cost(1)
    compute = [o for o in m.get_ops() if o.get_type_name() not in ("Parameter", "Constant", "Result")]
    assert [c.name for c in costs] == [o.get_friendly_name() for o in compute]
    assert [c.type_name for c in costs] == [o.get_type_name() for o in compute]
    assert all(isinstance(c, OpCost) for c in costs)
    macs = sum(c.flops for c in costs if c.type_name in ("Convolution", "MatMul")) / 2
    assert 1.5e9 < macs < 1.65e9  # GoogLeNet v1: ~1.6 GMAC
    assert 3.0e9 < sum(c.flops for c in costs) < 3.4e9
    weights = sum(np.prod(o.get_output_shape(0)) for o in m.get_ops()
                  if o.get_type_name() == "Constant")
    assert 6.5e6 < weights < 7.2e6  # ~7M parameters


def test_cost_scales_with_batch():
    m = zoo.load("googlenet-v1")
    one, four = m._cost(1), m._cost(4)
    for a, b in zip(one, four, strict=True):
        assert b.flops == pytest.approx(4 * a.flops, rel=1e-9, abs=2)
        assert b.bytes_written == pytest.approx(4 * a.bytes_written, rel=1e-9, abs=2)
        assert a.bytes_read <= b.bytes_read <= 4 * a.bytes_read + 2  # weights are not scaled
    batched = m._with_batch(4)
    assert [c.flops for c in batched._cost(4)] == [c.flops for c in four]
    assert [c.flops for c in batched._cost(1)] == pytest.approx([c.flops for c in one], abs=1)
    with pytest.raises(ValueError):
        m._cost(0)


def test_conv_cost_formula():
    x = ops.parameter([2, 3, 10, 10], np.float32)
    conv = ops.convolution(x, np.ones((8, 3, 3, 3), np.float32), [1, 1], [1, 1], [1, 1], [1, 1],
                           name="conv")
    flat = ops.reshape(ops.relu(conv, name="relu"), [0, -1], True, name="flat")
    m = Model([flat], [x])
    c_conv, c_relu, c_flat = m._cost(2)
    assert c_conv == ("conv", "Convolution", 2 * 2 * 8 * 100 * 27, 4 * (2 * 300 + 8 * 27),
                      4 * 2 * 800)
    assert c_relu == ("relu", "Relu", 1600, 6400, 6400)
    assert c_flat == ("flat", "Reshape", 0, 0, 0)  # a view: no data moves
    assert m._cost(1)[0].bytes_read == 4 * (300 + 8 * 27)


def test_bytes_are_f32_based_and_constant_subgraphs_are_free():
    fp32 = {c.name: c for c in zoo.load("small-cnn")._cost(1)}
    fp16 = {c.name: c for c in zoo.load("small-cnn", "FP16")._cost(1)}
    int8 = {c.name: c for c in zoo.load("small-cnn", "INT8")._cost(1)}
    assert fp16["conv1"] == fp32["conv1"]
    assert int8["conv1/fq_weights"].flops == 0 == int8["conv1/fq_weights"].bytes_read
    assert int8["conv1/fq_input"].flops > 0
    assert int8["conv1"].bytes_read == fp32["conv1"].bytes_read


def test_maxpool_indices_count_only_when_read():
    m = gb.conv_net(*gb.ovlab_api())
    pool = next(c for c in m._cost(1) if c.type_name == "MaxPool")
    assert pool.bytes_written == 4 * 8 * 16 * 16
    assert pool.flops == 8 * 16 * 16 * 4


@pytest.mark.parametrize("name", zoo.names())
def test_zoo_models_are_batchable(name):
    m = zoo.load(name)
    assert m._batch_size() == 1 and m._is_batchable()
    b = m._with_batch(16)
    assert b._batch_size() == 16 and all(o.get_shape()[0] == 16 for o in b.outputs)
    assert m.inputs[0].get_shape()[0] == 1  # the original is untouched


def test_constant_shape_reshape_is_not_batchable():
    m = gb.conv_net(*gb.ovlab_api())  # Reshape to the constant [1, 2048]
    assert not m._is_batchable()
    with pytest.raises(ValueError, match="not batchable.*flatten"):
        m._with_batch(4)
    already = gb.mlp(*gb.ovlab_api(), batch=2)
    assert already._batch_size() == 2 and not already._is_batchable()
    keeps_one = ops.parameter([1, 4], np.float32)
    m = Model([ops.reshape(keeps_one, [1, -1], False)], [keeps_one])
    assert not m._is_batchable()  # shape inference works at batch 2, but the output is [1, 8]


@pytest.mark.parametrize("name", ["small-cnn", "mlp", "squeezenet1.1", "mobilenet-v2",
                                  "bert-tiny"])
def test_with_batch_equals_stacked_single_runs(name):
    m = zoo.load(name)
    xs = [zoo.sample_input(name, seed=s) for s in range(4)]
    singles = np.concatenate([m._evaluate({0: x})[0] for x in xs])
    batched = m._with_batch(4)._evaluate({0: np.concatenate(xs)})[0]
    np.testing.assert_allclose(batched, singles, rtol=1e-5, atol=1e-6)
