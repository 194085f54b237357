"""The labs read without a kernel: ``jupyter nbconvert --to html`` keeps their static figures.

Every figure a lab shows is stored twice (``ovlab.sim.viz.show``): plotly JSON for JupyterLab and a
PNG for static viewers (GitHub, nbviewer, HTML exports). This test exports each lab to HTML and
checks that every figure output is there as an image.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LABS = sorted((ROOT / "labs").glob("*.ipynb"))


@pytest.mark.skipif(not LABS, reason="no labs yet")
@pytest.mark.parametrize("path", LABS, ids=[p.stem for p in LABS])
def test_html_export_shows_every_figure(path):
    from nbconvert import HTMLExporter

    nb = json.loads(path.read_text(encoding="utf-8"))
    figures = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])
               if "application/vnd.plotly.v1+json" in o.get("data", {})]
    pngs = [o for o in figures if "image/png" in o["data"]]
    assert len(pngs) == len(figures), f"{path.name}: a plotly figure without a static PNG"
    html, _ = HTMLExporter().from_filename(str(path))
    assert html.count("data:image/png;base64") >= len(pngs)
    if "Dashboard(" in path.read_text(encoding="utf-8"):
        assert pngs, f"{path.name} has a dashboard but no static figure beside it"
