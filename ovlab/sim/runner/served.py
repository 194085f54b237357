"""The modules the runner serves as ``openvino`` and its submodules.

Each served module is a thin forwarder onto an ovlab module, resolved at attribute access, so a
name that ovlab gains later (``save_model``, an op in ``ovlab.opset``) shows up under
``openvino`` without an edit here. Which names the real modules have is data read from the
wheel (``openvino_names.json``, made by ``tools/gen_openvino_names.py``): a real name that
ovlab lacks is served as a stand-in that raises a clear error naming the feature when it is
*used*, never at import, so ``from openvino import RemoteTensor`` still imports.
"""

from __future__ import annotations

import functools
import importlib
import json
import types
from pathlib import Path
from typing import Any

from .. import runtime as _runtime
from . import session as _session
from . import standins

NAMES: dict[str, Any] = json.loads((Path(__file__).with_name("openvino_names.json")).read_text())

# Real submodules the runner serves, one to one: ``openvino.X`` is ``ovlab.X``.
_FORWARDED = {f"openvino.{name}": f"ovlab.{name}" for name in (
    "properties", "preprocess", "op", "utils", "exceptions", "passes", "frontend", "helpers",
    "experimental", "_offline_transformations")}
# Served modules that are packages (their submodules import by dotted name).
_PACKAGES = ("openvino", "openvino.op", "openvino.utils", "openvino.helpers",
             "openvino._pyopenvino")


def _require_session() -> _session.Session:
    session = _session.current()
    if session is None:
        raise RuntimeError("ovlab: this 'openvino' module was served by ovlab's runner, which "
                           "has been uninstalled (ovlab.uninstall()); call ovlab.install() again "
                           "or use ovlab.Core(platform=...) directly")
    return session


class Core(_runtime.Core):
    """``openvino.Core()`` under the runner: the session's platform, seed and shared clock.

    Every Core of a session runs on one simulated clock, as every Core of a process shares one
    machine and one wall clock; ``time.sleep`` in the script advances it.
    """

    def __init__(self, xml_config_file: Any = "") -> None:
        if str(xml_config_file):
            raise NotImplementedError(
                f"Core(xml_config_file={str(xml_config_file)!r}): plugin configuration files are "
                "not simulated on ovlab (its plugins are the virtual devices of the platform)")
        session = _require_session()
        super().__init__(session.platform, session.seed, session.realtime)
        self.clock = session.clock


def compile_model(model: Any, device_name: str | None = "AUTO", config: dict | None = None):
    """``openvino.compile_model``: a compiled model on a new Core of the session."""
    return Core().compile_model(model, device_name, config)


_TOP_OVERRIDES = {"Core": Core, "compile_model": compile_model}


# --- building the modules ------------------------------------------------------------------------
def is_package(fullname: str) -> bool:
    return fullname in _PACKAGES or fullname.startswith("openvino.properties")


def _known(fullname: str) -> tuple:
    """The real module's public names (those ovlab lacks are served as stand-ins)."""
    if fullname == "openvino.preprocess":
        return tuple(NAMES["preprocess"])
    return tuple(NAMES["modules"].get(fullname, ()))


def _ovlab_target(fullname: str) -> str | None:
    """The ovlab module behind a served name, or None."""
    for served, target in _FORWARDED.items():
        if fullname == served or fullname.startswith(served + "."):
            return target + fullname[len(served):]
    return None


#: the binding's submodules ovlab serves, each from an ovlab module (its public names)
_BINDING_SUBMODULES = {"openvino._pyopenvino.util": "ovlab.utils",
                       "openvino._pyopenvino.passes": "ovlab.passes"}


