"""Soak: a simulated week of a low-rate AUTO + BATCH + HETERO workload, run to completion.

Issue 17.1: the scheduler once hung for good after ~2**14 simulated seconds (4.6 h). This runs
GoogLeNet-v1 on the workstation preset through three compiled models at once, each fed by its own
Poisson stream of requests (one every 20 s on average) plus an hourly burst of 8 back-to-back
requests, for 7 x 24 h of simulated time:

* ``AUTO`` under THROUGHPUT (the CPU helper, then the GPUs),
* ``BATCH:GPU.1(8)`` with a 100 ms timeout (lone requests flushed by the timer, bursts batched),
* ``HETERO:NPU,CPU`` (the NPU lacks LRN: the model is split into subgraphs across NPU and CPU).

Every record is streamed to a CSV file and the in-memory trace is capped at 10,000 records, so
memory stays flat however long the run. It prints the simulated span, the requests, the wall time
and the peak resident memory of the run (``resource.getrusage``, read before the CSV is read back
to count batches and subgraph runs), and fails if a request was lost or ran twice.

Run: ``python benchmarks/bench_soak.py [days]`` (default 7). Figures go in the README.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import ovlab
from ovlab import zoo
from ovlab.sim.trace import read_records

MEAN_GAP_S = 20.0
BURST_EVERY_S = 3600.0
BURST = 8
DEVICES = {
    "AUTO": ("AUTO", {"PERFORMANCE_HINT": "THROUGHPUT"}),
    "BATCH": ("BATCH:GPU.1(8)", {"AUTO_BATCH_TIMEOUT": 100}),
    "HETERO": ("HETERO:NPU,CPU", {}),
}


def arrivals(span_s: float, seed: int) -> list[tuple[float, str]]:
    """(time, model) of every request: one Poisson stream per model, merged in time order."""
    rng = np.random.default_rng(seed)
    out = []
    for name in DEVICES:
        t = 0.0
        while True:
            t += rng.exponential(MEAN_GAP_S)
            if t >= span_s:
                break
            out.append((t, name))
        burst = BURST_EVERY_S
        while burst < span_s:
            out.extend((burst, name) for _ in range(BURST))
            burst += BURST_EVERY_S
    out.sort(key=lambda a: a[0])
    return out


def soak(days: float = 7.0, seed: int = 0) -> dict:
    core = ovlab.Core("workstation", seed=seed)
    model = zoo.load("googlenet-v1", "FP16")
    compiled = {name: core.compile_model(model, device, dict(config))
                for name, (device, config) in DEVICES.items()}
    queues = {name: ovlab.AsyncInferQueue(c, BURST) for name, c in compiled.items()}
    done = dict.fromkeys(DEVICES, 0)
    for name, queue in queues.items():
        queue.set_callback(lambda request, name: done.__setitem__(name, done[name] + 1))
    span = days * 24 * 3600.0
    plan = arrivals(span, seed)
    core.trace.set_limit(10_000)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "soak.csv"
        core.trace.stream_to(path)
        t0 = time.perf_counter()
        start = core.clock.now
        for t, name in plan:
            core.clock.sleep(max(0.0, start + t - core.clock.now))
            queues[name].start_async(userdata=name)
        for queue in queues.values():
            queue.wait_all()
        wall = time.perf_counter() - t0
        core.trace.stop_stream()
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # before reading back
        streamed = read_records(path)
    submitted = {name: sum(1 for _, n in plan if n == name) for name in DEVICES}
    if done != submitted:
        raise SystemExit(f"requests lost or duplicated: submitted {submitted}, completed {done}")
    return {
        "days": days, "simulated_s": core.clock.now - start, "requests": len(plan),
        "per_model": submitted, "wall_s": wall,
        "peak_rss_mb": peak_mb,
        "records_streamed": len(streamed), "records_in_memory": len(core.trace),
        "dropped": core.trace.dropped, "events": len(core.trace.events),
        "batches": int((streamed["batch_size"].fillna(0) > 1).sum()),
        "hetero_subgraph_runs": int(streamed["subgraph"].notna().sum()),
    }


def main() -> None:
    days = float(sys.argv[1]) if len(sys.argv) > 1 else 7.0
    r = soak(days)
    print(f"ovlab soak: {r['days']:g} simulated days ({r['simulated_s']:,.0f} s) of AUTO + "
          "BATCH + HETERO (GoogLeNet-v1, workstation)")
    print(f"  {r['requests']:,} requests ({', '.join(f'{k} {v:,}' for k, v in r['per_model'].items())}),"
          " every one completed once")
    print(f"  wall time {r['wall_s']:.1f} s, peak resident memory {r['peak_rss_mb']:.0f} MB")
    print(f"  {r['records_streamed']:,} inference records streamed to CSV, "
          f"{r['records_in_memory']:,} kept in memory ({r['dropped']:,} dropped from it); "
          f"{r['batches']:,} batched records, {r['hetero_subgraph_runs']:,} HETERO subgraph runs")


if __name__ == "__main__":
    main()
