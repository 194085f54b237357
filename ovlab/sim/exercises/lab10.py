"""Lab 10 · Models from files: the decompression Converts of a saved IR, f16 against f32 weights.

The second exercise is about the lab's own toy model (section 4); ``toy_model`` builds the same
graph with the same weights, and a test runs the lab's cell to check the two stay the same.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

import ovlab as ov
import ovlab.opset13 as ops

from . import Exercise, LabExercises


def toy_model() -> ov.Model:
    """The "bring your own model" network of lab 10, section 4."""
    rng = np.random.default_rng(0)
    x = ops.parameter([1, 3, 64, 64], np.float32, name="image")
    w = ops.constant(rng.standard_normal((16, 3, 3, 3)).astype(np.float32) * 0.2, name="conv_w")
    conv = ops.convolution(x, w, [1, 1], [1, 1], [1, 1], [1, 1], name="conv")
    gate = ops.multiply(conv, ops.sigmoid(conv, name="gate"), name="gated")
    clamped = ops.clamp(gate, 0.0, 6.0, name="clamp")
    pool = ops.avg_pool(clamped, [2, 2], [0, 0], [0, 0], [2, 2], True, name="pool")
    flat = ops.reshape(pool, np.array([0, -1], np.int64), True, name="flatten")
    fc_w = ops.constant(rng.standard_normal((16 * 32 * 32, 10)).astype(np.float32) * 0.01,
                        name="fc_w")
    logits = ops.matmul(flat, fc_w, False, False, name="fc")
    return ov.Model([ops.result(ops.softmax(logits, 1, name="prob"), name="scores")], [x],
                    "my_model")


def _decompression_converts() -> int:
    core = ov.Core("workstation", seed=0)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "googlenet-v1.xml"
        ov.save_model(core.read_model("googlenet-v1"), path)
        model = core.read_model(path)
        return sum(1 for op in model.get_ops() if "decompression_0" in op.get_rt_info())


def _f32_extra_bytes() -> int:
    model = toy_model()
    with tempfile.TemporaryDirectory() as folder:
        f16, f32 = Path(folder) / "my_model.xml", Path(folder) / "my_model_f32.xml"
        ov.save_model(model, f16)
        ov.save_model(model, f32, compress_to_fp16=False)
        return f32.with_suffix(".bin").stat().st_size - f16.with_suffix(".bin").stat().st_size


EXERCISES = LabExercises("10-models-from-files", [
    Exercise(1, _decompression_converts,
             explain="one per floating-point weight and bias: every f32 Constant of the model "
                     "became an f16 Constant and a Convert back to f32.",
             hint="loop over core.read_model(...).get_ops() and count the ops whose rt_info has "
                  "the key."),
    Exercise(2, _f32_extra_bytes,
             explain="two bytes more per float weight (4 instead of 2); the integer constants "
                     "(the Reshape pattern) are the same in both.",
             hint="Path(...).stat().st_size gives a file's size."),
])
