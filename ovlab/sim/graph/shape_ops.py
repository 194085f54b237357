"""Shape and data-movement ops: Reshape, Squeeze, Unsqueeze, Transpose, Concat, Split,
VariadicSplit, ShapeOf, Broadcast, Tile, Pad, StridedSlice, Slice, the space/depth/batch
rearrangements, Roll and ReverseSequence.

None of them does arithmetic, so they cost bytes and no FLOPs. Reshape, Squeeze and Unsqueeze
are free (the CPU plugin does not run them); the others move data. ShapeOf depends only on
shapes, so it folds to a constant: a ShapeOf -> Gather -> Concat -> Reshape chain becomes a
constant target shape, as OpenVINO's constant folding makes it, and is recomputed when the
model is reshaped (the batch of a BATCH-plugin copy flows through it).
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence

import numpy as np

from . import dynamic
from .attrs import Attr
from .node import Node, ShapeType
from .ops import (
    Ctx,
    NodeInput,
    as_output,
    const_input,
    constant_value,
    int_const,
    int_list,
    keeps_batch,
    make_node,
    mixes_batch,
    need,
    norm_axis,
    numel,
    register,
    same_type,
)
from .types import Dimension, PartialShape, Type, shape_str

# the builder below takes the builtin's name (OpenVINO's), so the module uses this alias
py_slice = builtins.slice

__all__ = [
    "batch_to_space", "broadcast", "concat", "depth_to_space", "pad", "reshape",
    "reverse_sequence", "roll", "shape_of", "shuffle_channels", "slice", "space_to_batch",
    "space_to_depth", "split", "squeeze", "strided_slice", "tile", "transpose", "unsqueeze",
    "variadic_split",
]


def _batch_kept(node: Node, live: Sequence[bool]) -> str | None:
    """For reshapes: the batch (dim 0) must stay dim 0, neither merged nor moved."""
    if not live or not live[0]:
        return None
    src, out = node._in_shape(0), node._out_shapes[0]
    if not src or not out or out[0] != src[0]:
        return (f"it turns {shape_str(src)} into {shape_str(out)}, moving or merging the batch "
                "axis")
    return None


def _axis_scalar(node: Node, i: int, rank: int, what: str = "axis") -> int:
    v = const_input(node, i, what)
    need(v.dtype.kind in "iu" and v.size == 1, f"{what} must be an integer scalar, got "
         f"{v.dtype} of shape {shape_str(v.shape)}")
    return norm_axis(int(v.reshape(())), rank, what)


# --- Reshape, Squeeze, Unsqueeze ----------------------------------------------------------------
def _reshape_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    pattern = int_list(node, 1, "output_shape")
    need(sum(1 for p in pattern if p == -1) <= 1, f"at most one -1 is allowed in the target "
         f"shape, got {pattern}")
    dims = []
    for i, p in enumerate(pattern):
        if p == 0 and node._attrs["special_zero"]:
            need(i < len(src), f"special_zero copies dim {i}, but the input {shape_str(src)} "
                 f"has rank {len(src)}")
            dims.append(src[i])
        else:
            need(p >= -1, f"invalid dimension {p} in target shape {pattern}")
            dims.append(p)
    total = numel(src)
    if -1 in dims:
        known = numel(d for d in dims if d != -1)
        need(known > 0 and total % known == 0, f"Requested output shape {pattern} is "
             f"incompatible with input shape {shape_str(src)}")
        dims[dims.index(-1)] = total // known
    need(numel(dims) == total, f"Requested output shape {shape_str(dims)} is incompatible with "
         f"input shape {shape_str(src)} ({numel(dims)} vs {total} elements)")
    return [(tuple(dims), node._in_type(0))]


def _reshape(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    return [xs[0].reshape(node._out_shapes[0])]


register("Reshape", "opset1", _reshape_infer, _reshape, view=True,
         attrs=[Attr("special_zero", "bool")], batch=_batch_kept)


def _squeeze_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    axes = int_list(node, 1, "axes") if len(node._inputs) > 1 else []
    if not axes:
        dims = [d for d in src if d != 1]
    else:
        # an axis whose size is not 1 stays, as in OpenVINO 2026 (measured on the 2026.4.1
        # wheel: [1,2,1,3,1,1] squeezed on [1, 2] gives [1,2,3,1,1]; earlier releases failed)
        ax = {norm_axis(a, len(src)) for a in axes}
        dims = [d for i, d in enumerate(src) if not (i in ax and d == 1)]
    return [(tuple(dims), node._in_type(0))]


def _unsqueeze_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    axes = int_list(node, 1, "axes")
    rank = len(src) + len(axes)
    ax = sorted(norm_axis(a, rank) for a in axes)
    need(len(set(ax)) == len(ax), f"repeated axes in {axes}")
    dims = list(src)
    for a in ax:
        dims.insert(a, 1)
    return [(tuple(dims), node._in_type(0))]


register("Squeeze", "opset1", _squeeze_infer, _reshape, view=True, batch=_batch_kept)
register("Unsqueeze", "opset1", _unsqueeze_infer, _reshape, view=True, batch=_batch_kept)


# --- Transpose, Concat --------------------------------------------------------------------------
def _transpose_order(node: Node) -> list[int]:
    rank = len(node._in_shape(0))
    order = int_list(node, 1, "input_order")
    if not order:
        return list(range(rank))[::-1]
    order = [o + rank if o < 0 else o for o in order]
    need(sorted(order) == list(range(rank)), f"input_order {order} is not a permutation of the "
         f"{rank} axes of {shape_str(node._in_shape(0))}")
    return order


def _transpose_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    return [(tuple(src[i] for i in _transpose_order(node)), node._in_type(0))]


def _transpose(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    return [np.transpose(xs[0], _transpose_order(node))]


def _transpose_batch(node: Node, live: Sequence[bool]) -> str | None:
    if live[0] and node._in_shape(0) and _transpose_order(node)[0] != 0:
        return f"its order {_transpose_order(node)} moves the batch axis"
    return None


# Transpose moves data on a real device, so it has a cost, but in NumPy it is a view.
register("Transpose", "opset1", _transpose_infer, _transpose, view=True, batch=_transpose_batch)


def _concat_infer(node: Node) -> list[ShapeType]:
    need(len(node._inputs) > 0, "needs at least one input")
    shapes = [node._in_shape(i) for i in range(len(node._inputs))]
    t = same_type(node, list(range(len(shapes))))
    rank = len(shapes[0])
    need(rank > 0, "cannot concatenate scalars")
    axis = norm_axis(node._attrs["axis"], rank)
    for i, s in enumerate(shapes):
        need(len(s) == rank and all(a == b for j, (a, b) in enumerate(zip(s, shapes[0], strict=False))
                                    if j != axis),
             f"input {i} has shape {shape_str(s)}, which does not match {shape_str(shapes[0])} "
             f"outside axis {axis}")
    out = list(shapes[0])
    out[axis] = sum(s[axis] for s in shapes)
    return [(tuple(out), t)]


def _concat(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    return [np.concatenate(xs, axis=norm_axis(node._attrs["axis"], xs[0].ndim))]


def _concat_batch(node: Node, live: Sequence[bool]) -> str | None:
    if any(live) and norm_axis(node._attrs["axis"], len(node._out_shapes[0])) == 0:
        return "it concatenates along axis 0, the batch axis"
    return None


register("Concat", "opset1", _concat_infer, _concat, attrs=[Attr("axis", "int")],
         batch=_concat_batch)


# --- Split, VariadicSplit -----------------------------------------------------------------------
def _split_sizes(node: Node) -> tuple[int, list[int]]:
    src = node._in_shape(0)
    axis = _axis_scalar(node, 1, len(src))
    if node.get_type_name() == "Split":
        n = node._attrs["num_splits"]
        need(n > 0, f"num_splits must be positive, got {n}")
        need(src[axis] % n == 0, f"Dimension of data input shape along 'axis': {src[axis]} "
             f"must be evenly divisible by 'num_splits' attribute value: {n}")
        return axis, [src[axis] // n] * n
    lengths = int_list(node, 2, "split_lengths")
    need(sum(1 for v in lengths if v == -1) <= 1, f"split_lengths {lengths} has more than one -1")
    known = sum(v for v in lengths if v != -1)
    if -1 in lengths:
        need(known <= src[axis], f"split_lengths {lengths} exceed dimension {src[axis]}")
        lengths = [src[axis] - known if v == -1 else v for v in lengths]
    need(all(v >= 0 for v in lengths) and sum(lengths) == src[axis],
         f"Total length of splits: {sum(lengths)} must match the length of the chosen axis: "
         f"{src[axis]}")
    return axis, lengths


def _split_infer(node: Node) -> list[ShapeType]:
    src, t = node._in_shape(0), node._in_type(0)
    axis, sizes = _split_sizes(node)
    return [(src[:axis] + (s,) + src[axis + 1:], t) for s in sizes]


def _split(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    axis, sizes = _split_sizes(node)
    return np.split(xs[0], np.cumsum(sizes)[:-1], axis=axis)


def _split_batch(node: Node, live: Sequence[bool]) -> str | None:
    if live[0] and _split_sizes(node)[0] == 0:
        return "it splits along axis 0, the batch axis"
    return None


register("Split", "opset1", _split_infer, _split, view=True,
         attrs=[Attr("num_splits", "int")], batch=_split_batch)
register("VariadicSplit", "opset1", _split_infer, _split, view=True, batch=_split_batch)


# --- ShapeOf ------------------------------------------------------------------------------------
def _shape_of_infer(node: Node) -> list[ShapeType]:
    t = node._attrs["output_type"]
    need(t in (Type.i64, Type.i32), f"output_type must be i64 or i32, got {t.get_type_name()}")
    return [((len(node._in_shape(0)),), t)]


def _shape_of(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    return [np.array(node._in_shape(0), dtype=node._attrs["output_type"].to_dtype())]


register("ShapeOf", "opset3", _shape_of_infer, _shape_of, attrs=[Attr("output_type", "type",
                                                                        Type.i64)],
         shape_only=True)


# --- Broadcast, Tile ----------------------------------------------------------------------------
def _broadcast_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    target = int_list(node, 1, "target_shape")
    mode = node._attrs["mode"]
    if mode == "explicit":
        need(len(node._inputs) > 2, "explicit mode needs axes_mapping")
        axes = int_list(node, 2, "axes_mapping")
        need(len(axes) == len(src), f"axes_mapping {axes} must have one axis per data dim "
             f"({shape_str(src)})")
        need(all(0 <= a < len(target) for a in axes) and axes == sorted(axes),
             f"axes_mapping {axes} must be increasing axes of the target {target}")
        for d, a in zip(src, axes, strict=True):
            need(d in (1, target[a]), f"Broadcast axes_mapping mismatch: data dim {d} cannot "
                 f"broadcast to target dim {target[a]} on axis {a}")
        return [(tuple(target), node._in_type(0))]
    if mode == "bidirectional":  # both padded with leading 1s, checked left to right
        rank = max(len(src), len(target))
        a = [1] * (rank - len(src)) + list(src)
        t = [1] * (rank - len(target)) + list(target)
        for d, want in zip(a, t, strict=True):
            need(d == want or 1 in (d, want), "Broadcast incorrect target shape. Expecting "
                 f"either 1 or {d}. Got {want}")
        return [(tuple(max(d, w) if 1 in (d, w) else d for d, w in zip(a, t, strict=True)),
                 node._in_type(0))]
    need(mode == "numpy", f"mode {mode!r} is not supported (numpy, bidirectional, explicit)")
    need(len(target) >= len(src), f"Broadcast target_shape has smaller rank {len(target)} than "
         f"arg shape {len(src)}")
    for d, t in zip(src, target[len(target) - len(src):], strict=True):
        need(d in (1, t), f"Input shape dimension equal {d} cannot be broadcasted (numpy mode) "
             f"to {t}. Allowed input dimension value would be 1" + (f" or {t}" if t != 1 else ""))
    return [(tuple(target), node._in_type(0))]


def raise_shape(msg: str) -> None:
    need(False, msg)


def _broadcast(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    out = node._out_shapes[0]
    if node._attrs["mode"] == "explicit":
        axes = int_list(node, 2, "axes_mapping")
        shape = [1] * len(out)
        for d, a in zip(x.shape, axes, strict=True):
            shape[a] = d
        x = x.reshape(shape)
    return [np.ascontiguousarray(np.broadcast_to(x, out))]


register("Broadcast", "opset3", _broadcast_infer, _broadcast,
         attrs=[Attr("mode", "str", "numpy", ("numpy", "explicit", "bidirectional", "pdpd"))],
         batch=lambda n, live: keeps_batch(n, live[:1]))


def _tile_repeats(node: Node) -> tuple[list[int], int]:
    src = node._in_shape(0)
    reps = int_list(node, 1, "repeats")
    need(all(r >= 0 for r in reps), f"repeats must not be negative, got {reps}")
    rank = max(len(src), len(reps))
    return [1] * (rank - len(reps)) + reps, rank


def _tile_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    reps, rank = _tile_repeats(node)
    full = [1] * (rank - len(src)) + list(src)
    return [(tuple(d * r for d, r in zip(full, reps, strict=True)), node._in_type(0))]


def _tile(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    reps, _ = _tile_repeats(node)
    return [np.tile(xs[0], reps)]


def _tile_batch(node: Node, live: Sequence[bool]) -> str | None:
    if not live[0]:
        return None
    reps, rank = _tile_repeats(node)
    if rank > len(node._in_shape(0)) or reps[0] != 1:
        return f"its repeats {reps} tile along (or before) the batch axis"
    return None


register("Tile", "opset1", _tile_infer, _tile, batch=_tile_batch)


# --- Pad ----------------------------------------------------------------------------------------
def _pads(node: Node) -> tuple[list[int], list[int]]:
    rank = len(node._in_shape(0))
    pb, pe = int_list(node, 1, "pads_begin"), int_list(node, 2, "pads_end")
    need(len(pb) == rank and len(pe) == rank, f"pads_begin {pb} and pads_end {pe} must have "
         f"one value per data dim ({shape_str(node._in_shape(0))})")
    return pb, pe


def _pad_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    pb, pe = _pads(node)
    mode = node._attrs["pad_mode"]
    out = [d + b + e for d, b, e in zip(src, pb, pe, strict=True)]
    need(all(o >= 0 for o in out), f"pads {pb} / {pe} crop more than the data "
         f"{shape_str(src)} has")
    if mode in ("reflect", "symmetric"):
        lim = 1 if mode == "reflect" else 0
        for d, b, e in zip(src, pb, pe, strict=True):
            need(max(b, e) <= d - lim, f"{mode} padding of {max(b, e)} needs a dimension of at "
                 f"least {max(b, e) + lim}, got {d}")
    if len(node._inputs) > 3:
        need(node._in_type(3) == node._in_type(0), "pad_value must have the data's element type")
        need(numel(node._in_shape(3)) == 1, "pad_value must be a scalar")
    return [(tuple(out), node._in_type(0))]


def _pad(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    pb, pe = _pads(node)
    crop = tuple(py_slice(max(0, -b), d - max(0, -e)) for d, b, e in zip(x.shape, pb, pe, strict=True))
    x = x[crop]
    width = [(max(0, b), max(0, e)) for b, e in zip(pb, pe, strict=True)]
    mode = node._attrs["pad_mode"]
    if mode == "constant":
        value = xs[3].reshape(()) if len(xs) > 3 else 0
        return [np.pad(x, width, mode="constant", constant_values=value)]
    return [np.pad(x, width, mode=mode)]


def _pad_batch(node: Node, live: Sequence[bool]) -> str | None:
    pb, pe = _pads(node)
    return "it pads the batch axis" if live[0] and (pb[0] or pe[0]) else None


register("Pad", "opset12", _pad_infer, _pad,
         attrs=[Attr("pad_mode", "str", "constant", ("constant", "edge", "reflect", "symmetric"))],
         batch=_pad_batch)


# --- StridedSlice, Slice ------------------------------------------------------------------------
def _mask(node: Node, name: str, n: int) -> list[int]:
    m = list(node._attrs.get(name) or [])
    return m + [0] * max(0, n - len(m))


def _strided_index(node: Node) -> tuple:
    begin, end = int_list(node, 1, "begin"), int_list(node, 2, "end")
    strides = int_list(node, 3, "strides") if len(node._inputs) > 3 else [1] * len(begin)
    n = max(len(begin), len(end), len(strides))
    # OpenVINO's checks, in its order and words (strided_slice_shape_inference.hpp)
    need(len(begin) == len(end), "Begin and end need to have same number of values.")
    need(len(strides) == len(begin), "Stride needs to have same number of values as begin "
         "and end.")
    need(all(s != 0 for s in strides), "Stride must be non-zero")
    bm, em = _mask(node, "begin_mask", n), _mask(node, "end_mask", n)
    nm, sm = _mask(node, "new_axis_mask", n), _mask(node, "shrink_axis_mask", n)
    elm = _mask(node, "ellipsis_mask", n)
    need(sum(1 for v in elm if v) <= 1, "At most one ellipsis is allowed.")  # the whole mask
    idx: list[object] = []
    for i in range(n):
        if elm[i]:
            idx.append(Ellipsis)
        elif nm[i]:
            idx.append(np.newaxis)
        elif sm[i]:
            idx.append(begin[i])
        else:
            idx.append(py_slice(None if bm[i] else begin[i], None if em[i] else end[i], strides[i]))
    return tuple(idx)


def _probe(node: Node) -> np.ndarray:
    """A zero-stride stand-in for input 0: indexing it gives the output shape for free."""
    return np.broadcast_to(np.zeros((), np.int8), node._in_shape(0))


def _index_infer(index_of) -> object:
    def infer(node: Node) -> list[ShapeType]:
        index = index_of(node)
        try:
            shape = _probe(node)[index].shape
        except IndexError as e:
            # a shrunk axis removes the axis whatever its index: OpenVINO's shape inference
            # does not range-check it (only evaluating the op would), so neither does ovlab's
            try:
                shape = _probe(node)[tuple(0 if isinstance(i, (int, np.integer)) else i
                                           for i in index)].shape
            except IndexError:
                raise_shape(f"the slice is out of range for {shape_str(node._in_shape(0))}: {e}")
        return [(tuple(shape), node._in_type(0))]
    return infer


def _slice_index(node: Node, first: int = 1) -> tuple:
    """Slice-8's index into input 0: start, stop, step (and axes) from input ``first`` on
    (SliceScatter-15 has its updates at 1 and them from 2)."""
    src = node._in_shape(0)
    start, stop = int_list(node, first, "start"), int_list(node, first + 1, "stop")
    step = int_list(node, first + 2, "step")
    axes = (int_list(node, first + 3, "axes") if len(node._inputs) > first + 3
            else list(range(len(start))))
    need(len(start) == len(stop) == len(step) == len(axes), f"start {start}, stop {stop}, step "
         f"{step} and axes {axes} must have the same length")
    need(all(s != 0 for s in step), f"Step value must not be zero, got {step}")
    idx = [py_slice(None)] * len(src)
    for b, e, s, a in zip(start, stop, step, axes, strict=True):
        idx[norm_axis(a, len(src))] = py_slice(b, e, s)
    return tuple(idx)


def _indexing(index_of) -> object:
    def compute(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
        return [np.array(xs[0][index_of(node)])]
    return compute


def _sliced_batch(index_of) -> object:
    def rule(node: Node, live: Sequence[bool]) -> str | None:
        if not live[0]:
            return None
        idx = index_of(node)
        first = idx[0] if idx else py_slice(None)
        n0 = node._in_shape(0)[0] if node._in_shape(0) else 1
        if first is Ellipsis or (isinstance(first, py_slice)
                                 and range(*first.indices(n0)) == range(n0)):
            return None
        return "it slices, drops or adds the batch axis"
    return rule


register("StridedSlice", "opset1", _index_infer(_strided_index), _indexing(_strided_index),
         attrs=[Attr(n, "ints", ()) for n in ("begin_mask", "end_mask", "new_axis_mask",
                                              "shrink_axis_mask", "ellipsis_mask")],
         batch=_sliced_batch(_strided_index))
register("Slice", "opset8", _index_infer(_slice_index), _indexing(_slice_index),
         batch=_sliced_batch(_slice_index))


# --- DepthToSpace, SpaceToDepth, ShuffleChannels ------------------------------------------------
def _d2s_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    bs = node._attrs["block_size"]
    need(len(src) >= 3, f"data must have rank 3 or more, got {shape_str(src)}")
    need(bs > 0, f"block_size must be positive, got {bs}")
    k = len(src) - 2
    if node.get_type_name() == "DepthToSpace":
        need(src[1] % bs ** k == 0, f"The input data's 'channels' axis size: {src[1]} must be "
             f"evenly divisible by 'block_size'^'spatial_dims': {bs ** k}")
        return [((src[0], src[1] // bs ** k, *(d * bs for d in src[2:])), node._in_type(0))]
    for d in src[2:]:
        need(d % bs == 0, f"The spatial dims {shape_str(src[2:])} must be divisible by "
             f"block_size {bs}")
    return [((src[0], src[1] * bs ** k, *(d // bs for d in src[2:])), node._in_type(0))]


def _interleave(a: Sequence[int], b: Sequence[int]) -> list[int]:
    return [v for pair in zip(a, b, strict=True) for v in pair]


def _d2s(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    bs, first = node._attrs["block_size"], node._attrs["mode"] == "blocks_first"
    n, c, sp = x.shape[0], x.shape[1], list(x.shape[2:])
    k = len(sp)
    if node.get_type_name() == "DepthToSpace":
        cc = c // bs ** k
        if first:
            y = x.reshape([n] + [bs] * k + [cc] + sp)
            order = [0, k + 1] + _interleave(range(k + 2, 2 * k + 2), range(1, k + 1))
        else:
            y = x.reshape([n, cc] + [bs] * k + sp)
            order = [0, 1] + _interleave(range(k + 2, 2 * k + 2), range(2, k + 2))
    else:
        y = x.reshape([n, c] + _interleave([d // bs for d in sp], [bs] * k))
        blocks, dims = list(range(3, 2 * k + 2, 2)), list(range(2, 2 * k + 2, 2))
        order = [0] + blocks + [1] + dims if first else [0, 1] + blocks + dims
    return [np.ascontiguousarray(y.transpose(order)).reshape(node._out_shapes[0])]


_D2S_MODES = ("blocks_first", "depth_first")
register("DepthToSpace", "opset1", _d2s_infer, _d2s,
         attrs=[Attr("block_size", "int", 1), Attr("mode", "str", "blocks_first", _D2S_MODES)],
         batch=keeps_batch)
register("SpaceToDepth", "opset1", _d2s_infer, _d2s,
         attrs=[Attr("block_size", "int", 1), Attr("mode", "str", "blocks_first", _D2S_MODES)],
         batch=keeps_batch)


def _shuffle_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    axis = norm_axis(node._attrs["axis"], len(src))
    g = node._attrs["group"]
    need(g >= 1 and src[axis] % g == 0, f"channel dimension size {src[axis]} must be a multiple "
         f"of group {g}")
    return [(src, node._in_type(0))]


def _shuffle(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    axis = norm_axis(node._attrs["axis"], x.ndim)
    g = node._attrs["group"]
    shape = x.shape[:axis] + (g, x.shape[axis] // g) + x.shape[axis + 1:]
    y = x.reshape(shape).swapaxes(axis, axis + 1)
    return [np.ascontiguousarray(y).reshape(x.shape)]


register("ShuffleChannels", "opset1", _shuffle_infer, _shuffle,
         attrs=[Attr("axis", "int", 1), Attr("group", "int", 1)],
         batch=lambda n, live: ("it shuffles the batch axis" if live[0] and norm_axis(
             n._attrs["axis"], len(n._in_shape(0))) == 0 else None))


# --- BatchToSpace, SpaceToBatch -----------------------------------------------------------------
def _block_args(node: Node) -> tuple[list[int], list[int], list[int]]:
    src = node._in_shape(0)
    block = int_list(node, 1, "block_shape")
    a, b = int_list(node, 2, "begin"), int_list(node, 3, "end")
    need(len(block) == len(a) == len(b) == len(src), f"block_shape {block} and the pads/crops "
         f"{a} / {b} must have one value per data dim ({shape_str(src)})")
    need(all(v >= 1 for v in block) and block[0] == 1, f"block_shape {block} must be positive "
         "with 1 for the batch axis")
    return block, a, b


def _b2s_infer(node: Node) -> list[ShapeType]:
    src = node._in_shape(0)
    block, a, b = _block_args(node)
    prod = numel(block)
    if node.get_type_name() == "BatchToSpace":
        need(src[0] % prod == 0, f"The input data's 'batch' axis size: {src[0]} must be a "
             f"multiple of the product of block_shape values: {prod}")
        out = [src[0] // prod] + [d * k - x - y for d, k, x, y in
                                   zip(src[1:], block[1:], a[1:], b[1:], strict=True)]
        need(all(v >= 0 for v in out), f"crops {a} / {b} are larger than the data")
    else:
        padded = [d + x + y for d, x, y in zip(src, a, b, strict=True)]
        for d, k in zip(padded[1:], block[1:], strict=True):
            need(d % k == 0, f"padded dims {padded} must be divisible by block_shape {block}")
        out = [src[0] * prod] + [d // k for d, k in zip(padded[1:], block[1:], strict=True)]
    return [(tuple(out), node._in_type(0))]


def _b2s(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0]
    block, a, b = _block_args(node)
    blocks = block[1:]
    n = len(blocks)
    if node.get_type_name() == "BatchToSpace":
        batch = x.shape[0] // numel(block)
        y = x.reshape(blocks + [batch] + list(x.shape[1:]))
        order = [n] + _interleave(range(n + 1, 2 * n + 1), range(n))
        y = y.transpose(order).reshape([batch] + [d * k for d, k in zip(x.shape[1:], blocks,
                                                                        strict=True)])
        crop = tuple(py_slice(s, y.shape[i] - e) for i, (s, e) in enumerate(zip(a, b, strict=True)))
        return [np.ascontiguousarray(y[crop])]
    y = np.pad(x, list(zip(a, b, strict=True)))
    batch = y.shape[0]
    y = y.reshape([batch] + _interleave([d // k for d, k in zip(y.shape[1:], blocks,
                                                                 strict=True)], blocks))
    order = list(range(2, 2 * n + 1, 2)) + [0] + list(range(1, 2 * n, 2))
    return [np.ascontiguousarray(y.transpose(order)).reshape(node._out_shapes[0])]


register("BatchToSpace", "opset2", _b2s_infer, _b2s,
         batch=mixes_batch("it moves data between the batch and the spatial axes"))
register("SpaceToBatch", "opset2", _b2s_infer, _b2s,
         batch=mixes_batch("it moves data between the batch and the spatial axes"))


# --- Roll, ReverseSequence ----------------------------------------------------------------------
def _roll_args(node: Node) -> tuple[list[int], list[int]]:
    rank = len(node._in_shape(0))
    shift, axes = int_list(node, 1, "shift"), int_list(node, 2, "axes")
    axes = [norm_axis(a, rank) for a in axes]
    if len(shift) == 1 and len(axes) > 1:
        shift = shift * len(axes)
    need(len(shift) == len(axes), f"shift {shift} and axes {axes} must have the same length")
    return shift, axes


def _roll_infer(node: Node) -> list[ShapeType]:
    _roll_args(node)
    return [(node._in_shape(0), node._in_type(0))]


def _roll(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    shift, axes = _roll_args(node)
    return [np.roll(xs[0], shift, axes)]


# Identity-16: a copy of its input (a placeholder the frontends leave; transformations fold it)
register("Identity", "opset16", lambda n: [(n._in_shape(0), n._in_type(0))],
         lambda n, xs, c: [np.array(xs[0], copy=True)], batch=keeps_batch)


register("Roll", "opset7", _roll_infer, _roll,
         batch=lambda n, live: ("it rolls along the batch axis" if live[0] and 0 in
                                _roll_args(n)[1] else None))


def _rev_axes(node: Node) -> tuple[int, int]:
    rank = len(node._in_shape(0))
    return (norm_axis(node._attrs["batch_axis"], rank, "batch_axis"),
            norm_axis(node._attrs["seq_axis"], rank, "seq_axis"))


def _reverse_infer(node: Node) -> list[ShapeType]:
    b, s = _rev_axes(node)
    src = node._in_shape(0)
    need(node._in_shape(1) == (src[b],), f"seq_lengths must have shape [{src[b]}], got "
         f"{shape_str(node._in_shape(1))}")
    return [(src, node._in_type(0))]


def _reverse(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x, lengths = xs
    b, s = _rev_axes(node)
    n = x.shape[s]
    lengths = np.clip(lengths.astype(np.int64), 0, n)
    pos = np.arange(n)
    idx = np.where(pos[None, :] < lengths[:, None], lengths[:, None] - 1 - pos[None, :],
                   pos[None, :])  # [batch, seq]
    shape = [1] * x.ndim
    shape[b], shape[s] = x.shape[b], n
    if b > s:
        idx = idx.T
    return [np.take_along_axis(x, np.broadcast_to(idx.reshape(shape), x.shape), axis=s)]


register("ReverseSequence", "opset1", _reverse_infer, _reverse,
         attrs=[Attr("batch_axis", "int", 0), Attr("seq_axis", "int", 1)],
         batch=lambda n, live: (None if _rev_axes(n)[0] == 0 and _rev_axes(n)[1] != 0
                                else "its batch_axis is not axis 0"))


# --- builders -----------------------------------------------------------------------------------
def reshape(node: NodeInput, output_shape: NodeInput, special_zero: bool,
            name: str | None = None) -> Node:
    """Reshape-1; with ``special_zero=True`` a 0 keeps the input's dim (``[0, -1]`` flattens
    while keeping the batch, which keeps a model batchable)."""
    return make_node("Reshape", [node, int_const(output_shape)], {"special_zero": special_zero},
                     name)


def transpose(data: NodeInput, input_order: NodeInput, name: str | None = None) -> Node:
    return make_node("Transpose", [data, int_const(input_order)], name=name)


def squeeze(data: NodeInput, axes: NodeInput, name: str | None = None) -> Node:
    return make_node("Squeeze", [data, int_const(axes)], name=name)


def unsqueeze(data: NodeInput, axes: NodeInput, name: str | None = None) -> Node:
    return make_node("Unsqueeze", [data, int_const(axes)], name=name)


def concat(nodes: list[NodeInput], axis: int, name: str | None = None) -> Node:
    return make_node("Concat", list(nodes), {"axis": axis}, name)


def split(data: NodeInput, axis: NodeInput, num_splits: int, name: str | None = None) -> Node:
    """Split-1: ``num_splits`` equal parts along ``axis`` (one output each)."""
    return make_node("Split", [data, int_const(axis)], {"num_splits": num_splits}, name)


def variadic_split(data: NodeInput, axis: NodeInput, split_lengths: NodeInput,
                   name: str | None = None) -> Node:
    """VariadicSplit-1: parts of ``split_lengths`` along ``axis`` (one -1 takes the rest)."""
    return make_node("VariadicSplit", [data, int_const(axis), int_const(split_lengths)],
                     name=name)


def shape_of(data: NodeInput, output_type: str = "i64", name: str | None = None) -> Node:
    """ShapeOf-3: the input's shape as a 1-D tensor (folded to a constant in ovlab)."""
    return make_node("ShapeOf", [data], {"output_type": output_type}, name)


