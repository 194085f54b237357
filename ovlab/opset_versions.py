"""The builders that OpenVINO's older ``openvino.opsetN`` modules name differently.

``ovlab.opset`` serves one version of each op. Some older opset modules of the wheel keep an
older builder under the same name, with other arguments: ``range`` (opset1-11: no
``output_type``, the output takes the inputs' type), ``gelu`` (opset2-6: exact, erf-based Gelu),
``mvn`` (opset2-5: MVN-1, mean over the channels or not), ``broadcast`` (opset1-2: ``mode``),
``interpolate`` (opset1-9: Interpolate-1, attributes in a dict).
Each is built here from the current op with the old op's meaning, and the runner serves it in
the opsets that have it (``LAST_OPSET``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .graph.node import Node
from .graph.ops import NodeInput, as_output
from .opset import broadcast, gelu, interpolate, mvn
from .opset import range as range_v4


def range_v1(start: NodeInput, stop: NodeInput, step: NodeInput, name: str | None = None) -> Node:
    """Range-1: the output has the inputs' element type (Range-4 with that ``output_type``)."""
    first = as_output(start)
    return range_v4(first, stop, step, first.get_element_type().get_type_name(), name=name)


def gelu_v2(node: NodeInput, name: str | None = None) -> Node:
    """Gelu-2: the exact (erf) form."""
    return gelu(node, "erf", name=name)


def mvn_v2(data: NodeInput, across_channels: bool = False, normalize_variance: bool = False,
           eps: float = 1e-9, name: str | None = None) -> Node:
    """MVN-1: mean (and variance) over the spatial axes, and the channels with
    ``across_channels``; eps added to the variance (inside the square root), as the CPU
    plugin computes it (measured against the wheel)."""
    x = as_output(data)
    rank = len(x.get_shape())
    axes = np.arange(1 if across_channels else 2, rank, dtype=np.int64)
    return mvn(x, axes, normalize_variance, eps, "inside_sqrt", name=name)


def broadcast_v1(data: NodeInput, target_shape: NodeInput, axes_mapping: NodeInput | None = None,
                 mode: str = "NUMPY", name: str | None = None) -> Node:
    """Broadcast-1: ``mode`` is Broadcast-3's ``broadcast_spec``."""
    return broadcast(data, target_shape, axes_mapping, mode, name=name)


def interpolate_v1(image: NodeInput, output_shape: NodeInput, attrs: dict,
                   name: str | None = None) -> Node:
    """Interpolate-1 as OpenVINO's ConvertInterpolate1ToInterpolate4 rewrites it: sizes on
    ``axes``, corners aligned unless ``align_corners`` is False (then asymmetric), nearest
    rounding "simple"; the "area" mode has no Interpolate-4 form on the CPU plugin either."""
    if "axes" not in attrs or "mode" not in attrs:
        raise RuntimeError("interpolate: the attributes 'axes' and 'mode' are required")
    mode = str(attrs["mode"])
    modes = {"nearest": "nearest", "linear": "linear_onnx", "cubic": "cubic"}
    if mode not in modes:
        raise NotImplementedError(f"interpolate-1 mode '{mode}' is not available on ovlab "
                                  "(nearest, linear, cubic)")
    pads_begin, pads_end = attrs.get("pads_begin", [0]), attrs.get("pads_end", [0])
    rank = len(as_output(image).get_shape())
    full = [list(p) * rank if len(p) == 1 else list(p) for p in (pads_begin, pads_end)]
    coords = "align_corners" if attrs.get("align_corners", True) else "asymmetric"
    return interpolate(image, np.asarray(output_shape, np.int64), modes[mode], "sizes",
                       full[0], full[1], coords, "simple", bool(attrs.get("antialias", False)),
                       axes=np.asarray(attrs["axes"], np.int64), name=name)


#: name -> (the last opset whose module has the old builder, the builder)
LAST_OPSET: dict[str, tuple[int, Any]] = {
    "range": (11, range_v1),
    "gelu": (6, gelu_v2),
    "mvn": (5, mvn_v2),
    "broadcast": (2, broadcast_v1),
    "interpolate": (9, interpolate_v1),
}


def builder(opset: str, name: str) -> Any | None:
    """The old builder that ``openvino.<opset>.<name>`` is, or None (the current one)."""
    last, build = LAST_OPSET.get(name, (0, None))
    return build if build is not None and int(opset[len("opset"):]) <= last else None
