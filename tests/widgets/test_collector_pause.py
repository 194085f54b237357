"""The dashboards pause Python's garbage collector while one change is simulated and drawn
(a full collection mid-run was lab 04's p95), and give it back as they found it."""

import gc

import pytest

from ovlab.sim.widgets.dashboard import collector_paused


def test_the_collector_is_off_inside_and_back_on_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_error_inside_gives_the_collector_back():
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_a_collector_the_user_turned_off_stays_off():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_dashboard_change_runs_with_the_collector_paused(monkeypatch):
    from ovlab.sim.widgets.latency_dashboard import LatencyDashboard

    seen = []
    dash = LatencyDashboard(niter=50)
    real = dash._experiment

    def spy(core):
        seen.append(gc.isenabled())
        return real(core)

    monkeypatch.setattr(dash, "_experiment", spy)
    dash.knobs.timeout.value = 500
    assert seen == [False] and gc.isenabled()


def test_in_a_kernel_the_collector_comes_back_after_the_change():
    """With an event loop running (a kernel), the collector comes back once the change's
    messages are on their way, not before the change returns; a change in between keeps it
    paused and gives it back after itself."""
    import asyncio

    from ovlab.sim.widgets import dashboard

    async def main():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # not yet: the change has just returned
        with collector_paused():  # the next change, before the collector came back
            assert not gc.isenabled()
        assert not gc.isenabled()
        await asyncio.sleep(dashboard.COLLECTOR_BACK_AFTER_S * 3)
        assert gc.isenabled() and dashboard._deferred is None

    assert gc.isenabled()
    try:
        asyncio.run(main())
    finally:
        gc.enable()


def test_in_a_kernel_a_collector_the_user_turned_off_stays_off():
    import asyncio

    from ovlab.sim.widgets import dashboard

    async def main():
        with collector_paused():
            pass
        await asyncio.sleep(dashboard.COLLECTOR_BACK_AFTER_S * 3)
        assert not gc.isenabled() and dashboard._deferred is None

    gc.disable()
    try:
        asyncio.run(main())
    finally:
        gc.enable()
