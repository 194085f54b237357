"""HETERO's PIPELINE_PARALLEL: a model split over devices by memory (claims N18-N22).

The rules are those of ``src/plugins/hetero/src/plugin.cpp`` (2026.4, quoted in openvino issue
#38250) and ``ov::get_supported_nodes`` with ``QUERY_MODEL_RATIO`` (``src/inference/src/dev``).
"""

import numpy as np
import pytest

import ovlab
from ovlab.properties import hint
from ovlab.sim.plugins.hetero.pipeline import (
    constant_bytes,
    layered_model,
    memory_map,
    query_ratio,
    ratio_supported,
    weights_by_device,
)

PIPELINE = {hint.model_distribution_policy: {hint.ModelDistributionPolicy.PIPELINE_PARALLEL}}
LAYER = 16384 * 16384 * 2  # bytes of one f16 layer of layered_model()


@pytest.fixture
def server():
    return ovlab.Core("multi-gpu", seed=0)


def split_of(core):
    return [e for e in core.trace.events if e.kind == "hetero_split"][-1].detail


def test_n18_a_model_larger_than_one_gpu_is_split_by_memory(server):
    big = layered_model()  # 40 layers, 21.5 GB
    compiled = server.compile_model(big, "HETERO:GPU.0,GPU.1", PIPELINE)
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0", "GPU.1"]
    assert compiled.get_property("HETERO_NUMBER_OF_SUBMODELS") == 2
    weights = split_of(server)["weights"]
    total = 40 * LAYER
    ratio = 16e9 / (1.2 * total)  # GPU.0 may hold 16 GB of 1.2 x the weights
    assert [e.detail["ratio"] for e in server.trace.events if e.kind == "pipeline_ratio"] == [
        pytest.approx(ratio, abs=1e-4), 1.0]
    assert 0.95 * ratio * total <= weights["GPU.0"] <= 1.05 * ratio * total
    assert weights["GPU.0"] + weights["GPU.1"] == total
    assert split_of(server)["mode"] == "pipeline"


def test_n18_without_the_policy_everything_goes_to_the_first_gpu(server):
    compiled = server.compile_model(layered_model(), "HETERO:GPU.0,GPU.1")
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]
    assert split_of(server)["weights"] == {"GPU.0": 40 * LAYER}


def test_n18_the_cut_with_the_smallest_boundary_wins():
    """Two candidate cuts in the band: the one after the narrow layer transfers less."""
    from ovlab import opset

    x = opset.parameter([1, 64], np.float32, name="x")
    widths = [64, 2, 64, 64]  # layer 1 narrows the activation to 2 values
    y, ops_bytes, width = x, [], 64
    for i, w in enumerate(widths):
        c = opset.constant(np.ones((width, w), np.float32), name=f"w{i}")
        ops_bytes.append(constant_bytes(c))
        y, width = opset.matmul(y, c, False, False, name=f"mm{i}"), w
    model = ovlab.Model([opset.result(y, name="out")], [x], "narrow")
    ops = [op for op in model.get_ordered_ops() if op.get_type_name() not in ("Parameter",
                                                                             "Result")]
    total = sum(ops_bytes)  # running totals 16384, 16896, 17408, 33792 bytes
    ratio = 16600 / total  # the band 15770..17430 holds the first three cuts
    taken = {op.get_friendly_name() for op in ops
             if id(op) in ratio_supported(ops, lambda t: True, ratio)}
    assert taken == {"w0", "mm0", "w1", "mm1"}  # cut after mm1: 2 values cross, not 64


def test_n18_the_first_device_takes_nothing_when_one_weight_is_too_big():
    model = layered_model(layers=2, width=64)
    ops = [op for op in model.get_ordered_ops() if op.get_type_name() not in ("Parameter",
                                                                             "Result")]
    assert ratio_supported(ops, lambda t: True, 0.3) == set()  # a layer is 50 %, above 0.315


def test_n19_a_model_that_fits_the_first_gpu_goes_there_whole_silently(server):
    """openvino issue #38250: 2x Arc Pro B70, the whole model on GPU.0, GPU.1 idle, no warning.
    A GPU takes everything when it holds 1.2 x the weights, and (next branch of update_config)
    also when it holds the weights alone."""
    for layers in (24, 29):  # 12.9 GB (1.2 x 12.9 <= 16), 15.6 GB (15.6 < 16)
        core = ovlab.Core("multi-gpu", seed=0)
        compiled = core.compile_model(layered_model(layers=layers), "HETERO:GPU.0,GPU.1",
                                      PIPELINE)
        assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0"]
        assert split_of(core)["weights"] == {"GPU.0": layers * LAYER}
        assert {e.kind for e in core.trace.events} <= {
            "hetero_split", "pipeline_ratio", "compile_start", "compile_end"}  # nothing warns
    split = server.compile_model(layered_model(layers=30), "HETERO:GPU.0,GPU.1", PIPELINE)
    assert split.get_property("EXECUTION_DEVICES") == ["GPU.0", "GPU.1"]  # 16.1 GB > 16 GB


