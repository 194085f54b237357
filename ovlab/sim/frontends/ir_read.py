"""Read OpenVINO IR (v10 and v11 ``.xml`` + ``.bin``) into an ``ovlab.Model``.

The steps follow OpenVINO's IR deserializer: parse the XML (with ``defusedxml``: no entities,
no external references), index the layers and their ports, check every edge, order the layers
(a cycle is an error, not a hang), then build one node per layer through the graph registry,
so shape inference checks each op as it would in a script. Constants are NumPy views into the
weights buffer, which for a file is a read-only memory map: nothing is copied, and a 100 MB IR
opens in milliseconds (``benchmarks/bench_ir.py``). Any failure is a :class:`FrontendError`
naming the layer; no partial model is returned.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import Element, ParseError

import defusedxml.ElementTree as SafeET
import numpy as np
from defusedxml import DefusedXmlException

from ..graph.model import Model
from ..graph.node import Node, NodeValidationError, Output
from ..graph.ops import REGISTRY, Constant, Parameter, Result
from . import errors as E
from . import ir_schema as S
from . import ir_types as T
from .rt_info import read_model_rt, read_node_rt

__all__ = ["read_ir", "looks_like_ir", "split_names"]

Buffer = memoryview | bytes | None


@dataclass
class Port:
    id: str
    names: set[str]


@dataclass
class Layer:
    id: str
    name: str
    type: str
    version: str
    element: Element
    data: dict[str, str]
    inputs: list[str] = field(default_factory=list)  # input port ids in order
    outputs: list[Port] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.name} id:{self.id}"

    def out_index(self, port: str) -> int | None:
        return next((i for i, p in enumerate(self.outputs) if p.id == port), None)


def looks_like_ir(head: bytes) -> bool:
    """True if the bytes start like an XML document (BOM and whitespace allowed)."""
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")


def split_names(text: str | None) -> set[str]:
    """Tensor names as ports list them: comma-separated, a comma inside a name escaped ``\\,``."""
    if not text:
        return set()
    names, cur, i = [], "", 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] == ",":
            cur += ","
            i += 2
            continue
        if text[i] == ",":
            names.append(cur)
            cur = ""
        else:
            cur += text[i]
        i += 1
    names.append(cur)
    return {n.strip() for n in names if n.strip()}


# --- step 1: the document ----------------------------------------------------------------------
def _parse(xml: bytes, unreadable: E.FrontendError) -> tuple[Element, int]:
    try:
        root = SafeET.fromstring(xml)
    except DefusedXmlException as e:
        raise E.FrontendError(f"ovlab refuses XML with entity or DTD declarations ({e}): an IR "
                              "file written by OpenVINO has none", E.PARSE) from None
    except ParseError as e:
        line, col = e.position
        offset = sum(len(s) + 1 for s in xml.split(b"\n")[:line - 1]) + col
        if not looks_like_ir(xml[:64]) or not xml.strip():
            raise unreadable from None
        raise E.FrontendError(f"Error parsing XML: {str(e).split(':')[0]} at offset {offset} "
                              f"(line {line}, column {col + 1})", E.PARSE) from None
    if root.tag != "net" or root.get("version") not in ("10", "11"):
        raise unreadable
    return root, int(root.get("version", "11"))


def _layers(root: Element) -> dict[str, Layer]:
    layers: dict[str, Layer] = {}
    container = root.find("layers")
    for el in (container if container is not None else []):
        if el.tag != "layer":
            continue
        lid = el.get("id", "")
        layer = Layer(lid, el.get("name", ""), el.get("type", ""), el.get("version", ""), el,
                      dict(el.find("data").attrib) if el.find("data") is not None else {})
        if lid in layers:
            raise E.FrontendError(f"Layer id {lid} is used by two layers ("
                                  f"'{layers[lid].name}' and '{layer.name}'): layer ids must be "
                                  "unique")
        ins, outs = el.find("input"), el.find("output")
        layer.inputs = [p.get("id", "") for p in (ins if ins is not None else []) if p.tag == "port"]
        layer.outputs = [Port(p.get("id", ""), split_names(p.get("names")))
                         for p in (outs if outs is not None else []) if p.tag == "port"]
        layers[lid] = layer
    return layers


# --- step 2: the edges and the order -------------------------------------------------------------
Source = tuple[str, int]  # (layer id, output index)


def _edges(root: Element, layers: dict[str, Layer]) -> dict[str, dict[int, Source]]:
    """For each layer, input index -> (source layer id, output index)."""
    incoming: dict[str, dict[int, Source]] = {lid: {} for lid in layers}
    container = root.find("edges")
    for e in (container if container is not None else []):
        if e.tag != "edge":
            continue
        fl, fp, tl, tp = (e.get(k, "") for k in ("from-layer", "from-port", "to-layer", "to-port"))
        for lid in (fl, tl):
            if lid not in layers:
                raise E.FrontendError(f"An edge (from-layer {fl} port {fp} to-layer {tl} port "
                                      f"{tp}) names layer id {lid}, which the IR does not have")
        src, dst = layers[fl], layers[tl]
        if tp not in dst.inputs:
            raise E.FrontendError(f"Can not find input port with id {tp} in layer {dst.name}",
                                  E.PORT_IN)
        out = src.out_index(fp)
        if out is None:
            raise E.FrontendError(f"Can not find output port with id {fp} in layer {src.name}",
                                  E.PORT_OUT)
        idx = dst.inputs.index(tp)
        if idx in incoming[tl]:
            raise E.FrontendError(f"Input port {tp} of layer {dst.name} has two edges into it")
        incoming[tl][idx] = (fl, out)
    return incoming


def _key(lid: str) -> tuple[int, Any]:
    return (0, int(lid)) if lid.lstrip("-").isdigit() else (1, lid)


def _order(layers: dict[str, Layer], incoming: dict[str, dict[int, Source]]) -> list[str]:
    """Layers in an order where every input comes first (Kahn's algorithm, by id)."""
    users: dict[str, list[str]] = {lid: [] for lid in layers}
    waiting = {}
    for lid, ins in incoming.items():
        waiting[lid] = len(ins)
        for src, _ in ins.values():
            users[src].append(lid)
    ready = [(_key(lid), lid) for lid, n in waiting.items() if n == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, lid = heapq.heappop(ready)
        order.append(lid)
        for u in users[lid]:
            waiting[u] -= 1
            if waiting[u] == 0:
                heapq.heappush(ready, (_key(u), u))
    if len(order) < len(layers):
        stuck = sorted((lid for lid in layers if waiting[lid] > 0), key=_key)
        names = ", ".join(f"{layers[lid].name} (id {lid})" for lid in stuck[:6])
        raise E.FrontendError(f"Attempt to access node {stuck[0]} that not in graph.\n"
                              f"ovlab: the edges form a cycle through {names}"
                              f"{' ...' if len(stuck) > 6 else ''}", E.NOT_IN_GRAPH)
    return order


# --- step 3: the nodes ---------------------------------------------------------------------------
def _parameter(layer: Layer) -> Parameter:
    t = T.element_type(layer.data.get("element_type", ""), f"layer {layer.where}")
    dims = []
    text = layer.data.get("shape", "")
    for d in (p.strip() for p in text.split(",") if p.strip()):
        if d.isdigit():
            dims.append(int(d))
        elif d in ("?", "-1") or ".." in d:
            raise E.FrontendError(f"ovlab models are static: input '{layer.name}' has the dynamic "
                                  f"shape [{text}]; save the model with a fixed shape (in "
                                  "OpenVINO: model.reshape([...]) before save_model)")
        else:
            raise E.FrontendError(f'Cannot parse dimension: "{d}"', E.DIMENSION)
    return Parameter(dims, t, layer.name)


def _unsigned(layer: Layer, attr: str) -> int:
    text = layer.data.get(attr, "")
    if not text.strip().isdigit():
        raise E.FrontendError(f'Converting input model\nnode <data> has attribute "{attr}" = '
                              f'"{text}" which is not an unsigned 64 bit integer', E.UNSIGNED)
    return int(text)


def _constant(layer: Layer, weights: Buffer) -> Constant:
    name = layer.data.get("element_type", "")
    t = T.element_type(name, f"layer {layer.where}")
    shape_text = layer.data.get("shape", "")
    try:
        shape = tuple(int(p) for p in shape_text.split(",") if p.strip())
    except ValueError:
        raise E.FrontendError(f'Cannot parse dimension in "{shape_text}" (layer '
                              f"{layer.where})", E.DIMENSION) from None
    offset, size = _unsigned(layer, "offset"), _unsigned(layer, "size")
    if weights is None:
        raise E.FrontendError("Empty weights data in bin file or bin file cannot be found!",
                              E.NO_WEIGHTS)
    if offset + size > len(weights) or (size == 0 and offset > len(weights)):
        raise E.FrontendError("Incorrect weights in bin file!", E.WEIGHTS_RANGE)
    expected = T.byte_size(name, int(np.prod(shape, dtype=np.int64)))
    if size != expected:
        raise E.FrontendError(f"Attribute and shape size are inconsistent for Const op!{size}, "
                              f"{expected}, {expected}", E.CONST_SIZE)
    value = T.decode(weights, offset, name, shape)
    return Constant(value, t, layer.name, shared=True)


def _attributes(layer: Layer, op: Any, legacy: S.Legacy | None, rank: int) -> dict[str, Any]:
    desc = S.attrs_of(op)
    attrs: dict[str, Any] = {}
    for a in desc:
        if a.ir in layer.data:
            attrs[a.name] = S.parse(a.kind, layer.data[a.ir])
        elif a.default is S.REQUIRED:
            if legacy is None or a.name not in legacy.adapt({}, rank):
                raise E.FrontendError(f"{layer.type} layer {layer.name} with id: {layer.id} has no "
                                      f"attribute '{a.ir}', which {op.type_name} needs",
                                      E.INCONSISTENT)
        else:
            attrs[a.name] = a.default
    if legacy is not None:
        attrs = legacy.adapt(attrs, rank)
        for a in desc:  # the adapter's defaults in the kind this op keeps them in
            if a.kind == "type" and isinstance(attrs.get(a.name), str):
                attrs[a.name] = S.parse("type", attrs[a.name])
    return attrs


def _node(layer: Layer, inputs: list[Output], weights: Buffer) -> Node:
    kind = layer.type.lower()
    if kind == "parameter":
        return _parameter(layer)
    if kind == "const":
        return _constant(layer, weights)
    op, legacy = S.resolve(layer.type, layer.version, layer.where)
    if op.type_name == "Result":
        return Result(REGISTRY["Result"], inputs, name=layer.name)
    rank = len(inputs[0].get_shape()) if inputs else 0
    attrs = _attributes(layer, op, legacy, rank)
    node = Node(op, inputs, attrs, layer.name)
    have = legacy.outputs if legacy is not None else node.get_output_size()
    if len(layer.outputs) > have:
        raise E.FrontendError(f"node index is out of range\novlab: layer {layer.where} lists "
                              f"{len(layer.outputs)} output ports; {layer.type} "
                              f"({layer.version}) has {have}", "src/core/src/node.cpp:602")
    return node


def _build(layers: dict[str, Layer], incoming: dict[str, dict[int, Source]], order: list[str],
           weights: Buffer) -> dict[str, Node]:
    nodes: dict[str, Node] = {}
    for lid in order:
        layer = layers[lid]
        ins = incoming[lid]
        if len(ins) != len(layer.inputs):
            raise E.FrontendError(f"{layer.type} layer {layer.name} with id: {lid} is "
                                  "inconsistent!", E.INCONSISTENT)
        inputs = [Output(nodes[src], out) for src, out in (ins[i] for i in range(len(ins)))]
        try:
            node = _node(layer, inputs, weights)
        except E.FrontendError:
            raise
        except NodeValidationError as e:
            raise E.FrontendError(str(e).rstrip()) from None
        except Exception as e:  # a bad value reached a kernel: still a clean error
            raise E.FrontendError(f"Cannot create {layer.type} layer {layer.where}: "
                                  f"{type(e).__name__}: {e}") from None
        if node.get_type_name() != "Result":
            for port, names in zip(layer.outputs, node._out_names, strict=False):
                names |= port.names
        node._rt_info.update(read_node_rt(layer.element))
        nodes[lid] = node
    return nodes


# --- step 4: the model ---------------------------------------------------------------------------
def _result_names(layer: Layer, node: Node, ir_version: int) -> set[str]:
    if "output_names" in layer.element.attrib:  # IR v11
        return split_names(layer.element.get("output_names"))
    src = node._inputs[0]
    names = set(src._node._out_names[src._index])
    if ir_version == 10:  # the legacy name OpenVINO gives a v10 output: its producer's name
        producer = src._node
        legacy = producer.get_friendly_name()
        names.add(legacy if producer.get_output_size() == 1 else f"{legacy}.{src._index}")
    return names


def read_ir(xml: bytes, weights: Buffer | Callable[[], Buffer],
            unreadable: E.FrontendError) -> Model:
    """Build the model an IR describes. ``weights`` is the .bin content (a memory map, bytes,
    or None when there is no .bin), or a function that opens it once the XML is known to be
    IR (as OpenVINO, which reports a non-IR file before a missing weights file);
    ``unreadable`` is the error for a file that is not IR."""
    root, version = _parse(xml, unreadable)
    if callable(weights):
        weights = weights()
    layers = _layers(root)
    incoming = _edges(root, layers)
    order = _order(layers, incoming)
    nodes = _build(layers, incoming, order, weights)
    in_file = list(layers)  # parameters and results in the order the file lists them
    params = [nodes[lid] for lid in in_file if isinstance(nodes[lid], Parameter)]
    results = [nodes[lid] for lid in in_file if isinstance(nodes[lid], Result)]
    if not results:
        raise E.FrontendError("ovlab: the IR has no Result layer, so the model has no output")
    for lid in in_file:
        node = nodes[lid]
        if isinstance(node, Result):
            node._out_names[0] = _result_names(layers[lid], node, version)
    model = Model.__new__(Model)
    try:
        model._init(results, _as_params(params), root.get("name") or None, strict=False)
    except NodeValidationError as e:
        raise E.FrontendError(str(e)) from None
    model._rt_info = {**read_model_rt(root.find("rt_info")), "version": version}
    return model


def _as_params(nodes: Sequence[Node]) -> list[Parameter]:
    return [n for n in nodes if isinstance(n, Parameter)]
