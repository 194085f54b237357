"""What issue 14's features cost in wall time: resource-aware AUTO, the model cache, HETERO's
pipeline split, lab 09's dashboard scenario.

1. 2,000 requests on resource-aware AUTO (``AUTO:GPU,NPU,CPU`` with a GPU threshold) through a
   queue of 4, outputs not read, against the same on classic AUTO (THROUGHPUT after the switch):
   the price of one device selection (a utilization read per candidate) per inference.
2. The blob key of GoogLeNet-v1 (13 MB of weights hashed once per Constant, then cached) and a
   second compile that loads the blob from disk.
3. ``compile_model`` of the 21.5 GB ``layered_model()`` on ``HETERO:GPU.0,GPU.1`` with
   PIPELINE_PARALLEL (memory map, ratio search, submodels; no weights made).
4. One run of lab 09's dashboard scenario (8 s simulated, the cache warm).

Run: ``python benchmarks/bench_aipc.py``.
"""

from __future__ import annotations

import shutil
import tempfile
import time

import ovlab
from ovlab import zoo
from ovlab.sim.plugins.hetero.pipeline import layered_model
from ovlab.sim.runtime import model_cache


def auto_run(config: dict, n: int = 2000) -> tuple[float, float]:
    core = ovlab.Core("core-ultra-7-165h", seed=0)
    compiled = core.compile_model(zoo.load("googlenet-v1", "FP16"), "AUTO:GPU,NPU,CPU", config)
    core.clock.sleep(10.0)  # past any compile in the background
    queue = ovlab.AsyncInferQueue(compiled, 4)
    t0 = time.perf_counter()
    for _ in range(n):
        queue.start_async()
    queue.wait_all()
    return n / (time.perf_counter() - t0), core.clock.now


def cache_run() -> tuple[float, float, float]:
    folder = tempfile.mkdtemp()
    try:
        model = zoo.load("googlenet-v1", "FP16")
        core = ovlab.Core("laptop", seed=0)
        t0 = time.perf_counter()
        model_cache.compute_hash(model, {"FULL_DEVICE_NAME": "x"})
        first_key = time.perf_counter() - t0
        t0 = time.perf_counter()
        model_cache.compute_hash(model, {"FULL_DEVICE_NAME": "y"})
        second_key = time.perf_counter() - t0
        core.compile_model(model, "GPU", {"CACHE_DIR": folder})
        t0 = time.perf_counter()
        ovlab.Core("laptop", seed=0).compile_model(model, "GPU", {"CACHE_DIR": folder})
        return first_key, second_key, time.perf_counter() - t0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def pipeline_run() -> float:
    core = ovlab.Core("multi-gpu", seed=0)
    model = layered_model()
    t0 = time.perf_counter()
    core.compile_model(model, "HETERO:GPU.0,GPU.1", {"MODEL_DISTRIBUTION_POLICY": "PIPELINE_PARALLEL"})
    return time.perf_counter() - t0


def scenario_run() -> float:
    from ovlab.sim.widgets.resource_aware import run_scenario

    run_scenario()  # warms the cache
    t0 = time.perf_counter()
    run_scenario()
    return time.perf_counter() - t0


def main() -> None:
    print("issue 14 features, wall clock of this machine")
    dynamic, _ = auto_run({"DEVICES_UTILIZATION_THRESHOLD": {"GPU": 60}})
    classic, _ = auto_run({"PERFORMANCE_HINT": "THROUGHPUT", "ALLOW_AUTO_BATCHING": False})
    print(f"  2,000 requests, resource-aware AUTO: {dynamic:,.0f} simulated inferences/s; "
          f"classic AUTO: {classic:,.0f}/s")
    first, second, load = cache_run()
    print(f"  blob key of googlenet-v1: {first * 1000:.1f} ms first, {second * 1000:.1f} ms "
          f"after; a second Core loading the blob: {load * 1000:.1f} ms")
    print(f"  HETERO PIPELINE_PARALLEL compile of a 21.5 GB model: {pipeline_run():.2f} s")
    print(f"  lab 09's dashboard scenario (8 s simulated): {scenario_run():.2f} s")


if __name__ == "__main__":
    main()
