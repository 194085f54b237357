"""Every part of the real ``openvino`` API that ovlab serves only as a stand-in, with the reason.

ovlab simulates devices, scheduling and time; what lies outside that (device memory shared with
OpenCL or VA-API, custom ops written in Python or loaded from libraries, model conversion from
frameworks, unloading the native libraries...) is served under its real name so that imports
work, and raises ``NotImplementedError`` naming the feature when it is *used* -- called or
instantiated -- never at import. This module is the one list of them: the runner's served
modules (``served.py``, ``served_genai.py`` with GenAI's pipelines other than text generation) and the surface test (``tests/runner/test_openvino_surface.py``) read it.
"""

from __future__ import annotations

import functools
from typing import Any

# Real name (as the last part of its dotted name) -> the feature it stands for, for the error.
UNSIMULATED = {
    "RemoteTensor": "remote tensors (device memory shared with OpenCL/VA-API)",
    "RemoteContext": "remote contexts (device memory shared with OpenCL/VA-API)",
    "VAContext": "VA-API remote contexts",
    "VASurfaceTensor": "VA-API surface tensors",
    "Op": "custom operations written in Python",
    "OpExtension": "custom-op extensions",
    "shutdown": "unloading the OpenVINO libraries",
    # openvino.utils: helpers of the graph builder that wrap pybind internals
    "numpy_to_c": "raw C pointers to NumPy buffers",
    "get_cmake_path": "the CMake files of the OpenVINO developer package",
    "make_postponed_constant": "postponed constants (constants computed at serialization)",
    # openvino.passes: C++ transformations (ovlab.passes offers the manager, ConstantFolding,
    # Serialize and the pattern-matching passes)
    "LowLatency2": "the LowLatency2 transformation (models are built stateful with ovlab.opset)",
    "VisualizeTree": "graph drawing with Graphviz (ovlab.sim.viz draws models)",
    # openvino.frontend: ovlab.frontend serves FrontEndManager, FrontEnd, InputModel
    "Place": "places of an input model (editing a model before conversion)",
    "NodeContext": "front-end conversion extensions (framework model conversion)",
    "ConversionExtension": "front-end conversion extensions (framework model conversion)",
    "DecoderTransformationExtension": "front-end extensions (framework model conversion)",
    "ProgressReporterExtension": "front-end extensions (framework model conversion)",
    "TelemetryExtension": "front-end telemetry extensions",
    "GeneralFailure": "front-end exception classes (ovlab raises RuntimeError, as the wheel's "
                      "read_model does)",
    "InitializationFailure": "front-end exception classes",
    "NotImplementedFailure": "front-end exception classes",
    "OpConversionFailure": "front-end exception classes",
    "OpValidationFailure": "front-end exception classes",
}
MESSAGE = ("{qualname} is not available on ovlab: {what} is not simulated (ovlab simulates "
           "devices, scheduling and time; see README 'How ovlab maps to OpenVINO')")


def feature(qualname: str) -> str:
    """The feature a real name stands for, in words."""
    return UNSIMULATED.get(qualname.rsplit(".", 1)[-1], "this part of the OpenVINO API")


@functools.cache
def standin(qualname: str, what: str | None = None) -> type:
    """A stand-in for the real class or function ``qualname``: importing it works, and calling
    or instantiating it raises ``NotImplementedError`` naming the feature (``what``, else the
    one :data:`UNSIMULATED` gives)."""
    message = MESSAGE.format(qualname=qualname, what=what or feature(qualname))

    class Unsupported:
        __doc__ = message
        __ovlab_standin__ = message

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise NotImplementedError(message)

    Unsupported.__name__ = Unsupported.__qualname__ = qualname.rsplit(".", 1)[-1]
    Unsupported.__module__ = qualname.rsplit(".", 1)[0]
    return Unsupported


def is_standin(value: Any) -> bool:
    """True for a stand-in (a name served only to raise when used)."""
    return getattr(value, "__ovlab_standin__", None) is not None
