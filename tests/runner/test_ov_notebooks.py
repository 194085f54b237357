"""openvinotoolkit/openvino_notebooks notebooks on ovlab (``tools/run_ov_notebooks.py``).

The notebooks are third-party code, never committed: each test runs when its notebook is in
``tests/third_party/openvino_notebooks/`` (git-ignored) and is skipped otherwise. A cell may fail
only for a reason that is not ovlab's (a package the environment lacks, such as OpenCV or
PyTorch; a model format ovlab does not read; an earlier failed cell); with OpenCV installed,
``hello-world`` runs fully.

The notebooks that loop over inference for long (async-api, auto-device, the performance-tricks
pair: a minute to ten of wall time each) run only with ``OVLAB_SLOW_NOTEBOOKS=1``; otherwise
``tools/run_ov_notebooks.py`` is their script (figures in the README).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
spec = importlib.util.spec_from_file_location("run_ov_notebooks", ROOT / "tools" /
                                              "run_ov_notebooks.py")
tool = importlib.util.module_from_spec(spec)
sys.modules["run_ov_notebooks"] = tool
spec.loader.exec_module(tool)


FAST = ("hello-world", "openvino-api")  # seconds each; the others loop for minutes


@pytest.mark.parametrize("name", list(tool.NOTEBOOKS))
def test_notebook_fails_only_where_ovlab_is_not_the_cause(name, tmp_path):
    source = tool.DEFAULT_SOURCE / tool.NOTEBOOKS[name]
    if not source.is_file():
        pytest.skip(f"{source} is not present (third-party notebooks are never committed)")
    if name not in FAST and not os.environ.get("OVLAB_SLOW_NOTEBOOKS"):
        pytest.skip(f"{name} runs for minutes: OVLAB_SLOW_NOTEBOOKS=1, or "
                    "tools/run_ov_notebooks.py")
    result = tool.execute(tool.prepare(source, tmp_path / name))
    assert result.cells and result.cells[0].status == "ok"  # %load_ext ovlab
    assert [(c.index, c.first_line, c.error) for c in result.ovlab_failures] == []
    if name == "hello-world" and importlib.util.find_spec("cv2") is not None:
        assert result.ran_fully


def test_pip_lines_inside_a_block_keep_it_valid_and_model_cells_read_the_stand_in(tmp_path,
                                                                                  monkeypatch):
    import nbformat

    monkeypatch.setattr(tool, "MODEL_CELLS", {"hub.load(": "m = read_local_model()"})
    code = 'import platform\nif platform.system() == "Darwin":\n    %pip install -q "numpy<2"'
    assert tool._line('    %pip install -q "numpy<2"') == \
        '    pass  # [ovlab] skipped: %pip install -q "numpy<2"'
    marker = next(iter(tool.MODEL_CELLS))
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code),
                                         nbformat.v4.new_code_cell(f"import x\nm = {marker}")])
    source = tmp_path / "n.ipynb"
    nbformat.write(nb, source)
    cells = nbformat.read(tool.prepare(source, tmp_path / "work"), as_version=4).cells
    compile("\n".join(line for line in cells[1].source.split("\n")), "cell", "exec")
    assert "# import x" in cells[2].source and tool.MODEL_CELLS[marker] in cells[2].source


def test_a_model_line_is_replaced_alone_and_its_stand_in_has_yolov5s_shapes(tmp_path):
    """performance-tricks: only the PyTorch Hub line changes; the stand-in takes the shape of
    YOLOv5n's input and gives YOLOv5n's (N, 3 anchors x cells of strides 8/16/32, 85)."""
    line = ('    pytorch_model = torch.hub.load("ultralytics/yolov5", "custom", path=model_path, '
            'device="cpu", skip_validation=True)')
    replaced = tool._line(line).split("\n")
    assert replaced[0].startswith("    # [ovlab] model download replaced") and \
        replaced[0].endswith(line.strip())
    assert replaced[1] == "    " + next(iter(tool.MODEL_LINES.values()))
    if not os.environ.get("OVLAB_SLOW_NOTEBOOKS"):
        pytest.skip("the stand-in's shapes: with OVLAB_SLOW_NOTEBOOKS=1 (importing torch takes "
                    "seconds)")
    torch = pytest.importorskip("torch")
    import textwrap

    namespace: dict = {}
    exec(textwrap.dedent(tool.NOTEBOOK_UTILS).format(local_files={}), namespace)  # noqa: S102
    model = namespace["yolov5n_standin"](path=tmp_path / "model" / "yolov5n")
    assert (tmp_path / "model" / "yolov5n.pt").is_file()  # where the hub writes its download
    with torch.no_grad():
        out = model(torch.zeros(2, 3, 96, 128, dtype=torch.float64))  # cast as AutoShape does
    assert tuple(out.shape) == (2, 3 * (12 * 16 + 6 * 8 + 3 * 4), 85)


def test_a_notebook_rebuilt_from_the_docs_rendering_keeps_its_code_blocks_in_order(tmp_path):
    """tools/ov_notebook_from_rst.py: the ``ipython3`` blocks become code cells (outputs and
    prose left out), section titles markdown cells."""
    import nbformat

    spec = importlib.util.spec_from_file_location(
        "ov_notebook_from_rst", ROOT / "tools" / "ov_notebook_from_rst.py")
    rst_tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rst_tool)
    rst = ("Title of it\n===========\n\nSome prose.\n\n.. code:: ipython3\n\n"
           "    import os\n\n\n    def f():\n        return 1\n\n.. parsed-literal::\n\n"
           "    printed\n\nHardware\n--------\n\n.. code:: ipython3\n\n    %matplotlib inline\n")
    source = tmp_path / "x-with-output.rst"
    source.write_text(rst)
    out = tmp_path / "nb" / "x.ipynb"
    assert rst_tool.main([str(source), str(out)]) == 0
    cells = nbformat.read(out, as_version=4).cells
    assert [(c.cell_type, c.source) for c in cells] == [
        ("markdown", "# Title of it"), ("code", "import os\n\n\ndef f():\n    return 1"),
        ("markdown", "## Hardware"), ("code", "%matplotlib inline")]
