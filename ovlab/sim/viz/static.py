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
import math
from typing import Any

import numpy as np

_SYMBOLS = {"triangle-up": "^", "triangle-up-open": "^", "circle": "o", "circle-open": "o",
            "square": "s", "square-open": "s", "diamond": "D", "x": "x", "cross": "P",
            "triangle-down": "v", "star": "*", "line-ns-open": "|", "line-ns": "|"}
_DASH = {"dash": "--", "dot": ":", "dashdot": "-.", "solid": "-", None: "-"}


def _text(obj: Any) -> str:
    """A title or annotation's text as plain text (plotly's ``<br>`` -> a new line, other tags
    dropped)."""
    if obj is None:
        return ""
    text = obj if isinstance(obj, str) else (getattr(obj, "text", None) or "")
    if "<" in text:
        import re

        text = re.sub(r"<br\s*/?>", "\n", text)
        text = re.sub(r"<[^>]+>", "", text)
    return text


def _arr(values: Any) -> np.ndarray | None:
    if values is None:
        return None
    if isinstance(values, dict) and "bdata" in values:  # plotly's typed-array JSON encoding
        import base64

        arr = np.frombuffer(base64.b64decode(values["bdata"]), dtype=values.get("dtype", "f8"))
        return arr.reshape(values["shape"]) if "shape" in values else arr
    return np.asarray(values)


def _color(value: Any, default: Any = None) -> Any:
    """A plotly colour as matplotlib takes it (``rgba(r, g, b, a)`` -> a 0-1 tuple)."""
    if value is None:
        return default
    if isinstance(value, str):
        text = value.strip()
        if text.startswith(("rgba(", "rgb(")):
            parts = [float(p) for p in text[text.index("(") + 1:text.rindex(")")].split(",")]
            rgb = [p / 255.0 for p in parts[:3]]
            return tuple(rgb + ([parts[3]] if len(parts) > 3 else []))
        return text
    return value


def _axis_key(ref: str, which: str) -> str:
    """``"x2"`` -> ``"xaxis2"``; ``"x"`` -> ``"xaxis"``."""
    return f"{which}axis{ref[1:]}"


