"""Cutting a model into submodels, the mechanism under HETERO.

HETERO decides which ops go together (``plugins/hetero/``); this module builds each piece as
a runnable ``Model``, following OpenVINO's rules: every tensor that enters the piece from
outside becomes one Parameter (shared by all readers inside), every tensor read outside becomes
one Result, and Constants are not transferred but copied into each piece that reads them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .model import Model, iter_nodes
from .node import Node, Output
from .ops import RESULT, Constant, Parameter, Result

__all__ = ["Submodel", "submodel"]


@dataclass
class Submodel:
    """A piece of a model and how it connects to the original graph.

    ``inputs[i]`` is the original tensor (an ``Output`` of the original model) that feeds the
    piece's parameter ``i``; ``outputs[j]`` is the original tensor its result ``j`` carries:
    an original Result's output (``model.outputs[k]``) or an intermediate tensor that another
    piece reads. ``nodes`` are the original nodes the piece computes.
    """

    model: Model
    inputs: list[Output]
    outputs: list[Output]
    nodes: list[Node] = field(default_factory=list)


def submodel(model: Model, nodes: Iterable[str | Node], name: str | None = None) -> Submodel:
    """Build the submodel that computes ``nodes`` (friendly names or nodes of ``model``).

    Constants are pulled in as needed (selecting them is optional); an original Parameter or
    Result is kept (same names) when selected.
    """
    chosen = [n for n in iter_nodes(model, nodes) if not isinstance(n, Constant)]
    if not chosen:
        raise ValueError("submodel() needs at least one op that is not a Constant")
    inside = {id(n) for n in chosen}
    readers: dict[tuple[int, int], list[Node]] = {}
    for n in model._ops:
        for s in n._inputs:
            readers.setdefault((id(s._node), s._index), []).append(n)

    new: dict[tuple[int, int], Output] = {}
    params: list[Parameter] = []
    inputs: list[Output] = []
    results: list[Result] = []
    outputs: list[Output] = []

    def source(s: Output) -> Output:
        k = (id(s._node), s._index)
        if k not in new:
            p = s._node
            if isinstance(p, Constant):
                new[k] = p._clone([]).output(0)
            else:  # a tensor from outside the piece: one Parameter per tensor
                suffix = f".{s._index}" if p.get_output_size() > 1 else ""
                param = Parameter(p._out_shapes[s._index], p._out_types[s._index],
                                  name=p.get_friendly_name() + suffix)
                param._out_names[0] = set(p._out_names[s._index]) or {param.get_friendly_name()}
                params.append(param)
                inputs.append(s)
                new[k] = param.output(0)
        return new[k]

    for n in chosen:
        if isinstance(n, Parameter):
            clone = n._clone([])
            params.append(clone)
            inputs.append(n.output(0))
        else:
            clone = n._clone([source(s) for s in n._inputs])
        for i in range(n.get_output_size()):
            new[(id(n), i)] = clone.output(i)
        if isinstance(n, Result):
            results.append(clone)
            outputs.append(n.output(0))
            continue
        for i in range(n.get_output_size()):
            if any(id(r) not in inside and not isinstance(r, Constant)
                   for r in readers.get((id(n), i), [])):
                res = Result(RESULT, [clone.output(i)], name=f"{n.get_friendly_name()}/sink_port_{i}")
                res._out_names[0] = set(n._out_names[i]) or {res.get_friendly_name()}
                results.append(res)
                outputs.append(n.output(i))
    if not results:
        raise ValueError("The submodel has no outputs: none of its ops is read outside it and "
                         "no Result was selected")
    m = Model.__new__(Model)
    m._init(results, params, name or f"{model.get_friendly_name()}_sub", strict=False)
    return Submodel(m, inputs, outputs, chosen)
