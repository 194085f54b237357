"""The compiled models AUTO and MULTI return, and the properties they report.

Types follow the measured runtime (``reference/openvino-measured.md`` section 5): enums for
``PERFORMANCE_HINT``/``MODEL_PRIORITY``/``SCHEDULE_POLICY``, a bool for ``PERF_COUNT``, a list for
``EXECUTION_DEVICES``, a str for ``MULTI_DEVICE_PRIORITIES``. Anything else raises
``AUTO: not supported property X`` (``MULTI: ...`` in cumulative mode), including the fallback
switches that were accepted at compile time: they can be read only at core level.

``SUPPORTED_PROPERTIES`` follows the measured wheel, which marks some keys RW (the older source
lists all as RO); ``set_property`` is refused anyway.
"""

from __future__ import annotations

from typing import Any

from ....properties.hint import PerformanceMode
from ...errors import PluginError
from ...runtime import config as cfgmod
from ...runtime.backend import Backend, Job
from .cumulative import CumulativeSchedule
from .schedule import AutoSchedule

AUTO_COMPILED_SRC = "src/plugins/auto/src/auto_compiled_model.cpp"
CUMU_COMPILED_SRC = "src/plugins/auto/src/cumulative_compiled_model.cpp"

AUTO_SUPPORTED = {"NETWORK_NAME": "RO", "SUPPORTED_PROPERTIES": "RO", "EXECUTION_DEVICES": "RO",
                  "PERFORMANCE_HINT": "RW", "OPTIMAL_NUMBER_OF_INFER_REQUESTS": "RO",
                  "MULTI_DEVICE_PRIORITIES": "RW", "DEVICE_PROPERTIES": "RW",
                  "MODEL_PRIORITY": "RW", "LOADED_FROM_CACHE": "RO", "PERF_COUNT": "RW"}
CUMU_SUPPORTED = {"NETWORK_NAME": "RO", "SUPPORTED_PROPERTIES": "RO", "EXECUTION_DEVICES": "RO",
                  "PERFORMANCE_HINT": "RW", "OPTIMAL_NUMBER_OF_INFER_REQUESTS": "RO",
                  "DEVICE_PROPERTIES": "RW", "MODEL_PRIORITY": "RW", "LOADED_FROM_CACHE": "RO",
                  "SCHEDULE_POLICY": "RW", "PERF_COUNT": "RW", "MULTI_DEVICE_PRIORITIES": "RW"}
_SET_REFUSED = ("Not Implemented:\nIt's not possible to set property of an already compiled model. "
                "Set property to Core::compile_model during compilation")


def device_properties(device: str, backend: Backend) -> dict[str, dict[str, Any]]:
    """``{device: {key: value}}`` of one compiled device model.

    (``get_device_supported_properties`` in OpenVINO.)
    """
    values: dict[str, Any] = {}
    try:
        keys = backend.get_property("SUPPORTED_PROPERTIES")
    except (PluginError, RuntimeError):
        keys = {}
    for key in keys:
        if key == "SUPPORTED_PROPERTIES":
            continue
        try:
            values[key] = backend.get_property(key)
        except (PluginError, RuntimeError):
            continue
    return {device: values}


class _MetaBackend(Backend):
    """What AUTO and MULTI compiled models share."""

    supported: dict[str, str] = {}
    source = ""

    def __init__(self, plugin, model, schedule, settings, str_devices: str) -> None:
        super().__init__(plugin.core, model, model.get_friendly_name())
        self.plugin_name = plugin.name
        self.schedule = schedule
        self.settings = settings
        self.str_devices = str_devices

    def _unsupported(self, key: str) -> PluginError:
        return PluginError(f"{self.plugin_name}: not supported property {key}", self.source)

    def set_property(self, props: dict[str, Any]) -> None:
        raise PluginError(_SET_REFUSED, f"{self.source.rsplit(':', 1)[0]}:29")

    def get_property(self, key: str) -> Any:
        """The keys AUTO and MULTI answer alike, then the subclass's own."""
        if key == "SUPPORTED_PROPERTIES":
            return dict(self.supported)
        if key == "MULTI_DEVICE_PRIORITIES":
            return self.str_devices
        if key == "MODEL_PRIORITY":
            return self.settings.priority
        if key == "PERF_COUNT":
            return self.settings.flag("PERF_COUNT")
        if key == "EXECUTION_DEVICES":
            return self.schedule.execution_devices()
        return self._own_property(key)

    def runtime_model(self):
        """The model of the device serving now (the compiled model's runtime graph)."""
        try:
            return self.schedule.serving_backend().runtime_model()
        except PluginError:
            return self.model

    def _own_property(self, key: str) -> Any:  # pragma: no cover - abstract
        raise self._unsupported(key)


