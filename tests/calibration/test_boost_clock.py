"""The peaks ``ovlab calibrate`` starts from are cores x FLOP per cycle x the clock
``/proc/cpuinfo`` reports, which on servers and VMs is the base clock, not the boost the cores
run at (2.45 GHz reported on this project's EPYC, ~3.1 GHz fitted). The fit may then take an
efficiency above 1 and ``_valid`` folds the excess into the peak; with the efficiency bounded at
1, every FP32 network came out 1.13-1.27x too slow even in-sample (issue 22, 2026-11-27)."""

import pytest

from ovlab.sim.calibration import calibrate as cal
from ovlab.sim.calibration import fit
from ovlab.sim.hardware.platforms import preset

PARAMS = ["per_infer_s", "per_op_s", "eff.f32", "eff.i8", "kind.depthwise", "stream_scaling"]
MODELS = ("small-cnn", "mobilenet-v2", "resnet-50")


def test_a_cpu_faster_than_its_reported_clock_is_fitted_by_raising_its_peak():
    template = cal.startable(preset("cpu").devices["CPU"]).with_(
        peak_gflops={"f32": 160.0, "i8": 320.0}, efficiency_by_precision={"f32": 0.8, "i8": 0.8},
        inference_precision="f32")
    # the real cores boost to 1.4x the reported clock, and reach 0.85 of that peak
    truth = template.with_(peak_gflops={"f32": 224.0, "i8": 448.0},
                           efficiency_by_precision={"f32": 0.85, "i8": 0.85})
    targets = [fit.Target(m, p, mode, fit.predict(truth, m, p, mode))
               for m in MODELS for p in ("FP32", "INT8") for mode in ("latency", "throughput")]
    got = cal._valid(fit.fit_measured(template, targets, PARAMS, bounds=cal.FIT_BOUNDS))
    for t in targets:
        assert fit.predict(got, t.model, t.precision, t.mode) == pytest.approx(t.value, rel=0.05)
    assert got.efficiency_by_precision["f32"] <= 0.95  # what the schema allows
    assert got.peak_gflops["f32"] * got.efficiency_by_precision["f32"] == pytest.approx(
        224.0 * 0.85, rel=0.05)  # the excess went into the peak
    # bounded at 1, the same fit cannot reach the truth
    stuck = fit.fit_measured(template, targets, PARAMS)
    worst = max(fit.predict(stuck, t.model, t.precision, t.mode) / t.value
                for t in targets if t.mode == "latency" and t.model == "resnet-50")
    assert worst > 1.1
