"""Figures of lab 14 (which device for my LLM): one request per device, TTFT against prompt
length, and several users at once. Pure functions of ``genai.device_choice`` records, so the
dashboard, the tests and the stored notebook draw the same thing."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .llm import log_ticks

DEVICE_COLORS = {"CPU": "#1f77b4", "GPU": "#2ca02c", "NPU": "#9467bd"}


def devices_spec(figures, title: str = "", users: int | None = None) -> dict:
    """:func:`devices_figure` as plain dicts, the 1 x 4 grid of make_subplots
    (horizontal_spacing 0.08) written out: building it through make_subplots and plotly's
    validators was a fifth of a lab 14 knob change's kernel time."""
    rate = "tokens/s" if users is None else "tokens/s, all users"
    ttft = "TTFT (ms)" if users in (None, 1) else "mean TTFT (ms)"
    tpot = "TPOT (ms)" if users in (None, 1) else "mean TPOT (ms)"
    names = [f.device for f in figures]
    colors = [DEVICE_COLORS.get(n, "#7f7f7f") for n in names]
    data, layout, notes = [], {}, []
    width = (1.0 - 3 * 0.08) / 4
    for i, (panel, values) in enumerate(zip(
            (ttft, tpot, rate, "memory (GB)"),
            ([f.ttft_ms for f in figures], [f.tpot_ms for f in figures],
             [f.tokens_per_s for f in figures], [f.memory_gb for f in figures]), strict=True)):
        n = "" if i == 0 else str(i + 1)
        lo = round(i * (width + 0.08), 10)
        domain = [lo, round(lo + width, 10)]
        data.append(dict(type="bar", x=names, y=values, marker=dict(color=colors),
                         showlegend=False, xaxis=f"x{n}", yaxis=f"y{n}",
                         text=[f"{v:.0f}" if v >= 10 else f"{v:.2f}" for v in values],
                         textposition="outside", cliponaxis=False))
        layout[f"xaxis{n}"] = dict(anchor=f"y{n}", domain=domain)
        layout[f"yaxis{n}"] = dict(anchor=f"x{n}", domain=[0.0, 1.0])
        notes.append(dict(text=panel, x=(domain[0] + domain[1]) / 2, y=1.0, xref="paper",
                          yref="paper", xanchor="center", yanchor="bottom", showarrow=False,
                          font=dict(size=16)))
    layout.update(annotations=notes, height=340, margin=dict(l=40, r=20, t=90, b=40),
                  title=dict(text=title or "One request on each device", font=dict(size=14)))
    return {"data": data, "layout": layout}


def devices_figure(figures, title: str = "", users: int | None = None) -> go.Figure:
    """TTFT, TPOT, throughput and memory of one request on each device (``users``: of that
    many requests at once, ``genai.device_choice.UsersRun.figures``: the users' mean TTFT and
    TPOT, and the tokens per second of all of them together, first token's wait included)."""
    return go.Figure(devices_spec(figures, title, users))


def ttft_curve_figure(lengths, curves: dict, max_prompt_len: int | None = None) -> go.Figure:
    """TTFT against prompt length, one line per device (the NPU's is flat below the chunk)."""
    fig = go.Figure()
    for device, ys in curves.items():
        fig.add_scatter(x=list(lengths), y=ys, mode="lines+markers", name=device,
                        line=dict(color=DEVICE_COLORS.get(device.split()[0], "#7f7f7f")))
    if max_prompt_len:
        fig.add_vline(x=max_prompt_len, line=dict(color="#7f7f7f", dash="dot"),
                      annotation_text=f"MAX_PROMPT_LEN {max_prompt_len}")
    fig.update_layout(height=360, title="Time to first token against prompt length",
                      xaxis_title="prompt tokens", yaxis_title="TTFT (ms)",
                      margin=dict(l=60, r=20, t=60, b=50))
    return fig


def users_figure(runs) -> go.Figure:
    """Several users at once: mean TTFT and the total rate per device and user count."""
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.12,
                        subplot_titles=("mean TTFT (ms)", "tokens/s, all users together"))
    devices = sorted({r.device for r in runs}, key=["CPU", "GPU", "NPU"].index)
    for device in devices:
        mine = [r for r in runs if r.device == device]
        color = DEVICE_COLORS.get(device, "#7f7f7f")
        fig.add_scatter(x=[r.users for r in mine], y=[r.mean_ttft_ms for r in mine],
                        mode="lines+markers", name=device, line=dict(color=color), row=1, col=1)
        fig.add_scatter(x=[r.users for r in mine], y=[r.tokens_per_s for r in mine],
                        mode="lines+markers", name=device, line=dict(color=color),
                        showlegend=False, row=1, col=2)
    fig.update_xaxes(title_text="users at once")
    fig.update_yaxes(type="log", row=1, col=1, **log_ticks([r.mean_ttft_ms for r in runs]))
    fig.update_layout(height=360, title="Concurrency: continuous batching against one at a time",
                      margin=dict(l=60, r=20, t=70, b=50))
    return fig
