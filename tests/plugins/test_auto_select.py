"""AUTO's candidates and device selection: lists, precision, order, model priority, errors."""

import pytest

import ovlab
import ovlab.properties as props
from ovlab import zoo
from ovlab.properties import hint
from ovlab.sim.plugins.auto.select import DeviceInfo


def selected(core) -> list[str]:
    """Devices AUTO chose at compile time ("select" events), in compile order."""
    return [e.device for e in core.trace.events if e.kind == "select" and e.detail["reason"] == "initial"]


def serving(compiled, core) -> list[str]:
    """EXECUTION_DEVICES once every background compile is over and the helper is released."""
    core.clock.sleep(40)
    return compiled.get_property("EXECUTION_DEVICES")


def error_of(fn) -> str:
    with pytest.raises(RuntimeError) as info:
        fn()
    return str(info.value)


# --- A01: selection order -------------------------------------------------------------------
@pytest.mark.parametrize("platform, device, order", [
    ("workstation", "GPU.1", "GPU.1,GPU.0,CPU"),  # dGPU > iGPU > CPU, NPU not a candidate
    ("laptop", "GPU.0", "GPU.0,CPU"),
    ("cpu", "CPU", "CPU"),
    ("multi-gpu", "GPU.0", "GPU.0,GPU.1,GPU.2,CPU"),
])
def test_a01_auto_picks_the_highest_priority_device(platform, device, order, small_cnn):
    core = ovlab.Core(platform)
    compiled = core.compile_model(small_cnn, "AUTO")
    assert selected(core) == [device]
    assert compiled.get_property("MULTI_DEVICE_PRIORITIES") == order
    assert serving(compiled, core) == [device]


def test_a01_explicit_order_is_respected(small_cnn):
    core = ovlab.Core("workstation")
    compiled = core.compile_model(small_cnn, "AUTO:CPU,GPU.1")
    assert selected(core) == ["CPU"]
    assert compiled.get_property("MULTI_DEVICE_PRIORITIES") == "CPU,GPU.1"
    # the actual device is the CPU: no helper, EXECUTION_DEVICES says CPU at once
    assert compiled.get_property("EXECUTION_DEVICES") == ["CPU"]


def test_a01_gpu_in_an_explicit_list_expands_in_id_order(small_cnn):
    # "GPU" becomes "GPU.0,GPU.1" with consecutive ranks, so the explicit order puts the iGPU first
    core = ovlab.Core("workstation")
    compiled = core.compile_model(small_cnn, "AUTO:GPU,CPU")
    assert compiled.get_property("MULTI_DEVICE_PRIORITIES") == "GPU.0,GPU.1,CPU"
    assert selected(core) == ["GPU.0"]


# --- A02: precision --------------------------------------------------------------------------
def test_a02_fp32_model_goes_to_an_fp16_only_device(small_cnn):
    base = ovlab.preset("laptop")
    gpu = base.devices["GPU.0"].with_(capabilities=("FP16", "BIN", "EXPORT_IMPORT"))
    core = ovlab.Core(base.with_device("GPU.0", gpu))
    core.compile_model(small_cnn, "AUTO")
    assert selected(core) == ["GPU.0"]


def test_a02_a_device_without_fp32_or_fp16_is_skipped(small_cnn):
    base = ovlab.preset("laptop")
    gpu = base.devices["GPU.0"].with_(capabilities=("INT8", "BIN"))
    core = ovlab.Core(base.with_device("GPU.0", gpu))
    compiled = core.compile_model(small_cnn, "AUTO")
    assert selected(core) == ["CPU"]
    assert compiled.get_property("MULTI_DEVICE_PRIORITIES") == "CPU"


def test_a02_int8_model_skips_devices_without_int8():
    model = zoo.load("small-cnn", "INT8")
    laptop = ovlab.Core("laptop")  # the Iris Xe iGPU has no INT8
    assert "INT8" not in laptop.get_property("GPU", "OPTIMIZATION_CAPABILITIES")
    compiled = laptop.compile_model(model, "AUTO")
    assert selected(laptop) == ["CPU"]
    assert compiled.get_property("MULTI_DEVICE_PRIORITIES") == "CPU"
    workstation = ovlab.Core("workstation")  # the dGPU has INT8
    workstation.compile_model(model, "AUTO")
    assert selected(workstation) == ["GPU.1"]


