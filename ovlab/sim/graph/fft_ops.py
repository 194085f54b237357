"""Fourier transforms: DFT-7, IDFT-7, RDFT-9 and IRDFT-9, with NumPy's FFT.

A complex tensor is a real one with a last axis of 2 (real, imaginary), as OpenVINO stores it.
``axes`` index the signal's axes (for the complex forms, counted without that last axis);
``signal_size`` crops or zero-pads each transformed axis before the transform (-1 keeps it),
as NumPy's ``s`` does. The inverse transforms divide by the number of points, as NumPy and
OpenVINO do. RDFT keeps the ``n // 2 + 1`` non-redundant outputs of its last axis; IRDFT
rebuilds ``2 * (n - 1)`` points there unless ``signal_size`` says otherwise.
"""

from __future__ import annotations

import math

import numpy as np

from .node import Node, ShapeType
from .ops import NodeInput, const_input, int_const, make_node, need, register
from .types import shape_str

__all__ = ["dft", "idft", "irdft", "rdft"]


def _axes_sizes(node: Node, rank: int) -> tuple[list[int], list[int] | None]:
    """The transformed axes (normalized against the signal's ``rank``) and the signal sizes."""
    for i, what in ((1, "axes"), (2, "signal_size")):
        if i < len(node._inputs):
            need(node._in_type(i).get_type_name() in ("i32", "i64"),
                 f"FFT op {what} element type must be i32 or i64")
    need(len(node._in_shape(1)) == 1, "Axes input must be 1D tensor.")
    axes = []
    for a in (int(v) for v in const_input(node, 1, "axes")):
        need(-rank <= a < rank, f"Axis {a} out of the tensor rank range [{-rank}, {rank - 1}].")
        axes.append(a + rank if a < 0 else a)
    need(len(set(axes)) == len(axes), "Each axis must be unique.")
    sizes = None
    if len(node._inputs) > 2:
        need(len(node._in_shape(2)) == 1, "Signal size input must be 1D tensor.")
        sizes = [int(v) for v in const_input(node, 2, "signal_size")]
        need(len(sizes) == len(axes), "Sizes of inputs 'axes' and 'signal_size' must be equal.")
    return axes, sizes


def _check_data(node: Node, complex_input: bool) -> tuple[int, ...]:
    shape, t = node._in_shape(0), node._in_type(0)
    need(t.get_type_name() in ("f32", "f16", "bf16"),
         "FFT op input element type must be f32, f16, or bf16")
    if complex_input:
        need(len(shape) >= 2, "The input rank must be greater or equal to 2")
        need(shape[-1] == 2, "The last dimension of input data must be 2.")
    else:
        need(len(shape) >= 1, "The input rank must be greater or equal to 1")
    return shape


def _sized(shape: tuple[int, ...], axes: list[int], sizes: list[int] | None) -> list[int]:
    out = list(shape)
    for k, a in enumerate(axes):
        if sizes is not None and sizes[k] != -1:
            out[a] = sizes[k]
    return out


# --- DFT / IDFT: complex to complex ---------------------------------------------------------
def _dft_infer(node: Node) -> list[ShapeType]:
    shape = _check_data(node, True)
    axes, sizes = _axes_sizes(node, len(shape) - 1)
    return [((*_sized(shape[:-1], axes, sizes), 2), node._in_type(0))]


def _complex(x: np.ndarray) -> np.ndarray:
    return x[..., 0].astype(np.float64) + 1j * x[..., 1].astype(np.float64)


def _stack(z: np.ndarray, dtype: np.dtype) -> np.ndarray:
    return np.stack([z.real, z.imag], axis=-1).astype(dtype)


def _dft_kernel(inverse: bool):
    def kernel(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
        x = xs[0]
        axes, _ = _axes_sizes(node, x.ndim - 1)
        s = [node._out_shapes[0][a] for a in axes]
        fn = np.fft.ifftn if inverse else np.fft.fftn
        return [_stack(fn(_complex(x), s=s, axes=axes), x.dtype)]
    return kernel


def _fft_flops(node: Node) -> float:
    n = math.prod(node._out_shapes[0]) or 1
    return 5.0 * n * math.log2(max(n, 2))


register("DFT", "opset7", _dft_infer, _dft_kernel(False), _fft_flops)
register("IDFT", "opset7", _dft_infer, _dft_kernel(True), _fft_flops)


# --- RDFT: real to complex; IRDFT: complex to real -----------------------------------------------
def _rdft_infer(node: Node) -> list[ShapeType]:
    shape = _check_data(node, False)
    axes, sizes = _axes_sizes(node, len(shape))
    out = _sized(shape, axes, sizes)
    out[axes[-1]] = out[axes[-1]] // 2 + 1
    return [((*out, 2), node._in_type(0))]


def _rdft(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    x = xs[0]
    axes, sizes = _axes_sizes(node, x.ndim)
    s = _sized(x.shape, axes, sizes)
    z = np.fft.rfftn(x.astype(np.float64), s=[s[a] for a in axes], axes=axes)
    return [_stack(z, x.dtype)]


def _irdft_infer(node: Node) -> list[ShapeType]:
    shape = _check_data(node, True)
    axes, sizes = _axes_sizes(node, len(shape) - 1)
    out = list(shape[:-1])
    last = axes[-1]
    out = _sized(tuple(out), axes, sizes)
    if sizes is None or sizes[-1] == -1:
        out[last] = 2 * (shape[last] - 1)
    need(all(d >= 0 for d in out), f"IRDFT: output shape {shape_str(out)} has a negative size")
    return [(tuple(out), node._in_type(0))]


def _irdft(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    x = xs[0]
    axes, _ = _axes_sizes(node, x.ndim - 1)
    s = [node._out_shapes[0][a] for a in axes]
    return [np.fft.irfftn(_complex(x), s=s, axes=axes).astype(x.dtype)]


register("RDFT", "opset9", _rdft_infer, _rdft, _fft_flops)
register("IRDFT", "opset9", _irdft_infer, _irdft, _fft_flops)


# --- builders -------------------------------------------------------------------------------
def _inputs(data: NodeInput, axes: NodeInput, signal_size: NodeInput | None) -> list:
    ins = [data, int_const(axes)]
    return ins + ([int_const(signal_size)] if signal_size is not None else [])


def dft(data: NodeInput, axes: NodeInput, signal_size: NodeInput | None = None,
        name: str | None = None) -> Node:
    """DFT-7: the discrete Fourier transform of a complex ``data`` (last axis: re, im)."""
    return make_node("DFT", _inputs(data, axes, signal_size), name=name)


def idft(data: NodeInput, axes: NodeInput, signal_size: NodeInput | None = None,
         name: str | None = None) -> Node:
    """IDFT-7: the inverse of DFT (divided by the number of points)."""
    return make_node("IDFT", _inputs(data, axes, signal_size), name=name)


def rdft(data: NodeInput, axes: NodeInput, signal_size: NodeInput | None = None,
         name: str | None = None) -> Node:
    """RDFT-9: the Fourier transform of a real ``data``, its redundant half dropped."""
    return make_node("RDFT", _inputs(data, axes, signal_size), name=name)


def irdft(data: NodeInput, axes: NodeInput, signal_size: NodeInput | None = None,
          name: str | None = None) -> Node:
    """IRDFT-9: the real signal whose RDFT is ``data``."""
    return make_node("IRDFT", _inputs(data, axes, signal_size), name=name)
