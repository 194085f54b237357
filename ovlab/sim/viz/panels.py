"""The panels the dashboards are made of, as plain plotly trace and shape dicts.

* :func:`latency_panel`: one marker per request, coloured by category (device and batch
  status), decimated so spikes survive; the rolling p5-p50-p95 band; the analytic model's lines;
  the batch timer's ticks; a faint ghost of the previous run and, in compare mode, run A; and
  beside it, on the same latency axis, a histogram per category with the ghost's and A's
  outlines.
* :func:`timeline_panel`: the seed's submit -> result wires, coloured the same way.

Every panel is built from a :class:`~ovlab.sim.viz.runview.RunView` cut at some moment and from the
whole run it belongs to (``full``): the whole run fixes which traces exist and in which order
(its categories, whether it has ticks), so a live plot keeps the same traces from its first frame
to its last and only their data grow; a category that has no point yet has no legend entry yet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import jitter
from .decimate import minmax_indices
from .marks import XAxis, tick_trace
from .palette import ANALYTIC_COLOR, GHOST_COLOR, HELPER_COLOR, PINNED_COLOR, device_color

#: markers drawn per category in a static figure, as in lab 04's dashboard (min-max decimation
#: keeps every spike, and the legend says how many were drawn): JupyterLab draws a figure and
#: then rasterizes it for the stored notebook, and lab 04's THROUGHPUT figure took 244 ms of a
#: browser's main thread with 1,000 per category, 166 ms with 300 (plotly.js in headless
#: Chromium, 2-vCPU Intel Xeon, 2026-12-07), on Run All's critical path
STATIC_POINTS = 300

BAND_FILL = "rgba(60, 60, 60, 0.10)"
MEDIAN_COLOR = "rgba(40, 40, 40, 0.75)"


@dataclass
class Panel:
    traces: list[dict[str, Any]] = field(default_factory=list)
    shapes: list[dict[str, Any]] = field(default_factory=list)
    annotations: list[dict[str, Any]] = field(default_factory=list)
    y_max: float = 0.0  # the largest value drawn, in the panel's unit
    count_max: float = 0.0  # the tallest histogram bar


def _hover(n: np.ndarray, batch_id, keep: np.ndarray, y_unit: str,
           batched: bool) -> tuple[np.ndarray, str]:
    """Numbers only in ``customdata``: the request (and, in a batch, the batch id). Plotly
    sends a 1-D numeric array compactly, while a label per point would repeat the trace's name
    2,000 times; and no NaN, which is not JSON (a FigureWidget sends 2-D data as lists).
    ``n`` and ``batch_id``: the run's columns as float arrays (a callable giving the latter,
    read only for a batched category); ``keep``: the points drawn."""
    fmt = ".4f" if y_unit == "s" else ".1f"
    head = "request %{customdata" + ("[0]" if batched else "") + "}<br>latency %{y:" + fmt + \
        "} " + y_unit + "<br>%{fullData.name}"
    if batched:
        custom = np.column_stack([n[keep], batch_id()[keep]])
        return custom, head + " (batch %{customdata[1]})<extra></extra>"
    return n[keep], head + "<extra></extra>"


def latency_panel(view, full, *, x: XAxis, y_unit: str = "s", axes: tuple[str, str] = ("x", "y"),
                  ghost=None, pinned=None, analytic=None, max_points: int = 1000) -> Panel:
    """Latency per request and its spread (the histograms are added by :func:`add_histograms`
    once the latency range is known, so that their bins line up with it)."""
    scale = 1.0 if y_unit == "s" else 1000.0
    xa, ya = axes
    panel = Panel()
    f = view.frame
    xs, ys = x.of_requests(f), f["latency"].to_numpy() * scale
    # the ghost (the previous run) and, in compare mode, run A: faint, behind everything.
    # Both traces are there (empty) with no run to show, so that pinning A and turning compare
    # off keep the figure's structure: an update in place, not a new FigureWidget, which the
    # browser builds from scratch (1.6-3.2 s under a class's load, review 4)
    layers = [(ghost, "previous run", GHOST_COLOR, 0.35, "circle", 4),
              (pinned, "A", PINNED_COLOR, 0.5, "circle-open", 5)]
    for other, name, color, opacity, symbol, size in layers:
        gx, gy, label = np.array([]), np.array([]), name
        if other is not None:
            gx, gy = x.of_requests(other.frame), other.frame["latency"].to_numpy() * scale
            keep = minmax_indices(gy, max_points)
            gx, gy = gx[keep], gy[keep]
            label = f"{name}: {other.label}"
            panel.y_max = max(panel.y_max, float(gy.max()) if len(gy) else 0.0)
        if name == "previous run":
            # one short dash per point, all in one SVG path (NaN gaps between them): the same
            # faint cloud, but plotly draws one path instead of restyling ~300 markers on
            # every redraw (~45 us each on a 2-vCPU machine)
            gx, gy = ghost_dashes(gx, gy)
            panel.traces.append(dict(
                type="scatter", x=gx, y=gy, mode="lines", xaxis=xa, yaxis=ya, name=label,
                line=dict(color=color, width=size), opacity=opacity,
                hoverinfo="skip", showlegend=other is not None))
            continue
        panel.traces.append(dict(
            type="scatter", x=gx, y=gy, mode="markers", xaxis=xa, yaxis=ya, name=label,
            marker=dict(color=color, size=size, opacity=opacity, symbol=symbol),
            hoverinfo="skip", showlegend=other is not None))
    # the rolling band, in completion order
    lo, mid, hi = (np.array([]),) * 3
    if len(ys):
        order = np.argsort(xs, kind="stable")
        lo, mid, hi = (a * 1.0 for a in jitter.rolling_band(ys[order],
                                                           jitter.default_window(full.niter)))
        bx = xs[order]
        # the band is smooth: every step-th point is enough (~250: each is three traces sent
        # and redrawn on every change)
        step = max(1, len(bx) // 250)
        bx, lo, mid, hi = bx[::step], lo[::step], mid[::step], hi[::step]
    else:
        bx = np.array([])
    window = jitter.default_window(full.niter)
    panel.traces += [
        dict(type="scatter", x=bx, y=lo, mode="lines", xaxis=xa, yaxis=ya, line=dict(width=0),
             name="p5", hoverinfo="skip", showlegend=False),
        dict(type="scatter", x=bx, y=hi, mode="lines", xaxis=xa, yaxis=ya, line=dict(width=0),
             fill="tonexty", fillcolor=BAND_FILL, name=f"p5-p95 of the last {window}",
             hoverinfo="skip", showlegend=bool(len(bx))),
        dict(type="scatter", x=bx, y=mid, mode="lines", xaxis=xa, yaxis=ya,
             line=dict(color=MEDIAN_COLOR, width=1.2), name=f"median of the last {window}",
             hoverinfo="skip", showlegend=bool(len(bx))),
    ]
    # one marker trace per category of the whole run
    codes = f["cat_code"].to_numpy()
    n = f["n"].to_numpy(dtype=float)  # read once, not per category through pandas
    batch_ids: list[np.ndarray] = []

    def batch_id() -> np.ndarray:
        if not batch_ids:
            batch_ids.append(f["batch_id"].to_numpy(dtype=float))
        return batch_ids[0]

    for i, cat in enumerate(full.categories):
        sel = np.flatnonzero(codes == i)
        keep = sel[minmax_indices(ys[sel], max_points)] if len(sel) else sel
        drawn = "" if len(keep) == len(sel) else f", {len(keep)} drawn"  # min-max decimation
        custom, template = _hover(n, batch_id, keep, y_unit, cat.status == "batch")
        panel.traces.append(dict(
            type="scatter", x=xs[keep], y=ys[keep], mode="markers", xaxis=xa, yaxis=ya,
            name=f"{cat.label} ({len(sel)}{drawn})", legendgroup=cat.label,
            marker=dict(color=cat.color, symbol=cat.symbol, size=5 if cat.symbol != "x" else 6,
                        line=dict(width=0)),
            customdata=custom, hovertemplate=template, showlegend=bool(len(sel))))
    panel.y_max = max(panel.y_max, float(ys.max()) if len(ys) else 0.0)
    # the analytic model
    traces, top = analytic_traces(analytic, view, full, x, scale, xa, ya)
    panel.traces += traces
    panel.y_max = max(panel.y_max, top)
    # the batch timer's ticks, as a rug at the bottom
    panel.traces.append(tick_trace(view, x, 0.0, xa, ya))
    return panel


#: a ghost dash's length, as a share of the ghost's x span (~3-4 px on a 800 px wide plot: the
#: size of the markers it stands for)
DASH_SHARE = 1 / 250


def ghost_dashes(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each point (x, y) as a short horizontal dash centred on it, the dashes separated by NaN
    gaps, so that one ``lines`` trace draws them all as one path: the points stay where they
    were (every spike the decimation kept), each its own mark."""
    n = len(x)
    if not n:
        return np.array([]), np.array([])
    x = np.asarray(x, dtype=float)
    span = float(x.max() - x.min())
    half = (span if span > 0 else 1.0) * DASH_SHARE / 2
    dx, dy = np.empty(3 * n), np.empty(3 * n)
    dx[0::3], dx[1::3], dx[2::3] = x - half, x + half, np.nan
    dy[0::3], dy[1::3] = y, y
    dy[2::3] = np.nan
    return dx[:-1], dy[:-1]  # no gap after the last dash


