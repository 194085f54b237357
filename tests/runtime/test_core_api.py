"""The Core, device names and properties on the hardware plugins (issue 2)."""

import pytest

import ovlab
import ovlab.properties as props
from ovlab.properties import hint


@pytest.mark.parametrize("platform, devices", [
    ("laptop", ["CPU", "GPU"]),
    ("workstation", ["CPU", "GPU.0", "GPU.1", "NPU"]),
    ("cpu", ["CPU"]),
    ("multi-gpu", ["CPU", "GPU.0", "GPU.1", "GPU.2"]),
])
def test_available_devices_per_preset(platform, devices):
    core = ovlab.Core(platform)
    assert core.available_devices == devices
    assert core.get_available_devices() == devices


def test_default_platform_is_the_laptop():
    core = ovlab.Core()
    assert core.platform.name == "laptop"
    assert "i7-1165G7" in core.get_property("CPU", "FULL_DEVICE_NAME")
    assert "Iris(R) Xe" in core.get_property("GPU", "FULL_DEVICE_NAME")


def test_gpu_is_an_alias_of_gpu0(core):
    assert core.get_property("GPU", "FULL_DEVICE_NAME") == core.get_property("GPU.0", "FULL_DEVICE_NAME")


def test_learner_can_override_a_preset_device():
    base = ovlab.preset("laptop")
    slow = base.devices["GPU.0"].with_(compile_base_s=30.0)
    core = ovlab.Core(base.with_device("GPU.0", slow))
    assert core.available_devices == ["CPU", "GPU"]
    assert core.platform.devices["GPU.0"].compile_base_s == 30.0


def test_learner_can_define_a_platform():
    cpu = ovlab.preset("laptop").devices["CPU"]
    core = ovlab.Core(ovlab.Platform("mine", {"CPU": cpu}))
    assert core.available_devices == ["CPU"]


def test_capabilities_follow_the_seed_table():
    core = ovlab.Core("workstation")
    assert "INT8" in core.get_property("GPU.1", "OPTIMIZATION_CAPABILITIES")  # dGPU
    assert "INT8" not in core.get_property("GPU.0", "OPTIMIZATION_CAPABILITIES")  # iGPU
    assert core.get_property("GPU.1", "DEVICE_TYPE") == props.device.Type.DISCRETE
    assert core.get_property("GPU.0", "DEVICE_TYPE") == props.device.Type.INTEGRATED


def test_supported_properties_is_a_dict_of_ro_rw(core):
    sp = core.get_property("CPU", props.supported_properties)
    assert isinstance(sp, dict) and set(sp.values()) <= {"RO", "RW"}
    assert sp["PERFORMANCE_HINT"] == "RW" and sp["FULL_DEVICE_NAME"] == "RO"
    assert "OPTIMAL_BATCH_SIZE" in core.get_property("GPU", "SUPPORTED_PROPERTIES")
    assert "OPTIMAL_BATCH_SIZE" not in sp


def test_core_level_property_types(core):
    assert core.get_property("CPU", "PERFORMANCE_HINT") == hint.PerformanceMode.LATENCY
    assert core.get_property("CPU", "RANGE_FOR_ASYNC_INFER_REQUESTS") == (1, 1, 1)
    assert isinstance(core.get_property("CPU", "RANGE_FOR_STREAMS"), tuple)
    assert core.get_property("CPU", "PERF_COUNT") is False
    assert core.get_property("CPU", "AVAILABLE_DEVICES") == [""]
    assert core.get_property("GPU", "OPTIMAL_BATCH_SIZE") == 1  # needs MODEL_PTR


def test_set_property_on_a_device_changes_its_default(core, small_cnn):
    core.set_property("CPU", {hint.performance_mode: hint.PerformanceMode.THROUGHPUT})
    assert core.get_property("CPU", "PERFORMANCE_HINT") == hint.PerformanceMode.THROUGHPUT
    compiled = core.compile_model(small_cnn, "CPU")
    assert compiled.get_property("PERFORMANCE_HINT") == "THROUGHPUT"


@pytest.mark.parametrize("name", ["FOO", "cpu", "Auto", ""])
def test_unknown_devices_are_not_registered(core, small_cnn, name):
    with pytest.raises(RuntimeError, match=f'Device with "{name}" name is not registered'):
        core.compile_model(small_cnn, name)


def test_unknown_device_in_get_property(core):
    with pytest.raises(RuntimeError) as exc:
        core.get_property("FOO", "FULL_DEVICE_NAME")
    assert type(exc.value) is RuntimeError
    assert str(exc.value).startswith("Exception from src/inference/src/cpp/core.cpp:268:\n")
    assert 'Device with "FOO" name is not registered in the OpenVINO Runtime' in str(exc.value)


def test_cpu_has_no_device_id(core, small_cnn):
    with pytest.raises(RuntimeError, match="CPU plugin supports only '' as device id"):
        core.compile_model(small_cnn, "CPU.0")


def test_illegal_parentheses(core, small_cnn):
    with pytest.raises(RuntimeError, match='name is illegal in the OpenVINO Runtime'):
        core.compile_model(small_cnn, "AUTO:GPU(4)CPU")


def test_gpu_missing_on_cpu_platform(cpu_core, small_cnn):
    with pytest.raises(RuntimeError, match=r"\[GPU\] Can't get PERFORMANCE_HINT property as no "
                                           r"supported devices found"):
        cpu_core.compile_model(small_cnn, "GPU")


def test_unknown_config_key_on_cpu(core, small_cnn):
    with pytest.raises(RuntimeError, match="NotFound: Unsupported property FOO_KEY by CPU plugin."):
        core.compile_model(small_cnn, "CPU", {"FOO_KEY": "1"})


