"""``Strides``, ``AxisVector``, ``Coordinate``, ``CoordinateDiff``, ``AxisSet``: the small
integer vectors of OpenVINO's core, as its binding shows them to Python (indexable, settable,
iterable; ``Strides`` compares by value, the others by identity, as in the wheel)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any


class _IntVector:
    """A list of ints behind the binding's sequence protocol."""

    __slots__ = ("_items",)

    def __init__(self, items: Iterable[Any]) -> None:
        if isinstance(items, _IntVector):
            items = items._items
        self._items = [int(v) for v in items]

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: int) -> int:
        return self._items[index]

    def __setitem__(self, index: int, value: int) -> None:
        self._items[index] = int(value)

    def __iter__(self) -> Iterator[int]:
        return iter(list(self._items))

    def _tuple(self) -> str:
        return "(" + ", ".join(map(str, self._items)) + ")"

    def _braces(self) -> str:
        return "{" + ", ".join(map(str, self._items)) + "}"


class Strides(_IntVector):
    """Strides of a convolution or pooling window, one per spatial axis."""

    def __init__(self, axis_strides: Iterable[Any]) -> None:
        super().__init__(axis_strides)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Strides, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = object.__hash__

    def __str__(self) -> str:
        return ", ".join(map(str, self._items))

    def __repr__(self) -> str:
        return f"<Strides: {self._tuple()}>"


class AxisVector(_IntVector):
    """An ordered list of axes."""

    def __init__(self, axes: Iterable[Any]) -> None:
        super().__init__(axes)

    def __repr__(self) -> str:
        return f"<AxisVector {self._braces()}>"

    __str__ = __repr__


class Coordinate(_IntVector):
    """A position in a tensor, one index per axis."""

    def __init__(self, arg0: Iterable[Any]) -> None:
        super().__init__(arg0)

    def __repr__(self) -> str:
        return "<Coordinate>"

    __str__ = __repr__


class CoordinateDiff(_IntVector):
    """Signed offsets, one per axis (pads)."""

    def __init__(self, arg0: Iterable[Any]) -> None:
        super().__init__(arg0)

    def __str__(self) -> str:
        return ", ".join(map(str, self._items))

    def __repr__(self) -> str:
        return f"<CoordinateDiff: {self._tuple()}>"


class AxisSet(_IntVector):
    """A set of axes, kept sorted (not indexable, as in the wheel)."""

    def __init__(self, axes: Iterable[Any]) -> None:
        super().__init__(sorted(set(int(a) for a in (axes._items if isinstance(axes, _IntVector)
                                                       else axes))))

    def __getitem__(self, index: int) -> int:
        raise TypeError("'AxisSet' object is not subscriptable")

    def __setitem__(self, index: int, value: int) -> None:
        raise TypeError("'AxisSet' object does not support item assignment")

    def __repr__(self) -> str:
        return f"<AxisSet {self._braces()}>"

    __str__ = __repr__
