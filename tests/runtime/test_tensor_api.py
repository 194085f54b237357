"""ovlab's Tensor against the wheel's behaviour (OpenVINO's test_tensor.py and
test_tensor_string.py run the same cases on both when the suite is brought, see
tests/openvino_suite): its overloads, string and packed tensors, shapes within capacity."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest

from ovlab import Type
from ovlab.helpers import pack_data, unpack_data
from ovlab.sim.runtime.tensor import Tensor


def test_type_and_shape_overloads():
    for t in (Type.f32, np.float32, np.dtype("float32"), "float32"):
        tensor = Tensor(type=t, shape=[1, 3])
        assert tensor.element_type == Type.f32 and tensor.shape == (1, 3)
    assert Tensor(Type.f16, (2,)).data.dtype == np.float16
    assert Tensor([1.0, 2.0]).element_type == Type.f64


def test_shared_memory_is_one_reference_and_stays_shared():
    arr = np.ones((2, 3), dtype=np.float32)
    before = sys.getrefcount(arr)
    tensor = Tensor(array=arr, shared_memory=True)
    assert sys.getrefcount(arr) == before + 1
    arr[0, 0] = 5
    assert tensor.data[0, 0] == 5
    assert not np.shares_memory(Tensor(arr).data, arr)


def test_set_shape_keeps_memory_within_capacity_and_fails_past_it_when_shared():
    arr = np.arange(6, dtype=np.float32)
    tensor = Tensor(arr, shared_memory=True)
    tensor.shape = [2, 2]
    assert np.shares_memory(tensor.data, arr) and tensor.data.tolist() == [[0, 1], [2, 3]]
    with pytest.raises(RuntimeError, match="Could set new shape: \\[7\\]"):
        tensor.set_shape([7])
    owned = Tensor(Type.i32, [2])
    owned.set_shape([4, 4])
    assert owned.data.shape == (4, 4)


def test_view_of_a_buffer_with_another_type_and_shape():
    buffer = np.arange(4, dtype=np.uint8)
    tensor = Tensor(buffer, [2], Type.u16)
    assert tensor.data.dtype == np.uint16 and np.shares_memory(tensor.data, buffer)
    with pytest.raises(RuntimeError, match="needs 8 bytes"):
        Tensor(buffer, [2], Type.f32).data  # noqa: B018


def test_roi_is_a_view():
    base = Tensor(np.arange(16, dtype=np.float32).reshape(4, 4))
    roi = Tensor(base, [1, 1], [3, 4])
    assert roi.shape == [2, 3] and np.shares_memory(roi.data, base.data)
    assert roi.data.tolist() == [[5, 6, 7], [9, 10, 11]]
    with pytest.raises(RuntimeError, match="less then 8 bit"):
        Tensor(Tensor(Type.u4, [4]), [0], [2])


def test_packed_tensor_bytes_and_strides():
    tensor = Tensor(Type.u4, [1, 3, 27, 27])
    assert tensor.data.shape == (1094,) and tensor.byte_size == 1094 and tensor.size == 2187
    assert Tensor(Type.i4, [4]).data.dtype == np.int8
    with pytest.raises(RuntimeError, match="Could not get strides for types with bitwidths"):
        tensor.get_strides()
    values = np.array([7, 8, 1], dtype=np.uint8)
    tensor = Tensor(Type.u4, [3])
    tensor.data[:] = pack_data(values, tensor.element_type)
    assert tensor.data.tolist() == [120, 16]
    assert unpack_data(tensor.data, Type.u4, [3]).tolist() == [7, 8, 1]
    assert unpack_data(pack_data(np.array([-8, 7, -1], np.int8), Type.i4), Type.i4,
                       [3]).tolist() == [-8, 7, -1]
    for name, top in (("u3", 8), ("u6", 64), ("u1", 2), ("u2", 4)):
        v = np.arange(11, dtype=np.uint8) % top
        assert np.array_equal(unpack_data(pack_data(v, getattr(Type, name)),
                                          getattr(Type, name), [11]), v)


def test_string_tensor_bytes_and_str_data():
    tensor = Tensor(["text", "больше", "ab\u0000Ć"])
    assert tensor.element_type == Type.string and tensor.byte_size == 96
    assert tensor.bytes_data.dtype == np.dtype("S12")
    assert tensor.str_data.tolist() == ["text", "больше", "ab\u0000Ć"]
    with pytest.warns(RuntimeWarning, match="Data of string type will be copied"):
        assert tensor.data.dtype.kind == "S"
    tensor.str_data = np.array([b"a", b"bb", b"ccc"])
    assert tensor.str_data.tolist() == ["a", "bb", "ccc"]
    with pytest.raises(RuntimeError, match="Unknown string kind"):
        tensor.bytes_data = [1, 2, 3]
    with pytest.raises(RuntimeError, match="same size"):
        tensor.bytes_data = ["a"]
    with pytest.raises(RuntimeError, match="String types can be only copied"):
        Tensor(np.array(["a"]), shared_memory=True)
    with pytest.raises(RuntimeError, match="Tensor's type must be a string"):
        _ = Tensor(np.zeros(2)).bytes_data
    assert Tensor(np.array(b"\xe2\x80"), shared_memory=False).str_data.tolist() == "\ufffd"


def test_string_copy_from_takes_the_shape():
    tensor = Tensor(str, [])
    tensor.copy_from(np.array(["x", "yy", "zzz"]))
    assert tensor.shape == [3] and tensor.str_data.tolist() == ["x", "yy", "zzz"]


def test_copy_to_checks_type_and_takes_shape():
    src, dst = Tensor(np.ones((2, 3), np.float32)), Tensor(np.zeros((3, 3), np.float32))
    src.copy_to(dst)
    assert dst.shape == [2, 3] and dst.data.sum() == 6
    with pytest.raises(RuntimeError, match="src: f32 != dst: i32"):
        src.copy_to(Tensor(np.zeros(2, np.int32)))


def test_port_constructor_warns_and_checks_sizes():
    from ovlab.opset13 import parameter

    port = parameter([2], np.int16).output(0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tensor = Tensor(port, np.ones((2, 2), np.int8))
    assert {str(w.message).split(".")[0] for w in caught} == {
        "Shape of the port is smaller than shape of the array",
        "Type of the array and the port are different"}
    assert tensor.shape == [2] and tensor.data.dtype == np.int16
    with pytest.raises(RuntimeError, match="Shape of the port exceeds shape of the array"):
        Tensor(parameter([5], np.float32).output(0), np.ones(4, np.float32))


def test_bad_arguments_say_what_is_accepted():
    with pytest.raises(TypeError, match="PIL.Image.Image/numpy.array/list"):
        Tensor(5)


def test_int_vectors_print_and_compare_as_the_wheel():
    from ovlab import AxisSet, AxisVector, Coordinate, CoordinateDiff, Strides

    vec = AxisVector(np.array([1, 2, 3]))
    assert repr(vec) == "<AxisVector {1, 2, 3}>" and np.equal(vec, [1, 2, 3]).all()
    strides = Strides([1, 2, 3])
    strides[0] = 7
    assert strides == Strides([7, 2, 3]) and str(strides) == "7, 2, 3"
    assert repr(CoordinateDiff([1, 2])) == "<CoordinateDiff: (1, 2)>"
    assert repr(Coordinate([1])) == "<Coordinate>" and Coordinate([1]) != Coordinate([1])
    assert list(AxisSet([3, 1, 2])) == [1, 2, 3] and repr(AxisSet({2, 1})) == "<AxisSet {1, 2}>"
