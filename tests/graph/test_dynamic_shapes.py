"""Dynamic dimensions at build time (``ovlab/sim/graph/dynamic.py``) against the real wheel:
the same graph built on both, the same output element types and partial shapes (``[?,3]``,
intervals, a dynamic rank), or the same error line; then what ovlab does not do (compile a
dynamic model: a clear "static" error) and what it does (reshape to static, then run, with
the values of the wheel's CPU pinned to f32). The binary ops and Broadcast are also compared
on generated shapes in ``tests/differential/test_op_builders.py``."""

from __future__ import annotations

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from real_wheel import LabOpset, lab_core, real_core  # noqa: E402

import ovlab  # noqa: E402
from ovlab.sim.graph import opset_versions  # noqa: E402

REAL = pytest.importorskip("openvino.opset15")


LAB = LabOpset("opset15")
F32 = np.float32


def _view(build, mod, ops):
    try:
        node = build(mod, ops)
    except Exception as e:  # noqa: BLE001 - the outcome compared is the error's last line
        return ("error", str(e).strip().splitlines()[-1])
    return tuple((o.get_element_type().get_type_name(), str(o.get_partial_shape()))
                 for o in node.outputs())


def P(ops, shape, t=F32):  # noqa: N802 - a Parameter, as the cases read
    return ops.parameter(shape, dtype=t)


