"""Write ``ovlab/sim/runner/openvino_names.json``: the public names of the real ``openvino`` wheel.

The runner serves ``openvino`` and ``openvino.opsetN`` from ovlab. Which names exist in each
real module is data, read once from the installed wheel (``openvino==2026.4.1`` in the venv)
and committed, so the runner needs no real ``openvino`` and ops that ovlab gains later appear
in every opset that has them without an edit. Re-run after an OpenVINO upgrade:

    .venv/bin/python tools/gen_openvino_names.py
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
import types
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "ovlab" / "sim" / "runner" / "openvino_names.json"
# Further real modules the runner serves: what ovlab lacks in them becomes a stand-in.
SERVED = ["openvino.op", "openvino.op.util", "openvino.exceptions", "openvino.utils",
          "openvino.utils.types", "openvino.utils.data_helpers", "openvino.utils.broadcasting",
          "openvino.utils.decorators", "openvino.utils.input_validation",
          "openvino.utils.reduction", "openvino.utils.node_factory",
          "openvino.utils.postponed_constant", "openvino.passes", "openvino.frontend"]


def public(module: types.ModuleType) -> list[str]:
    """Public attributes that are not submodules."""
    return sorted(n for n in dir(module) if not n.startswith("_")
                  and not isinstance(getattr(module, n), types.ModuleType))


def own(module: types.ModuleType) -> list[str]:
    """Public names defined by the OpenVINO package (not numpy, typing... it imported)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from gen_openvino_surface import is_own

    return sorted(n for n in dir(module) if not n.startswith("_")
                  and is_own(getattr(module, n), module.__name__))


def main() -> None:
    import openvino as ov

    opsets = {}
    for info in pkgutil.iter_modules(ov.__path__):
        if info.name.startswith("opset"):
            opsets[info.name] = public(importlib.import_module(f"openvino.{info.name}"))
    data = {
        "openvino_version": ov.get_version().split("-")[0],
        "top": public(ov),
        "submodules": sorted(i.name for i in pkgutil.iter_modules(ov.__path__)
                             if not i.name.startswith("_")),
        "opsets": dict(sorted(opsets.items(), key=lambda kv: int(kv[0][5:]))),
        "preprocess": public(importlib.import_module("openvino.preprocess")),
        "modules": {name: own(importlib.import_module(name)) for name in SERVED},
    }
    # one list per line: diffs after an upgrade show which module changed
    lines = [f" {json.dumps(k)}: {json.dumps(v)}" for k, v in data.items()
             if k not in ("opsets", "modules")]
    lines.append(' "modules": {\n' + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}"
                                                for k, v in data["modules"].items()) + "\n }")
    lines.append(' "opsets": {\n' + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}"
                                               for k, v in data["opsets"].items()) + "\n }")
    OUT.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"wrote {OUT} ({len(data['top'])} top-level names, {len(opsets)} opsets)")


if __name__ == "__main__":
    main()
