"""Marks on a run's plot: the device switch, compile spans (growing while they run) and the
batch timer's ticks, all taken from the run's ``core.trace`` events.

An x axis can count completions (the seed's "Inference Iteration"), or show seconds or
milliseconds since the first submit; :class:`XAxis` places both requests and moments on it, so
a compile span or a tick lands where it belongs whichever axis is shown. On the iteration axis
a moment is placed at the number of completions before it, so a compile span covers exactly the
requests that completed while the device compiled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .palette import ALONE_COLOR

SWITCH_COLOR = "#d62728"
COMPILE_FILL = "rgba(255, 190, 0, 0.16)"
COMPILE_BAR = "rgba(255, 160, 0, 0.55)"


@dataclass(frozen=True)
class XAxis:
    """Where requests and moments go on the x axis."""

    mode: str = "iteration"  # "iteration" | "result" (s) | "submit" (ms)

    @property
    def scale(self) -> float:
        return 1000.0 if self.mode == "submit" else 1.0

    def title(self, view) -> str:
        if self.mode == "iteration":
            interval = view.interval_ms
            text = f"{int(interval)}" if float(interval).is_integer() else f"{interval}"
            return f"Inference Iteration ({text}ms/inf)"
        if self.mode == "result":
            return "time of the result since the first submit (s)"
        return "time since the first submit (ms)"

    def of_requests(self, frame) -> np.ndarray:
        if self.mode == "iteration":
            return np.arange(len(frame), dtype=float)
        column = "result" if self.mode == "result" else "submit"
        return frame[column].to_numpy() * self.scale

    def of_time(self, view, t: float) -> float:
        if self.mode == "iteration":
            return view.index_at(t)
        return t * self.scale

    def span(self, view, full) -> tuple[float, float]:
        """The x range: the whole run's (known from its settings) or as far as it got."""
        if self.mode == "iteration":
            return -0.02 * full.niter, full.niter * 1.02
        first = 0.0  # compiles before the first submit show as a progress bar and a note
        last = max(full.niter * full.interval_ms / 1000.0, view.now if math.isfinite(view.now)
                   else 0.0, full.end if view.complete else 0.0)
        pad = 0.02 * (last - first)
        return (first - pad) * self.scale, (last + pad) * self.scale


def switch_marks(view, x: XAxis, xref: str = "x", yref: str = "paper",
                 y_top: float = 1.0) -> tuple[list[dict], list[dict]]:
    """A dashed line and a label where AUTO switched (nothing before it happened)."""
    if view.switch is None:
        return [], []
    t, device = view.switch
    if x.mode == "iteration":
        # the first completion on the new device; until there is one (a live frame just after
        # the switch), where the next completion will be drawn
        k = view.switch_index
        pos = float(k) if k is not None else view.index_at(t)
    else:
        pos = x.of_time(view, t)
    shape = dict(type="line", xref=xref, yref=yref, x0=pos, x1=pos, y0=0, y1=y_top,
                 line=dict(color=SWITCH_COLOR, dash="dash", width=1.5))
    note = dict(xref=xref, yref=yref, x=pos, y=y_top, yanchor="bottom", showarrow=False,
                text=f"switch to {device} (t = {t:.2f} s)", font=dict(color=SWITCH_COLOR))
    return [shape], [note]


def compile_marks(view, x: XAxis, xref: str = "x", yref: str = "paper",
                  progress_ref: str | None = None) -> tuple[list[dict], list[dict]]:
    """A shaded span per device compile that overlaps the run (up to ``now`` while it runs),
    and, while one runs, a progress bar across the top with how far it got.

    ``progress_ref``: the x axis whose domain the bar spans (default: ``xref``'s).
    """
    shapes: list[dict] = []
    notes: list[dict] = []
    now = view.now
    before = [c for c in view.compiles if c.end <= min(0.0, now) and not c.device.startswith("CPU")]
    for c in view.compiles:
        if c.end <= 0.0:
            continue  # before the first submit: off the axis (noted below)
        end = min(c.end, now)
        x0, x1 = x.of_time(view, max(c.start, _left(view, x))), x.of_time(view, end)
        if x1 > x0:
            shapes.append(dict(type="rect", xref=xref, yref=yref, x0=x0, x1=x1, y0=0, y1=1,
                               fillcolor=COMPILE_FILL, line=dict(width=0), layer="below"))
    running = view.running_compiles()
    dom = (progress_ref or xref) + " domain"
    if before and not any(not c.device.startswith("CPU") for c in running):
        total = sum(c.end - c.start for c in before)
        notes.append(dict(xref=dom, yref=yref, x=0.01, y=0.99, xanchor="left", yanchor="top",
                          showarrow=False, font=dict(size=10, color="#7a4f00"),
                          text=f"before the first submit: {before[0].device} compiled for "
                               f"{total:.1f} s ({len(before)} compile(s))"))
    if running:
        c = max(running, key=lambda s: s.end)  # the one the run waits for
        chain = view.compile_chain(c)  # and those back to back with it: what remains is all
        start, end = chain[0].start, chain[-1].end
        done = (now - start) / (end - start) if end > start else 1.0
        shapes.append(dict(type="rect", xref=dom, yref=yref, x0=0, x1=1, y0=0.93, y1=0.99,
                           fillcolor="rgba(0,0,0,0.04)", line=dict(color=COMPILE_BAR, width=1)))
        shapes.append(dict(type="rect", xref=dom, yref=yref, x0=0, x1=max(0.0, min(1.0, done)),
                           y0=0.93, y1=0.99, fillcolor=COMPILE_BAR, line=dict(width=0)))
        notes.append(dict(xref=dom, yref=yref, x=0.01, y=0.96, xanchor="left", showarrow=False,
                          text=_compile_progress(c, chain, now),
                          font=dict(size=11, color="#7a4f00")))
    return shapes, notes


def _compile_progress(c, chain, now: float) -> str:
    """``GPU.0 compiles: 4.2 s left of 7.4 s``, counting the compiles still to come back to
    back (``compile 1 of 2: 11.6 s left of 14.7 s``): the time until the device can run."""
    left, total = chain[-1].end - now, chain[-1].end - chain[0].start
    if len(chain) == 1:
        return f"{c.label}: {left:.1f} s left of {total:.1f} s"
    return (f"{c.label} (compile {chain.index(c) + 1} of {len(chain)}): {left:.1f} s left of "
            f"{total:.1f} s")


def _left(view, x: XAxis) -> float:
    return 0.0 if x.mode == "iteration" else -math.inf


def tick_trace(view, x: XAxis, y: float, xaxis: str = "x", yaxis: str = "y",
               symbol: str = "line-ns-open") -> dict[str, Any]:
    """The batch timer's ticks that sent requests alone, as a rug of marks at height ``y``."""
    xs = [x.of_time(view, k.time) for k in view.ticks]
    text = [f"timer tick at {k.time:.3f} s: {k.requests} request(s) of batch worker "
            f"{k.worker} ran alone" for k in view.ticks]
    return dict(type="scatter", x=xs, y=[y] * len(xs), mode="markers", xaxis=xaxis, yaxis=yaxis,
                name="batch timer tick (requests sent alone)",
                marker=dict(symbol=symbol, size=12, color=ALONE_COLOR, line=dict(width=2,
                                                                                  color=ALONE_COLOR)),
                text=text, hovertemplate="%{text}<extra></extra>", showlegend=bool(xs))