CASES = {
    "relu [?,3]": lambda m, o: o.relu(P(o, [-1, 3])),
    "relu interval": lambda m, o: o.relu(P(o, [m.Dimension(1, 10), 3])),
    "relu dynamic rank": lambda m, o: o.relu(P(o, m.PartialShape.dynamic())),
    "add [?,3]+[4,3]": lambda m, o: o.add(P(o, [-1, 3]), P(o, [4, 3])),
    "add [?,3]+[?,1]": lambda m, o: o.add(P(o, [-1, 3]), P(o, [-1, 1])),
    "add dynamic rank": lambda m, o: o.add(P(o, m.PartialShape.dynamic()), P(o, [4, 3])),
    "add [?,3]+[4,2] fails": lambda m, o: o.add(P(o, [-1, 3]), P(o, [4, 2])),
    "matmul [?,3]x[3,5]": lambda m, o: o.matmul(P(o, [-1, 3]), P(o, [3, 5]), False, False),
    "matmul [?,?]x[3,5]": lambda m, o: o.matmul(P(o, [-1, -1]), P(o, [3, 5]), False, False),
    "reshape [0,-1]": lambda m, o: o.reshape(P(o, [-1, 3, 4]),
                                             o.constant(np.array([0, -1], np.int64)), True),
    "shape_of": lambda m, o: o.shape_of(P(o, [-1, 3, 4])),
    "transpose": lambda m, o: o.transpose(P(o, [-1, 3, 4]), o.constant(np.array([2, 0, 1]))),
    "concat axis 1": lambda m, o: o.concat([P(o, [-1, 3]), P(o, [2, 3])], 1),
    "convert": lambda m, o: o.convert(P(o, [-1, 3]), "i32"),
    "reduce_sum": lambda m, o: o.reduce_sum(P(o, [-1, 3, 5]), o.constant(np.array([1])), False),
    "softmax": lambda m, o: o.softmax(P(o, [-1, 3]), 1),
    "unsqueeze": lambda m, o: o.unsqueeze(P(o, [-1, 3]), o.constant(np.array([0]))),
    "split dynamic axis": lambda m, o: o.split(P(o, [-1, 6]), o.constant(np.int64(0)), 2),
    "conv dynamic batch": lambda m, o: o.convolution(P(o, [-1, 3, 10, 10]), P(o, [4, 3, 3, 3]),
                                                     [1, 1], [0, 0], [0, 0], [1, 1]),
    "gather": lambda m, o: o.gather(P(o, [-1, 3]), o.constant(np.array([0, 1])),
                                    o.constant(np.int64(0))),
    "select": lambda m, o: o.select(P(o, [-1, 3], np.bool_), P(o, [4, 1]), P(o, [1, 3])),
    "squeeze no axes": lambda m, o: o.squeeze(P(o, [2, -1, 3])),
    "squeeze dynamic axis": lambda m, o: o.squeeze(P(o, [2, -1, 3]), o.constant(np.array([1]))),
    "squeeze static axis": lambda m, o: o.squeeze(P(o, [1, -1, 3]), o.constant(np.array([0]))),
    "squeeze no 1 possible": lambda m, o: o.squeeze(P(o, [2, m.Dimension(3, 4), 3])),
    "broadcast numpy to Parameter": lambda m, o: o.broadcast(P(o, [2, 1]), P(o, [3], np.int64)),
    "broadcast bidirectional to Parameter": lambda m, o: o.broadcast(
        P(o, [2, 1]), P(o, [3], np.int64), broadcast_spec="BIDIRECTIONAL"),
    "broadcast dynamic data to a constant": lambda m, o: o.broadcast(
        P(o, [-1, 3]), o.constant(np.array([2, 3]))),
    "identity": lambda m, o: o.identity(P(o, [10, -1, -1])),
    "inverse": lambda m, o: o.inverse(P(o, [-1, -1, -1]), False),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_output_types_and_shapes_as_the_wheel(case):
    build = CASES[case]
    if case in ("identity",):
        real_ops = pytest.importorskip("openvino.opset16")
        lab_ops = type("L16", (), {"__getattr__": lambda s, n: opset_versions.builder(
            "opset16", n) or getattr(LAB, n)})()
    else:
        real_ops, lab_ops = REAL, LAB
    assert _view(build, ovlab, lab_ops) == _view(build, ov, real_ops)


def test_a_dynamic_model_builds_reshapes_and_compiles_once_static():
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 3)).astype(F32)
    outs = []
    for mod, ops, core in ((ovlab, LAB, lab_core()), (ov, REAL, real_core())):
        p = ops.parameter([-1, 3], F32, name="x")
        y = ops.add(ops.relu(p), ops.constant(np.ones((1, 3), F32)))
        model = mod.Model([y], [p], "dyn")
        assert model.is_dynamic() and str(model.output(0).get_partial_shape()) == "[?,3]"
        with pytest.raises(RuntimeError, match="to_shape was called on a dynamic shape"):
            model.output(0).get_shape()
        if mod is ovlab:
            with pytest.raises(RuntimeError, match=r"ovlab models are static: input 'x' has the "
                                                   r"dynamic shape \[\?,3\]"):
                core.compile_model(model, "CPU")
        model.reshape([2, 3])
        assert not model.is_dynamic() and list(model.output(0).get_shape()) == [2, 3]
        outs.append(core.compile_model(model, "CPU")(x)[0])
    np.testing.assert_allclose(outs[0], outs[1], rtol=1e-6)


def test_parameter_attributes_name_the_dynamic_shape():
    for ops in (LAB, REAL):
        assert ops.parameter([-1, 2], F32).get_attributes()["shape"] == [-1, 2]
        assert ops.parameter([2, 2], F32).get_attributes()["shape"] == [2, 2]


def test_shape_of_a_dynamic_shape_is_not_folded():
    p = LAB.parameter([-1, 3], F32)
    shape = LAB.shape_of(p)
    r = LAB.reshape(p, shape, False)
    assert str(r.get_output_partial_shape(0)) == "[?,3]"
    from ovlab.sim.graph.ops import constant_value
    assert constant_value(shape.output(0)) is None


def test_an_op_whose_rules_need_lengths_says_so():
    # Tile's repeats on a dynamic rank: the output's rank cannot be known here
    with pytest.raises(RuntimeError, match="ovlab infers Tile over an input of dynamic rank"):
        LAB.tile(LAB.parameter(ovlab.PartialShape.dynamic(), F32), np.array([2, 2], np.int64))
