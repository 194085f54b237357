"""``ovlab.properties.device``: device identity, capabilities, priorities, per-device configs."""

from ._base import OVEnum, Property, _DevicePropertiesProperty, _PrioritiesProperty


class Type(OVEnum):
    INTEGRATED = 0
    DISCRETE = 1


class Capability:
    FP32 = "FP32"
    BF16 = "BF16"
    FP16 = "FP16"
    INT8 = "INT8"
    INT16 = "INT16"
    BIN = "BIN"
    WINOGRAD = "WINOGRAD"
    EXPORT_IMPORT = "EXPORT_IMPORT"


priorities = _PrioritiesProperty("MULTI_DEVICE_PRIORITIES")
properties = _DevicePropertiesProperty("DEVICE_PROPERTIES")
id = Property("DEVICE_ID")  # noqa: A001 - the name OpenVINO uses
type = Property("DEVICE_TYPE")  # noqa: A001
capabilities = Property("OPTIMIZATION_CAPABILITIES")
full_name = Property("FULL_DEVICE_NAME")
architecture = Property("DEVICE_ARCHITECTURE")
