"""The small integer containers of OpenVINO's API: ``AxisVector``, ``Coordinate``,
``CoordinateDiff``, ``Strides`` (sequences that can be indexed and written) and ``AxisSet``
(a sorted set). They print and compare as the 2026.4 wheel's do: only ``Strides`` compares by
value, the others are equal only to themselves."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

__all__ = ["AxisSet", "AxisVector", "Coordinate", "CoordinateDiff", "Strides"]


class _IntVector:
    __slots__ = ("_values",)

    def __init__(self, values: Iterable[Any]) -> None:
        self._values = [int(v) for v in values]

    def __len__(self) -> int:
        return len(self._values)

    def __getitem__(self, index: int) -> int:
        return self._values[index]

    def __setitem__(self, index: int, value: Any) -> None:
        self._values[index] = int(value)

    def __iter__(self) -> Iterator[int]:
        return iter(self._values)

    def _joined(self) -> str:
        return ", ".join(str(v) for v in self._values)


class AxisVector(_IntVector):
    """openvino.AxisVector wraps ov::AxisVector"""

    __slots__ = ()

    def __init__(self, axes: Iterable[Any]) -> None:
        super().__init__(axes)

    def __repr__(self) -> str:
        return f"<AxisVector {{{self._joined()}}}>"

    __str__ = __repr__


class Coordinate(_IntVector):
    """openvino.Coordinate wraps ov::Coordinate"""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<Coordinate>"

    __str__ = __repr__


class CoordinateDiff(_IntVector):
    """openvino.CoordinateDiff wraps ov::CoordinateDiff"""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<CoordinateDiff: ({self._joined()})>"

    def __str__(self) -> str:
        return self._joined()


class Strides(_IntVector):
    """openvino.Strides wraps ov::Strides"""

    __slots__ = ()

    def __init__(self, axis_strides: Iterable[Any]) -> None:
        super().__init__(axis_strides)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Strides) and other._values == self._values

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Strides: ({self._joined()})>"

    def __str__(self) -> str:
        return self._joined()


class AxisSet:
    """openvino.AxisSet wraps ov::AxisSet"""

    __slots__ = ("_axes",)

    def __init__(self, axes: Iterable[Any]) -> None:
        self._axes = sorted({int(a) for a in axes})

    def __len__(self) -> int:
        return len(self._axes)

    def __iter__(self) -> Iterator[int]:
        return iter(self._axes)

    def __repr__(self) -> str:
        return "<AxisSet {" + ", ".join(str(a) for a in self._axes) + "}>"

    __str__ = __repr__
