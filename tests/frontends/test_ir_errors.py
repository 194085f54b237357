"""Bad IR files: each one is given to the real OpenVINO and to ovlab, and both must raise a plain
``RuntimeError`` with the same first line (the API's ``Exception from src/inference/...``) and,
where OpenVINO's meaningful line says what is wrong, the same meaningful line. Where OpenVINO's
line is misleading or missing, ovlab's own message is checked (the ``OVLAB_OWN`` cases).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
import openvino.opset13 as oops  # noqa: E402
from real_wheel import real_core  # noqa: E402

import ovlab  # noqa: E402

GOOD_BIN = "copy"


@pytest.fixture(scope="module")
def convnet(tmp_path_factory) -> tuple[str, bytes]:
    """tiny_convnet as the real OpenVINO serializes it (f32 weights): (xml text, bin bytes)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "graph"))
    import graph_builders as gb

    d = tmp_path_factory.mktemp("ir")
    ov.serialize(gb.conv_net(ov, oops), str(d / "net.xml"))
    return (d / "net.xml").read_text(), (d / "net.bin").read_bytes()


def sub(old: str, new: str):
    def mutate(xml: str) -> str:
        assert old in xml, old
        return xml.replace(old, new, 1)
    return mutate


def weights_offset(xml: str) -> tuple[str, str]:
    m = re.search(r'shape="2048, 10" offset="(\d+)" size="(\d+)"', xml)
    assert m
    return m.group(1), m.group(2)


def fc_weights(new_offset: str | None = None, new_size: str | None = None, shape: str | None = None):
    def mutate(xml: str) -> str:
        off, size = weights_offset(xml)
        return xml.replace(f'shape="2048, 10" offset="{off}" size="{size}"',
                           f'shape="{shape or "2048, 10"}" offset="{new_offset or off}" '
                           f'size="{new_size or size}"')
    return mutate


def drop_first_edge(xml: str) -> str:
    return re.sub(r'\s*<edge from-layer="0" from-port="0" to-layer="2" to-port="0" />', "", xml,
                  count=1)


def make_cycle(xml: str) -> str:
    return xml.replace('<edge from-layer="0" from-port="0" to-layer="2" to-port="0" />',
                       '<edge from-layer="3" from-port="1" to-layer="2" to-port="0" />')


# name: (mutation of the XML, what happens to the .bin, what to compare)
#   "same": ovlab's text has OpenVINO's meaningful line; otherwise a regex ovlab must match
CASES = {
    "malformed_xml": (lambda x: x[:2000], GOOD_BIN, r"Error parsing XML: .* at offset \d+"),
    "not_xml": (lambda x: "hello world", GOOD_BIN, "same"),
    "empty_file": (lambda x: "", GOOD_BIN, "same"),
    "ir_v7": (sub('version="11"', 'version="7"'), GOOD_BIN, "same"),
    "ir_v12": (sub('version="11"', 'version="12"'), GOOD_BIN, "same"),
    "unknown_op": (sub('type="ReLU"', 'type="FooBar"'), GOOD_BIN, "same"),
    "unknown_opset": (sub('type="ReLU" version="opset1"', 'type="ReLU" version="opset99"'),
                      GOOD_BIN, "same"),
    "missing_bin": (None, "delete", "same"),
    "truncated_bin": (None, "truncate", "same"),
    "empty_bin": (None, "empty", "same"),
    "offset_beyond_file": (fc_weights(new_offset="90000"), GOOD_BIN, "same"),
    "size_not_shape": (fc_weights(new_size="800"), GOOD_BIN, "same"),
    "negative_offset": (fc_weights(new_offset="-5"), GOOD_BIN,
                        r'node <data> has attribute "offset" = "-5" which is not an unsigned'),
    "edge_to_missing_port": (sub('to-layer="3" to-port="0"', 'to-layer="3" to-port="5"'),
                             GOOD_BIN, "same"),
    "edge_from_missing_port": (sub('from-layer="2" from-port="2" to-layer="3"',
                                   'from-layer="2" from-port="7" to-layer="3"'), GOOD_BIN, "same"),
    "edge_from_missing_layer": (sub('from-layer="2" from-port="2" to-layer="3"',
                                    'from-layer="42" from-port="2" to-layer="3"'), GOOD_BIN,
                                r"names layer id 42, which the IR does not have"),
    "cycle": (make_cycle, GOOD_BIN, "same"),
    "unconnected_input": (drop_first_edge, GOOD_BIN, "same"),
    "bad_attribute_value": (sub('strides="1, 1" dilations', 'strides="a, b" dilations'),
                            GOOD_BIN, "same"),
    "unknown_element_type": (sub('element_type="i64" shape="2"', 'element_type="f99" shape="2"'),
                             GOOD_BIN, "same"),
    "bad_dimension": (sub('shape="1,3,32,32"', 'shape="1,3,x,32"'), GOOD_BIN, "same"),
    "duplicate_layer_id": (sub('<layer id="3" name="relu1"', '<layer id="2" name="relu1"'),
                           GOOD_BIN, r"Layer id 2 is used by two layers"),
    "shape_inference_fails": (fc_weights(shape="1024, 20"), GOOD_BIN,
                              r"Incompatible MatMul matrix dimension"),
    "maxpool1_with_two_ports": (sub('type="MaxPool" version="opset8"',
                                    'type="MaxPool" version="opset1"'), GOOD_BIN, "same"),
}


