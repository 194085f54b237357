"""``openvino_genai`` as the runner serves it: ovlab's GenAI (``ovlab.sim.genai``) on the session.

Pipelines made by a served script run on a Core of the runner's session (its platform, seed and
the one simulated clock ``time.*`` reads), as ``openvino.Core()`` does. Every public name of the
real wheel (``openvino_genai_names.json``, from ``tools/gen_genai_names.py``) imports: the ones
ovlab lacks (VLMPipeline, WhisperPipeline, Text2ImagePipeline...) are stand-ins that raise a
clear error when used.
"""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

NAMES: dict[str, Any] = json.loads(Path(__file__).with_name("openvino_genai_names.json").read_text())
UNSIMULATED = "this GenAI pipeline (ovlab simulates text generation with LLMs: LLMPipeline, " \
              "ContinuousBatchingPipeline)"


def build(make_core: Any) -> types.ModuleType:
    """The module; ``make_core`` makes a Core of the session (``served.Core``, handed in)."""
    from .. import genai
    from . import session
    from .standins import standin

    # a Core of the session while one is installed; after uninstall, ovlab.sim.genai's default
    genai.pipeline.set_core_factory(lambda: make_core() if session.current() else None,
                                    note_paths=lambda: session.current() is not None)
    known = set(NAMES["top"])
    mod = types.ModuleType("openvino_genai", "OpenVINO GenAI's Python API, served by ovlab on "
                                             "virtual devices in simulated time.")
    mod.__version__ = genai.__version__  # type: ignore[attr-defined]

    def __getattr__(name: str) -> Any:
        if name == "__all__":
            return sorted(known | set(genai.__all__))
        if hasattr(genai, name) and not name.startswith("_"):
            return getattr(genai, name)
        if name in known:
            return standin(f"openvino_genai.{name}", UNSIMULATED)
        raise AttributeError(f"module 'openvino_genai' has no attribute '{name}'")

    mod.__getattr__ = __getattr__  # type: ignore[attr-defined]
    mod.__dir__ = lambda: sorted(known | set(genai.__all__))  # type: ignore[attr-defined]
    return mod
