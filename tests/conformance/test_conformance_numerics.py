"""Numerics: the same graph, built with ``openvino.opset13`` and with ``ovlab.opset``, gives the
same outputs (to 1e-4 relative) on every device string that runs on the CPU.

The real CPU runs with ``INFERENCE_PRECISION_HINT: f32``: its default on an AVX512_BF16 machine
is bf16, which ovlab emulates only where its host is described as such a CPU (the bf16 numerics
are checked in ``tests/graph/test_bf16_cpu.py``). Four different inputs go through
an ``AsyncInferQueue`` of 4, so BATCH:CPU(4) runs them as one full batch (no timeout wait) and
each request must get its own slice back (claim B08).
"""

from __future__ import annotations

import numpy as np
import pytest
from conformance_harness import LAB, REAL

DEVICES = ["CPU", "AUTO", "AUTO:CPU", "MULTI:CPU", "HETERO:CPU", "BATCH:CPU(4)"]
SHAPES = {"conv": (1, 3, 32, 32), "conv_fixed": (1, 3, 32, 32), "mlp": (1, 16)}


def _run(rt, model, device, inputs):
    # a short batch timeout: the real BATCH model's destructor waits for its worker's timer
    config = {"INFERENCE_PRECISION_HINT": "f32", "AUTO_BATCH_TIMEOUT": 50}
    cm = rt.new_core().compile_model(model, device, config)
    got = {}
    queue = rt.AsyncInferQueue(cm, len(inputs))
    queue.set_callback(lambda request, i: got.__setitem__(
        i, request.get_output_tensor(0).data.copy()))
    for i, x in enumerate(inputs):
        queue.start_async({0: x}, i)
    queue.wait_all()
    return [got[i] for i in range(len(inputs))]


@pytest.mark.parametrize("which", ["conv", "conv_fixed", "mlp"])
@pytest.mark.parametrize("device", DEVICES)
def test_b08_outputs_agree_with_openvino(models, device, which):
    rng = np.random.default_rng(7)
    inputs = [rng.standard_normal(SHAPES[which]).astype(np.float32) for _ in range(4)]
    real = _run(REAL, models[REAL.name][which], device, inputs)
    lab = _run(LAB, models[LAB.name][which], device, inputs)
    for i, (want, got) in enumerate(zip(real, lab, strict=True)):
        assert got.dtype == want.dtype and got.shape == want.shape, i
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=0, err_msg=f"request {i}")
    # the four inputs differ, so must the outputs (a batch that mixed slices up would not)
    assert not np.allclose(lab[0], lab[1])


def test_opset_builds_the_same_graph(models):
    """Same op types, friendly names, output shapes and element types, in the same order."""
    def describe(model):
        return [(op.get_type_name(), op.get_friendly_name(),
                 [tuple(op.get_output_shape(i)) for i in range(op.get_output_size())],
                 [op.get_output_element_type(i).get_type_name()
                  for i in range(op.get_output_size())])
                for op in model.get_ordered_ops()]

    for which in SHAPES:
        assert describe(models[LAB.name][which]) == describe(models[REAL.name][which]), which
