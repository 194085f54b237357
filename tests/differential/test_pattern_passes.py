"""Family g: the pattern-matching passes (``openvino.passes``), real wheel vs ovlab, on the same
generated models.

A model is a chain of unary and binary ops over a Parameter (generated); a rewrite is one of the
MatcherPasses below (each written once, against either runtime's ``passes`` and ``opset``
modules), run by a ``Manager``, a ``GraphRewrite`` or a ``BackwardGraphRewrite``. Compared:
the callbacks' calls (the type of the node each one got, in order), what ``run`` returned, the
model afterwards as one expression per output (``Exp(Relu(x))``: its op types and topology),
and the values the rewritten model computes on the CPU (f32 pinned on both sides)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import strategies as st

ov = pytest.importorskip("openvino", reason="the real openvino runtime is not installed")

import openvino.opset13 as ov_ops  # noqa: E402
import openvino.passes as ov_passes  # noqa: E402
import openvino.utils as ov_utils  # noqa: E402
from diff_harness import COMPARED, EXPLAINED, attempt, compare, record, run  # noqa: E402
from real_wheel import lab_core, real_core  # noqa: E402

import ovlab  # noqa: E402
import ovlab.opset as lab_ops  # noqa: E402
import ovlab.passes as lab_passes  # noqa: E402
import ovlab.utils as lab_utils  # noqa: E402

REAL = (ov, ov_ops, ov_passes, ov_utils)
LAB = (ovlab, lab_ops, lab_passes, lab_utils)
X = np.linspace(-1.5, 1.5, 6, dtype=np.float32).reshape(2, 3)

# --- models ---------------------------------------------------------------------------------
STEPS = ["relu", "exp", "sigmoid", "tanh", "abs", "add_self", "add_x", "mul_two", "relu_add",
         "sub_x", "branch"]


def build(rt, steps: list[str]):
    """A Parameter ``x`` [2,3] f32 and ``steps`` applied in turn; "branch" adds a second
    output reading the current value through a Relu."""
    mod, ops, _, _ = rt
    x = ops.parameter([2, 3], np.float32, name="x")
    y, extra = x, []
    for step in steps:
        if step in ("relu", "exp", "sigmoid", "tanh", "abs"):
            y = getattr(ops, step)(y)
        elif step == "add_self":
            y = ops.add(y, y)
        elif step == "add_x":
            y = ops.add(x, y)
        elif step == "mul_two":
            y = ops.multiply(y, ops.constant(np.float32(2.0)))
        elif step == "relu_add":
            y = ops.add(y, ops.relu(x))
        elif step == "sub_x":
            y = ops.subtract(y, x)
        elif step == "branch":
            extra.append(ops.result(ops.relu(y)))
    return mod.Model([ops.result(y), *extra], [x], "m")


def expression(output) -> str:
    """The value an output computes, as nested op types (Parameters by name, Constants by
    value): equal expressions mean the same ops wired the same way."""
    node = output.get_node()
    kind = node.get_type_name()
    if kind == "Parameter":
        return node.get_friendly_name()
    if kind == "Constant":
        return f"C{np.asarray(node.get_data()).ravel().round(4).tolist()}"
    args = ",".join(expression(v) for v in node.input_values())
    return f"{kind}({args})" + (f"#{output.get_index()}" if output.get_index() else "")


# --- rewrites: each builds (matcher pass, calls) on one runtime's modules ---------------------
def relu_to_exp(rt, calls):
    _, ops, passes, utils = rt
    relu = passes.WrapType("opset13.Relu")

    def callback(m):
        calls.append(m.get_match_root().get_type_name())
        utils.replace_node(m.get_match_root(), ops.exp(m.get_match_root().input_value(0)))
        return True
    return passes.MatcherPass(passes.Matcher(relu, "ReluToExp"), callback)


def remove_exp(rt, calls):
    _, _, passes, _ = rt

    def callback(m):
        root = m.get_match_root()
        calls.append(root.get_type_name())
        root.output(0).replace(root.input_value(0))
        return True
    return passes.MatcherPass(passes.Matcher(passes.WrapType("opset8.Exp"), "RemoveExp"), callback)


def insert_exp_after_parameter(rt, calls):
    """The upstream test's InsertExp: registers the new node, returns False."""
    _, ops, passes, _ = rt

    class InsertExp(passes.MatcherPass):
        def __init__(self):
            super().__init__()

            def callback(m):
                value = m.get_match_value()
                calls.append(value.get_node().get_type_name())
                consumers = value.get_target_inputs()
                exp = ops.exp(value)
                for consumer in consumers:
                    consumer.replace_source_output(exp.output(0))
                self.register_new_node(exp)
                return False
            self.register_matcher(passes.Matcher(passes.WrapType("opset8.Parameter"), "Ins"),
                                  callback)
    return InsertExp()


