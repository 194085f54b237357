"""The opening deck's slides in Chromium with the network cut: reveal.js starts from the local
copy (``tools/build_deck.py``) with every http(s) request refused.

It lives with the browser tests to share their Chromium (``conftest.browser``): a second
``sync_playwright()`` in a process whose session fixture already runs one fails ("Sync API
inside the asyncio loop"), as it did when ``make test`` ran it in the same worker after them.
The deck's other checks are in ``tests/test_deck.py``."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("deck_checks", ROOT / "tests" / "test_deck.py")
deck = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(deck)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    build = deck._tool("build_deck")
    try:
        return build.build(tmp_path_factory.mktemp("deck"))
    except SystemExit as err:  # no reveal.js on this machine: no wheel, no pip cache, no network
        if "no reveal.js here" in str(err):
            pytest.skip(str(err))
        raise


def test_the_slides_show_in_chromium_with_the_network_cut(browser, built):
    refused: list[str] = []
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.route(re.compile(r"^https?://"),
                   lambda route: (refused.append(route.request.url), route.abort()))
        page.goto(built.as_uri())
        page.wait_for_function("window.Reveal && Reveal.isReady()", timeout=15000)
        total = page.evaluate("Reveal.getHorizontalSlides().length")
        page.keyboard.press("ArrowRight")
        moved = page.evaluate("Reveal.getIndices().h")
    finally:
        page.close()
    slides = sum(c.get("metadata", {}).get("slideshow", {}).get("slide_type") == "slide"
                 for c in deck._cells())
    assert total == slides and moved == 1
    assert not refused, refused
