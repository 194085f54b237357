"""Bring a FigureWidget in line with a figure spec in one message, sending only what changed.

A FigureWidget sends the browser the properties a Python-side change touches. Assigning a new
layout sends only the keys the new layout has, so a key the new run leaves out (a switch line,
an annotation) would stay on screen: the stale "switch at 7.15 s" of issue 15. The dashboards'
specs therefore set every layout key they use on every frame, and :func:`sync_figure` applies
them in one ``batch_update``: traces are updated in place while the run keeps the same traces
(a live run keeps them from its first frame to its last), and replaced only when the structure
changes (a new run with other categories, compare mode on or off).
"""

from __future__ import annotations

from typing import Any


def _schema(trace: dict[str, Any]) -> tuple:
    return (trace.get("type", "scatter"), trace.get("xaxis") or "x", trace.get("yaxis") or "y",
            trace.get("fill"), trace.get("orientation"))


def _schema_of(obj) -> tuple:
    """The same key for a trace already in a figure (without copying its data)."""
    return (obj.type, obj.xaxis or "x", obj.yaxis or "y", obj["fill"] if "fill" in obj else None,
            obj["orientation"] if "orientation" in obj else None)


def sync_figure(widget, spec: dict[str, Any], *, template: bool | None = None) -> bool:
    """Make ``widget`` (a ``go.FigureWidget``) show ``spec``; True if its traces were rebuilt.

    The layout's ``template`` is sent only when the traces are rebuilt (or ``template=True``):
    it is large and never changes within a run.
    """
    data = spec["data"]
    layout = dict(spec["layout"])
    same = len(widget.data) == len(data) and all(
        _schema_of(old) == _schema(new) for old, new in zip(widget.data, data,
                                                                         strict=True))
    if same and not template:
        layout.pop("template", None)
    with widget.batch_update():
        if same:
            for old, new in zip(widget.data, data, strict=True):
                old.update({k: v for k, v in new.items() if k != "type"}, overwrite=True)
        else:
            widget.data = []
            widget.add_traces(data)
        widget.layout.update(layout, overwrite=True)
    return not same