class AutoBackend(_MetaBackend):
    """An AUTO compiled model (LATENCY / THROUGHPUT): CPU helper, hand-over, fallback."""

    supported = AUTO_SUPPORTED
    source = f"{AUTO_COMPILED_SRC}:259"
    schedule: AutoSchedule

    # --- requests ------------------------------------------------------------------------
    def new_context(self) -> Any:
        s = self.schedule
        if s.passthrough and s.actual.backend is not None:
            return s.actual.backend.new_context()  # pass-through: one device request per request
        return None

    def submit(self, job: Job) -> None:
        s = self.schedule
        if s.passthrough:
            s.actual.backend.submit(job)
        else:
            s.submit(job)

    def release(self) -> None:
        s = self.schedule
        if s.actual.device is not None:
            s.registry.unregister(s.rank, s.actual.device.unique_name)

    # --- properties ------------------------------------------------------------------------
    def _own_property(self, key: str) -> Any:
        s = self.schedule
        if key == "PERFORMANCE_HINT":
            return self.settings.hint
        if key == "OPTIMAL_NUMBER_OF_INFER_REQUESTS":
            return self.optimal_number()
        if key == "NETWORK_NAME":
            ctx = s.helper if (s.helper.enabled and s.helper.ready) else s.actual
            backend = ctx.backend or s.serving_backend()
            return backend.get_property("NETWORK_NAME")
        if key == "LOADED_FROM_CACHE":
            for ctx in (s.fallback, s.actual, s.helper):
                if ctx.ready and ctx.backend is not None:
                    try:
                        return bool(ctx.backend.get_property("LOADED_FROM_CACHE"))
                    except PluginError:
                        return False
            return False
        if key == "DEVICE_PROPERTIES":
            for ctx in (s.fallback, s.actual, s.helper):
                if ctx.enabled and ctx.ready and ctx.backend is not None:
                    return device_properties(ctx.device.name, ctx.backend)
            return {}
        raise self._unsupported(key)

    def optimal_number(self) -> int:
        """OPTIMAL_NUMBER_OF_INFER_REQUESTS: the device's once it is ready; before, a guess.

        Before the actual device is ready (the CPU-helper phase) AUTO deduces a number from the
        device's config: THROUGHPUT on a device with an optimal batch size gives
        ``optimal_batch * RANGE_FOR_STREAMS[1] * 2`` (so that implicit batching can fill), other
        THROUGHPUT devices ``2 * RANGE_FOR_STREAMS[1]`` (NPU 8), LATENCY 1; capped by
        PERFORMANCE_HINT_NUM_REQUESTS when set (``AutoCompiledModel::get_property``). Given a path,
        AUTO holds no model object, so it deduces no batch size.
        """
        s = self.schedule
        if s.actual.ready and s.actual.backend is not None:
            return int(s.actual.backend.optimal_requests())
        core = self.core
        dev = s.actual.device
        cfg = dev.config
        supported = _query(core, dev.name, "SUPPORTED_PROPERTIES") or {}
        reqs = cfgmod.to_uint(cfg["PERFORMANCE_HINT_NUM_REQUESTS"]) \
            if "PERFORMANCE_HINT_NUM_REQUESTS" in cfg else None
        if "OPTIMAL_NUMBER_OF_INFER_REQUESTS" in supported:
            real = int(_query(core, dev.name, "OPTIMAL_NUMBER_OF_INFER_REQUESTS", cfg) or 0)
            if real > 0:
                if "PERFORMANCE_HINT_NUM_REQUESTS" in supported and reqs:
                    real = min(reqs, real)
                return real
        plugin_tput = ("PERFORMANCE_HINT" in supported
                       and _query(core, dev.name, "PERFORMANCE_HINT") == PerformanceMode.THROUGHPUT)
        mode = cfg.get("PERFORMANCE_HINT")
        cfg_tput = (mode not in (None, "")
                    and cfgmod.performance_mode(mode) == PerformanceMode.THROUGHPUT)
        if plugin_tput or cfg_tput:
            upper = 0
            if "RANGE_FOR_STREAMS" in supported:
                rng = _query(core, dev.name, "RANGE_FOR_STREAMS")
                upper = int(rng[1]) if rng else 0
            optimal_batch = 0
            # m_model is null when AUTO was given a path: no batch size to deduce from
            if not self.settings.batching_disabled and not s.from_path \
                    and "OPTIMAL_BATCH_SIZE" in supported:
                optimal_batch = int(_query(core, dev.name, "OPTIMAL_BATCH_SIZE",
                                           {"MODEL_PTR": self.model}) or 0)
            if optimal_batch > 1:
                requests = int(_query(core, dev.name, "PERFORMANCE_HINT_NUM_REQUESTS") or 0)
                if reqs is not None:
                    requests = reqs
                if not requests:
                    requests = optimal_batch * upper * 2
                real = max(requests, optimal_batch)
            elif "NPU" in dev.name:
                real = 8
            else:
                real = 2 * upper if upper else 4
        else:
            real = 1
        if reqs:
            real = min(reqs, real)
        return real


