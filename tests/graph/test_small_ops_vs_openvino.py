"""GatherTree, Bucketize, SearchSorted, ReorgYolo and SliceScatter (``beam_ops``,
``search_ops``, ``yolo_ops``, ``slice_scatter_ops``) against the real wheel: the same output
shapes and types, and the same values on the CPU (inputs drawn with a fixed seed)."""

from __future__ import annotations

import numpy as np
import pytest

ov = pytest.importorskip("openvino")
real_ops = pytest.importorskip("openvino.opset15")

from real_wheel import LabOpset, run_both  # noqa: E402


def _both(build, inputs):
    (lab_types, lab_shapes, lab), (real_types, real_shapes, real) = run_both(
        build, inputs, LabOpset("opset15"), real_ops)
    assert (lab_types[0], lab_shapes[0]) == (real_types[0], real_shapes[0])
    if real[0].dtype.kind == "f":
        np.testing.assert_allclose(lab[0], real[0], rtol=1e-5, atol=1e-6)
    else:
        np.testing.assert_array_equal(lab[0], real[0])


rng = np.random.default_rng(21)


def test_gather_tree():
    ids = rng.integers(0, 5, (6, 2, 3)).astype(np.int32)
    parents = rng.integers(0, 3, (6, 2, 3)).astype(np.int32)
    _both(lambda o, p: o.gather_tree(*p),
          [ids, parents, np.array([6, 4], np.int32), np.array(2, np.int32)])


@pytest.mark.parametrize("right", [True, False])
def test_bucketize(right):
    data = rng.integers(0, 10, (3, 4)).astype(np.float32)
    buckets = np.array([1, 3, 3, 6, 9], np.float32)
    _both(lambda o, p: o.bucketize(p[0], p[1], "i32", right), [data, buckets])


@pytest.mark.parametrize("right", [False, True])
def test_search_sorted(right):
    seq = np.sort(rng.integers(0, 10, (2, 3, 6)), axis=-1).astype(np.float32)
    values = rng.integers(0, 10, (2, 3, 4)).astype(np.float32)
    _both(lambda o, p: o.search_sorted(p[0], p[1], right), [seq, values])
    _both(lambda o, p: o.search_sorted(p[0], p[1], right), [seq[0, 0], values])


def test_reorg_yolo():
    _both(lambda o, p: o.reorg_yolo(p[0], [2]),
          [np.arange(2 * 8 * 4 * 6, dtype=np.float32).reshape(2, 8, 4, 6)])


def test_slice_scatter():
    data = rng.standard_normal((5, 6)).astype(np.float32)
    updates = rng.standard_normal((5, 2)).astype(np.float32)
    _both(lambda o, p: o.slice_scatter(p[0], p[1], np.array([1]), np.array([6]),
                                       np.array([3]), np.array([1])), [data, updates])
    _both(lambda o, p: o.slice_scatter(p[0], p[1], np.array([-1]), np.array([-7]),
                                       np.array([-2]), np.array([-2])),
          [data.T.copy(), rng.standard_normal((3, 5)).astype(np.float32)])


@pytest.fixture
def opset3():
    return pytest.importorskip("openvino.opset3")


def _both3(real3, build, inputs):
    (_, lab_shapes, lab), (_, real_shapes, real) = run_both(build, inputs, LabOpset("opset3"),
                                                            real3)
    assert lab_shapes[0] == real_shapes[0]
    np.testing.assert_allclose(lab[0], real[0], rtol=1e-5, atol=1e-6)


def test_embedding_sums_of_opset3(opset3):
    table = rng.standard_normal((6, 3)).astype(np.float32)
    idx = np.array([0, 2, 2, 5, 1], np.int64)
    w = rng.uniform(0.5, 2, 5).astype(np.float32)
    _both3(opset3, lambda o, p: o.embedding_bag_offsets_sum(p[0], p[1], p[2], p[3], p[4]),
           [table, idx, np.array([0, 2, 2, 4], np.int64), np.array(1, np.int64), w])
    _both3(opset3, lambda o, p: o.embedding_bag_packed_sum(*p),
           [table, idx[:4].reshape(2, 2), w[:4].reshape(2, 2)])
    _both3(opset3, lambda o, p: o.embedding_segments_sum(p[0], p[1], p[2], o.constant(
        np.int64(4)), p[3], p[4]),
        [table, idx, np.array([0, 0, 1, 3, 3], np.int64), np.array(4, np.int64), w])
    _both3(opset3, lambda o, p: o.embedding_segments_sum(p[0], p[1], p[2],
                                                          o.constant(np.int64(5))),
           [table, idx, np.array([0, 1, 1, 3, 4], np.int64)])  # sorted, as the spec asks


@pytest.mark.parametrize("pad", ["valid", "same_upper", "same_lower"])
def test_extract_image_patches(pad):
    image = rng.standard_normal((2, 3, 10, 9)).astype(np.float32)
    _both(lambda o, p: o.extract_image_patches(p[0], [3, 2], [4, 3], [1, 2], pad), [image])


@pytest.mark.parametrize("softmax", [True, False])
def test_region_yolo(softmax):
    x = rng.standard_normal((1, 75 if not softmax else 125, 5, 6)).astype(np.float32)
    if softmax:
        _both(lambda o, p: o.region_yolo(p[0], 4, 20, 5, True, [], 1, 3), [x])
    else:
        _both(lambda o, p: o.region_yolo(p[0], 4, 20, 9, False, [0, 1, 2], 1, 3), [x])


def _both16(build, inputs):
    real16 = pytest.importorskip("openvino.opset16")
    (_, lab_shapes, lab), (_, real_shapes, real) = run_both(build, inputs, LabOpset("opset16"),
                                                            real16)
    assert lab_shapes[0] == real_shapes[0]
    np.testing.assert_allclose(lab[0], real[0], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(("batched", "transpose", "window"), [(True, False, 7), (False, True, 11),
                                                               (True, True, 4)])
def test_stft(batched, transpose, window):
    signal = rng.standard_normal((3, 48) if batched else (48,)).astype(np.float32)
    win = rng.uniform(0.2, 1, window).astype(np.float32)
    _both16(lambda o, p: o.stft(p[0], p[1], o.constant(np.int32(11)), o.constant(np.int32(3)),
                                transpose), [signal, win])


@pytest.mark.parametrize(("center", "normalized", "length"), [(False, True, None),
                                                               (True, False, None),
                                                               (False, False, 44)])
def test_istft(center, normalized, length):
    spec = rng.standard_normal((2, 6, 13, 2)).astype(np.float32)
    win = rng.uniform(0.5, 1, 11).astype(np.float32)
    _both16(lambda o, p: o.istft(p[0], p[1], o.constant(np.int32(11)), o.constant(np.int32(3)),
                                 center, normalized,
                                 None if length is None else o.constant(np.int32(length))),
            [spec, win])
