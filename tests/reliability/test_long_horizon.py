"""Issue 17.1: no hang over any length of simulated time.

Past ~2**14 s a completion tick that compared the remaining work with an absolute 1e-12 s
rescheduled itself at the same instant forever (``now + 1e-13 == now``). These tests run the
scheduler far from t = 0 and for a whole simulated day; the step budget of ``conftest.py`` turns a
hang into a failure.
"""

from __future__ import annotations

import numpy as np
import pytest

import ovlab
from ovlab import experiments


def test_infer_after_five_simulated_hours(googlenet):
    """The issue's reproducer: compile, sleep 5 h, infer."""
    core = ovlab.Core(seed=0)
    compiled = core.compile_model(googlenet, "CPU")
    core.clock.sleep(5 * 3600)
    request = compiled.create_infer_request()
    for _ in range(50):
        request.infer()
    assert 0.005 < request.latency / 1000 < 0.05  # still ~14 ms, not 0 and not a hang


@pytest.mark.parametrize("start", [2.0**14, 2.0**20, 2.0**26, 2.0**31])
@pytest.mark.parametrize("device", ["CPU", "GPU", "AUTO", "BATCH:GPU(4)", "HETERO:GPU,CPU"])
def test_every_device_far_from_zero(small_cnn, device, start):
    """Every plugin's timers work at large absolute times: jobs finish and take their time."""
    core = ovlab.Core("laptop", seed=1)
    compiled = core.compile_model(small_cnn, device, {"AUTO_BATCH_TIMEOUT": 50})
    core.clock.sleep(start)
    queue = ovlab.AsyncInferQueue(compiled, 8)
    done = []
    queue.set_callback(lambda request, i: done.append((i, request.latency)))
    for i in range(24):
        queue.start_async(userdata=i)
        core.clock.sleep(0.003 * (i % 3))
    queue.wait_all()
    assert sorted(i for i, _ in done) == list(range(24))
    assert all(latency > 0 for _, latency in done)


def test_latency_graph_with_30_s_gaps(googlenet):
    """The issue's second reproducer: 1,200 requests 30 s apart (10 simulated hours)."""
    core = ovlab.Core(seed=0)
    result = experiments.latency_graph(core, googlenet, niter=1200, interval=30_000,
                                       verbose=False)
    assert len(result.requests) == 1200
    assert core.clock.now > 1200 * 30
    assert np.isfinite(result.latencies).all() and (result.latencies > 0).all()


def test_a_simulated_day_of_auto_batch_and_hetero(small_cnn):
    """A request a minute on AUTO, BATCH:GPU(4) and HETERO for 24 simulated hours."""
    core = ovlab.Core("workstation", seed=2)
    models = {
        "AUTO": core.compile_model(small_cnn, "AUTO", {"PERFORMANCE_HINT": "THROUGHPUT"}),
        "BATCH": core.compile_model(small_cnn, "BATCH:GPU.1(4)", {"AUTO_BATCH_TIMEOUT": 200}),
        "HETERO": core.compile_model(small_cnn, "HETERO:GPU.0,CPU"),
    }
    queues = {name: ovlab.AsyncInferQueue(c, 4) for name, c in models.items()}
    completed = {name: 0 for name in models}
    for name, queue in queues.items():
        queue.set_callback(lambda request, name: completed.__setitem__(name, completed[name] + 1))
    day = 24 * 3600
    minutes = 0
    while core.clock.now < day:
        for name, queue in queues.items():
            queue.start_async(userdata=name)
        minutes += 1
        core.clock.sleep(60.0)
    for queue in queues.values():
        queue.wait_all()
    assert completed == {name: minutes for name in models}
    assert minutes >= 24 * 60
    assert len(core.trace) >= 3 * minutes
