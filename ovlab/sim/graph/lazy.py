"""Constants made only when someone reads them: weights of models larger than host memory.

HETERO's pipeline parallelism exists for models that do not fit one device (an LLM's 20 GB of
weights over two 16 GB GPUs). ovlab times a model from its shapes alone (``costs.py``) and computes
tensors only when outputs are read, so such a model can be built, split, compiled and timed on a
laptop, provided its weights are not made up front. A :class:`LazyConstant` knows its shape,
element type and a recipe (a seeded normal distribution with a scale); its values appear the first
time a kernel or ``get_data()`` reads them, once per process (clones share them). It is an
ordinary ``Constant`` everywhere else: type name, shapes, byte size, friendly name, submodels.

Use it for weights only: shape-inference helpers that fold constant *values* (a Reshape's target
shape, an axis) read the placeholder, which is all zeros.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .node import Node
from .ops import CONSTANT, Constant
from .types import Type, as_type

__all__ = ["LazyConstant", "lazy_constant"]


class _Values:
    """The made values, shared by a LazyConstant and its clones."""

    __slots__ = ("array",)

    def __init__(self) -> None:
        self.array: np.ndarray | None = None


class LazyConstant(Constant):
    """A Constant of ``shape`` whose values are drawn (seeded) when first read."""

    def __init__(self, shape: tuple[int, ...], element_type: Type, seed: int, scale: float,
                 name: str | None = None) -> None:
        dtype = element_type.to_dtype()
        placeholder = np.broadcast_to(np.zeros((), dtype=dtype), tuple(int(d) for d in shape))
        Node.__init__(self, CONSTANT, [], {
            "value": placeholder, "element_type": element_type, "_cache": {},
            "_lazy": _Values(), "_recipe": ("normal", tuple(placeholder.shape),
                                            element_type.get_type_name(), int(seed),
                                            float(scale))}, name)

    @property
    def recipe(self) -> tuple:
        """What the values are made from (the model cache keys a lazy weight by it)."""
        return self._attrs["_recipe"]

    @property
    def materialized(self) -> bool:
        return self._attrs["_lazy"].array is not None

    def _materialize(self) -> np.ndarray:
        held = self._attrs["_lazy"]
        if held.array is None:
            _kind, shape, _type, seed, scale = self.recipe
            dtype = self._attrs["element_type"].to_dtype()
            values = np.random.default_rng(seed).standard_normal(shape, dtype=np.float32) * scale
            held.array = values.astype(dtype, copy=False)
            held.array.flags.writeable = False
        self._attrs["value"] = held.array
        return held.array

    def get_data(self) -> np.ndarray:
        return self._materialize()

    @property
    def data(self) -> np.ndarray:
        return self._materialize()

    def get_vector(self) -> np.ndarray:
        return self._materialize().ravel()

    def _internal(self, precision: str) -> np.ndarray:
        self._materialize()
        return super()._internal(precision)


def lazy_constant(shape: Any, dtype: Any = np.float32, *, seed: int = 0, scale: float = 0.02,
                  name: str | None = None) -> LazyConstant:
    """A weight tensor of ``shape`` drawn from N(0, scale^2) with ``seed`` when first read.

    ovlab only (OpenVINO reads weights from the ``.bin`` file, memory-mapped): lets a lab build a
    model with tens of gigabytes of weights that is split, compiled and timed without them.
    """
    return LazyConstant(tuple(int(d) for d in shape), as_type(dtype), seed, scale, name)