def write_case(tmp: Path, convnet: tuple[str, bytes], case: str) -> Path:
    mutate, bin_action, _ = CASES[case]
    xml, bin_data = convnet
    path = tmp / f"{case}.xml"
    path.write_text(mutate(xml) if mutate else xml)
    bin_path = path.with_suffix(".bin")
    if bin_action == GOOD_BIN:
        bin_path.write_bytes(bin_data)
    elif bin_action == "truncate":
        bin_path.write_bytes(bin_data[:1000])
    elif bin_action == "empty":
        bin_path.write_bytes(b"")
    return path


def error_of(fn, *args) -> BaseException:
    try:
        fn(*args)
    except BaseException as e:  # noqa: BLE001 - the test looks at whatever is raised
        return e
    raise AssertionError("no error raised")


def meaningful(text: str) -> str:
    """The first line after OpenVINO's chain of 'Exception from'/'Check' lines (the list of
    frontends differs by design: ovlab has IR and ONNX)."""
    lines = [ln for ln in text.split("\n") if ln]
    rest = [ln for ln in lines if not ln.startswith(("Exception from ", "Check "))]
    return re.sub(r"Available frontends: .*", "Available frontends: ...", rest[0] if rest else "")


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_ir_file_same_error_as_openvino(case, convnet, tmp_path):
    path = write_case(tmp_path, convnet, case)
    real = error_of(lambda: real_core().read_model(str(path)))
    ours = error_of(lambda: ovlab.Core("cpu").read_model(str(path)))
    assert type(real) is RuntimeError, repr(real)
    assert type(ours) is RuntimeError, repr(ours)
    assert str(ours).split("\n")[0] == str(real).split("\n")[0]  # the API line, core.cpp:84
    expect = CASES[case][2]
    if expect == "same":
        assert meaningful(str(ours)) == meaningful(str(real))
    else:
        assert re.search(expect, str(ours)), str(ours)


def test_cycle_and_unknown_op_say_more(convnet, tmp_path):
    """OpenVINO's line for a cycle names only a layer id; ovlab adds the layers of the cycle.
    For an op ovlab lacks it names the layer and lists what ovlab implements."""
    cyc = str(error_of(lambda: ovlab.Core().read_model(str(write_case(tmp_path, convnet, "cycle")))))
    assert "ovlab: the edges form a cycle through conv1 (id 2), relu1 (id 3)" in cyc
    unk = str(error_of(lambda: ovlab.Core().read_model(
        str(write_case(tmp_path, convnet, "unknown_op")))))
    assert "layer relu1 id:3 needs FooBar" in unk and "Convolution" in unk


