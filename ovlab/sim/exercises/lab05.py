"""Lab 05 · Automatic batching: the tick rule, when batching turns off, the mean lone wait."""

from __future__ import annotations

import ovlab as ov
from ovlab.sim.labtools import batching

from . import Exercise, LabExercises


def _alone_at_500ms() -> int:
    core = ov.Core("cpu", seed=0)
    run = ov.experiments.auto_test(core, core.read_model("small-cnn"), "BATCH:CPU(4)",
                                   {"AUTO_BATCH_TIMEOUT": 500}, niter=8, interval=300,
                                   num_ireq=4, verbose=False)
    return int((run.requests["status"] == "timeout-alone").sum())


def _batched_request_counts() -> list[int]:
    core = ov.Core("laptop", seed=0)
    model = core.read_model("googlenet-v1:FP16")
    batched = []
    for n in range(1, 7):
        compiled = core.compile_model(model, "GPU", {"PERFORMANCE_HINT": "THROUGHPUT",
                                                     "PERFORMANCE_HINT_NUM_REQUESTS": n})
        if compiled.get_runtime_model().inputs[0].get_shape()[0] > 1:
            batched.append(n)
    return batched


def _mean_lone_wait() -> float:
    return round(float(batching.lone_request_waits(200).mean()), 1)


EXERCISES = LabExercises("05-automatic-batching", [
    Exercise(1, _alone_at_500ms,
             explain="ticks every 500 ms from the last wake-up come before 4 requests (900 ms of "
                     "arrivals) can gather, so no batch of 4 ever fills.",
             hint="count the rows of result.requests whose status is 'timeout-alone'."),
    Exercise(2, _batched_request_counts,
             explain="the request count caps the batch (min(n, 16)), and a batch of 2 or less is "
                     "not worth it: the plugin turns batching off.",
             hint="compile with each value and read "
                  "compiled.get_runtime_model().inputs[0].get_shape()."),
    Exercise(3, _mean_lone_wait, tolerance=10, unit="ms",
             explain="about T/2: the arrivals are out of step with the periodic timer, so a lone "
                     "request waits a uniformly random part of the 200 ms period.",
             hint="batching.lone_request_waits(200).mean()"),
])
