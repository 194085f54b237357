"""How HETERO cuts a model: greedy affinities (``query_model``) and the subgraph collector.

Two steps, as in ``src/plugins/hetero`` (reference/openvino-semantics.md section 6):

1. *Affinities.* :func:`greedy_affinities` is ``query_model`` in automatic mode: the first device
   of the priority list takes every op it supports, the next device takes what is left and it
   supports, and so on. Parameters and Constants go with the first device that takes one of their
   consumers and Results with the device of their producer (``ov::get_supported_nodes`` drops a
   Parameter/Constant whose consumers are all unsupported, and a Result whose source is).
2. *Subgraphs.* :func:`split` groups ops of one affinity that are connected, never creating a
   cycle between groups, and :func:`make_plan` builds each group as a runnable ``ovlab.Model``
   with ``ovlab.sim.graph.submodel`` (new Parameters/Results at the cuts, Constants copied, not
   transferred) and records which tensor feeds which submodel.

Why a cycle check: GPU -> CPU -> GPU with a direct GPU -> GPU edge would put both GPU ops in one
group that both feeds and reads the CPU group, so no order could run them. OpenVINO merges the
same-affinity regions first and then adds boundaries until the cycles are gone
(``split_cyclic_dependencies``); ovlab walks the ops in topological order and lets an op join a
neighbour's group only if that keeps the group graph acyclic. Both give three submodels for that
example (two on GPU; same-device submodels are never merged). The exact cut chosen in large
graphs can differ from OpenVINO's; the invariants (every op in exactly one submodel, an acyclic
submodel graph, same results) are the same.

Two simplifications, both documented where they act: Parameters glue same-affinity consumers
together (as OpenVINO's union-find does) but edges from Parameters never count as dependencies
(a user input exists before any submodel runs, OpenVINO ignores them in its cycle check too);
Constants glue nothing (OpenVINO's union-find can fuse two regions through a shared Constant,
a rare case in real models).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ...graph import Constant, Model, Node, Output, Parameter, Result, Submodel, submodel

__all__ = ["greedy_affinities", "split", "make_plan", "Group", "SubgraphPlan", "HeteroPlan",
           "Intermediate", "tensor_bytes"]


# --- step 1: query_model in automatic mode --------------------------------------------------------
def greedy_affinities(model: Model, devices: Sequence[tuple[str, Callable[[str], bool]]]
                      ) -> dict[Node, str]:
    """``{node: device}`` for every node some device supports, first device wins.

    ``devices`` are ``(name as spelled in the priority list, supports(type_name))`` pairs in
    priority order. Nodes no device supports are absent.
    """
    ops = model.get_ordered_ops()
    consumers: dict[int, list[Node]] = {}
    for n in ops:
        for s in n.input_values():
            consumers.setdefault(id(s.get_node()), []).append(n)
    aff: dict[Node, str] = {}
    for name, supports in devices:
        step: set[int] = set()
        for n in ops:  # compute ops first: graph inputs and outputs follow them
            if n in aff or isinstance(n, (Parameter, Constant, Result)):
                continue
            if supports(n.get_type_name()):
                aff[n] = name
                step.add(id(n))
        for n in ops:
            if n in aff or not isinstance(n, (Parameter, Constant)):
                continue
            if supports(n.get_type_name()) and any(id(c) in step or isinstance(c, Result)
                                                   for c in consumers.get(id(n), [])):
                aff[n] = name
                step.add(id(n))
        for n in ops:
            if isinstance(n, Result) and n not in aff and id(n.input_value(0).get_node()) in step:
                aff[n] = name
    return aff


# --- step 2: the subgraph collector ---------------------------------------------------------------
@dataclass
class Group:
    """Ops of one affinity that become one submodel (Parameters kept, Constants left out)."""

    device: str
    nodes: list[Node]


class _Groups:
    """Union-find over group ids, with the groups each group reads from (its predecessors)."""

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.preds: list[set[int]] = []

    def new(self, preds: Iterable[int] = ()) -> int:
        g = len(self.parent)
        self.parent.append(g)
        self.preds.append(set(preds))
        return g

    def find(self, g: int) -> int:
        root = g
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[g] != root:
            self.parent[g], g = root, self.parent[g]
        return root

    def pred_roots(self, g: int) -> set[int]:
        return {self.find(p) for p in self.preds[g]}

    def creates_cycle(self, members: set[int], extra_preds: set[int]) -> bool:
        """Would fusing ``members`` (roots) and giving them ``extra_preds`` close a cycle?

        The group graph is acyclic before the change, so a new cycle must run through the fused
        group: some predecessor of it must itself depend on one of ``members``.
        """
        start: set[int] = set(extra_preds)
        for m in members:
            start |= self.pred_roots(m)
        start -= members
        seen: set[int] = set()
        stack = list(start)
        while stack:
            g = stack.pop()
            if g in seen:
                continue
            seen.add(g)
            for p in self.pred_roots(g):
                if p in members:
                    return True
                if p not in seen:
                    stack.append(p)
        return False

    def union(self, keep: int, other: int) -> int:
        self.parent[other] = keep
        self.preds[keep] |= self.preds[other]
        self.preds[keep] = self.pred_roots(keep) - {keep}
        return keep


def _effective_affinity(ops: Sequence[Node], affinity: Mapping[Node, str]) -> dict[Node, str]:
    """Results inherit their producer's affinity (``SubgraphCollector::init``)."""
    aff: dict[Node, str] = {}
    for n in ops:
        if isinstance(n, Constant):
            continue
        if isinstance(n, Result):
            src = n.input_value(0).get_node()
            aff[n] = aff.get(src, affinity.get(n, ""))
        else:
            aff[n] = affinity[n]
    return aff


