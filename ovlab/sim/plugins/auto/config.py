"""AUTO and MULTI configuration: the plugin's keys, defaults, validators and error texts.

The AUTO library is registered twice (``AUTO`` and ``MULTI``) and both names share one config
class (``src/plugins/auto/src/plugin_config.cpp``). Two behaviours a learner meets come from here:

* ``core.set_property("AUTO", {...})`` rejects unknown keys (``property: FOO_KEY: not supported``)
  while ``compile_model(..., "AUTO", {...})`` accepts them silently and forwards whatever a device
  supports (``NUM_STREAMS`` reaches the CPU even though AUTO itself does not know it).
* A value that was set keeps the Python type it was given (``ENABLE_STARTUP_FALLBACK`` reads back
  ``'NO'`` after a set, ``True`` by default), as measured on OpenVINO 2026.4.1
  (``reference/openvino-measured.md`` section 6).

Line numbers of sources that were not measured (``plugin_config.cpp:62`` for the log level, ``:73``
for an unknown get) are estimates placed near the measured lines of the same functions.
"""

from __future__ import annotations

from typing import Any

from ....properties import hint, intel_auto, log
from ...errors import PluginError
from ...runtime import config as cfgmod

CONFIG_SRC = "src/plugins/auto/src/plugin_config.cpp"
_VALIDATOR = "Check 'property_validators.at(name)->is_valid(val)' failed at {}:{}"
_VALIDATOR_CHECK = _VALIDATOR.format(CONFIG_SRC, 102)  # compile_model (measured)
_SET_VALIDATOR_CHECK = _VALIDATOR.format(CONFIG_SRC, 54)  # core.set_property (measured)
_SET_UNKNOWN_CHECK = f"Check 'false' failed at {CONFIG_SRC}:67"
_GET_UNKNOWN_CHECK = (f"Check 'internal_properties.find(name) != internal_properties.end()' "
                      f"failed at {CONFIG_SRC}:73")

# core.get_property("AUTO" / "MULTI", "SUPPORTED_PROPERTIES"), as measured (sorted by the runtime).
PLUGIN_SUPPORTED = {
    "AUTO": {"DEVICES_UTILIZATION_THRESHOLD": "RW", "DEVICE_BIND_BUFFER": "RW",
             "ENABLE_RUNTIME_FALLBACK": "RW", "ENABLE_STARTUP_FALLBACK": "RW",
             "EXECUTION_MODE_HINT": "RW", "FULL_DEVICE_NAME": "RO", "LOG_LEVEL": "RW",
             "LOW_POWER_DEVICE": "RW", "MODEL_PRIORITY": "RW", "MULTI_DEVICE_PRIORITIES": "RW",
             "OPTIMIZATION_CAPABILITIES": "RO", "PERFORMANCE_HINT": "RW",
             "PERFORMANCE_HINT_NUM_REQUESTS": "RW", "PERF_COUNT": "RW", "PERF_CURVE_TABLE": "RW",
             "SCHEDULE_POLICY": "RW", "SUPPORTED_PROPERTIES": "RO"},
    "MULTI": {"DEVICE_BIND_BUFFER": "RW", "EXECUTION_MODE_HINT": "RW", "FULL_DEVICE_NAME": "RO",
              "LOG_LEVEL": "RW", "MODEL_PRIORITY": "RW", "MULTI_DEVICE_PRIORITIES": "RW",
              "OPTIMIZATION_CAPABILITIES": "RO", "PERFORMANCE_HINT": "RW",
              "PERFORMANCE_HINT_NUM_REQUESTS": "RW", "PERF_COUNT": "RW", "SCHEDULE_POLICY": "RW",
              "SUPPORTED_PROPERTIES": "RO"},
}

