"""Builder functions with ``openvino.opset13``'s names, argument order and defaults.

A script written as ``import openvino.opset13 as ops`` runs unchanged with
``import ovlab.opset13 as ops``. Inputs may be nodes (meaning their output 0), ``Output`` ports,
or, where OpenVINO accepts them, numpy arrays and Python scalars, which become Constants with
numpy's dtype (so ``1.0`` is f64, as in OpenVINO, and mixing it with f32 is an error). Each
builder lives beside its op definition (``elementwise.py``, ``shape_ops.py``, ``index_ops.py``,
``reduce_ops.py``, ``nn_ops.py``, ``norm_ops.py``, ``resize_ops.py``); this module gathers them.
``docs/supported-ops.md`` lists them with their op types and versions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import (  # the *_ops beyond opset13's builders are served by opset_versions.py
    beam_ops,  # noqa: F401
    color_ops,  # noqa: F401
    ctc_decoder_ops,  # noqa: F401
    ctc_ops,  # noqa: F401
    deformable_ops,  # noqa: F401
    detection_ops,  # noqa: F401
    elementwise,
    embedding_ops,  # noqa: F401
    embedding_sum_ops,  # noqa: F401
    f8_ops,  # noqa: F401
    fft_ops,  # noqa: F401
    fold_ops,  # noqa: F401
    index_ops,
    linalg_ops,  # noqa: F401
    nms_ops,  # noqa: F401
    nms_rotated_ops,  # noqa: F401
    nn_ops,
    norm_ops,
    prior_box_ops,  # noqa: F401
    promote_ops,  # noqa: F401
    psroi_ops,  # noqa: F401
    random_ops,  # noqa: F401
    reduce_ops,
    resize_ops,
    rnn_ops,  # noqa: F401
    roi_align_ops,  # noqa: F401
    search_ops,  # noqa: F401
    segment_ops,  # noqa: F401
    shape_ops,
    slice_scatter_ops,  # noqa: F401
    state_ops,
    string_ops,  # noqa: F401
    yolo_ops,  # noqa: F401
)
from .elementwise import *  # noqa: F403
from .index_ops import *  # noqa: F403
from .nn_ops import *  # noqa: F403
from .norm_ops import *  # noqa: F403
from .ops import REGISTRY, Constant, NodeInput, Parameter, Result, as_output
from .reduce_ops import *  # noqa: F403
from .resize_ops import *  # noqa: F403
from .shape_ops import *  # noqa: F403
from .state_ops import *  # noqa: F403
from .types import as_type

__all__ = sorted(["parameter", "constant", "result", *elementwise.__all__, *index_ops.__all__,
                  *resize_ops.__all__, *nn_ops.__all__, *norm_ops.__all__, *reduce_ops.__all__,
                  *shape_ops.__all__, *state_ops.__all__])

# --- inputs, constants, outputs ----------------------------------------------------------------
def parameter(shape: Sequence[int], dtype: Any = np.float32, name: str | None = None) -> Parameter:
    """A model input of a static ``shape`` and element type ``dtype``."""
    return Parameter(shape, as_type(dtype), name)


def constant(value: Any = None, dtype: Any = None, name: str | None = None, *,
             shared_memory: bool = False, tensor: Any = None) -> Constant:
    """A Constant from an array or scalar (converted to ``dtype`` if given), or from a
    ``tensor`` (the wheel's other overload). The value is copied unless
    ``shared_memory=True`` and no conversion is needed; ovlab treats a shared array as
    read-only (results are cached per precision), so do not change it afterwards."""
    if tensor is not None:
        if value is not None or dtype is not None:
            raise TypeError("The necessary overload for constant was not found")
        return Constant(tensor=tensor, shared_memory=bool(shared_memory), name=name)
    if value is None:  # the wheel's builder refuses it before looking at dtype
        raise ValueError("Cannot create an empty Constant. Please provide valid data.")
    arr = value if isinstance(value, np.ndarray) else np.array(value)
    if arr.dtype == object and dtype is None:
        from ...exceptions import OVTypeError
        raise OVTypeError("Unidentified data type %s", arr.dtype)
    t = as_type(dtype) if dtype is not None else as_type(arr.dtype)
    return Constant(arr, t, name, shared=bool(shared_memory))


def result(data: NodeInput, name: str | None = None) -> Result:
    """A model output. As in OpenVINO, an output tensor without a name is named after its
    Result's friendly name when the Model is built."""
    return Result(REGISTRY["Result"], [as_output(data)], name=name)


