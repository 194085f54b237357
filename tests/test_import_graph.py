"""The house's layers hold: at most 2 arrows between rooms (folders, as a reader sees them) run up
the layers and no modules import each other in a circle (``tools/import_graph.py`` reads the graph
from the code)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("import_graph", ROOT / "tools" / "import_graph.py")
import_graph = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(import_graph)


def test_at_most_two_upward_arrows_and_no_circles():
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
        "__init__.py": "from .sim.runtime import core\n",
        "sim/__init__.py": "",
        "sim/graph/__init__.py": "",
        "sim/graph/node.py": "def f():\n    from .ops import make\n",  # lazy imports count
        "sim/graph/ops.py": "from .node import f\n",
        "sim/hardware/__init__.py": "",
        "sim/hardware/measure.py": "import importlib\nimportlib.import_module('ovlab.tools')\n",
        "sim/hardware/other.py": "from ...tools import run\n",  # the same arrow once more
        "sim/runtime/__init__.py": "",
        "sim/runtime/core.py": "from .. import graph\n",
        "tools/__init__.py": "from .. import get_version\n",  # the facade, from below it
    })
    edges = import_graph.graph(tmp_path)
    assert {(m, t) for m, t, _ in import_graph.upward(edges)} == {
        ("ovlab.sim.hardware.measure", "ovlab.tools"), ("ovlab.sim.hardware.other", "ovlab.tools"),
        ("ovlab.tools", "ovlab")}
    assert set(import_graph.upward_rooms(edges)) == {("sim.hardware", "tools"), ("tools", "ovlab")}
    assert import_graph.cycles(edges) == [["ovlab.sim.graph.node", "ovlab.sim.graph.ops"]]
    assert import_graph.main([str(tmp_path)]) == 1


def test_a_folder_is_one_room():
    assert import_graph.room_of("ovlab.sim.runtime.core") == "sim.runtime"
    assert import_graph.room_of("ovlab.sim.plugins.auto.schedule") == "sim.plugins"
    assert import_graph.room_of("ovlab.sim.errors") == "sim.errors"
    assert import_graph.room_of("ovlab.properties.hint") == "properties"
    assert import_graph.room_of("ovlab.tools.benchmark") == "tools"
    assert import_graph.room_of("ovlab") == "ovlab"


def test_the_root_has_openvino_shape():
    """Every module or folder at the root of ovlab/ is a public openvino module (or an
    ``opset*`` one), one of the four files, or the one folder of ovlab's own machinery."""
    openvino_shaped = {"op", "utils", "helpers", "passes", "preprocess", "properties",
                       "exceptions", "experimental", "extension", "layout_helpers", "frontend",
                       "tools", "_offline_transformations"}  # the wheel's module of that name
    own = {"__init__", "__main__", "cli", "_version"} | set(import_graph.CONTAINERS)
    root = ROOT / "ovlab"
    found = {p.stem for p in root.iterdir()
             if (p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists()))}
    strays = {name for name in found
              if name not in openvino_shaped | own and not name.startswith("opset")}
    assert not strays, f"not openvino-shaped at the root of ovlab/: {sorted(strays)}"
    assert not {p.name for p in root.iterdir() if p.is_dir()} - found - {"__pycache__"}
