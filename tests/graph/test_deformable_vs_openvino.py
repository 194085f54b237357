"""DeformableConvolution-1 and -8 (``ovlab/sim/graph/deformable_ops.py``) against the real
wheel: the same output shapes and attributes, and the same values on the CPU (the real plugin
pinned to f32) for offsets that send taps inside, across and outside the input's edges, with
groups, deformable groups, a mask, strides, pads and dilations."""

from __future__ import annotations

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
real1 = pytest.importorskip("openvino.opset1")
real8 = pytest.importorskip("openvino.opset8")

from real_wheel import lab_core, real_core  # noqa: E402

import ovlab  # noqa: E402
from ovlab.sim.graph import opset_versions  # noqa: E402


def _lab(opset):
    class _Ops:
        def __getattr__(self, name):
            return opset_versions.builder(f"opset{opset}", name) or getattr(ovlab.opset, name)
    return _Ops()


CASES = [  # (C, O, group, deformable_group, stride, pad, dilation, mask, bilinear pad)
    (2, 3, 1, 1, 1, 0, 1, False, False),
    (4, 4, 2, 2, 2, 1, 1, True, False),
    (4, 2, 1, 4, 1, 1, 2, True, True),
    (2, 2, 1, 1, 1, 2, 1, False, True),
]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("version", [1, 8])
def test_values_as_the_wheels(case, version):
    c, o, g, dg, s, p, d, with_mask, bpad = CASES[case]
    if version == 1 and (with_mask or bpad):
        pytest.skip("version 1 has no mask and no bilinear_interpolation_pad")
    rng = np.random.default_rng(case)
    h = w = 7
    k = 3
    oh = (h + 2 * p - d * (k - 1) - 1) // s + 1
    x = rng.standard_normal((1, c, h, w)).astype(np.float32)
    off = (rng.standard_normal((1, dg * 2 * k * k, oh, oh)) * 2.5).astype(np.float32)
    wts = rng.standard_normal((o, c // g, k, k)).astype(np.float32)
    inputs = [x, off, wts]
    if with_mask:
        inputs.append(rng.uniform(0, 1, (1, dg * k * k, oh, oh)).astype(np.float32))
    results = []
    for ops, core, model_cls in ((_lab(version), lab_core, ovlab.Model),
                                 (real1 if version == 1 else real8, real_core, ov.Model)):
        params = [ops.parameter(list(v.shape), np.float32, name=f"in{i}")
                  for i, v in enumerate(inputs)]
        kw = {"group": g, "deformable_group": dg}
        if version == 8:
            kw["bilinear_interpolation_pad"] = bpad
            if with_mask:
                kw["mask"] = params[3]
        node = ops.deformable_convolution(params[0], params[1], params[2], [s, s], [p, p],
                                          [p, p], [d, d], **kw)
        compiled = core().compile_model(model_cls([node], params), "CPU")
        res = compiled.create_infer_request().infer(dict(enumerate(inputs)))
        results.append((str(node.get_output_partial_shape(0)), node.get_attributes(),
                        res[compiled.outputs[0]]))
    assert results[0][:2] == results[1][:2]
    np.testing.assert_allclose(results[0][2], results[1][2], rtol=1e-4, atol=1e-4)
