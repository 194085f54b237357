"""A platform's shared power budget (issue 13): CPU and iGPU slow each other while both are busy."""

from __future__ import annotations

import pytest

import ovlab
from ovlab import zoo
from ovlab.sim.hardware.power import PowerBudget


def _run_both(platform, n=40):
    """Keep the CPU and the GPU busy with one request each; return their mean latencies (ms)."""
    core = ovlab.Core(platform, seed=0)
    model = zoo.load("resnet-50", "INT8")
    cfg = {"PERFORMANCE_HINT": "LATENCY", "ALLOW_AUTO_BATCHING": False}
    cpu = core.compile_model(model, "CPU", cfg).create_infer_request()
    gpu = core.compile_model(model, "GPU", cfg).create_infer_request()
    lat = {"CPU": [], "GPU": []}
    for _ in range(n):
        cpu.start_async()
        gpu.start_async()
        cpu.wait()
        gpu.wait()
        lat["CPU"].append(cpu.latency)
        lat["GPU"].append(gpu.latency)
    alone = core.compile_model(model, "CPU", cfg).create_infer_request()
    solo = []
    for _ in range(n):
        # start_async/wait, not infer(): infer() returns the outputs, so it would compute 40
        # real resnet-50 inferences that this timing test never reads
        alone.start_async()
        alone.wait()
        solo.append(alone.latency)
    return {k: sum(v[1:]) / (n - 1) for k, v in lat.items()}, sum(solo[1:]) / (n - 1)


def test_both_busy_run_at_the_budgets_share_alone_at_full_speed():
    platform = ovlab.preset("i7-1185g7").with_power_budget(
        PowerBudget(30.0, {"CPU": 28.0, "GPU.0": 20.0}))
    both, solo = _run_both(platform)
    free, free_solo = _run_both(platform.with_power_budget(None))
    assert solo == pytest.approx(free_solo, rel=0.05)  # alone: no slowdown
    # while both run each is at 30 / 48 of its speed; the CPU is done earlier, so the GPU is
    # slowed for only part of each inference
    assert both["CPU"] / free["CPU"] == pytest.approx(48 / 30, rel=0.05)
    assert 1.1 < both["GPU"] / free["GPU"] < 48 / 30


def test_power_budget_factor_and_errors():
    budget = PowerBudget(40.0, {"CPU": 28.0, "GPU.0": 20.0})
    assert budget.factor([]) == 1.0 and budget.factor(["CPU"]) == 1.0
    assert budget.factor(["CPU", "GPU.0"]) == pytest.approx(40 / 48)
    assert budget.without("GPU.0") is None
    assert PowerBudget(20.0, {"CPU": 28.0, "GPU.0": 20.0}).factor(["CPU"]) == pytest.approx(
        20 / 28)  # a budget below a device's own draw caps it alone too
    with pytest.raises(ValueError, match="watts must be positive"):
        PowerBudget(0.0, {"CPU": 1.0, "GPU.0": 1.0})
    with pytest.raises(ValueError, match="no device 'NPU'"):
        ovlab.preset("i9-13900k").with_power_budget(PowerBudget(10.0, {"CPU": 5, "NPU": 5}))


def test_cumulative_throughput_gains_less_than_the_sum_of_the_devices():
    from ovlab.tools.benchmark import run

    def fps(device, hint):
        return run(["-m", "resnet-50:INT8", "-d", device, "-hint", hint, "-t", "20",
                    "--platform", "i7-1185g7"]).throughput_fps

    cpu, gpu = fps("CPU", "throughput"), fps("GPU", "throughput")
    both = fps("AUTO:GPU,CPU", "cumulative_throughput")
    assert max(cpu, gpu) < both < 0.9 * (cpu + gpu)
