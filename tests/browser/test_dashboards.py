"""The dashboards in a real browser: JupyterLab + headless Chromium driven by Playwright.

For every lab that builds an ovlab dashboard: open it, Run All, wait for the kernel properly,
check that the widgets and the plotly figures render and no cell shows an error; then, in the
live figure's own data (``gd.data``, ``gd.layout``):

* points carry device and batch-status colours (AUTO's CPU helper, in a batch of 16, alone
  after the timeout), each colour with points;
* after a change the previous run is there as a ghost trace;
* under LATENCY the batching knobs are disabled, with the reason shown;
* (lab 04) a live x10 replay, started while another live run is under way, never shows the
  other run's switch line or summary, is never blank while the GPU compiles, and grows its
  summary with the run.

Everywhere: no page error, no browser console error, no entry in JupyterLab's log console
(where a traceback raised by a widget message lands, out of the learner's sight), and no figure
wider than its cell's output area, at the width of a 1280-px screen with the file browser open,
and in side by side compare mode at a wide window (B beside A) and a narrow one (B below A,
set there by the browser alone); "pin this run as A" says why it is disabled.

It measures the time from each widget change to the redrawn figure (20 changes of the timeout to
values not run before, then the hint and batching) and, for lab 04, the live x10 replay's wall
time and figure updates per second. Figures go to ``artifacts/browser/timings.json`` (the README
quotes them) with the machine's load; screenshots beside them, and with
``UPDATE_DOCS_IMAGES=1`` also to ``docs/images/`` for the README.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NB_DIR = Path(os.environ.get("NB_DIR", ROOT / "labs"))
DOCS_IMAGES = ROOT / "docs" / "images"
# the screenshots the README shows (UPDATE_DOCS_IMAGES=1 copies them to docs/images)
README_SHOTS = {"04-latency-graph-dashboard.png", "04-latency-graph-live.png",
                "05-automatic-batching-dashboard.png"}
def _labs(*names: str) -> list[str]:
    return sorted(p.name for p in NB_DIR.glob("*.ipynb")
                  if any(f"{n}(" in p.read_text(encoding="utf-8") for n in names))


LABS = _labs("LatencyDashboard", "TimelineDashboard")  # the seed experiments' dashboards
OTHER_LABS = _labs("ResourceAwareDashboard")  # lab 09
LLM_LABS = _labs("LLMServingDashboard")  # lab 13
DEVICE_LABS = _labs("LLMDeviceDashboard")  # lab 14
HELPER, BATCH, ALONE = "#17becf", "#9467bd", "#ff7f0e"  # ovlab.sim.viz.palette

# the dashboard's figure: found afresh each time, because a run whose traces differ in kind
# (other categories, compare mode) gets a new FigureWidget in place of the old one
# (the first one shown: side by side hides the dashboard's figure and shows A's and B's)
GD = ("([...root.querySelectorAll('.js-plotly-plot')].find(g => g.offsetParent !== null)"
      " || null)")
# the summary and the greyed-out line are HTML widgets whose inner div is replaced on each change
SUMMARY = "((root.querySelector('.ovlab-summary') || {}).textContent || '')"
INERT = "((root.querySelector('.ovlab-inert') || {}).textContent || '')"

# a signature of what the live figure shows: trace count, sums of the x and y data, the title
SIGNATURE = """root => {
  const gd = """ + GD + """;
  if (!gd) return '';
  const sum = a => {
    if (!a) return 0;
    let s = 0; for (const v of Array.from(a)) { if (Number.isFinite(v)) s += v; }
    return Math.round(s * 1e6) / 1e6;
  };
  const sums = (gd.data || []).map(t => [sum(t.x), sum(t.y)]);
  const title = (gd.layout && gd.layout.title && (gd.layout.title.text || gd.layout.title)) || '';
  return JSON.stringify([(gd.data || []).length, sums, title]);
}"""

# name, colour and point count of every trace
TRACES = """root => (""" + GD + """.data || []).map(t => ({
  name: t.name || '', color: (t.marker && typeof t.marker.color === 'string') ? t.marker.color : '',
  n: t.y ? Array.from(t.y).filter(v => v !== null).length : 0, type: t.type}))"""

# sample the live figure and the summary every 100 ms, and count the figure's redraws
SAMPLER = """root => {
  window.__ovlab = {samples: [], draws: []};
  const watched = new WeakSet();
  const watch = gd => {
    if (gd && !watched.has(gd)) {
      watched.add(gd);
      gd.on('plotly_afterplot', () => window.__ovlab.draws.push(performance.now()));
    }
  };
  watch(""" + GD + """);
  window.__ovlab.timer = setInterval(() => {
    const gd = """ + GD + """;
    watch(gd);
    if (!gd || !gd.layout) return;
    const points = (gd.data || []).filter(t => t.legendgroup)
      .reduce((s, t) => s + (t.y ? Array.from(t.y).length : 0), 0);
    window.__ovlab.samples.push({
      t: performance.now(), title: (gd.layout.title && gd.layout.title.text) || '',
      notes: (gd.layout.annotations || []).map(a => a.text || ''), points,
      summary: """ + SUMMARY + """});
  }, 100);
  return performance.now();
}"""


# every plotly figure in a cell's output: drawn by JupyterLab's plotly renderer (the output
# element is the figure) or a FigureWidget (a figure inside the output)
FIGURES = ("[...document.querySelectorAll('.jp-OutputArea-output.js-plotly-plot, "
           ".jp-OutputArea-output .js-plotly-plot')]")

# every plotly figure (and image) in a cell's output, wider than the room the output area has
# (beyond 1 px): the cell's output row less its prompt (an output element grows with what it
# holds, so its own box is no bound)
CLIPPED = """() => [...""" + FIGURES + """,
                    ...document.querySelectorAll('.jp-OutputArea-output img')]
  // shown: side by side's pair waits hidden (visibility: hidden, no height) until turned on
  .filter(gd => gd.offsetParent !== null && getComputedStyle(gd).visibility !== 'hidden')
  .map(gd => {
    // the cell's own output area (a figure inside an Output widget has one of its own)
    let area = gd.closest('.jp-OutputArea-output'), up;
    while (area && (up = area.parentElement && area.parentElement.closest('.jp-OutputArea-output')))
      area = up;
    const row = (area.closest('.jp-OutputArea-child') || area).getBoundingClientRect();
    const prompt = area.parentElement.querySelector(':scope > .jp-OutputPrompt');
    const out = {left: prompt ? prompt.getBoundingClientRect().right : row.left,
                 right: row.right};
    const svg = gd.tagName === 'IMG' ? gd : (gd.querySelector('.main-svg') || gd);
    const plot = svg.getBoundingClientRect();
    const title = (gd.layout && gd.layout.title && (gd.layout.title.text || gd.layout.title))
      || gd.getAttribute('alt') || '';
    return {title: String(title).slice(0, 80), plot_left: Math.round(plot.left),
            plot_right: Math.round(plot.right), output_left: Math.round(out.left),
            output_right: Math.round(out.right)};
  })
  .filter(r => r.plot_right > r.output_right + 1 || r.plot_left < r.output_left - 1)"""

# every visible figure whose title runs past its own SVG, and every log axis whose tick labels
# do not read as increasing numbers ("2, 5, 1000, 2, 5": plotly's bare minor labels)
TITLES_AND_LOG_TICKS = """() => """ + FIGURES + """
  .filter(gd => gd.offsetParent !== null && gd._fullLayout)
  .flatMap(gd => {
    const bad = [];
    const svg = (gd.querySelector('.main-svg') || gd).getBoundingClientRect();
    for (const t of gd.querySelectorAll('.gtitle')) {
      const r = t.getBoundingClientRect();
      if (r.right > svg.right + 1 || r.left < svg.left - 1)
        bad.push({title: (t.textContent || '').slice(0, 80), right: Math.round(r.right),
                  svg_right: Math.round(svg.right)});
    }
    for (const [key, axis] of Object.entries(gd._fullLayout)) {
      if (!/^[xy]axis\\d*$/.test(key) || !axis || axis.type !== 'log') continue;
      const id = axis._id;
      const labels = [...gd.querySelectorAll(`.${id}tick text`)]
        .map(t => (t.textContent || '').replace(/[\u2212]/g, '-').replace(/,/g, ''));
      // plotly's SI suffixes ("10k") read as their numbers
      const si = {k: 1e3, M: 1e6, G: 1e9, m: 1e-3, '\u03bc': 1e-6};
      const values = labels.map(l => /[kMGm\u03bc]$/.test(l) ? Number(l.slice(0, -1)) * si[l.slice(-1)]
                                                              : Number(l));
      const rising = values.every((v, i) => Number.isFinite(v) && (i === 0 || v > values[i - 1]));
      if (labels.length && !rising) bad.push({axis: key, labels});
    }
    return bad;
  })"""


def assert_titles_and_log_ticks(page, where: str) -> None:
    """No title cut at its figure's edge, no log axis labelled with bare minor digits and no
    figure wider than its output area, with the file browser open, at 1280 px and at 1000 px
    (the window shrunk after the figures were drawn: plotly.js must follow)."""
    for width in (1280, 1000):
        page.set_viewport_size({"width": width, "height": 1800})
        page.wait_for_timeout(800)  # plotly relayouts on resize
        bad = page.evaluate(TITLES_AND_LOG_TICKS)
        assert not bad, (where, width, bad)
        try:  # plotly.js resizes each figure to its output area
            page.wait_for_function(f"() => ({CLIPPED})().length === 0", timeout=10_000)
        except Exception:  # noqa: BLE001 - say which
            clipped = page.evaluate(CLIPPED)
            assert not clipped, (where, width, "figures wider than their output area", clipped)
    page.set_viewport_size({"width": 1280, "height": 1800})
    page.wait_for_timeout(500)


# side by side: where B's figure is, drawn, against A's ('beside', 'below'; '' while not drawn,
# not shown, or A's panel is not the run the summary names A: the pair's figures are on the
# page, invisible, from the start)
PAIR = """root => {
  const plots = [...root.querySelectorAll('.ovlab-side-by-side .js-plotly-plot')];
  if (plots.length !== 2 || !plots.every(gd => gd.data && gd.data.length && gd._fullLayout
                                         && getComputedStyle(gd).visibility === 'visible'
                                         && gd.getBoundingClientRect().height > 0))
    return '';
  const named = ((root.querySelector('.ovlab-summary') || {}).textContent || '')
    .match(/A = (.*?), B = this run/);
  const title = (plots[0].layout.title && plots[0].layout.title.text) || '';
  if (!named || !title.includes('A: ' + named[1])) return '';
  const [a, b] = plots.map(gd => (gd.querySelector('.main-svg') || gd).getBoundingClientRect());
  if (b.top >= a.bottom - 1) return 'below';
  if (b.left >= a.right - 1 && Math.abs(b.top - a.top) < 2) return 'beside';
  return 'overlapping';
}"""

# what side by side's B panel shows (the second figure of the pair): its traces' sums, title
PAIR_B = """root => {
  const plots = [...root.querySelectorAll('.ovlab-side-by-side .js-plotly-plot')];
  const gd = plots[1];
  if (!gd || !gd.data) return '';
  const sum = a => { let s = 0; for (const v of Array.from(a || [])) if (Number.isFinite(v)) s += v;
                     return Math.round(s * 1e6) / 1e6; };
  return JSON.stringify([gd.data.map(t => [sum(t.x), sum(t.y)]), gd.layout.title && gd.layout.title.text]);
}"""

# JupyterLab's log console badge: "N new messages, M log entries for <notebook>" (hidden: none)
LOG_BADGE = """() => {
  const item = document.querySelector('.jp-LogConsoleStatusItem');
  if (!item || item.classList.contains('lm-mod-hidden')) return '';
  const el = item.querySelector('[title]');
  return el ? el.getAttribute('title') : (item.textContent || '').trim();
}"""


def log_console_entries(page) -> list[str]:
    """The entries of JupyterLab's log console for the notebook on screen (hidden tracebacks
    from widget messages land there, not in a cell), opened to read them; [] if none."""
    badge = page.evaluate(LOG_BADGE)
    if not badge or badge.startswith("0 "):
        return []
    page.click("li.lm-MenuBar-item:has-text('View')")
    page.click("li.lm-Menu-item:has-text('Show Log Console')")
    page.wait_for_selector(".jp-LogConsolePanel", timeout=10_000)
    page.wait_for_timeout(500)
    texts = page.locator(".jp-LogConsolePanel .jp-OutputArea-output").all_text_contents()
    return [badge] + [t.strip()[:300] for t in texts] if texts else [badge]


def assert_clean(page, where: str) -> None:
    """No page error, no browser console error, no figure wider than its output area, nothing
    in JupyterLab's log console."""
    assert not page.errors, (where, page.errors)
    errors = [m for m in page.console if m.startswith("error:")]
    assert not errors, (where, errors)
    clipped = page.evaluate(CLIPPED)
    assert not clipped, (where, "figures wider than their output area", clipped)
    entries = log_console_entries(page)
    assert not entries, (where, "JupyterLab's log console", entries)


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


