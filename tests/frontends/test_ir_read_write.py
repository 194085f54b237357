"""Reading and writing IR inside ovlab: memory-mapped weights, names and runtime info,
op versions, the FP16 compression rules, the Core and the public functions."""

from __future__ import annotations

import io
import mmap
from pathlib import Path

import numpy as np
import pytest
from real_wheel import lab_core, real_core  # noqa: E402

import ovlab
import ovlab.opset13 as ops
from ovlab import zoo
from ovlab.sim.frontends import compress, ir_schema
from ovlab.sim.frontends.rt_info import RtAttribute
from ovlab.sim.graph import Model


def _base(a: np.ndarray):
    while isinstance(a, np.ndarray) and a.base is not None:
        a = a.base
    return a


def test_weights_are_a_view_of_the_memory_mapped_file(tmp_path):
    path = tmp_path / "g.xml"
    ovlab.save_model(zoo.load("small-cnn"), path, compress_to_fp16=False)
    model = ovlab.Core().read_model(path)
    consts = [n for n in model.get_ordered_ops() if n.get_type_name() == "Constant"]
    weights = max(consts, key=lambda c: c.get_byte_size()).get_data()
    assert not weights.flags.owndata and not weights.flags.writeable
    base = _base(weights)
    assert isinstance(base, (mmap.mmap, memoryview)), type(base)
    x = zoo.sample_input("small-cnn")
    np.testing.assert_array_equal(model._evaluate([x])[0], zoo.load("small-cnn")._evaluate([x])[0])


def test_names_rt_info_and_friendly_names_survive(tmp_path):
    p = ops.parameter([1, 4], np.float32, name="x")
    p.output(0).add_names({"x", "input,with,commas"})
    r = ops.relu(p, name="act")
    r.output(0).set_names({"hidden"})
    res = ops.result(ops.softmax(r, 1, name="sm"), name="probabilities")
    m = Model([res], [p], "named")
    m.set_rt_info("hello", "greeting")
    m.get_rt_info()["nested"] = {"value": "7"}
    r.get_rt_info()["affinity"] = "CPU"  # not a registered attribute: not written (as OpenVINO)
    ovlab.serialize(m, tmp_path / "n.xml")
    back = ovlab.Core().read_model(str(tmp_path / "n.xml"))
    assert back.get_friendly_name() == "named"
    assert [n.get_friendly_name() for n in back.get_ordered_ops()] == \
        ["x", "act", "sm", "probabilities"]
    assert back.inputs[0].get_names() == {"x", "input,with,commas"}
    assert back.outputs[0].get_names() == {"probabilities"}
    assert back.get_ordered_ops()[1].output(0).get_names() == {"hidden"}
    assert back.get_rt_info("greeting") == "hello"
    assert back.get_rt_info("nested", "value") == "7"
    assert back.get_rt_info("version") == 11
    assert "affinity" not in back.get_ordered_ops()[1].get_rt_info()


def test_compressed_weights_are_f16_constant_and_decompression_convert(tmp_path):
    ovlab.save_model(zoo.load("mlp"), tmp_path / "m.xml")
    back = ovlab.Core().read_model(str(tmp_path / "m.xml"))
    converts = [n for n in back.get_ordered_ops() if n.get_type_name() == "Convert"]
    assert converts and all(n.get_rt_info()["decompression_0"] == RtAttribute("decompression")
                            for n in converts)
    for c in converts:
        src = c.input_value(0).get_node()
        assert src.get_element_type() == ovlab.Type.f16
        assert src.get_friendly_name() == c.get_friendly_name() + "_compressed"
    # saving the compressed model again keeps it as it is (f16 weights are not compressed twice)
    ovlab.save_model(back, tmp_path / "again.xml")
    assert (tmp_path / "again.bin").read_bytes() == (tmp_path / "m.bin").read_bytes()