# Registered defaults. MULTI hides the two fallback keys from SUPPORTED_PROPERTIES but still
# registers them (the same config class), so they can be set and they take effect for MULTI too.
_DEFAULTS: dict[str, Any] = {
    "PERF_COUNT": False,
    "MULTI_DEVICE_PRIORITIES": "",
    "MODEL_PRIORITY": hint.Priority.MEDIUM,
    "LOG_LEVEL": log.Level.NO,
    "DEVICE_BIND_BUFFER": False,
    "SCHEDULE_POLICY": intel_auto.SchedulePolicy.DEVICE_PRIORITY,
    "PERFORMANCE_HINT": hint.PerformanceMode.LATENCY,
    "EXECUTION_MODE_HINT": hint.ExecutionMode.PERFORMANCE,
    "PERFORMANCE_HINT_NUM_REQUESTS": 0,
    "ENABLE_STARTUP_FALLBACK": True,
    "ENABLE_RUNTIME_FALLBACK": True,
}
# 2026 additions of the AUTO plugin, AUTO only; the three defaults as measured on 2026.4.1.
_AUTO_ONLY_DEFAULTS: dict[str, Any] = {
    "DEVICES_UTILIZATION_THRESHOLD": {},
    "LOW_POWER_DEVICE": "",
    "PERF_CURVE_TABLE": {},
}

#: the device keys a PERF_CURVE_TABLE may name (PerfCurveTableValidator, openvino PR #37196)
CURVE_DEVICES = ("CPU", "iGPU", "dGPU", "NPU")
RESOURCE_AWARE_KEYS = ("DEVICES_UTILIZATION_THRESHOLD", "PERF_CURVE_TABLE", "LOW_POWER_DEVICE")

_BOOL_KEYS = ("PERF_COUNT", "DEVICE_BIND_BUFFER", "ENABLE_STARTUP_FALLBACK",
              "ENABLE_RUNTIME_FALLBACK")
# Keys of the Core that every device accepts at compile time (auto-batching and caching).
CORE_PASS_KEYS = ("CACHE_DIR", "ALLOW_AUTO_BATCHING", "AUTO_BATCH_TIMEOUT")


def _number(value: Any) -> str:
    """A number as a C++ ``ostream`` prints it: floats in ``%g`` (``1.0`` -> ``1``)."""
    return f"{value:g}" if isinstance(value, float) else str(value)


def fmt(value: Any) -> str:
    """A value as OpenVINO's ``Any::as<std::string>()`` prints it in messages and logs.

    Maps print as ``{key:value,key:value}`` (an empty inner map as nothing: ``{CPU:}``) and
    sequences space-separated, as measured for the 2026 AUTO maps.
    """
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{fmt(v) if isinstance(v, dict) and v else ''}"
                              if isinstance(v, dict) else f"{k}:{_number(v)}"
                              for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return " ".join(fmt(v) for v in value)
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, bool):
        return "YES" if value else "NO"
    if isinstance(value, log.Level):
        return {v: k for k, v in log.LEVEL_NAMES.items()}[value]
    if hasattr(value, "name") and hasattr(value, "value") and not isinstance(value, str):
        return str(value.name)
    return str(value)


def _is_bool(value: Any) -> bool:
    if isinstance(value, int) and not isinstance(value, bool):
        return False  # AUTO's validator takes a bool or its text, not a number (measured)
    try:
        cfgmod.to_bool(value)
    except PluginError:
        return False
    return True


#: what ``ov::Any::as<T>()`` reads from "" for AUTO's typed keys: the type's zero value
#: (measured on 2026.4.1: "" passes every validator and reads back as "")
_EMPTY_READS: dict[str, Any] = {
    "PERF_COUNT": False, "DEVICE_BIND_BUFFER": False, "ENABLE_STARTUP_FALLBACK": False,
    "ENABLE_RUNTIME_FALLBACK": False, "MODEL_PRIORITY": hint.Priority.LOW,
    "LOG_LEVEL": log.Level.ERR, "SCHEDULE_POLICY": intel_auto.SchedulePolicy.ROUND_ROBIN,
    "EXECUTION_MODE_HINT": hint.ExecutionMode(0),
}


