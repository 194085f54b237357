"""Element types and shapes that print and compare like OpenVINO's.

Learners copy code between ``openvino`` and ``ovlab``, so ``Type.f32`` has to print as
``<Type: 'float32'>`` and a port's shape as ``[1,3,224,224]``; anything else would make the two
outputs look different for no teaching reason. ovlab models are static, so ``PartialShape`` is a
thin wrapper over a fully known shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

import numpy as np

__all__ = ["Type", "Shape", "PartialShape", "Dimension", "as_type", "shape_str"]


class Type:
    """An element type (``Type.f32``, ``Type.f16`` ...); one shared instance per type.

    ``Type(np.float32)`` looks the instance up from a numpy dtype, as ``openvino.Type`` does.
    """

    f32: ClassVar[Type]
    f16: ClassVar[Type]
    bf16: ClassVar[Type]
    f64: ClassVar[Type]
    i64: ClassVar[Type]
    i32: ClassVar[Type]
    i8: ClassVar[Type]
    u8: ClassVar[Type]
    boolean: ClassVar[Type]

    _by_name: ClassVar[dict[str, Type]] = {}
    _by_dtype: ClassVar[dict[np.dtype, Type]] = {}

    __slots__ = ("_name", "_c_name", "_dtype", "_size", "_real")

    def __new__(cls, dtype: Any) -> Type:  # noqa: D102 - documented on the class
        return as_type(dtype)

    @classmethod
    def _make(cls, name: str, c_name: str, dtype: Any, size: int, real: bool) -> Type:
        t = object.__new__(cls)
        t._name, t._c_name, t._dtype, t._size, t._real = name, c_name, np.dtype(dtype), size, real
        cls._by_name[name] = t
        cls._by_dtype.setdefault(np.dtype(dtype), t)
        return t

    def get_type_name(self) -> str:
        """Short name as in IR files: ``'f32'``."""
        return self._name

    def to_string(self) -> str:
        return self._name

    def to_dtype(self) -> np.dtype:
        """The numpy dtype that stores this type (bf16 is stored as float16, as OpenVINO does)."""
        return self._dtype

    def get_size(self) -> int:
        return self._size

    @property
    def size(self) -> int:
        """Bytes per element."""
        return self._size

    @property
    def bitwidth(self) -> int:
        return 8 * self._size

    def is_real(self) -> bool:
        return self._real

    def is_integral(self) -> bool:
        return not self._real

    def is_static(self) -> bool:
        return True

    def __repr__(self) -> str:
        return f"<Type: '{self._c_name}'>"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Type) and other._name == self._name

    def __hash__(self) -> int:
        return hash(("ovlab.Type", self._name))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (as_type, (self._name,))


Type.f32 = Type._make("f32", "float32", np.float32, 4, True)
Type.f16 = Type._make("f16", "float16", np.float16, 2, True)
Type.bf16 = Type._make("bf16", "bfloat16", np.float16, 2, True)
Type.f64 = Type._make("f64", "double64", np.float64, 8, True)
Type.i64 = Type._make("i64", "int64_t", np.int64, 8, False)
Type.i32 = Type._make("i32", "int32_t", np.int32, 4, False)
Type.i8 = Type._make("i8", "int8_t", np.int8, 1, False)
Type.u8 = Type._make("u8", "uint8_t", np.uint8, 1, False)
Type.boolean = Type._make("boolean", "char", np.bool_, 1, False)

# Python scalar types map as in openvino.utils.types (float -> f32, int -> i32).
_PY_TYPES: dict[Any, Type] = {float: Type.f32, int: Type.i32, bool: Type.boolean}


def as_type(value: Any) -> Type:
    """Turn a ``Type``, numpy dtype/scalar type, Python type or type name into a ``Type``."""
    if isinstance(value, Type):
        return value
    if isinstance(value, type) and value in _PY_TYPES:
        return _PY_TYPES[value]
    if isinstance(value, str) and value in Type._by_name:
        return Type._by_name[value]
    try:
        dt = np.dtype(value)
    except TypeError as e:
        raise TypeError(f"Unsupported element type: {value!r}") from e
    if dt not in Type._by_dtype:
        raise TypeError(f"Unsupported element type: {value!r} (ovlab supports "
                        f"{', '.join(sorted(Type._by_name))})")
    return Type._by_dtype[dt]


def shape_str(dims: Iterable[int]) -> str:
    """``[1,3,224,224]``: OpenVINO's compact shape spelling."""
    return "[" + ",".join(str(int(d)) for d in dims) + "]"


class Shape(list):
    """A static shape: a list of ints that prints like ``openvino.Shape``."""

    def __init__(self, dims: Iterable[int] = ()) -> None:
        super().__init__(int(d) for d in dims)

    def to_string(self) -> str:
        return shape_str(self)

    def __str__(self) -> str:
        return shape_str(self)

    def __repr__(self) -> str:
        return f"<Shape: {shape_str(self)}>"


class Dimension:
    """One static dimension of a ``PartialShape``."""

    __slots__ = ("_n",)

    def __init__(self, n: int) -> None:
        self._n = int(n)

    def get_length(self) -> int:
        return self._n

    def get_min_length(self) -> int:
        return self._n

    def get_max_length(self) -> int:
        return self._n

    @property
    def is_static(self) -> bool:
        return True

    @property
    def is_dynamic(self) -> bool:
        return False

    def __int__(self) -> int:
        return self._n

    def __index__(self) -> int:
        return self._n

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Dimension):
            return other._n == self._n
        return isinstance(other, (int, np.integer)) and int(other) == self._n

    def __hash__(self) -> int:
        return hash(self._n)

    def __str__(self) -> str:
        return str(self._n)

    def __repr__(self) -> str:
        return f"<Dimension: {self._n}>"


class PartialShape:
    """A shape that OpenVINO allows to be dynamic; in ovlab it is always static."""

    __slots__ = ("_dims",)

    def __init__(self, dims: Iterable[Any]) -> None:
        if isinstance(dims, str):
            dims = [d for d in dims.strip("[]{}() ").split(",") if d.strip()]
        out = []
        for d in dims:
            n = int(d)
            if n < 0:
                raise ValueError(f"ovlab models are static: dynamic dimension {d!r} in {dims!r}")
            out.append(n)
        self._dims = tuple(out)

    @property
    def is_static(self) -> bool:
        return True

    @property
    def is_dynamic(self) -> bool:
        return False

    @property
    def rank(self) -> Dimension:
        return Dimension(len(self._dims))

    def to_shape(self) -> Shape:
        return Shape(self._dims)

    get_shape = to_shape

    def __len__(self) -> int:
        return len(self._dims)

    def __iter__(self) -> Iterator[Dimension]:
        return (Dimension(d) for d in self._dims)

    def __getitem__(self, i: int) -> Dimension:
        return Dimension(self._dims[i])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PartialShape):
            return other._dims == self._dims
        if isinstance(other, (list, tuple)):
            return tuple(int(d) for d in other) == self._dims
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._dims)

    def to_string(self) -> str:
        return shape_str(self._dims)

    def __str__(self) -> str:
        return shape_str(self._dims)

    def __repr__(self) -> str:
        return f"<PartialShape: {shape_str(self._dims)}>"
