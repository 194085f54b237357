"""``ovlab.properties.device``: device identity, capabilities, priorities, per-device configs."""

from ._base import (
    STR,
    OVEnum,
    Property,
    _DevicePropertiesProperty,
    _PrioritiesProperty,
    add_entries,
    name_properties,
)


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
id = Property("DEVICE_ID", STR)  # noqa: A001 - the name OpenVINO uses
type = Property("DEVICE_TYPE", read_only=True)  # noqa: A001
capabilities = Property("OPTIMIZATION_CAPABILITIES", read_only=True)
full_name = Property("FULL_DEVICE_NAME", read_only=True)
architecture = Property("DEVICE_ARCHITECTURE", read_only=True)
gops = Property("DEVICE_GOPS", read_only=True)
thermal = Property("DEVICE_THERMAL", read_only=True)
uuid = Property("DEVICE_UUID", read_only=True)
luid = Property("DEVICE_LUID", read_only=True)
pci_info = Property("DEVICE_PCI_INFO", read_only=True)

add_entries(Type)

name_properties(globals())