# Each code cell's prompt ('[ ]', '[*]' or '[n]'), its tags and the first error it shows,
# with the kernel's status: what the wait below polls and what a failure prints.
RUN_STATE = """() => {
  const ind = document.querySelector('.jp-Notebook-ExecutionIndicator');
  const cells = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')].map((c, i) => {
    const prompt = (c.querySelector('.jp-InputPrompt') || {}).textContent || '';
    const err = c.querySelector(
      '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]');
    return {i, prompt: prompt.trim(),
            error: err ? err.textContent.slice(0, 600) : ''};
  });
  return {status: ind ? ind.dataset.status : '?', cells};
}"""


def wait_all_cells_ran(page, timeout=180_000, stall_s=20.0):
    """Every code cell numbered and the kernel idle. Fails early, saying where, when the
    kernel is idle but cells are left unnumbered for ``stall_s`` (a cell raised and the
    kernel dropped the queued ones, or the Run All click did not take: then it is clicked
    once more)."""
    t0 = time.monotonic()
    idle_since = None
    clicked_again = False
    while True:
        state = page.evaluate(RUN_STATE)
        todo = [c for c in state["cells"] if not re.search(r"\[\d+\]", c["prompt"])]
        if not todo and state["status"] == "idle":
            return
        now = time.monotonic()
        running = any("*" in c["prompt"] for c in state["cells"])
        if state["status"] == "idle" and not running:
            idle_since = idle_since or now
        else:
            idle_since = None
        if idle_since is not None and now - idle_since > stall_s:
            if len(todo) == len(state["cells"]) and not clicked_again:
                run_all_cells(page)  # the first click did not start anything
                clicked_again, idle_since = True, None
                continue
            errors = [c for c in state["cells"] if c["error"]]
            raise AssertionError(
                f"Run All stalled after {now - t0:.0f} s: kernel {state['status']}, "
                f"{len(todo)} of {len(state['cells'])} cells not run (first: cell "
                f"{todo[0]['i']}, prompt {todo[0]['prompt']!r}); errors shown: {errors}")
        if now - t0 > timeout / 1000:
            raise AssertionError(f"Run All not done after {timeout / 1000:.0f} s: {state}")
        page.wait_for_timeout(500)


