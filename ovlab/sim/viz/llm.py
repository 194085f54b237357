"""Figures of LLM serving (lab 13): what each request saw and what each step did.

``serving_figure(run)`` draws one :class:`ovlab.sim.genai.serving.ServeRun` in four panels: TTFT and
TPOT per request (with the cost model's lone-request values as dashed lines: the analytic model
beside the simulation), KV-cache occupancy per step with preemptions marked, and the tokens each
step scheduled, split into prompt and generated tokens. ``modes_figure(runs)`` compares runs by
their mean TTFT and TPOT. Both are pure functions of the run records, so the dashboard, the tests
and the stored notebook draw the same thing.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .palette import ANALYTIC_COLOR


def log_ticks(values) -> dict:
    """A log axis's ticks at 1, 2 and 5 of each decade the values span, every one written in
    full ("2000", not a bare "2" beside "1000", plotly's own minor labels)."""
    vals = [float(v) for v in values if v is not None and np.isfinite(v) and v > 0]
    if not vals:
        return {}
    lo, hi = min(vals), max(vals)
    steps = (1, 2, 5) if hi / lo < 1e3 else (1,)  # past three decades, the powers of ten only
    ticks = [m * 10.0 ** e for e in range(int(np.floor(np.log10(lo))) - 1,
                                          int(np.ceil(np.log10(hi))) + 1) for m in steps]
    inside = [t for t in ticks if lo / 1.5 <= t <= hi * 1.5]
    if len(inside) < 2:  # a flat series: the tick just below and above it
        inside = [max(t for t in ticks if t <= lo), min(t for t in ticks if t >= hi)]
    # the range holds every tick and every value (plotly's log ranges are in decades)
    span = [np.log10(min(lo, inside[0])) - 0.05, np.log10(max(hi, inside[-1])) + 0.05]
    return dict(tickvals=inside, ticktext=[f"{t:g}" if t < 1e5 else f"{t:.0e}" for t in inside],
                range=[float(v) for v in span], autorange=False)


def serving_figure(run, analytic_ttft_ms: float | None = None,
                   analytic_tpot_ms: float | None = None, title: str | None = None) -> go.Figure:
    fig = make_subplots(rows=2, cols=2, vertical_spacing=0.16, horizontal_spacing=0.1,
                        subplot_titles=("TTFT per request", "TPOT per request",
                                        "KV-cache occupancy per step", "tokens scheduled per step"))
    ids = list(range(len(run.ttft_ms)))
    fig.add_scatter(x=ids, y=run.ttft_ms, mode="markers", name="TTFT", row=1, col=1,
                    marker=dict(color="#1f77b4", size=7))
    fig.add_scatter(x=ids, y=run.tpot_ms, mode="markers", name="TPOT", row=1, col=2,
                    marker=dict(color="#ff7f0e", size=7))
    if analytic_ttft_ms is not None:
        fig.add_scatter(x=[0, max(ids)], y=[analytic_ttft_ms] * 2, mode="lines", row=1, col=1,
                        name="alone (cost model)", line=dict(color=ANALYTIC_COLOR, dash="dash"))
    if analytic_tpot_ms is not None:
        fig.add_scatter(x=[0, max(ids)], y=[analytic_tpot_ms] * 2, mode="lines", row=1, col=2,
                        name="alone (cost model) ", line=dict(color=ANALYTIC_COLOR, dash="dash"),
                        showlegend=False)
    t = [s["time"] for s in run.steps]
    fig.add_scatter(x=t, y=[s["cache_usage"] for s in run.steps], mode="lines", name="KV cache %",
                    row=2, col=1, line=dict(color="#2ca02c"))
    pre = [s for s in run.steps if s["preempted_request_ids"]]
    if pre:
        fig.add_scatter(x=[s["time"] for s in pre], y=[s["cache_usage"] for s in pre],
                        mode="markers", name=f"preemption ({run.preemptions})", row=2, col=1,
                        marker=dict(color="#d62728", symbol="x", size=9))
    fig.add_scatter(x=t, y=[s["num_prompt_tokens"] for s in run.steps], mode="markers",
                    name="prompt tokens", row=2, col=2, marker=dict(color="#9467bd", size=4))
    fig.add_scatter(x=t, y=[s["num_generate_tokens"] for s in run.steps], mode="markers",
                    name="generated tokens", row=2, col=2, marker=dict(color="#8c564b", size=4))
    fig.update_xaxes(title_text="request", row=1, col=1)
    fig.update_xaxes(title_text="request", row=1, col=2)
    fig.update_xaxes(title_text="simulated time (s)", row=2, col=1)
    fig.update_xaxes(title_text="simulated time (s)", row=2, col=2)
    ttft_values = list(run.ttft_ms) + ([analytic_ttft_ms] if analytic_ttft_ms else [])
    fig.update_yaxes(title_text="ms", type="log", row=1, col=1, **log_ticks(ttft_values))
    fig.update_yaxes(title_text="ms", row=1, col=2)
    fig.update_yaxes(title_text="% of blocks", range=[0, 105], row=2, col=1)
    fig.update_yaxes(title_text="tokens", row=2, col=2)
    s = run.summary()
    fig.update_layout(
        height=620, margin=dict(l=60, r=20, t=90, b=50),
        # two short lines: one long line was cut at the right edge of a 1000-px window
        title=dict(font=dict(size=14), text=title or (
            f"{run.label}: mean TTFT {s['mean TTFT ms']:.0f} ms, mean TPOT "
            f"{s['mean TPOT ms']:.0f} ms<br>{s['steps']} steps, {s['preemptions']} "
            f"preemptions, all done at {s['all done s']:.1f} s")),
        legend=dict(orientation="h", y=-0.12))
    return fig


def modes_figure(runs) -> go.Figure:
    """Mean TTFT and mean TPOT of several runs, side by side (log scale: they differ 100x)."""
    labels = [r.label for r in runs]
    fig = go.Figure()
    fig.add_bar(x=labels, y=[float(np.mean(r.ttft_ms)) for r in runs], name="mean TTFT (ms)",
                marker_color="#1f77b4")
    fig.add_bar(x=labels, y=[float(np.mean(r.tpot_ms)) for r in runs], name="mean TPOT (ms)",
                marker_color="#ff7f0e")
    values = [float(np.mean(r.ttft_ms)) for r in runs] + [float(np.mean(r.tpot_ms)) for r in runs]
    fig.update_layout(barmode="group", height=380, title="The same chat stream, served four ways",
                      yaxis=dict(type="log", title="ms", **log_ticks(values)),
                      margin=dict(l=60, r=20, t=60, b=60))
    return fig
