"""Live replays tell the truth and never lock the learner out; the dashboards' ghost, lock,
compare and the text a stored notebook shows instead of a widget repr."""

import asyncio
import math
import re
import time

import pytest

import ovlab
from ovlab.sim.widgets.live import LivePlayer
from ovlab.sim.widgets.sync import new_figure, update_in_place


def test_the_player_draws_at_most_fps_frames_a_second_and_ends_at_the_end():
    seen = []
    player = LivePlayer(seen.append, fps=20)
    t0 = time.monotonic()
    assert player.start(0.0, 5.0, speed=10.0) is None  # no running loop: synchronous
    wall = time.monotonic() - t0
    assert seen[-1] == 5.0 and seen == sorted(seen)
    assert 0.45 <= wall <= 2.0
    assert len(seen) <= 20 * wall + 2


def test_a_replay_on_the_event_loop_can_be_cancelled():
    seen = []

    async def main():
        player = LivePlayer(seen.append, fps=30)
        task = player.start(0.0, 100.0, speed=10.0)
        await asyncio.sleep(0.3)
        assert player.running
        player.cancel()
        await asyncio.sleep(0.05)
        assert task.cancelled() and not player.running

    asyncio.run(main())
    assert 2 <= len(seen) <= 12 and max(seen) < 10.0


def test_an_update_clears_what_a_new_layout_leaves_out():
    import plotly.graph_objects as go

    line = dict(type="line", x0=1, x1=1, y0=0, y1=1)
    w = new_figure({"data": [dict(type="scatter", x=[1, 2], y=[3, 4])],
                    "layout": dict(shapes=[line], annotations=[dict(text="s", x=1, y=1)])})
    assert len(w.layout.shapes) == 1
    assert update_in_place(w, {"data": [dict(type="scatter", x=[5], y=[6])],
                               "layout": dict(shapes=[], annotations=[])})
    assert w.layout.shapes == () and w.layout.annotations == () and list(w.data[0].x) == [5]
    bar = {"data": [dict(type="bar", x=[1], y=[1])], "layout": {}}
    assert not update_in_place(w, bar) and w.data[0].type == "scatter"  # untouched
    # what a browser reports back (plotly.js defaults) does not make the structure "differ"
    w.data[0]._prop_defaults["fill"] = "none"
    assert update_in_place(w, {"data": [dict(type="scatter", x=[7], y=[8])], "layout": {}})
    assert not update_in_place(go.FigureWidget(), {"data": [], "layout": {}})  # not ours


def test_an_update_sends_only_what_changed(monkeypatch):
    """A trace property or a layout key equal to what the widget was last given is not sent
    again, in one Plotly.update: a spec equal to the one the widget was made with sends
    nothing, a moved trace that trace's points only; the widget's Python side follows."""
    import plotly.graph_objects as go
    from plotly.basedatatypes import Undefined

    sent = []
    send = go.FigureWidget._send_update_msg

    def spy(self, restyle_data, relayout_data, trace_indexes=None, **kwargs):
        sent.append(({k: [i for i, v in zip(trace_indexes, vals, strict=True)
                          if v is not Undefined] for k, vals in restyle_data.items()},
                     sorted(relayout_data)))
        return send(self, restyle_data, relayout_data, trace_indexes, **kwargs)

    monkeypatch.setattr(go.FigureWidget, "_send_update_msg", spy)
    spec = lambda y, title, color="red": {  # noqa: E731
        "data": [dict(type="scatter", x=[1, 2], y=y, marker=dict(color=color)),
                 dict(type="scatter", x=[1, 2], y=[9, 9], name="still")],
        "layout": dict(title=dict(text=title), xaxis=dict(range=[0, 3]))}
    w = new_figure(spec([3, 4], "a"))
    assert update_in_place(w, spec([3, 4], "a")) and sent == []  # as made: nothing to send
    assert update_in_place(w, spec([5, 6], "b"))
    assert sent == [({"y": [0]}, ["title"])]
    assert list(w.data[0].y) == [5, 6] and w.layout.title.text == "b"
    assert w.data[0].marker.color == "red" and list(w.data[1].y) == [9, 9]
    sent.clear()
    assert update_in_place(w, spec([5, 6], "b", color="blue"))
    assert sent == [({"marker": [0]}, [])] and w.data[0].marker.color == "blue"


