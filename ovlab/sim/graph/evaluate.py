"""Running a model for real: the execution plan, NumPy evaluation and storage precision.

``precision="f16"`` means f16 *storage* with f32 arithmetic, as GPUs do: every float tensor
(inputs, weights, every op's output) is rounded to float16 and back. Tensors whose element
type is f16 (an FP16 model) are rounded whatever the precision. Intermediate arrays are freed as
soon as their last reader has run, and elementwise ops overwrite their input in place when no
one else reads it, so large batches do not need memory for every activation at once.

``precision="bf16"`` is the CPU plugin's bf16 inference, which rounds only at chosen points
(``bf16.py``): f32 storage everywhere, RNE rounding of the inputs and outputs the per-model
:class:`~ovlab.graph.bf16.Bf16Plan` names; constant subgraphs are folded in f32.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .bf16 import Bf16Plan, make_bf16_plan
from .kernels import round_to
from .node import Node
from .ops import Constant, Ctx, Parameter, Result
from .types import Type, shape_str

__all__ = ["Plan", "make_plan", "evaluate", "PRECISIONS"]

PRECISIONS = ("f32", "f16", "bf16")
Key = tuple[int, int]


@dataclass
class Plan:
    """Static facts about a graph that every evaluation and cost query needs."""

    ops: list[Node]
    uses: Counter[Key]  # how many inputs read each output (Results included)
    donate: dict[int, bool]  # node id -> may overwrite input 0
    const: set[int]  # ids of nodes whose outputs depend on Constants (and static shapes) only
    shaped: set[int]  # the subset of ``const`` that depends on shapes (ShapeOf): not cached,
    #                   since a reshaped clone (BATCH's batched copy) gives other values
    _bf16: Bf16Plan | None = None  # made on the first bf16 evaluation

    def bf16(self) -> Bf16Plan:
        """The CPU plugin's bf16 rounding points for this graph (made once)."""
        if self._bf16 is None:
            self._bf16 = make_bf16_plan(self.ops, self.const)
        return self._bf16


def key(node: Node, index: int) -> Key:
    return (id(node), index)


def make_plan(ops: list[Node]) -> Plan:
    uses: Counter[Key] = Counter()
    const: set[int] = set()
    shaped: set[int] = set()
    for n in ops:
        for s in n._inputs:
            uses[key(s._node, s._index)] += 1
        if isinstance(n, (Parameter, Result)):
            continue
        if n._op.type_name in ("ReadValue", "Assign"):  # a variable: never folded
            continue
        if n._op.shape_only:
            const.add(id(n))
            shaped.add(id(n))
        elif isinstance(n, Constant) or (n._inputs
                                         and all(id(s._node) in const for s in n._inputs)):
            const.add(id(n))
            if any(id(s._node) in shaped for s in n._inputs):
                shaped.add(id(n))
            elif not isinstance(n, Constant):  # created now so clones share the folded values
                n._attrs.setdefault("_folded", {})
    donate = {}
    for n in ops:
        ok = n._op.inplace and bool(n._inputs)
        if ok:
            src = n._inputs[0]
            p = src._node
            ok = (not isinstance(p, (Parameter, Constant)) and not p._op.view
                  and id(p) not in const and uses[key(p, src._index)] == 1)
        donate[id(n)] = ok
    return Plan(ops, uses, donate, const, shaped)


def _check_precision(precision: str) -> str:
    p = str(precision).lower()
    aliases = {"fp32": "f32", "float32": "f32", "fp16": "f16", "float16": "f16",
               "bfloat16": "bf16"}
    p = aliases.get(p, p)
    if p not in PRECISIONS:
        raise ValueError(f"precision must be 'f32', 'f16' or 'bf16', got {precision!r}")
    return p


def _storage(t: Type, precision: str) -> str:
    """Which rounding a float tensor of type ``t`` gets ("f32" = none)."""
    name = t.get_type_name()
    if name in ("f16", "bf16"):
        return name
    return "f32" if precision == "bf16" else precision  # bf16: rounded at the plan's points


def _prepare_input(i: int, param: Parameter, value: object, precision: str) -> np.ndarray:
    a = np.asarray(value)
    want = param._out_shapes[0]
    if tuple(a.shape) != tuple(want):
        raise ValueError(f"Input {i} ('{param.get_friendly_name()}') has shape "
                         f"{shape_str(a.shape)}, but the model expects {shape_str(want)}")
    t = param._out_types[0]
    if not t.is_real():
        return a.astype(t.to_dtype(), copy=False)
    a = a.astype(np.float32, copy=False)
    store = _storage(t, precision)
    return round_to(a, store) if store != "f32" else a


