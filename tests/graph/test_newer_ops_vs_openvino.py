"""The ops ovlab serves from ``openvino.opsetN`` beyond ``ovlab.opset``'s opset13 builders
(DFT, IDFT, RDFT, IRDFT, FakeConvert, Inverse, Col2Im, StringTensorPack, Identity) against the
real wheel: the same
output shapes and types, the same values on the CPU (the real plugin pinned to f32), and the
same error lines for bad inputs. These are the ops OpenVINO's own ``test_graph`` modules
build (``tests/openvino_suite``)."""

from __future__ import annotations

import numpy as np
import pytest

ov = pytest.importorskip("openvino")

from real_wheel import lab_core, real_core  # noqa: E402

import ovlab  # noqa: E402
from ovlab.sim.graph import opset_versions  # noqa: E402
from ovlab.sim.graph.f8_ops import round_to_f8  # noqa: E402

REAL = {n: pytest.importorskip(f"openvino.opset{n}") for n in (10, 13, 14, 15, 16)}


def lab(opset: int, name: str):
    """ovlab's builder for ``openvino.opset<opset>.<name>``."""
    return opset_versions.builder(f"opset{opset}", name) or getattr(ovlab.opset, name)


def both(opset: int, name: str, shapes_types, build, inputs):
    """Build ``build(param_builder, op, params)`` with each library, run both on the CPU and
    return (ovlab's outputs, the wheel's outputs, ovlab's node, the wheel's node)."""
    runs = []
    for mod, op, core, model_cls in (
            (ovlab.opset, lab(opset, name), lab_core(), ovlab.Model),
            (REAL[opset], getattr(REAL[opset], name), real_core(), ov.Model)):
        params = [mod.parameter(list(s), t, name=f"in{i}") for i, (s, t) in enumerate(shapes_types)]
        node = build(op, params)
        compiled = core.compile_model(model_cls([node.output(0)], params), "CPU")
        res = compiled.create_infer_request().infer(dict(enumerate(inputs)))
        runs.append((res[compiled.outputs[0]], node))
    (ours, lnode), (theirs, rnode) = runs
    assert list(lnode.get_output_shape(0)) == list(rnode.get_output_shape(0))
    assert lnode.get_output_element_type(0).get_type_name() == \
        rnode.get_output_element_type(0).get_type_name()
    return ours, theirs


RNG = np.random.default_rng(36)


@pytest.mark.parametrize("adjoint", [False, True])
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (2, 1, 2, 2)])
def test_inverse_values(shape, adjoint):
    x = (RNG.normal(size=shape) + 3 * np.eye(shape[-1])).astype(np.float32)
    ours, theirs = both(14, "inverse", [(shape, np.float32)],
                        lambda op, p: op(p[0], adjoint=adjoint), [x])
    np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize(("shape", "out", "kernel", "params"), [
    ((3, 4), [2, 2], [1, 1], []),
    ((12, 25), [4, 4], [2, 2], [[2, 2], [1, 1], [3, 3], [3, 3]]),
    ((2, 8, 8), [5, 5], [2, 2], [[2, 2], [1, 1], [0, 2], [0, 2]]),
    ((2, 32, 12), [6, 6], [4, 4], [[2, 2], [2, 2], [4, 3], [4, 3]]),
    ((1, 18, 12), [5, 6], [3, 3], [[1, 1], [1, 1], [0, 0], [0, 0]]),  # overlapping blocks
])
def test_col2im_values(shape, out, kernel, params):
    x = RNG.normal(size=shape).astype(np.float32)
    ours, theirs = both(15, "col2im", [(shape, np.float32)],
                        lambda op, p: op(p[0], np.array(out, np.int32),
                                         np.array(kernel, np.int32), *params), [x])
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dest", ["f8e4m3", "f8e5m2"])
@pytest.mark.parametrize("with_shift", [False, True])
def test_fake_convert_values(dest, with_shift):
    # small, large (saturating), tiny (subnormal) and halfway values
    x = np.concatenate([RNG.normal(size=40), RNG.normal(size=8) * 3e4, RNG.normal(size=8) * 1e-3,
                        [0.0, -0.0, 0.3125, 0.34375, 448.0, 480.0, 1e6]]).astype(np.float32)
    scale = np.float32(1.5)
    shift = np.float32(0.25)

    def build(op, p):
        return op(p[0], scale, shift if with_shift else None, dest)

    ours, theirs = both(13, "fake_convert", [(x.shape, np.float32)], build, [x])
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=0)


