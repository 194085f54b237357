"""``openvino.layout_helpers``: read and set the layout of a port, find named dimensions."""

from __future__ import annotations

from typing import Any

from .sim.graph.layout import Layout, layout_of


def get_layout(port: Any) -> Layout:
    return layout_of(port)


def set_layout(port: Any, layout: Layout | str) -> None:
    port.get_rt_info()["layout"] = Layout(layout).to_string()


def _has(layout: Layout, name: str) -> bool:
    return Layout(layout).has_name(name)


def _idx(layout: Layout, name: str) -> int:
    return Layout(layout).get_index_by_name(name)


def has_batch(layout: Layout) -> bool:
    return _has(layout, "N")


def has_channels(layout: Layout) -> bool:
    return _has(layout, "C")


def has_depth(layout: Layout) -> bool:
    return _has(layout, "D")


def has_height(layout: Layout) -> bool:
    return _has(layout, "H")


def has_width(layout: Layout) -> bool:
    return _has(layout, "W")


def batch_idx(layout: Layout) -> int:
    return _idx(layout, "N")


def channels_idx(layout: Layout) -> int:
    return _idx(layout, "C")


def depth_idx(layout: Layout) -> int:
    return _idx(layout, "D")


def height_idx(layout: Layout) -> int:
    return _idx(layout, "H")


def width_idx(layout: Layout) -> int:
    return _idx(layout, "W")
