"""The package's import graph, read from the code: imports that run up the layers, and circles.

Every ``import``/``from ... import`` in ``ovlab/`` counts, also those inside functions (a lazy
import is still a dependency; it only moves the moment it is paid), and so do
``importlib.import_module("literal")`` and ``__import__("literal")``. An edge goes from a
module to the module it names (``from .x import name`` -> ``x``; ``from . import sub`` -> the
submodule ``sub`` if there is one, else the package).

Layers, lowest first, as docs/architecture.md draws them. A module lives in a *room*: the
module or folder at the root of ``ovlab/`` (``ovlab.properties.hint`` -> ``properties``) or, for
ovlab's own machinery, at the root of ``ovlab/sim/`` (``ovlab.sim.runtime.core`` ->
``sim.runtime``), as a reader of the file tree sees it; each room belongs to one layer. An import
of a higher layer is an *upward import*, and the upward imports between two rooms are one
*upward arrow* (the budget counts arrows). The facade, ``ovlab/__init__.py``, re-exports every
layer below it; only the labs' answer keys and the command line sit above it. An import of the
facade from a lower layer is an upward import, and the circle it closes through the facade is
reported as that upward import, not once more as a circle (circles are searched among the
modules without the facade).

    python tools/import_graph.py          # the report; exit 1 if over the budget
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "ovlab"

#: lowest first; each a (layer, rooms) pair. A room is a module or folder at the root of
#: ``ovlab/`` or of ``ovlab/sim/`` (ovlab's own machinery), named by its path below ``ovlab``.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("_version", "extension", "exceptions", "sim", "sim.errors", "sim.overloads",
              "sim.libc")),
    ("graph", ("sim.graph", "opset", "opset13", "op", "helpers", "layout_helpers", "properties",
               "preprocess", "sim.models")),
    ("frontends", ("sim.frontends", "frontend", "passes", "_offline_transformations")),  # passes: Serialize writes IR
    ("hardware", ("sim.hardware",)),
    ("runtime", ("sim.runtime", "sim.trace", "utils", "experimental")),
    ("plugins", ("sim.plugins",)),
    ("genai", ("sim.genai",)),  # OpenVINO GenAI beside the runtime: pipelines on a Core
    ("tools", ("sim.runner", "tools", "sim.experiments", "sim.workloads", "sim.labtools")),
    ("calibration", ("sim.calibration",)),
    ("viz", ("sim.viz",)),
    ("widgets", ("sim.widgets",)),
    ("facade", ()),  # ovlab/__init__.py: the public API, re-exported from every layer below
    ("labs", ("sim.exercises", "cli", "__main__", "sim.preclass")),  # code that uses the public API, as learners do
]
#: folders that are not rooms themselves but hold rooms (ovlab's own machinery)
CONTAINERS = ("sim",)
FACADE = PACKAGE

#: what the unit test allows (tests/test_import_graph.py)
MAX_UPWARD = 2


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package."""
    found = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """(imported module, line) for every import of the package in one file."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == PACKAGE:
                    target = _resolve(alias.name, known)
                    if target:
                        yield target, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                where = ".".join(base + ([node.module] if node.module else []))
            else:
                where = node.module or ""
                if where.split(".")[0] != PACKAGE:
                    continue
            for alias in node.names:
                sub = f"{where}.{alias.name}"
                target = sub if sub in known else _resolve(where, known)
                if target:
                    yield target, node.lineno
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and ((isinstance(node.func, ast.Name) and node.func.id == "__import__")
                   or (isinstance(node.func, ast.Attribute)
                       and node.func.attr == "import_module"))):
            name = node.args[0].value
            if name.split(".")[0] == PACKAGE:
                target = _resolve(name, known)
                if target:
                    yield target, node.lineno


def graph(root: Path = ROOT) -> dict[str, dict[str, int]]:
    """module -> {imported module: first line that imports it}."""
    known = modules(root)
    edges: dict[str, dict[str, int]] = {}
    for module, path in known.items():
        out = edges.setdefault(module, {})
        for target, line in _imports(module, path, known):
            if target != module:
                out.setdefault(target, line)
    return edges


def room_of(module: str) -> str:
    """The room a module is in, as a reader of the file tree sees it: the module or folder at
    the root of ``ovlab/`` (``ovlab.properties.hint`` -> ``properties``), or at the root of a
    container (``ovlab.sim.runtime.core`` -> ``sim.runtime``); the facade is its own room."""
    if module == FACADE:
        return FACADE
    parts = module.split(".")[1:]
    if parts[0] in CONTAINERS and len(parts) > 1:
        return ".".join(parts[:2])
    return parts[0]


def layer_of(module: str) -> int:
    """The layer index of a module (of its room); the facade is above all of them."""
    if module == FACADE:
        return [name for name, _ in LAYERS].index("facade")
    room = room_of(module)
    for i, (_, members) in enumerate(LAYERS):
        if room in members:
            return i
    raise ValueError(f"{module}: its room {room!r} is in no layer of tools/import_graph.py "
                     "(add it to LAYERS)")


def upward(edges: dict[str, dict[str, int]]) -> list[tuple[str, str, int]]:
    """(importer, imported, line) for every import of a higher layer."""
    return sorted((m, t, line) for m, out in edges.items() for t, line in out.items()
                  if layer_of(t) > layer_of(m))


def upward_rooms(edges: dict[str, dict[str, int]]) -> dict[tuple[str, str], list[tuple[str, str, int]]]:
    """(room, room it imports) -> the module imports behind that arrow, for every arrow that
    runs up the layers: two modules of ``sim/runtime`` importing ``sim/runner`` are one arrow."""
    arrows: dict[tuple[str, str], list[tuple[str, str, int]]] = {}
    for m, t, line in upward(edges):
        arrows.setdefault((room_of(m), room_of(t)), []).append((m, t, line))
    return arrows


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (the facade left out)."""
    nodes = [m for m in edges if m != FACADE]
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:  # Tarjan's algorithm (the package is small: recursion is fine)
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w == FACADE:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in nodes:
        if v not in index:
            visit(v)
    return sorted(groups)