def _valid(key: str, value: Any) -> bool:
    if value == "" and key != "PERFORMANCE_HINT_NUM_REQUESTS" and (
            key in _EMPTY_READS or key in ("MULTI_DEVICE_PRIORITIES", "PERFORMANCE_HINT")):
        return True  # (the unsigned validator reads a number from the text: "" fails it)
    if key in _BOOL_KEYS:
        return _is_bool(value)
    if key == "MULTI_DEVICE_PRIORITIES":  # a number reads as its digits (measured)
        return isinstance(value, (str, int, float))
    if key == "MODEL_PRIORITY":
        return cfgmod.priority(value) is not None
    if key == "SCHEDULE_POLICY":
        return cfgmod.schedule_policy(value) is not None
    if key == "PERFORMANCE_HINT":
        # "" passes AUTO's validator and fails later on the device (measured)
        return value == "" or cfgmod.performance_mode(value) is not None
    if key == "EXECUTION_MODE_HINT":
        return cfgmod.enum_value(hint.ExecutionMode, value) is not None
    if key == "PERFORMANCE_HINT_NUM_REQUESTS":  # a float is truncated (measured: 1.5 passes)
        if isinstance(value, float):
            return int(value) >= 0
        return cfgmod.to_uint(value) is not None
    if key == "DEVICES_UTILIZATION_THRESHOLD":
        # the binding already checked a dict's keys and values (runtime/config.py)
        return isinstance(value, dict)
    if key == "PERF_CURVE_TABLE":
        return _valid_curve_table(value)
    return True  # LOW_POWER_DEVICE takes any value (measured: even 5 or None)


def _valid_curve_table(value: Any) -> bool:
    """PerfCurveTableValidator: device keys CPU/iGPU/dGPU/NPU, a non-empty curve per device,
    utilization points within 0..100, scores not negative (openvino PR #37196, measured)."""
    if not isinstance(value, dict):
        return False
    for device, curve in value.items():
        if device not in CURVE_DEVICES or not isinstance(curve, dict) or not curve:
            return False
        if any(not 0 <= util <= 100 or score < 0 for util, score in curve.items()):
            return False
    return True


def check_value(key: str, value: Any, *, setting: bool = False) -> None:
    """Raise AUTO's errors for a bad value of one of its own keys (``setting``: through
    ``core.set_property``, whose validator line differs)."""
    # (LOG_LEVEL too: the validator's message, measured on 2026.4.1 through set_property and
    # compile_model alike, not the older "Unsupported log level")
    ok = (value == "" or cfgmod.log_level(value) is not None) if key == "LOG_LEVEL" else \
        _valid(key, value)
    if not ok:
        raise PluginError(f"Invalid value for property {key}: {fmt(value)}",
                          _SET_VALIDATOR_CHECK if setting else _VALIDATOR_CHECK)


def known_keys(plugin_name: str) -> set[str]:
    """Keys the config registers with a validator (RO keys cannot be set)."""
    keys = set(_DEFAULTS)
    if plugin_name == "AUTO":
        keys |= set(_AUTO_ONLY_DEFAULTS)
    return keys


def validate_set(plugin_name: str, props: dict[str, Any]) -> None:
    """``core.set_property("AUTO", props)``: unknown keys and bad values are errors."""
    keys = known_keys(plugin_name)
    for key, value in props.items():
        if key not in keys:
            raise PluginError(f"property: {key}: not supported", _SET_UNKNOWN_CHECK)
        check_value(key, value, setting=True)


def default(plugin_name: str, key: str) -> Any:
    """The registered default of ``key`` (core.get_property answers it when nothing was set)."""
    if key in _DEFAULTS:
        value = _DEFAULTS[key]
    elif plugin_name == "AUTO" and key in _AUTO_ONLY_DEFAULTS:
        value = _AUTO_ONLY_DEFAULTS[key]
    else:
        raise PluginError(f"[AUTO] not supported property {key}", _GET_UNKNOWN_CHECK)
    return dict(value) if isinstance(value, dict) else value


