"""Figures of lab 05: the batch timer's wake-ups on a timeline, and the waits of lone requests
against the periodic-timer model."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .latency import timeline_figure


def _mark(fig: go.Figure, x_ms: float, text: str, color: str) -> None:
    """A dashed vertical line, labelled between the two rows of a timeline."""
    fig.add_shape(type="line", x0=x_ms, x1=x_ms, y0=0, y1=1, yref="paper",
                  line=dict(color=color, dash="dash", width=1))
    fig.add_annotation(x=x_ms, y=0.5, text=" " + text, showarrow=False, xanchor="left",
                       font=dict(color=color, size=10))


def timer_figure(run, core, title: str) -> go.Figure:
    """``auto-test.py``'s timeline of ``run`` with the batch worker's wake-ups marked: the moment
    a batch filled (magenta) and every timer expiry with the number of requests it sent on alone
    (orange). ``core`` is the Core the run used (its records give the moments)."""
    records = [r for r in core.trace.inferences if r.seq >= run.requests["seq"].min()]
    t_start = min(r.submitted for r in records)
    fig = timeline_figure(run, title)
    full = [r.started for r in records if (r.batch_size or 1) > 1]
    if full:
        _mark(fig, (min(full) - t_start) * 1000, "batch full", "magenta")
    last = 0.0
    for ev in core.trace.events:
        if ev.kind == "batch_timeout" and ev.time >= t_start:
            last = (ev.time - t_start) * 1000
            _mark(fig, last, f"tick: {ev.detail['requests']} alone", "orange")
    right = max(last, float(run.requests["result"].max()) * 1000)
    fig.update_xaxes(range=[-100, right * 1.15 + 100])  # room for the last label
    return fig


def wait_histogram_figure(waits_ms: np.ndarray, timeout_ms: float,
                          bin_ms: float = 50) -> go.Figure:
    """The simulated waits of lone requests as a histogram outline, beside two models: a periodic
    timer (uniform on [0, T]) and a timer started by the first arrival (every request waits T)."""
    edges = np.arange(0, timeout_ms + bin_ms, bin_ms)
    counts, _ = np.histogram(waits_ms, bins=edges)
    step_x = np.repeat(edges, 2)[1:-1]  # the outline: (0, c0), (50, c0), (50, c1), ...
    step_y = np.repeat(counts, 2)
    n = len(waits_ms)
    fig = go.Figure([
        go.Scatter(x=step_x, y=step_y, mode="lines", fill="tozeroy", name="simulated (ovlab)",
                   line=dict(color="#1f77b4", width=1.5)),
        go.Scatter(x=[0, timeout_ms], y=[n * bin_ms / timeout_ms] * 2, mode="lines",
                   name="periodic timer: uniform on [0, T]", line=dict(color="#2ca02c", width=2)),
        go.Scatter(x=[timeout_ms, timeout_ms], y=[0, counts.max() * 1.3], mode="lines",
                   name=f"timer from the first arrival: all {n} wait T",
                   line=dict(color="#d62728", dash="dash", width=2))])
    fig.update_layout(title=f"How long a lone request waits (AUTO_BATCH_TIMEOUT {timeout_ms:g} ms)",
                      xaxis_title="wait before it runs alone (ms)",
                      yaxis_title=f"requests per {bin_ms:g} ms bin", template="plotly_white",
                      height=380)
    return fig
