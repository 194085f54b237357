"""``openvino.frontend`` as ovlab serves it: the manager finds the IR or ONNX front end, which
loads and converts a file to the same model ``read_model`` gives; conversion from frameworks
raises naming the framework."""

from __future__ import annotations

import pytest

import ovlab
import ovlab.opset13 as ops
from ovlab.frontend import FrontEndManager


def test_the_manager_reads_ir_as_read_model_does(tmp_path):
    x = ops.parameter([1, 3], "f32", name="x")
    path = tmp_path / "m.xml"
    ovlab.save_model(ovlab.Model([ops.relu(x)], [x], "m"), path)
    fem = FrontEndManager()
    assert fem.get_available_front_ends() == ["ir", "onnx"]
    fe = fem.load_by_model(str(path))
    assert fe.get_name() == "ir" and fe.supported(path) and not fe.supported(tmp_path / "no.xml")
    model = fe.convert(fe.load(path))
    assert [op.get_type_name() for op in model.get_ordered_ops()] == \
        ["Parameter", "Relu", "Result"]
    assert fem.load_by_model(str(tmp_path / "m.bin")) is None


def test_framework_conversion_and_model_editing_name_themselves(tmp_path):
    fem = FrontEndManager()
    with pytest.raises(NotImplementedError, match="model conversion from PyTorch"):
        fem.load_by_framework("pytorch")
    with pytest.raises(RuntimeError, match="FrontEnd for Framework xyz is not found"):
        fem.load_by_framework("xyz")
    x = ops.parameter([2], "f32", name="x")
    ovlab.save_model(ovlab.Model([ops.relu(x)], [x], "m"), tmp_path / "m.xml")
    im = fem.load_by_framework("ir").load(tmp_path / "m.xml")
    with pytest.raises(NotImplementedError, match="InputModel.get_inputs"):
        im.get_inputs()
