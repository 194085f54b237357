"""Shape inference over dynamic dimensions, at build time (no compile, no run).

OpenVINO code builds graphs over Parameters of shape ``[?,3]``, ``[2,1..10]`` or of a dynamic
rank, and reads the ops' output shapes (``[?,3]`` after a Relu, ``[4,3]`` after adding a
``[4,3]``); it compiles them for the real devices with dynamic-shape kernels. ovlab builds the
same graphs and infers the same output shapes; what it does not do is run them: its devices'
cost model times fixed shapes, so compiling a model with a dynamic shape raises ovlab's
"models are static" error naming the input (``Model.check_static``).

Every op's shape inference is written once, for static shapes (``OpDef.infer``). Over dynamic
inputs this module runs that same inference on stand-in shapes and reads the answer:

* each dynamic dimension is given two different stand-in lengths (``_PROBES``); an output
  dimension that comes out the same both times does not depend on them and is static, one
  that differs is dynamic (``?``) -- as OpenVINO's shape inference leaves a dimension it
  cannot know;
* an output that is input 0's shape both times *is* input 0's shape (unary ops, Identity,
  Convert, Softmax ...): it keeps input 0's dimensions exactly, intervals and symbols
  included, and a dynamic rank;
* ops that broadcast their inputs (``auto_broadcast``) merge the shapes as
  ``PartialShape::broadcast_merge_into`` does (NUMPY, PDPD, NONE), since a stand-in length
  would not broadcast with a static one.

An op whose inference fails on the stand-ins (its static rules need lengths the dynamic
dimensions do not give) raises a ``NodeValidationError`` that says so, naming the op and the
input shapes. Output element types are the static inference's (they never depend on lengths).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .types import Dimension, PartialShape, Type

__all__ = ["is_dynamic", "infer", "broadcast_merge", "rule", "RULES"]

#: stand-in lengths of a dynamic dimension: two runs of the static inference; both divisible by
#: small numbers (a Split in 2 or 3 parts works) and small enough that no inference allocates much
_PROBES = (24, 48)
#: stand-in shapes of a dynamic rank: two ranks, to see whether the output follows input 0
_RANK_PROBES = ((2, 3), (4, 5, 6))


def is_dynamic(shape: Any) -> bool:
    """Whether a node's stored output shape is dynamic (stored as a ``PartialShape``; static
    shapes are tuples of ints)."""
    return isinstance(shape, PartialShape)


def as_stored(shape: Any) -> Any:
    """The form ``Node._out_shapes`` keeps: a tuple of ints when static, else the PartialShape."""
    if isinstance(shape, PartialShape):
        if shape.is_static:
            return tuple(int(d.get_length()) for d in shape)
        return shape
    return tuple(int(d) for d in shape)


def _dim_merge(a: Dimension, b: Dimension) -> Dimension | None:
    """``Dimension::merge``: the intersection of two intervals, None when empty."""
    lo = max(a.get_min_length(), b.get_min_length())
    ha, hb = a.get_max_length(), b.get_max_length()
    hi = hb if ha < 0 else ha if hb < 0 else min(ha, hb)
    if 0 <= hi < lo:
        return None
    return Dimension(lo, hi)


def _is_one(d: Dimension) -> bool:
    return d.is_static and d.get_length() == 1


def broadcast_merge(a: PartialShape, b: PartialShape, mode: str) -> PartialShape | None:
    """The output shape of two broadcast inputs, or None where OpenVINO's merge fails.

    NUMPY: right-aligned; a static 1 takes the other dimension, otherwise the two intervals
    intersect (``?`` with 4 gives 4). NONE: the shapes merge dimension by dimension. PDPD: the
    output is ``a``'s shape; ``b`` must fit it where it is known. A dynamic rank gives a
    dynamic rank (NUMPY, NONE) or ``a`` (PDPD).
    """
    mode = str(mode).upper()
    if mode == "PDPD":
        return _pdpd_merge(a, b)
    if a.rank.is_dynamic or b.rank.is_dynamic:
        return PartialShape.dynamic()
    da, db = list(a), list(b)
    if mode == "NONE":
        if len(da) != len(db):
            return None
        out = [_dim_merge(x, y) for x, y in zip(da, db, strict=True)]
        return None if any(d is None for d in out) else PartialShape(out)
    n = max(len(da), len(db))
    da = [Dimension(1)] * (n - len(da)) + da
    db = [Dimension(1)] * (n - len(db)) + db
    out = []
    for x, y in zip(da, db, strict=True):
        if _is_one(x):
            out.append(y)
        elif _is_one(y):
            out.append(x)
        else:
            m = _dim_merge(x, y)
            if m is None:
                return None
            out.append(m)
    return PartialShape(out)


def _pdpd_merge(a: PartialShape, b: PartialShape, axis: int = 0) -> PartialShape | None:
    """PDPD: ``b`` (its trailing 1s dropped) lines up with ``a`` from ``axis``; a 1 in ``b``
    keeps ``a``'s dimension, a 1 in ``a`` takes ``b``'s if it is dynamic, and two other
    dimensions intersect (measured on the 2026.4.1 wheel: ``[1,1,?,?]`` with ``[1,?,?]`` gives
    ``[1,?,?,?]``; ``[1,?,1]`` with ``[3,?,?]`` fails)."""
    if a.rank.is_dynamic or b.rank.is_dynamic:
        return a
    da, db = list(a), list(b)
    if len(db) > len(da):
        return None
    n = len(db)
    while n > 0 and _is_one(db[n - 1]):
        n -= 1
    if axis + n > len(da):
        return None
    out = list(da)
    for i in range(n):
        d, src = da[axis + i], db[i]
        if _is_one(src):
            continue
        if _is_one(d):
            if src.is_static:
                return None
            out[axis + i] = src
            continue
        m = _dim_merge(d, src)
        if m is None:
            return None
        out[axis + i] = m
    return PartialShape(out)


def _stand_in(shape: PartialShape, length: int, pins: dict | None = None,
              index: int = 0) -> tuple[int, ...]:
    """Input ``index``'s shape with ``length`` for each dynamic dimension (or its pin)."""
    pins = pins or {}
    return tuple(d.get_length() if d.is_static else pins.get((index, j), length)
                 for j, d in enumerate(shape))


