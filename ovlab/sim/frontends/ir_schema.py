"""How an op's attributes look in IR: names, kinds, defaults, and the op type/version names.

The reader and writer are generic: an op is found in the graph registry (``ovlab.sim.graph.ops
.REGISTRY``) by its type name, and its ``<data>`` attributes are converted with the description
here (IR name, kind, default, ovlab's key). Only what really differs between IR and ovlab is
written down per op: the IR type names OpenVINO's serializer translates (``Relu`` is written
``ReLU``), attribute names that are not Python names (AvgPool's ``exclude-pad``), and older op
versions that ovlab reads as the version it implements (Softmax-1 of IR v10 files). The other
versions ovlab builds beside its registry's (MaxPool-1, Squeeze-15, AvgPool-16...:
``ovlab/sim/graph/opset_versions.py``) are read as themselves.
An op without a description is still read and written: its attributes are written from their
Python types and read back by their spelling.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from ..graph import opset_versions
from ..graph.node import OpDef
from ..graph.ops import REGISTRY
from ..graph.types import Type, as_type
from . import errors as E

__all__ = ["Attr", "REQUIRED", "attrs_of", "ir_type_name", "resolve", "parse", "fmt",
           "LEGACY"]

REQUIRED: Any = object()  # an attribute without which the op cannot be built

# OpenVINO's serializer writes these four type names differently from get_type_name()
# (serialize.cpp translate_type_name); its reader looks types up case-insensitively.
_IR_NAMES = {"Constant": "Const", "PRelu": "PReLU", "Relu": "ReLU", "Softmax": "SoftMax"}


class Attr(NamedTuple):
    """One ``<data>`` attribute: its IR name, kind, default and the key ovlab keeps it under."""

    ir: str
    kind: str  # bool int float str enum ints floats strs shape type type_name
    default: Any = REQUIRED
    key: str | None = None

    @property
    def name(self) -> str:
        return self.key or self.ir


def attrs_of(op: OpDef) -> tuple[Attr, ...]:
    """The op's attribute description, in the order OpenVINO's visit_attributes writes them:
    every ``OpDef`` describes its own attributes (``op.attrs``, as ``ovlab.sim.graph.attrs.Attr``:
    ``name`` = the IR name, ``kind`` and ``default``)."""
    return tuple(a if isinstance(a, Attr) else _from_graph(a)
                 for a in (getattr(op, "attrs", None) or ()))


def _from_graph(a: Any) -> Attr:
    """An attribute description of the graph layer (``name``, ``kind``, ``default``)."""
    required = repr(a.default) == "REQUIRED"  # graph.attrs.REQUIRED, or any marker like it
    return Attr(a.name, a.kind, REQUIRED if required else a.default)


def ir_type_name(op: OpDef) -> str:
    return _IR_NAMES.get(op.type_name, op.type_name)


# --- op lookup ---------------------------------------------------------------------------------
class Legacy(NamedTuple):
    """An older op version ovlab reads as the version it implements."""

    outputs: int  # how many outputs the old version has (its IR lists that many ports)
    adapt: Callable[[dict[str, Any], int], dict[str, Any]]  # (attrs, data rank) -> attrs


LEGACY: dict[tuple[str, str], Legacy] = {
    # Softmax-1 takes a non-negative axis only: the same computation as Softmax-8
    ("Softmax", "opset1"): Legacy(1, lambda attrs, rank: attrs),
}


@cache
def _versions() -> dict[str, dict[str, str]]:
    """(type, opsetN) -> the version opsetN holds, measured from the real wheel
    (``tools/gen_ir_versions.py``): opset3's Softmax is Softmax-1 (version "opset1")."""
    path = Path(__file__).with_name("opset_versions.json")
    data = json.loads(path.read_text())
    out: dict[str, dict[str, str]] = {}
    for t, firsts in data["versions"].items():
        table = {}
        changes = sorted((int(n), v) for n, v in firsts.items())
        for n in range(1, data["max_opset"] + 1):
            held = [v for first, v in changes if first <= n]
            if held:
                table[f"opset{n}"] = held[-1]
        out[t] = table
    return out


def _by_lower() -> dict[str, OpDef]:
    table = {t.lower(): op for t, op in REGISTRY.items()}
    for t, ir in _IR_NAMES.items():
        if t in REGISTRY:
            table[ir.lower()] = REGISTRY[t]
    return table


def resolve(type_name: str, version: str, layer: str) -> tuple[OpDef, Legacy | None]:
    """The ovlab op for an IR layer's ``type`` and ``version`` (``layer`` is ``"<name> id:<n>"``),
    or a FrontendError naming the op, the layer and what ovlab implements."""
    if not re.fullmatch(r"opset\d+", version or "") or int(version[5:]) > _max_opset():
        raise E.FrontendError(f"Cannot create {type_name} layer {layer} from unsupported "
                              f"opset: {version}", E.BAD_OPSET)
    op = _by_lower().get(type_name.lower())
    if op is None:
        raise _unknown(type_name, version, layer)
    known = _versions().get(op.type_name)
    if known is None:  # not measured (an op added after the table was made): exact versions
        held = version
    elif version in known:
        held = known[version]
    else:
        raise E.FrontendError(f"Opset {version} doesn't contain the operation with type: "
                              f"{type_name}", E.NO_OP_TYPE)
    if held == op.version:
        return op, None
    other = opset_versions.VERSIONS.get((op.type_name, held))
    if other is not None:  # a version ovlab builds beside the registry's (opset_versions.py)
        return other, None
    legacy = LEGACY.get((op.type_name, held))
    if legacy is None:
        raise _wrong_version(op, type_name, version, layer, held)
    return op, legacy


