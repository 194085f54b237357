"""Lab 09 · An AI PC in 2026: resource-aware AUTO, the CPU's cache key, pipeline-parallel HETERO."""

from __future__ import annotations

import tempfile
from pathlib import Path

import ovlab as ov
import ovlab.properties as props
import ovlab.properties.hint as hints

from . import Exercise, LabExercises

PIPELINE = {hints.model_distribution_policy: {hints.ModelDistributionPolicy.PIPELINE_PARALLEL}}


def _busiest_device() -> str:
    from ovlab.sim.widgets import resource_aware

    counts = resource_aware.run_scenario(gpu_load=0.9, gpu_threshold=60,
                                         npu_threshold=95).counts()
    return max(counts, key=counts.get)


def _low_power_gpu_inferences() -> int:
    from ovlab.sim.widgets import resource_aware

    counts = resource_aware.run_scenario(power_mode="low_power", low_power_device="CPU").counts()
    return int(counts.get("GPU.0", 0))


def _cpu_blobs() -> int:
    core = ov.Core("core-ultra-7-165h", seed=0)
    model = core.read_model("googlenet-v1:FP16")
    with tempfile.TemporaryDirectory() as folder:
        for hint in ["LATENCY", "THROUGHPUT"]:
            core.compile_model(model, "CPU", {props.cache_dir: folder,
                                              hints.performance_mode: hint})
        return len(list(Path(folder).glob("*.blob")))


def _largest_whole_on_gpu0() -> int:
    from ovlab.sim.plugins.hetero.pipeline import layered_model

    def whole_on_gpu0(n: int) -> bool:
        core = ov.Core("multi-gpu", seed=0)
        compiled = core.compile_model(layered_model(layers=n), "HETERO:GPU.0,GPU.1", PIPELINE)
        return compiled.get_property(props.execution_devices) == ["GPU.0"]

    return max(n for n in range(24, 36) if whole_on_gpu0(n))


EXERCISES = LabExercises("09-ai-pc-2026", [
    Exercise(1, _busiest_device,
             explain="the other program loads the iGPU only from 2 s to 6 s of the 8 s run: "
                     "outside that window the iGPU, first in the list, takes the inferences, and "
                     "while it is over its 60 % threshold the NPU (under 95 %) takes them; the "
                     "iGPU's share is the larger one.",
             hint="run ov.widgets.resource_aware.run_scenario(...) and look at .counts()."),
    Exercise(2, _low_power_gpu_inferences,
             explain="in low-power mode LOW_POWER_DEVICE takes precedence over everything else.",
             hint="LOW_POWER_DEVICE wins whenever the platform is in low-power mode."),
    Exercise(3, _cpu_blobs,
             explain="the CPU's blob key depends on the model and the CPU's name only; the "
                     "THROUGHPUT compile loaded the LATENCY blob (measured on OpenVINO 2026.4.1).",
             hint="which properties does the CPU's cache key include?"),
    Exercise(4, _largest_whole_on_gpu0,
             explain="GPU.0 takes the model whole while its 16 GB hold 1.2 x the weights, and also "
                     "(the next branch of update_config) while they hold the weights alone: up to "
                     "29 layers, 15.6 GB.",
             hint="compare n x 0.537 GB with 16 GB, not only 1.2 x it."),
])
