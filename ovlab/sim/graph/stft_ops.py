"""STFT-15 and ISTFT-16: the short-time Fourier transform of a signal, and its inverse.

STFT cuts ``signal [T]`` (or ``[B, T]``) into frames of ``frame_size`` every ``frame_step``,
multiplies each by ``window`` (zero-padded on both sides to the frame size when shorter) and
takes its real FFT: ``[B, frames, frame_size//2 + 1, 2]`` (real, imaginary), or
``[B, bins, frames, 2]`` with ``transpose_frames``. ISTFT takes ``[B, bins, frames, 2]`` back:
each frame's inverse real FFT times the window, overlap-added and divided by the summed squared
window; ``center`` drops ``frame_size // 2`` samples at both ends, ``normalized`` scales by
``sqrt(frame_size)``, and ``signal_length`` (when given) sets the length. As OpenVINO's
references (``reference/stft.hpp``, ``istft.hpp``).
"""

from __future__ import annotations

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import Ctx, NodeInput, as_output, const_input, make_node, need, register
from .types import shape_str

__all__ = ["istft", "stft"]


def _scalar(node: Node, i: int, what: str) -> int:
    v = const_input(node, i, what)
    need(v.dtype.kind in "iu" and v.size == 1, f"{what} must be an integer scalar")
    return int(np.ravel(v)[0])


def _window(window: np.ndarray, size: int) -> np.ndarray:
    pad = (size - window.size) // 2
    full = np.zeros(size, np.float32)
    full[pad:pad + window.size] = window
    return full


def _stft_infer(node: Node) -> list[ShapeType]:
    x, window = node._in_shape(0), node._in_shape(1)
    need(len(x) in (1, 2), f"The shape of signal must be 1D [signal_size] or 2D [batch, "
         f"signal_size], got {shape_str(x)}")
    need(len(window) == 1, f"The shape of window must be 1D [window_size], got "
         f"{shape_str(window)}")
    size, step = _scalar(node, 2, "frame_size"), _scalar(node, 3, "frame_step")
    need(size > 0 and step > 0, f"frame_size ({size}) and frame_step ({step}) must be positive")
    need(window[0] <= size, f"Window size ({window[0]}) must not exceed frame_size ({size})")
    need(size <= x[-1], f"frame_size ({size}) must not exceed the signal size ({x[-1]})")
    frames, bins = (x[-1] - size) // step + 1, size // 2 + 1
    tail = (bins, frames, 2) if node._attrs["transpose_frames"] else (frames, bins, 2)
    return [((*x[:-1], *tail), node._in_type(0))]


def _stft(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    x = xs[0].astype(np.float32)
    size, step = int(np.ravel(xs[2])[0]), int(np.ravel(xs[3])[0])
    win = _window(xs[1].astype(np.float32), size)
    frames = (x.shape[-1] - size) // step + 1
    idx = np.arange(frames)[:, None] * step + np.arange(size)[None, :]
    spec = np.fft.rfft(x[..., idx] * win, axis=-1)  # [..., frames, bins]
    out = np.stack([spec.real, spec.imag], axis=-1).astype(np.float32)
    if node._attrs["transpose_frames"]:
        out = np.swapaxes(out, -3, -2)
    return [np.ascontiguousarray(out).astype(xs[0].dtype)]


register("STFT", "opset15", _stft_infer, _stft, attrs=[Attr("transpose_frames", "bool")])


def _istft_length(node: Node, frames: int, size: int, step: int) -> int:
    if len(node._inputs) > 4:
        return _scalar(node, 4, "signal_length")
    n = (frames - 1) * step + size
    return n - 2 * (size // 2) if node._attrs["center"] else n


def _istft_infer(node: Node) -> list[ShapeType]:
    x, window = node._in_shape(0), node._in_shape(1)
    need(len(x) in (3, 4) and x[-1] == 2, "The shape of data must be 3D [fft_results, frames, "
         f"2] or 4D [batch, fft_results, frames, 2], got {shape_str(x)}")
    need(len(window) == 1, f"The shape of window must be 1D, got {shape_str(window)}")
    size, step = _scalar(node, 2, "frame_size"), _scalar(node, 3, "frame_step")
    need(size > 0 and step > 0, f"frame_size ({size}) and frame_step ({step}) must be positive")
    need(x[-3] == size // 2 + 1, f"The fft_results dimension {x[-3]} must be frame_size // 2 "
         f"+ 1 ({size // 2 + 1})")
    return [((*x[:-3], _istft_length(node, x[-2], size, step)), node._in_type(0))]


def _istft(node: Node, xs: list[np.ndarray], ctx: Ctx) -> list[np.ndarray]:
    data = xs[0].astype(np.float32)
    size, step = int(np.ravel(xs[2])[0]), int(np.ravel(xs[3])[0])
    win = _window(xs[1].astype(np.float32), size)
    spec = data[..., 0] + 1j * data[..., 1]  # [..., bins, frames]
    frames = np.fft.irfft(np.swapaxes(spec, -1, -2), n=size, axis=-1).astype(np.float32)
    if node._attrs["normalized"]:
        frames = frames * np.float32(np.sqrt(size))
    count = frames.shape[-2]
    total = (count - 1) * step + size
    signal = np.zeros((*frames.shape[:-2], total), np.float32)
    norm = np.zeros(total, np.float32)
    for f in range(count):
        signal[..., f * step:f * step + size] += frames[..., f, :] * win
        norm[f * step:f * step + size] += win * win
    signal = np.where(norm > 1e-10, signal / np.where(norm > 1e-10, norm, 1), signal)
    if node._attrs["center"]:
        signal = signal[..., size // 2:total - size // 2]
    length = node._out_shapes[0][-1]
    if signal.shape[-1] >= length:
        signal = signal[..., :length]
    else:
        signal = np.concatenate([signal, np.zeros((*signal.shape[:-1], length - signal.shape[-1]),
                                                  np.float32)], axis=-1)
    return [signal.astype(xs[0].dtype)]


register("ISTFT", "opset16", _istft_infer, _istft,
         attrs=[Attr("center", "bool"), Attr("normalized", "bool")])


def stft(data: NodeInput, window: NodeInput, frame_size: NodeInput, frame_step: NodeInput,
         transpose_frames: bool, name: str | None = None) -> Node:
    """STFT-15."""
    return make_node("STFT", [as_output(v, name) for v in (data, window, frame_size, frame_step)],
                     {"transpose_frames": bool(transpose_frames)}, name)


def istft(data: NodeInput, window: NodeInput, frame_size: NodeInput, frame_step: NodeInput,
          center: bool, normalized: bool, signal_length: NodeInput | None = None,
          name: str | None = None) -> Node:
    """ISTFT-16."""
    inputs = [data, window, frame_size, frame_step] + ([signal_length] if signal_length
                                                       is not None else [])
    return make_node("ISTFT", [as_output(v, name) for v in inputs],
                     {"center": bool(center), "normalized": bool(normalized)}, name)
