"""``openvino.helpers``: packing of sub-byte element types into bytes (``pack_data``,
``unpack_data``), as the wheel's pure-Python module of that name offers them."""

from .packing import pack_data, unpack_data

__all__ = ["pack_data", "unpack_data"]
