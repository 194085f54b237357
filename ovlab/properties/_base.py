"""Property keys and enums that behave like ``openvino.properties``.

A property object *is* its string key (``hint.performance_mode == "PERFORMANCE_HINT"``), so it
works as a dict key or a ``get_property`` argument without being called. Calling it with no
argument returns the key; with a value it returns the ``(key, value)`` pair OpenVINO returns, so
``dict([hint.performance_mode(PerformanceMode.THROUGHPUT)])`` is a config.
"""

from __future__ import annotations

import enum
from typing import Any


class Property(str):
    """A property key (a ``str``) that is also callable like OpenVINO's property functions."""

    def __call__(self, *args: Any) -> Any:
        if not args:
            return str(self)
        if len(args) == 1:
            return (str(self), args[0])
        return (str(self), args)

    def __repr__(self) -> str:
        return f"<Property {str(self)!r}>"


class _PrioritiesProperty(Property):
    def __call__(self, *devices: str) -> Any:
        if not devices:
            return str(self)
        # openvino's Python binding joins with a trailing comma: "GPU,CPU," (parsers ignore it)
        return (str(self), "".join(f"{d}," for d in devices))


class _DevicePropertiesProperty(Property):
    def __call__(self, *args: Any) -> Any:
        if not args:
            return str(self)
        if len(args) == 1 and isinstance(args[0], dict):
            return (str(self), dict(args[0]))
        if len(args) == 2 and isinstance(args[0], str):
            # device.properties("GPU", {...}) -> DEVICE_PROPERTIES for one device
            return (str(self), {args[0]: dict(args[1])})
        raise TypeError("device.properties() takes a dict {device: {key: value}}")


class OVEnum(enum.Enum):
    """An enum printed like OpenVINO's pybind enums: ``PerformanceMode.LATENCY``."""

    def __str__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__}.{self.name}: {self.value}>"

    def __int__(self) -> int:
        return int(self.value)

    def __index__(self) -> int:
        return int(self.value)

    @classmethod
    def _from_key(cls, text: str):
        """Parse the string form used in configs (``"THROUGHPUT"``); None if unknown."""
        return cls.__members__.get(text)
