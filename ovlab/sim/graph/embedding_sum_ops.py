"""EmbeddingBagOffsetsSum-3, EmbeddingBagPackedSum-3 and EmbeddingSegmentsSum-3: the
embedding bags of opset3, which always sum.

The two bag ops are the version-15 ops (``embedding_ops.py``) with ``reduction="sum"`` fixed;
EmbeddingSegmentsSum sums ``emb_table[indices[i]]`` (times ``per_sample_weights[i]``) into
segment ``segment_ids[i]`` of ``num_segments`` segments; an empty segment holds the
``default_index`` row, or zeros. Its output's first dimension is ``num_segments``' value, so a
run-time ``num_segments`` gives ``[?, ...]`` (OpenVINO's ``reference/embedding_segments_sum``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .embedding_ops import _offsets, _offsets_infer, _packed, _packed_infer
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, constant_value, make_node, need, numel, register
from .types import PartialShape, shape_str

__all__ = ["embedding_bag_offsets_sum", "embedding_bag_packed_sum", "embedding_segments_sum"]


class _Summing:
    """A node seen with ``reduction="sum"``: the version-15 functions read it from attrs."""

    def __init__(self, node: Node) -> None:
        self._node = node
        self._attrs = {"reduction": "sum"}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._node, name)


def _flops(node: Node) -> float:
    return float(numel(node._in_shape(1)) * numel(node._in_shape(0)[1:]))


register("EmbeddingBagOffsetsSum", "opset3", lambda n: _offsets_infer(_Summing(n)),
         lambda n, xs, c: _offsets(_Summing(n), xs, c), _flops)
register("EmbeddingBagPackedSum", "opset3", lambda n: _packed_infer(_Summing(n)),
         lambda n, xs, c: _packed(_Summing(n), xs, c), _flops)


def _segments_infer(node: Node) -> list[ShapeType]:
    table, indices, ids, count = (node._in_shape(i) for i in range(4))
    need(node._in_type(1).get_type_name() in ("i32", "i64"), "INDICES type must be i32 or i64")
    need(all(node._in_type(i) == node._in_type(1) for i in range(2, len(node._inputs))
             if i != 5), "SEGMENT_IDS, NUM_SEGMENTS and DEFAULT_INDEX types must match INDICES")
    need(len(indices) == 1 and tuple(ids) == tuple(indices), f"INDICES {shape_str(indices)} "
         f"and SEGMENT_IDS {shape_str(ids)} must be 1D and of the same shape")
    need(len(count) == 0, "NUM_SEGMENTS must be a scalar.")
    if len(node._inputs) > 4:
        need(len(node._in_shape(4)) == 0, "DEFAULT_INDEX must be a scalar.")
    if len(node._inputs) > 5:
        need(tuple(node._in_shape(5)) == tuple(indices), "INDICES and PER_SAMPLE_WEIGHTS "
             "shape must be same.")
    n = constant_value(node._inputs[3])
    if n is None:
        return [(PartialShape([-1, *table[1:]]), node._in_type(0))]
    return [((int(np.ravel(n)[0]), *table[1:]), node._in_type(0))]


def _segments(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    table, indices, ids = xs[0], xs[1].astype(np.int64), xs[2].astype(np.int64)
    count = int(np.ravel(xs[3])[0])
    default = int(np.ravel(xs[4])[0]) if len(xs) > 4 else None
    weights = xs[5].astype(np.float32) if len(xs) > 5 else np.ones(len(indices), np.float32)
    out = np.zeros((count, *table.shape[1:]), np.float32)
    filled = np.zeros(count, bool)
    for k in range(len(indices)):
        seg = int(ids[k])
        need(0 <= seg < count, f"segment id {seg} is out of range [0, {count})")
        out[seg] += table[indices[k]].astype(np.float32) * weights[k]
        filled[seg] = True
    if default is not None and 0 <= default < table.shape[0]:
        out[~filled] = table[default]
    return [out.astype(table.dtype)]


register("EmbeddingSegmentsSum", "opset3", _segments_infer, _segments, _flops)


def embedding_bag_offsets_sum(emb_table: NodeInput, indices: NodeInput, offsets: NodeInput,
                              default_index: NodeInput | None = None,
                              per_sample_weights: NodeInput | None = None,
                              name: str | None = None) -> Node:
    """EmbeddingBagOffsetsSum-3: the sum of the rows each bag picks."""
    inputs = [emb_table, indices, offsets]
    if default_index is None and per_sample_weights is not None:
        default_index = make_node("ConvertLike", [np.array(-1, dtype=np.int32), indices])
    inputs += [v for v in (default_index, per_sample_weights) if v is not None]
    return make_node("EmbeddingBagOffsetsSum", [as_output(v, name) for v in inputs], {}, name)


def embedding_bag_packed_sum(emb_table: NodeInput, indices: NodeInput,
                             per_sample_weights: NodeInput | None = None,
                             name: str | None = None) -> Node:
    """EmbeddingBagPackedSum-3: per row of a 2-D ``indices``, the sum of the rows it picks."""
    inputs = [emb_table, indices] + ([per_sample_weights] if per_sample_weights is not None
                                     else [])
    return make_node("EmbeddingBagPackedSum", [as_output(v, name) for v in inputs], {}, name)


def embedding_segments_sum(emb_table: NodeInput, indices: NodeInput, segment_ids: NodeInput,
                           num_segments: NodeInput | None = None,
                           default_index: NodeInput | None = None,
                           per_sample_weights: NodeInput | None = None,
                           name: str | None = None) -> Node:
    """EmbeddingSegmentsSum-3: rows summed into ``num_segments`` segments."""
    inputs = [emb_table, indices, segment_ids]
    if num_segments is not None:
        inputs.append(num_segments)
        if default_index is None and per_sample_weights is not None:
            default_index = make_node("ConvertLike", [np.array(-1, dtype=np.int32), indices])
        inputs += [v for v in (default_index, per_sample_weights) if v is not None]
    return make_node("EmbeddingSegmentsSum", [as_output(v, name) for v in inputs], {}, name)
