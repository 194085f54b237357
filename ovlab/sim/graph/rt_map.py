"""``RTMap``: the runtime-info map an output port hands back (``output.get_rt_info()``).

OpenVINO's RTMap is a mapping from names to ``OVAny``: reading a key gives an OVAny, writing
stores the value. ovlab's wraps the port's own dict, so what is written is kept on the port.
(``OVAny`` comes from ``properties._base``, a module with no ovlab imports of its own.)
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from typing import Any

from ...properties._base import OVAny


class RTMap(MutableMapping):
    """Names -> ``OVAny`` over a plain dict (``items()`` yields OVAny values, as the real one)."""

    __slots__ = ("_data",)

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        self._data = {} if data is None else data

    def __getitem__(self, key: str) -> OVAny:
        value = self._data[key]
        return value if isinstance(value, OVAny) else OVAny(value)

    def __setitem__(self, key: str, value: Any) -> None:
        self._data[key] = value

    def __delitem__(self, key: str) -> None:
        del self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __bool__(self) -> bool:
        return bool(self._data)

    def __repr__(self) -> str:
        return "<RTMap>"
