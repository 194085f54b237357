"""``ovlab.properties.streams``: the number of execution streams."""

from ._base import OVEnum, Property


class Num(OVEnum):
    AUTO = -1
    NUMA = -2


num = Property("NUM_STREAMS")