def test_a02_precision_filter_needs_more_than_one_candidate():
    model = zoo.load("small-cnn", "INT8")
    core = ovlab.Core("laptop")
    compiled = core.compile_model(model, "AUTO:GPU")
    assert selected(core) == ["GPU.0"]
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]


# --- A06: equivalent ways to give the list -----------------------------------------------------
@pytest.mark.parametrize("device, config, plugin_config", [
    ("AUTO", None, None),
    ("AUTO:GPU,CPU", None, None),
    ("AUTO:GPU.0,CPU", None, None),
    ("AUTO", {"MULTI_DEVICE_PRIORITIES": "GPU,CPU"}, None),
    ("AUTO", dict([props.device.priorities("GPU", "CPU")]), None),  # "GPU,CPU," tolerated
    ("AUTO", None, {props.device.priorities: "GPU,CPU"}),
])
def test_a06_device_list_forms_are_equivalent(device, config, plugin_config, small_cnn):
    core = ovlab.Core("laptop")
    if plugin_config:
        core.set_property("AUTO", plugin_config)
    compiled = core.compile_model(small_cnn, device, config)
    assert compiled.get_property("MULTI_DEVICE_PRIORITIES") == "GPU.0,CPU"
    assert selected(core) == ["GPU.0"]
    assert compiled.get_property("EXECUTION_DEVICES") == ["(CPU)"]


def test_a06_no_device_name_means_auto(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn)
    assert compiled.get_property("SUPPORTED_PROPERTIES")["MULTI_DEVICE_PRIORITIES"] == "RW"
    assert selected(core) == ["GPU.0"]


def test_a06_empty_list_after_colon_is_plain_auto(small_cnn):
    core = ovlab.Core("laptop")
    core.set_property("AUTO", {"MULTI_DEVICE_PRIORITIES": "CPU"})
    # "AUTO:" passes an empty list, which overrides the plugin's list: all devices again
    assert core.compile_model(small_cnn, "AUTO:").get_property(
        "MULTI_DEVICE_PRIORITIES") == "GPU.0,CPU"
    assert core.compile_model(small_cnn, "AUTO").get_property("MULTI_DEVICE_PRIORITIES") == "CPU"


def test_a06_worker_count_from_the_device_string(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO:GPU(4),CPU")
    core.clock.sleep(30)
    requests = [compiled.create_infer_request() for _ in range(6)]
    for r in requests:
        r.start_async()
    for r in requests:
        r.wait()
    workers = {r.worker for r in core.trace if r.device == "GPU.0"}
    assert workers == {"GPU.0:0", "GPU.0:1", "GPU.0:2", "GPU.0:3"}


# --- A07 / A08: exclusion, NPU --------------------------------------------------------------
def test_a07_minus_cpu_removes_cpu(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO:-CPU")
    assert compiled.get_property("MULTI_DEVICE_PRIORITIES") == "GPU.0"
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]
    assert not any(r.device == "CPU" for r in core.trace)
    compiled.create_infer_request().infer()
    assert [r.device for r in core.trace] == ["GPU.0"]


def test_a07_minus_cpu_on_a_cpu_only_machine_is_an_error(small_cnn):
    core = ovlab.Core("cpu")
    text = error_of(lambda: core.compile_model(small_cnn, "AUTO:-CPU"))
    assert text == ("Exception from src/inference/src/cpp/core.cpp:117:\n"
                    "Exception from src/inference/src/dev/plugin.cpp:54:\n"
                    "Exception from src/plugins/auto/src/plugin.cpp:1199:\n"
                    "Please, check environment due to no supported devices can be used\n\n\n")


def test_a07_minus_gpu_removes_every_gpu(small_cnn):
    core = ovlab.Core("multi-gpu")
    compiled = core.compile_model(small_cnn, "AUTO:-GPU")
    assert compiled.get_property("MULTI_DEVICE_PRIORITIES") == "CPU"


def test_auto_both_fallbacks_off_drop_cpu_from_an_explicit_list(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO:GPU,CPU", {
        "ENABLE_STARTUP_FALLBACK": False, "ENABLE_RUNTIME_FALLBACK": False})
    assert compiled.get_property("MULTI_DEVICE_PRIORITIES") == "GPU.0"
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]
    # with only startup fallback off the CPU stays a candidate for runtime fallback
    kept = core.compile_model(small_cnn, "AUTO:GPU,CPU", {"ENABLE_STARTUP_FALLBACK": False})
    assert kept.get_property("MULTI_DEVICE_PRIORITIES") == "GPU.0,CPU"


