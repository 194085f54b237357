"""Memory of the AI PC as LLM pipelines use it: capacity and bandwidth.

**Capacity.** An LLM pipeline holds its weights and its KV cache on the device. A device with
memory of its own (a dGPU) has ``mem_size_gb``; on an AI PC the iGPU and the NPU have none:
they use the system memory the CPU has, up to the share their driver exposes (``mem_size_gb``
of their spec). So what one pipeline may take is the smaller of its device's limit less what
other pipelines hold *on that device*, and the system memory less what every pipeline of the
package holds (CPU, iGPU and NPU together). When the weights do not fit, the load fails with the
error of the plugin that allocates them (the GPU plugin's ``Exceeded max size of memory
allocation`` from ``intel_gpu/src/runtime/ocl/ocl_engine.cpp``, as on Linux; a host allocation
failing is ``std::bad_alloc``); a KV cache that does not fit gives GenAI's own errors
(``cache_orchestrator``, ``kv_cache_manager.hpp``).

**Bandwidth.** The CPU, the iGPU and the NPU of one package read one DRAM. Each LLM step says
how much of the bandwidth its device reaches it keeps busy (its memory time over its time: at
most 1), and the steps running at once on the package's devices share it through the runtime's
:class:`~ovlab.sim.runtime.sharing.MemoryPool` (issue 22): while their demands add up to more than
1, all of them slow down by the total. A step alone, or beside CNNs that put no memory demand
on the pool, runs as before, so single-device timings do not change.
"""

from __future__ import annotations

from ..runtime.sharing import MemoryPool

#: the pool key of a package's system memory (a calibrated platform's own domain wins)
PACKAGE = "genai:package"


def shares_system_memory(spec) -> bool:
    """The CPU and the integrated devices (iGPU, NPU) use the system memory."""
    return spec.plugin == "CPU" or spec.device_type == "integrated"


def system_memory_bytes(platform) -> float:
    cpus = [d for d in platform.devices.values() if d.plugin == "CPU"]
    return cpus[0].mem_size_gb * 1e9 if cpus else float("inf")


def _held(core) -> dict[str, float]:
    """Bytes each device's loaded LLM pipelines hold (kept on the Core, per device)."""
    held = getattr(core, "_genai_memory", None)
    if held is None:
        held = core._genai_memory = {}
    return held


def free_bytes(core, device: str) -> float:
    """What a new allocation on ``device`` may take: its own limit less what is held there, and
    (for the package's devices) the system memory less what the package holds."""
    platform = core.platform
    spec = platform.devices[device]
    held = _held(core)
    free = spec.mem_size_gb * 1e9 - held.get(device, 0.0)
    if shares_system_memory(spec):
        package = sum(b for d, b in held.items() if shares_system_memory(platform.devices[d]))
        free = min(free, system_memory_bytes(platform) - package)
    return max(0.0, free)


def out_of_memory_error(device: str, plugin: str, required: float, occupied: float,
                        available: float) -> RuntimeError:
    """The error a plugin gives when an allocation does not fit."""
    if plugin == "GPU":
        return RuntimeError(
            "Exception from src/inference/src/cpp/core.cpp:\n"
            "[GPU] Exceeded max size of memory allocation: Required "
            f"{int(required)} bytes, already occupied : {int(occupied)} bytes, but available "
            f"memory size is {int(available)} bytes")
    return RuntimeError("Exception from src/inference/src/cpp/core.cpp:\nstd::bad_alloc "
                        f"(ovlab: {device} needs {required / 1e9:.2f} GB, "
                        f"{max(0.0, available - occupied) / 1e9:.2f} GB are free)")


def reserve(core, device: str, nbytes: float) -> None:
    """Hold ``nbytes`` on ``device`` for a pipeline, or raise the plugin's out-of-memory error."""
    free = free_bytes(core, device)
    if nbytes > free:
        spec = core.platform.devices[device]
        held = _held(core).get(device, 0.0)
        raise out_of_memory_error(device, spec.plugin, nbytes, held, held + free)
    held = _held(core)
    held[device] = held.get(device, 0.0) + nbytes


def release(core, device: str, nbytes: float) -> None:
    held = _held(core)
    held[device] = max(0.0, held.get(device, 0.0) - nbytes)


def held_bytes(core, device: str) -> float:
    return _held(core).get(device, 0.0)


def attach_package_pool(core, device: str) -> None:
    """Put the package's devices (``device`` and the others sharing the system memory) on one
    memory pool, so that LLM steps on them share its bandwidth. Devices already on a pool (a
    calibrated ``share_bandwidth`` platform) keep theirs."""
    platform = core.platform
    if not shares_system_memory(platform.devices[device]):
        return
    members = [d for d, s in platform.devices.items() if shares_system_memory(s)]
    shares = [core._device_share(d) for d in members]
    pool = next((s.pool for s in shares if s.pool is not None), None)
    if pool is None:
        pool = core._memory_pools.setdefault(PACKAGE, MemoryPool())
    for share in shares:
        if share.pool is None:
            for key in share.running:  # inferences already running put no memory demand
                share._mem.setdefault(key, 0.0)
            share.pool = pool
            pool.shares.append(share)
