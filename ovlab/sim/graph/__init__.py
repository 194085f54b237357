"""ovlab's graph layer: models, ops, the opset builders, NumPy kernels and cost counts.

Also here: ``layout`` (``Layout``, ``get_batch``/``set_batch``), ``coords`` (``Strides``...),
``opset_versions`` (other opsets' builders and the op versions built beside the registry's:
MaxPool-1, Interpolate-4, Squeeze-15...), served as ``openvino.opsetN`` by the runner.

The rest of ovlab uses it through the names exported here (see ``docs/graph-contract.md``).
"""

from __future__ import annotations

from . import opset  # (importing the builders registers every op family)
from .costs import OpCost
from .model import Model, model_precision
from .node import Input, Node, NodeValidationError, Output
from .ops import Constant, Parameter, Result
from .submodel import Submodel, submodel
from .types import Dimension, PartialShape, Shape, Symbol, Type

__all__ = [
    "Model", "Type", "Shape", "PartialShape", "Dimension", "Symbol", "Node", "Output", "Input",
    "Parameter", "Constant", "Result", "NodeValidationError", "OpCost", "model_precision",
    "submodel", "Submodel", "opset",
]
