"""Runtime fallback, per-device configuration and what an AUTO compiled model reports."""

import numpy as np
import pytest

import ovlab
import ovlab.properties as props
from ovlab.properties import hint


def events(core, kind):
    return [e for e in core.trace.events if e.kind == kind]


def ready_auto(core, model, device="AUTO", config=None):
    compiled = core.compile_model(model, device, config)
    core.clock.sleep(30)  # past the GPU compile and the helper's release
    return compiled


def run(compiled, n):
    requests = [compiled.create_infer_request() for _ in range(n)]
    for r in requests:
        r.start_async()
    errors = []
    for r in requests:
        try:
            r.wait()
        except RuntimeError as exc:
            errors.append(str(exc))
    return requests, errors


# --- A14: runtime fallback ----------------------------------------------------------------------
def test_a14_failed_inference_runs_again_on_the_next_device(small_cnn):
    core = ovlab.Core("laptop")
    compiled = ready_auto(core, small_cnn)
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]
    core.faults.fail_inference("GPU.0", nth=2)
    data = np.random.default_rng(0).standard_normal((1, 3, 32, 32)).astype(np.float32)
    request = compiled.create_infer_request()
    results = [request.infer({0: data})[0] for _ in range(4)]
    records = core.trace.inferences
    assert [(r.seq, r.device, r.status) for r in records] == [
        (0, "GPU.0", "ok"), (1, "GPU.0", "failed"), (1, "CPU", "ok"), (2, "CPU", "ok"),
        (3, "CPU", "ok")]
    assert compiled.get_property("EXECUTION_DEVICES") == ["CPU"]
    fallback = events(core, "fallback")[0]
    assert fallback.device == "GPU.0" and fallback.detail["seq"] == 1
    assert [(e.device, e.detail["reason"]) for e in events(core, "switch")] == [
        ("GPU.0", "compiled"), ("CPU", "runtime_fallback")]
    # the re-run waited for the CPU compile, then gave the same numbers as the others
    assert records[2].started >= [e for e in events(core, "compile_end") if e.device == "CPU"][-1].time
    reference = core.compile_model(small_cnn, "CPU").create_infer_request().infer({0: data})[0]
    for r in results:
        np.testing.assert_allclose(r, reference, rtol=1e-2, atol=1e-3)


def test_a14_many_requests_in_flight_none_lost(small_cnn):
    core = ovlab.Core("laptop")
    compiled = ready_auto(core, small_cnn, "AUTO:GPU(4),CPU")
    core.faults.fail_inference("GPU.0", nth=2, count=2)
    requests, errors = run(compiled, 12)
    assert errors == []
    ok = [r for r in core.trace if r.status == "ok"]
    assert sorted(r.seq for r in ok) == [r_seq for r_seq in range(12)]
    assert len([r for r in core.trace if r.status == "failed"]) == 2
    # only the first failure compiled a fallback device; the second reused it
    assert len(events(core, "fallback")) == 2
    assert len([e for e in events(core, "compile_start") if e.device == "CPU"]) == 2  # helper + fallback


def test_a14_fallback_off_the_error_reaches_the_caller(small_cnn):
    core = ovlab.Core("laptop")
    compiled = ready_auto(core, small_cnn, "AUTO", {
        props.intel_auto.enable_runtime_fallback: False})
    core.faults.fail_inference("GPU.0", nth=1)
    _, errors = run(compiled, 2)
    assert len(errors) == 1
    # wait() names its own line and the binding's, as the 2026.4.1 wheel does for a failed run
    assert errors[0].startswith("Exception from src/inference/src/cpp/infer_request.cpp:246:\n"
                                "Exception from src/bindings/python/src/pyopenvino/core/"
                                "infer_request.hpp:55:\nCaught exception: ")
    assert "[GPU] inference failed on GPU.0 (ovlab injected failure)" in errors[0]
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]
    assert not events(core, "fallback")


