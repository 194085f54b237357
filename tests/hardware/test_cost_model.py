"""The fitted cost model (issue 13): op kinds, fusion, precisions, the async hand-off, the GPU
plugin's optimal batch; and that the seed's presets keep their old arithmetic."""

from __future__ import annotations

import numpy as np
import pytest

import ovlab
from ovlab import opset as ops
from ovlab import zoo
from ovlab.sim.hardware import cost


def _conv_block(groups: int, channels: int = 8):
    x = ops.parameter([1, channels, 16, 16], np.float32, name="x")
    if groups == 1:
        w = ops.constant(np.ones((channels, channels, 3, 3), np.float32))
        y = ops.convolution(x, w, [1, 1], [1, 1], [1, 1], [1, 1], name="conv")
    else:
        w = ops.constant(np.ones((groups, channels // groups, channels // groups, 3, 3),
                                 np.float32))
        y = ops.group_convolution(x, w, [1, 1], [1, 1], [1, 1], [1, 1], name="conv")
    b = ops.add(y, ops.constant(np.ones((1, channels, 1, 1), np.float32)), name="bias")
    r = ops.relu(b, name="relu")
    p = ops.max_pool(r, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2], name="pool").output(0)
    s = ops.relu(p, name="after_pool")
    return ovlab.Model([ops.result(s)], [x], "block")


def test_post_ops_fuse_into_the_conv_and_a_relu_after_a_pool_does_not():
    model = _conv_block(1)
    kinds, fused = cost.graph_facts(model, len(model._cost(1)))
    names = [c.name for c in model._cost(1)]
    assert dict(zip(names, fused, strict=True)) == {
        "conv": False, "bias": True, "relu": True, "pool": False, "after_pool": False}
    assert kinds[names.index("conv")] == "conv"


def test_depthwise_convolutions_are_their_own_kind():
    depthwise = _conv_block(groups=8)
    grouped = _conv_block(groups=2)
    assert cost.graph_facts(depthwise, len(depthwise._cost(1)))[0][0] == "depthwise"
    assert cost.graph_facts(grouped, len(grouped._cost(1)))[0][0] == "conv"


def test_fusion_and_kinds_change_a_fitted_device_only():
    model = _conv_block(groups=8)
    costs = model._cost(1)
    laptop = ovlab.preset("laptop").devices["CPU"]
    fitted = ovlab.preset("cpu").devices["CPU"]
    # the seed's arithmetic, by hand: every op on its own, one efficiency
    peak = laptop.peak_gflops["f32"] * 1e9 * laptop.efficiency
    by_hand = laptop.per_infer_s + sum(
        max(c.flops / peak, (c.bytes_read + c.bytes_written) / (laptop.mem_bw_gbs * 1e9))
        + laptop.per_op_s for c in costs)
    assert cost.inference_time(laptop, costs, "f32", model) == pytest.approx(by_hand, rel=1e-12)
    # the fitted CPU: fused post-ops cost nothing, a depthwise conv runs at its own factor
    with_graph = cost.inference_time(fitted, costs, "bf16", model)
    without = cost.inference_time(fitted, costs, "bf16")
    assert with_graph < without
    slow_dw = fitted.with_(kind_efficiency={**fitted.kind_efficiency, "depthwise": 1e-4})
    assert cost.inference_time(slow_dw, costs, "bf16", model) > 10 * with_graph


def test_the_cpu_preset_runs_fp32_models_in_bf16_like_the_real_cpu():
    core = ovlab.Core("cpu")
    assert str(core.get_property("CPU", "INFERENCE_PRECISION_HINT")) == "<Type: 'bfloat16'>"
    compiled = core.compile_model(zoo.load("resnet-50"), "CPU")
    backend = compiled._backend
    assert backend.compute_precision == "bf16"
    f32 = core.compile_model(zoo.load("resnet-50"), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    assert f32._backend.compute_precision == "f32"
    assert f32._backend._base > 1.5 * backend._base  # half the peak, twice the bytes
    assert core.compile_model(zoo.load("resnet-50", "INT8"), "CPU")._backend.compute_precision \
        == "i8"


def test_async_requests_pay_the_hand_off_and_infer_does_not():
    core = ovlab.Core("cpu")
    compiled = core.compile_model(zoo.load("mlp"), "CPU")
    request = compiled.create_infer_request()
    request.infer()
    request.infer()
    sync = request.latency
    request.start_async()
    request.wait()
    spec = core.platform.devices["CPU"]
    assert request.latency == pytest.approx(sync + spec.async_overhead_s * 1e3, rel=0.2)
    laptop = ovlab.Core("laptop")
    req = laptop.compile_model(zoo.load("mlp"), "CPU").create_infer_request()
    req.infer()
    req.infer()
    one = req.latency
    req.start_async()
    req.wait()
    assert laptop.platform.devices["CPU"].async_overhead_s == 0
    assert req.latency == pytest.approx(one, rel=0.5)  # jitter only


@pytest.mark.parametrize("preset, precision, batch", [
    ("i7-1185g7", "FP16", 16),  # Tiger Lake's 3.75 MB L3: the seed's 16 for GoogLeNet too
    ("i7-1185g7", "INT8", 32),  # int8 data is half the size
    ("flex-170", "FP16", 8),  # DG2 is not in the plugin's table: its 1.5 MB default
    ("flex-170", "INT8", 16),
])
def test_optimal_batch_follows_the_gpu_plugins_heuristic(preset, precision, batch):
    core = ovlab.Core(preset)
    model = zoo.load("resnet-50", precision)
    assert core.get_property("GPU", "OPTIMAL_BATCH_SIZE", {"MODEL_PTR": model}) == batch


def test_the_seed_presets_keep_their_optimal_batch():
    spec = ovlab.preset("laptop").devices["GPU.0"]
    model = zoo.load("googlenet-v1", "FP16")
    assert cost.optimal_batch_size(spec, model._cost(1), model) == 16
