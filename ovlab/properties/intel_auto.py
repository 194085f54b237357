"""``ovlab.properties.intel_auto``: AUTO's own switches.

The last three are the 2026 resource-aware selection (``ov::intel_auto`` in
``src/inference/include/openvino/runtime/auto/properties.hpp``; openvino PRs #36745, #37196,
#37384): setting any of them makes AUTO choose a device for every inference.
"""

from ._base import OVEnum, Property


class SchedulePolicy(OVEnum):
    ROUND_ROBIN = 0
    DEVICE_PRIORITY = 1
    DEFAULT = 1


enable_startup_fallback = Property("ENABLE_STARTUP_FALLBACK")
enable_runtime_fallback = Property("ENABLE_RUNTIME_FALLBACK")
schedule_policy = Property("SCHEDULE_POLICY")
device_bind_buffer = Property("DEVICE_BIND_BUFFER")
devices_utilization_threshold = Property("DEVICES_UTILIZATION_THRESHOLD")
perf_curve_table = Property("PERF_CURVE_TABLE")
low_power_device = Property("LOW_POWER_DEVICE")
