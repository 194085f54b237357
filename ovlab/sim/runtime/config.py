"""Reading config values the way OpenVINO does (strings, enums, bools, ints), with its errors."""

from __future__ import annotations

from typing import Any

from ...properties import hint, intel_auto, log
from ...properties._base import OVEnum, unwrap
from ...properties.streams import Num
from ..errors import PluginError

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
    return {str(k): _binding_value(str(k), _plain_value(v)) for k, v in config.items()}


# --- what the Python binding converts before the Core sees a value ----------------------------------
BINDING_SRC = "src/bindings/python/src/pyopenvino/utils/utils.cpp"
_THRESHOLD_TYPE = "The {} of DEVICES_UTILIZATION_THRESHOLD should be dict[str, int in [0, 100]]"
_PYBIND_CAST = ("Unable to cast Python instance of type <class 'dict'> to C++ type '?' "
                "(#define PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug mode for details)")


def _binding_error(line: int, message: str) -> RuntimeError:
    from ..errors import format_chain

    return RuntimeError(format_chain([f"{BINDING_SRC}:{line}"], message))


def _binding_value(key: str, value: Any) -> Any:
    """The 2026 AUTO maps, as ``properties_to_any_map`` converts them (measured on 2026.4.1).

    ``DEVICES_UTILIZATION_THRESHOLD`` must be ``dict[str, int]`` with values in 0..100 (the
    binding checks it, so these errors carry no ``core.cpp`` line); ``PERF_CURVE_TABLE`` must cast
    to ``map<str, map<unsigned, float>>``. Both come back as ``std::map``s do: sorted by key.
    Other values (a str, a list) reach AUTO's own validator unchanged.
    """
    if key == "DEVICES_UTILIZATION_THRESHOLD" and isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise _binding_error(351, _THRESHOLD_TYPE.format("key type") + " with string keys")
            if type(v) is not int:
                raise _binding_error(356, _THRESHOLD_TYPE.format("value type")
                                     + " with integer values")
            if not 0 <= v <= 100:
                raise _binding_error(363, _THRESHOLD_TYPE.format("value type"))
        return {k: value[k] for k in sorted(value)}
    if key == "PERF_CURVE_TABLE" and isinstance(value, dict):
        table: dict[str, dict[int, float]] = {}
        for device, curve in value.items():
            if not isinstance(device, str) or not isinstance(curve, dict):
                raise RuntimeError(_PYBIND_CAST)
            points: dict[int, float] = {}
            for util, score in curve.items():
                if not isinstance(util, int) or not 0 <= util < 2 ** 32 \
                        or not isinstance(score, (int, float)):
                    raise RuntimeError(_PYBIND_CAST)
                points[int(util)] = float(score)
            table[device] = dict(sorted(points.items()))
        return dict(sorted(table.items()))
    return value


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


def mangled(value: Any) -> str:
    """The C++ type name ``ov::Any`` reports for a Python value in "Bad as from"."""
    if isinstance(value, float):
        return "d"
    if isinstance(value, int):
        return "l"
    if isinstance(value, (list, tuple)):
        inner = {mangled(v) for v in value}
        t = inner.pop() if len(inner) == 1 else "l"
        return f"St6vectorI{t}SaI{t}EE" if t in ("l", "d") else \
            "St6vectorINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESaIS5_EE"
    return "St7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE"


def core_bool(value: Any) -> bool:
    """A Core-level boolean key (``ENABLE_MMAP``) as ``ov::Any::as<bool>`` reads it: a bool,
    or a string ``to_bool`` reads; anything else is "Bad as from"."""
    if isinstance(value, bool):
        return value
    if value == "":
        return False  # bool{} (ov::Any reads "" as the type's zero value; measured)
    if isinstance(value, str):
        return to_bool(value)
    raise PluginError(f"Bad as from: {mangled(value)} to: b",
                      "src/core/include/openvino/core/any.hpp:783", through_plugin=False)


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


def to_int(value: Any) -> int | None:
    """An int from an int or a decimal string (any sign); None when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def any_text(value: Any) -> str:
    """A value as ``ov::Any::as<std::string>()`` prints a number: a float in ``%g`` (0.0 is
    "0", 1.5 is "1.5"), anything else as ``str``."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def yes_no(flag: bool) -> str:
    return "YES" if flag else "NO"