def evaluate(ops: Sequence[Node], plan: Plan, parameters: Sequence[Parameter],
             results: Sequence[Result], inputs: Mapping[int, object],
             precision: str = "f32") -> list[np.ndarray]:
    """Compute every Result from ``inputs`` (parameter index -> array)."""
    prec = _check_precision(precision)
    missing = [i for i in range(len(parameters)) if i not in inputs]
    if missing:
        names = ", ".join(f"{i} ('{parameters[i].get_friendly_name()}')" for i in missing)
        raise ValueError(f"Missing input(s) {names}; the model has {len(parameters)} input(s)")
    with np.errstate(all="ignore"):  # NaN/inf follow the CPU plugin; NumPy's warnings stay in
        if prec == "bf16":
            return _run(ops, plan, parameters, results, inputs, "f32", plan.bf16())
        return _run(ops, plan, parameters, results, inputs, prec)


def _run(ops: Sequence[Node], plan: Plan, parameters: Sequence[Parameter],
         results: Sequence[Result], inputs: Mapping[int, object],
         prec: str, b16: Bf16Plan | None = None) -> list[np.ndarray]:
    pindex = {id(p): i for i, p in enumerate(parameters)}
    vals: dict[Key, np.ndarray] = {}
    left = Counter(plan.uses)
    kept = {(id(r), 0) for r in results}  # a Result read by another op is still an output
    for node in ops:
        nid = id(node)
        if isinstance(node, Parameter):
            i = pindex[nid]
            vals[(nid, 0)] = _prepare_input(i, node, inputs[i], prec)
            continue
        if isinstance(node, Constant):
            vals[(nid, 0)] = node._internal(prec)
            continue
        xs = [vals[(id(s._node), s._index)] for s in node._inputs]
        if isinstance(node, Result):
            outs = xs
        elif nid in plan.shaped:  # computed from shapes (ShapeOf ...): tiny, never cached
            assert node._op.compute is not None
            outs = node._op.compute(node, xs, Ctx(False, (True,) * len(node._out_shapes)))
        elif nid in plan.const:  # weights-only subgraph (e.g. FakeQuantize on weights)
            outs = _folded(node, xs, prec)
        else:
            op = node._op
            assert op.compute is not None, op.type_name
            if b16 is not None and nid in b16.round_in:
                xs = _bf16_inputs(node, xs, b16, plan)
            donate = plan.donate[nid] and xs[0].flags.writeable
            needed = tuple(left[(nid, i)] > 0 for i in range(len(node._out_shapes)))
            outs = op.compute(node, xs, Ctx(donate, needed))
            if not op.view:
                outs = [_round(a, t, prec) for a, t in zip(outs, node._out_types, strict=False)]
                if b16 is not None and nid in b16.round_out:
                    outs = [round_to(a, "bf16") if t.is_real() else a
                            for a, t in zip(outs, node._out_types, strict=False)]
        for i, a in enumerate(outs):
            vals[(nid, i)] = a
        for s in node._inputs:
            k = (id(s._node), s._index)
            left[k] -= 1
            if left[k] == 0 and k not in kept:
                del vals[k]
    return [np.array(vals[(id(r), 0)], dtype=r._out_types[0].to_dtype()) for r in results]


def _bf16_inputs(node: Node, xs: list[np.ndarray], b16: Bf16Plan, plan: Plan) -> list[np.ndarray]:
    """``xs`` with the inputs the bf16 plan names rounded to bf16 (RNE). Constant inputs
    (weights, folded in f32) are rounded once and kept."""
    out = list(xs)
    for i, (r, s) in enumerate(zip(b16.round_in[id(node)], node._inputs, strict=True)):
        if not r:
            continue
        src = id(s._node)
        if src in plan.const and src not in plan.shaped:
            k = (src, s._index)
            v = b16.const_rounded.get(k)
            if v is None:
                v = round_to(np.asarray(xs[i], dtype=np.float32), "bf16")
                v.flags.writeable = False
                b16.const_rounded[k] = v
            out[i] = v
        else:
            out[i] = round_to(xs[i], "bf16")
    return out


def _folded(node: Node, xs: list[np.ndarray], precision: str) -> list[np.ndarray]:
    """Outputs of an op fed by Constants only, computed once per precision and kept (shared
    by clones, whose Constants share their values), as a compiler would fold them."""
    cache = node._attrs["_folded"]
    if precision not in cache:
        assert node._op.compute is not None
        outs = node._op.compute(node, xs, Ctx(False, (True,) * len(node._out_shapes)))
        outs = [_round(np.array(a), t, precision) for a, t in zip(outs, node._out_types, strict=True)]
        for a in outs:
            a.flags.writeable = False
        cache[precision] = outs
    return cache[precision]


def _round(a: np.ndarray, t: Type, precision: str) -> np.ndarray:
    if not t.is_real():
        return a
    store = _storage(t, precision)
    return round_to(a, store, inplace=True) if store != "f32" else a
