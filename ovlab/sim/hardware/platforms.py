"""Platform presets: the machines the seed documents talk about, as virtual hardware.

Figures are public spec-sheet numbers (peak FLOP/s from cores x vector width x clock, memory
bandwidth of the memory type) and the seeds' observations, which calibrate the rest:
GoogLeNet-v1 takes ~15-30 ms on the laptop CPU while the GPU compiles and ~3-16 ms on its Iris Xe
iGPU; an iGPU compile of GoogLeNet takes several seconds (the seed's switch comes after ~7 s) and
about 10 s for big models. ``benchmarks/`` and ``tests/runtime/test_calibration.py`` check the
presets against those figures.

The devices themselves are in :mod:`ovlab.sim.hardware.devices`.

Presets: ``laptop`` (default; Core i7-1165G7 + Iris Xe), ``workstation`` (CPU, iGPU ``GPU.0``, dGPU
``GPU.1`` like Iris Xe MAX, ``NPU``), ``cpu`` (CPU only, like Binder or the measured 2-vCPU VM) and
``multi-gpu`` (a server CPU and three discrete GPUs): the seed's machines, and (issue 13) the
platforms of Intel's published OpenVINO 2024.3 benchmarks, fitted on their ResNet-50 rows:
``i7-1185g7`` (CPU + Iris Xe, with a shared power budget), ``core-ultra-7-165h`` (CPU, Arc iGPU,
NPU 3720, shared power budget), ``arc-a770m`` (host CPU + Arc A770M dGPU), ``flex-170`` (Xeon +
Flex 170) and ``i9-13900k`` (CPU only). ``cpu`` is fitted on the real OpenVINO runtime measured
on this project's machine (``benchmarks/bench_fidelity.py``). Make your own with
:class:`Platform`, ``ovlab calibrate`` (a platform file of your machine) or change one device with
``platform.with_device("GPU.0", spec.with_(compile_base_s=20))``.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from .devices import (  # noqa: F401  (re-exported: the catalogue's names)
    AI_BOOST_NPU,
    ARC_A770M,
    ARC_IGPU_165H,
    CORE_ULTRA_7_165H_CPU,
    FLEX_170,
    FLEX_170_FITTED,
    I7_1185G7_CPU,
    I7_12700H_CPU,
    I9_13900K_CPU,
    IRIS_XE,
    IRIS_XE_1185G7,
    IRIS_XE_MAX,
    KNOWN_OPS,
    LAPTOP_CPU,
    NPU_3720,
    NPU_UNSUPPORTED,
    SERVER_CPU,
    VM_CPU,
)
from .devices.fitted import FITTED
from .host import host_platform
from .machine import POWER_MODES, Platform, resolve_device_name  # noqa: F401  (re-exported)
from .platform_file import load
from .power import PowerBudget
from .specs import with_memory_physics

#: platforms made on demand from the machine ovlab runs on, by name: ``host`` (this CPU as
#: OpenVINO names it, timed as ``cpu``) and, registered by ``ovlab/__init__.py`` from the
#: calibration layer above, ``this-machine`` (this CPU measured with the real runtime)
ON_DEMAND: dict[str, Callable[[], Platform]] = {"host": lambda: host_platform()}


def register_platform(name: str, make: Callable[[], Platform]) -> None:
    """Make ``preset(name)`` (and ``ov.Core(platform=name)``) call ``make()``."""
    ON_DEMAND[name] = make



def preset(name: str) -> Platform:
    """A fresh copy of a preset platform, a platform made on demand (``host``,
    ``this-machine``), or the platform of a platform file (``*.json``, as ``ovlab calibrate``
    writes them)."""
    if name in PRESETS:
        return PRESETS[name]()
    if name in ON_DEMAND:
        return ON_DEMAND[name]()
    from . import catalogue

    bare = name[len("family:"):] if name.startswith("family:") else name
    if bare in catalogue.names():
        return catalogue.platform(bare)
    if name.lower().endswith(".json") or os.path.sep in name or "/" in name:
        return load(name)
    raise ValueError(f"unknown platform {name!r}; presets are {', '.join(PRESETS)}, "
                     f"the catalogue of Intel's published platforms has "
                     f"{', '.join(n for n in catalogue.names() if n not in PRESETS)} "
                     "('ovlab platforms' lists them), "
                     f"{', '.join(ON_DEMAND)} describe this machine, "
                     "or give a platform file (my-machine.json)")


def memory_physics(platform: Platform) -> Platform:
    """``platform`` with issue 22's memory physics on for its fitted devices (``fuse_ops``): the
    CPU, iGPU and NPU of a package share one DRAM (memory domain ``"package"``), a dGPU has its
    own; the seed's devices (flex-170's host) keep the older arithmetic, to which the physics do
    not apply. The published platforms are built this way and fitted so
    (``benchmarks/fit_presets.py --write``)."""
    devices = dict(platform.devices)
    for device, spec in platform.devices.items():
        if not spec.fuse_ops:
            continue
        cores = 1
        if spec.plugin == "CPU":
            cores = spec.extra.get("cores") or (spec.p_cores + spec.e_cores) or 1
        domain = "" if spec.device_type == "discrete" else "package"
        devices[device] = with_memory_physics(spec, cores, domain)
    return Platform(platform.name, devices, platform.description, list(platform.notes),
                    platform.power_mode, platform.power_budget)


#: the platforms of Intel's published benchmarks, fitted with the memory physics on
PUBLISHED = ("i7-1185g7", "i9-13900k", "core-ultra-7-165h", "arc-a770m", "flex-170")

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
        "An AI PC: Core Ultra 7 165H CPU, its Arc iGPU and the NPU 3720 (fitted on Intel's "
        "OpenVINO 2024.3 ResNet-50 rows).",
        power_budget=PowerBudget(FITTED["power"]["core-ultra-7-165h"],
                                 {"CPU": 28.0, "GPU.0": 20.0})),
    "i7-1185g7": lambda: Platform(
        "i7-1185g7", {"CPU": I7_1185G7_CPU, "GPU.0": IRIS_XE_1185G7},
        "Core i7-1185G7 and its Iris Xe iGPU, as in Intel's OpenVINO 2024.3 benchmarks (the "
        "seed laptop's sibling; fitted on the ResNet-50 rows).",
        power_budget=PowerBudget(FITTED["power"]["i7-1185g7"], {"CPU": 28.0, "GPU.0": 20.0})),
    "arc-a770m": lambda: Platform(
        "arc-a770m", {"CPU": I7_12700H_CPU, "GPU.0": ARC_A770M},
        "A laptop with an Arc A770M dGPU (GPU.0) and a Core i7-12700H host, as in Intel's "
        "OpenVINO 2024.3 benchmarks (the dGPU fitted on the ResNet-50 rows)."),
    "flex-170": lambda: Platform(
        "flex-170", {"CPU": SERVER_CPU, "GPU.0": FLEX_170_FITTED},
        "A Xeon server with one Data Center GPU Flex 170, as in Intel's OpenVINO 2024.3 "
        "benchmarks (the GPU fitted on the ResNet-50 rows)."),
    "i9-13900k": lambda: Platform(
        "i9-13900k", {"CPU": I9_13900K_CPU},
        "A Core i9-13900K desktop, CPU only, as in Intel's OpenVINO 2024.3 benchmarks (fitted "
        "on the ResNet-50 rows)."),
}
for _name in PUBLISHED:
    PRESETS[_name] = (lambda make: lambda: memory_physics(make()))(PRESETS[_name])
del _name
