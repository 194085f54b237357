"""Measuring the real OpenVINO runtime with benchmark_app's method (for ``ovlab calibrate`` and
``benchmarks/bench_fidelity.py``).

The method is benchmark_app's (``openvino.tools.benchmark``, 2026.4): latency is the LATENCY hint
with the synchronous API and one request, reporting the median of ``request.latency``;
throughput is the THROUGHPUT hint with an ``AsyncInferQueue`` of
``OPTIMAL_NUMBER_OF_INFER_REQUESTS`` requests kept full at batch 1, reporting iterations per
second. Inputs are filled once with random values (inference-only mode).

What is added, and why: the machines this runs on are often shared (CI runners, a VM with other
jobs), and a neighbour makes a run slower, never faster: on the 2-vCPU machine of this project a
second busy process doubles ResNet-50's latency. Each measurement is therefore split into short
windows spread over ``repeat`` passes, and for each window the CPU time *other* processes used
meanwhile is read from ``/proc/stat`` (:class:`OtherLoad`). ``typical`` is benchmark_app's figure
over every window (median latency, median window throughput); ``quiet`` is the median over the
windows in which others kept less than ``QUIET_CORES`` busy, the figure a quiet machine gives.
Both are stored with every window's figure and load, so a reader can judge the noise.

The models are ovlab's zoo networks written as OpenVINO IR by ``ovlab.save_model`` and read by the
real ``openvino.Core.read_model`` (:func:`real_model`), so the two runtimes time the same graph.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ...tools.benchmark import _fill_inputs  # benchmark_app's random inputs

MODES = ("latency", "throughput")


@dataclass
class Measurement:
    """One model, precision, device and mode on the real runtime."""

    model: str
    precision: str
    device: str
    mode: str  # "latency" (ms) or "throughput" (FPS)
    typical: float  # benchmark_app's figure over every window
    quiet: float  # over the quiet windows (see quiet_value)
    windows: list[float] = field(default_factory=list)  # per-window figure, in run order
    iterations: int = 0
    nireq: int = 1
    streams: int = 1
    inference_precision: str = ""
    load: tuple[float, float] = (0.0, 0.0)  # lowest and highest 1-minute load average
    others: list[float | None] = field(default_factory=list)  # cores others used per window
    passes: list[float] = field(default_factory=list)  # each pass's own quiet figure

    @property
    def pass_spread(self) -> float:
        """The largest over the smallest of the passes' figures (1.0: the passes agree, or one
        pass): how far the machine's noise alone moves this figure."""
        return max(self.passes) / min(self.passes) if len(self.passes) > 1 else 1.0

    @property
    def spread(self) -> tuple[float, float]:
        """(10th, 90th) percentile of the window figures."""
        if not self.windows:
            return (self.typical, self.typical)
        lo, hi = np.percentile(self.windows, [10, 90])
        return float(lo), float(hi)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["spread"] = list(self.spread)
        out["load"] = list(self.load)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Measurement:
        keys = {f for f in cls.__dataclass_fields__}
        kw = {k: v for k, v in data.items() if k in keys}
        kw["load"] = tuple(kw.get("load", (0.0, 0.0)))
        return cls(**kw)


def load_average() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:  # not on every platform
        return float("nan")


class OtherLoad:
    """How many cores other processes (and, in a VM, other guests: steal time) kept busy
    between ``start()`` and ``stop()``; from ``/proc/stat`` minus this process's own CPU time.
    None where ``/proc/stat`` does not exist."""

    def __init__(self) -> None:
        self._t0 = self._busy0 = self._own0 = 0.0

    @staticmethod
    def _busy() -> float | None:
        try:
            with open("/proc/stat", encoding="ascii") as f:
                fields = f.readline().split()[1:]
        except OSError:
            return None
        values = [int(v) for v in fields]
        idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
        guest = sum(values[8:10]) if len(values) > 9 else 0  # counted in user already
        return (sum(values) - idle - guest) / os.sysconf("SC_CLK_TCK")

    def start(self) -> None:
        self._t0 = time.perf_counter()
        self._busy0 = self._busy() or 0.0
        t = os.times()
        self._own0 = t.user + t.system

    def stop(self) -> float | None:
        busy = self._busy()
        if busy is None:
            return None
        t = os.times()
        own = t.user + t.system - self._own0
        seconds = max(time.perf_counter() - self._t0, 1e-9)
        # /proc/stat counts in clock ticks (10 ms): over a short window the quotient can pass
        # the number of cores, which no load can
        return min(max(0.0, (busy - self._busy0 - own) / seconds), float(os.cpu_count() or 1))


