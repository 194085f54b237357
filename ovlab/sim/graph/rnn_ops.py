"""Recurrent cells and sequences: RNNSequence-5, GRUCell-3, GRUSequence-5, LSTMCell-4,
LSTMSequence-5.

The gates follow OpenVINO's layouts (W, R and B stacked by gate: LSTM ``f, i, c, o``, GRU
``z, r, h``; GRU with ``linear_before_reset`` has a fourth bias block, the recurrent one of
``h``), the activations are named by ``activations`` (``f``, ``g``, ``h``: sigmoid, tanh and
relu, case-insensitive), and ``clip`` bounds the gates' pre-activations to ``[-clip, clip]``
when positive, as OpenVINO's references (``reference/lstm_cell.hpp``, ``gru_cell.hpp``,
``rnn_cell.hpp``, ``sequences.hpp``). A sequence runs each direction over each batch's first
``sequence_lengths[b]`` steps (backwards for ``reverse``); its outputs are ``Y [B, D, T, H]``
(zeros past a sequence's end), ``Ho [B, D, H]`` (and ``Co``) at its last step. Arithmetic is
float32, as on the CPU.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, make_node, need, register
from .types import shape_str

__all__ = ["gru_cell", "gru_sequence", "lstm_cell", "lstm_sequence", "rnn_sequence"]

_ACT: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "sigmoid": lambda x: (1 / (1 + np.exp(-x))).astype(x.dtype),
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0),
}
# gates per kind: how W's and R's first dimension splits, and the default activations
_GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
_DEFAULTS = {"RNN": ["tanh"], "GRU": ["sigmoid", "tanh"], "LSTM": ["sigmoid", "tanh", "tanh"]}
_DIRECTIONS = ("forward", "reverse", "bidirectional")


def _acts(node: Node, kind: str) -> list[Callable[[np.ndarray], np.ndarray]]:
    names = list(node._attrs["activations"]) or _DEFAULTS[kind]
    return [_ACT[n.lower()] for n in names]


def _check_acts(node: Node, kind: str) -> None:
    names = list(node._attrs["activations"]) or _DEFAULTS[kind]
    need(len(names) >= len(_DEFAULTS[kind]), f"{kind} needs {len(_DEFAULTS[kind])} "
         f"activations, got {names}")
    for n in names:
        need(n.lower() in _ACT, f"Unsupported activation function: {n}")


def _clip(x: np.ndarray, clip: float) -> np.ndarray:
    return np.clip(x, -clip, clip) if clip > 0 else x


def _step(kind: str, acts: list, clip: float, lbr: bool, x: np.ndarray, h: np.ndarray,
          c: np.ndarray | None, w: np.ndarray, r: np.ndarray, b: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray | None]:
    """One step of one cell over a batch: the new hidden (and cell) state."""
    hs = h.shape[-1]
    if kind == "RNN":
        return acts[0](_clip(x @ w.T + h @ r.T + b, clip)), None
    if kind == "LSTM":
        gates = _clip(x @ w.T + h @ r.T + b, clip)
        f, i, g, o = (gates[:, k * hs:(k + 1) * hs] for k in range(4))
        c_new = acts[0](f) * c + acts[0](i) * acts[1](g)
        return acts[0](o) * acts[2](c_new), c_new
    xw, hr = x @ w.T, h @ r.T  # GRU
    z = acts[0](_clip(xw[:, :hs] + hr[:, :hs] + b[:hs], clip))
    rg = acts[0](_clip(xw[:, hs:2 * hs] + hr[:, hs:2 * hs] + b[hs:2 * hs], clip))
    if lbr:
        hh = acts[1](_clip(xw[:, 2 * hs:] + rg * (hr[:, 2 * hs:] + b[3 * hs:]) + b[2 * hs:3 * hs],
                           clip))
    else:
        hh = acts[1](_clip(xw[:, 2 * hs:] + (rg * h) @ r[2 * hs:].T + b[2 * hs:], clip))
    return (1 - z) * hh + z * h, None


def _bias_len(node: Node, kind: str) -> int:
    hs = node._attrs["hidden_size"]
    return (4 if kind == "GRU" and node._attrs.get("linear_before_reset") else _GATES[kind]) * hs


# --- cells ----------------------------------------------------------------------------------
def _cell_infer(kind: str) -> Callable[[Node], list[ShapeType]]:
    def infer(node: Node) -> list[ShapeType]:
        _check_acts(node, kind)
        hs, g = node._attrs["hidden_size"], _GATES[kind]
        x, h = node._in_shape(0), node._in_shape(1)
        at = 3 if kind == "LSTM" else 2  # where W is
        w, r, b = (node._in_shape(at + k) for k in range(3))
        need(len(x) == 2 and len(h) == 2, f"X {shape_str(x)} and H {shape_str(h)} must be 2-D")
        need(tuple(h) == (x[0], hs), f"H {shape_str(h)} must be [batch, hidden_size] "
             f"([{x[0]},{hs}])")
        need(tuple(w) == (g * hs, x[1]), f"W {shape_str(w)} must be [{g * hs},{x[1]}]")
        need(tuple(r) == (g * hs, hs), f"R {shape_str(r)} must be [{g * hs},{hs}]")
        need(tuple(b) == (_bias_len(node, kind),), f"B {shape_str(b)} must be "
             f"[{_bias_len(node, kind)}]")
        t = node._in_type(0)
        return [((x[0], hs), t)] * (2 if kind == "LSTM" else 1)
    return infer


def _cell_compute(kind: str) -> Callable[[Node, list[np.ndarray], Ctx], list[np.ndarray]]:
    def compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
        a = node._attrs
        c = xs[2] if kind == "LSTM" else None
        w, r, b = xs[3:6] if kind == "LSTM" else xs[2:5]
        h, c = _step(kind, _acts(node, kind), a["clip"], bool(a.get("linear_before_reset")),
                     xs[0], xs[1], c, w, r, b)
        return [h] if c is None else [h, c]
    return compute


_COMMON = [Attr("hidden_size", "int"), Attr("activations", "strs", ()),
           Attr("activations_alpha", "floats", ()), Attr("activations_beta", "floats", ()),
           Attr("clip", "float", 0.0)]
register("GRUCell", "opset3", _cell_infer("GRU"), _cell_compute("GRU"),
         attrs=[*_COMMON, Attr("linear_before_reset", "bool", False)])
register("LSTMCell", "opset4", _cell_infer("LSTM"), _cell_compute("LSTM"), attrs=_COMMON)


# --- sequences ------------------------------------------------------------------------------
def _seq_infer(kind: str) -> Callable[[Node], list[ShapeType]]:
    def infer(node: Node) -> list[ShapeType]:
        _check_acts(node, kind)
        a = node._attrs
        need(a["direction"] in _DIRECTIONS, f"direction {a['direction']!r} must be one of "
             f"{', '.join(_DIRECTIONS)}")
        d = 2 if a["direction"] == "bidirectional" else 1
        hs, g = a["hidden_size"], _GATES[kind]
        x, h = node._in_shape(0), node._in_shape(1)
        at = 3 if kind == "LSTM" else 2  # where sequence_lengths is
        lens, w, r, b = (node._in_shape(at + k) for k in range(4))
        need(len(x) == 3, f"X {shape_str(x)} must be [batch, seq_length, input_size]")
        need(tuple(h) == (x[0], d, hs), f"the initial hidden state {shape_str(h)} must be "
             f"[{x[0]},{d},{hs}]")
        need(tuple(lens) == (x[0],), f"sequence_lengths {shape_str(lens)} must be [{x[0]}]")
        need(tuple(w) == (d, g * hs, x[2]), f"W {shape_str(w)} must be [{d},{g * hs},{x[2]}]")
        need(tuple(r) == (d, g * hs, hs), f"R {shape_str(r)} must be [{d},{g * hs},{hs}]")
        need(tuple(b) == (d, _bias_len(node, kind)), f"B {shape_str(b)} must be "
             f"[{d},{_bias_len(node, kind)}]")
        t = node._in_type(0)
        outs = [((x[0], d, x[1], hs), t), ((x[0], d, hs), t)]
        return outs + [((x[0], d, hs), t)] if kind == "LSTM" else outs
    return infer


def _seq_compute(kind: str) -> Callable[[Node, list[np.ndarray], Ctx], list[np.ndarray]]:
    def compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
        a = node._attrs
        lstm = kind == "LSTM"
        x, h0 = xs[0], xs[1]
        c0 = xs[2] if lstm else None
        lens, w, r, b = xs[3:7] if lstm else xs[2:6]
        batch, steps, _ = x.shape
        dirs = (["forward", "reverse"] if a["direction"] == "bidirectional"
                else [a["direction"]])
        acts, lbr = _acts(node, kind), bool(a.get("linear_before_reset"))
        y = np.zeros((batch, len(dirs), steps, a["hidden_size"]), x.dtype)
        ho = np.array(h0, copy=True)
        co = np.array(c0, copy=True) if lstm else None
        for d, direction in enumerate(dirs):
            for n in range(batch):
                length = int(min(max(int(lens[n]), 0), steps))
                order = range(length) if direction == "forward" else range(length - 1, -1, -1)
                h = h0[n:n + 1, d]
                c = c0[n:n + 1, d] if lstm else None
                for t in order:
                    h, c = _step(kind, acts, a["clip"], lbr, x[n:n + 1, t], h, c,
                                 w[d], r[d], b[d])
                    y[n, d, t] = h[0]
                ho[n, d] = h[0]
                if lstm:
                    co[n, d] = c[0]
        return [y, ho] + ([co] if lstm else [])
    return compute


_SEQ = [*_COMMON, Attr("direction", "str", "forward")]
register("RNNSequence", "opset5", _seq_infer("RNN"), _seq_compute("RNN"), attrs=_SEQ)
register("GRUSequence", "opset5", _seq_infer("GRU"), _seq_compute("GRU"),
         attrs=[*_SEQ, Attr("linear_before_reset", "bool", False)])
register("LSTMSequence", "opset5", _seq_infer("LSTM"), _seq_compute("LSTM"), attrs=_SEQ)


# --- builders (openvino.opset3..: their signatures) -----------------------------------------
def _attrs(hidden_size: int, activations: Sequence[str] | None, alpha: Sequence[float] | None,
           beta: Sequence[float] | None, clip: float, **more: Any) -> dict[str, Any]:
    return {"hidden_size": int(hidden_size), "activations": list(activations or []),
            "activations_alpha": [float(v) for v in alpha or []],
            "activations_beta": [float(v) for v in beta or []], "clip": float(clip), **more}


def _ins(values: Sequence[NodeInput], name: str | None) -> list[Any]:
    return [as_output(v, name) for v in values]


def gru_cell(X: NodeInput, initial_hidden_state: NodeInput, W: NodeInput, R: NodeInput,  # noqa: N803
             B: NodeInput, hidden_size: int, activations: list[str] | None = None,  # noqa: N803
             activations_alpha: list[float] | None = None,
             activations_beta: list[float] | None = None, clip: float = 0.0,
             linear_before_reset: bool = False, name: str | None = None) -> Node:
    """GRUCell-3: one step of a GRU over ``X [batch, input_size]``."""
    return make_node("GRUCell", _ins([X, initial_hidden_state, W, R, B], name),
                     _attrs(hidden_size, activations, activations_alpha, activations_beta, clip,
                            linear_before_reset=linear_before_reset), name)


def lstm_cell(X: NodeInput, initial_hidden_state: NodeInput,  # noqa: N803
              initial_cell_state: NodeInput, W: NodeInput, R: NodeInput, B: NodeInput,  # noqa: N803
              hidden_size: int, activations: list[str] | None = None,
              activations_alpha: list[float] | None = None,
              activations_beta: list[float] | None = None, clip: float = 0.0,
              name: str | None = None) -> Node:
    """LSTMCell-4: one step of an LSTM; outputs the hidden and the cell state."""
    return make_node("LSTMCell",
                     _ins([X, initial_hidden_state, initial_cell_state, W, R, B], name),
                     _attrs(hidden_size, activations, activations_alpha, activations_beta,
                            clip), name)


def rnn_sequence(X: NodeInput, initial_hidden_state: NodeInput,  # noqa: N803
                 sequence_lengths: NodeInput, W: NodeInput, R: NodeInput, B: NodeInput,  # noqa: N803
                 hidden_size: int, direction: str, activations: list[str] | None = None,
                 activations_alpha: list[float] | None = None,
                 activations_beta: list[float] | None = None, clip: float = 0.0,
                 name: str | None = None) -> Node:
    """RNNSequence-5 over ``X [batch, seq_length, input_size]``."""
    return make_node("RNNSequence",
                     _ins([X, initial_hidden_state, sequence_lengths, W, R, B], name),
                     _attrs(hidden_size, activations, activations_alpha, activations_beta, clip,
                            direction=str(direction).lower()), name)


def gru_sequence(X: NodeInput, initial_hidden_state: NodeInput,  # noqa: N803
                 sequence_lengths: NodeInput, W: NodeInput, R: NodeInput, B: NodeInput,  # noqa: N803
                 hidden_size: int, direction: str, activations: list[str] | None = None,
                 activations_alpha: list[float] | None = None,
                 activations_beta: list[float] | None = None, clip: float = 0.0,
                 linear_before_reset: bool = False, name: str | None = None) -> Node:
    """GRUSequence-5 over ``X [batch, seq_length, input_size]``."""
    return make_node("GRUSequence",
                     _ins([X, initial_hidden_state, sequence_lengths, W, R, B], name),
                     _attrs(hidden_size, activations, activations_alpha, activations_beta, clip,
                            direction=str(direction).lower(),
                            linear_before_reset=linear_before_reset), name)


def lstm_sequence(X: NodeInput, initial_hidden_state: NodeInput,  # noqa: N803
                  initial_cell_state: NodeInput, sequence_lengths: NodeInput, W: NodeInput,  # noqa: N803
                  R: NodeInput, B: NodeInput, hidden_size: int, direction: str,  # noqa: N803
                  activations: list[str] | None = None,
                  activations_alpha: list[float] | None = None,
                  activations_beta: list[float] | None = None, clip: float = 0.0,
                  name: str | None = None) -> Node:
    """LSTMSequence-5 over ``X [batch, seq_length, input_size]``; outputs Y, Ho, Co."""
    return make_node("LSTMSequence",
                     _ins([X, initial_hidden_state, initial_cell_state, sequence_lengths, W, R,
                           B], name),
                     _attrs(hidden_size, activations, activations_alpha, activations_beta, clip,
                            direction=str(direction).lower()), name)