def add_histograms(panel: Panel, view, full, *, top: float, hist_axes: tuple[str, str],
                   y_unit: str = "s", ghost=None, pinned=None) -> Panel:
    """A latency histogram per category of the whole run, on bins from 0 to ``top``, beside
    the latency axis; the previous run's and run A's as outlines."""
    scale = 1.0 if y_unit == "s" else 1000.0
    hx, hy = hist_axes
    edges = jitter.histogram_edges([], bins=40, upper=top)
    f = view.frame
    ys = f["latency"].to_numpy() * scale
    codes = f["cat_code"].to_numpy()
    for i, cat in enumerate(full.categories):
        values = ys[codes == i]
        counts, _centres = jitter.histogram(values, edges)
        panel.count_max = max(panel.count_max, float(counts.max()) if len(counts) else 0.0)
        # the bars as one filled outline (the same shape: the bins touch and have no edge
        # line): one SVG path instead of one per bin, which the browser restyles on every
        # redraw; a category without requests draws nothing
        hx_, hy_ = jitter.outline(counts, edges) if len(values) else (np.array([]),) * 2
        panel.traces.append(dict(
            type="scatter", mode="lines", x=hx_, y=hy_, xaxis=hx, yaxis=hy, fill="toself",
            fillcolor=cat.color, line=dict(color=cat.color, width=0), opacity=0.65,
            name=cat.label, legendgroup=cat.label, showlegend=False, hoveron="points",
            hovertemplate="%{x} requests at %{y:.3g}<extra>" + cat.label + "</extra>"))
    for other, name, color in ((ghost, "previous run", GHOST_COLOR), (pinned, "A", PINNED_COLOR)):
        ox, oy = np.array([]), np.array([])
        if other is not None:
            counts, _ = jitter.histogram(other.frame["latency"].to_numpy() * scale, edges)
            ox, oy = jitter.outline(counts, edges)  # the count axis follows this run: the
            # outline of a run with a taller bin is cut at its top
        panel.traces.append(dict(
            type="scatter", x=ox, y=oy, mode="lines", xaxis=hx, yaxis=hy, name=f"{name} histogram",
            line=dict(color=color, width=1.2, dash="dot" if name != "A" else "solid"),
            hoverinfo="skip", showlegend=False))
    return panel


