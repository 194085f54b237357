"""A run cut at a moment shows only what had happened; the ghost, compare mode, static PNGs."""

import numpy as np
import pytest

from ovlab.sim.viz.compare import compare_figure, compare_stats, compare_text
from ovlab.sim.viz.dashboard_figures import latency_dashboard_spec, timeline_dashboard_spec
from ovlab.sim.viz.decimate import minmax_indices
from ovlab.sim.viz.static import to_png


def _switch_notes(spec):
    return [a["text"] for a in spec["layout"]["annotations"] if a["text"].startswith("switch")]


def test_a_cut_holds_only_what_had_happened(tput):
    _core, _result, view, _a = tput
    for t in (0.0, 1.0, 7.0, 14.0, 14.6, 30.0):
        cut = view.at(t)
        assert (cut.frame["result"] <= t).all()
        assert len(cut.frame) == int((view.frame["result"] <= t).sum())
        assert all(c.start <= t for c in cut.compiles)
        assert all(k.time <= t for k in cut.ticks)
        assert (cut.switch is None) == (t < view.switch[0])
        assert cut.categories == view.categories  # the same traces from the first frame on


def test_live_frames_never_show_a_switch_before_it_happens(tput):
    _core, _result, view, a = tput
    before = latency_dashboard_spec(view.at(10.0), view, analytic=a)
    after = latency_dashboard_spec(view.at(20.0), view, analytic=a)
    assert _switch_notes(before) == []
    assert _switch_notes(after) == ["switch to GPU.0 (t = 14.51 s)"]
    assert not any(s["type"] == "line" and s["line"]["color"] == "#d62728"
                   for s in before["layout"]["shapes"])
    # the same keys on every frame: nothing of a previous frame can linger in a FigureWidget
    assert set(before["layout"]) == set(after["layout"])
    assert [t["type"] for t in before["data"]] == [t["type"] for t in after["data"]]


def test_while_the_gpu_compiles_the_plot_shows_helper_points_and_a_progress_band(tput):
    _core, _result, view, a = tput
    spec = latency_dashboard_spec(view.at(3.0), view, analytic=a)
    helper = next(t for t in spec["data"] if t["name"].startswith("CPU · AUTO's CPU helper"))
    assert len(helper["y"]) > 50
    notes = [x["text"] for x in spec["layout"]["annotations"]]
    # the band counts both compiles back to back (the model, then its batch-16 copy): what
    # remains until the GPU can run, not the first compile's share
    assert any(n.startswith("GPU.0 compiles (compile 1 of 2): 11.5 s left of 14.7 s")
               for n in notes), notes
    bars = [s for s in spec["layout"]["shapes"] if s["type"] == "rect" and s["y0"] == 0.93]
    filled = max(bars, key=lambda s: s["fillcolor"] != "rgba(0,0,0,0.04)")
    assert filled["x1"] == pytest.approx((3.0 + 0.214) / 14.72, abs=0.01)
    # the second compile (the batch-16 model) is named as such while it runs
    spec = latency_dashboard_spec(view.at(10.0), view, analytic=a)
    assert any("the batch-16 model (compile 2 of 2): 4.5 s left of 14.7 s" in x["text"]
               for x in spec["layout"]["annotations"])
    # the summary of a frame is the summary of its requests only
    assert view.at(3.0).stats()["requests"] == len(helper["y"])


def test_a_gpu_run_is_never_blank_while_it_compiles(gpu_timeline):
    _core, _result, view, a = gpu_timeline
    first = min(c.start for c in view.compiles)
    assert first < -14  # GPU THROUGHPUT compiles twice before the first submit
    spec = timeline_dashboard_spec(view.at(first + 2.0), view, analytic=a)
    notes = [x["text"] for x in spec["layout"]["annotations"]]
    # 12.7 s of compiling remain (two compiles back to back), not "2.0 of 7.4 s"
    assert any(n.startswith("GPU.0 compiles (compile 1 of 2): 12.7 s left of 14.7 s")
               for n in notes), notes
    # the clock never reads negative: before the first submit it counts down to it
    title = spec["layout"]["title"]["text"]
    assert title.endswith("running: compiling, first submit in 12.7 s") and "= -" not in title
    late = timeline_dashboard_spec(view.at(-7.0), view, analytic=a)
    notes = [x["text"] for x in late["layout"]["annotations"]]
    assert any("(compile 2 of 2): 7.0 s left of 14.7 s" in n for n in notes), notes
    bars = [s for s in late["layout"]["shapes"] if s["type"] == "rect" and s["y0"] == 0.93]
    filled = max(bars, key=lambda s: s["fillcolor"] != "rgba(0,0,0,0.04)")
    assert filled["x1"] == pytest.approx((-7.0 - first) / (0.0 - first), abs=0.01)
    assert "running: t = 1.0 s" in timeline_dashboard_spec(view.at(1.0), view,
                                                           analytic=a)["layout"]["title"]["text"]
    done = timeline_dashboard_spec(view, analytic=a)
    assert any(n["text"].startswith("before the first submit: GPU.0 compiled for 14.7 s")
               for n in done["layout"]["annotations"])


