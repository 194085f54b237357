"""Platform presets: the machines the seed documents talk about, as virtual hardware.

Figures are public spec-sheet numbers (peak FLOP/s from cores x vector width x clock, memory
bandwidth of the memory type) and the seeds' observations, which calibrate the rest:
GoogLeNet-v1 takes ~15-30 ms on the laptop CPU while the GPU compiles and ~3-16 ms on its Iris Xe
iGPU; an iGPU compile of GoogLeNet takes several seconds (the seed's switch comes after ~7 s) and
about 10 s for big models. ``benchmarks/`` and ``tests/runtime/test_calibration.py`` check the
presets against those figures.

The devices themselves are in :mod:`ovlab.hardware.devices`.

Presets: ``laptop`` (default; Core i7-1165G7 + Iris Xe), ``workstation`` (CPU, iGPU ``GPU.0``, dGPU
``GPU.1`` like Iris Xe MAX, ``NPU``), ``cpu`` (CPU only, like Binder or the measured 2-vCPU VM) and
``multi-gpu`` (a server CPU and three discrete GPUs). Make your own with :class:`Platform`, or
change one device with ``platform.with_device("GPU.0", spec.with_(compile_base_s=20))``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .devices import (  # noqa: F401  (re-exported: the catalogue's names)
    AI_BOOST_NPU,
    ARC_IGPU_165H,
    CORE_ULTRA_7_165H_CPU,
    FLEX_170,
    IRIS_XE,
    IRIS_XE_MAX,
    KNOWN_OPS,
    LAPTOP_CPU,
    NPU_3720,
    NPU_UNSUPPORTED,
    SERVER_CPU,
    VM_CPU,
)
from .specs import DeviceSpec

POWER_MODES = ("performance", "low_power")


@dataclass
class Platform:
    """A machine: named devices (``"CPU"``, ``"GPU.0"``, ``"NPU"``...) with their specs.

    ``power_mode`` is what Intel's Dynamic Tuning Technology reports through the Intel Platform
    Framework (IPF): EPO gears 1-3 ask for performance, gears 4-7 mean low power (openvino PR
    #37909). AUTO's ``LOW_POWER_DEVICE`` acts only in ``"low_power"``; a learner flips it with
    :meth:`set_power_mode` while a model runs (on real hardware the laptop's power slider does).
    """

    name: str
    devices: dict[str, DeviceSpec]
    description: str = ""
    notes: list[str] = field(default_factory=list)
    power_mode: str = "performance"

    def __post_init__(self) -> None:
        for key, spec in self.devices.items():
            plugin = key.split(".", 1)[0]
            if plugin != spec.plugin:
                raise ValueError(f"device {key!r} is driven by the {spec.plugin} plugin: "
                                 f"name it {spec.plugin} or {spec.plugin}.<id>")
        self.set_power_mode(self.power_mode)

    def set_power_mode(self, mode: str) -> None:
        """``"performance"`` or ``"low_power"`` (the platform's power state, read by AUTO)."""
        if mode not in POWER_MODES:
            raise ValueError(f"power mode must be one of {', '.join(POWER_MODES)}, got {mode!r}")
        self.power_mode = mode

    def with_device(self, name: str, spec: DeviceSpec) -> Platform:
        """A copy of this platform with ``name`` added or replaced by ``spec``."""
        devices = dict(self.devices)
        devices[name] = spec
        return Platform(f"{self.name}+{name}", devices, self.description, list(self.notes),
                        self.power_mode)

    def without(self, name: str) -> Platform:
        devices = {k: v for k, v in self.devices.items() if k != name}
        return Platform(f"{self.name}-{name}", devices, self.description, list(self.notes),
                        self.power_mode)

    def __repr__(self) -> str:
        return f"<Platform {self.name}: {', '.join(self.devices)}>"


def preset(name: str) -> Platform:
    """A fresh copy of a preset platform."""
    if name not in PRESETS:
        raise ValueError(f"unknown platform {name!r}; presets are {', '.join(PRESETS)}")
    return PRESETS[name]()


PRESETS = {
    "laptop": lambda: Platform(
        "laptop", {"CPU": LAPTOP_CPU, "GPU.0": IRIS_XE},
        "The seed's laptop: Core i7-1165G7 CPU and its Iris Xe iGPU."),
    "workstation": lambda: Platform(
        "workstation",
        {"CPU": LAPTOP_CPU, "GPU.0": IRIS_XE, "GPU.1": IRIS_XE_MAX, "NPU": AI_BOOST_NPU},
        "A teaching workstation: CPU, Iris Xe iGPU (GPU.0), Iris Xe MAX dGPU (GPU.1) and an NPU."),
    "cpu": lambda: Platform(
        "cpu", {"CPU": VM_CPU},
        "CPU only, like Binder or the 2-vCPU VM where the real runtime was measured."),
    "multi-gpu": lambda: Platform(
        "multi-gpu",
        {"CPU": SERVER_CPU, "GPU.0": FLEX_170, "GPU.1": FLEX_170, "GPU.2": FLEX_170},
        "A server: Xeon CPU and three Flex 170 discrete GPUs."),
    "core-ultra-7-165h": lambda: Platform(
        "core-ultra-7-165h",
        {"CPU": CORE_ULTRA_7_165H_CPU, "GPU.0": ARC_IGPU_165H, "NPU": NPU_3720},
        "An AI PC: Core Ultra 7 165H CPU, its Arc iGPU and the NPU 3720."),
}
