"""The real wheel's pure-Python tools (``openvino.tools.*``) on top of the served ``openvino``.

The ``openvino`` wheel ships tools written in Python over its public API: ``benchmark_app``
(``openvino.tools.benchmark``) above all. They contain no compiled code, so the runner loads
their *source files from the installed wheel*, unchanged, while everything they import from
``openvino`` itself (``Core``, ``AsyncInferQueue``, ``openvino.properties``...) is served by
ovlab: ``python -m ovlab run -m openvino.tools.benchmark.main -m googlenet-v1 -d GPU`` (or
``python -m ovlab run benchmark_app ...``, the console script) is the real benchmark_app on
virtual devices and simulated time. The real compiled ``openvino`` package is never imported.
Without the wheel, ``openvino.tools`` is not served (ovlab has its own ``ovlab benchmark``).
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import sys
from pathlib import Path

# Subpackages of the real ``openvino`` that are plain Python over the public API.
PURE_PYTHON = ("openvino.tools",)


def is_tool(fullname: str) -> bool:
    return any(fullname == p or fullname.startswith(p + ".") for p in PURE_PYTHON)


@functools.cache
def wheel_dir() -> Path | None:
    """The installed real ``openvino`` package's folder (found on sys.path, not imported)."""
    spec = importlib.machinery.PathFinder.find_spec("openvino", sys.path)
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        if (Path(location) / "tools").is_dir():
            return Path(location)
    return None


class WheelSourceLoader(importlib.machinery.SourceFileLoader):
    """Loads a module of the wheel from its source file (so the runner can unload it)."""


def find_spec(fullname: str) -> importlib.machinery.ModuleSpec | None:
    """The spec of a wheel tool's module from its file, or None (not a tool, or no wheel)."""
    base = wheel_dir()
    if base is None or not is_tool(fullname):
        return None
    rel = base.joinpath(*fullname.split(".")[1:])
    package = rel / "__init__.py"
    if package.is_file():
        return importlib.util.spec_from_file_location(
            fullname, package, loader=WheelSourceLoader(fullname, str(package)),
            submodule_search_locations=[str(rel)])
    module = rel.with_suffix(".py")
    if module.is_file():
        return importlib.util.spec_from_file_location(
            fullname, module, loader=WheelSourceLoader(fullname, str(module)))
    return None


def console_script(name: str = "", module: str = "") -> tuple[str, str] | None:
    """``(script name, "module:function")`` of an installed console script into a wheel tool,
    by script name (``benchmark_app`` -> ``openvino.tools.benchmark.main:main``) or by its
    module; None if there is none."""
    from importlib.metadata import entry_points

    for entry in entry_points(group="console_scripts"):
        target = entry.value.partition(":")[0].strip()
        if is_tool(target) and (entry.name == name or target == module):
            return entry.name, entry.value
    return None


def run_console_script(value: str) -> object:
    """Call ``module:function`` as its console script does; returns what it returned."""
    import importlib

    target, _, function = value.partition(":")
    return getattr(importlib.import_module(target.strip()), function.strip())()
