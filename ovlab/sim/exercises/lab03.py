"""Lab 03 · AUTO's first inference: the helper's release, benchmark_app's warm-up, the cache."""

from __future__ import annotations

import tempfile

import ovlab as ov
import ovlab.properties as props
from ovlab import benchmark

from . import Exercise, LabExercises


def _switch_time() -> float:
    core = ov.Core("laptop", seed=0)
    compiled = core.compile_model(core.read_model("squeezenet1.1"), "AUTO")
    step = 0.001
    while compiled.get_property(props.execution_devices) != ["GPU.0"]:
        core.clock.sleep(step)
        if core.clock.now > 60:
            raise RuntimeError("AUTO never switched to GPU.0")
    released = [e.time for e in core.trace.events if e.kind == "helper_released"]
    return round(released[0], 2)


def _option_without_warmup() -> str:
    options = {"-hint latency": ["-hint", "latency"], "-nireq 16": ["-nireq", "16"],
               "-niter 1024": ["-niter", "1024"]}
    first = {name: benchmark.run(["-m", "googlenet-v1", "-d", "GPU", "-niter", "128", *extra])
             .first_inference_ms for name, extra in options.items()}
    return min(first, key=first.get)


def _cached_compile() -> float:
    core = ov.Core("laptop", seed=0)
    model = core.read_model("googlenet-v1:FP16")
    with tempfile.TemporaryDirectory() as folder:  # a new, empty cache directory
        core.compile_model(model, "AUTO", {props.cache_dir: folder})
        core.clock.sleep(10)
        t0 = core.clock.now
        core.compile_model(model, "AUTO", {props.cache_dir: folder})
        return round(core.clock.now - t0, 3)


EXERCISES = LabExercises("03-auto-first-inference", [
    Exercise(1, _switch_time, tolerance=0.1, unit="s",
             explain="with no inference in flight the helper is released at the switch, i.e. when "
                     "the iGPU compile of SqueezeNet ends: earlier than GoogLeNet's, because a "
                     "smaller model (fewer ops, fewer MB of weights) compiles faster.",
             hint="sleep the clock in small steps and read EXECUTION_DEVICES, or read the "
                  "'helper_released' event in core.trace.events_frame(). The time is the clock's "
                  "reading, not a duration."),
    Exercise(2, _option_without_warmup,
             explain="only leaving THROUGHPUT turns automatic batching off; the warm-up inference "
                     "is always a single request, so more requests or iterations do not fill "
                     "its batch.",
             hint="which setting decides whether the GPU batches? Run the three and compare "
                  "report.first_inference_ms."),
    Exercise(3, _cached_compile, tolerance=0.01, unit="s",
             explain="the first compile's iGPU copy (compiled in the background) wrote its blob; "
                     "the second compile finds it, skips the CPU helper and loads the iGPU from "
                     "the cache.",
             hint="the first AUTO compile returns at once, but its GPU compile goes on and ends "
                  "with a blob in CACHE_DIR."),
])
