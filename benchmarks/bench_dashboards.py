"""How fast the dashboards answer, measured in the kernel's process (no browser).

1. A widget change at default settings (``AUTO_BATCH_TIMEOUT`` one step of its slider, as the
   browser test does): the time from the new value to the figure updated and its messages
   serialized, split into the simulation, building the figure and updating the FigureWidget; for
   lab 04's and lab 05's dashboards, 30 changes each, median and p95.
2. A live x10 replay of the 2,000-request AUTO THROUGHPUT run (lab 04's defaults): wall time,
   frames, the most frames (figure updates) in any one second, and the bytes sent.

The FigureWidget gets a stand-in for the kernel's comm that serializes every message as the
kernel would (JSON plus binary buffers), so the message cost is counted; the browser's drawing
is not (``tests/browser`` measures widget change -> redrawn plot in Chromium).

Run: ``python benchmarks/bench_dashboards.py``. The README quotes the figures, with the load.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import os
import statistics
import time

import numpy as np

import ovlab


class CountingComm:
    """Takes the place of the kernel's comm: serializes each message, counts them."""

    kernel = object()
    comm_id = "bench"

    def __init__(self) -> None:
        self.sent: list[tuple[float, int]] = []  # (wall time, bytes)

    def close(self, *_a, **_kw) -> None:
        pass

    def on_msg(self, *_a, **_kw) -> None:
        pass

    def send(self, data=None, buffers=None, **_kw) -> None:
        size = len(json.dumps(data, default=str)) + sum(len(memoryview(b)) for b in buffers or ())
        self.sent.append((time.monotonic(), size))


def _attach(dash) -> CountingComm:
    comm = CountingComm()
    dash.figure.comm = comm
    return comm


def _p95(values: list[float]) -> float:
    return float(np.percentile(values, 95))


# 30 timeouts never seen before (a dashboard keeps its last runs, and a setting it has run
# before redraws without simulating: that is timed apart)
NEW_TIMEOUTS = list(range(1050, 2001, 50)) + list(range(950, 450, -50))


def widget_changes(make, values=NEW_TIMEOUTS) -> dict[str, float]:
    """Time changes of AUTO_BATCH_TIMEOUT away from the default settings, one slider step at a
    time, each to a value the dashboard has not run yet."""
    dash = make()
    comm = _attach(dash)
    parts: dict[str, list[float]] = {"total": [], "simulate": [], "figure": [], "update": []}
    run, spec, frame = dash._experiment, dash._figure_spec, dash._frame

    def timed(name, fn):
        def wrapper(*a, **kw):
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                parts[name].append(time.perf_counter() - t0)
        return wrapper

    dash._experiment = timed("simulate", run)
    dash._figure_spec = timed("figure", spec)
    dash._frame = timed("update", frame)
    n = len(values)
    for value in values:
        t0 = time.perf_counter()
        dash.knobs.timeout.value = value
        parts["total"].append(time.perf_counter() - t0)
    parts["update"] = [u - f for u, f in zip(parts["update"], parts["figure"], strict=True)]
    out = {f"{k} median": statistics.median(v) * 1000 for k, v in parts.items()}
    out.update({f"{k} p95": _p95(v) * 1000 for k, v in parts.items()})
    out["kB sent per change"] = sum(s for _t, s in comm.sent) / n / 1000
    again = []
    for value in values[-10:]:  # back to settings it has run: drawn from the kept run
        t0 = time.perf_counter()
        dash.knobs.timeout.value = value
        again.append(time.perf_counter() - t0)
    out["again median"] = statistics.median(again) * 1000
    out["again p95"] = _p95(again) * 1000
    return out


def live_replay(speed: float = 10.0) -> dict[str, float]:
    """Replay lab 04's default run live at ``speed`` x wall time, as a learner ticking "live"."""
    dash = ovlab.widgets.LatencyDashboard()
    comm = _attach(dash)
    stamps: list[float] = []
    draw = dash._frame

    def frame(t):
        draw(t)
        stamps.append(time.monotonic())

    dash.player.draw = frame

    async def main() -> float:
        dash.knobs.speed.value = speed
        comm.sent.clear()
        t0 = time.monotonic()
        dash.knobs.live.value = True
        await dash.player.task
        return time.monotonic() - t0

    wall = asyncio.run(main())
    s = np.asarray(stamps)
    per_second = max(int(np.sum((s >= t) & (s < t + 1.0))) for t in s) if len(s) else 0
    return {"simulated s": dash.full.end - min(c.start for c in dash.full.compiles),
            "wall s": wall, "frames": len(s), "frames/s": len(s) / wall,
            "most frames in 1 s": per_second, "messages": len(comm.sent),
            "MB sent": sum(b for _t, b in comm.sent) / 1e6}


def main() -> None:
    load = os.getloadavg()
    print(f"ovlab dashboards, {datetime.date.today()}, {os.cpu_count()} cores, load average "
          f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (1 / 5 / 15 min)")
    ovlab.widgets.LatencyDashboard(niter=20)  # imports and plotly's validators, once
    for name, make in (("lab 04 LatencyDashboard", ovlab.widgets.LatencyDashboard),
                       ("lab 05 TimelineDashboard", ovlab.widgets.TimelineDashboard)):
        r = widget_changes(make)
        print(f"  {name}: widget change -> figure updated: median {r['total median']:.0f} ms, "
              f"p95 {r['total p95']:.0f} ms (simulate {r['simulate median']:.0f}, figure "
              f"{r['figure median']:.0f}, FigureWidget update {r['update median']:.0f} ms "
              f"median); {r['kB sent per change']:.0f} kB sent per change; back to a setting "
              f"run before: median {r['again median']:.0f} ms, p95 {r['again p95']:.0f} ms")
    r = live_replay(10.0)
    print(f"  live x10 replay of the 2,000-request AUTO THROUGHPUT run ({r['simulated s']:.1f} "
          f"simulated s): {r['wall s']:.2f} s of wall time, {r['frames']} frames "
          f"({r['frames/s']:.1f}/s, at most {r['most frames in 1 s']} in any second), "
          f"{r['messages']} messages, {r['MB sent']:.1f} MB")
    load = os.getloadavg()
    print(f"  load average after: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")


if __name__ == "__main__":
    main()
