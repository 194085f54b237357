"""``openvino.utils.data_helpers``: the dict of inference results."""

from __future__ import annotations

from ..sim.runtime.tensor import OVDict

__all__ = ["OVDict"]
