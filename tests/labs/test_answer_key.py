"""The instructors' answer key is generated from the code the checks use, and kept current."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_answer_key_is_current(tool):
    key = tool("answer_key")
    expected = key.render()
    current = (ROOT / "docs" / "answer-key.md").read_text(encoding="utf-8")
    assert current == expected, "docs/answer-key.md is stale: run python tools/answer_key.py"


def test_answer_key_covers_every_lab(tool):
    text = (ROOT / "docs" / "answer-key.md").read_text(encoding="utf-8")
    for src in sorted((ROOT / "lab-sources").glob("[0-9][0-9]-*.py")):
        assert f"## {src.stem}" in text
    assert "(question not found)" not in text
