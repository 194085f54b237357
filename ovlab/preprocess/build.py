"""``PrePostProcessor.build()``: the steps become real ops in the model.

Each input gets a new Parameter of the application's tensor (element type, shape, layout) and a
chain of ops that turns it into what the model's Parameter gave (explicit steps in the order
given, then OpenVINO's implicit ones: element type, then layout); the old Parameter's consumers
are rewired to the end of the chain, and the new Parameter takes its friendly name and tensor
names. Each output's Result reads from a chain on its old input the same way. The model is
changed in place and returned, as OpenVINO does.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from .. import opset as ops
from ..graph.node import Output
from ..graph.types import Type
from ..layout import Layout, layout_of
from .info import InputInfo, OutputInfo, ResizeAlgorithm

_RESIZE_MODES = {ResizeAlgorithm.RESIZE_LINEAR: "linear", ResizeAlgorithm.RESIZE_CUBIC: "cubic",
                 ResizeAlgorithm.RESIZE_NEAREST: "nearest",
                 ResizeAlgorithm.RESIZE_BILINEAR_PILLOW: "bilinear_pillow",
                 ResizeAlgorithm.RESIZE_BICUBIC_PILLOW: "bicubic_pillow"}


def _names(layout: Layout | None) -> list[str] | None:
    """The dimension names of a fully named layout, else None."""
    if layout is None or layout._dynamic:
        return None
    return [n.upper() for n in layout._before]


def _permutation(src: Layout | None, dst: Layout, rank: int) -> list[int]:
    a, b = _names(src), _names(dst)
    if a is None or b is None or len(a) != rank or sorted(a) != sorted(b):
        raise RuntimeError(f"PrePostProcessor: cannot convert layout {src} to {dst} for a tensor "
                           f"of rank {rank}: ovlab converts between fully named layouts of the "
                           "same dimensions")
    return [a.index(name) for name in b]


class _Chain:
    """The tensor as the steps transform it: an output port and what its dimensions mean."""

    def __init__(self, out: Output, layout: Layout | None) -> None:
        self.out, self.layout = out, layout

    @property
    def shape(self) -> list[int]:
        return list(self.out.get_shape())

    @property
    def type(self) -> Type:
        return self.out.get_element_type()

    def convert(self, element_type: Type) -> None:
        if element_type != self.type:
            self.out = ops.convert(self.out, element_type).output(0)

    def transpose(self, order: list[int], layout: Layout | None) -> None:
        if order != list(range(len(order))):
            self.out = ops.transpose(self.out, np.array(order, np.int64)).output(0)
        self.layout = layout

    def to_layout(self, layout: Layout) -> None:
        if self.layout is None or self.layout == layout:
            self.layout = layout if self.layout is None else self.layout
            return
        self.transpose(_permutation(self.layout, layout, len(self.shape)), layout)

    def _per_channel(self, value: Any, step: str) -> np.ndarray:
        if not self.type.is_real():
            raise RuntimeError(
                f"Check 'element_type.is_real()' failed at src/core/src/preprocess/"
                f"preprocess_steps_impl.cpp:160:\n{step.capitalize()} preprocessing can be "
                "applied to 'float' inputs. Consider using of 'convert_element_type' before "
                f"scaling. Current type is: {self.type.get_type_name()}\n")
        values = np.atleast_1d(np.asarray(value, dtype=self.type.to_dtype()))
        if values.size == 1:
            return values.reshape(())
        if self.layout is None or not self.layout.has_name("C"):
            raise RuntimeError(f"PrePostProcessor: {step} with {values.size} values needs a "
                               "layout with a 'C' dimension (tensor().set_layout(...))")
        shape = [1] * len(self.shape)
        axis = self.layout.get_index_by_name("C") % len(shape)
        if self.shape[axis] != values.size:
            raise RuntimeError(f"PrePostProcessor: {step} has {values.size} values for "
                               f"{self.shape[axis]} channels")
        shape[axis] = values.size
        return values.reshape(shape)

    def mean(self, value: Any) -> None:
        self.out = ops.subtract(self.out, ops.constant(self._per_channel(value, "mean"))).output(0)

    def scale(self, value: Any) -> None:
        divisor = self._per_channel(value, "scale")
        # OpenVINO multiplies by the reciprocal (its graph shows a Multiply)
        recip = (np.ones_like(divisor) / divisor).astype(divisor.dtype)
        self.out = ops.multiply(self.out, ops.constant(recip)).output(0)

    def resize(self, algorithm: ResizeAlgorithm, size: tuple[int, int]) -> None:
        interpolate = getattr(ops, "interpolate", None)
        if interpolate is None:
            raise NotImplementedError(
                "PrePostProcessor resize: ovlab.opset has no Interpolate op yet, so resizing "
                "cannot be built into the model (give the tensor the model's spatial size)")
        if self.layout is None or not (self.layout.has_name("H") and self.layout.has_name("W")):
            raise RuntimeError("PrePostProcessor: resize needs a layout with 'H' and 'W'")
        rank = len(self.shape)
        axes = [self.layout.get_index_by_name("H") % rank, self.layout.get_index_by_name("W") % rank]
        self.out = interpolate(self.out, np.array(size, np.int64), _RESIZE_MODES[algorithm],
                               "sizes", axes=np.array(axes, np.int64)).output(0)


def _spatial(shape: list[int], layout: Layout | None) -> tuple[int, int] | None:
    if layout is None or not (layout.has_name("H") and layout.has_name("W")):
        return None
    rank = len(shape)
    return shape[layout.get_index_by_name("H") % rank], shape[layout.get_index_by_name("W") % rank]


def _rewire(old: Output, new: Output) -> None:
    """Make every reader of ``old`` read ``new`` instead."""
    node = old._node
    for ref, i in node._targets[old._index]:
        consumer = ref()
        if consumer is not None:
            consumer._inputs[i] = new
            new._node._targets[new._index].append((ref, i))
    node._targets[old._index] = []


def build_input(param: Any, info: InputInfo) -> Any:
    """A new Parameter and the preprocessing chain that replaces ``param``; returns it."""
    model_out = param.output(0)
    model_shape, model_type = list(model_out.get_shape()), model_out.get_element_type()
    model_layout = info.model().layout or (layout_of(model_out) if "layout" in
                                           model_out.get_rt_info() else None)
    tensor = info.tensor()
    layout = tensor.layout or model_layout
    if tensor.shape is not None:
        shape = list(tensor.shape)
    elif layout is not None and model_layout is not None and layout != model_layout:
        shape = [model_shape[i] for i in _permutation(model_layout, layout, len(model_shape))]
    else:
        shape = list(model_shape)
    if tensor.spatial is not None:
        if layout is None or not (layout.has_name("H") and layout.has_name("W")):
            raise RuntimeError("PrePostProcessor: set_spatial_static_shape needs a tensor layout "
                               "with 'H' and 'W'")
        shape[layout.get_index_by_name("H") % len(shape)] = tensor.spatial[0]
        shape[layout.get_index_by_name("W") % len(shape)] = tensor.spatial[1]
    new_param = ops.parameter(shape, tensor.element_type or model_type,
                              name=param.get_friendly_name())
    if layout is not None:
        new_param.output(0).get_rt_info()["layout"] = layout.to_string()
    chain = _Chain(new_param.output(0), layout)
    for step, arg in info.preprocess().steps:
        if step == "convert_element_type":
            chain.convert(arg or model_type)
        elif step == "convert_layout":
            chain.to_layout(arg or model_layout or chain.layout)
        elif step == "convert_layout_order":
            chain.transpose(arg, None)
        elif step == "mean":
            chain.mean(arg)
        elif step == "scale":
            chain.scale(arg)
        elif step == "resize":
            algorithm, size = arg
            target = size or _spatial(model_shape, model_layout or chain.layout)
            if target is None:
                raise RuntimeError("PrePostProcessor: resize needs the model's layout with 'H' "
                                   "and 'W' (model().set_layout(...)) or a size")
            chain.resize(algorithm, target)
    chain.convert(model_type)  # the implicit steps, as OpenVINO adds them
    if model_layout is not None and chain.layout is not None:
        chain.to_layout(model_layout)
    if chain.shape != model_shape:
        raise RuntimeError(f"PrePostProcessor: input '{param.get_friendly_name()}' becomes "
                           f"{chain.shape} after its steps, but the model expects {model_shape} "
                           "(add a resize or convert_layout step)")
    new_param.output(0).set_names(model_out.get_names())
    _rewire(model_out, chain.out)
    return new_param


def build_output(result: Any, info: OutputInfo) -> None:
    """Insert the postprocessing chain between ``result`` and what it reads."""
    src = result.input_value(0)
    layout = info.model().layout or (layout_of(src) if "layout" in src.get_rt_info() else None)
    chain = _Chain(src, layout)
    for step, arg in info.postprocess().steps:
        if step == "convert_element_type":
            chain.convert(arg or info.tensor().element_type or chain.type)
        elif step == "convert_layout":
            chain.to_layout(arg or info.tensor().layout or chain.layout)
        elif step == "convert_layout_order":
            chain.transpose(arg, None)
    tensor = info.tensor()
    if tensor.element_type is not None:
        chain.convert(tensor.element_type)
    if tensor.layout is not None and chain.layout is not None:
        chain.to_layout(tensor.layout)
    if chain.out != src:
        src._node._targets[src._index] = [
            (ref, i) for ref, i in src._node._targets[src._index] if ref() is not result]
        result._inputs[0] = chain.out
        chain.out._node._targets[chain.out._index].append((weakref.ref(result), 0))
        result._validate()


class PrePostProcessor:
    """``openvino.preprocess.PrePostProcessor``: describe inputs and outputs, then ``build()``."""

    def __init__(self, model: Any) -> None:
        if not hasattr(model, "get_parameters"):
            raise TypeError(f"PrePostProcessor takes a Model, got {model!r}")
        self._model = model
        self._inputs: dict[int, InputInfo] = {}
        self._outputs: dict[int, OutputInfo] = {}

    @staticmethod
    def _index(ports: list, key: Any, what: str) -> int:
        if key is None:
            if len(ports) != 1:
                raise RuntimeError(f"PrePostProcessor: the model has {len(ports)} {what}s; "
                                   f"name one: {what}(index) or {what}('tensor name')")
            return 0
        if isinstance(key, (int, np.integer)):
            if not 0 <= int(key) < len(ports):
                raise RuntimeError(f"PrePostProcessor: {what} index {key} is out of range "
                                   f"({len(ports)} {what}s)")
            return int(key)
        for i, port in enumerate(ports):
            if key in port.get_names() or key == port.get_node().get_friendly_name():
                return i
        raise RuntimeError(f"PrePostProcessor: the model has no {what} named '{key}'")

    def input(self, *args: Any, tensor_name: str | None = None,
              input_index: int | None = None) -> InputInfo:
        """``input()``, ``input(tensor_name)`` or ``input(input_index)``."""
        key = _one_key(args, tensor_name, input_index, "input")
        return self._inputs.setdefault(self._index(self._model.inputs, key, "input"), InputInfo())

    def output(self, *args: Any, tensor_name: str | None = None,
               output_index: int | None = None) -> OutputInfo:
        """``output()``, ``output(tensor_name)`` or ``output(output_index)``."""
        key = _one_key(args, tensor_name, output_index, "output")
        return self._outputs.setdefault(self._index(self._model.outputs, key, "output"),
                                        OutputInfo())

    def build(self) -> Any:
        """Add the steps to the model (in place) and return it."""
        model = self._model
        params = model.get_parameters()
        new_params = [build_input(p, self._inputs[i]) if i in self._inputs else p
                      for i, p in enumerate(params)]
        results = model.get_results()
        for i, info in self._outputs.items():
            build_output(results[i], info)
        name, friendly, rt_info = model._name, model._friendly_name, model._rt_info
        model._init(results, new_params, friendly, strict=False)  # re-sort and re-plan
        model._name, model._rt_info = name, rt_info
        return model

    def __repr__(self) -> str:
        return f"<PrePostProcessor of '{self._model.get_friendly_name()}'>"


def _one_key(args: tuple, tensor_name: str | None, index: int | None, what: str) -> Any:
    """The one port key of ``PrePostProcessor.input/output`` (positional or by keyword)."""
    given = [*args, *(k for k in (tensor_name, index) if k is not None)]
    if len(given) > 1:
        raise TypeError(f"PrePostProcessor.{what}() takes one tensor name or index, "
                        f"got {len(given)}")
    return given[0] if given else None
