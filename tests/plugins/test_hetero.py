"""HETERO: device lists, affinities, subgraphs, transfers, properties and profiling (H01-H13)."""

import datetime

import numpy as np
import pytest

import ovlab
import ovlab.properties as props
from ovlab import zoo
from ovlab.sim.hardware import cost
from ovlab.sim.plugins.hetero import difficult_model, format_counters
from ovlab.sim.runtime.backend import ProfilingInfo

EXECUTED = ProfilingInfo.Status.EXECUTED
NOT_RUN = ProfilingInfo.Status.NOT_RUN


def last_line(err) -> str:
    """The meaningful part of an OpenVINO-style error (after the ``Exception from`` chain)."""
    lines = [ln for ln in str(err.value).split("\n") if ln and not ln.startswith(("Exception from",
                                                                                   "Check "))]
    return "\n".join(lines)


def set_affinities(model, device_of):
    for op in model.get_ordered_ops():
        op.get_rt_info()["affinity"] = device_of(op)
    return model


def cnn_gpu_cpu():
    """small-cnn with every Relu and MaxPool on the CPU, the rest on the GPU: 7 submodels."""
    return set_affinities(zoo.load("small-cnn"), lambda op: "CPU" if op.get_type_name() in
                          ("Relu", "MaxPool") else "GPU")


def cnn_head_tail():
    """small-cnn with the convolutions on the GPU and the classifier (from flatten) on the CPU."""
    m = zoo.load("small-cnn")
    names = [op.get_friendly_name() for op in m.get_ordered_ops()]
    tail = set(names[names.index("flatten/shape"):])
    return set_affinities(m, lambda op: "CPU" if op.get_friendly_name() in tail else "GPU")


def image(model, seed=0):
    return np.random.default_rng(seed).standard_normal(list(model.inputs[0].shape)).astype(np.float32)


def records_of(core, seq):
    return sorted((r for r in core.trace.inferences if r.seq == seq), key=lambda r: r.subgraph)


def ms_per_inference(core, compiled, n=6):
    """Mean simulated latency of sequential inferences, the first (warm-up) one excluded."""
    request = compiled.create_infer_request()
    x = np.zeros(list(compiled.inputs[0].shape), np.float32)
    seqs = []
    for _ in range(n):
        seqs.append(core._seq)
        request.start_async({0: x})  # no results are read: nothing is computed, only timed
        request.wait()
    lat = [max(r.finished for r in records_of(core, s)) - records_of(core, s)[0].submitted
           for s in seqs[1:]]
    return 1e3 * float(np.mean(lat))


# --- H01: ways to name the devices -------------------------------------------------------------------
def test_h01_device_list_forms_compile_the_same():
    model = cnn_head_tail()  # manual: the list must not matter for the split ...
    plain = zoo.load("small-cnn")  # ... automatic: the list order is the priority
    core = ovlab.Core("laptop")
    by_name = core.compile_model(plain, "HETERO:GPU,CPU")
    by_config = core.compile_model(plain, "HETERO", {"MULTI_DEVICE_PRIORITIES": "GPU,CPU"})
    by_prop = core.compile_model(plain, "HETERO", dict([props.device.priorities("GPU", "CPU")]))
    core.set_property("HETERO", {"MULTI_DEVICE_PRIORITIES": "GPU,CPU"})
    by_core = core.compile_model(plain, "HETERO")
    for compiled in (by_name, by_config, by_prop, by_core):
        assert compiled.get_property("EXECUTION_DEVICES") == ["GPU"]
        assert compiled.get_property("HETERO_NUMBER_OF_SUBMODELS") == 1
        assert compiled.get_property("NETWORK_NAME") == "small-cnn"
    assert by_prop.get_property("MULTI_DEVICE_PRIORITIES") == "GPU,CPU,"  # as given (measured)
    assert by_core.get_property("MULTI_DEVICE_PRIORITIES") == "GPU,CPU"
    assert ovlab.Core("laptop").compile_model(plain, "HETERO:CPU,GPU").get_property(
        "EXECUTION_DEVICES") == ["CPU"]
    assert core.compile_model(model, "HETERO:CPU").get_property("EXECUTION_DEVICES") == ["GPU", "CPU"]


