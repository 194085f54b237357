"""``openvino.utils.decorators``: the decorator that turns a Python function into a
PrePostProcessor custom step (the wheel's other decorators wrap its op factories, which
``ovlab.opset`` writes directly; the runner serves them as stand-ins)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def custom_preprocess_function(custom_function: Callable) -> Callable:
    """Wrap ``custom_function(output) -> node or output`` so that it returns an ``Output``, as
    ``PrePostProcessor``'s ``custom()`` steps need (the wheel's ``as_node(...).output(0)``)."""

    def wrapper(output: Any) -> Any:
        result = custom_function(output)
        return result.output(0) if hasattr(result, "output") else result

    return wrapper
