"""What a ``models_path`` names: a model of ovlab's LLM zoo in a weight format.

GenAI loads ``openvino_model.xml`` and the tokenizer IRs from a folder made by
``optimum-cli export openvino``. On ovlab the folder need not exist: when its last part names a
zoo model with OpenVINO's weight suffix (``phi-3-mini-4k-instruct-int8-ov``), that model is
loaded; under the runner (``python -m ovlab run``) one line on stderr says so, as for CNNs. ``tiny-llm-fp16-ov`` (any format)
is the one model with real weights and real text.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..models import llm_zoo as zoo


@dataclass(frozen=True)
class LoadedLLM:
    spec: zoo.LLMSpec
    precision: str  # "INT4-MIXED" | "INT8-CW" | "FP16"
    path: str

    @property
    def real(self) -> bool:
        """Whether this model computes its tokens (the tiny model) or uses the stand-in."""
        return self.spec.name == "tiny-llm"


def resolve(models_path: Any, quiet: bool = False) -> LoadedLLM:
    """The zoo model a ``models_path`` stands for, or a clear error."""
    from . import markers as export

    path = Path(str(models_path))
    marked = export.marker_of(path) or export.marker_in_ir(models_path)
    if marked is not None:  # a folder written by ovlab genai export, or its IR as a string
        spec = zoo.get(marked[0])
        return LoadedLLM(spec, marked[1], str(path) if export.marker_of(path) else spec.name)
    found = zoo.parse_dir_name(path.name)
    if found is None:
        if path.exists():
            raise RuntimeError(
                f"{path}: ovlab runs the LLMs of its zoo, not exported IR files (a virtual device "
                "has no real kernels for an arbitrary model); name a folder after a zoo model "
                f"and a weight format, e.g. TinyLlama-1.1B-Chat-v1.0-int4-ov. Zoo: "
                f"{', '.join(zoo.names())}")
        raise RuntimeError(
            f"Model path {str(path)!r} does not exist and its name is not a model of ovlab's LLM "
            "zoo with a weight suffix (-int4-ov, -int8-ov, -fp16-ov); the zoo has: "
            f"{', '.join(zoo.names())}")
    spec, precision = found
    if not quiet:
        what = ("real weights, real text" if spec.name == "tiny-llm"
                else "real shape and timing, stand-in text")
        note = "does not exist" if not path.exists() else "is read as a zoo name"
        print(f"[ ovlab ] {path} {note}: loading ovlab's LLM '{spec.name}' ({precision}, {what}) "
              "instead", file=sys.stderr)
    return LoadedLLM(spec, precision, str(path))
