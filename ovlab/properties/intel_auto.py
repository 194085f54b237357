"""``ovlab.properties.intel_auto``: AUTO's own switches."""

from ._base import OVEnum, Property


class SchedulePolicy(OVEnum):
    ROUND_ROBIN = 0
    DEVICE_PRIORITY = 1
    DEFAULT = 1


enable_startup_fallback = Property("ENABLE_STARTUP_FALLBACK")
enable_runtime_fallback = Property("ENABLE_RUNTIME_FALLBACK")
schedule_policy = Property("SCHEDULE_POLICY")
device_bind_buffer = Property("DEVICE_BIND_BUFFER")