@pytest.mark.parametrize("value", ["FAST", "throughput", 2])
def test_bad_hint_value_on_cpu(core, small_cnn, value):
    with pytest.raises(RuntimeError, match=f"Wrong value {value}for property key PERFORMANCE_HINT"):
        core.compile_model(small_cnn, "CPU", {"PERFORMANCE_HINT": value})


def test_bad_bool_value(core, small_cnn):
    # the CPU plugin's own message (measured on 2026.4.1; tests/differential compares it)
    with pytest.raises(RuntimeError, match="Wrong value MAYBE for property key PERF_COUNT. "
                       "Expected only true/false"):
        core.compile_model(small_cnn, "CPU", {"PERF_COUNT": "MAYBE"})


def test_bad_num_requests(core, small_cnn):
    with pytest.raises(RuntimeError, match="Wrong value -1for property key "
                                           "PERFORMANCE_HINT_NUM_REQUESTS. Expected only >= 0."):
        core.compile_model(small_cnn, "CPU", {"PERFORMANCE_HINT_NUM_REQUESTS": "-1"})


def test_auto_batch_keys_are_accepted_by_every_device(core, small_cnn):
    core.compile_model(small_cnn, "CPU", {"AUTO_BATCH_TIMEOUT": "100", "ALLOW_AUTO_BATCHING": "NO"})


def test_property_objects_and_strings_are_interchangeable(core, small_cnn):
    a = core.compile_model(small_cnn, "CPU", {hint.performance_mode: hint.PerformanceMode.THROUGHPUT})
    b = core.compile_model(small_cnn, "CPU", dict([hint.performance_mode(hint.PerformanceMode.THROUGHPUT)]))
    c = core.compile_model(small_cnn, "CPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    values = {m.get_property(props.optimal_number_of_infer_requests) for m in (a, b, c)}
    assert len(values) == 1


def test_property_objects_are_their_keys():
    assert hint.performance_mode == "PERFORMANCE_HINT"
    assert hint.performance_mode() == "PERFORMANCE_HINT"
    assert props.enable_profiling() == "PERF_COUNT"
    assert props.model_name() == "NETWORK_NAME"
    assert props.device.priorities("GPU", "CPU") == ("MULTI_DEVICE_PRIORITIES", "GPU,CPU,")
    assert str(hint.PerformanceMode.THROUGHPUT) == "PerformanceMode.THROUGHPUT"
    assert repr(hint.Priority.MEDIUM) == "<Priority.MEDIUM: 1>"
    assert hint.Priority.DEFAULT is hint.Priority.MEDIUM


def test_compiled_model_property_types_as_measured(core, small_cnn):
    compiled = core.compile_model(small_cnn, "CPU")
    assert compiled.get_property("EXECUTION_DEVICES") == ["CPU"]
    assert compiled.get_property("PERFORMANCE_HINT") == "LATENCY"  # str on the CPU plugin
    assert compiled.get_property("PERF_COUNT") == "NO"
    assert compiled.get_property("PERFORMANCE_HINT_NUM_REQUESTS") == "0"
    assert compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 1
    assert compiled.get_property("NETWORK_NAME") == small_cnn.get_friendly_name()
    assert compiled.get_property("LOADED_FROM_CACHE") is False
    assert set(compiled.get_property("SUPPORTED_PROPERTIES").values()) == {"RO"}
    with pytest.raises(RuntimeError, match="Unsupported property: MODEL_NAME"):
        compiled.get_property("MODEL_NAME")


def test_compiled_set_property_is_refused(core, small_cnn):
    compiled = core.compile_model(small_cnn, "CPU")
    with pytest.raises(RuntimeError, match="It's not possible to set property of an already "
                                           "compiled model"):
        compiled.set_property({"PERFORMANCE_HINT": "THROUGHPUT"})


def test_throughput_hint_sets_streams_and_requests(core, small_cnn):
    lat = core.compile_model(small_cnn, "CPU")
    tput = core.compile_model(small_cnn, "CPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    capped = core.compile_model(small_cnn, "CPU", {"PERFORMANCE_HINT": "THROUGHPUT",
                                                   "PERFORMANCE_HINT_NUM_REQUESTS": "1"})
    assert lat.get_property("NUM_STREAMS") == 1
    assert tput.get_property("NUM_STREAMS") == 4
    assert tput.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 4
    assert capped.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 1
    assert capped.get_property("NUM_STREAMS") == 1


def test_gpu_throughput_reports_two_requests_per_stream(core, small_cnn):
    compiled = core.compile_model(small_cnn, "GPU", {"PERFORMANCE_HINT": "THROUGHPUT",
                                                     "ALLOW_AUTO_BATCHING": False})
    assert compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 4
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]


def test_get_versions(core):
    versions = core.get_versions("CPU")
    assert versions["CPU"].description == "openvino_intel_cpu_plugin"
    assert ovlab.get_version().startswith("2026.4.1")


def test_query_model_on_one_device(core, small_cnn):
    result = core.query_model(small_cnn, "GPU")
    assert set(result.values()) == {"GPU"}
    assert set(result) == {op.get_friendly_name() for op in small_cnn.get_ops()}


def test_core_level_cache_dir(core):
    core.set_property({props.cache_dir: "./cache"})
    assert core.get_property("CACHE_DIR") == "./cache"


def test_device_properties_are_not_for_set_property(core):
    with pytest.raises(RuntimeError, match="set_property do not support ov::device::propreties"):
        core.set_property("CPU", {"DEVICE_PROPERTIES": {"CPU": {"PERF_COUNT": True}}})
