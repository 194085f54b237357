"""The default calibration set measures the runtime's fixed costs (issue 22).

A tiny model's THROUGHPUT is mostly the asynchronous hand-off per request (``async_overhead_s``),
which no network of the set shows but the tiniest: on this project's machine it was 177 us while
the prior (another machine's fit) says 53 us, and small-cnn held out came out 1.5-1.9x too fast.
``mlp``, two matrix products of about 1 kFLOP, is in the default set so that the hand-off is
measured whichever model is held out. Here the "machine" is a spec whose hand-off is three times
the prior's; its figures are what the cost model predicts for it.
"""

from dataclasses import replace

from ovlab.sim.calibration import calibrate as cal
from ovlab.sim.calibration import fit
from ovlab.sim.hardware.platforms import preset

PARAMS = ["per_infer_s", "per_op_s", "async_overhead_s"]


def _figures(truth, models):
    return [fit.Target(m, p, mode, fit.predict(truth, m, p, mode))
            for m in models for p in ("FP32",) for mode in ("latency", "throughput")]


def test_the_default_set_has_a_floor_model_and_a_depthwise_network():
    assert cal.DEFAULT_MODELS[0] == "mlp"
    assert {"mobilenet-v2", "mobilenet-v1"} <= set(cal.DEFAULT_MODELS)  # two depthwise networks


def test_the_floor_model_pins_the_hand_off_when_small_cnn_is_held_out():
    prior = cal.startable(preset("cpu").devices["CPU"])
    truth = replace(prior, async_overhead_s=3 * prior.async_overhead_s, per_infer_s=20e-6)
    rest = [m for m in ("mlp", "small-cnn", "squeezenet1.1") if m != "small-cnn"]

    def held_out(models):
        spec = fit.fit_measured(prior, _figures(truth, models), PARAMS, iterations=20)
        return fit.predict(spec, "small-cnn", "FP32", "throughput") / fit.predict(
            truth, "small-cnn", "FP32", "throughput")

    # without the floor the hand-off stays near its prior and small-cnn comes out too fast
    without, with_floor = held_out(["squeezenet1.1"]), held_out(rest)
    assert without > 1.15, without
    assert 0.98 < with_floor < 1.02, with_floor


def test_a_fixed_cost_near_zero_starts_where_the_fit_can_move_it():
    # the cpu preset's per_infer_s is 26 ns: in log space it has no gradient and never moved
    spec = cal.startable(preset("cpu").devices["CPU"])
    assert spec.per_infer_s >= 5e-6 and spec.async_overhead_s >= 5e-6


def _targets(truth, models):
    return [fit.Target(m, p, mode, fit.predict(truth, m, p, mode))
            for m in models for p in ("FP32", "INT8") for mode in ("latency", "throughput")]


def test_the_floor_fits_a_one_thread_streams_dispatch():
    # a machine whose THROUGHPUT streams dispatch an op at 0.9 of a LATENCY stream's cost, not
    # the cpu preset's 0.48: kept at the prior, mlp's THROUGHPUT comes out too fast; with
    # stream_dispatch fitted (the floor is measured) it is found again
    prior = cal.startable(preset("cpu").devices["CPU"])
    truth = replace(prior, stream_dispatch=0.9, per_infer_s=11e-6, async_overhead_s=80e-6)
    figures = _targets(truth, ("mlp", "small-cnn", "squeezenet1.1"))
    params = cal._params(prior, figures)
    assert set(cal.FLOOR_PARAMS) <= set(params)
    assert not set(cal.FLOOR_PARAMS) & set(cal._params(prior, figures[-4:]))  # no floor: kept
    spec = fit.fit_measured(cal.startable(prior, params), figures, params, iterations=30)
    assert abs(spec.stream_dispatch - 0.9) < 0.05, spec.stream_dispatch
    kept = [p for p in params if p not in cal.FLOOR_PARAMS]
    without = fit.fit_measured(prior, figures, kept, iterations=30)
    err = [abs(fit.predict(s, "mlp", "FP32", "throughput")
               / fit.predict(truth, "mlp", "FP32", "throughput") - 1) for s in (spec, without)]
    assert err[0] < 0.02 < err[1], err


def test_the_report_prints_each_figures_pass_to_pass_spread():
    prior = cal.startable(preset("cpu").devices["CPU"])
    figures = _figures(replace(prior, per_infer_s=20e-6), ("mlp", "small-cnn"))
    lines: list[str] = []
    spread = {"mlp:FP32 latency": 1.25}
    cal.fit_with_holdout(prior, figures, PARAMS, lines.append, spread)
    assert "passes" in lines[0]
    row = next(line for line in lines if "mlp:FP32 latency" in line)
    assert row.rstrip().endswith("1.25x")
    assert "differ by a median of" in lines[-1]
