"""``ovlab calibrate --refit``: fit again from the measurements a calibration stored."""

import json
from pathlib import Path

import pytest

from ovlab.sim.calibration import calibrate as cal
from ovlab.sim.hardware.platform_file import load

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"


def test_a_refit_joins_runs_and_a_later_figure_replaces_an_earlier_one(tmp_path):
    floor = RESULTS / "calibrate-2026-11-27-floor1.json"
    later = json.loads(floor.read_text())
    measured = later["provenance"]["devices"]["CPU"]["measured"]
    later["provenance"]["devices"]["CPU"]["measured"] = [
        {**m, "quiet": m["quiet"] * 1.5} if m["model"] == "mlp" else m for m in measured]
    second = tmp_path / "later.json"
    second.write_text(json.dumps(later))
    out = tmp_path / "joined.json"
    cal.calibrate_refit([floor, second], out, echo=None)
    data = json.loads(out.read_text())
    run = data["provenance"]["devices"]["CPU"]
    mlp = [m for m in run["measured"] if m["model"] == "mlp"]
    old = {(m["precision"], m["mode"]): m["quiet"] for m in measured if m["model"] == "mlp"}
    assert mlp and all(m["quiet"] == 1.5 * old[(m["precision"], m["mode"])] for m in mlp)
    assert set(run["held_out_ratios"]) == set(run["fit_ratios"])  # both models held out
    assert load(out).devices["CPU"].share_bandwidth


def test_a_file_without_measurements_is_refused(tmp_path):
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({"format": "ovlab-platform", "version": 1, "name": "x",
                                "devices": {}}))
    with pytest.raises(cal.CalibrateError, match="holds no measurements"):
        cal.calibrate_refit([bare], tmp_path / "out.json", echo=None)
