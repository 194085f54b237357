"""A real classifier on real images: an MLP trained on scikit-learn's handwritten digits.

The zoo's networks (``ovlab.sim.models.zoo``) carry random weights: their outputs are real tensors but mean
nothing. This model's weights were learned (``tools/train_digits.py``, seeded, scikit-learn as a
dev-only dependency), and the package ships them with the held-out test images (8x8 pixels,
grey levels 0-16) in ``ovlab/sim/models/data/digits.npz``, so a lab needs no scikit-learn to classify real
handwriting and to show what each device's precision does to the answers.

The graph is built with ``ovlab.opset13`` as an OpenVINO user would build it:
``x / 16 -> MatMul(64x32) -> Add -> Relu -> MatMul(32x10) -> Add -> Softmax``. ``"INT8"`` adds
FakeQuantize on each MatMul's activations (input range [0, 1]; hidden range from the training
images) and weights (per output channel, symmetric), as NNCF's post-training quantization
writes a model; a device that runs int8 then computes those layers in int8.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from ... import opset13 as ops
from ..graph import Model

__all__ = ["Digits", "data", "model", "accuracy", "PRECISIONS"]

PRECISIONS = ("FP32", "INT8")


@dataclass(frozen=True)
class Digits:
    """The shipped weights and held-out test set."""

    w1: np.ndarray  # [64, 32]
    b1: np.ndarray
    w2: np.ndarray  # [32, 10]
    b2: np.ndarray
    images: np.ndarray  # [N, 64] uint8, grey levels 0-16 (an 8x8 image per row)
    labels: np.ndarray  # [N] uint8
    hidden_max: float  # the hidden layer's largest activation on the training images
    train_accuracy: float
    sklearn_version: str

    def inputs(self) -> np.ndarray:
        """The test images as the model's input: float32 [N, 64], grey levels 0-16."""
        return self.images.astype(np.float32)


@lru_cache(maxsize=1)
def data() -> Digits:
    """The weights and test images shipped in ``ovlab/sim/models/data/digits.npz``."""
    with resources.files("ovlab.sim.models").joinpath("data/digits.npz").open("rb") as f:
        z = np.load(f)
        return Digits(z["w1"], z["b1"], z["w2"], z["b2"], z["x_test"], z["y_test"],
                      float(z["hidden_max"]), float(z["train_accuracy"]),
                      str(z["sklearn_version"]))


def _fq(x, lo: np.ndarray, hi: np.ndarray, levels: int, name: str):
    lo_c = ops.constant(np.asarray(lo, np.float32), name=f"{name}/low")
    hi_c = ops.constant(np.asarray(hi, np.float32), name=f"{name}/high")
    return ops.fake_quantize(x, lo_c, hi_c, lo_c, hi_c, levels, name=name).output(0)


def _dense(x, w: np.ndarray, b: np.ndarray, name: str, int8: bool, x_range: tuple[float, float]):
    """x @ w + b, weights stored [out, in] (transpose_b, as the IR frontends keep them)."""
    wt = np.ascontiguousarray(w.T, dtype=np.float32)
    weights = ops.constant(wt, name=f"{name}/weights").output(0)
    if int8:
        m = np.abs(wt).max(axis=1, keepdims=True)
        weights = _fq(weights, -m, m, 255, f"{name}/fq_weights")
        x = _fq(x, np.full((1, 1), x_range[0]), np.full((1, 1), x_range[1]), 256,
                f"{name}/fq_input")
    y = ops.matmul(x, weights, False, True, name=name)
    return ops.add(y, ops.constant(b.reshape(1, -1).astype(np.float32), name=f"{name}/biases"),
                   name=f"{name}/add_bias").output(0)


def model(precision: str = "FP32", batch: int | None = None) -> Model:
    """The classifier as an ovlab graph: input ``pixels`` [batch, 64] float32 (grey levels
    0-16; default batch: the whole test set), output ``prob`` [batch, 10]."""
    if precision not in PRECISIONS:
        raise ValueError(f"digits precision must be one of {', '.join(PRECISIONS)}, "
                         f"got {precision!r}")
    d = data()
    n = len(d.labels) if batch is None else int(batch)
    int8 = precision == "INT8"
    pixels = ops.parameter([n, 64], np.float32, name="pixels")
    x = ops.multiply(pixels, ops.constant(np.full((1, 1), 1 / 16, np.float32), name="scale"),
                     name="scale_to_unit").output(0)
    h = _dense(x, d.w1, d.b1, "fc1", int8, (0.0, 1.0))
    h = ops.relu(h, name="relu1").output(0)
    logits = _dense(h, d.w2, d.b2, "fc2", int8, (0.0, d.hidden_max))
    prob = ops.softmax(logits, 1, name="prob")
    res = ops.result(prob, name="prob/sink_port_0")
    res.output(0).set_names({"prob"})
    return Model([res], [pixels], f"digits-mlp-{precision.lower()}")


def accuracy(probabilities: np.ndarray, labels: np.ndarray | None = None) -> float:
    """The share of test images whose most probable class is their label."""
    labels = data().labels if labels is None else labels
    return float(np.mean(np.argmax(probabilities, axis=1) == labels))
