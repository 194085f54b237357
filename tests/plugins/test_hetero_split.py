"""HETERO's subgraph collector on hand-made graphs, and on random DAGs (hypothesis)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pbt_budget import budget

import ovlab
import ovlab.opset as ops
from ovlab.sim.graph import Constant, Parameter, Result
from ovlab.sim.plugins.hetero.split import greedy_affinities, make_plan, split


def names(group):
    return [n.get_friendly_name() for n in group.nodes]


def run_plan(plan, inputs):
    """Evaluate the submodels one after another, as HETERO does, in f32."""
    values = {}
    for sg in plan.subgraphs:
        ins = {j: (inputs[m] if k < 0 else values[(k, m)]) for j, (k, m) in enumerate(sg.sources)}
        for m, v in enumerate(sg.model._evaluate(ins)):
            values[(sg.index, m)] = v
    return [values[o] for o in plan.outputs]


def affinities(model, **by_name):
    """Every node on ``default`` unless named."""
    default = by_name.pop("default", "CPU")
    return {n: by_name.get(n.get_friendly_name(), default) for n in model.get_ordered_ops()}


def test_one_device_chain_is_one_subgraph():
    x = ops.parameter([1, 4], name="x")
    m = ovlab.Model([ops.sigmoid(ops.relu(x, name="a"), name="b")], [x], "chain")
    groups = split(m, affinities(m))
    assert len(groups) == 1 and groups[0].device == "CPU"
    assert names(groups[0])[:3] == ["x", "a", "b"]


def test_cycle_gpu_cpu_gpu_gives_three_submodels_two_on_gpu():
    # a (GPU) -> b (CPU) -> c (GPU) and a -> c: merging a and c would make a cycle
    x = ops.parameter([1, 4], name="x")
    a = ops.relu(x, name="a")
    b = ops.sigmoid(a, name="b")
    c = ops.add(a, b, name="c")
    m = ovlab.Model([c], [x], "cyc")
    plan = make_plan(m, affinities(m, default="GPU", b="CPU"))
    assert [sg.device for sg in plan.subgraphs] == ["GPU", "CPU", "GPU"]
    assert [sg.model.get_friendly_name() for sg in plan.subgraphs] == ["cyc_0", "cyc_1", "cyc_2"]
    assert "a" in names(plan.subgraphs[0]) and "c" in names(plan.subgraphs[2])
    # the tensor of a is produced once and read by both later submodels (one host buffer)
    shared = [it for it in plan.intermediates if it.source.get_node() is a]
    assert len(shared) == 1 and [c for c, _ in shared[0].consumers] == [1, 2]
    x0 = np.arange(4, dtype=np.float32).reshape(1, 4) - 1.5
    np.testing.assert_array_equal(run_plan(plan, {0: x0})[0], m._evaluate({0: x0})[0])


def test_alternating_affinities_cut_at_every_change():
    x = ops.parameter([1, 4], name="x")
    y = x
    for i in range(5):
        y = ops.relu(y, name=f"op{i}")
    m = ovlab.Model([y], [x], "alt")
    groups = split(m, affinities(m, op1="GPU", op3="GPU"))
    assert [g.device for g in groups] == ["CPU", "GPU", "CPU", "GPU", "CPU"]


def test_parameter_glues_its_consumers_as_measured():
    # measured on the real runtime: two branches off one input, all on CPU -> 1 submodel
    x = ops.parameter([1, 4], name="x")
    m = ovlab.Model([ops.relu(x, name="r1"), ops.sigmoid(x, name="s1")], [x], "two")
    assert len(split(m, affinities(m))) == 1


def test_input_read_by_two_devices_feeds_both_directly():
    x = ops.parameter([1, 4], name="x")
    m = ovlab.Model([ops.relu(x, name="r"), ops.sigmoid(x, name="s")], [x], "fan")
    plan = make_plan(m, affinities(m, s="GPU"))
    assert [sg.device for sg in plan.subgraphs] == ["CPU", "GPU"]
    assert all(sg.sources == [(-1, 0)] for sg in plan.subgraphs)
    assert plan.intermediates == []


def test_input_edges_are_not_dependencies():
    # x feeds a (CPU) and y (GPU); b (CPU) reads a and y. b may join a's submodel: the GPU part
    # only needs the user input, so it runs first and nothing is split needlessly.
    x = ops.parameter([1, 4], name="x")
    a = ops.relu(x, name="a")
    y = ops.sigmoid(x, name="y")
    b = ops.add(a, y, name="b")
    m = ovlab.Model([b], [x], "dep")
    groups = split(m, affinities(m, y="GPU"))
    assert [g.device for g in groups] == ["GPU", "CPU"]
    assert {"a", "b"} <= set(names(groups[1]))


def test_constants_are_copied_into_every_reader_not_transferred():
    x = ops.parameter([1, 4], name="x")
    k = ops.constant(np.full((1, 4), 2.0, np.float32), name="k")
    a = ops.multiply(x, k, name="a")
    b = ops.add(a, k, name="b")
    m = ovlab.Model([b], [x], "const")
    plan = make_plan(m, affinities(m, b="GPU"))
    assert len(plan.subgraphs) == 2
    for sg in plan.subgraphs:
        consts = [n for n in sg.model.get_ordered_ops() if isinstance(n, Constant)]
        assert [c.get_friendly_name() for c in consts] == ["k"]
    assert [it.source.get_node().get_friendly_name() for it in plan.intermediates] == ["a"]


def test_one_intermediate_per_producer_output_shared_by_its_readers():
    x = ops.parameter([1, 4], name="x")
    a = ops.relu(x, name="a")  # GPU
    b = ops.sigmoid(a, name="b")  # CPU
    c = ops.multiply(a, b, name="c")  # CPU, reads a too
    m = ovlab.Model([c], [x], "share")
    plan = make_plan(m, affinities(m, a="GPU", x="GPU"))
    assert len(plan.subgraphs) == 2
    cpu = plan.subgraphs[1]
    params = [n for n in cpu.model.get_ordered_ops() if isinstance(n, Parameter)]
    assert len(params) == 1  # one Parameter for a, read by b and c
    assert len(plan.intermediates) == 1 and plan.intermediates[0].nbytes == 16


def test_results_follow_their_producer():
    x = ops.parameter([1, 4], name="x")
    r = ops.result(ops.relu(x, name="a"), name="out")
    m = ovlab.Model([r], [x], "res")
    groups = split(m, affinities(m, a="GPU", x="GPU", out="CPU"))
    assert len(groups) == 1 and groups[0].device == "GPU"
    assert isinstance(groups[0].nodes[-1], Result)


def test_greedy_first_device_wins_and_inputs_follow_consumers():
    x = ops.parameter([1, 4], name="x")
    c = ops.clamp(x, -1.0, 1.0, name="clamp")  # the NPU has no Clamp
    r = ops.relu(c, name="relu")
    m = ovlab.Model([r], [x], "g")
    npu = lambda t: t != "Clamp"  # noqa: E731
    aff = {n.get_friendly_name(): d for n, d in
           greedy_affinities(m, [("NPU", npu), ("CPU", lambda t: True)]).items()}
    assert aff["clamp"] == "CPU" and aff["relu"] == "NPU"
    assert aff["x"] == "CPU"  # its only consumer went to the CPU
    only_npu = greedy_affinities(m, [("NPU", npu)])
    assert c not in only_npu and x not in only_npu


# --- random DAGs ---------------------------------------------------------------------------------
@st.composite
def random_dags(draw):
    """A small DAG of add / relu / multiply / concat(+matmul) on [1, 4] tensors, random affinities."""
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    n_params = draw(st.integers(1, 2))
    params = [ops.parameter([1, 4], name=f"in{i}") for i in range(n_params)]
    values = list(params)
    for i in range(draw(st.integers(1, 9))):
        kind = draw(st.sampled_from(["add", "relu", "multiply", "concat"]))
        a = values[draw(st.integers(0, len(values) - 1))]
        b = values[draw(st.integers(0, len(values) - 1))]
        if kind == "relu":
            node = ops.relu(a, name=f"n{i}")
        elif kind == "add":
            node = ops.add(a, b, name=f"n{i}")
        elif kind == "multiply":
            node = ops.multiply(a, b, name=f"n{i}")
        else:
            cat = ops.concat([a, b], 1, name=f"n{i}/cat")
            w = ops.constant(rng.standard_normal((8, 4)).astype(np.float32) * 0.5, name=f"n{i}/w")
            node = ops.matmul(cat, w, False, False, name=f"n{i}")
        values.append(node)
    used = {id(s.get_node()) for v in values for s in v.input_values()}
    sinks = [v for v in values[n_params:] if id(v) not in used]  # includes the last one
    outputs = [ops.result(v, name=f"out{i}") for i, v in enumerate(sinks)]
    reached = set()
    stack = [s.get_node() for o in outputs for s in o.input_values()]
    while stack:
        n = stack.pop()
        if id(n) not in reached:
            reached.add(id(n))
            stack.extend(s.get_node() for s in n.input_values())
    live_params = [p for p in params if id(p) in reached]
    model = ovlab.Model(outputs, live_params, "rnd")
    devices = {n: draw(st.sampled_from(["CPU", "GPU"])) for n in model.get_ordered_ops()}
    return model, devices


def _check_plan(model, aff):
    plan = make_plan(model, aff)
    computed = [n for sg in plan.subgraphs for n in sg.nodes if not isinstance(n, Parameter)]
    expected = [n for n in model.get_ordered_ops() if not isinstance(n, (Parameter, Constant))]
    assert sorted(map(id, computed)) == sorted(map(id, expected))  # every op exactly once
    for sg in plan.subgraphs:
        assert all(k < sg.index for k, _ in sg.sources)  # only earlier submodels: acyclic
        for n in sg.nodes:
            if not isinstance(n, (Parameter, Result)):
                assert aff[n] == sg.device
    return plan


@settings(max_examples=budget(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_dags())
def test_random_dags_split_into_an_acyclic_cover_with_equal_outputs(dag):
    model, aff = dag
    plan = _check_plan(model, aff)
    rng = np.random.default_rng(1)
    inputs = {i: rng.standard_normal((1, 4)).astype(np.float32)
              for i in range(len(model.get_parameters()))}
    for got, want in zip(run_plan(plan, inputs), model._evaluate(inputs), strict=True):
        np.testing.assert_array_equal(got, want)


@settings(max_examples=budget(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_dags())
def test_random_dags_run_on_hetero_like_on_one_device(dag):
    model, aff = dag
    for n, d in aff.items():
        n.get_rt_info()["affinity"] = d
    core = ovlab.Core("laptop")
    f32 = {"DEVICE_PROPERTIES": {"GPU": {"INFERENCE_PRECISION_HINT": "f32"}}}
    hetero = core.compile_model(model, "HETERO:GPU,CPU", f32)
    single = core.compile_model(model, "CPU")
    rng = np.random.default_rng(2)
    inputs = {i: rng.standard_normal((1, 4)).astype(np.float32)
              for i in range(len(model.get_parameters()))}
    got, want = hetero(inputs), single(inputs)
    for i in range(len(model.outputs)):
        np.testing.assert_array_equal(got[i], want[i])
    assert hetero.get_property("HETERO_NUMBER_OF_SUBMODELS") == len(make_plan(model, aff).subgraphs)


def test_split_needs_an_affinity_for_every_op():
    x = ops.parameter([1, 4], name="x")
    m = ovlab.Model([ops.relu(x, name="a")], [x], "m")
    with pytest.raises(KeyError):
        split(m, {})
