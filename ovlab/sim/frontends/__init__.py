"""Models from files and to files: OpenVINO IR (``.xml`` + ``.bin``) and ONNX.

``read_model(path | bytes | io.BytesIO, weights)`` does what ``openvino.Core.read_model`` does
with a file: it picks the frontend by the file's content (IR is XML; ``.onnx`` files go to the
ONNX frontend), memory-maps the weights, and raises OpenVINO's error for a bad file.
``save_model``/``serialize`` write IR that the real runtime reads (``tensor_from_file``, which
makes a Tensor, is in :mod:`ovlab.sim.runtime.tensor`). The frontends live beside the graph, not in the Core:
``Core.read_model`` is a thin call into :func:`read_model`.
"""

from __future__ import annotations

import io
import mmap
import os
from pathlib import Path
from typing import Any

import numpy as np

from ..graph.model import Model
from . import errors as E
from .errors import FrontendError
from .ir_read import looks_like_ir, read_ir

__all__ = ["read_model", "read_file", "read_bytes", "save_model", "serialize",
           "FrontendError"]


def _unreadable_path(path: Path) -> FrontendError:
    return FrontendError(f'Unable to read the model: "{path}" Please check that model format: '
                         f'"{path.suffix}" is supported and the model is correct. Available '
                         f"frontends: {E.FRONTENDS} ", E.MODEL_READER)


_UNREADABLE_BYTES = FrontendError("Unable to read the model. Please check if the model format "
                                  "is supported and model is correct.", E.MODEL_READER_BYTES)


def _map(path: Path) -> memoryview | bytes:
    """The file's bytes as a read-only memory map (an empty file has nothing to map)."""
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size == 0:
            return b""
        return memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))


def _weights_buffer(weights: Any) -> memoryview | bytes | None:
    """Weights passed in memory: bytes, io.BytesIO or a Tensor (of u8, as tensor_from_file)."""
    if weights is None:
        return None
    if isinstance(weights, (bytes, bytearray, memoryview)):
        return memoryview(weights).cast("B")
    if isinstance(weights, io.BytesIO):
        return weights.getbuffer().cast("B")
    data = getattr(weights, "data", None)
    if isinstance(data, np.ndarray):
        return memoryview(np.ascontiguousarray(data).view(np.uint8).reshape(-1))
    raise TypeError(f"Provided python object type {type(weights)} isn't supported as 'weights' "
                    "argument.")


def read_file(path: str | os.PathLike, weights: Any = None) -> Model:
    """A model from a file: IR (``.xml``, the ``.bin`` beside it or ``weights``) or ONNX."""
    path = Path(os.fsdecode(path))
    frontend = "onnx" if path.suffix.lower() == ".onnx" else "ir"
    if not path.exists():
        raise FrontendError(f'FrontEnd API failed with GeneralFailure:\n{frontend}: Could not '
                            f'open the file: "{path}"', E.OPEN_FILE)
    if path.is_dir():
        raise _unreadable_path(path)
    if frontend == "onnx":
        from .onnx_read import read_onnx_file
        return read_onnx_file(path)
    with open(path, "rb") as f:
        head = f.read(64)
    if not looks_like_ir(head):
        from .onnx_read import maybe_onnx
        model = maybe_onnx(path)
        if model is None:
            raise _unreadable_path(path)
        return model
    def buffer() -> memoryview | bytes | None:
        if weights is None or weights == "":
            bin_path = path.with_suffix(".bin")
            return _map(bin_path) if bin_path.is_file() else None
        if isinstance(weights, (str, os.PathLike)):
            bin_path = Path(os.fsdecode(weights))
            if not bin_path.is_file():
                raise FrontendError(f"Loading input model\nCan not open file {bin_path} for "
                                    "mapping. Ensure that file exists and has appropriate "
                                    "permissions.", E.MAP_FILE)
            return _map(bin_path)
        return _weights_buffer(weights)

    return read_ir(path.read_bytes(), buffer, _unreadable_path(path))


def read_bytes(model: bytes | str, weights: Any = None) -> Model:
    """A model from its content in memory (IR text with ``weights``, or ONNX bytes)."""
    data = model.encode() if isinstance(model, str) else bytes(model)
    if looks_like_ir(data[:64]):
        buffer = _weights_buffer(weights)
        return read_ir(data, b"" if buffer is None else buffer, _UNREADABLE_BYTES)
    from .onnx_read import maybe_onnx_bytes
    parsed = maybe_onnx_bytes(data)
    if parsed is None:
        raise _UNREADABLE_BYTES
    return parsed


def read_model(model: Any, weights: Any = None) -> Model:
    """``openvino.Core.read_model`` without a Core: a path, bytes, ``io.BytesIO``, or IR text
    (a ``str``) with a weights Tensor. Bad files raise OpenVINO's ``RuntimeError``."""
    if isinstance(model, Model):
        return model
    try:
        return _read(model, weights)
    except FrontendError as err:
        api = "read_model" if isinstance(model, (str, os.PathLike)) and not _is_text(
            model, weights) else "read_model_bytes"
        raise E.raise_public(api, err) from None


def _is_text(model: Any, weights: Any) -> bool:
    return isinstance(model, str) and weights is not None and hasattr(weights, "data") \
        and not isinstance(weights, (str, bytes, os.PathLike, io.BytesIO))


def _read(model: Any, weights: Any) -> Model:
    """Dispatch as OpenVINO's Python ``read_model`` does; raises FrontendError."""
    if isinstance(model, io.BytesIO):
        return read_bytes(model.getvalue(), weights)
    if isinstance(model, (bytes, bytearray)):
        return read_bytes(bytes(model), weights)
    if _is_text(model, weights):  # read_model(xml_text, weights_tensor)
        return read_bytes(model, weights)
    if isinstance(model, (str, os.PathLike)):
        return read_file(model, weights)
    raise TypeError(f"Provided python object type {type(model)} isn't supported as 'model' "
                    "argument.")


def save_model(model: Any, output_model: str | bytes | os.PathLike,
               compress_to_fp16: bool = True) -> None:
    """``openvino.save_model``: IR files (``.xml`` + ``.bin``), floating-point weights
    compressed to f16 by default (f16 Const + Convert marked ``decompression``)."""
    from .ir_write import save

    save(model, output_model, compress_to_fp16)


def serialize(model: Any, xml_path: str | bytes | os.PathLike,
              bin_path: str | bytes | os.PathLike = "", version: str = "UNSPECIFIED") -> None:
    """``openvino.serialize``: the model as it is (no compression), IR v11 or ``"IR_V10"``."""
    from .ir_write import serialize as _serialize

    _serialize(model, xml_path, bin_path, version)
