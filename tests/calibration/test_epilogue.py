"""A convolution's per-output epilogue (issue 22): ``DeviceSpec.epilogue_flops``.

Each output element of a convolution or matrix product costs work after its reduction (the
accumulator's conversion, scale and bias, activation, requantization, store) at the vector rate,
whatever the op's precision. A layer with few products per output (MobileNet's 1x1 and depthwise
convolutions) pays it on a large share of its time, ResNet-50's 3x3 convolutions on a small one,
and int8 does not speed it up. ``ovlab calibrate`` fits it; the simulator and the fit's
vectorised copy of the cost model (``fit.predict``) must agree on it.
"""

import pytest

from ovlab import zoo
from ovlab.sim.calibration import calibrate as cal
from ovlab.sim.calibration import fit
from ovlab.sim.hardware import cost
from ovlab.sim.hardware.platforms import preset


def _cpu(epilogue: float):
    return cal.startable(preset("cpu").devices["CPU"]).with_(epilogue_flops=epilogue)


def test_the_epilogue_costs_each_output_at_the_vector_rate_in_every_precision():
    spec = _cpu(16.0)
    m = zoo.load("mobilenet-v1", "INT8")
    costs = m._cost(1)
    facts = cost.graph_facts(m, len(costs))
    outputs = sum(op.bytes_written / 4 for op, kind in cost.executed_ops(costs, facts)
                  if kind in ("conv", "depthwise", "matmul"))
    assert outputs > 5e6  # MobileNet-v1 writes ~6 M outputs per image
    for precision in ("i8", "f32"):
        # fast memory, so that every op is compute-bound and the epilogue adds in full
        on = cost.inference_time(spec.with_(mem_efficiency=1.0, mem_bw_gbs=1e6), costs,
                                 precision, m)
        off = cost.inference_time(spec.with_(mem_efficiency=1.0, mem_bw_gbs=1e6,
                                             epilogue_flops=0.0), costs, precision, m)
        assert on - off == pytest.approx(outputs * 16.0 / (cost.vector_gflops(spec) * 1e9),
                                         rel=1e-6)
    pool = next(op for op in costs if op.type_name == "AvgPool")
    assert cost.epilogue_seconds(spec, pool, "other") == 0.0  # no reduction, no epilogue


def test_it_weighs_on_mobilenet_more_than_on_resnet_and_the_fit_sees_what_the_simulator_does():
    spec = _cpu(16.0)
    share = {}
    for name in ("mobilenet-v1", "resnet-50"):
        on = fit.latency_s(spec, name, "INT8")
        off = fit.latency_s(spec.with_(epilogue_flops=0.0), name, "INT8")
        m = zoo.load(name, "INT8")
        costs = m._cost(1)
        assert on == pytest.approx(cost.inference_time(spec, costs, "i8", m), rel=1e-9)
        share[name] = 1 - off / on
    assert share["mobilenet-v1"] > 2 * share["resnet-50"] > 0


def test_calibrate_fits_it_from_a_start_a_log_space_fit_can_move():
    assert "epilogue_flops" in cal.CPU_PARAMS
    start = cal.startable(preset("cpu").devices["CPU"], ["epilogue_flops"])
    assert start.epilogue_flops == cal.EPILOGUE_START_FLOPS > 0
    assert preset("cpu").devices["CPU"].epilogue_flops == 0.0  # the presets do not use it
    truth = _cpu(30.0)
    targets = [fit.Target(m, p, mode, fit.predict(truth, m, p, mode))
               for m in ("mobilenet-v1", "mobilenet-v2", "resnet-50") for p in ("FP32", "INT8")
               for mode in ("latency", "throughput")]
    got = fit.fit_measured(start, targets, ["eff.f32", "eff.i8", "kind.depthwise",
                                            "epilogue_flops"])
    assert got.epilogue_flops == pytest.approx(30.0, rel=0.15)
