"""Resource-aware AUTO (2026): per-inference selection from utilization (claims N04-N13).

The schedule rules are those of the unit test ``AutoDynamicDeviceSelectionTest`` of the OpenVINO
AUTO plugin (2026); the selection rules those of PRs #36745, #37196, #37384 and #37909.
"""

import numpy as np
import pytest

import ovlab
from ovlab import zoo
from ovlab.properties import intel_auto
from ovlab.sim.graph import Model
from ovlab.sim.graph.node import Node, OpDef
from ovlab.sim.plugins.auto.dynamic import (
    DynamicSchedule,
    SelectionPolicy,
    interpolate,
    select_device,
    threshold_of,
)
from ovlab.sim.plugins.auto.schedule import AutoSchedule
from ovlab.sim.workloads import BackgroundLoad

PLATFORM = "core-ultra-7-165h"
THRESHOLD = {intel_auto.devices_utilization_threshold: {"GPU": 60}}


@pytest.fixture
def aipc():
    return ovlab.Core(PLATFORM, seed=0)


@pytest.fixture(scope="module")
def cnn():
    return zoo.load("googlenet-v1", "FP16")


@pytest.fixture(scope="module")
def load_model():
    return zoo.load("small-cnn")  # another application's model (its own name)


def auto_records(core, compiled, since=0.0):
    name = compiled.get_property("NETWORK_NAME")
    return [r for r in core.trace.inferences if r.model == name and r.submitted >= since
            and r.worker.endswith(":0")]


def paced(core, compiled, seconds, interval=0.033, jobs=1):
    """An application submitting every ``interval`` s for ``seconds`` through ``jobs`` requests."""
    queue = ovlab.AsyncInferQueue(compiled, jobs)
    end = core.clock.now + seconds
    while core.clock.now < end:
        queue.start_async()
        core.clock.sleep(interval)
    queue.wait_all()


# --- N04: the properties ------------------------------------------------------------------------
def test_n04_auto_lists_the_three_properties_with_the_measured_defaults(aipc):
    supported = aipc.get_property("AUTO", "SUPPORTED_PROPERTIES")
    for key in ("DEVICES_UTILIZATION_THRESHOLD", "PERF_CURVE_TABLE", "LOW_POWER_DEVICE"):
        assert supported[key] == "RW"
        assert key not in aipc.get_property("MULTI", "SUPPORTED_PROPERTIES")
    assert aipc.get_property("AUTO", intel_auto.devices_utilization_threshold) == {}
    assert aipc.get_property("AUTO", intel_auto.perf_curve_table) == {}
    assert aipc.get_property("AUTO", intel_auto.low_power_device) == ""
    assert intel_auto.perf_curve_table({"CPU": {0: 1.0}}) == ("PERF_CURVE_TABLE", {"CPU": {0: 1.0}})


def test_n04_set_values_read_back_as_std_maps_do(aipc):
    aipc.set_property("AUTO", {intel_auto.devices_utilization_threshold: {"GPU": 55, "CPU": 78}})
    assert list(aipc.get_property("AUTO", "DEVICES_UTILIZATION_THRESHOLD").items()) == [
        ("CPU", 78), ("GPU", 55)]  # sorted by key, as measured
    aipc.set_property("AUTO", {intel_auto.perf_curve_table: {"iGPU": {50: 2, 0: 1}, "CPU": {0: 3}}})
    table = aipc.get_property("AUTO", "PERF_CURVE_TABLE")
    assert table == {"CPU": {0: 3.0}, "iGPU": {0: 1.0, 50: 2.0}}
    assert list(table) == ["CPU", "iGPU"] and isinstance(table["CPU"][0], float)
    aipc.set_property("AUTO", {intel_auto.low_power_device: 5})
    assert aipc.get_property("AUTO", "LOW_POWER_DEVICE") == 5  # any value, kept as given


