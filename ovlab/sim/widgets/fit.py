"""A dashboard that follows its output area's width: the CSS rules every dashboard carries.

A cell's output area is a flex item, never narrower than what it holds; a FigureWidget drawn at
848 px (a 1280-px window with the file browser open) therefore kept its output area 848 px
wide when the window shrank to 1000 px, and plotly.js, asked to resize the figure to its
container, found the container as wide as the figure: 132-232 px cut off on the right (review
4b). With these rules the output area holding a dashboard may be narrower than its content, the
figure's box takes the width it is given, and plotly.js redraws the figure at that width on the
window's resize (and JupyterLab's, when the file browser opens or closes).
"""

from __future__ import annotations

import ipywidgets as widgets

FIT_CLASS = "ovlab-fit"

_RULES = (
    f".jp-OutputArea-output:has(.{FIT_CLASS}), .{FIT_CLASS}, .{FIT_CLASS} .widget-box, "
    f".{FIT_CLASS} .js-plotly-plot, .{FIT_CLASS} .widget-output, "
    f".{FIT_CLASS} .jp-OutputArea-child, .{FIT_CLASS} .jp-OutputArea-output "
    "{min-width: 0 !important; max-width: 100%;}"
)


def fit(box: widgets.Box) -> widgets.Box:
    """``box`` (a dashboard's outer box) marked to follow its output area's width, with the
    rules that let it, in a hidden HTML child of its own (a stored notebook carries no CSS)."""
    box.add_class(FIT_CLASS)
    style = widgets.HTML(f"<style>{_RULES}</style>", layout=widgets.Layout(display="none"))
    box.children = (style, *box.children)
    return box