def broadcast(data: NodeInput, target_shape: NodeInput, axes_mapping: NodeInput | None = None,
              broadcast_spec: str = "NUMPY", name: str | None = None) -> Node:
    inputs = [data, int_const(target_shape)]
    if axes_mapping is not None:
        inputs.append(int_const(axes_mapping))
    return make_node("Broadcast", inputs, {"mode": broadcast_spec}, name)


def tile(data: NodeInput, repeats: NodeInput, name: str | None = None) -> Node:
    return make_node("Tile", [data, int_const(repeats)], name=name)


def pad(arg: NodeInput, pads_begin: NodeInput, pads_end: NodeInput, pad_mode: str,
        arg_pad_value: NodeInput | None = None, name: str | None = None) -> Node:
    """Pad-12 (negative pads crop); ``pad_mode`` constant, edge, reflect or symmetric."""
    inputs = [arg, int_const(pads_begin), int_const(pads_end)]
    if arg_pad_value is not None:
        inputs.append(arg_pad_value)
    return make_node("Pad", inputs, {"pad_mode": pad_mode}, name)


def strided_slice(data: NodeInput, begin: NodeInput, end: NodeInput, strides: NodeInput,
                  begin_mask: list[int], end_mask: list[int],
                  new_axis_mask: list[int] | None = None,
                  shrink_axis_mask: list[int] | None = None,
                  ellipsis_mask: list[int] | None = None, name: str | None = None) -> Node:
    """StridedSlice-1 (a mask value 1 means: ignore begin / end, add an axis, take one index,
    or put the ellipsis here)."""
    return make_node("StridedSlice", [data, int_const(begin), int_const(end), int_const(strides)],
                     {"begin_mask": _mask_list(begin_mask), "end_mask": _mask_list(end_mask),
                      "new_axis_mask": _mask_list(new_axis_mask),
                      "shrink_axis_mask": _mask_list(shrink_axis_mask),
                      "ellipsis_mask": _mask_list(ellipsis_mask)}, name)


