"""Resource-aware AUTO on the AI PC: a dashboard of which device runs each inference.

The scenario (:func:`run_scenario`): on a Core Ultra 7 165H, an application runs GoogLeNet-v1 on
``AUTO:GPU,NPU,CPU`` with the 2026 properties (a utilization threshold for the GPU and the NPU,
``LOW_POWER_DEVICE``), one inference every ``interval`` ms. Meanwhile another application
(:class:`ovlab.sim.workloads.BackgroundLoad`) keeps the iGPU ``gpu_load`` busy between ``load_on`` and
``load_off`` seconds, and the platform runs in the chosen power mode. AUTO reads every device's
utilization before each inference and moves when the GPU crosses its threshold.

The devices are compiled once beforehand into a cache directory (as openvino PR #38060's
"compile for all" would fill it), so a device AUTO switches to for the first time loads in a
fraction of a second instead of compiling for seconds in the middle of the plot; the cache is a
temporary directory that lives as long as the Python process and is removed when it ends.

:class:`ResourceAwareDashboard` puts the load, the thresholds and the power mode on widgets and
redraws one figure: the devices' utilization over time (lines), each inference as a mark in the
lane of the device that ran it, the GPU threshold (dashed) and the load window (dotted); the
previous run's GPU utilization stays behind it as a faint ghost.
``static_figure()`` draws the same figure as a plain ``go.Figure`` for pages read without a
kernel.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..viz.palette import DEVICE_COLORS
from .dashboard import collector_paused
from .fit import fit
from .sync import EMPTY_FIGURE, Retired, new_figure, update_in_place

PLATFORM = "core-ultra-7-165h"
DEVICE = "AUTO:GPU,NPU,CPU"
LANES = {"CPU": 104.0, "NPU": 110.0, "GPU.0": 116.0}
UTIL_NAMES = {"CPU": "CPU", "NPU": "NPU", "GPU.0": "GPU"}
_CACHE: dict[str, tempfile.TemporaryDirectory] = {}  # removed when the kernel ends


@dataclass
class ScenarioResult:
    """What one run did: the inferences, the sampled utilization and the settings."""

    inferences: pd.DataFrame  # seq, start (s), device, latency (ms)
    utilization: pd.DataFrame  # time (s), then one column per device (percent)
    settings: dict[str, Any]

    def counts(self) -> dict[str, int]:
        return {d: int(n) for d, n in self.inferences["device"].value_counts().sort_index().items()}


def _warm_cache(model, seed: int) -> str:
    """A cache directory holding the model compiled for each device (once per process)."""
    from ..runtime.core import Core

    key = model.get_friendly_name()
    if key not in _CACHE:
        folder = tempfile.TemporaryDirectory(prefix="ovlab-aipc-cache-")
        core = Core(PLATFORM, seed=seed)
        for device in ("GPU", "NPU", "CPU"):
            core.compile_model(model, device, {"CACHE_DIR": folder.name,
                                               "PERFORMANCE_HINT": "LATENCY"})
        _CACHE[key] = folder
    return _CACHE[key].name


def run_scenario(*, gpu_load: float = 0.8, gpu_threshold: int = 60, npu_threshold: int = 90,
                 power_mode: str = "performance", low_power_device: str = "NPU",
                 interval_ms: float = 33.0, duration: float = 8.0, load_on: float = 2.0,
                 load_off: float = 6.0, seed: int = 0, model: Any = None,
                 sample_ms: float = 100.0) -> ScenarioResult:
    """Run the scenario on a fresh Core with ``seed``; the same settings give the same result."""
    from ..models import zoo
    from ..runtime.async_queue import AsyncInferQueue
    from ..runtime.core import Core
    from ..workloads import BackgroundLoad

    model = model if model is not None else zoo.load("googlenet-v1", "FP16")
    cache = _warm_cache(model, seed)
    core = Core(PLATFORM, seed=seed)
    core.platform.set_power_mode(power_mode)
    config = {"CACHE_DIR": cache,
              "DEVICES_UTILIZATION_THRESHOLD": {"GPU": int(gpu_threshold),
                                                "NPU": int(npu_threshold)}}
    if low_power_device:
        config["LOW_POWER_DEVICE"] = low_power_device
    compiled = core.compile_model(model, DEVICE, config)
    load = BackgroundLoad(core, "GPU", float(gpu_load), model, config={"CACHE_DIR": cache})
    t0 = core.clock.now
    load.run(start=t0 + load_on, stop=t0 + load_off)
    samples: list[dict[str, float]] = []

    def sample() -> None:
        row = {"time": core.clock.now - t0}
        for dev in LANES:
            row[UTIL_NAMES[dev]] = core.utilization(dev, sample_ms / 1000.0)
        samples.append(row)
        if core.clock.now - t0 < duration:
            core.clock.call_at_delay(sample_ms / 1000.0, sample)

    core.clock.call_at_delay(sample_ms / 1000.0, sample)
    queue = AsyncInferQueue(compiled, 1)
    first_seq = core._seq
    n = int(duration * 1000.0 / interval_ms)
    for _ in range(n):
        queue.start_async()
        core.clock.sleep(interval_ms / 1000.0)
    queue.wait_all()
    load.stop()
    name = compiled.get_property("NETWORK_NAME")
    rows = [dict(seq=r.seq - first_seq, start=r.started - t0, device=r.device,
                 latency=(r.finished - r.submitted) * 1000.0)
            for r in core.trace.inferences
            if r.seq >= first_seq and r.model == name
            and r.worker != "" and r.request_id == 0 and _is_auto_worker(r.worker)]
    settings = dict(gpu_load=gpu_load, gpu_threshold=gpu_threshold, npu_threshold=npu_threshold,
                    power_mode=power_mode, low_power_device=low_power_device,
                    interval_ms=interval_ms, duration=duration, load_on=load_on,
                    load_off=load_off, seed=seed)
    return ScenarioResult(pd.DataFrame(rows, columns=["seq", "start", "device", "latency"]),
                          pd.DataFrame(samples), settings)


def _is_auto_worker(worker: str) -> bool:
    """AUTO's one worker per device is labelled ``<device>:0``; the load's stream is not."""
    return worker.endswith(":0")


# --- the figure ------------------------------------------------------------------------------------
def traces(result: ScenarioResult) -> list[go.Scatter]:
    util = result.utilization
    out = []
    for dev, col in UTIL_NAMES.items():
        out.append(go.Scatter(x=util["time"].to_numpy(), y=util[col].to_numpy(), mode="lines",
                              name=f"{col} utilization", line=dict(color=DEVICE_COLORS[dev],
                                                                   width=1.4),
                              hovertemplate=f"{col}: %{{y:.0f}} %% at %{{x:.2f}} s<extra></extra>"))
    inf = result.inferences
    for dev, lane in LANES.items():
        rows = inf[inf["device"] == dev]
        out.append(go.Scatter(x=rows["start"].to_numpy(), y=np.full(len(rows), lane),
                              mode="markers", name=f"inference on {dev} ({len(rows)})",
                              marker=dict(symbol="circle", size=5, color=DEVICE_COLORS[dev]),
                              customdata=rows["latency"].to_numpy(),
                              hovertemplate=f"{dev}<br>start %{{x:.3f}} s<br>latency "
                                            "%{customdata:.1f} ms<extra></extra>"))
    return out


def layout(result: ScenarioResult) -> dict[str, Any]:
    s = result.settings
    shapes = [dict(type="line", x0=0, x1=1, xref="paper", y0=s["gpu_threshold"],
                   y1=s["gpu_threshold"], line=dict(color=DEVICE_COLORS["GPU.0"], dash="dash",
                                                    width=1))]
    for t in (s["load_on"], s["load_off"]):
        shapes.append(dict(type="line", x0=t, x1=t, yref="paper", y0=0, y1=1,
                           line=dict(color="#555", dash="dot", width=1)))
    title = (f"{DEVICE}: GPU {int(round(s['gpu_load'] * 100))} % busy from {s['load_on']:g} s to "
             f"{s['load_off']:g} s, GPU threshold {s['gpu_threshold']} %, {s['power_mode']}")
    return dict(title=dict(text=title, font=dict(size=13)),
                xaxis=dict(title=dict(text="simulated time (s)"), range=[0, s["duration"]]),
                yaxis=dict(title=dict(text="utilization (%) / inference lanes"),
                           range=[0, 120]),
                shapes=shapes, height=420, template="plotly_white",
                margin=dict(l=60, r=20, t=60, b=50),
                legend=dict(orientation="h", y=-0.2))


def figure(result: ScenarioResult) -> go.Figure:
    """The devices' utilization and, in lanes above, the device of every inference."""
    return go.Figure(traces(result), layout(result))


