"""``labs/CLAIMS.md`` is generated from the claim lists, the labs and the tests; it must be
current, and the ids the labs cite must mean something and be tested."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_claims_glossary_is_current(tool):
    build = tool("build_claims")
    expected = build.render(build.collect())
    current = (ROOT / "labs" / "CLAIMS.md").read_text(encoding="utf-8")
    assert current == expected, "labs/CLAIMS.md is stale: run python tools/build_claims.py"


def test_every_cited_id_is_a_claim(tool):
    build = tool("build_claims")
    claims = build.read_claims()
    unknown = {lab: sorted(ids - set(claims)) for lab, ids in build.lab_citations().items()
               if ids - set(claims)}
    assert not unknown, f"labs cite ids that no docs/claims*.md defines: {unknown}"


def test_every_claim_has_a_test(tool):
    untested = [c.id for c in tool("build_claims").collect().values() if not c.tests]
    assert not untested, f"claims without a test named after them: {untested}"


def test_ranges_and_single_ids_are_read(tool):
    assert tool("build_claims").cited_ids("claims B01–B03 and A04, H12-H13") == {
        "B01", "B02", "B03", "A04", "H12", "H13"}
    assert tool("build_claims").cited_ids("an Arc Pro B70 (claim N19)") == {"N19"}


def test_every_lab_links_the_glossary():
    import jupytext

    missing = []
    for src in sorted((ROOT / "lab-sources").glob("[0-9][0-9]-*.py")):
        text = "\n".join(c.source for c in jupytext.read(src).cells if c.cell_type == "markdown")
        if "CLAIMS.md" not in text:
            missing.append(src.stem)
    assert not missing, f"labs that do not link CLAIMS.md: {missing}"