def test_same_errors_through_compile_model(convnet, tmp_path):
    """compile_model(path) reads the file with its own first lines (core.cpp:132, plugin.cpp:59)."""
    path = write_case(tmp_path, convnet, "unknown_op")
    real = str(error_of(lambda: real_core().compile_model(str(path), "CPU")))
    ours = str(error_of(lambda: ovlab.Core("cpu").compile_model(str(path), "CPU")))
    assert ours.split("\n")[:2] == real.split("\n")[:2]
    assert meaningful(ours) == meaningful(real)


def test_missing_file_and_weights_path(convnet, tmp_path):
    for fn in (lambda c: c.read_model(str(tmp_path / "nope.xml")),
               lambda c: c.read_model(str(tmp_path / "nope.onnx")),
               lambda c: c.read_model(str(write_case(tmp_path, convnet, "ir_v7")),
                                      str(tmp_path / "nope.bin")),
               lambda c: c.read_model(str(write_case(tmp_path, convnet, "cycle")),
                                      str(tmp_path / "nope.bin"))):
        real, ours = error_of(fn, real_core()), error_of(fn, ovlab.Core())
        assert type(ours) is type(real) is RuntimeError
        assert str(ours).split("\n")[:2] == str(real).split("\n")[:2]
        assert meaningful(str(ours)) == meaningful(str(real))


def test_bytes_errors(convnet):
    xml, _ = convnet
    for args in ((b"garbage",), (xml.encode(),)):
        real = error_of(real_core().read_model, *args)
        ours = error_of(ovlab.Core().read_model, *args)
        assert type(ours) is type(real) is RuntimeError
        assert str(ours).split("\n")[0] == str(real).split("\n")[0]  # core.cpp:105
        assert meaningful(str(ours)) == meaningful(str(real))


def test_wrong_argument_types(convnet):
    for bad in (123, None, 4.5):
        real = error_of(real_core().read_model, bad)
        ours = error_of(ovlab.Core().read_model, bad)
        assert type(ours) is type(real) is TypeError
        assert str(ours) == str(real)


def test_entities_are_refused(tmp_path):
    """defusedxml refuses entity declarations (OpenVINO's pugixml reads this one as an empty
    net); a billion-laughs file cannot blow up memory."""
    path = tmp_path / "lol.xml"
    path.write_text('<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
                    '<net name="x" version="11"><layers/><edges/></net>')
    err = error_of(lambda: ovlab.Core().read_model(str(path)))
    assert type(err) is RuntimeError and "entity or DTD declarations" in str(err)


def test_dynamic_input_is_a_clear_error(convnet, tmp_path):
    xml, data = convnet
    path = tmp_path / "dyn.xml"
    path.write_text(xml.replace('shape="1,3,32,32"', 'shape="?,3,32,32"'))
    path.with_suffix(".bin").write_bytes(data)
    assert real_core().read_model(str(path))  # OpenVINO reads a dynamic batch
    err = str(error_of(lambda: ovlab.Core().read_model(str(path))))
    assert "ovlab models are static: input 'input' has the dynamic shape [?,3,32,32]" in err


def test_no_partial_model_and_errors_are_repeatable(convnet, tmp_path):
    path = write_case(tmp_path, convnet, "truncated_bin")
    core = ovlab.Core()
    first = str(error_of(lambda: core.read_model(str(path))))
    assert first == str(error_of(lambda: core.read_model(str(path))))
    shutil.copy(path, tmp_path / "ok.xml")
    (tmp_path / "ok.bin").write_bytes(convnet[1])
    m = core.read_model(str(tmp_path / "ok.xml"))  # the same Core still reads a good file
    x = np.zeros((1, 3, 32, 32), np.float32)
    assert m._evaluate([x])[0].shape == (1, 10)