def report(root: Path = ROOT) -> tuple[str, int, int]:
    """The printed report, the number of upward arrows between rooms and of circles."""
    edges = graph(root)
    arrows = upward_rooms(edges)
    circles = cycles(edges)
    names = [name for name, _ in LAYERS]
    files = modules(root)
    rooms = {room_of(m) for m in edges}
    n_arrows = len({(room_of(m), room_of(t)) for m, out in edges.items() for t in out
                    if room_of(m) != room_of(t)})
    lines = ["Layers, lowest first: " + " < ".join(names),
             f"{sum(len(v) for v in edges.values())} imports between {len(edges)} modules; "
             f"{n_arrows} arrows between {len(rooms)} rooms",
             f"{len(arrows)} arrow(s) run up between rooms (at most {MAX_UPWARD} allowed):"]
    for (a, b), imports in sorted(arrows.items()):
        lines.append(f"  {a} ({names[layer_of(imports[0][0])]}) -> {b} "
                     f"({names[layer_of(imports[0][1])]}):")
        for m, t, line in imports:
            lines.append(f"    {m} -> {t}  [{files[m].relative_to(root)}:{line}]")
    lines.append(f"{len(circles)} circle(s):")
    for group in circles:
        members = set(group)
        inner = [f"{m} -> {t}" for m in group for t in edges[m] if t in members]
        lines.append("  " + "; ".join(inner))
    return "\n".join(lines), len(arrows), len(circles)


def main(argv: list[str] | None = None) -> int:
    root = Path(argv[0]).resolve() if argv else ROOT
    text, n_up, n_circles = report(root)
    print(text)
    return 0 if n_up <= MAX_UPWARD and n_circles == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
