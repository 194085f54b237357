"""The yas-sim scripts' hard-coded knobs as widgets, and which of them do nothing right now.

A knob that has no effect under the current settings must not look active: a learner who moves
``AUTO_BATCH_TIMEOUT`` under LATENCY and sees nothing change learns the wrong thing ("the timeout
does not matter"). :func:`inert_knobs` says which knobs are inert and why, in one line each; the
dashboards grey those widgets out and print the reason. The rules are OpenVINO's
(``CoreImpl::apply_auto_batching``, the BATCH plugin, the hints), asked through the public API
where they depend on the device (:func:`ovlab.sim.viz.analytic.batching`);
``tests/widgets/test_knobs.py`` checks every rule against the simulation: changing a knob it calls
inert leaves the run unchanged, request for request.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ..viz.analytic import batching

HINTS = ["LATENCY", "THROUGHPUT", "CUMULATIVE_THROUGHPUT"]
# 230 px holds the longest label ("HINT_NUM_REQUESTS (0=unset)" was cut at 200 px); the sliders'
# column is 430 px and the toggles' 400 px, so the two sit side by side in an output area of
# 848 px (a 1280-px window with the file browser open)
STYLE = {"description_width": "230px"}
WIDE = widgets.Layout(width="430px")


def inert_knobs(core, model, device: str, config: dict[str, Any]) -> dict[str, str]:
    """``{knob: why it has no effect}`` for ALLOW_AUTO_BATCHING, AUTO_BATCH_TIMEOUT and
    PERFORMANCE_HINT_NUM_REQUESTS under ``config`` on ``device``."""
    out: dict[str, str] = {}
    hint = str(config.get("PERFORMANCE_HINT", "LATENCY")).upper()
    explicit = device.strip().upper().startswith("BATCH:")
    if hint == "LATENCY":
        out["PERFORMANCE_HINT_NUM_REQUESTS"] = "only THROUGHPUT hints read the request count"
    if explicit:
        out["ALLOW_AUTO_BATCHING"] = f"{device} batches whatever ALLOW_AUTO_BATCHING says"
        return out
    b = batching(core, model, device, config)
    if b.on:
        return out
    if b.reason == "ALLOW_AUTO_BATCHING is NO":
        out["AUTO_BATCH_TIMEOUT"] = "batching is off (ALLOW_AUTO_BATCHING NO): no batch waits"
        return out
    out["ALLOW_AUTO_BATCHING"] = b.reason
    out["AUTO_BATCH_TIMEOUT"] = b.reason
    return out


class Knobs:
    """The widgets of one dashboard: the experiment's knobs and how the plot shows the run."""

    def __init__(self, *, devices: tuple[str, ...], device: str, hint: str,
                 allow_batching: bool, timeout: int, num_requests: int, interval: int,
                 niter: int, x_axis: bool) -> None:
        self.device = widgets.Combobox(value=device, options=list(devices), description="device",
                                       style={"description_width": "60px"},
                                       layout=widgets.Layout(width="400px"), ensure_option=False)
        self.hint = widgets.ToggleButtons(options=HINTS, value=hint,
                                          description="PERFORMANCE_HINT",
                                          # buttons as wide as their text, not "CUMULATIVE_TH..."
                                          style={**STYLE, "button_width": "auto"})
        self.batching = widgets.ToggleButtons(options=["YES", "NO"],
                                              value="YES" if allow_batching else "NO",
                                              description="ALLOW_AUTO_BATCHING", style=STYLE)
        self.timeout = widgets.IntSlider(value=timeout, min=0, max=2000, step=50,
                                         description="AUTO_BATCH_TIMEOUT (ms)", style=STYLE,
                                         layout=WIDE, continuous_update=False)
        self.num_requests = widgets.IntSlider(value=num_requests, min=0, max=64,
                                              description="HINT_NUM_REQUESTS (0=unset)",
                                              style=STYLE, layout=WIDE, continuous_update=False)
        self.interval = widgets.IntSlider(value=interval, min=1, max=500,
                                          description="interval (ms)", style=STYLE, layout=WIDE,
                                          continuous_update=False)
        self.niter = widgets.IntSlider(value=niter, min=10, max=max(2000, niter), step=10,
                                       description="niter", style=STYLE, layout=WIDE,
                                       continuous_update=False)
        self.inert = widgets.HTML(layout=widgets.Layout(margin="0 0 0 8px"))
        # how the run is shown (never re-runs the experiment)
        self.live = widgets.Checkbox(value=False, description="live: replay at wall time x",
                                     indent=False, layout=widgets.Layout(width="210px"))
        self.speed = widgets.FloatLogSlider(value=10.0, base=10, min=0, max=2, step=0.1,
                                            description="", layout=widgets.Layout(width="220px"),
                                            continuous_update=False)
        # the speed is a live replay's: greyed out, with the reason beside it, while live is off
        self.speed_why = widgets.HTML(layout=widgets.Layout(margin="0 8px 0 0"))
        self.live.observe(lambda change: self._live_changed(change["new"]), names="value")
        self._live_changed(self.live.value)
        self.lock_y = widgets.Checkbox(value=False, description="lock y axis", indent=False,
                                       layout=widgets.Layout(width="120px"))
        self.x_axis = widgets.ToggleButtons(options=[("iteration", "iteration"),
                                                     ("time (s)", "result")],
                                            value="iteration", description="x",
                                            style={"description_width": "20px",
                                                   "button_width": "80px"})
        # side by side sets B below A by itself where the output area is too narrow for both
        self.compare = widgets.ToggleButtons(options=["off", "overlay", "side by side"],
                                             value="off", description="compare with A",
                                             style={"description_width": "110px",
                                                    "button_width": "100px"},
                                             tooltip="A = the run on screen when you turn "
                                                     "compare on")
        self.pin = widgets.Button(description="pin this run as A",
                                  layout=widgets.Layout(width="150px"))
        self.pin_why = widgets.HTML(layout=widgets.Layout(margin="0 0 0 8px"))
        self.set_pin_enabled(False)
        self.show_x_axis = x_axis

    SPEED_OFF = "speed: for a live replay (tick live)"

    def _live_changed(self, live: bool) -> None:
        self.speed.disabled = not live
        self.speed.tooltip = "" if live else self.SPEED_OFF
        self.speed_why.value = ("" if live else
                                f"<span class='ovlab-speed-why' style='color:#777;font-size:12px'>"
                                f"{self.SPEED_OFF}</span>")

    PIN_OFF = "turn compare on to pin a run as A"

    def set_pin_enabled(self, enabled: bool) -> None:
        """Enable "pin this run as A", or disable it saying why: on the button (its tooltip)
        and beside it, since a browser may show no tooltip over a disabled button."""
        self.pin.disabled = not enabled
        self.pin.tooltip = ("keep the run on screen as A; the next runs are B" if enabled
                            else self.PIN_OFF)
        self.pin_why.value = ("" if enabled else
                              f"<span class='ovlab-why' style='color:#777;font-size:12px'>"
                              f"{self.PIN_OFF}</span>")

    @property
    def experiment(self) -> list[widgets.Widget]:
        """The knobs that change the experiment (a change re-runs it)."""
        return [self.device, self.hint, self.batching, self.timeout, self.num_requests,
                self.interval, self.niter]

    @property
    def view(self) -> list[widgets.Widget]:
        """The options that change only how the run is drawn."""
        return [self.lock_y, self.compare] + ([self.x_axis] if self.show_x_axis else [])

    def box(self) -> widgets.Widget:
        """The knobs in two columns that wrap: the device and the toggles, then the sliders
        (side by side from an output area of about 840 px: a 1280-px window with the file
        browser open; one under the other below that); then the view's options in rows that
        wrap. Stacked one a row, the knobs took 420 px, and at 1280x800 the knobs and the figure
        never shared one screen (review 4): a learner scrolled between a knob and its effect."""
        wrap = widgets.Layout(flex_flow="row wrap", align_items="flex-start")
        toggles = widgets.VBox([self.device, self.hint, self.batching],
                               layout=widgets.Layout(margin="0 8px 0 0"))
        sliders = widgets.VBox([self.timeout, self.num_requests, self.interval, self.niter])
        row1 = [self.live, self.speed, self.speed_why, self.lock_y]
        row2 = ([self.x_axis] if self.show_x_axis else []) + [self.compare, self.pin,
                                                               self.pin_why]
        return widgets.VBox([widgets.HBox([toggles, sliders], layout=wrap), self.inert,
                             widgets.HBox(row1, layout=wrap), widgets.HBox(row2, layout=wrap)])

    def config(self) -> dict[str, Any]:
        """The compile config the widgets describe (strings, as the yas-sim scripts pass them)."""
        cfg: dict[str, Any] = {"PERFORMANCE_HINT": self.hint.value,
                               "ALLOW_AUTO_BATCHING": self.batching.value,
                               "AUTO_BATCH_TIMEOUT": str(self.timeout.value)}
        if self.num_requests.value:
            cfg["PERFORMANCE_HINT_NUM_REQUESTS"] = str(self.num_requests.value)
        return cfg

    def grey_out(self, inert: dict[str, str]) -> None:
        """Disable the inert knobs and say why, one line each."""
        for key, w in (("ALLOW_AUTO_BATCHING", self.batching),
                       ("AUTO_BATCH_TIMEOUT", self.timeout),
                       ("PERFORMANCE_HINT_NUM_REQUESTS", self.num_requests)):
            w.disabled = key in inert
            w.tooltip = inert.get(key, "")
        if not inert:
            self.inert.value = ""
            return
        by_reason: dict[str, list[str]] = {}
        for key, why in inert.items():
            by_reason.setdefault(why, []).append(key)
        lines = [f"{' and '.join(keys)}: no effect, {why}" for why, keys in by_reason.items()]
        self.inert.value = ("<div class='ovlab-inert' style='color:#777;font-size:12px'>"
                            + "<br>".join(f"greyed out: {_html(line)}" for line in lines)
                            + "</div>")


def _html(text: str) -> str:
    import html

    return html.escape(text)
