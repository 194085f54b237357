"""Sub-byte values in bytes: the layouts OpenVINO stores u1, u2, u4, i4, nf4, f4e2m1 (a byte
holds 8 // bits values, the first one in its high bits) and u3, u6 (transposed: 8 u3 values in
3 bytes, 4 u6 values in 3 bytes, low bits first, then the high bits of the group).

A packed Tensor's ``data`` is the flat byte array these functions read and write, so
``tensor.data[:] = pack_data(values, tensor.element_type)`` fills a u4 tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..sim.graph.types import Type

_REGULAR = ("u1", "u2", "u4", "i4", "nf4", "f4e2m1")


def _check(type: Type, verb: str) -> None:
    if type.get_type_name() not in _REGULAR + ("u3", "u6"):
        raise AssertionError(f"{verb} algorithm for the data types stored in 1, 2, 3, 4 or 6 "
                             f"bits (u1, u2, u3, u4, u6, i4, nf4, f4e2m1), not {type}")


def _shifts(bits: int) -> np.ndarray:
    per = 8 // bits
    return (bits * (per - 1 - np.arange(per))).astype(np.uint8)


def pack_data(array: np.ndarray, type: Type) -> np.ndarray:
    """The values of ``array`` as ``type`` (u1, u2, u3, u4, u6, i4, nf4 or f4e2m1) packed into a
    flat uint8 array, the last byte padded with zeros.

    ``[7, 8]`` as u4 is ``[0b0111_1000] == [120]``. A value that does not fit a byte of the
    type's signedness raises RuntimeError, as rounding would.
    """
    _check(type, "Packing")
    name = type.get_type_name()
    regular = np.int8 if name == "i4" else np.uint8
    cast = np.asarray(array).astype(regular, casting="unsafe")
    if not np.array_equal(cast, array):
        raise RuntimeError(f'The conversion of array "{array}" to dtype "{cast}" results in '
                           "rounding")
    values = cast.reshape(-1).view(np.uint8)
    if name == "u3":
        return _pack_transposed(values, 8, low_bits=2)
    if name == "u6":
        return _pack_transposed(values, 4, low_bits=4)
    bits = type.bitwidth
    per = 8 // bits
    padded = np.zeros(-(-values.size // per) * per, dtype=np.uint8)
    padded[:values.size] = values & ((1 << bits) - 1)
    groups = padded.reshape(-1, per) << _shifts(bits)
    return np.bitwise_or.reduce(groups, axis=1).astype(np.uint8)


def unpack_data(array: np.ndarray, type: Type, shape: Any) -> np.ndarray:
    """The ``type`` values packed in ``array``, as a uint8 array (int8 for i4) of ``shape``.

    ``[120]`` as u4 is ``[7, 8]``; i4 values are sign-extended.
    """
    _check(type, "Unpacking")
    name = type.get_type_name()
    data = np.asarray(array).view(np.uint8).reshape(-1)
    dims = [int(d) for d in shape]
    if name == "u3":
        return np.resize(_unpack_transposed(data, 8, low_bits=2), dims)
    if name == "u6":
        return np.resize(_unpack_transposed(data, 4, low_bits=4), dims)
    bits = type.bitwidth
    values = ((data[:, None] >> _shifts(bits)) & ((1 << bits) - 1)).reshape(-1).astype(np.uint8)
    if name == "i4":
        return np.resize(np.where(values >= 8, values.astype(np.int16) - 16, values), dims) \
            .astype(np.int8)
    return np.resize(values, dims)


def _pack_transposed(values: np.ndarray, per: int, low_bits: int) -> np.ndarray:
    """``per`` values in 3 bytes: two bytes of their low bits (``low_bits`` each, first value
    highest), then one byte of their high bits."""
    high_bits = 8 // per
    padded = np.zeros(-(-values.size // per) * per, dtype=np.uint16)
    padded[:values.size] = values
    groups = padded.reshape(-1, per)
    low = groups & ((1 << low_bits) - 1)
    high = (groups >> low_bits) & ((1 << high_bits) - 1)
    half = per // 2
    low_shifts = low_bits * (half - 1 - np.arange(half))
    high_shifts = high_bits * (per - 1 - np.arange(per))
    out = np.empty((groups.shape[0], 3), dtype=np.uint8)
    out[:, 0] = np.bitwise_or.reduce(low[:, :half] << low_shifts, axis=1)
    out[:, 1] = np.bitwise_or.reduce(low[:, half:] << low_shifts, axis=1)
    out[:, 2] = np.bitwise_or.reduce(high << high_shifts, axis=1)
    return out.reshape(-1)


def _unpack_transposed(data: np.ndarray, per: int, low_bits: int) -> np.ndarray:
    high_bits = 8 // per
    half = per // 2
    groups = data[:data.size // 3 * 3].reshape(-1, 3).astype(np.uint16)
    low_shifts = low_bits * (half - 1 - np.arange(half))
    high_shifts = high_bits * (per - 1 - np.arange(per))
    low = np.concatenate([(groups[:, :1] >> low_shifts) & ((1 << low_bits) - 1),
                          (groups[:, 1:2] >> low_shifts) & ((1 << low_bits) - 1)], axis=1)
    high = (groups[:, 2:3] >> high_shifts) & ((1 << high_bits) - 1)
    return (low | (high << low_bits)).reshape(-1).astype(np.uint8)