# --- N05: bad values --------------------------------------------------------------------------
def _error(fn) -> str:
    with pytest.raises(RuntimeError) as info:
        fn()
    return str(info.value)


@pytest.mark.parametrize("value, text", [
    ({"GPU": 55.5}, "Exception from src/bindings/python/src/pyopenvino/utils/utils.cpp:356:\n"
                    "The value type of DEVICES_UTILIZATION_THRESHOLD should be dict[str, int in "
                    "[0, 100]] with integer values\n"),
    ({"GPU": 101}, "Exception from src/bindings/python/src/pyopenvino/utils/utils.cpp:363:\n"
                   "The value type of DEVICES_UTILIZATION_THRESHOLD should be dict[str, int in "
                   "[0, 100]]\n"),
    ({5: 50}, "Exception from src/bindings/python/src/pyopenvino/utils/utils.cpp:351:\n"
              "The key type of DEVICES_UTILIZATION_THRESHOLD should be dict[str, int in [0, 100]] "
              "with string keys\n"),
])
def test_n05_threshold_values_are_checked_by_the_binding(aipc, small_cnn, value, text):
    assert _error(lambda: aipc.compile_model(small_cnn, "AUTO", {
        "DEVICES_UTILIZATION_THRESHOLD": value})) == text
    assert _error(lambda: aipc.set_property("AUTO", {
        "DEVICES_UTILIZATION_THRESHOLD": value})) == text


@pytest.mark.parametrize("key, value, shown", [
    ("DEVICES_UTILIZATION_THRESHOLD", "GPU:50", "GPU:50"),
    ("DEVICES_UTILIZATION_THRESHOLD", [1, 2], "1 2"),
    ("PERF_CURVE_TABLE", {"GPU": {0: 1.0}}, "{GPU:{0:1}}"),  # an unknown device key
    ("PERF_CURVE_TABLE", {"CPU": {}}, "{CPU:}"),  # a curve without points
    ("PERF_CURVE_TABLE", {"CPU": {0: 1.0}, "NPU": {}}, "{CPU:{0:1},NPU:}"),
    ("PERF_CURVE_TABLE", {"CPU": {150: 1.5}}, "{CPU:{150:1.5}}"),  # utilization beyond 100
    ("PERF_CURVE_TABLE", {"CPU": {0: -1.0}}, "{CPU:{0:-1}}"),  # a negative score
    ("PERF_CURVE_TABLE", "abc", "abc"),
])
def test_n05_auto_validator_errors(aipc, small_cnn, key, value, shown):
    compile_text = _error(lambda: aipc.compile_model(small_cnn, "AUTO", {key: value}))
    assert compile_text == (
        "Exception from src/inference/src/cpp/core.cpp:117:\n"
        "Exception from src/inference/src/dev/plugin.cpp:54:\n"
        "Check 'property_validators.at(name)->is_valid(val)' failed at "
        f"src/plugins/auto/src/plugin_config.cpp:102:\nInvalid value for property {key}: {shown}"
        "\n\n\n")
    set_text = _error(lambda: aipc.set_property("AUTO", {key: value}))
    assert "plugin_config.cpp:54:\n" in set_text and set_text.startswith(
        "Exception from src/inference/src/cpp/core.cpp:264:\n")


@pytest.mark.parametrize("value", [{"CPU": {50.5: 1.0}}, {"CPU": {"a": 1.0}}, {"CPU": {-5: 1.0}},
                                   {"CPU": {0: "x"}}, {"CPU": [1, 2]}, {5: {0: 1.0}}])
def test_n05_curve_tables_that_do_not_cast(aipc, small_cnn, value):
    assert _error(lambda: aipc.compile_model(small_cnn, "AUTO", {"PERF_CURVE_TABLE": value})) == (
        "Unable to cast Python instance of type <class 'dict'> to C++ type '?' (#define "
        "PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug mode for details)")