def test_compression_rules():
    x = ops.parameter([1, 4], np.float32, name="x")
    tiny = ops.constant(np.full((1, 4), 1e-9, np.float32), name="tiny")  # below f16: kept f32
    huge = ops.constant(np.array([[1e6, 2.0, 3.0, 4.0]], np.float32), name="huge")  # clamped
    shape = ops.constant(np.array([1, 4], np.int64), name="shape")  # integer: never compressed
    y = ops.reshape(ops.multiply(ops.add(x, tiny), huge), shape, False)
    m = Model([y], [x], "rules")
    c = compress.compress_to_fp16(m)
    kinds = {n.get_friendly_name(): n.get_type_name() for n in c.get_ordered_ops()}
    assert kinds["tiny"] == "Constant" and kinds["huge"] == "Convert"
    assert kinds["huge_compressed"] == "Constant" and kinds["shape"] == "Constant"
    half = next(n for n in c.get_ordered_ops() if n.get_friendly_name() == "huge_compressed")
    assert half.get_data()[0, 0] == np.float16(65504)
    assert [n.get_type_name() for n in m.get_ordered_ops()].count("Convert") == 0  # input kept
    q = zoo.load("small-cnn", "INT8")  # FakeQuantize: an optimized model is left as it is
    assert compress.is_optimized(q)
    assert [n.get_type_name() for n in compress.compress_to_fp16(q).get_ordered_ops()] == \
        [n.get_type_name() for n in q.get_ordered_ops()]


def test_precision_sensitive_constants_are_not_compressed():
    x = ops.parameter([1, 6], np.float32, name="x")
    shape_f = ops.constant(np.array([2.0, 3.0], np.float32), name="shape_f")
    shape = ops.convert(shape_f, np.int64, name="shape_i")
    m = Model([ops.reshape(x, shape, False)], [x], "sens")
    names = {n.get_friendly_name() for n in compress.compress_to_fp16(m).get_ordered_ops()}
    assert "shape_f_compressed" not in names


def test_older_op_versions_and_other_opsets(tmp_path):
    """IR v10 files of Open Model Zoo use MaxPool-1 and SoftMax-1; a layer may also name any
    opset that holds the op (opset3's SoftMax is Softmax-1, opset5's ReLU is Relu-1)."""
    m = zoo.load("small-cnn")
    ovlab.serialize(m, tmp_path / "s.xml")
    xml = (tmp_path / "s.xml").read_text()
    old = xml.replace('type="ReLU" version="opset1"', 'type="ReLU" version="opset5"')
    old = old.replace('type="SoftMax" version="opset8"', 'type="SoftMax" version="opset3"')
    import re
    # MaxPool-1: no dilations/index_element_type/axis, one output port
    old = re.sub(r'(type="MaxPool" version=")opset8(">\s*<data [^>]*?) dilations="[^"]*"',
                 r"\1opset1\2", old)
    old = re.sub(r' index_element_type="i64" axis="0"', "", old)
    old = re.sub(r'(<port id="2" precision="I64">.*?</port>)', "", old, flags=re.S)
    (tmp_path / "old.xml").write_text(old)
    (tmp_path / "old.bin").write_bytes((tmp_path / "s.bin").read_bytes())
    back = ovlab.Core().read_model(str(tmp_path / "old.xml"))
    x = zoo.sample_input("small-cnn")
    np.testing.assert_array_equal(back._evaluate([x])[0], m._evaluate([x])[0])
    assert ir_schema.resolve("SoftMax", "opset3", "sm id:1")[1] is not None  # read as Softmax-1
    with pytest.raises(ir_schema.E.FrontendError, match="implements Gather-8"):
        ir_schema.resolve("Gather", "opset1", "p id:2")  # (MaxPool-14 is read since issue 36)
    ir_schema.resolve("MaxPool", "opset14", "p id:2")


