"""``ovlab.properties.streams``: the number of execution streams."""

from __future__ import annotations

from typing import Any

from ._base import Property, _Conv, name_properties


class Num:
    """``streams.Num``: a stream count, or ``Num.AUTO`` (-1) / ``Num.NUMA`` (-2)."""

    AUTO: Num
    NUMA: Num

    __slots__ = ("_n",)

    def __init__(self, n: int = -1) -> None:
        self._n = int(n)

    def to_integer(self) -> int:
        return self._n

    def __int__(self) -> int:
        return self._n

    def __index__(self) -> int:
        return self._n

    @property
    def name(self) -> str:
        return {-1: "AUTO", -2: "NUMA"}.get(self._n, str(self._n))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Num):
            return other._n == self._n
        return isinstance(other, int) and not isinstance(other, bool) and other == self._n

    def __hash__(self) -> int:
        return hash(self._n)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<Num: {self.name}>"


Num.AUTO = Num(-1)
Num.NUMA = Num(-2)


def _as_streams(v: Any) -> int:
    if isinstance(v, Num):
        return v.to_integer()
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    raise TypeError


num = Property("NUM_STREAMS", _Conv("openvino._pyopenvino.properties.streams.Num", _as_streams))

__all__ = ["Num", "num"]

name_properties(globals())
