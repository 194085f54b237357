"""The older builders the wheel's opset1-11 modules keep (``ovlab/sim/graph/opset_versions.py``):
the same output type, shape and numbers as the real ones."""

from __future__ import annotations

import numpy as np
import openvino as ov
import openvino.opset2 as real2
import openvino.opset4 as real4  # range-1, gelu-2, mvn-2 and interpolate-1 are still there
import pytest
from conformance_harness import LAB, REAL

import ovlab
from ovlab.sim.graph import opset_versions as old

# f32 on both: the real CPU's default is bf16 on an AVX512_BF16/AMX host and f32 elsewhere, and
# these tests also run with the host described as another CPU (tests/graph/test_bf16_cpu.py
# compares bf16)
F32 = {"INFERENCE_PRECISION_HINT": "f32"}

X = (np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5) % 7) - 3.0

CASES = {
    "range": (lambda m, x: m.range(np.int32(1), np.int32(10), np.int32(3)), "range_v1"),
    "gelu": (lambda m, x: m.gelu(x), "gelu_v2"),
    "mvn": (lambda m, x: m.mvn(x, True, True, 1e-3), "mvn_v2"),
    "mvn_channels": (lambda m, x: m.mvn(x, False, False), "mvn_v2"),
    "broadcast": (lambda m, x: m.broadcast(np.float32([1, 2, 3]), [2, 3], mode="NUMPY"),
                  "broadcast_v1"),
    "interpolate_nearest": (lambda m, x: m.interpolate(
        x, np.int64([5, 8]), {"axes": [2, 3], "mode": "nearest"}), "interpolate_v1"),
    "interpolate_linear": (lambda m, x: m.interpolate(
        x, np.int64([6, 3]), {"axes": [2, 3], "mode": "linear", "align_corners": False}),
        "interpolate_v1"),
    "interpolate_cubic": (lambda m, x: m.interpolate(
        x, np.int64([7, 9]), {"axes": [2, 3], "mode": "cubic"}), "interpolate_v1"),
    "interpolate_nearest_asym": (lambda m, x: m.interpolate(
        x, np.int64([7, 2]), {"axes": [2, 3], "mode": "nearest", "align_corners": False}),
        "interpolate_v1"),
}


class _Old:
    """ovlab's old builders under the real names (as the runner serves them in opset2)."""

    range, gelu, mvn, broadcast, interpolate = (old.range_v1, old.gelu_v2, old.mvn_v2,
                                                 old.broadcast_v1, old.interpolate_v1)


@pytest.mark.parametrize("case", list(CASES))
def test_old_builders_match_the_wheels(case):
    build = CASES[case][0]
    got = {}
    for rt, module in ((REAL, real2 if case == "broadcast" else real4), (LAB, _Old)):
        x = rt.ops.parameter(list(X.shape), np.float32, name="x")
        node = build(module, x)
        params = [] if case in ("range", "broadcast") else [x]
        model = rt.Model([node], params, "m")
        out = rt.new_core().compile_model(model, "CPU", F32).create_infer_request() \
            .infer({0: X} if params else {})[0]
        got[rt.name] = (node.get_output_element_type(0).get_type_name(), out)
    assert got["ovlab"][0] == got["openvino"][0]
    np.testing.assert_allclose(got["ovlab"][1], got["openvino"][1], rtol=1e-5, atol=1e-5)


def test_the_runner_serves_them_in_the_old_opsets_only():
    ovlab.install()
    try:
        import openvino.opset2 as served2
        import openvino.opset13 as served13
        assert served2.gelu is old.gelu_v2 and served13.gelu is ovlab.opset.gelu
        import openvino.op as served_op
        import openvino.opset3 as served3
        import openvino.opset7 as served7
        import openvino.opset8 as served8
        import openvino.opset10 as served10
        import openvino.opset16 as served16
        assert served7.max_pool is old.max_pool_v1 and served8.max_pool is ovlab.opset.max_pool
        assert served10.interpolate is old.interpolate_v4
        assert served16.one_hot is old.one_hot_v16 and served13.one_hot is ovlab.opset.one_hot
        # assign: a function in opset3-5, the Assign node class in opset6+ and openvino.op
        assert served13.assign is served_op.assign and isinstance(served_op.assign, type)
        assert not isinstance(served3.assign, type)
        node = served13.assign(served13.parameter([2], np.float32), "v")
        assert isinstance(node, served16.assign) and node.get_variable_id() == "v"
        assert served16.assign().get_attributes() == {"variable_id": ""}
    finally:
        ovlab.uninstall()
    assert ov is not None


