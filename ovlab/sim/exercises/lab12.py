"""Lab 12 · How far to trust the numbers: the measured ratios, a published row, a power budget."""

from __future__ import annotations

import json

from . import Exercise, LabExercises


def _farthest_ratio() -> tuple[str, str]:
    """The (model:precision, mode) whose ovlab / measured ratio is farthest from 1, in the stored
    measurement file (as section 1 of the lab reads it)."""
    from ..calibration.validation import latest_results

    data = json.loads(latest_results("fidelity").read_text(encoding="utf-8"))
    worst, key = 0.0, ("", "")
    for r in data["rows"]:
        ratio = r["ovlab"] / r["measured_quiet"]
        far = max(ratio, 1 / ratio)
        if far > worst:
            worst, key = far, (f"{r['model']}:{r['precision']}", r["mode"])
    return key


def _i9_googlenet_latency() -> float:
    from ...tools.benchmark import run

    report = run(["-m", "googlenet-v1:INT8", "-d", "CPU", "-hint", "latency", "-niter", "60",
                  "--platform", "i9-13900k"])
    return round(report.latency_median_ms, 2)


def _both_busy_speed() -> float:
    from ..hardware import preset

    return round(preset("core-ultra-7-165h").power_budget.factor(["CPU", "GPU.0"]), 2)


EXERCISES = LabExercises("12-how-far-to-trust-the-numbers", [
    Exercise(1, _farthest_ratio,
             explain="the cost model misses this one most; section 6 lists the likely reasons.",
             hint="compute max(ratio, 1 / ratio) for every row of `table`."),
    Exercise(2, _i9_googlenet_latency, tolerance=0.01, unit="ms",
             explain="a prediction: the i9's int8 efficiency was fitted on ResNet-50, and the "
                     "cost model carries it to GoogLeNet's layers.",
             hint="benchmark_app([...]).latency_median_ms, rounded to two decimals."),
    Exercise(3, _both_busy_speed, tolerance=0.01,
             explain="watts / the sum of the busy devices' draws: the package cannot feed both.",
             hint="ov.preset('core-ultra-7-165h').power_budget.factor([...])"),
])
