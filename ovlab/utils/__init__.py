"""``openvino.utils``: the Python helpers OpenVINO code imports (element types, result dicts).

Submodules mirror the real ones: ``types`` (NumPy <-> element type maps, ``get_dtype``...),
``data_helpers`` (``OVDict``). Helpers that wrap C++ internals (``numpy_to_c``,
``replace_node``...) are stand-ins served by the runner (``ovlab/sim/runner/standins.py``).
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any


def deprecated(name: Any = None, version: str = "", message: str = "",
               stacklevel: int = 2) -> Callable:
    """Decorator that warns (``DeprecationWarning``) each time the wrapped function is called."""
    def decorator(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            what = name or func.__name__
            text = f"{what} is deprecated" + (f" and will be removed in version {version}"
                                              if version else "") + (f". {message}" if message
                                                                     else "")
            warnings.warn(text, DeprecationWarning, stacklevel=stacklevel)
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


__all__ = ["classproperty", "deprecated", "deprecatedclassproperty"]

# ``import openvino`` loads these submodules, so ``openvino.utils.types.get_dtype`` works
# without importing them by name (OpenVINO's tests rely on it)
from . import data_helpers, types  # noqa: E402,F401  (after the decorators they may use)