def test_n20_ratios_follow_update_config():
    mem = {"GPU.0": 16.0, "GPU.1": 16.0, "all_gpu_left": 32.0}
    assert query_ratio(dict(mem), "GPU.0", 10, last=False) == 1.0  # fits: takes all
    m = dict(mem)
    assert query_ratio(m, "GPU.0", 20, last=False) == pytest.approx(16 / 24)
    assert m["all_gpu_left"] == 16.0
    small = {"GPU.0": 8.0, "GPU.1": 8.0, "all_gpu_left": 16.0}
    # the GPUs together cannot hold 1.2 x 20: each takes its share of the GPUs' memory
    assert query_ratio(dict(small), "GPU.0", 20, last=False) == pytest.approx(0.5)
    with_cpu = {**small, "CPU": float("inf")}
    assert query_ratio(dict(with_cpu), "GPU.0", 20, last=False) == pytest.approx(8 / 24)
    assert query_ratio(dict(with_cpu), "CPU", 20, last=False) == 1.0  # the CPU takes all
    assert query_ratio(dict(mem), "GPU.1", 1000, last=True) == 1.0  # the last device: the rest


def test_n20_the_cpu_is_a_catch_all_and_an_npu_disables_the_memory_split(server):
    core = ovlab.Core("workstation", seed=0)
    assert memory_map(core, ["GPU.0", "CPU"])["CPU"] == float("inf")
    assert memory_map(core, ["NPU", "CPU"]) is None
    model = layered_model(layers=3, width=4096)  # 100 MB
    core.compile_model(model, "HETERO:NPU,CPU", PIPELINE)
    assert split_of(core)["mode"] == "auto"  # plain greedy: the NPU takes what it supports
    # on the server, a model too large for the two GPUs' 32 GB ends on the CPU
    compiled = server.compile_model(layered_model(layers=70), "HETERO:GPU.0,GPU.1,CPU", PIPELINE)
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0", "GPU.1", "CPU"]
    weights = split_of(server)["weights"]
    assert weights["GPU.0"] < 16e9 and weights["GPU.1"] < 16e9 and weights["CPU"] > 0


def test_n21_only_pipeline_parallel_is_accepted(server, small_cnn):
    for value in ("TENSOR_PARALLEL", {hint.ModelDistributionPolicy.TENSOR_PARALLEL}):
        with pytest.raises(RuntimeError) as info:
            server.compile_model(small_cnn, "HETERO:GPU.0,GPU.1",
                                 {"MODEL_DISTRIBUTION_POLICY": value})
        assert str(info.value).strip().splitlines()[-1] == (
            "Wrong value TENSOR_PARALLEL for property key MODEL_DISTRIBUTION_POLICY. HETERO "
            "plugin only support {ov::hint::ModelDistributionPolicy::PIPELINE_PARALLEL}")
    server.set_property("HETERO", PIPELINE)  # on the plugin: later compiles use it
    compiled = server.compile_model(layered_model(), "HETERO:GPU.0,GPU.1")
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU.0", "GPU.1"]
    assert server.query_model(layered_model(), "HETERO:GPU.0,GPU.1")["layer39/matmul"] == "GPU.1"


def test_n22_no_weights_are_made_to_split_compile_and_time(server):
    big = layered_model()
    compiled = server.compile_model(big, "HETERO:GPU.0,GPU.1", PIPELINE)
    queue = ovlab.AsyncInferQueue(compiled, 4)
    for _ in range(20):
        queue.start_async()
    queue.wait_all()
    lazy = [op for op in big.get_ordered_ops() if op.get_type_name() == "Constant"]
    assert lazy and not any(op.materialized for op in lazy)
    assert sum(constant_bytes(op) for op in lazy) == 40 * LAYER


def test_n22_requests_overlap_across_the_two_gpus(server):
    compiled = server.compile_model(layered_model(), "HETERO:GPU.0,GPU.1", PIPELINE)
    rates = []
    for jobs in (1, 2):
        queue = ovlab.AsyncInferQueue(compiled, jobs)
        t0 = server.clock.now
        for _ in range(30):
            queue.start_async()
        queue.wait_all()
        rates.append(30 / (server.clock.now - t0))
    assert rates[1] > 1.4 * rates[0]  # the pipeline: B's first part runs while A's second does


def test_n22_outputs_are_real_when_read(server):
    tiny = layered_model(layers=4, width=64, name="tiny")
    compiled = server.compile_model(tiny, "HETERO:GPU.0,GPU.1,CPU", {
        **PIPELINE, "DEVICE_PROPERTIES": {"GPU": {"INFERENCE_PRECISION_HINT": "f32"}}})
    x = np.random.default_rng(0).standard_normal((1, 64)).astype(np.float32)
    reference = server.compile_model(tiny, "CPU")({0: x})[0]
    np.testing.assert_allclose(compiled({0: x})[0], reference, rtol=1e-4, atol=1e-6)
    ws = [op for op in tiny.get_ordered_ops() if op.get_type_name() == "Constant"]
    assert all(op.materialized for op in ws)
    # the values are the recipe's: a clone of the model computes the same
    assert np.array_equal(ws[0].get_data(), layered_model(4, 64, name="tiny").get_ordered_ops()[1]
                          .get_data())


def test_n22_weights_by_device_counts_constants():
    model = layered_model(layers=2, width=8)
    aff = {op: "GPU.0" for op in model.get_ordered_ops()}
    assert weights_by_device(aff) == {"GPU.0": 2 * 8 * 8 * 2}


def test_n22_dot_files_do_not_make_lazy_weights(server, monkeypatch):
    monkeypatch.setenv("OPENVINO_HETERO_VISUALIZE", "1")
    big = layered_model()
    server.compile_model(big, "HETERO:GPU.0,GPU.1", PIPELINE)
    assert "not made yet" in open("hetero_affinity_layered-f16.dot").read()
    assert not any(op.materialized for op in big.get_ordered_ops()
                   if op.get_type_name() == "Constant")
