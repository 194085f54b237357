"""The browser's "frame drawn" acknowledgement that keeps live replays from running ahead of it.

A live replay sends the figure one update per frame. A browser that draws more slowly than the
kernel sends (a busy laptop, headless Chromium on two loaded cores, a Binder machine) queues the
updates and falls seconds behind; worse, it then handles a click on a knob only after the queue,
so the learner is locked out of a run they wanted to stop. The browser test saw both (a click
answered 13 s late). Plotly's FigureWidget cannot tell the kernel when the browser has drawn an
update, so the dashboards show this invisible widget beside the figure: after each frame the
kernel bumps ``sent``; the browser, which handles widget messages in order, answers with
``drawn = sent`` on its next animation frame, i.e. once it has applied and painted every update
sent before. The replay draws its next frame only when ``drawn`` has caught up (or after a
bounded wait). Without a browser (a script, the tests, nbval) nothing ever rendered the widget,
``alive`` stays False and nothing waits.
"""

from __future__ import annotations

import anywidget
import traitlets


class FrameClock(anywidget.AnyWidget):
    """``sent``: frames the kernel sent; ``drawn``: the last one a browser painted."""

    _esm = """
    export default {
      render({ model, el }) {
        el.style.display = "none";
        const ack = () => requestAnimationFrame(() => {
          model.set("drawn", model.get("sent"));
          model.save_changes();
        });
        model.on("change:sent", ack);
        model.set("alive", true);
        model.set("drawn", model.get("sent"));
        model.save_changes();
        return () => model.off("change:sent", ack);
      }
    };
    """
    sent = traitlets.Int(0).tag(sync=True)
    drawn = traitlets.Int(0).tag(sync=True)
    alive = traitlets.Bool(False).tag(sync=True)

    def tick(self) -> None:
        """A frame was sent."""
        self.sent += 1

    def caught_up(self) -> bool:
        """Has a browser painted every frame sent? (True when no browser shows the widget.)"""
        return not self.alive or self.drawn >= self.sent
