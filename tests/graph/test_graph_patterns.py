"""``ovlab.passes`` pattern matching on ovlab alone (the differential family
``tests/differential/test_pattern_passes.py`` compares the same rewrites with the wheel's)."""

from __future__ import annotations

import numpy as np
import pytest

import ovlab
import ovlab.opset as ops
from ovlab import passes
from ovlab.utils import replace_node


def _chain():
    x = ops.parameter([2, 3], np.float32, name="x")
    a = ops.abs(x)
    r = ops.relu(a)
    return x, a, r, ovlab.Model([ops.result(r)], [x], "m")


def test_wrap_type_matches_by_type_and_inputs():
    x, a, r, _ = _chain()
    m = passes.Matcher(passes.WrapType("opset13.Relu", passes.WrapType("opset1.Abs")), "m")
    assert m.match(r) and m.get_match_root() is r
    assert [n.get_type_name() for n in m.get_match_nodes()] == ["Relu", "Abs"]
    assert not m.match(a)
    assert m.get_match_root() is None and m.get_match_nodes() == []


def test_commutative_inputs_are_tried_both_ways_and_failed_branches_leave_no_trace():
    p, q = ops.parameter([2], np.float32, name="p"), ops.parameter([2], np.float32, name="q")
    add = ops.add(p, ops.relu(q))
    relu, other = passes.WrapType("opset1.Relu"), passes.AnyInput()
    m = passes.Matcher(passes.WrapType("opset1.Add", [relu, other]), "c")
    assert m.match(add)
    assert m.get_pattern_value_map()[other].get_node() is p
    assert [n.get_friendly_name() for n in m.get_match_nodes()][1] == "p"
    sub = ops.subtract(p, ops.relu(q))  # not commutative: the order is the pattern's
    assert not passes.Matcher(passes.WrapType("opset1.Subtract", [relu, other]), "s").match(sub)


def test_or_and_optional():
    x, a, r, _ = _chain()
    either = passes.Or([passes.WrapType("opset1.Sigmoid"), passes.WrapType("opset1.Relu")])
    assert passes.Matcher(either, "or").match(r)
    data = passes.AnyInput()
    maybe_abs = passes.Optional(["opset1.Abs"], data)
    pattern = passes.WrapType("opset1.Relu", maybe_abs)
    m = passes.Matcher(pattern, "opt")
    assert m.match(r) and m.get_pattern_value_map()[data].get_node() is x
    assert maybe_abs in m.get_pattern_value_map()
    assert m.match(ops.relu(x)) and maybe_abs not in m.get_pattern_value_map()


def test_predicates_and_symbols():
    x, a, r, _ = _chain()
    m = passes.Matcher(passes.AnyInput(passes.shape_matches("[N,C]")), "s")
    assert m.match(r) and m.get_symbols() == {"N": 2, "C": 3}
    assert not passes.Matcher(passes.AnyInput(passes.shape_matches("[N,N]")), "s").match(r)
    assert passes.Matcher(passes.AnyInput(passes.shape_matches("[...,3]")), "s").match(r)
    assert passes.Matcher(passes.WrapType("opset1.Abs", passes.consumers_count(1)), "c").match(a)
    assert not passes.Matcher(passes.WrapType("opset1.Relu", passes.consumers_count(2)),
                              "c").match(r)
    assert passes.Matcher(passes.AnyInput(passes.type_matches(ovlab.Type.f32)), "t").match(r)
    assert not passes.Matcher(passes.AnyInput(passes.has_static_dim(2)), "d").match(r)


def test_wrap_type_names_are_checked_as_the_wheel_checks_them():
    with pytest.raises(RuntimeError, match="Unsupported opset type: Relu"):
        passes.WrapType("Relu")
    with pytest.raises(RuntimeError, match="Unrecognized operation type: BitwiseAnd"):
        passes.WrapType("opset1.BitwiseAnd")  # BitwiseAnd came in opset13
    assert passes.WrapType("opset13::BitwiseAnd").get_type_name() == "WrapType"


class _InsertExp(passes.MatcherPass):
    """Puts an Exp after the Parameter and registers it; returns False (not the root)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

        def callback(m):
            value = m.get_match_value()
            consumers = value.get_target_inputs()
            exp = ops.exp(value)
            for c in consumers:
                c.replace_source_output(exp.output(0))
            self.register_new_node(exp)
            return False
        self.register_matcher(passes.Matcher(passes.WrapType("opset1.Parameter"), "ins"),
                              callback)


def _remove_exp(seen: list[str]) -> passes.MatcherPass:
    def callback(m):
        root = m.get_match_root()
        seen.append(root.get_type_name())
        root.output(0).replace(root.input_value(0))
        return True
    return passes.MatcherPass(passes.Matcher(passes.WrapType("opset1.Exp"), "rm"), callback)


def test_graph_rewrite_matches_registered_nodes_next():
    x, a, r, model = _chain()
    seen: list[str] = []
    anchor = passes.GraphRewrite()
    anchor.add_matcher(_InsertExp())
    anchor.add_matcher(_remove_exp(seen))
    assert anchor.run_on_model(model) is None  # as the binding: None whether or not it changed
    assert seen == ["Exp"]  # the registered Exp was matched right after its Parameter
    assert [o.get_type_name() for o in model.get_ordered_ops()] == \
        ["Parameter", "Abs", "Relu", "Result"]


def test_manager_runs_a_matcher_pass_and_the_model_computes_the_rewrite():
    x, a, r, model = _chain()

    def callback(m):
        replace_node(m.get_match_root(), ops.sigmoid(m.get_match_root().input_value(0)))
        return True
    manager = passes.Manager()
    mp = manager.register_pass(passes.MatcherPass(
        passes.Matcher(passes.WrapType("opset1.Relu"), "r"), callback))
    assert mp.get_name() == "ov::pass::MatcherPass"
    manager.run_passes(model)
    assert [o.get_type_name() for o in model.get_ordered_ops()] == \
        ["Parameter", "Abs", "Sigmoid", "Result"]
    data = np.array([[-1, 0, 1], [2, -2, 3]], np.float32)
    out = ovlab.Core("host").compile_model(model, "CPU")([data])[0]
    np.testing.assert_allclose(out, 1 / (1 + np.exp(-np.abs(data))), rtol=1e-5)


def test_backward_graph_rewrite_visits_results_first():
    x, a, r, model = _chain()
    order: list[str] = []

    def callback(m):
        order.append(m.get_match_root().get_type_name())
        return False
    anchor = passes.BackwardGraphRewrite()
    anchor.add_matcher(passes.MatcherPass(
        passes.Matcher(passes.WrapType(["opset1.Abs", "opset1.Relu"]), "b"), callback))
    anchor.run_on_model(model)
    assert order == ["Relu", "Abs"]


def test_bad_registrations_fail_as_the_binding():
    manager = passes.Manager()
    for bad in (passes.ModelPass, "ConstantFolding", 3):
        with pytest.raises(TypeError, match="incompatible function arguments"):
            manager.register_pass(bad)
    with pytest.raises(TypeError, match="incompatible function arguments"):
        passes.GraphRewrite().add_matcher(passes.ConstantFolding())
    with pytest.raises(RuntimeError, match="pure virtual"):
        passes.ModelPass().run_on_model(_chain()[3])
