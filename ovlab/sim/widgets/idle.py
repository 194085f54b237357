"""Work done in a kernel's idle time, one item at a time: what the dashboards use to simulate
the settings one click away before a learner asks for them.

After a change, once the kernel has been idle ``after_s``, the items are worked on in turn,
``pause_s`` apart, each in its own event-loop callback, so a widget message that arrives
meanwhile waits for one item at most; a new :meth:`IdleWork.schedule` (the next change)
drops what is left. Outside a running event loop (a script, a test) nothing is scheduled.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any


class IdleWork:
    """``work(item)`` for each scheduled item; it returns False for an item it skipped (then
    the next one follows at once). ``ready()`` False stops the round (e.g. a live replay that
    needs the CPU)."""

    def __init__(self, work: Callable[[Any], bool], ready: Callable[[], bool] = lambda: True,
                 pause_s: float = 0.05) -> None:
        self._work, self._ready, self._pause_s = work, ready, pause_s
        self._queue: list[Any] = []
        self._handle: asyncio.TimerHandle | None = None

    def schedule(self, items: list[Any], after_s: float) -> None:
        """Drop what is queued and work on ``items`` once the kernel has been idle
        ``after_s``."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a script or a test: nothing runs in between
            return
        self._queue = list(items)
        if self._queue:
            self._handle = loop.call_later(after_s, self._one)

    def _one(self) -> None:
        self._handle = None
        if not self._ready():
            return
        while self._queue:
            if self._work(self._queue.pop(0)):
                break
        if self._queue:
            self._handle = asyncio.get_running_loop().call_later(self._pause_s, self._one)
