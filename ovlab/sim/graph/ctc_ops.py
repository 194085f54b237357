"""CTCLoss-4: the connectionist temporal classification loss of each sequence of a batch.

``logits [N, T, C]`` (unnormalized: a log-softmax over the classes is taken per frame),
``logit_length [N]``, ``labels [N, T]``, ``label_length [N]`` and an optional scalar
``blank_index`` (``C - 1`` when not given); the output ``[N]`` is minus the log probability of
all alignments of each target. OpenVINO's ``reference/ctc_loss.hpp`` enumerates the
alignments one by one; this kernel sums the same alignments with the forward (alpha)
recursion, which gives the same value in polynomial time: with ``ctc_merge_repeated`` a label
may span several frames (blank needed between two equal labels), without it each label takes
exactly one frame. ``preprocess_collapse_repeated`` merges repeated labels of the target first,
``unique`` keeps each label's first occurrence only.
"""

from __future__ import annotations

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import NodeInput, make_node, need, register

__all__ = ["ctc_loss"]


def _ctc_infer(node: Node) -> list[ShapeType]:
    logits, logit_len, labels, label_len = (node._in_shape(i) for i in range(4))
    t = node._in_type(0)
    need(t.is_real(), f"The logits type is expected to be a floating point type. Got: "
         f"{t.get_type_name()}")
    names = ("logit length", "labels", "label length", "blank index")
    for i, what in enumerate(names[:len(node._inputs) - 1], start=1):
        ti = node._in_type(i).get_type_name()
        need(ti in ("i32", "i64"), f"The {what} type is expected to be an integer type. "
             f"Got: {node._in_type(i).get_type_name()}")
    need(len(logits) == 3, f"Expected a 3D tensor for logits. Got: [{','.join(map(str, logits))}]")
    need(len(logit_len) == 1, "Expected a 1D tensor for logit length. Got: "
         f"[{','.join(map(str, logit_len))}]")
    need(len(labels) == 2, f"Expected a 2D tensor for labels. Got: [{','.join(map(str, labels))}]")
    need(len(label_len) == 1, "Expected a 1D tensor for label length. Got: "
         f"[{','.join(map(str, label_len))}]")
    if len(node._inputs) == 5:
        need(len(node._in_shape(4)) == 0, "Expected a scalar for blank index. Got: "
             f"[{','.join(map(str, node._in_shape(4)))}]")
    n = logits[0]
    need(logit_len[0] == n, "The first dimension of logit length must be equal to the first "
         f"dimension of the logits. Got: {logit_len[0]} and: {n}")
    need(labels[0] == n, "The first dimension of labels must be equal to the first dimension "
         f"of the logits and the logit length. Got: {labels[0]} and: {n}")
    need(label_len[0] == n, "The first dimension of label length must be equal to the first "
         f"dimension of the logits, the logit length and labels. Got: {label_len[0]} and: {n}")
    need(labels[1] == logits[1], "The second dimension of labels must be equal to the second "
         f"dimension of logits. Got: {labels[1]} and: {logits[1]}")
    return [((n,), t)]


def _target(labels: np.ndarray, length: int, collapse: bool, unique: bool) -> list[int]:
    seq = [int(v) for v in labels[:length]]
    if unique:
        seen: set[int] = set()
        return [v for v in seq if not (v in seen or seen.add(v))]  # type: ignore[func-returns-value]
    if collapse:
        return [v for i, v in enumerate(seq) if i == 0 or v != seq[i - 1]]
    return seq


def _loss(logp: np.ndarray, target: list[int], blank: int, merge: bool) -> float:
    """Minus the log-sum of the alignments' probabilities (``logp``: ``[T, C]`` log-softmax)."""
    if not target:
        return 0.0  # the reference's result for an empty target (its search starts past the end)
    steps = logp.shape[0]
    if not merge:  # alpha[s]: s labels emitted so far, each on exactly one frame
        alpha = np.full(len(target) + 1, -np.inf)
        alpha[0] = 0.0
        for t in range(steps):
            emit = alpha[:-1] + logp[t, target]
            alpha = np.logaddexp(alpha + logp[t, blank], np.concatenate([[-np.inf], emit]))
        return float(-alpha[-1])
    ext = [blank]
    for v in target:
        ext += [v, blank]
    ext_a = np.array(ext)
    skip = np.zeros(len(ext), bool)  # s may come from s - 2: a label unlike the one before it
    skip[3::2] = ext_a[3::2] != ext_a[1:-2:2]
    alpha = np.full(len(ext), -np.inf)
    alpha[0], alpha[1] = logp[0, blank], logp[0, ext[1]]
    for t in range(1, steps):
        prev1 = np.concatenate([[-np.inf], alpha[:-1]])
        prev2 = np.where(skip, np.concatenate([[-np.inf, -np.inf], alpha[:-2]]), -np.inf)
        alpha = np.logaddexp(np.logaddexp(alpha, prev1), prev2) + logp[t, ext_a]
    return float(-np.logaddexp(alpha[-1], alpha[-2]))


def _ctc(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    a = node._attrs
    logits = xs[0].astype(np.float64)
    n, steps, classes = logits.shape
    blank = int(np.asarray(xs[4]).reshape(())) if len(xs) == 5 else classes - 1
    out = np.zeros(n, np.float64)
    for b in range(n):
        t_len, l_len = int(xs[1][b]), int(xs[3][b])
        need(t_len <= steps and l_len <= steps and l_len <= t_len,
             "Logit or label length cannot greater than max sequencelength. Also a label length "
             f"cannot be greater than alogit length.\nMaxSeqLen: {steps}; Logit len: {t_len}; "
             f"Label len: {l_len}")
        lg = logits[b, :t_len]
        logp = lg - np.log(np.exp(lg).sum(axis=1, keepdims=True))
        tgt = _target(xs[2][b], l_len, a["preprocess_collapse_repeated"], a["unique"])
        out[b] = _loss(logp, tgt, blank, a["ctc_merge_repeated"])
    return [out.astype(np.float32)]


def _ctc_flops(node: Node) -> float:
    n, t, c = node._in_shape(0)
    return float(n * t * (3 * c + 6 * t))


register("CTCLoss", "opset4", _ctc_infer, _ctc, _ctc_flops,
         attrs=[Attr("preprocess_collapse_repeated", "bool", False),
                Attr("ctc_merge_repeated", "bool", True), Attr("unique", "bool", False)])


def ctc_loss(logits: NodeInput, logit_length: NodeInput, labels: NodeInput,
             label_length: NodeInput, blank_index: NodeInput | None = None,
             preprocess_collapse_repeated: bool = False, ctc_merge_repeated: bool = True,
             unique: bool = False, name: str | None = None) -> Node:
    """CTCLoss-4 (``openvino.opset4``+): the loss ``[N]`` of each sequence."""
    inputs = [logits, logit_length, labels, label_length]
    if blank_index is not None:
        inputs.append(blank_index)
    return make_node("CTCLoss", inputs,
                     {"preprocess_collapse_repeated": preprocess_collapse_repeated,
                      "ctc_merge_repeated": ctc_merge_repeated, "unique": unique}, name)
