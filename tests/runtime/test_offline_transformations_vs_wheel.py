"""``openvino._offline_transformations`` (``ovlab/_offline_transformations.py``) against the
real wheel's: the same models after each transformation (op types in order, element types,
constant values), and the same results on the CPU (the real plugin pinned to f32)."""

from __future__ import annotations

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
real_ot = pytest.importorskip("openvino._offline_transformations")
real_ops = pytest.importorskip("openvino.opset13")

from real_wheel import lab_core, real_core  # noqa: E402

import ovlab  # noqa: E402
import ovlab._offline_transformations as lab_ot  # noqa: E402
import ovlab.opset as lab_ops  # noqa: E402

SIDES = ((ovlab, lab_ops, lab_ot), (ov, real_ops, real_ot))


def _ops(model):
    return [(n.get_type_name(), n.get_output_element_type(0).get_type_name())
            for n in model.get_ordered_ops() if n.get_output_size()]


def _subnormal_model(mod, ops):
    """x + w with subnormal weights, then a MatMul by weights computed from constants (a
    Reshape to fold); MOC's fusions (which ovlab leaves out) have nothing to fuse here."""
    x = ops.parameter([1, 8], np.float32, name="x")
    w = ops.constant(np.array([0.0, 1.0, 2.0, 3.0, -2.0e-45, 1e-40, -1e-39, 5e-39],
                              dtype=np.float32))
    m = ops.reshape(ops.constant(np.arange(8, dtype=np.float32)),
                    ops.constant(np.array([8, 1], np.int64)), False)
    return mod.Model([ops.matmul(ops.relu(ops.add(x, w)), m, False, False)], [x], "m")


@pytest.mark.parametrize("cf", [False, True])
def test_moc_flushes_subnormal_weights_and_keeps_the_values(cf):
    """The wheel's MOC also fuses and re-lays out weights (ovlab leaves the graph as it is):
    compared are the flushed weights and what the model computes on the CPU."""
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(1, 8)
    weights, values = [], []
    for (mod, ops, ot), core in zip(SIDES, (lab_core(), real_core()), strict=True):
        model = _subnormal_model(mod, ops)
        ot.apply_moc_transformations(model, cf=cf, smart_reshape=True)
        consts = [np.ravel(n.get_data()) for n in model.get_ordered_ops()
                  if n.get_type_name() == "Constant"]
        weights.append(([0.0, 1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 0.0] in [c.tolist() for c in consts],
                        any(((c != 0) & (np.abs(c) < np.finfo(np.float32).tiny)).any()
                            for c in consts if c.dtype == np.float32)))
        values.append(core.compile_model(model, "CPU")(x)[0])
    assert weights[0] == weights[1] == (True, False)  # flushed, and no subnormal left
    np.testing.assert_allclose(values[0], values[1], rtol=1e-6)


def test_compress_model_stores_weights_as_f16_with_a_decompression_convert():
    x = np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3)
    got, values = [], []
    for (mod, ops, ot), core in zip(SIDES, (lab_core(), real_core()), strict=True):
        p = ops.parameter([2, 3], np.float32, name="x")
        w = ops.constant(np.array([[0.0, 0.1, -0.1], [-2.5, 2.5, 3.0]], dtype=np.float32))
        model = mod.Model([ops.multiply(p, ops.ceiling(w))], [p], "m")
        ot.compress_model_transformation(model)
        got.append(_ops(model))
        values.append(core.compile_model(model, "CPU")(x)[0])
    assert got[0] == got[1] and ("Constant", "f16") in got[0]
    np.testing.assert_allclose(values[0], values[1], rtol=1e-6)


def test_fused_names_cleanup_and_make_stateful():
    for mod, ops, ot in SIDES:
        p = ops.parameter([1, 3], np.float32, name="parameter")
        p.get_output_tensor(0).set_names({"parameter"})
        r = ops.result(ops.relu(p), name="result")
        r.get_output_tensor(0).set_names({"result"})
        model = mod.Model([r], [p], "m")
        for node in model.get_ops():
            node.get_rt_info()["fused_names_0"] = "x"
        ot.apply_fused_names_cleanup(model)
        assert all("fused_names_0" not in node.get_rt_info() for node in model.get_ops())
        ot.apply_make_stateful_transformation(model, {"parameter": "result"})
        assert not model.get_parameters() and not model.get_results()
        assert [v.get_info().variable_id for v in model.get_variables()] == ["parameterresult"]


def test_what_ovlab_does_not_transform_says_so():
    p = lab_ops.parameter([1, 4], np.float32)
    model = ovlab.Model([lab_ops.matmul(p, np.ones((4, 2), np.float32), False, False)], [p])
    with pytest.raises(NotImplementedError, match="does not prune the channels of MatMul"):
        lab_ot.apply_pruning_transformation(model)
    with pytest.raises(NotImplementedError, match="convert_sequence_to_tensor_iterator"):
        lab_ot.convert_sequence_to_tensor_iterator_transformation(model)
    lab_ot.apply_low_latency_transformation(model)  # no TensorIterator/Loop: nothing to do
