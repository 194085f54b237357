"""``openvino.convert_model`` for model files: ONNX or IR on disk, read by ovlab's own readers.

The real ``convert_model`` reads a model file through the same front ends as
``Core.read_model`` when it is given a path (openvino_notebooks' performance-tricks notebooks
export a PyTorch model to ONNX and convert the file), and converts framework objects (a
``torch.nn.Module``, a TensorFlow graph...) through the framework's own tracer. ovlab reads
the files; framework objects need that framework's converter, which a simulator does not
have, so they raise ``NotImplementedError`` naming the feature, as every stand-in does.
"""

from __future__ import annotations

import os
from typing import Any

from ..graph.model import Model

_FRAMEWORK_OBJECTS = ("model conversion from framework objects (PyTorch, TensorFlow, "
                      "PaddlePaddle, JAX): export the model to ONNX and convert the file, "
                      "or use ovlab.zoo")


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
