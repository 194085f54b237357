"""``Tensor`` and ``OVDict``: the containers OpenVINO's Python API hands back."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ..graph.ops import set_tensor_class
from ..graph.types import shape_str

_COMMON = "src/bindings/python/src/pyopenvino/core/common.cpp"
_STRING_BYTES = 32  # sizeof(std::string): a string tensor's bytes per element, as the wheel says


def _binding_error(line: int, message: str) -> RuntimeError:
    return RuntimeError(f"Exception from {_COMMON}:{line}:\n{message}\n")


def _dims(shape: Any) -> list[int]:
    dims = [int(d) for d in (shape if shape is not None else ())]
    if any(d < 0 for d in dims):
        raise RuntimeError(f"Tensor shape must be static and non-negative, got {dims}")
    return dims


def _count(dims: list[int]) -> int:
    return int(np.prod(dims, dtype=np.int64)) if dims else 1


def _is_packed(t: Any) -> bool:
    return t.bitwidth < 8


def _is_string(t: Any) -> bool:
    from ..graph.types import Type

    return t == Type.string


def _packed_bytes(t: Any, count: int) -> int:
    return (count * t.bitwidth + 7) // 8


def _is_port(value: Any) -> bool:
    return hasattr(value, "get_node") and hasattr(value, "get_partial_shape") \
        and hasattr(value, "get_element_type")


def _is_type_like(value: Any) -> bool:
    from ..graph.types import Type

    return isinstance(value, (Type, np.dtype, str, type))


def _strings_of(arr: np.ndarray) -> np.ndarray:
    """The elements of a numpy S/U array as an object array of UTF-8 bytes (numpy drops
    trailing NULs on access, and so does the wheel)."""
    out = np.empty(arr.shape, dtype=object)
    flat = out.reshape(-1)
    for i, item in enumerate(arr.reshape(-1)):
        flat[i] = bytes(item) if arr.dtype.kind == "S" else str(item).encode("utf-8")
    return out


class Tensor:
    """A NumPy array with OpenVINO's Tensor accessors, built by the wheel's 17 overloads.

    The memory is an array (``_mem``): the host's own array when it is shared (so a change on
    either side shows on the other, and the tensor keeps it alive), else one allocated here.
    The tensor's shape and element type are kept beside it: ``data`` is a view of the memory
    in that shape and type, so ``set_shape`` within the memory's capacity keeps it (OpenVINO's
    tensors keep their capacity too). Packed types (u1, u4, i4, nf4 ...) keep their bytes in a
    flat u8/i8 array, as the wheel hands them out; string tensors keep one ``bytes`` per element.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from ..graph.types import Type

        self._shared = False
        names = ("array", "list", "type", "port", "other", "image")
        first = args[0] if args else next((kwargs.pop(n) for n in names if n in kwargs), None)
        rest = list(args[1:])
        if isinstance(first, Tensor):  # (other, begin, end): a region of another tensor
            begin = rest[0] if rest else kwargs.pop("begin")
            end = rest[1] if len(rest) > 1 else kwargs.pop("end")
            self._init_roi(first, begin, end)
        elif _is_port(first):  # (port[, array])
            array = rest[0] if rest else kwargs.pop("array", None)
            self._init_port(first, array)
        elif isinstance(first, np.ndarray) and (len(rest) > 0 and not isinstance(rest[0], bool)
                                                or "shape" in kwargs):
            shape = rest[0] if rest else kwargs.pop("shape")
            ov_type = rest[1] if len(rest) > 1 else kwargs.pop("type", Type.dynamic)
            self._init_view(first, shape, ov_type)
        elif isinstance(first, np.ndarray):
            shared = rest[0] if rest else kwargs.pop("shared_memory", False)
            self._init_array(first, bool(shared))
        elif isinstance(first, list):
            self._init_array(np.array(first), False)
        elif _is_type_like(first) and (rest or "shape" in kwargs):
            shape = rest[0] if rest else kwargs.pop("shape")
            self._init_empty(first, shape)
        elif type(first).__module__.startswith("PIL."):
            self._init_array(np.array(first), False)
        else:
            raise TypeError("Input argument must be a PIL.Image.Image/numpy.array/"
                            "list[int, float, str] object")
        kwargs.pop("shared_memory", None)
        if kwargs:
            raise TypeError(f"Tensor.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")

    # --- the constructors ------------------------------------------------------------------
    def _init_empty(self, ov_type: Any, shape: Any) -> None:
        from ..graph.types import as_type

        self._type = as_type(ov_type)
        if self._type.is_dynamic():
            raise RuntimeError("Tensor(type, shape): the element type must be static, "
                               "not Type.dynamic")
        self._shape = _dims(shape)
        n = _count(self._shape)
        if _is_string(self._type):
            self._mem = np.full(n, b"", dtype=object)
        elif _is_packed(self._type):
            self._mem = np.zeros(_packed_bytes(self._type, n), dtype=self._type.to_dtype())
        else:
            self._mem = np.zeros(self._shape, dtype=self._type.to_dtype())

    def _init_array(self, arr: np.ndarray, shared: bool) -> None:
        from ..graph.types import Type, as_type

        if arr.dtype.kind in "SU":
            if shared:
                raise _binding_error(510, "SHARED MEMORY MODE FOR THIS TENSOR IS NOT APPLICABLE! "
                                          "String types can be only copied.")
            self._type, self._shape = Type.string, list(arr.shape)
            self._mem = _strings_of(arr).reshape(-1)
            return
        if shared and not arr.flags.c_contiguous:
            raise _binding_error(522, "SHARED MEMORY MODE FOR THIS TENSOR IS NOT APPLICABLE! "
                                      "Passed numpy array must be C contiguous.")
        self._type, self._shape, self._shared = as_type(arr.dtype), list(arr.shape), shared
        self._mem = arr if shared else np.array(arr, order="C", copy=True)

    def _init_view(self, arr: np.ndarray, shape: Any, ov_type: Any) -> None:
        """(array, shape, type): the array's memory seen with another shape and element type."""
        from ..graph.types import as_type

        t = as_type(ov_type)
        self._type = as_type(arr.dtype) if t.is_dynamic() else t
        if not arr.flags.c_contiguous:
            raise _binding_error(522, "SHARED MEMORY MODE FOR THIS TENSOR IS NOT APPLICABLE! "
                                      "Passed numpy array must be C contiguous.")
        if _is_string(self._type):
            raise RuntimeError("Tensor(array, shape, Type.string): string tensors are built "
                               "from an array of strings, Tensor(array)")
        self._shape, self._mem, self._shared = _dims(shape), arr, True
        if self._nbytes() > arr.nbytes:
            raise RuntimeError(f"Tensor(array, shape, type): {self._type.get_type_name()} "
                               f"{self._shape} needs {self._nbytes()} bytes, the array has "
                               f"{arr.nbytes}")

    def _init_port(self, port: Any, array: np.ndarray | None) -> None:
        pshape = port.get_partial_shape()
        self._type = port.get_element_type()
        self._shape = [0] if pshape.is_dynamic else [int(d) for d in pshape.to_shape()]
        if array is None:
            self._init_empty(self._type, self._shape)
            return
        if not array.flags.c_contiguous:
            raise _binding_error(522, "SHARED MEMORY MODE FOR THIS TENSOR IS NOT APPLICABLE! "
                                      "Passed numpy array must be C contiguous.")
        if _count(self._shape) > array.size:
            raise _binding_error(557, "Shape of the port exceeds shape of the array.")
        if _count(self._shape) < array.size:
            warnings.warn("Shape of the port is smaller than shape of the array. Passed data "
                          "will be cropped.", RuntimeWarning, stacklevel=3)
        if array.dtype != self._type.to_dtype():
            warnings.warn("Type of the array and the port are different. Data is going to be "
                          "casted.", RuntimeWarning, stacklevel=3)
        if self._nbytes() > array.nbytes:  # the wheel would read past the array
            raise RuntimeError(f"Tensor(port, array): the port's {self._type.get_type_name()} "
                               f"{self._shape} needs {self._nbytes()} bytes, the array has "
                               f"{array.nbytes}")
        self._mem, self._shared = array, True

    def _init_roi(self, other: Tensor, begin: Any, end: Any) -> None:
        if _is_packed(other._type) or _is_string(other._type):
            raise RuntimeError(
                "Check 'm_element_type.bitwidth() >= 8' failed at "
                "src/inference/src/dev/make_tensor.cpp:116:\nCould not get strides for types "
                f"with bitwidths less then 8 bit. Tensor type: {other._type.get_type_name()}\n"
                if _is_packed(other._type) else
                "ROI tensors of string tensors are not offered on ovlab")
        b, e = [int(x) for x in begin], [int(x) for x in end]
        if len(b) != len(other._shape) or len(e) != len(other._shape) or any(
                not 0 <= lo <= hi <= d for lo, hi, d in zip(b, e, other._shape, strict=True)):
            raise RuntimeError(f"ROI Tensor: begin {b} and end {e} must lie within the "
                               f"tensor's shape {other._shape}")
        self._type, self._shared = other._type, True
        self._mem = other.data[tuple(slice(lo, hi) for lo, hi in zip(b, e, strict=True))]
        self._shape = list(self._mem.shape)

    # --- memory seen as data -----------------------------------------------------------------
    def _nbytes(self) -> int:
        n = _count(self._shape)
        if _is_string(self._type):
            return n * _STRING_BYTES
        if _is_packed(self._type):
            return _packed_bytes(self._type, n)
        return n * self._type.to_dtype().itemsize

    def _view(self) -> np.ndarray:
        mem = self._mem
        dtype = self._type.to_dtype()
        if _is_packed(self._type):
            return mem.reshape(-1).view(np.uint8)[:self._nbytes()].view(dtype)
        if list(mem.shape) == self._shape and mem.dtype == dtype:
            return mem
        flat = mem.reshape(-1).view(np.uint8)[:self._nbytes()]
        return flat.view(dtype).reshape(self._shape)

    def _strings(self) -> np.ndarray:
        """The string elements (bytes) in the tensor's shape."""
        if not _is_string(self._type):
            raise _binding_error(134, "Tensor's type must be a string!")
        return self._mem[:_count(self._shape)].reshape(self._shape)

    @property
    def data(self) -> np.ndarray:
        if _is_string(self._type):
            warnings.warn("Data of string type will be copied! Please use dedicated properties "
                          "`str_data` and `bytes_data` to avoid confusion while accessing "
                          "Tensor's contents.", RuntimeWarning, stacklevel=2)
            return self.bytes_data
        return self._view()

    @data.setter
    def data(self, value: Any) -> None:
        self._view()[...] = value

    @property
    def bytes_data(self) -> np.ndarray:
        """A string tensor's elements as a numpy ``S`` array (a copy)."""
        items = self._strings()
        width = max((len(b) for b in items.reshape(-1)), default=0)
        out = np.empty(items.shape, dtype=f"S{max(width, 1)}")
        out.reshape(-1)[:] = list(items.reshape(-1))
        return out

    @bytes_data.setter
    def bytes_data(self, value: Any) -> None:
        self._fill_strings(value)

    @property
    def str_data(self) -> np.ndarray:
        """A string tensor's elements decoded from UTF-8 (invalid bytes replaced), a copy."""
        items = [b.decode("utf-8", errors="replace") for b in self._strings().reshape(-1)]
        width = max((len(s) for s in items), default=0)
        out = np.empty(self._shape, dtype=f"U{max(width, 1)}")
        out.reshape(-1)[:] = items
        return out

    @str_data.setter
    def str_data(self, value: Any) -> None:
        self._fill_strings(value)

    def _fill_strings(self, value: Any) -> None:
        if not _is_string(self._type):
            raise RuntimeError(
                "Exception from src/core/src/runtime/tensor.cpp:121:\nCheck "
                "'is_pointer_representable(element_type)' failed at "
                "src/inference/src/dev/make_tensor.cpp:92:\nTensor data with element type "
                f"{self._type.get_type_name()}, is not representable as pointer to string\n\n")
        arr = value if isinstance(value, np.ndarray) else np.array(value)
        if arr.dtype.kind not in "SU":
            raise _binding_error(227, "Unknown string kind passed to fill the Tensor's data!")
        if arr.size != _count(self._shape):
            raise _binding_error(200, "Passed array must have the same size (number of "
                                      "elements) as the Tensor!")
        self._mem[:arr.size] = _strings_of(arr).reshape(-1)

    # --- shape, type, sizes ------------------------------------------------------------------
    @property
    def shape(self):
        from ..graph import Shape

        return Shape(self._shape)

    @shape.setter
    def shape(self, shape: Any) -> None:
        self.set_shape(shape)

    def get_shape(self):
        return self.shape

    def set_shape(self, shape: Any) -> None:
        """A new shape. Within the memory's capacity the memory is kept (its first elements);
        beyond it an owned tensor gets new memory and a shared one fails, as in OpenVINO."""
        dims = _dims(shape)
        old, self._shape = self._shape, dims
        if self._nbytes() <= self._mem.nbytes and self._mem.flags.c_contiguous:
            return
        if self._shared:
            self._shape = old
            raise RuntimeError(
                "Exception from src/core/src/runtime/tensor.cpp:89:\nCheck "
                "'shape_size(new_shape) <= ov::shape_size(m_capacity)' failed at "
                "src/inference/src/dev/make_tensor.cpp:109:\nCould set new shape: "
                f"{shape_str(dims)}\n\n")
        self._init_empty(self._type, dims)

    @property
    def element_type(self):
        return self._type

    def get_element_type(self):
        return self._type

    @property
    def size(self) -> int:
        return _count(self._shape)

    def get_size(self) -> int:
        return self.size

    @property
    def byte_size(self) -> int:
        return self._nbytes()

    def get_byte_size(self) -> int:
        return self._nbytes()

    @property
    def strides(self) -> list[int]:
        if _is_packed(self._type):
            raise RuntimeError(
                "Exception from src/core/src/runtime/tensor.cpp:101:\nCheck "
                "'m_element_type.bitwidth() >= 8' failed at "
                "src/inference/src/dev/make_tensor.cpp:116:\nCould not get strides for types "
                f"with bitwidths less then 8 bit. Tensor type: {self._type.get_type_name()}\n\n")
        if _is_string(self._type):
            return [int(s) for s in np.empty(self._shape, dtype="V32").strides]
        return list(self._view().strides)

    def get_strides(self) -> list[int]:
        return self.strides

    def is_continuous(self) -> bool:
        return _is_packed(self._type) or _is_string(self._type) or \
            bool(self._view().flags.c_contiguous)

    # --- copies ------------------------------------------------------------------------------
    def copy_to(self, target_tensor: Tensor) -> None:
        """Copy this tensor's data into ``target_tensor`` (same element type); the target
        takes this tensor's shape."""
        target = target_tensor
        if target._type != self._type:
            raise RuntimeError(
                "Exception from src/core/src/runtime/tensor.cpp:97:\nCheck "
                "'dst->get_element_type() == get_element_type()' failed at "
                "src/core/src/runtime/itensor.cpp:75:\nTensor element types are not equal. "
                f"(src: {self._type.get_type_name()} != dst: {target._type.get_type_name()})\n\n")
        if target._shape != self._shape:
            target.set_shape(self._shape)
        if _is_string(self._type):
            target._mem[:self.size] = self._mem[:self.size]
        else:
            target._view()[...] = self._view()

    def copy_from(self, source_tensor: Any = None, source: Any = None) -> None:
        """Copy ``source_tensor`` (a Tensor) or ``source`` (an array or a list) into this
        tensor (the wheel's overloads name them so)."""
        source = source_tensor if source_tensor is not None else source
        if source is None:
            raise TypeError("copy_from(): give a Tensor (source_tensor) or an array or list "
                            "(source)")
        if not isinstance(source, Tensor):
            arr = source if isinstance(source, np.ndarray) else np.array(source)
            if _is_string(self._type) and arr.dtype.kind in "SU":
                self.set_shape(arr.shape)
                self._fill_strings(arr)
                return
            source = Tensor(arr)
        source.copy_to(self)

    def __repr__(self) -> str:
        kind = self._type.get_type_name() if _is_string(self._type) or _is_packed(self._type) \
            else self._type.to_dtype()
        return f"<Tensor: shape{list(self._shape)} type: {kind}>"


