"""What both dashboards share: knobs, a FigureWidget, a summary line, runs and live replays.

A change to a knob of the experiment (device, hint, batching, timeout, request count, interval,
niter) cancels a live replay in progress and re-runs the experiment on a fresh Core with the same
seed, so the same settings always give the same picture. The run it replaces becomes the faint
ghost behind the new one. Options of the view (lock the y axis, the x axis, compare mode) only
redraw. Everything drawn comes from the run's ``core.trace`` records, through
:class:`ovlab.sim.viz.runview.RunView`; the figure itself is built by the pure functions of
``ovlab.sim.viz.dashboard_figures`` and ``ovlab.sim.viz.compare``, which the tests and the static figure
stored in the notebooks call too.
"""

from __future__ import annotations

import asyncio
import gc
import html
import math
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import ipywidgets as widgets
import numpy as np
import plotly.graph_objects as go

from ..viz.analytic import Analytic
from ..viz.compare import compare_pair_specs, compare_spec, compare_text
from ..viz.runview import RunView
from .fit import fit
from .frame_clock import FrameClock
from .idle import IdleWork
from .knobs import Knobs, inert_knobs
from .live import LivePlayer
from .sync import EMPTY_FIGURE, Retired, new_figure, plain, update_in_place

# how long after a change the collector comes back when a kernel's event loop runs: long enough
# for the kernel's IOPub thread to send the change's messages first (a collection holds the GIL)
COLLECTOR_BACK_AFTER_S = 0.05
_deferred: asyncio.TimerHandle | None = None  # the pending "collector back on" of a change


def _collector_back() -> None:
    global _deferred
    _deferred = None
    gc.enable()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while one change is simulated and drawn.

    A 2,000-request run makes a few hundred thousand young objects; a full collection in the
    middle of it added 100-200 ms to about one change in ten (lab 04 in the kernel: p95 266 ms
    with the collector, 106 ms without, median 97 -> 87 ms; ``benchmarks/bench_dashboards.py``).
    A collector the user turned off stays off.

    In a kernel (an asyncio event loop runs) the collector comes back
    ``COLLECTOR_BACK_AFTER_S`` after the change, once its messages are on their way: turned back
    on at once, it collected the change's young objects before the change returned (3-5 ms each
    time, 12-13 ms every tenth change, in lab 04's change). A change that comes before that
    keeps it paused and gives it back after itself. Without an event loop (a script, a test)
    it comes back at once."""
    global _deferred
    if _deferred is not None:  # the previous change's collector is not back yet: ours now
        _deferred.cancel()
        _deferred = None
        was_on = True
    else:
        was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                gc.enable()
            else:
                _deferred = loop.call_later(COLLECTOR_BACK_AFTER_S, _collector_back)


def without_points(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` with every trace's data arrays empty (its type, axes, names and styles kept):
    a figure of the same structure (:func:`~.sync.schema`) that the browser draws at once."""
    data = [{k: ([] if isinstance(v, (list, tuple, np.ndarray)) and k in _POINT_KEYS else v)
             for k, v in trace.items()} for trace in spec["data"]]
    return {**spec, "data": data}


# a trace's per-point arrays (the rest of a trace is its style)
_POINT_KEYS = frozenset(("x", "y", "customdata", "text", "base", "width", "hovertext"))


