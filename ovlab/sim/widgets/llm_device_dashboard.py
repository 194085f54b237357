"""Lab 14's dashboard: a zoo LLM, a prompt length and a number of users; that many requests
at once on each device (CPU, iGPU, NPU of the AI PC) and the recommendation that follows.

Every change serves the users again on fresh seeded Cores (``genai.device_choice.serve_users``:
continuous batching on CPU and GPU, one request after the other on the NPU; settings seen before
are redrawn from memory) and redraws :func:`ovlab.sim.viz.llm_devices.devices_figure`: the users'
mean TTFT and TPOT (queueing included) and the tokens per second of all users together. The
summary line says which device to pick and why (``genai.device_choice.recommend``). A prompt
longer than the NPU's ``MAX_PROMPT_LEN`` shows GenAI's error for the NPU in the summary and
draws the other two.
"""

from __future__ import annotations

from collections import OrderedDict

import ipywidgets as widgets
import plotly.graph_objects as go

from ..genai import device_choice
from ..viz.llm_devices import devices_spec
from .fit import fit
from .sync import Retired, new_figure, redraw

PROMPTS = (32, 128, 256, 512, 1024, 1536)  # all below every zoo model's context


class LLMDeviceDashboard(widgets.VBox):
    """The knobs above the figure, the recommendation between them."""

    keep = 24

    def __init__(self, model: str = "phi-3-mini-4k-instruct-int4-ov", prompt_tokens: int = 512,
                 users: int = 1, new_tokens: int = 64) -> None:
        self.new_tokens = new_tokens
        self.w_model = widgets.Dropdown(options=list(device_choice.MODELS), value=model,
                                        description="model", layout=dict(width="420px"))
        self.w_prompt = widgets.Dropdown(options=list(PROMPTS), value=prompt_tokens,
                                         description="prompt tokens",
                                         style={"description_width": "initial"})
        self.w_users = widgets.ToggleButtons(options=[("1 user", 1), ("2 users", 2),
                                                      ("4 users", 4), ("8 users", 8)],
                                             value=users, description="at once")
        self.summary = widgets.HTML()
        self.summary.add_class("ovlab-summary")
        self._cache: OrderedDict = OrderedDict()
        self.figures, self.error = self._measure(self.settings())
        self.fig = new_figure(self._figure())
        self._retired = Retired()
        self.controls = [self.w_model, self.w_prompt, self.w_users]
        for w in self.controls:
            w.observe(self._changed, names="value")
        self._describe()
        super().__init__([widgets.HBox([self.w_model, self.w_prompt]), self.w_users,
                          self.summary, self.fig])
        fit(self)

    def settings(self) -> tuple:
        return self.w_model.value, int(self.w_prompt.value), int(self.w_users.value)

    def _measure(self, settings: tuple):
        if settings not in self._cache:
            model, n, users = settings
            figures, errors = [], []
            for device in device_choice.DEVICES:
                try:
                    run = device_choice.serve_users(model, device, users, n, self.new_tokens)
                    figures.append(run.figures(n))
                except RuntimeError as err:
                    errors.append(f"{device}: {str(err).splitlines()[0]}")
            error = "; ".join(errors)
            self._cache[settings] = (figures, error)
            while len(self._cache) > self.keep:
                self._cache.popitem(last=False)
        return self._cache[settings]

    def _figure(self) -> dict:
        model, n, users = self.settings()
        pick = device_choice.recommend(self.figures, users)[0] if self.figures else "-"
        who = "1 user" if users == 1 else f"{users} users at once"
        short = model.removesuffix("-ov").removesuffix("-int4")
        return devices_spec(self.figures, f"{short}, {n}-token prompts, {self.new_tokens} new "
                                            f"tokens each<br>pick {pick} for {who}", users=users)

    def _describe(self) -> None:
        pick, reasons = device_choice.recommend(self.figures, int(self.w_users.value))
        text = f"<b>pick {pick}</b>: " + "; ".join(reasons)
        if self.error:
            text += f"<br><b>error:</b> {self.error}"
        self.summary.value = text

    def _changed(self, _change=None) -> None:
        self.figures, self.error = self._measure(self.settings())
        self.fig = redraw(self, self.fig, self._figure(), self._retired)
        self._describe()

    def static_figure(self) -> go.Figure:
        """The figure of the current settings, for the stored notebook."""
        return go.Figure(self._figure())
