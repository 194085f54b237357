"""NPU batching (2025.3+): a batched model runs as batch-1 inferences, one per item, at once.

From ``docs/.../npu-device/batching-on-npu-plugin.rst`` and the 2025.3/2025.4 release notes: the
NPU plugin first checks that the batch is on the first axis, that every input and output has the
same batch size and that the model has no state. If so, it compiles the model with the batch
forced to 1 and, for each inference, "internally constructs multiple command lists, one for each
input", runs them at the proper offsets of the input and output buffers and completes the request
when all of them are done. This is transparent to the application: one infer request takes the
whole batch. Otherwise the compiler handles the batch itself (the model is compiled as it is).

The private ``NPU_BATCH_MODE`` (``AUTO`` default, ``COMPILER``, ``PLUGIN``) picks one way;
``PLUGIN`` on a model that cannot be debatched fails ("Cannot debatch a model", as users report).

BATCH (automatic batching) never applies to the NPU: the NPU reports no ``OPTIMAL_BATCH_SIZE``,
so ``compile_model(model, "NPU", THROUGHPUT)`` stays on the NPU (the 2025 Supported Devices
matrix: "Automatic batching: NPU No").

ovlab runs the items as concurrent inferences on the device (processor sharing divides the NPU
among them), so a batch of N costs about N batch-1 inferences: no weights or per-op costs are
shared, which is why the docs warn that this mode "may be lower" in performance than a compiler
batch. Results are real: each item is computed from its own slice of the inputs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import PluginError
from ..runtime.backend import Outputs

BATCH_MODES = ("AUTO", "COMPILER", "PLUGIN")
# Source lines of the two errors are estimates (the files are right, the lines were not measured:
# no NPU was available to the real wheel here).
_SRC = "src/plugins/intel_npu/src/plugin/src/plugin.cpp:697"
_OPTIONS_SRC = "src/plugins/intel_npu/src/al/include/intel_npu/config/options.hpp:1209"


def parse_mode(value: Any) -> str:
    """``NPU_BATCH_MODE`` as the option parser reads it (``BATCH_MODE::parse``)."""
    text = getattr(value, "name", str(value))
    if text not in BATCH_MODES:
        raise PluginError(f"Value '{text}' is not a valid BATCH_MODE option", _OPTIONS_SRC)
    return text


def _problem(model) -> str | None:
    """Why the NPU plugin cannot run ``model`` item by item, or None if it can."""
    shapes = [tuple(p.get_shape()) for p in model.inputs] + \
        [tuple(r.get_shape()) for r in model.outputs]
    if not shapes or any(len(s) == 0 for s in shapes):
        return "a tensor has no batch axis"
    batch = shapes[0][0]
    if any(s[0] != batch for s in shapes):
        return "inputs and outputs do not share the batch size on the first axis"
    if any(op.get_type_name() in ("ReadValue", "Assign") for op in model.get_ordered_ops()):
        return "the model has states"
    return None


def debatch(model, mode: str):
    """The batch-1 model the NPU compiles for a batched ``model``, or None (compile as is)."""
    mode = parse_mode(mode)
    batch = model._batch_size()
    if mode == "COMPILER" or batch <= 1:
        return None
    why = _problem(model)
    item = None
    if why is None:
        item = model.clone()
        try:
            item.reshape({i: (1, *tuple(p.get_shape())[1:]) for i, p in enumerate(model.inputs)})
        except Exception as err:  # noqa: BLE001 - any shape failure means "cannot debatch"
            why, item = f"shape inference fails at batch 1: {err}", None
        if item is not None and any(tuple(r.get_shape())[0] != 1 for r in item.outputs):
            why, item = "the batch does not carry through to every output", None
    if item is None and mode == "PLUGIN":
        raise PluginError(f"Cannot debatch a model: {why}", _SRC)
    return item


def item_inputs(inputs, k: int):
    """A function giving sample ``k`` of every input (inputs may be a dict or a function)."""
    def get() -> dict[int, np.ndarray]:
        full = inputs() if callable(inputs) else inputs
        return {i: v[k:k + 1] for i, v in full.items()}

    return get


class Concatenated(Outputs):
    """The batch's outputs: each item's (lazy) outputs joined on axis 0 when first read."""

    __slots__ = ("_parts",)

    def __init__(self, parts: list[Outputs]) -> None:
        super().__init__()
        self._parts = parts

    def _compute(self) -> list[np.ndarray]:
        items = [p.get() for p in self._parts]
        return [np.concatenate([it[j] for it in items], axis=0) for j in range(len(items[0]))]
