"""A dashboard's figure keeps following its output area's width after an update in place."""

from __future__ import annotations

from ovlab.sim.widgets.sync import new_figure, update_in_place


class _Comm:
    """Takes the place of the kernel's comm and keeps every message."""

    kernel = object()
    comm_id = "test"

    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send(self, data=None, buffers=None, **_kw) -> None:
        self.sent.append(data)

    def close(self, *_a, **_kw) -> None:
        pass

    def on_msg(self, *_a, **_kw) -> None:
        pass


def _updates(comm: _Comm) -> list[dict]:
    return [m["state"]["_py2js_update"]["layout_data"] for m in comm.sent
            if (m.get("state") or {}).get("_py2js_update")]


def _spec(height: int, title: str) -> dict:
    return {"data": [{"type": "scatter", "x": [0, 1], "y": [1, 2]}],
            "layout": {"title": {"text": title}, "height": height, "autosize": True}}


def test_a_height_change_keeps_autosize_on():
    """plotly.js turns autosize off (and fixes the width) when a relayout sets the height
    alone: the update that changes the height says autosize and no width with it."""
    widget = new_figure(_spec(500, "a"))
    assert widget._config == {"responsive": True}  # plotly.js follows the window's width
    comm = _Comm()
    widget.comm = comm
    assert update_in_place(widget, _spec(540, "b"))
    (layout,) = _updates(comm)
    assert layout["height"] == 540 and layout["autosize"] is True and layout["width"] is None
    comm.sent.clear()
    assert update_in_place(widget, _spec(540, "c"))  # the height unchanged: only the title
    (layout,) = _updates(comm)
    assert "height" not in layout and "autosize" not in layout and "width" not in layout
