"""``openvino.experimental``: value bounds of an output and setting a tensor's type by hand.

The wheel's four functions work on the graph: ``evaluate_both_bounds`` and
``evaluate_as_partial_shape`` fold the subgraph that computes an output (as shape inference
folds ShapeOf -> Gather -> Concat); ``set_element_type`` and ``set_tensor_type`` overwrite the
type a port's tensor carries. ovlab's models are static, so an output that depends only on
Constants and shapes has one value, its lower and upper bound alike; one that depends on a
Parameter's data has none, and the wheel then hands back uninitialized tensors, as here.
"""

from __future__ import annotations

from typing import Any

from .sim.graph.node import Output, TensorDescriptor
from .sim.graph.ops import constant_value
from .sim.graph.types import PartialShape, Type, as_type
from .sim.runtime.tensor import Tensor

__all__ = ["evaluate_as_partial_shape", "evaluate_both_bounds", "set_element_type",
           "set_tensor_type"]


class _UninitializedTensor:
    """What the wheel returns for bounds it cannot evaluate: any use raises its error."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError("Check '_impl != nullptr' failed at src/core/src/runtime/tensor.cpp:93:"
                           "\nTensor was not initialized.")

    def __repr__(self) -> str:
        return "<Tensor: not initialized>"


def evaluate_both_bounds(output: Output) -> tuple[Any, Any]:
    """The lower and upper bound of ``output``'s value (equal on ovlab's static models), or two
    uninitialized tensors when it depends on a Parameter's data."""
    value = constant_value(_port(output, "evaluate_both_bounds"))
    if value is None:
        return _UninitializedTensor(), _UninitializedTensor()
    return Tensor(value.copy()), Tensor(value.copy())


def evaluate_as_partial_shape(output: Output, partial_shape: PartialShape) -> bool:
    """Write ``output``'s value (a 1-D integer tensor, such as a ShapeOf) into
    ``partial_shape`` and return True; False, leaving it as it is, when it cannot be folded."""
    value = constant_value(_port(output, "evaluate_as_partial_shape"))
    if value is None or value.ndim != 1 or value.dtype.kind not in "iu":
        return False
    shape = PartialShape([int(v) for v in value])
    partial_shape._dims, partial_shape._dimensions = shape._dims, shape._dimensions
    return True


def set_element_type(tensor: TensorDescriptor, element_type: Type) -> None:
    """Overwrite the element type of a port's tensor (until shape inference runs again)."""
    port = _descriptor(tensor, "set_element_type")
    port._node._out_types[port._index] = as_type(element_type)


def set_tensor_type(tensor: TensorDescriptor, element_type: Type,
                    partial_shape: PartialShape) -> None:
    """Overwrite the element type and shape of a port's tensor; ovlab's shapes are static."""
    port = _descriptor(tensor, "set_tensor_type")
    shape = PartialShape(partial_shape)
    if not shape.is_static:
        raise NotImplementedError(f"set_tensor_type with the dynamic shape {shape}: ovlab does "
                                  "not simulate dynamic shapes (its models are static)")
    port._node._out_types[port._index] = as_type(element_type)
    port._node._out_shapes[port._index] = tuple(int(d) for d in shape.to_shape())


def _port(output: Any, api: str) -> Output:
    if not isinstance(output, Output):
        raise TypeError(f"{api}(): incompatible function arguments: output must be an "
                        f"openvino.Output, got {type(output).__name__}")
    return output


def _descriptor(tensor: Any, api: str) -> Output:
    if not isinstance(tensor, TensorDescriptor):
        raise TypeError(f"{api}(): incompatible function arguments: tensor must be an "
                        f"openvino.descriptor.Tensor (Output.get_tensor()), got "
                        f"{type(tensor).__name__}")
    return tensor._port
