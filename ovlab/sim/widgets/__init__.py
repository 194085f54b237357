"""ipywidgets dashboards over the seed experiments, with live plotly figures.

``dashboard`` (what the seed experiments' dashboards share), ``latency_dashboard`` (lab 04),
``timeline_dashboard`` (lab 05), ``knobs`` (the widgets and which knobs are inert), ``live``
(replays on the kernel's event loop), ``frame_clock`` (the browser's frame acknowledgement),
``sync`` (FigureWidget updates that leave nothing stale); ``resource_aware`` (lab 09);
``llm_dashboard`` (lab 13); ``llm_device_dashboard`` (lab 14).
"""

from .latency_dashboard import LatencyDashboard
from .llm_dashboard import LLMServingDashboard
from .llm_device_dashboard import LLMDeviceDashboard
from .resource_aware import ResourceAwareDashboard
from .timeline_dashboard import TimelineDashboard

__all__ = ["LatencyDashboard", "LLMDeviceDashboard", "LLMServingDashboard", "ResourceAwareDashboard", "TimelineDashboard"]
