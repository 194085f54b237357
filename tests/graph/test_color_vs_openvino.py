"""NV12toRGB/BGR and I420toRGB/BGR (``ovlab/sim/graph/color_ops.py``) against the real wheel:
the same output shapes and the same pixels on the CPU, for u8 and f32 images given as one
plane or as separate planes (YUV values drawn with a fixed seed)."""

from __future__ import annotations

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
real_ops = pytest.importorskip("openvino.opset8")

from real_wheel import lab_core, real_core  # noqa: E402

import ovlab  # noqa: E402
from ovlab.sim.graph import opset_versions  # noqa: E402


class _Lab8:
    def __getattr__(self, name):
        return opset_versions.builder("opset8", name) or getattr(ovlab.opset, name)


N, H, W = 2, 4, 6


def _planes(fmt, planes, dtype, rng):
    y = rng.integers(0, 256, (N, H, W, 1))
    if fmt == "nv12":
        chroma = [rng.integers(0, 256, (N, H // 2, W // 2, 2))]
    else:
        chroma = [rng.integers(0, 256, (N, H // 2, W // 2, 1)) for _ in range(2)]
    if planes == 1:
        flat = np.concatenate([y.reshape(N, -1)] + [c.reshape(N, -1) for c in chroma], axis=1)
        return [flat.reshape(N, H * 3 // 2, W, 1).astype(dtype)]
    return [p.astype(dtype) for p in [y, *chroma]]


@pytest.mark.parametrize("op", ["nv12_to_rgb", "nv12_to_bgr", "i420_to_rgb", "i420_to_bgr"])
@pytest.mark.parametrize("planes", [1, 0])
@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_pixels_as_the_wheels(op, planes, dtype):
    rng = np.random.default_rng(9)
    inputs = _planes(op[:4], planes, dtype, rng)
    outs = []
    for ops, core, model_cls in ((_Lab8(), lab_core, ovlab.Model),
                                 (real_ops, real_core, ov.Model)):
        params = [ops.parameter(list(x.shape), dtype, name=f"in{i}")
                  for i, x in enumerate(inputs)]
        node = getattr(ops, op)(*params)
        compiled = core().compile_model(model_cls([node], params), "CPU")
        res = compiled.create_infer_request().infer(dict(enumerate(inputs)))
        outs.append((str(node.get_output_partial_shape(0)), res[compiled.outputs[0]]))
    assert outs[0][0] == outs[1][0]
    np.testing.assert_allclose(outs[0][1].astype(np.float32), outs[1][1].astype(np.float32),
                               atol=1.0 if dtype == np.uint8 else 1e-3)
