"""Plotly figures built from ovlab's records: latency traces, timelines, Gantt charts, graphs,
the dashboards' figures and compare mode.

Modules: ``latency`` (latency graph, timeline, Gantt), ``dashboard_figures`` (the dashboards'
figures), ``compare`` (two runs side by side or overlaid), built from ``runview`` (a run, whole or
cut at a moment), ``panels`` and ``marks`` (traces and shapes), ``palette`` (categories and
colours), ``jitter`` (bands, histograms), ``decimate``, ``analytic`` (the analytic model), and
``static`` (PNGs for pages read without JavaScript). The labs' own figures: ``compiles`` (lab 02's
compile timeline), ``batching`` (lab 05's timer marks and wait histogram), ``hetero`` (lab 07's
op graph and subgraph timeline), ``fallback`` (lab 08's runtime fallback).
"""

from .batching import timer_figure, wait_histogram_figure
from .compare import compare_figure, compare_stats, compare_text
from .compiles import compile_figure, compile_windows
from .dashboard_figures import latency_dashboard_figure, timeline_dashboard_figure
from .fallback import fallback_figure
from .latency import gantt_figure, latency_figure, timeline_figure
from .static import add_static_images, show, to_png

__all__ = ["gantt_figure", "latency_figure", "timeline_figure", "graph_figure", "show", "to_png",
           "add_static_images", "compare_figure", "compare_stats", "compare_text",
           "latency_dashboard_figure", "timeline_dashboard_figure", "compile_figure",
           "compile_windows", "timer_figure", "wait_histogram_figure", "subgraph_timeline_figure",
           "fallback_figure"]


def __getattr__(name: str):
    if name in ("graph_figure", "subgraph_timeline_figure"):
        from . import hetero

        return getattr(hetero, name)
    raise AttributeError(f"module 'ovlab.sim.viz' has no attribute {name!r}")
