"""Write an ``ovlab.Model`` as OpenVINO IR v11 (or v10): the ``.xml`` topology and ``.bin``
weights, laid out as OpenVINO 2026's serializer lays them out (measured on its output).

* Layers in topological order (the same order as OpenVINO's, so ids match), numbered from 0,
  with the Results last, in output order.
* Input ports are numbered first, then output ports (a Convolution has ports 0, 1 and 2).
* IR spellings: ``ReLU``, ``SoftMax``, ``Const``; attributes in OpenVINO's order and format
  (``strides="1, 1"``, ``auto_pad="explicit"``, floats with 17 significant digits).
* Weights are written once per distinct content (two equal Constants share one offset).
* The tensor names of an output feed its Result's ``output_names`` (v11) and its port ``names``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, BinaryIO
from xml.etree.ElementTree import Element, ElementTree, SubElement, indent

import numpy as np

from ..graph.model import Model
from ..graph.node import Node
from ..graph.ops import Constant, Parameter, Result
from . import ir_schema as S
from . import ir_types as T
from .rt_info import write_model_rt, write_node_rt

__all__ = ["save", "serialize", "write_ir"]

VERSIONS = {"UNSPECIFIED": 11, "IR_V10": 10, "IR_V11": 11}


def _check_model(model: Any) -> Model:
    if not isinstance(model, Model):
        raise TypeError("Incompatible `model` argument. Please provide a valid openvino.Model "
                        "instance.")
    return model


def _xml_path(path: Any) -> Path:
    p = Path(os.fsdecode(path))
    if p.suffix != ".xml":
        raise RuntimeError("Check 'path.extension() == \".xml\"' failed at "
                           "src/core/src/pass/serialize.cpp:36:\nPath for xml file doesn't "
                           f"contains file name with 'xml' extension: \"{p}\"\n")
    return p


def save(model: Any, output_model: Any, compress_to_fp16: bool = True) -> None:
    """``openvino.save_model`` (see ``ovlab.sim.frontends.save_model``)."""
    if not isinstance(compress_to_fp16, bool):
        raise TypeError("save_model(): incompatible function arguments. The following argument "
                        "types are supported:\n    1. (model: object, output_model: object, "
                        "compress_to_fp16: bool = True) -> None")
    model = _check_model(model)
    xml = _xml_path(output_model)
    if compress_to_fp16:
        from .compress import compress_to_fp16 as compress
        model = compress(model)
    from ..._version import get_version

    rt = {**model._rt_info, "OpenVINO Runtime": get_version()}
    write_ir(model, xml, xml.with_suffix(".bin"), 11, rt)


def serialize(model: Any, xml_path: Any, bin_path: Any = "", version: str = "UNSPECIFIED") -> None:
    """``openvino.serialize``: the model as it is."""
    model = _check_model(model)
    if version not in VERSIONS:
        raise RuntimeError("Exception from src/bindings/python/src/pyopenvino/core/common.cpp:680:"
                           f"\nInvoked with wrong version argument: '{version}'! The supported "
                           "versions are: 'UNSPECIFIED'(default), 'IR_V10', 'IR_V11'.\n")
    xml = _xml_path(xml_path)
    bin_file = Path(os.fsdecode(bin_path)) if bin_path not in ("", b"", None) else \
        xml.with_suffix(".bin")
    write_ir(model, xml, bin_file, VERSIONS[version], model._rt_info)


class _Weights:
    """The .bin file being written: each distinct blob once (OpenVINO shares equal ones)."""

    def __init__(self, f: BinaryIO) -> None:
        self.f, self.offset = f, 0
        self.seen: dict[tuple[bytes, int], list[tuple[int, np.ndarray]]] = {}

    def add(self, raw: np.ndarray) -> tuple[int, int]:
        data = memoryview(raw).cast("B") if raw.size else memoryview(b"")
        size = len(data)
        key = (hashlib.blake2b(data, digest_size=16).digest(), size)
        for offset, other in self.seen.get(key, []):
            if other.tobytes() == raw.tobytes():
                return offset, size
        offset = self.offset
        self.f.write(data)
        self.offset += size
        self.seen.setdefault(key, []).append((offset, raw))
        return offset, size


def _names_text(names: set[str]) -> str:
    return ",".join(n.replace(",", "\\,") for n in sorted(names))


def _port(parent: Element, pid: int, shape: Any, t: Any, names: set[str] | None = None) -> None:
    attrs = {"id": str(pid), "precision": T.precision_name(t)}
    if names:
        attrs["names"] = _names_text(names)
    port = SubElement(parent, "port", attrs)
    for d in shape:
        SubElement(port, "dim").text = str(int(d))


def _data(node: Node, weights: _Weights) -> dict[str, str]:
    if isinstance(node, Parameter):
        return {"shape": ",".join(str(d) for d in node._attrs["shape"]),
                "element_type": node.get_element_type().get_type_name()}
    if isinstance(node, Constant):
        t = node.get_element_type()
        offset, size = weights.add(T.encode(node.get_data(), t))
        return {"element_type": t.get_type_name(),
                "shape": ", ".join(str(d) for d in node.get_data().shape),
                "offset": str(offset), "size": str(size)}
    desc = S.attrs_of(node._op)
    out: dict[str, str] = {}
    for a in desc:
        v = node._attrs.get(a.name)
        if v is None:
            if a.default is S.REQUIRED:
                continue
            v = a.default
        out[a.ir] = S.fmt(a.kind, v)
    return out


def _result_names(model: Model) -> dict[tuple[int, int], set[str]]:
    """Names of the Results each output feeds (they are written on its port too)."""
    out: dict[tuple[int, int], set[str]] = {}
    for r in model.get_results():
        src = r._inputs[0]
        out.setdefault((id(src._node), src._index), set()).update(r._out_names[0])
    return out


def _layer(layers: Element, lid: int, node: Node, version: int, weights: _Weights,
           fed: dict[tuple[int, int], set[str]]) -> dict[int, int]:
    """Write one layer; returns output index -> port id."""
    op = node._op
    attrs = {"id": str(lid), "name": node.get_friendly_name(), "type": S.ir_type_name(op),
             "version": op.version}
    if isinstance(node, Result) and version == 11:
        attrs["output_names"] = _names_text(node._out_names[0])
    layer = SubElement(layers, "layer", attrs)
    data = _data(node, weights)
    if data:
        SubElement(layer, "data", data)
    write_node_rt(layer, node._rt_info)
    if node._inputs:
        ins = SubElement(layer, "input")
        for i, src in enumerate(node._inputs):
            _port(ins, i, src._node._out_shapes[src._index], src._node._out_types[src._index])
    ports = {}
    if not isinstance(node, Result):
        outs = SubElement(layer, "output")
        for j in range(node.get_output_size()):
            pid = len(node._inputs) + j
            names = node._out_names[j] | fed.get((id(node), j), set())
            _port(outs, pid, node._out_shapes[j], node._out_types[j], names)
            ports[j] = pid
    return ports


def write_ir(model: Model, xml_path: Path, bin_path: Path, version: int,
             rt_info: dict[str, Any]) -> None:
    """Write ``model`` to ``xml_path`` and ``bin_path`` (their folder is created if needed)."""
    xml_path.parent.mkdir(parents=True, exist_ok=True)
    bin_path.parent.mkdir(parents=True, exist_ok=True)
    root = Element("net", {"name": model.get_friendly_name(), "version": str(version)})
    layers = SubElement(root, "layers")
    edges: list[dict[str, str]] = []
    ids: dict[int, tuple[int, dict[int, int]]] = {}
    fed = _result_names(model)
    with open(bin_path, "wb") as f:
        weights = _Weights(f)
        # OpenVINO's serializer writes the Parameters first, in the model's input order, the
        # Results last, in its output order (measured on a two-output model, yolo-v3-tiny, and
        # on three inputs that topological order lists last first), the other layers in
        # topological order between them
        params = model.get_parameters()
        order = [*params, *(n for n in model.get_ordered_ops()
                            if not isinstance(n, Result) and n not in params)]
        order += model.get_results()
        for lid, node in enumerate(order):
            ports = _layer(layers, lid, node, version, weights, fed)
            ids[id(node)] = (lid, ports)
            for i, src in enumerate(node._inputs):
                from_id, from_ports = ids[id(src._node)]
                edges.append({"from-layer": str(from_id), "from-port": str(from_ports[src._index]),
                              "to-layer": str(lid), "to-port": str(i)})
    edge_el = SubElement(root, "edges")
    # OpenVINO lists the edges by source layer, then by the layer they lead to (measured)
    for e in sorted(edges, key=lambda e: (int(e["from-layer"]), int(e["to-layer"]),
                                          int(e["to-port"]))):
        SubElement(edge_el, "edge", e)
    write_model_rt(root, rt_info)
    tree = ElementTree(root)
    indent(tree, space="\t")
    with open(xml_path, "wb") as f:
        f.write(b'<?xml version="1.0"?>\n')
        tree.write(f, encoding="utf-8", xml_declaration=False)
        f.write(b"\n")
