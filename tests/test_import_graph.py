"""The house's layers hold: at most 3 imports run up the layers and no modules import each
other in a circle (``tools/import_graph.py`` reads the graph from the code)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("import_graph", ROOT / "tools" / "import_graph.py")
import_graph = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(import_graph)


def test_at_most_three_upward_imports_and_no_circles():
    text, n_up, n_circles = import_graph.report()
    assert n_up <= import_graph.MAX_UPWARD, text
    assert n_circles == 0, text


def test_every_module_has_a_layer():
    for module in import_graph.modules():
        import_graph.layer_of(module)  # raises for a top-level part in no layer


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / "ovlab" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_tool_finds_upward_imports_and_circles(tmp_path):
    _write(tmp_path, {
        "__init__.py": "from .runtime import core\n",
        "graph/__init__.py": "",
        "graph/node.py": "def f():\n    from .ops import make\n",  # lazy imports count
        "graph/ops.py": "from .node import f\n",
        "hardware/__init__.py": "",
        "hardware/measure.py": "import importlib\nimportlib.import_module('ovlab.tools.benchmark')\n",
        "runtime/__init__.py": "",
        "runtime/core.py": "from .. import graph\n",
        "benchmark.py": "from . import get_version\n",  # the facade, from below it
    })
    edges = import_graph.graph(tmp_path)
    assert {(m, t) for m, t, _ in import_graph.upward(edges)} == {
        ("ovlab.sim.hardware.measure", "ovlab.tools.benchmark"), ("ovlab.tools.benchmark", "ovlab")}
    assert import_graph.cycles(edges) == [["ovlab.sim.graph.node", "ovlab.sim.graph.ops"]]
    assert import_graph.main([str(tmp_path)]) == 1
