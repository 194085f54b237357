"""Compare mode: two configurations side by side or overlaid, with the differences stated.

"The timeout went from 1000 to 100 ms" is only a lesson with its consequences beside it: what
happened to the median, to the tail (p99) and to the throughput. :func:`compare_text` states
them; :func:`compare_figure` draws run A and run B either side by side on one latency axis
(``mode="side"``) or B over a faint A (``mode="overlay"``, as the dashboards' compare mode).
"""

from __future__ import annotations

import math
from typing import Any

import plotly.graph_objects as go

from .dashboard_figures import LEGEND, latency_dashboard_spec, legend_below
from .marks import XAxis, compile_marks, switch_marks
from .panels import STATIC_POINTS, add_histograms, latency_panel
from .runview import RunView


def _view(run) -> RunView:
    return run if isinstance(run, RunView) else RunView.from_result(run)


def compare_stats(a, b) -> dict[str, dict[str, float]]:
    """Median, p99 (ms) and throughput (inferences/s) of A and B, and B's change from A."""
    sa, sb = _view(a).stats(), _view(b).stats()
    out: dict[str, dict[str, float]] = {}
    for key in ("median", "p99", "throughput"):
        va, vb = sa[key], sb[key]
        change = (vb - va) / va * 100.0 if va and math.isfinite(va) else math.nan
        out[key] = {"A": va, "B": vb, "change_pct": change}
    return out


def _pct(value: float) -> str:
    return "n/a" if not math.isfinite(value) else f"{value:+.0f} %"


def _compare_parts(a, b) -> tuple[str, str]:
    """The latency half of :func:`compare_text` and its throughput half."""
    s = compare_stats(a, b)
    m, p, t = s["median"], s["p99"], s["throughput"]
    return (f"B vs A: median {m['A']:.1f} -> {m['B']:.1f} ms ({_pct(m['change_pct'])}), "
            f"p99 {p['A']:.1f} -> {p['B']:.1f} ms ({_pct(p['change_pct'])})",
            f"throughput {t['A']:.1f} -> {t['B']:.1f} inferences/s ({_pct(t['change_pct'])})")


def compare_text(a, b) -> str:
    """One line: "B vs A: median 202 -> 72 ms (-65 %), p99 ..., throughput ..."."""
    return ", ".join(_compare_parts(a, b))


def compare_title(a, b) -> str:
    """:func:`compare_text` on two lines, for a figure's title: on one line it ran past a
    figure 568 px wide (a 1000-px window with the file browser open) by 140 px."""
    return "<br>".join(_compare_parts(a, b))


