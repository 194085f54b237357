"""Lab 06 · CUMULATIVE_THROUGHPUT and MULTI: candidate lists and how DEVICE_PRIORITY fills."""

from __future__ import annotations

import ovlab as ov
import ovlab.properties as props
import ovlab.properties.hint as hints

from . import Exercise, LabExercises

NO_BATCH = {hints.allow_auto_batching: False}
CTPUT = {hints.performance_mode: hints.PerformanceMode.CUMULATIVE_THROUGHPUT, **NO_BATCH}


def _ctput_devices() -> list[str]:
    core = ov.Core("workstation", seed=0)
    compiled = core.compile_model(core.read_model("googlenet-v1"), "AUTO", CTPUT)
    return list(compiled.get_property(props.execution_devices))


def _devices_of(n: int, device: str) -> list[str]:
    """Where each of n inferences started at once ran, on a fresh multi-gpu Core."""
    core = ov.Core("multi-gpu", seed=0)
    compiled = core.compile_model(core.read_model("googlenet-v1"), device, NO_BATCH)
    requests = [compiled.create_infer_request() for _ in range(n)]
    for r in requests:
        r.start_async()
    for r in requests:
        r.wait()
    return [r.device for r in core.trace.inferences]


def _on_gpu1() -> int:
    return _devices_of(10, "MULTI:GPU.0,GPU.1,GPU.2").count("GPU.1")


def _first_cpu() -> int:
    return next(n for n in range(1, 40)
                if "CPU" in _devices_of(n, "MULTI:GPU.0,GPU.1,GPU.2,CPU"))


EXERCISES = LabExercises("06-cumulative-throughput-and-multi", [
    Exercise(1, _ctput_devices,
             explain="plain AUTO keeps the available_devices order (CPU first) and leaves out the "
                     "NPU, which must be named (claim A08).",
             hint="print core.available_devices on the workstation; which device is never in "
                  "plain AUTO's list?"),
    Exercise(2, _on_gpu1,
             explain="DEVICE_PRIORITY fills GPU.0's 4 workers, then GPU.1's 4, and the last 2 go "
                     "to GPU.2.",
             hint="each Flex GPU has OPTIMAL_NUMBER_OF_INFER_REQUESTS = 4 workers."),
    Exercise(3, _first_cpu,
             explain="the CPU is last in the list, so it gets work only when all 12 GPU workers "
                     "are busy (section 4's curve bends there too).",
             hint="add up the GPUs' OPTIMAL_NUMBER_OF_INFER_REQUESTS."),
])
