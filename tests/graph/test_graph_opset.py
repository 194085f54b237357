"""The opset's bookkeeping, on every case of ``op_cases.py`` (no openvino needed): costs,
f16 storage, batch rules (checked by running batched against stacked single runs), constant
folding of shape subgraphs, attribute descriptions and errors of the new builders."""

from __future__ import annotations

import numpy as np
import op_cases
import pytest

import ovlab.opset13 as ops
from ovlab.sim.graph import Model, NodeValidationError, Type
from ovlab.sim.graph.attrs import KINDS, REQUIRED, from_ir, to_ir
from ovlab.sim.graph.ops import REGISTRY

CASES = {c.id: c for c in op_cases.CASES}


def build(case, inputs):
    params = [ops.parameter(list(a.shape), a.dtype, name=f"in{i}") for i, a in enumerate(inputs)]
    outs = case.build(ops, params)
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    return Model([o if hasattr(o, "get_node") else o.output(0) for o in outs], params)


@pytest.mark.parametrize("case_id", list(CASES))
def test_costs_and_f16_storage(case_id):
    case = CASES[case_id]
    inputs = op_cases.make_inputs(case)
    m = build(case, inputs)
    costs = m._cost(1)
    compute = [n for n in m.get_ordered_ops()
               if n.get_type_name() not in ("Parameter", "Constant", "Result")]
    assert [c.type_name for c in costs] == [n.get_type_name() for n in compute]
    assert all(c.flops >= 0 and c.bytes_read >= 0 and c.bytes_written >= 0 for c in costs)
    out32 = m._evaluate(dict(enumerate(inputs)))
    out16 = m._evaluate(dict(enumerate(inputs)), "f16")
    for a, b in zip(out32, out16, strict=True):
        assert a.shape == b.shape and a.dtype == b.dtype
        if b.dtype == np.float32:  # f16 storage: every float result is an f16 value
            np.testing.assert_array_equal(b, b.astype(np.float16).astype(np.float32))


def _batch1(case):
    """The case's inputs with batch 1, if the case builds that way."""
    inputs = []
    for a in op_cases.make_inputs(case, seed=3):
        inputs.append(a[:1] if a.ndim and a.shape[0] > 1 else a)
    try:
        return build(case, inputs), inputs
    except (NodeValidationError, ValueError):
        return None, None


def test_batch_rules_hold_when_run():
    """Where a model says it is batchable, batch 3 must equal three batch-1 runs stacked; a
    wrong "keeps the batch" rule would mix samples and fail here."""
    checked = refused = 0
    for case in op_cases.CASES:
        m, inputs = _batch1(case)
        if m is None or any(a.ndim == 0 or a.shape[0] != 1 for a in inputs):
            continue
        if not m._is_batchable():
            refused += 1
            continue
        rng = np.random.default_rng(7)
        samples = [inputs] + [[_like(a, rng) for a in inputs] for _ in range(2)]
        single = [m._evaluate(dict(enumerate(s))) for s in samples]
        stacked = [np.concatenate([s[i] for s in samples]) for i in range(len(inputs))]
        batched = m._with_batch(3)._evaluate(dict(enumerate(stacked)))
        for k, out in enumerate(batched):
            want = np.concatenate([s[k] for s in single])
            np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6, err_msg=case.id)
        checked += 1
    assert checked > 100 and refused > 5, (checked, refused)


def test_batched_copy_infers_as_clone_then_reshape():
    """``_with_batch`` skips the clone's own shape inference (its reshape runs it on every
    node): each node's shapes, types and attributes must be what clone() then reshape() give."""
    compared = 0
    for case in op_cases.CASES:
        m, inputs = _batch1(case)
        if m is None or any(a.ndim == 0 or a.shape[0] != 1 for a in inputs) \
                or not m._is_batchable():
            continue
        fast = m._with_batch(3)
        slow = m.clone()
        slow.reshape({i: (3, *p._out_shapes[0][1:]) for i, p in enumerate(m._parameters)})
        for a, b in zip(fast.get_ordered_ops(), slow.get_ordered_ops(), strict=True):
            assert (a._out_shapes, a._out_types, a._attrs.keys()) == \
                (b._out_shapes, b._out_types, b._attrs.keys()), case.id
        compared += 1
    assert compared > 100


def _like(a, rng):
    if a.dtype == np.bool_:
        return rng.random(a.shape) < 0.5
    if a.dtype.kind == "i":
        return np.clip(a + rng.integers(-1, 2, a.shape), a.min(), a.max()).astype(a.dtype)
    return rng.standard_normal(a.shape).astype(a.dtype) * np.abs(a).max() + (
        np.abs(a).max() if a.min() > 0 else 0)


def _model(fn, shape=(1, 3, 4)):
    x = ops.parameter(list(shape), np.float32, name="x")
    return Model([fn(x)], [x])