class CumulativeBackend(_MetaBackend):
    """A MULTI (or AUTO + CUMULATIVE_THROUGHPUT) compiled model: all devices at once."""

    supported = CUMU_SUPPORTED
    source = f"{CUMU_COMPILED_SRC}:136"
    schedule: CumulativeSchedule

    def new_context(self) -> Any:
        if self.schedule.passthrough is not None:
            return self.schedule.passthrough.new_context()
        return None

    def submit(self, job: Job) -> None:
        if self.schedule.passthrough is not None:
            self.schedule.passthrough.submit(job)
        else:
            self.schedule.submit(job)

    def runtime_model(self):
        compiled = self.schedule.compiled()
        return compiled[0].runtime_model() if compiled else self.model

    def _own_property(self, key: str) -> Any:
        s = self.schedule
        if key == "PERFORMANCE_HINT":
            # MULTI always reports THROUGHPUT; AUTO reports the CUMULATIVE_THROUGHPUT it was given
            return PerformanceMode.THROUGHPUT if self.plugin_name == "MULTI" \
                else PerformanceMode.CUMULATIVE_THROUGHPUT
        if key == "SCHEDULE_POLICY":
            return s.policy
        if key == "OPTIMAL_NUMBER_OF_INFER_REQUESTS":
            return sum(int(b.optimal_requests()) for b in s.compiled())
        if key == "NETWORK_NAME":
            return s.compiled()[0].get_property("NETWORK_NAME")
        if key == "LOADED_FROM_CACHE":
            result = True
            for b in s.compiled():
                try:
                    result = result and bool(b.get_property("LOADED_FROM_CACHE"))
                except PluginError:
                    return False
            return result
        if key == "DEVICE_PROPERTIES":
            out: dict[str, dict[str, Any]] = {}
            for d in s.contexts:
                if d.name in s.backends:
                    out.update(device_properties(d.name, s.backends[d.name]))
            return out
        raise self._unsupported(key)


def _query(core, device: str, key: str, options: dict | None = None) -> Any:
    try:
        return core.get_property(device, key, options)
    except (RuntimeError, PluginError):
        return None
