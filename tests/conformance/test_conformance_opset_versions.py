"""The older builders the wheel's opset1-11 modules keep (``ovlab/opset_versions.py``):
the same output type, shape and numbers as the real ones."""

from __future__ import annotations

import numpy as np
import openvino as ov
import openvino.opset2 as real2
import openvino.opset4 as real4  # range-1, gelu-2, mvn-2 and interpolate-1 are still there
import pytest
from conformance_harness import LAB, REAL

import ovlab
from ovlab import opset_versions as old

X = (np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5) % 7) - 3.0

CASES = {
    "range": (lambda m, x: m.range(np.int32(1), np.int32(10), np.int32(3)), "range_v1"),
    "gelu": (lambda m, x: m.gelu(x), "gelu_v2"),
    "mvn": (lambda m, x: m.mvn(x, True, True, 1e-3), "mvn_v2"),
    "mvn_channels": (lambda m, x: m.mvn(x, False, False), "mvn_v2"),
    "broadcast": (lambda m, x: m.broadcast(np.float32([1, 2, 3]), [2, 3], mode="NUMPY"),
                  "broadcast_v1"),
    "interpolate_nearest": (lambda m, x: m.interpolate(
        x, np.int64([5, 8]), {"axes": [2, 3], "mode": "nearest"}), "interpolate_v1"),
    "interpolate_linear": (lambda m, x: m.interpolate(
        x, np.int64([6, 3]), {"axes": [2, 3], "mode": "linear", "align_corners": False}),
        "interpolate_v1"),
    "interpolate_cubic": (lambda m, x: m.interpolate(
        x, np.int64([7, 9]), {"axes": [2, 3], "mode": "cubic"}), "interpolate_v1"),
    "interpolate_nearest_asym": (lambda m, x: m.interpolate(
        x, np.int64([7, 2]), {"axes": [2, 3], "mode": "nearest", "align_corners": False}),
        "interpolate_v1"),
}


class _Old:
    """ovlab's old builders under the real names (as the runner serves them in opset2)."""

    range, gelu, mvn, broadcast, interpolate = (old.range_v1, old.gelu_v2, old.mvn_v2,
                                                 old.broadcast_v1, old.interpolate_v1)


@pytest.mark.parametrize("case", list(CASES))
def test_old_builders_match_the_wheels(case):
    build = CASES[case][0]
    got = {}
    for rt, module in ((REAL, real2 if case == "broadcast" else real4), (LAB, _Old)):
        x = rt.ops.parameter(list(X.shape), np.float32, name="x")
        node = build(module, x)
        params = [] if case in ("range", "broadcast") else [x]
        model = rt.Model([node], params, "m")
        out = rt.new_core().compile_model(model, "CPU").create_infer_request() \
            .infer({0: X} if params else {})[0]
        got[rt.name] = (node.get_output_element_type(0).get_type_name(), out)
    assert got["ovlab"][0] == got["openvino"][0]
    np.testing.assert_allclose(got["ovlab"][1], got["openvino"][1], rtol=1e-5, atol=1e-5)


def test_the_runner_serves_them_in_the_old_opsets_only():
    ovlab.install()
    try:
        import openvino.opset2 as served2
        import openvino.opset13 as served13
        assert served2.gelu is old.gelu_v2 and served13.gelu is ovlab.opset.gelu
    finally:
        ovlab.uninstall()
    assert ov is not None
