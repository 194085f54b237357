"""``openvino.utils.input_validation``: the checks the wheel's Python op factories run on
attribute dictionaries (``proposal``'s attrs, for one), each raising ``UserInputError`` with
the wheel's wording, so that scripts (and OpenVINO's own tests) that call them behave alike."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from ..exceptions import UserInputError
from ..sim.graph.attr_checks import (  # the builders run them too (graph layer)
    _check_value,  # noqa: F401
    check_valid_attribute,
    check_valid_attributes,
    is_non_negative_value,
    is_positive_value,
)

__all__ = ["assert_list_of_ints", "check_valid_attribute", "check_valid_attributes",
           "is_non_negative_value", "is_positive_value"]

log = logging.getLogger(__name__)


def assert_list_of_ints(value_list: Iterable[int], message: str) -> None:
    """Raise ``UserInputError(message, value_list)`` unless every item is a Python int."""
    try:
        ok = all(isinstance(v, int) for v in value_list)
    except TypeError:  # not iterable
        ok = False
    if not ok:
        log.warning(message)
        raise UserInputError(message, value_list)