def _mask_list(value: object) -> list[int]:
    """A StridedSlice mask given as a list, a tuple or a NumPy array (as OpenVINO's own tests
    pass them), or None for no mask."""
    return [] if value is None else [int(v) for v in np.asarray(value).reshape(-1)]


def slice(data: NodeInput, start: NodeInput, stop: NodeInput, step: NodeInput,  # noqa: A001
          axes: NodeInput | None = None, name: str | None = None) -> Node:
    """Slice-8: Python-style ``start:stop:step`` on ``axes`` (all leading axes if omitted)."""
    start = int_const(start)
    if axes is None:  # OpenVINO's Slice adds the default axes 0 .. len(start) - 1 as a Constant
        shape = start.shape if isinstance(start, np.ndarray) else as_output(start).get_shape()
        axes = np.arange(shape[0] if len(shape) else 1, dtype=np.int64)
    inputs = [data, start, int_const(stop), int_const(step), int_const(axes)]
    return make_node("Slice", inputs, name=name)


def depth_to_space(node: NodeInput, mode: str, block_size: int = 1,
                   name: str | None = None) -> Node:
    return make_node("DepthToSpace", [node], {"mode": mode, "block_size": block_size}, name)


def space_to_depth(data: NodeInput, mode: str, block_size: int = 1,
                   name: str | None = None) -> Node:
    return make_node("SpaceToDepth", [data], {"mode": mode, "block_size": block_size}, name)


