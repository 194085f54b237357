"""``openvino.convert_model`` for model files: ONNX or IR on disk, read by ovlab's own readers.

The real ``convert_model`` reads a model file through the same front ends as
``Core.read_model`` when it is given a path (openvino_notebooks' performance-tricks notebooks
export a PyTorch model to ONNX and convert the file), and converts framework objects (a
``torch.nn.Module``, a TensorFlow graph...) through the framework's own tracer. ovlab reads
the files. A ``torch.nn.Module`` goes through PyTorch's own ONNX exporter (``torch.onnx.export``
at the shapes of ``input=`` or with ``example_input``) and ovlab's ONNX reader: another route
than the wheel's TorchScript/FX front end to the same computation (openvino_notebooks'
auto-device converts torchvision's ResNet-50 so). Other framework objects need that
framework's converter, which ovlab does not have: they raise ``NotImplementedError`` naming the
feature, as every stand-in does.
"""

from __future__ import annotations

import os
from typing import Any

from ..graph.model import Model

_FRAMEWORK_OBJECTS = ("model conversion from framework objects other than torch.nn.Module "
                      "(TensorFlow, PaddlePaddle, JAX): export the model to ONNX and convert "
                      "the file, or use ovlab.sim.models.zoo")


def convert_model(input_model: Any, input: Any = None, output: Any = None,
                  example_input: Any = None, extension: Any = None, verbose: bool = False,
                  share_weights: bool = True, dynamo: bool = False) -> Model:
    """A model file (``.onnx``, ``.xml``) as a Model; ``input`` sets the input shapes: one
    shape, a list of shapes in input order, or ``{name: shape}``."""
    from . import read_model

    if isinstance(input_model, Model):
        model = input_model
    elif isinstance(input_model, (str, os.PathLike)):
        model = read_model(os.fspath(input_model))
    elif _is_torch_module(input_model):
        return _from_torch(input_model, input, example_input, output, extension)
    else:
        raise NotImplementedError(
            f"ovlab does not simulate {_FRAMEWORK_OBJECTS} (convert_model got a "
            f"{type(input_model).__module__}.{type(input_model).__name__})")
    if output is not None:
        raise NotImplementedError("ovlab does not simulate cutting a model at new outputs "
                                  "(convert_model(output=...))")
    if extension is not None:
        raise NotImplementedError("ovlab does not simulate front-end extensions "
                                  "(convert_model(extension=...))")
    if input is not None:
        model.reshape(_shapes(model, input))
    return model


def _is_torch_module(obj: Any) -> bool:
    import sys

    torch = sys.modules.get("torch")  # imported by whoever built the module, never by ovlab
    return torch is not None and isinstance(obj, torch.nn.Module)


def _from_torch(module: Any, input: Any, example_input: Any, output: Any,
                extension: Any) -> Model:
    """A ``torch.nn.Module`` through ``torch.onnx.export`` and ovlab's ONNX reader."""
    import io

    import torch

    from . import read_model

    if output is not None or extension is not None:
        raise NotImplementedError("ovlab converts a torch.nn.Module with input= or "
                                  "example_input= only (not output= or extension=)")
    if example_input is not None:
        args = tuple(example_input) if isinstance(example_input, (list, tuple)) and not \
            isinstance(example_input[0], (int, float)) else (example_input,)
    elif input is not None:
        shapes = input if isinstance(input, (list, tuple)) and input and all(
            isinstance(s, (list, tuple)) for s in input) else [input]
        if not all(isinstance(d, int) and d > 0 for s in shapes for d in s):
            raise NotImplementedError("ovlab converts a torch.nn.Module at static input shapes "
                                      f"only (got input={input!r}: dynamic shapes are not "
                                      "simulated)")
        args = tuple(torch.zeros(*s) for s in shapes)
    else:
        raise NotImplementedError("ovlab converts a torch.nn.Module at static shapes: give "
                                  "input=[[1, 3, 224, 224]] or example_input= (models with "
                                  "dynamic shapes are not simulated)")
    import warnings

    buffer = io.BytesIO()
    was_training = module.training
    module.eval()
    try:
        # the TorchScript exporter (static shapes, no onnxscript needed) warns that it is legacy
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            torch.onnx.export(module, args, buffer, dynamo=False)
    finally:
        module.train(was_training)
    return read_model(buffer.getvalue())


def _shapes(model: Model, input: Any) -> Any:
    """``input=`` as ``Model.reshape`` takes it: a dict by name, or one shape for one input."""
    if isinstance(input, dict):
        return input
    if isinstance(input, (list, tuple)) and input and all(
            isinstance(s, (list, tuple)) for s in input):
        if len(input) != len(model.inputs):
            raise RuntimeError(f"convert_model: {len(input)} input shapes given for a model "
                               f"with {len(model.inputs)} inputs")
        return {i: list(shape) for i, shape in enumerate(input)}
    return input