FFT_CASES = [  # (op, input shape, axes, signal_size)
    ("dft", (2, 10, 6, 2), [2], None), ("dft", (2, 10, 6, 2), [0, -1], None),
    ("dft", (2, 10, 6, 2), [1, 2], [4, 9]), ("dft", (3, 5, 2), [0, 1], [-1, 8]),
    ("idft", (2, 10, 6, 2), [1], None), ("idft", (2, 10, 6, 2), [0, 1, 2], [4, 5, 16]),
    ("rdft", (50,), [0], None), ("rdft", (4, 12, 10), [-2, -1], None),
    ("rdft", (6, 16), [0, 1], [3, 7]), ("rdft", (5, 9), [0, 1], [4, 6]),
    ("irdft", (6, 9, 2), [0, 1], None), ("irdft", (4, 5, 2), [1], [9]),
    ("irdft", (4, 6, 5, 2), [-2, -1], [6, 8]), ("irdft", (7, 4, 2), [0], [10]),
]  # (left out: a signal size of -1 in RDFT/IRDFT, which the real CPU plugin fails to compile,
#    and an RDFT signal longer than its input, "not supported yet" there, 2026.4.1)


@pytest.mark.parametrize(("name", "shape", "axes", "sizes"), FFT_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(FFT_CASES)])
def test_fft_values(name, shape, axes, sizes):
    x = RNG.normal(size=shape).astype(np.float32)

    def build(op, p):
        size = np.array(sizes, np.int64) if sizes is not None else None
        return op(p[0], np.array(axes, np.int64), size)

    ours, theirs = both(10, name, [(shape, np.float32)], build, [x])
    np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-4)


def test_round_to_f8_grid():
    """Every f8e4m3 magnitude below the largest is kept; halfway values go to the even one."""
    grid = np.array([m / 8 * 2.0 ** e for e in range(-6, 9) for m in range(8, 16)], np.float32)
    np.testing.assert_array_equal(round_to_f8(grid[grid <= 448], "f8e4m3"), grid[grid <= 448])
    assert round_to_f8(np.float32(1.0625), "f8e4m3") == 1.0  # between 1 and 1.125: to even
    assert round_to_f8(np.float32(1.1875), "f8e4m3") == 1.25
    assert round_to_f8(np.float32(-1e9), "f8e5m2") == -57344.0


def test_string_tensor_pack_values():
    begins, ends = np.array([[0, 3], [3, 7]], np.int32), np.array([[3, 3], [7, 10]], np.int32)
    symbols = np.frombuffer(b"abcdefghij", np.uint8).copy()
    ours, theirs = both(15, "string_tensor_pack",
                        [((2, 2), np.int32), ((2, 2), np.int32), ((10,), np.uint8)],
                        lambda op, p: op(*p), [begins, ends, symbols])
    # (ovlab's infer() hands string outputs out as bytes, the wheel's as str: compared decoded)
    def text(a):
        return [s.decode() if isinstance(s, bytes) else str(s) for s in np.asarray(a).ravel()]
    assert text(ours) == text(theirs) == ["abc", "", "defg", "hij"]


def test_identity_values():
    x = RNG.integers(-100, 100, size=(2, 3)).astype(np.int32)
    ours, theirs = both(16, "identity", [((2, 3), np.int32)], lambda op, p: op(p[0]), [x])
    np.testing.assert_array_equal(ours, theirs)


