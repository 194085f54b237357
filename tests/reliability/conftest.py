"""Guards for the reliability tests: a test that would hang fails instead.

The scheduler bugs these tests catch (a completion that never comes, a tick that reschedules
itself at the same instant forever) show up as an unbounded number of SimPy events. Every Core's
event loop is wrapped with a step budget: past it the test fails with :class:`StepBudgetExceeded`
instead of spinning at 100% CPU until CI times out.
"""

from __future__ import annotations

import pytest

from ovlab.sim.runtime import clock as clockmod


class StepBudgetExceeded(AssertionError):
    """The event loop processed more events than the test allows (a livelock)."""


@pytest.fixture(autouse=True)
def step_budget(monkeypatch):
    """Fail the test once its Cores have processed 3 million events (a simulated week of the
    soak workload needs about a tenth of that in the tests' shorter runs)."""
    budget = {"left": 3_000_000}
    original = clockmod._PacedEnvironment.step

    def guarded(env) -> None:
        budget["left"] -= 1
        if budget["left"] < 0:
            raise StepBudgetExceeded(
                f"more than 3,000,000 simulated events at t={env.now!r} s: the scheduler is "
                "stuck (events that never advance the clock)")
        original(env)

    monkeypatch.setattr(clockmod._PacedEnvironment, "step", guarded)
    return budget
