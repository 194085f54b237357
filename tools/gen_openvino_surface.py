"""Write ``tests/conformance/data/openvino_surface.json``: the public API of the real wheel.

Walks the installed ``openvino`` (2026.4.1 in the venv) module by module -- ``openvino``,
``openvino.op``, every ``openvino.opsetN``, ``openvino.properties.*``, ``openvino.preprocess``,
``openvino.utils`` and its submodules, ``openvino.exceptions`` -- and records every public name
with its kind and, for callables, every signature: from ``inspect`` for Python functions and
from the docstring for pybind functions (``name(a: T, b: T = x) -> R`` on its first line, or
one numbered line per overload after "Overloaded function."; the examples further down are
not signatures). Classes record their public members (and ``__init__``) the same way.

The snapshot is committed so that ovlab's surface test
(``tests/conformance/test_conformance_openvino_surface.py``) runs without the wheel; with the
wheel installed, that test also checks the snapshot is current. Re-run after an upgrade:

    .venv/bin/python tools/gen_openvino_surface.py          # writes the file
    .venv/bin/python tools/gen_openvino_surface.py --print  # prints it (what the test compares)
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
import sys
import types
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "conformance" / "data" / \
    "openvino_surface.json"

# The modules device-level code imports from. Not walked: openvino.tools (benchmark_app and
# ovc, whole programs that the runner loads from the installed wheel's own source, so their
# names are the wheel's by construction; tests/runner/test_openvino_surface.py checks that they
# import under the runner), openvino.helpers / .experimental / .torch (packing and framework
# hooks, below the device level), and private modules. Walked for some names only (PARTIAL):
# openvino.frontend (reading a model through the front-end manager; its framework converters,
# places and extensions are model conversion) and openvino.passes (the pass manager with
# constant folding and serialization; its pattern matchers are graph rewriting).
MODULES = ["openvino", "openvino.op", "openvino.op.util", "openvino.exceptions",
           "openvino.preprocess",
           "openvino.properties", "openvino.properties.hint", "openvino.properties.device",
           "openvino.properties.streams", "openvino.properties.log",
           "openvino.properties.intel_cpu", "openvino.properties.intel_gpu",
           "openvino.properties.intel_gpu.hint", "openvino.properties.intel_auto",
           "openvino.properties.intel_npu",
           "openvino.utils", "openvino.utils.types", "openvino.utils.data_helpers",
           "openvino.utils.broadcasting", "openvino.utils.decorators",
           "openvino.utils.input_validation", "openvino.utils.reduction",
           "openvino.utils.node_factory", "openvino.utils.postponed_constant"]
MODULES += [f"openvino.opset{i}" for i in range(1, 18)]
PARTIAL = {"openvino.frontend": ("FrontEndManager", "FrontEnd", "get_version"),
           "openvino.passes": ("Manager", "ConstantFolding", "Serialize", "Version")}

# Dunder members that code calls (len(), <, [], ==, iteration...): recorded with the rest.
DUNDERS = ("__init__", "__len__", "__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__",
           "__hash__", "__getitem__", "__setitem__", "__contains__", "__iter__", "__call__",
           "__int__", "__float__", "__bool__", "__array__", "__enter__", "__exit__")


def split_top(text: str, sep: str = ",") -> list[str]:
    """``text`` split at ``sep`` outside brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>" and not (ch == ">" and text[i - 1] == "-"):
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _pybind_param(text: str) -> list:
    """``[name, default or None]`` of one pybind parameter ``name: type = default``."""
    if text in ("*", "/"):
        return [text, None]
    head, _, default = text.partition(" = ")
    if not default and ":" not in head and "=" in head:  # a hand-written `name="x"`
        head, _, default = head.partition("=")
    name = head.split(":", 1)[0].strip()
    return [name, default.strip() if default else None]


_SIG_LINE = re.compile(r"^(?:\d+\. )?([A-Za-z_][A-Za-z0-9_]*)\((.*)\)(?: -> .*)?$")


def pybind_signatures(obj) -> list[list] | None:
    """Overloads of a pybind callable, each a list of ``[name, default]``, from its docstring."""
    doc = getattr(obj, "__doc__", None) or ""
    name = getattr(obj, "__name__", None)
    lines = [line.strip() for line in doc.splitlines() if line.strip()]
    # pybind writes the signature on the docstring's first line, or one numbered line per
    # overload after "Overloaded function."; later lines that look like calls are the
    # docstring's examples (``save_model(model, './model.xml')``), not signatures.
    overloaded = "Overloaded function." in doc
    sigs = []
    for line in lines if overloaded else lines[:1]:
        m = _SIG_LINE.match(line)
        if overloaded and not re.match(r"\d+\. ", line):
            continue
        if m and m.group(1) == name:
            params = [_pybind_param(p) for p in split_top(m.group(2))]
            if params and params[0][0] == "self":
                params = params[1:]
            sigs.append(params)
    return sigs or None


def _default_text(value) -> str | None:
    if value is inspect.Parameter.empty:
        return None
    return repr(value)


