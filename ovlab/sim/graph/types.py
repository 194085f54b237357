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
    """An element type (``Type.f32``, ``Type.u32`` ...); one shared instance per type.

    Every element type of OpenVINO 2026.4 exists, with its name, C name, size, bit width,
    signedness and numpy storage dtype as the wheel reports them (``tests/conformance``
    compares them). ``Type(np.float32)`` looks the instance up from a numpy dtype, as
    ``openvino.Type`` does. Sub-byte, f8, nf4 and string types are stored in the dtype OpenVINO
    uses for them; ovlab's kernels compute with the byte-sized numeric types.
    """

    f32: ClassVar[Type]
    f16: ClassVar[Type]
    bf16: ClassVar[Type]
    f64: ClassVar[Type]
    i4: ClassVar[Type]
    i8: ClassVar[Type]
    i16: ClassVar[Type]
    i32: ClassVar[Type]
    i64: ClassVar[Type]
    u1: ClassVar[Type]
    u2: ClassVar[Type]
    u3: ClassVar[Type]
    u4: ClassVar[Type]
    u6: ClassVar[Type]
    u8: ClassVar[Type]
    u16: ClassVar[Type]
    u32: ClassVar[Type]
    u64: ClassVar[Type]
    f8e4m3: ClassVar[Type]
    f8e5m2: ClassVar[Type]
    f8e8m0: ClassVar[Type]
    f4e2m1: ClassVar[Type]
    nf4: ClassVar[Type]
    boolean: ClassVar[Type]
    string: ClassVar[Type]
    dynamic: ClassVar[Type]

    _by_name: ClassVar[dict[str, Type]] = {}
    _by_dtype: ClassVar[dict[np.dtype, Type]] = {}

    __slots__ = ("_name", "_c_name", "_dtype", "_size", "_real", "_bits", "_signed", "_quant")

    def __new__(cls, dtype: Any) -> Type:  # noqa: D102 - documented on the class
        # the constructor reads Python's float and int as numpy does (f64, i64), unlike the
        # opset builders, which follow openvino.utils.types (f32, i32)
        if dtype is float or dtype is int:
            return as_type(np.dtype(dtype))
        if isinstance(dtype, str):
            dtype = np.dtype(dtype)  # the binding reads a string as numpy does: "i8" is int64
        if isinstance(dtype, np.dtype) or (isinstance(dtype, type) and
                                           issubclass(dtype, np.generic)):
            try:
                return as_type(dtype)
            except TypeError:
                raise RuntimeError(
                    "Check 'ov_type_it != dtype_map.end()' failed at src/bindings/python/src/"
                    f"pyopenvino/core/common.cpp:92:\nUnsupported data type: "
                    f"{np.dtype(dtype).name}\n") from None
        return as_type(dtype)

    @classmethod
    def _make(cls, name: str, c_name: str, dtype: Any, size: int, real: bool,
              bits: int | None = None, signed: bool = True, quantized: bool = False) -> Type:
        t = object.__new__(cls)
        t._name, t._c_name, t._dtype, t._size, t._real = name, c_name, np.dtype(dtype), size, real
        t._bits = 8 * size if bits is None else bits
        t._signed, t._quant = signed, quantized
        cls._by_name[name] = t
        cls._by_dtype.setdefault(np.dtype(dtype), t)
        return t

    def get_type_name(self) -> str:
        """Short name as in IR files: ``'f32'``."""
        return self._name

    @property
    def type_name(self) -> str:
        return self._name

    def to_string(self) -> str:
        return self._name

    def to_dtype(self) -> np.dtype:
        """The numpy dtype that stores this type (bf16 is stored as float16, as OpenVINO does)."""
        if self._name == "dynamic":
            raise IndexError("Type.dynamic has no numpy dtype")
        return self._dtype

    def get_size(self) -> int:
        return self._size

    @property
    def size(self) -> int:
        """Bytes per element."""
        return self._size

    @property
    def bitwidth(self) -> int:
        return self._bits

    def get_bitwidth(self) -> int:
        return self._bits

    def is_real(self) -> bool:
        return self._real

    @property
    def real(self) -> bool:
        return self._real

    def is_integral(self) -> bool:
        return not self._real

    @property
    def integral(self) -> bool:
        return not self._real

    def is_integral_number(self) -> bool:
        return not self._real and self._name != "boolean"

    def is_signed(self) -> bool:
        return self._signed

    @property
    def signed(self) -> bool:
        return self._signed

    def is_quantized(self) -> bool:
        return self._quant

    @property
    def quantized(self) -> bool:
        return self._quant

    def is_static(self) -> bool:
        return self._name != "dynamic"

    def is_dynamic(self) -> bool:
        return self._name == "dynamic"

    @property
    def integral_number(self) -> bool:
        return self.is_integral_number()

    def compatible(self, other: Type) -> bool:
        return self.is_dynamic() or other.is_dynamic() or self == other

    def merge(self, other: Type) -> Type | None:
        """The type both are, if they can be one (dynamic merges with anything), else None."""
        if self.is_dynamic():
            return other
        return self if other.is_dynamic() or other == self else None

    def __repr__(self) -> str:
        return f"<Type: '{self._c_name}'>"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Type) and other._name == self._name

    def __hash__(self) -> int:
        return hash(("ovlab.Type", self._name))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (as_type, (self._name,))


