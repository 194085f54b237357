"""``openvino.utils.replace_node`` and ``replace_output_update_name`` on the same models, real
wheel vs ovlab: the ops the model then has, its outputs' names, and the values on the CPU."""

from __future__ import annotations

import numpy as np
import pytest

ov = pytest.importorskip("openvino", reason="the real openvino runtime is not installed")

import openvino.opset13 as ov_ops  # noqa: E402
import openvino.utils as ov_utils  # noqa: E402
from diff_harness import attempt, compare  # noqa: E402
from real_wheel import lab_core, real_core  # noqa: E402

import ovlab  # noqa: E402
import ovlab.opset as lab_ops  # noqa: E402
import ovlab.utils as lab_utils  # noqa: E402

X = np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3)


def _model(mod, ops):
    x = ops.parameter([2, 3], np.float32, name="x")
    r = ops.relu(x, name="r")
    e = ops.exp(r, name="e")
    return mod.Model([ops.result(e, name="y")], [x], "m"), x, r, e


def _after(mod, ops, core, m) -> tuple:
    out = core.compile_model(m, "CPU")({"x": X})[0]
    return (sorted(o.get_type_name() for o in m.get_ordered_ops()),
            sorted(m.output(0).get_names()), np.round(np.asarray(out), 5).tolist())


EDITS = {
    "replace_node(r, sigmoid)": lambda mod, ops, utils, x, r, e: utils.replace_node(
        r, ops.sigmoid(x, name="s")),
    "replace_node(e, [tanh.output(0)])": lambda mod, ops, utils, x, r, e: utils.replace_node(
        e, [ops.tanh(r, name="t").output(0)]),
    "replace_node(r, abs, [0])": lambda mod, ops, utils, x, r, e: utils.replace_node(
        r, ops.abs(x, name="a"), [0]),
    "replace_output_update_name(e, tanh)": lambda mod, ops, utils, x, r, e:
        utils.replace_output_update_name(e.output(0), ops.tanh(r, name="t").output(0)),
    "replace_node(result, relu)": lambda mod, ops, utils, x, r, e: utils.replace_node(
        [n for n in e.output(0).get_target_inputs()][0].get_node(), ops.relu(x)),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_graph_edit(edit):
    def script(mod, ops, utils, core):
        m, x, r, e = _model(mod, ops)
        returned = EDITS[edit](mod, ops, utils, x, r, e)
        return (returned, *_after(mod, ops, core, m))

    real = attempt(lambda: script(ov, ov_ops, ov_utils, real_core()))
    lab = attempt(lambda: script(ovlab, lab_ops, lab_utils, lab_core("host")))
    compare("graph/edits", edit, real, lab, lambda a, b: a == b)


# --- NodeFactory --------------------------------------------------------------------------------
FACTORY_CASES = [
    ("opset13", "Add", 2, {"auto_broadcast": "numpy"}),
    ("opset13", "Add", 2, {"auto_broadcast": "pdpd"}),
    ("opset13", "Relu", 1, None),
    ("opset13", "Relu", 1, {"unknown_attribute": 3}),
    ("opset13", "Softmax", 1, {"axis": 1}),
    ("opset13", "Foo", 1, {}),
    ("opset13", "Add", None, {"auto_broadcast": "numpy"}),
    ("opset99", "Add", 2, {}),
    ("opset8", "MatMul", 2, {"transpose_a": False, "transpose_b": True}),
]


@pytest.mark.parametrize("opset, op, n_args, attrs", FACTORY_CASES)
def test_node_factory(opset, op, n_args, attrs):
    """``NodeFactory(opset).create(op, arguments, attributes)``: the node's type, output type
    and shape, or the same error."""
    from openvino.utils.node_factory import NodeFactory as RealFactory

    from ovlab.utils.node_factory import NodeFactory as LabFactory

    def script(mod, ops, factory_cls):
        x = ops.parameter([3, 3], np.float32, name="x")
        args = None if n_args is None else [x] * n_args
        node = factory_cls(opset).create(op, args, attrs)
        return (node.get_type_name(), node.get_output_element_type(0).get_type_name(),
                str(node.get_output_partial_shape(0)))

    real = attempt(lambda: script(ov, ov_ops, RealFactory))
    lab = attempt(lambda: script(ovlab, lab_ops, LabFactory))
    compare("graph/NodeFactory", f"NodeFactory({opset!r}).create({op!r}, {n_args}, {attrs!r})",
            real, lab, lambda a, b: a == b)
