"""Plotly figures built from ovlab's records: latency traces, timelines, Gantt charts, graphs,
the dashboards' figures and compare mode.

Modules: ``latency`` (latency graph, timeline, Gantt), ``dashboard_figures`` (the dashboards'
figures), ``compare`` (two runs side by side or overlaid), built from ``runview`` (a run, whole or
cut at a moment), ``panels`` and ``marks`` (traces and shapes), ``palette`` (categories and
colours), ``jitter`` (bands, histograms), ``decimate``, ``analytic`` (the analytic model), and
``static`` (PNGs for pages read without JavaScript).
"""

from .compare import compare_figure, compare_stats, compare_text
from .dashboard_figures import latency_dashboard_figure, timeline_dashboard_figure
from .latency import gantt_figure, latency_figure, timeline_figure
from .static import add_static_images, show, to_png

__all__ = ["gantt_figure", "latency_figure", "timeline_figure", "graph_figure", "show", "to_png",
           "add_static_images", "compare_figure", "compare_stats", "compare_text",
           "latency_dashboard_figure", "timeline_dashboard_figure"]


def __getattr__(name: str):
    if name == "graph_figure":
        from .hetero import graph_figure

        return graph_figure
    raise AttributeError(f"module 'ovlab.viz' has no attribute {name!r}")
