"""``ovlab.preprocess``: OpenVINO's ``PrePostProcessor`` for the common path.

``PrePostProcessor(model)`` describes the tensor the application gives (element type, layout,
shape) and the steps that turn it into what the model expects (convert element type, convert
layout, resize, mean, scale); ``build()`` adds those steps to the model as real ops (Convert,
Transpose, Subtract, Multiply, Interpolate), so the numerics stay NumPy's and every device
times them like any other op. Colour conversion between RGB and BGR (Gather) and to GRAY
(Convolution), crop (Slice), pad (Pad) and the user's custom steps are built the same way.
Outputs get a Convert and a Transpose. What a simulator of devices does not offer (planar
NV12/I420 inputs, remote memory, a pad value per channel) raises ``NotImplementedError`` naming
the step when it is called.
"""

from .build import PrePostProcessor
from .info import (
    ColorFormat,
    InputInfo,
    InputModelInfo,
    InputTensorInfo,
    OutputInfo,
    OutputModelInfo,
    OutputTensorInfo,
    PaddingMode,
    PostProcessSteps,
    PreProcessSteps,
    ResizeAlgorithm,
)

__all__ = ["ColorFormat", "InputInfo", "InputModelInfo", "InputTensorInfo", "OutputInfo",
           "OutputModelInfo", "OutputTensorInfo", "PaddingMode", "PostProcessSteps",
           "PreProcessSteps", "PrePostProcessor", "ResizeAlgorithm"]