# --- the builders of opset1-7 (MaxPool-1), opset10 (Interpolate-4) and opset15/16 ---------------
Y = (np.arange(1 * 2 * 7 * 6, dtype=np.float32).reshape(1, 2, 7, 6) * 37 % 11) - 5.0


def _run(rt, node, params):
    """Every output of ``node`` (as the wheel's ``Model(node, ...)`` has them) or of a model
    (``params`` None), inferred on Y."""
    model = node if params is None else rt.Model(node, params, "m")
    params = model.get_parameters()
    req = rt.new_core().compile_model(model, "CPU", F32).create_infer_request()
    outs = req.infer({0: Y} if params else {})
    return [outs[i] for i in range(len(model.outputs))]


NEW_CASES = {
    "max_pool_1": ("opset7", lambda m, x: m.max_pool(x, [2, 1], [1, 0], [0, 1], [3, 2], "ceil")),
    "interpolate_4_sizes": ("opset10", lambda m, x: m.interpolate(
        x, np.int64([9, 4]), np.float32([1.0, 1.0]), "linear_onnx", "sizes",
        axes=np.int64([2, 3]))),
    "interpolate_4_scales": ("opset10", lambda m, x: m.interpolate(
        x, np.int64([1, 1]), np.float32([1.5, 0.5]), "nearest", "scales",
        axes=np.int64([2, 3]))),
    "avg_pool_16_dilations": ("opset16", lambda m, x: m.avg_pool(
        x, [1, 2], [1, 1], [1, 0], [3, 2], True, dilations=[2, 2])),
    "avg_pool_16_no_exclude": ("opset16", lambda m, x: m.avg_pool(
        x, [2, 1], [1, 1], [1, 1], [2, 2], False, dilations=[1, 3])),
    "squeeze_15_skip": ("opset15", lambda m, x: m.squeeze(
        m.reshape(x, np.int64([2, 1, 42]), False), np.int64([0, 1]), allow_axis_skip=True)),
    "squeeze_15_all": ("opset15", lambda m, x: m.squeeze(
        m.reshape(x, np.int64([1, 2, 1, 42]), False))),
    "scatter_nd_sum": ("opset15", lambda m, x: m.scatter_nd_update(
        np.arange(8, dtype=np.float32).reshape(4, 2), np.int64([[1], [1], [3], [-1]]),
        np.float32([[10, 20], [1, 2], [5, 5], [7, 7]]), "sum")),
    "scatter_nd_min": ("opset15", lambda m, x: m.scatter_nd_update(
        np.arange(8, dtype=np.float32).reshape(4, 2), np.int64([[0, 1], [2, 0], [0, 1]]),
        np.float32([-3, 9, 0.5]), "min")),
    "scatter_nd_none": ("opset15", lambda m, x: m.scatter_nd_update(
        np.arange(4, dtype=np.float32), np.int64([[2]]), np.float32([9]))),
    "one_hot_16_normalize": ("opset16", lambda m, x: m.one_hot(
        np.int64([-1, 0, 2, -3, 5]), np.int64(3), np.float32(1), np.float32(0), -1,
        negative_indices_mode="normalize")),
    "one_hot_16_ignore": ("opset16", lambda m, x: m.one_hot(
        np.int64([-1, 0, 2, -3]), np.int64(3), np.float32(1), np.float32(0), 0)),
}


@pytest.mark.parametrize("case", list(NEW_CASES))
def test_version_builders_match_the_wheels(case):
    """Output count, types, shapes, attributes, version and numbers, with the runner's module
    on ovlab and the wheel's on the real runtime."""
    import importlib

    opset, build = NEW_CASES[case]
    got = {}
    for rt in (REAL, LAB):
        if rt is LAB:
            ovlab.install()
            try:
                module = importlib.import_module(f"openvino.{opset}")
                module = {n: getattr(module, n) for n in ("max_pool", "interpolate", "avg_pool",
                                                          "squeeze", "reshape",
                                                          "scatter_nd_update", "one_hot")}
            finally:
                ovlab.uninstall()
            module = type("Served", (), {k: staticmethod(v) for k, v in module.items()})
        else:
            module = importlib.import_module(f"openvino.{opset}")
        x = rt.ops.parameter(list(Y.shape), np.float32, name="x")
        node = build(module, x)
        uses = any(p.get_node() is x for p in _inputs_of(node))
        outs = _run(rt, node, [x] if uses else [])
        got[rt.name] = (node.get_output_size(), node.get_type_info().version_id,
                        {k: str(v) for k, v in node.get_attributes().items()}, outs)
    real, lab = got["openvino"], got["ovlab"]
    assert lab[:3] == real[:3]
    for a, b in zip(lab[3], real[3], strict=True):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def _inputs_of(node):
    """Every port feeding ``node`` or what feeds it (does the graph read the parameter?)."""
    seen, todo, out = set(), [node], []
    while todo:
        n = todo.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        for i in range(n.get_input_size()):
            src = n.input_value(i)
            out.append(src)
            todo.append(src.get_node())
    return out


