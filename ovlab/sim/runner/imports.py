"""The import hook: a ``sys.meta_path`` finder that serves ``openvino`` from ovlab.

Nothing is written into site-packages. While the hook is installed, ``import openvino`` and its
served submodules (``served.py``) come from ovlab, ahead of any real ``openvino`` on the path;
the wheel's pure-Python tools (``openvino.tools.*``, ``wheel_tools.py``) are loaded from the
installed wheel's source files on top of them; other ``openvino.*`` names
(``openvino.runtime``...) fail with ``ModuleNotFoundError`` saying what is served. Real ``openvino`` modules already imported are
put aside at install and put back at uninstall, so the real runtime is shadowed only while
the hook is in place.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import types

from . import served, wheel_tools


def _is_openvino(name: str) -> bool:
    return name in ("openvino", "openvino_genai") or name.startswith(("openvino.", "openvino_genai."))


class OpenVINOFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds and loads ``openvino`` and its submodules from ovlab."""

    def find_spec(self, fullname: str, path=None, target=None):
        if not _is_openvino(fullname):
            return None
        if wheel_tools.is_tool(fullname):
            tool = wheel_tools.find_spec(fullname)
            if tool is not None:
                return tool
        if not served.can_serve(fullname):
            raise ModuleNotFoundError(served.missing_message(fullname), name=fullname)
        return importlib.machinery.ModuleSpec(fullname, self,
                                              is_package=served.is_package(fullname))

    def create_module(self, spec) -> types.ModuleType:
        return served.build(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        """Served modules are complete when created."""

    def __repr__(self) -> str:
        return "<ovlab.sim.runner OpenVINOFinder>"


FINDER = OpenVINOFinder()
_stashed: dict[str, types.ModuleType] = {}


def install() -> None:
    """Put the finder first on ``sys.meta_path`` and set aside imported real ``openvino``."""
    if FINDER in sys.meta_path:
        return
    for name in [n for n in list(sys.modules) if _is_openvino(n)]:
        _stashed[name] = sys.modules.pop(name)
    sys.meta_path.insert(0, FINDER)


def uninstall() -> None:
    """Remove the finder and the served modules; give back the real ones set aside."""
    while FINDER in sys.meta_path:
        sys.meta_path.remove(FINDER)
    for name in [n for n in list(sys.modules) if _is_openvino(n)]:
        loader = getattr(sys.modules[name], "__loader__", None)
        if loader is FINDER or isinstance(loader, wheel_tools.WheelSourceLoader):  # ours only
            del sys.modules[name]
    sys.modules.update(_stashed)
    _stashed.clear()


def installed() -> bool:
    return FINDER in sys.meta_path
