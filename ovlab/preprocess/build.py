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
from ..sim.graph.layout import Layout, layout_of
from ..sim.graph.node import Output
from ..sim.graph.types import Type
from .info import ColorFormat, InputInfo, OutputInfo, PaddingMode, ResizeAlgorithm

_RESIZE_MODES = {ResizeAlgorithm.RESIZE_LINEAR: "linear", ResizeAlgorithm.RESIZE_CUBIC: "cubic",
                 ResizeAlgorithm.RESIZE_NEAREST: "nearest",
                 ResizeAlgorithm.RESIZE_BILINEAR_PILLOW: "bilinear_pillow",
                 ResizeAlgorithm.RESIZE_BICUBIC_PILLOW: "bicubic_pillow"}


# OpenVINO's names of the colour formats, as its messages print them
_COLOR_NAMES = {ColorFormat.UNDEFINED: "Unknown", ColorFormat.NV12_SINGLE_PLANE: "NV12 (single plane)",
                ColorFormat.NV12_TWO_PLANES: "NV12 (multi-plane)",
                ColorFormat.I420_SINGLE_PLANE: "I420 (single plane)",
                ColorFormat.I420_THREE_PLANES: "I420 (multi-plane)", ColorFormat.RGB: "RGB",
                ColorFormat.BGR: "BGR", ColorFormat.GRAY: "GRAY", ColorFormat.RGBX: "RGBX",
                ColorFormat.BGRX: "BGRX"}
_CHANNELS = {ColorFormat.RGB: 3, ColorFormat.BGR: 3, ColorFormat.RGBX: 4, ColorFormat.BGRX: 4,
             ColorFormat.GRAY: 1}
_PLANAR = (ColorFormat.NV12_SINGLE_PLANE, ColorFormat.NV12_TWO_PLANES,
           ColorFormat.I420_SINGLE_PLANE, ColorFormat.I420_THREE_PLANES)
# ITU-R BT.601 luma weights, as OpenVINO's RGB -> GRAY step uses them
_GRAY_WEIGHTS = (0.299, 0.587, 0.114)
_PAD_MODES = {PaddingMode.CONSTANT: "constant", PaddingMode.REFLECT: "reflect",
              PaddingMode.SYMMETRIC: "symmetric"}


def _values(value: Any) -> str:
    """``1,2,3``: the values of a mean/scale step as OpenVINO's dump prints them."""
    return ",".join(f"{float(v):g}" for v in np.atleast_1d(np.asarray(value, dtype=float)))


