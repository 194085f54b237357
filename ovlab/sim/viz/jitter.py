"""Jitter as a shape: a rolling p5-p50-p95 band and latency histograms per category.

"Jittery" is a word; a band that widens while the GPU compiles and narrows after the switch, or a
histogram with two humps (a batch's saw-tooth and the lone requests that waited for the timer), is
a picture a learner can compare between two settings. Both are computed from every request, in
completion order, never from the decimated markers.
"""

from __future__ import annotations

import numpy as np


def rolling_band(values, window: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """p5, p50 and p95 of the last ``window`` values at each position (completion order).

    The window is ~1/40 of the run (at least 10), so a 2,000-request run uses the last 50
    requests: short enough to follow the switch, long enough for a p95 to mean something.
    Positions before the first full window use what there is (``min_periods`` = 1/2 window).
    """
    import pandas as pd

    s = pd.Series(np.asarray(values, dtype=float))
    if window is None:
        window = default_window(len(s))
    roll = s.rolling(window, min_periods=max(1, window // 2))
    return (roll.quantile(0.05).to_numpy(), roll.quantile(0.5).to_numpy(),
            roll.quantile(0.95).to_numpy())


def default_window(n: int) -> int:
    return max(10, n // 40)


def histogram_edges(values, bins: int = 40, upper: float | None = None) -> np.ndarray:
    """Shared bin edges from 0 to the largest value (or ``upper``), so categories compare."""
    values = np.asarray(values, dtype=float)
    top = upper if upper is not None else (float(np.nanmax(values)) if len(values) else 1.0)
    top = top if top > 0 else 1.0
    return np.linspace(0.0, top * 1.0001, bins + 1)


def histogram(values, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Counts per bin and the bin centres."""
    counts, _ = np.histogram(np.asarray(values, dtype=float), bins=edges)
    return counts, (edges[:-1] + edges[1:]) / 2


def outline(counts: np.ndarray, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A histogram's outline as a step line (x = count, y = value), for a ghost or run A."""
    y = np.repeat(edges, 2)[1:-1]
    x = np.repeat(counts, 2).astype(float)
    return np.concatenate([[0.0], x, [0.0]]), np.concatenate([[edges[0]], y, [edges[-1]]])
