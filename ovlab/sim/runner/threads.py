"""Helper threads on the simulated clock: a sleep in another thread is a timer of that clock.

A script's other thread that sleeps in a loop (the seed's ``auto-test.py`` has a display thread
that redraws every 1/30 s what the main thread's requests have produced) must see what it sees
on real hardware: it wakes every 1/30 s *of the time the main thread lives in*, and so draws
each result about 1/30 s after it arrived. On ovlab that time is simulated, and the main thread
moves it (``time.sleep``, ``wait()``, ``infer()``...) in microseconds of wall time. The rule:

1. ``time.sleep(s)`` in a helper thread *parks* it on a wake-up at simulated ``now + s``.
2. The main thread's blocking calls, which move the clock, stop at every wake-up on the way:
   the clock is set to its time, the helper runs until it parks again (or ends, or blocks in a
   ``threading``/``queue`` wait), and only then does the main thread go on. The helper reads
   the wake-up's time and sees every result completed before it, none after it. Wake-ups due
   at one time run in the order they were set; a thread the script starts runs until it first
   parks before the clock moves. So helpers interleave with the main thread at the simulated
   times they would on hardware, and the same seed gives the same interleaving.
3. When the main thread waits on the helper's side of things instead (the script called
   ``Thread.join``, an ``Event``/``Queue`` wait...), simulated time passes as wall time would:
   after ``s`` of wall time (``s / realtime`` when paced) the helper moves the clock to its
   wake-up itself, running what falls due meanwhile (completion callbacks then run on the
   helper thread, as they run on OpenVINO's own threads on hardware), and wakes.
4. Caps keep a wrong guess from hanging: the main thread waits at most ``SETTLE_CAP_S`` of wall
   time for a woken helper to park (a helper that computes or blocks longer runs on freely until
   its next sleep), and a parked helper wakes, without moving the clock, once the clock has not
   moved for ``SETTLE_CAP_S`` of wall time (the main thread computes, or a kernel is idle
   between cells, where simulated time stands still).

Helpers share data with the main thread (under locks, as the seed's do) and read time; calls
into the OpenVINO API belong to the main thread (ovlab's event loop is single-threaded).
"""

from __future__ import annotations

import heapq
import itertools
import sys
import threading
from collections.abc import Callable
from typing import Any

from ..runtime.clock import Clock

INF = float("inf")
SETTLE_CAP_S = 1.0  # wall seconds: how long the clock waits for a woken helper to park again
_SLICE_S = 0.0005  # wall seconds between looks at a helper that has not parked yet

# Where a thread waits on another one: (module file stem, function) of its innermost frame.
_WAITING = {("threading", "wait"), ("threading", "_wait_for_tstate_lock"), ("threading", "join"),
            ("threading", "acquire"), ("queue", "get"), ("queue", "put"), ("queue", "join")}


def _stem(frame: Any) -> str:
    return frame.f_code.co_filename.rsplit("/", 1)[-1].rsplit("\\", 1)[-1].removesuffix(".py")


def blocked(ident: int | None, by_script: bool = False) -> bool:
    """True when thread ``ident`` waits in ``threading``/``queue`` (join, Event, Queue...);
    with ``by_script``, only a wait the script itself called (not one inside the kernel's
    output machinery or another real-time package, which only pauses for wall time)."""
    frame = sys._current_frames().get(ident) if ident is not None else None
    if frame is None or (_stem(frame), frame.f_code.co_name) not in _WAITING:
        return False
    if not by_script:
        return True
    while frame is not None and _stem(frame) in ("threading", "queue"):
        frame = frame.f_back
    return frame is not None and not _is_real_module(frame.f_globals.get("__name__") or "")


class _Helper:
    """One helper thread: parked on a wake-up (``ticket``), running, or running freely."""

    __slots__ = ("state", "thread", "ticket", "wake")

    def __init__(self, thread: threading.Thread) -> None:
        self.thread = thread
        # "parked" | "woken" (its wake-up ran, it has not left the wait yet) | "running" |
        # "free" (it ran past the cap: not waited for until it parks again)
        self.state = "running"
        self.ticket: int | None = None
        self.wake = threading.Event()


