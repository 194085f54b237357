"""Issue 17.7: a bounded, streamable trace.

``core.trace`` kept every record forever (~270 bytes a request, measured with tracemalloc). It now
keeps the newest ``max_records`` (default 1,000,000) and can stream every record to a file.
"""

from __future__ import annotations

import gc
import tracemalloc

import pandas as pd
import pytest

import ovlab
from ovlab.sim.trace import DEFAULT_MAX_RECORDS, Trace, read_records


def _run(core, model, n, jobs=8):
    compiled = core.compile_model(model, "CPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    queue = ovlab.AsyncInferQueue(compiled, jobs)
    for _ in range(n):
        queue.start_async()
    queue.wait_all()
    return compiled


def test_default_bound_is_far_above_any_lab():
    trace = ovlab.Core().trace
    assert trace.max_records == DEFAULT_MAX_RECORDS == 1_000_000
    assert trace.dropped == 0


def test_the_newest_records_are_kept(mlp):
    full = ovlab.Core("cpu", seed=0)
    _run(full, mlp, 200)
    core = ovlab.Core("cpu", seed=0)
    core.trace = Trace(max_records=50)
    _run(core, mlp, 200)
    assert len(core.trace) == 50 and core.trace.dropped == 150
    seqs = [r.seq for r in core.trace]
    assert seqs == [r.seq for r in full.trace.inferences[-50:]]  # the newest, in order
    assert len(core.trace.events) <= 50
    frame = core.trace.to_frame()
    assert len(frame) == 50 and list(frame["seq"]) == seqs
    assert "dropped" in repr(core.trace)
    assert [r.seq for r in core.trace.inferences[-3:]] == seqs[-3:]  # slices like a list
    assert core.trace.inferences[0].seq == seqs[0]


def test_set_limit_keeps_the_newest_and_none_removes_the_bound(mlp):
    core = ovlab.Core("cpu", seed=0)
    _run(core, mlp, 40)
    core.trace.set_limit(10)
    assert len(core.trace) == 10 and core.trace.dropped == 30
    core.trace.set_limit(None)
    _run(core, mlp, 40)
    assert len(core.trace) == 50 and core.trace.max_records is None
    core.trace.clear()
    assert len(core.trace) == 0 and core.trace.dropped == 0


@pytest.mark.parametrize("bad", [0, -5, 2.5, "10", True])
def test_bad_limits_are_refused(bad):
    with pytest.raises(ValueError, match="max_records"):
        Trace(max_records=bad)
    with pytest.raises(ValueError, match="max_records"):
        ovlab.Core().trace.set_limit(bad)


def test_memory_stays_bounded(mlp):
    """20,000 requests with a bound of 1,000 retain what 1,000 records take, not 20,000."""
    core = ovlab.Core("cpu", seed=0)
    core.trace.set_limit(1000)
    _run(core, mlp, 100)  # warm up: compiled model, queue, caches
    gc.collect()
    tracemalloc.start()
    try:
        _run(core, mlp, 20_000)
        gc.collect()
        retained = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert retained < 1000 * 600 + 200_000, retained  # < ~0.8 MB, unbounded it was ~5.4 MB


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_streaming_writes_every_record(mlp, tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    core = ovlab.Core("cpu", seed=0)
    core.trace.set_limit(100)
    path = tmp_path / f"run{suffix}"
    with core.trace.stream_to(path, chunk_rows=256) as stream:
        compiled = _run(core, mlp, 1000)
        core.trace.event(core.clock.now, "note", "CPU", "tiny_mlp", why="a test", n=3)
    core.trace.stop_stream()
    assert stream.closed and stream.inferences_written == 1000
    frame = read_records(path)
    assert len(frame) == 1000 and frame["seq"].is_unique
    memory = core.trace.to_frame()
    assert len(memory) == 100
    pd.testing.assert_frame_equal(
        frame.tail(100).reset_index(drop=True)[memory.columns].astype(object).fillna(-1),
        memory.astype(object).fillna(-1), check_dtype=False)
    events = read_records(path, events=True)
    assert events["kind"].iloc[-1] == "note" and events["detail"].iloc[-1] == {"n": 3,
                                                                                "why": "a test"}
    assert compiled.get_property("NETWORK_NAME") in set(frame["model"])


def test_parquet_needs_pyarrow_or_says_so(tmp_path, monkeypatch):
    from ovlab.sim.trace import stream

    monkeypatch.setattr(stream, "_have_pyarrow", lambda: False)
    with pytest.raises(ImportError, match="pyarrow"):
        ovlab.Core().trace.stream_to(tmp_path / "run.parquet")
    s = ovlab.Core().trace.stream_to(tmp_path / "run")  # no suffix, no pyarrow: CSV
    assert s.format == "csv"
    s.close()
