"""NPU batching (2025.3+) and BATCH never on the NPU (claims N23, N24)."""

import numpy as np
import pytest

import ovlab
from ovlab import zoo
from ovlab.sim.plugins.batch import BatchBackend
from ovlab.sim.plugins.hardware import HardwareBackend


@pytest.fixture
def aipc():
    return ovlab.Core("core-ultra-7-165h", seed=0)


@pytest.fixture(scope="module")
def batch4():
    model = zoo.load("small-cnn")
    model.reshape([4, *model.inputs[0].get_shape()[1:]])
    return model


@pytest.fixture(scope="module")
def images(batch4):
    return np.random.default_rng(0).standard_normal(
        tuple(batch4.inputs[0].get_shape())).astype(np.float32)


def timed(compiled, x):
    request = compiled.create_infer_request()
    for _ in range(2):  # the second run: past the first-inference warm-up
        request.start_async({0: x})
        request.wait()
    return request


def test_n23_a_batched_model_runs_its_items_as_concurrent_batch1_inferences(aipc, batch4,
                                                                           images, small_cnn):
    compiled = aipc.compile_model(batch4, "NPU")
    backend = compiled._backend
    assert backend.items == 4 and backend.run_model.inputs[0].get_shape()[0] == 1
    assert list(compiled.inputs[0].get_shape()) == list(batch4.inputs[0].get_shape())
    assert [e.kind for e in aipc.trace.events if e.kind == "npu_plugin_batching"]
    batched = timed(compiled, images)
    single = timed(aipc.compile_model(small_cnn, "NPU"), images[:1])
    # the four items share the NPU: about four batch-1 inferences, nothing saved
    assert batched.latency == pytest.approx(4 * single.latency, rel=0.3)
    npu = [r for r in aipc.trace.inferences if r.device == "NPU"]
    assert [r.batch_size for r in npu] == [4, 4, None, None]  # one record per request
    # one request for the whole batch, real results for every sample
    reference = aipc.compile_model(batch4, "CPU")({0: images})[0]
    out = batched.get_output_tensor(0).data
    assert out.shape == reference.shape
    np.testing.assert_allclose(out, reference, atol=2e-2)  # the NPU computes in FP16
    assert (out.argmax(axis=1) == reference.argmax(axis=1)).all()


def test_n23_compiler_mode_compiles_the_batch_as_is(aipc, batch4, images):
    plugin_mode = timed(aipc.compile_model(batch4, "NPU"), images)
    compiler = aipc.compile_model(batch4, "NPU", {"NPU_BATCH_MODE": "COMPILER"})
    assert compiler._backend.items == 1
    assert timed(compiler, images).latency < plugin_mode.latency  # a real batch shares costs
    assert "NPU_BATCH_MODE" not in aipc.get_property("NPU", "SUPPORTED_PROPERTIES")  # private


def test_n23_a_model_that_cannot_be_debatched(aipc):
    from ovlab import opset

    x = opset.parameter([4, 8], np.float32, name="x")
    flat = opset.reshape(x, opset.constant(np.array([1, 32], np.int64), name="shape"),
                         special_zero=False, name="flat")  # the batch does not carry through
    model = ovlab.Model([opset.result(opset.relu(flat, name="relu"), name="out")], [x], "flat")
    auto = aipc.compile_model(model, "NPU")  # AUTO: leaves it to the compiler
    assert auto._backend.items == 1
    with pytest.raises(RuntimeError, match="Cannot debatch a model"):
        aipc.compile_model(model, "NPU", {"NPU_BATCH_MODE": "PLUGIN"})
    with pytest.raises(RuntimeError, match="Value 'FOO' is not a valid BATCH_MODE option"):
        aipc.compile_model(model, "NPU", {"NPU_BATCH_MODE": "FOO"})


def test_n23_batch_one_models_are_untouched(aipc, small_cnn):
    assert aipc.compile_model(small_cnn, "NPU")._backend.items == 1


def test_n24_batch_never_applies_to_the_npu(aipc, googlenet):
    npu = aipc.compile_model(googlenet, "NPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    assert type(npu._backend) is HardwareBackend
    assert npu.get_runtime_model().inputs[0].get_shape()[0] == 1
    assert "OPTIMAL_BATCH_SIZE" not in aipc.get_property("NPU", "SUPPORTED_PROPERTIES")
    gpu = aipc.compile_model(googlenet, "GPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    assert type(gpu._backend) is BatchBackend  # the same call on the iGPU batches
    auto = aipc.compile_model(googlenet, "AUTO:NPU", {"PERFORMANCE_HINT": "THROUGHPUT"})
    assert type(auto._backend.schedule.actual.backend) is HardwareBackend
