"""Reading config values the way OpenVINO does (strings, enums, bools, ints), with its errors."""

from __future__ import annotations

from typing import Any

from .._errors import PluginError
from ..properties import hint, intel_auto, log
from ..properties._base import OVEnum, unwrap
from ..properties.streams import Num

ANY_BOOL = "src/core/src/any.cpp:219"


def normalize(config: dict | None) -> dict[str, Any]:
    """String keys for a config dict whose keys may be property objects."""
    if config is None:
        return {}
    if not isinstance(config, dict):
        raise TypeError(
            "compile_model(): incompatible function arguments: config must be a dict "
            "mapping property names to values"
        )
    return {str(k): _plain_value(v) for k, v in config.items()}


def _plain_value(value: Any) -> Any:
    """A config value as the plugins read it: ``OVAny`` unwrapped (``dict([prop(v)])`` configs),
    a ``streams.Num`` as its integer."""
    value = unwrap(value)
    if isinstance(value, Num):
        return value.to_integer()
    if isinstance(value, dict):
        return {k: _plain_value(v) for k, v in value.items()}
    return value


def to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int,)) and value in (0, 1):
        return bool(value)
    text = str(value).strip().lower()
    if text in ("yes", "true", "1"):
        return True
    if text in ("no", "false", "0"):
        return False
    raise PluginError(f"Could not convert to bool from string {text}", ANY_BOOL,
                      through_plugin=False)


def enum_value(enum_cls: type[OVEnum], value: Any) -> OVEnum | None:
    """The enum for ``value`` (an enum or its string name); None when it is not one."""
    if isinstance(value, enum_cls):
        return value
    if isinstance(value, str):
        return enum_cls._from_key(value)
    return None


def performance_mode(value: Any) -> hint.PerformanceMode | None:
    return enum_value(hint.PerformanceMode, value)


def priority(value: Any) -> hint.Priority | None:
    return enum_value(hint.Priority, value)


def schedule_policy(value: Any) -> intel_auto.SchedulePolicy | None:
    return enum_value(intel_auto.SchedulePolicy, value)


def log_level(value: Any) -> log.Level | None:
    if isinstance(value, log.Level):
        return value
    return log.LEVEL_NAMES.get(str(value))


def to_uint(value: Any) -> int | None:
    """A non-negative int from an int or a decimal string; None when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    try:
        n = int(str(value).strip())
    except ValueError:
        return None
    return n if n >= 0 else None


def yes_no(flag: bool) -> str:
    return "YES" if flag else "NO"
