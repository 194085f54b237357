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
    """One entry of a device list as the AUTO plugin reads it: ``GPU.1``, ``-CPU`` or ``CPU(4)``.

    ``raw`` is the entry as written; ``name`` what comes before its first ``(`` without the
    leading ``-``; ``requests`` the number in brackets where ``std::stol`` reads one (else None:
    :func:`requests_of` raises the plugin's error when the device is used)."""

    name: str
    requests: int | None = None
    excluded: bool = False
    raw: str = ""

    def __str__(self) -> str:
        if self.raw:
            return self.raw
        text = ("-" if self.excluded else "") + self.name
        return text + (f"({self.requests})" if self.requests is not None else "")


def _stol(text: str) -> int:
    """``std::stol``: leading blanks, a sign, digits; no digits (or out of range) throws, and
    the exception's text is just "stol" (it escapes the AUTO plugin unwrapped)."""
    m = re.match(r"[ \t\n\v\f\r]*([+-]?\d+)", text)
    if m is None or not -(2**63) <= int(m.group(1)) < 2**63:
        raise PluginError("stol")
    return int(m.group(1))


def requests_of(raw: str) -> int | None:
    """The ``(n)`` of a device-list entry as ``Plugin::parse_meta_devices`` reads it: the
    text from after ``(`` on, ``closing - 1`` characters long (so ``CPU(4)`` reads ``"4)"``),
    through ``std::stol``; an entry without ``(...)`` has none; ``n <= 0`` is an error."""
    opening = raw.find("(")
    if opening < 0:
        return None
    closing = raw.find(")", opening)
    if closing < 0:
        return None
    name = raw[:opening]
    n = _stol(raw[opening + 1:opening + 1 + closing - 1])
    n = (n + 2**31) % 2**32 - 2**31  # assigned to an int
    if n <= 0:
        raise PluginError(f"Priority value for{name}must be > 0, while {n}is passed",
                          "src/plugins/auto/src/plugin.cpp:223")
    return n


def _lenient_requests(raw: str) -> int | None:
    try:
        return requests_of(raw)
    except PluginError:
        return None


def parse_list(text: str) -> list[Token]:
    """Split a priority list as ``PluginConfig::parse_priorities_devices`` does: on ``,``,
    empty entries dropped, nothing stripped. Never raises: a malformed entry is a device no
    plugin knows (dropped later) or raises when its ``(n)`` is read (:func:`requests_of`)."""
    tokens = []
    for raw in text.split(","):
        if not raw:
            continue
        excluded = raw.startswith("-")
        body = raw[1:] if excluded else raw
        opening = body.find("(")
        name = body if opening < 0 else body[:opening]
        tokens.append(Token(name, _lenient_requests(raw), excluded, raw))
    return tokens
