"""A machine: named virtual devices with their specs, its power mode and shared power budget.

Apart from the presets (``platforms.py``) so that platform files (``platform_file.py``), which
build machines, and the presets, which read platform files, do not import each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .power import PowerBudget
from .specs import DeviceSpec

POWER_MODES = ("performance", "low_power")


@dataclass
class Platform:
    """A machine: named devices (``"CPU"``, ``"GPU.0"``, ``"NPU"``...) with their specs.

    ``power_mode`` is what Intel's Dynamic Tuning Technology reports through the Intel Platform
    Framework (IPF): EPO gears 1-3 ask for performance, gears 4-7 mean low power (openvino PR
    #37909). AUTO's ``LOW_POWER_DEVICE`` acts only in ``"low_power"``; a learner flips it with
    :meth:`set_power_mode` while a model runs (on real hardware the laptop's power slider does).

    ``power_budget``: the package power that devices on one package share (``power.py``).
    """

    name: str
    devices: dict[str, DeviceSpec]
    description: str = ""
    notes: list[str] = field(default_factory=list)
    power_mode: str = "performance"
    power_budget: PowerBudget | None = None

    def __post_init__(self) -> None:
        for key, spec in self.devices.items():
            plugin = key.split(".", 1)[0]
            if plugin != spec.plugin:
                raise ValueError(f"device {key!r} is driven by the {spec.plugin} plugin: "
                                 f"name it {spec.plugin} or {spec.plugin}.<id>")
        if self.power_budget is not None:
            unknown = sorted(set(self.power_budget.draws) - set(self.devices))
            if unknown:
                raise ValueError(f"power budget: the platform has no device {unknown[0]!r} "
                                 f"(devices: {', '.join(self.devices)})")
        self.set_power_mode(self.power_mode)

    def set_power_mode(self, mode: str) -> None:
        """``"performance"`` or ``"low_power"`` (the platform's power state, read by AUTO)."""
        if mode not in POWER_MODES:
            raise ValueError(f"power mode must be one of {', '.join(POWER_MODES)}, got {mode!r}")
        self.power_mode = mode

    def device_key(self, name: str) -> str | None:
        """This platform's key for a device as OpenVINO spells it, or None if it has none.

        ``available_devices`` lists a lone GPU as ``"GPU"`` while the platform (and every record
        of a run) keys it ``"GPU.0"``: resolving a name here, once, keeps a view from missing a
        device it ran on (``"GPU"`` is ``"GPU.0"`` where the platform has that).
        """
        return resolve_device_name(name, self.devices)

    def with_device(self, name: str, spec: DeviceSpec) -> Platform:
        """A copy of this platform with ``name`` added or replaced by ``spec``."""
        devices = dict(self.devices)
        devices[name] = spec
        return Platform(f"{self.name}+{name}", devices, self.description, list(self.notes),
                        self.power_mode, self.power_budget)

    def without(self, name: str) -> Platform:
        devices = {k: v for k, v in self.devices.items() if k != name}
        budget = self.power_budget.without(name) if self.power_budget is not None else None
        return Platform(f"{self.name}-{name}", devices, self.description, list(self.notes),
                        self.power_mode, budget)

    def with_power_budget(self, budget: PowerBudget | None) -> Platform:
        """A copy with another shared power budget (None: every device runs on its own)."""
        return Platform(self.name, dict(self.devices), self.description, list(self.notes),
                        self.power_mode, budget)

    def __repr__(self) -> str:
        return f"<Platform {self.name}: {', '.join(self.devices)}>"


def resolve_device_name(name: str | None, keys) -> str | None:
    """``name`` as one of ``keys`` (device names of a platform or of a run's records): itself,
    or ``"GPU"`` -> ``"GPU.0"`` (a bare plugin name means its first device, as OpenVINO's
    device id ``""`` does); None if no key matches."""
    if not name:
        return None
    keys = list(keys)
    if name in keys:
        return name
    if "." not in name:
        ids = sorted(k for k in keys if k.split(".", 1)[0] == name and "." in k)
        if ids:
            return ids[0]
    if name.endswith(".0") and name[:-2] in keys:
        return name[:-2]
    return None