def test_h01_three_devices_in_priority_order():
    core = ovlab.Core("workstation")
    g = zoo.load("googlenet-v1")
    compiled = core.compile_model(g, "HETERO:NPU,GPU.1,CPU")
    assert compiled.get_property("EXECUTION_DEVICES") == ["NPU", "GPU.1"]  # CPU never needed
    query = core.query_model(g, "HETERO:NPU,CPU,GPU.1")
    assert set(query.values()) == {"NPU", "CPU"}
    assert {query[op.get_friendly_name()] for op in g.get_ordered_ops()
            if op.get_type_name() == "LRN"} == {"CPU"}


def test_h01_bare_hetero_and_unknown_devices_fail_as_measured():
    core = ovlab.Core("laptop")
    m = zoo.load("small-cnn")
    for name in ("HETERO", "HETERO:"):
        with pytest.raises(RuntimeError) as err:
            core.compile_model(m, name)
        assert last_line(err) == "Unexpected node type found in model after query_model_update()"
        assert "src/plugins/hetero/src/plugin.cpp:90" in str(err.value)
    with pytest.raises(RuntimeError) as err:
        core.compile_model(m, "HETERO:FOO,CPU")
    assert str(err.value) == (
        "Exception from src/inference/src/cpp/core.cpp:117:\n"
        "Exception from src/inference/src/dev/plugin.cpp:54:\n"
        "Exception from src/inference/src/dev/core_impl.cpp:706:\n"
        'Device with "FOO" name is not registered in the OpenVINO Runtime\n\n\n')
    with pytest.raises(RuntimeError, match='Device with "FOO" name is not registered'):
        core.query_model(m, "HETERO:FOO,CPU")
    with pytest.raises(RuntimeError) as err:  # measured with the OpenCL loader but no GPU
        ovlab.Core("cpu").compile_model(m, "HETERO:GPU,CPU")
    assert str(err.value).endswith(
        "Check 'contexts.count(device_id)' failed at src/plugins/intel_gpu/src/plugin/plugin.cpp:"
        "312:\n[GPU] Context was not initialized for 0 device\n\n\n\n")


def test_plugin_properties_as_measured():
    core = ovlab.Core("laptop")
    assert core.get_property("HETERO", "SUPPORTED_PROPERTIES") == {
        "SUPPORTED_PROPERTIES": "RO", "FULL_DEVICE_NAME": "RO", "OPTIMIZATION_CAPABILITIES": "RO",
        "MULTI_DEVICE_PRIORITIES": "RW", "MODEL_DISTRIBUTION_POLICY": "RW"}
    assert core.get_property("HETERO", "FULL_DEVICE_NAME") == "HETERO"
    assert core.get_property("HETERO", "OPTIMIZATION_CAPABILITIES") == ["EXPORT_IMPORT"]
    assert core.get_property("HETERO", "MULTI_DEVICE_PRIORITIES") == ""
    assert core.get_property("HETERO", "MODEL_DISTRIBUTION_POLICY") == set()
    assert core.get_versions("HETERO:GPU,CPU")["HETERO"].description == "openvino_hetero_plugin"
    with pytest.raises(RuntimeError) as err:
        core.get_property("HETERO", "PERF_COUNT")
    assert last_line(err) == "Property was not found: PERF_COUNT"
    assert "src/plugins/hetero/src/config.cpp:52" in str(err.value)
    with pytest.raises(RuntimeError) as err:
        core.set_property("HETERO", {"FOO": "1"})
    assert "config.cpp:40:\nProperty was not found: FOO" in str(err.value)
    with pytest.raises(RuntimeError, match="Wrong value TENSOR_PARALLEL for property key "
                                           "MODEL_DISTRIBUTION_POLICY. HETERO plugin only support"):
        core.set_property("HETERO", {"MODEL_DISTRIBUTION_POLICY": "TENSOR_PARALLEL"})
    core.set_property("HETERO", {props.hint.model_distribution_policy:
                                 {props.hint.ModelDistributionPolicy.PIPELINE_PARALLEL}})
    assert core.get_property("HETERO", "MODEL_DISTRIBUTION_POLICY") == {
        props.hint.ModelDistributionPolicy.PIPELINE_PARALLEL}


