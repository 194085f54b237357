"""Plotly figures that are interactive in JupyterLab AND visible where no JavaScript runs.

``fig.show()`` in a notebook stores only ``application/vnd.plotly.v1+json``: JupyterLab draws it,
but GitHub's notebook viewer and ``jupyter nbconvert --to html`` show nothing. Plotly's own PNG
export needs kaleido and a Chrome binary, which Binder and CI machines do not have. So the stored
labs get, beside each plotly output, a PNG drawn with matplotlib from the same figure
(:func:`add_static_images`), while live outputs stay interactive (:func:`show`). The PNG side covers what ovlab's
figures use: scatter lines and markers, bars, line shapes, annotations, titles, axis titles, log
axes, tick labels and dark backgrounds.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

_SYMBOLS = {"triangle-up": "^", "triangle-up-open": "^", "circle": "o", "circle-open": "o",
            "square": "s", "square-open": "s", "diamond": "D", "x": "x", "cross": "P",
            "triangle-down": "v", "star": "*"}
_DASH = {"dash": "--", "dot": ":", "dashdot": "-.", "solid": "-", None: "-"}


def _text(obj: Any) -> str:
    if obj is None:
        return ""
    if isinstance(obj, str):
        return obj
    return getattr(obj, "text", None) or ""


def _arr(values: Any) -> np.ndarray | None:
    if values is None:
        return None
    if isinstance(values, dict) and "bdata" in values:  # plotly's typed-array JSON encoding
        import base64

        arr = np.frombuffer(base64.b64decode(values["bdata"]), dtype=values.get("dtype", "f8"))
        return arr.reshape(values["shape"]) if "shape" in values else arr
    return np.asarray(values)


def to_png(fig, width: int | None = None, height: int | None = None, dpi: int = 100) -> bytes:
    """Render a plotly ``go.Figure`` with matplotlib and return PNG bytes."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    layout = fig.layout
    w = width or layout.width or 900
    h = height or layout.height or 420
    bg = layout.paper_bgcolor or "white"
    plot_bg = layout.plot_bgcolor or ("white" if bg == "white" else bg)
    fg = (layout.font.color if layout.font and layout.font.color else None) or (
        "white" if bg in ("black", "#000", "#000000") else "black")
    mfig, ax = plt.subplots(figsize=(w / dpi, h / dpi), dpi=dpi)
    mfig.patch.set_facecolor(bg)
    ax.set_facecolor(plot_bg)
    for spine in ax.spines.values():
        spine.set_color(fg)
    ax.tick_params(colors=fg, labelsize=8)
    has_labels = False
    bars = [t for t in fig.data if t.type == "bar" and t.orientation != "h"]
    grouped = len(bars) > 1 and (layout.barmode in (None, "group"))
    categories: list = []
    if grouped:
        for t in bars:
            for c in (_arr(t.x) if t.x is not None else []):
                if c not in categories:
                    categories.append(c)
    for trace in fig.data:
        name = trace.name if trace.name and trace.showlegend is not False else None
        has_labels |= bool(name)
        if trace.type == "bar":
            if grouped and trace in bars:
                _draw_grouped_bar(ax, trace, name, categories, bars.index(trace), len(bars))
            else:
                _draw_bar(ax, trace, name)
        elif trace.type in ("scatter", "scattergl"):
            _draw_scatter(ax, trace, name)
    if grouped:
        ax.set_xticks(range(len(categories)))
        ax.set_xticklabels([str(c) for c in categories])
    for shape in layout.shapes or ():
        if shape.type == "line":
            color = shape.line.color if shape.line else fg
            style = _DASH.get(shape.line.dash if shape.line else None, "-")
            if shape.yref == "paper":
                ax.axvline(shape.x0, color=color, linestyle=style, linewidth=1.2)
            elif shape.xref == "paper":
                ax.axhline(shape.y0, color=color, linestyle=style, linewidth=1.2)
            else:
                ax.plot([shape.x0, shape.x1], [shape.y0, shape.y1], color=color, linestyle=style)
    for ann in layout.annotations or ():
        color = ann.font.color if ann.font and ann.font.color else fg
        if ann.yref == "paper":
            ax.annotate(ann.text, (ann.x, 1.0), xycoords=("data", "axes fraction"),
                        color=color, fontsize=8, ha="center", va="bottom")
        elif ann.x is not None and ann.y is not None:
            ax.annotate(ann.text, (ann.x, ann.y), color=color, fontsize=8)
    _axis(ax, layout.xaxis, "x", fg)
    _axis(ax, layout.yaxis, "y", fg)
    rows_above = 0
    if has_labels and layout.showlegend is not False:
        rows_above = _legend(ax, layout.legend)
    title = _text(layout.title)
    if title:
        # leave room above the axes for annotations anchored to the top (e.g. a device switch)
        # and for a legend placed above the plot
        top_notes = any(a.yref == "paper" for a in layout.annotations or ())
        pad = (16 if top_notes else 6) + (8 + 14 * rows_above if rows_above else 0)
        ax.set_title(title, color=fg, fontsize=11, pad=pad)
    mfig.tight_layout()
    buf = io.BytesIO()
    mfig.savefig(buf, format="png", facecolor=mfig.get_facecolor())
    plt.close(mfig)
    return buf.getvalue()


