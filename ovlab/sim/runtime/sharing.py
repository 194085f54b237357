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
from heapq import heappush

from simpy.events import NORMAL

from .clock import INF, Timer

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
        return sum(sum(share._mem.values()) for share in self.shares)

    def before_change(self, origin: DeviceShare) -> None:
        """The domain's demand is about to change: the other devices book the work done so far
        at their current rate."""
        for share in self.shares:
            if share is not origin:
                share._advance()

    def after_change(self, origin: DeviceShare) -> None:
        """The demand changed: the other devices re-time their next completion at the new rate
        (the domain's demand summed once for all of them: it is the same for each)."""
        demand = None
        for share in self.shares:
            if share is not origin:
                if demand is None:
                    demand = self.demand()
                share._update_rate(demand)
                share._schedule()


class DeviceShare:
    """The running inferences of one device and when the next of them completes.

    Every start and completion runs this class once, so the arithmetic is done in a fixed
    order on cached sums: the total demand is summed again (in the same order) only when the set
    of running jobs changes, and the rate only when that or the speed does.
    """

    __slots__ = ("clock", "env", "running", "_rem", "_demands", "_total", "_rate_now", "_last",
                 "_timer", "_due", "_next_id", "_level", "_busy_since", "_busy_total", "_marks",
                 "speed", "on_busy", "_tick_call", "_mem", "pool", "_timer_at", "_timer_eid")

    def __init__(self, clock) -> None:
        self.clock = clock
        self.env = clock.env
        # the running jobs, by id (in the order they started), in three dicts of the same keys
        # so that sums and minimums are taken by the builtins
        self.running: dict[int, tuple] = {}  # id -> (callback, its arguments)
        self._rem: dict[int, float] = {}  # id -> remaining nominal seconds
        self._demands: dict[int, float] = {}  # id -> demand
        self._total = 0  # sum of the demands (an int 0 when idle, as sum() gives)
        self._rate_now = 1.0  # nominal seconds of work done per simulated second
        self._last = clock.now
        self._timer = None  # the Timer of the next completion
        self._timer_at = 0.0  # its time in the heap
        self._timer_eid = -1  # the last event id it stands for (see _schedule)
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
        self._tick_call = (self._tick,)  # made once: a timer per start and completion calls it
        self._mem: dict[int, float] = {}  # id -> memory demand (only with a pool)
        self.pool: MemoryPool | None = None  # the shared memory of a share_bandwidth device

    @property
    def demand(self) -> float:
        return self._total

    def _rate(self) -> float:
        return self._rate_now

    def _demand_changed(self) -> None:
        self._total = sum(self._demands.values())
        self._update_rate()

    def _update_rate(self, pool_demand: float | None = None) -> None:
        """The rate from the device's demand (and its memory domain's, with a pool: summed
        here unless the caller has it)."""
        total = self._total
        if self.pool is not None:
            total = max(total, self.pool.demand() if pool_demand is None else pool_demand)
        self._rate_now = (1.0 / total if total > 1.0 else 1.0) * self.speed

    def set_speed(self, speed: float) -> None:
        """Run at ``speed`` from now on (work done so far was done at the old speed)."""
        if speed != self.speed:
            self._advance()
            self.speed = speed
            self._demand_changed()
            self._schedule()

    def _advance(self) -> None:
        """Take the work done since the last change off every running job."""
        now = self.env._now
        rem = self._rem
        if rem and now > self._last:
            done = (now - self._last) * self._rate_now
            for key in rem:
                rem[key] -= done
        self._last = now

    def start(self, nominal: float, demand: float, callback: Callable[..., None],
              *args, memory: float = 0.0) -> None:
        """Run ``nominal`` seconds of work needing ``demand`` of the device (and ``memory`` of
        its memory domain's bandwidth); call ``callback(*args)`` when it is done."""
        pool = self.pool
        if pool is None:
            self.run(nominal, demand, callback, args)
            return
        pool.before_change(self)
        self._advance()  # (the plain path, run(), has it inlined)
        was_idle = not self._rem
        key = self._next_id
        self._next_id = key + 1
        self._rem[key] = nominal
        self._demands[key] = demand
        self.running[key] = (callback, args)
        self._mem[key] = memory
        self._changed()
        pool.after_change(self)
        if was_idle and self.on_busy is not None:
            self.on_busy(True)

    def run(self, nominal: float, demand: float, callback: Callable[..., None],
            args: tuple) -> None:
        """:meth:`start` on a device without a memory pool, the path of every plain inference:
        ``_advance``, ``_changed`` and ``_schedule`` inlined, the same arithmetic in the same
        order."""
        now = self.env._now
        rem = self._rem
        if rem and now > self._last:
            done = (now - self._last) * self._rate_now
            for key in rem:
                rem[key] -= done
        self._last = now
        was_idle = not rem
        key = self._next_id
        self._next_id = key + 1
        rem[key] = nominal
        demands = self._demands
        demands[key] = demand
        self.running[key] = (callback, args)
        # _changed()
        total = self._total = sum(demands.values())
        rate = self._rate_now = (1.0 / total if total > 1.0 else 1.0) * self.speed
        if now != self._busy_since:  # at the last change's instant: nothing to fold (exactly)
            self._busy_total += self._level * (now - self._busy_since)
            self._busy_since = now
            marks = self._marks
            if now - marks[-1][0] >= CHECKPOINT_S:
                marks.append((now, self._busy_total))
        self._level = total if total < 1.0 else 1.0
        # _schedule()
        least = min(rem.values())
        if least < 0.0:
            least = 0.0
        self._due = least
        delay = least / rate
        if not 0.0 <= delay < INF:
            self.clock.call_at_delay(delay, self._tick)  # raises, naming the bad delay
        env = self.env
        eid = next(env._eid)
        timer = self._timer
        if timer is not None:
            if eid == self._timer_eid + 1 and now + delay == self._timer_at:
                self._timer_eid = eid  # the timer in the heap stands for this one (_schedule)
            else:
                timer.cancel()
                self._timer_at = now + delay
                self._timer_eid = eid
                self._timer = Timer(env, delay, None, (), self._tick_call, eid)
        else:
            self._timer_at = now + delay
            self._timer_eid = eid
            self._timer = Timer(env, delay, None, (), self._tick_call, eid)
        if was_idle and self.on_busy is not None:
            self.on_busy(True)

    def _changed(self) -> None:
        """After a start or a completion (twice per inference, so in one call): the demand and
        the rate; the busy level since the last change folded into the running total of busy
        time, with a checkpoint every :data:`CHECKPOINT_S`; the next completion.

        Memory stays bounded however many inferences run: one level, one total and at most
        ``HISTORY_S / CHECKPOINT_S`` checkpoints per device."""
        total = self._total = sum(self._demands.values())
        if self.pool is None:
            self._rate_now = (1.0 / total if total > 1.0 else 1.0) * self.speed
        else:
            self._update_rate()
        now = self.env._now
        self._busy_total += self._level * (now - self._busy_since)
        self._busy_since = now
        self._level = total if total < 1.0 else 1.0  # min(1.0, total)
        marks = self._marks
        if now - marks[-1][0] >= CHECKPOINT_S:
            marks.append((now, self._busy_total))
        self._schedule()

    def _schedule(self) -> None:
        """The timer of the next completion, at ``now`` + the least work left / the rate.

        A start right after a completion (the next request of a queue, at the same instant)
        usually leaves that time as it was. When no event was made since the timer in the heap
        was (it took the event id just before the one this call takes), a new timer for the
        same time would sit at the same place among every other event: the old one is kept, and
        the next call compares with this call's id. Otherwise it is cancelled and replaced.
        """
        timer = self._timer
        rem = self._rem
        if not rem:
            if timer is not None:
                timer.cancel()
                self._timer = None
            return
        least = min(rem.values())
        if least < 0.0:  # max(least, 0.0): -0.0 and NaN stay as they are
            least = 0.0
        self._due = least
        delay = least / self._rate_now
        if not 0.0 <= delay < INF:
            self.clock.call_at_delay(delay, self._tick)  # raises, naming the bad delay
        env = self.env
        eid = next(env._eid)
        at = env._now + delay
        if timer is not None:
            if eid == self._timer_eid + 1 and at == self._timer_at:
                self._timer_eid = eid
                return
            timer.cancel()
        self._timer_at = at
        self._timer_eid = eid
        self._timer = Timer(env, delay, None, (), self._tick_call, eid)

    def _tick(self, timer: Timer) -> None:
        """The next completion is due: finish the job(s) it was scheduled for."""
        if timer.cancelled:  # popped by SimPy's own step() (the runtime's loop drops these)
            timer.env._cancelled -= 1
            return
        self._timer = None
        now = self._last = self.env._now
        pool = self.pool
        if pool is not None:
            pool.before_change(self)
        due = self._due
        rem = self._rem
        finished = []
        for key in rem:
            left = rem[key] = rem[key] - due
            if left <= 0.0:  # the job this tick was for (x - x == 0 exactly), and ties
                finished.append(key)
        running = self.running
        demands = self._demands
        callbacks = []
        for key in finished:
            del rem[key], demands[key]
            if pool is not None:
                del self._mem[key]
            callbacks.append(running.pop(key))
        if pool is not None:
            self._changed()
            pool.after_change(self)
        else:  # _changed() and _schedule(), inlined (no timer is left: this one fired)
            total = self._total = sum(demands.values())
            rate = self._rate_now = (1.0 / total if total > 1.0 else 1.0) * self.speed
            self._busy_total += self._level * (now - self._busy_since)
            self._busy_since = now
            self._level = total if total < 1.0 else 1.0
            marks = self._marks
            if now - marks[-1][0] >= CHECKPOINT_S:
                marks.append((now, self._busy_total))
            if rem:
                least = min(rem.values())
                if least < 0.0:
                    least = 0.0
                self._due = least
                delay = least / rate
                if not 0.0 <= delay < INF:
                    self.clock.call_at_delay(delay, self._tick)  # raises, naming the bad delay
                # the timer that fired is scheduled again (what a new Timer would be, one
                # object less per inference)
                env = self.env
                eid = self._timer_eid = next(env._eid)
                at = self._timer_at = now + delay
                timer.callbacks = self._tick_call
                heappush(env._queue, (at, NORMAL, eid, timer))
                self._timer = timer
        if callbacks and not running and self.on_busy is not None:
            self.on_busy(False)
        for callback, args in callbacks:
            callback(*args)

    # --- utilization ---------------------------------------------------------------------------
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