class OVDict(Mapping):
    """Results of an inference: indexable by output port, output index or tensor name."""

    def __init__(self, _dict: Any, values: list[np.ndarray] | None = None) -> None:
        if values is None:  # OVDict({port: array}), as the real constructor takes
            _dict = dict(_dict)
            values = list(_dict.values())
        self._ports = list(_dict)
        self._list: list[np.ndarray] | None = list(values)
        self._pending = None

    @classmethod
    def _lazy(cls, ports: list, outputs: Any) -> OVDict:
        """Results whose numerics run on first read (``outputs.get()``): a timing loop of
        ``infer()`` calls that never reads them costs no NumPy work
        (``InferRequest._lazy_results`` decides when that is safe)."""
        self = cls.__new__(cls)
        self._ports, self._list, self._pending = list(ports), None, outputs
        return self

    @property
    def _values(self) -> list[np.ndarray]:
        if self._list is None:
            self._list = list(self._pending.get())
            self._pending = None
        return self._list

    def _index(self, key: Any) -> int:
        if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
            if not 0 <= key < len(self._values):
                raise KeyError(key)
            return int(key)
        if isinstance(key, str):
            for i, port in enumerate(self._ports):
                if key in port.get_names():
                    return i
            raise KeyError(key)
        if not hasattr(key, "get_index"):
            raise TypeError(f"Unknown key type: {type(key)}")
        for i, port in enumerate(self._ports):
            if port is key or (port.get_index() == key.get_index()
                               and port.get_node() is key.get_node()):
                return i
        raise KeyError(key)

    def __getitem__(self, key: Any) -> np.ndarray:
        return self._values[self._index(key)]

    def __iter__(self) -> Iterator:
        return iter(self._ports)

    def __len__(self) -> int:
        return len(self._ports)

    def __repr__(self) -> str:
        return "<OVDict: " + ", ".join(
            f"{p.get_any_name() if p.get_names() else i}: shape{list(v.shape)}"
            for i, (p, v) in enumerate(zip(self._ports, self._values, strict=True))) + ">"

    def to_dict(self) -> dict:
        return dict(zip(self._ports, self._values, strict=True))

    def to_tuple(self) -> tuple:
        return tuple(self._values)

    def names(self) -> tuple:
        return tuple(p.get_names() for p in self._ports)


def tensor_from_file(path: str | os.PathLike) -> Tensor:
    """A u8 Tensor of a file's bytes (``openvino.tensor_from_file``), e.g. IR weights for
    ``core.read_model(xml_text, weights_tensor)``."""
    return Tensor(np.fromfile(os.fspath(path), dtype=np.uint8), shared_memory=True)


set_tensor_class(Tensor)  # Constant.get_tensor_view makes these (see ovlab/sim/graph/ops.py)
