"""Write the public names of the real ``openvino_genai``, read from the installed wheel.

    python tools/gen_genai_names.py   (needs the openvino-genai wheel installed)

Two files: ``ovlab/sim/runner/openvino_genai_names.json`` (the top-level names the runner
serves) and ``ovlab/sim/genai/data/genai_api.json`` (every class, nested classes included, with
its public members, and the enums' values). ovlab's class serves a name where it has one; the
others are stand-ins built from this listing (``ovlab/sim/genai/unsimulated.py``) that have
every member and raise a clear error naming the feature when used.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import openvino_genai

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "ovlab" / "sim" / "runner" / "openvino_genai_names.json"
API = ROOT / "ovlab" / "sim" / "genai" / "data" / "genai_api.json"


def public(cls) -> list[str]:
    names = set()
    for klass in cls.__mro__:
        if klass.__module__ == "builtins" or klass.__name__ == "pybind11_object":
            continue
        names |= {n for n in vars(klass) if not n.startswith("_")}
    return sorted(names)


def describe(cls, qualname: str, out: dict) -> None:
    entry: dict = {"members": public(cls)}
    if hasattr(cls, "__members__"):
        entry["enum"] = {k: int(v) for k, v in cls.__members__.items()}
        entry["members"] = [m for m in entry["members"] if m not in entry["enum"]
                            and m not in ("name", "value")]
    entry["dunders"] = sorted(n for n in ("__add__", "__or__", "__iter__", "__len__",
                                          "__getitem__", "__call__", "__enter__")
                              if n in vars(cls))
    out[qualname] = entry
    for m in entry["members"]:
        sub = getattr(cls, m)
        if inspect.isclass(sub):
            describe(sub, f"{qualname}.{m}", out)


def main() -> None:
    names = sorted(n for n in dir(openvino_genai) if not n.startswith("_")
                   and n not in ("os", "openvino", "py_openvino_genai"))
    OUT.write_text(json.dumps({"version": openvino_genai.__version__, "top": names}, indent=0) + "\n")
    api: dict = {}
    for n in names:
        obj = getattr(openvino_genai, n)
        if inspect.isclass(obj):
            describe(obj, n, api)
    API.write_text(json.dumps({"version": openvino_genai.__version__, "classes": api},
                              indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(names)} names to {OUT} and {len(api)} classes to {API}")


if __name__ == "__main__":
    main()