# (name, C name, storage dtype, bytes, real, bits, signed, quantized) as the 2026.4 wheel reports
# them; the byte-sized numeric types come first so that a numpy dtype maps back to them.
for _spec in [
    ("f32", "float32", np.float32, 4, True, 32, True, False),
    ("f16", "float16", np.float16, 2, True, 16, True, False),
    ("f64", "double64", np.float64, 8, True, 64, True, False),
    ("i64", "int64_t", np.int64, 8, False, 64, True, False),
    ("i32", "int32_t", np.int32, 4, False, 32, True, True),
    ("i16", "int16_t", np.int16, 2, False, 16, True, False),
    ("i8", "int8_t", np.int8, 1, False, 8, True, True),
    ("u8", "uint8_t", np.uint8, 1, False, 8, False, True),
    ("u16", "uint16_t", np.uint16, 2, False, 16, False, False),
    ("u32", "uint32_t", np.uint32, 4, False, 32, False, False),
    ("u64", "uint64_t", np.uint64, 8, False, 64, False, False),
    ("boolean", "char", np.bool_, 1, False, 8, True, False),
    ("bf16", "bfloat16", np.float16, 2, True, 16, True, False),
    ("i4", "int4_t", np.int8, 1, False, 4, True, True),
    ("u1", "uint1_t", np.uint8, 1, False, 1, False, False),
    ("u2", "uint2_t", np.uint8, 1, False, 2, False, False),
    ("u3", "uint3_t", np.uint8, 1, False, 3, False, False),
    ("u4", "uint4_t", np.uint8, 1, False, 4, False, False),
    ("u6", "uint6_t", np.uint8, 1, False, 6, False, False),
    ("f8e4m3", "f8e4m3", np.uint8, 1, True, 8, True, True),
    ("f8e5m2", "f8e5m2", np.uint8, 1, True, 8, True, True),
    ("f8e8m0", "f8e8m0", np.uint8, 1, True, 8, True, True),
    ("f4e2m1", "f4e2m1", np.uint8, 1, True, 4, True, True),
    ("nf4", "nfloat4", np.uint8, 1, False, 4, False, True),
    ("string", "string", np.bytes_, 32, False, 256, False, False),
    ("dynamic", "dynamic", np.void, 0, False, 0, False, False),
]:
    setattr(Type, _spec[0], Type._make(*_spec))

# Python scalar types map as in openvino.utils.types (float -> f32, int -> i32).
_PY_TYPES: dict[Any, Type] = {float: Type.f32, int: Type.i32, bool: Type.boolean,
                              str: Type.string, bytes: Type.string}


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
        raise TypeError(f"data type {value!r} not understood") from e
    if dt.kind in "SU":
        return Type.string
    if dt not in Type._by_dtype:
        raise TypeError(f"Unsupported element type: {value!r} (ovlab supports "
                        f"{', '.join(sorted(Type._by_name))})")
    return Type._by_dtype[dt]


def shape_str(dims: Iterable[int]) -> str:
    """``[1,3,224,224]``: OpenVINO's compact shape spelling (``[?,3]`` for a dynamic one)."""
    if isinstance(dims, PartialShape):
        return str(dims)
    return "[" + ",".join(str(int(d)) for d in dims) + "]"


class Shape(list):
    """A static shape: a list of ints that prints like ``openvino.Shape``."""

    def __init__(self, dims: Iterable[int] = ()) -> None:
        super().__init__(int(d) for d in dims)

    def to_string(self) -> str:
        return shape_str(self)

    def __eq__(self, other: object) -> bool:
        """Equal to a list, tuple or Shape of the same lengths, as the wheel's binding."""
        if isinstance(other, tuple):
            return list(self) == list(other)
        return list.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __str__(self) -> str:
        return shape_str(self)

    def __repr__(self) -> str:
        return f"<Shape: {shape_str(self)}>"

    __hash__ = None  # type: ignore[assignment]  # mutable, as a list


