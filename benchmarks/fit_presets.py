"""Fit the presets of Intel's published platforms on the ResNet-50 rows, and print the table.

Run: ``python benchmarks/fit_presets.py`` prints, for every published ResNet-50 row
(``benchmarks/data/resnet-50-ov2024.3.csv``), the published figure, ovlab's figure and the error,
with the presets as they are. ``--write`` first fits them again and rewrites
``ovlab/sim/hardware/devices/fitted.py`` (and ``--save`` stores the table in
``benchmarks/results/presets-<date>.json`` for the lab).

What is fitted, each parameter on the row it explains best (by bisection of the full simulation,
``ovlab.sim.calibration.fit.fit_rows``), everything else being public figures or priors:

* CPUs: dense-conv efficiency in int8 on the INT8 latency row (one request, no streams), stream
  scaling on the INT8 throughput row, f32 efficiency on the FP32 throughput row. Per-op and
  per-inference costs, op-kind factors and memory efficiency are those measured on the real CPU
  of this project (the ``cpu`` preset).
* GPUs: the per-op cost on the INT8 latency row (a batch-1 request on a big GPU is launch-bound),
  int8 and f16 efficiencies on the INT8 and FP16 throughput rows (automatic batching included,
  as benchmark_app's THROUGHPUT hint triggers it). The 165H's Arc iGPU has only an FP16 row: its
  int8/f16 ratio and per-op cost are the Iris Xe's (both run int8 by DP4a on vector engines).
* The NPU: int8 efficiency on the latency row, stream scaling on the INT8 throughput row, f16
  efficiency on the FP16 row.
* CPU+iGPU: the package power budget (watts) on the two rows together (geometric mean of the
  ratios); the devices' draws are public-style figures.

ResNet-50 is the only model fitted; the other models of Intel's tables are predictions.

The published platforms are built with issue 22's memory physics on (``platforms.memory_physics``:
``share_bandwidth``, ``llc_gbps`` from its prior, the CPU, iGPU and NPU of a package in one memory
domain, a dGPU with its own memory), so ``--write`` fits them with the physics.
``--memory-physics DIR`` fits the same parameters on the same rows without touching the presets
and writes each platform as a file ``DIR/<preset>.json``;
``python benchmarks/bench_fidelity.py --check ROWS --platforms DIR`` then compares them with
published rows they were not fitted on, beside the presets.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import sys
import time
from pathlib import Path

from ovlab.sim.calibration import fit
from ovlab.sim.calibration.validation import (
    RESULTS_DIR,
    Row,
    error,
    read_rows,
    simulate,
    summary,
)
from ovlab.sim.hardware import platforms
from ovlab.sim.hardware.devices import fitted as fitted_module
from ovlab.sim.hardware.power import PowerBudget

# fitted key -> (preset, device name in the preset, table column)
DEVICES = {
    "i7-1185g7/CPU": ("i7-1185g7", "CPU", "CPU"),
    "i9-13900k/CPU": ("i9-13900k", "CPU", "CPU"),
    "core-ultra-7-165h/CPU": ("core-ultra-7-165h", "CPU", "CPU"),
    "i7-1185g7/GPU.0": ("i7-1185g7", "GPU.0", "iGPU"),
    "core-ultra-7-165h/GPU.0": ("core-ultra-7-165h", "GPU.0", "iGPU"),
    "arc-a770m/GPU.0": ("arc-a770m", "GPU.0", "dGPU"),
    "flex-170/GPU.0": ("flex-170", "GPU.0", "dGPU"),
    "core-ultra-7-165h/NPU": ("core-ultra-7-165h", "NPU", "NPU"),
}
# (param, lo, hi, precision, mode, increasing)
STEPS = {
    "CPU": [("eff.i8", 0.02, 1.0, "INT8", "latency", False),
            ("stream_scaling", 0.3, 1.3, "INT8", "throughput", False),
            ("eff.f32", 0.02, 1.0, "FP32", "throughput", True)],
    "GPU": [("per_op_s", 1e-7, 2e-4, "INT8", "latency", True),
            ("eff.i8", 0.002, 1.0, "INT8", "throughput", True),
            ("eff.f16", 0.002, 1.0, "FP16", "throughput", True)],
    "NPU": [("eff.i8", 0.01, 1.0, "INT8", "latency", False),
            ("stream_scaling", 0.2, 1.3, "INT8", "throughput", False),
            ("eff.f16", 0.01, 1.0, "FP16", "throughput", True)],
}
SAVED_PARAMS = ("per_op_s", "per_infer_s", "stream_scaling", "async_overhead_s")


def _row(rows: list[Row], preset: str, column: str, precision: str, mode: str) -> Row | None:
    for r in rows:
        if (r.preset, r.device, r.precision, r.mode) == (preset, column, precision, mode):
            return r
    return None


def _platform(preset: str, device: str, values: dict[str, float]):
    base = platforms.preset(preset)
    return base.with_device(device, fit.with_params(base.devices[device], values)).with_power_budget(
        base.power_budget)


def fit_device(key: str, rows: list[Row], extra_values: dict[str, float] | None = None,
               log=print) -> dict[str, float]:
    """Fit one device on its rows; return the fitted parameter values."""
    preset, device, column = DEVICES[key]
    spec = platforms.preset(preset).devices[device]
    steps = []
    for param, lo, hi, precision, mode, increasing in STEPS[spec.plugin]:
        row = _row(rows, preset, column, precision, mode)
        if row is None:
            continue

        def measure(platform, row=row) -> float:
            return simulate(row, platform)

        steps.append((param, lo, hi, measure, row.value, increasing))
    values = {p: fit.get_param(spec, p) for p, *_ in steps}
    values.update(extra_values or {})
    t0 = time.perf_counter()
    fitted = fit.fit_rows(lambda v: _platform(preset, device, v), steps, values)
    log(f"  fitted {key}: " + ", ".join(f"{k}={v:.4g}" for k, v in fitted.items())
        + f" ({time.perf_counter() - t0:.0f} s)")
    return fitted


def fit_power(preset: str, rows: list[Row], log=print) -> float:
    """The package power budget (watts) that matches the CPU+iGPU rows (geometric mean)."""
    pair = [r for r in rows if r.preset == preset and r.device == "CPU+iGPU"]
    base = platforms.preset(preset)

    def make(watts: float) -> float:
        platform = base.with_power_budget(PowerBudget(watts, dict(base.power_budget.draws)))
        logs = [math.log(simulate(r, platform) / r.value) for r in pair]
        return math.exp(sum(logs) / len(logs))

    watts = fit.bisect_param(make, 1.0, 1.0, 500.0, increasing=True,
                             start=base.power_budget.watts)
    log(f"  fitted power budget of {preset}: {watts:.1f} W")
    return watts


def refit(rows: list[Row], log=print) -> dict:
    """Fit every device and power budget; return the new FITTED entries."""
    out: dict = {}
    order = ["i7-1185g7/CPU", "i9-13900k/CPU", "core-ultra-7-165h/CPU", "i7-1185g7/GPU.0",
             "arc-a770m/GPU.0", "flex-170/GPU.0", "core-ultra-7-165h/NPU",
             "core-ultra-7-165h/GPU.0"]
    for key in order:
        extra = None
        if key == "core-ultra-7-165h/GPU.0":  # only an FP16 row: borrow the Iris Xe's shape
            xe = out["i7-1185g7/GPU.0"]
            ratio = xe["efficiency_by_precision"]["i8"] / xe["efficiency_by_precision"]["f16"]
            extra = {"per_op_s": xe["per_op_s"]}
        values = fit_device(key, rows, extra, log)
        if key == "core-ultra-7-165h/GPU.0":
            values["eff.i8"] = values["eff.f16"] * ratio
        if key.endswith("GPU.0"):  # f32 runs the same kernels on half the peak: no row of its own
            values["eff.f32"] = values["eff.f16"]
        preset, device, _ = DEVICES[key]
        spec = fit.with_params(platforms.preset(preset).devices[device], values)
        entry = {"efficiency_by_precision": {k: _round(v) for k, v in
                                             spec.efficiency_by_precision.items()}}
        entry.update({p: _round(getattr(spec, p)) for p in SAVED_PARAMS
                      if (p != "async_overhead_s" or spec.plugin == "CPU")
                      and not (spec.plugin == "CPU" and p in ("per_op_s", "per_infer_s"))})
        out[key] = entry
        _install(key, entry)
    power = {}
    for preset in ("i7-1185g7", "core-ultra-7-165h"):
        power[preset] = _round(fit_power(preset, rows, log))
        fitted_module.FITTED["power"][preset] = power[preset]
    out["power"] = power
    return out


def _round(x: float) -> float:
    return float(f"{x:.4g}")


def _install(key: str, entry: dict) -> None:
    """Use ``entry`` for ``key`` from now on (the device modules read FITTED when presets are
    built, so the catalogue is rebuilt)."""
    import importlib

    from ovlab.sim.hardware import devices
    from ovlab.sim.hardware.devices import cpus, gpus, npus

    fitted_module.FITTED[key] = {**fitted_module.FITTED.get(key, {}), **entry}
    for mod in (cpus, gpus, npus, devices, platforms):
        importlib.reload(mod)


def write_fitted(path: Path = Path(fitted_module.__file__)) -> None:
    """Rewrite ``fitted.py`` with the current FITTED (keeping its docstring)."""
    text = Path(path).read_text(encoding="utf-8")
    head = text[:text.index("FITTED = ")]
    body = json.dumps(fitted_module.FITTED, indent=4)
    Path(path).write_text(head + "FITTED = " + body + "\n", encoding="utf-8")


def table(rows: list[Row]) -> list[dict]:
    out = []
    for r in rows:
        sim = simulate(r)
        out.append({"preset": r.preset, "device": r.device, "model": r.model,
                    "precision": r.precision, "mode": r.mode, "published": r.value,
                    "ovlab": round(sim, 4), "error": round(error(sim, r.value), 4),
                    "command": "python -m ovlab.tools.benchmark " + " ".join(r.argv())})
    return out


def print_table(entries: list[dict], title: str) -> None:
    print(title)
    print("| platform | device | model | mode | published | ovlab | error |")
    print("|---|---|---|---|---|---|---|")
    for e in entries:
        unit = "FPS" if e["mode"] == "throughput" else "ms"
        print(f"| {e['preset']} | {e['device']} | {e['model']}:{e['precision']} | {e['mode']} | "
              f"{e['published']:g} {unit} | {e['ovlab']:.4g} {unit} | {100 * e['error']:+.1f}% |")
    s = summary(e["error"] for e in entries)
    print(f"median |error| {100 * s['median_abs_error']:.1f}%, worst ratio {s['worst_ratio']:.2f}x, "
          f"{s['n']} rows")


# --- the presets with issue 22's memory physics, as platform files -------------------------------
PUBLISHED_PRESETS = platforms.PUBLISHED


def physics_platform(name: str):
    """Preset ``name`` with the memory physics on for its fitted devices (the published presets
    are built so: ``platforms.memory_physics``)."""
    return platforms.memory_physics(platforms.preset(name))


def refit_physics(rows: list[Row], directory: Path, log=print) -> list[Path]:
    """Fit the physics platforms on the ResNet-50 rows (the steps of :func:`refit`) and write them
    to ``directory``; the presets themselves are not changed."""
    from ovlab.sim.hardware.platform_file import save

    current = {name: physics_platform(name) for name in PUBLISHED_PRESETS}
    order = ["i7-1185g7/CPU", "i9-13900k/CPU", "core-ultra-7-165h/CPU", "i7-1185g7/GPU.0",
             "arc-a770m/GPU.0", "flex-170/GPU.0", "core-ultra-7-165h/NPU",
             "core-ultra-7-165h/GPU.0"]
    fitted: dict[str, dict[str, float]] = {}
    for key in order:
        preset, device, column = DEVICES[key]
        spec = current[preset].devices[device]
        steps = []
        for param, lo, hi, precision, mode, increasing in STEPS[spec.plugin]:
            row = _row(rows, preset, column, precision, mode)
            if row is not None:
                steps.append((param, lo, hi, lambda p, row=row: simulate(row, p), row.value,
                               increasing))
        values = {p: fit.get_param(spec, p) for p, *_ in steps}
        ratio = None
        if key == "core-ultra-7-165h/GPU.0":  # only an FP16 row: the Iris Xe's shape
            xe = fitted["i7-1185g7/GPU.0"]
            ratio = xe["eff.i8"] / xe["eff.f16"]
            values["per_op_s"] = xe["per_op_s"]

        def build(v, preset=preset, device=device, spec=spec):
            return current[preset].with_device(device, fit.with_params(spec, v))

        t0 = time.perf_counter()
        values = fit.fit_rows(build, steps, values)
        if ratio is not None:
            values["eff.i8"] = values["eff.f16"] * ratio
        if key.endswith("GPU.0"):
            values["eff.f32"] = values["eff.f16"]
        fitted[key] = values
        current[preset] = build(values)
        log(f"  fitted {key} with the memory physics: "
            + ", ".join(f"{k}={v:.4g}" for k, v in values.items())
            + f" ({time.perf_counter() - t0:.0f} s)")
    for preset in ("i7-1185g7", "core-ultra-7-165h"):
        pair = [r for r in rows if r.preset == preset and r.device == "CPU+iGPU"]
        base = current[preset]

        def make(watts: float, base=base, pair=pair) -> float:
            platform = base.with_power_budget(PowerBudget(watts, dict(base.power_budget.draws)))
            logs = [math.log(simulate(r, platform) / r.value) for r in pair]
            return math.exp(sum(logs) / len(logs))

        watts = fit.bisect_param(make, 1.0, 1.0, 500.0, increasing=True,
                                 start=base.power_budget.watts)
        current[preset] = base.with_power_budget(PowerBudget(watts,
                                                             dict(base.power_budget.draws)))
        log(f"  fitted power budget of {preset} with the memory physics: {watts:.1f} W")
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    from ovlab.sim.hardware.machine import Platform

    for name, fitted_platform in current.items():
        platform = Platform(f"{name}-memory-physics", dict(fitted_platform.devices),
                            fitted_platform.description + " With issue 22's memory physics, "
                            "refitted on the same rows.", list(fitted_platform.notes),
                            fitted_platform.power_mode, fitted_platform.power_budget)
        paths.append(save(platform, directory / f"{name}.json", {
            "tool": "benchmarks/fit_presets.py --memory-physics",
            "date": datetime.date.today().isoformat(),
            "fitted_on": "benchmarks/data/resnet-50-ov2024.3.csv",
            "fitted": {k: v for k, v in fitted.items() if k.startswith(name + "/")}}))
    return paths


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="fit again and rewrite fitted.py")
    parser.add_argument("--save", action="store_true", help="store the table in results/")
    parser.add_argument("--memory-physics", default=None, metavar="DIR",
                        help="fit the published platforms with the memory physics on and write "
                             "them as platform files to DIR (the presets are not changed)")
    args = parser.parse_args(argv)
    rows = read_rows()
    if args.memory_physics:
        print("Fitting the published platforms with the memory physics on the ResNet-50 rows")
        paths = refit_physics(rows, Path(args.memory_physics))
        entries = []
        for r in rows:
            platform = platforms.preset(str(Path(args.memory_physics) / f"{r.preset}.json"))
            sim = simulate(r, platform)
            entries.append({"preset": r.preset, "device": r.device, "model": r.model,
                            "precision": r.precision, "mode": r.mode, "published": r.value,
                            "ovlab": round(sim, 4), "error": round(error(sim, r.value), 4)})
        print_table(entries, f"\nPublished ResNet-50 rows against the memory-physics platforms "
                             f"({', '.join(str(p) for p in paths)}):")
        return 0
    if args.write:
        print("Fitting the presets on the published ResNet-50 rows (simulated benchmark_app runs)")
        refit(rows)
        write_fitted()
    entries = table(rows)
    print_table(entries, "\nPublished ResNet-50 rows (OpenVINO 2024.3) against ovlab's presets:")
    if args.save:
        RESULTS_DIR.mkdir(parents=True, exist_ok=True)
        date = datetime.date.today().isoformat()
        path = RESULTS_DIR / f"presets-{date}.json"
        path.write_text(json.dumps({"date": date, "source": "benchmarks/data/resnet-50-ov2024.3.csv",
                                    "rows": entries}, indent=1) + "\n", encoding="utf-8")
        print(f"saved {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