def test_a08_npu_only_when_named(small_cnn):
    core = ovlab.Core("workstation")
    plain = core.compile_model(small_cnn, "AUTO")
    assert "NPU" not in plain.get_property("MULTI_DEVICE_PRIORITIES")
    no_cpu = core.compile_model(small_cnn, "AUTO:-CPU")
    assert no_cpu.get_property("MULTI_DEVICE_PRIORITIES") == "GPU.1,GPU.0"
    named = core.compile_model(small_cnn, "AUTO:NPU,CPU")
    assert named.get_property("MULTI_DEVICE_PRIORITIES") == "NPU,CPU"
    assert selected(core)[-1] == "NPU"


def test_a08_non_intel_gpu_is_blocked_unless_named(small_cnn):
    base = ovlab.preset("laptop")
    other = base.devices["GPU.0"].with_(architecture="GPU: vendor=0x10de arch=v1")
    core = ovlab.Core(base.with_device("GPU.0", other))
    assert core.compile_model(small_cnn, "AUTO").get_property("MULTI_DEVICE_PRIORITIES") == "CPU"
    assert core.compile_model(small_cnn, "AUTO:GPU,CPU").get_property(
        "MULTI_DEVICE_PRIORITIES") == "GPU.0,CPU"


# --- A12: model priority ------------------------------------------------------------------------
def test_a12_seed_example_1_high_medium_low(small_cnn):
    core = ovlab.Core("workstation")
    models = [core.compile_model(small_cnn, "AUTO", {hint.model_priority: p})
              for p in (hint.Priority.HIGH, hint.Priority.MEDIUM, hint.Priority.LOW)]
    assert selected(core) == ["GPU.1", "GPU.0", "CPU"]
    assert [m.get_property("MODEL_PRIORITY") for m in models] == [
        hint.Priority.HIGH, hint.Priority.MEDIUM, hint.Priority.LOW]
    assert serving(models[0], core) == ["GPU.1"]
    assert [m.get_property("EXECUTION_DEVICES") for m in models] == [["GPU.1"], ["GPU.0"], ["CPU"]]


def test_a12_seed_example_2_low_medium_low(small_cnn):
    """The seed's C++ snippet (LOW, MEDIUM, LOW -> GPU.1, GPU.1, GPU.0). Its Python snippet says
    HIGH, MEDIUM, LOW with the same results, which contradicts example 1 and the algorithm: a
    MEDIUM model avoids the dGPU held by a HIGH one. The C++ snippet is the consistent one."""
    core = ovlab.Core("workstation")
    models = [core.compile_model(small_cnn, "AUTO", {"MODEL_PRIORITY": p})
              for p in ("LOW", "MEDIUM", "LOW")]
    assert selected(core) == ["GPU.1", "GPU.1", "GPU.0"]
    assert len(models) == 3


def test_a12_release_frees_the_device(small_cnn):
    core = ovlab.Core("workstation")
    high = core.compile_model(small_cnn, "AUTO", {"MODEL_PRIORITY": "HIGH"})
    core.compile_model(small_cnn, "AUTO", {"MODEL_PRIORITY": "MEDIUM"}).release()
    high.release()
    core.compile_model(small_cnn, "AUTO", {"MODEL_PRIORITY": "MEDIUM"})
    assert selected(core) == ["GPU.1", "GPU.0", "GPU.1"]


def test_a12_ignored_in_cumulative_mode(small_cnn):
    core = ovlab.Core("workstation")
    core.compile_model(small_cnn, "AUTO", {"MODEL_PRIORITY": "HIGH"})
    ctput = core.compile_model(small_cnn, "AUTO:GPU.1,CPU", {
        "MODEL_PRIORITY": "LOW", "PERFORMANCE_HINT": "CUMULATIVE_THROUGHPUT",
        "ALLOW_AUTO_BATCHING": False})
    assert ctput.get_property("EXECUTION_DEVICES") == ["GPU.1", "CPU"]