def _run(node: Any, stand_ins: dict[int, tuple[int, ...]]) -> list[tuple[Any, Type]]:
    """Run the node's static inference with some inputs' shapes replaced by stand-ins (the
    source ports' stored shapes are swapped for the call and restored)."""
    saved = []
    try:
        for i, shape in stand_ins.items():
            src = node._inputs[i]
            saved.append((src._node, src._index, src._node._out_shapes[src._index]))
            src._node._out_shapes[src._index] = shape
        return node._op.infer(node)
    finally:
        for owner, index, shape in reversed(saved):
            owner._out_shapes[index] = shape


#: op type name -> a rule that infers its outputs where the generic way cannot (the output's
#: rank or lengths come from input values, or OpenVINO has its own dynamic rule); a rule
#: returns None to leave the node to the static inference (or to the stand-ins above).
#: Registered beside the ops (``shape_ops.py``), as ``node.set_builder`` is.
RULES: dict[str, Callable[[Any], list[tuple[Any, Type]] | None]] = {}


def rule(type_name: str) -> Callable[[Callable], Callable]:
    """Register ``fn`` as the dynamic-shape rule of ``type_name`` (see ``RULES``)."""
    def deco(fn: Callable) -> Callable:
        RULES[type_name] = fn
        return fn
    return deco


def infer(node: Any, error: Callable[[str], Exception]) -> list[tuple[Any, Type]]:
    """Output (shape, type) pairs of ``node`` whose inputs have dynamic shapes; the shapes are
    PartialShapes where dynamic. ``error(text)`` makes the exception of a failure."""
    fn = RULES.get(node._op.type_name)
    if fn is not None and (outs := fn(node)) is not None:
        return outs
    shapes = {i: src._node._out_shapes[src._index] for i, src in enumerate(node._inputs)}
    dyn = {i: s for i, s in shapes.items() if is_dynamic(s)}
    if not dyn:
        return node._op.infer(node)
    if any(a.name == "auto_broadcast" for a in node._op.attrs) and len(node._inputs) >= 2:
        return _broadcasting(node, shapes, dyn, error)
    if any(s.rank.is_dynamic for s in dyn.values()):
        return _dynamic_rank(node, dyn, error)
    pins, runs = _search(node, shapes, dyn, error)
    first = dyn.get(0)
    outs = []
    for (s1, t), (s2, _) in zip(*runs, strict=True):
        s1, s2 = tuple(s1), tuple(s2)
        if first is not None and s1 == _stand_in(first, _PROBES[0], pins, 0) \
                and s2 == _stand_in(first, _PROBES[1], pins, 0):
            # the output is input 0's shape: keep its dimensions (a pinned one is known now)
            outs.append((PartialShape([Dimension(pins[(0, j)]) if (0, j) in pins else d
                                       for j, d in enumerate(first)]), t))
        elif len(s1) != len(s2):
            outs.append((PartialShape.dynamic(), t))
        else:
            outs.append((PartialShape([a if a == b else -1 for a, b in zip(s1, s2, strict=True)]), t))
    return outs