def split(model: Model, affinity: Mapping[Node, str]) -> list[Group]:
    """Cut ``model`` into groups of connected same-affinity ops, in a runnable order.

    ``affinity`` must give every Parameter and compute op a device (Results inherit their
    producer's, Constants are ignored). Groups are returned topologically sorted (a group only
    reads tensors of earlier groups or the model's inputs), ties broken by the position of the
    group's first op, so the result is deterministic.
    """
    ops = model.get_ordered_ops()
    order = {id(n): i for i, n in enumerate(ops)}
    aff = _effective_affinity(ops, affinity)
    groups = _Groups()
    gid: dict[int, int] = {}
    for n in ops:
        if isinstance(n, Constant):
            continue
        if isinstance(n, Parameter):
            gid[id(n)] = groups.new()
            continue
        sources = [s.get_node() for s in n.input_values()
                   if not isinstance(s.get_node(), Constant)]
        deps = {groups.find(gid[id(s)]) for s in sources if not isinstance(s, Parameter)}
        same: list[int] = []
        for s in sources:
            if aff[s] == aff[n]:
                g = groups.find(gid[id(s)])
                if g not in same:
                    same.append(g)
        target: int | None = None
        for g in same:
            g = groups.find(g)
            now = {groups.find(d) for d in deps}  # roots change as groups fuse
            if target is None:
                if not groups.creates_cycle({g}, now - {g}):
                    target = g
            elif g != target and not groups.creates_cycle({target, g}, now - {target, g}):
                target = groups.union(target, g)
        now = {groups.find(d) for d in deps}
        if target is None:
            target = groups.new(now)
        else:
            groups.preds[target] = (groups.pred_roots(target) | now) - {target}
        gid[id(n)] = target

    members: dict[int, list[Node]] = {}
    for n in ops:
        if id(n) in gid:
            members.setdefault(groups.find(gid[id(n)]), []).append(n)
    # a Parameter whose consumers all went elsewhere is fed to them directly: no submodel of its own
    live = {g: ns for g, ns in members.items() if any(not isinstance(x, Parameter) for x in ns)}
    placed: list[int] = []
    done: set[int] = set()
    pending = sorted(live, key=lambda g: order[id(live[g][0])])
    while pending:
        for g in pending:
            if groups.pred_roots(g) & set(live) <= done:
                placed.append(g)
                done.add(g)
                pending.remove(g)
                break
        else:  # pragma: no cover - split() never builds a cycle
            raise RuntimeError("Cannot sort subgraphs!")
    return [Group(aff[next(x for x in live[g] if not isinstance(x, Parameter))], live[g])
            for g in placed]


