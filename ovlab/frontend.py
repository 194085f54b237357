"""``openvino.frontend``: the front-end manager, as device-level code uses it to read a model.

``FrontEndManager().load_by_framework("onnx")`` (or ``load_by_model(path)``) gives a
``FrontEnd`` whose ``load(path)`` gives an ``InputModel`` and ``convert(...)`` the ``Model``:
the same readers as ``Core.read_model`` (OpenVINO IR and ONNX). The other frameworks the wheel
converts from (PyTorch, TensorFlow, TFLite, PaddlePaddle, JAX) are model conversion, which
ovlab does not simulate: loading their front end raises, naming it. Editing an ``InputModel``
before conversion (cutting it, overriding shapes through its Places) is not offered either: read
the model and use ``Model.reshape`` and the PrePostProcessor.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ._version import get_version as _get_version
from .sim.frontends import read_file
from .sim.graph.model import Model

#: what ovlab reads, by the wheel's front-end names
READERS = ("ir", "onnx")
#: the wheel's other front ends: framework conversion, not simulated
CONVERTERS = {"pytorch": "PyTorch", "tf": "TensorFlow", "tflite": "TensorFlow Lite",
              "paddle": "PaddlePaddle", "jax": "JAX"}
_SUFFIXES = {".xml": "ir", ".onnx": "onnx"}


def get_version() -> str:
    """The front ends' version: the OpenVINO version ovlab emulates."""
    return _get_version()


class InputModel:
    """A loaded model before conversion: ``FrontEnd.convert`` turns it into a ``Model``."""

    def __init__(self, model: Model, framework: str) -> None:
        self._model, self._framework = model, framework

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        raise NotImplementedError(
            f"InputModel.{name} is not available on ovlab: editing a model before conversion "
            "(places, cuts, shape overrides) is not simulated; convert it and use "
            "Model.reshape or the PrePostProcessor")

    def __repr__(self) -> str:
        return f"<InputModel of {self._framework}: '{self._model.get_friendly_name()}'>"


class FrontEnd:
    """One front end (``ir`` or ``onnx``): ``load`` a file, ``convert`` it to a Model."""

    def __init__(self, name: str) -> None:
        self._name = name

    def get_name(self) -> str:
        return self._name

    def supported(self, model: Any) -> bool:
        """Whether this front end reads ``model`` (a path with its file suffix)."""
        if isinstance(model, (str, os.PathLike)):
            path = Path(os.fsdecode(model))
            return _SUFFIXES.get(path.suffix.lower()) == self._name and path.is_file()
        return False

    def load(self, path: Any, enable_mmap: bool = True) -> InputModel:
        """Read the file (IR with the .bin beside it, or ONNX) into an InputModel."""
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"FrontEnd.load: expected a path, got {path!r}")
        return InputModel(read_file(path), self._name)

    def convert(self, model: Any) -> Model:
        """The Model of an InputModel (a Model is returned as it is, already converted)."""
        if isinstance(model, InputModel):
            return model._model
        if isinstance(model, Model):
            return model
        raise TypeError(f"FrontEnd.convert: expected an InputModel or a Model, got {model!r}")

    def convert_partially(self, model: InputModel) -> Model:
        return self.convert(model)

    def decode(self, model: InputModel) -> Model:
        return self.convert(model)

    def normalize(self, model: Model) -> None:
        """Nothing to normalize: ovlab's readers give the final ops."""

    def add_extension(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("FrontEnd.add_extension is not available on ovlab: front-end "
                                  "extensions (custom op conversion) are not simulated")

    def __repr__(self) -> str:
        return f"<FrontEnd '{self._name}'>"


class FrontEndManager:
    """Finds the front end for a framework name or a model file."""

    def get_available_front_ends(self) -> list[str]:
        """The front ends ovlab reads with (the wheel lists framework converters too)."""
        return list(READERS)

    def load_by_framework(self, framework: str) -> FrontEnd:
        if framework in READERS:
            return FrontEnd(framework)
        if framework in CONVERTERS:
            raise NotImplementedError(
                f"FrontEndManager.load_by_framework('{framework}') is not available on ovlab: "
                f"model conversion from {CONVERTERS[framework]} is not simulated (read an IR or "
                "ONNX file, or use ovlab.sim.models.zoo)")
        raise RuntimeError(f"FrontEnd for Framework {framework} is not found")

    def load_by_model(self, model: Any) -> FrontEnd | None:
        """The front end that reads ``model`` (a file path), or None."""
        for name in READERS:
            if FrontEnd(name).supported(model):
                return FrontEnd(name)
        return None

    def register_front_end(self, name: str, library_path: str) -> None:
        raise NotImplementedError("FrontEndManager.register_front_end is not available on ovlab: "
                                  "front-end libraries are not loaded (ovlab reads IR and ONNX)")

    def __repr__(self) -> str:
        return "<FrontEndManager>"
