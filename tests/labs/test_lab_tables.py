"""The labs' time and memory figures in docs/instructors.md and the README come from one
measurement (benchmarks/results/labs.json), and that measurement matches the lab sources."""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_docs_quote_the_measurement(tool):
    tables = tool("lab_tables")
    data = tables.load()
    for path, render in ((tables.INSTRUCTORS, tables.render_instructors),
                         (tables.README, tables.render_readme),
                         (tables.FACILITATOR, tables.render_facilitator)):
        text = path.read_text(encoding="utf-8")
        assert render(text, data) == text, f"{path.name} is stale: run python tools/lab_tables.py"


def test_the_measurement_covers_every_lab_and_matches_the_sources(tool):
    data = json.loads((ROOT / "benchmarks/results/labs.json").read_text())
    labs = sorted(p.stem for p in (ROOT / "lab-sources").glob("[0-9][0-9]-*.py"))
    stats = tool("lab_stats")
    assert data["stats"] == stats.as_json(stats.all_stats()), \
        "lab sources changed: run python tools/lab_stats.py --write, then tools/lab_tables.py"
    assert sorted(data["memory"]["labs"]) == labs, \
        "a lab without a measured peak: run benchmarks/bench_lab_memory.py NN --record"
    assert data["memory"]["date"] and data["memory"]["machine"]


def test_every_recorded_lab_kernel_peak_is_at_most_230_mb():
    """A learner keeps several labs open under one memory budget (benchmarks/bench_lab_memory.py
    records each kernel's peak after Run All)."""
    data = json.loads((ROOT / "benchmarks/results/labs.json").read_text())
    over = {lab: mb for lab, mb in data["memory"]["labs"].items() if mb > 230}
    assert not over, f"over 230 MB ({data['memory']['date']}, {data['memory']['machine']}): {over}"


def test_every_lab_has_its_objectives_and_a_readme_row(tool):
    tables = tool("lab_tables")
    data = tables.load()
    readme = tables.README.read_text(encoding="utf-8")
    for lab in data["stats"]:
        assert lab[:2] in tables.OBJECTIVES, f"{lab}: add its objectives to tools/lab_tables.py"
        assert f"(labs/{lab}.ipynb)" in readme, f"{lab}: add its row to the README's lab table"
    text = tables.INSTRUCTORS.read_text(encoding="utf-8")
    for lab in data["stats"]:
        assert f"| {lab[:2]} {tables.OBJECTIVES[lab[:2]][0]} |" in text
    # the labs folder's own index and lab 00's contents link every lab too
    index = (tables.README.parent / "labs" / "README.md").read_text(encoding="utf-8")
    start = (tables.README.parent / "lab-sources" / "00-start-here.py").read_text(encoding="utf-8")
    for lab in data["stats"]:
        assert f"]({lab}.ipynb)" in index, f"{lab}: add its row to labs/README.md"
        assert lab.startswith("00") or f"]({lab}.ipynb)" in start, \
            f"{lab}: add it to lab 00's contents"


def test_a_changed_number_is_caught(tool):
    tables = tool("lab_tables")
    data = tables.load()
    text = tables.INSTRUCTORS.read_text(encoding="utf-8")
    lab = sorted(data["stats"])[1]
    data["stats"][lab]["class_min"] += 5
    assert tables.render_instructors(text, data) != text