def _legend(ax, legend) -> int:
    """Place the legend where plotly puts it: above the plot for a horizontal legend anchored at
    y >= 1, right of it for x >= 1, else wherever it covers the least data. Returns the number
    of legend rows above the plot (the title makes room for them)."""
    if legend is not None and legend.y is not None and legend.y >= 1:
        handles = len(ax.get_legend_handles_labels()[0])
        ncol = max(1, min(handles, 3))
        ax.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.02), frameon=False,
                  ncol=ncol)
        return -(-handles // ncol)
    if legend is not None and legend.x is not None and legend.x >= 1:
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1), frameon=False)
    else:
        ax.legend(fontsize=8, loc="best")
    return 0


def _draw_scatter(ax, trace, name) -> None:
    x, y = _arr(trace.x), _arr(trace.y)
    if y is None:
        return
    if x is None:
        x = np.arange(len(y))
    mode = trace.mode or "lines"
    color = None
    if "lines" in mode:
        color = trace.line.color if trace.line else None
        width = trace.line.width if trace.line and trace.line.width else 1.2
        dash = _DASH.get(trace.line.dash if trace.line else None, "-")
        ax.plot(x, y, color=color, linewidth=width, linestyle=dash, label=name)
        name = None
    if "markers" in mode:
        m = trace.marker
        symbol = _SYMBOLS.get(m.symbol if m and isinstance(m.symbol, str) else "circle", "o")
        mcolor = m.color if m is not None and isinstance(m.color, str) else color
        size = (m.size if m is not None and isinstance(m.size, (int, float)) else 6) ** 2 / 2
        hollow = m is not None and isinstance(m.symbol, str) and m.symbol.endswith("-open")
        ax.scatter(x, y, marker=symbol, s=size, label=name,
                   facecolors="none" if hollow else mcolor, edgecolors=mcolor)
    if "text" in mode and trace.text is not None:
        for xi, yi, ti in zip(x, y, np.broadcast_to(np.asarray(trace.text, dtype=object),
                                                    np.shape(x)), strict=False):
            ax.annotate(str(ti), (xi, yi), fontsize=6, ha="center", va="center")


def _draw_bar(ax, trace, name) -> None:
    x, y = _arr(trace.x), _arr(trace.y)
    base = _arr(trace.base)
    color = trace.marker.color if trace.marker and trace.marker.color is not None else None
    if isinstance(color, (tuple, list, np.ndarray)):
        color = list(color)
    if trace.orientation == "h":
        bars = ax.barh(y, x, left=base if base is not None else 0, color=color, label=name,
                       height=0.7)
    else:
        bars = ax.bar(x, y, bottom=base if base is not None else 0, color=color, label=name)
    if trace.text is not None and not isinstance(trace.text, str):
        ax.bar_label(bars, labels=[str(t) for t in trace.text], fontsize=7)


