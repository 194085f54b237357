"""``VariableState``: one variable of a stateful model, as an inference request holds it.

``request.query_state()`` lists one per ReadValue variable of the model. Reading ``state``
gives the current value (the init value until the first inference assigns it, or after
``reset()``); writing it sets the value the next inference reads.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..graph.ops import constant_value, internal
from .tensor import Tensor


class VariableState:
    """``openvino.VariableState``: the value of one variable in one request."""

    def __init__(self, values: dict[str, np.ndarray], read_value) -> None:
        self._values = values
        self._node = read_value
        self._id = read_value._attrs["variable_id"]

    @property
    def name(self) -> str:
        return self._id

    def get_name(self) -> str:
        return self._id

    def _initial(self) -> np.ndarray:
        if self._node._inputs:
            value = constant_value(self._node._inputs[0])
            if value is not None:
                return np.asarray(value)
        return np.zeros(self._node._out_shapes[0],
                        dtype=self._node._out_types[0].to_dtype())

    @property
    def state(self) -> Tensor:
        t = self._node._out_types[0]
        value = self._values.get(self._id)
        value = self._initial() if value is None else value
        tensor = Tensor(np.asarray(value).astype(t.to_dtype()))
        return tensor

    @state.setter
    def state(self, value: Any) -> None:
        data = value.data if hasattr(value, "data") and not isinstance(value, np.ndarray) \
            else np.asarray(value)
        want = tuple(self._node._out_shapes[0])
        if tuple(np.shape(data)) != want:
            raise RuntimeError(f"VariableState '{self._id}': the state has shape {list(want)}, "
                               f"got {list(np.shape(data))}")
        self._values[self._id] = internal(np.array(data, copy=True))

    def get_state(self) -> Tensor:
        return self.state

    def set_state(self, state: Any) -> None:
        self.state = state

    def reset(self) -> None:
        """Back to the init value: the next inference reads ReadValue's init input again."""
        self._values.pop(self._id, None)

    def __repr__(self) -> str:
        return f"<VariableState: {self._id}>"
