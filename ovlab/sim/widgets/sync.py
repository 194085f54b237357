"""Bring a FigureWidget in line with a figure spec in one message, sending only what changed.

A FigureWidget sends the browser the properties a Python-side change touches. Assigning a new
layout sends only the keys the new layout has, so a key the new run leaves out (a switch line,
an annotation) would stay on screen: the stale "switch at 7.15 s" of issue 15. The dashboards'
specs therefore set every layout key they use on every frame, and :func:`update_in_place`
applies them in one ``batch_update`` (one ``Plotly.update`` in the browser) while the traces keep
their structure; a live run keeps it from its first frame to its last.

When the structure changes (a run that raised an error, and back) the dashboard
puts a new FigureWidget in place of the old one instead of deleting and adding traces: in the
browser a delete + add + update sequence on one plot could leave the new traces drawn with the
old ones' data (seen in the browser test), while a new widget view draws the figure from scratch.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def plain(value: Any) -> Any:
    """``value`` with every NumPy array (and scalar) as a plain list (number), NaN as None.

    A FigureWidget keeps what it is given in its Python-side trace properties and sends NumPy
    arrays to the browser as typed arrays. After each update the browser answers with the
    properties plotly.js filled in (``_js2py_traceDeltas``), and it spells a typed array that
    differs from the model's copy as an object ``{"0": .., "1": ..}``; plotly's handler then
    meets that object against the NumPy array it holds and raises
    ``ValueError: The truth value of an array ... is ambiguous`` inside ipywidgets' set_state,
    once per update, into JupyterLab's log console. Plain lists compare as lists on both
    sides, so the dashboards give FigureWidgets lists only.
    """
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f" and not np.isfinite(value).all():
            # NaN is a gap to plotly; JSON has no NaN, so a gap is null (as plotly writes it)
            return np.where(np.isfinite(value), value.astype(object), None).tolist()
        return value.tolist()
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def schema(spec: dict[str, Any]) -> list[tuple]:
    """The structure of a figure spec: each trace's type, axes, fill and orientation."""
    return [(t.get("type", "scatter"), t.get("xaxis") or "x", t.get("yaxis") or "y",
             t.get("fill"), t.get("orientation")) for t in spec["data"]]


_FLAT = frozenset((float, int, str, bool, type(None)))


def to_js(value: Any, widget_manager: Any = None) -> Any:
    """plotly's ``_py_to_js`` (``plotly/serializers.py``: what a FigureWidget's messages go
    through before ipywidgets sends them), the same value, but a list of plain numbers and
    strings is passed on as it is: plotly's called itself on each of its elements (the points
    of every changed trace, a quarter of an update's kernel time). Anything else, NumPy arrays
    and plotly's ``Undefined`` included, goes through plotly's own."""
    from plotly.serializers import _py_to_js

    kind = type(value)
    if kind is dict:
        return {k: to_js(v, widget_manager) for k, v in value.items()}
    if kind is list or kind is tuple:
        flat = _FLAT
        if all(type(v) in flat for v in value):
            return value if kind is list else list(value)
        return [to_js(v, widget_manager) for v in value]
    return _py_to_js(value, widget_manager)


_WIDGET: list[type] = []


def shared_esm(source: str, key: str) -> str:
    """An ES module that exports ``source``'s default export, evaluating ``source`` once per
    page whichever number of widgets load it (under ``globalThis[key]``).

    anywidget turns a widget's inline ``_esm`` into a new ``blob:`` URL for every widget model
    and imports it, so the browser evaluates the module once per widget (its module map keys
    modules by URL; marimo-team/marimo#4166 describes the same in Jupyter): plotly's 4.9 MB
    FigureWidget bundle took 1.0-1.1 s of the browser's main thread each time, 4.0 s of lab 04's
    Run All in JupyterLab on a 2-vCPU Intel Xeon (Chrome trace, 2026-12-07), once for each of
    the dashboard's FigureWidgets. Here each widget's module holds the bundle only as a string
    and imports it once; the others wait for that import."""
    import json

    return (f"const key = {json.dumps(key)};\n"
            "if (!globalThis[key]) {\n"
            f"  const url = URL.createObjectURL(new Blob([{json.dumps(source)}],\n"
            "                                            {type: 'text/javascript'}));\n"
            "  globalThis[key] = import(url).finally(() => URL.revokeObjectURL(url));\n"
            "}\n"
            "const mod = await globalThis[key];\n"
            "export default mod.default;\n")