def to_png(fig, width: int | None = None, height: int | None = None, dpi: int = 100) -> bytes:
    """Render a plotly ``go.Figure`` with matplotlib and return PNG bytes.

    Figures with one pair of axes are laid out by matplotlib; figures with subplots (axes with
    ``domain`` s, e.g. the dashboards' latency panel and histogram) get one matplotlib axes per
    plotly axes pair, placed by the domains inside the layout's margins.
    """
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
    pairs = list(dict.fromkeys((t.xaxis or "x", t.yaxis or "y") for t in fig.data)) or [("x", "y")]
    multi = len(pairs) > 1 or layout.xaxis.domain is not None
    legend_below = bool(layout.legend and layout.legend.orientation == "h")
    bottom_px = None
    if multi and legend_below and layout.legend.yref == "container":
        # the dashboards' legend at the figure's foot (viz.dashboard_figures.legend_below): the
        # plotly margin holds it two entries a row for a narrow browser; here it takes three a
        # row, under the axes' titles, and the image is as much shorter (it kept the browser's
        # margin, then added its own: a blank band of ~200 px above the legend)
        names = {t.name for t in fig.data if t.name and t.showlegend is not False}
        bottom_px = _AXIS_TITLES_PX + 12 + math.ceil(len(names) / 3) * _LEGEND_ROW_PX
        margin_b = layout.margin.b if layout.margin.b is not None else 80
        h = max(h - margin_b + bottom_px, bottom_px + 200)
    mfig = plt.figure(figsize=(w / dpi, h / dpi), dpi=dpi)
    mfig.patch.set_facecolor(bg)
    axes: dict[tuple[str, str], Any] = {}
    for xr, yr in pairs:
        if multi:
            axes[(xr, yr)] = mfig.add_axes(_position(layout, xr, yr, w, h, legend_below,
                                                     bottom_px))
        else:
            axes[(xr, yr)] = mfig.add_subplot(1, 1, 1)
    main = axes[pairs[0]]
    for ax in axes.values():
        ax.set_facecolor(plot_bg)
        for spine in ax.spines.values():
            spine.set_color(fg)
        ax.tick_params(colors=fg, labelsize=8)
    handles: dict[str, Any] = {}
    bars = [t for t in fig.data if t.type == "bar" and t.orientation != "h"]
    grouped = len(bars) > 1 and (layout.barmode in (None, "group"))
    categories: list = []
    if grouped:
        for t in bars:
            for c in (_arr(t.x) if t.x is not None else []):
                if c not in categories:
                    categories.append(c)
    previous: dict[tuple[str, str], Any] = {}
    for trace in fig.data:
        key = (trace.xaxis or "x", trace.yaxis or "y")
        ax = axes[key]
        name = trace.name if trace.name and trace.showlegend is not False else None
        if trace.type == "bar":
            if grouped and trace in bars:
                _draw_grouped_bar(ax, trace, name, categories, bars.index(trace), len(bars))
            else:
                _draw_bar(ax, trace, name)
        elif trace.type in ("scatter", "scattergl"):
            _draw_scatter(ax, trace, name, previous.get(key))
            previous[key] = trace
    if grouped:
        main.set_xticks(range(len(categories)))
        main.set_xticklabels([str(c) for c in categories])
    for shape in layout.shapes or ():
        _draw_shape(mfig, axes, main, shape, fg)
    for ann in layout.annotations or ():
        _draw_annotation(mfig, axes, main, ann, fg)
    for (xr, yr), ax in axes.items():
        _axis(ax, layout[_axis_key(xr, "x")], "x", fg)
        _axis(ax, layout[_axis_key(yr, "y")], "y", fg)
    title = _text(layout.title)
    if title:
        # leave room above the axes for annotations anchored to the top (e.g. a device switch)
        top_notes = any(a.yref in ("paper", "y domain") and (a.y or 0) >= 1
                        for a in layout.annotations or ())
        if multi:
            import textwrap

            title = "\n".join(textwrap.fill(line, 120) for line in title.split("\n"))
            mfig.suptitle(title, color=fg, fontsize=10, y=0.995, va="top")
        else:
            main.set_title(title, color=fg, fontsize=11, pad=16 if top_notes else 6)
    for ax in axes.values():
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    if handles and layout.showlegend is not False:
        if legend_below and multi:
            mfig.legend(list(handles.values()), list(handles.keys()), loc="lower left",
                        fontsize=7, ncol=3, frameon=False, bbox_to_anchor=(0.0, 0.0),
                        labelcolor=fg)
        elif legend_below:  # under the x axis title; the saved image grows to hold it
            main.legend(list(handles.values()), list(handles.keys()), loc="upper left",
                        bbox_to_anchor=(0.0, -0.16), fontsize=7, ncol=3, frameon=False,
                        labelcolor=fg)
        else:
            main.legend(fontsize=8, loc="best")
    if not multi:
        mfig.tight_layout()
    buf = io.BytesIO()
    mfig.savefig(buf, format="png", facecolor=mfig.get_facecolor(),
                 **({"bbox_inches": "tight"} if legend_below and not multi else {}))
    plt.close(mfig)
    return buf.getvalue()


# the foot of a figure with its legend below (see to_png): the x axes' tick labels and titles,
# then a row of the legend (font size 7), in pixels
_AXIS_TITLES_PX = 52
_LEGEND_ROW_PX = 14


def _position(layout, xr: str, yr: str, w: float, h: float, legend_below: bool,
              bottom_px: float | None = None) -> list[float]:
    """[left, bottom, width, height] in figure fractions of a plotly axes pair (``bottom_px``:
    the foot's height in pixels where to_png worked it out)."""
    m = layout.margin
    left, right = (m.l if m.l is not None else 80) / w, (m.r if m.r is not None else 80) / w
    top, bottom = (m.t if m.t is not None else 100) / h, (m.b if m.b is not None else 80) / h
    if bottom_px is not None:
        bottom = bottom_px / h
    else:
        bottom += 0.10 if not legend_below else 0.24  # axis titles; the legend below them
    xd = layout[_axis_key(xr, "x")].domain or (0, 1)
    yd = layout[_axis_key(yr, "y")].domain or (0, 1)
    pw, ph = 1 - left - right, 1 - top - bottom
    gap = 0.01
    return [left + xd[0] * pw, bottom + yd[0] * ph, (xd[1] - xd[0]) * pw - gap,
            (yd[1] - yd[0]) * ph - gap]


