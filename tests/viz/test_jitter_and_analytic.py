"""Jitter as a shape (rolling band, histograms) and the analytic model on the same axes."""

import math

import numpy as np
import pytest

from ovlab.sim.viz import jitter
from ovlab.sim.viz.analytic import batching
from ovlab.sim.viz.dashboard_figures import latency_dashboard_spec


def test_rolling_band_follows_a_step_and_brackets_the_median():
    rng = np.random.default_rng(1)
    y = np.concatenate([rng.normal(0.025, 0.004, 500), rng.normal(0.007, 0.001, 1500)])
    lo, mid, hi = jitter.rolling_band(y, 50)
    assert np.all(lo[50:] <= mid[50:]) and np.all(mid[50:] <= hi[50:])
    assert abs(mid[400] - 0.025) < 0.003 and abs(mid[1900] - 0.007) < 0.001
    assert (hi - lo)[400] > 2 * (hi - lo)[1900]  # the spread narrows after the step


def _histograms(spec):
    """The histogram of each category, as (counts, bin edges) read back from its outline."""
    out = {}
    for t in spec["data"]:
        if t.get("fill") == "toself":
            x, y = np.asarray(t["x"], dtype=float), np.asarray(t["y"], dtype=float)
            out[t["name"]] = (x[1:-1:2], y[0::2]) if len(x) else (np.array([]), np.array([]))
    return out


def test_histograms_share_bins_and_count_every_request(tput):
    _core, _result, view, _a = tput
    spec = latency_dashboard_spec(view)
    hists = _histograms(spec)
    assert set(hists) == {c.label for c in view.categories}
    # each is one closed outline: from the axis, a step per bin, back to the axis
    for t in spec["data"]:
        if t.get("fill") == "toself" and len(t["x"]):
            assert t["x"][0] == 0 and t["x"][-1] == 0 and len(t["x"]) == 2 * 40 + 2
            assert t["type"] == "scatter" and t["mode"] == "lines" and t["line"]["width"] == 0
    assert sum(int(np.sum(c)) for c, _e in hists.values()) == len(view.frame)
    # every category's requests are counted, on the same bins
    for i, cat in enumerate(view.categories):
        counts, edges = hists[cat.label]
        values = view.frame["latency"].to_numpy()[view.frame["cat_code"].to_numpy() == i]
        assert len(counts) == 40 and np.array_equal(counts, np.histogram(values, edges)[0])
    edges = {tuple(np.round(e, 9)) for _c, e in hists.values()}
    assert len(edges) == 1  # the same bins for every category
    top = spec["layout"]["yaxis"]["range"][1]
    assert next(iter(edges))[-1] == pytest.approx(top * 1.0001)
    # the batched and the lone requests are two humps: the lone ones sit higher
    def mean(name):
        counts, e = hists[name]
        return float(np.average((e[:-1] + e[1:]) / 2, weights=counts))
    assert mean("GPU.0 · alone after the timeout") > mean("GPU.0 · in a batch of 16")


def test_an_empty_category_draws_no_histogram():
    """A category with no requests (a dashboard keeps one trace per device and status) has an
    empty outline, not a flat polygon along the axis."""
    from ovlab.sim.widgets.latency_dashboard import LatencyDashboard

    dash = LatencyDashboard(niter=60)
    spec = dash._figure_spec(dash.full)
    hists = {t["name"]: t for t in spec["data"] if t.get("fill") == "toself"}
    markers = {t["legendgroup"]: t for t in spec["data"] if t.get("mode") == "markers"
               and t.get("legendgroup")}
    assert set(hists) == set(markers)
    for name, t in hists.items():
        assert (len(t["x"]) > 0) == (len(markers[name]["x"]) > 0)


def test_analytic_switch_and_levels_match_the_simulation(tput, latency):
    for run, compiles in ((tput, 2), (latency, 1)):
        _core, _result, view, a = run
        assert a.n_compiles == compiles and a.helper
        assert a.switch == pytest.approx(view.switch[0], abs=1e-6)  # compiles are not jittered
        helper = view.frame[[c.status == "helper" for c in view.frame["category"]]]["latency"]
        assert helper.median() == pytest.approx(a.t_helper, rel=0.15)
    _core, _result, view, a = latency
    gpu = view.frame[[c.status == "plain" for c in view.frame["category"]]]["latency"]
    assert gpu.median() == pytest.approx(a.t_one, rel=0.15)


def test_analytic_batch_and_timeout_bounds(tput, timeout100):
    _core, _result, view, a = tput
    assert a.batch.size == 16 and a.fills
    lo, hi = a.batch_range
    assert hi == pytest.approx(15 * 0.030 + a.t_batch)
    f = view.frame
    alone = f[[c.status == "alone" for c in f["category"]]]["latency"]
    # a lone request waits at most one period, then runs (plus the runs queued ahead of it)
    assert alone.max() <= a.alone_range[1] * 1.05
    _core, _result, view, a = timeout100
    assert a.batch.on and not a.fills  # 15 x 30 ms > 100 ms: no batch ever fills
    assert {c.status for c in view.categories} == {"helper", "alone"}
    assert a.steady_latency == pytest.approx(0.05 + a.t_one)


