"""How fast ovlab's NumPy kernels run the zoo models, next to the real OpenVINO CPU runtime.

Run: ``python benchmarks/bench_models.py [model ...]``. For each zoo model at batch 1 and 16 it
prints the median wall time of one forward pass with ovlab (f32) and, if ``openvino`` imports,
with OpenVINO's CPU plugin on the same network built with ``openvino.opset13``
(``INFERENCE_PRECISION_HINT=f32``), and their ratio. The simulated devices never use these
wall times (time in ovlab is simulated); they only say how long a learner waits for real outputs.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

from ovlab import zoo

BATCHES = (1, 16)
BUDGET_S = 1.5  # per measurement, after one warm-up run


def _median_ms(run: Callable[[], object]) -> float:
    run()  # warm-up (first-touch allocations, OpenVINO's first inference)
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < 3 or (time.perf_counter() - start < BUDGET_S and len(times) < 50):
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
        if time.perf_counter() - start > 4 * BUDGET_S:
            break
    return 1e3 * statistics.median(times)


def _openvino() -> tuple[object, object, object] | None:
    try:
        import openvino as ov
        import openvino.opset13 as ops
    except ImportError:
        return None
    return ov, ops, ov.Core()


def _ovlab_times(names: list[str]) -> dict[tuple[str, int], tuple[float, float]]:
    """(GFLOPs, median ms) per (model, batch) with ovlab's NumPy kernels in f32."""
    out = {}
    for name in names:
        base = zoo.load(name)
        for batch in BATCHES:
            model = base if batch == 1 else base._with_batch(batch)
            x = zoo.sample_input(name, batch)
            gflops = sum(c.flops for c in model._cost(batch)) / 1e9
            out[(name, batch)] = (gflops, _median_ms(lambda m=model, x=x: m._evaluate({0: x})))
    return out


def _openvino_times(names: list[str]) -> dict[tuple[str, int], float]:
    """Median ms per (model, batch) on OpenVINO's CPU plugin, f32, same networks."""
    real = _openvino()
    if real is None:
        return {}
    ov, ops, core = real
    out = {}
    for name in names:
        model = zoo.build(name, opset=ops, model_cls=ov.Model)
        for batch in BATCHES:
            shape = list(model.inputs[0].get_shape())
            model.reshape([batch, *shape[1:]])
            compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
            request = compiled.create_infer_request()
            x = zoo.sample_input(name, batch)
            out[(name, batch)] = _median_ms(lambda r=request, x=x: r.infer({0: x}))
    return out


def main(names: list[str]) -> None:
    print(f"# load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
          "(timings are only comparable on an otherwise idle machine)")
    ours = _ovlab_times(names)  # first, so OpenVINO's worker threads are not around yet
    theirs = _openvino_times(names)
    print(f"{'model':14s} {'batch':>5s} {'GFLOPs':>8s} {'ovlab ms':>10s} {'openvino ms':>12s} "
          f"{'ratio':>6s}")
    for (name, batch), (gflops, ms) in ours.items():
        ref = theirs.get((name, batch), float("nan"))
        ratio = ms / ref if np.isfinite(ref) else float("nan")
        print(f"{name:14s} {batch:5d} {gflops:8.2f} {ms:10.1f} {ref:12.1f} {ratio:6.1f}")
    print(f"# load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:] or zoo.names())
