"""The dashboards in a real browser: JupyterLab + headless Chromium driven by Playwright.

For every lab that builds an ovlab dashboard: open it, Run All, wait for the kernel properly,
check that the widgets and the plotly figures render and no cell shows an error, then change
AUTO_BATCH_TIMEOUT, ALLOW_AUTO_BATCHING and PERFORMANCE_HINT and check that the live figure's
data change in the DOM. The time from each change to the redrawn figure is measured and written
to ``artifacts/browser/timings.json`` (the README quotes it); screenshots go beside it.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NB_DIR = Path(os.environ.get("NB_DIR", ROOT / "labs"))
LABS = sorted(p.name for p in NB_DIR.glob("*.ipynb")
              if "Dashboard(" in p.read_text(encoding="utf-8"))

# a signature of what the live figure shows: trace count, sums of the x and y data, the title
SIGNATURE = """gd => {
  const sum = a => {
    if (!a) return 0;
    let s = 0; for (const v of Array.from(a)) { if (Number.isFinite(v)) s += v; }
    return Math.round(s * 1e6) / 1e6;
  };
  const sums = (gd.data || []).map(t => [sum(t.x), sum(t.y)]);
  const title = (gd.layout && gd.layout.title && (gd.layout.title.text || gd.layout.title)) || '';
  return JSON.stringify([(gd.data || []).length, sums, title]);
}"""


def wait_kernel_ready(page, timeout=90_000):
    """Kernel started AND connected (the execution indicator alone says idle too early)."""
    page.wait_for_function(
        """() => {
             const name = document.querySelector('.jp-Toolbar-kernelName, .jp-KernelName');
             const ind = document.querySelector('.jp-Notebook-ExecutionIndicator');
             return name && ind && name.textContent.trim() !== 'No Kernel'
                    && ind.dataset.status === 'idle';
           }""", timeout=timeout)


def run_all_cells(page):
    page.click("li.lm-MenuBar-item:has-text('Run')")
    page.click("li.lm-Menu-item:has-text('Run All Cells')")


def wait_all_cells_ran(page, timeout=180_000):
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]"
        ".every(p => /\\[\\d+\\]/.test(p.textContent))", timeout=timeout)
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=timeout)


def _changed(page, live, before: str, timeout=60_000) -> float:
    """Seconds until the live figure's signature differs from ``before``."""
    t0 = time.monotonic()
    page.wait_for_function(f"([gd, before]) => ({SIGNATURE})(gd) !== before",
                           arg=[live.element_handle(), before], timeout=timeout)
    return time.monotonic() - t0


@pytest.mark.skipif(not LABS, reason="no lab builds a dashboard yet")
@pytest.mark.parametrize("notebook", LABS)
def test_dashboard_reacts_to_widgets(lab, page, shot_dir, notebook):
    stem = notebook.removesuffix(".ipynb")
    page.goto(lab.url(f"labs/{notebook}"))
    wait_kernel_ready(page)
    run_all_cells(page)
    wait_all_cells_ran(page)

    # no warnings, and errors only from the cells tagged raises-exception, which show one on
    # purpose (JupyterLab renders both as stderr outputs)
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    texts = [errors.nth(i).text_content() for i in range(errors.count())]
    nb = json.loads((NB_DIR / notebook).read_text(encoding="utf-8"))
    expected = sum("raises-exception" in c.get("metadata", {}).get("tags", [])
                   for c in nb["cells"] if c["cell_type"] == "code")
    assert len(texts) == expected and all("Error" in t for t in texts), texts

    dash = page.locator(".widget-vbox", has=page.locator(".widget-toggle-buttons")).first
    dash.scroll_into_view_if_needed()
    live = dash.locator(".js-plotly-plot").first
    live.wait_for(state="visible", timeout=60_000)
    page.wait_for_function("gd => (gd.data || []).length > 0", arg=live.element_handle(),
                           timeout=60_000)
    # the static figure(s) drawn by jupyterlab-plotly next to the widget
    assert page.locator(".js-plotly-plot").count() >= 2
    assert dash.locator(".widget-toggle-buttons").count() >= 2  # hint and batching
    assert dash.locator(".widget-slider").count() >= 1
    page.screenshot(path=str(shot_dir / f"{stem}-1-ran.png"), full_page=False)
    dash.screenshot(path=str(shot_dir / f"{stem}-dashboard.png"))  # widgets and live plot

    timings = {}
    # 1. AUTO_BATCH_TIMEOUT: the first slider; one step right (+50 ms)
    before = live.evaluate(SIGNATURE)
    handle = dash.locator(".widget-slider .noUi-handle").first
    handle.focus()
    handle.press("ArrowRight")
    timings["AUTO_BATCH_TIMEOUT"] = _changed(page, live, before)
    # 2. ALLOW_AUTO_BATCHING -> NO
    before = live.evaluate(SIGNATURE)
    dash.get_by_role("button", name="NO", exact=True).click()
    timings["ALLOW_AUTO_BATCHING"] = _changed(page, live, before)
    # 3. PERFORMANCE_HINT -> LATENCY
    before = live.evaluate(SIGNATURE)
    dash.get_by_role("button", name="LATENCY", exact=True).click()
    timings["PERFORMANCE_HINT"] = _changed(page, live, before)

    live.scroll_into_view_if_needed()
    live.screenshot(path=str(shot_dir / f"{stem}-after-changes.png"))
    out = shot_dir / "timings.json"
    data = json.loads(out.read_text()) if out.exists() else {}
    data[stem] = {k: round(v * 1000) for k, v in timings.items()}
    out.write_text(json.dumps(data, indent=2))
    print(f"\n[timing] {stem}: widget change -> redrawn plot (ms): {data[stem]}")
    assert not page.errors, page.errors
