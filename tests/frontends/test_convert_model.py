"""``convert_model`` reads model files as the wheel's does (openvino_notebooks convert an ONNX
export); framework objects raise naming the feature."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

import onnx_models  # noqa: E402

import ovlab  # noqa: E402


def _onnx_file(tmp_path):
    path = tmp_path / "m.onnx"
    onnx.save(onnx_models.small_cnn(), str(path))
    return path


def test_convert_model_of_an_onnx_path_is_read_model_of_it(tmp_path):
    path = _onnx_file(tmp_path)
    converted = ovlab.convert_model(path)  # a Path, as the notebooks pass it
    read = ovlab.Core().read_model(str(path))
    assert [str(p.get_partial_shape()) for p in converted.inputs] == \
        [str(p.get_partial_shape()) for p in read.inputs]
    x = np.random.default_rng(0).standard_normal((1, 3, 16, 16)).astype(np.float32)
    a = ovlab.Core().compile_model(converted, "CPU")(x)[0]
    b = ovlab.Core().compile_model(read, "CPU")(x)[0]
    np.testing.assert_array_equal(a, b)


def test_convert_model_of_an_ir_path_with_input_sets_the_shapes(tmp_path):
    xml = tmp_path / "m.xml"
    ovlab.save_model(ovlab.zoo.load("mobilenet-v2"), str(xml))
    model = ovlab.convert_model(xml, input=[[2, 3, 224, 224]])  # auto-device's form
    assert list(model.input(0).get_shape()) == [2, 3, 224, 224]
    assert list(model.output(0).get_shape())[0] == 2
    with pytest.raises(RuntimeError, match="2 input shapes given for a model with 1 inputs"):
        ovlab.convert_model(str(xml), input=[[1, 3, 224, 224], [1, 3, 224, 224]])


def test_convert_model_of_a_framework_object_names_the_feature():
    class Net:  # stands for a torch.nn.Module
        pass

    with pytest.raises(NotImplementedError, match="framework objects other than torch"):
        ovlab.convert_model(Net())


def test_the_runner_serves_convert_model_as_ovlab_s():
    from ovlab.sim.runner import standins

    assert "convert_model" not in standins.UNSIMULATED  # served for real, not as a stand-in


def test_convert_model_of_a_torch_module_goes_through_torch_s_onnx_exporter():
    """auto-device's form: ``convert_model(pt_model, input=[[1, 3, H, W]])``, numerics as
    PyTorch computes them."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, padding=1), torch.nn.ReLU(),
                              torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
                              torch.nn.Linear(4, 5)).train()
    model = ovlab.convert_model(net, input=[[2, 3, 8, 8]])
    assert net.training  # left as it was
    assert list(model.input(0).get_shape()) == [2, 3, 8, 8]
    x = torch.rand(2, 3, 8, 8)
    with torch.no_grad():
        expected = net.eval()(x).numpy()
    np.testing.assert_allclose(ovlab.Core().compile_model(model, "CPU")(x.numpy())[0], expected,
                               rtol=1e-4, atol=1e-5)
    assert list(ovlab.convert_model(net, example_input=x).input(0).get_shape()) == [2, 3, 8, 8]
    with pytest.raises(NotImplementedError, match="static input shapes only"):
        ovlab.convert_model(net, input=[[-1, 3, 8, 8]])
    with pytest.raises(NotImplementedError, match="give input="):
        ovlab.convert_model(net)