class Dashboard:
    """Shared machinery; subclasses name the experiment and the figure."""

    devices: tuple[str, ...] = ()
    x_axis_choice = False  # offer "x: iteration | time"
    y_unit = "s"  # the latency axis's unit in the main view, which compare mode's panels keep
    keep_runs = 12  # runs kept by their settings: going back to one redraws without simulating
    # points drawn per category and panel (min-max decimation keeps every spike); compare
    # mode's panels draw as many as the main view (they drew 1,000: side by side took 2 s to
    # redraw in lab 04 under load)
    max_points = 1000

    def __init__(self, *, platform: str = "laptop", model: str = "googlenet-v1",
                 precision: str = "FP16", device: str, hint: str, allow_batching: bool = True,
                 timeout: int = 1000, interval: int = 30, niter: int, num_requests: int = 0,
                 seed: int = 0, run: bool = True, fps: float = 30.0) -> None:
        from ..models import zoo

        self.platform, self.seed = platform, seed
        self.model = zoo.load(model, precision)
        self.model_label = f"{model} {precision}"
        self.knobs = Knobs(devices=self.devices, device=device, hint=hint,
                           allow_batching=allow_batching, timeout=timeout,
                           num_requests=num_requests, interval=interval, niter=niter,
                           x_axis=self.x_axis_choice)
        self.summary = widgets.HTML(layout=widgets.Layout(margin="4px 0 0 8px", min_height="84px"))
        # made by the first run (see resource_aware: one FigureWidget less for the browser)
        self.figure: Any = None
        # side by side compare mode: A's FigureWidget and B's in a box that wraps (see
        # _draw_pair), made with the dashboard and then only updated in place
        self.pair_figures: list[Any] = [None, None]
        self._pair_cells = [widgets.Box(layout=widgets.Layout(
            flex=f"1 1 {self.PANEL_MIN_PX}px", min_width="0")) for _ in range(2)]
        # the pair is always on the page, just after the figure. Off, it is invisible and
        # takes no height, but keeps its width, so its plots are drawn (and resized by
        # plotly.js with the window) at the width they will show at; on (``PAIR_ON``), it
        # shows and the rule hides what comes just before it (the figure). The output areas
        # inside may shrink below their plots' drawn width (a flex item is never narrower
        # than its content otherwise, and plotly.js would resize a plot to that width)
        hide = widgets.HTML(
            f"<style>:has(+ .ovlab-side-by-side.{self.PAIR_ON}) {{display: none !important;}} "
            f".ovlab-side-by-side:not(.{self.PAIR_ON}) {{visibility: hidden !important; "
            "height: 0 !important; overflow: hidden !important; margin: 0 !important;} "
            ".ovlab-side-by-side .widget-output, .ovlab-side-by-side .jp-OutputArea, "
            ".ovlab-side-by-side .jp-OutputArea-child, .ovlab-side-by-side .jp-OutputArea-output"
            " {min-width: 0 !important; max-width: 100%;}</style>",
            layout=widgets.Layout(display="none"))
        self.pair = widgets.Box(
            [hide, *self._pair_cells],
            layout=widgets.Layout(display="flex", flex_flow="row wrap", width="100%",
                                  align_items="flex-start"))
        self.pair.add_class("ovlab-side-by-side")
        self.pair_specs: list[dict[str, Any] | None] = [None, None]  # what each one shows
        self._pair_retired = (Retired(), Retired())
        self.result = None  # the ExperimentResult on screen
        self.core = None  # the Core it ran on
        self.full: RunView | None = None  # the run on screen, whole
        self.shown: RunView | None = None  # the moment of it drawn last
        self.ghost: RunView | None = None  # the run before it
        self.pinned: RunView | None = None  # run A of compare mode
        self.analytic: Analytic | None = None
        self._pinned_analytic: Analytic | None = None
        self.y_range: list[float] | None = None  # the latency range drawn last (s)
        self._locked: list[float] | None = None  # "lock y axis": the range kept (s)
        self.clock = FrameClock()
        self.player = LivePlayer(self._frame, fps, on_error=self._replay_failed,
                                 ready=self.clock.caught_up)
        self._runs: OrderedDict[tuple, tuple] = OrderedDict()
        self._retired = Retired()
        self._probe = None
        self._config_override: dict[str, Any] | None = None  # what a warm-up run simulates
        # a live replay draws while it runs: it keeps the CPU
        self._warm = IdleWork(self._warm_one, ready=lambda: not self.player.running)
        # side by side's two specs, as plain lists, for the runs and view they were made for
        # (see _pair_plain): the last ones drawn, or those of the pin one click away
        self._pair_cache: tuple[tuple, tuple[dict[str, Any], dict[str, Any]]] | None = None
        for w in self.knobs.experiment:
            w.observe(self._on_change, names="value")
        for w in self.knobs.view:
            w.observe(self._on_view, names="value")
        self.knobs.live.observe(self._on_live, names="value")
        self.knobs.pin.on_click(lambda _b: self.pin())
        # the box is built after the first run, around the figure that run made: a figure
        # swapped into a box the browser is still creating could be missed under load (an
        # empty plot, seen in the browser test)
        self.widget: widgets.VBox | None = None
        if run:
            self.run()
        # the summary under the figure: the knobs and the plot share one screen at 1280x800
        # (with the summary between them, the plot started 600 px below the first knob)
        if self.full is not None and self.pair_figures[0] is None:
            # the pair's FigureWidgets, made now with the page, so that side by side only
            # updates them (see _draw_pair): the traces and axes side by side draws, without
            # their points. Drawn with the run's points in both, the two hidden plots cost the
            # browser 1.3-2.5 s of lab 04's Run All (2-vCPU Intel Xeon, 2026-12-07); side by
            # side sends the points when it is turned on
            self.pinned, self._pinned_analytic = self.full, self.analytic
            try:
                self._draw_pair(*(plain(without_points(spec))
                                  for spec in self._pair_specs(self.full)))
            finally:
                self.pinned = self._pinned_analytic = None
        if self.figure is None:  # not run yet
            self.figure = new_figure(EMPTY_FIGURE)
        self.widget = fit(widgets.VBox(
            [widgets.HTML(f"<b>{self.title()}</b> &mdash; {self.model_label} on the "
                          f"<code>{platform}</code> platform, seed {seed}"),
             self.knobs.box(), self.clock, self.figure, self.pair, self.summary]))

    # --- what subclasses provide -----------------------------------------------------------
    def title(self) -> str:
        return ""

    def _experiment(self, core):  # pragma: no cover - abstract
        raise NotImplementedError

    def _spec(self, view: RunView) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _x(self) -> str:
        return "iteration"

    def _settings(self) -> tuple:
        """What a run depends on (with the platform, model and seed, fixed per dashboard)."""
        k = self.knobs
        return (k.device.value, tuple(sorted(self.config().items())), k.interval.value,
                k.niter.value)

    # --- settings ----------------------------------------------------------------------------
    def config(self) -> dict[str, Any]:
        """The compile config the widgets describe (strings, as the seed scripts pass them)."""
        if self._config_override is not None:
            return dict(self._config_override)
        return self.knobs.config()

    # --- running -----------------------------------------------------------------------------
    def run(self) -> Any:
        """Run the current settings on a fresh Core and draw the run (live: replay it)."""
        # the dashboard's own model, which nothing edits while a change is simulated and
        # drawn: its op costs are worked out once per change (Model._unchanged)
        with collector_paused(), self.model._unchanged():
            result = self._run()
        self._schedule_warm()
        return result

    # --- warming the next steps --------------------------------------------------------------
    # After a change, once the kernel has been idle this long, the runs of the timeout slider's
    # next step either way are simulated and kept (the same settings give the same run, so a
    # kept run is the one a change would make): a learner stepping the slider, and the first
    # change after Run All, then only draw. Any change in the meantime cancels it; a change
    # that comes while one warm-up run is simulated waits for that run (one 2,000-request run,
    # ~50 ms of CPU on the 2-vCPU build machine).
    WARM_AFTER_S = 0.2

    # the idle item that makes side by side's specs for pinning the run on screen as A (see
    # _warm_one): lab 04's first pin spent 31 ms of the kernel's 44 ms on them
    PIN_AHEAD = "pin the run on screen"

    def _schedule_warm(self) -> None:
        self._warm.schedule(self._next_steps() + [self.PIN_AHEAD], self.WARM_AFTER_S)

    def _next_steps(self) -> list[dict[str, Any]]:
        """The configs one timeout step either way (none while the timeout is greyed out)."""
        t = self.knobs.timeout
        if t.disabled:
            return []
        steps = []
        for value in (t.value + t.step, t.value - t.step):
            if t.min <= value <= t.max:
                steps.append({**self.knobs.config(), "AUTO_BATCH_TIMEOUT": str(value)})
        return steps

    def _warm_one(self, cfg: dict[str, Any] | str) -> bool:
        """Simulate one next step (not drawn); False if its run is kept already. For
        ``PIN_AHEAD``, make side by side's specs for pinning the whole run on screen (while
        compare mode has no A): a pin then only sends them."""
        if cfg == self.PIN_AHEAD:
            full = self.full
            if full is None or self.pinned is not None or self._view_at(math.inf) is not full:
                return False
            self.pinned, self._pinned_analytic = full, self.analytic
            try:
                self._pair_plain(full)
            finally:
                self.pinned = self._pinned_analytic = None
            return True
        self._config_override = cfg
        try:
            if self._settings() in self._runs:
                return False
            with collector_paused(), self.model._unchanged():
                self._simulate(self._settings())
        except RuntimeError:  # these settings raise: a change shows the error itself
            pass
        finally:
            self._config_override = None
        return True

    def _simulate(self, key: tuple) -> tuple:
        """Run the settings ``config()`` describes on a fresh Core and keep the run under
        ``key``: (core, result, run view, analytic). Raises what the experiment raises."""
        from ..runtime.core import Core

        core = Core(self.platform, seed=self.seed)
        result = self._experiment(core)
        full = RunView.from_result(result, devices=list(core.platform.devices))
        analytic = Analytic.for_run(core, self.model, full)
        self._runs[key] = (core, result, full, analytic)
        while len(self._runs) > self.keep_runs:
            self._runs.popitem(last=False)
        return self._runs[key]

    def _run(self) -> Any:
        from ..runtime.core import Core

        self.player.cancel()
        if self._probe is None:  # a Core only asked about devices (which knobs are inert)
            self._probe = Core(self.platform, seed=self.seed)
        device = self.knobs.device.value
        self.knobs.grey_out(inert_knobs(self._probe, self.model, device, self.config()))
        key = self._settings()
        if key in self._runs:  # the same settings give the same run: no need to simulate
            self._runs.move_to_end(key)
            core, result, full, analytic = self._runs[key]
        else:
            try:
                core, result, full, analytic = self._simulate(key)
            except RuntimeError as exc:
                self._show_error(str(exc).strip())
                return None
        if self.full is not None:
            self.ghost = self.full
        self.core, self.result, self.full, self.analytic = core, result, full, analytic
        if self.knobs.live.value:
            self.replay()
        else:
            self._frame(math.inf)
        return result

    def replay(self, speed: float | None = None):
        """Replay the run on screen live, ``speed`` x wall time (default: the slider)."""
        full = self.full
        if full is None:
            return None
        begin = min([0.0] + [c.start for c in full.compiles])
        return self.player.start(begin, full.end, float(speed or self.knobs.speed.value))

    def _on_change(self, change) -> None:
        self.run()

    def _on_view(self, change) -> None:
        if change["owner"] is self.knobs.lock_y:
            self._locked = list(self.y_range) if change["new"] and self.y_range else None
        if change["owner"] is self.knobs.compare:
            if change["new"] != "off" and self.pinned is None:
                self.pin()
                return
            if change["new"] == "off":
                self.pinned = self._pinned_analytic = None
            self.knobs.set_pin_enabled(change["new"] != "off")
        if not self.player.running and self.full is not None:
            self._frame(self.shown.now if self.shown is not None else math.inf)

    def _on_live(self, change) -> None:
        if change["new"]:
            self.replay()
        else:
            self.player.cancel()
            self._frame(math.inf)

    def pin(self) -> None:
        """Keep the run on screen as run A of compare mode."""
        if self.full is None:
            return
        self.pinned, self._pinned_analytic = self.full, self.analytic
        self.knobs.set_pin_enabled(self.knobs.compare.value != "off")
        if self.knobs.compare.value == "off":
            self.knobs.compare.value = "overlay"  # draws
        elif not self.player.running:
            self._frame(math.inf)

    # --- drawing -----------------------------------------------------------------------------
    def _view_at(self, t: float) -> RunView:
        full = self.full
        return full if t >= full.end and full.complete else full.at(t)

    def _frame(self, t: float) -> None:
        """Draw the run as it stood at ``t`` (``inf``: whole): the figure and the summary."""
        if self.full is None:
            return
        view = self._view_at(t)
        if self._side_by_side():
            spec_a, spec = self._pair_plain(view)
            self._draw_pair(spec_a, spec)
            self._show(self.pair)
        else:
            spec = self._figure_spec(view)
            self._show(self.figure)
            if not update_in_place(self.figure, spec):
                self._new_figure(spec)
        self.shown = view
        self.y_range = self._latency_range_s(spec)
        self.summary.value = self._summary_html(view)
        self.clock.tick()

    def _side_by_side(self) -> bool:
        return self.knobs.compare.value == "side by side" and self.pinned is not None

    def _figure_spec(self, view: RunView) -> dict[str, Any]:
        """The figure as one spec (side by side: A's and B's panels in one figure, as the
        static figure for pages without a kernel draws it)."""
        if self._side_by_side():
            return compare_spec(self.pinned, view, b_full=self.full, mode="side", x=self._x(),
                                analytic_a=self._pinned_analytic, analytic_b=self.analytic,
                                y_range=self.locked_range(self.y_unit), y_unit=self.y_unit,
                                max_points=self.max_points)
        return self._spec(view)

    def _pair_specs(self, view: RunView) -> tuple[dict[str, Any], dict[str, Any]]:
        """Side by side, live: A's figure and B's (see :meth:`_show_pair`). Each panel is half
        the main view's width and draws a quarter of its points per category (min-max decimation keeps
        every spike): the browser redraws both panels on a change, and in lab 04 a timeout
        change side by side took 0.50-0.54 s on a quiet 2-vCPU machine with the main view's."""
        return compare_pair_specs(self.pinned, view, b_full=self.full, x=self._x(),
                                  analytic_a=self._pinned_analytic, analytic_b=self.analytic,
                                  y_range=self.locked_range(self.y_unit), y_unit=self.y_unit,
                                  max_points=max(self.max_points // 4, 100))

    def _pair_plain(self, view: RunView) -> tuple[dict[str, Any], dict[str, Any]]:
        """:meth:`_pair_specs` as plain lists (:func:`plain`), made once for the runs, the view
        and the settings they show (the cache holds those objects, so their ids name them)."""
        objects = (self.pinned, view, self.full, self._pinned_analytic, self.analytic)
        key = (tuple(id(o) for o in objects), self._x(), self.locked_range(self.y_unit))
        if self._pair_cache is not None and self._pair_cache[0][0] == key:
            return self._pair_cache[1]
        specs = tuple(plain(spec) for spec in self._pair_specs(view))
        self._pair_cache = ((key, objects), specs)
        return specs

    # each panel of side by side is at least this wide: two fit in a row from twice that, which
    # a 1280-px window with the file browser open gives (an output area of 848 px); at 1000 px
    # (568 px) B goes below A, both whole
    PANEL_MIN_PX = 400

    PAIR_ON = "ovlab-pair-on"  # the pair's class while side by side shows

    def _draw_pair(self, spec_a: dict[str, Any], spec_b: dict[str, Any]) -> None:
        """Side by side as two FigureWidgets in a box that wraps (CSS ``flex-wrap``): the
        browser sets B beside A when the output area has room for two panels of
        ``PANEL_MIN_PX`` and below A when it has not, and again whenever the window is
        resized, with no message to the kernel. The kernel cannot know the output area's
        width (a width reported by the browser and answered with a new figure broke a
        dashboard's first draw), and a plotly figure cannot move its panels itself.

        Both are made once, with the dashboard (:func:`new_figure`), and then updated in place
        (:func:`update_in_place`: one message of what changed; run A's, pinned, only when its
        range does). They were plotly's JSON output in an ``Output`` widget, replaced whole on
        each change: JupyterLab's renderer then built a new plot from scratch and also made a
        PNG of it (``Plotly.toImage``) on the browser's main thread; pinning A and turning
        side by side on took 2.2 s in lab 04 under load. A FigureWidget made while the page
        shows is no answer either: its first message carries no traces (plotly's constructor
        opens the comm, then sends the figure in seven more), and in the browser test a new
        one put on screen drew an empty plot, every time under load. A new one is made only
        if the traces' structure changes (it does not within a dashboard).

        B goes first: the browser draws the messages in turn, and B holds the new run (A's
        message only moves its ranges to B's); with A first, a timeout change showed B after
        A's redraw, 0.44-0.54 s in lab 04 on a quiet 2-vCPU machine."""
        for i, spec in ((1, spec_b), (0, spec_a)):  # plain lists already (_pair_plain)
            if spec == self.pair_specs[i]:
                continue
            self.pair_specs[i] = spec
            figure = self.pair_figures[i]
            if figure is not None and update_in_place(figure, spec):
                continue
            self.pair_figures[i] = new_figure(spec)
            self._pair_cells[i].children = (self.pair_figures[i],)
            if figure is not None:
                self._pair_retired[i].retire(figure)

    def _show(self, what: widgets.Widget) -> None:
        """Show ``what``: the figure, or the pair of side by side.

        Both stay in the box; the pair's class says which shows (see ``__init__``): a
        FigureWidget view the browser draws again from the widget's model showed traces
        without their names and colours (the model's copy of the figure does not follow every
        update), and a new FigureWidget may draw empty (see :meth:`_draw_pair`)."""
        on = what is self.pair
        if on != (self.PAIR_ON in self.pair._dom_classes):
            if on:
                self.pair.add_class(self.PAIR_ON)
            else:
                self.pair.remove_class(self.PAIR_ON)

    def locked_range(self, unit: str = "s") -> list[float] | None:
        """The locked latency range in ``unit`` ("s" or "ms"), or None."""
        if self._locked is None:
            return None
        return [v * (1000.0 if unit == "ms" else 1.0) for v in self._locked]

    @staticmethod
    def _latency_range_s(spec: dict[str, Any]) -> list[float]:
        """The latency axis range of a figure spec, in seconds."""
        layout = spec["layout"]
        for key in ("yaxis2", "yaxis"):
            axis = layout.get(key, {})
            if axis.get("title", {}).get("text") == "latency (ms)":
                return [v / 1000.0 for v in axis["range"]]
        return list(layout["yaxis"]["range"])

    def static_figure(self) -> go.Figure:
        """A plain ``go.Figure`` of the whole run on screen, drawn as the live one, for pages
        that are only read (show it with ``ovlab.sim.viz.show``)."""
        return go.Figure(self._figure_spec(self.full))

    # --- words -------------------------------------------------------------------------------
    def _summary_html(self, view: RunView) -> str:
        s = view.stats()
        full = self.full
        parts = []
        if not view.complete:
            parts.append(f"<b>running</b>: {view.clock_text}, {s['requests']} of "
                         f"{full.niter} requests done")
        parts.append(f"OPTIMAL_NUMBER_OF_INFER_REQUESTS {full.optimal_requests}, queue of "
                     f"{full.queue_size}")
        if s["requests"]:
            counts = view.frame["cat_code"].value_counts()
            devices = {full.categories[i].label: n for i, n in counts.items()}
            parts.append(f"latency median {s['median']:.1f} ms, p99 {s['p99']:.1f} ms, max "
                         f"{s['max']:.1f} ms")
            parts.append(f"{s['throughput']:.1f} inferences/s")
            parts.append("ran as " + ", ".join(f"{html.escape(d)}: {n}"
                                               for d, n in devices.items()))
        if view.switch is not None:
            parts.append(f"switch at {view.switch[0]:.2f} s")
        lines = [" &middot; ".join(parts)]
        if self.analytic is not None:
            versus = self.analytic.versus(view)
            if versus:
                lines.append("simulated vs analytic: " + html.escape("; ".join(versus)))
        elif view.complete:
            why = ("this run used several at once" if view.target is None
                   else f"there is none for {view.target}")
            lines.append(f"analytic model: drawn for one device (and AUTO's helper); {why}")
        if self.pinned is not None and self.knobs.compare.value != "off" and s["requests"]:
            lines.append(f"A = {html.escape(self.pinned.label)}, B = this run: "
                         + html.escape(compare_text(self.pinned, view)))
        return "<div class='ovlab-summary'>" + "<br>".join(lines) + "</div>"

    def _replay_failed(self, exc: BaseException) -> None:
        self.summary.value = (f"<span class='ovlab-error' style='color:#b00'>the live replay "
                              f"stopped: {html.escape(type(exc).__name__)}: "
                              f"{html.escape(str(exc))}</span>")

    def _new_figure(self, spec: dict[str, Any]) -> None:
        """Put a new FigureWidget showing ``spec`` in place of the current one."""
        old = self.figure
        self.figure = new_figure(spec)
        if self.widget is None:  # never shown
            if old is not None:
                old.close()
            return
        self.widget.children = tuple(self.figure if w is old else w
                                     for w in self.widget.children)
        self._retired.retire(old)

    def _show_error(self, text: str) -> None:
        self.player.cancel()
        self.summary.value = (f"<span class='ovlab-error' style='color:#b00'>"
                              f"{html.escape(text).replace(chr(10), '<br>')}</span>")
        self._new_figure({"data": [], "layout": dict(
            title=dict(text="no run: the settings raised an error (see above)"),
            template="plotly_white", height=200)})
        self._show(self.figure)

    def describe(self) -> str:
        """One line for pages without a kernel (the stored notebook's text for the widget)."""
        cfg = ", ".join(f"{k} {v}" for k, v in self.config().items())
        return (f"{type(self).__name__}: {self.knobs.device.value}, {cfg}; "
                f"{self.knobs.niter.value} requests every {self.knobs.interval.value} ms on the "
                f"{self.platform} platform, seed {self.seed}. The widgets need a running kernel; "
                f"the static figure above shows these settings.")

    def _repr_mimebundle_(self, **kwargs) -> dict[str, Any]:
        bundle = self.widget._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = self.describe()
        return bundle
