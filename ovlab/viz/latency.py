"""Plotly figures of what a run did: latency traces, submit -> result timelines, device Gantt.

They are built from :class:`ovlab.experiments.ExperimentResult` frames and ``core.trace``
records, so every mark on a plot is an inference that the simulation ran. The latency trace keeps
the seed script's axes and title; the timeline keeps its look (black canvas, cyan wires, green
triangles) but adds axes with units.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go

DEVICE_COLORS = {"CPU": "#1f77b4", "GPU.0": "#2ca02c", "GPU.1": "#d62728", "GPU.2": "#9467bd",
                 "NPU": "#ff7f0e", "(CPU)": "#17becf"}


def _device_color(device: str) -> str:
    return DEVICE_COLORS.get(device, "#7f7f7f")


def latency_traces(result) -> list[go.Scatter]:
    """The seed's single blue line: latency (s) of each request in completion order."""
    frame = result.requests.sort_values("result").reset_index(drop=True)
    return [go.Scatter(x=np.arange(len(frame)), y=frame["latency"].to_numpy(), mode="lines",
                       name="latency", line=dict(color="#1f77b4", width=1.2),
                       customdata=np.stack([frame["device"].astype(str), frame["n"]], axis=1),
                       hovertemplate="iteration %{x}<br>latency %{y:.4f} s<br>"
                                     "device %{customdata[0]}<br>request %{customdata[1]}"
                                     "<extra></extra>")]


def latency_layout(result, title: str = "Inference Latency") -> dict[str, Any]:
    interval = result.interval_ms
    interval_text = f"{int(interval)}" if float(interval).is_integer() else f"{interval}"
    shapes, annotations = [], []
    if result.switch_index is not None:
        shapes.append(dict(type="line", x0=result.switch_index, x1=result.switch_index, y0=0,
                           y1=1, yref="paper", line=dict(color="#d62728", dash="dash", width=1.5)))
        annotations.append(dict(x=result.switch_index, y=1, yref="paper", yanchor="bottom",
                                text=f"switch to {_first_non_helper(result)} "
                                     f"(t = {result.switch_time:.2f} s)",
                                showarrow=False, font=dict(color="#d62728")))
    return dict(
        title=dict(text=title),
        xaxis=dict(title=dict(text=f"Inference Iteration ({interval_text}ms/inf)"), showgrid=True),
        yaxis=dict(title=dict(text="Latency (sec)"), showgrid=True, rangemode="tozero"),
        shapes=shapes, annotations=annotations, showlegend=False,
        margin=dict(l=60, r=20, t=60, b=50), height=380, template="plotly_white")


def _first_non_helper(result) -> str:
    frame = result.requests.sort_values("result")
    rest = frame[~frame["worker"].astype(str).str.startswith("CPU_HELP")]
    return str(rest["device"].iloc[0]) if len(rest) else "device"


def latency_figure(result, title: str = "Inference Latency") -> go.Figure:
    """Latency of every request in completion order, with AUTO's device switch marked."""
    return go.Figure(latency_traces(result), latency_layout(result, title))


def timeline_traces(result) -> list[go.Scatter]:
    """Submit marks on the upper row, result marks on the lower row, a wire per request."""
    frame = result.requests
    submit_ms = frame["submit"].to_numpy() * 1000
    result_ms = frame["result"].to_numpy() * 1000
    wires_x = np.empty(3 * len(frame))
    wires_y = np.empty(3 * len(frame))
    wires_x[0::3], wires_x[1::3], wires_x[2::3] = submit_ms, result_ms, np.nan
    wires_y[0::3], wires_y[1::3], wires_y[2::3] = 1.0, 0.0, np.nan
    batch = frame["batch_size"].fillna(1).astype(int).astype(str).to_numpy()
    hover = [f"request {n}<br>latency {lat * 1000:.1f} ms<br>{dev} batch {b}"
             for n, lat, dev, b in zip(frame["n"], frame["latency"], frame["device"], batch,
                                       strict=True)]
    return [
        go.Scatter(x=wires_x, y=wires_y, mode="lines", name="request -> result",
                   line=dict(color="cyan", width=1), hoverinfo="skip"),
        go.Scatter(x=submit_ms, y=np.ones(len(frame)), mode="markers", name="submitted",
                   marker=dict(symbol="triangle-up-open", color="lime", size=9),
                   text=hover, hovertemplate="%{text}<br>submitted %{x:.0f} ms<extra></extra>"),
        go.Scatter(x=result_ms, y=np.zeros(len(frame)), mode="markers", name="result",
                   marker=dict(symbol="triangle-up-open", color="lime", size=9),
                   text=hover, hovertemplate="%{text}<br>result %{x:.0f} ms<extra></extra>"),
    ]


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
        showlegend=False, height=260, margin=dict(l=60, r=20, t=50, b=50))


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
            name=dev, marker=dict(color=_device_color(dev)), showlegend=dev not in seen,
            hovertemplate="%{y}<br>start %{base:.1f} ms<br>%{x:.2f} ms<extra>" + dev + "</extra>"))
        seen.add(dev)
    fig.update_layout(title=dict(text=title), barmode="overlay", height=120 + 22 * len(workers),
                      xaxis=dict(title=dict(text="simulated time (ms)")),
                      yaxis=dict(title=dict(text="worker"), categoryorder="category ascending"),
                      template="plotly_white", margin=dict(l=90, r=20, t=50, b=50))
    return fig