@pytest.mark.parametrize("fn,reason", [
    (lambda x: ops.softmax(x, 0), "Softmax .* axis 0"),
    (lambda x: ops.reduce_sum(x, [0, 2], True), "ReduceSum"),
    (lambda x: ops.transpose(x, [1, 0, 2]), "moves the batch"),
    (lambda x: ops.mvn(x, [0, 1, 2], True, 1e-5, "inside_sqrt"), "MVN"),
    (lambda x: ops.gather(x, np.array([0, 0]), np.int64(0)), "Gather"),
    (lambda x: ops.cum_sum(x, np.int64(0)), "CumSum"),
    (lambda x: ops.einsum([x, x], "bij,cij->bc"), "Einsum"),
])
def test_ops_that_mix_the_batch_make_a_model_unbatchable(fn, reason):
    m = _model(fn)
    assert not m._is_batchable()
    with pytest.raises(ValueError, match=reason):
        m._with_batch(2)


def test_embeddings_and_attention_keep_the_batch():
    ids = ops.parameter([1, 6], np.int32, name="ids")
    table = ops.constant(np.random.default_rng(0).standard_normal((10, 8)).astype(np.float32))
    h = ops.gather(table, ids, np.int64(0))  # [B, 6, 8]
    q = ops.transpose(ops.reshape(h, [0, 0, 2, 4], True), [0, 2, 1, 3])
    att = ops.softmax(ops.matmul(q, q, False, True), -1)
    out = ops.mvn(ops.matmul(att, q, False, False), [-1], True, 1e-5, "inside_sqrt")
    m = Model([out], [ids])
    assert m._is_batchable()
    assert m._with_batch(4).outputs[0].get_shape() == [4, 2, 6, 4]


def test_shape_subgraphs_fold_and_follow_the_batch():
    """ShapeOf -> Gather -> Concat -> Reshape (how converted models flatten) folds to a
    constant that is recomputed for BATCH's batched copy, and costs nothing per inference."""
    m = build(CASES["shape_subgraph"], op_cases.make_inputs(CASES["shape_subgraph"]))
    assert m.outputs[0].get_shape() == [1, 60]
    costs = {c.type_name: c for c in m._cost(1)}
    assert costs["ShapeOf"].flops == costs["Gather"].bytes_read == costs["Concat"].flops == 0
    assert m._is_batchable()
    b = m._with_batch(5)
    assert b.outputs[0].get_shape() == [5, 60]
    x = np.random.default_rng(1).standard_normal((5, 3, 4, 5)).astype(np.float32)
    np.testing.assert_array_equal(b._evaluate({0: x})[0], x.reshape(5, 60))
    np.testing.assert_array_equal(m._evaluate({0: x[:1]})[0], x[:1].reshape(1, 60))


def test_every_op_describes_its_attributes():
    for name, op in REGISTRY.items():
        assert op.attrs is not None, name
        for a in op.attrs:
            assert a.kind in KINDS, (name, a)
            if a.default is not REQUIRED and a.default is not None:
                text = to_ir(a.kind, a.default)
                back = from_ir(a.kind, text)
                if a.kind == "type":
                    assert back == a.default
                elif a.kind in ("ints", "floats", "strs", "shape"):
                    assert list(back) == list(a.default)
                else:
                    assert back == a.default, (name, a)
            if a.choices:
                assert a.default is REQUIRED or a.default in a.choices, (name, a)


def test_attribute_strings_round_trip():
    assert to_ir("ints", [1, 2]) == "1, 2" and from_ir("ints", "1, 2") == [1, 2]
    assert from_ir("ints", "") == [] and to_ir("bool", True) == "true"
    assert from_ir("type", "i64") == Type.i64 and to_ir("type", Type.f16) == "f16"
    assert from_ir("float", "9.9999997473787516e-06") == pytest.approx(1e-5)
    with pytest.raises(ValueError):
        from_ir("bool", "maybe")


