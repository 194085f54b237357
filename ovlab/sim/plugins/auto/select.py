"""How AUTO turns a device string into candidates and picks one (``auto/src/plugin.cpp``).

Three steps, each with its own surprise for a learner:

1. :func:`device_list` (``get_device_list``): plain ``AUTO`` takes every available device except the
   block list (``NPU`` and non-Intel GPUs); ``AUTO:-CPU`` takes the same minus the excluded ones;
   an explicit list expands ``GPU`` into ``GPU.0,GPU.1`` and keeps only what it names, so naming
   ``NPU`` makes it a candidate.
2. :func:`meta_devices` (``parse_meta_devices``): one :class:`DeviceInfo` per concrete device with
   the config that device will be compiled with, its ``(n)`` worker count and its *rank* (position
   in an explicit list, counted over the expanded list, so ``AUTO:GPU,CPU`` ranks ``GPU.0`` before
   ``GPU.1``). Names that no plugin knows (``AUTO:FOO``) are dropped silently.
3. :func:`valid_devices` and :meth:`PriorityRegistry.select` (``get_valid_device``,
   ``select_device``): the precision filter (only with more than one candidate), the default order
   dGPU > iGPU > others > CPU, then model priority.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....properties.hint import PerformanceMode
from ...errors import PluginError
from ...runtime import config as cfgmod
from ...runtime import device_name as dn
from .config import CORE_PASS_KEYS

PLUGIN_SRC = "src/plugins/auto/src/plugin.cpp"
BLOCKED_PLUGINS = ("NPU",)


@dataclass
class DeviceInfo:
    """One concrete candidate (``DeviceInformation`` in OpenVINO)."""

    name: str  # "GPU.0", "CPU", "NPU"
    config: dict[str, Any] = field(default_factory=dict)  # what the device is compiled with
    requests: int | None = None  # the "(n)" of "GPU(4)": worker requests AUTO creates there
    default_id: str = ""
    unique_name: str = ""  # "<FULL_DEVICE_NAME>_<id>" for GPUs, "<NAME>_<id>" otherwise
    rank: int = 0  # position in an explicit list (0 everywhere for a default list)

    @property
    def plugin(self) -> str:
        return self.name.split(".", 1)[0]


# --- queries through the Core, failing softly as the real plugin does --------------------------
def _query(core, device: str, key: str, options: dict | None = None) -> Any:
    """``core.get_property(device, key)``; None when the device cannot answer."""
    try:
        return core.get_property(device, key, options)
    except (RuntimeError, PluginError):
        return None


def _hardware_ids(core, plugin_name: str) -> list[str] | None:
    """The plugin's AVAILABLE_DEVICES ids (without empty ids); None if the plugin is unknown."""
    plugin = core._plugins.get(plugin_name)
    if plugin is None or plugin.virtual:
        return None
    ids = _query(core, plugin_name, "AVAILABLE_DEVICES")
    return [i for i in (ids or []) if i]


def _is_supported_device(core, device: str) -> bool:
    """Not in the block list: NPU, and GPUs whose architecture is not Intel's."""
    plugin = device.split(".", 1)[0]
    if plugin in BLOCKED_PLUGINS:
        return False
    if plugin == "GPU":
        arch = _query(core, device, "DEVICE_ARCHITECTURE") or ""
        return "vendor=0x8086" in arch
    return True


def _with_ids(core, token: str) -> list[str]:
    """``GPU`` -> ``["GPU.0", "GPU.1"]``; for a name no plugin reports, the name without its
    id (``FOO.1`` -> ``FOO``, ``.cpu`` -> ``""``), as ``get_device_list`` keeps it when the
    Core's AVAILABLE_DEVICES query fails."""
    plugin = token.split(".", 1)[0]
    ids = _hardware_ids(core, plugin)
    if ids is None:
        return [plugin]
    return [f"{plugin}.{i}" for i in ids]