def test_n05_low_power_device_takes_anything(aipc, small_cnn):
    for value in ("NPU", "FOO", "", 5, None, ["NPU"]):
        aipc.compile_model(small_cnn, "AUTO", {"LOW_POWER_DEVICE": value})


# --- N06 / N07: the schedule ---------------------------------------------------------------------
def test_n06_any_property_switches_to_per_inference_selection(cnn):
    for config in (THRESHOLD, {intel_auto.perf_curve_table: {"iGPU": {0: 1.0, 100: 5.0}}},
                   {intel_auto.low_power_device: "CPU"}):
        core = ovlab.Core(PLATFORM, seed=0)
        compiled = core.compile_model(cnn, "AUTO:GPU,CPU", config)
        assert isinstance(compiled._backend.schedule, DynamicSchedule), config
    classic = ovlab.Core(PLATFORM, seed=0).compile_model(cnn, "AUTO:GPU,CPU", {
        intel_auto.devices_utilization_threshold: {}, intel_auto.low_power_device: ""})
    assert isinstance(classic._backend.schedule, AutoSchedule)  # empty values change nothing


def test_n06_reselected_every_inference_serialized_one_worker(aipc, cnn):
    compiled = aipc.compile_model(cnn, "AUTO:GPU,NPU,CPU", THRESHOLD)
    schedule = compiled._backend.schedule
    assert schedule.selections == 1  # while compiling
    assert compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 1
    queue = ovlab.AsyncInferQueue(compiled, 4)  # 4 requests in flight, 100 inferences
    for _ in range(100):
        queue.start_async()
    queue.wait_all()
    records = sorted(auto_records(aipc, compiled), key=lambda r: r.started)
    assert len(records) == 100 and schedule.selections == 1 + 100
    # one at a time: each starts after the previous one finished
    assert all(b.started >= a.finished for a, b in zip(records, records[1:], strict=False))
    assert {r.worker for r in records} == {"GPU.0:0"}  # one worker on the device
    assert all(slot.pool is None or slot.pool.size == 1 for slot in schedule.slots.values())


def test_n06_classic_auto_keeps_more_workers_and_overlaps(aipc, cnn):
    compiled = aipc.compile_model(cnn, "AUTO:GPU,CPU", {"PERFORMANCE_HINT": "THROUGHPUT",
                                                        "ALLOW_AUTO_BATCHING": False})
    aipc.clock.sleep(10)  # past the GPU compile
    queue = ovlab.AsyncInferQueue(compiled, 4)
    for _ in range(40):
        queue.start_async()
    queue.wait_all()
    records = sorted([r for r in aipc.trace.inferences if r.device == "GPU.0"],
                     key=lambda r: r.started)
    assert len({r.worker for r in records}) > 1
    assert any(b.started < a.finished for a, b in zip(records, records[1:], strict=False))


def _compiles(core, name):
    return [e.device for e in core.trace.events if e.kind == "compile_start" and e.model == name]


def test_n07_staying_never_recompiles_and_switching_compiles_each_device_once(aipc, cnn,
                                                                             load_model):
    compiled = aipc.compile_model(cnn, "AUTO:GPU,NPU,CPU", THRESHOLD)
    paced(aipc, compiled, 1.0)
    assert _compiles(aipc, cnn.get_friendly_name()) == ["GPU.0"]  # staying on the GPU
    load = BackgroundLoad(aipc, "GPU", 0.9, load_model)
    for _ in range(2):  # the load comes and goes twice: GPU -> NPU -> GPU -> NPU -> GPU
        start = aipc.clock.now
        load.run(start=start, stop=start + 2.0)
        paced(aipc, compiled, 5.0)
    devices = [r.device for r in sorted(auto_records(aipc, compiled), key=lambda r: r.seq)]
    moves = [d for i, d in enumerate(devices) if i == 0 or d != devices[i - 1]]
    assert moves == ["GPU.0", "NPU", "GPU.0", "NPU", "GPU.0"]
    assert _compiles(aipc, cnn.get_friendly_name()) == ["GPU.0", "NPU"]  # once each
    assert not [e for e in aipc.trace.events if e.kind == "helper_released"]  # no CPU helper


