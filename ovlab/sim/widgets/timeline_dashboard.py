"""Lab 05's dashboard: ``auto-test.py`` with its knobs as widgets."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from .. import experiments
from ..viz.compare import round_up
from ..viz.dashboard_figures import timeline_dashboard_spec
from ..viz.runview import RunView
from .dashboard import Dashboard


class TimelineDashboard(Dashboard):
    """The seed's submit -> result timeline (40 requests every 30 ms, 16 infer requests) with
    its knobs as widgets: wires and points coloured by device and batch status (in a batch of
    N, alone after the timeout, on AUTO's CPU helper), the batch timer's ticks, latency per
    request with its band, histogram and the analytic model, a ghost of the previous run,
    compare mode, and live replays."""

    devices = ("GPU", "AUTO", "AUTO:GPU", "CPU", "BATCH:GPU(8)")
    y_unit = "ms"

    def __init__(self, device: str = "GPU", hint: str = "THROUGHPUT", niter: int = 40,
                 num_ireq: int = 16, **kw: Any) -> None:
        self.num_ireq = num_ireq
        self._cache: tempfile.TemporaryDirectory | None = None
        super().__init__(device=device, hint=hint, niter=niter, **kw)

    def title(self) -> str:
        return "The yas-sim submit -> result timeline (auto-test.py)"

    def _x(self) -> str:
        return "submit"

    def _experiment(self, core):
        k = self.knobs
        # the seed sets CACHE_DIR; ovlab's cache is a real directory (as OpenVINO's), so every
        # run gets its own empty one, as the seed's first run had: the same settings always give
        # the same run, whatever ran before
        cfg = {"CACHE_DIR": self._empty_cache(), **self.config()}
        return experiments.auto_test(core, self.model, k.device.value, cfg, niter=k.niter.value,
                                     interval=k.interval.value, num_ireq=self.num_ireq,
                                     verbose=False)

    def _empty_cache(self) -> str:
        if self._cache is None:
            self._cache = tempfile.TemporaryDirectory(prefix="ovlab-dashboard-cache-")
        path = Path(self._cache.name)
        for entry in path.iterdir():
            if entry.is_dir():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        return str(path)

    def _pair_specs(self, view: RunView) -> tuple[dict[str, Any], dict[str, Any]]:
        """Side by side: A's and B's figures each as the main view draws a run, the submit ->
        result timeline over the latency panel (the lab's core picture: the plain latency
        panels of lab 04's side by side dropped it), on one latency range, in ms."""
        a, full = self.pinned, self.full
        top = self.locked_range("ms")
        if top is None:
            highest = max([float(r.frame["latency"].max()) * 1000.0
                           for r in (a, full) if len(r.frame)] or [1.0])
            top = [0.0, round_up(highest * 1.08)]  # A's range holds while B moves a little
        return (timeline_dashboard_spec(a, a, analytic=self._pinned_analytic, y_range=top,
                                        title=f"<b>A: {a.label}</b>"),
                timeline_dashboard_spec(view, full, analytic=self.analytic, y_range=top,
                                        title=f"<b>B: {view.label}</b>"))

    def _spec(self, view: RunView) -> dict[str, Any]:
        overlay = self.knobs.compare.value == "overlay" and self.pinned is not None
        return timeline_dashboard_spec(view, self.full, ghost=None if overlay else self.ghost,
                                       pinned=self.pinned if overlay else None,
                                       analytic=self.analytic, y_range=self.locked_range("ms"))