# --- step 1: the candidate names ----------------------------------------------------------------
def device_list(core, priorities: str, startup_fallback: bool, runtime_fallback: bool) -> list[str]:
    """Candidate device names from a priority string (``get_device_list``)."""
    tokens = dn.parse_list(priorities) if priorities else []
    excluded = [t.raw for t in tokens if t.excluded]
    wanted = [t for t in tokens if not t.excluded]
    merged: list[str] = []

    def is_excluded(device: str) -> bool:
        for item in excluded:
            name = device
            if "." in name and "." not in item:
                name = name.split(".", 1)[0]
            if name in item:
                return True
        return False

    if not wanted:
        for device in core.available_devices:
            if not is_excluded(device) and _is_supported_device(core, device):
                merged.append(device)
    else:
        for tok in wanted:
            if tok.name.startswith("CPU") and not startup_fallback and not runtime_fallback:
                continue  # both fallbacks off: CPU is not even a candidate
            text = str(tok)
            if "(" in text:
                # "GPU(4)" is no device name: it stays whole and is expanded with its (n) later
                if text not in merged:
                    merged.append(text)
                continue
            expanded = _with_ids(core, tok.name)
            if not any(tok.name in item for item in expanded):
                if text not in merged:
                    merged.append(text)
                continue
            for item in expanded:
                if tok.name not in item:
                    continue
                real = item if "." in item else item + ".0"
                if any(real in ex for ex in excluded):  # is_any_dev: no trimming here
                    continue
                if item not in merged:
                    merged.append(item)
    if not merged:
        raise PluginError("Please, check environment due to no supported devices can be used",
                          f"{PLUGIN_SRC}:1199")
    return merged


# --- step 2: one DeviceInfo per device ----------------------------------------------------------
def _device_keys(core, device: str) -> set[str] | None:
    """Keys ``device`` accepts in a compile config (its RW properties plus the Core's keys)."""
    supported = _query(core, device, "SUPPORTED_PROPERTIES")
    if not isinstance(supported, dict):
        return None
    return {k for k, v in supported.items() if v != "RO"} | set(CORE_PASS_KEYS)


def device_config(core, device: str, plugin_name: str, settings) -> dict[str, Any] | None:
    """The config ``device`` gets (``get_device_config``), or None if the device is unusable.

    The user's properties that the device supports, then its ``DEVICE_PROPERTIES`` entry (the
    plugin-wide key ``GPU`` first, then ``GPU.0``), then the default hint: AUTO gives ``LATENCY``
    to a device with neither a user hint nor a ``DEVICE_PROPERTIES`` entry (the documented
    behaviour; the docs say ``GPU`` is an alias of ``GPU.0``, so an entry under ``GPU`` counts for
    ``GPU.0``), MULTI gives ``THROUGHPUT`` unless the user set a hint, NUM_STREAMS,
    INFERENCE_NUM_THREADS or device properties. ``CUMULATIVE_THROUGHPUT`` becomes ``THROUGHPUT``.
    """
    plugin = device.split(":", 1)[0] if ":" in device else device.split(".", 1)[0]
    hw = core._plugins.get(plugin)
    if hw is None:
        return None
    # the CPU answers get_property whatever the id ("CPU.x", "CPU:x"): such a candidate stays
    # and fails to compile (the CPU has no ids)
    if not hw.virtual and "." in device and plugin != "CPU":
        ids = _hardware_ids(core, plugin) or []
        if device.split(".", 1)[1] not in ids:
            return None
    keys = _device_keys(core, device)
    if keys is None:
        return None
    # the list is the meta device's own: a nested AUTO/MULTI gets none
    cfg = {k: v for k, v in settings.user.items() if k in keys and k != "MULTI_DEVICE_PRIORITIES"}
    has_device_props = False
    for entry in (plugin, device):
        props = settings.device_properties.get(entry)
        if props is not None:
            has_device_props = True
            cfg.update({k: v for k, v in props.items() if k in keys})
    hint_set = settings.is_set("PERFORMANCE_HINT")
    if plugin_name == "AUTO" and not hint_set and not has_device_props:
        cfg["PERFORMANCE_HINT"] = PerformanceMode.LATENCY
    multi_tuned = (hint_set or has_device_props or settings.is_set("NUM_STREAMS")
                   or settings.is_set("INFERENCE_NUM_THREADS"))
    if plugin_name == "MULTI" and not multi_tuned:
        cfg["PERFORMANCE_HINT"] = PerformanceMode.THROUGHPUT
    mode = cfg.get("PERFORMANCE_HINT")
    if mode not in (None, "") and \
            cfgmod.performance_mode(mode) is PerformanceMode.CUMULATIVE_THROUGHPUT:
        cfg["PERFORMANCE_HINT"] = PerformanceMode.THROUGHPUT
    return cfg