def python_signature(obj, drop_self: bool) -> list[list] | None:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    params = []
    for p in sig.parameters.values():
        name = p.name
        if p.kind is p.VAR_POSITIONAL:
            name = "*" + name
        elif p.kind is p.VAR_KEYWORD:
            name = "**" + name
        elif p.kind is p.KEYWORD_ONLY and not any(q[0].startswith("*") for q in params):
            params.append(["*", None])
        params.append([name, _default_text(p.default)])
    if drop_self and params and params[0][0] in ("self", "cls"):
        params = params[1:]
    return [params]


def is_pybind(obj) -> bool:
    return type(obj).__name__ in ("builtin_function_or_method", "instancemethod") or \
        (type(obj).__name__ == "method" and is_pybind(obj.__func__))


def signatures(obj, drop_self: bool) -> list[list] | None:
    if is_pybind(obj):
        return pybind_signatures(obj)
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if inspect.isfunction(obj) or inspect.ismethod(obj):
        return python_signature(obj, drop_self)
    return None


def describe_member(cls: type, name: str):
    raw = inspect.getattr_static(cls, name)
    if isinstance(raw, property) or type(raw).__name__ in ("getset_descriptor", "property"):
        return {"kind": "property", "settable": getattr(raw, "fset", None) is not None}
    if isinstance(raw, staticmethod) or (is_pybind(raw) and type(raw).__name__ ==
                                         "builtin_function_or_method"):
        return {"kind": "staticmethod", "signatures": signatures(getattr(cls, name), False)}
    if isinstance(raw, classmethod):
        return {"kind": "classmethod", "signatures": signatures(getattr(cls, name), True)}
    if callable(raw):
        return {"kind": "method", "signatures": signatures(raw, True)}
    if isinstance(raw, cls):  # enum members, Type.f32...
        return {"kind": "value"}
    return {"kind": "attribute"}


def describe_class(cls: type) -> dict:
    members = {}
    for name in sorted(dir(cls)):
        if (name.startswith("_") and name not in DUNDERS) or name in ("mro",):
            continue
        try:
            inspect.getattr_static(cls, name)
        except AttributeError:
            continue
        owner = next((k for k in cls.__mro__ if name in vars(k)), None)
        if owner in (object, type) or (owner is not None and owner.__module__ in ("builtins",)):
            continue  # object's own __eq__, __hash__...: every class has them
        if owner is not None and not owner.__module__.startswith("openvino") and \
                name.startswith("_"):
            continue
        members[name] = describe_member(cls, name)
    return {"kind": "class", "class": f"{cls.__module__}.{cls.__qualname__}", "members": members}


def is_own(value, module_name: str) -> bool:
    """A public name of the module, not a helper it imported (numpy, typing, logging...)."""
    if isinstance(value, types.ModuleType):
        return False
    mod = getattr(value, "__module__", None)
    if inspect.isclass(value) or inspect.isfunction(value) or is_pybind(value):
        return isinstance(mod, str) and mod.startswith("openvino")
    if type(value).__module__ == "typing" or "typing" in type(value).__module__:
        return False
    return True


def describe(value) -> dict:
    if inspect.isclass(value):
        return describe_class(value)
    if callable(value) and (inspect.isfunction(value) or is_pybind(value)):
        return {"kind": "function", "signatures": signatures(value, False)}
    return {"kind": "value", "type": type(value).__name__}


def surface() -> dict:
    import openvino

    out = {"openvino_version": openvino.get_version().split("-")[0], "modules": {}}
    for name in [*MODULES, *PARTIAL]:
        module = importlib.import_module(name)
        names = {}
        for attr in sorted(dir(module)):
            if attr.startswith("_") or (name in PARTIAL and attr not in PARTIAL[name]):
                continue
            value = getattr(module, attr)
            if is_own(value, name):
                names[attr] = describe(value)
        if name.startswith("openvino.properties"):
            # property keys are served lazily by a module __getattr__, so dir() misses them
            source = importlib.import_module(name.replace("openvino.", "openvino._pyopenvino.", 1))
            for attr in sorted(dir(source)):
                if isinstance(getattr(source, attr), types.BuiltinFunctionType):
                    try:
                        key = str(getattr(module, attr))
                    except TypeError:  # a write-only key (cache_encryption_callbacks)
                        key = None
                    names[attr] = {"kind": "property-key", "value": key}
        out["modules"][name] = names
    return out


def dump(data: dict) -> str:
    """One module per block and one name per line, so an upgrade's diff reads by name."""
    lines = ["{", f' "openvino_version": {json.dumps(data["openvino_version"])},',
             ' "modules": {']
    mods = list(data["modules"].items())
    for i, (mod, names) in enumerate(mods):
        lines.append(f"  {json.dumps(mod)}: {{")
        items = list(names.items())
        for j, (n, d) in enumerate(items):
            comma = "," if j < len(items) - 1 else ""
            lines.append(f"   {json.dumps(n)}: {json.dumps(d, sort_keys=True)}{comma}")
        lines.append("  }" + ("," if i < len(mods) - 1 else ""))
    lines += [" }", "}"]
    return "\n".join(lines) + "\n"


def main() -> None:
    text = dump(surface())
    if "--print" in sys.argv:
        sys.stdout.write(text)
        return
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
