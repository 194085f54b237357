"""Lab 05's side by side keeps the submit -> result timeline in both panels."""

from __future__ import annotations

import ovlab


def test_side_by_side_panels_draw_the_timeline_on_one_latency_range():
    d = ovlab.widgets.TimelineDashboard()
    made = list(d.pair_figures)  # made with the page, then only updated in place
    d.knobs.compare.value = "side by side"  # pins the run on screen as A
    d.knobs.timeout.value = 100
    spec_a, spec_b = d.pair_specs
    for spec, name in ((spec_a, "A: "), (spec_b, "B: ")):
        layout = spec["layout"]
        assert name in layout["title"]["text"]
        assert layout["yaxis"]["ticktext"] == ["result", "submit"]  # the timeline's rows
        assert layout["yaxis2"]["title"]["text"] == "latency (ms)"  # ms, as the main view
        wires = [t for t in spec["data"] if t.get("yaxis", "y") == "y" and len(t.get("x", []))]
        assert wires  # B's wires and A's are drawn
    assert spec_a["layout"]["yaxis2"]["range"] == spec_b["layout"]["yaxis2"]["range"]
    assert spec_a["data"] != spec_b["data"]  # two different runs
    assert d.pair_figures == made
    assert [f.layout.title.text for f in made] == [spec_a["layout"]["title"]["text"],
                                                   spec_b["layout"]["title"]["text"]]


def test_round_up_steps():
    from ovlab.sim.viz.compare import round_up

    assert [round_up(v) for v in (0.95, 1.0, 1.01, 1.19, 1.2, 1.21, 291.5, 324.5, 0.0273, 7.9)] \
        == [1.0, 1.0, 1.2, 1.2, 1.2, 1.5, 300.0, 400.0, 0.03, 8.0]
    assert round_up(0.0) == round_up(float("nan")) == 1.0


def test_side_by_side_small_timeout_step_leaves_run_a_alone():
    """A timeout step that keeps B under the shared, rounded range sends nothing for A: its
    spec (range, histogram bins, count axis) is unchanged, so the browser redraws B only. A
    larger change that moves B past the range moves A's axes with it (one scale for both)."""
    for make, axis in ((ovlab.widgets.LatencyDashboard, "yaxis"),
                       (ovlab.widgets.TimelineDashboard, "yaxis2")):
        d = make()
        d.knobs.compare.value = "side by side"
        start = d.knobs.timeout.value
        d.knobs.timeout.value = start + d.knobs.timeout.step
        a_before = d.pair_specs[0]
        d.knobs.timeout.value = start
        assert d.pair_specs[0] == a_before, make.__name__
        d.knobs.timeout.value = start + d.knobs.timeout.step
        assert d.pair_specs[0] == a_before, make.__name__
        tops = [spec["layout"][axis]["range"][1] for spec in d.pair_specs]
        assert tops[0] == tops[1], (make.__name__, tops)
        d.knobs.timeout.value = d.knobs.timeout.max  # B's latencies past A's range
        tops_after = [spec["layout"][axis]["range"][1] for spec in d.pair_specs]
        assert tops_after[0] == tops_after[1] > tops[0], (make.__name__, tops_after)


def test_pair_is_made_without_points_and_filled_when_side_by_side_shows():
    """The hidden pair costs the browser nothing to draw at Run All: its traces are there
    (the structure side by side updates in place) with no points until side by side is on."""
    from ovlab.sim.widgets.sync import schema

    for make in (ovlab.widgets.LatencyDashboard, ovlab.widgets.TimelineDashboard):
        d = make()
        made = list(d.pair_figures)
        assert all(len(t.x or ()) == 0 for f in made for t in f.data), make.__name__
        d.knobs.compare.value = "side by side"
        assert d.pair_figures == made  # the same widgets, updated in place
        assert all(any(len(t.x or ()) for t in f.data) for f in made), make.__name__
        assert schema(d.pair_specs[0]) == schema(d.pair_specs[1])


def test_the_pin_one_click_away_is_made_in_idle_time(monkeypatch):
    """After a change, the kernel's idle time makes side by side's specs for pinning the run
    on screen (Dashboard.PIN_AHEAD): a pin then sends them without making them, and they are
    the specs a pin makes by itself."""
    import ovlab.sim.widgets.latency_dashboard as module

    warm = ovlab.widgets.LatencyDashboard()
    cold = ovlab.widgets.LatencyDashboard()
    scheduled = []
    monkeypatch.setattr(warm._warm, "schedule", lambda items, after_s: scheduled.append(items))
    warm._schedule_warm()
    assert scheduled[-1][-1] == warm.PIN_AHEAD  # after the timeout's next steps
    assert warm._warm_one(warm.PIN_AHEAD) is True  # made
    made = []
    original = module.Dashboard._pair_specs
    monkeypatch.setattr(module.Dashboard, "_pair_specs",
                        lambda self, view: made.append(view) or original(self, view))
    warm.knobs.compare.value = "side by side"
    assert made == []  # the pin used the specs made ahead
    cold.knobs.compare.value = "side by side"
    assert len(made) == 1
    assert warm.pair_specs == cold.pair_specs
    assert warm._warm_one(warm.PIN_AHEAD) is False  # A is pinned: nothing to make ahead
    # a change moves the run on screen: the specs made ahead are not those of the new pin
    warm.knobs.compare.value = "off"
    warm.knobs.timeout.value = 500
    warm.knobs.compare.value = "side by side"
    assert len(made) == 2 and "500" in warm.pair_specs[0]["layout"]["title"]["text"]
