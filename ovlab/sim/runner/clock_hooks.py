"""Simulated ``time.*`` for code run on ovlab.

A script that times itself with ``time.perf_counter()`` and paces with ``time.sleep()`` must see
the simulated clock, or every figure it prints is wrong: the inferences it measures take
simulated milliseconds and no wall time. While the runner is installed:

- ``time.time``/``time.time_ns`` return the session clock as epoch time, starting at
  2026-01-01 00:00:00 UTC (fixed, so runs print the same); ``time.perf_counter``,
  ``time.monotonic`` and their ``_ns`` forms return simulated seconds since the session began.
- ``time.sleep(s)`` in the thread that installed the runner (the script's main thread, or the
  kernel's) advances the clock by ``s``, running every inference, callback and compile due
  meanwhile, exactly like ``core.clock.sleep(s)``.
- ``time.sleep(s)`` in **any other thread** (a display loop that redraws every 1/30 s while the
  main thread submits requests, as the seed's ``auto-test.py`` has) is a wake-up on the
  simulated clock at ``now + s``: the main thread's blocking calls stop there and let the
  helper run until it sleeps again, so it wakes at the simulated times it would on hardware
  (``threads.py`` states the whole rule, with what happens when the main thread is blocked
  elsewhere and the caps that keep it from hanging).
- A ``time.sleep`` inside a completion callback returns at once: callbacks run inside the
  simulated event loop, which cannot step itself, so simulated callbacks take no time (on
  real hardware the sleep would delay that request's completion and the callback thread).
- Calls made from the packages that run event loops and I/O (asyncio, tornado, zmq, the
  Jupyter kernel, threading, pytest's own bookkeeping, SimPy and ovlab itself) get the real
  functions: a kernel whose event loop read a frozen clock would stop answering.

ovlab's API itself is single-threaded, as its event loop is: helper threads may read time,
sleep and share data with the main thread (as the seed's display thread does), but inference
calls belong to the thread that installed the runner.

Modules that did ``from time import perf_counter`` *before* the runner was installed keep the
real function (the runner installs itself before the script runs, so this only concerns
libraries imported earlier in a notebook).

``datetime.datetime.now()``, ``utcnow()`` and ``today()`` follow the clock too (benchmark_app
times its compile with ``datetime.utcnow()``): while the runner is installed
``datetime.datetime`` is a subclass whose three constructors read the session clock for
callers outside the real-time packages; ``isinstance(x, datetime.datetime)`` stays true for
every datetime. Modules that did ``from datetime import datetime`` before the runner keep the
real class. Timeouts of ``threading``/``queue`` waits stay real.
"""

from __future__ import annotations

import datetime as _dt
import sys
import threading
import time
from typing import Any

from . import threads
from .session import EPOCH_ORIGIN, Session

HOOKED = ("time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns",
          "sleep")
REAL: dict[str, Any] = {name: getattr(time, name) for name in HOOKED}

# Top-level packages whose calls keep wall-clock time (event loops, I/O, test bookkeeping).
REAL_TIME_PACKAGES = frozenset({
    "asyncio", "selectors", "tornado", "zmq", "ipykernel", "jupyter_client", "jupyter_core",
    "jupyter_server", "IPython", "traitlets", "comm", "debugpy", "_pydevd_bundle", "pydevd",
    "threading", "concurrent", "queue", "socket", "ssl", "subprocess", "multiprocessing",
    "logging", "sched", "http", "urllib", "urllib3", "_pytest", "pytest", "pluggy", "xdist",
    "execnet", "simpy", "ovlab", "anyio", "prompt_toolkit", "nbclient", "nbval", "playwright",
})

_session: Session | None = None
_scheduler: threads.Scheduler | None = None


def _real_module(name: str) -> bool:
    return name.partition(".")[0] in REAL_TIME_PACKAGES


def _real_caller() -> bool:
    """True when the function that called the hook belongs to a real-time package."""
    return _real_module(sys._getframe(2).f_globals.get("__name__") or "")


def sim_time() -> float:
    """``time.time()`` under the runner: the simulated clock as epoch seconds."""
    if _session is None or _real_caller():
        return REAL["time"]()
    return EPOCH_ORIGIN + _session.clock.now


def sim_time_ns() -> int:
    if _session is None or _real_caller():
        return REAL["time_ns"]()
    return int(EPOCH_ORIGIN) * 1_000_000_000 + round(_session.clock.now * 1e9)


