"""Dashboards: the yas-sim scripts' hard-coded knobs as widgets, with a live plotly figure.

The yas-sim repository's README says "all configuration and setting parameters are hard coded
in the source code". Here each knob (PERFORMANCE_HINT, ALLOW_AUTO_BATCHING, AUTO_BATCH_TIMEOUT, interval,
niter, device string) is a widget; changing one re-runs the experiment on a fresh Core with the
same seed (so the same settings always give the same picture) and redraws a ``FigureWidget``.
With "live" on, simulated time is paced to wall time and the plot grows while you watch.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from .. import experiments
from ..viz import latency as vz

HINTS = ["LATENCY", "THROUGHPUT", "CUMULATIVE_THROUGHPUT"]


class _Dashboard:
    """Shared machinery: the controls, a FigureWidget, a summary line, run-on-change."""

    kind = ""
    devices: tuple[str, ...] = ()

    def __init__(self, *, platform: str = "laptop", model: str = "googlenet-v1",
                 precision: str = "FP16", device: str, hint: str, allow_batching: bool = True,
                 timeout: int = 1000, interval: int = 30, niter: int, num_requests: int = 0,
                 seed: int = 0, run: bool = True) -> None:
        from .. import zoo

        self.platform, self.seed = platform, seed
        self.model = zoo.load(model, precision)
        self.model_label = f"{model} {precision}"
        style = {"description_width": "230px"}
        layout = widgets.Layout(width="520px")
        self.device = widgets.Combobox(value=device, options=list(self.devices),
                                       description="device", style=style, layout=layout,
                                       ensure_option=False)
        # buttons as wide as their text: "CUMULATIVE_THROUGHPUT" was cut to "CUMULATIVE_TH..."
        self.hint = widgets.ToggleButtons(options=HINTS, value=hint,
                                          description="PERFORMANCE_HINT",
                                          style={**style, "button_width": "auto"})
        self.batching = widgets.ToggleButtons(options=["YES", "NO"],
                                              value="YES" if allow_batching else "NO",
                                              description="ALLOW_AUTO_BATCHING", style=style)
        self.timeout = widgets.IntSlider(value=timeout, min=0, max=2000, step=50,
                                         description="AUTO_BATCH_TIMEOUT (ms)", style=style,
                                         layout=layout, continuous_update=False)
        self.num_requests = widgets.IntSlider(value=num_requests, min=0, max=64,
                                              description="HINT_NUM_REQUESTS (0=unset)",
                                              style=style, layout=layout,
                                              continuous_update=False)
        self.interval = widgets.IntSlider(value=interval, min=1, max=500, description="interval (ms)",
                                          style=style, layout=layout, continuous_update=False)
        self.niter = widgets.IntSlider(value=niter, min=10, max=max(2000, niter), step=10,
                                       description="niter", style=style, layout=layout,
                                       continuous_update=False)
        self.live = widgets.Checkbox(value=False, description="live: pace to wall time x",
                                     indent=False)
        self.speed = widgets.FloatLogSlider(value=10.0, base=10, min=0, max=2, step=0.1,
                                            description="", layout=widgets.Layout(width="220px"),
                                            continuous_update=False)
        self.summary = widgets.HTML()
        self.figure = go.FigureWidget()
        self.result = None
        controls = [self.device, self.hint, self.batching, self.timeout, self.num_requests,
                    self.interval, self.niter]
        for w in controls:
            w.observe(self._on_change, names="value")
        self.widget = widgets.VBox(
            [widgets.HTML(f"<b>{self.title()}</b> &mdash; {self.model_label} on the "
                          f"<code>{platform}</code> platform, seed {seed}"),
             *controls, widgets.HBox([self.live, self.speed]), self.summary, self.figure])
        if run:
            self.run()

    # --- settings --------------------------------------------------------------------------
    def title(self) -> str:
        return ""

    def config(self) -> dict[str, Any]:
        """The compile config the widgets describe (strings, as the yas-sim scripts pass them)."""
        cfg: dict[str, Any] = {"PERFORMANCE_HINT": self.hint.value,
                               "ALLOW_AUTO_BATCHING": self.batching.value,
                               "AUTO_BATCH_TIMEOUT": str(self.timeout.value)}
        if self.num_requests.value:
            cfg["PERFORMANCE_HINT_NUM_REQUESTS"] = str(self.num_requests.value)
        return cfg

    def _on_change(self, change) -> None:
        self.run()

    # --- running -----------------------------------------------------------------------------
    def _experiment(self, core, progress):  # pragma: no cover - abstract
        raise NotImplementedError

    def run(self) -> Any:
        """Re-run with the current settings on a fresh Core and redraw the figure."""
        from ..runtime.core import Core

        core = Core(self.platform, seed=self.seed)
        progress = None
        if self.live.value:
            core.clock.realtime = float(self.speed.value)
            progress = self._progress
            with self.figure.batch_update():
                self.figure.data = []
                self.figure.layout = go.Layout(title=dict(text="running..."))
        try:
            self.result = self._experiment(core, progress)
        except RuntimeError as exc:
            self.summary.value = f"<span style='color:#b00'>{_html(str(exc).strip())}</span>"
            with self.figure.batch_update():
                self.figure.data = []
            return None
        self._redraw()
        return self.result

    def _progress(self, rows) -> None:  # live mode: redraw from the rows so far
        import pandas as pd

        partial = experiments.ExperimentResult(
            self.device.value, self.config(), self.interval.value, 0, 0,
            pd.DataFrame(rows).assign(device="", worker="", batch_size=None))
        self._draw(partial)

    def _redraw(self) -> None:
        self._draw(self.result)
        self.summary.value = self._summary_html()

    def _draw(self, result, fig=None) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def static_figure(self) -> go.Figure:
        """A plain ``go.Figure`` of the current result, drawn like the live one, for pages that
        are only read (show it with ``ovlab.viz.show``)."""
        fig = go.Figure()
        self._draw(self.result, fig)
        return fig

    def _summary_html(self) -> str:
        r = self.result
        lat = r.requests["latency"] * 1000
        span = r.requests["result"].max() - r.requests["submit"].min()
        devices = ", ".join(f"{d}: {n}" for d, n in r.requests["device"].value_counts().items())
        text = (f"OPTIMAL_NUMBER_OF_INFER_REQUESTS {r.optimal_requests}, queue of {r.queue_size}"
                f" &middot; latency median {lat.median():.1f} ms, p99 {lat.quantile(0.99):.1f} ms,"
                f" max {lat.max():.1f} ms &middot; {len(lat) / span:.1f} inferences/s"
                f" &middot; ran on {devices}")
        if r.switch_time is not None:
            text += f" &middot; switch at {r.switch_time:.2f} s"
        return text

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


def _html(text: str) -> str:
    import html

    return html.escape(text).replace("\n", "<br>")


class LatencyDashboard(_Dashboard):
    """``auto-test-latency-graph.py`` with its knobs as widgets (lab 4)."""

    kind = "latency"
    devices = ("AUTO", "AUTO:GPU,CPU", "AUTO:GPU", "GPU", "CPU", "MULTI:GPU,CPU")

    def __init__(self, device: str = "AUTO", hint: str = "THROUGHPUT", niter: int = 2000,
                 **kw: Any) -> None:
        super().__init__(device=device, hint=hint, niter=niter, **kw)

    def title(self) -> str:
        return "The yas-sim latency graph on AUTO"

    def _experiment(self, core, progress):
        return experiments.latency_graph(core, self.model, self.device.value, self.config(),
                                         niter=self.niter.value, interval=self.interval.value,
                                         verbose=False, progress=progress)

    def _draw(self, result, fig=None) -> None:
        fig = self.figure if fig is None else fig
        traces = vz.latency_traces(result)
        layout = vz.latency_layout(result, f"Inference Latency: {result.device} "
                                           f"{self.hint.value}")
        with fig.batch_update():
            fig.data = []
            for t in traces:
                fig.add_trace(t)
            fig.layout = layout


class TimelineDashboard(_Dashboard):
    """``auto-test.py`` with its knobs as widgets (lab 5)."""

    kind = "timeline"
    devices = ("GPU", "AUTO", "AUTO:GPU", "CPU", "BATCH:GPU(8)")

    def __init__(self, device: str = "GPU", hint: str = "THROUGHPUT", niter: int = 40,
                 num_ireq: int = 16, **kw: Any) -> None:
        self.num_ireq = num_ireq
        super().__init__(device=device, hint=hint, niter=niter, **kw)

    def title(self) -> str:
        return "The yas-sim submit -> result timeline (auto-test.py)"

    def _experiment(self, core, progress):
        cfg = {"CACHE_DIR": "./cache", **self.config()}
        return experiments.auto_test(core, self.model, self.device.value, cfg,
                                     niter=self.niter.value, interval=self.interval.value,
                                     num_ireq=self.num_ireq, verbose=False, progress=progress)

    def _draw(self, result, fig=None) -> None:
        fig = self.figure if fig is None else fig
        with fig.batch_update():
            fig.data = []
            for t in vz.timeline_traces(result):
                fig.add_trace(t)
            fig.layout = vz.timeline_layout(result)