def openvino_or_none():
    """The real ``openvino`` module, or None when it is not installed (or when ovlab's runner
    serves ``openvino``: that one has no file, and measuring it would measure ovlab)."""
    try:
        import openvino
    except ImportError:
        return None
    return openvino if getattr(openvino, "__file__", None) else None


GRAPH_SOURCE = "IR written by ovlab.save_model (f32 weights), read by openvino.Core.read_model"


def real_model(name: str, precision: str, directory: str | None = None):
    """Zoo model ``name`` for the real runtime: the IR ovlab writes for it (``ov.save_model``,
    weights kept in f32), read by the real ``read_model``, so both runtimes run one IR."""
    import tempfile
    from pathlib import Path

    import openvino

    from ..frontends import save_model
    from ..models import zoo

    if directory is not None:
        path = Path(directory) / f"{name}-{precision}.xml"
        save_model(zoo.load(name, precision), str(path), compress_to_fp16=False)
        return openvino.Core().read_model(str(path))
    # no folder asked for: the IR is read from memory (its XML text and its weights as a
    # tensor), so the temporary folder goes at once (a folder per call was left in the system
    # temp directory; the real runtime maps a weights file it reads from disk)
    import numpy as np

    with tempfile.TemporaryDirectory(prefix="ovlab-ir-") as folder:
        path = Path(folder) / f"{name}-{precision}.xml"
        save_model(zoo.load(name, precision), str(path), compress_to_fp16=False)
        xml = path.read_text(encoding="utf-8")
        weights = np.fromfile(path.with_suffix(".bin"), dtype=np.uint8)
    return openvino.Core().read_model(xml, openvino.Tensor(weights))


@dataclass
class Window:
    """One stretch of a measurement: its figure, its raw latencies and the others' load."""

    value: float  # median latency (ms) or FPS
    others: float | None  # cores kept busy by other processes meanwhile (None: unknown)
    samples: list[float] = field(default_factory=list)


QUIET_CORES = 0.15  # a window is quiet when others kept less than this many cores busy