def _segment(x: XAxis, view, full, t0: float, t1: float, y: float):
    """x and y of a horizontal analytic line from moment t0 to t1 (clipped to ``now``)."""
    t1 = min(t1, view.now, full.end if math.isfinite(full.end) else t1)
    if t1 <= t0:
        return [], []
    return [x.of_time(view, t0), x.of_time(view, t1), None], [y, y, None]


ANALYTIC_SLOTS = 4  # the helper, one device at batch 1, a full batch, a lone request


def analytic_traces(a, view, full, x: XAxis, scale: float, xa: str, ya: str):
    """The analytic model's levels as dashed lines, each over the stretch it applies to: always
    four traces (empty where the model has no such regime, or with no model at all) so that a
    dashboard's traces keep their structure from run to run."""
    slots: list[tuple[str, list, list, str, str]] = [("analytic: CPU helper", [], [], "dot",
                                                      HELPER_COLOR)]
    slots += [("analytic", [], [], "dash", ANALYTIC_COLOR)] * (ANALYTIC_SLOTS - 1)
    if a is not None:
        settle = a.switch if a.switch is not None else 0.0
        end = full.end
        if a.helper:
            xs, ys = _segment(x, view, full, 0.0, settle, a.t_helper * scale)
            slots[0] = (f"analytic: CPU helper {a.t_helper * 1e3:.0f} ms", xs, ys, "dot",
                        HELPER_COLOR)
        if not a.batch.on or a.timeout == 0:
            xs, ys = _segment(x, view, full, settle, end, a.t_one * scale)
            slots[1] = (f"analytic: {a.target} {a.t_one * 1e3:.1f} ms", xs, ys, "dash",
                        device_color(a.target))
        if a.fills:
            lo, hi = a.batch_range
            x1, y1 = _segment(x, view, full, settle, end, lo * scale)
            x2, y2 = _segment(x, view, full, settle, end, hi * scale)
            slots[2] = (f"analytic: batch of {a.batch.size}, {lo * 1e3:.0f} to {hi * 1e3:.0f} "
                        f"ms ((N-1) x interval + t(N))", x1 + x2, y1 + y2, "dash",
                        ANALYTIC_COLOR)
        if a.batch.on and a.timeout > 0:
            lo, hi = a.alone_range
            if a.fills:  # the lone requests' ceiling above the batches
                xs, ys = _segment(x, view, full, settle, end, hi * scale)
                name = f"analytic: alone after the timeout, up to {hi * 1e3:.0f} ms (T + t(1))"
            else:
                x1, y1 = _segment(x, view, full, settle, end, lo * scale)
                x2, y2 = _segment(x, view, full, settle, end, hi * scale)
                xs, ys = x1 + x2, y1 + y2
                name = (f"analytic: no batch of {a.batch.size} fills within "
                        f"{a.timeout * 1e3:.0f} ms: alone after a tick, {lo * 1e3:.0f} to "
                        f"{hi * 1e3:.0f} ms")
            slots[3] = (name, xs, ys, "dashdot", ANALYTIC_COLOR)
    traces = [dict(type="scatter", x=xs, y=ys, mode="lines", xaxis=xa, yaxis=ya, name=name,
                   line=dict(color=color, dash=dash, width=1.4), hoverinfo="name",
                   showlegend=bool(xs), connectgaps=False)
              for name, xs, ys, dash, color in slots]
    top = max([0.0] + [v for _n, _x, ys, _d, _c in slots for v in ys if v is not None])
    return traces, top


