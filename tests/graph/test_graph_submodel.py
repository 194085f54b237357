"""Cutting a model into submodels (the mechanism HETERO uses): running the pieces in order,
feeding each piece's parameters from the tensors they stand for, gives the whole model's
outputs."""

from __future__ import annotations

import graph_builders as gb
import numpy as np
import pytest

from ovlab import zoo
from ovlab.sim.graph import submodel


def run_pieces(model, pieces, inputs):
    values = {model.inputs[i]: v for i, v in inputs.items()}
    for piece in pieces:
        feed = {i: values[src] for i, src in enumerate(piece.inputs)}
        for out, v in zip(piece.outputs, piece.model._evaluate(feed), strict=True):
            values[out] = v
    return [values[o] for o in model.outputs]


def test_split_googlenet_in_three(rng):
    m = zoo.load("googlenet-v1")
    ops = [o for o in m.get_ordered_ops() if o.get_type_name() not in ("Constant",)]
    cut1 = next(i for i, o in enumerate(ops) if o.get_friendly_name() == "inception_3a/1x1")
    cut2 = next(i for i, o in enumerate(ops) if o.get_friendly_name() == "pool4/3x3_s2")
    parts = [ops[:cut1], ops[cut1:cut2], ops[cut2:]]
    pieces = [submodel(m, [o.get_friendly_name() for o in part] if i == 1 else part,
                       name=f"{m.friendly_name}_{i}") for i, part in enumerate(parts)]
    assert [p.model.friendly_name for p in pieces] == [f"googlenet-v1_{i}" for i in range(3)]
    first, middle, last = pieces
    assert first.inputs == [m.inputs[0]] and first.model.inputs[0].get_any_name() == "data"
    assert [o.get_node().get_friendly_name() for o in first.outputs] == ["pool2/3x3_s2"]
    assert middle.inputs == first.outputs and last.outputs == m.outputs
    assert last.model.outputs[0].get_any_name() == "prob"
    # constants are copied into the piece that reads them, not passed between pieces
    assert all(p.get_type_name() == "Parameter" for p in middle.model.get_parameters())
    assert any(o.get_friendly_name() == "inception_3a/1x1/weights" for o in middle.model.get_ops())
    x = zoo.sample_input("googlenet-v1")
    np.testing.assert_array_equal(run_pieces(m, pieces, {0: x})[0], m._evaluate({0: x})[0])
    costs = sum(len(p.model._cost(1)) for p in pieces)
    assert costs == len(m._cost(1))


def test_branch_outputs_and_shared_parameters(rng):
    m = gb.zoo_block(*gb.ovlab_api())
    names = {o.get_friendly_name() for o in m.get_ordered_ops()}
    gpu = {"a/3x3", "a/bias", "a/relu", "d/1x1", "d/clamp", "lrn", "norm", "cat"} & names
    gpu_piece = submodel(m, gpu, name="gpu")
    rest = [o for o in m.get_ordered_ops() if o.get_friendly_name() not in gpu]
    before = [o for o in rest if o.get_friendly_name() in ("x", "y", "x/fq", "w/fq", "xy", "e/avg",
                                                           "e/dilated")]
    after = [o for o in rest if o not in before]
    p0, p2 = submodel(m, before), submodel(m, after)
    # 'x/fq' feeds a/3x3 only, xy feeds d/1x1: each becomes one parameter of the GPU piece
    assert sorted(o.get_node().get_friendly_name() for o in gpu_piece.inputs) == \
        ["e/dilated", "w/fq", "x/fq", "xy"]
    x = rng.standard_normal((1, 8, 15, 15)).astype(np.float32)
    y = rng.standard_normal((1, 4, 15, 15)).astype(np.float32)
    got = run_pieces(m, [p0, gpu_piece, p2], {0: x, 1: y})
    for g, w in zip(got, m._evaluate({0: x, 1: y}), strict=True):
        np.testing.assert_array_equal(g, w)


def test_submodel_errors():
    m = gb.mlp(*gb.ovlab_api())
    with pytest.raises(KeyError, match="no op named 'nope'"):
        submodel(m, ["nope"])
    with pytest.raises(ValueError, match="not a Constant"):
        submodel(m, ["w1"])