def _vector(core, ranks, precision_model):
    """Select for models of the given ranks on CPU, iGPU, dGPU, OTHER (the unit-test setup)."""
    plugin = core._plugins["AUTO"]
    names = ["CPU", "GPU.0", "GPU.1", "NPU"]
    uniques = ["CPU_", "iGPU_0", "dGPU_1", "NPU_"]
    devices = [DeviceInfo(n, {}, None, "", u, 0) for n, u in zip(names, uniques, strict=True)]
    chosen = [plugin.registry.select(core, devices, precision_model, r, "AUTO") for r in ranks]
    kind = {"CPU": "CPU", "GPU.0": "iGPU", "GPU.1": "dGPU", "NPU": "OTHER"}
    return [kind[d.name] for d in chosen]


def test_a12_unit_test_vectors_of_the_source():
    """``key_network_priority_test.cpp``: GPUs report FP32/FP16/BIN, OTHER reports only INT8."""
    base = ovlab.preset("workstation")
    platform = base.with_device(
        "GPU.1", base.devices["GPU.1"].with_(capabilities=("FP32", "FP16", "BIN"))).with_device(
        "NPU", base.devices["NPU"].with_(capabilities=("INT8",)))
    assert _vector(ovlab.Core(platform), [0, 1, 2, 2], "FP32") == ["dGPU", "iGPU", "CPU", "CPU"]
    assert _vector(ovlab.Core(platform), [2, 0, 2, 2], "FP32") == ["dGPU", "dGPU", "iGPU", "iGPU"]
    assert _vector(ovlab.Core(platform), [0, 1, 2, 2], "INT8") == ["OTHER", "CPU", "CPU", "CPU"]


# --- errors ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("device, message", [
    ("AUTO:FOO", "No available device to filter AUTO plugin"),
    ("MULTI", "KEY_MULTI_DEVICE_PRIORITIES key is not set for MULTI"),
    ("MULTI:", "KEY_MULTI_DEVICE_PRIORITIES key is not set for MULTI"),
    ("AUTO:MULTI,CPU", "The meta device should not in the device candidate list: MULTI,CPU"),
    ("AUTO:AUTO", "The meta device should not in the device candidate list: AUTO"),
    ("AUTO:CPU(0)", "Priority value forCPUmust be > 0, while 0is passed"),
    ("AUTO:GPU.7", "No available device to filter AUTO plugin"),
])
def test_auto_device_string_errors(device, message, small_cnn):
    core = ovlab.Core("laptop")
    text = error_of(lambda: core.compile_model(small_cnn, device))
    assert text.startswith("Exception from src/inference/src/cpp/core.cpp:117:\n")
    assert text.rstrip("\n").endswith(message)


def test_auto_all_compiles_failing_lists_every_device(small_cnn):
    core = ovlab.Core("cpu")
    text = error_of(lambda: core.compile_model(small_cnn, "AUTO:GPU"))
    assert "Exception from src/plugins/auto/src/auto_schedule.cpp:439:\n" in text
    assert "[AUTO] compile model failed, GPU:Exception from src/inference/src/dev/plugin.cpp:54:" in text
    assert "[GPU] Can't get PERFORMANCE_HINT property as no supported devices found" in text
    assert text.endswith("; \n\n\n")
    # with the CPU in the list the missing GPU is filtered out (precision check) and CPU serves
    compiled = core.compile_model(small_cnn, "AUTO:GPU,CPU")
    assert compiled.get_property("EXECUTION_DEVICES") == ["CPU"]


