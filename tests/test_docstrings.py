"""Module docstrings that are true: none names a feature as missing where the code serves it.

Every module's opening docstring is read; a sentence with one of the phrases below says a
feature is missing, and each name it gives in double backticks or as a device name (``NPU``,
``HETERO``...) is checked against the names ovlab serves: the public names of ``ovlab``, of
``ovlab.sim.genai`` (``openvino_genai``), of ``ovlab.opset`` and the plugins' device names. A
sentence that names a served feature as missing is a docstring that drifted from the code
(``genai/pipeline.py`` said the NPU pipeline and HETERO splits "are not simulated yet" long after
both were built).
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: the phrases that name a feature as missing
PHRASES = ("not simulated", "not yet", "not available")
#: (module, name) pairs whose sentence is true although the name is served (a part of it missing)
ALLOWED: set[tuple[str, str]] = set()


def _served() -> set[str]:
    import ovlab
    import ovlab.opset
    import ovlab.sim.genai
    from ovlab.sim.plugins import PLUGINS

    names = set(PLUGINS)
    for module in (ovlab, ovlab.sim.genai, ovlab.opset):
        names |= {n for n in dir(module) if not n.startswith("_")}
    names |= set(ovlab._LAZY)
    return names


def _sentences(text: str):
    flat = " ".join(text.split())
    # a sentence ends at '.', ';' or ':' followed by a space (dots inside ``a.b`` do not end one)
    yield from re.split(r"(?<=[.;:])\s+", flat)


def _named(sentence: str) -> set[str]:
    """The names a sentence gives: ``code`` identifiers (each dotted part) and device names."""
    names = set()
    for code in re.findall(r"``([^`]+)``", sentence):
        names |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", code))
    names |= set(re.findall(r"\b(?:CPU|GPU|NPU|AUTO|MULTI|HETERO|BATCH)\b", sentence))
    return names


def drifted(module: str, docstring: str, served: set[str]) -> list[str]:
    """The claims of one docstring that a served feature is missing."""
    found = []
    for sentence in _sentences(docstring):
        if not any(phrase in sentence.lower() for phrase in PHRASES):
            continue
        for name in sorted(_named(sentence) & served):
            if (module, name) not in ALLOWED:
                found.append(f"{module}: {name!r} is served, yet: {sentence}")
    return found


def _docstrings():
    for path in sorted((ROOT / "ovlab").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        yield module, ast.get_docstring(ast.parse(path.read_text())) or ""


def test_every_module_has_an_opening_docstring():
    missing = [module for module, doc in _docstrings() if not doc.strip()]
    assert not missing, missing


def test_no_docstring_names_a_served_feature_as_missing():
    served = _served()
    problems = [p for module, doc in _docstrings() for p in drifted(module, doc, served)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("text, flagged", [
    ("the NPU's stateful static-shape pipeline and HETERO splits are not simulated yet and say so.",
     {"NPU", "HETERO"}),
    ("``LLMPipeline`` is not available here.", {"LLMPipeline"}),
    ("``RemoteTensor`` is not simulated (device memory shared with OpenCL).", set()),
    ("HETERO splits the model over devices.", set()),  # no phrase: nothing claimed missing
])
def test_the_check_reads_a_claim(text, flagged):
    found = drifted("ovlab.example", text, _served())
    assert {re.search(r"'(\w+)'", line).group(1) for line in found} == flagged
