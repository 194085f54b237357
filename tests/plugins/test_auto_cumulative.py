"""CUMULATIVE_THROUGHPUT and MULTI: all devices at once, DEVICE_PRIORITY and ROUND_ROBIN."""

import pytest

import ovlab
from ovlab.properties import hint, intel_auto

NO_BATCH = {"ALLOW_AUTO_BATCHING": False}
CTPUT = {"PERFORMANCE_HINT": "CUMULATIVE_THROUGHPUT", **NO_BATCH}


def burst(core, compiled, n):
    """``n`` inferences submitted at the same instant; returns the records in submission order."""
    requests = [compiled.create_infer_request() for _ in range(n)]
    for r in requests:
        r.start_async()
    for r in requests:
        r.wait()
    return sorted(core.trace, key=lambda r: r.seq)


def devices_of(records):
    return [r.worker.split(":")[0] for r in records]


# --- A10 ----------------------------------------------------------------------------------------
def test_a10_ctput_compiles_every_device_before_returning(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO:GPU,CPU", CTPUT)
    ends = {e.device: e.time for e in core.trace.events if e.kind == "compile_end"}
    starts = {e.device: e.time for e in core.trace.events if e.kind == "compile_start"}
    assert set(ends) == {"GPU.0", "CPU"}
    assert starts["CPU"] == pytest.approx(ends["GPU.0"])  # non-CPU devices first, CPU last
    assert core.clock.now == pytest.approx(ends["CPU"])
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0", "CPU"]
    per_device = [b.optimal_requests() for b in compiled._backend.schedule.compiled()]
    assert compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == sum(per_device) == 4 + 4
    assert compiled.get_property("SCHEDULE_POLICY") == intel_auto.SchedulePolicy.DEVICE_PRIORITY


def test_a10_device_priority_fills_the_first_device_first(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO:GPU,CPU", CTPUT)
    records = burst(core, compiled, 10)
    assert devices_of(records[:8]) == ["GPU.0"] * 4 + ["CPU"] * 4
    # the two extra ones waited in the queue for the first completions
    finishes = sorted(r.finished for r in records[:8])
    assert records[8].started == pytest.approx(finishes[0])
    assert records[8].started > records[8].submitted
    assert records[9].started == pytest.approx(finishes[1])


def test_a10_round_robin_rotates(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO:GPU,CPU", {
        **CTPUT, intel_auto.schedule_policy: intel_auto.SchedulePolicy.ROUND_ROBIN})
    assert compiled.get_property("SCHEDULE_POLICY") == intel_auto.SchedulePolicy.ROUND_ROBIN
    assert devices_of(burst(core, compiled, 6)) == ["GPU.0", "CPU"] * 3


@pytest.mark.parametrize("device, policy, expected", [
    ("MULTI:GPU.0(3),GPU.1(2)", "DEVICE_PRIORITY", ["GPU.0"] * 3 + ["GPU.1"] * 2),
    ("MULTI:GPU.0(3),GPU.1(2)", "ROUND_ROBIN", ["GPU.0", "GPU.1", "GPU.0", "GPU.1", "GPU.0"]),
    ("MULTI:GPU.0(1),GPU.1(2),GPU.2(3)", "ROUND_ROBIN",
     ["GPU.0", "GPU.1", "GPU.2", "GPU.1", "GPU.2", "GPU.2"]),
])
def test_a10_schedule_policy_vectors_of_the_source(device, policy, expected, small_cnn):
    """``infer_request_schedule_policy_test.cpp``: the RR cursor advances even past busy devices."""
    core = ovlab.Core("multi-gpu")
    compiled = core.compile_model(small_cnn, device, {"SCHEDULE_POLICY": policy, **NO_BATCH})
    assert devices_of(burst(core, compiled, len(expected))) == expected


def test_a10_multi_behaves_like_ctput_and_reports_throughput(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "MULTI:GPU,CPU", NO_BATCH)
    assert compiled.get_property("PERFORMANCE_HINT") == hint.PerformanceMode.THROUGHPUT
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0", "CPU"]
    assert compiled.get_property("MULTI_DEVICE_PRIORITIES") == "GPU.0,CPU"
    assert devices_of(burst(core, compiled, 8)) == ["GPU.0"] * 4 + ["CPU"] * 4
    for backend in compiled._backend.schedule.compiled():
        assert backend.get_property("PERFORMANCE_HINT") == "THROUGHPUT"  # MULTI's default
    latency = core.compile_model(small_cnn, "MULTI:GPU,CPU", {"PERFORMANCE_HINT": "LATENCY"})
    assert latency.get_property("PERFORMANCE_HINT") == hint.PerformanceMode.THROUGHPUT
    assert latency.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 2  # 1 per device


def test_a10_plain_auto_ctput_puts_cpu_first(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO", CTPUT)
    assert compiled.get_property("MULTI_DEVICE_PRIORITIES") == "CPU,GPU.0"
    assert compiled.get_property("EXECUTION_DEVICES") == ["CPU", "GPU.0"]
    assert devices_of(burst(core, compiled, 4)) == ["CPU"] * 4


def test_a10_several_gpus_with_plain_auto_are_all_used(googlenet):
    core = ovlab.Core("multi-gpu")
    compiled = core.compile_model(googlenet, "AUTO", CTPUT)
    assert compiled.get_property("EXECUTION_DEVICES") == ["CPU", "GPU.0", "GPU.1", "GPU.2"]
    n = compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS")
    queue = ovlab.AsyncInferQueue(compiled, n)
    for _ in range(4 * n):
        queue.start_async()
    queue.wait_all()
    assert {r.device for r in core.trace} == {"CPU", "GPU.0", "GPU.1", "GPU.2"}


def test_a10_schedule_policy_readable_only_in_cumulative_mode(small_cnn):
    core = ovlab.Core("cpu")
    auto = core.compile_model(small_cnn, "AUTO", {"SCHEDULE_POLICY": "ROUND_ROBIN"})
    with pytest.raises(RuntimeError, match="AUTO: not supported property SCHEDULE_POLICY"):
        auto.get_property("SCHEDULE_POLICY")
    ctput = core.compile_model(small_cnn, "AUTO", {"PERFORMANCE_HINT": "CUMULATIVE_THROUGHPUT"})
    assert ctput.get_property("SCHEDULE_POLICY") == intel_auto.SchedulePolicy.DEVICE_PRIORITY
    assert sorted(ctput.get_property("SUPPORTED_PROPERTIES")) == [
        "DEVICE_PROPERTIES", "EXECUTION_DEVICES", "LOADED_FROM_CACHE", "MODEL_PRIORITY",
        "MULTI_DEVICE_PRIORITIES", "NETWORK_NAME", "OPTIMAL_NUMBER_OF_INFER_REQUESTS",
        "PERFORMANCE_HINT", "PERF_COUNT", "SCHEDULE_POLICY", "SUPPORTED_PROPERTIES"]
    assert ctput.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 2


def test_a10_cumulative_compile_failures(small_cnn):
    core = ovlab.Core("laptop")
    core.faults.fail_compile("GPU.0")
    compiled = core.compile_model(small_cnn, "MULTI:GPU,CPU", NO_BATCH)
    assert compiled.get_property("EXECUTION_DEVICES") == ["CPU"]
    core.faults.fail_compile("GPU.0")
    core.faults.fail_compile("CPU")
    with pytest.raises(RuntimeError) as info:
        core.compile_model(small_cnn, "MULTI:GPU,CPU", NO_BATCH)
    text = str(info.value)
    assert "Exception from src/plugins/auto/src/cumulative_schedule.cpp:222:\n" in text
    assert "[MULTI] compile model failed, GPU.0:" in text and "; CPU:Exception" in text


def test_a10_multi_errors_use_multi(small_cnn):
    core = ovlab.Core("cpu")
    compiled = core.compile_model(small_cnn, "MULTI:CPU")
    with pytest.raises(RuntimeError) as info:
        compiled.get_property("NUM_STREAMS")
    assert str(info.value) == (
        "Exception from src/inference/src/cpp/compiled_model.cpp:140:\n"
        "Exception from src/plugins/auto/src/cumulative_compiled_model.cpp:136:\n"
        "MULTI: not supported property NUM_STREAMS\n\n")
    with pytest.raises(RuntimeError, match="It's not possible to set property"):
        compiled.set_property({"PERF_COUNT": True})


def test_a10_cumulative_runtime_fallback_drops_the_device(small_cnn):
    core = ovlab.Core("laptop")
    compiled = core.compile_model(small_cnn, "AUTO:GPU,CPU", CTPUT)
    core.faults.fail_inference("GPU.0", nth=2)
    records = burst(core, compiled, 6)
    assert compiled.get_property("EXECUTION_DEVICES") == ["CPU"]
    ok = [r for r in records if r.status == "ok"]
    assert sorted(r.seq for r in ok) == list(range(6))
    failed = [r for r in records if r.status == "failed"]
    assert len(failed) == 1 and failed[0].device == "GPU.0"
    assert [r.device for r in ok if r.seq == failed[0].seq] == ["CPU"]
    assert [e.device for e in core.trace.events if e.kind == "fallback"] == ["GPU.0"]
