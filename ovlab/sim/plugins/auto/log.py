"""AUTO's log (``LOG_LEVEL``), printed to stdout with the *simulated* time as the timestamp.

The real plugin prints lines like ``[08:41:49.3361]I[auto_schedule.cpp:163][AUTO] select
device:CPU`` (measured); ovlab prints the same shape with the Core's clock, so a learner can read
the compile times, the moment of the switch and the release of the CPU helper on the timeline of
the simulation. Source lines that were measured are kept (``plugin.cpp:479/484``,
``auto_schedule.cpp:118/163/284/341``, ``schedule.cpp:17``); the others are estimates.
"""

from __future__ import annotations

from ....properties import log

_LETTER = {log.Level.ERR: "E", log.Level.WARNING: "W", log.Level.INFO: "I", log.Level.DEBUG: "D",
           log.Level.TRACE: "T"}


def timestamp(seconds: float) -> str:
    """``[HH:MM:SS.ffff]`` for a simulated time in seconds."""
    hours, rest = divmod(seconds, 3600.0)
    minutes, secs = divmod(rest, 60.0)
    return f"{int(hours):02d}:{int(minutes):02d}:{secs:07.4f}"


class AutoLog:
    """Prints AUTO/MULTI log lines at or below the configured level."""

    def __init__(self, clock, tag: str, level: log.Level) -> None:
        self.clock = clock
        self.tag = tag
        self.level = level

    def enabled(self, level: log.Level) -> bool:
        return self.level != log.Level.NO and int(level.value) <= int(self.level.value)

    def _emit(self, level: log.Level, where: str, message: str) -> None:
        if self.enabled(level):
            where = where.rsplit("/", 1)[-1]  # the real log shows the file's base name
            print(f"[{timestamp(self.clock.now)}]{_LETTER[level]}[{where}][{self.tag}] {message}")

    def info(self, where: str, message: str) -> None:
        self._emit(log.Level.INFO, where, message)

    def debug(self, where: str, message: str) -> None:
        self._emit(log.Level.DEBUG, where, message)

    def warning(self, where: str, message: str) -> None:
        self._emit(log.Level.WARNING, where, message)

    def error(self, where: str, message: str) -> None:
        self._emit(log.Level.ERR, where, message)
