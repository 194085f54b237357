"""How long headless Chromium takes to redraw a dashboard's figure: SVG markers against WebGL.

Issue 24 asks for ``scattergl`` where points are many, if it helps. This measures it on the
figures themselves, without JupyterLab or a kernel: plotly.js (the copy bundled with the plotly
package) in a blank page of Debian's Chromium driven by Playwright, the same browser and flags
as the browser tests (``--disable-gpu``: WebGL is SwiftShader, software, as on a headless
server or a classroom machine without a usable GPU driver).

For lab 04's and lab 05's dashboards, the figure specs of ``n`` successive changes of
``AUTO_BATCH_TIMEOUT`` (as the browser test clicks them) are drawn one after the other with
``Plotly.react`` (what a FigureWidget update does in the browser), once as the dashboards draw
them (``scatter``, SVG) and once with every marker trace of more than ``--min-points`` points as
``scattergl`` (the histograms' empty bins, a third variant until issue 24's last pass, are
gone: each histogram is one filled outline now). The variants take turns change by change
(each first in turn), one page each, so that they share the machine's load; printed are the first draw and the median and p95 of the redraws, from the
call to the ``plotly_afterplot`` event plus two animation frames (the pixels on screen).

Run: ``python benchmarks/bench_render.py [--changes 12] [--min-points 200]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numpy as np

import ovlab
from ovlab.sim.widgets.sync import plotly_bundle

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

DRAW = """async ([data, layout]) => {
  const gd = document.getElementById('plot');
  const t0 = performance.now();
  await Plotly.react(gd, data, layout, {responsive: false});
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now() - t0;
}"""


def specs(make, changes: int) -> list[dict]:
    """The figures (plotly JSON, template expanded) after each of ``changes`` timeout changes."""
    dash = make()
    out = []
    for value in range(1050, 1050 + 50 * changes, 50):
        dash.knobs.timeout.value = value
        out.append(plotly_bundle(dash._figure_spec(dash.full))["application/vnd.plotly.v1+json"])
    return out


def as_webgl(fig: dict, min_points: int) -> tuple[dict, int]:
    """``fig`` with its marker traces of more than ``min_points`` points drawn by WebGL."""
    fig = json.loads(json.dumps(fig))
    n = 0
    for t in fig["data"]:
        if (t.get("type", "scatter") == "scatter" and "markers" in t.get("mode", "")
                and len(t.get("x") or ()) > min_points):
            t["type"] = "scattergl"
            n += 1
    return fig, n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--changes", type=int, default=12)
    ap.add_argument("--min-points", type=int, default=200)
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    plotly_js = Path(__import__("plotly").__file__).parent / "package_data" / "plotly.min.js"
    load = os.getloadavg()
    print(f"render probe, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, load average "
          f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}; Chromium {CHROMIUM} {' '.join(ARGS)}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for name, make in (("lab 04", ovlab.widgets.LatencyDashboard),
                           ("lab 05", ovlab.widgets.TimelineDashboard)):
            figs = specs(make, a.changes + 1)
            variants = {"svg": figs, "webgl": []}
            for f in figs:
                g, n_gl = as_webgl(f, a.min_points)
                variants["webgl"].append(g)
            pages = {}
            for v in variants:
                page = browser.new_page(viewport={"width": 1200, "height": 900})
                page.set_content("<div id='plot' style='width:1100px;height:560px'></div>")
                page.add_script_tag(path=str(plotly_js))
                pages[v] = page
            first: dict[str, float] = {}
            times: dict[str, list[float]] = {v: [] for v in variants}
            order = list(pages)
            for i in range(len(figs)):
                order = order[1:] + order[:1]  # each variant first in turn: no order bias
                for v in order:
                    page = pages[v]
                    f = variants[v][i]
                    ms = page.evaluate(DRAW, [f["data"], f["layout"]])
                    if i == 0:
                        first[v] = ms
                    else:
                        times[v].append(ms)
            points = sum(len(t.get("x") or ()) for t in figs[-1]["data"])
            print(f"  {name}: {len(figs[-1]['data'])} traces, {points} points; {n_gl} marker "
                  f"traces of > {a.min_points} points as scattergl in the WebGL variant")
            for v in variants:
                t = times[v]
                print(f"    {v:11s}: first draw {first[v]:.0f} ms; {len(t)} redraws median "
                      f"{statistics.median(t):.0f} ms, p95 {np.percentile(t, 95):.0f} ms")
            for page in pages.values():
                page.close()
        browser.close()
    load = os.getloadavg()
    print(f"  load average after: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")


if __name__ == "__main__":
    main()
