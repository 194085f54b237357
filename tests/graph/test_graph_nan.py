"""NaN, infinities and NumPy warnings (issue 17 item 6), with ops that existed before the fix,
so the test fails on the old code. The per-op comparison with the real CPU is in
``test_ops_vs_openvino.py`` (special values)."""

from __future__ import annotations

import warnings

import numpy as np

import ovlab.opset13 as lops
from ovlab.sim.graph import Model


def test_relu_of_nan_is_zero_and_no_warning_reaches_the_user():
    """Issue 17 item 6: Relu passed NaN through (the CPU plugin gives 0), and NaN or overflow
    in a model printed NumPy RuntimeWarnings. Only ops that existed before the fix are used, so
    the test fails on the old code."""
    x = lops.parameter([1, 5], np.float32)
    zeros = np.zeros((1, 5), np.float32)
    m = Model([lops.relu(x), lops.divide(x, zeros), lops.convert(x, "i32"),
               lops.clamp(x, 0.0, 6.0), lops.softmax(x, 1)], [x])
    v = np.array([[np.nan, 100.0, -1.0, 0.0, 3e38]], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        relu, div, conv, clamp, soft = m._evaluate({0: v})
    np.testing.assert_array_equal(relu, np.array([[0.0, 100.0, 0.0, 0.0, 3e38]], np.float32))
    assert np.isnan(div[0, 0]) and np.isposinf(div[0, 1]) and np.isnan(div[0, 3])
    np.testing.assert_array_equal(conv, [[-2**31, 100, -1, 0, -2**31]])  # as the CPU converts
    np.testing.assert_array_equal(clamp, [[0.0, 6.0, 0.0, 0.0, 6.0]])
    assert np.isnan(soft[0, 0]) and not np.isnan(soft[0, 1:]).any()  # NaN stays in its place