def test_the_timeline_marks_the_batch_timer_ticks(gpu_timeline):
    _core, _result, view, a = gpu_timeline
    spec = timeline_dashboard_spec(view, analytic=a)
    ticks = [s for s in spec["layout"]["shapes"] if s["type"] == "line"
             and s["line"]["color"] == "#ff7f0e"]
    assert len(ticks) == len(view.ticks) >= 1
    wires = {t["name"]: t for t in spec["data"] if t.get("legendgroup") and t.get("mode") == "lines"
             and t.get("fill") != "toself"}  # not the histograms' outlines
    assert set(wires) == {"GPU.0 · in a batch of 16", "GPU.0 · alone after the timeout"}


def test_the_ghost_is_the_previous_run(tput, timeout100):
    _c, _r, a_view, _a = tput
    _c, _r, b_view, b_an = timeout100
    spec = latency_dashboard_spec(b_view, ghost=a_view, analytic=b_an)
    ghost = spec["data"][0]
    assert ghost["name"] == "previous run: AUTO THROUGHPUT" and ghost["showlegend"]
    assert np.nanmax(ghost["y"]) == pytest.approx(a_view.frame["latency"].max())
    assert np.nanmin(ghost["y"]) == pytest.approx(a_view.frame["latency"].min())
    # one faint path of short dashes, one per point the min-max decimation kept
    assert ghost["mode"] == "lines" and ghost["opacity"] < 0.5
    assert np.isnan(ghost["y"][2::3]).all() and not np.isnan(ghost["y"][0::3]).any()
    kept = minmax_indices(a_view.frame["latency"].to_numpy(), 1000)
    assert (len(ghost["y"]) + 1) // 3 == len(kept)
    # the latency axis keeps room for the ghost: the size of the change stays visible
    assert spec["layout"]["yaxis"]["range"][1] >= a_view.frame["latency"].max()
    outline = next(t for t in spec["data"] if t["name"] == "previous run histogram")
    assert max(outline["x"]) > 0
    alone = latency_dashboard_spec(b_view, analytic=b_an)
    assert alone["data"][0]["showlegend"] is False and len(alone["data"][0]["y"]) == 0
    assert alone["layout"]["yaxis"]["range"][1] < 0.2


def test_a_locked_y_axis_keeps_its_range(tput, timeout100):
    _c, _r, b_view, _a = timeout100
    spec = latency_dashboard_spec(b_view, y_range=[0, 1.1])
    assert spec["layout"]["yaxis"]["range"] == [0, 1.1]


def test_compare_states_the_differences(tput, timeout100):
    a, b = tput[2], timeout100[2]
    s = compare_stats(a, b)
    assert s["median"]["A"] == pytest.approx(np.median(a.frame["latency"]) * 1000)
    assert s["p99"]["B"] == pytest.approx(np.percentile(b.frame["latency"], 99) * 1000)
    assert s["median"]["change_pct"] == pytest.approx(
        (s["median"]["B"] - s["median"]["A"]) / s["median"]["A"] * 100)
    text = compare_text(a, b)
    assert text.startswith("B vs A: median 202.0 -> 71.5 ms (-65 %), p99 857.8 -> 141.1 ms")
    assert "throughput 32.9 -> 33.3 inferences/s" in text


def test_compare_side_by_side_and_overlaid(tput, timeout100):
    a, b = tput[2], timeout100[2]
    side = compare_figure(a, b, mode="side")
    # the compare text on two lines (one ran past a 568-px figure)
    assert side.layout.title.text.replace("<br>", ", ") == compare_text(a, b)
    assert side.layout.title.text.count("<br>") == 1
    assert {t.xaxis for t in side.data} == {"x", "x2", "x3", "x4"}
    assert side.layout.yaxis3.matches == "y"  # one latency axis for both
    heads = [n.text for n in side.layout.annotations if n.text.startswith("<b>")]
    assert heads == ["<b>A: AUTO THROUGHPUT</b>", "<b>B: AUTO THROUGHPUT timeout 100 ms</b>"]
    # each legend entry once (the band, median and timer ticks of both runs were listed twice)
    entries = [t.name for t in side.data if t.showlegend is not False and t.name]
    assert len(entries) == len(set(entries)), entries
    assert {"median of the last 50", "batch timer tick (requests sent alone)"} <= set(entries)
    # a gap between each latency panel and its histogram for the axis's last label
    assert side.layout.xaxis2.domain[0] - side.layout.xaxis.domain[1] >= 0.03
    assert side.layout.xaxis4.domain[0] - side.layout.xaxis3.domain[1] >= 0.03
    over = compare_figure(a, b, mode="overlay")
    pinned = next(t for t in over.data if t.name.startswith("A: "))
    assert len(pinned.y) > 0 and pinned.marker.symbol == "circle-open"
    assert compare_text(a, b) in over.layout.title.text.replace("<br>", ", ")
    with pytest.raises(ValueError, match="compare mode"):
        compare_figure(a, b, mode="sideways")


