"""What each op costs: FLOPs and bytes moved, the inputs of the simulated devices' cost models.

Counting rules (documented here because the timings of every virtual device rest on them):

* FLOPs: 2 per multiply-accumulate for Convolution, GroupConvolution and MatMul; about one per
  output element for simple elementwise ops (Relu, Add, Convert ...); a few per element for
  Sigmoid (4), Softmax (5), FakeQuantize (6) and LRN (window + 5); one per window element for
  pooling; one per input element for ReduceMean.
* Bytes: every input read (activations and weights) plus every output written, **at f32 size
  (4 bytes) for every float tensor whatever the model's precision**; the runtime rescales for
  f16/INT8 itself. Integer tensors count at their own size. MaxPool's indices count only when
  something reads them.
* View ops (Reshape, Squeeze, Unsqueeze) move no data and cost nothing, like OpenVINO's CPU
  plugin which does not run them. Transpose and Concat move data but do no arithmetic.
* Ops that depend on Constants only (e.g. FakeQuantize on weights) are folded when a model is
  compiled, as OpenVINO does, so they cost nothing per inference.
* ``batch``: the model's own batch is the reference; activations and FLOPs scale by
  ``batch / model batch``, weights do not.
"""

from __future__ import annotations

from typing import NamedTuple

from .evaluate import Plan, key
from .node import Node
from .ops import Constant, Parameter, Result, numel
from .types import Type

__all__ = ["OpCost", "op_costs"]

_FREE = {"Reshape", "Squeeze", "Unsqueeze"}


class OpCost(NamedTuple):
    """Work of one op for one inference of ``batch`` samples."""

    name: str
    type_name: str
    flops: int
    bytes_read: int
    bytes_written: int


def _nbytes(shape: tuple[int, ...], t: Type) -> int:
    return numel(shape) * (4 if t.is_real() else t.size)


def op_costs(plan: Plan, model_batch: int, batch: int) -> list[OpCost]:
    """One ``OpCost`` per compute op of the plan, in topological order."""
    if batch < 1:
        raise ValueError(f"batch must be at least 1, got {batch}")
    scale = batch / max(model_batch, 1)
    out: list[OpCost] = []
    for n in plan.ops:
        if isinstance(n, (Parameter, Constant, Result)):
            continue
        out.append(_cost(n, plan, scale))
    return out


def _cost(n: Node, plan: Plan, scale: float) -> OpCost:
    name, t = n.get_friendly_name(), n.get_type_name()
    if t in _FREE or id(n) in plan.const:
        return OpCost(name, t, 0, 0, 0)
    act_read = weights = 0
    for s in n._inputs:
        b = _nbytes(s._node._out_shapes[s._index], s._node._out_types[s._index])
        if id(s._node) in plan.const:
            weights += b
        else:
            act_read += b
    written = sum(_nbytes(shape, typ) for i, (shape, typ) in
                  enumerate(zip(n._out_shapes, n._out_types, strict=False))
                  if i == 0 or plan.uses[key(n, i)] > 0)
    return OpCost(name, t, round(n._op.flops(n) * scale), round(act_read * scale + weights),
                  round(written * scale))
