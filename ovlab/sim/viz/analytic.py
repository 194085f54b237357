"""The analytic model of a seed experiment, to draw on the same axes as the simulation.

A learner should see whether theory and simulation agree, and where they part. The model is
the back-of-the-envelope one the labs teach, fed with the simulator's own nominal figures (the
cost model without jitter or contention, ``ovlab.sim.hardware.cost``):

* **CPU helper** (AUTO, while the device compiles): one CPU inference, slowed by the load the
  device's compile puts on the host: ``t_cpu x (1 + compile_host_load)`` (claim A16).
* **Switch**: AUTO's ``compile_model`` returns when the helper is ready, and the switch comes
  when the device's compiles end; with batching the device compiles twice (batch 1, then N):
  ``switch = n_compiles x t_compile - t_compile(CPU)`` after the first submit.
* **Not batched**: one inference, ``t(1)``.
* **Full batch** of N at one request every ``interval``: the first request waits for the N-1
  after it, the last one for nothing: latency from ``t(N)`` to ``(N-1) x interval + t(N)``.
* **Alone after the timeout**: the periodic timer fires 0 to T after a lone request arrives,
  then it runs at batch 1: from ``t(1)`` to ``T + t(1)``, ``T/2 + t(1)`` on average. A batch
  fills only if its N requests arrive within one period, ``(N-1) x interval < T``; otherwise
  every request runs alone (and with ``T = 0`` at once, without waiting).
* **Throughput** (Little's law, ``L = lambda x W``): the script submits one request per interval
  unless all ``Q`` requests of its queue are busy, so ``lambda = min(1 / interval, Q / W)`` with
  ``W`` the mean latency of the steady regime.

What the model leaves out is what the simulation adds: jitter, two streams sharing the GPU,
requests that queue behind a running batch, the overflow batch worker whose timer keeps firing.
The summary line states both numbers side by side; where they differ, that is the lesson.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from ...properties import hint as _hint

_THROUGHPUT = {"THROUGHPUT", "CUMULATIVE_THROUGHPUT"}


def _text(value: Any) -> str:
    """A config value as the widgets and the seed scripts write it ("THROUGHPUT", "NO")."""
    name = getattr(value, "name", None)
    return str(name if name is not None else value).upper()


def _is_no(value: Any) -> bool:
    return _text(value) in ("NO", "FALSE", "0")


@dataclass(frozen=True)
class Batching:
    """Whether a configuration batches, with how many, and why (one line for a learner)."""

    size: int  # 1: no batching
    reason: str
    device: str | None = None  # the device that batches

    @property
    def on(self) -> bool:
        return self.size > 1


def candidates(core, device: str) -> list[str]:
    """The hardware devices a device string can run on ("AUTO" -> every one but the NPU)."""
    available = list(core.available_devices)
    text = device.strip()
    head, _, rest = text.partition(":")
    head = head.upper()
    if head in ("AUTO", "MULTI", "BATCH", "HETERO") and not rest:
        return [d for d in available if not d.startswith("NPU")] if head == "AUTO" else available
    if head in ("AUTO", "MULTI", "HETERO", "BATCH"):
        names = [re.sub(r"\(.*\)$", "", n.strip()) for n in rest.split(",") if n.strip()]
        names = [n for n in names if not n.startswith("-")]
    else:
        names = [text]
    out = []
    for name in names:
        out.extend(d for d in available if d == name or d.split(".")[0] == name
                   or (name.startswith("GPU") and d == name + ".0"))
    return list(dict.fromkeys(out))


def same_device(a: str, b: str) -> bool:
    """``"GPU"`` and ``"GPU.0"`` name the same device (available_devices lists a lone GPU as
    ``GPU``, the records as ``GPU.0``)."""
    return a == b or a + ".0" == b or b + ".0" == a


def _reports_batch(core, dev: str) -> bool:
    try:
        return "OPTIMAL_BATCH_SIZE" in core.get_property(dev, "SUPPORTED_PROPERTIES")
    except RuntimeError:
        return False


def batching(core, model, device: str, config: dict[str, Any]) -> Batching:
    """Does ``compile_model(model, device, config)`` batch? The rules of
    ``CoreImpl::apply_auto_batching`` and the BATCH plugin, asked through the public API."""
    explicit = re.match(r"\s*BATCH:([^(]+)(?:\((\d+)\))?", device, re.I)
    if explicit:
        dev = candidates(core, explicit.group(1))
        dev_name = dev[0] if dev else explicit.group(1)
        if explicit.group(2):
            n = int(explicit.group(2))
        elif _reports_batch(core, dev_name):
            n = int(core.get_property(dev_name, "OPTIMAL_BATCH_SIZE", {"MODEL_PTR": model}))
        else:
            return Batching(1, f"{dev_name} reports no OPTIMAL_BATCH_SIZE: BATCH runs batch 1",
                            dev_name)
        return Batching(n, f"{device} batches {n} requests, whatever the hint", dev_name)
    hint = _text(config.get("PERFORMANCE_HINT", _hint.PerformanceMode.LATENCY))
    if hint not in _THROUGHPUT:
        return Batching(1, f"{hint} never batches")
    if _is_no(config.get("ALLOW_AUTO_BATCHING", "YES")):
        return Batching(1, "ALLOW_AUTO_BATCHING is NO")
    virtual = device.strip().upper().startswith(("AUTO", "MULTI"))
    if hint == "CUMULATIVE_THROUGHPUT" and not virtual:
        return Batching(1, f"CUMULATIVE_THROUGHPUT on {device} alone does not batch (AUTO and "
                           f"MULTI pass THROUGHPUT on to their devices; a GPU itself does not)")
    gpus = [d for d in candidates(core, device) if _reports_batch(core, d)]
    if not gpus:
        return Batching(1, "no device here reports OPTIMAL_BATCH_SIZE (the CPU never "
                           "batches implicitly)")
    dev = gpus[0]
    n = int(core.get_property(dev, "OPTIMAL_BATCH_SIZE", {"MODEL_PTR": model}))
    requests = int(config.get("PERFORMANCE_HINT_NUM_REQUESTS", 0) or 0)
    if requests:
        n = max(1, min(n, requests))
        if n <= 2:
            return Batching(1, f"PERFORMANCE_HINT_NUM_REQUESTS {requests} caps the batch at "
                               f"{n}: batching is off below 3", dev)
        return Batching(n, f"{hint} on {dev}: batches of {n} (capped by "
                           f"PERFORMANCE_HINT_NUM_REQUESTS)", dev)
    return Batching(n, f"{hint} on {dev}: batches of {n} (its OPTIMAL_BATCH_SIZE)", dev)


@dataclass(frozen=True)
class Analytic:
    """The model's numbers for one configuration (seconds)."""

    target: str  # the device the run settles on
    batch: Batching
    interval: float
    timeout: float
    queue: int
    t_one: float  # one inference at batch 1 on the target
    t_batch: float  # one inference of a batch of N on the target
    compile_s: float  # one compile of the model on the target
    n_compiles: int
    helper: bool  # AUTO's CPU helper serves while the target compiles
    t_helper: float = math.nan  # one helper inference while the target compiles
    helper_compile_s: float = 0.0
    host_load: float = 0.0
    t_cpu: float = math.nan

    # --- derived --------------------------------------------------------------------------
    @property
    def switch(self) -> float | None:
        """When AUTO switches, in seconds after the first submit (None: no helper)."""
        if not self.helper:
            return None
        return self.n_compiles * self.compile_s - self.helper_compile_s

    @property
    def fills(self) -> bool:
        """Does a batch fill before the timer fires? (N requests within one period)"""
        return self.batch.on and self.timeout > 0 and \
            (self.batch.size - 1) * self.interval < self.timeout

    @property
    def batch_range(self) -> tuple[float, float]:
        n = self.batch.size
        return self.t_batch, (n - 1) * self.interval + self.t_batch

    @property
    def alone_range(self) -> tuple[float, float]:
        return self.t_one, self.timeout + self.t_one

    @property
    def steady_latency(self) -> float:
        """Mean latency after the switch: half a batch's fill plus the batch, or one run."""
        if self.fills:
            return (self.batch.size - 1) / 2 * self.interval + self.t_batch
        if self.batch.on:
            return self.timeout / 2 + self.t_one
        return self.t_one

    @property
    def throughput(self) -> float:
        """Little's law with the script's queue: ``min(1 / interval, Q / W)``."""
        w = self.steady_latency
        rate = 1.0 / self.interval if self.interval > 0 else math.inf
        return min(rate, self.queue / w) if w > 0 else rate

    # --- building -------------------------------------------------------------------------
    @classmethod
    def for_run(cls, core, model, view) -> Analytic | None:
        """The model for a :class:`~ovlab.sim.viz.runview.RunView` (None if it ran on several
        devices at once, e.g. MULTI: the model covers one device and AUTO's helper)."""
        from ..graph import model_precision
        from ..hardware import cost
        from ..plugins.hardware import model_stats

        target = core.platform.device_key(view.target) if view.target else None
        if target is None:
            return None
        spec = core.platform.devices[target]
        cfg = view.config
        b = batching(core, model, view.device, cfg)
        if b.device is not None and not same_device(b.device, target):
            b = Batching(1, f"{target} does not batch ({b.device} would)")
        precision = cost.compute_precision(spec, model_precision(model), spec.inference_precision)
        hint = _text(cfg.get("PERFORMANCE_HINT", "LATENCY"))
        streams = 1 if hint not in _THROUGHPUT else spec.streams_throughput
        requests = int(cfg.get("PERFORMANCE_HINT_NUM_REQUESTS", 0) or 0)
        if requests and not b.on:
            streams = min(streams, requests)
        share = cost.stream_factor(spec, streams) if spec.stream_share == "fixed" else 1.0
        t_one = cost.inference_time(spec, model._cost(1), precision) * share
        t_batch = (cost.inference_time(spec, model._cost(b.size), precision) * share
                   if b.on else t_one)
        stats = model_stats(model)  # a batched copy has the same ops and weights
        compile_s = cost.compile_time(spec, stats["ops"], stats["weight_bytes"])
        timeout = float(cfg.get("AUTO_BATCH_TIMEOUT", 1000)) / 1000.0
        helper = (view.device.upper().startswith("AUTO") and not target.startswith("CPU")
                  and any(c.device == "CPU" for c in view.compiles))
        extra: dict[str, float] = {}
        if helper and "CPU" in core.platform.devices:
            cpu = core.platform.devices["CPU"]
            cpu_prec = cost.compute_precision(cpu, model_precision(model), cpu.inference_precision)
            t_cpu = cost.inference_time(cpu, model._cost(1), cpu_prec)
            extra = {"t_cpu": t_cpu, "host_load": spec.compile_host_load,
                     "t_helper": t_cpu * (1.0 + spec.compile_host_load),
                     "helper_compile_s": cost.compile_time(cpu, stats["ops"],
                                                           stats["weight_bytes"])}
        return cls(target, b, view.interval_ms / 1000.0, timeout, view.queue_size, t_one,
                   t_batch, compile_s, 2 if b.on else 1, helper, **extra)

    # --- words ------------------------------------------------------------------------------
    def versus(self, view) -> list[str]:
        """Simulated next to analytic, one short phrase per regime the run went through."""
        import numpy as np

        f = view.frame
        status_of = np.array([c.status for c in view.categories] + [""], dtype=object)
        statuses = status_of[f["cat_code"].to_numpy()]
        lat = f["latency"].to_numpy() * 1000.0

        def sel(status: str) -> np.ndarray:
            return lat[statuses == status]

        out = []
        helper = sel("helper")
        if self.helper and len(helper):
            out.append(f"CPU helper median {np.median(helper):.1f} ms vs {self.t_helper * 1e3:.1f}"
                       f" ms ({self.t_cpu * 1e3:.1f} ms x {1 + self.host_load:g}, the compile "
                       f"loads the CPU)")
        if self.switch is not None and view.switch is not None:
            out.append(f"switch {view.switch[0]:.2f} s vs {self.switch:.2f} s "
                       f"({self.n_compiles} x {self.compile_s:.2f} s compile - "
                       f"{self.helper_compile_s:.2f} s CPU)")
        plain = sel("plain")
        if len(plain):
            out.append(f"{self.target} median {np.median(plain):.1f} ms vs "
                       f"{self.t_one * 1e3:.1f} ms")
        batched = sel("batch")
        if len(batched):
            lo, hi = self.batch_range
            over = batched.max() - hi * 1e3
            model = f"{lo * 1e3:.0f}-{hi * 1e3:.0f} ms"
            if over > 0.5:  # a range the run leaves says so, as the alone bound below
                model = (f"about {model} ({over:.0f} ms more: runs queued ahead on the device, "
                         f"not in the model)")
            out.append(f"batch of {self.batch.size} {batched.min():.0f}-{batched.max():.0f} ms vs "
                       f"{model}")
        alone = sel("alone")
        if len(alone):
            bound = self.alone_range[1] * 1e3
            # T + t(1) is a law only for a request that finds the device free; one sent alone
            # behind runs already queued waits for them too, which the simple model leaves out
            if alone.max() <= bound + 0.5:
                versus = f"<= {bound:.0f} ms (T + t(1))"
            else:
                versus = (f"about {bound:.0f} ms (T + t(1); {alone.max() - bound:.0f} ms more: "
                          f"runs queued ahead on the device, not in the model)")
            out.append(f"alone max {alone.max():.0f} ms vs {versus}, mean {alone.mean():.0f} vs "
                       f"{(self.timeout / 2 + self.t_one) * 1e3:.0f} ms")
        stats = view.stats()
        if stats["requests"] and view.complete:
            law = (f"{stats['throughput']:.1f} vs {self.throughput:.1f} inferences/s "
                   f"(Little: min(1/{self.interval * 1e3:g} ms, {self.queue} / "
                   f"{self.steady_latency * 1e3:.0f} ms)")
            if stats["throughput"] < 0.9 * self.throughput:  # a short run is not a steady state
                law += ("; lower here: the law is the steady state, and this run ends with its "
                        "last requests waiting for the batch timeout" if len(alone) else
                        "; lower here: the law is the steady state, this short run is mostly "
                        "its start and its end")
            out.append(law + ")")
        return out
