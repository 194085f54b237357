"""The ``cpu`` preset against the real OpenVINO CPU plugin measured on this project's machine
(issue 13). ``benchmarks/bench_fidelity.py --save`` stores the measurements
(``benchmarks/results/fidelity-<date>.json``); this test re-simulates each of them and keeps every
ratio ovlab / measured (quiet windows) in 0.8-1.25, so a change to the cost model or the runtime
that moves the ``cpu`` preset away from the real runtime fails here. No wall time is measured."""

from __future__ import annotations

import json

import pytest

from ovlab import zoo
from ovlab.sim.calibration.validation import latest_results, simulate_benchmark

# Rows the cost model misses in the stored measurements, with the band their ratio must stay in
# (still a drift guard) and why (lab 12, "left out"). None since the 2026-11-24 fit (per-op
# dispatch by kind, int8 requantization, one-thread streams' cheaper dispatch).
KNOWN_OUTSIDE: dict[tuple[str, str, str], tuple[float, float]] = {}
PATH = latest_results("fidelity")
DATA = json.loads(PATH.read_text(encoding="utf-8")) if PATH else {"measurements": []}
MEASURED = [m for m in DATA["measurements"] if m["device"] == "CPU"]


def test_a_measurement_file_is_stored():
    assert PATH is not None, "run python benchmarks/bench_fidelity.py --save"
    assert {m["mode"] for m in MEASURED} == {"latency", "throughput"}
    assert {m["precision"] for m in MEASURED} == {"FP32", "INT8"}


def test_every_zoo_model_was_measured():
    if PATH is None:
        pytest.skip("no measurement file")
    missing = sorted(set(zoo.names()) - {m["model"] for m in MEASURED})
    if missing:
        pytest.skip(f"not in {PATH.name}: {', '.join(missing)} (re-run the bench with them)")


@pytest.mark.parametrize("m", MEASURED, ids=[f"{m['model']}:{m['precision']}-{m['mode']}"
                                              for m in MEASURED])
def test_cpu_preset_within_0_8_to_1_25_of_the_real_runtime(m):
    if m["model"] not in zoo.names():
        pytest.skip(f"{m['model']} is no longer a zoo model")
    sim = simulate_benchmark(m["model"], m["precision"], m["mode"])
    ratio = sim / m["quiet"]
    low, high = KNOWN_OUTSIDE.get((m["model"], m["precision"], m["mode"]), (0.8, 1.25))
    assert low <= ratio <= high, (f"{m['model']}:{m['precision']} {m['mode']}: ovlab {sim:.4g}, "
                                  f"measured {m['quiet']:.4g} ({PATH.name}), ratio {ratio:.2f}")
