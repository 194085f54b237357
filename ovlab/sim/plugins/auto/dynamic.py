"""Resource-aware AUTO (2026): a device chosen for every inference from live utilization.

What it follows: openvino PR #36745 ("Model compilation device selection per device
utilization"), #37196 (``PERF_CURVE_TABLE``), #37384/#37909 (``LOW_POWER_DEVICE``, EPO gears), the
unit tests ``AutoDynamicDeviceSelectionTest`` (``src/plugins/auto/tests/unit``, 2026) and the
2026.4.1 wheel's log (``plugin.cpp:827`` "Device: CPU. Utilization threshold: 80").

As soon as one of ``DEVICES_UTILIZATION_THRESHOLD``, ``PERF_CURVE_TABLE`` or ``LOW_POWER_DEVICE``
is set (to a non-empty value), AUTO stops choosing once:

* the device is selected again for **every** inference (one selection while compiling plus one
  per inference, as the unit test counts);
* inference is **serialized** per compiled model: one runs, the others wait in order;
* every device gets **one** worker request and is compiled **once, on first use** (staying on a
  device never recompiles it; switching back and forth compiles each device once);
* a device that fails to compile makes AUTO select again among the others; if that lands on the
  CPU, the CPU's model-priority registration is released again (``ensure_device_ready``);
* there is no CPU helper: the compile of the first device is what ``compile_model`` waits for;
* stateful models (``ReadValue``/``Assign``) and single-candidate lists keep the classic
  schedule (``filter_device_by_model``), and so does ``CUMULATIVE_THROUGHPUT``.

Selection (:func:`select_device`), in the order the plugin applies it: the valid candidates in
AUTO's usual order (precision filter, dGPU > iGPU > others > CPU or the list's order, devices held
by higher-priority models left out); in low-power mode ``LOW_POWER_DEVICE`` wins if it is a
candidate (exact name, else base name: ``NPU`` matches ``NPU.3720``); otherwise candidates whose
utilization is **above** their threshold are dropped (a device without a threshold, or whose
utilization cannot be read, stays; if every device is dropped the highest-priority one is used);
then, if ``PERF_CURVE_TABLE`` scores any survivor, the survivors are ranked by their curve's
score, linearly interpolated at their utilization, lowest first (unscored ones after, in order).

Where ovlab stands in for hardware: real AUTO reads utilization from the Intel Platform Framework
(built with ``OV_AUTO_ENABLE_IPF`` only; the measured Linux wheel logs "utilization query
failed/unavailable" and keeps every device). ovlab reads each virtual device's busy fraction over
the last :data:`UTILIZATION_WINDOW_S` seconds (``runtime/sharing.py``), and the platform's
``power_mode`` stands for the EPO gear. Keys: a threshold may name ``GPU.0``, ``GPU``, ``iGPU`` /
``dGPU``, ``CPU`` or ``NPU`` (exact, then base name, then GPU type, as ``resolve_device_key``);
curve keys are ``CPU``, ``iGPU``, ``dGPU``, ``NPU``.

Validation follows the 2026.4.1 wheel (``config.py`` and ``runtime/config.py``; the conformance
tests compare every message): threshold *keys* are not checked (``{"FOO": 50}`` is accepted and,
naming no candidate, has no effect), threshold values must be ints within 0..100, curve keys must
be one of the four above, and a curve needs at least one point. What the wheel cannot show (it
never reads utilization here) follows the source and its unit tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...errors import PluginError
from ...runtime.backend import Backend, Job
from .compiled import AUTO_COMPILED_SRC, AUTO_SUPPORTED, _MetaBackend, device_properties
from .schedule import COMPILE_FAILED_SRC, error_text, start_device_compile
from .select import PLUGIN_SRC, DeviceInfo, PriorityRegistry, valid_devices
from .workers import WorkerPool, WorkerSchedule

#: the window over which ovlab measures a device's utilization for AUTO (simulated seconds)
UTILIZATION_WINDOW_S = 1.0
STATEFUL_OPS = ("ReadValue", "Assign")


def is_stateful(model) -> bool:
    """True if the model keeps state between inferences (any ReadValue / Assign)."""
    return any(op.get_type_name() in STATEFUL_OPS for op in model.get_ordered_ops())


# --- the selection policy --------------------------------------------------------------------------
@dataclass(frozen=True)
class SelectionPolicy:
    """``DeviceSelectionPolicy`` of the real plugin: what AUTO weighs at every selection."""

    thresholds: dict[str, int] = field(default_factory=dict)
    curves: dict[str, dict[int, float]] = field(default_factory=dict)
    low_power_device: str = ""


def _base(name: str) -> str:
    return name.split(".", 1)[0]


def device_kind(core, device: str) -> str:
    """``CPU``, ``iGPU``, ``dGPU``, ``NPU`` (or the base name): the curve-table key of a device."""
    base = _base(device)
    if base != "GPU":
        return base
    try:
        kind = core.get_property(device, "DEVICE_TYPE")
    except (RuntimeError, PluginError):
        return base
    return "dGPU" if getattr(kind, "name", str(kind)).upper() == "DISCRETE" else "iGPU"


def threshold_of(core, device: str, thresholds: dict[str, int]) -> int | None:
    """The threshold for ``device``: its exact name, then its base name, then iGPU/dGPU."""
    return _threshold(device, device_kind(core, device), thresholds)


def _threshold(device: str, kind: str, thresholds: dict[str, int]) -> int | None:
    for key in (device, _base(device), kind):
        if key in thresholds:
            return int(thresholds[key])
    return None


def interpolate(curve: dict[int, float], utilization: float) -> float:
    """The curve's score at ``utilization`` (linear between points, flat beyond the ends)."""
    points = sorted(curve.items())
    if utilization <= points[0][0]:
        return points[0][1]
    for (u0, s0), (u1, s1) in zip(points, points[1:], strict=False):
        if utilization <= u1:
            return s0 + (s1 - s0) * (utilization - u0) / (u1 - u0)
    return points[-1][1]


