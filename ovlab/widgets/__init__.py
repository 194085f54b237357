"""ipywidgets dashboards over the seed experiments, with live plotly figures."""

from .dashboard import LatencyDashboard, TimelineDashboard

__all__ = ["LatencyDashboard", "TimelineDashboard"]
