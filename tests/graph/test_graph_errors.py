"""Shape inference and build-time errors: each bad input fails where it is built, with a
message that names the op and says what is wrong."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import ovlab as ov
import ovlab.opset13 as ops
from ovlab import opset
from ovlab.sim.graph import NodeValidationError, Type

P4 = (1, 3, 8, 8)


def p(shape=P4, dtype=np.float32, name="x"):
    return ops.parameter(list(shape), dtype, name=name)


W = np.ones((4, 3, 3, 3), np.float32)


@pytest.mark.parametrize("build,match", [
    (lambda: ops.convolution(p((1, 3)), W, [1, 1], [0, 0], [0, 0], [1, 1], name="c"),
     "rank 3 or more"),
    (lambda: ops.convolution(p(), np.ones((4, 3, 3), np.float32), [1, 1], [0, 0], [0, 0], [1, 1],
                             name="c"), "filters rank"),
    (lambda: ops.convolution(p(), np.ones((4, 2, 3, 3), np.float32), [1, 1], [0, 0], [0, 0],
                             [1, 1], name="c"), "channel count"),
    (lambda: ops.convolution(p(), W, [1], [0, 0], [0, 0], [1, 1], name="c"), "strides"),
    (lambda: ops.convolution(p(), W, [0, 1], [0, 0], [0, 0], [1, 1], name="c"), "positive"),
    (lambda: ops.convolution(p(), W, [1, 1], [0, 0], [0, 0], [1, 1], "bogus", name="c"),
     "auto_pad"),
    (lambda: ops.convolution(p((1, 3, 2, 2)), W, [1, 1], [0, 0], [0, 0], [1, 1], name="c"),
     "larger than the padded input"),
    (lambda: ops.convolution(p(), W.astype(np.float16), [1, 1], [0, 0], [0, 0], [1, 1],
                             name="c"), "Element types"),
    (lambda: ops.group_convolution(p(), W, [1, 1], [0, 0], [0, 0], [1, 1], name="c"),
     "filters rank"),
    (lambda: ops.max_pool(p(), [1, 1], [1, 1], [0, 0], [0, 0], [3, 3], "round", name="c"),
     "rounding_type"),
    (lambda: ops.max_pool(p(), [1, 1], [1, 1], [0, 0], [0, 0], [3, 3], axis=7, name="c"),
     "axis 7 is out of range"),
    (lambda: ops.avg_pool(p((3, 8)), [1], [0], [0], [2], False, name="c"), "rank 3 or more"),
    (lambda: ops.add(p((1, 4)), p((1, 3)), name="c"), "inconsistent"),
    (lambda: ops.add(p((1, 4)), np.ones(4), name="c"), "same element type"),
    (lambda: ops.add(p((1, 4)), p((4,)), "none", name="c"), "Argument shapes are inconsistent."),
    (lambda: ops.matmul(p((2, 3)), np.ones((4, 5), np.float32), False, False, name="c"),
     "Incompatible MatMul"),
    (lambda: ops.reshape(p(), [1, 100], False, name="c"), "incompatible"),
    (lambda: ops.reshape(p(), [-1, -1], False, name="c"), "at most one -1"),
    (lambda: ops.reshape(p(), p((2,), np.int64, "s"), False, name="c"), "must be a Constant"),
    (lambda: ops.transpose(p(), [0, 1, 1, 2], name="c"), "permutation"),
    (lambda: ops.concat([p(), p((1, 3, 8, 9))], 1, name="c"), "does not match"),
    (lambda: ops.softmax(p(), 4, name="c"), "out of range"),
    (lambda: ops.softmax(p(dtype=np.int32), 1, name="c"), "floating-point"),
    (lambda: ops.lrn(p(), np.array([5], np.int64), name="c"), "out of range"),
    (lambda: ops.clamp(p(), 2.0, 1.0, name="c"), "min_value"),
    (lambda: ops.fake_quantize(p(), np.zeros((2, 1, 1), np.float32), 1.0, 0.0, 1.0, 256,
                               name="c"), "same element type"),
    (lambda: ops.fake_quantize(p(), np.zeros((1, 2, 1, 1), np.float32), np.float32(1),
                               np.float32(0), np.float32(1), 256, name="c"), "broadcast"),
    (lambda: ops.fake_quantize(p(), np.float32(0), np.float32(1), np.float32(0),
                               np.float32(1), 1, name="c"), "levels"),
    # a static axis whose size is not 1 is kept, as OpenVINO 2026 does: only the range is checked
    (lambda: ops.squeeze(p(), [7], name="c"), "axis 7 is out of range"),
])
def test_bad_inputs_fail_at_build_time_naming_the_op(build, match):
    with pytest.raises(NodeValidationError, match=match) as e:
        build()
    assert "friendly_name 'c'" in str(e.value)
    assert isinstance(e.value, RuntimeError) and isinstance(e.value, ValueError)


def test_bad_argument_types():
    with pytest.raises(TypeError, match="convolution: strides"):
        ops.convolution(p(), W, 1, [0, 0], [0, 0], [1, 1])
    with pytest.raises(TypeError, match="element type"):
        ops.parameter([1], "complex")
    # a dynamic dimension builds (tests/graph/test_dynamic_shapes.py), and does not compile
    x = ops.parameter([-1, 3], name="x")
    model = ov.Model([ops.relu(x)], [x], "dyn")
    with pytest.raises(RuntimeError, match="ovlab models are static: input 'x' has the dynamic "
                                           r"shape \[\?,3\]"):
        ov.Core().compile_model(model, "CPU")


def test_shape_inference():
    x = p((2, 3, 224, 224))
    assert ops.convolution(x, np.ones((64, 3, 7, 7), np.float32), [2, 2], [3, 3], [3, 3],
                           [1, 1]).get_output_shape(0) == [2, 64, 112, 112]
    c = ops.max_pool(p((1, 64, 112, 112)), [2, 2], [1, 1], [0, 0], [0, 0], [3, 3], "ceil")
    assert c.get_output_shape(0) == [1, 64, 56, 56] == c.get_output_shape(1)
    f = ops.max_pool(p((1, 64, 112, 112)), [2, 2], [1, 1], [0, 0], [0, 0], [3, 3], "floor")
    assert f.get_output_shape(0) == [1, 64, 55, 55]
    assert ops.avg_pool(p((1, 8, 7, 7)), [1, 1], [0, 0], [0, 0], [7, 7], False) \
        .get_output_shape(0) == [1, 8, 1, 1]
    g = ops.group_convolution(p((1, 8, 9, 9)), np.ones((4, 2, 2, 3, 3), np.float32), [2, 2],
                              [0, 0], [0, 0], [1, 1], "SAME_UPPER")
    assert g.get_output_shape(0) == [1, 8, 5, 5]
    assert ops.matmul(p((5, 2, 3)), np.ones((7, 3), np.float32), False, True) \
        .get_output_shape(0) == [5, 2, 7]
    assert ops.reshape(p(), [0, -1], True).get_output_shape(0) == [1, 192]
    assert ops.add(p((1, 3, 1, 8)), np.ones((4, 1), np.float32)).get_output_shape(0) == [1, 3, 4, 8]
    assert ops.convert(p(), "f16").get_output_element_type(0) == Type.f16
    assert ops.reduce_mean(p(), [2, 3], True).get_output_shape(0) == [1, 3, 1, 1]
    assert ops.concat([p(), p()], -3).get_output_shape(0) == [1, 6, 8, 8]


def test_auto_constants_follow_numpy_types():
    add = ops.add(p((1, 2), np.float64), 1.0)
    assert add.input_value(1).get_element_type() == Type.f64
    c = ops.constant(3)
    assert c.get_element_type() == Type.i64 and c.get_output_shape(0) == []
    assert ops.constant([1.5], np.float16).get_element_type() == Type.f16
    named = ops.lrn(p(), np.array([1], np.int64), name="norm")
    assert named.input_value(1).get_node().get_friendly_name().startswith("norm/Constant_")


def test_builders_have_openvino_signatures():
    ov_ops = pytest.importorskip("openvino.opset13")
    for name in opset.__all__:
        ours = inspect.signature(getattr(opset, name))
        if name == "read_value":  # a multimethod: (init_value, variable_id, type, shape, name),
            # and (init_value, ov_variable, name)
            assert list(ours.parameters) == ["init_value", "variable_id", "variable_type",
                                             "variable_shape", "name", "ov_variable"]
            continue
        if name == "assign":  # op.assign, a class: (new_value, variable_id, name)
            assert list(ours.parameters) == ["new_value", "variable_id", "name"]
            continue
        theirs = inspect.signature(getattr(ov_ops, name))
        if name == "constant":  # openvino's is a multimethod: its two forms, (value, dtype,
            # name, shared_memory) and (tensor, shared_memory), in one signature
            assert list(ours.parameters) == ["value", "dtype", "name", "shared_memory", "tensor"]
            continue
        assert list(ours.parameters) == list(theirs.parameters), name
        for k, v in ours.parameters.items():
            assert v.default == theirs.parameters[k].default or (
                v.default is None and theirs.parameters[k].default is None), (name, k)