class Settings:
    """The properties one compile works with: the plugin's user-set values overlaid by the call's.

    Known keys are validated (``Invalid value for property ...``); unknown keys are kept, as
    OpenVINO keeps them as candidates for the devices. ``DEVICE_PROPERTIES`` (already flattened by
    the Core into ``{device: {key: value}}``) is kept apart.
    """

    def __init__(self, plugin_name: str, plugin_user: dict[str, Any], call: dict[str, Any]):
        self.plugin_name = plugin_name
        call = dict(call)
        self.device_properties: dict[str, dict[str, Any]] = dict(call.pop("DEVICE_PROPERTIES", {}))
        keys = known_keys(plugin_name)
        for key, value in call.items():
            if key in keys:
                check_value(key, value)
        if "ALLOW_AUTO_BATCHING" in call:
            cfgmod.to_bool(call["ALLOW_AUTO_BATCHING"])  # the Core's any.cpp error, as measured
        self.user: dict[str, Any] = dict(plugin_user)
        self.user.update(call)

    def is_set(self, key: str) -> bool:
        return key in self.user

    def raw(self, key: str) -> Any:
        return self.user[key] if key in self.user else default(self.plugin_name, key)

    def _read(self, key: str) -> Any:
        """``raw`` as AUTO reads it for use: "" is the type's zero value."""
        value = self.raw(key)
        return _EMPTY_READS.get(key, value) if value == "" else value

    # --- typed views ---------------------------------------------------------------------
    def flag(self, key: str) -> bool:
        return cfgmod.to_bool(self._read(key))

    @property
    def hint(self) -> hint.PerformanceMode | str:
        value = self.raw("PERFORMANCE_HINT")
        return "" if value == "" else cfgmod.performance_mode(value)

    @property
    def priority(self) -> hint.Priority:
        return cfgmod.priority(self._read("MODEL_PRIORITY"))

    @property
    def priority_rank(self) -> int:
        """AUTO's internal rank: HIGH 0, MEDIUM 1, LOW 2 (the reverse of the enum's numbers)."""
        return {2: 0, 1: 1, 0: 2}[int(self.priority.value)]

    @property
    def schedule_policy(self) -> intel_auto.SchedulePolicy:
        return cfgmod.schedule_policy(self._read("SCHEDULE_POLICY"))

    @property
    def log_level(self) -> log.Level:
        return cfgmod.log_level(self._read("LOG_LEVEL"))

    @property
    def num_requests(self) -> int:
        value = self.raw("PERFORMANCE_HINT_NUM_REQUESTS")
        return int(value) if isinstance(value, float) else int(cfgmod.to_uint(value) or 0)

    @property
    def batching_disabled(self) -> bool:
        return "ALLOW_AUTO_BATCHING" in self.user and not cfgmod.to_bool(
            self.user["ALLOW_AUTO_BATCHING"])

    @property
    def priorities(self) -> str:
        value = self.raw("MULTI_DEVICE_PRIORITIES")
        return cfgmod.yes_no(value) if isinstance(value, bool) else fmt(value)

    # --- resource-aware selection (2026) -------------------------------------------------
    @property
    def utilization_thresholds(self) -> dict[str, int]:
        value = self.raw("DEVICES_UTILIZATION_THRESHOLD") if self.plugin_name == "AUTO" else {}
        return dict(value) if isinstance(value, dict) else {}

    @property
    def perf_curve_table(self) -> dict[str, dict[int, float]]:
        value = self.raw("PERF_CURVE_TABLE") if self.plugin_name == "AUTO" else {}
        return dict(value) if isinstance(value, dict) else {}

    @property
    def low_power_device(self) -> str:
        value = self.raw("LOW_POWER_DEVICE") if self.plugin_name == "AUTO" else ""
        return "" if value is None else fmt(value)

    @property
    def resource_aware(self) -> bool:
        """Any of the three set to a non-empty value: AUTO selects per inference."""
        return bool(self.utilization_thresholds or self.perf_curve_table
                    or self.low_power_device)
