"""ovlab: OpenVINO's AUTO, HETERO and automatic batching on virtual devices, for learning.

``import ovlab as ov`` reads like ``import openvino as ov``: ``ov.Core()``, ``compile_model``,
``AsyncInferQueue``, ``ov.properties``... Time is simulated (``core.clock``), numbers are real
(NumPy kernels in the device's precision), and everything that runs leaves a record
(``core.trace``).
"""

from . import layout_helpers, properties
from ._version import OPENVINO_VERSION, __version__, get_version  # noqa: F401  (public names)
from .extension import Extension
from .graph import Dimension, Input, Model, Node, Output, PartialShape, Shape, Symbol, Type
from .graph.coords import AxisSet, AxisVector, Coordinate, CoordinateDiff, Strides
from .graph.node import ConstOutput
from .graph.rt_map import RTMap
from .hardware import DeviceSpec, Platform, preset
from .hardware.platforms import register_platform as _register_platform
from .layout import Layout, get_batch, set_batch
from .plugins import PLUGINS as _PLUGINS
from .properties import OVAny
from .runner import install, uninstall
from .runner.notebook import load_ipython_extension, unload_ipython_extension
from .runtime import (
    AsyncInferQueue,
    CompiledModel,
    Core,
    InferRequest,
    OVDict,
    ProfilingInfo,
    Tensor,
    Version,
)
from .runtime.core import register_plugins as _register_plugins
from .runtime.tensor import tensor_from_file

_register_plugins(_PLUGINS)


def _this_machine() -> Platform:
    """``this-machine``: measured on first use (``ovlab.calibration.this_machine``)."""
    from .calibration.this_machine import this_machine

    return this_machine()


_register_platform("this-machine", _this_machine)



def compile_model(model, device_name: str | None = None, config: dict | None = None):
    """Module-level ``compile_model`` on a fresh default Core (like ``openvino.compile_model``)."""
    return Core().compile_model(model, device_name, config)


_FILE_FUNCTIONS = ("save_model", "serialize")


def __getattr__(name: str):
    if name in _FILE_FUNCTIONS:  # model files (ovlab.frontends), loaded on first use
        from . import frontends

        return getattr(frontends, name)
    if name == "convert_model":  # model files only (ovlab.frontends.convert)
        from .frontends.convert import convert_model

        return convert_model
    # submodules that load lazily (models, plots and widgets are not needed to import ovlab)
    if name in ("opset", "opset13", "zoo", "viz", "widgets", "experiments", "labtools",
                "benchmark", "frontends", "workloads"):
        import importlib

        return importlib.import_module(f"ovlab.{name}")
    raise AttributeError(f"module 'ovlab' has no attribute {name!r}")


__all__ = [
    "AxisSet", "AxisVector", "Coordinate", "CoordinateDiff", "Strides",
    "AsyncInferQueue", "CompiledModel", "ConstOutput", "Core", "DeviceSpec", "Dimension",
    "Extension", "InferRequest", "Input", "Layout", "Model", "Node", "OVAny", "Output",
    "get_batch", "layout_helpers", "set_batch",
    "OVDict", "PartialShape", "Platform", "ProfilingInfo", "RTMap", "Shape", "Symbol", "Tensor",
    "Type", "Version",
    "compile_model", "convert_model", "get_version", "install", "load_ipython_extension", "preset",
    "properties",
    "save_model", "serialize", "tensor_from_file", "uninstall", "unload_ipython_extension",
]