# --- H02 / H06: query_model ----------------------------------------------------------------------------
def test_h02_query_is_greedy_first_device_wins():
    core = ovlab.Core("workstation")
    g = zoo.load("googlenet-v1")
    query = core.query_model(g, "HETERO:NPU,CPU")
    assert isinstance(query, dict) and list(query) == sorted(query)
    assert set(query) == {op.get_friendly_name() for op in g.get_ordered_ops()}
    for op in g.get_ordered_ops():
        t = op.get_type_name()
        if t == "LRN":
            assert query[op.get_friendly_name()] == "CPU"
        elif t not in ("Parameter", "Constant", "Result"):
            assert query[op.get_friendly_name()] == "NPU"
    assert set(core.query_model(g, "HETERO:CPU,NPU").values()) == {"CPU"}
    assert core.query_model(g, "HETERO") == {}
    only_npu = core.query_model(g, "HETERO:NPU")  # no error: unsupported ops are just absent
    assert "pool1/norm1" not in only_npu and only_npu["conv1/7x7_s2"] == "NPU"


def test_h06_query_does_not_depend_on_user_affinities():
    core = ovlab.Core("laptop")
    m = zoo.load("small-cnn")
    before = core.query_model(m, "HETERO:GPU,CPU")
    set_affinities(m, lambda op: "CPU")
    assert core.query_model(m, "HETERO:GPU,CPU") == before
    assert set(before.values()) == {"GPU"}
    core.set_property("HETERO", {"MULTI_DEVICE_PRIORITIES": "CPU,GPU"})
    assert set(core.query_model(m, "HETERO").values()) == {"CPU"}


# --- H03 / H04 / H05: manual and combined modes -----------------------------------------------------------
def test_h03_manual_affinities_ignore_the_list():
    core = ovlab.Core("laptop")
    on_cpu = set_affinities(zoo.load("small-cnn"), lambda op: "CPU")
    compiled = core.compile_model(on_cpu, "HETERO:GPU")
    assert compiled.get_property("EXECUTION_DEVICES") == ["CPU"]
    assert compiled.get_property("HETERO_NUMBER_OF_SUBMODELS") == 1
    on_gpu = set_affinities(zoo.load("small-cnn"), lambda op: "GPU")
    assert core.compile_model(on_gpu, "HETERO:CPU").get_property("EXECUTION_DEVICES") == ["GPU"]
    assert core.compile_model(on_cpu, "HETERO").get_property("MULTI_DEVICE_PRIORITIES") == ""
    assert [e.device for e in core.trace.events if e.kind == "compile_end"] == ["CPU", "GPU.0", "CPU"]


def test_h04_query_override_then_compile():
    core = ovlab.Core("laptop")
    model = zoo.load("small-cnn")
    supported = core.query_model(model, "HETERO:GPU,CPU")
    for name in ("relu1", "pool1"):
        supported[name] = "CPU"
    for node in model.get_ops():
        node.get_rt_info()["affinity"] = supported[node.get_friendly_name()]
    compiled = core.compile_model(model, "HETERO:GPU,CPU")
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU", "CPU"]
    assert compiled.get_property("HETERO_NUMBER_OF_SUBMODELS") == 3
    plan = compiled._backend.plan
    assert [sg.device for sg in plan.subgraphs] == ["GPU", "CPU", "GPU"]
    assert {n.get_friendly_name() for n in plan.subgraphs[1].nodes} >= {"relu1", "pool1"}


