"""MULTI is deprecated: AUTO with CUMULATIVE_THROUGHPUT is its twin (claim N25, lab 06).

The docs' Multi-Device page carries a "deprecated ... use the CUMULATIVE_THROUGHPUT option
instead" box; in the AUTO source MULTI is the cumulative scheduler. Each MULTI call of lab 06 has
an AUTO twin; they must place every inference alike.
"""

import pytest

import ovlab
from ovlab.properties import hint, intel_auto

NO_BATCH = {hint.allow_auto_batching: False}
CTPUT = {hint.performance_mode: hint.PerformanceMode.CUMULATIVE_THROUGHPUT, **NO_BATCH}


def run(platform, name, config, n=60, interval=0.002):
    core = ovlab.Core(platform, seed=0)
    compiled = core.compile_model(ovlab.zoo.load("googlenet-v1"), name, config)
    queue = ovlab.AsyncInferQueue(compiled)
    for _ in range(n):
        queue.start_async()
        core.clock.sleep(interval)
    queue.wait_all()
    placement = [(r.seq, r.device, r.worker, round(r.latency, 9)) for r in core.trace.inferences]
    return compiled, placement


@pytest.mark.parametrize("platform, devices, policy", [
    ("multi-gpu", "GPU.0,GPU.1,GPU.2", "DEVICE_PRIORITY"),
    ("multi-gpu", "GPU.0,GPU.1,GPU.2", "ROUND_ROBIN"),
    ("multi-gpu", "GPU.0,GPU.1,GPU.2,CPU", "DEVICE_PRIORITY"),
    ("laptop", "GPU,CPU", "DEVICE_PRIORITY"),
])
def test_n25_auto_ctput_is_multis_twin(platform, devices, policy):
    policy_cfg = {intel_auto.schedule_policy: policy}
    multi, multi_runs = run(platform, f"MULTI:{devices}", {**NO_BATCH, **policy_cfg})
    auto, auto_runs = run(platform, f"AUTO:{devices}", {**CTPUT, **policy_cfg})
    assert multi_runs == auto_runs  # the same device, worker and latency for every inference
    for key in ("EXECUTION_DEVICES", "OPTIMAL_NUMBER_OF_INFER_REQUESTS", "SCHEDULE_POLICY",
                "MULTI_DEVICE_PRIORITIES"):
        assert multi.get_property(key) == auto.get_property(key), key
    # only the hint they report tells them apart
    assert multi.get_property("PERFORMANCE_HINT") == hint.PerformanceMode.THROUGHPUT
    assert auto.get_property("PERFORMANCE_HINT") == hint.PerformanceMode.CUMULATIVE_THROUGHPUT


def test_n25_multi_with_a_hint_is_auto_with_device_properties():
    latency = {**NO_BATCH, hint.performance_mode: "LATENCY"}
    multi, multi_runs = run("multi-gpu", "MULTI:GPU.0,GPU.1,GPU.2", latency)
    twin = {**CTPUT, "DEVICE_PROPERTIES": {"GPU": {"PERFORMANCE_HINT": "LATENCY"}}}
    auto, auto_runs = run("multi-gpu", "AUTO:GPU.0,GPU.1,GPU.2", twin)
    assert multi.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 3
    assert multi_runs == auto_runs
    plain, plain_runs = run("multi-gpu", "AUTO:GPU.0,GPU.1,GPU.2", CTPUT)
    assert plain.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 12  # CTPUT gives THROUGHPUT
    assert plain_runs != multi_runs
