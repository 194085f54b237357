"""``Model._unchanged()``: op costs and the cache's model hash worked out once in a stretch of
ovlab's own code (a dashboard's change), never kept past it."""

import ovlab
from ovlab import zoo
from ovlab.sim.graph import costs
from ovlab.sim.runtime import model_cache


def test_costs_and_hash_are_worked_out_once_inside_and_afresh_after(monkeypatch):
    model = zoo.load("small-cnn")
    calls = []
    op_costs = costs.op_costs

    def counted(*a):
        calls.append(a[2])
        return op_costs(*a)

    monkeypatch.setattr("ovlab.sim.graph.model.op_costs", counted)
    plain = model._cost(1)
    with model._unchanged():
        first = model._cost(1)
        with model._unchanged():  # nested: the outer stretch's memo
            again = model._cost(1)
        twice = model._cost(2)
        h1 = model_cache._model_hash(model)
        h2 = model_cache._model_hash(model)
    assert first == again == plain and calls == [1, 1, 2]
    assert again is not first, "callers get their own list"
    assert twice != first and h1 == h2
    conv = next(op for op in model.get_ordered_ops() if op.get_type_name() == "Convolution")
    conv.set_friendly_name("renamed")  # an edit after the stretch is seen
    assert model._cost(1)[0].name == "renamed" and model_cache._model_hash(model) != h1
    assert getattr(model, "_unchanged_memo", None) is None


def test_a_dashboard_change_leaves_no_memo_behind():
    d = ovlab.widgets.TimelineDashboard(niter=20)
    d.knobs.timeout.value = 1050
    assert d.model._unchanged_memo is None
