"""Stateful models (ReadValue/Assign): a variable lives with its request, advances once per
inference in request order, and query_state/reset_state read, set and reset it (issue 23;
OpenVINO's own test_stateful.py runs the same API against the real wheel)."""

from __future__ import annotations

import numpy as np

import ovlab
import ovlab.opset as ops


def _accumulator(shape=(2, 3)):
    x = ops.parameter(list(shape), np.float32, name="x")
    rv = ops.read_value(ops.constant(np.zeros(shape, np.float32)), "acc", ovlab.Type.f32,
                        list(shape))
    total = ops.add(rv, x, name="sum")
    sink = ops.assign(total, "acc")
    return ovlab.Model(results=[ops.result(total, "out")], sinks=[sink], parameters=[x],
                       name="accumulator")


def test_a_variable_accumulates_per_request_and_resets():
    core = ovlab.Core(platform="cpu")
    compiled = core.compile_model(_accumulator(), "CPU")
    first, second = compiled.create_infer_request(), compiled.create_infer_request()
    ones = np.ones((2, 3), np.float32)
    for i in range(1, 4):
        out = first.infer({0: ones})
        assert np.array_equal(out[0], ones * i)
    assert np.array_equal(second.infer({0: ones})[0], ones)  # its own variable
    (state,) = first.query_state()
    assert state.name == "acc" and np.array_equal(state.state.data, ones * 3)
    state.state = ovlab.Tensor(np.full((2, 3), 10, np.float32))
    assert np.array_equal(first.infer({0: ones})[0], ones * 11)
    state.reset()
    assert np.array_equal(first.infer({0: ones})[0], ones)
    first.reset_state()
    assert np.array_equal(first.query_state()[0].state.data, np.zeros((2, 3)))


def test_async_inferences_advance_the_variable_in_order():
    core = ovlab.Core(platform="cpu")
    request = core.compile_model(_accumulator(), "CPU").create_infer_request()
    ones = np.ones((2, 3), np.float32)
    for _ in range(3):
        request.start_async({0: ones})
        request.wait()
    assert np.array_equal(request.get_output_tensor(0).data, ones * 3)


def test_model_keeps_its_sinks_through_clone():
    model = _accumulator()
    assert [s.get_type_name() for s in model.get_sinks()] == ["Assign"]
    assert [s.get_type_name() for s in model.clone().get_sinks()] == ["Assign"]
    assert model.get_sinks()[0] in model.get_ordered_ops()
