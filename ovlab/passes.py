"""``openvino.passes``: the pass manager and the two passes device-level code runs.

``Manager().register_pass(...)`` then ``run_passes(model)``, as in OpenVINO, with
``ConstantFolding`` (every subgraph that reads only constants is computed once, with ovlab's
NumPy kernels, and becomes a Constant of the same friendly name) and ``Serialize`` (the model
as IR files, as ``openvino.serialize`` writes them), and the pattern-matching passes:
``MatcherPass`` (a ``Matcher`` over a pattern of ``WrapType``, ``AnyInput``, ``Or``,
``Optional`` nodes, and a callback that rewrites what matched), ``GraphRewrite`` and
``BackwardGraphRewrite`` (several MatcherPasses over every node, in topological or reverse
order), with the wheel's predicates (``consumers_count``, ``has_static_shape``...). The
matching itself lives in ``ovlab/sim/graph/pattern.py``. ``MakeStateful`` turns
Parameter/Result pairs into a variable read by ReadValue and written by Assign;
``ConvertFP32ToFP16`` moves the model's f32 to f16. LowLatency2 and VisualizeTree are C++
transformations ovlab does not offer: the runner serves them as stand-ins
(``ovlab/sim/runner/standins.py``).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable
from typing import Any

from .properties._base import OVEnum, add_entries
from .sim.graph import node as _node
from .sim.graph.model import Model
from .sim.graph.node import Node
from .sim.graph.ops import Constant, Parameter, Result, constant_value
from .sim.graph.pattern import (
    AnyInput,
    Matcher,
    Optional,
    Or,
    Predicate,
    WrapType,
    attrs_match,
    consumers_count,
    has_static_dim,
    has_static_dims,
    has_static_rank,
    has_static_shape,
    rank_equals,
    shape_matches,
    type_matches,
    type_matches_any,
)

__all__ = ["AnyInput", "BackwardGraphRewrite", "ConstantFolding", "ConvertFP32ToFP16", "GraphRewrite",
           "MakeStateful",
           "Manager", "Matcher", "MatcherPass", "ModelPass", "Optional", "Or", "PassBase", "Predicate",
           "Serialize", "Version", "WrapType", "attrs_match", "consumers_count",
           "has_static_dim", "has_static_dims", "has_static_rank", "has_static_shape",
           "rank_equals", "shape_matches", "type_matches", "type_matches_any"]


class Version(OVEnum):
    """The IR version ``Serialize`` writes (UNSPECIFIED: the newest, v11)."""

    UNSPECIFIED = 0
    IR_V10 = 10
    IR_V11 = 11


add_entries(Version)


class PassBase:
    """What ``Manager.register_pass`` takes: a pass with a name. Names default to the wheel's:
    the C++ class name (``ov::pass::ConstantFolding``), or ``PyModelPass`` / ``PyMatcherPass``
    for a pass written in Python."""

    _cpp_name = "ov::pass::PassBase"
    _py_name: str | None = None  # the name of a Python subclass, when it differs

    def __init__(self) -> None:
        base = type(self).__module__ == __name__
        self._name = self._cpp_name if base or self._py_name is None else self._py_name

    def get_name(self) -> str:
        return self._name

    def set_name(self, name: str) -> None:
        self._name = str(name)

    def run_on_model(self, model: Model) -> None:
        """Transform ``model`` in place (the binding returns None, whether it changed or not;
        ovlab's passes say whether they changed it in ``_run``)."""
        raise RuntimeError("Tried to call pure virtual function "
                           '"ov::pass::ModelPass::run_on_model"')


class ModelPass(PassBase):
    """A pass over a whole model (subclass it and write ``run_on_model``)."""

    _cpp_name = _py_name = "PyModelPass"


def _refresh(model: Model) -> None:
    """Re-plan ``model`` after its graph was edited in place (nodes replaced or inserted)."""
    name, friendly, rt_info = model._name, model._friendly_name, model._rt_info
    model._init(model.get_results(), model.get_parameters(), friendly, strict=False)
    model._name, model._rt_info = name, rt_info


class ConstantFolding(ModelPass):
    """Compute every node whose inputs are all constant and put a Constant in its place."""

    _cpp_name = _py_name = "ov::pass::ConstantFolding"

    def run_on_model(self, model: Model) -> None:
        self._run(model)

    def _run(self, model: Model) -> bool:
        """Fold; True when something was folded."""
        plan = model._plan
        folded = [n for n in model.get_ordered_ops()
                  if id(n) in plan.const and not isinstance(n, (Constant, Parameter, Result))]
        frontier = [n for n in folded if any(
            id(c) not in plan.const or isinstance(c, Result)
            for out in n.outputs() for c in (t.get_node() for t in out.get_target_inputs()))]
        if not frontier:
            return False
        outs = [out for n in frontier for out in n.outputs()]
        # each value from the Constants and static shapes it depends on: a ShapeOf of a
        # Parameter's branch folds too, and a sub-model of it would lack that Parameter
        values = [constant_value(o) for o in outs]
        if any(v is None for v in values):
            values = Model([Result(o) for o in outs], [])._evaluate([])
        for out, value in zip(outs, values, strict=True):
            const = Constant(value.astype(out.get_element_type().to_dtype(), copy=False))
            const.set_friendly_name(out.get_node().get_friendly_name())
            const.output(0).get_rt_info().update(dict(out.get_rt_info()))
            out.replace(const.output(0))
        _refresh(model)
        return True


class ConvertFP32ToFP16(ModelPass):
    """The model in f16 where it was f32, as OpenVINO's ``ConvertPrecision(f32 -> f16)``:
    f32 Parameters become f16 inputs, f32 Constants are rounded to f16, attributes that name
    f32 (a Convert's destination type...) name f16, and every node re-infers its types."""

    _cpp_name = _py_name = "ov::pass::ConvertFP32ToFP16"

    def run_on_model(self, model: Model) -> None:
        from .sim.graph.types import Type

        for node in model.get_ordered_ops():
            if isinstance(node, Parameter) and node.get_element_type() == Type.f32:
                node.set_element_type(Type.f16)
            elif isinstance(node, Constant) and node.get_element_type() == Type.f32:
                const = Constant(node.get_data().astype("float16"))
                const.set_friendly_name(node.get_friendly_name())
                const.output(0).get_rt_info().update(dict(node.output(0).get_rt_info()))
                node.output(0).replace(const.output(0))
            else:
                for key, value in list(node._attrs.items()):
                    if isinstance(value, Type) and value == Type.f32:
                        node._attrs[key] = Type.f16
        _refresh(model)
        model.validate_nodes_and_infer_types()


class MakeStateful(ModelPass):
    """Each (Parameter, Result) pair becomes a model state: a variable named after the two
    tensors (``"parameter" + "result"``), a ReadValue that takes the Parameter's place (and
    tensor names) and an Assign of what the Result received, added as a sink; the Parameter
    and the Result leave the model. Pairs are given by tensor names (``{"in": "out"}``) or as
    node pairs (``[(param, result)]``), as OpenVINO's ``ov::pass::MakeStateful`` takes them."""

    _cpp_name = _py_name = "ov::pass::MakeStateful"

    def __init__(self, pairs: Any) -> None:
        super().__init__()
        if isinstance(pairs, dict):
            self._names: dict[str, str] | None = {str(k): str(v) for k, v in pairs.items()}
            self._pairs: list[tuple[Parameter, Result]] = []
        else:
            self._names = None
            self._pairs = [(p, r) for p, r in pairs]

    def run_on_model(self, model: Model) -> None:
        from .sim.graph.state_ops import Assign, ReadValue
        from .sim.graph.variables import Variable, VariableInfo

        pairs = list(self._pairs)
        if self._names is not None:
            for p_name, r_name in self._names.items():
                param = next((p for p in model.get_parameters()
                              if p_name in p.output(0).get_names()), None)
                if param is None:
                    raise RuntimeError(f"The tensor name {p_name} is not associated with any of "
                                       "Parameters in the network.")
                result = next((r for r in model.get_results()
                               if r_name in r.output(0).get_names()), None)
                if result is None:
                    raise RuntimeError(f"The tensor name {r_name} is not associated with any of "
                                       "Results in the network.")
                pairs.append((param, result))
        for param, result in pairs:
            info = VariableInfo()
            info.data_shape = param.get_output_partial_shape(0)
            info.data_type = param.get_output_element_type(0)
            info.variable_id = (param.output(0).get_any_name() if param.output(0).get_names()
                                else param.get_friendly_name()) + \
                (result.output(0).get_any_name() if result.output(0).get_names()
                 else result.get_friendly_name())
            variable = Variable(info)
            read = ReadValue(variable)
            read.output(0).set_names(set(param.output(0).get_names()))
            param.output(0).replace(read.output(0))
            assign = Assign(result.input_value(0), variable=variable)
            model.add_variables([variable])
            model.remove_result(result)
            model.remove_parameter(param)
            model.add_sinks([assign])  # (re-plans the model: sinks and variables kept)


class Serialize(ModelPass):
    """Write the model as IR files (``path_to_xml`` and ``path_to_bin``) when the manager runs."""

    _cpp_name = _py_name = "ov::pass::Serialize"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        names = ("path_to_xml", "path_to_bin", "version")
        given = dict(zip(names, args, strict=False))
        if len(args) > len(names) or set(kwargs) - set(names) or set(given) & set(kwargs) or \
                len({**given, **kwargs}.keys() & {"path_to_xml", "path_to_bin"}) != 2:
            shown = ", ".join([*(repr(a) for a in args), *(f"{k}={v!r}" for k, v in
                                                           kwargs.items())])
            raise TypeError(
                "__init__(): incompatible constructor arguments. The following argument types "
                "are supported:\n    1. openvino._pyopenvino.passes.Serialize(path_to_xml: "
                "object, path_to_bin: object, version: object = None)\n\nInvoked with: "
                f"{shown}")
        given.update(kwargs)
        self._xml, self._bin = os.fspath(given["path_to_xml"]), os.fspath(given["path_to_bin"])
        version = given.get("version")
        self._version = "UNSPECIFIED" if version is None else (
            version.name if isinstance(version, Version) else str(version))
        if self._version not in ("UNSPECIFIED", "IR_V10", "IR_V11"):
            raise RuntimeError("Exception from src/bindings/python/src/pyopenvino/utils/"
                               "utils.cpp:399:\nInvoked with wrong version argument: "
                               f"'{self._version}'! The supported versions are: "
                               "'UNSPECIFIED'(default), 'IR_V10', 'IR_V11'.\n")

    def run_on_model(self, model: Model) -> None:
        from .sim.frontends import serialize

        serialize(model, self._xml, self._bin, self._version)


class MatcherPass(PassBase):
    """One pattern and the callback that rewrites what it matched (``ov::pass::MatcherPass``).

    Subclass it and call ``register_matcher(Matcher(pattern, name), callback)`` in
    ``__init__``, or build it as ``MatcherPass(matcher, callback)``. The callback gets the
    Matcher (``get_match_root()``, ``get_pattern_value_map()``) and returns True when it
    changed the graph; nodes it hands to ``register_new_node`` are matched next.
    """

    _cpp_name, _py_name = "ov::pass::MatcherPass", "PyMatcherPass"

    def __init__(self, *args: Any) -> None:
        super().__init__()
        self._matcher: Matcher | None = None
        self._callback: Callable[[Matcher], bool] | None = None
        self._new_nodes: list[Node] = []
        if len(args) == 2 and isinstance(args[0], Matcher) and callable(args[1]):
            self.register_matcher(*args)
        elif args:
            raise TypeError(
                "__init__(): incompatible constructor arguments. The following argument types "
                "are supported:\n    1. openvino._pyopenvino.passes.MatcherPass()\n    2. "
                "openvino._pyopenvino.passes.MatcherPass(matcher: openvino._pyopenvino.passes."
                "Matcher, callback: collections.abc.Callable[[openvino._pyopenvino.passes."
                "Matcher], bool])\n\nInvoked with: " + ", ".join(repr(a) for a in args))

    def register_matcher(self, matcher: Matcher, callback: Callable[[Matcher], bool]) -> None:
        if not isinstance(matcher, Matcher) or not callable(callback):
            raise TypeError(
                "register_matcher(): incompatible function arguments. The following argument "
                "types are supported:\n    1. (self: openvino._pyopenvino.passes.MatcherPass, "
                "matcher: openvino._pyopenvino.passes.Matcher, callback: collections.abc."
                "Callable[[openvino._pyopenvino.passes.Matcher], bool]) -> None\n\nInvoked "
                f"with: {self!r}, {matcher!r}, {callback!r}")
        self._matcher, self._callback = matcher, callback

    def register_new_node(self, node: Node) -> Node:
        """Queue ``node`` (made by the callback) to be matched right after this one."""
        self._new_nodes.append(node)
        return node

    def apply(self, node: Node) -> bool:
        """Match the pattern at ``node``'s output 0 and, if it matches, run the callback;
        returns what the callback returned."""
        self._new_nodes = []
        if self._matcher is None or node.get_output_size() == 0:
            return False
        try:
            if not self._matcher.match(node.output(0)):
                return False
            return bool(self._callback(self._matcher))
        finally:
            self._matcher._clear()

    def __repr__(self) -> str:
        return "<MatcherPass>"


class GraphRewrite(ModelPass):
    """Runs its MatcherPasses over every node of the model in topological order; on each node
    the first pass whose callback returns True wins (``ov::pass::GraphRewrite``)."""

    _cpp_name = _py_name = "ov::pass::GraphRewrite"
    _backward = False

    def __init__(self) -> None:
        super().__init__()
        self._matchers: list[MatcherPass] = []

    def add_matcher(self, transformation: MatcherPass) -> MatcherPass:
        """Append a MatcherPass to the end of the execution list; returns it."""
        if not isinstance(transformation, MatcherPass):
            raise TypeError(
                "add_matcher(): incompatible function arguments. The following argument types "
                f"are supported:\n    1. (self: openvino._pyopenvino.passes.{type(self).__name__},"
                " pass: openvino._pyopenvino.passes.MatcherPass) -> openvino._pyopenvino.passes."
                f"MatcherPass\n\nInvoked with: <{type(self).__name__}>, {transformation!r}")
        self._matchers.append(transformation)
        return transformation

    def run_on_model(self, model: Model) -> None:
        _apply_matchers(model, self._matchers, self._backward)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class BackwardGraphRewrite(GraphRewrite):
    """A GraphRewrite that visits the nodes from the results back to the parameters."""

    _cpp_name = _py_name = "ov::pass::BackwardGraphRewrite"
    _backward = True


def _apply_matchers(model: Model, passes: list[MatcherPass], backward: bool) -> bool:
    """``GraphRewrite::apply_matcher_passes``: a queue of the model's ops (in order, or
    reversed), each tried with every pass until one rewrites it; the nodes a pass registers go
    to the front of the queue. A node the rewrites cut out of the model is skipped, as OpenVINO
    skips a node that died (its queue holds weak pointers)."""
    queue = deque(model.get_ordered_ops())
    if backward:
        queue.reverse()
    rewritten = False
    alive: set[int] = set()
    seen_edits = -1
    while queue:
        node = queue.popleft()
        if seen_edits != _node.EDITS[0]:
            _refresh(model)
            alive = {id(n) for n in model.get_ordered_ops()}
            seen_edits = _node.EDITS[0]
        if id(node) not in alive:
            continue
        for transformation in passes:
            status = transformation.apply(node)
            queue.extendleft(reversed(transformation._new_nodes))
            transformation._new_nodes = []
            if status:
                rewritten = True
                break
    if seen_edits != _node.EDITS[0]:
        _refresh(model)
    return rewritten


class Manager:
    """Holds passes and runs them in the order registered (``openvino.passes.Manager``)."""

    def __init__(self) -> None:
        self._passes: list[PassBase] = []
        self._validate = False

    def register_pass(self, *args: Any, **kwargs: Any) -> PassBase:
        """Add one pass instance (positionally, or as ``transformation=``); returns it. A
        class, a name or anything else is refused, as the binding refuses it."""
        given = [*args, *kwargs.values()]
        if len(given) != 1 or set(kwargs) - {"transformation"} or \
                not isinstance(given[0], PassBase):
            shown = ", ".join(["<Manager>", *(repr(a) for a in args),
                               *(f"{k}={v!r}" for k, v in kwargs.items())])
            raise TypeError(
                "register_pass(): incompatible function arguments. The following argument "
                "types are supported:\n    1. (self: openvino._pyopenvino.passes.Manager, "
                "transformation: openvino._pyopenvino.passes.PassBase) -> openvino._pyopenvino."
                f"passes.PassBase\n\nInvoked with: {shown}")
        self._passes.append(given[0])
        return given[0]

    def set_per_pass_validation(self, new_state: bool) -> None:
        self._validate = bool(new_state)

    def run_passes(self, model: Model) -> None:
        if not isinstance(model, Model):
            raise TypeError(f"run_passes(): expected a Model, got {model!r}")
        for transformation in self._passes:
            if isinstance(transformation, MatcherPass):  # as the binding wraps it
                _apply_matchers(model, [transformation], backward=False)
            else:
                transformation.run_on_model(model)