def test_runs_restyle_one_figure_and_only_compare_mode_makes_a_new_one():
    d = ovlab.widgets.TimelineDashboard(niter=20)
    first = d.figure
    d.knobs.timeout.value = 1050
    d.knobs.hint.value = "LATENCY"  # other categories: the same traces (one per device and
    d.knobs.device.value = "AUTO"  # batch status), restyled
    assert d.figure is first
    d.knobs.compare.value = "side by side"  # A's and B's figures where the figure was
    assert d.PAIR_ON in d.pair._dom_classes and d.figure is first
    assert d.widget.children[-3] is first
    d.knobs.compare.value = "off"  # and the same figure back
    assert d.widget.children[-3] is first and d.PAIR_ON not in d.pair._dom_classes


@pytest.fixture(scope="module")
def dash():
    return ovlab.widgets.LatencyDashboard()


def test_a_change_keeps_the_previous_run_as_a_ghost(dash):
    assert dash.ghost is None and dash.figure.data[0].y is not None
    assert len(dash.figure.data[0].y) == 0
    dash.knobs.timeout.value = 100
    ghost = dash.figure.data[0]
    assert ghost.name == "previous run: AUTO THROUGHPUT timeout 1000 ms"
    assert len(ghost.y) > 0
    assert "max 155.3 ms" in dash.summary.value
    # the y axis keeps the ghost's range, so the change's size shows
    assert dash.figure.layout.yaxis.range[1] > 1.0
    dash.knobs.timeout.value = 1000


def test_going_back_to_a_setting_reuses_its_run(dash):
    first = dash.result
    dash.knobs.timeout.value = 1050
    assert dash.result is not first and dash.ghost is not None
    dash.knobs.timeout.value = 1000
    assert dash.result is first  # same settings, same seed: the same run, not simulated again
    assert dash.ghost.label == "AUTO THROUGHPUT timeout 1050 ms"


def test_lock_y_axis(dash):
    dash.knobs.lock_y.value = True
    locked = list(dash.figure.layout.yaxis.range)
    dash.knobs.hint.value = "LATENCY"
    assert list(dash.figure.layout.yaxis.range) == locked
    dash.knobs.lock_y.value = False
    dash.knobs.hint.value = "THROUGHPUT"


def test_compare_mode_pins_run_a_and_states_the_differences(dash):
    dash.knobs.compare.value = "overlay"
    assert dash.pinned is dash.full
    dash.knobs.timeout.value = 100
    assert any(t.name.startswith("A: AUTO THROUGHPUT") for t in dash.figure.data)
    assert re.search(r"B vs A: median 20\d\.\d -&gt; 71\.5 ms \(-6\d %\)", dash.summary.value)
    dash.knobs.compare.value = "side by side"
    titles = [f.layout.title.text for f in dash.pair_figures]
    assert titles[0].startswith("<b>A: AUTO THROUGHPUT")
    assert titles[1] == "<b>B: AUTO THROUGHPUT timeout 100 ms</b>"
    assert dash.PAIR_ON in dash.pair._dom_classes
    dash.knobs.compare.value = "off"
    assert dash.pinned is None and dash.PAIR_ON not in dash.pair._dom_classes
    dash.knobs.timeout.value = 1000


def test_the_stored_notebook_shows_a_line_of_text_not_a_widget_repr(dash):
    bundle = dash._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    text = bundle["text/plain"]
    assert text.startswith("LatencyDashboard: AUTO, PERFORMANCE_HINT THROUGHPUT")
    assert "VBox" not in text and "\n" not in text


def test_a_bad_setting_shows_its_error_and_no_stale_marks():
    d = ovlab.widgets.TimelineDashboard(niter=20)
    d.knobs.device.value = "NPU"  # the laptop has none
    assert "ovlab-error" in d.summary.value
    assert d.figure.data == () and d.figure.layout.shapes == ()
    d.knobs.device.value = "GPU"
    assert "ovlab-error" not in d.summary.value and len(d.figure.data) > 0


def _count(values) -> int:
    return 0 if values is None else len(values)