def test_h05_manual_mode_is_all_or_nothing():
    core = ovlab.Core("laptop")
    m = zoo.load("small-cnn")
    set_affinities(m, lambda op: "CPU")
    relu = next(op for op in m.get_ordered_ops() if op.get_friendly_name() == "relu1")
    del relu.get_rt_info()["affinity"]
    with pytest.raises(RuntimeError) as err:
        core.compile_model(m, "HETERO:GPU,CPU")
    assert last_line(err) == (
        "Model passed to CompiledModel has affinity assigned, but some layers eg: \n"
        "(Name:relu1, Type: Relu) were not assigned to any device.\n"
        "It might happen if you assigned layers manually and missed some layers or\n"
        "if you used some automatic assigning mode which decided that these layers are not\n"
        "supported by any plugin")
    assert "src/plugins/hetero/src/subgraph_collector.cpp:1251" in str(err.value)
    m2 = set_affinities(zoo.load("small-cnn"), lambda op: "CPU")
    del m2.get_results()[0].get_rt_info()["affinity"]  # Results need one too (measured)
    with pytest.raises(RuntimeError, match=r"\(Name:prob/sink_port_0, Type: Result\)"):
        core.compile_model(m2, "HETERO:CPU")
    m3 = set_affinities(zoo.load("small-cnn"), lambda op: 3)
    with pytest.raises(RuntimeError, match='Unexpected type of "affinity" attribute'):
        core.compile_model(m3, "HETERO:CPU")


def test_affinity_errors_name_the_device():
    core = ovlab.Core("laptop")
    for bad, message in [
        ("FOO", "Standard exception from compilation library: Exception from "
                "src/inference/src/dev/core_impl.cpp:706:\n"
                'Device with "FOO" name is not registered in the OpenVINO Runtime\n'),
        ("CPU.0", "Standard exception from compilation library: Exception from "
                  "src/inference/src/dev/plugin.cpp:54:\nCheck 'device_id.empty()' failed at "
                  "src/plugins/intel_cpu/src/config.cpp:247:\nCPU plugin supports only '' as "
                  "device id\n\n"),
    ]:
        m = set_affinities(zoo.load("small-cnn"),
                           lambda op, b=bad: b if op.get_type_name() == "Convolution" else "CPU")
        with pytest.raises(RuntimeError) as err:
            core.compile_model(m, "HETERO:CPU")
        assert str(err.value).startswith(
            "Exception from src/inference/src/cpp/core.cpp:117:\n"
            "Exception from src/inference/src/dev/plugin.cpp:54:\n"
            "Exception from src/plugins/hetero/src/compiled_model.cpp:143:\n" + message)
    m = set_affinities(zoo.load("small-cnn"), lambda op: "HETERO")  # segfaults the real runtime
    with pytest.raises(RuntimeError, match="HETERO cannot run a part of a model on HETERO"):
        core.compile_model(m, "HETERO:CPU")
    assert not any(e.kind == "compile_start" for e in core.trace.events)  # nothing was compiled


def test_virtual_device_affinity_compiles_there_as_measured():
    core = ovlab.Core("laptop")
    m = set_affinities(zoo.load("small-cnn"),
                       lambda op: "AUTO:CPU" if op.get_type_name() == "Relu" else "CPU")
    try:
        compiled = core.compile_model(m, "HETERO:CPU")
    except RuntimeError as e:  # pragma: no cover - only while AUTO is a placeholder
        if "not implemented yet" in str(e):
            pytest.skip("AUTO is not implemented yet")
        raise
    assert compiled.get_property("EXECUTION_DEVICES") == ["CPU", "AUTO:CPU"]
    x = image(m)
    np.testing.assert_array_equal(compiled({0: x})[0], core.compile_model(zoo.load("small-cnn"),
                                                                           "CPU")({0: x})[0])


