"""Processor sharing: the inferences running on one device share it.

A compiled model with S streams runs each inference on 1/S of its device (the cost model already
stretches one inference by the number of streams). Several compiled models on the same device, a
BATCH model's batched and batch-1 requests, HETERO submodels of requests in flight, AUTO's helper
and a user's own CPU model: all of them draw from the same device. Each running inference
*demands* ``1 / streams`` of the device; while the demands add up to 1 or less every inference
runs at its nominal speed, and beyond that all of them slow down by the total demand (egalitarian
processor sharing). Completion times are recomputed whenever an inference starts or ends.

Each device also keeps a short history of how busy it was (``min(1, total demand)`` between
changes), so :meth:`DeviceShare.utilization` answers what a telemetry service such as Intel's
Platform Framework reports: the busy fraction over a recent window. Resource-aware AUTO and the
dashboards read it.
"""

from __future__ import annotations

from collections.abc import Callable

_EPS = 1e-12
#: how much busy history a device keeps (seconds of simulated time)
HISTORY_S = 10.0


class DeviceShare:
    """The running inferences of one device and when the next of them completes."""

    __slots__ = ("clock", "running", "_last", "_gen", "_next_id", "_busy")

    def __init__(self, clock) -> None:
        self.clock = clock
        self.running: dict[int, list] = {}  # id -> [remaining nominal seconds, demand, callback]
        self._last = clock.now
        self._gen = 0
        self._next_id = 0
        self._busy: list[tuple[float, float]] = [(clock.now, 0.0)]  # (since, busy level)

    @property
    def demand(self) -> float:
        return sum(job[1] for job in self.running.values())

    def _rate(self) -> float:
        total = self.demand
        return 1.0 / total if total > 1.0 else 1.0

    def _advance(self) -> None:
        now = self.clock.now
        if self.running and now > self._last:
            done = (now - self._last) * self._rate()
            for job in self.running.values():
                job[0] -= done
        self._last = now

    def start(self, nominal: float, demand: float, callback: Callable[[], None]) -> None:
        """Run ``nominal`` seconds of work needing ``demand`` of the device; call ``callback``
        when it is done."""
        self._advance()
        self.running[self._next_id] = [nominal, demand, callback]
        self._next_id += 1
        self._note_busy()
        self._schedule()

    def _schedule(self) -> None:
        self._gen += 1
        if not self.running:
            return
        remaining = min(job[0] for job in self.running.values())
        self.clock.call_at_delay(max(remaining, 0.0) / self._rate(), self._tick, self._gen)

    def _tick(self, gen: int) -> None:
        if gen != self._gen:
            return  # a start or completion since then moved the next completion
        self._advance()
        finished = [k for k, job in self.running.items() if job[0] <= _EPS]
        callbacks = [self.running.pop(k)[2] for k in finished]
        self._note_busy()
        self._schedule()
        for cb in callbacks:
            cb()

    # --- utilization ---------------------------------------------------------------------------
    def _note_busy(self) -> None:
        """Record the busy level from now on (called after every start and completion)."""
        now = self.clock.now
        level = min(1.0, self.demand)
        busy = self._busy
        if busy[-1][0] >= now:
            busy[-1] = (now, level)
        elif busy[-1][1] != level:
            busy.append((now, level))
        if len(busy) > 64 and busy[1][0] < now - HISTORY_S:
            cut = next(i for i, (t, _) in enumerate(busy) if t >= now - HISTORY_S)
            del busy[:max(cut - 1, 0)]

    def utilization(self, window: float) -> float:
        """Busy fraction of the device over the last ``window`` seconds (0..1).

        Busy means "running something": a device with demands adding up to 1 or more is fully
        busy, one lone stream of a 4-stream CPU model keeps it a quarter busy.
        """
        now = self.clock.now
        start = now - window
        if window <= 0:
            return min(1.0, self.demand)
        total = 0.0
        end = now
        for t, level in reversed(self._busy):  # newest first: stop at the window's start
            lo = t if t > start else start
            if end > lo:
                total += (end - lo) * level
            if t <= start:
                break
            end = t
        return min(1.0, total / window)