def test_a_live_run_only_ever_shows_its_own_switch_and_summary():
    """Replay the LATENCY run (switch at 7.15 s) right after the THROUGHPUT run (14.51 s), and
    check every frame drawn: its switch line and its summary belong to the run on screen at
    that moment, and a widget change in the middle cancels the replay and starts the new run."""
    d = ovlab.widgets.LatencyDashboard(fps=30)
    frames = []
    draw = d._frame

    def spy(t):
        draw(t)
        notes = [a.text for a in d.figure.layout.annotations]
        frames.append((d.knobs.hint.value, t, d.shown.now, d.summary.value, notes,
                       _count(next(tr for tr in d.figure.data
                                   if "CPU helper" in (tr.name or "")
                                   and tr.legendgroup).y)))

    d.player.draw = spy

    async def main():
        d.knobs.speed.value = 50
        d.knobs.live.value = True  # replays the THROUGHPUT run on screen
        await asyncio.sleep(0.2)
        d.knobs.hint.value = "LATENCY"  # cancels it, runs LATENCY, replays it
        assert d.player.running
        await d.player.task

    asyncio.run(main())
    tput = [f for f in frames if f[0] == "THROUGHPUT"]
    lat = [f for f in frames if f[0] == "LATENCY"]
    # how many frames fit depends on the machine's load; what they show does not
    assert tput and len(lat) >= 3 and lat[-1][1] == d.full.end
    assert max(f[1] for f in tput) < d.ghost.end  # cancelled before its end
    # at most fps frames a second: one per slot after the first, and the last one (the run's
    # end) may come before its slot is over (the replay does not wait past the end)
    assert d.player.frames <= 30 * d.player.wall + 2
    for _hint, t, now, summary, notes, _n in lat:
        switch = [n for n in notes if n.startswith("switch")]
        assert "14.51" not in summary and "OPTIMAL_NUMBER_OF_INFER_REQUESTS 64" not in summary
        if t < 7.145:
            assert switch == [] and "switch at" not in summary
        else:
            assert switch == ["switch to GPU.0 (t = 7.15 s)"] and "switch at 7.15 s" in summary
        if math.isfinite(now) and now < d.full.end:
            assert "<b>running</b>" in summary
    # the helper's points grow frame by frame from the first frames on
    counts = [f[5] for f in lat]
    assert counts == sorted(counts) and counts[-1] == 225


def test_an_update_sends_what_plotlys_validated_assignment_sends(monkeypatch):
    """update_in_place skips plotly's validators for trace properties: the Plotly.update it
    sends and the widget's state after it are those of the validated assignments."""
    import json

    import plotly.graph_objects as go
    from plotly.basedatatypes import Undefined

    sent = []
    send = go.FigureWidget._send_update_msg

    def spy(self, restyle_data, relayout_data, trace_indexes=None, **kwargs):
        sent.append(json.dumps([restyle_data, relayout_data, trace_indexes], sort_keys=True,
                               default=lambda v: "undefined" if v is Undefined else str(v)))
        return send(self, restyle_data, relayout_data, trace_indexes, **kwargs)

    monkeypatch.setattr(go.FigureWidget, "_send_update_msg", spy)
    spec = lambda k: {  # noqa: E731
        "data": [dict(type="scatter", x=[1, 2, 3], y=[k, 2 * k, None], mode="markers",
                      marker=dict(color="red", size=[4, 5, 6 + k]), name=f"a {k}"),
                 dict(type="bar", x=[1, 2], y=[3, 4], name="still", customdata=[[1, k], [2, 3]]),
                 dict(type="scatter", x=[0.5 * k], y=[1.0], mode="lines", line=dict(width=k))],
        "layout": dict(title=dict(text=f"t {k}"), shapes=[dict(type="line", x0=k, x1=k)],
                       yaxis=dict(range=[0, k + 1]))}
    fast = new_figure(spec(1))
    slow = new_figure(spec(1))
    for k in (2, 3):
        assert update_in_place(fast, spec(k))
        new = spec(k)
        with slow.batch_update():  # what update_in_place did before: every changed key assigned
            for trace, before, after in zip(slow.data, spec(k - 1)["data"], new["data"],
                                            strict=True):
                trace.update({p: v for p, v in after.items()
                              if p != "type" and before.get(p) != v}, overwrite=True)
            slow.layout.update({p: v for p, v in new["layout"].items()
                                if spec(k - 1)["layout"].get(p) != v}, overwrite=True)
    assert len(sent) == 4 and sent[0] == sent[1] and sent[2] == sent[3]
    def state(w):
        return json.dumps([{p: v for p, v in t.items() if p != "uid"}
                           for t in w.to_plotly_json()["data"]], sort_keys=True, default=str)
    assert state(fast) == state(slow)
    assert fast.layout.to_plotly_json() == slow.layout.to_plotly_json()
