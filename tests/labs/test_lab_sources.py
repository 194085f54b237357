"""What a learner meets in the lab sources: no test machinery in the cells, short labs, and
stable rebuilds (an unchanged lab rebuilds to the same bytes, so ``make labs`` leaves ``git diff``
empty)."""

from __future__ import annotations

import re
from pathlib import Path

import jupytext
import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "lab-sources").glob("[0-9][0-9]-*.py"))


@pytest.mark.parametrize("src", SOURCES, ids=[s.stem for s in SOURCES])
def test_no_test_markers_in_learner_cells(src):
    """nbval reads cell tags (nbval-ignore-output, raises-exception); a `# NBVAL_...` comment
    would show in the learner's cell."""
    for cell in jupytext.read(src).cells:
        assert "NBVAL_" not in cell.source, f"{src.name}: use a cell tag, not {cell.source[:40]!r}"


# "the seed's laptop", "seed 001", "the seed experiment", "the seeds never mention": documents
DOCUMENT_SEED = re.compile(r"\bseed(?:'s\b|s\b|\s+(?:document|experiment|article|script|table|"
                           r"screenshot|repositor|readme|laptop|machine|run|\d))", re.I)


@pytest.mark.parametrize("src", SOURCES, ids=[s.stem for s in SOURCES])
def test_seed_means_only_the_random_seed(src):
    """The source documents are named (the AUTO page, the yas-sim article...), never "the seed"."""
    prose = "\n".join(c.source for c in jupytext.read(src).cells if c.cell_type == "markdown")
    bad = [m.group(0) for m in DOCUMENT_SEED.finditer(prose)]
    assert not bad, f"{src.name}: 'seed' used for a document: {bad}"


def test_the_seed_rule_tells_documents_from_random_seeds():
    for text in ["the seed's laptop", "seed 001", "the seed experiment", "the seeds never mention"]:
        assert DOCUMENT_SEED.search(text), text
    for text in ["`seed=0` fixes the noise", "[--seed N]", "Same seed, same platform",
                 "another platform or seed.", "with the same seed it gives"]:
        assert not DOCUMENT_SEED.search(text), text


def test_labs_05_and_07_are_short(tool):
    """Issue 16: at most ~25 code cells and ~10 minutes of reading each."""
    for lab in tool("lab_stats").all_stats():
        if lab.lab[:2] in ("05", "07"):
            assert lab.code_cells <= 25, lab
            assert lab.reading_min <= 10.5, lab


def test_an_unchanged_lab_rebuilds_to_the_same_bytes(tool, tmp_path):
    run_labs = tool("run_labs")
    src = ROOT / "lab-sources" / "00-start-here.py"
    first = run_labs.build(src, out_dir=tmp_path / "a").read_bytes()
    second = run_labs.build(src, out_dir=tmp_path / "b").read_bytes()
    assert first == second, "two builds of the same source differ (ids, metadata or outputs)"
    stored = (ROOT / "labs" / "00-start-here.ipynb").read_bytes()
    assert first == stored, "labs/00-start-here.ipynb is stale: run python tools/run_labs.py 00"


# a path a lab writes to (a cache, a trace file, a folder it empties), given as a string literal
WRITTEN_PATH = re.compile(r"""(?:CACHE_DIR["']?\s*:|cache_dir\s*:|to_chrome_trace\(|rmtree\(|"""
                          r"""cache_dir\s*=\s*Path\()\s*["']([^"']+)["']""")


@pytest.mark.parametrize("src", SOURCES, ids=[s.stem for s in SOURCES])
def test_labs_write_only_to_a_hidden_folder(src):
    """Running a lab leaves the learner's file browser as it was: caches and trace files go to
    the hidden .ovlab-work/ beside the notebook (or a temporary folder)."""
    code = "\n".join(c.source for c in jupytext.read(src).cells if c.cell_type == "code")
    for path in WRITTEN_PATH.findall(code):
        assert path.removeprefix("./").startswith(".ovlab-work/"), f"{src.name} writes {path!r}"


def test_the_seed_experiments_default_cache_is_hidden():
    import inspect

    from ovlab import experiments

    assert '"CACHE_DIR": "./.ovlab-work/cache"' in inspect.getsource(experiments.auto_test)
