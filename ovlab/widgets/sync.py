"""Bring a FigureWidget in line with a figure spec in one message, sending only what changed.

A FigureWidget sends the browser the properties a Python-side change touches. Assigning a new
layout sends only the keys the new layout has, so a key the new run leaves out (a switch line,
an annotation) would stay on screen: the stale "switch at 7.15 s" of issue 15. The dashboards'
specs therefore set every layout key they use on every frame, and :func:`update_in_place`
applies them in one ``batch_update`` (one ``Plotly.update`` in the browser) while the traces keep
their structure; a live run keeps it from its first frame to its last.

Only what changed is sent: each trace's keys are compared with the spec last applied (NumPy
arrays by value), and a trace, or a key, equal to what the browser already shows is left out of
the update. A change of a dashboard's knob mostly moves points; the traces' styles, the empty
categories, the analytic lines of an unchanged device go unvalidated and unsent (plotly would
validate every key it is given, which cost about a third of a change's kernel time).

When the structure changes (a run with other categories, compare mode on or off) the dashboard
puts a new FigureWidget in place of the old one instead of deleting and adding traces: in the
browser a delete + add + update sequence on one plot could leave the new traces drawn with the
old ones' data (seen in the browser test), while a new widget view draws the figure from scratch.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def schema(spec: dict[str, Any]) -> list[tuple]:
    """The structure of a figure spec: each trace's type, axes, fill and orientation."""
    return [(t.get("type", "scatter"), t.get("xaxis") or "x", t.get("yaxis") or "y",
             t.get("fill"), t.get("orientation")) for t in spec["data"]]


def same(a: Any, b: Any) -> bool:
    """Whether two spec values are equal: NumPy arrays by shape, dtype and values (NaN equal to
    NaN), lists, tuples and dicts item by item, anything else with ``==``."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):  # never by identity: an
        # array changed in place since it was last sent must be sent again
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return False
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        if a.dtype.kind == "f":
            return bool(np.array_equal(a, b, equal_nan=True))
        return bool(np.array_equal(a, b)) if a.dtype.kind != "O" else a.tolist() == b.tolist()
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(same(x, y) for x, y in zip(a, b, strict=True)))
    try:
        return bool(a == b) and type(a) is type(b)
    except (TypeError, ValueError):
        return False


def new_figure(spec: dict[str, Any]):
    """A FigureWidget showing ``spec``, remembering its structure and its traces for
    :func:`update_in_place`."""
    import plotly.graph_objects as go

    widget = go.FigureWidget(spec)
    widget._ovlab_schema = schema(spec)
    widget._ovlab_traces = [dict(t) for t in spec["data"]]
    return widget


def update_in_place(widget, spec: dict[str, Any]) -> bool:
    """Make ``widget`` show ``spec`` with one update message; False, leaving the widget
    untouched, if the traces' structure differs from the spec it was made or last updated with
    (make a new widget then: :func:`new_figure`).

    The structure is compared with the spec's, never read back from the widget: once a browser
    has drawn it, a FigureWidget reports plotly.js defaults (``fill: "none"``...) for what the
    spec left unset. The layout's ``template`` is not resent: it is large and never changes
    within a dashboard.
    """
    if getattr(widget, "_ovlab_schema", None) != schema(spec):
        return False
    layout = {k: v for k, v in spec["layout"].items() if k != "template"}
    shown = getattr(widget, "_ovlab_traces", None) or [{} for _ in spec["data"]]
    with widget.batch_update():
        for old, before, new in zip(widget.data, shown, spec["data"], strict=True):
            changed = {k: v for k, v in new.items()
                       if k != "type" and (k not in before or not same(before[k], v))}
            if changed:
                old.update(changed, overwrite=True)
        widget.layout.update(layout, overwrite=True)
    widget._ovlab_traces = [dict(t) for t in spec["data"]]
    return True
