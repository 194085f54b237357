"""Compile timelines: which device compiled when, which compile failed, when AUTO switched.

Lab 02 reads AUTO's choices from the records of a Core: one row per compile (from its
``compile_start`` or ``cache_load`` event to its ``compile_end`` or ``compile_failed``) and AUTO's
``switch`` events. The figure draws one bar per compile (red when it failed) and each switch as
a dashed line whose label sits in the legend, above the plot, so it covers no bar.
"""

from __future__ import annotations

import plotly.graph_objects as go

COMPILED, FAILED, SWITCH = "#2ca02c", "#d62728", "black"


def compile_windows(core):
    """One row per compile of ``core`` (device, start, end in s, outcome), as a DataFrame."""
    import pandas as pd

    rows, open_at = [], {}
    for e in core.trace.events:
        if e.kind in ("compile_start", "cache_load"):
            open_at[e.device] = e.time
        elif e.kind in ("compile_end", "compile_failed") and e.device in open_at:
            rows.append({"device": e.device, "start (s)": round(open_at.pop(e.device), 3),
                         "end (s)": round(e.time, 3),
                         "outcome": "failed" if e.kind == "compile_failed" else "compiled"})
    return pd.DataFrame(rows, columns=["device", "start (s)", "end (s)", "outcome"])


def compile_figure(core, title: str) -> go.Figure:
    """The compiles of ``core`` as horizontal bars (green compiled, red failed), one row per
    device in the order the devices started compiling, and AUTO's switches as dashed lines
    across the whole plot; the legend sits above the plot, clear of the bars."""
    windows = compile_windows(core)
    devices = list(dict.fromkeys(windows.sort_values("start (s)", kind="stable")["device"]))
    row = {d: i for i, d in enumerate(devices)}
    fig = go.Figure()
    for outcome, color in [("compiled", COMPILED), ("failed", FAILED)]:
        part = windows[windows["outcome"] == outcome]
        if len(part):
            fig.add_trace(go.Bar(y=[row[d] for d in part["device"]],
                                 x=part["end (s)"] - part["start (s)"], base=part["start (s)"],
                                 orientation="h", name=outcome, marker=dict(color=color),
                                 width=0.5, hovertext=list(part["device"])))
    for e in core.trace.events:
        if e.kind == "switch" and devices:
            fig.add_trace(go.Scatter(x=[e.time, e.time], y=[-0.5, len(devices) - 0.5],
                                     mode="lines", line=dict(color=SWITCH, dash="dash", width=2),
                                     name=f"AUTO switches to {e.device} (t = {e.time:.2f} s)"))
    fig.update_layout(title=dict(text=title, y=0.97), xaxis_title="simulated time (s)",
                      yaxis_title="device", height=320, template="plotly_white",
                      barmode="overlay",
                      legend=dict(orientation="h", x=0, y=1.02, xanchor="left",
                                  yanchor="bottom"),
                      margin=dict(t=90))
    fig.update_yaxes(tickvals=list(range(len(devices))), ticktext=devices,
                     range=[-0.5, len(devices) - 0.5])
    return fig