def test_core_forms_of_read_model(tmp_path):
    path = tmp_path / "m.xml"
    ovlab.save_model(zoo.load("mlp"), path)
    xml, data = path.read_bytes(), path.with_suffix(".bin").read_bytes()
    x = zoo.sample_input("mlp")
    core = ovlab.Core()
    ref = core.read_model(str(path))._evaluate([x])[0]
    for model in (core.read_model(path), core.read_model(io.BytesIO(xml), io.BytesIO(data)),
                  core.read_model(xml, data), core.read_model(str(path), str(path.with_suffix(".bin"))),
                  core.read_model(xml.decode(), ovlab.tensor_from_file(path.with_suffix(".bin"))),
                  ovlab.frontends.read_model(str(path))):
        np.testing.assert_array_equal(model._evaluate([x])[0], ref)
    assert core.read_model("googlenet-v1:FP16").get_friendly_name() == "googlenet-v1"  # zoo names


def test_compile_and_query_a_model_file(tmp_path):
    """A file goes where a zoo model goes: compile_model(path), query_model on the NPU, HETERO."""
    path = tmp_path / "g.xml"
    ovlab.save_model(zoo.load("googlenet-v1", "FP16"), path)
    core = ovlab.Core("workstation", seed=0)
    model = core.read_model(str(path))
    supported = core.query_model(model, "NPU")
    assert "pool1/3x3_s2" in supported and not any(
        n.get_type_name() == "LRN" and n.get_friendly_name() in supported
        for n in model.get_ordered_ops())
    compiled = core.compile_model(str(path), "HETERO:NPU,CPU")
    out = compiled(zoo.sample_input("googlenet-v1"))[0]
    np.testing.assert_allclose(out, zoo.load("googlenet-v1", "FP16")._evaluate(
        [zoo.sample_input("googlenet-v1")], "f16")[0], rtol=0, atol=2e-3)


def test_save_model_arguments(tmp_path):
    m = zoo.load("mlp")
    with pytest.raises(TypeError, match="incompatible function arguments"):
        ovlab.save_model(m, tmp_path / "a.xml", compress_to_fp16="yes")
    with pytest.raises(RuntimeError, match="doesn't contains file name with 'xml' extension"):
        ovlab.save_model(m, tmp_path / "a.txt")
    with pytest.raises(TypeError, match="Incompatible `model` argument"):
        ovlab.save_model("mlp", tmp_path / "a.xml")
    with pytest.raises(RuntimeError, match="Invoked with wrong version argument: 'IR_V12'"):
        ovlab.serialize(m, tmp_path / "a.xml", version="IR_V12")
    ovlab.save_model(m, tmp_path / "new" / "dir" / "a.xml")  # folders are created
    assert (tmp_path / "new" / "dir" / "a.bin").is_file()
    ovlab.serialize(m, str(tmp_path / "b.xml"), str(tmp_path / "weights" / "b.weights"))
    assert isinstance(ovlab.Core().read_model(str(tmp_path / "b.xml"),
                                              str(tmp_path / "weights" / "b.weights")), Model)


def test_generic_attributes_for_ops_without_a_description():
    assert ir_schema.guess("1, 2") == [1, 2] and ir_schema.guess("true") is True
    assert ir_schema.guess("0.5") == 0.5 and ir_schema.guess("numpy") == "numpy"
    assert ir_schema.fmt(None, [1, 2]) == "1, 2" and ir_schema.fmt(None, 0.1) == \
        "0.10000000000000001"
    assert ir_schema.fmt(None, ovlab.Type.f16) == "f16"


def test_ir_file_of_every_zoo_model_reads_back_identically(tmp_path):
    for name in zoo.names():
        for precision in zoo.PRECISIONS:
            if name == "alexnet" and precision != "FP32":
                continue
            m = zoo.load(name, precision)
            path = Path(tmp_path / f"{name}-{precision}.xml")
            ovlab.serialize(m, path)
            back = ovlab.Core().read_model(str(path))
            assert [(n.get_type_name(), n.get_friendly_name()) for n in back.get_ordered_ops()] \
                == [(n.get_type_name(), n.get_friendly_name()) for n in m.get_ordered_ops()]
            assert back._is_batchable() == m._is_batchable()
            assert [c.flops for c in back._cost()] == [c.flops for c in m._cost()]


