"""The Model/Node/port API: names, order, rt_info, inputs/outputs, reshape, clone, errors."""

from __future__ import annotations

import copy
import re

import graph_builders as gb
import numpy as np
import pytest

import ovlab
import ovlab.opset13 as ops
from ovlab.sim.graph import Model, NodeValidationError, Output, PartialShape, Shape, Type


@pytest.fixture
def conv_net():
    return gb.conv_net(*gb.ovlab_api())


@pytest.fixture
def batchable():
    x = ops.parameter([1, 3, 8, 8], np.float32, name="data")
    c = ops.convolution(x, np.ones((4, 3, 3, 3), np.float32), [1, 1], [1, 1], [1, 1], [1, 1],
                        name="conv")
    flat = ops.reshape(ops.relu(c, name="relu"), [0, -1], True, name="flatten")
    fc = ops.matmul(flat, np.ones((256, 5), np.float32), False, False, name="fc")
    return Model([ops.result(ops.softmax(fc, 1, name="prob"), name="out")], [x], "batchable")


def test_types_print_like_openvino():
    assert repr(Type.f32) == "<Type: 'float32'>" and str(Type.f16) == "<Type: 'float16'>"
    assert Type.f32.get_type_name() == "f32" and Type.f32.to_dtype() == np.float32
    assert Type(np.float32) is Type.f32 and Type.f32 == Type.f32 and Type.f32 != Type.f16
    assert {Type.i64, Type.i64} == {Type.i64}
    for name in ("f32", "f16", "bf16", "i64", "i32", "i8", "u8", "boolean"):
        assert getattr(Type, name).get_type_name() == name
    assert Type.boolean.to_dtype() == np.bool_ and Type.u8.size == 1
    assert copy.deepcopy(Type.f32) is Type.f32
    with pytest.raises(RuntimeError, match="Unsupported data type: complex64"):  # the wheel's
        Type(np.complex64)


def test_shapes_print_like_openvino():
    s = Shape([1, 3, 224, 224])
    assert str(s) == "[1,3,224,224]" and repr(s) == "<Shape: [1,3,224,224]>"
    assert s == [1, 3, 224, 224] and list(s) == [1, 3, 224, 224] and s[1] == 3
    ps = PartialShape([1, 3])
    assert str(ps) == "[1,3]" and ps.is_static and not ps.is_dynamic and ps.to_shape() == [1, 3]
    assert ps[0] == 1 and ps[0].get_length() == 1 and len(ps) == 2 and ps == [1, 3]
    dynamic = PartialShape([-1, 3])  # builds (issue 36), does not compile
    assert str(dynamic) == "[?,3]" and dynamic.is_dynamic and not dynamic[0].is_static
    assert str(ops.parameter(dynamic).get_output_partial_shape(0)) == "[?,3]"


def test_ops_in_topological_order(conv_net):
    order = conv_net.get_ordered_ops()
    assert order == conv_net.get_ops()
    assert [o.get_type_name() for o in order] == [
        "Parameter", "Constant", "Convolution", "Relu", "MaxPool", "Constant", "Reshape",
        "Constant", "MatMul", "Softmax", "Result"]
    pos = {id(n): i for i, n in enumerate(order)}
    for n in order:
        assert all(pos[id(s.get_node())] < pos[id(n)] for s in n.input_values())


def test_names(conv_net):
    assert conv_net.friendly_name == conv_net.get_friendly_name() == "tiny_convnet"
    assert re.fullmatch(r"Model\d+", conv_net.get_name())
    conv = conv_net.get_ops()[2]
    assert conv.get_friendly_name() == conv.friendly_name == "conv1"
    assert re.fullmatch(r"Convolution_\d+", conv.get_name())
    names = [o.get_name() for o in conv_net.get_ops()]
    assert len(set(names)) == len(names)
    relu = ops.relu(ops.parameter([2]))
    assert relu.get_friendly_name() == relu.get_name()
    relu.friendly_name = "r"
    assert relu.get_friendly_name() == "r"
    relu.set_friendly_name("r2")
    assert relu.get_friendly_name() == "r2" and relu.get_type_name() == "Relu"
    assert relu.get_type_info().version_id == "opset1"
    assert repr(conv) == "<Convolution: 'conv1' ([1,8,32,32])>"
    unnamed = Model([relu], [relu.input_value(0).get_node()])
    assert unnamed.friendly_name == unnamed.get_name()


