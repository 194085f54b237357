"""An experiment's request table, built in one ``DataFrame`` call (issue 24), is the frame the
old construction made from the same rows and trace records: rows -> ``sort_values("n")`` ->
five columns set one by one. Compared with ``assert_frame_equal(check_dtype=True)`` on real
runs (AUTO's switch, BATCH's batches with ``None``-free and ``None``-holding batch columns,
HETERO's extra records, dict rows read by ``progress()``) and on rows made by hand (``None``
seqs, requests without a record, ties in ``n``, no rows)."""

from types import SimpleNamespace

import pandas as pd
import pytest

import ovlab
from ovlab import experiments, zoo


def old_frame(rows, inferences, first_seq):
    """The construction ``experiments._run`` used before (kept here as the reference)."""
    frame = pd.DataFrame(rows, columns=experiments._COLUMNS).sort_values("n").reset_index(drop=True)
    by_seq = {}
    for rec in inferences:
        if rec.seq >= first_seq:
            by_seq[rec.seq] = rec
    recs = [by_seq.get(s) for s in frame["seq"].tolist()]
    frame["device"] = [getattr(r, "device", "") for r in recs]
    frame["worker"] = [getattr(r, "worker", "") for r in recs]
    frame["batch_id"] = [getattr(r, "batch_id", None) for r in recs]
    frame["batch_size"] = [getattr(r, "batch_size", None) for r in recs]
    frame["status"] = [getattr(r, "status", "") for r in recs]
    return frame


@pytest.fixture(scope="module")
def model():
    return zoo.load("googlenet-v1", "FP16")


CASES = [
    ("latency_graph", "AUTO", {"PERFORMANCE_HINT": "THROUGHPUT", "AUTO_BATCH_TIMEOUT": 700}, 300),
    ("latency_graph", "AUTO", {"PERFORMANCE_HINT": "LATENCY"}, 300),
    ("latency_graph", "CPU", {"PERFORMANCE_HINT": "THROUGHPUT"}, 60),
    ("latency_graph", "BATCH:GPU(4)", {}, 60),
    ("latency_graph", "HETERO:GPU,CPU", {}, 30),
    ("auto_test", "GPU", None, 40),
]


@pytest.mark.parametrize("script, device, config, niter", CASES,
                         ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_the_one_step_frame_is_the_old_frame_on_real_runs(monkeypatch, model, script, device,
                                                          config, niter):
    seen = []
    build = experiments._request_frame

    def spy(rows, inferences, first_seq):
        frame = build(rows, inferences, first_seq)
        seen.append((list(rows), list(inferences), first_seq, frame))
        return frame

    monkeypatch.setattr(experiments, "_request_frame", spy)
    kw = {"niter": niter, "verbose": False}
    if script == "auto_test":
        kw["progress"] = lambda rows: None  # dict rows
    result = getattr(experiments, script)(ovlab.Core("laptop", seed=3), model, device, config, **kw)
    (rows, inferences, first_seq, frame), = seen
    assert frame is result.requests and len(frame) == niter
    pd.testing.assert_frame_equal(frame, old_frame(rows, inferences, first_seq), check_dtype=True)


def test_the_one_step_frame_is_the_old_frame_on_rows_made_by_hand():
    rec = SimpleNamespace
    inferences = [rec(seq=4, device="GPU", worker="GPU", batch_id=1, batch_size=2, status="batch"),
                  rec(seq=5, device="CPU", worker="CPU_HELP", batch_id=None, batch_size=None,
                      status="helper"),
                  rec(seq=5, device="GPU", worker="GPU", batch_id=None, batch_size=None,
                      status="plain"),
                  rec(seq=1, device="NPU", worker="NPU", batch_id=9, batch_size=9, status="plain")]
    cases = [
        [(2, 0.1, 0.3, 0.2, 6), (0, 0.0, 0.2, 0.2, 4), (1, 0.05, 0.25, 0.2, 5)],  # 6: no record
        [(1, 0.1, 0.3, 0.2, None), (0, 0.0, 0.2, 0.2, 4)],  # a None seq
        [(1, 0.1, 0.3, 0.2, 4), (1, 0.0, 0.2, 0.2, 5), (0, 0.0, 0.1, 0.1, 6)],  # a tie in n
        [(0, 0.0, 0.2, 0.2, 5)],  # one row, every record column holding None
        [{"n": 1, "submit": 0.1, "result": 0.3, "latency": 0.2, "seq": 5},
         {"n": 0, "submit": 0.0, "result": 0.2, "latency": 0.2, "seq": 4}],
        [],
    ]
    for rows in cases:
        pd.testing.assert_frame_equal(experiments._request_frame(list(rows), inferences, 2),
                                      old_frame(list(rows), inferences, 2), check_dtype=True)
