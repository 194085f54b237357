"""Property-based invariants of BATCH's collection and timer (claims B04, B07, B08).

Over random arrival patterns, timeouts, batch sizes, hints and queue sizes on ``BATCH:CPU(N)``:
every request completes exactly once with its own output, batches are exactly N requests of one
worker, callbacks of a batch come in arrival order, and no request waits longer than the timeout
plus the device work that ran while it waited.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pbt_budget import budget

import ovlab

TIE = 1e-9


def distinct_runs(records):
    """Device executions (a batched run carries several records): (start, end) of each."""
    return {(r.device, r.worker, r.started, r.finished) for r in records}


def run_pattern(model, batch, timeout_ms, jobs, gaps, hint):
    core = ovlab.Core("cpu", seed=0)
    compiled = core.compile_model(model, f"BATCH:CPU({batch})",
                                  {"AUTO_BATCH_TIMEOUT": timeout_ms, "PERFORMANCE_HINT": hint})
    queue = ovlab.AsyncInferQueue(compiled, jobs)
    shape = list(model.inputs[0].get_shape())
    inputs = [np.random.default_rng(i).standard_normal(shape).astype(np.float32)
              for i in range(len(gaps))]
    callbacks, outputs, seq_of = [], {}, {}

    def done(request, i):
        callbacks.append(i)
        outputs[i] = request.results[0].copy()

    queue.set_callback(done)
    for i, gap in enumerate(gaps):
        core.clock.sleep(gap)
        queue.start_async({0: inputs[i]}, i)
        seq_of[i] = core._seq - 1  # the inference number start_async just used
    queue.wait_all()
    return core, compiled, inputs, callbacks, outputs, seq_of


@settings(max_examples=budget(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.integers(2, 5),
       timeout_ms=st.sampled_from([0, 1, 10, 50, 100, 300]),
       jobs=st.integers(1, 12),
       gaps=st.lists(st.one_of(st.sampled_from([0.0, 0.0005, 0.01, 0.05, 0.1, 0.3]),
                               st.floats(0.0, 0.4)), min_size=1, max_size=24),
       hint=st.sampled_from(["LATENCY", "THROUGHPUT"]))
def test_b04_b08_batching_invariants(mlp, batch, timeout_ms, jobs, gaps, hint):
    core, compiled, inputs, callbacks, outputs, seq_of = run_pattern(
        mlp, batch, timeout_ms, jobs, gaps, hint)
    n = len(gaps)
    # every request completes exactly once, with its own result
    assert sorted(callbacks) == list(range(n))
    for i, x in enumerate(inputs):
        np.testing.assert_allclose(outputs[i], mlp._evaluate({0: x}, "bf16")[0], rtol=1e-5, atol=1e-7)
    records = core.trace.inferences
    by_seq = {}
    for r in records:
        assert r.seq not in by_seq, "a request ran twice"
        by_seq[r.seq] = r
    assert sorted(by_seq) == sorted(seq_of.values())
    # a batch is exactly N requests of one worker (request k -> worker k // N), none bigger
    batches = {}
    for r in records:
        assert r.batch_size in (None, 1, batch)
        assert (r.status == "timeout-alone") == (r.batch_size == 1)
        if r.batch_size == batch:
            batches.setdefault(r.batch_id, []).append(r)
    for members in batches.values():
        assert len(members) == batch
        assert len({r.request_id // batch for r in members}) == 1
        assert len({r.request_id for r in members}) == batch
        assert len({(r.started, r.finished) for r in members}) == 1
    # callbacks of a batch come in arrival order
    index_of = {seq: i for i, seq in enumerate(seq_of.values())}
    position = {i: k for k, i in enumerate(callbacks)}
    for members in batches.values():
        arrival = sorted(index_of[r.seq] for r in members)
        assert [position[i] for i in arrival] == sorted(position[i] for i in arrival)
    # the timer flushes are recorded: one event per flush, one alone run per flushed request
    flushes = [e for e in core.trace.events if e.kind == "batch_timeout"]
    assert sum(e.detail["requests"] for e in flushes) == sum(r.batch_size == 1 for r in records)
    assert all(1 <= e.detail["requests"] < batch for e in flushes)
    # nobody waits longer than the timeout plus the device work that ran meanwhile
    runs = distinct_runs(records)
    for r in records:
        busy = sum(end - start for _d, _w, start, end in runs
                   if start < r.finished and end > r.submitted)
        assert r.latency <= timeout_ms / 1000.0 + busy + TIE, (r, busy)
    # the lazy timer leaves nothing perpetual behind: the clock runs dry
    core.clock.run_all()
    assert core.clock.env.peek() == float("inf")


@settings(max_examples=budget(30), deadline=None)
@given(gaps=st.lists(st.floats(0.0, 0.5), min_size=1, max_size=12),
       timeout_ms=st.sampled_from([10, 100, 1000]))
def test_b04_same_seed_same_timeline(mlp, gaps, timeout_ms):
    first = run_pattern(mlp, 4, timeout_ms, 4, gaps, "LATENCY")[0]
    second = run_pattern(mlp, 4, timeout_ms, 4, gaps, "LATENCY")[0]
    key = [(r.seq, r.started, r.finished, r.batch_id, r.status) for r in first.trace.inferences]
    assert key == [(r.seq, r.started, r.finished, r.batch_id, r.status)
                   for r in second.trace.inferences]


@settings(max_examples=budget(60), deadline=None)
@given(timeout_ms=st.integers(1, 2000), delay_ms=st.integers(0, 5000))
def test_b04_lone_latency_is_timeout_minus_phase(mlp, timeout_ms, delay_ms):
    """Measured rule: a lone request D ms after a wake-up waits timeout - D mod timeout."""
    core = ovlab.Core("cpu", seed=0)
    compiled = core.compile_model(mlp, "BATCH:CPU(4)", {"AUTO_BATCH_TIMEOUT": timeout_ms})
    queue = ovlab.AsyncInferQueue(compiled, 4)
    for _ in range(4):
        queue.start_async({0: np.zeros((1, 16), np.float32)})
    queue.wait_all()  # a full batch ran: the worker woke when it completed
    core.clock.sleep(delay_ms / 1000.0)
    t0 = core.clock.now
    queue.start_async({0: np.ones((1, 16), np.float32)})
    queue.wait_all()
    wait_ms = (core.clock.now - t0) * 1000.0
    phase = delay_ms % timeout_ms
    expected = timeout_ms - phase if phase else (timeout_ms if delay_ms == 0 else 0.0)
    record = core.trace.inferences[-1]
    service_ms = (record.finished - record.started) * 1000.0
    assert wait_ms - service_ms == pytest.approx(expected, abs=1e-6)
