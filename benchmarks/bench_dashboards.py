"""How fast the dashboards answer: in the kernel's process, and in a real browser, quiet or
under a class's load.

1. Kernel side (no browser): a widget change's time from the new value to the figure updated
   and its messages serialized. Labs 04 and 05: 30 changes of ``AUTO_BATCH_TIMEOUT`` (one slider
   step at a time, to values not run before), split into the simulation, building the figure and
   updating the FigureWidget; the *first* change after the dashboard is built (what a learner
   meets just after Run All) apart; compare mode (overlay, side by side, and a timeout change with
   run A pinned). Lab 09: 12 changes of the other app's GPU load. Lab 13: a round of its knobs
   (budget, vLLM mode, prefix caching, rate). Lab 14: prompt lengths, users, models. Each change
   is handled inside an asyncio event loop, 0.1 s after the last, as a kernel handles widget
   messages (:func:`in_a_loop`).
2. A live x10 replay of the 2,000-request AUTO THROUGHPUT run (lab 04's defaults): wall time,
   frames, the most frames (figure updates) in any one second, and the bytes sent.
3. ``--browser``: click to redrawn figure in a real browser: the browser test
   (``tests/browser``, JupyterLab and headless Chromium) on labs 04, 05, 09, 13 and 14, run in a
   subprocess; its timings (the first change after Run All included, compare mode for 04 and 05)
   are read back from ``artifacts/browser/timings.json``. Skipped when Chromium or Playwright
   is missing.
4. ``--load``: all of the above while one more process keeps a core busy with a lab's Run All
   in a loop (lab 09 by default, ``--load=NN`` another: a fresh kernel runs the lab's cells, as a
   second learner's Run All does, again and again), as on a machine a class shares.

The FigureWidget gets a stand-in for the kernel's comm that serializes every message as the
kernel would (JSON plus binary buffers), so the message cost is counted. Every figure is printed
with the machine it was measured on (``/proc/cpuinfo``'s model name) and the load average, and
written to ``benchmarks/results/dashboards-<date>[-load].json``. Goals (issue 38), the first
change after Run All included: a knob's p95 under 250 ms quiet and under 500 ms under load;
compare mode under 500 ms quiet and under 1 s under load (browser, 2 vCPUs).

Run: ``python benchmarks/bench_dashboards.py [--browser] [--load[=NN]]``. The README quotes
the figures.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
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
    CPU_TIMES.clear()

    async def main() -> None:
        for value in values:
            t0, c0 = time.perf_counter(), time.process_time()
            change(value)
            times.append(time.perf_counter() - t0)
            CPU_TIMES.append(time.process_time() - c0)
            await asyncio.sleep(PAUSE_S)

    asyncio.run(main())
    return times


# the CPU seconds of each change of the last in_a_loop (the process's own, whatever the load:
# on a machine others share, wall times swing with the load and CPU times far less)
CPU_TIMES: list[float] = []


# 30 timeouts never seen before (a dashboard keeps its last runs, and a setting it has run
# before redraws without simulating: that is timed apart)
NEW_TIMEOUTS = list(range(1050, 2001, 50)) + list(range(950, 450, -50))


def widget_changes(make, values=NEW_TIMEOUTS) -> dict[str, float]:
    """Time changes of AUTO_BATCH_TIMEOUT away from the default settings, one slider step at a
    time, each to a value the dashboard has not run yet."""
    dash = make()
    comm = _attach(dash)
    parts: dict[str, list[float]] = {"total": [], "simulate": [], "figure": [], "update": [],
                                     "CPU": []}
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
    parts["CPU"] = list(CPU_TIMES)
    parts["update"] = [u - f for u, f in zip(parts["update"], parts["figure"], strict=True)]
    out = {f"{k} median": statistics.median(v) * 1000 for k, v in parts.items()}
    out.update({f"{k} p95": _p95(v) * 1000 for k, v in parts.items()})
    out["kB sent per change"] = sum(s for _t, s in comm.sent) / n / 1000
    # back to settings it has run: drawn from the kept run
    again = in_a_loop(lambda value: setattr(dash.knobs.timeout, "value", value), values[-10:])
    out["again median"] = statistics.median(again) * 1000
    out["again p95"] = _p95(again) * 1000
    return out


def first_change(make) -> float:
    """ms of the first change after a dashboard is built (Run All's last cell), then none."""
    dash = make()
    _attach(dash)
    return in_a_loop(lambda value: setattr(dash.knobs.timeout, "value", value), [1050])[0] * 1000


def compare_changes(make) -> dict[str, float]:
    """Compare mode: pin (overlay), side by side, then timeout changes with A pinned, side by
    side (each a new run drawn in both panels)."""
    dash = make()
    _attach(dash)
    out: dict[str, float] = {}
    out["overlay (pin A)"] = in_a_loop(lambda _v: dash.pin(), [None])[0] * 1000
    out["side by side"] = in_a_loop(lambda v: setattr(dash.knobs.compare, "value", v),
                                    ["side by side"])[0] * 1000
    times = in_a_loop(lambda value: setattr(dash.knobs.timeout, "value", value),
                      NEW_TIMEOUTS[:12])
    out["side by side, timeout change median"] = statistics.median(times) * 1000
    out["side by side, timeout change p95"] = _p95(times) * 1000
    return out


def _knob_round(widget_values) -> list[float]:
    """The seconds each (widget, value) change takes, in a loop as a kernel handles them."""
    return in_a_loop(lambda wv: setattr(wv[0], "value", wv[1]), widget_values)


def _attach_widget(figure) -> CountingComm:
    comm = CountingComm()
    figure.comm = comm
    return comm


def llm_serving_changes() -> dict[str, float]:
    """Lab 13: the budget, vLLM mode and back, prefix caching, the request rate, the cache."""
    from ovlab.sim.widgets.llm_dashboard import LLMServingDashboard

    dash = LLMServingDashboard()
    _attach_widget(dash.fig)
    first = _knob_round([(dash.w_tokens, 512)])
    cpu = list(CPU_TIMES)
    rest = _knob_round([(dash.w_tokens, 1024), (dash.w_split, False), (dash.w_seqs, 4),
                        (dash.w_split, True), (dash.w_prefix, not dash.w_prefix.value),
                        (dash.w_rate, 2.0), (dash.w_rate, 3.0), (dash.w_rate, 6.0),
                        (dash.w_cache, 1), (dash.w_cache, 2), (dash.w_tokens, 256)])
    times, cpu = first + rest, cpu + CPU_TIMES
    return {"first change": first[0] * 1000, "total median": statistics.median(times) * 1000,
            "total p95": _p95(times) * 1000, "CPU median": statistics.median(cpu) * 1000,
            "CPU p95": _p95(cpu) * 1000, "changes": len(times)}


def llm_device_changes() -> dict[str, float]:
    """Lab 14: prompt lengths, users at once, other models."""
    from ovlab.sim.widgets.llm_device_dashboard import LLMDeviceDashboard

    dash = LLMDeviceDashboard()
    _attach_widget(dash.fig)
    first = _knob_round([(dash.w_prompt, 1024)])
    cpu = list(CPU_TIMES)
    models = [m for m in dash.w_model.options if m != dash.w_model.value]
    rest = _knob_round([(dash.w_users, 4), (dash.w_prompt, 1536), (dash.w_users, 2),
                        (dash.w_prompt, 256), (dash.w_users, 8), (dash.w_model, models[0]),
                        (dash.w_prompt, 1024), (dash.w_users, 1), (dash.w_model, models[-1]),
                        (dash.w_prompt, 512), (dash.w_users, 4)])
    times, cpu = first + rest, cpu + CPU_TIMES
    return {"first change": first[0] * 1000, "total median": statistics.median(times) * 1000,
            "total p95": _p95(times) * 1000, "CPU median": statistics.median(cpu) * 1000,
            "CPU p95": _p95(cpu) * 1000, "changes": len(times)}


def resource_aware_changes(loads=(0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.4, 0.35, 0.3,
                                  0.25, 0.2)) -> dict[str, float]:
    """Lab 09: change the other app's GPU load one slider step at a time (each a new scenario
    run), as the browser test does."""
    dash = ovlab.widgets.ResourceAwareDashboard()
    comm = _attach(dash)
    times = in_a_loop(lambda value: setattr(dash.gpu_load, "value", value), loads)
    return {"total median": statistics.median(times) * 1000, "total p95": _p95(times) * 1000,
            "CPU median": statistics.median(CPU_TIMES) * 1000, "CPU p95": _p95(CPU_TIMES) * 1000,
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


def browser_ready() -> bool:
    """Whether Chromium and Playwright are here for the browser test (if not, says which)."""
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not (os.path.exists(chromium) or shutil.which("chromium")):
        print("  browser: skipped (no Chromium; `make chromium` installs Debian's)")
        return False
    try:
        import playwright  # noqa: F401
    except ImportError:
        print("  browser: skipped (Playwright is not installed)")
        return False
    return True


def browser_timings(labs: str = "04 or 05 or 09 or 13 or 14") -> dict | None:
    """Run the browser test on the labs' dashboards; their click -> redraw timings, or None."""
    if not browser_ready():
        return None
    TIMINGS.unlink(missing_ok=True)
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-m", "browser", "tests/browser/test_dashboards.py", "-k", labs],
                          cwd=ROOT,
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


def run_all_loop(stem: str) -> None:
    """``--run-all-loop NN``: run lab NN's cells in a fresh kernel, again and again, as a second
    learner's Run All (the ``--load`` mode's other process; its outputs are thrown away)."""
    import jupytext
    from nbclient import NotebookClient

    src = next((ROOT / "lab-sources").glob(f"{stem}-*.py"))
    os.environ["OVLAB_RESULTS_DIR"] = "off"
    # jupyter_client starts the kernel in a session of its own, out of reach of the signal
    # that ends this process's group: SIGTERM raises SystemExit here, and nbclient's cleanup
    # shuts the kernel down on the way out
    signal.signal(signal.SIGTERM, lambda *_a: sys.exit(0))
    while True:
        nb = jupytext.read(src)
        nb.metadata["kernelspec"] = {"name": "python3", "language": "python",
                                     "display_name": "Python 3"}
        NotebookClient(nb, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": str(ROOT / "labs")}}).execute()


@contextmanager
def class_load(stem: str | None) -> Iterator[None]:
    """While inside: one more process runs lab ``stem``'s Run All in a loop (None: nothing)."""
    if stem is None:
        yield
        return
    proc = subprocess.Popen([sys.executable, __file__, "--run-all-loop", stem], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    time.sleep(5.0)  # its kernel up and its first Run All under way
    try:
        yield
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def _load_text() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} / {five:.1f} / {fifteen:.1f}"


def main(argv: list[str]) -> None:
    if argv[:1] == ["--run-all-loop"]:
        run_all_loop(argv[1])
        return
    load_lab = next((a.split("=", 1)[1] if "=" in a else "09" for a in argv
                     if a.startswith("--load")), None)
    browser = "--browser" in argv
    now = datetime.datetime.now(datetime.timezone.utc)
    results: dict = {"date": f"{now:%Y-%m-%d %H:%M} UTC", "machine": machine(),
                     "load": (f"one more process runs lab {load_lab}'s Run All in a loop"
                              if load_lab else "none added"), "kernel": {}, "browser": None}
    print(f"ovlab dashboards, {results['date']}, {results['machine']}, {_load_text()} "
          f"(1 / 5 / 15 min); added load: {results['load']}")
    ovlab.widgets.LatencyDashboard(niter=20)  # imports and plotly's validators, once
    k = results["kernel"]
    with class_load(load_lab):
        print(f"  ({_load_text()} with the added load)")
        for stem, name, make in (("04", "LatencyDashboard", ovlab.widgets.LatencyDashboard),
                                 ("05", "TimelineDashboard", ovlab.widgets.TimelineDashboard)):
            r = widget_changes(make)
            r["first change after the build"] = first_change(make)
            r.update(compare_changes(make))
            r["load average"] = os.getloadavg()[0]
            k[stem] = r
            print(f"  lab {stem} {name}: widget change -> figure updated: median "
                  f"{r['total median']:.0f} ms, p95 {r['total p95']:.0f} ms (CPU median "
                  f"{r['CPU median']:.0f}, p95 {r['CPU p95']:.0f} ms; simulate "
                  f"{r['simulate median']:.0f}, figure {r['figure median']:.0f}, FigureWidget "
                  f"update {r['update median']:.0f} ms median); first change after the build "
                  f"{r['first change after the build']:.0f} ms; {r['kB sent per change']:.0f} kB "
                  f"sent per change; back to a setting run before: median "
                  f"{r['again median']:.0f} ms, p95 {r['again p95']:.0f} ms")
            print(f"    compare: overlay (pin A) {r['overlay (pin A)']:.0f} ms, side by side "
                  f"{r['side by side']:.0f} ms, a timeout change side by side median "
                  f"{r['side by side, timeout change median']:.0f} ms, p95 "
                  f"{r['side by side, timeout change p95']:.0f} ms ({_load_text()})")
        r = resource_aware_changes()
        r["load average"] = os.getloadavg()[0]
        k["09"] = r
        print(f"  lab 09 ResourceAwareDashboard: widget change -> figure updated: median "
              f"{r['total median']:.0f} ms, p95 {r['total p95']:.0f} ms (CPU median "
              f"{r['CPU median']:.0f}, p95 {r['CPU p95']:.0f} ms); "
              f"{r['kB sent per change']:.0f} kB sent per change")
        for stem, name, fn in (("13", "LLMServingDashboard", llm_serving_changes),
                               ("14", "LLMDeviceDashboard", llm_device_changes)):
            r = fn()
            r["load average"] = os.getloadavg()[0]
            k[stem] = r
            print(f"  lab {stem} {name}: {r['changes']} knob changes -> figure updated: median "
                  f"{r['total median']:.0f} ms, p95 {r['total p95']:.0f} ms (CPU median "
                  f"{r['CPU median']:.0f}, p95 {r['CPU p95']:.0f} ms), first change "
                  f"{r['first change']:.0f} ms ({_load_text()})")
        if not load_lab:
            r = live_replay(10.0)
            k["04 live x10"] = r
            print(f"  live x10 replay of the 2,000-request AUTO THROUGHPUT run "
                  f"({r['simulated s']:.1f} simulated s): {r['wall s']:.2f} s of wall time, "
                  f"{r['frames']} frames ({r['frames/s']:.1f}/s, at most "
                  f"{r['most frames in 1 s']} in any second), {r['messages']} messages, "
                  f"{r['MB sent']:.1f} MB")
        if browser:
            timings = browser_timings()
            results["browser"] = timings
            for stem, entry in sorted((timings or {}).items()):
                for what, t in entry["widget change -> redrawn figure (ms)"].items():
                    if isinstance(t, dict) and "median" in t:
                        p95 = f", p95 {t['p95']} ms" if "p95" in t else ""
                        first = (f", the first after Run All {t['first after Run All']} ms"
                                 if "first after Run All" in t else "")
                        print(f"  browser, {stem}, {what}: click -> redrawn figure median "
                              f"{t['median']} ms{p95}, max {t['max']} ms{first}")
                    elif isinstance(t, (int, float)):
                        print(f"  browser, {stem}, {what}: {t} ms")
                print(f"    (Run All {entry.get('Run All wall time (s)')} s of wall time; load "
                      f"average at its end {entry['load average at the end']})")
    print(f"  {_load_text()} after")
    out = ROOT / "benchmarks" / "results" / (f"dashboards-{now:%Y-%m-%d}"
                                             + ("-browser" if browser else "")
                                             + ("-load" if load_lab else "") + ".json")
    out.write_text(json.dumps(results, indent=1, default=float) + "\n")
    print(f"  written to {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
