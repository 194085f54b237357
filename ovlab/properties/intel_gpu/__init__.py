"""``ovlab.properties.intel_gpu``: the GPU plugin's own properties."""

from .._base import BOOL, Property, name_properties
from . import hint


class MemoryType:
    surface = "GPU_SURFACE"
    buffer = "GPU_BUFFER"


class CapabilityGPU:
    HW_MATMUL = "GPU_HW_MATMUL"
    USM_MEMORY = "GPU_USM_MEMORY"


device_total_mem_size = Property("GPU_DEVICE_TOTAL_MEM_SIZE", read_only=True)
device_max_alloc_mem_size = Property("GPU_DEVICE_MAX_ALLOC_MEM_SIZE", read_only=True)
uarch_version = Property("GPU_UARCH_VERSION", read_only=True)
execution_units_count = Property("GPU_EXECUTION_UNITS_COUNT", read_only=True)
memory_statistics = Property("GPU_MEMORY_STATISTICS", read_only=True)
enable_loop_unrolling = Property("GPU_ENABLE_LOOP_UNROLLING", BOOL)
disable_winograd_convolution = Property("GPU_DISABLE_WINOGRAD_CONVOLUTION", BOOL)

__all__ = ["hint", "MemoryType", "CapabilityGPU", "device_total_mem_size",
           "device_max_alloc_mem_size", "uarch_version", "execution_units_count",
           "memory_statistics", "enable_loop_unrolling", "disable_winograd_convolution"]

name_properties(globals())