def utilization_of(core, device: str) -> float | None:
    """What the telemetry reports for ``device`` (percent), or None if it cannot tell."""
    try:
        return core.utilization(device, UTILIZATION_WINDOW_S)
    except ValueError:
        return None


def select_device(core, ordered: list[DeviceInfo], policy: SelectionPolicy,
                  log=None, kinds: dict[str, str] | None = None) -> tuple[DeviceInfo, str]:
    """Pick one of ``ordered`` (already in AUTO's priority order): (device, reason).

    The reason is ``"low_power"``, ``"curve"``, ``"threshold"`` (the first device was over its
    threshold), ``"all_over_threshold"`` or ``"priority"``.
    """
    if core.platform.power_mode == "low_power" and policy.low_power_device:
        wanted = policy.low_power_device
        for d in ordered:
            if d.name == wanted:
                return d, "low_power"
        for d in ordered:
            if _base(d.name) == _base(wanted):
                return d, "low_power"
    kinds = kinds if kinds is not None else {d.name: device_kind(core, d.name) for d in ordered}
    util = {d.name: utilization_of(core, d.name) for d in ordered}
    survivors = []
    for d in ordered:
        limit = _threshold(d.name, kinds[d.name], policy.thresholds)
        u = util[d.name]
        if limit is not None and u is not None and u > limit:
            if log is not None:
                log.debug(f"{PLUGIN_SRC}:840", f"Device: {d.name}. Utilization {u:.1f} exceeds "
                          f"threshold {limit}. Remove it from the list")
            continue
        survivors.append(d)
    if not survivors:
        return ordered[0], "all_over_threshold"
    reason = "priority" if survivors[0] is ordered[0] else "threshold"
    if policy.curves:
        scored = []
        for i, d in enumerate(survivors):
            curve = policy.curves.get(kinds[d.name])
            if curve and util[d.name] is not None:
                scored.append((interpolate(curve, util[d.name]), i, d))
        if scored:
            ranked = [d for _s, _i, d in sorted(scored, key=lambda x: (x[0], x[1]))]
            rest = [d for d in survivors if d not in ranked]
            return (ranked + rest)[0], "curve"
    return survivors[0], reason


