"""The wheel's overloaded methods as one Python signature each.

A pybind method of ``openvino`` can have several overloads, each with its own keyword names
(``InferRequest.get_tensor(name=...)`` or ``get_tensor(port=...)``). ovlab serves each as one
Python function whose parameters carry every overload's names, with ``MISSING`` as the default
of those only some overloads take; ``one_of`` then picks the one the caller gave, and refuses
two or none, as the binding finds no overload for them.
"""

from __future__ import annotations

from typing import Any


class _Missing:
    """The default of a parameter not given (None is a value that some overloads take)."""

    def __repr__(self) -> str:
        return "<not given>"


MISSING: Any = _Missing()


def given(value: Any) -> bool:
    return value is not MISSING


def one_of(api: str, **arguments: Any) -> Any:
    """The one argument passed among ``arguments``, whose names are those of ``api``'s
    overloads that take the same place (``name`` or ``port``)."""
    passed = [v for v in arguments.values() if v is not MISSING]
    if len(passed) != 1:
        raise TypeError(f"{api}(): incompatible function arguments: give one of "
                        f"{', '.join(arguments)} (got {len(passed)})")
    return passed[0]