# --- N08 / N09: thresholds and utilization -------------------------------------------------------
def test_n08_threshold_keys_exact_then_base_then_gpu_type(aipc):
    assert threshold_of(aipc, "GPU.0", {"GPU.0": 10, "GPU": 20, "iGPU": 30}) == 10
    assert threshold_of(aipc, "GPU.0", {"GPU": 20, "iGPU": 30}) == 20
    assert threshold_of(aipc, "GPU.0", {"iGPU": 30, "dGPU": 40}) == 30
    assert threshold_of(aipc, "GPU.0", {"dGPU": 40}) is None
    assert threshold_of(aipc, "NPU", {"NPU": 5}) == 5
    multi = ovlab.Core("multi-gpu")
    assert threshold_of(multi, "GPU.2", {"dGPU": 40, "iGPU": 30}) == 40


def test_n08_over_threshold_moves_on_all_over_keeps_the_first(aipc, cnn, load_model):
    compiled = aipc.compile_model(cnn, "AUTO:GPU,NPU,CPU", {
        intel_auto.devices_utilization_threshold: {"GPU": 30, "NPU": 30, "CPU": 30}})
    ordered = compiled._backend.schedule._ordered()
    policy = compiled._backend.schedule.policy
    assert select_device(aipc, ordered, policy) == (ordered[0], "priority")
    loads = [BackgroundLoad(aipc, dev, 0.9, load_model) for dev in ("GPU", "NPU")]
    for load in loads:
        load.run()
    aipc.clock.sleep(1.5)
    chosen, reason = select_device(aipc, ordered, policy)
    assert (chosen.name, reason) == ("CPU", "threshold")
    cpu_load = BackgroundLoad(aipc, "CPU", 0.9, load_model).run()
    aipc.clock.sleep(1.5)
    chosen, reason = select_device(aipc, ordered, policy)
    assert (chosen.name, reason) == ("GPU.0", "all_over_threshold")  # the highest priority
    for load in (*loads, cpu_load):
        load.stop()


def test_n09_another_programs_gpu_load_moves_auto_and_back(aipc, cnn, load_model):
    compiled = aipc.compile_model(cnn, "AUTO:GPU,CPU", THRESHOLD)
    load = BackgroundLoad(aipc, "GPU", 0.85, load_model)
    start = aipc.clock.now
    load.run(start=start + 1.0, stop=start + 3.0)
    paced(aipc, compiled, 5.0)
    records = auto_records(aipc, compiled, start)
    def where(t0, t1):
        return {r.device for r in records if t0 <= r.submitted - start < t1}
    assert where(0.0, 1.0) == {"GPU.0"}
    assert where(2.0, 3.0) == {"CPU"}  # the GPU's reading is over 60 %
    assert where(4.5, 5.0) == {"GPU.0"}  # the load stopped, the reading fell
    switch = [e for e in aipc.trace.events if e.kind == "switch" and e.device == "CPU"][0]
    assert switch.detail["utilization"]["GPU.0"] > 60 and switch.detail["reason"] == "threshold"
    assert 1.0 < switch.time - start < 2.0  # once the 1 s reading window has filled enough


def test_n09_utilization_is_the_busy_fraction_of_the_device(aipc, load_model):
    load = BackgroundLoad(aipc, "NPU", 0.4, load_model).run()
    aipc.clock.sleep(3.0)
    assert aipc.utilization("NPU") == pytest.approx(40, abs=3)
    load.set_fraction(1.0)
    aipc.clock.sleep(2.0)
    assert aipc.utilization("NPU", window=1.0) == pytest.approx(100, abs=1)
    load.stop()
    aipc.clock.sleep(2.0)
    assert aipc.utilization("NPU") == 0.0 and aipc.utilization("GPU") == 0.0
    with pytest.raises(ValueError, match="hardware device"):
        aipc.utilization("AUTO")


