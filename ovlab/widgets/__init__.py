"""ipywidgets dashboards over the seed experiments, with live plotly figures.

``dashboard`` (what both share), ``latency_dashboard`` (lab 04), ``timeline_dashboard`` (lab 05),
``knobs`` (the widgets and which knobs are inert), ``live`` (replays on the kernel's event loop),
``sync`` (FigureWidget updates that leave nothing stale).
"""

from .latency_dashboard import LatencyDashboard
from .timeline_dashboard import TimelineDashboard

__all__ = ["LatencyDashboard", "TimelineDashboard"]
