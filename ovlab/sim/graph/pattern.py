"""Pattern matching over ovlab's graph: the pattern ops and ``Matcher`` of ``openvino.passes``.

A pattern is a small graph whose nodes are either real ops (a Parameter, a Relu: they match a
node of the same type whose inputs match theirs) or pattern ops: ``WrapType`` (any node of the
listed types, optionally with a predicate and input patterns), ``AnyInput`` (any output that
passes the predicate), ``Or`` (the first of its branches that matches) and ``Optional`` (the
listed op, or its input when the op is absent). ``Matcher.match(output)`` walks the pattern
from its root and the graph from ``output`` at the same time, as ``ov::pass::pattern::Matcher``
does (``src/core/src/pattern/matcher.cpp``): inputs of commutative ops (Add, Multiply...) are
tried in both orders, and a branch that fails leaves no trace in the matched nodes or the
pattern map. Pattern ops are Nodes, as in OpenVINO, so patterns are built with the same calls
as models; their output has a dynamic type and shape because they stand for any value.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from typing import Any

from .node import Node, OpDef, Output
from .ops import REGISTRY
from .types import Dimension, PartialShape, Type

__all__ = ["AnyInput", "Matcher", "Optional", "Or", "Predicate", "WrapType", "attrs_match",
           "consumers_count", "has_static_dim", "has_static_dims", "has_static_rank",
           "has_static_shape", "rank_equals", "shape_matches", "type_matches", "type_matches_any"]

#: opsets the wheel's WrapType knows (2026.4: opset1..opset17; opset17 holds none of ovlab's ops)
_OPSETS = range(1, 18)
_NEWEST_WITH_OPS = 16
#: ops whose two inputs may be swapped (``ov::op::util::is_commutative``)
COMMUTATIVE = frozenset({"Add", "Multiply", "Maximum", "Minimum", "Equal", "NotEqual",
                         "LogicalAnd", "LogicalOr", "LogicalXor", "BitwiseAnd", "BitwiseOr",
                         "BitwiseXor", "SquaredDifference"})
_CHECK = "Check '{}' failed at src/bindings/python/src/pyopenvino/graph/passes/pattern_ops.cpp:{}:\n{}\n"


class Predicate:
    """A check on a graph output, ``fn(output) -> bool`` or ``fn(symbols, output) -> bool``
    (``symbols``: the names bound so far by ``shape_matches``). Not callable from Python, as in
    the wheel: patterns call it while matching."""

    def __init__(self, predicate: Callable[..., bool] | None = None) -> None:
        if predicate is not None and not callable(predicate):
            raise TypeError("__init__(): incompatible constructor arguments. The following "
                            "argument types are supported:\n    1. openvino._pyopenvino.passes."
                            "Predicate()\n    2. openvino._pyopenvino.passes.Predicate(predicate:"
                            " collections.abc.Callable[[openvino._pyopenvino.Output], bool])\n\n"
                            f"Invoked with: {predicate!r}")
        self._fn = predicate
        self._with_symbols = predicate is not None and _arity(predicate) == 2

    def _test(self, symbols: dict[str, Any], value: Output) -> bool:
        if self._fn is None:
            return True
        return bool(self._fn(symbols, value) if self._with_symbols else self._fn(value))


def _arity(fn: Callable[..., Any]) -> int:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 1
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
               for p in params)


def _as_predicate(value: Any) -> Predicate:
    if value is None:
        return Predicate()
    return value if isinstance(value, Predicate) else Predicate(value)


def _as_output(value: Any) -> Output:
    if isinstance(value, Output):
        return value
    if isinstance(value, Node):
        return value.output(0)
    raise TypeError(f"a pattern input must be a Node or an Output, not {type(value).__name__}")


def _pattern_op(type_name: str) -> OpDef:
    return OpDef(type_name, "util", infer=lambda node: [((), Type.dynamic)])


def _split_args(args: tuple[Any, ...]) -> tuple[list[Output], Predicate]:
    """``(inputs?, predicate?)`` as the wheel's overloads take them: one Node or Output, a list
    of them, and a callable or Predicate, each optional."""
    inputs: list[Output] = []
    predicate = Predicate()
    rest = list(args)
    if rest and not (callable(rest[0]) and not isinstance(rest[0], Node)) and \
            not isinstance(rest[0], Predicate):
        first = rest.pop(0)
        inputs = [_as_output(v) for v in first] if isinstance(first, (list, tuple)) \
            else [_as_output(first)]
    if rest:
        predicate = _as_predicate(rest.pop(0))
    if rest:
        raise TypeError(f"too many arguments for a pattern op: {args!r}")
    return inputs, predicate


class PatternOp(Node):
    """A node that stands for a part of a graph; ``_match_value`` says whether it matches."""

    _pattern = True

    def __init__(self, type_name: str, inputs: Sequence[Output], predicate: Predicate) -> None:
        super().__init__(_pattern_op(type_name), list(inputs))
        self._predicate = predicate

    def get_output_partial_shape(self, index: int) -> PartialShape:
        self.output(index)
        return PartialShape.dynamic()

    def _match_value(self, matcher: Matcher, pattern: Output, graph: Output) -> bool:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


def _resolve_type(text: str) -> str:
    """``"opset8.Relu"`` or ``"opset8::Relu"`` -> ``"Relu"``, refused as the wheel refuses
    an unknown opset or an op that opset does not have (ovlab keeps one version per op: an
    op is in opsetN when its version is not newer than N)."""
    opset, sep, name = text.partition("::") if "::" in text else text.partition(".")
    number = opset[len("opset"):] if opset.startswith("opset") else ""
    if not (number.isdigit() and int(number) in _OPSETS and str(int(number)) == number):
        raise RuntimeError(_CHECK.format("opsets.count(opset_type)", 41,
                                         f"Unsupported opset type: {opset}"))
    op = REGISTRY.get(name) if sep else None
    if op is None or int(number) > _NEWEST_WITH_OPS or \
            int(op.version[len("opset"):]) > int(number):
        raise RuntimeError(_CHECK.format("m_opset.contains_type(operation_type)", 44,
                                         f"Unrecognized operation type: {name}"))
    return name


class WrapType(PatternOp):
    """Any node of one of ``type_names`` (``"opset8.Relu"``) that passes the predicate, and
    whose inputs match the input patterns when some are given."""

    def __init__(self, type_names: str | Sequence[str], *args: Any) -> None:
        names = [type_names] if isinstance(type_names, str) else list(type_names)
        self._types = frozenset(_resolve_type(str(n)) for n in names)
        inputs, predicate = _split_args(args)
        super().__init__("WrapType", inputs, predicate)

    def get_wrapped_types(self) -> list[str]:
        return sorted(self._types)

    def _match_value(self, matcher: Matcher, pattern: Output, graph: Output) -> bool:
        node = graph.get_node()
        if node.get_type_name() not in self._types or \
                not self._predicate._test(matcher._symbols, graph):
            return False
        matcher._map[self] = graph
        matcher._add(graph)
        return not self.get_input_size() or matcher._match_arguments(self, node)


class AnyInput(PatternOp):
    """Any output that passes the predicate (``AnyInput()``: any output at all)."""

    def __init__(self, predicate: Any = None) -> None:
        super().__init__("patternLabel", [], _as_predicate(predicate))

    def _match_value(self, matcher: Matcher, pattern: Output, graph: Output) -> bool:
        if not self._predicate._test(matcher._symbols, graph):
            return False
        matcher._map[self] = graph
        matcher._add(graph)
        return True


class Or(PatternOp):
    """The first of ``inputs`` (patterns) that matches."""

    def __init__(self, inputs: Sequence[Any]) -> None:
        super().__init__("patternOr", [_as_output(v) for v in inputs], Predicate())

    def _match_value(self, matcher: Matcher, pattern: Output, graph: Output) -> bool:
        for branch in self.input_values():
            saved = matcher._save()
            if matcher._match_value(branch, graph):
                matcher._map[branch.get_node()] = graph
                matcher._map[self] = graph
                return True
            matcher._restore(saved)
        return False


class Optional(PatternOp):
    """The op of ``type_names`` over its input patterns, or, when the graph skips it, its first
    input pattern directly (``Optional(["opset8.Convert"], x)`` matches ``Convert(x)`` or
    ``x``). Without inputs it is the op of ``type_names`` (measured on the 2026.4.1 wheel:
    ``Optional(["opset13.Abs"])`` does not match a Relu)."""

    def __init__(self, type_names: Sequence[str], *args: Any) -> None:
        if isinstance(type_names, str):
            raise TypeError("Optional(): type_names is a list of type names, e.g. "
                            '["opset8.Abs", "opset8.Relu"]')
        self._type_names = [str(n) for n in type_names]
        for n in self._type_names:
            _resolve_type(n)
        inputs, predicate = _split_args(args)
        super().__init__("patternOptional", inputs, predicate)

    def _match_value(self, matcher: Matcher, pattern: Output, graph: Output) -> bool:
        inputs = self.input_values()
        wrap = WrapType(self._type_names, inputs, self._predicate)
        branch = wrap if not inputs else Or([wrap.output(0), inputs[0]])
        if matcher._match_value(branch.output(0), graph):
            if wrap in matcher._map:
                matcher._map[self] = graph
            return True
        return False


class Matcher:
    """Matches a pattern (its root node or output) against the graph at a given output."""

    def __init__(self, pattern: Node | Output, name: str) -> None:
        if not isinstance(pattern, (Node, Output)) or not isinstance(name, str):
            raise TypeError("__init__(): incompatible constructor arguments. The following "
                            "argument types are supported:\n    1. openvino._pyopenvino.passes."
                            "Matcher(node: openvino._pyopenvino.Node, name: str)\n    2. "
                            "openvino._pyopenvino.passes.Matcher(output: openvino._pyopenvino."
                            f"Output, name: str)\n\nInvoked with: {pattern!r}, {name!r}")
        self._pattern = _as_output(pattern)
        self._name = name
        self._clear()

    def _clear(self) -> None:
        self._map: dict[Node, Output] = {}
        self._matched: list[Output] = []
        self._symbols: dict[str, Any] = {}
        self._root: Output | None = None

    # --- what a callback reads --------------------------------------------------------------
    def get_name(self) -> str:
        return self._name

    def get_match_root(self) -> Node | None:
        """The graph node the pattern's root matched (None before a match)."""
        return None if self._root is None else self._root.get_node()

    def get_match_value(self) -> Output | None:
        return self._root

    def get_match_nodes(self) -> list[Node]:
        return [v.get_node() for v in self._matched]

    def get_match_values(self) -> list[Output]:
        return list(self._matched)

    def get_pattern_value_map(self) -> dict[Node, Output]:
        """Pattern node -> the graph output it matched."""
        return dict(self._map)

    def get_symbols(self) -> dict[str, Any]:
        return dict(self._symbols)

    def match(self, value: Node | Output) -> bool:
        """Match the pattern against ``value`` (a node means its output 0)."""
        self._clear()
        graph = _as_output(value)
        if self._match_value(self._pattern, graph):
            self._root = graph
            return True
        self._clear()
        return False

    # --- the walk ---------------------------------------------------------------------------
    def _save(self) -> tuple[dict[Node, Output], int, dict[str, Any]]:
        return dict(self._map), len(self._matched), dict(self._symbols)

    def _restore(self, saved: tuple[dict[Node, Output], int, dict[str, Any]]) -> None:
        self._map, self._symbols = dict(saved[0]), dict(saved[2])
        del self._matched[saved[1]:]

    def _add(self, graph: Output) -> None:
        self._matched.append(graph)

    def _match_value(self, pattern: Output, graph: Output) -> bool:
        node = pattern.get_node()
        if isinstance(node, PatternOp):
            return node._match_value(self, pattern, graph)
        # a real op in the pattern: the same type at the same output, inputs matching
        if pattern.get_index() != graph.get_index():
            return False
        self._add(graph)
        if graph.get_node().get_type_name() == node.get_type_name() and \
                self._match_arguments(node, graph.get_node()):
            self._map[node] = graph
            return True
        return False

    def _match_arguments(self, pattern_node: Node, graph_node: Node) -> bool:
        args, pattern_args = graph_node.input_values(), pattern_node.input_values()
        if len(args) != len(pattern_args):
            return False
        orders = [pattern_args]
        if graph_node.get_type_name() in COMMUTATIVE and len(pattern_args) == 2:
            orders.append(pattern_args[::-1])
        for order in orders:
            saved = self._save()
            if all(self._match_value(p, g) for p, g in zip(order, args, strict=True)):
                return True
            self._restore(saved)
        return False


