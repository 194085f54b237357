"""The checks the wheel's Python op builders run on attribute dictionaries (``proposal``'s and
``detection_output``'s ``attrs``), each raising ``UserInputError`` in the wheel's words.

They live in the graph layer because the builders that run them do (``detection_ops.py``);
``openvino.utils.input_validation`` (``ovlab/utils/input_validation.py``) serves them to
scripts under their public names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...exceptions import UserInputError

__all__ = ["check_valid_attribute", "check_valid_attributes", "is_non_negative_value",
           "is_positive_value"]

#: a requirement of ``check_valid_attributes``: (name, required, value type, condition or None)
Requirement = tuple[str, bool, type, "Callable[[Any], bool] | None"]


def _check_value(op_name: str, attr_key: str, value: Any, val_type: type,
                 cond: Callable[[Any], bool] | None = None) -> bool:
    """True if ``value``'s type is a NumPy subtype of ``val_type`` (``np.integer``,
    ``np.floating``...) and ``cond(value)`` holds; else ``UserInputError`` naming the op and
    the attribute."""
    if not np.issubdtype(type(value), val_type):
        raise UserInputError(
            f'{op_name} operator attribute "{attr_key}" value must by of type {val_type}.')
    if cond is not None and not cond(value):
        raise UserInputError(f'{op_name} operator attribute "{attr_key}" value does not '
                             "satisfy provided condition.")
    return True


def check_valid_attribute(op_name: str, attr_dict: dict, attr_key: str, val_type: type,
                          cond: Callable[[Any], bool] | None = None,
                          required: bool = False) -> bool:
    """Check ``attr_dict[attr_key]`` (each item, for a sequence) with ``_check_value``; a
    missing key is an error only when ``required``."""
    if attr_key not in attr_dict:
        if required:
            raise UserInputError(f"Provided dictionary is missing {op_name} operator required "
                                 f'attribute "{attr_key}"')
        return True
    value = attr_dict[attr_key]
    values = [value] if np.isscalar(value) else value
    return all(_check_value(op_name, attr_key, v, val_type, cond) for v in values)


def check_valid_attributes(op_name: str, attributes: dict[str, Any],
                           requirements: list[Requirement]) -> bool:
    """Check every ``(name, required, type, condition)`` of ``requirements``."""
    for attr, required, val_type, cond in requirements:
        check_valid_attribute(op_name, attributes, attr, val_type, cond, required)
    return True


def is_positive_value(value: Any) -> bool:
    return value > 0


def is_non_negative_value(value: Any) -> bool:
    return value >= 0
