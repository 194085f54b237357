"""Background workloads: another application keeping a device busy while yours runs.

Resource-aware AUTO (2026) moves an inference off a device that is busier than its threshold.
To watch it, something else must load that device: :class:`BackgroundLoad` is such an
application, a request on its own compiled model that runs back to back with an idle gap after
each inference, sized so that the device is busy ``fraction`` of the time (one inference of
``t`` seconds, then ``t * (1 - fraction) / fraction`` idle). The fraction can change while it runs
(a dashboard slider) and the load can stop at a chosen time, so a scenario is fully determined
by its seed. It uses only the public API (a compiled model and an infer request with a
completion callback), as a second program on the same machine would.
"""

from __future__ import annotations

from typing import Any


class BackgroundLoad:
    """Keep ``device`` about ``fraction`` busy with ``model`` (a GoogLeNet-v1 FP16 by default).

    The model is compiled when the load is made (that takes simulated time, like starting the
    other program); :meth:`run` starts the load, now or at ``start``, until ``stop`` (absolute
    simulated seconds)."""

    def __init__(self, core, device: str, fraction: float, model: Any = None, *,
                 config: dict | None = None) -> None:
        from .models import zoo

        if not 0.0 <= fraction <= 1.0:
            raise ValueError(f"fraction must be within 0..1, got {fraction}")
        self.core = core
        self.device = device
        self.fraction = float(fraction)
        self.model = model if model is not None else zoo.load("googlenet-v1", "FP16")
        cfg = {"PERFORMANCE_HINT": "LATENCY", **(config or {})}
        self.compiled = core.compile_model(self.model, device, cfg)
        self.request = self.compiled.create_infer_request()
        self.request.set_callback(self._done, None)
        self.stop_time: float | None = None
        self.inferences = 0
        self._stopped = True

    def run(self, start: float | None = None, stop: float | None = None) -> BackgroundLoad:
        """Start loading the device at ``start`` (default: now) until ``stop`` (default: until
        :meth:`stop` is called)."""
        now = self.core.clock.now
        self._stopped = False
        self.stop_time = stop
        self.core.clock.call_at_delay(max(0.0, (now if start is None else start) - now),
                                      self._next)
        return self

    def set_fraction(self, fraction: float) -> None:
        """Change the load from the next inference on."""
        if not 0.0 <= fraction <= 1.0:
            raise ValueError(f"fraction must be within 0..1, got {fraction}")
        was_idle = self.fraction == 0.0
        self.fraction = float(fraction)
        if was_idle and fraction > 0 and not self.request._busy:
            self.core.clock.call_at_delay(0.0, self._next)

    def stop(self) -> None:
        self._stopped = True

    def _running(self) -> bool:
        now = self.core.clock.now
        return not self._stopped and (self.stop_time is None or now < self.stop_time)

    def _next(self) -> None:
        if not self._running() or self.fraction <= 0.0 or self.request._busy:
            return
        self.request.start_async()

    def _done(self, _userdata) -> None:
        self.inferences += 1
        if not self._running() or self.fraction <= 0.0:
            return
        busy = self.request.latency / 1000.0
        gap = busy * (1.0 - self.fraction) / self.fraction
        self.core.clock.call_at_delay(gap, self._next)
