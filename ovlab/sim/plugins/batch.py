"""BATCH: OpenVINO's automatic batching, explicit (``BATCH:GPU(8)``) and implicit (THROUGHPUT).

Why it exists: a GPU runs one inference of N samples much faster than N inferences of one sample
(per-op and per-inference overheads and weight reads are paid once per batch), but applications
submit one sample per request. BATCH groups the requests of an asynchronous pipeline into
batches behind the application's back, and hands each request its own slice of the result.

Everything here follows ``src/plugins/auto_batch/src`` (``plugin.cpp``, ``compiled_model.cpp``,
``async_infer_request.cpp``) and ``CoreImpl::apply_auto_batching``, as summarised in
``reference/openvino-semantics.md`` section 5 and measured in ``reference/openvino-measured.md``
section 9:

* The k-th infer request created on the compiled model is bound for life to worker ``k // N`` in
  slot ``k % N``. A batch only ever forms from the N requests of one worker.
* Each worker waits on a *periodic* timer (``AUTO_BATCH_TIMEOUT``, default 1000 ms) that restarts
  at every wake-up: a full queue, a timer expiry, the notification sent when a batched run ends.
  A lone request therefore waits anywhere between 0 and the timeout (measured: latency =
  ``timeout - (time since the last wake-up) mod timeout``), then runs on its own at batch 1; the
  worker waits for all such "timeout-alone" runs to end before its timer restarts, and a
  notification sent meanwhile is lost.
* The timer is simulated lazily: a worker remembers when its current wait started and schedules
  one tick only while requests are queued; a wake-up cancels the tick of the wait it ends. No
  perpetual SimPy process exists, so waiting for an impossible event still raises ``Deadlock``,
  and no stale tick is left for ``run_all()`` to jump to.

Deviations, and why:

* ``compiled.set_property({"AUTO_BATCH_TIMEOUT": t})`` takes effect at once for the *next* waits
  of every worker; a wait already in progress keeps the deadline it started with, because the real
  worker thread passes ``m_time_out`` to ``wait_for`` when the wait begins and ``set_property``
  does not wake it (``compiled_model.cpp``). (The project brief said "restart the wait phase"; the
  real runtime's behaviour wins.) A request created after ``set_property`` sees the new value at
  once, as measured.
* A request that arrives exactly on a timer tick is collected by that tick: real timers fire a
  little late, so on the measured runtime the tie goes to the tick (a sync ``infer()`` every
  300 ms with a 100 ms timeout waited 3.8, 1.0, 0.6 ms, not 100 ms).
* The real plugin keeps a failed batch's exception forever (a sticky-error quirk read from the
  code, never measured); ovlab delivers an error only to the requests of the run that failed.
* A job that reaches the batched model without a BATCH context (not created through
  ``new_context``) runs alone at batch 1 instead of hanging.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from ...properties import hint
from .. import errors as _errors
from ..errors import PluginError
from ..runtime import config as cfgmod
from ..runtime import device_name as dn
from ..runtime.backend import Backend, Job, Outputs, Sliced
from ..runtime.plugin import Plugin
from .hardware import _CORE_KEYS, INTERNAL_PREFIX, HardwarePlugin, model_stats

_PLUGIN_SRC = "src/plugins/auto_batch/src/plugin.cpp"
_COMPILED_SRC = "src/plugins/auto_batch/src/compiled_model.cpp"
_PARSER_SRC = "src/inference/src/dev/device_id_parser.cpp"
_DEV_PLUGIN_LINE = "src/inference/src/dev/plugin.cpp:54"  # the Core's line around compile_model
_ANY_SRC = "src/core/src/any.cpp:230"

#: the BATCH plugin's own config keys (``supported_configKeys`` in plugin.cpp)
BATCH_KEYS = ("MULTI_DEVICE_PRIORITIES", "AUTO_BATCH_TIMEOUT", "PERF_COUNT")
DEFAULT_TIMEOUT_MS = 1000
#: set by HETERO on the devices of a split model: never batch those implicitly
EXCLUSIVE_KEY = INTERNAL_PREFIX + "EXCLUSIVE"
#: a request arriving this close to a tick is collected by it (real timers fire late): 1 ns, or
#: a few float ulps of the clock when it is so far from 0 that 1 ns is below its resolution
_TIE_S = 1e-9


def _tie(t: float) -> float:
    """The tie tolerance around simulated time ``t`` (never below the clock's resolution)."""
    return max(_TIE_S, 8.0 * math.ulp(t))
_COMPILED_SUPPORTED = {"SUPPORTED_PROPERTIES": "RO", "OPTIMAL_NUMBER_OF_INFER_REQUESTS": "RO",
                       "NETWORK_NAME": "RO", "EXECUTION_DEVICES": "RO", "AUTO_BATCH_TIMEOUT": "RW"}
_PLUGIN_SUPPORTED = {"SUPPORTED_PROPERTIES": "RO", "FULL_DEVICE_NAME": "RO",
                     "MULTI_DEVICE_PRIORITIES": "RW", "AUTO_BATCH_TIMEOUT": "RW",
                     "PERF_COUNT": "RW"}


# --- names and values ---------------------------------------------------------------------------
def parse_batch_device(text: str, *, strict: bool = True) -> tuple[str, int | None]:
    """``"GPU(8)"`` -> ``("GPU", 8)``; ``"GPU"`` -> ``("GPU", None)``.

    ``strict`` adds the Core's checks (``DeviceIDParser::get_batch_device``: one device, no
    ``-``) to the plugin's own (``Plugin::parse_batch_device``: the batch must be > 0).
    """
    if strict and "," in text:
        raise PluginError(f"BATCH accepts only one device in list but got '{text}'",
                          f"{_PARSER_SRC}:88", through_plugin=False)
    if strict and "-" in text:
        raise PluginError(f"Invalid device name '{text}' for BATCH", f"{_PARSER_SRC}:91",
                          through_plugin=False)
    opening = text.find("(")
    if opening < 0:
        return text, None
    name = text[:opening]
    closing = text.find(")", opening)
    if closing < 0:
        return name, None
    raw = text[opening + 1:closing]
    m = re.match(r"\s*[+-]?\d+", raw)  # std::stol reads a leading integer
    if m is None:
        # std::stol's std::invalid_argument escapes the plugin unwrapped: the wheel says only
        # "stol" (measured on 2026.4.1 for "BATCH:CPU(abc)" and "BATCH:CPU()")
        raise PluginError("stol")
    batch = int(m.group())
    if batch <= 0:
        raise PluginError(f"Batch value for '{name}' must be > 0, while {batch}is passed",
                          f"{_PLUGIN_SRC}:44")
    return name, batch


def timeout_ms(value: Any) -> int:
    """``AUTO_BATCH_TIMEOUT`` as the uint32 the plugin reads (``Any::as<uint32_t>``): a number
    is cast as C++ casts it (-1 wraps round to 4294967295 ms, 1.5 is 1; measured, the real
    plugin compiles with either), a text is parsed with ``stoul``."""
    if isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool)):
        return int(value) & 0xFFFFFFFF
    if value == "":
        return 0  # uint32_t{}: ov::Any reads "" as the type's zero value (measured)
    n = cfgmod.to_uint(value)
    if n is None or n > 0xFFFFFFFF:
        text = str(value).strip()
        why = "Out of range" if re.fullmatch(r"[+-]?\d+", text) else "stoul"
        raise PluginError(f'Could not convert to: j from string "{text}": {why}', _ANY_SRC)
    return n


