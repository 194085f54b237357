"""The short cuts of the per-inference path keep SimPy's order of events (issue 24).

``test_trace_identity.py`` guards whole runs; these pin the two rules that make the short cuts
exact, each with a case where a naive short cut would reorder two events at the same instant.
"""

from __future__ import annotations

import ovlab
from ovlab.sim.runtime.sharing import DeviceShare


def test_a_signal_with_nothing_due_now_is_processed_at_once():
    clock = ovlab.Core(seed=0).clock
    alone = clock.signal()
    alone.succeed(7)
    assert alone.processed and clock.run_until(alone) == 7


def test_a_signal_waits_behind_an_event_due_at_the_same_instant():
    clock = ovlab.Core(seed=0).clock
    order: list[str] = []
    clock.call_at_delay(0.0, order.append, "timer")  # due now, scheduled first
    behind = clock.signal()
    behind.succeed()
    assert not behind.processed  # the timer comes first, as in SimPy's heap
    clock.run_until(behind)
    assert order == ["timer"] and behind.processed


def _share() -> tuple[ovlab.Core, DeviceShare, list[str]]:
    core = ovlab.Core(seed=0)
    return core, DeviceShare(core.clock), []


def test_a_start_that_leaves_the_completion_time_keeps_the_timer():
    core, share, order = _share()
    share.run(1.0, 0.25, order.append, ("first",))
    timer = share._timer
    share.run(2.0, 0.25, order.append, ("second",))  # same instant, first still ends first
    assert share._timer is timer and not timer.cancelled
    core.clock.run_all()
    assert order == ["first", "second"] and core.clock.now == 2.0


def test_an_event_made_in_between_at_the_same_time_runs_before_the_new_timer():
    # a timer made now for the same time as the share's would sort after one made before it:
    # the share's timer must be replaced, not kept, or "done" would jump ahead of "other"
    core, share, order = _share()
    share.run(1.0, 0.25, order.append, ("done",))
    first = share._timer
    core.clock.call_at_delay(1.0, order.append, "other")
    share.run(2.0, 0.25, order.append, ("later",))
    assert share._timer is not first and first.cancelled
    core.clock.run_all()
    assert order == ["other", "done", "later"]


def test_a_start_that_moves_the_completion_replaces_the_timer():
    core, share, order = _share()
    share.run(2.0, 0.25, order.append, ("long",))
    first = share._timer
    share.run(1.0, 0.25, order.append, ("short",))
    assert share._timer is not first and first.cancelled
    core.clock.run_all()
    assert order == ["short", "long"]
