"""What marks a folder or an IR written by ``ovlab genai export`` (``export.py``) as a virtual
LLM: ``ovlab_model.json`` in the folder, ``<net name="ovlab:NAME:PRECISION">`` in the IRs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

MARKER = "ovlab_model.json"
_NET = re.compile(r'<net\s+name="ovlab:(?P<name>[^:"]+):(?P<precision>[^"]+)"')
_SUFFIX = {"INT4-MIXED": "int4", "INT8-CW": "int8", "FP16": "fp16"}


def marker_of(path: Any) -> tuple[str, str] | None:
    """(model, precision) of an exported folder, else None."""
    p = Path(str(path)) / MARKER
    if not p.is_file():
        return None
    data = json.loads(p.read_text())
    return data["model"], data["precision"]


def marker_in_ir(text: Any) -> tuple[str, str] | None:
    """(model, precision) of an exported IR read into a string, else None."""
    if not isinstance(text, str):
        return None
    m = _NET.search(text[:500])
    return (m.group("name"), m.group("precision")) if m else None


def zoo_path(name: str, precision: str) -> str:
    """The zoo folder name a marker stands for."""
    return f"{name}-{_SUFFIX[precision]}-ov"