def can_serve(fullname: str) -> bool:
    if fullname in ("openvino", "openvino_genai", "openvino._pyopenvino") or \
            fullname in _BINDING_SUBMODULES:
        return True
    if fullname.startswith("openvino.opset"):
        return fullname[len("openvino."):] in NAMES["opsets"]
    target = _ovlab_target(fullname)
    if target is None:
        return False
    if _known(fullname):
        return True  # served from the real name list, as stand-ins where ovlab has no module
    try:
        importlib.import_module(target)
    except ModuleNotFoundError:
        return False
    return True


def missing_message(fullname: str) -> str:
    served = "openvino, openvino.properties.*, openvino.preprocess, openvino.op, " + \
        "openvino.utils.*, openvino.exceptions, openvino.passes, openvino.frontend, " + \
        "openvino._offline_transformations, " + \
        f"openvino.opset1 .. openvino.{list(NAMES['opsets'])[-1]}"
    if fullname == "openvino.runtime" or fullname.startswith("openvino.runtime."):
        why = "openvino.runtime was removed in OpenVINO 2026: import from openvino directly"
    elif fullname == "openvino.tools" or fullname.startswith("openvino.tools."):
        why = ("the wheel's pure-Python tools are loaded from an installed openvino wheel, and "
               "none has this module; ovlab's own benchmark is 'python -m ovlab benchmark'")
    else:
        why = f"ovlab serves {served}"
    return f"No module named '{fullname}' ({why})"


def build(fullname: str) -> types.ModuleType:
    """A new module object for a served name (called by the import hook's loader)."""
    if fullname == "openvino":
        return _top_module()
    if fullname == "openvino_genai":
        from . import served_genai

        return served_genai.build(Core)
    if fullname == "openvino._pyopenvino":
        return _binding_module()
    if fullname in _BINDING_SUBMODULES:
        return _forwarding_module(fullname, _BINDING_SUBMODULES[fullname])
    short = fullname[len("openvino."):]
    if short in NAMES["opsets"]:
        return _opset_module(short)
    return _forwarding_module(fullname, _ovlab_target(fullname), _known(fullname))


def _forwarding_module(fullname: str, target_name: str, known: tuple | list = ()) -> types.ModuleType:
    mod = types.ModuleType(fullname, f"ovlab's {target_name}, served as {fullname}.")
    known = tuple(known)

    def target() -> types.ModuleType | None:
        try:
            return importlib.import_module(target_name)
        except ModuleNotFoundError:
            return None

    def __getattr__(name: str) -> Any:
        t = target()
        if name == "__all__":
            return sorted(set(_public(t) if t is not None else []) | set(known))
        if t is not None and hasattr(t, name):
            value = getattr(t, name)
            if isinstance(value, types.ModuleType) and value.__name__.startswith(target_name + "."):
                return importlib.import_module(fullname + value.__name__[len(target_name):])
            return value
        if name in known:
            return _stand_in(f"{fullname}.{name}")
        raise AttributeError(f"module '{fullname}' has no attribute '{name}'")

    mod.__getattr__ = __getattr__  # type: ignore[attr-defined]
    mod.__dir__ = lambda: sorted(set(_public(target()) if target() else []) | set(known))  # type: ignore[attr-defined]
    return mod


def _public(module: types.ModuleType | None) -> list[str]:
    if module is None:
        return []
    names = getattr(module, "__all__", None)
    if names is not None:
        return list(names)
    return [n for n in dir(module) if not n.startswith("_")]


def _stand_in(qualname: str) -> type:
    return standins.standin(qualname)


# The binding module's own names for classes the package re-exports under other names.
_BINDING_ALIASES = {"DescriptorTensor": "ovlab.sim.graph.node:TensorDescriptor"}


def _binding_module() -> types.ModuleType:
    """``openvino._pyopenvino``, the C++ binding: its classes are the package's (tests and type
    annotations import them from there)."""
    mod = types.ModuleType("openvino._pyopenvino", "OpenVINO's binding module, served by ovlab: "
                                                    "the names of the openvino package.")

    def __getattr__(name: str) -> Any:
        if name in _BINDING_ALIASES:
            module, _, attr = _BINDING_ALIASES[name].partition(":")
            return getattr(importlib.import_module(module), attr)
        return getattr(importlib.import_module("openvino"), name)

    mod.__getattr__ = __getattr__  # type: ignore[attr-defined]
    return mod