def _transform(mfig, axes, main, xref: str | None, yref: str | None):
    """The matplotlib transform of a shape's or annotation's plotly ``xref`` / ``yref``."""
    from matplotlib.transforms import blended_transform_factory

    def pick(ref: str | None, which: str):
        ref = ref or which
        if ref == "paper":
            return main, "axes"
        name, _, domain = ref.partition(" ")
        for (xr, yr), ax in axes.items():
            if (which == "x" and xr == name) or (which == "y" and yr == name):
                return ax, "axes" if domain else "data"
        return main, "data"

    ax_x, kx = pick(xref, "x")
    ax_y, ky = pick(yref, "y")
    tx = ax_x.transAxes if kx == "axes" else ax_x.transData
    ty = ax_y.transAxes if ky == "axes" else ax_y.transData
    return blended_transform_factory(tx, ty), ax_x


def _draw_shape(mfig, axes, main, shape, fg) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    transform, ax = _transform(mfig, axes, main, shape.xref, shape.yref)
    line_color = _color(shape.line.color if shape.line else None, fg)
    style = _DASH.get(shape.line.dash if shape.line else None, "-")
    width = shape.line.width if shape.line and shape.line.width is not None else 1.2
    if shape.type == "line":
        ax.add_line(Line2D([shape.x0, shape.x1], [shape.y0, shape.y1], transform=transform,
                           color=line_color, linestyle=style, linewidth=width))
    elif shape.type == "rect":
        fill = _color(shape.fillcolor, "none")
        ax.add_patch(Rectangle((shape.x0, shape.y0), shape.x1 - shape.x0, shape.y1 - shape.y0,
                               transform=transform, facecolor=fill,
                               edgecolor=line_color if width else "none", linewidth=width or 0,
                               zorder=0 if shape.layer == "below" else 3))


def _draw_annotation(mfig, axes, main, ann, fg) -> None:
    color = ann.font.color if ann.font and ann.font.color else fg
    size = ann.font.size if ann.font and ann.font.size else 8
    if ann.x is None or ann.y is None:
        return
    transform, ax = _transform(mfig, axes, main, ann.xref, ann.yref)
    ha = {"left": "left", "right": "right"}.get(ann.xanchor, "center")
    va = {"top": "top", "bottom": "bottom", "middle": "center"}.get(
        ann.yanchor, "bottom" if ann.yref in ("paper", "y domain") else "center")
    # plotly's xshift / yshift move a note by pixels (the compare figure's panel titles sit
    # 24 px above the switch label): without them the two were drawn over each other
    x, y, shift = ann.x, ann.y, {}
    if ann.xshift or ann.yshift:
        shift = {"xytext": (ann.xshift or 0, ann.yshift or 0), "textcoords": "offset pixels"}
        # an offset note is placed through its transform alone: a category's name (a bar
        # chart's x) becomes its position on the axis first
        x = ax.xaxis.convert_units(x) if isinstance(x, str) else x
        y = ax.yaxis.convert_units(y) if isinstance(y, str) else y
    ax.annotate(_text(ann.text), (x, y), xycoords=transform, color=_color(color),
                fontsize=min(size, 9), ha=ha, va=va, annotation_clip=False, **shift)


