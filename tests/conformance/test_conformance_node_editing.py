"""Editing and evaluating nodes, openvino vs ovlab: set_argument(s), set_attribute, evaluate
(of a node and of a model), the Constant and Parameter accessors."""

from __future__ import annotations

import numpy as np
from conformance_harness import LAB, REAL


def _editing(rt):
    ops = rt.ops
    a, b = ops.constant(np.float32([1, 2, 3])), ops.constant(np.float32([4, 5, 6]))
    c = ops.constant(np.float64([7, 8, 9]))
    add = ops.add(a, b)
    types = [add.get_input_element_type(0).get_type_name()]
    add.set_argument(0, c.output(0))
    add.set_argument(1, c.output(0))
    types.append(add.get_input_element_type(0).get_type_name())
    add.set_arguments([a, b])
    types.append(add.get_input_element_type(0).get_type_name())
    x, y = np.float32([3, 2, 3]), np.float32([4, 2, 3])
    out = rt.mod.Tensor(np.zeros(3, np.float32))
    ok = add.evaluate([out], [rt.mod.Tensor(x), rt.mod.Tensor(y)])
    const = ops.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    p = ops.parameter([2, 3], np.float32, name="p")
    p.get_output_tensor(0)
    add.input(0).get_rt_info()["k"] = "v"
    model = rt.Model(ops.multiply(p, const), [p], "m")
    res = rt.mod.Tensor(np.zeros((2, 3), np.float32))
    with model as m:
        evaluated = m.evaluate([res], [rt.mod.Tensor(np.ones((2, 3), np.float32))])
    return (types, ok, out.data.tolist(), const.get_strides(), const.strides,
            const.get_data(dtype=np.int32, copy=True).tolist(), const.get_value_strings(),
            p.element_type.get_type_name(), str(p.partial_shape), type(add.get_instance_id()),
            add.name == add.get_name(), add.input(0).get_rt_info()["k"], evaluated,
            res.data.tolist())


def test_editing_and_evaluating_nodes_alike():
    assert _editing(LAB) == _editing(REAL)


def test_integer_vectors_alike():
    def run(mod):
        out = []
        for name in ("Strides", "AxisVector", "Coordinate", "CoordinateDiff", "AxisSet"):
            cls = getattr(mod, name)
            v = cls([3, 1, 2])
            out.append((repr(v), str(v), list(v), len(v), v == cls([3, 1, 2])))
            if name != "AxisSet":
                v[0] = 7
                out.append(list(v))
        return out

    assert run(LAB.mod) == run(REAL.mod)


def test_variables_and_added_sinks_alike():
    import importlib

    def run(rt):
        util = importlib.import_module(f"{rt.mod.__name__}.op.util")
        ops = rt.ops
        x = ops.parameter([2, 2], np.float32, name="x")
        rv = ops.read_value(ops.constant(np.zeros((2, 2), np.float32)), "a", np.float32, [2, 2])
        add = ops.add(rv, x)
        model = rt.Model(results=[ops.result(add)], sinks=[ops.assign(add, "a")],
                         parameters=[x], name="m")
        info = util.VariableInfo()
        info.data_shape, info.data_type, info.variable_id = \
            rt.mod.PartialShape([2, 1]), rt.Type.f32, "v1"
        variable = util.Variable(info)
        read = ops.read_value(ops.constant(np.zeros((2, 1), np.float32)), variable)
        model.add_variables([variable])
        model.add_sinks([ops.assign(read, variable)])
        return ([op.get_type_name() for op in model.get_ordered_ops()],
                [s.get_type_name() for s in model.sinks], str(variable.get_info().data_shape),
                read.get_output_partial_shape(0).to_string(), len(model.get_variables()))

    assert run(LAB) == run(REAL)
