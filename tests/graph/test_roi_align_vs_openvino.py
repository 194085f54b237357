"""ROIAlign-9 and ROIAlignRotated-15 (``ovlab/sim/graph/roi_align_ops.py``) against the real
wheel: the same output shapes and the same pooled values on the CPU (the real plugin pinned to
f32) for ROIs inside, across and beyond the feature map, every aligned mode, avg and max, fixed
and adaptive sampling, rotated boxes clockwise or not."""

from __future__ import annotations

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
real_ops = pytest.importorskip("openvino.opset15")

from real_wheel import LabOpset, run_both  # noqa: E402


def _both(build, inputs):
    (_, lab_shapes, lab), (_, real_shapes, real) = run_both(build, inputs, LabOpset("opset15"),
                                                            real_ops)
    assert lab_shapes[0] == real_shapes[0]
    np.testing.assert_allclose(lab[0], real[0], rtol=1e-4, atol=1e-4)


rng = np.random.default_rng(31)
DATA = rng.standard_normal((2, 3, 9, 11)).astype(np.float32)
BATCH = np.array([0, 1, 1, 0], np.int32)


@pytest.mark.parametrize("aligned", ["asymmetric", "half_pixel_for_nn", "half_pixel"])
@pytest.mark.parametrize(("mode", "ratio"), [("avg", 2), ("max", 0), ("avg", 0)])
def test_roi_align(aligned, mode, ratio):
    rois = np.array([[1, 1, 6, 5], [0, 2, 10.5, 8], [-2, -1, 3, 2], [7.2, 3.1, 14, 12]],
                    np.float32)
    _both(lambda o, p: o.roi_align(*p, 3, 2, ratio, 0.9, mode, aligned), [DATA, rois, BATCH])


@pytest.mark.parametrize("clockwise", [True, False])
@pytest.mark.parametrize("ratio", [2, 0])
def test_roi_align_rotated(clockwise, ratio):
    rois = np.array([[5, 4, 4, 3, 0.3], [3, 6, 6, 2, -1.1], [9, 1, 3, 5, 2.5],
                     [0.5, 0.5, 2, 2, 0.0]], np.float32)
    _both(lambda o, p: o.roi_align_rotated(*p, 2, 3, ratio, 1.0, clockwise),
          [DATA, rois, BATCH])


@pytest.mark.parametrize(("mode", "group", "bins"), [("average", 3, 0), ("average", 2, 1),
                                                      ("bilinear", 3, 2), ("bilinear", 1, 3)])
def test_psroi_pooling(mode, group, bins):
    out_dim = 2
    channels = out_dim * (group * group if mode == "average" else bins * bins)
    data = rng.standard_normal((2, channels, 12, 10)).astype(np.float32)
    # average mode reads pixel boxes; bilinear mode boxes normalized to [0, 1] (spatial_scale 1)
    rois = np.array([[0, 1, 2, 14, 16], [1, 0.4, 0.6, 7.7, 9.2], [0, 6, 3, 18, 22]],
                    np.float32) if mode == "average" else \
        np.array([[0, 0.1, 0.2, 0.7, 0.9], [1, 0.05, 0.0, 0.5, 0.6], [0, 0.3, 0.4, 0.95, 1.0]],
                 np.float32)
    scale = 0.5 if mode == "average" else 1.0
    real1 = pytest.importorskip("openvino.opset1")
    (_, _, lab), (_, _, real) = run_both(
        lambda ops, p: ops.psroi_pooling(*p, out_dim, group, scale, bins, bins, mode),
        [data, rois], LabOpset("opset1"), real1)
    np.testing.assert_allclose(lab[0], real[0], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
def test_grid_sample(mode, padding, align):
    data = rng.standard_normal((2, 3, 6, 7)).astype(np.float32)
    grid = rng.uniform(-1.4, 1.4, (2, 5, 4, 2)).astype(np.float32)  # some points outside
    real9 = pytest.importorskip("openvino.opset9")
    (_, _, lab), (_, _, real) = run_both(
        lambda ops, p: ops.grid_sample(*p, {"mode": mode, "padding_mode": padding,
                                            "align_corners": align}),
        [data, grid], LabOpset("opset9"), real9)
    np.testing.assert_allclose(lab[0], real[0], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(("with_offsets", "bins", "part"), [(False, 1, 1), (True, 2, 3),
                                                             (True, 3, 2)])
def test_deformable_psroi_pooling(with_offsets, bins, part):
    out_dim, group = 2, 3
    data = rng.standard_normal((2, out_dim * group * group, 12, 10)).astype(np.float32)
    rois = np.array([[0, 1, 2, 14, 16], [1, 0.4, 0.6, 7.7, 9.2], [0, 6, 3, 18, 22]],
                    np.float32)
    inputs = [data, rois]
    if with_offsets:
        inputs.append(rng.uniform(-0.5, 0.5, (3, 2, part, part)).astype(np.float32))
    real1 = pytest.importorskip("openvino.opset1")
    (_, _, lab), (_, _, real) = run_both(
        lambda ops, p: ops.deformable_psroi_pooling(
            p[0], p[1], out_dim, 0.5, group, "bilinear_deformable", bins, bins, 0.3, part,
            offsets=p[2] if with_offsets else None),
        inputs, LabOpset("opset1"), real1)
    np.testing.assert_allclose(lab[0], real[0], rtol=1e-4, atol=1e-4)
