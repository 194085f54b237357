"""The dashboards' FigureWidgets hold no NumPy arrays, so the browser's answer to an update
(``_js2py_traceDeltas``) never raises in ipywidgets' set_state (the hidden tracebacks that piled
up in JupyterLab's log console on every dashboard interaction)."""

import json

import numpy as np
import plotly.graph_objects as go
import pytest

import ovlab
from ovlab.widgets.sync import new_figure, plain, update_in_place


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
                                  ovlab.widgets.LatencyDashboard])
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


def test_a_above_b_stacks_the_compare_panels():
    """Side by side puts four panels in a row; "A above B" stacks them, for a narrow output."""
    dash = ovlab.widgets.LatencyDashboard(niter=200)
    dash.knobs.compare.value = "side by side"  # pins the run on screen as A
    dash.knobs.timeout.value = 500
    wide = dash.figure.layout
    assert wide.yaxis3.domain == (0.0, 1.0) and wide.xaxis3.domain[0] > 0.5  # in a row
    dash.knobs.compare.value = "A above B"
    stacked = dash.figure.layout
    assert stacked.yaxis3.domain[1] < stacked.yaxis.domain[0]  # B below A
    assert stacked.xaxis3.domain == stacked.xaxis.domain
    labels = [a for a in stacked.annotations if a.text.startswith("<b>")]
    assert len(labels) == 2 and labels[0].y > labels[1].y
    assert all(a.yanchor == "bottom" and a.yshift >= 20 for a in labels)  # above the switch label


def test_a_replaced_figure_is_closed_one_replacement_later():
    """Its comm stays open while the browser may still answer for it ("No such comm" in the
    log console otherwise), and is closed at the next replacement (no leak)."""
    dash = ovlab.widgets.LatencyDashboard(niter=200)
    first = dash.figure
    dash.knobs.compare.value = "side by side"  # other traces: a new figure
    second = dash.figure
    assert second is not first and first.comm is not None  # not closed yet
    dash.knobs.compare.value = "off"  # and back: another new figure
    assert dash.figure is not second
    assert first.comm is None and second.comm is not None
