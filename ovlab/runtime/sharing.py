"""Processor sharing: the inferences running on one device share it.

A compiled model with S streams runs each inference on 1/S of its device (the cost model already
stretches one inference by the number of streams). Several compiled models on the same device, a
BATCH model's batched and batch-1 requests, HETERO submodels of requests in flight, AUTO's helper
and a user's own CPU model: all of them draw from the same device. Each running inference
*demands* ``1 / streams`` of the device; while the demands add up to 1 or less every inference
runs at its nominal speed, and beyond that all of them slow down by the total demand (egalitarian
processor sharing). Completion times are recomputed whenever an inference starts or ends.

Completions are decided by what was scheduled, never by comparing float times or remaining work
with an epsilon: the tick scheduled for the job with the least work left finishes that job (and
any job with as little left), and takes exactly that much work off the others. An absolute epsilon
failed once the clock passed ~2**14 s, where ``now + remaining`` rounds back to ``now``: the tick
found a sliver of work left, rescheduled itself at the same instant, and looped forever.
"""

from __future__ import annotations

from collections.abc import Callable


class DeviceShare:
    """The running inferences of one device and when the next of them completes."""

    __slots__ = ("clock", "running", "_last", "_timer", "_due", "_next_id")

    def __init__(self, clock) -> None:
        self.clock = clock
        self.running: dict[int, list] = {}  # id -> [remaining nominal seconds, demand, callback]
        self._last = clock.now
        self._timer = None  # the Timer of the next completion
        self._due = 0.0  # nominal work each running job will have done when it fires
        self._next_id = 0

    @property
    def demand(self) -> float:
        return sum(job[1] for job in self.running.values())

    def _rate(self) -> float:
        total = self.demand
        return 1.0 / total if total > 1.0 else 1.0

    def _advance(self) -> None:
        """Take the work done since the last change off every running job."""
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
        self._schedule()

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self.running:
            return
        self._due = max(min(job[0] for job in self.running.values()), 0.0)
        self._timer = self.clock.call_at_delay(self._due / self._rate(), self._tick)

    def _tick(self) -> None:
        """The next completion is due: finish the job(s) it was scheduled for."""
        self._timer = None
        self._last = self.clock.now
        due = self._due
        finished = []
        for key, job in self.running.items():
            job[0] -= due
            if job[0] <= 0.0:  # the job this tick was for (x - x == 0 exactly), and ties
                finished.append(key)
        callbacks = [self.running.pop(k)[2] for k in finished]
        self._schedule()
        for cb in callbacks:
            cb()
