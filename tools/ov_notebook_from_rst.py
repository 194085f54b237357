"""Rebuild an openvino_notebooks notebook from OpenVINO's rendered copy of it.

    python tools/ov_notebook_from_rst.py RST OUT.ipynb

openvinotoolkit/openvino keeps every notebook of openvino_notebooks, executed, as
``docs/notebooks/<name>-with-output.rst``: its code cells are the ``.. code:: ipython3`` blocks,
in order, their outputs the ``parsed-literal`` and image blocks after them. The ``.ipynb`` files
themselves carry their outputs too (1.3 to 1.8 MB for auto-device and the performance-tricks
pair), more than the search tool's ``fetch`` brings here, while the ``.rst`` is about 25 kB. This
script writes a notebook of the code blocks (outputs left out) with each section title as a
markdown cell, for ``tools/run_ov_notebooks.py`` to run. Both files are third-party code: keep
them in ``tests/third_party/openvino_notebooks/notebooks/<topic>/`` (git-ignored), never commit
them.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

_UNDERLINES = set("=-~^")


def cells_from_rst(text: str) -> list[tuple[str, str]]:
    """``[("markdown" | "code", source), ...]``: section titles and ``ipython3`` code blocks."""
    lines = text.split("\n")
    cells: list[tuple[str, str]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip() == ".. code:: ipython3":
            i += 1
            block = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                block.append(lines[i])
                i += 1
            cells.append(("code", textwrap.dedent("\n".join(block)).strip("\n")))
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.strip() and not line.startswith(" ") and len(nxt) >= len(line.rstrip()) and \
                nxt.strip() and set(nxt.strip()) <= _UNDERLINES and len(set(nxt.strip())) == 1:
            level = {"=": 1, "-": 2, "~": 3, "^": 4}[nxt.strip()[0]]
            cells.append(("markdown", "#" * level + " " + line.strip()))
            i += 2
            continue
        i += 1
    return cells


def write_notebook(cells: list[tuple[str, str]], out: Path) -> None:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    for kind, source in cells:
        make = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
        nb.cells.append(make(source))
    out.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rst", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    cells = cells_from_rst(args.rst.read_text(encoding="utf-8"))
    write_notebook(cells, args.out)
    print(f"{args.out}: {sum(k == 'code' for k, _ in cells)} code cells")
    return 0


if __name__ == "__main__":
    sys.exit(main())