def test_ops_that_describe_their_own_attributes():
    """The graph layer may describe an op's attributes itself (IR name, kind, default); the
    reader and writer then use that description."""
    from dataclasses import dataclass
    from types import SimpleNamespace
    from typing import Any

    class _Required:
        def __repr__(self) -> str:
            return "REQUIRED"

    @dataclass(frozen=True)
    class GraphAttr:  # the shape of ovlab.sim.graph.attrs.Attr
        name: str
        kind: str
        default: Any = _Required()
        choices: tuple = ()

    op = SimpleNamespace(type_name="AvgPool", attrs=(
        GraphAttr("kernel", "ints"), GraphAttr("strides", "ints"), GraphAttr("pads_begin", "ints"),
        GraphAttr("pads_end", "ints"), GraphAttr("exclude-pad", "bool"),
        GraphAttr("auto_pad", "str", "explicit"), GraphAttr("rounding_type", "str", "floor")))
    desc = ir_schema.attrs_of(op)
    assert [a.ir for a in desc][4] == "exclude-pad" and desc[4].name == "exclude-pad"
    assert desc[0].default is ir_schema.REQUIRED and desc[5].default == "explicit"
    assert ir_schema.parse("shape", "1,3,224,224") == [1, 3, 224, 224]
    assert ir_schema.fmt("shape", [1, 3]) == "1,3" and ir_schema.parse("strs", "a, b") == ["a", "b"]


def test_compile_model_reads_ir_text_with_weight_bytes(tmp_path):
    """compile_model(model=<IR text>, weights=<bytes>) compiles from memory, as the wheel's
    buffer overload does (OpenVINO's own test_compiled_model_from_buffer_in_memory)."""
    pytest.importorskip("openvino")
    p = ops.parameter([1, 3], np.float32, name="data")
    model = ovlab.Model(ops.relu(p), [p])
    ovlab.serialize(model, tmp_path / "m.xml", tmp_path / "m.bin")
    xml = (tmp_path / "m.xml").read_text()
    weights = (tmp_path / "m.bin").read_bytes()
    x = np.array([[-1.0, 0.5, 2.0]], np.float32)
    ours = lab_core("cpu").compile_model(model=xml, weights=weights, device_name="CPU")
    real = real_core().compile_model(model=xml, weights=weights, device_name="CPU")
    np.testing.assert_allclose(ours(x)[0], real(x)[0])


def test_opset_version_table_covers_every_op():
    """tools/gen_ir_versions.py was re-run after ops were added: every op type ovlab implements
    resolves from any opset an IR layer names (a stale table reads new ops at one version only)."""
    import json

    from ovlab.sim.frontends import ir_read
    from ovlab.sim.graph.ops import REGISTRY

    table = json.loads((Path(ir_read.__file__).parent / "opset_versions.json").read_text())
    missing = sorted(set(REGISTRY) - set(table["versions"]))
    assert not missing, f"run tools/gen_ir_versions.py: {missing}"


def test_a_result_with_consumers_reads_evaluates_and_refuses_to_compile(tmp_path):
    """An IR whose middle layer is a Result (found by the fuzz test): both runtimes read it with
    two outputs; evaluating it works; the CPU refuses to compile it with the same error."""
    pytest.importorskip("openvino")
    import re

    path = tmp_path / "b.xml"
    ovlab.save_model(zoo.load("small-cnn", "FP32"), path)
    xml = path.read_text()
    m = re.search(r'name="relu1" type="(ReLU)"', xml)
    path.write_text(xml[:m.start(1)] + "Result" + xml[m.end(1):])
    ours = ovlab.Core("cpu").read_model(str(path))
    real = real_core().read_model(str(path))
    assert len(ours.outputs) == len(real.outputs) == 2
    outs = ours._evaluate([np.zeros(list(ours.inputs[0].get_shape()), np.float32)])
    assert [o.shape for o in outs] == [(1, 16, 32, 32), (1, 10)]
    with pytest.raises(RuntimeError) as ours_err:
        ovlab.Core("cpu").compile_model(ours, "CPU")
    with pytest.raises(RuntimeError) as real_err:
        real_core().compile_model(real, "CPU")
    assert str(ours_err.value).strip().splitlines()[-1] == str(real_err.value).strip().splitlines()[-1]