@pytest.mark.parametrize("case", ["max_pool_1", "avg_pool_16_dilations", "squeeze_15_skip",
                                  "one_hot_16_normalize", "interpolate_4_scales",
                                  "scatter_nd_sum"])
def test_version_nodes_round_trip_through_ir(case, tmp_path):
    """ovlab writes these versions' nodes as the wheel does: both runtimes read the file back
    as the same version with the same attributes."""
    opset, build = NEW_CASES[case]
    x = ovlab.opset.parameter(list(Y.shape), np.float32, name="x")
    served = {"max_pool": old.max_pool_v1, "avg_pool": old.avg_pool_v16,
              "squeeze": old.squeeze_v15, "reshape": ovlab.opset.reshape,
              "one_hot": old.one_hot_v16, "interpolate": old.interpolate_v4,
              "scatter_nd_update": old.scatter_nd_update_v15}
    node = build(type("Served", (), {k: staticmethod(v) for k, v in served.items()}), x)
    uses = any(p.get_node() is x for p in _inputs_of(node))
    path = tmp_path / "m.xml"
    ovlab.save_model(ovlab.Model(node, [x] if uses else [], "m"), path, compress_to_fp16=False)
    read = {}
    for rt in (REAL, LAB):
        model = rt.new_core().read_model(path)
        got = next(n for n in model.get_ordered_ops()
                   if n.get_type_name() == node.get_type_name())
        read[rt.name] = (got.get_type_info().version_id, got.get_output_size(),
                         {k: str(v) for k, v in got.get_attributes().items()})
    assert read["ovlab"] == read["openvino"]
    assert read["ovlab"][0] == node.get_type_info().version_id


@pytest.mark.parametrize("case", ["max_pool_1", "interpolate_4_sizes", "avg_pool_16_dilations",
                                  "squeeze_15_skip"])
def test_ovlab_reads_these_versions_from_the_wheels_ir(case, tmp_path):
    """An IR the wheel writes with these versions (Open Model Zoo's v10 files hold MaxPool-1
    and Interpolate-4) reads on ovlab as the same version and computes the same."""
    import importlib

    opset, build = NEW_CASES[case]
    x = REAL.ops.parameter(list(Y.shape), np.float32, name="x")
    node = build(importlib.import_module(f"openvino.{opset}"), x)
    path = tmp_path / "m.xml"
    ov.save_model(ov.Model(node, [x], "m"), path, compress_to_fp16=False)
    want = _run(REAL, REAL.new_core().read_model(path), None)
    model = LAB.new_core().read_model(path)
    got = next(n for n in model.get_ordered_ops() if n.get_type_name() == node.get_type_name())
    assert got.get_type_info().version_id == node.get_type_info().version_id
    for a, b in zip(_run(LAB, model, None), want, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_op_node_classes_build_a_stateful_model_as_the_wheels():
    """``openvino.op.read_value(init, variable)`` and ``op.assign(value, variable)``, the node
    classes, make the same accumulating model on both runtimes."""
    import openvino.op as real_op

    import ovlab.op as lab_op

    got = {}
    for rt, op in ((REAL, real_op), (LAB, lab_op)):
        x = rt.ops.parameter([2], np.float32, name="x")
        info = op.util.VariableInfo()
        info.variable_id, info.data_type = "acc", rt.Type.f32
        info.data_shape = rt.mod.PartialShape([2])
        var = op.util.Variable(info)
        read = op.read_value(rt.ops.constant(np.zeros(2, np.float32)), var)
        total = rt.ops.add(read, x)
        write = op.assign(total, var)
        model = rt.Model([rt.ops.result(total)], [write], [x], "acc")
        req = rt.new_core().compile_model(model, "CPU", F32).create_infer_request()
        outs = [req.infer({0: np.float32([1, 2])})[0].tolist() for _ in range(3)]
        empty = op.read_value(var)
        got[rt.name] = (read.get_variable_id(), write.get_variable_id(),
                        read.get_type_info().version_id, write.get_type_info().version_id,
                        outs, [s.name for s in req.query_state()], empty.get_input_size(),
                        empty.get_variable_id(), str(empty.get_output_partial_shape(0)),
                        op.assign().get_input_size())
    assert got["ovlab"] == got["openvino"]
