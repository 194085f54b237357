"""Lab 01 · Devices and properties: request counts, capabilities, compile costs."""

from __future__ import annotations

import ovlab as ov
import ovlab.properties as props
import ovlab.properties.device as device
import ovlab.properties.hint as hints

from . import Exercise, LabExercises


def _requests_with_cap() -> int:
    core = ov.Core("laptop", seed=0)
    compiled = core.compile_model(core.read_model("googlenet-v1"), "CPU", {
        hints.performance_mode: hints.PerformanceMode.THROUGHPUT, hints.num_requests: 3})
    return compiled.get_property(props.optimal_number_of_infer_requests)


def _int8_devices() -> list[str]:
    core = ov.Core("workstation", seed=0)
    return [d for d in core.available_devices
            if "INT8" in core.get_property(d, device.capabilities)]


def _gpu_compile_seconds(platform) -> float:
    core = ov.Core(platform, seed=0)
    core.compile_model(core.read_model("googlenet-v1"), "GPU")
    return core.clock.now


def _slower_compile() -> float:
    stock = ov.preset("laptop")
    slow = stock.with_device("GPU.0", stock.devices["GPU.0"].with_(compile_base_s=20))
    return round(_gpu_compile_seconds(slow) - _gpu_compile_seconds(stock), 2)


EXERCISES = LabExercises("01-devices-and-properties", [
    Exercise(1, _requests_with_cap,
             explain="PERFORMANCE_HINT_NUM_REQUESTS caps the streams and the request count.",
             hint="read OPTIMAL_NUMBER_OF_INFER_REQUESTS from the compiled model."),
    Exercise(2, _int8_devices,
             explain="an INT8 model can only go to these devices when AUTO chooses (claim A02).",
             hint="loop over core.available_devices and read device.capabilities."),
    Exercise(3, _slower_compile, tolerance=0.1, unit="s",
             explain="only the fixed part changed: 20 s minus the preset's compile_base_s.",
             hint="read ov.preset('laptop').devices['GPU.0'].compile_base_s."),
])
