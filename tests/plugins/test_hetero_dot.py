"""OPENVINO_HETERO_VISUALIZE's .dot files (grammar checked against the real runtime's files) and
the plotly graph figure."""

import re
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest

import ovlab
import ovlab.opset as ops
from ovlab import zoo
from ovlab.sim.graph import Constant, Parameter
from ovlab.sim.plugins.hetero.dot import PALETTE
from ovlab.sim.viz.hetero import graph_figure

# the .dot files the real runtime wrote (shared/ sits beside the project root); none -> skipped
REAL_DOT = next((p for p in (Path(__file__).resolve().parents[3] / "shared",
                             Path("/work/shared"))
                 if p.exists()), Path("/nonexistent")) / "reference/ov_probe/hetero_dot"

HEADER = "digraph \n{\n"
STATEMENT = re.compile(
    r'    (?:(?P<clone>CLONE_\d+)\[ shape="box"  style="dashed"  color="(?P<ccolour>blue|black)"'
    r'  label="(?P<clabel>[^"]*)" \]'
    r'|(?P<node>\w+) \[shape=box (?P<outline>color=black|color=crimson penwidth=1\.5) '
    r'label="(?P<label>(?:[^"\\\n]|\\.)*)"(?: fillcolor=(?P<fill>\w+) style=filled)?\]'
    r'|(?P<src>\w+) -> (?P<dst>\w+))\n')


def parse_dot(text: str) -> dict:
    """A small parser of exactly the grammar HETERO's VisualizeTree writes."""
    assert text.startswith(HEADER) and text.endswith("}\n")
    nodes, clones, edges = {}, {}, []
    pos, end = len(HEADER), len(text) - 2
    while pos < end:
        m = STATEMENT.match(text, pos)
        assert m, f"unexpected text at {pos}: {text[pos:pos + 80]!r}"
        pos = m.end()
        if m["clone"]:
            assert m["clone"] not in clones
            clones[m["clone"]] = (m["ccolour"], m["clabel"])
        elif m["node"]:
            assert m["node"] not in nodes, f"{m['node']} declared twice"
            fields = m["label"].split("\\n")
            nodes[m["node"]] = {"fields": fields, "fill": m["fill"],
                                "result": m["outline"] != "color=black"}
        else:
            assert m["src"] in nodes or m["src"] in clones, f"edge from undeclared {m['src']}"
            assert m["dst"] in nodes, f"edge to undeclared {m['dst']}"
            edges.append((m["src"], m["dst"]))
    for name, (_colour, label) in clones.items():  # a clone: name lines, then {type}[shape]
        lines = label.split("\n")
        assert re.fullmatch(r"[^\\]*\\n\w+\\nopset\d+::(Parameter|Constant)", lines[0])
        assert re.fullmatch(r"\{\w+\}\[[\d,]*\]", lines[1])
        assert len(lines) == 2 or lines[2].startswith("value: [ ")
        assert sum(1 for s, _ in edges if s == name) == 1  # one clone per use
    return {"nodes": nodes, "clones": clones, "edges": edges}


def check_labels(parsed: dict, subgraphs: bool) -> None:
    for _name, node in parsed["nodes"].items():
        fields = node["fields"]
        assert re.fullmatch(r"opset\d+::\w+", fields[2])
        assert fields[-1].startswith("device=")
        if subgraphs:
            assert len(fields) == 5 and re.fullmatch(r"subgraph=\d+", fields[3])
        else:
            assert len(fields) == 4
        assert node["fill"] in PALETTE


@pytest.mark.parametrize("path", sorted(REAL_DOT.glob("*.dot")), ids=lambda p: p.name)
def test_h10_parser_accepts_the_real_runtime_files(path):
    parsed = parse_dot(path.read_text())
    check_labels(parsed, subgraphs="subgraphs" in path.name)
    assert parsed["edges"] and parsed["clones"]


@pytest.fixture
def split_model():
    m = zoo.load("small-cnn")
    for op in m.get_ordered_ops():
        op.get_rt_info()["affinity"] = "CPU" if op.get_type_name() in ("Relu", "MaxPool") else "GPU"
    return m


