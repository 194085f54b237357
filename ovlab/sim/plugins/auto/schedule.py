"""AUTO's scheduler (LATENCY / THROUGHPUT): CPU helper, hand-over, runtime fallback.

Follows ``src/plugins/auto/src/auto_schedule.cpp``. There are three compile contexts:

* the CPU helper (``CPU_HELP``): CPU compiled with LATENCY while the chosen device compiles;
* the actual device (chosen by :class:`~ovlab.sim.plugins.auto.select.PriorityRegistry`); when its
  compile fails AUTO unregisters it and tries the next candidate, except that a CPU with the
  helper's very config is not compiled twice (the helper then simply keeps serving);
* the fallback device, compiled when an inference fails (runtime fallback).

``compile_model`` returns as soon as the first compile succeeds (normally the CPU helper, in a
fraction of a second, while a GPU takes seconds). Every inference is then scheduled on the first
ready context of fallback, actual, helper. When the actual device is ready, new inferences go to
it at once; queued ones move on the next worker completion; inferences in flight on the helper
finish there; the helper is released when all its workers are idle. Until then
``EXECUTION_DEVICES`` still says ``(CPU)``.

Deviations, all in time rather than behaviour: OpenVINO compiles the fallback device inside the
failing request's callback while holding a mutex that blocks other scheduling; ovlab compiles it
asynchronously and keeps new inferences queued until it is done. A CPU_HELP failure waits for the
actual device the same way (without blocking the clock).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ... import errors as _errors
from ...errors import PluginError
from ...runtime.backend import Backend, Job
from .select import DeviceInfo, PriorityRegistry
from .workers import HELPER, WorkerPool, WorkerSchedule, pool_size

SCHEDULE_SRC = "src/plugins/auto/src/auto_schedule.cpp"
COMPILE_FAILED_SRC = f"{SCHEDULE_SRC}:439"


def error_text(err: BaseException) -> str:
    """What ``e.what()`` of a failed device compile reads like inside AUTO's message."""
    if isinstance(err, PluginError):
        sources = list(err.sources)
        if err.through_plugin:
            sources.insert(0, _errors.PLUGIN_LINE["compile_model"])
        return _errors.format_chain(sources, err.message)
    return str(err)


def start_device_compile(core, model, device: DeviceInfo, from_path: bool = False):
    """``core.compile_model(model, device, config)`` without waiting: a clock event whose value is
    the device's Backend or a PluginError (argument errors become such a value too).

    ``from_path``: AUTO was given a path, and compiles the device from it
    (``auto_schedule.cpp``: ``compile_model(m_model_path, ...)``), so the Core's implicit
    batching, applied only to ``compile_model(model_object, ...)``, does not happen."""
    try:
        return core._start_compile(model, device.name, dict(device.config),
                                   implicit_batch=not from_path)
    except PluginError as err:
        ev = core.clock.event()
        ev.succeed(err)
        return ev


