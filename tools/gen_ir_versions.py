"""Measure, with the real ``openvino`` wheel, which version of each op every opsetN holds.

IR layers name an opset (``<layer type="SoftMax" version="opset3">``), and OpenVINO's reader
creates the op that opset holds (opset3's Softmax is Softmax-1, introduced in opset1). ovlab's
reader needs the same mapping for the ops it implements; this script asks OpenVINO's
``NodeFactory`` for every op type in ovlab's registry and every opset, and writes the first
opset of each version to ``ovlab/sim/frontends/opset_versions.json``. Run it after adding ops:

    .venv/bin/python tools/gen_ir_versions.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "ovlab" / "sim" / "frontends" / "opset_versions.json"
# Types NodeFactory cannot create empty; they are the same op (opset1) in every opset.
ALWAYS_V1 = ("Parameter", "Constant", "Result")


def measure(types: list[str]) -> dict:
    import openvino
    from openvino.utils.node_factory import NodeFactory

    max_opset = _max_opset()
    versions: dict[str, dict[str, str]] = {}
    for t in types:
        firsts: dict[str, str] = {}
        last = None
        for n in range(1, max_opset + 1):
            if t in ALWAYS_V1:
                held = "opset1"
            else:
                try:
                    held = NodeFactory(f"opset{n}").create(t).get_type_info().version_id
                except Exception:  # absent from this opset
                    held = None
            if held != last and held is not None:
                firsts[str(n)] = held
            last = held
        if firsts:
            versions[t] = firsts
    return {"openvino": openvino.get_version(), "max_opset": max_opset, "versions": versions}


def _max_opset() -> int:
    import importlib

    n = 1
    while True:
        try:
            importlib.import_module(f"openvino.opset{n + 1}")
        except ImportError:
            return n
        n += 1


def main() -> int:
    import ovlab.sim.graph.opset_versions  # noqa: F401 - registers the newer opsets' ops too
    from ovlab.sim.graph.ops import REGISTRY

    data = measure(sorted(REGISTRY))
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"{OUT}: {len(data['versions'])} op types, opset1..opset{data['max_opset']} "
          f"({data['openvino']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
