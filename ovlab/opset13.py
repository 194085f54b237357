"""``ovlab.opset13``: the same builders as ``ovlab.opset`` under OpenVINO's module name, so
``import openvino.opset13 as ops`` scripts run with ``import ovlab.opset13 as ops``."""

from ovlab.sim.graph.opset import *  # noqa: F403
from ovlab.sim.graph.opset import __all__  # noqa: F401
