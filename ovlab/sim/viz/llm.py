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
    fig.update_yaxes(title_text="ms", type="log", row=1, col=1)
    fig.update_yaxes(title_text="ms", row=1, col=2)
    fig.update_yaxes(title_text="% of blocks", range=[0, 105], row=2, col=1)
    fig.update_yaxes(title_text="tokens", row=2, col=2)
    s = run.summary()
    fig.update_layout(
        height=620, margin=dict(l=60, r=20, t=80, b=50),
        title=title or (f"{run.label}: mean TTFT {s['mean TTFT ms']:.0f} ms, mean TPOT "
                        f"{s['mean TPOT ms']:.0f} ms, {s['steps']} steps, "
                        f"{s['preemptions']} preemptions, all done at {s['all done s']:.1f} s"),
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
    fig.update_layout(barmode="group", height=380, title="The same chat stream, served four ways",
                      yaxis=dict(type="log", title="ms"), margin=dict(l=60, r=20, t=60, b=60))
    return fig