class Symbol:
    """A symbol marking dimensions known to be equal (``openvino.Symbol``): each new Symbol is
    distinct; a Dimension carries one through ``set_symbol``. ovlab's models are static, so
    symbols are recorded and compared, not used for shape inference."""

    __slots__ = ("__weakref__",)

    def __bool__(self) -> bool:
        return True

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __lt__(self, other: Symbol) -> bool:
        return id(self) < id(other)

    def __le__(self, other: Symbol) -> bool:
        return id(self) <= id(other)

    def __gt__(self, other: Symbol) -> bool:
        return id(self) > id(other)

    def __ge__(self, other: Symbol) -> bool:
        return id(self) >= id(other)

    def __hash__(self) -> int:
        return id(self)


#: both bounds of an empty interval (``Dimension(3, 2)``): ``Interval::s_max``
_EMPTY = 2**63 - 1


class Dimension:
    """One dimension of a ``PartialShape``: a length, an interval ``a..b`` or ``?`` (dynamic).

    ovlab's models are static; dynamic dimensions exist so that shapes written by OpenVINO code
    (``PartialShape([-1, 3])``, ``"?"``) can be built and read. A model with one fails at the
    Parameter that declares it, with a message saying ovlab models are static.
    """

    __slots__ = ("_lo", "_hi", "_symbol")  # _hi == -1: unbounded

    def __init__(self, *args: Any) -> None:
        symbol: Symbol | None = None
        if not args:
            lo, hi = 0, -1
        elif len(args) == 1:
            n = args[0]
            if isinstance(n, Dimension):
                lo, hi = n._lo, n._hi
                symbol = n._symbol  # a copy keeps the symbol, as ov::Dimension's does
            elif isinstance(n, str):
                lo, hi = Dimension._parse(n)
            else:
                n = int(n)
                lo, hi = (0, -1) if n < 0 else (n, n)
        else:
            lo, hi = max(int(args[0]), 0), int(args[1])  # a negative bound means none
        if 0 <= hi < lo:
            lo = hi = _EMPTY  # Interval::canonicalize: an empty interval is [max, max]
        self._lo, self._hi = lo, hi
        self._symbol: Symbol | None = symbol

    @staticmethod
    def _parse(text: str) -> tuple[int, int]:
        text = text.strip()
        if text in ("?", "-1"):
            return 0, -1
        if not text:
            return 0, 0  # Dimension("") is the static 0, as in the wheel (benchmark_app's -b)
        if ".." in text:
            a, _, b = text.partition("..")
            return (Dimension._bound(a, "min") if a else 0), (Dimension._bound(b, "max") if b
                                                               else -1)
        n = Dimension._bound(text, "")
        return (0, -1) if n < 0 else (n, n)

    @staticmethod
    def _bound(text: str, which: str) -> int:
        """One number of a dimension string, with the wheel's error for anything else."""
        if not text.lstrip("-").isdigit():
            what = f"{which} bound" if which else "dimension"
            raise RuntimeError("Check 'check_all_digits(dim_str)' failed at "
                               f"src/core/src/dimension.cpp:88:\nCannot parse {what}: \"{text}\"\n")
        return int(text)

    @staticmethod
    def dynamic() -> Dimension:
        return Dimension()

    def __len__(self) -> int:
        """``len(dim)``: the static length, as the wheel's binding gives (benchmark_app uses it)."""
        return self.get_length()

    def get_length(self) -> int:
        if self.is_dynamic:
            raise RuntimeError("Exception from src/core/src/dimension.cpp:208:\n"
                               "Cannot get length of dynamic dimension\n")
        return self._lo

    def get_min_length(self) -> int:
        return -1 if self._lo == _EMPTY else self._lo

    def get_max_length(self) -> int:
        return -1 if self._hi == _EMPTY else self._hi

    @property
    def min_length(self) -> int:
        return self._lo

    @property
    def max_length(self) -> int:
        return self._hi

    def to_string(self) -> str:
        return str(self)

    def compatible(self, dim: Any) -> bool:
        """True when some length fits both (OpenVINO's ``Dimension::compatible``)."""
        o = Dimension(dim)
        if _EMPTY in (self._lo, o._lo):
            return False  # an empty interval fits nothing
        hi = min(h for h in (self._hi, o._hi) if h >= 0) if max(self._hi, o._hi) >= 0 else -1
        if self._hi < 0 and o._hi < 0:
            return True
        return max(self._lo, o._lo) <= hi

    def same_scheme(self, dim: Dimension) -> bool:
        """Both dynamic, or both static and equal (``Dimension::same_scheme``)."""
        o = Dimension(dim)
        return (self._lo, self._hi) == (o._lo, o._hi) or (self.is_dynamic and o.is_dynamic)

    def relaxes(self, dim: Dimension) -> bool:
        """Every length ``dim`` allows, this one allows too (``Dimension::relaxes``)."""
        o = Dimension(dim)
        return self._lo <= o._lo and (self._hi < 0 or (0 <= o._hi <= self._hi))

    def refines(self, dim: Dimension) -> bool:
        """The converse of :meth:`relaxes` (``Dimension::refines``)."""
        return Dimension(dim).relaxes(self)

    def has_symbol(self) -> bool:
        return self._symbol is not None

    def get_symbol(self) -> Symbol | None:
        return self._symbol

    def set_symbol(self, symbol: Symbol) -> None:
        self._symbol = symbol

    @property
    def is_static(self) -> bool:
        return self._lo == self._hi and self._lo != _EMPTY

    @property
    def is_dynamic(self) -> bool:
        return not self.is_static

    def __int__(self) -> int:
        return self.get_length()

    def __index__(self) -> int:
        return self.get_length()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Dimension):
            return (other._lo, other._hi) == (self._lo, self._hi)
        # an int compares as the Dimension it makes (-1 is the dynamic one), as in the wheel
        return isinstance(other, (int, np.integer)) and Dimension(int(other)) == self

    def __hash__(self) -> int:
        return hash((self._lo, self._hi))

    def __str__(self) -> str:
        if self.is_static:
            return str(self._lo)
        if (self._lo, self._hi) in ((0, -1), (_EMPTY, _EMPTY)):
            return "?"
        return f"{self._lo or ''}..{'' if self._hi < 0 else self._hi}"  # "..5" from 0

    def __repr__(self) -> str:
        return f"<Dimension: {self}>"