def add_of_same_to_multiply(rt, calls):
    """Add(a, a) -> Multiply(a, 2): two AnyInputs, the callback checks they are the same."""
    _, ops, passes, utils = rt
    a, b = passes.AnyInput(), passes.AnyInput()
    add = passes.WrapType("opset1.Add", [a, b])

    def callback(m):
        values = m.get_pattern_value_map()
        calls.append(m.get_match_root().get_type_name())
        if values[a] != values[b]:
            return False
        utils.replace_node(m.get_match_root(),
                           ops.multiply(values[a], ops.constant(np.float32(2.0))))
        return True
    return passes.MatcherPass(passes.Matcher(add, "AddSelf"), callback)


def relu_plus_any_to_subtract(rt, calls):
    """Add(Relu(.), any) in either order (Add is commutative) -> Subtract(any, Relu)."""
    _, ops, passes, utils = rt
    relu, other = passes.WrapType("opset1.Relu"), passes.AnyInput()
    add = passes.WrapType("opset1.Add", [relu, other])

    def callback(m):
        values = m.get_pattern_value_map()
        calls.append(m.get_match_root().get_type_name())
        utils.replace_node(m.get_match_root(), ops.subtract(values[other], values[relu]))
        return True
    return passes.MatcherPass(passes.Matcher(add, "ReluPlus"), callback)


def sigmoid_or_tanh_to_relu(rt, calls):
    _, ops, passes, utils = rt
    either = passes.Or([passes.WrapType("opset1.Sigmoid"), passes.WrapType("opset1.Tanh")])

    def callback(m):
        root = m.get_match_root()
        calls.append(root.get_type_name())
        utils.replace_node(root, ops.relu(root.input_value(0)))
        return True
    return passes.MatcherPass(passes.Matcher(either, "OrRelu"), callback)


def exp_of_optional_abs(rt, calls):
    """Exp(Abs(v)) or Exp(v) -> Tanh(v): the Abs, when there, is dropped."""
    _, ops, passes, utils = rt
    data = passes.AnyInput()
    maybe_abs = passes.Optional(["opset1.Abs"], data)
    exp = passes.WrapType("opset1.Exp", maybe_abs)

    def callback(m):
        values = m.get_pattern_value_map()
        calls.append(f"{m.get_match_root().get_type_name()}:{maybe_abs in values}")
        utils.replace_node(m.get_match_root(), ops.tanh(values[data]))
        return True
    return passes.MatcherPass(passes.Matcher(exp, "OptionalAbs"), callback)


def relu_with_one_consumer(rt, calls):
    """A Relu read once, of shape [2,?] and f32 -> Abs (predicates)."""
    _, ops, passes, utils = rt
    relu = passes.WrapType("opset1.Relu", passes.consumers_count(1))
    pattern = passes.WrapType("opset1.Relu", passes.shape_matches("[2,?]"))

    def callback(m):
        root = m.get_match_root()
        calls.append(root.get_type_name())
        if not passes.Matcher(pattern, "shape").match(root.output(0)):
            return False
        utils.replace_node(root, ops.abs(root.input_value(0)))
        return True
    return passes.MatcherPass(passes.Matcher(relu, "OneConsumer"), callback)


REWRITES = {f.__name__: f for f in (relu_to_exp, remove_exp, insert_exp_after_parameter,
                                    add_of_same_to_multiply, relu_plus_any_to_subtract,
                                    sigmoid_or_tanh_to_relu, exp_of_optional_abs,
                                    relu_with_one_consumer)}
RUNNERS = ["manager", "graph_rewrite", "backward_graph_rewrite"]


