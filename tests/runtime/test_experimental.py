"""``openvino.experimental`` (bounds of an output, a tensor's type set by hand), against the
wheel where it is installed, and served by the runner."""

from __future__ import annotations

import numpy as np
import pytest

import ovlab
import ovlab.opset13 as ops
from ovlab import experimental as ex


def _shape_subgraph(opset):
    p = opset.parameter([2, 3, 4], np.float32)
    g = opset.gather(opset.shape_of(p), opset.constant(np.array([1, 2])), opset.constant(0))
    return p, g


def test_bounds_of_a_folded_shape_and_of_a_parameter():
    p, g = _shape_subgraph(ops)
    lo, hi = ex.evaluate_both_bounds(g.output(0))
    assert lo.data.tolist() == hi.data.tolist() == [3, 4]
    assert lo.element_type == ovlab.Type.i64
    shape = ovlab.PartialShape.dynamic()
    assert ex.evaluate_as_partial_shape(g.output(0), shape) and str(shape) == "[3,4]"
    lo, hi = ex.evaluate_both_bounds(p.output(0))  # depends on data: no bounds
    with pytest.raises(RuntimeError, match="Tensor was not initialized"):
        _ = lo.shape
    untouched = ovlab.PartialShape.dynamic()
    assert not ex.evaluate_as_partial_shape(p.output(0), untouched) and str(untouched) == "[...]"


def test_set_element_type_and_tensor_type():
    r = ops.relu(ops.parameter([2, 3, 4], np.float32))
    ex.set_element_type(r.output(0).get_tensor(), ovlab.Type.f16)
    assert r.output(0).get_element_type() == ovlab.Type.f16
    ex.set_tensor_type(r.output(0).get_tensor(), ovlab.Type.i32, ovlab.PartialShape([5, 6]))
    assert (r.output(0).get_element_type(), str(r.output(0).get_partial_shape())) == \
        (ovlab.Type.i32, "[5,6]")
    with pytest.raises(NotImplementedError, match="dynamic shapes"):
        ex.set_tensor_type(r.output(0).get_tensor(), ovlab.Type.i32,
                           ovlab.PartialShape([5, -1]))
    with pytest.raises(TypeError, match=r"Output.get_tensor\(\)"):
        ex.set_element_type(r.output(0), ovlab.Type.f16)


def test_the_wheel_agrees():
    ov = pytest.importorskip("openvino")
    import openvino.experimental as real
    import openvino.opset13 as real_ops

    _, g = _shape_subgraph(real_ops)
    lo, hi = real.evaluate_both_bounds(g.output(0))
    assert lo.data.tolist() == hi.data.tolist() == [3, 4]
    shape = ov.PartialShape.dynamic()
    assert real.evaluate_as_partial_shape(g.output(0), shape) and str(shape) == "[3,4]"
    assert sorted(n for n in dir(real) if not n.startswith("_")) == sorted(ex.__all__)


def test_the_runner_serves_it():
    import sys

    ovlab.install(platform="laptop", seed=0)
    try:
        import openvino.experimental as served

        assert served.evaluate_both_bounds is ex.evaluate_both_bounds
    finally:
        ovlab.uninstall()
        sys.modules.pop("openvino.experimental", None)
