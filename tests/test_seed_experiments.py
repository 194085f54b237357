"""The seed experiments (claims E01-E03): ``auto-test-latency-graph.py`` and ``auto-test.py``
reproduced with ``ovlab.sim.experiments`` on the laptop preset with GoogLeNet-v1 FP16."""

import numpy as np
import pytest

import ovlab
from ovlab import experiments, zoo


@pytest.fixture(scope="module")
def googlenet16():
    return zoo.load("googlenet-v1", "FP16")


@pytest.fixture(scope="module")
def latency_runs(googlenet16):
    runs = {}
    for hint in ("LATENCY", "THROUGHPUT"):
        runs[hint] = experiments.latency_graph(ovlab.Core("laptop", seed=0), googlenet16, "AUTO",
                                               {"PERFORMANCE_HINT": hint}, verbose=False)
    return runs


def test_e01_latency_mode_switches_from_the_cpu_band_to_the_gpu_band(latency_runs):
    r = latency_runs["LATENCY"]
    lat = r.latencies
    assert 200 <= r.switch_index <= 280  # the seed: a step down at iteration ~230-250
    assert 6.0 <= r.switch_time <= 8.5
    before, after = lat[20:r.switch_index], lat[r.switch_index + 20:]
    assert 0.015 <= np.median(before) <= 0.030  # CPU while the GPU compiles: ~15-30 ms
    assert np.percentile(after, 5) >= 0.003 and np.percentile(after, 95) <= 0.016  # 3-16 ms
    assert lat[:50].max() > 0.04  # the early spikes of the seed's plot


def test_e01_throughput_mode_batches_after_a_later_switch(latency_runs):
    lat_r, tput_r = latency_runs["LATENCY"], latency_runs["THROUGHPUT"]
    assert tput_r.switch_index > lat_r.switch_index  # batch-1 and batch-16 compiles
    after = tput_r.latencies[tput_r.switch_index + 50:]
    assert np.median(after) > 5 * np.median(lat_r.latencies[lat_r.switch_index + 50:])
    assert after.max() >= 0.7  # tall spikes from the batching timeout
    sizes = tput_r.requests["batch_size"].dropna()
    assert (sizes == 16).sum() > 0.5 * len(sizes)


def test_e01_plot_keeps_the_seed_axes(latency_runs):
    from ovlab.sim.viz import latency_figure

    fig = latency_figure(latency_runs["LATENCY"])
    assert fig.layout.title.text == "Inference Latency"
    assert fig.layout.xaxis.title.text == "Inference Iteration (30ms/inf)"
    assert fig.layout.yaxis.title.text == "Latency (sec)"
    switch = [s for s in fig.layout.shapes if s.type == "line"]
    assert len(switch) == 1 and switch[0].x0 == latency_runs["LATENCY"].switch_index
    assert any(s.type == "rect" for s in fig.layout.shapes)  # the GPU compile span


def test_e03_console_lines_and_the_printed_16(latency_runs, googlenet16):
    r = latency_runs["THROUGHPUT"]
    assert r.lines[2:] == [
        "Device: AUTO",
        "Config: {'PERFORMANCE_HINT': 'THROUGHPUT'}",
        "niter: 2000 interval: 30",
        "OPTIMAL_NUMBER_OF_INFER_REQUESTS 64",
        "Number of infer requests: 16",
    ]
    assert r.queue_size == 64  # the script prints 16 but AsyncInferQueue(compiled) has 64
    t = experiments.auto_test(ovlab.Core(), googlenet16, verbose=False)
    assert t.lines[2:] == [
        "Device: GPU",
        "Config: {'CACHE_DIR': './.ovlab-work/cache', 'PERFORMANCE_HINT': 'LATENCY', "
        "'ALLOW_AUTO_BATCHING': 'YES', 'PERFORMANCE_HINT_NUM_REQUESTS': '4'}",
        "niter: 40 , interval: 30 ms",
        "OPTIMAL_NUMBER_OF_INFER_REQUESTS 1",
        "Number of infer requests: 16",
    ]


def test_e02_timeline_latency_one_wire_each_throughput_groups_of_four(googlenet16):
    lat = experiments.auto_test(ovlab.Core(), googlenet16, "GPU",
                                {"PERFORMANCE_HINT": "LATENCY", "PERFORMANCE_HINT_NUM_REQUESTS": "4"},
                                verbose=False)
    assert lat.requests["latency"].max() < 0.030  # short wires, no waiting
    assert lat.requests["result"].round(6).nunique() == 40  # every request ends on its own
    tput = experiments.auto_test(ovlab.Core(), googlenet16, "GPU",
                                 {"PERFORMANCE_HINT": "THROUGHPUT",
                                  "PERFORMANCE_HINT_NUM_REQUESTS": "4"}, verbose=False)
    groups = tput.requests.groupby(tput.requests["result"].round(6)).size()
    assert (groups == 4).sum() >= 8  # groups of four requests ending together
    first_of_group = tput.requests.groupby(tput.requests["result"].round(6))["latency"].max()
    assert (first_of_group > 0.08).all()  # the first of each group waited ~3 intervals


def test_the_request_frame_is_the_same_with_and_without_progress(googlenet16):
    """Without ``progress`` the rows are kept as tuples (no one reads them before the end):
    the frame must be the one the dict rows ``progress`` sees make."""
    seen = []
    runs = [experiments.latency_graph(ovlab.Core("laptop", seed=0), googlenet16, "AUTO",
                                      {"PERFORMANCE_HINT": "THROUGHPUT"}, niter=120,
                                      verbose=False, progress=progress)
            for progress in (None, seen.append)]
    assert seen and isinstance(seen[0][0], dict)
    assert runs[0].requests.equals(runs[1].requests)
    assert list(runs[0].requests.dtypes) == list(runs[1].requests.dtypes)