def compare_spec(a, b, *, mode: str = "side", x: str = "iteration", analytic_a=None,
                 analytic_b=None, b_full=None, y_range=None,
                 max_points: int = 1000, y_unit: str = "s") -> dict[str, Any]:
    """The compare figure as plain dicts. ``b`` may be a live cut of ``b_full``. (Where the
    four panels do not fit in a row, the dashboards show A's and B's figures apart, in a box
    that wraps: :func:`compare_pair_specs`.)"""
    va, vb = _view(a), _view(b)
    fb = b_full or vb
    if mode == "overlay":
        spec = latency_dashboard_spec(vb, fb, x=x, pinned=va, analytic=analytic_b,
                                      y_range=y_range, max_points=max_points)
        latency, throughput = _compare_parts(va, vb)
        spec["layout"]["title"]["text"] += f"<br><sup>{latency}<br>{throughput}</sup>"
        spec["layout"]["margin"]["t"] += 16  # room for the title's third line
        return spec
    if mode != "side":
        raise ValueError(f"compare mode is 'side' or 'overlay', not {mode!r}")
    xaxis = XAxis(x)
    panels, top, count = _side_panels(va, vb, fb, xaxis, analytic_a, analytic_b, y_range,
                                      max_points, (("x", "y"), ("x2", "y2")),
                                      (("x3", "y3"), ("x4", "y4")), y_unit)
    # one legend entry per category: B's, and A's that B lacks (a category by its group; the
    # band, the median and the timer's ticks, which have none, by their name: both runs'
    # were listed, each twice)
    b_entries = [t for t in panels[1].traces if t.get("showlegend", True) is not False]
    shown = {t["legendgroup"] for t in b_entries if t.get("legendgroup")}
    names = {t.get("name") for t in b_entries if not t.get("legendgroup")}
    for t in panels[0].traces:
        if (t.get("legendgroup") in shown or str(t.get("name", "")).startswith("analytic")
                or (not t.get("legendgroup") and t.get("name") in names)):
            t["showlegend"] = False
    shapes, notes = [], []
    for view, xref, yref in ((va, "x", "y domain"), (vb, "x3", "y3 domain")):
        for marks in (switch_marks(view, xaxis, xref, yref), compile_marks(view, xaxis, xref, yref)):
            shapes += marks[0]
            notes += marks[1]
    rows = _BESIDE
    for label, xref, edge in ((f"A: {va.label}", "x", rows["y"][1]),
                              (f"B: {vb.label}", "x3", rows["y3"][1])):
        # above the switch label (which sits on the plot's top edge), never over it
        notes.append(dict(xref=f"{xref} domain", yref="paper", x=0.5, y=edge, yanchor="bottom",
                          yshift=24, showarrow=False, text=f"<b>{label}</b>",
                          font=dict(size=12)))
    for p in panels:
        notes += p.annotations
    y = [0.0, top]
    layout = dict(
        # at the top of the figure: placed by plotly in the middle of the top margin, the
        # title's second line ran over A's panel title
        title=dict(text=compare_title(va, vb), font=dict(size=13), yref="container", y=0.98,
                   yanchor="top"),
        xaxis=dict(domain=rows["x"], anchor="y", range=list(xaxis.span(va, va)),
                   title=dict(text=xaxis.title(va)), showgrid=True, zeroline=False),
        yaxis=dict(domain=rows["y"], anchor="x", range=y, title=dict(text=_y_title(y_unit)),
                   showgrid=True, zeroline=False),
        xaxis2=dict(domain=rows["x2"], anchor="y2", range=[0, count], showgrid=True,
                    zeroline=False, title=dict(text="requests")),
        yaxis2=dict(domain=rows["y"], anchor="x2", range=y, matches="y", showticklabels=False,
                    showgrid=True),
        xaxis3=dict(domain=rows["x3"], anchor="y3", range=list(xaxis.span(vb, fb)),
                    title=dict(text=xaxis.title(fb)), showgrid=True, zeroline=False),
        yaxis3=dict(domain=rows["y3"], anchor="x3", range=y, matches="y", showgrid=True,
                    zeroline=False),
        xaxis4=dict(domain=rows["x4"], anchor="y4", range=[0, count], showgrid=True,
                    zeroline=False, title=dict(text="requests")),
        yaxis4=dict(domain=rows["y3"], anchor="x4", range=y, matches="y",
                    showticklabels=False, showgrid=True),
        shapes=shapes, annotations=notes, barmode="overlay", showlegend=True,
        legend=LEGEND,
        margin=dict(l=60, r=20, t=110, b=40), height=540, autosize=True,
        template="plotly_white", uirevision="keep")
    traces = panels[0].traces + panels[1].traces
    return {"data": traces, "layout": legend_below(layout, traces)}


def _y_title(y_unit: str) -> str:
    """The latency axis's title, as the dashboard's main view writes it (lab 04: seconds, the
    seed's axis; lab 05: ms)."""
    return "Latency (sec)" if y_unit == "s" else "latency (ms)"


def _side_panels(va, vb, fb, xaxis, analytic_a, analytic_b, y_range, max_points, axes_a,
                 axes_b, y_unit: str = "s"):
    """A's and B's latency panels with their histograms on one latency range: the panels, the
    range's top (in ``y_unit``) and the histograms' count axis."""
    sides = ((va, va, analytic_a, *axes_a), (vb, fb, analytic_b, *axes_b))
    panels = [latency_panel(view, full, x=xaxis, axes=axes, analytic=analytic,
                            max_points=max_points, y_unit=y_unit)
              for view, full, analytic, axes, _hist in sides]
    top = float(y_range[1]) if y_range is not None else \
        round_up(max(p.y_max for p in panels) * 1.08 or 1.0)
    for p, (view, full, _analytic, _axes, hist) in zip(panels, sides, strict=True):
        add_histograms(p, view, full, top=top, hist_axes=hist, y_unit=y_unit)
    count = round_up(max(max(p.count_max for p in panels), 1) * 1.1)
    return panels, top, count


# the tops an axis of the compare figures rounds up to, times a power of ten
_ROUND_STEPS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)


