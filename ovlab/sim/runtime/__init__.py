"""The runtime: Core, compiled models, infer requests, the simulated clock."""

from .async_queue import AsyncInferQueue
from .backend import ProfilingInfo
from .compiled_model import CompiledModel
from .core import OPENVINO_VERSION, Core, Version
from .infer_request import InferRequest
from .tensor import OVDict, Tensor

__all__ = ["AsyncInferQueue", "CompiledModel", "Core", "InferRequest", "OVDict", "ProfilingInfo",
           "Tensor", "Version", "OPENVINO_VERSION"]
