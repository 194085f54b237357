"""ipywidgets dashboards over the seed experiments, with live plotly figures.

``dashboard`` (what the seed experiments' dashboards share), ``latency_dashboard`` (lab 04),
``timeline_dashboard`` (lab 05), ``knobs`` (the widgets and which knobs are inert), ``live``
(replays on the kernel's event loop), ``frame_clock`` (the browser's frame acknowledgement),
``sync`` (FigureWidget updates that leave nothing stale); ``resource_aware`` (lab 09);
``llm_dashboard`` (lab 13).
"""

from .latency_dashboard import LatencyDashboard
from .llm_dashboard import LLMServingDashboard
from .resource_aware import ResourceAwareDashboard
from .timeline_dashboard import TimelineDashboard

__all__ = ["LatencyDashboard", "LLMServingDashboard", "ResourceAwareDashboard", "TimelineDashboard"]