def test_a14_single_candidate_the_error_reaches_the_caller(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO:GPU")
    core.faults.fail_inference("GPU.0", nth=1)
    request = compiled.create_infer_request()
    with pytest.raises(RuntimeError, match="inference failed on GPU.0"):
        request.infer()
    request.infer()  # the request stays usable


def test_a14_failure_on_the_helper_waits_for_the_device(googlenet):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(googlenet, "AUTO")
    core.faults.fail_inference("CPU", nth=1)
    request = compiled.create_infer_request()
    request.start_async()
    request.wait()
    records = core.trace.inferences
    switch = events(core, "switch")[0].time
    assert [(r.device, r.status) for r in records] == [("CPU", "failed"), ("GPU.0", "ok")]
    assert records[1].started == pytest.approx(switch)  # held until the GPU was ready
    assert compiled._backend.schedule.devices[0].name == "GPU.0"  # CPU left the candidates


def test_a14_fallback_compile_failure_with_nothing_left(small_cnn):
    core = ovlab.Core("laptop")
    compiled = ready_auto(core, small_cnn, "AUTO:GPU.0,CPU", {"ENABLE_STARTUP_FALLBACK": False})
    core.faults.fail_inference("GPU.0", nth=1)
    core.faults.fail_compile("CPU")
    _, errors = run(compiled, 3)
    assert len(errors) == 1 and "inference failed on GPU.0" in errors[0]
    assert [e.device for e in events(core, "compile_failed")] == ["CPU"]


def test_a14_multi_gpu_fallback_goes_to_the_next_gpu(small_cnn):
    core = ovlab.Core("workstation")
    compiled = ready_auto(core, small_cnn, "AUTO:GPU.1,GPU.0,CPU")
    core.faults.fail_inference("GPU.1", nth=1)
    _, errors = run(compiled, 3)
    assert errors == []
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]
    selects = [(e.device, e.detail["reason"]) for e in events(core, "select")]
    assert selects[-1] == ("GPU.0", "runtime_fallback")


# --- A15: per-device configuration ----------------------------------------------------------------
def test_a15_device_properties_reach_only_their_device(small_cnn):
    core = ovlab.Core("laptop")
    gpu_config = {hint.performance_mode: hint.PerformanceMode.THROUGHPUT, props.streams.num: 4}
    cpu_config = {hint.performance_mode: hint.PerformanceMode.LATENCY,
                  props.enable_profiling: True}
    compiled = core.compile_model(small_cnn, "AUTO", {
        props.device.priorities: "GPU,CPU", hint.allow_auto_batching: False,
        props.device.properties: {"CPU": cpu_config, "GPU": gpu_config}})
    schedule = compiled._backend.schedule
    helper = schedule.helper.backend
    assert helper.get_property("PERF_COUNT") == "YES" and helper.get_property("NUM_STREAMS") == 1
    request = compiled.create_infer_request()
    request.infer()
    rows = request.get_profiling_info()
    assert any(r.status == ovlab.ProfilingInfo.Status.EXECUTED for r in rows)  # CPU counters
    core.clock.sleep(30)
    gpu = schedule.actual.backend
    assert gpu.get_property("PERFORMANCE_HINT") == "THROUGHPUT"
    assert gpu.get_property("NUM_STREAMS") == 4  # the GPU plugin keeps a user-set value
    assert gpu.get_property("PERF_COUNT") == "NO"
    request.infer()
    assert core.trace.inferences[-1].device == "GPU.0"
    assert all(r.status == ovlab.ProfilingInfo.Status.NOT_RUN for r in request.get_profiling_info())
    # AUTO's own hint stays the default, and the worker pool follows the GPU's 8 optimal requests
    assert compiled.get_property("PERFORMANCE_HINT") == hint.PerformanceMode.LATENCY
    assert schedule.actual.pool.size == gpu.optimal_requests() == 8


def test_a15_device_properties_with_device_id_key(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO:-CPU", {
        "DEVICE_PROPERTIES": {"GPU.0": {"PERFORMANCE_HINT": "THROUGHPUT",
                                        "ALLOW_AUTO_BATCHING": False}},
        "PERF_COUNT": True})
    gpu = compiled._backend.schedule.actual.backend
    assert gpu.get_property("PERFORMANCE_HINT") == "THROUGHPUT"
    assert gpu.get_property("PERF_COUNT") == "YES"  # a top-level key every device supports
    assert compiled.get_property("PERF_COUNT") is True


def test_a15_device_properties_in_multi(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "MULTI:GPU,CPU", {
        "ALLOW_AUTO_BATCHING": False,
        "DEVICE_PROPERTIES": {"CPU": {"NUM_STREAMS": 1}}})
    backends = {b.device: b for b in compiled._backend.schedule.compiled()}
    assert backends["CPU"].get_property("NUM_STREAMS") == 1
    assert backends["GPU.0"].get_property("PERFORMANCE_HINT") == "THROUGHPUT"
    assert compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 1 + 4
    assert set(compiled.get_property("DEVICE_PROPERTIES")) == {"GPU.0", "CPU"}


