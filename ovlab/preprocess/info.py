"""What the application says about one input or output: its tensor, the model's side, and the
steps in between (the builder objects of ``openvino.preprocess``)."""

from __future__ import annotations

from typing import Any

from ..properties._base import OVEnum, add_entries
from ..sim.graph.layout import Layout
from ..sim.graph.types import Type, as_type


class ResizeAlgorithm(OVEnum):
    RESIZE_LINEAR = 0
    RESIZE_CUBIC = 1
    RESIZE_NEAREST = 2
    RESIZE_BILINEAR_PILLOW = 3
    RESIZE_BICUBIC_PILLOW = 4


class ColorFormat(OVEnum):
    UNDEFINED = 0
    NV12_SINGLE_PLANE = 1
    NV12_TWO_PLANES = 2
    I420_SINGLE_PLANE = 3
    I420_THREE_PLANES = 4
    RGB = 5
    BGR = 6
    GRAY = 7
    RGBX = 8
    BGRX = 9


class PaddingMode(OVEnum):
    CONSTANT = 0
    REFLECT = 2
    SYMMETRIC = 3


add_entries(ResizeAlgorithm, ColorFormat, PaddingMode)


class InputTensorInfo:
    """The tensor the application will pass: ``set_element_type``, ``set_layout``,
    ``set_shape``, ``set_spatial_static_shape``, ``set_color_format``, ``set_memory_type``.
    Each setter returns ``self`` (chaining)."""

    def __init__(self) -> None:
        self.element_type: Type | None = None
        self.layout: Layout | None = None
        self.shape: list[int] | None = None
        self.spatial: tuple[int, int] | None = None
        self.spatial_dynamic = False
        self.color_format: ColorFormat | None = None
        self.sub_names: list[str] = []
        self.memory_type: str | None = None

    def set_element_type(self, type: Any) -> InputTensorInfo:  # noqa: A002 - the real name
        self.element_type = as_type(type)
        return self

    def set_layout(self, layout: Layout | str) -> InputTensorInfo:
        self.layout = Layout(layout)
        return self

    def set_shape(self, shape: Any) -> InputTensorInfo:
        self.shape = [int(d) for d in shape]
        return self

    def set_spatial_static_shape(self, height: int, width: int) -> InputTensorInfo:
        self.spatial = (int(height), int(width))
        return self

    def set_spatial_dynamic_shape(self) -> InputTensorInfo:
        """Recorded (and printed); ``build()`` refuses it, as ovlab's models are static."""
        self.spatial_dynamic = True
        return self

    def set_color_format(self, format: ColorFormat,  # noqa: A002 - the real name
                         sub_names: list[str] = []) -> InputTensorInfo:  # noqa: B006 - as the wheel
        if not isinstance(format, ColorFormat):
            raise TypeError(f"set_color_format(): expected a ColorFormat, got {format!r}")
        self.color_format, self.sub_names = format, [str(n) for n in sub_names]
        return self

    def set_memory_type(self, memory_type: str) -> InputTensorInfo:
        """Recorded on the new Parameter's tensor as rt_info ``memory_type``, as the wheel does
        (a plugin's remote memory is not simulated, so nothing else reads it)."""
        self.memory_type = str(memory_type)
        return self

    def set_from(self, tensor: Any) -> InputTensorInfo:
        """Take the element type and shape of an array or Tensor."""
        data = tensor.data if hasattr(tensor, "data") and hasattr(tensor, "get_shape") else tensor
        self.element_type = as_type(data.dtype)
        self.shape = list(data.shape)
        return self


