"""Build the labs from their sources and execute them, so stored outputs match the code.

Each lab is written as a jupytext "percent" script in ``lab-sources/NN-topic.py`` (reviewable
diffs, no outputs; kept out of ``labs/`` so a learner's file browser shows only the notebooks). This script turns each into ``labs/NN-topic.ipynb``, executes it in a fresh
kernel from ``labs/`` (as a learner would), and saves it with its outputs, without widget state
(the plotly FigureWidget state would add megabytes; a dashboard's output is stored as its
placeholder line, ``WIDGET_TEXT``), and adds a PNG beside every plotly figure
(``ovlab.sim.viz.static.add_static_images``) for GitHub and HTML exports. ``make labs`` runs it; nbval then checks that
a fresh run gives the same outputs.

Rebuilds are stable: cell ids come from each cell's position and source and no execution
timestamps are stored, so rebuilding an unchanged lab leaves ``git diff`` empty.

    python tools/run_labs.py              # every lab
    python tools/run_labs.py 04 05        # labs whose name starts with 04 or 05
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

from ovlab.sim.viz.static import add_static_images

ROOT = Path(__file__).resolve().parents[1]
LABS = ROOT / "labs"
SOURCES = ROOT / "lab-sources"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
# what a stored widget output says instead of its raw repr ("VBox(children=(HTML(value=...")
WIDGET_TEXT = ("[An interactive dashboard: run this notebook in JupyterLab to use its widgets. "
               "The figure above shows its default settings.]")
WIDGET_HTML = ("<div class='ovlab-widget-placeholder' style='color:#555;font-style:italic'>"
               + WIDGET_TEXT + "</div>")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def build(src: Path, execute: bool = True, out_dir: Path = LABS) -> Path:
    nb = jupytext.read(src)
    nb.metadata["kernelspec"] = KERNELSPEC
    nb.metadata.pop("jupytext", None)
    nb.metadata["language_info"] = {"name": "python"}
    for index, cell in enumerate(nb.cells):
        cell.metadata.pop("lines_to_next_cell", None)
        # a stable id: the same cell at the same place keeps its id across rebuilds
        digest = hashlib.sha1(f"{cell.cell_type}\n{cell.source}".encode()).hexdigest()[:8]
        cell.id = f"c{index:03d}-{digest}"
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / (src.stem + ".ipynb")
    if execute:
        t0 = time.monotonic()
        client = NotebookClient(nb, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": str(LABS)}},
                                store_widget_state=False, record_timing=False)
        # the build's kernel records no exercise outcomes (none is answered anyway)
        saved = os.environ.get("OVLAB_RESULTS_DIR")
        os.environ["OVLAB_RESULTS_DIR"] = "off"
        try:
            # the kernel's stderr (ipykernel's TCP warning, once per kernel) kept out of the
            # build's lines, as `ovlab check --labs` does; a failing cell still raises here
            client.execute(stderr=subprocess.DEVNULL)
        finally:
            if saved is None:
                del os.environ["OVLAB_RESULTS_DIR"]
            else:
                os.environ["OVLAB_RESULTS_DIR"] = saved
        print(f"  executed {out.name} in {time.monotonic() - t0:.1f} s")
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = _coalesce_streams(cell.outputs)
            for output in cell.outputs:
                data = output.get("data", {})
                if data.pop(WIDGET_VIEW, None) is not None:
                    # widget state is not stored, so a stored view would point at a model that
                    # no kernel has: JupyterLab shows "Error displaying widget: model not found"
                    # in a trusted notebook. The stored output is the placeholder alone (what
                    # GitHub, nbconvert and an untrusted notebook showed already); running the
                    # cell puts the live widget in its place.
                    data["text/plain"] = WIDGET_TEXT
                    data["text/html"] = WIDGET_HTML
    n = add_static_images(nb)  # a PNG beside every plotly figure, for GitHub / HTML exports
    if n:
        print(f"  added {n} static image(s)")
    nbformat.write(nb, out)
    return out


def _coalesce_streams(outputs: list) -> list:
    """Join consecutive stdout (stderr) chunks: how a kernel splits a stream depends on when it
    flushes, so the stored text is kept as one piece per run of the same stream."""
    merged: list = []
    for out in outputs:
        prev = merged[-1] if merged else None
        if (out.get("output_type") == "stream" and prev is not None
                and prev.get("output_type") == "stream" and prev.get("name") == out.get("name")):
            prev["text"] = prev["text"] + out["text"]
        else:
            merged.append(out)
    return merged


def main(argv: list[str]) -> None:
    sources = sorted(SOURCES.glob("*.py"))
    if argv:
        sources = [s for s in sources if any(s.name.startswith(a) for a in argv)]
    for src in sources:
        print(f"building {src.name}")
        build(src)


if __name__ == "__main__":
    main(sys.argv[1:])
