"""Lab 04 · The latency graph: the switch iteration, the lone requests, batching off."""

from __future__ import annotations

import ovlab as ov

from . import Exercise, LabExercises

MODEL = "googlenet-v1:FP16"


def _run(config: dict, **kwargs):
    core = ov.Core("laptop", seed=0)
    return ov.experiments.latency_graph(core, core.read_model(MODEL), "AUTO", config,
                                        verbose=False, **kwargs)


def _switch_at_15ms() -> int:
    return int(_run({"PERFORMANCE_HINT": "LATENCY"}, interval=15).switch_index)


def _lone_requests() -> int:
    run = _run({"PERFORMANCE_HINT": "THROUGHPUT"})
    return int((run.requests["status"] == "timeout-alone").sum())


def _switch_without_batching() -> int:
    return int(_run({"PERFORMANCE_HINT": "THROUGHPUT", "ALLOW_AUTO_BATCHING": "NO"}).switch_index)


EXERCISES = LabExercises("04-latency-graph", [
    Exercise(1, _switch_at_15ms, tolerance=2, unit="iterations",
             explain="far fewer than the switch time / 15 ms: with one request in the queue and "
                     "CPU inferences slower than 15 ms, start_async waits, so iterations come "
                     "slower than every 15 ms until the GPU takes over.",
             hint="ov.experiments.latency_graph(core, model, 'AUTO', "
                  "{'PERFORMANCE_HINT': 'LATENCY'}, interval=15, verbose=False).switch_index"),
    Exercise(2, _lone_requests,
             explain="each came to a batch worker that did not fill within its 1000 ms period; "
                     "they are the tall spikes of the plot.",
             hint="count the rows of tput_run.requests whose status is 'timeout-alone'."),
    Exercise(3, _switch_without_batching, tolerance=2, unit="iterations",
             explain="without batching the GPU compiles once (batch 1 only), so it is ready as "
                     "early as under LATENCY, about half the THROUGHPUT switch time; "
                     "OPTIMAL_NUMBER_OF_INFER_REQUESTS drops to 4 and the spikes disappear.",
             hint="add 'ALLOW_AUTO_BATCHING': 'NO' to the config and read .switch_index."),
])
