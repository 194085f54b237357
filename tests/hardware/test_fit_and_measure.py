"""The fitters and the real-runtime measurement helpers (issue 13)."""

from __future__ import annotations

import pytest

import ovlab
from ovlab.sim.calibration import fit, measure


def test_fit_measured_recovers_known_parameters():
    """Targets made by the cost model from known parameters are fitted back (the priors start
    30-50 % off)."""
    truth = ovlab.preset("cpu").devices["CPU"]
    params = ["per_op_s", "eff.bf16", "eff.i8", "stream_scaling", "async_overhead_s"]
    targets = [fit.Target(name, prec, mode, fit.predict(truth, name, prec, mode))
               for name in ("googlenet-v1", "resnet-50", "squeezenet1.1", "mlp", "small-cnn")
               for prec in ("FP32", "INT8") for mode in ("latency", "throughput")]
    start = fit.with_params(truth, {p: fit.get_param(truth, p) * f for p, f in
                                    zip(params, (1.5, 0.6, 1.4, 0.7, 2.0), strict=True)})
    got = fit.fit_measured(start, targets, params, prior_weight=1e-4)
    for p in params:
        assert fit.get_param(got, p) == pytest.approx(fit.get_param(truth, p), rel=0.05), p
    for t in targets:
        assert fit.predict(got, t.model, t.precision, t.mode) == pytest.approx(t.value, rel=0.01)


def test_predict_matches_the_full_simulation():
    """The fast arithmetic the fits use is the simulator's (no jitter, one stream)."""
    from ovlab.tools.benchmark import run

    spec = ovlab.preset("cpu").devices["CPU"].with_(jitter=0.0)
    platform = ovlab.preset("cpu").with_device("CPU", spec)
    for name, prec in (("googlenet-v1", "FP32"), ("alexnet", "INT8"), ("mlp", "FP32")):
        lat = run(["-m", f"{name}:{prec}", "-hint", "latency", "-niter", "20"],
                  core=ovlab.Core(platform))
        tput = run(["-m", f"{name}:{prec}", "-hint", "throughput", "-niter", "400"],
                   core=ovlab.Core(platform))
        assert lat.latency_median_ms == pytest.approx(fit.predict(spec, name, prec, "latency"),
                                                      rel=1e-6)
        assert tput.throughput_fps == pytest.approx(
            fit.predict(spec, name, prec, "throughput"), rel=0.02)


def test_bisect_param_finds_a_root_inside_and_outside_the_start_bracket():
    for start in (None, 2.0, 90.0):
        x = fit.bisect_param(lambda v: v * v, 49.0, 0.1, 1000.0, increasing=True, start=start)
        assert x == pytest.approx(7.0, rel=2e-3)
    y = fit.bisect_param(lambda v: 1 / v, 0.25, 0.01, 100.0, increasing=False, start=1.0)
    assert y == pytest.approx(4.0, rel=2e-3)


def test_quiet_value_uses_windows_where_others_were_idle():
    w = measure.Window
    windows = [w(10.0, 0.0), w(10.4, 0.05), w(25.0, 1.3), w(30.0, 1.8), w(9.8, 0.1)]
    assert measure.quiet_value(windows, "latency") == 10.0
    busy = [w(20.0, 1.0), w(30.0, 1.5), w(40.0, 1.9), w(50.0, 1.2)]
    assert measure.quiet_value(busy, "latency") == 35.0  # the two least disturbed: 1.0, 1.2
    assert measure.quiet_value([w(5.0, None), w(7.0, None)], "throughput") == 6.0


def test_measurements_round_trip_through_dicts():
    m = measure.Measurement("mlp", "FP32", "CPU", "latency", 0.01, 0.009, [0.009, 0.011], 100,
                            1, 1, "bf16", (0.5, 1.5), [0.0, 0.3])
    back = measure.Measurement.from_dict(m.to_dict())
    assert back == m and back.spread == pytest.approx((0.0092, 0.0108))
    assert m.pass_spread == 1.0  # one pass (or none recorded): nothing to compare
    m.passes = [0.009, 0.0108, 0.0095]
    back = measure.Measurement.from_dict(m.to_dict())
    assert back.passes == m.passes and back.pass_spread == pytest.approx(1.2)


def test_other_load_reads_proc_stat():
    meter = measure.OtherLoad()
    meter.start()
    sum(i * i for i in range(200_000))  # our own work is not counted as others'
    value = meter.stop()
    assert value is None or 0.0 <= value <= (__import__("os").cpu_count() or 1) + 0.5


def test_streams_scale_dispatch_and_stretch_work():
    """On a fitted CPU split into streams the work is stretched by stream_factor and the
    dispatch overhead scaled by stream_dispatch; one stream pays both in full."""
    from ovlab.sim.hardware import cost

    spec = ovlab.preset("cpu").devices["CPU"].with_(stream_dispatch=0.5, stream_scaling=1.0)
    assert cost.stream_times(spec, 2e-6, 10e-6, 1) == pytest.approx(12e-6)
    assert cost.stream_times(spec, 2e-6, 10e-6, 2) == pytest.approx(1e-6 + 20e-6)
    seed = ovlab.preset("laptop").devices["CPU"]  # not fitted: the seed's whole-time stretch
    assert not seed.fuse_ops
    assert cost.stream_times(seed, 2e-6, 10e-6, 2) == pytest.approx(
        2e-6 + 10e-6 * cost.stream_factor(seed, 2))


def test_per_op_dispatch_by_kind_and_int8():
    from ovlab.sim.hardware import cost

    spec = ovlab.preset("cpu").devices["CPU"].with_(per_op_s=4e-6, per_op_kind={"matmul": 0.25},
                                                    per_op_i8_s=1e-6)
    assert cost.op_dispatch(spec, "conv", "bf16") == pytest.approx(4e-6)
    assert cost.op_dispatch(spec, "matmul", "bf16") == pytest.approx(1e-6)
    assert cost.op_dispatch(spec, "conv", "i8") == pytest.approx(5e-6)


def test_a_platform_file_refuses_a_stream_dispatch_above_one(tmp_path):
    import json

    from ovlab.sim.hardware import platform_file

    path = tmp_path / "p.json"
    platform_file.save(ovlab.preset("cpu"), path)
    data = json.loads(path.read_text())
    assert data["devices"]["CPU"]["stream_dispatch"] <= 1.0
    data["devices"]["CPU"]["stream_dispatch"] = 1.5
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="stream_dispatch"):
        ovlab.Core(str(path))