@pytest.mark.parametrize("config, message", [
    ({"PERFORMANCE_HINT": "FAST"}, "Invalid value for property PERFORMANCE_HINT: FAST"),
    ({"PERFORMANCE_HINT": "throughput"}, "Invalid value for property PERFORMANCE_HINT: throughput"),
    ({hint.performance_mode: 5}, "Invalid value for property PERFORMANCE_HINT: 5"),
    ({"PERFORMANCE_HINT_NUM_REQUESTS": "-1"},
     "Invalid value for property PERFORMANCE_HINT_NUM_REQUESTS: -1"),
    ({"MODEL_PRIORITY": "URGENT"}, "Invalid value for property MODEL_PRIORITY: URGENT"),
    ({"SCHEDULE_POLICY": "RANDOM"}, "Invalid value for property SCHEDULE_POLICY: RANDOM"),
])
@pytest.mark.parametrize("device", ["AUTO", "MULTI:CPU"])
def test_auto_bad_values(config, message, device, small_cnn):
    core = ovlab.Core("cpu")
    text = error_of(lambda: core.compile_model(small_cnn, device, config))
    assert text == ("Exception from src/inference/src/cpp/core.cpp:117:\n"
                    "Exception from src/inference/src/dev/plugin.cpp:54:\n"
                    "Check 'property_validators.at(name)->is_valid(val)' failed at "
                    f"src/plugins/auto/src/plugin_config.cpp:102:\n{message}\n\n\n")


def test_auto_device_errors_are_wrapped(small_cnn):
    core = ovlab.Core("cpu")
    text = error_of(lambda: core.compile_model(small_cnn, "AUTO", {"PERFORMANCE_HINT": ""}))
    assert text == ("Exception from src/inference/src/cpp/core.cpp:117:\n"
                    "Exception from src/inference/src/dev/plugin.cpp:54:\n"
                    "Exception from src/plugins/auto/src/auto_schedule.cpp:439:\n"
                    "[AUTO] compile model failed, CPU:Exception from src/inference/src/dev/plugin.cpp:54:\n"
                    "Exception from src/inference/include/openvino/runtime/properties.hpp:352:\n"
                    "Unsupported performance mode hint\n\n; \n\n\n")
    text = error_of(lambda: core.compile_model(small_cnn, "MULTI:CPU", {"NUM_STREAMS": "many"}))
    assert "Exception from src/plugins/auto/src/cumulative_schedule.cpp:222:\n[MULTI] compile model " \
           "failed, CPU:" in text
    text = error_of(lambda: core.compile_model(small_cnn, "AUTO", {"ALLOW_AUTO_BATCHING": "MAYBE"}))
    assert text == ("Exception from src/inference/src/cpp/core.cpp:117:\n"
                    "Exception from src/core/src/any.cpp:219:\n"
                    "Could not convert to bool from string maybe\n\n")


def test_auto_unknown_keys_are_accepted_at_compile_time(small_cnn):
    core = ovlab.Core("cpu")
    compiled = core.compile_model(small_cnn, "AUTO", {"FOO_KEY": "1", "AUTO_BATCH_TIMEOUT": "abc"})
    assert compiled.get_property("EXECUTION_DEVICES") == ["CPU"]
    # a key the device supports reaches it: NUM_STREAMS=2 gives the CPU two streams
    compiled = core.compile_model(small_cnn, "AUTO", {"NUM_STREAMS": 2})
    assert compiled.get_property("PERFORMANCE_HINT") == hint.PerformanceMode.LATENCY
    assert compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 2


# --- plugin-level properties -------------------------------------------------------------------
def test_auto_plugin_properties_as_measured():
    core = ovlab.Core("cpu")
    assert core.get_property("AUTO", "FULL_DEVICE_NAME") == "AUTO"
    assert core.get_property("MULTI", "FULL_DEVICE_NAME") == "MULTI"
    assert core.get_property("AUTO", "ENABLE_STARTUP_FALLBACK") is True
    assert core.get_property("AUTO", "ENABLE_RUNTIME_FALLBACK") is True
    assert core.get_property("AUTO", "SCHEDULE_POLICY") == props.intel_auto.SchedulePolicy.DEVICE_PRIORITY
    assert core.get_property("AUTO", "MODEL_PRIORITY") == hint.Priority.MEDIUM
    assert core.get_property("AUTO", "PERFORMANCE_HINT") == hint.PerformanceMode.LATENCY
    assert core.get_property("AUTO", "MULTI_DEVICE_PRIORITIES") == ""
    assert core.get_property("AUTO", "DEVICES_UTILIZATION_THRESHOLD") == {}
    assert core.get_property("AUTO", "OPTIMIZATION_CAPABILITIES") == [
        "BF16", "BIN", "FP32", "INT8", "WINOGRAD"]
    supported = core.get_property("AUTO", "SUPPORTED_PROPERTIES")
    assert len(supported) == 17 and supported["FULL_DEVICE_NAME"] == "RO"
    assert supported["ENABLE_STARTUP_FALLBACK"] == "RW"
    multi = core.get_property("MULTI", "SUPPORTED_PROPERTIES")
    assert "ENABLE_STARTUP_FALLBACK" not in multi and multi["SCHEDULE_POLICY"] == "RW"


