"""Property keys, values and enums that behave like ``openvino.properties``.

A property object *is* its string key (``hint.performance_mode == "PERFORMANCE_HINT"``), so it
works as a dict key or a ``get_property`` argument without being called. Calling it with no
argument returns the key; with a value it returns ``(key, OVAny(value))`` as OpenVINO does,
after converting the value to the property's type (``enable_profiling(1)`` holds ``True``,
``sparse_weights_decompression_rate(0.1)`` a float32) or raising OpenVINO's ``TypeError`` for a
value of the wrong type, or for any value given to a read-only property. Config dicts accept
these pairs (``dict([hint.performance_mode(PerformanceMode.THROUGHPUT)])``), property objects
and plain strings alike: the runtime unwraps ``OVAny`` values.
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Callable
from typing import Any

import numpy as np

_PYOV = "openvino._pyopenvino"


class OVAny:
    """``openvino.OVAny``: a value held for a property; ``.value`` is the value itself.

    Two OVAny (or an OVAny and a plain value) are equal when their values are, compared the
    way ``ov::Any`` compares them: enums and stream counts by number, dicts by their items.
    """

    __slots__ = ("_value",)

    def __init__(self, value: Any) -> None:
        self._value = value.value if isinstance(value, OVAny) else value

    @property
    def value(self) -> Any:
        return self._value

    def get(self) -> Any:
        return self._value

    def set(self, value: Any) -> None:
        self._value = value

    def astype(self, target: type) -> Any:
        return target(self._value)

    def aslist(self, dtype: type | None = None) -> list:
        items = self._value if isinstance(self._value, (list, tuple)) else \
            str(self._value).split(",")
        return [dtype(v) if dtype else v for v in items]

    # Items of a list or dict value, as the wheel reaches them: through the Python value
    # (a value without items raises the AttributeError the wheel raises, "'int' object has no
    # attribute '__getitem__'").
    def __getitem__(self, key: Any) -> Any:
        return getattr(self._value, "__getitem__")(key)  # noqa: B009 - the wheel's error text

    def __len__(self) -> int:
        return getattr(self._value, "__len__")()  # noqa: B009 - the wheel's error text

    def __setitem__(self, key: Any, value: str | int) -> None:
        """Sets the item on a copy of the value, so the held value does not change: the wheel
        converts the held ``ov::Any`` to a new Python object and sets the item on that
        (measured on 2026.4.1: ``a = OVAny([1, 2]); a[0] = 5`` leaves ``a.value == [1, 2]``)."""
        if not isinstance(value, (str, int)):
            raise TypeError("__setitem__(): incompatible function arguments: the item must be a "
                            f"str or an int, got {type(value).__name__}")
        getattr(copy.copy(self._value), "__setitem__")(key, value)  # noqa: B009

    def __eq__(self, other: object) -> bool:
        return _plain(self) == _plain(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "<OVAny class>"


def _plain(value: Any) -> Any:
    """A comparable form of a property value (see :class:`OVAny`)."""
    if isinstance(value, OVAny):
        value = value.value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "to_integer"):
        return value.to_integer()
    return value


def unwrap(value: Any) -> Any:
    """The plain value of an ``OVAny`` (dicts of them too), for configs. String keys (property
    objects among them) become plain strings; other keys (``PERF_CURVE_TABLE``'s utilization
    points) keep their type."""
    if isinstance(value, OVAny):
        value = value.value
    if isinstance(value, dict):
        return {str(k) if isinstance(k, str) else k: unwrap(v) for k, v in value.items()}
    return value


# --- value converters: (value) -> converted value, or raise TypeError ----------------------------
class _Conv:
    """A value type a property takes: how pybind names it, and how to convert to it."""

    def __init__(self, cpp: str, convert: Callable[[Any], Any]) -> None:
        self.cpp, self.convert = cpp, convert


def _as_bool(v: Any) -> bool:
    if isinstance(v, (bool, int, np.bool_, np.integer)):
        return bool(v)
    raise TypeError


def _as_int(v: Any) -> int:
    if isinstance(v, (bool, int, np.integer)):
        return int(v)
    raise TypeError


def _as_uint(v: Any) -> int:
    if isinstance(v, (bool, int, np.integer)) and int(v) >= 0:
        return int(v)
    raise TypeError


def _as_str(v: Any) -> str:
    if isinstance(v, str):
        return v
    raise TypeError


def _as_float(v: Any) -> float:
    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
        return float(v)
    raise TypeError


def _as_float32(v: Any) -> float:
    return float(np.float32(_as_float(v)))  # a C++ float, read back as a Python float


ANY = _Conv("object", lambda v: v)
BOOL = _Conv("bool", _as_bool)
INT = _Conv("int", _as_int)
UINT = _Conv("int", _as_uint)
STR = _Conv("str", _as_str)
FLOAT = _Conv("float", _as_float)
FLOAT32 = _Conv("float", _as_float32)


def enum_of(cls: type) -> _Conv:
    def convert(v: Any) -> Any:
        if isinstance(v, cls):
            return v
        raise TypeError
    return _Conv(f"{_PYOV}.properties.{cls.__name__}", convert)


def set_of(cls: type) -> _Conv:
    def convert(v: Any) -> set:
        if isinstance(v, (set, frozenset, list, tuple)) and all(isinstance(x, cls) for x in v):
            return set(v)
        raise TypeError
    return _Conv(f"set[{_PYOV}.properties.hint.{cls.__name__}]", convert)


def element_type() -> _Conv:
    def convert(v: Any) -> Any:
        from ..sim.graph.types import Type

        if isinstance(v, Type):
            return v
        raise TypeError
    return _Conv(f"{_PYOV}.Type", convert)


class Property(str):
    """A property key (a ``str``) that is also callable like OpenVINO's property functions.

    ``Property(key)`` takes any value; ``Property(key, BOOL)`` converts to the type;
    ``Property(key, read_only=True)`` takes none.
    """

    _conv: _Conv
    _read_only: bool
    _fname: str  # the function's name in its module (set by name_properties)

    def __new__(cls, key: str, conv: _Conv = ANY, *, read_only: bool = False) -> Property:
        obj = super().__new__(cls, key)
        obj._conv, obj._read_only, obj._fname = conv, read_only, key.lower()
        return obj

    def _bad_args(self, args: tuple) -> TypeError:
        lines = ["    1. () -> str"]
        if not self._read_only:
            lines.append(f"    2. (arg0: {self._conv.cpp}) -> tuple[str, {_PYOV}.OVAny]")
        shown = ", ".join(repr(a) if isinstance(a, str) else str(a) for a in args)
        return TypeError(f"{self._fname}(): incompatible function arguments. The following "
                         "argument types are supported:\n" + "\n".join(lines) +
                         f"\n\nInvoked with: {shown}")

    def __call__(self, *args: Any) -> Any:
        if not args:
            return str(self)
        if self._read_only or len(args) != 1:
            raise self._bad_args(args)
        try:
            value = self._conv.convert(args[0].value if isinstance(args[0], OVAny) else args[0])
        except TypeError:
            raise self._bad_args(args) from None
        return (str(self), OVAny(value))

    def __repr__(self) -> str:
        return f"<Property {str(self)!r}>"


class _PrioritiesProperty(Property):
    def __call__(self, *devices: Any) -> Any:
        if not devices:
            return str(self)
        for d in devices:
            if not isinstance(d, str):
                raise TypeError(f"Incorrect passed value: {d} , expected string values.")
        # openvino's Python binding joins with a trailing comma: "GPU,CPU," (parsers ignore it)
        return (str(self), OVAny("".join(f"{d}," for d in devices)))


class _DevicePropertiesProperty(Property):
    def __call__(self, *args: Any) -> Any:
        if not args:
            return str(self)
        if len(args) == 1 and isinstance(args[0], dict):
            return (str(self), OVAny(unwrap(dict(args[0]))))
        if len(args) == 2 and isinstance(args[0], str):
            # device.properties("GPU", {...}) -> DEVICE_PROPERTIES for one device
            return (str(self), OVAny({args[0]: unwrap(dict(args[1]))}))
        raise TypeError("device.properties() takes a dict {device: {key: value}}")


class _UnsimulatedProperty(Property):
    """A key ovlab knows but whose value it cannot act on (cache encryption callbacks)."""

    def __call__(self, *args: Any) -> Any:
        if not args:
            return str(self)
        raise NotImplementedError(f"{self}: cache encryption is not simulated on ovlab (the "
                                  "virtual CACHE_DIR holds no real blobs to encrypt)")


class OVEnum(enum.Enum):
    """An enum printed like OpenVINO's pybind enums: ``PerformanceMode.LATENCY``."""

    def __str__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__}.{self.name}: {self.value}>"

    def __int__(self) -> int:
        return int(self.value)

    def __index__(self) -> int:
        return int(self.value)

    @classmethod
    def _missing_(cls, value: object):
        """A value with no name, as pybind11 keeps it (``ExecutionMode(0)`` prints
        ``<ExecutionMode.???: 0>``): the C++ enum's zero read from an empty string is one."""
        if isinstance(value, int) and not isinstance(value, bool):
            member = object.__new__(cls)
            member._name_, member._value_ = "???", value
            return member
        return None

    @classmethod
    def _from_key(cls, text: str):
        """Parse the string form used in configs (``"THROUGHPUT"``); None if unknown."""
        return cls.__members__.get(text)


def name_properties(namespace: dict[str, Any]) -> None:
    """Tell each property of a module the name of its function (``enable_profiling``), which
    OpenVINO's TypeErrors print."""
    for name, value in namespace.items():
        if isinstance(value, Property) and not name.startswith("_"):
            value._fname = name


def add_entries(*classes: type[OVEnum]) -> None:
    """Give enums pybind11's ``__entries`` map (name -> (member, doc)), aliases included, which
    code written for OpenVINO's enums iterates."""
    for cls in classes:
        type.__setattr__(cls, "__entries", {name: (member, None)
                                            for name, member in cls.__members__.items()})
