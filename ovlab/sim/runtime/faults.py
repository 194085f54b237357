"""Fault injection: tell a device to fail a compile or its n-th inference.

Fallbacks can only be taught if devices fail on demand. ``core.faults.fail_compile("GPU")``
makes the next compile on that GPU fail (``times=None``: every compile);
``core.faults.fail_inference("GPU", nth=5)`` makes the 5th inference that starts on it from now on
fail (``count`` consecutive ones, ``count=None``: all of them from the n-th on).

Device names are read as OpenVINO reads them and resolved to the device that runs the work: on the
laptop ``GPU`` is ``GPU.0`` (its only GPU, which ``available_devices`` lists as ``GPU``), on the
workstation ``GPU`` is ``GPU.0`` and ``GPU.1`` the other one. A name the platform has no device
for, a virtual device (AUTO, HETERO...: a fault belongs to the hardware under them), and counts
that are not positive whole numbers are refused with a ``ValueError`` or ``TypeError`` naming
what is wrong; nothing is armed then.
"""

from __future__ import annotations

import numbers


def _count(value, name: str, allow_none: bool) -> int | None:
    """A positive whole number (or None where allowed), else a clear error."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"ovlab faults: {name} must be a whole number"
                        f"{' or None' if allow_none else ''}, got {value!r}")
    if value < 1:
        raise ValueError(f"ovlab faults: {name} must be at least 1, got {value!r}"
                         + (" (None means every one)" if allow_none else ""))
    return int(value)


class Faults:
    def __init__(self, core=None) -> None:
        self._core = core  # resolves device names (None: names are taken as they are)
        self._compile: dict[str, int | None] = {}
        self._infer: dict[str, list] = {}  # device -> [started_count, first_fail, count]

    def _device(self, name) -> str:
        """The canonical device (``GPU`` -> ``GPU.0``) that runs work sent to ``name``."""
        core = self._core
        if core is None:
            return str(name)
        devices = sorted(core.platform.devices)
        listed = ", ".join(core.available_devices)
        where = f"the {core.platform.name} platform (devices: {listed})"
        text = str(name) if isinstance(name, str) else None
        plugin_name, _, device_id = (text or "").partition(".")
        plugin = core._plugins.get(plugin_name) if text else None
        if plugin is not None and plugin.virtual:
            raise ValueError(f"ovlab faults: {text!r} is a virtual device; inject the fault on "
                             f"the hardware device under it, one of {where}")
        if plugin is None or not hasattr(plugin, "resolve"):
            raise ValueError(f"ovlab faults: no device {name!r} on {where}")
        try:
            canonical, _spec = plugin.resolve(device_id or None)
        except Exception:  # noqa: BLE001 - the plugin's own error names OpenVINO's check
            raise ValueError(f"ovlab faults: no device {name!r} on {where}") from None
        if canonical not in devices:
            raise ValueError(f"ovlab faults: no device {name!r} on {where}")
        return canonical

    def fail_compile(self, device: str, times: int | None = 1) -> None:
        """The next ``times`` compiles on ``device`` fail (``None``: all of them)."""
        times = _count(times, "times", allow_none=True)
        self._compile[self._device(device)] = times

    def fail_inference(self, device: str, nth: int = 1, count: int | None = 1) -> None:
        """Inferences number ``nth`` .. ``nth + count - 1`` on ``device`` (counted from now) fail."""
        nth = _count(nth, "nth (counted from 1)", allow_none=False)
        count = _count(count, "count", allow_none=True)
        self._infer[self._device(device)] = [0, nth, count]

    def clear(self) -> None:
        self._compile.clear()
        self._infer.clear()

    # --- used by the hardware plugins ------------------------------------------------------
    def take_compile_failure(self, device: str) -> bool:
        if device not in self._compile:
            return False
        left = self._compile[device]
        if left is None:
            return True
        if left <= 1:
            del self._compile[device]
        else:
            self._compile[device] = left - 1
        return True

    def take_inference_failure(self, device: str) -> bool:
        state = self._infer.get(device)
        if state is None:
            return False
        state[0] += 1
        n, first, count = state
        if n < first:
            return False
        if count is None or n < first + count:
            return True
        del self._infer[device]
        return False