def test_the_dashboard_figures_have_static_pngs(tput, gpu_timeline, timeout100):
    import plotly.graph_objects as go

    for spec in (latency_dashboard_spec(tput[2], ghost=timeout100[2], analytic=tput[3]),
                 timeline_dashboard_spec(gpu_timeline[2], analytic=gpu_timeline[3])):
        png = to_png(go.Figure(spec))
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    png = to_png(compare_figure(tput[2], timeout100[2]))
    assert len(png) > 20_000


def test_a_static_figure_with_its_legend_below_has_no_blank_band(tput, timeout100):
    """The stored PNG of a figure whose legend sits at its foot (the dashboards', the compare
    figure) gives the legend three entries a row under the axes' titles, and is shorter than
    the browser's figure by the margin the browser's two-a-row legend needs: it kept that
    margin and added its own, a blank band of ~200 px above the legend."""
    import struct

    import plotly.graph_objects as go

    for fig in (go.Figure(latency_dashboard_spec(tput[2], analytic=tput[3])),
                compare_figure(tput[2], timeout100[2])):
        assert fig.layout.legend.yref == "container"
        names = {t.name for t in fig.data if t.name and t.showlegend is not False}
        height = struct.unpack(">I", to_png(fig)[20:24])[0]  # the PNG's IHDR height
        foot = 52 + 12 + -(-len(names) // 3) * 14
        assert height == fig.layout.height - fig.layout.margin.b + foot
        assert height < fig.layout.height


def test_the_switch_line_appears_when_the_switch_happens(tput):
    _core, _result, view, _a = tput
    t = view.switch[0] + 0.001  # no request has completed on the GPU yet
    cut = view.at(t)
    assert cut.switch_index is None
    spec = latency_dashboard_spec(cut, view)
    assert _switch_notes(spec) == ["switch to GPU.0 (t = 14.51 s)"]
    line = next(s for s in spec["layout"]["shapes"] if s["type"] == "line")
    assert line["x0"] == len(cut.frame)  # where the next completion will be drawn


def test_ghost_dashes_keep_every_point_as_its_own_mark():
    """Each point becomes a short horizontal dash centred on it, separated from the next by a
    NaN gap (one SVG path for the whole ghost), every y value kept."""
    from ovlab.sim.viz.panels import DASH_SHARE, ghost_dashes

    x, y = np.array([0.0, 10.0, 20.0, 40.0]), np.array([3.0, 9.0, 1.0, 5.0])
    dx, dy = ghost_dashes(x, y)
    assert len(dx) == len(dy) == 3 * len(x) - 1
    half = 40.0 * DASH_SHARE / 2
    assert np.allclose((dx[0::3] + dx[1::3]) / 2, x) and np.allclose(dx[1::3] - dx[0::3], 2 * half)
    assert np.array_equal(dy[0::3], y) and np.array_equal(dy[1::3], y)
    assert np.isnan(dx[2::3]).all() and np.isnan(dy[2::3]).all()
    one_x, one_y = ghost_dashes(np.array([5.0]), np.array([2.0]))
    assert one_y.tolist() == [2.0, 2.0] and one_x[1] > one_x[0]
    assert all(len(a) == 0 for a in ghost_dashes(np.array([]), np.array([])))


def test_dashboard_axes_never_hide_their_tick_labels(tput):
    """Both dashboards' axes let their tick labels be (``ticklabeloverflow="allow"``), which
    spares plotly a measure of every label on every redraw; the figure stays valid plotly."""
    import plotly.graph_objects as go

    _c, _r, view, an = tput
    for spec in (latency_dashboard_spec(view, analytic=an), timeline_dashboard_spec(view)):
        axes = {k: v for k, v in spec["layout"].items() if k.startswith(("xaxis", "yaxis"))}
        assert len(axes) >= 4
        assert all(a["ticklabeloverflow"] == "allow" for a in axes.values())
        go.Figure(spec)  # plotly's validators accept it


def test_a_shifted_note_at_a_category_is_drawn_in_the_static_png():
    """plotly's yshift on a note over a bar (lab 07's labels) moves it in the stored PNG too; a
    category's name as its x is placed on the axis first (matplotlib raised on it)."""
    import plotly.graph_objects as go

    fig = go.Figure(go.Bar(x=["CPU alone", "HETERO"], y=[4.6, 6.5]))
    fig.add_annotation(x="HETERO", y=6.5, text="6.50 ms", showarrow=False, yshift=12)
    assert to_png(fig)[:8] == b"\x89PNG\r\n\x1a\n"
