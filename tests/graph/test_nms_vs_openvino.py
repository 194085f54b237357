"""NonMaxSuppression-9 (``ovlab/sim/graph/nms_ops.py``) against the real wheel: the same
output shapes at build time (``[0..bound,3]``), and the same kept boxes and scores as the
wheel's CPU for generated boxes (ovlab computes them by folding the op's constant inputs; its
devices do not run dynamic outputs): hard and soft suppression, score thresholds, corner and
center encodings, sorted across batches and classes or not."""

from __future__ import annotations

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
real_ops = pytest.importorskip("openvino.opset9")

from real_wheel import real_core  # noqa: E402

import ovlab  # noqa: E402
from ovlab.sim.graph import opset_versions  # noqa: E402
from ovlab.sim.graph.ops import constant_value  # noqa: E402

lab_nms = opset_versions.builder("opset9", "non_max_suppression")
CASES = [  # (max boxes, iou threshold, score threshold, sigma, encoding, sorted)
    (3, 0.5, 0.0, 0.0, "corner", True),
    (5, 0.3, 0.2, 0.0, "center", False),
    (4, 0.5, 0.1, 0.5, "corner", True),
    (10, 0.7, 0.0, 0.0, "corner", False),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_kept_boxes_as_the_wheels(case):
    limit, iou, score, sigma, encoding, ordered = CASES[case]
    rng = np.random.default_rng(case)
    corners = rng.uniform(0, 10, (2, 8, 2, 2)).astype(np.float32)
    boxes = np.concatenate([corners.min(2), corners.max(2) + 1], -1).reshape(2, 8, 4)
    scores = rng.uniform(0, 1, (2, 3, 8)).astype(np.float32)
    args = (np.int64(limit), np.float32(iou), np.float32(score), np.float32(sigma))

    b, s = real_ops.parameter([2, 8, 4], np.float32), real_ops.parameter([2, 3, 8], np.float32)
    real_node = real_ops.non_max_suppression(b, s, *(real_ops.constant(v) for v in args),
                                             box_encoding=encoding,
                                             sort_result_descending=ordered)
    compiled = real_core().compile_model(ov.Model(real_node.outputs(), [b, s]), "CPU")
    res = compiled.create_infer_request().infer({0: boxes, 1: scores})
    real = [res[o] for o in compiled.outputs]

    lab_node = lab_nms(ovlab.opset.constant(boxes), ovlab.opset.constant(scores),
                       *(ovlab.opset.constant(v) for v in args), box_encoding=encoding,
                       sort_result_descending=ordered)
    assert [str(o.get_partial_shape()) for o in lab_node.outputs()] == \
        [str(o.get_partial_shape()) for o in real_node.outputs()]
    lab = [constant_value(o) for o in lab_node.outputs()]
    n = int(real[2][0])
    assert int(lab[2][0]) == n
    np.testing.assert_array_equal(lab[0], real[0][:n])
    np.testing.assert_allclose(lab[1], real[1][:n], rtol=1e-5, atol=1e-6)


def test_without_a_maximum_nothing_is_kept_and_a_parameter_maximum_is_unbounded():
    for ops in (real_ops, None):
        build = real_ops.non_max_suppression if ops else lab_nms
        mk = real_ops.parameter if ops else ovlab.opset.parameter
        n = build(mk([1, 4, 4], np.float32), mk([1, 2, 4], np.float32))
        assert str(n.get_output_partial_shape(0)) == "[0,3]"
        n = build(mk([1, 4, 4], np.float32), mk([1, 2, 4], np.float32), mk([], np.int64))
        assert str(n.get_output_partial_shape(0)) == "[?,3]"