# --- the schedule ----------------------------------------------------------------------------------
@dataclass
class _Device:
    """One candidate's compiled model and single worker (compiled on first use)."""

    info: DeviceInfo
    backend: Backend | None = None
    pool: WorkerPool | None = None
    failed: str = ""  # the compile error, once it failed


class DynamicSchedule(WorkerSchedule):
    """Per-inference selection, serialized execution, one worker per device."""

    def __init__(self, plugin, model, settings, devices: list[DeviceInfo], precision: str,
                 log) -> None:
        super().__init__(plugin.core, model, plugin.name, log)
        self.settings = settings
        self.registry: PriorityRegistry = plugin.registry
        self.devices = list(devices)
        self.precision = precision
        self.rank = settings.priority_rank
        self.runtime_fallback = settings.flag("ENABLE_RUNTIME_FALLBACK")
        self.policy = SelectionPolicy(settings.utilization_thresholds, settings.perf_curve_table,
                                      settings.low_power_device)
        self.slots = {d.name: _Device(d) for d in devices}
        self.current: DeviceInfo | None = None  # the device of the latest selection
        self.registered: DeviceInfo | None = None
        self.busy = False  # one inference (or its device's compile) at a time
        self.selections = 0
        self.kinds = {d.name: device_kind(self.core, d.name) for d in devices}
        self._valid: tuple[tuple[str, ...], list[DeviceInfo]] | None = None
        self.done = self.core.clock.event()

    # --- selection -----------------------------------------------------------------------
    def _ordered(self) -> list[DeviceInfo]:
        """Valid candidates in priority order, without devices that failed to compile and those
        held by higher-priority models (the last device stays if all are held)."""
        live = [d for d in self.devices if not self.slots[d.name].failed]
        if not live:
            raise PluginError("No available device to select in AUTO", f"{PLUGIN_SRC}:644")
        names = tuple(d.name for d in live)
        if self._valid is None or self._valid[0] != names:  # the same devices, the same order
            self._valid = (names, valid_devices(self.core, live, self.precision, self.tag))
        ordered = self._valid[1]
        held = {n for r, names in self.registry.by_rank.items() if r < self.rank for n in names}
        free = [d for d in ordered if d.unique_name not in held]
        return free or ordered[-1:]

    def _select(self, why: str | None = None) -> DeviceInfo:
        chosen, reason = select_device(self.core, self._ordered(), self.policy, self.log,
                                       self.kinds)
        reason = why or reason
        self.selections += 1
        if self.current is None or chosen.name != self.current.name:
            self.event("switch" if self.current is not None else "select", chosen.name,
                       reason=reason, dynamic=True,
                       utilization={d.name: round(u, 1) for d in self.devices
                                    if (u := utilization_of(self.core, d.name)) is not None})
            self.log.info("auto_schedule.cpp:163", f"select device:{chosen.name}")
        self.current = chosen
        return chosen

    # --- start-up ------------------------------------------------------------------------
    def start(self):
        """Select and compile the first device; the event compile_model waits for."""
        self.log.info("schedule.cpp:17", "scheduler starting")
        for key, value in self.policy.thresholds.items():
            self.log.debug(f"{PLUGIN_SRC}:827", f"Device: {key}. Utilization threshold: {value}")
        try:
            first = self._select()
        except PluginError as err:
            self.done.succeed(err)
            return self.done
        self.registry.register(self.rank, first.unique_name)
        self.registered = first

        def compiled(ok: bool) -> None:
            if ok:
                self.done.succeed(True)
                return
            self._unregister()
            self.done.succeed(self._compile_failed())

        self._ensure_ready(first, compiled)
        return self.done

    def _ensure_ready(self, device: DeviceInfo, then) -> None:
        """Compile ``device`` if it never was; on failure select again among the others
        (``try_to_compile_model``); call ``then(True)`` with ``self.current`` ready, or
        ``then(False)`` when nothing could be compiled."""
        slot = self.slots[device.name]
        if slot.pool is not None:
            then(True)
            return
        t0 = self.core.clock.now
        ev = start_device_compile(self.core, self.model, device, self.from_path)

        def finished(event) -> None:
            result = event.value
            if not isinstance(result, BaseException):
                self.log.info("auto_schedule.cpp:341", f"Device: [{device.name}]: Compile model "
                              f"took {(self.core.clock.now - t0) * 1000.0:f} ms")
                slot.backend = result
                slot.pool = WorkerPool(device.name, device.name, result, 1)
                if device.name.startswith("CPU") and self.registered is not None \
                        and self.registered.name != device.name:
                    # the fallback landed on the CPU: release its priority registration
                    self.registry.unregister(self.rank, device.unique_name)
                then(True)
                return
            slot.failed = error_text(result)
            self.log.warning("auto_schedule.cpp:346", f"Device: [{device.name}]: Compile model "
                             f"failure: {slot.failed}")
            if device.name.startswith("CPU"):
                then(False)  # the CPU is the last resort: no re-selection after it
                return
            try:
                nxt = self._select("compile_failed")
            except PluginError:
                then(False)
                return
            self._ensure_ready(nxt, then)

        if ev.processed:
            finished(ev)
        else:
            ev.callbacks.append(finished)

    # --- scheduling ----------------------------------------------------------------------
    def _try_start(self, job: Job) -> bool:
        if self.busy:
            return False
        self.busy = True
        try:
            device = self._select()
        except PluginError as err:
            self.busy = False
            job.done(error=err)
            return True

        def ready(ok: bool) -> None:
            if ok:
                self._start_on(self.slots[self.current.name].pool, job)
                return
            self.busy = False
            job.done(error=self._compile_failed())
            self.drain()

        self._ensure_ready(device, ready)
        return True

    def _compile_failed(self) -> PluginError:
        """AUTO's error once every candidate it tried failed to compile, each with its own."""
        errors = "".join(f"{s.info.name}:{s.failed}; " for s in self.slots.values() if s.failed)
        return PluginError(f"[{self.tag}] compile model failed, {errors}", COMPILE_FAILED_SRC)

    def _worker_done(self, pool: WorkerPool, index: int, job: Job, outputs, error, profile,
                     device: str) -> None:
        pool.give(index)
        self.busy = False
        if error is not None and self.runtime_fallback:
            remaining = [d for d in self.devices if d.name != pool.name]
            if remaining:
                self.devices = remaining
                self.event("fallback", pool.name, seq=job.seq, dynamic=True)
                self.submit(job)  # selected again among the others, ahead of nothing queued
                self.drain()
                return
        self.drain()
        job.done(outputs, error=error, profile=profile, device=device)

    # --- what the compiled model reports ---------------------------------------------------
    def execution_devices(self) -> list[str]:
        return [self.current.name] if self.current is not None else []

    def serving_backend(self) -> Backend:
        slot = self.slots.get(self.current.name) if self.current is not None else None
        if slot is None or slot.backend is None:
            raise PluginError("no valid compiled model available", f"{PLUGIN_SRC}:524")
        return slot.backend

    def _unregister(self) -> None:
        if self.registered is not None:
            self.registry.unregister(self.rank, self.registered.unique_name)
            self.registered = None


class DynamicBackend(_MetaBackend):
    """An AUTO compiled model in per-inference selection mode."""

    supported = AUTO_SUPPORTED
    source = f"{AUTO_COMPILED_SRC}:259"
    schedule: DynamicSchedule

    def submit(self, job: Job) -> None:
        self.schedule.submit(job)

    def release(self) -> None:
        self.schedule._unregister()

    def _own_property(self, key: str) -> Any:
        s = self.schedule
        if key == "PERFORMANCE_HINT":
            return self.settings.hint
        if key == "OPTIMAL_NUMBER_OF_INFER_REQUESTS":
            return 1  # one inference at a time, one worker per device
        if key == "NETWORK_NAME":
            return s.serving_backend().get_property("NETWORK_NAME")
        if key == "LOADED_FROM_CACHE":
            try:
                return bool(s.serving_backend().get_property("LOADED_FROM_CACHE"))
            except PluginError:
                return False
        if key == "DEVICE_PROPERTIES":
            return device_properties(s.current.name, s.serving_backend())
        raise self._unsupported(key)
