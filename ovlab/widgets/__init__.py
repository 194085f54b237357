"""ipywidgets dashboards over the seed experiments, with live plotly figures."""

from .dashboard import LatencyDashboard, TimelineDashboard
from .resource_aware import ResourceAwareDashboard

__all__ = ["LatencyDashboard", "ResourceAwareDashboard", "TimelineDashboard"]
