"""The dashboards simulate the timeout slider's next steps in a kernel's idle time: a kept run
is the run a change would make, and a change then only draws."""

from __future__ import annotations

import asyncio

import ovlab


def _stepped(dash, value: int, wait_s: float) -> str:
    """The summary after setting the timeout to ``value`` inside an event loop, ``wait_s``
    after the dashboard was built (its idle time)."""

    async def main() -> str:
        await asyncio.sleep(wait_s)
        dash.knobs.timeout.value = value
        return dash.summary.value

    return asyncio.run(main())


def test_a_warmed_step_is_the_run_a_change_makes():
    cold = ovlab.widgets.TimelineDashboard()
    warm = ovlab.widgets.TimelineDashboard()
    key = lambda d, v: (d.knobs.device.value,  # noqa: E731
                        tuple(sorted({**d.knobs.config(), "AUTO_BATCH_TIMEOUT": str(v)}.items())),
                        d.knobs.interval.value, d.knobs.niter.value)

    async def warm_up() -> None:
        warm._schedule_warm()  # what run() does in a kernel
        await asyncio.sleep(warm.WARM_AFTER_S + 1.0)

    asyncio.run(warm_up())
    assert key(warm, 1050) in warm._runs and key(warm, 950) in warm._runs  # both steps kept
    assert key(cold, 1050) not in cold._runs  # built outside a loop: nothing warmed
    # the kept run draws the same as the one simulated on the change
    assert _stepped(warm, 1050, 0) == _stepped(cold, 1050, 0)
    assert warm.full.stats() == cold.full.stats()


def test_no_warming_while_the_timeout_is_greyed_out():
    dash = ovlab.widgets.LatencyDashboard(hint="LATENCY", niter=200)
    assert dash.knobs.timeout.disabled and dash._next_steps() == []


def test_lab13s_dashboard_warms_the_settings_one_click_away():
    """Lab 13's serving dashboard keeps the runs of its toggles flipped and its rate and budget
    one step either way; a change that meets one draws the same figure and summary as a cold
    change."""
    from ovlab.sim.widgets.llm_dashboard import LLMServingDashboard

    cold, warm = LLMServingDashboard(), LLMServingDashboard()
    flipped = {**warm.settings(), "dynamic_split_fuse": False}

    async def warm_up() -> None:
        warm._schedule_warm()  # what the build does in a kernel
        await asyncio.sleep(warm.WARM_AFTER_S + 3.0)

    asyncio.run(warm_up())
    assert len(warm._runs) == 1 + len(warm._next_settings())
    assert tuple(sorted(flipped.items())) in warm._runs
    assert len(cold._runs) == 1  # built outside a loop: nothing warmed
    for dash in (cold, warm):
        dash.w_split.value = False
    assert warm.summary.value == cold.summary.value
    data = [[{k: v for k, v in t.items() if k != "uid"} for t in d.fig.to_dict()["data"]]
            for d in (warm, cold)]  # a FigureWidget's traces carry uids of their own
    assert data[0] == data[1]
