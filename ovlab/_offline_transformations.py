"""``openvino._offline_transformations``: the model transformations OpenVINO's tools run
offline (the model conversion API, NNCF, the GenAI exporters), as functions that edit a Model
in place.

What each does on ovlab, compared with OpenVINO's (src/bindings/python/src/pyopenvino/core/
offline_transformations.cpp):

* ``apply_moc_transformations(model, cf, smart_reshape=False)``: of the MOC pipeline, the steps
  that change what a model computes or holds: constant folding (``cf``) and flushing f32
  subnormal weights to zero (``FlushFP32SubnormalsToZero``, which the CPU does anyway). The rest
  of MOC (fusions, eliminations, SmartReshape) rewrites graphs that ovlab runs as they are;
  it leaves values unchanged, so ovlab leaves the graph as it is.
* ``compress_model_transformation``: f32 weights stored as f16 Constants with a decompression
  Convert, in place (``save_model``'s compression, ``ovlab/sim/frontends/compress.py``).
* ``apply_make_stateful_transformation``: ``openvino.passes.MakeStateful``.
* ``apply_fused_names_cleanup``: drops the ``fused_names_*`` runtime info of every node.
* ``apply_low_latency_transformation``: LowLatency2 rewrites TensorIterator/Loop bodies; a
  model without them is left as it is, one with them raises (ovlab does not run those ops).
* ``apply_pruning_transformation``: Pruning removes channels whose weights are all zero; ovlab
  does not, so it raises on a model with weights it could prune, and leaves one without as it is.
* The others (sequence to TensorIterator, PagedAttention, stateful to stateless, legacy MOC,
  quantized-weight compression) need ops ovlab does not have: they raise NotImplementedError
  naming themselves.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._version import get_version as _version
from .passes import ConstantFolding, MakeStateful, _refresh
from .sim.frontends import compress as _compress
from .sim.graph.model import Model
from .sim.graph.ops import Constant

__all__ = ["apply_fused_names_cleanup", "apply_low_latency_transformation",
           "apply_make_stateful_transformation", "apply_moc_legacy_transformations",
           "apply_moc_transformations", "apply_pruning_transformation",
           "compress_model_transformation", "compress_quantize_weights_transformation",
           "convert_sequence_to_tensor_iterator_transformation", "get_version",
           "paged_attention_transformation", "stateful_to_stateless_transformation"]

_F32_TINY = np.finfo(np.float32).tiny


def _model(model: Any, fn: str) -> Model:
    if not isinstance(model, Model):
        raise TypeError(f"{fn}(): incompatible function arguments: 'model' must be an "
                        f"openvino.Model, got {type(model).__name__}")
    return model


def apply_moc_transformations(model: Model, cf: bool, smart_reshape: bool = False) -> None:
    """Constant folding (when ``cf``) and f32 subnormal weights flushed to zero (see the module
    docstring for the MOC steps ovlab leaves out, and why)."""
    model = _model(model, "apply_moc_transformations")
    if cf:
        ConstantFolding().run_on_model(model)
    changed = False
    for node in model.get_ordered_ops():
        if not isinstance(node, Constant) or node.get_element_type().get_type_name() != "f32":
            continue
        data = node.get_data()
        sub = (data != 0) & (np.abs(data) < _F32_TINY)
        if not sub.any():
            continue
        const = Constant(np.where(sub, np.float32(0), data).astype(np.float32))
        const.set_friendly_name(node.get_friendly_name())
        const.output(0).set_names(node.output(0).get_names())
        const.output(0).get_rt_info().update(dict(node.output(0).get_rt_info()))
        node.output(0).replace(const.output(0))
        changed = True
    if changed:
        _refresh(model)


def compress_model_transformation(model: Model) -> None:
    """The model's f32/f64 weights as f16 Constants, each followed by a Convert back (marked
    ``decompression``), in place; shape-computing Constants keep their precision."""
    model = _model(model, "compress_model_transformation")
    if _compress.is_optimized(model):
        return
    keep = _compress._precision_sensitive(model)
    for node in model.get_ordered_ops():
        if isinstance(node, Constant) and id(node) not in keep and \
                node.get_element_type().get_type_name() in ("f32", "f64"):
            half = _compress._compressed(node.get_data())
            if half is not None:
                node.output(0).replace(_compress._decompressed(node, half).output(0))
    _refresh(model)


def apply_make_stateful_transformation(model: Model, param_res_names: Any) -> None:
    """``{input tensor name: output tensor name}`` or ``[(parameter, result)]`` pairs become
    model states (``openvino.passes.MakeStateful``)."""
    MakeStateful(param_res_names).run_on_model(_model(model, "apply_make_stateful_transformation"))


def apply_fused_names_cleanup(model: Model) -> None:
    """Remove the ``fused_names_*`` runtime attributes transformations leave on nodes."""
    for node in _model(model, "apply_fused_names_cleanup").get_ops():
        rt = node._rt_info
        for key in [k for k in rt if str(k).startswith("fused_names")]:
            del rt[key]


def _ops(model: Model, names: set[str]) -> list[str]:
    return sorted({n.get_type_name() for n in model.get_ops()} & names)


def apply_low_latency_transformation(model: Model, use_const_initializer: bool = True) -> None:
    """LowLatency2: only TensorIterator and Loop bodies change; ovlab runs neither."""
    found = _ops(_model(model, "apply_low_latency_transformation"), {"TensorIterator", "Loop"})
    if found:
        raise NotImplementedError(f"apply_low_latency_transformation: the model has "
                                  f"{', '.join(found)}, which ovlab does not simulate")


def apply_pruning_transformation(model: Model) -> None:
    """Pruning: only weighted ops (Convolution, MatMul...) with all-zero channels change;
    ovlab does not prune them."""
    found = _ops(_model(model, "apply_pruning_transformation"),
                 {"Convolution", "GroupConvolution", "MatMul", "ConvolutionBackpropData"})
    if found:
        raise NotImplementedError(f"apply_pruning_transformation: ovlab does not prune the "
                                  f"channels of {', '.join(found)}")


def _not_simulated(name: str) -> Any:
    def transformation(*args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"{name}: this offline transformation is not available on "
                                  "ovlab (it rewrites ops ovlab does not have)")
    transformation.__name__ = transformation.__qualname__ = name
    transformation.__doc__ = f"``{name}``: not available on ovlab (it raises)."
    return transformation


convert_sequence_to_tensor_iterator_transformation = _not_simulated(
    "convert_sequence_to_tensor_iterator_transformation")
paged_attention_transformation = _not_simulated("paged_attention_transformation")
stateful_to_stateless_transformation = _not_simulated("stateful_to_stateless_transformation")
apply_moc_legacy_transformations = _not_simulated("apply_moc_legacy_transformations")
compress_quantize_weights_transformation = _not_simulated(
    "compress_quantize_weights_transformation")


def get_version() -> str:
    """The OpenVINO version ovlab follows, stamped with ovlab's own (``openvino.get_version``)."""
    return _version()