# --- N10 / N11: curves and low power -------------------------------------------------------------
def test_n10_curve_interpolation():
    curve = {0: 1.0, 50: 2.0, 100: 6.0}
    assert interpolate(curve, 0) == 1.0 and interpolate(curve, 25) == 1.5
    assert interpolate(curve, 75) == 4.0 and interpolate(curve, 120) == 6.0
    assert interpolate({40: 3.0}, 10) == 3.0


def test_n10_perf_curve_ranks_by_score_at_the_current_utilization(aipc, cnn, load_model):
    curves = {"iGPU": {0: 1.0, 100: 5.0}, "CPU": {0: 3.0, 100: 6.0}}
    compiled = aipc.compile_model(cnn, "AUTO:GPU,CPU", {intel_auto.perf_curve_table: curves})
    ordered = compiled._backend.schedule._ordered()
    policy = SelectionPolicy(curves=curves)
    assert select_device(aipc, ordered, policy)[0].name == "GPU.0"  # 1.0 < 3.0
    BackgroundLoad(aipc, "GPU", 0.8, load_model).run()
    aipc.clock.sleep(2.0)
    chosen, reason = select_device(aipc, ordered, policy)  # iGPU 1 + 4 x 0.8 = 4.2 > 3.0
    assert (chosen.name, reason) == ("CPU", "curve")
    # a device without a curve comes after the scored ones
    only_cpu = SelectionPolicy(curves={"CPU": {0: 3.0}})
    assert select_device(aipc, ordered, only_cpu)[0].name == "CPU"


def test_n11_low_power_device_wins_in_low_power_mode_only(cnn, load_model):
    for mode, expected in [("performance", {"GPU.0"}), ("low_power", {"NPU"})]:
        core = ovlab.Core(PLATFORM, seed=0)
        core.platform.set_power_mode(mode)
        compiled = core.compile_model(cnn, "AUTO:GPU,NPU,CPU", {
            intel_auto.low_power_device: "NPU",
            intel_auto.devices_utilization_threshold: {"NPU": 0}})  # the NPU is "too busy"
        paced(core, compiled, 0.5)
        assert {r.device for r in auto_records(core, compiled)} == expected, mode


def test_n11_low_power_device_matches_a_base_name_and_ignores_absent_devices(aipc):
    compiled_devices = [d for d in ovlab.Core(PLATFORM).compile_model(
        zoo.load("small-cnn"), "AUTO:GPU,CPU", THRESHOLD)._backend.schedule._ordered()]
    aipc.platform.set_power_mode("low_power")
    assert select_device(aipc, compiled_devices, SelectionPolicy(
        low_power_device="GPU"))[0].name == "GPU.0"  # base name
    assert select_device(aipc, compiled_devices, SelectionPolicy(
        low_power_device="CPU.5"))[0].name == "CPU"
    assert select_device(aipc, compiled_devices, SelectionPolicy(
        low_power_device="NPU"))[1] == "priority"  # not a candidate: no effect


# --- N12 / N13: failures and the classic schedule ------------------------------------------------
def test_n12_compile_failure_falls_back_and_releases_the_cpu(cnn, load_model):
    core = ovlab.Core(PLATFORM, seed=0)
    compiled = core.compile_model(cnn, "AUTO:GPU,NPU,CPU",
                                  {**THRESHOLD, "MODEL_PRIORITY": "HIGH"})
    registry = compiled._backend.schedule.registry
    core.faults.fail_compile("NPU")
    BackgroundLoad(core, "GPU", 0.9, load_model).run()
    paced(core, compiled, 3.0)
    records = auto_records(core, compiled)
    assert {r.device for r in records} == {"GPU.0", "CPU"}
    assert all(r.status == "ok" for r in records)
    assert [e.device for e in core.trace.events if e.kind == "compile_failed"] == ["NPU"]
    # the CPU's registration under this HIGH model was released: a LOW model may still take it
    assert not any("CPU" in name for name in registry.by_rank.get(0, []))
    assert any(name.startswith("Intel(R) Arc") for name in registry.by_rank.get(0, []))


