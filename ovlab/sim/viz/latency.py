"""Plotly figures of what a run did: latency traces, submit -> result timelines, device Gantt.

They are built from :class:`ovlab.sim.experiments.ExperimentResult` frames and ``core.trace``
records, so every mark on a plot is an inference that the simulation ran. The latency trace keeps
the seed script's axes and title; the timeline keeps its look (black canvas, cyan wires, green
triangles) but adds axes with units.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from .palette import DEVICE_COLORS, device_color
from .panels import STATIC_POINTS

__all__ = ["DEVICE_COLORS", "gantt_figure", "latency_figure", "timeline_figure",
           "timeline_layout", "timeline_traces"]  # DEVICE_COLORS: imported from here before


def latency_figure(result, title: str = "Inference Latency", *,
                   max_points: int = STATIC_POINTS) -> go.Figure:
    """Latency of every request in completion order (the seed's axes and title), one marker
    per request coloured by device and batch status (decimated so spikes survive: at most
    ``max_points`` per category), with the rolling p5-p50-p95 band, AUTO's switch, the compile
    spans and the batch timer's ticks."""
    from .marks import XAxis, compile_marks, switch_marks
    from .panels import latency_panel
    from .runview import RunView

    view = RunView.from_result(result)
    x = XAxis("iteration")
    panel = latency_panel(view, view, x=x, y_unit="s", max_points=max_points)
    s1, a1 = switch_marks(view, x, "x", "paper")
    s2, a2 = compile_marks(view, x, "x", "paper")
    layout = dict(
        title=dict(text=title),
        xaxis=dict(title=dict(text=x.title(view)), showgrid=True, range=list(x.span(view, view))),
        yaxis=dict(title=dict(text="Latency (sec)"), showgrid=True,
                   range=[0, max(panel.y_max, 1e-9) * 1.08]),
        shapes=s2 + s1, annotations=a1 + a2, showlegend=True,
        legend=dict(orientation="h", yanchor="top", y=-0.18, x=0, font=dict(size=10)),
        margin=dict(l=60, r=20, t=60, b=50), height=440, template="plotly_white")
    return go.Figure(panel.traces, layout)


def timeline_traces(result) -> list[dict]:
    """Submit marks on the upper row, result marks on the lower row, a wire per request,
    coloured by category (plain runs in the seed's cyan)."""
    from .panels import timeline_panel
    from .runview import RunView

    view = RunView.from_result(result)
    return timeline_panel(view, view, dark=True, legend=True).traces


def timeline_layout(result, title: str | None = None) -> dict[str, Any]:
    hint = str(result.config.get("PERFORMANCE_HINT", ""))
    text = title or (f"Submit -> result: {result.device} {hint}, "
                     f"{len(result.requests)} requests every {result.interval_ms:g} ms")
    return dict(
        title=dict(text=text, font=dict(color="white")),
        paper_bgcolor="black", plot_bgcolor="black", font=dict(color="white"),
        xaxis=dict(title=dict(text="time since the first submit (ms)"), gridcolor="#333",
                   zeroline=False),
        yaxis=dict(tickvals=[0, 1], ticktext=["result", "submit"], range=[-0.3, 1.3],
                   gridcolor="#333", zeroline=False),
        showlegend=True, legend=dict(orientation="h", yanchor="top", y=-0.32, x=0,
                                     font=dict(color="white")),
        height=310, margin=dict(l=60, r=20, t=50, b=60))


def timeline_figure(result, title: str | None = None) -> go.Figure:
    """The seed's ``auto-test.py`` picture: batches show as fans of wires meeting at one point."""
    return go.Figure(timeline_traces(result), timeline_layout(result, title))


def gantt_figure(core, since: float = 0.0, title: str = "What ran where") -> go.Figure:
    """One row per worker / stream, one bar per execution, coloured by device."""
    rows = [r for r in core.trace.inferences if r.finished >= since]
    fig = go.Figure()
    seen: set[str] = set()
    workers = sorted({r.worker for r in rows})
    for dev in sorted({r.device for r in rows}):
        recs = [r for r in rows if r.device == dev]
        # one bar per execution: batched executions share start/finish, draw them once
        uniq = {(r.worker, r.started, r.finished): r for r in recs}
        base = [r.started * 1000 for r in uniq.values()]
        width = [(r.finished - r.started) * 1000 for r in uniq.values()]
        fig.add_trace(go.Bar(
            y=[r.worker for r in uniq.values()], x=width, base=base, orientation="h",
            name=dev, marker=dict(color=device_color(dev)), showlegend=dev not in seen,
            hovertemplate="%{y}<br>start %{base:.1f} ms<br>%{x:.2f} ms<extra>" + dev + "</extra>"))
        seen.add(dev)
    fig.update_layout(title=dict(text=title), barmode="overlay", height=120 + 22 * len(workers),
                      xaxis=dict(title=dict(text="simulated time (ms)")),
                      yaxis=dict(title=dict(text="worker"), categoryorder="category ascending"),
                      template="plotly_white", margin=dict(l=90, r=20, t=50, b=50))
    return fig
