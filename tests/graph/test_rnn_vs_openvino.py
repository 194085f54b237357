"""RNNSequence, GRUCell, GRUSequence, LSTMCell and LSTMSequence (``ovlab/sim/graph/rnn_ops.py``)
against the real wheel: the same output shapes and types, and the same states on the CPU (the
real plugin pinned to f32; weights and inputs drawn with a fixed seed) for every direction,
shorter sequences, clip, linear_before_reset and other activations."""

from __future__ import annotations

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
real_ops = pytest.importorskip("openvino.opset11")

from real_wheel import LabOpset, run_both  # noqa: E402

lab_ops = LabOpset("opset11")
B, T, I, H = 2, 4, 3, 5  # noqa: E741 - batch, steps, input size, hidden size
GATES = {"rnn": 1, "gru": 3, "lstm": 4}


def _both(build, inputs):
    (_, lab_shapes, lab), (_, real_shapes, real) = run_both(build, inputs, lab_ops, real_ops)
    assert lab_shapes == real_shapes
    for a, b in zip(lab, real, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kind", ["rnn", "gru", "lstm"])
@pytest.mark.parametrize("direction", ["forward", "REVERSE", "bidirectional"])
@pytest.mark.parametrize("variant", ["default", "clip", "other"])
def test_sequences(kind, direction, variant):
    rng = np.random.default_rng(11)
    d = 2 if direction == "bidirectional" else 1
    g = GATES[kind]
    lbr = kind == "gru" and variant == "other"
    f32 = np.float32
    x = rng.standard_normal((B, T, I)).astype(f32)
    h0 = rng.standard_normal((B, d, H)).astype(f32)
    c0 = rng.standard_normal((B, d, H)).astype(f32)
    lens = np.array([T, T - 2], np.int32)
    w = (rng.standard_normal((d, g * H, I)) * 0.5).astype(f32)
    r = (rng.standard_normal((d, g * H, H)) * 0.5).astype(f32)
    b = (rng.standard_normal((d, (4 if lbr else g) * H)) * 0.5).astype(f32)
    acts = {"rnn": ["relu"], "gru": ["tanh", "sigmoid"],
            "lstm": ["sigmoid", "relu", "tanh"]}[kind] if variant == "other" else None
    clip = 0.7 if variant == "clip" else 0.0
    extra = {"linear_before_reset": True} if lbr else {}
    if kind == "lstm":
        _both(lambda o, p: o.lstm_sequence(*p, H, direction, acts, clip=clip),
              [x, h0, c0, lens, w, r, b])
    else:
        _both(lambda o, p: getattr(o, f"{kind}_sequence")(*p, H, direction, acts, clip=clip,
                                                          **extra),
              [x, h0, lens, w, r, b])


@pytest.mark.parametrize("lbr", [False, True])
def test_cells(lbr):
    rng = np.random.default_rng(12)
    f32 = np.float32
    x = rng.standard_normal((B, I)).astype(f32)
    h = rng.standard_normal((B, H)).astype(f32)
    c = rng.standard_normal((B, H)).astype(f32)
    _both(lambda o, p: o.gru_cell(*p, H, linear_before_reset=lbr),
          [x, h, rng.standard_normal((3 * H, I)).astype(f32),
           rng.standard_normal((3 * H, H)).astype(f32),
           rng.standard_normal(((4 if lbr else 3) * H,)).astype(f32)])
    _both(lambda o, p: o.lstm_cell(*p, H, clip=0.5 if lbr else 0.0),
          [x, h, c, rng.standard_normal((4 * H, I)).astype(f32),
           rng.standard_normal((4 * H, H)).astype(f32),
           rng.standard_normal((4 * H,)).astype(f32)])
