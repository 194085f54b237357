"""``ovlab.properties.intel_auto``: AUTO's own switches.

The last three are the 2026 resource-aware selection (``ov::intel_auto`` in
``src/inference/include/openvino/runtime/auto/properties.hpp``; openvino PRs #36745, #37196,
#37384): setting any of them makes AUTO choose a device for every inference.
"""

from ._base import ANY, BOOL, OVEnum, Property, add_entries, enum_of, name_properties


class SchedulePolicy(OVEnum):
    ROUND_ROBIN = 0
    DEVICE_PRIORITY = 1
    DEFAULT = 1


enable_startup_fallback = Property("ENABLE_STARTUP_FALLBACK", BOOL)
enable_runtime_fallback = Property("ENABLE_RUNTIME_FALLBACK", BOOL)
schedule_policy = Property("SCHEDULE_POLICY", enum_of(SchedulePolicy))
device_bind_buffer = Property("DEVICE_BIND_BUFFER", BOOL)
# 2026 resource-aware AUTO: per-device utilisation thresholds (%), the low-power device, and the
# performance curve table it reads
devices_utilization_threshold = Property("DEVICES_UTILIZATION_THRESHOLD", ANY)
low_power_device = Property("LOW_POWER_DEVICE", ANY)
perf_curve_table = Property("PERF_CURVE_TABLE", ANY)

add_entries(SchedulePolicy)

name_properties(globals())
