"""Runs of the seed experiments shared by the figure tests (simulated once per session)."""

import pytest

import ovlab
from ovlab import experiments, zoo
from ovlab.sim.viz.analytic import Analytic
from ovlab.sim.viz.runview import RunView


@pytest.fixture(scope="session")
def googlenet16():
    return zoo.load("googlenet-v1", "FP16")


def _latency(model, **cfg):
    core = ovlab.Core("laptop", seed=0)
    result = experiments.latency_graph(core, model, "AUTO", cfg, verbose=False)
    view = RunView.from_result(result)
    return core, result, view, Analytic.for_run(core, model, view)


@pytest.fixture(scope="session")
def tput(googlenet16):
    """AUTO THROUGHPUT, the seed's latency graph: helper, batches of 16, lone requests."""
    return _latency(googlenet16, PERFORMANCE_HINT="THROUGHPUT")


@pytest.fixture(scope="session")
def latency(googlenet16):
    """AUTO LATENCY: helper, then GPU.0 at batch 1."""
    return _latency(googlenet16, PERFORMANCE_HINT="LATENCY")


@pytest.fixture(scope="session")
def timeout100(googlenet16):
    """AUTO THROUGHPUT with a 100 ms timeout: no batch fills, everything runs alone."""
    return _latency(googlenet16, PERFORMANCE_HINT="THROUGHPUT", AUTO_BATCH_TIMEOUT="100")


@pytest.fixture(scope="session")
def gpu_timeline(googlenet16, tmp_path_factory):
    """auto-test.py on the GPU with THROUGHPUT: two batches of 16, 8 requests alone (with an
    empty CACHE_DIR, as the seed's first run: the GPU compiles twice before the first submit)."""
    core = ovlab.Core("laptop", seed=0)
    cache = str(tmp_path_factory.mktemp("cache"))
    result = experiments.auto_test(core, googlenet16, "GPU",
                                   {"CACHE_DIR": cache, "PERFORMANCE_HINT": "THROUGHPUT"},
                                   verbose=False)
    view = RunView.from_result(result)
    return core, result, view, Analytic.for_run(core, googlenet16, view)
