"""Col2Im-15: sliding blocks of columns summed back into an image (PyTorch's ``fold``).

Input ``[N, C*kh*kw, L]`` (or unbatched ``[C*kh*kw, L]``), output ``[N, C, H, W]`` where
``(H, W)`` is ``output_size``; ``L`` must be the number of block positions that the kernel,
strides, dilations and pads give, as OpenVINO checks when the op is built. Overlapping blocks
add up.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import NodeInput, const_input, int_const, make_node, need, numel, register
from .types import shape_str

__all__ = ["col2im"]


def _sizes(node: Node) -> tuple[list[int], list[int]]:
    types = (node._in_type(1), node._in_type(2))
    need(all(t.get_type_name() in ("i32", "i64") for t in types) and types[0] == types[1],
         "The element types of the output_size and kernel_size tensors must match and be of "
         f"i32 or i64 type. Got: {types[0].get_type_name()} and {types[1].get_type_name()}")
    for i, what in ((1, "output_size"), (2, "kernel_size")):
        need(node._in_shape(i) == (2,),
             f"{what} must be a 1D input of shape [2]. Got: {shape_str(node._in_shape(i))}")
    out = [int(v) for v in const_input(node, 1, "output_size")]
    kernel = [int(v) for v in const_input(node, 2, "kernel_size")]
    return out, kernel


def _blocks(node: Node, out: Sequence[int], kernel: Sequence[int]) -> list[int]:
    a = node._attrs
    return [(out[i] + a["pads_begin"][i] + a["pads_end"][i]
             - a["dilations"][i] * (kernel[i] - 1) - 1) // a["strides"][i] + 1 for i in range(2)]


def _col2im_infer(node: Node) -> list[ShapeType]:
    shape = node._in_shape(0)
    need(len(shape) in (2, 3),
         f"input data must be an unbatched 2D or a batched 3D input. Got: {shape_str(shape)}")
    out, kernel = _sizes(node)
    channels_k, length = shape[-2], shape[-1]
    need(channels_k % numel(kernel) == 0, "First non-batch dimension is not evenly divisible "
         f"by Product(kernel_shape). Got: {channels_k}")
    expected = numel(_blocks(node, out, kernel))
    need(length == expected, "For given inputs and parameters the total number of data blocks "
         f"must be equal to {expected}. Got: {length}")
    return [((*shape[:-2], channels_k // numel(kernel), *out), node._in_type(0))]


def _col2im(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    x = xs[0]
    batched = x.ndim == 3
    if not batched:
        x = x[None]
    out, kernel = _sizes(node)
    a = node._attrs
    bh, bw = _blocks(node, out, kernel)
    n, ck, _ = x.shape
    c = ck // numel(kernel)
    cols = x.reshape(n, c, kernel[0], kernel[1], bh, bw)
    ph, pw = out[0] + a["pads_begin"][0] + a["pads_end"][0], out[1] + a["pads_begin"][1] + \
        a["pads_end"][1]
    padded = np.zeros((n, c, ph, pw), dtype=x.dtype)
    sh, sw = a["strides"]
    dh, dw = a["dilations"]
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            r, q = i * dh, j * dw
            padded[:, :, r:r + sh * (bh - 1) + 1:sh, q:q + sw * (bw - 1) + 1:sw] += cols[:, :, i, j]
    y = padded[:, :, a["pads_begin"][0]:a["pads_begin"][0] + out[0],
               a["pads_begin"][1]:a["pads_begin"][1] + out[1]]
    return [np.ascontiguousarray(y if batched else y[0])]


register("Col2Im", "opset15", _col2im_infer, _col2im, lambda n: float(numel(n._in_shape(0))),
         attrs=[Attr("strides", "ints", [1, 1]), Attr("dilations", "ints", [1, 1]),
                Attr("pads_begin", "ints", [0, 0]), Attr("pads_end", "ints", [0, 0])])


def col2im(data: NodeInput, output_size: NodeInput, kernel_size: NodeInput,
           strides: list[int] | None = None, dilations: list[int] | None = None,
           pads_begin: list[int] | None = None, pads_end: list[int] | None = None,
           name: str | None = None) -> Node:
    """Col2Im-15: sums the ``kernel_size`` blocks of ``data``'s columns into an image of
    ``output_size`` (strides, dilations default to 1, pads to 0)."""
    return make_node("Col2Im", [data, int_const(output_size), int_const(kernel_size)],
                     {"strides": strides or [1, 1], "dilations": dilations or [1, 1],
                      "pads_begin": pads_begin or [0, 0], "pads_end": pads_end or [0, 0]}, name)