def sim_perf_counter() -> float:
    """``time.perf_counter()`` under the runner: simulated seconds since the session began."""
    if _session is None or _real_caller():
        return REAL["perf_counter"]()
    return _session.clock.now


def sim_perf_counter_ns() -> int:
    if _session is None or _real_caller():
        return REAL["perf_counter_ns"]()
    return round(_session.clock.now * 1e9)


def sim_monotonic() -> float:
    if _session is None or _real_caller():
        return REAL["monotonic"]()
    return _session.clock.now


def sim_monotonic_ns() -> int:
    if _session is None or _real_caller():
        return REAL["monotonic_ns"]()
    return round(_session.clock.now * 1e9)


def _check_seconds(seconds: Any) -> float:
    """Validate like ``time.sleep`` does (same exception types and texts)."""
    if not isinstance(seconds, (int, float)):
        if not hasattr(seconds, "__index__"):  # time.sleep takes floats or integers only
            raise TypeError(f"'{type(seconds).__name__}' object cannot be interpreted as an "
                            "integer")
        seconds = seconds.__index__()
    if seconds != seconds:  # NaN
        raise ValueError("Invalid value NaN (not a number)")
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    return float(seconds)


def sim_sleep(seconds: Any) -> None:
    """``time.sleep()`` under the runner (see the module docstring for threads)."""
    session, scheduler = _session, _scheduler
    if session is None or scheduler is None or _real_caller():
        REAL["sleep"](seconds)
        return
    seconds = _check_seconds(seconds)
    if threading.get_ident() == session.owner:
        if getattr(session.clock, "_depth", 0):
            return  # inside a completion callback: see "callbacks" in the module docstring
        session.clock.sleep(seconds)
    elif seconds == 0:
        REAL["sleep"](0)  # a yield, as on hardware: no wake-up to wait for
    else:
        scheduler.sleep(seconds)


_REAL_DATETIME = _dt.datetime


class _SimDatetimeType(type):
    """Keeps ``isinstance(x, datetime.datetime)`` true for real datetimes while the simulated
    class stands in its place (arithmetic on a subclass returns the real class)."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, _REAL_DATETIME)

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, _REAL_DATETIME)


class SimDatetime(_REAL_DATETIME, metaclass=_SimDatetimeType):
    """``datetime.datetime`` under the runner: ``now``/``utcnow``/``today`` read the clock."""

    @classmethod
    def now(cls, tz: _dt.tzinfo | None = None) -> _dt.datetime:
        if _session is None or _real_caller():
            return _REAL_DATETIME.now(tz)
        return cls.fromtimestamp(EPOCH_ORIGIN + _session.clock.now, tz)

    @classmethod
    def utcnow(cls) -> _dt.datetime:
        if _session is None or _real_caller():
            return _REAL_DATETIME.now(_dt.timezone.utc).replace(tzinfo=None)
        return cls.fromtimestamp(EPOCH_ORIGIN + _session.clock.now,
                                 _dt.timezone.utc).replace(tzinfo=None)

    @classmethod
    def today(cls) -> _dt.datetime:
        if _session is None or _real_caller():
            return _REAL_DATETIME.today()
        return cls.fromtimestamp(EPOCH_ORIGIN + _session.clock.now)


SimDatetime.__module__, SimDatetime.__qualname__ = "datetime", "datetime"  # pickles as the real

_HOOKS = {"time": sim_time, "time_ns": sim_time_ns, "perf_counter": sim_perf_counter,
          "perf_counter_ns": sim_perf_counter_ns, "monotonic": sim_monotonic,
          "monotonic_ns": sim_monotonic_ns, "sleep": sim_sleep}


def install(session: Session) -> None:
    """Point ``time.*`` at ``session``'s clock."""
    global _session, _scheduler
    uninstall()
    _session = session
    _scheduler = threads.Scheduler(session.clock, session.owner, REAL["monotonic"], REAL["sleep"])
    threads.install(_scheduler, _real_module)
    for name, fn in _HOOKS.items():
        setattr(time, name, fn)
    _dt.datetime = SimDatetime  # type: ignore[misc]


def uninstall() -> None:
    """Give ``time`` its real functions back."""
    global _session, _scheduler
    threads.uninstall()
    for name, fn in REAL.items():
        setattr(time, name, fn)
    _dt.datetime = _REAL_DATETIME  # type: ignore[misc]
    _session = _scheduler = None


def installed() -> bool:
    return time.sleep is sim_sleep
