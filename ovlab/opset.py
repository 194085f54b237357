"""``ovlab.opset``: the graph builders, named and ordered like ``openvino.opset13``."""

from ovlab.sim.graph.opset import *  # noqa: F403
from ovlab.sim.graph.opset import __all__  # noqa: F401