def _channel_axis(layout: Layout | None, rank: int, color: ColorFormat | None) -> int:
    """The channel axis: the layout's 'C', else the last one for a colour image (NHWC)."""
    if layout is not None and layout.has_name("C"):
        return layout.get_index_by_name("C") % rank
    if color is not None:
        return rank - 1
    raise RuntimeError("Check 'ov::layout::has_channels(context.layout())' failed at "
                       "src/core/src/preprocess/preprocess_steps_impl.cpp:667:\n"
                       f"Layout {layout or Layout()} doesn't have `channels` dimension\n")


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
    """The tensor as the steps transform it: an output port, what its dimensions mean and its
    colour format. ``log`` gets one line per step for ``str(PrePostProcessor)``."""

    def __init__(self, out: Output, layout: Layout | None, color: ColorFormat | None = None,
                 dynamic_spatial: bool = False) -> None:
        self.out, self.layout, self.color = out, layout, color
        self.dynamic_spatial = dynamic_spatial  # printed as '?' until a resize
        self.log: list[str] = []

    def state(self) -> str:
        """``([1,224,224,3], [N,H,W,C], u8)``, with the colour format when one is set."""
        dims = [str(d) for d in self.shape]
        if self.dynamic_spatial and self.layout is not None:
            for name in ("H", "W"):
                if self.layout.has_name(name):
                    dims[self.layout.get_index_by_name(name) % len(dims)] = "?"
        layout = "<no layout>" if self.layout is None else self.layout.to_string()
        color = "" if self.color is None else f", {_COLOR_NAMES[self.color]}"
        return f"([{','.join(dims)}], {layout}, {self.type.get_type_name()}{color})"

    def step(self, text: str, action: Any, *args: Any) -> None:
        """Run one step and log it as OpenVINO's dump does (``text: before -> after``)."""
        before = self.state()
        try:
            action(*args)
        except Exception:
            self.log.append(f"{text}: {before}")
            raise
        self.log.append(f"{text}: {before} -> {self.state()}")

    @property
    def shape(self) -> list[int]:
        return list(self.out.get_shape())

    @property
    def type(self) -> Type:
        return self.out.get_element_type()

    def convert(self, element_type: Type) -> None:
        if element_type != self.type:
            self.out = ops.convert(self.out, element_type).output(0)

    def transpose(self, order: list[int], layout: Layout | None, always: bool = False) -> None:
        """Permute the axes (an explicit order is a Transpose even when it keeps them, as
        OpenVINO builds it; a layout conversion that keeps them adds nothing)."""
        if always or order != list(range(len(order))):
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

    def reverse_channels(self) -> None:
        rank = len(self.shape)
        axis = _channel_axis(self.layout, rank, None)
        indices = np.arange(self.shape[axis] - 1, -1, -1, dtype=np.int64)
        self.out = ops.gather(self.out, ops.constant(indices),
                              ops.constant(np.array(axis, np.int64))).output(0)

    def convert_color(self, dst: ColorFormat) -> None:
        src = self.color if self.color is not None else ColorFormat.UNDEFINED
        rgb = (ColorFormat.RGB, ColorFormat.BGR)
        if src == dst:
            return
        if src in _PLANAR and dst in rgb:
            raise NotImplementedError(
                f"PrePostProcessor: converting {_COLOR_NAMES[src]} to {_COLOR_NAMES[dst]} is not "
                "available on ovlab (planar NV12/I420 inputs, which cameras and video decoders "
                "give, are not simulated; give an RGB or BGR tensor)")
        if src in rgb and dst in rgb:
            axis = _channel_axis(self.layout, len(self.shape), src)
            self.out = ops.gather(self.out, ops.constant(np.array([2, 1, 0], np.int64)),
                                  ops.constant(np.array(axis, np.int64))).output(0)
        elif src in (ColorFormat.RGBX, ColorFormat.BGRX) and dst in rgb:
            rank = len(self.shape)
            axis = _channel_axis(self.layout, rank, src)
            first = src == ColorFormat.RGBX
            order = [0, 1, 2] if first == (dst == ColorFormat.RGB) else [2, 1, 0]
            self.out = ops.gather(self.out, ops.constant(np.array(order, np.int64)),
                                  ops.constant(np.array(axis, np.int64))).output(0)
        elif src in rgb and dst == ColorFormat.GRAY:
            self._to_gray(src)
        else:
            raise RuntimeError("Check 'false' failed at src/core/src/preprocess/"
                               "preprocess_steps_impl.cpp:638:\nSource color format "
                               f"'{_COLOR_NAMES[src]}' is not convertible to "
                               f"'{_COLOR_NAMES[dst]}'\n")
        self.color = dst

    def _to_gray(self, src: ColorFormat) -> None:
        """A 1x1 convolution with the luma weights over the channels, moved to axis 1 and back
        (OpenVINO builds the same Transpose, Convolution, Transpose)."""
        rank = len(self.shape)
        if rank != 4:
            raise RuntimeError(f"Input shape size should be equal to 4, actual size: {rank}")
        if not self.type.is_real():
            raise RuntimeError("PrePostProcessor: RGB to GRAY is applied to 'float' inputs; add "
                               "convert_element_type before it")
        axis = _channel_axis(self.layout, rank, src)
        order = [0, axis] + [i for i in range(1, rank) if i != axis]
        back = [order.index(i) for i in range(rank)]
        weights = _GRAY_WEIGHTS if src == ColorFormat.RGB else _GRAY_WEIGHTS[::-1]
        w = ops.constant(np.array(weights, self.type.to_dtype()).reshape(1, 3, 1, 1))
        x = self.out if order == list(range(rank)) else \
            ops.transpose(self.out, np.array(order, np.int64)).output(0)
        y = ops.convolution(x, w, [1, 1], [0, 0], [0, 0], [1, 1]).output(0)
        self.out = y if back == list(range(rank)) else \
            ops.transpose(y, np.array(back, np.int64)).output(0)

    def crop(self, begin: list[int], end: list[int]) -> None:
        rank = len(self.shape)
        if len(begin) != rank or len(end) != rank:
            raise RuntimeError(f"PrePostProcessor: crop begin {begin} and end {end} must have "
                               f"one value per dimension of the tensor ({rank})")
        self.out = ops.slice(self.out, np.array(begin, np.int64), np.array(end, np.int64),
                             np.ones(rank, np.int64), np.arange(rank, dtype=np.int64)).output(0)

    def pad(self, begin: list[int], end: list[int], value: Any, mode: PaddingMode,
            model_shape: list[int], name: str) -> None:
        if not self.type.is_real():
            raise RuntimeError(
                "Check 'element_type.is_real()' failed at src/core/src/preprocess/"
                "preprocess_steps_impl.cpp:206:\nPad preprocessing can be applied to 'float' "
                "inputs. Consider using of 'convert_element_type' before padding. Current type "
                f"is: {self.type.get_type_name()}\n")
        rank = len(self.shape)
        for what, pads in (("pads_begin", begin), ("pads_end", end)):
            if len(pads) != rank:
                raise RuntimeError(f"length of {what} mismatches with rank of input, expect "
                                   f"{rank}, but got {len(pads)}")
        if np.ndim(value) != 0:
            raise NotImplementedError("PrePostProcessor pad: one pad value per channel is not "
                                      "available on ovlab yet; give one value")
        out = [d + b + e for d, b, e in zip(self.shape, begin, end, strict=True)]
        if any(d < 0 for d in out):  # nothing is left of that dimension
            _not_aligned([max(d, 0) for d in out], model_shape, name)
        fill = ops.constant(np.array(value, self.type.to_dtype()))
        self.out = ops.pad(self.out, np.array(begin, np.int64), np.array(end, np.int64),
                           _PAD_MODES[mode], fill).output(0)

    def custom(self, operation: Any) -> None:
        result = operation(self.out)
        if hasattr(result, "output") and not isinstance(result, Output):
            result = result.output(0)
        if not isinstance(result, Output):
            raise RuntimeError(f"PrePostProcessor custom step: the function returned "
                               f"{result!r}, not a node or an output")
        self.out = result

    def mean(self, value: Any) -> None:
        self.out = ops.subtract(self.out, ops.constant(self._per_channel(value, "mean"))).output(0)

    def scale(self, value: Any) -> None:
        divisor = self._per_channel(value, "scale")
        # OpenVINO multiplies by the reciprocal (its graph shows a Multiply)
        recip = (np.ones_like(divisor) / divisor).astype(divisor.dtype)
        self.out = ops.multiply(self.out, ops.constant(recip)).output(0)

    def resize(self, algorithm: ResizeAlgorithm, size: tuple[int, int]) -> None:
        if self.layout is None or not (self.layout.has_name("H") and self.layout.has_name("W")):
            raise RuntimeError("PrePostProcessor: resize needs a layout with 'H' and 'W'")
        rank = len(self.shape)
        axes = [self.layout.get_index_by_name("H") % rank, self.layout.get_index_by_name("W") % rank]
        self.out = ops.interpolate(self.out, np.array(size, np.int64), _RESIZE_MODES[algorithm],
                                   "sizes", axes=np.array(axes, np.int64)).output(0)


