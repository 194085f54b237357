"""How the CPU plugin runs a graph when its inference precision is bf16: a per-node plan.

The real CPU plugin (``Graph::EnforceInferencePrecision`` in intel_cpu) does not round every
tensor to bf16. Measured on an AVX-512 BF16 host against the f32 run
(``tests/data/bf16-host/``, openvino 2026.4.1), and checked live on an AMX host:

* **The tail stays f32.** Walking back from every Result, everything reached before a
  Convolution, GroupConvolution, MatMul or Interpolate is kept in f32 (a lone Softmax, Add, MVN
  ... is computed exactly as in f32). The other nodes form the *bf16 region*.
* **Conv / GroupConv / MatMul** round their inputs *and* weights to bf16 (round to nearest even)
  and accumulate in f32. A constant bias Add after one (in the region) is fused with a bf16 bias:
  the bias is rounded too. A MatMul with constant weights and such a bias becomes one
  FullyConnected with a bias input before the precision is chosen, so it counts as the MatMul
  for the tail rule.
* **Interpolate** takes bf16 and gives bf16 (even when it feeds a Result).
* **Elementwise ops** in the region run as a fused f32 kernel on their *unrounded* inputs (a
  Parameter's f32 values, or the f32 accumulator of the Conv/MatMul they are fused into) and
  round only the result. Fused into a Conv/MatMul (post-ops), their other non-constant inputs
  (a residual's shortcut) are read in bf16, as the conv reads them.
* **Every other op in the region** (Softmax, MVN, AvgPool, MaxPool, Concat, LRN, ...) takes
  bf16-rounded input from non-constant sources and gives bf16 output; constant inputs stay f32.
* **Output precision**: a region node that feeds a Result directly gives f32 (the plugin sets
  the Result's producer to the output precision); a Conv/MatMul/elementwise node whose only
  reader is an elementwise op is fused with it, so its output is not rounded either (the fused
  chain rounds once, at its end, by the last op's rule).

Kernels stay f32 NumPy; :func:`make_bf16_plan` only says, once per model, which inputs and
outputs of each node the evaluator rounds (RNE, ``kernels.round_to``), so an inference costs a few
vectorised roundings and no per-element Python.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .node import Node
from .ops import Constant, Parameter, Result

__all__ = ["Bf16Plan", "make_bf16_plan", "SIGNIFICANT", "ELEMENTWISE"]

# where the backward walk from the Results stops: the plugin's list for bf16 (RNN/ROIPooling
# /attention nodes are in it too; ovlab's graphs reach them only through these)
SIGNIFICANT = frozenset({"Convolution", "GroupConvolution", "MatMul", "Interpolate",
                         "ROIPooling", "RNNCell", "RNNSequence", "GRUCell", "GRUSequence",
                         "LSTMCell", "LSTMSequence"})
# ops that round inputs + weights to bf16 and accumulate in f32
_ACCUMULATE = frozenset({"Convolution", "GroupConvolution", "MatMul"})
# ops the plugin runs as (fusable) Eltwise / snippets kernels: f32 math on unrounded input
ELEMENTWISE = frozenset({
    "Add", "Subtract", "Multiply", "Divide", "Power", "SquaredDifference", "Maximum", "Minimum",
    "Mod", "FloorMod", "Relu", "Clamp", "Sigmoid", "Tanh", "Gelu", "Swish", "HSwish", "HSigmoid",
    "Mish", "Exp", "Log", "Sqrt", "Erf", "Abs", "Negative", "PRelu", "Elu", "Selu", "SoftPlus",
    "SoftSign", "Floor", "Ceiling", "Round", "Sign", "HardSigmoid", "Sin", "Cos", "FakeQuantize",
})


@dataclass
class Bf16Plan:
    """Per node id: which inputs are rounded to bf16 before the kernel (``round_in``) and
    whether its float outputs are rounded after it (``round_out``). Nodes absent from both run
    exactly as in f32. ``const_rounded`` caches the bf16 copies of constant inputs (weights)."""

    round_in: dict[int, tuple[bool, ...]]
    round_out: set[int]
    region: set[int]  # ids of the nodes in the bf16 region (for tests and reports)
    const_rounded: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)


def _is_float(node: Node, index: int) -> bool:
    return node._out_types[index].is_real()


def _bias_of(node: Node, const: set[int], readers: dict[int, list[Node]]) -> Node | None:
    """The Conv/GroupConv/MatMul whose bias ``node`` adds (an Add of a constant to its only
    reader), or None."""
    if node._op.type_name != "Add" or len(node._inputs) != 2:
        return None
    a, b = (s._node for s in node._inputs)
    if id(b) not in const:
        a, b = b, a
    if id(b) not in const or a._op.type_name not in _ACCUMULATE \
            or len(readers.get(id(a), ())) != 1:
        return None
    return a


def _fc_bias(node: Node, const: set[int], readers: dict[int, list[Node]]) -> bool:
    """An Add of a constant to a constant-weight MatMul: the FullyConnected's bias input."""
    a = _bias_of(node, const, readers)
    return a is not None and a._op.type_name == "MatMul" and len(a._inputs) == 2 \
        and id(a._inputs[1]._node) in const