def quiet_value(windows: list[Window], mode: str) -> float:
    """The figure of a quiet machine: the median over the quiet windows (others below
    ``QUIET_CORES``); with none, over the least-disturbed quarter of the windows."""
    known = [w for w in windows if w.others is not None]
    if not known:
        pick = windows
    else:
        pick = [w for w in known if w.others < QUIET_CORES]
        if len(pick) < 2:
            known.sort(key=lambda w: w.others)
            pick = known[:max(2, len(known) // 4)]
    return statistics.median(w.value for w in pick)


class _Latency:
    """LATENCY hint, sync API, one request (benchmark_app ``-hint latency``)."""

    mode = "latency"

    def __init__(self, core, model, device: str, config: dict | None = None) -> None:
        self.compiled = core.compile_model(model, device,
                                           {"PERFORMANCE_HINT": "LATENCY", **(config or {})})
        self.request = self.compiled.create_infer_request()
        _fill_inputs([self.request], model, 0)
        self.request.infer()  # benchmark_app's warm-up ("First inference took")
        self.nireq = 1

    def window(self, window_s: float) -> Window:
        meter = OtherLoad()
        meter.start()
        samples: list[float] = []
        start = time.perf_counter()
        while len(samples) < 10 or time.perf_counter() - start < window_s:
            self.request.infer()
            samples.append(self.request.latency)
        return Window(statistics.median(samples), meter.stop(), samples)

    def close(self) -> None:
        del self.request, self.compiled


class _Throughput:
    """THROUGHPUT hint, async API, OPTIMAL_NUMBER_OF_INFER_REQUESTS requests kept full
    (benchmark_app ``-hint throughput``)."""

    mode = "throughput"

    def __init__(self, core, model, device: str, config: dict | None = None) -> None:
        import openvino

        self.compiled = core.compile_model(model, device,
                                           {"PERFORMANCE_HINT": "THROUGHPUT", **(config or {})})
        self.nireq = int(self.compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS"))
        self.queue = openvino.AsyncInferQueue(self.compiled, self.nireq)
        _fill_inputs(self.queue, model, 0)
        self.queue.start_async()  # warm-up
        self.queue.wait_all()

    def window(self, window_s: float) -> Window:
        meter = OtherLoad()
        meter.start()
        iters = 0
        start = time.perf_counter()
        while iters < 4 * self.nireq or time.perf_counter() - start < window_s:
            self.queue.get_idle_request_id()  # as benchmark_app's loop (it reads latency here)
            self.queue.start_async()
            iters += 1
        self.queue.wait_all()
        return Window(iters / (time.perf_counter() - start), meter.stop())

    def close(self) -> None:
        self.queue.wait_all()
        del self.queue, self.compiled


class QuietWaiter:
    """Before a window, wait (up to a total budget) until other processes leave the machine
    alone, so that a measurement on a shared machine runs in its quiet moments instead of its
    busy ones and adds no load while others work."""

    def __init__(self, budget_s: float) -> None:
        self.left = budget_s

    def wait(self) -> None:
        while self.left > 0:
            meter = OtherLoad()
            meter.start()
            time.sleep(0.2)
            others = meter.stop()
            if others is None or others < QUIET_CORES:
                return
            time.sleep(0.8)
            self.left -= 1.0


def measure(models: Iterable[tuple[str, str]], *, device: str = "CPU", repeat: int = 4,
            window_s: float = 0.2, n_windows: int = 2, patience: int = 3,
            quiet_budget_s: float = 0.0,
            echo: Callable[[str], None] | None = None) -> list[Measurement]:
    """Latency and throughput of each (zoo name, precision) on the real ``device``.

    ``repeat`` passes over all models (they spread a model's windows over time, so one burst of
    load cannot spoil them all); in each pass and mode, windows of ``window_s`` until
    ``n_windows`` of them were quiet or ``patience`` x ``n_windows`` were tried. With
    ``quiet_budget_s``, each window first waits for a quiet moment (:class:`QuietWaiter`), up to
    that many seconds in total over the whole run.
    """
    import tempfile

    import openvino

    with tempfile.TemporaryDirectory(prefix="ovlab-ir-") as folder:
        return _measure(openvino.Core(), list(models), folder, device, repeat, window_s,
                        n_windows, patience, QuietWaiter(quiet_budget_s), echo)


def _measure(core, models, folder, device, repeat, window_s, n_windows, patience, waiter,
             echo) -> list[Measurement]:
    built = {key: real_model(*key, directory=folder) for key in models}
    acc: dict[tuple[str, str, str], dict[str, Any]] = {}
    for _ in range(max(1, repeat)):
        for key in models:
            for runner_cls in (_Latency, _Throughput):
                load0 = load_average()
                runner = runner_cls(core, built[key], device)
                got: list[Window] = []
                for _ in range(n_windows * patience):
                    waiter.wait()
                    got.append(runner.window(window_s))
                    if sum(1 for w in got if w.others is None or w.others < QUIET_CORES) \
                            >= n_windows:
                        break
                a = acc.setdefault((*key, runner.mode), {"windows": [], "loads": [],
                                                          "passes": []})
                a["windows"] += got
                a["passes"].append(quiet_value(got, runner.mode))
                a["loads"] += [load0, load_average()]
                a["nireq"] = runner.nireq
                a["streams"] = int(runner.compiled.get_property("NUM_STREAMS"))
                a["precision"] = str(runner.compiled.get_property("INFERENCE_PRECISION_HINT"))
                runner.close()
            if echo is not None:
                lat = acc[(*key, "latency")]["windows"]
                tput = acc[(*key, "throughput")]["windows"]
                echo(f"  {key[0]}:{key[1]} on {device}: latency {lat[-1].value:.3f} ms, "
                     f"throughput {tput[-1].value:.1f} FPS (others busy "
                     f"{_cores(lat[-1].others)} / {_cores(tput[-1].others)} cores)")
    out = []
    for (name, precision, mode), a in acc.items():
        windows: list[Window] = a["windows"]
        if mode == "latency":
            typical = statistics.median(v for w in windows for v in w.samples)
            iters = sum(len(w.samples) for w in windows)
        else:
            typical = statistics.median(w.value for w in windows)
            iters = len(windows)
        out.append(Measurement(
            name, precision, device, mode, typical, quiet_value(windows, mode),
            [round(w.value, 6) for w in windows], iters, a["nireq"], a["streams"], a["precision"],
            (min(a["loads"]), max(a["loads"])),
            [None if w.others is None else round(w.others, 3) for w in windows],
            [round(v, 6) for v in a["passes"]]))
    return out


def _cores(value: float | None) -> str:
    return "?" if value is None else f"{value:.2f}"