@pytest.mark.parametrize("build_bad,match", [
    (lambda x: ops.topk(x, 9, 1, "max", "value"), "k \\(9\\)"),
    (lambda x: ops.topk(x, 2, 1, "largest", "value"), "not a member of enum mode"),
    (lambda x: ops.gelu(x, "fast"), "not a member of enum approximation_mode"),
    (lambda x: ops.split(x, 1, 2), "evenly divisible"),
    (lambda x: ops.variadic_split(x, 1, [1, 1]), "Total length"),
    (lambda x: ops.gather(x, np.array([0]), np.int64(5)), "out of range"),
    (lambda x: ops.pad(x, [0, 0, 5], [0, 0, 0], "reflect"), "reflect padding"),
    (lambda x: ops.broadcast(x, [2, 4]), "smaller rank|Expecting|cannot be broadcasted"),
    (lambda x: ops.strided_slice(x, [0, 0], [1], [1], [0], [0]), "same number of values"),
    (lambda x: ops.interpolate(x, np.array([2], np.int64), "bicubic_pillow", "sizes",
                               axes=[1, 2]), "one value per axis"),
    (lambda x: ops.mvn(x, [3], True, 1e-5, "inside_sqrt"), "out of range"),
    (lambda x: ops.batch_norm_inference(x, np.ones(2, np.float32), np.ones(3, np.float32),
                                        np.ones(3, np.float32), np.ones(3, np.float32), 1e-5),
     "gamma"),
    (lambda x: ops.exp(ops.convert(x, "i32")), "floating-point"),
    (lambda x: ops.logical_and(x, x), "boolean"),
    (lambda x: ops.range(ops.constant(np.int64(0)), np.int64(5), np.int64(0), "i64"), "step"),
    (lambda x: ops.scatter_update(x, np.array([0]), np.ones((1, 2), np.float32), np.int64(0)),
     "updates must have shape"),
])
def test_new_builders_fail_at_build_time_naming_the_op(build_bad, match):
    x = ops.parameter([1, 3, 4], np.float32, name="x")
    with pytest.raises(NodeValidationError, match=match):
        build_bad(x)


def test_node_arithmetic_builds_opset_nodes():
    a, b = ops.parameter([2], np.float32), ops.parameter([2], np.float32)
    assert [(a + b).get_type_name(), (a - b).get_type_name(), (a * b).get_type_name(),
            (a / b).get_type_name()] == ["Add", "Subtract", "Multiply", "Divide"]
    r = a.__rsub__(np.float32(2.0))
    assert r.input_value(0).get_node().get_type_name() == "Constant" and r.input_value(1).get_node() is a
    assert a == a and a != b and len({a, b}) == 2  # nodes still compare by identity


def test_make_node_fills_defaults_and_rejects_unknown_attributes():
    from ovlab.sim.graph.ops import make_node
    x = ops.parameter([1, 3, 4], np.float32)
    n = make_node("TopK", [x, np.int64(2)], {"axis": 1, "mode": "MAX", "sort": "value"})
    assert n.get_attributes() == {"axis": 1, "mode": "max", "sort": "value",
                                  "index_element_type": "i32", "stable": False}
    with pytest.raises(TypeError, match="unknown attribute"):
        make_node("Relu", [x], {"alpha": 1})
    with pytest.raises(TypeError, match="missing attribute 'mode'"):
        make_node("TopK", [x, np.int64(2)], {"axis": 1, "sort": "value"})


def test_the_npu_knows_every_op_type_but_the_three_of_the_hetero_story():
    """A new op must be listed in the NPU catalogue (or the NPU would refuse it silently);
    LRN, Sigmoid and Clamp stay unsupported (the HETERO lab relies on them)."""
    from ovlab.sim.hardware.devices.npus import AI_BOOST_NPU, KNOWN_OPS, NPU_UNSUPPORTED
    assert set(REGISTRY) <= KNOWN_OPS
    assert NPU_UNSUPPORTED == {"LRN", "Sigmoid", "Clamp"}
    assert not any(AI_BOOST_NPU.supports(t) for t in NPU_UNSUPPORTED)
    assert all(AI_BOOST_NPU.supports(t) for t in ("Gather", "MVN", "Gelu", "Interpolate", "PRelu"))


def test_a_model_of_one_multi_output_node_has_all_its_outputs():
    """``Model(ops.split(x, 0, 5), [x])`` has 5 outputs in OpenVINO (a list of it has one)."""
    x = ops.parameter([5, 2], np.float32)
    assert len(Model(ops.split(x, 0, 5), [x]).outputs) == 5
    assert len(Model([ops.split(x, 0, 5)], [x]).outputs) == 1
    assert len(Model(ops.topk(x, 2, 0, "max", "value"), [x]).outputs) == 2


@pytest.mark.parametrize("mode,resample", [("bilinear_pillow", "BILINEAR"), ("bicubic_pillow", "BICUBIC")])
@pytest.mark.parametrize("size", [(3, 4), (8, 11)])
def test_interpolate_pillow_modes_resample_as_pillow(mode, resample, size):
    """The Pillow modes give what Pillow's own resize gives on a float image (down and up)."""
    from PIL import Image

    image = (np.arange(35, dtype=np.float32).reshape(5, 7) ** 1.5)
    x = ops.parameter([1, 1, 5, 7], np.float32, name="x")
    y = ops.interpolate(x, np.array(size, np.int64), mode, "sizes", axes=np.array([2, 3]))
    got = Model([y], [x])._evaluate([image[None, None]])[0][0, 0]
    want = np.asarray(Image.fromarray(image, "F").resize(size[::-1], getattr(Image, resample)))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