def shuffle_channels(data: NodeInput, axis: int, group: int, name: str | None = None) -> Node:
    return make_node("ShuffleChannels", [data], {"axis": axis, "group": group}, name)


def batch_to_space(data: NodeInput, block_shape: NodeInput, crops_begin: NodeInput,
                   crops_end: NodeInput, name: str | None = None) -> Node:
    return make_node("BatchToSpace", [data, int_const(block_shape), int_const(crops_begin),
                                      int_const(crops_end)], name=name)


def space_to_batch(data: NodeInput, block_shape: NodeInput, pads_begin: NodeInput,
                   pads_end: NodeInput, name: str | None = None) -> Node:
    return make_node("SpaceToBatch", [data, int_const(block_shape), int_const(pads_begin),
                                      int_const(pads_end)], name=name)


def identity(data: NodeInput, name: str | None = None) -> Node:
    """Identity-16: its input, copied (served by ``openvino.opset16`` and later)."""
    return make_node("Identity", [data], name=name)


def roll(data: NodeInput, shift: NodeInput, axes: NodeInput, name: str | None = None) -> Node:
    return make_node("Roll", [data, int_const(shift), int_const(axes)], name=name)


def reverse_sequence(input: NodeInput, seq_lengths: NodeInput, batch_axis: int,  # noqa: A002
                     seq_axis: int, name: str | None = None) -> Node:
    return make_node("ReverseSequence", [input, int_const(seq_lengths)],
                     {"batch_axis": batch_axis, "seq_axis": seq_axis}, name)


