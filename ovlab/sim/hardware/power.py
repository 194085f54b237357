"""A platform's shared power budget: devices on one package slow each other down.

A laptop's CPU and iGPU share one package power limit (and one memory bus). Each runs flat out
when it is busy alone, but when both are busy their combined draw exceeds the limit and the
package lowers both clocks: Intel's published CPU+iGPU figures (``-d AUTO:GPU,CPU -hint
cumulative_throughput``) are 65-77 % of the sum of the two devices' own figures, not the sum.

:class:`PowerBudget` models that with public-style numbers: ``watts`` the package's sustained
limit (PL1), ``draws`` what each device draws when it runs alone at full speed. While the busy
devices together would draw more than ``watts``, every busy device runs at ``watts / sum(draws)``
of its speed (clock, and so throughput, taken as proportional to power: a first-order model of
what DVFS does). A device whose own draw exceeds ``watts`` is capped even when alone. :class:`PowerState` applies it to the running inferences of one Core, through
the devices' processor-sharing queues (``runtime/sharing.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PowerBudget:
    """``watts`` shared by the devices of ``draws`` (device name -> watts when busy alone)."""

    watts: float
    draws: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.watts > 0:
            raise ValueError(f"power budget: watts must be positive, got {self.watts!r}")
        for name, draw in self.draws.items():
            if not draw > 0:
                raise ValueError(f"power budget: the draw of {name} must be positive, got {draw!r}")

    def factor(self, busy: Iterable[str]) -> float:
        """The speed of each busy device when ``busy`` devices run at once (1.0: no slowdown)."""
        total = sum(self.draws.get(name, 0.0) for name in busy)
        return min(1.0, self.watts / total) if total > 0 else 1.0

    def without(self, name: str) -> PowerBudget | None:
        draws = {k: v for k, v in self.draws.items() if k != name}
        return PowerBudget(self.watts, draws) if len(draws) > 1 else None


class PowerState:
    """Which devices of a budget are busy in one Core, and their current speed."""

    def __init__(self, budget: PowerBudget) -> None:
        self.budget = budget
        self.busy: set[str] = set()
        self.shares: dict[str, object] = {}

    def attach(self, device: str, share) -> None:
        """Let ``share`` (a ``DeviceShare``) report when ``device`` becomes busy or idle."""
        self.shares[device] = share
        share.on_busy = lambda busy: self.changed(device, busy)
        share.set_speed(self.budget.factor(self.busy) if self.busy else 1.0)

    def changed(self, device: str, busy: bool) -> None:
        if busy:
            self.busy.add(device)
        else:
            self.busy.discard(device)
        speed = self.budget.factor(self.busy)
        for share in self.shares.values():
            share.set_speed(speed)