def _search(node: Any, shapes: dict[int, Any], dyn: dict[int, PartialShape],
            error: Callable[[str], Exception]) -> tuple[dict, list]:
    """Run the static inference twice on stand-in lengths. Where the op's rules tie a dynamic
    dimension to another input's length (MatMul's inner dimension, Concat's other axes), the
    stand-ins fail; then that dimension is pinned to a length the inputs have (or 1), as
    OpenVINO's merge of a ``?`` with a known length gives that length."""
    def attempt(pins: dict) -> list:
        return [_run(node, {i: _stand_in(s, n, pins, i) for i, s in dyn.items()})
                for n in _PROBES]

    try:
        return {}, attempt({})
    except Exception as e:
        first_error = e
    slots = [(i, j) for i, s in dyn.items() for j, d in enumerate(s) if d.is_dynamic]
    lengths = sorted({int(d) for s in shapes.values() if not is_dynamic(s) for d in s}
                     | {d.get_length() for s in dyn.values() for d in s if d.is_static} | {1})
    for slot in slots:
        for n in lengths:
            try:
                return {slot: n}, attempt({slot: n})
            except Exception:
                continue
    for n in lengths:
        pins = {slot: n for slot in slots}
        try:
            return pins, attempt(pins)
        except Exception:
            continue
    if not any(str(n) in str(first_error) for n in _PROBES):
        raise first_error  # not about the stand-in lengths: the op's own error (types ...)
    raise error(_refused(node, shapes, first_error)) from None


def _dynamic_rank(node: Any, dyn: dict[int, PartialShape],
                  error: Callable[[str], Exception]) -> list[tuple[Any, Type]]:
    """An input of dynamic rank: the outputs that follow input 0's shape at two stand-in ranks
    have its dynamic rank; any other op cannot say its output's rank here."""
    runs = []
    for probe in _RANK_PROBES:
        stand = {i: (probe if s.rank.is_dynamic else _stand_in(s, _PROBES[0]))
                 for i, s in dyn.items()}
        try:
            runs.append((stand.get(0), _run(node, stand)))
        except Exception as e:
            raise error(_refused(node, {i: s for i, s in dyn.items()}, e)) from None
    outs = []
    for k, (_, t) in enumerate(runs[0][1]):
        follows = all(first is not None and tuple(r[k][0]) == first for first, r in runs)
        if not follows:
            raise error(f"ovlab infers {node._op.type_name} over an input of dynamic rank only "
                        "when its output is that input's shape; give the input a rank")
        outs.append((dyn[0], t))
    return outs


def _broadcasting(node: Any, shapes: dict[int, Any], dyn: dict[int, PartialShape],
                  error: Callable[[str], Exception]) -> list[tuple[Any, Type]]:
    """Ops with ``auto_broadcast``: the inputs' shapes merge; the type comes from the static
    inference on the merged shape's lengths (a dynamic one stands in as 1)."""
    mode = str(node._attrs.get("auto_broadcast", "numpy")).upper()
    merged: PartialShape | None = PartialShape(_partial(shapes[0]))
    for i in range(1, len(node._inputs)):
        merged = broadcast_merge(merged, _partial(shapes[i]), mode) if merged is not None \
            else None
    if merged is None:
        # OpenVINO checks the element types first: a type error on lengths of 1 comes first
        _run(node, {i: tuple(d.get_length() if d.is_static else 1 for d in s)
                    if s.rank.is_static else (1,) for i, s in dyn.items()})
        raise error("Argument shapes are inconsistent.")
    stand = {}
    out = list(merged) if merged.rank.is_static else []
    for i, s in dyn.items():
        if s.rank.is_dynamic or (mode == "PDPD" and i > 0):
            # a dynamic rank stands in as [1]; PDPD lines the others up with input 0 from its
            # first axis, where a 1 always fits
            stand[i] = (1,) if s.rank.is_dynamic else tuple(
                d.get_length() if d.is_static else 1 for d in s)
            continue
        off = len(out) - len(s)
        stand[i] = tuple(d.get_length() if d.is_static else
                         (out[off + j].get_length() if 0 <= off + j < len(out)
                          and out[off + j].is_static else 1)
                         for j, d in enumerate(s))
    outs = _run(node, stand)  # the merged lengths fit: an error here is the op's own (types)
    return [(merged, t) for _, t in outs]


def _partial(shape: Any) -> PartialShape:
    return shape if isinstance(shape, PartialShape) else PartialShape(list(shape))


def _refused(node: Any, shapes: dict[int, Any], e: Exception) -> str:
    ins = ", ".join(str(_partial(s)) for s in shapes.values())
    why = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
    return (f"ovlab cannot infer {node._op.type_name}'s output over the dynamic input shapes "
            f"{ins}: its shape rules need the lengths ({why})")
