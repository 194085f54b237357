"""The dashboards' FigureWidgets share one evaluation of plotly's widget bundle per page."""

from __future__ import annotations

import json
import re

import plotly
import plotly.basewidget

from ovlab.sim.widgets.sync import figure_widget_class, new_figure, shared_esm


def test_shared_esm_imports_the_source_once_under_its_key():
    module = shared_esm("export default {render() {}};", "__key")
    # the source travels as a string, imported from a blob URL only when the key is unset
    literal = re.search(r"new Blob\(\[(.*)\],", module, re.S).group(1)
    assert json.loads(literal) == "export default {render() {}};"
    assert 'const key = "__key";' in module
    assert module.index("if (!globalThis[key])") < module.index("import(url)")
    assert "export default mod.default;" in module
    assert module.count("import(") == 1


def test_every_figure_widget_sends_the_shared_wrapper_of_plotlys_bundle():
    bundle = str(plotly.basewidget.BaseFigureWidget._esm)
    widget = new_figure({"data": [{"type": "scatter", "x": [1, 2], "y": [3, 4]}],
                         "layout": {"title": {"text": "t"}}})
    esm = widget._esm  # the trait anywidget syncs to the browser
    assert esm == figure_widget_class()._esm
    assert f"__ovlab_plotly_widget_{plotly.__version__}_" in esm
    literal = re.search(r"new Blob\(\[(.*)\],", esm, re.S).group(1)
    assert json.loads(literal) == bundle  # the bundle itself, unchanged


def test_a_dashboard_makes_only_the_figure_widgets_it_shows(monkeypatch):
    """Each FigureWidget model costs the browser its own setup: a dashboard makes the ones on
    its page only (it made an empty one first, replaced by the first run's)."""
    import plotly.graph_objects as go

    import ovlab

    made = []
    init = go.FigureWidget.__init__
    monkeypatch.setattr(go.FigureWidget, "__init__",
                        lambda self, *a, **kw: made.append(self) or init(self, *a, **kw))
    dash = ovlab.widgets.LatencyDashboard()
    # the figure, side by side's A and B
    assert sorted(map(id, made)) == sorted(map(id, [dash.figure, *dash.pair_figures]))
    made.clear()
    aware = ovlab.widgets.ResourceAwareDashboard()
    assert made == [aware.figure]
    made.clear()
    idle = ovlab.widgets.LatencyDashboard(run=False)
    assert idle.figure in idle.widget.children and len(made) == 1
    idle.run()  # the first run replaces the empty figure on the page
    assert idle.figure in idle.widget.children and made[0] not in idle.widget.children