class PartialShape:
    """A shape whose dimensions may be dynamic (``-1``, ``"?"``, ``"1..10"``, Dimensions), or
    whose rank itself is (``PartialShape.dynamic()``, printed ``[...]``).

    ``_dims`` holds the lengths with ``-1`` for a dynamic dimension (``None`` for a dynamic
    rank), which the graph layer refuses (ovlab models are static); reading a dynamic shape
    works as in OpenVINO.
    """

    __slots__ = ("_dims", "_dimensions")

    def __init__(self, dims: Iterable[Any]) -> None:
        if isinstance(dims, PartialShape):
            self._dimensions, self._dims = dims._dimensions, dims._dims
            return
        if isinstance(dims, str):
            dimensions = _parse_shape(dims)
        else:
            dimensions = tuple(_dimension_of(d) for d in dims)
        self._dimensions: tuple[Dimension, ...] | None = dimensions
        self._dims: tuple[int, ...] | None = None if dimensions is None else tuple(
            d._lo if d.is_static else -1 for d in dimensions)

    @staticmethod
    def dynamic(rank: Any = None) -> PartialShape:
        """All dimensions dynamic: of the given rank, or of a dynamic rank (``[...]``)."""
        rank = Dimension() if rank is None else Dimension(rank)
        if rank.is_dynamic:
            shape = PartialShape(())
            shape._dimensions = shape._dims = None
            return shape
        return PartialShape([Dimension()] * rank.get_length())

    def _static_rank(self) -> tuple[Dimension, ...]:
        if self._dimensions is None:
            raise RuntimeError("Check 'rank().is_static()' failed at "
                               "src/core/include/openvino/core/partial_shape.hpp:315\n")
        return self._dimensions

    @property
    def is_static(self) -> bool:
        return self._dimensions is not None and all(d.is_static for d in self._dimensions)

    @property
    def is_dynamic(self) -> bool:
        return not self.is_static

    @property
    def rank(self) -> Dimension:
        return Dimension() if self._dims is None else Dimension(len(self._dims))

    def to_shape(self) -> Shape:
        if self.is_dynamic:
            raise RuntimeError("Exception from src/core/src/partial_shape.cpp:261:\n"
                               "to_shape was called on a dynamic shape.\n")
        return Shape(self._dims)

    get_shape = to_shape

    def get_dimension(self, index: int) -> Dimension:
        return self[index]

    @property
    def all_non_negative(self) -> bool:
        return self._dimensions is None or all(d._lo >= 0 for d in self._dimensions)

    def compatible(self, shape: Any) -> bool:
        """Some static shape fits both (``PartialShape::compatible``)."""
        o = PartialShape(shape)
        if self._dimensions is None or o._dimensions is None:
            return True
        return len(o) == len(self) and all(a.compatible(b) for a, b in zip(self, o, strict=True))

    def same_scheme(self, shape: Any) -> bool:
        """Both of dynamic rank, or of one rank with dimensions of the same scheme."""
        o = PartialShape(shape)
        if self._dimensions is None or o._dimensions is None:
            return self._dimensions is None and o._dimensions is None
        return len(o) == len(self) and all(a.same_scheme(b) for a, b in
                                           zip(self, o, strict=True))

    def relaxes(self, shape: Any) -> bool:
        """Every shape ``shape`` allows, this one allows too (dimension by dimension)."""
        o = PartialShape(shape)
        if self._dimensions is None:
            return True
        if o._dimensions is None:
            return False
        return len(o) == len(self) and all(a.relaxes(b) for a, b in zip(self, o, strict=True))

    def refines(self, shape: Any) -> bool:
        """The converse of :meth:`relaxes`."""
        return PartialShape(shape).relaxes(self)

    def get_min_shape(self) -> Shape:
        return Shape(d._lo for d in self._dimensions or ())

    def get_max_shape(self) -> Shape:
        """The largest lengths; an unbounded one is the int64 maximum, as the wheel gives."""
        return Shape(_UNBOUNDED if d._hi < 0 else d._hi for d in self._dimensions or ())

    def __len__(self) -> int:
        return len(self._static_rank())

    def __iter__(self) -> Iterator[Dimension]:
        return iter(self._static_rank())

    def __getitem__(self, i: Any) -> Any:
        dims = self._static_rank()
        if isinstance(i, slice):
            return PartialShape(dims[i])
        if not -len(dims) <= i < len(dims):
            raise RuntimeError("Exception from src/core/src/shape_util.cpp:66:\n"
                               "Accessing out-of-range dimension\n")
        return dims[i]

    def __setitem__(self, i: int, value: Any) -> None:
        dims = list(self._static_rank())
        dims[i] = _dimension_of(value)
        self._dimensions = tuple(dims)
        self._dims = tuple(d._lo if d.is_static else -1 for d in dims)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PartialShape):
            return other._dimensions == self._dimensions
        if isinstance(other, (list, tuple)):
            if self._dimensions is None:
                raise TypeError(f"Cannot compare dynamic shape with {type(other)}")
            try:
                return PartialShape(other) == self
            except (TypeError, ValueError, RuntimeError):
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._dimensions)

    def __copy__(self) -> PartialShape:
        return PartialShape(self)

    def __deepcopy__(self, memo: dict) -> PartialShape:
        return PartialShape(self)

    def to_string(self) -> str:
        if self._dimensions is None:
            return "[...]"
        return "[" + ",".join(str(d) for d in self._dimensions) + "]"

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"<PartialShape: {self.to_string()}>"