def _settle(page) -> None:
    """Let the kernel finish and the browser draw what it sent before the next change."""
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']")
    page.wait_for_timeout(300)


def _changed(page, root, before: str, timeout=60_000) -> float:
    """Seconds until the live figure's signature differs from ``before``."""
    t0 = time.monotonic()
    page.wait_for_function(f"([root, before]) => ({SIGNATURE})(root) !== before",
                           arg=[root, before], timeout=timeout)
    return time.monotonic() - t0


def _text_has(page, root, what: str, text: str, timeout=30_000) -> None:
    """Wait until the summary (``what=SUMMARY``) or the greyed-out line (``INERT``) has
    ``text``."""
    page.wait_for_function(f"([root, text]) => {what}.includes(text)", arg=[root, text],
                           timeout=timeout)


def _title_has(page, root, js_test: str, timeout=60_000) -> None:
    """Wait until the figure's title passes ``js_test`` (a JS expression of ``title``)."""
    page.wait_for_function(
        "root => { const gd = " + GD + "; const title = (gd && gd.layout && gd.layout.title "
        "&& gd.layout.title.text) || ''; return " + js_test + "; }", arg=root, timeout=timeout)


# slider steps of the timeout (1000 -> 2000 ms by 50): every value the slider offers above the
# default, so that the p95 of the change times is not just their largest (with 12 changes
# numpy's 95th percentile lies between the two largest; with 20, near the second largest)
STEPS = 20


