"""The dashboards' FigureWidgets hold no NumPy arrays, so the browser's answer to an update
(``_js2py_traceDeltas``) never raises in ipywidgets' set_state (the hidden tracebacks that piled
up in JupyterLab's log console on every dashboard interaction)."""

import json

import numpy as np
import plotly.graph_objects as go
import pytest

import ovlab
from ovlab.sim.viz.compare import round_up
from ovlab.sim.widgets.sync import new_figure, plain, update_in_place


def _arrays(value, path=()):
    if isinstance(value, np.ndarray):
        yield path
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _arrays(v, path + (k,))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _arrays(v, path + (i,))


def _typed_array_delta(widget):
    """What the browser sends after an update whose y it holds as a Float64Array: plotly.js's
    widget spells a typed array as an object of indices."""
    deltas = [{"uid": t.uid, "y": {str(i): float(v) for i, v in enumerate(t.y or [])}}
              for t in widget.data]
    return {"_js2py_traceDeltas": {"trace_deltas": deltas,
                                   "trace_edit_id": widget._last_trace_edit_id}}


def test_plain_turns_arrays_into_lists():
    spec = {"data": [{"x": np.arange(3), "y": np.array([1.5, np.nan]), "n": np.int64(3),
                      "z": [float("inf"), 1.0]}]}
    out = plain(spec)
    # NaN / inf become null (a gap to plotly): a kernel message must be strict JSON
    assert out == {"data": [{"x": [0, 1, 2], "y": [1.5, None], "n": 3, "z": [None, 1.0]}]}
    assert not list(_arrays(out))
    json.dumps(out, allow_nan=False)


def test_a_numpy_trace_is_what_raised_and_a_plain_one_does_not():
    # the failure itself, with plotly's own widget: a NumPy y meets the browser's typed array
    raw = go.FigureWidget({"data": [{"type": "scatter", "x": np.arange(5.0),
                                     "y": np.arange(5.0)}]})
    with pytest.raises(ValueError, match="truth value of an array"):
        raw.set_state(_typed_array_delta(raw))
    fixed = new_figure({"data": [{"type": "scatter", "x": np.arange(5.0), "y": np.arange(5.0)}],
                        "layout": {}})
    fixed.set_state({"_js2py_traceDeltas": {
        "trace_deltas": [{"uid": t.uid, "y": list(t.y)} for t in fixed.data],
        "trace_edit_id": fixed._last_trace_edit_id}})


@pytest.mark.parametrize("make", [ovlab.widgets.TimelineDashboard,
                                  ovlab.sim.widgets.LatencyDashboard])
def test_dashboard_figures_hold_no_numpy_arrays(make):
    dash = make(niter=40) if make is ovlab.widgets.TimelineDashboard else make(niter=200)
    assert not list(_arrays(dash.figure._widget_data)), "a NumPy array in the widget's data"
    json.dumps(dash.figure._widget_data, allow_nan=False)  # strict JSON: no NaN on the wire
    dash.knobs.timeout.value = 500  # an update in place
    assert update_in_place(dash.figure, dash._figure_spec(dash.full))
    assert not list(_arrays(dash.figure._widget_data))
    assert not list(_arrays(dash.figure._widget_layout))
    json.dumps(dash.figure._widget_data, allow_nan=False)
    json.dumps(dash.figure._widget_layout, allow_nan=False)


def test_side_by_side_is_two_figures_in_a_box_that_wraps():
    """Side by side: A's FigureWidget and B's, each in a flex cell of at least PANEL_MIN_PX,
    in a box that wraps, so the browser puts B below A when the output area is narrow; both
    on one latency range and one count range; made with the dashboard (hidden, drawn at their
    width) and then only updated in place, B's alone when only B's run changes."""
    dash = ovlab.widgets.LatencyDashboard(niter=200)
    pair = dash.pair
    made = list(dash.pair_figures)
    assert all(f is not None for f in made)  # made with the page, before side by side
    assert dash.widget.children[-3:] == (dash.figure, pair, dash.summary)
    assert dash.PAIR_ON not in pair._dom_classes  # off: invisible, the figure shows
    dash.knobs.compare.value = "side by side"  # pins the run on screen as A
    dash.knobs.timeout.value = 500
    assert dash.PAIR_ON in pair._dom_classes
    # the figure stays in the box, hidden: a view drawn again from its model lost its styles
    assert dash.widget.children[-3:] == (dash.figure, pair, dash.summary)
    assert pair.layout.flex_flow == "row wrap" and pair.layout.display == "flex"
    assert [c.children[0] for c in pair.children[1:]] == made == dash.pair_figures
    assert all(c.layout.flex == f"1 1 {dash.PANEL_MIN_PX}px" and c.layout.min_width == "0"
               for c in pair.children[1:])
    rules = pair.children[0].value
    assert f":has(+ .ovlab-side-by-side.{dash.PAIR_ON}) {{display: none" in rules
    assert f".ovlab-side-by-side:not(.{dash.PAIR_ON}) {{visibility: hidden" in rules
    assert all(f._config == {"responsive": True} for f in made)

    def shown():
        return [f.layout for f in dash.pair_figures]

    a, b = shown()
    assert list(a.yaxis.range) == list(b.yaxis.range)
    assert list(a.xaxis2.range) == list(b.xaxis2.range)
    assert a.title.text.startswith("<b>A: ")
    assert b.title.text == "<b>B: AUTO THROUGHPUT timeout 500 ms</b>"
    assert dash.pair_specs[1]["data"] == plain(dash._pair_specs(dash.full)[1]["data"])
    json.dumps(dash.pair_specs, allow_nan=False)  # plain JSON
    a_spec = dash.pair_specs[0]
    dash.knobs.timeout.value = 550  # another run B: B's figure updated, A's untouched
    a2, b2 = shown()
    assert b2.title.text == "<b>B: AUTO THROUGHPUT timeout 550 ms</b>"
    if dash.pair_specs[0]["layout"]["yaxis"]["range"] == a_spec["layout"]["yaxis"]["range"]:
        assert dash.pair_specs[0] is a_spec  # A's spec the same: not even compared again
    assert dash.pair_figures == made  # updated in place, never made again
    figure = dash.figure
    dash.knobs.compare.value = "off"  # the figure back, the same widget, shown
    assert dash.widget.children[-3:] == (figure, pair, dash.summary) and figure is dash.figure
    assert dash.PAIR_ON not in pair._dom_classes
    # the static figure for pages without a kernel keeps the four panels in one figure
    dash.knobs.compare.value = "side by side"
    static = dash.static_figure()
    assert {t.xaxis for t in static.data} >= {"x3", "x4"}
    top = max(float(np.nanmax(np.array(t.y, dtype=float))) for t in static.data
              if t.yaxis == "y" and t.type == "scatter" and t.y is not None and len(t.y))
    # the latency axis reaches just above the tallest point (it was 0 to 1 s, whatever the
    # runs), rounded up to a step of 1-1.2-1.5-2-2.5-3-4-5-6-8 (round_up)
    assert static.layout.yaxis.range[1] == round_up(top * 1.08)
    assert top * 1.08 <= static.layout.yaxis.range[1] <= top * 1.08 * 1.25


