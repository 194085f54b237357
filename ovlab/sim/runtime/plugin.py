"""The plugin interface every device family implements (CPU/GPU/NPU, AUTO, MULTI, HETERO, BATCH)."""

from __future__ import annotations

from typing import Any

from ..errors import PluginError


class Plugin:
    """One OpenVINO plugin, registered in a Core under ``name``."""

    #: the ``description`` of ``core.get_versions(name)``
    description = ""
    virtual = False

    def __init__(self, core, name: str) -> None:
        self.core = core
        self.name = name
        self.config: dict[str, Any] = {}  # what core.set_property(name, ...) stored

    # --- discovery -----------------------------------------------------------------------
    def device_ids(self) -> list[str]:
        """Ids this plugin reports in AVAILABLE_DEVICES ([] = no device, virtual plugins too)."""
        return []

    # --- properties --------------------------------------------------------------------------
    def get_property(self, key: str, options: dict | None = None) -> Any:
        raise PluginError(f"Unsupported property {key} by {self.name} plugin.")

    def set_property(self, props: dict[str, Any]) -> None:
        for key in props:
            raise PluginError(f"NotFound: Unsupported property {key} by {self.name} plugin.")

    # --- models ------------------------------------------------------------------------------
    def start_compile(self, model, priorities: str | None, device_id: str | None,
                      config: dict[str, Any], *, from_path: bool = False):
        """Begin compiling; return a clock event whose value is a Backend or a PluginError.

        ``from_path``: the user called ``compile_model(path, ...)``, which reaches the plugin's
        path overload (only AUTO/MULTI behave differently: they compile their devices from the
        path, so without implicit batching).

        Errors in the arguments (names, config) raise :class:`PluginError` at once; failures
        that take time (a device failing to compile) come back as the event's value.
        """
        raise NotImplementedError

    def compile(self, model, priorities: str | None, device_id: str | None,
                config: dict[str, Any]):
        """Compile ``model`` (blocking: advances the clock by the compile time) -> Backend."""
        ev = self.start_compile(model, priorities, device_id, config)
        result = self.core.clock.run_until(ev, f"the compile on {self.name}")
        if isinstance(result, BaseException):
            raise result
        return result

    def query_model(self, model, priorities: str | None, device_id: str | None,
                    config: dict[str, Any]) -> dict[str, str]:
        raise NotImplementedError