def _through(err: PluginError) -> PluginError:
    """An error of the device plugin, seen through BATCH (one more ``plugin.cpp:54`` line)."""
    if not err.through_plugin:
        return err
    return PluginError(err.message, _DEV_PLUGIN_LINE, *err.sources)


def _footprint_bytes(model) -> int:
    """Device memory one batch-1 instance needs: weights plus every activation it writes."""
    activations = sum(c.bytes_written for c in model._cost(1))
    return int(model_stats(model)["weight_bytes"] + activations)


def memory_cap(total_bytes: int, footprint: int) -> int:
    """The largest power of two <= (total - footprint) / footprint, at least 1 (plugin.cpp)."""
    if footprint <= 0:
        return 1 << 30
    estimated = int((total_bytes - footprint) // footprint)
    if estimated < 1:
        return 1
    return max(1, 1 << int(math.floor(math.log2(estimated))))


def _then(event, fn: Callable[[Any], None]) -> None:
    """Call ``fn(value)`` when ``event`` has been processed (at once if it already was)."""
    if event.processed:
        fn(event.value)
    else:
        event.callbacks.append(lambda ev: fn(ev.value))


# --- the plugin ---------------------------------------------------------------------------------
class BatchPlugin(Plugin):
    """The BATCH device: compiles a batch-1 model and, when batching applies, a batch-N model."""

    virtual = True
    description = "openvino_auto_batch_plugin"

    def __init__(self, core, name: str) -> None:
        super().__init__(core, name)
        self.config = {"AUTO_BATCH_TIMEOUT": DEFAULT_TIMEOUT_MS, "PERF_COUNT": False}

    # --- properties -----------------------------------------------------------------------
    def get_property(self, key: str, options: dict | None = None) -> Any:
        if key in BATCH_KEYS:
            if key not in self.config:
                raise PluginError(f"The Value is not set for {key}", f"{_PLUGIN_SRC}:81")
            return self.config[key]
        if key == "SUPPORTED_PROPERTIES":
            return dict(_PLUGIN_SUPPORTED)
        if key == "FULL_DEVICE_NAME":
            return "BATCH"
        raise PluginError(f"Unsupported property: {key}", f"{_PLUGIN_SRC}:98")

    def set_property(self, props: dict[str, Any]) -> None:
        for key, value in props.items():
            if key not in BATCH_KEYS:
                raise PluginError(f"Unsupported config key: {key}", f"{_PLUGIN_SRC}:107")
            if key == "MULTI_DEVICE_PRIORITIES":
                parse_batch_device(str(value), strict=False)
            self.config[key] = value  # kept as given: it reads back with the same type

    # --- implicit batching (the Core asks for every compile on a hardware device) ----------
    def implicit_target(self, model, plugin, parsed, config) -> str | None:
        """The BATCH device string if the Core should batch this compile implicitly, else None.

        ``CoreImpl::apply_auto_batching``: only for a device that reports OPTIMAL_BATCH_SIZE
        (GPUs, never the CPU), with the THROUGHPUT hint in the call or on the plugin, unless
        ``ALLOW_AUTO_BATCHING`` is false or the compile is exclusive (HETERO's subgraphs), and
        only for a batchable model (otherwise the model goes to the device unchanged).
        """
        if plugin.virtual:
            return None
        allow = config.get("ALLOW_AUTO_BATCHING")
        if allow is None:
            allow = self.core._core_props.get("ALLOW_AUTO_BATCHING", True)
        if not cfgmod.to_bool(allow):  # parsed first: a bad value fails even on the CPU
            return None
        if not isinstance(plugin, HardwarePlugin) or "OPTIMAL_BATCH_SIZE" not in plugin.supported():
            return None
        if EXCLUSIVE_KEY in config:
            return None
        tput = hint.PerformanceMode.THROUGHPUT
        in_call = ("PERFORMANCE_HINT" in config
                   and cfgmod.performance_mode(config["PERFORMANCE_HINT"]) == tput)
        on_plugin = cfgmod.performance_mode(plugin.config.get("PERFORMANCE_HINT", "")) == tput
        if not (in_call or on_plugin):
            return None
        try:
            plugin.resolve(parsed.device_id)
        except PluginError:
            return None  # no such device: let the device plugin raise its own error
        if not model._is_batchable():
            return None
        return parsed.plugin if parsed.device_id is None else f"{parsed.plugin}.{parsed.device_id}"

    # --- compiling ----------------------------------------------------------------------------
    def _device(self, name: str) -> tuple[HardwarePlugin, str | None]:
        parsed = dn.parse(name)
        key = parsed.plugin[1:] if parsed.plugin.startswith("-") else parsed.plugin
        plugin = self.core._plugins.get(key)  # the Core's get_plugin strips one '-'
        if plugin is None:
            raise PluginError(f'Device with "{key}" name is not registered in the OpenVINO '
                              "Runtime", _errors.CORE_IMPL)
        if parsed.priorities is not None and not plugin.virtual:
            parsed = dn.ParsedName(key, device_id=parsed.priorities)  # "CPU:x" is CPU's id x
        # a plugin a core-level key broke fails here; BATCH itself is a meta device like any
        # other: "BATCH:BATCH(2)" hands the inner BATCH no device list, and it says so
        plugin = self.core._load(key)
        return plugin, parsed.device_id

    def _device_config(self, plugin: HardwarePlugin, dev_name: str,
                       config: dict[str, Any]) -> dict[str, Any]:
        """The config the device compiles with: every key it supports, batching switched off."""
        per_device = config.get("DEVICE_PROPERTIES") or {}
        rw = {k for k, v in plugin.supported().items() if v == "RW"}
        out: dict[str, Any] = {}
        for key, value in config.items():
            if key in ("DEVICE_PROPERTIES", "MULTI_DEVICE_PRIORITIES"):
                continue
            if not (key in BATCH_KEYS or key in rw or key in _CORE_KEYS
                    or key.startswith(INTERNAL_PREFIX)):
                raise PluginError(f"Unsupported config key: {key}", f"{_PLUGIN_SRC}:59")
            out[key] = value
        for dev_key in (dev_name, plugin.name):
            for key, value in cfgmod.normalize(per_device.get(dev_key)).items():
                out.setdefault(key, value)
        out["ALLOW_AUTO_BATCHING"] = False  # avoid recursive auto-batching (plugin.cpp)
        return out

    @staticmethod
    def _no_device(plugin: HardwarePlugin, model, explicit: int | None) -> None:
        """The first device query the real plugin makes fails (measured for BATCH:GPU(4))."""
        if (explicit is None and "OPTIMAL_BATCH_SIZE" in plugin.supported()
                and model._is_batchable()):
            what = "OPTIMAL_BATCH_SIZE"
        elif plugin.name == "GPU":
            what = "GPU_MEMORY_STATISTICS"  # the footprint query before the batch-1 compile
        else:
            return  # the device plugin's own compile error follows
        err = plugin._no_device_error(what)
        raise PluginError(err.message, "src/inference/src/dev/plugin.cpp:112", *err.sources)

    def _batch_size(self, model, plugin: HardwarePlugin, dev_name: str, explicit: int | None,
                    user_config: dict[str, Any], parsed: dict[str, Any]) -> int:
        """Steps 1-2 of semantics 5.2: batchability, then N or the device's optimal size."""
        if not model._is_batchable():
            return 1  # even BATCH:CPU(4): the plugin catches the check's error -> batch 1
        if explicit is not None:
            return explicit
        if "OPTIMAL_BATCH_SIZE" not in plugin.supported():
            return 1  # the CPU does not report it: BATCH:CPU never batches
        opt = int(self.core.get_property(dev_name, "OPTIMAL_BATCH_SIZE", {"MODEL_PTR": model}))
        requests = int(plugin.config.get("PERFORMANCE_HINT_NUM_REQUESTS", 0))
        if "PERFORMANCE_HINT_NUM_REQUESTS" in user_config:
            requests = int(parsed["PERFORMANCE_HINT_NUM_REQUESTS"])
        if requests:
            opt = max(1, min(requests, opt))
        return opt if opt > 2 else 1  # "batching is usually inefficient for batch < 4"

    def start_compile(self, model, priorities: str | None, device_id: str | None,
                      config: dict[str, Any], *, from_path: bool = False):
        """Compile the batch-1 model, then (batch > 1) the batch-N model, one after the other.

        Returns a clock event whose value is the :class:`BatchBackend` or a PluginError.
        """
        core = self.core
        user = dict(config)
        full = dict(self.config)
        full.update(user)
        text = priorities if priorities is not None else full.get("MULTI_DEVICE_PRIORITIES")
        if text is None:
            raise PluginError("ov::device::priorities key for AUTO BATCH is not set for BATCH "
                              "device", f"{_PLUGIN_SRC}:141")
        text = str(text)
        dev_name, explicit = parse_batch_device(text)
        full["MULTI_DEVICE_PRIORITIES"] = text
        plugin, dev_id = self._device(dev_name)
        if plugin.virtual:  # BATCH:AUTO(4), BATCH:HETERO:CPU
            return self._start_compile_on_meta(model, dev_name, explicit, user, full)
        dev_config = self._device_config(plugin, dev_name, user)  # BATCH's own key check
        if not plugin.devices:
            self._no_device(plugin, model, explicit)
        try:
            _canonical, spec = plugin.resolve(dev_id)
            parsed = plugin.validate(dev_config, for_compile=True)
        except PluginError as err:
            raise _through(err) from None
        compiled_config = {k: full[k] for k in BATCH_KEYS if k in full}
        compiled_timeout = timeout_ms(compiled_config["AUTO_BATCH_TIMEOUT"])
        batch = self._batch_size(model, plugin, dev_name, explicit, user, parsed)
        try:
            first = plugin.start_compile(model, None, dev_id, dev_config)
        except PluginError as err:
            raise _through(err) from None
        done = core.clock.event()

        def finish(single, batched, n: int) -> None:
            done.succeed(BatchBackend(core, model, dev_name, single, batched, n, compiled_config,
                                      compiled_timeout))

        def after_batched(single, n: int, value) -> None:
            if isinstance(value, BaseException):  # the plugin catches it: batch 1
                core.trace.event(core.clock.now, "batch_fallback",
                                 getattr(single, "device", "BATCH"), single.name,
                                 batch_size=n, reason=str(value))
                finish(single, None, 1)
            else:
                finish(single, value, n)

        def after_single(value) -> None:
            if isinstance(value, BaseException):
                done.succeed(value)
                return
            n = batch
            if spec.plugin == "GPU" and n > 1:  # the memory cap applies to an explicit N too
                n = min(n, memory_cap(spec.gpu_total_mem_bytes, _footprint_bytes(model)))
            if n <= 1:
                finish(value, None, 1)
                return
            try:
                second = plugin.start_compile(model._with_batch(n), None, dev_id, dev_config)
            except (PluginError, ValueError) as err:
                after_batched(value, n, err)
                return
            _then(second, lambda v: after_batched(value, n, v))

        _then(first, after_single)
        return done

    def _start_compile_on_meta(self, model, dev_name: str, explicit: int | None,
                               user: dict[str, Any], full: dict[str, Any]):
        """BATCH over a meta device (``BATCH:AUTO(4)``, ``BATCH:HETERO:CPU``), as OpenVINO
        accepts it: the meta device compiles the batch-1 model and, for an explicit batch size
        and a batchable model, the batch-N one. A meta device reports no OPTIMAL_BATCH_SIZE, so
        without an explicit N the model runs unbatched."""
        core = self.core
        dev_config = {k: v for k, v in user.items() if k not in BATCH_KEYS}
        compiled_config = {k: full[k] for k in BATCH_KEYS if k in full}
        timeout = timeout_ms(compiled_config["AUTO_BATCH_TIMEOUT"])
        n = explicit if explicit and explicit > 1 and model._is_batchable() else 1
        first = core._start_compile(model, dev_name, dev_config, implicit_batch=False)
        done = core.clock.event()

        def finish(single, batched, size: int) -> None:
            done.succeed(BatchBackend(core, model, dev_name, single, batched, size,
                                      compiled_config, timeout))

        def after_single(single) -> None:
            if isinstance(single, BaseException) or n <= 1:
                done.succeed(single) if isinstance(single, BaseException) else \
                    finish(single, None, 1)
                return
            second = core._start_compile(model._with_batch(n), dev_name, dev_config,
                                         implicit_batch=False)
            _then(second, lambda v: finish(single, None, 1) if isinstance(v, BaseException)
                  else finish(single, v, n))

        _then(first, after_single)
        return done

    def query_model(self, model, priorities: str | None, device_id: str | None,
                    config: dict[str, Any]) -> dict[str, str]:
        text = priorities if priorities is not None else config.get("MULTI_DEVICE_PRIORITIES")
        if text is None or str(text) == "":
            raise PluginError("Value for ov::device::priorities for AUTO BATCH PLUGIN is not set",
                              _PLUGIN_SRC)
        # query_model skips the Core's apply_auto_batching: only the plugin's own parsing
        dev_name, _ = parse_batch_device(str(text), strict=False)
        plugin, dev_id = self._device(dev_name)
        cfg = {k: v for k, v in config.items() if k != "MULTI_DEVICE_PRIORITIES"}
        if plugin.virtual:
            return self.core.query_model(model, dev_name, cfg)
        self._device_config(plugin, dev_name, cfg)  # same key check as compile_model
        return plugin.query_model(model, None, dev_id, cfg)


# --- the compiled model -------------------------------------------------------------------------
class _Slot:
    """A user request's place for life: worker ``k // N``, slot ``k % N``."""

    __slots__ = ("worker", "slot")

    def __init__(self, worker: _Worker, slot: int) -> None:
        self.worker, self.slot = worker, slot

    def __repr__(self) -> str:
        return f"<BATCH worker {self.worker.index} slot {self.slot}>"


def _stacker(jobs: list[Job]) -> Callable[[], dict[int, np.ndarray]]:
    """A function that stacks the jobs' inputs on axis 0 (called only if outputs are read)."""

    def stack() -> dict[int, np.ndarray]:
        per_job = [j.inputs() if callable(j.inputs) else j.inputs for j in jobs]
        return {i: np.concatenate([inputs[i] for inputs in per_job], axis=0)
                for i in per_job[0]}

    return stack


class _Worker:
    """One batched request and its collecting thread (``WorkerInferRequest``), simulated lazily.

    State: the queue of (job, slot) in arrival order; ``waiting`` (False while the requests of a
    timer flush run alone); when the current wait began and with which timeout; the timer of the
    current wait's tick (cancelled at every wake-up) and a generation counter bumped then too.
    """

    def __init__(self, backend: BatchBackend, index: int) -> None:
        self.backend = backend
        self.index = index
        self.queue: list[tuple[Job, int]] = []
        self.waiting = True
        self.wait_start = backend.core.clock.now
        self.wait_timeout = backend.timeout_s
        self.gen = 0
        self._armed_gen = -1
        self._timer = None  # the tick of the current wait, while one is scheduled

    # --- the wait -----------------------------------------------------------------------------
    def _next_tick(self, now: float) -> float:
        """When the timer next expires, counting the empty expiries that restarted it."""
        first = self.wait_start + self.wait_timeout
        tie = _tie(now)
        if now <= first + tie:
            return first
        period = self.backend.timeout_s
        if period <= 0:
            return now
        k = max(1, math.ceil((now - first) / period - max(_TIE_S, 8.0 * math.ulp(now) / period)))
        return first + k * period

    def _arm(self) -> None:
        """Schedule the one tick of the current wait if something is queued and none is due."""
        if not self.waiting or not self.queue or self._armed_gen == self.gen:
            return
        clock = self.backend.core.clock
        now = clock.now
        self._armed_gen = self.gen
        self._timer = clock.call_at_delay(max(0.0, self._next_tick(now) - now), self._tick,
                                          self.gen)

    def _restart(self) -> None:
        """Begin a new wait now, with the compiled model's current timeout."""
        if self._timer is not None:  # the tick of the wait that ends now will never be needed
            self._timer.cancel()
            self._timer = None
        self.gen += 1
        self.wait_start = self.backend.core.clock.now
        self.wait_timeout = self.backend.timeout_s

    def retime(self, old_period: float) -> None:
        """AUTO_BATCH_TIMEOUT changed: bring an idle wait up to now under the old period.

        A wait with something queued keeps its scheduled tick (the real ``wait_for`` keeps its
        deadline); the next waits use the new value.
        """
        if not self.waiting or self.queue:
            return
        now = self.backend.core.clock.now
        first = self.wait_start + self.wait_timeout
        tie = _tie(now)
        if now <= first + tie:
            return
        if old_period <= 0:
            self.wait_start, self.wait_timeout = now, self.backend.timeout_s
            return
        k = math.floor((now - first) / old_period + max(_TIE_S, 8.0 * math.ulp(now) / old_period))
        self.wait_start, self.wait_timeout = first + k * old_period, old_period

    # --- wake-ups -------------------------------------------------------------------------------
    def push(self, job: Job, slot: int) -> None:
        """``start_async`` of a user request: queue it; a full queue wakes the worker."""
        self.queue.append((job, slot))
        if len(self.queue) >= self.backend.batch_size and self.waiting:
            self._wake(timeout=False)
        else:
            self._arm()  # if the worker is flushing, this notification is lost

    def _tick(self, gen: int) -> None:
        if gen == self.gen:
            self._timer = None
        if gen == self.gen and self.waiting:
            self._wake(timeout=True)

    def notify(self) -> None:
        """A batched run ended: wake the worker if it is waiting (the timer restarts)."""
        if self.waiting:
            self._wake(timeout=False)

    def _wake(self, timeout: bool) -> None:
        self._restart()
        n = len(self.queue)
        if n >= self.backend.batch_size:
            self._run_batch()
        elif timeout and n:
            self._flush()
        self._arm()

    # --- running --------------------------------------------------------------------------------
    def _run_batch(self) -> None:
        backend = self.backend
        size = backend.batch_size
        members, self.queue = self.queue[:size], self.queue[size:]
        by_slot = sorted(members, key=lambda m: m[1])
        index = {id(job): i for i, (job, _slot) in enumerate(by_slot)}

        def on_done(outputs: Outputs | None, error: BaseException | None, profile: list,
                    device: str) -> None:
            for job, _slot in members:  # arrival order, all at the batch's end
                if error is not None:
                    job.done(error=error, profile=profile, device=device)
                else:
                    job.done(Sliced(outputs, index[id(job)]), profile=profile, device=device)
            self.notify()

        head = members[0][0]
        backend.batches += 1
        batch_job = Job(head.seq, head.request_id, head.model_name,
                        _stacker([job for job, _slot in by_slot]), head.submitted, on_done)
        batch_job.members = [job for job, _slot in members]
        batch_job.tags = {"batch_id": backend.batches, "batch_size": size}
        backend.batched.submit(batch_job)

    def _flush(self) -> None:
        """Timer expired with 1..N-1 queued: run each alone at batch 1, wait for all of them."""
        backend = self.backend
        members, self.queue = self.queue, []
        self.waiting = False
        core = backend.core
        device = getattr(backend.single, "device", backend.device_name)  # a meta device has none
        core.trace.event(core.clock.now, "batch_timeout", device, backend.name,
                         worker=self.index, requests=len(members),
                         seqs=[job.seq for job, _slot in members],
                         timeout_ms=round(self.wait_timeout * 1000.0, 6))
        left = [len(members)]

        def alone_done(job: Job, outputs, error, profile, device) -> None:
            job.done(outputs, error=error, profile=profile, device=device)
            left[0] -= 1
            if left[0] == 0:  # all of them completed: start waiting again
                self.waiting = True
                self._restart()
                self._arm()

        for job, _slot in members:
            child = job.child(lambda o, e, p, d, job=job: alone_done(job, o, e, p, d))
            child.tags["status"] = "timeout-alone"
            child.tags["batch_size"] = 1
            backend.single.submit(child)


class BatchBackend(Backend):
    """A compiled BATCH model: the batch-1 device model, and the batch-N one when batching."""

    plugin_name = "BATCH"

    def __init__(self, core, model, device_name: str, single: Backend, batched: Backend | None,
                 batch_size: int, config: dict[str, Any], timeout: int) -> None:
        super().__init__(core, model, single.name)
        self.device_name = device_name  # as in the priorities ("GPU", "GPU.1"): DEVICE_PROPERTIES
        self.single = single
        self.batched = batched
        self.batch_size = batch_size if batched is not None else 1
        self._config = dict(config)  # MULTI_DEVICE_PRIORITIES, AUTO_BATCH_TIMEOUT, PERF_COUNT
        self.timeout_ms = timeout
        self.workers: list[_Worker] = []
        self.batches = 0
        self._created = 0

    @property
    def timeout_s(self) -> float:
        return self.timeout_ms / 1000.0

    def __repr__(self) -> str:
        return (f"<BatchBackend {self.name} on {self.device_name}: batch {self.batch_size}, "
                f"timeout {self.timeout_ms} ms, {len(self.workers)} workers>")

    # --- requests -------------------------------------------------------------------------------
    def new_context(self) -> Any:
        if self.batched is None:
            return None  # pass-through: a plain request on the device
        k = self._created
        self._created += 1
        if k % self.batch_size == 0:
            self.workers.append(_Worker(self, len(self.workers)))
        return _Slot(self.workers[k // self.batch_size], k % self.batch_size)

    def submit(self, job: Job) -> None:
        ctx = job.ctx
        if self.batched is None or not isinstance(ctx, _Slot) or ctx.worker.backend is not self:
            self.single.submit(job)
            return
        ctx.worker.push(job, ctx.slot)

    # --- properties -------------------------------------------------------------------------------
    def get_property(self, key: str) -> Any:
        if key in self._config:
            return self._config[key]
        single = self.single
        if key == "OPTIMAL_NUMBER_OF_INFER_REQUESTS":
            requests = 0
            try:
                requests = int(single.get_property("PERFORMANCE_HINT_NUM_REQUESTS"))
                if requests == 0:  # no limit from the user: the full number
                    requests = self.batch_size * int(single.get_property(key))
            except (PluginError, ValueError, TypeError):
                pass
            return max(requests, self.batch_size)
        if key in ("NETWORK_NAME", "EXECUTION_DEVICES", "LOADED_FROM_CACHE"):
            return single.get_property(key)
        if key == "SUPPORTED_PROPERTIES":
            return dict(_COMPILED_SUPPORTED)
        if key == "AUTO_BATCH_TIMEOUT":
            return self.timeout_ms
        device_keys = single.get_property("SUPPORTED_PROPERTIES")
        if key == "DEVICE_PROPERTIES":
            return {self.device_name: {k: single.get_property(k) for k in device_keys}}
        if key in device_keys:
            return single.get_property(key)
        raise PluginError(f"Unsupported Compiled Model Property: {key}", f"{_COMPILED_SRC}:236")

    def set_property(self, props: dict[str, Any]) -> None:
        for key, value in props.items():
            if key != "AUTO_BATCH_TIMEOUT":
                raise PluginError(
                    f"AutoBatching Compiled Model dosen't support property{key}. The only "
                    "property that can be changed on the fly is the AUTO_BATCH_TIMEOUT",
                    f"{_COMPILED_SRC}:173")
            new = timeout_ms(value)
            old_period = self.timeout_s
            self.timeout_ms = new
            self._config["AUTO_BATCH_TIMEOUT"] = new  # stored as uint32: reads back an int
            for worker in self.workers:
                worker.retime(old_period)

    def runtime_model(self):
        return (self.batched or self.single).runtime_model()

    def release(self) -> None:
        self.single.release()
        if self.batched is not None:
            self.batched.release()
