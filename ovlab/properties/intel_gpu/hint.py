"""``ovlab.properties.intel_gpu.hint``: GPU queue hints. ``ThrottleLevel`` is ``hint.Priority``
under another name, as in OpenVINO (``str(ThrottleLevel.LOW)`` is ``"Priority.LOW"``)."""

from .._base import BOOL, UINT, Property, enum_of, name_properties
from ..hint import Priority

ThrottleLevel = Priority

queue_throttle = Property("GPU_QUEUE_THROTTLE", enum_of(Priority))
queue_priority = Property("GPU_QUEUE_PRIORITY", enum_of(Priority))
host_task_priority = Property("GPU_HOST_TASK_PRIORITY", enum_of(Priority))
available_device_mem = Property("AVAILABLE_DEVICE_MEM_SIZE", UINT)
enable_large_allocations = Property("GPU_ENABLE_LARGE_ALLOCATIONS", BOOL)
enable_lora_operation = Property("GPU_ENABLE_LORA_OPERATION", BOOL)

name_properties(globals())