def _not_aligned(shape: list[int], model_shape: list[int], name: str) -> None:
    raise RuntimeError("Check 'node.get_partial_shape().compatible(context.model_shape())' "
                       "failed at src/core/src/preprocess/preprocess_impls.cpp:206:\nResulting "
                       f"shape '[{','.join(map(str, shape))}]' after preprocessing is not aligned "
                       f"with original parameter's shape: [{','.join(map(str, model_shape))}], "
                       f"input parameter: {name}\n")


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


def _input_shape(model_shape: list[int], model_layout: Layout | None, layout: Layout | None,
                 info: InputInfo) -> list[int]:
    """The application's tensor shape: given, else the model's in the tensor's layout, with its
    spatial size and its colour format's channel count when those are given."""
    tensor = info.tensor()
    if tensor.shape is not None:
        return list(tensor.shape)
    if layout is not None and model_layout is not None and layout != model_layout:
        shape = [model_shape[i] for i in _permutation(model_layout, layout, len(model_shape))]
    else:
        shape = list(model_shape)
    if tensor.spatial is not None:
        if layout is None or not (layout.has_name("H") and layout.has_name("W")):
            raise RuntimeError("PrePostProcessor: set_spatial_static_shape needs a tensor layout "
                               "with 'H' and 'W'")
        shape[layout.get_index_by_name("H") % len(shape)] = tensor.spatial[0]
        shape[layout.get_index_by_name("W") % len(shape)] = tensor.spatial[1]
    targets = [arg for step, arg in info.preprocess().steps if step == "convert_color"]
    src = tensor.color_format
    if targets and src in _CHANNELS and targets[-1] in _CHANNELS and shape:
        axis = _channel_axis(layout, len(shape), src)
        if shape[axis] == _CHANNELS[targets[-1]]:
            shape[axis] = _CHANNELS[src]
    return shape


