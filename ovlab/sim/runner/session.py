"""The runner's session: one virtual machine and one simulated clock for a whole script.

A script run with ``python -m ovlab run`` (or a kernel after ``%load_ext ovlab``) may make many
``openvino.Core()`` objects; on a real laptop they all share one machine and one wall clock. So
the session owns one :class:`~ovlab.sim.runtime.clock.Clock`, every Core made through the served
``openvino`` module runs on it, and ``time.*`` reads it. Cores made with ``ovlab.Core(...)``
directly keep their own clocks, as in the labs.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from ..hardware.platforms import Platform, preset
from ..runtime.clock import Clock

# ``time.time()`` under the runner starts at 2026-01-01 00:00:00 UTC. A fixed origin keeps
# printed output identical from run to run: epoch floats near 1.8e9 carry ~2e-7 s of rounding,
# so even differences of two readings would change with a wall-clock origin.
EPOCH_ORIGIN = 1_767_225_600.0


@dataclass
class Session:
    """What ``ovlab.install()`` set up: the platform, seed and pace every served Core uses."""

    platform: Platform
    seed: int = 0
    realtime: float | None = None
    clock: Clock = field(init=False)
    owner: int = field(init=False)  # the thread whose sleeps move the clock

    def __post_init__(self) -> None:
        self.clock = Clock(self.realtime)
        self.owner = threading.get_ident()

    @classmethod
    def make(cls, platform: str | Platform = "laptop", seed: int = 0,
             realtime: float | None = None) -> Session:
        """A session on a preset name or a :class:`Platform` (errors name the presets)."""
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, got {seed!r}")
        plat = preset(platform) if isinstance(platform, str) else platform
        if not isinstance(plat, Platform):
            raise TypeError(f"platform must be a preset name or an ovlab.Platform, got {platform!r}")
        return cls(plat, seed, realtime)

    @property
    def now(self) -> float:
        """Simulated seconds since the session started."""
        return self.clock.now


_current: Session | None = None


def current() -> Session | None:
    """The installed session, or None when ovlab is not serving ``openvino``."""
    return _current


def set_current(session: Session | None) -> None:
    global _current
    _current = session
