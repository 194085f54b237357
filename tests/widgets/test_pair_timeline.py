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