_UNBOUNDED = 2 ** 63 - 1


def _parse_shape(text: str) -> tuple[Dimension, ...] | None:
    """``"[?, 3, ..224]"`` -> Dimensions; ``"[...]"`` -> None (a dynamic rank)."""
    body = text.strip()
    if body in ("[...]", "..."):
        return None
    # the brackets come off as a pair only: "[1,2" reads the dimension "[1" (an error)
    pairs = {"[": "]", "{": "}", "(": ")"}
    inner = body[1:-1] if body[:1] in pairs and body[-1:] == pairs[body[:1]] else body
    inner = inner.strip()
    if not inner:
        return ()
    fields = inner.split(",")
    if any(not f.strip() for f in fields):
        raise RuntimeError("Check '!dim_field.empty()' failed at src/core/src/partial_shape.cpp:43:"
                           f"\nCannot get vector of dimensions! \"{text}\" is incorrect\n")
    return tuple(Dimension(f) for f in fields)


def _dimension_of(value: Any) -> Dimension:
    """One element of a shape list, with the wheel's errors for the wrong kinds."""
    if isinstance(value, (list, tuple)):
        if len(value) != 2:
            raise TypeError("Two elements are expected in tuple(lower, upper) for dynamic "
                            f"dimension, but {len(value)} elements were given.")
        if not all(isinstance(v, (int, np.integer)) for v in value):
            raise TypeError(f"Incorrect pair of types ({type(value[0])}, {type(value[1])}) "
                            "for dynamic dimension, ints are expected.")
        return Dimension(int(value[0]), int(value[1]))
    if isinstance(value, (int, np.integer, str, Dimension)):
        return Dimension(value)
    raise TypeError(f"Incorrect type {type(value)} for dimension. Expected types are: int, str, "
                    "openvino.Dimension, list/tuple with lower and upper values for dynamic "
                    "dimension.")
