"""Issue 17.2: NaN and huge times are refused; a finished wait leaves nothing scheduled.

``InferRequest.wait_for`` takes what the real wheel takes (measured with openvino 2026.4.1: an
int that fits a C int, bools and NumPy integers too; floats, even 1.5, NaN, inf, and ints past
2**31 - 1 raise ``TypeError`` "incompatible function arguments"; a negative int raises the
runtime's ``RuntimeError``). ``Clock.sleep`` is ovlab's own API: a number of seconds that is not
negative, not NaN and keeps the clock below its horizon.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import ovlab


def _request(core, model, device="CPU"):
    return core.compile_model(model, device).create_infer_request()


@pytest.mark.parametrize("seconds", [math.nan, math.inf, -math.inf, 1e308, 2.0**32])
def test_sleep_refuses_nan_inf_and_past_the_horizon(core, small_cnn, seconds):
    request = _request(core, small_cnn)
    before = core.clock.now
    with pytest.raises(ValueError, match="sleep"):
        core.clock.sleep(seconds)
    assert core.clock.now == before  # the clock is untouched and still works
    request.infer()
    assert math.isfinite(core.clock.now) and 0 < request.latency < 1000


@pytest.mark.parametrize("seconds", ["1", None, [1.0], 1 + 2j])
def test_sleep_refuses_what_is_not_a_number(core, seconds):
    with pytest.raises(TypeError, match="sleep"):
        core.clock.sleep(seconds)
    assert core.clock.now == 0.0


def test_sleep_takes_numpy_numbers_and_ints(core):
    core.clock.sleep(np.float32(0.5))
    core.clock.sleep(np.int64(2))
    core.clock.sleep(1)
    assert core.clock.now == pytest.approx(3.5)


@pytest.mark.parametrize("timeout", [1.5, math.nan, math.inf, 1e308, 2**31, "10", None,
                                     np.float64(3.0)])
def test_wait_for_refuses_what_openvino_refuses(core, small_cnn, timeout):
    request = _request(core, small_cnn)
    request.start_async()
    with pytest.raises(TypeError, match="incompatible function arguments"):
        request.wait_for(timeout)
    assert math.isfinite(core.clock.now)
    request.wait()
    assert math.isfinite(core.clock.now)


@pytest.mark.parametrize("timeout", [True, np.int64(5), 2**31 - 1])
def test_wait_for_takes_what_openvino_takes(core, small_cnn, timeout):
    request = _request(core, small_cnn)
    request.start_async()
    assert request.wait_for(timeout) in (True, False)


def test_wait_for_that_returns_early_leaves_no_timeout_behind(core, small_cnn):
    request = _request(core, small_cnn)
    request.start_async()
    assert request.wait_for(60_000) is True  # done after ~ms, long before the 60 s timeout
    done_at = core.clock.now
    assert done_at < 1.0
    core.clock.run_all()
    assert core.clock.now == done_at  # before the fix: 60 s later


def test_wait_for_that_times_out_waits_exactly_the_timeout(core, googlenet):
    request = _request(core, googlenet)
    core.clock.sleep(10.0)
    request.start_async()
    t0 = core.clock.now
    assert request.wait_for(0) is False
    assert core.clock.now == t0
    assert request.wait_for(1) is False  # ~14 ms of work: 1 ms is not enough
    assert core.clock.now == pytest.approx(t0 + 0.001, abs=1e-9)
    assert request.wait_for(10_000) is True
    finished = core.clock.now
    core.clock.run_all()
    assert core.clock.now == finished


def test_finished_batches_leave_no_timer_behind(small_cnn):
    """A full batch cancels the worker's timeout tick: run_all() does not jump to it."""
    core = ovlab.Core("laptop", seed=0)
    compiled = core.compile_model(small_cnn, "BATCH:GPU(4)", {"AUTO_BATCH_TIMEOUT": 5000})
    queue = ovlab.AsyncInferQueue(compiled, 4)
    for _ in range(3):
        queue.start_async()
    core.clock.sleep(0.001)
    queue.start_async()  # the 4th fills the batch: the 5 s tick is stale
    queue.wait_all()
    finished = core.clock.now
    core.clock.run_all()
    assert core.clock.now == finished


def test_processor_sharing_leaves_no_stale_tick(core, small_cnn):
    """Completion ticks rescheduled by a new start are cancelled, not left to run later."""
    compiled = core.compile_model(small_cnn, "CPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    queue = ovlab.AsyncInferQueue(compiled, 4)
    for _ in range(12):
        queue.start_async()
        core.clock.sleep(0.0004)
    queue.wait_all()
    finished = core.clock.now
    core.clock.run_all()
    assert core.clock.now == finished