def make_bf16_plan(ops: list[Node], const: set[int]) -> Bf16Plan:
    """The rounding points of the CPU plugin's bf16 inference for ``ops`` (topological order);
    ``const`` holds the ids of constant-only nodes (folded in f32, as the plugin folds them)."""
    readers: dict[int, list[Node]] = {}
    for n in ops:
        for s in n._inputs:
            readers.setdefault(id(s._node), []).append(n)
    fc_bias = {id(n) for n in ops if _fc_bias(n, const, readers)}

    def significant(n: Node) -> bool:
        return n._op.type_name in SIGNIFICANT or id(n) in fc_bias

    tail: set[int] = set()
    stack = [n for n in ops if isinstance(n, Result)]
    while stack:
        n = stack.pop()
        for s in n._inputs:
            p = s._node
            if significant(p) or id(p) in tail:
                continue
            tail.add(id(p))
            stack.append(p)

    # the producer each elementwise reader is fused into: one per reader, and of two (a residual
    # Add of two conv branches) the later one, which runs once the other branch's output exists
    # (the plugin's conv + sum fusion)
    chosen: dict[int, int] = {}
    by_id = {id(n): n for n in ops}
    for n in ops:
        rd = readers.get(id(n), [])
        if (n._op.type_name in _ACCUMULATE or n._op.type_name in ELEMENTWISE or id(n) in fc_bias) \
                and len(rd) == 1 and rd[0]._op.type_name in ELEMENTWISE:
            chosen[id(rd[0])] = id(n)
    fused = set(chosen.values())
    # elementwise ops fused (directly or down a chain) into a Conv/MatMul: post-ops, whose other
    # non-constant inputs (a residual's shortcut) are read in the conv's bf16
    post_op: set[int] = set()
    for n in ops:
        src = chosen.get(id(n))
        if src is not None and (src in post_op or by_id[src]._op.type_name in _ACCUMULATE):
            post_op.add(id(n))
    round_in: dict[int, tuple[bool, ...]] = {}
    round_out: set[int] = set()
    region: set[int] = set()
    for n in ops:
        nid = id(n)
        if (isinstance(n, (Parameter, Constant, Result)) or nid in tail or nid in const
                or n._op.shape_only):
            continue
        region.add(nid)
        t = n._op.type_name
        srcs = [s._node for s in n._inputs]
        floats = [_is_float(s._node, s._index) for s in n._inputs]
        if t in _ACCUMULATE:
            rin = tuple(floats)  # activations and weights
        elif nid in fc_bias or _bias_of(n, const, readers) is not None:
            # the bias input (converted to bf16 with the weights); the product is the f32
            # accumulator
            rin = tuple(f and id(p) in const for f, p in zip(floats, srcs, strict=True))
        elif t == "Interpolate":
            rin = (floats[0],) + (False,) * (len(floats) - 1)
        elif nid in post_op:
            rin = tuple(f and id(p) not in const and id(p) != chosen[nid]
                        for f, p in zip(floats, srcs, strict=True))
        elif t in ELEMENTWISE or n._op.view:
            rin = (False,) * len(floats)
        else:  # constant inputs keep f32 (the plugin skips them to keep fusing exact)
            rin = tuple(f and id(p) not in const for f, p in zip(floats, srcs, strict=True))
        if any(rin):
            round_in[nid] = rin
        if n._op.view:
            continue
        rd = readers.get(nid, [])
        if t == "Interpolate":
            round_out.add(nid)
            continue
        if any(isinstance(r, Result) for r in rd):
            continue
        if nid in fused:
            continue  # fused into its reader: rounded (or not) at the chain's end
        round_out.add(nid)
    return Bf16Plan(round_in, round_out, region)
