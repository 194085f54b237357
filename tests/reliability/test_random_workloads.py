"""Issue 17.8: random workloads over every plugin, faults, fallbacks and far-off start times.

Each example draws a platform, a device string (CPU, GPU, AUTO, MULTI, CUMULATIVE_THROUGHPUT,
HETERO, BATCH), a hint, a batch timeout, runtime fallback on or off, an injected compile or
inference failure, a start time anywhere up to 2**31 s, the number of jobs and the gaps between
arrivals, then runs it through an AsyncInferQueue with real inputs. Whatever happens:

* the compile succeeds or raises OpenVINO's ``RuntimeError`` (an injected compile failure with
  nothing to fall back to);
* every submitted request completes exactly once: its callback ran, or its failure was raised
  by the queue (never both, never neither, none twice);
* every result equals the f32 reference within the precision of the device that ran it;
* the clock stays finite, nothing starts before it was submitted, and once the queue is drained
  nothing is left scheduled that would move the clock (but AUTO's and MULTI's background
  compiles, which ``run_all()`` lets finish).

The budget is ``budget(200)`` examples (``tests/pbt_budget.py``); the step budget of
``conftest.py`` turns a hang into a failure.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pbt_budget import budget

import ovlab

DEVICES = {
    "laptop": ["CPU", "GPU", "AUTO", "AUTO:GPU,CPU", "MULTI:GPU,CPU", "HETERO:GPU,CPU",
               "BATCH:GPU(4)", "BATCH:CPU(2)"],
    "workstation": ["GPU.1", "AUTO", "AUTO:GPU.1,GPU.0,CPU", "MULTI:GPU.1,GPU.0",
                    "HETERO:GPU.1,CPU", "BATCH:GPU.0(3)", "NPU"],
    "cpu": ["CPU", "AUTO", "MULTI:CPU", "HETERO:CPU", "BATCH:CPU(3)"],
}
HINTS = [None, "LATENCY", "THROUGHPUT", "CUMULATIVE_THROUGHPUT"]


@st.composite
def workloads(draw):
    platform = draw(st.sampled_from(sorted(DEVICES)))
    device = draw(st.sampled_from(DEVICES[platform]))
    hint = draw(st.sampled_from(HINTS))
    if hint == "CUMULATIVE_THROUGHPUT" and not device.startswith(("AUTO", "MULTI")):
        hint = "THROUGHPUT"  # only AUTO and MULTI take it
    config = {"AUTO_BATCH_TIMEOUT": draw(st.sampled_from([0, 1, 10, 100, 1000]))}
    if hint is not None:
        config["PERFORMANCE_HINT"] = hint
    if device.startswith("AUTO"):
        config["ENABLE_RUNTIME_FALLBACK"] = draw(st.booleans())
    hardware = ["CPU", "GPU.0"] + (["GPU.1", "NPU"] if platform == "workstation" else [])
    if platform == "cpu":
        hardware = ["CPU"]
    fault = draw(st.none() | st.tuples(st.sampled_from(["compile", "inference"]),
                                       st.sampled_from(hardware), st.integers(1, 8),
                                       st.integers(1, 3)))
    start = draw(st.sampled_from([0.0, 0.0, 2.0**14 + 0.3, 5 * 3600.0, 2.0**26, 2.0**31]))
    jobs = draw(st.integers(1, 8))
    gap = st.sampled_from([0.0, 0.0, 0.0005, 0.003, 0.05]) | st.floats(0.0, 1.5)
    gaps = draw(st.lists(gap, min_size=1, max_size=24))
    return platform, device, config, fault, start, jobs, gaps


def _tolerance(devices: set[str], platform: str) -> dict:
    """f32 on the CPU; GPUs and the NPU store f16; the ``cpu`` preset's CPU (AVX512_BF16) runs
    bf16, as the real CPU plugin does there."""
    if devices <= {"CPU"} and platform != "cpu":
        return {"rtol": 1e-5, "atol": 1e-6}
    return {"rtol": 2e-2, "atol": 2e-3}


@settings(max_examples=budget(200), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(workloads())
def test_random_workloads_complete_exactly_once_with_cpu_equal_outputs(mlp, workload):
    platform, device, config, fault, start, jobs, gaps = workload
    core = ovlab.Core(platform, seed=len(gaps))
    core.clock.sleep(start)
    if fault is not None:
        kind, dev, nth, count = fault
        if kind == "compile":
            core.faults.fail_compile(dev, times=count)
        else:
            core.faults.fail_inference(dev, nth=nth, count=count)
    try:
        compiled = core.compile_model(mlp, device, config)
    except RuntimeError as exc:  # only an injected compile failure may stop the compile
        assert fault is not None and fault[0] == "compile", exc
        assert "compile failed" in str(exc) or "no supported device" in str(exc).lower() \
            or "Failed" in str(exc), exc
        return

    queue = ovlab.AsyncInferQueue(compiled, jobs)
    shape = list(mlp.inputs[0].get_shape())
    inputs = [np.random.default_rng(i).standard_normal(shape).astype(np.float32)
              for i in range(len(gaps))]
    called: Counter = Counter()
    outputs: dict[int, np.ndarray] = {}

    def callback(request, i):
        called[i] += 1
        outputs[i] = request.results[0].copy()

    queue.set_callback(callback)
    failures = 0
    submitted = 0
    t_submit = {}
    for i, gap in enumerate(gaps):
        core.clock.sleep(gap)
        while True:
            try:
                t_submit[i] = core.clock.now
                queue.start_async({0: inputs[i]}, i)
                submitted += 1
                break
            except RuntimeError:  # a failure of an earlier request, reported here
                failures += 1
    for _ in range(len(gaps) + 1):
        try:
            queue.wait_all()
            break
        except RuntimeError:
            failures += 1
    else:
        raise AssertionError("wait_all kept raising")

    # every request completed exactly once: a callback or a reported failure
    assert all(n == 1 for n in called.values())
    assert len(called) + failures == submitted == len(gaps)
    if fault is None or fault[0] == "compile":
        assert failures == 0
    # every result equals the f32 reference, within the precision of where it ran
    ran_on = {r.device for r in core.trace}
    for i, out in outputs.items():
        np.testing.assert_allclose(out, mlp._evaluate({0: inputs[i]})[0], **_tolerance(ran_on, platform))
    # time stays finite and causal; nothing is left to move the clock
    assert math.isfinite(core.clock.now)
    for r in core.trace:
        assert r.submitted <= r.started <= r.finished and math.isfinite(r.finished)
    end = core.clock.now
    core.clock.run_all()  # AUTO and MULTI may still compile in the background: let them end
    assert core.clock.env.peek() == math.inf and math.isfinite(core.clock.now)
    if not device.startswith(("AUTO", "MULTI")):
        assert core.clock.now == end  # no stale timer (batch tick, completion tick) was left