# --- H07: subgraphs, compiles, intermediate tensors, execution ---------------------------------------------
def test_h07_alternating_subgraphs_compiled_in_sequence_on_their_devices():
    core = ovlab.Core("laptop")
    t0 = core.clock.now
    compiled = core.compile_model(cnn_gpu_cpu(), "HETERO:GPU,CPU")
    elapsed = core.clock.now - t0
    plan = compiled._backend.plan
    assert [sg.device for sg in plan.subgraphs] == ["GPU", "CPU"] * 3 + ["GPU"]
    assert [sg.model.get_friendly_name() for sg in plan.subgraphs] == [f"small-cnn_{i}"
                                                                       for i in range(7)]
    assert compiled.get_property("HETERO_NUMBER_OF_SUBMODELS") == 7
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU", "CPU"]
    starts = [e for e in core.trace.events if e.kind == "compile_start"]
    ends = [e for e in core.trace.events if e.kind == "compile_end"]
    assert [e.model for e in starts] == [f"small-cnn_{i}" for i in range(7)]
    assert [e.device for e in ends] == ["GPU.0", "CPU"] * 3 + ["GPU.0"]
    for end, nxt in zip(ends, starts[1:], strict=False):
        assert nxt.time == pytest.approx(end.time)  # one after the other
    assert elapsed == pytest.approx(sum(e.detail["seconds"] for e in starts))  # the sum
    # one intermediate tensor per cut, sized from the producer's shape and element type
    assert len(plan.intermediates) == 6
    for it in plan.intermediates:
        assert it.nbytes == 4 * int(np.prod(list(it.source.get_shape())))
        assert len(it.consumers) == 1
    # one inference: 7 device runs tagged with their subgraph, in order
    compiled.create_infer_request().infer({0: image(compiled)})
    recs = records_of(core, 0)
    assert [r.subgraph for r in recs] == list(range(7))
    assert [r.device for r in recs] == ["GPU.0", "CPU"] * 3 + ["GPU.0"]
    assert all(a.finished <= b.started for a, b in zip(recs, recs[1:], strict=False))


def test_h07_cycle_through_compile_gives_three_submodels():
    import ovlab.opset as ops

    x = ops.parameter([1, 8], name="x")
    a = ops.relu(x, name="a")
    b = ops.sigmoid(a, name="b")
    m = ovlab.Model([ops.add(a, b, name="c")], [x], "cyc")
    set_affinities(m, lambda op: "CPU" if op.get_friendly_name() == "b" else "GPU")
    compiled = ovlab.Core("laptop").compile_model(m, "HETERO:GPU,CPU")
    assert compiled.get_property("HETERO_NUMBER_OF_SUBMODELS") == 3
    assert compiled._backend.subgraph_devices == ["GPU", "CPU", "GPU"]
    assert compiled.get_property("EXECUTION_DEVICES") == ["GPU", "CPU"]


def test_h07_transfers_are_paid_between_submodels():
    core = ovlab.Core("laptop")
    compiled = core.compile_model(cnn_head_tail(), "HETERO:GPU,CPU")
    backend = compiled._backend
    (it,) = backend.plan.intermediates
    gpu, cpu = core.platform.devices["GPU.0"], core.platform.devices["CPU"]
    expected = cost.transfer_time(gpu, cpu, it.nbytes)
    assert backend.output_transfer == [pytest.approx(expected), 0.0]
    assert backend.input_transfer == [0.0, 0.0]  # the CPU is the host: reading is free
    compiled.create_infer_request().infer({0: image(compiled)})
    first, second = records_of(core, 0)
    assert second.started - first.finished == pytest.approx(expected)