# --- step 3: submodels and the tensors between them -----------------------------------------------
def tensor_bytes(out: Output) -> int:
    """Bytes of the tensor an output port carries (shape x element size)."""
    dtype = np.dtype(out.get_element_type().to_dtype())
    return int(np.prod(list(out.get_shape()), dtype=np.int64)) * dtype.itemsize


@dataclass
class Intermediate:
    """One tensor crossing between submodels: one host buffer shared by all its readers."""

    producer: int  # submodel index
    output: int  # index of the producer submodel's output
    source: Output  # the tensor in the original model
    consumers: list[tuple[int, int]]  # (submodel index, parameter index)
    nbytes: int


@dataclass
class SubgraphPlan:
    """One submodel: which device runs it and where each of its inputs comes from."""

    index: int
    device: str
    nodes: list[Node]  # original nodes it computes
    part: Submodel
    sources: list[tuple[int, int]]  # per parameter: (-1, model input index) or (submodel, output)

    @property
    def model(self) -> Model:
        return self.part.model


@dataclass
class HeteroPlan:
    """Everything HETERO decided about a model before compiling it."""

    model: Model
    affinity: dict[Node, str]  # every non-Constant node (Results: their producer's)
    subgraphs: list[SubgraphPlan]
    outputs: list[tuple[int, int]]  # per model result: (submodel, output index)
    intermediates: list[Intermediate] = field(default_factory=list)

    @property
    def devices(self) -> list[str]:
        """Unique submodel devices in submodel order (EXECUTION_DEVICES)."""
        out: list[str] = []
        for sg in self.subgraphs:
            if sg.device not in out:
                out.append(sg.device)
        return out

    def subgraph_of(self) -> dict[Node, int]:
        return {n: sg.index for sg in self.subgraphs for n in sg.nodes
                if not isinstance(n, Parameter)}


def make_plan(model: Model, affinity: Mapping[Node, str]) -> HeteroPlan:
    """Split ``model`` and build every submodel (named ``<model>_<i>``)."""
    groups = split(model, affinity)
    name = model.get_friendly_name()
    params = {id(p): i for i, p in enumerate(model.get_parameters())}
    produced: dict[Output, tuple[int, int]] = {}
    subgraphs: list[SubgraphPlan] = []
    readers: dict[Output, list[tuple[int, int]]] = {}
    for i, g in enumerate(groups):
        part = submodel(model, g.nodes, name=f"{name}_{i}")
        sources: list[tuple[int, int]] = []
        for j, src in enumerate(part.inputs):
            node = src.get_node()
            if id(node) in params:
                sources.append((-1, params[id(node)]))
            else:
                sources.append(produced[src])  # split() sorted the groups: always known here
                readers.setdefault(src, []).append((i, j))
        for k, out in enumerate(part.outputs):
            produced[out] = (i, k)
        subgraphs.append(SubgraphPlan(i, g.device, g.nodes, part, sources))
    outputs = [produced[r.output(0)] for r in model.get_results()]
    inter = [Intermediate(produced[src][0], produced[src][1], src, cons, tensor_bytes(src))
             for src, cons in readers.items()]
    return HeteroPlan(model, _effective_affinity(model.get_ordered_ops(), affinity), subgraphs,
                      outputs, inter)