def same_config(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.keys() == b.keys() and all(str(a[k]) == str(b[k]) for k in a)


@dataclass
class CompileContext:
    """One of AUTO's compile contexts (``AutoCompileContext``)."""

    name: str  # "CPU", "ACTUALDEVICE", "FALLBACKDEVICE"
    enabled: bool = False
    ready: bool = False  # compiled, workers created (m_is_already)
    device: DeviceInfo | None = None
    backend: Backend | None = None
    pool: WorkerPool | None = None
    worker_name: str = ""
    errors: str = ""
    candidates: list[DeviceInfo] = field(default_factory=list)
    finished: Any = None  # clock event: the context's compile (with reselections) is over
    reload_success: bool = False


class AutoSchedule(WorkerSchedule):
    """The AUTO scheduler of one compiled model."""

    def __init__(self, plugin, model, settings, devices: list[DeviceInfo], precision: str,
                 log) -> None:
        super().__init__(plugin.core, model, plugin.name, log)
        self.plugin = plugin
        self.settings = settings
        self.registry: PriorityRegistry = plugin.registry
        self.devices = list(devices)  # m_device_priorities: shrinks on runtime fallback
        self.precision = precision
        self.rank = settings.priority_rank
        self.startup_fallback = settings.flag("ENABLE_STARTUP_FALLBACK")
        self.runtime_fallback = settings.flag("ENABLE_RUNTIME_FALLBACK")
        self.helper = CompileContext("CPU")
        self.actual = CompileContext("ACTUALDEVICE", enabled=True)
        self.fallback = CompileContext("FALLBACKDEVICE", enabled=self.runtime_fallback)
        self.passthrough = False
        self.helper_released = False
        self.switch_time: float | None = None
        self.done = self.core.clock.event()  # value: True (ready) or a PluginError

    # --- start-up ------------------------------------------------------------------------
    def start(self):
        """Select the device, start the compiles; return the event compile_model waits for."""
        log = self.log
        log.info("schedule.cpp:17", "scheduler starting")
        act = self.actual
        act.candidates = list(self.devices)
        act.device = self.registry.select(self.core, self.devices, self.precision, self.rank,
                                          self.tag)
        self.event("select", act.device.name, reason="initial",
                   candidates=[d.name for d in self.devices])
        log.info(f"{SCHEDULE_SRC}:163", f"select device:{act.device.name}")
        if self._actual_blob_cached():
            # a blob for the selected device: load only it, no helper, no runtime fallback
            # (openvino PRs #24618, #29636; 2025.2 "loading the model only for the selected
            # plugin")
            self.startup_fallback = False
            self.runtime_fallback = False
            self.fallback.enabled = False
        is_actual_cpu = "CPU" in act.device.name
        if not is_actual_cpu and self.startup_fallback:
            self._setup_helper()
        if self.helper.enabled:
            self.helper.finished = self.core.clock.process(self._compile(self.helper))
            self.helper.finished.callbacks.append(lambda _ev: self._context_finished())
        elif not (len(self.devices) != 1 and self.runtime_fallback):
            self.passthrough = True
            log.info(f"{SCHEDULE_SRC}:284", "Only one device or multiple devices of the same type "
                     "will use passthrough compiled model")
        act.finished = self.core.clock.process(self._compile(act))
        act.finished.callbacks.append(lambda _ev: self._context_finished())
        return self.done

    def _actual_blob_cached(self) -> bool:
        """Does CACHE_DIR hold a blob of this model for the selected device, compiled as AUTO
        would compile it (``ModelCache::compute_hash`` on the device's config)?"""
        act = self.actual.device
        hw = self.core._plugins.get(act.plugin)
        if not hasattr(hw, "has_cached_blob"):
            return False
        dev_id = act.name.split(".", 1)[1] if "." in act.name else None
        try:
            cached = bool(hw.has_cached_blob(self.model, dev_id, act.config))
        except PluginError:
            return False
        cache_dir = act.config.get("CACHE_DIR") or self.core._core_props.get("CACHE_DIR", "")
        if cache_dir:
            self.log.debug(f"{SCHEDULE_SRC}:148", f"device: {act.name} "
                           f"{'found' if cached else 'not found'} cached blob")
        return cached

    def _setup_helper(self) -> None:
        cpu = next((d for d in self.devices if d.name.startswith("CPU")), None)
        if cpu is None:
            return
        act = self.actual.device
        cache_dir = act.config.get("CACHE_DIR") or self.core._core_props.get("CACHE_DIR", "")
        from ....properties.hint import PerformanceMode

        cfg = dict(cpu.config)
        cfg["PERFORMANCE_HINT"] = PerformanceMode.LATENCY
        if cache_dir:
            cfg["CACHE_DIR"] = ""
            self.log.info(f"{SCHEDULE_SRC}:156", "Clear cache dir setting for CPU accelerator")
        self.helper.enabled = True
        self.helper.device = DeviceInfo(cpu.name, cfg, cpu.requests, cpu.default_id,
                                        cpu.unique_name, cpu.rank)
        self.helper.worker_name = HELPER
        self.log.info(f"{SCHEDULE_SRC}:159", "will load CPU for accelerator")

    def _compile(self, ctx: CompileContext):
        """Compile ``ctx``'s device; on failure reselect among its candidates (a process)."""
        core = self.core
        while True:
            dev = ctx.device
            t0 = core.clock.now
            result = yield start_device_compile(core, self.model, dev, self.from_path)
            if not isinstance(result, BaseException):
                self.log.info(f"{SCHEDULE_SRC}:341", f"Device: [{dev.name}]: Compile model took "
                              f"{(core.clock.now - t0) * 1000.0:f} ms")
                self._ready(ctx, result)
                return True
            ctx.errors += f"{dev.name}:{error_text(result)}"
            self.log.warning(f"{SCHEDULE_SRC}:346", f"Device: [{dev.name}]: Compile model failure: "
                             f"{error_text(result)}")
            if "CPU" in dev.name or ctx is self.helper:
                return False
            self.registry.unregister(self.rank, dev.unique_name)
            ctx.candidates = [d for d in ctx.candidates if d.name != dev.name]
            if not ctx.candidates:
                return False
            try:
                ctx.device = self.registry.select(core, ctx.candidates, self.precision, self.rank,
                                                  self.tag)
            except PluginError:
                return False
            self.event("select", ctx.device.name, reason="compile_failed", failed=dev.name)
            if ("CPU" in ctx.device.name and self.helper.enabled
                    and same_config(ctx.device.config, self.helper.device.config)):
                return False  # the helper already is this CPU model: it keeps serving
            self.log.debug(f"{SCHEDULE_SRC}:383", f"try to compile {ctx.device.name}")

    def _ready(self, ctx: CompileContext, backend: Backend) -> None:
        ctx.backend = backend
        if not ctx.worker_name:
            ctx.worker_name = ctx.device.name
        if not self.passthrough:
            ctx.pool = WorkerPool(ctx.worker_name, ctx.device.name, backend,
                                  pool_size(ctx.device, backend))
        ctx.ready = True
        ctx.reload_success = True
        self.log.info(f"{SCHEDULE_SRC}:118", f"device:{ctx.device.name} compiling model finished")
        if ctx is self.actual:
            self.switch_time = self.core.clock.now
            self.event("switch", ctx.device.name, reason="compiled")
            if self.pending and not self._any_busy():
                self.drain()  # nothing in flight would drain the queue: never leave it stranded
        self._check_release()

    def _context_finished(self) -> None:
        """Resolve compile_model once a context is ready, or report when all failed."""
        if self.done.triggered:
            self._check_release()
            return
        for ctx in (self.actual, self.helper):
            if ctx.enabled and ctx.ready:
                self.done.succeed(True)
                return
        contexts = [c for c in (self.actual, self.helper) if c.enabled]
        if all(c.finished is not None and c.finished.triggered for c in contexts):
            message = "compile model failed, " + "".join(c.errors + "; " for c in contexts)
            self.log.error(f"{SCHEDULE_SRC}:437", f"load failed, {message}")
            self.registry.unregister(self.rank, self.actual.device.unique_name)
            self.done.succeed(PluginError(f"[{self.tag}] {message}", COMPILE_FAILED_SRC))

    # --- scheduling --------------------------------------------------------------------------
    def target(self) -> WorkerPool | None:
        """Fallback if ready, else the actual device if ready, else the CPU helper."""
        if self.fallback.ready:
            return self.fallback.pool
        if self.actual.ready:
            return self.actual.pool
        if self.helper.ready:
            return self.helper.pool
        return None

    def target_name(self) -> str:
        pool = self.target()
        return pool.device if pool is not None else ""

    def _try_start(self, job: Job) -> bool:
        pool = self.target()
        if pool is None or not pool.has_idle:
            return False
        self._start_on(pool, job)
        return True

    def _any_busy(self) -> bool:
        return any(c.pool is not None and not c.pool.all_idle
                   for c in (self.helper, self.actual, self.fallback))

    def _after_completion(self, pool: WorkerPool) -> None:
        self._check_release()

    def _check_release(self) -> None:
        """Release the helper once the device is ready and every helper worker is idle."""
        h = self.helper
        if not h.enabled or self.helper_released or not self.actual.ready:
            return
        if h.finished is None or not h.finished.triggered:
            return  # the device was faster than the helper: wait for the helper's compile
        if h.pool is not None and not h.pool.all_idle:
            return
        self.helper_released = True
        h.ready = False
        h.pool = None
        h.backend = None
        self.event("helper_released", "CPU")
        self.log.info(f"{SCHEDULE_SRC}:246", "release all work requests of CPU_HELP")
        self.log.info(f"{SCHEDULE_SRC}:250", "helper released!!")

    # --- runtime fallback ------------------------------------------------------------------------
    def _on_failure(self, pool: WorkerPool, job: Job, error: BaseException, profile: list,
                    device: str) -> None:
        def retry() -> None:
            self._on_failure(pool, job, error, profile, device)

        def deliver() -> None:
            job.done(error=error, profile=profile, device=device)

        def rerun(announce: bool = True) -> None:
            if announce:
                self.event("fallback", pool.name, seq=job.seq, to=self.target_name())
            self.submit(job)

        if self.gate_closed:
            self.defer(retry)
            return
        if pool.name == HELPER:
            act = self.actual.finished
            if act is not None and not act.processed:
                act.callbacks.append(lambda _ev: retry())  # wait for the actual device
                return
            cpu = next((d for d in self.devices if d.name.startswith("CPU")), None)
            if cpu is None:
                if self.fallback.reload_success:
                    rerun()
                else:
                    deliver()
            elif len(self.devices) == 1:
                deliver()
            else:
                self.devices.remove(cpu)
                rerun()
            return
        current = next((d for d in self.devices if d.name == pool.name), None)
        if current is None:
            self.log.debug(f"{SCHEDULE_SRC}:47", "Already selected the fallback device")
            if self.fallback.reload_success:
                rerun()
            else:
                deliver()
            return
        if len(self.devices) == 1:
            self.log.info(f"{SCHEDULE_SRC}:39", "No other devices in m_device_priorities")
            deliver()
            return
        self.devices.remove(current)
        self.event("fallback", pool.name, seq=job.seq, to="(compiling)")
        self.close_gate()
        proc = self.core.clock.process(self._compile_fallback(pool.name))

        def finished(ev) -> None:
            if ev.value:
                rerun(announce=False)
            else:
                deliver()
            self.open_gate()

        proc.callbacks.append(finished)

    def _compile_fallback(self, failed: str):
        """Select and compile the next device for runtime fallback (a process -> success)."""
        fb = self.fallback
        fb.reload_success = False
        fb.worker_name = ""
        while True:
            try:
                fb.device = self.registry.select(self.core, self.devices, self.precision,
                                                 self.rank, self.tag)
            except PluginError:
                return False
            self.event("select", fb.device.name, reason="runtime_fallback", failed=failed)
            t0 = self.core.clock.now
            result = yield start_device_compile(self.core, self.model, fb.device,
                                                self.from_path)
            if not isinstance(result, BaseException):
                self.log.info(f"{SCHEDULE_SRC}:341", f"Device: [{fb.device.name}]: Compile model "
                              f"took {(self.core.clock.now - t0) * 1000.0:f} ms")
                self._ready(fb, result)
                self.actual.enabled = False
                self.actual.ready = False
                self.event("switch", fb.device.name, reason="runtime_fallback", failed=failed)
                self.log.info(f"{SCHEDULE_SRC}:76", f"Select fallback device:{fb.device.name}")
                return True
            self.registry.unregister(self.rank, fb.device.unique_name)
            self.log.debug(f"{SCHEDULE_SRC}:62", f"Load context in FALLBACKDEVICE with error: "
                           f"{error_text(result)}")
            if len(self.devices) == 1:
                return False
            self.devices = [d for d in self.devices if d.name != fb.device.name]

    # --- what the compiled model reports ---------------------------------------------------
    def execution_devices(self) -> list[str]:
        for ctx in (self.helper, self.actual, self.fallback):
            if ctx.enabled and ctx.ready:
                return ["(CPU)" if ctx.worker_name == HELPER else ctx.worker_name]
        return []

    def serving_backend(self) -> Backend:
        """The device model AUTO would answer device questions from (fallback, actual, helper)."""
        for ctx in (self.fallback, self.actual, self.helper):
            if ctx.enabled and ctx.ready and ctx.backend is not None:
                return ctx.backend
        raise PluginError("no valid compiled model available",
                          "src/plugins/auto/src/plugin.cpp:524")
