"""How fast ovlab simulates: simulated inferences per wall-clock second, and a whole experiment.

1. 10,000 asynchronous requests through an AsyncInferQueue on the default platform (laptop CPU,
   THROUGHPUT, the small CNN), outputs not read: the simulator's event throughput.
2. The same with outputs read in the callback (real NumPy numerics for every request).
3. One compile_model + the seed's 2,000-request latency-graph run (GoogLeNet-v1, AUTO, 30 ms
   interval), outputs not read, when AUTO is available.

Run: ``python benchmarks/bench_runtime.py`` (``make bench``). Figures go in the README.
"""

from __future__ import annotations

import time

import ovlab
from ovlab import zoo


def async_run(n: int, read_outputs: bool) -> tuple[float, float]:
    core = ovlab.Core(seed=0)
    model = zoo.load("small-cnn")
    compiled = core.compile_model(model, "CPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    queue = ovlab.AsyncInferQueue(compiled)
    if read_outputs:
        queue.set_callback(lambda req, ud: req.results[0])
    t0 = time.perf_counter()
    for _ in range(n):
        queue.start_async()
    queue.wait_all()
    wall = time.perf_counter() - t0
    return n / wall, core.clock.now


def latency_graph_run(n: int = 2000) -> tuple[float, float] | None:
    core = ovlab.Core(seed=0)
    model = zoo.load("googlenet-v1", "FP16")
    t0 = time.perf_counter()
    try:
        compiled = core.compile_model(model, "AUTO", {"PERFORMANCE_HINT": "LATENCY"})
    except RuntimeError as exc:
        print(f"  (AUTO not available: {exc})")
        return None
    queue = ovlab.AsyncInferQueue(compiled)
    for _ in range(n):
        queue.start_async()
        core.clock.sleep(0.030)
    queue.wait_all()
    return time.perf_counter() - t0, core.clock.now


def main() -> None:
    print("ovlab simulator speed (wall clock of this machine)")
    rate, sim = async_run(10_000, read_outputs=False)
    print(f"  10,000 async requests, outputs not read: {rate:,.0f} simulated inferences/s "
          f"(simulated span {sim:.2f} s)")
    rate, sim = async_run(2_000, read_outputs=True)
    print(f"  2,000 async requests, outputs read (small CNN numerics): {rate:,.0f} inferences/s")
    res = latency_graph_run()
    if res is not None:
        wall, sim = res
        print(f"  compile_model(googlenet-v1, AUTO) + 2,000 requests every 30 ms: {wall:.2f} s wall "
              f"for {sim:.1f} s simulated")


if __name__ == "__main__":
    main()
