"""AUTO and MULTI: the automatic device selection plugin, registered under two names.

One class, two behaviours (``src/plugins/auto/src/plugin.cpp``): as ``AUTO`` it picks one device
and hides that device's compile behind a CPU helper (:mod:`.schedule`), or, with the
``CUMULATIVE_THROUGHPUT`` hint, runs on every candidate at once (:mod:`.cumulative`); as
``MULTI`` it always runs cumulatively, needs a device list and reports ``THROUGHPUT``. With one
of the 2026 resource-aware properties set, AUTO selects a device for every inference instead
(:mod:`.dynamic`).

``compile_model`` goes: config (:mod:`.config`) -> candidate names -> one
:class:`~.select.DeviceInfo` per device -> (not cumulative) validity and order ->
the scheduler, whose start-up event is what the Core waits for.
"""

from __future__ import annotations

from typing import Any

from ....properties.hint import PerformanceMode
from ...errors import PluginError
from ...runtime import device_name as dn
from ...runtime.plugin import Plugin
from . import config as auto_config
from .compiled import AutoBackend, CumulativeBackend
from .cumulative import CumulativeSchedule
from .dynamic import DynamicBackend, DynamicSchedule, is_stateful
from .log import AutoLog
from .schedule import AutoSchedule
from .select import (
    PLUGIN_SRC,
    PriorityRegistry,
    device_list,
    meta_devices,
    valid_devices,
)


