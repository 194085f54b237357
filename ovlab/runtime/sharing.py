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

Each device also keeps a short, bounded history of how busy it was (``min(1, total demand)``),
so :meth:`DeviceShare.utilization` answers what a telemetry service such as Intel's
Platform Framework reports: the busy fraction over a recent window. Resource-aware AUTO and the
dashboards read it.

Memory is shared the same way (issue 22), on devices whose spec sets ``share_bandwidth``: each
running inference also demands a share of its memory domain's bandwidth (``cost.memory_demand``:
the DRAM bytes it moves over its time, against the bandwidth its device reaches). The devices of
one domain (a package's CPU and iGPU) hold one :class:`MemoryPool`; while its demands add up to
more than 1, every inference of the domain runs at ``1 / max(compute demand, memory demand)``.
A device without the flag has no pool and runs exactly as before.

A device on a shared power budget (``hardware/power.py``) also runs at ``speed`` (< 1 while
other devices of the package are busy): ``on_busy`` reports when the device becomes busy or idle,
and the budget sets every coupled device's speed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

#: how much busy history a device keeps (seconds of simulated time), and how often it notes it
HISTORY_S = 5.0
CHECKPOINT_S = 0.01


class MemoryPool:
    """One DRAM shared by the devices of a memory domain: the sum of their inferences' memory
    demands, and the hand-off that lets a change on one device re-time the others."""

    __slots__ = ("shares",)

    def __init__(self) -> None:
        self.shares: list[DeviceShare] = []

    def demand(self) -> float:
        return sum(job[3] for share in self.shares for job in share.running.values())

    def before_change(self, origin: DeviceShare) -> None:
        """The domain's demand is about to change: the other devices book the work done so far
        at their current rate."""
        for share in self.shares:
            if share is not origin:
                share._advance()

    def after_change(self, origin: DeviceShare) -> None:
        """The demand changed: the other devices re-time their next completion."""
        for share in self.shares:
            if share is not origin:
                share._schedule()


class DeviceShare:
    """The running inferences of one device and when the next of them completes."""

    __slots__ = ("clock", "running", "_last", "_timer", "_due", "_next_id", "_level",
                 "_busy_since", "_busy_total", "_marks", "speed", "on_busy", "pool")

    def __init__(self, clock) -> None:
        self.clock = clock
        # id -> [remaining nominal seconds, demand, callback, memory demand]
        self.running: dict[int, list] = {}
        self._last = clock.now
        self._timer = None  # the Timer of the next completion
        self._due = 0.0  # nominal work each running job will have done when it fires
        self._next_id = 0
        # utilization: the level now, since when, busy seconds before that, checkpoints
        self._level = 0.0
        self._busy_since = clock.now
        self._busy_total = 0.0
        self._marks: deque[tuple[float, float]] = deque(
            [(clock.now, 0.0)], maxlen=int(HISTORY_S / CHECKPOINT_S))
        self.speed = 1.0  # < 1 while a shared power budget slows the device
        self.on_busy: Callable[[bool], None] | None = None
        self.pool: MemoryPool | None = None  # the shared memory of a share_bandwidth device

    @property
    def demand(self) -> float:
        return sum(job[1] for job in self.running.values())

    def _rate(self) -> float:
        total = self.demand
        if self.pool is not None:
            total = max(total, self.pool.demand())
        return (1.0 / total if total > 1.0 else 1.0) * self.speed

    def set_speed(self, speed: float) -> None:
        """Run at ``speed`` from now on (work done so far was done at the old speed)."""
        if speed != self.speed:
            self._advance()
            self.speed = speed
            self._schedule()

    def _advance(self) -> None:
        """Take the work done since the last change off every running job."""
        now = self.clock.now
        if self.running and now > self._last:
            done = (now - self._last) * self._rate()
            for job in self.running.values():
                job[0] -= done
        self._last = now

    def start(self, nominal: float, demand: float, callback: Callable[[], None],
              memory: float = 0.0) -> None:
        """Run ``nominal`` seconds of work needing ``demand`` of the device (and ``memory`` of
        its memory domain's bandwidth); call ``callback`` when it is done."""
        self._advance()
        pool = self.pool
        if pool is not None:
            pool.before_change(self)
        was_idle = not self.running
        self.running[self._next_id] = [nominal, demand, callback, memory]
        self._next_id += 1
        self._note_busy()
        self._schedule()
        if pool is not None:
            pool.after_change(self)
        if was_idle and self.on_busy is not None:
            self.on_busy(True)

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
        pool = self.pool
        if pool is not None:
            pool.before_change(self)
        due = self._due
        finished = []
        for key, job in self.running.items():
            job[0] -= due
            if job[0] <= 0.0:  # the job this tick was for (x - x == 0 exactly), and ties
                finished.append(key)
        callbacks = [self.running.pop(k)[2] for k in finished]
        self._note_busy()
        self._schedule()
        if pool is not None:
            pool.after_change(self)
        if callbacks and not self.running and self.on_busy is not None:
            self.on_busy(False)
        for cb in callbacks:
            cb()

    # --- utilization ---------------------------------------------------------------------------
    def _note_busy(self) -> None:
        """Fold the busy level since the last change into the running total of busy time and
        note a checkpoint every :data:`CHECKPOINT_S` (called after every start and completion).

        Memory stays bounded however many inferences run: one level, one total and at most
        ``HISTORY_S / CHECKPOINT_S`` checkpoints per device."""
        now = self.clock.now
        self._busy_total += self._level * (now - self._busy_since)
        self._busy_since = now
        self._level = min(1.0, self.demand)
        marks = self._marks
        if now - marks[-1][0] >= CHECKPOINT_S:
            marks.append((now, self._busy_total))

    def _busy_at(self, t: float) -> float:
        """Busy seconds accumulated up to time ``t`` (between checkpoints: interpolated)."""
        if t >= self._busy_since:  # since the last change the level is known: exact
            return self._busy_total + self._level * (t - self._busy_since)
        later = (self._busy_since, self._busy_total)
        for mark in reversed(self._marks):
            if mark[0] <= t:
                t0, c0 = mark
                t1, c1 = later
                return c0 if t1 <= t0 else c0 + (c1 - c0) * (t - t0) / (t1 - t0)
            later = mark
        return 0.0  # before the first checkpoint (or the history kept): idle

    def utilization(self, window: float) -> float:
        """Busy fraction of the device over the last ``window`` seconds (0..1).

        Busy means "running something": a device with demands adding up to 1 or more is fully
        busy, one lone stream of a 4-stream CPU model keeps it a quarter busy. The start of the
        window is read between checkpoints, so a reading is exact to ``CHECKPOINT_S / window``.
        """
        now = self.clock.now
        if window <= 0:
            return min(1.0, self.demand)
        busy = self._busy_at(now) - self._busy_at(now - window)
        return max(0.0, min(1.0, busy / window))
