"""``core.trace.to_chrome_trace``: valid Trace Event JSON with the tracks and slices a timeline
viewer (Perfetto, chrome://tracing) needs."""

import json
from collections import defaultdict

import pytest

import ovlab
from ovlab import experiments

PHASES = {"X", "b", "e", "i", "M"}
METADATA = {"process_name", "process_sort_index", "thread_name", "thread_sort_index"}


def validate(doc) -> None:
    """The Trace Event Format's rules that viewers rely on (JSON object form)."""
    assert set(doc) >= {"traceEvents"} and doc.get("displayTimeUnit") in ("ms", "ns")
    events = doc["traceEvents"]
    named_pids, named_tids = set(), set()
    for e in events:
        assert e["ph"] in PHASES, e
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int)
        if e["ph"] == "M":
            assert e["name"] in METADATA and isinstance(e["args"], dict)
            if e["name"] == "process_name":
                named_pids.add(e["pid"])
            if e["name"] == "thread_name":
                named_tids.add((e["pid"], e["tid"]))
            continue
        assert isinstance(e["name"], str) and e["name"]
        assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0
        if e["ph"] == "X":
            assert isinstance(e["dur"], (int, float)) and e["dur"] >= 0
        if e["ph"] in ("b", "e"):
            assert "id" in e and e["cat"]
        if e["ph"] == "i":
            assert e["s"] in ("g", "p", "t")
    for e in events:  # every track used is named
        if e["ph"] != "M":
            assert e["pid"] in named_pids and (e["pid"], e["tid"]) in named_tids, e
    # complete events on one thread never partly overlap (they nest or follow each other)
    by_thread = defaultdict(list)
    for e in events:
        if e["ph"] == "X":
            by_thread[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
    for spans in by_thread.values():
        spans.sort()
        stack = []
        for start, end in spans:
            while stack and stack[-1] <= start + 1e-6:
                stack.pop()
            assert not stack or end <= stack[-1] + 1e-6, "overlapping slices on one thread"
            stack.append(end)
    # every async begin has its end
    opened = defaultdict(int)
    for e in events:
        if e["ph"] == "b":
            opened[(e["cat"], e["id"])] += 1
        elif e["ph"] == "e":
            opened[(e["cat"], e["id"])] -= 1
    assert all(v == 0 for v in opened.values())


@pytest.fixture(scope="module")
def tput_core(googlenet16):
    core = ovlab.Core("laptop", seed=0)
    experiments.latency_graph(core, googlenet16, "AUTO", {"PERFORMANCE_HINT": "THROUGHPUT"},
                              verbose=False)
    return core


@pytest.fixture(scope="module")
def googlenet16():
    from ovlab import zoo

    return zoo.load("googlenet-v1", "FP16")


def test_the_file_is_valid_trace_event_json(tput_core, tmp_path):
    path = tmp_path / "auto.json"
    doc = tput_core.trace.to_chrome_trace(path)
    validate(doc)
    assert json.loads(path.read_text()) == json.loads(json.dumps(doc))


def _names(doc, kind):
    return {(e["pid"], e["args"]["name"]) for e in doc["traceEvents"]
            if e["ph"] == "M" and e["name"] == kind}


def test_one_process_per_device_and_a_track_per_stream_and_worker(tput_core):
    doc = tput_core.trace.to_chrome_trace()
    processes = dict(_names(doc, "process_name"))
    assert sorted(processes.values()) == ["CPU", "GPU.0"]
    pid = {name: p for p, name in processes.items()}
    threads = _names(doc, "thread_name")
    cpu = {n for p, n in threads if p == pid["CPU"]}
    gpu = {n for p, n in threads if p == pid["GPU.0"]}
    assert {"CPU helper", "compile", "requests"} <= cpu
    assert {"stream 0", "compile", "requests", "BATCH worker 1"} <= gpu
    assert any(n.startswith("AUTO worker") for n in gpu)  # the lone runs of AUTO's workers


def test_batches_compiles_and_ticks_are_slices_and_instants(tput_core):
    doc = tput_core.trace.to_chrome_trace()
    ev = doc["traceEvents"]
    batches = [e for e in ev if e["ph"] == "X" and e["name"].startswith("batch ")]
    records = tput_core.trace.to_frame()
    batched = records[records["batch_size"] == 16]
    assert len(batches) == batched["batch_id"].nunique()
    assert all(len(e["args"]["seqs"]) == 16 for e in batches)
    one = batches[0]
    rec = batched[batched["batch_id"] == one["args"]["batch_id"]].iloc[0]
    assert one["ts"] == pytest.approx(rec["started"] * 1e6)
    assert one["dur"] == pytest.approx((rec["finished"] - rec["started"]) * 1e6)
    compiles = [e for e in ev if e["ph"] == "X" and e["cat"] == "compile"]
    assert len(compiles) == 3  # the CPU helper; the GPU at batch 1, then at batch 16
    assert sorted(round(e["dur"] / 1e6, 2) for e in compiles) == [0.21, 7.36, 7.36]
    ticks = [e for e in ev if e["ph"] == "i" and e["cat"] == "batch_timeout"]
    assert len(ticks) == sum(1 for e in tput_core.trace.events if e.kind == "batch_timeout")
    switch = [e for e in ev if e.get("cat") == "switch"]
    assert len(switch) == 1 and switch[0]["s"] == "g"
    alone = [e for e in ev if e["ph"] == "X" and "alone after the batch timeout" in e["name"]]
    assert len(alone) == int((records["status"] == "timeout-alone").sum())
    requests = [e for e in ev if e["ph"] == "b"]
    assert len(requests) == 2000


def test_overlapping_runs_on_one_worker_get_lanes():
    """Two executions that share a worker label and overlap in time (AUTO's helper can run
    several worker requests at once) go to two lanes of that track: a thread's complete events
    must nest, or viewers drop them."""
    from ovlab.sim.trace import InferenceRecord, Trace

    trace = Trace()
    for seq, (start, end) in enumerate([(0.0, 0.030), (0.010, 0.040), (0.035, 0.050)]):
        trace.add(InferenceRecord(seq, seq, "m", "CPU", start, start, end, worker="CPU_HELP"))
    doc = trace.to_chrome_trace(requests=False)
    validate(doc)
    assert {n for _p, n in _names(doc, "thread_name")} == {"CPU helper", "CPU helper (2)"}
    assert not any(e["ph"] == "b" for e in doc["traceEvents"])


def test_an_empty_trace_is_valid(core):
    validate(core.trace.to_chrome_trace())
