"""ONNX models through the ``onnx`` package, compared with the real OpenVINO's ONNX frontend."""

from __future__ import annotations

import sys

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ov = pytest.importorskip("openvino")

import onnx_models  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402
from real_wheel import real_core  # noqa: E402

import ovlab  # noqa: E402


@pytest.fixture(scope="module")
def cnn_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("onnx") / "small_cnn.onnx"
    onnx.save(onnx_models.small_cnn(), str(path))
    return path


def test_onnx_model_matches_openvino(cnn_file, rng):
    x = rng.standard_normal((1, 3, 16, 16)).astype(np.float32)
    theirs_model = real_core().read_model(str(cnn_file))
    theirs = real_core().compile_model(theirs_model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(x)[0]
    ours_model = ovlab.Core("cpu").read_model(str(cnn_file))
    ours = ours_model._evaluate([x])[0]
    np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-6)
    for a, b in zip(ours_model.inputs + ours_model.outputs,
                    theirs_model.inputs + theirs_model.outputs, strict=True):
        assert a.get_names() == b.get_names() and list(a.get_shape()) == list(b.get_shape())
    ours_names = {n.get_friendly_name() for n in ours_model.get_ordered_ops()}
    for name in ("conv1", "conv1/WithoutBiases", "relu1", "pool1", "fc", "prob",
                 "prob/sink_port_0"):
        assert name in ours_names and name in {n.get_friendly_name() for n in
                                               theirs_model.get_ordered_ops()}


def test_onnx_from_bytes_and_through_the_core(cnn_file, rng):
    x = rng.standard_normal((1, 3, 16, 16)).astype(np.float32)
    core = ovlab.Core("workstation", seed=0)
    from_bytes = core.read_model(cnn_file.read_bytes())
    compiled = core.compile_model(str(cnn_file), "CPU")
    np.testing.assert_allclose(compiled(x)[0], from_bytes._evaluate([x])[0], rtol=1e-5)
    assert set(core.query_model(from_bytes, "NPU")) < {n.get_friendly_name() for n in
                                                      from_bytes.get_ordered_ops()}


def test_an_onnx_file_saved_as_ir_reads_in_openvino(cnn_file, tmp_path, rng):
    x = rng.standard_normal((1, 3, 16, 16)).astype(np.float32)
    model = ovlab.Core().read_model(str(cnn_file))
    ovlab.save_model(model, str(tmp_path / "from_onnx.xml"), compress_to_fp16=False)
    real = real_core().compile_model(str(tmp_path / "from_onnx.xml"), "CPU",
                                   {"INFERENCE_PRECISION_HINT": "f32"})(x)[0]
    np.testing.assert_allclose(real, model._evaluate([x])[0], rtol=1e-4, atol=1e-6)


def _one_op_model(op_type: str, tmp_path, dims=(1, 4)):
    node = helper.make_node(op_type, ["x"], ["y"], name="the_node")
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                          list(dims))],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    path = tmp_path / f"{op_type}.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return path


def test_unsupported_onnx_op_is_named(tmp_path):
    path = _one_op_model("Hardmax", tmp_path)
    with pytest.raises(RuntimeError) as e:
        ovlab.Core().read_model(str(path))
    text = str(e.value)
    assert text.startswith("Exception from src/inference/src/cpp/core.cpp:84:\n")
    assert "the following ONNX operations: Hardmax" in text and "Conv" in text


def test_dynamic_onnx_input_is_a_clear_error(tmp_path):
    path = _one_op_model("Relu", tmp_path, dims=("batch", 4))
    with pytest.raises(RuntimeError, match="dynamic dimension 'batch'"):
        ovlab.Core().read_model(str(path))


def test_without_the_onnx_package_the_error_says_pip_install(cnn_file, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnx", None)  # import onnx now fails
    with pytest.raises(RuntimeError, match="pip install onnx"):
        ovlab.Core().read_model(str(cnn_file))


def test_truncated_onnx_file(cnn_file, tmp_path):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(cnn_file.read_bytes()[:100])
    real = pytest.raises(RuntimeError, real_core().read_model, str(bad))
    ours = pytest.raises(RuntimeError, ovlab.Core().read_model, str(bad))
    assert str(ours.value).split("\n")[0] == str(real.value).split("\n")[0]


@pytest.mark.parametrize("with_axes_steps", [True, False])
def test_onnx_slice_matches_openvino(tmp_path, rng, with_axes_steps):
    """Slice as torch.onnx.export writes it for ``y[..., :2]`` / ``y[..., 4:]`` (YOLO heads,
    openvino_notebooks' performance-tricks), with and without the optional axes and steps."""
    i64 = TensorProto.INT64
    inits = [helper.make_tensor("starts", i64, [2], [1, 0]),
             helper.make_tensor("ends", i64, [2], [2**63 - 1, -1]),
             helper.make_tensor("axes", i64, [2], [3, 1]),
             helper.make_tensor("steps", i64, [2], [2, 1])]
    names = ["x", "starts", "ends", "axes", "steps"] if with_axes_steps else \
        ["x", "starts", "ends"]
    node = helper.make_node("Slice", names, ["y"], name="the_slice")
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4, 5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        inits if with_axes_steps else inits[:2])
    path = tmp_path / "slice.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    theirs = real_core().compile_model(str(path), "CPU")(x)[0]
    ours = ovlab.Core().read_model(str(path))
    np.testing.assert_array_equal(ours._evaluate([x])[0], theirs)
    assert list(ours.output(0).get_shape()) == list(theirs.shape)