# --- over dynamic dimensions (dynamic.py): the rules OpenVINO has for these two ----------------
def _contains_one(d: Dimension) -> bool:
    return d.get_min_length() <= 1 and (d.get_max_length() < 0 or d.get_max_length() >= 1)


@dynamic.rule("Squeeze")
def _squeeze_dynamic(node: Node) -> list[ShapeType] | None:
    """Squeeze over a dynamic shape (measured on the 2026.4.1 wheel): without axes, a dynamic
    dimension that may be 1 makes the output's rank unknown (``[2,?,3]`` gives ``[...]``); an
    axis on a dynamic dimension is removed (``[2,?,3]`` on axis 1 gives ``[2,3]``), unless
    Squeeze-15 may skip it (``allow_axis_skip``), which leaves the rank unknown."""
    src = node._in_shape(0)
    if not dynamic.is_dynamic(src):
        return None
    t = node._in_type(0)
    if src.rank.is_dynamic:
        return [(PartialShape.dynamic(), t)]
    dims = list(src)
    if len(node._inputs) < 2:
        if any(d.is_dynamic and _contains_one(d) for d in dims):
            return [(PartialShape.dynamic(), t)]
        return [(PartialShape([d for d in dims if not (d.is_static and d.get_length() == 1)]), t)]
    axes = constant_value(node._inputs[1])
    if axes is None:
        return None
    ax = {norm_axis(int(a), len(dims)) for a in np.atleast_1d(axes)}
    keep = []
    for i, d in enumerate(dims):
        if i not in ax or (d.is_static and d.get_length() != 1) or not _contains_one(d):
            keep.append(d)
        elif d.is_dynamic and node._attrs.get("allow_axis_skip"):
            return [(PartialShape.dynamic(), t)]
    return [(PartialShape(keep), t)]


