"""PriorBox-8 and PriorBoxClustered-1 (``ovlab/sim/graph/prior_box_ops.py``) against the
real wheel: the same output shape and type, and the same boxes and variances computed on the
CPU (the real plugin pinned to f32), over the attribute combinations OpenVINO's own tests and
SSD models use (``test_create_op.py``: mxnet-like min sizes, flip, clip, max sizes, steps,
four variances, fixed sizes with densities and ratios)."""

from __future__ import annotations

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
real_ops = pytest.importorskip("openvino.opset11")

from real_wheel import LabOpset, lab_core, real_core  # noqa: E402

import ovlab  # noqa: E402

lab_ops = LabOpset("opset11")
F = np.float32

BOX = [
    {"offset": F(0), "min_size": np.array([2, 3], F), "aspect_ratio": np.array([1.5, 2.0, 2.5], F),
     "scale_all_sizes": False},
    {"offset": F(0.5), "min_size": np.array([4.0], F), "max_size": np.array([9.0], F),
     "aspect_ratio": np.array([2.0], F), "flip": True, "clip": True},
    {"offset": F(0.5), "min_size": np.array([4.0, 6.0], F), "max_size": np.array([8.0, 10.0], F),
     "aspect_ratio": np.array([2.0, 3.0], F), "step": F(4.0),
     "variance": np.array([0.1, 0.1, 0.2, 0.2], F), "min_max_aspect_ratios_order": False},
    {"offset": F(0.5), "fixed_size": np.array([4.0], F), "density": np.array([2.0], F),
     "aspect_ratio": np.array([2.0], F), "clip": True},
    {"offset": F(0.5), "fixed_size": np.array([8.0], F), "density": np.array([2.0], F),
     "fixed_ratio": np.array([1.0, 4.0], F)},
]
CLUSTERED = [
    {"offset": F(0.5), "width": np.array([4.0, 2.0, 3.2], F),
     "height": np.array([1.0, 2.0, 1.0], F)},
    {"offset": F(0.5), "width": np.array([20.0], F), "height": np.array([10.0], F),
     "clip": False, "step_widths": F(6.0), "step_heights": F(5.0),
     "variance": np.array([0.1, 0.1, 0.2, 0.2], F)},
]


def _run(ops, core, model_cls, build, layer, image, attrs):
    x = ops.parameter([1], F, name="x")
    node = build(ops)(ops.constant(np.array(layer, np.int64)), np.array(image, np.int64), attrs)
    model = model_cls([ops.add(node, x)], [x], "priors")
    res = core.compile_model(model, "CPU")(np.zeros(1, F))[0]
    return node, res


@pytest.mark.parametrize(("op", "i"), [("prior_box", i) for i in range(len(BOX))]
                         + [("prior_box_clustered", i) for i in range(len(CLUSTERED))])
def test_boxes_as_the_wheels(op, i):
    attrs = (BOX if op == "prior_box" else CLUSTERED)[i]
    layer, image = [3, 4], [32, 40]
    lab_node, lab = _run(lab_ops, lab_core(), ovlab.Model, lambda o: getattr(o, op),
                         layer, image, attrs)
    real_node, real = _run(real_ops, real_core(), ov.Model, lambda o: getattr(o, op),
                           layer, image, attrs)
    assert str(lab_node.get_output_partial_shape(0)) == str(real_node.get_output_partial_shape(0))
    assert lab_node.get_output_element_type(0).get_type_name() == "f32"
    want = real_node.get_attributes()
    got = lab_node.get_attributes()
    assert sorted(got) == sorted(want)
    for k, v in want.items():  # floats as the wheel's float32 attributes print them
        assert np.allclose(np.asarray(got[k], float), np.asarray(v, float)), k
    np.testing.assert_allclose(lab, real, rtol=1e-5, atol=1e-6)


def test_a_layer_shape_known_at_run_time():
    for ops in (lab_ops, real_ops):
        node = ops.prior_box(ops.parameter([2], np.int64), np.array([8, 8]), BOX[0])
        assert str(node.get_output_partial_shape(0)) == "[2,?]"
