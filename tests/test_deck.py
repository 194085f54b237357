"""The opening deck (``docs/deck/opening.ipynb``): a 10-minute talk with what the brief asks of
it, the track that the generated tables give, and slides that show with no network.

Its outputs are compared with a fresh run by nbval (``make deck-check``, part of ``make test``);
``make deck`` builds the slides (``tools/build_deck.py``)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DECK = ROOT / "docs" / "deck" / "opening.ipynb"
# a talk of 10 minutes: about a minute a slide, and what a speaker reads out at 130 words a
# minute is the speaker's notes; the slides' own text is what the room reads meanwhile
MAX_SLIDES = 10
MAX_WORDS = 1300


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cells() -> list[dict]:
    return json.loads(DECK.read_text(encoding="utf-8"))["cells"]


def _text(cell: dict) -> str:
    return "".join(cell["source"])


def test_the_deck_is_slides_of_a_ten_minute_talk():
    cells = _cells()
    kinds = [c.get("metadata", {}).get("slideshow", {}).get("slide_type") for c in cells]
    assert None not in kinds, "every cell says where it goes in the slides"
    assert kinds[0] == "slide" and set(kinds) <= {"slide", "subslide", "fragment", "notes", "-"}
    assert kinds.count("slide") <= MAX_SLIDES
    words = sum(len(re.findall(r"\w+", _text(c))) for c in cells if c["cell_type"] == "markdown")
    assert words <= MAX_WORDS, f"{words} words"
    # every slide with content has speaker's notes, except the last (the hand-over to lab 00)
    starts = [i for i, k in enumerate(kinds) if k == "slide"]
    for a, b in zip(starts[:-1], starts[1:], strict=True):
        assert "notes" in kinds[a:b] or b == starts[-1], _text(cells[a]).splitlines()[0]


def test_the_deck_says_what_the_opening_must_say():
    text = "\n".join(_text(c) for c in _cells()).lower()
    for topic in ("same api as `openvino`", "auto", "hetero", "automatic batching",
                  "openvino genai", "continuous batching", "what is simulated, what is real",
                  "the track of today", "make lab", "binder", "set_learner", "--no-index"):
        assert topic in text, topic


def test_the_code_ran_and_its_outputs_are_stored():
    code = [c for c in _cells() if c["cell_type"] == "code"]
    assert code and all(c["outputs"] for c in code), "run the deck before committing it"
    errors = [o for c in code for o in c["outputs"] if o["output_type"] == "error"]
    assert not errors
    stderr = [o for c in code for o in c["outputs"] if o.get("name") == "stderr"]
    assert not stderr, "a slide shows no warning"


def test_the_deck_shows_the_three_hour_track_as_the_tables_give_it():
    """The deck's track is rendered from ``benchmarks/results/labs.json`` when it runs; its
    stored output must be today's (nbval also fails when it is not)."""
    tables = _tool("lab_tables")
    want = tables.track_table(tables.load(), 1, goals=False)
    shown = [o["data"]["text/markdown"] for c in _cells() if c["cell_type"] == "code"
             for o in c["outputs"] if "text/markdown" in o.get("data", {})]
    shown = ["".join(s) if isinstance(s, list) else s for s in shown]
    assert shown == [want]
    total = re.search(r"\| \| total [^|]*\| (\d+) \|$", want, re.M)
    assert total and int(total.group(1)) == tables.track_minutes(tables.load(), tables.TRACKS[1])


def test_remote_loads_are_found():
    build = _tool("build_deck")
    assert build.remote_loads('<script src="https://cdn.example/x.js"></script>')
    assert build.remote_loads("<link rel='stylesheet' href='//cdn.example/x.css'>")
    assert build.remote_loads("import mermaid from 'https://cdn.example/m.mjs';")
    assert build.CSS_IMPORT.search("@import url(https://fonts.googleapis.com/css?family=Lato);")
    assert not build.CSS_IMPORT.search("@import url(./fonts/source-sans-pro/source-sans-pro.css);")
    assert not build.remote_loads('<script src="reveal.js/dist/reveal.js"></script>'
                                  '<a href="https://docs.openvino.ai">docs</a>')


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    build = _tool("build_deck")
    out = tmp_path_factory.mktemp("deck")
    try:
        return build.build(out)
    except SystemExit as err:  # no reveal.js on this machine: no wheel, no pip cache, no network
        if "no reveal.js here" in str(err):
            pytest.skip(str(err))
        raise


def test_the_slides_load_nothing_from_the_network(built):
    html = built.read_text(encoding="utf-8")
    assert not _tool("build_deck").remote_loads(html)
    for ref in re.findall(r"<(?:script|link)\b[^>]*\b(?:src|href)=\"([^\"]+)\"", html):
        assert (built.parent / ref).exists(), ref
    assert html.count("<section") >= sum(
        c.get("metadata", {}).get("slideshow", {}).get("slide_type") == "slide" for c in _cells())