def _draw_grouped_bar(ax, trace, name, categories, index: int, count: int) -> None:
    width = 0.8 / count
    xs = [categories.index(c) - 0.4 + width * (index + 0.5) for c in _arr(trace.x)]
    color = trace.marker.color if trace.marker and isinstance(trace.marker.color, str) else None
    ax.bar(xs, _arr(trace.y), width=width, color=color, label=name)


def _axis(ax, axis, which: str, fg: str) -> None:
    if axis is None:
        return
    label = _text(axis.title)
    (ax.set_xlabel if which == "x" else ax.set_ylabel)(label, color=fg, fontsize=9)
    if axis.type == "log":
        (ax.set_xscale if which == "x" else ax.set_yscale)("log")
    if axis.range is not None and axis.type != "log":
        (ax.set_xlim if which == "x" else ax.set_ylim)(*axis.range)
    if axis.tickvals is not None:
        (ax.set_xticks if which == "x" else ax.set_yticks)(list(axis.tickvals))
        if axis.ticktext is not None:
            (ax.set_xticklabels if which == "x" else ax.set_yticklabels)(list(axis.ticktext))
    if axis.showgrid or axis.gridcolor:
        ax.grid(True, axis=which, color=axis.gridcolor or "#dddddd", linewidth=0.6)
    if axis.showticklabels is False or axis.visible is False:
        (ax.set_xticklabels if which == "x" else ax.set_yticklabels)([])
        ax.tick_params(axis=which, length=0)


def show(fig) -> None:
    """Display ``fig`` as ``fig.show()`` does in a notebook (interactive plotly JSON).

    A live output carries the plotly JSON (JupyterLab's plotly renderer ranks first) and a line
    of text with the figure's description for front ends without plotly; the PNG for static
    viewers is added to the *stored* notebook by :func:`add_static_images`
    (``tools/run_labs.py`` calls it), which also puts the description in its alt text.
    """
    import plotly.io as pio
    from IPython.display import display

    bundle = dict(pio.renderers["plotly_mimetype"].to_mimebundle(fig.to_dict()))
    bundle["text/plain"] = f"<Figure: {_text(fig.layout.title) or 'plotly figure'}>"
    # what a front end without plotly shows; the stored notebook replaces it with the PNG and
    # its alt text (add_static_images), and nbval's sanitizer reads both as the alt text
    bundle["text/html"] = f'<div class="ovlab-figure">{_html(alt_text(fig))}</div>'
    display(bundle, raw=True)


def alt_text(fig) -> str:
    """A short description of a figure for screen readers and text-only views: its title, its
    axes and its series."""
    layout = fig.layout
    parts = [f"Figure: {_text(layout.title) or 'plot'}"]
    axes = [_text(a.title) for a in (layout.xaxis, layout.yaxis) if a is not None]
    if any(axes):
        parts.append(f"{axes[1] or 'y'} against {axes[0] or 'x'}")
    names = [t.name for t in fig.data if t.name and t.showlegend is not False]
    if names:
        shown = ", ".join(dict.fromkeys(names))
        parts.append(f"series: {shown}" if len(shown) < 200 else f"{len(names)} series")
    return ". ".join(parts)


def _html(text: str) -> str:
    import html

    return html.escape(text, quote=True)


def add_static_images(nb) -> int:
    """Add a PNG next to every stored plotly figure of a notebook (``nbformat`` node).

    A learner who opens the stored notebook, GitHub and ``nbconvert --to html`` then see the
    figure, with alt text (a ``text/html`` ``<img>``); JupyterLab draws the plotly figure.
    Returns the number of images added.
    """
    import base64

    import plotly.graph_objects as go

    added = 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            spec = data.get("application/vnd.plotly.v1+json")
            if spec is None or "image/png" in data:
                continue
            fig = go.Figure(spec, skip_invalid=True)
            png = base64.b64encode(to_png(fig)).decode("ascii")
            data["image/png"] = png
            # an <img> with alt text for HTML exports (nbconvert prefers text/html to PNG);
            # JupyterLab still draws the interactive plotly figure (its renderer ranks first)
            data["text/html"] = (f'<img src="data:image/png;base64,{png}" '
                                 f'alt="{_html(alt_text(fig))}">')
            added += 1
    return added