def test_littles_law_throughput(tput, latency):
    for run in (tput, latency):
        _core, _result, view, a = run
        assert a.throughput == pytest.approx(min(1 / 0.030, a.queue / a.steady_latency))
        assert view.stats()["throughput"] == pytest.approx(a.throughput, rel=0.02)


def test_analytic_lines_are_drawn_on_the_latency_axes(tput):
    _core, _result, view, a = tput
    spec = latency_dashboard_spec(view, analytic=a)
    slots = [t for t in spec["data"] if t["name"].startswith("analytic")]
    assert len(slots) == 4  # always four traces: the same structure for every run
    lines = {t["name"]: t for t in slots if len(t["x"])}
    assert len(lines) == 3  # the helper, the batch envelope, the lone ceiling
    batch = next(t for n, t in lines.items() if "batch of 16" in n)
    ys = [v for v in batch["y"] if v is not None]
    assert sorted(set(np.round(ys, 9))) == pytest.approx(sorted(a.batch_range))
    ceiling = next(t for n, t in lines.items() if "T + t(1)" in n)
    assert ceiling["y"][0] == pytest.approx(1.0 + a.t_one)
    assert all(t["xaxis"] == "x" and t["yaxis"] == "y" for t in lines.values())


def test_the_summary_states_simulated_next_to_analytic(tput):
    _core, _result, view, a = tput
    text = "; ".join(a.versus(view))
    assert "switch 14.51 s vs 14.51 s" in text
    assert "batch of 16" in text and "alone max" in text and "Little" in text


@pytest.mark.parametrize("device, config, size", [
    ("GPU", {"PERFORMANCE_HINT": "THROUGHPUT"}, 16),
    ("GPU", {"PERFORMANCE_HINT": "LATENCY"}, 1),
    ("GPU", {"PERFORMANCE_HINT": "THROUGHPUT", "ALLOW_AUTO_BATCHING": "NO"}, 1),
    ("GPU", {"PERFORMANCE_HINT": "THROUGHPUT", "PERFORMANCE_HINT_NUM_REQUESTS": "4"}, 4),
    ("GPU", {"PERFORMANCE_HINT": "THROUGHPUT", "PERFORMANCE_HINT_NUM_REQUESTS": "2"}, 1),
    ("GPU", {"PERFORMANCE_HINT": "CUMULATIVE_THROUGHPUT"}, 1),
    ("CPU", {"PERFORMANCE_HINT": "THROUGHPUT"}, 1),
    ("BATCH:GPU(8)", {}, 8),
])
def test_batching_rules_agree_with_the_runtime_model(core, googlenet16, device, config, size):
    assert batching(core, googlenet16, device, config).size == size
    compiled = core.compile_model(googlenet16, device, config)
    assert compiled.get_runtime_model().inputs[0].get_shape()[0] == size


def test_no_analytic_model_for_several_devices_at_once(googlenet16):
    import ovlab
    from ovlab import experiments
    from ovlab.sim.viz.analytic import Analytic
    from ovlab.sim.viz.runview import RunView

    c = ovlab.Core("laptop", seed=0)
    r = experiments.latency_graph(c, googlenet16, "MULTI:GPU,CPU",
                                  {"PERFORMANCE_HINT": "THROUGHPUT", "ALLOW_AUTO_BATCHING": "NO"},
                                  niter=400, interval=3, verbose=False)
    view = RunView.from_result(r)
    assert len({cat.device for cat in view.categories}) == 2
    assert Analytic.for_run(c, googlenet16, view) is None
    assert not math.isnan(view.stats()["median"])


def test_the_static_figure_draws_the_histograms_outlines(monkeypatch):
    """The PNG stored beside a dashboard fills each histogram's outline as plotly does."""
    import matplotlib.axes

    from ovlab.sim.viz import static

    filled = []
    real = matplotlib.axes.Axes.fill

    def spy(self, *args, **kwargs):
        filled.append((np.asarray(args[0]), np.asarray(args[1]), kwargs))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(matplotlib.axes.Axes, "fill", spy)
    counts, edges = np.array([0, 3, 5, 1]), np.linspace(0.0, 0.4, 5)
    x, y = jitter.outline(counts, edges)
    fig = {"data": [dict(type="scatter", mode="lines", x=x, y=y, fill="toself",
                         fillcolor="#9467bd", line=dict(width=0, color="#9467bd"),
                         opacity=0.65, name="batch", showlegend=False),
                    dict(type="scatter", mode="lines", x=[], y=[], fill="toself",
                         fillcolor="#ff7f0e", line=dict(width=0), name="empty")],
           "layout": {}}
    import plotly.graph_objects as go

    png = static.to_png(go.Figure(fig))
    assert png[:4] == b"\x89PNG"
    assert len(filled) == 1  # the empty outline draws nothing
    fx, fy, kw = filled[0]
    assert np.array_equal(fx, x) and np.array_equal(fy, y)
    assert kw["alpha"] == 0.65 and kw["color"] == "#9467bd"
