"""Lab 04's dashboard: ``auto-test-latency-graph.py`` with its knobs as widgets."""

from __future__ import annotations

from typing import Any

from .. import experiments
from ..viz.dashboard_figures import latency_dashboard_spec
from ..viz.runview import RunView
from .dashboard import Dashboard


class LatencyDashboard(Dashboard):
    """The seed's latency graph (2,000 requests every 30 ms on AUTO) with its knobs as widgets:
    points coloured by device and batch status, the rolling p5-p50-p95 band, a histogram per
    category, the analytic model, the switch, compiles and batch timer ticks, a ghost of the
    previous run, compare mode, and live replays."""

    devices = ("AUTO", "AUTO:GPU,CPU", "AUTO:GPU", "GPU", "CPU", "MULTI:GPU,CPU")
    x_axis_choice = True
    # points drawn per category (min-max decimation keeps every spike; the legend says how many
    # were drawn). Chromium restyles every marker on every redraw (~45 us each on the 2-vCPU
    # EPYC of 2026-11-27): the figure alone redrew in 153 ms (median) with 600, 133 with 400,
    # 117 with 300, 104 with 200 and 73 with 20 (the axes, legend and histograms); 300 keeps
    # the click -> redraw near the 250 ms budget there (benchmarks/results/dashboards-2026-11-27c.md)
    max_points = 300

    def __init__(self, device: str = "AUTO", hint: str = "THROUGHPUT", niter: int = 2000,
                 **kw: Any) -> None:
        super().__init__(device=device, hint=hint, niter=niter, **kw)

    def title(self) -> str:
        return "The yas-sim latency graph on AUTO"

    def _x(self) -> str:
        return self.knobs.x_axis.value

    def _experiment(self, core):
        k = self.knobs
        return experiments.latency_graph(core, self.model, k.device.value, self.config(),
                                         niter=k.niter.value, interval=k.interval.value,
                                         verbose=False)

    def _spec(self, view: RunView) -> dict[str, Any]:
        overlay = self.knobs.compare.value == "overlay" and self.pinned is not None
        return latency_dashboard_spec(view, self.full, x=self._x(),
                                      ghost=None if overlay else self.ghost,
                                      pinned=self.pinned if overlay else None,
                                      analytic=self.analytic, y_range=self.locked_range("s"),
                                      max_points=self.max_points)
