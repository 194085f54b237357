"""GRUCell-3: one step of a gated recurrent unit, as OpenVINO's ``reference/gru_cell.hpp``.

Inputs ``X [batch, input_size]``, ``initial_hidden_state [batch, hidden_size]``, the weights
``W [3 * hidden, input]`` and ``R [3 * hidden, hidden]`` with the gates in z, r, h order, and
the biases ``B [3 * hidden]`` (Wb + Rb per gate; ``[4 * hidden]`` with ``linear_before_reset``:
the h gate's Wb and Rb apart). The activations f (gates) and g (candidate) default to sigmoid
and tanh; ``clip`` > 0 clips every pre-activation to ``[-clip, clip]``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import NodeInput, make_node, need, register

__all__ = ["gru_cell"]

_ACT: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)),
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0),
}


def _gru_infer(node: Node) -> list[ShapeType]:
    """``rnn_base_shape_inference.hpp`` for three gates: batch and hidden size agree across
    the inputs, and the weights and biases hold each gate."""
    x, h, w, r, b = (node._in_shape(i) for i in range(5))
    hidden = int(node._attrs["hidden_size"])
    for i, s in enumerate((x, h, w, r)):
        need(len(s) == 2, f"Rank of input {i} is required to be 2. Got {len(s)}.")
    need(len(b) == 1, f"Rank of B input is required to be 1. Got {len(b)}.")
    need(x[0] == h[0], "Dimension `batch_size` is not matched between inputs.")
    need(h[1] == hidden and r[1] == hidden,
         "Dimension `hidden_size` is not matched between inputs.")
    need(w[0] == 3 * hidden, "First dimension of W input shape is required to be compatible "
         f"with {3 * hidden}. Got shape: {w[0]}.")
    need(r[0] == 3 * hidden, "First dimension of R input shape is required to be compatible "
         f"with {3 * hidden}. Got shape: {r[0]}.")
    bias = (4 if node._attrs["linear_before_reset"] else 3) * hidden
    need(b[0] == bias, "First dimension of B input shape is required to be compatible with "
         f"{bias}. Got shape: {b[0]}.")
    t = node._in_type(0)
    need(t.is_real(), f"Element type of X must be floating point, got {t.get_type_name()}")
    for i in range(1, 5):
        need(node._in_type(i) == t, "Element types for X, initial_hidden_state, W, R and B "
             "inputs do not match.")
    need(all(a in _ACT for a in node._attrs["activations"]),
         f"Unsupported activation function in {node._attrs['activations']} "
         f"(ovlab has {', '.join(_ACT)})")
    return [((x[0], hidden), t)]


def _gru(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    a = node._attrs
    x, h, w, r, b = (v.astype(np.float32) for v in xs)
    n = int(a["hidden_size"])
    f, g = (_ACT[name] for name in a["activations"][:2])
    clip = np.float32(a["clip"])

    def act(fn: Callable[[np.ndarray], np.ndarray], v: np.ndarray) -> np.ndarray:
        return fn(np.clip(v, -clip, clip) if clip > 0 else v)

    xw = x @ w.T  # [batch, 3n]: z, r, h
    hr = h @ r.T
    z = act(f, xw[:, :n] + hr[:, :n] + b[:n])
    rt = act(f, xw[:, n:2 * n] + hr[:, n:2 * n] + b[n:2 * n])
    if a["linear_before_reset"]:
        cand = act(g, xw[:, 2 * n:] + rt * (hr[:, 2 * n:] + b[3 * n:]) + b[2 * n:3 * n])
    else:
        cand = act(g, xw[:, 2 * n:] + (rt * h) @ r[2 * n:].T + b[2 * n:3 * n])
    return [((1 - z) * cand + z * h).astype(np.float32)]


def _gru_flops(node: Node) -> float:
    x, h = node._in_shape(0), node._in_shape(1)
    return 2.0 * x[0] * 3 * h[1] * (x[1] + h[1]) + 10.0 * x[0] * h[1]


register("GRUCell", "opset3", _gru_infer, _gru, _gru_flops,
         attrs=[Attr("linear_before_reset", "bool", False), Attr("hidden_size", "int"),
                Attr("activations", "strs", ("sigmoid", "tanh")),
                Attr("activations_alpha", "floats", ()), Attr("activations_beta", "floats", ()),
                Attr("clip", "float", 0.0, f32=True)])


def gru_cell(X: NodeInput, initial_hidden_state: NodeInput, W: NodeInput,  # noqa: N803
             R: NodeInput, B: NodeInput, hidden_size: int,  # noqa: N803 (the wheel's names)
             activations: Sequence[str] | None = None,
             activations_alpha: Sequence[float] | None = None,
             activations_beta: Sequence[float] | None = None, clip: float = 0.0,
             linear_before_reset: bool = False, name: str | None = None) -> Node:
    """GRUCell-3 (``openvino.opset3``+): the next hidden state ``[batch, hidden_size]``."""
    return make_node("GRUCell", [X, initial_hidden_state, W, R, B],
                     {"linear_before_reset": linear_before_reset, "hidden_size": hidden_size,
                      "activations": list(activations or ("sigmoid", "tanh")),
                      "activations_alpha": list(activations_alpha or ()),
                      "activations_beta": list(activations_beta or ()), "clip": clip}, name)