def test_auto_capabilities_union_without_export_import():
    core = ovlab.Core("workstation")
    caps = core.get_property("AUTO", "OPTIMIZATION_CAPABILITIES")
    assert caps == sorted(caps) and "EXPORT_IMPORT" not in caps and "INT8" in caps
    gpu_only = core.get_property("AUTO", "OPTIMIZATION_CAPABILITIES",
                                 {"MULTI_DEVICE_PRIORITIES": "GPU.0"})
    assert gpu_only == ["BIN", "FP16", "FP32"]


def test_auto_set_property_keeps_the_given_type_and_rejects_unknown_keys():
    core = ovlab.Core("cpu")
    core.set_property("AUTO", {"ENABLE_STARTUP_FALLBACK": "NO"})
    assert core.get_property("AUTO", "ENABLE_STARTUP_FALLBACK") == "NO"
    core.set_property("AUTO", {hint.performance_mode: hint.PerformanceMode.THROUGHPUT})
    assert core.get_property("AUTO", "PERFORMANCE_HINT") == hint.PerformanceMode.THROUGHPUT
    text = error_of(lambda: core.set_property("AUTO", {"FOO_KEY": "1"}))
    assert text == ("Exception from src/inference/src/cpp/core.cpp:264:\n"
                    "Exception from src/inference/src/dev/plugin.cpp:49:\n"
                    "Check 'false' failed at src/plugins/auto/src/plugin_config.cpp:67:\n"
                    "property: FOO_KEY: not supported\n\n\n")
    assert "Invalid value for property PERFORMANCE_HINT: FAST" in error_of(
        lambda: core.set_property("AUTO", {"PERFORMANCE_HINT": "FAST"}))
    assert "Invalid value for property LOG_LEVEL: LOUD" in error_of(
        lambda: core.set_property("AUTO", {"LOG_LEVEL": "LOUD"}))
    assert "not supported property NOPE" in error_of(lambda: core.get_property("AUTO", "NOPE"))


def test_auto_plugin_hint_applies_to_later_compiles(small_cnn):
    core = ovlab.Core("cpu")
    core.set_property("AUTO", {"PERFORMANCE_HINT": "THROUGHPUT"})
    compiled = core.compile_model(small_cnn, "AUTO")
    assert compiled.get_property("PERFORMANCE_HINT") == hint.PerformanceMode.THROUGHPUT
    assert compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 2


# --- query_model ---------------------------------------------------------------------------------
def test_auto_query_model(small_cnn):
    core = ovlab.Core("laptop")
    auto = core.query_model(small_cnn, "AUTO:CPU")
    assert set(auto.values()) == {"AUTO"}
    assert set(auto) == set(core.query_model(small_cnn, "CPU"))
    assert set(core.query_model(small_cnn, "MULTI:GPU,CPU").values()) == {"MULTI"}
    text = error_of(lambda: core.query_model(small_cnn, "AUTO"))
    assert text == ("Exception from src/inference/src/cpp/core.cpp:256:\n"
                    "Exception from src/inference/src/dev/plugin.cpp:70:\n"
                    "Exception from src/plugins/auto/src/plugin.cpp:571:\n"
                    "AUTO: cannot parse valid device from \n\n\n")


def test_auto_query_model_intersects_the_devices():
    core = ovlab.Core("workstation")
    model = zoo.load("googlenet-v1")  # LRN: the NPU cannot run it
    npu = core.query_model(model, "NPU")
    both = core.query_model(model, "AUTO:NPU,CPU")
    assert set(both) == set(npu) and len(npu) < len(core.query_model(model, "CPU"))
