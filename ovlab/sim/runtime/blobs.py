"""Exported compiled models (``CompiledModel.export_model`` / ``Core.import_model``).

A real blob holds device code; a simulated device has none, so ovlab's blob names the compiled
model's graph and configuration, which this process keeps: ``import_model`` compiles that graph
again for the device it is given. A blob therefore imports into the process that exported it
(the lab's case: export, then import, on the virtual laptop); any other bytes are refused with
the CPU plugin's error.
"""

from __future__ import annotations

import io
import itertools
import json
from typing import Any

MAGIC = b"OVLAB-COMPILED-BLOB\n"
_models: dict[str, Any] = {}
_ids = itertools.count(1)


def export(model: Any, device: str, config: dict[str, Any]) -> io.BytesIO:
    key = f"blob-{next(_ids)}"
    _models[key] = model.clone()
    meta = {"id": key, "device": device, "model": model.get_friendly_name(),
            "config": {k: v for k, v in config.items() if isinstance(v, (str, int, float, bool))}}
    return io.BytesIO(MAGIC + json.dumps(meta).encode())


def read(stream: Any) -> tuple[Any, dict[str, Any]]:
    """The model and metadata of a blob (bytes, a BytesIO, a Tensor or a file object)."""
    if hasattr(stream, "getvalue"):
        data = stream.getvalue()
    elif hasattr(stream, "read"):
        data = stream.read()
    elif hasattr(stream, "data") and hasattr(stream, "get_byte_size"):
        data = bytes(stream.data.tobytes())
    else:
        data = bytes(stream)
    if not data.startswith(MAGIC):
        raise RuntimeError(
            "Exception from src/inference/src/cpp/core.cpp:217:\n"
            "Exception from src/inference/src/dev/plugin.cpp:74:\n"
            "[CPU] Cannot import compiled blob: not a blob exported by ovlab "
            "(ovlab imports the blobs its own export_model wrote)\n\n")
    meta = json.loads(data[len(MAGIC):].decode())
    model = _models.get(meta["id"])
    if model is None:
        raise RuntimeError(f"ovlab: this blob ({meta['model']!r}) was exported by another "
                           "process; a simulated device has no compiled code to keep, so blobs "
                           "import only into the process that exported them")
    return model.clone(), meta