def round_up(value: float) -> float:
    """``value`` rounded up to 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten.

    The axes that A and B share (latency, and the histograms' count, whose bins follow the
    latency range) then stay put while a knob moves B a little: an eye compares two panels
    whose scale holds still, and side by side the browser redraws only B's panel (A's spec is
    unchanged, so nothing is sent for it). With the exact top (the largest point plus 8 %),
    every timeout change in lab 04 moved A's range and re-binned its histogram, and the
    browser redrew both panels: 0.50-0.54 s a change on a quiet 2-vCPU machine."""
    if not math.isfinite(value) or value <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    for step in _ROUND_STEPS:
        # a hair of tolerance: 1.2 computed as 1.2000000000000002 stays 1.2
        if value <= step * power * (1 + 1e-9):
            return float(f"{step * power:.6g}")
    return 10.0 * power  # pragma: no cover - 10.0 ends the steps


def compare_pair_specs(a, b, *, x: str = "iteration", analytic_a=None, analytic_b=None,
                       b_full=None, y_range=None, max_points: int = 1000,
                       y_unit: str = "s") -> tuple[dict[str, Any], dict[str, Any]]:
    """Side by side as two figures, A's and B's, each a latency panel and its histogram on
    the same latency and count ranges: the dashboards put them in a box that wraps, so the
    browser itself sets B beside A where the output area is wide enough and below it where it
    is not, with no message to the kernel (a figure cannot move its own panels when its width
    changes). ``b`` may be a live cut of ``b_full``."""
    va, vb = _view(a), _view(b)
    fb = b_full or vb
    xaxis = XAxis(x)
    panels, top, count = _side_panels(va, vb, fb, xaxis, analytic_a, analytic_b, y_range,
                                      max_points, (("x", "y"), ("x2", "y2")),
                                      (("x", "y"), ("x2", "y2")), y_unit)
    specs = []
    for name, view, full, panel in (("A", va, va, panels[0]), ("B", vb, fb, panels[1])):
        shapes, notes = [], []
        for marks in (switch_marks(view, xaxis, "x", "y domain"),
                      compile_marks(view, xaxis, "x", "y domain")):
            shapes += marks[0]
            notes += marks[1]
        y = [0.0, top]
        layout = dict(
            title=dict(text=f"<b>{name}: {view.label}</b>", font=dict(size=13)),
            xaxis=dict(domain=[0.0, 0.77], range=list(xaxis.span(view, full)),
                       title=dict(text=xaxis.title(full)), showgrid=True, zeroline=False),
            yaxis=dict(range=y, title=dict(text=_y_title(y_unit)), showgrid=True,
                       zeroline=False),
            xaxis2=dict(domain=[0.80, 1.0], range=[0, count], title=dict(text="requests"),
                        showgrid=True, zeroline=False),
            yaxis2=dict(anchor="x2", range=y, matches="y", showticklabels=False,
                        showgrid=True),
            shapes=shapes, annotations=notes + panel.annotations, barmode="overlay",
            showlegend=True, legend=LEGEND, margin=dict(l=60, r=20, t=70, b=40), height=540,
            autosize=True, template="plotly_white", uirevision="keep")
        specs.append({"data": panel.traces, "layout": legend_below(layout, panel.traces)})
    return specs[0], specs[1]


# where the four panels go: A's latency and histogram, then B's, in a row
# (a gap of 3 % between a latency panel and its histogram: with 1 %, the latency axis's last
# label, "2000", ran into the histogram's "0")
_BESIDE = {"x": [0.0, 0.37], "x2": [0.40, 0.48], "x3": [0.53, 0.89], "x4": [0.92, 1.0],
           "y": [0.0, 1.0], "y3": [0.0, 1.0]}


def compare_figure(a, b, *, mode: str = "side", x: str = "iteration", analytic_a=None,
                   analytic_b=None) -> go.Figure:
    """Runs A and B (``ExperimentResult`` s or ``RunView`` s) side by side on one latency axis,
    or B over a faint A, titled with the differences in median, p99 and throughput.

    Side by side, each panel is half the width and draws half the points per category that
    one panel does (min-max decimation keeps every spike), as the dashboards' side by side:
    lab 04's two 2,000-request runs drew 5,386 points (198 kB of plotly JSON), which the
    browser draws and then rasterizes again for the stored PNG during Run All (now
    ``panels.STATIC_POINTS`` per category overlaid, half that per panel side by side)."""
    return go.Figure(compare_spec(a, b, mode=mode, x=x, analytic_a=analytic_a,
                                  analytic_b=analytic_b,
                                  max_points=STATIC_POINTS // 2 if mode == "side"
                                  else STATIC_POINTS))
