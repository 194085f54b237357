"""Runtime info as IR files carry it: registered attributes on layers, a tree on the model.

OpenVINO writes only *registered* runtime attributes of a node (``decompression``,
``fused_names``, ``old_api_map_element_type``...) as ``<attribute name=... version=...>``;
a plain entry such as HETERO's ``affinity`` is not written (measured). ovlab keeps a read
attribute as an :class:`RtAttribute` under ``"<name>_<version>"``, the key OpenVINO's Python API
shows (``decompression_0``), and writes back exactly those. The model's own runtime info is a
tree of strings (``<rt_info><a><b value="x"/></a></rt_info>``, or ``<info name=... value=...>``
where the key is not an XML name).
"""

from __future__ import annotations

import re
from typing import Any
from xml.etree.ElementTree import Element, SubElement

__all__ = ["RtAttribute", "decompression", "read_node_rt", "write_node_rt", "read_model_rt",
           "write_model_rt"]


class RtAttribute:
    """A registered runtime attribute of a node (``decompression`` marks the Convert that
    decompresses FP16 weights)."""

    __slots__ = ("name", "version", "values")

    def __init__(self, name: str, version: str = "0", values: dict[str, str] | None = None):
        self.name, self.version, self.values = name, version, dict(values or {})

    @property
    def key(self) -> str:
        return f"{self.name}_{self.version}"

    def __str__(self) -> str:
        return self.values.get("value", "")

    def __repr__(self) -> str:
        return f"<RtAttribute {self.key}{' ' + repr(self.values) if self.values else ''}>"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, RtAttribute) and other.key == self.key
                and other.values == self.values)

    def __hash__(self) -> int:
        return hash(self.key)


def decompression() -> RtAttribute:
    return RtAttribute("decompression", "0")


def read_node_rt(layer: Element) -> dict[str, RtAttribute]:
    out = {}
    rt = layer.find("rt_info")
    if rt is not None:
        for a in rt.findall("attribute"):
            attrs = dict(a.attrib)
            name, version = attrs.pop("name", ""), attrs.pop("version", "0")
            if name:
                attr = RtAttribute(name, version, attrs)
                out[attr.key] = attr
    return out


def write_node_rt(layer: Element, rt_info: dict[str, Any]) -> None:
    attrs = [v for v in rt_info.values() if isinstance(v, RtAttribute)]
    if attrs:
        rt = SubElement(layer, "rt_info")
        for a in sorted(attrs, key=lambda a: a.key):
            SubElement(rt, "attribute", {"name": a.name, "version": a.version, **a.values})


def read_model_rt(rt: Element | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if rt is None:
        return out
    for child in rt:
        if child.tag == "info":
            out[child.get("name", "")] = child.get("value", "")
        elif len(child):
            out[child.tag] = read_model_rt(child)
        else:
            out[child.tag] = child.get("value", "")
    return out


_XML_NAME = re.compile(r"[A-Za-z_][\w.-]*")
SKIPPED = ("version",)  # added by the reader (the IR version); OpenVINO does not write it back


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return " ".join(_text(v) for v in value)
    return str(value)


def write_model_rt(parent: Element, rt_info: dict[str, Any], top: bool = True) -> None:
    rt = SubElement(parent, "rt_info") if top else parent
    for key in sorted(rt_info):
        if top and key in SKIPPED:
            continue
        value = rt_info[key]
        if isinstance(value, dict):
            if _XML_NAME.fullmatch(key):
                write_model_rt(SubElement(rt, key), value, top=False)
            continue  # OpenVINO has no spelling for a nested map under a non-XML key
        if _XML_NAME.fullmatch(key):
            SubElement(rt, key, {"value": _text(value)})
        else:
            SubElement(rt, "info", {"name": key, "value": _text(value)})