def test_ports(conv_net):
    inp, out = conv_net.inputs[0], conv_net.outputs[0]
    assert inp.get_any_name() == inp.any_name == "input" and inp.get_names() == {"input"}
    assert out.get_any_name() == "output" and out.names == {"output"}
    assert str(inp.get_shape()) == "[1,3,32,32]" and inp.shape == [1, 3, 32, 32]
    assert inp.get_partial_shape() == PartialShape([1, 3, 32, 32])
    assert inp.get_element_type() == inp.element_type == Type.f32
    assert inp.get_index() == inp.index == 0 and inp.get_node().get_type_name() == "Parameter"
    assert conv_net.input() == inp == conv_net.input(0) == conv_net.input("input")
    assert conv_net.output("output") == out
    assert repr(inp) == "<Output: names[input] shape[1,3,32,32] type: f32>"
    with pytest.raises(RuntimeError, match="not found"):
        conv_net.output("nope")
    pool = conv_net.get_ops()[4]
    assert pool.get_output_size() == 2 and pool.get_output_element_type(1) == Type.i64
    targets = pool.output(0).get_target_inputs()
    assert [t.get_node().get_friendly_name() for t in targets] == ["flatten"]
    assert pool.output(1).get_target_inputs() == set()
    conv = conv_net.get_ops()[2]
    assert conv.get_input_size() == 2 and conv.input_value(0) == inp
    assert conv.inputs()[1].get_source_output().get_node().get_friendly_name() == "conv_w"
    assert isinstance(conv.output(0), Output) and conv.get_output_shape(0) == [1, 8, 32, 32]
    with pytest.raises(RuntimeError, match="without names"):
        conv.output(0).get_any_name()
    assert conv_net.get_parameters()[0].get_partial_shape() == [1, 3, 32, 32]
    assert conv_net.get_results()[0].get_friendly_name() == "output"
    assert "inputs[" in repr(conv_net) and "<ConstOutput: names[output]" in repr(conv_net)


def test_unnamed_tensors_get_names_when_the_model_is_built():
    p = ops.parameter([1, 2])
    m = Model([ops.relu(p)], [p])
    assert m.inputs[0].get_names() == {p.get_friendly_name()}
    res = m.get_results()[0]
    assert m.outputs[0].get_any_name() == res.get_friendly_name()
    assert re.fullmatch(r"Result_\d+", res.get_friendly_name())


def test_rt_info_is_a_plain_dict_kept_on_the_node(conv_net):
    for op in conv_net.get_ops():
        op.get_rt_info()["affinity"] = "CPU"
    assert all(o.get_rt_info()["affinity"] == "CPU" for o in conv_net.get_ops())
    assert type(conv_net.get_ops()[3].get_rt_info()) is dict
    clone = conv_net.clone()
    assert [o.get_rt_info() for o in clone.get_ops()] == [o.get_rt_info() for o in conv_net.get_ops()]
    clone.get_ops()[3].get_rt_info()["affinity"] = "GPU"
    assert conv_net.get_ops()[3].get_rt_info()["affinity"] == "CPU"
    conv_net.get_rt_info()["k"] = 1
    assert conv_net.get_rt_info("k") == 1


def test_clone_is_independent(batchable, rng):
    clone = batchable.clone()
    assert [o.get_friendly_name() for o in clone.get_ops()] == \
        [o.get_friendly_name() for o in batchable.get_ops()]
    assert not {o.get_name() for o in clone.get_ops()} & {o.get_name() for o in batchable.get_ops()}
    assert clone.friendly_name == batchable.friendly_name
    assert clone.inputs[0].get_names() == {"data"} and clone.outputs[0].get_names() == {"out"}
    clone.reshape([3, 3, 8, 8])
    assert batchable.inputs[0].shape == [1, 3, 8, 8] and clone.outputs[0].shape == [3, 5]
    x = rng.standard_normal((1, 3, 8, 8)).astype(np.float32)
    np.testing.assert_array_equal(batchable.clone()._evaluate({0: x})[0],
                                  batchable._evaluate({0: x})[0])
    assert copy.deepcopy(batchable).get_ops()[0] is not batchable.get_ops()[0]


