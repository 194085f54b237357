"""Live runs: a finished simulation replayed at wall-clock pace on the kernel's asyncio loop.

Why a replay, on asyncio, and not a paced simulation or a thread:

* **The simulation does not depend on pacing.** ``Core(realtime=f)`` only sleeps between
  events; same seed, same timeline. So a dashboard simulates the whole run first, un-paced
  (0.1-0.4 s of wall time for the 2,000-request experiment), and then shows ``run.at(t)`` for a
  ``t`` that follows the wall clock. Every frame is the run exactly as it stood at ``t``: the
  requests completed by then, the compiles running then (with how far they got: the plugin knows
  a compile's duration when it starts), the switch only once it happened, the summary of those
  requests. A frame can never show another run's switch line or summary.
* **The kernel stays responsive.** The replay is an ``asyncio`` task on the kernel's own event
  loop (ipykernel runs one; ``asyncio.get_running_loop()`` inside a widget callback returns it).
  Between frames it awaits ``asyncio.sleep``, so the kernel handles the next widget message at
  once; a widget change cancels the task and starts the new run. A paced simulation sleeps inside
  SimPy's ``step`` and would block the kernel for the whole run (a learner could not stop it),
  and a thread would send FigureWidget updates from outside the kernel's thread (ipywidgets and
  plotly's FigureWidget are not thread-safe), racing the main thread's own updates.
* **A bounded frame rate, and no backlog.** Frames are drawn at most ``fps`` times a second (30
  by default), however dense the run's events are; and the next frame waits until the browser
  has painted the last one (``ready``; see :mod:`ovlab.sim.widgets.frame_clock`). A slow browser
  therefore gets fewer frames, each showing a later moment, instead of a queue of stale frames
  that would keep it seconds behind the run, and behind a click on a knob. Simulated time keeps
  following the wall clock either way.

Outside a running event loop (a plain script, a test) :meth:`LivePlayer.start` replays
synchronously with ``time.sleep`` between frames.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class LivePlayer:
    """Calls ``draw(t)`` for simulated moments ``t`` from ``begin`` to ``end``, ``speed`` x
    faster than the wall clock, at most ``fps`` times a second; ``draw(end)`` last."""

    def __init__(self, draw: Callable[[float], None], fps: float = 30.0,
                 on_error: Callable[[BaseException], None] | None = None,
                 ready: Callable[[], bool] | None = None, max_wait: float = 2.0) -> None:
        self.draw = draw
        self.fps = fps
        self.ready = ready  # may the next frame be drawn? (the browser drew the last one)
        self.max_wait = max_wait  # ... but never wait longer than this for it
        self.on_error = on_error  # a task's exception is otherwise lost on the event loop
        self.task: asyncio.Task | None = None
        self.frames = 0  # frames drawn by the last (or current) replay
        self.wall = 0.0  # wall seconds the last replay took

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def cancel(self) -> None:
        """Stop the replay in progress (its last frame stays on screen until the next draw)."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None

    def start(self, begin: float, end: float, speed: float) -> asyncio.Task | None:
        """Replay ``[begin, end]``; returns the asyncio task (None: replayed synchronously)."""
        self.cancel()
        if not speed > 0:
            raise ValueError(f"speed must be positive, got {speed!r}")
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            for _ in self._frames(begin, end, speed):
                time.sleep(self._pause)
            return None
        self.task = loop.create_task(self._play(begin, end, speed))
        return self.task

    async def _play(self, begin: float, end: float, speed: float) -> None:
        try:
            for _ in self._frames(begin, end, speed):
                await asyncio.sleep(self._pause)
                if self.ready is not None:
                    waited = 0.0
                    while not self.ready() and waited < self.max_wait:
                        await asyncio.sleep(0.005)  # the kernel reads the browser's reply
                        waited += 0.005
        except Exception as exc:  # noqa: BLE001 - shown to the learner, then re-raised
            if self.on_error is None:
                raise
            self.on_error(exc)

    def _frames(self, begin: float, end: float, speed: float):
        """Draw frame after frame; yield after each one (the caller waits ``self._pause``)."""
        slot = 1.0 / self.fps
        self.frames = 0
        t0 = time.monotonic()
        next_at = t0
        while True:
            now = time.monotonic()
            t = begin + (now - t0) * speed
            last = t >= end
            self.draw(end if last else t)
            self.frames += 1
            self.wall = time.monotonic() - t0
            if last:
                return
            next_at = max(next_at + slot, time.monotonic())  # never more than fps frames/s
            self._pause = max(0.0, min(next_at - time.monotonic(),
                                       (end - t) / speed))  # and not past the end
            yield