def _script(rt, core, steps, rewrites, runner):
    mod, ops, passes, _ = rt
    model = build(rt, steps)
    calls: list[str] = []
    made = [REWRITES[name](rt, calls) for name in rewrites]
    if runner == "manager":
        manager = passes.Manager()
        for p in made:
            manager.register_pass(p)
        manager.run_passes(model)
        returned = None
    else:
        anchor = passes.GraphRewrite() if runner == "graph_rewrite" else \
            passes.BackwardGraphRewrite()
        for p in made:
            anchor.add_matcher(p)
        returned = anchor.run_on_model(model)
    exprs = [expression(o) for o in model.outputs]
    # by position: after a rewrite that makes x feed a Result directly, the wheel no longer
    # finds the input by its name "x" (its Result tensor-name rules), a difference of
    # Output.replace, not of the passes
    values = [np.asarray(v) for v in core.compile_model(model, "CPU")([X]).values()]
    return calls, returned, exprs, values


def _same(a, b) -> bool:
    """Same calls, return and expressions; values within float32 rounding where both sides are
    finite and below 1e30. Chains of Exp overflow, and the wheel's CPU plugin computes exp with
    its own approximation, which reaches inf (then inf - inf = nan) a little before NumPy does:
    the rewrite, not the exp kernel, is what this family checks, and the expressions already
    say the two models compute the same thing."""
    def close(x, y) -> bool:
        x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
        tame = np.isfinite(x) & np.isfinite(y) & (np.abs(x) < 1e30) & (np.abs(y) < 1e30)
        return x.shape == y.shape and np.allclose(x[tame], y[tame], rtol=1e-4, atol=1e-6)
    return a[:3] == b[:3] and len(a[3]) == len(b[3]) and all(
        close(x, y) for x, y in zip(a[3], b[3], strict=True))


def _case(steps, rewrites, runner):
    case = f"{runner} {rewrites} on {steps}"
    real = attempt(lambda: _script(REAL, real_core(), steps, rewrites, runner))
    lab = attempt(lambda: _script(LAB, lab_core("host"), steps, rewrites, runner))
    compare("passes/pattern_rewrites", case, real, lab, _same)


def test_pattern_rewrites(request):
    """Generated chains, one to three rewrites, each way of running them."""
    run(request, "passes/pattern_rewrites", 40, _case,
        steps=st.lists(st.sampled_from(STEPS), min_size=1, max_size=6),
        rewrites=st.lists(st.sampled_from(sorted(REWRITES)), min_size=1, max_size=3),
        runner=st.sampled_from(RUNNERS))


@pytest.mark.parametrize("name", sorted(REWRITES))
def test_each_rewrite_on_a_model_it_changes(request, name):
    """Every rewrite at least once on a model where it matches (the generated cases may miss
    one), through the Manager."""
    steps = ["abs", "exp", "relu", "relu_add", "sigmoid", "add_self", "tanh", "branch"]
    real = attempt(lambda: _script(REAL, real_core(), steps, [name], "manager"))
    lab = attempt(lambda: _script(LAB, lab_core("host"), steps, [name], "manager"))
    assert not real.raised, real
    assert real.value[0], f"{name} matched nothing on the wheel: the case tests nothing"
    COMPARED.clear()
    EXPLAINED.clear()
    compare("passes/pattern_rewrites", f"manager [{name}]", real, lab, _same)
    record(request, "passes/pattern_rewrites")


# --- the API's names, read mechanically from the wheel --------------------------------------
def test_passes_module_names_match_the_wheel():
    """Every public name of the wheel's ``openvino.passes`` is in ovlab's, with the same kind
    (class or function), and the pattern classes' and passes' methods are there too; the C++
    transformations ovlab does not offer (LowLatency2...) are the runner's stand-ins."""
    import inspect

    from ovlab.sim.runner.standins import UNSIMULATED

    real_names = {n for n in dir(ov_passes) if not n.startswith("_")} - {
        "manager", "graph_rewrite", *UNSIMULATED}
    missing = sorted(n for n in real_names if not hasattr(lab_passes, n))
    assert not missing, f"ovlab.passes lacks {missing}"
    for n in sorted(real_names):
        assert inspect.isclass(getattr(ov_passes, n)) == inspect.isclass(getattr(lab_passes, n)), n
    for cls in ("Matcher", "MatcherPass", "GraphRewrite", "BackwardGraphRewrite", "Manager",
                "ModelPass"):
        want = {m for m in dir(getattr(ov_passes, cls)) if not m.startswith("_")}
        have = {m for m in dir(getattr(lab_passes, cls)) if not m.startswith("_")}
        assert want <= have, f"{cls} lacks {sorted(want - have)}"
