"""Plotly figures built from ovlab's records: latency traces, timelines, Gantt charts, graphs."""

from .batching import timer_figure, wait_histogram_figure
from .compiles import compile_figure, compile_windows
from .fallback import fallback_figure
from .latency import gantt_figure, latency_figure, timeline_figure
from .static import add_static_images, show, to_png

__all__ = ["gantt_figure", "latency_figure", "timeline_figure", "graph_figure", "show", "to_png",
           "add_static_images", "compile_figure", "compile_windows", "timer_figure",
           "wait_histogram_figure", "subgraph_timeline_figure", "fallback_figure"]


def __getattr__(name: str):
    if name in ("graph_figure", "subgraph_timeline_figure"):
        from . import hetero

        return getattr(hetero, name)
    raise AttributeError(f"module 'ovlab.viz' has no attribute {name!r}")
