"""Lab 08's picture of AUTO's runtime fallback: what ran where in a time window, one row per
worker request, failed inferences in red and compiles (the fallback device's) as grey bars."""

from __future__ import annotations

import plotly.graph_objects as go

COLORS = {"compile": "#7f7f7f", "GPU.0": "#2ca02c", "CPU": "#1f77b4", "failed": "#d62728"}


def fallback_figure(core, t0: float, t1: float, title: str) -> go.Figure:
    """Bars for the inferences and compiles of ``core`` between ``t0`` and ``t1`` (simulated s),
    in ms; inferences coloured by the device that ran them, failed ones in red."""
    bars: dict[str, list[tuple[str, float, float]]] = {"compile": [], "failed": []}
    ev = core.trace.events_frame()
    for e in ev[(ev["kind"] == "compile_start") & ev["time"].between(t0, t1)].itertuples():
        bars["compile"].append((f"{e.device} compile", e.time, e.time + e.seconds))
    for r in core.trace:
        if r.finished >= t0 and r.started <= t1:
            key = "failed" if r.status == "failed" else r.device
            bars.setdefault(key, []).append((r.worker, r.started, r.finished))
    fig = go.Figure()
    for label, items in bars.items():
        items.sort()  # rows appear in worker order (GPU.0:0, GPU.0:1, ...)
        if items:
            fig.add_trace(go.Bar(y=[b[0] for b in items], x=[(b[2] - b[1]) * 1000 for b in items],
                                 base=[b[1] * 1000 for b in items], orientation="h", name=label,
                                 marker=dict(color=COLORS.get(label, "#9467bd"))))
    fig.update_layout(title=title, barmode="overlay", template="plotly_white", height=330,
                      xaxis_title="simulated time (ms)", yaxis_title="worker request",
                      legend_title="ran")
    return fig
