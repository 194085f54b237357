"""The API surface issue 11 adds, openvino vs ovlab: element types, properties (every module,
key, enum and value type), layouts, OVAny, ports with tensor names, export/import, output
tensors, Tensor helpers, plugin registration, and the errors of bad arguments.

Each test runs the same code on the real wheel and on ovlab and compares what comes back."""

from __future__ import annotations

import inspect
import io
import types

import numpy as np
import pytest
from conformance_harness import (
    LAB,
    MLP_X,
    REAL,
    api_line,
    assert_same_error,
    attempt,
    meaningful_line,
)

import ovlab

TYPE_NAMES = ["bf16", "boolean", "f16", "f32", "f4e2m1", "f64", "f8e4m3", "f8e5m2", "f8e8m0",
              "i16", "i32", "i4", "i64", "i8", "nf4", "string", "u1", "u16", "u2", "u3", "u32",
              "u4", "u6", "u64", "u8"]


def _resolve(mod, path):
    """``mod.properties.<path>``, importing submodules the real package loads lazily."""
    import importlib

    obj = mod.properties
    for part in path.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            obj = importlib.import_module(f"{obj.__name__}.{part}")
    return obj


# --- element types ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", TYPE_NAMES + ["dynamic"])
def test_every_element_type(name):
    real, lab = getattr(REAL.mod.Type, name), getattr(LAB.mod.Type, name)
    assert repr(lab) == repr(real)
    assert lab.get_type_name() == real.get_type_name()
    assert (lab.size, lab.bitwidth) == (real.size, real.bitwidth)
    assert (lab.is_real(), lab.is_integral(), lab.is_signed(), lab.is_quantized()) == \
        (real.is_real(), real.is_integral(), real.is_signed(), real.is_quantized())
    if name != "dynamic":
        assert lab.to_dtype() == real.to_dtype()


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64, np.int8, np.int16,
                                   np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
                                   np.bool_, str, float, int])
def test_type_from_numpy_and_python_types(dtype):
    assert repr(LAB.mod.Type(dtype)) == repr(REAL.mod.Type(dtype))


# --- properties --------------------------------------------------------------------------------
def _property_tree(module, prefix=""):
    """{dotted name: key or enum members} of a properties module, recursively."""
    out = {}
    for name in dir(module):
        if name.startswith("_"):
            continue
        value = getattr(module, name)
        if isinstance(value, types.ModuleType):
            out.update(_property_tree(value, f"{prefix}{name}."))
        elif inspect.isclass(value) and hasattr(value, "__members__"):
            out[prefix + name] = {k: int(v) for k, v in value.__members__.items()}
        elif isinstance(value, str) and callable(value):
            out[prefix + name] = str(value)
    return out


def test_every_property_and_enum_of_the_wheel_exists_with_its_key():
    import openvino.properties as real_props

    real, lab = _property_tree(real_props), _property_tree(ovlab.properties)
    missing = sorted(set(real) - set(lab))
    assert not missing, f"ovlab lacks {missing}"
    different = {k: (real[k], lab[k]) for k in real if real[k] != lab[k]}
    assert not different


@pytest.mark.parametrize(("path", "value"), [
    ("enable_profiling", 1), ("enable_profiling", False), ("auto_batch_timeout", np.uint32(37)),
    ("inference_num_threads", -8), ("cache_dir", "./c"), ("hint.num_requests", 8),
    ("intel_cpu.sparse_weights_decompression_rate", 0.1), ("streams.num", 4),
    ("intel_auto.enable_startup_fallback", 0), ("device.id", "0"),
    ("hint.enable_cpu_pinning", True), ("hint.activations_scale_factor", 0.5),
])
def test_property_values_are_converted_alike(path, value):
    def call(mod):
        key, held = _resolve(mod, path)(value)
        return key, held.value, type(held.value).__name__

    assert call(LAB.mod) == call(REAL.mod)


