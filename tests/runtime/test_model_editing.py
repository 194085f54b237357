"""The Model editing API of the wheel that OpenVINO's test_model.py exercises: outputs added by
tensor name, (op name, port) or port; lists of results/parameters/sinks edited; a parameter
replaced; evaluate(); reshape with variable shapes; ports' Input/TensorDescriptor accessors."""

from __future__ import annotations

import numpy as np
import pytest

from ovlab import Model, PartialShape, Tensor, Type
from ovlab import opset13 as ops
from ovlab.sim.graph.rt_map import RTMap


def _chain():
    param = ops.parameter([1], np.float32, name="data")
    relu1 = ops.relu(param, name="relu1")
    relu1.get_output_tensor(0).set_names({"relu_t1"})
    return param, relu1, Model(ops.relu(relu1, name="relu2"), [param], "m")


@pytest.mark.parametrize("key", ["relu_t1", ("relu1", 0)])
def test_add_outputs_by_name_or_op_port(key):
    _, relu1, model = _chain()
    added = model.add_outputs(key)
    assert len(model.results) == 2 and "relu_t1" in model.outputs[1].get_tensor().names
    assert added[0].get_node().get_instance_id() == model.outputs[1].get_node().get_instance_id()
    model.add_outputs(relu1.output(0))
    assert len(model.results) == 2  # already an output


@pytest.mark.parametrize(("key", "error", "text"), [
    ("nope", RuntimeError, "Tensor name 'nope' was not found"),
    (("relu1", 7), RuntimeError, "Cannot add output to port 7 operation relu1 has only 1"),
    (("x", 0), RuntimeError, "Operation with name 'x' was not found"),
    (0, TypeError, "Incorrect type of a value to add as output."),
    ([0], TypeError, "Incorrect type of a value to add as output at index 0."),
])
def test_add_outputs_errors(key, error, text):
    with pytest.raises(error, match=text.replace("(", r"\(").replace(".", r"\.")):
        _chain()[2].add_outputs(key)


def test_replace_parameter_then_validation_fails_on_the_new_shape():
    a, b = ops.parameter([2, 1], np.float32), ops.parameter([2, 1], np.float32)
    model = Model(ops.add(a, b), [a, b])
    model.replace_parameter(0, ops.parameter([3, 7], np.float32))
    with pytest.raises(RuntimeError, match="Argument shapes are inconsistent"):
        model.validate_nodes_and_infer_types()
    with pytest.raises(RuntimeError, match="Tried to replace parameter at index 5"):
        model.replace_parameter(5, a)


def test_evaluate_into_tensors():
    a, b = ops.parameter([2, 1], np.float32), ops.parameter([2, 1], np.float32)
    model = Model(ops.add(a, b), [a, b])
    out = Tensor("float32", [1])
    assert model.evaluate([out], [Tensor(np.ones((2, 1), np.float32))] * 2)
    assert out.shape == [2, 1] and out.data.tolist() == [[2.0], [2.0]]
    with pytest.raises(RuntimeError, match="Cannot evaluate model!"):
        model.evaluate([out], [Tensor(Type.f32, [3, 1])] * 2)


def test_result_and_sink_lists():
    param, relu1, model = _chain()
    extra = ops.result(relu1)
    model.add_results([extra])
    assert len(model.get_results()) == 2
    model.remove_result(extra)
    assert len(model.results) == 1
    assert model.get_sink_index(relu1) == -1
    with pytest.raises(TypeError, match="Sink node is expected"):
        model.get_sink_index(0)
    assert model._get_raw_address() == id(model) and not model.dynamic


def test_reshape_with_variable_shapes():
    p1, p2 = ops.parameter([1, 5], np.float32, name="d1"), ops.parameter([1, 5], np.float32)
    model = Model(ops.add(ops.read_value(p1, "v", np.float32, [1, 5]), p2), [p1, p2])
    model.reshape({0: [1, 4], 1: [1, 4]}, {"v": [1, 4]})
    assert all(i.partial_shape == PartialShape([1, 4]) for i in model.inputs)
    shape = model.input(0).partial_shape
    shape[0] = 3
    assert shape == PartialShape([3, 4])


def test_input_port_accessors():
    param = ops.parameter([1, 4], Type.i64)
    other = ops.parameter([1, 4], Type.i64)
    other.output(0).get_tensor().set_names({"c"})
    relu = ops.relu(param)
    assert relu.input(0).get_tensor().get_names() == param.output(0).get_tensor().get_names()
    assert isinstance(relu.input(0).get_rt_info(), RTMap)
    relu.input(0).replace_source_output(other.output(0))
    assert relu.input(0).get_source_output().get_node() is other
    assert other.output(0).get_tensor().get_names() == {"c"}
    td = relu.get_output_tensor(0)
    assert td.element_type == Type.i64 and td.size == 32 and repr(td.shape) == "<Shape: [1,4]>"


def test_variables_of_a_stateful_model():
    from ovlab.op.util import Variable, VariableInfo

    param = ops.parameter([2, 1], np.float32)
    read = ops.read_value(param, "v0", np.float32, [2, 1])
    model = Model([ops.result(ops.add(read, param))], [ops.assign(read, "v0")], [param])
    assert [v.info.variable_id for v in model.get_variables()] == ["v0"]
    info = VariableInfo()
    info.data_shape, info.data_type, info.variable_id = PartialShape([2, 1]), Type.f32, "v1"
    extra = Variable(info)
    assert ops.read_value(extra).get_output_partial_shape(0) == PartialShape([2, 1])
    model.add_variables([extra])
    assert model.get_variable_by_id("v1") is extra and len(model.get_variables()) == 2
    model.remove_variable(extra)
    assert len(model.get_variables()) == 1
    empty = ops.assign()  # not connected yet, as the wheel allows
    model.add_sinks([empty])
    assert model.get_sink_index(empty) == 1


def test_copy_refused_deepcopy_clones():
    import copy

    model = _chain()[2]
    with pytest.raises(TypeError, match="Cannot copy 'openvino.Model'. Please, use deepcopy"):
        copy.copy(model)
    assert copy.deepcopy(model) is not model
