"""Virtual hardware: device specs, the cost model and platform presets."""

from .cost import compile_time, inference_time, optimal_batch_size, transfer_time
from .platforms import PRESETS, Platform, preset
from .specs import DeviceSpec

__all__ = ["DeviceSpec", "Platform", "PRESETS", "preset", "compile_time", "inference_time",
           "optimal_batch_size", "transfer_time"]