A = np.array  # (short: the FFT cases' axes and sizes)
BAD = [
    (10, "dft", lambda op, P: op(P([2, 10, 3], np.float32), A([0]))),
    (10, "dft", lambda op, P: op(P([2, 10, 2], np.float32), A([2]))),
    (10, "dft", lambda op, P: op(P([2, 10, 2], np.float32), A([0, 0]))),
    (10, "dft", lambda op, P: op(P([2, 10, 2], np.float32), A([0]), A([3, 4]))),
    (10, "dft", lambda op, P: op(P([2, 10, 2], np.int32), A([0]))),
    (10, "dft", lambda op, P: op(P([2, 10, 2], np.float32), A([[0]]))),
    (10, "dft", lambda op, P: op(P([2], np.float32), A([0]))),
    (10, "dft", lambda op, P: op(P([2, 10, 2], np.float32), A([0.5]))),
    (10, "rdft", lambda op, P: op(P([2, 10], np.float32), A([2]))),
    (10, "irdft", lambda op, P: op(P([2, 10, 3], np.float32), A([0]))),
    (14, "inverse", lambda op, P: op(P([3], np.float32))),
    (14, "inverse", lambda op, P: op(P([2, 3], np.float32))),
    (14, "inverse", lambda op, P: op(P([2, 2], np.int32))),
    (15, "col2im", lambda op, P: op(P([3, 5], np.float32), np.array([2, 2], np.int32),
                                    np.array([1, 1], np.int32))),
    (15, "col2im", lambda op, P: op(P([5, 4], np.float32), np.array([2, 2], np.int32),
                                    np.array([2, 2], np.int32))),
    (15, "col2im", lambda op, P: op(P([3], np.float32), np.array([2, 2], np.int32),
                                    np.array([1, 1], np.int32))),
    (15, "col2im", lambda op, P: op(P([3, 4], np.float32), np.array([2, 2, 2], np.int32),
                                    np.array([1, 1], np.int32))),
    (15, "col2im", lambda op, P: op(P([3, 4], np.float32), np.array([2, 2], np.float32),
                                    np.array([1, 1], np.int32))),
    (15, "string_tensor_pack", lambda op, P: op(P([3], np.int32), P([4], np.int32),
                                                P([10], np.uint8))),
    (15, "string_tensor_pack", lambda op, P: op(P([3], np.float32), P([3], np.float32),
                                                P([10], np.uint8))),
    (15, "string_tensor_pack", lambda op, P: op(P([3], np.int32), P([3], np.int64),
                                                P([10], np.uint8))),
    (15, "string_tensor_pack", lambda op, P: op(P([3], np.int32), P([3], np.int32),
                                                P([10], np.int8))),
    (15, "string_tensor_pack", lambda op, P: op(P([3], np.int32), P([3], np.int32),
                                                P([2, 5], np.uint8))),
    (13, "fake_convert", lambda op, P: op(P([3], np.int32), P([], np.int32))),
    (13, "fake_convert", lambda op, P: op(P([3], np.float32), P([], np.float16))),
    (13, "fake_convert", lambda op, P: op(P([3], np.float32), P([2], np.float32))),
    (13, "fake_convert", lambda op, P: op(P([3], np.float32), P([], np.float32),
                                          destination_type="f8e8m0")),
    (13, "fake_convert", lambda op, P: op(P([3, 4], np.float32), P([4], np.float32),
                                          P([3, 1], np.float32))),
    (13, "fake_convert", lambda op, P: op(P([3, 4], np.float64), P([], np.float64))),
]


@pytest.mark.parametrize(("opset", "name", "build"), BAD,
                         ids=[f"{n}-{i}" for i, (_, n, _) in enumerate(BAD)])
def test_bad_inputs_raise_the_wheels_line(opset, name, build):
    lines = []
    for op, param in ((lab(opset, name), ovlab.opset.parameter),
                      (getattr(REAL[opset], name), REAL[opset].parameter)):
        with pytest.raises(RuntimeError) as e:
            build(op, param)
        lines.append(str(e.value).strip().splitlines()[-1])
    assert lines[0] == lines[1]


PROMOTE_TYPES = ["boolean", "u4", "u8", "u16", "u32", "u64", "i4", "i8", "i16", "i32", "i64",
                 "f8e4m3", "f8e5m2", "bf16", "f16", "f32", "f64"]