def _plotly_widget_esm() -> str:
    """plotly's FigureWidget bundle as :func:`shared_esm` (keyed by its version and content)."""
    import hashlib

    import plotly
    import plotly.basewidget

    # anywidget holds a class's _esm file as FileContents, whose str() is the file's text
    source = str(plotly.basewidget.BaseFigureWidget._esm)
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]
    return shared_esm(source, f"__ovlab_plotly_widget_{plotly.__version__}_{digest}")


def figure_widget_class() -> type:
    """plotly's FigureWidget, its update message (``_py2js_update``, what
    :func:`update_in_place` sends) serialized by :func:`to_js`, its bundle shared by every
    widget of a page (:func:`shared_esm`)."""
    if not _WIDGET:
        import plotly.graph_objects as go
        from plotly.serializers import _js_to_py
        from traitlets import Dict

        class FigureWidget(go.FigureWidget):
            __doc__ = go.FigureWidget.__doc__
            _esm = _plotly_widget_esm()  # plotly.js evaluated once per page, not per widget
            _py2js_update = Dict(allow_none=True).tag(sync=True, to_json=to_js,
                                                      from_json=_js_to_py)

            def _send_update_msg(self, restyle_data, relayout_data, trace_indexes=None,
                                 source_view_id=None):
                # plotly.js turns autosize off and fixes the width at its current size when
                # a relayout sets the height, unless the same relayout sets both: a
                # dashboard whose height changed (one more legend row) kept its width when
                # the window narrowed, and ran past its output area. Both sent as they are
                # (plotly's Python side holds them unchanged, so assigning sends nothing).
                if "height" in relayout_data and "width" not in relayout_data and \
                        self.layout.autosize is not False and self.layout.width is None:
                    relayout_data = {**relayout_data, "autosize": True, "width": None}
                super()._send_update_msg(restyle_data, relayout_data, trace_indexes,
                                         source_view_id=source_view_id)

        FigureWidget.__module__ = __name__
        _WIDGET.append(FigureWidget)
    return _WIDGET[0]


#: what a dashboard shows before its first run (made with ``run=False``)
EMPTY_FIGURE: dict[str, Any] = {"data": [], "layout": {"template": "plotly_white", "height": 200}}


def new_figure(spec: dict[str, Any]):
    """A FigureWidget showing ``spec``, remembering its structure for :func:`update_in_place`."""
    widget = figure_widget_class()(plain(spec))
    # plotly.js redraws the figure at its container's width when the window is resized: the
    # FigureWidget's own view (an anywidget since plotly 6) never resizes, and one drawn at
    # 848 px ran 132-232 px past its output area in a 1000-px window (review 4b)
    widget._config = {"responsive": True}
    widget._ovlab_schema = schema(spec)
    # what the constructor drew: the first update sends only what differs from it
    widget._ovlab_shown = (plain(spec["data"]),
                           plain({k: v for k, v in spec["layout"].items() if k != "template"}))
    return widget


