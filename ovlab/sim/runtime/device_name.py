"""Device-name grammar: ``GPU.1``, ``AUTO:GPU,CPU``, ``-CPU``, ``GPU(4)``, ``BATCH:GPU(16)``.

Follows ``core_impl.cpp`` (``parse_device_config``) and the AUTO plugin's list parser, as
described in ``reference/openvino-semantics.md`` section 1. Names are case-sensitive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import PluginError

VIRTUAL_PREFIXES = ("AUTO", "MULTI", "HETERO", "BATCH")


def is_virtual(name: str) -> bool:
    return name.startswith(VIRTUAL_PREFIXES)


def check_syntax(name: str) -> None:
    """Every ``)`` must end the string or be followed by ``,`` that is not the last character."""
    for i, ch in enumerate(name):
        if ch == ")":
            rest = name[i + 1:]
            if rest and (not rest.startswith(",") or rest == ","):
                raise PluginError(f'Device with "{name}" name is illegal in the OpenVINO Runtime',
                                  "src/inference/src/dev/core_impl.cpp:1013",
                                  through_plugin=False)


@dataclass(frozen=True)
class ParsedName:
    plugin: str  # "CPU", "GPU", "AUTO", ...
    priorities: str | None = None  # what came after ':' (virtual devices)
    device_id: str | None = None  # what came after '.' (hardware devices)


def parse(name: str) -> ParsedName:
    if ":" in name:
        plugin, rest = name.split(":", 1)
        return ParsedName(plugin, priorities=rest)
    if "." in name:
        plugin, dev_id = name.split(".", 1)
        return ParsedName(plugin, device_id=dev_id)
    return ParsedName(name)


@dataclass(frozen=True)
class Token:
    """One entry of a device list: ``GPU.1``, ``-CPU`` or ``CPU(4)``."""

    name: str
    requests: int | None = None
    excluded: bool = False

    def __str__(self) -> str:
        text = ("-" if self.excluded else "") + self.name
        return text + (f"({self.requests})" if self.requests is not None else "")


_TOKEN = re.compile(r"^(-?)([^()]+?)(?:\((.*)\))?$")


def parse_list(text: str) -> list[Token]:
    """Split a priority list; empty entries (``"GPU,CPU,"``) are ignored."""
    tokens = []
    for raw in text.split(","):
        raw = raw.strip()
        if not raw:
            continue
        m = _TOKEN.match(raw)
        if not m:
            raise PluginError(f'Device with "{raw}" name is illegal in the OpenVINO Runtime',
                              "src/inference/src/dev/core_impl.cpp:1013")
        minus, dev, n = m.groups()
        requests = None
        if n is not None:
            try:
                requests = int(n)
            except ValueError:
                raise PluginError(f"Invalid priority value for {dev}: {n}",
                                  "src/plugins/auto/src/plugin.cpp:251") from None
            if requests <= 0:
                raise PluginError(f"Priority value for{dev}must be > 0, while {requests}is passed",
                                  "src/plugins/auto/src/plugin.cpp:254")
        tokens.append(Token(dev, requests, bool(minus)))
    return tokens
