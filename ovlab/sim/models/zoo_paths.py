"""The zoo-stem fallback: a missing model file whose name is a zoo model loads that model.

Scripts written for real hardware load Open Model Zoo IRs by path, e.g. the seed's
``./public/googlenet-v1-tf/FP16/googlenet-v1-tf.xml``. When such a file does not exist but its
stem names an ovlab zoo model (framework suffixes such as ``-tf`` removed), ``read_model`` loads
that zoo model in the precision of the folder it was looked for in (``FP16``, ``FP32``,
``FP16-INT8``...) and says so in one line on stderr, so the script runs unchanged and the
learner knows the weights are not the real ones.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

# Open Model Zoo names a converted model after its source framework.
FRAMEWORK_SUFFIXES = ("-tf", "-caffe", "-caffe2", "-onnx", "-pytorch", "-paddle", "-mxnet",
                      "-tflite", "-keras")
PRECISION_DIRS = {"FP32": "FP32", "FP16": "FP16", "INT8": "INT8", "FP16-INT8": "INT8",
                  "FP32-INT8": "INT8"}


def zoo_name_for(path: str | Path) -> tuple[str, str] | None:
    """``(zoo name, precision)`` for a model path whose stem names a zoo model, else None."""
    from . import zoo

    p = Path(path)
    # a zoo name made a path (benchmark_app makes '-m googlenet-v1' absolute) counts too; a bare
    # name is a zoo name already, which read_model takes without this fallback
    named_path = p.name in zoo.names() and len(p.parts) > 1
    if p.suffix.lower() not in (".xml", ".onnx", ".bin", ".blob") and not named_path:
        return None
    candidates = [p.name if named_path else p.stem] + [p.stem[: -len(s)] for s in FRAMEWORK_SUFFIXES if p.stem.endswith(s)]
    name = next((c for c in candidates if c in zoo.names()), None)
    if name is None:
        return None
    return name, PRECISION_DIRS.get(p.parent.name.upper(), "FP32")


def zoo_model_for_path(path: str | Path) -> Any:
    """The zoo model a missing ``path`` stands for (with a note on stderr), or None."""
    found = zoo_name_for(path)
    if found is None or Path(path).exists():
        return None
    from . import zoo

    name, precision = found
    print(f"[ ovlab ] {path} does not exist: loading ovlab's zoo model '{name}' ({precision}, "
          "real topology, random weights) instead", file=sys.stderr)
    return zoo.load(name, precision)