def build_input(param: Any, info: InputInfo, log: list[str] | None = None) -> Any:
    """A new Parameter and the preprocessing chain that replaces ``param``; returns it. With
    ``log``, the lines of OpenVINO's dump of this input are appended to it."""
    model_out = param.output(0)
    model_shape, model_type = list(model_out.get_shape()), model_out.get_element_type()
    model_layout = info.model().layout or (layout_of(model_out) if "layout" in
                                           model_out.get_rt_info() else None)
    tensor = info.tensor()
    if tensor.spatial_dynamic and log is None:
        raise NotImplementedError("PrePostProcessor: set_spatial_dynamic_shape is not available "
                                  "on ovlab (its models are static: give the tensor's size with "
                                  "set_shape or set_spatial_static_shape)")
    layout = tensor.layout or model_layout
    shape = _input_shape(model_shape, model_layout, layout, info)
    name = param.get_friendly_name()
    new_param = ops.parameter(shape, tensor.element_type or model_type, name=name)
    if layout is not None:
        new_param.output(0).get_rt_info()["layout"] = layout.to_string()
    if tensor.memory_type is not None:
        new_param.output(0).get_rt_info()["memory_type"] = tensor.memory_type
    chain = _Chain(new_param.output(0), layout, tensor.color_format, tensor.spatial_dynamic)
    if log is not None:
        color = "" if tensor.color_format is None else \
            f" (color {_COLOR_NAMES[tensor.color_format]})"
        log += [f'Input "{model_out.get_any_name() if model_out.get_names() else name}"{color}:',
                f"    User's input tensor: {_Chain(new_param.output(0), layout).state()[1:-1]}",
                f"    Model's expected tensor: {_Chain(model_out, model_layout).state()[1:-1]}"]
    explicit: list[str] | None = None
    try:
        _input_steps(chain, info, model_shape, model_type, model_layout, name)
        explicit, chain.log = chain.log, []
        if model_type != chain.type:
            chain.step(f"convert type ({model_type.get_type_name()})", chain.convert, model_type)
        if model_layout is not None and chain.layout is not None and chain.layout != model_layout:
            chain.step(f"convert layout {model_layout.to_string()}", chain.to_layout, model_layout)
        elif model_layout is not None and chain.layout is None:
            chain.layout = model_layout
        implicit = chain.log
    except Exception as e:
        if log is None:
            raise
        log += _dump_steps("Pre-processing steps", chain.log if explicit is None else explicit)
        if explicit is not None:
            log += _dump_steps("Implicit pre-processing steps", chain.log)
        log[-1] += f"\nError occurred: {e}"
        return new_param
    if log is not None:
        log += _dump_steps("Pre-processing steps", explicit)
        log += _dump_steps("Implicit pre-processing steps", implicit)
    if chain.shape != model_shape:
        _not_aligned(chain.shape, model_shape, name)
    new_param.output(0).set_names(model_out.get_names())
    if log is None:
        _rewire(model_out, chain.out)
    return new_param


def _dump_steps(title: str, lines: list[str]) -> list[str]:
    return [f"    {title} ({len(lines)}):", *(f"      {line}" for line in lines)] if lines else []


