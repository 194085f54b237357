"""Simulated time: one SimPy environment per :class:`ovlab.Core`.

Nothing in ovlab sleeps: a 10 s GPU compile or a 2,000-request experiment is a sequence of SimPy
events processed in milliseconds of wall time, in the same order on every run. Blocking calls
(``wait()``, ``infer()``, a full ``AsyncInferQueue``) run the event loop until what they wait for
has happened. ``realtime=f`` paces the loop so that simulated time runs ``f`` times as fast as wall
time (``f=1``: real speed), which lets a live plot grow while a learner watches.

Time is a float64 number of seconds, so its resolution shrinks as it grows: ``now + d == now`` once
``d`` is below half an ulp of ``now`` (about 1.8e-12 s at 2**14 s). Nothing in the scheduler may
therefore wait for time to move by a fixed epsilon: completions are decided by what was scheduled
(see ``runtime/sharing.py``), not by comparing float times with a tolerance. The clock refuses to go
past :attr:`Clock.HORIZON_S` (2**32 s, about 136 years), below which it still resolves half a
microsecond, and refuses NaN and infinite durations, which would poison it.

Timers (:meth:`Clock.call_at_delay`) can be cancelled. A cancelled timer stays in SimPy's heap
until it reaches the head, where it is dropped without moving the clock, so ``run_all()`` and the
deadlock check see only what is still due.
"""

from __future__ import annotations

import math
import numbers
import time
from heapq import heappop, heappush
from typing import Any

import simpy
from simpy.events import NORMAL, PENDING

INF = float("inf")


def _fire(timer: Timer) -> None:
    """A timer's one callback (a function, not a bound method: nothing made per timer)."""
    if timer.cancelled:  # popped by step() without peek() (SimPy's own run loop)
        timer.env._cancelled -= 1
        return
    fn, args = timer._fn, timer._args
    timer._fn = timer._args = None
    fn(*args)


_FIRE = (_fire,)  # every plain timer's callbacks (the loop only iterates them)


class Timer:
    """``fn(*args)`` at a simulated time, unless :meth:`cancel` was called before.

    What ``simpy.Timeout`` would be in SimPy's heap, with the same entry (time, priority, event
    id), so the same order of events, but a slotted object scheduled without SimPy's calls: two
    of them are made per inference.
    """

    __slots__ = ("env", "callbacks", "cancelled", "_fn", "_args")
    _ok = True  # what the event loop reads of an event, for every timer
    _value = None

    def __init__(self, env: _PacedEnvironment, delay: float, fn, args: tuple,
                 callbacks: tuple = (), eid: int | None = None) -> None:
        # callbacks: a tuple of callbacks that take the timer itself (and skip it when it was
        # cancelled), called instead of fn(*args): one call less on the runtime's hottest path.
        # eid: the event id, when the caller already took it (runtime/sharing.py)
        self.env = env
        self.callbacks: tuple | None = callbacks or _FIRE
        self.cancelled = False
        self._fn = fn
        self._args = args
        heappush(env._queue, (env._now + delay, NORMAL,
                              next(env._eid) if eid is None else eid, self))

    @property
    def triggered(self) -> bool:
        return True  # scheduled when made, as a Timeout is

    @property
    def processed(self) -> bool:
        return self.callbacks is None

    def cancel(self) -> None:
        """Drop the call; a timer that already fired or was cancelled is left alone."""
        if self.cancelled or self.callbacks is None:
            return
        self.cancelled = True
        self._fn = self._args = None
        self.env._cancelled += 1


class Signal:
    """A one-shot event that only the runtime waits for: a request done, a queue slot idle.

    It takes the same place in SimPy's heap as a ``simpy.Event`` (``succeed()`` schedules it
    now, with the next event id), so everything happens in the same order, but it is a slotted
    object of four fields: two of them are made per inference. Not for SimPy processes to
    ``yield`` (they get :meth:`Clock.event`).

    Nothing runs when a Signal is processed, so when nothing else is due at this instant (the
    heap's head is later) the loop would pop it next, and ``succeed()`` marks it processed at
    once instead: the same moment, without a trip through the heap (an event id it would have
    taken is never compared with another). With another event due now, or the runner's helper
    threads to consult first, it goes through the heap as a SimPy event would.
    """

    __slots__ = ("env", "callbacks", "_value")
    _ok = True  # a Signal never fails

    def __init__(self, env: simpy.Environment) -> None:
        self.env = env
        self.callbacks: tuple | None = ()  # nothing is called: the runtime polls processed
        self._value: Any = PENDING

    @property
    def triggered(self) -> bool:
        return self._value is not PENDING

    @property
    def processed(self) -> bool:
        return self.callbacks is None

    @property
    def value(self) -> Any:
        if self._value is PENDING:
            raise AttributeError(f"Value of {self} is not yet available")
        return self._value

    def succeed(self, value: Any = None) -> Signal:
        if self._value is not PENDING:
            raise RuntimeError(f"{self} has already been triggered")
        self._value = value
        env = self.env
        queue = env._queue
        if env.side is None and (not queue or queue[0][0] > env._now):
            self.callbacks = None  # processed: what popping it next would do
            return self
        heappush(queue, (env._now, NORMAL, next(env._eid), self))
        return self


