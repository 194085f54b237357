"""ovlab: OpenVINO's AUTO, HETERO and automatic batching on virtual devices, for learning.

``import ovlab as ov`` reads like ``import openvino as ov``: ``ov.Core()``, ``compile_model``,
``AsyncInferQueue``, ``ov.properties``... Time is simulated (``core.clock``), numbers are real
(NumPy kernels in the device's precision), and everything that runs leaves a record
(``core.trace``).

The package has openvino's shape: the modules beside this one are openvino's own (``op``,
``opset13``, ``properties``, ``preprocess``, ``utils``, ``frontend``, ``tools``...), served
one to one as ``openvino.X`` by the runner; ovlab's own machinery (the simulated runtime,
devices, plugins, GenAI, the runner, dashboards and the labs' tools) lives in ``ovlab.sim``.
"""

from . import layout_helpers, properties
from ._version import OPENVINO_VERSION, __version__, get_version  # noqa: F401  (public names)
from .extension import Extension
from .properties import OVAny
from .sim.graph import Dimension, Input, Model, Node, Output, PartialShape, Shape, Symbol, Type
from .sim.graph.coords import AxisSet, AxisVector, Coordinate, CoordinateDiff, Strides
from .sim.graph.layout import Layout, get_batch, set_batch
from .sim.graph.node import ConstOutput
from .sim.graph.node import TypeInfo as DiscreteTypeInfo
from .sim.graph.rt_map import RTMap
from .sim.hardware import DeviceSpec, Platform, preset
from .sim.hardware.platforms import register_platform as _register_platform
from .sim.plugins import PLUGINS as _PLUGINS
from .sim.runner import install, uninstall
from .sim.runner.notebook import load_ipython_extension, unload_ipython_extension
from .sim.runtime import (
    AsyncInferQueue,
    CompiledModel,
    Core,
    InferRequest,
    OVDict,
    ProfilingInfo,
    Tensor,
    Version,
)
from .sim.runtime.core import register_plugins as _register_plugins
from .sim.runtime.tensor import tensor_from_file

_register_plugins(_PLUGINS)


def _this_machine() -> Platform:
    """``this-machine``: measured on first use (``ovlab.sim.calibration.this_machine``)."""
    from .sim.calibration.this_machine import this_machine

    return this_machine()


_register_platform("this-machine", _this_machine)



def compile_model(model, device_name: str | None = None, config: dict | None = None):
    """Module-level ``compile_model`` on a fresh default Core (like ``openvino.compile_model``)."""
    return Core().compile_model(model, device_name, config)


_FILE_FUNCTIONS = ("save_model", "serialize")
#: ``ov.<name>`` -> the module it loads on first use
_LAZY = {
    "opset": "ovlab.opset", "opset13": "ovlab.opset13", "benchmark": "ovlab.tools.benchmark",
    "zoo": "ovlab.sim.models.zoo", "viz": "ovlab.sim.viz", "widgets": "ovlab.sim.widgets",
    "experiments": "ovlab.sim.experiments", "labtools": "ovlab.sim.labtools",
    "frontends": "ovlab.sim.frontends", "workloads": "ovlab.sim.workloads",
}


def __getattr__(name: str):
    if name in _FILE_FUNCTIONS:  # model files (ovlab.sim.frontends), loaded on first use
        from .sim import frontends

        return getattr(frontends, name)
    if name == "convert_model":  # model files only (ovlab.sim.frontends.convert)
        from .sim.frontends.convert import convert_model

        return convert_model
    # modules that load lazily (models, plots and widgets are not needed to import ovlab)
    if name in _LAZY:
        import importlib

        return importlib.import_module(_LAZY[name])
    raise AttributeError(f"module 'ovlab' has no attribute {name!r}")


__all__ = [
    "AxisSet", "AxisVector", "Coordinate", "CoordinateDiff", "Strides",
    "AsyncInferQueue", "CompiledModel", "ConstOutput", "Core", "DeviceSpec", "DiscreteTypeInfo",
    "Dimension",
    "Extension", "InferRequest", "Input", "Layout", "Model", "Node", "OVAny", "Output",
    "get_batch", "layout_helpers", "set_batch",
    "OVDict", "PartialShape", "Platform", "ProfilingInfo", "RTMap", "Shape", "Symbol", "Tensor",
    "Type", "Version",
    "compile_model", "convert_model", "get_version", "install", "load_ipython_extension", "preset",
    "properties",
    "save_model", "serialize", "tensor_from_file", "uninstall", "unload_ipython_extension",
]