class AutoPlugin(Plugin):
    """``AUTO`` or ``MULTI`` (``self.name``), with the plugin-level config of that name."""

    virtual = True
    description = "openvino_auto_plugin"

    def __init__(self, core, name: str) -> None:
        super().__init__(core, name)
        # Model priority: OpenVINO shares this map across the whole process; ovlab keeps it per
        # Core (see PriorityRegistry).
        self.registry = PriorityRegistry()

    # --- plugin-level properties -----------------------------------------------------------
    def set_property(self, props: dict[str, Any]) -> None:
        """``core.set_property("AUTO", {...})``: values keep the type they were given."""
        auto_config.validate_set(self.name, props)
        self.config.update(props)

    def get_property(self, key: str, options: dict | None = None) -> Any:
        if key == "SUPPORTED_PROPERTIES":
            return dict(auto_config.PLUGIN_SUPPORTED[self.name])
        if key == "FULL_DEVICE_NAME":
            return self.name
        if key == "OPTIMIZATION_CAPABILITIES":
            return self._capabilities(options or {})
        if key in self.config:
            return self.config[key]
        return auto_config.default(self.name, key)

    def _capabilities(self, options: dict[str, Any]) -> list[str]:
        """Sorted union of the devices' capabilities, without EXPORT_IMPORT."""
        if "MULTI_DEVICE_PRIORITIES" in options:
            devices = [str(t) for t in dn.parse_list(str(options["MULTI_DEVICE_PRIORITIES"]))]
        else:
            devices = self.core.available_devices
        caps: set[str] = set()
        for device in devices:
            if device.startswith("-"):
                continue
            try:
                caps.update(self.core.get_property(device, "OPTIMIZATION_CAPABILITIES"))
            except (RuntimeError, PluginError):
                continue
        caps.discard("EXPORT_IMPORT")
        return sorted(caps)

    # --- compiling ---------------------------------------------------------------------------
    def start_compile(self, model, priorities: str | None, device_id: str | None,
                      config: dict[str, Any], *, from_path: bool = False):
        from ...graph import model_precision

        core = self.core
        call = dict(config)
        if priorities is not None:
            call["MULTI_DEVICE_PRIORITIES"] = priorities  # "AUTO:" sets an empty list
        settings = auto_config.Settings(self.name, self.config, call)
        work_auto = self.name == "AUTO"
        log = AutoLog(core.clock, self.name, settings.log_level)
        cumulative = (not work_auto) or settings.hint == PerformanceMode.CUMULATIVE_THROUGHPUT
        if not work_auto and settings.is_set("PERFORMANCE_HINT") \
                and settings.hint != PerformanceMode.THROUGHPUT:
            user_hint = auto_config.fmt(settings.raw("PERFORMANCE_HINT"))
            log.warning(f"{PLUGIN_SRC}:441", f"User set perf_hint:{user_hint}, but MULTI supports "
                        "THROUGHPUT only")
        text = settings.priorities
        if not text and not work_auto:
            raise PluginError(f"KEY_MULTI_DEVICE_PRIORITIES key is not set for {self.name}",
                              f"{PLUGIN_SRC}:424")
        tokens = dn.parse_list(text) if text else []
        if any(t.raw.startswith(("AUTO", "MULTI")) for t in tokens):
            raise PluginError(f"The meta device should not in the device candidate list: {text}",
                              f"{PLUGIN_SRC}:426")
        names = device_list(core, text, settings.flag("ENABLE_STARTUP_FALLBACK"),
                            settings.flag("ENABLE_RUNTIME_FALLBACK"))
        explicit = any(not t.excluded for t in tokens)
        devices = meta_devices(core, names, self.name, settings, explicit)
        if not devices:
            raise PluginError(f"No available device to filter {self.name} plugin",
                              f"{PLUGIN_SRC}:1211")
        if settings.flag("PERF_COUNT"):
            devices = [d for d in devices if self._supports_profiling(d.name)]
            if not devices:
                raise PluginError("There is no device support the current configure",
                                  f"{PLUGIN_SRC}:455")
        precision = model_precision(model)
        ordered = devices if cumulative else valid_devices(core, devices, precision, self.name)
        str_devices = ",".join(d.name for d in ordered)
        for d in devices:
            for key, value in d.config.items():
                log.info(f"{PLUGIN_SRC}:479",
                         f"device:{d.name}, config:{key}={auto_config.fmt(value)}")
            log.info(f"{PLUGIN_SRC}:484", f"device:{d.name}, priority:{d.rank}")
            log.debug(f"{PLUGIN_SRC}:289", f"deviceNameWithID:{d.name}, defaultDeviceID:"
                      f"{d.default_id}, uniqueName:{d.unique_name}")
        if cumulative:
            schedule = CumulativeSchedule(self, model, settings, devices, log)
            backend = CumulativeBackend(self, model, schedule, settings, str_devices)
        elif settings.resource_aware and len(devices) > 1 and not is_stateful(model):
            schedule = DynamicSchedule(self, model, settings, devices, precision, log)
            backend = DynamicBackend(self, model, schedule, settings, str_devices)
        else:
            schedule = AutoSchedule(self, model, settings, devices, precision, log)
            backend = AutoBackend(self, model, schedule, settings, str_devices)
        schedule.from_path = from_path
        started = schedule.start()
        result = core.clock.event()

        def resolve(ev) -> None:
            result.succeed(backend if ev.value is True else ev.value)

        started.callbacks.append(resolve)
        return result

    def _supports_profiling(self, device: str) -> bool:
        try:
            supported = self.core.get_property(device, "SUPPORTED_PROPERTIES")
        except (RuntimeError, PluginError):
            return False
        return supported.get("PERF_COUNT") == "RW"

    # --- query_model ---------------------------------------------------------------------------
    def query_model(self, model, priorities: str | None, device_id: str | None,
                    config: dict[str, Any]) -> dict[str, str]:
        """Ops every listed device supports, each mapped to ``AUTO`` (or ``MULTI``).

        Without a list the source reads ``AUTO: device priority is missing for query model``,
        but the measured 2026.4.1 wheel answers ``AUTO: cannot parse valid device from `` (an
        empty list): the runtime's text wins.
        """
        call = dict(config)
        if priorities is not None:
            call["MULTI_DEVICE_PRIORITIES"] = priorities
        settings = auto_config.Settings(self.name, self.config, call)
        text = settings.priorities
        devices = meta_devices(self.core, [str(t) for t in dn.parse_list(text)], self.name,
                               settings, explicit=True) if text else []
        if not devices:
            raise PluginError(f"{self.name}: cannot parse valid device from {text}",
                              f"{PLUGIN_SRC}:571")
        supported: set[str] | None = None
        for d in devices:
            layers = set(self.core.query_model(model, d.name, d.config))
            if not layers:
                continue
            supported = layers if supported is None else supported & layers
        return {name: self.name for name in sorted(supported or ())}