def timeline_panel(view, full, *, axes: tuple[str, str] = ("x", "y"), ghost=None,
                   dark: bool = False, legend: bool = False) -> Panel:
    """The seed's wires (submit on the upper row, result on the lower), coloured by category;
    the previous run's wires faintly behind. ``dark``: plain runs keep the seed's cyan;
    ``legend``: the wires carry the legend (when no latency panel does)."""
    xa, ya = axes
    panel = Panel()
    wx, wy = _wires(ghost.frame if ghost is not None else None)
    panel.traces.append(dict(type="scatter", x=wx, y=wy, mode="lines", xaxis=xa, yaxis=ya,
                             name=f"previous run: {ghost.label}" if ghost is not None
                             else "previous run", line=dict(color=GHOST_COLOR, width=1),
                             opacity=0.35, hoverinfo="skip", showlegend=False))
    f = view.frame
    codes = f["cat_code"].to_numpy()
    cats = [full.categories[c] for c in codes]
    for i, cat in enumerate(full.categories):
        sub = f[codes == i]
        wx, wy = _wires(sub)
        color = "cyan" if dark and cat.status == "plain" else cat.color
        panel.traces.append(dict(type="scatter", x=wx, y=wy, mode="lines", xaxis=xa, yaxis=ya,
                                 name=cat.label, legendgroup=cat.label,
                                 showlegend=legend and len(sub) > 0,
                                 line=dict(color=color, width=1.2), hoverinfo="skip"))
    submit_ms = f["submit"].to_numpy() * 1000
    result_ms = f["result"].to_numpy() * 1000
    colors = [("cyan" if dark and c.status == "plain" else c.color) for c in cats]
    text = [f"request {n}<br>latency {lat * 1000:.1f} ms<br>{c.label}" for n, lat, c in
            zip(f["n"], f["latency"], cats, strict=True)]
    for row, values, name in ((1.0, submit_ms, "submitted"), (0.0, result_ms, "result")):
        panel.traces.append(dict(
            type="scatter", x=values, y=np.full(len(values), row), mode="markers", xaxis=xa,
            yaxis=ya, name=name, showlegend=False, text=text,
            marker=dict(symbol="triangle-up-open", color=colors, size=8),
            hovertemplate="%{text}<br>" + name + " %{x:.0f} ms<extra></extra>"))
    return panel


def _wires(frame) -> tuple[np.ndarray, np.ndarray]:
    if frame is None or not len(frame):
        return np.array([]), np.array([])
    n = len(frame)
    wx, wy = np.empty(3 * n), np.empty(3 * n)
    wx[0::3], wx[1::3], wx[2::3] = frame["submit"].to_numpy() * 1000, \
        frame["result"].to_numpy() * 1000, np.nan
    wy[0::3], wy[1::3], wy[2::3] = 1.0, 0.0, np.nan
    return wx, wy