class Scheduler:
    """The helper threads of one runner session and their wake-ups on its clock.

    Installed as the clock's ``side`` hook: the clock calls :meth:`advance_to` before it moves
    past :attr:`due` or while :attr:`busy`.
    """

    def __init__(self, clock: Clock, owner: int, real_monotonic: Callable[[], float],
                 real_sleep: Callable[[float], Any]) -> None:
        self.clock = clock
        self.owner = owner
        self._monotonic = real_monotonic
        self._real_sleep = real_sleep
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int, _Helper]] = []
        self._seq = itertools.count()
        self._helpers: dict[int, _Helper] = {}
        self.due = INF  # the earliest wake-up (read by the clock without the lock)
        self.busy = False  # a woken or new helper runs: the clock waits for it before moving
        self.closed = False
        clock.env.side = self

    # --- the clock's side (main thread) --------------------------------------------------
    def advance_to(self, t: float) -> None:
        """Run every wake-up due up to ``t``, in order, each until its helper parks again."""
        if threading.get_ident() != self.owner:
            return
        self._settle()
        while True:
            with self._cond:
                if not self._heap or self._heap[0][0] > t or self.closed:
                    return
                due, ticket, helper = heapq.heappop(self._heap)
                self._update_due()
                if helper.ticket != ticket or helper.state != "parked":
                    continue  # woken already (by wall time) or a stale entry
                self.clock.env.jump(due)
                helper.state, helper.ticket = "woken", None
                self.busy = True
                helper.wake.set()
            self._settle()

    def _settle(self) -> None:
        """Wait until no tracked helper runs: each parked, ended or blocked, or past the cap."""
        if not self.busy:
            return
        deadline = self._monotonic() + SETTLE_CAP_S
        with self._cond:
            while True:
                waiting = []
                for ident, helper in list(self._helpers.items()):
                    if helper.state not in ("woken", "running"):
                        continue
                    if not helper.thread.is_alive():
                        del self._helpers[ident]
                    elif helper.state == "woken" or not blocked(ident):
                        waiting.append(helper)  # a woken one still waits in our Event
                if not waiting:
                    break
                if self._monotonic() >= deadline:
                    for helper in waiting:
                        helper.state = "free"  # it computes or blocks elsewhere: run freely
                    break
                self._cond.wait(_SLICE_S)
            self.busy = any(h.state in ("woken", "running") for h in self._helpers.values())

    def _update_due(self) -> None:
        self.due = self._heap[0][0] if self._heap else INF

    # --- the helpers' side ---------------------------------------------------------------
    def adopt(self, thread: threading.Thread) -> None:
        """A thread the script started: the clock waits for it to park before moving."""
        with self._cond:
            if self.closed or thread.ident is None or thread.ident in self._helpers:
                return
            if thread.is_alive():
                self._helpers[thread.ident] = _Helper(thread)
                self.busy = True

    def sleep(self, seconds: float) -> None:
        """A helper thread's ``time.sleep(seconds)``: park until its wake-up (see the rules)."""
        ident = threading.get_ident()
        with self._cond:
            if self.closed:
                helper = None
            else:
                helper = self._helpers.get(ident)
                if helper is None:
                    helper = self._helpers[ident] = _Helper(threading.current_thread())
                due = self.clock.now + seconds
                ticket = next(self._seq)
                helper.state, helper.ticket = "parked", ticket
                helper.wake.clear()
                heapq.heappush(self._heap, (due, ticket, helper))
                self._update_due()
                self.busy = any(h.state in ("woken", "running")
                                for h in self._helpers.values())
                self._cond.notify_all()
        if helper is None:
            self._real_sleep(seconds)
            return
        self._wait(helper, ticket, due, seconds / (self.clock.realtime or 1.0))

    def _wait(self, helper: _Helper, ticket: int, due: float, grace: float) -> None:
        """Wait for the main thread to reach ``due``; rules 3 and 4 when it does not."""
        clock = self.clock
        start = self._monotonic()
        seen, seen_at = clock.now, start
        while not helper.wake.wait(min(max(grace, _SLICE_S), 0.01)):
            now_wall = self._monotonic()
            if clock.now != seen:
                seen, seen_at = clock.now, now_wall
                continue
            waits = (clock._depth == 0 and now_wall - start >= grace
                     and blocked(self.owner, by_script=True))
            if not waits and now_wall - seen_at < SETTLE_CAP_S:
                continue
            with self._cond:
                if helper.ticket != ticket or helper.state != "parked":
                    break  # the main thread woke it meanwhile
                helper.state, helper.ticket = "running", None
                self.busy = True
                advance = waits and not self.closed
            if advance:  # the main thread waits for us: time passes for it too
                try:
                    clock.sleep(max(0.0, due - clock.now))  # what falls due meanwhile runs
                except RuntimeError:
                    pass  # the main thread entered the clock meanwhile: it moves it
            return
        with self._cond:
            if helper.state == "woken":
                helper.state = "running"
                self._cond.notify_all()

    def close(self) -> None:
        """Wake every parked helper (the session ends); later sleeps are real ones."""
        with self._cond:
            self.closed = True
            for helper in self._helpers.values():
                helper.state, helper.ticket = "free", None
                helper.wake.set()
            self._heap.clear()
            self._update_due()
            self.busy = False
            if self.clock.env.side is self:
                self.clock.env.side = None


# --- threads the script starts -------------------------------------------------------------
_REAL_START = threading.Thread.start
_scheduler: Scheduler | None = None
_is_real_module: Callable[[str], bool] = str.isspace  # replaced at install


def _start(self: threading.Thread) -> None:
    _REAL_START(self)
    scheduler = _scheduler
    if scheduler is not None and not _is_real_module(sys._getframe(1).f_globals.get("__name__")
                                                     or ""):
        scheduler.adopt(self)


def install(scheduler: Scheduler, is_real_module: Callable[[str], bool]) -> None:
    """Track the threads the script starts (``Thread.start`` called from outside the packages
    that keep wall-clock time)."""
    global _scheduler, _is_real_module
    _scheduler, _is_real_module = scheduler, is_real_module
    threading.Thread.start = _start  # type: ignore[method-assign]


def uninstall() -> None:
    global _scheduler
    if _scheduler is not None:
        _scheduler.close()
    _scheduler = None
    threading.Thread.start = _REAL_START  # type: ignore[method-assign]
