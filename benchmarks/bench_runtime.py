"""How fast ovlab simulates: simulated inferences per wall-clock second, and a whole experiment.

1. 10,000 asynchronous requests through an AsyncInferQueue on the default platform (laptop CPU,
   THROUGHPUT, the small CNN), outputs not read: the simulator's event throughput, beside a bare
   SimPy loop doing the least the same run needs (the model's jobs as processes taking a Resource
   of its streams, a timeout of its mean service time, releasing it), timed in the same process
   and alternated with it, 7 rounds; the median of the rounds' ratios (and their spread) is what
   the machine's speed and load cancel out of (issue 24's goal: at least 0.5x). Also the Python
   bytecodes and frames per request of both loops, counted by ``sys.settrace``: figures the
   machine's load does not change.
2. The same with outputs read in the callback (real NumPy numerics for every request).
3. One compile_model + the seed's 2,000-request latency-graph run (GoogLeNet-v1, AUTO, 30 ms
   interval), outputs not read, when AUTO is available.

Run: ``python benchmarks/bench_runtime.py`` (``make bench``). Figures go in the README.
"""

from __future__ import annotations

import gc
import platform
import statistics
import time

import simpy

import ovlab
from ovlab import zoo


def async_run(n: int, read_outputs: bool) -> tuple[float, float]:
    core = ovlab.Core(seed=0)
    model = zoo.load("small-cnn")
    compiled = core.compile_model(model, "CPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    queue = ovlab.AsyncInferQueue(compiled)
    if read_outputs:
        queue.set_callback(lambda req, ud: req.results[0])
    gc.collect()  # the previous rounds' Cores are garbage: not this round's to collect
    t0 = time.perf_counter()
    for _ in range(n):
        queue.start_async()
    queue.wait_all()
    wall = time.perf_counter() - t0
    return n / wall, core.clock.now


def bare_simpy_run(n: int, streams: int, jobs: int, service: float) -> float:
    """Requests per wall-clock second of the plainest SimPy model of the same queue."""
    env = simpy.Environment()
    device = simpy.Resource(env, capacity=streams)

    def job(count: int):
        for _ in range(count):
            with device.request() as turn:
                yield turn
                yield env.timeout(service)

    for _ in range(jobs):
        env.process(job(n // jobs))
    gc.collect()
    t0 = time.perf_counter()
    env.run()
    return (n // jobs * jobs) / (time.perf_counter() - t0)


def machine() -> str:
    """The CPU's model name and count (``/proc/cpuinfo`` on Linux), for the printed figures."""
    try:
        with open("/proc/cpuinfo") as f:
            names = [ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")]
        return f"{names[0]}, {len(names)} CPUs"
    except (OSError, IndexError):
        return platform.processor() or platform.machine()


def simpy_ratio(n: int = 10_000, rounds: int = 7) -> tuple[float, float, list[float]]:
    """(median ovlab rate, median bare SimPy rate, the per-round ratios, sorted)."""
    probe = ovlab.Core(seed=0).compile_model(zoo.load("small-cnn"), "CPU",
                                             {"PERFORMANCE_HINT": "THROUGHPUT"})
    streams = int(probe.get_property("NUM_STREAMS"))
    jobs = int(probe.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS"))
    ours, bare, ratios = [], [], []
    for _ in range(rounds):
        rate, span = async_run(n, read_outputs=False)
        ref = bare_simpy_run(n, streams, jobs, span * streams / n)
        ours.append(rate)
        bare.append(ref)
        ratios.append(rate / ref)
    return statistics.median(ours), statistics.median(bare), sorted(ratios)


def work_per_request(n: int = 2000) -> tuple[tuple[float, float], tuple[float, float]]:
    """Python bytecodes and frames per request, ovlab's queue loop and the bare SimPy loop:
    ``sys.settrace`` counts, which the machine's load does not change (a frame is a call or a
    generator resumed)."""
    import sys

    count = [0, 0]

    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        if event == "opcode":
            count[0] += 1
        elif event == "call":
            count[1] += 1
        return tracer

    def traced(fn) -> tuple[float, float]:
        count[:] = [0, 0]
        sys.settrace(tracer)
        try:
            fn()
        finally:
            sys.settrace(None)
        return count[0] / n, count[1] / n

    core = ovlab.Core(seed=0)
    compiled = core.compile_model(zoo.load("small-cnn"), "CPU",
                                  {"PERFORMANCE_HINT": "THROUGHPUT"})
    queue = ovlab.AsyncInferQueue(compiled)
    for _ in range(100):  # past the first inferences (warm-up, first share lookup)
        queue.start_async()

    def ours() -> None:
        for _ in range(n):
            queue.start_async()
        queue.wait_all()

    env = simpy.Environment()
    device = simpy.Resource(env, capacity=4)

    def job(count: int):
        for _ in range(count):
            with device.request() as turn:
                yield turn
                yield env.timeout(0.003)

    for _ in range(4):
        env.process(job(n // 4))
    return traced(ours), traced(env.run)


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
    print(f"ovlab simulator speed (wall clock of this machine: {machine()})")
    rate, sim = async_run(10_000, read_outputs=False)
    print(f"  10,000 async requests, outputs not read: {rate:,.0f} simulated inferences/s "
          f"(simulated span {sim:.2f} s)")
    ours, bare, ratios = simpy_ratio()
    print(f"  the same beside a bare SimPy resource+timeout loop, {len(ratios)} rounds alternated: "
          f"ovlab {ours:,.0f}/s, bare SimPy {bare:,.0f}/s: {statistics.median(ratios):.2f}x "
          f"(median of the rounds, {ratios[0]:.2f}-{ratios[-1]:.2f}; goal >= 0.5x)")
    (ops, frames), (bare_ops, bare_frames) = work_per_request()
    print(f"  per request: ovlab {ops:,.0f} Python bytecodes in {frames:.0f} frames, bare SimPy "
          f"{bare_ops:,.0f} in {bare_frames:.0f} (sys.settrace counts: the load does not move them)")
    rate, sim = async_run(2_000, read_outputs=True)
    print(f"  2,000 async requests, outputs read (small CNN numerics): {rate:,.0f} inferences/s")
    res = latency_graph_run()
    if res is not None:
        wall, sim = res
        print(f"  compile_model(googlenet-v1, AUTO) + 2,000 requests every 30 ms: {wall:.2f} s wall "
              f"for {sim:.1f} s simulated")


if __name__ == "__main__":
    main()
