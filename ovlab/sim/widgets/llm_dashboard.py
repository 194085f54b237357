"""Lab 13's dashboard: one seeded chat stream served by continuous batching, with its knobs.

Knobs: ``max_num_batched_tokens``, ``max_num_seqs``, ``cache_size`` (GB; 0 = dynamic growth),
split-fuse, prefix caching and the arrival rate. Every change re-serves the same seeded stream on
a fresh Core (same seed, same picture; settings seen before are redrawn from memory) and redraws
the four panels of :func:`ovlab.sim.viz.llm.serving_figure`. A setting GenAI refuses (vLLM mode with
a prompt longer than the token budget) shows GenAI's error in the summary line and keeps the
last figure. ``max_num_seqs`` is read only in vLLM mode (GenAI's scheduler), which the note says.
"""

from __future__ import annotations

from collections import OrderedDict

import ipywidgets as widgets
import plotly.graph_objects as go

from ..genai import serving
from ..viz.llm import serving_spec
from .fit import fit
from .idle import IdleWork
from .sync import Retired, new_figure, redraw

DEFAULTS = dict(max_num_batched_tokens=256, max_num_seqs=256, cache_size=0,
                dynamic_split_fuse=True, enable_prefix_caching=False, rate=4.0)


class LLMServingDashboard(widgets.VBox):
    """The knobs above the figure, a summary line between them."""

    keep_runs = 16

    def __init__(self, seed: int = 0, n: int = 24, **overrides) -> None:
        self.seed, self.n = seed, n
        s = {**DEFAULTS, **overrides}
        self.w_tokens = widgets.Dropdown(options=[32, 64, 128, 256, 512, 1024, 4096],
                                         value=s["max_num_batched_tokens"],
                                         description="max_num_batched_tokens", style={"description_width": "initial"})
        self.w_seqs = widgets.Dropdown(options=[1, 2, 4, 8, 16, 256], value=s["max_num_seqs"],
                                       description="max_num_seqs", style={"description_width": "initial"})
        self.w_cache = widgets.Dropdown(options=[("0 (dynamic)", 0), ("1 GB", 1), ("2 GB", 2),
                                                 ("4 GB", 4)], value=s["cache_size"],
                                        description="cache_size")
        self.w_split = widgets.ToggleButtons(options=[("split-fuse", True), ("vLLM mode", False)],
                                             value=s["dynamic_split_fuse"],
                                             description="dynamic_split_fuse",
                                             style={"description_width": "initial"})
        self.w_prefix = widgets.Checkbox(value=s["enable_prefix_caching"],
                                         description="enable_prefix_caching")
        self.w_rate = widgets.FloatSlider(value=s["rate"], min=0.5, max=16.0, step=0.5,
                                          description="requests/s")
        self.summary = widgets.HTML()
        self.summary.add_class("ovlab-summary")
        self.note = widgets.HTML()
        self.note.add_class("ovlab-inert")
        self._runs: OrderedDict = OrderedDict()
        self.run = self._serve(self.settings())
        self.fig = new_figure(self._figure(self.run))
        self._retired = Retired()
        self.controls = [self.w_tokens, self.w_seqs, self.w_cache, self.w_split, self.w_prefix,
                         self.w_rate]
        for w in self.controls:
            w.observe(self._changed, names="value")
        self._describe()
        super().__init__([widgets.HBox([self.w_tokens, self.w_seqs, self.w_cache]),
                          self.w_split, widgets.HBox([self.w_prefix, self.w_rate]),
                          self.note, self.summary, self.fig])
        fit(self)
        self._warm = IdleWork(self._warm_one)
        self._schedule_warm()

    # --- warming the next settings ------------------------------------------------------------
    # As the latency dashboards do (Dashboard._schedule_warm, idle.IdleWork): once the kernel has been idle
    # this long after a change (or the build), the runs one click away are served and kept
    # (the toggles flipped, the rate and the budget one step either way): the same settings
    # give the same run, so a change that meets a kept run only draws. Any change cancels it.
    WARM_AFTER_S = 0.2

    def _next_settings(self) -> list[dict]:
        now = self.settings()
        out = [{**now, "dynamic_split_fuse": not now["dynamic_split_fuse"]},
               {**now, "enable_prefix_caching": not now["enable_prefix_caching"]}]
        r = self.w_rate
        out += [{**now, "rate": v} for v in (now["rate"] + r.step, now["rate"] - r.step)
                if r.min <= v <= r.max]
        options = list(self.w_tokens.options)
        i = options.index(now["max_num_batched_tokens"])
        out += [{**now, "max_num_batched_tokens": options[j]} for j in (i + 1, i - 1)
                if 0 <= j < len(options)]
        return out

    def _schedule_warm(self) -> None:
        self._warm.schedule(self._next_settings(), self.WARM_AFTER_S)

    def _warm_one(self, settings: dict) -> bool:
        """Serve one of the settings (not drawn); False if its run is kept already."""
        if tuple(sorted(settings.items())) in self._runs:
            return False
        try:
            self._serve(settings)
        except RuntimeError:  # settings GenAI refuses: a change shows the error itself
            pass
        return True

    def settings(self) -> dict:
        return dict(max_num_batched_tokens=self.w_tokens.value, max_num_seqs=self.w_seqs.value,
                    cache_size=self.w_cache.value, dynamic_split_fuse=self.w_split.value,
                    enable_prefix_caching=self.w_prefix.value, rate=self.w_rate.value)

    def _serve(self, settings: dict):
        key = tuple(sorted(settings.items()))
        if key not in self._runs:
            knobs = {k: v for k, v in settings.items() if k != "rate"}
            stream = serving.chat_stream(self.seed, self.n, settings["rate"])
            self._runs[key] = serving.serve(stream, "continuous batching", **knobs)
            while len(self._runs) > self.keep_runs:
                self._runs.popitem(last=False)
        return self._runs[key]

    def _figure(self, run) -> dict:
        prompt = max(run.prompt_tokens) if run.prompt_tokens else 1
        return serving_spec(run, serving.analytic_prefill_ms(prompt),
                            serving.analytic_step_ms(1, prompt))

    def _describe(self, error: str = "") -> None:
        s = self.run.summary()
        self.summary.value = (f"<b>error:</b> {error}" if error else
                              f"mean TTFT {s['mean TTFT ms']:.0f} ms (p95 {s['p95 TTFT ms']:.0f}), "
                              f"mean TPOT {s['mean TPOT ms']:.0f} ms, {s['steps']} steps, "
                              f"{s['preemptions']} preemptions, peak KV {s['peak KV %']:.0f} %")
        self.note.value = ("<i>max_num_seqs is read only in vLLM mode (split-fuse off): GenAI's "
                           "split-fuse scheduler ignores it.</i>" if self.w_split.value else "")
        self.w_seqs.disabled = bool(self.w_split.value)

    def _changed(self, _change=None) -> None:
        try:
            self._changed_now()
        finally:
            self._schedule_warm()

    def _changed_now(self) -> None:
        try:
            run = self._serve(self.settings())
        except RuntimeError as err:  # GenAI's own asserts (e.g. a prompt over the budget)
            self._describe(str(err).splitlines()[-1])
            # the figure stays, marked as the last settings that ran, not these
            spec = self._figure(self.run)
            title = spec["layout"]["title"]
            last = title["text"].split("<br>")[0]
            title["text"] = (f"<span style='color:#b00'>not redrawn: GenAI refused "
                             f"these settings (above); the last run:</span><br>{last}")
            self.fig = redraw(self, self.fig, spec, self._retired)
            return
        self.run = run
        self.fig = redraw(self, self.fig, self._figure(run), self._retired)
        self._describe()

    def static_figure(self) -> go.Figure:
        """The figure of the current settings, for the stored notebook."""
        return go.Figure(self._figure(self.run))