def _input_steps(chain: _Chain, info: InputInfo, model_shape: list[int], model_type: Type,
                 model_layout: Layout | None, name: str) -> None:
    """The explicit steps, in the order given."""
    for step, arg in info.preprocess().steps:
        if step == "convert_element_type":
            target = arg or model_type
            chain.step(f"convert type ({target.get_type_name()})", chain.convert, target)
        elif step == "convert_layout":
            target = arg or model_layout or chain.layout
            chain.step(f"convert layout {target.to_string()}", chain.to_layout, target)
        elif step == "convert_layout_order":
            chain.step(f"convert layout ({','.join(map(str, arg))})", chain.transpose, arg, None,
                       True)
        elif step == "mean":
            chain.step(f"mean ({_values(arg)})", chain.mean, arg)
        elif step == "scale":
            chain.step(f"scale ({_values(arg)})", chain.scale, arg)
        elif step == "reverse_channels":
            chain.step("reverse channels", chain.reverse_channels)
        elif step == "convert_color":
            chain.step(f"convert color ({_COLOR_NAMES[arg]})", chain.convert_color, arg)
        elif step == "crop":
            begin, end = arg
            chain.step(f"Crop ([ {', '.join(map(str, begin))} ],[ {', '.join(map(str, end))} ])",
                       chain.crop, begin, end)
        elif step == "pad":
            begin, end, value, mode = arg
            chain.step(f"pad(begin ({','.join(map(str, begin))}), end "
                       f"({','.join(map(str, end))}), with ({_values(value)}))",
                       chain.pad, begin, end, value, mode, model_shape, name)
        elif step == "custom":
            chain.step("custom", chain.custom, arg)
        elif step == "resize":
            algorithm, size = arg
            target = size or _spatial(model_shape, model_layout or chain.layout)
            if target is None:
                raise RuntimeError("PrePostProcessor: resize needs the model's layout with 'H' "
                                   "and 'W' (model().set_layout(...)) or a size")
            text = "resize to model width/height" if size is None else \
                f"resize to ({size[0]}, {size[1]})"
            chain.step(text, chain.resize, algorithm, target)
            chain.dynamic_spatial = False


def build_output(result: Any, info: OutputInfo, log: list[str] | None = None) -> None:
    """Insert the postprocessing chain between ``result`` and what it reads (with ``log``: only
    append the lines of OpenVINO's dump of this output)."""
    src = result.input_value(0)
    layout = info.model().layout or (layout_of(src) if "layout" in src.get_rt_info() else None)
    chain = _Chain(src, layout)
    if log is not None:
        name = src.get_any_name() if src.get_names() else result.get_friendly_name()
        log += [f'Output "{name}":', f"    Model's data tensor: {chain.state()[1:-1]}"]
    for step, arg in info.postprocess().steps:
        if step == "convert_element_type":
            target = arg or info.tensor().element_type or chain.type
            chain.step(f"convert type ({target.get_type_name()})", chain.convert, target)
        elif step == "convert_layout":
            target = arg or info.tensor().layout or chain.layout
            chain.step(f"convert layout {target.to_string()}", chain.to_layout, target)
        elif step == "convert_layout_order":
            chain.step(f"convert layout ({','.join(map(str, arg))})", chain.transpose, arg, None,
                       True)
        elif step == "custom":
            chain.step("custom", chain.custom, arg)
    explicit, chain.log = chain.log, []
    tensor = info.tensor()
    if tensor.element_type is not None and tensor.element_type != chain.type:
        chain.step(f"convert type ({tensor.element_type.get_type_name()})", chain.convert,
                   tensor.element_type)
    if tensor.layout is not None and chain.layout is not None and chain.layout != tensor.layout:
        chain.step(f"convert layout {tensor.layout.to_string()}", chain.to_layout, tensor.layout)
    if log is not None:
        log += _dump_steps("Post-processing steps", explicit)
        log += _dump_steps("Post-processing implicit steps", chain.log)
        log.append(f"    User's output tensor: {chain.state()[1:-1]}")
        return
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

    def __str__(self) -> str:
        """OpenVINO's dump: each configured input and output, its tensors and its steps with
        the shape, layout and type before and after each (from a trial build that leaves the
        model untouched; an error shows where it happens)."""
        log: list[str] = []
        params, results = self._model.get_parameters(), self._model.get_results()
        for i, info in sorted(self._inputs.items()):
            build_input(params[i], info, log)
        for i, info in sorted(self._outputs.items()):
            build_output(results[i], info, log)
        return "".join(line + "\n" for line in log)

    def __repr__(self) -> str:
        return f"<PrePostProcessor of '{self._model.get_friendly_name()}'>"


def _one_key(args: tuple, tensor_name: str | None, index: int | None, what: str) -> Any:
    """The one port key of ``PrePostProcessor.input/output`` (positional or by keyword)."""
    given = [*args, *(k for k in (tensor_name, index) if k is not None)]
    if len(given) > 1:
        raise TypeError(f"PrePostProcessor.{what}() takes one tensor name or index, "
                        f"got {len(given)}")
    return given[0] if given else None
