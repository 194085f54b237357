"""Fewer points for large runs, without losing the spikes.

A 2,000-request run drawn point by point is fine for plotly, but a live plot redrawn 30 times a
second, a PNG of a 10,000-request run, or a browser on a small laptop all pay for every marker.
Plain striding (every k-th point) would drop exactly what a learner should see: the one request
in a hundred that waited a whole batch timeout. So each bucket of consecutive points keeps its
minimum and its maximum (the "min-max" decimation of oscilloscopes and time-series databases):
spikes and dips always survive, flat stretches thin out. Statistics (percentiles, histograms,
summaries) are always computed from every point, never from the decimated ones.
"""

from __future__ import annotations

import numpy as np


def minmax_indices(y, max_points: int = 1000) -> np.ndarray:
    """Sorted indices of at most ~``max_points`` points of ``y`` that keep every bucket's
    minimum and maximum (all indices when ``y`` is short enough)."""
    y = np.asarray(y, dtype=float)
    n = len(y)
    if n <= max_points:
        return np.arange(n)
    buckets = max(1, max_points // 2)
    edges = np.linspace(0, n, buckets + 1).astype(int)
    counts = np.diff(edges)
    starts = edges[:-1][counts > 0]
    seg = np.repeat(np.arange(len(counts)), counts)  # the bucket of every point, in order
    finite = np.isfinite(y)
    # sort each bucket by value (stable: ties keep the first); its first element is the extreme
    by_max = np.lexsort((-np.where(finite, y, -np.inf), seg))
    by_min = np.lexsort((np.where(finite, y, np.inf), seg))
    return np.unique(np.concatenate([by_max[starts], by_min[starts]]))
