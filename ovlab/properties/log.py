"""``ovlab.properties.log``: AUTO's log level."""

from ._base import OVEnum, Property, add_entries, enum_of, name_properties


class Level(OVEnum):
    NO = -1
    ERR = 0
    WARNING = 1
    INFO = 2
    DEBUG = 3
    TRACE = 4


level = Property("LOG_LEVEL", enum_of(Level))

# string forms used in configs ("LOG_INFO") -> enum
LEVEL_NAMES = {
    "LOG_NONE": Level.NO, "LOG_ERROR": Level.ERR, "LOG_WARNING": Level.WARNING,
    "LOG_INFO": Level.INFO, "LOG_DEBUG": Level.DEBUG, "LOG_TRACE": Level.TRACE,
}

add_entries(Level)

name_properties(globals())