def _top_module() -> types.ModuleType:
    import ovlab

    top_names = set(NAMES["top"])
    submodules = set(NAMES["submodules"])
    mod = types.ModuleType("openvino", "OpenVINO's Python API, served by ovlab on virtual "
                                       "devices in simulated time (python -m ovlab run).")
    mod.__version__ = ovlab.get_version()  # type: ignore[attr-defined]

    def __getattr__(name: str) -> Any:
        if name in _TOP_OVERRIDES:
            return _TOP_OVERRIDES[name]
        if name == "_pyopenvino":  # the binding module: type annotations name classes in it
            return mod
        if name in submodules:
            if can_serve(f"openvino.{name}"):
                return importlib.import_module(f"openvino.{name}")
            raise AttributeError(missing_message(f"openvino.{name}"))
        if not name.startswith("_") and hasattr(ovlab, name):
            return getattr(ovlab, name)
        if name in top_names:
            return _stand_in(f"openvino.{name}")
        raise AttributeError(f"module 'openvino' has no attribute '{name}'")

    mod.__getattr__ = __getattr__  # type: ignore[attr-defined]
    mod.__dir__ = lambda: sorted(top_names | submodules | set(_TOP_OVERRIDES))  # type: ignore[attr-defined]
    mod.__all__ = sorted(top_names | set(_TOP_OVERRIDES))  # type: ignore[attr-defined]
    return mod


def _binding_module() -> types.ModuleType:
    """``openvino._pyopenvino``, the binding the real package re-exports: the top module's
    names, and the classes only it names (``DescriptorTensor``)."""
    from ..graph.node import TensorDescriptor

    mod = types.ModuleType("openvino._pyopenvino", "OpenVINO's binding module, served by ovlab.")
    own = {"DescriptorTensor": TensorDescriptor}

    def __getattr__(name: str) -> Any:
        if name in own:
            return own[name]
        return getattr(importlib.import_module("openvino"), name)

    mod.__getattr__ = __getattr__  # type: ignore[attr-defined]
    return mod


def _opset_module(short: str) -> types.ModuleType:
    names = tuple(NAMES["opsets"][short])
    fullname = f"openvino.{short}"
    mod = types.ModuleType(fullname, f"The ops of OpenVINO's {short}, built with ovlab.opset "
                                     "(NumPy kernels); ops ovlab lacks raise when called.")

    def __getattr__(name: str) -> Any:
        if name == "__all__":
            return list(names)
        if name in names:
            old = importlib.import_module("ovlab.sim.graph.opset_versions").builder(short, name)
            if old is not None:
                return old
            opset = importlib.import_module("ovlab.opset")
            if name in getattr(opset, "__all__", ()):
                return getattr(opset, name)
            return _missing_op(short, name)
        raise AttributeError(f"module '{fullname}' has no attribute '{name}'")

    mod.__getattr__ = __getattr__  # type: ignore[attr-defined]
    mod.__dir__ = lambda: list(names)  # type: ignore[attr-defined]
    return mod


@functools.cache
def _missing_op(short: str, name: str):
    def missing(*args: Any, **kwargs: Any):
        have = ", ".join(importlib.import_module("ovlab.opset").__all__)
        raise NotImplementedError(
            f"openvino.{short}.{name}: ovlab has no '{name}' op yet, so models that use it "
            f"cannot be built on ovlab (ovlab.opset has: {have})")

    missing.__name__ = missing.__qualname__ = name
    missing.__module__ = f"openvino.{short}"
    missing.__ovlab_standin__ = f"ovlab has no '{name}' op yet"  # type: ignore[attr-defined]
    return missing