def _p95(values):
    import numpy as np

    return float(np.percentile(values, 95))


def _traces(root):
    return {t["name"]: t for t in root.evaluate(TRACES)}


def _shot(locator_or_page, shot_dir, name):
    path = shot_dir / name
    locator_or_page.screenshot(path=str(path))
    if os.environ.get("UPDATE_DOCS_IMAGES") and name in README_SHOTS:
        shutil.copy(path, DOCS_IMAGES / name)


def _check_colours(root, expected: dict[str, str]) -> None:
    traces = _traces(root)
    for label, color in expected.items():
        # the points' trace (the wires and the histogram of a category carry its name too,
        # but no marker colour)
        hits = [t for name, t in traces.items() if name.startswith(label) and t["color"]]
        assert hits, (label, list(traces))
        assert hits[0]["color"] == color and hits[0]["n"] > 0, hits[0]


def assert_only_expected_errors(page, notebook: str) -> None:
    """No warnings, and errors only from the cells tagged raises-exception, which show one on
    purpose (JupyterLab renders both as stderr outputs)."""
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    texts = [errors.nth(i).text_content() for i in range(errors.count())]
    nb = json.loads((NB_DIR / notebook).read_text(encoding="utf-8"))
    expected = sum("raises-exception" in c.get("metadata", {}).get("tags", [])
                   for c in nb["cells"] if c["cell_type"] == "code")
    assert len(texts) == expected and all("Error" in t for t in texts), texts


def _open_and_run(lab, page, notebook):
    """Open the lab, Run All, check that no cell shows an unexpected error, and return the
    dashboard's locator and root element once its figure has data."""
    page.goto(lab.url(f"labs/{notebook}"))
    wait_kernel_ready(page)
    t0 = time.monotonic()
    run_all_cells(page)
    wait_all_cells_ran(page)
    # Run All's wall time as a learner meets it: every cell run and its output drawn
    RUN_ALL_S[notebook.removesuffix(".ipynb")] = round(time.monotonic() - t0, 1)
    assert_only_expected_errors(page, notebook)
    # the whole dashboard in view, at the width of a 1280-px screen with the file browser open
    page.set_viewport_size({"width": 1280, "height": 1800})
    dash = page.locator(".widget-vbox", has=page.locator(".widget-toggle-buttons")).first
    dash.scroll_into_view_if_needed()
    dash.locator(".js-plotly-plot").first.wait_for(state="visible", timeout=60_000)
    root = dash.element_handle()
    page.wait_for_function("root => { const gd = " + GD + "; return gd && gd.data && "
                           "gd.data.length > 0; }", arg=root, timeout=60_000)
    assert page.locator(".js-plotly-plot").count() >= 2  # the static figures beside it
    # every FigureWidget of the page shares one evaluation of plotly's widget bundle
    # (widgets/sync.shared_esm): one key, whichever number of widgets
    shared = page.evaluate("() => Object.keys(globalThis).filter("
                           "k => k.startsWith('__ovlab_plotly_widget_')).length")
    assert shared == 1, shared
    return dash, root


