"""``openvino.utils.data_helpers``: the dict of inference results."""

from __future__ import annotations

from ..runtime.tensor import OVDict

__all__ = ["OVDict"]
