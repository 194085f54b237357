"""How fast the dashboards answer, measured in the kernel's process (no browser).

1. A widget change at default settings (``AUTO_BATCH_TIMEOUT`` one step of its slider, as the
   browser test does): the time from the new value to the figure updated and its messages
   serialized, split into the simulation, building the figure and updating the FigureWidget; for
   lab 04's and lab 05's dashboards, 30 changes each, median and p95. Each change is handled
   inside an asyncio event loop, 0.1 s after the last, as a kernel handles widget messages
   (:func:`in_a_loop`). Lab 09's resource-aware
   dashboard: 12 changes of the other app's GPU load (an 8 s scenario re-run each time).
2. A live x10 replay of the 2,000-request AUTO THROUGHPUT run (lab 04's defaults): wall time,
   frames, the most frames (figure updates) in any one second, and the bytes sent.
3. Click to redrawn figure in a real browser: the browser test (``tests/browser``, JupyterLab and
   headless Chromium) on labs 04, 05 and 09, run in a subprocess; its timings (median and p95 of
   the slider changes) are read back from ``artifacts/browser/timings.json`` and printed here.
   Skipped when Chromium or Playwright is missing, or with ``--kernel-only``.

The FigureWidget gets a stand-in for the kernel's comm that serializes every message as the
kernel would (JSON plus binary buffers), so the message cost is counted. Every figure is printed
with the machine it was measured on (``/proc/cpuinfo``'s model name) and the load average: the
goals (issue 24) are a kernel p95 under 100 ms and a browser p95 under 250 ms on a 2-vCPU
machine.

Run: ``python benchmarks/bench_dashboards.py [--kernel-only]``. The README quotes the figures.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

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


# the pause after each change (the browser test waits 0.3 s for the figure to be drawn)
PAUSE_S = 0.1


def in_a_loop(change, values) -> list[float]:
    """The seconds each ``change(value)`` takes, called inside an asyncio event loop with
    ``PAUSE_S`` between calls, as a kernel handles widget messages: what a dashboard leaves
    until its messages are on their way (Python's collector, back on 0.05 s after a change)
    runs in the pause, as it does in a kernel, not in the change's time."""
    times: list[float] = []

    async def main() -> None:
        for value in values:
            t0 = time.perf_counter()
            change(value)
            times.append(time.perf_counter() - t0)
            await asyncio.sleep(PAUSE_S)

    asyncio.run(main())
    return times


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
    parts["total"] = in_a_loop(lambda value: setattr(dash.knobs.timeout, "value", value), values)
    parts["update"] = [u - f for u, f in zip(parts["update"], parts["figure"], strict=True)]
    out = {f"{k} median": statistics.median(v) * 1000 for k, v in parts.items()}
    out.update({f"{k} p95": _p95(v) * 1000 for k, v in parts.items()})
    out["kB sent per change"] = sum(s for _t, s in comm.sent) / n / 1000
    # back to settings it has run: drawn from the kept run
    again = in_a_loop(lambda value: setattr(dash.knobs.timeout, "value", value), values[-10:])
    out["again median"] = statistics.median(again) * 1000
    out["again p95"] = _p95(again) * 1000
    return out


def resource_aware_changes(loads=(0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.4, 0.35, 0.3,
                                  0.25, 0.2)) -> dict[str, float]:
    """Lab 09: change the other app's GPU load one slider step at a time (each a new scenario
    run), as the browser test does."""
    dash = ovlab.widgets.ResourceAwareDashboard()
    comm = _attach(dash)
    times = in_a_loop(lambda value: setattr(dash.gpu_load, "value", value), loads)
    return {"total median": statistics.median(times) * 1000, "total p95": _p95(times) * 1000,
            "kB sent per change": sum(s for _t, s in comm.sent) / len(loads) / 1000}


def machine() -> str:
    """The CPU's model name and how many the kernel sees (``/proc/cpuinfo`` on Linux)."""
    try:
        with open("/proc/cpuinfo") as f:
            names = [ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")]
        return f"{names[0]} x {len(names)}"
    except (OSError, IndexError):
        import platform

        return f"{platform.processor() or platform.machine()} x {os.cpu_count()}"


ROOT = Path(__file__).resolve().parents[1]
TIMINGS = ROOT / "artifacts" / "browser" / "timings.json"


def browser_timings(labs: str = "04 or 05 or 09") -> dict | None:
    """Run the browser test on the labs' dashboards; their click -> redraw timings, or None."""
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not (os.path.exists(chromium) or shutil.which("chromium")):
        print("  browser: skipped (no Chromium; `make chromium` installs Debian's)")
        return None
    try:
        import playwright  # noqa: F401
    except ImportError:
        print("  browser: skipped (Playwright is not installed)")
        return None
    TIMINGS.unlink(missing_ok=True)
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-m", "browser", "tests/browser", "-k", labs], cwd=ROOT,
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    if proc.returncode != 0 or not TIMINGS.exists():
        tail = "\n".join(proc.stdout.splitlines()[-15:])
        print(f"  browser: the browser test failed (exit {proc.returncode}):\n{tail}")
        return None
    print(f"  browser test (JupyterLab + headless Chromium, labs {labs}): "
          f"{time.monotonic() - t0:.0f} s")
    return json.loads(TIMINGS.read_text())


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
    print(f"ovlab dashboards, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
          f"{machine()}, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} "
          "(1 / 5 / 15 min)")
    ovlab.widgets.LatencyDashboard(niter=20)  # imports and plotly's validators, once
    for name, make in (("lab 04 LatencyDashboard", ovlab.widgets.LatencyDashboard),
                       ("lab 05 TimelineDashboard", ovlab.widgets.TimelineDashboard)):
        r = widget_changes(make)
        print(f"  {name}: widget change -> figure updated: median {r['total median']:.0f} ms, "
              f"p95 {r['total p95']:.0f} ms (simulate {r['simulate median']:.0f}, figure "
              f"{r['figure median']:.0f}, FigureWidget update {r['update median']:.0f} ms "
              f"median); {r['kB sent per change']:.0f} kB sent per change; back to a setting "
              f"run before: median {r['again median']:.0f} ms, p95 {r['again p95']:.0f} ms")
    r = resource_aware_changes()
    print(f"  lab 09 ResourceAwareDashboard: widget change -> figure updated: median "
          f"{r['total median']:.0f} ms, p95 {r['total p95']:.0f} ms; "
          f"{r['kB sent per change']:.0f} kB sent per change")
    r = live_replay(10.0)
    print(f"  live x10 replay of the 2,000-request AUTO THROUGHPUT run ({r['simulated s']:.1f} "
          f"simulated s): {r['wall s']:.2f} s of wall time, {r['frames']} frames "
          f"({r['frames/s']:.1f}/s, at most {r['most frames in 1 s']} in any second), "
          f"{r['messages']} messages, {r['MB sent']:.1f} MB")
    load = os.getloadavg()
    print(f"  load average after: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")
    if "--kernel-only" in sys.argv:
        return
    timings = browser_timings()
    for stem, entry in sorted((timings or {}).items()):
        for what, t in entry["widget change -> redrawn figure (ms)"].items():
            if isinstance(t, dict) and "median" in t:
                p95 = f", p95 {t['p95']} ms" if "p95" in t else ""
                print(f"  browser, {stem}, {what}: click -> redrawn figure median "
                      f"{t['median']} ms{p95}, max {t['max']} ms")
        print(f"    (load average at its end {entry['load average at the end']})")


if __name__ == "__main__":
    main()
