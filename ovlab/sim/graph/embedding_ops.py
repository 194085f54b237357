"""EmbeddingBagOffsets-15 and EmbeddingBagPacked-15: rows of an embedding table summed (or
averaged) per bag.

EmbeddingBagOffsets: bag ``b`` is ``indices[offsets[b]:offsets[b + 1]]`` (the last runs to the
end); an empty bag gives the ``default_index`` row, or zeros without one. EmbeddingBagPacked:
bag ``b`` is row ``b`` of a 2-D ``indices``. ``per_sample_weights`` scale each picked row and
are allowed with ``reduction="sum"`` only, as OpenVINO checks.
"""

from __future__ import annotations

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import NodeInput, make_node, need, numel, register

__all__ = ["embedding_bag_offsets", "embedding_bag_packed"]

REDUCTIONS = ("sum", "mean")


def _check_common(node: Node, weights: int | None) -> None:
    t = node._in_type(1)
    need(t.get_type_name() in ("i32", "i64"), "INDICES type must be i32 or i64")
    red = node._attrs["reduction"]
    need(red in REDUCTIONS,
         f'"{red}" is not a member of enum op::util::EmbeddingBagOffsetsBase::Reduction')
    if weights is not None and weights < len(node._inputs):
        need(red == "sum", "Per sample weights can only be used in Reduction::SUM mode.")
        need(node._in_shape(weights) == node._in_shape(1),
             "INDICES and PER_SAMPLE_WEIGHTS shape must be same.")


def _offsets_infer(node: Node) -> list[ShapeType]:
    _check_common(node, 4)
    need(node._in_type(2) == node._in_type(1),
         f"Offsets element type ({node._in_type(2).get_type_name()}) must match indices "
         f"element type ({node._in_type(1).get_type_name()})")
    need(len(node._in_shape(1)) == 1, "INDICES must be 1D.")
    need(len(node._in_shape(2)) == 1, "OFFSETS must be 1D.")
    if len(node._inputs) > 3:
        need(node._in_type(3) == node._in_type(1),
             f"Default_index element type ({node._in_type(3).get_type_name()}) must match "
             f"indices element type ({node._in_type(1).get_type_name()})")
        need(node._in_shape(3) == (), "DEFAULT_INDEX must be a scalar.")
    table = node._in_shape(0)
    return [((node._in_shape(2)[0], *table[1:]), node._in_type(0))]


def _packed_infer(node: Node) -> list[ShapeType]:
    _check_common(node, 2)
    need(len(node._in_shape(1)) == 2, "INDICES must be 2D.")
    table = node._in_shape(0)
    return [((node._in_shape(1)[0], *table[1:]), node._in_type(0))]


def _bag(table: np.ndarray, idx: np.ndarray, w: np.ndarray | None, mean: bool,
         default: int | None) -> np.ndarray:
    if idx.size == 0:
        if default is not None and 0 <= default < table.shape[0]:
            return table[default].astype(np.float32)
        return np.zeros(table.shape[1:], np.float32)
    rows = table[idx].astype(np.float32)
    if w is not None:
        rows = rows * w.reshape((-1,) + (1,) * (rows.ndim - 1))
    return rows.mean(axis=0) if mean else rows.sum(axis=0)


def _offsets(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    table, indices, offsets = xs[0], xs[1].astype(np.int64), xs[2].astype(np.int64)
    default = int(xs[3]) if len(xs) > 3 else None
    weights = xs[4].astype(np.float32) if len(xs) > 4 else None
    mean = node._attrs["reduction"] == "mean"
    ends = list(offsets[1:]) + [len(indices)]
    out = [_bag(table, indices[b:e], None if weights is None else weights[b:e], mean, default)
           for b, e in zip(offsets, ends, strict=True)]
    return [np.stack(out).astype(table.dtype) if out else
            np.zeros((0, *table.shape[1:]), table.dtype)]


def _packed(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    table, indices = xs[0], xs[1].astype(np.int64)
    weights = xs[2].astype(np.float32) if len(xs) > 2 else None
    mean = node._attrs["reduction"] == "mean"
    out = [_bag(table, indices[b], None if weights is None else weights[b], mean, None)
           for b in range(indices.shape[0])]
    return [np.stack(out).astype(table.dtype)]


def _flops(node: Node) -> float:
    return float(numel(node._in_shape(1)) * numel(node._in_shape(0)[1:]))


_RED = [Attr("reduction", "str", "sum")]
register("EmbeddingBagOffsets", "opset15", _offsets_infer, _offsets, _flops, attrs=_RED)
register("EmbeddingBagPacked", "opset15", _packed_infer, _packed, _flops, attrs=_RED)


def embedding_bag_offsets(emb_table: NodeInput, indices: NodeInput, offsets: NodeInput,
                          default_index: NodeInput | None = None,
                          per_sample_weights: NodeInput | None = None,
                          reduction: str = "sum", name: str | None = None) -> Node:
    """EmbeddingBagOffsets-15: per bag of ``indices`` (from ``offsets``), the sum or mean of
    the ``emb_table`` rows they pick."""
    inputs = [emb_table, indices, offsets]
    if default_index is None and per_sample_weights is not None:
        # OpenVINO's builder fills the slot with ConvertLike(-1, indices): "no default row"
        default_index = make_node("ConvertLike", [np.array(-1, dtype=np.int32), indices])
    if default_index is not None:
        inputs.append(default_index)
    if per_sample_weights is not None:
        inputs.append(per_sample_weights)
    return make_node("EmbeddingBagOffsets", inputs, {"reduction": str(reduction).lower()}, name)


def embedding_bag_packed(emb_table: NodeInput, indices: NodeInput,
                         per_sample_weights: NodeInput | None = None, reduction: str = "sum",
                         name: str | None = None) -> Node:
    """EmbeddingBagPacked-15: per row of a 2-D ``indices``, the sum or mean of the
    ``emb_table`` rows it picks."""
    inputs = [emb_table, indices] + ([per_sample_weights] if per_sample_weights is not None
                                     else [])
    return make_node("EmbeddingBagPacked", inputs, {"reduction": str(reduction).lower()}, name)