# --- predicates (``openvino.passes.consumers_count(1)``...) -----------------------------------
def consumers_count(n: int) -> Predicate:
    """The output is read by exactly ``n`` inputs."""
    return Predicate(lambda out: len(out.get_target_inputs()) == int(n))


def _static_dim(out: Output, pos: int) -> bool:
    shape = out.get_partial_shape()
    return shape.rank.is_static and -len(shape) <= pos < len(shape) and shape[pos].is_static


def has_static_dim(pos: int) -> Predicate:
    """Dimension ``pos`` exists and is static."""
    return Predicate(lambda out: _static_dim(out, int(pos)))


def has_static_dims(dims: Sequence[int]) -> Predicate:
    return Predicate(lambda out: all(_static_dim(out, int(d)) for d in dims))


def has_static_rank() -> Predicate:
    return Predicate(lambda out: out.get_partial_shape().rank.is_static)


def has_static_shape() -> Predicate:
    return Predicate(lambda out: out.get_partial_shape().is_static)


def rank_equals(rank: Dimension | int) -> Predicate:
    want = rank.get_length() if isinstance(rank, Dimension) else int(rank)
    return Predicate(lambda out: out.get_partial_shape().rank.is_static
                     and len(out.get_partial_shape()) == want)


def type_matches(element_type: Type) -> Predicate:
    return Predicate(lambda out: out.get_element_type() == element_type)


