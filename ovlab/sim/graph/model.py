"""``Model``: a graph of nodes from Results back to Parameters, like ``openvino.Model``.

Besides OpenVINO's public API, the runtime and plugins use a few underscore methods
(``_evaluate``, ``_cost``, ``_batch_size``, ``_is_batchable``, ``_with_batch``); see
``docs/graph-contract.md``. Models are static: ``reshape`` changes the input shapes and re-runs
shape inference, and restores the old shapes if any op rejects the new ones.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from . import dynamic
from . import node as _node_mod
from .costs import OpCost, op_costs
from .evaluate import Plan, evaluate, make_plan
from .node import Named, Node, NodeValidationError, Output
from .ops import RESULT, Parameter, Result
from .ops import _static as _declared_shape
from .types import PartialShape, Shape, Type, shape_str
from .variables import Variable, variable_of

__all__ = ["Model", "model_precision"]

_model_ids = itertools.count(0)


def _as_result(r: Any) -> Result:
    if isinstance(r, Result):
        return r
    if isinstance(r, Node):
        r = r.output(0)
    if not isinstance(r, Output):
        raise TypeError(f"Model results must be Result nodes, nodes or outputs, got {r!r}")
    return Result(RESULT, [r])


def _toposort(results: Sequence[Node], parameters: Sequence[Node]) -> list[Node]:
    """OpenVINO's ``topological_sort``: a stack seeded with the results then the parameters
    (so parameters come first, last one first, then each result's inputs depth-first, last
    result first). Matching it keeps op order, and so HETERO's subgraph numbering, the same."""
    order: list[Node] = []
    done: set[int] = set()
    visited: set[int] = set()
    on_path: set[int] = set()
    stack: list[Node] = [*results, *parameters]
    while stack:
        node = stack[-1]
        nid = id(node)
        if nid in done:
            stack.pop()
            continue
        if nid not in visited:
            visited.add(nid)
            on_path.add(nid)
            pending = [s._node for s in reversed(node._inputs) if id(s._node) not in done]
            for dep in pending:
                if id(dep) in on_path:
                    raise NodeValidationError(
                        f"The graph has a cycle through '{dep.get_friendly_name()}' "
                        f"({dep.get_type_name()}): a model must be acyclic")
            if pending:
                stack.extend(pending)
                continue
        stack.pop()
        on_path.discard(nid)
        done.add(nid)
        order.append(node)
    return order


# a Parameter's new shape as nodes store it (a tuple of ints, or the PartialShape of a dynamic
# one, which builds and does not compile): the rule a Parameter's declared shape follows
_input_shape = _declared_shape


def _dims(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, str):
        return tuple(int(d) for d in PartialShape(shape)._dims)
    if isinstance(shape, PartialShape):
        return shape._dims
    dims = tuple(int(d) for d in shape)
    if any(d < 0 for d in dims):
        raise ValueError(f"ovlab models are static: cannot reshape to {list(dims)} "
                         "(dynamic dimensions are not supported)")
    return dims


