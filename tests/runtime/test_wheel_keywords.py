"""The wheel's keyword names and overloads, and its copy handles (issue 23).

Each call here is the form that real OpenVINO code writes with a keyword: the effect is checked,
not only that the call binds (the surface walk in tests/runner checks every signature)."""

import numpy as np
import pytest

import ovlab
import ovlab.opset as ops
import ovlab.properties as props
from ovlab.properties import hint


@pytest.fixture
def compiled():
    a = ops.parameter([2, 3], np.float32, name="a")
    b = ops.parameter([2, 3], np.float32, name="b")
    model = ovlab.Model([ops.add(a, b)], [a, b], "two_inputs")
    return ovlab.Core("cpu").compile_model(model, "CPU")


def _ones(value: float, shape=(2, 3)) -> ovlab.Tensor:
    return ovlab.Tensor(np.full(shape, value, np.float32))


def test_get_and_set_tensor_by_name_or_port_keyword(compiled):
    req = compiled.create_infer_request()
    req.set_tensor(name="a", tensor=_ones(1))
    req.set_tensor(port=compiled.input(1), tensor=_ones(2))
    req.infer()
    assert req.get_tensor(port=compiled.output(0)).data[0, 0] == 3
    assert req.get_tensor(name="a").data[0, 0] == 1
    with pytest.raises(TypeError, match="give one of name, port"):
        req.get_tensor(name="a", port=compiled.input(0))


def test_set_tensors_and_set_input_tensors_keywords(compiled):
    req = compiled.create_infer_request()
    req.set_tensors(inputs={"a": _ones(4), "b": _ones(5)})
    req.infer()
    assert req.get_output_tensor().data[0, 0] == 9
    # a batch of one-item tensors for one input, by tensor name, by port or by index
    req.set_tensors(tensor_name="a", tensors=[_ones(1, (1, 3)), _ones(2, (1, 3))])
    req.set_tensors(port=compiled.input(1), tensors=[_ones(10, (1, 3)), _ones(20, (1, 3))])
    req.infer()
    assert req.get_output_tensor().data[:, 0].tolist() == [11, 22]
    req.set_input_tensors(idx=0, tensors=[_ones(3, (1, 3)), _ones(4, (1, 3))])
    req.infer()
    assert req.get_output_tensor().data[:, 0].tolist() == [13, 24]
    req.set_input_tensors(inputs={0: _ones(0), 1: _ones(1)})
    req.infer()
    assert req.get_output_tensor().data[0, 0] == 1


def test_set_output_tensors_keyword(compiled):
    req = compiled.create_infer_request()
    out = _ones(0)
    req.set_output_tensors(outputs={0: out})
    req.infer({"a": _ones(1).data, "b": _ones(1).data})
    assert out.data[0, 0] == 2


def test_userdata_is_the_callbacks_and_read_only(compiled):
    req = compiled.create_infer_request()
    assert req.userdata is None
    req.set_callback(lambda userdata: None, {"id": 3})
    assert req.userdata == {"id": 3}
    with pytest.raises(AttributeError):
        req.userdata = 4


def test_infer_request_copy_is_the_same_request(compiled):
    """``InferRequest(other)`` shares the request, as the wheel's copy does (measured on
    2026.4.1: same tensor memory, same userdata and latency)."""
    req = compiled.create_infer_request()
    twin = ovlab.InferRequest(req)
    req.set_callback(lambda userdata: None, "u")
    req.infer({"a": _ones(1).data, "b": _ones(2).data})
    assert twin.userdata == "u" and twin.latency == req.latency
    assert np.shares_memory(twin.get_tensor("a").data, req.get_tensor("a").data)
    assert twin.get_output_tensor().data[0, 0] == 3
    with pytest.raises(TypeError, match="incompatible constructor arguments"):
        ovlab.InferRequest(compiled)


def test_compiled_model_copy_shares_the_compiled_model(compiled):
    twin = ovlab.CompiledModel(compiled)
    assert twin.inputs == compiled.inputs
    assert twin({"a": _ones(1).data, "b": _ones(1).data})[0][0, 0] == 2
    # requests are numbered across handles, and the model lives while a handle does
    first = compiled.create_infer_request()
    second = twin.create_infer_request()
    assert first._index + 1 == second._index
    del twin, second
    assert not compiled._shared.released
    assert compiled.create_infer_request().infer(
        {"a": _ones(1).data, "b": _ones(0).data})[0][0, 0] == 1
    with pytest.raises(TypeError, match="incompatible constructor arguments"):
        ovlab.CompiledModel(first)


def test_compiled_model_set_property_keywords():
    a = ops.parameter([1, 3], np.float32, name="a")
    model = ovlab.Model([ops.relu(a)], [a])
    compiled = ovlab.Core("cpu").compile_model(model, "BATCH:CPU(2)")
    compiled.set_property(properties={"AUTO_BATCH_TIMEOUT": 100})
    assert compiled.get_property("AUTO_BATCH_TIMEOUT") == 100
    compiled.set_property(property=("AUTO_BATCH_TIMEOUT", 7))
    assert compiled.get_property("AUTO_BATCH_TIMEOUT") == 7


def test_core_property_keywords(tmp_path):
    core = ovlab.Core("cpu")
    core.set_property(device_name="CPU", property=(hint.performance_mode,
                                                   hint.PerformanceMode.THROUGHPUT))
    assert core.get_property(device_name="CPU", property=hint.performance_mode) == \
        hint.PerformanceMode.THROUGHPUT
    core.set_property(device_name="CPU", properties={"PERFORMANCE_HINT": "LATENCY"})
    assert core.get_property(device_name="CPU", name="PERFORMANCE_HINT", arguments={}) == \
        hint.PerformanceMode.LATENCY
    core.set_property(properties={props.cache_dir: str(tmp_path)})
    assert core.get_property(property=props.cache_dir) == str(tmp_path)
    core.set_property(property=(props.cache_dir, str(tmp_path / "b")))
    assert core.get_property(props.cache_dir) == str(tmp_path / "b")


def test_core_register_plugin_and_add_extension_keywords():
    core = ovlab.Core("cpu")
    core.register_plugin(plugin="openvino_my_plugin", device_name="MY")
    with pytest.raises(RuntimeError, match="libopenvino_my_plugin.so"):
        x = ops.parameter([1], np.float32)
        core.compile_model(ovlab.Model([ops.relu(x)], [x]), "MY")
    core.add_extension(extensions=[ovlab.Extension()])
    with pytest.raises(RuntimeError, match="custom-op extension libraries are not simulated"):
        core.add_extension(library_path="libcustom.so")
    with pytest.raises(NotImplementedError, match="custom Python ops are not simulated"):
        core.add_extension(custom_op=object)


def test_profiling_info_built_by_hand():
    """``ProfilingInfo()`` is an empty row to fill, as in the wheel (measured on 2026.4.1)."""
    import datetime

    row = ovlab.ProfilingInfo()
    assert (row.node_name, row.real_time, row.status) == ("", datetime.timedelta(0),
                                                         ovlab.ProfilingInfo.Status.NOT_RUN)
    row.node_name, row.status = "conv", ovlab.ProfilingInfo.Status.EXECUTED
    row.real_time = datetime.timedelta(microseconds=5)
    assert (row.node_name, row.real_time.microseconds) == ("conv", 5)
