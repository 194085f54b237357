"""Run ``ovlab benchmark`` for every model of Intel's tables on catalogue presets (issue 35).

``python benchmarks/sweep_platforms.py i7-1360p,flex-140`` runs every zoo model of the tables
(resnet-50, mobilenet-v2, yolo_v3_tiny and ``zoo.table_names()``) in FP32, INT8 and FP16 on
each preset's CPU (latency, throughput), GPU (throughput, latency), ``AUTO:GPU,CPU``
(cumulative_throughput) and NPU (throughput), a few iterations each, and prints any failure.
Without arguments: every catalogue preset (slow: about 2-10 minutes a preset on 2 cores).
``tests/hardware/test_family.py`` runs a small representative sweep.
"""

from __future__ import annotations

import sys
import time

from ovlab.sim.hardware import catalogue
from ovlab.sim.hardware.platforms import preset
from ovlab.sim.models import zoo
from ovlab.tools.benchmark import run


def main(argv: list[str]) -> int:
    models = ["resnet-50", "mobilenet-v2", "yolo_v3_tiny", *zoo.table_names()]
    names = argv[0].split(",") if argv else [
        f"family:{n}" if n in catalogue.OLD_PRESETS else n for n in catalogue.names()]
    fails = []
    t0 = time.time()
    for name in names:
        devices = preset(name).devices
        combos = [("CPU", "latency"), ("CPU", "throughput")]
        if any(k.startswith("GPU") for k in devices):
            combos += [("GPU", "throughput"), ("GPU", "latency"),
                       ("AUTO:GPU,CPU", "cumulative_throughput")]
        if "NPU" in devices:
            combos.append(("NPU", "throughput"))
        for model in models:
            for precision in ("FP32", "INT8", "FP16"):
                for device, hint in combos:
                    try:
                        rep = run(["-m", f"{model}:{precision}", "-d", device, "-hint", hint,
                                   "-niter", "4", "--platform", name])
                        assert rep.throughput_fps > 0
                    except Exception as exc:  # noqa: BLE001  (a sweep reports every failure)
                        fails.append((name, model, precision, device, hint, repr(exc)[:200]))
        print(f"{name}: done at {time.time() - t0:.0f} s, {len(fails)} failures so far",
              flush=True)
    for fail in fails:
        print("FAILED", *fail)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