@pytest.mark.parametrize(("path", "args"), [
    ("supported_properties", ("x",)), ("cache_dir", (6,)), ("enable_profiling", ("YES",)),
    ("device.full_name", ("x",)), ("intel_npu.max_tiles", (128,)),
])
def test_wrong_property_values_raise_the_same_type_error(path, args):
    def call(mod):
        prop = _resolve(mod, path)
        return attempt(lambda: prop(*args))

    real, lab = call(REAL.mod), call(LAB.mod)
    assert real.exc_type is lab.exc_type is TypeError
    assert lab.message.splitlines()[0] == real.message.splitlines()[0]


def test_enums_print_and_count_alike():
    for path in ("hint.Priority", "hint.PerformanceMode", "log.Level", "CacheMode",
                 "WorkloadType", "intel_auto.SchedulePolicy", "device.Type"):
        def get(mod, path=path):
            return [(name, str(m), int(m)) for name, m in _resolve(mod, path).__members__.items()]
        assert get(LAB.mod) == get(REAL.mod)
    assert str(_resolve(LAB.mod, "intel_gpu.hint.ThrottleLevel").LOW) == \
        str(_resolve(REAL.mod, "intel_gpu.hint.ThrottleLevel").LOW)


def test_priorities_and_streams_helpers():
    for mod in (REAL.mod, LAB.mod):
        p = mod.properties
        assert p.device.priorities("CPU", "GPU") == ("MULTI_DEVICE_PRIORITIES",
                                                      mod.OVAny("CPU,GPU,"))
        assert p.streams.Num(2).to_integer() == 2 and p.streams.Num.AUTO.to_integer() == -1
        with pytest.raises(TypeError, match="Incorrect passed value: 6 , expected string"):
            p.device.priorities("CPU", 6)


# --- layouts and ports ------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["NCHW", "N...", "[N,C,H,W]", "NC?", "...C", ""])
def test_layout(text):
    real, lab = REAL.mod.Layout(text), LAB.mod.Layout(text)
    assert lab.to_string() == real.to_string() and repr(lab) == repr(real)
    for name in "NCHW":
        assert lab.has_name(name) == real.has_name(name)
        if real.has_name(name):
            assert lab.get_index_by_name(name) == real.get_index_by_name(name)
    helpers = [n for n in dir(REAL.mod.layout_helpers) if n.endswith("_idx") or
               n.startswith("has_")]
    for name in helpers:
        r = attempt(lambda name=name: getattr(REAL.mod.layout_helpers, name)(real))
        o = attempt(lambda name=name: getattr(LAB.mod.layout_helpers, name)(lab))
        assert (o.raised, o.value) == (r.raised, r.value), name


def test_port_tensor_names_and_const_outputs(rt):
    p = rt.ops.parameter([1, 4], np.float32, name="data")
    res = rt.ops.result(rt.ops.relu(p), name="res")
    res.output(0).get_tensor().set_names({"out", "probs"})
    model = rt.Model([res], [p], "names")
    assert model.output(0).get_names() == {"out", "probs"}
    assert model.output(0).get_tensor().get_names() == {"out", "probs"}
    compiled = rt.new_core().compile_model(model, "CPU")
    assert isinstance(compiled.inputs[0], rt.mod.ConstOutput)
    assert type(compiled.output("probs")).__name__ == "ConstOutput"
    assert compiled.inputs[0].__doc__ == "openvino.ConstOutput represents port/node output."


def test_get_and_set_batch(rt):
    p = rt.ops.parameter([1, 3, 8, 8], np.float32, name="x")
    model = rt.Model(rt.ops.relu(p), [p])
    rt.mod.layout_helpers.set_layout(model.input(0), rt.mod.Layout("NCHW"))
    assert int(str(rt.mod.get_batch(model))) == 1
    rt.mod.set_batch(model, 4)
    assert list(model.input(0).get_shape()) == [4, 3, 8, 8]


# --- compiled models, requests, tensors -------------------------------------------------------
def _mlp(rt, models):
    return rt.new_core().compile_model(models[rt.name]["mlp"], "CPU")


