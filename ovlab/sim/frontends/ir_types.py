"""Element types as IR files spell them, and how their values sit in the .bin file.

IR names (``f32``, ``boolean``, ``u1``...) are OpenVINO's ``element::Type`` names; port
``precision`` attributes use an older spelling (``FP32``, ``BOOL``, ``BIN``). ovlab computes
with the types ``ovlab.Type`` has; a file using another one (packed ``u4``, ``nf4``, ``f8``...)
is refused with an error naming the type and the layer, never read wrongly.
"""

from __future__ import annotations

import numpy as np

from ..graph.types import Type
from . import errors as E

__all__ = ["element_type", "precision_name", "decode", "encode", "byte_size", "KNOWN"]

# Every element type name OpenVINO 2026.4 writes, with its bit width (measured: a Convert to
# each type, serialized). Raw numpy dtypes only for the byte-sized ones.
KNOWN: dict[str, int] = {
    "boolean": 8, "bf16": 16, "f16": 16, "f32": 32, "f64": 64, "i4": 4, "i8": 8, "i16": 16,
    "i32": 32, "i64": 64, "u1": 1, "u2": 2, "u3": 3, "u4": 4, "u6": 6, "u8": 8, "u16": 16,
    "u32": 32, "u64": 64, "nf4": 4, "f8e4m3": 8, "f8e5m2": 8, "f8e8m0": 8, "f4e2m1": 4,
    "string": 0, "dynamic": 0, "undefined": 0,
}
_RAW = {"boolean": np.bool_, "bf16": np.uint16, "f16": np.float16, "f32": np.float32,
        "f64": np.float64, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
        "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64}
_PRECISION = {"f32": "FP32", "f16": "FP16", "f64": "FP64", "boolean": "BOOL", "u1": "BIN"}


def element_type(name: str, where: str) -> Type:
    """The ``Type`` for an IR type name; ``where`` names the layer for the error."""
    name = name.strip()
    if name not in KNOWN:
        raise E.FrontendError(f'"{name}" is not a member of enum element::Type_t', E.ENUM)
    t = Type._by_name.get(name)
    if t is None or name not in _RAW:
        supported = ", ".join(n for n in KNOWN if n in _RAW and n in Type._by_name)
        raise E.FrontendError(f"ovlab cannot compute with element type {name} ({where}); "
                              f"it supports {supported}")
    return t


def precision_name(t: Type) -> str:
    """A port's ``precision`` attribute: ``FP32``, ``I64``, ``BOOL``..."""
    name = t.get_type_name()
    return _PRECISION.get(name, name.upper())


def byte_size(name: str, count: int) -> int:
    return (KNOWN[name] * count + 7) // 8


def decode(buffer: memoryview | bytes, offset: int, name: str, shape: tuple[int, ...]) -> np.ndarray:
    """The values of a Const, read in place from ``buffer`` (a memory map: no copy) except for
    bf16, which NumPy lacks and ovlab keeps as bf16-exact float32."""
    count = int(np.prod(shape, dtype=np.int64))
    raw = np.frombuffer(buffer, dtype=_RAW[name], count=count, offset=offset).reshape(shape)
    if name == "bf16":
        return (raw.astype(np.uint32) << 16).view(np.float32)
    return raw


def encode(value: np.ndarray, t: Type) -> np.ndarray:
    """The array whose bytes go into the .bin file for a Const of type ``t``."""
    name = t.get_type_name()
    if name == "bf16":
        bits = np.ascontiguousarray(value, dtype=np.float32).view(np.uint32)
        return (bits >> 16).astype(np.uint16)
    return np.ascontiguousarray(value, dtype=_RAW[name])
