"""Simulated time: one SimPy environment per :class:`ovlab.Core`.

Nothing in ovlab sleeps: a 10 s GPU compile or a 2,000-request experiment is a sequence of SimPy
events processed in milliseconds of wall time, in the same order on every run. Blocking calls
(``wait()``, ``infer()``, a full ``AsyncInferQueue``) run the event loop until what they wait for
has happened. ``realtime=f`` paces the loop so that simulated time runs ``f`` times as fast as wall
time (``f=1``: real speed), which lets a live plot grow while a learner watches.
"""

from __future__ import annotations

import time
from typing import Any

import simpy


class _PacedEnvironment(simpy.Environment):
    """A SimPy environment that can optionally sleep so simulated time follows wall time."""

    def __init__(self) -> None:
        super().__init__()
        self.pace: float | None = None
        self._anchor_sim = 0.0
        self._anchor_wall = 0.0

    def anchor(self) -> None:
        self._anchor_sim = self.now
        self._anchor_wall = time.monotonic()

    def step(self) -> None:
        if self.pace:
            t = self.peek()
            if t != float("inf"):
                delay = self._anchor_wall + (t - self._anchor_sim) / self.pace - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
        super().step()


class Deadlock(RuntimeError):
    """Raised when a blocking call waits for something no scheduled event can bring."""


class Clock:
    """The simulated clock of a Core: ``now`` in seconds since the Core was made."""

    def __init__(self, realtime: float | None = None) -> None:
        self.env = _PacedEnvironment()
        self.realtime = realtime
        self._depth = 0

    # --- reading and pacing -------------------------------------------------------------
    @property
    def now(self) -> float:
        """Simulated seconds since the Core was created."""
        return float(self.env.now)

    @property
    def realtime(self) -> float | None:
        """``None``: no wall time passes; ``f``: simulated time runs ``f`` x wall time."""
        return self.env.pace

    @realtime.setter
    def realtime(self, factor: float | None) -> None:
        if factor is not None and not factor > 0:
            raise ValueError(f"realtime must be a positive factor or None, got {factor!r}")
        self.env.pace = factor

    # --- advancing ----------------------------------------------------------------------
    def sleep(self, seconds: float) -> None:
        """Advance simulated time by ``seconds``, running every event due meanwhile."""
        if seconds < 0:
            raise ValueError(f"cannot sleep a negative time ({seconds} s)")
        env = self.env
        target = env.now + seconds
        self._enter()
        try:
            # step by hand instead of env.run(until=...): SimPy's run() costs ~70 us of set-up
            # per call, and the seed experiments sleep 2,000 times. Events due at the target
            # itself run too, as they did behind run(until=timeout(seconds)).
            while env.peek() <= target:
                env.step()
            if env.pace:  # paced: the end of the sleep is due at a wall time too
                delay = env._anchor_wall + (target - env._anchor_sim) / env.pace - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            env._now = target
        finally:
            self._depth -= 1

    def run_until(self, event: simpy.Event, what: str = "the awaited event") -> Any:
        """Run the event loop until ``event`` has been processed; return its value."""
        if event.processed:
            return event.value
        env = self.env
        self._enter()
        try:
            while not event.processed:
                if env.peek() == float("inf"):
                    raise Deadlock(
                        f"ovlab: waiting for {what}, but nothing else is scheduled: it can never "
                        "happen (every started request has already completed)")
                env.step()
        finally:
            self._depth -= 1
        return event.value

    def _enter(self) -> None:
        if self._depth:
            raise RuntimeError(
                "ovlab: a blocking call (wait, infer, a full AsyncInferQueue.start_async, "
                "sleep) was made inside a completion callback; in OpenVINO this would deadlock. "
                "Only start_async on idle requests is allowed in callbacks."
            )
        self._depth += 1
        self.env.anchor()

    def run_all(self) -> None:
        """Run until nothing is scheduled any more."""
        self._run(None)

    def _run(self, until: Any, what: str = "") -> None:
        self._enter()
        try:
            self.env.run(until=until)
        except RuntimeError as exc:
            if "No scheduled events left" in str(exc):
                raise Deadlock(
                    f"ovlab: waiting for {what}, but nothing else is scheduled: it can never "
                    "happen (every started request has already completed)"
                ) from None
            raise
        finally:
            self._depth -= 1

    # --- building blocks for plugins ----------------------------------------------------
    def event(self) -> simpy.Event:
        return self.env.event()

    def call_at_delay(self, delay: float, fn, *args) -> simpy.Event:
        """Schedule ``fn(*args)`` after ``delay`` simulated seconds (cheap: no process)."""
        ev = self.env.timeout(delay)
        ev.callbacks.append(lambda _ev: fn(*args))
        return ev

    def process(self, generator) -> simpy.Process:
        return self.env.process(generator)