# --- the compiled model's properties -------------------------------------------------------------
def test_auto_compiled_properties_and_types(small_cnn):
    core = ovlab.Core("cpu")
    compiled = core.compile_model(small_cnn, "AUTO", {"PERF_COUNT": "YES", "MODEL_PRIORITY": "HIGH"})
    assert compiled.get_property("SUPPORTED_PROPERTIES") == {
        "NETWORK_NAME": "RO", "SUPPORTED_PROPERTIES": "RO", "EXECUTION_DEVICES": "RO",
        "PERFORMANCE_HINT": "RW", "OPTIMAL_NUMBER_OF_INFER_REQUESTS": "RO",
        "MULTI_DEVICE_PRIORITIES": "RW", "DEVICE_PROPERTIES": "RW", "MODEL_PRIORITY": "RW",
        "LOADED_FROM_CACHE": "RO", "PERF_COUNT": "RW"}
    assert compiled.get_property(props.execution_devices) == ["CPU"]
    assert compiled.get_property(hint.performance_mode) is hint.PerformanceMode.LATENCY
    assert compiled.get_property(props.enable_profiling) is True
    assert compiled.get_property(hint.model_priority) is hint.Priority.HIGH
    assert compiled.get_property("MULTI_DEVICE_PRIORITIES") == "CPU"
    assert compiled.get_property(props.model_name) == "small-cnn"
    assert compiled.get_property("LOADED_FROM_CACHE") is False
    assert compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 1
    cpu_props = compiled.get_property("DEVICE_PROPERTIES")["CPU"]
    assert cpu_props["PERF_COUNT"] == "YES" and cpu_props["NUM_STREAMS"] == 1
    for key in ("NUM_STREAMS", "ENABLE_STARTUP_FALLBACK", "ENABLE_RUNTIME_FALLBACK",
                "SCHEDULE_POLICY", "CACHE_DIR", "MODEL_NAME"):
        with pytest.raises(RuntimeError) as info:
            compiled.get_property(key)
        assert str(info.value) == (
            "Exception from src/inference/src/cpp/compiled_model.cpp:140:\n"
            "Exception from src/plugins/auto/src/auto_compiled_model.cpp:259:\n"
            f"AUTO: not supported property {key}\n\n")
    with pytest.raises(RuntimeError) as info:
        compiled.set_property({"PERF_COUNT": False})
    assert str(info.value) == (
        "Exception from src/inference/src/cpp/compiled_model.cpp:136:\n"
        "Exception from src/plugins/auto/src/auto_compiled_model.cpp:29:\n"
        "Not Implemented:\nIt's not possible to set property of an already compiled model. "
        "Set property to Core::compile_model during compilation\n\n")


def test_auto_profiling_rows_come_from_the_device(small_cnn):
    core = ovlab.Core("cpu")
    auto = core.compile_model(small_cnn, "AUTO", {"PERF_COUNT": True})
    cpu = core.compile_model(small_cnn, "CPU", {"PERF_COUNT": True})
    rows_auto = auto.create_infer_request()
    rows_auto.infer()
    rows_cpu = cpu.create_infer_request()
    rows_cpu.infer()
    a, c = rows_auto.get_profiling_info(), rows_cpu.get_profiling_info()
    assert [(r.node_name, r.node_type, r.status) for r in a] == [
        (r.node_name, r.node_type, r.status) for r in c]


def test_auto_outputs_match_the_device(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO")
    data = np.linspace(-1, 1, 3 * 32 * 32, dtype=np.float32).reshape(1, 3, 32, 32)
    on_helper = compiled(data)[0]
    core.clock.sleep(30)
    on_gpu = compiled(data)[0]
    assert core.trace.inferences[0].device == "CPU" and core.trace.inferences[-1].device == "GPU.0"
    reference = core.compile_model(small_cnn, "CPU")(data)[0]
    np.testing.assert_allclose(on_helper, reference, rtol=1e-5)
    np.testing.assert_allclose(on_gpu, reference, rtol=1e-2, atol=1e-3)  # f16 on the iGPU
