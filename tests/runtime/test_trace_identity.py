"""The simulator's timelines stay byte-identical: a guard for work on its speed.

Each scenario runs a representative use of the runtime (CPU, GPU and AUTO under LATENCY and
THROUGHPUT, BATCH with its timeout, HETERO, CUMULATIVE_THROUGHPUT, a runtime fallback, NPU
plugin batching, resource-aware AUTO on a shared power budget, the seed experiments) and hashes
every record of ``core.trace`` (each float by its exact ``repr``) together with what the run
itself saw (callback times, console lines). The hashes in ``data/trace_hashes.json`` were
recorded on the code before the per-request path was made lean (issue 24); an optimisation that
moves any event by one ulp, reorders two events at the same instant or draws the jitter in
another order changes a hash.

A deliberate change of timing (a new cost-model rule, a recalibration) re-records them:
``PYTHONPATH=. python tests/runtime/test_trace_identity.py --record``, and says why in its commit.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import ovlab
from ovlab import experiments, zoo

HASHES = Path(__file__).parent / "data" / "trace_hashes.json"


def _value(v) -> str:
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, dict):
        return "{" + ",".join(f"{k}:{_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(_value(x) for x in v) + "]"
    if isinstance(v, np.generic):
        return _value(v.item())
    text = repr(v) if isinstance(v, (int, str, bool, type(None))) else f"<{type(v).__name__}>"
    return text


def digest(core, extra: list | None = None) -> str:
    """sha256 of every inference and event record of ``core.trace`` (and ``extra``)."""
    h = hashlib.sha256()
    for r in core.trace.inferences:
        h.update(_value([r.seq, r.request_id, r.model, r.device, r.submitted, r.started,
                         r.finished, r.worker, r.batch_id, r.batch_size, r.subgraph,
                         r.status]).encode())
        h.update(b"\n")
    h.update(b"--events--\n")
    for e in core.trace.events:
        detail = {k: v for k, v in e.detail.items() if k not in ("path", "cache_dir", "blob")}
        h.update(_value([e.time, e.kind, e.device, e.model, detail]).encode())
        h.update(b"\n")
    h.update(b"--extra--\n")
    for item in extra or []:
        h.update(_value(item).encode())
        h.update(b"\n")
    return h.hexdigest()


# --- scenarios ------------------------------------------------------------------------------------
def _queue_run(core, compiled, n: int, interval: float = 0.0, jobs: int = 0,
               read_every: int = 0) -> list:
    """``n`` requests through an AsyncInferQueue, ``interval`` s apart; the callback times."""
    seen: list = []
    queue = ovlab.AsyncInferQueue(compiled, jobs)

    def callback(request, userdata):
        seen.append((userdata, core.clock.now, request.latency))
        if read_every and userdata % read_every == 0:
            seen.append(float(np.asarray(request.results[0]).sum()))

    queue.set_callback(callback)
    for i in range(n):
        queue.start_async(userdata=i)
        if interval:
            core.clock.sleep(interval)
    queue.wait_all()
    return seen


def cpu_latency():
    core = ovlab.Core("laptop", seed=1)
    compiled = core.compile_model(zoo.load("small-cnn"), "CPU", {"PERFORMANCE_HINT": "LATENCY"})
    extra = _queue_run(core, compiled, 300, interval=0.0007, read_every=50)
    request = compiled.create_infer_request()
    for _ in range(20):
        request.infer()
        extra.append(request.latency)
    return core, extra


def cpu_throughput():
    core = ovlab.Core("laptop", seed=2)
    compiled = core.compile_model(zoo.load("small-cnn"), "CPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    extra = _queue_run(core, compiled, 1500)
    # a second model on the same CPU: processor sharing between two compiled models
    other = core.compile_model(zoo.load("mlp"), "CPU", {"NUM_STREAMS": 2})
    r1, r2 = other.create_infer_request(), compiled.create_infer_request()
    for _ in range(30):
        r1.start_async()
        r2.start_async()
        extra.append(r2.wait_for(1))
        r1.wait()
        r2.wait()
    return core, extra


def gpu_latency_and_throughput():
    core = ovlab.Core("laptop", seed=3)
    model = zoo.load("googlenet-v1", "FP16")
    lat = core.compile_model(model, "GPU", {"PERFORMANCE_HINT": "LATENCY"})
    extra = _queue_run(core, lat, 200, interval=0.002)
    tput = core.compile_model(model, "GPU", {"PERFORMANCE_HINT": "THROUGHPUT",
                                             "ALLOW_AUTO_BATCHING": False})
    extra += _queue_run(core, tput, 400)
    return core, extra


def gpu_implicit_batching():
    core = ovlab.Core("laptop", seed=4)
    compiled = core.compile_model(zoo.load("googlenet-v1", "FP16"), "GPU",
                                  {"PERFORMANCE_HINT": "THROUGHPUT", "AUTO_BATCH_TIMEOUT": 200})
    extra = _queue_run(core, compiled, 600, interval=0.001)
    extra += _queue_run(core, compiled, 40, interval=0.05)  # sparse: the timeout fires
    return core, extra


def batch_cpu_timeout():
    core = ovlab.Core("cpu", seed=5)
    compiled = core.compile_model(zoo.load("small-cnn"), "BATCH:CPU(4)", {"AUTO_BATCH_TIMEOUT": 100})
    extra = _queue_run(core, compiled, 200, interval=0.003, read_every=40)
    extra += _queue_run(core, compiled, 30, interval=0.2)
    return core, extra


def hetero_split():
    core = ovlab.Core("laptop", seed=6)
    model = zoo.load("small-cnn")
    names = [op.get_friendly_name() for op in model.get_ordered_ops()]
    tail = set(names[names.index("flatten/shape"):])
    for op in model.get_ordered_ops():
        op.get_rt_info()["affinity"] = "CPU" if op.get_friendly_name() in tail else "GPU"
    compiled = core.compile_model(model, "HETERO:GPU,CPU")
    extra = _queue_run(core, compiled, 150, jobs=4, interval=0.0005, read_every=30)
    return core, extra


def hetero_pipeline():
    from ovlab.sim.plugins.hetero.pipeline import layered_model

    core = ovlab.Core("multi-gpu", seed=7)
    compiled = core.compile_model(layered_model(), "HETERO:GPU.0,GPU.1",
                                  {"MODEL_DISTRIBUTION_POLICY": "PIPELINE_PARALLEL"})
    return core, _queue_run(core, compiled, 12, jobs=3)


def auto_cumulative():
    core = ovlab.Core("multi-gpu", seed=8)
    compiled = core.compile_model(zoo.load("googlenet-v1", "FP16"), "AUTO",
                                  {"PERFORMANCE_HINT": "CUMULATIVE_THROUGHPUT"})
    extra = _queue_run(core, compiled, 800)
    return core, extra


def auto_fallback():
    core = ovlab.Core("laptop", seed=9)
    model = zoo.load("small-cnn")
    compiled = core.compile_model(model, "AUTO:GPU(4),CPU")
    core.clock.sleep(30)
    core.faults.fail_inference("GPU.0", nth=5, count=3)
    extra = _queue_run(core, compiled, 100, jobs=6)
    # a helper failure while the GPU still compiles, and a failed compile
    core2 = ovlab.Core("laptop", seed=9)
    core2.faults.fail_compile("GPU")
    c2 = core2.compile_model(zoo.load("googlenet-v1"), "AUTO", {"PERFORMANCE_HINT": "LATENCY"})
    core2.faults.fail_inference("CPU", nth=2)
    extra += _queue_run(core2, c2, 60, interval=0.01)
    return core, [extra, digest(core2)]


def npu_batching():
    core = ovlab.Core("core-ultra-7-165h", seed=10)
    from ovlab.sim.graph import PartialShape

    model = zoo.load("small-cnn")
    model.reshape({0: PartialShape([4, 3, 32, 32])})
    compiled = core.compile_model(model, "NPU", {"NPU_BATCH_MODE": "PLUGIN",
                                                 "PERFORMANCE_HINT": "THROUGHPUT"})
    return core, _queue_run(core, compiled, 80, interval=0.001)


def resource_aware_auto():
    core = ovlab.Core("core-ultra-7-165h", seed=11)
    compiled = core.compile_model(zoo.load("googlenet-v1", "FP16"), "AUTO:GPU,NPU,CPU",
                                  {"DEVICES_UTILIZATION_THRESHOLD": {"GPU": 60}})
    core.clock.sleep(10.0)
    extra = _queue_run(core, compiled, 600, jobs=4)
    return core, extra


def lab09_scenario():
    from ovlab.sim.widgets.resource_aware import run_scenario

    result = run_scenario(gpu_load=0.7, duration=4.0)
    return None, [result.inferences.to_csv(), result.utilization.to_csv()]


def _experiment(run: Callable, *args, **kwargs):
    core = ovlab.Core("laptop", seed=0)
    result = run(core, zoo.load("googlenet-v1", "FP16"), *args, verbose=False, **kwargs)
    return core, [result.lines, result.requests.to_csv(), result.switch_time,
                  result.switch_index]


def seed_latency_graph_latency():
    return _experiment(experiments.latency_graph, "AUTO", {"PERFORMANCE_HINT": "LATENCY"})


def seed_latency_graph_throughput():
    return _experiment(experiments.latency_graph, "AUTO", {"PERFORMANCE_HINT": "THROUGHPUT"})


def seed_auto_test():
    return _experiment(experiments.auto_test, "GPU", {
        "CACHE_DIR": "./cache", "PERFORMANCE_HINT": "LATENCY", "ALLOW_AUTO_BATCHING": "YES",
        "PERFORMANCE_HINT_NUM_REQUESTS": "4"})


def seed_auto_test_throughput():
    return _experiment(experiments.auto_test, "GPU", {"PERFORMANCE_HINT": "THROUGHPUT"},
                       niter=200, interval=5)


SCENARIOS: dict[str, Callable] = {f.__name__: f for f in [
    cpu_latency, cpu_throughput, gpu_latency_and_throughput, gpu_implicit_batching,
    batch_cpu_timeout, hetero_split, hetero_pipeline, auto_cumulative, auto_fallback,
    npu_batching, resource_aware_auto, lab09_scenario, seed_latency_graph_latency,
    seed_latency_graph_throughput, seed_auto_test, seed_auto_test_throughput]}


def scenario_hash(name: str) -> str:
    core, extra = SCENARIOS[name]()
    if core is None:
        h = hashlib.sha256()
        for item in extra:
            h.update(_value(item).encode())
        return h.hexdigest()
    return digest(core, extra)


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_trace_is_byte_identical_to_the_recorded_one(name):
    recorded = json.loads(HASHES.read_text())
    assert scenario_hash(name) == recorded[name], (
        f"scenario {name}: the trace changed. If the timing change is deliberate, re-record with "
        "`python tests/runtime/test_trace_identity.py --record` and say why in the commit")


def test_every_scenario_has_a_recorded_hash():
    assert set(json.loads(HASHES.read_text())) == set(SCENARIOS)


def _record() -> None:
    hashes = {}
    cwd = os.getcwd()
    for name in SCENARIOS:
        with tempfile.TemporaryDirectory() as folder:  # "./cache" as the tests see it: empty
            os.chdir(folder)
            try:
                hashes[name] = scenario_hash(name)
            finally:
                os.chdir(cwd)
        print(name, hashes[name])
    if "--record" in sys.argv:
        HASHES.parent.mkdir(exist_ok=True)
        HASHES.write_text(json.dumps(hashes, indent=1) + "\n")


if __name__ == "__main__":
    _record()
