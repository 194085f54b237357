"""Invariants of AUTO and MULTI under random workloads (hypothesis).

Random arrival gaps, numbers of inferences, hints, device strings and one injected failure; after
the run every started inference completed exactly once (with results) or raised, nothing started
before it was submitted, a worker never ran two inferences at once, and after the switch no new
inference started on the CPU helper.
"""

from collections import Counter, defaultdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pbt_budget import budget

import ovlab

SETUPS = [
    ("laptop", "AUTO", {}),
    ("laptop", "AUTO", {"PERFORMANCE_HINT": "THROUGHPUT"}),
    ("laptop", "AUTO:GPU(3),CPU", {"ENABLE_RUNTIME_FALLBACK": False}),
    ("laptop", "AUTO", {"PERFORMANCE_HINT": "CUMULATIVE_THROUGHPUT"}),
    ("workstation", "AUTO", {}),
    ("workstation", "MULTI:GPU.1,GPU.0,CPU", {"SCHEDULE_POLICY": "ROUND_ROBIN"}),
    ("workstation", "AUTO:GPU,CPU", {"ENABLE_STARTUP_FALLBACK": False}),
    ("cpu", "AUTO", {}),
]


@st.composite
def workloads(draw):
    setup = draw(st.sampled_from(SETUPS))
    # bursts (zero gaps) and a random lead time make queues form around the switch
    gap = st.sampled_from([0.0, 0.0, 0.0, 0.001, 0.004]) | st.floats(0.0, 0.6)
    gaps = draw(st.lists(gap, min_size=1, max_size=40))
    # None: start at once; a number: start that long before the last device compile ends
    lead = draw(st.none() | st.floats(0.0, 0.002))
    failure = draw(st.none() | st.tuples(st.sampled_from(["CPU", "GPU.0", "GPU.1"]),
                                         st.integers(1, 12), st.integers(1, 3)))
    return setup, gaps, lead, failure


@settings(max_examples=budget(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workloads())
def test_auto_invariants_under_random_workloads(small_cnn, workload):
    (platform, device, config), gaps, lead, failure = workload
    core = ovlab.Core(platform, seed=len(gaps))
    if failure is not None and failure[0] not in core.platform.devices:
        failure = None  # faults name a device of the platform (others are refused)
    if failure is not None:
        core.faults.fail_inference(failure[0], nth=failure[1], count=failure[2])
    compiled = core.compile_model(small_cnn, device, {**config, "ALLOW_AUTO_BATCHING": False})
    if lead is not None:
        compiles = [e.time + e.detail["seconds"] for e in core.trace.events
                    if e.kind == "compile_start"]
        core.clock.sleep(max(0.0, max(compiles) - lead - core.clock.now))
    callbacks: Counter = Counter()
    requests = []
    for i, gap in enumerate(gaps):
        core.clock.sleep(gap)
        request = compiled.create_infer_request()
        request.set_callback(lambda tag: callbacks.update([tag]), i)
        request.start_async()
        requests.append(request)
    core.clock.run_all()

    raised = set()
    for i, request in enumerate(requests):
        try:
            request.wait()
        except RuntimeError:
            raised.add(i)
    # every started inference completed exactly once, or raised (then no callback ran)
    assert all(count == 1 for count in callbacks.values())
    assert set(callbacks) | raised == set(range(len(gaps)))
    assert not set(callbacks) & raised
    ok = Counter(r.seq for r in core.trace if r.status == "ok")
    assert all(ok[seq] == 1 for seq in ok)
    assert len(ok) == len(gaps) - len(raised)
    if failure is None:
        assert not raised

    # nothing starts before its submit; a worker runs one inference at a time
    by_worker = defaultdict(list)
    for r in core.trace:
        assert r.started >= r.submitted - 1e-12
        assert r.finished >= r.started
        by_worker[(r.device, r.worker)].append((r.started, r.finished))
    for spans in by_worker.values():
        spans.sort()
        for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
            assert start >= end - 1e-12

    # after the switch no new inference starts on the helper
    switches = [e.time for e in core.trace.events if e.kind == "switch"]
    if switches:
        helper_starts = [r.started for r in core.trace if r.worker == "CPU_HELP"]
        assert all(t <= switches[0] + 1e-12 for t in helper_starts)
    released = [e.time for e in core.trace.events if e.kind == "helper_released"]
    if released:
        assert released[0] >= switches[0]
        assert compiled.get_property("EXECUTION_DEVICES") != ["(CPU)"]
