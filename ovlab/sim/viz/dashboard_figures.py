"""The dashboards' figures, as pure functions of a run (whole, or cut at a moment).

The live FigureWidget of a dashboard, the static PNG stored in the notebook, the benchmark and the
unit tests all call these same functions, so what a test checks is what a learner sees. Each
figure sets every layout key it uses on every call (shapes and annotations as whole lists, axis
ranges explicitly): a FigureWidget sends only the keys a new layout has, so a key left out would
keep the previous run's value in the browser (the stale switch line of issue 15).
"""

from __future__ import annotations

import math
from typing import Any

import plotly.graph_objects as go

from .marks import XAxis, compile_marks, switch_marks
from .panels import add_histograms, latency_panel, timeline_panel

LEGEND = dict(orientation="h", yanchor="top", y=-0.16, xanchor="left", x=0.0, font=dict(size=10))
LEGEND_ROW_PX = 22  # one row of the horizontal legend (font size 10)


def legend_below(layout: dict[str, Any], traces: list[dict[str, Any]]) -> dict[str, Any]:
    """The legend at the bottom of the figure, under the x axes' titles, in a margin made for
    it (two entries a row, the most a narrow output area holds), the figure taller by as much.

    Placed on the plot area (``yref="paper"``, ``y=-0.16``), a legend of three rows (compare
    overlay) pushed the plot up by plotly's automatic margin, which moved the legend up with it,
    over both x axes' titles (review 4b, shot 06)."""
    n = sum(1 for t in traces if t.get("showlegend", True) is not False and t.get("name"))
    room = 10 + max(1, math.ceil(n / 2)) * LEGEND_ROW_PX
    layout["legend"] = {**LEGEND, "yref": "container", "y": 0.0, "yanchor": "bottom"}
    layout["margin"] = {**layout["margin"], "b": layout["margin"]["b"] + 20 + room}
    layout["height"] = layout["height"] + room
    return layout


def _hint(view) -> str:
    h = view.config.get("PERFORMANCE_HINT", "")
    return str(getattr(h, "name", h))


def _title(view, full, base: str) -> str:
    if view.complete:
        return base
    return f"{base} · running: {view.clock_text}"


def _y_range(panel, y_range) -> list[float]:
    """The latency axis: locked, or from 0 to above the tallest point (the histogram's bins were
    laid out on the same range by :func:`~ovlab.sim.viz.panels.latency_panel`)."""
    if y_range is not None:
        return [float(y_range[0]), float(y_range[1])]
    top = panel.y_max if panel.y_max > 0 else 1.0
    return [0.0, top * 1.08]


def latency_dashboard_figure(view, full=None, **kw: Any) -> go.Figure:
    """Lab 04's dashboard figure: latency per request on the seed's axes with its spread, the
    analytic model, the marks, a ghost of the previous run, and a histogram per category
    (keywords: see :func:`latency_dashboard_spec`)."""
    return go.Figure(latency_dashboard_spec(view, full, **kw))


def timeline_dashboard_figure(view, full=None, **kw: Any) -> go.Figure:
    """Lab 05's dashboard figure: the seed's submit -> result wires on top, coloured by
    category; below, on the same time axis, each request's latency with the analytic model and a
    histogram per category (keywords: see :func:`timeline_dashboard_spec`)."""
    return go.Figure(timeline_dashboard_spec(view, full, **kw))


def latency_dashboard_spec(view, full=None, *, x: str = "iteration", ghost=None, pinned=None,
                           analytic=None, y_range=None, title: str | None = None,
                           max_points: int = 1000) -> dict[str, Any]:
    """The figure as plain ``{"data": [...], "layout": {...}}`` (what a FigureWidget is sent).

    ``view``: the run as it stood at some moment (``full.at(t)``) or ``full`` itself; ``x``:
    ``"iteration"`` (the seed's axis) or ``"result"`` (seconds); ``ghost``: the previous run;
    ``pinned``: run A of compare mode; ``analytic``: an :class:`~ovlab.sim.viz.analytic.Analytic`;
    ``y_range``: a locked latency range (s)."""
    full = full or view
    xaxis = XAxis(x)
    panel = latency_panel(view, full, x=xaxis, y_unit="s", axes=("x", "y"), ghost=ghost,
                          pinned=pinned, analytic=analytic, max_points=max_points)
    y = _y_range(panel, y_range)
    add_histograms(panel, view, full, top=y[1], hist_axes=("x2", "y2"), ghost=ghost,
                   pinned=pinned)
    s1, a1 = switch_marks(view, xaxis, "x", "y domain")
    s2, a2 = compile_marks(view, xaxis, "x", "y domain")
    base = title or f"Inference Latency: {full.device} {_hint(full)}"
    layout = dict(
        title=dict(text=_title(view, full, base)),
        xaxis=dict(domain=[0.0, 0.79], range=list(xaxis.span(view, full)),
                   title=dict(text=xaxis.title(full)), showgrid=True, zeroline=False),
        yaxis=dict(range=y, title=dict(text="Latency (sec)"), showgrid=True, zeroline=False),
        xaxis2=dict(domain=[0.81, 1.0], range=[0, max(panel.count_max, 1) * 1.1],
                    title=dict(text="requests"), showgrid=True, zeroline=False),
        yaxis2=dict(anchor="x2", range=y, matches="y", showticklabels=False, showgrid=True),
        shapes=s2 + s1, annotations=a1 + a2 + panel.annotations, barmode="overlay",
        showlegend=True, legend=LEGEND, margin=dict(l=60, r=20, t=60, b=40), height=460, autosize=True,
        template="plotly_white", uirevision="keep")
    return {"data": panel.traces, "layout": _labels_unclipped(legend_below(layout, panel.traces))}