@pytest.mark.parametrize("unsafe", [False, True])
@pytest.mark.parametrize(("pytorch", "scalar"), [(False, None), (True, 0), (True, 1)])
def test_convert_promote_types_table_as_the_wheel(unsafe, pytorch, scalar):
    """Every pair of the 17 types it takes: the same common type, or the same error line."""
    def outcome(mod, a, b):
        shapes = [[] if scalar == i else [2] for i in (0, 1)]
        try:
            node = (lab(14, "convert_promote_types") if mod is ovlab else
                    REAL[14].convert_promote_types)(
                mod.opset.parameter(shapes[0], getattr(mod.Type, a)) if mod is ovlab else
                REAL[14].parameter(shapes[0], getattr(ov.Type, a)),
                mod.opset.parameter(shapes[1], getattr(mod.Type, b)) if mod is ovlab else
                REAL[14].parameter(shapes[1], getattr(ov.Type, b)),
                unsafe, pytorch, "i64")
            return node.get_output_element_type(1).get_type_name()
        except RuntimeError as e:
            return str(e).strip().splitlines()[-1]
    diffs = [(a, b, outcome(ovlab, a, b), outcome(ov, a, b))
             for a in PROMOTE_TYPES for b in PROMOTE_TYPES]
    assert [d for d in diffs if d[2] != d[3]] == []


def test_convert_promote_types_values():
    x, y = RNG.normal(size=(2, 3)).astype(np.float32) * 50, np.arange(-3, 3, dtype=np.int8)

    def build(op, p):
        return op(p[0], p[1], True)

    runs = []
    for mod, core, model_cls in ((ovlab.opset, lab_core(), ovlab.Model),
                                 (REAL[14], real_core(), ov.Model)):
        op = lab(14, "convert_promote_types") if mod is ovlab.opset else REAL[14].convert_promote_types
        params = [mod.parameter([2, 3], np.float32), mod.parameter([6], np.int8)]
        node = build(op, params)
        compiled = core.compile_model(model_cls([node.output(0), node.output(1)], params), "CPU")
        res = compiled.create_infer_request().infer([x, y])
        runs.append([res[o] for o in compiled.outputs])
    for ours, theirs in zip(*runs, strict=True):
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours, theirs)


EMB_TABLE = np.arange(10, dtype=np.float32).reshape(5, 2) - 3.5


@pytest.mark.parametrize(("reduction", "weights", "default"), [
    ("sum", False, None), ("mean", False, None), ("sum", True, None), ("sum", False, 4),
    ("mean", False, 4), ("sum", True, 2)])
def test_embedding_bag_offsets_values(reduction, weights, default):
    """Bags of 2, 0 (empty: the default row or zeros), 3 and 1 indices."""
    shapes = [((5, 2), np.float32), ((6,), np.int64), ((4,), np.int64)]
    inputs = [EMB_TABLE, np.array([0, 2, 3, 4, 1, 1], np.int64), np.array([0, 2, 2, 5], np.int64)]
    if default is not None:
        shapes.append(((), np.int64))
        inputs.append(np.array(default, np.int64))
    if weights:
        shapes.append(((6,), np.float32))
        inputs.append(np.array([1, 2, 0.5, 1, 3, -1], np.float32))

    def build(op, p):
        return op(p[0], p[1], p[2], p[3] if default is not None else None,
                  p[-1] if weights else None, reduction)

    ours, theirs = both(15, "embedding_bag_offsets", shapes, build, inputs)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)


@pytest.mark.parametrize(("reduction", "weights"), [("sum", False), ("mean", False),
                                                    ("sum", True)])
def test_embedding_bag_packed_values(reduction, weights):
    shapes = [((5, 2), np.float32), ((3, 2), np.int64)] + ([((3, 2), np.float32)] if weights
                                                          else [])
    inputs = [EMB_TABLE, np.array([[0, 4], [2, 2], [1, 3]], np.int64)] + (
        [np.array([[1, 2], [0.5, -1], [3, 1]], np.float32)] if weights else [])

    def build(op, p):
        return op(p[0], p[1], p[2] if weights else None, reduction)

    ours, theirs = both(15, "embedding_bag_packed", shapes, build, inputs)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)


