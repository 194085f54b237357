"""Helpers for the tests of the labs' tooling (``tools/``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_tool(name: str):
    """Import ``tools/<name>.py`` (the tools are scripts, not a package)."""
    key = f"ovlab_tools_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, ROOT / "tools" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


@pytest.fixture
def tool():
    return load_tool
