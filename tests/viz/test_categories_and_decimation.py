"""Points carry the device and the batch status; decimation keeps the spikes."""

import numpy as np

from ovlab.sim.viz import palette
from ovlab.sim.viz.dashboard_figures import latency_dashboard_spec
from ovlab.sim.viz.decimate import minmax_indices


def test_every_request_gets_the_category_its_trace_record_gives(tput):
    _core, _result, view, _a = tput
    f = view.frame
    by_status = {c.status for c in view.categories}
    assert by_status == {"helper", "batch", "alone"}
    for row in f.itertuples():
        c = row.category
        if str(row.worker).startswith("CPU_HELP"):
            assert (c.status, c.device) == ("helper", "CPU")
        elif row.status == "timeout-alone":
            assert (c.status, c.device, c.batch) == ("alone", "GPU.0", 1)
        else:
            assert (c.status, c.batch) == ("batch", 16) and row.batch_size == 16


def test_the_figure_colours_points_by_device_and_batch_status(tput, latency):
    for run, expected in ((tput, {"CPU · AUTO's CPU helper": palette.HELPER_COLOR,
                                  "GPU.0 · in a batch of 16": palette.BATCH_COLOR,
                                  "GPU.0 · alone after the timeout": palette.ALONE_COLOR}),
                          (latency, {"CPU · AUTO's CPU helper": palette.HELPER_COLOR,
                                     "GPU.0": palette.DEVICE_COLORS["GPU.0"]})):
        _core, _result, view, _a = run
        spec = latency_dashboard_spec(view)
        markers = {t["name"].split(" (")[0]: t for t in spec["data"]
                   if t.get("mode") == "markers" and t.get("legendgroup")}
        assert set(markers) == set(expected)
        for label, color in expected.items():
            assert markers[label]["marker"]["color"] == color
            assert len(markers[label]["y"]) > 0 and markers[label]["mode"] == "markers"
        # the counts in the legend add up to every request
        counts = [int(t["name"].split("(")[1].split(")")[0].split(",")[0])
                  for t in markers.values()]
        assert sum(counts) == len(view.frame) == 2000


def test_minmax_decimation_keeps_every_spike_and_dip():
    rng = np.random.default_rng(0)
    y = rng.normal(0.1, 0.005, 100_000)
    spikes = np.arange(40) * 2500 + rng.integers(0, 200, 40)  # one per stretch of 200
    y[spikes] = 1.0 + rng.random(40)
    dips = spikes[:10] + 1000
    y[dips] = -1.0
    keep = minmax_indices(y, 1000)
    assert len(keep) <= 1000
    assert set(spikes) <= set(keep) and set(dips) <= set(keep)
    # every bucket's extremes survive: the kept maximum of any stretch is the true one
    edges = np.linspace(0, len(y), 501).astype(int)
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        kept = keep[(keep >= lo) & (keep < hi)]
        assert y[kept].max() == y[lo:hi].max() and y[kept].min() == y[lo:hi].min()
    assert y[keep].max() == y.max() and y[keep].min() == y.min()


def test_striding_would_have_lost_them():
    y = np.zeros(10_000)
    y[1234] = 5.0
    assert y[::10].max() == 0.0  # what plain every-k-th-point drawing shows
    assert y[minmax_indices(y, 500)].max() == 5.0


def test_short_runs_are_drawn_whole():
    assert list(minmax_indices([3, 1, 2], 10)) == [0, 1, 2]


def test_the_2000_point_run_is_decimated_per_category_with_its_spikes(tput):
    _core, _result, view, _a = tput
    spec = latency_dashboard_spec(view, max_points=300)
    alone = next(t for t in spec["data"] if t["name"].startswith("GPU.0 · alone"))
    batched = next(t for t in spec["data"] if t["name"].startswith("GPU.0 · in a batch"))
    assert len(batched["y"]) <= 300 and "drawn" in batched["name"]
    f = view.frame
    truth = f.loc[[c.status == "batch" for c in f["category"]], "latency"]
    assert max(batched["y"]) == truth.max() and min(batched["y"]) == truth.min()
    assert max(alone["y"]) == f["latency"].max()  # the tallest spike is a lone request
