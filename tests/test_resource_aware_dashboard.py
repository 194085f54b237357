"""Lab 09's dashboard: the scenario is deterministic and the widgets re-run it (claim N09)."""

import pandas as pd

from ovlab.sim.widgets.resource_aware import ResourceAwareDashboard, figure, run_scenario


def test_n09_the_scenario_is_seeded_and_moves_auto_under_load():
    a, b = run_scenario(), run_scenario()
    pd.testing.assert_frame_equal(a.inferences, b.inferences)
    pd.testing.assert_frame_equal(a.utilization, b.utilization)
    counts = a.counts()
    assert set(counts) == {"GPU.0", "NPU"} and counts["NPU"] > 50
    busy = a.inferences[(a.inferences["start"] > 3.5) & (a.inferences["start"] < 5.5)]
    assert set(busy["device"]) == {"NPU"}  # the load runs 2-6 s: AUTO is on the NPU
    loaded = a.utilization[(a.utilization["time"] > 3) & (a.utilization["time"] < 5.5)]
    assert loaded["GPU"].between(70, 95).all()
    assert run_scenario(gpu_threshold=100).counts() == {"GPU.0": len(a.inferences)}
    assert run_scenario(power_mode="low_power", low_power_device="CPU").counts() == {
        "CPU": len(a.inferences)}


def test_n09_dashboard_widgets_rerun_and_redraw():
    dash = ResourceAwareDashboard()
    first = dash.result.counts()
    static = dash.static_figure()
    assert static.layout.title.text.startswith("AUTO:GPU,NPU,CPU")
    assert len(static.data) == len(figure(dash.result).data) == 6  # 3 utilization + 3 lanes
    dash.gpu_threshold.value = 100  # a widget change re-runs the scenario
    assert dash.result.counts() != first and set(dash.result.counts()) == {"GPU.0"}
    assert len(dash.figure.data) == 7 and "inferences" in dash.summary.value  # + the ghost
    ghost = dash.figure.data[0]
    assert ghost.name.startswith("previous run: GPU utilization") and len(ghost.y) > 0