def test_reshape(batchable, rng):
    batchable.reshape([4, 3, 8, 8])
    assert batchable.inputs[0].shape == [4, 3, 8, 8] and batchable.outputs[0].shape == [4, 5]
    assert batchable.get_ops()[2].get_output_shape(0) == [4, 4, 8, 8]
    batchable.reshape({"data": PartialShape([2, 3, 8, 8])})
    assert batchable.outputs[0].shape == [2, 5]
    batchable.reshape({0: (1, 3, 8, 8)})
    batchable.reshape({batchable.inputs[0]: "[5,3,8,8]"})
    x = rng.standard_normal((5, 3, 8, 8)).astype(np.float32)
    assert batchable._evaluate({0: x})[0].shape == (5, 5)
    assert not batchable.is_dynamic()


def test_failed_reshape_names_the_op_and_restores_shapes(conv_net):
    with pytest.raises(RuntimeError, match="flatten") as e:
        conv_net.reshape([2, 3, 32, 32])
    assert isinstance(e.value, NodeValidationError) and "incompatible" in str(e.value)
    assert conv_net.inputs[0].shape == [1, 3, 32, 32] and conv_net.outputs[0].shape == [1, 10]
    conv_net.reshape([-1, 3, 32, 32])  # a dynamic batch builds, as in OpenVINO
    # the flatten's target is the constant [1,2048], so the output is [1,10] (as on the wheel)
    assert str(conv_net.get_ops()[2].get_output_partial_shape(0)) == "[?,8,32,32]"
    assert str(conv_net.outputs[0].partial_shape) == "[1,10]" and conv_net.is_dynamic()
    with pytest.raises(RuntimeError, match="ovlab models are static: input"):
        ovlab.Core().compile_model(conv_net, "CPU")
    conv_net.reshape([1, 3, 32, 32])
    assert conv_net.outputs[0].shape == [1, 10] and not conv_net.is_dynamic()


def test_model_construction_errors():
    a, b = ops.parameter([1, 2], name="a"), ops.parameter([1, 2], name="b")
    r = ops.relu(a)
    with pytest.raises(NodeValidationError, match="undeclared parameter 'a'"):
        Model([ops.add(a, b)], [b])
    with pytest.raises(NodeValidationError, match="'b' is not connected"):
        Model([r], [a, b])
    # a result of constants only is a model, as in OpenVINO (ConstantFolding leaves them)
    assert len(Model([r, ops.relu(np.ones(2, np.float32))], [a]).outputs) == 2
    with pytest.raises(TypeError, match="Parameter"):
        Model([r], [r])
    with pytest.raises(NodeValidationError, match="at least one result"):
        Model([], [a])
    with pytest.raises(RuntimeError, match="exactly one"):
        Model([ops.add(a, b)], [a, b]).input()


def test_cycles_are_reported():
    p = ops.parameter([2], name="p")
    first = ops.relu(p, name="first")
    second = ops.relu(first, name="second")
    first._inputs[0] = second.output(0)  # only possible by poking at internals
    with pytest.raises(NodeValidationError, match="cycle"):
        Model([second], [p])


def test_single_node_and_output_results(rng):
    p = ops.parameter([1, 3], name="x")
    pool_in = ops.parameter([1, 1, 4, 4], name="img")
    pool = ops.max_pool(pool_in, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2])
    m = Model(ops.relu(p), [p])
    assert len(m.outputs) == 1
    m2 = Model([pool.output(0), pool.output(1)], [pool_in])
    assert [o.get_element_type() for o in m2.outputs] == [Type.f32, Type.i64]
    x = rng.standard_normal((1, 1, 4, 4)).astype(np.float32)
    vals, idx = m2._evaluate([x])
    assert vals.shape == idx.shape == (1, 1, 2, 2)
    with pytest.raises(ValueError, match="expects \\[1,1,4,4\\]"):
        m2._evaluate({0: np.zeros((1, 4, 4), np.float32)})
    with pytest.raises(ValueError, match="Missing input"):
        m2._evaluate({})
