"""The yas-sim experiments (``yas-sim/openvino-auto-feature-visualization``) as functions.

The repository of the yas-sim article on AUTO and automatic batching has two scripts whose knobs are edited by hand: ``auto-test.py`` (submit
``niter`` requests every ``interval`` ms to an AsyncInferQueue, draw submit and result times) and
``auto-test-latency-graph.py`` (2,000 requests every 30 ms on AUTO, plot the latency of each).
These functions run the same loop with the same OpenVINO calls on an ovlab Core and print the same
console lines, so a lab can show the script, run it, and then open its knobs up to widgets.

Timing semantics kept from the scripts: the submit time is read *before* ``start_async`` (which
blocks while every request is busy); the result time is read at the start of the callback; the
pacing sleep of ``interval`` ms comes after ``start_async`` returns. Latencies are appended in
completion order, as the latency-graph script does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .runtime.async_queue import AsyncInferQueue


@dataclass
class ExperimentResult:
    """What a yas-sim-style run produced: one row per request, plus when the device switched."""

    device: str
    config: dict[str, Any]
    interval_ms: float
    optimal_requests: int
    queue_size: int
    requests: Any  # pandas DataFrame: n, submit, result, latency, device, batch_id, batch_size
    switch_time: float | None = None  # when AUTO's actual device became ready (s since start)
    switch_index: int | None = None  # first completion (in completion order) on the new device
    lines: list[str] = field(default_factory=list)  # the console lines printed
    #: the Core's event records from ``compile_model`` on (compiles, the switch, batch timer
    #: ticks), and the Core time of the first submit: event ``e`` happened ``e.time - t_start``
    #: seconds after it (negative: during ``compile_model``)
    events: list = field(default_factory=list)
    t_start: float = 0.0

    @property
    def latencies(self) -> np.ndarray:
        """Latencies in seconds in completion order (the latency-graph script's list)."""
        return self.requests.sort_values("result")["latency"].to_numpy()


def _print(lines: list[str], verbose: bool, *parts: Any, sep: str = " ") -> None:
    text = sep.join(str(p) for p in parts)
    lines.append(text)
    if verbose:
        print(text)


#: the columns of a run's request rows, in order
_COLUMNS = ["n", "submit", "result", "latency", "seq"]


#: the columns read from each request's last trace record, and their value without one
_RECORD_COLUMNS = (("device", ""), ("worker", ""), ("batch_id", None), ("batch_size", None),
                   ("status", ""))


def _request_frame(rows: list[Any], inferences, first_seq: int):
    """The run's request table, one row per request in ``n`` order: the callback's columns
    (``_COLUMNS``) then, from the last trace record of each request's seq (HETERO and BATCH may
    add more than one), where it ran (``_RECORD_COLUMNS``).

    Built in one ``DataFrame`` call from a dict of column lists: pandas infers each column's
    dtype from its list as it did when the frame was made from rows, sorted with
    ``sort_values("n")`` and given five columns one by one (the same ``argsort`` of ``n``, the
    same values, dtypes and index: ``tests/test_request_frame.py``), ~0.5 ms sooner a change (3.3 -> 2.8 ms for 2,000 requests)."""
    import pandas as pd

    by_seq: dict[int, Any] = {}
    for rec in inferences:
        if rec.seq >= first_seq:
            by_seq[rec.seq] = rec
    if not rows:  # no request: the old construction (its empty columns' dtypes)
        frame = pd.DataFrame(rows, columns=_COLUMNS)
        for name, missing in _RECORD_COLUMNS:
            frame[name] = [missing] * 0
        return frame
    if isinstance(rows[0], dict):  # progress() read them as dicts
        rows = [tuple(r[c] for c in _COLUMNS) for r in rows]
    # the permutation sort_values("n") takes: NumPy's quicksort of the same int64 column
    order = np.argsort(np.array([r[0] for r in rows]), kind="quicksort").tolist()
    columns = dict(zip(_COLUMNS, (list(c) for c in zip(*[rows[i] for i in order], strict=True)),
                       strict=True))
    recs = [by_seq.get(s) for s in columns["seq"]]
    for name, missing in _RECORD_COLUMNS:
        columns[name] = [getattr(r, name, missing) for r in recs]
    return pd.DataFrame(columns)


def _run(core, model, device: str, config: dict[str, Any], niter: int, interval: float,
         num_ireq: int | None, printed_num_ireq: int | None, script: str,
         verbose: bool, progress=None, progress_every: int = 50) -> ExperimentResult:
    lines: list[str] = []
    input_port, output_port = model.input(), model.output()
    _print(lines, verbose, input_port.get_any_name(), input_port.get_shape())
    _print(lines, verbose, output_port.get_any_name(), output_port.get_shape())
    t_compile = core.clock.now
    compiled = core.compile_model(model, device, dict(config))
    _print(lines, verbose, "Device:", device)
    _print(lines, verbose, "Config:", config)
    if script == "auto-test":
        _print(lines, verbose, "niter:", niter, ", interval:", interval, "ms")
    else:
        _print(lines, verbose, "niter:", niter, "interval:", interval)
    opt_nireq = compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS")
    _print(lines, verbose, "OPTIMAL_NUMBER_OF_INFER_REQUESTS", opt_nireq)
    queue = AsyncInferQueue(compiled, num_ireq) if num_ireq else AsyncInferQueue(compiled)
    _print(lines, verbose, "Number of infer requests:",
           printed_num_ireq if printed_num_ireq is not None else len(queue))

    rows: list[Any] = []  # dicts while progress() reads them, else tuples
    seq_of: dict[int, int] = {}

    clock = core.clock

    def callback(request, userdata) -> None:
        n, start_time, submit_time = userdata
        result_time = clock.now
        rows.append({"n": n, "submit": submit_time - start_time, "result": result_time - start_time,
                     "latency": result_time - submit_time, "seq": seq_of.get(n)})
        if progress is not None and len(rows) % progress_every == 0:
            progress(rows)

    def quiet_callback(request, userdata) -> None:
        # no one reads the rows before the end: tuples in _COLUMNS' order (pandas builds the
        # same frame from them ~0.7 ms sooner than from 2,000 dicts, and no dict per request)
        n, start_time, submit_time = userdata
        result_time = clock.now
        rows.append((n, submit_time - start_time, result_time - start_time,
                     result_time - submit_time, seq_of.get(n)))

    queue.set_callback(callback if progress is not None else quiet_callback)
    # zeros that can never change (read-only over an immutable bytes object): the runtime's
    # input cache then knows each request's input is the last one's without comparing its
    # 150 kB (~5 us a request, ~10 ms of a 2,000-request run)
    shape = list(input_port.get_shape())
    dummy_input = np.frombuffer(bytes(math.prod(shape)), dtype=np.uint8).reshape(shape)
    first_seq = core._seq
    start_time = core.clock.now
    for n in range(niter):
        seq_of[n] = first_seq + n
        queue.start_async({0: dummy_input}, (n, start_time, core.clock.now))
        core.clock.sleep(interval / 1000.0)
    queue.wait_all()

    frame = _request_frame(rows, core.trace.inferences, first_seq)
    switch_time = None
    for ev in core.trace.events:
        if ev.kind == "switch" and ev.time >= t_compile:
            switch_time = ev.time - start_time
            break
    switch_index = None
    if switch_time is not None:
        done = frame.sort_values("result").reset_index(drop=True)
        # a plain list and NumPy masks: pandas' .str accessor took ~2 ms for 2,000 rows
        helper = np.array([str(w).startswith("CPU_HELP") for w in done["worker"].tolist()],
                          dtype=bool)
        later = done.index[~helper & (done["result"].to_numpy() >= switch_time)]
        switch_index = int(later[0]) if len(later) else None
    events = [ev for ev in core.trace.events if ev.time >= t_compile]
    return ExperimentResult(device, dict(config), interval, int(opt_nireq), len(queue), frame,
                            switch_time, switch_index, lines, events, start_time)


def auto_test(core, model, device: str = "GPU", config: dict[str, Any] | None = None,
              niter: int = 40, interval: float = 30, num_ireq: int | None = 16,
              verbose: bool = True, progress=None) -> ExperimentResult:
    """``auto-test.py``: the submit -> result timeline (``num_ireq=None``: the optimal number).

    The default config is the script's, with its ``./cache`` kept in the hidden ``.ovlab-work/``
    beside the notebook (a lab writes nothing into the learner's file browser)."""
    if config is None:
        config = {"CACHE_DIR": "./.ovlab-work/cache", "PERFORMANCE_HINT": "LATENCY",
                  "ALLOW_AUTO_BATCHING": "YES", "PERFORMANCE_HINT_NUM_REQUESTS": "4"}
    return _run(core, model, device, config, niter, interval, num_ireq, None, "auto-test",
                verbose, progress, progress_every=4)


def latency_graph(core, model, device: str = "AUTO", config: dict[str, Any] | None = None,
                  niter: int = 2000, interval: float = 30, verbose: bool = True,
                  progress=None) -> ExperimentResult:
    """``auto-test-latency-graph.py``: prints ``Number of infer requests: 16`` but, like the
    script, builds ``AsyncInferQueue(compiled_model)`` with the optimal number of requests."""
    if config is None:
        config = {"PERFORMANCE_HINT": "THROUGHPUT"}
    return _run(core, model, device, config, niter, interval, None, 16, "latency-graph",
                verbose, progress)