class _PacedEnvironment(simpy.Environment):
    """A SimPy environment that skips cancelled timers and can pace itself to wall time."""

    def __init__(self) -> None:
        super().__init__(0.0)  # float time from the start: the runtime reads env._now directly
        self.pace: float | None = None
        self._anchor_sim = 0.0
        self._anchor_wall = 0.0
        self._cancelled = 0  # cancelled timers still in the heap
        # Wake-ups kept outside the model (the runner's helper threads, runner/threads.py): an
        # object with ``due`` (the earliest, or INF), ``busy`` (a woken one still runs) and
        # ``advance_to(t)`` (run those due up to ``t`` before the clock moves past it).
        self.side = None

    def anchor(self) -> None:
        self._anchor_sim = self.now
        self._anchor_wall = time.monotonic()

    def peek(self) -> float:
        """The time of the next event that will do something (cancelled timers are dropped)."""
        queue = self._queue
        if self._cancelled:
            while queue:
                head = queue[0][3]
                if type(head) is not Timer or not head.cancelled:
                    break
                heappop(queue)
                head.callbacks = None  # processed: nothing runs it any more
                self._cancelled -= 1
        return queue[0][0] if queue else INF

    def step(self) -> None:
        if self._cancelled or self.pace or self.side is not None:
            t = self.peek()  # drops cancelled timers at the head: they never move the clock
            side = self.side
            if side is not None and (side.busy or side.due <= t):
                side.advance_to(t)
            if self.pace and t != INF:
                self.wait_wall(t)
        super().step()

    def run_events(self, event: simpy.Event | Signal | None = None, until: float = INF) -> bool:
        """Process events until ``event`` has been processed (True), or until the next event
        is due after ``until`` or none is left (False).

        SimPy's ``step()`` inlined (an inference runs about four events): pop the head, run its
        callbacks, crash on an undefused failure, exactly as ``Environment.step`` does. Cancelled
        timers at the head are dropped first, so they never move the clock; paced, each event
        first waits for its wall time.
        """
        queue = self._queue
        while event is None or event.callbacks is not None:
            while self._cancelled and queue:  # peek(), inlined
                head = queue[0][3]
                if type(head) is not Timer or not head.cancelled:
                    break
                heappop(queue)
                head.callbacks = None
                self._cancelled -= 1
            if not queue or queue[0][0] > until:
                return False
            side = self.side  # the runner's helper threads run what falls due before it
            if side is not None and (side.busy or side.due <= queue[0][0]):
                side.advance_to(queue[0][0])  # may schedule events and cancel timers
                if self.peek() == INF:  # drops the cancelled timers now at the head
                    return False
            if self.pace:
                self.wait_wall(queue[0][0])
            self._now, _, _, head = heappop(queue)
            callbacks, head.callbacks = head.callbacks, None
            for callback in callbacks:
                callback(head)
            if not head._ok and not hasattr(head, "_defused"):
                exc = type(head._value)(*head._value.args)
                exc.__cause__ = head._value
                raise exc
        return True

    def jump(self, t: float) -> None:
        """Move the clock to ``t``, nothing being due before it (paced: at its wall time)."""
        if self.pace:
            self.wait_wall(t)
        if t > self._now:
            self._now = t

    def wait_wall(self, t: float) -> None:
        """Paced: sleep until the wall time at which simulated time ``t`` is due."""
        delay = self._anchor_wall + (t - self._anchor_sim) / self.pace - time.monotonic()
        if delay > 0:
            time.sleep(delay)


class Deadlock(RuntimeError):
    """Raised when a blocking call waits for something no scheduled event can bring."""


def _seconds(value: Any, what: str) -> float:
    """``value`` as a float number of seconds; TypeError for what is not a real number."""
    if type(value) is float:  # the common case, without numbers.Real's ABC check (~1 us)
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what} takes a number of seconds (int or float), got {value!r}")
    return float(value)