def test_h07_requests_pipeline_across_devices():
    core = ovlab.Core("laptop")
    compiled = core.compile_model(cnn_head_tail(), "HETERO:GPU,CPU")
    requests = [compiled.create_infer_request() for _ in range(2)]
    for r in requests:
        r.start_async({0: image(compiled)})
    for r in requests:
        r.wait()
    gpu_b = next(r for r in records_of(core, 1) if r.subgraph == 0)
    cpu_a = next(r for r in records_of(core, 0) if r.subgraph == 1)
    assert gpu_b.started < cpu_a.finished and cpu_a.started < gpu_b.finished  # overlap
    assert all(len(records_of(core, s)) == 2 for s in (0, 1))


def test_failures_reach_the_caller_and_nothing_hangs():
    core = ovlab.Core("laptop")
    compiled = core.compile_model(cnn_head_tail(), "HETERO:GPU,CPU")
    request = compiled.create_infer_request()
    core.faults.fail_inference("CPU", nth=1)
    with pytest.raises(RuntimeError, match="inference failed on CPU"):
        request.infer({0: image(compiled)})
    assert request.infer({0: image(compiled)})[0].shape == (1, 10)  # next one runs
    core.faults.fail_compile("GPU.0")
    with pytest.raises(RuntimeError) as err:
        core.compile_model(cnn_head_tail(), "HETERO:GPU,CPU")
    assert "compiled_model.cpp:143:\nStandard exception from compilation library: " in str(err.value)
    assert "compile failed on GPU.0" in str(err.value)


# --- H08: per-device configuration -------------------------------------------------------------------
def test_h08_device_properties_reach_only_their_device():
    core = ovlab.Core("laptop")
    config = {props.device.priorities: "GPU,CPU",
              props.device.properties: {"GPU": {"PERF_COUNT": True},
                                        "CPU": {"INFERENCE_PRECISION_HINT": "f32"}},
              "MODEL_PRIORITY": "HIGH"}  # the CPU rejects this key: HETERO passes it to the GPU only
    compiled = core.compile_model(cnn_gpu_cpu(), "HETERO", config)
    per_device = compiled.get_property("DEVICE_PROPERTIES")
    assert set(per_device) == {"GPU", "CPU"}
    assert per_device["GPU"]["PERF_COUNT"] == "YES" and per_device["CPU"]["PERF_COUNT"] == "NO"
    assert per_device["CPU"]["INFERENCE_PRECISION_HINT"] == ovlab.Type.f32
    assert per_device["GPU"]["MODEL_PRIORITY"] == props.hint.Priority.HIGH
    assert per_device["GPU"]["NETWORK_NAME"] == "small-cnn_0"
    request = compiled.create_infer_request()
    request.infer({0: image(compiled)})
    for row in request.get_profiling_info():
        if row.node_type in ("Convolution", "MatMul"):
            assert row.status == EXECUTED
        if row.node_type in ("Relu", "MaxPool"):
            assert row.status == NOT_RUN