# --- the dashboard ---------------------------------------------------------------------------------
class ResourceAwareDashboard:
    """The scenario's knobs as widgets; every change re-runs it and redraws the figure."""

    def __init__(self, *, gpu_load: float = 0.8, gpu_threshold: int = 60,
                 npu_threshold: int = 90, power_mode: str = "performance",
                 low_power_device: str = "NPU", seed: int = 0, run: bool = True) -> None:
        style = {"description_width": "220px"}
        layout_ = widgets.Layout(width="520px")
        self.seed = seed
        self.gpu_load = widgets.FloatSlider(value=gpu_load, min=0.0, max=1.0, step=0.05,
                                            description="other app's GPU load", style=style,
                                            layout=layout_, continuous_update=False,
                                            readout_format=".0%")
        self.gpu_threshold = widgets.IntSlider(value=gpu_threshold, min=0, max=100,
                                               description="GPU threshold (%)", style=style,
                                               layout=layout_, continuous_update=False)
        self.npu_threshold = widgets.IntSlider(value=npu_threshold, min=0, max=100,
                                               description="NPU threshold (%)", style=style,
                                               layout=layout_, continuous_update=False)
        self.power_mode = widgets.ToggleButtons(options=["performance", "low_power"],
                                                value=power_mode, description="power mode",
                                                style=style)
        self.low_power_device = widgets.ToggleButtons(options=["NPU", "CPU", "GPU"],
                                                      value=low_power_device,
                                                      description="LOW_POWER_DEVICE",
                                                      style=style)
        self.summary = widgets.HTML()
        # made by the first run (a FigureWidget made here and replaced by the first run's cost
        # the browser a second evaluation of plotly's widget bundle, ~1 s on 2 vCPUs)
        self.figure: Any = None
        self._retired = Retired()
        self.result: ScenarioResult | None = None
        self.previous: ScenarioResult | None = None  # drawn as a ghost behind the result
        self._model = None  # the scenario's model, loaded on the first run
        self.inert = widgets.HTML(layout=widgets.Layout(margin="0 0 0 8px"))
        self.controls = controls = [self.gpu_load, self.gpu_threshold, self.npu_threshold,
                                    self.power_mode, self.low_power_device]
        for w in controls:
            w.observe(lambda _change: self.run(), names="value")
        self.widget: widgets.VBox | None = None  # built around the first run's figure
        if run:
            self.run()
        if self.figure is None:  # not run yet
            self.figure = new_figure(EMPTY_FIGURE)
        self.widget = fit(widgets.VBox([
            widgets.HTML(f"<b>Resource-aware AUTO</b> &mdash; googlenet-v1 FP16 on "
                         f"<code>{DEVICE}</code>, platform <code>{PLATFORM}</code>, seed {seed}"),
            *controls, self.inert, self.summary, self.figure]))

    def settings(self) -> dict[str, Any]:
        return dict(gpu_load=float(self.gpu_load.value), gpu_threshold=int(self.gpu_threshold.value),
                    npu_threshold=int(self.npu_threshold.value),
                    power_mode=self.power_mode.value,
                    low_power_device=self.low_power_device.value, seed=self.seed)

    def run(self) -> ScenarioResult:
        """Run the scenario for the widgets' settings and draw it, with Python's cyclic
        collector paused as the other dashboards do (a full collection in the middle of a change
        put its p95 at 290-340 ms against a median of 85 ms in ``bench_dashboards.py``)."""
        with collector_paused():
            return self._run()

    def grey_out(self) -> None:
        """Disable the knobs the power mode makes inert, and say why (one line)."""
        low = self.power_mode.value == "low_power"
        inert = ({"GPU threshold": self.gpu_threshold, "NPU threshold": self.npu_threshold}
                 if low else {"LOW_POWER_DEVICE": self.low_power_device})
        for w in (self.gpu_threshold, self.npu_threshold, self.low_power_device):
            w.disabled = any(w is x for x in inert.values())
        why = ("low_power sends every inference to LOW_POWER_DEVICE, whatever the utilization"
               if low else "AUTO reads LOW_POWER_DEVICE only in the low_power power mode")
        self.inert.value = (f"<div class='ovlab-inert' style='color:#777;font-size:12px'>greyed "
                            f"out: {' and '.join(inert)}: no effect, {why}</div>")

    def _run(self) -> ScenarioResult:
        self.grey_out()
        if self._model is None:  # one clone for every run (each zoo.load makes a new one)
            from ..models import zoo

            self._model = zoo.load("googlenet-v1", "FP16")
        with self._model._unchanged():  # the dashboard's own model: nothing edits it here
            result = run_scenario(**self.settings(), model=self._model)
        self.previous, self.result = self.result, result
        self._draw()
        self.summary.value = self.summary_text()
        return self.result

    def spec(self) -> dict[str, Any]:
        """The live figure as plain dicts: the scenario's figure and, faintly behind it, the
        previous run's GPU utilization (the ghost), with every layout key the figure uses set,
        so that an update leaves nothing of the previous run on screen (``widgets.sync``)."""
        data = [t.to_plotly_json() for t in traces(self.result)]
        ghost = dict(type="scatter", x=[], y=[], mode="lines", name="previous run: GPU",
                     line=dict(color="#9a9a9a", width=2, dash="dot"), opacity=0.6,
                     hoverinfo="skip", showlegend=False)
        if self.previous is not None:
            util = self.previous.utilization
            p = self.previous.settings
            ghost.update(x=util["time"].to_numpy(), y=util["GPU"].to_numpy(), showlegend=True,
                         name=f"previous run: GPU utilization (load {p['gpu_load']:.0%}, "
                              f"threshold {p['gpu_threshold']} %, {p['power_mode']})")
        return {"data": [ghost] + data, "layout": {**layout(self.result), "annotations": []}}

    def _draw(self) -> None:
        spec = self.spec()
        if not update_in_place(self.figure, spec):
            old, self.figure = self.figure, new_figure(spec)
            if self.widget is None:  # never shown
                if old is not None:
                    old.close()
                return
            self.widget.children = tuple(self.figure if w is old else w
                                         for w in self.widget.children)
            self._retired.retire(old)

    def summary_text(self) -> str:
        r = self.result
        counts = ", ".join(f"{d}: {n}" for d, n in r.counts().items())
        lat = r.inferences["latency"]
        return (f"{len(r.inferences)} inferences ({counts}) &middot; latency median "
                f"{lat.median():.1f} ms, max {lat.max():.1f} ms")

    def static_figure(self) -> go.Figure:
        """A plain ``go.Figure`` of the current result, drawn like the live one."""
        return figure(self.result)

    def _repr_mimebundle_(self, **kwargs) -> dict[str, Any]:
        """The widget, and for pages without a kernel one line instead of a ``VBox(...)``."""
        bundle = self.widget._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = (f"ResourceAwareDashboard: {self.settings()}. The widgets need "
                                "a running kernel; the static figure above shows these settings.")
        return bundle