def test_h10_dot_files_parse_and_name_every_op(split_model, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENVINO_HETERO_VISUALIZE", "")
    monkeypatch.chdir(tmp_path)
    core = ovlab.Core("laptop")
    compiled = core.compile_model(split_model, "HETERO:GPU,CPU")
    n_sub = compiled.get_property("HETERO_NUMBER_OF_SUBMODELS")
    affinity = parse_dot((tmp_path / "hetero_affinity_small-cnn.dot").read_text())
    subgraphs = parse_dot((tmp_path / "hetero_subgraphs_small-cnn.dot").read_text())
    check_labels(affinity, subgraphs=False)
    check_labels(subgraphs, subgraphs=True)
    for parsed in (affinity, subgraphs):
        clone_text = " ".join(label for _c, label in parsed["clones"].values())
        for op in split_model.get_ordered_ops():
            if isinstance(op, (Parameter, Constant)):
                assert f"{op.get_friendly_name()}\\n{op.get_name()}" in clone_text
            else:
                node = parsed["nodes"][op.get_name()]
                assert node["fields"][:2] == [op.get_friendly_name(), op.get_name()]
                assert node["fields"][-1] == f"device={op.get_rt_info()['affinity']}"
                assert node["result"] == (op.get_type_name() == "Result")
    # every graph edge is drawn once (Constant/Parameter edges through their clones)
    n_edges = sum(len(op.input_values()) for op in split_model.get_ordered_ops())
    assert len(subgraphs["edges"]) == n_edges
    ids = {int(n["fields"][3].split("=")[1]) for n in subgraphs["nodes"].values()}
    assert ids == set(range(n_sub))
    # one colour per device in the affinity file, one per submodel in the subgraphs file
    by_device = {}
    for n in affinity["nodes"].values():
        by_device.setdefault(n["fields"][-1], set()).add(n["fill"])
    assert all(len(c) == 1 for c in by_device.values()) and len(by_device) == 2
    for n in subgraphs["nodes"].values():
        assert n["fill"] == PALETTE[int(n["fields"][3].split("=")[1]) % len(PALETTE)]


def test_h10_constant_values_are_printed_like_the_runtime(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENVINO_HETERO_VISUALIZE", "1")
    monkeypatch.chdir(tmp_path)
    x = ops.parameter([1, 12], name="x")
    k = ops.constant((np.arange(12, dtype=np.float32) * 0.5 + 1e-7).reshape(1, 12), name="k")
    ovlab.Core("cpu").compile_model(ovlab.Model([ops.multiply(x, k, name="mul")], [x], "vals"),
                                    "HETERO:CPU")
    text = (tmp_path / "hetero_affinity_vals.dot").read_text()
    # the same values gave exactly this line on the real runtime (probe run for this test)
    assert "{f32}[1,12]\nvalue: [ 1e-07, 0.5, 1, 1.5, 2, 2.5, 3, ... ]\" ]" in text
    assert re.search(r'CLONE_\d+\[ shape="box"  style="dashed"  color="blue"  label="x\\n'
                     r'Parameter_\d+\\nopset1::Parameter\n\{f32\}\[1,12\]" \]', text)


def test_h10_no_files_without_the_variable(split_model, tmp_path, monkeypatch):
    monkeypatch.delenv("OPENVINO_HETERO_VISUALIZE", raising=False)
    monkeypatch.chdir(tmp_path)
    ovlab.Core("laptop").compile_model(split_model, "HETERO:GPU,CPU")
    monkeypatch.setenv("OPENVINO_HETERO_VISUALIZE", "0")  # "0" counts: presence is enough
    ovlab.Core("laptop").compile_model(split_model, "CPU")  # and only HETERO writes files
    assert list(tmp_path.iterdir()) == []


# --- the plotly figure ------------------------------------------------------------------------------
def test_graph_figure_of_a_compiled_googlenet_is_layered_and_coloured():
    core = ovlab.Core("workstation")
    g = zoo.load("googlenet-v1")
    compiled = core.compile_model(g, "HETERO:NPU,CPU")
    n_sub = compiled.get_property("HETERO_NUMBER_OF_SUBMODELS")
    fig = graph_figure(compiled, color_by="subgraph")
    assert isinstance(fig, go.Figure)
    assert "googlenet-v1" in fig.layout.title.text and f"{n_sub} submodels" in fig.layout.title.text
    boxes = [t for t in fig.data if t.mode and "markers" in t.mode]
    legend = [t.name for t in boxes]
    assert [f"subgraph {i} (" in " ".join(legend) for i in range(n_sub)] == [True] * n_sub
    n_ops = sum(1 for op in g.get_ordered_ops() if not isinstance(op, Constant))
    assert sum(len(t.x) for t in boxes) == n_ops  # Constants hidden by default
    hover = " ".join(h for t in boxes for h in t.hovertext)
    assert "pool1/norm1" in hover and "LRN" in hover and "device: CPU" in hover
    # x is the topological depth: every edge goes strictly to the right
    edges = fig.data[0]
    xs = [x for x in edges.x]
    assert all(xs[i] < xs[i + 1] for i in range(0, len(xs), 3))
    by_device = graph_figure(compiled)
    assert {t.name for t in by_device.data if t.mode and "markers" in t.mode} == {"NPU", "CPU"}


def test_graph_figure_of_a_model_uses_its_affinities_or_a_query(split_model):
    fig = graph_figure(split_model, color_by="subgraph", show_constants=True)
    names = {t.name for t in fig.data if t.mode and "markers" in t.mode}
    assert "constants" in names and "subgraph 6 (GPU)" in names
    core = ovlab.Core("laptop")
    query = core.query_model(split_model, "HETERO:CPU,GPU")
    fig = graph_figure(split_model, affinity=query)
    assert {t.name for t in fig.data if t.mode and "markers" in t.mode} == {"CPU"}
    on_cpu = graph_figure(core.compile_model(zoo.load("mlp"), "CPU"))
    assert {t.name for t in on_cpu.data if t.mode and "markers" in t.mode} == {"CPU"}
    with pytest.raises(ValueError, match="color_by"):
        graph_figure(split_model, color_by="colour")
    with pytest.raises(TypeError):
        graph_figure(42)
