"""``openvino.passes``, openvino vs ovlab: ConstantFolding leaves the same graph and values,
Serialize writes IR that reads back as the same model (inputs in order), wrong arguments fail
as the binding's do."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from conformance_harness import LAB, REAL


def _passes(rt):
    return importlib.import_module("openvino.passes" if rt is REAL else "ovlab.passes")


def _folding_model(rt):
    x = rt.ops.parameter([2, 3], np.float32, name="x")
    c = rt.ops.ceiling(rt.ops.constant(np.array([[0.0, 0.1, -0.1], [-2.5, 2.5, 3.0]],
                                                np.float32)))
    return rt.Model(rt.ops.add(x, rt.ops.multiply(c, c)), [x], "m")


def test_constant_folding_leaves_the_same_graph_and_values():
    got = {}
    for rt in (REAL, LAB):
        model = _folding_model(rt)
        manager = _passes(rt).Manager()
        manager.register_pass(_passes(rt).ConstantFolding())
        manager.run_passes(model)
        folded = [op for op in model.get_ordered_ops() if op.get_type_name() == "Constant"]
        got[rt.name] = ([op.get_type_name() for op in model.get_ordered_ops()],
                        [op.get_friendly_name().split("_")[0] for op in folded],
                        folded[0].get_data().tolist())
    assert got["ovlab"] == got["openvino"]


def test_constant_folding_folds_a_shape_of_a_parameter_branch():
    """ShapeOf of a Parameter's branch is constant (static shapes): both fold it, and the
    Reshape it feeds reads the folded Constant (OpenVINO's test_public_transformations)."""
    got = {}
    for rt in (REAL, LAB):
        p = rt.ops.parameter([1, 3, 4, 4], np.float32, name="p")
        relu = rt.ops.relu(p)
        model = rt.Model(rt.ops.reshape(relu, rt.ops.shape_of(relu), False), [p], "m")
        manager = _passes(rt).Manager()
        manager.register_pass(_passes(rt).ConstantFolding())
        manager.run_passes(model)
        shape_src = model.get_results()[0].input_value(0).get_node().input_value(1).get_node()
        got[rt.name] = ([op.get_type_name() for op in model.get_ordered_ops()],
                        shape_src.get_data().tolist())
    assert got["ovlab"] == got["openvino"]
    assert "ShapeOf" not in got["ovlab"][0]


def test_serialize_keeps_the_input_order(tmp_path):
    for rt in (REAL, LAB):
        a, b, c = (rt.ops.parameter([2], np.float32, name=n) for n in "ABC")
        model = rt.Model(rt.ops.multiply(rt.ops.add(a, b), c), [a, b, c], "m")
        xml, weights = tmp_path / f"{rt.name}.xml", tmp_path / f"{rt.name}.bin"
        manager = _passes(rt).Manager()
        manager.register_pass(_passes(rt).Serialize(str(xml), path_to_bin=str(weights),
                                                    version=_passes(rt).Version.IR_V11))
        manager.run_passes(model)
        back = rt.new_core().read_model(xml)
        assert [i.get_any_name() for i in back.inputs] == ["A", "B", "C"]
        assert [op.get_friendly_name() for op in back.get_ordered_ops()][:3] == \
            [op.get_friendly_name() for op in model.get_ordered_ops()][:3]


def test_serialize_with_a_wrong_keyword_fails_as_the_binding():
    for rt in (REAL, LAB):
        with pytest.raises(TypeError, match="Invoked with:"):
            _passes(rt).Serialize(path_to_xml="a.xml", path_to_bin="a.bin", model=5)


@pytest.mark.parametrize("by_names", [True, False])
def test_make_stateful_as_the_wheel(by_names):
    """A Parameter/Result pair becomes a state (ReadValue, Assign, variable "s" + "s_next")
    with the wheel's topology, names and values over three inferences."""
    got = {}
    for rt in (REAL, LAB):
        ops = rt.ops
        s = ops.parameter([2, 3], np.float32, name="s")
        s.output(0).set_names({"s"})
        x = ops.parameter([2, 3], np.float32, name="x")
        nxt = ops.add(ops.multiply(s, np.float32(0.5)), x)
        res = ops.result(nxt, name="s_next")
        res.output(0).set_names({"s_next"})
        out = ops.result(ops.relu(nxt), name="y")
        model = rt.Model([res, out], [s, x], "m")
        pairs = {"s": "s_next"} if by_names else [(s, res)]
        manager = _passes(rt).Manager()
        manager.register_pass(_passes(rt).MakeStateful(pairs))
        manager.run_passes(model)
        request = rt.new_core().compile_model(model, "CPU").create_infer_request()
        values = []
        for i in range(3):
            y = request.infer({"x": np.full((2, 3), i - 1.0, np.float32)})
            values.append((np.asarray(list(y.values())[0]).tolist(),
                           request.query_state()[0].state.data.tolist()))
        got[rt.name] = ([op.get_type_name() for op in model.get_ordered_ops()],
                        [v.info.variable_id for v in model.get_variables()],
                        len(model.get_parameters()), len(model.get_results()), values)
    assert got["ovlab"] == got["openvino"]


def test_convert_fp32_to_fp16_as_the_wheel():
    """f32 Parameters, Constants and Convert destinations become f16, other types stay: the
    same ops, types and constant values as the wheel's, and the same outputs on the CPU."""
    got = {}
    for rt in (REAL, LAB):
        ops = rt.ops
        p = ops.parameter([2, 3], np.float32, name="p")
        q = ops.parameter([2], np.int32, name="q")
        y = ops.add(ops.relu(p), ops.constant(np.array([1.5, 2.25, 3.1], np.float32)))
        model = rt.Model([y, ops.convert(q, "f32"), ops.convert(ops.shape_of(p), "f32")],
                         [p, q], "m")
        manager = _passes(rt).Manager()
        manager.register_pass(_passes(rt).ConvertFP32ToFP16())
        manager.run_passes(model)
        compiled = rt.new_core().compile_model(model, "CPU")
        outs = compiled({"p": np.linspace(-1, 1, 6, dtype=np.float16).reshape(2, 3),
                         "q": np.array([3, -4], np.int32)})
        got[rt.name] = (
            [(op.get_type_name(), op.get_output_element_type(0).get_type_name())
             for op in model.get_ordered_ops() if op.get_output_size()],
            [op.get_data().tolist() for op in model.get_ordered_ops()
             if op.get_type_name() == "Constant"],
            [np.asarray(v).tolist() for v in outs.values()])
    assert got["ovlab"] == got["openvino"]
