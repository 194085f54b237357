"""CTCGreedyDecoder-1 and CTCGreedyDecoderSeqLen-6 (``ovlab/sim/graph/ctc_decoder_ops.py``)
against the real wheel: the same output shapes and types, and the same decoded classes and
lengths on the CPU (scores drawn with a fixed seed, merging on and off, short sequences, a
given blank index)."""

from __future__ import annotations

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
real_ops = pytest.importorskip("openvino.opset6")

from real_wheel import lab_core, real_core  # noqa: E402

import ovlab  # noqa: E402
from ovlab.sim.graph import opset_versions  # noqa: E402


class _Lab6:
    def __getattr__(self, name):
        return opset_versions.builder("opset6", name) or getattr(ovlab.opset, name)


lab_ops = _Lab6()
SIDES = ((lab_ops, lab_core, ovlab.Model), (real_ops, real_core, ov.Model))


def _run(build, inputs):
    outs = []
    for ops, core, model_cls in SIDES:
        params = [ops.parameter(list(x.shape), x.dtype, name=f"in{i}")
                  for i, x in enumerate(inputs)]
        node = build(ops, params)
        compiled = core().compile_model(model_cls(node.outputs(), params), "CPU")
        res = compiled.create_infer_request().infer(dict(enumerate(inputs)))
        outs.append(([(o.get_element_type().get_type_name(), str(o.get_partial_shape()))
                      for o in node.outputs()],
                     [res[o] for o in compiled.outputs]))
    return outs


@pytest.mark.parametrize("merge", [True, False])
def test_greedy_decoder(merge):
    rng = np.random.default_rng(3)
    data = rng.standard_normal((6, 2, 4)).astype(np.float32)
    data[1] = data[0]  # a repeated class to merge
    mask = np.ones((6, 2), np.float32)
    mask[4:, 1] = 0  # the second sequence ends after 4 steps
    lab, real = _run(lambda o, p: o.ctc_greedy_decoder(p[0], p[1], merge), [data, mask])
    assert lab[0] == real[0]
    np.testing.assert_array_equal(lab[1][0], real[1][0])


@pytest.mark.parametrize(("merge", "blank", "index_type"),
                         [(True, None, "i32"), (False, None, "i64"), (True, 0, "i32")])
def test_greedy_decoder_seq_len(merge, blank, index_type):
    rng = np.random.default_rng(5)
    data = rng.standard_normal((3, 7, 5)).astype(np.float32)
    data[:, 2] = data[:, 1]
    lengths = np.array([7, 3, 5], np.int32)
    inputs = [data, lengths] + ([np.array([blank], np.int32)] if blank is not None else [])
    lab, real = _run(lambda o, p: o.ctc_greedy_decoder_seq_len(
        *p[:2], p[2] if len(p) > 2 else None, merge, index_type, "i32"), inputs)
    assert lab[0] == real[0]
    for a, b in zip(lab[1], real[1], strict=True):
        np.testing.assert_array_equal(a, b)
