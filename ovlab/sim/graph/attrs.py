"""Op attributes as OpenVINO's IR spells them: a name, a kind and a default per attribute.

Every ``OpDef`` lists its attributes as ``Attr`` entries named exactly as OpenVINO's
``visit_attributes`` writes them into an IR file's ``<data>`` element (``strides``,
``pads_begin``, ``auto_pad``, ``exclude-pad``, ``keep_dims`` ...), so an IR reader and writer can
convert every op generically with ``to_ir``/``from_ir`` instead of knowing each op. Enum-like
strings keep the spelling the real IR uses (``"explicit"`` for auto_pad but ``"INSIDE_SQRT"``
for MVN's eps_mode); builders accept any case and store that spelling.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .types import Type, as_type

__all__ = ["Attr", "REQUIRED", "KINDS", "to_ir", "from_ir", "normalize", "choice"]


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()
# int, float, bool, str: scalars; ints / floats / strs: lists ("1, 1" in IR);
# type: an element type ("f32"); shape: a static shape ("1,3,224,224").
KINDS = ("int", "float", "bool", "str", "ints", "floats", "strs", "type", "shape")


@dataclass(frozen=True)
class Attr:
    """One attribute of an op: IR name, kind (one of ``KINDS``), default (``REQUIRED`` if the
    builder has none), for enum-like strings the spellings the IR uses, and for floats whether
    OpenVINO stores them as float32 (MVN's eps is written 9.9999997473787516e-06, LRN's alpha
    0.0001): such values are kept rounded, so they print and compare as OpenVINO's."""

    name: str
    kind: str
    default: Any = REQUIRED
    choices: tuple[str, ...] = ()
    f32: bool = False  # a "float" that OpenVINO keeps as C++ float: stored rounded to float32

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown attribute kind {self.kind!r} for {self.name!r}")


def _fmt_float(v: float) -> str:
    r = repr(float(v))
    return r[:-2] if r.endswith(".0") else r


def to_ir(kind: str, value: Any) -> str:
    """The string an IR file holds for ``value`` (lists as ``"1, 1"``, bools as ``"true"``)."""
    if kind == "bool":
        return "true" if value else "false"
    if kind == "int":
        return str(int(value))
    if kind == "float":
        return _fmt_float(value)
    if kind == "str":
        return str(value)
    if kind == "ints":
        return ", ".join(str(int(v)) for v in value)
    if kind == "floats":
        return ", ".join(_fmt_float(v) for v in value)
    if kind == "strs":
        return ",".join(str(v) for v in value)
    if kind == "type":
        return as_type(value).get_type_name()
    if kind == "shape":
        return ",".join(str(int(v)) for v in value)
    raise ValueError(f"unknown attribute kind {kind!r}")


def from_ir(kind: str, text: str) -> Any:
    """Parse an IR attribute string into the value ovlab stores for ``kind``."""
    text = text.strip()
    if kind == "bool":
        if text.lower() not in ("true", "false", "1", "0"):
            raise ValueError(f"expected true or false, got {text!r}")
        return text.lower() in ("true", "1")
    if kind == "int":
        return int(text)
    if kind == "float":
        return float(text)
    if kind == "str":
        return text
    if kind in ("ints", "shape"):
        return [int(v) for v in text.split(",") if v.strip()]
    if kind == "floats":
        return [float(v) for v in text.split(",") if v.strip()]
    if kind == "strs":
        return [v.strip() for v in text.split(",") if v.strip()]
    if kind == "type":
        return as_type(text)
    raise ValueError(f"unknown attribute kind {kind!r}")


def normalize(attr: Attr, value: Any, op: str) -> Any:
    """A builder argument as ovlab stores it: enum strings in the IR's spelling, lists as
    lists of ints/floats, element types as ``Type``. Raises ``TypeError``/``ValueError``
    naming the op and the attribute."""
    kind = attr.kind
    try:
        if kind == "bool":
            return bool(value)
        if kind == "int":
            return int(value)
        if kind == "float":
            return float(np.float32(value)) if attr.f32 else float(value)
        if kind == "ints":
            return [int(v) for v in _seq(value)]
        if kind == "floats":
            return [float(v) for v in _seq(value)]
        if kind == "strs":
            return [str(v) for v in _seq(value)]
        if kind == "type":
            return as_type(value) if not isinstance(value, Type) else value
        if kind == "shape":
            return [int(v) for v in _seq(value)]
    except (TypeError, ValueError):
        raise TypeError(f"{op}: {attr.name} must be {_WHAT[kind]}, got {value!r}") from None
    return str(value)


def choice(attr: Attr, value: Any) -> str:
    """The IR spelling of an enum-like value (any case accepted); ``ValueError`` if it is not
    one of ``attr.choices``, worded like OpenVINO's enum check."""
    text = str(value)
    for c in attr.choices:
        if c.lower() == text.lower():
            return c
    if attr.name == "auto_broadcast":  # the wheel's enum check, word for word
        raise RuntimeError("Check 'false' failed at src/core/include/openvino/core/"
                           f'enum_names.hpp:34:\n"{text.upper()}" is not a member of enum '
                           "ov::op::AutoBroadcastType\n")
    raise ValueError(f'"{text}" is not a member of enum {attr.name} (use one of '
                     f"{', '.join(attr.choices)})")


def _seq(value: Any) -> Sequence[Any]:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError
    return list(value)


_WHAT = {"bool": "a bool", "int": "an integer", "float": "a number",
         "ints": "a list of integers", "floats": "a list of numbers", "strs": "a list of strings",
         "type": "an element type", "shape": "a list of integers", "str": "a string"}