def type_matches_any(element_types: Sequence[Type]) -> Predicate:
    wanted = list(element_types)
    return Predicate(lambda out: any(out.get_element_type() == t for t in wanted))


def attrs_match(attributes: dict[str, Any]) -> Predicate:
    """The node's attributes named in ``attributes`` have those values (compared as text)."""
    wanted = {str(k): v for k, v in dict(attributes).items()}

    def test(out: Output) -> bool:
        have = out.get_node().get_attributes()
        return all(k in have and _same_attr(have[k], v) for k, v in wanted.items())
    return Predicate(test)


def _same_attr(have: Any, want: Any) -> bool:
    if isinstance(have, (list, tuple)) or hasattr(have, "tolist"):
        have = list(getattr(have, "tolist", lambda: have)())
        return isinstance(want, (list, tuple)) and [str(x) for x in have] == [str(x) for x in want]
    return str(have).lower() == str(want).lower()


_TOKEN = re.compile(r"^\s*\[(.*)\]\s*$")


def shape_matches(pattern: str) -> Predicate:
    """The output's shape fits ``pattern``: ``"[?,3]"``, ``"[N,C,...]"``, ``"[...,64]"``. ``?``
    is any dimension, ``...`` any number of them (``Name...`` binds them, as a list), a number
    that size, and a name binds the dimension to a symbol (the same name must be the same
    size; ``Matcher.get_symbols()``). A dynamic dimension binds as its Symbol, as OpenVINO's."""
    m = _TOKEN.match(pattern)
    if m is None:
        raise RuntimeError(f"shape_matches: {pattern!r} is not a shape pattern like \"[N,?,3]\"")
    parts = [p.strip() for p in m.group(1).split(",")] if m.group(1).strip() else []

    def test(symbols: dict[str, Any], out: Output) -> bool:
        shape = out.get_partial_shape()
        if shape.rank.is_dynamic:
            return False
        dims = [d.get_length() if d.is_static else d.get_symbol() for d in shape]
        bound = dict(symbols)
        rest = [i for i, p in enumerate(parts) if p.endswith("...")]
        if rest:
            i = rest[0]
            head, tail = parts[:i], parts[i + 1:]
            if len(dims) < len(head) + len(tail):
                return False
            middle = dims[len(head):len(dims) - len(tail)]
            name = parts[i][:-3].strip()
            if name and bound.setdefault(name, middle) != middle:
                return False
            pairs = list(zip(head, dims[:len(head)], strict=True)) + \
                list(zip(tail, dims[len(dims) - len(tail):], strict=True))
        elif len(parts) != len(dims):
            return False
        else:
            pairs = list(zip(parts, dims, strict=True))
        for part, dim in pairs:
            if part == "?":
                continue
            if part.lstrip("-").isdigit():
                if int(part) != dim:
                    return False
            elif dim is None or bound.setdefault(part, dim) != dim:
                return False
        symbols.update(bound)
        return True
    return Predicate(test)
