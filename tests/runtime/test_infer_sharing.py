"""share_inputs / share_outputs as the wheel keeps them (OpenVINO's test_sync_infer_request
checks the same on both runtimes), and another model's results fed in as inputs."""

from __future__ import annotations

import numpy as np
import pytest

import ovlab
from ovlab import Model
from ovlab import opset13 as ops


@pytest.fixture(scope="module")
def compiled():
    param = ops.parameter([2, 2], np.float32, name="x")
    return ovlab.Core(platform="laptop").compile_model(Model(ops.abs(param), [param]), "CPU")


@pytest.mark.parametrize("share_inputs", [True, False])
@pytest.mark.parametrize("share_outputs", [True, False])
def test_infer_shares_what_it_is_asked_to(compiled, share_inputs, share_outputs):
    request = compiled.create_infer_request()
    x = -np.arange(4, dtype=np.float32).reshape(2, 2)
    out = request.infer(x, share_inputs=share_inputs, share_outputs=share_outputs)
    assert np.array_equal(out[0], np.abs(x))
    assert np.shares_memory(request.get_input_tensor(0).data, x) is share_inputs
    assert np.shares_memory(request.get_output_tensor(0).data, out[0]) is share_outputs
    assert out[0].flags["OWNDATA"] is not share_outputs


def test_arrays_the_request_cannot_share_are_copied(compiled):
    request = compiled.create_infer_request()
    read_only = np.ones((2, 2), np.float32)
    read_only.flags.writeable = False
    for x in (read_only, np.ones((2, 2), np.float64), np.ones((2, 4), np.float32)[:, :2]):
        request.infer(x, share_inputs=True)
        assert not np.shares_memory(request.get_input_tensor(0).data, x)


def test_compiled_model_call_keeps_its_request(compiled):
    compiled(np.ones((2, 2), np.float32))
    assert compiled._infer_request is not None


def test_results_of_one_model_feed_the_next_by_position(compiled):
    first = compiled(-np.ones((2, 2), np.float32), share_inputs=False)
    second = compiled.create_infer_request().infer(first)
    assert np.array_equal(second[0], np.ones((2, 2), np.float32))


def test_one_value_for_a_model_of_two_inputs_is_refused_as_the_wheel_does():
    a, b = ops.parameter([2], np.float32), ops.parameter([2], np.float32)
    request = ovlab.Core(platform="laptop").compile_model(
        Model(ops.add(a, b), [a, b]), "CPU").create_infer_request()
    for value, call in ((np.ones(2, np.float32), "get"), ("some_input", "get"),
                        (ovlab.Tensor(np.ones(2, np.float32)), "set")):
        with pytest.raises(RuntimeError, match=f"{call}_input_tensor\\(\\) must be called on a "
                                               "function with exactly one parameter"):
            request.infer(value)


def test_batch_items_given_as_separate_tensors():
    param = ops.parameter([4, 2], np.float32, name="x")
    request = ovlab.Core(platform="laptop").compile_model(
        Model(ops.relu(param), [param]), "CPU").create_infer_request()
    items = [ovlab.Tensor(np.full((1, 2), i, np.float32)) for i in range(4)]
    request.set_input_tensors(items)
    assert request.infer()[0][:, 0].tolist() == [0, 1, 2, 3]
    items[3].data[:] = 7  # read again at each inference
    assert request.infer()[0][3, 0] == 7
    with pytest.raises(RuntimeError, match="get_tensor shall not be used together with batched"):
        request.get_tensor("x")
    with pytest.raises(RuntimeError, match="batch 4doesn't match with total blobs count: 3"):
        request.set_input_tensors(items[:3])
    with pytest.raises(RuntimeError, match="Tensors shall represent one item in a batch, 2"):
        request.set_input_tensors([ovlab.Tensor(np.ones((2, 2), np.float32))] * 4)
    request.infer(np.ones((4, 2), np.float32))  # a whole tensor again
    assert request.get_tensor("x").shape == [4, 2]
