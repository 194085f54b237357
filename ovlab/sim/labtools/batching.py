"""Lab 05's helpers: tables of batches and the waits of lone requests under the batch timer.

They hold the pandas and NumPy plumbing the lab would otherwise show in its cells, so the cells
read as OpenVINO code. Everything comes from a run's records (``ExperimentResult.requests`` or
``core.trace``), never from a stored figure.
"""

from __future__ import annotations

import numpy as np


def batch_table(run, first: int | None = None):
    """One row per batch of a run: its requests, size, first submit and result (ms), and whether
    all its results came back at one moment."""
    frame = run.requests
    table = frame.dropna(subset=["batch_id"]).groupby("batch_id").agg(
        requests=("n", list), size=("batch_size", "first"),
        first_submit_ms=("submit", lambda s: round(s.min() * 1000, 1)),
        result_ms=("result", lambda s: round(s.max() * 1000, 1)),
        results_at_one_time=("result", lambda s: s.nunique() == 1))
    table["size"] = table["size"].astype(int)
    return table if first is None else table.head(first)


def lone_request_waits(timeout_ms: float, n: int = 1000, mean_gap_s: float = 2.5,
                       seed: int = 1) -> np.ndarray:
    """How long (ms) each request waited before it ran alone after a timeout, for ``n`` requests
    on ``BATCH:CPU(4)`` (the ``cpu`` platform, ``small-cnn``) arriving at random: exponential gaps
    of ``mean_gap_s`` on average, from a seeded generator, so that a batch of 4 almost never
    fills. The records' ``queue_wait`` of the ``timeout-alone`` requests is the wait."""
    from ..runtime.async_queue import AsyncInferQueue
    from ..runtime.core import Core

    core = Core("cpu", seed=0)
    compiled = core.compile_model(core.read_model("small-cnn"), "BATCH:CPU(4)",
                                  {"AUTO_BATCH_TIMEOUT": timeout_ms})
    queue = AsyncInferQueue(compiled, 4)
    x = np.zeros(list(compiled.inputs[0].get_shape()), dtype=np.float32)
    for gap in np.random.default_rng(seed).exponential(mean_gap_s, n):
        core.clock.sleep(float(gap))
        queue.start_async({0: x})
    queue.wait_all()
    waits = [r.queue_wait for r in core.trace.inferences if r.status == "timeout-alone"]
    return np.asarray(waits) * 1000
