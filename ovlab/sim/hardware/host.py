"""The CPU ovlab runs on, described from ``/proc/cpuinfo``: its name, cores, clock and ISA.

Two users: ``ovlab calibrate`` and the ``this-machine`` platform (the peak FLOP/s of the fit, the
cache key of the calibrated platform), and the ``host`` platform (:func:`host_platform`), which
names the machine as the real OpenVINO CPU plugin would (``FULL_DEVICE_NAME``,
``OPTIMIZATION_CAPABILITIES``, ``RANGE_FOR_STREAMS``, the default inference precision) while its
timing stays the ``cpu`` preset's (it is not measured: ``this-machine`` is).

Everything reads the machine through :func:`describe`, and it through :data:`CPUINFO`, so a test
can describe another machine (``tests/conformance/conftest.py`` runs the conformance tests once
more with the host described as another vendor's CPU).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from .devices import VM_CPU
from .machine import Platform
from .specs import DeviceSpec

CPUINFO = Path("/proc/cpuinfo")

# oneDNN's ISA levels the CPU plugin asks for (``mayiuse``), as Linux names their flags
_AVX512_CORE = {"avx512f", "avx512bw", "avx512vl", "avx512dq"}
_AVX2_VNNI_2 = {"avx_vnni_int8", "avx_ne_convert"}


@dataclass(frozen=True)
class HostCPU:
    """What the kernel says about the CPU (``/proc/cpuinfo``; else guesses)."""

    model: str  # "model name": the brand string, which OpenVINO reports as FULL_DEVICE_NAME
    cores: int  # physical cores
    threads: int  # logical CPUs this process may use
    clock_ghz: float
    flags: frozenset[str]

    @property
    def vendor(self) -> str:
        return "Intel" if "intel" in self.model.lower() else \
            "AMD" if "amd" in self.model.lower() else "other"


def parse_cpuinfo(text: str, usable: int | None = None) -> HostCPU:
    """A :class:`HostCPU` from the text of ``/proc/cpuinfo``; ``usable`` logical CPUs (default:
    the processors it lists)."""
    model, flags, mhz, cores, siblings, sockets, processors = "", frozenset(), [], None, None, \
        set(), 0
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if key == "processor":
            processors += 1
        elif key == "model name" and not model:
            model = " ".join(value.split())
        elif key == "cpu MHz":
            mhz.append(float(value))
        elif key == "flags" and not flags:
            flags = frozenset(value.split())
        elif key == "cpu cores":
            cores = int(value)
        elif key == "siblings":
            siblings = int(value)
        elif key == "physical id":
            sockets.add(value)
    threads = usable or processors or 1
    physical = cores * max(1, len(sockets)) if cores else threads
    if cores and siblings and siblings > cores:  # SMT: two logical CPUs per core
        physical = max(1, threads * cores // siblings)
    return HostCPU(model or "x86-64 CPU", max(1, min(physical, threads)), threads,
                   max(mhz) / 1000 if mhz else 3.0, flags)


def describe() -> HostCPU:
    """This machine's CPU (the logical CPUs this process may run on)."""
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count() or 1
    try:
        text = CPUINFO.read_text(encoding="ascii", errors="replace")
    except OSError:
        text = ""
    return parse_cpuinfo(text, usable)


def capabilities(flags: frozenset[str] | set[str]) -> tuple[str, ...]:
    """``OPTIMIZATION_CAPABILITIES`` as the CPU plugin builds it (``plugin.cpp``, 2026.4):
    BF16 with AVX512_BF16 or AVX2-VNNI-2, WINOGRAD with AVX-512, FP16 with AVX512-FP16 or
    AVX2-VNNI-2."""
    caps = []
    if "avx512_bf16" in flags or _AVX2_VNNI_2 <= flags:
        caps.append("BF16")
    if _AVX512_CORE <= flags:
        caps.append("WINOGRAD")
    caps.append("FP32")
    if "avx512_fp16" in flags or _AVX2_VNNI_2 <= flags:
        caps.append("FP16")
    return (*caps, "INT8", "BIN", "EXPORT_IMPORT")


def inference_precision(flags: frozenset[str] | set[str]) -> str:
    """The CPU plugin's default ``INFERENCE_PRECISION_HINT``: bf16 where AVX512_BF16 or AMX
    computes it natively, else f32."""
    return "bf16" if {"avx512_bf16", "amx_bf16"} & flags else "f32"


def host_spec(host: HostCPU | None = None, base: DeviceSpec = VM_CPU) -> DeviceSpec:
    """``base`` (the ``cpu`` preset's CPU) named and shaped as this machine's CPU."""
    host = host or describe()
    return replace(base, full_name=host.model, capabilities=capabilities(host.flags),
                   inference_precision=inference_precision(host.flags),
                   range_for_streams=(1, host.threads), streams_throughput=host.cores,
                   extra={"cores": host.cores, "threads": host.threads,
                          "clock_ghz": round(host.clock_ghz, 3)})


def host_platform(host: HostCPU | None = None) -> Platform:
    """The ``host`` platform: this machine's CPU as OpenVINO names it, timed as the ``cpu``
    preset (not measured; ``this-machine`` is)."""
    host = host or describe()
    return Platform("host", {"CPU": host_spec(host)},
                    f"This machine's CPU ({host.model}, {host.threads} logical CPUs) as OpenVINO "
                    "names it, timed as the 'cpu' preset (not measured: 'this-machine' is).")
