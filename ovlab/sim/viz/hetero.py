"""A plotly picture of a model's graph, coloured by device or by HETERO submodel.

The ``.dot`` files of ``OPENVINO_HETERO_VISUALIZE`` need GraphViz; this figure needs nothing
beyond plotly and shows the same facts in a notebook: ops laid out in layers (x = topological
depth, y = position within the layer), edges between them, one colour per device or per
submodel, and hover text with each op's name, type, device and submodel. Constants are hidden by
default (they would double the number of boxes of GoogLeNet without saying anything about the
split).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import plotly.graph_objects as go

from ..graph import Constant, Model, Node, Parameter, Result
from .palette import DEVICE_COLORS

__all__ = ["graph_figure", "graph_layout"]

_PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
            "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5")
_NONE = "(no affinity)"
_SHORT = {"Convolution": "Conv", "GroupConvolution": "GConv", "MaxPool": "Max", "AvgPool": "Avg",
          "Parameter": "In", "Result": "Out", "Constant": "C", "Reshape": "Resh",
          "Softmax": "Smax", "Sigmoid": "Sigm", "Concat": "Cat", "MatMul": "MM",
          "Multiply": "Mul", "ReduceMean": "Mean", "FakeQuantize": "FQ", "Transpose": "Tr"}


def _facts(obj: Any, affinity: Mapping[str, str] | None
           ) -> tuple[Model, dict[Node, str], dict[Node, int], str]:
    """(model, {node: device}, {node: submodel}, what was drawn) from whatever the user has."""
    from ..plugins.hetero.split import HeteroPlan, split

    plan = None
    backend = getattr(obj, "_backend", obj)
    if isinstance(obj, HeteroPlan):
        plan = obj
    elif hasattr(backend, "plan") and isinstance(backend.plan, HeteroPlan):
        plan = backend.plan
    if plan is not None:
        return plan.model, dict(plan.affinity), plan.subgraph_of(), "compiled on HETERO"
    if isinstance(obj, Model):
        model = obj
        ops = model.get_ordered_ops()
        if affinity is not None:
            aff = {n: affinity[n.get_friendly_name()] for n in ops
                   if n.get_friendly_name() in affinity}
            source = "affinities given"
        else:
            aff = {n: str(n.get_rt_info()["affinity"]) for n in ops
                   if "affinity" in n.get_rt_info()}
            source = "rt_info affinities"
        needed = [n for n in ops if not isinstance(n, (Constant, Result))]
        if aff and all(n in aff for n in needed):
            groups = split(model, aff)
            sub = {n: i for i, g in enumerate(groups) for n in g.nodes
                   if not isinstance(n, Parameter)}
            for n in ops:  # Results are drawn with their producer's device
                if isinstance(n, Result) and n.input_value(0).get_node() in aff:
                    aff[n] = aff[n.input_value(0).get_node()]
            return model, aff, sub, source
        return model, aff, {}, source if aff else "no affinities"
    if hasattr(obj, "get_runtime_model") and hasattr(backend, "execution_devices"):
        model = obj._model if hasattr(obj, "_model") else obj.get_runtime_model()
        devices = list(backend.execution_devices())
        dev = devices[0] if devices else _NONE
        ops = model.get_ordered_ops()
        return (model, {n: dev for n in ops if not isinstance(n, Constant)},
                {n: 0 for n in ops if not isinstance(n, (Constant, Parameter))}, f"compiled on {dev}")
    raise TypeError("graph_figure() takes an ovlab Model, a CompiledModel or a HeteroPlan, "
                    f"got {type(obj).__name__}")


def graph_layout(model: Model, show_constants: bool = False) -> dict[Node, tuple[int, int]]:
    """``{node: (depth, row)}``: depth = longest path from an input, row = rank in its layer."""
    depth: dict[Node, int] = {}
    for n in model.get_ordered_ops():
        if isinstance(n, Constant) and not show_constants:
            continue
        srcs = [s.get_node() for s in n.input_values() if s.get_node() in depth]
        depth[n] = 1 + max(depth[s] for s in srcs) if srcs else 0
    rows: dict[int, int] = {}
    out = {}
    for n, d in depth.items():
        out[n] = (d, rows.get(d, 0))
        rows[d] = rows.get(d, 0) + 1
    return out


def _colour(key: str, index: int) -> str:
    if key in DEVICE_COLORS:
        return DEVICE_COLORS[key]
    if key + ".0" in DEVICE_COLORS:  # "GPU" is GPU.0
        return DEVICE_COLORS[key + ".0"]
    return _PALETTE[index % len(_PALETTE)]


def graph_figure(model_or_compiled: Any, color_by: str = "device", *,
                 affinity: Mapping[str, str] | None = None, show_constants: bool = False,
                 labels: bool | None = None, title: str | None = None,
                 width: int | None = None) -> go.Figure:
    """The graph of a model, boxes coloured per device (``color_by="device"``) or per HETERO
    submodel (``color_by="subgraph"``).

    ``model_or_compiled``: a compiled model (HETERO or any device), or an ``ovlab.Model``, whose
    ops' ``rt_info["affinity"]`` (or ``affinity``, e.g. a ``core.query_model`` result) say where
    each op goes; submodels are then computed as HETERO would. ``labels``: print a short op type
    on each box (default: only when the graph has at most 80 boxes). ``width``: pixels; by default
    the figure takes the width of the notebook's output area (a deep graph is squeezed rather than
    scrolled, so the legend, above the plot, stays on screen). Groups of a few ops (the two
    ``LRN`` boxes among 300) are drawn larger, so they can be found.
    """
    if color_by not in ("device", "subgraph"):
        raise ValueError(f"color_by must be 'device' or 'subgraph', got {color_by!r}")
    model, aff, sub, source = _facts(model_or_compiled, affinity)
    pos = graph_layout(model, show_constants)
    max_row = {d: 0 for d, _ in pos.values()}
    for d, r in pos.values():
        max_row[d] = max(max_row[d], r)

    def xy(n: Node) -> tuple[float, float]:
        d, r = pos[n]
        return float(d), -(r - max_row[d] / 2.0)

    def group(n: Node) -> str:
        if isinstance(n, Constant):
            return "constants"
        if color_by == "device":
            return aff.get(n, _NONE)
        if isinstance(n, Parameter):
            return "inputs"
        return f"subgraph {sub[n]} ({aff.get(n, '?')})" if n in sub else _NONE

    edge_x: list[float | None] = []
    edge_y: list[float | None] = []
    for n in pos:
        for s in n.input_values():
            src = s.get_node()
            if src in pos:
                (x0, y0), (x1, y1) = xy(src), xy(n)
                edge_x += [x0, x1, None]
                edge_y += [y0, y1, None]
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=edge_x, y=edge_y, mode="lines", hoverinfo="skip",
                             line=dict(color="#b0b0b0", width=1), showlegend=False, name="edges"))
    groups: dict[str, list[Node]] = {}
    for n in pos:
        groups.setdefault(group(n), []).append(n)

    def order(key: str) -> tuple[int, str]:
        if key.startswith("subgraph "):
            return (0, f"{int(key.split()[1]):06d}")
        return (1 if key not in ("inputs", "constants", _NONE) else 2, key)

    show_text = labels if labels is not None else len(pos) <= 80
    size = 16 if len(pos) <= 80 else 11
    for i, key in enumerate(sorted(groups, key=order)):
        nodes = groups[key]
        grey = key in ("inputs", "constants", _NONE)
        few = not grey and len(nodes) <= 10 and len(pos) > 80  # a minority worth finding
        if grey:
            colour = "#c7c7c7"
        elif color_by == "subgraph":
            colour = _PALETTE[int(key.split()[1]) % len(_PALETTE)]
        else:
            colour = _colour(key, i)
        hover = [f"<b>{n.get_friendly_name()}</b><br>{n.get_type_name()} ({n.get_name()})"
                 f"<br>device: {aff.get(n, '-')}<br>subgraph: {sub.get(n, '-')}" for n in nodes]
        fig.add_trace(go.Scatter(
            x=[xy(n)[0] for n in nodes], y=[xy(n)[1] for n in nodes],
            mode="markers+text" if show_text else "markers", name=key,
            marker=dict(symbol="square", size=18 if few else size, color=colour,
                        line=dict(color="#000000" if few else "#333333",
                                  width=2 if few else 0.6)),
            text=[_SHORT.get(n.get_type_name(), n.get_type_name()[:4]) for n in nodes]
            if show_text else None,
            textposition="top center", textfont=dict(size=8),
            hovertext=hover, hoverinfo="text"))
    widest = max(max_row.values(), default=0) + 1
    n_sub = len(set(sub.values()))
    head = title or (f"{model.get_friendly_name()}: {len(pos)} ops by {color_by}"
                     + (f", {n_sub} submodel{'s' if n_sub != 1 else ''}" if sub else "")
                     + f" ({source})")
    fig.update_layout(
        title=dict(text=head), template="plotly_white", hovermode="closest",
        xaxis=dict(title=dict(text="topological depth"), showgrid=False, zeroline=False),
        yaxis=dict(showticklabels=False, showgrid=False, zeroline=False,
                   title=dict(text="ops of one layer")),
        legend=dict(title=dict(text=color_by), orientation="h", x=0, y=1.0, xanchor="left",
                    yanchor="bottom"),
        width=width,
        height=int(min(max(380, 42 * widest + 200), 1400)),
        margin=dict(l=40, r=20, t=110, b=50))
    return fig


def subgraph_timeline_figure(records, title: str) -> go.Figure:
    """One HETERO inference as bars, one per subgraph on its device's row: the gaps between the
    bars are the transfers, and at any moment only one device works."""
    t_sub = records[0].submitted
    fig = go.Figure()
    for r in records:
        fig.add_trace(go.Bar(y=[r.device], x=[(r.finished - r.started) * 1e3],
                             base=[(r.started - t_sub) * 1e3], orientation="h",
                             name=f"subgraph {r.subgraph}"))
    fig.update_layout(title=title, barmode="overlay", xaxis_title="simulated time since submit (ms)",
                      yaxis_title="device", legend_title="subgraph", height=300,
                      template="plotly_white")
    return fig
