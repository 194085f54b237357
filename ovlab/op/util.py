"""``openvino.op.util``: the variables of stateful models (``VariableInfo``, ``Variable``).
The base classes of the real module (elementwise ops, loop descriptions) are stand-ins served by
the runner."""

from __future__ import annotations

from ..sim.graph.variables import Variable, VariableInfo

__all__ = ["Variable", "VariableInfo"]