class Clock:
    """The simulated clock of a Core: ``now`` in seconds since the Core was made."""

    #: the clock never goes past this time (2**32 s, ~136 years): below it float64 time still
    #: resolves half a microsecond, so millisecond inferences keep their durations
    HORIZON_S = 2.0**32

    def __init__(self, realtime: float | None = None) -> None:
        self.env = _PacedEnvironment()
        self.realtime = realtime
        self._depth = 0

    # --- reading and pacing -------------------------------------------------------------
    @property
    def now(self) -> float:
        """Simulated seconds since the Core was created."""
        return self.env._now  # a float from the start (the environment starts at 0.0)

    @property
    def realtime(self) -> float | None:
        """``None``: no wall time passes; ``f``: simulated time runs ``f`` x wall time."""
        return self.env.pace

    @realtime.setter
    def realtime(self, factor: float | None) -> None:
        if factor is not None and not factor > 0:
            raise ValueError(f"realtime must be a positive factor or None, got {factor!r}")
        self.env.pace = factor
        if factor:  # paced from here (a blocking call anchors again when it starts)
            self.env.anchor()

    # --- advancing ----------------------------------------------------------------------
    def _target(self, seconds: float, what: str) -> float:
        """``now + seconds``, refusing NaN, negative, infinite and past-the-horizon values."""
        if math.isnan(seconds):
            raise ValueError(f"ovlab: cannot {what} NaN seconds")
        if seconds < 0:
            raise ValueError(f"ovlab: cannot {what} a negative time ({seconds} s)")
        target = self.env.now + seconds
        if not target <= self.HORIZON_S:
            raise ValueError(
                f"ovlab: cannot {what} {seconds!r} s: the simulated clock (now {self.now!r} s) "
                f"would pass its horizon of 2**32 s (~136 years), beyond which float time no "
                "longer resolves a microsecond")
        return target

    def sleep(self, seconds: float) -> None:
        """Advance simulated time by ``seconds``, running every event due meanwhile."""
        env = self.env
        target = env._now + seconds if type(seconds) is float and 0.0 <= seconds else math.nan
        if target <= self.HORIZON_S and not self._depth and not env.pace:
            # the seed scripts' pacing sleep, once per request: the checks of _seconds, _target
            # and _enter cannot fail here and are skipped; NaN, negative, too far, paced or
            # nested calls take them, and raise their errors
            self._depth = 1
        else:
            target = self._target(_seconds(seconds, "Clock.sleep()"), "sleep")
            self._enter()
        try:
            # our own loop instead of SimPy's run(until=...), which costs ~70 us of set-up per
            # call (the seed experiments sleep 2,000 times). Events due at the target itself
            # run too, as they did behind run(until=timeout(seconds)).
            env.run_events(None, target)
            self._arrive(target)
        finally:
            self._depth -= 1

    def _arrive(self, target: float) -> None:
        """Move the clock to ``target`` (no event is due before it)."""
        env = self.env
        side = env.side
        if side is not None and (side.busy or side.due <= target):
            side.advance_to(target)
        env.jump(target)  # paced: the end of the wait is due at a wall time too

    def run_until(self, event: simpy.Event | Signal, what: str = "the awaited event") -> Any:
        """Run the event loop until ``event`` has been processed; return its value."""
        if event.callbacks is None:  # processed
            return event.value
        if self._depth:  # _enter(), inlined: once per wait
            self._enter()  # raises
        self._depth = 1
        if self.env.pace:
            self.env.anchor()
        try:
            if not self.env.run_events(event):
                raise Deadlock(
                    f"ovlab: waiting for {what}, but nothing else is scheduled: it can never "
                    "happen (every started request has already completed)")
        finally:
            self._depth -= 1
        return event._value  # processed, so triggered: what .value would check

    def run_for(self, event: simpy.Event | Signal, seconds: float, what: str = "wait") -> bool:
        """Run until ``event`` is processed or ``seconds`` have passed; True if it was.

        Nothing is scheduled for the deadline, so a wait that ends early leaves no timer that a
        later ``run_all()`` would jump to.
        """
        if event.processed:
            return True
        env = self.env
        deadline = self._target(seconds, what)
        self._enter()
        try:
            if not env.run_events(event, deadline):
                self._arrive(deadline)
                return False
        finally:
            self._depth -= 1
        return True

    def _enter(self) -> None:
        if self._depth:
            raise RuntimeError(
                "ovlab: a blocking call (wait, infer, a full AsyncInferQueue.start_async, "
                "sleep) was made inside a completion callback; in OpenVINO this would deadlock. "
                "Only start_async on idle requests is allowed in callbacks."
            )
        self._depth += 1
        if self.env.pace:
            self.env.anchor()

    def run_all(self) -> None:
        """Run until nothing is scheduled any more (cancelled timers do not count)."""
        self._enter()
        try:
            self.env.run_events()
        finally:
            self._depth -= 1

    # --- building blocks for plugins ----------------------------------------------------
    def event(self) -> simpy.Event:
        return self.env.event()

    def signal(self) -> Signal:
        """A lean one-shot event for the runtime's own waits (see :class:`Signal`)."""
        return Signal(self.env)

    def call_at_delay(self, delay: float, fn, *args) -> Timer:
        """Schedule ``fn(*args)`` after ``delay`` simulated seconds (cheap: no process).

        Returns the :class:`Timer`; ``timer.cancel()`` drops the call.
        """
        if not 0.0 <= delay < INF:  # also catches NaN: a NaN time would poison the heap
            raise ValueError(f"ovlab internal error: a timer for {getattr(fn, '__qualname__', fn)}"
                             f" was scheduled {delay!r} s ahead")
        return Timer(self.env, delay, fn, args)

    def process(self, generator) -> simpy.Process:
        return self.env.process(generator)