def test_a_replaced_figure_is_closed_one_replacement_later():
    """Its comm stays open while the browser may still answer for it ("No such comm" in the
    log console otherwise), and is closed at the next replacement (no leak)."""
    dash = ovlab.widgets.TimelineDashboard(niter=20)
    first = dash.figure
    dash.knobs.device.value = "NPU"  # the laptop has none: an error, in a new empty figure
    second = dash.figure
    assert second is not first and first.comm is not None  # not closed yet
    dash.knobs.device.value = "GPU"  # and back: another new figure
    assert dash.figure is not second and dash.widget.children[-3] is dash.figure
    assert first.comm is None and second.comm is not None


def _wire(value):
    """A serialized message as ipywidgets puts it on the wire: JSON and binary buffers."""
    from ipywidgets.widgets.widget import _remove_buffers

    state, paths, buffers = _remove_buffers({"m": value})
    return json.dumps(state, sort_keys=True, default=repr), paths, [bytes(b) for b in buffers]


def test_to_js_serializes_as_plotly_does():
    from plotly.basedatatypes import Undefined
    from plotly.serializers import _py_to_js

    from ovlab.sim.widgets.sync import to_js

    values = [{"a": [1.0, 2, None, "x", True], "b": (1.0, 2.0), "c": []},
              [[1.0, 2.0], [3.0, None]], np.arange(3.0), np.array([1, 2], dtype=np.int64),
              {"u": Undefined, "l": [Undefined, 1.0]}, [np.float64(1.5), 2.0, np.int32(3)],
              {"nested": {"list": [{"x": [0.5, 1.5]}, np.arange(2, dtype=np.float32)]}},
              (np.arange(2.0), 3.0), "text", 3.5, None]
    for v in values:
        assert _wire(to_js(v)) == _wire(_py_to_js(v, None)), v


@pytest.mark.parametrize("make", [ovlab.widgets.LatencyDashboard,
                                  ovlab.widgets.TimelineDashboard,
                                  ovlab.sim.widgets.ResourceAwareDashboard])
def test_dashboard_updates_go_out_as_plotlys_serializer_sends_them(make, monkeypatch):
    """The dashboards' FigureWidgets serialize their update messages with ``to_js``; on a
    sequence of changes (a new timeout or load, the hint, lock y, compare) every message is
    byte for byte what plotly's own serializer makes of it."""
    from plotly.serializers import _py_to_js

    from ovlab.sim.widgets.sync import figure_widget_class, to_js

    cls = figure_widget_class()
    sent = []
    send = cls._send_update_msg

    def spy(self, *a, **kw):
        sent.append(self)
        return send(self, *a, **kw)

    messages = []
    trait = cls.class_traits()["_py2js_update"]
    assert trait.metadata["to_json"] is to_js
    real_set = cls.__dict__["_py2js_update"].set

    def record(obj, value):
        if value is not None:
            messages.append(value)
        return real_set(obj, value)

    monkeypatch.setattr(cls, "_send_update_msg", spy)
    monkeypatch.setattr(cls.__dict__["_py2js_update"], "set", record)
    dash = make(niter=200) if make is not ovlab.widgets.ResourceAwareDashboard else make()
    assert isinstance(dash.figure, cls)
    if make is ovlab.sim.widgets.ResourceAwareDashboard:
        for load in (0.6, 0.4):
            dash.gpu_load.value = load
    else:
        for value in (500, 250):
            dash.knobs.timeout.value = value
        dash.knobs.hint.value = "LATENCY"
        dash.knobs.lock_y.value = True
        dash.knobs.hint.value = "THROUGHPUT"
        dash.knobs.compare.value = "overlay"
        dash.knobs.timeout.value = 750
    assert len(messages) >= 2 and sent
    for m in messages:
        assert _wire(to_js(m)) == _wire(_py_to_js(m, None))