def update_in_place(widget, spec: dict[str, Any]) -> bool:
    """Make ``widget`` show ``spec`` with one update message; False, leaving the widget
    untouched, if the traces' structure differs from the spec it was made or last updated with
    (make a new widget then: :func:`new_figure`).

    The structure is compared with the spec's, never read back from the widget: once a browser
    has drawn it, a FigureWidget reports plotly.js defaults (``fill: "none"``...) for what the
    spec left unset. The layout's ``template`` is not resent: it is large and never changes
    within a dashboard.

    Only what changed is assigned and sent: each trace property and each top-level layout key
    is compared with the spec this function applied last (plain lists, as :func:`plain` makes
    them, so ``==`` compares by value). A knob change mostly moves points: the traces' styles,
    the empty categories, the analytic lines of an unchanged device and the unchanged axes are
    not sent to the browser. A widget made by :func:`new_figure` is compared with the spec it
    was made with. The messages are those plotly's validated assignments sent (checked on the
    dashboards of labs 04, 05 and 09), made in a third of the time.
    """
    if getattr(widget, "_ovlab_schema", None) != schema(spec):
        return False
    layout = plain({k: v for k, v in spec["layout"].items() if k != "template"})
    data = plain(spec["data"])
    shown_data, shown_layout = getattr(widget, "_ovlab_shown", (None, {}))
    if shown_data is None or len(shown_data) != len(data):
        shown_data = [{} for _ in data]
    # Trace properties go to the batch as plotly's validated assignment would put them there
    # (``_restyle_child``), without its validators: they copied every point of every changed
    # array through Python, two thirds of an update's kernel time. The spec's keys and value
    # types are those the widget's constructor validated (new_figure) and tests validate in a
    # go.Figure of every spec. The layout (a few small keys; shapes and annotations are arrays
    # of objects plotly keeps as Python objects) is assigned through the validators.
    restyle = getattr(widget, "_restyle_child", None)
    with widget.batch_update():
        for trace, before, new in zip(widget.data, shown_data, data, strict=True):
            changed = {k: v for k, v in new.items()
                       if k != "type" and (k not in before or before[k] != v)}
            if not changed:
                continue
            if restyle is None:  # pragma: no cover - a plotly without the hook
                trace.update(changed, overwrite=True)
                continue
            for k, v in changed.items():
                restyle(trace, k, v)
        changed = {k: v for k, v in layout.items()
                   if k not in shown_layout or shown_layout[k] != v}
        if changed:
            widget.layout.update(changed, overwrite=True)
    widget._ovlab_shown = (data, layout)
    return True


_TEMPLATES: dict[str, Any] = {}


def plotly_bundle(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` as the MIME bundle ``fig.show()`` displays (plotly's JSON, drawn by
    JupyterLab's plotly renderer), without building a ``go.Figure``: a template named by
    ``layout.template`` is expanded (once per name), and plotly.js resizes the figure with the
    window (``responsive``)."""
    import plotly.io as pio

    spec = plain(spec)
    layout = dict(spec["layout"])
    name = layout.get("template")
    if isinstance(name, str):
        if name not in _TEMPLATES:
            _TEMPLATES[name] = pio.templates[name].to_plotly_json()
        layout["template"] = _TEMPLATES[name]
    title = layout.get("title", {})
    text = title.get("text", "") if isinstance(title, dict) else str(title)
    return {"application/vnd.plotly.v1+json": {"data": spec["data"], "layout": layout,
                                               "config": {"responsive": True}},
            "text/plain": f"<Figure: {text}>"}


def redraw(box, figure, fig, retired: Retired):
    """Show ``fig`` (a ``go.Figure`` or its dict) in ``figure``, a FigureWidget child of
    ``box``, with one
    message of what changed (:func:`update_in_place`); a new FigureWidget in its place when the
    traces' structure changed. Returns the FigureWidget now shown.

    The LLM dashboards (labs 13 and 14) cleared the traces and added the new ones, a delete and
    an add message per trace, each validated by plotly: half of a change's kernel time outside
    the simulation."""
    spec = fig if isinstance(fig, dict) else fig.to_dict()
    if update_in_place(figure, spec):
        return figure
    new = new_figure(spec)
    box.children = tuple(new if w is figure else w for w in box.children)
    retired.retire(figure)
    return new


class Retired:
    """Close a replaced FigureWidget one replacement later, not at once.

    When a dashboard puts a new FigureWidget in place of the old one, the browser may still be
    sending the old one's answers (its traceDeltas after its last draw). Closed at once, the
    kernel no longer knows its comm and logs "No such comm" into JupyterLab's log console;
    closed at the next replacement, its last messages have long been handled."""

    def __init__(self) -> None:
        self._widgets: tuple = ()

    def retire(self, *widgets) -> None:
        for w in self._widgets:
            w.close()
        self._widgets = widgets