def test_h08_seed_form_with_core_set_property():
    core = ovlab.Core("laptop")
    core.set_property("HETERO", {"MULTI_DEVICE_PRIORITIES": "GPU,CPU"})
    core.set_property("GPU", {"PERF_COUNT": "YES"})
    core.set_property("CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    compiled = core.compile_model(model=cnn_gpu_cpu(), device_name="HETERO")
    per_device = compiled.get_property("DEVICE_PROPERTIES")
    assert per_device["GPU"]["PERF_COUNT"] == "YES" and per_device["CPU"]["PERF_COUNT"] == "NO"


def test_h08_subgraphs_are_exclusive_no_implicit_batching():
    core = ovlab.Core("laptop")
    config = {"DEVICE_PROPERTIES": {"GPU": {"PERFORMANCE_HINT": "THROUGHPUT"}}}
    compiled = core.compile_model(cnn_head_tail(), "HETERO:GPU,CPU", config)
    backends = compiled._backend.backends
    assert [type(b).__name__ for b in backends] == ["HardwareBackend", "HardwareBackend"]
    assert compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == max(
        b.optimal_requests() for b in backends) == 4
    with pytest.raises(RuntimeError, match="Wrong value FASTfor property key PERFORMANCE_HINT"):
        core.compile_model(zoo.load("small-cnn"), "HETERO:GPU,CPU", {"PERFORMANCE_HINT": "FAST"})


def test_compiled_properties_as_measured():
    compiled = ovlab.Core("laptop").compile_model(cnn_head_tail(), "HETERO:GPU,CPU")
    assert compiled.get_property("SUPPORTED_PROPERTIES") == {k: "RO" for k in [
        "NETWORK_NAME", "OPTIMAL_NUMBER_OF_INFER_REQUESTS", "EXECUTION_DEVICES", "LOADED_FROM_CACHE",
        "HETERO_NUMBER_OF_SUBMODELS", "SUPPORTED_PROPERTIES", "DEVICE_PROPERTIES",
        "MULTI_DEVICE_PRIORITIES"]}
    assert compiled.get_property("LOADED_FROM_CACHE") is False
    assert compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS") == 1
    assert compiled.get_property("MULTI_DEVICE_PRIORITIES") == "GPU,CPU"
    with pytest.raises(RuntimeError) as err:
        compiled.get_property("PERFORMANCE_HINT")
    assert str(err.value) == ("Exception from src/inference/src/cpp/compiled_model.cpp:140:\n"
                              "Exception from src/plugins/hetero/src/config.cpp:52:\n"
                              "Property was not found: PERFORMANCE_HINT\n\n")
    with pytest.raises(RuntimeError, match="It's not possible to set property of an already "
                                           "compiled model"):
        compiled.set_property({"PERF_COUNT": True})


# --- H09: the difficult topology -------------------------------------------------------------------------
def test_h09_difficult_topology_slower_split_fixed_by_manual_affinities():
    core = ovlab.Core("workstation")
    cpu_ms = ms_per_inference(core, core.compile_model(difficult_model(), "CPU"))
    auto = core.compile_model(difficult_model(), "HETERO:NPU,CPU")
    auto_ms = ms_per_inference(core, auto)

    def tail_on_cpu(op):
        name = op.get_friendly_name()
        return "CPU" if name.startswith(("tail", "gap", "features")) else "NPU"

    manual = core.compile_model(set_affinities(difficult_model(), tail_on_cpu), "HETERO:NPU,CPU")
    manual_ms = ms_per_inference(core, manual)
    assert auto.get_property("HETERO_NUMBER_OF_SUBMODELS") >= 10  # the activations split it
    assert manual.get_property("HETERO_NUMBER_OF_SUBMODELS") == 2
    assert manual_ms < cpu_ms < auto_ms
    assert auto_ms > 1.2 * cpu_ms and manual_ms < 0.7 * cpu_ms


# --- H11: profiling per subgraph ---------------------------------------------------------------------------
def test_h11_counters_per_subgraph_with_transfers_and_total():
    core = ovlab.Core("workstation")
    compiled = core.compile_model(zoo.load("googlenet-v1"), "HETERO:NPU,CPU", {"PERF_COUNT": True})
    backend = compiled._backend
    n = compiled.get_property("HETERO_NUMBER_OF_SUBMODELS")
    assert backend.subgraph_devices == ["NPU", "CPU", "NPU", "CPU", "NPU"]
    request = compiled.create_infer_request()
    request.start_async()
    request.wait()
    rows = request.get_profiling_info()
    prefixes = [int(r.node_name.split(":")[0][len("subgraph"):]) for r in rows]
    assert prefixes == sorted(prefixes) and set(prefixes) == set(range(n))
    by_name = {r.node_name: r for r in rows}
    assert by_name["subgraph1: pool1/norm1"].node_type == "LRN"
    assert by_name["subgraph0: conv1/7x7_s2"].status == EXECUTED
    for i in range(n):
        inp, out = by_name[f"subgraph{i}: input transfer"], by_name[f"subgraph{i}: output transfer"]
        for row, seconds in ((inp, backend.input_transfer[i]), (out, backend.output_transfer[i])):
            assert row.status == (EXECUTED if seconds > 0 else NOT_RUN)
            assert row.real_time == datetime.timedelta(microseconds=round(seconds * 1e6))
    # NPU parts send to the host, NPU parts read from it; the CPU is the host
    assert [by_name[f"subgraph{i}: output transfer"].status for i in range(n)] == [
        EXECUTED, NOT_RUN, EXECUTED, NOT_RUN, NOT_RUN]
    assert [by_name[f"subgraph{i}: input transfer"].status for i in range(n)] == [
        NOT_RUN, NOT_RUN, EXECUTED, NOT_RUN, EXECUTED]
    text = format_counters(rows)
    lines = text.split("\n")
    assert len(lines) == len(rows) + 1
    assert any(ln.startswith("subgraph1: pool1/norm1:") and "EXECUTED" in ln and "layerType: LRN"
               in ln for ln in lines)
    total = sum(r.real_time // datetime.timedelta(microseconds=1) for r in rows)
    assert lines[-1] == f"Total time: {total} microseconds"
    recs = records_of(core, 0)
    latency_us = (recs[-1].finished - recs[0].submitted) * 1e6
    assert abs(total - latency_us) <= len(rows)  # the counters add up to the inference


# --- H12: same results ----------------------------------------------------------------------------------
def test_h12_outputs_equal_single_device():
    core = ovlab.Core("laptop")
    x = image(zoo.load("small-cnn"), seed=3)
    reference = core.compile_model(zoo.load("small-cnn"), "CPU")({0: x})[0]
    f32 = {"DEVICE_PROPERTIES": {"GPU": {"INFERENCE_PRECISION_HINT": "f32"}}}
    exact = core.compile_model(cnn_gpu_cpu(), "HETERO:GPU,CPU", f32)({0: x})[0]
    np.testing.assert_array_equal(exact, reference)
    f16 = core.compile_model(cnn_gpu_cpu(), "HETERO:GPU,CPU")({0: x})[0]  # GPU parts in f16
    np.testing.assert_allclose(f16, reference, rtol=2e-2, atol=2e-3)
    assert not np.array_equal(f16, reference)  # the GPU's precision shows
    gpu_only = core.compile_model(zoo.load("small-cnn"), "GPU")({0: x})[0]
    np.testing.assert_allclose(f16, gpu_only, rtol=2e-2, atol=2e-3)


def test_h12_each_request_gets_its_own_results():
    core = ovlab.Core("laptop")
    compiled = core.compile_model(cnn_head_tail(), "HETERO:GPU,CPU",
                                  {"DEVICE_PROPERTIES": {"GPU": {"INFERENCE_PRECISION_HINT": "f32"}}})
    single = core.compile_model(zoo.load("small-cnn"), "CPU")
    queue = ovlab.AsyncInferQueue(compiled, 3)
    got = {}
    queue.set_callback(lambda req, i: got.__setitem__(i, req.results[0].copy()))
    for i in range(6):
        queue.start_async({0: image(compiled, seed=i)}, i)
    queue.wait_all()
    for i in range(6):
        np.testing.assert_array_equal(got[i], single({0: image(compiled, seed=i)})[0])


# --- H13: unsupported everywhere ------------------------------------------------------------------------
def test_h13_op_no_listed_device_supports():
    core = ovlab.Core("workstation")
    with pytest.raises(RuntimeError) as err:
        core.compile_model(zoo.load("googlenet-v1"), "HETERO:NPU")
    assert last_line(err) == (
        "Hetero device used default fallback policy, but some layers eg: \n"
        "(Name:pool1/norm1, Type: LRN) were not able to be assigned on any pointed device.\n"
        "It happened because these layers are not supported in plugins by default.\n"
        "You need to implement custom layers to support them.")
    assert "src/plugins/hetero/src/subgraph_collector.cpp" in str(err.value)
