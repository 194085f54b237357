"""``openvino.exceptions``: the Python-side error classes of the OpenVINO API."""

from __future__ import annotations


class OVError(Exception):
    """Base class of the errors raised by OpenVINO's Python helpers."""


class UserInputError(OVError):
    """An argument the helper cannot use."""


class OVTypeError(OVError, TypeError):
    """A data type the helper cannot map to an element type (or back)."""


__all__ = ["OVError", "OVTypeError", "UserInputError"]
