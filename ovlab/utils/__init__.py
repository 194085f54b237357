"""``openvino.utils``: the Python helpers OpenVINO code imports (element types, result dicts).

Submodules mirror the real ones: ``types`` (NumPy <-> element type maps, ``get_dtype``...),
``data_helpers`` (``OVDict``); ``replace_node`` and ``replace_output_update_name`` rewire
ovlab's graph as ``graph_util.cpp`` does. Helpers that wrap C++ internals (``numpy_to_c``...)
are stand-ins served by the runner (``ovlab/sim/runner/standins.py``).
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any


def deprecation_warning(function_name: str, version: str = "", message: str = "",
                        stacklevel: int = 2) -> None:
    """Warn (``DeprecationWarning``) "{function_name} is deprecated and will be removed in
    version {version}. {message}", the parts given (``openvino._pyopenvino.util``'s helper)."""
    text = f"{function_name} is deprecated" + (
        f" and will be removed in version {version}" if version else "") + (
        f". {message}" if message else "")
    warnings.warn(text, DeprecationWarning, stacklevel=int(stacklevel) + 1)


def deprecated(name: Any = None, version: str = "", message: str = "",
               stacklevel: int = 2) -> Callable:
    """Decorator that warns (``DeprecationWarning``) each time the wrapped function is called."""
    def decorator(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            deprecation_warning(name or func.__name__, version, message, stacklevel)
            return func(*args, **kwargs)
        return wrapper
    return decorator


class _ClassPropertyDescriptor:
    """What :func:`classproperty` returns: reads ``fget`` (a classmethod) on the class."""

    def __init__(self, fget: Any) -> None:
        self.fget = fget

    def __get__(self, obj: Any, cls: Any = None) -> Any:
        if cls is None:
            cls = type(obj)
        return self.fget.__get__(obj, cls)()


def classproperty(func: Any) -> _ClassPropertyDescriptor:
    """A property read on the class (``Cls.name``) rather than on an instance; ``func`` may
    be a plain function, a classmethod or a staticmethod, as in the wheel."""
    if not isinstance(func, (classmethod, staticmethod)):
        func = classmethod(func)
    return _ClassPropertyDescriptor(func)


def deprecatedclassproperty(name: Any = None, version: str = "", message: str = "",
                            stacklevel: int = 2) -> Callable:
    """A :func:`classproperty` that warns when read."""
    def decorator(func: Callable) -> _ClassPropertyDescriptor:
        if isinstance(func, (classmethod, staticmethod)):
            func = type(func)(deprecated(name, version, message, stacklevel + 1)(func.__func__))
        else:
            func = deprecated(name, version, message, stacklevel + 1)(func)
        return classproperty(func)
    return decorator


__all__ = ["classproperty", "deprecated", "deprecatedclassproperty", "deprecation_warning",
           "replace_node", "replace_output_update_name"]

# ``import openvino`` loads these submodules, so ``openvino.utils.types.get_dtype`` works
# without importing them by name (OpenVINO's tests rely on it)
from . import data_helpers, types  # noqa: E402,F401  (after the decorators they may use)


def replace_node(target: Any, replacement: Any, outputs_order: Any = None) -> None:
    """``ov::replace_node``: every consumer of ``target``'s outputs reads ``replacement``'s
    instead (a node, whose outputs are taken in order or in ``outputs_order``, or a list of
    outputs). Result nodes cannot be replaced."""
    from ..sim.graph.node import Node, Output

    if target.get_type_name() == "Result":
        raise RuntimeError("Check '!ov::op::util::is_output(target)' failed at "
                           "src/core/src/graph_util.cpp:152:\nResult nodes cannot be "
                           "replaced.\n")
    if isinstance(replacement, Node):
        order = list(range(replacement.get_output_size())) if outputs_order is None \
            else [int(i) for i in outputs_order]
        if target.get_output_size() != len(order):
            raise RuntimeError("Check 'target->get_output_size() == output_order.size()' failed "
                               "at src/core/src/graph_util.cpp:155:\nTarget output size: "
                               f"{target.get_output_size()} must be equal output_order size: "
                               f"{len(order)}\n")
        new = [replacement.output(i) for i in order]
    else:
        new = [r if isinstance(r, Output) else r.output(0) for r in replacement]
        if target.get_output_size() != len(new):
            raise RuntimeError("Check 'target->get_output_size() == replacement_values.size()' "
                               "failed at src/core/src/graph_util.cpp:199:\n")
    for i, out in enumerate(new):
        target.output(i).replace(out)


def replace_output_update_name(output: Any, target_output: Any) -> bool:
    """``ov::replace_output_update_name``: replace ``output`` by ``target_output``; when
    ``output`` feeds a Result, ``target_output``'s node takes ``output``'s node's friendly
    name and its tensor names (unless it is a Parameter), and the replacement happens only if
    ``target_output`` has no other consumer. True if it replaced."""
    feeds_result = any(i.get_node().get_type_name() == "Result"
                       for i in output.get_target_inputs())
    if feeds_result and len(target_output.get_target_inputs()) > 1:
        return False
    if feeds_result and target_output.get_node().get_type_name() != "Parameter":
        target_output.get_node().set_friendly_name(output.get_node().get_friendly_name())
        target_output.get_tensor().set_names(set(output.get_tensor().get_names()))
    output.replace(target_output)
    return True