EMB_BAD = [
    lambda op, P: op(P([5, 2], np.float32), P([4], np.int32), P([3], np.int64)),
    lambda op, P: op(P([5, 2], np.float32), P([4], np.float32), P([3], np.int64)),
    lambda op, P: op(P([5, 2], np.float32), P([4, 1], np.int64), P([3], np.int64)),
    lambda op, P: op(P([5, 2], np.float32), P([4], np.int64), P([3], np.int64), reduction="max"),
    lambda op, P: op(P([5, 2], np.float32), P([4], np.int64), P([3], np.int64), None,
                     P([4], np.float32), "mean"),
    lambda op, P: op(P([5, 2], np.float32), P([4], np.int64), P([3], np.int64), None,
                     P([3], np.float32)),
    lambda op, P: op(P([5, 2], np.float32), P([4], np.int64), P([3], np.int64), P([1], np.int64)),
    lambda op, P: op(P([5, 2], np.float32), P([4], np.int32), P([3], np.int32), P([], np.int64)),
]


@pytest.mark.parametrize("build", EMB_BAD, ids=[f"offsets-{i}" for i in range(len(EMB_BAD))])
def test_embedding_bag_bad_inputs_as_the_wheel(build):
    lines = []
    for op, param in ((lab(15, "embedding_bag_offsets"), ovlab.opset.parameter),
                      (REAL[15].embedding_bag_offsets, REAL[15].parameter)):
        with pytest.raises(RuntimeError) as e:
            build(op, param)
        lines.append(str(e.value).strip().splitlines()[-1])
    assert lines[0] == lines[1]


POOL14 = [  # (input shape, strides, pads_begin, pads_end, kernel, exclude_pad)
    ((1, 2, 5, 5), [2, 2], [1, 1], [1, 1], [2, 2], False),
    ((1, 2, 9, 9), [2, 2], [1, 1], [1, 1], [2, 2], True),
    ((1, 1, 10, 10), [2, 2], [0, 0], [0, 0], [3, 3], False),
    ((1, 1, 6, 7), [3, 2], [1, 0], [1, 1], [3, 2], False),
    ((1, 1, 4, 4, 4), [2, 2, 2], [0, 0, 0], [0, 0, 0], [2, 2, 2], True),
]


@pytest.mark.parametrize(("shape", "strides", "pb", "pe", "kernel", "exclude"), POOL14)
@pytest.mark.parametrize("kind", ["avg_pool", "max_pool"])
def test_pooling14_ceil_torch_values(kind, shape, strides, pb, pe, kernel, exclude):
    """Pooling-14's "ceil_torch" rounding: the same windows (shapes) and values as the CPU."""
    x = RNG.normal(size=shape).astype(np.float32)

    def build(op, p):
        if kind == "avg_pool":
            return op(p[0], strides, pb, pe, kernel, exclude, "ceil_torch")
        return op(p[0], strides, [1] * len(kernel), pb, pe, kernel, "ceil_torch")

    ours, theirs = both(14, kind, [(shape, np.float32)], build, [x])
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


def test_pooling_ceil_torch_needs_opset14():
    for n in (1, 8):
        mod = pytest.importorskip(f"openvino.opset{n}")
        with pytest.raises(RuntimeError):
            mod.avg_pool(mod.parameter([1, 1, 5, 5]), [2, 2], [1, 1], [1, 1], [2, 2], False,
                         "ceil_torch")
    with pytest.raises(Exception, match="ceil_torch"):
        ovlab.opset.avg_pool(ovlab.opset.parameter([1, 1, 5, 5]), [2, 2], [1, 1], [1, 1],
                             [2, 2], False, "ceil_torch")
    node = lab(14, "avg_pool")(ovlab.opset.parameter([1, 1, 5, 5]), [2, 2], [1, 1], [1, 1],
                               [2, 2], False, "ceil_torch")
    assert node.get_type_info().version_id == "opset14"
