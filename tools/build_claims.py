"""Write ``labs/CLAIMS.md``: what each claim id the labs cite means, where it is shown, how it is
tested.

The labs cite behaviours by id ("claim A04", "B01–B09"). This script builds one glossary from
three places, so it can never drift from them:

- the claim lists ``docs/claims.md`` and any later ``docs/claims-*.md`` (tables of
  ``| id | claim |`` rows under ``## section`` headings);
- the lab sources ``lab-sources/NN-*.py`` (the ids each lab's text cites, ranges expanded);
- the tests under ``tests/`` whose function names carry an id (``def test_a04_...``).

    python tools/build_claims.py           # rewrite labs/CLAIMS.md
    python tools/build_claims.py --check   # exit 1 if labs/CLAIMS.md is stale

``tests/test_claims_glossary.py`` fails when the file is stale, when a lab cites an id that no
list defines, or when a claim has no test.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "labs" / "CLAIMS.md"
ID = r"[A-Z]\d\d"
_ROW = re.compile(rf"^\|\s*({ID})\s*\|(.*)\|\s*$")
_RANGE = re.compile(rf"\b({ID})\s*(?:-|–|to)\s*([A-Z]?)(\d\d)\b")
_SINGLE = re.compile(rf"\b({ID})\b")
_TEST = re.compile(r"^\s*(?:async\s+)?def\s+(test_([a-z])(\d\d)(?:_\w*)?)\s*\(", re.M)


@dataclass
class Claim:
    id: str
    text: str
    section: str
    source: str
    labs: list[str] = field(default_factory=list)
    tests: list[str] = field(default_factory=list)


def read_claims(root: Path = ROOT) -> dict[str, Claim]:
    """Every claim of ``docs/claims.md`` and ``docs/claims-*.md``, in file order."""
    claims: dict[str, Claim] = {}
    files = sorted((root / "docs").glob("claims*.md"), key=lambda p: (p.name != "claims.md", p.name))
    for path in files:
        section = ""
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("## "):
                section = line[3:].strip()
            match = _ROW.match(line)
            if match:
                cid, text = match.group(1), match.group(2).strip()
                claims.setdefault(cid, Claim(cid, text, section, path.name))
    return claims


def _is_product_name(text: str, start: int) -> bool:
    """``Pro B70`` or ``Arc A770``: a capitalized word right before is a product, not a claim
    (claims follow "claim", "(", ",", ";" or "and")."""
    return re.search(r"\b[A-Z][a-z]+\s+$", text[max(0, start - 20):start]) is not None


def cited_ids(text: str) -> set[str]:
    """The ids a text cites: ``A04``, and ranges such as ``B01-B09``, ``B01–B09`` or ``H01-13``."""
    ids = {m.group(1) for m in _SINGLE.finditer(text) if not _is_product_name(text, m.start())}
    for m in _RANGE.finditer(text):
        first, letter, last = m.groups()
        letter = letter or first[0]
        if letter == first[0] and not _is_product_name(text, m.start()):
            ids.update(f"{letter}{n:02d}" for n in range(int(first[1:]), int(last) + 1))
    return ids


def lab_citations(root: Path = ROOT) -> dict[str, set[str]]:
    """Lab notebook name -> ids its markdown cites."""
    import jupytext

    out = {}
    for src in sorted((root / "lab-sources").glob("[0-9][0-9]-*.py")):
        nb = jupytext.read(src)
        text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        out[src.stem] = cited_ids(text)
    return out


def test_names(root: Path = ROOT) -> dict[str, list[str]]:
    """Claim id -> ``path::test_name`` of every test whose name carries it."""
    out: dict[str, list[str]] = {}
    for path in sorted((root / "tests").rglob("test_*.py")):
        rel = path.relative_to(root).as_posix()
        for name, letter, number in _TEST.findall(path.read_text(encoding="utf-8")):
            out.setdefault(f"{letter.upper()}{number}", []).append(f"{rel}::{name}")
    return out


def collect(root: Path = ROOT) -> dict[str, Claim]:
    claims = read_claims(root)
    for lab, ids in lab_citations(root).items():
        for cid in sorted(ids):
            if cid in claims:
                claims[cid].labs.append(lab)
    tests = test_names(root)
    for cid, claim in claims.items():
        claim.tests = tests.get(cid, [])
    return claims


def render(claims: dict[str, Claim]) -> str:
    lines = [
        "# Claims: what the ids in the labs mean",
        "",
        "The labs cite behaviours by id (\"claim A04\", \"B01–B09\"). Each id is one behaviour of",
        "OpenVINO that ovlab reproduces, taken from OpenVINO's documentation pages on",
        "[AUTO](https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-devices-and-modes/auto-device-selection.html),",
        "[HETERO](https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-devices-and-modes/hetero-execution.html)",
        "and [automatic batching](https://docs.openvino.ai/2025/openvino-workflow/running-inference/inference-devices-and-modes/automatic-batching.html),",
        "from the yas-sim article and scripts",
        "([yas-sim/openvino-auto-feature-visualization](https://github.com/yas-sim/openvino-auto-feature-visualization)),",
        "from the OpenVINO source, or from measurements of the real runtime. The letter says the",
        "topic: A for AUTO, B for automatic batching, E for the yas-sim experiments, H for HETERO",
        "(later lists add more letters).",
        "",
        "For each id: the claim, the labs that show it, and the tests that check it (a test's name",
        "carries the id). This page is generated by `tools/build_claims.py` from the claim lists",
        "(`docs/claims*.md`), the lab sources and the tests; a test fails when it is out of date.",
        "",
    ]
    sections: dict[str, list[Claim]] = {}
    for claim in claims.values():
        sections.setdefault(claim.section, []).append(claim)
    for section, members in sections.items():
        lines += [f"## {section}", "", "| id | claim | shown in | tested by |", "|---|---|---|---|"]
        for claim in members:
            labs = ", ".join(f"[{lab[:2]}]({lab}.ipynb)" for lab in claim.labs) or "-"
            tests = "<br>".join(f"`{t.split('::')[1]}` ({t.split('::')[0]})" for t in claim.tests)
            lines.append(f"| <a id=\"{claim.id.lower()}\"></a>{claim.id} | {claim.text} | "
                         f"{labs} | {tests or '-'} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str]) -> int:
    text = render(collect())
    if "--check" in argv:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT.relative_to(ROOT)} is stale: run python tools/build_claims.py")
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({len(text.splitlines())} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