def test_n12_when_no_device_compiles_the_inference_gets_the_error(cnn):
    core = ovlab.Core(PLATFORM, seed=0)
    compiled = core.compile_model(cnn, "AUTO:GPU,CPU", {intel_auto.low_power_device: "CPU"})
    core.platform.set_power_mode("low_power")
    core.faults.fail_compile("CPU")
    request = compiled.create_infer_request()
    with pytest.raises(RuntimeError, match=r"\[AUTO\] compile model failed, CPU:"):
        request.infer()
    core.platform.set_power_mode("performance")
    request.start_async()
    request.wait()  # the GPU still serves: nothing is lost
    assert auto_records(core, compiled)[-1].device == "GPU.0"


def test_n12_runtime_fallback_reruns_on_another_device(cnn):
    core = ovlab.Core(PLATFORM, seed=0)
    compiled = core.compile_model(cnn, "AUTO:GPU,CPU", THRESHOLD)
    core.faults.fail_inference("GPU.0", nth=3)
    paced(core, compiled, 0.5)
    records = auto_records(core, compiled)
    failed = [r for r in records if r.status == "failed"]
    assert len(failed) == 1 and failed[0].device == "GPU.0"
    rerun = [r for r in records if r.seq == failed[0].seq and r.status == "ok"]
    assert [r.device for r in rerun] == ["CPU"]
    assert records[-1].device == "CPU"  # the GPU left the candidates


def _stateful_model():
    """A model with a ReadValue op (built from an OpDef: the stateful check reads type names)."""
    from ovlab import opset

    read_value = OpDef("ReadValue", "opset6", infer=lambda n: [(n._in_shape(0), n._in_type(0))],
                       compute=lambda n, xs, ctx: [xs[0]])
    x = opset.parameter([1, 8], np.float32, name="x")
    state = Node(read_value, [x.output(0)], {}, "state")
    return Model([opset.result(opset.relu(state, name="relu"), name="out")], [x], "stateful")


def test_n13_stateful_single_device_and_ctput_keep_the_classic_schedule(aipc, small_cnn):
    stateful = aipc.compile_model(_stateful_model(), "AUTO:GPU,CPU", THRESHOLD)
    assert isinstance(stateful._backend.schedule, AutoSchedule)
    single = aipc.compile_model(small_cnn, "AUTO:CPU", THRESHOLD)
    assert single._backend.schedule.passthrough
    ctput = aipc.compile_model(small_cnn, "AUTO:GPU,CPU", {
        **THRESHOLD, "PERFORMANCE_HINT": "CUMULATIVE_THROUGHPUT"})
    assert type(ctput._backend).__name__ == "CumulativeBackend"
    multi = aipc.compile_model(small_cnn, "MULTI:GPU,CPU", {"LOW_POWER_DEVICE": "CPU"})
    assert type(multi._backend).__name__ == "CumulativeBackend"


def test_n06_execution_devices_follow_the_latest_selection(aipc, cnn, load_model):
    compiled = aipc.compile_model(cnn, "AUTO:GPU,CPU", THRESHOLD)
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]
    BackgroundLoad(aipc, "GPU", 0.9, load_model).run()
    paced(aipc, compiled, 2.0)
    assert compiled.get_property("EXECUTION_DEVICES") == ["CPU"]
    assert compiled.get_property("NETWORK_NAME") == cnn.get_friendly_name()
    assert compiled.get_property("PERFORMANCE_HINT") == ovlab.properties.hint.PerformanceMode.LATENCY
    assert "CPU" in compiled.get_property("DEVICE_PROPERTIES")
    with pytest.raises(RuntimeError, match="AUTO: not supported property NUM_STREAMS"):
        compiled.get_property("NUM_STREAMS")