@dynamic.rule("Broadcast")
def _broadcast_dynamic(node: Node) -> list[ShapeType] | None:
    """Broadcast to a target shape known only at run time (read from a Parameter): the output
    has the target's length as its rank, with lengths OpenVINO leaves dynamic, except that
    BIDIRECTIONAL keeps the data's lengths other than 1 (measured on the 2026.4.1 wheel:
    ``[2,1]`` to a 3-long target gives ``[?,2,?]``, NUMPY gives ``[?,?,?]``)."""
    if len(node._inputs) < 2 or constant_value(node._inputs[1]) is not None:
        return None
    target = node._in_shape(1)
    t = node._in_type(0)
    if dynamic.is_dynamic(target):
        if target.rank.is_static and target[0].is_static:
            target = (target[0].get_length(),)
        else:
            return [(PartialShape.dynamic(), t)]
    need(len(target) == 1, f"target_shape must be 1-D, got {shape_str(target)}")
    n = int(target[0])
    src = node._in_shape(0)
    if node._attrs["mode"] != "bidirectional":
        return [(PartialShape.dynamic(n), t)]
    data = PartialShape(src) if not dynamic.is_dynamic(src) else src
    if data.rank.is_dynamic:
        return [(PartialShape.dynamic(), t)]
    rank = max(n, len(data))
    padded = [None] * (rank - len(data)) + list(data)
    covered = range(rank - n, rank)  # the positions the target's lengths line up with
    return [(PartialShape([Dimension() if d is None or (i in covered and d.is_static
                                                        and d.get_length() == 1) else d
                           for i, d in enumerate(padded)]), t)]
