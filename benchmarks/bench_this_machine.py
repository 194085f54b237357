"""``this-machine`` against the real wheel: GoogLeNet-v1 and ResNet-50 FP32 latency, one run.

Calibrates (or loads the cached) ``this-machine`` platform, then measures both models' latency
on the real OpenVINO CPU plugin with benchmark_app's method (LATENCY hint, one sync request,
``ovlab.sim.calibration.measure``) and simulates the same on ``this-machine`` (``ovlab benchmark``'s
run); prints simulated / real per model. Target: 0.8-1.25 (issue 21).

    python benchmarks/bench_this_machine.py [--refresh]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform

from ovlab.sim.calibration import measure, validation
from ovlab.sim.calibration.this_machine import this_machine
from ovlab.sim.hardware import host

MODELS = ("googlenet-v1", "resnet-50")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--refresh", action="store_true", help="calibrate again first")
    args = parser.parse_args()
    cpu = host.describe()
    plat = this_machine(refresh=args.refresh)
    real = {m.model: m for m in measure.measure([(name, "FP32") for name in MODELS], repeat=2)
            if m.mode == "latency"}
    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {cpu.model}, "
          f"{cpu.threads} logical CPUs, {platform.platform()}, load average "
          f"{os.getloadavg()[0]:.1f} (a figure is trustworthy only on a quiet machine)")
    print(f"{'model':<14} {'real ms':>9} {'this-machine ms':>16} {'ratio':>6}")
    for name in MODELS:
        sim = validation.simulate_benchmark(name, "FP32", "latency", platform=plat)
        r = real[name].quiet
        print(f"{name:<14} {r:9.2f} {sim:16.2f} {sim / r:6.2f}")


if __name__ == "__main__":
    main()
