"""CTCGreedyDecoder-1 and CTCGreedyDecoderSeqLen-6: best-path decoding of CTC outputs.

At each time step the most likely class is taken; blanks are dropped and, with merging on, a
class repeated on consecutive steps counts once (OpenVINO's ``reference/ctc_greedy_decoder``
and ``ctc_greedy_decoder_seq_len``). CTCGreedyDecoder reads time-major ``[T, N, C]`` data and a
``[T, N]`` mask (a 0 ends the sequence), the blank is the last class, and the classes come out
``[N, T, 1, 1]`` in the data's type; CTCGreedyDecoderSeqLen reads batch-major ``[N, T, C]``
data, each sequence's length and an optional blank index (the last class by default), and
gives the classes ``[N, T]`` and how many each sequence decoded to ``[N]``. Unused places
hold -1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, make_node, need, register
from .types import Type, as_type, shape_str

__all__ = ["ctc_greedy_decoder", "ctc_greedy_decoder_seq_len"]


def _decode(scores: np.ndarray, length: int, blank: int, merge: bool) -> list[int]:
    """Best-path classes of one sequence's ``[T, C]`` scores (its first ``length`` steps)."""
    out, prev = [], -1
    for t in range(min(length, scores.shape[0])):
        k = int(np.argmax(scores[t]))
        if k != blank and not (merge and k == prev):
            out.append(k)
        prev = k
    return out


def _greedy_infer(node: Node) -> list[ShapeType]:
    data, mask = node._in_shape(0), node._in_shape(1)
    need(len(data) == 3, f"The rank of logits tensor must be equal to 3, got {shape_str(data)}")
    need(len(mask) == 2, f"The rank of sequence mask tensor must be equal to 2, got "
         f"{shape_str(mask)}")
    need(data[0] == mask[0] and data[1] == mask[1], "The first and second dimensions of logits "
         f"{shape_str(data)} and the sequence mask {shape_str(mask)} must be the same")
    return [((data[1], data[0], 1, 1), node._in_type(0))]


def _greedy(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    data, mask = xs[0], xs[1]
    T, N, C = data.shape  # noqa: N806 - the spec's names
    out = np.full((N, T, 1, 1), -1, dtype=node._out_types[0].to_dtype())
    for n in range(N):
        ends = np.flatnonzero(mask[:, n] == 0)
        length = int(ends[0]) if ends.size else T
        classes = _decode(data[:, n, :], length, C - 1, node._attrs["ctc_merge_repeated"])
        out[n, :len(classes), 0, 0] = classes
    return [out]


register("CTCGreedyDecoder", "opset1", _greedy_infer, _greedy,
         attrs=[Attr("ctc_merge_repeated", "bool", True)])


def _seq_len_infer(node: Node) -> list[ShapeType]:
    data, lengths = node._in_shape(0), node._in_shape(1)
    need(len(data) == 3, f"The rank of logits tensor must be equal to 3, got {shape_str(data)}")
    need(len(lengths) == 1, "The rank of sequence len tensor must be equal to 1, got "
         f"{shape_str(lengths)}")
    need(lengths[0] == data[0], f"The first dimensions of input tensors must match: logits "
         f"{shape_str(data)}, sequence length {shape_str(lengths)}")
    need(node._in_type(0).is_real(), "The data type for logits is expected to be a floating "
         f"point type, got {node._in_type(0).get_type_name()}")
    need(node._in_type(1) in (Type.i32, Type.i64), "The data type for sequence length is "
         f"expected to be i32 or i64, got {node._in_type(1).get_type_name()}")
    if len(node._inputs) > 2:
        blank = node._in_shape(2)
        need(len(blank) == 0 or tuple(blank) == (1,), "Expected 0D or 1D tensor for the "
             f"'blank_index' input, got {shape_str(blank)}")
    a = node._attrs
    return [((data[0], data[1]), a["classes_index_type"]), ((data[0],), a["sequence_length_type"])]


def _seq_len(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    data, lengths = xs[0], xs[1]
    N, T, C = data.shape  # noqa: N806
    blank = int(np.ravel(xs[2])[0]) if len(xs) > 2 else C - 1
    classes = np.full((N, T), -1, dtype=node._out_types[0].to_dtype())
    counts = np.zeros(N, dtype=node._out_types[1].to_dtype())
    for n in range(N):
        decoded = _decode(data[n], int(lengths[n]), blank, node._attrs["merge_repeated"])
        classes[n, :len(decoded)] = decoded
        counts[n] = len(decoded)
    return [classes, counts]


register("CTCGreedyDecoderSeqLen", "opset6", _seq_len_infer, _seq_len,
         attrs=[Attr("merge_repeated", "bool", True), Attr("classes_index_type", "type", Type.i32),
                Attr("sequence_length_type", "type", Type.i32)])


def ctc_greedy_decoder(data: NodeInput, sequence_mask: NodeInput, merge_repeated: bool = True,
                       name: str | None = None) -> Node:
    """CTCGreedyDecoder-1: ``data`` ``[T, N, C]``, ``sequence_mask`` ``[T, N]``."""
    return make_node("CTCGreedyDecoder", [data, sequence_mask],
                     {"ctc_merge_repeated": merge_repeated}, name)


def ctc_greedy_decoder_seq_len(data: NodeInput, sequence_length: NodeInput,
                               blank_index: NodeInput | None = None, merge_repeated: bool = True,
                               classes_index_type: Any = "i32",
                               sequence_length_type: Any = "i32",
                               name: str | None = None) -> Node:
    """CTCGreedyDecoderSeqLen-6: ``data`` ``[N, T, C]``, ``sequence_length`` ``[N]``, an
    optional ``blank_index`` (the last class when omitted)."""
    inputs = [as_output(data, name), as_output(sequence_length, name)]
    if blank_index is not None:
        inputs.append(as_output(blank_index, name))
    return make_node("CTCGreedyDecoderSeqLen", inputs,
                     {"merge_repeated": merge_repeated,
                      "classes_index_type": as_type(classes_index_type),
                      "sequence_length_type": as_type(sequence_length_type)}, name)
