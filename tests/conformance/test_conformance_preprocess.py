"""``openvino.preprocess.PrePostProcessor``, openvino vs ovlab: the same steps build the same
ops and give the same numbers; unsupported steps and wrong orders fail clearly."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from conformance_harness import LAB, REAL, attempt

# f32 on both: the real CPU's default is bf16 on an AVX512_BF16/AMX host and f32 elsewhere, and
# these tests also run with the host described as another CPU (tests/graph/test_bf16_cpu.py
# compares bf16)
F32 = {"INFERENCE_PRECISION_HINT": "f32"}


def _pp(rt):
    return importlib.import_module(f"{rt.mod.__name__}.preprocess")


def _model(rt):
    p = rt.ops.parameter([1, 3, 4, 4], np.float32, name="data")
    w = rt.ops.constant(np.arange(1, 4, dtype=np.float32).reshape(1, 3, 1, 1))
    return rt.Model(rt.ops.multiply(p, w), [p], "m")


def _build(rt, mean, scale, out_layout=True):
    pp = _pp(rt)
    model = _model(rt)
    ppp = pp.PrePostProcessor(model)
    ppp.input().tensor().set_element_type(rt.Type.u8).set_layout(rt.mod.Layout("NHWC"))
    ppp.input().model().set_layout(rt.mod.Layout("NCHW"))
    ppp.input().preprocess().convert_element_type(rt.Type.f32).mean(mean).scale(scale)
    ppp.output().tensor().set_element_type(rt.Type.f16)
    if out_layout:
        ppp.output().tensor().set_layout("NHWC")
        ppp.output().model().set_layout("NCHW")
    return ppp.build()


@pytest.mark.parametrize(("mean", "scale"), [([1.0, 2.0, 3.0], [2.0, 4.0, 8.0]), (128.0, 255.0)])
@pytest.mark.parametrize("out_layout", [True, False])
def test_common_path_builds_the_same_ops_and_numbers(mean, scale, out_layout):
    x = np.arange(48, dtype=np.uint8).reshape(1, 4, 4, 3)
    got = {}
    for rt in (REAL, LAB):
        model = _build(rt, mean, scale, out_layout)
        got[rt.name] = ([op.get_type_name() for op in model.get_ordered_ops()],
                        list(model.input().get_shape()), model.input().get_any_name(),
                        model.output().get_element_type().get_type_name(),
                        rt.new_core().compile_model(model, "CPU", F32)
                        .create_infer_request().infer({0: x})[0])
    real, lab = got["openvino"], got["ovlab"]
    assert lab[:4] == real[:4]
    assert lab[4].dtype == real[4].dtype and np.array_equal(lab[4], real[4])


def test_mean_on_integers_fails_alike():
    def run(rt):
        ppp = _pp(rt).PrePostProcessor(_model(rt))
        ppp.input().tensor().set_element_type(rt.Type.u8)
        ppp.input().preprocess().mean(1.0)
        return attempt(ppp.build)

    real, lab = run(REAL), run(LAB)
    assert real.exc_type is lab.exc_type is RuntimeError
    assert lab.message.strip().splitlines()[-1] == real.message.strip().splitlines()[-1]


def _steps(rt, case):
    pp = _pp(rt)
    p = rt.ops.parameter([1, 3, 4, 4] if case != "gray" else [1, 4, 4, 1], np.float32, name="x")
    ppp = pp.PrePostProcessor(rt.Model(rt.ops.relu(p), [p], "m"))
    inp = ppp.input()
    if case == "color":
        inp.tensor().set_layout("NHWC").set_color_format(pp.ColorFormat.BGR)
        inp.model().set_layout("NCHW")
        inp.preprocess().convert_color(pp.ColorFormat.RGB).mean([1.0, 2.0, 3.0])
    elif case == "gray":
        inp.tensor().set_color_format(pp.ColorFormat.RGB)
        inp.preprocess().convert_color(pp.ColorFormat.GRAY)
    elif case == "reverse_crop":
        inp.tensor().set_layout("NCHW").set_shape([1, 3, 6, 6])
        inp.preprocess().reverse_channels().crop([0, 0, 1, 1], [1, 3, 5, -1])
    elif case == "pad_custom":
        inp.tensor().set_shape([1, 3, 3, 2])
        inp.preprocess().pad([0, 0, 0, 1], [0, 0, 1, 1], 0.5, pp.PaddingMode.CONSTANT) \
            .custom(lambda out: rt.ops.abs(out).output(0))
    elif case == "pillow":
        inp.tensor().set_layout("NCHW").set_shape([1, 3, 7, 5])
        inp.preprocess().resize(pp.ResizeAlgorithm.RESIZE_BICUBIC_PILLOW)
    return ppp.build()


@pytest.mark.parametrize("case", ["color", "gray", "reverse_crop", "pad_custom", "pillow"])
def test_colour_crop_pad_custom_and_pillow_steps_build_the_same_ops_and_numbers(case):
    got = {}
    for rt in (REAL, LAB):
        model = _steps(rt, case)
        shape = list(model.input().get_shape())
        x = (np.arange(np.prod(shape), dtype=np.float32).reshape(shape) % 7) - 2.5
        got[rt.name] = ([op.get_type_name() for op in model.get_ordered_ops()], shape,
                        rt.new_core().compile_model(model, "CPU", F32)
                        .create_infer_request().infer({0: x})[0])
    real, lab = got["openvino"], got["ovlab"]
    assert lab[:2] == real[:2]
    np.testing.assert_allclose(lab[2], real[2], rtol=1e-5, atol=1e-5)


def test_unsimulated_steps_name_themselves():
    pp = _pp(LAB)
    ppp = pp.PrePostProcessor(_model(LAB))
    ppp.input().tensor().set_color_format(pp.ColorFormat.NV12_SINGLE_PLANE)
    ppp.input().preprocess().convert_color(pp.ColorFormat.RGB)
    with pytest.raises(NotImplementedError, match="NV12 \\(single plane\\) to RGB is not available"):
        ppp.build()
    ppp = pp.PrePostProcessor(_model(LAB))
    ppp.input().tensor().set_spatial_dynamic_shape()
    with pytest.raises(NotImplementedError, match="set_spatial_dynamic_shape"):
        ppp.build()


def test_resize_builds_an_interpolate_or_says_which_op_is_missing():
    pp = _pp(LAB)
    ppp = pp.PrePostProcessor(_model(LAB))
    ppp.input().tensor().set_shape([1, 3, 8, 8]).set_layout("NCHW")
    ppp.input().preprocess().resize(pp.ResizeAlgorithm.RESIZE_LINEAR)
    out = attempt(ppp.build)
    if out.raised:  # until ovlab.opset has Interpolate
        assert out.exc_type is NotImplementedError and "Interpolate" in out.message
    else:
        assert "Interpolate" in [op.get_type_name() for op in out.value.get_ordered_ops()]
        assert list(out.value.input().get_shape()) == [1, 3, 8, 8]


def test_enums_match():
    for name in ("ResizeAlgorithm", "ColorFormat", "PaddingMode"):
        real = {k: int(v) for k, v in getattr(_pp(REAL), name).__members__.items()}
        lab = {k: int(v) for k, v in getattr(_pp(LAB), name).__members__.items()}
        assert lab == real
