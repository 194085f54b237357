"""What a lab shows before Run All: every stored dashboard output is the friendly placeholder.

The notebooks are stored without widget state (``tools/run_labs.py``), so a stored widget view
would point at a widget model no kernel has: JupyterLab draws "Error displaying widget: model
not found" in its place wherever it trusts the notebook (review 4: labs 04 and 05). The stored
output is the placeholder line alone; running the cell puts the live widget there."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LABS = sorted((ROOT / "labs").glob("[0-9][0-9]-*.ipynb"))
VIEW = "application/vnd.jupyter.widget-view+json"


def _outputs(nb):
    for cell in nb["cells"]:
        for output in cell.get("outputs", []):
            yield cell, output


@pytest.mark.parametrize("path", LABS, ids=[p.stem for p in LABS])
def test_no_stored_widget_view_without_its_placeholder(path, tool):
    placeholder = tool("run_labs").WIDGET_TEXT
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell, output in _outputs(nb):
        data = output.get("data", {})
        assert VIEW not in data, f"{path.name}: a stored widget view (model not found before Run All)"
        text = "".join(data.get("text/plain", ""))
        if "display(dash" in "".join(cell["source"]):
            assert text == placeholder, f"{path.name}: the dashboard's stored output is {text!r}"
            assert placeholder in "".join(data.get("text/html", ""))
        # no widget repr ("VBox(children=...") stored as text either
        assert not text.startswith(("VBox(", "FigureWidget(", "HBox(")), path.name


def test_every_dashboard_lab_shows_the_placeholder():
    shown = set()
    for path in LABS:
        nb = json.loads(path.read_text(encoding="utf-8"))
        if any("[An interactive dashboard" in "".join(o.get("data", {}).get("text/plain", ""))
               for _c, o in _outputs(nb)):
            shown.add(path.stem[:2])
    assert {"04", "05", "09", "13", "14"} <= shown