def test_export_import_round_trip(rt, models):
    compiled = _mlp(rt, models)
    blob = compiled.export_model()
    assert isinstance(blob, io.BytesIO)
    stream = io.BytesIO()
    assert compiled.export_model(stream) is None and stream.getvalue()
    again = rt.new_core().import_model(blob, "CPU")
    x = MLP_X
    assert np.allclose(again.infer_new_request({0: x})[0], compiled.infer_new_request({0: x})[0],
                       atol=1e-5)
    compiled.release_memory()
    assert compiled.infer_new_request({0: x})[0].shape == (1, 4)


def test_import_of_foreign_bytes_fails_alike(rt):
    out = attempt(lambda: rt.new_core().import_model(b"garbage", "CPU"))
    assert out.exc_type is RuntimeError
    assert api_line(out.message) == "Exception from src/inference/src/cpp/core.cpp:217:"


def test_output_tensors_set_by_the_user_receive_results(rt, models):
    compiled = _mlp(rt, models)
    request = compiled.create_infer_request()
    mine = rt.mod.Tensor(np.zeros((1, 4), np.float32))
    request.set_output_tensor(mine)
    request.infer({0: MLP_X})
    assert np.allclose(mine.data, request.get_output_tensor().data)
    assert np.abs(mine.data).sum() > 0
    request.set_tensors({0: rt.mod.Tensor(MLP_X)})
    assert np.array_equal(request.get_input_tensor().data, MLP_X)


def test_tensor_copy_to_and_set_shape(rt):
    src = rt.mod.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    dst = rt.mod.Tensor(np.zeros((2, 3), np.float32))
    src.copy_to(dst)
    assert np.array_equal(dst.data, src.data)
    src.set_shape([3, 2])
    assert list(src.shape) == [3, 2]
    bf = rt.mod.Tensor(rt.Type.bf16, [2])
    assert bf.element_type == rt.Type.bf16


# --- errors ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("what", "call"), [
    ("float key", lambda r, cm: r.infer({0.0: MLP_X})),
    ("object input", lambda r, cm: r.infer(object())),
    ("wait_for float", lambda r, cm: r.wait_for(1.5)),
    ("set_callback None", lambda r, cm: r.set_callback(None)),
])
def test_bad_arguments_raise_type_error_alike(rt, models, what, call):
    compiled = _mlp(rt, models)
    out = attempt(lambda: call(compiled.create_infer_request(), compiled))
    assert out.exc_type is TypeError, what
    expected = {"float key": "Incompatible key type for input: 0.0",
                "object input": "Incompatible inputs of type: <class 'object'>",
                "wait_for float": "wait_for(): incompatible function arguments.",
                "set_callback None": "set_callback(): incompatible function arguments."}[what]
    assert out.message.startswith(expected)


def test_negative_queue_size_is_a_type_error(rt, models):
    out = attempt(lambda: rt.AsyncInferQueue(_mlp(rt, models), -1))
    assert out.exc_type is TypeError
    assert out.message.startswith("__init__(): incompatible constructor arguments.")


@pytest.mark.parametrize("which", ["nested list", "i64 tensor"])
def test_refused_inputs_raise_alike(which):
    def run(rt):
        p = rt.ops.parameter([1, 4], np.float32, name="x")
        compiled = rt.new_core().compile_model(rt.Model(rt.ops.relu(p), [p]), "CPU")
        request = compiled.create_infer_request()
        if which == "nested list":
            return attempt(lambda: request.infer([[1.0, 2.0, 3.0, 4.0]]))
        return attempt(lambda: request.set_tensor("x", rt.mod.Tensor(np.zeros((1, 4), np.int64))))

    assert_same_error(run(REAL), run(LAB))


@pytest.mark.parametrize(("device", "config"), [
    ("CPU", {"AUTO_BATCH_TIMEOUT": 100}), ("BATCH:CPU(4)", {}), ("BATCH:AUTO(4)", {}),
    ("BATCH:HETERO:CPU", {}), ("CPU", {"CPU_SPARSE_WEIGHTS_DECOMPRESSION_RATE": 0.5}),
    ("CPU", {"NUM_STREAMS": -1}), ("CPU", {"NUM_STREAMS": -2})])
