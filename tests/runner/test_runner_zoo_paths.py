"""The zoo-stem fallback for model files that do not exist."""

import pytest

import ovlab
from ovlab.sim.models.zoo_paths import zoo_name_for


@pytest.mark.parametrize(("path", "expected"), [
    ("./public/googlenet-v1-tf/FP16/googlenet-v1-tf.xml", ("googlenet-v1", "FP16")),
    ("models/resnet-50-pytorch/FP32/resnet-50-pytorch.xml", ("resnet-50", "FP32")),
    ("squeezenet1.1/FP16-INT8/squeezenet1.1.xml", ("squeezenet1.1", "INT8")),
    ("alexnet.onnx", ("alexnet", "FP32")),
    ("my_model.xml", None),
    ("googlenet-v1", None),  # a bare name is a zoo name already, not a file
    ("/home/me/googlenet-v1", ("googlenet-v1", "FP32")),  # benchmark_app makes -m absolute
])
def test_zoo_name_for(path, expected):
    assert zoo_name_for(path) == expected


def test_missing_zoo_named_file_loads_the_zoo_model(capsys):
    core = ovlab.Core()
    model = core.read_model("public/alexnet/FP16/alexnet.xml")
    assert model.get_friendly_name() == "alexnet"
    assert model.input().get_element_type() == ovlab.Type.f16
    assert "does not exist: loading ovlab's zoo model 'alexnet' (FP16" in capsys.readouterr().err


def test_missing_file_with_another_name_still_fails():
    with pytest.raises(RuntimeError, match='Could not open the file: "my_model.xml"'):
        ovlab.Core().read_model("my_model.xml")
