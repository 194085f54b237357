"""GatherTree-1: the full beams of a beam search, traced back from the last step's parents.

For each batch and beam, up to that batch's ``max_seq_len``: the ids are read back through
``parent_idx`` from the last step to the first; steps past the length, and every step after
the first ``end_token``, hold ``end_token`` (OpenVINO's ``reference/gather_tree.hpp``).
"""

from __future__ import annotations

import numpy as np

from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, make_node, need, register
from .types import shape_str

__all__ = ["gather_tree"]


def _infer(node: Node) -> list[ShapeType]:
    ids, parents, lens, end = (node._in_shape(i) for i in range(4))
    need(len(ids) == 3, f"step_ids input rank must equal to 3 (step_ids rank: {len(ids)})")
    need(tuple(parents) == tuple(ids), f"parent_idx {shape_str(parents)} must have the shape "
         f"of step_ids {shape_str(ids)}")
    need(tuple(lens) == (ids[1],), f"max_seq_len {shape_str(lens)} must be [{ids[1]}]")
    need(len(end) == 0, f"end_token input must be scalar, got {shape_str(end)}")
    t = node._in_type(0)
    need(all(node._in_type(i) == t for i in range(4)), "All inputs must have the same element "
         "type")
    return [(ids, t)]


def _gather_tree(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    ids, parents, lens, end = xs
    steps, batch, beams = ids.shape
    end_token = ids.dtype.type(np.ravel(end)[0])
    out = np.empty_like(ids)
    for b in range(batch):
        length = int(min(max(int(lens[b]), 0), steps))
        for w in range(beams):
            out[length:, b, w] = end_token
            parent = w
            for t in range(length - 1, -1, -1):
                need(0 <= int(parent) < beams, f"parent index {parent} is out of range")
                out[t, b, w] = ids[t, b, int(parent)]
                parent = parents[t, b, int(parent)]
            finished = False
            for t in range(length):
                if finished:
                    out[t, b, w] = end_token
                elif out[t, b, w] == end_token:
                    finished = True
    return [out]


register("GatherTree", "opset1", _infer, _gather_tree)


def gather_tree(step_ids: NodeInput, parent_idx: NodeInput, max_seq_len: NodeInput,
                end_token: NodeInput, name: str | None = None) -> Node:
    """GatherTree-1: ``step_ids`` and ``parent_idx`` ``[T, B, W]``, ``max_seq_len`` ``[B]``."""
    return make_node("GatherTree", [as_output(v, name) for v in
                                    (step_ids, parent_idx, max_seq_len, end_token)], {}, name)