class PreProcessSteps:
    """The steps, in the order given; each returns ``self``."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, Any]] = []

    def convert_element_type(self, type: Any = None) -> PreProcessSteps:  # noqa: A002 - the real name
        self.steps.append(("convert_element_type", None if type is None else as_type(type)))
        return self

    def convert_layout(self, dst_layout: Any = None, dims: Any = None) -> PreProcessSteps:
        """To a layout (``dst_layout``) or by a permutation (``dims``, or a list given first)."""
        layout = dims if dims is not None else dst_layout
        if isinstance(layout, (list, tuple)):
            self.steps.append(("convert_layout_order", [int(i) for i in layout]))
        else:
            self.steps.append(("convert_layout", None if layout is None else Layout(layout)))
        return self

    def resize(self, alg: ResizeAlgorithm, dst_height: int | None = None,
               dst_width: int | None = None) -> PreProcessSteps:
        if not isinstance(alg, ResizeAlgorithm):
            raise TypeError(f"resize(): expected a ResizeAlgorithm, got {alg!r}")
        size = None if dst_height is None else (int(dst_height), int(dst_width))
        self.steps.append(("resize", (alg, size)))
        return self

    def mean(self, value: float | list[float] | None = None, *,
             values: list[float] | None = None) -> PreProcessSteps:
        self.steps.append(("mean", values if values is not None else value))
        return self

    def scale(self, value: float | list[float] | None = None, *,
              values: list[float] | None = None) -> PreProcessSteps:
        self.steps.append(("scale", values if values is not None else value))
        return self

    def convert_color(self, dst_format: ColorFormat) -> PreProcessSteps:
        if not isinstance(dst_format, ColorFormat):
            raise TypeError(f"convert_color(): expected a ColorFormat, got {dst_format!r}")
        self.steps.append(("convert_color", dst_format))
        return self

    def reverse_channels(self) -> PreProcessSteps:
        self.steps.append(("reverse_channels", None))
        return self

    def crop(self, begin: list[int], end: list[int]) -> PreProcessSteps:
        self.steps.append(("crop", ([int(b) for b in begin], [int(e) for e in end])))
        return self

    def pad(self, pads_begin: list[int], pads_end: list[int], value: Any,
            mode: PaddingMode) -> PreProcessSteps:
        if not isinstance(mode, PaddingMode):
            raise TypeError(f"pad(): expected a PaddingMode, got {mode!r}")
        self.steps.append(("pad", ([int(b) for b in pads_begin], [int(e) for e in pads_end],
                                   value, mode)))
        return self

    def custom(self, operation: Any) -> PreProcessSteps:
        """A Python function of the tensor so far (an ``Output``) returning the next one."""
        if not callable(operation):
            raise TypeError(f"custom(): expected a callable, got {operation!r}")
        self.steps.append(("custom", operation))
        return self


class InputModelInfo:
    """What the model expects: its layout (``set_layout``)."""

    def __init__(self) -> None:
        self.layout: Layout | None = None

    def set_layout(self, layout: Layout | str) -> InputModelInfo:
        self.layout = Layout(layout)
        return self


class InputInfo:
    """``ppp.input(...)``: ``tensor()``, ``preprocess()``, ``model()``."""

    def __init__(self) -> None:
        self._tensor, self._steps, self._model = InputTensorInfo(), PreProcessSteps(), \
            InputModelInfo()

    def tensor(self) -> InputTensorInfo:
        return self._tensor

    def preprocess(self) -> PreProcessSteps:
        return self._steps

    def model(self) -> InputModelInfo:
        return self._model


class OutputTensorInfo:
    """The tensor the application wants back: ``set_element_type``, ``set_layout``."""

    def __init__(self) -> None:
        self.element_type: Type | None = None
        self.layout: Layout | None = None

    def set_element_type(self, type: Any) -> OutputTensorInfo:  # noqa: A002 - the real name
        self.element_type = as_type(type)
        return self

    def set_layout(self, layout: Layout | str) -> OutputTensorInfo:
        self.layout = Layout(layout)
        return self


class PostProcessSteps:
    def __init__(self) -> None:
        self.steps: list[tuple[str, Any]] = []

    def convert_element_type(self, type: Any = None) -> PostProcessSteps:  # noqa: A002 - the real name
        self.steps.append(("convert_element_type", None if type is None else as_type(type)))
        return self

    def convert_layout(self, dst_layout: Any = None, dims: Any = None) -> PostProcessSteps:
        """To a layout (``dst_layout``) or by a permutation (``dims``, or a list given first)."""
        layout = dims if dims is not None else dst_layout
        if isinstance(layout, (list, tuple)):
            self.steps.append(("convert_layout_order", [int(i) for i in layout]))
        else:
            self.steps.append(("convert_layout", None if layout is None else Layout(layout)))
        return self

    def custom(self, operation: Any) -> PostProcessSteps:
        """A Python function of the tensor so far (an ``Output``) returning the next one."""
        if not callable(operation):
            raise TypeError(f"custom(): expected a callable, got {operation!r}")
        self.steps.append(("custom", operation))
        return self


class OutputModelInfo:
    def __init__(self) -> None:
        self.layout: Layout | None = None

    def set_layout(self, layout: Layout | str) -> OutputModelInfo:
        self.layout = Layout(layout)
        return self


class OutputInfo:
    """``ppp.output(...)``: ``tensor()``, ``postprocess()``, ``model()``."""

    def __init__(self) -> None:
        self._tensor, self._steps, self._model = OutputTensorInfo(), PostProcessSteps(), \
            OutputModelInfo()

    def tensor(self) -> OutputTensorInfo:
        return self._tensor

    def postprocess(self) -> PostProcessSteps:
        return self._steps

    def model(self) -> OutputModelInfo:
        return self._model