# with the dashboard's first line at the top of the notebook's view: where the first slider
# and the bottom of the live figure's plot area lie, and the view's bottom (px, in the window)
ONE_SCREEN = """root => {
  root.scrollIntoView({block: 'start'});
  const view = (root.closest('.jp-WindowedPanel-outer') || root.closest('.jp-Notebook'))
    .getBoundingClientRect();
  const slider = root.querySelector('.widget-slider').getBoundingClientRect();
  const gd = """ + GD + """;
  const size = gd._fullLayout._size;
  const plotBottom = gd.getBoundingClientRect().top + size.t + size.h;
  return {view_top: Math.round(view.top), view_bottom: Math.round(view.bottom),
          slider_top: Math.round(slider.top), plot_bottom: Math.round(plotBottom)};
}"""


def assert_knobs_and_plot_share_one_screen(page, root, where: str) -> None:
    """At a 1280x800 window with the file browser open, the first knob and the whole plot
    area fit in the notebook's view at once (review 4: the learner scrolled between a knob and
    its effect)."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(800)  # plotly relayouts on resize
    at = page.evaluate(ONE_SCREEN, root)
    assert at["view_top"] <= at["slider_top"] and at["plot_bottom"] <= at["view_bottom"], \
        (where, at)
    page.set_viewport_size({"width": 1280, "height": 1800})
    page.wait_for_timeout(500)
    root.evaluate("root => root.scrollIntoView({block: 'start'})")
# each lab's Run All wall time (s), from the click to the last cell run, its kernel started
RUN_ALL_S: dict[str, float] = {}


def _save_timings(stem: str, timings: dict, shot_dir) -> None:
    out = shot_dir / "timings.json"
    data = json.loads(out.read_text()) if out.exists() else {}
    data[stem] = {"widget change -> redrawn figure (ms)": timings,
                  "Run All wall time (s)": RUN_ALL_S.get(stem),
                  "load average at the end": [round(v, 1) for v in os.getloadavg()],
                  "cores": os.cpu_count(), "date": time.strftime("%Y-%m-%d")}
    out.write_text(json.dumps(data, indent=2))
    if os.environ.get("UPDATE_DOCS_IMAGES"):
        shutil.copy(out, DOCS_IMAGES / "browser-timings.json")
    print(f"\n[timing] {stem}: {json.dumps(data[stem])}")


@pytest.mark.skipif(not LABS, reason="no lab builds a dashboard yet")
@pytest.mark.parametrize("notebook", LABS)
def test_dashboard(lab, page, shot_dir, notebook):
    stem = notebook.removesuffix(".ipynb")
    dash, root = _open_and_run(lab, page, notebook)

    # 1. points carry device and batch-status colours
    colours = {"GPU.0 · in a batch of 16": BATCH, "GPU.0 · alone after the timeout": ALONE}
    if stem.startswith("04"):
        colours["CPU · AUTO's CPU helper"] = HELPER
    _check_colours(root, colours)
    _shot(dash, shot_dir, f"{stem}-dashboard.png")
    assert_knobs_and_plot_share_one_screen(page, root, stem)

    # 2. widget change -> redrawn figure, at default settings, to timeouts not run before
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']")
    page.wait_for_timeout(1000)  # nothing left to draw from Run All
    changes = []
    handle = dash.locator(".widget-slider .noUi-handle").first
    for i in range(STEPS):
        _settle(page)
        before = root.evaluate(SIGNATURE)
        handle.focus()
        handle.press("ArrowRight")
        changes.append(_changed(page, root, before))
        if i == 0:  # 3. the previous run stays as a ghost
            page.wait_for_function(
                "root => " + GD + ".data.some(t => (t.name || '').startsWith('previous run: ') "
                "&& (t.name || '').includes('timeout 1000 ms') && t.y && t.y.length > 0)",
                arg=root, timeout=30_000)
            _shot(dash, shot_dir, f"{stem}-ghost.png")
    timings = {f"AUTO_BATCH_TIMEOUT ({STEPS} new values)": {
        "median": round(sorted(changes)[len(changes) // 2] * 1000),
        "p95": round(_p95(changes) * 1000), "max": round(max(changes) * 1000),
        "first after Run All": round(changes[0] * 1000)}}

    # 4. under LATENCY the batching knobs do nothing: disabled, with the reason
    _settle(page)
    before = root.evaluate(SIGNATURE)
    dash.get_by_role("button", name="LATENCY", exact=True).click()
    timings["PERFORMANCE_HINT -> LATENCY"] = round(_changed(page, root, before) * 1000)
    _text_has(page, root, INERT, "LATENCY never batches")
    assert dash.get_by_role("button", name="NO", exact=True).is_disabled()
    assert dash.get_by_role("button", name="YES", exact=True).is_disabled()
    assert dash.locator(".widget-slider").first.locator("[disabled]").count() >= 1
    _shot(dash, shot_dir, f"{stem}-latency-knobs-greyed.png")
    _settle(page)
    before = root.evaluate(SIGNATURE)
    dash.get_by_role("button", name="THROUGHPUT", exact=True).click()
    timings["PERFORMANCE_HINT -> THROUGHPUT (run before)"] = round(
        _changed(page, root, before) * 1000)
    assert not dash.get_by_role("button", name="NO", exact=True).is_disabled()
    _settle(page)
    before = root.evaluate(SIGNATURE)
    dash.get_by_role("button", name="NO", exact=True).click()
    timings["ALLOW_AUTO_BATCHING -> NO"] = round(_changed(page, root, before) * 1000)
    _text_has(page, root, INERT, "AUTO_BATCH_TIMEOUT: no effect")
    dash.get_by_role("button", name="YES", exact=True).click()
    page.wait_for_function("el => !el.querySelector('[disabled]')",  # the timeout is back
                           arg=dash.locator(".widget-slider").first.element_handle(),
                           timeout=30_000)
    for _ in range(STEPS):  # back to the default timeout
        handle.focus()
        handle.press("ArrowLeft")
    readout = dash.locator(".widget-slider .widget-readout").first
    page.wait_for_function("el => el.textContent.trim() === '1000'",
                           arg=readout.element_handle(), timeout=30_000)
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']")
    page.wait_for_timeout(500)

    assert_clean(page, f"{stem} after the knob changes")
    assert_titles_and_log_ticks(page, stem)
    timings.update(_compare_modes(page, dash, root, shot_dir, stem))

    if stem.startswith("04"):
        timings["live x10"] = _live_run(page, dash, root, shot_dir, stem)

    _save_timings(stem, timings, shot_dir)
    assert_clean(page, f"{stem} at the end")


def _compare_modes(page, dash, root, shot_dir, stem) -> dict:
    """"pin this run as A" is disabled until compare is on, and says why; side by side puts
    B beside A in a wide window and below it in a narrow one, the browser alone (the kernel is
    not asked), and fits the output area at every width (checked by assert_clean); back to
    off."""
    pin = dash.get_by_role("button", name="pin this run as A", exact=True)
    assert pin.is_disabled()
    assert "compare on" in (pin.get_attribute("title") or ""), pin.get_attribute("title")
    assert "turn compare on" in dash.locator(".ovlab-why").first.text_content()
    timings: dict = {}
    _settle(page)
    before = root.evaluate(SIGNATURE)
    t0 = time.monotonic()
    dash.get_by_role("button", name="side by side", exact=True).click()
    _changed(page, root, before)
    # side by side puts A's figure and B's in place of the figure: wait for both drawn
    page.wait_for_function(f"root => ({PAIR})(root) !== ''", arg=root, timeout=30_000)
    timings["compare: side by side (pins A)"] = round((time.monotonic() - t0) * 1000)
    # a timeout change side by side: B's panel redrawn (A's stays)
    handle = dash.locator(".widget-slider .noUi-handle").first
    for i in range(3):
        _settle(page)
        before_b = root.evaluate(PAIR_B)
        t0 = time.monotonic()
        handle.focus()
        handle.press("ArrowLeft" if i % 2 else "ArrowRight")
        page.wait_for_function(f"([root, before]) => ({PAIR_B})(root) !== before",
                               arg=[root, before_b], timeout=60_000)
        timings[f"compare: side by side, timeout change {i + 1}"] = round(
            (time.monotonic() - t0) * 1000)
    assert not pin.is_disabled()
    page.wait_for_function("el => !el.querySelector('.ovlab-why')",  # the reason is gone
                           arg=dash.element_handle(), timeout=10_000)
    _settle(page)
    page.wait_for_timeout(500)
    _shot(dash, shot_dir, f"{stem}-side-by-side.png")
    assert_clean(page, f"{stem} side by side")
    # the window resized: the browser alone sets B beside A, or below it, and nothing is cut
    for width, where in ((1900, "beside"), (1000, "below"), (1280, "beside")):
        page.set_viewport_size({"width": width, "height": 1800})
        if where is not None:
            page.wait_for_function(f"root => ({PAIR})(root) === '{where}'", arg=root,
                                   timeout=30_000)
        page.wait_for_function(f"() => ({CLIPPED})().length === 0", timeout=30_000)
        page.wait_for_timeout(500)
        if where is not None:
            assert root.evaluate(PAIR) == where
            _shot(dash, shot_dir, f"{stem}-side-by-side-{width}px.png")
        assert_clean(page, f"{stem} side by side, window {width} px wide")
    _settle(page)
    before = root.evaluate(SIGNATURE)
    t0 = time.monotonic()
    dash.get_by_role("button", name="overlay", exact=True).click()  # B over a faint A
    page.wait_for_function(
        "root => { const gd = " + GD + "; return gd && gd.data.some(t => "
        "(t.name || '').startsWith('A: ') && t.y && t.y.length > 0); }", arg=root,
        timeout=30_000)
    timings["compare: overlay"] = round((time.monotonic() - t0) * 1000)
    _settle(page)
    before = root.evaluate(SIGNATURE)
    handle.focus()
    t0 = time.monotonic()
    handle.press("ArrowRight")
    timings["compare: overlay, timeout change"] = round(_changed(page, root, before) * 1000)
    _settle(page)
    before = root.evaluate(SIGNATURE)
    t0 = time.monotonic()
    dash.get_by_role("button", name="off", exact=True).click()
    _changed(page, root, before)
    timings["compare: off"] = round((time.monotonic() - t0) * 1000)
    _settle(page)
    assert pin.is_disabled()
    dash.locator(".ovlab-why").first.wait_for(timeout=10_000)  # and says why again
    return timings


@pytest.mark.skipif(not OTHER_LABS, reason="no lab builds the resource-aware dashboard")
@pytest.mark.parametrize("notebook", OTHER_LABS)
def test_resource_aware_dashboard(lab, page, shot_dir, notebook):
    """Lab 09: a change re-runs the scenario and redraws; the previous run stays as a ghost."""
    stem = notebook.removesuffix(".ipynb")
    dash, root = _open_and_run(lab, page, notebook)
    _shot(dash, shot_dir, f"{stem}-dashboard.png")
    page.wait_for_timeout(1000)
    changes = []
    handle = dash.locator(".widget-slider .noUi-handle").first  # the other app's GPU load
    for i in range(6):
        _settle(page)
        before = root.evaluate(SIGNATURE)
        handle.focus()
        handle.press("ArrowLeft")
        changes.append(_changed(page, root, before))
        if i == 0:
            page.wait_for_function(
                "root => " + GD + ".data.some(t => (t.name || '').startsWith('previous run: ') "
                "&& t.y && t.y.length > 0)", arg=root, timeout=30_000)
    _shot(dash, shot_dir, f"{stem}-ghost.png")
    _save_timings(stem, {"other app's GPU load (6 changes)": {
        "median": round(sorted(changes)[len(changes) // 2] * 1000),
        "p95": round(_p95(changes) * 1000), "max": round(max(changes) * 1000),
        "first after Run All": round(changes[0] * 1000)}}, shot_dir)
    assert_clean(page, stem)
    assert_titles_and_log_ticks(page, stem)


@pytest.mark.skipif(not LLM_LABS, reason="no lab builds the LLM serving dashboard")
@pytest.mark.parametrize("notebook", LLM_LABS)
def test_llm_serving_dashboard(lab, page, shot_dir, notebook):
    """Lab 13: vLLM mode greys out nothing and redraws; prefix caching redraws; split-fuse
    greys out max_num_seqs with the reason."""
    stem = notebook.removesuffix(".ipynb")
    dash, root = _open_and_run(lab, page, notebook)
    _shot(dash, shot_dir, f"{stem}-dashboard.png")
    _text_has(page, root, INERT, "max_num_seqs is read only in vLLM mode")
    changes = []
    for step in ("vllm", "prefix", "split"):
        _settle(page)
        before = root.evaluate(SIGNATURE)
        if step == "vllm":
            dash.get_by_role("button", name="vLLM mode", exact=True).click()
        elif step == "prefix":
            dash.locator("label:has-text('enable_prefix_caching') input").check()
        else:
            dash.get_by_role("button", name="split-fuse", exact=True).click()
        changes.append(_changed(page, root, before))
        if step == "vllm":
            page.wait_for_function(f"root => !{INERT}.includes('max_num_seqs')", arg=root,
                                   timeout=30_000)
    _text_has(page, root, SUMMARY, "mean TTFT")
    _save_timings(stem, {"knob changes (3)": {
        "median": round(sorted(changes)[1] * 1000), "max": round(max(changes) * 1000),
        "first after Run All": round(changes[0] * 1000)}}, shot_dir)
    assert_clean(page, stem)
    assert_titles_and_log_ticks(page, stem)


@pytest.mark.skipif(not DEVICE_LABS, reason="no lab builds the LLM device dashboard")
@pytest.mark.parametrize("notebook", DEVICE_LABS)
def test_llm_device_dashboard(lab, page, shot_dir, notebook):
    """Lab 14: a longer prompt redraws (the NPU's TTFT stays, the others grow); four users
    change the pick's reasons; a prompt over MAX_PROMPT_LEN shows GenAI's error for the NPU."""
    stem = notebook.removesuffix(".ipynb")
    dash, root = _open_and_run(lab, page, notebook)
    _shot(dash, shot_dir, f"{stem}-dashboard.png")
    _text_has(page, root, SUMMARY, "pick GPU")
    changes = []
    for step in ("1024", "4 users", "1536"):
        _settle(page)
        before = root.evaluate(SIGNATURE)
        if step == "4 users":
            dash.get_by_role("button", name="4 users", exact=True).click()
        else:
            dash.locator("select").nth(1).select_option(step)
        changes.append(_changed(page, root, before))
    _text_has(page, root, SUMMARY, "4 users at once")
    _text_has(page, root, SUMMARY, "error: NPU: Stateful LLM pipeline on NPU")
    _save_timings(stem, {"knob changes (3)": {
        "median": round(sorted(changes)[1] * 1000), "max": round(max(changes) * 1000),
        "first after Run All": round(changes[0] * 1000)}}, shot_dir)
    assert_clean(page, stem)
    assert_titles_and_log_ticks(page, stem)


def _live_run(page, dash, root, shot_dir, stem) -> dict:
    """Start a live LATENCY replay, then switch to THROUGHPUT while it runs: sample every
    100 ms what the figure and the summary show until the THROUGHPUT replay ends."""
    dash.get_by_role("button", name="LATENCY", exact=True).click()
    _text_has(page, root, SUMMARY, "switch at 7.15 s")
    dash.locator("label:has-text('live: replay') input").check()
    _title_has(page, root, "title.includes('LATENCY · running')", 10_000)
    page.wait_for_timeout(1500)  # the LATENCY replay is under way (~t = 15 s)
    t_click = page.evaluate(SAMPLER, root)
    dash.get_by_role("button", name="THROUGHPUT", exact=True).click()
    # the THROUGHPUT replay has begun (on a loaded machine the browser may first draw it after
    # the GPU's compile, or even at its end: the sampler's record below checks every frame)
    _title_has(page, root, "title.includes('AUTO THROUGHPUT')", 30_000)
    _shot(dash, shot_dir, f"{stem}-live.png")
    _title_has(page, root, "title.includes('THROUGHPUT') && !title.includes('running')")
    page.wait_for_timeout(300)
    rec = page.evaluate("() => { clearInterval(window.__ovlab.timer); return window.__ovlab; }")
    samples = rec["samples"]
    tput = [i for i, s in enumerate(samples) if "AUTO THROUGHPUT" in s["title"]]
    assert tput, "the THROUGHPUT replay never showed"
    first = tput[0]
    assert all("AUTO THROUGHPUT" in s["title"] for s in samples[first:]), \
        "the cancelled LATENCY replay drew after the THROUGHPUT one began"
    done_counts = []
    for k, s in enumerate(samples[first:]):
        switch = [n for n in s["notes"] if n.startswith("switch")]
        assert "7.15" not in " ".join(switch), s  # never the other run's switch line
        if "running: t = " in s["title"]:
            t = float(s["title"].split("running: t = ")[1].split(" s")[0])
            if abs(t - 14.51) > 0.05:  # the title rounds t to 0.1 s; the switch is at 14.51 s
                assert (switch == []) == (t < 14.51), s  # the switch only once it happened
            assert s["points"] > 0 or any("compiles" in n for n in s["notes"]), \
                "a blank plot while the GPU compiles"
            if "requests done" in s["summary"] and k > 0:  # the summary may lag one frame
                done_counts.append(int(s["summary"].split("s, ")[1].split(" of")[0]))
    for s in samples[first + 1:]:  # the summary follows the figure within one frame
        assert "OPTIMAL_NUMBER_OF_INFER_REQUESTS 1," not in s["summary"], s
        assert "switch at 7.15" not in s["summary"], s
    assert done_counts and done_counts == sorted(done_counts) and done_counts[-1] > 1000
    assert "switch to GPU.0 (t = 14.51 s)" in samples[-1]["notes"]
    draws = [d for d in rec["draws"] if d >= t_click]
    wall = (draws[-1] - t_click) / 1000.0
    per_second = max(sum(1 for d in draws if t <= d < t + 1000) for t in draws)
    return {"wall s (click -> last frame)": round(wall, 2), "figure redraws": len(draws),
            "redraws per s": round(len(draws) / wall, 1), "most redraws in 1 s": per_second}