def test_accepted_configs(rt, models, device, config):
    compiled = rt.new_core().compile_model(models[rt.name]["conv"], device, config)
    out = compiled.create_infer_request().infer({0: np.zeros((1, 3, 32, 32), np.float32)})
    assert out[0].shape[0] == 1


@pytest.mark.parametrize("value", [-5, "-5", -3])
def test_refused_stream_counts(models, value):
    def run(rt):
        return attempt(lambda: rt.new_core().compile_model(models[rt.name]["conv"], "CPU",
                                                           {"NUM_STREAMS": value}))
    assert_same_error(run(REAL), run(LAB))


def test_callback_exception_is_raised_by_wait_as_runtime_error(rt, models):
    request = _mlp(rt, models).create_infer_request()

    def callback(userdata):
        raise ValueError("boom")

    request.set_callback(callback, None)
    request.start_async({0: MLP_X})
    out = attempt(request.wait)
    assert out.exc_type is RuntimeError
    lines = out.message.splitlines()
    assert lines[:4] == ["Exception from src/inference/src/cpp/infer_request.cpp:246:",
                         "ValueError: boom", "", "At:"]
    assert lines[4].endswith("): callback") and lines[5:] == [""]  # only the callback's frame


def test_register_plugin_and_unload_errors_alike():
    def run(rt):
        core = rt.new_core()
        core.register_plugin("test_plugin", "TEST_DEVICE")
        return attempt(lambda: core.get_versions("TEST_DEVICE"))

    real, lab = run(REAL), run(LAB)
    assert real.exc_type is lab.exc_type is RuntimeError
    assert meaningful_line(lab.message).startswith('Cannot load library "libtest_plugin.so"')
    assert meaningful_line(real.message).startswith('Cannot load library "libtest_plugin.so"')
    assert_same_error(attempt(lambda: REAL.new_core().unload_plugin("FOO")),
                      attempt(lambda: LAB.new_core().unload_plugin("FOO")))


def test_compile_model_of_a_non_path_object_fails_alike():
    class NotAPath:
        def __str__(self):
            return "test class"

    real = attempt(lambda: REAL.mod.compile_model(NotAPath()))
    lab = attempt(lambda: LAB.new_core().compile_model(NotAPath()))
    assert real.message == lab.message and lab.exc_type is RuntimeError


def test_empty_extension_is_accepted_and_libraries_are_refused(rt):
    core = rt.new_core()
    core.add_extension(rt.mod.Extension())
    out = attempt(lambda: core.add_extension("libfoo.so"))
    assert out.exc_type is RuntimeError
    assert "Cannot add extension." in out.message


@pytest.mark.parametrize("dims", [[-1, 3], "[?,3,1..10]", [1, 2], [REAL.mod.Dimension(1, 5)]])
def test_partial_shapes_with_dynamic_dimensions_read_alike(dims):
    def read(mod):
        if isinstance(dims, list) and dims and not isinstance(dims[0], int):
            shape = mod.PartialShape([mod.Dimension(1, 5)])
        else:
            shape = mod.PartialShape(dims)
        return (str(shape), repr(shape), shape.is_dynamic, shape.is_static, len(shape),
                [(str(d), d.is_dynamic, d.get_min_length(), d.get_max_length()) for d in shape])

    assert read(LAB.mod) == read(REAL.mod)
    lab = LAB.mod.PartialShape("[?,3]")
    out = attempt(lab.to_shape)
    assert meaningful_line(out.message) == "to_shape was called on a dynamic shape."


def test_read_model_config_creates_the_cache_dir_and_leaves_the_core_alone(rt, tmp_path):
    core = rt.new_core()
    before = core.get_property("CACHE_DIR")
    target = tmp_path / rt.name / "cache"
    attempt(lambda: core.read_model(str(tmp_path / "missing.xml"),
                                    config={"CACHE_DIR": str(target)}))
    assert target.is_dir()
    assert core.get_property("CACHE_DIR") == before


def test_get_versions_loads_the_plugin_so_it_can_be_unloaded(rt):
    core = rt.new_core()
    assert attempt(lambda: core.unload_plugin("CPU")).exc_type is RuntimeError  # never loaded
    core.get_versions("CPU")
    core.unload_plugin("CPU")