def meta_devices(core, names: list[str], plugin_name: str, settings,
                 explicit: bool) -> list[DeviceInfo]:
    """Concrete devices with configs, worker counts, unique names and ranks."""
    out: list[DeviceInfo] = []
    rank = 0
    for text in names:
        tok = dn.parse_list(text)[0]
        requests = dn.requests_of(text)  # std::stol's errors, in the list's order
        parsed = dn.parse(tok.name)
        concrete = [tok.name]
        if parsed.device_id is None:
            ids = _hardware_ids(core, parsed.plugin)
            if ids:
                concrete = [f"{parsed.plugin}.{i}" for i in ids]
        for device in concrete:
            default_id = ""
            if "." not in device:
                default_id = str(_query(core, device, "DEVICE_ID") or "")
            dev_id = device.split(".", 1)[1] if "." in device else default_id
            full = _query(core, device, "FULL_DEVICE_NAME") if device.startswith("GPU") else None
            unique = f"{full or device.split('.', 1)[0]}_{dev_id}"
            cfg = device_config(core, device, plugin_name, settings)
            if cfg is None:
                continue  # OpenVINO drops devices it cannot build a config for
            if any(d.name == device for d in out):
                continue
            out.append(DeviceInfo(device, cfg, requests, default_id, unique, rank))
        if explicit:
            rank += 1
    return out


# --- step 3: validity, order and model priority -------------------------------------------------
def _capabilities(core, device: str) -> list[str]:
    return list(_query(core, device, "OPTIMIZATION_CAPABILITIES") or [])


def _device_type(core, device: str) -> str:
    value = _query(core, device, "DEVICE_TYPE")
    return "" if value is None else str(getattr(value, "name", value)).lower()


def valid_devices(core, devices: list[DeviceInfo], precision: str, tag: str) -> list[DeviceInfo]:
    """``get_valid_device``: precision filter, then dGPU > iGPU > others > CPU (or the ranks)."""
    if not devices:
        raise PluginError(f"No available device to select in {tag}", f"{PLUGIN_SRC}:644")
    default_list = all(d.rank == 0 for d in devices)
    buckets: dict[str, list[DeviceInfo]] = {"dGPU": [], "iGPU": [], "Others": [], "CPU": []}
    valid: list[DeviceInfo] = []
    for d in devices:
        caps = _capabilities(core, d.name)
        supported = precision in caps or (precision == "FP32" and "FP16" in caps)
        if not supported and len(devices) > 1:
            continue
        if d.name.startswith("CPU"):
            buckets["CPU"].append(d)
        elif d.name.startswith("GPU"):
            kind = _device_type(core, d.name)
            if kind == "integrated":
                buckets["iGPU"].append(d)
            elif kind == "discrete":
                buckets["dGPU"].append(d)
        else:
            buckets["Others"].append(d)
        valid.append(d)
    if not valid:
        raise PluginError("Cannot select any device", f"{PLUGIN_SRC}:697")
    if len(valid) == 1:
        return valid
    if default_list:
        return buckets["dGPU"] + buckets["iGPU"] + buckets["Others"] + buckets["CPU"]
    return sorted(valid, key=lambda d: d.rank)


class PriorityRegistry:
    """Which devices models of each priority hold: rank -> unique device names.

    OpenVINO keeps this map in a static member of the AUTO plugin, shared by every Core of the
    process; ovlab keeps one per Core so that separate lab exercises do not disturb each other.
    A model avoids only devices registered by *strictly higher* priority models, nothing is ever
    evicted, and the result depends on the order of compilation.
    """

    def __init__(self) -> None:
        self.by_rank: dict[int, list[str]] = {}

    def register(self, rank: int, unique_name: str) -> None:
        self.by_rank.setdefault(rank, []).append(unique_name)

    def unregister(self, rank: int, unique_name: str) -> None:
        names = self.by_rank.setdefault(rank, [])
        if unique_name in names:
            names.remove(unique_name)

    def select(self, core, devices: list[DeviceInfo], precision: str, rank: int,
               tag: str) -> DeviceInfo:
        """``select_device``: first valid device not held by a higher priority; registers it."""
        ordered = valid_devices(core, devices, precision, tag)
        last = ordered[-1]
        held = {name for r, names in self.by_rank.items() if r < rank for name in names}
        remaining = [d for d in ordered if d.unique_name not in held]
        chosen = remaining[0] if remaining else last
        self.register(rank, chosen.unique_name)
        return chosen