def _draw_scatter(ax, trace, name, previous=None) -> None:
    x, y = _arr(trace.x), _arr(trace.y)
    if y is None:
        return
    y = np.asarray(y, dtype=float) if y.dtype == object else y
    if x is None:
        x = np.arange(len(y))
    x = np.asarray(x, dtype=float) if x.dtype == object else x
    mode = trace.mode or "lines"
    alpha = trace.opacity if trace.opacity is not None else 1.0
    color = None
    if trace.fill in ("tonexty", "tozeroy") and len(y):
        fill = _color(trace.fillcolor, _color(trace.line.color if trace.line else None))
        base = 0.0
        if trace.fill == "tonexty" and previous is not None and previous.y is not None:
            base = np.asarray(_arr(previous.y), dtype=float)
            base = base if len(base) == len(y) else 0.0
        ax.fill_between(x, base, y, color=fill, linewidth=0,
                        label=name)
        name = None
    if trace.fill == "toself" and len(y):  # a closed outline, e.g. a histogram's
        fill = _color(trace.fillcolor, _color(trace.line.color if trace.line else None))
        ax.fill(x, y, color=fill, linewidth=0, alpha=alpha, label=name)
        name = None
    if "lines" in mode and not (trace.line and trace.line.width == 0):
        color = _color(trace.line.color if trace.line else None)
        width = trace.line.width if trace.line and trace.line.width else 1.2
        dash = _DASH.get(trace.line.dash if trace.line else None, "-")
        ax.plot(x, y, color=color, linewidth=width, linestyle=dash, label=name, alpha=alpha)
        name = None
    if "markers" in mode and len(y):
        m = trace.marker
        symbol = _SYMBOLS.get(m.symbol if m and isinstance(m.symbol, str) else "circle", "o")
        mcolor = m.color if m is not None and m.color is not None else color
        if isinstance(mcolor, (tuple, list, np.ndarray)):
            mcolor = [_color(c) for c in mcolor]
        else:
            mcolor = _color(mcolor)
        size = (m.size if m is not None and isinstance(m.size, (int, float)) else 6) ** 2 / 2
        hollow = m is not None and isinstance(m.symbol, str) and m.symbol.endswith("-open")
        opacity = m.opacity if m is not None and isinstance(m.opacity, (int, float)) else alpha
        kwargs = ({"facecolors": "none", "edgecolors": mcolor} if hollow and symbol not in "x|"
                  else {"c" if isinstance(mcolor, list) else "color": mcolor})
        ax.scatter(x, y, marker=symbol, s=size, label=name, alpha=opacity, linewidths=0.8,
                   **kwargs)
    if "text" in mode and trace.text is not None:
        for xi, yi, ti in zip(x, y, np.broadcast_to(np.asarray(trace.text, dtype=object),
                                                    np.shape(x)), strict=False):
            ax.annotate(str(ti), (xi, yi), fontsize=6, ha="center", va="center")


def _draw_bar(ax, trace, name) -> None:
    x, y = _arr(trace.x), _arr(trace.y)
    base = _arr(trace.base)
    color = trace.marker.color if trace.marker and trace.marker.color is not None else None
    if isinstance(color, (tuple, list, np.ndarray)):
        color = [_color(c) for c in color]
    else:
        color = _color(color)
    alpha = trace.opacity if trace.opacity is not None else 1.0
    width = trace.width if isinstance(trace.width, (int, float)) else None
    if trace.orientation == "h":
        bars = ax.barh(y, x, left=base if base is not None else 0, color=color, label=name,
                       height=width or 0.7, alpha=alpha)
    else:
        bars = ax.bar(x, y, bottom=base if base is not None else 0, color=color, label=name,
                      alpha=alpha, **({"width": width} if width else {}))
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

    bundle = dict(pio.renderers["plotly_mimetype"].to_mimebundle(wrap_title(fig.to_dict())))
    # plotly.js follows the output area's width when the window (or the file browser) changes
    # it; a figure drawn at 1280 px kept its width at 1000 px and ran past its output area
    bundle["application/vnd.plotly.v1+json"]["config"] = {"responsive": True}
    bundle["text/plain"] = f"<Figure: {_text(fig.layout.title) or 'plotly figure'}>"
    # what a front end without plotly shows; the stored notebook replaces it with the PNG and
    # its alt text (add_static_images), and nbval's sanitizer reads both as the alt text
    bundle["text/html"] = f'<div class="ovlab-figure">{_html(alt_text(fig))}</div>'
    display(bundle, raw=True)


# the most characters of a one-line title at plotly's default title size (17 px) that fit a
# figure 568 px wide (a 1000-px window with the file browser open): titles of 64 and more ran
# 25-80 px past it in the browser test, 63 did not
TITLE_CHARS = 60


def wrap_title(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` (a figure's dict) with a long one-line title broken in two at a comma or a
    colon (a space if it has neither), the margin made room for by plotly (``automargin``).
    A title that has a line break already, or fits, is left as it is."""
    title = spec.get("layout", {}).get("title")
    if not isinstance(title, dict) or not isinstance(title.get("text"), str):
        return spec
    text = title["text"]
    size = (title.get("font") or {}).get("size") or 17
    limit = int(TITLE_CHARS * 17 / size)
    if "<br" in text or len(_text(text)) <= limit or "<" in text:
        return spec
    cuts = [i + 1 for i, ch in enumerate(text[:limit]) if ch in ",:" and text[i + 1:i + 2] == " "]
    cuts = cuts or [i for i, ch in enumerate(text[:limit]) if ch == " "]
    if not cuts:
        return spec
    cut = cuts[-1]
    spec["layout"]["title"] = {**title, "text": text[:cut].rstrip() + "<br>" + text[cut:].lstrip(),
                               "automargin": True}
    return spec


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
    return ". ".join(parts).replace("\n", " ")


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
