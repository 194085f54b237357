"""Published benchmark rows and ovlab's figures for them (the presets' validation).

A :class:`Row` is one line of Intel's published OpenVINO benchmark tables: a model and precision
on a platform's device, with its throughput (benchmark_app THROUGHPUT, batch 1, FPS) and maybe
its latency (synchronous, one request, ms). :func:`simulate` runs the same benchmark_app command
on ovlab (``python -m ovlab.tools.benchmark -m MODEL:PRECISION -d DEVICE -hint ... --platform PRESET``)
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

ROOT = Path(__file__).resolve().parents[3]  # the project (benchmarks/ lives there)
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
    throughput_fps, latency_ms (an empty cell: not published), or of Intel's own table
    (``OV-<version>-benchmark-data.csv``, read by :func:`read_intel_table`)."""
    with open(path, newline="", encoding="utf-8") as f:
        if f.readline().startswith("Network model,"):
            return read_intel_table(path)
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        for line in csv.DictReader(f):
            for mode, column in (("throughput", "throughput_fps"), ("latency", "latency_ms")):
                if line.get(column):
                    rows.append(Row(line["model"], line["precision"], line["preset"],
                                    line["device"], mode, float(line[column]),
                                    line.get("source", "")))
    return rows


# Intel's table names platforms ("Intel® Core™ i7-1185G7 CPU-only"); the presets that copy them.
# The name must match whole (i7-1185GRE and Flex 140 are other platforms).
INTEL_PLATFORMS = {
    "Intel® Core™ i7-1185G7": "i7-1185g7",
    "Intel® Core™ i9-13900K": "i9-13900k",
    "Intel® Core™ Ultra 7 processor 165H": "core-ultra-7-165h",
    "Intel® Data Center GPU Flex 170": "flex-170",
    "Intel® Arc™ A770M": "arc-a770m",
}
INTEL_DEVICES = {"CPU-only": "CPU", "iGPU-only": "iGPU", "dGPU": "dGPU", "NPU-only": "NPU",
                 "CPU+iGPU": "CPU+iGPU"}
INTEL_MODELS = {"yolo_v3_tiny": "yolo-v3-tiny"}  # the table's name -> the zoo's, where they differ


def read_intel_table(path: str | Path) -> list[Row]:
    """The rows of Intel's published table (the ``OV-2024.3-benchmark-data.csv`` of
    openvinotoolkit/openvino's docs, one line per model and platform, a column per precision)
    that ovlab can simulate: models of the zoo on platforms with a preset. Throughput comes from
    ``Throughput-INT8``, ``-FP16``, ``-FP32`` (FPS, batch 1); the latency column
    ``Latency_int8`` (ms) goes with the INT8 row, and is kept only when that row has an INT8
    throughput too (where it has not, the table does not say which precision it timed: the
    convention of ``benchmarks/data/resnet-50-ov2024.3.csv``). Other lines (LLM tokens/s,
    ``begin_rec``/``end_rec`` markers, other platforms) are skipped."""
    from ..models import zoo

    known = set(zoo.names())
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        for line in csv.DictReader(f):
            model = INTEL_MODELS.get(line["Network model"], line["Network model"])
            if model not in known or (line.get("UOM_T") or "").strip() != "FPS":
                continue
            name, _, kind = line["Platform name"].rpartition(" ")
            preset, device = INTEL_PLATFORMS.get(name), INTEL_DEVICES.get(kind)
            if preset is None or device is None:
                continue
            source = f"{line['Release']} benchmark data"
            for precision in ("INT8", "FP16", "FP32"):
                fps = (line.get(f"Throughput-{precision}") or "").strip()
                if not fps:
                    continue
                rows.append(Row(model, precision, preset, device, "throughput", float(fps),
                                source))
                latency = (line.get("Latency_int8") or "").strip()
                if precision == "INT8" and latency and device != "CPU+iGPU":
                    rows.append(Row(model, precision, preset, device, "latency",
                                    float(latency), source))
    return rows


def simulate(row: Row, platform=None, seed: int = 0) -> float:
    """ovlab's figure for ``row`` (on ``platform``, default: the row's preset)."""
    from ...tools.benchmark import run
    from ..runtime.core import Core

    core = Core(platform if platform is not None else row.preset, seed=seed)
    report = run(row.argv(), core=core)
    return report.throughput_fps if row.mode == "throughput" else report.latency_median_ms


def simulate_benchmark(name: str, precision: str, mode: str, platform="cpu",
                       device: str = "CPU") -> float:
    """benchmark_app's figure for a zoo model on ``platform`` (ms for latency, FPS for
    throughput); the simulation of what ``benchmarks/bench_fidelity.py`` measures."""
    from ...tools.benchmark import run
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
