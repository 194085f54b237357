"""``Layout``, ``get_batch`` and ``set_batch``: what dimension means what, as in OpenVINO.

A layout names the dimensions of a tensor (``Layout("NCHW")``, ``Layout("N...")``,
``Layout("[N,C,H,W]")``). It is stored on a port's rt_info under ``"layout"`` (as OpenVINO
keeps it), read by ``layout_helpers`` and by the preprocessing builder, and lets
``get_batch``/``set_batch`` find the batch dimension.
"""

from __future__ import annotations

from typing import Any

from ..overloads import MISSING, given


def _internal(name: str) -> str:
    """A dimension name as the layout keeps it: upper case, ``BATCH`` as ``N``."""
    upper = str(name).strip().upper()
    return "N" if upper == "BATCH" else upper


class Layout:
    """``openvino.Layout``: dimension names, optionally around one ``...``."""

    __slots__ = ("_before", "_after", "_dynamic")

    def __init__(self, layout: str | Layout = "") -> None:
        if isinstance(layout, Layout):
            self._before, self._after, self._dynamic = layout._before, layout._after, layout._dynamic
            return
        text = str(layout).strip()
        if not text:  # no names at all: any rank, "[...]" (as OpenVINO prints it)
            self._before, self._after, self._dynamic = (), (), True
            return
        if text.startswith("[") and text.endswith("]"):
            inner = text[1:-1]
            names = [n.strip() for n in inner.split(",")] if inner.strip() else []
            if any(not n for n in names):
                raise RuntimeError("Check '!dim_name.empty()' failed at src/core/src/layout.cpp:"
                                   "50:\nLayout dimension name can't be empty\n")
        else:
            names = []
            i = 0
            while i < len(text):
                if text.startswith("...", i):
                    names.append("...")
                    i += 3
                elif text[i] == ".":
                    raise RuntimeError("Check 'i == dynamic_start' failed at src/core/src/"
                                       "layout.cpp:157:\nUndefined number of dimensions shall "
                                       "have ...\n")
                elif text[i] == "?":
                    names.append("?")
                    i += 1
                else:
                    if not (text[i].isascii() and (text[i].isalnum() or text[i] == "_")):
                        raise RuntimeError(
                            "Check 'is_alnum || c == '_'' failed at src/core/src/layout.cpp:55:\n"
                            f"Layout name is invalid ({text[i]}). Only english letters, digits "
                            "and _ is allowed\n")
                    names.append(text[i])
                    i += 1
        if names.count("...") > 1:
            raise RuntimeError("Check '!backward' failed at src/core/src/layout.cpp:156:\n"
                               "Multiple ... are not allowed\n")
        # names are kept upper-case, and BATCH is N (layout.cpp)
        names = [n if n in ("...", "?") else _internal(n) for n in names]
        if "..." in names:
            k = names.index("...")
            self._before, self._after, self._dynamic = tuple(names[:k]), tuple(names[k + 1:]), True
        else:
            self._before, self._after, self._dynamic = tuple(names), (), False
        named = [n for n in (*self._before, *self._after) if n != "?"]
        for i, n in enumerate(named):
            if n in named[:i]:
                raise RuntimeError("Check 'm_names.count(dim_name) == 0' failed at src/core/src/"
                                   f"layout.cpp:95:\nDimension ({n}) is defined multiple times "
                                   "in layout\n")

    @staticmethod
    def scalar() -> Layout:
        out = Layout()
        out._dynamic = False
        return out

    @property
    def empty(self) -> bool:
        """Whether the layout is empty (a property in the wheel, not a method)."""
        return not self._before and not self._after and self._dynamic

    def has_name(self, dimension_name: str) -> bool:
        return _internal(dimension_name) in (*self._before, *self._after)

    def get_index_by_name(self, dimension_name: str) -> int:
        """The dimension's index: from the front, or negative when it follows ``...``."""
        name = _internal(dimension_name)
        for i, n in enumerate(self._before):
            if n == name:
                return i
        for i, n in enumerate(self._after):
            if n.upper() == name.upper():
                return i - len(self._after)
        raise RuntimeError(f"{dimension_name} dimension index is not defined")

    def to_string(self) -> str:
        parts = [*self._before, *(["..."] if self._dynamic else []), *self._after]
        return "[" + ",".join(parts) + "]"

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"<Layout: {self.to_string()}>"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            other = Layout(other)
        return isinstance(other, Layout) and self.to_string().upper() == other.to_string().upper()

    def __hash__(self) -> int:
        return hash(self.to_string().upper())


def layout_of(port: Any) -> Layout:
    """The layout stored on a port (an empty Layout when none is set)."""
    value = port.get_rt_info().get("layout") if hasattr(port, "get_rt_info") else None
    value = getattr(value, "value", value)  # an RTMap hands values back as OVAny
    return Layout(value) if value is not None else Layout()


def _batch_index(model: Any) -> list[tuple[Any, int]]:
    found = []
    for p in model.get_parameters():
        layout = layout_of(p.output(0))
        if layout.has_name("N"):
            idx = layout.get_index_by_name("N")
            found.append((p, idx % len(p.output(0).get_shape())))
    if not found:
        raise RuntimeError(
            "Get Batch: Failed to get batch dimension: no parameter of the model has a layout "
            "with a batch ('N') dimension; set one with "
            "openvino.layout_helpers.set_layout(model.input(0), Layout('NCHW'))")
    return found


def get_batch(model: Any) -> Any:
    """The batch size of a model whose inputs have layouts with ``N`` (as ``openvino.get_batch``)."""
    from .types import Dimension

    p, idx = _batch_index(model)[0]
    return Dimension(p.output(0).get_shape()[idx])


def set_batch(model: Any, batch_size: Any = -1, *, dimension: Any = MISSING) -> None:
    """Reshape every input that has an ``N`` in its layout to ``batch_size`` (an int), or to
    ``dimension`` (a static Dimension: the wheel's other overload)."""
    if given(dimension):
        batch_size = dimension
    if hasattr(batch_size, "get_length"):  # a Dimension
        if batch_size.is_dynamic:
            raise RuntimeError("ovlab models are static: set_batch needs a static dimension "
                               f"(got {batch_size})")
        batch_size = batch_size.get_length()
    n = int(batch_size)
    if n < 1:
        raise RuntimeError("ovlab models are static: set_batch needs a positive batch size "
                           f"(got {batch_size})")
    shapes = {}
    for p, idx in _batch_index(model):
        shape = list(p.output(0).get_shape())
        shape[idx] = n
        shapes[model.get_parameter_index(p)] = shape
    model.reshape(shapes)