def timeline_dashboard_spec(view, full=None, *, ghost=None, pinned=None, analytic=None,
                            y_range=None, title: str | None = None,
                            max_points: int = 1000) -> dict[str, Any]:
    """The figure as plain dicts; keywords as :func:`latency_dashboard_spec` (latency in ms)."""
    full = full or view
    xaxis = XAxis("submit")
    wires = timeline_panel(view, full, axes=("x", "y"), ghost=ghost)
    lat = latency_panel(view, full, x=xaxis, y_unit="ms", axes=("x2", "y2"), ghost=ghost,
                        pinned=pinned, analytic=analytic, max_points=max_points)
    y = _y_range(lat, y_range)
    add_histograms(lat, view, full, top=y[1], hist_axes=("x3", "y3"), y_unit="ms", ghost=ghost,
                   pinned=pinned)
    span = list(xaxis.span(view, full))
    shapes, notes = [], []
    for xref, yref in (("x", "y domain"), ("x2", "y2 domain")):
        s, a = compile_marks(view, xaxis, xref, yref)
        shapes += s
        notes += a if xref == "x" else []
        s, a = switch_marks(view, xaxis, xref, yref)
        shapes += s
        notes += a if xref == "x" else []
    for k in view.ticks:  # the batch timer's ticks that sent requests alone
        pos = k.time * 1000
        shapes.append(dict(type="line", xref="x", yref="y domain", x0=pos, x1=pos, y0=0, y1=1,
                           line=dict(color="#ff7f0e", dash="dot", width=1)))
    hint = _hint(full)
    base = title or (f"Submit -> result: {full.device} {hint}, {full.niter} requests every "
                     f"{full.interval_ms:g} ms")
    layout = dict(
        title=dict(text=_title(view, full, base)),
        xaxis=dict(domain=[0.0, 0.79], range=span, showticklabels=False, zeroline=False,
                   showgrid=True),
        yaxis=dict(domain=[0.60, 1.0], tickvals=[0, 1], ticktext=["result", "submit"],
                   range=[-0.3, 1.3], zeroline=False),
        xaxis2=dict(domain=[0.0, 0.79], range=span, matches="x", anchor="y2", zeroline=False,
                    title=dict(text=xaxis.title(full)), showgrid=True),
        yaxis2=dict(domain=[0.0, 0.52], range=y, title=dict(text="latency (ms)"),
                    zeroline=False, showgrid=True),
        xaxis3=dict(domain=[0.81, 1.0], anchor="y3", range=[0, max(lat.count_max, 1) * 1.1],
                    title=dict(text="requests"), zeroline=False, showgrid=True),
        yaxis3=dict(domain=[0.0, 0.52], anchor="x3", range=y, matches="y2",
                    showticklabels=False, showgrid=True),
        shapes=shapes, annotations=notes + lat.annotations, barmode="overlay", showlegend=True,
        legend=LEGEND, margin=dict(l=60, r=20, t=60, b=40), height=460, autosize=True,
        template="plotly_white", uirevision="keep")
    traces = wires.traces + lat.traces
    return {"data": traces, "layout": _labels_unclipped(legend_below(layout, traces))}


def _labels_unclipped(layout: dict[str, Any]) -> dict[str, Any]:
    """Every axis with ``ticklabeloverflow="allow"``: the tick labels sit inside the margins
    anyway (the same pixels), and plotly's default ("hide past div") measures every label
    against the page again after each one is placed, ~8 ms of every redraw of lab 04's figure
    in headless Chromium on a 2-vCPU machine."""
    for key, axis in layout.items():
        if key.startswith(("xaxis", "yaxis")):
            axis["ticklabeloverflow"] = "allow"
    return layout
