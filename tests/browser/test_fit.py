"""Every lab as a learner first opens it, before Run All: no widget error, and every stored
figure fits its output area with the file browser open, at a 1280-px and a 1000-px window.

The stored notebooks carry each static figure as plotly's JSON, the same a run displays (nbval
checks it), with a PNG that JupyterLab's plotly renderer shows until the pointer first passes
over the figure, and each dashboard as its placeholder line. Nothing runs a kernel's code, so the pass over fifteen labs costs seconds each. The dashboards'
live figures are checked at both widths after Run All in ``test_dashboards.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_dashboards import CLIPPED, TITLES_AND_LOG_TICKS

ROOT = Path(__file__).resolve().parents[2]
NB_DIR = Path(os.environ.get("NB_DIR", ROOT / "labs"))
LABS = sorted(p.name for p in NB_DIR.glob("[0-9][0-9]-*.ipynb"))
# how many plotly figures each stored lab shows
STORED_FIGURES = {name: (NB_DIR / name).read_text(encoding="utf-8").count(
    '"application/vnd.plotly.v1+json"') for name in LABS}

# JupyterLab's plotly renderer shows a stored figure's PNG until the pointer first passes over
# it, then draws the figure from its JSON, as a run's output does at once: every figure drawn
DRAW = """() => document.querySelectorAll('.jp-RenderedPlotly .plot-img').forEach(
  i => i.dispatchEvent(new MouseEvent('mouseenter')))"""
DRAWN = """() => [...document.querySelectorAll('.jp-RenderedPlotly')].filter(
  o => o.querySelector('.main-svg')).length"""


@pytest.mark.parametrize("notebook", LABS)
def test_stored_lab_fits(lab, page, notebook):
    """Open without running: no "Error displaying widget", no console error, and no stored
    figure wider than its output area or with a cut title, at 1280 px and at 1000 px, with the
    file browser open."""
    lab.shutdown_kernels()
    page.set_viewport_size({"width": 1280, "height": 2400})
    page.goto(lab.url(f"labs/{notebook}"))
    page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=60_000)
    page.wait_for_selector(".jp-FileBrowser:not(.lm-mod-hidden)", timeout=30_000)  # it is open
    page.wait_for_timeout(300)
    stored = STORED_FIGURES[notebook]
    page.evaluate(DRAW)
    page.wait_for_function(f"() => ({DRAWN})() >= {stored}", timeout=90_000)
    for width in (1280, 1000):
        page.set_viewport_size({"width": width, "height": 1200})
        try:  # plotly.js resizes each figure to its output area
            page.wait_for_function(f"() => ({CLIPPED})().length === 0", timeout=10_000)
        except Exception:  # noqa: BLE001 - say which
            clipped = page.evaluate(CLIPPED)
            assert not clipped, (notebook, width, "figures wider than their output area",
                                 clipped)
        bad = page.evaluate(TITLES_AND_LOG_TICKS)
        assert not bad, (notebook, width, bad)
    errors = page.locator(".jp-OutputArea-output:has-text('Error displaying widget')")
    assert errors.count() == 0, (notebook, errors.first.text_content())
    assert not page.errors, (notebook, page.errors)
    console = [m for m in page.console if m.startswith("error:")]
    assert not console, (notebook, console)