class Model(Named):
    """A neural network: Results computed from Parameters (``openvino.Model``).

    ``Model(results, parameters, name=None)``: ``results`` are Result nodes, or nodes/outputs
    (a Result is then added for each). Building a model checks that the graph is acyclic, that
    every parameter it reaches was declared and feeds some result, and that every result depends
    on an input, so a mistake is reported here rather than at inference.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """``Model(results, parameters, name=None)``, or with sinks (Assign nodes of a stateful
        model): ``Model(results, sinks, parameters, name=None)`` or by keyword (``result=`` for
        one node, as the wheel's overload names it). ``Model(other)`` is another handle on
        ``other``, as in the wheel: the two share the graph, names and rt_info."""
        if len(args) == 1 and not kwargs and isinstance(args[0], Model):
            self.__dict__ = args[0].__dict__
            return
        if args:
            results, args = args[0], args[1:]
            if "results" in kwargs or "result" in kwargs:
                raise TypeError("Model() got multiple values for its results")
        elif ("results" in kwargs) != ("result" in kwargs):
            results = kwargs.pop("results") if "results" in kwargs else kwargs.pop("result")
        else:  # Model() or both keywords: no overload matches (the wheel's TypeError)
            raise TypeError(
                "__init__(): incompatible constructor arguments. The following argument types "
                "are supported:\n    1. openvino.Model(other: openvino.Model)\n    2. openvino."
                "Model(results, parameters, name: str = '')\n    3. openvino.Model(results, "
                "sinks, parameters, name: str = '')\n    4. openvino.Model(result: Node, "
                "parameters, name: str = '')\n    (and the forms with variables)\n\n"
                f"Invoked with: kwargs: {', '.join(kwargs)}")
        sinks_first = len(args) >= 3 or (len(args) == 2 and (
            "name" in kwargs or not isinstance(args[1], (str, type(None)))))
        names = ["sinks", "parameters", "name"] if sinks_first else ["parameters", "name"]
        given = dict(zip(names, args, strict=False))
        for k, v in kwargs.items():
            if k in given or k not in ("sinks", "parameters", "name", "variables"):
                raise TypeError(f"Model() got an unexpected or repeated argument {k!r}")
            given[k] = v
        if "parameters" not in given:
            raise TypeError("Model() needs its parameters: Model(results, parameters, name)")
        sinks = given.get("sinks") or []
        if isinstance(sinks, (Node, Output)):
            sinks = [sinks]
        sinks = [s._node if isinstance(s, Output) else s for s in sinks]  # Assign outputs too
        self._init(results, given["parameters"], given.get("name"), strict=True, sinks=sinks)
        self._variables.extend(v for v in given.get("variables") or []
                               if v.info.variable_id not in {w.info.variable_id
                                                             for w in self._variables})

    def _init(self, results: Any, parameters: Sequence[Parameter], name: str | None,
              strict: bool, sinks: Sequence[Node] = ()) -> None:
        if isinstance(results, Node) and not isinstance(results, Result):
            results = results.outputs()  # as OpenVINO: Model(split_node, ...) has every output
        elif isinstance(results, (Node, Output)):
            results = [results]
        if isinstance(parameters, Parameter):
            parameters = [parameters]
        res = [_as_result(r) for r in results]
        if not res:
            raise NodeValidationError("A model needs at least one result")
        for p in parameters:
            if not isinstance(p, Parameter):
                raise TypeError(f"Model parameters must be Parameter nodes, got {p!r}")
        if len({id(p) for p in parameters}) != len(parameters):
            raise NodeValidationError("The same Parameter is listed twice in the model's parameters")
        self._results: list[Result] = res
        self._parameters: list[Parameter] = list(parameters)
        self._name = f"Model{next(_model_ids)}"
        self._friendly_name = name or None
        self._rt_info: dict[str, Any] = {}
        self._sinks: list[Node] = list(sinks)
        self._ops = _toposort([*res, *self._sinks], self._parameters)
        self._check(strict)
        for p in self._parameters:
            if not p._out_names[0]:
                p._out_names[0] = {p.get_friendly_name()}
        for r in self._results:  # a Result's tensor is its input's (as OpenVINO shares it)
            if not r._out_names[0]:
                r._out_names[0] = set(r.input_value(0).get_names()) or {r.get_friendly_name()}
        self._plan: Plan = make_plan(self._ops)
        self._variables: list[Variable] = []
        for n in self._ops:
            vid = n._attrs.get("variable_id") if n.get_type_name() in ("ReadValue", "Assign") \
                else None
            if vid and all(v.info.variable_id != vid for v in self._variables):
                self._variables.append(variable_of(vid, n.get_output_element_type(0)
                                                   if n._out_types else None,
                                                   n._out_shapes[0] if n._out_shapes else None))

    def _check(self, strict: bool) -> None:
        declared = {id(p) for p in self._parameters}
        for n in self._ops:
            if isinstance(n, Parameter) and id(n) not in declared:
                raise NodeValidationError(f"Model references undeclared parameter "
                                          f"'{n.get_friendly_name()}' ({n.get_name()}): "
                                          "add it to the model's parameters")
        if not strict:
            return
        read = {id(s._node) for n in self._ops for s in n._inputs}
        for p in self._parameters:
            if id(p) not in read:
                raise NodeValidationError(f"Parameter '{p.get_friendly_name()}' is not connected "
                                          "to any result of the model")
        # (a Result that depends on constants only is a valid model, as in OpenVINO: its
        # value is folded once; the ConstantFolding pass leaves such models)

    # --- names --------------------------------------------------------------------------------
    def get_name(self) -> str:
        return self._name


    def get_rt_info(self, *path: str) -> Any:
        """The model's runtime info dict (or one value of it: ``get_rt_info("key")``)."""
        if not path:
            return self._rt_info
        value: Any = self._rt_info
        for p in path:
            value = value[p]
        return value

    def set_rt_info(self, value: Any, *path: str) -> None:
        target = self._rt_info
        for p in path[:-1]:
            target = target.setdefault(p, {})
        target[path[-1]] = value

    # --- structure ----------------------------------------------------------------------------
    def get_ops(self) -> list[Node]:
        """Every node (Parameters, Constants and Results included) in topological order."""
        return list(self._ops)

    def get_ordered_ops(self) -> list[Node]:
        return list(self._ops)

    def get_parameters(self) -> list[Parameter]:
        return list(self._parameters)

    def get_results(self) -> list[Result]:
        return list(self._results)

    def get_result(self) -> Result:
        """The model's one Result (an error when it has several)."""
        if len(self._results) != 1:
            raise RuntimeError("Check 'm_results.size() == 1' failed at src/core/src/model.cpp:"
                               "394:\nget_result() must be called on a Model with exactly one "
                               "result.\n")
        return self._results[0]

    def get_sinks(self) -> list[Node]:
        return list(getattr(self, "_sinks", []))

    @property
    def parameters(self) -> list[Parameter]:
        return self.get_parameters()

    @property
    def results(self) -> list[Result]:
        return self.get_results()

    @property
    def sinks(self) -> list[Node]:
        return self.get_sinks()

    @property
    def dynamic(self) -> bool:
        return self.is_dynamic()

    def _get_raw_address(self) -> int:
        """An id of the model object itself (the C++ address in the wheel)."""
        return id(self)

    # --- the ops in order, re-sorted after an edit of the graph's edges ---------------------
    @property
    def _ops(self) -> list[Node]:
        if self.__dict__.get("_ops_epoch") != _node_mod.EDITS[0]:
            # a node was rewired since (replace_node...): the model is what its results read
            self.__dict__["_ops_epoch"] = _node_mod.EDITS[0]
            ops = _toposort([*self._results, *self._sinks], self._parameters)
            self.__dict__["_ops_list"] = ops
            if "_plan_obj" in self.__dict__:
                self.__dict__["_plan_obj"] = make_plan(ops)
        return self.__dict__["_ops_list"]

    @_ops.setter
    def _ops(self, value: list[Node]) -> None:
        self.__dict__["_ops_list"] = value
        self.__dict__["_ops_epoch"] = _node_mod.EDITS[0]

    @property
    def _plan(self) -> Plan:
        self._ops  # noqa: B018 - re-sorts (and re-plans) after an edit
        return self.__dict__["_plan_obj"]

    @_plan.setter
    def _plan(self, value: Plan) -> None:
        self.__dict__["_plan_obj"] = value

    # --- editing the lists (as ov::Model: no validation; call validate_nodes_and_infer_types)
    def _rebuild(self) -> None:
        self._ops = _toposort([*self._results, *self._sinks], self._parameters)
        self._plan = make_plan(self._ops)

    def add_outputs(self, outputs: Any) -> list[Output]:
        """Make more tensors model outputs: a tensor name, ``(op name, port)``, an output
        port, or a list of these. A tensor that is already an output is not added twice."""
        items = outputs if isinstance(outputs, list) else [outputs]
        ports = [self._output_to_add(item, f" at index {i}" if isinstance(outputs, list) else "")
                 for i, item in enumerate(items)]
        added = []
        for port in ports:
            result = next((r for r in self._results if r._inputs[0] == port), None)
            if result is None:
                result = Result(RESULT, [port])
                result._out_names[0] = set(port.get_names())
                self._results.append(result)
            added.append(result.output(0))
        self._rebuild()
        return added

    def _output_to_add(self, item: Any, where: str) -> Output:
        if isinstance(item, Output):
            return Output(item._node, item._index)
        if isinstance(item, str):
            for n in self._ops:
                for i, names in enumerate(n._out_names):
                    if item in names and not isinstance(n, Result):
                        return n.output(i)
            raise NodeValidationError(
                "Check 'm_cached_output_names.count(tensor_name)' failed at "
                f"src/core/src/model.cpp:882:\nModel::add_output. Tensor name '{item}' was not "
                "found.\n")
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str) \
                and isinstance(item[1], (int, np.integer)):
            op = next((n for n in self._ops if n.get_friendly_name() == item[0]), None)
            if op is None:
                raise NodeValidationError(
                    "Check 'm_cached_op_names.count(op_name)' failed at "
                    f"src/core/src/model.cpp:903:\nModel::add_output. Operation with name "
                    f"'{item[0]}' was not found.\n")
            if not 0 <= int(item[1]) < op.get_output_size():
                raise NodeValidationError(
                    "Check 'output_idx < op->get_output_size()' failed at "
                    f"src/core/src/model.cpp:909:\nCannot add output to port {item[1]} operation "
                    f"{item[0]} has only {op.get_output_size()} outputs.\n")
            return op.output(int(item[1]))
        raise TypeError(f"Incorrect type of a value to add as output{where}.")

    def add_results(self, results: Sequence[Result]) -> None:
        self._results.extend(results)
        self._rebuild()

    def remove_result(self, result: Result) -> None:
        self._results = [r for r in self._results if r is not result]
        self._rebuild()

    def add_parameters(self, parameters: Sequence[Parameter]) -> None:
        self._parameters.extend(parameters)
        self._rebuild()

    def remove_parameter(self, parameter: Parameter) -> None:
        self._parameters = [p for p in self._parameters if p is not parameter]

    def add_sinks(self, sinks: Sequence[Node]) -> None:
        self._sinks.extend(sinks)
        self._rebuild()

    def remove_sink(self, sink: Node) -> None:
        self._sinks = [s for s in self._sinks if s is not sink]
        self._rebuild()

    def get_sink_index(self, value: Any) -> int:
        if isinstance(value, Output):
            value = value._node
        if not isinstance(value, Node):
            raise TypeError("Incorrect argument type. Sink node is expected as argument.")
        return next((i for i, s in enumerate(self._sinks) if s is value), -1)

    def get_variables(self) -> list[Variable]:
        return list(self._variables)

    def add_variables(self, variables: Sequence[Variable]) -> None:
        self._variables.extend(variables)

    def remove_variable(self, variable: Variable) -> None:
        self._variables = [v for v in self._variables if v is not variable]

    def get_variable_by_id(self, variable_id: str) -> Variable:
        for v in self._variables:
            if v.info.variable_id == variable_id:
                return v
        raise NodeValidationError(f"Variable with id '{variable_id}' was not found in the "
                                  "model")

    def replace_parameter(self, parameter_index: int, parameter: Parameter) -> None:
        """Put ``parameter`` in place of the model's ``parameter_index``-th: its users read the
        new one (shapes are not inferred again: ``validate_nodes_and_infer_types``)."""
        if not 0 <= parameter_index < len(self._parameters):
            raise NodeValidationError(
                "Check 'parameter_index < m_parameters.size()' failed at "
                f"src/core/src/model.cpp:438:\nreplace_parameter(): Tried to replace parameter "
                f"at index {parameter_index} but the Model only has {len(self._parameters)} "
                "parameters.\n")
        old = self._parameters[parameter_index]
        old.output(0).replace(parameter.output(0))
        self._parameters[parameter_index] = parameter
        self._rebuild()

    def evaluate(self, output_tensors: list, input_tensors: list,
                 evaluation_context: Any = None) -> bool:
        """Compute the model on ``input_tensors`` into ``output_tensors`` (which take the
        results' shapes), with NumPy; True when done, as ``ov::Model::evaluate``."""
        for i, (p, t) in enumerate(zip(self._parameters, input_tensors, strict=False)):
            if list(p.get_output_shape(0)) != list(t.get_shape()):
                raise NodeValidationError(
                    "Check 'm_parameters.at(i)->get_partial_shape().is_dynamic() || "
                    "m_parameters.at(i)->get_partial_shape().to_shape() == "
                    "input_tensors[i].get_shape()' failed at src/core/src/model.cpp:510:\n"
                    f"Cannot evaluate model! Tensor input shape and Parameter op with index {i} "
                    "are mismatches.\n")
        values = self._evaluate([t.data for t in input_tensors])
        for tensor, value in zip(output_tensors, values, strict=False):
            tensor.set_shape(list(value.shape))
            tensor.data[...] = value
        return True

    @property
    def inputs(self) -> list[Output]:
        return [p.output(0) for p in self._parameters]

    @property
    def outputs(self) -> list[Output]:
        return [r.output(0) for r in self._results]

    def _find(self, ports: list[Output], key: Any, what: str) -> Output:
        if key is None:
            if len(ports) != 1:
                raise RuntimeError(f"{what}() must be called on a model with exactly one "
                                   f"{'parameter' if what == 'input' else 'result'}; this one "
                                   f"has {len(ports)}")
            return ports[0]
        if isinstance(key, (int, np.integer)):
            if not 0 <= int(key) < len(ports):
                raise IndexError(f"{what} index {key} is out of range: the model has "
                                 f"{len(ports)} {what}(s)")
            return ports[int(key)]
        if isinstance(key, str):
            for p in ports:
                if key in p._node._out_names[p._index]:
                    return p
            raise RuntimeError(f"{what.capitalize()} for tensor name '{key}' is not found.")
        if isinstance(key, Output) and key in ports:
            return key
        raise TypeError(f"{what}() takes an index or a tensor name, got {key!r}")

    def input(self, i_or_name: int | str | None = None, *, index: int | None = None,
              tensor_name: str | None = None) -> Output:
        """``input()``, ``input(index)``, ``input(tensor_name)``: positional or by keyword."""
        key = index if index is not None else tensor_name if tensor_name is not None else i_or_name
        return self._find(self.inputs, key, "input")

    def output(self, i_or_name: int | str | None = None, *, index: int | None = None,
               tensor_name: str | None = None) -> Output:
        key = index if index is not None else tensor_name if tensor_name is not None else i_or_name
        return self._find(self.outputs, key, "output")

    def get_parameter_index(self, parameter: Parameter) -> int:
        return next((i for i, p in enumerate(self._parameters) if p is parameter), -1)

    def get_result_index(self, value: Output | Result) -> int:
        for i, r in enumerate(self._results):
            if value is r or value == r.output(0):
                return i
        return -1

    def get_output_op(self, i: int) -> Result:
        return self._results[i]

    def get_output_size(self) -> int:
        return len(self._results)

    def get_output_shape(self, i: int) -> Shape:
        return self._results[i].get_output_shape(0)

    def get_output_partial_shape(self, i: int) -> PartialShape:
        return self._results[i].get_output_partial_shape(0)

    def get_output_element_type(self, i: int) -> Type:
        return self._results[i].get_output_element_type(0)

    def is_dynamic(self) -> bool:
        """Whether any op's output has a dynamic dimension or rank (``Model::is_dynamic``)."""
        return any(dynamic.is_dynamic(sh) for n in self._ops for sh in n._out_shapes)

    def check_static(self) -> None:
        """Refuse a model with dynamic shapes where it would run: ovlab builds and reshapes
        them, but its devices' cost model times fixed shapes, so they do not compile."""
        for p in self._parameters:
            sh = p._out_shapes[0]
            if dynamic.is_dynamic(sh):
                raise RuntimeError(
                    f"ovlab models are static: input '{p.get_friendly_name()}' has the dynamic "
                    f"shape {sh}; ovlab builds models with dynamic shapes but compiles static ones "
                    "only (give every input a static shape first, e.g. model.reshape(...))")
        for n in self._ops:
            for sh in n._out_shapes:
                if dynamic.is_dynamic(sh):
                    raise RuntimeError(
                        f"ovlab models are static: the output of {n.get_type_name()} "
                        f"'{n.get_friendly_name()}' has the dynamic shape {sh} (it depends on input "
                        "values); ovlab compiles models whose shapes are all static only")

    def __repr__(self) -> str:
        def port(o: Output) -> str:
            return "<ConstOutput: " + repr(o)[len("<Output: "):]
        ins = "\n".join(port(o) for o in self.inputs)
        outs = "\n".join(port(o) for o in self.outputs)
        return f"<Model: '{self.get_friendly_name()}'\ninputs[\n{ins}\n]\noutputs[\n{outs}\n]>"

    # --- reshape / clone ----------------------------------------------------------------------
    def validate_nodes_and_infer_types(self) -> None:
        """Re-run shape inference on every op (after a Parameter's shape changed)."""
        for n in self._ops:
            n._validate()

    def reshape(self, new_shape: Any, variables_shapes: Any = None) -> None:
        """Change input shapes in place: ``reshape([4, 3, 224, 224])`` for a single-input model,
        or ``reshape({index | tensor name | input port: shape})``."""
        if isinstance(new_shape, Mapping):
            wanted = {self._parameters.index(self._find(self.inputs, k, "input")._node):
                      _input_shape(v) for k, v in new_shape.items()}
        else:
            if len(self._parameters) != 1:
                raise RuntimeError(f"reshape() with a single shape needs a model with one input; "
                                   f"'{self.get_friendly_name()}' has {len(self._parameters)}: "
                                   "pass a dict {input name or index: shape}")
            wanted = {0: _input_shape(new_shape)}
        old = [p._attrs["shape"] for p in self._parameters]
        reads = [n for n in self._ops if n.get_type_name() == "ReadValue"]
        old_vars = [n._attrs["variable_shape"] for n in reads]
        try:
            for i, dims in wanted.items():
                self._parameters[i]._attrs["shape"] = dims
            for vid, shape in (variables_shapes or {}).items():
                if not isinstance(vid, str):
                    raise TypeError(f"Incorrect key type {type(vid)} to reshape a model, "
                                    "expected values as str.")
                for n in reads:
                    if n._attrs["variable_id"] == vid:
                        n._attrs["variable_shape"] = _dims(shape)
            self.validate_nodes_and_infer_types()
        except NodeValidationError as e:
            for p, dims in zip(self._parameters, old, strict=False):
                p._attrs["shape"] = dims
            for n, dims in zip(reads, old_vars, strict=True):
                n._attrs["variable_shape"] = dims
            self.validate_nodes_and_infer_types()
            target = ", ".join(f"'{self._parameters[i].get_friendly_name()}' to {shape_str(d)}"
                               for i, d in wanted.items())
            raise NodeValidationError(f"Cannot reshape model '{self.get_friendly_name()}' "
                                      f"({target}): {e}") from None

    def clone(self) -> Model:
        """An independent copy: new nodes with the same friendly names, attributes and rt_info
        (constant values are shared, read-only)."""
        return self._clone_model(validate=True)

    def _clone_model(self, validate: bool) -> Model:
        """:meth:`clone`; ``validate=False`` leaves shape inference to the caller, which must
        run it on every node next (``_with_batch``: its reshape does)."""
        new: dict[int, Node] = {}
        for n in self._ops:
            new[id(n)] = n._clone([Output(new[id(s._node)], s._index) for s in n._inputs],
                                  validate)
        m = Model.__new__(Model)
        m._init([new[id(r)] for r in self._results], [new[id(p)] for p in self._parameters],
                self.get_friendly_name(), strict=False,
                sinks=[new[id(s)] for s in self.get_sinks()])
        m._rt_info = dict(self._rt_info)
        m._variables = list(self._variables)
        return m

    def __copy__(self) -> Model:
        raise TypeError("Cannot copy 'openvino.Model'. Please, use deepcopy instead.")

    def __deepcopy__(self, memo: dict[int, Any]) -> Model:
        return self.clone()

    def __enter__(self) -> Model:
        return self

    def __exit__(self, *exc: Any) -> None:
        """The wheel releases its C++ model here; ovlab's is garbage-collected."""

    # --- internal API used by ovlab's runtime and plugins ------------------------------------
    def _evaluate(self, inputs: Mapping[int, Any] | Sequence[Any],
                  precision: str = "f32") -> list[np.ndarray]:
        """Run the model with NumPy: one array per Result, in the Results' element types."""
        if not isinstance(inputs, Mapping):
            inputs = dict(enumerate(inputs))
        return evaluate(self._ops, self._plan, self._parameters, self._results, inputs, precision)

    def _cost(self, batch: int = 1) -> list[OpCost]:
        """FLOPs and bytes of every compute op for ``batch`` samples (see ``costs.py``)."""
        return list(self._memo(("cost", batch),
                               lambda: op_costs(self._plan, self._batch_size(), batch)))

    @contextmanager
    def _unchanged(self) -> Iterator[None]:
        """A stretch of ovlab's own code that does not edit this model (a dashboard simulating
        one change and drawing it): what is worked out from the whole graph (the op costs,
        the batch check, the cache's model hash) is worked out once in it, not once per compile and device
        (lab 04's AUTO + BATCH run asked for GoogLeNet's op costs 12 times per change). No
        memo outlives the stretch, so an edit after it is always seen."""
        if getattr(self, "_unchanged_memo", None) is not None:  # nested: the outer one's
            yield
            return
        self._unchanged_memo: dict | None = {}
        try:
            yield
        finally:
            self._unchanged_memo = None

    def _memo(self, key: Any, compute):
        """``compute()``, worked out once per :meth:`_unchanged` stretch (every time outside
        one)."""
        memo = getattr(self, "_unchanged_memo", None)
        if memo is None:
            return compute()
        if key not in memo:
            memo[key] = compute()
        return memo[key]

    def _batch_size(self) -> int:
        if not self._parameters or not self._parameters[0]._out_shapes[0]:
            return 1
        return self._parameters[0]._out_shapes[0][0]

    def _structure_key(self) -> tuple:
        """What the batch check depends on: the nodes, their edges and output shapes (cheap:
        ~0.2 ms for GoogLeNet, against ~5 ms for the check itself)."""
        return tuple((id(n), tuple(map(tuple, n._out_shapes)),
                      tuple((id(s._node), s._index) for s in n._inputs)) for n in self._ops)

    def _batch_problem(self) -> str | None:
        """Why the model cannot be batched on axis 0, or None if it can. Remembered while the
        graph is unchanged: every compile on a GPU asks (BATCH's implicit check), and a
        dashboard compiles the same model for each redraw."""
        return self._memo("batch_problem", self._checked_batch_problem)

    def _checked_batch_problem(self) -> str | None:
        key = self._structure_key()
        cached = getattr(self, "_batch_check", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        problem = self._find_batch_problem()
        self._batch_check = (key, problem)
        return problem

    def _find_batch_problem(self) -> str | None:
        if not self._parameters:
            return "it has no inputs"
        for p in self._parameters:
            s = p._out_shapes[0]
            if not s or s[0] != 1:
                return f"input '{p.get_friendly_name()}' has shape {shape_str(s)}, not [1,...]"
        trial = self.clone()
        try:
            trial.reshape({i: (2, *p._out_shapes[0][1:]) for i, p in enumerate(self._parameters)})
        except NodeValidationError as e:
            return f"shape inference fails at batch 2: {e}"
        mixing = trial._mixing_op()
        if mixing:
            return mixing
        for r in self._results:
            s = r._out_shapes[0]
            if not s or s[0] != 1:
                return (f"output '{r.get_friendly_name()}' has shape {shape_str(s)} at batch 1 "
                        "(its first dimension is not the batch)")
        for r in trial._results:
            s = r._out_shapes[0]
            if not s or s[0] != 2:
                return (f"output '{r.get_friendly_name()}' has shape {shape_str(s)} at batch 2 "
                        "(its batch dimension is not carried through)")
        return None

    def _mixing_op(self) -> str | None:
        """The first op that mixes samples across axis 0 (a Softmax over the batch axis, a
        reduction over it, a transpose moving it ...), as its op's batch rule says."""
        live: set[int] = set()
        for n in self._ops:
            if isinstance(n, Parameter):
                live.add(id(n))
                continue
            flags = [id(s._node) in live for s in n._inputs]
            if not any(flags) or n._op.shape_only:
                continue
            live.add(id(n))
            rule = n._op.batch
            reason = rule(n, flags) if rule is not None else None
            if reason:
                return (f"{n.get_type_name()} '{n.get_friendly_name()}' mixes the samples of "
                        f"the batch: {reason}")
        return None

    def _is_batchable(self) -> bool:
        """True if every input has batch 1 and the batch carries through to every output at
        batch 2 (a constant-shape Reshape such as ``[1, 2048]`` breaks it, as on OpenVINO)."""
        return self._batch_problem() is None

    def _with_batch(self, n: int) -> Model:
        """A clone with every input's dim 0 set to ``n``; ``ValueError`` if not batchable."""
        problem = self._batch_problem()
        if problem is not None:
            raise ValueError(f"Model '{self.get_friendly_name()}' is not batchable: {problem}")
        # shape inference once, by the reshape, not also by the clone (half of the ~10 ms a
        # GoogLeNet's batched copy took, once per compile with automatic batching)
        m = self._clone_model(validate=False)
        m.reshape({i: (int(n), *p._out_shapes[0][1:]) for i, p in enumerate(self._parameters)})
        return m


def model_precision(model: Model) -> str:
    """The precision label AUTO uses (its ``get_model_precision``): ``"INT8"`` if the model has
    any FakeQuantize, else the weight type of the first (Group)Convolution or
    (Group)ConvolutionBackpropData (``"FP32"``/``"FP16"``), else ``"FP32"`` (so a transformer
    without convolutions is FP32 whatever its weights, as in OpenVINO)."""
    ops = model.get_ordered_ops()
    if any(n.get_type_name() == "FakeQuantize" for n in ops):
        return "INT8"
    for n in ops:
        if n.get_type_name() in ("Convolution", "GroupConvolution", "ConvolutionBackpropData",
                                 "GroupConvolutionBackpropData"):
            t = n.get_input_element_type(1).get_type_name()
            if t in ("f32", "f16"):
                return "FP32" if t == "f32" else "FP16"
    return "FP32"


def iter_nodes(model: Model, names: Iterable[str | Node]) -> list[Node]:
    """Resolve friendly names (or nodes) to the model's nodes, in topological order."""
    by_name: dict[str, Node] = {}
    for n in model._ops:
        by_name.setdefault(n.get_friendly_name(), n)
    ids = set()
    for x in names:
        if isinstance(x, Node):
            ids.add(id(x))
        elif x in by_name:
            ids.add(id(by_name[x]))
        else:
            raise KeyError(f"Model '{model.get_friendly_name()}' has no op named {x!r}")
    known = {id(n) for n in model._ops}
    if not ids <= known:
        raise ValueError("Some nodes do not belong to the model")
    return [n for n in model._ops if id(n) in ids]
