"""The presets of Intel's published platforms keep reproducing the ResNet-50 rows they were fitted
on (issue 13; ``benchmarks/fit_presets.py`` fits them, ``benchmarks/data/`` holds the rows).

Each row is the benchmark_app command Intel ran, on ovlab (simulated time: no wall-time
assertion). The devices were fitted one parameter per row, so they sit within a percent; the
CPU+iGPU rows share one fitted power budget per platform between two rows, hence a wider band.
A change to the cost model, the runtime or a device that moves these figures fails here, and
``python benchmarks/fit_presets.py --write`` refits."""

from __future__ import annotations

import pytest

from ovlab.sim.calibration.validation import read_rows, simulate

ROWS = read_rows()
TOLERANCE = {"CPU+iGPU": 0.12}


def test_every_published_platform_and_device_is_covered():
    presets = {r.preset for r in ROWS}
    assert presets == {"i7-1185g7", "core-ultra-7-165h", "arc-a770m", "flex-170", "i9-13900k"}
    assert {r.device for r in ROWS} == {"CPU", "iGPU", "dGPU", "NPU", "CPU+iGPU"}


@pytest.mark.parametrize("row", ROWS, ids=[r.label for r in ROWS])
def test_published_row(row):
    sim = simulate(row)
    assert sim / row.value - 1 == pytest.approx(0.0, abs=TOLERANCE.get(row.device, 0.02)), (
        f"{row.label}: published {row.value}, ovlab {sim:.4g}")
