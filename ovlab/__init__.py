"""ovlab: OpenVINO's AUTO, HETERO and automatic batching on virtual devices, for learning.

``import ovlab as ov`` reads like ``import openvino as ov``: ``ov.Core()``, ``compile_model``,
``AsyncInferQueue``, ``ov.properties``... Time is simulated (``core.clock``), numbers are real
(NumPy kernels in the device's precision), and everything that runs leaves a record
(``core.trace``).
"""

from . import layout_helpers, properties
from .extension import Extension
from .graph import Dimension, Input, Model, Node, Output, PartialShape, Shape, Symbol, Type
from .graph.node import ConstOutput
from .graph.rt_map import RTMap
from .hardware import DeviceSpec, Platform, preset
from .layout import Layout, get_batch, set_batch
from .plugins import PLUGINS as _PLUGINS
from .properties import OVAny
from .runner import install, load_ipython_extension, uninstall, unload_ipython_extension
from .runtime import (
    OPENVINO_VERSION,
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

_register_plugins(_PLUGINS)

__version__ = "0.1.0"


def get_version() -> str:
    """The OpenVINO version ovlab emulates, stamped with ovlab's own."""
    return f"{OPENVINO_VERSION}-ovlab-{__version__}"


def compile_model(model, device_name: str | None = None, config: dict | None = None):
    """Module-level ``compile_model`` on a fresh default Core (like ``openvino.compile_model``)."""
    return Core().compile_model(model, device_name, config)


_FILE_FUNCTIONS = ("save_model", "serialize", "tensor_from_file")


def __getattr__(name: str):
    if name in _FILE_FUNCTIONS:  # model files (ovlab.frontends), loaded on first use
        from . import frontends

        return getattr(frontends, name)
    # submodules that load lazily (models, plots and widgets are not needed to import ovlab)
    if name in ("opset", "opset13", "zoo", "viz", "widgets", "experiments", "labtools",
                "benchmark", "frontends", "workloads"):
        import importlib

        return importlib.import_module(f"ovlab.{name}")
    raise AttributeError(f"module 'ovlab' has no attribute {name!r}")


__all__ = [
    "AsyncInferQueue", "CompiledModel", "ConstOutput", "Core", "DeviceSpec", "Dimension",
    "Extension", "InferRequest", "Input", "Layout", "Model", "Node", "OVAny", "Output",
    "get_batch", "layout_helpers", "set_batch",
    "OVDict", "PartialShape", "Platform", "ProfilingInfo", "RTMap", "Shape", "Symbol", "Tensor",
    "Type", "Version",
    "compile_model", "get_version", "install", "load_ipython_extension", "preset", "properties",
    "save_model", "serialize", "tensor_from_file", "uninstall", "unload_ipython_extension",
]
