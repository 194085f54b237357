"""``openvino.op``: the node classes code builds graphs with directly.

``Constant``, ``Parameter`` and ``Result`` are ovlab's graph nodes (``ovlab.sim.graph.ops``), whose
constructors take the real forms too: ``Constant(array, shared_memory=False)``,
``Constant(tensor, shared_memory=True)``, ``Constant(element_type, shape, values)``,
``Parameter(element_type, shape)``, ``Result(output)``; ``assign`` and ``read_value`` are the
Assign and ReadValue node classes (``ovlab.sim.graph.state_ops``); ``op.util`` has the variable
objects.
The rest of the real module (control flow: ``if_op``, ``loop``, ``tensor_iterator``) is served
as stand-ins by the runner.
"""

from __future__ import annotations

from ..extension import Extension
from ..sim.graph.ops import Constant, Parameter, Result
from ..sim.graph.state_ops import Assign as assign  # the wheel's lower-case class names
from ..sim.graph.state_ops import ReadValue as read_value
from . import util

__all__ = ["Constant", "Parameter", "Result", "assign", "read_value", "util"]


class _GroupQueryAttentionExtension(Extension):
    """The wheel's extension that registers the internal GroupQueryAttention op for reading
    IRs that hold it. ``Core.add_extension`` accepts it as an ``Extension``; ovlab has no
    GroupQueryAttention kernel, so an IR layer of that type still fails to read, naming it."""
