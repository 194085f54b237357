"""Published benchmark rows and ovlab's figures for them (the presets' validation).

A :class:`Row` is one line of Intel's published OpenVINO benchmark tables: a model and precision
on a platform's device, with its throughput (benchmark_app THROUGHPUT, batch 1, FPS) and maybe
its latency (synchronous, one request, ms). :func:`simulate` runs the same benchmark_app command
on ovlab (``python -m ovlab.benchmark -m MODEL:PRECISION -d DEVICE -hint ... --platform PRESET``)
and returns ovlab's figure, so a table of published, simulated and error is one loop.

How the tables' device columns map to ``-d``: ``CPU`` -> ``CPU``; ``iGPU``/``dGPU`` -> ``GPU``
(``GPU.0``: each preset has one GPU); ``NPU`` -> ``NPU``; ``CPU+iGPU`` -> ``AUTO:GPU,CPU`` with
``-hint cumulative_throughput`` (as Intel ran them).

The FP32 CPU+iGPU rows are read as FP32 on the GPU too (``-infer_precision GPU:f32``; the GPU's
default would be f16). This is an inference from the published numbers, not a documented
setting: with it, both platforms' CPU+iGPU rows are 69-81 % of the sum of their devices' rows
in INT8 and in FP32 alike (the 65-77 % the figures are known for); with f16 on the GPU the FP32
rows would be 40-50 % of the sum while the INT8 rows stay at 75-81 %, which no shared budget
explains.
"""

from __future__ import annotations

import csv
import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the project (benchmarks/ lives there)
PUBLISHED_CSV = ROOT / "benchmarks" / "data" / "resnet-50-ov2024.3.csv"
RESULTS_DIR = ROOT / "benchmarks" / "results"
DEVICE_ARGS = {"CPU": "CPU", "iGPU": "GPU", "dGPU": "GPU", "NPU": "NPU",
               "CPU+iGPU": "AUTO:GPU,CPU"}
# benchmark_app's default duration on hardware devices: a GPU's automatic batching ends a run
# with a partial batch waiting for its 1 s timeout, so shorter runs would understate throughput
THROUGHPUT_SECONDS = 60
LATENCY_ITERATIONS = 60


@dataclass(frozen=True)
class Row:
    """One published figure: ``mode`` "throughput" (FPS) or "latency" (ms)."""

    model: str
    precision: str
    preset: str
    device: str  # the table's column: CPU, iGPU, dGPU, NPU, CPU+iGPU
    mode: str
    value: float
    source: str = ""

    @property
    def label(self) -> str:
        return f"{self.preset} {self.device} {self.model}:{self.precision} {self.mode}"

    def argv(self) -> list[str]:
        """The ``ovlab benchmark`` options that reproduce this row."""
        hint = self.mode
        if self.device == "CPU+iGPU":
            hint = "cumulative_throughput"
        args = ["-m", f"{self.model}:{self.precision}", "-d", DEVICE_ARGS[self.device],
                "-hint", hint, "--platform", self.preset]
        if self.device == "CPU+iGPU" and self.precision == "FP32":
            args += ["-infer_precision", "GPU:f32"]  # see the module docstring
        if self.mode == "latency":
            return [*args, "-niter", str(LATENCY_ITERATIONS)]
        return [*args, "-t", str(THROUGHPUT_SECONDS)]


def read_rows(path: str | Path = PUBLISHED_CSV) -> list[Row]:
    """The rows of a CSV with columns source, model, preset, device, precision,
    throughput_fps, latency_ms (an empty cell: not published)."""
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        for line in csv.DictReader(f):
            for mode, column in (("throughput", "throughput_fps"), ("latency", "latency_ms")):
                if line.get(column):
                    rows.append(Row(line["model"], line["precision"], line["preset"],
                                    line["device"], mode, float(line[column]),
                                    line.get("source", "")))
    return rows


def simulate(row: Row, platform=None, seed: int = 0) -> float:
    """ovlab's figure for ``row`` (on ``platform``, default: the row's preset)."""
    from ..benchmark import run
    from ..runtime.core import Core

    core = Core(platform if platform is not None else row.preset, seed=seed)
    report = run(row.argv(), core=core)
    return report.throughput_fps if row.mode == "throughput" else report.latency_median_ms


def simulate_benchmark(name: str, precision: str, mode: str, platform="cpu",
                       device: str = "CPU") -> float:
    """benchmark_app's figure for a zoo model on ``platform`` (ms for latency, FPS for
    throughput); the simulation of what ``benchmarks/bench_fidelity.py`` measures."""
    from ..benchmark import run
    from ..runtime.core import Core

    core = Core(platform, seed=0)
    if mode == "latency":
        return run(["-m", f"{name}:{precision}", "-d", device, "-hint", "latency", "-niter",
                    "200"], core=core).latency_median_ms
    return run(["-m", f"{name}:{precision}", "-d", device, "-hint", "throughput", "-niter",
                "2000"], core=core).throughput_fps


def latest_results(kind: str, directory: str | Path = RESULTS_DIR) -> Path | None:
    """The newest ``<kind>-<date>.json`` the benchmarks stored (``fidelity``, ``presets``)."""
    files = sorted(Path(directory).glob(f"{kind}-*.json"))
    return files[-1] if files else None


def error(simulated: float, published: float) -> float:
    """Relative error of ``simulated`` against ``published`` (0.1: 10 % too high)."""
    return simulated / published - 1.0


def summary(errors: Iterable[float]) -> dict[str, float]:
    """Median absolute error and the worst ratio (max of sim/pub and pub/sim)."""
    errs = list(errors)
    if not errs:
        return {"median_abs_error": math.nan, "worst_ratio": math.nan, "n": 0}
    worst = max(max(1 + e, 1 / (1 + e)) for e in errs)
    return {"median_abs_error": statistics.median(abs(e) for e in errs), "worst_ratio": worst,
            "n": len(errs)}