@cache
def _max_opset() -> int:
    path = Path(__file__).with_name("opset_versions.json")
    return int(json.loads(path.read_text())["max_opset"])


def supported_list() -> str:
    return ", ".join(sorted(t for t in REGISTRY if t not in ("Parameter", "Constant", "Result")))


def _unknown(type_name: str, version: str, layer: str) -> E.FrontendError:
    return E.FrontendError(
        f"Opset {version} doesn't contain the operation with type: {type_name}\n"
        f"ovlab: layer {layer} needs {type_name}, which ovlab does not implement; it implements "
        f"{supported_list()} (docs/supported-ops.md)", E.NO_OP_TYPE)


def _wrong_version(op: OpDef, type_name: str, version: str, layer: str,
                   held: str | None = None) -> E.FrontendError:
    what = f"{op.type_name}-{held[5:]}" if held else f"the {type_name} of {version}"
    also = sorted({v for (t, v) in [*LEGACY, *opset_versions.VERSIONS] if t == op.type_name})
    extra = f" (and reads {', '.join(also)})" if also else ""
    return E.FrontendError(
        f"Cannot create {type_name} layer {layer} from unsupported opset: {version}\n"
        f"ovlab: it implements {op.type_name}-{op.version[5:]} ({op.version}){extra}, not "
        f"{what}", E.BAD_OPSET)


# --- attribute values ----------------------------------------------------------------------------
def _bad(text: str, whole: str) -> E.FrontendError:
    return E.FrontendError(f"Cannot parse '{text}' in \"{whole}\"", E.PARSE_VALUE)


def _list(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def _int(text: str, whole: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise _bad(text, whole) from None


def _float(text: str, whole: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise _bad(text, whole) from None


def parse(kind: str, text: str) -> Any:
    """An IR attribute string as the value ovlab keeps (``"1, 1"`` -> ``[1, 1]``)."""
    if kind == "bool":
        low = text.strip().lower()
        if low in ("true", "1"):
            return True
        if low in ("false", "0"):
            return False
        raise _bad(text, text)
    if kind == "int":
        return _int(text.strip(), text)
    if kind == "float":
        return _float(text.strip(), text)
    if kind == "ints":
        return [_int(p, text) for p in _list(text)]
    if kind == "floats":
        return [_float(p, text) for p in _list(text)]
    if kind == "shape":
        return [_int(p, text) for p in _list(text)]
    if kind == "strs":
        return _list(text)
    if kind == "type":
        from .ir_types import element_type
        return element_type(text, "attribute")
    if kind == "type_name":
        from .ir_types import element_type
        return element_type(text, "attribute").get_type_name()
    return text


def guess(text: str) -> Any:
    """An attribute of an op without a description, read by its spelling."""
    s = text.strip()
    if s in ("true", "false"):
        return s == "true"
    if re.fullmatch(r"-?\d+", s):
        return int(s)
    try:
        return float(s)
    except ValueError:
        pass
    parts = _list(s)
    if "," in s and all(re.fullmatch(r"-?\d+", p) for p in parts):
        return [int(p) for p in parts]
    try:
        return [float(p) for p in parts] if "," in s else text
    except ValueError:
        return text


def _num(v: float) -> str:
    return f"{float(v):.17g}"


def fmt(kind: str | None, value: Any) -> str:
    """A value as OpenVINO writes it (``[1, 1]`` -> ``"1, 1"``, ``True`` -> ``"true"``)."""
    if kind is None:  # no description: by Python type
        if isinstance(value, Type):
            kind = "type"
        elif isinstance(value, bool):
            kind = "bool"
        elif isinstance(value, int):
            kind = "int"
        elif isinstance(value, float):
            kind = "float"
        elif isinstance(value, (list, tuple)):
            kind = "floats" if any(isinstance(v, float) for v in value) else "ints"
        else:
            kind = "str"
    if kind == "bool":
        return "true" if value else "false"
    if kind == "int":
        return str(int(value))
    if kind == "float":
        return _num(value)
    if kind == "ints":
        return ", ".join(str(int(v)) for v in value)
    if kind == "floats":
        return ", ".join(_num(v) for v in value)
    if kind == "shape":
        return ",".join(str(int(v)) for v in value)
    if kind == "strs":
        return ",".join(str(v) for v in value)
    if kind in ("type", "type_name"):
        return as_type(value).get_type_name()
    if kind == "enum":
        return str(value).lower()
    return str(value)
