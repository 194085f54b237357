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


# the 2 x 2 grid make_subplots lays out (vertical_spacing 0.16, horizontal_spacing 0.1), written
# out: building the figure through make_subplots and plotly's validators took a third of a
# lab 13 knob change's kernel time
_COLS = ([0.0, 0.45], [0.55, 1.0])
_ROWS = ([0.58, 1.0], [0.0, 0.42])  # top, bottom
PANEL_TITLES = ("TTFT per request", "TPOT per request", "KV-cache occupancy per step",
                "tokens scheduled per step")


def serving_spec(run, analytic_ttft_ms: float | None = None,
                 analytic_tpot_ms: float | None = None, title: str | None = None) -> dict:
    """:func:`serving_figure` as plain dicts (what the lab 13 dashboard sends). Every trace is
    there whatever the run (the preemptions' markers empty when there were none), so that a
    dashboard's change updates its figure in place instead of building a new one."""
    ids = list(range(len(run.ttft_ms)))
    last = max(ids) if ids else 0
    t = [s["time"] for s in run.steps]
    pre = [s for s in run.steps if s["preempted_request_ids"]]
    data = [
        dict(type="scatter", x=ids, y=list(run.ttft_ms), mode="markers", name="TTFT",
             xaxis="x", yaxis="y", marker=dict(color="#1f77b4", size=7)),
        dict(type="scatter", x=ids, y=list(run.tpot_ms), mode="markers", name="TPOT",
             xaxis="x2", yaxis="y2", marker=dict(color="#ff7f0e", size=7)),
        dict(type="scatter", x=[0, last] if analytic_ttft_ms is not None else [],
             y=[analytic_ttft_ms] * 2 if analytic_ttft_ms is not None else [], mode="lines",
             xaxis="x", yaxis="y", name="alone (cost model)",
             showlegend=analytic_ttft_ms is not None,
             line=dict(color=ANALYTIC_COLOR, dash="dash")),
        dict(type="scatter", x=[0, last] if analytic_tpot_ms is not None else [],
             y=[analytic_tpot_ms] * 2 if analytic_tpot_ms is not None else [], mode="lines",
             xaxis="x2", yaxis="y2", name="alone (cost model) ", showlegend=False,
             line=dict(color=ANALYTIC_COLOR, dash="dash")),
        dict(type="scatter", x=t, y=[s["cache_usage"] for s in run.steps], mode="lines",
             name="KV cache %", xaxis="x3", yaxis="y3", line=dict(color="#2ca02c")),
        dict(type="scatter", x=[s["time"] for s in pre], y=[s["cache_usage"] for s in pre],
             mode="markers", name=f"preemption ({run.preemptions})", xaxis="x3", yaxis="y3",
             showlegend=bool(pre), marker=dict(color="#d62728", symbol="x", size=9)),
        dict(type="scatter", x=t, y=[s["num_prompt_tokens"] for s in run.steps],
             mode="markers", name="prompt tokens", xaxis="x4", yaxis="y4",
             marker=dict(color="#9467bd", size=4)),
        dict(type="scatter", x=t, y=[s["num_generate_tokens"] for s in run.steps],
             mode="markers", name="generated tokens", xaxis="x4", yaxis="y4",
             marker=dict(color="#8c564b", size=4)),
    ]
    ttft_values = list(run.ttft_ms) + ([analytic_ttft_ms] if analytic_ttft_ms else [])
    axes_y = (dict(title=dict(text="ms"), type="log", **log_ticks(ttft_values)),
              dict(title=dict(text="ms")), dict(title=dict(text="% of blocks"), range=[0, 105]),
              dict(title=dict(text="tokens")))
    layout: dict = {}
    notes = []
    for i, x_title in enumerate(("request", "request", "simulated time (s)",
                                 "simulated time (s)")):
        n = "" if i == 0 else str(i + 1)
        col, row = _COLS[i % 2], _ROWS[i // 2]
        layout[f"xaxis{n}"] = dict(anchor=f"y{n}", domain=col, title=dict(text=x_title))
        layout[f"yaxis{n}"] = dict(anchor=f"x{n}", domain=row, **axes_y[i])
        notes.append(dict(text=PANEL_TITLES[i], x=(col[0] + col[1]) / 2, y=row[1],
                          xref="paper", yref="paper", xanchor="center", yanchor="bottom",
                          showarrow=False, font=dict(size=16)))
    s = run.summary()
    layout.update(
        annotations=notes, height=620, margin=dict(l=60, r=20, t=90, b=50),
        # two short lines: one long line was cut at the right edge of a 1000-px window
        title=dict(font=dict(size=14), text=title or (
            f"{run.label}: mean TTFT {s['mean TTFT ms']:.0f} ms, mean TPOT "
            f"{s['mean TPOT ms']:.0f} ms<br>{s['steps']} steps, {s['preemptions']} "
            f"preemptions, all done at {s['all done s']:.1f} s")),
        legend=dict(orientation="h", y=-0.12))
    return {"data": data, "layout": layout}


def serving_figure(run, analytic_ttft_ms: float | None = None,
                   analytic_tpot_ms: float | None = None, title: str | None = None) -> go.Figure:
    """One serving run in four panels: TTFT and TPOT per request with the cost model's
    lone-request values, KV-cache occupancy per step with preemptions marked, and the tokens
    each step scheduled (:func:`serving_spec`)."""
    return go.Figure(serving_spec(run, analytic_ttft_ms, analytic_tpot_ms, title))


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
